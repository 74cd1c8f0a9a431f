"""Random streams of a run, derived from ``numpy.random.SeedSequence`` (docs/harness.md, "Seeds").

A run is a pure function of (dataset, algorithm, parameters, root seed, run index): every stream is a
SeedSequence whose spawn key is built from stable names (CRC-32 of the dataset and algorithm names),
so results do not depend on the number of jobs, the chunking, the backend, or which other algorithms
run in the same experiment.

* the arm shuffle of run r: key (dataset, r, 0) -- shared by every algorithm of that run, as in the
  paper (all algorithms of one run see the same shuffled matrix);
* the algorithm's own stream (its sampling and its comparison outcomes): key
  (dataset, r, 1, algorithm), plus the horizon for explore-then-exploit algorithms, whose runs at
  different horizons of the grid are independent.  Infinite-horizon algorithms do not key on T, so a
  shorter run is a prefix of a longer one with the same seed.
"""

import zlib

import numpy as np


def name_key(name: str) -> int:
    """A stable 32-bit key for a name (CRC-32 of its UTF-8 bytes)."""
    return zlib.crc32(name.encode("utf-8"))


def shuffle_rng(seed: int, dataset: str, run: int) -> np.random.Generator:
    """Generator for the arm permutation of run ``run`` on ``dataset``."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(name_key(dataset), run, 0)))


def algorithm_rng(seed: int, dataset: str, run: int, algorithm: str, horizon: int | None = None):
    """Generator for ``algorithm`` in run ``run`` on ``dataset`` (``horizon`` only for ETE algorithms)."""
    key = (name_key(dataset), run, 1, name_key(algorithm))
    if horizon is not None:
        key += (int(horizon),)
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


def run_permutation(seed: int, dataset: str, run: int, K: int, shuffle: bool = True) -> np.ndarray:
    """The arm order of run ``run``: shuffled arm i is original arm ``perm[i]`` (identity if not shuffle)."""
    if not shuffle:
        return np.arange(K)
    return shuffle_rng(seed, dataset, run).permutation(K)
