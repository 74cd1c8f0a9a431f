"""The SBM and Sparring / MultiSBM (Ailon et al. 2014) as run (docs/algorithms.md#sparring, #multisbm),
in plain Python."""

import math

import numpy as np

SCALE = 3.0


def ref_pull(cnt, sm, t, scale=SCALE, unplayed=1.0):
    """An SBM's pull (``core.sbm``, docs/algorithms.md#sparring), transcribed: first-index argmax of the
    SBM index."""
    index = [unplayed if c < 1 else s / c + math.sqrt((scale + 2) * math.log(t) / (2 * c))
             for c, s in zip(cnt, sm, strict=True)]
    return int(np.argmax(index))


def ref_trajectory(kind, P, T, seed, sbm_init="as-run"):
    """Plain-Python Sparring ("sparring") or MultiSBM ("multisbm") for T slots; the outcome of slot t
    is U_t < P[a1, a2] with U_t from a generator seeded ``seed + 1``; MultiSBM's initial x is the first
    ``integers(0, K)`` draw of a generator seeded ``seed``.  Returns the list of pairs."""
    K = P.shape[0]
    unplayed = math.inf if sbm_init == "original" else 1.0
    copies = 2 if kind == "sparring" else K
    cnt = [[1e-6] * K for _ in range(copies)]
    sm = [[5e-6] * K for _ in range(copies)]
    calls = [0] * K
    x = int(np.random.default_rng(seed).integers(0, K))
    uniforms = np.random.default_rng(seed + 1).random(T)
    pairs = []
    for t in range(1, T + 1):
        if kind == "sparring":
            a1, a2 = ref_pull(cnt[0], sm[0], t, unplayed=unplayed), ref_pull(cnt[1], sm[1], t, unplayed=unplayed)
        else:
            calls[x] += 1
            clock = calls[x] if sbm_init == "original" else t
            a1, a2 = x, ref_pull(cnt[x], sm[x], clock, unplayed=unplayed)
            x = a2
        won = uniforms[t - 1] < P[a1, a2]
        if kind == "sparring":
            cnt[0][a1] += 1
            sm[0][a1] += won
            cnt[1][a2] += 1
            sm[1][a2] += 1 - won
        else:
            cnt[a1][a2] += 1
            sm[a1][a2] += 1 - won
        pairs.append((a1, a2))
    return pairs
