"""Fig. 7 (App. D.2.4): impact of RUCB/RLCB elimination -- pure D-TS against D-TS and D-TS+.

Four panels, T = 1e6, 500 runs (K < 10), arms shuffled in every run.  Claims checked (spec 5.2, C17):
(a) on StrongBorda pure D-TS has higher regret than D-TS; (b) on Non-Condorcet Cyclic pure D-TS has
linear regret while D-TS does not; (c) on the 5-armed MSLR sets pure D-TS does as well as or better
than D-TS.  Usage: ``python reproduce/fig7_pure_dts.py [--quick] [--runs N] [--horizon T] ...``.
"""

from core.constants import HORIZON
from reproduce.claims import LINEAR_GROWTH, claim_row, fmt, growth, lower, order_verdict
from reproduce.experiment import Panel, regret_figure

ALGORITHMS = ("pure_dts", "dts", "dts_plus")
PANELS = (
    Panel("strong_borda", "(a) StrongBorda", ALGORITHMS),
    Panel("nc_cyclic", "(b) Non-Condorcet Cyclic", ALGORITHMS),
    Panel("mslr5_condorcet", "(c) MSLR K=5, Condorcet", ALGORITHMS),
    Panel("mslr5_noncondorcet", "(d) MSLR K=5, non-Condorcet", ALGORITHMS),
)
def claims(panels) -> list[dict]:
    """Rows claim / measured / verdict for C17 (a)-(c)."""
    by = {title: {res.line.name: res for res in results} for title, results in panels}
    sb = by[PANELS[0].title]
    rows = [claim_row("C17a", "StrongBorda: R_pure(T) > R_DTS(T)", f"{fmt(sb['pure_dts'])} vs {fmt(sb['dts'])}",
                      order_verdict(sb["dts"], sb["pure_dts"]))]
    nc = by[PANELS[1].title]
    gp, gd = growth(nc["pure_dts"]), growth(nc["dts"])
    rows.append(claim_row("C17b", f"NC Cyclic: pure D-TS linear (R(T)/R(T/10) >= {LINEAR_GROWTH}), D-TS not",
                          f"growth pure {gp:.2f}, D-TS {gd:.2f}", gp >= LINEAR_GROWTH > gd))
    for panel in PANELS[2:]:
        res = by[panel.title]
        rows.append(claim_row("C17c", f"{panel.title}: R_pure(T) <= R_DTS(T) (or within noise)",
                              f"{fmt(res['pure_dts'])} vs {fmt(res['dts'])}", not lower(res["dts"], res["pure_dts"])))
    return rows


def main(argv=None):
    """Run the figure from the command line (see module docstring)."""
    regret_figure("fig7_pure_dts", __doc__.splitlines()[0], PANELS, HORIZON, claims, argv)


if __name__ == "__main__":
    main()
