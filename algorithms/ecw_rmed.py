"""ECW-RMED (Komiyama, Honda & Nakagawa, ICML 2016) as run by Wu & Liu -- docs/algorithms.md#ecw-rmed.

Each slot t: (1) forced exploration -- the first pair (i > j) in the order (1,0), (2,0), (2,1), ... with
n_ij < alpha sqrt(ln t) or |p_ij - 1/2| < beta / max(1, ln max(1, ln t)) is played and the lists are
untouched; (2) otherwise the pair LC[q] (a pair i > j or a self-pair (w, w)) is played, and with the
statistics *including its outcome* (lambda = max(1, ln t)): the empirical Copeland winners are
checked for confidence (step 4); the next pairs are {(w, w)} for a confident winner w, else those with
q_ij > n_ij / lambda from the approximate regret minimisation ``find_min_regret`` plus (w, w); the
played pair leaves LR, new pairs join LN, q advances, and at the end of LC the round LC = LR = LN starts.

The steps after the outcome of slot t run at the *start of select at slot t + 1* (before its forced
exploration check), with the lambda of slot t: identical for feedback delay 1, and with delay d they see
the statistics that have been delivered by then.  No pseudo-counts (n = w = 0, p = 1/2 until played).

Options and choices:
* ``confidence_precheck="as-run"`` (default): the authors' code declares every winner not confident as
  soon as any pair has n_ij KLc(p_ij, 1/2) / lambda > 1, which looks inverted (docs/algorithms.md#ecw-rmed); ``"none"``
  drops that pre-check (only the per-winner test of step 4 remains).
* Sorting: the confidence list S = H + O (H first, each by opponent index) and findMinRegret's Sup set
  are sorted by a stable sort; the C++ uses an unstable std::sort, so ties of equal cost may be
  ordered differently (any order is allowed).
* q is a symmetric allocation of unordered pairs: setting q_{i1 j} or q_{j i2} sets both entries.
* ``skip`` (docs/algorithms.md#exact-skipping-of-self-comparison-runs): "off" (default, slot by slot) or
  "exact": in the simulator, a run of self-pairs (w, w) that nothing but ln t can end is done in one
  step (``skip``); it does not draw the outcomes of the skipped slots, so the runs equal the default
  ones in law, not bit for bit.
"""

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from algorithms.base import (
    EXACT_SKIP,
    SKIP_OFF,
    AlgorithmSpec,
    Policy,
    check_choice,
    check_positive,
    check_skip,
    exact_skip_hook,
)
from core.bounds import update_pair
from core.constants import ECW_RMED_ALPHA, ECW_RMED_BETA
from core.kl import kl_clamped
from core.pairs import index_of_pair, pair_of_index
from core.skipping import record_self_run
from core.sort import insertion_sort_by_key

PRECHECKS = {"as-run": 0, "none": 1}
# The scalars of the state that change, as the named fields of one record: one array instead of one per
# scalar, because every array of a state is reference-counted each time the state is passed to a kernel.
ECW_RMED_COUNTERS = np.dtype([
    ("position", np.int64),  # q, the position in LC of the next list pair
    ("current_len", np.int64),  # |LC|
    ("next_len", np.int64),  # |LN|
    ("pending", np.int64),  # 1 if the list pair of the last select still awaits steps 3-7
    ("played_slot", np.int64),  # the slot t at which that list pair was played
    ("played_pair", np.int64),  # its pair id
])


class ECWRMEDState(NamedTuple):
    """State of ECW-RMED.  Settings: ``alpha``, ``beta`` (forced exploration), ``precheck`` (0 as run,
    1 none), ``skip_runs`` (option skip="exact").  Pair ids: the M = K(K-1)/2 + K entries of the lists
    are pair ids, (i, j) with i > j has id i(i-1)/2 + j (``core.pairs``), the self-pair (w, w) has id
    K(K-1)/2 + w.  No pseudo-counts."""

    comparisons: np.ndarray  # float64 (K, K): n_ij
    wins: np.ndarray  # float64 (K, K): w_ij
    p_hat: np.ndarray  # float64 (K, K): w_ij / n_ij, 1/2 until the pair is played
    kl_half: np.ndarray  # float64 (K, K): KLc(p_hat_ij, 1/2), clamped KL
    alpha: float
    beta: float
    precheck: int
    skip_runs: bool
    counters: np.ndarray  # ECW_RMED_COUNTERS (1,): the changing scalars, by name (``counters[0].position``)
    current_list: np.ndarray  # int64 (M,): LC in its first |LC| entries
    in_remaining: np.ndarray  # bool (M,): LR, the pairs of LC not yet played this round
    next_list: np.ndarray  # int64 (M,): LN in its first |LN| entries
    in_next: np.ndarray  # bool (M,): LN as a mask
    copeland_wins: np.ndarray  # int64 (K,): sc_i = #{j : p_ij > 1/2}, kept by ``update``
    losses: np.ndarray  # int64 (K,): L_i = #{j : p_ji > 1/2}, kept by ``update``
    allocation: np.ndarray  # scratch float64 (K, K): findMinRegret's q for one candidate
    best_allocation: np.ndarray  # scratch float64 (K, K): q of the best candidate
    keys: np.ndarray  # scratch float64 (K,)
    items: np.ndarray  # scratch int64 (K,)
    sorted_cost: np.ndarray  # scratch float64 (K, K): per arm, its sorted beaters' costs
    sorted_arms: np.ndarray  # scratch int64 (K, K): per arm, its beaters in that order
    sorted_len: np.ndarray  # scratch int64 (K,): how many; -1 while not built this slot


def init_ecw_rmed(K, horizon=None, alpha=ECW_RMED_ALPHA, beta=ECW_RMED_BETA, confidence_precheck="as-run",
                  skip=SKIP_OFF):
    """A fresh ``ECWRMEDState``: LC = LR = every pair (i > j) in id order, LN empty.

    alpha, beta: finite and > 0 (forced exploration); confidence_precheck: "as-run" or "none"; skip:
    "off" or "exact" (module doc).
    """
    alpha, beta = check_positive("alpha", alpha), check_positive("beta", beta)
    precheck = PRECHECKS[check_choice("confidence_precheck", confidence_precheck, tuple(PRECHECKS))]
    n_pairs = K * (K - 1) // 2
    in_lr = np.zeros(n_pairs + K, np.bool_)
    in_lr[:n_pairs] = True
    lc = np.zeros(n_pairs + K, np.int64)
    lc[:n_pairs] = np.arange(n_pairs)
    counters = np.zeros(1, ECW_RMED_COUNTERS)
    counters[0]["current_len"] = n_pairs
    return ECWRMEDState(
        comparisons=np.zeros((K, K)), wins=np.zeros((K, K)), p_hat=np.full((K, K), 0.5), kl_half=np.zeros((K, K)),
        alpha=alpha, beta=beta, precheck=precheck, skip_runs=check_skip(skip),
        counters=counters,
        current_list=lc, in_remaining=in_lr, next_list=np.zeros(n_pairs + K, np.int64),
        in_next=np.zeros(n_pairs + K, np.bool_),
        copeland_wins=np.zeros(K, np.int64), losses=np.zeros(K, np.int64),
        allocation=np.zeros((K, K)), best_allocation=np.zeros((K, K)),
        keys=np.zeros(K), items=np.zeros(K, np.int64),
        sorted_cost=np.zeros((K, K)), sorted_arms=np.zeros((K, K), np.int64), sorted_len=np.zeros(K, np.int64),
    )


@njit(cache=True)
def forced_pair(n, p, t, alpha, beta):
    """Step 1: id of the first pair (i > j) with n_ij < alpha sqrt(ln t) or
    |p_ij - 1/2| < beta / max(1, ln max(1, ln t)); -1 if there is none.  Row i's pairs (i, 0 .. i-1)
    are first tested together without a branch (a count the compiler vectorises), and only a row
    holding such a pair is walked to find the first: the same tests, ~K^2/2 of them a slot when none
    is forced, as in the settled phase."""
    log_t = math.log(t)
    need_n = alpha * math.sqrt(log_t)
    need_gap = beta / max(1.0, math.log(max(1.0, log_t)))
    for i in range(1, n.shape[0]):
        forced = 0
        for j in range(i):
            forced += (n[i, j] < need_n) | (abs(p[i, j] - 0.5) < need_gap)
        if forced:
            for j in range(i):
                if n[i, j] < need_n or abs(p[i, j] - 0.5) < need_gap:
                    return index_of_pair(i, j)
    return -1


@njit(cache=True)
def _count_win(p, sc, losses, a, b, sign):
    """Add ``sign`` to the win count sc and the loss count L of the pair {a, b} as p says: the Copeland
    counts of steps 3 and 6, sc_i = #{j : p_ij > 1/2} and L_i = #{j : p_ji > 1/2}, kept up to date."""
    if p[a, b] > 0.5:
        sc[a] += sign
        losses[b] += sign
    elif p[b, a] > 0.5:
        sc[b] += sign
        losses[a] += sign


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
def _sorted_losses(n, p, kl, lam, i2, cost, opp, o_len):
    """The losses (j, i2), p_{j i2} > 1/2, of arm i2 by ascending cost n KLc / lam (stable, j ascending)."""
    m = 0
    for j in range(n.shape[0]):
        if p[j, i2] > 0.5:
            cost[m] = n[j, i2] * kl[j, i2] / lam
            opp[m] = j
            m += 1
    insertion_sort_by_key(cost, opp, m)
    o_len[i2] = m


@njit(cache=True)
def _precheck_fails(n, kl, lam):
    """The as-run confidence pre-check of step 4: True if some pair (i > j) has n_ij KLc(p_ij, 1/2) / lam
    > 1, which declares every winner not confident (docs/algorithms.md#ecw-rmed)."""
    for i in range(1, n.shape[0]):
        for j in range(i):
            if n[i, j] * kl[i, j] / lam > 1.0:
                return True
    return False


@njit(cache=True)
def _winner_passes(n, p, kl, lam, losses, i1, loss1, loss2, keys, items, o_cost, o_opp, o_len):
    """Step 4's confidence test of the empirical Copeland winner i1 (loss1, loss2: the fewest and second
    fewest Copeland losses K - 1 - sc): for every other arm i2 and level, the cheapest quotas of the
    merged H (i1's wins, sorted here into keys/items) and O (i2's losses, sorted once per lam into
    o_cost/o_opp/o_len, -1 = not yet) cost at least 1.  Costs are n KLc(p, 1/2) / lam."""
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
            _sorted_losses(n, p, kl, lam, i2, o_cost[i2], o_opp[i2], o_len)
        for level in range(loss1, loss2 + 1):
            quota_o = max(0, losses[i2] - level)
            if _quota_sum(keys, items, n_h, o_cost[i2], o_opp[i2], o_len[i2], i1, i2,
                          level + 1 - loss1, quota_o) < 1.0:
                return False
    return True


@njit(cache=True)
def _copeland_losses(sc):
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
def confident_winner(n, p, kl, lam, sc, losses, precheck, keys, items, o_cost, o_opp, o_len):
    """Step 4: the first empirical Copeland winner (ascending) that passes the confidence check
    (``_winner_passes``); -1 if none.  precheck 0 (as run): ``_precheck_fails`` fails all."""
    K = n.shape[0]
    if precheck == 0 and _precheck_fails(n, kl, lam):
        return -1
    loss1, loss2 = _copeland_losses(sc)
    o_len[:] = -1
    for i1 in range(K):
        if K - 1 - sc[i1] == loss1 and _winner_passes(n, p, kl, lam, losses, i1, loss1, loss2, keys, items,
                                                      o_cost, o_opp, o_len):
            return i1
    return -1


@njit(cache=True)
def _sorted_superiors(p, kl, losses, l_min, i2, cost, opp, col_len):
    """The arms j beating i2 by ascending cost r_{j i2} / KLc(p_{j i2}, 1/2) (stable, j ascending), built
    once per slot and shared by the candidates (dropping i1 from a sorted list keeps it sorted)."""
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
def _allocation(p, kl, losses, l_min, i1, q, sup_key, sup_opp, sup_len):
    """findMinRegret's allocation q (symmetric K x K, overwritten) for the candidate i1 (step 6)."""
    K = p.shape[0]
    q[:, :] = 0.0
    for j in range(K):
        if p[j, i1] < 0.5:
            q[i1, j] = q[j, i1] = 1.0 / kl[i1, j]
    for i2 in range(K):
        # Sup = {j not in {i1, i2} : p_{j i2} > 1/2} has L_{i2} - [p_{i1 i2} > 1/2] members, so
        # k = |Sup| - (L_{i2} - L_{i1} + 1) is known before Sup is looked at.
        k = losses[i1] - 1 - (1 if p[i1, i2] > 0.5 else 0)
        if i2 == i1 or k < 0:
            continue
        if sup_len[i2] < 0:
            _sorted_superiors(p, kl, losses, l_min, i2, sup_key[i2], sup_opp[i2], sup_len)
        cumulative = 0.0
        h = 0
        h_star = -1
        best_ratio = 0.0
        for a in range(sup_len[i2]):
            if sup_opp[i2, a] == i1:
                continue
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
            h += 1


@njit(cache=True)
def find_min_regret(p, kl, losses, q, q_best, sup_key, sup_opp, sup_len):
    """Step 6 (findMinRegret): the candidate w (an arm with the fewest losses L) with the smallest
    sum_{i>j} r_ij q_ij, r_ij = (L_i + L_j - 2 Lmin) / (2 (K - 1)), first on ties; its allocation is
    left in q_best.  With a single candidate the objective is not needed and is not computed.
    sup_key, sup_opp (K x K), sup_len (K,): scratch for the sorted superiors of each arm."""
    K = p.shape[0]
    l_min = np.min(losses)
    sup_len[:] = -1
    n_cand = 0
    for i in range(K):
        n_cand += losses[i] == l_min
    if n_cand == 1:
        best = np.argmin(losses)
        _allocation(p, kl, losses, l_min, best, q_best, sup_key, sup_opp, sup_len)
        return best
    scale = 2.0 * (K - 1)
    best = -1
    best_obj = 0.0
    for i1 in range(K):
        if losses[i1] != l_min:
            continue
        _allocation(p, kl, losses, l_min, i1, q, sup_key, sup_opp, sup_len)
        objective = 0.0
        for i in range(1, K):
            for j in range(i):
                if q[i, j] != 0.0:
                    objective += (losses[i] + losses[j] - 2 * l_min) / scale * q[i, j]
        if best < 0 or objective < best_obj:
            best = i1
            best_obj = objective
            q_best[:, :] = q
    return best


@njit(cache=True)
def _add_next(pair, in_lr, ln, in_ln, counters):
    """Append a pair id to LN unless it is already in LN or LR; counters: the state's record."""
    if not in_ln[pair] and not in_lr[pair]:
        ln[counters.next_len] = pair
        in_ln[pair] = True
        counters.next_len += 1


@njit(cache=True)
def _after_play(state):
    """Steps 3-7 for the pair LC[q] played at slot ``counters[0].played_slot``, on the current statistics."""
    (comparisons, _, p_hat, kl_half, _, _, precheck, _, counters, current_list, in_remaining, next_list, in_next,
     copeland_wins, losses, allocation, best_allocation, keys, items, sorted_cost, sorted_arms, sorted_len) = state
    n, p, kl, sc, losses = comparisons, p_hat, kl_half, copeland_wins, losses
    lc, in_lr, ln, in_ln = current_list, in_remaining, next_list, in_next
    c = counters[0]
    col_key, col_opp, col_len = sorted_cost, sorted_arms, sorted_len
    K = n.shape[0]
    n_pairs = K * (K - 1) // 2
    lam = max(1.0, math.log(c.played_slot))
    winner = confident_winner(n, p, kl, lam, sc, losses, precheck, keys, items,
                              col_key, col_opp, col_len)
    in_lr[c.played_pair] = False
    if winner < 0:
        q_best = best_allocation
        winner = find_min_regret(p, kl, losses, allocation, q_best, col_key, col_opp, col_len)
        for i in range(1, K):
            for j in range(i):
                if q_best[i, j] > 0.0 and q_best[i, j] > n[i, j] / lam:
                    _add_next(index_of_pair(i, j), in_lr, ln, in_ln, c)
    _add_next(n_pairs + winner, in_lr, ln, in_ln, c)
    c.position += 1
    if c.position == c.current_len:
        c.current_len = c.next_len
        lc[: c.next_len] = ln[: c.next_len]
        in_lr[:] = in_ln
        in_ln[:] = False
        c.next_len = 0
        c.position = 0


@njit(cache=True)
def select(state, t, rng):
    """Choose (a1, a2) at slot t (docs/algorithms.md#ecw-rmed); deterministic, ``rng`` is unused.  First finishes the
    previous list slot (steps 3-7), then forced exploration (step 1), else the pair LC[q] (step 2)."""
    (comparisons, _, p_hat, _, alpha, beta, _, _, counters, current_list, _, _, _, _, _, _, _, _, _, _, _, _) = state
    n = comparisons
    c = counters[0]
    if c.pending:
        c.pending = 0
        _after_play(state)
    pair = forced_pair(n, p_hat, t, alpha, beta)
    if pair < 0:
        pair = current_list[c.position]
        c.pending = 1
        c.played_slot = t
        c.played_pair = pair
    n_pairs = n.shape[0] * (n.shape[0] - 1) // 2
    if pair >= n_pairs:
        return pair - n_pairs, pair - n_pairs
    return pair_of_index(pair)


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """The common pair update; p, KLc(p, 1/2) and the Copeland counts of the played pair follow (the
    diagonal stays 1/2)."""
    (comparisons, wins, p_hat, kl_half, _, _, _, _, _, _, _, _, _, copeland_wins, losses, _, _, _, _, _, _, _) = state
    n, w, p, kl = comparisons, wins, p_hat, kl_half
    sc, losses = copeland_wins, losses
    update_pair(n, w, a1, a2, a1_won)
    if a1 != a2:
        _count_win(p, sc, losses, a1, a2, -1)
        p[a1, a2] = w[a1, a2] / n[a1, a2]
        p[a2, a1] = w[a2, a1] / n[a2, a1]
        kl[a1, a2] = kl[a2, a1] = kl_clamped(p[a1, a2], 0.5)
        _count_win(p, sc, losses, a1, a2, 1)


@njit(cache=True)
def _run_signature(state, s, with_pairs, q_best, out):
    """The answers, at slot s of a run of self-pairs, of every test through which ln s enters slot s:
    out[0] = no forced pair (step 1 at s); out[1] = the as-run pre-check fails, and out[2 + i] = winner
    i passes ``_winner_passes`` (i an empirical Copeland winner), both with the lambda = max(1, ln(s - 1))
    of steps 3-7 for slot s - 1; if ``with_pairs``, out[2 + K + id] = q_best_ij > n_ij / lambda for the
    pairs (i > j, pair id) findMinRegret allocates.  Each answer is monotone in s: the thresholds
    alpha sqrt(ln s) and beta / max(1, ln ln s) move one way, every cost n KLc / lambda only falls, and
    the sorted order of the costs does not depend on lambda (up to two costs closer than rounding, which
    could tie at one lambda and not at another), so ``out`` equals its value at the run's first slot up
    to the first slot at which one test flips, and differs after it.  out: bool (2 + K + K(K-1)/2,)."""
    (comparisons, _, p_hat, kl_half, alpha, beta, precheck, _, _, _, _, _, _, copeland_wins, losses, _, _, keys,
     items, sorted_cost, sorted_arms, sorted_len) = state
    n, p, kl, sc = comparisons, p_hat, kl_half, copeland_wins
    K = n.shape[0]
    lam = max(1.0, math.log(s - 1))
    out[:] = False
    out[0] = forced_pair(n, p, s, alpha, beta) < 0
    out[1] = precheck == 0 and _precheck_fails(n, kl, lam)
    loss1, loss2 = _copeland_losses(sc)
    sorted_len[:] = -1
    for i1 in range(K):
        out[2 + i1] = K - 1 - sc[i1] == loss1 and _winner_passes(n, p, kl, lam, losses, i1, loss1, loss2, keys,
                                                                 items, sorted_cost, sorted_arms, sorted_len)
    if with_pairs:
        for i in range(1, K):
            for j in range(i):
                out[2 + K + index_of_pair(i, j)] = q_best[i, j] > 0.0 and q_best[i, j] > n[i, j] / lam


@njit(cache=True)
def skip(state, t, rng, t_limit):
    """The run of self-pairs (w, w) from slot t in one step (option skip="exact"; ``core.simulate``).

    ECW-RMED draws nothing, and a self-comparison changes only the diagonal of (n, w), which no step
    reads.  With LC = ((w, w)) just played at slot t - 1 (so every slot ends the round), this does what
    ``select`` at slot t would do first -- steps 3-7 for slot t - 1 -- and if they put (w, w) alone
    back (a confident winner w, step 4, or none and findMinRegret's candidate w with no pair
    q_ij > n_ij / lambda, step 6) and no pair is forced at t (step 1), slot t plays (w, w) again.
    Nothing changes between such slots but ln t, which enters only the tests of ``_run_signature``;
    each is monotone in t, so the run lasts while their answers stay those of slot t, up to t_limit (a
    checkpoint, a delayed-feedback delivery, the horizon): the last such slot is found by doubling and
    bisection.  Returns (slots, w) for the slots t .. t + slots - 1, after their updates (the diagonal,
    ``record_self_run``; the self-pair marked as played at the last of them, the lists as steps 3-7
    leave them); (0, -1) otherwise, with steps 3-7 for slot t - 1 done if the last slot was such a
    self-pair (``select`` then goes on from step 1).  ``rng`` is not used.
    """
    (comparisons, wins, p_hat, _, alpha, beta, _, _, counters, current_list, _, _, _, _, _, _,
     best_allocation, _, _, _, _, _) = state
    n, c = comparisons, counters[0]
    K = n.shape[0]
    n_pairs = K * (K - 1) // 2
    pair = current_list[0]
    if c.current_len != 1 or pair < n_pairs or c.pending != 1 or c.played_pair != pair or c.played_slot != t - 1:
        return 0, -1
    c.pending = 0
    _after_play(state)
    if c.current_len != 1 or current_list[0] != pair or forced_pair(n, p_hat, t, alpha, beta) >= 0:
        return 0, -1
    first = np.empty(2 + K + n_pairs, np.bool_)
    _run_signature(state, t, False, best_allocation, first)
    with_pairs = first[1] or not first[2:2 + K].any()  # no confident winner: steps 6-7 made q_best
    if with_pairs:
        _run_signature(state, t, True, best_allocation, first)
    later = np.empty_like(first)
    good = t  # the answers at slot ``good`` are those of slot t; ``bad`` (if <= t_limit) differs
    bad = t_limit + 1
    step = 1
    while good < t_limit and bad == t_limit + 1:
        probe = min(t + step, t_limit)
        _run_signature(state, probe, with_pairs, best_allocation, later)
        if np.array_equal(later, first):
            good = probe
            step *= 2
        else:
            bad = probe
    while bad - good > 1:
        probe = (good + bad) // 2
        _run_signature(state, probe, with_pairs, best_allocation, later)
        if np.array_equal(later, first):
            good = probe
        else:
            bad = probe
    slots = good - t + 1
    c.pending = 1
    c.played_slot = good
    record_self_run(n, wins, pair - n_pairs, slots)
    return slots, pair - n_pairs


ECW_RMED_SPEC = AlgorithmSpec(
    name="ecw_rmed", label="ECW-RMED", init=init_ecw_rmed, select=select, update=update,
    skip=exact_skip_hook(skip), fast=EXACT_SKIP, color="#98df8a", marker="*",
    defaults={"alpha": ECW_RMED_ALPHA, "beta": ECW_RMED_BETA, "confidence_precheck": "as-run", "skip": SKIP_OFF},
    reference="Komiyama et al. ICML 2016, ECW-RMED (Algorithm 2 with the approximate optimisation)",
)


class ECWRMED(Policy):
    """ECW-RMED as a live policy; parameters ``alpha`` (3), ``beta`` (0.01), ``confidence_precheck``;
    ``skip`` acts only in the simulator."""

    spec = ECW_RMED_SPEC
