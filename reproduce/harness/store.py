"""Result files: one compressed ``.npz`` per chunk of runs, written atomically (docs/harness.md, "Store").

Each file holds the arrays of its runs plus a JSON ``meta`` record whose ``config`` says how it was
made.  A chunk is used only after a full check (``inspect_chunk``): the file opens, every array
decompresses (the zip CRC of each member is checked), the metadata record is there, the content
matches the digest recorded when the chunk was written (``chunk_digest``), its config equals the one
asked for, and every expected array is present with the expected shape (one row per run of the chunk,
one column per checkpoint, ...).  Anything else is a reason -- "unreadable",
"missing arrays", "shape", "stale" -- that the caller reports and acts on (the runner recomputes the
chunk; ``reproduce/verify.py`` lists it).  Files are written through ``reproduce.harness.atomic.write_atomic``,
so an interrupted experiment never leaves a half-written chunk behind and resumes where it stopped.
"""

import functools
import hashlib
import json
import zipfile
import zlib
from pathlib import Path

import numpy as np

from dts_reproduction.reproduce.harness.atomic import write_atomic

READ_ERRORS = (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error)
MATRIX_NAME = "matrix.npz"  # in a dataset's folder: the matrix its chunks were simulated on (array "matrix")
MATRIX_REFERENCE = f"../{MATRIX_NAME}"  # a chunk's ``meta["matrix_file"]``: that file, from the chunk's folder
DIGEST = "digest"  # the key of a chunk's content digest in its ``meta`` (``chunk_digest``)
LEGACY_DIGESTS = "digests.json"  # in a line's folder: the digests of its chunks written before chunks held their own


class ChunkError(Exception):
    """A chunk file that cannot be used: ``path`` and a one-line ``reason``."""

    def __init__(self, path, reason: str):
        """Record the chunk's path and the reason it cannot be used."""
        super().__init__(f"{path}: {reason}")
        self.path = Path(path)
        self.reason = reason


class NotStored(ValueError):
    """A chunk ``run_lines(..., compute=False)`` would have to compute: ``path``, why (``reason``: missing, or
    damaged or stale) and how many chunks of the plan are in that case (``count``)."""

    def __init__(self, path: Path, reason: str, count: int):
        """Record the first chunk not stored, its reason and the number of such chunks."""
        super().__init__(f"{path} is {'missing' if reason == 'missing' else 'not usable: ' + reason}"
                         f"{f' (and {count - 1} more chunk(s) not stored)' if count > 1 else ''}, and computing is off")
        self.path, self.reason, self.count = Path(path), reason, count


def chunk_path(folder: Path, start: int, stop: int) -> Path:
    """Path of the file holding runs ``start .. stop-1`` in ``folder``."""
    return Path(folder) / f"runs_{start:05d}-{stop:05d}.npz"


def chunk_digest(arrays: dict, meta: dict) -> str:
    """SHA-256 (hex) of a chunk's content: its ``meta`` record but the digest itself (as sorted JSON), then every
    array but ``meta`` in name order, each as its name, dtype, shape and bytes.  Any change to a number, an array's
    type or shape, or the record changes it."""
    digest = hashlib.sha256(json.dumps({key: value for key, value in meta.items() if key != DIGEST},
                                       sort_keys=True).encode())
    for name in sorted(key for key in arrays if key != "meta"):
        array = np.ascontiguousarray(arrays[name])
        digest.update(json.dumps([name, array.dtype.str, list(array.shape)]).encode())
        digest.update(array.reshape(-1).view(np.uint8))  # its bytes, as tobytes() has them, without a copy
    return digest.hexdigest()


def save_chunk(path: Path, arrays: dict, meta: dict) -> None:
    """Write ``arrays`` and the JSON ``meta``, with the content's digest added under ``DIGEST``
    (``chunk_digest``), to ``path`` atomically (temp file + rename)."""
    meta = {**meta, DIGEST: chunk_digest(arrays, meta)}
    record = np.array(json.dumps(meta, sort_keys=True))

    def write(tmp):
        """Write the compressed arrays and the metadata record to the temporary file ``tmp``."""
        with open(tmp, "wb") as handle:
            np.savez_compressed(handle, meta=record, **arrays)

    write_atomic(path, write, keep_suffix=False)


def read_chunk(path: Path) -> dict:
    """Every array of the chunk at ``path`` plus its decoded ``meta``; ChunkError if the file is missing,
    truncated, corrupt (bad zip, bad CRC, bad compressed data), has no valid metadata record, or its content
    differs from its recorded digest (``recorded_digest``; a chunk without one is read unchecked)."""
    arrays = _read_members(Path(path), every=True)
    arrays["meta"] = _decoded_meta(path, arrays.pop("meta"))
    recorded = recorded_digest(path, arrays["meta"])
    if recorded is not None and recorded != chunk_digest(arrays, arrays["meta"]):
        raise ChunkError(path, "damaged (its content differs from the digest recorded when it was written: edited?)")
    return arrays


def recorded_digest(path: Path, meta: dict) -> str | None:
    """The digest recorded for the chunk at ``path`` whose decoded record is ``meta``: its own (``DIGEST``), else
    the entry of its file name in its folder's ``LEGACY_DIGESTS`` (chunks written before chunks held one), else None.
    ChunkError if that file cannot be read or is not a JSON object of strings."""
    if DIGEST in meta:
        return meta[DIGEST]
    legacy = Path(path).parent / LEGACY_DIGESTS
    try:
        stamp = legacy.stat()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise ChunkError(path, f"its folder's {LEGACY_DIGESTS} is unreadable ({error.strerror or error})") from None
    digests = _legacy_digests(legacy, stamp.st_mtime_ns, stamp.st_size)
    if isinstance(digests, str):
        raise ChunkError(path, f"its folder's {LEGACY_DIGESTS} {digests}")
    return digests.get(Path(path).name)


@functools.lru_cache(maxsize=256)
def _legacy_digests(legacy: Path, _mtime_ns: int, _size: int) -> dict | str:
    """The digests the file ``legacy`` (``LEGACY_DIGESTS``) holds, read once per version of the file (its time and
    size stamp the cache), or why they cannot be used."""
    try:
        digests = json.loads(legacy.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        return f"is unreadable ({type(error).__name__}: {error})"
    if not isinstance(digests, dict) or not all(isinstance(value, str) for value in digests.values()):
        return "is not a JSON object of digests"
    return digests


def read_chunk_meta(path: Path) -> dict:
    """The decoded ``meta`` record of the chunk at ``path`` without reading its arrays (``read_chunk``'s checks on
    the record; the arrays are neither read nor checked); ChunkError as ``read_chunk``."""
    return _decoded_meta(path, _read_members(Path(path), every=False)["meta"])


def _read_members(path: Path, every: bool) -> dict:
    """The ``meta`` record of the chunk file ``path`` and, if ``every``, all its other arrays; ChunkError if the
    file is missing, unreadable or has no metadata record."""
    if not path.is_file():
        raise ChunkError(path, "missing" if not path.exists() else "not a file")
    try:
        with np.load(path, allow_pickle=False) as handle:
            if "meta" not in handle.files:
                raise ChunkError(path, "no metadata record")
            return {key: handle[key] for key in (handle.files if every else ["meta"])}
    except ChunkError:
        raise
    except READ_ERRORS as error:
        raise ChunkError(path, f"unreadable ({type(error).__name__}: {error})") from None


def _decoded_meta(path: Path, record) -> dict:
    """The JSON ``meta`` record of a chunk as a dict; ChunkError if it is not JSON or has no config."""
    try:
        meta = json.loads(str(record))
    except ValueError as error:
        raise ChunkError(path, f"metadata record is not JSON ({error})") from None
    if not isinstance(meta, dict) or not isinstance(meta.get("config"), dict):
        raise ChunkError(path, "metadata record has no config")
    return meta


def _normal(config: dict) -> dict:
    """``config`` as it reads back from JSON (tuples become lists, keys strings)."""
    return json.loads(json.dumps(config, sort_keys=True))


def config_difference(stored: dict, wanted: dict) -> str:
    """One line naming the config entries that differ (empty if none)."""
    stored, wanted = _normal(stored), _normal(wanted)
    keys = sorted(set(stored) | set(wanted))
    diffs = [f"{key} {stored.get(key, '(absent)')!r} != {wanted.get(key, '(absent)')!r}"
             for key in keys if stored.get(key, "(absent)") != wanted.get(key, "(absent)")]
    return "; ".join(diffs)


def check_chunk(path: Path, chunk: dict, config: dict | None = None, shapes: dict | None = None,
                later: tuple = ()) -> None:
    """ChunkError unless ``chunk`` (from ``read_chunk``) was made with ``config`` (if given) and holds
    every array of ``shapes`` ({name: expected shape}, if given) with exactly that shape -- but those named in
    ``later`` (arrays added to its kind after chunks were stored without them), which it may lack."""
    if config is not None:
        diff = config_difference(chunk["meta"]["config"], config)
        if diff:
            raise ChunkError(path, f"stale (made with another config: stored != asked: {diff})")
    if shapes:
        missing = [name for name in shapes if name not in chunk and name not in later]
        if missing:
            raise ChunkError(path, f"missing arrays: {', '.join(missing)}")
        for name, shape in shapes.items():
            if name in chunk and tuple(chunk[name].shape) != tuple(shape):
                raise ChunkError(path, f"array {name!r} has shape {tuple(chunk[name].shape)}, "
                                       f"the metadata says {tuple(shape)}")


def inspect_chunk(path: Path, config: dict | None = None, shapes: dict | None = None, later: tuple = ()):
    """``(chunk, None)`` if the chunk at ``path`` is usable, ``(None, None)`` if there is no file,
    ``(None, reason)`` if it is damaged or stale (see ``read_chunk`` and ``check_chunk``)."""
    if not Path(path).exists():
        return None, None
    try:
        chunk = read_chunk(path)
        check_chunk(path, chunk, config, shapes, later)
    except ChunkError as error:
        return None, error.reason
    return chunk, None


def save_matrix(folder: Path, matrix: np.ndarray) -> Path:
    """Store ``matrix`` once in the dataset folder ``folder`` (``MATRIX_NAME``, float64, compressed, atomically),
    unless the file there already holds exactly it: the chunks of a matrix that is not packaged reference it
    (``MATRIX_REFERENCE``) instead of each holding a copy.  Returns the file's path."""
    path = Path(folder) / MATRIX_NAME
    try:
        stored = _read_matrix(path)
        if stored.dtype == np.float64 and np.array_equal(stored, matrix):
            return path
    except READ_ERRORS:
        pass

    def write(tmp):
        """Write the matrix, compressed, to the temporary file ``tmp``."""
        with open(tmp, "wb") as handle:
            np.savez_compressed(handle, matrix=np.asarray(matrix, dtype=np.float64))

    return write_atomic(path, write, keep_suffix=False)


def chunk_matrix(path: Path, chunk: dict) -> np.ndarray | None:
    """The matrix the chunk ``chunk`` (read from ``path``) stores or references: its own array ``matrix`` (chunks
    stored before the matrix had a file of its own), else the file its ``meta["matrix_file"]`` names (relative to
    the chunk's folder), else None (a packaged dataset's chunk).  ChunkError if that file is missing or unreadable,
    or the reference is not ``MATRIX_REFERENCE``."""
    if "matrix" in chunk:
        return chunk["matrix"]
    reference = chunk["meta"].get("matrix_file")
    if reference is None:
        return None
    if reference != MATRIX_REFERENCE:
        raise ChunkError(path, f"metadata names an unknown matrix file {reference!r}")
    matrix_file = Path(path).parent / reference
    try:
        return _read_matrix(matrix_file)
    except READ_ERRORS as error:
        state = "missing" if not matrix_file.exists() else f"unreadable ({type(error).__name__}: {error})"
        raise ChunkError(path, f"its matrix file {matrix_file.resolve()} is {state}") from None


def _read_matrix(path: Path) -> np.ndarray:
    """The array ``matrix`` of the matrix file ``path`` (``save_matrix``); one of ``READ_ERRORS`` if it cannot."""
    with np.load(path, allow_pickle=False) as handle:
        return handle["matrix"]
