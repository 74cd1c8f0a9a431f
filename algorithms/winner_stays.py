"""Winner Stays (Chen & Frazier, ICML 2017, "Dueling Bandits with Weak Regret"): WS-W (Algorithm 1, for weak regret)
and WS-S (Algorithm 2, for strong regret) -- docs/algorithms.md#winner-stays.

Every arm i has a score C_i, its wins minus its losses (0 at the start).  WS-W plays the pair of the two highest
scores and keeps what it played: the first arm x_t is x_{t-1} if it still has the highest score, else y_{t-1} if that
one has, else one of the highest uniformly at random; the second arm y_t is, among the other arms, x_{t-1} or else
y_{t-1} if it has the highest score among them, else one of them uniformly at random.  The winner's score goes up by
one, the loser's down by one.  In effect the winner of a duel stays and meets a new challenger when its opponent
falls behind the arms it has not met in the round (the paper's rounds and iterations).  Only the first pair and each
new challenger are drawn (``core.argmax.argmax_uniform``: one integer of the run's generator, only among ties).

WS-S runs WS-W in rounds r = 1, 2, ...: an exploration phase of WS-W until round r of WS-W is over, that is until
the highest score reaches r (K - 1) (every other arm has then lost r times more than it won), then an exploitation
phase of floor(beta^r) slots comparing the arm of the highest score with itself.  WS-W's memory of its previous pair
is its own: exploitation does not change it.  A self-duel changes no score.

WS-S's option ``skip`` (docs/algorithms.md#winner-stays): "off" (default, slot by slot) or "exact": in the simulator
the rest of an exploitation phase is done in one step (``skip``): its length is fixed when it starts, its pair does not
depend on any outcome and it draws nothing, so the runs equal the default ones in law (the skipped slots' outcomes are
not drawn), not bit for bit.

Delay contract (docs/harness.md#feedback-delay): ``select`` changes the bookkeeping only (the previous pair, the
round, the exploitation left); the scores change only in ``update``; with delayed feedback the phases and pairs
follow the scores delivered so far.
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
from dts_reproduction.core.argmax import argmax_uniform, fill_true
from dts_reproduction.core.constants import WS_S_BETA
from dts_reproduction.core.records import record

NO_ARM = -1
# The changing scalars: WS-W's previous pair (x_{t-1}, y_{t-1}; NO_ARM before the first slot), and WS-S's round r,
# the slots left in its exploitation phase and the arm it exploits.
COUNTERS = np.dtype([("first", np.int64), ("second", np.int64), ("round_index", np.int64), ("exploit_left", np.int64),
                     ("leader", np.int64)])


class WinnerStaysState(NamedTuple):
    """State of WS-W and WS-S.  Settings: ``strong`` (WS-S: rounds of exploration and exploitation), ``beta``
    (WS-S's growth of the exploitation phases).  Arrays (K arms):"""

    scores: np.ndarray  # int64 (K,): C_i, wins minus losses of arm i
    strong: bool
    beta: float
    counters: np.ndarray  # COUNTERS (1,): the previous pair, the round, the exploitation left and its arm, by name
    others: np.ndarray  # scratch bool (K,): the arms other than x_t (all true between calls)
    skip_runs: bool  # WS-S's option skip="exact" (``skip``)


def new_state(K, strong, beta, skip_runs=False):
    """A fresh ``WinnerStaysState``: every score 0, no previous pair, round 1, no exploitation under way."""
    return WinnerStaysState(scores=np.zeros(K, np.int64), strong=strong, beta=beta,
                            counters=record(COUNTERS, (NO_ARM, NO_ARM, 1, 0, NO_ARM)),
                            others=fill_true(np.empty(K, np.bool_)), skip_runs=skip_runs)


def init_ws_w(K, horizon=None):
    """A fresh WS-W state (WS-W has no parameter)."""
    return new_state(K, False, 0.0)


def init_ws_s(K, horizon=None, beta=WS_S_BETA, skip=SKIP_OFF):
    """A fresh WS-S state; beta: a finite number > 1, skip: "off" or "exact" (ValueError naming it otherwise)."""
    value = check_positive("beta", beta)
    if value <= 1.0:
        raise ValueError(f"beta must be a finite number > 1, got {value!r}")
    return new_state(K, True, value, check_skip(skip))


@njit(cache=True)
def _stays(scores, arm, top):
    """Whether ``arm`` (NO_ARM: none) is an arm and has the score ``top``."""
    return arm != NO_ARM and scores[arm] == top


@njit(cache=True)
def ws_w_pair(scores, others, counters, rng):
    """WS-W's pair (Chen & Frazier Alg. 1): x_t among the highest scores, y_t among the highest of the others,
    each preferring x_{t-1}, then y_{t-1}, then uniform among the ties; records them as the previous pair."""
    first, second = counters.first, counters.second
    top = np.max(scores)
    if _stays(scores, first, top):
        x = first
    elif _stays(scores, second, top):
        x = second
    else:
        x = argmax_uniform(rng, scores, others)
    others[x] = False
    runner_up = -INT64_MAX
    for i in range(scores.shape[0]):
        if others[i] and scores[i] > runner_up:
            runner_up = scores[i]
    if first != x and _stays(scores, first, runner_up):
        y = first
    elif second != x and _stays(scores, second, runner_up):
        y = second
    else:
        y = argmax_uniform(rng, scores, others)
    others[x] = True
    counters.first = x
    counters.second = y
    return x, y


@njit(cache=True)
def select(state, t, rng):
    """WS-W: ``ws_w_pair``.  WS-S (Chen & Frazier Alg. 2): while an exploitation phase lasts, the pair (L, L) of
    its arm L; when the exploration of round r is over (the highest score reaches r (K - 1)), an exploitation phase of
    floor(beta^r) slots of the arm of the highest score begins, and round r + 1 with the slot after it; else
    ``ws_w_pair``."""
    scores, strong, beta, others, counters = state.scores, state.strong, state.beta, state.others, state.counters[0]
    if strong:
        if counters.exploit_left == 0 and np.max(scores) >= counters.round_index * (scores.shape[0] - 1):
            counters.leader = np.argmax(scores)
            counters.exploit_left = exploitation_slots(beta, counters.round_index)
            counters.round_index += 1
        if counters.exploit_left > 0:
            counters.exploit_left -= 1
            return counters.leader, counters.leader
    return ws_w_pair(scores, others, counters, rng)


@njit(cache=True)
def skip(state, t, rng, t_limit):
    """WS-S's skip (option skip="exact"; ``core.simulate``): while an exploitation phase lasts, ``select`` returns
    its pair (L, L) and counts one slot down, whatever the scores, and draws nothing; so the slots t .. t + slots - 1,
    slots = min(the phase's slots left, t_limit - t + 1), are its slots, done at once.  Returns (slots, L), or (0, -1)
    when no phase is under way at slot t (``select`` then checks whether one starts).  ``rng`` is unused."""
    counters, strong = state.counters[0], state.strong
    if not strong or counters.exploit_left == 0:
        return 0, -1
    slots = min(counters.exploit_left, t_limit - t + 1)
    counters.exploit_left -= slots
    return slots, counters.leader


@njit(cache=True)
def exploitation_slots(beta, round_index):
    """floor(beta^r), the length of WS-S's exploitation phase of round r (at most 2^62)."""
    return int(math.floor(min(beta**round_index, 2.0**62)))


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """C_winner += 1 and C_loser -= 1 (nothing for a self-duel, whose +1 and -1 fall on one arm)."""
    scores = state.scores
    if a1 == a2:
        return
    winner, loser = (a1, a2) if a1_won else (a2, a1)
    scores[winner] += 1
    scores[loser] -= 1


def current_winner(state) -> int:
    """Winner Stays' recommendation: the arm of the highest score, the one WS-W would keep first (x_{t-1}, then
    y_{t-1}), else the lowest index."""
    scores, counters = np.asarray(state.scores), state.counters[0]
    top = scores.max()
    for arm in (int(counters["first"]), int(counters["second"])):
        if arm != NO_ARM and scores[arm] == top:
            return arm
    return int(np.argmax(scores))


WS_W_SPEC = AlgorithmSpec(
    name="ws_w", label="WS-W", init=init_ws_w, select=select, update=update, color="#637939", marker="2",
    best_arm=current_winner,
    reference="Chen & Frazier ICML 2017, Alg. 1 (WS-W)",
)
WS_S_SPEC = AlgorithmSpec(
    name="ws_s", label="WS-S", init=init_ws_s, select=select, update=update, skip=exact_skip_hook(skip),
    fast=EXACT_SKIP, defaults={"beta": WS_S_BETA, "skip": SKIP_OFF},
    color="#843c39", marker="1", best_arm=current_winner, reference="Chen & Frazier ICML 2017, Alg. 2 (WS-S)",
)


class WinnerStaysWeak(Policy):
    """WS-W as a live policy (no parameter)."""

    spec = WS_W_SPEC


class WinnerStaysStrong(Policy):
    """WS-S as a live policy; parameter ``beta`` (1.05); ``skip`` acts only in the simulator."""

    spec = WS_S_SPEC
