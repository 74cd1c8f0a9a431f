"""The asymptotic regret lower bound of each dataset (``core.lower_bound``), cached on disk.

The Copeland bound of the 500-armed instance is a linear program of ~40 s, so every constant is kept in
``<results>/lower_bounds.json``, keyed by the dataset and its matrix digest: a changed matrix is
recomputed, a figure redrawn from stored runs is not slowed down.
"""

import json
from pathlib import Path

from core.lower_bound import regret_lower_bound
from data import load_dataset
from reproduce.atomic import write_text_atomic
from reproduce.runner import matrix_sha1

CACHE_NAME = "lower_bounds.json"


def lower_bound(dataset_name: str, results: Path) -> tuple[float, str]:
    """(constant C, model) with liminf E[R(T)] / ln T >= C on ``dataset_name``."""
    dataset = load_dataset(dataset_name)
    digest = matrix_sha1(dataset)
    path = Path(results) / CACHE_NAME
    cache = json.loads(path.read_text()) if path.exists() else {}
    entry = cache.get(dataset.name)
    if entry is None or entry.get("matrix_sha1") != digest:
        constant, model = regret_lower_bound(dataset.P)
        entry = {"matrix_sha1": digest, "constant": constant, "model": model}
        cache[dataset.name] = entry
        write_text_atomic(path, json.dumps(cache, indent=1, sort_keys=True) + "\n")
    return float(entry["constant"]), str(entry["model"])
