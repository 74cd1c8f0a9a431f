"""Sparring and MultiSBM (Ailon, Karnin & Joachims, ICML 2014) as run by Wu & Liu -- spec 3.12, 3.13.

Both reduce dueling to single-armed UCB bandits, the SBMs of ``core.sbm`` (spec 2.6, scale 3).

* Sparring: two SBMs, "left" and "right", each over all K arms.  a1 = left.pull(t), a2 = right.pull(t);
  the winner's SBM gets reward 1 for its arm, the loser's gets 0 (a fair coin decides a1 == a2).
* MultiSBM: K SBMs S_0..S_{K-1}; the current arm x starts uniform at random.  a1 = x,
  a2 = S_x.pull(t), S_x gets reward 1{a2 beats a1}, then x = a2.

Delay contract (spec 1.11): the SBM counters are statistics and change only in ``update``.  MultiSBM's
transition x = a2 does not depend on the outcome, so it is bookkeeping done in ``select``; the SBM that
receives the reward is S_{a1} (a1 is the x of the selecting slot).  MultiSBM's random initial x, drawn by
the C++ when the run starts, is drawn at the first ``select`` from the algorithm's generator (``init``
has no generator); the distribution is the same.

Deviation D9, option ``sbm_init``:
* "as-run" (default): an unplayed SBM arm has index exactly 1.0, so each SBM sticks to its lowest arm
  until that arm's index drops below 1.0 (at t = 1 Sparring plays (0, 0)); every SBM uses the global
  slot t as its clock.
* "original": an unplayed arm has index +inf, so every SBM plays each of its arms once first (lowest
  index first), as the UCB of Ailon et al. (and Komiyama's library).  For MultiSBM each S_x also runs on
  its own clock, the number of times it has been invoked (including the current one); for Sparring the
  own clock equals the global t, since both SBMs are invoked once per slot.
"""

import math

import numpy as np
from numba import njit

from algorithms.base import AlgorithmSpec, Policy, check_choice
from core.constants import SBM_SCALE
from core.sbm import new_sbm_arrays, sbm_pull, sbm_update

SBM_INITS = ("as-run", "original")


def _sbm_params(scale, sbm_init):
    """Validated (scale, unplayed_index, own_clock) for the SBMs; ValueError names a bad value."""
    scale = float(scale)
    if not math.isfinite(scale) or scale <= 0.0:
        raise ValueError(f"scale must be a finite number > 0, got {scale!r}")
    original = check_choice("sbm_init", sbm_init, SBM_INITS) == "original"
    return scale, (math.inf if original else 1.0), int(original)


def init_sparring(K, horizon=None, scale=SBM_SCALE, sbm_init="as-run"):
    """State of Sparring: (cnt (2, K), sm (2, K), reals [scale, unplayed index]).

    Row 0 is the left SBM, row 1 the right one.  scale: SBM scale factor (> 0, default 3);
    sbm_init: "as-run" or "original" (see the module docstring, deviation D9).
    """
    scale, unplayed, _ = _sbm_params(scale, sbm_init)
    cnt, sm = new_sbm_arrays(2, K)
    return cnt, sm, np.array([scale, unplayed])


@njit(cache=True)
def select_sparring(state, t, rng):
    """Sparring at slot t (spec 3.12): a1 = left.pull(t), a2 = right.pull(t).  Uses no randomness."""
    cnt, sm, reals = state
    a1 = sbm_pull(cnt[0], sm[0], t, reals[0], reals[1])
    a2 = sbm_pull(cnt[1], sm[1], t, reals[0], reals[1])
    return a1, a2


@njit(cache=True)
def update_sparring(state, a1, a2, a1_won, t):
    """Reward routing (spec 3.12): left gets 1{a1 won} for a1, right gets 1{a2 won} for a2."""
    cnt, sm, _ = state
    sbm_update(cnt[0], sm[0], a1, 1.0 if a1_won else 0.0)
    sbm_update(cnt[1], sm[1], a2, 0.0 if a1_won else 1.0)


def init_multisbm(K, horizon=None, scale=SBM_SCALE, sbm_init="as-run"):
    """State of MultiSBM: (cnt (K, K), sm (K, K), reals [scale, unplayed index],
    ints [current arm x (-1 until the first select), own-clock flag], invocations per SBM (K,) int64).

    Row x of cnt/sm is the SBM S_x.  scale: SBM scale factor (> 0, default 3); sbm_init: "as-run" or
    "original" (see the module docstring, deviation D9).
    """
    scale, unplayed, own_clock = _sbm_params(scale, sbm_init)
    cnt, sm = new_sbm_arrays(K, K)
    return (cnt, sm, np.array([scale, unplayed]), np.array([-1, own_clock], dtype=np.int64),
            np.zeros(K, np.int64))


@njit(cache=True)
def select_multisbm(state, t, rng):
    """MultiSBM at slot t (spec 3.13): a1 = x, a2 = S_x.pull(clock), then x = a2 (bookkeeping).

    The clock is the global t as run, or S_x's own invocation count with sbm_init="original".
    """
    cnt, sm, reals, ints, calls = state
    x = ints[0]
    if x < 0:
        x = rng.integers(0, cnt.shape[0])
    calls[x] += 1
    clock = calls[x] if ints[1] else t
    a2 = sbm_pull(cnt[x], sm[x], clock, reals[0], reals[1])
    ints[0] = a2
    return x, a2


@njit(cache=True)
def update_multisbm(state, a1, a2, a1_won, t):
    """Reward routing (spec 3.13): S_{a1} gets reward 1{a2 beats a1} for its arm a2."""
    cnt, sm = state[0], state[1]
    sbm_update(cnt[a1], sm[a1], a2, 0.0 if a1_won else 1.0)


SPARRING_SPEC = AlgorithmSpec(
    name="sparring", label="Sparring", init=init_sparring, select=select_sparring,
    color="#8c564b", marker="P",
    update=update_sparring, defaults={"scale": SBM_SCALE, "sbm_init": "as-run"},
    reference="Ailon, Karnin & Joachims 2014, Sparring with UCB SBMs (authors' Alg_Sparring.cpp)",
)
MULTISBM_SPEC = AlgorithmSpec(
    name="multisbm", label="MultiSBM", init=init_multisbm, select=select_multisbm,
    color="#c49c94", marker="d",
    update=update_multisbm, defaults={"scale": SBM_SCALE, "sbm_init": "as-run"},
    reference="Ailon, Karnin & Joachims 2014, MultiSBM with UCB SBMs (authors' Alg_MultiSBM.cpp)",
)


class Sparring(Policy):
    """Sparring as a live policy; parameters ``scale`` (3.0) and ``sbm_init`` ("as-run" or "original")."""

    spec = SPARRING_SPEC


class MultiSBM(Policy):
    """MultiSBM as a live policy; parameters ``scale`` (3.0) and ``sbm_init`` ("as-run" or "original")."""

    spec = MULTISBM_SPEC
