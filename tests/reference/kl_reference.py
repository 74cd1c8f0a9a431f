"""Bernoulli KL divergence, exact and clamped (``core.kl``), in plain Python."""

import math


def kl(p, q):
    """Bernoulli KL with 0 log 0 = 0."""
    out = 0.0
    if p > 0:
        out += p * math.log(p / q)
    if p < 1:
        out += (1 - p) * math.log((1 - p) / (1 - q))
    return out


def kl_clamped(p, q=0.5, eps=1e-7):
    """KL after clipping both arguments into [eps, 1 - eps]."""
    return kl(min(max(p, eps), 1 - eps), min(max(q, eps), 1 - eps))
