"""The fast paths near the largest exact horizon (docs/harness.md#the-largest-exact-horizon): the law of D-TS's
skipped stretches at t = 1e15 and at 2**53 against slot-by-slot selection from the same state, the exact ln t
boundaries of the deterministic skips there (the ends of their runs of self-comparisons where a slot-by-slot walk
ends them, from states reached at 1e15 and 5e15), and the refusal of larger horizons."""

import math

import numpy as np
import pytest

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.algorithms.base import MAX_EXACT_HORIZON
from dts_reproduction.core.constants import PSEUDO_N, PSEUDO_W
from dts_reproduction.core.simulate import simulate
from dts_reproduction.core.skipping import first_slot_reaching, geometric_run, last_slot_before
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import Line, run_one, validate_line
from tests.algorithms.test_dts import stats_from_wins
from tests.algorithms.test_dts_fast import ALPHA, counts_pvalue, homogeneity_pvalue, window_counts
from tests.algorithms.test_skip_exact import _walk, copy_state

# Statistics in which arm 0 (400 comparisons per pair, 90 % won) is the only candidate that every other arm's
# bound leaves alone at ln t = 34.5 (t = 1e15) while arms 1-3 (40 comparisons against arm 0, 80 % lost) still
# keep D-TS exploring now and then: the stretch of self-comparisons of arm 0 ends on either kind of event.
SCALE = 4


def settled_at_large_t():
    """(n, w) of the state described at SCALE (K = 8)."""
    K = 8
    rng = np.random.default_rng(8)
    wins = np.triu(rng.binomial(30 * SCALE, rng.uniform(0.3, 0.7, (K, K))), 1)
    wins = wins + np.triu(30 * SCALE - wins, 1).T
    wins[0, :], wins[:, 0] = 90 * SCALE, 10 * SCALE
    wins[0, 1:4], wins[1:4, 0] = 32, 8
    wins[0, 0] = 0
    return stats_from_wins(wins)


@pytest.mark.parametrize("name", ["dts", "dts_plus"])
@pytest.mark.parametrize("t0", [10**15, MAX_EXACT_HORIZON - 40])
def test_skip_matches_slot_by_slot_near_the_largest_horizon(name, t0):
    """2000 windows of 40 slots from t0 each way (skip + select, select alone) in the frozen state: chi-square on
    the number of self-comparisons of the settled arm and on the first other pair."""
    n, w = settled_at_large_t()
    spec = get_algorithm(name)
    fast_counts, fast_first, _c, skipped = window_counts(spec, n, w, t0, True, 40, 41, 2000)
    assert skipped > 0, "the state chosen must be one where skip applies"
    assert len(set(fast_first)) > 1, "the stretches must end on more than one kind of event"
    ref_counts, ref_first, _, _ = window_counts(spec, n, w, t0, False, 40, 42, 2000)
    assert counts_pvalue(fast_counts, ref_counts) > ALPHA
    assert homogeneity_pvalue(fast_first, ref_first) > ALPHA


def test_first_slot_reaching_is_exact_up_to_the_largest_horizon():
    """Against the floating-point test itself at slots near 1e12, 1e15 and 2**53, where ln t stays the same double
    over several consecutive slots: the boundary found is the first slot that passes, whatever the rounding."""
    for centre in (10**12, 10**15, MAX_EXACT_HORIZON - 64):
        for step in range(0, 64, 3):
            for offset in (0.0, 1.7):
                value = math.log(centre + step) + offset
                s = first_slot_reaching(value, offset)
                assert math.log(s) + offset >= value and math.log(s - 1) + offset < value
                assert last_slot_before(value, offset, MAX_EXACT_HORIZON) == s - 1


@pytest.mark.parametrize("name", ["dts", "dts_plus", "rucb", "rcs", "ccb", "rmed1", "rmed2", "ecw_rmed"])
def test_fast_paths_refuse_horizons_beyond_the_largest_exact_one(name):
    """A line with the fast paths is refused above 2**53 with one line naming the horizon, and accepted at it;
    the default (slot by slot) accepts it (it is bounded by its cost, not by exactness)."""
    spec = get_algorithm(name)
    fast = tuple(sorted(spec.fast.items()))
    validate_line(Line("cyclic", name, MAX_EXACT_HORIZON, 1, fast))
    with pytest.raises(ValueError, match=rf"T = {MAX_EXACT_HORIZON + 1} is beyond .* 2\*\*53") as error:
        validate_line(Line("cyclic", name, MAX_EXACT_HORIZON + 1, 1, fast))
    assert "\n" not in str(error.value)
    validate_line(Line("cyclic", name, MAX_EXACT_HORIZON + 1, 1))


def test_a_run_to_the_largest_horizon_adds_up():
    """One D-TS+ run with its fast paths to 2**53 on Cyclic: every slot is accounted for (the comparisons of pairs
    of different arms plus the self-comparisons make T), and R(T) is the stored regret sum of those slots."""
    dataset = load_dataset("cyclic")
    spec = get_algorithm("dts_plus")
    out = run_one(dataset, spec, {"sampling": "fast"}, MAX_EXACT_HORIZON, 0, 7, comparisons=True)
    pairs = out["comparisons"].sum() / 2.0
    assert pairs + out["self_counts"].sum() == pytest.approx(MAX_EXACT_HORIZON, abs=1.0)
    assert out["self_counts"].sum() > 0.999 * MAX_EXACT_HORIZON
    zeta = dataset.normalized_copeland
    regret_self = float(((zeta.max() - zeta) * out["self_counts"]).sum())
    regret_pairs = float((0.5 * (2 * zeta.max() - zeta[:, None] - zeta[None, :]) * out["comparisons"]).sum() / 2.0)
    # the pseudo-counts (1e-6 comparisons of every pair, docs/algorithms.md#shared-building-blocks) add ~1e-5
    assert out["final"] == pytest.approx(regret_self + regret_pairs, abs=1e-4)



def state_at(name, dataset, t_reached, seed):
    """A state of ``name`` with its exact skip after a fast-path run of ``t_reached`` slots on ``dataset``
    (unshuffled), and the run's generator."""
    spec = get_algorithm(name)
    P = load_dataset(dataset).P
    state = spec.make_state(P.shape[0], params={"skip": "exact"})
    rng = np.random.default_rng(seed)
    zeros = np.zeros(P.shape[0])
    simulate(spec.select, spec.update, state, rng, P, zeros, zeros, np.array([t_reached]), 1, np.zeros(1),
             np.zeros(1), np.zeros(P.shape[0], np.int64), spec.skip(state))
    return spec, state, rng


@pytest.mark.parametrize("name,dataset", [("rucb", "sushi"), ("rucb", "mslr16_condorcet"), ("rmed1", "sushi"),
                                          ("rmed2", "sushi"), ("ecw_rmed", "sushi")])
@pytest.mark.parametrize("t_reached", [10**15, 5 * 10**15])
def test_deterministic_skips_end_where_the_slot_by_slot_walk_does_at_large_t(name, dataset, t_reached):
    """From a state reached at t = 1e15 or 5e15, the slot at which the skip's run of self-comparisons ends (its
    next exploration, found by the skip itself) is approached slot by slot from 300 slots before: both walks,
    with and without the skip, give the same self-comparisons and the same next pair, across 5 such ends.  (CCB
    picks among its candidate winners at random in every slot, so its walks do not replay bit for bit: its skip is
    checked in law, ``tests/algorithms/test_skip_exact.py``.)"""
    spec, state, rng = state_at(name, dataset, t_reached, 11)
    t, checked = t_reached + 1, 0
    while checked < 5 and t < MAX_EXACT_HORIZON - 1000:
        probe = copy_state(state)
        slots, _arm = spec.skip(state)(probe, t, np.random.default_rng(0), MAX_EXACT_HORIZON)
        if slots == 0:  # an exploration slot now: take it and look again
            a1, a2 = spec.select(state, t, rng)
            spec.update(state, a1, a2, rng.random() < load_dataset(dataset).P[a1, a2], t)
            t += 1
            continue
        end = t + slots  # the first slot the skip leaves to select
        start = max(t, end - 300)
        walked = []
        for use_skip in (False, True):
            frozen = copy_state(state)
            if start > t:
                spec.skip(frozen)(frozen, t, np.random.default_rng(0), start - 1)
            walked.append(_walk(spec.select, spec.update, spec.skip(frozen), use_skip, frozen,
                                np.random.default_rng(1), start, end + 300)[:3])
        assert walked[0] == walked[1], f"{name} on {dataset}: run end near {end}: {walked}"
        assert walked[0][1] != -1, "the walk must reach the exploration the skip stopped before"
        checked += 1
        spec.skip(state)(state, t, np.random.default_rng(0), end - 1)
        t = end
    assert checked == 5


def crossing_state():
    """(n, w) for K = 3 in which arm 0 beats both others, arm 2 is out of every candidate set, and arm 1's bound
    against arm 0 (6500 comparisons, 2911 won) reaches 1/2 at ln t = 34.67 (t = 1.1e15): arm 1 enters RUCB's
    candidate set there (and CCB's: its upper Copeland count ties arm 0's), and from then on it is the challenger of
    arm 0."""
    n = np.array([[0.0, 6500, 9000], [6500, 0, 9000], [9000, 9000, 0]]) + np.eye(3) * PSEUDO_N
    w = np.array([[0.0, 3589, 6000], [2911, 0, 6000], [3000, 3000, 0]]) + np.eye(3) * PSEUDO_W
    return n, w


def _reference(name):
    """The plain reference of ``name`` in 40-digit arithmetic, for K = 3."""
    from tests.reference.ccb import RefCCB
    from tests.reference.rucb import RefRUCB

    return {"rucb": RefRUCB, "ccb": RefCCB}[name](3)


@pytest.mark.parametrize("name", ["rucb", "ccb"])
def test_challenger_matches_the_exact_reference_where_a_bound_crosses_half_at_large_t(name):
    """300 slots around the slot at which arm 1's bound against arm 0 reaches 1/2 at t = 1.1e15, in the frozen
    statistics, each slot drawn from its own generator: the njit select and the reference in 40-digit arithmetic
    (``tests.reference.rucb``, ``tests.reference.ccb``) make the same pairs, but for the slots by which the rounding
    of the switch time moves the crossing (7 here: ln t has one unit in the last place per 8 slots).  The rounded
    sum mean + width stays at or below 1/2 for ~120 slots after the switch time; choosing the challenger by it (the
    code before ``core.bounds.challenger_from_column`` in RUCB, before the switch-time scan of ``algorithms.ccb`` in
    CCB) gave (0, 0) with arm 1 a candidate in about half of them (docs/asymptotic.md#rucbs-last-decade)."""
    n, w = crossing_state()
    spec = get_algorithm(name)
    state = spec.make_state(3)
    spec.set_statistics(state, n, w)
    ref = _reference(name)
    ref.n[:], ref.w[:] = n, w
    crossing = first_slot_reaching(float(state.upper_switch[1, 0]), 0.0)
    differ, self_with_two = [], 0
    for t in range(crossing - 150, crossing + 150):
        a1, a2 = (int(a) for a in spec.select(state, t, np.random.default_rng(t)))
        if (a1, a2) != tuple(ref.select(t, np.random.default_rng(t))):
            differ.append(t - crossing)
        self_with_two += a1 == a2 and t >= crossing
    assert self_with_two == 0, "a self-comparison while arm 1 is a candidate"
    assert len(differ) <= 16 and all(-16 <= d < 0 for d in differ), differ


def test_geometric_run_caps_a_wait_beyond_int64_instead_of_wrapping():
    """An event of probability 1e-20 a slot waits ~1e20 slots, past int64: the run is every available slot (the
    chance of an event within 1e12 slots is 1e-8), never the negative count the wrapped conversion gave."""
    rng = np.random.default_rng(5)
    available = 10**12
    runs = [geometric_run(rng, -1e-20, available) for _ in range(2000)]
    assert set(runs) == {available}


# RCS's statistics in MSLR K = 5 Condorcet run 10 (its arm order) at t = 8,907,843,100,000,000: arm 1, the winner,
# won ~10^4 comparisons against arm 3, so "no Condorcet winner sampled" has probability ~3e-19 a slot, and arm 3's
# bound reaches 1/2 22,611,516 slots later.  Raw win counts w[i, j] (i beat j).
RCS_LATE_WINS = [[0, 55, 1, 6, 2], [191, 0, 763, 8399, 189], [12, 460, 0, 53, 6], [21, 7314, 67, 0, 35],
                 [4, 54, 5, 17, 0]]
RCS_LATE_T = 8_907_843_100_000_000


def test_rcs_skip_runs_to_the_next_challenge_when_a_sampled_loss_is_rarer_than_int64_slots():
    """From the state above, every skip (200 generators) takes the whole stretch up to arm 3's challenge and
    counts it as champion slots of arm 1; the wrapped wait used to give a negative run in ~7 % of the draws,
    leaving arm 1 the least-often champion and the run slot by slot for good (docs/asymptotic.md#rcs-near-253)."""
    spec = get_algorithm("rcs")
    n, w = stats_from_wins(RCS_LATE_WINS)
    for seed in range(200):
        state = spec.make_state(5, params={"sampling": "knockout", "skip": "exact"})
        state.comparisons[:], state.wins[:] = n, w
        spec.sync(state)
        state.champion_counts[:] = [21, RCS_LATE_T - 300, 21, 219, 20]
        state.skip_state[0]["last_self"] = 1
        slots, arm = spec.skip(state)(state, RCS_LATE_T, np.random.default_rng(seed), MAX_EXACT_HORIZON)
        assert (slots, arm) == (22_611_516, 1)
        assert state.champion_counts[1] == RCS_LATE_T - 300 + slots
