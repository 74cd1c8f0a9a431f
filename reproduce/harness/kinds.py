"""Run kinds: what the runs of a line store, and how (docs/harness.md, "Run kinds").

Every ``Line`` is of one kind, a ``RunKind`` that declares

* the arrays its chunks store (``StoredArray``): their names, dtypes and shapes (by the runs of the chunk, the
  arms of the dataset and the checkpoints of the run), each taken by name from the outputs of the chunk's runs
  (``runner.run_one``), and the dtype a loaded line presents it as;
* its probe, if any: an njit diagnostic the one loop (``core.simulate``) calls after every select, counting on a
  random stream of its own keyed by the kind's name; its counts are outputs of the run, by name;
* the algorithms and parameter values it can run (``RunKind.check``);
* the checks of a stored chunk's arrays against its config (``RunKind.consistency``);
* its name and version, from which follow the marker its chunks' config carries and the folder they live in.

The harness (``reproduce.harness.runner``) calls these and never asks which kind a line is: a new kind, or a new
stored array of one, is a declaration, not an edit of the harness.  The default kind, the regret curves, is
``reproduce.harness.curves.CURVES``; every other kind is declared by the study that needs it, outside the harness,
and travels on its lines; ``kind_of`` finds the kind of a stored chunk among those its caller knows
(``reproduce/verify.py``: ``reproduce.checks.resimulate.RUN_KINDS``).
"""

import dataclasses
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np

from dts_reproduction.reproduce.harness import seeds

# The config entry naming a chunk's kind (none: the regret curves), spelled as the first kind's chunks were stored.
MARKER_KEY = "diagnostic"


class ChunkSize(NamedTuple):
    """The sizes a chunk's arrays are shaped by: its ``runs``, the dataset's ``arms`` (K) and the ``checkpoints``
    of its runs' grid.  A ``StoredArray`` names its axes by these fields."""

    runs: int
    arms: int
    checkpoints: int


@dataclasses.dataclass(frozen=True)
class StoredArray:
    """One array of a kind's chunks: ``name`` (in the chunk file, and the output of a run it is taken from),
    ``dtype`` (as stored), ``axes`` (its shape, each axis a field of ``ChunkSize``: an array whose first axis is
    ``runs`` holds one row per run, any other is the same for every run of a chunk and taken from its first run)
    and ``presented``, the dtype a loaded line holds it as (None: as stored).  ``missing_like``: None for an array
    every chunk of the kind holds; for one added to the kind after chunks were stored without it, the name of the
    array whose shape it has -- such a chunk stays valid, and a loaded line holds NaN for its runs."""

    name: str
    dtype: str
    axes: tuple[str, ...]
    presented: str | None = None
    missing_like: str | None = None

    @property
    def per_run(self) -> bool:
        """Whether the array holds one row per run (its first axis is ``runs``)."""
        return self.axes[:1] == ("runs",)

    def shape(self, size: ChunkSize) -> tuple[int, ...]:
        """The array's shape in a chunk of ``size``."""
        return tuple(getattr(size, axis) for axis in self.axes)

    def stored(self, outputs: list[dict]) -> np.ndarray:
        """The array as a chunk whose runs gave ``outputs`` (their outputs by name, in run order) stores it."""
        if self.per_run:
            return np.array([output[self.name] for output in outputs], self.dtype)
        return np.asarray(outputs[0][self.name], self.dtype)

    def part(self, chunk: dict) -> np.ndarray:
        """The array as the stored ``chunk`` holds it; for a chunk stored before the array existed
        (``missing_like``), NaN in the shape of the array it names."""
        if self.name in chunk or self.missing_like is None:
            return chunk[self.name]
        return np.full(np.shape(chunk[self.missing_like]), np.nan, self.dtype)

    def loaded(self, parts: list[np.ndarray]) -> np.ndarray:
        """The array of a line whose chunks, in run order, hold ``parts`` of it: a per-run array's parts joined
        (and cast to ``presented``, if given), any other as its first chunk holds it."""
        if not self.per_run:
            return parts[0]
        joined = np.concatenate(parts)
        return joined if self.presented is None else joined.astype(self.presented)

    def loaded_bytes(self, size: ChunkSize) -> int:
        """Bytes of memory the array takes while a line of ``size`` (all its runs) is loaded: a per-run array as
        its chunks hold it, joined, and as presented; any other, once."""
        entries = int(np.prod(self.shape(size), dtype=np.int64))
        if not self.per_run:
            return entries * np.dtype(self.dtype).itemsize
        presented = np.dtype(self.presented).itemsize if self.presented is not None else 0
        return entries * (2 * np.dtype(self.dtype).itemsize + presented)


def no_contradiction(chunk: dict, config: dict, dataset) -> str | None:
    """The consistency check of a kind whose arrays its config says nothing more about: None (its store's checks
    -- digest, config, shapes -- are all there is)."""
    return None


@dataclasses.dataclass(frozen=True, repr=False)
class RunKind:
    """A kind of run (see the module docstring).

    ``name``: what messages call it, the key of its probe's random stream (``reproduce.harness.seeds``) and, for a
    kind with a version, its folder under the results folder.  ``version``: the version of what its chunks hold,
    recorded in their config (``marker``); a new one when its probe's counts change, so that the older chunks are
    stale.  None for the regret curves alone, whose chunks were stored before kinds existed: their config has no
    marker, and they live at the results folder's root.  ``arrays``: the ``StoredArray``s of its chunks, in the
    order they are written.  ``probe``: None, or the njit ``probe(state, rng, counts)`` the loop calls after every
    select, ``counts`` naming its int64 counts in the order of its indices (each an output of the run).
    ``algorithms``: the algorithms it can run (empty: every one); ``params``: (parameter, allowed values) pairs the
    resolved parameters must meet (the states a probe can read).  ``consistency(chunk, config, dataset)``: why the
    arrays of a stored chunk contradict its config, or None.
    """

    name: str
    version: int | None
    arrays: tuple[StoredArray, ...]
    probe: Callable | None = None
    counts: tuple[str, ...] = ()
    algorithms: tuple[str, ...] = ()
    params: tuple[tuple[str, tuple], ...] = ()
    consistency: Callable[[dict, dict, object], str | None] = no_contradiction

    def __repr__(self) -> str:
        """The kind's name (a line's repr shows it)."""
        return f"RunKind({self.name!r})"

    @property
    def marker(self) -> str | None:
        """The config entry ``MARKER_KEY`` of the kind's chunks, ``"<name> v<version>"`` (the spelling of the markers
        stored before kinds had versions, so that those chunks stay valid); None for the regret curves."""
        return None if self.version is None else f"{self.name} v{self.version}"

    @property
    def folder(self) -> Path:
        """Where the kind's lines live below a results folder: its name, or the root for the regret curves."""
        return Path() if self.version is None else Path(self.name)

    def config_entries(self) -> dict:
        """What the kind adds to its chunks' config: its marker, if it has one."""
        return {} if self.marker is None else {MARKER_KEY: self.marker}

    def check(self, algorithm: str, params: dict) -> None:
        """ValueError unless the kind can run ``algorithm`` with the resolved ``params``."""
        if self.algorithms and algorithm not in self.algorithms:
            raise ValueError(f"a {self.name} line runs {' or '.join(self.algorithms)}, got algorithm {algorithm!r}")
        for name, allowed in self.params:
            if params.get(name) not in allowed:
                raise ValueError(f"a {self.name} line needs {name} {' or '.join(map(repr, allowed))}, "
                                 f"got {params.get(name)!r}")

    def probe_rng(self, seed: int, dataset: str, run: int) -> np.random.Generator | None:
        """The generator of the probe of run ``run`` on ``dataset`` (keyed by the kind's name); None without one."""
        return None if self.probe is None else seeds.algorithm_rng(seed, dataset, run, self.name)

    def shapes(self, size: ChunkSize) -> dict:
        """{name: shape} of every array of a chunk of ``size``."""
        return {array.name: array.shape(size) for array in self.arrays}

    def chunk_arrays(self, outputs: list[dict]) -> dict:
        """{name: array} of the chunk whose runs gave ``outputs`` (in run order), as it is stored."""
        return {array.name: array.stored(outputs) for array in self.arrays}

    def line_arrays(self, chunks: list[dict]) -> dict:
        """{name: array} of the line whose stored ``chunks`` (in run order) are given, as a loaded line holds them."""
        return {array.name: array.loaded([array.part(chunk) for chunk in chunks]) for array in self.arrays}

    def later_arrays(self) -> tuple[str, ...]:
        """The names of the arrays a stored chunk may lack (``StoredArray.missing_like``: added to the kind later)."""
        return tuple(array.name for array in self.arrays if array.missing_like is not None)

    def per_run_arrays(self) -> tuple[str, ...]:
        """The names of the kind's per-run arrays (``StoredArray.per_run``), in the order they are written."""
        return tuple(array.name for array in self.arrays if array.per_run)

    def loaded_bytes(self, size: ChunkSize) -> int:
        """Bytes of memory a line of ``size`` (all its runs) takes while it is loaded (``StoredArray.loaded_bytes``)."""
        return sum(array.loaded_bytes(size) for array in self.arrays)

    def __reduce__(self):
        """Pickled (to a worker process) with its probe by reference, as its module and name: numba would pickle
        the probe's code, and the worker would compile that copy again, uncached, instead of its module's."""
        fields = {field.name: getattr(self, field.name) for field in dataclasses.fields(self) if field.name != "probe"}
        return _rebuilt_kind, (type(self), fields, _kernel_reference(self.probe))


def _kernel_reference(kernel):
    """(module, name) of a module-level ``kernel``, which ``_rebuilt_kind`` imports; any other object as it is
    (None, or a kernel that is no module's attribute, pickled by value)."""
    function = getattr(kernel, "py_func", kernel)
    module, name = getattr(function, "__module__", None), getattr(function, "__qualname__", "")
    if module is not None and "<" not in name and getattr(importlib.import_module(module), name, None) is kernel:
        return module, name
    return kernel


def _rebuilt_kind(cls: type, fields: dict, probe) -> "RunKind":
    """A pickled kind of class ``cls`` with ``fields``, its probe imported if given by reference (``__reduce__``)."""
    if isinstance(probe, tuple):
        module, name = probe
        probe = getattr(importlib.import_module(module), name)
    return cls(**fields, probe=probe)


def checked_kind(value) -> RunKind:
    """``value`` if it is a ``RunKind``; ValueError naming what it is otherwise (a line's kind given by name)."""
    if not isinstance(value, RunKind):
        raise ValueError(f"kind must be a RunKind (reproduce.harness.kinds), got {value!r}")
    return value


def kind_of(config: dict, kinds) -> RunKind:
    """The kind, among ``kinds``, whose chunks carry the marker of the stored ``config`` (no marker: the regret
    curves'); ValueError naming the known markers otherwise (a kind its caller does not know, or a probe since
    changed: stale)."""
    marker = config.get(MARKER_KEY)
    for kind in kinds:
        if kind.marker == marker:
            return kind
    known = ", ".join(repr(kind.marker) for kind in kinds if kind.marker is not None)
    raise ValueError(f"{MARKER_KEY} {marker!r} is no known run kind's (known: {known or 'none'})")
