"""ECW-RMED's exact skip of a long forced exploration of one pair (option skip="exact"; the pair run of
``core.simulate``; docs/algorithms.md#exact-skipping-of-forced-exploration).

Step 1 plays the first pair (i > j) with n_ij < alpha sqrt(ln t) or |p_ij - 1/2| < beta / max(1, ln ln t).  A
pair whose true p_ij lies within beta / ln ln 2**53 (0.0026 at beta = 0.01) of 1/2 can stay inside that band for
good once p_ij has settled: every slot then plays it, the lists wait, and the run costs one slot per slot (the
mechanism and the matrices it traps: docs/asymptotic.md#ecw-rmed-trapped-by-forced-exploration).  ``plan`` finds
a stretch of slots that step 1 gives to that pair *whatever their outcomes*: the band is checked at the stretch's
extremes (all of its comparisons won, all lost), the earlier pairs cannot become forced inside it (their p is
fixed, the gap threshold only falls, the count threshold only rises up to a slot found exactly), and nothing else
is read -- step 1 does not look at the lists.  The simulator draws the stretch's wins as one Binomial, and
``apply`` updates the pair as that many comparisons would.
"""

import math

from numba import njit

from dts_reproduction.algorithms.ecw_rmed_steps import count_threshold, forced_pair, gap_threshold, refresh_pair
from dts_reproduction.core.pairs import pair_of_index

# ``plan`` only plans a stretch of at least this many slots (one Binomial draw instead of as many slot
# updates).  A stretch of L sure slots needs n_ij >= (L - 1)(1 - 2 g) / (2 g) comparisons before it, with
# g <= beta: at beta = 0.01, n_ij > 6.4e6 for L = 2**17, so no run shorter than 6.4e6 slots ever plans one, and
# every such run draws exactly what the loop without pair runs draws (tests/algorithms/test_ecw_rmed_forced_run.py).
# Every stored run longer than that re-simulates bit for bit (docs/algorithms.md#exact-skipping-of-forced-exploration).
FORCED_RUN_MIN_SLOTS = 2**17
# The band test of a planned slot must hold with this relative margin below the threshold, far above the
# rounding of w / n - 1/2 and of the threshold (a few units in the last place, ~1e-16), so that the float test
# of ``forced_pair`` passes wherever the exact bound does.
GAP_MARGIN = 1e-9


@njit(cache=True)
def stays_in_band(won, compared, slots, t, beta):
    """True if the pair with ``won`` wins in ``compared`` comparisons before slot t stays strictly inside the
    gap band of step 1 at each of the slots t .. t + slots - 1 whatever the outcomes of its comparisons there.
    At slot t + m its estimate lies between won / (compared + m) (all lost) and (won + m) / (compared + m) (all
    won), whose distances below and above 1/2 grow with m; the threshold falls with the slot.  So the bounds
    at m = slots - 1 against the threshold at t + slots - 1 decide every m (with GAP_MARGIN for rounding)."""
    last = compared + slots - 1
    threshold = gap_threshold(t + slots - 1, beta) * (1.0 - GAP_MARGIN)
    return (won + slots - 1) / last - 0.5 < threshold and 0.5 - won / last < threshold


@njit(cache=True)
def last_slot_unforced(fewest, alpha, t, t_limit):
    """The last slot s in [t, t_limit] such that a pair compared ``fewest`` times is not forced by the count test
    at any of the slots t .. s (it is not at t): the count threshold alpha sqrt(ln s) only rises, so the slots
    that pass form a prefix, found by doubling and bisection on the very expression of ``forced_pair``."""
    if not fewest < count_threshold(t_limit, alpha):
        return t_limit
    good = t
    bad = t_limit
    step = 1
    while good + step < bad and not fewest < count_threshold(good + step, alpha):
        good += step
        step *= 2
    bad = min(bad, good + step)
    while bad - good > 1:
        probe = (good + bad) // 2
        if fewest < count_threshold(probe, alpha):
            bad = probe
        else:
            good = probe
    return good


@njit(cache=True)
def plan_with(comparisons, wins, p_hat, row_min_count, row_min_gap, alpha, beta, pending, t, t_limit, min_slots):
    """``plan`` on the ``ECWRMEDState`` fields of the same names (``pending``: ``counters[0].pending``), with a
    smallest stretch of ``min_slots`` slots (tests use fewer than FORCED_RUN_MIN_SLOTS to reach a stretch in a
    short run)."""
    if pending:
        return 0, -1, -1
    pair = forced_pair(comparisons, p_hat, row_min_count, row_min_gap, t, alpha, beta)
    if pair < 0:
        return 0, -1, -1
    i, j = pair_of_index(pair)
    if not abs(p_hat[i, j] - 0.5) < gap_threshold(t, beta):
        return 0, -1, -1
    fewest = math.inf  # the fewest comparisons of a pair before (i, j) in step 1's order
    for a in range(1, i + 1):
        for b in range(a if a < i else j):
            fewest = min(fewest, comparisons[a, b])
    end = last_slot_unforced(fewest, alpha, t, t_limit)
    won, compared = wins[i, j], comparisons[i, j]
    if end - t + 1 < min_slots or not stays_in_band(won, compared, min_slots, t, beta):
        return 0, -1, -1
    good = min_slots
    bad = end - t + 2
    step = min_slots
    while good + step < bad and stays_in_band(won, compared, good + step, t, beta):
        good += step
        step *= 2
    bad = min(bad, good + step)
    while bad - good > 1:
        probe = (good + bad) // 2
        if stays_in_band(won, compared, probe, t, beta):
            good = probe
        else:
            bad = probe
    return good, i, j


@njit(cache=True)
def plan(state, t, t_limit):
    """The pair run's plan (``core.simulate``) at slot t: (slots, i, j) if step 1 plays the pair (i, j), i > j,
    at every slot t .. t + slots - 1 (<= t_limit) whatever their outcomes, by its gap test, and slots >=
    FORCED_RUN_MIN_SLOTS; (0, -1, -1) otherwise.  Also (0, -1, -1) while a list pair awaits steps 3-7 (then
    ``select`` does them first).  Changes nothing.  ``state``: ECW-RMED's, or CW-RMED's, whose step 1 is this same
    code on fields of the same names (``algorithms.cw_rmed``)."""
    comparisons, wins, p_hat, alpha, beta, counters = (state.comparisons, state.wins, state.p_hat, state.alpha,
                                                       state.beta, state.counters[0])
    row_min_count, row_min_gap = state.row_min_count, state.row_min_gap
    return plan_with(comparisons, wins, p_hat, row_min_count, row_min_gap, alpha, beta, counters.pending, t, t_limit,
                     FORCED_RUN_MIN_SLOTS)


@njit(cache=True)
def add_pair_comparisons(comparisons, w, p_hat, kl_half, copeland_wins, losses, row_min_count, row_min_gap,
                         row_max_evidence, a1, a2, wins, slots):
    """``slots`` comparisons of (a1, a2), ``wins`` of them won by a1, added to the statistics (the state's fields of
    the same names) as ``slots`` calls of ``update`` with those outcomes in any order add them: n, w, p, KLc(p, 1/2)
    and the Copeland counts depend only on the totals, and so do the row summaries."""
    comparisons[a1, a2] += slots
    comparisons[a2, a1] += slots
    w[a1, a2] += wins
    w[a2, a1] += slots - wins
    refresh_pair(comparisons, w, p_hat, kl_half, copeland_wins, losses, row_min_count, row_min_gap, row_max_evidence,
                 a1, a2)


@njit(cache=True)
def add_pair_run(state, a1, a2, wins, slots):
    """CW-RMED's pair run update (``algorithms.cw_rmed``): ``add_pair_comparisons`` on its state, which keeps no caches
    of the statistics."""
    comparisons, w, p_hat, kl_half, copeland_wins, losses = (state.comparisons, state.wins, state.p_hat, state.kl_half,
                                                             state.copeland_wins, state.losses)
    row_min_count, row_min_gap, row_max_evidence = state.row_min_count, state.row_min_gap, state.row_max_evidence
    add_pair_comparisons(comparisons, w, p_hat, kl_half, copeland_wins, losses, row_min_count, row_min_gap,
                         row_max_evidence, a1, a2, wins, slots)


@njit(cache=True)
def apply(state, a1, a2, wins, slots):
    """ECW-RMED's pair run update: ``slots`` comparisons of (a1, a2), ``wins`` of them won by a1, leave the state as
    ``slots`` calls of ``update`` with those outcomes in any order do (``add_pair_comparisons``), except that every
    arm's sorted superiors and losses are marked stale (caches: the comparisons may have changed the pair's winner back
    and forth, so all are rebuilt from the statistics)."""
    comparisons, w, p_hat, kl_half, copeland_wins, losses, superiors_stale, loss_stale = (
        state.comparisons, state.wins, state.p_hat, state.kl_half, state.copeland_wins, state.losses,
        state.superiors_stale, state.loss_stale)
    row_min_count, row_min_gap, row_max_evidence = state.row_min_count, state.row_min_gap, state.row_max_evidence
    add_pair_comparisons(comparisons, w, p_hat, kl_half, copeland_wins, losses, row_min_count, row_min_gap,
                         row_max_evidence, a1, a2, wins, slots)
    superiors_stale[:] = True
    loss_stale[:] = True
