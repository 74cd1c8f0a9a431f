"""The shared experiment runner: (dataset x algorithm x runs x horizon) -> stored per-run results.

``Line`` describes one curve of a figure (a dataset, an algorithm with its parameters, a horizon,
a number of runs, a feedback delay, the kind of its runs).  ``run_lines`` validates every line before any work
starts (a bad name or value raises ValueError and writes nothing), splits each line into chunks of runs,
computes the chunks that are not already stored (in parallel with joblib, with a progress bar),
and returns one ``LineResult`` per line.  A run is a pure function of (dataset, algorithm,
parameters, root seed, run index): see ``reproduce.harness.seeds``.  What a line's runs store, and how its
chunks are checked and loaded, is its kind's (``reproduce.harness.kinds``): the runner asks the kind, whichever it
is.
"""

import functools
import hashlib
import json
import math
import os
import subprocess
import sys
import threading
import time
import warnings
import weakref
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from dts_reproduction.algorithms import AlgorithmSpec, get_algorithm
from dts_reproduction.algorithms.base import INT64_MAX, SKIP_OFF, SKIP_PARAM, check_horizon, physical_memory
from dts_reproduction.algorithms.plugins import load_plugins, plugin_references
from dts_reproduction.core.simulate import STOP, LoopHooks, simulate
from dts_reproduction.data import Dataset, dataset_names, load_dataset
from dts_reproduction.reproduce.config.paper import ROOT_SEED
from dts_reproduction.reproduce.harness import code_record, limits, seeds
from dts_reproduction.reproduce.harness.backends import BACKENDS
from dts_reproduction.reproduce.harness.code_identity import git_dirty, run_code
from dts_reproduction.reproduce.harness.cost import check_plan_cost, measured_run_seconds, skips_in_log_time
from dts_reproduction.reproduce.harness.curves import CURVES
from dts_reproduction.reproduce.harness.grid import CHECKPOINTS_PER_DECADE, log_grid, stored_grid
from dts_reproduction.reproduce.harness.interrupt import SIGNALS, Interrupted
from dts_reproduction.reproduce.harness.kinds import ChunkSize, RunKind, checked_kind
from dts_reproduction.reproduce.harness.limits import (
    MAX_CHUNKS,
    MAX_CPU_HOURS,
    MAX_JOBS,
    MAX_RUNS,
    check_no_file_in_the_way,
    check_output_folder,
)
from dts_reproduction.reproduce.harness.locks import FileLock
from dts_reproduction.reproduce.harness.paths import ROOT
from dts_reproduction.reproduce.harness.store import (
    MATRIX_REFERENCE,
    ChunkError,
    NotStored,
    chunk_path,
    config_difference,
    inspect_chunk,
    read_chunk,
    read_chunk_meta,
    save_chunk,
    save_matrix,
)
from dts_reproduction.reproduce.harness.workers import (
    init_loky_worker,
    remove_stale_files,
    start_loky_workers,
    start_resource_trackers,
)

FORMAT_VERSION = 1
LOCK_NAME = ".chunks.lock"  # in a line's folder, held by the one process computing its chunks (reproduce.harness.locks)


@dataclass(frozen=True)
class Line:
    """One curve: ``algorithm`` with ``params`` on ``dataset`` for ``runs`` runs of ``horizon`` slots.

    tag names the line in the legend and tables (default: the algorithm name); delay is the
    feedback batch length d (docs/harness.md, "Feedback delay"); shuffle=False keeps
    the dataset's arm order in every run; kind is what its runs store (a ``reproduce.harness.kinds.RunKind``;
    default the regret curves, ``reproduce.harness.curves.CURVES``).
    """

    dataset: str
    algorithm: str
    horizon: int
    runs: int
    params: tuple = ()
    tag: str = ""
    delay: int = 1
    shuffle: bool = True
    kind: RunKind = CURVES

    @property
    def name(self) -> str:
        """The line's tag, or the algorithm name."""
        return self.tag or self.algorithm


@dataclass
class LineResult:
    """Stored results of one line: the arrays of its kind by name (``arrays``, as ``RunKind.line_arrays`` presents
    them: a per-run array has one row per run, run index = row), its legend ``label`` and ``meta``.

    The regret curves' arrays also read as attributes: checkpoints (C,) slots; regret (R, C) cumulative Copeland
    regret (Eq. 1) at the checkpoints; g2w (R, C) gap-to-Condorcet-winner regret (NaN without a Condorcet winner);
    weak (R, C) cumulative weak Copeland regret (NaN for runs stored before it was kept);
    final (R,) exact R(T); self_counts (R, K) self-comparisons per *original* arm; permutations (R, K).  Read on a
    line whose kind does not store it, such an attribute raises AttributeError naming the arrays the line has.
    """

    line: Line
    label: str
    arrays: dict
    meta: dict = field(default_factory=dict)

    def _array(self, name: str) -> np.ndarray:
        """The array ``name`` of the result; AttributeError naming its arrays if its kind stores none of that name."""
        if name not in self.arrays:
            raise AttributeError(f"a {self.line.kind.name} line stores no {name!r} (its arrays: "
                                 f"{', '.join(self.arrays)})")
        return self.arrays[name]

    @property
    def checkpoints(self) -> np.ndarray:
        """The slots the curves are recorded at."""
        return self._array("checkpoints")

    @property
    def regret(self) -> np.ndarray:
        """The cumulative Copeland regret of every run at the checkpoints."""
        return self._array("regret")

    @property
    def g2w(self) -> np.ndarray:
        """The gap-to-Condorcet-winner regret of every run at the checkpoints."""
        return self._array("g2w")

    @property
    def weak(self) -> np.ndarray:
        """The cumulative weak Copeland regret of every run at the checkpoints (NaN for runs stored without it)."""
        return self._array("weak")

    @property
    def final(self) -> np.ndarray:
        """The exact R(T) of every run."""
        return self._array("final")

    @property
    def self_counts(self) -> np.ndarray:
        """The self-comparisons of every run per original arm."""
        return self._array("self_counts")

    @property
    def permutations(self) -> np.ndarray:
        """The arm order of every run (stored as ``permutation``)."""
        return self._array("permutation")

    def of_runs(self, keep) -> "LineResult":
        """The result restricted to the runs ``keep`` (a boolean mask or indices over its runs): every per-run
        array of its kind indexed, the others as they are."""
        per_run = self.line.kind.per_run_arrays()
        return replace(self, arrays={name: array[keep] if name in per_run else array
                                     for name, array in self.arrays.items()})


def git_commit() -> str:
    """The checkout's HEAD commit, or "unknown" outside a git checkout (recorded with every result)."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def package_versions() -> dict:
    """The versions of Python and of the packages that decide the numbers, recorded in every chunk."""
    import joblib
    import numba

    return {"python": sys.version.split()[0], "numpy": np.__version__, "numba": numba.__version__,
            "joblib": joblib.__version__}


def run_one(dataset, spec, params: dict, horizon: int, run: int, seed: int, delay: int = 1,
            shuffle: bool = True, checkpoints: np.ndarray | None = None, comparisons: bool = False,
            kind: RunKind = CURVES) -> dict:
    """Simulate run ``run`` of algorithm ``spec`` on ``dataset`` (a ``data.Dataset``); return its outputs by name.

    The matrix is permuted by the run's shuffle (shared by all algorithms of the run); regrets are recorded at
    ``checkpoints`` (default: ``log_grid(horizon)``; given, they must end at the horizon); the outputs are
    ``regret``, ``g2w``, ``weak`` (the weak regret, ``core.simulate.simulate``), ``final``, ``self_counts`` (mapped
    back to the original arm labels), ``permutation`` and ``checkpoints``; with ``comparisons``, also the
    algorithm's final comparison counts n_ij of every pair of different arms (``state.comparisons``, pseudo-counts
    included, original labels, zero diagonal: every delivered comparison is counted, so with delay 1 all of them),
    which changes nothing else of the run; with a ``kind`` that has a probe, the loop also runs it on a stream of
    its own (keyed by the kind's name) and the outputs hold each of its counts (``RunKind.counts``) as an int, which
    changes nothing else either (``validate_line`` checks that the kind can probe the algorithm). A kind's chunks
    store the outputs it names (``RunKind.chunk_arrays``). A delay of the horizon or more delivers no feedback
    (``validate_line`` refuses it for a line; a compile probe may use it).
    Raises ValueError before any slot for a dataset or spec of another type, a horizon, run or seed that
    is not an integer in range (run >= 0, 0 <= seed <= 2**63 - 1), a shuffle that is not a bool,
    checkpoints that do not end at the horizon, and what ``simulate`` refuses (delay, checkpoints).
    """
    if not isinstance(dataset, Dataset):
        raise ValueError(f"dataset must be a data.Dataset (load_dataset(name) or dataset_from_matrix(P, name)), "
                         f"got a {type(dataset).__name__}")
    if not isinstance(spec, AlgorithmSpec):
        raise ValueError(f"spec must be an AlgorithmSpec (get_algorithm(name)), got a {type(spec).__name__}")
    horizon = check_horizon(horizon)
    if isinstance(run, bool) or not isinstance(run, (int, np.integer)) or run < 0:
        raise ValueError(f"run must be a non-negative integer, got {run!r}")
    check_seed(seed)
    check_flag("shuffle", shuffle)
    checkpoints = log_grid(horizon) if checkpoints is None else np.asarray(checkpoints)
    if checkpoints.ndim == 1 and checkpoints.size and checkpoints[-1] != horizon:
        raise ValueError(f"checkpoints must end at the horizon {horizon}, got last checkpoint {checkpoints[-1]}")
    K = dataset.K
    perm = seeds.run_permutation(seed, dataset.name, run, K, shuffle)
    P = np.ascontiguousarray(dataset.P[np.ix_(perm, perm)])
    zeta = dataset.normalized_copeland[perm].astype(np.float64)
    if dataset.has_condorcet_winner:
        gap = P[int(np.flatnonzero(perm == dataset.condorcet_winner)[0])] - 0.5
    else:
        gap = np.zeros(K)
    state = spec.make_state(K, horizon, spec.problem_params(spec.resolve_params(params), dataset, P))
    rng = seeds.algorithm_rng(seed, dataset.name, run, spec.name, horizon if spec.needs_horizon else None)
    regret = np.zeros(checkpoints.shape[0])
    g2w = np.zeros(checkpoints.shape[0])
    weak = np.zeros(checkpoints.shape[0])
    counts = np.zeros(K, np.int64)
    probe_counts = np.zeros(len(kind.counts), np.int64)
    simulate(spec.select, spec.update, state, rng, P, zeta, gap, checkpoints, delay, regret, g2w, counts,
             LoopHooks(skip=spec.skip(state) if spec.skip is not None else None,
                       pair_run=spec.pair_run(state) if spec.pair_run is not None else None,
                       probe=kind.probe, probe_rng=kind.probe_rng(seed, dataset.name, run), probe_counts=probe_counts),
             weak=weak)
    self_counts = np.zeros(K, np.int64)
    self_counts[perm] = counts
    if not dataset.has_condorcet_winner:
        g2w[:] = np.nan
    out = {"regret": regret, "g2w": g2w, "weak": weak, "final": regret[-1], "self_counts": self_counts,
           "permutation": perm, "checkpoints": checkpoints,
           **dict(zip(kind.counts, probe_counts.tolist(), strict=True))}
    if comparisons:
        pairs = np.zeros((K, K))
        pairs[np.ix_(perm, perm)] = state.comparisons
        np.fill_diagonal(pairs, 0.0)
        out["comparisons"] = pairs
    return out


def resimulated_differences(chunk: dict, dataset, spec, params: dict, kind: RunKind, runs) -> list[tuple[int, str]]:
    """(run, array name) of every per-run array of ``kind`` that differs when the runs ``runs`` (run indices within
    the stored ``chunk``'s range, as ``store.read_chunk`` gives it) are simulated again by the code as it is now
    (``run_one``): by ``spec`` with the algorithm's ``params`` on ``dataset``, at the horizon, root seed, delay and arm
    order of the chunk's config.  Empty if every run re-simulates bit for bit."""
    config = chunk["meta"]["config"]
    start = config["runs"][0]
    differences = []
    for run in runs:
        fresh = run_one(dataset, spec, params, config["horizon"], run, config["seed"], config["delay"],
                        config["shuffle"], kind=kind)
        differences += [(run, name) for name in kind.per_run_arrays() if name in chunk
                        and not np.array_equal(np.asarray(fresh[name]).astype(chunk[name].dtype),
                                              chunk[name][run - start], equal_nan=True)]
    return differences


def check_seed(seed) -> int:
    """The root seed as an int; ValueError unless it is an integer in [0, 2**63 - 1]."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= INT64_MAX:
        raise ValueError(f"seed must be a non-negative integer (int64), got {seed!r}")
    return int(seed)


def check_flag(name: str, value) -> bool:
    """``value`` if it is a bool; ValueError naming ``name`` otherwise (a string such as "no" is truthy)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


_MATRIX_SHA1 = weakref.WeakKeyDictionary()  # Dataset -> matrix_sha1(Dataset)


def matrix_sha1(dataset) -> str:
    """SHA-1 of the dataset's matrix as simulated (float64, row-major): recorded in every chunk's config.
    Computed once per Dataset object (its P is read-only)."""
    if dataset not in _MATRIX_SHA1:
        _MATRIX_SHA1[dataset] = hashlib.sha1(np.ascontiguousarray(dataset.P).tobytes()).hexdigest()
    return _MATRIX_SHA1[dataset]


def _config(line: Line, dataset, seed: int, start: int, stop: int) -> dict:
    """What a chunk file must have been made with to be reused (with what its line's kind adds: its marker)."""
    return {
        "format": FORMAT_VERSION, "dataset": dataset.name,
        "matrix_sha1": matrix_sha1(dataset),
        "algorithm": line.algorithm, "params": resolved_params(line), "horizon": int(line.horizon),
        "delay": int(line.delay), "shuffle": bool(line.shuffle), "seed": int(seed), "runs": [start, stop],
        "checkpoints_per_decade": CHECKPOINTS_PER_DECADE, **line.kind.config_entries(),
    }


class _ThreadsInChunk(threading.Condition):
    """The threads of this process inside ``_compute_chunk`` (``threads``, a count), notified as each leaves."""

    def __init__(self):
        """No thread inside yet."""
        super().__init__()
        self.threads = 0


_IN_CHUNK = _ThreadsInChunk()


def _compute_chunk(line: Line, dataset, seed: int, start: int, stop: int, path: Path, config: dict,
                   plugins: tuple):
    """Simulate runs start..stop-1 of ``line``; return ``(path, arrays, meta, slots run)``.

    Runs in a worker (a local process, a thread of the threading backend, or a dask worker on another machine),
    which starts without this process's plug-ins: it loads the references ``plugins`` first (once per process).
    The calling process stores the chunk, so workers need no access to the results folder.  While it runs, its
    thread is counted in ``_IN_CHUNK`` (``_stop_workers`` waits for the count to reach zero)."""
    with _IN_CHUNK:
        _IN_CHUNK.threads += 1
    try:
        return _simulate_chunk(line, dataset, seed, start, stop, path, config, plugins)
    finally:
        with _IN_CHUNK:
            _IN_CHUNK.threads -= 1
            _IN_CHUNK.notify_all()


def _simulate_chunk(line: Line, dataset, seed: int, start: int, stop: int, path: Path, config: dict,
                    plugins: tuple):
    """``_compute_chunk``'s work: the plug-ins loaded, the runs, the arrays their line's kind stores of them and the
    chunk's meta (with the plug-in references, which ``reproduce/verify.py`` names when it is not given them)."""
    load_plugins(plugins)
    spec = get_algorithm(line.algorithm)
    params = spec.resolve_params(dict(line.params))
    began, began_cpu = time.time(), time.process_time()
    with warnings.catch_warnings():  # a parameter's or matrix's warning: validate_line gave it in the calling process
        warnings.simplefilter("ignore", UserWarning)
        outputs = [run_one(dataset, spec, params, line.horizon, run, seed, line.delay, line.shuffle, kind=line.kind)
                   for run in range(start, stop)]
    arrays = line.kind.chunk_arrays(outputs)
    meta = {"config": config, "seconds": time.time() - began, "cpu_seconds": time.process_time() - began_cpu,
            "commit": git_commit(), "dirty": git_dirty(),
            "code": run_code(spec, params, dataset, line.horizon, line.kind),
            "versions": package_versions(), "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    if plugins:
        meta["plugins"] = list(plugins)
    return path, arrays, meta, (stop - start) * line.horizon


def check_delay(delay: int, horizon: int, names: tuple[str, str] = ("delay", "horizon")) -> None:
    """ValueError (naming the two values as ``names``) if a delay d > 1 is not below the horizon: feedback
    arrives every d slots, so none would reach the algorithm before the end (d = 1, no delay, is fine
    even at T = 1)."""
    if 1 < delay >= horizon:
        raise ValueError(f"{names[0]} must be smaller than {names[1]} (no feedback would arrive before the end), "
                         f"got {names[0]} {delay} with {names[1]} {horizon}")


def validate_line(line: Line):
    """Check a line before any work: returns (dataset, spec); ValueError names the first bad value.

    runs at most ``MAX_RUNS`` (as on the command line); a delay d > 1 below the horizon; parameter values
    the stored JSON config can hold (str, bool, int, float, None; not e.g. numpy.float32); shuffle a bool; a
    ``RunKind`` that can run the algorithm with these parameters (``RunKind.check``)."""
    kind = checked_kind(line.kind)
    dataset = load_dataset(line.dataset)
    spec = get_algorithm(line.algorithm)
    for name, value, low in (("runs", line.runs, 1), ("horizon", line.horizon, 1), ("delay", line.delay, 1)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
        if value > INT64_MAX:
            raise ValueError(f"{name} must be at most {INT64_MAX} (int64), got {value!r}")
    if line.runs > MAX_RUNS:
        raise ValueError(f"runs must be at most {MAX_RUNS}, got {line.runs!r}")
    if not spec.needs_horizon:
        # Explore-then-exploit algorithms are exempt: their curve is run at every grid horizon, some of
        # which may be below the delay.
        check_delay(line.delay, line.horizon)
    check_flag("shuffle", line.shuffle)
    params = spec.resolve_params(line.params)
    kind.check(line.algorithm, params)
    spec.make_state(dataset.K, line.horizon, spec.problem_params(params, dataset))
    for name, value in params.items():
        if value is not None and not isinstance(value, (str, bool, int, float)):
            raise ValueError(f"parameter {name!r} of {line.algorithm!r} must be a str, bool, int, float or None (it is "
                             f"stored as JSON), got {value!r} of type {type(value).__name__}")
    return dataset, spec


def chunk_size(line: Line, dataset) -> int:
    """Runs per stored chunk: small enough to resume and balance work, large enough to amortise I/O.  A run costs
    about its horizon times K (``limits.CHUNK_SLOTS`` such steps a chunk), except that above
    ``limits.SKIP_CHUNK_HORIZON`` a line that skips on a matrix with a Condorcet winner (``cost.skips_in_log_time``)
    simulates only the slots it does not skip, whose number grows like ln T once the winner is settled: its run is
    counted as ``limits.SKIP_RUN_SLOTS`` slots (no line stored before this rule had such a horizon, so no stored chunk
    changed its runs)."""
    slots = line.horizon
    if line.horizon > limits.SKIP_CHUNK_HORIZON and skips_in_log_time(line, dataset):
        slots = limits.SKIP_RUN_SLOTS
    return int(min(line.runs, max(1, round(limits.CHUNK_SLOTS / (slots * max(dataset.K, 5))))))


def chunk_shapes(config: dict, K: int, kind: RunKind) -> dict:
    """The shape of every array a chunk of ``kind`` made with ``config`` holds, for a K-armed dataset
    (``RunKind.shapes``): its runs are those of ``config["runs"]``, its checkpoints those of the grid of
    ``config["horizon"]`` at its density."""
    start, stop = config["runs"]
    grid = stored_grid(config["horizon"], config["checkpoints_per_decade"])
    return kind.shapes(ChunkSize(runs=stop - start, arms=K, checkpoints=grid.shape[0]))


# Parameters added to an algorithm after its lines were stored, each with the value those runs had (its default): a
# stored config without one means that value, so ``resolved_params`` leaves it out where a line has it.  Kept here,
# not on ``AlgorithmSpec``: a field there would change the code identity of every stored line (docs/harness.md).
UNRECORDED_DEFAULTS = {"cw_rmed": {"program": "estimated", "true_matrix": None}}


def resolved_params(line: Line) -> dict:
    """Every parameter of the line's algorithm, defaults included, and the stream version of a value
    whose draws changed (``AlgorithmSpec.stream_tags``): what the stored config records, so that a
    result made under another default or drawn the old way is detected as stale.  The exceptions are skip="off"
    (algorithms.base.SKIP_PARAM) and UNRECORDED_DEFAULTS: results stored before such an option existed were made
    with that value, so a config without it means it, and recording it would turn every one of them stale."""
    spec = get_algorithm(line.algorithm)
    params = spec.resolve_params(dict(line.params))
    if params.get(SKIP_PARAM) == SKIP_OFF:
        del params[SKIP_PARAM]
    for name, value in UNRECORDED_DEFAULTS.get(line.algorithm, {}).items():
        if name in params and (params[name] is value or isinstance(value, str) and params[name] == value):
            del params[name]
    return {**params, **spec.stream_tags(params)}


def line_key(line: Line) -> str:
    """The name of a line's folder: algorithm, a digest of its non-default parameters (if any), delay,
    fixed arm order and horizon -- everything that changes its runs except the dataset (the folder
    above), the root seed and the run range (both checked through the chunk's config).  The figure a
    line is drawn in and its legend tag are not part of it: one stored line serves every figure."""
    spec = get_algorithm(line.algorithm)
    custom = {name: value for name, value in resolved_params(line).items()
              if name not in spec.defaults or spec.defaults[name] != value}
    key = line.algorithm
    if custom:
        key += "_p" + hashlib.sha1(json.dumps(custom, sort_keys=True).encode()).hexdigest()[:10]
    if line.delay != 1:
        key += f"_d{line.delay}"
    if not line.shuffle:
        key += "_fixed"
    return f"{key}_T{line.horizon}"


@functools.cache
def _packaged_sha1(name: str) -> str:
    """``matrix_sha1`` of the packaged (or generated) dataset ``name``."""
    return matrix_sha1(load_dataset(name))


def is_packaged(dataset) -> bool:
    """Whether ``dataset`` is one of data/'s datasets (or a generated one) under its own name: a matrix file
    of one's own named like a paper dataset, but with other numbers, is not."""
    return dataset.name in dataset_names() and matrix_sha1(dataset) == _packaged_sha1(dataset.name)


def dataset_key(dataset, seed: int = ROOT_SEED) -> str:
    """The name of a dataset's results folder: what decides its runs besides the line itself.  The dataset's
    name (it keys the random streams, ``reproduce.harness.seeds``) alone for a packaged dataset under the default
    root seed -- the committed paper lines' folders; ``.m`` and 12 hex digits of the matrix digest added
    for any other matrix, ``.s`` and the seed for another root seed.  A paper name never ends in ``.m<hex>``
    or ``.s<digits>``, so no custom matrix or seed can land in a paper line's folder."""
    key = dataset.name
    if not is_packaged(dataset):
        key += f".m{matrix_sha1(dataset)[:12]}"
    if seed != ROOT_SEED:
        key += f".s{seed}"
    return key


def line_identity(line: Line, dataset, seed: int) -> Path:
    """What makes two lines one stored line, wherever they are drawn or tagged: the folder of its chunks below a
    results folder, ``<kind folder>/<dataset_key>/<line_key>`` (the kind's folder, empty for the regret curves).
    The run range is no part of it (a line of fewer runs shares the chunks of a longer one's first runs)."""
    return line.kind.folder / dataset_key(dataset, seed) / line_key(line)


def line_folder(out: Path, line: Line, seed: int = ROOT_SEED, dataset=None) -> Path:
    """Folder of a line's chunk files: ``out`` / ``line_identity`` (``dataset``: the line's loaded dataset, if at
    hand)."""
    return Path(out) / line_identity(line, dataset if dataset is not None else load_dataset(line.dataset), seed)


def stored_chunk(path: Path, config: dict, dataset, kind: RunKind):
    """``(chunk, None)`` if the chunk at ``path`` can be used for ``config`` on ``dataset`` as a chunk of ``kind``,
    ``(None, None)`` if there is none, ``(None, reason)`` if it is damaged or stale: every check of
    ``reproduce.harness.store.inspect_chunk`` (its digest included, the shapes of ``chunk_shapes``), then the kind's
    own (``RunKind.consistency``)."""
    chunk, reason = inspect_chunk(path, config, chunk_shapes(config, dataset.K, kind), kind.later_arrays())
    if chunk is None:
        return chunk, reason
    reason = kind.consistency(chunk, config, dataset)
    return (None, reason) if reason else (chunk, None)


@dataclass
class _Task:
    """A chunk to compute: runs ``start .. stop-1`` of ``line`` on ``dataset``, stored at ``path``; ``plugins``: the
    plug-in references a worker loads to know the line's algorithm (``algorithms.plugins.plugin_references``; none
    for a built-in one)."""

    line: Line
    dataset: Dataset
    start: int
    stop: int
    path: Path
    config: dict
    plugins: tuple


class WorkFailed(OSError):
    """A failure while working, not bad input (``reproduce.cli.arguments.main_guard``: one line, exit status 1): a
    worker process died, or a chunk this run stored was gone before it was read back."""


def result_bytes(line: Line, K: int) -> int:
    """Bytes of memory the results of ``line`` take while ``load_line`` assembles them (``RunKind.loaded_bytes``:
    its kind's arrays as stored, joined and as presented)."""
    return line.kind.loaded_bytes(ChunkSize(runs=line.runs, arms=K, checkpoints=log_grid(line.horizon).shape[0]))


def check_plan_size(checked_lines) -> None:
    """ValueError of one line if the plan of ``checked_lines``, ``(line, dataset)`` pairs, has more than
    ``MAX_CHUNKS`` chunk files or its results (``result_bytes``) would not fit in this machine's memory: checked
    by arithmetic alone, before the chunks are planned (which a million one-run chunks would take minutes to)."""
    chunks = [(-(-line.runs // chunk_size(line, dataset)), line) for line, dataset in checked_lines]
    if sum(count for count, _line in chunks) > MAX_CHUNKS:
        count, line = max(chunks, key=lambda item: item[0])
        raise ValueError(f"the plan has {sum(number for number, _ in chunks)} chunk files, more than {MAX_CHUNKS} "
                         f"({line.name} on {line.dataset}: {line.runs} runs of T = {line.horizon:.3g}, {count} "
                         f"chunks): use fewer --runs")
    needed, memory = sum(result_bytes(line, dataset.K) for line, dataset in checked_lines), physical_memory()
    if needed > memory:
        raise ValueError(f"the plan's results take about {needed / 1e9:.3g} GB of memory, more than this machine's "
                         f"{memory / 1e9:.3g} GB: use fewer --runs")


def run_lines(lines, experiment: str, out: Path, seed: int, n_jobs: int = -1, force: bool = False,
              progress: bool = True, backend: str = "loky", max_cpu_hours: float = MAX_CPU_HOURS,
              compute: bool = True) -> list[LineResult]:
    """Compute (or reuse) every line and return their results, in the order given.

    Every line, the seed, the backend and the results folder ``out`` are checked first, so bad input
    raises ValueError before any file is written (a folder where a chunk file should be, too); so is the plan:
    its size and memory (``check_plan_size``) and the estimated CPU hours of the chunks to compute, at most
    ``max_cpu_hours`` (``reproduce.harness.cost.check_plan_cost``).  With ``compute=False`` nothing is computed: a
    chunk not stored, or damaged or stale, raises ``NotStored`` naming it; otherwise the matrix file of a dataset
    that is not packaged is stored too, again if it was removed (``_save_matrices``).  n_jobs
    follows joblib (-1 = all cores), at most ``MAX_JOBS`` (loky starts that many processes whatever the
    number of chunks); backend is one of ``BACKENDS`` ("dask" needs a ``dask.distributed.Client``: see
    ``reproduce.harness.backends.backend_context``).  A stored chunk is reused only if it passes ``stored_chunk``; a
    damaged or stale one is recomputed and named on stderr with the reason.  A line whose
    chunks to reuse are not known to come from the code as it is now is re-checked before anything is computed
    (``_check_code``: reused, and recorded, if a sample of its runs re-simulates bit for bit, else
    ``code_record.CodeChanged``).  Workers only compute; this
    process writes each chunk (atomically) as it arrives, so remote dask workers need no access to ``out``.

    Several processes may share ``out``: a line's chunks are computed under its lock (``LOCK_NAME``), and a
    line another process is computing is waited for and its chunks reused (``_compute_locked``).  A signal
    (``reproduce.harness.interrupt``) stops every worker and raises ``Interrupted`` with the chunks stored; a worker
    process that dies (killed, out of memory), or a chunk stored here that is gone when the lines are read
    back, raises ``WorkFailed``.
    """
    check_seed(seed)
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0:
        raise ValueError(f"n_jobs must be a non-zero integer (-1: all cores), got {n_jobs!r}")
    if n_jobs > MAX_JOBS:
        raise ValueError(f"n_jobs must be at most {MAX_JOBS} worker processes, got {n_jobs!r}")
    if isinstance(max_cpu_hours, bool) or not isinstance(max_cpu_hours, (int, float)) or not max_cpu_hours > 0:
        raise ValueError(f"max_cpu_hours must be a number > 0 (inf: no bound), got {max_cpu_hours!r}")
    checked = [validate_line(line) for line in lines]
    check_plan_size([(line, dataset) for line, (dataset, _spec) in zip(lines, checked, strict=True)])
    if backend == "dask":
        _require_dask_client()
    plan = {}  # path -> task: the same line twice (e.g. two panels drawing one set of runs) is planned once
    for line, (dataset, _spec) in zip(lines, checked, strict=True):
        for start, stop, path, config in chunk_plan(line, dataset, out, seed):
            if path.exists() and not path.is_file():
                raise ValueError(f"results folder {out}: {path} is in the way of a chunk file (it is not a file)")
            plan.setdefault(path, _Task(line, dataset, start, stop, path, config, plugin_references([line.algorithm])))
    reused = {}  # path -> the record of a stored chunk to reuse (_missing)
    tasks = [task for task in plan.values() if force or _missing(task, report=compute, reused=reused)]
    if tasks and not compute:
        first = tasks[0]
        raise NotStored(first.path, stored_chunk(first.path, first.config, first.dataset, first.line.kind)[1]
                        or "missing", len(tasks))
    reused_records = {}  # line -> the records of its chunks to reuse: what its chunks to compute are estimated from
    for task in plan.values():
        if task.path in reused:
            reused_records.setdefault(task.line, []).append(reused[task.path])
    check_plan_cost([(task.line, task.dataset, task.stop - task.start) for task in tasks], max_cpu_hours,
                    measured={line: measured_run_seconds(metas) for line, metas in reused_records.items()})
    if compute:  # --stored-only simulates nothing: its lines are drawn as stored, unchecked ones named (load_line)
        _check_code([(task, reused[task.path]) for task in plan.values() if task.path in reused])
    _remove_left_locks({path.parent for path in plan} - {task.path.parent for task in tasks})
    if tasks:
        # joblib only where chunks are computed: run_one and the stored runs work without the figures extra.
        from joblib.externals.loky.process_executor import TerminatedWorkerError

        check_output_folder(out, "results folder")
        for folder in dict.fromkeys(task.path.parent for task in tasks):
            check_no_file_in_the_way(folder, "results folder")
        check_output_folder(out, "results folder", create=True)
    if compute:
        _save_matrices(plan.values())
    if tasks:
        done = _Counter(stored=len(plan) - len(tasks), total=len(plan))
        try:
            _compute_locked(tasks, experiment, int(seed), n_jobs, force, progress, backend, done)
        except (Interrupted, KeyboardInterrupt) as stop:
            signum = stop.signum if isinstance(stop, Interrupted) else 2
            raise Interrupted(signum, f"{done.stored} of {done.total} chunks stored") from None
        except TerminatedWorkerError:
            raise WorkFailed(f"a worker process died (killed, or out of memory); {done.stored} of {done.total} "
                             f"chunks stored, rerun to resume") from None
    try:
        return [load_line(line, dataset, spec, out, seed) for line, (dataset, spec) in zip(lines, checked, strict=True)]
    except ValueError as error:
        if not tasks:
            raise
        raise WorkFailed(f"{error}: stored by this run, then removed or changed (was the results folder removed "
                           f"while it ran?); rerun to recompute it") from None


@dataclass
class _Counter:
    """Chunks of a ``run_lines`` call stored so far (reused or computed) out of all it needs."""

    stored: int
    total: int


def _missing(task: _Task, report: bool = False, reused: dict | None = None) -> bool:
    """Whether ``task``'s chunk still has to be computed (none stored, or a damaged or stale one, named on
    stderr with its reason if ``report``); a chunk that need not be has its record put in ``reused`` (if given) under
    its path."""
    chunk, reason = stored_chunk(task.path, task.config, task.dataset, task.line.kind)
    if chunk is None and reason is not None and report:
        print(f"recomputing {task.path}: {reason}", file=sys.stderr, flush=True)
    if chunk is not None and reused is not None:
        reused[task.path] = chunk["meta"]
    return chunk is None


def _line_code(line: Line, dataset) -> tuple[AlgorithmSpec, dict, dict]:
    """(spec, resolved parameters, code identity: ``code_identity.run_code``) of ``line`` on ``dataset``."""
    spec = get_algorithm(line.algorithm)
    params = spec.resolve_params(dict(line.params))
    return spec, params, run_code(spec, params, dataset, line.horizon, line.kind)


def _check_code(reused) -> None:
    """Re-check the stored chunks of ``reused`` ((task, the record of its stored chunk) of the chunks to reuse) that
    are not known to come from the code as it is now (``code_record.known``), line by line: re-simulate the first run
    of the first and of the last of them (``resimulated_differences``); if every line's sample is bit for bit the
    stored one, record the current identity in each such line's ``code_record.CODE_FILE`` (under its lock; a folder
    that cannot be written, as under --stored-only on a read-only folder, is named on stderr and re-checked next
    time), chunks unchanged.  Otherwise raise ``code_record.CodeChanged`` naming the first such line, what changed
    and --force, before any file is written."""
    folders = {}
    for task, meta in sorted(reused, key=lambda item: item[0].start):
        folders.setdefault(task.path.parent, []).append((task, meta))
    accepted = []
    for folder, group in folders.items():
        line, dataset = group[0][0].line, group[0][0].dataset
        spec, params, current = _line_code(line, dataset)
        earlier = code_record.entries(folder)
        unknown = []
        for task, meta in group:
            content = code_record.content_digest(task.path, meta)
            if not code_record.known(task.path.name, meta, content, current, earlier):
                unknown.append((task, meta, content))
        if not unknown:
            continue
        changed = code_record.what_changed(unknown[0][0].path.name, *unknown[0][1:], current, earlier)
        sample = [unknown[0][0]] if len(unknown) == 1 else [unknown[0][0], unknown[-1][0]]
        for task in sample:
            differences = resimulated_differences(read_chunk(task.path), dataset, spec, params, line.kind,
                                                  [task.start])
            if differences:
                run, array = differences[0]
                raise code_record.CodeChanged(
                    f"the stored runs of {line.name} on {line.dataset} ({folder}) are not what the code draws now "
                    f"(run {run}: {array} differs; {changed}): recompute them with --force")
        runs = " and ".join(f"run {task.start}" for task in sample)
        accepted.append((folder, current, {task.path.name: content for task, _meta, content in unknown},
                         f"re-checked {folder} ({changed}): {runs} re-simulated bit for bit"))
    for folder, current, chunks, message in accepted:
        print(message, file=sys.stderr, flush=True)
        try:
            with FileLock(folder / LOCK_NAME):
                code_record.record(folder, current, chunks)
        except OSError as error:
            print(f"note: could not record the re-check in {folder / code_record.CODE_FILE} "
                  f"({error.strerror or error}): it is made again next time", file=sys.stderr, flush=True)


def _remove_left_locks(folders) -> None:
    """Remove the lock file (``LOCK_NAME``) a process that was killed, or could not remove it, left in each of
    ``folders``, lines whose chunks are all stored: only if no process holds it (taken without waiting, then
    released, which removes it); a lock file that cannot be opened is left as it is."""
    for folder in folders:
        lock = FileLock(folder / LOCK_NAME)
        try:
            if lock.path.exists() and lock.acquire(blocking=False):
                lock.release()
        except OSError:
            pass


def _compute_locked(tasks, experiment, seed, n_jobs, force, progress, backend, done: _Counter) -> None:
    """Compute ``tasks`` under their lines' locks.  First the lines no other process holds (without waiting:
    their chunks are checked again once locked, as another process may have stored them meanwhile); then,
    holding no lock, wait for the others in a fixed order and compute what their holders left undone (none,
    unless the holder was stopped).  A process holds locks only while it computes, and waits for a lock
    only when it holds none it waits with, so two runs never wait for each other; each chunk is computed
    once."""
    folders = {}
    for task in tasks:
        folders.setdefault(task.path.parent, []).append(task)
    locks = {}
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
        locks[folder] = FileLock(folder / LOCK_NAME)
    waiting = []
    try:
        for folder in folders:
            if not locks[folder].acquire(blocking=False):
                waiting.append(folder)
        owned = [task for folder in folders if locks[folder].held for task in folders[folder]
                 if force or _missing(task)]
        done.stored += sum(len(folders[folder]) for folder in folders if locks[folder].held) - len(owned)
        _compute(owned, experiment, seed, n_jobs, progress, backend, done)
    finally:
        for lock in locks.values():
            lock.release()
    if not waiting:
        return
    print(f"waiting for another run computing {len(waiting)} line(s) in this results folder", file=sys.stderr,
          flush=True)
    try:
        for folder in sorted(waiting):
            locks[folder].acquire()
        left = [task for folder in sorted(waiting) for task in folders[folder] if _missing(task)]
        done.stored += sum(len(folders[folder]) for folder in waiting) - len(left)
        _compute(left, experiment, seed, n_jobs, progress, backend, done)
    finally:
        for lock in locks.values():
            lock.release()


def _save_matrices(tasks) -> None:
    """Store the matrix of every dataset of ``tasks`` that is not packaged in its dataset folder
    (``reproduce.harness.store.save_matrix``: written only if missing or different), so that ``reproduce/verify.py``
    can re-simulate the chunks that reference it: before the first of them is computed, and again by a run that
    reuses them if it was removed."""
    for folder, dataset in {task.path.parent.parent: task.dataset for task in tasks
                            if not is_packaged(task.dataset)}.items():
        save_matrix(folder, dataset.P)


def _compute(tasks, experiment, seed, n_jobs, progress, backend, done: _Counter) -> None:
    """Compute ``tasks`` in parallel and store each chunk as it arrives (for a dataset that is not packaged, each
    chunk references the matrix file ``run_lines`` stored first, ``_save_matrices``); on an exception or a signal,
    every worker is stopped before it propagates."""
    if not tasks:
        return
    from joblib import Parallel, delayed, parallel_config
    from tqdm.auto import tqdm

    by_path = {task.path: task for task in tasks}
    bar = tqdm(total=sum((task.stop - task.start) * task.line.horizon for task in tasks), unit="slot",
               unit_scale=True, disable=not progress, desc=f"{experiment}: {len(tasks)} chunks")
    local = {}
    if backend == "loky":  # its workers end with this process and take no signal of the group
        remove_stale_files()
        start_resource_trackers(SIGNALS)
        local = {"initializer": init_loky_worker, "initargs": (os.getpid(),)}
    try:
        with parallel_config(backend=backend, n_jobs=n_jobs, **local):
            if backend == "loky":
                start_loky_workers()
            jobs = Parallel(return_as="generator_unordered")(
                delayed(_compute_chunk)(task.line, task.dataset, seed, task.start, task.stop, task.path, task.config,
                                        task.plugins)
                for task in tasks
            )
            try:
                for path, arrays, meta, slots in jobs:
                    task = by_path[path]
                    if not is_packaged(task.dataset):
                        meta["matrix_file"], meta["matrix_source"] = MATRIX_REFERENCE, task.dataset.source
                    save_chunk(path, arrays, meta)
                    done.stored += 1
                    bar.update(slots)
            except BaseException:
                _stop_workers(jobs, backend)
                raise
    finally:
        bar.close()


def _stop_workers(jobs, backend: str) -> None:
    """Stop every worker of a running ``Parallel`` generator: close it (joblib aborts the pending tasks, without
    its warning that they were cancelled: a stopped run says so in its one line) and, for loky, kill the reusable
    executor's processes, which would otherwise finish their task first; for threading, stop the simulations in
    progress at their next segment (``core.simulate.STOP``) and wait until every worker thread has left
    ``_compute_chunk``: an interpreter that exits while a thread runs compiled code aborts the process
    (std::terminate, exit status 134)."""
    if backend == "threading":
        STOP.set()
    try:
        with warnings.catch_warnings():  # joblib's "N tasks ... have been cancelled": the cancelling is ours
            warnings.simplefilter("ignore", UserWarning)
            jobs.close()
        if backend == "loky":
            from joblib.externals.loky import get_reusable_executor

            get_reusable_executor().shutdown(wait=True, kill_workers=True)
        with _IN_CHUNK:
            _IN_CHUNK.wait_for(lambda: not _IN_CHUNK.threads)
    finally:
        STOP.clear()


def _require_dask_client() -> None:
    """ValueError unless a dask.distributed Client is active (joblib's dask backend runs on it)."""
    try:
        from distributed import get_client
    except ImportError:
        raise ValueError("backend 'dask' needs the 'dask[distributed]' package") from None
    try:
        get_client()
    except ValueError:
        raise ValueError("backend 'dask' needs a running dask.distributed Client "
                         "(see reproduce.harness.backends.backend_context)") from None


def chunk_plan(line: Line, dataset, out: Path, seed: int) -> list[tuple[int, int, Path, dict]]:
    """The chunks of a line, in run order: (start, stop, path, config) -- the one place that decides how a
    line's runs are split into files, used to compute and to load them."""
    size = chunk_size(line, dataset)
    folder = line_folder(out, line, seed, dataset)
    plan = []
    for start in range(0, line.runs, size):
        stop = min(line.runs, start + size)
        plan.append((start, stop, chunk_path(folder, start, stop), _config(line, dataset, seed, start, stop)))
    return plan


def stored_records(line: Line, dataset, out: Path, seed: int) -> list[dict]:
    """The metadata records of the chunks of ``line`` stored under ``out`` for ``seed`` with the line's config (a
    partly stored line's stored part; records only, the arrays are neither read nor checked)."""
    records = []
    for _start, _stop, path, config in chunk_plan(line, dataset, out, seed):
        try:
            meta = read_chunk_meta(path)
        except ChunkError:
            continue
        if not config_difference(meta["config"], config):
            records.append(meta)
    return records


def line_seconds(line: Line, dataset, out: Path, seed: int) -> tuple[float, float]:
    """(worker seconds, CPU seconds) the stored chunks of a line took, from their metadata records alone (NaN CPU
    for chunks older than that record): what ``load_line(...).meta`` reports, without reading the runs.  ValueError
    if a chunk is missing or was made with another config; the arrays are not checked (``load_line`` does)."""
    metas = []
    for start, stop, path, config in chunk_plan(line, dataset, out, seed):
        try:
            meta = read_chunk_meta(path)
            reason = config_difference(meta["config"], config)
        except ChunkError as error:
            reason = error.reason
        if reason:
            raise _not_stored(line, start, stop, path, reason)
        metas.append(meta)
    return _chunk_seconds(metas)


def _not_stored(line: Line, start: int, stop: int, path: Path, reason: str) -> ValueError:
    """The error of a line whose chunk of runs ``start .. stop-1`` at ``path`` cannot be used (``reason``)."""
    return ValueError(f"missing or stale results for {line.name} on {line.dataset}, runs {start}-{stop - 1} "
                      f"({path}: {reason})")


def _chunk_seconds(metas: list[dict]) -> tuple[float, float]:
    """(worker seconds, CPU seconds) summed over chunks' metadata records (NaN CPU if one lacks the record)."""
    return (float(sum(meta.get("seconds", 0.0) for meta in metas)),
            float(sum(meta.get("cpu_seconds", math.nan) for meta in metas)))


def _unchecked_code(line: Line, dataset, chunks: list[dict], paths: list[Path]) -> str | None:
    """None if every stored chunk of ``line`` (``chunks``, read from ``paths``) is known to come from the code as it
    is now (``code_record.known``), else what changed for the first that is not (``code_record.what_changed``).
    Compares records only: nothing is re-simulated or written."""
    _spec, _params, current = _line_code(line, dataset)
    accepted = code_record.entries(paths[0].parent) if paths else []
    for chunk, path in zip(chunks, paths, strict=True):
        content = code_record.content_digest(path, chunk)
        if not code_record.known(path.name, chunk["meta"], content, current, accepted):
            return code_record.what_changed(path.name, chunk["meta"], content, current, accepted)
    return None


def load_line(line: Line, dataset, spec, out: Path, seed: int) -> LineResult:
    """Assemble the stored chunks of a line into one ``LineResult`` of its kind's arrays (``RunKind.line_arrays``;
    ValueError if a chunk is missing).  Its ``meta["unchecked_code"]`` is None if every chunk is known to come from the
    code as it is now, else what changed (``_unchecked_code``; ``run_lines`` re-checks such chunks before it returns,
    a line only loaded is drawn as stored)."""
    parts, paths = [], []
    for start, stop, path, config in chunk_plan(line, dataset, out, seed):
        chunk, reason = stored_chunk(path, config, dataset, line.kind)
        if chunk is None:
            raise _not_stored(line, start, stop, path, reason or "missing")
        parts.append(chunk)
        paths.append(path)
    worker, cpu = _chunk_seconds([part["meta"] for part in parts])
    meta = {"config": _config(line, dataset, seed, 0, line.runs),
            "commits": sorted({part["meta"].get("commit", "unknown") for part in parts}),
            "worker_seconds": worker, "cpu_seconds": cpu,
            "unchecked_code": _unchecked_code(line, dataset, parts, paths)}
    return LineResult(line=line, label=line.tag or spec.label, arrays=line.kind.line_arrays(parts), meta=meta)
