"""The one-record arrays that hold an algorithm's changing scalars by name (``counters[0].position``).

The kernels read and write a record's fields as attributes.  Compiled, numba does so on a plain structured
array; with ``NUMBA_DISABLE_JIT=1`` the kernels run as Python, where only a ``numpy.recarray``'s records have
attribute access, so there the array is viewed as one (same memory, same values).
"""

import numpy as np
from numba.core import config


def record(dtype: np.dtype, values: tuple | None = None) -> np.ndarray:
    """A (1,) array of ``dtype`` holding ``values`` (a tuple of its fields; None: zeros); a ``numpy.recarray``
    when numba's JIT is disabled, so that plain Python reads its fields as attributes as the kernels do."""
    array = np.zeros(1, dtype) if values is None else np.array([values], dtype)
    return array.view(np.recarray) if config.DISABLE_JIT else array
