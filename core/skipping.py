"""Shared pieces of the exact self-comparison skips (``core.simulate``'s ``skip`` hook;
docs/algorithms.md#exact-skipping-of-self-comparison-runs).

A skip decides at slot t that the next slots t .. e are all the same self-comparison (a, a).  The
deterministic skips of RUCB, CCB and RMED1/RMED2 find e as the last slot before some test on ln s changes its
answer; ``last_slot_before`` evaluates that test with the very floating-point expression ``select``
uses, so that no rounding can make the skip and the slot-by-slot run disagree.
"""

import math

from numba import njit

from dts_reproduction.core.bounds import direct_bound

# A skip draws a run only when the repeated self-comparison has at least this probability per slot (below,
# runs are short and drawing the conditioned slot that ends one costs more than the slots it skips).
SKIP_MIN_PROB = 0.5


@njit(cache=True)
def geometric_run(rng, log_p, available):
    """How many of the next ``available`` slots repeat an event of probability exp(log_p) each (log_p <= 0)
    before the first that does not: the geometric number of repeats, floor(ln(1 - U) / log_p) for one
    uniform U, capped at ``available``; ``available`` without a draw when log_p == 0 (a sure event).

    The cap is applied to the quotient in floating point, before it becomes an integer: with |log_p| below
    ~4e-18 (an event so rare that it waits past 2**63 slots, as RCS's "no Condorcet winner sampled" does once
    the winner has won some 10^4 comparisons against each arm) the quotient can exceed int64, and its
    conversion would wrap to a negative count (docs/asymptotic.md#rcs-near-253)."""
    if log_p == 0.0:
        return available
    repeats = math.log(1.0 - rng.random()) / log_p
    return available if repeats >= available else int(repeats)  # int() is floor for repeats >= 0


@njit(cache=True)
def first_slot_reaching(value, offset):
    """The smallest slot s >= 1 with ``math.log(s) + offset >= value`` (value - offset finite and not
    above ln 2**62): estimated by exp, then moved to the exact boundary of the floating-point test."""
    if offset >= value:  # math.log(1) + offset == offset
        return 1
    s = max(1, int(math.ceil(math.exp(value - offset))))
    while s > 1 and math.log(s - 1) + offset >= value:
        s -= 1
    while math.log(s) + offset < value:
        s += 1
    return s


@njit(cache=True)
def last_slot_before(value, offset, t_limit):
    """The last slot s <= t_limit with ``math.log(s) + offset < value`` for every slot up to s, i.e.
    ``first_slot_reaching(value, offset) - 1`` capped at t_limit (t_limit if the test still fails at
    t_limit, which also covers value = +inf); 0 if it already holds at s = 1."""
    if math.log(t_limit) + offset < value:
        return t_limit
    return first_slot_reaching(value, offset) - 1


@njit(cache=True)
def run_end_probe(search, t, t_limit):
    """The search for the last slot of a run that starts at slot t (whose answers at slot t are known) and lasts while
    some answers keep their values at t, up to t_limit, when each answer changes at most once: ``search`` = (good,
    bad, step), the answers at ``good`` are those of t, those at ``bad`` (if <= t_limit) differ, and ``step`` doubles
    while no slot has differed.  Returns (search, the next slot to test), the slot 0 once good is the last slot of the
    run.  Start with search = (t, t_limit + 1, 1); after each test call ``run_end_settle``:

        search, probe = run_end_probe((t, t_limit + 1, 1), t, t_limit)
        while probe:
            answers at probe ...
            search, probe = run_end_settle(search, probe, same, t, t_limit)
        last = search[0]

    Doubling from t, then bisection: about 2 log2(last - t) tests (tests/algorithms/test_skip_exact.py checks it
    against a scan)."""
    good, bad, step = search
    if good < t_limit and bad == t_limit + 1:
        return search, min(t + step, t_limit)
    if bad - good > 1:
        return search, (good + bad) // 2
    return search, 0


@njit(cache=True)
def run_end_settle(search, probe, same, t, t_limit):
    """``run_end_probe`` after the answers at slot ``probe`` were tested: ``same`` if they are those of slot t."""
    good, bad, step = search
    if not same:
        return run_end_probe((good, probe, step), t, t_limit)
    return run_end_probe((probe, bad, step * 2 if bad == t_limit + 1 else step), t, t_limit)


@njit(cache=True, inline="always")
def record_self_run(n, w, arm, slots):
    """The statistics update of ``slots`` self-comparisons of ``arm`` at once: ``update_pair`` adds 2 to
    n[a, a] and 1 to w[a, a] per self-comparison whatever its outcome (core.bounds), so no draw is needed.
    One addition instead of ``slots`` can round differently when the diagonal holds a pseudo-count
    (RUCB: 1e-6); no kernel reads the diagonal."""
    n[arm, arm] += 2.0 * slots
    w[arm, arm] += slots


@njit(cache=True)
def challenger_stays_away(n, w, j, a, alpha, log_t):
    """True iff at ln t = log_t a first-index challenger scan (a2 = argmax_j u_{j a} over some arms, a
    among them with u_{a a} = 1/2; RCS) does not pick j over a: u_{j a} < 1/2 for j < a,
    u_{j a} <= 1/2 for j > a.  u_{j a} is the direct bound, the expression ``direct_upper_column`` evaluates."""
    upper = direct_bound(n, w, j, a, log_t, alpha)[0]
    return upper < 0.5 if j < a else upper <= 0.5


@njit(cache=True)
def last_slot_away(n, w, j, a, alpha, switch, t, end):
    """The last slot s in [t, end] up to which ``challenger_stays_away`` holds at every slot (it holds at
    t: the caller checked).  u_{j a} only grows with ln t, so the test holds up to one slot and fails
    after it; ``switch`` (the cached ln t at which u_{j a} reaches 1/2) gives the estimate, and the exact
    test of the scan at the neighbouring slots the answer, rounding included."""
    s = max(t, min(end, last_slot_before(switch, 0.0, end)))
    while s > t and not challenger_stays_away(n, w, j, a, alpha, math.log(s)):
        s -= 1
    while s < end and challenger_stays_away(n, w, j, a, alpha, math.log(s + 1)):
        s += 1
    return s
