"""Selects as they were before their bookkeeping became incremental, O(K^2) per slot; the kept-up-to-date
versions must make the same choices (tests/algorithms/test_incremental.py).  numba-compiled because a plain-Python
loop over the 124750 pairs of K = 500 arms would take hours.

* SAVAGE (commit 3ff124f): step 4 on every pair of X and a scan of X for step 1 at every slot;
* CCB (commit 1f8f69d): both Copeland counts recounted from the switch tables (the lower ones by
  ``lower_copeland_from_switches``, which CCB no longer needs: it keeps its counts between slots), step 2 run on
  every list, and step 5 by walking every list, at every slot.
"""

import math

import numpy as np
from numba import njit

from dts_reproduction.algorithms.ccb import (
    _add_winners,
    _challenger,
    _remove_non_winners,
    _reset_disproven,
    _unresolved,
)
from dts_reproduction.algorithms.savage import prune
from dts_reproduction.core.argmax import uniform_member
from dts_reproduction.core.bounds import direct_upper_column, upper_copeland_from_switches
from dts_reproduction.core.constants import CCB_P_EXPLORE, CCB_P_RESTRICT


@njit
def lower_copeland_from_switches(lower, log_t, counts):
    """Fill ``counts[i] = #{j != i : l_ij >= 1/2}`` from cached lower switch times (``lcb_switch_log_t``; CCB's
    lower Copeland counts, recounted).  counts: int64 (K,).  Returns counts."""
    K = lower.shape[0]
    for i in range(K):
        count = 0
        for j in range(K):
            if j != i and log_t <= lower[i, j]:
                count += 1
        counts[i] = count
    return counts


@njit
def savage_select_scan(comparisons, upper, lower, pair_hi, pair_lo, in_x, up_count, lo_count, variant, counters):
    """SAVAGE's select (docs/algorithms.md#savage) on X given as the mask ``in_x`` over the list order
    (pair_hi, pair_lo): the full step-4 test, then a scan of X for the pair with the fewest comparisons
    (first in list order)."""
    c = counters[0]
    if c.x_size > 0:
        c.x_size = prune(upper, lower, pair_hi, pair_lo, in_x, up_count, lo_count, variant)
    if c.x_size == 0:
        c.best = np.argmax(up_count)
        return c.best, c.best
    chosen = -1
    for p in range(pair_hi.shape[0]):
        if in_x[p] and (chosen < 0 or comparisons[pair_hi[p], pair_lo[p]]
                        < comparisons[pair_hi[chosen], pair_lo[chosen]]):
            chosen = p
    return pair_hi[chosen], pair_lo[chosen]


@njit
def ccb_select_scan(comparisons, wins, alpha, max_losses, in_b, lists, lens, upper, lower, cu, cl, in_c, u_col, t,
                    rng):
    """CCB's select (docs/algorithms.md#ccb) with steps 1 and 2 on the whole K x K tables at every slot;
    the arguments are the ``CCBState`` fields of the same role (cu, cl: scratch)."""
    K = in_c.shape[0]
    log_t = math.log(t)
    upper_copeland_from_switches(upper, log_t, cu)
    lower_copeland_from_switches(lower, log_t, cl)
    top = np.max(cu)
    for i in range(K):
        in_c[i] = cu[i] == top
    _reset_disproven(lower, log_t, max_losses, in_b, lists, lens)
    _remove_non_winners(upper, log_t, cu, cl, max_losses, in_b, lists, lens)
    _add_winners(rng, cu, cl, in_c, max_losses, in_b, lists, lens)
    if rng.random() < CCB_P_EXPLORE:
        i, j = exploration_pair_scan(rng, upper, lower, log_t, lists, lens)
        if i >= 0:
            return i, j
    overlap = False
    for i in range(K):
        overlap = overlap or (in_b[i] and in_c[i])
    if overlap and rng.random() < CCB_P_RESTRICT:
        for i in range(K):
            in_c[i] = in_c[i] and in_b[i]
    a1 = uniform_member(rng, in_c)
    direct_upper_column(comparisons, wins, a1, log_t, alpha, u_col)
    return a1, _challenger(rng, u_col, upper, lower, log_t, a1, lists, lens)


@njit
def exploration_pair_scan(rng, upper, lower, log_t, lists, lens):
    """A uniform element of E = {(i, j) : j in B^i, l_ij <= 1/2 <= u_ij}, or (-1, -1) if E is empty
    (step 5) by two walks of every list; E is enumerated with i ascending, then in B^i order."""
    K = upper.shape[0]
    count = 0
    for i in range(K):
        for s in range(lens[i]):
            count += _unresolved(upper, lower, log_t, i, lists[i, s])
    if count == 0:
        return -1, -1
    pick = rng.integers(0, count)
    for i in range(K):
        for s in range(lens[i]):
            j = lists[i, s]
            if _unresolved(upper, lower, log_t, i, j):
                if pick == 0:
                    return i, j
                pick -= 1
    return -1, -1
