"""Generated instances: the 500-armed Copeland tournament of Zoghi et al. (NIPS 2015).

The D-TS paper (App. D.1.2) only states the tournament: three Copeland winners in a
3-cycle with score K-2 (= 498), the other arms scoring 0..K-4 (= 0..496).  That forces
the win/loss graph (docs/datasets.md#copeland500):
  * winner w beats winner (w+1) mod 3 and loses to winner (w+2) mod 3;
  * every winner beats every non-winner;
  * the non-winners form a total order (the earlier one beats the later one).
The magnitudes were never published.  ASSUMPTION (ours): every "a beats b" pair gets a
constant p_ab, 0.55 inside the winners' cycle (a small 0.05 margin, as the paper's
StrongBorda Condorcet winner) and 0.6 everywhere else (the 0.1 margin of the paper's
Cyclic and Non-Condorcet Cyclic tables).  Any of the three can be changed, or drawn
i.i.d. uniformly from a range.
"""

import numpy as np

N_WINNERS = 3


def _check_magnitude(name, value):
    """Return ``value`` as a float or a (low, high) pair after checking it lies in (0.5, 1]."""
    try:
        if np.ndim(value) == 0:
            v = float(value)
            if not 0.5 < v <= 1.0:
                raise ValueError(f"{name} = {v!r} must be in (0.5, 1]")
            return v
        if len(value) != 2:
            raise ValueError(f"{name} = {value!r} must be a number or a (low, high) pair")
        low, high = float(value[0]), float(value[1])
    except (TypeError, ValueError) as error:
        if str(error).startswith(f"{name} = "):
            raise
        raise ValueError(f"{name} = {value!r} must be a number or a (low, high) pair") from None
    if not 0.5 < low <= high <= 1.0:
        raise ValueError(f"{name} = ({low!r}, {high!r}) must satisfy 0.5 < low <= high <= 1")
    return (low, high)


def _draw(value, n, rng):
    """n magnitudes: the constant ``value`` or i.i.d. Uniform(low, high) draws from ``rng``."""
    if isinstance(value, tuple):
        return rng.uniform(value[0], value[1], size=n)
    return np.full(n, value)


def make_copeland_500(K=500, p_winner_cycle=0.55, p_winner_vs_rest=0.6, p_rest=0.6, seed=None):
    """Build the K-armed three-Copeland-winner tournament (K = 500 in the paper).

    Arm order: winners 0, 1, 2 (0 beats 1, 1 beats 2, 2 beats 0), then the K-3
    non-winners 3..K-1 in decreasing score (arm i beats arm j for 3 <= i < j).
    Scores: K-2 for each winner, K-4 down to 0 for the non-winners.

    Each ``p_*`` is the probability that the stronger arm of a pair of that kind wins:
    a number in (0.5, 1], or a pair (low, high) for i.i.d. Uniform(low, high) draws
    with 0.5 < low <= high <= 1, made with ``numpy.random.default_rng(seed)`` in the
    order: cycle pairs (0>1, 1>2, 2>0), winner-vs-rest pairs (row-major), then
    non-winner pairs (i < j, row-major).  ``seed`` is only used by ranges.
    The weaker arm gets exactly 1 - p, so every pair sums to exactly 1.
    Raises ValueError for K < 4 or a magnitude outside (0.5, 1].
    """
    try:
        whole = not isinstance(K, (bool, np.bool_)) and int(K) == K
    except (TypeError, ValueError, OverflowError):  # 'abc', None, nan, inf
        whole = False
    if not whole or K < N_WINNERS + 1:
        raise ValueError(f"K = {K!r} must be an integer >= {N_WINNERS + 1}")
    K = int(K)
    cyc = _check_magnitude("p_winner_cycle", p_winner_cycle)
    vs = _check_magnitude("p_winner_vs_rest", p_winner_vs_rest)
    rest = _check_magnitude("p_rest", p_rest)
    rng = np.random.default_rng(seed)
    P = np.full((K, K), 0.5)
    win = np.zeros((K, K))
    for w, p in zip(range(N_WINNERS), _draw(cyc, N_WINNERS, rng), strict=True):
        win[w, (w + 1) % N_WINNERS] = p
    win[:N_WINNERS, N_WINNERS:] = _draw(vs, N_WINNERS * (K - N_WINNERS), rng).reshape(N_WINNERS, K - N_WINNERS)
    iu, ju = np.triu_indices(K - N_WINNERS, k=1)
    win[iu + N_WINNERS, ju + N_WINNERS] = _draw(rest, iu.size, rng)
    stronger = win > 0
    P[stronger] = win[stronger]
    P.T[stronger] = 1.0 - win[stronger]
    return P
