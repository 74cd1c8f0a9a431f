"""Fig. 6: regret R(T) at T = 1e6 against the feedback delay d, for ECW-RMED, D-TS and D-TS+ on MSLR K=5
Condorcet and Non-Condorcet Cyclic.

With delay d the algorithm receives the outcomes of its comparisons in batches, every d slots (the
protocol is described in docs/harness.md#feedback-delay; the paper does not give one).  The delays are the
grid of ``reproduce.config.paper.DELAY_GRID`` (the paper plots a curve without listing its points); d = 1 is no delay,
i.e. the runs of Figs. 1(a) and 4(a), reused.  500 runs per point; error bars are 95% bootstrap intervals of the mean.
Claim checked: C16.  Usage: ``python reproduce/fig6_delay.py [--quick] [--runs N] [--plot-only] ...``.
"""

from dts_reproduction.reproduce.cli.arguments import doc_summary
from dts_reproduction.reproduce.cli.figure import figure_main
from dts_reproduction.reproduce.config.paper import HORIZON
from dts_reproduction.reproduce.studies.paper_figures.delay_figure import FIG6_STUDY


def main(argv=None):
    """Run the figure from the command line (see module docstring)."""
    figure_main(doc_summary(__doc__), HORIZON, FIG6_STUDY.build, argv)


if __name__ == "__main__":
    main()
