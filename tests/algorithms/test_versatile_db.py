"""Versatile-DB (docs/algorithms.md#versatile-db): slot-by-slot equality with the plain transcription, the
distribution and the update on hand-made states, a delayed update, the law of the pair against w x w, the options,
the recommendation, the live policy and the extremes of K and t."""

import numpy as np
import pytest
from scipy import stats

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.algorithms.versatile_db import VERSATILE_DB_SPEC, VersatileDB, least_loss
from dts_reproduction.core.tsallis import learning_rate, tsallis_weights
from dts_reproduction.data import load_dataset
from tests.reference.versatile_db_reference import ref_trajectory
from tests.trajectories import kernel_trajectory, policy_trajectory

SPEC = VERSATILE_DB_SPEC
LEVEL = 1e-4  # false-alarm probability of the statistical test below
RV = {"estimate": "reduced-variance"}
BOTH = {"feedback": "both"}


def distribution(losses, scale, t):
    """The Tsallis-INF distribution of ``losses`` at eta_t = scale / sqrt(t)."""
    weights = np.empty(len(losses))
    tsallis_weights(np.asarray(losses, np.float64), learning_rate(scale, t), weights)
    return weights


@pytest.mark.parametrize("dataset,params", [
    ("mslr5_condorcet", {}), ("sushi", RV), ("nc_cyclic", BOTH), ("arxiv", {**RV, **BOTH}), ("mslr16_condorcet", {})])
def test_trajectory_matches_transcription(dataset, params):
    P = load_dataset(dataset).P
    for seed in (1, 2):
        pairs, state = kernel_trajectory(SPEC, P, 2000, seed, params)
        ref_pairs, losses = ref_trajectory(P, 2000, seed, **params)
        assert pairs == ref_pairs
        # Bit for bit with the importance-weighted estimate; the reduced-variance one adds its baseline and the
        # played arm's term separately (the transcription as one vector), so the sums round apart by ~1e-12.
        np.testing.assert_allclose(state.losses, losses, rtol=1e-9 if params.get("estimate") else 0, atol=0)


def test_registered_and_policy_drives_the_same_functions():
    assert get_algorithm("versatile_db") is SPEC
    P = load_dataset("arxiv").P
    policy = VersatileDB(6, seed=np.random.default_rng(5), feedback="both")
    assert policy_trajectory(policy, P, 500) == ref_trajectory(P, 500, 5, feedback="both")[0]
    assert policy.best_arm() == least_loss(policy.state)


def test_select_draws_from_the_learners_distribution_at_eta_t():
    state = SPEC.make_state(4, None, RV)
    state.losses[:] = [3.0, 0.0, 7.5, 1.0]
    SPEC.select(state, 9, np.random.default_rng(0))
    np.testing.assert_array_equal(state.probabilities, distribution([3.0, 0.0, 7.5, 1.0], 4.0, 9))
    assert state.counters["drawn_slot"][0] == 9


def test_update_importance_weighted_on_a_hand_made_state():
    # feedback "first": x_t = 2 lost, so L_2 += 1 / w_2; a win adds 0.  "both": half of 1 / w_2 to the loser x_t
    # and half of 0 to the winner y_t.
    for params, factor in (({}, 1.0), (BOTH, 0.5)):
        state = SPEC.make_state(4, None, params)
        state.losses[:] = [1.0, 2.0, 0.0, 4.0]
        w = distribution(state.losses, 2.0, 7)
        SPEC.select(state, 7, np.random.default_rng(1))
        SPEC.update(state, 2, 0, False, 7)
        np.testing.assert_allclose(state.losses, [1.0, 2.0, factor / w[2], 4.0], rtol=1e-15)
        SPEC.select(state, 8, np.random.default_rng(1))
        before = state.losses.copy()
        SPEC.update(state, 2, 0, True, 8)  # x_t won: a zero loss for it; with "both", y_t's loss 1 halved
        w = distribution(before, 2.0, 8)
        np.testing.assert_allclose(state.losses - before, [0.5 / w[0] if factor == 0.5 else 0.0, 0, 0, 0], atol=1e-15)


def test_a_self_duel_feeds_its_coin_flip():
    # x_t = y_t = 1: the learner is told x_t's loss as for any duel (y_t is the opponent drawn from w).
    state = SPEC.make_state(3, None, {})
    w = distribution(np.zeros(3), 2.0, 1)
    SPEC.select(state, 1, np.random.default_rng(2))
    SPEC.update(state, 1, 1, False, 1)
    np.testing.assert_allclose(state.losses, [0.0, 1.0 / w[1], 0.0], rtol=1e-15)


@pytest.mark.parametrize("params", [{}, {**RV, **BOTH}])
def test_delayed_update_uses_the_distribution_of_its_slot(params):
    # An update after a later select (its scratch overwritten) gives what it gives with feedback at once.
    now, later = (SPEC.make_state(5, None, params) for _ in range(2))
    for state in (now, later):
        state.losses[:] = [0.0, 3.0, 1.0, 9.0, 2.0]
    SPEC.select(now, 4, np.random.default_rng(3))
    SPEC.update(now, 1, 3, False, 4)
    SPEC.select(later, 4, np.random.default_rng(3))
    SPEC.select(later, 5, np.random.default_rng(4))
    SPEC.update(later, 1, 3, False, 4)
    np.testing.assert_array_equal(now.losses, later.losses)


def test_pair_is_two_independent_draws_from_w():
    # 40,000 selects from one hand-made state: the 16 pair counts against n w_i w_j (chi-square, 15 df).
    state = SPEC.make_state(4, None, {})
    state.losses[:] = [0.0, 2.0, 5.0, 1.0]
    rng = np.random.default_rng(11)
    counts = np.zeros((4, 4))
    for _ in range(40_000):
        a1, a2 = SPEC.select(state, 3, rng)
        counts[a1, a2] += 1
    w = distribution(state.losses, 2.0, 3)
    expected = 40_000 * np.outer(w, w)
    assert stats.chisquare(counts.ravel(), expected.ravel()).pvalue > LEVEL


@pytest.mark.parametrize("params,message", [
    ({"estimate": "paper"}, "estimate must be one of 'importance-weighted', 'reduced-variance', got 'paper'"),
    ({"feedback": 2}, "feedback must be one of 'first', 'both', got 2"),
    ({"eta": 1.0}, "unknown parameter 'eta' for algorithm 'versatile_db'")])
def test_bad_parameters_are_refused_in_one_line(params, message):
    with pytest.raises(ValueError) as error:
        SPEC.make_state(5, None, params)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_recommends_the_arm_of_least_loss_estimate():
    state = SPEC.make_state(5, None, {})
    state.losses[:] = [4.0, 1.0, 3.0, 1.0, 9.0]
    assert least_loss(state) == 1  # the lowest index on ties
    assert SPEC.best_arm is least_loss
    assert np.argmax(distribution(state.losses, 2.0, 50)) == 1


@pytest.mark.parametrize("K,t", [(2, 1), (500, 1), (500, 10**9), (2, 10**9)])
def test_extremes_of_K_and_t(K, t):
    P = np.full((K, K), 0.5)
    P[0, 1:], P[1:, 0] = 0.8, 0.2
    state = SPEC.make_state(K, 10**9, {**RV, **BOTH})
    rng = np.random.default_rng(0)
    for slot in range(t, t + 200):
        a1, a2 = SPEC.select(state, slot, rng)
        SPEC.update(state, a1, a2, rng.random() < P[a1, a2], slot)
    assert np.all(np.isfinite(state.losses)) and abs(state.probabilities.sum() - 1.0) < 1e-12
