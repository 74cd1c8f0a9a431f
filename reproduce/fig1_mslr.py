"""Fig. 1: regret of all eleven algorithms on MSLR, (a) K=5 Condorcet and (b) K=5 non-Condorcet.

T = 1e6 for (a) and 2e6 for (b) (spec 1.9), 500 runs (K < 10), arms shuffled in every run; BTM and
SAVAGE are re-run at every horizon of the grid 10, 30, 100, ... (spec 1.8).  Claims checked (spec
5.2): C1, C2, C3, C5 on (a); C8, C9, C10, C13 on (b).
Usage: ``python reproduce/fig1_mslr.py [--quick] [--runs N] [--horizon T] ...``.
"""

from core.constants import HORIZON, HORIZON_FIG1B
from reproduce.claims import (CLEAR_FACTOR, LINEAR_GROWTH, SLOPE_FACTOR, claim_row, factor_verdict, fmt, growth,
                              log_slope, lower, mean_and_sem, order_verdict, ratio, same)
from reproduce.experiment import Panel, regret_figure

# The legend of the paper (spec 1.10).
ALGORITHMS = ("btm", "savage", "rucb", "rcs", "sparring", "ccb", "scb", "rmed1", "ecw_rmed", "dts", "dts_plus")
PANELS = (
    Panel("mslr5_condorcet", "(a) MSLR K=5, Condorcet", ALGORITHMS, horizon=HORIZON, zoom=3500),
    Panel("mslr5_noncondorcet", "(b) MSLR K=5, non-Condorcet", ALGORITHMS, horizon=HORIZON_FIG1B, zoom=130000),
)


def condorcet_claims(r) -> list[dict]:
    """C1, C2, C3, C5 on panel (a); ``r`` maps algorithm name -> LineResult."""
    best = min(ALGORITHMS, key=lambda name: mean_and_sem(r[name])[0])
    others = [name for name in ALGORITHMS if name not in ("dts", "dts_plus")]
    runner_up = min(others, key=lambda name: mean_and_sem(r[name])[0])
    slopes = {name: log_slope(r[name]) for name in ("dts", "dts_plus", "rmed1", "ecw_rmed")}
    slope_ok = all(1 / SLOPE_FACTOR <= slopes[a] / slopes[b] <= SLOPE_FACTOR
                   for a in ("dts", "dts_plus") for b in ("rmed1", "ecw_rmed"))
    return [
        claim_row("C1", "(a) D-TS and D-TS+ indistinguishable", f"{fmt(r['dts'])} vs {fmt(r['dts_plus'])}",
                  same(r["dts"], r["dts_plus"])),
        claim_row("C2", "(a) D-TS and D-TS+ lowest R(T) of all", f"lowest: {best}; best baseline {runner_up} "
                  f"{fmt(r[runner_up])}", best in ("dts", "dts_plus") and all(
                      lower(r[d], r[runner_up]) for d in ("dts", "dts_plus"))),
        claim_row("C3", f"(a) RCS well above D-TS (x{CLEAR_FACTOR})",
                  f"RCS {fmt(r['rcs'])} vs D-TS {fmt(r['dts'])}, {ratio(r['rcs'], r['dts'])}",
                  factor_verdict(r["rcs"], r["dts"], CLEAR_FACTOR)),
        claim_row("C5", f"(a) same slope in ln t as RMED1/ECW-RMED (within x{SLOPE_FACTOR}), lower R(T)",
                  ", ".join(f"{k} {v:.1f}" for k, v in slopes.items()),
                  slope_ok and all(lower(r[d], r[b]) for d in ("dts", "dts_plus") for b in ("rmed1", "ecw_rmed"))),
    ]


def noncondorcet_claims(r) -> list[dict]:
    """C8, C9, C10 (i)-(iii), C13 on panel (b)."""
    dts = mean_and_sem(r["dts"])[0]
    condorcet_only = ("btm", "rucb", "rcs", "rmed1")
    growths = {name: growth(r[name]) for name in condorcet_only}
    far = ("btm", "rucb", "rcs", "rmed1", "sparring", "savage")
    return [
        claim_row("C8", f"(b) BTM, RUCB, RCS, RMED1 near-linear (growth >= {LINEAR_GROWTH}); they, Sparring and "
                  f"SAVAGE end far above D-TS (x{CLEAR_FACTOR})",
                  ", ".join(f"{k} {v:.1f}" for k, v in growths.items()),
                  all(g >= LINEAR_GROWTH for g in growths.values())
                  and all(mean_and_sem(r[name])[0] > CLEAR_FACTOR * dts for name in far)),
        claim_row("C9", f"(b) D-TS, D-TS+ much better than CCB and SCB (x{CLEAR_FACTOR})",
                  f"D-TS {fmt(r['dts'])}, D-TS+ {fmt(r['dts_plus'])}, CCB {fmt(r['ccb'])}, SCB {fmt(r['scb'])}",
                  all(mean_and_sem(r[b])[0] > CLEAR_FACTOR * mean_and_sem(r[d])[0]
                      for d in ("dts", "dts_plus") for b in ("ccb", "scb"))),
        claim_row("C10(i)", "(b) R_DTS+(T) < 0.1 R_CCB(T)", f"{fmt(r['dts_plus'])} vs {fmt(r['ccb'])}",
                  mean_and_sem(r["dts_plus"])[0] < 0.1 * mean_and_sem(r["ccb"])[0]),
        claim_row("C10(ii)", "(b) R_DTS(T) > R_ECW-RMED(T)", f"{fmt(r['dts'])} vs {fmt(r['ecw_rmed'])}",
                  order_verdict(r["ecw_rmed"], r["dts"])),
        claim_row("C10(iii)", "(b) R_DTS+(T) < R_ECW-RMED(T)", f"{fmt(r['dts_plus'])} vs {fmt(r['ecw_rmed'])}",
                  order_verdict(r["dts_plus"], r["ecw_rmed"])),
        claim_row("C13", "(b) R_DTS+(T) < R_DTS(T)", f"{fmt(r['dts_plus'])} vs {fmt(r['dts'])}",
                  order_verdict(r["dts_plus"], r["dts"])),
    ]


def claims(panels) -> list[dict]:
    """All claim rows of Fig. 1."""
    (_, a), (_, b) = panels
    return condorcet_claims({res.line.name: res for res in a}) + noncondorcet_claims({res.line.name: res for res in b})


def main(argv=None):
    """Run the figure from the command line (see module docstring)."""
    regret_figure("fig1_mslr", __doc__.splitlines()[0], PANELS, HORIZON, claims, argv)


if __name__ == "__main__":
    main()
