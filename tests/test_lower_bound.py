"""The asymptotic regret lower bounds of core/lower_bound.py against closed forms and a brute-force LP."""

import json
from itertools import combinations

import numpy as np
import pytest
from scipy.optimize import linprog

from core.lower_bound import (
    condorcet_lower_bound,
    copeland_groups,
    copeland_lower_bound,
    kl_to_half,
    lower_bound_lp,
    pair_regrets,
    regret_lower_bound,
)
from data import load_dataset
from reproduce.lower_bounds import CACHE_NAME, lower_bound, main


def random_matrix(K, seed):
    """A random preference matrix with every p_ij at least 0.02 away from 1/2."""
    rng = np.random.default_rng(seed)
    upper = rng.uniform(0.02, 0.48, (K, K)) * rng.choice([-1, 1], (K, K)) + 0.5
    P = np.triu(upper, 1)
    return P + np.tril(1 - P.T, -1) + 0.5 * np.eye(K)


def brute_force_lp(P, groups):
    """The same program with one explicit constraint per k-subset of every family (tiny K only)."""
    K = P.shape[0]
    iu, ju = np.triu_indices(K, 1)
    index = {(int(i), int(j)): e for e, (i, j) in enumerate(zip(iu, ju, strict=True))}
    cost = pair_regrets(P)[iu, ju] / kl_to_half(P)[iu, ju]
    A, b = [], []
    for pairs, k in groups:
        for subset in combinations(pairs, k):
            row = np.zeros(iu.size)
            row[[index[p] for p in subset]] = -1.0
            A.append(row)
            b.append(-1.0)
    return linprog(cost, A_ub=np.array(A), b_ub=np.array(b), bounds=[(0, None)] * iu.size, method="highs").fun


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
    assert lower_bound_lp(P, groups) == pytest.approx(brute_force_lp(P, groups), rel=1e-6)


@pytest.mark.parametrize("name", ["mslr5_condorcet", "cyclic", "strong_borda", "arxiv", "sushi"])
def test_condorcet_closed_form_equals_the_program_of_its_alternatives(name):
    """With only the non-winner families (all losses, k = their number) the LP gives Komiyama 2015's sum of
    minima."""
    P = load_dataset(name).P
    scores = (P > 0.5).sum(axis=1)
    groups = [([(min(i, j), max(i, j)) for j in np.flatnonzero(P[i] < 0.5)], int(np.sum(P[i] < 0.5)))
              for i in range(P.shape[0]) if scores[i] < P.shape[0] - 1]
    assert lower_bound_lp(P, groups) == pytest.approx(condorcet_lower_bound(P), rel=1e-6)


def test_bound_is_invariant_under_relabelling_the_arms():
    P = load_dataset("nc_cyclic").P
    perm = np.random.default_rng(3).permutation(P.shape[0])
    assert copeland_lower_bound(P[np.ix_(perm, perm)]) == pytest.approx(copeland_lower_bound(P), rel=1e-6)


def test_condorcet_bound_refuses_a_matrix_without_condorcet_winner():
    with pytest.raises(ValueError, match="no Condorcet winner"):
        condorcet_lower_bound(load_dataset("nc_cyclic").P)


def test_winner_families_need_every_win_of_a_tied_winner():
    """With several Copeland winners, a single lost win demotes a winner: k = 1 for each winner's family."""
    P = load_dataset("nc_cyclic").P
    scores = (P > 0.5).sum(axis=1)
    families = {tuple(pairs): k for pairs, k in copeland_groups(P)}
    for w in np.flatnonzero(scores == scores.max()):
        wins = tuple((min(w, j), max(w, j)) for j in np.flatnonzero(P[w] > 0.5))
        assert families[wins] == 1


def test_cache_and_command_line(tmp_path, capsys):
    """reproduce/lower_bounds.py: the cached constant is the computed one, a changed matrix digest is
    recomputed, and the command line prints it for each dataset."""
    expected = regret_lower_bound(load_dataset("cyclic").P)
    assert lower_bound("cyclic", tmp_path) == (pytest.approx(expected[0]), expected[1])
    cache = json.loads((tmp_path / CACHE_NAME).read_text())
    cache["cyclic"].update(matrix_sha1="stale", constant=-1.0)
    (tmp_path / CACHE_NAME).write_text(json.dumps(cache))
    assert lower_bound("cyclic", tmp_path)[0] == pytest.approx(expected[0])
    main(["cyclic", "mslr5_condorcet", "--out", str(tmp_path)])
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
