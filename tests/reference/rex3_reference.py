"""REX3 (Gajane, Urvoy & Clerot ICML 2015, Algorithm 1; as run by the MergeDTS authors' rex3.py by default;
docs/algorithms.md#rex3) transcribed in plain Python, with the weights themselves (not their logarithms)."""

import math

import numpy as np


def gamma_at(K, t, gamma):
    """The exploration rate of slot t: ``gamma`` if given, else min(1/2, sqrt(K ln K / max(t, 10000)))."""
    return gamma if gamma is not None else min(0.5, math.sqrt(K * math.log(K) / max(t, 10_000)))


def distribution(weights, rate):
    """p_i = (1 - rate) w_i / sum_j w_j + rate / K."""
    total = sum(weights)
    return [(1.0 - rate) * w / total + rate / len(weights) for w in weights]


def draw(p, rng):
    """An arm drawn from ``p`` with one uniform: the first i whose cumulative probability exceeds u times the sum."""
    target = rng.random() * sum(p)
    cumulative = 0.0
    for i, value in enumerate(p[:-1]):
        cumulative += value
        if cumulative > target:
            return i
    return len(p) - 1


def ref_trajectory(P, T, seed, gamma=None, step=1.0):
    """T slots of REX3 on P with one generator seeded ``seed``: per slot a1 then a2 drawn from p, then the outcome
    U < P[a1, a2] from the same generator, then for a1 != a2 w_winner *= exp(step rate / (K p_winner)) and
    w_loser *= exp(-step rate / (K p_loser)) (p before the update).  Returns the pairs and the final weights."""
    K = P.shape[0]
    rng = np.random.default_rng(seed)
    weights = [1.0] * K
    pairs = []
    for t in range(1, T + 1):
        rate = gamma_at(K, t, gamma)
        p = distribution(weights, rate)
        a1, a2 = draw(p, rng), draw(p, rng)
        a1_won = rng.random() < P[a1, a2]
        if a1 != a2:
            winner, loser = (a1, a2) if a1_won else (a2, a1)
            weights[winner] *= math.exp(step * rate / (K * p[winner]))
            weights[loser] *= math.exp(-step * rate / (K * p[loser]))
        pairs.append((a1, a2))
    return pairs, weights
