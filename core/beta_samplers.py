"""Beta samples conditioned on their side of 1/2, by inverse CDF inside that side, with the target tail
kept in logs (see ``core.betainc``)."""

import math

from numba import njit

from dts_reproduction.core.beta_cdf import log_cdf_pair
from dts_reproduction.core.beta_elementary import LOG2, log_add
from dts_reproduction.core.beta_quantiles import solve_tail

_HALF_UP = 0.5 + 2.0 ** -53  # nextafter(0.5, 1)

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
    lp, lq = log_cdf_pair(a, b, 0.5)
    uu = rng.random()
    one_minus = 1.0 - uu  # in (0, 1]
    log_v = lq + math.log(one_minus)  # log of the upper-tail target q (1 - U)
    if log_v <= -LOG2:
        x = solve_tail(a, b, log_v, True, 0.5, 1.0)
    else:
        if uu == 0.0:
            return _HALF_UP
        x = solve_tail(a, b, log_add(lp, lq + math.log(uu)), False, 0.5, 1.0)
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
    lp, lq = log_cdf_pair(a, b, 0.5)
    uu = rng.random()
    one_minus = 1.0 - uu
    log_v = lp + math.log(one_minus)  # log of the lower-tail target p (1 - U)
    if log_v <= -LOG2:
        x = solve_tail(a, b, log_v, False, 0.0, 0.5)
    else:
        if uu == 0.0:
            return 0.5
        x = solve_tail(a, b, log_add(lq, lp + math.log(uu)), True, 0.0, 0.5)
    if x > 0.5:
        return 0.5
    if x <= 0.0:
        return 5e-324
    return x
