"""Check that stored results are intact and reproduced, bit for bit, by the code as it is now.

Every chunk file records how it was made (dataset, algorithm, parameters, horizon, delay, shuffle,
root seed, run range; the marker of its run kind, ``reproduce.harness.kinds``, found among ``RUN_KINDS``).  ``verify``
reads every selected chunk under the given folders through the store with every check ``reproduce/run.py`` makes
before it reuses a chunk (``reproduce.harness.store``: file readable, metadata present, content equal to its
recorded digest, every array present with the shape its metadata implies; its kind's ``consistency``: for the regret
curves, the checkpoints, the arm order and final regret of every run), then re-simulates the first
``--runs-per-chunk`` runs of each intact chunk and compares every per-run array of its kind exactly (the regret
curves, final regrets, self-comparison counts and shuffles; a C18 chunk's counts).  It never stops at the first
problem: every damaged chunk and every mismatch is one line on stderr, and so is every chunk without a recorded
digest (not a failure: its content cannot be told from a hand edit).  Its command line is ``reproduce/verify.py``.
"""

import sys
from itertools import groupby
from pathlib import Path

from dts_reproduction.algorithms import get_algorithm, resolve_algorithm
from dts_reproduction.algorithms.plugins import FORMS, load_plugins
from dts_reproduction.data import Dataset, load_dataset, validate_preference_matrix
from dts_reproduction.reproduce.harness import code_record
from dts_reproduction.reproduce.harness.code_identity import run_code
from dts_reproduction.reproduce.harness.curves import CURVES
from dts_reproduction.reproduce.harness.kinds import kind_of
from dts_reproduction.reproduce.harness.limits import check_folder_readable
from dts_reproduction.reproduce.harness.locks import FileLock
from dts_reproduction.reproduce.harness.runner import (
    FORMAT_VERSION,
    LOCK_NAME,
    chunk_shapes,
    matrix_sha1,
    resimulated_differences,
)
from dts_reproduction.reproduce.harness.store import (
    ChunkError,
    check_chunk,
    chunk_matrix,
    read_chunk,
    read_chunk_meta,
    recorded_digest,
)
from dts_reproduction.reproduce.studies.elimination_study import C18_ELIMINATION
from dts_reproduction.reproduce.studies.successors_study.successors_panels import C2B_BATCHES

RUN_KINDS = (CURVES, C18_ELIMINATION, C2B_BATCHES)  # the kinds whose chunks verify knows (by their config's marker)


def chunk_files(folders) -> list[Path]:
    """Every stored chunk under ``folders``, sorted, each once (a folder given twice, or inside another given, adds
    nothing); ValueError if a folder does not exist or holds no chunk file (an empty or mistyped folder would
    otherwise pass with nothing checked) or cannot be looked up (a name too long)."""
    files = {}
    for folder in map(Path, folders):
        try:
            is_folder = folder.is_dir()
        except OSError as error:  # e.g. a name too long
            raise ValueError(f"results folder {str(folder)[:80]!r}...: {(error.strerror or str(error)).lower()}") \
                from None
        if not is_folder:
            raise ValueError(f"no results folder {str(folder)!r}")
        check_folder_readable(folder, "results folder")
        found = sorted(folder.rglob("runs_*.npz"))
        if not found:
            raise ValueError(f"no chunk files (runs_*.npz) under {folder}")
        files.update((path.resolve(), path) for path in found if path.resolve() not in files)
    return sorted(files.values())


def chunk_dataset(path: Path, chunk: dict):
    """The dataset the chunk ``chunk`` (read from ``path``) was made on: the matrix it stores or references (a
    matrix file of one's own, ``reproduce.harness.store.chunk_matrix``), else the packaged dataset its config names.
    A stored matrix is the one simulated, renormalised already: it is checked (ValueError if it is no preference
    matrix) but used as stored, since renormalising it again may change its last bits."""
    matrix = chunk_matrix(path, chunk)
    if matrix is not None:
        validate_preference_matrix(matrix)
        return Dataset(name=chunk["meta"]["config"]["dataset"], P=matrix,
                       labels=[str(arm + 1) for arm in range(matrix.shape[0])],
                       source=chunk["meta"].get("matrix_source", "the chunk's own matrix"))
    return load_dataset(chunk["meta"]["config"]["dataset"])


def intact_chunk(path: Path):
    """``(chunk, dataset)`` for the chunk at ``path`` after every check of the store against its own
    metadata (its digest, a format this code reads, a kind of ``RUN_KINDS``, its arrays' shapes, the matrix it was
    made with) and its kind's on every run (``RunKind.consistency``); ChunkError naming the first problem
    otherwise."""
    chunk = read_chunk(path)
    config = chunk["meta"]["config"]
    if config.get("format") != FORMAT_VERSION:
        raise ChunkError(path, f"unknown format {config.get('format')!r} (this code reads format {FORMAT_VERSION})")
    try:
        dataset = chunk_dataset(path, chunk)
        get_algorithm(config["algorithm"])
        kind = kind_of(config, RUN_KINDS)
        check_chunk(path, chunk, shapes=chunk_shapes(config, dataset.K, kind), later=kind.later_arrays())
        if matrix_sha1(dataset) != config.get("matrix_sha1"):
            raise ChunkError(path, f"dataset {config['dataset']!r} differs from the one the chunk was made with")
        reason = kind.consistency(chunk, config, dataset)
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, ChunkError):
            raise
        raise ChunkError(path, f"metadata cannot be used ({type(error).__name__}: {error})") from None
    if reason:
        raise ChunkError(path, reason)
    return chunk, dataset


def stream_split(spec, stored_params: dict) -> tuple[dict, dict]:
    """A stored config's parameters as (the algorithm's parameters, the stream versions recorded next to
    them by ``reproduce.harness.runner.resolved_params``, e.g. ``{"sampling_stream": 3}``)."""
    tags = {f"{name}_stream" for name in spec.streams}
    return ({name: value for name, value in stored_params.items() if name not in tags},
            {name: value for name, value in stored_params.items() if name in tags})


def verify_chunk(path: Path, runs_per_chunk: int, checked=None) -> list[str]:
    """Check the chunk at ``path`` and re-simulate its first runs; return one message per problem
    (damaged chunk, parameters or stream versions the code no longer runs, or a differing array of a
    run).  ``checked``: ``intact_chunk(path)`` if known."""
    try:
        chunk, dataset = checked if checked is not None else intact_chunk(path)
    except ChunkError as error:
        return [str(error)]
    config = chunk["meta"]["config"]
    kind = kind_of(config, RUN_KINDS)
    spec = get_algorithm(config["algorithm"])
    params, stored = stream_split(spec, config["params"])
    try:
        current = spec.stream_tags(spec.resolve_params(params))
    except ValueError as error:
        return [f"{path}: its parameters cannot be run by the code as it is now ({error})"]
    if stored != current:
        return [f"{path}: drawn with stream versions {stored}, the code now draws {current}: stale, recompute it"]
    start, stop = config["runs"]
    runs = range(start, min(stop, start + runs_per_chunk))
    return [f"{path}: run {run}: {name} differs"
            for run, name in resimulated_differences(chunk, dataset, spec, params, kind, runs)]


def selected(path: Path, algorithms, max_horizon: int | None) -> bool:
    """Whether the chunk at ``path`` is of one of ``algorithms`` (None: any) with a horizon of at most
    ``max_horizon`` (None: any), judged from its metadata record alone; a chunk whose record cannot be read is
    selected (it is reported damaged)."""
    try:
        config = read_chunk_meta(path)["config"]
        return ((not algorithms or config["algorithm"] in algorithms)
                and (max_horizon is None or config["horizon"] <= max_horizon))
    except (ChunkError, KeyError, TypeError):
        return True


def check_algorithms_known(paths) -> None:
    """ValueError, naming the chunk and the plug-in to pass, for the first chunk of ``paths`` whose algorithm is
    neither built in nor a plug-in loaded (or offered by an entry point): its runs cannot be re-simulated without
    that plug-in's code.  The plug-in is the one its metadata records (``meta["plugins"]``, written by the runner),
    if any.  A chunk whose record cannot be read is left to ``intact_chunk`` (reported damaged)."""
    for path in paths:
        try:
            meta = read_chunk_meta(path)
            name = meta["config"]["algorithm"]
        except (ChunkError, KeyError, TypeError):
            continue
        try:
            get_algorithm(name)
        except ValueError:
            recorded = " ".join(meta.get("plugins") or ()) or FORMS
            raise ValueError(f"{path} holds runs of algorithm {name!r}, which is no built-in algorithm nor a loaded "
                             f"plug-in: pass the plug-in that defines it, --plugins {recorded}") from None


def line_code(chunk: dict, dataset):
    """The code identity (``code_identity.run_code``) of the line whose chunk ``chunk`` (made on ``dataset``) is:
    what its runs execute now; None if the code can no longer run its parameters (``verify_chunk`` reports it)."""
    config = chunk["meta"]["config"]
    spec = get_algorithm(config["algorithm"])
    params, _tags = stream_split(spec, config["params"])
    try:
        resolved = spec.resolve_params(params)
    except ValueError:
        return None
    return run_code(spec, resolved, dataset, config["horizon"], kind_of(config, RUN_KINDS))


def record_code(folder: Path, current: dict, chunks: dict[str, str], runs: int) -> bool:
    """Record in the line folder's ``code_record.CODE_FILE``, under the line's lock, that the code of identity
    ``current`` re-simulated the first ``runs`` runs of each of ``chunks`` ({file name: content digest}) bit for bit
    (``code_record.record``); False, writing nothing, if it holds that already."""
    with FileLock(folder / LOCK_NAME):
        accepted = code_record.entries(folder)
        if all(code_record.verified(name, content, current, accepted, runs) for name, content in chunks.items()):
            return False
        code_record.record(folder, current, chunks, runs)
    return True


def verify(folders, *, runs_per_chunk: int = 1, algorithms=None, max_horizon: int | None = None,
           plugins=(), record: bool = False, resume: bool = False) -> int:
    """Check the chunks under ``folders`` (searched recursively) that ``selected`` keeps (``algorithms``,
    ``max_horizon``: --algorithms, names or plug-in references, and --max-horizon), re-simulating the first
    ``runs_per_chunk`` runs of each with the plug-ins ``plugins`` (references, --plugins) loaded; print one line per
    chunk on stdout and one per problem (and per chunk without a digest) on stderr; return the exit status (1 if any
    chunk is damaged or differs).  With ``record`` (--record-code), record the code as it is now in the line folder
    of every chunk that re-simulated bit for bit (``record_code``) as soon as it has, so that a verify stopped
    half-way keeps what it checked, and say in how many folders.  With ``resume`` (--resume), an intact chunk that
    an earlier verify with ``record`` re-simulated bit for bit with the code as it is now (the same identity, its
    content unchanged, as many runs: ``code_record.verified``) is not re-simulated again: a whole verify can be
    spread over several sessions.  ValueError, before any chunk is checked, for ``runs_per_chunk`` below 1, a
    plug-in that cannot be loaded, an unknown algorithm name (or a folder given as one), no folder, filters that
    select no chunk, or a chunk of an algorithm no plug-in given defines (``check_algorithms_known``)."""
    if runs_per_chunk < 1:
        raise ValueError(f"--runs-per-chunk must be >= 1, got {runs_per_chunk}")
    load_plugins(plugins)
    names = []
    for entry in algorithms or ():
        try:
            names.append(resolve_algorithm(entry).name)
        except ValueError:
            if Path(entry).is_dir():
                raise ValueError(f"--algorithms: {entry!r} is a folder, not an algorithm (give the results folders "
                                 f"before --algorithms)") from None
            raise
    if not folders:
        raise ValueError("no results folder given")
    paths = [path for path in chunk_files(folders) if selected(path, names, max_horizon)]
    if not paths:
        filters = [f"--algorithms {' '.join(algorithms)}"] if algorithms else []
        filters += [f"--max-horizon {max_horizon}"] if max_horizon is not None else []
        raise ValueError(f"no chunk under {', '.join(map(str, folders))} is selected by {', '.join(filters)}")
    check_algorithms_known(paths)
    tally, recorded = {"checked": 0, "damaged": 0, "earlier": 0}, set()
    problems, undigested = [], []
    for folder, group in groupby(sorted(paths, key=lambda path: (str(path.parent), path.name)),
                                 key=lambda path: path.parent):
        current, accepted = None, []
        for path in group:
            try:
                found = intact_chunk(path)
            except ChunkError as error:
                tally["damaged"] += 1
                problems.append(str(error))
                print(f"BAD  {path}", flush=True)
                continue
            tally["checked"] += 1
            if recorded_digest(path, found[0]["meta"]) is None:
                undigested.append(f"{path}: no digest (written before chunks recorded one: a hand edit consistent "
                                  f"with the checks above would go unseen; recompute it with --force to record one)")
            content = code_record.content_digest(path, found[0])
            if (record or resume) and current is None:
                current, accepted = line_code(*found), code_record.entries(folder)
            if resume and current is not None and code_record.verified(path.name, content, current, accepted,
                                                                        runs_per_chunk):
                tally["earlier"] += 1
                print(f"ok   {path} (re-simulated by an earlier verify with this code)", flush=True)
                continue
            diffs = verify_chunk(path, runs_per_chunk, found)
            print(f"{'ok  ' if not diffs else 'DIFF'} {path}", flush=True)
            problems += diffs
            if record and not diffs and current is not None \
                    and record_code(folder, current, {path.name: content}, runs_per_chunk):
                recorded.add(folder)
    for problem in problems + undigested:
        print(problem, file=sys.stderr)
    if record:
        print(f"recorded the code as it is now in {len(recorded)} line folder(s) ({code_record.CODE_FILE})")
    earlier = f" ({tally['earlier']} of them re-simulated by an earlier verify with this code)" if resume else ""
    print(f"{tally['checked']} chunks checked{earlier}, {tally['damaged']} damaged, "
          f"{len(problems) - tally['damaged']} mismatches, {len(undigested)} without a digest")
    return 1 if problems else 0
