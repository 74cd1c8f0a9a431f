"""Elementary kernels of the incomplete beta function: error-free products, log1p(t) - t, the Stirling
error, log-space sums, ln B(a, b) and the prefactor x^a (1-x)^b / B(a, b) in Temme's cancellation-free
form (see ``core.betainc`` for the method and its accuracy)."""

import math

from numba import njit

_LOG_SQRT_2PI = 0.9189385332046728  # log(sqrt(2 pi))
LOG2 = 0.6931471805599453
_SPLIT = 134217729.0  # 2**27 + 1, Veltkamp splitting constant for error-free products

# --------------------------------------------------------------------------------------------------
# Elementary helpers
# --------------------------------------------------------------------------------------------------


@njit(cache=True)
def _two_prod(p, q):
    """Error-free product: (h, l) with h = fl(p*q) and h + l = p*q exactly (Dekker/Veltkamp split).

    Exact while |p|, |q| < 1e150 or so and no intermediate underflows; a few ulps otherwise.
    """
    h = p * q
    c = _SPLIT * p
    ph = c - (c - p)
    pl = p - ph
    c = _SPLIT * q
    qh = c - (c - q)
    ql = q - qh
    lo = ((ph * qh - h) + ph * ql + pl * qh) + pl * ql
    return h, lo


@njit(cache=True)
def _log1pmx(t):
    """log(1 + t) - t for t > -1 with a relative error of a few ulps (no cancellation near t = 0).

    |t| < 1/2: with u = t/(2+t), log(1+t) = 2 atanh(u) and t - 2u = u t, so
    log(1+t) - t = 2 (u^3/3 + u^5/5 + ...) - u t, all terms of one sign for t < 0 and the series
    small against u t for t > 0.  Otherwise log1p(t) - t directly (cancellation factor <= 5 there).
    """
    if -0.5 < t < 0.5:
        u = t / (2.0 + t)
        u2 = u * u
        term = u * u2
        total = 0.0
        k = 3.0
        while True:
            piece = term / k
            total += piece
            if abs(piece) <= 1e-17 * abs(total):
                break
            term *= u2
            k += 2.0
        return 2.0 * total - u * t
    return math.log1p(t) - t


@njit(cache=True)
def _stirling_error(z):
    """d(z) = lgamma(z) - (z - 1/2) log z + z - log sqrt(2 pi), z > 0, with a small absolute error.

    z >= 10: the Stirling series sum_k B_2k / (2k (2k-1) z^(2k-1)) to k = 8 (truncation < 2e-18).
    z < 10: from math.lgamma (absolute error a few 1e-15; lgamma is not the bottleneck there).
    """
    if z >= 10.0:
        zi = 1.0 / z
        z2 = zi * zi
        return zi * (1.0 / 12.0 + z2 * (-1.0 / 360.0 + z2 * (1.0 / 1260.0 + z2 * (
            -1.0 / 1680.0 + z2 * (1.0 / 1188.0 + z2 * (-691.0 / 360360.0 + z2 * (
                1.0 / 156.0 + z2 * (-3617.0 / 122400.0))))))))
    return math.lgamma(z) - (z - 0.5) * math.log(z) + z - _LOG_SQRT_2PI


@njit(cache=True)
def log_add(x, y):
    """log(exp(x) + exp(y)) without overflow or needless underflow."""
    if x < y:
        x, y = y, x
    if y == -math.inf:
        return x
    return x + math.log1p(math.exp(y - x))


@njit(cache=True)
def log1mexp(x):
    """log(1 - exp(x)) for x <= 0 (-inf at x = 0), accurate for x near 0 and for x very negative."""
    if x > -LOG2:
        return math.log(-math.expm1(x))
    return math.log1p(-math.exp(x))


# --------------------------------------------------------------------------------------------------
# Beta function, prefactor and density
# --------------------------------------------------------------------------------------------------


@njit(cache=True)
def log_beta(a, b):
    """log B(a, b) = lgamma(a) + lgamma(b) - lgamma(a + b) for a, b > 0 (nan otherwise).

    Built on math.lgamma, but arranged so that large arguments do not cancel: with m = min(a, b),
    M = max(a, b), s = a + b and d the Stirling error
    (lgamma(z) - (z-1/2) log z + z - log sqrt(2 pi), from math.lgamma below 10 and from its
    asymptotic series above),
        log B = log sqrt(2 pi) - log(m M / s)/2 + m log(m/s) - M log1p(m/M) + d(a) + d(b) - d(s).
    Relative error ~1e-15 (absolute ~5e-15 when the value is near 0) for a, b in [1e-300, 1e300];
    the naive lgamma(a) + lgamma(b) - lgamma(a+b) would have an absolute error of about
    1e-16 * lgamma(a+b), i.e. ~3e-8 at a + b = 2e7.
    """
    if not (a > 0.0 and b > 0.0):
        return math.nan
    if a < b:
        m = a
        big = b
    else:
        m = b
        big = a
    s = a + b
    return (_LOG_SQRT_2PI - 0.5 * math.log(m / s * big) + m * math.log(m / s)
            - big * math.log1p(m / big)
            + _stirling_error(a) + _stirling_error(b) - _stirling_error(s))


@njit(cache=True)
def log_prefactor(a, b, x):
    """(e, log P, w): P = x^a (1-x)^b / B(a, b), for a, b > 0 and 0 < x < 1.

    log P has an absolute error ~1e-16 * (|log P| + 10).  Also returned: e = x (a+b) - a and
    w = a log(x/x0) + b log((1-x)/y0) <= 0 (x0 = a/(a+b), y0 = b/(a+b)), i.e. -z^2/2 for Temme's
    normal variable z, both accurate to a few ulps.

    Temme's form: log sqrt(ab / (2 pi s)) + a l(e/a) + b l(-e/b) + d(s) - d(a) - d(b), s = a + b,
    e = x s - a (so x = (a + e)/s and 1 - x = (b - e)/s), l = log1pmx, d = Stirling error.  e is
    formed with an error-free product and the rounding error of a + b, so it is accurate to a few
    ulps of itself even when x is within 1e-16 of the mean a/s.
    """
    s = a + b
    bb = s - a
    s_lo = (a - (s - bb)) + (b - bb)  # a + b = s + s_lo exactly
    ph, pl = _two_prod(x, s)
    e = (ph - a) + (pl + x * s_lo)
    t1 = e / a  # x / x0 - 1
    t2 = -e / b  # (1 - x) / y0 - 1
    # Near t = -1, log1p(t) would inherit e's absolute error as a large relative one: there
    # log(x / x0) is taken from x itself (and log((1-x)/y0) from 1 - x, exact when x > 1/2).
    if t1 < -0.5:
        l1 = math.log(x * s / a) - t1
    else:
        l1 = _log1pmx(t1)
    if t2 < -0.5:
        l2 = math.log((1.0 - x) * s / b) - t2
    else:
        l2 = _log1pmx(t2)
    w = a * l1 + b * l2
    return e, (0.5 * math.log(a / s * b) - _LOG_SQRT_2PI + w
               + _stirling_error(s) - _stirling_error(a) - _stirling_error(b)), w
