"""The asymptotic regret lower bounds of reproduce/studies/lower_bound.py against closed forms, a brute-force LP and
the program over every alternative, enumerated."""

import json
import math
from itertools import combinations, product

import numpy as np
import pytest
from scipy.optimize import linprog

from dts_reproduction.core.bound_allocation import kl_to_half
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.studies.lower_bound import (
    TIE_TOLERANCE,
    Family,
    condorcet_lower_bound,
    copeland_groups,
    copeland_lower_bound_and_exactness,
    lower_bound_lp,
    pair_regrets,
    regret_lower_bound,
)
from dts_reproduction.reproduce.studies.lower_bound_cache import CACHE_NAME, lower_bound
from tests.scripts import run_script


def copeland_lower_bound(P, **limits) -> float:
    """The Copeland-model constant C alone (``copeland_lower_bound_and_exactness``, with its ``limits``)."""
    return copeland_lower_bound_and_exactness(P, **limits)[0]


def random_matrix(K, seed):
    """A random preference matrix with every p_ij at least 0.02 away from 1/2."""
    rng = np.random.default_rng(seed)
    upper = rng.uniform(0.02, 0.48, (K, K)) * rng.choice([-1, 1], (K, K)) + 0.5
    P = np.triu(upper, 1)
    return P + np.tril(1 - P.T, -1) + 0.5 * np.eye(K)


def pair_costs(P):
    """(index of pair (i, j) with i < j, cost r_e / KL(p_e, 1/2) per pair, informative mask)."""
    K = P.shape[0]
    iu, ju = np.triu_indices(K, 1)
    index = {(int(i), int(j)): e for e, (i, j) in enumerate(zip(iu, ju, strict=True))}
    informative = np.abs(P[iu, ju] - 0.5) > TIE_TOLERANCE
    with np.errstate(divide="ignore", invalid="ignore"):
        cost = np.where(informative, pair_regrets(P)[iu, ju] / kl_to_half(P)[iu, ju], 0.0)
    return index, cost, informative


def solve(cost, informative, rows):
    """min cost . x over x >= 0 (0 on ties) with every row . x >= 1; inf if infeasible, 0 without rows."""
    if not rows:
        return 0.0
    bounds = [(0, None) if ok else (0, 0) for ok in informative]
    result = linprog(cost, A_ub=-np.array(rows), b_ub=-np.ones(len(rows)), bounds=bounds, method="highs")
    return math.inf if result.status == 2 else result.fun


def brute_force_lp(P, groups):
    """The families' program with one explicit constraint per alternative (tiny K only)."""
    index, cost, informative = pair_costs(P)
    rows = []
    for family in groups:
        for subset in combinations(family.optional, family.k):
            row = np.zeros(cost.size)
            row[[index[p] for p in [*family.forced, *subset]]] = 1.0
            rows.append(row)
    return solve(cost, informative, rows)


def winners(P):
    scores = (P > 0.5).sum(axis=1)
    return set(np.flatnonzero(scores == scores.max()).tolist())


def every_alternative_lp(P):
    """The Copeland-model program over every alternative, enumerated: each strict pair kept or flipped,
    each tie left, given to i or given to j; an outcome whose winners are disjoint from P's is an
    alternative, constraining the x of its flipped strict pairs (K <= 5)."""
    index, cost, informative = pair_costs(P)
    pairs = list(index)
    options = [("keep", "flip") if informative[index[p]] else ("keep", "i", "j") for p in pairs]
    rows, old = [], winners(P)
    for choice in product(*options):
        Q = P.copy()
        for (i, j), option in zip(pairs, choice, strict=True):
            if option == "flip":
                Q[i, j], Q[j, i] = 1.0 - P[i, j], 1.0 - P[j, i]
            elif option in ("i", "j"):
                Q[i, j] = 0.6 if option == "i" else 0.4
                Q[j, i] = 1.0 - Q[i, j]
        if not winners(Q) & old:
            row = np.zeros(cost.size)
            row[[index[p] for p, option in zip(pairs, choice, strict=True) if option == "flip"]] = 1.0
            rows.append(row)
    return solve(cost, informative, rows)


def test_two_arms_closed_form():
    """K = 2, p = 0.6: arm 1 must be compared ln T / KL(0.4, 1/2) times at regret 1/2 each."""
    P = np.array([[0.5, 0.6], [0.4, 0.5]])
    expected = 0.5 / (0.4 * np.log(0.8) + 0.6 * np.log(1.2))
    assert condorcet_lower_bound(P) == pytest.approx(expected)
    assert regret_lower_bound(P)[0] == pytest.approx(expected)


@pytest.mark.parametrize("seed", range(6))
def test_sum_of_k_smallest_program_matches_brute_force(seed):
    """The LP with "k smallest sum >= 1" rows equals the LP with every k-subset written out."""
    P = random_matrix(5, seed)
    groups = copeland_groups(P)
    assert lower_bound_lp(P, groups)[0] == pytest.approx(brute_force_lp(P, groups), rel=1e-6)


@pytest.mark.parametrize("name", ["mslr5_condorcet", "cyclic", "strong_borda", "arxiv", "sushi"])
def test_condorcet_closed_form_equals_the_program_of_its_alternatives(name):
    """With only the non-winner families (all losses, k = their number) the LP gives Komiyama 2015's sum of
    minima."""
    P = load_dataset(name).P
    scores = (P > 0.5).sum(axis=1)
    groups = [Family([], [(min(i, j), max(i, j)) for j in np.flatnonzero(P[i] < 0.5)], int(np.sum(P[i] < 0.5)))
              for i in range(P.shape[0]) if scores[i] < P.shape[0] - 1]
    assert lower_bound_lp(P, groups)[0] == pytest.approx(condorcet_lower_bound(P), rel=1e-6)


def test_bound_is_invariant_under_relabelling_the_arms():
    P = load_dataset("nc_cyclic").P
    perm = np.random.default_rng(3).permutation(P.shape[0])
    assert copeland_lower_bound(P[np.ix_(perm, perm)]) == pytest.approx(copeland_lower_bound(P), rel=1e-6)


def test_condorcet_bound_refuses_a_matrix_without_condorcet_winner():
    with pytest.raises(ValueError, match="no Condorcet winner"):
        condorcet_lower_bound(load_dataset("nc_cyclic").P)


def tied_matrix(K, seed):
    """A random matrix with about a quarter of its pairs at exactly 1/2."""
    P = random_matrix(K, seed)
    ties = np.triu(np.random.default_rng(seed + 100).random((K, K)) < 0.25, 1)
    P[ties] = 0.5
    P.T[ties] = 0.5
    return P


@pytest.mark.parametrize("K, seed", [(K, seed) for K in (3, 4, 5) for seed in range(4)])
def test_copeland_bound_is_the_program_over_every_alternative(K, seed):
    """Constraint generation reaches the constant of every alternative enumerated, with and without ties."""
    for P in (random_matrix(K, seed), tied_matrix(K, seed)):
        assert copeland_lower_bound(P) == pytest.approx(every_alternative_lp(P), rel=1e-6)


def test_mslr5_noncondorcet_bound_is_exact():
    """The paper's K = 5 non-Condorcet matrix (three Copeland winners): the program over every alternative."""
    P = load_dataset("mslr5_noncondorcet").P
    assert copeland_lower_bound(P) == pytest.approx(every_alternative_lp(P), rel=1e-6)


@pytest.mark.parametrize("name", ["mslr5_noncondorcet", "nc_cyclic", "nc_strong_borda", "gap", "mslr16_noncondorcet"])
def test_every_family_alternative_makes_the_winners_disjoint(name):
    """The bound is valid only if each of its alternatives shares no winner with P: an alternative that keeps
    one (a winner losing one pair while other winners stay) is not one -- counting such flips made the
    Copeland bound up to 30x too high (MSLR K = 5 non-Condorcet: 8398 instead of 259)."""
    P = load_dataset(name).P
    old = winners(P)
    for family in copeland_groups(P):
        for subset in combinations(family.optional, family.k):
            Q = P.copy()
            for i, j in [*family.forced, *subset]:
                Q[i, j], Q[j, i] = P[j, i], P[i, j]
            assert not winners(Q) & old, (family, subset)


@pytest.mark.parametrize("seed", range(8))
def test_families_alone_are_a_lower_bound_on_the_exact_constant(seed):
    """Above EXACT_MAX_ARMS only the families are used: never more than the exact constant."""
    P = random_matrix(6, seed)
    assert copeland_lower_bound(P, exact_max_arms=0) <= copeland_lower_bound(P) * (1 + 1e-9)


@pytest.mark.parametrize("name", ["cyclic", "strong_borda", "mslr5_condorcet"])
def test_copeland_model_bound_is_at_least_the_condorcet_one(name):
    """Every Condorcet-model alternative is a Copeland-model one, so the Copeland constant is not smaller."""
    P = load_dataset(name).P
    assert copeland_lower_bound(P) >= condorcet_lower_bound(P) * (1 - 1e-9)


def test_ties_alone_can_make_the_bound_infinite_and_all_winners_make_it_zero():
    """Arm 2 can overtake arm 0 through its two ties, which no comparison can resolve: no algorithm is
    uniformly good.  A three-cycle has every arm a winner: every pair has zero regret."""
    P = np.array([[0.5, 0.7, 0.5], [0.3, 0.5, 0.5], [0.5, 0.5, 0.5]])
    assert copeland_lower_bound(P) == math.inf
    cycle = np.array([[0.5, 0.7, 0.3], [0.3, 0.5, 0.7], [0.7, 0.3, 0.5]])
    assert copeland_lower_bound(cycle) == 0.0


def test_cache_and_command_line(tmp_path, capsys):
    """reproduce/lower_bounds.py: the cached constant is the computed one, a changed matrix digest is
    recomputed, and the command line prints it for each dataset."""
    expected = regret_lower_bound(load_dataset("cyclic").P)
    assert lower_bound("cyclic", tmp_path) == (pytest.approx(expected[0]), expected[1])
    cache = json.loads((tmp_path / CACHE_NAME).read_text())
    cache["cyclic"].update(matrix_sha1="stale", constant=-1.0)
    (tmp_path / CACHE_NAME).write_text(json.dumps(cache))
    assert lower_bound("cyclic", tmp_path)[0] == pytest.approx(expected[0])
    run_script("reproduce/lower_bounds.py", ["cyclic", "mslr5_condorcet", "--out", str(tmp_path)])
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    assert [row[0] for row in rows] == ["cyclic", "mslr5_condorcet"]
    assert float(rows[0][1]) == pytest.approx(expected[0], rel=1e-3)


@pytest.mark.parametrize("text", ["{broken", "[1, 2]", '{"cyclic": 5}', '{"cyclic": {"matrix_sha1": 3}}'])
def test_damaged_cache_is_recomputed(tmp_path, capsys, text):
    """A cache file that is not JSON, not an object, or has a malformed entry was an AttributeError or
    JSONDecodeError traceback -- after a figure's whole simulation, which asks for the bound last."""
    (tmp_path / CACHE_NAME).write_text(text)
    expected = regret_lower_bound(load_dataset("cyclic").P)
    assert lower_bound("cyclic", tmp_path) == (pytest.approx(expected[0]), expected[1])
    assert json.loads((tmp_path / CACHE_NAME).read_text())["cyclic"]["constant"] == pytest.approx(expected[0])


def test_cache_of_an_older_method_is_recomputed_and_other_folders_share_the_repository_cache(tmp_path, monkeypatch):
    """An entry without the current METHOD_VERSION (e.g. the version-1 bound, up to 30x too high) is
    recomputed; a results folder without the constant (--quick, --fast) takes it from the repository's
    cache instead of computing it (the exact K = 32 bound takes minutes)."""
    import dts_reproduction.reproduce.studies.lower_bound_cache as module
    expected = regret_lower_bound(load_dataset("nc_cyclic").P)
    repository, quick = tmp_path / "repository", tmp_path / "quick"
    repository.mkdir()
    quick.mkdir()
    monkeypatch.setattr(module, "RESULTS", repository)
    digest = module.matrix_sha1(load_dataset("nc_cyclic"))
    old = {"nc_cyclic": {"matrix_sha1": digest, "constant": 151.0, "model": "Copeland (relaxation)"}}
    (repository / CACHE_NAME).write_text(json.dumps(old))
    assert lower_bound("nc_cyclic", repository) == (pytest.approx(expected[0]), expected[1])
    assert json.loads((repository / CACHE_NAME).read_text())["nc_cyclic"]["method"] == module.METHOD_VERSION

    def not_computed(P):
        raise AssertionError("computed although the repository's cache had it")

    monkeypatch.setattr(module, "regret_lower_bound", not_computed)
    assert lower_bound("nc_cyclic", quick) == (pytest.approx(expected[0]), expected[1])
    assert (quick / CACHE_NAME).exists()


def test_a_capped_constraint_generation_is_a_named_relaxation():
    """Stopped after max_cuts generated alternatives, the value is not above the exact one and is flagged."""
    P = load_dataset("mslr5_noncondorcet").P
    exact = copeland_lower_bound_and_exactness(P)
    capped = copeland_lower_bound_and_exactness(P, max_cuts=0)
    assert exact[1] and not capped[1]
    assert capped[0] <= exact[0] * (1 + 1e-9)
    assert regret_lower_bound(P)[1] == "Copeland (Komiyama et al. 2016)"
