"""The stored runs against the authors' own code, cell by cell: writes figures/fidelity.csv and docs/fidelity.md
from committed files only (the tests and the procedure: ``reproduce.checks.fidelity``).

Usage: python reproduce/fidelity.py [--check].  Exit status 0 if every cell agrees, 1 if one does not (or, with
--check, if docs/fidelity.md is out of date), 2 on bad input.
"""

import sys

from dts_reproduction.reproduce.checks.fidelity import AGREES, PAGE, TABLE, comparisons, page, summary_line
from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, main_guard
from dts_reproduction.reproduce.harness.atomic import write_text_atomic
from dts_reproduction.reproduce.harness.paths import ROOT
from dts_reproduction.reproduce.output.tables import write_table


def main(argv=None) -> None:
    """Compare, write (or with --check compare with) figures/fidelity.csv and docs/fidelity.md."""
    parser = OneLineParser(description=doc_summary(__doc__))
    parser.add_argument("--check", action="store_true", help="only check that the committed files are up to date")
    args = parser.parse_args(argv)
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
