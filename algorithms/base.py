"""The algorithm contract (docs/algorithms.md) and the thin Python class around it.

An algorithm is a small state (a ``typing.NamedTuple``: its settings as scalar fields, everything that
changes as NumPy arrays; a changing scalar as a one-element array, several as the named fields of one
record, ``counters[0].<name>``; a kernel binds the fields it uses to locals of the same names in its
opening lines and does not use ``state`` after them, because numba counts a reference to every array of
a state that is live in a call -- docs/extending.md#adding-an-algorithm) and three functions:
``init`` (plain Python: validates parameters, builds the state), and ``select(state, t, rng) -> (a1, a2)`` and
``update(state, a1, a2, a1_won, t)``, njit-compiled (every built-in algorithm) or plain Python (a researcher's own,
at the cost of speed: ``core.simulate.compiled_loop``).  ``select`` may change bookkeeping (round-robin
pointers, candidate lists); ``update`` changes only the comparison statistics, so that feedback delay
(docs/harness.md#feedback-delay) is well defined.  What it recommends (``Policy.best_arm()``) is the empirical Copeland
winner of ``state.comparisons`` / ``state.wins`` unless its spec declares its own rule (``AlgorithmSpec.best_arm``).
"""

import math
import os
import threading
import warnings
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np
from numba.core.dispatcher import Dispatcher

from dts_reproduction.algorithms.recommend import recommend
from dts_reproduction.core.constants import ALPHA_BOUND_MIN, PSEUDO_N, PSEUDO_W

# The opt-in exact skipping of self-comparison runs of RUCB, CCB, RMED1, RMED2, ECW-RMED and C2B
# (docs/algorithms.md#exact-skipping-of-self-comparison-runs): parameter SKIP_PARAM, either SKIP_OFF
# (the default: slot by slot, how the stored results were made) or SKIP_EXACT.  A stored config without
# the parameter was made before it existed, i.e. with SKIP_OFF, so the harness records it only when it
# is not SKIP_OFF (``reproduce.harness.runner.resolved_params``).
SKIP_PARAM, SKIP_OFF, SKIP_EXACT = "skip", "off", "exact"
INT64_MAX = 2**63 - 1
# The largest K whose K x K float64 statistics could be allocated at all (K^2 * 8 bytes below 2**63);
# a smaller K may still not fit in this machine's memory (``AlgorithmSpec.make_state`` says so).
MAX_ARMS = math.isqrt(INT64_MAX // 8)
EXACT_SKIP = {SKIP_PARAM: SKIP_EXACT}  # the ``fast`` parameters of an algorithm whose only fast path is the skip
# The largest horizon a state that skips (``AlgorithmSpec.skip``) accepts: 2**53, the last slot up to which every
# slot t is a double and a probability of order 1/t (a settled arm's chance of leaving its run of
# self-comparisons) stays resolvable next to 1 (docs/harness.md#the-largest-exact-horizon).
MAX_EXACT_HORIZON = 2**53


def exact_skip_hook(skip):
    """The ``AlgorithmSpec.skip`` (or ``pair_run``) hook of an algorithm with a ``skip="exact"`` option: for a
    state made with it (``state.skip_runs`` true) ``skip`` (its njit skip, or (plan, apply)), else None (slot by
    slot)."""

    def hook(state):
        """``skip`` if ``state`` was made with skip="exact", else None."""
        return skip if state.skip_runs else None

    return hook


@dataclass(frozen=True)
class AlgorithmSpec:
    """Everything the harness needs to know about one algorithm.

    name: registry key (CLI name); label: legend label as in the paper; init(K, horizon, **params)
    -> state; select/update: the functions of the contract, njit or plain Python; defaults: the parameters ``init``
    accepts, with the paper's values; needs_horizon: explore-then-exploit algorithms (BTM, SAVAGE) whose
    confidence widths use T and are re-run on the horizon grid (docs/harness.md#checkpoints); reference: paper and
    equation/line implemented; from_problem(params, dataset, P): see ``problem_params``; sync(state): recompute every
    cache an algorithm derives from its statistics (n, w) = (state.comparisons, state.wins)
    (``set_statistics``);
    skip(state): the njit skip of ``core.simulate`` to use for this state, or None (slot by slot);
    pair_run(state): the njit (plan, apply) of ``core.simulate``'s runs of one pair of different arms for this
    state, or None (ECW-RMED's forced exploration and C2B's blocks of one pair, with skip="exact");
    streams: for a parameter value whose way of drawing random numbers changed after runs were stored
    with it, ``{name: {value: version}}`` (see ``stream_tags``);
    fast: the parameter values that select the algorithm's exact fast paths (opt-in: the same law as the
    defaults, another random stream), e.g. ``{"skip": "exact"}``; empty if it has none.  The benches time
    them against the defaults and figure scripts use them with ``--fast``;
    color, marker: how its curves are drawn in every figure (hand-picked so that the curves compared in
    one panel, the D-TS family in particular, differ);
    presets: named parameter sets, ``{preset: {parameter: value}}`` (e.g. the tuned "best" settings of
    MergeDTS, MergeRUCB and D-TS), each value defined once in ``core/constants.py``; a line uses one by
    writing its parameters (``preset_params``), so a preset line is the same stored line as the one with
    those parameters written out; run.py's ``--algorithms NAME:PRESET`` does that;
    best_arm(state): the arm the algorithm recommends in ``state`` (``Policy.best_arm()``), read from what the
    algorithm keeps, never from the true matrix; None (the default) recommends the empirical Copeland winner of its
    pair statistics ``state.comparisons`` / ``state.wins`` (``algorithms.recommend``), which an algorithm whose state
    has no such statistics must override (docs/algorithms.md#recommendations);
    arm_limit: None (any K the machine's memory holds), or (the most arms it runs with, why): ``make_state`` refuses
    more in one line giving both, before anything is allocated (CW-RMED, whose cost a slot is measured at K = 5
    only and grows too fast for the cost model to bound).
    """

    name: str
    label: str
    init: Callable[..., tuple]
    select: Any
    update: Any
    defaults: Mapping[str, Any] = field(default_factory=dict)
    needs_horizon: bool = False
    reference: str = ""
    from_problem: Callable[[dict, Any, Any], dict] | None = None
    sync: Callable[[tuple], None] | None = None
    color: str = "#333333"
    marker: str = "o"
    skip: Callable[[Any], Any] | None = None
    pair_run: Callable[[Any], Any] | None = None
    streams: Mapping[str, Mapping[Any, int]] = field(default_factory=dict)
    fast: Mapping[str, Any] = field(default_factory=dict)
    presets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    best_arm: Callable[[Any], int] | None = None
    arm_limit: tuple[int, str] | None = None

    def __post_init__(self):
        """Refuse (ValueError) an init, select or update that is not callable, and a preset that sets a parameter
        the algorithm does not accept."""
        for role in ("init", "select", "update"):
            if not callable(getattr(self, role)):
                raise ValueError(f"algorithm {self.name!r}: {role} must be a function, got {getattr(self, role)!r}")
        for preset in self.presets:
            self.resolve_params(self.presets[preset])

    def preset_params(self, preset: str) -> tuple:
        """The parameters of the named preset as sorted (name, value) pairs (a ``Line``'s ``params``);
        ValueError naming the preset and the known ones otherwise."""
        if not isinstance(preset, str) or preset not in self.presets:
            raise ValueError(f"unknown preset {preset!r} for algorithm {self.name!r} "
                             f"(known: {', '.join(sorted(self.presets)) or 'none'})")
        return tuple(sorted(self.presets[preset].items()))

    def problem_params(self, params: Mapping[str, Any], dataset, P=None) -> dict:
        """``params`` completed with what the paper's harness derives from the true matrix.

        Only the simulator knows the true problem (e.g. SAVAGE's variant follows whether a Condorcet
        winner exists, docs/harness.md#regret; the oracle is told each arm's partner, ``algorithms.oracle``);
        ``from_problem(params, dataset, P) -> params`` does that, if given, with P the run's matrix (the dataset's
        in the run's arm order; ``dataset.P`` if not given), so that what it derives names the arms as the run
        numbers them.
        """
        params = dict(params)
        if self.from_problem is None:
            return params
        return self.from_problem(params, dataset, dataset.P if P is None else P)

    def resolve_params(self, params: Mapping[str, Any] | None) -> dict:
        """Defaults overridden by ``params`` (a mapping, or (name, value) pairs); an unknown parameter name,
        or ``params`` of another form, raises ValueError."""
        try:
            params = dict(params or {})
        except (TypeError, ValueError):
            raise ValueError(f"parameters of algorithm {self.name!r} must be a mapping or (name, value) pairs, "
                             f"got {params!r}") from None
        unknown = sorted(set(params) - set(self.defaults))
        if unknown:
            raise ValueError(
                f"unknown parameter {unknown[0]!r} for algorithm {self.name!r} "
                f"(accepted: {', '.join(sorted(self.defaults)) or 'none'})"
            )
        return {**self.defaults, **params}

    def stream_tags(self, params: Mapping[str, Any]) -> dict:
        """``{"<name>_stream": version}`` for every parameter whose value in ``params`` (resolved) has a
        stream version in ``streams``: recorded next to the parameters in a stored run's config and line
        key (``reproduce.harness.runner.resolved_params``), so that runs of the same value drawn the old way are
        stale rather than mixed with new ones; empty for values that never changed (the defaults)."""
        return {f"{name}_stream": versions[params[name]] for name, versions in self.streams.items()
                if params.get(name) in versions}

    def set_statistics(self, state: tuple, n, w) -> tuple:
        """Overwrite the pair statistics of ``state`` (comparisons ``n``, wins ``w``, K x K, pseudo-counts
        included) and bring every cache derived from them up to date -- a warm start, or a hand-made
        state in a test.  Supported by the algorithms that declare ``sync`` (D-TS and its variants,
        RUCB, RCS, CCB), whose states name these two arrays ``comparisons`` and ``wins``; ValueError
        otherwise.  ``n`` and ``w`` must pass ``check_statistics`` (ValueError before anything is
        written).  Returns ``state``."""
        if self.sync is None:
            raise ValueError(f"algorithm {self.name!r} does not support setting its statistics")
        n, w = check_statistics(state.comparisons.shape[0], n, w)
        state.comparisons[:] = n
        state.wins[:] = w
        self.sync(state)
        return state

    def make_state(self, K: int, horizon: int | None = None, params: Mapping[str, Any] | None = None):
        """Validate (K, horizon, params) and return a fresh state; ValueError names any bad value (a horizon
        is checked whenever one is given, even to an algorithm that does not use it, and a K whose state
        would not fit in physical memory is a ValueError too, before it is allocated: see STATE_PROBE_K; a state
        that skips refuses a horizon above MAX_EXACT_HORIZON)."""
        K = check_num_arms(K)
        if horizon is not None:
            horizon = check_horizon(horizon)
        elif self.needs_horizon:
            raise ValueError(f"algorithm {self.name!r} needs the horizon T")
        params = self.resolve_params(params)
        if self.arm_limit is not None and K > self.arm_limit[0]:
            raise ValueError(f"{self.label} runs with at most {self.arm_limit[0]} arms here, got K = {K}: "
                             f"{self.arm_limit[1]}")
        if K > STATE_PROBE_K:
            needed = state_bytes(self.init(STATE_PROBE_K, horizon, **params)) * (K / STATE_PROBE_K) ** 2
            available = physical_memory()
            if needed > available:
                raise ValueError(f"the number of arms K = {K} is too large: the state of {self.name!r} needs about "
                                 f"{needed / 2**30:.0f} GiB, more than this machine's {available / 2**30:.0f} "
                                 "GiB of memory")
        try:
            state = self.init(K, horizon, **params)
        except MemoryError:
            raise ValueError(f"the number of arms K = {K} is too large: the state of {self.name!r} does not fit "
                             "in memory") from None
        if horizon is not None and horizon > MAX_EXACT_HORIZON and self.skip is not None \
                and self.skip(state) is not None:
            raise ValueError(f"the horizon T = {horizon} is beyond the largest at which the fast path of {self.name!r} "
                             f"is exact, 2**53 = {MAX_EXACT_HORIZON} (docs/harness.md#the-largest-exact-horizon)")
        return state


# From this K on, ``make_state`` first sizes the state from one of STATE_PROBE_K arms (every state holds
# K x K arrays, so it grows as K^2 at most) and refuses a K whose state cannot fit in physical memory,
# instead of letting the allocation swap the machine or be killed by the OS.
STATE_PROBE_K = 1024


def state_bytes(state) -> int:
    """Bytes held by the arrays of a state (a tuple or NamedTuple of arrays and scalars)."""
    return sum(value.nbytes for value in state if isinstance(value, np.ndarray))


def physical_memory() -> int:
    """This machine's physical memory in bytes (2**63 - 1 where the OS does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return INT64_MAX


def check_num_arms(K) -> int:
    """K as an int; ValueError unless it is an integer >= 2 (and K x K fits in an int64 count)."""
    if isinstance(K, bool) or not isinstance(K, (int, np.integer)) or K < 2:
        raise ValueError(f"the number of arms K must be an integer >= 2, got {K!r}")
    if K > MAX_ARMS:
        raise ValueError(f"the number of arms K = {K} is too large: its K x K statistics do not fit in memory")
    return int(K)


def check_horizon(horizon) -> int:
    """The horizon T as an int; ValueError unless it is an integer in [1, 2**63 - 1] (int64)."""
    if isinstance(horizon, bool) or not isinstance(horizon, (int, np.integer)) or horizon < 1:
        raise ValueError(f"the horizon T must be an integer >= 1, got {horizon!r}")
    if horizon > INT64_MAX:
        raise ValueError(f"the horizon T must be at most {INT64_MAX} (int64), got {horizon!r}")
    return int(horizon)


def check_positive(name: str, value, text: bool = False) -> float:
    """``value`` as a float; ValueError naming ``name`` and the value (as a float where it is a number)
    unless it is a finite number > 0 (a bool is not one, nor a text such as '0.6' unless ``text``, for a command-line
    flag: a parameter keeps the type it is stored and keyed with, so the API takes numbers as numbers, as the command
    line parses them)."""
    try:
        if isinstance(value, (bool, np.bool_)) or (isinstance(value, (str, bytes)) and not text):
            raise TypeError
        number = shown = float(value)
    except (TypeError, ValueError):
        number, shown = math.nan, value
    if not math.isfinite(number) or number <= 0.0:
        raise ValueError(f"{name} must be a finite number > 0, got {shown!r}")
    return number


def check_alpha(alpha) -> float:
    """The RUCB/RLCB scale factor alpha: ValueError if not a finite number > 0, a warning if <= ALPHA_BOUND_MIN
    (0.5)."""
    alpha = check_positive("alpha", alpha)
    if alpha <= ALPHA_BOUND_MIN:
        warnings.warn(
            f"alpha = {alpha} <= {ALPHA_BOUND_MIN}: the paper's regret bound (Theorem 1) needs "
            f"alpha > {ALPHA_BOUND_MIN}",
            stacklevel=3,
        )
    return alpha


def check_statistics(K: int, n, w) -> tuple[np.ndarray, np.ndarray]:
    """(n, w) as float64 K x K arrays if they are possible pair statistics of K arms, pseudo-counts
    included or not.  Off the diagonal (the diagonal is never read): every entry finite and >= 0 (wins
    >= -PSEUDO_W, so that statistics reversed as n - w, pseudo-counts and all, pass); n symmetric (it
    counts unordered pairs) and > 0 (the bounds divide by it); the wins of a pair, less their
    pseudo-counts, at most its comparisons (w_ij + w_ji <= n_ij + 2 PSEUDO_W, up to rounding).
    ValueError naming the first entry that is not (nothing is broadcast: a scalar or a row is refused)."""
    off_diagonal = ~np.eye(K, dtype=np.bool_)
    arrays = []
    for name, value, low in (("n", n, 0.0), ("w", w, -PSEUDO_W)):
        try:
            array = np.array(value, dtype=np.float64)
        except (TypeError, ValueError) as error:
            raise ValueError(f"set_statistics: {name} must be a {K} x {K} array of numbers ({error})") from None
        if array.shape != (K, K):
            raise ValueError(f"set_statistics: {name} must be a {K} x {K} array, got shape {array.shape}")
        bad = np.argwhere(off_diagonal & ~(np.isfinite(array) & (array >= low)))
        if bad.size:
            i, j = bad[0]
            raise ValueError(f"set_statistics: {name}[{i},{j}] = {float(array[i, j])!r} must be finite and >= 0")
        arrays.append(array)
    n, w = arrays
    checks = (
        (off_diagonal & (n != n.T), "n must be symmetric (comparisons of unordered pairs), got n[{i},{j}] = {a!r} "
                                    "!= n[{j},{i}] = {b!r}"),
        (off_diagonal & (n == 0.0), "n[{i},{j}] = {a!r}: a pair needs comparisons > 0 (an unseen pair has "
                                    "the pseudo-count {pseudo!r})"),
        (off_diagonal & (w + w.T > n + 2.0 * PSEUDO_W + 1e-9 * n),
         "the wins of pair ({i},{j}) exceed its comparisons: w[{i},{j}] + w[{j},{i}] = {c!r} > n[{i},{j}] = {a!r}"),
    )
    for failed, message in checks:
        bad = np.argwhere(failed)
        if bad.size:
            i, j = (int(x) for x in bad[0])
            raise ValueError("set_statistics: " + message.format(
                i=i, j=j, a=float(n[i, j]), b=float(n[j, i]), c=float(w[i, j] + w[j, i]), pseudo=PSEUDO_N))
    return n, w


def check_choice(name: str, value, choices) -> str:
    """``value`` if it is one of ``choices``, else ValueError naming the parameter and the choices."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}")
    return value


def check_skip(value) -> bool:
    """True for skip="exact", False for "off"; ValueError naming the choices otherwise."""
    return check_choice(SKIP_PARAM, value, (SKIP_OFF, SKIP_EXACT)) == SKIP_EXACT


class Policy:
    """Drive an algorithm from a live experiment: ``a1, a2 = policy.select()``, then
    ``policy.update(a1, a2, a1_won)`` once the comparison result is known; ``policy.best_arm()`` is the arm it
    recommends now.

    Subclasses set ``spec``.  Arms are 0..K-1.  The same functions as the simulator run underneath (njit or
    plain Python), so a policy is exactly the simulated algorithm.  ``seed`` seeds the policy's own
    ``numpy.random.Generator`` (an int, a SeedSequence or a Generator).  Feedback may arrive late:
    ``update`` must only be called for pairs that ``select`` returned, in the order of selection.
    The njit functions are called through their machine code compiled for this state's types
    (``policy_kernels``), which skips numba's per-call type dispatch (bench/policy_step.py); each is bound when it is
    first called, so that the first ``select`` does not wait for ``update`` to compile (docs/install.md#first-use).

    Each call holds ``lock`` (a re-entrant lock), so threads sharing a policy never corrupt its state or its queue
    of pending pairs.  Feedback must still come in the order of selection: threads that each select and update
    hold ``lock`` around the pair (``with policy.lock: a1, a2 = policy.select(); policy.update(...)``), or the
    update of another thread's later pair is refused (docs/live-use.md).
    """

    spec: AlgorithmSpec

    def __init__(self, K: int, *, seed=None, horizon: int | None = None, **params):
        """A fresh policy on K arms: parameters checked and completed with the defaults (ValueError names a
        bad one), its own generator from ``seed``, t = 0."""
        self.K = check_num_arms(K)
        self.horizon = horizon
        self.params = self.spec.resolve_params(params)
        self.state = self.spec.make_state(self.K, horizon, self.params)
        self.rng = seed if isinstance(seed, np.random.Generator) else _generator(seed)
        self.t = 0
        self._selected: deque[tuple[int, int, int]] = deque()
        self._bound: tuple = (None, None, None)  # (the state, select, update) bound for it, None until first called
        self.lock = threading.RLock()

    def _kernel(self, index: int) -> Callable:
        """``select`` (``index`` 0) or ``update`` (1) compiled for the current ``state``'s types, bound when first
        called and again once the state was replaced (a bound kernel is typed, not tied to one generator, so a
        replaced ``rng`` needs none)."""
        state, *kernels = self._bound
        if state is not self.state:
            kernels = [None, None]
        if kernels[index] is None:
            kernels[index] = bound_kernel(*policy_kernels(self.spec, self.state, self.rng)[index])
            self._bound = (self.state, *kernels)
        return kernels[index]

    def select(self) -> tuple[int, int]:
        """The pair (first, second candidate) to compare in the next time slot; ValueError once t, an int64 in
        the kernels, is at its maximum 2**63 - 1."""
        with self.lock:
            if self.t >= INT64_MAX:
                raise ValueError(f"select(): the policy has played t = {self.t} slots, the most its int64 slot "
                                 f"counter holds")
            select = self._kernel(0)
            self.t += 1
            a1, a2 = select(self.state, self.t, self.rng)
            self._selected.append((a1, a2, self.t))
            return a1, a2

    def update(self, a1: int, a2: int, a1_won: bool) -> None:
        """Feed back the result of the oldest pending comparison, which must be (a1, a2) (integer arms)."""
        if not (type(a1) is int and type(a2) is int and type(a1_won) in (bool, np.bool_)):  # else: check each
            check_feedback(a1, a2, a1_won)
        with self.lock:
            if not self._selected:
                raise ValueError("update() called with no pending comparison; call select() first")
            s1, s2, t = self._selected[0]
            if a1 != s1 or a2 != s2:
                raise ValueError(f"update() for pair ({a1}, {a2}) but the oldest pending pair is ({s1}, {s2})")
            self._selected.popleft()
            update = self._kernel(1)
            update(self.state, s1, s2, bool(a1_won), t)

    def best_arm(self) -> int:
        """The arm the algorithm would recommend now, from its own statistics or winner estimate (its spec's
        ``best_arm``, else the empirical Copeland winner: ``algorithms.recommend``,
        docs/algorithms.md#recommendations); changes nothing."""
        with self.lock:
            return recommend(self.spec, self.state)

    def __getstate__(self) -> dict:
        """The policy's attributes without its bound kernels (bound again on the next call) and its lock, so
        that a policy can be pickled or copied as before it bound them."""
        attributes = {name: value for name, value in self.__dict__.items() if name != "lock"}
        return {**attributes, "_bound": (None, None, None)}

    def __setstate__(self, attributes: dict) -> None:
        """A pickled or copied policy's attributes, with a lock of its own."""
        self.__dict__.update(attributes)
        self.lock = threading.RLock()

    def __repr__(self) -> str:
        """The policy's class, K, slots played and parameters."""
        return f"{type(self).__name__}(K={self.K}, t={self.t}, params={self.params})"


def policy_classes() -> dict[str, type]:
    """Registry name -> the ``Policy`` subclass of the algorithm of that name (its ``spec.name``), for every subclass
    defined so far (each algorithm's module defines its own); of several subclasses of one algorithm, the one nearest
    to ``Policy`` (first defined on ties), so that a user's subclass of ``DTS`` does not displace ``DTS``."""
    found, level = {}, Policy.__subclasses__()
    while level:
        for cls in level:
            if hasattr(cls, "spec"):
                found.setdefault(cls.spec.name, cls)
        level = [sub for cls in level for sub in cls.__subclasses__()]
    return found


def check_feedback(a1, a2, a1_won) -> None:
    """ValueError unless a1 and a2 are integer arm indices (not bools) and a1_won is a bool or 0/1."""
    for name, arm in (("a1", a1), ("a2", a2)):
        if isinstance(arm, (bool, np.bool_)) or not isinstance(arm, (int, np.integer)):
            raise ValueError(f"update(): {name} must be an integer arm index, got {arm!r}")
    if not (isinstance(a1_won, (bool, np.bool_))
            or (isinstance(a1_won, (int, np.integer)) and a1_won in (0, 1))):
        raise ValueError(f"update(): a1_won must be a bool (or 0/1), got {a1_won!r}")


def policy_kernels(spec: AlgorithmSpec, state, rng) -> tuple[tuple[Any, tuple], tuple[Any, tuple]]:
    """(select, its arguments), (update, its arguments) of ``spec`` as a ``Policy`` calls them, the arguments to bind
    each to (``bound_kernel``): ``state``, an int slot, ``rng``; ``state``, two int arms, a bool, an int slot."""
    return (spec.select, (state, 1, rng)), (spec.update, (state, 0, 0, True, 1))


def bound_kernel(kernel, args: tuple) -> Callable:
    """The numba dispatcher ``kernel`` bound to the numba types of ``args``: the callable of the same
    machine code the dispatcher would run on such arguments, compiled or loaded from the cache now, called
    without the dispatcher's type resolution on every call.  A kernel that is not a numba dispatcher is
    returned as it is."""
    if not isinstance(kernel, Dispatcher):
        return kernel
    return kernel.compile(tuple(kernel.typeof_pyval(arg) for arg in args))


def _generator(seed) -> np.random.Generator:
    """``numpy.random.default_rng(seed)``; ValueError naming ``seed`` for what numpy refuses, and for a bool."""
    try:
        if isinstance(seed, (bool, np.bool_)):
            raise TypeError
        return np.random.default_rng(seed)
    except (TypeError, ValueError):
        raise ValueError(f"seed must be None, a non-negative integer, a SeedSequence or a Generator, "
                         f"got {seed!r}") from None
