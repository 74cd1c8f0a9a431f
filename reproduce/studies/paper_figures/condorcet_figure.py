"""Fig. 3, the study: all eleven algorithms on the Condorcet datasets (Cyclic, StrongBorda, ArXiv, Sushi, MSLR K=16 and
K=32), and (g) the gap-to-Condorcet-winner regret of StrongBorda from the same runs (a figure the paper describes but
omits, for claim C7); its panels and its claims C1-C7.  A regret figure (``regret_figure``); its script is
``reproduce/fig3_condorcet.py``."""

from dts_reproduction.reproduce.claims import paper_checks as pc
from dts_reproduction.reproduce.claims.registry import FIG3
from dts_reproduction.reproduce.config.paper import ALL_ELEVEN
from dts_reproduction.reproduce.studies.experiment import Panel
from dts_reproduction.reproduce.studies.study import Study, make_command

PANELS = (
    Panel("cyclic", "(a) Cyclic", ALL_ELEVEN, zoom=1000),
    Panel("strong_borda", "(b) StrongBorda", ALL_ELEVEN, zoom=6000),
    Panel("arxiv", "(c) ArXiv", ALL_ELEVEN, zoom=6000),
    Panel("sushi", "(d) Sushi", ALL_ELEVEN, zoom=4000),
    Panel("mslr16_condorcet", "(e) MSLR K=16, Condorcet", ALL_ELEVEN, zoom=20000),
    Panel("mslr32_condorcet", "(f) MSLR K=32, Condorcet", ALL_ELEVEN, zoom=40000),
    Panel("strong_borda", "(g) StrongBorda, G2W regret", ALL_ELEVEN, metric="g2w", zoom=1500),
)
C1_TO_C6 = (pc.c1_indistinguishable, pc.c2_lowest, pc.c3_rcs_above, pc.c4_rcs_beats_rucb_ccb,
            pc.c5_same_slope_lower_constant, pc.c6_ecw_slightly_worse)
PANEL_CLAIMS = {  # by ``Panel.key``
    "cyclic": (pc.c1_indistinguishable, pc.c2_lowest, pc.c3_rcs_above, pc.c5_same_slope_lower_constant,
               pc.c6_ecw_slightly_worse),
    "strong_borda": (pc.c1_indistinguishable, pc.c7_strong_borda),
    "arxiv": C1_TO_C6, "sushi": C1_TO_C6, "mslr16_condorcet": C1_TO_C6, "mslr32_condorcet": C1_TO_C6,
    "strong_borda:g2w": (pc.c7_g2w_savage_near_rmed1,),
}


def claim_rows(panels, results) -> list[dict]:
    """Every claim row of Fig. 3 from its ``panels`` and their ``results`` (``Study.claim_rows``)."""
    return pc.panel_claims(FIG3, "Fig. 3", panels, results, PANEL_CLAIMS)


FIG3_STUDY = Study(FIG3, make_command(FIG3), PANELS, claim_rows=claim_rows)
