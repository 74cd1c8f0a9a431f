"""Numerical checks of the paper's claims (spec 5.2) over stored results: helpers shared by the scripts.

Every check returns a row claim / statement / measured / verdict (``claim_row``); the thresholds
that turn "much lower" or "near-linear" into numbers are named constants here, with their reason.
"""

import numpy as np

# "near-linear": over the last decade a linear regret grows 10x, a logarithmic one by ln T/ln(T/10)
# (1.2 at T = 1e6); 3 separates the two with a wide margin on both sides.
LINEAR_GROWTH = 3.0
# "much lower" / "clearly above": a factor of 2 between final regrets.
CLEAR_FACTOR = 2.0
# C5: asymptotic slopes (regret per unit of ln t over the last decade) "comparable": within this factor.
SLOPE_FACTOR = 1.5
# Differences are "within noise" when below this many standard errors of the difference.
NOISE_SE = 2.0


def claim_row(claim: str, statement: str, measured: str, holds: bool) -> dict:
    """One row of a claims table."""
    return {"claim": claim, "statement": statement, "measured": measured, "verdict": "holds" if holds else "FAILS"}


def mean_and_sem(result) -> tuple[float, float]:
    """Mean and standard error of a line's final regret R(T)."""
    final = np.asarray(result.final, dtype=np.float64)
    sem = final.std(ddof=1) / np.sqrt(final.size) if final.size > 1 else 0.0
    return float(final.mean()), float(sem)


def growth(result) -> float:
    """R(T) / R(T/10) of the mean curve (10 for linear regret, about 1.2 for logarithmic at T = 1e6)."""
    mean = result.regret.mean(axis=0)
    t = result.checkpoints
    tenth = int(np.searchsorted(t, t[-1] / 10.0))
    return float(mean[-1] / max(mean[tenth], 1e-12))


def log_slope(result) -> float:
    """Least-squares slope of the mean regret against ln t over the last decade of the curve."""
    mean = result.regret.mean(axis=0)
    t = result.checkpoints.astype(np.float64)
    keep = t >= t[-1] / 10.0
    return float(np.polyfit(np.log(t[keep]), mean[keep], 1)[0])


def fmt(result) -> str:
    """'mean +- sem' of a line's R(T)."""
    mean, sem = mean_and_sem(result)
    return f"{mean:.1f} +- {sem:.1f}"


def lower(a, b) -> bool:
    """R_a(T) < R_b(T) by more than the noise (NOISE_SE standard errors of the difference)."""
    (ma, sa), (mb, sb) = mean_and_sem(a), mean_and_sem(b)
    return mb - ma > NOISE_SE * np.hypot(sa, sb)


def same(a, b) -> bool:
    """|R_a(T) - R_b(T)| within the noise."""
    (ma, sa), (mb, sb) = mean_and_sem(a), mean_and_sem(b)
    return abs(ma - mb) <= NOISE_SE * np.hypot(sa, sb)
