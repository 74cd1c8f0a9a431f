"""Result tables, without any drawing (so that a benchmark or a check writes its CSV without loading
matplotlib): ``write_table`` writes a CSV atomically (``reproduce.harness.atomic``), ``final_table`` sums up
R(T) per curve, ``print_table`` prints a table in full."""

from pathlib import Path

import numpy as np
import pandas as pd

from dts_reproduction.reproduce.claims.verdict import log_slope
from dts_reproduction.reproduce.harness.atomic import write_atomic

# The "commits" of a line that is not stored (yet), in the ``_lines.csv`` table of every figure alike.
NOT_STORED = "missing"
# The status of a large-scale line that does not fit the study's CPU budget (``--budget``): listed with its
# estimate, i.e. what it would need, never computed.
OVER_BUDGET = "over budget"


def final_table(panels) -> pd.DataFrame:
    """Per panel and curve: runs, mean, std and standard error of the exact final regret R(T), the slope
    of R against ln t over the last decade with its standard error (``claims.log_slope``), and the worker
    seconds its stored runs took.  With one run the std and both s.e. are NaN (not estimable), never 0."""
    rows = []
    for title, results in panels:
        for res in results:
            final = np.asarray(res.final, dtype=np.float64)
            runs = final.shape[0]
            std = final.std(ddof=1) if runs > 1 else np.nan
            slope = log_slope(res)
            rows.append({"panel": title, "dataset": res.line.dataset, "algorithm": res.line.name,
                         "label": res.label, "horizon": res.line.horizon, "runs": runs,
                         "mean_final_regret": final.mean(), "std_final_regret": std,
                         "sem_final_regret": std / np.sqrt(runs), "slope_last_decade": slope.value,
                         "slope_se": slope.se if runs > 1 else np.nan,
                         "worker_seconds": res.meta.get("worker_seconds", 0.0)})
    return pd.DataFrame(rows)


def write_table(table: pd.DataFrame, path: Path) -> None:
    """Write ``table`` to the CSV ``path`` (no index column) atomically."""
    write_atomic(path, lambda tmp: table.to_csv(tmp, index=False))


def print_table(frame: pd.DataFrame) -> None:
    """Print a result table in full on stdout."""
    with pd.option_context("display.width", 200, "display.max_columns", 30, "display.max_colwidth", 90):
        print(frame.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
