"""Check that stored results are intact and reproduced, bit for bit, by the code as it is now.

The checks (the chunks found, read through the store, re-simulated and compared) are
``reproduce.checks.resimulate``'s; this script is their command line.  Use it after changing a kernel that should
not change any decision.

Usage: ``python reproduce/verify.py results/mslr5_condorcet [--runs-per-chunk 1] [--algorithms ccb rucb]
[--max-horizon 1e6] [--plugins path/to/file.py:ATTR ...] [--record-code] [--resume]``. Exit code 0 if every chunk is
intact and every checked run matches, 1 otherwise, 2 on bad input. Chunks of a researcher's own algorithm need its
plug-in to be re-simulated: ``--plugins`` (or its reference in ``--algorithms``) loads it; a chunk of an algorithm
that is neither built in nor given is bad input, one line naming the plug-in to pass (docs/extending.md).
``--record-code`` also records, in each line folder whose chunks all re-simulated bit for bit, that the code as it is
now reproduces them (its ``code.json``, docs/harness.md, "What a stored line knows of its code"), so that a run reuses
them without re-checking them; it records each chunk as soon as it is re-simulated. ``--resume`` does not
re-simulate a chunk that an earlier ``--record-code`` verify re-simulated with the same code (the chunk's content and
the code identity of its line unchanged): a whole verify of hours can be spread over several sessions, every chunk
still checked as a reuse checks it.
"""

import sys

from dts_reproduction.reproduce.checks.resimulate import verify
from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, integer, main_guard


def main(argv=None) -> None:
    """Re-simulate stored chunks from the command line (bad input: one ``error:`` line, exit status 2)."""
    parser = OneLineParser(description=doc_summary(__doc__))
    parser.add_argument("folders", nargs="*", help="results folders (searched recursively for chunks; at least one)")
    parser.add_argument("--runs-per-chunk", default="1", help="runs re-simulated per chunk (default 1)")
    parser.add_argument("--algorithms", nargs="+", default=None,
                        help="only chunks of these algorithms (names, or plug-in references path/to/file.py:ATTR)")
    parser.add_argument("--plugins", nargs="+", default=(), metavar="REF",
                        help="plug-ins to load (path/to/file.py:ATTR or package.module:ATTR), so that the chunks of "
                             "their algorithms can be re-simulated")
    parser.add_argument("--max-horizon", default=None, help="skip chunks with a longer horizon (e.g. 1e6)")
    parser.add_argument("--record-code", action="store_true",
                        help="record the code as it is now in the code.json of every line folder whose chunks all "
                             "re-simulated bit for bit")
    parser.add_argument("--resume", action="store_true",
                        help="do not re-simulate chunks an earlier --record-code verify re-simulated bit for bit with "
                             "the code as it is now (their other checks are made)")

    def run():
        """Check the arguments and verify the chunks; the exit status says whether all matched."""
        args = parser.parse_args(argv)
        runs_per_chunk = integer(args.runs_per_chunk, "--runs-per-chunk")
        max_horizon = None if args.max_horizon is None else integer(args.max_horizon, "--max-horizon")
        sys.exit(verify(args.folders, runs_per_chunk=runs_per_chunk, algorithms=args.algorithms,
                        max_horizon=max_horizon, plugins=args.plugins, record=args.record_code,
                        resume=args.resume))

    main_guard(run)


if __name__ == "__main__":
    main()
