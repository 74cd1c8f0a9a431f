"""The successors study's final table (``final_rows``, ``figures/successors_final.csv``): per panel and drawn curve,
the Copeland regret of Eq. 1 at T (mean and standard error over runs; the median run and the largest, which show a
mean carried by a few runs) and the weak regret at T (mean and standard error), the slope of R against
ln t over the last decade, and what a run cost.  The claims (``successors_claims``), the figure
(``successors_figure``) and the docs' numbers are read from it."""

import math

import numpy as np
import pandas as pd

from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.claims.verdict import Estimate, at, final, log_slope, mean_se, run_slopes

FINAL_COLUMNS = ("panel", "dataset", "condorcet", "algorithm", "label", "horizon", "runs", "copeland_regret",
                 "copeland_se", "copeland_median", "copeland_max", "weak_regret", "weak_se", "weak_regret_tenth",
                 "slope_last_decade", "slope_se", "slope_decade_before", "batches", "batches_max", "batch_bound",
                 "seconds_per_run")

FIRST_LONG_DECADE = 10**3  # CW-RMED's first decade in the long lines' table (the smoke run's reach 1e5)


def weak_final(result):
    """Mean and standard error of the weak regret at T (``LineResult.weak``'s last checkpoint)."""
    return mean_se(result.weak[:, -1])


def decade_slope(result, decades_before_end: int = 0):
    """The slope of R against ln t over one decade of t, mean and s.e. over runs (``verdict.run_slopes``): from
    T / 10^(n + 1) to T / 10^n, n = ``decades_before_end``; NaN where the decade holds fewer than two checkpoints."""
    end = result.line.horizon / 10**decades_before_end
    t = result.checkpoints
    if ((t >= end / 10) & (t <= end)).sum() < 2:
        return Estimate(math.nan, math.nan)
    return mean_se(run_slopes(t, result.regret, end / 10, end))


def decade_before(result):
    """``decade_slope`` of the decade before the last: T/100 to T/10."""
    return decade_slope(result, 1)


def batch_bound(horizon: int) -> int:
    """C2B's number of batches B = ceil(ln T) at horizon T (``algorithms.c2b``: at most B batches start within T)."""
    return math.ceil(math.log(horizon))


def final_rows(results: list, batches: dict | None = None) -> pd.DataFrame:
    """One row per drawn curve of ``results`` ([(title, [LineResult])], a C2B curve combined over its horizons):
    ``FINAL_COLUMNS``; ``condorcet`` says whether the panel's matrix has a Condorcet winner, ``weak_regret_tenth`` is
    the mean weak regret at T/10 (how much of it the last decade added); the slope of a curve drawn from one point per
    horizon (C2B) is over its last decade of horizons.  C2B's rows carry its batches from ``batches`` ({panel title:
    its ``C2B_BATCHES`` line's LineResult, or None}): the mean and the most over runs of the batches started within T
    and the bound ceil(ln T); NaN where not stored, and on every other row."""
    batches = batches or {}
    rows = []
    for title, curves in results:
        counted = batches.get(title)
        for res in curves:
            count = counted.arrays["batches"] if counted is not None and res.line.algorithm == "c2b" else None
            copeland, weak, slope = final(res), weak_final(res), log_slope(res)
            runs = res.final.shape[0]
            rows.append({"panel": title, "dataset": res.line.dataset,
                         "condorcet": load_dataset(res.line.dataset).has_condorcet_winner,
                         "algorithm": res.line.algorithm, "label": res.label, "horizon": res.line.horizon,
                         "runs": runs, "copeland_regret": copeland.value, "copeland_se": copeland.se,
                         "copeland_median": float(np.median(res.final)), "copeland_max": float(res.final.max()),
                         "weak_regret": weak.value, "weak_se": weak.se,
                         "weak_regret_tenth": at(res, res.line.horizon // 10, "weak").value,
                         "slope_last_decade": slope.value,
                         "slope_se": slope.se, "slope_decade_before": decade_before(res).value,
                         "batches": math.nan if count is None else float(count.mean()),
                         "batches_max": math.nan if count is None else float(count.max()),
                         "batch_bound": batch_bound(res.line.horizon) if res.line.algorithm == "c2b" else math.nan,
                         "seconds_per_run": res.meta.get("worker_seconds", math.nan) / runs})
    return pd.DataFrame(rows, columns=list(FINAL_COLUMNS))


def long_rows(long_lines: dict, bounds: dict, anytime: dict | None = None) -> pd.DataFrame:
    """The long lines (``figures/successors_long.csv``): per algorithm, panel and decade T, R(T) (mean and s.e.), the
    slope per ln T from the decade before (NaN for the first) and the bound C of its matrix (``bounds``: {matrix: C}).
    ``long_lines``: C2B's, {panel title: LineResult combined over its horizons, or None if not stored}; ``anytime``:
    {name in the table ("cw_rmed", "cw_rmed_true", "ws_s"): {panel title: LineResult of one horizon or None}}, each
    read at the decades of its checkpoints from FIRST_LONG_DECADE (``decade_columns``)."""
    rows = []
    for algorithm, lines in (("c2b", long_lines), *(anytime or {}).items()):
        for title, result in lines.items():
            if result is None:
                continue
            previous = None
            for index in decade_columns(result, algorithm):
                regret = mean_se(result.regret[:, index])
                slope = math.nan if previous is None else (regret.value - previous.value) / math.log(10.0)
                rows.append({"algorithm": algorithm, "panel": title, "dataset": result.line.dataset,
                             "horizon": int(result.checkpoints[index]), "runs": result.regret.shape[0],
                             "regret": regret.value, "regret_se": regret.se, "slope_decade": slope,
                             "lower_bound_slope": bounds[result.line.dataset]})
                previous = regret
    return pd.DataFrame(rows, columns=["algorithm", "panel", "dataset", "horizon", "runs", "regret", "regret_se",
                                       "slope_decade", "lower_bound_slope"])


def decade_columns(result, algorithm: str) -> list[int]:
    """The checkpoint indices ``long_rows`` reads: every one of C2B's combined curve (one per horizon, each its own
    runs); an anytime line's at the powers of ten from FIRST_LONG_DECADE (one run read at several T)."""
    if algorithm == "c2b":
        return list(range(len(result.checkpoints)))
    return [index for index, slot in enumerate(result.checkpoints)
            if slot >= FIRST_LONG_DECADE and 10 ** round(math.log10(slot)) == slot]

