"""CW-RMED (docs/algorithms.md#cw-rmed): slot-by-slot equality with the plain transcription (explicit alternatives,
scipy's HiGHS), the program's optimum and feasibility against the transcription along runs where its optimum is not
unique, the dense simplex against scipy, hand-made programs, the options, the live Policy and the recommendation."""

import math

import numpy as np
import pytest
from scipy.optimize import linprog

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.algorithms.cw_rmed import CW_RMED_SPEC, CWRMED
from dts_reproduction.algorithms.cw_rmed_program import (
    cheapest_alternative,
    confident_winner,
    covering_program,
    optimal_allocation,
)
from dts_reproduction.core.kl import kl_clamped
from dts_reproduction.core.pairs import index_of_pair
from dts_reproduction.core.simplex import solve_covering
from dts_reproduction.data import load_dataset
from tests.reference.cw_rmed_reference import alternatives, ref_trajectory, solve_program
from tests.trajectories import kernel_trajectory, policy_trajectory

SPEC = CW_RMED_SPEC


# (matrix, seed) pairs on which no program of the first 2000 slots has two optimal allocations (an exact tie of two
# pairs' r / KL); where one has, the simplex and HiGHS may return different optima (test_program_optimum_along_a_run).
@pytest.mark.parametrize("dataset,seed", [
    ("mslr5_condorcet", 1), ("mslr5_condorcet", 2), ("arxiv", 1), ("cyclic", 1), ("cyclic", 2),
    ("nc_strong_borda", 1)])
def test_trajectory_matches_transcription(dataset, seed):
    P = load_dataset(dataset).P
    pairs, _ = kernel_trajectory(SPEC, P, 2000, seed)
    ref_pairs, ref = ref_trajectory(P, 2000, seed)
    assert len(ref.objectives) > 1000  # most slots solve the program: the comparison reaches it
    assert pairs == ref_pairs


def _statistics(P, counts, rng):
    """(n, p, KLc(p, 1/2), losses) of ``counts`` comparisons of every pair drawn from P."""
    K = P.shape[0]
    n = np.full((K, K), float(counts))
    np.fill_diagonal(n, 0.0)
    w = np.zeros((K, K))
    for i in range(1, K):
        for j in range(i):
            w[i, j] = rng.binomial(counts, P[i, j])
            w[j, i] = counts - w[i, j]
    p = np.full((K, K), 0.5)
    off = n > 0
    p[off] = w[off] / n[off]
    kl = np.vectorize(lambda v: kl_clamped(v, 0.5))(p)
    return n, p, kl, (p > 0.5).sum(axis=0).astype(np.int64)


@pytest.mark.parametrize("dataset", ["mslr5_noncondorcet", "arxiv", "nc_strong_borda", "cyclic"])
def test_program_optimum_and_feasibility_against_enumeration(dataset):
    # Random empirical matrices: the simplex's optimum equals HiGHS's on the explicit alternatives, its allocation
    # meets every alternative, and cheapest_alternative is the cheapest of the enumerated sets.
    P = load_dataset(dataset).P
    rng = np.random.default_rng(3)
    for counts in (3, 5, 9, 20, 60):
        n, p, kl, losses = _statistics(P, counts, rng)
        for i1 in np.flatnonzero(losses == losses.min()):
            A, b, c = covering_program(p, kl, losses, i1)
            x, objective = solve_covering(A, b, c)
            value, _ = solve_program(p.tolist(), int(i1))
            assert objective == pytest.approx(value, rel=1e-9, abs=1e-12)
            evidence = np.zeros_like(p)
            for i in range(1, len(p)):
                for j in range(i):
                    evidence[i, j] = evidence[j, i] = x[index_of_pair(i, j)]
            sets = alternatives(p.tolist(), int(i1))
            assert min(sum(evidence[e] for e in F) for F in sets) >= 1 - 1e-9
            assert cheapest_alternative(evidence, p, losses, i1) == pytest.approx(
                min(sum(evidence[e] for e in F) for F in sets), rel=1e-12)


def test_program_optimum_along_a_run_with_tied_costs():
    # On mslr5_noncondorcet (seed 2) two pairs tie exactly in r / KL at slot 130, so the optimum is a segment and the
    # slot-by-slot comparison stops there; every program of the run still has the transcription's optimal value.
    P = load_dataset("mslr5_noncondorcet").P
    state = SPEC.make_state(5, None, None)
    rng = np.random.default_rng(2)
    checked = 0
    for t in range(1, 1500):
        a1, a2 = SPEC.select(state, t, rng)
        SPEC.update(state, a1, a2, rng.random() < P[a1, a2], t)
        if t % 7 == 0 and state.counters[0]["pending"]:
            q = np.zeros((5, 5))
            w = optimal_allocation(state.p_hat, state.kl_half, state.losses, q)
            value, _ = solve_program(state.p_hat.tolist(), int(w))
            mask = state.p_hat != 0.5
            r = (state.losses[:, None] + state.losses[None, :] - 2 * state.losses.min()) / 8.0
            assert np.sum(np.tril(r * q * mask, -1)) == pytest.approx(value, rel=1e-9, abs=1e-12)
            checked += 1
    assert checked > 100


def test_simplex_against_scipy():
    rng = np.random.default_rng(0)
    infeasible = 0
    for _ in range(300):
        m, n = rng.integers(1, 14, size=2)
        A = rng.integers(-2, 4, size=(m, n)).astype(float) * (rng.random((m, n)) < 0.6)
        b = rng.integers(0, 3, size=m).astype(float)
        c = rng.random(n) * (rng.random(n) < 0.8)
        x, objective = solve_covering(A, b, c)
        res = linprog(c, A_ub=-A, b_ub=-b, bounds=[(0, None)] * n, method="highs")
        if res.status == 2:
            infeasible += 1
            assert objective == math.inf and np.isnan(x).all()
            continue
        assert objective == pytest.approx(res.fun, rel=1e-9, abs=1e-12)
        assert np.all(A @ x >= b - 1e-9) and c @ x == pytest.approx(objective, rel=1e-9, abs=1e-12)
    assert 0 < infeasible < 300


def _three_arms(p10, p20, p21):
    p = np.array([[0.5, p10, p20], [1 - p10, 0.5, p21], [1 - p20, 1 - p21, 0.5]])
    return p, np.vectorize(lambda v: kl_clamped(v, 0.5))(p), (p > 0.5).sum(axis=0).astype(np.int64)


def test_program_on_a_hand_made_condorcet_matrix():
    # 0 beats 1 and 2, 1 beats 2: L = (0, 1, 2), r_10 = 1/4, r_20 = 2/4, r_21 = 3/4.  Arm 1 needs 2 flips: the pair
    # {0, 1} alone counts twice, so x_10 >= 1; arm 2 needs 3: {0, 2} twice plus one of {0, 1}, {1, 2}, so
    # x_20 + min(x_10, x_21) >= 1.  With x_10 = 1 the cheaper of x_20 = 1 (cost r_20 / d_20) and x_21 = 1 is taken.
    p, kl, losses = _three_arms(0.7, 0.8, 0.6)
    q = np.zeros((3, 3))
    assert optimal_allocation(p, kl, losses, q) == 0
    assert q[1, 0] == pytest.approx(1 / kl[1, 0], rel=1e-12) and q[2, 0] == pytest.approx(1 / kl[2, 0], rel=1e-12)
    assert q[2, 1] == 0.0
    p, kl, losses = _three_arms(0.7, 0.51, 0.9)  # now x_21 is the cheaper: 0.75 / d(0.9) < 0.5 / d(0.51)
    optimal_allocation(p, kl, losses, q)
    assert q[2, 1] == pytest.approx(1 / kl[2, 1], rel=1e-12) and q[2, 0] == 0.0
    A, b, c = covering_program(p, kl, losses, 0)
    # rows: x_10 >= 1; x_20 + t - s_10 - s_21 >= 1 and s_e - t + x_e >= 0 for the items {0, 1}, {1, 2} of arm 2;
    # columns: the three pairs, t and the two slacks
    assert A.shape == (4, 6) and A[1, index_of_pair(2, 0)] == 1.0 and A[1, 3] == 1.0


def test_confidence_on_hand_made_states():
    p, kl, losses = _three_arms(0.7, 0.8, 0.6)
    n = np.full((3, 3), 100.0)
    # the cheapest alternative: the evidence on {0, 1} alone (it counts twice for arm 1), 100 d(0.7) / lam
    lam = 100 * kl[1, 0] * 0.999
    assert confident_winner(n, p, kl, lam, losses) == 0
    assert confident_winner(n, p, kl, lam / 0.998, losses) == -1
    assert cheapest_alternative(n * kl / lam, p, losses, 0) == pytest.approx(min(
        sum(n[e] * kl[e] / lam for e in F) for F in alternatives(p.tolist(), 0)), rel=1e-12)


@pytest.mark.parametrize("params", [{"alpha": -1}, {"alpha": 0}, {"beta": math.inf}, {"beta": "x"}])
def test_bad_parameters_refused_in_one_line(params):
    with pytest.raises(ValueError) as error:
        SPEC.make_state(5, None, params)
    assert "\n" not in str(error.value) and next(iter(params)) in str(error.value)


def test_registered_and_policy_drives_the_same_functions():
    assert get_algorithm("cw_rmed") is SPEC
    P = load_dataset("cyclic").P
    policy = CWRMED(4, seed=np.random.default_rng(5))
    assert policy_trajectory(policy, P, 600) == ref_trajectory(P, 600, 5)[0]
    assert policy.best_arm() == int(np.argmax((policy.state.p_hat > 0.5).sum(axis=1)))


def test_more_arms_than_its_limit_are_refused_in_one_line_before_anything_runs():
    """K = 9 is made; K = 10 is refused with the limit and the way out named (the cost model could not bound it)."""
    assert SPEC.make_state(9, None, {}).comparisons.shape == (9, 9)
    with pytest.raises(ValueError) as error:
        SPEC.make_state(10, None, {})
    message = str(error.value)
    assert "\n" not in message and "CW-RMED runs with at most 9 arms here, got K = 10" in message
    assert "ecw_rmed" in message


@pytest.mark.parametrize("dataset,same", [("mslr5_condorcet", True), ("cyclic", True), ("strong_borda", True),
                                          ("gap", True), ("nc_strong_borda", True), ("mslr5_noncondorcet", True),
                                          ("nc_cyclic", False), ("arxiv", False)])
def test_program_constant_is_the_exact_copeland_bound_where_the_theorem_applies(dataset, same):
    """C*(P), CW-RMED's program on the true matrix, against the lower-bound module's exact Copeland bound (constraint
    generation over flips: another implementation of the same alternatives): equal on every matrix with one Copeland
    winner and no tie; on Non-Condorcet Cyclic (several Copeland winners: the program asks the candidate to be no
    winner, the bound every winner) it is larger, on ArXiv (a tied pair, left out of the program's alternatives and
    free in the bound's) smaller."""
    from dts_reproduction.algorithms.cw_rmed_program import program_constant
    from dts_reproduction.reproduce.studies.lower_bound import copeland_lower_bound_and_exactness
    P = load_dataset(dataset).P
    constant, bound = program_constant(P), copeland_lower_bound_and_exactness(P)[0]
    if same:
        assert constant == pytest.approx(bound, rel=1e-9)
    else:
        assert abs(constant - bound) > 0.05 * bound


def test_program_true_takes_step_6_from_the_true_matrix_and_needs_it():
    """Option program="true" (a yardstick): the state holds the true program's allocation and candidate, which the
    simulator's ``from_problem`` hands over as the run's matrix; without it, or with another choice, one ValueError
    naming the value."""
    from dts_reproduction.algorithms.cw_rmed_program import optimal_allocation
    P = load_dataset("cyclic").P
    params = CW_RMED_SPEC.problem_params({"program": "true"}, load_dataset("cyclic"))
    state = CW_RMED_SPEC.make_state(4, params=params)
    kl = np.array([[kl_clamped(P[i, j], 0.5) if i != j else 0.0 for j in range(4)] for i in range(4)])
    expected = np.zeros((4, 4))
    assert state.true_winner == optimal_allocation(P, kl, (P.T > 0.5).sum(axis=1).astype(np.int64), expected) == 0
    assert np.allclose(state.allocation, expected) and expected.sum() > 0
    assert CW_RMED_SPEC.make_state(4).true_winner == -1
    assert CW_RMED_SPEC.problem_params({"program": "estimated"}, load_dataset("cyclic")) == {"program": "estimated"}
    with pytest.raises(ValueError, match="program='true' needs the true matrix, 4 x 4"):
        CW_RMED_SPEC.make_state(4, params={"program": "true"})
    with pytest.raises(ValueError, match="program must be one of"):
        CW_RMED_SPEC.make_state(4, params={"program": "oracle"})
