"""Numba kernels shared by every dueling-bandit algorithm and the simulation loop.

Importing this package first points numba's on-disk cache (``cache=True``) at a folder named after
a digest of the project's own kernel sources (``core/`` and ``algorithms/``).  numba only checks the
timestamp of the file that defines a cached function, so without this a change in a kernel that an
algorithm calls could silently reuse stale machine code.  Set ``NUMBA_CACHE_DIR`` to override.
"""

import hashlib
import os
from pathlib import Path

import numba

ROOT = Path(__file__).resolve().parent.parent


def _source_digest() -> str:
    """Return a short digest of every ``.py`` file under ``core/`` and ``algorithms/``."""
    digest = hashlib.sha1()
    for folder in ("core", "algorithms"):
        for path in sorted((ROOT / folder).glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = str(ROOT / ".numba_cache" / _source_digest())
