"""Regret growth decade by decade, for the asymptotic study (``reproduce/asymptotic.py``,
docs/asymptotic.md): the slope of R(t) against ln t over every decade of t, runs whose regret grows linearly
(trapped) told apart from the others, and the limit of the slope read off its approach.

A consistent algorithm has R(T) = C' ln T + o(ln T) with C' at least the lower bound's C.  Over the decade
[t/10, t] the least-squares slope of R against ln t estimates C' plus what is left of the lower-order terms: for
R(t) = a ln t + b ln ln t (the form of Theorem 2's O(K log T + K^2 log log T)) it is a + b / ln t up to O(1/ln^2 t),
so the per-decade slopes, regressed on 1 / ln t, give the limit a and the weight b of the ln ln t term
(``slope_limit``).
"""

import math
from typing import NamedTuple

import numpy as np

from dts_reproduction.algorithms.base import MAX_EXACT_HORIZON
from dts_reproduction.reproduce.claims.intervals import bootstrap_interval
from dts_reproduction.reproduce.claims.verdict import NOISE_SE, Estimate, mean_se, run_slopes
from dts_reproduction.reproduce.harness import portable_math

FIRST_DECADE_END = 10**3  # the first decade drawn is [1e2, 1e3]: before it every algorithm is still initialising
# A run is trapped (its regret grows linearly) when it gains more than T**TRAPPED_EXPONENT over its last decade
# [T/10, T].  A logarithmic run gains C' ln 10 there: on the paper's matrices at most about 1e4 for K <= 9 (Gap's
# ECW-RMED, C' = 1.7e3 at T = 1e6) and 1e5 at K = 136; a linear one at least 0.9 T / (2 (K - 1)) under Copeland
# regret (a Copeland winner against any other arm), and 0.9 T times half the smallest gap under Condorcet regret.
# T**0.7 lies far between both at the study's horizons (``trapped_scale`` gives the numbers: 7.9e4 against >= 5.6e5 at
# T = 1e7 and K <= 9, 1.5e11 against >= 3.0e13 at T = 2**53 and K = 135; under Condorcet regret MSLR
# Informational-CDC's smallest gap, 0.0047, gives >= 1.9e13).  T**0.5, 3.2e3 at T = 1e7, would call Gap's
# logarithmic ECW-RMED and CCB runs trapped.
TRAPPED_EXPONENT = 0.7
# A line is linear when more than this share of its runs is trapped: the slope of its few logarithmic runs is not
# what the algorithm does (RMED2 with the paper's sign on MSLR K = 5 without a Condorcet winner: 99 of 100 runs
# trapped, the last one's slope 150 would have been drawn as the line's and named the panel's closest to C).
LINEAR_SHARE = 0.5
# Below this horizon no run is called trapped: the two growths are not yet apart (a smoke run's T = 1e4).
TRAPPED_FROM = 10**7
# The limit of the slope is fitted over the decades ending at or after this slot (earlier ones are pre-asymptotic
# on every matrix: the candidate sets are still being settled) and after the hump (``fit_start``).
LIMIT_FIT_FROM = 10**6
# The hump: before an algorithm has settled which arm is the winner its slope per decade rises far above its limit
# (at K = 136 to seven times the last decade's, at 1e6) and falls back within a decade or two.  A decade whose mean
# slope exceeds HUMP_FACTOR times the last decade's is in it, and so is the decade after it (its tail: at K = 136
# D-TS's [1e6, 1e7] is still 1.13 times the last decade's); ln ln t moves a slope by far less over the fitted range.
HUMP_FACTOR = 2.0


def least_linear_gain(horizon: int, arms: int) -> float:
    """The least regret a linear run gains over its last decade [T/10, T] under Copeland regret: 0.9 T slots, each
    costing at least 1 / (2 (K - 1)) (a Copeland winner compared with any other arm)."""
    return 0.9 * horizon / (2.0 * (arms - 1))


def trapped_scale() -> str:
    """The sentence of docs/asymptotic.md#what-is-measured that sets T**TRAPPED_EXPONENT against ``least_linear_gain``
    at the study's two horizons: T = 1e7 with K <= 9 arms (the matrices without a Condorcet winner) and T = 2**53 at
    K = 135 (the largest matrix with one)."""
    def two_digits(value: float) -> str:
        """``value`` with two significant digits and a plain exponent: 7.9e4."""
        exponent = math.floor(math.log10(value))
        return f"{value / 10.0 ** exponent:.2g}e{exponent}"
    pairs = ((10**7, 9, "1e7", "K <= 9"), (MAX_EXACT_HORIZON, 135, "2^53", "K = 135"))
    return " ".join(f"At T = {name} the threshold T^{TRAPPED_EXPONENT:g} is {two_digits(horizon ** TRAPPED_EXPONENT)}, "
                    f"and a linear run gains at least {two_digits(least_linear_gain(horizon, arms))} over its last "
                    f"decade ({where})." for horizon, arms, name, where in pairs)


def decade_ends(horizon: int) -> list[int]:
    """The ends t of the decades [t/10, t] over which slopes are measured: the powers of ten from FIRST_DECADE_END
    up to the horizon, and the horizon itself if it is not one."""
    ends = [10**k for k in range(round(math.log10(FIRST_DECADE_END)), 19) if 10**k <= horizon]
    return ends if ends and ends[-1] == horizon else [*ends, horizon]


def checkpoint_before(result, t: int) -> int:
    """The index of the last checkpoint <= t (the first checkpoint's, 0, if none is)."""
    return max(int(np.searchsorted(result.checkpoints, t, side="right")) - 1, 0)


def regret_at(result, t: int) -> np.ndarray:
    """Each run's R at the last checkpoint <= t (``checkpoint_before``)."""
    return result.regret[:, checkpoint_before(result, t)]


def trapped(result) -> np.ndarray:
    """bool (runs,): the runs whose regret over the last decade [T/10, T] grew by more than T**TRAPPED_EXPONENT,
    i.e. linearly; none below the horizon TRAPPED_FROM."""
    horizon = int(result.checkpoints[-1])
    if horizon < TRAPPED_FROM:
        return np.zeros(result.final.shape, bool)
    return result.final - regret_at(result, horizon // 10) > horizon**TRAPPED_EXPONENT


def linear(result) -> bool:
    """Whether the line ``result`` is linear: more than LINEAR_SHARE of its runs are ``trapped``.  A linear line has
    no slope; it is named, with its count of trapped runs, where its slope would be shown."""
    return bool(trapped(result).mean() > LINEAR_SHARE)


def untrapped(result):
    """``result`` (a ``LineResult``) restricted to the runs that are not ``trapped`` (the same object if none is);
    a slope or a final regret of it is what the logarithmic runs do."""
    keep = ~trapped(result)
    if keep.all():
        return result
    return result.of_runs(keep)


class DecadeSlopes(NamedTuple):
    """Per decade end t (``decade_ends``): the mean over the logarithmic runs of the slope of R against ln t over
    [t/10, t], its standard error and 95 % bootstrap interval (``claims.intervals.bootstrap_interval``), and the mean
    R(t) / ln t; ``per_run`` (runs, decades) holds each run's slopes."""

    ends: np.ndarray
    mean: np.ndarray
    se: np.ndarray
    low: np.ndarray
    high: np.ndarray
    regret_per_log: np.ndarray
    per_run: np.ndarray


def decade_slopes(result) -> DecadeSlopes:
    """The ``DecadeSlopes`` of the runs of ``result`` that are not trapped (``untrapped``); ValueError if every run
    is trapped."""
    runs = untrapped(result)
    if runs.final.size == 0:
        raise ValueError(f"every run of {result.line.name} on {result.line.dataset} is trapped")
    ends = np.array(decade_ends(int(result.checkpoints[-1])), dtype=np.int64)
    per_run = np.column_stack([run_slopes(runs.checkpoints, runs.regret, end / 10, end) for end in ends])
    estimates = [mean_se(column) for column in per_run.T]
    low, high = bootstrap_interval(per_run)
    ratio = np.array([regret_at(runs, int(end)).mean() / math.log(end) for end in ends])
    return DecadeSlopes(ends, np.array([e.value for e in estimates]), np.array([e.se for e in estimates]),
                        np.asarray(low), np.asarray(high), ratio, per_run)


class SlopeLimit(NamedTuple):
    """The fit slope(t) = limit + loglog / ln t over the decades ending from ``start`` (``fit_start``) on, one fit
    per run: ``limit`` (the asymptotic slope a) and ``loglog`` (the weight b of ln ln t in R), each with its standard
    error over the runs; ``decades``, how many decades the fit used; ``tolerance``, what the fit cannot resolve about
    the limit beyond its standard error (``model_error``)."""

    limit: Estimate
    loglog: Estimate
    decades: int
    start: int
    tolerance: float


def fit_start(slopes: DecadeSlopes) -> int:
    """The end of the first decade the limit is fitted from: LIMIT_FIT_FROM, or, if later, the end of the second
    decade after the last one whose mean slope exceeds HUMP_FACTOR times the last decade's (the hump and its tail)."""
    hump = np.nonzero(slopes.mean > HUMP_FACTOR * slopes.mean[-1])[0]
    if hump.size == 0 or hump[-1] + 2 >= slopes.ends.size:
        return LIMIT_FIT_FROM if hump.size == 0 else int(slopes.ends[-1]) + 1
    return max(LIMIT_FIT_FROM, int(slopes.ends[hump[-1] + 2]))


def inverse_log(ends) -> np.ndarray:
    """1 / ln t at the middle (in ln t) of each decade [t/10, t] ending at ``ends``: the regressor of the limit fit."""
    return 1.0 / (portable_math.log(np.asarray(ends, dtype=np.float64)) - 0.5 * math.log(10.0))


def per_run_fit(ends, per_run) -> tuple[np.ndarray, np.ndarray]:
    """Per run (row of ``per_run``, one column per decade ending at ``ends``), the least-squares fit of its decade
    values y = a + b / ln t (``inverse_log``): (a, b), one entry per run."""
    x = inverse_log(ends)
    centred = x - x.mean()
    y = np.asarray(per_run, dtype=np.float64)
    b = (y * centred).sum(axis=1) / (centred * centred).sum()
    return y.mean(axis=1) - b * x.mean(), b


def curved_limits(ends, per_run) -> np.ndarray:
    """Per run, the limit (the value at 1 / ln t = 0) of the least-squares fit of its decade values y = a + b x + c x^2,
    x = 1 / ln t (``inverse_log``): the fit with the next term of the expansion.  Fitted on the polynomials 1, p1, p2
    orthogonal over the decades, with elementwise products and numpy's row sums (no BLAS or LAPACK, whose kernels
    differ between machines in the last digit)."""
    x = inverse_log(ends)
    y = np.asarray(per_run, dtype=np.float64)
    p1 = x - x.mean()
    tilt = (p1**3).sum() / (p1 * p1).sum()
    p2 = p1 * p1 - tilt * p1 - (p1 * p1).mean()
    p1_at_zero = -x.mean()
    p2_at_zero = p1_at_zero**2 - tilt * p1_at_zero - (p1 * p1).mean()
    return (y.mean(axis=1) + (y * p1).sum(axis=1) / (p1 * p1).sum() * p1_at_zero
            + (y * p2).sum(axis=1) / (p2 * p2).sum() * p2_at_zero)


def resolved_shift(shift) -> float:
    """|mean of the paired per-run ``shift``| if it exceeds NOISE_SE of its standard errors, else 0: a change of the
    fit that the runs resolve counts in full, one within their noise not at all."""
    estimate = mean_se(shift)
    return abs(estimate.value) if abs(estimate.value) > NOISE_SE * estimate.se else 0.0


def model_error(ends, per_run, limit: Estimate) -> float:
    """What the fit a + b / ln t of per-run decade values cannot resolve about the limit a beyond its standard error,
    three parts combined in quadrature:

    * lack of fit: the mean decade values scatter around the fitted curve by more than their sampling noise when
      chi2 / dof > 1 (chi2 of the residuals in units of each decade's standard error, dof = decades - 2); the limit's
      standard error scaled by sqrt(chi2 / dof - 1) (Birge's ratio, less the part the standard error already holds);
    * the hump: the mean shift of the limit when the fit starts one decade later, where it exceeds NOISE_SE standard
      errors of that paired shift (``resolved_shift``) -- a dependence on the fit's first decade that the runs
      resolve;
    * curvature: the mean shift of the limit when the fit takes the next term c / ln^2 t too (``curved_limits``),
      where it exceeds NOISE_SE of its standard errors -- a bend of the approach that the runs resolve.

    The last two need four decades or more (0 with fewer).  A bend the runs cannot resolve is not covered: the limit is
    then the model's, to the precision its runs can test.  The limit rule (``claims.verdict.reaches_limit``) adds the
    tolerance to NOISE_SE standard errors."""
    y = np.asarray(per_run, dtype=np.float64)
    a, b = per_run_fit(ends, y)
    residual = y.mean(axis=0) - (a.mean() + b.mean() * inverse_log(ends))
    noise = y.std(axis=0, ddof=1) / math.sqrt(y.shape[0])
    dof = len(ends) - 2
    chi2 = float(((residual / np.where(noise > 0, noise, np.inf)) ** 2).sum())
    lack_of_fit = limit.se * math.sqrt(max(0.0, chi2 / dof - 1.0)) if dof > 0 else 0.0
    hump = curvature = 0.0
    if len(ends) >= 4:
        hump, curvature = (resolved_shift(other - a) for other in (per_run_fit(ends[1:], y[:, 1:])[0],
                                                                       curved_limits(ends, y)))
    return math.hypot(lack_of_fit, hump, curvature)


def fitted_limit(ends, per_run, start: int) -> SlopeLimit | None:
    """The ``SlopeLimit`` of per-run decade values ``per_run`` (runs, decades ending at ``ends``) over the decades
    ending at or after ``start``; None with fewer than three of them or fewer than two runs."""
    ends = np.asarray(ends)
    use = ends >= start
    if use.sum() < 3 or np.asarray(per_run).shape[0] < 2:
        return None
    a, b = per_run_fit(ends[use], np.asarray(per_run)[:, use])
    limit = mean_se(a)
    return SlopeLimit(limit, mean_se(b), int(use.sum()), start,
                      model_error(ends[use], np.asarray(per_run)[:, use], limit))


def slope_limit(slopes: DecadeSlopes) -> SlopeLimit | None:
    """The ``SlopeLimit`` of per-decade slopes (``fitted_limit`` from ``fit_start``), or None with fewer than three
    decades from ``fit_start`` on."""
    return fitted_limit(slopes.ends, slopes.per_run, fit_start(slopes))
