"""SBM, the UCB single-bandit "machine" behind Sparring and MultiSBM (Ailon et al. ICML 2014;
docs/algorithms.md#sparring).

One SBM over K arms is two float64 arrays: ``cnt[k]`` (plays of arm k) and ``sm[k]`` (reward sum of
arm k), started at the authors' pseudo-counts 1e-6 and 5e-6.  Its index is

    1.0                                            if cnt[k] < 1 (as run; +inf in the original UCB),
    sm[k]/cnt[k] + sqrt((scale + 2) ln t / (2 cnt[k]))   otherwise,

and it plays the first-index argmax.  Because an unplayed arm's index is exactly 1.0 (not +inf), the
as-run SBM does not play every arm once first: it stays on arm 0 until that arm's index falls below
1.0, then moves to the lowest unplayed arm, and so on (docs/algorithms.md#sparring).
Several SBMs are stored as the rows of (copies, K) arrays; the kernels take one row.
"""

import math

import numpy as np
from numba import njit

from dts_reproduction.core.constants import SBM_PSEUDO_CNT, SBM_PSEUDO_SUM


def new_sbm_arrays(copies, K):
    """Fresh (cnt, sm) float64 arrays of shape (copies, K) at the pseudo-counts 1e-6 / 5e-6."""
    return np.full((copies, K), SBM_PSEUDO_CNT), np.full((copies, K), SBM_PSEUDO_SUM)


@njit(cache=True)
def sbm_pull(cnt, sm, t, scale, unplayed_index=1.0):
    """The arm an SBM plays at clock t (``pull``): first-index argmax of the UCB index.

    cnt, sm: float64 (K,) one SBM's play counts and reward sums; t: the clock (>= 1; the global slot
    as run); scale: the SBM scale factor alpha (3.0), width sqrt((scale + 2) ln t / (2 cnt));
    unplayed_index: index of an arm with cnt < 1 -- 1.0 as run, ``math.inf`` for the original UCB
    (every arm is then played once first, lowest index first).
    """
    log_t = math.log(t)
    best = 0
    best_index = -math.inf
    for k in range(cnt.shape[0]):
        if cnt[k] < 1.0:
            index = unplayed_index
        else:
            index = sm[k] / cnt[k] + math.sqrt((scale + 2.0) * log_t / (2.0 * cnt[k]))
        if index > best_index:
            best = k
            best_index = index
    return best


@njit(cache=True)
def sbm_update(cnt, sm, k, reward):
    """Feed one SBM the reward of arm k (``update``): ``cnt[k] += 1``, ``sm[k] += reward``."""
    cnt[k] += 1.0
    sm[k] += reward
