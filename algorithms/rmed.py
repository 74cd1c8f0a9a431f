"""RMED1 and RMED2 (Komiyama, Honda, Kashima & Nakagawa, COLT 2015) as run by Wu & Liu -- spec 3.8.

Both start by comparing every pair once in the order (1,0), (2,0), (2,1), (3,0), ... (t <= K(K-1)/2).
RMED2 then keeps going round-robin over the pairs while t - 1 < #pairs * 3 * ln ln t.  The main phase
walks the current list LC: the first candidate a1 = LC[q]; the second is the arm with the smallest
empirical divergence I_i = sum_{j: n_ij > 0, p_ij <= 1/2} n_ij KL(p_ij, 1/2) (unclamped KL, d(0) = ln 2)
if a1 does not beat it or a1 beats nobody, else a1's most-losing opponent (first index on ties).  RMED2
first tries the challenger b* of the smallest estimated regret per information (spec 3.8).  Arms with
I_k - I* <= ln t + f(K), f(K) = 0.3 K^1.01, that were already played this round join the next list LN.

As run: no pseudo-counts (n = w = 0, p = 1/2 for an unseen pair), the list maintenance uses the
statistics *before* the slot's outcome (the original updates LN after the draw; spec 3.8), so it lives in
``select``.  I_i is a function of (n, w) only; ``update`` refreshes the two rows it changes (exactly the
same sums as a full recomputation), which keeps ``select`` O(K).  The RMED2 exploration slots leave the
lists untouched, like the initial phase.

Option (RMED2 only): ``numerator="as-run"`` uses 1 - p_{i* a1} - p_{i* j} in b*'s score, the opposite
sign of the RMED2 paper's estimated regret Delta_{i* a1} + Delta_{i* j} (a bug of the authors' code, spec
3.8; RMED2 is not plotted); ``numerator="paper"`` uses p_{i* a1} + p_{i* j} - 1.
"""

import math

import numpy as np
from numba import njit

from algorithms.base import AlgorithmSpec, Policy, check_choice
from core.bounds import update_pair
from core.constants import RMED2_ALPHA, RMED_F_COEF, RMED_F_EXP
from core.kl import kl_bernoulli
from core.pairs import pair_of_index

VARIANT_RMED1, VARIANT_RMED2 = 1, 2
NUMERATORS = {"as-run": 0, "paper": 1}
# Indices into the int64 bookkeeping array.
_VARIANT, _NUMERATOR, _Q, _LC_LEN, _LN_LEN = range(5)


def _make_state(K, variant, numerator):
    """State tuple: (n, w (K x K float64), I (K,) empirical divergences, reals [f(K), RMED2 alpha],
    ints [variant, numerator, q, |LC|, |LN|], LC (K,) int64, in_LR (K,) bool, LN (K,) int64,
    in_LN (K,) bool)."""
    return (
        np.zeros((K, K)),
        np.zeros((K, K)),
        np.zeros(K),
        np.array([RMED_F_COEF * K**RMED_F_EXP, RMED2_ALPHA]),
        np.array([variant, numerator, 0, K, 0], dtype=np.int64),
        np.arange(K, dtype=np.int64),
        np.ones(K, np.bool_),
        np.zeros(K, np.int64),
        np.zeros(K, np.bool_),
    )


def init_rmed1(K, horizon=None):
    """State of RMED1 (Komiyama et al. 2015, Algorithm 1 with f(K) = 0.3 K^1.01); no parameter."""
    return _make_state(K, VARIANT_RMED1, 0)


def init_rmed2(K, horizon=None, numerator="as-run"):
    """State of RMED2 (Komiyama et al. 2015, Algorithm 2 with alpha = 3).

    numerator: "as-run" (default, the authors' sign-flipped regret estimate) or "paper" (spec 3.8).
    """
    return _make_state(K, VARIANT_RMED2, NUMERATORS[check_choice("numerator", numerator, tuple(NUMERATORS))])


@njit(cache=True, inline="always")
def p_hat(n, w, i, j):
    """Empirical preference w_ij / n_ij, or 1/2 for a pair never compared."""
    if n[i, j] > 0.0:
        return w[i, j] / n[i, j]
    return 0.5


@njit(cache=True, inline="always")
def divergence(n, w, i):
    """I_i = sum_{j != i, n_ij > 0, p_ij <= 1/2} n_ij KL(p_ij, 1/2), unclamped (KL(0, 1/2) = ln 2)."""
    total = 0.0
    for j in range(n.shape[0]):
        if j != i and n[i, j] > 0.0:
            p = w[i, j] / n[i, j]
            if p <= 0.5:
                total += n[i, j] * kl_bernoulli(p, 0.5)
    return total


@njit(cache=True)
def _rmed2_challenger(n, w, a1, i_hat, paper_sign):
    """b* = first-index argmin over j != a1 with p_{a1 j} < 1/2 of (regret estimate) / KL(p_{a1 j}, 1/2);
    the estimate is 1 - p_{i* a1} - p_{i* j} as run, or p_{i* a1} + p_{i* j} - 1 (paper); -1 if none."""
    best = -1
    best_score = 0.0
    for j in range(n.shape[0]):
        p = p_hat(n, w, a1, j)
        if j == a1 or p >= 0.5:
            continue
        regret = 1.0 - p_hat(n, w, i_hat, a1) - p_hat(n, w, i_hat, j)
        if paper_sign:
            regret = -regret
        score = regret / kl_bernoulli(p, 0.5)
        if best < 0 or score < best_score:
            best = j
            best_score = score
    return best


@njit(cache=True, inline="always")
def _maintain_lists(state, a1, i_star, t):
    """Steps 4-5: drop a1 from LR, append (ascending) every arm in neither LR nor LN with
    I_k - I* <= ln t + f(K) to LN, advance q; at the end of LC start the round LC = LR = LN."""
    n, w, div, reals, ints, lc, in_lr, ln, in_ln = state
    in_lr[a1] = False
    threshold = math.log(t) + reals[0]
    for k in range(n.shape[0]):
        if not in_lr[k] and not in_ln[k] and div[k] - i_star <= threshold:
            ln[ints[_LN_LEN]] = k
            in_ln[k] = True
            ints[_LN_LEN] += 1
    ints[_Q] += 1
    if ints[_Q] == ints[_LC_LEN]:
        ints[_LC_LEN] = ints[_LN_LEN]
        for k in range(ints[_LN_LEN]):
            lc[k] = ln[k]
        for k in range(n.shape[0]):
            in_lr[k] = in_ln[k]
            in_ln[k] = False
        ints[_LN_LEN] = 0
        ints[_Q] = 0


@njit(cache=True)
def select(state, t, rng):
    """Choose (a1, a2) at slot t (spec 3.8); deterministic, ``rng`` is unused."""
    n, w, div, reals, ints, lc, in_lr, ln, in_ln = state
    K = n.shape[0]
    n_pairs = K * (K - 1) // 2
    explore = t - 1 < n_pairs
    if not explore and ints[_VARIANT] == VARIANT_RMED2:
        explore = t - 1 < n_pairs * reals[1] * math.log(math.log(t))
    if explore:
        return pair_of_index((t - 1) % n_pairs)
    a1 = lc[ints[_Q]]
    i_hat = 0
    for i in range(1, K):
        if div[i] < div[i_hat]:
            i_hat = i
    # O = {j != a1 : p_{a1 j} <= 1/2}; the fallback is a1's most-losing opponent.
    o_empty = True
    i_hat_in_o = False
    worst = -1
    worst_p = 0.0
    for j in range(K):
        if j == a1:
            continue
        p = p_hat(n, w, a1, j)
        if p <= 0.5:
            o_empty = False
            i_hat_in_o = i_hat_in_o or j == i_hat
        if worst < 0 or p < worst_p:
            worst = j
            worst_p = p
    a2 = i_hat if (o_empty or i_hat_in_o) else worst
    if ints[_VARIANT] == VARIANT_RMED2:
        b = _rmed2_challenger(n, w, a1, i_hat, ints[_NUMERATOR] == 1)
        if b >= 0 and n[a1, i_hat] >= n[a1, b] / math.log(math.log(t)):
            a2 = b
    _maintain_lists(state, a1, div[i_hat], t)
    return a1, a2


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """The common pair update, then the empirical divergences of the two rows it changed."""
    n, w, div = state[0], state[1], state[2]
    update_pair(n, w, a1, a2, a1_won)
    if a1 != a2:
        div[a1] = divergence(n, w, a1)
        div[a2] = divergence(n, w, a2)


RMED1_SPEC = AlgorithmSpec(
    name="rmed1", label="RMED1", init=init_rmed1, select=select, update=update,
    color="#2ca02c", marker="h",
    defaults={},
    reference="Komiyama et al. COLT 2015, Algorithm 1 (RMED1), f(K) = 0.3 K^1.01",
)
RMED2_SPEC = AlgorithmSpec(
    name="rmed2", label="RMED2", init=init_rmed2, select=select, update=update,
    color="#aec7e8", marker="H",
    defaults={"numerator": "as-run"},
    reference="Komiyama et al. COLT 2015, Algorithm 2 (RMED2), alpha = 3",
)


class RMED1(Policy):
    """RMED1 as a live policy (see ``Policy``); no parameter."""

    spec = RMED1_SPEC


class RMED2(Policy):
    """RMED2 as a live policy; parameter ``numerator`` ("as-run" or "paper", spec 3.8)."""

    spec = RMED2_SPEC
