"""Checking (and, within a tolerance, repairing) dueling-bandit preference matrices.

Entry (i, j) of a preference matrix is p_ij = P(arm i beats arm j).  The rule for
p_ij + p_ji != 1 is the one of the authors' C++ harness (docs/datasets.md): a pair
whose sum is off by strictly less than ``tol`` is divided by its sum, anything
further off is rejected.
"""

import numpy as np

DIAGONAL_TOL = 1e-12


def _fmt(x):
    """Shortest round-trip text of a number, as Python prints a float."""
    return repr(float(x))


def validate_preference_matrix(P, tol=1e-3):
    """Check a preference matrix and renormalise pairs that are almost consistent.

    Contract:
      * ``P`` must convert to a 2-D square float array with K >= 2, every entry finite
        and in [0, 1], and every diagonal entry within 1e-12 of 0.5 (it is set to
        exactly 0.5 in the result).
      * For each pair i < j (row-major order) with p_ij + p_ji != 1: if
        |p_ij + p_ji - 1| < tol (strict), both entries are divided by their sum and
        (i, j) is recorded; otherwise ValueError is raised.
      * Every violation raises ValueError with a one-line message naming the
        offending entry and its value(s).  The input is never modified.
      * ``tol`` must be a number in [0, 1] (a NaN or infinite tol renormalised any pair, and
        one above 1 a pair summing to 0, into NaN).

    Returns ``(P_fixed, renormalised)``: a new float64 array and the list of
    renormalised pairs ``(i, j)`` with i < j, in row-major order.
    """
    if isinstance(tol, (bool, np.bool_)) or not isinstance(tol, (int, float, np.integer, np.floating)) \
            or not 0.0 <= tol <= 1.0:
        raise ValueError(f"tol must be a number in [0, 1] (how far p_ij + p_ji may be from 1 to be renormalised), "
                         f"got {tol!r}")
    try:
        A = np.array(P, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"preference matrix is not numeric: {exc}") from None
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"preference matrix is not square: shape {A.shape}")
    K = A.shape[0]
    if K < 2:
        raise ValueError(f"preference matrix needs K >= 2 arms: shape {A.shape}")
    bad = np.argwhere(~np.isfinite(A))
    if bad.size:
        i, j = bad[0]
        raise ValueError(f"p[{i},{j}] = {_fmt(A[i, j])} is not finite")
    bad = np.argwhere((A < 0.0) | (A > 1.0))
    if bad.size:
        i, j = bad[0]
        raise ValueError(f"p[{i},{j}] = {_fmt(A[i, j])} is outside [0, 1]")
    for i in range(K):
        if abs(A[i, i] - 0.5) > DIAGONAL_TOL:
            raise ValueError(f"p[{i},{i}] = {_fmt(A[i, i])} on the diagonal must be 0.5")
        A[i, i] = 0.5
    renormalised = []
    for i, j in zip(*np.nonzero(np.triu(A + A.T != 1.0, k=1)), strict=True):
        i, j = int(i), int(j)
        s = A[i, j] + A[j, i]
        if abs(s - 1.0) >= tol:
            raise ValueError(
                f"inconsistent preference matrix: p[{i},{j}] + p[{j},{i}] = "
                f"{_fmt(A[i, j])} + {_fmt(A[j, i])} = {_fmt(s)} (must be 1 within {_fmt(tol)})"
            )
        A[i, j] /= s
        A[j, i] /= s
        renormalised.append((i, j))
    return A, renormalised
