"""Copeland scores of a preference matrix (paper Sec. 3; the normalised score zeta_i is score / (K - 1))."""

import numpy as np


def copeland_scores(P):
    """``scores[i] = #{j != i : P[i, j] > 1/2}`` (strict, so an exact 1/2 counts for nobody)."""
    P = np.asarray(P)
    K = P.shape[0]
    return np.array([sum(1 for j in range(K) if j != i and P[i, j] > 0.5) for i in range(K)], dtype=np.int64)
