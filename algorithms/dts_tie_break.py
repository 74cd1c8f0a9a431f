"""D-TS+'s tie-break of the first candidate (Wu & Liu 2016, Sec. 4.3: Algorithm 1 with line 11's random
tie-break replaced by the smallest estimated regret), for every sampling of ``algorithms.dts``."""

import numpy as np
from numba import njit

from dts_reproduction.algorithms.dts_state import TIE_BREAK_PAPER
from dts_reproduction.core.argmax import argmax_first, argmin_first
from dts_reproduction.core.kl import kl_clamped
from dts_reproduction.core.thompson import sample_beta_given_side, sample_votes


@njit(cache=True)
def mark_tied(votes, in_candidates, tied):
    """tied = the arms of C with the most votes; returns how many."""
    best = votes[argmax_first(votes, in_candidates)]
    count = 0
    for i in range(votes.shape[0]):
        tied[i] = in_candidates[i] and votes[i] == best
        count += tied[i]
    return count


@njit(cache=True)
def _theta_given_votes(rng, wins, prob_above, above, tied, theta):
    """theta_ij of the tied rows, each drawn from its Beta conditioned on its vote above[i, j] (and
    mirrored inside the tied rows): with the votes, exactly the unconditional joint sample."""
    K = wins.shape[0]
    for i in range(K):
        if not tied[i]:
            continue
        for j in range(K):
            if j == i:
                continue
            if tied[j] and j < i:
                theta[i, j] = 1.0 - theta[j, i]
            else:
                side = prob_above[i, j] if above[i, j] else prob_above[j, i]
                theta[i, j] = sample_beta_given_side(rng, wins[i, j] + 1.0, wins[j, i] + 1.0, above[i, j], side)


@njit(cache=True)
def _least_regret(theta, votes, tied, in_candidates, tie_break, regret_est):
    """R_i = sum_{j != i, theta_ij != 1/2} (2 M* - s_i - s_j) / KLc(theta_ij, 1/2) for the tied arms i
    (into ``regret_est``), and the first minimiser.  M* is the largest vote inside C ("as-run") or over
    all arms ("paper"); the paper's 1/(K-1) normalisation does not change the argmin."""
    K = votes.shape[0]
    reference = votes[argmax_first(votes, in_candidates)]
    if tie_break == TIE_BREAK_PAPER:
        reference = np.max(votes)
    for i in range(K):
        if not tied[i]:
            continue
        total = 0.0
        for j in range(K):
            if j != i and theta[i, j] != 0.5:
                total += (2 * reference - votes[i] - votes[j]) / kl_clamped(theta[i, j], 0.5)
        regret_est[i] = total
    return argmin_first(regret_est, tied)


@njit(cache=True)
def break_tie(rng, wins, prob_above, indicators, in_candidates, tied, rows_drawn, rows_scratch, theta, above, votes,
              tie_break, regret_est):
    """The tied arms' least estimated regret (Sec. 4.3), after ``mark_tied`` found more than one: draws the
    votes of the rows not drawn yet (``rows_drawn`` false; ``core.thompson.sample_votes``), with
    ``indicators`` theta of the tied rows given their votes (exact in distribution, see core.thompson),
    then the regret estimates.  ``rows_scratch``: bool (K,) scratch; the others are the ``DTSState``
    fields of the same names."""
    for i in range(votes.shape[0]):
        rows_scratch[i] = not rows_drawn[i]
    sample_votes(rng, wins, prob_above, indicators, rows_scratch, rows_drawn, theta, above, votes)
    if indicators:
        _theta_given_votes(rng, wins, prob_above, above, tied, theta)
    return _least_regret(theta, votes, tied, in_candidates, tie_break, regret_est)
