"""C2B (Agarwal, Ghuge & Nagarajan, NeurIPS 2022) as docs/algorithms.md#c2b describes its reconstruction, transcribed
in plain Python: whole batches planned as lists of pairs, sets for the active arms."""

import math

import numpy as np


def ref_schedule(T, B):
    """Comparisons of each pair in batch r = 1..B: min(T, ceil(T^(r/B)))."""
    return [min(T, math.ceil(T ** (r / B))) for r in range(1, B + 1)]


def ref_plan(w, active, log_term, rng):
    """(the pairs of the next batch, its candidate, the active set after elimination) from the wins w: elimination in
    index order, then the exploitation pair of the last arm, or the candidate's and the undefeated arms' pairs."""
    K = len(w)
    active = set(active)
    for j in range(K):
        if j in active and any(
            w[i][j] + w[j][i] > 0 and w[i][j] / (w[i][j] + w[j][i]) - math.sqrt(log_term / (w[i][j] + w[j][i])) > 0.5
            for i in sorted(active) if i != j
        ):
            active.discard(j)
    if len(active) == 1:
        (last,) = active
        return [(last, last)], last, active
    beats = {i: sum(w[i][j] > w[j][i] for j in active if j != i) for i in active}
    undefeated = {j for j in active if not any(w[i][j] > w[j][i] for i in active if i != j)}
    most = max(beats.values())
    leaders = sorted(i for i in active if beats[i] == most)
    candidate = leaders[int(rng.integers(0, len(leaders)))] if len(leaders) > 1 else leaders[0]
    pairs = [(i, j) for i in sorted(active) for j in sorted(active) if i < j
             and ((i == candidate and w[i][j] > w[j][i]) or (j == candidate and w[j][i] > w[i][j])
                  or i in undefeated or j in undefeated)]
    return pairs, candidate, active


def ref_trajectory(P, T, seed, alpha=0.5, B=None):
    """T slots of C2B on P with one generator seeded ``seed`` (B = ceil(ln T) if None): at the start of each batch its
    plan (``ref_plan``), then each slot the batch's next pair -- the pairs in the list's order, each compared its
    number of times in consecutive slots before the next pair -- and the outcome U < P[a1, a2] from the
    same generator.  Batch r compares each pair ref_schedule[r] times (the last entry past batch B); the
    exploitation batch never ends.  Returns the pairs, the final wins and the number of batches started after each
    slot."""
    K = P.shape[0]
    B = max(1, math.ceil(math.log(T))) if B is None else B
    schedule = ref_schedule(T, B)
    log_term = alpha * math.log(K * K * T)
    rng = np.random.default_rng(seed)
    w = [[0] * K for _ in range(K)]
    active, batch, exploiting = set(range(K)), [], False
    batches, pairs, started = 0, [], []
    for _ in range(T):
        if not batch and not exploiting:
            batches += 1
            plan, _, active = ref_plan(w, active, log_term, rng)
            exploiting = plan[0][0] == plan[0][1]
            per_pair = schedule[min(batches, B) - 1]
            batch = [pair for pair in plan for _ in range(per_pair)]
            batch.reverse()
        a1, a2 = batch[-1] if exploiting else batch.pop()
        a1_won = rng.random() < P[a1, a2]
        if a1 != a2:
            w[a1 if a1_won else a2][a2 if a1_won else a1] += 1
        pairs.append((a1, a2))
        started.append(batches)
    return pairs, w, started
