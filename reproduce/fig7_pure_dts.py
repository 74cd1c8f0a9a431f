"""Fig. 7 (App. D.2.4): impact of RUCB/RLCB elimination -- pure D-TS against D-TS and D-TS+.

Four panels, T = 1e6, 500 runs (K < 10), arms shuffled in every run.  Claims checked (spec 5.2, C17):
(a) on StrongBorda pure D-TS has higher regret than D-TS; (b) on Non-Condorcet Cyclic pure D-TS has
linear regret while D-TS does not; (c) on the 5-armed MSLR sets pure D-TS does as well as or better
than D-TS.  Usage: ``python reproduce/fig7_pure_dts.py [--quick] [--runs N] [--horizon T] ...``.
"""

import numpy as np

from core.constants import HORIZON
from reproduce.experiment import Panel, claim_row, mean_and_sem, regret_figure

ALGORITHMS = ("pure_dts", "dts", "dts_plus")
PANELS = (
    Panel("strong_borda", "(a) StrongBorda", ALGORITHMS),
    Panel("nc_cyclic", "(b) Non-Condorcet Cyclic", ALGORITHMS),
    Panel("mslr5_condorcet", "(c) MSLR K=5, Condorcet", ALGORITHMS),
    Panel("mslr5_noncondorcet", "(d) MSLR K=5, non-Condorcet", ALGORITHMS),
)
# Regret growth over the last decade: linear regret multiplies by 10, logarithmic by about
# ln(T)/ln(T/10) (1.2 at T = 1e6).  3 separates the two with a wide margin on both sides.
LINEAR_GROWTH = 3.0


def _growth(result) -> float:
    """R(T) / R(T/10), from the mean curve."""
    mean = result.regret.mean(axis=0)
    t = result.checkpoints
    tenth = int(np.searchsorted(t, t[-1] / 10.0))
    return float(mean[-1] / max(mean[tenth], 1e-12))


def claims(panels) -> list[dict]:
    """Rows claim / measured / verdict for C17 (a)-(c)."""
    by = {title: {res.line.name: res for res in results} for title, results in panels}
    rows = []
    sb = by[PANELS[0].title]
    (mp, sp), (md, sd) = mean_and_sem(sb["pure_dts"]), mean_and_sem(sb["dts"])
    rows.append(claim_row("C17a", "StrongBorda: R_pure(T) > R_DTS(T)",
                          f"{mp:.1f} +- {sp:.1f} vs {md:.1f} +- {sd:.1f}", mp - md > 2 * np.hypot(sp, sd)))
    nc = by[PANELS[1].title]
    gp, gd = _growth(nc["pure_dts"]), _growth(nc["dts"])
    rows.append(claim_row("C17b", "NC Cyclic: pure D-TS linear (R(T)/R(T/10) >= 3), D-TS not",
                          f"growth pure {gp:.2f}, D-TS {gd:.2f}", gp >= LINEAR_GROWTH > gd))
    for panel in PANELS[2:]:
        res = by[panel.title]
        (mp, sp), (md, sd) = mean_and_sem(res["pure_dts"]), mean_and_sem(res["dts"])
        rows.append(claim_row("C17c", f"{panel.title}: R_pure(T) <= R_DTS(T) (within 2 s.e.)",
                              f"{mp:.1f} +- {sp:.1f} vs {md:.1f} +- {sd:.1f}", mp - md <= 2 * np.hypot(sp, sd)))
    return rows


def main(argv=None):
    """Run the figure from the command line (see module docstring)."""
    regret_figure("fig7_pure_dts", __doc__.splitlines()[0], PANELS, HORIZON, claims, argv)


if __name__ == "__main__":
    main()
