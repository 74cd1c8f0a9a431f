"""C2B (Agarwal, Ghuge & Nagarajan, NeurIPS 2022, "An Asymptotically Optimal Batched Algorithm for the Dueling Bandit
Problem"), as this project reconstructs it -- docs/algorithms.md#c2b says what was read of the paper and what not.

C2B plays in batches: a batch is a fixed list of pairs, each compared the same number of times, chosen from the
comparisons delivered before it starts.  Batch r compares each of its pairs ceil(T^(r/B)) times (q^r with
q = T^(1/B)), so that at most B batches start within the horizon T; B = ceil(ln T) by default.  At the start of a
batch, from the pair statistics so far (wins w_ij, comparisons n_ij = w_ij + w_ji):

1. elimination: in index order, an active arm j leaves the active set A if a still-active arm i defeats it
   confidently, w_ij / n_ij - sqrt(alpha ln(K^2 T) / n_ij) > 1/2 (A never empties: the arm that removes another
   stays);
2. exploitation: once A holds one arm a, the batch (a, a) lasts for the rest of the run;
3. else the candidate is the active arm that empirically beats (w_ij > w_ji) the most active arms (uniform among
   ties: one integer of the run's generator, only when several tie), and the undefeated arms are those no active arm
   empirically beats;
4. the batch is every pair {i, j} (i < j, both active, in index order, played as (i, j)) of the candidate and an arm
   it empirically beats, or of an undefeated arm and any other active arm; each pair's comparisons are played in a
   block of consecutive slots, the blocks in the list's order.

The order of a batch's slots is the algorithm's free choice: a batch commits to its comparisons when it starts, and
their outcomes are read only when the next batch is planned, so no decision falls inside a batch and any order of its
slots plays the same comparisons and leaves the same statistics at its end.  Blocks (rather than going round the list)
are as faithful to the paper as round robin; what changes is the shape of the regret curve inside a batch (the
regret of a pair is paid over its block instead of spread over the batch), not its value at a batch's end.  Blocks are
what makes the exact fast path below possible: a block is one long run of one pair.

Option ``skip`` (docs/algorithms.md#c2b): "off" (default, slot by slot) or "exact": the rest of a pair's block is one
pair run of ``core.simulate`` (its wins drawn as one Binomial) and the exploitation batch one skip of
self-comparisons to the limit (``algorithms.c2b_runs``), so that a run of T = 1e9 costs about what its batches'
planning costs.  The probe ``c2b_batches_probe`` sees every slot, so the loop refuses it beside a skip or a pair run:
a run that counts batches is run with skip="off".

Delay contract (docs/harness.md#feedback-delay): ``select`` plans the batches (the active set, the candidate, the
pair list, the counters); ``update`` only counts wins.  With delayed feedback a batch is planned from the comparisons
delivered before it starts, as a batched algorithm is.

The number of batches started so far is kept in the state (``counters[0].batch_index``) and read by the probe
``c2b_batches_probe``, so that a study can record it beside the regret.
"""

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from dts_reproduction.algorithms.base import (
    EXACT_SKIP,
    INT64_MAX,
    SKIP_OFF,
    AlgorithmSpec,
    Policy,
    check_positive,
    check_skip,
    exact_skip_hook,
)
from dts_reproduction.algorithms.c2b_runs import apply, plan, skip
from dts_reproduction.core.argmax import argmax_uniform
from dts_reproduction.core.records import record

# Our choices where the paper could not be read (docs/algorithms.md#c2b): the confidence radius
# sqrt(alpha ln(K^2 T) / n), with alpha = 1/2 Hoeffding's bound at level 1 / (K^2 T); B = ceil(ln T) batches.
C2B_ALPHA = 0.5
NO_ARM = -1
# The changing scalars: the number of batches started (r), the current batch's pair count, comparisons of each pair,
# slots issued and length (pair count x comparisons, INT64_MAX for the exploitation batch), and its candidate.
COUNTERS = np.dtype([("batch_index", np.int64), ("pair_count", np.int64), ("per_pair", np.int64),
                     ("issued", np.int64), ("batch_length", np.int64), ("candidate", np.int64)])


class C2BState(NamedTuple):
    """State of C2B.  Settings: ``log_term`` alpha ln(K^2 T), ``skip_runs`` (option skip="exact").  Arrays (K arms,
    B batches):"""

    wins: np.ndarray  # int64 (K, K): w_ij, comparisons of i and j that i won
    active: np.ndarray  # bool (K,): the active set A
    schedule: np.ndarray  # int64 (B + 1,): schedule[r] = comparisons of each pair in batch r (entry 0 unused)
    pair_first: np.ndarray  # int64 (K (K - 1) / 2,): the first arms of the current batch's pairs
    pair_second: np.ndarray  # int64 (K (K - 1) / 2,): their second arms
    beats: np.ndarray  # scratch int64 (K,): how many active arms each active arm empirically beats
    undefeated: np.ndarray  # scratch bool (K,): the active arms no active arm empirically beats
    log_term: float
    counters: np.ndarray  # COUNTERS (1,): the batch counters, by name
    skip_runs: bool


def default_batches(horizon: int) -> int:
    """B = ceil(ln T), at least 1: the O(log T) batches of the paper's headline result."""
    return max(1, math.ceil(math.log(horizon)))


def batch_schedule(horizon: int, batches: int) -> np.ndarray:
    """The comparisons of each pair in batches 1..B: min(T, ceil(T^(r/B))) (entry 0 unused, 0)."""
    schedule = np.zeros(batches + 1, np.int64)
    for r in range(1, batches + 1):
        schedule[r] = min(horizon, math.ceil(horizon ** (r / batches)))
    return schedule


def check_batches(batches, horizon: int) -> int:
    """B as an int: ceil(ln T) for None; ValueError naming it unless an integer >= 1."""
    if batches is None:
        return default_batches(horizon)
    if isinstance(batches, (bool, np.bool_)) or not isinstance(batches, (int, np.integer)) or batches < 1:
        raise ValueError(f"batches must be None (ceil(ln T)) or an integer >= 1, got {batches!r}")
    return int(batches)


def init_c2b(K, horizon, alpha=C2B_ALPHA, batches=None, skip=SKIP_OFF):
    """A fresh ``C2BState`` for K arms and horizon T: every arm active, no batch started.  alpha: the scale of the
    confidence radius (a finite number > 0); batches: B (None: ceil(ln T)); skip: "off" or "exact" (the fast path,
    module doc).  ValueError naming a bad value, or if T is not given (C2B's batch sizes are powers of T^(1/B))."""
    if horizon is None:
        raise ValueError("C2B needs the horizon T: its batch sizes are powers of T^(1/B)")
    alpha = check_positive("alpha", alpha)
    batches = check_batches(batches, horizon)
    skip_runs = check_skip(skip)
    pairs = K * (K - 1) // 2
    return C2BState(wins=np.zeros((K, K), np.int64), active=np.ones(K, np.bool_),
                    schedule=batch_schedule(horizon, batches), pair_first=np.zeros(pairs, np.int64),
                    pair_second=np.zeros(pairs, np.int64), beats=np.zeros(K, np.int64),
                    undefeated=np.zeros(K, np.bool_), log_term=alpha * math.log(float(K) * K * horizon),
                    counters=record(COUNTERS, (0, 0, 0, 0, 0, NO_ARM)), skip_runs=skip_runs)


@njit(cache=True)
def eliminate(wins, active, log_term):
    """Step 1: in index order, deactivate every arm j that a still-active arm i defeats confidently,
    w_ij / n_ij - sqrt(log_term / n_ij) > 1/2.  Returns the number of arms left active (at least one)."""
    K = wins.shape[0]
    left = 0
    for j in range(K):
        if not active[j]:
            continue
        for i in range(K):
            n = wins[i, j] + wins[j, i]
            if i != j and active[i] and n > 0 and wins[i, j] / n - math.sqrt(log_term / n) > 0.5:
                active[j] = False
                break
        left += active[j]
    return left


@njit(cache=True)
def empirical_standing(wins, active, beats, undefeated):
    """Step 3's counts: ``beats[i]`` = the active arms that active arm i empirically beats (w_ij > w_ji), and
    ``undefeated[j]`` = j is active and no active arm empirically beats it."""
    K = wins.shape[0]
    for i in range(K):
        beats[i] = 0
        undefeated[i] = active[i]
    for i in range(K):
        for j in range(K):
            if i != j and active[i] and active[j] and wins[i, j] > wins[j, i]:
                beats[i] += 1
                undefeated[j] = False


@njit(cache=True)
def batch_pairs(wins, active, undefeated, candidate, pair_first, pair_second):
    """Step 4: write the pairs {i, j} (i < j, both active) of the candidate and an arm it empirically beats, or of an
    undefeated arm and another active arm, in index order, into ``pair_first``/``pair_second``; returns how many."""
    K = wins.shape[0]
    count = 0
    for i in range(K):
        for j in range(i + 1, K):
            if not (active[i] and active[j]):
                continue
            challenged = (i == candidate and wins[i, j] > wins[j, i]) or (j == candidate and wins[j, i] > wins[i, j])
            if challenged or undefeated[i] or undefeated[j]:
                pair_first[count] = i
                pair_second[count] = j
                count += 1
    return count


@njit(cache=True)
def plan_batch(wins, active, schedule, pair_first, pair_second, beats, undefeated, log_term, counters, rng):
    """Start the next batch (module doc, steps 1-4): count it, eliminate, then either the exploitation batch of the
    last active arm or the batch of the candidate and the undefeated arms, each pair compared schedule[r] times
    (schedule[B] past batch B)."""
    counters.batch_index += 1
    counters.issued = 0
    if eliminate(wins, active, log_term) == 1:
        last = np.argmax(active)
        pair_first[0] = last
        pair_second[0] = last
        counters.candidate = last
        counters.pair_count = 1
        counters.per_pair = INT64_MAX
        counters.batch_length = INT64_MAX
        return
    empirical_standing(wins, active, beats, undefeated)
    candidate = argmax_uniform(rng, beats, active)
    count = batch_pairs(wins, active, undefeated, candidate, pair_first, pair_second)
    per_pair = schedule[min(counters.batch_index, schedule.shape[0] - 1)]
    counters.candidate = candidate
    counters.pair_count = count
    counters.per_pair = per_pair
    counters.batch_length = INT64_MAX if per_pair > INT64_MAX // count else count * per_pair


@njit(cache=True)
def select(state, t, rng):
    """The next pair of the current batch: slot ``issued`` of a batch belongs to pair ``issued // per_pair`` of its list
    (each pair's block of per_pair slots after the previous pair's); a new batch (``plan_batch``) when the current one
    has had all its slots (at t = 1, the first)."""
    wins, active, schedule, pair_first, pair_second = (state.wins, state.active, state.schedule, state.pair_first,
                                                      state.pair_second)
    beats, undefeated, log_term, counters = state.beats, state.undefeated, state.log_term, state.counters[0]
    if counters.issued == counters.batch_length:
        plan_batch(wins, active, schedule, pair_first, pair_second, beats, undefeated, log_term, counters, rng)
    k = counters.issued // counters.per_pair
    counters.issued += 1
    return pair_first[k], pair_second[k]


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """w_winner,loser += 1 for two different arms (a self-duel counts nothing)."""
    wins = state.wins
    if a1 == a2:
        return
    if a1_won:
        wins[a1, a2] += 1
    else:
        wins[a2, a1] += 1


@njit(cache=True)
def c2b_batches_probe(state, rng, counts):
    """``counts[0]`` = the number of batches C2B has started so far, the exploitation batch included (a probe
    ``core.simulate`` calls after every select; draws nothing).  It sees every slot, so the loop refuses it beside
    skip="exact"'s skip and pair run."""
    counters = state.counters[0]
    counts[0] = counters.batch_index


def c2b_recommendation(state) -> int:
    """C2B's recommendation: the candidate of the current batch (the last active arm once it exploits); arm 0 before
    the first batch."""
    candidate = int(state.counters[0]["candidate"])
    return 0 if candidate == NO_ARM else candidate


C2B_SPEC = AlgorithmSpec(
    name="c2b", label="C2B", init=init_c2b, select=select, update=update,
    defaults={"alpha": C2B_ALPHA, "batches": None, "skip": SKIP_OFF}, needs_horizon=True, color="#b5cf6b",
    marker="3", best_arm=c2b_recommendation, skip=exact_skip_hook(skip), pair_run=exact_skip_hook((plan, apply)),
    fast=EXACT_SKIP,
    reference="Agarwal, Ghuge & Nagarajan NeurIPS 2022, C2B, reconstructed (docs/algorithms.md#c2b)",
)


class C2B(Policy):
    """C2B as a live policy; needs ``horizon``; parameters ``alpha`` (0.5), ``batches`` (None: ceil(ln T)) and
    ``skip`` ("off"; "exact" acts only in the simulator)."""

    spec = C2B_SPEC
