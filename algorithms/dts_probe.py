"""The C18 probe of a D-TS state (the paper's conclusion: "RUCB-based elimination seldom occurs"): a diagnostic that
``core.simulate`` calls after every ``select`` (its ``probe``), drawing from a generator of its own.

Right after D-TS chose its first candidate from the candidate set C (Algorithm 1, lines 4-11), an independent
majority vote over *all* arms is drawn from the same posterior; the slot counts as one where the elimination acts if
that unrestricted vote winner is outside C.  Also counted: the slots with C smaller than the whole arm set.  The
state's cached P(theta_ij > 1/2) (``prob_above``) is read, so the probe needs a sampling that keeps it (not "direct").
"""

import numpy as np
from numba import njit

from dts_reproduction.core.argmax import argmax_uniform

OUTSIDE, RESTRICTED = range(2)  # the probe's counts: slots with the unrestricted winner outside C; with |C| < K


@njit(cache=True)
def unrestricted_winner_outside(rng, prob_above, in_c, votes):
    """Draw the votes 1(theta_ij > 1/2) of every pair i < j (theta_ji = 1 - theta_ij), take the
    uniform-tie argmax of the vote counts over all arms, and return whether it lies outside C."""
    K = prob_above.shape[0]
    votes[:] = 0
    for i in range(K):
        for j in range(i + 1, K):
            if rng.random() < prob_above[i, j]:
                votes[i] += 1
            else:
                votes[j] += 1
    everyone = np.ones(K, np.bool_)
    return not in_c[argmax_uniform(rng, votes, everyone)]


@njit(cache=True)
def elimination_probe(state, rng, counts):
    """Add this slot to ``counts[OUTSIDE]`` if the unrestricted vote winner lies outside C, and to
    ``counts[RESTRICTED]`` if |C| < K (``state``: a D-TS state right after ``select``)."""
    in_candidates, prob_above = state.in_candidates, state.prob_above
    K = in_candidates.shape[0]
    size = 0
    for i in range(K):
        size += in_candidates[i]
    counts[RESTRICTED] += size < K
    counts[OUTSIDE] += unrestricted_winner_outside(rng, prob_above, in_candidates, np.zeros(K, np.int64))
