"""Fig. 3: regret of all eleven algorithms on the Condorcet datasets (Cyclic, StrongBorda, ArXiv, Sushi,
MSLR K=16 and K=32).

T = 1e6; 500 runs for K < 10, 100 for Sushi and MSLR 16/32 (the paper's rule); arms shuffled in
every run; BTM and SAVAGE re-run on the horizon grid.  Panel (g) draws the gap-to-Condorcet-winner
regret of StrongBorda from the same runs (a figure the paper describes but omits, for claim C7).
Usage: ``python reproduce/fig3_condorcet.py [--quick] [--runs N] [--horizon T] ...``.
"""

from dts_reproduction.reproduce.claims import paper as pc
from dts_reproduction.reproduce.claims.registry import FIG3
from dts_reproduction.reproduce.cli.arguments import doc_summary
from dts_reproduction.reproduce.cli.figure import regret_figure
from dts_reproduction.reproduce.config.paper import HORIZON
from dts_reproduction.reproduce.studies.paper_panels import FIG3_PANELS as PANELS

C1_TO_C6 = (pc.c1_indistinguishable, pc.c2_lowest, pc.c3_rcs_above, pc.c4_rcs_beats_rucb_ccb,
            pc.c5_same_slope_lower_constant, pc.c6_ecw_slightly_worse)
PANEL_CLAIMS = {  # by ``Panel.key``
    "cyclic": (pc.c1_indistinguishable, pc.c2_lowest, pc.c3_rcs_above, pc.c5_same_slope_lower_constant,
               pc.c6_ecw_slightly_worse),
    "strong_borda": (pc.c1_indistinguishable, pc.c7_strong_borda),
    "arxiv": C1_TO_C6, "sushi": C1_TO_C6, "mslr16_condorcet": C1_TO_C6, "mslr32_condorcet": C1_TO_C6,
    "strong_borda:g2w": (pc.c7_g2w_savage_near_rmed1,),
}


def claims(results) -> list[dict]:
    """Every claim row of Fig. 3."""
    return pc.panel_claims(FIG3, "Fig. 3", PANELS, results, PANEL_CLAIMS)


def main(argv=None):
    """Run the figure from the command line (see module docstring)."""
    regret_figure(FIG3, doc_summary(__doc__), PANELS, HORIZON, claims, argv)


if __name__ == "__main__":
    main()
