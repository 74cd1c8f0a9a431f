"""CCB (Zoghi et al. 2015, Algorithm 1) as run, transcribed in plain Python with sets and lists."""


from dts_reproduction.core.constants import ALPHA
from tests.reference.direct_reference import DirectStatistics


class RefCCB(DirectStatistics):
    """CCB as run (docs/algorithms.md#ccb), steps 1-7 with Python sets and lists and the bounds of exact arithmetic
    (``DirectStatistics.bounds_exact``); ``events`` counts how often each branch ran."""

    def __init__(self, K, alpha=ALPHA):
        """Fresh state for K arms."""
        super().__init__(K, alpha)
        self.events = dict.fromkeys(("reset", "remove", "add", "trim", "explore", "restrict"), 0)
        self.reset()

    def reset(self):
        """B = all arms, every B^i empty, Lbar = K."""
        self.B, self.lists, self.Lbar = set(range(self.K)), [[] for _ in range(self.K)], self.K

    def select(self, t, rng):
        """(a1, a2) at slot t, drawing from rng in the same order as the njit select."""
        K = self.K
        U, L = self.bounds_exact(t)
        cu = [sum(U[i][j] >= 0.5 for j in range(K) if j != i) for i in range(K)]
        cl = [sum(L[i][j] >= 0.5 for j in range(K) if j != i) for i in range(K)]
        C = [i for i in range(K) if cu[i] == max(cu)]
        if any(L[i][j] > 0.5 for i in range(K) for j in self.lists[i]):
            self.events["reset"] += 1
            self.reset()
        for i in sorted(self.B):
            if cu[i] < max(0, max(cl)):
                self.events["remove"] += 1
                self.B.remove(i)
                if len(self.lists[i]) != self.Lbar + 1:
                    self.lists[i] = [k for k in range(K) if U[i][k] < 0.5]
        if not self.B:
            self.reset()
        for i in C:
            if cu[i] == cl[i]:
                self.events["add"] += i not in self.B
                self.B.add(i)
                self.lists[i], self.Lbar = [], K - 1 - cu[i]
                for j in range(K):
                    if j != i and len(self.lists[j]) < self.Lbar + 1:
                        self.lists[j] = []
                    elif j != i and len(self.lists[j]) > self.Lbar + 1:
                        self.events["trim"] += 1
                        items = self.lists[j]
                        for s in range(self.Lbar + 1):  # partial Fisher-Yates = shuffle, keep a prefix
                            r = int(rng.integers(s, len(items)))
                            items[s], items[r] = items[r], items[s]
                        self.lists[j] = items[: self.Lbar + 1]
        if rng.random() < 0.25:
            E = [(i, j) for i in range(K) for j in self.lists[i] if L[i][j] <= 0.5 <= U[i][j]]
            if E:
                self.events["explore"] += 1
                return E[rng.integers(0, len(E))]
        both = [i for i in C if i in self.B]
        if both and rng.random() < 2 / 3:
            self.events["restrict"] += 1
            C = both
        a1 = C[rng.integers(0, len(C))]
        a2 = max((j for j in range(K) if L[j][a1] <= 0.5), key=lambda j: U[j][a1])
        if rng.random() < 0.5:
            mine = [j for j in self.lists[a1] if L[j][a1] <= 0.5]
            if mine:
                a2 = max(mine, key=lambda j: U[j][a1])
        return a1, a2
