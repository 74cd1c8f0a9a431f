"""Versatile-DB (Saha & Gaillard ICML 2022; docs/algorithms.md#versatile-db) transcribed in plain Python: one
Tsallis-INF learner (tests/reference/tsallis_reference.py) whose distribution both candidates are drawn from."""

import math

import numpy as np

from tests.reference.rex3_reference import draw
from tests.reference.tsallis_reference import loss_estimate, tsallis_distribution


def ref_trajectory(P, T, seed, estimate="importance-weighted", feedback="first"):
    """T slots of Versatile-DB on P with one generator seeded ``seed``: per slot w = Tsallis-INF of the losses at
    eta_t = c / sqrt(t) (c = 2 importance-weighted, 4 reduced-variance), x_t then y_t drawn from w, the outcome
    U < P[x_t, y_t] from the same generator, then the losses += the estimate for x_t's loss 1 - [x_t won], or with
    feedback "both" half of it plus half of y_t's estimate (loss [x_t won]).  Returns the pairs and the losses."""
    K = P.shape[0]
    rng = np.random.default_rng(seed)
    reduced_variance = estimate == "reduced-variance"
    c = 4.0 if reduced_variance else 2.0
    losses = [0.0] * K
    pairs = []
    for t in range(1, T + 1):
        eta = c / math.sqrt(t)
        w, _ = tsallis_distribution(losses, eta)
        x, y = draw(w, rng), draw(w, rng)
        x_won = rng.random() < P[x, y]
        x_loss = 0.0 if x_won else 1.0
        if feedback == "both":
            halves = [loss_estimate(w, eta, x, x_loss, reduced_variance),
                      loss_estimate(w, eta, y, 1.0 - x_loss, reduced_variance)]
            for half in halves:
                losses = [total + 0.5 * part for total, part in zip(losses, half, strict=True)]
        else:
            whole = loss_estimate(w, eta, x, x_loss, reduced_variance)
            losses = [total + part for total, part in zip(losses, whole, strict=True)]
        pairs.append((x, y))
    return pairs, losses
