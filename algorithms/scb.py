"""SCB, Scalable Copeland Bandits (Zoghi et al., NIPS 2015, Algorithms 2-4) as run by Wu & Liu --
docs/algorithms.md#scb.

SCB runs in rounds r = 1, 2, ... of T_r slots; every round starts from scratch.  Inside a round it runs a
"virtual" K-armed bandit (KL-UCB/LCB elimination over the remaining arms R, visited round-robin by the
pointer v) whose pulls are pair tests: the pull of arm i draws an opponent j uniformly; if the pair
{i, j} is already resolved the pull is free (reward 1{p-hat_ij > 1/2}), otherwise SCB compares (i, j)
until the KL test resolves the pair, then pulls i with reward 1{i won the resolving comparison}.  When
one arm is left in R (or every pair touched by R is resolved) that arm is played against itself.

As run (docs/algorithms.md#scb): pseudo-counts n = 2e-6, w = 1e-6 reset every round; kappa = alpha = 0.51 multiplies
the confidence radii kappa [ln(4 tau K) + 2 max(1, ln max(1, ln tau))] (pair test) and
kappa [ln(4 T_r K) + 2 max(1, ln max(1, ln tau))] / m_i (virtual arms), with the clamped KL, bisection
tolerance 1e-6; the "every pair resolved" shortcut picks the first-index argmax of the empirical
Copeland counts over all arms (j = i is left out; its p-hat is exactly 1/2 there anyway).

Delay contract (docs/harness.md#feedback-delay).  The pair test, the virtual pull it triggers and the round restart
(tau > T_r) depend on the outcome, so they run in ``update``; tau counts the updates of the round.
SCB's exploration state therefore advances only when feedback arrives: under delay ``select`` keeps
replaying the current pair (f, s) until its outcomes arrive.  The test is applied only to an outcome of
the current pair (f, s) while it is still open, which is always the case at d = 1; late outcomes of a
pair resolved in the meantime (or of a previous round) only add to n and w.  Free virtual pulls of
already resolved pairs need no outcome and stay in ``select``.

Deviation option ``schedule`` (docs/algorithms.md#scb): "as-run" (default) T_1 = 1000,
T_{r+1} = T_r^2 (1000, 1e6, 1e12); "original" T_r = 2^(2^r) (4, 16, 256, 65536, ...), Zoghi et al.'s
schedule.  Only the round lengths change; the confidence radii stay the authors' port (docs/algorithms.md#scb).
"""

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from dts_reproduction.algorithms.base import AlgorithmSpec, Policy, check_alpha, check_choice
from dts_reproduction.core.bounds import update_pair
from dts_reproduction.core.constants import (
    ALPHA,
    KLUCB_EPS,
    SCB_FIRST_ROUND,
    SCB_ORIGINAL_FIRST_ROUND,
    SCB_PSEUDO_N,
    SCB_PSEUDO_W,
)
from dts_reproduction.core.kl import kl_clamped, kl_lcb, kl_ucb
from dts_reproduction.core.records import record

SCHEDULES = {"as-run": SCB_FIRST_ROUND, "original": SCB_ORIGINAL_FIRST_ROUND}


class SCBState(NamedTuple):
    """State of SCB.  Setting: ``kappa``, the KL-confidence multiplier.  Everything else is reset at the
    start of every round except the counters ``round_length`` and ``round_index``.  The scalars that change
    are the named fields of one record, ``counters[0]`` (dtype ``SCB_COUNTERS``): one array instead of one
    per scalar: every array a kernel reads costs reference counting on each call."""

    comparisons: np.ndarray  # float64 (K, K): n_ij of the round (pseudo-count included)
    wins: np.ndarray  # float64 (K, K): w_ij of the round (pseudo-count included)
    is_open: np.ndarray  # bool (K, K): the pair {i, j} is not resolved yet
    open_count: np.ndarray  # int64 (K,): open pairs of each arm
    remaining: np.ndarray  # int64 (K,): the virtual arms R in their first remaining_size entries
    pulls: np.ndarray  # float64 (K,): m_i, virtual pulls of arm i
    rewards: np.ndarray  # float64 (K,): g_i, their total reward
    ucb: np.ndarray  # scratch float64 (K,): KL-UCB of the virtual arms
    lcb: np.ndarray  # scratch float64 (K,): KL-LCB of the virtual arms
    counters: np.ndarray  # SCB_COUNTERS (1,): the changing scalars below, by name
    kappa: float


SCB_COUNTERS = np.dtype([
    ("best", np.int64),  # the arm played against itself, -1 while none
    ("exploring", np.int64),  # 1 while the pair (first, second) is under test
    ("first", np.int64),  # f, the virtual arm whose pull is being resolved
    ("second", np.int64),  # s, its drawn opponent
    ("tau", np.int64),  # slot within the round (counts updates)
    ("pointer", np.int64),  # v, position in R of the next virtual arm
    ("remaining_size", np.int64),  # |R|
    ("round_index", np.int64),  # r
    ("round_length", np.float64),  # T_r
])


def init_scb(K, horizon=None, alpha=ALPHA, schedule="as-run"):
    """A fresh ``SCBState`` at the start of round 1.

    alpha: the KL-confidence multiplier kappa (> 0, default 0.51); schedule: "as-run" or "original"
    round lengths (module doc).
    """
    kappa = check_alpha(alpha)
    first = SCHEDULES[check_choice("schedule", schedule, tuple(SCHEDULES))]
    state = SCBState(
        comparisons=np.empty((K, K)), wins=np.empty((K, K)), is_open=np.empty((K, K), np.bool_),
        open_count=np.empty(K, np.int64), remaining=np.empty(K, np.int64), pulls=np.empty(K),
        rewards=np.empty(K), ucb=np.empty(K), lcb=np.empty(K), counters=record(SCB_COUNTERS), kappa=kappa,
    )
    state.counters[0]["round_index"] = 1
    state.counters[0]["round_length"] = float(first)
    _reset_round(state.comparisons, state.wins, state.is_open, state.open_count, state.remaining, state.pulls,
                 state.rewards, state.counters)
    return state


@njit(cache=True)
def _reset_round(comparisons, wins, is_open, open_count, remaining, pulls, rewards, counters):
    """Start a round (Zoghi et al. 2015, Algorithm 2); T_r and r are left alone.  The arrays are the
    ``SCBState`` fields of the same names."""
    c = counters[0]
    K = comparisons.shape[0]
    comparisons[:, :] = SCB_PSEUDO_N
    wins[:, :] = SCB_PSEUDO_W
    for i in range(K):
        for j in range(K):
            is_open[i, j] = i != j
        open_count[i] = K - 1
        remaining[i] = i
        pulls[i] = 0.0
        rewards[i] = 0.0
    c.best = -1
    c.exploring = 0
    c.first = 0
    c.second = 0
    c.tau = 1
    c.pointer = 0
    c.remaining_size = K


@njit(cache=True)
def _log_log_term(tau):
    """2 max(1, ln max(1, ln tau)), the iterated-log part of both SCB radii."""
    return 2.0 * max(1.0, math.log(max(1.0, math.log(tau))))


@njit(cache=True)
def _pair_resolved(n, w, x, y, tau, kappa):
    """SCB's pair test from the side of x, the winner of the last comparison: n_xy >= 1,
    p = w_xy / n_xy >= 1/2 and n_xy KLc(p, 1/2) > kappa [ln(4 tau K) + 2 max(1, ln max(1, ln tau))]."""
    p = w[x, y] / n[x, y]
    if n[x, y] < 1.0 or p < 0.5:
        return False
    return n[x, y] * kl_clamped(p, 0.5) > kappa * (math.log(4.0 * tau * n.shape[0]) + _log_log_term(tau))


@njit(cache=True)
def _virtual_pull(K, remaining, pulls, rewards, ucb, lcb, counters, kappa, reward):
    """Pull the virtual arm R[v] with ``reward`` and advance v (Zoghi et al. Algorithm 3 / docs/algorithms.md#scb).

    After a full pass over R, every arm whose KL-UCB is below the largest KL-LCB leaves R (order kept);
    one arm left becomes ``best`` (none left: best = 0).  K: the number of arms; the arrays and ``kappa``
    are the ``SCBState`` fields of the same names.
    """
    c = counters[0]
    i = remaining[c.pointer]
    pulls[i] += 1.0
    rewards[i] += reward
    c.pointer += 1
    if c.pointer < c.remaining_size:
        return
    c.pointer = 0
    size = c.remaining_size
    base = kappa * (math.log(4.0 * c.round_length * K) + _log_log_term(c.tau))
    top_lcb = -math.inf
    for idx in range(size):
        k = remaining[idx]
        if pulls[k] > 0.0:
            ucb[k] = kl_ucb(rewards[k] / pulls[k], base / pulls[k], KLUCB_EPS)
            lcb[k] = kl_lcb(rewards[k] / pulls[k], base / pulls[k], KLUCB_EPS)
        else:
            ucb[k] = 1.0
            lcb[k] = 0.0
        top_lcb = max(top_lcb, lcb[k])
    kept = 0
    for idx in range(size):
        k = remaining[idx]
        if ucb[k] >= top_lcb:
            remaining[kept] = k
            kept += 1
    c.remaining_size = kept
    if kept == 1:
        c.best = remaining[0]
    elif kept == 0:
        c.best = 0


@njit(cache=True)
def _learned_best(n, w):
    """First-index argmax over all arms of #{j != i : w_ij / n_ij > 1/2} (the "learned" shortcut)."""
    K = n.shape[0]
    best = 0
    best_count = -1
    for i in range(K):
        count = 0
        for j in range(K):
            if j != i and w[i, j] / n[i, j] > 0.5:
                count += 1
        if count > best_count:
            best = i
            best_count = count
    return best


@njit(cache=True)
def select(state, t, rng):
    """SCB's pair at slot t (docs/algorithms.md#scb): (best, best), the pair under test (f, s), or the
    next pair of the virtual bandit, after any number of free virtual pulls of resolved pairs."""
    comparisons, wins, is_open, open_count = state.comparisons, state.wins, state.is_open, state.open_count
    remaining, pulls, rewards, counters = state.remaining, state.pulls, state.rewards, state.counters
    ucb, lcb, kappa = state.ucb, state.lcb, state.kappa
    c = counters[0]
    K = comparisons.shape[0]
    while True:
        if c.best >= 0:
            return c.best, c.best
        if c.exploring:
            return c.first, c.second
        i = remaining[c.pointer]
        j = rng.integers(0, K - 1)
        if j >= i:
            j += 1
        learned = True
        for idx in range(c.remaining_size):
            if open_count[remaining[idx]] > 0:
                learned = False
                break
        if learned:
            c.best = _learned_best(comparisons, wins)
        elif is_open[i, j]:
            c.exploring = 1
            c.first = i
            c.second = j
        else:
            _virtual_pull(K, remaining, pulls, rewards, ucb, lcb, counters, kappa,
                          1.0 if wins[i, j] / comparisons[i, j] > 0.5 else 0.0)


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """Record the outcome of (a1, a2), run the pair test of the current pair, advance tau, and start
    a new round once tau > T_r (docs/algorithms.md#scb; see the module docstring for the delay contract)."""
    comparisons, wins, is_open, open_count = state.comparisons, state.wins, state.is_open, state.open_count
    remaining, pulls, rewards, counters = state.remaining, state.pulls, state.rewards, state.counters
    ucb, lcb, kappa = state.ucb, state.lcb, state.kappa
    c = counters[0]
    update_pair(comparisons, wins, a1, a2, a1_won)
    if c.exploring and a1 == c.first and a2 == c.second and is_open[a1, a2]:
        x, y = (a1, a2) if a1_won else (a2, a1)
        if _pair_resolved(comparisons, wins, x, y, c.tau, kappa):
            is_open[x, y] = False
            is_open[y, x] = False
            open_count[x] -= 1
            open_count[y] -= 1
            c.exploring = 0
            _virtual_pull(comparisons.shape[0], remaining, pulls, rewards, ucb, lcb, counters, kappa,
                          1.0 if a1_won else 0.0)
    c.tau += 1
    if c.tau > c.round_length:
        _reset_round(comparisons, wins, is_open, open_count, remaining, pulls, rewards, counters)
        c.round_length = c.round_length * c.round_length
        c.round_index += 1


SCB_SPEC = AlgorithmSpec(
    name="scb", label="SCB", init=init_scb, select=select, update=update,
    color="#17becf", marker="p",
    defaults={"alpha": ALPHA, "schedule": "as-run"},
    reference="Zoghi et al. 2015, Algorithms 2-4 (SCB), as ported in the authors' Alg_SCB.cpp",
)


class SCB(Policy):
    """SCB as a live policy; parameters ``alpha`` (KL multiplier, 0.51) and ``schedule``
    ("as-run": rounds 1000, 1e6, 1e12; "original": 2^(2^r))."""

    spec = SCB_SPEC
