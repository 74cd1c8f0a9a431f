"""Fig. 1: regret of all eleven algorithms on MSLR, (a) K=5 Condorcet and (b) K=5 non-Condorcet.

T = 1e6 for (a) and 2e6 for (b) (the authors' build for (b) ran 2e6 slots), 500 runs (K < 10), arms
shuffled in every run; BTM and SAVAGE are re-run at every horizon of the grid 10, 30, 100, ...
Claims checked: C1, C2, C3, C5 on (a); C8, C9, C10, C13 on (b).
Usage: ``python reproduce/fig1_mslr.py [--quick] [--runs N] [--horizon T] ...``.
"""

from dts_reproduction.reproduce.claims import paper as pc
from dts_reproduction.reproduce.claims.registry import FIG1
from dts_reproduction.reproduce.claims.verdict import above, below, by_name, checked, final, need
from dts_reproduction.reproduce.cli.arguments import doc_summary
from dts_reproduction.reproduce.cli.figure import regret_figure
from dts_reproduction.reproduce.config.paper import HORIZON
from dts_reproduction.reproduce.studies.paper_panels import (
    FIG1_PANELS as PANELS,  # shared with Fig. 2, which reads these panels' runs
)

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


def claims(results) -> list[dict]:
    """Every claim row of Fig. 1."""
    title, curves = pc.panel_result(PANELS, results, NON_CONDORCET)
    r = by_name(curves)
    site = pc.panel_site(FIG1, FIGURE, NON_CONDORCET, title)
    return pc.panel_claims(FIG1, FIGURE, PANELS, results, PANEL_CLAIMS) + c10_rows(site, r) + [
        pc.c13_plus_below_dts(site, r)]


def main(argv=None):
    """Run the figure from the command line (see module docstring)."""
    regret_figure(FIG1, doc_summary(__doc__), PANELS, HORIZON, claims, argv)


if __name__ == "__main__":
    main()
