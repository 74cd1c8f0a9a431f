"""The regularized incomplete beta function I_x(a, b) and its complement, accurate in both tails:
the continued fraction on the side where it converges, Temme's expansion near the mean of a wide Beta,
both kept in log form (see ``core.betainc``)."""

import math

from numba import njit

from dts_reproduction.core.beta_elementary import log1mexp, log_prefactor
from dts_reproduction.core.beta_temme import log_cdf_temme

_TINY = 1e-300  # Lentz's guard against a zero denominator
_CF_EPS = 1e-16  # stop the continued fraction when both factors of a step are within this of 1
_LOG_0997 = math.log(0.997)
_TEMME_N = 100.0  # uniform expansion when ab/(a+b) >= this ...
_TEMME_Z = 4.0  # ... and |z| <= this (outside, the continued fraction needs <= ~50 passes)
_ALT_CF_STEPS = 500  # beyond its switch point the fraction loses accuracy as it slows down

# --------------------------------------------------------------------------------------------------
# Incomplete beta function
# --------------------------------------------------------------------------------------------------


@njit(cache=True)
def _cf_max_steps(a, b):
    """Iteration cap (passes) of the continued fraction: 300 + 4 sqrt(a+b).

    Generous: the worst count observed is ~900 passes right at the switch point for a = b = 5e6
    (~14x below the cap there); with the Temme branch taking the centre the fraction needs < 100.
    """
    return 300 + int(4.0 * math.sqrt(a + b))


@njit(cache=True)
def _betacf(a, b, x, e, nmax):
    """(K, converged): K = 1 + d1/(1 + d2/(1 + ...)), so I_x(a, b) = x^a (1-x)^b / (a B(a, b) K).

    d_{2m+1} = -(a+m)(a+b+m)x / ((a+2m)(a+2m+1)), d_{2m} = m(b-m)x / ((a+2m-1)(a+2m)).
    Modified Lentz evaluation (C_k = 1 + d_k/C_{k-1}, D_k = 1/(1 + d_k D_{k-1}), K = prod C_k D_k),
    two partial numerators per pass, for x < (a+1)/(a+b+2) where it converges fast (O(sqrt)-like
    passes at worst, right at that point, for large a + b).

    Near that point d_{2m+1} is close to -1, and forming 1 + d_{2m+1} / C_{2m} naively loses up to
    ~1e-9 relative (a huge, b small).  So e = x (a+b) - a must be passed in, computed accurately,
    and the odd steps use the cancellation-free identity
        (a+2m)(a+2m+1) (1 + d_{2m+1}) = a (1 - e) + m (a (3 - x) + m (4 - x) + 2 - e)
    (every term >= 0 there since e < 1), with C_{2m+1} = ((1 + d_{2m+1}) + (C_{2m} - 1)) / C_{2m}
    and 1 + d_{2m+1} D_{2m} = (1 + d_{2m+1}) + d_{2m+1} (D_{2m} - 1), the "- 1" parts carried
    exactly.
    Stops when both factors of a pass are within 1e-16 of 1 (converged) or after nmax passes.
    """
    s = a + b
    # First step (m = 0): C_1 = 1 + d_1 = (1 - e)/(a + 1), D_1 = 1.
    c = (1.0 - e) / (a + 1.0)
    if abs(c) < _TINY:
        c = _TINY
    f = c
    d = 1.0
    dm1 = 0.0  # D - 1
    m = 0.0
    for _ in range(nmax):
        m += 1.0
        a2m = a + 2.0 * m
        # even numerator d_{2m}
        num = m * (b - m) * x / ((a2m - 1.0) * a2m)
        cm1 = num / c  # C - 1
        c = 1.0 + cm1
        if abs(c) < _TINY:
            c = _TINY
        dd = 1.0 + num * d
        if abs(dd) < _TINY:
            dd = _TINY
        d_new = 1.0 / dd
        dm1 = -num * d * d_new
        d = d_new
        delta1 = c * d
        f *= delta1
        # odd numerator d_{2m+1}, with opd = 1 + d_{2m+1} formed without cancellation
        den = a2m * (a2m + 1.0)
        num = -(a + m) * (s + m) * x / den
        opd = (a * (1.0 - e) + m * (a * (3.0 - x) + m * (4.0 - x) + 2.0 - e)) / den
        c_new = (opd + cm1) / c
        if abs(c_new) < _TINY:
            c_new = _TINY
        dd = opd + num * dm1
        if abs(dd) < _TINY:
            dd = _TINY
        d_new = 1.0 / dd
        dm1 = -num * d * d_new  # D_new - 1 = (1 - dd) D_new = -num D_old D_new
        c = c_new
        d = d_new
        delta2 = c * d
        f *= delta2
        if abs(delta1 - 1.0) <= _CF_EPS and abs(delta2 - 1.0) <= _CF_EPS:
            return f, True
    return f, False



@njit(cache=True)
def log_cdf_pair(a, b, x):
    """(log I_x(a, b), log(1 - I_x(a, b))) for a, b > 0, 0 < x < 1; see ``log_cdf_triple``."""
    lo, up, _ = log_cdf_triple(a, b, x)
    return lo, up


@njit(cache=True)
def log_cdf_triple(a, b, x):
    """(log I_x(a, b), log(1 - I_x(a, b)), log P), P = x^a (1-x)^b / B(a, b); a, b > 0, 0 < x < 1.

    Both tails to ~1e-13 relative (see ``betainc``).

    The continued fraction on its fast side gives the log of one tail directly (never rounded to 0
    on the way, so tails far below 1e-308 come out as exact logs); the other is log1p(-exp(.)) of
    it.
    For a, b >= 1 the fraction's tail there is <= ~0.87, so the complement loses < 1 digit.  With a
    parameter < 1 it can be ~1 (e.g. I_x(0.001, b) at the switch point), and its complement would
    lose digits: when that complement is < 0.003 it is recomputed by the mirrored fraction, which
    still converges there, and kept if that fraction converged within 500 passes.
    """
    e, lp, w = log_prefactor(a, b, x)
    if a / (a + b) * b >= _TEMME_N and w >= -0.5 * _TEMME_Z * _TEMME_Z:
        lo, lu = log_cdf_temme(a, b, e, lp, w)
        return lo, lu, lp
    if x * (a + b + 2.0) < a + 1.0:
        k, _ = _betacf(a, b, x, e, _cf_max_steps(a, b))
        lo = lp - math.log(a * k)
        if lo > _LOG_0997:
            k2, ok = _betacf(b, a, 1.0 - x, -e, _ALT_CF_STEPS)
            if ok:
                lu = lp - math.log(b * k2)
                return log1mexp(lu), lu, lp
        return lo, log1mexp(lo), lp
    # mirrored orientation: (1 - x)(a + b) - b = -e
    k, _ = _betacf(b, a, 1.0 - x, -e, _cf_max_steps(a, b))
    lu = lp - math.log(b * k)
    if lu > _LOG_0997:
        k2, ok = _betacf(a, b, x, e, _ALT_CF_STEPS)
        if ok:
            lo = lp - math.log(a * k2)
            return lo, log1mexp(lo), lp
    return log1mexp(lu), lu, lp


@njit(cache=True)
def check_beta_args(a, b, x):
    """True when 0 < a < inf, 0 < b < inf and x is not nan (all comparisons are false for nan)."""
    return 0.0 < a < math.inf and 0.0 < b < math.inf and x == x


@njit(cache=True)
def _log_tails(a, b, x):
    """(ln I_x(a, b), ln(1 - I_x(a, b))) for any x: (-inf, 0) for x <= 0, (0, -inf) for x >= 1, and
    (nan, nan) if a or b is not a finite positive number or x is nan."""
    if not check_beta_args(a, b, x):
        return math.nan, math.nan
    if x <= 0.0:
        return -math.inf, 0.0
    if x >= 1.0:
        return 0.0, -math.inf
    return log_cdf_pair(a, b, x)


@njit(cache=True)
def betainc(a, b, x):
    """Regularized incomplete beta I_x(a, b) = P(Beta(a, b) <= x), for a, b > 0 and 0 <= x <= 1.

    x <= 0 gives 0, x >= 1 gives 1; nan if a or b is not a finite positive number or x is nan.
    Relative error <= ~2e-13 for a, b in [1, 1e7], <= ~1e-12 for a, b in [1e-3, 1e7], including
    lower-tail values down to the smallest normal double.  Cost ~0.1-1 us: a continued fraction of
    < 100 passes, or Temme's expansion near the mean of a wide-enough distribution.
    """
    return math.exp(_log_tails(a, b, x)[0])


@njit(cache=True)
def betainc_upper(a, b, x):
    """1 - I_x(a, b) = I_{1-x}(b, a) = P(Beta(a, b) > x), computed without cancellation.

    Same contract and accuracy as ``betainc``: an upper tail of 1e-300 comes out with ~1e-13
    relative error instead of as 0.  x <= 0 gives 1, x >= 1 gives 0; nan for invalid arguments.
    """
    return math.exp(_log_tails(a, b, x)[1])


@njit(cache=True)
def prob_beta_above_half(a, b):
    """q = P(Beta(a, b) > 1/2) = betainc_upper(a, b, 0.5), accurate in both tails (a, b > 0).

    q near 1 is 1 - (tiny lower tail) to full double precision; q tiny keeps ~13 digits down to
    ~1e-308 (below that it underflows to 0).
    """
    return betainc_upper(a, b, 0.5)
