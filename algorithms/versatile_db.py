"""Versatile-DB (Saha & Gaillard, ICML 2022, "Versatile Dueling Bandits: Best-of-both-World Analyses for Learning
from Relative Preferences"): the reduction of a dueling bandit to one multi-armed bandit learner, here Tsallis-INF
(``core.tsallis``) -- docs/algorithms.md#versatile-db.

One learner keeps cumulative loss estimates L_i (0 at the start).  Each slot t it plays the Tsallis-INF distribution
w of L at the learning rate eta_t, and draws both candidates x_t and y_t from w, independently (the two may be the
same arm).  The learner is then told a loss for x_t: 1 if x_t lost the duel, 0 if it won -- y_t, drawn from the
learner's own distribution, is the opponent that defines x_t's loss.  The recommendation is the arm of least
cumulative loss estimate, which is the arm of highest probability under the learner's distribution.

Options (docs/algorithms.md#versatile-db):

* ``estimate``: "importance-weighted" (default) with eta_t = 2 / sqrt(t), or "reduced-variance" with eta_t = 4 /
  sqrt(t) (Zimmert & Seldin's two estimates and their Theorem 1's rates).
* ``feedback``: "first" (default) feeds x_t's loss only; "both" feeds x_t's and y_t's (1 - x_t's) estimates, each
  halved, from the same distribution (the shared-learner variant of the public implementation).

Delay contract (docs/harness.md#feedback-delay): ``select`` writes only the scratch distribution (and the slot it
belongs to); the loss estimates change only in ``update``, which uses the distribution of the current estimates at
the learning rate of the comparison's slot t: the one ``select`` drew the pair from, reused if no update came between
them (with feedback at once, always), else recomputed (``tsallis_weights`` is a pure function of its inputs).
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from dts_reproduction.algorithms.base import AlgorithmSpec, Policy, check_choice
from dts_reproduction.core.categorical import categorical_draw
from dts_reproduction.core.records import record
from dts_reproduction.core.tsallis import LEARNING_RATE_SCALE, add_loss_estimate, learning_rate, tsallis_weights

FEEDBACK = ("first", "both")
NO_SLOT = 0  # the scratch distribution belongs to no slot (slots start at 1)
COUNTERS = np.dtype([("drawn_slot", np.int64)])  # the slot whose distribution ``probabilities`` holds, else NO_SLOT


class VersatileDBState(NamedTuple):
    """State of Versatile-DB.  Settings: ``scale`` (eta_t = scale / sqrt(t)), ``reduced_variance`` (the loss
    estimate), ``both`` (feed both candidates' estimates, halved).  Arrays (K arms):"""

    losses: np.ndarray  # float64 (K,): L_i, the learner's cumulative loss estimates
    scale: float
    reduced_variance: bool
    both: bool
    probabilities: np.ndarray  # scratch float64 (K,): the learner's distribution w of slot counters.drawn_slot
    counters: np.ndarray  # COUNTERS (1,)


def init_versatile_db(K, horizon=None, estimate="importance-weighted", feedback="first"):
    """A fresh ``VersatileDBState``: every loss estimate 0.  estimate: "importance-weighted" or "reduced-variance";
    feedback: "first" or "both" (module doc); ValueError naming the parameter otherwise."""
    scale = LEARNING_RATE_SCALE[check_choice("estimate", estimate, tuple(LEARNING_RATE_SCALE))]
    both = check_choice("feedback", feedback, FEEDBACK) == "both"
    return VersatileDBState(losses=np.zeros(K), scale=scale, reduced_variance=estimate == "reduced-variance",
                            both=both, probabilities=np.full(K, 1.0 / K), counters=record(COUNTERS, (NO_SLOT,)))


@njit(cache=True)
def select(state, t, rng):
    """The learner's distribution w of slot t (``tsallis_weights`` of L at eta_t), then x_t and y_t drawn from it
    independently, x_t first (one uniform each, ``categorical_draw``)."""
    losses, scale, probabilities, counters = state.losses, state.scale, state.probabilities, state.counters[0]
    tsallis_weights(losses, learning_rate(scale, t), probabilities)
    counters.drawn_slot = t
    first = categorical_draw(rng, probabilities)
    second = categorical_draw(rng, probabilities)
    return first, second


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """Feed the learner x_t = a1's loss (1 if a1 lost) as Tsallis-INF's estimate from w of slot t; with ``both``,
    half of it and half of y_t = a2's (1 if a2 lost) estimate from the same w."""
    losses, scale, reduced_variance, both = state.losses, state.scale, state.reduced_variance, state.both
    probabilities, counters = state.probabilities, state.counters[0]
    eta = learning_rate(scale, t)
    if counters.drawn_slot != t:
        tsallis_weights(losses, eta, probabilities)
    first_loss = 0.0 if a1_won else 1.0
    if both:
        add_loss_estimate(losses, probabilities, eta, a1, first_loss, reduced_variance, 0.5)
        add_loss_estimate(losses, probabilities, eta, a2, 1.0 - first_loss, reduced_variance, 0.5)
    else:
        add_loss_estimate(losses, probabilities, eta, a1, first_loss, reduced_variance, 1.0)
    counters.drawn_slot = NO_SLOT


def least_loss(state) -> int:
    """Versatile-DB's recommendation: the arm of least cumulative loss estimate, i.e. of highest probability under
    the learner's distribution at any learning rate (the lowest index on ties)."""
    return int(np.argmin(state.losses))


VERSATILE_DB_SPEC = AlgorithmSpec(
    name="versatile_db", label="Versatile-DB", init=init_versatile_db, select=select, update=update,
    defaults={"estimate": "importance-weighted", "feedback": "first"}, color="#ce6dbd", marker="3",
    best_arm=least_loss,
    reference="Saha & Gaillard ICML 2022 (Versatile-DB: one Tsallis-INF learner, x_t, y_t i.i.d. from it); "
              "Zimmert & Seldin JMLR 2021, Alg. 1-2 (Tsallis-INF, Newton normalisation)",
)


class VersatileDB(Policy):
    """Versatile-DB as a live policy; parameters ``estimate`` ("importance-weighted") and ``feedback`` ("first")."""

    spec = VERSATILE_DB_SPEC
