"""sampling="fast" of D-TS, D-TS+ and pure D-TS is exact in distribution.

Every check is a test of a null hypothesis that holds if "fast" is exact, at significance
ALPHA = 1e-3 with fixed seeds (so a correct implementation passes deterministically; a wrong one is
caught when its error is large against the sampling noise, whose size each test states).
* fixed states: the (a1, a2) distribution of "fast" against "direct" (chi-square of homogeneity,
  20000 draws each at level 1e-3: a difference of ~2 percentage points in a cell near 25% is detected
  with probability ~0.8, one of ~1 point in a cell near 5%);
* the bit-sliced kernel (used from K = BITS_MIN_K): per-row vote means against sum_j q_ij, mirrored pairs, unpacking;
* skipping: in frozen states, the number of (c, c) slots in a window of slots and the first other pair,
  skip + select against select slot by slot (chi-square); the run lengths against their exact law, with a
  stated power, near 2**53 in ``tests/algorithms/test_large_horizon.py``;
* whole runs: the regret at several checkpoints, the final regret, g2w and self-comparison counts
  of "fast" against "indicators" over 200 runs (two-sample KS and Welch t-tests).
"""

import dataclasses
import hashlib
import json
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.algorithms.dts_fast import BITS_MIN_K, skip
from dts_reproduction.algorithms.dts_state import PENDING_NONE
from dts_reproduction.core.bitvotes import (
    DEPTH,
    LANES,
    candidate_votes,
    fill_planes,
    planes_shape,
    popcount,
    scratch_rows,
    unpack_rows,
    words_for,
)
from dts_reproduction.core.bounds import mirrored_bounds
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import Line, line_key, resolved_params, run_one
from tests.algorithms.test_dts import T_FIXED, WINS_A, WINS_B, stats_from_wins
from tests.same_law import CASE_FIELDS, assert_fast_path_exact, cases

ALPHA = 1e-3
DRAWS = 20000


def homogeneity_pvalue(samples_a, samples_b):
    """Chi-square test of homogeneity of two samples of hashable outcomes."""
    keys = sorted(set(samples_a) | set(samples_b))
    table = np.array([[sum(1 for s in samples if s == k) for k in keys] for samples in (samples_a, samples_b)])
    if len(keys) == 1:
        return 1.0
    return stats.chi2_contingency(table).pvalue


def counts_pvalue(a, b):
    """Chi-square homogeneity of two integer samples (cells with fewer than 5 expected pooled at the top)."""
    a, b = np.asarray(a), np.asarray(b)
    top = int(max(a.max(), b.max()))
    table = np.array([np.bincount(a, minlength=top + 1), np.bincount(b, minlength=top + 1)])
    keep = table.sum(axis=0) >= 10
    pooled = np.column_stack([table[:, keep], table[:, ~keep].sum(axis=1)]) if (~keep).any() else table[:, keep]
    pooled = pooled[:, pooled.sum(axis=0) > 0]
    return 1.0 if pooled.shape[1] < 2 else stats.chi2_contingency(pooled).pvalue


def state_after(name, dataset, slots, seed, sampling="fast"):
    """(n, w) after ``slots`` slots of ``name`` with "indicators" on ``dataset`` (unshuffled)."""
    P = load_dataset(dataset).P
    spec = get_algorithm(name)
    state = spec.make_state(P.shape[0], params={"sampling": "indicators"})
    rng = np.random.default_rng(seed)
    for t in range(1, slots + 1):
        a1, a2 = spec.select(state, t, rng)
        spec.update(state, a1, a2, rng.random() < P[a1, a2], t)
    return state.comparisons.copy(), state.wins.copy()


def random_stats(K, seed, comparisons=40):
    """(n, w) of a random tournament with ``comparisons`` per pair (C is usually every arm)."""
    rng = np.random.default_rng(seed)
    wins = np.triu(rng.binomial(comparisons, rng.random((K, K))), 1)
    wins = wins + np.triu(comparisons - wins, 1).T
    return stats_from_wins(wins)


FIXED_STATES = {
    "stateA": lambda: stats_from_wins(WINS_A),
    "stateB": lambda: stats_from_wins(WINS_B),
    "mslr16nc_t3000": lambda: state_after("dts", "mslr16_noncondorcet", 3000, 1),
    "random_K12": lambda: random_stats(12, 4),
}


@pytest.mark.parametrize("state_name", sorted(FIXED_STATES))
@pytest.mark.parametrize("name", ["dts", "dts_plus", "pure_dts"])
def test_fast_select_matches_direct_in_fixed_states(state_name, name):
    n, w = FIXED_STATES[state_name]()
    spec = get_algorithm(name)
    drawn = {}
    for sampling, seed in (("fast", 21), ("direct", 22)):
        state = spec.make_state(n.shape[0], params={"sampling": sampling})
        spec.set_statistics(state, n, w)
        rng = np.random.default_rng(seed)
        t = T_FIXED if state_name.startswith("state") else 3000
        drawn[sampling] = [spec.select(state, t, rng) for _ in range(DRAWS)]
        assert state.comparisons.tolist() == n.tolist()
    assert homogeneity_pvalue(drawn["fast"], drawn["direct"]) > ALPHA


@pytest.mark.parametrize("name", ["dts", "dts_plus", "pure_dts"])
def test_bitsliced_first_candidate_matches_indicators_at_large_K(name):
    """K = BITS_MIN_K + 20 takes the bit-sliced path; a1 of "fast" vs "indicators" (5000 draws each:
    the candidate set is every arm and a1 spreads over ~10 arms, power ~1 for 3-point differences)."""
    K = BITS_MIN_K + 20
    n, w = random_stats(K, 7, comparisons=30)
    spec = get_algorithm(name)
    drawn = {}
    for sampling, seed in (("fast", 31), ("indicators", 32)):
        state = spec.make_state(K, params={"sampling": sampling})
        spec.set_statistics(state, n, w)
        rng = np.random.default_rng(seed)
        drawn[sampling] = [spec.select(state, 100, rng)[0] for _ in range(5000)]
    assert homogeneity_pvalue(drawn["fast"], drawn["indicators"]) > ALPHA


def strong_rows_large_K():
    """K = 220 (bit-sliced) with two comparisons per pair at random, except arms 0-3, which have won
    both against every other arm and one of two among themselves: C is every arm, rows 0-3 have ~190
    expected votes and the others ~110, so the bit-sliced first phase of D-TS stops most rows early
    (``prune``) and the most-voted rows 0-3 tie at the top in ~11 % of the slots.  Half the other
    pairs are tied one win each (q = 1/2 exactly with "fast": lanes decided by one random bit)."""
    K = 220
    assert K >= BITS_MIN_K
    rng = np.random.default_rng(9)
    wins = np.triu(rng.binomial(2, 0.5, (K, K)), 1)
    wins = wins + np.triu(2 - wins, 1).T
    wins[:4, 4:], wins[4:, :4] = 2, 0
    wins[:4, :4] = 1
    np.fill_diagonal(wins, 0)
    return stats_from_wins(wins)


def consecutive_draws(spec, n, w, sampling, seed, draws, t=100):
    """``draws`` selections in the frozen state (n, w): the pairs (a1, a2) and the transitions
    (previous a1, a1) -- in a frozen state the selections are i.i.d., whatever a sampling carries over
    from one slot to the next (the bit-sliced first phase draws the last winner's row first)."""
    state = spec.make_state(n.shape[0], params={"sampling": sampling})
    spec.set_statistics(state, n, w)
    rng = np.random.default_rng(seed)
    pairs = [tuple(int(a) for a in spec.select(state, t, rng)) for _ in range(draws)]
    return pairs, [(pairs[k - 1][0], pairs[k][0]) for k in range(1, draws)]


def pooled_pvalue(samples_a, samples_b):
    """``counts_pvalue`` of two samples of hashable outcomes (rare outcomes pooled)."""
    index = {key: k for k, key in enumerate(sorted(set(samples_a) | set(samples_b)))}
    return counts_pvalue([index[s] for s in samples_a], [index[s] for s in samples_b])


@pytest.mark.parametrize("name", ["dts", pytest.param("pure_dts", marks=pytest.mark.slow)])  # one path by default
def test_pruned_first_phase_matches_indicators_at_large_K(name):
    """The pruned bit-sliced first phase (rows that cannot be the most voted stop early, the last
    winner's row first) against "indicators" in ``strong_rows_large_K``: chi-square of homogeneity of
    the law of (a1, a2) (a2 spreads over ~200 arms: outcomes seen fewer than 10 times pooled) and of
    the transitions (previous a1, a1), which would show a dependence on the row drawn first; 20000
    draws each.  a1 spreads over the 4 strong arms (~25 % each, standard error of a share ~0.3
    points); breaking the ties toward the row drawn first (stopping rows that can only tie, ``<=``
    instead of ``<``) keeps the law of (a1, a2) but fails the transition test (p ~ 1e-4)."""
    n, w = strong_rows_large_K()
    spec = get_algorithm(name)
    fast_pairs, fast_steps = consecutive_draws(spec, n, w, "fast", 51, DRAWS)
    ref_pairs, ref_steps = consecutive_draws(spec, n, w, "indicators", 52, DRAWS)
    assert pooled_pvalue(fast_pairs, ref_pairs) > ALPHA
    assert pooled_pvalue(fast_steps, ref_steps) > ALPHA


def test_popcount_counts_the_set_bits():
    """The vote counts are popcounts: checked against Python's count of binary ones on edge cases and random
    words of every width up to 63 bits."""
    rng = np.random.default_rng(11)
    words = [0, 1, (1 << LANES) - 1, (1 << 62) | 1, (1 << 63) - 1]
    words += [int(rng.integers(0, 1 << bits)) for bits in range(1, 64) for _ in range(20)]
    for word in words:
        assert popcount(np.int64(word)) == bin(word).count("1"), word


# The fast stream pinned: sha1 (first 16 hex digits) of the regret checkpoints and self-comparison counts of
# run 0, root seed 7, bit-sliced (K = 136) and with skipping (K = 5).  A change of these digests is a change
# of the random stream of sampling="fast": bump its version (algorithms/dts.py SAMPLING_STREAMS) so stored
# fast runs are recomputed, then update the digests; a speed-up that keeps the draws keeps them.
FAST_STREAM_DIGESTS = {
    ("dts", "mslr136_informational", 3000): "ecdc9398f5366ca0",
    ("dts", "mslr5_condorcet", 100000): "752d4782b8de25be",
    ("dts_plus", "mslr136_informational", 3000): "bb582b2ec71445fa",
    ("dts_plus", "mslr5_condorcet", 100000): "115d78c532a2b44f",
    ("pure_dts", "mslr136_informational", 3000): "212e8f7956e283da",
    ("pure_dts", "mslr5_condorcet", 100000): "6c9e6231e3b862c3",
}


@pytest.mark.parametrize("name, dataset, horizon", list(FAST_STREAM_DIGESTS))
def test_fast_stream_is_pinned(name, dataset, horizon):
    res = run_one(load_dataset(dataset), get_algorithm(name), {"sampling": "fast"}, horizon, 0, 7)
    digest = hashlib.sha1(res["regret"].tobytes() + res["self_counts"].tobytes()).hexdigest()[:16]
    assert digest == FAST_STREAM_DIGESTS[name, dataset, horizon]


def test_bitsliced_votes_kernel():
    """Row vote means against their expectation sum_{j != i} q_ij (z-scores, Bonferroni over rows at
    ALPHA), every mirrored pair complementary and the votes equal to the unpacked row sums."""
    K = 130
    rng0 = np.random.default_rng(3)
    q = np.triu(rng0.random((K, K)) ** 3, 1)  # many small q: the deep binary digits are exercised
    q = q + np.tril(1.0 - q.T, -1)
    np.fill_diagonal(q, 0.5)
    W = words_for(K)
    planes = fill_planes(q, np.zeros(planes_shape(K), np.int64))
    in_c = rng0.random(K) < 0.6
    bits, votes, scratch = np.zeros((K, W), np.int64), np.zeros(K, np.int64), np.zeros((scratch_rows(K), W), np.int64)
    above = np.zeros((K, K), bool)
    rng = np.random.default_rng(4)
    draws = 3000
    total = np.zeros(K)
    for _ in range(draws):
        candidate_votes(rng, planes, q, in_c, bits, votes, -1, -1, False, scratch)
        total += votes
    unpack_rows(bits, in_c, -1, above)
    rows = np.flatnonzero(in_c)
    np.testing.assert_array_equal(above[rows].sum(axis=1), votes[rows])
    inside = np.ix_(rows, rows)
    off = ~np.eye(rows.size, dtype=bool)
    assert np.all(above[inside][off] != above[inside].T[off])
    expected = q.sum(axis=1) - 0.5
    sd = np.sqrt((q * (1 - q)).sum(axis=1) - 0.25) / np.sqrt(draws)
    z = (total / draws - expected)[rows] / sd[rows]
    assert np.max(np.abs(z)) < stats.norm.isf(ALPHA / 2 / rows.size)


def test_end_planes_mark_where_each_probability_ends():
    """Lane j's end plane b is set iff q_j is a multiple of 2**-DEPTH below 1 whose last 1 digit is
    digit b (b = 0 for q = 0), checked against exact fractions; the digit planes hold q's first digits."""
    qs = [0.5, 0.75, 0.25, 0.375, 0.0, 1.0, 0.3, 5 / 2 ** DEPTH, 0.5 + 2.0 ** -20, 1 - 2.0 ** -DEPTH, 2.0 ** -30]
    K = len(qs) + 1
    q = np.full((K, K), 0.5)
    q[0, 1:] = qs
    planes = fill_planes(q, np.zeros(planes_shape(K), np.int64))
    for j, value in enumerate(qs, start=1):
        scaled = Fraction(value) * 2 ** DEPTH
        digits = min(int(scaled), 2 ** DEPTH - 1)
        ends = scaled.denominator == 1 and value < 1
        last = 0 if digits == 0 else DEPTH - 1 - (digits & -digits).bit_length() + 1
        for b in range(DEPTH):
            assert (planes[0, 0, b] >> j) & 1 == (digits >> (DEPTH - 1 - b)) & 1, (value, b)
            assert (planes[0, 0, DEPTH + b] >> j) & 1 == int(ends and b == last), (value, b)


def test_bitsliced_votes_with_dyadic_probabilities():
    """Lanes whose q ends within the first digits (q = 0, 1/4, 3/8, 1/2, 3/4, mixed with q that do not
    end and q = 1): every lane's vote frequency against its q (z-scores, Bonferroni over the lanes at
    ALPHA; 4000 draws give a standard error <= 0.008, so an end plane that decided its lanes wrongly
    -- an error of 1/8 or more -- is caught with certainty), mirrored pairs complementary."""
    K = 120
    rng0 = np.random.default_rng(11)
    choices = np.array([0.0, 0.25, 0.375, 0.5, 0.5, 0.5, 0.75, 1.0, 0.3, 0.61])
    q = np.triu(rng0.choice(choices, size=(K, K)), 1)
    q = q + np.tril(1.0 - q.T, -1)
    np.fill_diagonal(q, 0.5)
    W = words_for(K)
    planes = fill_planes(q, np.zeros(planes_shape(K), np.int64))
    in_c = np.ones(K, bool)
    bits, votes, scratch = np.zeros((K, W), np.int64), np.zeros(K, np.int64), np.zeros((scratch_rows(K), W), np.int64)
    above = np.zeros((K, K), bool)
    rng = np.random.default_rng(12)
    draws = 4000
    freq = np.zeros((K, K))
    for _ in range(draws):
        candidate_votes(rng, planes, q, in_c, bits, votes, -1, -1, False, scratch)
        unpack_rows(bits, in_c, -1, above)
        freq += above
    off = ~np.eye(K, dtype=bool)
    assert np.all(above[off] != above.T[off])
    upper = np.triu(off)
    p, f = q[upper], freq[upper] / draws
    certain = (p == 0) | (p == 1)
    np.testing.assert_array_equal(f[certain], p[certain])
    z = (f - p)[~certain] / np.sqrt(p * (1 - p) / draws)[~certain]
    assert np.max(np.abs(z)) < stats.norm.isf(ALPHA / 2 / z.size)


def test_a_word_of_tied_pairs_costs_one_random_word():
    """Every pair at q = 1/2 (nothing compared yet): each word a row draws takes exactly one random
    word from the generator (the end planes stop it after the first digit), so the whole first
    phase of K rows takes as many uniforms as there are (row, word) lanes left to draw."""
    K = 300
    spec = get_algorithm("dts")
    state = spec.make_state(K, params={"sampling": "fast"})
    q = state.prob_above
    off = ~np.eye(K, dtype=bool)
    assert np.all(q[off] == 0.5)
    W = words_for(K)
    bits, votes, scratch = np.zeros((K, W), np.int64), np.zeros(K, np.int64), np.zeros((scratch_rows(K), W), np.int64)
    rng, twin = np.random.default_rng(5), np.random.default_rng(5)
    candidate_votes(rng, state.q_planes, q, np.ones(K, bool), bits, votes, -1, -1, False, scratch)
    # Row i draws the words holding a lane j > i (the pairs with j < i were drawn by row j).
    words = sum(sum(1 for word in range(W) if min(K, word * LANES + LANES) - 1 > i) for i in range(K))
    twin.random(words)
    assert rng.random() == twin.random()


def test_second_phase_eligibility_on_switch_times_is_the_bound_test():
    """"fast" tests l_{i a1} <= 1/2 as ln t >= switch_log_t[a1, i]: the same answer as the mirrored
    bound for every ordered pair of random statistics at 400 values of ln t, except within 1e-9 of a
    switch time (a rounding tie, probability zero)."""
    K = 9
    spec = get_algorithm("dts")
    n, w = random_stats(K, 17, comparisons=25)
    state = spec.make_state(K, params={"sampling": "fast"})
    spec.set_statistics(state, n, w)
    switch = state.switch_log_t
    answers = []
    for log_t in np.linspace(0.01, 40.0, 400):
        for a1 in range(K):
            for i in range(K):
                if i == a1 or abs(log_t - switch[a1, i]) < 1e-9:
                    continue
                bound = mirrored_bounds(state.comparisons, state.wins, i, a1, log_t, state.alpha)[1] <= 0.5
                assert (log_t >= switch[a1, i]) == bound, (log_t, a1, i)
                answers.append(bound)
    assert len(answers) > 0.99 * 400 * K * (K - 1)
    assert 0.02 < np.mean(answers) < 0.98  # both answers are checked (~1400 "not eligible")


def test_fast_state_gives_tied_pairs_exactly_one_half():
    """With "fast", q = 1/2 exactly for every pair with as many wins each way, after updates too; the
    other pairs keep P(Beta > 1/2) (within 1e-15 of the default's); "indicators" keeps its values."""
    spec = get_algorithm("dts")
    fast, ref = (spec.make_state(6, params={"sampling": s}) for s in ("fast", "indicators"))
    for state in (fast, ref):
        for a1, a2, won in ((0, 1, True), (1, 0, True), (2, 3, True), (4, 5, False), (4, 5, False)):
            spec.update(state, a1, a2, won, 10)
    tied = (fast.wins == fast.wins.T) & ~np.eye(6, dtype=bool)
    assert tied[0, 1] and not tied[2, 3]
    assert np.all(fast.prob_above[tied] == 0.5)
    assert np.any(ref.prob_above[tied] != 0.5)  # betainc's value, one ulp off: what the stored runs used
    np.testing.assert_allclose(fast.prob_above, ref.prob_above, rtol=0, atol=1e-15)


def window_counts(spec, n, w, t0, use_skip, window, seed, reps):
    """For ``reps`` windows of ``window`` slots from t0 in the frozen state (n, w) (no updates; every
    slot as if it followed a self-comparison of c, the arm of C most likely to win all its votes): the
    number of self-comparisons (c, c) and the first other pair, with skip + select (the simulator's
    loop) or select alone.  Returns (counts, firsts, c, slots skipped in total)."""
    K = n.shape[0]
    state = spec.make_state(K, params={"sampling": "fast"})
    spec.set_statistics(state, n, w)
    spec.select(state, t0, np.random.default_rng(0))  # fills the candidate set
    log_q = np.log(state.prob_above)
    np.fill_diagonal(log_q, 0.0)
    c = int(np.argmax(np.where(state.in_candidates, log_q.sum(axis=1), -np.inf)))
    rng = np.random.default_rng(seed)
    counts, firsts, skipped = [], [], 0
    for _ in range(reps):
        record = state.skip_state[0]
        record["pending"], record["last_self"], record["refused_at"] = PENDING_NONE, c, -1
        t, end, count, first = t0, t0 + window - 1, 0, None
        while t <= end:
            if use_skip:
                slots, arm = skip(state, t, rng, end)
                assert arm in (-1, c)
                if slots > 0:
                    skipped += slots
                    count += slots
                    t += slots
                    continue
            a1, a2 = spec.select(state, t, rng)
            state.skip_state[0]["last_self"] = c  # frozen: keep trying, as after a self-comparison of c
            if a1 == a2 == c:
                count += 1
            elif first is None:
                first = (int(a1), int(a2))
            t += 1
        counts.append(count)
        firsts.append(str(first))
    return counts, firsts, c, skipped


def settled_large_K():
    """K = BITS_MIN_K + 10 (bit-sliced first phase): arm 0 has beaten every arm 90 times in 100
    except arms 1-3 (8 in 10), the others 30 comparisons per pair with p in [0.3, 0.7]: C = {0, 1, 2,
    3}, P_0 ~ 0.9 and p_self ~ 0.9, so skip leaves both kinds of event (a pair; a first-phase row)."""
    K = BITS_MIN_K + 10
    rng = np.random.default_rng(8)
    wins = np.triu(rng.binomial(30, rng.uniform(0.3, 0.7, (K, K))), 1)
    wins = wins + np.triu(30 - wins, 1).T
    wins[0, :], wins[:, 0] = 90, 10
    wins[0, 1:4], wins[1:4, 0] = 8, 2
    wins[0, 0] = 0
    return stats_from_wins(wins)


@pytest.mark.parametrize("dataset,name,slots", [
    ("mslr5_condorcet", "dts", 3000), pytest.param("arxiv", "dts_plus", 3000, marks=pytest.mark.slow),
    pytest.param("strong_borda", "pure_dts", 10000, marks=pytest.mark.slow), ("large_K", "dts", 3000)])
def test_skip_matches_slot_by_slot_in_frozen_states(dataset, name, slots):
    """2000 windows of 40 slots each way in a state reached after ``slots`` slots (a hand-made one for
    large_K); chi-square on the number of self-comparisons of the sweeping arm (0..40) and on the first
    other pair.  skip reports the arm it was given (checked)."""
    n, w = settled_large_K() if dataset == "large_K" else state_after(name, dataset, slots, 5)
    spec = get_algorithm(name)
    t0 = slots + 1
    fast_counts, fast_first, c, skipped = window_counts(spec, n, w, t0, True, 40, 41, 2000)
    assert skipped > 0, "the state chosen must be one where skip applies"
    ref_counts, ref_first, _, _ = window_counts(spec, n, w, t0, False, 40, 42, 2000)
    assert counts_pvalue(fast_counts, ref_counts) > ALPHA
    assert homogeneity_pvalue(fast_first, ref_first) > ALPHA


@pytest.mark.parametrize(CASE_FIELDS, cases("dts", "dts_plus", "pure_dts"))
def test_fast_runs_match_indicators(algorithm, dataset, horizon, delay, reference, fast):
    """200 runs each against the default "indicators" (the same run indices, so the same shuffles): at 4
    checkpoints and at T, the regret samples agree (KS and Welch t-test), and so do g2w at T and the total
    number of self-comparisons at T (Welch): ``assert_same_law`` at family-wise level ALPHA (its docstring
    gives the power).  The rows are tests/same_law.py's CASES.  Below BITS_MIN_K "fast" changes a run only where
    it skips, which some rows never do (nc_cyclic at T = 5000, mslr16_condorcet at T = 2000: all 200 runs equal
    the defaults'), so a changed run is not required here."""
    assert_fast_path_exact(algorithm, dataset, horizon, delay, reference, fast, ALPHA, must_change=False)


def test_fast_runs_are_stored_under_their_stream_version():
    """"fast" draws differently since the exact q = 1/2 of tied pairs (stream version 3): its stored config and
    line key carry the version, so runs stored before are stale instead of mixed with new ones; the
    default sampling's config and key are unchanged (the stored paper results stay valid)."""
    fast = Line(dataset="nc_cyclic", algorithm="dts", horizon=1000, runs=1, params=(("sampling", "fast"),))
    assert resolved_params(fast) == {"alpha": 0.51, "sampling": "fast", "sampling_stream": 3}
    before = "dts_p" + hashlib.sha1(json.dumps({"sampling": "fast"}, sort_keys=True).encode()).hexdigest()[:10]
    assert line_key(fast) != before + "_T1000"
    version_2 = {"sampling": "fast", "sampling_stream": 2}
    assert line_key(fast) != "dts_p" + hashlib.sha1(json.dumps(version_2, sort_keys=True).encode()).hexdigest()[:10] \
        + "_T1000"
    default = Line(dataset="nc_cyclic", algorithm="dts", horizon=1000, runs=1)
    assert resolved_params(default) == {"alpha": 0.51, "sampling": "indicators"}
    assert line_key(default) == "dts_T1000"


def test_fast_is_the_default_nowhere_and_rejected_values_are_named():
    spec = get_algorithm("dts")
    assert spec.defaults["sampling"] == "indicators"
    with pytest.raises(ValueError, match="sampling must be one of 'indicators', 'direct', 'fast'"):
        spec.make_state(4, params={"sampling": "bits"})


@pytest.mark.parametrize("dataset,name,delay", [("mslr16_noncondorcet", "dts", 1), ("mslr32_condorcet", "dts_plus", 3),
                                                ("nc_cyclic", "pure_dts", 1)])
def test_fast_without_skipping_draws_exactly_like_indicators_below_bits_min_k(dataset, name, delay):
    """Below BITS_MIN_K, "fast" draws its votes like "indicators"; with the skipping loop switched off
    the two runs must then be identical bit for bit -- which checks the incrementally kept upper
    Copeland counts (and every other cache of "fast") against the recount of "indicators"."""
    ds, spec = load_dataset(dataset), get_algorithm(name)
    assert ds.K < BITS_MIN_K
    fast = run_one(ds, dataclasses.replace(spec, skip=None), {"sampling": "fast"}, 20000, 3, 7, delay)
    ref = run_one(ds, spec, {"sampling": "indicators"}, 20000, 3, 7, delay)
    for key in ("regret", "g2w", "self_counts"):
        np.testing.assert_array_equal(fast[key], ref[key])
