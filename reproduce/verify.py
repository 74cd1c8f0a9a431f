"""Check that stored results are reproduced, bit for bit, by the code as it is now.

Every chunk file records how it was made (dataset, algorithm, parameters, horizon, delay, shuffle,
root seed, run range).  This script re-simulates the first ``--runs-per-chunk`` runs of every chunk
under the given folders and compares regret curves, final regrets, self-comparison counts and
shuffles exactly.  Use it after changing a kernel that should not change any decision.

Usage: ``python reproduce/verify.py results/fig1_mslr [--runs-per-chunk 1] [--algorithms ccb rucb]
[--max-horizon 1000000]``.  Exit code 0 if every checked run matches, 1 otherwise, 2 on bad input.
"""

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

from algorithms import get_algorithm
from data import load_dataset
from reproduce.cli import main_guard
from reproduce.runner import run_one

COMPARED = ("regret", "g2w", "final", "self_counts")


def chunk_files(folders) -> list[Path]:
    """Every stored chunk under ``folders``, sorted; ValueError if a folder does not exist."""
    files = []
    for folder in map(Path, folders):
        if not folder.is_dir():
            raise ValueError(f"no results folder {str(folder)!r}")
        files += sorted(folder.rglob("runs_*.npz"))
    return files


def verify_chunk(path: Path, runs_per_chunk: int) -> list[str]:
    """Re-simulate the first runs of the chunk at ``path``; return one message per mismatch."""
    with np.load(path, allow_pickle=False) as handle:
        config = json.loads(str(handle["meta"]))["config"]
        stored = {key: handle[key] for key in (*COMPARED, "permutation")}
    dataset = load_dataset(config["dataset"])
    if hashlib.sha1(np.ascontiguousarray(dataset.P).tobytes()).hexdigest() != config["matrix_sha1"]:
        return [f"{path}: dataset {config['dataset']!r} differs from the one the chunk was made with"]
    spec = get_algorithm(config["algorithm"])
    start, stop = config["runs"]
    problems = []
    for row, run in enumerate(range(start, min(stop, start + runs_per_chunk))):
        fresh = run_one(dataset, spec, config["params"], config["horizon"], run, config["seed"],
                        config["delay"], config["shuffle"])
        for key in (*COMPARED, "permutation"):
            value = np.asarray(fresh[key]).astype(stored[key].dtype)
            if not np.array_equal(value, stored[key][row], equal_nan=True):
                problems.append(f"{path}: run {run}: {key} differs")
    return problems


def verify(args: argparse.Namespace) -> int:
    """Check the chunks selected by ``args``; print one line per chunk; return the exit status."""
    if args.runs_per_chunk < 1:
        raise ValueError(f"--runs-per-chunk must be >= 1, got {args.runs_per_chunk}")
    for name in args.algorithms or ():
        get_algorithm(name)
    checked, problems = 0, []
    for path in chunk_files(args.folders):
        with np.load(path, allow_pickle=False) as handle:
            config = json.loads(str(handle["meta"]))["config"]
        if args.algorithms and config["algorithm"] not in args.algorithms:
            continue
        if args.max_horizon is not None and config["horizon"] > args.max_horizon:
            continue
        found = verify_chunk(path, args.runs_per_chunk)
        checked += 1
        print(f"{'ok  ' if not found else 'DIFF'} {path}", flush=True)
        problems += found
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{checked} chunks checked, {len(problems)} mismatches")
    return 1 if problems else 0


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", help="results folders (searched recursively for chunks)")
    parser.add_argument("--runs-per-chunk", type=int, default=1, help="runs re-simulated per chunk (default 1)")
    parser.add_argument("--algorithms", nargs="*", default=None, help="only chunks of these algorithms")
    parser.add_argument("--max-horizon", type=int, default=None, help="skip chunks with a longer horizon")
    sys.exit(verify(parser.parse_args(argv)))


if __name__ == "__main__":
    main_guard(main)
