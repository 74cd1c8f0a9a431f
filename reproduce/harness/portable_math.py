"""Elementwise logarithms and powers from the C library (Python's ``math``): the same bits on every machine.

numpy chooses the code of ``np.log``, ``np.log10``, ``np.exp`` and ``np.power`` by CPU when it is imported. On a
machine with AVX-512 those ufuncs round the last bit differently from the AVX2 and baseline code, which calls the
C library: for about one input in 40 (log10, power) to one in 10,000 (log), measured on numpy 2.4. One such bit
moved one pixel of a committed figure on an AVX-512 machine. A number that reaches a stored or committed file --
a checkpoint grid, a fitted slope, a lower bound, the pixels of a figure -- is therefore computed with these
functions, whatever the CPU; numba kernels are not concerned (they call the C library).  See docs/design.md,
"Reproducibility".
"""

import math

import numpy as np


def _elementwise(function, values) -> np.ndarray:
    """``function`` applied to each element of ``values`` (as float64), in an array of the same shape."""
    array = np.asarray(values, dtype=np.float64)
    flat = np.fromiter(map(function, array.ravel().tolist()), dtype=np.float64, count=array.size)
    return flat.reshape(array.shape)


def _logarithm(function):
    """``function`` (math.log or math.log10) extended as numpy extends it: -inf at 0, nan below 0 and at nan."""
    def extended(value: float) -> float:
        """The logarithm of ``value``; -inf at 0, nan for a negative value or nan."""
        if value > 0:
            return function(value)
        return -math.inf if value == 0 else math.nan
    return extended


_LOG, _LOG10 = _logarithm(math.log), _logarithm(math.log10)


def log(values) -> np.ndarray:
    """Natural logarithm of each element of ``values`` (array of the same shape; -inf at 0, nan below)."""
    return _elementwise(_LOG, values)


def log10(values) -> np.ndarray:
    """Base-10 logarithm of each element of ``values`` (array of the same shape; -inf at 0, nan below)."""
    return _elementwise(_LOG10, values)


def power(base: float, exponents) -> np.ndarray:
    """``base ** e`` for each element e of ``exponents`` (``math.pow``; inf where it overflows)."""
    def raised(exponent: float) -> float:
        """``base ** exponent``, inf on overflow."""
        try:
            return math.pow(base, exponent)
        except OverflowError:
            return math.inf
    return _elementwise(raised, exponents)
