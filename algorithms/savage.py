"""SAVAGE (Urvoy et al., ICML 2013), Condorcet and Copeland variants, as the D-TS authors ran it --
docs/algorithms.md#savage.

Explore-then-exploit: the horizon T enters the confidence width through delta = 1/T,
``c(n) = sqrt((ln(K(K-1)) + 2 ln T) / (2n))`` (Hoeffding with a union bound over the ordered pairs).

State: symmetric pseudo-count statistics n (1e-6) and w (5e-7), bounds U (1 everywhere) and L (0), the
exploration list X of the unordered pairs (i, j), i > j, in the order (1,0), (2,0), (2,1), (3,0), ...
(a mask over that fixed order), and ``best`` (-1 until X empties).  The as-run slot is:

1. if X is empty play (best, best); else play the pair of X with the smallest n, first in list order
   on ties, as (i, j) with i > j -- a round-robin over X;
2. common pair update; for a non-self pair refresh only that pair's bounds
   ``U_ij = w_ij/n_ij + c(n_ij)``, ``U_ji = w_ji/n_ij + c(n_ij)``, ``L_ij = 1 - U_ji``, ``L_ji = 1 - U_ij``;
3. ``up_i = #{j != i : U_ij > 1/2}``, ``lo_i = #{j != i : L_ij > 1/2}``;
4. prune X -- Condorcet: drop (i, j) if ``up_i < K-1`` or ``up_j < K-1`` (keep only pairs of arms still
   unbeaten); Copeland: with ``m = max_k lo_k``, drop (i, j) if ``L_ij > 1/2`` or ``U_ij < 1/2`` or
   (``m > up_i`` and ``m > up_j``) (the pair is decided, or neither arm can still be a Copeland winner);
5. if X is empty, ``best = `` first-index argmax of up.

Delay contract (docs/harness.md#feedback-delay).  U and L of the played pair are functions of that
pair's n and w, and the counts up/lo of step 3 are functions of U and L: ``update`` does step 2 and
keeps up/lo current (it removes the played pair's old contributions and adds the new ones, exact since
they are integers), so a slot costs O(|X|), not O(K^2).  Steps 4-5 change the bookkeeping (X, best): they run
at the start of the *next* ``select``, before step 1.  For delay 1 this is exactly the as-run order (the
first ``select`` prunes nothing, since U = 1 and L = 0 leave every pair in X); with a delay they use the
stale bounds.  L is refreshed in both variants but read only by the Copeland one.

Variant: the authors' harness hands SAVAGE the true winner type of the matrix (docs/harness.md#regret): the Condorcet
variant if a Condorcet winner exists, else the Copeland variant.  The default ``variant="auto"`` does
the same: the simulator resolves it from the true matrix (``SAVAGE_SPEC.from_problem``, which calls
``resolve_savage_variant``) before ``init``; ``init`` itself refuses "auto", so a live ``Savage``
policy, which cannot know the true matrix, must be given "condorcet" or "copeland".
"""

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from algorithms.base import AlgorithmSpec, Policy, check_choice
from core.bounds import update_pair
from core.constants import SAVAGE_PSEUDO_N, SAVAGE_PSEUDO_W

VARIANT_CONDORCET, VARIANT_COPELAND = 0, 1
VARIANTS = {"condorcet": VARIANT_CONDORCET, "copeland": VARIANT_COPELAND}


def resolve_savage_variant(params, has_condorcet_winner):
    """Copy of ``params`` with ``variant="auto"`` replaced by the paper's choice (docs/harness.md#regret).

    "condorcet" if the true matrix has a Condorcet winner, else "copeland"; an explicit "condorcet" or
    "copeland" (or no ``variant`` key) is left as it is.
    """
    params = dict(params or {})
    if params.get("variant") == "auto":
        params["variant"] = "condorcet" if has_condorcet_winner else "copeland"
    return params


# The scalars of the state that change, as the named fields of one record: one array instead of one per
# scalar, because every array of a state is reference-counted each time the state is passed to a kernel.
SAVAGE_COUNTERS = np.dtype([
    ("best", np.int64),  # the exploited arm once X is empty, -1 before
    ("x_size", np.int64),  # |X|
])


class SAVAGEState(NamedTuple):
    """State of SAVAGE.  Settings: ``variant`` (VARIANT_CONDORCET or VARIANT_COPELAND), ``width_log``
    ln(K(K-1)) + 2 ln T (the numerator of the squared confidence width).  P = K(K-1)/2 pairs."""

    comparisons: np.ndarray  # float64 (K, K): n_ij (pseudo-count included)
    wins: np.ndarray  # float64 (K, K): w_ij (pseudo-count included)
    upper: np.ndarray  # float64 (K, K): U_ij
    lower: np.ndarray  # float64 (K, K): L_ij
    pair_hi: np.ndarray  # int64 (P,): i of the pairs (i, j), i > j, in X's list order
    pair_lo: np.ndarray  # int64 (P,): j of those pairs
    in_x: np.ndarray  # bool (P,): the pair is still in the exploration set X
    up_count: np.ndarray  # int64 (K,): #{j != i : U_ij > 1/2}, kept by ``update``
    lo_count: np.ndarray  # int64 (K,): #{j != i : L_ij > 1/2}, kept by ``update``
    width_log: float
    variant: int
    counters: np.ndarray  # SAVAGE_COUNTERS (1,): the changing scalars, by name (``counters[0].best``)


def init_savage(K, horizon, variant="condorcet"):
    """A fresh ``SAVAGEState`` for K arms and horizon T (X = every pair, U = 1, L = 0).

    variant: "condorcet" or "copeland"; "auto" raises ValueError (resolve it first with
    ``resolve_savage_variant``).
    """
    if variant == "auto":
        raise ValueError("SAVAGE variant 'auto' must be resolved from the true winner type with "
                         "resolve_savage_variant(params, has_condorcet_winner) before init")
    code = VARIANTS[check_choice("variant", variant, tuple(VARIANTS) + ("auto",))]
    hi, lo = np.tril_indices(K, -1)
    num_pairs = K * (K - 1) // 2
    return SAVAGEState(
        comparisons=np.full((K, K), SAVAGE_PSEUDO_N),
        wins=np.full((K, K), SAVAGE_PSEUDO_W),
        upper=np.ones((K, K)),
        lower=np.zeros((K, K)),
        pair_hi=hi.astype(np.int64),
        pair_lo=lo.astype(np.int64),
        in_x=np.ones(num_pairs, np.bool_),
        up_count=np.full(K, K - 1, np.int64),
        lo_count=np.zeros(K, np.int64),
        width_log=math.log(K * (K - 1.0)) + 2.0 * math.log(horizon),
        variant=code,
        counters=np.array([(-1, num_pairs)], dtype=SAVAGE_COUNTERS),
    )


@njit(cache=True)
def prune(U, L, pair_hi, pair_lo, in_x, up, lo, variant):
    """Step 4: clear ``in_x[p]`` for every pair of X the variant's independence test drops (module doc);
    ``up[i] = #{j != i : U_ij > 1/2}`` and ``lo[i] = #{j != i : L_ij > 1/2}`` are the step-3 counts.
    Returns the new |X|."""
    K = U.shape[0]
    m = np.max(lo)
    size = 0
    for p in range(pair_hi.shape[0]):
        if not in_x[p]:
            continue
        i = pair_hi[p]
        j = pair_lo[p]
        if variant == VARIANT_CONDORCET:
            drop = up[i] < K - 1 or up[j] < K - 1
        else:
            drop = L[i, j] > 0.5 or U[i, j] < 0.5 or (m > up[i] and m > up[j])
        in_x[p] = not drop
        size += in_x[p]
    return size


@njit(cache=True)
def select(state, t, rng):
    """Steps 4-5 of the previous slot (prune X, fix ``best`` once X is empty), then step 1."""
    (comparisons, _, upper, lower, pair_hi, pair_lo, in_x, up_count, lo_count, _, variant, counters) = state
    c = counters[0]
    n, pair_hi, pair_lo, in_x = comparisons, pair_hi, pair_lo, in_x
    if c.x_size > 0:
        c.x_size = prune(upper, lower, pair_hi, pair_lo, in_x, up_count, lo_count,
                                variant)
    if c.x_size == 0:
        c.best = np.argmax(up_count)  # first index of the largest count (step 5)
        return c.best, c.best
    chosen = -1
    for p in range(pair_hi.shape[0]):
        if in_x[p] and (chosen < 0 or n[pair_hi[p], pair_lo[p]] < n[pair_hi[chosen], pair_lo[chosen]]):
            chosen = p
    return pair_hi[chosen], pair_lo[chosen]


@njit(cache=True)
def _count_pair(U, L, up, lo, a1, a2, sign):
    """Add ``sign`` times the contributions of the bounds of the pair {a1, a2} to the counts up, lo."""
    up[a1] += sign * (U[a1, a2] > 0.5)
    up[a2] += sign * (U[a2, a1] > 0.5)
    lo[a1] += sign * (L[a1, a2] > 0.5)
    lo[a2] += sign * (L[a2, a1] > 0.5)


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """Step 2: the common pair update and, for a non-self pair, that pair's U and L (and their step-3
    counts)."""
    (comparisons, wins, upper, lower, _, _, _, up_count, lo_count, width_log, _, _) = state
    n, w, U, L, up, lo = comparisons, wins, upper, lower, up_count, lo_count
    update_pair(n, w, a1, a2, a1_won)
    if a1 == a2:
        return
    _count_pair(U, L, up, lo, a1, a2, -1)
    width = math.sqrt(width_log / (2.0 * n[a1, a2]))
    U[a1, a2] = w[a1, a2] / n[a1, a2] + width
    U[a2, a1] = w[a2, a1] / n[a1, a2] + width
    L[a1, a2] = 1.0 - U[a2, a1]
    L[a2, a1] = 1.0 - U[a1, a2]
    _count_pair(U, L, up, lo, a1, a2, 1)


SAVAGE_SPEC = AlgorithmSpec(
    name="savage", label="SAVAGE", init=init_savage, select=select, update=update,
    color="#bcbd22", marker="^",
    defaults={"variant": "auto"},
    needs_horizon=True,
    from_problem=lambda params, dataset: resolve_savage_variant(params, dataset.has_condorcet_winner),
    reference="Urvoy et al. 2013, SAVAGE (Condorcet/Copeland independence tests), as run by Wu & Liu 2016 "
              "(docs/algorithms.md#savage)",
)


class Savage(Policy):
    """SAVAGE as a live policy (see ``Policy``); needs ``horizon`` and ``variant`` ("condorcet" or
    "copeland": the default "auto" needs the true matrix, which only the simulator has)."""

    spec = SAVAGE_SPEC
