"""CCB, Copeland Confidence Bound (Zoghi et al., NIPS 2015, Algorithm 1) -- docs/algorithms.md#ccb.

As run by the authors of "Double Thompson Sampling for Dueling Bandits" (Wu & Liu, NIPS 2016):
pseudo-counts n = 1e-6, w = 1e-5, direct confidence bounds with alpha = 0.51
(docs/algorithms.md#shared-building-blocks),
upper/lower Copeland counts with ``>=``, probabilities 1/4 (pair exploration), 2/3 (restrict C to
the potential winners B) and 1/2 (challenger from B^{a1}), and first-index ties for a2 (the original
breaks them randomly).  State: the potential-winner set B (a mask; its order is never read),
one ordered potential-challenger list B^i per arm, and the estimated maximum number of losses Lbar.

Deviation from the C++ (documented, not an option): when step 4 cuts a list B^j down to Lbar + 1
elements, the C++ shuffles it with a default-seeded engine created afresh at every call, so its
"random" choice is a fixed permutation of the list.  Here the kept elements are a uniformly random
ordered subset drawn from the run's generator (partial Fisher-Yates), as the original algorithm says.

Quirk reproduced (docs/algorithms.md#ccb): at t = 1 every bound is 10, every arm is "added as a winner" with
Lbar = 0, no challenger has l_{j a1} <= 1/2, so CCB plays (a1, a1) with a1 uniform.

Option ``skip`` (docs/algorithms.md#exact-skipping-of-self-comparison-runs): "off" (default, slot by
slot) or "exact": in the simulator, a run of self-comparisons (a, a) in the settled phase is done in
one step (``skip``).  It applies when C = {a}, steps 2-4 would change nothing (no recount is due, no arm
of B is removed, the lists already have 0 or Lbar + 1 entries), step 5 has no unresolved pair and a is
its own challenger in step 7: then every draw of ``select`` decides nothing and the pair is (a, a) until
ln t reaches the earliest switch time of the rows (or some u_{j a} its switch time to 1/2).  The skipped slots'
draws are not made, so the runs equal the default ones in law, not bit for bit.  While an unresolved
pair exists (step 5 plays it with probability 1/4) or |C| > 1, slots are not skipped.

Cost: every test of a bound against 1/2 (Copeland counts, steps 2-5 and the challenger filter of
step 7) reads cached switch times (the ln t at which u_ij reaches 1/2 and up to which l_ij stays above
it, refreshed when the pair is compared; ``core.bounds``), and no square root; only the column u_{. a1}
of step 7 is evaluated.  The upper and lower Copeland counts are kept between slots: each row keeps the
earliest of its switch times at or after the ln t of its last recount (``row_next``), and a row is
recounted (O(K)) only when ln t reaches that time or one of its pairs was compared (``update`` marks
both rows), so a slot costs O(K) plus O(K) per such row instead of 2 K^2 comparisons.  Step 2 needs
only the lists of the recounted rows: every other row has neither been compared nor passed a switch
time since the previous slot, whose step 2 found (or, by reset, made) none of its entries disproven.
Everything is recounted, and step 2 run on every list, after ``sync_ccb`` or when t goes back.  Steps
3 and 4 cost O(K) a slot plus O(K) per arm they move.  Step 5 (probability 1/4) sums kept per-row
counts of the unresolved pairs in each list (counted when the row is recounted, and again when the
list's length has changed, the only way a list changes) and walks only the list holding the drawn pair.
The same integers as a full recount (tests/reference/scans_reference.py keeps the full-scan select; the lockstep
in tests/algorithms/test_incremental.py), so every draw and choice is unchanged.
"""

import math

import numpy as np
from numba import njit

from dts_reproduction.algorithms.base import EXACT_SKIP, SKIP_OFF, AlgorithmSpec, Policy, exact_skip_hook
from dts_reproduction.algorithms.ccb_skip import skip
from dts_reproduction.algorithms.ccb_state import CHECKED_AT, COUNTED_LEN, EARLIEST, UNRESOLVED, init_ccb, sync_ccb
from dts_reproduction.core.argmax import fill_true, uniform_member
from dts_reproduction.core.bounds import direct_upper_column, refresh_direct_bound_switches, update_pair
from dts_reproduction.core.constants import ALPHA, CCB_P_CHALLENGER, CCB_P_EXPLORE, CCB_P_RESTRICT


@njit(cache=True)
def _reset(max_losses, in_b, lens):
    """The initialisation of Algorithm 1 again: B = all arms, every B^i empty, Lbar = K."""
    fill_true(in_b)
    lens[:] = 0
    max_losses[0] = in_b.shape[0]


@njit(cache=True, inline="always")
def _row_disproven(lower, log_t, i, lists, lens):
    """Some j in B^i has l_ij > 1/2 (ln t < lower[i, j])."""
    for s in range(lens[i]):
        if log_t < lower[i, lists[i, s]]:
            return True
    return False


@njit(cache=True)
def _reset_disproven(lower, log_t, max_losses, in_b, lists, lens):
    """Step 2, "reset disproven hypotheses", on every list: reset if some j in B^i has l_ij > 1/2."""
    for i in range(lower.shape[0]):
        if _row_disproven(lower, log_t, i, lists, lens):
            _reset(max_losses, in_b, lens)
            return


@njit(cache=True, inline="always")
def _walk_list(upper, lower, log_t, i, lists, lens, unresolved):
    """Walk B^i once: ``unresolved[:, i]`` = (#{j in B^i : l_ij <= 1/2 <= u_ij}, |B^i|); returns whether
    some j in B^i has l_ij > 1/2 (step 2 on this row)."""
    count = 0
    disproven = False
    for s in range(lens[i]):
        j = lists[i, s]
        disproven = disproven or log_t < lower[i, j]
        count += _unresolved(upper, lower, log_t, i, j)
    unresolved[UNRESOLVED, i] = count
    unresolved[COUNTED_LEN, i] = lens[i]
    return disproven


@njit(cache=True, inline="always")
def _recount_row(upper, lower, log_t, i, cu, cl, row_next):
    """Step 1 on row i: ``cu[i] = #{j != i : u_ij >= 1/2}`` (ln t >= upper[i, j]) and
    ``cl[i] = #{j != i : l_ij >= 1/2}`` (ln t <= lower[i, j]), and ``row_next[i]``, the earliest upper
    switch time after ln t or lower one at or after it: before it no test of row i against 1/2 (these
    two, step 2's and step 5's) changes."""
    count_up, count_lo, following = 0, 0, math.inf
    for j in range(upper.shape[0]):
        if j == i:
            continue
        if log_t >= upper[i, j]:
            count_up += 1
        elif upper[i, j] < following:
            following = upper[i, j]
        if log_t <= lower[i, j]:
            count_lo += 1
            following = min(following, lower[i, j])
    cu[i] = count_up
    cl[i] = count_lo
    row_next[i] = following


@njit(cache=True, inline="always")
def _refresh_counts(upper, lower, log_t, cu, cl, row_next, lists, lens, unresolved):
    """Bring the kept Copeland counts and unresolved counts to ln t (module doc, "Cost"): recount the
    rows that are due, or every row if nothing was counted yet or ln t went back.  Returns -1 after
    recounting every row (step 2 must then check every list), else whether some recounted row has a
    disproven entry in its list (step 2 on the only rows that can)."""
    K = cu.shape[0]
    full = log_t < row_next[K + CHECKED_AT]
    row_next[K + CHECKED_AT] = log_t
    if not full and log_t < row_next[K + EARLIEST]:
        return 0
    disproven = False
    earliest = math.inf
    for i in range(K):
        if full or log_t >= row_next[i]:
            _recount_row(upper, lower, log_t, i, cu, cl, row_next)
            row_disproven = _walk_list(upper, lower, log_t, i, lists, lens, unresolved)
            disproven = disproven or (not full and row_disproven)
        earliest = min(earliest, row_next[i])
    row_next[K + EARLIEST] = earliest
    return -1 if full else int(disproven)


@njit(cache=True)
def _remove_non_winners(upper, log_t, cu, cl, max_losses, in_b, lists, lens):
    """Step 3, "remove non-Copeland winners": drop from B every arm i with cu_i < max(0, max cl);
    unless |B^i| = Lbar + 1, set B^i = {k : u_ik < 1/2} (ascending; ln t < upper[i, k]).  Reset if B
    becomes empty."""
    K = upper.shape[0]
    m = max(0, np.max(cl))
    for i in range(K):
        if in_b[i] and cu[i] < m:
            in_b[i] = False
            if lens[i] != max_losses[0] + 1:
                lens[i] = 0
                for k in range(K):
                    if log_t < upper[i, k]:
                        lists[i, lens[i]] = k
                        lens[i] += 1
    if not np.any(in_b):
        _reset(max_losses, in_b, lens)


@njit(cache=True)
def _add_winners(rng, cu, cl, in_c, max_losses, in_b, lists, lens):
    """Step 4, "add Copeland winners": for every i in C (ascending) with cu_i = cl_i, put i in B,
    empty B^i and set Lbar = K - 1 - cu_i; then every other list shorter than Lbar + 1 is emptied and
    every longer one is cut to a uniformly random ordered subset of Lbar + 1 elements."""
    K = cu.shape[0]
    for i in range(K):
        if not (in_c[i] and cu[i] == cl[i]):
            continue
        in_b[i] = True
        lens[i] = 0
        max_losses[0] = K - 1 - cu[i]
        keep = max_losses[0] + 1
        for j in range(K):
            if j == i or lens[j] == keep:
                continue
            if lens[j] > keep:
                for s in range(keep):
                    r = rng.integers(s, lens[j])
                    lists[j, s], lists[j, r] = lists[j, r], lists[j, s]
                lens[j] = keep
            else:
                lens[j] = 0


@njit(cache=True)
def _unresolved(upper, lower, log_t, i, j):
    """l_ij <= 1/2 <= u_ij, read from the switch times."""
    return log_t >= lower[i, j] and log_t >= upper[i, j]


@njit(cache=True)
def _exploration_pair(rng, upper, lower, log_t, lists, lens, unresolved):
    """A uniform element of E = {(i, j) : j in B^i, l_ij <= 1/2 <= u_ij}, or (-1, -1) if E is empty
    (step 5); E is enumerated with i ascending, then in B^i order.  |E| is the sum of the kept
    per-row counts, and only the list holding the drawn element is walked.  A list changes only with
    its length (an arm in B has an empty list: step 4 empties the list of the arm it adds, a reset every
    list; so step 3 rebuilds only empty lists, and steps 2 and 4 only shorten or empty lists), so a
    list whose length differs from the one it was counted at is walked again first."""
    K = lens.shape[0]
    count = 0
    for i in range(K):
        if unresolved[COUNTED_LEN, i] != lens[i]:
            _walk_list(upper, lower, log_t, i, lists, lens, unresolved)
        count += unresolved[UNRESOLVED, i]
    if count == 0:
        return -1, -1
    pick = rng.integers(0, count)
    for i in range(K):
        if pick >= unresolved[UNRESOLVED, i]:
            pick -= unresolved[UNRESOLVED, i]
            continue
        for s in range(lens[i]):
            j = lists[i, s]
            if _unresolved(upper, lower, log_t, i, j):
                if pick == 0:
                    return i, j
                pick -= 1
    return -1, -1


@njit(cache=True)
def _challenger(rng, u_col, upper, lower, log_t, a1, lists, lens):
    """Step 7: first-index argmax of u_{j a1} over j with l_{j a1} <= 1/2 (a1 always
    qualifies, with u_{a1 a1} = 1/2); with probability 1/2 the same argmax over B^{a1} in its stored order
    instead, kept only if some element of B^{a1} qualifies.  u_col: the column u_{. a1}; l_{j a1} <= 1/2 is
    read from the lower switch times (ln t >= lower[j, a1]), and whether u_{j a1} has reached its tie with
    a1's 1/2 from the upper ones (ln t >= upper[j, a1]), the test that also counts it in j's upper Copeland
    count, not from the rounded u_col[j]: at large t (stored runs first differ past t = 2.4e8) that sum stays at
    or just below 1/2 for up to hundreds of slots after the switch time, where exact arithmetic gives
    u_{j a1} > 1/2 and a2 = j (the reasoning of ``core.bounds.challenger_from_column``;
    docs/asymptotic.md#rucbs-last-decade).  Among the arms past
    their switch time the largest u_col wins, the lowest index on ties."""
    K = u_col.shape[0]
    a2 = a1
    for j in range(K):
        if j != a1 and log_t >= lower[j, a1] and log_t >= upper[j, a1] and (a2 == a1 or u_col[j] > u_col[a2]):
            a2 = j
    if rng.random() < CCB_P_CHALLENGER:
        best = -1
        for s in range(lens[a1]):
            j = lists[a1, s]
            if log_t >= lower[j, a1] and (best < 0 or u_col[j] > u_col[best]):
                best = j
        if best >= 0:
            a2 = best
    return a2


@njit(cache=True)
def select(state, t, rng):
    """Choose (a1, a2) at slot t (Zoghi et al. 2015, Algorithm 1, steps 1-7; docs/algorithms.md#ccb)."""
    upper_switch, lower_switch, upper_copeland = state.upper_switch, state.lower_switch, state.upper_copeland
    max_losses, in_winners, challengers, challenger_lens = (state.max_losses, state.in_winners, state.challengers,
                                                            state.challenger_lens)
    in_candidates, lower_copeland, row_next, unresolved = (state.in_candidates, state.lower_copeland, state.row_next,
                                                           state.unresolved)
    comparisons, wins, alpha, upper_column = state.comparisons, state.wins, state.alpha, state.upper_column
    K = in_candidates.shape[0]
    log_t = math.log(t)
    disproven = _refresh_counts(upper_switch, lower_switch, log_t, upper_copeland, lower_copeland,
                                row_next, challengers, challenger_lens, unresolved)
    top = np.max(upper_copeland)
    for i in range(K):
        in_candidates[i] = upper_copeland[i] == top
    if disproven < 0:
        _reset_disproven(lower_switch, log_t, max_losses, in_winners, challengers, challenger_lens)
    elif disproven:
        _reset(max_losses, in_winners, challenger_lens)
    _remove_non_winners(upper_switch, log_t, upper_copeland, lower_copeland, max_losses, in_winners, challengers,
                        challenger_lens)
    _add_winners(rng, upper_copeland, lower_copeland, in_candidates, max_losses, in_winners, challengers,
                 challenger_lens)
    if rng.random() < CCB_P_EXPLORE:
        i, j = _exploration_pair(rng, upper_switch, lower_switch, log_t, challengers, challenger_lens,
                                 unresolved)
        if i >= 0:
            return i, j
    overlap = False
    for i in range(K):
        overlap = overlap or (in_winners[i] and in_candidates[i])
    if overlap and rng.random() < CCB_P_RESTRICT:
        for i in range(K):
            in_candidates[i] = in_candidates[i] and in_winners[i]
    a1 = uniform_member(rng, in_candidates)
    direct_upper_column(comparisons, wins, a1, log_t, alpha, upper_column)
    return a1, _challenger(rng, upper_column, upper_switch, lower_switch, log_t, a1, challengers, challenger_lens)


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """The common pair update and the pair's cached switch times; a compared pair (a1 != a2) makes the
    rows a1 and a2 due for a recount at the next ``select``."""
    comparisons, wins, alpha, row_next = state.comparisons, state.wins, state.alpha, state.row_next
    upper_switch, lower_switch = state.upper_switch, state.lower_switch
    update_pair(comparisons, wins, a1, a2, a1_won)
    refresh_direct_bound_switches(comparisons, wins, alpha, upper_switch, lower_switch, a1, a2)
    if a1 != a2:
        row_next[a1] = -math.inf
        row_next[a2] = -math.inf
        row_next[comparisons.shape[0] + EARLIEST] = -math.inf


CCB_SPEC = AlgorithmSpec(
    name="ccb", label="CCB", init=init_ccb, select=select, update=update, sync=sync_ccb,
    skip=exact_skip_hook(skip), fast=EXACT_SKIP, color="#9467bd", marker="X",
    defaults={"alpha": ALPHA, "skip": SKIP_OFF},
    reference="Zoghi et al. NIPS 2015, Algorithm 1 (CCB), as run by Wu & Liu 2016",
)


class CCB(Policy):
    """CCB as a live policy (Copeland winners, no Condorcet assumption); parameters ``alpha`` (0.51) and
    ``skip`` (acts only in the simulator: a live policy selects slot by slot)."""

    spec = CCB_SPEC
