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

Option ``skip`` (docs/algorithms.md#exact-skipping-of-self-comparison-runs): "off" (default, slot by
slot) or "exact" (needs sampling="knockout"): in the simulator, a run of self-comparisons (w, w) of a
settled arm is done in one geometric draw (``skip``); its runs equal the others in law, not bit for bit.
"""

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from dts_reproduction.algorithms.base import (
    SKIP_OFF,
    AlgorithmSpec,
    Policy,
    check_alpha,
    check_choice,
    check_skip,
    exact_skip_hook,
)
from dts_reproduction.algorithms.recommend import copeland_of_statistics
from dts_reproduction.core.argmax import argmax_first, argmin_first, fill_true, uniform_member
from dts_reproduction.core.bounds import direct_upper_column, ucb_switch_log_t
from dts_reproduction.core.constants import ALPHA, PSEUDO_N, PSEUDO_W
from dts_reproduction.core.records import record
from dts_reproduction.core.skipping import (
    SKIP_MIN_PROB,
    challenger_stays_away,
    geometric_run,
    last_slot_away,
    record_self_run,
)
from dts_reproduction.core.thompson import (
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
FAST_PARAMS = {"sampling": "knockout", "skip": "exact"}  # AlgorithmSpec.fast
NO_ARM = -1
# The fields of RCSState.skip_state: the arm w whose "w is not the sampled Condorcet winner" slot ``skip``
# left for the next select (NO_ARM: none), and the arm of the last select if it was a self-comparison.
RCS_SKIP_STATE = np.dtype([("pending", np.int64), ("last_self", np.int64)])


class RCSState(NamedTuple):
    """State of RCS.  Settings: ``alpha`` (confidence scale), ``fallback`` (FALLBACK_LEAST_CHAMPION or
    FALLBACK_RANDOM), ``sampling`` (``core.thompson.SAMPLING_INDICATORS``, ``SAMPLING_DIRECT`` or
    ``SAMPLING_KNOCKOUT``), ``skip_runs`` (option skip="exact")."""

    comparisons: np.ndarray  # float64 (K, K): n_ij (pseudo-count included)
    wins: np.ndarray  # float64 (K, K): w_ij (pseudo-count included)
    alpha: float
    fallback: int
    sampling: int
    skip_runs: bool
    champion_counts: np.ndarray  # int64 (K,): times each arm was chosen as champion a1
    theta: np.ndarray  # scratch float64 (K, K) ((1, 1) with "knockout"): the sampled preferences theta_ij
    votes: np.ndarray  # scratch int64 (K,): sampled wins of each arm
    done: np.ndarray  # scratch bool (K,)
    all_arms: np.ndarray  # bool (K,), all true
    upper_column: np.ndarray  # scratch float64 (K,): the column u_{. a1}
    above_half_prob: np.ndarray  # float64 (K, K): P(theta_ij > 1/2), kept consistent with wins
    above_half: np.ndarray  # scratch bool (K, K) ((1, 1) with "knockout"): the votes 1(theta_ij > 1/2)
    skip_state: np.ndarray  # RCS_SKIP_STATE (1,): skip's bookkeeping, by name (``skip_state[0].pending``)


def init_rcs(K, horizon=None, alpha=ALPHA, fallback="least-champion", sampling="indicators", skip=SKIP_OFF):
    """A fresh ``RCSState``.

    alpha: confidence scale (> 0; warns if <= 0.5).  fallback: "least-champion" or "random".
    sampling: "indicators" (default) draws each vote 1(theta_ij > 1/2) as a Bernoulli with the cached
    P(theta_ij > 1/2) -- RCS needs only the votes -- "direct" draws every theta_ij from its Beta, and
    "knockout" draws only the votes ``knockout_winner`` needs; the three are identical in distribution
    (``core.thompson``, ``knockout_winner``).  skip: "off" or "exact" (``skip``; with "knockout" only,
    whose conditioned draw ends a skipped run).
    """
    mode = FALLBACKS[check_choice("fallback", fallback, tuple(FALLBACKS))]
    draw = RCS_SAMPLINGS[check_choice("sampling", sampling, tuple(RCS_SAMPLINGS))]
    skip_runs = check_skip(skip)
    if skip_runs and draw != SAMPLING_KNOCKOUT:
        raise ValueError(f"skip='exact' of RCS needs sampling='knockout', got sampling={sampling!r}")
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
        skip_runs=skip_runs,
        champion_counts=np.zeros(K, np.int64),
        theta=np.full(tournament, 0.5),
        votes=np.zeros(K, np.int64),
        done=np.zeros(K, np.bool_),
        all_arms=fill_true(np.zeros(K, np.bool_)),
        upper_column=np.zeros(K),
        above_half_prob=q,
        above_half=np.zeros(tournament, np.bool_),
        skip_state=record(RCS_SKIP_STATE, (NO_ARM, NO_ARM)),
    )


def sync_rcs(state):
    """Recompute the vote probabilities from ``state.wins``; forget any pending draw of ``skip``."""
    fill_above_half(state.above_half_prob, state.wins)
    state.skip_state[0] = (NO_ARM, NO_ARM)


@njit(cache=True, inline="always")
def _lower_wins(rng, q, low, high, fixed_arm, first_loss):
    """The vote 1(theta_{low high} > 1/2) of the pair low < high, drawn as a Bernoulli(q[low, high]) --
    the row "indicators" draws the pair in (``core.thompson.sample_votes``) -- unless it is one of the
    pairs already decided (``_first_loss``): ``fixed_arm`` beat every arm before ``first_loss`` and lost
    to ``first_loss`` (none with fixed_arm = NO_ARM)."""
    if low == fixed_arm and high <= first_loss:
        return high != first_loss
    if high == fixed_arm and low <= first_loss:
        return low == first_loss
    return rng.random() < q[low, high]


@njit(cache=True)
def knockout_winner(rng, q, fixed_arm=NO_ARM, first_loss=NO_ARM):
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
    if it has K - 1 votes, else the fallback).  Cost: K - 1 draws, plus up to c - 1 for the check
    (expected O(K)).  The pairs of ``fixed_arm`` up to ``first_loss`` are read, not drawn
    (``_lower_wins``): the same argument holds for a tournament with some votes given.
    """
    K = q.shape[0]
    champion = 0
    replaced = NO_ARM
    for j in range(1, K):
        if not _lower_wins(rng, q, champion, j, fixed_arm, first_loss):
            replaced = champion
            champion = j
    for j in range(champion):
        if j != replaced and _lower_wins(rng, q, j, champion, fixed_arm, first_loss):
            return NO_ARM
    return champion


@njit(cache=True, inline="always")
def _log_beats(q, arm, other):
    """ln P(arm beats other) in the sampled tournament, as ``_lower_wins`` draws the pair (accurate in
    both tails: log1p of the other side below, log of q itself above)."""
    if other < arm:
        return math.log1p(-q[other, arm])
    return math.log(q[arm, other])


@njit(cache=True)
def _log_prob_winner(q, arm):
    """ln P(``arm`` is the sampled Condorcet winner) = sum_{j != arm} ln P(arm beats j)."""
    total = 0.0
    for j in range(q.shape[0]):
        if j != arm:
            total += _log_beats(q, arm, j)
    return total


@njit(cache=True)
def _first_loss(rng, q, arm):
    """The first arm (ascending) that beats ``arm`` in the sampled tournament, drawn given that some arm
    does (which has probability > 0): by inversion of P(first loss <= j) = 1 - prod_{k <= j} P(arm
    beats k), normalised by its value at the last arm.  With it, ``arm``'s votes against the arms up to
    it are decided (wins, then a loss) and the others are as unconditioned."""
    K = q.shape[0]
    target = rng.random() * -math.expm1(_log_prob_winner(q, arm))
    log_wins = 0.0
    last_possible = NO_ARM
    for j in range(K):
        if j == arm:
            continue
        step = _log_beats(q, arm, j)
        if step < 0.0:
            last_possible = j
        log_wins += step
        if -math.expm1(log_wins) > target:
            return j
    return last_possible  # target rounded up to the total: the last arm that can beat ``arm``


@njit(cache=True)
def select(state, t, rng):
    """Choose (a1, a2) at slot t: simulated tournament over all pairs, champion a1 (or the fallback),
    challenger a2 = argmax_j u_{j a1} (Zoghi et al. WSDM 2014, RCS; docs/algorithms.md#rcs).  A slot
    left by ``skip`` draws the tournament given that its arm is not the Condorcet winner."""
    comparisons, wins, alpha, fallback = state.comparisons, state.wins, state.alpha, state.fallback
    sampling, champion_counts, theta, votes = state.sampling, state.champion_counts, state.theta, state.votes
    done, all_arms, upper_column = state.done, state.all_arms, state.upper_column
    above_half_prob, above_half, skip_state = state.above_half_prob, state.above_half, state.skip_state
    K = votes.shape[0]
    if sampling == SAMPLING_KNOCKOUT:
        pending = skip_state[0].pending
        if pending == NO_ARM:
            a1 = knockout_winner(rng, above_half_prob)
        else:
            skip_state[0].pending = NO_ARM
            a1 = knockout_winner(rng, above_half_prob, pending, _first_loss(rng, above_half_prob, pending))
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
            a1 = argmin_first(champion_counts, all_arms)
        else:
            a1 = uniform_member(rng, all_arms)
    champion_counts[a1] += 1
    direct_upper_column(comparisons, wins, a1, math.log(t), alpha, upper_column)
    a2 = argmax_first(upper_column, all_arms)
    skip_state[0].last_self = a1 if a1 == a2 else NO_ARM
    return a1, a2


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """The common pair update, and the pair's vote probabilities unless sampling "direct"."""
    comparisons, wins, sampling, above_half_prob = state.comparisons, state.wins, state.sampling, state.above_half_prob
    record_comparison(comparisons, wins, above_half_prob, a1, a2, a1_won, sampling != SAMPLING_DIRECT)


@njit(cache=True)
def _column_stays_away(n, w, arm, alpha, log_t):
    """True iff at ln t = log_t the challenger of ``arm`` is ``arm`` itself (``challenger_stays_away``
    for every other arm)."""
    for j in range(n.shape[0]):
        if j != arm and not challenger_stays_away(n, w, j, arm, alpha, log_t):
            return False
    return True


@njit(cache=True)
def last_slot_challenged_by_none(n, w, arm, alpha, t, t_limit):
    """The last slot s in [t, t_limit] up to which the challenger of ``arm`` is ``arm`` at every slot
    (``_column_stays_away``, which holds at t: the caller checked): the least over the other arms j of
    ``core.skipping.last_slot_away`` (each u_{j arm} only grows with ln t, so each test holds up to one
    slot and fails after it; ``ucb_switch_log_t`` gives the estimate, select's exact test the answer)."""
    end = t_limit
    for j in range(n.shape[0]):
        if j != arm:
            end = last_slot_away(n, w, j, arm, alpha, ucb_switch_log_t(w[j, arm] / n[j, arm], n[j, arm], alpha),
                                 t, end)
    return end


@njit(cache=True)
def skip(state, t, rng, t_limit):
    """The run of self-comparisons from slot t in one draw (option skip="exact"; ``core.simulate``).

    Let w be the arm of the last slot's self-comparison (a choice made from the past).  Slot t is
    (w, w) iff a1 = w and the challenger scan picks w.  The scan picks w while every u_{j w} stays
    below its tie with 1/2 (``challenger_stays_away``), which only ln t can end (a self-comparison
    changes only the never-read diagonal of the statistics): up to ``last_slot_challenged_by_none``.
    a1 = w iff w is the sampled Condorcet winner, or there is none and the fallback is w.  With the
    "least-champion" fallback and w not the least-often champion m now (first index on ties), the
    fallback stays m during the run (only w's count grows), so a1 = w iff w is the Condorcet winner,
    probability p = prod_{j != w} P(w beats j), the same at every slot (q changes only in an update).
    Then the slots are i.i.d. (w, w) with probability p, and the number G of them before the next
    other slot is geometric, P(G >= g) = p^g, drawn at once.  Slots t .. t + slots - 1, slots =
    min(G, end - t + 1) with end the last slot the scan still picks w (capped at t_limit), are
    (w, w): their champion counts and diagonal updates are made here.  If G is smaller, slot t + G
    is "w is not the Condorcet winner", left for ``select`` (``skip_state[0].pending``), which draws w's
    first loss (``_first_loss``) and the rest of the tournament as usual: the law of that slot given
    the event.  Returns (slots, w), or (0, NO_ARM) when not tried: a draw already pending, the last
    slot not a self-comparison, the "random" fallback (its chance of w needs the law of "no Condorcet
    winner": refused), w the least-often champion, the scan not picking w at t, or p < SKIP_MIN_PROB;
    also (0, NO_ARM) when G = 0, with slot t itself left pending.  One uniform draw at most.
    """
    comparisons, wins, alpha, fallback = state.comparisons, state.wins, state.alpha, state.fallback
    champion_counts, all_arms, above_half_prob = state.champion_counts, state.all_arms, state.above_half_prob
    skip_state = state.skip_state
    arm = skip_state[0].last_self
    if skip_state[0].pending != NO_ARM or arm == NO_ARM or fallback != FALLBACK_LEAST_CHAMPION:
        return 0, NO_ARM
    if (argmin_first(champion_counts, all_arms) == arm
            or not _column_stays_away(comparisons, wins, arm, alpha, math.log(t))):
        return 0, NO_ARM
    log_p = _log_prob_winner(above_half_prob, arm)
    if log_p < math.log(SKIP_MIN_PROB):
        return 0, NO_ARM
    available = last_slot_challenged_by_none(comparisons, wins, arm, alpha, t, t_limit) - t + 1
    slots = geometric_run(rng, log_p, available)  # all of them if the arm beats every other surely
    if slots < available:
        skip_state[0].pending = arm
    if slots == 0:
        return 0, NO_ARM
    champion_counts[arm] += slots
    record_self_run(comparisons, wins, arm, slots)
    return slots, arm


def rcs_champion(state) -> int:
    """RCS: the arm chosen most often as champion (Zoghi et al. WSDM 2014 recommend it), else, before the
    first slot, the empirical Copeland winner."""
    counts = np.asarray(state.champion_counts)
    return int(np.argmax(counts)) if counts.max() > 0 else copeland_of_statistics(state)


RCS_SPEC = AlgorithmSpec(
    name="rcs", label="RCS", init=init_rcs, select=select, update=update, sync=sync_rcs, skip=exact_skip_hook(skip),
    color="#e377c2", marker="D", streams=SAMPLING_STREAMS, fast=FAST_PARAMS,
    defaults={"alpha": ALPHA, "fallback": "least-champion", "sampling": "indicators", "skip": SKIP_OFF},
    reference="Zoghi et al. WSDM 2014, Relative Confidence Sampling, as run by Wu & Liu 2016",
    best_arm=rcs_champion,
)


class RCS(Policy):
    """RCS as a live policy; parameters ``alpha`` (0.51), ``fallback`` ("least-champion" or "random") and
    ``sampling`` ("indicators", "direct" or "knockout"); ``skip`` acts only in the simulator (a live
    policy selects slot by slot)."""

    spec = RCS_SPEC
