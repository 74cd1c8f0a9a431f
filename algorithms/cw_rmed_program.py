"""CW-RMED's regret-minimisation program, its confidence test and the steps 3-7 that use them
(docs/algorithms.md#cw-rmed).

Notation: p the empirical preference matrix, L_i = #{j : p_ji > 1/2} the losses, L* = min L, r_ij = (L_i + L_j - 2 L*)
/ (2 (K - 1)) the regret of the pair {i, j}, d_ij = KLc(p_ij, 1/2) and x_ij = q_ij d_ij the evidence an allocation q
puts on it.  For a candidate winner i1 (L_i1 = L*), an *alternative* is a set F of pairs whose outcomes, pushed across
1/2, leave i1 no Copeland winner: some arm i2 != i1 ends with fewer losses than i1.  Pushing a pair (i1, j) that i1 wins
(the set H) adds a loss to i1, pushing a pair (j, i2) that i2 loses, j != i1 (the set O(i2)), takes one from i2, and the
pair {i1, i2} when i1 wins it (e*) does both: F works for i2 iff it counts need(i2) = L_i2 - L_i1 + 1, e* twice.
Moving the outcomes of F to 1/2 costs sum_F x_e in the lower bound's divergence, so the cheapest alternative for i2 is
the smaller of the sum of the need(i2) smallest evidences of H \\ {e*} and O(i2), and x_e* plus the need(i2) - 2
smallest of them.  Pairs at exactly 1/2 are in no set (forced exploration plays them before any list slot).

* Confidence (step 4): n / lambda is in the feasible set of the program when every alternative of i1 costs at least 1
  with x = n d / lambda (``cheapest_alternative``).
* The program (step 6): min sum_e r_e q_e over q >= 0 with every alternative of i1 costing at least 1, and the
  candidate i1 with the smallest optimum.  "Sum of the m smallest of x_1..x_s >= 1" is, with a threshold t >= 0 and
  slacks s_e >= 0, m t - sum_e s_e >= 1 and s_e >= t - x_e (the sum of the m smallest is max_t m t - sum_e (t - x_e)^+),
  so the program is a covering linear program of O(K^2) rows and columns, solved exactly by ``core.simplex``.
"""

import math

import numpy as np
from numba import njit

from dts_reproduction.algorithms.ecw_rmed_steps import add_next, advance_list, underplayed
from dts_reproduction.core.kl import kl_clamped
from dts_reproduction.core.pairs import index_of_pair, pair_of_index
from dts_reproduction.core.simplex import solve_covering
from dts_reproduction.core.sort import insertion_sort_by_key


@njit(cache=True, inline="always")
def _pair(a, b):
    """The id of the unordered pair {a, b}, a != b (``core.pairs``)."""
    return index_of_pair(max(a, b), min(a, b))


@njit(cache=True)
def alternative_items(p, losses, i1, i2, items):
    """Fill ``items`` with the ids of H \\ {e*} (i1's wins but the one over i2), then O(i2) (i2's losses to arms other
    than i1), each in arm order.  Returns (how many, need(i2) = L_i2 - L_i1 + 1, the id of e* or -1 if i1 does not
    beat i2)."""
    m = 0
    for j in range(p.shape[0]):
        if j != i1 and j != i2 and p[i1, j] > 0.5:
            items[m] = _pair(i1, j)
            m += 1
    for j in range(p.shape[0]):
        if j != i1 and j != i2 and p[j, i2] > 0.5:
            items[m] = _pair(j, i2)
            m += 1
    double = _pair(i1, i2) if p[i1, i2] > 0.5 else -1
    return m, losses[i2] - losses[i1] + 1, double


@njit(cache=True)
def cheapest_alternative(x, p, losses, i1):
    """The smallest sum of evidences x (float64 (K, K), symmetric) over the alternatives of candidate i1 (module doc);
    +inf if it has none."""
    K = p.shape[0]
    items = np.empty(2 * K, np.int64)
    values = np.empty(2 * K)
    best = math.inf
    for i2 in range(K):
        if i2 == i1:
            continue
        count, need, double = alternative_items(p, losses, i1, i2, items)
        for a in range(count):
            i, j = pair_of_index(items[a])
            values[a] = x[i, j]
        insertion_sort_by_key(values, items, count)
        if count >= need:
            best = min(best, np.sum(values[:need]))
        if double >= 0 and count >= need - 2:
            i, j = pair_of_index(double)
            best = min(best, x[i, j] + np.sum(values[:max(need - 2, 0)]))
    return best


@njit(cache=True)
def confident_winner(n, p, kl, lam, losses):
    """Step 4: the first arm of fewest losses (ascending) every alternative of which costs at least 1 with the
    evidences n_ij KLc(p_ij, 1/2) / lam; -1 if none."""
    x = n * kl / lam
    l_min = np.min(losses)
    for i1 in range(p.shape[0]):
        if losses[i1] == l_min and cheapest_alternative(x, p, losses, i1) >= 1.0:
            return i1
    return -1


@njit(cache=True)
def covering_program(p, kl, losses, i1):
    """(A, b, c): candidate i1's program as a covering linear program min c.z, A z >= b, z >= 0 (module doc).  The
    first K(K-1)/2 columns are the evidences x of the pairs by id, each costing r_e / d_e (0 for a pair at 1/2, which
    no row holds); then, per alternative family, its threshold t and one slack per item.  Rows, per i2 != i1 in
    arm order: the family of the need(i2) smallest items (if there are that many), then, if i1 beats i2, the family
    of e* and the need(i2) - 2 smallest items (the single row x_e* >= 1 if need(i2) <= 2)."""
    K = p.shape[0]
    n_pairs = K * (K - 1) // 2
    l_min = np.min(losses)
    items = np.empty((K, 2 * K), np.int64)
    counts = np.zeros(K, np.int64)
    needs = np.zeros(K, np.int64)
    doubles = np.full(K, -1)
    n_rows = 0
    n_cols = n_pairs
    for i2 in range(K):
        if i2 == i1:
            continue
        counts[i2], needs[i2], doubles[i2] = alternative_items(p, losses, i1, i2, items[i2])
        for m, with_double in ((needs[i2], False), (needs[i2] - 2, True)):
            if with_double and doubles[i2] < 0 or counts[i2] < m:
                continue
            n_rows += 1 + counts[i2] if m >= 1 else 1
            n_cols += 1 + counts[i2] if m >= 1 else 0
    A = np.zeros((n_rows, n_cols))
    b = np.zeros(n_rows)
    c = np.zeros(n_cols)
    for i in range(1, K):
        for j in range(i):
            if p[i, j] != 0.5:
                c[index_of_pair(i, j)] = (losses[i] + losses[j] - 2 * l_min) / (2.0 * (K - 1)) / kl[i, j]
    row = 0
    col = n_pairs
    for i2 in range(K):
        if i2 == i1:
            continue
        for m, with_double in ((needs[i2], False), (needs[i2] - 2, True)):
            if with_double and doubles[i2] < 0 or counts[i2] < m:
                continue
            b[row] = 1.0
            if with_double:
                A[row, doubles[i2]] = 1.0
            if m < 1:
                row += 1
                continue
            A[row, col] = m
            for a in range(counts[i2]):
                A[row, col + 1 + a] = -1.0
                A[row + 1 + a, col + 1 + a] = 1.0
                A[row + 1 + a, col] = -1.0
                A[row + 1 + a, items[i2, a]] = 1.0
            row += 1 + counts[i2]
            col += 1 + counts[i2]
    return A, b, c


@njit(cache=True)
def optimal_allocation(p, kl, losses, q_best):
    """Step 6: the candidate w (fewest losses, first on ties) whose program has the smallest optimum, and its optimal
    allocation q_ij = x_ij / d_ij in q_best (float64 (K, K), symmetric, 0 off the program's pairs).  Returns w."""
    K = p.shape[0]
    l_min = np.min(losses)
    best = -1
    best_objective = math.inf
    for i1 in range(K):
        if losses[i1] != l_min:
            continue
        A, b, c = covering_program(p, kl, losses, i1)
        x, objective = solve_covering(A, b, c)
        if best < 0 or objective < best_objective:
            best = i1
            best_objective = objective
            for i in range(1, K):
                for j in range(i):
                    e = index_of_pair(i, j)
                    q_best[i, j] = q_best[j, i] = x[e] / kl[i, j] if x[e] > 0.0 else 0.0
    return best


def program_constant(P) -> float:
    """C*(P) of Komiyama et al.'s theorem on CW-RMED: the smallest optimum of the program (``covering_program``) over
    the Copeland winners of the true matrix P, with KLc(p, 1/2) of P's pairs; CW-RMED's regret per ln T tends to it
    (pairs of P at exactly 1/2, which the theorem excludes, are in no alternative, as in the algorithm)."""
    P = np.ascontiguousarray(P, dtype=np.float64)
    K = P.shape[0]
    kl = np.zeros((K, K))
    for i in range(K):
        for j in range(K):
            if i != j:
                kl[i, j] = kl_clamped(P[i, j], 0.5)
    losses = (P.T > 0.5).sum(axis=1).astype(np.int64)
    return min(solve_covering(*covering_program(P, kl, losses, i1))[1]
               for i1 in range(K) if losses[i1] == losses.min())


@njit(cache=True)
def after_play(comparisons, p_hat, kl_half, losses, allocation, current_list, in_remaining, next_list, in_next,
               counters, true_winner):
    """Steps 3-7 for the list pair played at slot ``counters.played_slot``, on the current statistics
    (``algorithms.cw_rmed``'s module doc); the arguments are the ``CWRMEDState`` fields of the same names
    (``counters``: its record ``counters[0]``).  true_winner >= 0 (option program="true"): step 6 takes that candidate
    and the allocation already in ``allocation`` instead of solving the program on the estimates."""
    K = comparisons.shape[0]
    lam = max(1.0, math.log(counters.played_slot))
    winner = confident_winner(comparisons, p_hat, kl_half, lam, losses)
    in_remaining[counters.played_pair] = False
    if winner < 0:
        winner = true_winner if true_winner >= 0 else optimal_allocation(p_hat, kl_half, losses, allocation)
        for i in range(1, K):
            for j in range(i):
                if underplayed(allocation, comparisons, lam, i, j):
                    add_next(index_of_pair(i, j), in_remaining, next_list, in_next, counters)
    add_next(K * (K - 1) // 2 + winner, in_remaining, next_list, in_next, counters)
    advance_list(current_list, in_remaining, next_list, in_next, counters)
