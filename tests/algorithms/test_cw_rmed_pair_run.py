"""CW-RMED's pair run of forced exploration (algorithms/cw_rmed_skip.py: ``plan``, ``apply``) is exact.

Its self-pair skip is tested with the others' in test_skip_exact.py.  The plan is ECW-RMED's on the same statistics
(tested in test_ecw_rmed_forced_run.py), so here: plans found along CW-RMED's own runs on the trap matrix of that file
are forced slot by slot whatever the outcomes; ``apply`` equals as many ``update`` calls and the runs that follow choose
the same pairs; whole runs with and without pair runs agree in law (KS and Welch at ALPHA = 1e-3, fixed seeds) and
differ bit for bit in many runs (the pair runs were made).
"""

import numpy as np
import pytest
from scipy import stats

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.algorithms.cw_rmed_skip import apply
from dts_reproduction.core.simulate import LoopHooks, simulate
from tests.algorithms.test_ecw_rmed_forced_run import GAP, P_TRAP, TEST_BETA, ZETA, copy_state, small_plan, states_equal

ALPHA = 1e-3
SPEC = get_algorithm("cw_rmed")
NO_RNG = np.random.default_rng(0)  # CW-RMED's select draws nothing


def trap_state():
    """A fresh CW-RMED state (skip="exact") with the trap tests' beta."""
    return SPEC.make_state(3, None, {"skip": "exact", "beta": TEST_BETA})


def plans_along_runs(seeds, horizon):
    """(state before the plan, slot, plan) for every plan ``small_plan`` makes at a slot of a slot-by-slot CW-RMED
    run on P_TRAP (one plan tried each 97 slots, a limit up to 40000 slots away)."""
    found = []
    for seed in seeds:
        state = trap_state()
        rng = np.random.default_rng(seed)
        for t in range(1, horizon + 1):
            if t % 97 == 0:
                slots, i, j = small_plan(state, t, t + int(rng.integers(16, 40000)))
                if slots:
                    found.append((copy_state(state), t, (slots, i, j)))
            a1, a2 = SPEC.select(state, t, rng)
            SPEC.update(state, a1, a2, rng.random() < P_TRAP[a1, a2], t)
    return found


@pytest.fixture(scope="module")
def plans():
    return plans_along_runs(range(12), 20000)


def test_a_plan_is_forced_whatever_the_outcomes(plans):
    """Every planned slot of CW-RMED plays the planned pair, with every outcome won, every one lost or drawn."""
    assert len(plans) > 10
    for state, t, (slots, i, j) in plans[::7]:
        for mode in ("won", "lost", "drawn"):
            walked, rng = copy_state(state), np.random.default_rng(t)
            for s in range(t, t + slots):
                pair = SPEC.select(walked, s, NO_RNG)
                assert pair == (i, j), f"slot {s} of a plan from {t}: {pair} != {(i, j)}"
                won = {"won": True, "lost": False, "drawn": rng.random() < P_TRAP[i, j]}[mode]
                SPEC.update(walked, i, j, won, s)


def test_apply_is_that_many_updates(plans):
    """``apply`` leaves CW-RMED's state as ``slots`` updates with the same wins do, and the next 5000 slots choose the
    same pairs from both."""
    state, t, (slots, i, j) = max(plans, key=lambda found: found[2][0])
    rng = np.random.default_rng(5)
    outcomes = rng.random(slots) < P_TRAP[i, j]
    by_apply, by_updates = copy_state(state), copy_state(state)
    apply(by_apply, i, j, int(outcomes.sum()), slots)
    for m, won in enumerate(outcomes):
        SPEC.update(by_updates, i, j, bool(won), t + m)
    assert states_equal(by_apply, by_updates)
    for s in range(t + slots, t + slots + 5000):
        pair = SPEC.select(by_apply, s, NO_RNG)
        assert SPEC.select(by_updates, s, NO_RNG) == pair
        won = rng.random() < P_TRAP[pair]
        SPEC.update(by_apply, *pair, won, s)
        SPEC.update(by_updates, *pair, won, s)
    assert states_equal(by_apply, by_updates, skip_fields=("allocation",))


def whole_run(seed, horizon, pair_runs):
    """One CW-RMED run on P_TRAP with the self-pair skip, and the pair runs (stretches of 16 slots or more, asked
    each 32 slots) or not: (regret at horizon / 4, at the horizon, comparisons of the forced pair, of (1, 0))."""
    state = trap_state()
    checkpoints = np.array([horizon // 4, horizon], np.int64)
    regret, g2w, self_counts = np.zeros(2), np.zeros(2), np.zeros(3, np.int64)
    simulate(SPEC.select, SPEC.update, state, np.random.default_rng(seed), P_TRAP, ZETA, GAP, checkpoints, 1, regret,
             g2w, self_counts, LoopHooks(skip=SPEC.skip(state), pair_run=(small_plan, apply) if pair_runs else None,
                                         pair_run_retry=32))
    return regret[0], regret[1], state.comparisons[2, 1], state.comparisons[1, 0]


@pytest.mark.slow
def test_pair_runs_are_exact_in_law():
    """200 CW-RMED runs to 2e5 with and without pair runs (the same seeds) agree in law at both checkpoints and in the
    comparisons of the forced pair and of another; many runs differ bit for bit (pair runs were made)."""
    horizon = 200_000
    plain = np.array([whole_run(seed, horizon, False) for seed in range(200)])
    fast = np.array([whole_run(seed, horizon, True) for seed in range(200)])
    for column in range(plain.shape[1]):
        assert stats.ks_2samp(plain[:, column], fast[:, column]).pvalue > ALPHA, column
        assert stats.ttest_ind(plain[:, column], fast[:, column], equal_var=False).pvalue > ALPHA, column
    assert (plain[:, 1] != fast[:, 1]).mean() > 0.2
