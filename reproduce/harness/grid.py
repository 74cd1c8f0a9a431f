"""The checkpoint grid: the slots at which a run records its regrets (docs/harness.md, "Checkpoints").

Every chunk's config records the grid's density (``CHECKPOINTS_PER_DECADE``), so that a chunk made on another grid
is stale; the checks of a stored chunk read the grid its config implies (``stored_grid``)."""

import functools
import math

import numpy as np

from dts_reproduction.reproduce.harness import portable_math

CHECKPOINTS_PER_DECADE = 40


def log_grid(horizon: int, per_decade: int = CHECKPOINTS_PER_DECADE) -> np.ndarray:
    """Increasing int64 slots 1 .. horizon, about ``per_decade`` per decade, always ending at horizon."""
    exponents = np.arange(0, math.floor(math.log10(horizon) * per_decade) + 1) / per_decade
    grid = np.unique(np.round(portable_math.power(10.0, exponents)).astype(np.int64))
    grid = grid[grid <= horizon]
    return np.unique(np.append(grid, horizon)).astype(np.int64)


@functools.lru_cache(maxsize=1024)
def stored_grid(horizon: int, per_decade: int) -> np.ndarray:
    """``log_grid(horizon, per_decade)``, read-only and computed once per process: the grid a stored chunk's
    config implies, which the checks of every chunk read (``runner.chunk_shapes``, ``curves.curves_consistency``)."""
    grid = log_grid(horizon, per_decade)
    grid.flags.writeable = False
    return grid
