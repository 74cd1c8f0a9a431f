"""Copeland scores of a preference matrix (the normalised score zeta_i of Sec. 3 is score / (K - 1))."""

from numba import njit


@njit(cache=True)
def copeland_scores(P, scores):
    """Fill ``scores[i] = #{j != i : P[i, j] > 1/2}`` (strict, so an exact 1/2 counts for nobody)."""
    K = P.shape[0]
    for i in range(K):
        scores[i] = 0
        for j in range(K):
            if j != i and P[i, j] > 0.5:
                scores[i] += 1
    return scores
