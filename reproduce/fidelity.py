"""The stored runs against the authors' own code, cell by cell: writes figures/fidelity.csv and docs/fidelity.md
from committed files only (the tests and the procedure: ``reproduce.studies.authors_agreement``).  With --compute, first
computes the project lines the comparison declares (``declared_lines``: MultiSBM, RMED2 and the merge algorithms,
which have no paper line) into results/ through the shared pipeline (``experiment.simulate_lines``; stored lines
are only loaded); without it nothing is computed.

Usage: python reproduce/fidelity.py [--check] [--compute [--n-jobs N]].  Exit status 0 if every cell agrees, 1 if
one does not (or, with --check, if docs/fidelity.md is out of date), 2 on bad input.

The study is ``reproduce.studies.authors_agreement``; this script is its command line.
"""

import sys

from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, integer, main_guard
from dts_reproduction.reproduce.harness.limits import MAX_JOBS
from dts_reproduction.reproduce.studies.authors_agreement import compute_declared, write_comparison


def main(argv=None) -> None:
    """Compare, write (or with --check compare with) figures/fidelity.csv and docs/fidelity.md
    (``authors_agreement.write_comparison``), after computing the declared lines with --compute; bad input is one
    ``error:`` line and exit status 2 (``main_guard``)."""
    def run():
        """Parse and check the flags, compute if asked, then compare; exit status 1 if the comparison fails."""
        parser = OneLineParser(description=doc_summary(__doc__))
        parser.add_argument("--check", action="store_true",
                            help="only check that the committed files are up to date")
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
        if not write_comparison(args.check):
            sys.exit(1)

    main_guard(run)


if __name__ == "__main__":
    main()
