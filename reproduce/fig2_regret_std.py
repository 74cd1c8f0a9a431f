"""Fig. 2: standard deviation of the regret R(T) at T = 1e6 on the two 5-armed MSLR matrices.

Computed from Fig. 1's stored runs -- nothing is simulated: run ``reproduce/fig1_mslr.py`` first (this
script stops with one line naming what is missing).  For Fig. 1(b), whose runs are 2e6 slots long, R(1e6)
is read at its checkpoint t = 1e6; BTM and SAVAGE use their runs with horizon 1e6.  Each algorithm's STD
over runs is shown normalised two ways, because the paper's caption and text differ: by ECW-RMED's
mean regret (the caption) and by the algorithm's own mean regret, on log axes.  Error bars: +-1.96
bootstrap standard errors.
Claim checked: C15a.  It computes nothing, so it offers no flag of computation (``--force``, ``--n-jobs``,
``--backend`` ...).  Usage: ``python reproduce/fig2_regret_std.py [--quick] [--fast] [--runs N] [--horizon T]``.
"""

from dts_reproduction.reproduce.cli.arguments import doc_summary
from dts_reproduction.reproduce.cli.figure import figure_main
from dts_reproduction.reproduce.config.paper import HORIZON
from dts_reproduction.reproduce.config.scale import power_of_ten
from dts_reproduction.reproduce.studies.paper_figures.std_figure import FIG2_STUDY


def main(argv=None):
    """Run the figure from the command line (see module docstring)."""
    figure_main(doc_summary(__doc__), HORIZON, FIG2_STUDY.build, argv, computes=False,
                runs_help="read Fig. 1's runs stored with this --runs (default: the paper's rule by K)",
                horizon_help=f"read Fig. 1's runs stored with this --horizon, at t = T (default: the paper's runs, "
                             f"at t = {power_of_ten(HORIZON)})")


if __name__ == "__main__":
    main()
