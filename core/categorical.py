"""A draw from a finite distribution by its inverse CDF, as NumPy's ``RandomState.choice(K, p=p)`` makes it."""

from numba import njit


@njit(cache=True)
def categorical_draw(rng, probabilities):
    """An index i drawn with probability ``probabilities[i]`` (float64 (K,), >= 0, summing to about 1): one uniform
    u of ``rng``, then the first i whose cumulative sum exceeds u times the total (the total makes a sum that is 1
    only up to rounding a distribution); the last index if rounding leaves none."""
    total = 0.0
    for i in range(probabilities.shape[0]):
        total += probabilities[i]
    target = rng.random() * total
    cumulative = 0.0
    last = probabilities.shape[0] - 1
    for i in range(last):
        cumulative += probabilities[i]
        if cumulative > target:
            return i
    return last
