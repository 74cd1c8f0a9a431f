"""The interval of every regret a figure, a table or a claim shows (a curve, R(T), a decade's slope): the percentile
bootstrap of the mean over runs, with a fixed seed so that a redraw from the same runs writes the same numbers.
The figures draw it (``reproduce.output.plotting``) and the studies tabulate it; it is a statistic of the runs, so
it lives beside the verdict rule rather than in the drawing code."""

import numpy as np

# The bootstrap of every interval: this many resamples of the runs, drawn with this seed.
BAND_BOOTSTRAP_RESAMPLES = 2000
BAND_BOOTSTRAP_SEED = 20161205


def bootstrap_interval(values, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """(low, high): the percentile bootstrap ``level`` interval of the mean over runs (axis 0) of
    ``values`` ((runs,) or (runs, points); each point's interval from the same BAND_BOOTSTRAP_RESAMPLES
    resamples of the runs, drawn with BAND_BOOTSTRAP_SEED, so the result depends on the values only).  It
    follows a heavy tail (asymmetric, never outside the values' range); one run gives NaN (no spread
    can be estimated from one run)."""
    values = np.asarray(values, dtype=np.float64)
    flat = values.reshape(values.shape[0], -1)
    runs = flat.shape[0]
    if runs < 2:
        undefined = np.full(values.shape[1:], np.nan)
        return undefined, undefined.copy()
    draws = np.random.default_rng(BAND_BOOTSTRAP_SEED).integers(0, runs, size=(BAND_BOOTSTRAP_RESAMPLES, runs))
    offsets = runs * np.arange(BAND_BOOTSTRAP_RESAMPLES)[:, None]
    counts = np.bincount((draws + offsets).ravel(), minlength=BAND_BOOTSTRAP_RESAMPLES * runs)
    counts = counts.reshape(BAND_BOOTSTRAP_RESAMPLES, runs).astype(np.float64)
    means = np.einsum("br,rp->bp", counts, flat, optimize=False) / runs  # no BLAS: the same bits every time
    low, high = np.quantile(means, [(1 - level) / 2, (1 + level) / 2], axis=0)
    return low.reshape(values.shape[1:]), high.reshape(values.shape[1:])
