"""The Copeland scores and winners of a preference matrix, defined once for every layer that needs them: the
``Dataset`` record and the matrices' headers (``data/``), the lower bound's optimal allocation
(``core.bound_allocation``, ``algorithms.oracle``) and the lower bound itself (``reproduce.studies.lower_bound``).

A score uses the strict comparison p_ij > 1/2 (paper Sec. 3; docs/harness.md#regret): a pair at exactly 1/2
counts for neither arm, and the 1/2 diagonal never counts.  Compiled, so that the compiled bound kernels call them
too; from Python they take any 2-D float64 array.
"""

import numpy as np
from numba import njit


@njit(cache=True)
def copeland_scores(P):
    """int64 (K,): score_i = #{j : P[i, j] > 1/2}, the number of arms i beats."""
    K = P.shape[0]
    scores = np.zeros(K, np.int64)
    for i in range(K):
        for j in range(K):
            if P[i, j] > 0.5:
                scores[i] += 1
    return scores


@njit(cache=True)
def copeland_winners(P):
    """int64 array of the Copeland winners, the arms with the largest score, ascending."""
    scores = copeland_scores(P)
    return np.flatnonzero(scores == scores.max())


@njit(cache=True)
def condorcet_winner(P):
    """The Condorcet winner, the arm that beats every other arm (score K - 1), or -1 if the matrix has none."""
    scores = copeland_scores(P)
    for i in range(P.shape[0]):
        if scores[i] == P.shape[0] - 1:
            return i
    return -1
