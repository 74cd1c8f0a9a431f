"""Fig. 7 (App. D.2.4): impact of RUCB/RLCB elimination -- pure D-TS against D-TS and D-TS+.

Four panels, T = 1e6, 500 runs (K < 10), arms shuffled in every run.  Claims checked (C17):
(a) on StrongBorda pure D-TS has higher regret than D-TS; (b) on Non-Condorcet Cyclic pure D-TS has
linear regret while D-TS does not; (c) on the 5-armed MSLR sets pure D-TS does as well as or better
than D-TS.  Usage: ``python reproduce/fig7_pure_dts.py [--quick] [--runs N] [--horizon T] ...``.
"""

from dts_reproduction.reproduce.cli.arguments import doc_summary
from dts_reproduction.reproduce.cli.figure import regret_figure
from dts_reproduction.reproduce.config.paper import HORIZON
from dts_reproduction.reproduce.studies.paper_figures.pure_dts_figure import FIG7_STUDY


def main(argv=None):
    """Run the figure from the command line (see module docstring)."""
    regret_figure(FIG7_STUDY, doc_summary(__doc__), HORIZON, argv)


if __name__ == "__main__":
    main()
