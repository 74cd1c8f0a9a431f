"""D-TS's sampling="fast" (``algorithms.dts``): the bit-sliced first phase and the exact skip of runs of
self-comparisons (bench/README.md, "What sampling="fast" is").

Both are exact in distribution but draw the random numbers differently from "indicators", so runs
with "fast" equal the others in law, not bit for bit (tests/algorithms/test_dts_fast.py).
"""

import math

import numpy as np
from numba import njit

from dts_reproduction.algorithms.dts_state import (
    PENDING_NONE,
    PENDING_PAIR,
    PENDING_ROW,
    SAMPLING_FAST,
    VARIANT_PURE,
    candidate_set,
)
from dts_reproduction.core.argmax import argmax_first
from dts_reproduction.core.bitvotes import LANES, candidate_votes
from dts_reproduction.core.skipping import SKIP_MIN_PROB, first_slot_reaching, geometric_run
from dts_reproduction.core.thompson import sample_beta_given_side, sample_votes

# From this K on, "fast" bit-slices the first-phase votes (measured with the pruned, inlined kernel
# against one uniform per vote, C = every arm: K = 136 1.0x at t = 2000 and 1.2x at t = 20000, K = 500
# 1.5x early and more later; bench/README.md).
BITS_MIN_K = 128


@njit(cache=True, inline="always")
def take_pending(skip_state):
    """Consume what ``skip`` left for this slot: (kind, a, b) with kind PENDING_PAIR (the pair (a, b) is
    this slot's selection), PENDING_ROW (row a of the first phase is drawn, in ``vote_bits[a]``) or
    PENDING_NONE.  ``skip_state``: the ``DTSState`` field."""
    kind = skip_state[0].pending
    if kind == PENDING_PAIR:
        skip_state[0].pending = PENDING_NONE
        skip_state[0].last_self = -1
    elif kind == PENDING_ROW:
        skip_state[0].pending = PENDING_NONE
    return kind, skip_state[0].pending_a, skip_state[0].pending_b


@njit(cache=True)
def draw_votes_fast(rng, q_planes, prob_above, wins, in_candidates, vote_bits, votes, word_scratch, above, rows_drawn,
                    rows_scratch, theta, first_row, lead, prune):
    """Lines 7-10 with sampling "fast": the votes of the rows of C.  ``first_row``: -1, or a row of C whose
    indicators ``skip`` has drawn (in ``vote_bits[first_row]``).  From K = BITS_MIN_K on, the votes are
    bit-sliced (``core.bitvotes.candidate_votes``: the row ``lead`` first, with ``prune`` every row
    stopped once it can no longer be the most voted -- exact, line 11 needs only the most-voted rows) and
    left packed in ``vote_bits``; below, drawn one uniform each as with "indicators" (cheaper there) into
    ``above``.  Returns whether they are bit-sliced.  ``rows_scratch``: bool (K,) scratch; the other
    arrays are the ``DTSState`` fields of the same names."""
    K = wins.shape[0]
    rows_drawn[:] = False
    if K >= BITS_MIN_K:
        candidate_votes(rng, q_planes, prob_above, in_candidates, vote_bits, votes, first_row, lead, prune,
                        word_scratch)
        return True
    if first_row >= 0:
        count = 0
        for j in range(K):
            above[first_row, j] = j != first_row and (vote_bits[first_row, j // LANES] >> (j % LANES)) & 1 == 1
            count += above[first_row, j]
        votes[first_row] = count
        rows_drawn[first_row] = True
    for i in range(K):
        rows_scratch[i] = in_candidates[i] and not rows_drawn[i]
    sample_votes(rng, wins, prob_above, True, rows_scratch, rows_drawn, theta, above, votes)
    return False


@njit(cache=True)
def _row_not_all_above(rng, prob_above, c, log_suffix_scratch, vote_bits):
    """Lane j of ``vote_bits[c]`` for j != c: independent votes 1(theta_cj > 1/2) ~ Bernoulli(q[c, j])
    conditioned on not all being 1 -- one after the other, P(1 | all 1 so far) = q_j (1 - prod_{l > j}
    q_l) / (1 - prod_{l >= j} q_l), unconditional once a 0 is drawn.  log_suffix_scratch: float64 (K,)."""
    K = prob_above.shape[0]
    suffix = log_suffix_scratch  # suffix[j] = ln prod_{l >= j, l != c} q[c, l] (so suffix[c] = suffix[c + 1])
    total = 0.0
    for j in range(K - 1, -1, -1):
        if j != c:
            total += math.log(prob_above[c, j])
        suffix[j] = total
    vote_bits[c, :] = 0
    zero_seen = False
    for j in range(K):
        if j == c:
            continue
        if zero_seen:
            vote = rng.random() < prob_above[c, j]
        else:
            tail = -math.expm1(suffix[j + 1] if j + 1 < K else 0.0)  # P(not all 1 after j)
            if tail <= 0.0:
                vote = False  # j is the last lane: all before it are 1
            else:
                vote = rng.random() * -math.expm1(suffix[j]) < prob_above[c, j] * tail
        if vote:
            vote_bits[c, j // LANES] |= np.int64(1) << (j % LANES)
        else:
            zero_seen = True


@njit(cache=True)
def _second_given_some_above(rng, wins, prob_above, c, eligible, log_suffix_scratch, theta2):
    """Lines 13-14 against a1 = c conditioned on some eligible theta2_i > 1/2: the indicators drawn one
    after the other with P(1 | none yet) = q_ic / P(at least one among the rest), theta2 given > 1/2;
    returns a2 (first-index argmax).  ``eligible``: E(c) on entry, the arms above 1/2 on return."""
    K = wins.shape[0]
    suffix = log_suffix_scratch  # suffix[i] = ln P(no indicator among the eligible arms >= i)
    total = 0.0
    last = -1
    for i in range(K - 1, -1, -1):
        if eligible[i]:
            total += math.log1p(-prob_above[i, c])
            if last < 0:
                last = i
        suffix[i] = total
    found = False
    for i in range(K):
        if not eligible[i]:
            continue
        if found:
            chosen = rng.random() < prob_above[i, c]
        elif i == last:
            chosen = True
        else:
            chosen = rng.random() * -math.expm1(suffix[i]) < prob_above[i, c]
        eligible[i] = chosen
        if chosen:
            found = True
            theta2[i] = sample_beta_given_side(rng, wins[i, c] + 1.0, wins[c, i] + 1.0, True, prob_above[i, c])
    return argmax_first(theta2, eligible)


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
    (``_second_given_some_above``); otherwise row c conditioned on not all votes
    (``_row_not_all_above``), left for ``select`` to finish lines 7-14 as usual.  Self-comparisons change
    only the never-read diagonal of the statistics, updated here.  Returns (slots, c): slots t ..
    t + slots - 1 are self-comparisons of c (the simulator adds their regret, g2w and self counts),
    slots = min(G, t_limit - t + 1); if G is smaller, the event of slot t + G is left in ``skip_state``.
    (0, -1) when not tried: another sampling, a draw already pending, the last slot not a
    self-comparison or its arm not in C, or rho < SKIP_MIN_PROB -- then not again before a pair i != j is updated (all
    decided from the past, so the law is unchanged).
    """
    comparisons, wins, prob_above, switch_log_t = state.comparisons, state.wins, state.prob_above, state.switch_log_t
    variant, sampling, skip_state, vote_bits = state.variant, state.sampling, state.skip_state, state.vote_bits
    upper_counts, in_candidates, counts_at = state.upper_counts, state.in_candidates, state.counts_at
    theta2, eligible, log_suffix_scratch = state.theta2, state.eligible, state.log_suffix_scratch
    if sampling != SAMPLING_FAST or skip_state[0].pending != PENDING_NONE or skip_state[0].last_self < 0 \
            or skip_state[0].updates == skip_state[0].refused_at:
        return 0, -1
    K = prob_above.shape[0]
    pure = variant == VARIANT_PURE
    log_t = math.log(t)
    size_c = candidate_set(variant, switch_log_t, upper_counts, in_candidates, counts_at, log_t)
    # The sweeping arm c: the arm of the last self-comparison, if it is in C; ln P_c.
    c = skip_state[0].last_self
    if not in_candidates[c]:
        return 0, -1
    log_sweep = 0.0
    if size_c > 1:
        for j in range(K):
            if j != c:
                log_sweep += math.log(prob_above[c, j])
    log_self = 0.0
    for i in range(K):
        eligible[i] = i != c and (pure or log_t >= switch_log_t[c, i])  # l_ic <= 1/2, as ``select`` tests it
        if eligible[i]:
            log_self += math.log1p(-prob_above[i, c])
    log_rho = log_sweep + log_self
    if log_rho < math.log(SKIP_MIN_PROB):
        skip_state[0].refused_at = skip_state[0].updates  # not again before the statistics change
        return 0, -1
    # The last slot before ln t reaches the next cached switch time (C and E are constant until then).
    end = t_limit
    if not pure:
        next_switch = counts_at[1]  # at most the next switch time above ln t (see candidate_set)
        if next_switch <= math.log(t_limit):
            end = min(end, first_slot_reaching(next_switch, 0.0) - 1)
        if end < t:  # (E, like C, changes only at a switch time: constant up to ``end``)
            return 0, -1
    available = end - t + 1
    gap = geometric_run(rng, log_rho, available)  # all of them if every slot is a sweep self-comparison
    if gap < available:
        # The event slot t + gap.  P(sweep and not self | event) = P_c (1 - p_self) / (1 - rho).
        if rng.random() * -math.expm1(log_rho) < math.exp(log_sweep) * -math.expm1(log_self):
            skip_state[0].pending = PENDING_PAIR
            skip_state[0].pending_a = c
            skip_state[0].pending_b = _second_given_some_above(rng, wins, prob_above, c, eligible,
                                                               log_suffix_scratch, theta2)
        else:
            _row_not_all_above(rng, prob_above, c, log_suffix_scratch, vote_bits)
            skip_state[0].pending = PENDING_ROW
            skip_state[0].pending_a = c
    if gap > 0:
        comparisons[c, c] += 2.0 * gap
        wins[c, c] += gap  # as ``update_pair`` does slot by slot: one "win" per self-comparison, no draw
    return gap, c
