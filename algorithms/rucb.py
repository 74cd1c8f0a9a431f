"""RUCB, Relative Upper Confidence Bound (Zoghi et al., ICML 2014, Algorithm 1) -- docs/algorithms.md#rucb.

As run by the authors of "Double Thompson Sampling for Dueling Bandits" (Wu & Liu, NIPS 2016):
pseudo-counts n = 1e-6, w = 1e-5, direct confidence bounds with alpha = 0.51
(docs/algorithms.md#shared-building-blocks),
a hypothesis B of at most one arm, and the challenger ``a2 = argmax_j u_{j a1}`` over every arm
(a1 included, u_{a1 a1} = 1/2) with ties to the lowest index.

Option ``hypothesis`` (docs/algorithms.md#rucb):

* "as-run" (default, the authors' C++): B is left alone while its arm is outside C (and favoured
  again if it re-enters C); with |C| > 1 and B in C, a1 = B with probability 1/2, otherwise a uniform
  position of C whose arm, if it is B, is replaced by its predecessor in C (by C[1] for position 0),
  so that predecessor gets twice the probability of the other arms.
* "original" (Zoghi et al. 2014): B <- B intersect C at every slot, and with |C| > 1 a1 = B with
  probability 1/2, otherwise a uniform arm of C \\ B (uniform over C when B is empty).

With |C| = 0 a1 is uniform over all arms and B is emptied; with |C| = 1 a1 and B are its arm.

Option ``skip`` (docs/algorithms.md#exact-skipping-of-self-comparison-runs): "off" (default, slot by
slot) or "exact": in the simulator, a run of self-comparisons (a, a) that nothing but ln t can end is
done in one step (``skip``); it does not draw the outcomes of the skipped slots, so the runs equal the
default ones in law, not bit for bit.

Cost: C is read from cached switch times (the ln t at which each u_ij reaches 1/2, refreshed when the
pair is compared), O(K) per slot; only the column u_{. a1} is evaluated.
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
    check_alpha,
    check_choice,
    check_skip,
    exact_skip_hook,
)
from dts_reproduction.algorithms.recommend import copeland_of_statistics
from dts_reproduction.core.argmax import fill_true, uniform_member
from dts_reproduction.core.bounds import (
    challenger_from_column,
    direct_upper_column,
    fill_direct_switches,
    refresh_direct_switches,
    update_pair,
)
from dts_reproduction.core.constants import ALPHA, PSEUDO_N, PSEUDO_W
from dts_reproduction.core.skipping import last_slot_before, record_self_run

HYPOTHESIS_AS_RUN, HYPOTHESIS_ORIGINAL = 0, 1
HYPOTHESES = {"as-run": HYPOTHESIS_AS_RUN, "original": HYPOTHESIS_ORIGINAL}
NO_ARM = -1


class RUCBState(NamedTuple):
    """State of RUCB.  Settings: ``alpha`` (confidence scale), ``hypothesis`` (HYPOTHESIS_AS_RUN or
    HYPOTHESIS_ORIGINAL), ``skip_runs`` (option skip="exact").  Arrays (K arms):"""

    comparisons: np.ndarray  # float64 (K, K): n_ij, comparisons of i against j (pseudo-count included)
    wins: np.ndarray  # float64 (K, K): w_ij, wins of i over j (pseudo-count included)
    alpha: float
    hypothesis: int
    skip_runs: bool
    hypothesis_arm: np.ndarray  # int64 (1,): the hypothesis B, NO_ARM (-1) if empty
    upper_switch: np.ndarray  # float64 (K, K): ln t from which u_ij >= 1/2 (``core.bounds.ucb_switch_log_t``)
    upper_switch_row_max: np.ndarray  # float64 (K,): row maxima of upper_switch (i in C iff ln t >= it)
    upper_column: np.ndarray  # scratch float64 (K,): the column u_{. a1}
    in_candidates: np.ndarray  # scratch bool (K,): the candidate set C as a mask
    candidates: np.ndarray  # scratch int64 (K,): C ascending, in the first |C| entries
    all_arms: np.ndarray  # bool (K,), all true


def init_rucb(K, horizon=None, alpha=ALPHA, hypothesis="as-run", skip=SKIP_OFF):
    """A fresh ``RUCBState``.

    alpha: confidence scale (> 0; warns if <= 0.5).  hypothesis: "as-run" or "original"; skip: "off"
    or "exact" (module doc).
    With the pseudo-counts every unseen pair has p-hat = 10, so every switch starts at -inf.
    """
    mode = HYPOTHESES[check_choice("hypothesis", hypothesis, tuple(HYPOTHESES))]
    return RUCBState(
        comparisons=np.full((K, K), PSEUDO_N),
        wins=np.full((K, K), PSEUDO_W),
        alpha=check_alpha(alpha),
        hypothesis=mode,
        skip_runs=check_skip(skip),
        hypothesis_arm=np.array([NO_ARM], dtype=np.int64),
        upper_switch=np.full((K, K), -np.inf),
        upper_switch_row_max=np.full(K, -np.inf),
        upper_column=np.zeros(K),
        in_candidates=np.zeros(K, np.bool_),
        candidates=np.zeros(K, np.int64),
        all_arms=fill_true(np.zeros(K, np.bool_)),
    )


def sync_rucb(state):
    """Recompute the switch-time cache and its row maxima from ``state.comparisons`` and ``state.wins``."""
    fill_direct_switches(state.comparisons, state.wins, state.alpha, state.upper_switch, state.upper_switch_row_max)


@njit(cache=True, inline="always")
def _first_arm(rng, in_c, c_list, size_c, mode, hypothesis, all_arms):
    """RUCB's first candidate (step 2 of Algorithm 1); updates B = hypothesis[0].

    in_c: bool (K,) the candidate set C; c_list: int64, its first ``size_c`` entries are C ascending;
    mode: HYPOTHESIS_AS_RUN or HYPOTHESIS_ORIGINAL.
    """
    if mode == HYPOTHESIS_ORIGINAL and hypothesis[0] != NO_ARM and not in_c[hypothesis[0]]:
        hypothesis[0] = NO_ARM
    if size_c == 0:
        hypothesis[0] = NO_ARM
        return uniform_member(rng, all_arms)
    if size_c == 1:
        hypothesis[0] = c_list[0]
        return c_list[0]
    b = hypothesis[0]
    if b == NO_ARM or not in_c[b]:
        return uniform_member(rng, in_c)
    if rng.random() < 0.5:
        return b
    if mode == HYPOTHESIS_ORIGINAL:
        in_c[b] = False
        a1 = uniform_member(rng, in_c)
        in_c[b] = True
        return a1
    k = rng.integers(0, size_c)
    if c_list[k] != b:
        return c_list[k]
    return c_list[k - 1] if k >= 1 else c_list[1]


@njit(cache=True)
def select(state, t, rng):
    """Choose (a1, a2) at slot t: C = {i : u_ij >= 1/2 for all j}, a1 from C and B, then
    a2 = argmax_j u_{j a1} with first-index ties (Zoghi et al. 2014, Algorithm 1; docs/algorithms.md#rucb), an arm
    counting as reaching u_{j a1} = 1/2 by its switch time, as for C (``core.bounds.challenger_from_column``)."""
    comparisons, wins, alpha, hypothesis = state.comparisons, state.wins, state.alpha, state.hypothesis
    hypothesis_arm, upper_switch_row_max = state.hypothesis_arm, state.upper_switch_row_max
    upper_column, in_candidates, candidates = state.upper_column, state.in_candidates, state.candidates
    all_arms = state.all_arms
    K = upper_switch_row_max.shape[0]
    log_t = math.log(t)
    size_c = 0
    for i in range(K):
        in_candidates[i] = log_t >= upper_switch_row_max[i]  # u_ij >= 1/2 for every j (cached switch times: O(K))
        if in_candidates[i]:
            candidates[size_c] = i
            size_c += 1
    a1 = _first_arm(rng, in_candidates, candidates, size_c, hypothesis, hypothesis_arm, all_arms)
    direct_upper_column(comparisons, wins, a1, log_t, alpha, upper_column)
    return a1, challenger_from_column(comparisons, wins, a1, log_t, alpha, upper_column)


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """The common pair update and the pair's cached switch times."""
    comparisons, wins, alpha, upper_switch = state.comparisons, state.wins, state.alpha, state.upper_switch
    upper_switch_row_max = state.upper_switch_row_max
    update_pair(comparisons, wins, a1, a2, a1_won)
    refresh_direct_switches(comparisons, wins, alpha, upper_switch, upper_switch_row_max, a1, a2)


@njit(cache=True)
def skip(state, t, rng, t_limit):
    """The run of self-comparisons from slot t in one step (option skip="exact"; ``core.simulate``).

    Algorithm 1 of Zoghi et al. with C = {a} (step 2: |C| = 1 gives a1 = a and B = {a}, no random
    draw) and a2 = argmax_j u_{j a} = a (step 3: no u_{j a} has reached 1/2, ln t below every cached
    upper_switch[j, a]) is the deterministic pair (a, a).  A self-comparison changes only the diagonal of (n, w),
    which no bound reads, so the pair stays (a, a) until ln t makes another arm i enter C (ln t reaches
    its cached row maximum) or some u_{j a} reach 1/2 (ln t reaches upper_switch[j, a]) -- or t_limit (a checkpoint, a
    delayed-feedback delivery, the horizon).  Returns (slots, a) for the slots t .. t + slots - 1, after
    the updates of those slots (the diagonal, ``record_self_run``; B = a); (0, -1) if slot t is not
    such a pair.  ``rng`` is not used: the pair needs no draw and a self-comparison's outcome changes
    nothing but w[a, a] += 1 either way.
    """
    comparisons, wins, hypothesis_arm = state.comparisons, state.wins, state.hypothesis_arm
    upper_switch, upper_switch_row_max = state.upper_switch, state.upper_switch_row_max
    K = comparisons.shape[0]
    log_t = math.log(t)
    a = -1
    for i in range(K):
        if log_t >= upper_switch_row_max[i]:
            if a >= 0:
                return 0, -1
            a = i
    if a < 0:
        return 0, -1
    end = t_limit
    for i in range(K):
        if i != a:
            end = min(end, last_slot_before(upper_switch_row_max[i], 0.0, end))
            end = min(end, last_slot_before(upper_switch[i, a], 0.0, end))
    if end < t:
        return 0, -1
    slots = end - t + 1
    hypothesis_arm[0] = a
    record_self_run(comparisons, wins, a, slots)
    return slots, a


def rucb_hypothesis(state) -> int:
    """RUCB: its hypothesis B (the arm it currently takes for the Condorcet winner), else the empirical
    Copeland winner."""
    arm = int(state.hypothesis_arm[0])
    return arm if arm >= 0 else copeland_of_statistics(state)


RUCB_SPEC = AlgorithmSpec(
    name="rucb", label="RUCB", init=init_rucb, select=select, update=update, sync=sync_rucb,
    skip=exact_skip_hook(skip), fast=EXACT_SKIP, color="#ff7f0e", marker="s",
    defaults={"alpha": ALPHA, "hypothesis": "as-run", "skip": SKIP_OFF},
    reference="Zoghi et al. ICML 2014, Algorithm 1 (RUCB), as run by Wu & Liu 2016",
    best_arm=rucb_hypothesis,
)


class RUCB(Policy):
    """RUCB as a live policy; parameters ``alpha`` (0.51) and ``hypothesis`` ("as-run" or "original");
    ``skip`` acts only in the simulator (a live policy selects slot by slot)."""

    spec = RUCB_SPEC
