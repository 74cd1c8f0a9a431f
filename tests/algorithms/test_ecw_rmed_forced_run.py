"""ECW-RMED's pair run of forced exploration is exact (algorithms/ecw_rmed_forced_run.py;
docs/algorithms.md#exact-skipping-of-forced-exploration), and so is CW-RMED's, the same plan with ``add_pair_run`` as
its update (its step 1 is ECW-RMED's code): the tests on real runs take both algorithms (``PAIR_RUNS``).

* the band test of a planned stretch against every point the stretch can reach, and the count-test end against
  a scan over the slots;
* plans made along real runs, each walked slot by slot from the state it was made in with every outcome won, every
  one lost and random outcomes: ``select`` must give the planned pair at every planned slot, and the walks must
  reach slots where the count test of an earlier pair ends a plan (so that an end ignored would be caught);
* ``apply`` against as many ``update`` calls, and the runs that follow from both, slot by slot;
* whole runs with and without pair runs agree in law (two-sample KS and Welch t-tests at ALPHA = 1e-3 with fixed
  seeds), on a matrix whose forced pair leaves its band at a random slot inside the horizon; and they differ bit
  for bit in most runs, so the pair runs were made.
The matrix of the planned-stretch tests has beta = 0.3 (the default is 0.01) so that a pair is trapped within
10^4 slots instead of 10^7, and the plans are of 16 slots or more instead of 2**20.
"""

import numpy as np
import pytest
from numba import njit
from scipy import stats

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.algorithms.ecw_rmed_forced_run import (
    FORCED_RUN_MIN_SLOTS,
    add_pair_run,
    apply,
    last_slot_unforced,
    plan_with,
    stays_in_band,
)
from dts_reproduction.algorithms.ecw_rmed_steps import count_threshold, forced_pair, gap_threshold
from dts_reproduction.core.constants import ECW_RMED_ALPHA, ECW_RMED_BETA
from dts_reproduction.core.simulate import LoopHooks, simulate

ALPHA = 1e-3
SPEC = get_algorithm("ecw_rmed")
TEST_BETA = 0.3
TEST_MIN_SLOTS = 16
# Arm 0 beats both others (0.8); the pair (2, 1), the last in the order of step 1, has p_21 = 0.375: inside the
# band 0.3 / ln ln t until ln ln t = 2.4 (t ~ 6e4), so a run that settles inside it is forced there until then.
P_TRAP = np.array([[0.5, 0.8, 0.8], [0.2, 0.5, 0.625], [0.2, 0.375, 0.5]])
ZETA = (P_TRAP > 0.5).sum(axis=1) / 2.0
GAP = P_TRAP[0] - 0.5
NO_RNG = np.random.default_rng(0)  # ECW-RMED's and CW-RMED's select draw nothing
# Per algorithm: its pair run's update, the fields it sets otherwise than the updates do (which must then be all
# True), and the caches that may differ after the runs that follow (rebuilt or solved from the statistics).
PAIR_RUNS = {
    "ecw_rmed": (apply, ("superiors_stale", "loss_stale"),
                 ("superiors_stale", "sorted_cost", "sorted_arms", "sorted_len", "superior_cost", "superior_arms",
                  "superior_len", "keys", "items", "allocation", "loss_stale", "loss_evidence", "loss_arms",
                  "loss_len")),
    "cw_rmed": (add_pair_run, (), ("allocation",)),
}


@njit
def small_plan(state, t, t_limit):
    """``plan`` with stretches of TEST_MIN_SLOTS slots or more."""
    return plan_with(state.comparisons, state.wins, state.p_hat, state.row_min_count, state.row_min_gap, state.alpha,
                     state.beta, state.counters[0].pending, t, t_limit, TEST_MIN_SLOTS)


def trap_state(name="ecw_rmed"):
    """A fresh state of ``name`` (skip="exact") with the test's beta."""
    return get_algorithm(name).make_state(3, None, {"skip": "exact", "beta": TEST_BETA})


def copy_state(state):
    """An independent copy of a state (arrays copied, scalars kept)."""
    return type(state)(*(field.copy() if isinstance(field, np.ndarray) else field for field in state))


def states_equal(a, b, skip_fields=()):
    """Whether two states hold equal arrays and scalars (fields in ``skip_fields`` aside)."""
    return all(np.array_equal(x, y) for name, x, y in zip(a._fields, a, b, strict=True) if name not in skip_fields)


def test_stays_in_band_is_the_band_at_every_reachable_point():
    """A stretch passes iff every count of wins it can reach, at every slot of it, is inside the band (threshold
    lowered by GAP_MARGIN): checked over all reachable points, near the band's edges where rounding decides."""
    checked = passed = 0
    for beta in (0.01, 0.3):
        for t in (3, 50, 10**4, 10**9):
            for compared in (40, 301, 2000):
                band = gap_threshold(t, beta) * compared
                for won in range(max(0, int(compared / 2 - band) - 3), min(compared, int(compared / 2 + band) + 4)):
                    for slots in (1, 2, 5, 17, 60):
                        expected = all(abs((won + x) / (compared + m) - 0.5) < gap_threshold(t + m, beta) * (1 - 1e-9)
                                       for m in range(slots) for x in range(m + 1))
                        assert stays_in_band(float(won), float(compared), slots, t, beta) == expected, \
                            (won, compared, slots, t, beta)
                        checked += 1
                        passed += expected
    assert passed > 1000 and checked - passed > 1000


def test_last_slot_unforced_is_the_scan():
    """Against a scan of the count test over the slots, for counts just below and above the threshold's values."""
    for fewest in (0.0, 9.0, 10.0, 10.5, 12.0, np.inf):
        for t in (2, 100, 3000):
            for t_limit in (t, t + 1, t + 5000, 10**6):
                if fewest < count_threshold(t, ECW_RMED_ALPHA):
                    continue
                s = t
                while s < t_limit and not fewest < count_threshold(s + 1, ECW_RMED_ALPHA):
                    s += 1
                assert last_slot_unforced(fewest, ECW_RMED_ALPHA, t, t_limit) == s


def test_a_plan_needs_the_comparisons_stated():
    """FORCED_RUN_MIN_SLOTS = 2**17 slots need n_ij > 6.4e6 comparisons before them at the default beta, even with
    p_ij exactly 1/2: the threshold at the stretch's last slot is at most beta, and a beta chosen to make it exactly
    0.01 there shows the bound is where the module says (6.42e6).  So no run shorter than 6.4e6 slots plans one."""
    assert FORCED_RUN_MIN_SLOTS == 2**17 and ECW_RMED_BETA == 0.01
    for t in (1, 3, 10**8):
        assert not stays_in_band(3.2e6, 6.4e6, FORCED_RUN_MIN_SLOTS, t, ECW_RMED_BETA)
    last = 3 + FORCED_RUN_MIN_SLOTS - 1
    widest = ECW_RMED_BETA * ECW_RMED_BETA / gap_threshold(last, ECW_RMED_BETA)
    assert gap_threshold(last, widest) == pytest.approx(ECW_RMED_BETA, rel=1e-12)
    assert not stays_in_band(3.2e6, 6.4e6, FORCED_RUN_MIN_SLOTS, 3, widest)
    assert stays_in_band(3.22e6, 6.44e6, FORCED_RUN_MIN_SLOTS, 3, widest)


def plans_along_runs(seeds, horizon, name="ecw_rmed"):
    """(state before the plan, slot, limit, plan) for every plan ``small_plan`` makes at a slot of a slot-by-slot
    run of ``name`` (one plan tried each 97 slots)."""
    spec = get_algorithm(name)
    found = []
    for seed in seeds:
        state = trap_state(name)
        rng = np.random.default_rng(seed)
        for t in range(1, horizon + 1):
            if t % 97 == 0:
                t_limit = t + int(rng.integers(16, 40000))
                slots, i, j = small_plan(state, t, t_limit)
                if slots:
                    found.append((copy_state(state), t, t_limit, (slots, i, j)))
            a1, a2 = spec.select(state, t, rng)
            spec.update(state, a1, a2, rng.random() < P_TRAP[a1, a2], t)
    return found


@pytest.mark.parametrize("name", PAIR_RUNS)
def test_a_plan_is_forced_whatever_the_outcomes(name):
    """Every planned slot is a forced comparison of the planned pair, with all outcomes won, all lost, or drawn;
    plans leave the state untouched; some plans end at a count-test end (the next slot forces an earlier pair)
    and some at their limit, so both ends are exercised."""
    spec = get_algorithm(name)
    found = plans_along_runs(range(6), 20000, name)
    assert len(found) > 50
    ended_by_count = ended_at_limit = 0
    rng = np.random.default_rng(1)
    for state, t, t_limit, (slots, i, j) in found:
        before = copy_state(state)
        assert small_plan(state, t, t_limit) == (slots, i, j) and states_equal(state, before)
        assert slots >= TEST_MIN_SLOTS and t + slots - 1 <= t_limit and (i, j) == (2, 1)
        for outcomes in (lambda m: True, lambda m: False, lambda m: rng.random() < 0.375):
            walked = copy_state(state)
            for s in range(t, t + slots):
                assert spec.select(walked, s, NO_RNG) == (i, j), (t, slots, s)
                spec.update(walked, i, j, outcomes(s), s)
        next_pair = forced_pair(walked.comparisons, walked.p_hat, walked.row_min_count, walked.row_min_gap, t + slots,
                                walked.alpha, walked.beta)
        ended_by_count += next_pair >= 0 and next_pair < 2
        ended_at_limit += t + slots - 1 == t_limit
    assert ended_by_count > 0 and ended_at_limit > 0


@pytest.mark.parametrize("name", PAIR_RUNS)
def test_apply_is_that_many_updates(name):
    """The pair run's update leaves the state as ``slots`` updates with the same number of wins in any order (ECW-RMED:
    the stale marks aside, which it sets for every arm), and the runs that go on from the two states choose the same
    pairs (the caches of ``PAIR_RUNS`` aside, rebuilt from the statistics)."""
    spec, (update_run, marked, caches) = get_algorithm(name), PAIR_RUNS[name]
    state, t, _t_limit, (slots, i, j) = max(plans_along_runs(range(6), 20000, name), key=lambda found: found[3][0])
    rng = np.random.default_rng(5)
    outcomes = rng.random(slots) < 0.375
    by_apply, by_updates = copy_state(state), copy_state(state)
    update_run(by_apply, i, j, int(outcomes.sum()), slots)
    for m, won in enumerate(outcomes):
        spec.update(by_updates, i, j, bool(won), t + m)
    assert states_equal(by_apply, by_updates, skip_fields=marked)
    assert all(getattr(by_apply, field).all() for field in marked)
    for s in range(t + slots, t + slots + 5000):
        pair = spec.select(by_apply, s, NO_RNG)
        assert spec.select(by_updates, s, NO_RNG) == pair
        won = rng.random() < P_TRAP[pair]
        spec.update(by_apply, *pair, won, s)
        spec.update(by_updates, *pair, won, s)
    assert states_equal(by_apply, by_updates, skip_fields=caches)


def whole_run(seed, horizon, pair_runs, name="ecw_rmed"):
    """One run of ``name`` on P_TRAP with the skip of self-pairs, and the pair runs (TEST_MIN_SLOTS, asked each 32
    slots) or not: (regret at horizon / 4, regret at the horizon, comparisons of the forced pair, of the pair
    (1, 0))."""
    spec, state = get_algorithm(name), trap_state(name)
    checkpoints = np.array([horizon // 4, horizon], np.int64)
    regret, g2w, self_counts = np.zeros(2), np.zeros(2), np.zeros(3, np.int64)
    pair_run = (small_plan, PAIR_RUNS[name][0]) if pair_runs else None
    simulate(spec.select, spec.update, state, np.random.default_rng(seed), P_TRAP, ZETA, GAP, checkpoints, 1, regret,
             g2w, self_counts, LoopHooks(skip=spec.skip(state), pair_run=pair_run, pair_run_retry=32))
    return regret[0], regret[1], state.comparisons[2, 1], state.comparisons[1, 0]


@pytest.mark.slow
@pytest.mark.parametrize("name", PAIR_RUNS)
def test_pair_runs_are_exact_in_law(name):
    """200 runs to 2e5 with and without pair runs (the same seeds): the regrets at two checkpoints and the
    comparisons of the forced pair and of another agree in law; the forced pair leaves its band near t = 6e4 in the
    runs it traps, so the law of that exit is tested; most runs differ bit for bit (pair runs were made)."""
    horizon = 200_000
    plain = np.array([whole_run(seed, horizon, False, name) for seed in range(200)])
    fast = np.array([whole_run(seed, horizon, True, name) for seed in range(200)])
    for column in range(plain.shape[1]):
        assert stats.ks_2samp(plain[:, column], fast[:, column]).pvalue > ALPHA, column
        assert stats.ttest_ind(plain[:, column], fast[:, column], equal_var=False).pvalue > ALPHA, column
    trapped = plain[:, 2] > 10**4
    assert 0.2 < trapped.mean() < 0.9 and np.std(plain[trapped, 2]) > 5000
    assert (plain[:, 1] != fast[:, 1]).mean() > 0.2


def test_simulate_refuses_a_bad_retry_and_a_probe_with_pair_runs():
    """One clear ValueError, before any slot."""
    state = trap_state()
    args = (SPEC.select, SPEC.update, state, np.random.default_rng(0), P_TRAP, ZETA, GAP, np.array([10]), 1,
            np.zeros(1), np.zeros(1), np.zeros(3, np.int64))
    for retry in (0, 1.5, True):
        with pytest.raises(ValueError, match="pair_run_retry must be an integer at least 1"):
            simulate(*args, LoopHooks(pair_run=(small_plan, apply), pair_run_retry=retry))
    with pytest.raises(ValueError, match="a probe sees every slot"):
        simulate(*args, LoopHooks(probe=small_plan, probe_rng=np.random.default_rng(1),
                                  probe_counts=np.zeros(1, np.int64), pair_run=(small_plan, apply)))
