"""The default run kind: the regret curves (docs/harness.md, "Store").

A line of this kind stores, per run, its Copeland regret and its gap-to-Condorcet-winner regret at the checkpoints
(float32; float64 once loaded), its exact final regret R(T), its self-comparisons per original arm and its arm
order, and its weak Copeland regret at the checkpoints (``core.simulate.simulate``); per chunk, the checkpoints.
Its chunks were stored before run kinds existed: no marker in their config, no folder of their own
(``RunKind.version`` None), and these array names, dtypes and order are theirs; the weak regret came later, so a
chunk stored before it lacks it (``StoredArray.missing_like``: NaN once loaded) and stays valid.
"""

import functools

import numpy as np

from dts_reproduction.reproduce.harness import seeds
from dts_reproduction.reproduce.harness.grid import stored_grid
from dts_reproduction.reproduce.harness.kinds import RunKind, StoredArray


def curves_consistency(chunk: dict, config: dict, dataset) -> str | None:
    """Why the arrays of a curves ``chunk`` (of the shapes its kind gives) contradict ``config`` on ``dataset``, or
    None: its checkpoints must be the grid its config implies (``grid.log_grid`` of its horizon and density), the arm
    order of every run the one its seed draws (a seed edited by hand in the metadata is caught there, except for a
    line with a fixed arm order), and every run's exact final regret must round to the last point of its float32
    regret curve (an edited ``final``)."""
    if not np.array_equal(chunk["checkpoints"], stored_grid(config["horizon"], config["checkpoints_per_decade"])):
        return (f"damaged (its checkpoints are not the grid of horizon {config['horizon']} at "
                f"{config['checkpoints_per_decade']} a decade: edited?)")
    start, stop = config["runs"]
    expected = np.stack([_run_permutation(config["seed"], dataset.name, run, dataset.K, config["shuffle"])
                         for run in range(start, stop)])
    wrong = np.flatnonzero((chunk["permutation"] != expected).any(axis=1))
    if wrong.size:
        return (f"stale (the arm order of run {start + int(wrong[0])} is not the one seed {config['seed']} draws: "
                f"made with another seed than its metadata says, or edited)")
    edited = np.flatnonzero(np.asarray(chunk["final"]).astype(np.float32) != chunk["regret"][:, -1])
    if edited.size:
        return (f"damaged (the final regret of run {start + int(edited[0])} is not the last point of its regret "
                f"curve: edited?)")
    return None


@functools.lru_cache(maxsize=2**16)
def _run_permutation(seed: int, dataset: str, run: int, K: int, shuffle: bool) -> np.ndarray:
    """``seeds.run_permutation``, read-only and drawn once per process: every line of a dataset has the same runs,
    so the arm orders ``curves_consistency`` checks repeat across its lines (about 30 us each to draw)."""
    permutation = seeds.run_permutation(seed, dataset, run, K, shuffle)
    permutation.flags.writeable = False
    return permutation


CURVES = RunKind(
    name="curves", version=None, consistency=curves_consistency,
    arrays=(StoredArray("regret", "float32", ("runs", "checkpoints"), presented="float64"),
            StoredArray("g2w", "float32", ("runs", "checkpoints"), presented="float64"),
            StoredArray("final", "float64", ("runs",)),
            StoredArray("self_counts", "int64", ("runs", "arms")),
            StoredArray("permutation", "int64", ("runs", "arms")),
            StoredArray("checkpoints", "int64", ("checkpoints",)),
            StoredArray("weak", "float32", ("runs", "checkpoints"), presented="float64", missing_like="regret")))
