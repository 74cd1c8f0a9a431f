"""SAVAGE (Urvoy et al., ICML 2013), Condorcet and Copeland variants, as the D-TS authors ran it --
docs/algorithms.md#savage.

Explore-then-exploit: the horizon T enters the confidence width through delta = 1/T,
``c(n) = sqrt((ln(K(K-1)) + 2 ln T) / (2n))`` (Hoeffding with a union bound over the ordered pairs).

State: symmetric pseudo-count statistics n (1e-6) and w (5e-7), bounds U (1 everywhere) and L (0), the
exploration list X of the unordered pairs (i, j), i > j, in the order (1,0), (2,0), (2,1), (3,0), ...
(held in a tournament tree over that fixed order, see "Cost"), and ``best`` (-1 until X empties).  The as-run slot is:

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
they are integers).  Steps 4-5 change the bookkeeping (X, best): they run at the start of the *next*
``select``, before step 1.  For delay 1 this is exactly the as-run order (the first ``select`` prunes
nothing, since U = 1 and L = 0 leave every pair in X); with a delay they use the stale bounds.  L is
refreshed in both variants but read only by the Copeland one.

Cost: O(K) a slot, not O(K^2), with the same choices as the full test and scan (tests/reference/scans_reference.py).
Pairs only leave X, so step 4 needs to look only where something changed since the previous prune:

* Condorcet: a pair leaves when one of its arms has up < K - 1; an arm seen so is marked, and all its
  pairs leave once (O(K) per arm over the whole run);
* Copeland: "m > up_i" marks arm i weak.  A pair of X whose two arms are weak now had at most one weak
  arm at the previous prune, so only the pairs of the arms that became weak since then are tested; and
  a pair becomes decided (L_ij > 1/2 or U_ij < 1/2) only when it is compared, so ``update`` lists the
  compared pairs and only those are tested.

Step 1 reads the root of a tournament tree over X's list order (each node holds the pair of its
subtree with the fewest comparisons, the earlier one on ties; -1 for none), refreshed along one path
when a pair leaves X or is compared.

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

from dts_reproduction.algorithms.base import AlgorithmSpec, Policy, check_choice
from dts_reproduction.core.bounds import update_pair
from dts_reproduction.core.constants import SAVAGE_PSEUDO_N, SAVAGE_PSEUDO_W
from dts_reproduction.core.pairs import index_of_pair
from dts_reproduction.core.records import record

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
# scalar: every array a kernel reads is reference-counted on each call (docs/extending.md#adding-an-algorithm).
SAVAGE_COUNTERS = np.dtype([
    ("best", np.int64),  # the exploited arm once X is empty, -1 before
    ("x_size", np.int64),  # |X|
    ("touched", np.int64),  # pairs compared since the last prune (Copeland variant): touched_pairs[:touched]
])


class SAVAGEState(NamedTuple):
    """State of SAVAGE.  Settings: ``variant`` (VARIANT_CONDORCET or VARIANT_COPELAND), ``width_log``
    ln(K(K-1)) + 2 ln T (the numerator of the squared confidence width).  P = K(K-1)/2 pairs, S = the
    power of 2 >= P.  X is held by the tournament tree: pair p is in X iff its leaf's count is finite
    (``savage_pairs`` lists X).  Few arrays: every array a kernel reads costs reference counting on each
    call."""

    comparisons: np.ndarray  # float64 (K, K): n_ij (pseudo-count included)
    wins: np.ndarray  # float64 (K, K): w_ij (pseudo-count included)
    upper: np.ndarray  # float64 (K, K): U_ij
    lower: np.ndarray  # float64 (K, K): L_ij
    up_count: np.ndarray  # int64 (K,): #{j != i : U_ij > 1/2}, kept by ``update``
    lo_count: np.ndarray  # int64 (K,): #{j != i : L_ij > 1/2}, kept by ``update``
    width_log: float
    variant: int
    counters: np.ndarray  # SAVAGE_COUNTERS (1,): the changing scalars, by name (``counters[0].best``)
    # float64 (2S, 3): tournament tree over X in list order, leaf of pair p at S + p; a node holds
    # (n, i, j) of the pair (i, j) of its subtree with the fewest comparisons (the earlier on ties),
    # (inf, i, j) if none (a leaf keeps its pair's i, j when the pair leaves X).
    pair_tree: np.ndarray
    # int64 (2, K): row TIER_MARKED: 1 if the arm is marked (Condorcet: its pairs have left X; Copeland:
    # weak at the last prune); row TIER_NEWLY: scratch list of the arms weak now and not at the last prune.
    arm_marks: np.ndarray
    # int64 (2, P): row 0 lists the pairs compared since the last prune (``counters`` touched of them),
    # row 1 is 1 for a pair in that list.
    touched: np.ndarray


TIER_MARKED, TIER_NEWLY = 0, 1
COUNT, HI, LO = 0, 1, 2  # the columns of pair_tree


def init_savage(K, horizon, variant="condorcet"):
    """A fresh ``SAVAGEState`` for K arms and horizon T (X = every pair, U = 1, L = 0).

    variant: "condorcet" or "copeland"; "auto" raises ValueError (resolve it first with
    ``resolve_savage_variant``).
    """
    if variant == "auto":
        raise ValueError("SAVAGE variant 'auto' needs the true matrix: give variant='condorcet' or 'copeland' "
                         "(the simulator resolves it with resolve_savage_variant)")
    code = VARIANTS[check_choice("variant", variant, tuple(VARIANTS) + ("auto",))]
    num_pairs = K * (K - 1) // 2
    leaves = 1 << (num_pairs - 1).bit_length()
    state = SAVAGEState(
        comparisons=np.full((K, K), SAVAGE_PSEUDO_N),
        wins=np.full((K, K), SAVAGE_PSEUDO_W),
        upper=np.ones((K, K)),
        lower=np.zeros((K, K)),
        up_count=np.zeros(K, np.int64),
        lo_count=np.zeros(K, np.int64),
        width_log=math.log(K * (K - 1.0)) + 2.0 * math.log(horizon),
        variant=code,
        counters=record(SAVAGE_COUNTERS, (-1, num_pairs, 0)),
        pair_tree=np.zeros((2 * leaves, 3)),
        arm_marks=np.zeros((2, K), np.int64),
        touched=np.zeros((2, num_pairs), np.int64),
    )
    return rebuild_savage(state, np.ones(num_pairs, np.bool_))


def savage_pairs(state):
    """The pairs (i, j), i > j, of X in list order, and the mask over the list order it comes from."""
    K = state.up_count.shape[0]
    hi, lo = np.tril_indices(K, -1)
    in_x = state.pair_tree[state.pair_tree.shape[0] // 2:][: hi.shape[0], COUNT] < math.inf
    return [(int(i), int(j)) for i, j in zip(hi[in_x], lo[in_x], strict=True)], in_x


def rebuild_savage(state, in_x=None):
    """Make the bookkeeping consistent with ``state.upper``, ``state.lower`` and ``state.comparisons`` (the
    fresh state, or one set by hand), X = the pairs of the mask ``in_x`` over the list order (default: X
    as it is): the step-3 counts, step 4 on every pair of X (``prune``), the arm marks and the tree.
    Returns state."""
    hi, lo = (a.astype(np.int64) for a in np.tril_indices(state.up_count.shape[0], -1))
    in_x = savage_pairs(state)[1].copy() if in_x is None else in_x
    _rebuild(state, hi, lo, in_x)
    return state


@njit(cache=True)
def _rebuild(state, pair_hi, pair_lo, in_x):
    """``rebuild_savage``; pair_hi, pair_lo: the list order."""
    comparisons, upper, lower, up_count = state.comparisons, state.upper, state.lower, state.up_count
    lo_count, variant, counters, pair_tree = state.lo_count, state.variant, state.counters, state.pair_tree
    arm_marks, touched = state.arm_marks, state.touched
    K = up_count.shape[0]
    for i in range(K):
        up_count[i] = 0
        lo_count[i] = 0
        for j in range(K):
            if j != i:
                up_count[i] += upper[i, j] > 0.5
                lo_count[i] += lower[i, j] > 0.5
    c = counters[0]
    c.x_size = prune(upper, lower, pair_hi, pair_lo, in_x, up_count, lo_count, variant)
    m = np.max(lo_count)
    for i in range(K):
        arm_marks[TIER_MARKED, i] = up_count[i] < K - 1 if variant == VARIANT_CONDORCET else m > up_count[i]
    touched[1, :] = 0
    c.touched = 0
    leaves = pair_tree.shape[0] // 2
    for p in range(leaves):
        inside = p < in_x.shape[0] and in_x[p]
        pair_tree[leaves + p, COUNT] = comparisons[pair_hi[p], pair_lo[p]] if inside else math.inf
        pair_tree[leaves + p, HI] = pair_hi[p] if p < in_x.shape[0] else -1
        pair_tree[leaves + p, LO] = pair_lo[p] if p < in_x.shape[0] else -1
    for node in range(leaves - 1, 0, -1):
        _pick(pair_tree, node)


@njit(cache=True)
def prune(U, L, pair_hi, pair_lo, in_x, up, lo, variant):
    """Step 4 on every pair of X: clear ``in_x[p]`` for every pair the variant's independence test drops
    (module doc); ``up[i] = #{j != i : U_ij > 1/2}`` and ``lo[i] = #{j != i : L_ij > 1/2}`` are the
    step-3 counts.  Returns the new |X|."""
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


@njit(cache=True, inline="always")
def _pick(pair_tree, node):
    """Tree node ``node`` takes the child with fewer comparisons, the left one (earlier pairs) on ties."""
    child = 2 * node if pair_tree[2 * node, COUNT] <= pair_tree[2 * node + 1, COUNT] else 2 * node + 1
    pair_tree[node, COUNT] = pair_tree[child, COUNT]
    pair_tree[node, HI] = pair_tree[child, HI]
    pair_tree[node, LO] = pair_tree[child, LO]


@njit(cache=True)
def _set_count(pair_tree, p, count):
    """Give pair p the comparison count ``count`` in the tree (inf: not in X) and re-evaluate the nodes
    above its leaf."""
    node = pair_tree.shape[0] // 2 + p
    pair_tree[node, COUNT] = count
    node //= 2
    while node >= 1:
        _pick(pair_tree, node)
        node //= 2


@njit(cache=True)
def _drop(pair_tree, i, j):
    """Take the pair {i, j} out of X if it is in it; returns 1 if it was."""
    p = index_of_pair(max(i, j), min(i, j))
    if pair_tree[pair_tree.shape[0] // 2 + p, COUNT] == math.inf:
        return 0
    _set_count(pair_tree, p, math.inf)
    return 1


@njit(cache=True)
def _drop_arm_pairs(pair_tree, i, marks, every):
    """Take every pair {i, j}, j != i, with ``every`` or ``marks[TIER_MARKED, j]`` out of X; returns how
    many were in it."""
    dropped = 0
    for j in range(marks.shape[1]):
        if j != i and (every or marks[TIER_MARKED, j]):
            dropped += _drop(pair_tree, i, j)
    return dropped


@njit(cache=True)
def _prune_changes(comparisons, upper, lower, up_count, lo_count, variant, c, pair_tree, arm_marks, touched):
    """Step 4 where something changed since the previous prune (module doc, "Cost"), giving the same X
    as ``prune`` on every pair, and the tree counts of the pairs compared since then.  c: the counters
    record; updates |X| and empties the list of compared pairs."""
    K = up_count.shape[0]
    dropped = 0
    if variant == VARIANT_CONDORCET:
        for i in range(K):
            if not arm_marks[TIER_MARKED, i] and up_count[i] < K - 1:
                arm_marks[TIER_MARKED, i] = 1
                dropped += _drop_arm_pairs(pair_tree, i, arm_marks, True)
    else:
        m = np.max(lo_count)
        newly = 0
        for i in range(K):
            weak = m > up_count[i]
            if weak and not arm_marks[TIER_MARKED, i]:
                arm_marks[TIER_NEWLY, newly] = i
                newly += 1
            arm_marks[TIER_MARKED, i] = weak
        for s in range(newly):
            dropped += _drop_arm_pairs(pair_tree, arm_marks[TIER_NEWLY, s], arm_marks, False)
    leaves = pair_tree.shape[0] // 2
    for s in range(c.touched):
        p = touched[0, s]
        touched[1, p] = 0
        if pair_tree[leaves + p, COUNT] == math.inf:
            continue
        i, j = int(pair_tree[leaves + p, HI]), int(pair_tree[leaves + p, LO])
        if variant == VARIANT_COPELAND and (lower[i, j] > 0.5 or upper[i, j] < 0.5):
            dropped += _drop(pair_tree, i, j)
        else:
            _set_count(pair_tree, p, comparisons[i, j])
    c.touched = 0
    c.x_size -= dropped


@njit(cache=True)
def select(state, t, rng):
    """Steps 4-5 of the previous slot (prune X, fix ``best`` once X is empty), then step 1."""
    comparisons, upper, lower, up_count = state.comparisons, state.upper, state.lower, state.up_count
    lo_count, variant, counters, pair_tree = state.lo_count, state.variant, state.counters, state.pair_tree
    arm_marks, touched = state.arm_marks, state.touched
    c = counters[0]
    if c.x_size > 0:
        _prune_changes(comparisons, upper, lower, up_count, lo_count, variant, c, pair_tree, arm_marks, touched)
    if c.x_size == 0:
        c.best = np.argmax(up_count)  # first index of the largest count (step 5)
        return c.best, c.best
    return int(pair_tree[1, HI]), int(pair_tree[1, LO])


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
    counts), and the pair in the list of compared pairs (whose place in the tree the next ``select``
    refreshes: no loop here, so that numba keeps no reference counts in this per-slot call)."""
    comparisons, wins, upper, lower, up_count = state.comparisons, state.wins, state.upper, state.lower, state.up_count
    lo_count, width_log, counters, touched = state.lo_count, state.width_log, state.counters, state.touched
    update_pair(comparisons, wins, a1, a2, a1_won)
    if a1 == a2:
        return
    _count_pair(upper, lower, up_count, lo_count, a1, a2, -1)
    width = math.sqrt(width_log / (2.0 * comparisons[a1, a2]))
    upper[a1, a2] = wins[a1, a2] / comparisons[a1, a2] + width
    upper[a2, a1] = wins[a2, a1] / comparisons[a1, a2] + width
    lower[a1, a2] = 1.0 - upper[a2, a1]
    lower[a2, a1] = 1.0 - upper[a1, a2]
    _count_pair(upper, lower, up_count, lo_count, a1, a2, 1)
    p = index_of_pair(max(a1, a2), min(a1, a2))
    if not touched[1, p]:
        touched[1, p] = 1
        touched[0, counters[0].touched] = p
        counters[0].touched += 1


SAVAGE_SPEC = AlgorithmSpec(
    name="savage", label="SAVAGE", init=init_savage, select=select, update=update,
    color="#bcbd22", marker="^",
    defaults={"variant": "auto"},
    needs_horizon=True,
    from_problem=lambda params, dataset, P: resolve_savage_variant(params, dataset.has_condorcet_winner),
    reference="Urvoy et al. 2013, SAVAGE (Condorcet/Copeland independence tests), as run by Wu & Liu 2016 "
              "(docs/algorithms.md#savage)",
)


class Savage(Policy):
    """SAVAGE as a live policy (see ``Policy``); needs ``horizon`` and ``variant`` ("condorcet" or
    "copeland": the default "auto" needs the true matrix, which only the simulator has)."""

    spec = SAVAGE_SPEC
