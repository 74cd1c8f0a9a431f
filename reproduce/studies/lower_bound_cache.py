"""The asymptotic regret lower bound of each dataset (``reproduce.studies.lower_bound``), cached on disk.

The exact Copeland bound of MSLR K = 32 non-Condorcet takes ~2 minutes and the 500-armed instance's
~50 s, so every constant is kept in ``<results>/lower_bounds.json``, keyed by the dataset (its results-folder
name, ``reproduce.harness.runner.dataset_key``, so a matrix file of one's own never replaces a paper dataset's entry),
its matrix digest and ``reproduce.studies.lower_bound.METHOD_VERSION``: a changed matrix or method is recomputed, a
figure redrawn from stored runs is not slowed down.  An entry is added under the cache's lock
(``reproduce.harness.locks``), re-reading the file first, so processes filling one cache at once keep every
entry.  ``--plot-only`` reads the cache and never writes it.  Another results folder (``--quick``, ``--fast``,
``--out``) takes a constant it lacks from the repository's ``results/lower_bounds.json`` when that one is current.
Its command line is ``reproduce/lower_bounds.py``.
"""

import json
import sys
from pathlib import Path

from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.atomic import write_text_atomic
from dts_reproduction.reproduce.harness.locks import FileLock
from dts_reproduction.reproduce.harness.paths import RESULTS
from dts_reproduction.reproduce.harness.runner import dataset_key, matrix_sha1
from dts_reproduction.reproduce.studies.lower_bound import METHOD_VERSION, regret_lower_bound

CACHE_NAME = "lower_bounds.json"
LOCK_NAME = ".lower_bounds.json.lock"  # next to the cache, held while an entry is added


def lower_bound(dataset_name: str, results: Path, store: bool = True) -> tuple[float, str]:
    """(constant C, model) with liminf E[R(T)] / ln T >= C on ``dataset_name``, from ``results``' cache,
    else from the repository's, else computed; with ``store``, added to ``results``' cache unless it was
    there (``store=False``: nothing is written).  A cache entry that is missing, stale or damaged is
    recomputed (a figure script asks after its simulation: a damaged cache file must not stop it there)."""
    dataset = load_dataset(dataset_name)
    digest, key = matrix_sha1(dataset), dataset_key(dataset)
    path = Path(results) / CACHE_NAME
    found = current_entry(read_cache(path), key, digest)
    if found is not None:
        return found
    shared = RESULTS / CACHE_NAME
    found = current_entry(read_cache(shared), key, digest) if shared.resolve() != path.resolve() else None
    constant, model = found if found is not None else regret_lower_bound(dataset.P)
    if store:
        path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(path.with_name(LOCK_NAME)):
            cache = read_cache(path)
            cache[key] = {"matrix_sha1": digest, "method": METHOD_VERSION, "constant": constant, "model": model}
            write_text_atomic(path, json.dumps(cache, indent=1, sort_keys=True) + "\n")
    return float(constant), str(model)


def current_entry(cache: dict, name: str, digest: str) -> tuple[float, str] | None:
    """(constant, model) of ``cache[name]`` if it is for this matrix digest and METHOD_VERSION, else None."""
    try:
        entry = cache[name]
        if entry["matrix_sha1"] == digest and entry.get("method") == METHOD_VERSION:
            return float(entry["constant"]), str(entry["model"])
    except (KeyError, TypeError, ValueError, AttributeError):
        pass
    return None


_REPORTED = set()  # (cache file, reason) already named on stderr by this process


def read_cache(path: Path) -> dict:
    """The cache file at ``path`` as a dict: empty if there is none, and if it is not a JSON object (named
    on stderr once per process and reason, however many panels read it; it is rewritten with what is computed
    next)."""
    if not path.exists():
        return {}
    try:
        cache = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as error:  # also UnicodeDecodeError
        cache, reason = None, f"not valid JSON ({error})"
    else:
        reason = "not a JSON object"
    if isinstance(cache, dict):
        return cache
    if (path.resolve(), reason) not in _REPORTED:
        _REPORTED.add((path.resolve(), reason))
        print(f"recomputing {path}: {reason}", file=sys.stderr, flush=True)
    return {}

