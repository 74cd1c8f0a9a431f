"""Result tables, without any drawing (so that a benchmark or a check writes its CSV without loading
matplotlib): ``write_table`` writes a CSV atomically (``reproduce.harness.atomic``), ``print_table`` prints a
table in full; ``load_tables`` and ``read_table`` read a figures folder's tables back (an empty file is an error
naming it), ``markdown_table`` renders one for the docs and the report.  The final-regret table of a figure's
panels is ``reproduce.studies.experiment.final_table``."""

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


def load_tables(folder: Path, suffix: str) -> dict[str, pd.DataFrame]:
    """{figure stem: table} of every ``<stem><suffix>`` in ``folder``."""
    return {path.name[: -len(suffix)]: read_table(path) for path in sorted(folder.glob(f"*{suffix}"))}


def read_table(path: Path) -> pd.DataFrame:
    """The CSV table at ``path``; ValueError naming the file if it is empty (0 bytes: no header line)."""
    try:
        return pd.read_csv(path)
    except pd.errors.EmptyDataError:
        raise ValueError(f"{path}: empty file, not a table (rerun the script that writes it)") from None


def markdown_table(frame: pd.DataFrame) -> str:
    """A pipe table of ``frame`` (floats with 3 significant digits, pipes in cells escaped)."""
    def cell(value):
        """One table cell: floats with 3 significant digits, pipes and newlines escaped."""
        text = f"{value:.3g}" if isinstance(value, float) else str(value)
        return text.replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(map(str, frame.columns)) + " |", "|" + "---|" * len(frame.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join(lines)
