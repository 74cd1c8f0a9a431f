"""Small in-place sorts for the short per-slot lists of ECW-RMED (docs/algorithms.md#ecw-rmed): no allocation."""

from numba import njit


@njit(cache=True)
def insertion_sort_by_key(keys, items, m):
    """Sort ``keys[:m]`` ascending in place, moving ``items[:m]`` along; stable (equal keys keep order).

    keys: float64 (>= m,); items: int64 (>= m,).  Insertion sort: O(m^2) worst case, fast for the
    m <= K lists it is used on, and allocation-free (unlike ``np.argsort``).
    """
    for a in range(1, m):
        key = keys[a]
        item = items[a]
        b = a - 1
        while b >= 0 and keys[b] > key:
            keys[b + 1] = keys[b]
            items[b + 1] = items[b]
            b -= 1
        keys[b + 1] = key
        items[b + 1] = item


@njit(cache=True)
def sort_ints(items, start, stop):
    """Sort ``items[start:stop]`` (int64) ascending in place, by insertion: for the short runs of equal costs."""
    for a in range(start + 1, stop):
        item = items[a]
        b = a - 1
        while b >= start and items[b] > item:
            items[b + 1] = items[b]
            b -= 1
        items[b + 1] = item
