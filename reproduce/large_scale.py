"""Past the paper: large-scale online ranker evaluation (MergeDTS, MergeRUCB, Self-Sparring and exact D-TS on
the 136 MSLR rankers, every algorithm on the 500-armed instance, R(T) against K).

Panels (a)-(d): the MSLR Perfect, Navigational, Informational-CDC (135 rankers, the MergeDTS authors'
Condorcet matrix) and Informational (no Condorcet winner) matrices; D-TS, D-TS+ (exact fast paths),
D-TS "best" (alpha = 0.8^7, the MergeDTS authors' tuning), MergeDTS and MergeRUCB (default and "best"),
Self-Sparring, RMED1, ECW-RMED, RUCB, RCS (their exact fast paths); 50 runs with shuffled arms (the MergeDTS
protocol), T = 1e7, and T = 1e8 for the lines of ``LONG_TAGS``.  The Condorcet panels draw the G2W
regret (Yue et al.'s gap sum per slot, gap(a) = p_ca - 1/2): the MergeDTS authors report half of it, the
"average of the two arms' gaps" 0.5 (gap(a1) + gap(a2)) per slot; the Informational panel draws the
Copeland regret of Eq. 1.  (e) the 500-armed instance with every algorithm, T = 1e6, 10 runs (100 for
D-TS, D-TS+, CCB, SCB, ECW-RMED).  (f) R(1e7) against K for D-TS, MergeDTS, Self-Sparring and RMED1 on nested
subsets of the Perfect matrix (K = 8, 16, 32, 64, 136).

An algorithm that is not registered (``algorithms.ALGORITHMS``) makes its lines "unavailable": they are
listed, never computed, and the claims that need them read "not measured", as for lines not computed yet.
Usage: ``python reproduce/large_scale.py [--plot-only] [--algorithms NAME ...] [--datasets NAME ...] [--max-hours H]
...``.

The study is the package ``reproduce.studies.large_scale_study`` (its lines, plan and budget, claims, figure and
run); this script is its command line, which parses and checks the flags and calls ``large_scale_run.run_study``.
"""

from dts_reproduction.reproduce.cli.arguments import (
    add_line_selection,
    build_parser,
    doc_summary,
    hours_flag,
    main_guard,
    resolve,
)
from dts_reproduction.reproduce.config.paper import LARGE_SCALE_CPU_HOURS, LARGE_SCALE_HORIZON
from dts_reproduction.reproduce.output.tables import OVER_BUDGET
from dts_reproduction.reproduce.studies.experiment import check_selection
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_panels import every_line
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_run import run_study


def main(argv=None):
    """Parse and check the command line, then simulate (or load), draw, tabulate and check the claims
    (``large_scale_run.run_study``); bad input is one ``error:`` line and exit status 2 (``main_guard``)."""
    def run():
        """The script's body (bad input: ValueError, one ``error:`` line)."""
        parser = build_parser(doc_summary(__doc__), LARGE_SCALE_HORIZON, fast=False)
        add_line_selection(parser)
        parser.add_argument("--max-hours", default="inf",
                            help="compute only lines whose estimated CPU hours (probe and bench tables) are at most "
                                 "this (lines without an estimate are computed only without this limit)")
        parser.add_argument("--budget", default=str(LARGE_SCALE_CPU_HOURS),
                            help=f"CPU hours of the whole study (default {LARGE_SCALE_CPU_HOURS:g}: 12 h on 2 cores): "
                                 "claim lines first, then cheapest first; the lines beyond it are listed as "
                                 f"'{OVER_BUDGET}' with their estimate and never computed; 'inf' plans every line")
        namespace = parser.parse_args(argv)
        max_hours = hours_flag(namespace.max_hours, "--max-hours")
        budget = hours_flag(namespace.budget, "--budget")
        settings = resolve(namespace)
        check_selection(settings, every_line(settings))
        run_study(settings, budget, max_hours)

    main_guard(run)


if __name__ == "__main__":
    main()
