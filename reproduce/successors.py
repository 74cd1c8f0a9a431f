"""D-TS ten years on: Versatile-DB, Winner Stays (WS-S, WS-W), CW-RMED, C2B and REX3 beside D-TS, D-TS+, RMED1
and ECW-RMED on every matrix of the paper's Figs. 1, 3 and 4, at the paper's run counts and horizons
(docs/successors.md).

The plan is printed first, each line with its estimated CPU cost; the lines not stored are computed cheapest first
into ``results/successors/`` (resumable chunk by chunk).  Usage: ``python reproduce/successors.py [--n-jobs N]
[--algorithms NAME ...] [--datasets NAME ...] [--plot-only] [--quick]``; the common flags apply.

The study is the package ``reproduce.studies.successors_study``; this script is its command line.
"""

from dts_reproduction.reproduce.cli.arguments import (
    add_line_selection,
    build_parser,
    doc_summary,
    main_guard,
    resolve,
)
from dts_reproduction.reproduce.config.paper import HORIZON
from dts_reproduction.reproduce.harness.paths import FIGURES
from dts_reproduction.reproduce.studies.experiment import check_selection, panel_curves
from dts_reproduction.reproduce.studies.successors_study.successors_panels import PANELS, RESULTS_FOLDER
from dts_reproduction.reproduce.studies.successors_study.successors_run import run_study


def main(argv=None):
    """Parse and check the command line, then compute (or load) and tabulate the study (``run_study``); bad input is
    one ``error:`` line and exit status 2 (``main_guard``)."""
    def run():
        """The script's body (bad input: ValueError, one ``error:`` line)."""
        parser = build_parser(doc_summary(__doc__), HORIZON, fast=False)
        add_line_selection(parser)
        parser.set_defaults(out=RESULTS_FOLDER, figures=FIGURES)
        settings = resolve(parser.parse_args(argv))
        check_selection(settings, [line for panel in PANELS for curve in panel_curves(panel, settings)
                                   for line in curve])
        run_study(settings)

    main_guard(run)


if __name__ == "__main__":
    main()
