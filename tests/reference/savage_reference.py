"""SAVAGE (Urvoy et al. 2013) as run (docs/algorithms.md#savage): its step-3 counts and step-4 pruning,
in plain Python."""


def savage_counts(U, L):
    """Step 3 of SAVAGE as run (docs/algorithms.md#savage): (up, lo)."""
    K = U.shape[0]
    up = [sum(U[i, j] > 0.5 for j in range(K) if j != i) for i in range(K)]
    lo = [sum(L[i, j] > 0.5 for j in range(K) if j != i) for i in range(K)]
    return up, lo


def savage_prune(U, L, pairs, variant):
    """Steps 3-4 of SAVAGE as run (docs/algorithms.md#savage): the pairs that stay in X; variant 0 is
    Condorcet, 1 Copeland."""
    K = U.shape[0]
    up, lo = savage_counts(U, L)
    m = max(lo)
    if variant == 0:
        return [(i, j) for i, j in pairs if up[i] == K - 1 and up[j] == K - 1]
    return [(i, j) for i, j in pairs
            if not (L[i, j] > 0.5 or U[i, j] < 0.5 or (m > up[i] and m > up[j]))]
