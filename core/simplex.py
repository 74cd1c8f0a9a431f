"""A dense simplex method for covering linear programs: min c.x subject to A x >= b, x >= 0, with b >= 0 and c >= 0.

Such a program (CW-RMED's regret minimisation, ``algorithms.cw_rmed_program``) is solved through its dual,
max b.y subject to A^T y <= c, y >= 0, whose origin is a feasible vertex because c >= 0: one phase of the primal
simplex on the dual tableau, started from the slack basis, and the primal solution read off the final tableau (x_j is
the reduced cost of the j-th slack).  Pivots: Bland's rule (the entering column of lowest index among the improving
ones, the leaving row of lowest basic index among the ties of the ratio test), which cannot cycle; the covering
programs are highly degenerate (most of c and b are zero).  Cost: O(rows x columns) a pivot on a dense tableau of
(columns of A) x (rows of A + columns of A) entries.
"""

import math

import numpy as np
from numba import njit

# A reduced cost or pivot entry of magnitude at most this counts as zero (the programs' entries are small integers and
# costs r / KL of order 1e-6 to 1e6).
SIMPLEX_TOLERANCE = 1e-11


@njit(cache=True)
def _pivot(tableau, row, col):
    """Make column ``col`` the unit vector of ``row`` by row operations on the whole tableau."""
    tableau[row, :] /= tableau[row, col]
    for i in range(tableau.shape[0]):
        if i != row and tableau[i, col] != 0.0:
            tableau[i, :] -= tableau[i, col] * tableau[row, :]


@njit(cache=True)
def solve_covering(A, b, c):
    """(x, objective): an optimal vertex x of min c.x subject to A x >= b, x >= 0 and its value c.x.

    A: float64 (m, n); b: float64 (m,), >= 0; c: float64 (n,), >= 0.  With no row (m = 0) x = 0.  If the program is
    infeasible (its dual unbounded), x is all NaN and the objective +inf.  Deterministic: the same arguments give the
    same vertex, bit for bit (module doc: the method and its pivot rule)."""
    m, n = A.shape
    tableau = np.zeros((n + 1, m + n + 1))
    tableau[:n, :m] = A.T
    for j in range(n):
        tableau[j, m + j] = 1.0
        tableau[j, m + n] = c[j]
    tableau[n, :m] = -b
    basis = np.arange(m, m + n)
    while True:
        col = -1
        for k in range(m + n):
            if tableau[n, k] < -SIMPLEX_TOLERANCE:
                col = k
                break
        if col < 0:
            break
        row = -1
        best = math.inf
        for i in range(n):
            if tableau[i, col] > SIMPLEX_TOLERANCE:
                ratio = tableau[i, m + n] / tableau[i, col]
                if ratio < best or (ratio == best and basis[i] < basis[row]):
                    best = ratio
                    row = i
        if row < 0:
            return np.full(n, np.nan), math.inf
        _pivot(tableau, row, col)
        basis[row] = col
    x = np.empty(n)
    for j in range(n):
        x[j] = max(tableau[n, m + j], 0.0)
    return x, tableau[n, m + n]
