"""Self-Sparring (docs/algorithms.md#self-sparring): slot-by-slot equality with the plain transcription, the law of
the pair drawn from a known state against the exact argmax probabilities, the update rule, the option, the
recommended arm, parameters, and learning on a Condorcet matrix."""

import numpy as np
import pytest
from scipy import stats

from algorithms import get_algorithm
from algorithms.recommend import posterior_mean_leader
from algorithms.self_sparring import SELF_SPARRING_SPEC, SelfSparring
from data import load_dataset
from reproduce.harness.runner import run_one
from tests.reference.self_sparring import argmax_law, ref_trajectory

SPEC = SELF_SPARRING_SPEC


def fast_trajectory(P, T, seed, learning_rate=1.0):
    """The njit select/update driven as ``ref_trajectory`` (one generator for samples and outcomes)."""
    state = SPEC.make_state(P.shape[0], None, {"learning_rate": learning_rate})
    rng = np.random.default_rng(seed)
    pairs = []
    for t in range(1, T + 1):
        a1, a2 = SPEC.select(state, t, rng)
        SPEC.update(state, a1, a2, rng.random() < P[a1, a2], t)
        pairs.append((int(a1), int(a2)))
    return pairs, state.successes.tolist(), state.failures.tolist()


@pytest.mark.parametrize("dataset,learning_rate", [("mslr5_condorcet", 1.0), ("nc_cyclic", 1.0), ("sushi", 0.5)])
def test_trajectory_matches_transcription(dataset, learning_rate):
    P = load_dataset(dataset).P
    for seed in (1, 2):
        assert fast_trajectory(P, 2000, seed, learning_rate) == ref_trajectory(P, 2000, seed, learning_rate)


def test_registered_and_policy_drives_the_same_functions():
    assert get_algorithm("self_sparring") is SPEC
    P = load_dataset("arxiv").P
    policy = SelfSparring(6, seed=np.random.default_rng(5))
    rng = policy.rng
    pairs = []
    for _ in range(300):
        a1, a2 = policy.select()
        policy.update(a1, a2, rng.random() < P[a1, a2])
        pairs.append((a1, a2))
    assert pairs == ref_trajectory(P, 300, 5)[0]


# A known state: counts of 6 arms after some play (two arms close at the top, one far behind).
STATE_S = [30.0, 28.0, 12.0, 5.0, 2.0, 1.0]
STATE_F = [10.0, 11.0, 12.0, 9.0, 4.0, 1.0]
DRAWS = 40000
LEVEL = 1e-4  # false-alarm probability of each chi-square test below


def pair_counts(S, F, draws, seed):
    """Counts of the pairs (a1, a2) that ``select`` draws from the fixed state (S, F), K x K."""
    state = SPEC.make_state(len(S))
    state.successes[:] = S
    state.failures[:] = F
    rng = np.random.default_rng(seed)
    counts = np.zeros((len(S), len(S)), np.int64)
    for t in range(draws):
        a1, a2 = SPEC.select(state, t + 1, rng)
        counts[a1, a2] += 1
    return counts


def chi_square_pvalue(counts, law):
    """p-value of Pearson's chi-square of ``counts`` against the cell probabilities ``law``; cells with an
    expectation below 5 are pooled into one, and a pooled cell of expectation 0 that holds counts gives 0."""
    observed, expected = counts.ravel(), law.ravel() * counts.sum()
    small = expected < 5
    pooled_observed, pooled_expected = observed[small].sum(), expected[small].sum()
    if pooled_expected == 0.0:
        if pooled_observed > 0:
            return 0.0
        return stats.chisquare(observed[~small], expected[~small]).pvalue
    return stats.chisquare(np.append(observed[~small], pooled_observed),
                           np.append(expected[~small], pooled_expected)).pvalue


def test_pair_law_is_the_product_of_exact_argmax_probabilities():
    # Two independent Thompson samples: P(a1 = i, a2 = j) = p_i p_j with p the exact argmax law (quadrature,
    # error ~1e-12).  Under the right law the chi-square p-value is uniform, so it falls below LEVEL with
    # probability LEVEL.
    p = argmax_law(STATE_S, STATE_F)
    assert abs(p.sum() - 1.0) < 1e-8
    counts = pair_counts(STATE_S, STATE_F, DRAWS, seed=11)
    assert chi_square_pvalue(counts, np.outer(p, p)) > LEVEL
    # The test can fail: the same counts against the law of another state (arms 0 and 1 swapped, a change of
    # p_0 - p_1 ~ 0.1 in two cells' marginals) are rejected far below LEVEL.
    swapped = argmax_law([STATE_S[1], STATE_S[0], *STATE_S[2:]], [STATE_F[1], STATE_F[0], *STATE_F[2:]])
    assert chi_square_pvalue(counts, np.outer(swapped, swapped)) < LEVEL
    # And a dependent pair (a2 = a1 always, same marginals) is rejected too.
    assert chi_square_pvalue(counts, np.diag(p)) < LEVEL


@pytest.mark.parametrize("a1_won", [True, False])
def test_update_rule(a1_won):
    state = SPEC.make_state(4, None, {"learning_rate": 0.25})
    SPEC.update(state, 1, 3, a1_won, 1)
    winner, loser = (1, 3) if a1_won else (3, 1)
    expected_S, expected_F = np.ones(4), np.ones(4)
    expected_S[winner] += 0.25
    expected_F[loser] += 0.25
    assert state.successes.tolist() == expected_S.tolist() and state.failures.tolist() == expected_F.tolist()
    SPEC.update(state, 2, 2, a1_won, 2)  # a self-duel: one success and one failure for the arm
    assert state.successes[2] == 1.25 and state.failures[2] == 1.25


def test_recommended_arm_is_the_highest_posterior_mean():
    state = SPEC.make_state(4)
    assert posterior_mean_leader(state) == 0  # all means 1/2: lowest index
    state.successes[:] = [3.0, 9.0, 9.0, 1.0]
    state.failures[:] = [1.0, 2.0, 1.0, 1.0]
    assert posterior_mean_leader(state) == 2


@pytest.mark.parametrize("value", [0.0, -1.0, float("nan"), float("inf"), "fast", True])
def test_bad_learning_rate_is_rejected(value):
    with pytest.raises(ValueError, match="learning_rate"):
        SPEC.make_state(3, None, {"learning_rate": value})
    with pytest.raises(ValueError, match="unknown parameter"):
        SelfSparring(3, eta=0.5)


def test_learns_the_condorcet_winner():
    # MSLR K = 5 Condorcet, 10 shuffled runs of T = 20000: R(T) of a uniformly random pair would be
    # (1 - mean zeta) T = 0.5 T = 10000; Self-Sparring concentrates on the winner (20 pilot runs, seed 3:
    # R(T) 92-863, mean 330, sd 180, so the mean of 10 has sd ~57): 2000 is ~29 sd above the pilot mean and
    # far below chance.  The winner is the arm most often compared with itself in every run.
    ds = load_dataset("mslr5_condorcet")
    rows = [run_one(ds, SPEC, {}, 20000, run, 7) for run in range(10)]
    assert np.mean([row["final"] for row in rows]) < 2000
    assert all(row["self_counts"].argmax() == ds.condorcet_winner for row in rows)
