"""RCS (Zoghi et al. 2014, relative confidence sampling) as run, transcribed in plain Python."""

import numpy as np
from scipy import special

from dts_reproduction.core.constants import ALPHA
from tests.reference.direct_reference import DirectStatistics


class RefRCS(DirectStatistics):
    """RCS as run (docs/algorithms.md#rcs), step by step; ``fallback`` as in ``init_rcs``."""

    def __init__(self, K, alpha=ALPHA, fallback="least-champion", sampling="indicators"):
        """Fresh state; no champion yet."""
        super().__init__(K, alpha)
        self.random_fallback, self.champ = fallback == "random", np.zeros(K, int)
        self.indicators = sampling == "indicators"

    def select(self, t, rng):
        """(a1, a2) at slot t; draws for the pairs i < j in lexicographic order: a Beta, or with
        indicators a uniform against P(Beta > 1/2) (scipy's betaincc; a decision could differ only if
        a uniform fell within ~1e-13 of that probability)."""
        K = self.K
        theta = np.full((K, K), 0.5)
        for i in range(K):
            for j in range(i + 1, K):
                a, b = self.w[i, j] + 1, self.w[j, i] + 1
                if self.indicators:
                    theta[i, j] = 1.0 if rng.random() < special.betaincc(a, b, 0.5) else 0.0
                else:
                    theta[i, j] = rng.beta(a, b)
                theta[j, i] = 1 - theta[i, j]
        votes = (theta > 0.5).sum(axis=1)
        a1 = int(np.argmax(votes))
        if votes[a1] < K - 1:
            a1 = int(rng.integers(0, K)) if self.random_fallback else int(np.argmin(self.champ))
        self.champ[a1] += 1
        return a1, int(np.argmax(self.bounds(t)[0][:, a1]))
