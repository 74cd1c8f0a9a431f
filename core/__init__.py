"""Numba kernels shared by every dueling-bandit algorithm and the simulation loop.

numba's on-disk cache (``cache=True``) only checks the timestamp of the file that defines a cached
function, so a change in a kernel that it calls could silently reuse stale machine code.  Cached kernels
therefore go to a folder named after a digest of the sources they can depend on:
``use_source_cache(*folders)`` points numba there and must run before the kernels are imported.
Importing this package does it for ``core/`` alone (its kernels call only each other); a package built
on top of them (``algorithms/``) calls it again with its own folder added before importing its kernels.
Set ``NUMBA_CACHE_DIR`` to override.
"""

import hashlib
import os
from pathlib import Path

import numba

ROOT = Path(__file__).resolve().parent.parent


def source_digest(*folders: Path) -> str:
    """A short digest of every ``.py`` file directly under ``folders`` (names and contents)."""
    digest = hashlib.sha1()
    for folder in folders:
        for path in sorted(Path(folder).glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def use_source_cache(*folders: Path) -> None:
    """Cache the kernels compiled from now on under ``.numba_cache/<digest of folders>`` (unless the
    user set ``NUMBA_CACHE_DIR``)."""
    if not os.environ.get("NUMBA_CACHE_DIR"):
        numba.config.CACHE_DIR = str(ROOT / ".numba_cache" / source_digest(*folders))


use_source_cache(Path(__file__).resolve().parent)
