"""C2B's exact fast path, skip="exact" (algorithms/c2b_runs.py; docs/algorithms.md#c2b).

* the pair run on hand-made states: ``plan`` returns the rest of the block of the pair slot t plays (cut at the
  limit, never past the block or the batch), declines at a batch's end and in the exploitation batch, and changes
  nothing; ``apply`` leaves the state exactly as the same slots played one by one (``select`` giving the planned pair
  at each, ``update`` with the same number of wins in any order), and a plan one slot too long fails that walk;
* the skip of the exploitation batch: whole runs with the skip alone equal the slot-by-slot runs (the state exactly,
  the regrets to the rounding of one product against a sum), since C2B draws nothing once it exploits;
* whole runs with pair runs (asked every 8 slots) and the slot-by-slot runs agree in law: final regret, regret at
  T / 10 and batches started, two-sample KS and Welch tests with fixed seeds;
* T = 1e9 at K = 5 with the fast path runs in seconds (its time is printed, not asserted);
* the option is opt-in, checked, refused past 2**53, and the batch probe is refused beside it.
"""

import time

import numpy as np
import pytest
from scipy import stats

from dts_reproduction.algorithms.base import INT64_MAX
from dts_reproduction.algorithms.c2b import C2B_SPEC, c2b_batches_probe
from dts_reproduction.algorithms.c2b_runs import apply, plan
from dts_reproduction.core.simulate import LoopHooks, simulate
from dts_reproduction.data import load_dataset

SPEC = C2B_SPEC
FAST = {"skip": "exact"}
ALPHA = 1e-3  # family-wise false-alarm probability of the law test, split over its tests (Bonferroni)
NO_RNG = np.random.default_rng(0)  # select draws only when it plans a batch; the walks below never let it


def copy_state(state):
    """An independent copy of a C2B state (arrays copied, scalars kept)."""
    return type(state)(*(field.copy() if isinstance(field, np.ndarray) else field for field in state))


def states_equal(a, b):
    """Whether two C2B states hold equal arrays and scalars, field by field."""
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def mid_batch_state(issued):
    """K = 4, T = 10^4, B = 2 (100 comparisons a pair in batch 1): batch 1 (all 6 pairs, 600 slots) planned at slot
    1 and ``issued`` of its slots played slot by slot with outcomes drawn at 0.6.  Returns (state, next slot)."""
    state = SPEC.make_state(4, 10_000, {"batches": 2, **FAST})
    rng = np.random.default_rng(3)
    for t in range(1, issued + 1):
        a1, a2 = SPEC.select(state, t, rng)
        SPEC.update(state, a1, a2, rng.random() < 0.6, t)
    return state, issued + 1


@pytest.mark.parametrize("issued,limit_after,expected", [
    (1, 10**6, (99, 0, 1)),  # inside the first block: its rest
    (150, 10**6, (50, 0, 2)),  # inside the second block
    (200, 10**6, (100, 0, 3)),  # at a block boundary: the whole next block
    (599, 10**6, (1, 2, 3)),  # the batch's last slot
    (250, 9, (10, 0, 3)),  # cut at the limit: t .. t + 9
    (250, 0, (1, 0, 3)),  # a limit of slot t itself
])
def test_plan_is_the_rest_of_the_block(issued, limit_after, expected):
    state, t = mid_batch_state(issued)
    before = copy_state(state)
    assert state.counters["per_pair"][0] == 100 and state.counters["batch_length"][0] == 600
    assert plan(state, t, t + limit_after) == expected
    assert states_equal(state, before)


def test_plan_declines_at_a_batch_end_and_when_exploiting():
    state, t = mid_batch_state(600)
    assert plan(state, t, t + 1000) == (0, -1, -1)  # slot t plans batch 2: select's, with its draws
    P = np.array([[0.5, 1.0, 1.0], [0.0, 0.5, 1.0], [0.0, 0.0, 0.5]])
    state = exploiting_state(P)
    assert state.counters["per_pair"][0] == INT64_MAX
    assert plan(state, 500, 600) == (0, -1, -1)


@pytest.mark.parametrize("issued", [1, 150, 200, 377, 599])
def test_apply_is_the_same_slots_one_by_one(issued):
    """From each state, the planned run applied with w wins, and the same slots played by select and update with
    outcomes in three orders having w wins: equal states, and the next 700 slots (into batch 2) choose the same
    pairs from both."""
    state, t = mid_batch_state(issued)
    slots, a1, a2 = plan(state, t, t + 10**6)
    rng = np.random.default_rng(issued)
    outcomes = rng.random(slots) < 0.6
    by_apply = copy_state(state)
    apply(by_apply, a1, a2, int(outcomes.sum()), slots)
    for order in (outcomes, np.sort(outcomes), np.sort(outcomes)[::-1]):
        by_slots = copy_state(state)
        for m, won in enumerate(order):
            assert SPEC.select(by_slots, t + m, NO_RNG) == (a1, a2)
            SPEC.update(by_slots, a1, a2, bool(won), t + m)
        assert states_equal(by_apply, by_slots)
    for s in range(t + slots, t + slots + 700):
        pair = SPEC.select(by_apply, s, np.random.default_rng(s))
        assert SPEC.select(by_slots, s, np.random.default_rng(s)) == pair
        won = rng.random() < 0.6
        SPEC.update(by_apply, *pair, won, s)
        SPEC.update(by_slots, *pair, won, s)
    assert states_equal(by_apply, by_slots)


def plays_only(state, t, slots, pair):
    """Whether ``select`` gives ``pair`` at each of the slots t .. t + slots - 1 of a copy of ``state`` (no update:
    inside a batch select reads no outcome)."""
    walked = copy_state(state)
    return all(SPEC.select(walked, t + m, NO_RNG) == pair for m in range(slots))


@pytest.mark.parametrize("issued", [1, 150, 200, 599])
def test_a_plan_one_slot_too_long_would_be_caught(issued):
    """The walk that checks a plan fails for one made a slot longer: that slot belongs to the next block (or batch)."""
    state, t = mid_batch_state(issued)
    slots, a1, a2 = plan(state, t, t + 10**6)
    assert plays_only(state, t, slots, (a1, a2)) and not plays_only(state, t, slots + 1, (a1, a2))


def exploiting_state(P):
    """A C2B state (skip="exact", T = 10^4) that exploits: slots played one by one on the certain matrix P until
    the exploitation batch has started."""
    state = SPEC.make_state(P.shape[0], 10_000, FAST)
    rng = np.random.default_rng(1)
    t = 1
    while state.counters["per_pair"][0] != INT64_MAX:
        a1, a2 = SPEC.select(state, t, rng)
        SPEC.update(state, a1, a2, rng.random() < P[a1, a2], t)
        t += 1
    return state


def run(P, horizon, seed, params, checkpoints, delay):
    """One simulated run of C2B made for ``horizon`` on P (unshuffled), with the spec's skip for ``params`` and no
    pair run: (regret at the checkpoints, final state, self-comparisons)."""
    K = P.shape[0]
    zeta = (P > 0.5).sum(axis=1) / (K - 1)
    regret, g2w, self_counts = np.zeros(len(checkpoints)), np.zeros(len(checkpoints)), np.zeros(K, np.int64)
    state = SPEC.make_state(K, horizon, params)
    simulate(SPEC.select, SPEC.update, state, np.random.default_rng(seed), P, zeta, np.zeros(K), checkpoints, delay,
             regret, g2w, self_counts, LoopHooks(skip=SPEC.skip(state)))
    return regret, state, self_counts


@pytest.mark.parametrize("dataset,delay", [("mslr5_condorcet", 1), ("mslr5_condorcet", 7), ("nc_cyclic", 1)])
def test_the_skip_alone_is_the_slot_by_slot_run(dataset, delay):
    """The skip draws nothing and C2B draws nothing once it exploits, so with the same seed the run is the same run:
    equal state (wins, batches, counters) and self-comparisons, regrets equal to rounding; most runs exploit."""
    P = load_dataset(dataset).P
    checkpoints = np.array([1000, 7000, 20_000], np.int64)
    exploited = 0
    for seed in range(20):
        plain = run(P, 20_000, seed, {}, checkpoints, delay)
        fast = run(P, 20_000, seed, FAST, checkpoints, delay)
        assert np.allclose(fast[0], plain[0], rtol=1e-12, atol=0)
        assert np.array_equal(fast[2], plain[2])
        assert all(np.array_equal(x, y) for name, x, y in zip(plain[1]._fields, plain[1], fast[1], strict=True)
                   if name != "skip_runs")
        exploited += fast[1].counters["per_pair"][0] == INT64_MAX
    assert exploited >= 5


def whole_run(P, horizon, seed, pair_runs):
    """One run of C2B made for ``horizon`` on P (unshuffled), with skip="exact" (pair runs asked every 8 slots) or
    slot by slot: (regret at T / 10, regret at T, batches started)."""
    K = P.shape[0]
    zeta = (P > 0.5).sum(axis=1) / (K - 1)
    checkpoints = np.array([horizon // 10, horizon], np.int64)
    regret, g2w, self_counts = np.zeros(2), np.zeros(2), np.zeros(K, np.int64)
    state = SPEC.make_state(K, horizon, FAST if pair_runs else {})
    simulate(SPEC.select, SPEC.update, state, np.random.default_rng(seed), P, zeta, np.zeros(K), checkpoints, 1,
             regret, g2w, self_counts, LoopHooks(skip=SPEC.skip(state), pair_run=SPEC.pair_run(state),
                                                 pair_run_retry=8))
    return regret[0], regret[1], state.counters["batch_index"][0]


@pytest.mark.parametrize("dataset", ["mslr5_condorcet", "nc_cyclic"])
def test_pair_runs_are_exact_in_law(dataset):
    """300 runs of T = 2e4 each way, the same seeds: the regret at T / 10 and at T and the batches started agree in
    law (KS and Welch per column, each at ALPHA / 6: two samples of one law fail with probability <= ALPHA).  Power:
    with 300 runs a side, a mean shift of 0.45 standard deviations is detected by Welch with probability ~0.8
    (z = 0.45 / sqrt(2 / 300) = 5.5 against a critical value of 4.6); most runs differ bit for bit (pair runs made)."""
    P = load_dataset(dataset).P
    plain = np.array([whole_run(P, 20_000, seed, False) for seed in range(300)])
    fast = np.array([whole_run(P, 20_000, seed, True) for seed in range(300)])
    level = ALPHA / 6
    for column in range(3):
        a, b = fast[:, column], plain[:, column]
        assert stats.ks_2samp(a, b).pvalue > level, column
        if a.std() + b.std() > 0:
            assert stats.ttest_ind(a, b, equal_var=False).pvalue > level, column
    assert (fast[:, 1] != plain[:, 1]).mean() > 0.5


@pytest.mark.parametrize("dataset", ["mslr5_condorcet", "mslr5_noncondorcet"])
def test_a_billion_slots_at_K_5_take_seconds(dataset, capsys):
    """T = 1e9 at K = 5 with skip="exact" and the loop's own retry (2**16): the run ends with the slots it was given
    (every comparison counted) and at most B = 21 batches.  On mslr5_condorcet C2B exploits from batch 10 (the skip
    does the rest); without a Condorcet winner it plays 13 batches, whose blocks from batch 12 on (1.4e5 slots a
    pair) are pair runs.  Its time is printed, not asserted."""
    P = load_dataset(dataset).P
    horizon = 10**9
    state = SPEC.make_state(5, horizon, FAST)
    zeta = (P > 0.5).sum(axis=1) / 4
    regret, g2w, self_counts = np.zeros(1), np.zeros(1), np.zeros(5, np.int64)
    started = time.perf_counter()
    simulate(SPEC.select, SPEC.update, state, np.random.default_rng(1), P, zeta, np.zeros(5),
             np.array([horizon], np.int64), 1, regret, g2w, self_counts,
             LoopHooks(skip=SPEC.skip(state), pair_run=SPEC.pair_run(state)))
    seconds = time.perf_counter() - started
    with capsys.disabled():
        print(f"\nC2B skip=exact, T = 1e9, {dataset}: {seconds:.2f} s, regret {regret[0]:.0f}, "
              f"{state.counters['batch_index'][0]} batches")
    assert state.wins.sum() + self_counts.sum() == horizon
    assert 1 <= state.counters["batch_index"][0] <= 21


def test_opt_in_checked_and_the_probe_refused():
    assert SPEC.defaults["skip"] == "off" and SPEC.fast == FAST
    assert SPEC.skip(SPEC.make_state(4, 100)) is None and SPEC.pair_run(SPEC.make_state(4, 100)) is None
    fast = SPEC.make_state(4, 100, FAST)
    assert SPEC.skip(fast) is not None and SPEC.pair_run(fast) == (plan, apply)
    with pytest.raises(ValueError, match="skip must be one of 'off', 'exact'"):
        SPEC.make_state(4, 100, {"skip": "on"})
    with pytest.raises(ValueError, match="2\\*\\*53"):
        SPEC.make_state(4, 2**54, FAST)
    SPEC.make_state(4, 2**54)
    P = load_dataset("mslr5_condorcet").P
    with pytest.raises(ValueError, match="a probe sees every slot"):
        simulate(SPEC.select, SPEC.update, fast, np.random.default_rng(0), P, np.zeros(5), np.zeros(5),
                 np.array([10]), 1, np.zeros(1), np.zeros(1), np.zeros(5, np.int64),
                 LoopHooks(skip=SPEC.skip(fast), pair_run=SPEC.pair_run(fast), probe=c2b_batches_probe,
                           probe_rng=np.random.default_rng(1), probe_counts=np.zeros(1, np.int64)))
