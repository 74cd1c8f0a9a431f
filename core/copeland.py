"""Copeland scores and Thompson-sample majority votes (Algorithm 1 lines 7-11)."""

from numba import njit


@njit(cache=True)
def copeland_scores(P, scores):
    """Fill ``scores[i] = #{j != i : P[i, j] > 1/2}`` (strict, so an exact 1/2 counts for nobody)."""
    K = P.shape[0]
    for i in range(K):
        scores[i] = 0
        for j in range(K):
            if j != i and P[i, j] > 0.5:
                scores[i] += 1
    return scores


@njit(cache=True)
def sample_tournament(rng, w, rows, done, theta, votes):
    """Thompson samples of the rows ``rows`` of the preference matrix, and their majority votes.

    For every arm i with ``rows[i]`` (ascending) and every j != i: ``theta[i, j] = 1 - theta[j, i]``
    if row j is already sampled (``done[j]``), else ``theta[i, j] ~ Beta(w_ij + 1, w_ji + 1)``; then
    ``done[i] = True``.  This is Algorithm 1 lines 7-10 restricted to the rows that are needed, exact in
    distribution because the pairs are independent (spec 1.15); a second call with more rows extends
    the same joint sample.  Then ``votes[i] = #{j != i : theta[i, j] > 1/2}`` (line 11).
    theta: float64 (K, K), votes: int64 (K,), done: bool (K,), all updated in the sampled rows only.
    """
    K = w.shape[0]
    for i in range(K):
        if not rows[i]:
            continue
        count = 0
        for j in range(K):
            if j == i:
                continue
            if done[j]:
                theta[i, j] = 1.0 - theta[j, i]
            else:
                theta[i, j] = rng.beta(w[i, j] + 1.0, w[j, i] + 1.0)
            if theta[i, j] > 0.5:
                count += 1
        votes[i] = count
        done[i] = True
    return votes
