"""RMED1 and RMED2 (Komiyama, Honda, Kashima & Nakagawa, COLT 2015) as run by Wu & Liu --
docs/algorithms.md#rmed1-and-rmed2.

Both start by comparing every pair once in the order (1,0), (2,0), (2,1), (3,0), ... (t <= K(K-1)/2).
RMED2 then keeps going round-robin over the pairs while t - 1 < #pairs * 3 * ln ln t.  The main phase
walks the current list LC: the first candidate a1 = LC[q]; the second is the arm with the smallest
empirical divergence I_i = sum_{j: n_ij > 0, p_ij <= 1/2} n_ij KL(p_ij, 1/2) (unclamped KL, d(0) = ln 2)
if a1 does not beat it or a1 beats nobody, else a1's most-losing opponent (first index on ties).  RMED2
first tries the challenger b* of the smallest estimated regret per information.  Arms with
I_k - I* <= ln t + f(K), f(K) = 0.3 K^1.01, that were already played this round join the next list LN.

As run: no pseudo-counts (n = w = 0, p = 1/2 for an unseen pair), the list maintenance uses the
statistics *before* the slot's outcome (the original updates LN after the draw), so it lives in
``select``.  I_i is a function of (n, w) only; ``update`` refreshes the two rows it changes (exactly the
same sums as a full recomputation), which keeps ``select`` O(K).  The RMED2 exploration slots leave the
lists untouched, like the initial phase.

Option (both): ``skip`` (docs/algorithms.md#exact-skipping-of-self-comparison-runs), "off" (default,
slot by slot) or "exact": in the simulator, a run of self-comparisons that nothing but ln t can end is
done in one step (``skip``); it does not draw the outcomes of the skipped slots, so the runs equal the
default ones in law, not bit for bit.

Option (RMED2 only): ``numerator="as-run"`` uses 1 - p_{i* a1} - p_{i* j} in b*'s score, the opposite
sign of the RMED2 paper's estimated regret Delta_{i* a1} + Delta_{i* j} (a bug of the authors' code, spec
3.8; RMED2 is not plotted); ``numerator="paper"`` uses p_{i* a1} + p_{i* j} - 1.
"""

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from dts_reproduction.algorithms.base import (
    EXACT_SKIP,
    SKIP_OFF,
    AlgorithmSpec,
    Policy,
    check_choice,
    check_skip,
    exact_skip_hook,
)
from dts_reproduction.core.bounds import update_pair
from dts_reproduction.core.constants import RMED2_ALPHA, RMED_F_COEF, RMED_F_EXP
from dts_reproduction.core.kl import kl_bernoulli
from dts_reproduction.core.pairs import pair_of_index
from dts_reproduction.core.records import record
from dts_reproduction.core.skipping import last_slot_before, record_self_run

VARIANT_RMED1, VARIANT_RMED2 = 1, 2
NUMERATORS = {"as-run": 0, "paper": 1}


# The scalars of the state that change, as the named fields of one record: one array instead of one per
# scalar: every array a kernel reads is reference-counted on each call (docs/extending.md#adding-an-algorithm).
RMED_COUNTERS = np.dtype([
    ("position", np.int64),  # q, the position in LC of the next first candidate
    ("current_len", np.int64),  # |LC|
    ("next_len", np.int64),  # |LN|
])


class RMEDState(NamedTuple):
    """State of RMED1 and RMED2.  Settings: ``variant`` (VARIANT_RMED1 or VARIANT_RMED2), ``paper_sign``
    (RMED2's numerator: False as run, True as in the paper), ``slack`` f(K) = 0.3 K^1.01, ``rmed2_alpha``,
    ``skip_runs`` (option skip="exact").  Arrays (K arms; no pseudo-counts):"""

    comparisons: np.ndarray  # float64 (K, K): n_ij
    wins: np.ndarray  # float64 (K, K): w_ij
    divergences: np.ndarray  # float64 (K,): the empirical divergences I_i, kept consistent with (n, w)
    variant: int
    paper_sign: bool
    slack: float
    rmed2_alpha: float
    skip_runs: bool
    counters: np.ndarray  # RMED_COUNTERS (1,): the changing scalars, by name (``counters[0].position``)
    current_list: np.ndarray  # int64 (K,): LC in its first |LC| entries
    in_remaining: np.ndarray  # bool (K,): LR, the arms of LC not yet played this round
    next_list: np.ndarray  # int64 (K,): LN in its first |LN| entries
    in_next: np.ndarray  # bool (K,): LN as a mask


def _make_state(K, variant, numerator, skip):
    """A fresh ``RMEDState``: LC = LR = all arms, LN empty, q = 0; skip: "off" or "exact"."""
    counters = record(RMED_COUNTERS)
    counters[0]["current_len"] = K
    return RMEDState(
        comparisons=np.zeros((K, K)),
        wins=np.zeros((K, K)),
        divergences=np.zeros(K),
        variant=variant,
        paper_sign=numerator == NUMERATORS["paper"],
        slack=RMED_F_COEF * K**RMED_F_EXP,
        rmed2_alpha=RMED2_ALPHA,
        skip_runs=check_skip(skip),
        counters=counters,
        current_list=np.arange(K, dtype=np.int64),
        in_remaining=np.ones(K, np.bool_),
        next_list=np.zeros(K, np.int64),
        in_next=np.zeros(K, np.bool_),
    )


def init_rmed1(K, horizon=None, skip=SKIP_OFF):
    """State of RMED1 (Komiyama et al. 2015, Algorithm 1 with f(K) = 0.3 K^1.01); skip: "off" or
    "exact" (module doc)."""
    return _make_state(K, VARIANT_RMED1, 0, skip)


def init_rmed2(K, horizon=None, numerator="as-run", skip=SKIP_OFF):
    """State of RMED2 (Komiyama et al. 2015, Algorithm 2 with alpha = 3).

    numerator: "as-run" (default, the authors' sign-flipped regret estimate) or "paper"
    (docs/algorithms.md#rmed1-and-rmed2); skip: "off" or "exact" (module doc).
    """
    numerator = NUMERATORS[check_choice("numerator", numerator, tuple(NUMERATORS))]
    return _make_state(K, VARIANT_RMED2, numerator, skip)


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
def _maintain_lists(divergences, slack, counters, current_list, in_remaining, next_list, in_next, a1, i_star, t):
    """Steps 4-5: drop a1 from LR, append (ascending) every arm in neither LR nor LN with
    I_k - I* <= ln t + f(K) to LN, advance q; at the end of LC start the round LC = LR = LN.  The arrays
    and ``slack`` are the ``RMEDState`` fields of the same names."""
    c = counters[0]
    K = divergences.shape[0]
    in_remaining[a1] = False
    threshold = math.log(t) + slack
    for k in range(K):
        if not in_remaining[k] and not in_next[k] and divergences[k] - i_star <= threshold:
            next_list[c.next_len] = k
            in_next[k] = True
            c.next_len += 1
    c.position += 1
    if c.position == c.current_len:
        c.current_len = c.next_len
        for k in range(c.next_len):
            current_list[k] = next_list[k]
        for k in range(K):
            in_remaining[k] = in_next[k]
            in_next[k] = False
        c.next_len = 0
        c.position = 0


@njit(cache=True, inline="always")
def _explores(variant, rmed2_alpha, n_pairs, t):
    """Whether slot t is an exploration slot: the initial round (t - 1 < #pairs), and for RMED2 also
    while t - 1 < #pairs * alpha * ln ln t (Algorithm 2 line 2)."""
    explore = t - 1 < n_pairs
    if not explore and variant == VARIANT_RMED2:
        explore = t - 1 < n_pairs * rmed2_alpha * math.log(math.log(t))
    return explore


@njit(cache=True, inline="always")
def _least_divergent(div):
    """i-hat = argmin_i I_i, the lowest index on ties."""
    i_hat = 0
    for i in range(1, div.shape[0]):
        if div[i] < div[i_hat]:
            i_hat = i
    return i_hat


@njit(cache=True)
def select(state, t, rng):
    """Choose (a1, a2) at slot t (docs/algorithms.md#rmed1-and-rmed2); deterministic, ``rng`` is unused."""
    comparisons, wins, divergences, variant = state.comparisons, state.wins, state.divergences, state.variant
    paper_sign, rmed2_alpha, counters = state.paper_sign, state.rmed2_alpha, state.counters
    current_list, in_remaining, next_list, in_next, slack = (state.current_list, state.in_remaining, state.next_list,
                                                             state.in_next, state.slack)
    K = comparisons.shape[0]
    n_pairs = K * (K - 1) // 2
    if _explores(variant, rmed2_alpha, n_pairs, t):
        return pair_of_index((t - 1) % n_pairs)
    a1 = current_list[counters[0].position]
    i_hat = _least_divergent(divergences)
    # O = {j != a1 : p_{a1 j} <= 1/2}; the fallback is a1's most-losing opponent.
    o_empty = True
    i_hat_in_o = False
    worst = -1
    worst_p = 0.0
    for j in range(K):
        if j == a1:
            continue
        p = p_hat(comparisons, wins, a1, j)
        if p <= 0.5:
            o_empty = False
            i_hat_in_o = i_hat_in_o or j == i_hat
        if worst < 0 or p < worst_p:
            worst = j
            worst_p = p
    a2 = i_hat if (o_empty or i_hat_in_o) else worst
    if variant == VARIANT_RMED2:
        b = _rmed2_challenger(comparisons, wins, a1, i_hat, paper_sign)
        if b >= 0 and comparisons[a1, i_hat] >= comparisons[a1, b] / math.log(math.log(t)):
            a2 = b
    _maintain_lists(divergences, slack, counters, current_list, in_remaining, next_list, in_next, a1,
                    divergences[i_hat], t)
    return a1, a2


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """The common pair update, then the empirical divergences of the two rows it changed."""
    comparisons, wins, divergences = state.comparisons, state.wins, state.divergences
    update_pair(comparisons, wins, a1, a2, a1_won)
    if a1 != a2:
        divergences[a1] = divergence(comparisons, wins, a1)
        divergences[a2] = divergence(comparisons, wins, a2)


@njit(cache=True)
def skip(state, t, rng, t_limit):
    """The run of self-comparisons from slot t in one step (option skip="exact"; ``core.simulate``).

    After the exploration slots (RMED2: t - 1 >= #pairs * alpha ln ln t; from t > #pairs * alpha on, this
    stays so as t grows, since t - 1 - #pairs * alpha ln ln t increases there -- before, it need not),
    with LC = (a) (so every slot ends the round: a1 = LC[0] = a, Algorithm 1 line 7), i-hat = a (the
    least divergent arm, first index) and O = {j != a : p-hat_aj <= 1/2} empty (a beats every arm, all
    compared), a2 = i-hat = a (RMED2's b* needs some p-hat_aj < 1/2: none), and the list walk (lines
    10-13) puts back a alone: LN = (a), so again LC = LR = (a) -- unless another arm k has
    I_k - I_a <= ln t + f(K).  A self-comparison leaves n, w off the diagonal and so every I unchanged:
    the pair and the lists stay the same until ln t + f(K) reaches min_k (I_k - I_a) (that slot, which
    changes the lists, is left to ``select``) or t_limit (a checkpoint, a delayed-feedback delivery, the
    horizon).  Returns (slots, a) for the slots t .. t + slots - 1, after the updates of those slots
    (the diagonal, ``record_self_run``; the lists end as they were); (0, -1) if slot t is not such a
    pair.  ``rng`` is not used (RMED draws nothing; a self-comparison's outcome changes nothing but
    w[a, a] += 1 either way).
    """
    comparisons, wins, divergences, variant = state.comparisons, state.wins, state.divergences, state.variant
    slack, rmed2_alpha, counters, current_list = state.slack, state.rmed2_alpha, state.counters, state.current_list
    K = comparisons.shape[0]
    n_pairs = K * (K - 1) // 2
    if counters[0].current_len != 1 or _explores(variant, rmed2_alpha, n_pairs, t) \
            or (variant == VARIANT_RMED2 and t <= n_pairs * rmed2_alpha):
        return 0, -1
    a = current_list[0]
    if _least_divergent(divergences) != a:
        return 0, -1
    for j in range(K):
        if j != a and p_hat(comparisons, wins, a, j) <= 0.5:
            return 0, -1
    end = t_limit
    for k in range(K):
        if k != a:
            end = min(end, last_slot_before(divergences[k] - divergences[a], slack, end))
    if end < t:
        return 0, -1
    slots = end - t + 1
    record_self_run(comparisons, wins, a, slots)
    return slots, a


RMED1_SPEC = AlgorithmSpec(
    name="rmed1", label="RMED1", init=init_rmed1, select=select, update=update,
    skip=exact_skip_hook(skip), fast=EXACT_SKIP, color="#2ca02c", marker="h",
    defaults={"skip": SKIP_OFF},
    reference="Komiyama et al. COLT 2015, Algorithm 1 (RMED1), f(K) = 0.3 K^1.01",
)
RMED2_SPEC = AlgorithmSpec(
    name="rmed2", label="RMED2", init=init_rmed2, select=select, update=update,
    skip=exact_skip_hook(skip), fast=EXACT_SKIP, color="#aec7e8", marker="H",
    defaults={"numerator": "as-run", "skip": SKIP_OFF},
    reference="Komiyama et al. COLT 2015, Algorithm 2 (RMED2), alpha = 3",
)


class RMED1(Policy):
    """RMED1 as a live policy (see ``Policy``); ``skip`` acts only in the simulator."""

    spec = RMED1_SPEC


class RMED2(Policy):
    """RMED2 as a live policy; parameter ``numerator`` ("as-run" or "paper", docs/algorithms.md#rmed1-and-rmed2);
    ``skip`` acts only in the simulator."""

    spec = RMED2_SPEC
