"""The optimal allocation of the Condorcet-model regret lower bound (Komiyama, Honda, Kashima and Nakagawa, COLT
2015, Thm. 2): which arm each non-winner is shown beaten by most cheaply, and the two matrices every cost
r_ij / KL(p_ij, 1/2) of the lower bound is made of (``copeland_pair_regrets``, ``kl_to_half``).  One definition for
the places that need them: the lower bound itself (``reproduce.studies.lower_bound``) and the oracle that plays
the allocation (``algorithms.oracle``), so that both name the same partner bit for bit
(docs/asymptotic.md#the-bounds-optimal-allocation-and-the-winner-constant).
"""

import math

import numpy as np
from numba import njit

from dts_reproduction.core.constants import TIE_TOLERANCE
from dts_reproduction.core.copeland import condorcet_winner, copeland_scores
from dts_reproduction.core.kl import kl_bernoulli


@njit(cache=True)
def copeland_pair_regrets(P):
    """r (K, K): r_ij = zeta* - (zeta_i + zeta_j) / 2, the per-slot Copeland regret of comparing i with j (the
    paper's Eq. 1), zeta_i the Copeland score of i (the arms it beats) over K - 1 and zeta* the largest."""
    K = P.shape[0]
    zeta = copeland_scores(P) / (K - 1)
    best = zeta.max()
    r = np.empty((K, K))
    for i in range(K):
        for j in range(K):
            r[i, j] = best - 0.5 * (zeta[i] + zeta[j])
    return r


@njit(cache=True)
def kl_to_half(P):
    """d (K, K): d_ij = KL(P[i, j] || 1/2) (``core.kl.kl_bernoulli``, 0 ln 0 = 0), the information one comparison of
    i with j gives on which of the two wins; the denominator of every cost r_ij / d_ij of the lower bound."""
    K = P.shape[0]
    d = np.empty((K, K))
    for i in range(K):
        for j in range(K):
            d[i, j] = kl_bernoulli(P[i, j], 0.5)
    return d


@njit(cache=True)
def optimal_partners(P):
    """int64 (K,): each non-winner i's optimal partner b(i), the arm j that beats it (P[i, j] < 1/2 -
    TIE_TOLERANCE) with the least r_ij / KL(P[i, j], 1/2) (first index on ties): comparing i with b(i) shows most
    cheaply that i is not the winner.  -1 for the Condorcet winner, and for an arm beaten by no arm (a matrix
    without a Condorcet winner can have one; the bound needs a winner, ``core.copeland.condorcet_winner``)."""
    K = P.shape[0]
    winner = condorcet_winner(P)
    r, d = copeland_pair_regrets(P), kl_to_half(P)
    partners = np.full(K, -1, np.int64)
    for i in range(K):
        if i == winner:
            continue
        best = math.inf
        for j in range(K):
            if P[i, j] < 0.5 - TIE_TOLERANCE:
                ratio = r[i, j] / d[i, j]
                if ratio < best:
                    best = ratio
                    partners[i] = j
    return partners
