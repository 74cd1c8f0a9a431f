"""Winner Stays (Chen & Frazier ICML 2017: WS-W, Algorithm 1, and WS-S, Algorithm 2; docs/algorithms.md#winner-stays)
transcribed in plain Python."""

import math

import numpy as np


def uniform_among(arms, rng):
    """One of ``arms`` (increasing) uniformly, with one integer draw only when there are several."""
    return arms[int(rng.integers(0, len(arms)))] if len(arms) > 1 else arms[0]


def ws_w_step(C, previous, rng):
    """WS-W's pair from the scores C and the previous pair (None before the first slot): x among the highest scores,
    y among the highest of the other arms, each x_{t-1} if eligible, else y_{t-1} if eligible, else uniform."""
    best = max(C)
    eligible = [i for i in range(len(C)) if C[i] == best]
    kept = [arm for arm in previous or () if arm in eligible]
    x = kept[0] if kept else uniform_among(eligible, rng)
    second_best = max(C[i] for i in range(len(C)) if i != x)
    eligible = [i for i in range(len(C)) if i != x and C[i] == second_best]
    kept = [arm for arm in previous or () if arm in eligible]
    y = kept[0] if kept else uniform_among(eligible, rng)
    return x, y


def ref_trajectory(P, T, seed, beta=None):
    """T slots of WS-W (``beta`` None) or WS-S (``beta`` > 1) on P with one generator seeded ``seed``: per slot the
    pair, then the outcome U < P[a1, a2] from the same generator, then C_winner += 1, C_loser -= 1 for two different
    arms.  WS-S: round r explores with WS-W until max C = r (K - 1), then plays (L, L) for floor(beta^r) slots, L the
    arm of the highest score.  Returns the pairs and the final scores."""
    K = P.shape[0]
    rng = np.random.default_rng(seed)
    C = [0] * K
    previous, round_index, exploit = None, 1, []
    pairs = []
    for _ in range(T):
        if beta is not None and not exploit and max(C) == round_index * (K - 1):
            leader = C.index(max(C))
            exploit = [(leader, leader)] * math.floor(beta**round_index)
            round_index += 1
        if exploit:
            a1, a2 = exploit.pop()
        else:
            a1, a2 = previous = ws_w_step(C, previous, rng)
        a1_won = rng.random() < P[a1, a2]
        if a1 != a2:
            C[a1 if a1_won else a2] += 1
            C[a2 if a1_won else a1] -= 1
        pairs.append((a1, a2))
    return pairs, C
