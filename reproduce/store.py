"""Result files: one compressed ``.npz`` per chunk of runs, written atomically (DESIGN section 5).

Each file holds the arrays of its runs plus a JSON ``meta`` record.  A file is reused only if it
loads cleanly and its ``meta["config"]`` equals the config asked for; a corrupt, partial or stale file
is recomputed.  Files are written to a temporary name in the same folder and renamed, so an
interrupted experiment never leaves a half-written result behind and resumes where it stopped.
"""

import json
import os
import tempfile
import zipfile
from pathlib import Path

import numpy as np


def chunk_path(folder: Path, start: int, stop: int) -> Path:
    """Path of the file holding runs ``start .. stop-1`` in ``folder``."""
    return Path(folder) / f"runs_{start:05d}-{stop:05d}.npz"


def save_chunk(path: Path, arrays: dict, meta: dict) -> None:
    """Write ``arrays`` and the JSON ``meta`` to ``path`` atomically (temp file + rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            np.savez_compressed(handle, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def load_chunk(path: Path, config: dict) -> dict | None:
    """The arrays and meta of ``path`` if it exists, loads, and was made with ``config``; else None."""
    path = Path(path)
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as handle:
            meta = json.loads(str(handle["meta"]))
            if meta.get("config") != json.loads(json.dumps(config, sort_keys=True)):
                return None
            arrays = {key: handle[key] for key in handle.files if key != "meta"}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    arrays["meta"] = meta
    return arrays
