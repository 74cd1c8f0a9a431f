"""Relative confidence bounds (``core.bounds``): full U, L matrices in both flavours
(docs/algorithms.md#shared-building-blocks), with NumPy."""

import math

import numpy as np


def mirrored_UL(n, w, t, alpha):
    """Full U, L matrices in the mirrored flavour."""
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
    """Full U, L matrices in the direct flavour."""
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = w / n
        width = np.sqrt(alpha * math.log(t) / n)
    U, L = mean + width, mean - width
    np.fill_diagonal(U, 0.5)
    np.fill_diagonal(L, 0.5)
    return U, L
