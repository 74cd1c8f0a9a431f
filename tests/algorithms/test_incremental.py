"""The kept-up-to-date bookkeeping of SAVAGE and CCB makes exactly the choices of the full recomputation it
replaced (tests/reference/scans_reference.py), slot by slot, at K = 136 (mslr136_informational) and K = 500
(copeland500), and for SAVAGE through most of the exploration phase at K = 16.

Both run from the same random stream on the same matrix, each on its own state updated by the current
``update``, with feedback at once and with a delay.  A few thousand slots from a fresh state never leave
the first round-robin at these K, so the states are first warmed up with comparisons of every pair
(varying counts per pair, outcomes from the true matrix), which puts them where the pruning is busy.
"""

import numpy as np
import pytest
from numba import njit

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.algorithms.ccb import CHECKED_AT, COUNTED_LEN, UNRESOLVED
from dts_reproduction.core.bounds import upper_copeland_from_switches
from dts_reproduction.data import load_dataset
from tests.reference.scans_reference import ccb_select_scan, lower_copeland_from_switches, savage_select_scan

SLOTS = 3000


@njit
def warm_up(update, state, P, min_count, max_count, rng):
    """Compare every pair {i, j} a uniform number of times in [min_count, max_count], outcomes drawn
    from P."""
    K = P.shape[0]
    for i in range(1, K):
        for j in range(i):
            for _ in range(rng.integers(min_count, max_count + 1)):
                update(state, i, j, rng.random() < P[i, j], 1)


def warm_pair(spec, dataset, params, counts, horizon=None):
    """Two identical states of ``spec`` for ``dataset``, warmed up by ``warm_up`` with the same seed;
    counts: (min_count, max_count)."""
    P = load_dataset(dataset).P
    states = [spec.make_state(P.shape[0], horizon, params) for _ in range(2)]
    for state in states:
        warm_up(spec.update, state, P, *counts, np.random.default_rng(5))
    return P, states


def lockstep(select, reference, update, states, P, delay, seed, probe, slots=SLOTS, start=1):
    """Run ``select`` on states[0] and ``reference`` on states[1] for slots start .. start + slots - 1 from
    the same stream,
    feeding each its outcomes every ``delay`` slots; assert equal pairs at every slot.  Returns
    ``probe(states[0])`` after every select."""
    rngs = [np.random.default_rng(seed) for _ in range(2)]
    pending, probed = [], []
    for t in range(start, start + slots):
        pair = tuple(int(a) for a in select(states[0], t, rngs[0]))
        assert pair == tuple(int(a) for a in reference(states[1], t, rngs[1])), f"slot {t}"
        probed.append(probe(states[0]))
        a1, a2 = pair
        uniforms = [rng.random() for rng in rngs]  # the outcome draw of the simulator, from the same stream
        assert uniforms[0] == uniforms[1]
        pending.append((a1, a2, uniforms[0] < P[a1, a2], t))
        if t % delay == 0:
            for item in pending:
                for state in states:
                    update(state, *item)
            pending = []
    return probed


def savage_reference(K):
    """The full-scan SAVAGE select on a state of K arms, with its own mask of X over the list order
    (starting with every pair; the state's tree is not read)."""
    hi, lo = (a.astype(np.int64) for a in np.tril_indices(K, -1))
    in_x = np.ones(hi.shape[0], np.bool_)

    def select(state, t, rng):
        return savage_select_scan(state.comparisons, state.upper, state.lower, hi, lo, in_x, state.up_count,
                                  state.lo_count, state.variant, state.counters)
    return select


# Warm-up comparisons per pair (min, max) by dataset: at K = 136 enough to decide many pairs (horizon 30);
# at K = 500 enough that both variants prune some pairs (the Copeland one ~45 of 124750) before the lockstep.
SAVAGE_WARM = {"mslr136_informational": (0, 300), "copeland500": (0, 300)}
# The K = 500 cases of the lockstep tests take most of this file's time (the full-scan references are plain
# Python over all pairs): they run with the slow checks (-m slow), the K = 136 cases by default.
LARGE_K = pytest.mark.slow


def by_size(datasets):
    """The datasets as pytest parameters, copeland500 (K = 500) marked LARGE_K."""
    return [pytest.param(name, marks=LARGE_K) if name == "copeland500" else name for name in sorted(datasets)]


@pytest.mark.parametrize("dataset", by_size(SAVAGE_WARM))
@pytest.mark.parametrize("variant", ["condorcet", "copeland"])
@pytest.mark.parametrize("delay", [1, 7])
def test_savage_matches_full_scan(dataset, variant, delay):
    """Both variants on both matrices (the paper's harness picks Copeland for them; the Condorcet test
    is exercised as well).  At K = 136 the first prune drops a large part of X."""
    spec = get_algorithm("savage")
    P, states = warm_pair(spec, dataset, {"variant": variant}, SAVAGE_WARM[dataset], horizon=30)
    sizes = lockstep(spec.select, savage_reference(P.shape[0]), spec.update, states, P, delay, 3,
                     lambda state: int(state.counters["x_size"][0]))
    K = P.shape[0]
    assert sizes[0] < K * (K - 1) / 2, sizes[0]  # pairs were pruned, so the incremental bookkeeping is exercised
    if K == 136:
        assert sizes[0] < 136 * 135 / 2 * 0.9, sizes[0]


@pytest.mark.parametrize("dataset", ["mslr16_condorcet", "mslr16_noncondorcet"])
@pytest.mark.parametrize("variant", ["condorcet", "copeland"])
def test_savage_matches_full_scan_until_x_empties(dataset, variant):
    """From a fresh state (horizon 30) through most of the exploration phase: X shrinks pair by pair and
    arm by arm from 120 pairs to at most half (ten or more prunes that change X)."""
    spec = get_algorithm("savage")
    P, states = warm_pair(spec, dataset, {"variant": variant}, (0, 0), horizon=30)
    sizes = lockstep(spec.select, savage_reference(P.shape[0]), spec.update, states, P, 1, 4,
                     lambda state: int(state.counters["x_size"][0]), slots=60000)
    assert sizes[-1] <= 60 and len(set(sizes)) >= 10, sorted(set(sizes))


def ccb_reference(state, t, rng):
    """The full-scan CCB select on ``state`` (its kept counts are overwritten, as scratch)."""
    return ccb_select_scan(state.comparisons, state.wins, state.alpha, state.max_losses, state.in_winners,
                           state.challengers, state.challenger_lens, state.upper_switch, state.lower_switch,
                           state.upper_copeland, state.lower_copeland, state.in_candidates, state.upper_column, t,
                           rng)


def ccb_kept_counts(state):
    """Assert that the counts CCB keeps between slots equal a recount at the ln t of its last select: both
    Copeland counts of every row, and the unresolved count of every list counted at its present length
    (the others are counted again before use).  Returns sum |B^i|."""
    K = state.in_candidates.shape[0]
    log_t = state.row_next[K + CHECKED_AT]
    zeros = np.zeros(K, np.int64)
    np.testing.assert_array_equal(state.upper_copeland, upper_copeland_from_switches(state.upper_switch, log_t, zeros))
    np.testing.assert_array_equal(state.lower_copeland, lower_copeland_from_switches(state.lower_switch, log_t, zeros))
    rows, lens = np.arange(K)[:, None], state.challenger_lens
    listed = (np.arange(K) < lens[:, None]) & (log_t >= state.lower_switch[rows, state.challengers]) \
        & (log_t >= state.upper_switch[rows, state.challengers])
    current = state.unresolved[COUNTED_LEN] == lens
    np.testing.assert_array_equal(state.unresolved[UNRESOLVED][current], listed.sum(axis=1)[current])
    return int(lens.sum())


# Warm-up comparisons per pair (min, max): enough that many bounds have crossed 1/2 and, from the first
# slot on, CCB holds a hypothesis (B of one or two arms, lists of Lbar + 1 = 14 / 68 challengers), so that
# steps 2-5 read the lists while ln t passes the rows' switch times.
CCB_WARM = {"mslr136_informational": (0, 300), "copeland500": (0, 40)}


@pytest.mark.parametrize("dataset", by_size(CCB_WARM))
@pytest.mark.parametrize("delay", [1, 7])
def test_ccb_matches_full_scan(dataset, delay):
    """Same pair at every slot, and the kept counts equal a recount after every select; the rows are
    recounted because of switch times as well as updates."""
    spec = get_algorithm("ccb")
    P, states = warm_pair(spec, dataset, {}, CCB_WARM[dataset])
    lens = lockstep(spec.select, ccb_reference, spec.update, states, P, delay, 3, ccb_kept_counts)
    assert min(lens) > 0


def test_ccb_recounts_after_set_statistics_and_going_back():
    """``set_statistics`` (sync) and a slot number below the last one make the next select recount
    everything and run step 2 on every list, as the full scan does."""
    spec = get_algorithm("ccb")
    P, states = warm_pair(spec, "mslr136_informational", {}, CCB_WARM["mslr136_informational"])
    lockstep(spec.select, ccb_reference, spec.update, states, P, 1, 3, ccb_kept_counts, slots=500)
    n, w = states[0].comparisons.copy(), states[0].wins.copy()
    w = n - w  # every estimate reversed: the kept counts and the hypotheses no longer hold
    for state in states:
        spec.set_statistics(state, n, w)
    lockstep(spec.select, ccb_reference, spec.update, states, P, 1, 4, ccb_kept_counts, slots=500, start=501)
    rngs = [np.random.default_rng(6) for _ in range(2)]
    for t in (400, 30, 2, 1000):  # not in order
        assert tuple(spec.select(states[0], t, rngs[0])) == tuple(ccb_reference(states[1], t, rngs[1])), t
