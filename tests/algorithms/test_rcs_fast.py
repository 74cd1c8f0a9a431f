"""sampling="knockout" and skip="exact" of RCS are exact in distribution (algorithms/rcs.py,
``knockout_winner`` and ``skip``).

Every check tests a null hypothesis that holds if "knockout" is exact, at significance ALPHA = 1e-3
with fixed seeds (a correct implementation passes deterministically; a wrong one is caught when its
error is large against the sampling noise, whose size each test states).

* fixed states (K = 5, 16, 200; one where a sampled Condorcet winner is likely, one where it is rare):
  the champion counts are reset before every select, so the selections are i.i.d.; the law of a1
  under "knockout" against its exact law (P(winner = i) = prod_{j != i} P(i beats j), the rest to the
  fallback; chi-square goodness of fit) and the law of (a1, a2) against "indicators" (chi-square of
  homogeneity).  DRAWS = 20000 per sampler: the standard error of a cell's share is at most 0.35
  points, so a 1.5-point error in any cell above ~5 % is detected with probability ~0.9 or more;
* skip: the end of a run (``last_slot_challenged_by_none``) against select's challenger slot by slot,
  exactly; in frozen states, windows of slots walked with skip + select (as the simulator does) and
  with select alone: the number of self-comparisons and the first other pair (chi-square of
  homogeneity, 2000 windows each), and the champion counts advanced exactly by the slots walked;
  the cases it must refuse;
* whole runs: regret, g2w and self-comparison totals of "knockout" (with and without skip) against
  "indicators" over 200 runs (``tests.same_law.assert_same_law``);
* the stream version is stored with the runs, the default is unchanged, bad values are named.
"""

import hashlib
import json
import math

import numpy as np
import pytest
from numba import njit
from scipy import stats

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.algorithms.rcs import FALLBACKS, NO_ARM, knockout_winner, last_slot_challenged_by_none, skip
from dts_reproduction.core.argmax import argmax_first
from dts_reproduction.core.bounds import direct_upper_column
from dts_reproduction.reproduce.harness.runner import Line, line_key, resolved_params
from tests.algorithms.test_dts import stats_from_wins
from tests.algorithms.test_dts_fast import counts_pvalue, pooled_pvalue
from tests.same_law import CASE_FIELDS, assert_fast_path_exact, cases

ALPHA = 1e-3
DRAWS = 20000
T_FIXED = 1000


def strong_arms(K, strengths, seed=1):
    """(n, w) of a tournament with 4 comparisons per pair at p = 1/2, except the arms of
    ``strengths`` ({arm: (won, lost)} against every other arm; 2-2 among themselves)."""
    rng = np.random.default_rng(seed)
    wins = np.triu(rng.binomial(4, 0.5, (K, K)), 1)
    wins = wins + np.triu(4 - wins, 1).T
    for arm, (won, lost) in strengths.items():
        wins[arm, :], wins[:, arm] = won, lost
    for arm in strengths:
        for other in strengths:
            wins[arm, other] = 2
    np.fill_diagonal(wins, 0)
    return stats_from_wins(wins)


def cyclic(K, won, lost):
    """(n, w) of the regular tournament on an odd K: i beats i + 1 .. i + (K - 1) / 2 (mod K) won-lost."""
    wins = np.zeros((K, K))
    for i in range(K):
        for step in range(1, (K + 1) // 2):
            wins[i, (i + step) % K], wins[(i + step) % K, i] = won, lost
    return stats_from_wins(wins)


# name: ((n, w), range of P(the sampled tournament has a Condorcet winner)).
FIXED_STATES = {
    "K5_likely": (lambda: strong_arms(5, {1: (6, 0), 3: (5, 1)}), (0.8, 1.0)),
    "K5_rare": (lambda: cyclic(5, 12, 8), (0.05, 0.2)),
    "K16_likely": (lambda: strong_arms(16, {4: (10, 1), 11: (8, 2)}), (0.7, 0.9)),
    "K16_rare": (lambda: strong_arms(16, {4: (5, 3), 9: (6, 3)}), (0.02, 0.1)),
    "K200_likely": (lambda: strong_arms(200, {7: (20, 0), 150: (18, 1)}), (0.99, 1.0)),
    "K200_rare": (lambda: strong_arms(200, {7: (15, 5), 150: (14, 4)}), (0.05, 0.2)),
}


def winner_law(q):
    """P(arm i is the sampled Condorcet winner) for every i, with the pair {i, j}, i < j, voting for i
    with probability q[i, j] (as both samplers draw it)."""
    beats = np.triu(q, 1) + np.tril(1.0 - q.T, -1)
    np.fill_diagonal(beats, 1.0)
    return beats.prod(axis=1)


@njit(cache=False)
def _iid_selects(select, state, t, rng, champion_counts, pending, pairs):
    """``pairs.shape[0]`` selections at slot t, the champion counts reset to ``champion_counts`` and
    the draw left by skip to ``pending`` before each (so that they are i.i.d. draws of the fixed state)."""
    for k in range(pairs.shape[0]):
        state.champion_counts[:] = champion_counts
        state.skip_state[0]["pending"] = pending
        a1, a2 = select(state, t, rng)
        pairs[k, 0] = a1
        pairs[k, 1] = a2
    return pairs


def fixed_state_selects(n, w, params, seed, champion_counts, pending=NO_ARM):
    """(state, DRAWS selections (a1, a2) of RCS with ``params`` in the state (n, w)), each as the slot
    ending a run of ``pending`` if it is an arm."""
    spec = get_algorithm("rcs")
    state = spec.set_statistics(spec.make_state(n.shape[0], params=params), n, w)
    pairs = _iid_selects(spec.select, state, T_FIXED, np.random.default_rng(seed), champion_counts, pending,
                         np.zeros((DRAWS, 2), np.int64))
    return state, pairs


def goodness_of_fit_pvalue(sample, probabilities):
    """Chi-square goodness of fit of integer outcomes to ``probabilities`` (cells expected below 5 pooled)."""
    observed = np.bincount(sample, minlength=probabilities.size)
    expected = probabilities * sample.size
    keep = expected >= 5
    observed = np.append(observed[keep], observed[~keep].sum())
    expected = np.append(expected[keep], expected[~keep].sum())
    if expected[-1] < 5:  # the pooled rest is negligible: fold it into the largest cell
        observed[np.argmax(expected[:-1])] += observed[-1]
        expected[np.argmax(expected[:-1])] += expected[-1]
        observed, expected = observed[:-1], expected[:-1]
    return stats.chisquare(observed, expected * observed.sum() / expected.sum()).pvalue


@pytest.mark.parametrize("fallback", ["least-champion", "random"])
@pytest.mark.parametrize("state_name", sorted(FIXED_STATES))
def test_knockout_select_has_the_exact_law_in_fixed_states(state_name, fallback):
    """a1 of "knockout" against its exact law, and (a1, a2) against "indicators" (module docstring).
    The champion counts make arm K - 1 the least-often champion (the "least-champion" fallback)."""
    make, (low, high) = FIXED_STATES[state_name]
    n, w = make()
    K = n.shape[0]
    counts = np.arange(K, 0, -1, dtype=np.int64)
    state, fast = fixed_state_selects(n, w, {"sampling": "knockout", "fallback": fallback}, 21, counts)
    law = winner_law(state.above_half_prob)
    assert low <= law.sum() <= high, "the state is not what its name says"
    none = 1.0 - law.sum()
    if fallback == "random":
        expected = law + none / K
    else:
        expected = law.copy()
        expected[K - 1] += none
    assert goodness_of_fit_pvalue(fast[:, 0], expected) > ALPHA
    _, reference = fixed_state_selects(n, w, {"sampling": "indicators", "fallback": fallback}, 22, counts)
    assert pooled_pvalue([tuple(p) for p in fast], [tuple(p) for p in reference]) > ALPHA


@pytest.mark.parametrize("state_name,arm", [("K5_likely", 1), ("K5_likely", 3), ("K16_likely", 4),
                                            ("K16_likely", 11), ("K200_likely", 7), ("K200_likely", 150)])
def test_slot_ending_a_run_has_the_law_given_the_arm_lost(state_name, arm):
    """The slot ``skip`` leaves pending (``_first_loss``, then the knockout with those votes given): a1
    against its exact law given that ``arm`` is not the sampled Condorcet winner, P(a1 = i) =
    P(winner = i) / (1 - P(winner = arm)) for i != arm, the rest to the least-often champion K - 1
    (chi-square goodness of fit, DRAWS draws).  In these states the other strong arm is the winner in
    ~60-100 % of such slots, so the votes given to the knockout matter."""
    n, w = FIXED_STATES[state_name][0]()
    K = n.shape[0]
    state, pairs = fixed_state_selects(n, w, {"sampling": "knockout"}, 23, np.arange(K, 0, -1, dtype=np.int64), arm)
    law = winner_law(state.above_half_prob)
    given = law.copy()
    given[arm] = 0.0
    given[K - 1] += 1.0 - law.sum()
    assert not np.any(pairs[:, 0] == arm)
    assert goodness_of_fit_pvalue(pairs[:, 0], given / given.sum()) > ALPHA


def test_knockout_winner_kernel_on_random_probabilities():
    """The kernel alone at K = 6 on random q with extremes (0, 1 and near-ties): the law of its answer
    (winner or none) against ``winner_law``, 50000 draws, and never a winner that loses a certain pair."""
    rng0 = np.random.default_rng(5)
    K = 6
    q = np.triu(rng0.choice([0.0, 1.0, 0.5, 0.9, 0.3, 0.97], (K, K)), 1)
    q[0, 1:] = 0.9  # arm 0 is often the winner
    q = q + np.tril(1.0 - q.T, -1)
    law = winner_law(q)
    rng = np.random.default_rng(6)
    answers = np.array([knockout_winner(rng, q) for _ in range(50000)])
    outcomes = np.where(answers == NO_ARM, K, answers)
    assert goodness_of_fit_pvalue(outcomes, np.append(law, 1.0 - law.sum())) > ALPHA
    assert set(np.unique(answers)) <= set(np.flatnonzero(law > 0)) | {NO_ARM}


def crossing_column(K, arm, seed, t):
    """(n, w): every j != arm has lost to ``arm`` often enough that u_{j arm} < 1/2 at slot t, and
    reaches 1/2 at a random slot in about [t, 3t]; the other pairs are even (15 of 30)."""
    rng = np.random.default_rng(seed)
    n = np.full((K, K), 30.0)
    w = np.full((K, K), 15.0)
    for j in range(K):
        if j != arm:
            cross = math.log(t) + rng.uniform(0.0, math.log(3.0))
            n[j, arm] = n[arm, j] = rng.integers(50, 400)
            w[j, arm] = n[j, arm] * (0.5 - math.sqrt(0.51 * cross / n[j, arm]))
            w[arm, j] = n[j, arm] - w[j, arm]
    return n, w


@pytest.mark.parametrize("seed", range(6))
def test_run_end_is_the_last_slot_select_challenges_arm_by_itself(seed):
    """``last_slot_challenged_by_none`` against a scan of select's own challenger (direct_upper_column
    and the first-index argmax) from t on, for arms at the start, middle and end of K = 9."""
    t = 500
    for arm in (0, 4, 8):
        n, w = crossing_column(9, arm, seed * 10 + arm, t)
        column, every = np.zeros(9), np.ones(9, bool)
        limit = 3 * t
        s = t
        while s < limit and argmax_first(direct_upper_column(n, w, arm, math.log(s + 1), 0.51, column), every) == arm:
            s += 1
        assert argmax_first(direct_upper_column(n, w, arm, math.log(t), 0.51, column), every) == arm
        assert last_slot_challenged_by_none(n, w, arm, 0.51, t, limit) == s
        assert last_slot_challenged_by_none(n, w, arm, 0.51, t, max(t, s - 1)) == max(t, s - 1)


def settled_state(K, arm, seed, t):
    """A skip="exact" RCS state on ``crossing_column(K, arm, seed, t)``, with champion counts 5 except
    ``arm``'s 10 (so the least-often champion is not ``arm``)."""
    spec = get_algorithm("rcs")
    state = spec.make_state(K, params={"sampling": "knockout", "skip": "exact"})
    spec.set_statistics(state, *crossing_column(K, arm, seed, t))
    state.champion_counts[:] = 5
    state.champion_counts[arm] = 10
    return state


def window_walks(state, arm, t0, window, use_skip, seed, reps):
    """``reps`` walks of ``window`` slots from t0 in the frozen state, each from the same champion counts
    and as if slot t0 - 1 was a self-comparison of ``arm``: self-comparisons are updated (their
    diagonal), the first other pair ends the walk.  With ``use_skip``, skip is asked before a slot
    that follows a self-comparison, as the simulator does.  Returns (self-comparisons of ``arm``, first
    other pairs, slots skipped in total); checks that every walk advanced the champion counts by
    exactly its selections."""
    spec = get_algorithm("rcs")
    rng = np.random.default_rng(seed)
    start = state.champion_counts.copy()
    counts, firsts, skipped = [], [], 0
    for _ in range(reps):
        state.champion_counts[:] = start
        state.skip_state[0] = (NO_ARM, arm)
        t, end, count, first = t0, t0 + window - 1, 0, None
        while t <= end:
            if use_skip:
                slots, skipped_arm = skip(state, t, rng, end)
                if slots > 0:
                    assert skipped_arm == arm
                    count, skipped, t = count + slots, skipped + slots, t + slots
                    continue
            a1, a2 = spec.select(state, t, rng)
            if (a1, a2) != (arm, arm):
                first = (int(a1), int(a2))
                break
            spec.update(state, a1, a2, True, t)
            count, t = count + 1, t + 1
        advanced = state.champion_counts - start
        expected = np.zeros_like(advanced)
        expected[arm] += count
        if first is not None:
            expected[first[0]] += 1
        np.testing.assert_array_equal(advanced, expected)
        counts.append(count)
        firsts.append(str(first))
    state.champion_counts[:] = start
    return counts, firsts, skipped


@pytest.mark.parametrize("K,arm,seed", [(9, 4, 1), (9, 0, 2), (16, 15, 3)])
def test_skip_matches_slot_by_slot_in_frozen_states(K, arm, seed):
    """2000 walks each way (``window_walks``) of 40 slots from t0 = 5 in ``settled_state``: the arm is
    the sampled Condorcet winner with probability ~0.6-0.8 and its column turns (a u_{j arm} reaches
    1/2) between slots 5 and 15, so walks end both by a geometric draw and at the column's end.
    Chi-square of homogeneity on the number of self-comparisons (rare values pooled) and on the first
    other pair; skip must have skipped slots."""
    state = settled_state(K, arm, seed, 5)
    assert 0.5 < winner_law(state.above_half_prob)[arm] < 0.9
    fast_counts, fast_firsts, skipped = window_walks(state, arm, 5, 40, True, 41, 2000)
    assert skipped > 0, "the state chosen must be one where skip applies"
    ref_counts, ref_firsts, _ = window_walks(state, arm, 5, 40, False, 42, 2000)
    assert counts_pvalue(fast_counts, ref_counts) > ALPHA
    assert pooled_pvalue(fast_firsts, ref_firsts) > ALPHA


def test_skip_refuses_where_it_cannot_prove_the_law():
    """No run is drawn when the arm is the least-often champion (the fallback may pick it), with the
    random fallback, without a self-comparison before, or with a draw pending; nothing is changed."""
    arm = 4
    rng = np.random.default_rng(0)
    state = settled_state(9, arm, 1, 5)
    state.skip_state[0] = (NO_ARM, arm)
    assert skip(state, 5, rng, 40)[0] > 0
    for case in ("least", "random", "no_self", "pending"):
        state = settled_state(9, arm, 1, 5)
        if case == "random":
            state = state._replace(fallback=FALLBACKS["random"])
        if case == "least":
            state.champion_counts[arm] = 4
        state.skip_state[0] = (arm if case == "pending" else NO_ARM, NO_ARM if case == "no_self" else arm)
        before = [part.copy() for part in (state.champion_counts, state.comparisons, state.skip_state)]
        assert skip(state, 5, rng, 40) == (0, NO_ARM), case
        for now, then in zip((state.champion_counts, state.comparisons, state.skip_state), before, strict=True):
            np.testing.assert_array_equal(now, then)


def test_skip_needs_knockout():
    with pytest.raises(ValueError, match="skip='exact' of RCS needs sampling='knockout', got sampling='indicators'"):
        get_algorithm("rcs").make_state(4, params={"skip": "exact"})


@pytest.mark.parametrize(CASE_FIELDS, cases("rcs"))
def test_knockout_runs_match_indicators(algorithm, dataset, horizon, delay, reference, fast):
    """200 runs each against the default "indicators" without skipping (the same run indices, so the same
    shuffles), ``assert_same_law`` at family-wise level ALPHA: regret at 4 checkpoints and at T, g2w,
    self-comparison totals.  Condorcet problems (K = 5, 6, 16) and non-Condorcet ones (the fallback decides
    often), with the random fallback, with skipping and with delayed feedback (tests/same_law.py's CASES); the
    knockout changes some runs."""
    assert_fast_path_exact(algorithm, dataset, horizon, delay, reference, fast, ALPHA, must_change=True)


def test_knockout_runs_are_stored_under_their_stream_version():
    """"knockout" draws differently from "indicators": its stored config and line key carry stream
    version 1; the default's config and key are unchanged (the stored results stay valid)."""
    fast = Line(dataset="nc_cyclic", algorithm="rcs", horizon=1000, runs=1, params=(("sampling", "knockout"),))
    assert resolved_params(fast) == {"alpha": 0.51, "fallback": "least-champion", "sampling": "knockout",
                                     "sampling_stream": 1}
    unversioned = "rcs_p" + hashlib.sha1(json.dumps({"sampling": "knockout"}, sort_keys=True).encode()).hexdigest()[:10]
    assert line_key(fast) != unversioned + "_T1000"
    default = Line(dataset="nc_cyclic", algorithm="rcs", horizon=1000, runs=1)
    assert resolved_params(default) == {"alpha": 0.51, "fallback": "least-champion", "sampling": "indicators"}
    assert line_key(default) == "rcs_T1000"


def test_knockout_is_the_default_nowhere_and_rejected_values_are_named():
    spec = get_algorithm("rcs")
    assert spec.defaults["sampling"] == "indicators"
    with pytest.raises(ValueError, match="sampling must be one of 'indicators', 'direct', 'knockout', got 'fast'"):
        spec.make_state(4, params={"sampling": "fast"})
