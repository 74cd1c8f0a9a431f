"""REX3, WS-W and WS-S against public code, as committed data for docs/fidelity.md#successors.

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

Usage: python bench/successors_fidelity.py --mergedts PATH --duelpy PATH [--scratch DIR]
"""

import importlib
import json
import platform
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
MERGEDTS, DUELPY = "chang-li/MergeDTS", "duelpy"
WS_S_BETA = get_algorithm("ws_s").defaults["beta"]
# Each reference line: (source, its name, how to run one run of it: "mergedts" method or duelpy class and arguments).
REFERENCES = {
    (MERGEDTS, "REX3"): ("REX3", None),
    (DUELPY, "WinnerStaysWeakRegret"): ("WinnerStaysWeakRegret", {}),
    (DUELPY, f"WinnerStaysStrongRegret exploitation_factor={WS_S_BETA}"):
        ("WinnerStaysStrongRegret", {"exploitation_factor": WS_S_BETA}),
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
)


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


def reference_runs(demo, winner_stays) -> tuple[list[dict], float]:
    """Every reference line's runs on every matrix (rows of RUNS) and their CPU seconds."""
    rows, start = [], time.process_time()
    for (source, line), (name, arguments) in REFERENCES.items():
        for matrix in MATRICES:
            seed = cell_seed(matrix, line, HORIZON, False)
            for run in range(RUNS_PER_CELL):
                final = (run_once(demo, matrix, name, HORIZON, seed + run)[-1] if source == MERGEDTS
                         else duelpy_run(winner_stays, name, arguments, matrix, HORIZON, seed + run))
                rows.append({"source": source, "line": line, "matrix": matrix, "horizon": HORIZON, "run": run,
                             "seed": seed + run, "final": round(float(final), 6)})
            print(f"{source} {line} {matrix}: {time.process_time() - start:.0f} CPU s", flush=True)
    return rows, time.process_time() - start


def project_runs() -> list[dict]:
    """This project's runs of every project line of COMPARISONS on every matrix (rows of RUNS)."""
    rows = []
    for line, (algorithm, params), *_ in COMPARISONS:
        spec = get_algorithm(algorithm)
        for matrix in MATRICES:
            dataset = load_dataset(matrix)
            rows += [{"source": PROJECT, "line": line, "matrix": matrix, "horizon": HORIZON, "run": run,
                      "seed": ROOT_SEED, "final": round(float(run_one(dataset, spec, params, HORIZON, run,
                                                                      ROOT_SEED)["final"]), 6)}
                     for run in range(RUNS_PER_CELL)]
    return rows


def main(argv=None) -> None:
    """Parse the arguments, run every line of REFERENCES and COMPARISONS, write RUNS and PROVENANCE."""
    parser = OneLineParser(description=doc_summary(__doc__))
    parser.add_argument("--mergedts", type=Path, required=True, help="local clone of chang-li/MergeDTS")
    parser.add_argument("--duelpy", type=Path, required=True, help="an unpacked duelpy wheel (pip download duelpy)")
    parser.add_argument("--scratch", type=Path, default=Path(tempfile.gettempdir()) / "successors_fidelity",
                        help="scratch folder for the ported copy of their code, outside this repository")
    args = parser.parse_args(argv)
    clone = check_clone(args.mergedts)
    if ROOT in args.scratch.resolve().parents or args.scratch.resolve() == ROOT:
        raise ValueError(f"--scratch {args.scratch}: inside this repository (their code stays out of it)")
    winner_stays = duelpy_module(args.duelpy.resolve())
    args.scratch.mkdir(parents=True, exist_ok=True)
    with their_code(port(clone, args.scratch)) as demo:
        rows, cpu = reference_runs(demo, winner_stays)
    write_table(pd.DataFrame(rows + project_runs()), RUNS)
    version = next(args.duelpy.glob("duelpy-*.dist-info")).name.removesuffix(".dist-info")
    record = {
        "command": "python bench/successors_fidelity.py --mergedts PATH --duelpy PATH", "cpu_s": round(cpu, 1),
        "interpreter": f"Python {platform.python_version()}, NumPy {np.__version__}",
        "codes": {
            MERGEDTS: {"what": "the MergeDTS authors' REX3 (dueling_bandits/rex3.py, demo.py's 'REX3'), run by their "
                               "demo.run_bandits as bench/authors_python.py runs their other algorithms",
                       "version": f"commit {clone_commit(clone)[:12]}",
                       "edits": "ported to Python 3 at run time: " + "; ".join(
                           f"{file}: {text!r} -> {replacement!r}" for file, text, replacement, _ in EDITS)
                       + f"; {PATH_EDIT}"},
            DUELPY: {"what": "duelpy's Winner Stays (duelpy/algorithms/winner_stays.py), a third party's, not the "
                             "WS authors'", "version": version,
                     "edits": "none; its package __init__ not run (it imports rmed.py, which uses np.float, removed "
                              "from NumPy)"}},
        "comparisons": [{"project": line, "source": source, "reference": reference, "expected": expected, "why": why}
                        for line, _, (source, reference), expected, why in COMPARISONS],
    }
    PROVENANCE.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    print(f"wrote {RUNS.relative_to(ROOT)} and {PROVENANCE.relative_to(ROOT)}")


if __name__ == "__main__":
    main_guard(main)
