"""The one simulation loop that drives every algorithm.

Per time slot t = 1..T: ask the algorithm for a pair, draw the outcome of that pair only (a fair coin
for a self-comparison), add the regret of the paper's Eq. (1) and the gap-to-Condorcet-winner
regret, count self-comparisons per arm, and deliver the outcome to the algorithm -- at once, or in
batches every ``delay`` slots.  Algorithms never see P.

A caller may also pass an njit ``skip(state, t, rng, t_limit) -> (slots, arm)`` (an algorithm declares
it on its spec, for the states it applies to: D-TS with sampling="fast"; RUCB, CCB, RMED and
ECW-RMED with skip="exact"): before a slot t that follows a self-comparison (the only time skipping can pay off; a
call costs about as much as a cheap slot) the loop asks it to decide, in at most one draw, a run of
``slots`` self-comparisons of ``arm`` (slots t .. t + slots - 1, all <= t_limit) that are exactly
distributed as the slot-by-slot selections would be; the loop then adds their regret, g2w and self
counts without simulating them.  ``skip`` returns (0, -1) when it does not apply.  Without a skip, a
run goes through the plain loop, unchanged.
"""

import numpy as np
from numba import njit


def simulate(select, update, state, rng, P, zeta, gap, checkpoints, delay, regret, g2w, self_counts, skip=None):
    """Run one algorithm for ``checkpoints[-1]`` slots on the (already shuffled) matrix ``P``.

    select(state, t, rng) -> (a1, a2) and update(state, a1, a2, a1_won, t) are the algorithm's njit
    functions; ``state`` is its tuple of arrays; ``rng`` a ``numpy.random.Generator`` used for the
    algorithm's own sampling and for the comparison outcomes.
    zeta: float64 (K,) normalised Copeland scores of ``P``; the per-slot Copeland regret is
      ``max(zeta) - (zeta[a1] + zeta[a2]) / 2`` (Eq. 1).
    gap: float64 (K,) ``p_{c,a} - 1/2`` for the Condorcet winner c (Yue et al.'s definition, twice
      Komiyama's); pass zeros when there is no Condorcet winner.
    checkpoints: int64 increasing slots t at which cumulative regrets are written to ``regret`` and
      ``g2w`` (float64, same length); the last one is the horizon.
    delay: feedback is delivered, in order, at the end of every slot t with t % delay == 0; the update
      of a comparison made at slot s receives s.  delay == 1 is the undelayed algorithm.
    self_counts: int64 (K,), incremented for every slot with a1 == a2 (exploitations, Fig. 5).
    skip: None (slot by slot), or the algorithm's njit skip for this state (see the module docstring),
      which selects the skipping loop.
    Raises ValueError, before any slot, for a delay that is not an integer >= 1, checkpoints that are not
    a 1-D integer array of increasing slots >= 1, or output arrays of the wrong length (the compiled loop
    does not check its indices).  A delay beyond the horizon delivers nothing, as horizon + 1 does: the
    loop is given that, so its buffers are at most one slot longer than the run.
    """
    if isinstance(delay, (bool, np.bool_)) or not isinstance(delay, (int, np.integer)) or delay < 1:
        raise ValueError(f"delay must be an integer at least 1 (1 = no delay), got {delay!r}")
    if not (isinstance(checkpoints, np.ndarray) and checkpoints.ndim == 1 and checkpoints.dtype.kind in "iu"):
        got = (f"an array of dtype {checkpoints.dtype} and shape {checkpoints.shape}"
               if isinstance(checkpoints, np.ndarray) else f"a {type(checkpoints).__name__}")
        raise ValueError(f"checkpoints must be increasing slots >= 1 in a 1-D integer array, got {got}")
    if len(checkpoints) == 0:
        raise ValueError("checkpoints must be increasing slots >= 1, got none")
    if checkpoints[0] < 1:
        raise ValueError(f"checkpoints must be increasing slots >= 1, got checkpoints[0] = {checkpoints[0]}")
    if np.any(np.diff(checkpoints) <= 0):
        k = int(np.flatnonzero(np.diff(checkpoints) <= 0)[0]) + 1
        raise ValueError(f"checkpoints must be increasing slots >= 1, got checkpoints[{k}] = {checkpoints[k]} "
                         f"after {checkpoints[k - 1]}")
    if len(regret) != len(checkpoints) or len(g2w) != len(checkpoints):
        raise ValueError(f"regret and g2w need one entry per checkpoint ({len(checkpoints)}), "
                         f"got {len(regret)} and {len(g2w)}")
    if len(self_counts) != P.shape[0] or len(zeta) != P.shape[0] or len(gap) != P.shape[0]:
        raise ValueError(f"self_counts, zeta and gap need one entry per arm ({P.shape[0]}), "
                         f"got {len(self_counts)}, {len(zeta)} and {len(gap)}")
    delay = min(int(delay), int(checkpoints[-1]) + 1)
    _loop(select, update, _never_skip if skip is None else skip, skip is not None, state, rng, P, zeta, gap,
          checkpoints, delay, regret, g2w, self_counts)


@njit
def _never_skip(state, t, rng, t_limit):
    """The skip of an algorithm without one (never called: ``may_skip`` is False)."""
    return 0, -1


@njit
def _loop(select, update, skip, may_skip, state, rng, P, zeta, gap, checkpoints, delay, regret, g2w, self_counts):
    """``simulate`` slot by slot, and, if ``may_skip``, with runs of self-comparisons decided by ``skip``
    (same law, fewer slots simulated).  Without skipping, exactly the loop the stored results were made
    with (the same random draws in the same order).

    The limit given to ``skip`` is the next checkpoint (so regrets are recorded where they fall) and,
    with delayed feedback and comparisons waiting, the next delivery slot (the state changes there);
    the horizon is the last checkpoint.  Skipped slots buffer nothing: a self-comparison changes only
    the never-read diagonal, which ``skip`` updates itself.
    """
    horizon = checkpoints[checkpoints.shape[0] - 1]
    zeta_star = np.max(zeta)
    buffer_a1 = np.empty(delay, np.int64)
    buffer_a2 = np.empty(delay, np.int64)
    buffer_won = np.empty(delay, np.bool_)
    buffer_t = np.empty(delay, np.int64)
    pending = 0
    cumulative = 0.0
    cumulative_g2w = 0.0
    k = 0
    t = np.int64(1)  # typed, not Literal[int](1): a literal would compile every select/update/skip twice
    after_self = False
    while t <= horizon:
        slots = 0
        if may_skip and after_self:
            limit = checkpoints[k]
            if delay > 1 and pending > 0:
                limit = min(limit, ((t + delay - 1) // delay) * delay)
            slots, arm = skip(state, t, rng, limit)
        if slots > 0:
            cumulative += slots * (zeta_star - zeta[arm])
            cumulative_g2w += slots * 2.0 * gap[arm]
            self_counts[arm] += slots
            t += slots
        else:
            a1, a2 = select(state, t, rng)
            after_self = a1 == a2
            a1_won = rng.random() < P[a1, a2]
            cumulative += zeta_star - 0.5 * (zeta[a1] + zeta[a2])
            cumulative_g2w += gap[a1] + gap[a2]
            if a1 == a2:
                self_counts[a1] += 1
            if delay == 1:
                update(state, a1, a2, a1_won, t)
            else:
                buffer_a1[pending] = a1
                buffer_a2[pending] = a2
                buffer_won[pending] = a1_won
                buffer_t[pending] = t
                pending += 1
            t += 1
        last = t - 1
        if delay > 1 and last % delay == 0:
            for b in range(pending):
                update(state, buffer_a1[b], buffer_a2[b], buffer_won[b], buffer_t[b])
            pending = 0
        if last == checkpoints[k]:
            regret[k] = cumulative
            g2w[k] = cumulative_g2w
            k += 1
