"""``Policy.best_arm()``: every registered algorithm has a recommendation rule and a Policy class, and after
enough comparisons on a matrix with a clear Condorcet winner each recommends that winner
(docs/algorithms.md#recommendations)."""

import numpy as np
import pytest

from dts_reproduction.algorithms import ALGORITHMS, Policy
from dts_reproduction.algorithms.recommend import RECOMMENDERS, empirical_copeland_winner, recommend

K = 4
WINNER = 2
# Arm 2 beats every other arm with probability 0.8; among the others, 0 > 1 > 3 and 3 > 0 with 0.6 (a cycle).
P = np.full((K, K), 0.5)
for i, j, p in ((WINNER, 0, 0.8), (WINNER, 1, 0.8), (WINNER, 3, 0.8), (0, 1, 0.6), (1, 3, 0.6), (3, 0, 0.6)):
    P[i, j], P[j, i] = p, 1.0 - p
SLOTS = 4_000
# The settings a live policy of these algorithms needs (the simulator derives them from the true matrix).
OPTIONS = {"btm": {"horizon": SLOTS}, "savage": {"horizon": SLOTS, "variant": "condorcet"}}


def policy_classes() -> dict:
    """Registry name -> Policy class, for every Policy subclass defined by the algorithm modules."""
    found, todo = {}, list(Policy.__subclasses__())
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if hasattr(cls, "spec"):
            found[cls.spec.name] = cls
    return found


def test_every_registered_algorithm_has_a_rule_and_a_policy():
    """A new algorithm must come with a recommendation rule and a Policy class; no rule names an algorithm
    that is not registered."""
    assert sorted(RECOMMENDERS) == sorted(ALGORITHMS)
    assert sorted(policy_classes()) == sorted(ALGORITHMS)


def test_unknown_algorithm_is_refused():
    """``recommend`` names the algorithm without a rule."""
    with pytest.raises(ValueError, match="'nope' has no recommendation rule"):
        recommend("nope", None)


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_recommends_the_condorcet_winner(name):
    """Before any slot the recommendation is a valid arm; after SLOTS comparisons it is the Condorcet winner;
    asking for it changes no entry of the algorithm's state."""
    policy = policy_classes()[name](K, seed=3, **OPTIONS.get(name, {}))
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
