"""D-TS, D-TS+ and pure D-TS (paper Algorithm 1, Sec. 4.3; docs/algorithms.md#d-ts) transcribed line by line."""

import numpy as np

from tests.reference.argmax_reference import argmax_first
from tests.reference.bounds_reference import mirrored_UL
from tests.reference.kl_reference import kl_clamped


def dts_select(n, w, t, rng, alpha=0.51, variant="dts", tie_break="as-run"):
    """Algorithm 1 (and Sec. 4.3 / App. D.2.4), transcribed with full sampling of every pair.

    variant: "dts", "dts_plus" or "pure".  Returns (a1, a2).
    """
    K = n.shape[0]
    U, L = mirrored_UL(n, w, t, alpha)
    if variant == "pure":
        C = np.ones(K, bool)
    else:
        ucb_count = np.array([sum(U[i, j] >= 0.5 for j in range(K) if j != i) for i in range(K)])
        C = ucb_count == ucb_count.max()
    theta = np.full((K, K), 0.5)
    for i in range(K):
        for j in range(i + 1, K):
            theta[i, j] = rng.beta(w[i, j] + 1, w[j, i] + 1)
            theta[j, i] = 1 - theta[i, j]
    votes = np.array([sum(theta[i, j] > 0.5 for j in range(K) if j != i) for i in range(K)])
    best = votes[C].max()
    tied = np.flatnonzero(C & (votes == best))
    if variant == "dts_plus" and tied.size > 1:
        ref = best if tie_break == "as-run" else votes.max()
        est = [sum((2 * ref - votes[i] - votes[j]) / kl_clamped(theta[i, j], 0.5)
                   for j in range(K) if j != i and theta[i, j] != 0.5) for i in tied]
        a1 = int(tied[int(np.argmin(est))])
    else:
        a1 = int(rng.choice(tied))
    theta2 = np.array([rng.beta(w[i, a1] + 1, w[a1, i] + 1) if i != a1 else 0.5 for i in range(K)])
    eligible = np.ones(K, bool) if variant == "pure" else L[:, a1] <= 0.5
    eligible[a1] = True
    return a1, argmax_first(theta2, eligible)
