"""The batches of MergeRUCB and MergeDTS (Zoghi et al. WSDM 2015; Li et al. TOIS 2020), as the MergeDTS
authors ran them (docs/algorithms.md#mergedts, #mergerucb): one set of kernels for both.

The K arms are shuffled and cut into batches of M (the last one smaller); at each slot one batch, number
``clock mod (number of batches)``, is played.  Inside it an arm i is pruned when u_ij < 1/2 for some j of
the batch, with u_ij = W_ij / N_ij + sqrt(alpha ln clock) / sqrt(N_ij), N_ij = W_ij + W_ji (W holds the
wins plus a prior 1 per ordered pair).  When at most floor(K / 2^s) + 1 arms survive and there are
several batches, stage s ends: the batches are merged and the clock restarts at floor(C + 1).

Layout (arrays of ``new_batches``):
  batch_arms int64 (K,): the surviving arms, batch after batch, each batch in its own order;
  batch_starts int64 (K + 1,): batch b is ``batch_arms[batch_starts[b]:batch_starts[b + 1]]``;
  tree: one ``BATCH_TREE`` record: ``batches`` (0 until the first slot builds them), ``survivors``,
    ``stage`` s, ``clock`` (the time index of the confidence radius and of the batch choice);
  scratch_arms, scratch_starts, batch_order int64 and batch_sizes float64: scratch of the merges.
A slot costs O(M^2) (the pruning check of its batch); removing an arm costs O(K) and a merge
O(K + (K / M)^2), both at most K times a run.
"""

import math

import numpy as np
from numba import njit

from dts_reproduction.core.records import record
from dts_reproduction.core.sort import insertion_sort_by_key

BATCH_TREE = np.dtype([("batches", np.int64), ("survivors", np.int64), ("stage", np.int64), ("clock", np.int64)])
# The largest clock start floor(C + 1) accepted: the clock then still has 2**62 slots before int64 overflows.
MAX_CLOCK_START = 2**62
MERGE_LIMIT = 1.5  # merge_dts.py ``ArmTree.merge_batches``: two batches are merged only up to 1.5 M arms
REMERGE_SIZE = 0.5  # merge_dts.py ``update_scores``: if a batch has at most 0.5 M arms after a merge pass, merge again


def clock_start(K, alpha, epsilon, C):
    """floor(C + 1), the clock at the start of every stage, with C given (a finite number >= 0) or, for
    C = None, from the formula C = ((4 alpha - 1) K^2 / ((2 alpha - 1) epsilon))^(1 / (2 alpha - 1)),
    which needs alpha > 1/2.  ValueError naming the bad value (also for a C whose floor(C + 1) exceeds
    MAX_CLOCK_START)."""
    if C is None:
        if alpha <= 0.5:
            raise ValueError(f"C from its formula needs alpha > 0.5, got alpha = {alpha!r} (give C)")
        try:
            C = ((4.0 * alpha - 1.0) * K**2 / ((2.0 * alpha - 1.0) * epsilon)) ** (1.0 / (2.0 * alpha - 1.0))
        except OverflowError:
            C = math.inf
        name = f"C = ((4 alpha - 1) K^2 / ((2 alpha - 1) epsilon))^(1 / (2 alpha - 1)) with alpha = {alpha!r}"
    else:
        name = "C"
        try:
            if isinstance(C, (bool, np.bool_, str, bytes)):  # a text such as '100' is not a number here either
                raise TypeError
            C = float(C)
        except (TypeError, ValueError):
            raise ValueError(f"C must be None (its formula) or a finite number >= 0, got {C!r}") from None
        if not C >= 0.0:
            raise ValueError(f"C must be None (its formula) or a finite number >= 0, got {C!r}")
    if not C + 1.0 <= MAX_CLOCK_START:
        raise ValueError(f"{name} is {C!r}: its clock floor(C + 1) would exceed {MAX_CLOCK_START}")
    return int(math.floor(C + 1.0))


def check_batch_size(batch_size) -> int:
    """The batch size M as an int; ValueError unless it is an integer >= 2."""
    if isinstance(batch_size, (bool, np.bool_)) or not isinstance(batch_size, (int, np.integer)) or batch_size < 2:
        raise ValueError(f"batch_size must be an integer >= 2, got {batch_size!r}")
    return int(batch_size)


def new_batches(K, start):
    """(batch_arms, batch_starts, tree, scratch_arms, scratch_starts, batch_order, batch_sizes) for K arms,
    not built yet (``tree[0].batches == 0``), clock at ``start``."""
    tree = record(BATCH_TREE)
    tree[0]["survivors"], tree[0]["stage"], tree[0]["clock"] = K, 1, start
    return (np.arange(K, dtype=np.int64), np.zeros(K + 1, np.int64), tree, np.zeros(K, np.int64),
            np.zeros(K + 1, np.int64), np.zeros(K, np.int64), np.zeros(K))


@njit(cache=True)
def build_batches(rng, arms, starts, tree, batch_size):
    """The first slot: shuffle the arms (Fisher-Yates from the last position, one ``rng.integers`` each)
    and cut them into ceil(K / M) batches of M, the last one smaller."""
    K = arms.shape[0]
    for i in range(K):
        arms[i] = i
    for i in range(K - 1, 0, -1):
        r = rng.integers(0, i + 1)
        arms[i], arms[r] = arms[r], arms[i]
    count = (K + batch_size - 1) // batch_size
    for b in range(count):
        starts[b] = b * batch_size
    starts[count] = K
    tree[0].batches = count


@njit(cache=True)
def _install(arms, starts, tree, scratch_arms, scratch_starts, count):
    """Copy ``count`` batches built in the scratch arrays back into the layout."""
    for b in range(count + 1):
        starts[b] = scratch_starts[b]
    for k in range(scratch_starts[count]):
        arms[k] = scratch_arms[k]
    tree[0].batches = count


@njit(cache=True)
def _append_batch(arms, starts, b, scratch_arms, k):
    """Append batch b's arms to ``scratch_arms`` from position k; returns the next free position."""
    for m in range(starts[b], starts[b + 1]):
        scratch_arms[k] = arms[m]
        k += 1
    return k


@njit(cache=True)
def merge_singleton(arms, starts, tree, b, scratch_arms, scratch_starts):
    """Merge batch b, of one arm, into the next batch (cyclically), as run (merge_dts.py
    ``merge_single_batch``): the merged batch holds the next batch's arms then b's arm and takes the
    earlier of the two places.  Returns its index."""
    count = tree[0].batches
    following = (b + 1) % count
    k = 0
    out = 0
    for c in range(count):
        if c == b:
            continue
        scratch_starts[out] = k
        k = _append_batch(arms, starts, c, scratch_arms, k)
        if c == following:
            scratch_arms[k] = arms[starts[b]]
            k += 1
        out += 1
    scratch_starts[out] = k
    _install(arms, starts, tree, scratch_arms, scratch_starts, out)
    return b % out


@njit(cache=True)
def _merge_pass(rng, arms, starts, tree, batch_size, scratch_arms, scratch_starts, order, sizes):
    """One merge pass (merge_dts.py ``ArmTree.merge_batches``): shuffle the batches, sort them by size (stably),
    then pair the smallest with the largest -- the largest alone if the two exceed 1.5 M arms -- and
    so on inwards.  Returns the size of the smallest batch after the pass."""
    count = tree[0].batches
    for c in range(count):
        order[c] = c
    for c in range(count - 1, 0, -1):
        r = rng.integers(0, c + 1)
        order[c], order[r] = order[r], order[c]
    for c in range(count):
        sizes[c] = starts[order[c] + 1] - starts[order[c]]
    insertion_sort_by_key(sizes, order, count)
    i, j, k, out = 0, count - 1, 0, 0
    smallest = float(arms.shape[0])
    while i <= j:
        scratch_starts[out] = k
        if i == j or sizes[i] + sizes[j] > MERGE_LIMIT * batch_size:
            k = _append_batch(arms, starts, order[j], scratch_arms, k)
            size = sizes[j]
        else:
            k = _append_batch(arms, starts, order[i], scratch_arms, k)
            k = _append_batch(arms, starts, order[j], scratch_arms, k)
            size = sizes[i] + sizes[j]
            i += 1
        j -= 1
        smallest = min(smallest, size)
        out += 1
    scratch_starts[out] = k
    _install(arms, starts, tree, scratch_arms, scratch_starts, out)
    return smallest


@njit(cache=True)
def open_slot(rng, arms, starts, tree, batch_size, start, reset_clock, scratch_arms, scratch_starts, order, sizes):
    """The batch of this slot: at the first slot the batches are built; at every later one stage s ends
    first if at most floor(K / 2^s) + 1 arms survive and there are several batches (one merge pass, a
    second one if a batch still has at most 0.5 M arms; s += 1; the clock back to ``start`` if
    ``reset_clock``) -- the check the authors' code makes after each update.  Returns clock mod batches."""
    K = arms.shape[0]
    if tree[0].batches == 0:
        build_batches(rng, arms, starts, tree, batch_size)
    elif tree[0].batches > 1 and tree[0].survivors <= K // (1 << tree[0].stage) + 1:
        if _merge_pass(rng, arms, starts, tree, batch_size, scratch_arms, scratch_starts, order, sizes) \
                <= REMERGE_SIZE * batch_size:
            _merge_pass(rng, arms, starts, tree, batch_size, scratch_arms, scratch_starts, order, sizes)
        tree[0].stage += 1
        if reset_clock:
            tree[0].clock = start
    return tree[0].clock % tree[0].batches


@njit(cache=True, inline="always")
def upper_bound(wins, i, j, radius):
    """u_ij = W_ij / N_ij + radius / sqrt(N_ij) with N_ij = W_ij + W_ji and radius = sqrt(alpha ln clock)."""
    n = wins[i, j] + wins[j, i]
    return wins[i, j] / n + radius / math.sqrt(n)


@njit(cache=True, inline="always")
def _below_half(wins, i, j, radius):
    """u_ij < 1/2 (never when W_ij >= W_ji: the mean is then >= 1/2 and the radius >= 0)."""
    return wins[i, j] < wins[j, i] and upper_bound(wins, i, j, radius) < 0.5


@njit(cache=True)
def prune_one(rng, wins, arms, starts, tree, b, radius):
    """One pruning step of batch b, as run (merge_dts.py ``ArmTree.prune_item``): if it has more than one arm and
    pairs (i, j) of it with u_ij < 1/2, the arm i of one of these pairs, drawn uniformly (pairs in
    row-major order of batch positions), leaves the batch.  True if an arm left."""
    low, high = starts[b], starts[b + 1]
    if high - low <= 1:
        return False
    count = 0
    for p in range(low, high):
        for q in range(low, high):
            if p != q and _below_half(wins, arms[p], arms[q], radius):
                count += 1
    if count == 0:
        return False
    pick = rng.integers(0, count)
    for p in range(low, high):
        for q in range(low, high):
            if p != q and _below_half(wins, arms[p], arms[q], radius):
                if pick == 0:
                    _remove(arms, starts, tree, b, p)
                    return True
                pick -= 1
    return False


@njit(cache=True)
def _remove(arms, starts, tree, b, position):
    """Remove the arm at ``position`` of ``arms`` (in batch b): the later arms and batches move up one."""
    for k in range(position, tree[0].survivors - 1):
        arms[k] = arms[k + 1]
    for c in range(b + 1, tree[0].batches + 1):
        starts[c] -= 1
    tree[0].survivors -= 1


@njit(cache=True)
def record_win(wins, a1, a2, a1_won):
    """W[winner, loser] += 1 (a self-comparison adds to the diagonal, which nothing reads)."""
    if a1_won:
        wins[a1, a2] += 1.0
    else:
        wins[a2, a1] += 1.0
