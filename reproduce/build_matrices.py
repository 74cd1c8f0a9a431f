"""Regenerate the matrix files in data/matrices from the paper's printed tables, the committed 136-ranker files
and, with ``--sources``, the full-precision source files (what each file is and every check made:
``dts_reproduction.data.matrix_provenance`` and docs/datasets.md).

Usage (from the repository root):
    python reproduce/build_matrices.py [--sources DIR] [--out DIR]
"""

from pathlib import Path

from dts_reproduction.data import matrix_provenance
from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, main_guard
from dts_reproduction.reproduce.harness.limits import check_folder_readable, check_output_folder


def main(argv=None):
    """Command-line entry point (see the module docstring); bad input (an unreadable --sources, an --out that
    cannot be written) is one ``error:`` line and exit status 2 before any file is written."""
    parser = OneLineParser(description=doc_summary(__doc__))
    parser.add_argument("--sources", type=Path, default=None,
                        help="folder with the source files of docs/datasets.md#source-files (default: skip them)")
    parser.add_argument("--out", type=Path, default=matrix_provenance.DEFAULT_OUT,
                        help="output folder (default data/matrices)")
    args = parser.parse_args(argv)

    def run():
        """Check both folders, then build."""
        if args.sources is not None:
            check_folder_readable(args.sources, "--sources folder")
        check_output_folder(args.out, "--out folder")
        missing = matrix_provenance.missing_inputs(args.out, args.sources)
        if missing:
            where = ("the source files, docs/datasets.md#source-files" if args.sources is not None else
                     "without --sources the subsets are cut from the 136-ranker files in --out")
            raise ValueError(f"{missing[0]}: no such file ({len(missing)} input files missing; {where})")
        matrix_provenance.build(args.out, args.sources)

    main_guard(run)


if __name__ == "__main__":
    main()
