"""The state of CCB (``algorithms.ccb``): the potential winners B, the challenger lists B^i, Lbar, the
cached switch times and the Copeland counts kept between slots (module docstring of ``algorithms.ccb``,
"Cost")."""

import math
from typing import NamedTuple

import numpy as np

from dts_reproduction.algorithms.base import SKIP_OFF, check_alpha, check_skip
from dts_reproduction.core.argmax import fill_true
from dts_reproduction.core.bounds import fill_direct_bound_switches
from dts_reproduction.core.constants import ALPHA, PSEUDO_N, PSEUDO_W

CHECKED_AT, EARLIEST = 0, 1  # the two entries of CCBState.row_next after the K rows, by offset from K
UNRESOLVED, COUNTED_LEN = 0, 1  # the rows of CCBState.unresolved


class CCBState(NamedTuple):
    """State of CCB.  Settings: ``alpha`` (confidence scale), ``skip_runs`` (option skip="exact").  Arrays
    (K arms):"""

    comparisons: np.ndarray  # float64 (K, K): n_ij (pseudo-count included)
    wins: np.ndarray  # float64 (K, K): w_ij (pseudo-count included)
    alpha: float
    skip_runs: bool
    max_losses: np.ndarray  # int64 (1,): Lbar, the estimated maximum number of losses
    in_winners: np.ndarray  # bool (K,): the potential Copeland winners B as a mask
    challengers: np.ndarray  # int64 (K, K): row i holds the list B^i in its first challenger_lens[i] entries
    challenger_lens: np.ndarray  # int64 (K,): |B^i|
    upper_switch: np.ndarray  # float64 (K, K): ln t from which u_ij >= 1/2
    lower_switch: np.ndarray  # float64 (K, K): ln t up to which l_ij > 1/2
    upper_copeland: np.ndarray  # int64 (K,): #{j != i : u_ij >= 1/2}, kept between slots
    lower_copeland: np.ndarray  # int64 (K,): #{j != i : l_ij >= 1/2}, kept between slots
    # float64 (K + 2,): entry i < K, the earliest switch time of row i at or after the ln t of its last
    # recount (-inf: one of its pairs was compared since), so its counts hold while ln t < row_next[i];
    # then, at K + CHECKED_AT, the ln t of the last check (inf: none yet) and at K + EARLIEST the least
    # of the K row entries (one array, not three: every array a kernel reads costs reference counting)
    row_next: np.ndarray
    # int64 (2, K): row UNRESOLVED, #{j in B^i : l_ij <= 1/2 <= u_ij} (step 5), counted when B^i had the
    # length in row COUNTED_LEN (-1: never); recounted with the row, or when the list's length changed
    unresolved: np.ndarray
    in_candidates: np.ndarray  # scratch bool (K,): the candidate set C
    upper_column: np.ndarray  # scratch float64 (K,): the column u_{. a1}


def init_ccb(K, horizon=None, alpha=ALPHA, skip=SKIP_OFF):
    """A fresh ``CCBState`` (B = all arms, every B^i empty, Lbar = K; switch times from
    ``core.bounds.fill_direct_bound_switches``).  alpha: confidence scale (> 0); skip: "off" or "exact"
    (module doc)."""
    alpha = check_alpha(alpha)
    n = np.full((K, K), PSEUDO_N)
    w = np.full((K, K), PSEUDO_W)
    upper, lower = np.zeros((K, K)), np.zeros((K, K))
    fill_direct_bound_switches(n, w, alpha, upper, lower)
    return CCBState(
        comparisons=n, wins=w, alpha=alpha, skip_runs=check_skip(skip), max_losses=np.array([K], dtype=np.int64),
        in_winners=fill_true(np.zeros(K, np.bool_)), challengers=np.zeros((K, K), np.int64),
        challenger_lens=np.zeros(K, np.int64), upper_switch=upper, lower_switch=lower,
        upper_copeland=np.zeros(K, np.int64), lower_copeland=np.zeros(K, np.int64),
        row_next=np.concatenate((np.zeros(K), [math.inf, -math.inf])), unresolved=np.full((2, K), -1, np.int64),
        in_candidates=np.zeros(K, np.bool_), upper_column=np.zeros(K),
    )


def sync_ccb(state):
    """Recompute the switch-time caches from ``state.comparisons`` and ``state.wins``; the next ``select``
    recounts every Copeland count and runs step 2 on every list."""
    fill_direct_bound_switches(state.comparisons, state.wins, state.alpha, state.upper_switch, state.lower_switch)
    state.row_next[state.comparisons.shape[0] + CHECKED_AT] = math.inf
