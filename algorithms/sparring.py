"""Sparring and MultiSBM (Ailon, Karnin & Joachims, ICML 2014) as run by Wu & Liu --
docs/algorithms.md#sparring and #multisbm.

Both reduce dueling to single-armed UCB bandits, the SBMs of ``core.sbm`` (docs/algorithms.md#sparring, scale 3).

* Sparring: two SBMs, "left" and "right", each over all K arms.  a1 = left.pull(t), a2 = right.pull(t);
  the winner's SBM gets reward 1 for its arm, the loser's gets 0 (a fair coin decides a1 == a2).
* MultiSBM: K SBMs S_0..S_{K-1}; the current arm x starts uniform at random.  a1 = x,
  a2 = S_x.pull(t), S_x gets reward 1{a2 beats a1}, then x = a2.

Delay contract (docs/harness.md#feedback-delay): the SBM counters are statistics and change only in
``update``.  MultiSBM's transition x = a2 does not depend on the outcome, so it is bookkeeping done in
``select``; the SBM that receives the reward is S_{a1} (a1 is the x of the selecting slot).  MultiSBM's
random initial x, drawn by the C++ when the run starts, is drawn at the first ``select`` from the
algorithm's generator (``init`` has no generator); the distribution is the same.

Deviation option ``sbm_init`` (docs/algorithms.md#sparring):
* "as-run" (default): an unplayed SBM arm has index exactly 1.0, so each SBM sticks to its lowest arm
  until that arm's index drops below 1.0 (at t = 1 Sparring plays (0, 0)); every SBM uses the global
  slot t as its clock.
* "original": an unplayed arm has index +inf, so every SBM plays each of its arms once first (lowest
  index first), as the UCB of Ailon et al. (and Komiyama's library).  For MultiSBM each S_x also runs on
  its own clock, the number of times it has been invoked (including the current one); for Sparring the
  own clock equals the global t, since both SBMs are invoked once per slot.
"""

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from dts_reproduction.algorithms.base import AlgorithmSpec, Policy, check_choice, check_positive
from dts_reproduction.core.constants import SBM_SCALE
from dts_reproduction.core.sbm import new_sbm_arrays, sbm_pull, sbm_update

SBM_INITS = ("as-run", "original")


class SparringState(NamedTuple):
    """State of Sparring: two SBMs, row 0 the left one (picks a1), row 1 the right one (picks a2).
    Settings: ``scale`` (SBM scale factor), ``unplayed_index`` (index of an unplayed arm: 1.0 as run,
    +inf original)."""

    plays: np.ndarray  # float64 (2, K): cnt, plays of each arm by each SBM (pseudo-count included)
    reward_sums: np.ndarray  # float64 (2, K): sm, reward sum of each arm in each SBM (pseudo-count included)
    scale: float
    unplayed_index: float


class MultiSBMState(NamedTuple):
    """State of MultiSBM: K SBMs, row x is S_x.  Settings: ``scale``, ``unplayed_index`` as for
    Sparring, ``own_clock`` (each S_x runs on its own invocation count instead of the global t)."""

    plays: np.ndarray  # float64 (K, K): cnt of each SBM (pseudo-count included)
    reward_sums: np.ndarray  # float64 (K, K): sm of each SBM (pseudo-count included)
    scale: float
    unplayed_index: float
    own_clock: bool
    current_arm: np.ndarray  # int64 (1,): x, -1 until the first select
    invocations: np.ndarray  # int64 (K,): times each S_x was asked for an arm


def _sbm_params(scale, sbm_init):
    """Validated (scale, unplayed_index, own_clock) for the SBMs; ValueError names a bad value."""
    scale = check_positive("scale", scale)
    original = check_choice("sbm_init", sbm_init, SBM_INITS) == "original"
    return scale, (math.inf if original else 1.0), original


def init_sparring(K, horizon=None, scale=SBM_SCALE, sbm_init="as-run"):
    """A fresh ``SparringState``.  scale: SBM scale factor (> 0, default 3); sbm_init: "as-run" or
    "original" (module doc)."""
    scale, unplayed, _ = _sbm_params(scale, sbm_init)
    cnt, sm = new_sbm_arrays(2, K)
    return SparringState(plays=cnt, reward_sums=sm, scale=scale, unplayed_index=unplayed)


@njit(cache=True)
def select_sparring(state, t, rng):
    """Sparring at slot t (docs/algorithms.md#sparring): a1 = left.pull(t), a2 = right.pull(t).  Uses no randomness."""
    plays, reward_sums, scale, unplayed_index = state.plays, state.reward_sums, state.scale, state.unplayed_index
    a1 = sbm_pull(plays[0], reward_sums[0], t, scale, unplayed_index)
    a2 = sbm_pull(plays[1], reward_sums[1], t, scale, unplayed_index)
    return a1, a2


@njit(cache=True)
def update_sparring(state, a1, a2, a1_won, t):
    """Reward routing (docs/algorithms.md#sparring): left gets 1{a1 won} for a1, right gets 1{a2 won} for a2."""
    plays, reward_sums = state.plays, state.reward_sums
    sbm_update(plays[0], reward_sums[0], a1, 1.0 if a1_won else 0.0)
    sbm_update(plays[1], reward_sums[1], a2, 0.0 if a1_won else 1.0)


def init_multisbm(K, horizon=None, scale=SBM_SCALE, sbm_init="as-run"):
    """A fresh ``MultiSBMState``.  scale: SBM scale factor (> 0, default 3); sbm_init: "as-run" or
    "original" (module doc)."""
    scale, unplayed, own_clock = _sbm_params(scale, sbm_init)
    cnt, sm = new_sbm_arrays(K, K)
    return MultiSBMState(plays=cnt, reward_sums=sm, scale=scale, unplayed_index=unplayed, own_clock=own_clock,
                         current_arm=np.array([-1], dtype=np.int64), invocations=np.zeros(K, np.int64))


@njit(cache=True)
def select_multisbm(state, t, rng):
    """MultiSBM at slot t (docs/algorithms.md#multisbm): a1 = x, a2 = S_x.pull(clock), then x = a2 (bookkeeping).

    The clock is the global t as run, or S_x's own invocation count with sbm_init="original".
    """
    plays, reward_sums, scale, unplayed_index = state.plays, state.reward_sums, state.scale, state.unplayed_index
    own_clock, current_arm, invocations = state.own_clock, state.current_arm, state.invocations
    x = current_arm[0]
    if x < 0:
        x = rng.integers(0, plays.shape[0])
    invocations[x] += 1
    clock = invocations[x] if own_clock else t
    a2 = sbm_pull(plays[x], reward_sums[x], clock, scale, unplayed_index)
    current_arm[0] = a2
    return x, a2


@njit(cache=True)
def update_multisbm(state, a1, a2, a1_won, t):
    """Reward routing (docs/algorithms.md#multisbm): S_{a1} gets reward 1{a2 beats a1} for its arm a2."""
    plays, reward_sums = state.plays, state.reward_sums
    sbm_update(plays[a1], reward_sums[a1], a2, 0.0 if a1_won else 1.0)


def sparring_left(state) -> int:
    """Sparring: the arm the left SBM (the one that picks a1) played most."""
    return int(np.argmax(state.plays[0]))


def multisbm_most_played(state) -> int:
    """MultiSBM: the arm played most over all its SBMs."""
    return int(np.argmax(np.asarray(state.plays).sum(axis=0)))


SPARRING_SPEC = AlgorithmSpec(
    name="sparring", label="Sparring", init=init_sparring, select=select_sparring,
    color="#8c564b", marker="P",
    update=update_sparring, defaults={"scale": SBM_SCALE, "sbm_init": "as-run"},
    reference="Ailon, Karnin & Joachims 2014, Sparring with UCB SBMs (authors' Alg_Sparring.cpp)",
    best_arm=sparring_left,
)
MULTISBM_SPEC = AlgorithmSpec(
    name="multisbm", label="MultiSBM", init=init_multisbm, select=select_multisbm,
    color="#c49c94", marker="d",
    update=update_multisbm, defaults={"scale": SBM_SCALE, "sbm_init": "as-run"},
    reference="Ailon, Karnin & Joachims 2014, MultiSBM with UCB SBMs (authors' Alg_MultiSBM.cpp)",
    best_arm=multisbm_most_played,
)


class Sparring(Policy):
    """Sparring as a live policy; parameters ``scale`` (3.0) and ``sbm_init`` ("as-run" or "original")."""

    spec = SPARRING_SPEC


class MultiSBM(Policy):
    """MultiSBM as a live policy; parameters ``scale`` (3.0) and ``sbm_init`` ("as-run" or "original")."""

    spec = MULTISBM_SPEC
