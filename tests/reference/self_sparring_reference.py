"""Self-Sparring (Sui et al. UAI 2017, Alg. 1 with independent Beta arms and m = 2, as in the MergeDTS authors'
self_sparring.py; docs/algorithms.md#self-sparring) transcribed in plain Python."""

import numpy as np


def thompson_argmax(S, F, rng):
    """One Thompson sample: theta_i ~ Beta(S_i, F_i) for every arm in order, then a maximiser chosen
    uniformly among ties (the pick drawn only when there is a tie)."""
    theta = [rng.beta(s, f) for s, f in zip(S, F, strict=True)]
    best = max(theta)
    tied = [i for i, x in enumerate(theta) if x == best]
    return tied[int(rng.integers(0, len(tied)))] if len(tied) > 1 else tied[0]


def ref_trajectory(P, T, seed, learning_rate=1.0):
    """T slots of Self-Sparring on P with one generator seeded ``seed``: per slot two Thompson samples
    (a1, a2), then the outcome U < P[a1, a2] from the same generator, then S_winner += eta and
    F_loser += eta.  Returns the list of pairs and the final (S, F)."""
    K = P.shape[0]
    rng = np.random.default_rng(seed)
    S, F = [1.0] * K, [1.0] * K
    pairs = []
    for _ in range(T):
        a1, a2 = thompson_argmax(S, F, rng), thompson_argmax(S, F, rng)
        winner, loser = (a1, a2) if rng.random() < P[a1, a2] else (a2, a1)
        S[winner] += learning_rate
        F[loser] += learning_rate
        pairs.append((a1, a2))
    return pairs, S, F


def argmax_law(S, F):
    """Exact P(argmax_i theta_i = k), theta_i ~ Beta(S_i, F_i) independent: the integral over x of the density
    of arm k times the other arms' CDFs, by adaptive quadrature (scipy)."""
    from scipy import integrate, stats

    dists = [stats.beta(s, f) for s, f in zip(S, F, strict=True)]

    def density(x, k):
        """Density of theta_k at x times P(every other theta below x)."""
        return dists[k].pdf(x) * np.prod([d.cdf(x) for i, d in enumerate(dists) if i != k])

    return np.array([integrate.quad(density, 0.0, 1.0, args=(k,), epsabs=1e-12, limit=200)[0]
                     for k in range(len(S))])
