"""ECW-RMED's exact skip of runs of self-pairs (option skip="exact" of ``algorithms.ecw_rmed``;
docs/algorithms.md#exact-skipping-of-self-comparison-runs)."""

import math

import numpy as np
from numba import njit

from dts_reproduction.algorithms.ecw_rmed_steps import (
    after_play,
    copeland_losses,
    forced_pair,
    precheck_fails,
    underplayed_pairs,
    winner_passes,
)
from dts_reproduction.core.skipping import record_self_run, run_end_probe, run_end_settle


@njit(cache=True)
def _run_signature(comparisons, p_hat, kl_half, copeland_wins, losses, row_min_count, row_min_gap, row_max_evidence,
                   precheck, alpha, beta, keys, items, loss_evidence, loss_arms, loss_len, loss_stale, sorted_cost,
                   sorted_arms, sorted_len, q_best, owner, allocated_arms, allocated_len, s, with_pairs, out):
    """The answers, at slot s of a run of self-pairs, of every test through which ln s enters slot s:
    out[0] = no forced pair (step 1 at s); out[1] = the as-run pre-check fails, and out[2 + i] = winner
    i passes ``winner_passes`` (i an empirical Copeland winner), both with the lambda = max(1, ln(s - 1))
    of steps 3-7 for slot s - 1; if ``with_pairs``, out[2 + K + id] = q_best_ij > n_ij / lambda for the
    pairs (i > j, pair id) findMinRegret allocates (``underplayed_pairs``).  Each answer is monotone in s: the
    thresholds alpha sqrt(ln s) and beta / max(1, ln ln s) move one way, every cost n KLc / lambda only falls, and
    the sorted order of the costs does not depend on lambda (up to two costs closer than rounding, which
    could tie at one lambda and not at another), so ``out`` equals its value at the run's first slot up
    to the first slot at which one test flips, and differs after it.  out: bool (2 + K + K(K-1)/2,); q_best: the
    best allocation, owner: the candidate it is kept for (-1: none); the other arrays are the ``ECWRMEDState``
    fields of the same names."""
    K = comparisons.shape[0]
    lam = max(1.0, math.log(s - 1))
    out[:] = False
    out[0] = forced_pair(comparisons, p_hat, row_min_count, row_min_gap, s, alpha, beta) < 0
    out[1] = precheck == 0 and precheck_fails(row_max_evidence, lam)
    loss1, loss2 = copeland_losses(copeland_wins)
    sorted_len[:] = -1
    for i1 in range(K):
        out[2 + i1] = K - 1 - copeland_wins[i1] == loss1 and winner_passes(
            comparisons, p_hat, kl_half, lam, losses, i1, loss1, loss2, keys, items, loss_evidence, loss_arms,
            loss_len, loss_stale, sorted_cost, sorted_arms, sorted_len)
    if with_pairs:
        for pair in underplayed_pairs(q_best, comparisons, lam, owner, allocated_arms, allocated_len):
            out[2 + K + pair] = True


@njit(cache=True)
def self_pair_played(counters, current_list, n_pairs, t):
    """The id (>= n_pairs) of the self-pair that the lists hold alone and that slot t - 1 played, its steps 3-7 still to
    do: where a run of self-pairs can go on at slot t; -1 otherwise.  Fields of ECW-RMED's or CW-RMED's state."""
    pair = current_list[0]
    if (counters.current_len != 1 or pair < n_pairs or counters.pending != 1 or counters.played_pair != pair
            or counters.played_slot != t - 1):
        return -1
    return pair


@njit(cache=True)
def self_pair_again(counters, current_list, pair, comparisons, p_hat, row_min_count, row_min_gap, t, alpha, beta):
    """After steps 3-7 for slot t - 1: whether slot t plays the self-pair ``pair`` again -- the lists hold it alone and
    step 1 forces no pair at t."""
    return (counters.current_len == 1 and current_list[0] == pair
            and forced_pair(comparisons, p_hat, row_min_count, row_min_gap, t, alpha, beta) < 0)


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
    comparisons, wins, p_hat, kl_half, copeland_wins, losses = (state.comparisons, state.wins, state.p_hat,
                                                                state.kl_half, state.copeland_wins, state.losses)
    row_min_count, row_min_gap, row_max_evidence = state.row_min_count, state.row_min_gap, state.row_max_evidence
    alpha, beta, precheck, counters = state.alpha, state.beta, state.precheck, state.counters[0]
    current_list, in_remaining, next_list, in_next = (state.current_list, state.in_remaining, state.next_list,
                                                      state.in_next)
    allocation, best_allocation, keys, items = state.allocation, state.best_allocation, state.keys, state.items
    sorted_cost, sorted_arms, sorted_len = state.sorted_cost, state.sorted_arms, state.sorted_len
    loss_evidence, loss_arms, loss_len, loss_stale = (state.loss_evidence, state.loss_arms, state.loss_len,
                                                      state.loss_stale)
    superior_cost, superior_arms, superior_len = state.superior_cost, state.superior_arms, state.superior_len
    superiors_stale, allocated_arms, allocated_len = state.superiors_stale, state.allocated_arms, state.allocated_len
    K = comparisons.shape[0]
    n_pairs = K * (K - 1) // 2
    pair = self_pair_played(counters, current_list, n_pairs, t)
    if pair < 0:
        return 0, -1
    counters.pending = 0
    after_play(comparisons, p_hat, kl_half, copeland_wins, losses, row_max_evidence, precheck, keys, items,
               loss_evidence, loss_arms, loss_len, loss_stale, allocation, best_allocation, sorted_cost, sorted_arms,
               sorted_len, superior_cost, superior_arms, superior_len, superiors_stale, allocated_arms, allocated_len,
               current_list, in_remaining, next_list, in_next, counters)
    if not self_pair_again(counters, current_list, pair, comparisons, p_hat, row_min_count, row_min_gap, t, alpha,
                           beta):
        return 0, -1

    def signature_at(s, with_pairs, out):  # ``_run_signature`` on this state (an inner function numba inlines)
        _run_signature(comparisons, p_hat, kl_half, copeland_wins, losses, row_min_count, row_min_gap,
                       row_max_evidence, precheck, alpha, beta, keys, items, loss_evidence, loss_arms, loss_len,
                       loss_stale, sorted_cost, sorted_arms, sorted_len, best_allocation, counters.allocation_owner,
                       allocated_arms, allocated_len, s, with_pairs, out)

    first = np.empty(2 + K + n_pairs, np.bool_)
    signature_at(t, False, first)
    with_pairs = first[1] or not first[2:2 + K].any()  # no confident winner: steps 6-7 made q_best
    if with_pairs:
        signature_at(t, True, first)
    later = np.empty_like(first)
    search, probe = run_end_probe((t, t_limit + 1, 1), t, t_limit)
    while probe:
        signature_at(probe, with_pairs, later)
        search, probe = run_end_settle(search, probe, np.array_equal(later, first), t, t_limit)
    good = search[0]
    slots = good - t + 1
    counters.pending = 1
    counters.played_slot = good
    record_self_run(comparisons, wins, pair - n_pairs, slots)
    return slots, pair - n_pairs
