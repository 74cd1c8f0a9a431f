"""Fig. 3: regret of all eleven algorithms on the Condorcet datasets (Cyclic, StrongBorda, ArXiv, Sushi,
MSLR K=16 and K=32).

T = 1e6; 500 runs for K < 10, 100 for Sushi and MSLR 16/32 (the paper's rule); arms shuffled in
every run; BTM and SAVAGE re-run on the horizon grid.  Panel (g) draws the gap-to-Condorcet-winner
regret of StrongBorda from the same runs (a figure the paper describes but omits, for claim C7).
Usage: ``python reproduce/fig3_condorcet.py [--quick] [--runs N] [--horizon T] ...``.
"""

from dts_reproduction.reproduce.cli.arguments import doc_summary
from dts_reproduction.reproduce.cli.figure import regret_figure
from dts_reproduction.reproduce.config.paper import HORIZON
from dts_reproduction.reproduce.studies.paper_figures.condorcet_figure import FIG3_STUDY


def main(argv=None):
    """Run the figure from the command line (see module docstring)."""
    regret_figure(FIG3_STUDY, doc_summary(__doc__), HORIZON, argv)


if __name__ == "__main__":
    main()
