"""Self-Sparring (docs/algorithms.md#self-sparring): slot-by-slot equality with the plain transcription, the law of
the pair drawn from a known state against the exact argmax probabilities, the update rule, the option, the
recommended arm, parameters, and learning on a Condorcet matrix."""

import hashlib

import numpy as np
import pytest
from scipy import special, stats

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.algorithms.self_sparring import SELF_SPARRING_SPEC, SelfSparring, posterior_mean_leader
from dts_reproduction.algorithms.self_sparring_fast import LEADER_TAIL, draw_above, start_epoch
from dts_reproduction.core.thompson import REJECTION_MIN_PROB
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import run_one
from tests.reference.self_sparring_reference import argmax_law, ref_trajectory
from tests.same_law import CASE_FIELDS, assert_fast_path_exact, cases
from tests.trajectories import kernel_trajectory, policy_trajectory

SPEC = SELF_SPARRING_SPEC



@pytest.mark.parametrize("dataset,learning_rate", [("mslr5_condorcet", 1.0), ("nc_cyclic", 1.0), ("sushi", 0.5)])
def test_trajectory_matches_transcription(dataset, learning_rate):
    P = load_dataset(dataset).P
    for seed in (1, 2):
        pairs, state = kernel_trajectory(SPEC, P, 2000, seed, {"learning_rate": learning_rate})
        expected = ref_trajectory(P, 2000, seed, learning_rate)
        assert (pairs, state.successes.tolist(), state.failures.tolist()) == expected


def test_registered_and_policy_drives_the_same_functions():
    assert get_algorithm("self_sparring") is SPEC
    P = load_dataset("arxiv").P
    policy = SelfSparring(6, seed=np.random.default_rng(5))
    pairs = policy_trajectory(policy, P, 300)
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


# --------------------------------------------------------------------------------------------------
# sampling="fast" (algorithms/self_sparring_fast.py): the same law, drawing only the arms that can win
# --------------------------------------------------------------------------------------------------

FAST = {"sampling": "fast"}
FAMILY_LEVEL = 1e-3  # whole-run comparison: false-alarm probability of all its tests together


def fast_state(S, F, threshold=None):
    """A sampling="fast" state with counts (S, F) and a fresh epoch (``start_epoch``); with ``threshold``, the
    epoch's q is replaced by it and its tails and order are recomputed here from scipy (an independent
    reference for the kernel's bookkeeping)."""
    state = SPEC.make_state(len(S), None, FAST)
    state.successes[:] = S
    state.failures[:] = F
    start_epoch(state.successes, state.failures, state.epoch, state.tail_above, state.order, state.rank, 0)
    if threshold is not None:
        leader = state.epoch["leader"][0]
        state.epoch["threshold"][0] = threshold
        state.tail_above[:] = special.betaincc(state.successes, state.failures, threshold)
        state.tail_above[leader] = 0.0
        state.order[:] = np.argsort(-state.tail_above, kind="stable")
        state.rank[state.order] = np.arange(len(S))
    return state


def fast_pair_counts(state, draws, seed):
    """Counts of the pairs (a1, a2) that the fast ``select`` draws from the fixed ``state``, K x K."""
    K = state.successes.shape[0]
    rng = np.random.default_rng(seed)
    counts = np.zeros((K, K), np.int64)
    for t in range(draws):
        a1, a2 = SPEC.select(state, t + 1, rng)
        counts[a1, a2] += 1
    return counts


# A state of large counts: the leader (arm 0) far ahead, a close rival (c ~ 0.2, drawn by rejection), a wide arm
# that still wins ~1 % of samples with c < REJECTION_MIN_PROB (drawn by the inverse CDF), and arms that almost
# never pass the threshold (skipped).
WIDE_S = [600.0, 120.0, 2.0, 30.0, 40.0, 5.0]
WIDE_F = [400.0, 90.0, 8.0, 40.0, 60.0, 30.0]


@pytest.mark.parametrize("S,F,threshold", [
    (STATE_S, STATE_F, None),  # the epoch's own threshold, every candidate drawn by rejection
    (WIDE_S, WIDE_F, None),  # rejection, inverse CDF and skipping
    (WIDE_S, WIDE_F, 0.6),  # q at the leader's mean: half of the samples fall back to drawing every arm
    (STATE_S, STATE_F, 0.9),  # q far above the leader: almost every sample falls back
], ids=["epoch", "wide", "half-fallback", "fallback"])
def test_fast_pair_law_is_the_product_of_exact_argmax_probabilities(S, F, threshold):
    # As for "direct" above: the pair of two fast samples against the exact law p p^T (quadrature), chi-square at
    # LEVEL.  The epoch's leader and threshold only change what is skipped, never the law.
    state = fast_state(S, F, threshold)
    p = argmax_law(S, F)
    counts = fast_pair_counts(state, DRAWS, seed=13)
    assert chi_square_pvalue(counts, np.outer(p, p)) > LEVEL
    # The test can fail: the law with the wide arm's or arm 1's counts swapped with a neighbour's is rejected.
    swapped = argmax_law([S[0], S[2], S[1], *S[3:]], [F[0], F[2], F[1], *F[3:]])
    assert chi_square_pvalue(counts, np.outer(swapped, swapped)) < LEVEL


@pytest.mark.parametrize("a,b,q", [(2.0, 8.0, 0.55), (30.0, 40.0, 0.55), (2000.0, 2100.0, 0.51), (3.0, 5.0, 0.3)])
def test_draw_above_has_the_conditioned_law(a, b, q):
    # theta ~ Beta(a, b) given theta > q, by inverse CDF (tail < REJECTION_MIN_PROB: the first three) or by
    # rejection (the last), against the truncated CDF (I_x - I_q) / (1 - I_q) by Kolmogorov-Smirnov at LEVEL; the
    # untruncated Beta is rejected.
    tail = special.betaincc(a, b, q)
    assert (tail < REJECTION_MIN_PROB) == ((a, b, q) != (3.0, 5.0, 0.3))
    rng = np.random.default_rng(17)
    draws = np.array([draw_above(rng, a, b, q, tail, rng.random() * tail) for _ in range(20000)])
    assert draws.min() > q

    def truncated_cdf(x):
        """P(theta <= x | theta > q)."""
        return (special.betainc(a, b, x) - special.betainc(a, b, q)) / tail

    assert stats.kstest(draws, truncated_cdf).pvalue > LEVEL
    assert stats.kstest(draws, stats.beta(a, b).cdf).pvalue < LEVEL


def test_fast_epoch_bookkeeping_matches_scipy():
    # After any number of slots: tail_above[j] = P(Beta(S_j, F_j) > q) for every arm but the leader (scipy, relative
    # 1e-9), 0 for the leader, ``order`` sorted by it (decreasing) and ``rank`` its inverse; a fresh epoch puts q at
    # the leader's LEADER_TAIL quantile and leads with the most observed arm.
    P = load_dataset("mslr16_condorcet").P
    K = P.shape[0]
    state = SPEC.make_state(K, None, FAST)
    rng = np.random.default_rng(23)
    epochs = set()
    for t in range(1, 30001):
        a1, a2 = SPEC.select(state, t, rng)
        SPEC.update(state, a1, a2, rng.random() < P[a1, a2], t)
        epochs.add(int(state.epoch["slot"][0]))
        if t % 5000 == 0:
            leader, q = state.epoch["leader"][0], state.epoch["threshold"][0]
            expected = special.betaincc(state.successes, state.failures, q)
            expected[leader] = 0.0
            np.testing.assert_allclose(state.tail_above, expected, rtol=1e-9, atol=0.0)
            assert np.all(np.diff(state.tail_above[state.order]) <= 0.0)
            assert np.array_equal(state.rank[state.order], np.arange(K))
    assert len(epochs) > 10  # epochs did begin, at most one every K slots
    assert np.diff(sorted(epochs)).min() >= K
    start_epoch(state.successes, state.failures, state.epoch, state.tail_above, state.order, state.rank, 30001)
    leader = state.epoch["leader"][0]
    assert leader == np.argmax(state.successes + state.failures)
    assert stats.beta(state.successes[leader], state.failures[leader]).cdf(state.epoch["threshold"][0]) == \
        pytest.approx(LEADER_TAIL, rel=1e-9)


@pytest.mark.parametrize(CASE_FIELDS, cases("self_sparring"))
def test_fast_runs_match_direct(algorithm, dataset, horizon, delay, reference, fast):
    """200 runs of sampling="fast" against "direct" (the same run indices, so the same shuffles),
    ``assert_same_law`` at FAMILY_LEVEL: regret at 4 checkpoints and at T, g2w, self-comparison totals
    (tests/same_law.py's CASES: Condorcet K = 5, 32, non-Condorcet K = 16 with a feedback delay and eta = 1/2)."""
    assert_fast_path_exact(algorithm, dataset, horizon, delay, reference, fast, FAMILY_LEVEL, must_change=True)


def test_bad_sampling_is_rejected():
    with pytest.raises(ValueError, match="sampling must be one of 'direct', 'fast', got 'indicators'"):
        SPEC.make_state(3, None, {"sampling": "indicators"})


def test_fast_policy_learns_like_the_default():
    # The live policy with sampling="fast" concentrates on the Condorcet winner as in test_learns_the_condorcet_winner.
    ds = load_dataset("mslr5_condorcet")
    P = ds.P
    policy = SelfSparring(5, seed=np.random.default_rng(3), sampling="fast")
    rng = np.random.default_rng(4)
    selves = np.zeros(5, np.int64)
    for _ in range(20000):
        a1, a2 = policy.select()
        policy.update(a1, a2, rng.random() < P[a1, a2])
        selves[a1] += a1 == a2
    assert selves.argmax() == policy.best_arm() == ds.condorcet_winner


# The fast stream pinned: sha1 (first 16 hex digits) of the regret checkpoints and self-comparison counts of run 0,
# root seed 7.  A change of these digests is a change of the random stream of sampling="fast": give it a stream
# version (``streams={"sampling": {"fast": 2}}`` in SELF_SPARRING_SPEC) so stored fast runs are recomputed, then
# update the digests; a speed-up that keeps the draws keeps them.
FAST_STREAM_DIGESTS = {
    ("mslr136_perfect", 20000): "dcc686e2f8d97e41",
    ("mslr5_condorcet", 100000): "485cd2ee4afb5d51",
}


@pytest.mark.parametrize("dataset, horizon", list(FAST_STREAM_DIGESTS))
def test_fast_stream_is_pinned(dataset, horizon):
    res = run_one(load_dataset(dataset), SPEC, FAST, horizon, 0, 7)
    digest = hashlib.sha1(res["regret"].tobytes() + res["self_counts"].tobytes()).hexdigest()[:16]
    assert digest == FAST_STREAM_DIGESTS[dataset, horizon]
