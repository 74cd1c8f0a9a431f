"""The state RUCB, RCS and CCB share: pseudo-count statistics, direct confidence bounds and the common
pair update (docs/algorithms.md#shared-building-blocks), in plain NumPy."""

import math

import numpy as np

from core.constants import ALPHA, PSEUDO_N, PSEUDO_W


class DirectStatistics:
    """Pseudo-count statistics, direct bounds and the common pair update (docs/algorithms.md#shared-building-blocks)."""

    def __init__(self, K, alpha=ALPHA):
        """Pseudo-count statistics for K arms."""
        self.K, self.alpha = K, alpha
        self.n = np.full((K, K), PSEUDO_N)
        self.w = np.full((K, K), PSEUDO_W)

    def bounds(self, t):
        """Direct (U, L) at slot t, diagonal 1/2."""
        width = np.sqrt(self.alpha * math.log(t) / self.n)
        U, L = self.w / self.n + width, self.w / self.n - width
        np.fill_diagonal(U, 0.5)
        np.fill_diagonal(L, 0.5)
        return U, L

    def update(self, a1, a2, a1_won):
        """One more comparison of {a1, a2} and one more win for its winner."""
        self.n[a1, a2] += 1
        self.n[a2, a1] += 1
        winner, loser = (a1, a2) if a1_won else (a2, a1)
        self.w[winner, loser] += 1
