"""The stored runs against the authors' own code, cell by cell: writes figures/fidelity.csv and docs/fidelity.md
from committed files only (the tests and the procedure: ``reproduce.studies.authors_agreement``).  With --compute, first
computes the project lines the comparison declares (``declared_lines``: MultiSBM, RMED2 and the merge algorithms,
which have no paper line) into results/ through the shared pipeline (``experiment.simulate_lines``; stored lines
are only loaded); without it nothing is computed.

Usage: python reproduce/fidelity.py [--check] [--compute [--n-jobs N]].  Exit status 0 if every cell agrees, 1 if
one does not (or, with --check, if docs/fidelity.md is out of date), 2 on bad input.
"""

import sys

from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, integer, main_guard
from dts_reproduction.reproduce.harness.atomic import write_text_atomic
from dts_reproduction.reproduce.harness.limits import MAX_JOBS
from dts_reproduction.reproduce.harness.paths import RESULTS, ROOT
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.tables import write_table
from dts_reproduction.reproduce.studies.authors_agreement import (
    AGREES,
    PAGE,
    TABLE,
    comparisons,
    declared_lines,
    page,
    summary_line,
)
from dts_reproduction.reproduce.studies.experiment import simulate_lines

NAME = "fidelity"


def compute_declared(n_jobs: int) -> None:
    """Compute (or load, if stored) every declared project line into results/ through ``simulate_lines``, with
    ``n_jobs`` workers and every other setting the command line's default."""
    settings = Settings.library(n_jobs=n_jobs)
    lines = declared_lines()
    simulate_lines(NAME, dict.fromkeys(lines, settings.out), settings)
    print(f"{len(lines)} declared lines stored under {RESULTS.relative_to(ROOT)}")


def main(argv=None) -> None:
    """Compare, write (or with --check compare with) figures/fidelity.csv and docs/fidelity.md."""
    parser = OneLineParser(description=doc_summary(__doc__))
    parser.add_argument("--check", action="store_true", help="only check that the committed files are up to date")
    parser.add_argument("--compute", action="store_true",
                        help="first compute the declared project lines not stored yet (MultiSBM, RMED2, merge)")
    parser.add_argument("--n-jobs", default="-1", help=f"parallel workers of --compute (-1: all cores; at most "
                                                         f"{MAX_JOBS})")
    args = parser.parse_args(argv)
    n_jobs = integer(args.n_jobs, "--n-jobs", -MAX_JOBS, MAX_JOBS)
    if n_jobs == 0:
        raise ValueError("--n-jobs must be a positive number of workers or negative (-1: all cores), got 0")
    if args.check and args.compute:
        raise ValueError("give either --check (reads only) or --compute, not both")
    if args.compute:
        compute_declared(n_jobs)
    table = comparisons()
    text = page(table)
    if args.check:
        if PAGE.read_text() != text:
            print(f"out of date: {PAGE.relative_to(ROOT)} (run python reproduce/fidelity.py)", file=sys.stderr)
            sys.exit(1)
    else:
        write_table(table, TABLE)
        write_text_atomic(PAGE, text)
        print(f"wrote {TABLE.relative_to(ROOT)} and {PAGE.relative_to(ROOT)}")
    print(summary_line(table))
    if (table[table.family == "project"].verdict != AGREES).any():
        sys.exit(1)


if __name__ == "__main__":
    main_guard(main)
