"""Regularized incomplete beta function, its inverse and truncated Beta samplers (numba kernels).

D-TS draws theta ~ Beta(a, b) per pair but often only needs 1(theta > 1/2), a Bernoulli(q) with
q = P(Beta(a, b) > 1/2).  These kernels compute q accurately in both tails, invert the Beta CDF, and
draw theta conditioned on its side of 1/2 by inverse CDF inside that side.

Everything is ``@njit(cache=True)``, scalar and allocation-free; no scipy inside the kernels.  Written
from the mathematics, not from any library's source:

* The prefactor x^a (1-x)^b / B(a, b) is evaluated in Temme's "Stirling" form
  sqrt(ab / (2 pi (a+b))) * exp(a*l(e/a) + b*l(-e/b) + d(a+b) - d(a) - d(b)), where l(t) =
  log(1+t) - t, d(z) = lgamma(z) - (z-1/2) log z + z - log sqrt(2 pi) (the Stirling error), and
  e = x(a+b) - a is formed with error-free products.  The two large terms a log(x(a+b)/a) and
  b log((1-x)(a+b)/b) cancel analytically instead of numerically, so the exponent keeps an absolute
  error of about 1e-16 * |exponent| even for a, b ~ 1e7 (direct lgamma differences would lose ~1e-8).
* I_x(a, b) = prefactor / (a K) with K = 1 + d1/(1 + d2/(1 + ...)), the classical continued fraction
  d_{2m+1} = -(a+m)(a+b+m)x / ((a+2m)(a+2m+1)), d_{2m} = m(b-m)x / ((a+2m-1)(a+2m)), evaluated by the
  modified Lentz method.  It is used on the side x < (a+1)/(a+b+2), the other side through
  I_x(a, b) = 1 - I_{1-x}(b, a); whichever tail it yields is returned (and kept in log form) without
  cancellation, the complementary tail as 1 - that (>= ~0.13 there when a, b >= 1, so no digits lost).
* Quantiles: safeguarded Halley iteration on log(tail(x)) - log(target) in the variable log x (lower
  tail) or log(1-x) (upper tail), started from a normal approximation in Temme's eta variable, kept
  inside a bracket that is tightened after every evaluation, with bisection as the fallback.
"""

import math

from numba import njit

_LOG_SQRT_2PI = 0.9189385332046728  # log(sqrt(2 pi))
_LOG2 = 0.6931471805599453
_SPLIT = 134217729.0  # 2**27 + 1, Veltkamp splitting constant for error-free products
_TINY = 1e-300  # Lentz's guard against a zero denominator
_CF_EPS = 1e-16  # stop the continued fraction when both factors of a step are within this of 1
_HALF_UP = 0.5 + 2.0 ** -53  # nextafter(0.5, 1)
_X_EPS = 2.220446049250313e-16  # quantile iteration stops when a step moves x by < 2 * this (relative)
_PPF_MAXITER = 200
_LOG_0997 = math.log(0.997)
_ALT_CF_STEPS = 500  # beyond its switch point the fraction loses accuracy as it slows down


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
    l = ((ph * qh - h) + ph * ql + pl * qh) + pl * ql
    return h, l


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
def _log_add(x, y):
    """log(exp(x) + exp(y)) without overflow or needless underflow."""
    if x < y:
        x, y = y, x
    if y == -math.inf:
        return x
    return x + math.log1p(math.exp(y - x))


@njit(cache=True)
def _log1mexp(x):
    """log(1 - exp(x)) for x <= 0 (-inf at x = 0), accurate for x near 0 and for x very negative."""
    if x > -_LOG2:
        return math.log(-math.expm1(x))
    return math.log1p(-math.exp(x))


# --------------------------------------------------------------------------------------------------
# Beta function, prefactor and density
# --------------------------------------------------------------------------------------------------


@njit(cache=True)
def log_beta(a, b):
    """log B(a, b) = lgamma(a) + lgamma(b) - lgamma(a + b) for a, b > 0 (nan otherwise).

    Built on math.lgamma, but arranged so that large arguments do not cancel: with m = min(a, b),
    M = max(a, b), s = a + b and d the Stirling error (lgamma(z) - (z-1/2)log z + z - log sqrt(2 pi),
    from math.lgamma below 10 and from its asymptotic series above),
        log B = log sqrt(2 pi) - log(m M / s)/2 + m log(m/s) - M log1p(m/M) + d(a) + d(b) - d(s).
    Relative error ~1e-15 (absolute ~5e-15 when the value is near 0) for all a, b in [1e-300, 1e300];
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
def _log_prefactor(a, b, x):
    """(e, log( x^a (1-x)^b / B(a, b) )) for a, b > 0 and 0 < x < 1, absolute error ~1e-16 * (|value| + 10).

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
    return e, (0.5 * math.log(a / s * b) - _LOG_SQRT_2PI + a * l1 + b * l2
               + _stirling_error(s) - _stirling_error(a) - _stirling_error(b))


@njit(cache=True)
def _log_pdf(a, b, x):
    """log of the Beta(a, b) density at 0 < x < 1 (accurate like ``_log_prefactor``)."""
    return _log_prefactor(a, b, x)[1] - math.log(x) - math.log1p(-x)


# --------------------------------------------------------------------------------------------------
# Incomplete beta function
# --------------------------------------------------------------------------------------------------


@njit(cache=True)
def _cf_max_steps(a, b):
    """Iteration cap of the continued fraction: generous, ~14x the worst count observed (a+b = 1e7)."""
    return 300 + int(4.0 * math.sqrt(a + b))


@njit(cache=True)
def _betacf(a, b, x, e, nmax):
    """(K, converged): K = 1 + d1/(1 + d2/(1 + ...)) so that I_x(a, b) = x^a (1-x)^b / (a B(a, b) K).

    d_{2m+1} = -(a+m)(a+b+m)x / ((a+2m)(a+2m+1)), d_{2m} = m(b-m)x / ((a+2m-1)(a+2m)).
    Modified Lentz evaluation (C_k = 1 + d_k/C_{k-1}, D_k = 1/(1 + d_k D_{k-1}), K = prod C_k D_k),
    two partial numerators per pass, for x < (a+1)/(a+b+2) where it converges fast (O(sqrt)-like
    passes at worst, right at that point, for large a + b).

    Near that point d_{2m+1} is close to -1, and forming 1 + d_{2m+1} / C_{2m} naively loses up to
    ~1e-9 relative (a huge, b small).  So e = x (a+b) - a must be passed in, computed accurately,
    and the odd steps use the cancellation-free identity
        (a+2m)(a+2m+1) (1 + d_{2m+1}) = a (1 - e) + m (a (3 - x) + m (4 - x) + 2 - e)
    (every term >= 0 there since e < 1), with C_{2m+1} = ((1 + d_{2m+1}) + (C_{2m} - 1)) / C_{2m} and
    1 + d_{2m+1} D_{2m} = (1 + d_{2m+1}) + d_{2m+1} (D_{2m} - 1), the "- 1" parts carried exactly.
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
def _log_cdf_pair(a, b, x):
    """(log I_x(a, b), log(1 - I_x(a, b))) for a, b > 0, 0 < x < 1, each to ~1e-13 relative.

    The continued fraction on its fast side gives the log of one tail directly (never rounded to 0
    on the way, so tails far below 1e-308 come out as exact logs); the other is log1p(-exp(.)) of it.
    For a, b >= 1 the fraction's tail there is <= ~0.87, so the complement loses < 1 digit.  With a
    parameter < 1 it can be ~1 (e.g. I_x(0.001, b) at the switch point), and its complement would
    lose digits: when that complement is < 0.003 it is recomputed by the mirrored fraction, which
    still converges there, and kept if that fraction converged within 500 passes.
    """
    e, lp = _log_prefactor(a, b, x)
    if x * (a + b + 2.0) < a + 1.0:
        k, _ = _betacf(a, b, x, e, _cf_max_steps(a, b))
        lo = lp - math.log(a * k)
        if lo > _LOG_0997:
            k2, ok = _betacf(b, a, 1.0 - x, -e, _ALT_CF_STEPS)
            if ok:
                lu = lp - math.log(b * k2)
                return _log1mexp(lu), lu
        return lo, _log1mexp(lo)
    # mirrored orientation: (1 - x)(a + b) - b = -e
    k, _ = _betacf(b, a, 1.0 - x, -e, _cf_max_steps(a, b))
    lu = lp - math.log(b * k)
    if lu > _LOG_0997:
        k2, ok = _betacf(a, b, x, e, _ALT_CF_STEPS)
        if ok:
            lo = lp - math.log(a * k2)
            return lo, _log1mexp(lo)
    return _log1mexp(lu), lu


@njit(cache=True)
def _check_args(a, b, x):
    """True when a > 0, b > 0 and x is not nan (all comparisons false for nan)."""
    return a > 0.0 and b > 0.0 and x == x


@njit(cache=True)
def betainc(a, b, x):
    """Regularized incomplete beta I_x(a, b) = P(Beta(a, b) <= x), for a, b > 0 and 0 <= x <= 1.

    x <= 0 gives 0, x >= 1 gives 1; nan if a <= 0, b <= 0 or any argument is nan.  Relative error
    ~1e-13 or better for a, b in [1e-3, 1e7] (tested against scipy to 1e-10 relative, see the tests),
    including lower-tail values down to the smallest normal double.  Cost: one continued fraction of
    O(10) passes far from the mean, O(sqrt-ish) at worst next to it (~900 passes at a = b = 5e6).
    """
    if not _check_args(a, b, x):
        return math.nan
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lo, _ = _log_cdf_pair(a, b, x)
    return math.exp(lo)


@njit(cache=True)
def betainc_upper(a, b, x):
    """1 - I_x(a, b) = I_{1-x}(b, a) = P(Beta(a, b) > x), computed without cancellation.

    Same contract and accuracy as ``betainc``: an upper tail of 1e-300 comes out with ~1e-13 relative
    error instead of as 0.  x <= 0 gives 1, x >= 1 gives 0; nan for invalid arguments.
    """
    if not _check_args(a, b, x):
        return math.nan
    if x <= 0.0:
        return 1.0
    if x >= 1.0:
        return 0.0
    _, up = _log_cdf_pair(a, b, x)
    return math.exp(up)


@njit(cache=True)
def prob_beta_above_half(a, b):
    """q = P(Beta(a, b) > 1/2) = betainc_upper(a, b, 0.5), accurate in both tails (a, b > 0).

    q near 1 is 1 - (tiny lower tail) to full double precision; q tiny keeps ~13 digits down to
    ~1e-308 (below that it underflows to 0).
    """
    return betainc_upper(a, b, 0.5)


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
def _solve_tail(a, b, log_target, upper):
    """x in [0, 1] with log(tail(x)) = log_target, tail = P(X <= x) (upper False) or P(X > x) (True).

    log_target < 0 (the target may be far below 1e-308).  Accuracy: x to a couple of ulps of the
    exact root of the computed tail, i.e. the tail matched to the ~1e-13 accuracy of the tail itself
    (in x: that times tail/(x pdf)).  At most ``_PPF_MAXITER`` tail evaluations; typically 2-5.

    Method: Halley steps on g = log tail(x) - log_target in w = log x (lower) or w = log(1-x)
    (upper), which makes power-law tails nearly linear; a bracket [lo, hi] is narrowed by the sign of
    g after every evaluation and any step leaving it is replaced by a (geometric) bisection.  Initial
    bracket: [0, 1] tightened by the bound P(X <= x) <= x^a / (a B) (for b >= 1; a 2^(1-b) factor when
    b < 1 and the root is below 1/2) and its mirror image for the upper tail.
    """
    s = a + b
    lbeta = log_beta(a, b)
    lo = 0.0
    hi = 1.0
    # Power-law bounds: lower tail F(x) <= x^a/(aB) * max(1, 2^(1-b)) for x <= 1/2 (any x if b >= 1).
    if not upper:
        xb = math.exp((log_target + math.log(a) + lbeta + min(0.0, b - 1.0) * _LOG2) / a)
        xb *= 1.0 - 1e-14  # keep the bound strict despite rounding
        if b >= 1.0:
            lo = min(xb, 1.0)
        else:
            lo = min(xb, 0.5)
    else:
        yb = math.exp((log_target + math.log(b) + lbeta + min(0.0, a - 1.0) * _LOG2) / b)
        yb *= 1.0 - 1e-14
        if a >= 1.0:
            hi = max(1.0 - yb, 0.0)
        else:
            hi = max(1.0 - yb, 0.5)
    if lo >= hi:
        return 0.5 * (lo + hi)
    # Starting point.
    log_other = _log1mexp(log_target)
    if upper:
        z = -_norm_quantile_approx(log_target, log_other)
    else:
        z = _norm_quantile_approx(log_target, log_other)
    x = _ppf_guess(a, b, z)
    if not (lo < x < hi):
        x = _bisect_point(lo, hi, upper)
    for _ in range(_PPF_MAXITER):
        y = 1.0 - x
        lf, lq = _log_cdf_pair(a, b, x)
        lt = lq if upper else lf
        g = lt - log_target
        if g == 0.0:
            return x
        # Bracket update: for the lower tail g < 0 means the root is right of x.
        if (g < 0.0) != upper:
            lo = x
        else:
            hi = x
        if hi - lo <= 2.0 * _X_EPS * hi:
            return 0.5 * (lo + hi)
        x_new = -1.0
        if g > -math.inf:
            # h = pdf / tail, L = d log pdf / dx.
            h = math.exp(_log_pdf(a, b, x) - lt)
            lder = (a - 1.0) / x - (b - 1.0) / y
            if upper:
                v = y  # dx/dw = -(1 - x)
                gw = v * h
                gww = v * v * h * (-lder - h) + v * h
            else:
                v = x  # dx/dw = x
                gw = v * h
                gww = v * v * h * (lder - h) + v * h
            if gw > 0.0 and gw < math.inf:
                den = 2.0 * gw * gw - g * gww
                if den > 0.0:
                    dw = 2.0 * g * gw / den
                else:
                    dw = g / gw
                if upper:
                    x_new = x - v * math.expm1(-dw)  # 1 - x_new = (1 - x) exp(-dw)
                else:
                    x_new = x + v * math.expm1(-dw)  # x_new = x exp(-dw)
                if abs(x_new - x) <= 2.0 * _X_EPS * x and lo <= x_new <= hi:
                    return x_new
        if not (lo < x_new < hi):
            x_new = _bisect_point(lo, hi, upper)
        x = x_new
    return x


@njit(cache=True)
def _bisect_point(lo, hi, upper):
    """Fallback trial point in (lo, hi): geometric mean towards the tail end when the bracket spans
    orders of magnitude there (lower tail: in x; upper tail: in 1 - x), arithmetic mean otherwise."""
    if upper:
        ylo = 1.0 - hi
        yhi = 1.0 - lo
        if ylo <= 0.0:
            return 1.0 - yhi * 2.0 ** -20 if yhi > 0.0 else 0.5 * (lo + hi)
        if yhi > 4.0 * ylo:
            return 1.0 - math.sqrt(ylo) * math.sqrt(yhi)
        return 0.5 * (lo + hi)
    if lo <= 0.0:
        return hi * 2.0 ** -20
    if hi > 4.0 * lo:
        return math.sqrt(lo) * math.sqrt(hi)
    return 0.5 * (lo + hi)


@njit(cache=True)
def _ppf_from_logs(a, b, log_tail, log_other, upper):
    """Quantile for a tail given as logs of both the requested side and its complement: solves on the
    side whose probability is <= 1/2 (where the target is known to full relative precision)."""
    if log_tail <= -_LOG2:
        return _solve_tail(a, b, log_tail, upper)
    return _solve_tail(a, b, log_other, not upper)


@njit(cache=True)
def beta_ppf_upper(a, b, tail):
    """x with P(Beta(a, b) > x) = tail, for a, b > 0 and 0 < tail < 1 (0 gives 1.0, 1 gives 0.0).

    Accurate when tail is tiny (solved from log tail; x to a few ulps of the root of the computed
    tail).  tail > 1/2 is solved as the lower tail 1 - tail (exact in floating point there).
    Works for a, b up to 1e7 and beyond (distribution widths down to ~1e-7 and below).  nan for
    invalid arguments.  Typically 2-5 incomplete-beta evaluations; never more than 200.
    """
    if not _check_args(a, b, tail) or tail < 0.0 or tail > 1.0:
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
    if not _check_args(a, b, tail) or tail < 0.0 or tail > 1.0:
        return math.nan
    if tail <= 0.0:
        return 0.0
    if tail >= 1.0:
        return 1.0
    return _ppf_from_logs(a, b, math.log(tail), math.log1p(-tail), False)


# --------------------------------------------------------------------------------------------------
# Truncated samplers
# --------------------------------------------------------------------------------------------------


@njit(cache=True)
def sample_beta_above_half(rng, a, b):
    """theta ~ Beta(a, b) conditioned on theta > 1/2, by inverse CDF inside (1/2, 1]; a, b > 0.

    One ``rng.random()`` draw U.  With p = P(X <= 1/2), q = P(X > 1/2) (both as accurate logs), the
    sample solves P(X > theta) = q (1 - U); when that target exceeds 1/2 the equivalent
    P(X <= theta) = p + q U is solved instead, so the target is always known to full relative
    precision -- even when q underflows double precision (e.g. Beta(2, 1e7)).  Exact in distribution
    up to floating point.  The result is strictly > 1/2 (a root that rounds to 1/2 is returned as
    nextafter(1/2, 1)) and <= 1.
    """
    lp, lq = _log_cdf_pair(a, b, 0.5)
    uu = rng.random()
    one_minus = 1.0 - uu  # in (0, 1]
    log_v = lq + math.log(one_minus)  # log of the upper-tail target q (1 - U)
    if log_v <= -_LOG2:
        x = _solve_tail(a, b, log_v, True)
    else:
        if uu == 0.0:
            return _HALF_UP
        x = _solve_tail(a, b, _log_add(lp, lq + math.log(uu)), False)
    if x <= 0.5:
        return _HALF_UP
    if x > 1.0:
        return 1.0
    return x


@njit(cache=True)
def sample_beta_below_half(rng, a, b):
    """theta ~ Beta(a, b) conditioned on theta <= 1/2, by inverse CDF inside (0, 1/2]; a, b > 0.

    Mirror image of ``sample_beta_above_half``: solves P(X <= theta) = p (1 - U), or
    P(X > theta) = q + p U when that is the smaller tail.  The result is in (0, 1/2] (an underflow
    to 0 is returned as the smallest positive double).
    """
    lp, lq = _log_cdf_pair(a, b, 0.5)
    uu = rng.random()
    one_minus = 1.0 - uu
    log_v = lp + math.log(one_minus)  # log of the lower-tail target p (1 - U)
    if log_v <= -_LOG2:
        x = _solve_tail(a, b, log_v, False)
    else:
        if uu == 0.0:
            return 0.5
        x = _solve_tail(a, b, _log_add(lq, lp + math.log(uu)), True)
    if x > 0.5:
        return 0.5
    if x <= 0.0:
        return 5e-324
    return x
