"""Bernoulli Kullback-Leibler divergence and the KL confidence bounds built on it
(docs/algorithms.md#shared-building-blocks)."""

import math

from numba import njit

from dts_reproduction.core.constants import KL_CLAMP


@njit(cache=True)
def kl_bernoulli(p, q):
    """KL(p || q) = p ln(p/q) + (1-p) ln((1-p)/(1-q)), with 0 ln 0 = 0; inf if q is 0 or 1 and p != q.

    Unclamped: RMED1's empirical divergence uses this form (docs/algorithms.md#rmed1-and-rmed2).
    """
    total = 0.0
    if p > 0.0:
        if q <= 0.0:
            return math.inf
        total += p * math.log(p / q)
    if p < 1.0:
        if q >= 1.0:
            return math.inf
        total += (1.0 - p) * math.log((1.0 - p) / (1.0 - q))
    return total


@njit(cache=True)
def kl_clamped(p, q):
    """KL(p || q) after clipping both arguments into [1e-7, 1 - 1e-7] (the C++ ``klDiv``).

    Used by D-TS+ (tie-break, Sec. 4.3), SCB and ECW-RMED.  Always finite.
    """
    p = min(max(p, KL_CLAMP), 1.0 - KL_CLAMP)
    q = min(max(q, KL_CLAMP), 1.0 - KL_CLAMP)
    return p * math.log(p / q) + (1.0 - p) * math.log((1.0 - p) / (1.0 - q))


@njit(cache=True)
def kl_ucb(p_hat, rho, eps):
    """Largest q in [p_hat, 1 - eps] with KLc(p_hat, q) <= rho, by bisection to width eps.

    Edge rules of the authors' code: p_hat >= 1 gives 1; p_hat <= 0 gives 1 - exp(-rho).
    """
    if p_hat >= 1.0:
        return 1.0
    if p_hat <= 0.0:
        return 1.0 - math.exp(-rho)
    if kl_clamped(p_hat, 1.0 - eps) <= rho:
        return 1.0 - eps
    lo = p_hat
    hi = 1.0 - eps
    while hi - lo > eps:
        mid = 0.5 * (lo + hi)
        if kl_clamped(p_hat, mid) < rho:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@njit(cache=True)
def kl_lcb(p_hat, rho, eps):
    """Smallest q in [eps, p_hat] with KLc(p_hat, q) <= rho, by bisection to width eps.

    Edge rules of the authors' code: p_hat >= 1 gives exp(-rho); p_hat <= 0 gives 0.
    """
    if p_hat >= 1.0:
        return math.exp(-rho)
    if p_hat <= 0.0:
        return 0.0
    if kl_clamped(p_hat, eps) <= rho:
        return eps
    lo = eps
    hi = p_hat
    while hi - lo > eps:
        mid = 0.5 * (lo + hi)
        if kl_clamped(p_hat, mid) < rho:
            hi = mid
        else:
            lo = mid
    return 0.5 * (lo + hi)
