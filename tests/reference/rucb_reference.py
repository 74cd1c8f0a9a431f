"""RUCB (Zoghi et al. 2014, Algorithm 1) as run, transcribed in plain Python."""

from dts_reproduction.core.constants import ALPHA
from tests.reference.direct_reference import DirectStatistics


class RefRUCB(DirectStatistics):
    """RUCB as run (docs/algorithms.md#rucb), step by step, with the bounds of exact arithmetic
    (``DirectStatistics.upper_exact``); ``hypothesis`` as in ``init_rucb``."""

    def __init__(self, K, alpha=ALPHA, hypothesis="as-run"):
        """Fresh state; B empty."""
        super().__init__(K, alpha)
        self.original, self.B = hypothesis == "original", None

    def select(self, t, rng):
        """(a1, a2) at slot t, drawing from rng in the same order as the njit select."""
        U = self.upper_exact(t)
        C = [i for i in range(self.K) if all(u >= 0.5 for u in U[i])]
        if self.original and self.B not in C:
            self.B = None
        if not C:
            self.B = None
            a1 = int(rng.integers(0, self.K))
        elif len(C) == 1:
            a1 = self.B = C[0]
        elif self.B is None or self.B not in C:
            a1 = C[rng.integers(0, len(C))]
        elif rng.random() < 0.5:
            a1 = self.B
        elif self.original:
            others = [c for c in C if c != self.B]
            a1 = others[rng.integers(0, len(others))]
        else:
            k = int(rng.integers(0, len(C)))
            a1 = C[k] if C[k] != self.B else (C[k - 1] if k >= 1 else C[1])
        column = [U[j][a1] for j in range(self.K)]
        return a1, column.index(max(column))
