"""Fig. 7 (App. D.2.4), the study: the impact of RUCB/RLCB elimination, pure D-TS against D-TS and D-TS+ on
StrongBorda, Non-Condorcet Cyclic and both 5-armed MSLR matrices; its panels and its claims C17 (a)-(c).  A regret
figure (``regret_figure``); its script is ``reproduce/fig7_pure_dts.py``."""

from dts_reproduction.reproduce.claims.paper_checks import panel_result, panel_site
from dts_reproduction.reproduce.claims.registry import FIG7
from dts_reproduction.reproduce.claims.verdict import (
    LINEAR_GROWTH,
    above,
    at_most,
    by_name,
    checked,
    exceeds,
    final,
    growth,
    need,
    under,
    worst,
)
from dts_reproduction.reproduce.studies.experiment import Panel
from dts_reproduction.reproduce.studies.study import Study, make_command

ALGORITHMS = ("pure_dts", "dts", "dts_plus")
PANELS = (
    Panel("strong_borda", "(a) StrongBorda", ALGORITHMS),
    Panel("nc_cyclic", "(b) Non-Condorcet Cyclic", ALGORITHMS, zoom=6000),
    Panel("mslr5_condorcet", "(c) MSLR K=5, Condorcet", ALGORITHMS),
    Panel("mslr5_noncondorcet", "(d) MSLR K=5, non-Condorcet", ALGORITHMS),
)
BORDA_TRAP, CYCLIC, MSLR5 = "strong_borda", "nc_cyclic", ("mslr5_condorcet", "mslr5_noncondorcet")  # Panel.key


def claim_rows(panels, results) -> list[dict]:
    """Rows for C17 (a)-(c) from Fig. 7's ``panels`` and their ``results`` (``Study.claim_rows``), each on its panel by
    key (``Panel.key``): (a) StrongBorda, (b) Non-Condorcet Cyclic, (c) both 5-armed MSLR matrices."""
    def panel(key):
        """(site, curves by name) of the panel ``key``."""
        title, curves = panel_result(panels, results, key)
        return panel_site(FIG7, "Fig. 7", key, title), by_name(curves)

    def borda(r):
        """C17a: (text, verdict) of pure D-TS's R(T) above D-TS's."""
        pure, dts = (final(x) for x in need(r, "pure_dts", "dts"))
        return f"pure D-TS {pure} vs D-TS {dts}", above(pure, dts)

    def linear(r):
        """C17b: (text, verdict) of pure D-TS growing linearly and D-TS not."""
        pure, dts = (growth(x) for x in need(r, "pure_dts", "dts"))
        verdict = worst(exceeds(pure, LINEAR_GROWTH), under(dts, LINEAR_GROWTH))
        return f"growth R(T)/R(T/10): pure D-TS {pure.value:.2f}, D-TS {dts.value:.2f}", verdict

    def as_well(r):
        """C17c: (text, verdict) of pure D-TS's R(T) not significantly above D-TS's."""
        pure, dts = (final(x) for x in need(r, "pure_dts", "dts"))
        return f"pure D-TS {pure} vs D-TS {dts}", at_most(pure, dts)

    checks = [("C17a", BORDA_TRAP, "pure D-TS above D-TS", borda),
              ("C17b", CYCLIC, f"pure D-TS linear (growth >= {LINEAR_GROWTH:g}), D-TS not", linear)]
    checks += [("C17c", key, "pure D-TS as good as or better than D-TS (not significantly above)", as_well)
               for key in MSLR5]
    rows = []
    for claim, key, statement, check in checks:
        site, r = panel(key)
        rows.append(checked(claim, site, statement, lambda check=check, r=r: check(r)))
    return rows


FIG7_STUDY = Study(FIG7, make_command(FIG7), PANELS, claim_rows=claim_rows)
