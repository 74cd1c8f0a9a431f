"""MergeDTS and MergeRUCB (docs/algorithms.md#mergedts, #mergerucb): whole runs of the njit kernels in lockstep
with the plain-Python transcription of tests/reference/merge_reference.py (the same decisions at every slot, through
one-arm merges, pruning and stage merges), the laws of a pair drawn from a fixed state against exact
probabilities, the pruning law, the Condorcet winner's survival, a non-Condorcet run, parameters and the
Policy classes.  Binomial checks allow 5 standard deviations and chi-square checks a p-value of 1e-5, so a
correct implementation fails a check with probability below 1e-5."""

import itertools
import math

import numpy as np
import pytest
from scipy import integrate, stats

from dts_reproduction.algorithms import MergeDTS, MergeRUCB
from dts_reproduction.algorithms.merge_dts import MERGE_DTS_SPEC, merge_survivor, refresh_prob_above
from dts_reproduction.algorithms.merge_rucb import MERGE_RUCB_SPEC
from dts_reproduction.core.merge_batches import build_batches, new_batches, prune_one
from dts_reproduction.core.simulate import simulate
from dts_reproduction.data import dataset_from_matrix, load_dataset
from dts_reproduction.reproduce.harness.runner import run_one
from tests.reference.merge_reference import RefMerge

SPECS = {"merge_dts": MERGE_DTS_SPEC, "merge_rucb": MERGE_RUCB_SPEC}
CHI2_LEVEL = 1e-5


def lockstep(name, P, horizon, seed, **params):
    """Run the njit select/update and the reference side by side on P (the same algorithm stream, the same
    outcomes) and assert the same pair at every slot; returns the reference (its events) and the state."""
    spec = SPECS[name]
    state = spec.make_state(P.shape[0], None, params)
    ref = RefMerge(P.shape[0], name, **spec.resolve_params(params))
    rng, rng_ref, outcomes = (np.random.default_rng(s) for s in (seed, seed, seed + 1))
    for t in range(1, horizon + 1):
        a1, a2 = spec.select(state, t, rng)
        assert (int(a1), int(a2)) == tuple(int(a) for a in ref.select(rng_ref)), f"slot {t}"
        won = outcomes.random() < (0.5 if a1 == a2 else P[a1, a2])
        spec.update(state, a1, a2, won, t)
        ref.update(int(a1), int(a2), won, rng_ref)
    survivors = sorted(int(a) for a in state.batch_arms[: state.tree[0]["survivors"]])
    assert survivors == sorted(a for batch in ref.batches for a in batch)
    assert state.tree[0]["stage"] == ref.stage and state.tree[0]["batches"] == len(ref.batches)
    return ref, state


# A Condorcet matrix with wide gaps (arm 0 beats every arm at 0.8, the others in a fixed order at 0.7), so
# that a few thousand slots prune arms and end stages.
def wide_condorcet(K):
    """p_0j = 0.8; p_ij = 0.7 for 0 < i < j."""
    upper = np.triu(np.full((K, K), 0.7), 1)
    upper[0, 1:] = 0.8
    return upper + np.tril(1.0 - upper.T, -1) + 0.5 * np.eye(K)


LOCKSTEP_CASES = [
    ("merge_dts", {}), ("merge_dts", {"theta": "antisymmetric"}), ("merge_dts", {"second_arm": "challenger"}),
    ("merge_dts", {"clock": "run", "batch_size": 2}), ("merge_rucb", {}), ("merge_rucb", {"clock": "run"}),
    ("merge_rucb", {"batch_size": 3}),
]


@pytest.mark.parametrize("name, params", LOCKSTEP_CASES)
@pytest.mark.parametrize("K, batch_size", [(5, 2), (16, 4)])
def test_matches_reference_through_merges_and_stages(name, params, K, batch_size):
    """Slot by slot equal to the reference on K = 5 (batches of 2, 2 and 1 unless the case sets M) and
    K = 16 (M = 4), small C (clock from 2), through pruning, one-arm merges, stage merges and clock resets.
    At K = 5 MergeDTS merges every pruned batch's last arm into the next batch and is down to one batch
    before a stage can end, so there the one-arm merges are required instead of a stage merge.  With
    second_arm="challenger" a batch's leader mostly plays itself (15000 slots prune nothing), so that case
    checks only the pairs, self-comparisons and others (the machinery is the same for every case)."""
    P = wide_condorcet(K)
    events = dict.fromkeys(("prune", "single", "stage", "self", "other"), 0)
    for seed in range(3):
        ref, _ = lockstep(name, P, 4000, 100 + seed, C=1.0, **{"batch_size": batch_size, **params})
        events = {key: events[key] + ref.events[key] for key in events}
    needed = ("prune", "stage" if K == 16 or name == "merge_rucb" else "single")
    if params.get("second_arm") == "challenger":
        needed = ("self", "other")
    assert min(events[key] for key in needed) > 0, events


def test_one_arm_batches_are_merged_as_run():
    """MergeDTS merges a one-arm batch into the next one (K = 5, M = 4: batches of 4 and 1)."""
    ref, _ = lockstep("merge_dts", wide_condorcet(5), 50, 7, C=1.0)
    assert ref.events["single"] > 0


def test_the_paper_matrices_match_the_reference():
    """The MSLR K = 16 matrices (the Condorcet and the non-Condorcet one), default C, 3000 slots."""
    for dataset in ("mslr16_condorcet", "mslr16_noncondorcet"):
        P = load_dataset(dataset).P
        for name in SPECS:
            lockstep(name, P, 3000, 5)


# --- Laws of the pair from a fixed state ---------------------------------------------------------

# Three arms in one batch (M = 4); C = 1000 keeps every u_ij far above 1/2 (no pruning).
WINS3 = np.array([[1.0, 9.0, 4.0], [3.0, 1.0, 7.0], [5.0, 2.0, 1.0]])


def fixed_state(spec, params):
    """A three-arm state with the wins WINS3 (and, with sampling="indicators", their q; its batch is built at
    the first select)."""
    state = spec.make_state(3, None, {"C": 1000.0, **params})
    state.wins[:] = WINS3
    if params.get("sampling") == "indicators":
        for i, j in itertools.combinations(range(3), 2):
            refresh_prob_above(state.prob_above, state.wins, i, j)
    return state


def draw_pairs(spec, state, draws, seed):
    """Counts of the pairs (a1, a2) over ``draws`` selects from ``state`` (no update)."""
    rng = np.random.default_rng(seed)
    counts = np.zeros((3, 3), np.int64)
    for t in range(1, draws + 1):
        a1, a2 = spec.select(state, t, rng)
        counts[a1, a2] += 1
    return counts


def above_half(i, j):
    """P(Beta(W_ij, W_ji) > 1/2)."""
    return stats.beta.sf(0.5, WINS3[i, j], WINS3[j, i])


def first_candidate_law(theta):
    """P(a_c = i): every configuration of the votes 1(theta_ij > 1/2), ties shared uniformly."""
    pairs = [(i, j) for i in range(3) for j in range(3) if i < j or (theta == "independent" and i != j)]
    law = np.zeros(3)
    for outcome in itertools.product((False, True), repeat=len(pairs)):
        prob, votes = 1.0, np.zeros(3)
        for (i, j), up in zip(pairs, outcome, strict=True):
            q = above_half(i, j)
            prob *= q if up else 1.0 - q
            votes[i if up else j] += theta == "antisymmetric" or up
        top = np.flatnonzero(votes == votes.max())
        law[top] += prob / len(top)
    return law


def second_candidate_law(c, rule):
    """P(a_d = d | a_c = c) with theta'_i ~ Beta(W_ic, W_ci): the argmin over i != c ("loser"), or the argmax
    with theta'_c = 1/2 ("challenger")."""
    i, j = (k for k in range(3) if k != c)
    dist = {k: stats.beta(WINS3[k, c], WINS3[c, k]) for k in (i, j)}
    law = np.zeros(3)
    if rule == "loser":
        law[i] = integrate.quad(lambda x: dist[i].pdf(x) * dist[j].sf(x), 0, 1)[0]
        law[j] = 1.0 - law[i]
    else:
        for a, b in ((i, j), (j, i)):
            law[a] = integrate.quad(lambda x, a=a, b=b: dist[a].pdf(x) * dist[b].cdf(x), 0.5, 1)[0]
        law[c] = dist[i].cdf(0.5) * dist[j].cdf(0.5)
    return law


@pytest.mark.parametrize("theta", ["independent", "antisymmetric"])
@pytest.mark.parametrize("second_arm", ["loser", "challenger"])
@pytest.mark.parametrize("sampling", ["direct", "indicators"])
def test_merge_dts_pair_law(theta, second_arm, sampling):
    """The joint law of (a_c, a_d) from a fixed state equals the exact one (chi-square, 20000 draws), with the
    Beta draws and with the votes drawn as indicators."""
    params = {"theta": theta, "second_arm": second_arm, "sampling": sampling}
    counts = draw_pairs(MERGE_DTS_SPEC, fixed_state(MERGE_DTS_SPEC, params), 20000, 1)
    first = first_candidate_law(theta)
    expected = np.array([[first[c] * second_candidate_law(c, second_arm)[d] for d in range(3)] for c in range(3)])
    keep = expected.ravel() > 0
    assert counts.ravel()[~keep].sum() == 0
    assert stats.chisquare(counts.ravel()[keep], expected.ravel()[keep] * counts.sum()).pvalue > CHI2_LEVEL


def test_the_two_theta_rules_differ():
    """The exact first-candidate laws of the two theta rules differ, so the law test tells them apart."""
    assert np.abs(first_candidate_law("independent") - first_candidate_law("antisymmetric")).max() > 0.02


def test_indicators_keep_q_up_to_date():
    """sampling="indicators": after a run every q_ij is P(Beta(W_ij, W_ji) > 1/2) of the final wins."""
    state = MERGE_DTS_SPEC.make_state(6, None, {"C": 1.0, "sampling": "indicators"})
    rng, P = np.random.default_rng(6), wide_condorcet(6)
    for t in range(1, 3001):
        a1, a2 = MERGE_DTS_SPEC.select(state, t, rng)
        MERGE_DTS_SPEC.update(state, a1, a2, rng.random() < P[a1, a2], t)
    off = ~np.eye(6, dtype=bool)
    assert (state.wins[off] > 1).sum() > 10
    np.testing.assert_allclose(state.prob_above[off], stats.beta.sf(0.5, state.wins, state.wins.T)[off], rtol=1e-9)


def test_merge_rucb_pair_law():
    """a_c uniform over the batch, a_d = argmax_{i != a_c} u_{i a_c} (no tie with WINS3)."""
    counts = draw_pairs(MERGE_RUCB_SPEC, fixed_state(MERGE_RUCB_SPEC, {}), 6000, 2)
    for c in range(3):
        N = WINS3 + WINS3.T
        u = WINS3[:, c] / N[:, c] + 1.0 / np.sqrt(N[:, c])  # the radius is the same for every i: its order
        u[c] = -np.inf
        d = int(np.argmax(u))
        assert counts[c].sum() == counts[c, d]
        assert abs(counts[c, d] - 2000) <= 5 * math.sqrt(6000 * 2 / 9)


def test_merge_rucb_breaks_ties_uniformly():
    """At the start every u_{i a_c} is equal: a_d is uniform over the other arms (K = 4, one batch)."""
    counts = np.zeros((4, 4), np.int64)
    rng = np.random.default_rng(3)
    for _ in range(4000):
        state = MERGE_RUCB_SPEC.make_state(4)
        a1, a2 = MERGE_RUCB_SPEC.select(state, 1, rng)
        counts[a1, a2] += 1
    assert np.trace(counts) == 0
    assert stats.chisquare(counts[~np.eye(4, dtype=bool)]).pvalue > CHI2_LEVEL


def test_pruning_law():
    """Pairs (1, 0), (2, 0), (2, 1) have u < 1/2: arm 1 leaves with probability 1/3, arm 2 with 2/3."""
    wins = np.array([[1.0, 900.0, 900.0], [100.0, 1.0, 900.0], [100.0, 100.0, 1.0]])
    removed = np.zeros(3, np.int64)
    rng = np.random.default_rng(4)
    for _ in range(3000):
        arms, starts, tree, *_ = new_batches(3, 2)
        build_batches(rng, arms, starts, tree, 4)
        assert prune_one(rng, wins, arms, starts, tree, 0, math.sqrt(1.01 * math.log(2)))
        removed[sorted(set(range(3)) - set(arms[:2].tolist()))[0]] += 1
    assert removed[0] == 0
    assert abs(removed[1] - 1000) <= 5 * math.sqrt(3000 * 2 / 9)


# --- Whole runs ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(SPECS))
def test_condorcet_winner_survives_pruning(name):
    """MSLR K = 16 Condorcet, the authors' parameters except C = 1e3 (so that T = 3e5 prunes): in each of 4
    runs arms are pruned, the Condorcet winner survives and is the recommended arm."""
    ds, spec, horizon = load_dataset("mslr16_condorcet"), SPECS[name], 300_000
    for run in range(4):
        perm = np.random.default_rng(run).permutation(ds.K)
        state, P = spec.make_state(ds.K, None, {"C": 1e3}), np.ascontiguousarray(ds.P[np.ix_(perm, perm)])
        winner = int(np.flatnonzero(perm == ds.condorcet_winner)[0])
        simulate(spec.select, spec.update, state, np.random.default_rng(10 + run), P, np.zeros(ds.K), np.zeros(ds.K),
                 np.array([horizon]), 1, np.zeros(1), np.zeros(1), np.zeros(ds.K, np.int64))
        survivors = state.batch_arms[: state.tree[0]["survivors"]]
        assert len(survivors) < ds.K and winner in survivors and merge_survivor(state) == winner, (run, survivors)


def test_non_condorcet_run():
    """A 3-cycle (no Condorcet winner): every arm is beaten by another, so pruning can remove any of them;
    the batch never empties and MergeDTS ends playing its one survivor (docs/algorithms.md#mergedts)."""
    cycle = dataset_from_matrix(np.array([[.5, .9, .1], [.1, .5, .9], [.9, .1, .5]]), "cycle3")
    res = run_one(cycle, MERGE_DTS_SPEC, {"C": 1.0}, 20000, 0, 1, checkpoints=np.array([10000, 20000]))
    assert res["self_counts"].sum() > 9000 and np.count_nonzero(res["self_counts"]) == 1


# --- Parameters, presets and the Policy classes --------------------------------------------------

@pytest.mark.parametrize("params, message", [
    ({"alpha": 0.4}, r"C from its formula needs alpha > 0.5, got alpha = 0.4"),
    ({"alpha": -1.0}, r"alpha must be a finite number > 0, got -1.0"),
    ({"batch_size": 1}, r"batch_size must be an integer >= 2, got 1"),
    ({"batch_size": 4.0}, r"batch_size must be an integer >= 2, got 4.0"),
    ({"C": -1.0}, r"C must be None \(its formula\) or a finite number >= 0, got -1.0"),
    ({"C": "big"}, r"C must be None \(its formula\) or a finite number >= 0, got 'big'"),
    ({"C": 1e30}, r"C is 1e\+30: its clock floor\(C \+ 1\) would exceed"),
    ({"alpha": 0.5000001}, r"C = .* with alpha = 0.5000001 is inf"),
    ({"epsilon": 0.0}, r"epsilon must be a finite number > 0, got 0.0"),
    ({"clock": "global"}, r"clock must be one of 'stage', 'run', got 'global'"),
])
@pytest.mark.parametrize("name", sorted(SPECS))
def test_bad_parameters(name, params, message):
    with pytest.raises(ValueError, match=message):
        SPECS[name].make_state(8, None, params)


@pytest.mark.parametrize("params, message", [
    ({"theta": "paired"}, r"theta must be one of 'independent', 'antisymmetric', got 'paired'"),
    ({"second_arm": "winner"}, r"second_arm must be one of 'loser', 'challenger', got 'winner'"),
    ({"sampling": "fast"}, r"sampling must be one of 'direct', 'indicators', got 'fast'"),
])
def test_bad_merge_dts_options(params, message):
    with pytest.raises(ValueError, match=message):
        MergeDTS(8, **params)


def test_clock_start_from_the_formula():
    """C = ((4 alpha - 1) K^2 / ((2 alpha - 1) epsilon))^(1 / (2 alpha - 1)): about 4.07e6 at K = 136."""
    state = MERGE_DTS_SPEC.make_state(136)
    C = (3.04 * 136**2 / (1.02 * 0.01)) ** (1 / 1.02)
    assert state.clock_start == math.floor(C + 1) and 4.0e6 < C < 4.1e6
    assert MERGE_RUCB_SPEC.make_state(136, None, {"C": 4e5}).clock_start == 400_001


@pytest.mark.parametrize("policy", [MergeDTS, MergeRUCB])
def test_policy_matches_simulated_algorithm(policy):
    P = wide_condorcet(6)
    live = policy(6, seed=3, C=1.0)
    state = policy.spec.make_state(6, None, {"C": 1.0})
    rng, outcomes = np.random.default_rng(3), np.random.default_rng(4)
    assert live.best_arm() == 0  # before any comparison: every arm ties, the lowest wins
    for t in range(1, 2000):
        a1, a2 = live.select()
        assert (a1, a2) == tuple(int(a) for a in policy.spec.select(state, t, rng))
        won = bool(outcomes.random() < P[a1, a2])
        live.update(a1, a2, won)
        policy.spec.update(state, a1, a2, won, t)
    assert live.best_arm() == 0


def test_delay_runs():
    """Feedback every 100 slots: the batches still shrink and the regret stays far below T/2."""
    res = run_one(dataset_from_matrix(wide_condorcet(8), "wide8"), MERGE_DTS_SPEC, {"C": 1.0}, 20000, 0, 1, delay=100)
    assert res["final"] < 2000
