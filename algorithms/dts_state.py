"""The state of D-TS, D-TS+ and pure D-TS (``algorithms.dts``), its settings, and the upper Copeland
counts it keeps between slots (Algorithm 1 lines 4-6).

Every sampling keeps the upper Copeland counts instead of K^2 comparisons a slot: they change only
when ln t reaches a cached switch time (then all are recounted and the next switch time above ln t
found) or when a pair is updated (``update`` moves that pair's two entries, ``move_switch_entries``).
They are the same integers as a recount at every slot, so C and every draw are unchanged.

The fields only one mode uses are None in the other states: the bit planes of sampling="fast" (``q_planes``,
``vote_bits``, ``word_scratch``) and D-TS+'s estimated regrets (``regret_est``).  numba types a state by its
fields, and a kernel taking such a field as an argument is compiled without the branch ``if field is None``
excludes (``algorithms.dts``), so a D-TS state with the default sampling compiles neither the bit-sliced votes nor
D-TS+'s tie-break (docs/install.md#first-use).
"""

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from dts_reproduction.algorithms.base import check_choice
from dts_reproduction.core.argmax import fill_true
from dts_reproduction.core.bitvotes import fill_planes, planes_shape, scratch_rows, words_for
from dts_reproduction.core.bounds import fill_mirrored_switches, upper_copeland_from_switches
from dts_reproduction.core.constants import PSEUDO_N, PSEUDO_W
from dts_reproduction.core.records import record
from dts_reproduction.core.thompson import SAMPLING_DIRECT, SAMPLINGS, fill_above_half

VARIANT_DTS, VARIANT_PLUS, VARIANT_PURE = 0, 1, 2
TIE_BREAK_AS_RUN, TIE_BREAK_PAPER = 0, 1
TIE_BREAKS = {"as-run": TIE_BREAK_AS_RUN, "paper": TIE_BREAK_PAPER}
# D-TS's sampling modes: those of core.thompson and "fast" (bit-sliced first-phase votes,
# core.bitvotes, and exact skipping of the self-comparisons of the settled phase, ``algorithms.dts_fast``).
SAMPLING_FAST = 2
DTS_SAMPLINGS = {**SAMPLINGS, "fast": SAMPLING_FAST}
# What ``algorithms.dts_fast.skip`` has left for the next ``select``: nothing, the whole pair, or row c of
# the first phase.
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
    regret_est: np.ndarray | None  # float64 (K,): D-TS+ estimated regrets of the tied arms (Sec. 4.3), else None
    prob_above: np.ndarray  # q, float64 (K, K): q[i, j] = P(theta_ij > 1/2) (not kept with "direct")
    above: np.ndarray  # bool (K, K): the vote indicators 1(theta_ij > 1/2) drawn at this slot
    tied: np.ndarray  # bool (K,): arms of C with the most votes (D-TS+)
    switch_log_t: np.ndarray  # float64 (K, K): the ln t from which the mirrored u_ij >= 1/2
    # Only used with sampling="fast" (None otherwise):
    q_planes: np.ndarray | None  # int64 planes_shape(K): binary digits of prob_above, bit-sliced (core.bitvotes)
    vote_bits: np.ndarray | None  # int64 (K, W): the first-round vote indicators of the rows of C, bit-packed
    word_scratch: np.ndarray | None  # int64 (scratch_rows(K), W): scratch of core.bitvotes.candidate_votes
    skip_state: np.ndarray  # DTS_SKIP_STATE (1,): skip's bookkeeping, by name (``skip_state[0].pending``)
    # Used with every sampling (the kept upper counts, see candidate_set):
    counts_at: np.ndarray  # float64 (2,): ln t at which upper_counts is valid (-1: not), next switch time above
    # Scratch, meaningless between calls:
    rows_scratch: np.ndarray  # bool (K,): the rows a first-phase draw is to draw
    log_suffix_scratch: np.ndarray  # float64 (K,): suffix sums of log-probabilities (algorithms.dts_fast)


def make_state(K, variant, alpha, tie_break=TIE_BREAK_AS_RUN, sampling="indicators"):
    """A fresh ``DTSState`` for K arms (pseudo-counts, caches consistent with them)."""
    mode = DTS_SAMPLINGS[check_choice("sampling", sampling, tuple(DTS_SAMPLINGS))]
    fast = mode == SAMPLING_FAST
    comparisons = np.full((K, K), PSEUDO_N)
    wins = np.full((K, K), PSEUDO_W)
    prob_above = np.full((K, K), 0.5)
    if mode != SAMPLING_DIRECT:
        fill_above_half(prob_above, wins, fast)
    q_planes = vote_bits = word_scratch = regret_est = None  # module docstring
    if fast:
        q_planes = fill_planes(prob_above, np.zeros(planes_shape(K), np.int64))
        vote_bits = np.zeros((K, words_for(K)), np.int64)
        word_scratch = np.zeros((scratch_rows(K), words_for(K)), np.int64)
    if variant == VARIANT_PLUS:
        regret_est = np.zeros(K)
    return DTSState(
        comparisons=comparisons, wins=wins, alpha=float(alpha), variant=int(variant), tie_break=int(tie_break),
        sampling=int(mode), upper_counts=np.zeros(K, np.int64), in_candidates=np.zeros(K, np.bool_),
        theta=np.full((K, K), 0.5), votes=np.zeros(K, np.int64), rows_drawn=np.zeros(K, np.bool_),
        theta2=np.zeros(K), eligible=np.zeros(K, np.bool_), regret_est=regret_est, prob_above=prob_above,
        above=np.zeros((K, K), np.bool_), tied=np.zeros(K, np.bool_),
        switch_log_t=fill_mirrored_switches(comparisons, wins, alpha, np.zeros((K, K))),
        q_planes=q_planes, vote_bits=vote_bits, word_scratch=word_scratch,
        skip_state=record(DTS_SKIP_STATE, (PENDING_NONE, 0, 0, -1, 0, -1, -1)),
        counts_at=np.array([-1.0, -1.0]), rows_scratch=np.zeros(K, np.bool_), log_suffix_scratch=np.zeros(K),
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


@njit(cache=True, inline="always")
def candidate_set(variant, switch_log_t, upper_counts, in_candidates, counts_at, log_t):
    """Lines 4-6: fill ``upper_counts`` and ``in_candidates`` at ln t; returns |C|.  The arrays are the
    ``DTSState`` fields of the same names; the counts are kept between calls (module docstring)."""
    K = upper_counts.shape[0]
    if variant == VARIANT_PURE:
        fill_true(in_candidates)
        return K
    if counts_at[0] < 0.0 or log_t < counts_at[0] or log_t >= counts_at[1]:
        upper_copeland_from_switches(switch_log_t, log_t, upper_counts)
        following = math.inf
        for i in range(K):
            for j in range(K):
                if j != i and log_t < switch_log_t[i, j] < following:
                    following = switch_log_t[i, j]
        counts_at[0] = log_t
        counts_at[1] = following
    else:
        counts_at[0] = log_t  # no switch time in between: the counts hold
    top = upper_counts[0]  # a loop, not np.max: that compiles numpy's reduction, 0.5 CPU s of a first select
    for i in range(1, K):
        top = max(top, upper_counts[i])
    size = 0
    for i in range(K):
        in_candidates[i] = upper_counts[i] == top
        size += in_candidates[i]
    return size


@njit(cache=True, inline="always")  # inlined: ``update`` calls it with two constant signs, each its own compile
def move_switch_entries(switch_log_t, upper_counts, counts_at, a1, a2, sign):
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
