"""The asymptotic regret lower bound of each dataset (``reproduce.studies.lower_bound``), cached on disk.

The cache (``<results>/lower_bounds.json``, its keys, its lock and its fallback to the repository's file) is
``reproduce.studies.lower_bound_cache``'s; this script is its command line.

Usage: ``python reproduce/lower_bounds.py [DATASET ...] [--out RESULTS]`` prints C and its model for the
named datasets (default: every dataset in data/), filling the cache.
"""

from pathlib import Path

from dts_reproduction.data import dataset_names, load_dataset
from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, main_guard
from dts_reproduction.reproduce.harness.limits import check_output_folder
from dts_reproduction.reproduce.harness.paths import RESULTS
from dts_reproduction.reproduce.studies.lower_bound_cache import CACHE_NAME, lower_bound


def main(argv=None) -> None:
    """Print the lower-bound constant of each requested dataset (bad input: one ``error:`` line, exit 2)."""
    parser = OneLineParser(description=doc_summary(__doc__))
    parser.add_argument("datasets", nargs="*", help="dataset names or matrix files (default: every dataset)")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"results folder holding {CACHE_NAME}")

    def run():
        """Check the arguments, compute (or read from the cache) each dataset's constant and print it."""
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
