"""RCS, Relative Confidence Sampling (Zoghi et al., WSDM 2014) -- docs/algorithms.md#rcs.

As run by the authors of "Double Thompson Sampling for Dueling Bandits" (Wu & Liu, NIPS 2016):
pseudo-counts n = 1e-6, w = 1e-5, direct confidence bounds with alpha = 0.51
(docs/algorithms.md#shared-building-blocks;
the original RCS experiments used 0.501).  At every slot a simulated tournament draws
theta_ij ~ Beta(w_ij + 1, w_ji + 1) for every pair (theta_ji = 1 - theta_ij, the same kernels as D-TS;
by default only the votes 1(theta_ij > 1/2) are drawn, which is all RCS uses: ``sampling`` below);
the champion a1 is the first-index arm with the most sampled wins if it beats all K - 1 others,
and the challenger is ``a2 = argmax_j u_{j a1}`` over every arm (u_{a1 a1} = 1/2), first-index ties.

Option ``sampling``: "indicators" (default) draws every vote as a Bernoulli with the cached
q_ij = P(theta_ij > 1/2), K (K - 1) / 2 uniforms a slot; "direct" draws every theta_ij from its Beta;
"knockout" draws only the votes that decide whether the sampled tournament has a Condorcet winner and
which arm it is (``knockout_winner``): about K to 2K uniforms a slot instead of K^2 / 2.  All three give
a1 the same law (a1 depends on the tournament only through its Condorcet winner, if any); "knockout"
uses the random numbers differently from "indicators", so its runs are stored under a stream version
(``SAMPLING_STREAMS``).

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
from core.thompson import (
    SAMPLING_DIRECT,
    SAMPLING_INDICATORS,
    SAMPLINGS,
    fill_above_half,
    record_comparison,
    sample_votes,
)

FALLBACK_LEAST_CHAMPION, FALLBACK_RANDOM = 0, 1
FALLBACKS = {"least-champion": FALLBACK_LEAST_CHAMPION, "random": FALLBACK_RANDOM}
# RCS's sampling modes: those of core.thompson and "knockout" (``knockout_winner``).
SAMPLING_KNOCKOUT = 2
RCS_SAMPLINGS = {**SAMPLINGS, "knockout": SAMPLING_KNOCKOUT}
# Stream versions of the sampling values whose draws differ from the stored runs' (AlgorithmSpec.streams).
SAMPLING_STREAMS = {"sampling": {"knockout": 1}}
FAST_PARAMS = {"sampling": "knockout"}  # AlgorithmSpec.fast
NO_ARM = -1


class RCSState(NamedTuple):
    """State of RCS.  Settings: ``alpha`` (confidence scale), ``fallback`` (FALLBACK_LEAST_CHAMPION or
    FALLBACK_RANDOM), ``sampling`` (``core.thompson.SAMPLING_INDICATORS``, ``SAMPLING_DIRECT`` or
    ``SAMPLING_KNOCKOUT``)."""

    comparisons: np.ndarray  # float64 (K, K): n_ij (pseudo-count included)
    wins: np.ndarray  # float64 (K, K): w_ij (pseudo-count included)
    alpha: float
    fallback: int
    sampling: int
    champion_counts: np.ndarray  # int64 (K,): times each arm was chosen as champion a1
    theta: np.ndarray  # scratch float64 (K, K) ((1, 1) with "knockout"): the sampled preferences theta_ij
    votes: np.ndarray  # scratch int64 (K,): sampled wins of each arm
    done: np.ndarray  # scratch bool (K,)
    all_arms: np.ndarray  # bool (K,), all true
    upper_column: np.ndarray  # scratch float64 (K,): the column u_{. a1}
    above_half_prob: np.ndarray  # float64 (K, K): P(theta_ij > 1/2), kept consistent with wins
    above_half: np.ndarray  # scratch bool (K, K) ((1, 1) with "knockout"): the votes 1(theta_ij > 1/2)


def init_rcs(K, horizon=None, alpha=ALPHA, fallback="least-champion", sampling="indicators"):
    """A fresh ``RCSState``.

    alpha: confidence scale (> 0; warns if <= 0.5).  fallback: "least-champion" or "random".
    sampling: "indicators" (default) draws each vote 1(theta_ij > 1/2) as a Bernoulli with the cached
    P(theta_ij > 1/2) -- RCS needs only the votes -- "direct" draws every theta_ij from its Beta, and
    "knockout" draws only the votes ``knockout_winner`` needs; the three are identical in distribution
    (``core.thompson``, ``knockout_winner``).
    """
    mode = FALLBACKS[check_choice("fallback", fallback, tuple(FALLBACKS))]
    draw = RCS_SAMPLINGS[check_choice("sampling", sampling, tuple(RCS_SAMPLINGS))]
    w = np.full((K, K), PSEUDO_W)
    q = np.full((K, K), 0.5)
    if draw != SAMPLING_DIRECT:
        fill_above_half(q, w)
    tournament = (1, 1) if draw == SAMPLING_KNOCKOUT else (K, K)
    return RCSState(
        comparisons=np.full((K, K), PSEUDO_N),
        wins=w,
        alpha=check_alpha(alpha),
        fallback=mode,
        sampling=int(draw),
        champion_counts=np.zeros(K, np.int64),
        theta=np.full(tournament, 0.5),
        votes=np.zeros(K, np.int64),
        done=np.zeros(K, np.bool_),
        all_arms=fill_true(np.zeros(K, np.bool_)),
        upper_column=np.zeros(K),
        above_half_prob=q,
        above_half=np.zeros(tournament, np.bool_),
    )


def sync_rcs(state):
    """Recompute the vote probabilities from ``state.wins``."""
    fill_above_half(state.above_half_prob, state.wins)


@njit(cache=True, inline="always")
def _lower_wins(rng, q, low, high):
    """The vote 1(theta_{low high} > 1/2) of the pair low < high, drawn as a Bernoulli(q[low, high]) --
    the row "indicators" draws the pair in (``core.thompson.sample_votes``)."""
    return rng.random() < q[low, high]


@njit(cache=True)
def knockout_winner(rng, q):
    """The Condorcet winner of a tournament sampled with vote probabilities q (q[i, j] = P(theta_ij >
    1/2), pairs independent), or NO_ARM if it has none -- drawing only the votes that decide it.

    A knockout: champion c = 0; for j = 1 .. K - 1 the vote of (c, j) is drawn and j replaces c if it
    wins.  Then c is checked against every arm before it except the one it replaced; the arms after c
    all lost to it in the knockout, and the one it replaced too, so these are the only undrawn pairs
    with c -- each pair is drawn at most once, so no memo is needed.  The check stops at the first
    loss.  Exact by deferred decisions: the tournament's votes are independent, so drawing each from
    its own Bernoulli when first needed, in any order that depends only on votes already drawn, gives
    the votes read the law they have in the full tournament.  For every tournament the answer is its
    Condorcet winner: if w beats every arm, it beats the champion at step w (or is 0) and every later
    arm, so c = w and the check passes; if c passes the check it beats every arm.  So a1 (this arm, or
    the fallback for NO_ARM) has the law it has with ``sample_votes`` (the first-index most-voted arm
    if it has K - 1 votes, else the fallback).  Cost: K - 1 draws, plus up to c - 1 for the check (expected O(K)).
    """
    K = q.shape[0]
    champion = 0
    replaced = NO_ARM
    for j in range(1, K):
        if not _lower_wins(rng, q, champion, j):
            replaced = champion
            champion = j
    for j in range(champion):
        if j != replaced and _lower_wins(rng, q, j, champion):
            return NO_ARM
    return champion


@njit(cache=True)
def select(state, t, rng):
    """Choose (a1, a2) at slot t: simulated tournament over all pairs, champion a1 (or the fallback),
    challenger a2 = argmax_j u_{j a1} (Zoghi et al. WSDM 2014, RCS; docs/algorithms.md#rcs)."""
    (comparisons, wins, alpha, fallback, sampling, champion_counts, theta, votes, done, all_arms, upper_column,
     above_half_prob, above_half) = state
    votes, done, all_arms, champ = votes, done, all_arms, champion_counts
    K = votes.shape[0]
    if sampling == SAMPLING_KNOCKOUT:
        a1 = knockout_winner(rng, above_half_prob)
    else:
        for i in range(K):
            done[i] = False
        sample_votes(rng, wins, above_half_prob, sampling == SAMPLING_INDICATORS, all_arms, done,
                     theta, above_half, votes)
        a1 = argmax_first(votes, all_arms)
        if votes[a1] < K - 1:
            a1 = NO_ARM
    if a1 == NO_ARM:
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
    """The common pair update, and the pair's vote probabilities unless sampling "direct"."""
    (comparisons, wins, _, _, sampling, _, _, _, _, _, _, above_half_prob, _) = state
    record_comparison(comparisons, wins, above_half_prob, a1, a2, a1_won, sampling != SAMPLING_DIRECT)


RCS_SPEC = AlgorithmSpec(
    name="rcs", label="RCS", init=init_rcs, select=select, update=update, sync=sync_rcs,
    color="#e377c2", marker="D", streams=SAMPLING_STREAMS, fast=FAST_PARAMS,
    defaults={"alpha": ALPHA, "fallback": "least-champion", "sampling": "indicators"},
    reference="Zoghi et al. WSDM 2014, Relative Confidence Sampling, as run by Wu & Liu 2016",
)


class RCS(Policy):
    """RCS as a live policy; parameters ``alpha`` (0.51), ``fallback`` ("least-champion" or "random") and
    ``sampling`` ("indicators", "direct" or "knockout")."""

    spec = RCS_SPEC
