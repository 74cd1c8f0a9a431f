"""The bound's oracle (algorithms/oracle.py; docs/asymptotic.md#the-oracle-that-plays-the-bounds-allocation).

* its partners are the bound's: ``core.bound_allocation.optimal_partners`` against the definition written out in
  plain Python, on every packaged Condorcet matrix and on random ones;
* its rule, slot by slot, is the module doc's, against a plain-Python policy fed the same outcomes;
* its skip is exact: frozen walks (slot by slot against skip + select, from states reached by runs and from states
  whose evidence puts the end of a run near t = 1e15) give the same self-comparisons, the same next pair and the same
  state; whole runs with and without the skip have the same law (tests/same_law.py's CASES);
* the simulator hands it the partners in the run's arm order (a shuffled run compares only each arm with its
  partner, in the matrix's labels);
* its regret per ln t reaches the bound C with the optimal partners and the winner constant C_w with the winner as
  partner (the claim A6 of the study, checked here on small matrices to T = 1e12);
* bad input is refused with a line naming it.
"""

import math

import numpy as np
import pytest

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.algorithms.oracle import evidence_of
from dts_reproduction.core.bound_allocation import optimal_partners
from dts_reproduction.core.simulate import simulate
from dts_reproduction.core.skipping import first_slot_reaching
from dts_reproduction.data import dataset_names, load_dataset
from dts_reproduction.reproduce.harness.runner import Line, line_key, resolved_params, run_one, validate_line
from dts_reproduction.reproduce.studies.lower_bound import condorcet_lower_bound, winner_constant
from tests.same_law import CASE_FIELDS, assert_fast_path_exact, cases

SPEC = get_algorithm("oracle")
ALPHA = 1e-3
CONDORCET = [name for name in sorted(dataset_names()) if load_dataset(name).has_condorcet_winner]


def kl_half(p: float) -> float:
    """KL(Bernoulli(p) || Bernoulli(1/2)), 0 ln 0 = 0."""
    return sum(q * math.log(2 * q) for q in (p, 1 - p) if q > 0)


def reference_partners(P) -> list:
    """The definition: for each non-winner i, the arm j with P[i][j] < 1/2 of least (zeta* - (zeta_i + zeta_j) / 2)
    / KL(P[i][j], 1/2), the first on ties; -1 for the winner."""
    K = len(P)
    zeta = [sum(P[i][j] > 0.5 for j in range(K)) / (K - 1) for i in range(K)]
    partners = []
    for i in range(K):
        ratios = {j: (max(zeta) - (zeta[i] + zeta[j]) / 2) / kl_half(P[i][j]) for j in range(K) if P[i][j] < 0.5}
        partners.append(-1 if zeta[i] == 1.0 else min(ratios, key=lambda j: (ratios[j], j)))
    return partners


def random_condorcet_matrix(K: int, rng) -> np.ndarray:
    """A K x K preference matrix whose arm 0 beats every other arm, the other pairs uniform on (0.05, 0.95)."""
    P = np.full((K, K), 0.5)
    for i in range(K):
        for j in range(i + 1, K):
            P[i, j] = rng.uniform(0.52, 0.95) if i == 0 else rng.uniform(0.05, 0.95)
            P[j, i] = 1.0 - P[i, j]
    return P


@pytest.mark.parametrize("name", CONDORCET)
def test_partners_are_the_definition_on_every_condorcet_matrix(name):
    P = load_dataset(name).P
    assert optimal_partners(P).tolist() == reference_partners(P.tolist())


def test_partners_are_the_definition_on_random_matrices():
    rng = np.random.default_rng(5)
    moved = 0
    for _ in range(200):
        P = random_condorcet_matrix(int(rng.integers(3, 9)), rng)
        partners = optimal_partners(P)
        assert partners.tolist() == reference_partners(P.tolist())
        moved += int(((partners > 0)).sum())
    assert moved > 50, "the random matrices must often give a partner other than the winner"


def oracle_state(P, partner, skip="off"):
    """A fresh oracle state for P with the partners the simulator derives (``from_problem``)."""
    params = SPEC.problem_params(SPEC.resolve_params({"partner": partner, "skip": skip}), None, P)
    return SPEC.make_state(P.shape[0], params=params)


class ReferenceOracle:
    """The module doc's rule in plain Python: compare (b(i), i) for the first non-winner i whose evidence
    n KL(w / n, 1/2) (0 unless b(i) won more than half) is at most ln t, else the winner with itself."""

    def __init__(self, partners):
        self.partners = list(partners)
        self.n = [0] * len(partners)
        self.w = [0] * len(partners)

    def evidence(self, i):
        """S_i of the module doc."""
        n, w = self.n[i], self.w[i]
        return n * kl_half(w / n) if n and w / n > 0.5 else 0.0

    def select(self, t):
        """The pair of slot t."""
        for i, b in enumerate(self.partners):
            if b != i and self.evidence(i) <= math.log(t):
                return b, i
        winner = next(i for i, b in enumerate(self.partners) if b == i)
        return winner, winner

    def update(self, a1, a2, a1_won):
        """Count a comparison of (b(i), i)."""
        if a1 != a2:
            self.n[a2] += 1
            self.w[a2] += a1_won


@pytest.mark.parametrize("partner", ["optimal", "winner"])
def test_rule_is_the_module_doc_slot_by_slot(partner):
    rng = np.random.default_rng(8)
    P = random_condorcet_matrix(6, rng)
    state = oracle_state(P, partner)
    reference = ReferenceOracle(state.partners.tolist())
    compared = 0
    for t in range(1, 20001):
        pair = SPEC.select(state, t, rng)
        assert tuple(pair) == reference.select(t), f"slot {t}"
        won = bool(rng.random() < P[pair])
        SPEC.update(state, pair[0], pair[1], won, t)
        reference.update(pair[0], pair[1], won)
        compared += pair[0] != pair[1]
    assert 100 < compared < 19000, "both kinds of slots must occur"


def copy_state(state):
    """A deep copy of a NamedTuple state."""
    return type(state)(*(np.copy(part) if isinstance(part, np.ndarray) else part for part in state))


def walk(state, t0, end, use_skip):
    """Slots t0 .. end from ``state``: select (and, with ``use_skip``, the skip before every slot that follows a
    self-comparison, as the simulator asks it) until the first pair of two different arms.  Returns (self-comparisons,
    that pair or (-1, -1)); the state holds the self-comparisons."""
    rng = np.random.default_rng(0)
    count, t = 0, t0
    while t <= end:
        if use_skip:
            slots, _ = SPEC.skip(state)(state, t, rng, end)
            count, t = count + slots, t + slots
            if t > end:
                break
        a1, a2 = SPEC.select(state, t, rng)
        if a1 != a2:
            return count, (a1, a2)
        SPEC.update(state, a1, a2, True, t)
        count, t = count + 1, t + 1
    return count, (-1, -1)


def assert_walks_agree(state, t0, end):
    """The walks with and without the skip from ``state`` over t0 .. end agree exactly (self-comparisons, next
    pair, every field of the state); returns the self-comparisons."""
    plain, fast = copy_state(state), copy_state(state)
    expected, got = walk(plain, t0, end, False), walk(fast, t0, end, True)
    assert got == expected, f"t0 = {t0}, end = {end}"
    for name in state._fields:
        assert np.array_equal(np.asarray(getattr(plain, name)), np.asarray(getattr(fast, name))), name
    return expected[0]


@pytest.mark.parametrize("partner", ["optimal", "winner"])
def test_frozen_walks_from_states_of_a_run(partner):
    """From the state a run reached at 20 slots T from 1e3 to 1e7 (the compiled loop, slot by slot), a walk of up
    to 5e4 slots with and without the skip."""
    rng = np.random.default_rng(2)
    P = load_dataset("strong_borda").P
    skipped = ended_early = 0
    for T in np.unique(np.logspace(3, 7, 20).astype(np.int64)):
        state = oracle_state(P, partner, skip="exact")
        zeta = np.zeros(P.shape[0])
        simulate(SPEC.select, SPEC.update, state, np.random.default_rng(int(T)), P, zeta, zeta, np.array([T]), 1,
                 np.zeros(1), np.zeros(1), np.zeros(P.shape[0], np.int64))
        end = int(T) + 1 + int(rng.integers(1, min(30 * T, 50_000)))
        count = assert_walks_agree(state, int(T) + 1, end)
        skipped += count
        ended_early += count < end - T
    assert skipped > 5_000 and ended_early > 5, "the walks must skip, and some must end at a comparison"


def test_frozen_walks_where_a_run_ends_near_1e15():
    """States whose least evidence is ln t for some t near 1e15: walks from up to 40 slots before that boundary, and
    from it, end at the slot the float test of ``select`` names, with and without the skip."""
    P = load_dataset("cyclic").P
    base = oracle_state(P, "optimal", skip="exact")
    for n, won in ((40, 38), (60, 57), (110, 97)):
        state = copy_state(base)
        arm = 1
        partner = int(state.partners[arm])
        state.comparisons[partner, arm] = state.comparisons[arm, partner] = n
        state.wins[partner, arm], state.wins[arm, partner] = won, n - won
        state.evidence[:] = np.where(np.arange(4) == state.winner, math.inf, 1e3)
        state.evidence[arm] = evidence_of(float(n), float(won))
        boundary = first_slot_reaching(state.evidence[arm], 0.0)  # the first t with ln t >= S
        assert 1e8 < boundary < 2**53
        for offset in range(0, 41, 7):
            count = assert_walks_agree(state, boundary - offset, boundary + 5)
            assert count == offset, "the run must end where ln t first reaches the evidence"


@pytest.mark.parametrize(CASE_FIELDS, cases("oracle"))
def test_skipping_runs_match_slot_by_slot(algorithm, dataset, horizon, delay, reference, fast):
    """With and without the skip, 200 runs each: the same law (``same_law.assert_same_law`` at family-wise level
    ALPHA), and the skip changed the runs."""
    assert_fast_path_exact(algorithm, dataset, horizon, delay, reference, fast, ALPHA, must_change=True)


@pytest.mark.parametrize("partner", ["optimal", "winner"])
def test_a_shuffled_run_compares_each_arm_with_its_partner(partner):
    dataset = load_dataset("cyclic")
    result = run_one(dataset, SPEC, {"partner": partner, "skip": "exact"}, 10**6, 3, 1, comparisons=True)
    assert not np.array_equal(result["permutation"], np.arange(dataset.K)), "the run must be shuffled"
    winner = dataset.condorcet_winner
    partners = optimal_partners(dataset.P) if partner == "optimal" else np.full(dataset.K, winner)
    expected = np.zeros((dataset.K, dataset.K), bool)
    for i in range(dataset.K):
        if i != winner:
            expected[i, partners[i]] = expected[partners[i], i] = True
    assert np.array_equal(result["comparisons"] > 0, expected)


@pytest.mark.parametrize("dataset,partner", [("cyclic", "optimal"), ("cyclic", "winner"),
                                             ("strong_borda", "optimal"), ("strong_borda", "winner")])
def test_slope_reaches_the_bound_of_its_allocation(dataset, partner):
    """1000 runs to T = 1e12: the mean slope of R(t) against ln t over [1e6, 1e12] (past the first comparisons, whose
    constant cancels in the difference) is within 4 standard errors of C (optimal partners) or C_w (the winner), and
    the test can tell the two apart (4 standard errors are below a tenth of the target; C_w / C is 9 on both
    matrices)."""
    data = load_dataset(dataset)
    target = condorcet_lower_bound(data.P) if partner == "optimal" else winner_constant(data.P)
    slopes = []
    for run in range(1000):
        result = run_one(data, SPEC, {"partner": partner, "skip": "exact"}, 10**12, run, 4,
                         checkpoints=np.array([10**6, 10**12]))
        slopes.append((result["regret"][1] - result["regret"][0]) / math.log(10**6))
    mean, se = np.mean(slopes), np.std(slopes, ddof=1) / math.sqrt(len(slopes))
    assert 4 * se < 0.1 * target
    assert abs(mean - target) < 4 * se, f"slope {mean:.3f} +- {se:.3f}, target {target:.3f}"


def test_bad_input_is_refused_with_its_value():
    with pytest.raises(ValueError, match="'nc_cyclic' has no Condorcet winner"):
        validate_line(Line(dataset="nc_cyclic", algorithm="oracle", horizon=1000, runs=1))
    with pytest.raises(ValueError, match="partner must be one of 'optimal', 'winner', got 'best'"):
        validate_line(Line(dataset="cyclic", algorithm="oracle", horizon=1000, runs=1, params=(("partner", "best"),)))
    with pytest.raises(ValueError, match="the oracle needs partners"):
        SPEC.make_state(4)
    with pytest.raises(ValueError, match=r"partners must be 4 arm indices in 0..3, got \[0, 0, 1, 7\]"):
        SPEC.make_state(4, params={"partners": np.array([0, 0, 1, 7])})
    with pytest.raises(ValueError, match="exactly one arm as its own partner .* got 2"):
        SPEC.make_state(4, params={"partners": np.array([0, 1, 1, 2])})


def test_partners_are_derived_not_stored():
    """The stored line records the chosen ``partner`` (when not the default) and the skip, never the derived array."""
    optimal = Line(dataset="cyclic", algorithm="oracle", horizon=300, runs=2)
    winner = Line(dataset="cyclic", algorithm="oracle", horizon=300, runs=2, params=(("partner", "winner"),))
    assert line_key(optimal) == "oracle_T300" and resolved_params(optimal) == {"partner": "optimal", "partners": None}
    assert line_key(winner).startswith("oracle_p") and resolved_params(winner)["partner"] == "winner"
    validate_line(winner)
