"""ECW-RMED's steps (``algorithms.ecw_rmed``): forced exploration (step 1), the confidence test of the
empirical Copeland winners (step 4), the approximate regret minimisation findMinRegret (step 6) and the
list bookkeeping after a list pair was played (steps 3-7)."""

import math

import numpy as np
from numba import njit

from dts_reproduction.core.copy import copy_prefix, copy_rows
from dts_reproduction.core.kl import kl_clamped
from dts_reproduction.core.pairs import index_of_pair
from dts_reproduction.core.sort import insertion_sort_by_key, sort_ints

# The scan for h* in findMinRegret stops once the next cost exceeds the best ratio by this relative margin
# (``_allocation``): far above the rounding of the ratios (at most 2 K^2 units in the last place, 9e-10 at
# K = 2000), so no later ratio can come out below the best one, and far below any gap that matters.
H_STAR_MARGIN = 1e-6


@njit(cache=True, inline="always")
def count_threshold(t, alpha):
    """Step 1's count threshold at slot t: a pair compared fewer than alpha sqrt(ln t) times is forced."""
    return alpha * math.sqrt(math.log(t))


@njit(cache=True, inline="always")
def gap_threshold(t, beta):
    """Step 1's gap threshold at slot t: a pair with |p_ij - 1/2| below beta / max(1, ln max(1, ln t)) is forced."""
    return beta / max(1.0, math.log(max(1.0, math.log(t))))


@njit(cache=True)
def summarise_row(n, p, kl, i, row_min_count, row_min_gap, row_max_evidence):
    """Row i's summaries of its pairs (i, j), j < i, which step 1 and the as-run pre-check test:
    row_min_count[i] = min_j n_ij, row_min_gap[i] = min_j |p_ij - 1/2| and row_max_evidence[i] = max_j n_ij
    KLc(p_ij, 1/2) (inf, inf and -inf in row 0, which has no pair).  ``refresh_pair`` calls it for the row of
    every pair whose statistics change."""
    count = math.inf
    gap = math.inf
    evidence = -math.inf
    for j in range(i):
        count = min(count, n[i, j])
        gap = min(gap, abs(p[i, j] - 0.5))
        evidence = max(evidence, n[i, j] * kl[i, j])
    row_min_count[i] = count
    row_min_gap[i] = gap
    row_max_evidence[i] = evidence


@njit(cache=True)
def forced_pair(n, p, row_min_count, row_min_gap, t, alpha, beta):
    """Step 1: id of the first pair (i > j) with n_ij < ``count_threshold`` or |p_ij - 1/2| < ``gap_threshold``
    at slot t; -1 if there is none.  Row i holds such a pair iff its fewest comparisons or its nearest gap
    (``summarise_row``) is below the threshold, so only that row is walked to find the first: K tests a slot
    when none is forced, the same answer as testing all K(K-1)/2 pairs."""
    need_n = count_threshold(t, alpha)
    need_gap = gap_threshold(t, beta)
    for i in range(1, n.shape[0]):
        if row_min_count[i] < need_n or row_min_gap[i] < need_gap:
            for j in range(i):
                if n[i, j] < need_n or abs(p[i, j] - 0.5) < need_gap:
                    return index_of_pair(i, j)
    return -1


@njit(cache=True)
def count_win(p, sc, losses, a, b, sign):
    """Add ``sign`` to the win count sc and the loss count L of the pair {a, b} as p says: the Copeland
    counts of steps 3 and 6, sc_i = #{j : p_ij > 1/2} and L_i = #{j : p_ji > 1/2}, kept up to date."""
    if p[a, b] > 0.5:
        sc[a] += sign
        losses[b] += sign
    elif p[b, a] > 0.5:
        sc[b] += sign
        losses[a] += sign


@njit(cache=True)
def winner_sign(p, a, b):
    """[p_ab > 1/2] - [p_ba > 1/2]: 1 if a beats b, -1 if b beats a, 0 if neither (the side ``count_win`` counts)."""
    return int(p[a, b] > 0.5) - int(p[b, a] > 0.5)


@njit(cache=True)
def refresh_pair(n, w, p, kl, sc, losses, row_min_count, row_min_gap, row_max_evidence, a, b):
    """After the statistics n, w of the pair {a, b} (a != b) changed: its p (both entries), KLc(p_ab, 1/2), the
    Copeland counts it enters (sc, L: ``count_win``), from p as it was to p as it is now, and the summaries of
    its row max(a, b) (``summarise_row``)."""
    count_win(p, sc, losses, a, b, -1)
    p[a, b] = w[a, b] / n[a, b]
    p[b, a] = w[b, a] / n[b, a]
    kl[a, b] = kl[b, a] = kl_clamped(p[a, b], 0.5)
    count_win(p, sc, losses, a, b, 1)
    summarise_row(n, p, kl, max(a, b), row_min_count, row_min_gap, row_max_evidence)


@njit(cache=True)
def mark_stale_columns(p, sup_stale, loss_stale, a, b, before):
    """After the pair {a, b} (a != b) was updated: the sorted superiors and the sorted losses of columns a and b
    are stale (the pair's n and KLc(p_ab, 1/2) changed), and every column if the pair's winner changed
    (``before``: its ``winner_sign`` before the update), since the losses L and their minimum enter every cost
    of the superiors (the pair also moves from one column's losses to the other's)."""
    if winner_sign(p, a, b) != before:
        sup_stale[:] = True
        loss_stale[:] = True
    else:
        sup_stale[a] = True
        sup_stale[b] = True
        loss_stale[a] = True
        loss_stale[b] = True


@njit(cache=True)
def _quota_sum(h_cost, h_opp, n_h, o_cost, o_opp, n_o, i1, i2, quota_h, quota_o):
    """Walk the merge of sorted H and sorted O (ties: H first; O skips opponent i1), taking H elements
    up to quota_h (the pair {i1, i2} also counts for O) and O elements up to quota_o; return the taken
    cost, stopping as soon as it reaches 1 (it can only grow)."""
    total = 0.0
    taken_h = 0
    taken_o = 0
    ih = 0
    io = 0
    while taken_h < quota_h or taken_o < quota_o:
        while io < n_o and o_opp[io] == i1:
            io += 1
        if ih < n_h and (io >= n_o or h_cost[ih] <= o_cost[io]):
            if taken_h < quota_h:
                total += h_cost[ih]
                taken_h += 1
                if h_opp[ih] == i2:
                    taken_o += 1
            ih += 1
        elif io < n_o:
            if taken_o < quota_o:
                total += o_cost[io]
                taken_o += 1
            io += 1
        else:
            break
        if total >= 1.0:
            break
    return total


@njit(cache=True)
def _sorted_losses(n, p, kl, lam, i2, loss_evidence, loss_arms, loss_len, loss_stale, cost, opp, o_len):
    """The losses (j, i2), p_{j i2} > 1/2, of arm i2 by ascending cost n KLc / lam, ties by j ascending (the order
    of a stable sort of the list in j order), into cost, opp and o_len[i2].

    The costs are the evidences n_{j i2} KLc(p_{j i2}, 1/2) divided by lam, and they are kept sorted by (evidence,
    j) from call to call in ``loss_evidence[i2]``, ``loss_arms[i2]`` and ``loss_len[i2]``, rebuilt only while
    ``loss_stale[i2]`` (``mark_stale_columns``): a correctly rounded division by lam keeps their order, so only
    evidences that round to the same cost can change places, and each run of equal costs is put in j order --
    K steps a call instead of a sort (about 1.5 us an arm at K = 136)."""
    if loss_stale[i2]:
        m = 0
        for j in range(n.shape[0]):
            if p[j, i2] > 0.5:
                loss_evidence[i2, m] = n[j, i2] * kl[j, i2]
                loss_arms[i2, m] = j
                m += 1
        insertion_sort_by_key(loss_evidence[i2], loss_arms[i2], m)
        loss_len[i2] = m
        loss_stale[i2] = False
    m = loss_len[i2]
    for a in range(m):
        cost[a] = loss_evidence[i2, a] / lam
        opp[a] = loss_arms[i2, a]
    start = 0
    for a in range(1, m + 1):
        if a == m or cost[a] != cost[start]:
            sort_ints(opp, start, a)
            start = a
    o_len[i2] = m


@njit(cache=True)
def precheck_fails(row_max_evidence, lam):
    """The as-run confidence pre-check of step 4: True if some pair (i > j) has n_ij KLc(p_ij, 1/2) / lam
    > 1, which declares every winner not confident (docs/algorithms.md#ecw-rmed).  Tested on each row's largest
    n_ij KLc(p_ij, 1/2) (``summarise_row``): a correctly rounded division by lam > 0 keeps the order, so the
    largest passes iff one of the row's pairs does."""
    for i in range(1, row_max_evidence.shape[0]):
        if row_max_evidence[i] / lam > 1.0:
            return True
    return False


@njit(cache=True)
def winner_passes(n, p, kl, lam, losses, i1, loss1, loss2, keys, items, loss_evidence, loss_arms, loss_len,
                  loss_stale, o_cost, o_opp, o_len):
    """Step 4's confidence test of the empirical Copeland winner i1 (loss1, loss2: the fewest and second
    fewest Copeland losses K - 1 - sc): for every other arm i2 and level, the cheapest quotas of the
    merged H (i1's wins, sorted here into keys/items) and O (i2's losses, sorted once per lam into
    o_cost/o_opp/o_len, -1 = not yet, from the kept loss_* lists: ``_sorted_losses``) cost at least 1.
    Costs are n KLc(p, 1/2) / lam."""
    K = n.shape[0]
    n_h = 0
    for j in range(K):
        if p[i1, j] > 0.5:
            keys[n_h] = n[i1, j] * kl[i1, j] / lam
            items[n_h] = j
            n_h += 1
    insertion_sort_by_key(keys, items, n_h)
    for i2 in range(K):
        if i2 == i1:
            continue
        if o_len[i2] < 0:
            _sorted_losses(n, p, kl, lam, i2, loss_evidence, loss_arms, loss_len, loss_stale, o_cost[i2], o_opp[i2],
                           o_len)
        for level in range(loss1, loss2 + 1):
            quota_o = max(0, losses[i2] - level)
            if _quota_sum(keys, items, n_h, o_cost[i2], o_opp[i2], o_len[i2], i1, i2,
                          level + 1 - loss1, quota_o) < 1.0:
                return False
    return True


@njit(cache=True)
def copeland_losses(sc):
    """(loss1, loss2): K - 1 minus the largest and the second largest Copeland win counts sc."""
    top = 0
    second = 0
    for i in range(sc.shape[0]):
        if sc[i] > top:
            second = top
            top = sc[i]
        elif sc[i] > second:
            second = sc[i]
    return sc.shape[0] - 1 - top, sc.shape[0] - 1 - second


@njit(cache=True)
def confident_winner(n, p, kl, lam, sc, losses, row_max_evidence, precheck, keys, items, loss_evidence, loss_arms,
                     loss_len, loss_stale, o_cost, o_opp, o_len):
    """Step 4: the first empirical Copeland winner (ascending) that passes the confidence check
    (``winner_passes``); -1 if none.  precheck 0 (as run): ``precheck_fails`` (on ``row_max_evidence``) fails all."""
    K = n.shape[0]
    if precheck == 0 and precheck_fails(row_max_evidence, lam):
        return -1
    loss1, loss2 = copeland_losses(sc)
    o_len[:] = -1
    for i1 in range(K):
        if K - 1 - sc[i1] == loss1 and winner_passes(n, p, kl, lam, losses, i1, loss1, loss2, keys, items,
                                                      loss_evidence, loss_arms, loss_len, loss_stale, o_cost, o_opp,
                                                      o_len):
            return i1
    return -1


@njit(cache=True)
def _sorted_superiors(p, kl, losses, l_min, i2, cost, opp, col_len):
    """The arms j beating i2 by ascending cost r_{j i2} / KLc(p_{j i2}, 1/2) (stable, j ascending), shared by
    the candidates (dropping i1 from a sorted list keeps it sorted) and kept from slot to slot while its
    inputs do not change (``mark_stale_columns``)."""
    scale = 2.0 * (p.shape[0] - 1)
    m = 0
    for j in range(p.shape[0]):
        if p[j, i2] > 0.5:
            cost[m] = (losses[j] + losses[i2] - 2 * l_min) / scale / kl[j, i2]
            opp[m] = j
            m += 1
    insertion_sort_by_key(cost, opp, m)
    col_len[i2] = m


@njit(cache=True)
def _allocation(p, kl, losses, l_min, i1, q, sup_key, sup_opp, sup_len, sup_stale, alloc_arms, alloc_len, update):
    """findMinRegret's allocation q (symmetric K x K) for the candidate i1 (step 6).  The sorted superiors of a
    column i2 are rebuilt only if ``sup_stale[i2]`` (``find_min_regret``).  Column i2 sets the pairs {j, i2} of
    its h* cheapest superiors j != i1, recorded in ``alloc_arms[i2, :alloc_len[i2]]``; row i1 sets {i1, j} for
    the arms j that i1 beats; no two of them set the same pair.

    update False: q is overwritten whole.  update True: q holds i1's allocation as an earlier call left it, and a
    column whose inputs did not change since (not ``sup_stale``: its superiors, their costs and KLc, and k, which
    moves only with a winner, which marks every column) still holds its pairs; only the stale columns are redone,
    their recorded pairs cleared first, all before any is set (a pair's column changes with its winner), and row
    i1 is rewritten.  The same numbers as update False, bit for bit.

    h* minimises the ratio f(h) = (c_1 + ... + c_h) / (h - k) over h > k, the c ascending.  f(h + 1) is the
    weighted mean of f(h) (weight h - k) and c_{h+1} (weight 1), so once the next cost is above the best ratio,
    every later ratio is a mean of numbers above it: the scan stops there, with the margin ``H_STAR_MARGIN`` so
    that this holds for the rounded ratios too and h* is the one the whole scan gives, bit for bit.  Without
    the stop the scan walked every superior of every column, K^2 steps per candidate (about 50 us at K = 136)."""
    K = p.shape[0]
    if not update:
        q[:, :] = 0.0
        alloc_len[:] = 0
    for j in range(K):
        q[i1, j] = q[j, i1] = 1.0 / kl[i1, j] if p[j, i1] < 0.5 else 0.0
    for i2 in range(K):
        if update and sup_stale[i2]:
            for a in range(alloc_len[i2]):
                j = alloc_arms[i2, a]
                q[j, i2] = q[i2, j] = 0.0
            alloc_len[i2] = 0
    for i2 in range(K):
        # Sup = {j not in {i1, i2} : p_{j i2} > 1/2} has L_{i2} - [p_{i1 i2} > 1/2] members, so
        # k = |Sup| - (L_{i2} - L_{i1} + 1) is known before Sup is looked at.
        k = losses[i1] - 1 - (1 if p[i1, i2] > 0.5 else 0)
        if i2 == i1 or k < 0 or (update and not sup_stale[i2]):
            continue
        if sup_stale[i2]:
            _sorted_superiors(p, kl, losses, l_min, i2, sup_key[i2], sup_opp[i2], sup_len)
            sup_stale[i2] = False
        cumulative = 0.0
        h = 0
        h_star = -1
        best_ratio = 0.0
        for a in range(sup_len[i2]):
            if sup_opp[i2, a] == i1:
                continue
            if h_star >= 0 and sup_key[i2, a] > best_ratio * (1.0 + H_STAR_MARGIN):
                break
            h += 1
            cumulative += sup_key[i2, a]
            if h > k and (h_star < 0 or cumulative / (h - k) < best_ratio):
                h_star = h
                best_ratio = cumulative / (h - k)
        h = 0
        for a in range(sup_len[i2]):
            j = sup_opp[i2, a]
            if j == i1:
                continue
            if h == h_star:
                break
            q[j, i2] = q[i2, j] = 1.0 / ((h_star - k) * kl[j, i2])
            alloc_arms[i2, h] = j
            h += 1
        alloc_len[i2] = h


@njit(cache=True)
def find_min_regret(p, kl, losses, q, q_best, sup_key, sup_opp, sup_len, sup_stale, alloc_arms, alloc_len, owner):
    """Step 6 (findMinRegret): the candidate w (an arm with the fewest losses L) with the smallest
    sum_{i>j} r_ij q_ij, r_ij = (L_i + L_j - 2 Lmin) / (2 (K - 1)), first on ties; its allocation is
    left in q_best.  Returns (w, the candidate whose allocation q_best now holds for the next call: w, or -1).
    sup_key, sup_opp (K x K), sup_len (K,): the sorted superiors of each arm, a column rebuilt when
    ``sup_stale`` (bool (K,)) says its inputs changed since it was built (all True: build every column).
    With a single candidate the objective is not needed and is not computed, and if it is ``owner`` (the
    candidate of the previous call, whose allocation q_best, alloc_arms and alloc_len still hold), only the
    columns ``sup_stale`` marks are redone (``_allocation``); with several, q_best is the best one's copy of q."""
    K = p.shape[0]
    l_min = np.min(losses)
    n_cand = 0
    for i in range(K):
        n_cand += losses[i] == l_min
    if n_cand == 1:
        best = np.argmin(losses)
        _allocation(p, kl, losses, l_min, best, q_best, sup_key, sup_opp, sup_len, sup_stale, alloc_arms, alloc_len,
                    best == owner)
        return best, best
    scale = 2.0 * (K - 1)
    best = -1
    best_obj = 0.0
    for i1 in range(K):
        if losses[i1] != l_min:
            continue
        _allocation(p, kl, losses, l_min, i1, q, sup_key, sup_opp, sup_len, sup_stale, alloc_arms, alloc_len, False)
        objective = 0.0
        for i in range(1, K):
            for j in range(i):
                if q[i, j] != 0.0:
                    objective += (losses[i] + losses[j] - 2 * l_min) / scale * q[i, j]
        if best < 0 or objective < best_obj:
            best = i1
            best_obj = objective
            copy_rows(q_best, q)
    return best, -1


@njit(cache=True, inline="always")
def underplayed(q, n, lam, i, j):
    """Step 7's test of the pair (i > j): q_ij > 0 and q_ij > n_ij / lam."""
    return q[i, j] > 0.0 and q[i, j] > n[i, j] / lam


@njit(cache=True)
def underplayed_pairs(q, n, lam, i1, alloc_arms, alloc_len):
    """The ids, ascending, of the pairs that pass ``underplayed`` (step 7).  i1 >= 0: q is the allocation
    findMinRegret keeps for its candidate i1 (``_allocation``), whose only nonzero pairs are row i1's and the
    columns' recorded ones: while they number at most 2K (late in a run, about K), only they are tested and the
    passing ones sorted.  Otherwise (i1 = -1: no kept allocation; or more pairs, early in a run) every pair is
    scanned in order.  The same pairs either way."""
    K = q.shape[0]
    n_allocated = K + np.sum(alloc_len)
    ids = np.empty(K * (K - 1) // 2 if i1 < 0 else min(n_allocated, K * (K - 1) // 2), np.int64)
    m = 0
    if i1 < 0 or n_allocated > 2 * K:
        for i in range(1, K):
            for j in range(i):
                if underplayed(q, n, lam, i, j):
                    ids[m] = index_of_pair(i, j)
                    m += 1
        return ids[:m]
    for j in range(K):
        if j != i1 and underplayed(q, n, lam, max(i1, j), min(i1, j)):
            ids[m] = index_of_pair(max(i1, j), min(i1, j))
            m += 1
    for i2 in range(K):
        for a in range(alloc_len[i2]):
            j = alloc_arms[i2, a]
            if underplayed(q, n, lam, max(i2, j), min(i2, j)):
                ids[m] = index_of_pair(max(i2, j), min(i2, j))
                m += 1
    return np.sort(ids[:m])


@njit(cache=True)
def add_next(pair, in_lr, ln, in_ln, counters):
    """Append a pair id to LN unless it is already in LN or LR; counters: the state's record (its ``next_len``).
    Shared with CW-RMED (``algorithms.cw_rmed``)."""
    if not in_ln[pair] and not in_lr[pair]:
        ln[counters.next_len] = pair
        in_ln[pair] = True
        counters.next_len += 1


@njit(cache=True)
def advance_list(current_list, in_remaining, next_list, in_next, counters):
    """The end of a list slot: q advances, and at the end of LC the next round starts with LC = LR = LN and LN
    empty; counters: the state's record (``position``, ``current_len``, ``next_len``).  Shared with CW-RMED."""
    counters.position += 1
    if counters.position == counters.current_len:
        counters.current_len = counters.next_len
        copy_prefix(current_list, next_list, counters.next_len)
        copy_prefix(in_remaining, in_next, in_next.shape[0])
        in_next[:] = False
        counters.next_len = 0
        counters.position = 0


@njit(cache=True)
def after_play(comparisons, p_hat, kl_half, copeland_wins, losses, row_max_evidence, precheck, keys, items,
               loss_evidence, loss_arms, loss_len, loss_stale, allocation, best_allocation, sorted_cost, sorted_arms,
               sorted_len, superior_cost, superior_arms, superior_len, superiors_stale, allocated_arms, allocated_len,
               current_list, in_remaining, next_list, in_next, counters):
    """Steps 3-7 for the pair LC[q] played at slot ``counters.played_slot``, on the current statistics.
    Shared by ``select`` and ``skip``; the arguments are the ``ECWRMEDState`` fields of the same names
    (``counters``: its record ``counters[0]``)."""
    K = comparisons.shape[0]
    n_pairs = K * (K - 1) // 2
    lam = max(1.0, math.log(counters.played_slot))
    winner = confident_winner(comparisons, p_hat, kl_half, lam, copeland_wins, losses, row_max_evidence, precheck,
                              keys, items, loss_evidence, loss_arms, loss_len, loss_stale, sorted_cost, sorted_arms,
                              sorted_len)
    in_remaining[counters.played_pair] = False
    if winner < 0:
        winner, counters.allocation_owner = find_min_regret(
            p_hat, kl_half, losses, allocation, best_allocation, superior_cost, superior_arms, superior_len,
            superiors_stale, allocated_arms, allocated_len, counters.allocation_owner)
        for pair in underplayed_pairs(best_allocation, comparisons, lam, counters.allocation_owner, allocated_arms,
                                      allocated_len):
            add_next(pair, in_remaining, next_list, in_next, counters)
    add_next(n_pairs + winner, in_remaining, next_list, in_next, counters)
    advance_list(current_list, in_remaining, next_list, in_next, counters)
