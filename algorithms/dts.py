"""D-TS (Algorithm 1), D-TS+ (Sec. 4.3) and "pure D-TS" (App. D.2.4); how the authors ran
them: ``docs/algorithms.md``, sections "D-TS", "D-TS+" and "pure D-TS".

One state layout and one ``select`` serve the three variants:

* D-TS: RUCB elimination to the candidate set C (lines 4-6), majority vote of Thompson samples inside C
  with uniform tie-breaking (lines 7-11), second candidate by fresh samples among the arms with
  l_{i a1} <= 1/2 (lines 13-14).
* D-TS+: as D-TS, but ties of the vote inside C are broken by the smallest estimated regret R~_i.
* pure D-TS: no RUCB/RLCB filter at all (C = every arm, the second candidate among every arm).

As run by the authors (``docs/algorithms.md``, "D-TS"): pseudo-counts n = 1e-6, w = 1e-5 (so x/0 is "10" and, at t = 1,
a1 = K - 1 deterministically), mirrored bounds, ``u_ij >= 1/2`` in the count (the paper has ``>``).
Only the Thompson samples a decision needs are drawn (rows of C; none when |C| = 1), and by default a
vote 1(theta_ij > 1/2) is drawn as a Bernoulli with the cached probability P(theta_ij > 1/2)
(``core.thompson``), a theta value only where a decision needs it, conditioned on its side.  All of
this is exact in distribution (the pairs of Algorithm 1 line 8 are independent); ``sampling="direct"``
keeps the line-by-line reference.  ``sampling="fast"`` adds bit-sliced votes for large K (for D-TS and
pure D-TS only as far as a row can still be the most voted) and exact skipping of runs of
self-comparisons in the simulator (``skip``), both in ``algorithms.dts_fast``; it draws the random
numbers differently, so its runs are equal to the others in law, not bit for bit.  Every sampling keeps
the upper Copeland counts between slots (the same integers as a recount, no random number involved).

This module is Algorithm 1 (``select``, ``update``); the state and the kept counts (lines 4-6) are in
``algorithms.dts_state``, D-TS+'s tie-break (Sec. 4.3) in ``algorithms.dts_tie_break``.
"""

import math

from numba import njit

from dts_reproduction.algorithms.base import AlgorithmSpec, Policy, check_alpha, check_choice
from dts_reproduction.algorithms.dts_fast import draw_votes_fast, skip, take_pending
from dts_reproduction.algorithms.dts_state import (
    PENDING_PAIR,
    PENDING_ROW,
    SAMPLING_FAST,
    TIE_BREAKS,
    VARIANT_DTS,
    VARIANT_PLUS,
    VARIANT_PURE,
    candidate_set,
    make_state,
    move_switch_entries,
    sync_dts,
)
from dts_reproduction.algorithms.dts_tie_break import break_tie, mark_tied
from dts_reproduction.core.argmax import argmax_first, argmax_uniform
from dts_reproduction.core.bitvotes import refresh_planes, unpack_rows
from dts_reproduction.core.bounds import mirrored_bounds, refresh_mirrored_switches
from dts_reproduction.core.constants import ALPHA, DTS_BEST
from dts_reproduction.core.copy import copy_prefix
from dts_reproduction.core.thompson import SAMPLING_DIRECT, record_comparison, sample_beta_given_side, sample_votes

# Stream versions of the sampling values whose draws changed (AlgorithmSpec.streams): "fast" 2 = the
# pruned bit-sliced first phase with the last winner's row first and tail lanes finished per row, and
# no draw for the diagonal of a skipped run; 3 = a pair with as many wins each way votes with probability
# exactly 1/2 (core.thompson.refresh_above_half), decided after one digit (core.bitvotes' end planes),
# and the second phase's l_{i a1} <= 1/2 tested on the cached switch times (differs only at a rounding tie).
SAMPLING_STREAMS = {"sampling": {"fast": 3}}
FAST_PARAMS = {"sampling": "fast"}  # AlgorithmSpec.fast


def init_dts(K, horizon=None, alpha=ALPHA, sampling="indicators"):
    """State of D-TS (Algorithm 1).  alpha: RUCB/RLCB scale factor (> 0; warns if <= 0.5).

    sampling: "indicators" (default) draws each vote 1(theta_ij > 1/2) as a Bernoulli with the cached
    probability P(theta_ij > 1/2), and a theta value only when a decision needs it (conditioned on its
    side); "direct" draws every needed theta from its Beta, line by line after Algorithm 1; "fast" is
    "indicators" with the first-phase votes bit-sliced (``core.bitvotes``) and, in the simulator, the
    runs of self-comparisons of a settled arm skipped in one geometric draw (``algorithms.dts_fast``).
    All three are identical in distribution (tests/algorithms/test_dts.py, tests/algorithms/test_dts_fast.py)
    but use the random numbers differently; "direct" is the reference, "indicators" the one the stored results used.
    """
    return make_state(K, VARIANT_DTS, check_alpha(alpha), sampling=sampling)


def init_dts_plus(K, horizon=None, alpha=ALPHA, tie_break="as-run", sampling="indicators"):
    """State of D-TS+ (Sec. 4.3).  alpha and sampling as for D-TS.

    tie_break: "as-run" (default) normalises the estimated regrets by the largest vote count inside C,
    as the authors' code does; "paper" uses the largest vote count over all arms, as Sec. 4.3 writes.
    They differ only when an arm outside C has more votes than every arm of C (``docs/algorithms.md``, "D-TS+").
    """
    tie = TIE_BREAKS[check_choice("tie_break", tie_break, tuple(TIE_BREAKS))]
    return make_state(K, VARIANT_PLUS, check_alpha(alpha), tie, sampling)


def init_pure_dts(K, horizon=None, sampling="indicators"):
    """State of pure D-TS (App. D.2.4): D-TS without RUCB/RLCB elimination; sampling as for D-TS."""
    return make_state(K, VARIANT_PURE, 1.0, sampling=sampling)


@njit(cache=True, inline="always")
def _second_candidate(rng, comparisons, wins, prob_above, switch_log_t, alpha, variant, sampling, a1, log_t,
                      theta2, eligible):
    """Lines 13-14: a2 = argmax of theta2_{i a1} over the arms with l_{i a1} <= 1/2 (every arm for pure
    D-TS), theta2_{a1 a1} = 1/2.  Only samples above 1/2 can beat a1, so with indicators the value of
    theta2_i is drawn (conditioned on > 1/2) only for the arms whose indicator says so (``eligible``
    then holds a1 and those).  "fast" tests l_{i a1} <= 1/2 as u_{a1 i} >= 1/2 on the cached switch
    times (no square root; the same test as ``skip``'s).  The arrays are the ``DTSState`` fields."""
    fast = sampling == SAMPLING_FAST
    for i in range(wins.shape[0]):
        eligible[i] = i == a1 or variant == VARIANT_PURE or (
            log_t >= switch_log_t[a1, i] if fast else mirrored_bounds(comparisons, wins, i, a1, log_t, alpha)[1] <= 0.5)
        if i == a1:
            theta2[i] = 0.5
        elif eligible[i] and sampling == SAMPLING_DIRECT:
            theta2[i] = rng.beta(wins[i, a1] + 1.0, wins[a1, i] + 1.0)
        elif eligible[i]:
            eligible[i] = rng.random() < prob_above[i, a1]
            if eligible[i]:
                theta2[i] = sample_beta_given_side(rng, wins[i, a1] + 1.0, wins[a1, i] + 1.0, True, prob_above[i, a1])
    return argmax_first(theta2, eligible)


@njit(cache=True)
def _fast_votes(rng, q_planes, prob_above, wins, in_candidates, vote_bits, votes, word_scratch, above, rows_drawn,
                rows_scratch, theta, first_row, lead, prune):
    """``draw_votes_fast`` (the arguments are its own) for a state with sampling "fast"; a state without bit planes
    (``q_planes`` None, ``algorithms.dts_state``) never calls it and compiles it as returning False, without them."""
    if q_planes is None:
        return False
    return draw_votes_fast(rng, q_planes, prob_above, wins, in_candidates, vote_bits, votes, word_scratch, above,
                           rows_drawn, rows_scratch, theta, first_row, lead, prune)


@njit(cache=True)
def _least_estimated_regret(rng, regret_est, q_planes, bitsliced, vote_bits, first_row, wins, prob_above, indicators,
                            in_candidates, tied, rows_drawn, rows_scratch, theta, above, votes, tie_break):
    """D-TS+'s line 11 when several arms of C tie (Sec. 4.3): the tied arm of least estimated regret, from the votes
    of every row (``break_tie``; with "fast", the bit-sliced rows unpacked first).  A state without D-TS+'s
    estimates (``regret_est`` None: D-TS, pure D-TS) never calls it and compiles it as returning -1, without the
    tie-break.  The arrays are the ``DTSState`` fields of the same names."""
    if regret_est is None:
        return -1
    if q_planes is not None:
        if bitsliced:
            unpack_rows(vote_bits, in_candidates, first_row, above)
        copy_prefix(rows_drawn, in_candidates, in_candidates.shape[0])
    return break_tie(rng, wins, prob_above, indicators, in_candidates, tied, rows_drawn, rows_scratch, theta, above,
                     votes, tie_break, regret_est)


@njit(cache=True)
def select(state, t, rng):
    """Choose (a1, a2) at slot t: Algorithm 1 lines 3-14, with the D-TS+ (line 11) and pure (no lines 4-6)
    variants.  Only the Thompson samples a decision needs are drawn (module docstring)."""
    comparisons, wins, prob_above, switch_log_t = state.comparisons, state.wins, state.prob_above, state.switch_log_t
    alpha, variant, sampling, tie_break = state.alpha, state.variant, state.sampling, state.tie_break
    upper_counts, in_candidates, counts_at, skip_state = (state.upper_counts, state.in_candidates, state.counts_at,
                                                          state.skip_state)
    theta, above, votes, rows_drawn, tied = state.theta, state.above, state.votes, state.rows_drawn, state.tied
    theta2, eligible, regret_est = state.theta2, state.eligible, state.regret_est
    q_planes, vote_bits, word_scratch = state.q_planes, state.vote_bits, state.word_scratch
    rows_scratch = state.rows_scratch
    fast = sampling == SAMPLING_FAST
    indicators = sampling != SAMPLING_DIRECT
    first_row = -1  # "fast": a row of the first phase that ``skip`` has drawn for this slot
    if fast:
        pending, pending_a, pending_b = take_pending(skip_state)
        if pending == PENDING_PAIR:
            return pending_a, pending_b
        if pending == PENDING_ROW:
            first_row = pending_a
    log_t = math.log(t)
    # Phase 1, lines 4-6: the candidate set C, the arms of most upper Copeland count.
    size_c = candidate_set(variant, switch_log_t, upper_counts, in_candidates, counts_at, log_t)
    # Lines 7-11: the most voted arm of C, ties uniform (D-TS+: least estimated regret); no vote if |C| = 1.
    bitsliced = False
    if size_c == 1:
        a1 = argmax_first(upper_counts, in_candidates)
    else:
        if fast:  # lines 7-10, the rows of C
            bitsliced = _fast_votes(rng, q_planes, prob_above, wins, in_candidates, vote_bits, votes, word_scratch,
                                    above, rows_drawn, rows_scratch, theta, first_row,
                                    -1 if variant == VARIANT_PLUS else skip_state[0].lead, variant != VARIANT_PLUS)
        else:
            rows_drawn[:] = False
            sample_votes(rng, wins, prob_above, indicators, in_candidates, rows_drawn, theta, above, votes)
        if variant != VARIANT_PLUS:  # line 11
            a1 = argmax_uniform(rng, votes, in_candidates)
            if fast:
                skip_state[0].lead = a1
        elif mark_tied(votes, in_candidates, tied) == 1:
            a1 = argmax_first(votes, tied)
        else:
            a1 = _least_estimated_regret(rng, regret_est, q_planes, bitsliced, vote_bits, first_row, wins, prob_above,
                                         indicators, in_candidates, tied, rows_drawn, rows_scratch, theta, above,
                                         votes, tie_break)
    # Phase 2, lines 13-14: fresh samples against a1 among the arms with l_{i a1} <= 1/2.
    a2 = _second_candidate(rng, comparisons, wins, prob_above, switch_log_t, alpha, variant, sampling, a1, log_t,
                           theta2, eligible)
    if fast:
        skip_state[0].last_self = a1 if a1 == a2 else -1
    return a1, a2


@njit(cache=True)
def _refresh_fast_planes(q_planes, prob_above, a1, a2):
    """The bit planes of the pair (a1, a2) after its vote probabilities changed (``refresh_planes``); nothing for a
    state without them (``q_planes`` None: compiled without them, as ``_fast_votes``)."""
    if q_planes is not None:
        refresh_planes(q_planes, prob_above, a1, a2)


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """Algorithm 1 line 17: one more win for the winner of (a1, a2); refresh the pair's vote
    probabilities (unless sampling "direct"), their bit planes ("fast"), the pair's switch times and
    their contribution to the kept upper Copeland counts (``algorithms.dts_state``)."""
    comparisons, wins, prob_above, switch_log_t = state.comparisons, state.wins, state.prob_above, state.switch_log_t
    alpha, sampling, q_planes, skip_state = state.alpha, state.sampling, state.q_planes, state.skip_state
    upper_counts, counts_at = state.upper_counts, state.counts_at
    fast = sampling == SAMPLING_FAST
    record_comparison(comparisons, wins, prob_above, a1, a2, a1_won, sampling != SAMPLING_DIRECT, fast)
    kept = a1 != a2 and counts_at[0] >= 0.0
    if fast:
        _refresh_fast_planes(q_planes, prob_above, a1, a2)
        skip_state[0].updates += a1 != a2
    if kept:
        move_switch_entries(switch_log_t, upper_counts, counts_at, a1, a2, -1)
    refresh_mirrored_switches(comparisons, wins, alpha, switch_log_t, a1, a2)
    if kept:
        move_switch_entries(switch_log_t, upper_counts, counts_at, a1, a2, 1)


def fast_skip(state):
    """The exact self-comparison skip (``skip``) for a state with sampling="fast", else None (slot by slot)."""
    return skip if state.sampling == SAMPLING_FAST else None


DTS_SPEC = AlgorithmSpec(
    name="dts", label="D-TS", init=init_dts, select=select, update=update, sync=sync_dts,
    skip=fast_skip, color="#d62728", marker="o", streams=SAMPLING_STREAMS, fast=FAST_PARAMS,
    defaults={"alpha": ALPHA, "sampling": "indicators"}, presets={"best": DTS_BEST},
    reference="Wu & Liu 2016, Algorithm 1",
)
DTS_PLUS_SPEC = AlgorithmSpec(
    name="dts_plus", label="D-TS+", init=init_dts_plus, select=select, update=update, sync=sync_dts,
    skip=fast_skip, color="#1f77b4", marker=">", streams=SAMPLING_STREAMS, fast=FAST_PARAMS,
    defaults={"alpha": ALPHA, "tie_break": "as-run", "sampling": "indicators"},
    reference="Wu & Liu 2016, Sec. 4.3 (Algorithm 1 with line 11 replaced)",
)
PURE_DTS_SPEC = AlgorithmSpec(
    name="pure_dts", label="pure D-TS", init=init_pure_dts, select=select, update=update, sync=sync_dts,
    skip=fast_skip, color="#000000", marker="<", streams=SAMPLING_STREAMS, fast=FAST_PARAMS,
    defaults={"sampling": "indicators"},
    reference="Wu & Liu 2016, App. D.2.4 (Algorithm 1 without lines 4-6 and the l <= 1/2 filter)",
)


class DTS(Policy):
    """D-TS as a live policy (see ``Policy``); parameter ``alpha`` (default 0.51)."""

    spec = DTS_SPEC


class DTSPlus(Policy):
    """D-TS+ as a live policy; parameters ``alpha`` (0.51) and ``tie_break`` ("as-run" or "paper")."""

    spec = DTS_PLUS_SPEC


class PureDTS(Policy):
    """Pure D-TS (no RUCB/RLCB elimination) as a live policy."""

    spec = PURE_DTS_SPEC

