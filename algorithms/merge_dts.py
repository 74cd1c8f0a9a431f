"""MergeDTS, Merge Double Thompson Sampling (Li, Markov, de Rijke & Zoghi, ACM TOIS 2020, arXiv 1812.04412,
Algorithm 1) -- docs/algorithms.md#mergedts.

As the authors ran it (chang-li/MergeDTS, ``dueling_bandits/merge_dts.py``, ``demo.py``): W (K x K)
holds the wins plus a prior 1 (Beta(1, 1)); the arms are shuffled into batches of M (``core.merge_batches``)
and slot t plays batch ``clock mod batches``, the clock starting at floor(C + 1) and restarting there at
every stage.  Inside the batch B (after merging a one-arm batch into the next one and pruning every arm i
with u_ij < 1/2 for some j of B, one at a time):

* |B| = 1: (a, a);
* first candidate: theta_ij ~ Beta(W_ij, W_ji) for the ordered pairs of B, a_c = the arm with the most
  theta_ij > 1/2, ties uniform;
* second candidate: theta'_i ~ Beta(W_{i a_c}, W_{a_c i}) for i in B \\ {a_c}, theta'_{a_c} = 1, and
  a_d = argmin theta' -- the arm most likely to lose to a_c (lowest position on ties, probability zero).

Options (docs/algorithms.md#mergedts): ``theta="antisymmetric"`` draws one theta per unordered pair and
sets theta_ji = 1 - theta_ij (as D-TS, and the authors' commented-out earlier version); ``second_arm=
"challenger"`` takes a_d = argmax theta' with theta'_{a_c} = 1/2 (D-TS's rule: the arm most likely to beat
a_c, a_c itself when no sample exceeds 1/2), the rule the class docstring gives for the CIKM
submission; ``clock="run"`` never restarts the clock (Zoghi et al.'s original MergeRUCB code);
``sampling="indicators"`` (the exact fast path, ``AlgorithmSpec.fast``) draws each first-candidate vote
1(theta_ij > 1/2) as one uniform against the cached q_ij = P(Beta(W_ij, W_ji) > 1/2), refreshed when the
pair is compared (``core.betainc``): the same law as the default "direct" Beta draws, another stream.

Delay contract: the batches, the pruning, the merges and the clock are bookkeeping of ``select`` (the
authors' code checks the stage after each update, which for delay 1 is the start of the next select);
``update`` only adds the win.  Cost: O(M^2) Beta draws and bounds per slot (the batch), plus O(K) when
an arm is pruned and a merge at the end of a stage.
"""

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from dts_reproduction.algorithms.base import AlgorithmSpec, Policy, check_choice, check_positive
from dts_reproduction.core.argmax import argmax_first, argmax_uniform, argmin_first, fill_true
from dts_reproduction.core.betainc import prob_beta_above_half
from dts_reproduction.core.constants import MERGE_ALPHA, MERGE_BATCH_SIZE, MERGE_DTS_BEST, MERGE_EPSILON
from dts_reproduction.core.merge_batches import (
    check_batch_size,
    clock_start,
    merge_singleton,
    new_batches,
    open_slot,
    prune_one,
    record_win,
)

THETAS = ("independent", "antisymmetric")
SECOND_ARMS = ("loser", "challenger")
SAMPLINGS = ("direct", "indicators")
CLOCKS = ("stage", "run")
MERGE_DEFAULTS = {"alpha": MERGE_ALPHA, "batch_size": MERGE_BATCH_SIZE, "C": None, "epsilon": MERGE_EPSILON,
                  "clock": "stage"}  # the parameters MergeDTS and MergeRUCB share, as the authors ran them

__all__ = ["MERGE_DTS_SPEC", "MergeDTS"]


class MergeDTSState(NamedTuple):
    """State of MergeDTS.  Settings: ``alpha``, ``batch_size`` M, ``clock_start`` floor(C + 1),
    ``reset_clock`` (clock="stage"), ``antisymmetric`` (theta="antisymmetric"), ``challenger``
    (second_arm="challenger"), ``indicators`` (sampling="indicators").  Arrays (K arms; the batch layout
    is ``core.merge_batches``'):"""

    wins: np.ndarray  # float64 (K, K): W_ij, wins of i over j plus the prior 1
    alpha: float
    batch_size: int
    clock_start: int
    reset_clock: bool
    antisymmetric: bool
    challenger: bool
    indicators: bool
    prob_above: np.ndarray  # float64 (K, K) with "indicators" ((1, 1) otherwise): q_ij = P(Beta(W_ij, W_ji) > 1/2)
    batch_arms: np.ndarray  # int64 (K,): the surviving arms, batch after batch
    batch_starts: np.ndarray  # int64 (K + 1,): where each batch starts in batch_arms
    tree: np.ndarray  # core.merge_batches.BATCH_TREE (1,): batches, survivors, stage, clock
    scratch_arms: np.ndarray  # scratch int64 (K,) of the merges
    scratch_starts: np.ndarray  # scratch int64 (K + 1,) of the merges
    batch_order: np.ndarray  # scratch int64 (K,) of the merges
    batch_sizes: np.ndarray  # scratch float64 (K,) of the merges
    votes: np.ndarray  # scratch int64 (K,): #{j : theta_ij > 1/2} per position of the batch
    theta_second: np.ndarray  # scratch float64 (K,): theta' per position of the batch
    all_true: np.ndarray  # bool (K,), all true


def merge_settings(K, alpha, batch_size, C, epsilon, clock):
    """(alpha, M, floor(C + 1), reset_clock) validated for MergeDTS or MergeRUCB; ValueError names a bad
    value (alpha and epsilon finite > 0; M an integer >= 2; C None -- its formula, which needs alpha > 1/2
    -- or a finite number >= 0; clock "stage" or "run")."""
    alpha = check_positive("alpha", alpha)
    epsilon = check_positive("epsilon", epsilon)
    batch_size = check_batch_size(batch_size)
    reset = check_choice("clock", clock, CLOCKS) == "stage"
    return alpha, batch_size, clock_start(K, alpha, epsilon, C), reset


def init_merge_dts(K, horizon=None, alpha=MERGE_ALPHA, batch_size=MERGE_BATCH_SIZE, C=None, epsilon=MERGE_EPSILON,
                   clock="stage", theta="independent", second_arm="loser", sampling="direct"):
    """A fresh ``MergeDTSState`` (module doc for the options); the batches are built at the first select."""
    alpha, batch_size, start, reset = merge_settings(K, alpha, batch_size, C, epsilon, clock)
    antisymmetric = check_choice("theta", theta, THETAS) == "antisymmetric"
    challenger = check_choice("second_arm", second_arm, SECOND_ARMS) == "challenger"
    indicators = check_choice("sampling", sampling, SAMPLINGS) == "indicators"
    arms, starts, tree, scratch_arms, scratch_starts, order, sizes = new_batches(K, start)
    return MergeDTSState(
        wins=np.ones((K, K)), alpha=alpha, batch_size=batch_size, clock_start=start, reset_clock=reset,
        antisymmetric=antisymmetric, challenger=challenger, indicators=indicators,
        prob_above=np.full((K, K) if indicators else (1, 1), 0.5), batch_arms=arms, batch_starts=starts, tree=tree,
        scratch_arms=scratch_arms, scratch_starts=scratch_starts, batch_order=order, batch_sizes=sizes,
        votes=np.zeros(K, np.int64), theta_second=np.zeros(K), all_true=fill_true(np.zeros(K, np.bool_)),
    )


@njit(cache=True)
def refresh_prob_above(q, wins, i, j):
    """q_ij = P(Beta(W_ij, W_ji) > 1/2) and q_ji after the pair {i, j} changed (exactly 1/2 for W_ij = W_ji);
    no-op for i == j."""
    if i == j:
        return
    if wins[i, j] == wins[j, i]:
        q[i, j] = q[j, i] = 0.5
    else:
        q[i, j] = prob_beta_above_half(wins[i, j], wins[j, i])
        q[j, i] = prob_beta_above_half(wins[j, i], wins[i, j])


@njit(cache=True)
def _first_candidate(rng, wins, arms, low, size, antisymmetric, indicators, prob_above, votes, all_true):
    """Position (from ``low``) of a_c: the arm of the batch with the most theta_ij > 1/2, ties uniform.
    Independent: one Beta(W_ij, W_ji) per ordered pair, row by row; antisymmetric: one per pair p < q,
    theta_qp = 1 - theta_pq.  With ``indicators`` each 1(theta > 1/2) is one uniform against q instead
    (antisymmetric: the pair's other vote when it fails; theta = 1/2 has probability zero); prob_above holds q."""
    for p in range(size):
        votes[p] = 0
    for p in range(size):
        i = arms[low + p]
        for q in range(p + 1 if antisymmetric else 0, size):
            if q == p:
                continue
            j = arms[low + q]
            if indicators:
                if rng.random() < prob_above[i, j]:
                    votes[p] += 1
                elif antisymmetric:
                    votes[q] += 1
                continue
            theta = rng.beta(wins[i, j], wins[j, i])
            if theta > 0.5:
                votes[p] += 1
            elif antisymmetric and 1.0 - theta > 0.5:
                votes[q] += 1
    return argmax_uniform(rng, votes[:size], all_true[:size])


@njit(cache=True)
def _second_candidate(rng, wins, arms, low, size, first, challenger, theta_second, all_true):
    """Position of a_d: theta'_i ~ Beta(W_{i c}, W_{c i}) for the other arms i of the batch (c = a_c, at
    position ``first``); the argmin with theta'_c = 1 (as run), or the argmax with theta'_c = 1/2
    (``challenger``), lowest position on ties."""
    c = arms[low + first]
    for p in range(size):
        if p == first:
            theta_second[p] = 0.5 if challenger else 1.0
        else:
            i = arms[low + p]
            theta_second[p] = rng.beta(wins[i, c], wins[c, i])
    if challenger:
        return argmax_first(theta_second[:size], all_true[:size])
    return argmin_first(theta_second[:size], all_true[:size])


@njit(cache=True)
def select(state, t, rng):
    """MergeDTS at slot t (Li et al. 2020, Algorithm 1, as in merge_dts.py ``get_arms``): the stage check
    and the slot's batch (``core.merge_batches.open_slot``), merging of a one-arm batch, pruning, then the
    two candidates.  ``t`` is not used: the clock is the algorithm's own."""
    arms, starts, tree, wins = state.batch_arms, state.batch_starts, state.tree, state.wins
    scratch_arms, scratch_starts, batch_order, batch_sizes = (state.scratch_arms, state.scratch_starts,
                                                              state.batch_order, state.batch_sizes)
    alpha, batch_size, clock_start, reset_clock = state.alpha, state.batch_size, state.clock_start, state.reset_clock
    antisymmetric, indicators, prob_above, votes = state.antisymmetric, state.indicators, state.prob_above, state.votes
    challenger, theta_second, all_true = state.challenger, state.theta_second, state.all_true
    b = open_slot(rng, arms, starts, tree, batch_size, clock_start, reset_clock, scratch_arms, scratch_starts,
                  batch_order, batch_sizes)
    clock = tree[0].clock
    tree[0].clock = clock + 1
    if tree[0].batches == 1 and starts[b + 1] - starts[b] == 1:
        return arms[starts[b]], arms[starts[b]]
    radius = math.sqrt(alpha * math.log(clock))
    if starts[b + 1] - starts[b] == 1:
        b = merge_singleton(arms, starts, tree, b, scratch_arms, scratch_starts)
    while prune_one(rng, wins, arms, starts, tree, b, radius):
        if tree[0].batches > 1 and starts[b + 1] - starts[b] == 1:
            b = merge_singleton(arms, starts, tree, b, scratch_arms, scratch_starts)
    low, size = starts[b], starts[b + 1] - starts[b]
    if size == 1:
        return arms[low], arms[low]
    first = _first_candidate(rng, wins, arms, low, size, antisymmetric, indicators, prob_above, votes, all_true)
    second = _second_candidate(rng, wins, arms, low, size, first, challenger, theta_second, all_true)
    return arms[low + first], arms[low + second]


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """W[winner, loser] += 1 (merge_dts.py ``update_scores``; the stage check is the next select's), and
    with sampling="indicators" the pair's q."""
    wins, prob_above, indicators = state.wins, state.prob_above, state.indicators
    record_win(wins, a1, a2, a1_won)
    if indicators:
        refresh_prob_above(prob_above, wins, a1, a2)


def merge_survivor(state) -> int:
    """MergeDTS, MergeRUCB: the last surviving arm, or else the surviving arm (any arm before the first slot)
    with the most empirical wins (W_ij > W_ji) against the other survivors, the lowest arm on ties."""
    survivors = np.sort(state.batch_arms[: state.tree[0]["survivors"]])
    wins = state.wins[np.ix_(survivors, survivors)]
    return int(survivors[int(np.argmax((wins > wins.T).sum(axis=1)))])


MERGE_DTS_SPEC = AlgorithmSpec(
    name="merge_dts", label="MergeDTS", init=init_merge_dts, select=select, update=update,
    color="#e6550d", marker="8", fast={"sampling": "indicators"},
    defaults={**MERGE_DEFAULTS, "theta": "independent", "second_arm": "loser", "sampling": "direct"},
    presets={"best": MERGE_DTS_BEST},
    reference="Li, Markov, de Rijke & Zoghi, ACM TOIS 2020, Algorithm 1 (MergeDTS), as in the authors' merge_dts.py",
    best_arm=merge_survivor,
)


class MergeDTS(Policy):
    """MergeDTS as a live policy; parameters ``alpha`` (1.01), ``batch_size`` (4), ``C`` (None: its
    formula), ``epsilon`` (0.01), ``clock`` ("stage" or "run"), ``theta`` ("independent" or
    "antisymmetric"), ``second_arm`` ("loser" or "challenger"), ``sampling`` ("direct" or "indicators");
    ``policy.best_arm()`` is the arm it recommends (``merge_survivor``)."""

    spec = MERGE_DTS_SPEC
