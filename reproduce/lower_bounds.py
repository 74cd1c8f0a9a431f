"""The asymptotic regret lower bound of each dataset (``core.lower_bound``), cached on disk.

The Copeland bound of the 500-armed instance is a linear program of ~40 s, so every constant is kept in
``<results>/lower_bounds.json``, keyed by the dataset and its matrix digest: a changed matrix is
recomputed, a figure redrawn from stored runs is not slowed down.

Usage: ``python reproduce/lower_bounds.py [DATASET ...] [--out RESULTS]`` prints C and its model for the
named datasets (default: every dataset in data/), filling the cache.
"""

import json
import sys
from pathlib import Path

from core.lower_bound import regret_lower_bound
from data import dataset_names, load_dataset
from reproduce.atomic import write_text_atomic
from reproduce.cli import OneLineParser, check_output_folder, main_guard
from reproduce.paths import RESULTS
from reproduce.runner import matrix_sha1

CACHE_NAME = "lower_bounds.json"


def lower_bound(dataset_name: str, results: Path) -> tuple[float, str]:
    """(constant C, model) with liminf E[R(T)] / ln T >= C on ``dataset_name``.  A cache entry that is
    missing, stale or damaged is recomputed (a figure script asks after its simulation: a damaged cache
    file must not stop it there)."""
    dataset = load_dataset(dataset_name)
    digest = matrix_sha1(dataset)
    path = Path(results) / CACHE_NAME
    cache = read_cache(path)
    try:
        entry = cache[dataset.name]
        if entry["matrix_sha1"] == digest:
            return float(entry["constant"]), str(entry["model"])
    except (KeyError, TypeError, ValueError):
        pass
    constant, model = regret_lower_bound(dataset.P)
    cache[dataset.name] = {"matrix_sha1": digest, "constant": constant, "model": model}
    write_text_atomic(path, json.dumps(cache, indent=1, sort_keys=True) + "\n")
    return float(constant), str(model)


def read_cache(path: Path) -> dict:
    """The cache file at ``path`` as a dict: empty if there is none, and if it is not a JSON object (named
    on stderr; it is rewritten with what is computed next)."""
    if not path.exists():
        return {}
    try:
        cache = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as error:  # also UnicodeDecodeError
        cache, reason = None, f"not valid JSON ({error})"
    else:
        reason = "not a JSON object"
    if isinstance(cache, dict):
        return cache
    print(f"recomputing {path}: {reason}", file=sys.stderr, flush=True)
    return {}


def main(argv=None) -> None:
    """Print the lower-bound constant of each requested dataset (bad input: one ``error:`` line, exit 2)."""
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", nargs="*", help="dataset names or matrix files (default: every dataset)")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"results folder holding {CACHE_NAME}")

    def run():
        args = parser.parse_args(argv)
        names = args.datasets or dataset_names()
        for name in names:
            load_dataset(name)
        out = check_output_folder(args.out, "results folder", create=True)
        print(f"{'dataset':<24} {'C (R(T) >= C ln T)':>20}  model")
        for name in names:
            constant, model = lower_bound(name, out)
            print(f"{name:<24} {constant:>20.4g}  {model}", flush=True)

    main_guard(run)


if __name__ == "__main__":
    main()
