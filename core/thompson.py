"""Thompson-sampling kernels that draw only what a decision needs (exact in distribution:
the Thompson samples of Algorithm 1 lines 8 and 13 are independent across pairs).

A vote ``1(theta_ij > 1/2)`` with ``theta_ij ~ Beta(w_ij + 1, w_ji + 1)`` is a Bernoulli draw with
probability ``q_ij = P(Beta(w_ij + 1, w_ji + 1) > 1/2)``, which changes only when the pair is compared:
keep ``q`` up to date in the update, and a vote costs one uniform instead of one Beta draw.  When a
decision then needs the value of theta itself (D-TS's second candidate, D-TS+'s tie-break), it is drawn
from the Beta conditioned on the side already drawn -- together, exactly the unconditional Beta.
"""

from numba import njit

from dts_reproduction.core.betainc import prob_beta_above_half, sample_beta_above_half, sample_beta_below_half
from dts_reproduction.core.bounds import update_pair

# How an algorithm draws its Thompson votes: "indicators" (this module) or "direct" (one Beta per
# pair, line by line after the paper; the reference the fast path is tested against).
SAMPLING_INDICATORS, SAMPLING_DIRECT = 0, 1
SAMPLINGS = {"indicators": SAMPLING_INDICATORS, "direct": SAMPLING_DIRECT}

# Below this probability of the requested side, rejection sampling (1/p Beta draws on average) costs
# more than the inverse-CDF draw (a few microseconds), so the latter is used.
REJECTION_MIN_PROB = 0.05


@njit(cache=True)
def refresh_above_half(q, w, i, j, exact_half=False):
    """Recompute ``q[i, j] = P(Beta(w_ij + 1, w_ji + 1) > 1/2)`` and ``q[j, i]`` after {i, j} changed.

    Both orders are computed directly (not as 1 - q), so both tails are accurate.  With ``exact_half``,
    a pair with as many wins each way (a symmetric Beta) gets exactly 1/2 both ways, its true value
    (``prob_beta_above_half`` is within an ulp of it; the default keeps that value, which the stored
    runs were drawn with).  No-op if i == j.
    """
    if i == j:
        return
    if exact_half and w[i, j] == w[j, i]:
        q[i, j] = 0.5
        q[j, i] = 0.5
        return
    q[i, j] = prob_beta_above_half(w[i, j] + 1.0, w[j, i] + 1.0)
    q[j, i] = prob_beta_above_half(w[j, i] + 1.0, w[i, j] + 1.0)


@njit(cache=True)
def fill_above_half(q, w, exact_half=False):
    """Fill every off-diagonal ``q[i, j]`` from ``w`` (``refresh_above_half``); the diagonal is left as is."""
    K = w.shape[0]
    for i in range(1, K):
        for j in range(i):
            refresh_above_half(q, w, i, j, exact_half)
    return q


@njit(cache=True)
def sample_beta_given_side(rng, a, b, above, prob_side):
    """theta ~ Beta(a, b) conditioned on theta > 1/2 (``above``) or theta <= 1/2 (not ``above``).

    prob_side is the probability of that side.  Rejection from the unconditional Beta when the side is
    likely, the inverse CDF inside the side otherwise; both are exact in distribution.
    """
    if prob_side >= REJECTION_MIN_PROB:
        while True:
            theta = rng.beta(a, b)
            if (theta > 0.5) == above:
                return theta
    if above:
        return sample_beta_above_half(rng, a, b)
    return sample_beta_below_half(rng, a, b)


@njit(cache=True)
def sample_votes(rng, w, q, indicators, rows, done, theta, above, votes):
    """Thompson votes of the rows ``rows`` (Algorithm 1 lines 7-11, restricted to the needed rows).

    For every arm i with ``rows[i]`` (ascending) and every j != i, the pair is mirrored if row j is
    already drawn (``done[j]``): ``above[i, j] = not above[j, i]`` (and ``theta[i, j] = 1 - theta[j, i]``);
    otherwise it is drawn -- with ``indicators``, ``above[i, j] ~ Bernoulli(q[i, j])`` where
    q[i, j] = P(Beta(w_ij + 1, w_ji + 1) > 1/2) and theta is not touched; without, ``theta[i, j] ~
    Beta(w_ij + 1, w_ji + 1)`` and ``above[i, j] = theta[i, j] > 1/2``.  Then ``done[i] = True`` and
    ``votes[i] = #{j != i : above[i, j]}``.  Drawing only some rows, or extending the draw to more
    rows in a second call, is exact in distribution because the pairs are independent (Algorithm 1 line 8);
    the tie theta = 1/2 has probability zero.  theta, above: (K, K); votes: int64 (K,); done: bool (K,).
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
                if indicators:
                    above[i, j] = not above[j, i]
                else:
                    theta[i, j] = 1.0 - theta[j, i]
                    above[i, j] = theta[i, j] > 0.5
            elif indicators:
                above[i, j] = rng.random() < q[i, j]
            else:
                theta[i, j] = rng.beta(w[i, j] + 1.0, w[j, i] + 1.0)
                above[i, j] = theta[i, j] > 0.5
            count += above[i, j]
        votes[i] = count
        done[i] = True
    return votes


@njit(cache=True)
def record_comparison(n, w, q, a1, a2, a1_won, refresh, exact_half=False):
    """The common pair update (Algorithm 1 line 17) and, if ``refresh``, the pair's vote probabilities ``q``
    (``refresh_above_half``)."""
    update_pair(n, w, a1, a2, a1_won)
    if refresh:
        refresh_above_half(q, w, a1, a2, exact_half)
