"""CW-RMED (docs/algorithms.md#cw-rmed) in plain Python, for small K: the alternatives of a candidate winner are
enumerated as explicit sets of pairs (every minimal set whose outcomes, pushed across 1/2, give some other arm fewer
losses than the candidate), the confidence test takes the cheapest of them, and the program min sum r q subject to
sum_{e in F} q_e d_e >= 1 for every such set F is one row per set, solved by scipy's HiGHS."""

import itertools
import math

import numpy as np
from scipy.optimize import linprog

from tests.reference.kl_reference import kl_clamped

ALPHA, BETA = 3.0, 0.01


def _losses(p):
    K = len(p)
    return [sum(1 for j in range(K) if j != i and p[j][i] > 0.5) for i in range(K)]


def alternatives(p, i1):
    """Every minimal alternative of candidate i1 as a frozenset of pairs (i, j), i > j."""
    K = len(p)
    losses = _losses(p)
    found = set()
    for i2 in range(K):
        if i2 == i1:
            continue
        weight = {}
        for j in range(K):
            if j != i1 and p[i1][j] > 0.5:
                weight[(max(i1, j), min(i1, j))] = 2 if j == i2 else 1
            if j not in (i1, i2) and p[j][i2] > 0.5:
                weight[(max(i2, j), min(i2, j))] = 1
        need = losses[i2] - losses[i1] + 1
        pairs = sorted(weight)
        for size in range(1, len(pairs) + 1):
            for subset in itertools.combinations(pairs, size):
                total = sum(weight[e] for e in subset)
                if total >= need and all(total - weight[e] < need for e in subset):
                    found.add(frozenset(subset))
    return sorted(found, key=sorted)


def is_confident(n, p, lam, i1):
    """Every alternative of i1 costs at least 1 with the evidences n KLc(p, 1/2) / lam."""
    return all(sum(n[i][j] * kl_clamped(p[i][j]) / lam for i, j in F) >= 1.0 for F in alternatives(p, i1))


def solve_program(p, i1):
    """(optimal value, q as a dict over pairs (i, j), i > j) of candidate i1's program."""
    K = len(p)
    losses = _losses(p)
    pairs = [(i, j) for i in range(1, K) for j in range(i)]
    rows = alternatives(p, i1)
    cost = [(losses[i] + losses[j] - 2 * min(losses)) / (2 * (K - 1)) for i, j in pairs]
    if not rows:
        return 0.0, dict.fromkeys(pairs, 0.0)
    A = np.array([[kl_clamped(p[i][j]) if (i, j) in F else 0.0 for i, j in pairs] for F in rows])
    res = linprog(cost, A_ub=-A, b_ub=-np.ones(len(rows)), bounds=[(0, None)] * len(pairs), method="highs")
    assert res.status == 0, res.message
    return res.fun, dict(zip(pairs, res.x, strict=True))


class CWRMEDReference:
    """The algorithm slot by slot: ``select(t)`` then ``update(a1, a2, a1_won, t)``."""

    def __init__(self, K, alpha=ALPHA, beta=BETA):
        self.K, self.alpha, self.beta = K, alpha, beta
        self.n = [[0.0] * K for _ in range(K)]
        self.w = [[0.0] * K for _ in range(K)]
        self.LC = [(i, j) for i in range(1, K) for j in range(i)]
        self.LR = list(self.LC)
        self.LN = []
        self.q = 0
        self.objectives = []  # the optimum of each program solved, for the tests

    def p(self):
        return [[self.w[i][j] / self.n[i][j] if self.n[i][j] > 0 else 0.5 for j in range(self.K)]
                for i in range(self.K)]

    def select(self, t):
        p = self.p()
        for i in range(1, self.K):
            for j in range(i):
                if (self.n[i][j] < self.alpha * math.sqrt(math.log(t))
                        or abs(p[i][j] - 0.5) < self.beta / max(1.0, math.log(max(1.0, math.log(t))))):
                    self.list_pair = None
                    return i, j
        self.list_pair = self.LC[self.q]
        return self.list_pair

    def update(self, a1, a2, a1_won, t):
        self.n[a1][a2] += 1
        self.n[a2][a1] += 1
        winner, loser = (a1, a2) if a1_won else (a2, a1)
        self.w[winner][loser] += 1
        if self.list_pair is not None:
            self._after_list_slot(t)

    def _after_list_slot(self, t):
        p = self.p()
        lam = max(1.0, math.log(t))
        losses = _losses(p)
        candidates = [i for i in range(self.K) if losses[i] == min(losses)]
        confident = [i for i in candidates if is_confident(self.n, p, lam, i)]
        self.LR.remove(self.list_pair)
        new = []
        if confident:
            w = confident[0]
        else:
            best = None
            for i1 in candidates:
                value, q = solve_program(p, i1)
                if best is None or value < best[0]:
                    best = (value, i1, q)
            value, w, q = best
            self.objectives.append(value)
            new = [e for e in q if q[e] > 0 and q[e] > self.n[e[0]][e[1]] / lam]
        for e in new + [(w, w)]:
            if e not in self.LN and e not in self.LR:
                self.LN.append(e)
        self.q += 1
        if self.q == len(self.LC):
            self.LC, self.LR, self.LN, self.q = self.LN, list(self.LN), [], 0


def ref_trajectory(P, T, seed, alpha=ALPHA, beta=BETA):
    """(pairs of slots 1..T, the reference) with outcomes drawn as ``tests.trajectories.kernel_trajectory`` draws."""
    ref = CWRMEDReference(P.shape[0], alpha, beta)
    rng = np.random.default_rng(seed)
    pairs = []
    for t in range(1, T + 1):
        a1, a2 = ref.select(t)
        ref.update(a1, a2, rng.random() < P[a1, a2], t)
        pairs.append((int(a1), int(a2)))
    return pairs, ref
