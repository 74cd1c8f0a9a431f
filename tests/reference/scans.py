"""SAVAGE's select as it was before its bookkeeping became incremental (commit 3ff124f): step 4 on every
pair of X and a scan of X for step 1 at every slot, O(K^2) per slot.  The kept-up-to-date version in
``algorithms/savage.py`` must make the same choices (tests/test_incremental.py).  numba-compiled because a
plain-Python loop over the 124750 pairs of K = 500 arms would take hours.
"""

import numpy as np
from numba import njit

from algorithms.savage import prune


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
