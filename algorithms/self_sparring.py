"""Self-Sparring (Sui, Zhuang, Burdick & Yue, UAI 2017, "Multi-dueling Bandits with Dependent Arms",
Algorithm 1 with independent Beta-Bernoulli arms and m = 2) as the MergeDTS authors ran it
(chang-li/MergeDTS ``dueling_bandits/self_sparring.py``, commit 296f3e2) -- docs/algorithms.md#self-sparring.

Every arm i has a Beta(S_i, F_i) posterior, S = F = 1 at the start.  A slot draws two independent
Thompson samples: each samples theta_i ~ Beta(S_i, F_i) for every arm and takes the argmax (ties
uniformly at random); the two may be the same arm.  The winner of the duel gets S_winner += eta, the loser
F_loser += eta (a self-duel adds eta to both counts of its arm).  The authors' code adds 1 (eta = 1); the
paper's learning rate eta is the option ``learning_rate``.  Cost: 2K Beta draws a slot; ``sampling="fast"``
(``algorithms.self_sparring_fast``) draws the same law from one Beta draw and K - 1 uniforms a sample once an
arm leads.

Delay contract (docs/harness.md#feedback-delay): ``select`` changes nothing but a scratch array; the
counts change only in ``update``.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from dts_reproduction.algorithms.base import AlgorithmSpec, Policy, check_choice, check_positive
from dts_reproduction.algorithms.self_sparring_fast import refresh_after_update, start_epoch, thompson_arm_fast
from dts_reproduction.core.argmax import argmax_uniform, fill_true
from dts_reproduction.core.constants import SELF_SPARRING_LEARNING_RATE, SELF_SPARRING_PRIOR
from dts_reproduction.core.records import record

# How a Thompson sample is drawn: "direct" (every arm, as the authors' code) or "fast" (only the arms that
# can beat the leader, ``algorithms.self_sparring_fast``; the same law, another random stream).
SAMPLING_DIRECT, SAMPLING_FAST = 0, 1
SAMPLINGS = {"direct": SAMPLING_DIRECT, "fast": SAMPLING_FAST}
FAST_PARAMS = {"sampling": "fast"}  # AlgorithmSpec.fast
# The epoch of sampling="fast": the leader (drawn first), the threshold q (the LEADER_TAIL quantile of its
# posterior), and its S + F and the slot when the epoch began.
EPOCH = np.dtype([("leader", np.int64), ("threshold", np.float64), ("count", np.float64), ("slot", np.int64)])


class SelfSparringState(NamedTuple):
    """State of Self-Sparring.  Settings: ``learning_rate`` (eta, the increment of a count), ``sampling``."""

    successes: np.ndarray  # float64 (K,): S_i, the first Beta parameter of arm i (prior included)
    failures: np.ndarray  # float64 (K,): F_i, the second Beta parameter of arm i (prior included)
    learning_rate: float
    sampling: int  # SAMPLING_DIRECT or SAMPLING_FAST
    theta: np.ndarray  # float64 (K,): scratch for one Thompson sample of every arm
    every_arm: np.ndarray  # bool (K,): all True, the argmax mask
    # Only used with sampling="fast" (``algorithms.self_sparring_fast``; size 1 with "direct"):
    epoch: np.ndarray  # EPOCH (1,): the leader, the threshold q, and when the epoch began, by name
    tail_above: np.ndarray  # float64 (K,): P(Beta(S_j, F_j) > q) for every arm but the leader (0 there)
    order: np.ndarray  # int64 (K,): the arms by tail_above, decreasing
    rank: np.ndarray  # int64 (K,): the position of every arm in ``order``


def init_self_sparring(K, horizon=None, learning_rate=SELF_SPARRING_LEARNING_RATE, sampling="direct"):
    """A fresh ``SelfSparringState``: S = F = 1 for every arm.  learning_rate: eta (finite, > 0; 1 as run).
    sampling: "direct" (default: K Beta draws a sample, as run) or "fast" (same law, another stream)."""
    eta = check_positive("learning_rate", learning_rate)
    mode = SAMPLINGS[check_choice("sampling", sampling, tuple(SAMPLINGS))]
    size = K if mode == SAMPLING_FAST else 1
    state = SelfSparringState(
        successes=np.full(K, SELF_SPARRING_PRIOR), failures=np.full(K, SELF_SPARRING_PRIOR), learning_rate=eta,
        sampling=mode, theta=np.empty(K), every_arm=fill_true(np.empty(K, np.bool_)),
        epoch=record(EPOCH), tail_above=np.zeros(size), order=np.zeros(size, np.int64),
        rank=np.zeros(size, np.int64))
    if mode == SAMPLING_FAST:
        start_epoch(state.successes, state.failures, state.epoch, state.tail_above, state.order, state.rank, 0)
    return state


@njit(cache=True)
def thompson_arm(successes, failures, theta, every_arm, rng):
    """One Thompson sample (Sui et al. Alg. 1 lines 4-5): theta_i ~ Beta(S_i, F_i) for i = 0..K-1 in order,
    then the argmax, uniform among ties (the authors' ``my_argmax``)."""
    for i in range(successes.shape[0]):
        theta[i] = rng.beta(successes[i], failures[i])
    return argmax_uniform(rng, theta, every_arm)


@njit(cache=True)
def select_self_sparring(state, t, rng):
    """Self-Sparring at slot t: (a1, a2) = two independent ``thompson_arm`` draws (m = 2), a1 first
    (``thompson_arm_fast`` with sampling="fast")."""
    successes, failures, theta, every_arm = state.successes, state.failures, state.theta, state.every_arm
    sampling, epoch, tail_above, order = state.sampling, state.epoch, state.tail_above, state.order
    if sampling == SAMPLING_FAST:
        a1 = thompson_arm_fast(successes, failures, epoch, tail_above, order, theta, every_arm, rng)
        a2 = thompson_arm_fast(successes, failures, epoch, tail_above, order, theta, every_arm, rng)
        return a1, a2
    a1 = thompson_arm(successes, failures, theta, every_arm, rng)
    a2 = thompson_arm(successes, failures, theta, every_arm, rng)
    return a1, a2


@njit(cache=True)
def update_self_sparring(state, a1, a2, a1_won, t):
    """Sui et al. Alg. 1 line 8 for m = 2: S_winner += eta, F_loser += eta (both to one arm if a1 == a2);
    with sampling="fast", then the epoch's tails of the two arms (``refresh_after_update``)."""
    successes, failures, learning_rate, sampling = state.successes, state.failures, state.learning_rate, state.sampling
    epoch, tail_above, order, rank = state.epoch, state.tail_above, state.order, state.rank
    winner, loser = (a1, a2) if a1_won else (a2, a1)
    successes[winner] += learning_rate
    failures[loser] += learning_rate
    if sampling == SAMPLING_FAST:
        refresh_after_update(successes, failures, epoch, tail_above, order, rank, a1, a2, t)


def posterior_mean_leader(state) -> int:
    """Self-Sparring: the highest posterior mean S_i / (S_i + F_i).  (The MergeDTS authors' ``get_winner``
    returns the first arm whose mean exceeds 1/2, arm 0 if none does; the highest mean is that rule's intent and
    is defined for every state.)"""
    means = np.asarray(state.successes) / (np.asarray(state.successes) + np.asarray(state.failures))
    return int(np.argmax(means))


SELF_SPARRING_SPEC = AlgorithmSpec(
    name="self_sparring", label="Self-Sparring", init=init_self_sparring, select=select_self_sparring,
    update=update_self_sparring, defaults={"learning_rate": SELF_SPARRING_LEARNING_RATE, "sampling": "direct"},
    fast=FAST_PARAMS,
    color="#7b4173", marker="8",
    reference="Sui, Zhuang, Burdick & Yue 2017, Alg. 1 (independent Beta arms, m = 2), as in chang-li/MergeDTS "
              "self_sparring.py",
    best_arm=posterior_mean_leader,
)


class SelfSparring(Policy):
    """Self-Sparring as a live policy; parameters ``learning_rate`` (eta, 1.0) and ``sampling`` ("direct")."""

    spec = SELF_SPARRING_SPEC
