"""Element-wise copies for the kernels, written as loops.

numba compiles an array-from-array slice assignment (``a[:] = b``, ``a[:m] = b[:m]``) with an error path that
formats both shapes into a message: seconds of compilation in every process that compiles such a kernel on a
cold cache, for a copy whose lengths the kernels already guarantee.  These loops copy the same values.
"""

from numba import njit


@njit(cache=True)
def copy_prefix(target, source, count):
    """``target[:count] = source[:count]`` (1-D arrays of at least ``count`` elements)."""
    for i in range(count):
        target[i] = source[i]


@njit(cache=True)
def copy_rows(target, source):
    """``target[:, :] = source`` for two 2-D arrays of the same shape."""
    for i in range(source.shape[0]):
        copy_prefix(target[i], source[i], source.shape[1])
