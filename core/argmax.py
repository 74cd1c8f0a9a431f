"""Argmax/argmin kernels with the two tie-breaking rules the algorithms need.

"first-index" is a strict ``>`` scan from index 0, so a tie goes to the lowest index (the C++ rule);
"uniform" picks uniformly among all maximisers (the paper's "ties are broken randomly").
"""

from numba import njit


@njit(cache=True, inline="always")
def argmax_first(values, mask):
    """Index of the largest ``values[i]`` with ``mask[i]`` true; ties go to the lowest index.

    values: float64 or int64 (K,); mask: bool (K,).  Returns -1 if no entry is masked in.
    """
    best = -1
    for i in range(values.shape[0]):
        if mask[i] and (best < 0 or values[i] > values[best]):
            best = i
    return best

@njit(cache=True)
def argmin_first(values, mask):
    """Index of the smallest ``values[i]`` with ``mask[i]`` true; ties go to the lowest index (-1 if none)."""
    best = -1
    for i in range(values.shape[0]):
        if mask[i] and (best < 0 or values[i] < values[best]):
            best = i
    return best

@njit(cache=True)
def argmax_uniform(rng, values, mask):
    """Index of a largest ``values[i]`` with ``mask[i]`` true, uniform among ties (-1 if none).

    Uses one draw of ``rng`` only when there is a tie (reservoir sampling over the maximisers).
    """
    best = -1
    ties = 0
    for i in range(values.shape[0]):
        if not mask[i]:
            continue
        if best < 0 or values[i] > values[best]:
            best = i
            ties = 1
        elif values[i] == values[best]:
            ties += 1
    if ties <= 1:
        return best
    pick = rng.integers(0, ties)
    for i in range(best, values.shape[0]):
        if mask[i] and values[i] == values[best]:
            if pick == 0:
                return i
            pick -= 1
    return best

@njit(cache=True)
def uniform_member(rng, mask):
    """A uniformly chosen index ``i`` with ``mask[i]`` true (-1 if the mask is empty)."""
    count = 0
    for i in range(mask.shape[0]):
        if mask[i]:
            count += 1
    if count == 0:
        return -1
    pick = rng.integers(0, count)
    for i in range(mask.shape[0]):
        if mask[i]:
            if pick == 0:
                return i
            pick -= 1
    return -1

@njit(cache=True)
def fill_true(mask):
    """Set every entry of the bool array ``mask`` to True (no allocation)."""
    for i in range(mask.shape[0]):
        mask[i] = True
    return mask

