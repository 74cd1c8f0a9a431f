"""Tie rules of ``core.argmax``, with NumPy."""

import numpy as np


def argmax_first(values, mask):
    """Lowest index among the maximisers of values[mask]; -1 if mask is empty."""
    idx = np.flatnonzero(mask)
    if idx.size == 0:
        return -1
    return int(idx[np.argmax(np.asarray(values)[idx])])


def argmin_first(values, mask):
    """Lowest index among the minimisers of values[mask]; -1 if mask is empty."""
    idx = np.flatnonzero(mask)
    if idx.size == 0:
        return -1
    return int(idx[np.argmin(np.asarray(values)[idx])])
