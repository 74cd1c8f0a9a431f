"""The canonical order of unordered pairs {i, j}, i > j: (1,0), (2,0), (2,1), (3,0), ...
(docs/algorithms.md#rmed1-and-rmed2, #ecw-rmed).

RMED1/RMED2 compare the pairs once each in this order at the start, and ECW-RMED scans them in this
order for forced exploration and keeps its pair lists in it.  Index r = i (i - 1) / 2 + j.
"""

from numba import njit


@njit(cache=True)
def index_of_pair(i, j):
    """Position r of the pair (i, j), i > j >= 0, in the order (1,0), (2,0), (2,1), (3,0), ..."""
    return i * (i - 1) // 2 + j


@njit(cache=True)
def pair_of_index(r):
    """The pair (i, j), i > j, at position r >= 0 of the order (1,0), (2,0), (2,1), (3,0), ..."""
    i = 1
    while (i + 1) * i // 2 <= r:
        i += 1
    return i, r - i * (i - 1) // 2
