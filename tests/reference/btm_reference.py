"""Beat-the-Mean (Yue & Joachims 2011) as run (docs/algorithms.md#btm): one slot in the authors' order,
in plain Python."""

import math


def btm_slot(W, nb, wb, phat, a1, a2, a1_won, K, T, scale, faithful_bug):
    """The authors' slot in the as-run order: statistics, (choice given), counters, then the test on the
    statistics computed before the counters moved.  Returns the admissible first arms."""
    N = {i: sum(nb[i][j] for j in W) for i in W}
    for i in W:
        S = sum(wb[i][j] for j in W)
        phat[i] = S / N[i] if N[i] else 0.5
    argmins = {i for i in W if N[i] == min(N.values())}
    nb[a1][a2] += 1
    wb[a1][a2] += int(a1_won)
    n_star = N[a1]
    c = 1.0 if n_star == 0 else scale * math.sqrt(math.log(2 * K * T) / n_star)
    p_min, p_max, arg = 1.0, 0.0, None
    for k, i in enumerate(W):
        if phat[i] < p_min:
            p_min, arg = phat[i], i
        if phat[i] > p_max:
            p_max = phat[k] if faithful_bug else phat[i]
    if arg is not None and p_min + c <= p_max - c:
        W.remove(arg)
    return argmins
