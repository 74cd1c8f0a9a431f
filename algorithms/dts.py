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
self-comparisons in the simulator (``skip``); it draws the random numbers
differently, so its runs are equal to the others in law, not bit for bit.  Every sampling keeps the
upper Copeland counts between slots (the same integers as a recount, no random number involved).
"""

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from algorithms.base import AlgorithmSpec, Policy, check_alpha, check_choice
from core.argmax import argmax_first, argmax_uniform, argmin_first, fill_true
from core.bitvotes import (
    LANES,
    candidate_votes,
    fill_planes,
    planes_shape,
    refresh_planes,
    scratch_rows,
    unpack_rows,
    words_for,
)
from core.bounds import fill_mirrored_switches, mirrored_bounds, refresh_mirrored_switches, upper_copeland_from_switches
from core.constants import ALPHA, DTS_BEST, PSEUDO_N, PSEUDO_W
from core.kl import kl_clamped
from core.skipping import SKIP_MIN_PROB, first_slot_reaching, geometric_run
from core.thompson import (
    SAMPLING_DIRECT,
    SAMPLINGS,
    fill_above_half,
    record_comparison,
    sample_beta_given_side,
    sample_votes,
)

VARIANT_DTS, VARIANT_PLUS, VARIANT_PURE = 0, 1, 2
TIE_BREAK_AS_RUN, TIE_BREAK_PAPER = 0, 1
TIE_BREAKS = {"as-run": TIE_BREAK_AS_RUN, "paper": TIE_BREAK_PAPER}
# D-TS's sampling modes: those of core.thompson and "fast" (bit-sliced first-phase votes,
# core.bitvotes, and exact skipping of the self-comparisons of the settled phase, ``skip``).
SAMPLING_FAST = 2
DTS_SAMPLINGS = {**SAMPLINGS, "fast": SAMPLING_FAST}
# Stream versions of the sampling values whose draws changed (AlgorithmSpec.streams): "fast" 2 = the
# pruned bit-sliced first phase with the last winner's row first and tail lanes finished per row, and
# no draw for the diagonal of a skipped run; 3 = a pair with as many wins each way votes with probability
# exactly 1/2 (core.thompson.refresh_above_half), decided after one digit (core.bitvotes' end planes),
# and the second phase's l_{i a1} <= 1/2 tested on the cached switch times (differs only at a rounding tie).
SAMPLING_STREAMS = {"sampling": {"fast": 3}}
FAST_PARAMS = {"sampling": "fast"}  # AlgorithmSpec.fast
# What ``skip`` has left for the next ``select``: nothing, the whole pair, or row c of the first phase.
PENDING_NONE, PENDING_PAIR, PENDING_ROW = 0, 1, 2
# The fields of DTSState.skip_state (one record rather than seven arrays: every field of the state costs a
# little on every call of select and update): the kind of pending draw and its two arms; the arm of the
# last select if it was a self-comparison (else -1); updates of pairs i != j so far; that count when
# skip last refused (it does not try again before it changes); the first candidate of the last vote
# of D-TS / pure D-TS with "fast" (-1: none), whose row the next bit-sliced vote draws first
# (``core.bitvotes.candidate_votes``).
DTS_SKIP_STATE = np.dtype([("pending", np.int64), ("pending_a", np.int64), ("pending_b", np.int64),
                           ("last_self", np.int64), ("updates", np.int64), ("refused_at", np.int64),
                           ("lead", np.int64)])
# From this K on, "fast" bit-slices the first-phase votes (measured with the pruned, inlined kernel
# against one uniform per vote, C = every arm: K = 136 1.0x at t = 2000 and 1.2x at t = 20000, K = 500
# 1.5x early and more later; bench/README.md).
BITS_MIN_K = 128


class DTSState(NamedTuple):
    """The state of D-TS, D-TS+ and pure D-TS: the pair statistics, the settings, then caches and
    scratch arrays reused every slot (no allocation per slot).  A ``typing.NamedTuple`` so that numba
    sees a heterogeneous tuple (fields read by name in njit code; ``cache=True`` works)."""

    comparisons: np.ndarray  # n, float64 (K, K): comparisons of each unordered pair, pseudo-count 1e-6
    wins: np.ndarray  # w, float64 (K, K): wins[i, j] = wins of i over j, pseudo-count 1e-5
    alpha: float  # RUCB/RLCB scale factor
    variant: int  # VARIANT_DTS, VARIANT_PLUS or VARIANT_PURE
    tie_break: int  # D-TS+ normaliser: TIE_BREAK_AS_RUN or TIE_BREAK_PAPER
    sampling: int  # SAMPLING_INDICATORS, SAMPLING_DIRECT or SAMPLING_FAST
    upper_counts: np.ndarray  # int64 (K,): upper Copeland counts #{j != i : u_ij >= 1/2} (line 5)
    in_candidates: np.ndarray  # bool (K,): the candidate set C (line 6)
    theta: np.ndarray  # float64 (K, K): first-round Thompson samples (those drawn)
    votes: np.ndarray  # int64 (K,): first-round votes #{j != i : theta_ij > 1/2} of the rows drawn
    rows_drawn: np.ndarray  # bool (K,): rows of theta drawn at this slot
    theta2: np.ndarray  # float64 (K,): second-round samples against a1 (line 13)
    eligible: np.ndarray  # bool (K,): arms that may be the second candidate (l_{i a1} <= 1/2, line 14)
    regret_est: np.ndarray  # float64 (K,): D-TS+ estimated regrets of the tied arms (Sec. 4.3)
    prob_above: np.ndarray  # q, float64 (K, K): q[i, j] = P(theta_ij > 1/2) (not kept with "direct")
    above: np.ndarray  # bool (K, K): the vote indicators 1(theta_ij > 1/2) drawn at this slot
    tied: np.ndarray  # bool (K,): arms of C with the most votes (D-TS+)
    switch_log_t: np.ndarray  # float64 (K, K): the ln t from which the mirrored u_ij >= 1/2
    # Only used with sampling="fast" (q_planes and vote_bits have size 1 otherwise):
    q_planes: np.ndarray  # int64 planes_shape(K): binary digits of prob_above, bit-sliced (core.bitvotes)
    vote_bits: np.ndarray  # int64 (K, W): the first-round vote indicators of the rows of C, bit-packed
    word_scratch: np.ndarray  # int64 (scratch_rows(K), W): scratch of core.bitvotes.candidate_votes
    skip_state: np.ndarray  # DTS_SKIP_STATE (1,): skip's bookkeeping, by name (``skip_state[0].pending``)
    # Used with every sampling (the kept upper counts, see _candidate_set):
    counts_at: np.ndarray  # float64 (2,): ln t at which upper_counts is valid (-1: not), next switch time above


def _make_state(K, variant, alpha, tie_break=TIE_BREAK_AS_RUN, sampling="indicators"):
    """A fresh ``DTSState`` for K arms (pseudo-counts, caches consistent with them)."""
    mode = DTS_SAMPLINGS[check_choice("sampling", sampling, tuple(DTS_SAMPLINGS))]
    n = np.full((K, K), PSEUDO_N)
    w = np.full((K, K), PSEUDO_W)
    q = np.full((K, K), 0.5)
    if mode != SAMPLING_DIRECT:
        fill_above_half(q, w, mode == SAMPLING_FAST)
    fast = mode == SAMPLING_FAST
    W = words_for(K) if fast else 1
    planes = np.zeros(planes_shape(K) if fast else (1, 1, 1), np.int64)
    if fast:
        fill_planes(q, planes)
    return DTSState(
        comparisons=n, wins=w, alpha=float(alpha), variant=int(variant), tie_break=int(tie_break), sampling=int(mode),
        upper_counts=np.zeros(K, np.int64), in_candidates=np.zeros(K, np.bool_), theta=np.full((K, K), 0.5),
        votes=np.zeros(K, np.int64), rows_drawn=np.zeros(K, np.bool_), theta2=np.zeros(K),
        eligible=np.zeros(K, np.bool_),
        regret_est=np.zeros(K), prob_above=q, above=np.zeros((K, K), np.bool_), tied=np.zeros(K, np.bool_),
        switch_log_t=fill_mirrored_switches(n, w, alpha, np.zeros((K, K))),
        q_planes=planes, vote_bits=np.zeros((K if fast else 1, W), np.int64),
        word_scratch=np.zeros((scratch_rows(K) if fast else 1, W), np.int64),
        skip_state=np.array([(PENDING_NONE, 0, 0, -1, 0, -1, -1)], DTS_SKIP_STATE),
        counts_at=np.array([-1.0, -1.0]),
    )


def sync_dts(state):
    """Recompute the vote probabilities and the switch-time cache from the statistics
    (``state.comparisons``, ``state.wins``)."""
    fill_above_half(state.prob_above, state.wins, state.sampling == SAMPLING_FAST)
    fill_mirrored_switches(state.comparisons, state.wins, state.alpha, state.switch_log_t)
    if state.sampling == SAMPLING_FAST:
        fill_planes(state.prob_above, state.q_planes)
    record = state.skip_state[0]  # a view: writing its fields writes the state
    record["pending"], record["last_self"], record["refused_at"], record["lead"] = PENDING_NONE, -1, -1, -1
    state.counts_at[0] = -1.0


def init_dts(K, horizon=None, alpha=ALPHA, sampling="indicators"):
    """State of D-TS (Algorithm 1).  alpha: RUCB/RLCB scale factor (> 0; warns if <= 0.5).

    sampling: "indicators" (default) draws each vote 1(theta_ij > 1/2) as a Bernoulli with the cached
    probability P(theta_ij > 1/2), and a theta value only when a decision needs it (conditioned on its
    side); "direct" draws every needed theta from its Beta, line by line after Algorithm 1; "fast" is
    "indicators" with the first-phase votes bit-sliced (``core.bitvotes``) and, in the simulator, the
    runs of self-comparisons of a settled arm skipped in one geometric draw (``skip``).  All three
    are identical in distribution (tests/test_dts.py, tests/test_dts_fast.py) but use the random
    numbers differently; "direct" is the reference, "indicators" the one the stored results used.
    """
    return _make_state(K, VARIANT_DTS, check_alpha(alpha), sampling=sampling)


def init_dts_plus(K, horizon=None, alpha=ALPHA, tie_break="as-run", sampling="indicators"):
    """State of D-TS+ (Sec. 4.3).  alpha and sampling as for D-TS.

    tie_break: "as-run" (default) normalises the estimated regrets by the largest vote count inside C,
    as the authors' code does; "paper" uses the largest vote count over all arms, as Sec. 4.3 writes.
    They differ only when an arm outside C has more votes than every arm of C (``docs/algorithms.md``, "D-TS+").
    """
    tie = TIE_BREAKS[check_choice("tie_break", tie_break, tuple(TIE_BREAKS))]
    return _make_state(K, VARIANT_PLUS, check_alpha(alpha), tie, sampling)


def init_pure_dts(K, horizon=None, sampling="indicators"):
    """State of pure D-TS (App. D.2.4): D-TS without RUCB/RLCB elimination; sampling as for D-TS."""
    return _make_state(K, VARIANT_PURE, 1.0, sampling=sampling)


@njit(cache=True)
def _plus_regret_estimates(theta, votes, tied, in_c, tie_break, regret_est):
    """D-TS+ tie-break (Sec. 4.3): R_i = sum_{j != i, theta_ij != 1/2} (2 M* - s_i - s_j) / KLc(theta_ij, 1/2)
    for the tied arms i, and the first minimiser.  M* is the largest vote inside C ("as-run") or over
    all arms ("paper"); the paper's 1/(K-1) normalisation does not change the argmin."""
    K = votes.shape[0]
    reference = votes[argmax_first(votes, in_c)]
    if tie_break == TIE_BREAK_PAPER:
        reference = np.max(votes)
    for i in range(K):
        if not tied[i]:
            continue
        total = 0.0
        for j in range(K):
            if j != i and theta[i, j] != 0.5:
                total += (2 * reference - votes[i] - votes[j]) / kl_clamped(theta[i, j], 0.5)
        regret_est[i] = total
    return argmin_first(regret_est, tied)


@njit(cache=True)
def _mark_tied(votes, in_c, tied):
    """tied = the arms of C with the most votes; returns how many."""
    best = votes[argmax_first(votes, in_c)]
    count = 0
    for i in range(votes.shape[0]):
        tied[i] = in_c[i] and votes[i] == best
        count += tied[i]
    return count


@njit(cache=True)
def _theta_given_votes(rng, w, q, above, tied, theta):
    """theta_ij of the tied rows, each drawn from its Beta conditioned on its vote above[i, j] (and
    mirrored inside the tied rows): with the votes, exactly the unconditional joint sample."""
    K = w.shape[0]
    for i in range(K):
        if not tied[i]:
            continue
        for j in range(K):
            if j == i:
                continue
            if tied[j] and j < i:
                theta[i, j] = 1.0 - theta[j, i]
            else:
                side = q[i, j] if above[i, j] else q[j, i]
                theta[i, j] = sample_beta_given_side(rng, w[i, j] + 1.0, w[j, i] + 1.0, above[i, j], side)


@njit(cache=True)
def _first_candidate_fast(rng, state, first):
    """``_first_candidate`` for sampling "fast".  ``first``: -1, or a row of C whose indicators
    ``skip`` has drawn (in ``vote_bits[first]``).  From K = BITS_MIN_K on, the votes of the rows of C
    are bit-sliced (``core.bitvotes``); below, drawn one uniform each as with "indicators" (cheaper
    there).  Bit-sliced D-TS and pure D-TS draw the row of the last first candidate first and stop every
    row that can no longer be the most voted (``candidate_votes`` with ``prune``: exact, lines 8-11 need
    only the set of most-voted rows); D-TS+ needs every vote for its tie-break (Sec. 4.3), so its rows
    are complete, and for a tie the other rows and theta are drawn as with "indicators"."""
    (comparisons, wins, alpha, variant, tie_break, sampling, upper_counts, in_candidates, theta, votes, rows_drawn,
     theta2, eligible, regret_est, prob_above, above, tied, switch_log_t, q_planes, vote_bits, word_scratch,
     skip_state, counts_at) = state
    w, in_c, done, q = wins, in_candidates, rows_drawn, prob_above
    K = w.shape[0]
    bitsliced = K >= BITS_MIN_K
    done[:] = False
    if bitsliced:
        plus = variant == VARIANT_PLUS
        lead = -1 if plus else skip_state[0].lead
        candidate_votes(rng, q_planes, q, in_c, vote_bits, votes, first, lead, not plus, word_scratch)
    else:
        if first >= 0:
            count = 0
            for j in range(K):
                above[first, j] = j != first and (vote_bits[first, j // LANES] >> (j % LANES)) & 1 == 1
                count += above[first, j]
            votes[first] = count
            done[first] = True
        rows = eligible  # scratch until phase 2
        for i in range(K):
            rows[i] = in_c[i] and not done[i]
        sample_votes(rng, w, q, True, rows, done, theta, above, votes)
    if variant != VARIANT_PLUS:
        skip_state[0].lead = argmax_uniform(rng, votes, in_c)
        return skip_state[0].lead
    if _mark_tied(votes, in_c, tied) == 1:
        return argmax_first(votes, tied)
    if bitsliced:
        unpack_rows(vote_bits, in_c, first, above)
    for i in range(K):
        done[i] = in_c[i]
        eligible[i] = not in_c[i]  # the rows not drawn yet (scratch until phase 2)
    sample_votes(rng, w, q, True, eligible, done, theta, above, votes)
    _theta_given_votes(rng, w, q, above, tied, theta)
    return _plus_regret_estimates(theta, votes, tied, in_c, tie_break, regret_est)


@njit(cache=True)
def _first_candidate(rng, state, indicators):
    """Lines 7-11: the votes of the rows of C and their uniform-tie argmax; for D-TS+ on a tie, the
    votes of the other rows too and the regret-based tie-break (with indicators, theta of the tied
    rows is drawn given their votes; exact in distribution, see core.thompson)."""
    (comparisons, wins, alpha, variant, tie_break, sampling, upper_counts, in_candidates, theta, votes, rows_drawn,
     theta2, eligible, regret_est, prob_above, above, tied, switch_log_t, q_planes, vote_bits, word_scratch,
     skip_state, counts_at) = state
    w, in_c, done, q = wins, in_candidates, rows_drawn, prob_above
    done[:] = False
    sample_votes(rng, w, q, indicators, in_c, done, theta, above, votes)
    if variant != VARIANT_PLUS:
        return argmax_uniform(rng, votes, in_c)
    if _mark_tied(votes, in_c, tied) == 1:
        return argmax_first(votes, tied)
    rows = eligible  # scratch until phase 2: the rows not drawn yet (no allocation, unlike ~done)
    for i in range(votes.shape[0]):
        rows[i] = not done[i]
    sample_votes(rng, w, q, indicators, rows, done, theta, above, votes)
    if indicators:
        _theta_given_votes(rng, w, q, above, tied, theta)
    return _plus_regret_estimates(theta, votes, tied, in_c, tie_break, regret_est)


@njit(cache=True)
def select(state, t, rng):
    """Choose (a1, a2) at slot t: Algorithm 1 lines 3-14, with the D-TS+ and pure variants."""
    (comparisons, wins, alpha, variant, tie_break, sampling, upper_counts, in_candidates, theta, votes, rows_drawn,
     theta2, eligible, regret_est, prob_above, above, tied, switch_log_t, q_planes, vote_bits, word_scratch,
     skip_state, counts_at) = state
    n, w, ucount, in_c, q = comparisons, wins, upper_counts, in_candidates, prob_above
    fast = sampling == SAMPLING_FAST
    indicators = sampling != SAMPLING_DIRECT
    first = -1  # with "fast": a first-phase row ``skip`` has drawn for this slot
    if fast:
        if skip_state[0].pending == PENDING_PAIR:  # the pair ``skip`` drew for this slot
            skip_state[0].pending = PENDING_NONE
            skip_state[0].last_self = -1
            return skip_state[0].pending_a, skip_state[0].pending_b
        if skip_state[0].pending == PENDING_ROW:
            skip_state[0].pending = PENDING_NONE
            first = skip_state[0].pending_a
    K = n.shape[0]
    log_t = math.log(t)
    # Phase 1, lines 4-6: candidate set C from the upper Copeland counts.
    size_c = _candidate_set(variant, switch_log_t, ucount, in_c, counts_at, log_t)
    # Lines 7-11: majority vote of the Thompson samples, restricted to C (no sample needed if |C| = 1).
    if size_c == 1:
        a1 = argmax_first(ucount, in_c)
    elif fast:
        a1 = _first_candidate_fast(rng, state, first)
    else:
        a1 = _first_candidate(rng, state, indicators)
    # Phase 2, lines 13-14: fresh samples against a1 among the arms with l_{i a1} <= 1/2.  theta2_{a1}
    # is 1/2, so only samples above 1/2 can beat a1: with indicators, the value of theta2_i is drawn
    # (conditioned on > 1/2) only for arms whose indicator says so.  "fast" tests l_{i a1} <= 1/2 as
    # u_{a1 i} >= 1/2 on the cached switch times (no square root; the same test as ``skip``'s).
    for i in range(K):
        eligible[i] = i == a1 or variant == VARIANT_PURE or (
            log_t >= switch_log_t[a1, i] if fast else mirrored_bounds(n, w, i, a1, log_t, alpha)[1] <= 0.5)
        if i == a1:
            theta2[i] = 0.5
        elif eligible[i] and not indicators:
            theta2[i] = rng.beta(w[i, a1] + 1.0, w[a1, i] + 1.0)
        elif eligible[i]:
            eligible[i] = rng.random() < q[i, a1]
            if eligible[i]:
                theta2[i] = sample_beta_given_side(rng, w[i, a1] + 1.0, w[a1, i] + 1.0, True, q[i, a1])
    a2 = argmax_first(theta2, eligible)
    if fast:
        skip_state[0].last_self = a1 if a1 == a2 else -1
    return a1, a2


@njit(cache=True, inline="always")
def _candidate_set(variant, switch, ucount, in_c, counts_at, log_t):
    """Lines 4-6: fill ``upper_counts`` and ``in_candidates`` at ln t; returns |C|.

    The upper Copeland counts are kept up to date between slots (every sampling) instead of recounted
    (K^2 comparisons a slot): they change only when ln t reaches a cached switch time (then all are
    recounted and the next switch time above ln t found) or when a pair is updated (``update`` moves
    that pair's two entries).  The counts are the same integers as a recount at every slot, so C
    and every draw are unchanged."""
    K = ucount.shape[0]
    if variant == VARIANT_PURE:
        fill_true(in_c)
        return K
    if counts_at[0] < 0.0 or log_t < counts_at[0] or log_t >= counts_at[1]:
        upper_copeland_from_switches(switch, log_t, ucount)
        following = math.inf
        for i in range(K):
            for j in range(K):
                if j != i and log_t < switch[i, j] < following:
                    following = switch[i, j]
        counts_at[0] = log_t
        counts_at[1] = following
    else:
        counts_at[0] = log_t  # no switch time in between: the counts hold
    top = np.max(ucount)
    size = 0
    for i in range(K):
        in_c[i] = ucount[i] == top
        size += in_c[i]
    return size


@njit(cache=True)
def _move_switch_entries(switch_log_t, upper_counts, counts_at, a1, a2, sign):
    """Add ``sign`` times the contribution of the entries (a1, a2), (a2, a1) of the switch table to
    the kept upper counts; with sign = +1, also lower the next switch time if one of them is above
    the counts' ln t and before it.  The arrays are the ``DTSState`` fields of the same names."""
    valid_at = counts_at[0]
    for a, b in ((a1, a2), (a2, a1)):
        value = switch_log_t[a, b]
        if valid_at >= value:
            upper_counts[a] += sign
        elif sign > 0 and value < counts_at[1]:
            counts_at[1] = value


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """Algorithm 1 line 17: one more win for the winner of (a1, a2); refresh the pair's vote
    probabilities (unless sampling "direct"), their bit planes ("fast"), the pair's switch times and
    their contribution to the kept upper Copeland counts (see ``_candidate_set``)."""
    (comparisons, wins, alpha, variant, tie_break, sampling, upper_counts, in_candidates, theta, votes, rows_drawn,
     theta2, eligible, regret_est, prob_above, above, tied, switch_log_t, q_planes, vote_bits, word_scratch,
     skip_state, counts_at) = state
    record_comparison(comparisons, wins, prob_above, a1, a2, a1_won, sampling != SAMPLING_DIRECT,
                      sampling == SAMPLING_FAST)
    kept = a1 != a2 and counts_at[0] >= 0.0
    if sampling == SAMPLING_FAST:
        refresh_planes(q_planes, prob_above, a1, a2)
        skip_state[0].updates += a1 != a2
    if kept:
        _move_switch_entries(switch_log_t, upper_counts, counts_at, a1, a2, -1)
    refresh_mirrored_switches(comparisons, wins, alpha, switch_log_t, a1, a2)
    if kept:
        _move_switch_entries(switch_log_t, upper_counts, counts_at, a1, a2, 1)


@njit(cache=True)
def _row_not_all_above(rng, q, c, in_row, bits):
    """Lane j of ``bits[c]`` for j != c: independent votes 1(theta_cj > 1/2) ~ Bernoulli(q[c, j])
    conditioned on not all being 1 -- one after the other, P(1 | all 1 so far) = q_j (1 - prod_{l > j}
    q_l) / (1 - prod_{l >= j} q_l), unconditional once a 0 is drawn.  in_row: float64 (K,) scratch."""
    K = q.shape[0]
    suffix = in_row  # suffix[j] = ln prod_{l >= j, l != c} q[c, l] (so suffix[c] = suffix[c + 1])
    total = 0.0
    for j in range(K - 1, -1, -1):
        if j != c:
            total += math.log(q[c, j])
        suffix[j] = total
    bits[c, :] = 0
    zero_seen = False
    for j in range(K):
        if j == c:
            continue
        if zero_seen:
            vote = rng.random() < q[c, j]
        else:
            tail = -math.expm1(suffix[j + 1] if j + 1 < K else 0.0)  # P(not all 1 after j)
            if tail <= 0.0:
                vote = False  # j is the last lane: all before it are 1
            else:
                vote = rng.random() * -math.expm1(suffix[j]) < q[c, j] * tail
        if vote:
            bits[c, j // LANES] |= np.int64(1) << (j % LANES)
        else:
            zero_seen = True


@njit(cache=True)
def skip(state, t, rng, t_limit):
    """Skip runs of self-comparisons in one draw (sampling "fast"; D-TS, D-TS+ and pure D-TS).

    Called by the simulator before slot t with t_limit >= t, the last slot up to which nothing but
    this algorithm's own selections happens (no checkpoint, delayed-feedback delivery or horizon in
    between).  Until the next slot at which ln t crosses a cached switch time of the mirrored bounds
    (or t_limit) the candidate set C and, for each a1, the set E(a1) of arms with l_{i a1} <= 1/2 are
    constant, and without an update every slot is an independent draw of lines 4-14.  Take c = the arm
    of the last slot's self-comparison (a choice made from the past), if it is in C, and
    P_c = prod_{j != c} q[c, j] (P_c = 1 if C = {c}): when row c of the first
    phase is all votes (probability P_c), c is the unique most-voted arm of C, so a1 = c for D-TS and
    D-TS+ alike; then a2 = c unless some i in E(c) has theta2_i > 1/2, which has probability
    p_self = prod_{i in E(c)} (1 - q[i, c]).  So each slot is, independently, the "sweep
    self-comparison" (c, c) with probability rho = P_c p_self, and otherwise an "event" slot: the number
    G of sweep self-comparisons before the next event is geometric, P(G >= g) = rho^g, and the event
    slot has the law of lines 4-14 given "not a sweep self-comparison": with probability
    P_c (1 - p_self) / (1 - rho) a1 = c and a2 from lines 13-14 conditioned on some theta2_i > 1/2
    (indicators drawn one after the other with P(1 | none yet) = q_i / P(at least one among the rest),
    theta2 given > 1/2, first-index argmax); otherwise row c conditioned on not all votes
    (``_row_not_all_above``), left for ``select`` to finish lines 7-14 as usual.  Self-comparisons change
    only the never-read diagonal of the statistics, updated here.  Returns (slots, c): slots t ..
    t + slots - 1 are self-comparisons of c (the simulator adds their regret, g2w and self counts),
    slots = min(G, t_limit - t + 1); if G is smaller, the event of slot t + G is left in ``skip_state``.
    (0, -1) when not tried: another sampling, a draw already pending, the last slot not a
    self-comparison or its arm not in C, or rho < SKIP_MIN_PROB -- then not again before a pair i != j is updated (all
    decided from the past, so the law is unchanged).
    """
    (comparisons, wins, alpha, variant, tie_break, sampling, upper_counts, in_candidates, theta, votes, rows_drawn,
     theta2, eligible, regret_est, prob_above, above, tied, switch_log_t, q_planes, vote_bits, word_scratch,
     skip_state, counts_at) = state
    if sampling != SAMPLING_FAST or skip_state[0].pending != PENDING_NONE or skip_state[0].last_self < 0 \
            or skip_state[0].updates == skip_state[0].refused_at:
        return 0, -1
    n, w, q, switch, ucount, in_c = comparisons, wins, prob_above, switch_log_t, upper_counts, in_candidates
    K = n.shape[0]
    pure = variant == VARIANT_PURE
    log_t = math.log(t)
    size_c = _candidate_set(variant, switch, ucount, in_c, counts_at, log_t)
    # The sweeping arm c: the arm of the last self-comparison, if it is in C; ln P_c.
    c = skip_state[0].last_self
    if not in_c[c]:
        return 0, -1
    log_sweep = 0.0
    if size_c > 1:
        for j in range(K):
            if j != c:
                log_sweep += math.log(q[c, j])
    log_self = 0.0
    for i in range(K):
        eligible[i] = i != c and (pure or log_t >= switch[c, i])  # l_ic <= 1/2, as ``select`` tests it
        if eligible[i]:
            log_self += math.log1p(-q[i, c])
    log_rho = log_sweep + log_self
    if log_rho < math.log(SKIP_MIN_PROB):
        skip_state[0].refused_at = skip_state[0].updates  # not again before the statistics change
        return 0, -1
    # The last slot before ln t reaches the next cached switch time (C and E are constant until then).
    end = t_limit
    if not pure:
        next_switch = counts_at[1]  # at most the next switch time above ln t (see _candidate_set)
        if next_switch <= math.log(t_limit):
            end = min(end, first_slot_reaching(next_switch, 0.0) - 1)
        if end < t:  # (E, like C, changes only at a switch time: constant up to ``end``)
            return 0, -1
    available = end - t + 1
    gap = geometric_run(rng, log_rho, available)  # all of them if every slot is a sweep self-comparison
    if gap < available:
        # The event slot t + gap.  P(sweep and not self | event) = P_c (1 - p_self) / (1 - rho).
        if rng.random() * -math.expm1(log_rho) < math.exp(log_sweep) * -math.expm1(log_self):
            suffix = regret_est  # suffix[i] = ln P(no indicator among the eligible arms >= i)
            total = 0.0
            last = -1
            for i in range(K - 1, -1, -1):
                if eligible[i]:
                    total += math.log1p(-q[i, c])
                    if last < 0:
                        last = i
                suffix[i] = total
            found = False
            for i in range(K):
                if not eligible[i]:
                    continue
                if found:
                    chosen = rng.random() < q[i, c]
                elif i == last:
                    chosen = True
                else:
                    chosen = rng.random() * -math.expm1(suffix[i]) < q[i, c]
                eligible[i] = chosen
                if chosen:
                    found = True
                    theta2[i] = sample_beta_given_side(rng, w[i, c] + 1.0, w[c, i] + 1.0, True, q[i, c])
            skip_state[0].pending = PENDING_PAIR
            skip_state[0].pending_a = c
            skip_state[0].pending_b = argmax_first(theta2, eligible)
        else:
            _row_not_all_above(rng, q, c, regret_est, vote_bits)
            skip_state[0].pending = PENDING_ROW
            skip_state[0].pending_a = c
    if gap > 0:
        n[c, c] += 2.0 * gap
        w[c, c] += gap  # as ``update_pair`` does slot by slot: one "win" per self-comparison, no draw
    return gap, c


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

