"""Relative upper/lower confidence bounds (RUCB/RLCB), Algorithm 1 line 4 of the paper.

Two flavours (docs/algorithms.md#shared-building-blocks).  Both read the pseudo-count statistics ``n``
(comparisons of the unordered pair, ``n[i, j] == n[j, i]``) and ``w`` (``w[i, j]`` = wins of i over j), and
``log_t = ln t``.

* mirrored (D-TS, D-TS+): the entry with the larger index is the master,
  ``u_ij = w_ij/n_ij + sqrt(alpha ln t / n_ij)`` for i > j, and ``u_ji = 1 - l_ij``, ``l_ji = 1 - u_ij``;
* direct (RUCB, RCS, CCB): every ordered pair separately, ``u_ij = w_ij/n_ij + sqrt(alpha ln t / n_ij)``.

The diagonal is always ``u_ii = l_ii = 1/2``.
"""

import math

from numba import njit


@njit(cache=True)
def mirrored_bounds(n, w, i, j, log_t, alpha):
    """(u_ij, l_ij) of the ordered pair (i, j) in the mirrored flavour; (0.5, 0.5) if i == j."""
    if i == j:
        return 0.5, 0.5
    hi = max(i, j)
    lo = min(i, j)
    mean = w[hi, lo] / n[hi, lo]
    width = math.sqrt(alpha * log_t / n[hi, lo])
    if i == hi:
        return mean + width, mean - width
    return 1.0 - (mean - width), 1.0 - (mean + width)


@njit(cache=True, inline="always")
def direct_bound(n, w, i, j, log_t, alpha):
    """(u_ij, l_ij) of the ordered pair (i, j) in the direct flavour; (0.5, 0.5) if i == j."""
    if i == j:
        return 0.5, 0.5
    mean = w[i, j] / n[i, j]
    width = math.sqrt(alpha * log_t / n[i, j])
    return mean + width, mean - width


@njit(cache=True, inline="always")
def direct_upper_column(n, w, col, log_t, alpha, upper):
    """Fill ``upper[j] = u_{j col}`` (direct bounds; the column of the first candidate from which
    RUCB, RCS and CCB pick the challenger).  Returns upper.

    The same floating-point expression as ``direct_bound`` (``alpha * log_t / n`` is ``(alpha * log_t)
    / n``), so the same values bit for bit, but with no branch in the loop (u_{col col} = 1/2 is set
    after it), so that it vectorises: at K = 500 about 2 us instead of 13 (bench/README.md).
    """
    scale = alpha * log_t
    for j in range(n.shape[0]):
        upper[j] = w[j, col] / n[j, col] + math.sqrt(scale / n[j, col])
    upper[col] = 0.5
    return upper


@njit(cache=True, inline="always")
def challenger_from_column(n, w, col, log_t, alpha, upper):
    """a2 = argmax_j u_{j col} over every arm (u_{col col} = 1/2), lowest index on ties, from ``upper``
    (``direct_upper_column``); RUCB's challenger scan (CCB's, ``algorithms.ccb._challenger``, reads the same test
    from its cached switch times and also filters by the lower bound).

    Whether u_{j col} reaches its tie with 1/2 is decided by the pair's switch time (``ucb_switch_log_t``:
    ln t >= n (1/2 - mean)^2 / alpha), the test by which RUCB's candidate set is read, not by the rounded
    sum mean + width: past t ~ 1e11 that sum moves by less than its own rounding over many slots, and sits at
    or just below 1/2 for up to hundreds of slots after the switch time, so an arm that the switch time has put in
    the candidate set would be passed over as a challenger -- an event of probability zero in exact arithmetic
    that, at t ~ 1e15, happens hundreds of times a decade (docs/asymptotic.md#rucbs-last-decade).  Among the
    arms past their switch time the largest ``upper`` wins; ``col`` if there is none.
    """
    best = col
    for j in range(n.shape[0]):
        if j != col and (best == col or upper[j] > upper[best]) \
                and log_t >= ucb_switch_log_t(w[j, col] / n[j, col], n[j, col], alpha):
            best = j
    return best


@njit(cache=True, inline="always")
def update_pair(n, w, a1, a2, a1_won):
    """The common statistics update: one more comparison of {a1, a2}, one win for the winner.

    For a self-comparison this adds 2 to ``n[a, a]`` and 1 to ``w[a, a]``; the diagonal is never read.
    """
    n[a1, a2] += 1.0
    n[a2, a1] += 1.0
    if a1_won:
        w[a1, a2] += 1.0
    else:
        w[a2, a1] += 1.0


@njit(cache=True)
def ucb_switch_log_t(mean, count, alpha):
    """The ln t from which ``mean + sqrt(alpha ln t / count) >= 1/2`` holds: -inf if mean >= 1/2,
    else count (1/2 - mean)^2 / alpha.

    The bound only grows with t for fixed statistics, so "u >= 1/2" switches on once, at this ln t, and
    changes otherwise only when the pair is compared (docs/algorithms.md#shared-building-blocks): cache it
    per pair and compare with ln t instead of evaluating a square root every slot.  Equal to the direct
    test up to rounding at the exact boundary.
    """
    if mean >= 0.5:
        return -math.inf
    return count * (0.5 - mean) ** 2 / alpha


@njit(cache=True)
def lcb_switch_log_t(mean, count, alpha):
    """The ln t up to which ``mean - sqrt(alpha ln t / count) >= 1/2`` holds: -inf if mean < 1/2
    (never), else count (mean - 1/2)^2 / alpha.

    The lower bound only falls with t for fixed statistics, so "l >= 1/2" holds until this ln t and
    "l > 1/2" strictly before it; equal to the direct tests up to rounding at the exact boundary.
    """
    if mean < 0.5:
        return -math.inf
    return count * (mean - 0.5) ** 2 / alpha


@njit(cache=True)
def refresh_direct_bound_switches(n, w, alpha, upper, lower, i, j):
    """After {i, j} changed: ``upper[a, b]`` (``ucb_switch_log_t``) and ``lower[a, b]``
    (``lcb_switch_log_t``) of the direct bounds for (a, b) = (i, j) and (j, i), so that
    u_ab >= 1/2 iff ln t >= upper[a, b] and l_ab >= 1/2 iff ln t <= lower[a, b] (CCB)."""
    if i == j:
        return
    for a, b in ((i, j), (j, i)):
        mean = w[a, b] / n[a, b]
        upper[a, b] = ucb_switch_log_t(mean, n[a, b], alpha)
        lower[a, b] = lcb_switch_log_t(mean, n[a, b], alpha)


@njit(cache=True)
def fill_direct_bound_switches(n, w, alpha, upper, lower):
    """``refresh_direct_bound_switches`` for every pair.  The diagonal (u_ii = l_ii = 1/2) is -inf in
    both tables, which gives the right answer to "u_ii >= 1/2", "u_ii < 1/2", "l_ii <= 1/2" and
    "l_ii > 1/2" (the Copeland counts skip the diagonal, so "l_ii >= 1/2" is never asked)."""
    K = n.shape[0]
    for i in range(K):
        upper[i, i] = -math.inf
        lower[i, i] = -math.inf
        for j in range(i):
            refresh_direct_bound_switches(n, w, alpha, upper, lower, i, j)


@njit(cache=True, inline="always")
def refresh_direct_switches(n, w, alpha, switch, row_max, i, j):
    """After {i, j} changed: ``switch[i, j]``, ``switch[j, i]`` (direct bounds, ``ucb_switch_log_t``)
    and ``row_max[k] = max_{l != k} switch[k, l]`` for k in {i, j}, so that
    ``u_kl >= 1/2 for every l`` iff ``ln t >= row_max[k]`` (RUCB's candidate set)."""
    if i == j:
        return
    switch[i, j] = ucb_switch_log_t(w[i, j] / n[i, j], n[i, j], alpha)
    switch[j, i] = ucb_switch_log_t(w[j, i] / n[j, i], n[j, i], alpha)
    K = n.shape[0]
    for k in (i, j):
        top = -math.inf
        for col in range(K):
            if col != k and switch[k, col] > top:
                top = switch[k, col]
        row_max[k] = top


@njit(cache=True)
def fill_direct_switches(n, w, alpha, switch, row_max):
    """``refresh_direct_switches`` for every pair: the cache consistent with arbitrary (n, w)."""
    K = n.shape[0]
    for i in range(1, K):
        for j in range(i):
            refresh_direct_switches(n, w, alpha, switch, row_max, i, j)


@njit(cache=True)
def refresh_mirrored_switches(n, w, alpha, switch, i, j):
    """After {i, j} changed: the ln t from which the mirrored bounds u_ij and u_ji reach 1/2.

    With the master entry (hi, lo), hi > j, and mean = w_hi,lo / n_hi,lo: u_hi,lo = mean + h and
    u_lo,hi = 1 - l_hi,lo = (1 - mean) + h, so both are ``ucb_switch_log_t`` of their own mean.
    """
    if i == j:
        return
    hi, lo = max(i, j), min(i, j)
    mean = w[hi, lo] / n[hi, lo]
    switch[hi, lo] = ucb_switch_log_t(mean, n[hi, lo], alpha)
    switch[lo, hi] = ucb_switch_log_t(1.0 - mean, n[hi, lo], alpha)


@njit(cache=True)
def fill_mirrored_switches(n, w, alpha, switch):
    """``refresh_mirrored_switches`` for every pair (the cache consistent with arbitrary n, w)."""
    K = n.shape[0]
    for i in range(1, K):
        for j in range(i):
            refresh_mirrored_switches(n, w, alpha, switch, i, j)
    return switch


@njit(cache=True)
def upper_copeland_from_switches(switch, log_t, counts):
    """Fill ``counts[i] = #{j != i : u_ij >= 1/2}`` from cached switch times (Algorithm 1 line 5).

    The comparison is ``>=`` as in the authors' code (the paper writes ``>``; the two differ on an
    event of probability zero, docs/algorithms.md#d-ts); no square root per pair.  counts: int64 (K,).
    Returns counts.
    """
    K = switch.shape[0]
    for i in range(K):
        count = 0
        for j in range(K):
            if j != i and log_t >= switch[i, j]:
                count += 1
        counts[i] = count
    return counts
