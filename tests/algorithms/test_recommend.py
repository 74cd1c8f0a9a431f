"""``Policy.best_arm()``: every registered algorithm has a recommendation rule (its spec's ``best_arm``, or the
default read from its pair statistics) and a Policy class, and after enough comparisons on a matrix with a clear
Condorcet winner each recommends that winner (docs/algorithms.md#recommendations)."""

import dataclasses

import numpy as np
import pytest

from dts_reproduction.algorithms import ALGORITHMS
from dts_reproduction.algorithms.base import policy_classes
from dts_reproduction.algorithms.recommend import empirical_copeland_winner, recommend
from dts_reproduction.data import dataset_from_matrix

K = 4
WINNER = 2
# Arm 2 beats every other arm with probability 0.8; among the others, 0 > 1 > 3 and 3 > 0 with 0.6 (a cycle).
P = np.full((K, K), 0.5)
for i, j, p in ((WINNER, 0, 0.8), (WINNER, 1, 0.8), (WINNER, 3, 0.8), (0, 1, 0.6), (1, 3, 0.6), (3, 0, 0.6)):
    P[i, j], P[j, i] = p, 1.0 - p
DATASET = dataset_from_matrix(P, "recommend_cycle", source="tests/algorithms/test_recommend.py")
SLOTS = 4_000


def live_options(spec) -> dict:
    """The settings a live policy of ``spec`` needs that the simulator would give it: the horizon (SLOTS) if the
    algorithm needs one, and its parameters as completed from the true matrix (``AlgorithmSpec.problem_params``,
    e.g. SAVAGE's variant)."""
    horizon = {"horizon": SLOTS} if spec.needs_horizon else {}
    return {**horizon, **spec.problem_params(spec.resolve_params({}), DATASET)}


def test_every_registered_algorithm_has_a_rule_and_a_policy():
    """A new algorithm must come with a Policy class, and with a recommendation rule: its own ``best_arm``, or a
    state holding the pair statistics the default rule reads."""
    classes = policy_classes()
    for name, spec in ALGORITHMS.items():
        assert classes[name].spec is spec
        fields = classes[name](K, seed=0, **live_options(spec)).state._fields
        assert spec.best_arm is not None or {"comparisons", "wins"} <= set(fields), name


def test_an_algorithm_without_a_rule_is_refused():
    """``recommend`` names the algorithm that declares no rule and whose state has no statistics for the default."""
    nope = dataclasses.replace(ALGORITHMS["sparring"], name="nope", best_arm=None)
    with pytest.raises(ValueError, match="'nope' has no recommendation rule.*declare best_arm="):
        recommend(nope, nope.make_state(K))


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_recommends_the_condorcet_winner(name):
    """Before any slot the recommendation is a valid arm; after SLOTS comparisons it is the Condorcet winner;
    asking for it changes no entry of the algorithm's state."""
    policy = policy_classes()[name](K, seed=3, **live_options(ALGORITHMS[name]))
    assert 0 <= policy.best_arm() < K
    users = np.random.default_rng(5)
    for _ in range(SLOTS):
        a1, a2 = policy.select()
        policy.update(a1, a2, bool(users.random() < P[a1, a2]))
    before = [np.array(field, copy=True) for field in policy.state]
    assert policy.best_arm() == WINNER
    assert all(old.tobytes() == np.asarray(new).tobytes() for old, new in zip(before, policy.state, strict=True))


def test_empirical_copeland_winner_ignores_uncompared_pairs():
    """Pseudo-counts alone (n = 1e-6, w = 1e-5: p-hat = 10) beat nobody; a compared pair counts; ties go to
    the lowest index."""
    n = np.full((3, 3), 1e-6)
    w = np.full((3, 3), 1e-5)
    assert empirical_copeland_winner(n, w) == 0
    n[1, 2] = n[2, 1] = 10
    w[2, 1], w[1, 2] = 7, 3
    assert empirical_copeland_winner(n, w) == 2
