"""The seeds (reproduce/harness/seeds.py): stable, and independent across seed, dataset, run and algorithm."""


import numpy as np

from dts_reproduction.reproduce.harness import seeds


def test_seeds_are_stable_and_independent():
    a = seeds.algorithm_rng(1, "gap", 3, "dts").random(3)
    assert np.array_equal(a, seeds.algorithm_rng(1, "gap", 3, "dts").random(3))
    assert not np.array_equal(a, seeds.algorithm_rng(1, "gap", 4, "dts").random(3))
    assert not np.array_equal(a, seeds.algorithm_rng(1, "gap", 3, "dts_plus").random(3))
    assert not np.array_equal(a, seeds.algorithm_rng(2, "gap", 3, "dts").random(3))
    assert seeds.run_permutation(5, "gap", 0, 5, shuffle=False).tolist() == [0, 1, 2, 3, 4]
    perm = seeds.run_permutation(5, "gap", 0, 5)
    assert sorted(perm.tolist()) == [0, 1, 2, 3, 4]
