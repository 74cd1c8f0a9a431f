"""Fig. 1, the study: all eleven algorithms on MSLR K=5, (a) Condorcet and (b) non-Condorcet (its panels are
``reproduce.studies.paper_panels.FIG1_PANELS``, whose stored runs Fig. 2 also reads), and its claims: C1, C2, C3 and
C5 on (a); C8, C9, C10 and C13 on (b).  A regret figure (``regret_figure``); its script is
``reproduce/fig1_mslr.py``."""

from dts_reproduction.reproduce.claims import paper_checks as pc
from dts_reproduction.reproduce.claims.registry import FIG1
from dts_reproduction.reproduce.claims.verdict import above, below, by_name, checked, final, need
from dts_reproduction.reproduce.studies.paper_panels import FIG1_PANELS
from dts_reproduction.reproduce.studies.study import Study, make_command

FIGURE, NON_CONDORCET = "Fig. 1", "mslr5_noncondorcet"
PANEL_CLAIMS = {  # by ``Panel.key``
    "mslr5_condorcet": (pc.c1_indistinguishable, pc.c2_lowest, pc.c3_rcs_above, pc.c5_same_slope_lower_constant),
    NON_CONDORCET: (pc.c8_condorcet_methods_fail, pc.c9_beat_ccb_scb),
}


def c10_rows(site, r) -> list[dict]:
    """C10 (Sec. 5.2), the three statements about Fig. 1(b)."""
    def factor_ten():
        """C10(i): (text, verdict) of D-TS+'s R(T) against a tenth of CCB's."""
        plus, ccb = (final(x) for x in need(r, "dts_plus", "ccb"))
        return f"D-TS+ {plus} vs CCB {ccb}", above(ccb, plus, 10.0)

    def dts_above_ecw():
        """C10(ii): (text, verdict) of D-TS's R(T) above ECW-RMED's."""
        dts, ecw = (final(x) for x in need(r, "dts", "ecw_rmed"))
        return f"D-TS {dts} vs ECW-RMED {ecw}", above(dts, ecw)

    def plus_below_ecw():
        """C10(iii): (text, verdict) of D-TS+'s R(T) below ECW-RMED's."""
        plus, ecw = (final(x) for x in need(r, "dts_plus", "ecw_rmed"))
        return f"D-TS+ {plus} vs ECW-RMED {ecw}", below(plus, ecw)

    return [checked("C10(i)", site, "R_DTS+(T) < 0.1 R_CCB(T)", factor_ten),
            checked("C10(ii)", site, "R_DTS(T) > R_ECW-RMED(T)", dts_above_ecw),
            checked("C10(iii)", site, "R_DTS+(T) < R_ECW-RMED(T)", plus_below_ecw)]


def claim_rows(panels, results) -> list[dict]:
    """Every claim row of Fig. 1 from its ``panels`` and their ``results`` (``Study.claim_rows``)."""
    title, curves = pc.panel_result(panels, results, NON_CONDORCET)
    r = by_name(curves)
    site = pc.panel_site(FIG1, FIGURE, NON_CONDORCET, title)
    return pc.panel_claims(FIG1, FIGURE, panels, results, PANEL_CLAIMS) + c10_rows(site, r) + [
        pc.c13_plus_below_dts(site, r)]


FIG1_STUDY = Study(FIG1, make_command(FIG1), FIG1_PANELS, claim_rows=claim_rows)
