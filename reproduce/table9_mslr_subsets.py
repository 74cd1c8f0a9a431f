"""Table 9: the four MSLR subsets (K = 16 and 32, Condorcet and non-Condorcet) -- ranker ids and Copeland
scores computed from the matrices in data/, checked against the values printed in the paper (App. D).

Writes ``<figures>/table9_mslr_subsets.csv`` (one row per ranker) and ``.md`` (one table per subset, with
the winners and the smallest |p_ij - 1/2| of each subset: App. D says pairs closer than 0.003 to 1/2 were
removed, which the K = 32 non-Condorcet subset as the authors ran it does not satisfy).  Nothing is
simulated.  Usage: ``python reproduce/table9_mslr_subsets.py [--figures DIR] [--quick]``.

The study is ``reproduce.studies.mslr_subsets``; this script is its command line.
"""

import sys
from pathlib import Path

from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, main_guard
from dts_reproduction.reproduce.harness.paths import FIGURES, QUICK
from dts_reproduction.reproduce.studies.mslr_subsets import write_subset_tables


def main(argv=None):
    """Build the table (``mslr_subsets.write_subset_tables``); exit status 1 if a computed score differs from the
    printed one, 2 on bad input."""
    parser = OneLineParser(description=doc_summary(__doc__))
    parser.add_argument("--figures", type=Path, default=FIGURES, help=f"output folder (default {FIGURES})")
    parser.add_argument("--quick", action="store_true", help=f"write under '{QUICK}/' (the table is always exact)")
    args = parser.parse_args(argv)

    def run():
        """Write the tables under the figures folder (its quick/ with --quick); exit 1 on a mismatch."""
        if not write_subset_tables(args.figures / QUICK if args.quick else args.figures):
            sys.exit(1)

    main_guard(run)


if __name__ == "__main__":
    main()
