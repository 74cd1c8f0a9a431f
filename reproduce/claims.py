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


HOLDS, FAILS = "holds", "FAILS"
# Verdicts between the two: the measured order agrees with the claim but the difference is within
# the noise, or the order is significant but the stated magnitude is not reached.
NOT_SIGNIFICANT = "same order, not significant"
DIRECTION_ONLY = "direction holds, magnitude not reached"


def claim_row(claim: str, statement: str, measured: str, verdict) -> dict:
    """One row of a claims table; verdict: a bool (holds / FAILS) or one of the verdict strings above."""
    if isinstance(verdict, (bool, np.bool_)):
        verdict = HOLDS if verdict else FAILS
    return {"claim": claim, "statement": statement, "measured": measured, "verdict": verdict}


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


def order_verdict(a, b) -> str:
    """The claim "R_a(T) < R_b(T)": holds if lower by more than the noise, FAILS if higher by more than
    the noise, NOT_SIGNIFICANT if the means are in the claimed order but within the noise, FAILS too if
    they are in the other order within the noise (nothing supports the claim)."""
    if lower(a, b):
        return HOLDS
    if mean_and_sem(a)[0] < mean_and_sem(b)[0]:
        return NOT_SIGNIFICANT
    return FAILS


def factor_verdict(a, b, factor: float) -> str:
    """The claim "R_a(T) is well above R_b(T)", read as R_a(T) > factor R_b(T): holds if so;
    DIRECTION_ONLY if R_a(T) is above R_b(T) by more than the noise but by less than ``factor``; else FAILS."""
    if mean_and_sem(a)[0] > factor * mean_and_sem(b)[0]:
        return HOLDS
    return DIRECTION_ONLY if lower(b, a) else FAILS


def ratio(a, b) -> str:
    """'R_a(T) / R_b(T) = x.xx' for the measured column."""
    return f"ratio {mean_and_sem(a)[0] / mean_and_sem(b)[0]:.2f}"
