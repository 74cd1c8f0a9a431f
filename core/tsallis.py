"""One step of 1/2-Tsallis-INF (Zimmert & Seldin, "Tsallis-INF: An Optimal Algorithm for Stochastic and Adversarial
Bandits", JMLR 2021, their Algorithms 1 and 2) -- docs/algorithms.md#versatile-db.

Tsallis-INF is online mirror descent with the 1/2-Tsallis entropy as regulariser: given the cumulative loss
estimates L_i and the learning rate eta, it plays w_i = 4 / (eta (L_i - x))^2, where the normalising x < min_i L_i is
the one number that makes the w_i sum to 1 (the Lagrange multiplier of the simplex constraint).  ``tsallis_weights``
finds x by Newton's method on f(x) = sum_i w_i(x) - 1, whose derivative is eta sum_i w_i^(3/2) (their Algorithm 2).

The Newton iteration here is deterministic and a pure function of (L, eta), so that the distribution of a slot can be
recomputed bit for bit (a delayed update does): it starts at x_0 = min_i L_i - 2 / eta, where the arm of least loss
alone has weight 1 (so f(x_0) >= 0), and since f is increasing and convex below min_i L_i every Newton step from
there moves x left without passing the root and never crosses the pole at min_i L_i.  It stops at the first x with
sum w - 1 <= NEWTON_TOLERANCE, or when a step no longer moves x (rounding), or after NEWTON_MAX_STEPS steps (about 15
suffice at K = 500 from L = 0); the weights of the last x evaluated are then divided by their sum.

Loss estimates (their Section 3): importance-weighted, L_I += loss / w_I for the played arm I; or reduced-variance,
every arm i gets B_i = 1/2 [w_i >= eta^2] and the played arm (loss - B_I) / w_I more.  Their Theorem 1 tunes the
learning rate as eta_t = 2 / sqrt(t) for the first and 4 / sqrt(t) for the second (``LEARNING_RATE_SCALE``).
"""

import math

from numba import njit

NEWTON_TOLERANCE = 1e-12  # stop once sum_i w_i - 1 <= this (the sum approaches 1 from above)
NEWTON_MAX_STEPS = 100  # a bound the iteration never reaches in practice (about 15 steps at K = 500)
# eta_t = scale / sqrt(t), Zimmert & Seldin Theorem 1: by loss estimate, importance-weighted or reduced-variance.
LEARNING_RATE_SCALE = {"importance-weighted": 2.0, "reduced-variance": 4.0}
REDUCED_VARIANCE_BASELINE = 0.5  # B_i = 1/2 where w_i >= eta^2, else 0


@njit(cache=True)
def learning_rate(scale, t):
    """eta_t = scale / sqrt(t) for slot t >= 1."""
    return scale / math.sqrt(t)


@njit(cache=True)
def tsallis_weights(losses, eta, weights):
    """Fill ``weights`` (float64 (K,)) with the Tsallis-INF distribution w_i = 4 / (eta (L_i - x))^2 of the
    cumulative losses ``losses`` at learning rate ``eta`` > 0, normalised to sum 1 (module doc: Newton's method from
    x_0 = min L - 2 / eta, the same steps for the same inputs); returns the normaliser x."""
    K = losses.shape[0]
    lowest = losses[0]
    for i in range(1, K):
        lowest = min(lowest, losses[i])
    x = lowest - 2.0 / eta
    total = 0.0
    for _ in range(NEWTON_MAX_STEPS):
        total = 0.0
        slope = 0.0
        for i in range(K):
            root = 2.0 / (eta * (losses[i] - x))  # sqrt(w_i)
            weights[i] = root * root
            total += weights[i]
            slope += weights[i] * root
        if total - 1.0 <= NEWTON_TOLERANCE:
            break
        moved = x - (total - 1.0) / (eta * slope)
        if moved >= x:
            break
        x = moved
    for i in range(K):
        weights[i] /= total
    return x


@njit(cache=True)
def add_loss_estimate(losses, weights, eta, arm, loss, reduced_variance, scale):
    """Add ``scale`` times Tsallis-INF's estimate of this slot's loss vector to ``losses``, the arm ``arm`` having
    been played from ``weights`` at learning rate ``eta`` and lost ``loss``: importance-weighted (loss / w_arm on
    ``arm`` only) or, if ``reduced_variance``, B_i = 1/2 [w_i >= eta^2] on every arm plus (loss - B_arm) / w_arm on
    ``arm``."""
    if not reduced_variance:
        losses[arm] += scale * (loss / weights[arm])
        return
    threshold = eta * eta
    for i in range(losses.shape[0]):
        if weights[i] >= threshold:
            losses[i] += scale * REDUCED_VARIANCE_BASELINE
    baseline = REDUCED_VARIANCE_BASELINE if weights[arm] >= threshold else 0.0
    losses[arm] += scale * ((loss - baseline) / weights[arm])
