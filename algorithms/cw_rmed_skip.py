"""CW-RMED's exact skip (option skip="exact" of ``algorithms.cw_rmed``; docs/algorithms.md#cw-rmed, "Exact skip"):
a run of self-pairs (w, w) that nothing but ln t can end, in one step -- ECW-RMED's skip (``algorithms.ecw_rmed_skip``)
with CW-RMED's confidence test and exact program in place of ECW-RMED's.

Its pair run (a long stretch of slots that forced exploration surely gives to one pair, its wins drawn as one
Binomial) is ECW-RMED's, whose step 1 is the same code: ``algorithms.ecw_rmed_forced_run``'s ``plan`` and
``add_pair_run``, on CW-RMED's state.
"""

import math

import numpy as np
from numba import njit

from dts_reproduction.algorithms.cw_rmed_program import after_play, cheapest_alternative
from dts_reproduction.algorithms.ecw_rmed_skip import self_pair_again, self_pair_played
from dts_reproduction.algorithms.ecw_rmed_steps import forced_pair, underplayed
from dts_reproduction.core.pairs import index_of_pair
from dts_reproduction.core.skipping import record_self_run, run_end_probe, run_end_settle


@njit(cache=True)
def run_signature(comparisons, p_hat, kl_half, losses, allocation, alpha, beta, row_min_count, row_min_gap, s,
                  with_pairs, out):
    """The answers, at slot s of a run of self-pairs, of every test through which ln s enters slot s: out[0] = no
    forced pair at s (step 1); out[1 + i] = arm i has fewest losses and is confident (step 4), with the lambda =
    max(1, ln(s - 1)) of steps 3-7 for slot s - 1; if ``with_pairs``, out[1 + K + id] = the pair (i > j, id) passes
    ``underplayed`` for the program's allocation (step 7).  Each answer is monotone in s: the thresholds alpha
    sqrt(ln s) and beta / max(1, ln ln s) move one way, an arm's cheapest alternative with evidences n KLc / lambda
    only falls, n_ij / lambda only falls, and the program itself (p, its losses and divergences) does not depend on
    lambda.  So ``out`` equals its value at the run's first slot up to the first slot at which one test flips, and
    differs after it.  out: bool (1 + K + K(K-1)/2,); the other arrays are the ``CWRMEDState`` fields of the same
    names."""
    K = comparisons.shape[0]
    lam = max(1.0, math.log(s - 1))
    out[:] = False
    out[0] = forced_pair(comparisons, p_hat, row_min_count, row_min_gap, s, alpha, beta) < 0
    evidence = comparisons * kl_half / lam
    l_min = np.min(losses)
    for i1 in range(K):
        out[1 + i1] = losses[i1] == l_min and cheapest_alternative(evidence, p_hat, losses, i1) >= 1.0
    if with_pairs:
        for i in range(1, K):
            for j in range(i):
                out[1 + K + index_of_pair(i, j)] = underplayed(allocation, comparisons, lam, i, j)


@njit(cache=True)
def skip(state, t, rng, t_limit):
    """The run of self-pairs (w, w) from slot t in one step (option skip="exact"; ``core.simulate``).

    CW-RMED draws nothing, and a self-comparison changes only the diagonal of (n, w), which no step reads.  With LC =
    ((w, w)) just played at slot t - 1, this does what ``select`` at slot t would do first -- steps 3-7 for slot
    t - 1 (``cw_rmed_program.after_play``) -- and if they put (w, w) alone back (a confident winner w, or none and the
    program's candidate w with no underplayed pair) and no pair is forced at t, slot t plays (w, w) again.  Nothing
    changes between such slots but ln t, which enters only the tests of ``run_signature``; each is monotone in t, so
    the run lasts while their answers stay those of slot t, up to t_limit (a checkpoint, a delayed-feedback delivery,
    the horizon): its last slot is found by doubling and bisection.  Returns (slots, w) for the slots t .. t + slots
    - 1, after their updates (the diagonal, ``record_self_run``; the self-pair marked as played at the last of them);
    (0, -1) otherwise, with steps 3-7 for slot t - 1 done if the last slot was such a self-pair.  ``rng`` is unused.
    """
    comparisons, wins, p_hat, kl_half, losses = (state.comparisons, state.wins, state.p_hat, state.kl_half,
                                                 state.losses)
    row_min_count, row_min_gap, allocation = state.row_min_count, state.row_min_gap, state.allocation
    alpha, beta, counters, true_winner = state.alpha, state.beta, state.counters[0], state.true_winner
    current_list, in_remaining, next_list, in_next = (state.current_list, state.in_remaining, state.next_list,
                                                      state.in_next)
    K = comparisons.shape[0]
    n_pairs = K * (K - 1) // 2
    pair = self_pair_played(counters, current_list, n_pairs, t)
    if pair < 0:
        return 0, -1
    counters.pending = 0
    after_play(comparisons, p_hat, kl_half, losses, allocation, current_list, in_remaining, next_list, in_next,
               counters, true_winner)
    if not self_pair_again(counters, current_list, pair, comparisons, p_hat, row_min_count, row_min_gap, t, alpha,
                           beta):
        return 0, -1
    first = np.empty(1 + K + n_pairs, np.bool_)
    run_signature(comparisons, p_hat, kl_half, losses, allocation, alpha, beta, row_min_count, row_min_gap, t, False,
                  first)
    with_pairs = not first[1:1 + K].any()  # no confident winner: step 6 solved the program into ``allocation``
    if with_pairs:
        run_signature(comparisons, p_hat, kl_half, losses, allocation, alpha, beta, row_min_count, row_min_gap, t,
                      True, first)
    later = np.empty_like(first)
    search, probe = run_end_probe((t, t_limit + 1, 1), t, t_limit)
    while probe:
        run_signature(comparisons, p_hat, kl_half, losses, allocation, alpha, beta, row_min_count, row_min_gap, probe,
                      with_pairs, later)
        search, probe = run_end_settle(search, probe, np.array_equal(later, first), t, t_limit)
    good = search[0]
    slots = good - t + 1
    counters.pending = 1
    counters.played_slot = good
    record_self_run(comparisons, wins, pair - n_pairs, slots)
    return slots, pair - n_pairs
