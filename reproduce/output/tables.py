"""Result tables, without any drawing (so that a benchmark or a check writes its CSV without loading
matplotlib): ``write_table`` writes a CSV atomically (``reproduce.harness.atomic``), ``print_table`` prints a
table in full.  The final-regret table of a figure's panels is ``reproduce.studies.experiment.final_table``."""

from pathlib import Path

import pandas as pd

from dts_reproduction.reproduce.harness.atomic import write_atomic

# The "commits" of a line that is not stored (yet), in the ``_lines.csv`` table of every figure alike.
NOT_STORED = "missing"
# The status of a large-scale line that does not fit the study's CPU budget (``--budget``): listed with its
# estimate, i.e. what it would need, never computed.
OVER_BUDGET = "over budget"


def write_table(table: pd.DataFrame, path: Path) -> None:
    """Write ``table`` to the CSV ``path`` (no index column) atomically."""
    write_atomic(path, lambda tmp: table.to_csv(tmp, index=False))


def print_table(frame: pd.DataFrame) -> None:
    """Print a result table in full on stdout."""
    with pd.option_context("display.width", 200, "display.max_columns", 30, "display.max_colwidth", 90):
        print(frame.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
