"""ECW-RMED's sweeps of every pair (docs/asymptotic.md#ecw-rmeds-sweeps-of-every-pair).

Step 1 of ECW-RMED forces every pair compared fewer than alpha sqrt(ln t) times.  A pair that nothing else compares
(asymptotically, every pair of two non-winners but those its allocation pairs) keeps its count at that threshold, so
each time alpha sqrt(ln t) passes the next integer m, at t_m = exp((m / alpha)^2), all such pairs are compared once
more, one a slot: a *sweep*, whose regret (at most the sum of r_ij over the K (K - 1) / 2 pairs) lands within
K (K - 1) / 2 slots of t_m (the K^2 slots measured).  Between two sweeps ln t grows by (2m + 1) / alpha^2, so their
cost per ln t falls like 1 / sqrt(ln t): they do not change ECW-RMED's asymptotic slope, but at K = 136 one sweep
costs a sizeable share of a decade of D-TS's regret, and a slope fitted over a window of t that holds a sweep sits
far above one fitted where none falls.  This table measures every
sweep from 1e6 to the horizon in the stored runs, per panel, and what the last one does to the slope over C5's
window."""

import math

import numpy as np
import pandas as pd

from dts_reproduction.core.constants import ECW_RMED_ALPHA
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.claims.verdict import ASYMPTOTIC_SPAN, run_slopes
from dts_reproduction.reproduce.studies.asymptotic_study.decades import regret_at, untrapped
from dts_reproduction.reproduce.studies.lower_bound import pair_regrets

FIRST_SWEEP_FROM = 10**6  # sweeps before 1e6 drown in the regret of settling the winner (the hump at K = 136)
# The columns of ``sweep_rows``, also when no panel has a sweep (a smoke run's T = 1e4).
SWEEP_COLUMNS = ("panel", "dataset", "K", "pairs_cost_sum", "sweeps", "ecw_rmed_sweep_median",
                 "ecw_rmed_sweep_smallest", "dts_same_interval_largest", "dts_last_decade", "last_sweep",
                 "in_c5_window", "dts_window_slope", "ecw_rmed_window_slope", "ecw_rmed_window_slope_without_sweep")


def sweep_slots(horizon: int, alpha: float = ECW_RMED_ALPHA) -> list[float]:
    """The slots t_m = exp((m / alpha)^2) at which alpha sqrt(ln t) reaches an integer m, from FIRST_SWEEP_FROM up
    to ``horizon``."""
    slots, m = [], math.ceil(alpha * math.sqrt(math.log(FIRST_SWEEP_FROM)))
    while (slot := math.exp((m / alpha) ** 2)) <= horizon:
        slots.append(slot)
        m += 1
    return slots


def sweep_interval(checkpoints: np.ndarray, sweep: float, width: int) -> tuple[int, int]:
    """The indices of the checkpoints that bound the sweep [sweep, sweep + width]: the last one before it and the
    first one at or after its end (or the last checkpoint)."""
    start = int(np.searchsorted(checkpoints, sweep)) - 1
    return start, min(int(np.searchsorted(checkpoints, sweep + width)), checkpoints.size - 1)


def sweep_increases(result, sweep: float, width: int) -> np.ndarray:
    """Per run of ``result``, the increase of R over the checkpoint interval that holds [sweep, sweep + width]."""
    start, end = sweep_interval(result.checkpoints, sweep, width)
    return result.regret[:, end] - result.regret[:, start]


def window_slope(result, regret: np.ndarray | None = None) -> float:
    """The mean over runs of the slope of R against ln t over C5's window [T / ASYMPTOTIC_SPAN, T] (``regret``
    in place of the result's own curves if given)."""
    horizon = float(result.checkpoints[-1])
    curves = result.regret if regret is None else regret
    return float(run_slopes(result.checkpoints, curves, horizon / ASYMPTOTIC_SPAN, horizon).mean())


def without_sweep(result, sweep: float, width: int) -> np.ndarray:
    """The curves of ``result`` with each run's excess over the sweep's interval taken off every checkpoint from the
    interval's end on: the regret the runs would have without that sweep.  The excess is the run's increase over
    the interval (``sweep_increases``) less its increase over the interval before, as wide in ln t on the log grid
    (its growth without a sweep)."""
    start, end = sweep_interval(result.checkpoints, sweep, width)
    regret = result.regret.copy()
    ordinary = (result.regret[:, start] - result.regret[:, start - 1]) * (end - start)
    regret[:, end:] -= (result.regret[:, end] - result.regret[:, start] - ordinary)[:, None]
    return regret


def sweep_rows(panels, results) -> pd.DataFrame:
    """Per panel with a Condorcet winner where ECW-RMED's and D-TS's lines are stored: K, the sum of r_ij over the
    pairs, the number of sweeps from FIRST_SWEEP_FROM to the horizon, the median over sweeps of ECW-RMED's median
    increase of R over a sweep's interval (``sweep_increases``, logarithmic runs), its smallest increase over every
    sweep and run, D-TS's largest median increase over the same intervals, D-TS's median regret over the last decade
    [T/10, T], the last sweep, whether it falls in the window [T / ASYMPTOTIC_SPAN, T] of C5's slopes, and the mean
    slopes over that window (``window_slope``) of D-TS and of ECW-RMED's logarithmic runs, with and without the last
    sweep (``without_sweep``)."""
    rows = []
    for panel, (title, curves) in zip(panels, results, strict=True):
        dataset = load_dataset(panel.dataset)
        lines = {res.line.name: res for res in curves}
        if not dataset.has_condorcet_winner or not {"ecw_rmed", "dts"} <= lines.keys():
            continue
        ecw, dts = untrapped(lines["ecw_rmed"]), lines["dts"]
        horizon = int(ecw.checkpoints[-1])
        sweeps, width = sweep_slots(horizon), dataset.K ** 2
        if not sweeps or ecw.final.size == 0:
            continue
        jumps = [sweep_increases(ecw, t, width) for t in sweeps]
        rows.append({"panel": title, "dataset": panel.dataset, "K": dataset.K,
                     "pairs_cost_sum": float(pair_regrets(dataset.P)[np.tril_indices(dataset.K, -1)].sum()),
                     "sweeps": len(sweeps), "ecw_rmed_sweep_median": float(np.median([np.median(j) for j in jumps])),
                     "ecw_rmed_sweep_smallest": float(min(j.min() for j in jumps)),
                     "dts_same_interval_largest": float(max(np.median(sweep_increases(dts, t, width))
                                                            for t in sweeps)),
                     "dts_last_decade": float(np.median(dts.final - regret_at(dts, horizon // 10))),
                     "last_sweep": sweeps[-1],
                     "in_c5_window": bool(sweeps[-1] >= horizon / ASYMPTOTIC_SPAN),
                     "dts_window_slope": window_slope(dts), "ecw_rmed_window_slope": window_slope(ecw),
                     "ecw_rmed_window_slope_without_sweep": window_slope(ecw, without_sweep(ecw, sweeps[-1], width))})
    return pd.DataFrame(rows, columns=list(SWEEP_COLUMNS))
