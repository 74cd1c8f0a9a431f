"""Fig. 4, the study: regret on the non-Condorcet datasets (its panels are
``reproduce.studies.paper_panels.FIG4_PANELS``, whose 500-armed panel the large-scale study extends), and its claims:
C8, C9, C11, C13 and C15b per panel, and C12 across MSLR K=16 and K=32.  A regret figure (``regret_figure``); its
script is ``reproduce/fig4_noncondorcet.py``."""

from dts_reproduction.reproduce.claims import paper_checks as pc
from dts_reproduction.reproduce.claims.registry import FIG4
from dts_reproduction.reproduce.claims.verdict import (
    C12_FROM_SLOT,
    HOLDS,
    Site,
    above,
    at,
    by_name,
    checked,
    final,
    need,
    ratio_of,
    worst,
)
from dts_reproduction.reproduce.studies.paper_panels import FIG4_PANELS, FIXED_ORDER_ECW
from dts_reproduction.reproduce.studies.study import Study, make_command

FIGURE, K16, K32 = "Fig. 4", "mslr16_noncondorcet", "mslr32_noncondorcet"
C8_C9 = (pc.c8_condorcet_methods_fail, pc.c9_beat_ccb_scb)
PANEL_CLAIMS = {  # by ``Panel.key``
    "nc_cyclic": (*C8_C9, pc.c11_nc_cyclic),
    "nc_strong_borda": C8_C9,
    "gap": (*C8_C9, lambda site, r: pc.c15b_gap_order(site, r, FIXED_ORDER_ECW.tag)),
    "copeland500": (lambda site, r: pc.c9_beat_ccb_scb(site, r, ("dts",)),),  # D-TS+ is not run on 500 arms
    K16: (*C8_C9, pc.c13_plus_below_dts),
    K32: (*C8_C9, pc.c13_plus_below_dts),
}


def c12_rows(panels, results) -> list[dict]:
    """C12 (App. D.2.2) from Fig. 4's ``panels`` and their ``results``: on MSLR K=16 non-Condorcet ECW-RMED stays above
    D-TS+ for every t up to 5e6 (the rule applied at every checkpoint from C12_FROM_SLOT on, the worst verdict kept);
    on K=32 the gap is larger (the same check on K=32, since "larger" takes for granted that ECW-RMED stays above
    there too, and the ratio at T against K=16's)."""
    (title16, curves16), (title32, curves32) = (pc.panel_result(panels, results, key) for key in (K16, K32))
    site16, site32 = pc.panel_site(FIG4, FIGURE, K16, title16), pc.panel_site(FIG4, FIGURE, K32, title32)
    by16 = by_name(curves16)
    by32 = by_name(curves32)

    def above_everywhere(r):
        """The C12 check on the curves ``r`` of one panel (a function, as ``checked`` takes it)."""
        def check():
            """(text, verdict): ECW-RMED significantly above D-TS+ at every checkpoint from C12_FROM_SLOT."""
            ecw, plus = need(r, "ecw_rmed", "dts_plus")
            times = ecw.checkpoints[ecw.checkpoints >= C12_FROM_SLOT]
            verdicts = [above(at(ecw, t), at(plus, t)) for t in times]
            share = verdicts.count(HOLDS) / len(verdicts)
            return (f"ECW-RMED {final(ecw)} vs D-TS+ {final(plus)} at T; significantly above at {share:.0%} of the "
                    f"checkpoints t >= {C12_FROM_SLOT}, worst: {worst(*verdicts)}"), worst(*verdicts)
        return check

    def larger_gap():
        """(text, verdict): R_ECW-RMED / R_D-TS+ at T larger with K = 32 than with K = 16."""
        ecw16, plus16 = (final(x) for x in need(by16, "ecw_rmed", "dts_plus"))
        ecw32, plus32 = (final(x) for x in need(by32, "ecw_rmed", "dts_plus"))
        gap16 = ratio_of(ecw16, plus16)
        gap32 = ratio_of(ecw32, plus32)
        return f"R_ECW/R_DTS+ at T: K=16 {gap16.value:.2f}, K=32 {gap32.value:.2f}", above(gap32, gap16)

    return [
        checked("C12", site16, "ECW-RMED above D-TS+ at every t", above_everywhere(by16)),
        checked("C12", site32, "ECW-RMED above D-TS+ at every t", above_everywhere(by32)),
        checked("C12", Site(f"{site16.id}+{K32}", f"{site16.text}, {title32}"),
                "ECW-RMED/D-TS+ larger on K=32 than on K=16", larger_gap),
    ]


def claim_rows(panels, results) -> list[dict]:
    """Every claim row of Fig. 4 from its ``panels`` and their ``results`` (``Study.claim_rows``)."""
    return pc.panel_claims(FIG4, FIGURE, panels, results, PANEL_CLAIMS) + c12_rows(panels, results)


FIG4_STUDY = Study(FIG4, make_command(FIG4), FIG4_PANELS, claim_rows=claim_rows)
