"""RMED1 and RMED2 (Komiyama et al. 2015) as run, transcribed in plain Python."""

import math

import numpy as np

from tests.reference.kl_reference import kl
from tests.reference.pairs_reference import pair_order


class RefRMED:
    """RMED as run (docs/algorithms.md#rmed1-and-rmed2) line by line (RMED1, or RMED2 with the as-run or the paper's
    numerator)."""

    def __init__(self, K, rmed2=False, paper=False):
        self.K, self.rmed2, self.paper = K, rmed2, paper
        self.n, self.w = np.zeros((K, K)), np.zeros((K, K))
        self.LC, self.LR, self.LN, self.q = list(range(K)), set(range(K)), [], 0

    def p(self, i, j):
        return self.w[i, j] / self.n[i, j] if self.n[i, j] > 0 else 0.5

    def select(self, t):
        K, pairs = self.K, self.K * (self.K - 1) // 2
        if t - 1 < pairs or (self.rmed2 and t - 1 < pairs * 3.0 * math.log(math.log(t))):
            return pair_order(K)[(t - 1) % pairs]
        a1 = self.LC[self.q]
        div = [sum(self.n[i, j] * kl(self.p(i, j), 0.5) for j in range(K)
                 if j != i and self.n[i, j] > 0 and self.p(i, j) <= 0.5) for i in range(K)]
        i_hat = int(np.argmin(div))
        not_beaten = [j for j in range(K) if j != a1 and self.p(a1, j) <= 0.5]
        others = [j for j in range(K) if j != a1]
        a2 = i_hat if (not not_beaten or i_hat in not_beaten) else min(others, key=lambda j: self.p(a1, j))
        if self.rmed2:
            cands = [j for j in others if self.p(a1, j) < 0.5]
            if cands:
                sign = -1.0 if self.paper else 1.0
                score = [sign * (1 - self.p(i_hat, a1) - self.p(i_hat, j)) / kl(self.p(a1, j), 0.5) for j in cands]
                b = cands[int(np.argmin(score))]
                if b in not_beaten and self.n[a1, i_hat] >= self.n[a1, b] / math.log(math.log(t)):
                    a2 = b
        self.LR.discard(a1)
        for k in range(K):
            if k not in self.LR and k not in self.LN and div[k] - div[i_hat] <= math.log(t) + 0.3 * K**1.01:
                self.LN.append(k)
        self.q += 1
        if self.q == len(self.LC):
            self.LC, self.LR, self.LN, self.q = list(self.LN), set(self.LN), [], 0
        return a1, a2

    def update(self, a1, a2, won):
        self.n[a1, a2] += 1
        self.n[a2, a1] += 1
        self.w[a1, a2] += won
        self.w[a2, a1] += 1 - won
