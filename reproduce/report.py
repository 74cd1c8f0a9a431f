"""Every claim of the paper, its numbers and its verdict, collected from the tables the figure scripts write.

What REPORT.md and every generated block hold is ``reproduce.reporting.claims_report``'s; this script is its command
line: it writes ``<figures>/REPORT.md`` and, with ``--readme README.md``, rewrites every generated block in the
file that holds it; ``--check`` only compares and exits 1 if a file is out of date.
Usage: ``python reproduce/report.py [--figures DIR] [--readme README.md [--check]]``.
"""

import sys
from pathlib import Path

from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, main_guard
from dts_reproduction.reproduce.harness.atomic import write_text_atomic
from dts_reproduction.reproduce.harness.limits import check_folder_readable, check_output_folder
from dts_reproduction.reproduce.harness.paths import FIGURES
from dts_reproduction.reproduce.reporting.claims_report import build_report, generated_blocks, updated_files


def main(argv=None):
    """Write REPORT.md (and every generated block, each in its file, with --readme)."""
    parser = OneLineParser(description=doc_summary(__doc__))
    parser.add_argument("--figures", type=Path, default=FIGURES, help=f"figures folder (default {FIGURES})")
    parser.add_argument("--readme", type=Path, default=None,
                        help="also rewrite the generated blocks of this README and of the docs beside it (BLOCK_FILES)")
    parser.add_argument("--check", action="store_true", help="with --readme: only check they are up to date")
    args = parser.parse_args(argv)

    def run():
        """Check the folders, write REPORT.md and, if asked, rewrite or check every generated block."""
        folder = check_folder_readable(args.figures, "figures folder")
        if args.readme is not None:
            if not args.readme.is_file():
                raise ValueError(f"README {args.readme}: no such file")
            files = updated_files(args.readme.parent, generated_blocks(folder))
            stale = [path for path, (current, wanted) in files.items() if current != wanted]
            if args.check:
                if stale:
                    print(f"{', '.join(map(str, stale))} out of date: run python reproduce/report.py "
                          f"--readme {args.readme}")
                    sys.exit(1)
                print(f"generated blocks are up to date in {', '.join(map(str, files))}")
                return
            for path in stale:
                write_text_atomic(path, files[path][1])
        check_output_folder(folder, "figures folder")
        path = folder / "REPORT.md"
        write_text_atomic(path, build_report(folder))
        print(f"wrote {path}")

    main_guard(run)


if __name__ == "__main__":
    main()
