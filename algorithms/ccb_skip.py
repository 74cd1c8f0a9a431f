"""CCB's exact skip of runs of self-comparisons (option skip="exact" of ``algorithms.ccb``;
docs/algorithms.md#exact-skipping-of-self-comparison-runs)."""

import math

import numpy as np
from numba import njit

from dts_reproduction.algorithms.ccb_state import CHECKED_AT, COUNTED_LEN, EARLIEST, UNRESOLVED
from dts_reproduction.core.skipping import last_slot_before, record_self_run


@njit(cache=True, inline="always")
def _sole_candidate(cu):
    """The arm a if it alone has the largest upper Copeland count (C = {a}), else -1."""
    top = np.max(cu)
    a = -1
    for i in range(cu.shape[0]):
        if cu[i] == top:
            if a >= 0:
                return -1
            a = i
    return a


@njit(cache=True)
def _steps_3_4_idle(cu, cl, a, max_losses, in_b, lens):
    """Steps 3 and 4 of ``select`` at the Copeland counts (cu, cl) with C = {a} leave B, the lists and
    Lbar as they are and draw nothing: B is not empty and none of its arms has cu_i < max(0, max cl)
    (step 3 removes and rebuilds nothing, and does not reset), and if step 4 adds a (cu_a = cl_a), a is
    in B already with an empty list, Lbar = K - 1 - cu_a, and every list has 0 or Lbar + 1 entries (none
    is cut, by a draw, or emptied)."""
    K = cu.shape[0]
    m = max(0, np.max(cl))
    for i in range(K):
        if in_b[i] and cu[i] < m:
            return False
    if not np.any(in_b):
        return False
    if cu[a] != cl[a]:
        return True
    keep = K - cu[a]
    if not in_b[a] or lens[a] != 0 or max_losses[0] != keep - 1:
        return False
    for j in range(K):
        if lens[j] != 0 and lens[j] != keep:
            return False
    return True


@njit(cache=True, inline="always")
def _nothing_to_explore(lens, unresolved):
    """Step 5 finds E empty without walking a list: every list's unresolved count is kept at its
    current length, and all are 0."""
    for i in range(lens.shape[0]):
        if unresolved[COUNTED_LEN, i] != lens[i] or unresolved[UNRESOLVED, i] != 0:
            return False
    return True


@njit(cache=True, inline="always")
def _list_has_challenger(lower, log_t, a, lists, lens):
    """Some j in B^a qualifies as a challenger of a (l_{j a} <= 1/2: ln t >= lower[j, a]), so that the
    draw of step 7 that reads B^a may pick it."""
    for s in range(lens[a]):
        if log_t >= lower[lists[a, s], a]:
            return True
    return False


@njit(cache=True)
def skip(state, t, rng, t_limit):
    """The run of self-comparisons from slot t in one step (option skip="exact"; ``core.simulate``).

    ``select`` at slot t is the pair (a, a) whatever it draws, and changes no state but the scratch and
    the ln t of its last check, when
    * the kept counts hold (ln t is not below the last check's and below every row's next switch time,
      so ``_refresh_counts`` recounts nothing and step 2 reads no list), C = {a} (a alone has the
      largest upper count), and steps 3 and 4 are idle at those counts (``_steps_3_4_idle``);
    * step 5 (probability 1/4) finds no unresolved pair (``_nothing_to_explore``), so it falls through;
    * steps 6 and 7: a1 = a whether or not C is restricted to B; the scan of step 7 gives a2 = a (every
      qualifying j != a, l_{j a} <= 1/2, is before the switch time of u_{j a}: ln t < upper_switch[j, a]) and
      the draw that reads B^a finds no qualifying entry.
    A self-comparison changes only the diagonal of (n, w), which no bound or switch time reads, so the
    same holds at the next slot until ln t reaches the earliest switch time of the rows (a recount may
    change the counts) or some u_{j a} reaches 1/2 (ln t reaches upper_switch[j, a]) -- or t_limit (a checkpoint, a
    delayed-feedback delivery, the horizon).  Returns (slots, a) for the slots t .. t + slots - 1, after
    the updates of those slots (the diagonal, ``record_self_run``; the ln t of the last check); (0, -1)
    if slot t is not such a pair.  ``rng`` is not used: the draws the skipped slots would make decide
    nothing.  An unresolved pair (step 5 picks it with probability 1/4) or |C| > 1 makes the slot random:
    not skipped.
    """
    comparisons, wins, lower_switch = state.comparisons, state.wins, state.lower_switch
    challengers, challenger_lens, row_next = state.challengers, state.challenger_lens, state.row_next
    upper_copeland, lower_copeland, max_losses, in_winners = (state.upper_copeland, state.lower_copeland,
                                                              state.max_losses, state.in_winners)
    unresolved, upper_switch = state.unresolved, state.upper_switch
    K = comparisons.shape[0]
    log_t = math.log(t)
    if log_t < row_next[K + CHECKED_AT] or log_t >= row_next[K + EARLIEST]:
        return 0, -1
    a = _sole_candidate(upper_copeland)
    if (a < 0 or not _steps_3_4_idle(upper_copeland, lower_copeland, a, max_losses,
                                     in_winners, challenger_lens)
            or not _nothing_to_explore(challenger_lens, unresolved)
            or _list_has_challenger(lower_switch, log_t, a, challengers, challenger_lens)):
        return 0, -1
    end = last_slot_before(row_next[K + EARLIEST], 0.0, t_limit)
    for j in range(K):
        if j != a and log_t >= lower_switch[j, a]:
            if log_t >= upper_switch[j, a]:
                return 0, -1
            end = min(end, last_slot_before(upper_switch[j, a], 0.0, end))
    slots = end - t + 1
    row_next[K + CHECKED_AT] = math.log(end)
    record_self_run(comparisons, wins, a, slots)
    return slots, a
