"""REX3, WS-W, WS-S and Versatile-DB against public code, as committed data for docs/fidelity.md#successors.

Given a local clone of chang-li/MergeDTS (their ``rex3.py`` is the REX3 their paper's curves come from) and an
unpacked duelpy wheel (``pip download --no-deps duelpy``; its ``winner_stays.py``, a third party's Winner Stays), the
script runs, per matrix of ``MATRICES``: their REX3 through their own loop (``authors_python.run_once``, ported as
for the MergeDTS cells), duelpy's WS-W and WS-S through a loop of its own (below), and this project's lines of
``COMPARISONS`` through ``run_one`` with the project's root seed, ``RUNS`` runs of ``HORIZON`` slots each.  It writes
the final Copeland regret of every run to bench/authors_reference/successors.csv and what it compared to
PROVENANCE_successors.json (``reproduce.studies.successors_agreement``); ``python reproduce/fidelity.py`` then writes
the section.  Nothing here is needed by a test; their code stays in the scratch folder.

duelpy's loop: run r has seed s = cell seed + r (``authors_code.cell_seed``); ``RandomState(s)`` permutes the arms,
draws every outcome (duelpy's ``MatrixFeedback``) and breaks the algorithm's ties, as their own examples share one
state; every duel is recorded and the Copeland regret recomputed from the pairs.  duelpy's package ``__init__`` is
not run (it imports ``rmed.py``, which uses ``np.float``, removed from NumPy): ``duelpy.algorithms`` is registered as
an empty package and ``winner_stays`` imported from it, nothing of theirs edited.

Versatile-DB: given an unpacked snapshot of stephen-huan/dueling-bandit (``--stephen-huan``, a small unpackaged
JAX repository; their ``bandit/algorithms/vdb.py``) and an interpreter with JAX and equinox (``--jax-python``), each
cell of their ``vdb`` runs in that interpreter through ``bench/vdb_public.py``, unedited, with seeds cell seed + r.

Every source is optional: the lines of the sources given (and the project lines compared with them) are run and
replace their rows in RUNS; the rows and code records of the others are kept as committed.

Usage: python bench/successors_fidelity.py [--mergedts PATH --duelpy PATH] [--stephen-huan PATH --jax-python PY]
[--scratch DIR]
"""

import importlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

import numpy as np
import pandas as pd
from authors_code import ROOT, cell_seed, clone_commit
from authors_python import EDITS, PATH_EDIT, check_clone, copeland_and_gap, port, run_once, their_code

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, main_guard
from dts_reproduction.reproduce.config.paper import ROOT_SEED
from dts_reproduction.reproduce.harness.runner import run_one
from dts_reproduction.reproduce.output.tables import write_table
from dts_reproduction.reproduce.studies.successors_agreement import DIFFERENT, PROJECT, PROVENANCE, RUNS, SAME

MATRICES = ("mslr5_condorcet", "arxiv", "sushi")  # the paper's small Condorcet matrices
HORIZON, RUNS_PER_CELL = 10_000, 300  # their code costs 3-37 CPU us a slot: about 10 CPU minutes in all
MERGEDTS, DUELPY, HUAN = "chang-li/MergeDTS", "duelpy", "stephen-huan/dueling-bandit"
HUAN_RUNS_PER_CELL = 300
HUAN_COMMIT = "e440821bf2bd93d9c3bdb07d0d07a9b57a45b7fd"  # the snapshot of stephen-huan/dueling-bandit run
WS_S_BETA = get_algorithm("ws_s").defaults["beta"]
# Each reference line: (source, its name, how to run one run of it: "mergedts" method or duelpy class and arguments).
REFERENCES = {
    (MERGEDTS, "REX3"): ("REX3", None),
    (DUELPY, "WinnerStaysWeakRegret"): ("WinnerStaysWeakRegret", {}),
    (DUELPY, f"WinnerStaysStrongRegret exploitation_factor={WS_S_BETA}"):
        ("WinnerStaysStrongRegret", {"exploitation_factor": WS_S_BETA}),
    (HUAN, "vdb rv=False"): ("iw", None),
    (HUAN, "vdb rv=True"): ("rv", None),
}
# (project line, its algorithm and parameters, reference, expected, why a difference is expected).
COMPARISONS = (
    ("rex3", ("rex3", {}), (MERGEDTS, "REX3"), SAME, ""),
    ("rex3 estimate=paper", ("rex3", {"estimate": "paper"}), (MERGEDTS, "REX3"), DIFFERENT,
     "the paper's reward estimate +-1/(2p) takes half the MergeDTS code's step +-1/p (shows the test's power)"),
    ("ws_w", ("ws_w", {}), (DUELPY, "WinnerStaysWeakRegret"), SAME, ""),
    ("ws_s", ("ws_s", {}), (DUELPY, f"WinnerStaysStrongRegret exploitation_factor={WS_S_BETA}"), DIFFERENT,
     "duelpy's WS-S plays one slot of WS-W per round before exploiting floor(beta^r) slots; the paper's (and this "
     "project's) explores until WS-W's round r is over, the highest score r (K - 1)"),
    ("versatile_db feedback=both", ("versatile_db", {"feedback": "both"}), (HUAN, "vdb rv=False"), SAME, ""),
    ("versatile_db feedback=both estimate=reduced-variance",
     ("versatile_db", {"feedback": "both", "estimate": "reduced-variance"}), (HUAN, "vdb rv=True"), DIFFERENT,
     "their reduced-variance estimate adds the baseline B_i = 1/2 [w_i >= eta^2] to the played arm only, not to every "
     "arm, so its mean is L_i - B_i (1 - w_i): biased towards the arms played least (this project adds B_i to all)"),
    ("versatile_db", ("versatile_db", {}), (HUAN, "vdb rv=False"), DIFFERENT,
     "this project's default feeds x_t's loss only (the reduction as analysed); theirs feeds both candidates' halved "
     "estimates (the project's feedback=both)"),
)
# Which sources each command-line option brings.
SOURCES = {"mergedts": (MERGEDTS, DUELPY), "stephen_huan": (HUAN,)}


def duelpy_module(root: Path):
    """duelpy's ``winner_stays`` module from the unpacked wheel at ``root``, without running its package
    ``__init__`` (module doc)."""
    if not (root / "duelpy" / "algorithms" / "winner_stays.py").is_file():
        raise ValueError(f"--duelpy {root}: not an unpacked duelpy wheel (no duelpy/algorithms/winner_stays.py)")
    sys.path.insert(0, str(root))
    package = types.ModuleType("duelpy.algorithms")
    package.__path__ = [str(root / "duelpy" / "algorithms")]
    sys.modules["duelpy.algorithms"] = package
    return importlib.import_module("duelpy.algorithms.winner_stays")


def duelpy_run(module, name: str, arguments: dict, matrix_name: str, horizon: int, seed: int) -> float:
    """One run of duelpy's ``name`` (module doc): the final Copeland regret."""
    from duelpy.feedback import MatrixFeedback

    matrix = np.asarray(load_dataset(matrix_name).P, np.float64)
    state = np.random.RandomState(seed)
    permutation = state.permutation(len(matrix))
    permuted = matrix[np.ix_(permutation, permutation)]
    feedback = MatrixFeedback(permuted, random_state=state)
    pairs = []
    duel = feedback.duel

    def recorded(arm_i, arm_j):
        """Their duel, its pair recorded."""
        pairs.append((arm_i, arm_j))
        return duel(arm_i, arm_j)

    feedback.duel = recorded
    algorithm = getattr(module, name)(feedback, random_state=state, **arguments)
    for _ in range(horizon):
        algorithm.step()
    if len(pairs) != horizon:
        raise RuntimeError(f"{matrix_name} {name}: {len(pairs)} duels in {horizon} steps")
    return float(copeland_and_gap(permuted, np.array(pairs, np.int64))[0][-1])


def huan_cell(checkout: Path, python: Path, scratch: Path, estimate: str, matrix: str, seed: int) -> list[float]:
    """The final regrets of HUAN_RUNS_PER_CELL runs of stephen-huan's ``vdb`` (``bench/vdb_public.py`` under
    ``python``) on ``matrix``, run r with seed ``seed`` + r."""
    matrix_file = scratch / f"{matrix}.npy"
    np.save(matrix_file, np.asarray(load_dataset(matrix).P, np.float64))
    output = subprocess.run([str(python), str(ROOT / "bench" / "vdb_public.py"), str(checkout), str(matrix_file),
                             estimate, str(HUAN_RUNS_PER_CELL), str(HORIZON), str(seed)],
                            check=True, capture_output=True, text=True).stdout
    return [json.loads(row)["final"] for row in output.splitlines()]


def reference_runs(sources, demo, winner_stays, huan) -> tuple[list[dict], float]:
    """The runs of every reference line of ``sources`` on every matrix (rows of RUNS) and their CPU seconds (of
    this process and of its children)."""
    rows, start = [], time.process_time()
    children = os.times().children_user + os.times().children_system
    for (source, line), (name, arguments) in REFERENCES.items():
        if source not in sources:
            continue
        for matrix in MATRICES:
            seed = cell_seed(matrix, line, HORIZON, False)
            if source == HUAN:
                finals = huan_cell(*huan, name, matrix, seed)
            else:
                finals = [run_once(demo, matrix, name, HORIZON, seed + run)[-1] if source == MERGEDTS
                          else duelpy_run(winner_stays, name, arguments, matrix, HORIZON, seed + run)
                          for run in range(RUNS_PER_CELL)]
            rows += [{"source": source, "line": line, "matrix": matrix, "horizon": HORIZON, "run": run,
                      "seed": seed + run, "final": round(float(final), 6)} for run, final in enumerate(finals)]
            print(f"{source} {line} {matrix}: {time.process_time() - start:.0f} CPU s", flush=True)
    cpu = time.process_time() - start + os.times().children_user + os.times().children_system - children
    return rows, cpu


def project_runs(sources) -> list[dict]:
    """This project's runs of every project line of COMPARISONS compared with a line of ``sources``, on every matrix
    (rows of RUNS)."""
    rows = []
    for line, (algorithm, params), (source, _), *_ in COMPARISONS:
        if source not in sources:
            continue
        spec = get_algorithm(algorithm)
        for matrix in MATRICES:
            dataset = load_dataset(matrix)
            rows += [{"source": PROJECT, "line": line, "matrix": matrix, "horizon": HORIZON, "run": run,
                      "seed": ROOT_SEED, "final": round(float(run_one(dataset, spec, params, HORIZON, run,
                                                                      ROOT_SEED)["final"]), 6)}
                     for run in range(RUNS_PER_CELL if source != HUAN else HUAN_RUNS_PER_CELL)]
    return rows


def merged(rows: list[dict], sources) -> pd.DataFrame:
    """The committed RUNS less the rows of the lines run now (those of ``sources`` and the project lines compared
    with them), plus ``rows``."""
    if not RUNS.is_file():
        return pd.DataFrame(rows)
    kept = pd.read_csv(RUNS)
    rerun = {line for line, _, (source, _), *_ in COMPARISONS if source in sources}
    kept = kept[~kept.source.isin(sources) & ~((kept.source == PROJECT) & kept.line.isin(rerun))]
    return pd.concat([kept, pd.DataFrame(rows)], ignore_index=True)


def main(argv=None) -> None:
    """Parse the arguments, run every line of REFERENCES and COMPARISONS, write RUNS and PROVENANCE."""
    parser = OneLineParser(description=doc_summary(__doc__))
    parser.add_argument("--mergedts", type=Path, help="local clone of chang-li/MergeDTS (with --duelpy)")
    parser.add_argument("--duelpy", type=Path, help="an unpacked duelpy wheel (pip download duelpy)")
    parser.add_argument("--stephen-huan", type=Path, help="an unpacked snapshot of stephen-huan/dueling-bandit")
    parser.add_argument("--jax-python", type=Path, help="an interpreter with jax and equinox, for --stephen-huan")
    parser.add_argument("--scratch", type=Path, default=Path(tempfile.gettempdir()) / "successors_fidelity",
                        help="scratch folder for the ported copy of their code, outside this repository")
    args = parser.parse_args(argv)
    for first, second in (("mergedts", "duelpy"), ("stephen_huan", "jax_python")):
        if (getattr(args, first) is None) != (getattr(args, second) is None):
            raise ValueError(f"--{first.replace('_', '-')} and --{second.replace('_', '-')} go together")
    sources = {source for option, names in SOURCES.items() if getattr(args, option) is not None for source in names}
    if not sources:
        raise ValueError("give --mergedts and --duelpy, or --stephen-huan and --jax-python, or both")
    if ROOT in args.scratch.resolve().parents or args.scratch.resolve() == ROOT:
        raise ValueError(f"--scratch {args.scratch}: inside this repository (their code stays out of it)")
    args.scratch.mkdir(parents=True, exist_ok=True)
    huan = None if args.stephen_huan is None else (args.stephen_huan.resolve(), args.jax_python, args.scratch)
    if args.mergedts is None:
        rows, cpu = reference_runs(sources, None, None, huan)
    else:
        winner_stays = duelpy_module(args.duelpy.resolve())
        with their_code(port(check_clone(args.mergedts), args.scratch)) as demo:
            rows, cpu = reference_runs(sources, demo, winner_stays, huan)
    write_table(merged(rows + project_runs(sources), sources), RUNS)
    old = json.loads(PROVENANCE.read_text()) if PROVENANCE.is_file() else {"codes": {}, "cpu_s": {}}
    if not isinstance(old["cpu_s"], dict):  # a record from before the sources were optional: all MergeDTS/duelpy
        old["cpu_s"] = {"mergedts": old["cpu_s"]}
    codes = {name: code for name, code in old["codes"].items() if name not in sources}
    if args.mergedts is not None:
        codes.update(mergedts_codes(args.mergedts, args.duelpy))
    if huan is not None:
        codes[HUAN] = {"what": "stephen-huan's Versatile-DB (bandit/algorithms/vdb.py, its vdb: one shared "
                               "Tsallis-INF learner, both candidates' estimates halved), run by bench/vdb_public.py",
                       "version": "snapshot of " + huan_version(args.jax_python), "edits": "none"}
    record = {
        "command": "python bench/successors_fidelity.py [--mergedts PATH --duelpy PATH] "
                   "[--stephen-huan PATH --jax-python PY]",
        "cpu_s": {**old["cpu_s"], **{option: round(cpu, 1) for option in SOURCES if getattr(args, option) is not None}},
        "interpreter": f"Python {platform.python_version()}, NumPy {np.__version__}",
        "codes": codes,
        "comparisons": [{"project": line, "source": source, "reference": reference, "expected": expected, "why": why}
                        for line, _, (source, reference), expected, why in COMPARISONS],
    }
    PROVENANCE.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    print(f"wrote {RUNS.relative_to(ROOT)} and {PROVENANCE.relative_to(ROOT)}")


def huan_version(python: Path) -> str:
    """stephen-huan/dueling-bandit's last commit and the JAX it ran under."""
    jax = subprocess.run([str(python), "-c", "import jax, equinox; print(jax.__version__, equinox.__version__)"],
                         check=True, capture_output=True, text=True).stdout.split()
    return f"commit {HUAN_COMMIT[:12]}, JAX {jax[0]}, equinox {jax[1]}"


def mergedts_codes(mergedts: Path, duelpy: Path) -> dict:
    """The code records of the MergeDTS authors' REX3 and duelpy's Winner Stays."""
    clone = check_clone(mergedts)
    version = next(duelpy.glob("duelpy-*.dist-info")).name.removesuffix(".dist-info")
    return {
        MERGEDTS: {"what": "the MergeDTS authors' REX3 (dueling_bandits/rex3.py, demo.py's 'REX3'), run by their "
                           "demo.run_bandits as bench/authors_python.py runs their other algorithms",
                   "version": f"commit {clone_commit(clone)[:12]}",
                   "edits": "ported to Python 3 at run time: " + "; ".join(
                       f"{file}: {text!r} -> {replacement!r}" for file, text, replacement, _ in EDITS)
                   + f"; {PATH_EDIT}"},
        DUELPY: {"what": "duelpy's Winner Stays (duelpy/algorithms/winner_stays.py), a third party's, not the "
                         "WS authors'", "version": version,
                 "edits": "none; its package __init__ not run (it imports rmed.py, which uses np.float, removed "
                          "from NumPy)"}}


if __name__ == "__main__":
    main_guard(main)
