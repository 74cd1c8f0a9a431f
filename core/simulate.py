"""The one simulation loop that drives every algorithm.

Per time slot t = 1..T: ask the algorithm for a pair, draw the outcome of that pair only (a fair coin
for a self-comparison), add the regret of the paper's Eq. (1), its weak twin and the gap-to-Condorcet-winner
regret, count self-comparisons per arm, and deliver the outcome to the algorithm -- at once, or in
batches every ``delay`` slots.  Algorithms never see P.

A caller hands the loop its optional hooks in one record (``LoopHooks``: none of them by default), so that a new
hook is a field there, not another parameter of ``simulate`` and of the compiled loop.  A caller may give an njit
``skip(state, t, rng, t_limit) -> (slots, arm)`` (an algorithm declares
it on its spec, for the states it applies to: D-TS with sampling="fast"; RUCB, CCB, RMED and
ECW-RMED with skip="exact"): before a slot t that follows a self-comparison (the only time skipping can pay off; a
call costs about as much as a cheap slot) the loop asks it to decide, in at most one draw, a run of
``slots`` self-comparisons of ``arm`` (slots t .. t + slots - 1, all <= t_limit) that are exactly
distributed as the slot-by-slot selections would be; the loop then adds their regrets and self
counts without simulating them.  ``skip`` returns (0, -1) when it does not apply.  Without a skip, a
run goes through the plain loop, unchanged.

A caller may also give a pair run ``(plan, apply)`` of two njit functions (an algorithm declares it on its spec:
ECW-RMED with skip="exact", for its forced exploration): when the last ``PAIR_RUN_RETRY`` slots or more all
compared the same two different arms, the loop asks ``plan(state, t, t_limit) -> (slots, a1, a2)`` for a run of
``slots`` comparisons of (a1, a2) (slots t .. t + slots - 1, all <= t_limit) that the algorithm makes *whatever
their outcomes*; the loop then draws how many of them a1 wins, Binomial(slots, P[a1, a2]) -- their order cannot
matter, since no decision falls inside the run -- and hands it to ``apply(state, a1, a2, wins, slots)``, which
leaves the state as ``slots`` updates with that many wins would.  ``plan`` changes nothing and returns (0, -1, -1)
when no such run applies; the loop then asks again ``PAIR_RUN_RETRY`` slots later, and at once after a run.  Pair
runs are only asked for without feedback delay (a delivered outcome is what every later decision reads).

A caller may also give an njit ``probe(state, rng, counts)``, a diagnostic that looks at the algorithm's state
right after every ``select`` (before the outcome is drawn and delivered) and adds what it measures to the int64
array ``counts``, drawing from a generator of its own (so the run's draws and regrets are those of the run
without the probe).  A probe sees every slot, so it excludes a skip and a pair run.

Each algorithm gets its own compiled loop (``compiled_loop``): the loop's code compiled with that algorithm's
select, update and hooks as globals, cached on disk like every kernel, so that a process whose cache is warm
compiles nothing (the loop takes no function arguments, the one form numba can cache).  An algorithm whose select,
update or a hook is plain Python (not numba-compiled) gets the same code with the same globals run as Python: the
same draws in the same order, so the same run as its njit transcription, only slower (about 70 times for the
plug-in tests' Copeland-UCB at K = 5; docs/extending.md#your-own-algorithm-as-a-plug-in).  The loop runs in
segments: it returns to Python about every ``SEGMENT_SECONDS`` (the next segment continues from the state
it left, so the draws and sums are those of one uninterrupted loop), which lets a signal handler run during
a long run.

Between segments a run also looks at ``STOP``: once the harness sets it (to stop the threads of its threading
backend before the interpreter exits, which must not happen while a thread runs compiled code) every ``simulate``
in progress raises ``SimulationStopped`` at the end of its segment.

A run that skips nothing draws exactly what the plain loop draws; a pair run draws one Binomial in place of
its ``slots`` uniforms, so only runs in which one is planned have another random stream.
"""

import threading
import time
import types
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numba import njit
from numba.core.dispatcher import Dispatcher

SEGMENT_SECONDS = 0.1  # the compiled loop returns to Python about this often (a signal is handled then)
FIRST_SEGMENT = 4096  # slots of a run's first segment; doubled while a segment takes under SEGMENT_SECONDS / 2
# The packages of the kernels whose sources the cache folder's digest covers (core/__init__.py).
CACHED_PACKAGES = ("dts_reproduction.core", "dts_reproduction.algorithms")
# The loop's counters, carried in one int64 array between segments (``_Carried.counters``): the next slot, the next
# checkpoint's index, the comparisons waiting for delivery, whether the last simulated slot was a self-comparison,
# the pair (a1, a2) of the last simulated slot, how many slots in a row up to it compared that pair (0 after a
# self-comparison), and at how many in a row the pair run is asked for next.
SLOT, CHECKPOINT, PENDING, AFTER_SELF, LAST_A1, LAST_A2, REPEATS, NEXT_PAIR_RUN = range(8)
# A pair run is asked for once a pair of different arms has been compared this many slots in a row, and again
# every as many slots while the plan declines (a plan costs about one slot of the algorithm, so this bounds what
# asking costs to a few parts per million of the slots).
PAIR_RUN_RETRY = 2**16
STOP = threading.Event()  # set: every simulate in progress stops at the end of its segment (SimulationStopped)
_COMPILED_LOOPS = {}  # (select, update, skip, probe, plan, apply) -> the njit loop of those kernels (compiled_loop)
# The template's kernels: every compiled loop binds these names to its own.
_select = _update = _skip = _probe = _plan_pair_run = _apply_pair_run = None


class SimulationStopped(Exception):
    """A ``simulate`` stopped at the end of a segment because ``STOP`` was set."""


class LoopHooks(NamedTuple):
    """The optional hooks of a run (see the module docstring), each off by default (``NO_HOOKS``): ``skip``, the
    algorithm's njit skip for this state; ``pair_run``, its njit (plan, apply), asked for every ``pair_run_retry``
    slots of one pair in a row (an integer >= 1; tests shorten it); ``probe``, an njit ``probe(state, probe_rng,
    probe_counts)`` called after every select, with ``probe_rng`` its generator and ``probe_counts`` the int64 array
    it adds to.  A new hook is a field here, and in ``_Switches`` if the compiled loop reads a value of it (a
    generator, though, is an argument of the compiled loop: ``_loop_segment`` says why)."""

    skip: Callable | None = None
    pair_run: tuple | None = None
    pair_run_retry: int = PAIR_RUN_RETRY
    probe: Callable | None = None
    probe_rng: np.random.Generator | None = None
    probe_counts: np.ndarray | None = None


NO_HOOKS = LoopHooks()  # a plain run: slot by slot, nothing probed


class _Switches(NamedTuple):
    """What the compiled loop reads of a run's hooks besides their kernels (its globals) and the probe's generator
    (an argument of its own, see ``_loop_segment``): whether it may skip, make pair runs and probe, the pair run's
    retry and the probe's counts (``NO_COUNTS`` without a probe)."""

    may_skip: bool
    may_pair_run: bool
    pair_run_retry: int
    may_probe: bool
    probe_counts: np.ndarray


class _Carried(NamedTuple):
    """The loop's state from one segment to the next: its ``counters`` (int64, indexed by SLOT ... NEXT_PAIR_RUN),
    the three cumulative regrets (``sums``: Eq. 1's, the gap-to-winner one, the weak one) and the buffers of the
    comparisons waiting for delivery (their arms, outcomes and slots)."""

    counters: np.ndarray
    sums: np.ndarray
    buffer_a1: np.ndarray
    buffer_a2: np.ndarray
    buffer_won: np.ndarray
    buffer_t: np.ndarray


def simulate(select, update, state, rng, P, zeta, gap, checkpoints, delay, regret, g2w, self_counts,
             hooks: LoopHooks = NO_HOOKS, weak: np.ndarray | None = None):
    """Run one algorithm for ``checkpoints[-1]`` slots on the (already shuffled) matrix ``P``.

    select(state, t, rng) -> (a1, a2) and update(state, a1, a2, a1_won, t) are the algorithm's functions, njit or
    plain Python (``compiled_loop``); ``state`` is its tuple of arrays; ``rng`` a ``numpy.random.Generator`` used
    for the algorithm's own sampling and for the comparison outcomes.
    zeta: float64 (K,) normalised Copeland scores of ``P``; the per-slot Copeland regret is
      ``max(zeta) - (zeta[a1] + zeta[a2]) / 2`` (Eq. 1).
    gap: float64 (K,) ``p_{c,a} - 1/2`` for the Condorcet winner c (Yue et al.'s definition, twice
      Komiyama's); pass zeros when there is no Condorcet winner.
    checkpoints: int64 increasing slots t at which cumulative regrets are written to ``regret`` and
      ``g2w`` (float64, same length); the last one is the horizon.
    delay: feedback is delivered, in order, at the end of every slot t with t % delay == 0; the update
      of a comparison made at slot s receives s.  delay == 1 is the undelayed algorithm.
    self_counts: int64 (K,), incremented for every slot with a1 == a2 (exploitations, Fig. 5).
    hooks: the run's skip, pair run and probe (``LoopHooks``; default none: slot by slot).
    weak: float64, one entry per checkpoint (None: not kept), the cumulative weak Copeland regret written there, the
      per-slot ``max(zeta) - max(zeta[a1], zeta[a2])``: the smaller of the two arms' Copeland gaps where Eq. 1
      takes their mean (zero once either arm is a Copeland winner; the weak regret of Yue et al. and of Chen &
      Frazier's Winner Stays, with Copeland gaps).  Keeping it changes no draw and no other sum.
    Raises ValueError, before any slot, for a select, update or hook kernel that is not callable, a probe given
    with a skip or a pair run or without its generator or int64 counts, a pair_run_retry that is not an integer
    >= 1, a delay that is not an integer >= 1, checkpoints that are not a 1-D integer array of increasing slots >= 1,
    or output arrays of the wrong length (the compiled loop does not check its indices).  A delay beyond the horizon
    delivers nothing, as horizon + 1 does: the loop is given that, so its buffers are at most one slot longer than
    the run.  Raises SimulationStopped at the end of a segment once ``STOP`` is set.
    """
    plan, apply = hooks.pair_run or (None, None)
    hooked = (("skip", hooks.skip), ("probe", hooks.probe), ("pair run plan", plan), ("pair run apply", apply))
    for name, kernel in (("select", select), ("update", update), *(item for item in hooked if item[1] is not None)):
        if not callable(kernel):
            raise ValueError(f"{name} must be a function (njit or plain Python), got {kernel!r}")
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
    weak = np.zeros(len(checkpoints)) if weak is None else weak
    if len(regret) != len(checkpoints) or len(g2w) != len(checkpoints) or len(weak) != len(checkpoints):
        raise ValueError(f"regret, g2w and weak need one entry per checkpoint ({len(checkpoints)}), "
                         f"got {len(regret)}, {len(g2w)} and {len(weak)}")
    if len(self_counts) != P.shape[0] or len(zeta) != P.shape[0] or len(gap) != P.shape[0]:
        raise ValueError(f"self_counts, zeta and gap need one entry per arm ({P.shape[0]}), "
                         f"got {len(self_counts)}, {len(zeta)} and {len(gap)}")
    retry = hooks.pair_run_retry
    if isinstance(retry, (bool, np.bool_)) or not isinstance(retry, (int, np.integer)) or retry < 1:
        raise ValueError(f"pair_run_retry must be an integer at least 1, got {retry!r}")
    probed = hooks.probe is not None
    if probed and (hooks.skip is not None or hooks.pair_run is not None or hooks.probe_rng is None
                   or not isinstance(hooks.probe_counts, np.ndarray) or hooks.probe_counts.dtype != np.int64):
        raise ValueError("a probe sees every slot (no skip) and needs its own generator and an int64 counts array")
    delay = min(int(delay), int(checkpoints[-1]) + 1)
    loop = compiled_loop(select, update, hooks)
    horizon = int(checkpoints[-1])
    switches = _Switches(hooks.skip is not None, hooks.pair_run is not None and delay == 1, int(retry), probed,
                         hooks.probe_counts if probed else NO_COUNTS)
    carried = _Carried(np.array([1, 0, 0, 0, -1, -1, 0, retry], np.int64), np.zeros(3), np.empty(delay, np.int64),
                       np.empty(delay, np.int64), np.empty(delay, np.bool_), np.empty(delay, np.int64))
    segment = FIRST_SEGMENT
    while carried.counters[SLOT] <= horizon:
        if STOP.is_set():
            raise SimulationStopped(f"stopped at slot {int(carried.counters[SLOT])} of {horizon}")
        started = time.perf_counter()
        loop(state, rng, hooks.probe_rng if probed else rng, P, zeta, gap, checkpoints, delay, carried,
             min(horizon, int(carried.counters[SLOT]) + segment - 1), regret, g2w, weak, self_counts, switches)
        if time.perf_counter() - started < SEGMENT_SECONDS / 2:
            segment *= 2


def compiled_loop(select, update, hooks: LoopHooks = NO_HOOKS):
    """The loop of one algorithm: ``_loop_segment`` with ``select``, ``update`` and the kernels of ``hooks`` (its
    skip, its pair run's (plan, apply), its probe; those it has not: ``_never_skip``, ``NO_PAIR_RUN``,
    ``_never_probe``) as its globals, made once per process and set of kernels.  It is njit-compiled when every one
    of them is a numba dispatcher; otherwise (a plain-Python kernel, e.g. a researcher's own algorithm, or numba run
    with ``NUMBA_DISABLE_JIT=1``, whose njit returns every function as it is) it is the same template run as Python,
    which calls a compiled kernel through its dispatcher: the same draws from the same generator in the same order
    (numba's ``random`` and ``binomial`` draw what numpy's do), so the same run.  A compiled loop's name in numba's
    cache names the kernels it has, so that two loops never share a name; it is cached on disk only if all are
    module-level functions of ``CACHED_PACKAGES`` (the cache folder is keyed by their sources; a kernel elsewhere,
    or one made by a factory, which two could share a name, is compiled in each process instead).  Such a loop also
    calls the uncached stand-ins of the hooks it has not (``UNCACHED_STAND_INS``): a cached kernel compiled for the
    state type of a module no other process can import by name (a plug-in file's, ``algorithms.plugins``) would add
    that type to the kernel's cache index, which every later process loading the index would fail to read."""
    skip = _never_skip if hooks.skip is None else hooks.skip
    probe = _never_probe if hooks.probe is None else hooks.probe
    plan, apply = NO_PAIR_RUN if hooks.pair_run is None else hooks.pair_run
    key = (select, update, skip, probe, plan, apply)
    if key not in _COMPILED_LOOPS:
        kernels = dict(zip(("_select", "_update", "_skip", "_probe", "_plan_pair_run", "_apply_pair_run"), key,
                           strict=True))
        compiled = all(isinstance(kernel, Dispatcher) for kernel in key)
        if compiled:
            names = [f"{python_function(kernel).__module__}.{python_function(kernel).__qualname__}" for kernel in key
                     if kernel not in UNCACHED_STAND_INS]
            cache = all(".".join(name.split(".")[:2]) in CACHED_PACKAGES and "<" not in name for name in names)
            if not cache:
                kernels = {name: UNCACHED_STAND_INS.get(kernel, kernel) for name, kernel in kernels.items()}
        template = _loop_segment
        loop = types.FunctionType(template.__code__, {**template.__globals__, **kernels}, template.__name__)
        loop.__doc__ = template.__doc__
        if compiled:
            loop.__qualname__ = "_loop_segment__" + "__".join(
                name.removeprefix("dts_reproduction.").replace(".", "_") for name in names)
            loop = njit(cache=cache)(loop)
        _COMPILED_LOOPS[key] = loop
    return _COMPILED_LOOPS[key]


def python_function(kernel):
    """The Python function an njit ``kernel`` was compiled from: its ``py_func``, or ``kernel`` itself when it is
    plain Python (numba run with ``NUMBA_DISABLE_JIT=1`` returns every njit function undecorated)."""
    return getattr(kernel, "py_func", kernel)


@njit(cache=True)
def _never_skip(state, t, rng, t_limit):
    """The skip of an algorithm without one (never called: ``may_skip`` is False)."""
    return 0, -1


@njit(cache=True)
def _never_probe(state, rng, counts):
    """The probe of a run without one (never called: ``may_probe`` is False)."""


NO_COUNTS = np.zeros(0, np.int64)  # the probe counts of a run without probe


@njit(cache=True)
def _never_plan(state, t, t_limit):
    """The pair-run plan of an algorithm without one (never called: ``may_pair_run`` is False)."""
    return 0, -1, -1


@njit(cache=True)
def _never_apply(state, a1, a2, wins, slots):
    """The pair-run update of an algorithm without one (never called)."""


NO_PAIR_RUN = (_never_plan, _never_apply)  # the (plan, apply) of a run without pair runs
# The same four as compiled in each process, never cached: the stand-ins in a loop that is not cached (compiled_loop).
UNCACHED_STAND_INS = {kernel: njit(python_function(kernel)) for kernel in (_never_skip, _never_probe, *NO_PAIR_RUN)}


def _loop_segment(state, rng, probe_rng, P, zeta, gap, checkpoints, delay, carried, stop, regret, g2w, weak,
                  self_counts, switches):
    """``simulate`` slot by slot from slot ``carried.counters[SLOT]`` until a slot after ``stop`` (or the horizon),
    and, if ``switches.may_skip``, with runs of self-comparisons decided by ``_skip``, and, if
    ``switches.may_pair_run``, with runs of one pair of different arms planned by ``_plan_pair_run`` and applied by
    ``_apply_pair_run`` (same law, fewer slots simulated), and, if ``switches.may_probe``,
    ``_probe(state, probe_rng, switches.probe_counts)`` after every select; the template of every compiled loop
    (``compiled_loop`` binds the six kernels).  The generators are arguments of their own, not fields of a record:
    numba types a ``Generator`` inside a tuple anew on every call (measured: about 20 us a call, against 1 us for
    one given as an argument), which a run of many short segments would pay.
    ``carried`` (``_Carried``: the counters, the three cumulative regrets and the delivery buffers) holds the loop's
    state from one segment to the next, so that segments ending anywhere make the same draws and sums as one
    loop: without skipping, exactly the loop the stored results were made with (the same random draws in the same
    order).  ``stop`` never limits a skip (a segment may end past it).

    The limit given to ``_skip`` and ``_plan_pair_run`` is the next checkpoint (so regrets are recorded where they
    fall) and, with delayed feedback and comparisons waiting, the next delivery slot (the state changes there);
    the horizon is the last checkpoint.  Skipped slots buffer nothing: a self-comparison changes only the
    never-read diagonal, which ``_skip`` updates itself, and a pair run is only made without delay.
    """
    may_skip, may_pair_run, pair_run_retry, may_probe, probe_counts = switches
    counters, sums, buffer_a1, buffer_a2, buffer_won, buffer_t = carried
    horizon = checkpoints[checkpoints.shape[0] - 1]
    zeta_star = np.max(zeta)
    t = counters[SLOT]
    k = counters[CHECKPOINT]
    pending = counters[PENDING]
    after_self = counters[AFTER_SELF] != 0
    last_a1 = counters[LAST_A1]
    last_a2 = counters[LAST_A2]
    repeats = counters[REPEATS]
    next_pair_run = counters[NEXT_PAIR_RUN]
    cumulative = sums[0]
    cumulative_g2w = sums[1]
    cumulative_weak = sums[2]
    while t <= horizon and t <= stop:
        slots = 0
        limit = checkpoints[k]
        if delay > 1 and pending > 0:
            limit = min(limit, ((t + delay - 1) // delay) * delay)
        if may_skip and after_self:
            slots, arm = _skip(state, t, rng, limit)
            if slots > 0:
                cumulative += slots * (zeta_star - zeta[arm])
                cumulative_g2w += slots * 2.0 * gap[arm]
                cumulative_weak += slots * (zeta_star - zeta[arm])
                self_counts[arm] += slots
        elif may_pair_run and repeats >= next_pair_run:
            slots, a1, a2 = _plan_pair_run(state, t, limit)
            if slots > 0:
                _apply_pair_run(state, a1, a2, rng.binomial(slots, P[a1, a2]), slots)
                cumulative += slots * (zeta_star - 0.5 * (zeta[a1] + zeta[a2]))
                cumulative_g2w += slots * (gap[a1] + gap[a2])
                cumulative_weak += slots * (zeta_star - max(zeta[a1], zeta[a2]))
                repeats += slots
                next_pair_run = repeats
            else:
                next_pair_run = repeats + pair_run_retry
        if slots > 0:
            t += slots
        else:
            a1, a2 = _select(state, t, rng)
            if may_probe:
                _probe(state, probe_rng, probe_counts)
            after_self = a1 == a2
            if after_self:
                repeats = 0
            elif a1 == last_a1 and a2 == last_a2:
                repeats += 1
            else:
                repeats = 1
                next_pair_run = pair_run_retry
            last_a1 = a1
            last_a2 = a2
            a1_won = rng.random() < P[a1, a2]
            cumulative += zeta_star - 0.5 * (zeta[a1] + zeta[a2])
            cumulative_g2w += gap[a1] + gap[a2]
            cumulative_weak += zeta_star - max(zeta[a1], zeta[a2])
            if a1 == a2:
                self_counts[a1] += 1
            if delay == 1:
                _update(state, a1, a2, a1_won, t)
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
                _update(state, buffer_a1[b], buffer_a2[b], buffer_won[b], buffer_t[b])
            pending = 0
        if last == checkpoints[k]:
            regret[k] = cumulative
            g2w[k] = cumulative_g2w
            weak[k] = cumulative_weak
            k += 1
    counters[SLOT] = t
    counters[CHECKPOINT] = k
    counters[PENDING] = pending
    counters[AFTER_SELF] = after_self
    counters[LAST_A1] = last_a1
    counters[LAST_A2] = last_a2
    counters[REPEATS] = repeats
    counters[NEXT_PAIR_RUN] = next_pair_run
    sums[0] = cumulative
    sums[1] = cumulative_g2w
    sums[2] = cumulative_weak
