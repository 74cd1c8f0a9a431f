"""REX3 (docs/algorithms.md#rex3): slot-by-slot equality with the plain transcription (weights, not their
logarithms), the exploration rate and the update on hand-made states, the law of the pair against p x p, the options,
the recommendation, and its regret against two bounds that follow from the algorithm."""

import math

import numpy as np
import pytest
from scipy import stats

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.algorithms.rex3 import REX3_SPEC, Rex3, exploration_rate, fill_probabilities, highest_weight
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import run_one
from tests.reference.rex3_reference import distribution, gamma_at, ref_trajectory
from tests.trajectories import kernel_trajectory, policy_trajectory

SPEC = REX3_SPEC
LEVEL = 1e-4  # false-alarm probability of each statistical test below



@pytest.mark.parametrize("dataset,params", [
    ("mslr5_condorcet", {}), ("sushi", {}), ("nc_cyclic", {"estimate": "paper"}), ("arxiv", {"gamma": 0.3}),
    ("mslr16_condorcet", {"gamma": 0.05, "estimate": "paper"})])
def test_trajectory_matches_transcription(dataset, params):
    P = load_dataset(dataset).P
    step = 0.5 if params.get("estimate") == "paper" else 1.0
    for seed in (1, 2):
        pairs, state = kernel_trajectory(SPEC, P, 3000, seed, params)
        ref_pairs, weights = ref_trajectory(P, 3000, seed, params.get("gamma"), step)
        assert pairs == ref_pairs
        np.testing.assert_allclose(state.log_weights - state.log_weights.max(), np.log(weights) - np.log(max(weights)),
                                   rtol=0, atol=1e-9)


def test_registered_and_policy_drives_the_same_functions():
    assert get_algorithm("rex3") is SPEC
    P = load_dataset("arxiv").P
    policy = Rex3(6, seed=np.random.default_rng(5))
    pairs = policy_trajectory(policy, P, 500)
    assert pairs == ref_trajectory(P, 500, 5)[0]


@pytest.mark.parametrize("K,t,expected", [
    (5, 1, math.sqrt(5 * math.log(5) / 1e4)), (5, 10_000, math.sqrt(5 * math.log(5) / 1e4)),
    (5, 40_000, math.sqrt(5 * math.log(5) / 4e4)), (136, 1, math.sqrt(136 * math.log(136) / 1e4)),
    (500, 10**6, 0.5 * min(1.0, 2 * math.sqrt(500 * math.log(500) / 1e6))), (1000, 1, 0.5)])
def test_adaptive_exploration_rate(K, t, expected):
    # min(1/2, sqrt(K ln K / max(t, 1e4))): flat up to t = 1e4, then t^(-1/2); capped at 1/2 (K ln K > 2500 at 1e4).
    assert exploration_rate(0.0, True, K, t) == pytest.approx(expected, rel=1e-15)
    assert exploration_rate(0.2, False, K, t) == 0.2


def test_probabilities_and_update_on_a_hand_made_state():
    # ln w = (0, ln 2, ln 4, 0) at gamma = 0.2: w / sum = (1, 2, 4, 1) / 8, p = 0.8 w / 8 + 0.05.
    state = SPEC.make_state(4, None, {"gamma": 0.2})
    state.log_weights[:] = np.log([1.0, 2.0, 4.0, 1.0])
    fill_probabilities(state.log_weights, 0.2, state.probabilities)
    expected = [0.15, 0.25, 0.45, 0.15]
    np.testing.assert_allclose(state.probabilities, expected, rtol=1e-15)
    assert distribution([1.0, 2.0, 4.0, 1.0], 0.2) == pytest.approx(expected, rel=1e-15)
    # Arm 3 beats arm 2 (a1 = 2 lost): ln w_3 += 0.2 / (4 * 0.15), ln w_2 -= 0.2 / (4 * 0.45); the others unchanged.
    SPEC.update(state, 2, 3, False, 7)
    np.testing.assert_allclose(state.log_weights, np.log([1.0, 2.0, 4.0, 1.0]) + [0.0, 0.0, -0.2 / 1.8, 0.2 / 0.6],
                               rtol=0, atol=1e-15)
    before = state.log_weights.copy()
    SPEC.update(state, 1, 1, True, 8)  # a self-duel changes nothing
    assert np.array_equal(state.log_weights, before)
    # The paper's estimate steps by half as much.
    half = SPEC.make_state(4, None, {"gamma": 0.2, "estimate": "paper"})
    half.log_weights[:] = np.log([1.0, 2.0, 4.0, 1.0])
    SPEC.update(half, 2, 3, False, 7)
    np.testing.assert_allclose(half.log_weights - np.log([1.0, 2.0, 4.0, 1.0]), [0.0, 0.0, -0.1 / 1.8, 0.1 / 0.6],
                               rtol=0, atol=1e-15)


def test_weights_far_apart_neither_overflow_nor_underflow():
    # ln w 2000 apart (w itself would be inf / 0): p is gamma / K for the low arms, 1 - gamma (K - 1) / K for the top.
    state = SPEC.make_state(3, None, {"gamma": 0.3})
    state.log_weights[:] = [2000.0, 0.0, -2000.0]
    fill_probabilities(state.log_weights, 0.3, state.probabilities)
    np.testing.assert_allclose(state.probabilities, [0.8, 0.1, 0.1], rtol=1e-15)


def test_pair_law_is_p_times_p():
    # From a fixed state, 40000 selects: (a1, a2) independent, each of law p (Pearson chi-square at LEVEL, cells
    # pooled below an expectation of 5); the same counts against the law of the uniform distribution are rejected.
    K = 5
    state = SPEC.make_state(K, None, {"gamma": 0.1})
    state.log_weights[:] = np.log([1.0, 6.0, 2.0, 0.5, 3.0])
    p = np.array(distribution([1.0, 6.0, 2.0, 0.5, 3.0], 0.1))
    rng = np.random.default_rng(11)
    counts = np.zeros((K, K), np.int64)
    for t in range(40_000):
        a1, a2 = SPEC.select(state, t + 1, rng)
        counts[a1, a2] += 1
    for law, accepted in ((np.outer(p, p), True), (np.full((K, K), 1 / K**2), False)):
        pvalue = stats.chisquare(counts.ravel(), law.ravel() * counts.sum()).pvalue
        assert (pvalue > LEVEL) == accepted


def test_recommended_arm_is_the_highest_weight():
    state = SPEC.make_state(4)
    assert highest_weight(state) == 0  # all equal: the lowest index
    state.log_weights[:] = [0.1, 2.0, 2.0, -1.0]
    assert highest_weight(state) == 1


@pytest.mark.parametrize("name,value", [("gamma", 0.0), ("gamma", 0.6), ("gamma", -0.1), ("gamma", float("nan")),
                                        ("gamma", "0.1"), ("gamma", True), ("estimate", "half")])
def test_bad_parameters_are_rejected(name, value):
    with pytest.raises(ValueError, match=name):
        SPEC.make_state(3, None, {name: value})


def uniform_exploration_regret(dataset, horizon):
    """sum over t of gamma_t times the mean Copeland loss of an arm, zeta* - mean_i zeta_i: the expected regret of the
    uniform part of p alone, a lower bound of REX3's expected regret whatever its weights (each arm of a pair is
    uniform with probability gamma_t)."""
    zeta = dataset.normalized_copeland
    loss = zeta.max() - zeta.mean()
    return loss * sum(gamma_at(dataset.K, t, None) for t in range(1, horizon + 1))


def test_regret_between_the_uniform_exploration_and_chance():
    # MSLR K = 5 Condorcet, 30 shuffled runs of T = 2e4 (pilot: runs 30-59, seed 3, mean R(T) 734, sd 174, so the
    # mean of 30 has sd ~32).  Its regret is at least that of its uniform exploration (259 here: a smaller gamma_t, or
    # none, could fall below) and far below chance, (zeta* - mean zeta) T = 10000 (an update of the wrong sign does
    # not learn); 4 standard errors of the runs' own mean either way.
    dataset, horizon = load_dataset("mslr5_condorcet"), 20_000
    finals = np.array([run_one(dataset, SPEC, {}, horizon, run, 7)["final"] for run in range(30)])
    margin = 4 * finals.std(ddof=1) / math.sqrt(len(finals))
    floor = uniform_exploration_regret(dataset, horizon)
    chance = (dataset.zeta_star - dataset.normalized_copeland.mean()) * horizon
    assert floor < finals.mean() + margin
    assert finals.mean() + margin < chance / 4
