"""Self-Sparring's sampling="fast" (``algorithms.self_sparring``): one Thompson sample (the argmax of K
independent Beta draws) that draws only the arms that can win -- exact in distribution, another random stream
(docs/algorithms.md#self-sparring).

Fix a *leader* L (the arm with the most observations) and a *threshold* q (the LEADER_TAIL quantile of
L's posterior), and keep c_j = P(theta_j > q) for every other arm j.  A sample then draws theta_L first.
If theta_L > q, an arm j can only beat it when theta_j > q: that event is one uniform U_j < c_j, and only
then is theta_j drawn, from its Beta conditioned on theta_j > q (by rejection when c_j is large, else by
the inverse CDF of the upper tail at U_j, which given U_j < c_j is uniform on (0, c_j)).  If theta_L <= q
(probability about LEADER_TAIL), every other arm is drawn in full.  Either way the argmax has the law of
the argmax of K independent draws, for any choice of L and q: L and q only set how much is skipped.

Once L has played most slots, a sample costs one Beta draw and K - 1 uniforms instead of K Beta draws.
The price is one incomplete-beta evaluation whenever another arm's counts change, and K of them at each
new *epoch* (L's counts grown by EPOCH_GROWTH, or another arm ahead of L by LEADER_SWITCH), at most one
epoch every K slots.
"""

import math

import numpy as np
from numba import njit

from dts_reproduction.core.argmax import argmax_uniform
from dts_reproduction.core.betainc import beta_ppf_lower, beta_ppf_upper, betainc_upper
from dts_reproduction.core.skipping import geometric_run
from dts_reproduction.core.thompson import REJECTION_MIN_PROB

LEADER_TAIL = 1e-3  # P(theta_L <= q): how often a sample falls back to drawing every arm
EPOCH_GROWTH = 1.05  # a new epoch once the leader's observations S_L + F_L grew by this factor ...
LEADER_SWITCH = 1.25  # ... or another arm has this many times the leader's observations


@njit(cache=True)
def reposition(tail_above, order, rank, arm):
    """Move ``arm`` to its place in ``order`` (arms by tail_above, decreasing) after its tail changed, and
    keep ``rank`` (the position of every arm in ``order``) its inverse."""
    K = order.shape[0]
    pos = rank[arm]
    while pos > 0 and tail_above[order[pos - 1]] < tail_above[arm]:
        order[pos] = order[pos - 1]
        rank[order[pos]] = pos
        pos -= 1
    while pos < K - 1 and tail_above[order[pos + 1]] > tail_above[arm]:
        order[pos] = order[pos + 1]
        rank[order[pos]] = pos
        pos += 1
    order[pos] = arm
    rank[arm] = pos


@njit(cache=True)
def start_epoch(successes, failures, epoch, tail_above, order, rank, t):
    """A new epoch at slot t: the leader is the arm with the most observations S + F (lowest index among
    ties), the threshold q its posterior's LEADER_TAIL quantile, tail_above[j] = P(Beta(S_j, F_j) > q) for
    every other arm (0 for the leader), and ``order``/``rank`` sorted by it.  The arguments are the
    ``SelfSparringState`` fields."""
    K = successes.shape[0]
    best = 0
    for j in range(1, K):
        if successes[j] + failures[j] > successes[best] + failures[best]:
            best = j
    q = beta_ppf_lower(successes[best], failures[best], LEADER_TAIL)
    epoch[0].leader, epoch[0].threshold, epoch[0].count, epoch[0].slot = best, q, successes[best] + failures[best], t
    for j in range(K):
        tail_above[j] = 0.0 if j == best else betainc_upper(successes[j], failures[j], q)
    order[:] = np.argsort(-tail_above, kind="mergesort")
    for i in range(K):
        rank[order[i]] = i


@njit(cache=True)
def refresh_after_update(successes, failures, epoch, tail_above, order, rank, a1, a2, t):
    """After the counts of a1 and a2 changed at slot t: their tail_above anew (unless the leader) and their
    place in ``order``, then a new epoch (``start_epoch``) if one is due and the last began at least K slots
    ago.  Arguments: the ``SelfSparringState`` fields."""
    K = successes.shape[0]
    lead, q = epoch[0].leader, epoch[0].threshold
    lead_count = successes[lead] + failures[lead]
    switch = False
    for arm in (a1, a2):
        if arm != lead:
            tail_above[arm] = betainc_upper(successes[arm], failures[arm], q)
            reposition(tail_above, order, rank, arm)
            switch = switch or successes[arm] + failures[arm] > LEADER_SWITCH * lead_count
    if t - epoch[0].slot >= K and (switch or lead_count >= EPOCH_GROWTH * epoch[0].count):
        start_epoch(successes, failures, epoch, tail_above, order, rank, t)


@njit(cache=True)
def draw_above(rng, a, b, q, tail, u):
    """theta ~ Beta(a, b) conditioned on theta > q, given a uniform u on (0, tail), tail = P(Beta(a, b) > q):
    by rejection when tail >= REJECTION_MIN_PROB (1/tail Beta draws on average, u unused), else as the
    upper-tail quantile at u (P(X > theta) = u, uniform on (0, tail): the conditioned law)."""
    if tail >= REJECTION_MIN_PROB:
        while True:
            theta = rng.beta(a, b)
            if theta > q:
                return theta
    return beta_ppf_upper(a, b, u)


@njit(cache=True)
def thompson_arm_fast(successes, failures, epoch, tail_above, order, theta, every_arm, rng):
    """One Thompson sample (Sui et al. Alg. 1 lines 4-5) in the law of ``thompson_arm``: the argmax of
    theta_i ~ Beta(S_i, F_i), uniform among ties, drawing only the arms that can beat the leader (module
    docstring).  ``theta``: scratch; the other arrays are the ``SelfSparringState`` fields."""
    K = successes.shape[0]
    lead, q = epoch[0].leader, epoch[0].threshold
    best_theta = rng.beta(successes[lead], failures[lead])
    if best_theta <= q:
        for i in range(K):
            theta[i] = best_theta if i == lead else rng.beta(successes[i], failures[i])
        return argmax_uniform(rng, theta, every_arm)
    best, ties, pos = lead, 1, 0
    while pos < K:
        bound = tail_above[order[pos]]
        if bound <= 0.0:
            break
        pos += geometric_run(rng, math.log1p(-bound), K - pos)
        if pos >= K:
            break
        j = order[pos]
        u = rng.random() * bound
        if u < tail_above[j]:
            x = draw_above(rng, successes[j], failures[j], q, tail_above[j], u)
            if x > best_theta:
                best, best_theta, ties = j, x, 1
            elif x == best_theta:
                ties += 1
                if rng.integers(0, ties) == 0:
                    best = j
        pos += 1
    return best
