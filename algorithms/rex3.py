"""REX3, Relative Exponential-weight algorithm for Exploration and Exploitation (Gajane, Urvoy & Clerot, ICML 2015,
"A Relative Exponential Weighing Algorithm for Adversarial Utility-based Dueling Bandits", Algorithm 1), as the
MergeDTS authors ran it as their adversarial baseline (chang-li/MergeDTS ``dueling_bandits/rex3.py``, commit 296f3e2,
``demo.py``'s 'REX3') -- docs/algorithms.md#rex3.

Every arm i has a weight w_i = 1 at the start (kept as ln w_i, so that no weight overflows or underflows).  A slot
mixes the normalised weights with the uniform distribution, p_i = (1 - gamma) w_i / sum_j w_j + gamma / K, and draws
a1 and a2 independently from p (the two may be the same arm).  A duel of two different arms multiplies the winner's
weight by exp(c gamma / (K p_winner)) and the loser's by exp(-c gamma / (K p_loser)); a self-duel changes nothing.

Options (docs/algorithms.md#rex3):

* ``gamma``: None (default, as run) is the MergeDTS authors' adaptive rate gamma_t = min(1/2, sqrt(K ln K /
  max(t, 1e4))), the horizon-tuned gamma = min(1/2, sqrt(K ln K / T)) of the REX3 authors' own library
  (TanguyUrvoy/pmlib) with T replaced by the slot (never below 1e4); a number in (0, 1/2] is a fixed gamma, as in the
  paper's Algorithm 1.
* ``estimate``: "as-run" (default) steps by c = 1, as the MergeDTS authors' code does; "paper" by c = 1/2, the
  paper's reward estimate +-psi / (2 p_i), which makes the step an unbiased estimate of the arm's reward relative to
  the strategy's own.

Delay contract (docs/harness.md#feedback-delay): ``select`` writes only a scratch array; the weights change only in
``update``, which uses the probabilities of the current weights at the exploration rate of the comparison's slot t
(with feedback at once, exactly those the pair was drawn from).
"""

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from dts_reproduction.algorithms.base import AlgorithmSpec, Policy, check_choice
from dts_reproduction.core.categorical import categorical_draw
from dts_reproduction.core.constants import REX3_GAMMA_CAP, REX3_GAMMA_MIN_SLOTS

# The reward estimate's step c: the MergeDTS authors' +-1/p (as run) or the paper's +-1/(2p).
ESTIMATES = {"as-run": 1.0, "paper": 0.5}


class Rex3State(NamedTuple):
    """State of REX3.  Settings: ``gamma`` (the fixed exploration rate; unused when ``adaptive``), ``adaptive`` (the
    MergeDTS authors' gamma_t), ``step`` (c of the reward estimate).  Arrays (K arms):"""

    log_weights: np.ndarray  # float64 (K,): ln w_i
    gamma: float
    adaptive: bool
    step: float
    probabilities: np.ndarray  # scratch float64 (K,): the sampling distribution p of the slot


def check_gamma(gamma):
    """``gamma`` as given if None (adaptive), else as a float; ValueError naming it unless a number in (0, 1/2]."""
    if gamma is None:
        return None
    try:
        if isinstance(gamma, (bool, np.bool_, str, bytes)):
            raise TypeError
        value = float(gamma)
    except (TypeError, ValueError):
        raise ValueError(f"gamma must be None (adaptive) or a number in (0, {REX3_GAMMA_CAP}], got {gamma!r}") from None
    if not 0.0 < value <= REX3_GAMMA_CAP:
        raise ValueError(f"gamma must be None (adaptive) or a number in (0, {REX3_GAMMA_CAP}], got {gamma!r}")
    return value


def init_rex3(K, horizon=None, gamma=None, estimate="as-run"):
    """A fresh ``Rex3State``: every weight 1.  gamma: None (adaptive, as run) or a fixed number in (0, 1/2];
    estimate: "as-run" or "paper" (module doc)."""
    gamma = check_gamma(gamma)
    step = ESTIMATES[check_choice("estimate", estimate, tuple(ESTIMATES))]
    return Rex3State(log_weights=np.zeros(K), gamma=0.0 if gamma is None else gamma, adaptive=gamma is None,
                     step=step, probabilities=np.full(K, 1.0 / K))


@njit(cache=True)
def exploration_rate(gamma, adaptive, K, t):
    """gamma at slot t: the fixed ``gamma``, or if ``adaptive`` min(1/2, sqrt(K ln K / max(t, 1e4)))."""
    if not adaptive:
        return gamma
    return min(REX3_GAMMA_CAP, math.sqrt(K * math.log(K) / max(t, REX3_GAMMA_MIN_SLOTS)))


@njit(cache=True)
def fill_probabilities(log_weights, gamma, probabilities):
    """p_i = (1 - gamma) w_i / sum_j w_j + gamma / K into ``probabilities``, with w_i = exp(ln w_i - max ln w)
    (the same ratios as the weights themselves)."""
    K = log_weights.shape[0]
    top = np.max(log_weights)
    total = 0.0
    for i in range(K):
        probabilities[i] = math.exp(log_weights[i] - top)
        total += probabilities[i]
    for i in range(K):
        probabilities[i] = (1.0 - gamma) * probabilities[i] / total + gamma / K


@njit(cache=True)
def select(state, t, rng):
    """Gajane et al. Alg. 1: p from the weights at gamma_t, then a1 and a2 drawn independently from p, a1 first
    (one uniform each, ``categorical_draw``)."""
    log_weights, gamma, adaptive, probabilities = state.log_weights, state.gamma, state.adaptive, state.probabilities
    fill_probabilities(log_weights, exploration_rate(gamma, adaptive, log_weights.shape[0], t), probabilities)
    a1 = categorical_draw(rng, probabilities)
    a2 = categorical_draw(rng, probabilities)
    return a1, a2


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """Gajane et al. Alg. 1, the weight update: for a1 != a2, ln w_winner += c gamma_t / (K p_winner) and
    ln w_loser -= c gamma_t / (K p_loser), p of the current weights at gamma_t; a self-duel changes nothing."""
    log_weights, gamma, adaptive, step = state.log_weights, state.gamma, state.adaptive, state.step
    probabilities = state.probabilities
    if a1 == a2:
        return
    K = log_weights.shape[0]
    rate = exploration_rate(gamma, adaptive, K, t)
    fill_probabilities(log_weights, rate, probabilities)
    winner, loser = (a1, a2) if a1_won else (a2, a1)
    log_weights[winner] += step * rate / (K * probabilities[winner])
    log_weights[loser] -= step * rate / (K * probabilities[loser])


def highest_weight(state) -> int:
    """REX3's recommendation: the arm of the highest weight, the lowest index on ties."""
    return int(np.argmax(state.log_weights))


REX3_SPEC = AlgorithmSpec(
    name="rex3", label="REX3", init=init_rex3, select=select, update=update,
    defaults={"gamma": None, "estimate": "as-run"}, color="#393b79", marker="+", best_arm=highest_weight,
    reference="Gajane, Urvoy & Clerot ICML 2015, Alg. 1 (REX3), as in chang-li/MergeDTS rex3.py",
)


class Rex3(Policy):
    """REX3 as a live policy; parameters ``gamma`` (None: adaptive) and ``estimate`` ("as-run")."""

    spec = REX3_SPEC
