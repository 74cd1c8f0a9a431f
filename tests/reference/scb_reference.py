"""SCB (Zoghi et al. 2015, Algorithms 2-4) as run (docs/algorithms.md#scb), in plain Python; the KL
bounds come from ``core.kl`` (tested on their own in tests/kernels/test_kernels.py)."""

import math

import numpy as np

from dts_reproduction.core.kl import kl_lcb, kl_ucb
from tests.reference.kl_reference import kl_clamped

KAPPA, EPS = 0.51, 1e-6


class RefSCB:
    """SCB as run (docs/algorithms.md#scb) transcribed in plain Python."""

    def __init__(self, K, first_round=1000):
        self.K, self.T_r, self.round = K, float(first_round), 1
        self.reset()

    def reset(self):
        K = self.K
        self.n = np.full((K, K), 2e-6)
        self.w = np.full((K, K), 1e-6)
        self.open = [set(j for j in range(K) if j != i) for i in range(K)]
        self.R, self.v = list(range(K)), 0
        self.m, self.g = [0.0] * K, [0.0] * K
        self.best, self.exploring, self.f, self.s, self.tau = -1, False, 0, 0, 1

    def loglog(self):
        return 2 * max(1.0, math.log(max(1.0, math.log(self.tau))))

    def virtual_pull(self, reward):
        i = self.R[self.v]
        self.m[i] += 1
        self.g[i] += reward
        self.v += 1
        if self.v >= len(self.R):
            self.v = 0
            bounds = {}
            for k in self.R:
                if self.m[k] == 0:
                    bounds[k] = (1.0, 0.0)
                else:
                    rho = KAPPA * (math.log(4 * self.T_r * self.K) + self.loglog()) / self.m[k]
                    p = self.g[k] / self.m[k]
                    bounds[k] = (kl_ucb(p, rho, EPS), kl_lcb(p, rho, EPS))
            top = max(b[1] for b in bounds.values())
            self.R = [k for k in self.R if bounds[k][0] >= top]
            if len(self.R) == 1:
                self.best = self.R[0]
            elif not self.R:
                self.best = 0

    def select(self, rng):
        while True:
            if self.best >= 0:
                return self.best, self.best
            if self.exploring:
                return self.f, self.s
            i = self.R[self.v]
            j = [a for a in range(self.K) if a != i][rng.integers(0, self.K - 1)]
            if all(not self.open[k] for k in self.R):
                p = self.w / self.n
                counts = [sum(p[a, b] > 0.5 for b in range(self.K) if b != a) for a in range(self.K)]
                self.best = int(np.argmax(counts))
            elif j in self.open[i]:
                self.exploring, self.f, self.s = True, i, j
            else:
                self.virtual_pull(1.0 if self.w[i, j] / self.n[i, j] > 0.5 else 0.0)

    def update(self, a1, a2, a1_won):
        self.n[a1, a2] += 1
        self.n[a2, a1] += 1
        self.w[a1, a2] += a1_won
        self.w[a2, a1] += not a1_won
        x, y = (a1, a2) if a1_won else (a2, a1)
        p = self.w[x, y] / self.n[x, y]
        rhs = KAPPA * (math.log(4 * self.tau * self.K) + self.loglog())
        if self.exploring and self.n[x, y] >= 1 and p >= 0.5 and self.n[x, y] * kl_clamped(p, 0.5) > rhs:
            self.open[x].discard(y)
            self.open[y].discard(x)
            self.virtual_pull(1.0 if a1_won else 0.0)
            self.exploring = False
        self.tau += 1
        if self.tau > self.T_r:
            self.reset()
            self.T_r, self.round = self.T_r ** 2, self.round + 1
