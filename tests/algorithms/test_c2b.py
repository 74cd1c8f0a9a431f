"""C2B (docs/algorithms.md#c2b): slot-by-slot equality with the plain transcription, the batches its probe counts in
the simulator's loop, the exact schedule on deterministic matrices against the batch count the rule predicts, the
bound B on the batches started, the plan on hand-made states, what it does without a Condorcet winner, the
parameters, the recommendation, and a Condorcet winner that is never eliminated."""

import math

import numpy as np
import pytest
from scipy import stats

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.algorithms.base import INT64_MAX
from dts_reproduction.algorithms.c2b import C2B, C2B_SPEC, NO_ARM, c2b_batches_probe, c2b_recommendation
from dts_reproduction.core.simulate import LoopHooks, simulate
from dts_reproduction.data import load_dataset
from tests.reference.c2b_reference import ref_schedule, ref_trajectory
from tests.trajectories import kernel_trajectory, policy_trajectory

SPEC = C2B_SPEC
LEVEL = 1e-4  # false-alarm probability of the statistical test below
T = 3000


@pytest.mark.parametrize("dataset,params", [
    ("mslr5_condorcet", {}), ("sushi", {}), ("nc_cyclic", {"alpha": 0.1}), ("arxiv", {"batches": 4}),
    ("mslr16_condorcet", {"alpha": 0.05, "batches": 12})])
def test_trajectory_matches_transcription(dataset, params):
    P = load_dataset(dataset).P
    for seed in (1, 2):
        pairs, state = kernel_trajectory(SPEC, P, T, seed, params, horizon=T)
        ref_pairs, wins, started = ref_trajectory(P, T, seed, params.get("alpha", 0.5), params.get("batches"))
        assert pairs == ref_pairs
        assert state.wins.tolist() == wins
        assert state.counters["batch_index"][0] == started[-1]


def probed_batches(P, horizon, slots, seed):
    """The probe's count after ``slots`` slots of C2B (made for ``horizon``) on P in the simulator's loop."""
    state = SPEC.make_state(P.shape[0], horizon)
    counts = np.zeros(1, np.int64)
    K = P.shape[0]
    simulate(SPEC.select, SPEC.update, state, np.random.default_rng(seed), P, np.zeros(K), np.zeros(K),
             np.array([slots], np.int64), 1, np.zeros(1), np.zeros(1), np.zeros(K, np.int64),
             LoopHooks(probe=c2b_batches_probe, probe_rng=np.random.default_rng(0), probe_counts=counts))
    return int(counts[0])


@pytest.mark.parametrize("dataset", ["mslr5_condorcet", "nc_cyclic"])
def test_probe_counts_the_batches_the_transcription_starts(dataset):
    # The loop draws the algorithm's numbers and the outcome in the order of the transcription: after every slot
    # checked (the first batch's last slot, K (K - 1) / 2 pairs x 3, and the next one included), the probe holds the
    # number of batches the transcription has started.
    P = load_dataset(dataset).P
    K = P.shape[0]
    first_batch = K * (K - 1) // 2 * 3
    started = ref_trajectory(P, T, 4)[2]
    for slots in (1, first_batch, first_batch + 1, 1000, T):
        assert probed_batches(P, T, slots, 4) == started[slots - 1]
    assert started[-1] > started[first_batch] == 2 and started[first_batch - 1] == 1


def test_registered_and_policy_drives_the_same_functions():
    assert get_algorithm("c2b") is SPEC
    P = load_dataset("arxiv").P
    policy = C2B(6, seed=np.random.default_rng(5), horizon=800)
    assert policy_trajectory(policy, P, 800) == ref_trajectory(P, 800, 5)[0]


def deterministic_schedule(K, horizon, alpha):
    """What the rule predicts on a matrix whose duels are certain and whose arm 0 beats every other arm (a Condorcet
    winner of gap 1/2): batch 1 compares every pair; from batch 2 on, arm 0 is the undefeated candidate and only its
    K - 1 pairs are compared, until n_0j > 4 alpha ln(K^2 T) (1 - sqrt(alpha ln(K^2 T) / n) > 1/2) eliminates every
    other arm at once, whatever the order among them; the next batch is the exploitation of arm 0.  Returns (batches
    started, first slot of the exploitation)."""
    threshold = 4 * alpha * math.log(K * K * horizon)
    schedule = ref_schedule(horizon, max(1, math.ceil(math.log(horizon))))
    compared, slot, batch = 0, 0, 0
    while compared <= threshold:
        pairs = K * (K - 1) // 2 if batch == 0 else K - 1
        slot += pairs * schedule[batch]
        compared += schedule[batch]
        batch += 1
    return batch + 1, slot + 1


def certain_matrix(K, order):
    """P with certain duels: arm 0 beats all, then the others beat each other as ``order`` ranks them."""
    rank = {arm: position for position, arm in enumerate([0, *order])}
    return np.array([[0.5 if i == j else float(rank[i] < rank[j]) for j in range(K)] for i in range(K)])


@pytest.mark.parametrize("K,horizon,alpha", [(3, 10_000, 0.5), (5, 10**6, 0.5), (4, 2000, 2.0)])
def test_exact_schedule_on_a_deterministic_matrix(K, horizon, alpha):
    order = list(range(K - 1, 0, -1))
    P = certain_matrix(K, order)
    batches, exploit_from = deterministic_schedule(K, horizon, alpha)
    slots = exploit_from + 50
    pairs, state = kernel_trajectory(SPEC, P, slots, 3, {"alpha": alpha}, horizon=horizon)
    assert pairs[exploit_from - 2] != (0, 0) and set(pairs[exploit_from - 1:]) == {(0, 0)}
    assert state.counters["batch_index"][0] == batches
    assert state.active.tolist() == [True] + [False] * (K - 1)
    # (3, 1e4, 1/2) by hand: per pair 3, 7, 16 (q = 1e4^(1/10)); n_0j = 26 > 4 * 0.5 * ln(9e4) = 22.8 after batch 3;
    # slots 3 * 3 + 2 * 7 + 2 * 16 = 55; the exploitation is batch 4, from slot 56.
    if (K, horizon) == (3, 10_000):
        assert (batches, exploit_from) == (4, 56)
        assert pairs[:9] == [(0, 1)] * 3 + [(0, 2)] * 3 + [(1, 2)] * 3 and pairs[9:23] == [(0, 1)] * 7 + [(0, 2)] * 7


@pytest.mark.parametrize("dataset", ["mslr5_condorcet", "sushi", "nc_cyclic", "mslr16_condorcet"])
@pytest.mark.parametrize("batches", [None, 1, 3])
def test_batches_started_never_exceed_B(dataset, batches):
    # Batch r compares each of its pairs at least ceil(T^(r/B)) times, so batches 1..B fill T slots by themselves:
    # at most B batches start within the horizon, whatever the matrix (the paper's B rounds).
    P = load_dataset(dataset).P
    horizon = 20_000
    B = max(1, math.ceil(math.log(horizon))) if batches is None else batches
    for seed in (1, 2):
        state = kernel_trajectory(SPEC, P, horizon, seed, {"batches": batches}, horizon=horizon)[1]
        assert 1 <= state.counters["batch_index"][0] <= B


def state_with(wins, alpha=0.5, horizon=10_000):
    """A fresh C2B state on len(wins) arms with these wins, its first batch not yet planned."""
    state = SPEC.make_state(len(wins), horizon, {"alpha": alpha})
    state.wins[:] = wins
    return state


def planned(state, seed):
    """The pairs of the batch ``select`` plans on ``state`` (its first slot and the rest of its list)."""
    SPEC.select(state, 1, np.random.default_rng(seed))
    counters = state.counters[0]
    return [(int(state.pair_first[k]), int(state.pair_second[k])) for k in range(counters["pair_count"])]


def test_plan_on_a_hand_made_state():
    # K = 5.  Arm 4 is defeated confidently by arm 0 (60 of 60); the others' duels are close.  Arm 1 beats 2 and 3
    # (two arms) and arm 0 beats 1 and 2 (two arms): they tie for candidate; arm 3 beats arm 0 and nobody beats 3...
    # except arm 1: so no arm is undefeated.  The batch: the candidate's pairs with the arms it beats.
    wins = np.zeros((5, 5), np.int64)
    for winner, loser in ((0, 1), (0, 2), (1, 2), (1, 3), (3, 0), (2, 3)):
        wins[winner, loser], wins[loser, winner] = 6, 4
    wins[2, 3], wins[3, 2] = 5, 5  # a tie beats nobody
    wins[0, 4] = 60
    seen = {}
    for seed in range(40):
        state = state_with(wins)
        pairs = planned(state, seed)
        assert state.active.tolist() == [True, True, True, True, False]
        seen[int(state.counters["candidate"][0])] = pairs
    assert seen == {0: [(0, 1), (0, 2)], 1: [(1, 2), (1, 3)]}


def test_undefeated_arms_meet_every_active_arm():
    # Arm 2 beats arm 0 and is beaten by nobody; arm 0 beats 1 and 3 (the candidate); arm 1 beats 3.
    wins = np.zeros((4, 4), np.int64)
    for winner, loser in ((2, 0), (0, 1), (0, 3), (1, 3)):
        wins[winner, loser], wins[loser, winner] = 3, 2
    state = state_with(wins)
    assert planned(state, 0) == [(0, 1), (0, 2), (0, 3), (1, 2), (2, 3)]
    assert state.counters["candidate"][0] == 0 and state.counters["per_pair"][0] == 3


def test_the_candidate_is_uniform_among_ties():
    # Nothing compared: every arm beats nobody, all tie; the candidate is uniform over K = 4 (chi-square at LEVEL),
    # and the counts reject a law that favours arm 0.
    draws = 8000
    counts = np.zeros(4, np.int64)
    rng = np.random.default_rng(9)
    for _ in range(draws):
        state = SPEC.make_state(4, 100)
        SPEC.select(state, 1, rng)
        counts[state.counters["candidate"][0]] += 1
    assert stats.chisquare(counts).pvalue > LEVEL
    assert stats.chisquare(counts, np.array([1.3, 1, 1, 1]) / 4.3 * draws).pvalue < LEVEL


def test_without_a_condorcet_winner_it_runs_and_ends_on_one_arm():
    # A certain cycle 0 > 1 > 2 > 0 has no Condorcet winner: every arm is defeated by another.  Elimination in index
    # order never empties the active set (an arm is removed only by a still-active arm); C2B ends exploiting the one
    # arm left, which arm depending on the candidates drawn.
    P = np.array([[0.5, 1.0, 0.0], [0.0, 0.5, 1.0], [1.0, 0.0, 0.5]])
    ends = set()
    for seed in range(12):
        pairs, state = kernel_trajectory(SPEC, P, 2000, seed, horizon=2000)
        last = pairs[-1][0]
        assert pairs[-1] == (last, last) and state.active.tolist() == [arm == last for arm in range(3)]
        ends.add(last)
    assert len(ends) >= 2
    pairs, state = kernel_trajectory(SPEC, load_dataset("nc_cyclic").P, 20_000, 3, horizon=20_000)
    assert state.active.any() and all(0 <= a < 9 and 0 <= b < 9 for a, b in pairs)


def test_a_condorcet_winner_is_never_eliminated():
    # The radius is Hoeffding's at level 1 / (K^2 T) for alpha = 1/2: the winner is eliminated with probability
    # below K B / (K^2 T) per run.  On sushi (K = 16, gaps 0.10-0.31) and arxiv (K = 6, gaps 0.04-0.11), 20 runs of
    # T = 2e4: the winner stays active in every one, while other arms are eliminated in most (arxiv's small gaps
    # leave all six active in about one run of 40; the check is that elimination happens, so it is not vacuous).
    for dataset, winner in (("sushi", 7), ("arxiv", 0)):
        P = load_dataset(dataset).P
        states = [kernel_trajectory(SPEC, P, 20_000, seed, horizon=20_000)[1] for seed in range(20)]
        assert all(state.active[winner] for state in states)
        assert sum(not state.active.all() for state in states) >= 15


def test_update_rule():
    state = SPEC.make_state(3, 10)
    SPEC.update(state, 0, 2, True, 1)
    SPEC.update(state, 0, 2, False, 2)
    SPEC.update(state, 2, 1, True, 3)
    SPEC.update(state, 1, 1, True, 4)  # a self-duel counts nothing
    assert state.wins.tolist() == [[0, 0, 1], [0, 0, 0], [1, 1, 0]]


def test_recommended_arm_is_the_candidate():
    state = SPEC.make_state(3, 100)
    assert state.counters["candidate"][0] == NO_ARM and c2b_recommendation(state) == 0
    wins = np.zeros((3, 3), np.int64)
    wins[2, 0], wins[2, 1], wins[0, 1] = 3, 3, 3
    state = state_with(wins)
    planned(state, 0)
    assert c2b_recommendation(state) == 2


def test_large_K_and_horizon_do_not_overflow():
    # K = 500 at T = 1e9: batch 1 is every one of the 124,750 pairs, 3 times; the schedule ends at T.  B = 1 at
    # T = 2**62: one batch of 124,750 x 2**62 slots, whose length is capped at INT64_MAX.
    state = SPEC.make_state(500, 10**9)
    rng = np.random.default_rng(1)
    for t in range(1, 2001):
        a1, a2 = SPEC.select(state, t, rng)
        SPEC.update(state, a1, a2, rng.random() < 0.5, t)
    counters = state.counters[0]
    assert state.schedule[-1] == 10**9 and counters["pair_count"] == 124_750 and counters["per_pair"] == 3
    assert counters["batch_length"] == 3 * 124_750 and counters["issued"] == 2000
    state = SPEC.make_state(500, 2**62, {"batches": 1})
    SPEC.select(state, 1, rng)
    assert state.counters["per_pair"][0] == 2**62 and state.counters["batch_length"][0] == INT64_MAX


@pytest.mark.parametrize("name,value", [("alpha", 0.0), ("alpha", -1.0), ("alpha", float("nan")), ("alpha", "1"),
                                        ("alpha", True), ("batches", 0), ("batches", 1.5), ("batches", True),
                                        ("batches", "3")])
def test_bad_parameters_are_rejected(name, value):
    with pytest.raises(ValueError, match=name):
        SPEC.make_state(3, 100, {name: value})


def test_the_horizon_is_required():
    with pytest.raises(ValueError, match="needs the horizon"):
        SPEC.make_state(3)
    with pytest.raises(ValueError, match="needs the horizon"):
        C2B(3)
