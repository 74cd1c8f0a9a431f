"""Fill numba's on-disk cache once: one short run of every algorithm, with its defaults and with its fast
parameters, so that later processes (a worker, a notebook, the next ``run.py``) load every kernel and
every algorithm's loop instead of compiling them (docs/install.md#first-use).

Usage: ``python reproduce/warm_cache.py [ALGORITHM ...]`` (default: every built-in algorithm; a name, or a plug-in
reference ``path/to/file.py:ATTR``, whose own njit kernels are cached if it asks numba to: its loop is compiled in
each process, docs/extending.md); prints one line per algorithm with the seconds it took.
"""

import argparse
import time

from dts_reproduction.algorithms import ALGORITHMS, resolve_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.cli.arguments import doc_summary, main_guard
from dts_reproduction.reproduce.harness.runner import run_one

HORIZON = 100  # slots of each warming run: enough to reach every kernel's first call


def main(argv=None) -> None:
    """Run every named algorithm (ValueError for an unknown name or a plug-in that cannot be loaded, before any
    compile) once per parameter set."""
    parser = argparse.ArgumentParser(description=doc_summary(__doc__))
    parser.add_argument("algorithms", nargs="*", metavar="ALGORITHM",
                        help="a name or a plug-in reference (default: every built-in algorithm)")
    specs = [resolve_algorithm(entry) for entry in parser.parse_args(argv).algorithms or ALGORITHMS]
    dataset = load_dataset("mslr5_condorcet")
    for spec in specs:
        started = time.perf_counter()
        for params in ({}, dict(spec.fast)) if spec.fast else ({},):
            run_one(dataset, spec, params, HORIZON, 0, 1)
        print(f"{spec.name}: {time.perf_counter() - started:.1f} s", flush=True)


if __name__ == "__main__":
    main_guard(main)
