"""Reference regrets from the MergeDTS authors' own Python code (chang-li/MergeDTS), as committed data.

Given a local clone of their repository, the script copies ``demo.py`` and ``dueling_bandits/`` into a scratch
folder outside this repository, ports the copy to Python 3 with the edits of ``EDITS`` below (nothing else of
theirs is changed, their clone is not touched), and runs their own single-run loop ``demo.run_bandits`` once
per run for MergeDTS, MergeRUCB and Self-Sparring with ``demo.py``'s parameters (``METHOD_INIT``: MergeDTS
alpha 1.01, C from its formula, batch size 4; MergeRUCB alpha 1.01 with its class defaults, batch size 4, C
from the formula, epsilon 0.01; Self-Sparring m = 2 -- the project's defaults of ``merge_dts``, ``merge_rucb``
and ``self_sparring``).  It writes, per cell of ``PLAN``, ``bench/authors_reference/<matrix>/<algorithm>_T<h>.csv``
(one row per run: run index, seed, the Copeland regret R(t) at t = 10, 30, 100, ..., T) and
``bench/authors_reference/PROVENANCE_python.json`` (their commit, the Python and NumPy versions, the edits, the
protocol and the CPU seconds of every cell).  A cell whose CSV exists is not run again.

Edits, made at run time to the scratch copy (each must match exactly as often as listed, else the script stops):
``EDITS``; and their package folder ``dueling_bandits/`` is put on ``sys.path`` besides the copy's root (their
modules import each other with Python 2's implicit relative imports).  ``update_scores``'s stage test
``num_arms() <= n_arms / 2 ** stage + 1`` is left as it is: for an integer number of arms, true division
gives the same test as Python 2's floor division.

Protocol: run r of a cell has the seed ``s = seed + r`` (``seed`` the cell's CRC-32 seed, as for the C++,
``authors_code.cell_seed``); their ``run_bandits(r, ...)`` is called with ``demo.SEED[r] = s`` -- so their loop
draws the arm permutation and every comparison outcome from ``RandomState(s)`` and seeds the algorithm with
``s`` -- after ``np.random.seed(s)`` (their ``my_argmax``/``my_argmin`` break ties with NumPy's global generator,
which their demo seeds once with 42).  ``demo.FLAGS.scale = 1``: their loop then returns the cumulative regret of
every slot.  Their loop counts the gap regret (P[winner, a] - 1/2 averaged over the pair), not the project's
Copeland regret, so the driver records the pair of every slot (a wrapper around the algorithm's
``get_arms``), recomputes the Copeland regret from the pairs and the permuted matrix, and checks that its own
gap regret from the same pairs equals the one their loop returned (so the recorded pairs are the ones played).
Only matrices with a Condorcet winner (these algorithms assume one).  The cells, horizons and run counts and
why: ``PLAN`` below and docs/fidelity.md.

Usage: python bench/authors_python.py --python PATH [--scratch DIR] [--only MATRIX]
"""

import argparse
import contextlib
import importlib
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from authors_code import ROOT, cell_seed, clone_commit, reference_grid, reference_path, write_cell

from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, main_guard
from dts_reproduction.reproduce.studies.authors_agreement import PYTHON_ALGORITHMS, PYTHON_PROVENANCE

METHODS = dict(zip(PYTHON_ALGORITHMS, ("MergeDTS", "MergeRUCB", "SelfSparring"), strict=True))  # demo.METHOD_INIT
# (file, text, replacement, matches): Python 2 -> 3 and the NumPy aliases removed in NumPy 1.24.
EDITS = (
    ("demo.py", "np.zeros(FLAGS.iterations/FLAGS.scale)", "np.zeros(FLAGS.iterations//FLAGS.scale)", 1),
    ("demo.py", "range(FLAGS.iterations/j_step)", "range(FLAGS.iterations//j_step)", 1),
    ("demo.py", "regrets[epoch / FLAGS.scale]", "regrets[epoch // FLAGS.scale]", 1),
    ("dueling_bandits/merge_dts.py", "np.int(", "int(", 3),
    ("dueling_bandits/merge_dts.py", "np.float(", "float(", 1),
    ("dueling_bandits/merge_dts.py", "self.i_arms = range(self.n_arms)", "self.i_arms = list(range(self.n_arms))", 1),
    ("dueling_bandits/merge_dts.py", "old_batches.sort(cmp=lambda x, y: cmp(len(x), len(y)))",
     "old_batches.sort(key=len)", 1),
    ("dueling_bandits/merge_rucb.py", "np.int(", "int(", 3),
    ("dueling_bandits/merge_rucb.py", "np.float(", "float(", 1),
    ("dueling_bandits/merge_rucb.py", "self.i_arms = range(self.n_arms)", "self.i_arms = list(range(self.n_arms))",
     1),
    ("dueling_bandits/merge_rucb.py", "old_batches.sort(cmp=lambda x, y: cmp(len(x), len(y)))",
     "old_batches.sort(key=len)", 1),
)
PATH_EDIT = "dueling_bandits/ on sys.path (Python 2's implicit relative imports between their modules)"
# Their code costs 30-250 CPU us a slot (numpy calls on small arrays, a Beta draw per pair of the batch;
# measured by --measure into the record: us_per_slot), 100 times the project's: the five Condorcet matrices of
# the C++ comparison (these algorithms assume a Condorcet winner) at T = 1e4, 100 runs a cell (the C++ cells'
# count: a detectable difference of a few per cent of R(T)), ~30 CPU minutes in all.
SLOTS_PER_EPOCH = 10_000  # their loop runs horizon // 10000 epochs of 10000 slots: a horizon is a multiple
PLAN_MATRICES = ("mslr5_condorcet", "arxiv", "cyclic", "strong_borda", "sushi")
PLAN = tuple((matrix, algorithm, 10_000, 100) for matrix in PLAN_MATRICES for algorithm in PYTHON_ALGORITHMS)


def check_clone(path: Path) -> Path:
    """The root of a clone of chang-li/MergeDTS (ValueError naming the path otherwise)."""
    needed = ["demo.py", *sorted({file for file, *_ in EDITS}), "dueling_bandits/self_sparring.py"]
    missing = [name for name in needed if not (Path(path) / name).is_file()]
    if missing:
        raise ValueError(f"--python {path}: not a clone of chang-li/MergeDTS (no {missing[0]})")
    return Path(path)


def port(clone: Path, folder: Path) -> Path:
    """Copy their demo.py and dueling_bandits/ into ``folder``/port and apply ``EDITS``; return the copy's root
    (RuntimeError if an edit does not match as often as listed: their code is not the one described)."""
    root = folder / "port"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(clone / "dueling_bandits", root / "dueling_bandits")
    shutil.copy(clone / "demo.py", root / "demo.py")
    for file, text, replacement, matches in EDITS:
        source = (root / file).read_text()
        if source.count(text) != matches:
            raise RuntimeError(f"{file}: {text!r} occurs {source.count(text)} times, not {matches}")
        (root / file).write_text(source.replace(text, replacement))
    return root


@contextlib.contextmanager
def their_code(root: Path):
    """Their ported ``demo`` module, imported from ``root`` with the working directory there (their loop
    writes its results and objects under the working directory)."""
    before, cwd = list(sys.path), os.getcwd()
    sys.path[:0] = [str(root), str(root / "dueling_bandits")]
    os.chdir(root)
    try:
        yield importlib.import_module("demo")
    finally:
        os.chdir(cwd)
        sys.path[:] = before


def copeland_and_gap(matrix: np.ndarray, pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-slot cumulative Copeland regret (the project's) and gap regret (their loop's) of the (T, 2) ``pairs``
    played on ``matrix`` (their arm indices), with the Copeland winner as their loop picks it."""
    K = len(matrix)
    score = (matrix > 0.5).sum(axis=1) / float(K - 1)
    gap = matrix[score.argmax()] - 0.5
    copeland = np.cumsum(score.max() - (score[pairs[:, 0]] + score[pairs[:, 1]]) / 2)
    return copeland, np.cumsum(0.5 * (gap[pairs[:, 0]] + gap[pairs[:, 1]]))


def run_once(demo, matrix_name: str, method: str, horizon: int, seed: int) -> np.ndarray:
    """One run of their ``run_bandits`` of ``method`` (a key of their ``demo.METHOD_INIT``, e.g. METHODS[algorithm])
    with seed ``seed``: the Copeland regret at every slot 1 .. horizon."""
    pairs = []
    make = demo.METHOD_INIT[method]

    def recording(arms, bandit_seed):
        """Their algorithm object, its ``get_arms`` recording every pair it returns."""
        bandit = make(arms, bandit_seed)
        play = bandit.get_arms

        def get_arms():
            pair = play()
            pairs.append(pair)
            return pair

        bandit.get_arms = get_arms
        return bandit

    matrix = np.asarray(load_dataset(matrix_name).P, np.float64)
    demo.FLAGS = argparse.Namespace(iterations=horizon, scale=1)
    demo.SEED = [seed]
    demo.METHOD_INIT = {**demo.METHOD_INIT, method: recording}
    np.random.seed(seed)
    try:
        theirs, _seconds = demo.run_bandits(0, matrix, method, matrix_name, demo.FLAGS)
    finally:
        demo.METHOD_INIT = {**demo.METHOD_INIT, method: make}
    if len(pairs) != horizon:
        raise RuntimeError(f"{matrix_name} {method}: their loop played {len(pairs)} slots, not {horizon}")
    permutation = np.random.RandomState(seed).permutation(len(matrix))  # their loop's first draw
    copeland, gap = copeland_and_gap(matrix[np.ix_(permutation, permutation)], np.array(pairs, np.int64))
    if not np.allclose(gap, theirs, rtol=0, atol=1e-6):
        raise RuntimeError(f"{matrix_name} {method} seed {seed}: the recorded pairs do not give their regret")
    return copeland


def run_cell(demo, matrix: str, algorithm: str, horizon: int, runs: int) -> float:
    """Run one cell, write its CSV and return the CPU seconds it took."""
    grid = reference_grid(horizon)
    seed = cell_seed(matrix, algorithm, horizon, False)
    start = time.process_time()
    regret = np.array([run_once(demo, matrix, METHODS[algorithm], horizon, seed + run)[grid - 1]
                       for run in range(runs)])
    seconds = time.process_time() - start
    write_cell(reference_path(matrix, algorithm, horizon, False), seed, grid, regret)
    return seconds


def measure(demo, horizon: int = SLOTS_PER_EPOCH) -> dict:
    """Their cost per slot (CPU microseconds, one run of ``horizon`` slots) of every algorithm on every
    matrix of the plan."""
    costs = {}
    for matrix in PLAN_MATRICES:
        for algorithm in PYTHON_ALGORITHMS:
            start = time.process_time()
            run_once(demo, matrix, METHODS[algorithm], horizon, 0)
            costs[f"{matrix}/{algorithm}"] = round((time.process_time() - start) / horizon * 1e6, 1)
    return costs


def update_provenance(clone: Path, cells: dict, costs: dict | None = None) -> None:
    """Merge the CPU seconds of the cells just run (and the measured costs) into PROVENANCE_python.json."""
    record = json.loads(PYTHON_PROVENANCE.read_text()) if PYTHON_PROVENANCE.is_file() else {"cells": {}}
    record.update({"repository": "https://github.com/chang-li/MergeDTS", "commit": clone_commit(clone),
                   "interpreter": f"Python {platform.python_version()}, NumPy {np.__version__}",
                   "edits": [f"{file}: {text!r} -> {replacement!r} ({matches}x)"
                             for file, text, replacement, matches in EDITS] + [PATH_EDIT],
                   "driver": "bench/authors_python.py", "loop": "demo.run_bandits",
                   "parameters": {name: METHODS[name] + " of demo.METHOD_INIT" for name in PYTHON_ALGORITHMS}})
    if costs is not None:
        record["us_per_slot"] = costs
    record["cells"].update(cells)
    PYTHON_PROVENANCE.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")


def main(argv=None) -> None:
    """Parse the arguments, port their code, measure its cost (--measure) or run the cells of PLAN not stored."""
    parser = OneLineParser(description=doc_summary(__doc__))
    parser.add_argument("--python", type=Path, required=True, help="local clone of chang-li/MergeDTS")
    parser.add_argument("--scratch", type=Path, default=Path(tempfile.gettempdir()) / "authors_python",
                        help="scratch folder for the ported copy, outside this repository")
    parser.add_argument("--only", choices=PLAN_MATRICES, help="run the cells of one matrix only")
    parser.add_argument("--measure", action="store_true", help="only measure their cost per slot (into the record)")
    args = parser.parse_args(argv)
    clone = check_clone(args.python)
    if ROOT in args.scratch.resolve().parents or args.scratch.resolve() == ROOT:
        raise ValueError(f"--scratch {args.scratch}: inside this repository (the authors' code stays out of it)")
    todo = [cell for cell in PLAN if args.only in (None, cell[0]) and not reference_path(*cell[:3], False).is_file()]
    if not todo and not args.measure:
        print("every cell of the plan is stored")
        return
    args.scratch.mkdir(parents=True, exist_ok=True)
    with their_code(port(clone, args.scratch)) as demo:
        if args.measure:
            costs = measure(demo)
            update_provenance(clone, {}, costs)
            print(json.dumps(costs, indent=1))
            return
        for matrix, algorithm, horizon, runs in todo:
            seconds = run_cell(demo, matrix, algorithm, horizon, runs)
            name = reference_path(matrix, algorithm, horizon, False).relative_to(PYTHON_PROVENANCE.parent)
            update_provenance(clone, {str(name.with_suffix("")): {"runs": runs, "cpu_s": round(seconds, 1)}})
            print(f"{matrix} {algorithm} T={horizon} runs={runs}: {seconds:.1f} CPU s", flush=True)


if __name__ == "__main__":
    main_guard(main)
