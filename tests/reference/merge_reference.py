"""MergeDTS and MergeRUCB as the MergeDTS authors ran them (docs/algorithms.md#mergedts, #mergerucb), in plain
Python with a list of lists of arms, following the structure of their code (merge_dts.py, merge_rucb.py:
``get_arms``, ``update_scores``, the ``ArmTree`` methods), with every random choice drawn from one
``numpy.random.Generator`` in the order of the njit kernels.

Where this differs from the authors' code (each an exact equivalent in law, not in stream): their arm
shuffle happens in the constructor with a generator of its own, here at the first ``select`` (the
generator is only known then); list shuffles are a Fisher-Yates from the last position; a tie draw is
made only when there is a tie, no draw for the first arm of a one-arm MergeRUCB batch, and the theta' of
a_c itself is not drawn.  The stage check and the clock stay in ``update``, as in their code (the njit
``select`` does them at its start, which for feedback without delay is the same sequence).
"""

import math

import numpy as np


def shuffle(items, rng):
    """Fisher-Yates from the last position, one ``rng.integers`` per position."""
    for i in range(len(items) - 1, 0, -1):
        r = int(rng.integers(0, i + 1))
        items[i], items[r] = items[r], items[i]


def uniform_argmax(values, rng):
    """An index of the largest value, uniform among ties (a draw only on a tie)."""
    top = np.flatnonzero(values == values.max())
    return int(top[rng.integers(0, len(top))]) if len(top) > 1 else int(top[0])


class RefMerge:
    """MergeDTS (``algorithm="merge_dts"``) or MergeRUCB (``"merge_rucb"``); ``events`` counts the
    pruned arms, merged one-arm batches, stage merges, and the pairs played (self-comparisons, others)."""

    def __init__(self, K, algorithm, alpha=1.01, batch_size=4, C=None, epsilon=0.01, clock="stage",
                 theta="independent", second_arm="loser", sampling="direct"):
        """Fresh state: W = 1 everywhere, clock t = floor(C + 1) (C None: its formula), stage 1, batches built
        at the first select.  Only the Beta draws of sampling="direct" are transcribed (the indicators are
        checked for their law, tests/algorithms/test_merge.py)."""
        assert sampling == "direct"
        if C is None:
            C = ((4 * alpha - 1) * K**2 / ((2 * alpha - 1) * epsilon)) ** (1 / (2 * alpha - 1))
        self.K, self.algorithm, self.alpha, self.M = K, algorithm, alpha, batch_size
        self.reset, self.theta, self.second_arm = clock == "stage", theta, second_arm
        self.W = np.ones((K, K))
        self.start = self.t = math.floor(C + 1)
        self.stage, self.batches = 1, None
        self.events = dict.fromkeys(("prune", "single", "stage", "self", "other"), 0)

    def ucb(self, batch):
        """u_ij = W_ij / N_ij + sqrt(alpha ln t) / sqrt(N_ij) over the batch, u_ii = 1/2."""
        W = self.W[np.ix_(batch, batch)]
        N = W + W.T
        U = W / N + math.sqrt(self.alpha * math.log(self.t)) / np.sqrt(N)
        np.fill_diagonal(U, 0.5)
        return U

    def prune(self, b, rng):
        """``ArmTree.prune_item``: drop the row arm of a uniform pair with u_ij < 1/2 (row-major order)."""
        batch = self.batches[b]
        if len(batch) == 1:
            return False
        rows, _ = np.nonzero(self.ucb(batch) < 0.5)
        if len(rows) == 0:
            return False
        batch.pop(int(rows[rng.integers(0, len(rows))]))
        self.events["prune"] += 1
        return True

    def merge_single(self, b):
        """``merge_single_batch``: a one-arm batch b, among several, joins the next one; the new index of b."""
        if len(self.batches[b]) == 1 and len(self.batches) > 1:
            i = (b + 1) % len(self.batches)
            if i != 0:
                self.batches[b] = self.batches[i] + self.batches.pop(b)
            else:
                self.batches[i] = self.batches[i] + self.batches.pop(b)
            self.events["single"] += 1
            b = b % len(self.batches)
        return b

    def merge_batches(self, rng):
        """``ArmTree.merge_batches``: shuffle, stable sort by size, pair smallest and largest up to 1.5 M."""
        old = self.batches[:]
        shuffle(old, rng)
        old.sort(key=len)
        self.batches = []
        i, j = 0, len(old) - 1
        while i <= j:
            if i == j:
                self.batches.append(old[i])
                break
            elif len(old[i]) + len(old[j]) > self.M * 1.5:
                self.batches.append(old[j])
                j -= 1
            else:
                self.batches.append(old[i] + old[j])
                i += 1
                j -= 1

    def select(self, rng):
        """``get_arms`` of the algorithm (and, at the first call, the arm shuffle of ``ArmTree``)."""
        if self.batches is None:
            arms = list(range(self.K))
            shuffle(arms, rng)
            self.batches = [arms[k:k + self.M] for k in range(0, self.K, self.M)]
        b = self.t % len(self.batches)
        if self.algorithm == "merge_rucb":
            return self.merge_rucb_arms(b, rng)
        return self.merge_dts_arms(b, rng)

    def merge_rucb_arms(self, b, rng):
        """merge_rucb.py ``get_arms``: (a, a) for a one-arm batch, pruning, a_c uniform, a_d = argmax u_{. a_c}."""
        if len(self.batches[b]) == 1:
            return self.batches[b][0], self.batches[b][0]
        while self.prune(b, rng):
            pass
        batch = self.batches[b]
        if len(batch) == 1:
            return batch[0], batch[0]
        c = int(rng.integers(0, len(batch)))
        column = self.ucb(batch)[:, c]
        column[c] = 0.0
        return batch[c], batch[uniform_argmax(column, rng)]

    def merge_dts_arms(self, b, rng):
        """merge_dts.py ``get_arms``: ``sample_tournament`` then ``relative_sample``."""
        if len(self.batches[b]) == 1 and len(self.batches) == 1:
            return self.batches[b][0], self.batches[b][0]
        b = self.merge_single(b)
        while self.prune(b, rng):
            b = self.merge_single(b)
        batch = self.batches[b]
        n = len(batch)
        if n == 1:
            return batch[0], batch[0]
        W = self.W[np.ix_(batch, batch)]
        theta = np.full((n, n), 0.5)
        for p in range(n):
            for q in range(n):
                if self.theta == "independent" and p != q:
                    theta[p, q] = rng.beta(W[p, q], W[q, p])
                elif self.theta == "antisymmetric" and p < q:
                    theta[p, q] = rng.beta(W[p, q], W[q, p])
                    theta[q, p] = 1.0 - theta[p, q]
        c = uniform_argmax((theta > 0.5).sum(axis=1), rng)
        relative = np.array([rng.beta(W[p, c], W[c, p]) if p != c else np.nan for p in range(n)])
        if self.second_arm == "loser":
            relative[c] = 1.0
            return batch[c], batch[int(np.argmin(relative))]
        relative[c] = 0.5
        return batch[c], batch[int(np.argmax(relative))]

    def update(self, a1, a2, a1_won, rng):
        """``update_scores``: the win, the clock, and the stage check with its merges (drawn from ``rng``,
        the algorithm's generator)."""
        self.events["self" if a1 == a2 else "other"] += 1
        winner, loser = (a1, a2) if a1_won else (a2, a1)
        self.W[winner, loser] += 1
        self.t += 1
        if sum(len(batch) for batch in self.batches) <= self.K // 2**self.stage + 1 and len(self.batches) > 1:
            self.merge_batches(rng)
            if min(len(batch) for batch in self.batches) <= 0.5 * self.M:
                self.merge_batches(rng)
            self.stage += 1
            self.events["stage"] += 1
            if self.reset:
                self.t = self.start
