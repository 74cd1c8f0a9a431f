"""RCS, Relative Confidence Sampling (Zoghi et al., WSDM 2014) -- docs/algorithms.md#rcs.

As run by the authors of "Double Thompson Sampling for Dueling Bandits" (Wu & Liu, NIPS 2016):
pseudo-counts n = 1e-6, w = 1e-5, direct confidence bounds with alpha = 0.51
(docs/algorithms.md#shared-building-blocks;
the original RCS experiments used 0.501).  At every slot a simulated tournament draws
theta_ij ~ Beta(w_ij + 1, w_ji + 1) for every pair (theta_ji = 1 - theta_ij, the same kernels as D-TS;
by default only the votes 1(theta_ij > 1/2) are drawn, which is all RCS uses: ``sampling`` below);
the champion a1 is the first-index arm with the most sampled wins if it beats all K - 1 others,
and the challenger is ``a2 = argmax_j u_{j a1}`` over every arm (u_{a1 a1} = 1/2), first-index ties.

Option ``fallback`` (docs/algorithms.md#rcs), used when no arm beats all others in the sample:

* "least-champion" (default; the authors' code and the original RCS): the arm chosen least often as
  champion so far, lowest index on ties;
* "random" (the DTS paper's text, App. D.2.1, "randomly picks"): a uniform arm.

Either way the chosen arm's champion count is incremented.
"""

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from algorithms.base import AlgorithmSpec, Policy, check_alpha, check_choice
from core.argmax import argmax_first, argmin_first, fill_true, uniform_member
from core.bounds import direct_upper_column
from core.constants import ALPHA, PSEUDO_N, PSEUDO_W
from core.thompson import SAMPLING_INDICATORS, SAMPLINGS, fill_above_half, record_comparison, sample_votes

FALLBACK_LEAST_CHAMPION, FALLBACK_RANDOM = 0, 1
FALLBACKS = {"least-champion": FALLBACK_LEAST_CHAMPION, "random": FALLBACK_RANDOM}


class RCSState(NamedTuple):
    """State of RCS.  Settings: ``alpha`` (confidence scale), ``fallback`` (FALLBACK_LEAST_CHAMPION or
    FALLBACK_RANDOM), ``sampling`` (``core.thompson.SAMPLING_INDICATORS`` or ``SAMPLING_DIRECT``)."""

    comparisons: np.ndarray  # float64 (K, K): n_ij (pseudo-count included)
    wins: np.ndarray  # float64 (K, K): w_ij (pseudo-count included)
    alpha: float
    fallback: int
    sampling: int
    champion_counts: np.ndarray  # int64 (K,): times each arm was chosen as champion a1
    theta: np.ndarray  # scratch float64 (K, K): the sampled preferences theta_ij
    votes: np.ndarray  # scratch int64 (K,): sampled wins of each arm
    done: np.ndarray  # scratch bool (K,)
    all_arms: np.ndarray  # bool (K,), all true
    upper_column: np.ndarray  # scratch float64 (K,): the column u_{. a1}
    above_half_prob: np.ndarray  # float64 (K, K): P(theta_ij > 1/2), kept consistent with wins
    above_half: np.ndarray  # scratch bool (K, K): the votes 1(theta_ij > 1/2)


def init_rcs(K, horizon=None, alpha=ALPHA, fallback="least-champion", sampling="indicators"):
    """A fresh ``RCSState``.

    alpha: confidence scale (> 0; warns if <= 0.5).  fallback: "least-champion" or "random".
    sampling: "indicators" (default) draws each vote 1(theta_ij > 1/2) as a Bernoulli with the cached
    P(theta_ij > 1/2) -- RCS needs only the votes -- and "direct" draws every theta_ij from its Beta;
    the two are identical in distribution (``core.thompson``).
    """
    mode = FALLBACKS[check_choice("fallback", fallback, tuple(FALLBACKS))]
    draw = SAMPLINGS[check_choice("sampling", sampling, tuple(SAMPLINGS))]
    w = np.full((K, K), PSEUDO_W)
    q = np.full((K, K), 0.5)
    if draw == SAMPLING_INDICATORS:
        fill_above_half(q, w)
    return RCSState(
        comparisons=np.full((K, K), PSEUDO_N),
        wins=w,
        alpha=check_alpha(alpha),
        fallback=mode,
        sampling=int(draw),
        champion_counts=np.zeros(K, np.int64),
        theta=np.full((K, K), 0.5),
        votes=np.zeros(K, np.int64),
        done=np.zeros(K, np.bool_),
        all_arms=fill_true(np.zeros(K, np.bool_)),
        upper_column=np.zeros(K),
        above_half_prob=q,
        above_half=np.zeros((K, K), np.bool_),
    )


def sync_rcs(state):
    """Recompute the vote probabilities from ``state.wins``."""
    fill_above_half(state.above_half_prob, state.wins)


@njit(cache=True)
def select(state, t, rng):
    """Choose (a1, a2) at slot t: simulated tournament over all pairs, champion a1 (or the fallback),
    challenger a2 = argmax_j u_{j a1} (Zoghi et al. WSDM 2014, RCS; docs/algorithms.md#rcs)."""
    (comparisons, wins, alpha, fallback, sampling, champion_counts, theta, votes, done, all_arms, upper_column,
     above_half_prob, above_half) = state
    votes, done, all_arms, champ = votes, done, all_arms, champion_counts
    K = votes.shape[0]
    for i in range(K):
        done[i] = False
    sample_votes(rng, wins, above_half_prob, sampling == SAMPLING_INDICATORS, all_arms, done,
                 theta, above_half, votes)
    a1 = argmax_first(votes, all_arms)
    if votes[a1] < K - 1:
        if fallback == FALLBACK_LEAST_CHAMPION:
            a1 = argmin_first(champ, all_arms)
        else:
            a1 = uniform_member(rng, all_arms)
    champ[a1] += 1
    direct_upper_column(comparisons, wins, a1, math.log(t), alpha, upper_column)
    a2 = argmax_first(upper_column, all_arms)
    return a1, a2


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """The common pair update, and the pair's vote probabilities when sampling indicators."""
    (comparisons, wins, _, _, sampling, _, _, _, _, _, _, above_half_prob, _) = state
    record_comparison(comparisons, wins, above_half_prob, a1, a2, a1_won,
                      sampling == SAMPLING_INDICATORS)


RCS_SPEC = AlgorithmSpec(
    name="rcs", label="RCS", init=init_rcs, select=select, update=update, sync=sync_rcs,
    color="#e377c2", marker="D",
    defaults={"alpha": ALPHA, "fallback": "least-champion", "sampling": "indicators"},
    reference="Zoghi et al. WSDM 2014, Relative Confidence Sampling, as run by Wu & Liu 2016",
)


class RCS(Policy):
    """RCS as a live policy; parameters ``alpha`` (0.51), ``fallback`` ("least-champion" or "random") and
    ``sampling`` ("indicators" or "direct")."""

    spec = RCS_SPEC
