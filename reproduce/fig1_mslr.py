"""Fig. 1: regret of all eleven algorithms on MSLR, (a) K=5 Condorcet and (b) K=5 non-Condorcet.

T = 1e6 for (a) and 2e6 for (b) (the authors' build for (b) ran 2e6 slots), 500 runs (K < 10), arms
shuffled in every run; BTM and SAVAGE are re-run at every horizon of the grid 10, 30, 100, ...
Claims checked: C1, C2, C3, C5 on (a); C8, C9, C10, C13 on (b).
Usage: ``python reproduce/fig1_mslr.py [--quick] [--runs N] [--horizon T] ...``.
"""

from dts_reproduction.reproduce.cli.arguments import doc_summary
from dts_reproduction.reproduce.cli.figure import regret_figure
from dts_reproduction.reproduce.config.paper import HORIZON
from dts_reproduction.reproduce.studies.paper_figures.mslr_figure import FIG1_STUDY


def main(argv=None):
    """Run the figure from the command line (see module docstring)."""
    regret_figure(FIG1_STUDY, doc_summary(__doc__), HORIZON, argv)


if __name__ == "__main__":
    main()
