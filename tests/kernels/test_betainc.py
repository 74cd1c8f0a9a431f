"""Tests of core/betainc.py: incomplete beta, quantiles and the truncated Beta samplers.

References: scipy.special (Boost) on a grid, and a small table of 50-digit mpmath values (computed
offline with the continued fraction in 50-digit arithmetic, checked against mpmath.betainc where
that converges) for the places where scipy itself is less accurate than the kernels.
"""

import math

import numpy as np
import pytest
from numba import njit
from scipy import special, stats

from dts_reproduction.core.betainc import (
    beta_ppf_lower,
    beta_ppf_upper,
    betainc,
    betainc_upper,
    log_beta,
    prob_beta_above_half,
    sample_beta_above_half,
    sample_beta_below_half,
)

GRID = [1.0, 1.00001, 2.5, 10.0, 137.2, 1e3 + 1e-5, 5e4, 1e6, 1e7]


def _x_grid(a, b):
    """Fixed points (incl. 1/2) plus points at 0, +-0.5, +-2, +-5, +-20 standard deviations."""
    s = a + b
    mean = a / s
    sd = math.sqrt(a * b / (s * s * (s + 1.0)))
    xs = {1e-6, 1e-3, 0.1, 0.3, 0.45, 0.5, 0.55, 0.7, 0.9, 0.999}
    for k in (0.0, -0.5, 0.5, -2.0, 2.0, -5.0, 5.0, -20.0, 20.0):
        x = mean + k * sd
        if 0.0 < x < 1.0:
            xs.add(x)
    return sorted(xs)


def _rtol_vs_scipy(a, b):
    """1e-10, except 1e-9 for very unbalanced pairs (max/min >= 1e5).

    There scipy itself is off: at a = 10, b = 1e7, x = 1e-6 scipy.special.betainc returns
    0.5420714742052 while 50-digit mpmath gives 0.54207147407352253 (error 2.4e-10); our value
    agrees with mpmath to 1e-16 (see ``MPMATH_TABLE``).  Everywhere else the two agree to ~3e-12.
    """
    return 1e-9 if max(a, b) / min(a, b) >= 1e5 else 1e-10


def _check_close(mine, ref, rtol, what):
    """Relative comparison for reference values in the normal range; below ~1e-290 (where scipy's
    last digits are no longer reliable and relative errors mean little) only require tininess."""
    if ref > 1e-290:
        assert abs(mine / ref - 1.0) <= rtol, (what, mine, ref)
    else:
        assert mine < 1e-280, (what, mine, ref)


@pytest.mark.parametrize("a", GRID)
def test_betainc_and_upper_match_scipy(a):
    for b in GRID:
        rtol = _rtol_vs_scipy(a, b)
        for x in _x_grid(a, b):
            _check_close(betainc(a, b, x), special.betainc(a, b, x), rtol, ("lower", a, b, x))
            up = betainc_upper(a, b, x)
            _check_close(up, special.betaincc(a, b, x), rtol, ("upper", a, b, x))


@pytest.mark.parametrize("a", GRID)
def test_prob_beta_above_half_matches_scipy(a):
    for b in GRID:
        q = prob_beta_above_half(a, b)
        _check_close(q, special.betaincc(a, b, 0.5), _rtol_vs_scipy(a, b), (a, b))
        # P(Beta(a, b) > 1/2) + P(Beta(b, a) > 1/2) = 1, and the small one is not 1 - (big one)
        q_swap = prob_beta_above_half(b, a)
        assert abs(q + q_swap - 1.0) <= 4e-15
        if a == b:
            assert abs(q - 0.5) <= 1e-15


# (a, b, x, I_x(a, b), 1 - I_x(a, b)) from 50-digit mpmath.  Tolerance 2e-13 relative: the
# exponent of a 1e-277 tail is ~-640, whose relative rounding alone is ~1e-13.  The one row with
# a < 1 gets 1e-12: there the upper tail 1.9e-3 is the complement of 0.998 (documented limit).
MPMATH_TABLE = [
    (10.0, 10000000.0, 1e-06, 5.4207147407352253e-1, 4.5792852592647747e-1),
    (1000000.0, 1000000.0, 0.4929289339559008, 2.6993631595060035e-89, 1.0),
    (10000000.0, 10000000.0, 0.5001, 8.1445331464065784e-1, 1.8554668535934216e-1),
    (5000000.0, 5003000.0, 0.5, 8.2857296352980623e-1, 1.7142703647019377e-1),
    (2.0, 40.0, 0.5, 9.9999999998090061e-1, 1.9099388737231493e-11),
    (1000.5, 990.2, 0.5, 4.0869577884448221e-1, 5.9130422115551779e-1),
    (1000.00001, 1000.00001, 0.2, 2.2478988847137947e-196, 1.0),
    (1.0, 10000000.0, 1e-14, 9.9999995000000667e-8, 9.99999900000005e-1),
    (10000000.0, 10.0, 0.9999986837737241, 1.5535842346371857e-1, 8.4464157653628143e-1),
    (0.001, 137.2, 0.0006962349857149914, 9.9813355702158776e-1, 1.8664429784122442e-3),
    (137.2, 50000.0, 1e-05, 2.7313912153700743e-277, 1.0),
    (20.0, 3.0, 0.5, 6.0558319091796875e-5, 9.999394416809082e-1),
    (3.0, 5.0, 0.5, 7.734375e-1, 2.265625e-1),
    (50000.0, 50200.0, 0.5, 7.3624999016363199e-1, 2.6375000983636801e-1),
    (1.00001, 1.00001, 0.3, 2.999988848101604e-1, 7.000011151898396e-1),
]


@pytest.mark.parametrize("a, b, x, lower, upper", MPMATH_TABLE)
def test_against_mpmath_table(a, b, x, lower, upper):
    rtol = 2e-13 if min(a, b) >= 1.0 else 1e-12
    assert betainc(a, b, x) == pytest.approx(lower, rel=rtol, abs=0)
    assert betainc_upper(a, b, x) == pytest.approx(upper, rel=rtol, abs=0)


# log B(a, b) from 40-digit mpmath (scipy.special.betaln is off by up to ~6e-11 relative here).
LOG_BETA_TABLE = [
    (1.00001, 1000000.0, -13.8156544851492575),
    (2.5, 1000000.0, -34.2540953994365161),
    (10.0, 10000000.0, -148.379133529500303),
    (137.2, 10000000.0, -1674.92330264089635),
    (10000000.0, 10000000.0, -13862950.4047345957),
    (5000000.0, 5003000.0, -6933557.24438810495),
    (0.001, 0.001, 7.60090081700834738),
    (1000.5, 990.2, -1382.00734193550164),
    (0.5, 0.5, 1.14472988584940017),
]


@pytest.mark.parametrize("a, b, ref", LOG_BETA_TABLE)
def test_log_beta_against_mpmath(a, b, ref):
    assert log_beta(a, b) == pytest.approx(ref, rel=1e-15, abs=1e-15)
    assert log_beta(b, a) == log_beta(a, b)


def test_log_beta_identities():
    for b in GRID:
        assert log_beta(1.0, b) == pytest.approx(-math.log(b), rel=2e-15, abs=2e-15)
        assert log_beta(2.0, b) == pytest.approx(-math.log(b) - math.log1p(b), rel=2e-15, abs=2e-15)
    for n in range(1, 8):
        for m in range(1, 8):
            fact = math.factorial
            exact = math.log(fact(n - 1) * fact(m - 1) / fact(n + m - 1))
            assert log_beta(float(n), float(m)) == pytest.approx(exact, rel=1e-14, abs=1e-14)
    assert math.isnan(log_beta(0.0, 1.0)) and math.isnan(log_beta(1.0, -2.0))


def test_edge_cases():
    assert betainc(2.0, 3.0, 0.0) == 0.0 and betainc(2.0, 3.0, 1.0) == 1.0
    assert betainc(2.0, 3.0, -1.0) == 0.0 and betainc(2.0, 3.0, 2.0) == 1.0
    assert betainc_upper(2.0, 3.0, 0.0) == 1.0 and betainc_upper(2.0, 3.0, 1.0) == 0.0
    assert math.isnan(betainc(0.0, 3.0, 0.5)) and math.isnan(betainc(2.0, -1.0, 0.5))
    assert math.isnan(betainc(2.0, 3.0, math.nan)) and math.isnan(betainc_upper(math.nan, 3.0, 0.5))
    assert betainc(1.0, 1.0, 0.3) == pytest.approx(0.3, rel=1e-15)
    # tails far below 1e-300 stay positive and accurate, not 1 - (something close to 1)
    ref = special.betaincc(2.0, 1000.0, 0.5)
    assert betainc_upper(2.0, 1000.0, 0.5) == pytest.approx(ref, rel=1e-12)
    assert 0.0 < prob_beta_above_half(2.0, 1000.0) < 1e-290
    assert prob_beta_above_half(1000.0, 2.0) == 1.0
    assert math.isnan(beta_ppf_upper(2.0, 3.0, 1.5)) and math.isnan(beta_ppf_lower(2.0, 3.0, -0.1))
    assert beta_ppf_upper(2.0, 3.0, 0.0) == 1.0 and beta_ppf_upper(2.0, 3.0, 1.0) == 0.0
    assert beta_ppf_lower(2.0, 3.0, 0.0) == 0.0 and beta_ppf_lower(2.0, 3.0, 1.0) == 1.0


PPF_PAIRS = [(1.0, 1.0), (1.00001, 1.00001), (2.5, 10.0), (10.0, 2.5), (3.0, 5.0), (20.0, 3.0),
             (2.0, 40.0), (137.2, 1e3 + 1e-5), (1000.5, 990.2), (5e4, 5e4 + 200.0), (1.0, 1e7),
             (1e7, 1.00001), (1e6, 1e7), (5e6, 5e6 + 3000.0), (1e7, 1e7)]
TAILS = [1e-300, 1e-100, 1e-10, 1e-3, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0 - 1e-10]


def _assert_root(tail_fn, a, b, x, target):
    """x is within one ulp of the exact root: target lies between the tails at the neighbouring
    doubles, widened by 1e-11 relative (the tails themselves are accurate to ~1e-13).  A root
    closer to 0 or 1 than any double comes out as that end (the tail there is 0 or 1)."""
    assert 0.0 <= x <= 1.0, x
    vals = [tail_fn(a, b, float(v)) for v in (np.nextafter(x, 0.0), x, np.nextafter(x, 1.0))]
    assert min(vals) * (1 - 1e-11) <= target <= max(vals) * (1 + 1e-11), (a, b, x, target, vals)


@pytest.mark.parametrize("a, b", PPF_PAIRS)
def test_ppf_round_trip(a, b):
    for t in TAILS:
        xu = beta_ppf_upper(a, b, t)
        xl = beta_ppf_lower(a, b, t)
        if t >= 0.5:
            # from the complementary side the target 1 - t is exact: check the round trip there
            _assert_root(betainc, a, b, xu, 1.0 - t)
            _assert_root(betainc_upper, a, b, xl, 1.0 - t)
        else:
            _assert_root(betainc_upper, a, b, xu, t)
            _assert_root(betainc, a, b, xl, t)
        # symmetry: the upper quantile of Beta(a, b) is 1 - the lower one of Beta(b, a)
        assert xu == pytest.approx(1.0 - beta_ppf_lower(b, a, t), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("a, b", [(2.5, 10.0), (3.0, 5.0), (20.0, 3.0), (137.2, 1e3 + 1e-5),
                                  (1000.5, 990.2)])
def test_ppf_matches_scipy(a, b):
    for t in (1e-8, 1e-3, 0.1, 0.5, 0.9):
        assert beta_ppf_upper(a, b, t) == pytest.approx(special.betainccinv(a, b, t), rel=1e-10)
        assert beta_ppf_lower(a, b, t) == pytest.approx(special.betaincinv(a, b, t), rel=1e-10)


def test_ppf_narrow_distribution():
    # a = b = 1e7: sd ~1.1e-4; a tail of 1e-300 sits ~37 sd out, still well inside (0, 1)
    a = b = 1e7
    x = beta_ppf_upper(a, b, 1e-300)
    assert 0.5 + 30 * 1.1e-4 < x < 0.5 + 45 * 1.1e-4
    assert betainc_upper(a, b, x) == pytest.approx(1e-300, rel=1e-9)
    assert beta_ppf_lower(a, b, 0.5) == pytest.approx(0.5, abs=1e-15)


@njit
def _draw(rng, a, b, n, above):
    """n draws of the above-half (above=True) or below-half sampler, sharing ``rng``."""
    out = np.empty(n)
    for i in range(n):
        if above:
            out[i] = sample_beta_above_half(rng, a, b)
        else:
            out[i] = sample_beta_below_half(rng, a, b)
    return out


def _conditional_moments(a, b, above):
    """Exact E[X | side] and Var[X | side] for X ~ Beta(a, b), side = (X > 1/2) or (X <= 1/2).

    x^k Beta(a, b)-density = [B(a+k, b) / B(a, b)] Beta(a+k, b)-density, so
    E[X^k 1(side)] = a (a+1)...(a+k-1) / (s (s+1)...(s+k-1)) * P_{a+k, b}(side): closed form, more
    reliable than quadrature when the side has probability ~1e-11.
    """
    tail = special.betaincc if above else special.betainc
    s = a + b
    p0 = tail(a, b, 0.5)
    m1 = a / s * tail(a + 1.0, b, 0.5) / p0
    m2 = a * (a + 1.0) / (s * (s + 1.0)) * tail(a + 2.0, b, 0.5) / p0
    return m1, m2 - m1 * m1


SAMPLER_CASES = [(3.0, 5.0), (20.0, 3.0), (1000.5, 990.2), (2.0, 40.0), (5e5, 5e5 + 500.0)]


@pytest.mark.parametrize("above", [True, False])
@pytest.mark.parametrize("a, b", SAMPLER_CASES)
def test_truncated_sampler_distribution(a, b, above):
    # (2, 40): the above-half side is a ~1.9e-11 tail; (20, 3): the below-half side is ~6e-5.
    n = 20000
    seed = 12345 + SAMPLER_CASES.index((a, b)) * 2 + int(above)
    rng = np.random.default_rng(seed)
    xs = _draw(rng, a, b, n, above)
    if above:
        assert np.all(xs > 0.5) and np.all(xs <= 1.0)
        q = special.betaincc(a, b, 0.5)

        def cdf(x):
            return 1.0 - special.betaincc(a, b, np.maximum(x, 0.5)) / q
    else:
        assert np.all(xs <= 0.5) and np.all(xs > 0.0)
        p = special.betainc(a, b, 0.5)

        def cdf(x):
            return special.betainc(a, b, np.minimum(x, 0.5)) / p
    # Kolmogorov-Smirnov against the exact conditional CDF.  A correct sampler fails this with
    # probability 1e-4 per test; the seed is fixed, so the outcome is deterministic.
    assert stats.kstest(xs, cdf).pvalue > 1e-4
    # Mean within 5 standard errors of the exact conditional mean.
    mean, var = _conditional_moments(a, b, above)
    assert abs(xs.mean() - mean) <= 5.0 * math.sqrt(var / n), (xs.mean(), mean)


def test_sampler_side_in_extreme_cases():
    """The log-space paths, where the side's probability underflows or the law is very narrow, checked
    against the limiting laws by Kolmogorov-Smirnov at level 1e-4 (2000 draws: a CDF off by ~0.05
    anywhere fails).  Near 1/2 the density of Beta(a, b) is exp((a - 1) ln(1 + 2y) + (b - 1) ln(1 - 2y))
    up to a constant, y = x - 1/2: for Beta(2, 1e7) above 1/2, y is exponential with rate 2 (b - a)
    (the neglected y^2 term is ~1e-7 of the exponent); for Beta(1e7, 1e7), |y| is half-normal with
    variance 1 / (8 (a - 1))."""
    rng = np.random.default_rng(7)
    # q = P(X > 1/2) underflows double precision for Beta(2, 1e7): the sampler works from log q
    assert prob_beta_above_half(2.0, 1e7) == 0.0
    rate = 2.0 * (1e7 - 2.0)
    xs = _draw(rng, 2.0, 1e7, 2000, True)
    assert np.all(xs > 0.5) and stats.kstest((xs - 0.5) * rate, "expon").pvalue > 1e-4
    xs = _draw(rng, 1e7, 2.0, 2000, False)
    assert np.all(xs <= 0.5) and stats.kstest((0.5 - xs) * rate, "expon").pvalue > 1e-4
    # extremely narrow, centred on 1/2: each side is half of a normal of sd 1.1e-4
    sd = 1.0 / math.sqrt(8.0 * (1e7 - 1.0))
    xs = _draw(rng, 1e7, 1e7, 2000, True)
    assert np.all(xs > 0.5) and stats.kstest((xs - 0.5) / sd, "halfnorm").pvalue > 1e-4
    xs = _draw(rng, 1e7, 1e7, 2000, False)
    assert np.all(xs <= 0.5) and stats.kstest((0.5 - xs) / sd, "halfnorm").pvalue > 1e-4
    # the uniform case: conditional samples are uniform on each half
    xs = _draw(rng, 1.0, 1.0, 4000, True)
    assert np.all(xs > 0.5) and stats.kstest(xs, stats.uniform(0.5, 0.5).cdf).pvalue > 1e-4
