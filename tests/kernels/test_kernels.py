"""Every core kernel against its plain NumPy reference (tests/reference/)."""

import math

import numpy as np
import pytest
from scipy import optimize, stats

from dts_reproduction.core import copeland
from dts_reproduction.core.argmax import argmax_first, argmax_uniform, argmin_first, fill_true, uniform_member
from dts_reproduction.core.bounds import (
    direct_upper_column,
    fill_direct_bound_switches,
    fill_direct_switches,
    fill_mirrored_switches,
    mirrored_bounds,
    update_pair,
    upper_copeland_from_switches,
)
from dts_reproduction.core.copy import copy_prefix, copy_rows
from dts_reproduction.core.kl import kl_bernoulli, kl_clamped, kl_lcb, kl_ucb
from dts_reproduction.core.thompson import fill_above_half, sample_beta_given_side, sample_votes
from dts_reproduction.data import dataset_from_matrix
from tests import reference as ref
from tests.reference.scans_reference import lower_copeland_from_switches


def random_stats(K, rng, max_count=30):
    """Pseudo-count statistics of a random comparison history: (n, w), n symmetric."""
    counts = rng.integers(0, max_count, size=(K, K))
    counts = np.triu(counts, 1) + np.triu(counts, 1).T
    wins = rng.binomial(counts, rng.random((K, K)))
    wins = np.triu(wins, 1) + np.tril(counts - wins.T, -1)
    return counts + 1e-6, wins + 1e-5


@pytest.mark.parametrize("seed", range(20))
def test_argmax_argmin_first_match_reference(seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 4, size=9).astype(np.float64)  # small range: many ties
    mask = rng.random(9) < 0.7
    assert argmax_first(values, mask) == ref.argmax_first(values, mask)
    assert argmin_first(values, mask) == ref.argmin_first(values, mask)


def test_argmax_empty_mask_is_minus_one():
    mask = np.zeros(4, np.bool_)
    assert argmax_first(np.zeros(4), mask) == -1
    assert argmin_first(np.zeros(4), mask) == -1
    assert uniform_member(np.random.default_rng(0), mask) == -1
    assert fill_true(mask).all()


def test_argmax_uniform_is_uniform_over_ties():
    values = np.array([3.0, 1.0, 3.0, 3.0, 2.0, 3.0])
    mask = np.array([True, True, True, False, True, True])  # maximisers in the mask: 0, 2, 5
    rng = np.random.default_rng(1)
    draws = np.array([argmax_uniform(rng, values, mask) for _ in range(30000)])
    assert set(np.unique(draws)) == {0, 2, 5}
    observed = np.bincount(draws, minlength=6)[[0, 2, 5]]
    # Chi-square goodness of fit to (1/3, 1/3, 1/3): a correct kernel fails with probability 1e-4.
    assert stats.chisquare(observed).pvalue > 1e-4


def test_uniform_member_is_uniform():
    mask = np.array([False, True, True, False, True])
    rng = np.random.default_rng(2)
    draws = np.array([uniform_member(rng, mask) for _ in range(30000)])
    assert stats.chisquare(np.bincount(draws, minlength=5)[[1, 2, 4]]).pvalue > 1e-4


@pytest.mark.parametrize("seed", range(10))
def test_bounds_match_reference(seed):
    rng = np.random.default_rng(seed)
    K = 6
    n, w = random_stats(K, rng)
    t = int(rng.integers(1, 10**6))
    U, L = ref.mirrored_UL(n, w, t, 0.51)
    for i in range(K):
        for j in range(K):
            assert mirrored_bounds(n, w, i, j, math.log(t), 0.51) == pytest.approx((U[i, j], L[i, j]), rel=1e-12)
    switch = fill_mirrored_switches(n, w, 0.51, np.zeros((K, K)))
    counts = upper_copeland_from_switches(switch, math.log(t), np.zeros(K, np.int64))
    expected = [(U[i, np.arange(K) != i] >= 0.5).sum() for i in range(K)]
    np.testing.assert_array_equal(counts, expected)
    Ur, _ = ref.direct_UL(n, w, t, 0.51)
    for col in range(K):
        u_col = direct_upper_column(n, w, col, math.log(t), 0.51, np.empty(K))
        np.testing.assert_allclose(u_col, Ur[:, col], rtol=1e-12)


def test_mirrored_bounds_first_slot_quirk():
    """docs/algorithms.md#shared-building-blocks: at t = 1 the width is 0 and p-hat = 10, so u_ij = 10 for i > j but
    u_ji = -9."""
    K = 4
    n, w = np.full((K, K), 1e-6), np.full((K, K), 1e-5)
    switch = fill_mirrored_switches(n, w, 0.51, np.zeros((K, K)))
    counts = upper_copeland_from_switches(switch, 0.0, np.zeros(K, np.int64))
    np.testing.assert_array_equal(counts, np.arange(K))
    assert mirrored_bounds(n, w, 2, 1, 0.0, 0.51) == pytest.approx((10.0, 10.0))
    assert mirrored_bounds(n, w, 1, 2, 0.0, 0.51) == pytest.approx((-9.0, -9.0))


def test_update_pair():
    n, w = np.zeros((3, 3)), np.zeros((3, 3))
    update_pair(n, w, 2, 0, True)
    update_pair(n, w, 0, 2, True)
    update_pair(n, w, 1, 1, False)
    assert n[0, 2] == n[2, 0] == 2 and w[2, 0] == 1 and w[0, 2] == 1
    assert n[1, 1] == 2 and w[1, 1] == 1


def test_copeland_scores_and_winners_match_reference():
    """``core.copeland`` and the ``Dataset`` built on it against the reference, with a tie, with and without a
    Condorcet winner."""
    rng = np.random.default_rng(3)
    P = rng.random((7, 7))
    P = np.triu(P, 1) + np.tril(1 - P.T, -1)
    np.fill_diagonal(P, 0.5)
    P[1, 4], P[4, 1] = 0.5, 0.5  # an exact tie counts for nobody
    expected = (P > 0.5).sum(axis=1)
    np.testing.assert_array_equal(ref.copeland_scores(P), expected)
    np.testing.assert_array_equal(copeland.copeland_scores(P), expected)
    dataset = dataset_from_matrix(P, "random7")
    np.testing.assert_array_equal(dataset.copeland_scores, expected)
    np.testing.assert_array_equal(dataset.winners, np.flatnonzero(expected == expected.max()))
    assert copeland.condorcet_winner(P) == -1 and dataset.condorcet_winner is None
    P[2], P[:, 2] = 0.9, 0.1  # arm 2 beats every other arm
    P[2, 2] = 0.5
    assert copeland.copeland_winners(P).tolist() == [2]
    assert copeland.condorcet_winner(P) == 2 and dataset_from_matrix(P, "condorcet7").condorcet_winner == 2


def draw(rng, w, rows, done, theta, above, votes, indicators):
    """sample_votes with the vote probabilities q implied by w."""
    q = fill_above_half(np.full(w.shape, 0.5), w)
    return sample_votes(rng, w, q, indicators, rows, done, theta, above, votes)


@pytest.mark.parametrize("indicators", [False, True])
def test_sample_votes_mirrors_and_counts(indicators):
    rng = np.random.default_rng(4)
    K = 6
    n, w = random_stats(K, rng)
    rows = np.array([True, False, True, True, False, False])
    done = np.zeros(K, np.bool_)
    theta = np.full((K, K), -1.0)
    above = np.zeros((K, K), np.bool_)
    votes = np.full(K, -1, np.int64)
    draw(rng, w, rows, done, theta, above, votes, indicators)
    np.testing.assert_array_equal(done, rows)
    for i in np.flatnonzero(rows):
        others = np.arange(K) != i
        assert votes[i] == above[i, others].sum()
        if not indicators:
            np.testing.assert_array_equal(above[i, others], theta[i, others] > 0.5)
        for j in np.flatnonzero(rows):
            if j != i:
                assert above[i, j] != above[j, i]
                if not indicators:
                    assert theta[max(i, j), min(i, j)] == 1.0 - theta[min(i, j), max(i, j)]  # later row mirrors
    assert (votes[~rows] == -1).all() and not above[~rows].any()
    if indicators:
        assert (theta == -1.0).all()  # indicators never draw a theta
    # Extending the draw to the other rows keeps it one consistent joint draw.
    draw(rng, w, ~rows, done, theta, above, votes, indicators)
    assert done.all()
    off = ~np.eye(K, dtype=bool)
    assert (above != above.T)[off].all()


def test_sample_votes_marginals():
    """Direct: theta_ij ~ Beta(w_ij + 1, w_ji + 1) whichever end is drawn first (KS test).
    Indicators: 1(theta_ij > 1/2) ~ Bernoulli(P(Beta(w_ij + 1, w_ji + 1) > 1/2)) (binomial test)."""
    rng = np.random.default_rng(5)
    K = 3
    w = np.array([[0, 7, 2], [1, 0, 4], [9, 3, 0]], dtype=np.float64)
    rows = np.ones(K, np.bool_)
    pairs = ((0, 1), (2, 0), (1, 2))
    draws = 8000
    for indicators in (False, True):
        samples = {pair: [] for pair in pairs}
        theta, above = np.zeros((K, K)), np.zeros((K, K), np.bool_)
        votes, done = np.zeros(K, np.int64), np.zeros(K, np.bool_)
        for _ in range(draws):
            done[:] = False
            draw(rng, w, rows, done, theta, above, votes, indicators)
            for (i, j), bucket in samples.items():
                bucket.append(above[i, j] if indicators else theta[i, j])
        for (i, j), bucket in samples.items():
            posterior = stats.beta(w[i, j] + 1, w[j, i] + 1)
            # Both tests fail a correct kernel with probability 1e-4 (the threshold), fixed seed.
            if indicators:
                assert stats.binomtest(int(np.sum(bucket)), draws, posterior.sf(0.5)).pvalue > 1e-4
            else:
                assert stats.kstest(bucket, posterior.cdf).pvalue > 1e-4


@pytest.mark.parametrize("a,b", [(3.0, 5.0), (2.0, 40.0), (300.5, 280.2)])
def test_sample_beta_given_side(a, b):
    """Conditional Beta draws (rejection or inverse CDF by the side's probability) match the
    conditional law (KS test, failure probability 1e-4 for a correct sampler, fixed seed)."""
    rng = np.random.default_rng(6)
    law = stats.beta(a, b)
    for above in (True, False):
        side = law.sf(0.5) if above else law.cdf(0.5)
        draws = np.array([sample_beta_given_side(rng, a, b, above, side) for _ in range(4000)])
        assert ((draws > 0.5) == above).all()
        if above:
            cdf = lambda x, side=side: (law.cdf(x) - law.cdf(0.5)) / side  # noqa: E731
        else:
            cdf = lambda x, side=side: law.cdf(x) / side  # noqa: E731
        assert stats.kstest(draws, cdf).pvalue > 1e-4


@pytest.mark.parametrize("p,q", [(0.3, 0.5), (0.0, 0.5), (1.0, 0.2), (0.9, 0.9), (1e-9, 0.5), (0.7, 1e-12)])
def test_kl_matches_reference(p, q):
    assert kl_bernoulli(p, q) == pytest.approx(ref.kl(p, q), rel=1e-12, abs=1e-300)
    assert kl_clamped(p, q) == pytest.approx(ref.kl_clamped(p, q), rel=1e-12, abs=1e-300)


def test_kl_unclamped_infinite_and_clamped_finite():
    assert kl_bernoulli(0.5, 0.0) == math.inf and kl_bernoulli(0.5, 1.0) == math.inf
    assert math.isfinite(kl_clamped(0.5, 0.0)) and math.isfinite(kl_clamped(1.0, 0.0))


@pytest.mark.parametrize("p_hat", [0.05, 0.3, 0.5, 0.81, 0.999])
@pytest.mark.parametrize("rho", [1e-3, 0.1, 2.0])
def test_kl_confidence_bounds_solve_the_kl_equation(p_hat, rho):
    eps = 1e-6
    upper, lower = kl_ucb(p_hat, rho, eps), kl_lcb(p_hat, rho, eps)
    if ref.kl_clamped(p_hat, 1 - eps) <= rho:
        assert upper == 1 - eps
    else:
        root = optimize.brentq(lambda q: ref.kl_clamped(p_hat, q) - rho, p_hat, 1 - eps, xtol=1e-14)
        assert abs(upper - root) <= eps
    if ref.kl_clamped(p_hat, eps) <= rho:
        assert lower == eps
    else:
        root = optimize.brentq(lambda q: ref.kl_clamped(p_hat, q) - rho, eps, p_hat, xtol=1e-14)
        assert abs(lower - root) <= eps


def test_kl_confidence_bounds_edges():
    assert kl_ucb(1.0, 0.3, 1e-6) == 1.0 and kl_ucb(0.0, 0.3, 1e-6) == pytest.approx(1 - math.exp(-0.3))
    assert kl_lcb(1.0, 0.3, 1e-6) == pytest.approx(math.exp(-0.3)) and kl_lcb(0.0, 0.3, 1e-6) == 0.0


@pytest.mark.parametrize("seed", range(5))
def test_switch_times_agree_with_direct_bounds(seed):
    """ln t >= switch[i, j] iff u_ij >= 1/2 (direct bounds), and row_max gives RUCB's candidate set."""
    rng = np.random.default_rng(seed)
    K = 7
    n, w = random_stats(K, rng)
    switch, row_max = np.zeros((K, K)), np.zeros(K)
    fill_direct_switches(n, w, 0.51, switch, row_max)
    for t in (1, 2, 10, 1000, 10**6):
        U, _ = ref.direct_UL(n, w, t, 0.51)
        off = ~np.eye(K, dtype=bool)
        np.testing.assert_array_equal((math.log(t) >= switch)[off], (U >= 0.5)[off])
        np.testing.assert_array_equal(math.log(t) >= row_max, (U >= 0.5).all(axis=1))


@pytest.mark.parametrize("seed", range(5))
def test_bound_switch_tables_agree_with_direct_bounds(seed):
    """CCB's tables: ln t >= upper[i, j] iff u_ij >= 1/2, ln t <= lower[i, j] iff l_ij >= 1/2 and
    ln t < lower[i, j] iff l_ij > 1/2 (direct bounds), hence the upper and lower Copeland counts; the
    column kernel equals the matrix kernel's column."""
    rng = np.random.default_rng(seed)
    K = 7
    n, w = random_stats(K, rng)
    upper, lower = np.zeros((K, K)), np.zeros((K, K))
    fill_direct_bound_switches(n, w, 0.51, upper, lower)
    off = ~np.eye(K, dtype=bool)
    for t in (1, 2, 10, 1000, 10**6):
        log_t = math.log(t)
        U, L = ref.direct_UL(n, w, t, 0.51)
        np.testing.assert_array_equal((log_t >= upper)[off], (U >= 0.5)[off])
        np.testing.assert_array_equal((log_t <= lower)[off], (L >= 0.5)[off])
        np.testing.assert_array_equal((log_t < lower)[off], (L > 0.5)[off])
        cu = upper_copeland_from_switches(upper, log_t, np.zeros(K, np.int64))
        cl = lower_copeland_from_switches(lower, log_t, np.zeros(K, np.int64))
        np.testing.assert_array_equal(cu, ((U >= 0.5) & off).sum(axis=1))
        np.testing.assert_array_equal(cl, ((L >= 0.5) & off).sum(axis=1))
        for col in range(K):
            u_col = direct_upper_column(n, w, col, log_t, 0.51, np.empty(K))
            np.testing.assert_allclose(u_col, U[:, col], rtol=1e-12)


def test_bound_switch_tables_first_slot():
    """Pseudo-counts only (p-hat = 10): at t = 1 every u and l is 10 >= 1/2; from t = 2 on no l is."""
    K = 3
    n, w = np.full((K, K), 1e-6), np.full((K, K), 1e-5)
    upper, lower = np.zeros((K, K)), np.zeros((K, K))
    fill_direct_bound_switches(n, w, 0.51, upper, lower)
    for log_t, expected in ((0.0, K - 1), (math.log(2), 0)):
        np.testing.assert_array_equal(upper_copeland_from_switches(upper, log_t, np.zeros(K, np.int64)), K - 1)
        np.testing.assert_array_equal(lower_copeland_from_switches(lower, log_t, np.zeros(K, np.int64)), expected)


def test_copies_match_numpy_slice_assignment():
    """core.copy against the slice assignments they replace, and nothing beyond the prefix is touched."""
    rng = np.random.default_rng(5)
    source, target = rng.random(7), np.full(7, -1.0)
    expected = target.copy()
    expected[:4] = source[:4]
    copy_prefix(target, source, 4)
    assert np.array_equal(target, expected)
    flags, into = rng.random(5) < 0.5, np.zeros(5, np.bool_)
    copy_prefix(into, flags, 5)
    assert np.array_equal(into, flags)
    matrix, rows = rng.random((3, 4)), np.zeros((3, 4))
    copy_rows(rows, matrix)
    assert np.array_equal(rows, matrix)
