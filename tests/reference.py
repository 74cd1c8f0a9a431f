"""Plain NumPy/Python references of the njit kernels and of Algorithm 1, written line by line
after the paper and spec, with no numba: the tests compare the fast code against these."""

import math

import numpy as np

PSEUDO_N, PSEUDO_W = 1e-6, 1e-5


def argmax_first(values, mask):
    """Lowest index among the maximisers of values[mask]; -1 if mask is empty."""
    idx = np.flatnonzero(mask)
    if idx.size == 0:
        return -1
    return int(idx[np.argmax(np.asarray(values)[idx])])


def argmin_first(values, mask):
    """Lowest index among the minimisers of values[mask]; -1 if mask is empty."""
    idx = np.flatnonzero(mask)
    if idx.size == 0:
        return -1
    return int(idx[np.argmin(np.asarray(values)[idx])])


def mirrored_UL(n, w, t, alpha):
    """Full U, L matrices in the mirrored flavour (docs/algorithms.md#shared-building-blocks)."""
    K = n.shape[0]
    U = np.full((K, K), 0.5)
    L = np.full((K, K), 0.5)
    for i in range(K):
        for j in range(i):
            m = w[i, j] / n[i, j]
            h = math.sqrt(alpha * math.log(t) / n[i, j])
            U[i, j], L[i, j] = m + h, m - h
            U[j, i], L[j, i] = 1 - (m - h), 1 - (m + h)
    return U, L


def direct_UL(n, w, t, alpha):
    """Full U, L matrices in the direct flavour (docs/algorithms.md#shared-building-blocks)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = w / n
        width = np.sqrt(alpha * math.log(t) / n)
    U, L = mean + width, mean - width
    np.fill_diagonal(U, 0.5)
    np.fill_diagonal(L, 0.5)
    return U, L


def kl(p, q):
    """Bernoulli KL with 0 log 0 = 0."""
    out = 0.0
    if p > 0:
        out += p * math.log(p / q)
    if p < 1:
        out += (1 - p) * math.log((1 - p) / (1 - q))
    return out


def kl_clamped(p, q, eps=1e-7):
    """KL after clipping both arguments into [eps, 1 - eps]."""
    return kl(min(max(p, eps), 1 - eps), min(max(q, eps), 1 - eps))


def dts_select(n, w, t, rng, alpha=0.51, variant="dts", tie_break="as-run"):
    """Algorithm 1 (and Sec. 4.3 / App. D.2.4), transcribed with full sampling of every pair.

    variant: "dts", "dts_plus" or "pure".  Returns (a1, a2).
    """
    K = n.shape[0]
    U, L = mirrored_UL(n, w, t, alpha)
    if variant == "pure":
        C = np.ones(K, bool)
    else:
        ucb_count = np.array([sum(U[i, j] >= 0.5 for j in range(K) if j != i) for i in range(K)])
        C = ucb_count == ucb_count.max()
    theta = np.full((K, K), 0.5)
    for i in range(K):
        for j in range(i + 1, K):
            theta[i, j] = rng.beta(w[i, j] + 1, w[j, i] + 1)
            theta[j, i] = 1 - theta[i, j]
    votes = np.array([sum(theta[i, j] > 0.5 for j in range(K) if j != i) for i in range(K)])
    best = votes[C].max()
    tied = np.flatnonzero(C & (votes == best))
    if variant == "dts_plus" and tied.size > 1:
        ref = best if tie_break == "as-run" else votes.max()
        est = [sum((2 * ref - votes[i] - votes[j]) / kl_clamped(theta[i, j], 0.5)
                   for j in range(K) if j != i and theta[i, j] != 0.5) for i in tied]
        a1 = int(tied[int(np.argmin(est))])
    else:
        a1 = int(rng.choice(tied))
    theta2 = np.array([rng.beta(w[i, a1] + 1, w[a1, i] + 1) if i != a1 else 0.5 for i in range(K)])
    eligible = np.ones(K, bool) if variant == "pure" else L[:, a1] <= 0.5
    eligible[a1] = True
    return a1, argmax_first(theta2, eligible)


def simulate(select, update, state, rng, P, zeta, gap, checkpoints, delay):
    """The harness loop of docs/harness.md#seeds-1.6/1.11 in plain Python; returns (regret, g2w, self_counts)."""
    K = P.shape[0]
    regret, g2w = [], []
    counts = np.zeros(K, np.int64)
    buffer = []
    total = total_g2w = 0.0
    for t in range(1, int(checkpoints[-1]) + 1):
        a1, a2 = select(state, t, rng)
        won = rng.random() < P[a1, a2]
        total += max(zeta) - (zeta[a1] + zeta[a2]) / 2
        total_g2w += gap[a1] + gap[a2]
        counts[a1] += a1 == a2
        buffer.append((a1, a2, won, t))
        if t % delay == 0:
            for item in buffer:
                update(state, *item)
            buffer = []
        if t in set(checkpoints.tolist()):
            regret.append(total)
            g2w.append(total_g2w)
    return np.array(regret), np.array(g2w), counts
