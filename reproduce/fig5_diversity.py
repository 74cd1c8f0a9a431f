"""Fig. 5: diversity of exploitation -- how D-TS, D-TS+ and ECW-RMED share their self-comparisons among
the Copeland winners, on Non-Condorcet Cyclic (winners 1, 2, 3) and MSLR K=16 non-Condorcet (rankers 60,
106, 130).

An exploitation of winner c is a slot with a1 = a2 = c.  For each algorithm the bars give each winner's
share of all winner self-comparisons in one sample path (run 0, as the paper shows one path); the boxes
give the same share over every run (500 on Non-Condorcet Cyclic, 100 on MSLR K=16), so the reader sees
whether that path is typical.  Winners carry their original arm / ranker ids (each run shuffles the arms).
T = 1e6 (the paper does not state it).  The runs are the stored lines of Figs. 4(a) and 7(b) for
Non-Condorcet Cyclic; MSLR K=16 at T = 1e6 is its own line (Fig. 4(e) runs 5e6 slots).
Claim checked: C14.  Usage: ``python reproduce/fig5_diversity.py [--quick] [--runs N] ...``.
"""

from dts_reproduction.reproduce.cli.arguments import doc_summary
from dts_reproduction.reproduce.cli.figure import figure_main
from dts_reproduction.reproduce.config.paper import HORIZON
from dts_reproduction.reproduce.studies.paper_figures.diversity_figure import FIG5_STUDY


def main(argv=None):
    """Run the figure from the command line (see module docstring)."""
    figure_main(doc_summary(__doc__), HORIZON, FIG5_STUDY.build, argv)


if __name__ == "__main__":
    main()
