"""The state RUCB, RCS and CCB share: pseudo-count statistics, direct confidence bounds and the common
pair update (docs/algorithms.md#shared-building-blocks), in plain NumPy."""

import decimal
import math

import numpy as np

from dts_reproduction.core.constants import ALPHA, PSEUDO_N, PSEUDO_W


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

    def bounds_exact(self, t):
        """Direct (U, L) at slot t in 40-digit decimal arithmetic (diagonal 1/2), each as a list of rows: the bounds
        of exact arithmetic, free of the double rounding that at t ~ 1e15 leaves mean +- width flat over many slots."""
        with decimal.localcontext() as context:
            context.prec = 40
            scale = decimal.Decimal(self.alpha) * decimal.Decimal(int(t)).ln()
            half = decimal.Decimal("0.5")
            means = [[decimal.Decimal(self.w[i, j]) / decimal.Decimal(self.n[i, j]) for j in range(self.K)]
                     for i in range(self.K)]
            widths = [[(scale / decimal.Decimal(self.n[i, j])).sqrt() for j in range(self.K)] for i in range(self.K)]
            return tuple([[half if i == j else means[i][j] + sign * widths[i][j] for j in range(self.K)]
                          for i in range(self.K)] for sign in (1, -1))

    def upper_exact(self, t):
        """U of ``bounds_exact``."""
        return self.bounds_exact(t)[0]

    def update(self, a1, a2, a1_won):
        """One more comparison of {a1, a2} and one more win for its winner."""
        self.n[a1, a2] += 1
        self.n[a2, a1] += 1
        winner, loser = (a1, a2) if a1_won else (a2, a1)
        self.w[winner, loser] += 1
