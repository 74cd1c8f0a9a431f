"""Fig. 4: regret on the non-Condorcet datasets (Non-Condorcet Cyclic and StrongBorda, Gap, the 500-armed
instance, MSLR K=16 and K=32 non-Condorcet).

T = 1e6, except MSLR K=16/32 non-Condorcet: T = 5e6, the horizon up to which the paper's text
describes ECW-RMED staying above D-TS+.  500 runs for K < 10, 100 for K = 16/32, 10 for K = 500; arms
shuffled in every run, and on Gap also ECW-RMED with the matrix's own arm order (dashed).  On the
500-armed instance only CCB, SCB, ECW-RMED and D-TS, as in the paper.
Usage: ``python reproduce/fig4_noncondorcet.py [--quick] [--runs N] [--horizon T] ...``.
"""

from dts_reproduction.reproduce.cli.arguments import doc_summary
from dts_reproduction.reproduce.cli.figure import regret_figure
from dts_reproduction.reproduce.config.paper import HORIZON
from dts_reproduction.reproduce.studies.paper_figures.noncondorcet_figure import FIG4_STUDY


def main(argv=None):
    """Run the figure from the command line (see module docstring)."""
    regret_figure(FIG4_STUDY, doc_summary(__doc__), HORIZON, argv)


if __name__ == "__main__":
    main()
