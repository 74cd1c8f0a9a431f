"""Beat-the-Mean (BTM; Yue & Joachims, ICML 2011, online version) as the D-TS authors ran it -- docs/algorithms.md#btm.

Explore-then-exploit: the horizon T enters the confidence radius through delta = 1/(2KT).

State: the active list W (arm ids in their original order; an elimination keeps the order of the
others) and role-specific counters ``nb[i, j]`` (comparisons in which i was the *first* arm against j)
and ``wb[i, j]`` (wins of i in them).  There is no symmetric update.  The sums over W of step 1 are kept
up to date (``update`` adds to them when the opponent is in W; an elimination subtracts the eliminated
arm's column), so a slot costs O(K) instead of O(K^2); integer counts make this exact.  Each slot,
while |W| > 1:

1. for i in W: ``N_i = sum_{j in W} nb[i, j]``, ``S_i = sum_{j in W} wb[i, j]`` (comparisons against
   eliminated arms are dropped), ``P_i = S_i / N_i`` (1/2 if N_i = 0);
2. ``a1 = argmin_{i in W} N_i`` (uniform tie-break), ``a2`` uniform over W (may equal a1: the outcome
   is then a fair coin);
3. elimination test with the values of step 1: ``c = 3 gamma^2 sqrt(ln(2KT) / N_a1)`` (1 if N_a1 = 0);
   ``arg`` is the first strict minimum of P over W in list order; if ``P_min + c <= P_max - c``, remove
   ``arg`` from W.  When |W| = 1 the only arm is played against itself forever.

Delay contract (docs/harness.md#feedback-delay).  In the C++ the counters of the played pair are incremented between the
choice and the elimination test, but the test reads only the values of step 1 (the statistics before
the current slot), never the counters.  ``select`` therefore runs steps 1-3 itself, the test right
after the choice, and ``update`` only increments ``nb``/``wb``: the two commute, so for delay 1 the
sequence of W, a1 and a2 is exactly the as-run algorithm's.  The C++ stops updating once |W| = 1;
here ``update`` keeps counting, which changes nothing because W can no longer change and the counters
are never read again.

Deviation option (docs/algorithms.md#btm):
  faithful_bug=True (default, as run): the maximum of P is computed with the authors' indexing bug --
    while scanning position k of W, whenever the value of the arm at position k exceeds the running
    maximum (started at 0), the running maximum becomes the value stored under arm *id* k, which after
    the first elimination may belong to another arm or be the stale value of an eliminated arm.
  faithful_bug=False: the corrected maximum over the arms in W (Yue & Joachims' algorithm).
The other as-run choices (width 3 gamma^2 with gamma = 1.3, opponent drawn from W including a1) are
the original paper's and are not options.
"""

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from dts_reproduction.algorithms.base import AlgorithmSpec, Policy, check_positive
from dts_reproduction.core.argmax import argmax_uniform
from dts_reproduction.core.constants import BTM_CONFIDENCE_SCALE, BTM_GAMMA


class BTMState(NamedTuple):
    """State of BTM.  Settings: ``radius_scale`` 3 gamma^2, ``log_term`` ln(2KT), ``faithful_bug``."""

    first_counts: np.ndarray  # int64 (K, K): nb_ij, comparisons in which i was the first arm against j
    first_wins: np.ndarray  # int64 (K, K): wb_ij, wins of i in them
    active: np.ndarray  # int64 (K,): the list W in its first active_size[0] entries
    in_active: np.ndarray  # bool (K,): W as a mask
    p_hat: np.ndarray  # float64 (K,): the last computed P_i of every arm
    neg_count: np.ndarray  # scratch int64 (K,): -N_i
    radius_scale: float
    log_term: float
    faithful_bug: bool
    active_size: np.ndarray  # int64 (1,): |W|
    count_in_active: np.ndarray  # int64 (K,): N_i = sum over j in W of nb_ij
    wins_in_active: np.ndarray  # int64 (K,): S_i = sum over j in W of wb_ij


def init_btm(K, horizon, gamma=BTM_GAMMA, faithful_bug=True):
    """A fresh ``BTMState`` for K arms and horizon T (W = all arms in index order).

    gamma: relaxed-stochastic-transitivity factor (finite, > 0; the paper uses 1.3).
    faithful_bug: replicate the authors' max-indexing bug (True, default) or not (see module doc).
    """
    gamma = check_positive("gamma", gamma)
    if not isinstance(faithful_bug, (bool, np.bool_)):
        raise ValueError(f"faithful_bug must be True or False, got {faithful_bug!r}")
    return BTMState(
        first_counts=np.zeros((K, K), np.int64),
        first_wins=np.zeros((K, K), np.int64),
        active=np.arange(K, dtype=np.int64),
        in_active=np.ones(K, np.bool_),
        p_hat=np.full(K, 0.5),
        neg_count=np.zeros(K, np.int64),
        radius_scale=BTM_CONFIDENCE_SCALE * gamma * gamma,
        log_term=math.log(2.0 * K * horizon),
        faithful_bug=bool(faithful_bug),
        active_size=np.array([K], dtype=np.int64),
        count_in_active=np.zeros(K, np.int64),
        wins_in_active=np.zeros(K, np.int64),
    )


@njit(cache=True)
def active_statistics(count_w, wins_w, active, size, phat, neg_count):
    """Step 1: for every arm i of W = active[:size], ``neg_count[i] = -N_i`` and ``phat[i] = S_i/N_i``
    (1/2 if N_i = 0), from the running sums N_i = count_w[i], S_i = wins_w[i] over the opponents in W
    (self-comparisons included)."""
    for p in range(size):
        i = active[p]
        neg_count[i] = -count_w[i]
        phat[i] = wins_w[i] / count_w[i] if count_w[i] > 0 else 0.5


@njit(cache=True)
def elimination_candidate(active, size, phat, n_star, scale, log_term, faithful_bug):
    """Step 3: the arm to remove from W = active[:size], or -1.

    radius c = 1 if n_star == 0, else ``scale * sqrt(log_term / n_star)``; P_min is the first strict
    minimum of ``phat`` over W in list order (started at 1), P_max its maximum (started at 0), read
    through the authors' id/position bug if ``faithful_bug``.  Removes nothing unless
    ``P_min + c <= P_max - c``.
    """
    radius = 1.0 if n_star == 0 else scale * math.sqrt(log_term / n_star)
    p_min = 1.0
    p_max = 0.0
    arg = -1
    for k in range(size):
        value = phat[active[k]]
        if value < p_min:
            p_min = value
            arg = active[k]
        if value > p_max:
            p_max = phat[k] if faithful_bug else value
    if arg >= 0 and p_min + radius <= p_max - radius:
        return arg
    return -1


@njit(cache=True)
def select(state, t, rng):
    """Choose (a1, a2) at slot t and run the elimination test on the pre-slot statistics (module doc)."""
    first_counts, first_wins, active, in_active = state.first_counts, state.first_wins, state.active, state.in_active
    p_hat, neg_count, radius_scale, log_term = state.p_hat, state.neg_count, state.radius_scale, state.log_term
    faithful_bug, active_size, count_in_active = state.faithful_bug, state.active_size, state.count_in_active
    wins_in_active = state.wins_in_active
    size = active_size[0]
    if size == 1:
        return active[0], active[0]
    active_statistics(count_in_active, wins_in_active, active, size, p_hat, neg_count)
    a1 = argmax_uniform(rng, neg_count, in_active)
    a2 = active[rng.integers(0, size)]
    loser = elimination_candidate(active, size, p_hat, -neg_count[a1], radius_scale, log_term,
                                  faithful_bug)
    if loser >= 0:
        in_active[loser] = False
        for i in range(in_active.shape[0]):
            count_in_active[i] -= first_counts[i, loser]
            wins_in_active[i] -= first_wins[i, loser]
        k = 0
        for p in range(size):
            if active[p] != loser:
                active[k] = active[p]
                k += 1
        active_size[0] = size - 1
    return a1, a2


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """One more comparison with a1 as the first arm against a2, and a win for a1 if it won; the sums over
    W move with them when a2 is still in W (an arm eliminated meanwhile no longer counts)."""
    first_counts, first_wins, in_active = state.first_counts, state.first_wins, state.in_active
    count_in_active, wins_in_active = state.count_in_active, state.wins_in_active
    in_w = in_active[a2]
    first_counts[a1, a2] += 1
    count_in_active[a1] += in_w
    if a1_won:
        first_wins[a1, a2] += 1
        wins_in_active[a1] += in_w


def btm_best_active(state) -> int:
    """BTM: the arm of the working set W with the highest empirical win rate against W, P_i = S_i / N_i (1/2
    for N_i = 0): the arm BTM keeps when W shrinks to one."""
    counts = np.asarray(state.count_in_active, dtype=np.float64)
    rate = np.divide(np.asarray(state.wins_in_active, dtype=np.float64), counts, out=np.full(counts.shape, 0.5),
                     where=counts > 0)
    return int(np.argmax(np.where(state.in_active, rate, -np.inf)))


BTM_SPEC = AlgorithmSpec(
    name="btm", label="BTM", init=init_btm, select=select, update=update,
    color="#7f7f7f", marker="v",
    defaults={"gamma": BTM_GAMMA, "faithful_bug": True},
    needs_horizon=True,
    reference="Yue & Joachims 2011, Beat-the-Mean (online), as run by Wu & Liu 2016 (docs/algorithms.md#btm)",
    best_arm=btm_best_active,
)


class BTM(Policy):
    """Beat-the-Mean as a live policy (see ``Policy``); needs ``horizon``; parameters ``gamma`` (1.3)
    and ``faithful_bug`` (True: the authors' max-indexing bug; False: corrected)."""

    spec = BTM_SPEC
