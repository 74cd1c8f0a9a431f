"""Quantiles of the Beta distribution: safeguarded Newton/Halley on the log of a tail, inside a bracket
that tightens after every evaluation, with bisection as the fallback (see ``core.betainc``)."""

import math

from numba import njit

from dts_reproduction.core.beta_cdf import check_beta_args, log_cdf_triple
from dts_reproduction.core.beta_elementary import LOG2, log1mexp, log_beta

_X_EPS = 2.220446049250313e-16  # quantiles stop when a step moves x by < 2 * this (relative)
_PPF_MAXITER = 200

# --------------------------------------------------------------------------------------------------
# Quantiles
# --------------------------------------------------------------------------------------------------


@njit(cache=True)
def _norm_quantile_approx(log_p, log_q):
    """Rough standard normal quantile z with Phi(z) = p, given log p and log q = log(1 - p).

    Abramowitz & Stegun 26.2.23 rational approximation (|error| < 4.5e-4), from the log of the
    smaller tail so that tails far below 1e-308 work.  Only used as a starting point.
    """
    if log_p < log_q:
        t = math.sqrt(-2.0 * log_p)
        sign = -1.0
    else:
        t = math.sqrt(-2.0 * log_q)
        sign = 1.0
    z = t - (2.515517 + t * (0.802853 + t * 0.010328)) / (
        1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308)))
    return sign * z


@njit(cache=True)
def _ppf_guess(a, b, z):
    """Approximate x with I_x(a, b) = Phi(z): Temme's eta = z / sqrt(a+b), x = a/s + sigma u(eta).

    -eta^2/2 = x0 log(x/x0) + y0 log((1-x)/y0) with x0 = a/s, y0 = b/s; inverting its series
    gives u = eta + r eta^2/3 + (r^2 - 9) eta^3/36 with x = x0 + sigma u, sigma = sqrt(x0 y0),
    r = (y0 - x0)/sigma.  Good to O(1/sqrt(s)) in z near the centre; possibly far off (or outside
    (0, 1)) in the tails of skewed or small-parameter cases, where the caller's bracket takes over.
    """
    s = a + b
    x0 = a / s
    y0 = b / s
    sigma = math.sqrt(x0 * y0)
    r = (y0 - x0) / sigma
    eta = z / math.sqrt(s)
    u = eta * (1.0 + eta * (r / 3.0 + eta * (r * r - 9.0) / 36.0))
    return x0 + sigma * u


@njit(cache=True)
def _bisect_point(lo, hi):
    """Fallback trial point for the bracket [lo, hi], 0 <= lo < hi <= 1: a geometric mean of x
    (of 1 - x) when the bracket lies below (above) 1/2 and spans a factor > 4 there, else the
    arithmetic mean; from an end at 0 (at 1) a step of a factor 2^-20 in x (in 1 - x), no closer
    to that end than the nearest double.  Returns lo or hi only when no double lies strictly
    between them (the caller checks)."""
    t = 0.5 * lo + 0.5 * hi
    if hi <= 0.5:
        if lo <= 0.0:
            t = max(hi * 2.0 ** -20, 5e-324)
        elif hi > 4.0 * lo:
            t = math.sqrt(lo) * math.sqrt(hi)
    elif lo >= 0.5:
        ylo = 1.0 - hi
        yhi = 1.0 - lo
        if ylo <= 0.0:
            t = 1.0 - max(yhi * 2.0 ** -20, 2.0 ** -53)
        elif yhi > 4.0 * ylo:
            t = 1.0 - math.sqrt(ylo) * math.sqrt(yhi)
    if not (lo < t < hi):
        t = 0.5 * lo + 0.5 * hi
    return t


@njit(cache=True)
def solve_tail(a, b, log_target, upper, lo, hi):
    """x in [lo, hi] with log(tail(x)) = log_target; tail = P(X <= x) (upper False) or P(X > x).

    [lo, hi] (within [0, 1]) must contain the root: the samplers pass the half they sample.

    log_target < 0 (the target may be far below 1e-308).  Accuracy: x to a couple of ulps of the
    exact root of the computed tail, i.e. the tail matched to the ~1e-13 accuracy of the tail itself
    (in x: that times tail/(x pdf)).  A root outside the doubles of (0, 1) comes out as 0 or 1.
    At most ``_PPF_MAXITER`` tail evaluations; typically 2-5.

    Method: Newton (|g| >= 1/2) or Halley (|g| < 1/2) steps on g = log tail(x) - log_target in the
    logit w = log(x/(1-x)), which makes power-law tails at either end nearly linear; the derivatives
    come from the log density log P - log(x(1-x)) (P as in ``log_prefactor``, accurate where
    lgamma differences are not).  A bracket is narrowed by the sign of g after every evaluation; a
    step leaving it, or one that did not halve |g|, is replaced by a (geometric) bisection.  Initial
    bracket: [lo, hi] tightened by the bound P(X <= x) <= x^a / (a B) (for b >= 1; a 2^(1-b) factor
    when b < 1 and the root is below 1/2) or its mirror image for the upper tail; a step beyond such
    a bound tries the bound itself.  Start: Temme's normal approximation (``_ppf_guess``).
    """
    lbeta = log_beta(a, b)
    lo_bound = False  # lo (hi) is an unevaluated bound, not a point where the sign of g is known
    hi_bound = False
    # Power-law bounds: F(x) <= x^a/(aB) * max(1, 2^(1-b)) for x <= 1/2 (any x if b >= 1).
    if not upper:
        xb = math.exp((log_target + math.log(a) + lbeta + min(0.0, b - 1.0) * LOG2) / a)
        xb *= 1.0 - 1e-14  # keep the bound strict despite rounding
        if b < 1.0:
            xb = min(xb, 0.5)
        if xb > lo:
            lo = xb
            lo_bound = True
    else:
        yb = math.exp((log_target + math.log(b) + lbeta + min(0.0, a - 1.0) * LOG2) / b)
        yb *= 1.0 - 1e-14
        xb = 1.0 - yb
        if a < 1.0:
            xb = max(xb, 0.5)
        if xb < hi:
            hi = xb
            hi_bound = True
    if lo >= hi:
        return 0.5 * lo + 0.5 * hi
    sgn = -1.0 if upper else 1.0
    log_other = log1mexp(log_target)
    if upper:
        z = -_norm_quantile_approx(log_target, log_other)
    else:
        z = _norm_quantile_approx(log_target, log_other)
    x = _ppf_guess(a, b, z)
    if not (lo < x < hi):
        # the guess left the bracket: start from the power-law bound, good in far tails
        if x <= lo and lo_bound:
            x = lo
        elif x >= hi and hi_bound:
            x = hi
        else:
            x = _bisect_point(lo, hi)
            if not (lo < x < hi):
                return 0.5 * lo + 0.5 * hi
    g_old = math.inf  # |g| at the previous point if it was reached by a Halley/Newton step
    for _ in range(_PPF_MAXITER):
        y = 1.0 - x
        lf, lq, lp = log_cdf_triple(a, b, x)
        lt = lq if upper else lf
        g = lt - log_target
        if g == 0.0:
            return x
        # Bracket update: the tail grows with x (lower) or shrinks (upper).
        if (g < 0.0) != upper:
            lo = x
            lo_bound = False
        else:
            hi = x
            hi_bound = False
        x_new = -1.0
        # A Newton step that did not at least halve |g| is crawling (log tail flat, far from the
        # root): bisect instead.
        if g > -math.inf and abs(g) <= 0.5 * g_old:
            # Derivatives in w = logit(x) (dx/dw = x y): with k = x y pdf / tail = P / tail
            # (pdf = P / (x y)), g_w = sgn k and, since d log pdf / dx = (a-1)/x - (b-1)/y,
            # g_ww = k (sgn (a y - b x) - k).  Written with k so that nothing overflows when the
            # pdf/tail ratio itself would (x near 0 or 1).
            k = math.exp(lp - lt)
            gw = sgn * k
            if k > 0.0 and k < math.inf:
                dw = g / gw  # Newton far from the root, Halley close to it
                if abs(g) < 0.5:
                    gww = k * (sgn * (a * y - b * x) - k)
                    den = 2.0 * gw * gw - g * gww
                    if den > 0.0:
                        dw = 2.0 * g * gw / den
                # x_new / (1 - x_new) = exp(-dw) x / (1 - x), from whichever end is nearer
                ex = math.exp(-dw)
                den = y + x * ex
                x_new = x * ex / den
                if x_new > 0.5:
                    x_new = 1.0 - y / den
                if abs(x_new - x) <= 2.0 * _X_EPS * x and lo <= x_new <= hi:
                    return x_new
                if not (lo < x_new < hi):
                    # overshoot past a bound that is still unevaluated: try the bound itself
                    if x_new >= hi and hi_bound:
                        x_new = hi
                    elif x_new <= lo and lo_bound:
                        x_new = lo
        if (lo < x_new < hi) or (x_new == hi and hi_bound) or (x_new == lo and lo_bound):
            g_old = abs(g)
        else:
            g_old = math.inf
            x_new = _bisect_point(lo, hi)
            if not (lo < x_new < hi):
                # no double strictly inside the bracket (e.g. a root below 5e-324): round
                return 0.5 * lo + 0.5 * hi
        x = x_new
    return x


@njit(cache=True)
def _ppf_from_logs(a, b, log_tail, log_other, upper):
    """Quantile for a tail given as logs of both the requested side and its complement: solves on
    the side whose probability is <= 1/2 (where the target is known to full relative precision)."""
    if log_tail <= -LOG2:
        return solve_tail(a, b, log_tail, upper, 0.0, 1.0)
    return solve_tail(a, b, log_other, not upper, 0.0, 1.0)


@njit(cache=True)
def beta_ppf_upper(a, b, tail):
    """x with P(Beta(a, b) > x) = tail, for a, b > 0 and 0 < tail < 1 (0 gives 1.0, 1 gives 0.0).

    Accurate when tail is tiny (solved from log tail; x to a few ulps of the root of the computed
    tail).  tail > 1/2 is solved as the lower tail 1 - tail (exact in floating point there).
    Works for a, b up to 1e7 and beyond (distribution widths down to ~1e-7 and below).  nan for
    invalid arguments.  Typically 2-5 incomplete-beta evaluations; never more than 200.
    """
    if not check_beta_args(a, b, tail) or tail < 0.0 or tail > 1.0:
        return math.nan
    if tail <= 0.0:
        return 1.0
    if tail >= 1.0:
        return 0.0
    return _ppf_from_logs(a, b, math.log(tail), math.log1p(-tail), True)


@njit(cache=True)
def beta_ppf_lower(a, b, tail):
    """x with P(Beta(a, b) <= x) = tail, for a, b > 0 and 0 < tail < 1 (0 gives 0.0, 1 gives 1.0).

    The lower-tail counterpart of ``beta_ppf_upper``, with the same accuracy and cost.
    """
    if not check_beta_args(a, b, tail) or tail < 0.0 or tail > 1.0:
        return math.nan
    if tail <= 0.0:
        return 0.0
    if tail >= 1.0:
        return 1.0
    return _ppf_from_logs(a, b, math.log(tail), math.log1p(-tail), False)
