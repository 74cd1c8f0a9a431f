"""The simulation loop of ``core.simulate`` (docs/harness.md) in plain Python."""

import numpy as np


def simulate(select, update, state, rng, P, zeta, gap, checkpoints, delay):
    """The harness loop (docs/harness.md, delay included) in plain Python; returns (regret, g2w, self_counts, weak):
    the cumulative regret of Eq. (1), the gap-to-winner regret and the weak regret (the smaller of the two arms'
    Copeland gaps a slot) at the checkpoints, and the self-comparisons per arm."""
    K = P.shape[0]
    regret, g2w, weak = [], [], []
    counts = np.zeros(K, np.int64)
    buffer = []
    total = total_g2w = total_weak = 0.0
    for t in range(1, int(checkpoints[-1]) + 1):
        a1, a2 = select(state, t, rng)
        won = rng.random() < P[a1, a2]
        total += max(zeta) - (zeta[a1] + zeta[a2]) / 2
        total_g2w += gap[a1] + gap[a2]
        total_weak += min(max(zeta) - zeta[a1], max(zeta) - zeta[a2])
        counts[a1] += a1 == a2
        buffer.append((a1, a2, won, t))
        if t % delay == 0:
            for item in buffer:
                update(state, *item)
            buffer = []
        if t in set(checkpoints.tolist()):
            regret.append(total)
            g2w.append(total_g2w)
            weak.append(total_weak)
    return np.array(regret), np.array(g2w), counts, np.array(weak)
