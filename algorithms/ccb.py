"""CCB, Copeland Confidence Bound (Zoghi et al., NIPS 2015, Algorithm 1) -- spec 3.6.

As run by the authors of "Double Thompson Sampling for Dueling Bandits" (Wu & Liu, NIPS 2016):
pseudo-counts n = 1e-6, w = 1e-5 (spec 2.2), direct confidence bounds with alpha = 0.51 (spec 2.4),
upper/lower Copeland counts with ``>=``, probabilities 1/4 (pair exploration), 2/3 (restrict C to
the potential winners B) and 1/2 (challenger from B^{a1}), and first-index ties for a2 (the original
breaks them randomly; spec D15).  State: the potential-winner set B (a mask; its order is never read),
one ordered potential-challenger list B^i per arm, and the estimated maximum number of losses Lbar.

Deviation from the C++ (documented, not an option): when step 4 cuts a list B^j down to Lbar + 1
elements, the C++ shuffles it with a default-seeded engine created afresh at every call, so its
"random" choice is a fixed permutation of the list.  Here the kept elements are a uniformly random
ordered subset drawn from the run's generator (partial Fisher-Yates), as the original algorithm says.

Quirk reproduced (spec 3.6): at t = 1 every bound is 10, every arm is "added as a winner" with
Lbar = 0, no challenger has l_{j a1} <= 1/2, so CCB plays (a1, a1) with a1 uniform.
"""

import math

import numpy as np
from numba import njit

from algorithms.base import AlgorithmSpec, Policy, check_alpha
from core.argmax import fill_true, uniform_member
from core.bounds import direct_bounds, update_pair_statistics
from core.constants import ALPHA, CCB_P_CHALLENGER, CCB_P_EXPLORE, CCB_P_RESTRICT, PSEUDO_N, PSEUDO_W


def init_ccb(K, horizon=None, alpha=ALPHA):
    """State of CCB: (n, w, real params [alpha], int params [Lbar], B mask (all arms), challenger
    lists (K x K, row i holds B^i in its first lens[i] entries), lens (K,), then scratch: U, L (K x K),
    upper and lower Copeland counts (K,), candidate mask C).  alpha: confidence scale (> 0)."""
    return (
        np.full((K, K), PSEUDO_N),
        np.full((K, K), PSEUDO_W),
        np.array([check_alpha(alpha)]),
        np.array([K], dtype=np.int64),
        fill_true(np.zeros(K, np.bool_)),
        np.zeros((K, K), np.int64),
        np.zeros(K, np.int64),
        np.zeros((K, K)),
        np.zeros((K, K)),
        np.zeros(K, np.int64),
        np.zeros(K, np.int64),
        np.zeros(K, np.bool_),
    )


@njit(cache=True)
def _reset(ints, in_b, lens):
    """The initialisation of Algorithm 1 again: B = all arms, every B^i empty, Lbar = K."""
    fill_true(in_b)
    lens[:] = 0
    ints[0] = in_b.shape[0]


@njit(cache=True)
def _reset_disproven(L, ints, in_b, lists, lens):
    """Spec 3.6 step 2, "reset disproven hypotheses": reset if some j in B^i has l_ij > 1/2."""
    for i in range(L.shape[0]):
        for s in range(lens[i]):
            if L[i, lists[i, s]] > 0.5:
                _reset(ints, in_b, lens)
                return


@njit(cache=True)
def _remove_non_winners(U, cu, cl, ints, in_b, lists, lens):
    """Spec 3.6 step 3, "remove non-Copeland winners": drop from B every arm i with cu_i < max(0, max cl);
    unless |B^i| = Lbar + 1, set B^i = {k : u_ik < 1/2} (ascending).  Reset if B becomes empty."""
    K = U.shape[0]
    m = max(0, np.max(cl))
    for i in range(K):
        if in_b[i] and cu[i] < m:
            in_b[i] = False
            if lens[i] != ints[0] + 1:
                lens[i] = 0
                for k in range(K):
                    if U[i, k] < 0.5:
                        lists[i, lens[i]] = k
                        lens[i] += 1
    if not np.any(in_b):
        _reset(ints, in_b, lens)


@njit(cache=True)
def _add_winners(rng, cu, cl, in_c, ints, in_b, lists, lens):
    """Spec 3.6 step 4, "add Copeland winners": for every i in C (ascending) with cu_i = cl_i, put i in B,
    empty B^i and set Lbar = K - 1 - cu_i; then every other list shorter than Lbar + 1 is emptied and
    every longer one is cut to a uniformly random ordered subset of Lbar + 1 elements."""
    K = cu.shape[0]
    for i in range(K):
        if not (in_c[i] and cu[i] == cl[i]):
            continue
        in_b[i] = True
        lens[i] = 0
        ints[0] = K - 1 - cu[i]
        keep = ints[0] + 1
        for j in range(K):
            if j == i or lens[j] == keep:
                continue
            if lens[j] > keep:
                for s in range(keep):
                    r = rng.integers(s, lens[j])
                    lists[j, s], lists[j, r] = lists[j, r], lists[j, s]
                lens[j] = keep
            else:
                lens[j] = 0


@njit(cache=True)
def _exploration_pair(rng, U, L, lists, lens):
    """A uniform element of E = {(i, j) : j in B^i, l_ij <= 1/2 <= u_ij}, or (-1, -1) if E is empty
    (spec 3.6 step 5); E is enumerated with i ascending, then in B^i order."""
    K = U.shape[0]
    count = 0
    for i in range(K):
        for s in range(lens[i]):
            j = lists[i, s]
            count += L[i, j] <= 0.5 <= U[i, j]
    if count == 0:
        return -1, -1
    pick = rng.integers(0, count)
    for i in range(K):
        for s in range(lens[i]):
            j = lists[i, s]
            if L[i, j] <= 0.5 <= U[i, j]:
                if pick == 0:
                    return i, j
                pick -= 1
    return -1, -1


@njit(cache=True)
def _challenger(rng, U, L, a1, lists, lens):
    """Spec 3.6 step 7: first-index argmax of u_{j a1} over j with l_{j a1} <= 1/2 (a1 always
    qualifies); with probability 1/2 the same argmax over B^{a1} in its stored order instead, kept
    only if some element of B^{a1} qualifies."""
    K = U.shape[0]
    a2 = -1
    for j in range(K):
        if L[j, a1] <= 0.5 and (a2 < 0 or U[j, a1] > U[a2, a1]):
            a2 = j
    if rng.random() < CCB_P_CHALLENGER:
        best = -1
        for s in range(lens[a1]):
            j = lists[a1, s]
            if L[j, a1] <= 0.5 and (best < 0 or U[j, a1] > U[best, a1]):
                best = j
        if best >= 0:
            a2 = best
    return a2


@njit(cache=True)
def select(state, t, rng):
    """Choose (a1, a2) at slot t (Zoghi et al. 2015, Algorithm 1; spec 3.6 steps 1-7)."""
    n, w, reals, ints, in_b, lists, lens, U, L, cu, cl, in_c = state
    K = n.shape[0]
    direct_bounds(n, w, math.log(t), reals[0], U, L)
    for i in range(K):
        cu[i] = 0
        cl[i] = 0
        for j in range(K):
            if j != i:
                cu[i] += U[i, j] >= 0.5
                cl[i] += L[i, j] >= 0.5
    top = np.max(cu)
    for i in range(K):
        in_c[i] = cu[i] == top
    _reset_disproven(L, ints, in_b, lists, lens)
    _remove_non_winners(U, cu, cl, ints, in_b, lists, lens)
    _add_winners(rng, cu, cl, in_c, ints, in_b, lists, lens)
    if rng.random() < CCB_P_EXPLORE:
        i, j = _exploration_pair(rng, U, L, lists, lens)
        if i >= 0:
            return i, j
    overlap = False
    for i in range(K):
        overlap = overlap or (in_b[i] and in_c[i])
    if overlap and rng.random() < CCB_P_RESTRICT:
        for i in range(K):
            in_c[i] = in_c[i] and in_b[i]
    a1 = uniform_member(rng, in_c)
    return a1, _challenger(rng, U, L, a1, lists, lens)


CCB_SPEC = AlgorithmSpec(
    name="ccb", label="CCB", init=init_ccb, select=select, update=update_pair_statistics,
    defaults={"alpha": ALPHA},
    reference="Zoghi et al. NIPS 2015, Algorithm 1 (CCB), as run by Wu & Liu 2016",
)


class CCB(Policy):
    """CCB as a live policy (Copeland winners, no Condorcet assumption); parameter ``alpha`` (0.51)."""

    spec = CCB_SPEC
