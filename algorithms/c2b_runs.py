"""C2B's exact fast path (option skip="exact" of ``algorithms.c2b``; docs/algorithms.md#c2b): the two hooks of
``core.simulate``.

C2B plays each pair of a batch in one block of consecutive slots, and nothing inside a batch reads the outcomes of
that batch.  So the rest of the block that slot t belongs to is a run of one pair that C2B makes whatever its
outcomes: the pair run ``(plan, apply)`` hands it to the loop, which draws its wins as one Binomial.  The exploitation
batch (a, a) never ends: ``skip`` hands the loop every slot up to its limit at once (self-comparisons count nothing, so
no draw is needed).  Both leave the state exactly as the same slots played one by one would (``counters[0].issued``
advanced by the slots, the wins added), so the run has the law of the slot-by-slot run; only the random stream
differs.
"""

from numba import njit

from dts_reproduction.algorithms.base import INT64_MAX


@njit(cache=True)
def skip(state, t, rng, t_limit):
    """The exploitation batch's self-comparisons of its one arm, slots t .. t_limit, in one step: (t_limit - t + 1,
    arm) with ``counters[0].issued`` advanced by as many; (0, -1) outside the exploitation batch.  Draws nothing."""
    pair_first, counters = state.pair_first, state.counters[0]
    if counters.per_pair != INT64_MAX:
        return 0, -1
    slots = t_limit - t + 1
    counters.issued += slots
    return slots, pair_first[0]


@njit(cache=True)
def plan(state, t, t_limit):
    """The pair run at slot t: (slots, a1, a2) for the rest of the block of the pair (a1, a2) that slot t plays, at
    most t_limit - t + 1 slots and never past the block or the batch end; (0, -1, -1) when slot t starts a new batch
    (``select`` plans it, and may draw) or belongs to the exploitation batch (``skip``'s).  Changes nothing."""
    pair_first, pair_second, counters = state.pair_first, state.pair_second, state.counters[0]
    issued, per_pair, batch_length = counters.issued, counters.per_pair, counters.batch_length
    if issued == batch_length or per_pair == INT64_MAX:
        return 0, -1, -1
    k = issued // per_pair
    slots = min(per_pair - issued % per_pair, batch_length - issued, t_limit - t + 1)
    return slots, pair_first[k], pair_second[k]


@njit(cache=True)
def apply(state, a1, a2, wins, slots):
    """The pair run's update: ``slots`` comparisons of (a1, a2), ``wins`` of them won by a1, leave the state as
    ``slots`` calls of ``select`` (each one slot of the block, ``counters[0].issued`` + 1) and ``update`` with those
    outcomes in any order do."""
    w, counters = state.wins, state.counters[0]
    counters.issued += slots
    w[a1, a2] += wins
    w[a2, a1] += slots - wins
