"""Tests of RUCB, RCS and CCB (docs/algorithms.md#rucb, #rcs, #ccb).

Three tiers: exact behaviour on hand-made states; whole runs of the njit ``select`` in lockstep with a
plain-Python transcription of the as-run algorithm (tests/reference/; numba's Generator reproduces NumPy's streams
exactly, so the
two must make identical decisions slot by slot); seeded statistical checks.  Statistical tolerances are
5 binomial standard deviations, sqrt(N p (1 - p)), so a correct implementation fails with
probability below 1e-6 per check.
"""

import math

import numpy as np
import pytest

from dts_reproduction.algorithms.ccb import CCB, CCB_SPEC, _add_winners, _remove_non_winners, _reset_disproven
from dts_reproduction.algorithms.rcs import RCS, RCS_SPEC
from dts_reproduction.algorithms.rucb import NO_ARM, RUCB, RUCB_SPEC
from dts_reproduction.core.constants import ALPHA
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import run_one
from tests.reference.ccb_reference import RefCCB
from tests.reference.rcs_reference import RefRCS
from tests.reference.rucb_reference import RefRUCB


def assert_binomial(count, trials, p):
    """``count`` successes out of ``trials`` agree with probability ``p`` within 5 standard deviations."""
    assert abs(count - trials * p) <= 5.0 * math.sqrt(trials * p * (1.0 - p)), (count, trials, p)


def set_stats(spec, state, p_hat, count=1000.0):
    """Give a state of ``spec`` ``count`` comparisons per pair at ``p_hat`` (with the caches they imply)."""
    p_hat = np.asarray(p_hat, dtype=float)
    return spec.set_statistics(state, np.full(p_hat.shape, count), p_hat * count)


# Hand-made preference estimates (rows beat columns with these frequencies).
CONDORCET = [[.5, .8, .8, .8], [.2, .5, .7, .7], [.2, .3, .5, .7], [.2, .3, .3, .5]]
TIED_TOP3 = [[.5, .5, .5, .8], [.5, .5, .5, .8], [.5, .5, .5, .8], [.2, .2, .2, .5]]
CYCLE3 = [[.5, .9, .1], [.1, .5, .9], [.9, .1, .5]]


# --- Against the plain-Python transcriptions of tests/reference/ ----------------------------------

def lockstep(spec, ref, P, horizon, seed, params=None, warm=None):
    """Run the njit ``select``/``update`` and the reference side by side on the matrix P with the same
    algorithm stream and the same outcomes; assert identical pairs at every slot.  warm: optional
    initial (n, w) given to both."""
    state = spec.make_state(P.shape[0], None, params)
    if warm is not None:
        spec.set_statistics(state, *warm)
        ref.n[:], ref.w[:] = warm
    rng_alg, rng_ref, outcomes = (np.random.default_rng(s) for s in (seed, seed, seed + 1))
    for t in range(1, horizon + 1):
        a1, a2 = spec.select(state, t, rng_alg)
        assert (int(a1), int(a2)) == tuple(int(a) for a in ref.select(t, rng_ref)), f"slot {t}"
        won = outcomes.random() < (0.5 if a1 == a2 else P[a1, a2])
        spec.update(state, a1, a2, won, t)
        ref.update(a1, a2, won)
    return ref


@pytest.mark.parametrize("name", ["mslr5_condorcet", "nc_cyclic"])
@pytest.mark.parametrize("hypothesis", ["as-run", "original"])
def test_rucb_matches_reference(name, hypothesis):
    """The njit RUCB makes the reference's decisions at every slot."""
    P = load_dataset(name).P
    lockstep(RUCB_SPEC, RefRUCB(P.shape[0], hypothesis=hypothesis), P, 1500, 11, {"hypothesis": hypothesis})


@pytest.mark.parametrize("name", ["mslr5_condorcet", "nc_cyclic"])
@pytest.mark.parametrize("fallback", ["least-champion", "random"])
@pytest.mark.parametrize("sampling", ["indicators", "direct"])
def test_rcs_matches_reference(name, fallback, sampling):
    """The njit RCS makes the reference's decisions at every slot, with either way of sampling."""
    P = load_dataset(name).P
    params = {"fallback": fallback, "sampling": sampling}
    lockstep(RCS_SPEC, RefRCS(P.shape[0], **params), P, 1000, 12, params)


# Copeland winners 0 and 1 (3 wins each) with gaps of 0.4, so CCB's lists fill within 2000 slots.
STRONG5 = np.array([[.5, .9, .1, .9, .9], [.1, .5, .9, .9, .9], [.9, .1, .5, .1, .1],
                    [.1, .1, .9, .5, .9], [.1, .1, .9, .1, .5]])


def test_ccb_matches_reference():
    """The njit CCB makes the reference's decisions at every slot, through every maintenance branch."""
    ref = lockstep(CCB_SPEC, RefCCB(9), load_dataset("nc_cyclic").P, 1500, 13)
    events = ref.events
    # Warm start with 20 comparisons per pair at the true rates, except the pair {0, 1}, whose
    # estimate is reversed: hypotheses built on it are later disproven, which exercises the reset.
    warm_n = np.full((5, 5), 20.0)
    warm_w = STRONG5 * 20.0
    warm_w[0, 1], warm_w[1, 0] = 2.0, 18.0
    for seed in range(4):
        ref = lockstep(CCB_SPEC, RefCCB(5), STRONG5, 2000, 20 + seed, warm=(warm_n, warm_w))
        events = {key: events[key] + count for key, count in ref.events.items()}
    assert min(events.values()) > 0, events  # every branch of the maintenance was exercised


# --- RUCB: exact behaviour on hand-made states ---------------------------------------------------

def test_rucb_first_slot():
    """t = 1: every u is 10, so C = all arms, a1 is uniform and a2 the lowest index != a1 (docs/algorithms.md#rucb)."""
    K, trials = 5, 2500
    state = RUCB_SPEC.make_state(K)
    rng = np.random.default_rng(0)
    counts = np.zeros(K, int)
    for _ in range(trials):
        a1, a2 = RUCB_SPEC.select(state, 1, rng)
        assert a2 == (1 if a1 == 0 else 0)
        counts[a1] += 1
    assert state.hypothesis_arm[0] == NO_ARM
    for count in counts:
        assert_binomial(count, trials, 1 / K)


# C = {0, 1, 2} (pairs inside tied at 1/2, so u = 1/2 + width), arm 3 loses to all.  Probabilities of
# a1 given B: as-run, B wins 1/2, else a uniform position of C with B's position replaced by its
# predecessor (position 0 by C[1]); original, B wins 1/2, else uniform over C \ B.
B_CASES = [
    ("as-run", 0, [1 / 2, 1 / 3, 1 / 6]),
    ("as-run", 1, [1 / 3, 1 / 2, 1 / 6]),
    ("as-run", 2, [1 / 6, 1 / 3, 1 / 2]),
    ("original", 1, [1 / 4, 1 / 2, 1 / 4]),
    ("as-run", 3, [1 / 3, 1 / 3, 1 / 3]),
    ("original", 3, [1 / 3, 1 / 3, 1 / 3]),
    ("as-run", NO_ARM, [1 / 3, 1 / 3, 1 / 3]),
]


@pytest.mark.parametrize("hypothesis, b, probs", B_CASES)
def test_rucb_hypothesis(hypothesis, b, probs):
    """Distribution of a1 and the fate of B for |C| = 3 (docs/algorithms.md#rucb, as run and original)."""
    state = set_stats(RUCB_SPEC, RUCB_SPEC.make_state(4, None, {"hypothesis": hypothesis}), TIED_TOP3)
    state.hypothesis_arm[0] = b
    rng = np.random.default_rng(1)
    trials = 4000
    counts = np.zeros(4, int)
    for _ in range(trials):
        counts[RUCB_SPEC.select(state, 100, rng)[0]] += 1
    assert counts[3] == 0
    for count, p in zip(counts[:3], probs, strict=True):  # C = arms 0-2; arm 3 (outside C) is checked above
        assert_binomial(count, trials, p)
    # B outside C: the code keeps it (and would favour it again), the original drops it (docs/algorithms.md#rucb).
    expected_b = NO_ARM if (hypothesis == "original" and b == 3) else b
    assert state.hypothesis_arm[0] == expected_b


def test_rucb_single_and_empty_candidate_sets():
    """|C| = 1: a1 and B become its arm; |C| = 0 (a resolved 3-cycle): B is emptied, a1 uniform."""
    state = set_stats(RUCB_SPEC, RUCB_SPEC.make_state(4), CONDORCET)
    state.hypothesis_arm[0] = 2
    assert tuple(RUCB_SPEC.select(state, 100, np.random.default_rng(2))) == (0, 0)
    assert state.hypothesis_arm[0] == 0
    state = set_stats(RUCB_SPEC, RUCB_SPEC.make_state(3), CYCLE3)
    rng = np.random.default_rng(3)
    counts = np.zeros(3, int)
    for _ in range(1500):
        state.hypothesis_arm[0] = 1
        a1, a2 = RUCB_SPEC.select(state, 100, rng)
        assert state.hypothesis_arm[0] == NO_ARM and a2 == (a1 - 1) % 3  # the arm that beats a1
        counts[a1] += 1
    for count in counts:
        assert_binomial(count, 1500, 1 / 3)


# --- RCS ------------------------------------------------------------------------------------------

def test_rcs_least_champion_fallback():
    """A resolved 3-cycle never yields a sampled Condorcet winner (P(Beta(901, 101) < 1/2) ~ 1e-160),
    so a1 is the least-often champion, lowest index on ties, and a2 the arm that beats it."""
    state = set_stats(RCS_SPEC, RCS_SPEC.make_state(3), CYCLE3)
    state.champion_counts[:] = [3, 1, 2]
    rng = np.random.default_rng(4)
    pairs = [tuple(int(a) for a in RCS_SPEC.select(state, 100, rng)) for _ in range(7)]
    assert [a1 for a1, _ in pairs] == [1, 1, 2, 0, 1, 2, 0]
    assert all(a2 == (a1 - 1) % 3 for a1, a2 in pairs)
    assert list(state.champion_counts) == [5, 4, 4]


def test_rcs_random_fallback_and_sampled_winner():
    """fallback="random" picks a uniform arm; a sampled Condorcet winner is always the champion."""
    state = set_stats(RCS_SPEC, RCS_SPEC.make_state(3, None, {"fallback": "random"}), CYCLE3)
    rng = np.random.default_rng(5)
    counts = np.zeros(3, int)
    for _ in range(1500):
        counts[RCS_SPEC.select(state, 100, rng)[0]] += 1
    for count in counts:
        assert_binomial(count, 1500, 1 / 3)
    assert list(state.champion_counts) == list(counts)
    # Arm 0 beats every arm at 0.8 over 1000 comparisons: it always wins the sampled tournament.
    state = set_stats(RCS_SPEC, RCS_SPEC.make_state(4), CONDORCET)
    assert [tuple(RCS_SPEC.select(state, 100, rng)) for _ in range(5)] == [(0, 0)] * 5
    assert list(state.champion_counts) == [5, 0, 0, 0]


def test_rcs_first_slot_challenger():
    """t = 1: every u is 10, so a2 is the lowest index != a1."""
    state = RCS_SPEC.make_state(4)
    rng = np.random.default_rng(6)
    for _ in range(50):
        a1, a2 = RCS_SPEC.select(state, 1, rng)
        assert a2 == (1 if a1 == 0 else 0)


# --- CCB ------------------------------------------------------------------------------------------

def test_ccb_first_slot_self_comparison():
    """t = 1: every arm is "added as a winner" with Lbar = 0 and no challenger qualifies, so CCB
    plays (a1, a1) with a1 uniform (docs/algorithms.md#ccb)."""
    rng = np.random.default_rng(7)
    counts = np.zeros(4, int)
    for _ in range(2000):
        state = CCB_SPEC.make_state(4)
        a1, a2 = CCB_SPEC.select(state, 1, rng)
        assert a1 == a2 and state.max_losses[0] == 0 and state.in_winners.all() and not state.challenger_lens.any()
        counts[a1] += 1
    for count in counts:
        assert_binomial(count, 2000, 1 / 4)


def ccb_lists(K, lists):
    """(lists array, lens) holding the given challenger lists."""
    array, lens = np.zeros((K, K), np.int64), np.zeros(K, np.int64)
    for i, items in enumerate(lists):
        array[i, : len(items)] = items
        lens[i] = len(items)
    return array, lens


LOG_T = 2.0


def switches(bounds):
    """Switch times (``core.bounds``) at which the hand-made bound values ``bounds`` hold at ln t = LOG_T:
    the upper table (u >= 1/2 iff LOG_T >= entry) and the lower one (l >= 1/2 iff LOG_T <= entry)."""
    bounds = np.asarray(bounds, dtype=float)
    upper = np.where(bounds > 0.5, -np.inf, np.where(bounds == 0.5, LOG_T, np.inf))
    lower = np.where(bounds > 0.5, np.inf, np.where(bounds == 0.5, LOG_T, -np.inf))
    return upper, lower


@pytest.mark.parametrize("l12, reset", [(0.6, True), (0.5, False), (0.4, False)])
def test_ccb_reset_disproven(l12, reset):
    """Step 2: 2 in B^1 with l_12 > 1/2 disproves the hypothesis and resets B, every B^i and Lbar."""
    L = np.full((3, 3), 0.3)
    L[1, 2] = l12
    ints, in_b = np.array([1]), np.array([True, False, False])
    lists, lens = ccb_lists(3, [[], [2], [0, 1]])
    _reset_disproven(switches(L)[1], LOG_T, ints, in_b, lists, lens)
    if reset:
        assert ints[0] == 3 and in_b.all() and not lens.any()
    else:
        assert ints[0] == 1 and list(in_b) == [True, False, False] and list(lens) == [0, 1, 2]


def test_ccb_remove_non_winners():
    """Step 3: arms with cu < max cl leave B; their lists are rebuilt unless of length Lbar + 1."""
    U = np.array([[.5, .9, .9, .9], [.4, .5, .9, .9], [.3, .4, .5, .6], [.3, .6, .2, .5]])
    cu, cl = np.array([3, 2, 1, 1]), np.array([2, 0, 1, 0])  # m = 2: arms 2 and 3 go
    ints, in_b = np.array([1]), np.ones(4, bool)
    lists, lens = ccb_lists(4, [[], [], [3, 1], []])
    _remove_non_winners(switches(U)[0], LOG_T, cu, cl, ints, in_b, lists, lens)
    assert list(in_b) == [True, True, False, False]
    assert list(lens) == [0, 0, 2, 2]
    assert list(lists[2, :2]) == [3, 1]  # |B^2| = Lbar + 1: kept as it is
    assert list(lists[3, :2]) == [0, 2]  # recomputed as {k : u_3k < 1/2}
    in_b[:] = [False, False, True, False]  # removing the last potential winner resets
    _remove_non_winners(switches(U)[0], LOG_T, cu, cl, ints, in_b, lists, lens)
    assert ints[0] == 4 and in_b.all() and not lens.any()


def test_ccb_add_winners():
    """Step 4: a known Copeland winner joins B, sets Lbar, and the other lists are emptied or cut."""
    cu, cl = np.array([3, 2, 3, 1]), np.array([3, 1, 2, 0])
    in_c = cu == cu.max()  # C = {0, 2}; only arm 0 has cu = cl, so Lbar = 4 - 1 - 3 = 0
    rng = np.random.default_rng(8)
    kept = np.zeros(4, int)
    for _ in range(1500):
        ints, in_b = np.array([2]), np.array([False, True, True, True])
        lists, lens = ccb_lists(4, [[1, 2], [0, 2, 3], [3], []])
        _add_winners(rng, cu, cl, in_c, ints, in_b, lists, lens)
        assert ints[0] == 0 and in_b.all() and list(lens) == [0, 1, 1, 0] and lists[2, 0] == 3
        kept[lists[1, 0]] += 1
    for arm in (0, 2, 3):  # a uniform element of B^1 survives the cut
        assert_binomial(kept[arm], 1500, 1 / 3)
    # Lbar = 4 - 1 - 1 = 2: a list shorter than 3 is emptied, one of length 3 kept in order.
    cu, cl = np.array([1, 1, 0, 0]), np.array([1, 0, 0, 0])
    ints, in_b = np.array([0]), np.zeros(4, bool)
    lists, lens = ccb_lists(4, [[], [0], [3, 0, 1], [0]])
    _add_winners(rng, cu, cl, cu == 1, ints, in_b, lists, lens)
    assert ints[0] == 2 and list(in_b) == [True, False, False, False]
    assert list(lens) == [0, 0, 3, 0] and list(lists[2, :3]) == [3, 0, 1]


def test_ccb_select_on_resolved_condorcet_state():
    """Arm 0 is a resolved Condorcet winner: the other arms leave B with their challenger lists cut to
    Lbar + 1 = 1 element, and CCB plays (0, 0)."""
    state = set_stats(CCB_SPEC, CCB_SPEC.make_state(4), CONDORCET)
    assert tuple(CCB_SPEC.select(state, 100, np.random.default_rng(9))) == (0, 0)
    ints, in_b, lists, lens = state.max_losses, state.in_winners, state.challengers, state.challenger_lens
    assert ints[0] == 0 and list(in_b) == [True, False, False, False] and list(lens) == [0, 1, 1, 1]
    assert lists[1, 0] == 0 and lists[2, 0] in (0, 1) and lists[3, 0] in (0, 1, 2)


# --- Parameters and the Policy wrappers -----------------------------------------------------------

@pytest.mark.parametrize("spec, params, message", [
    (RUCB_SPEC, {"hypothesis": "paper"}, "hypothesis"), (RCS_SPEC, {"fallback": "uniform"}, "fallback"),
    (CCB_SPEC, {"alpha": -1.0}, "alpha must be a finite number > 0"),
    (RUCB_SPEC, {"alpha": float("nan")}, "alpha must be a finite number > 0"),
])
def test_bad_parameters(spec, params, message):
    """Unknown choices and invalid alpha raise ValueError naming the parameter."""
    with pytest.raises(ValueError, match=message):
        spec.make_state(4, None, params)


@pytest.mark.parametrize("policy", [RUCB, RCS, CCB])
def test_policy_matches_simulated_algorithm(policy):
    """The live Policy wrapper makes the same decisions as the njit functions with the same seed."""
    P = load_dataset("mslr5_condorcet").P
    live = policy(5, seed=3)
    state, rng, outcomes = policy.spec.make_state(5), np.random.default_rng(3), np.random.default_rng(4)
    for t in range(1, 200):
        a1, a2 = live.select()
        assert (a1, a2) == tuple(int(a) for a in policy.spec.select(state, t, rng))
        won = bool(outcomes.random() < P[a1, a2])
        live.update(a1, a2, won)
        policy.spec.update(state, a1, a2, won, t)


# --- Behaviour on the paper's matrices ------------------------------------------------------------

SPECS = [RUCB_SPEC, RCS_SPEC, CCB_SPEC]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_settles_on_condorcet_winner(spec):
    """MSLR K=5: over the second half of T = 2e4 slots, most slots are self-comparisons of the
    Condorcet winner (original arm 0).  Infinite-horizon runs with the same seed are prefixes of each
    other, so the second half is the difference of a T and a T/2 run.  Over 6 seeds the share was
    0.85-0.99 for each algorithm; 0.75 on the mean of 3 runs leaves room for seed-to-seed spread."""
    ds, T = load_dataset("mslr5_condorcet"), 20000
    params = spec.resolve_params({})
    shares = []
    for run in range(3):
        half = run_one(ds, spec, params, T // 2, run, seed=1, checkpoints=np.array([T // 2]))
        full = run_one(ds, spec, params, T, run, seed=1, checkpoints=np.array([T // 2, T]))
        assert full["regret"][0] == half["regret"][0]
        shares.append((full["self_counts"][0] - half["self_counts"][0]) / (T / 2))
    assert np.mean(shares) > 0.75, shares


@pytest.mark.parametrize("spec, linear", [(RUCB_SPEC, True), (RCS_SPEC, True), (CCB_SPEC, False)],
                         ids=["rucb", "rcs", "ccb"])
def test_regret_growth_without_condorcet_winner(spec, linear):
    """Non-Condorcet Cyclic: RUCB and RCS assume a Condorcet winner and pay regret linearly (second
    half of T = 2e4 costs as much as the first: ratio ~1.0 over 6 seeds), CCB does not (ratio 0.2-0.35).
    The per-slot regret is bounded by 1, so the ratio of two ~1e4-slot sums moves by a few percent
    between seeds for the linear algorithms; 0.9 and 0.6 are far from both regimes."""
    ds, T = load_dataset("nc_cyclic"), 20000
    ratios = []
    for run in range(3):
        regret = run_one(ds, spec, spec.resolve_params({}), T, run, seed=1,
                         checkpoints=np.array([T // 2, T]))["regret"]
        ratios.append((regret[1] - regret[0]) / regret[0])
    if linear:
        assert min(ratios) > 0.9, ratios
    else:
        assert max(ratios) < 0.6, ratios


def test_set_statistics_only_where_caches_are_known():
    """Warm starts are offered by the algorithms that can rebuild their caches; others refuse clearly."""
    state = set_stats(CCB_SPEC, CCB_SPEC.make_state(3), CYCLE3)
    switch = 1000 * 0.4**2 / ALPHA  # p-hat 0.9 (0.1 reversed): l_01 >= 1/2, u_10 < 1/2 until this ln t
    assert state.upper_switch[0, 1] == -np.inf and state.lower_switch[0, 1] == pytest.approx(switch, rel=1e-9)
    assert state.upper_switch[1, 0] == pytest.approx(switch, rel=1e-9) and state.lower_switch[1, 0] == -np.inf
    from dts_reproduction.algorithms import get_algorithm
    rmed = get_algorithm("rmed1")
    with pytest.raises(ValueError, match="algorithm 'rmed1' does not support setting its statistics"):
        rmed.set_statistics(rmed.make_state(3), np.ones((3, 3)), np.ones((3, 3)))
