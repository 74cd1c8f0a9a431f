"""MergeRUCB (Zoghi, Whiteson & de Rijke, WSDM 2015, Algorithm 1) -- docs/algorithms.md#mergerucb.

As the MergeDTS authors ran it (chang-li/MergeDTS, ``dueling_bandits/merge_rucb.py``, ``demo.py``): the
batches, pruning, stages and clock of MergeDTS (``core.merge_batches``, ``algorithms.merge_dts``), but a
batch of one arm is not merged into the next one: it plays (a, a) whenever its turn comes.  Inside the
batch B after pruning, the first arm a_c is uniform over B and the second a_d = argmax_{i in B, i != a_c}
u_{i a_c}, ties uniform (one draw, only on a tie).

Option ``clock="run"``: the clock never restarts (Zoghi et al.'s original MergeRUCB code).

Delay contract and cost as for MergeDTS: O(M^2) bounds per slot (the pruning check of the batch).
"""

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from dts_reproduction.algorithms.base import AlgorithmSpec, Policy
from dts_reproduction.algorithms.merge_dts import MERGE_DEFAULTS, merge_settings, merge_survivor
from dts_reproduction.core.argmax import argmax_uniform, fill_true
from dts_reproduction.core.constants import MERGE_ALPHA, MERGE_BATCH_SIZE, MERGE_EPSILON, MERGE_RUCB_BEST
from dts_reproduction.core.merge_batches import new_batches, open_slot, prune_one, record_win, upper_bound

__all__ = ["MERGE_RUCB_SPEC", "MergeRUCB"]


class MergeRUCBState(NamedTuple):
    """State of MergeRUCB.  Settings: ``alpha``, ``batch_size`` M, ``clock_start`` floor(C + 1),
    ``reset_clock`` (clock="stage").  Arrays (K arms; the batch layout is ``core.merge_batches``'):"""

    wins: np.ndarray  # float64 (K, K): W_ij, wins of i over j plus the prior 1
    alpha: float
    batch_size: int
    clock_start: int
    reset_clock: bool
    batch_arms: np.ndarray  # int64 (K,): the surviving arms, batch after batch
    batch_starts: np.ndarray  # int64 (K + 1,): where each batch starts in batch_arms
    tree: np.ndarray  # core.merge_batches.BATCH_TREE (1,): batches, survivors, stage, clock
    scratch_arms: np.ndarray  # scratch int64 (K,) of the merges
    scratch_starts: np.ndarray  # scratch int64 (K + 1,) of the merges
    batch_order: np.ndarray  # scratch int64 (K,) of the merges
    batch_sizes: np.ndarray  # scratch float64 (K,) of the merges
    upper_column: np.ndarray  # scratch float64 (K,): u_{i a_c} per position of the batch
    all_true: np.ndarray  # bool (K,), all true


def init_merge_rucb(K, horizon=None, alpha=MERGE_ALPHA, batch_size=MERGE_BATCH_SIZE, C=None, epsilon=MERGE_EPSILON,
                    clock="stage"):
    """A fresh ``MergeRUCBState`` (parameters as for MergeDTS, ``algorithms.merge_dts.merge_settings``)."""
    alpha, batch_size, start, reset = merge_settings(K, alpha, batch_size, C, epsilon, clock)
    arms, starts, tree, scratch_arms, scratch_starts, order, sizes = new_batches(K, start)
    return MergeRUCBState(
        wins=np.ones((K, K)), alpha=alpha, batch_size=batch_size, clock_start=start, reset_clock=reset,
        batch_arms=arms, batch_starts=starts, tree=tree, scratch_arms=scratch_arms, scratch_starts=scratch_starts,
        batch_order=order, batch_sizes=sizes, upper_column=np.zeros(K), all_true=fill_true(np.zeros(K, np.bool_)),
    )


@njit(cache=True)
def select(state, t, rng):
    """MergeRUCB at slot t (Zoghi et al. 2015, Algorithm 1, as in merge_rucb.py ``get_arms``): the stage
    check and the slot's batch, (a, a) for a batch of one arm, pruning, then a_c uniform and a_d the
    argmax of u_{i a_c} over the other arms, ties uniform.  ``t`` is not used: the clock is the
    algorithm's own."""
    arms, starts, tree, wins = state.batch_arms, state.batch_starts, state.tree, state.wins
    scratch_arms, scratch_starts, batch_order, batch_sizes = (state.scratch_arms, state.scratch_starts,
                                                              state.batch_order, state.batch_sizes)
    alpha, batch_size, clock_start, reset_clock = state.alpha, state.batch_size, state.clock_start, state.reset_clock
    upper_column, all_true = state.upper_column, state.all_true
    b = open_slot(rng, arms, starts, tree, batch_size, clock_start, reset_clock, scratch_arms, scratch_starts,
                  batch_order, batch_sizes)
    clock = tree[0].clock
    tree[0].clock = clock + 1
    if starts[b + 1] - starts[b] == 1:
        return arms[starts[b]], arms[starts[b]]
    radius = math.sqrt(alpha * math.log(clock))
    while prune_one(rng, wins, arms, starts, tree, b, radius):
        pass
    low, size = starts[b], starts[b + 1] - starts[b]
    if size == 1:
        return arms[low], arms[low]
    first = rng.integers(0, size)
    c = arms[low + first]
    for p in range(size):
        upper_column[p] = 0.0 if p == first else upper_bound(wins, arms[low + p], c, radius)
    second = argmax_uniform(rng, upper_column[:size], all_true[:size])
    return c, arms[low + second]


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """W[winner, loser] += 1 (merge_rucb.py ``update_scores``; the stage check is the next select's)."""
    wins = state.wins
    record_win(wins, a1, a2, a1_won)


MERGE_RUCB_SPEC = AlgorithmSpec(
    name="merge_rucb", label="MergeRUCB", init=init_merge_rucb, select=select, update=update,
    color="#31a354", marker="x", defaults=dict(MERGE_DEFAULTS), presets={"best": MERGE_RUCB_BEST},
    reference="Zoghi, Whiteson & de Rijke, WSDM 2015, Algorithm 1 (MergeRUCB), as in the MergeDTS authors' "
              "merge_rucb.py",
    best_arm=merge_survivor,
)


class MergeRUCB(Policy):
    """MergeRUCB as a live policy; parameters ``alpha`` (1.01), ``batch_size`` (4), ``C`` (None: its
    formula), ``epsilon`` (0.01), ``clock`` ("stage" or "run"); ``policy.best_arm()`` is the arm it
    recommends (``algorithms.merge_dts.merge_survivor``)."""

    spec = MERGE_RUCB_SPEC
