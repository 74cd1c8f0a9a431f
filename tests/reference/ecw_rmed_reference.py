"""ECW-RMED (Komiyama et al. 2016) as run, transcribed in plain Python: its confidence check, findMinRegret
and the whole algorithm."""

import math

import numpy as np

from tests.reference.kl_reference import kl_clamped
from tests.reference.pairs_reference import pair_order


def ref_confident(n, p, lam, precheck):
    """ECW-RMED's confidence check (docs/algorithms.md#ecw-rmed) literally: S = H + O sorted by a stable sort on the
    cost."""
    K = n.shape[0]
    cost = n * np.vectorize(kl_clamped)(p) / lam
    sc = [(p[i] > 0.5).sum() for i in range(K)]
    losses = [(p[:, i] > 0.5).sum() for i in range(K)]
    top, second = sorted(sc, reverse=True)[:2]
    L1, L2 = K - 1 - max(top, 0), K - 1 - second
    if precheck and any(cost[i, j] > 1 for i, j in pair_order(K)):
        return -1
    for i1 in [i for i in range(K) if sc[i] == top]:
        H = [("H", j, cost[i1, j]) for j in range(K) if p[i1, j] > 0.5]
        ok = True
        for i2 in (i for i in range(K) if i != i1):
            S = sorted(H + [("O", j, cost[j, i2]) for j in range(K) if j != i1 and p[j, i2] > 0.5],
                       key=lambda e: e[2])
            for level in range(L1, L2 + 1):
                hH, hO = level + 1 - L1, max(0, losses[i2] - level)
                th = to = 0
                total = 0.0
                for kind, j, c in S:
                    if th >= hH and to >= hO:
                        break
                    if kind == "H" and th < hH:
                        total, th = total + c, th + 1
                        to += j == i2
                    elif kind == "O" and to < hO:
                        total, to = total + c, to + 1
                if total < 1:
                    ok = False
            if not ok:
                break
        if ok:
            return i1
    return -1


def ref_row_summaries(n, p, kl):
    """Per row i, over its pairs (i, j), j < i: the fewest comparisons n_ij, the smallest |p_ij - 1/2| and the largest
    n_ij KLc(p_ij, 1/2) (inf, inf and -inf in row 0, which has no pair)."""
    K = n.shape[0]
    below = [list(range(i)) for i in range(K)]
    return (np.array([min((n[i, j] for j in below[i]), default=math.inf) for i in range(K)]),
            np.array([min((abs(p[i, j] - 0.5) for j in below[i]), default=math.inf) for i in range(K)]),
            np.array([max((n[i, j] * kl[i, j] for j in below[i]), default=-math.inf) for i in range(K)]))


def ref_find_min_regret(p):
    """ECW-RMED's findMinRegret (docs/algorithms.md#ecw-rmed) literally; returns (w_hat, q_hat) with q symmetric."""
    K = p.shape[0]
    L = [(p[:, i] > 0.5).sum() for i in range(K)]
    lmin = min(L)
    r = lambda i, j: (L[i] + L[j] - 2 * lmin) / (2.0 * (K - 1))  # noqa: E731
    best, best_obj, best_q = -1, 0.0, None
    for i1 in [i for i in range(K) if L[i] == lmin]:
        q = np.zeros((K, K))
        for j in range(K):
            if p[j, i1] < 0.5:
                q[i1, j] = q[j, i1] = 1.0 / kl_clamped(p[i1, j])
        for i2 in (i for i in range(K) if i != i1):
            sup = sorted((r(j, i2) / kl_clamped(p[j, i2]), j) for j in range(K) if j not in (i1, i2) and p[j, i2] > 0.5)
            k = len(sup) - (L[i2] - L[i1] + 1)
            if k < 0:
                continue
            ratios = [sum(c for c, _ in sup[:h]) / (h - k) for h in range(k + 1, len(sup) + 1)]
            h_star = k + 1 + int(np.argmin(ratios))
            for _, j in sup[:h_star]:
                q[j, i2] = q[i2, j] = 1.0 / ((h_star - k) * kl_clamped(p[j, i2]))
        obj = sum(r(i, j) * q[i, j] for i, j in pair_order(K))
        if best < 0 or obj < best_obj:
            best, best_obj, best_q = i1, obj, q
    return best, best_q


class RefECW:
    """ECW-RMED as run (docs/algorithms.md#ecw-rmed) line by line: steps 3-7 run right after the update of the slot
    (no deferral)."""

    def __init__(self, K, precheck=True):
        self.K, self.precheck = K, precheck
        self.n, self.w, self.p = np.zeros((K, K)), np.zeros((K, K)), np.full((K, K), 0.5)
        self.LC, self.LR, self.LN, self.q = pair_order(K), set(pair_order(K)), [], 0

    def step(self, t, outcome):
        K = self.K
        forced = [(i, j) for i, j in pair_order(K) if self.n[i, j] < 3 * math.sqrt(math.log(t))
                  or abs(self.p[i, j] - 0.5) < 0.01 / max(1, math.log(max(1, math.log(t))))]
        if forced:
            self._update(*forced[0], outcome(*forced[0]))
            return forced[0]
        pair = self.LC[self.q]
        self._update(*pair, outcome(*pair))
        lam = max(1.0, math.log(t))
        w_hat = ref_confident(self.n, self.p, lam, self.precheck)
        if w_hat >= 0:
            cands = [(w_hat, w_hat)]
        else:
            w_hat, q = ref_find_min_regret(self.p)
            cands = [(i, j) for i, j in pair_order(K) if q[i, j] > self.n[i, j] / lam] + [(w_hat, w_hat)]
        self.LR.discard(pair)
        self.LN += [c for c in cands if c not in self.LN and c not in self.LR]
        self.q += 1
        if self.q == len(self.LC):
            self.LC, self.LR, self.LN, self.q = self.LN, set(self.LN), [], 0
        return pair

    def _update(self, a1, a2, won):
        self.n[a1, a2] += 1
        self.n[a2, a1] += 1
        self.w[a1, a2] += won
        self.w[a2, a1] += 1 - won
        if a1 != a2:
            self.p[a1, a2], self.p[a2, a1] = self.w[a1, a2] / self.n[a1, a2], self.w[a2, a1] / self.n[a2, a1]
