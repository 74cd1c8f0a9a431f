"""What a newcomer meets, measured: the README's two commands, ``make all-figures`` and the deselected test suites
timed on fresh clones by ``bench/newcomer.py``, stored in ``bench/newcomer.csv`` and rendered here into the blocks
of the README and docs/testing.md that state them (``reproduce/report.py``), so that no time or test count in
them is typed by hand.

The table has one row per step: ``step`` (``STEPS``), the ``command`` run, its ``wall_seconds`` and
``cpu_seconds`` (the command's processes, children included), ``tests_passed`` and ``test_seconds`` (pytest's own
count and duration; empty for a step that runs no tests), ``clean`` (``git status`` of the clone had nothing to
report after the step), the ``commit`` cloned, the ``cores`` of the machine and the day ``measured_on``.
"""

import re

import pandas as pd

from dts_reproduction.reproduce.harness.paths import ROOT

TABLE = ROOT / "bench" / "newcomer.csv"
# The steps bench/newcomer.py measures, in order: the README's first and second command (each on its own fresh
# clone), make all-figures in the first clone, and the two suites the default one deselects (in the second).
STEPS = ("main", "tests", "all_figures", "process", "slow")
COLUMNS = ("step", "command", "wall_seconds", "cpu_seconds", "tests_passed", "test_seconds", "clean", "commit",
           "cores", "measured_on")
_PYTEST_SUMMARY = re.compile(r"(?:(\d+) passed)?.*? in ([\d.]+)s")


def readme_commands(readme: str) -> tuple[str, str]:
    """The README's first two ``bash`` code blocks, each one command line: (main job, tests).  ValueError if
    there are fewer than two or one holds more than one line."""
    blocks = re.findall(r"```bash\n(.*?)\n```", readme, re.S)
    if len(blocks) < 2:
        raise ValueError(f"the README has {len(blocks)} bash code blocks, expected the two commands first")
    for block in blocks[:2]:
        if "\n" in block.strip():
            raise ValueError(f"a README command block holds more than one line: {block!r}")
    return blocks[0].strip(), blocks[1].strip()


def pytest_summary(output: str) -> tuple[int, float]:
    """(tests passed, seconds) from pytest's last summary line, e.g. ``1295 passed, 37 deselected in 221.3s``
    (0 passed if it names none); ValueError if ``output`` has no summary line or it reports a failure or error."""
    lines = [line.strip("= ") for line in output.strip().splitlines() if re.search(r" in [\d.]+s", line)]
    if not lines:
        raise ValueError("no pytest summary line in the output")
    last = lines[-1]
    if re.search(r"\d+ (failed|error)", last):
        raise ValueError(f"pytest reported failures: {last}")
    match = _PYTEST_SUMMARY.search(last)
    return int(match.group(1) or 0), float(match.group(2))


def _row(table: pd.DataFrame, step: str) -> pd.Series:
    """The row of ``step``; ValueError naming the table if it has none."""
    rows = table[table["step"] == step]
    if rows.empty:
        raise ValueError(f"{TABLE.name} has no row for step {step!r} (run python bench/newcomer.py)")
    return rows.iloc[0]


def _minutes(seconds: float) -> str:
    """Seconds as minutes with one decimal."""
    return f"{seconds / 60:.1f} min"


def _measured(row: pd.Series) -> str:
    """Where and when a row was measured."""
    return f"a fresh clone of {row['commit'][:7]} ({row['cores']} cores, {row['measured_on']})"


def main_block(table: pd.DataFrame) -> str:
    """The README's line after its first command: the command's time and what ``make all-figures`` took after it."""
    main, figures = _row(table, "main"), _row(table, "all_figures")
    status = "`git status` clean" if figures["clean"] and main["clean"] else "`git status` NOT clean"
    return (f"Measured on {_measured(main)}: {main['wall_seconds']:.0f} s, most of it the install; then "
            f"`make all-figures` {figures['wall_seconds']:.0f} s, computing nothing, with {status}.")


def tests_block(table: pd.DataFrame) -> str:
    """The README's line after its second command: tests passed, their time and the whole command's."""
    tests = _row(table, "tests")
    return (f"Measured on {_measured(tests)}: {int(tests['tests_passed']):,} tests passed in "
            f"{_minutes(tests['test_seconds'])}; the whole command, install included, "
            f"{_minutes(tests['wall_seconds'])} ({_minutes(tests['cpu_seconds'])} of CPU).")


def suites_block(table: pd.DataFrame) -> str:
    """docs/testing.md's line on the suites the default one deselects (as .ci/run runs them)."""
    parts = []
    for step, what in (("process", "`-m process -n 0`"), ("slow", "`-m slow`")):
        row = _row(table, step)
        parts.append(f"{what}: {int(row['tests_passed'])} tests in {_minutes(row['test_seconds'])}")
    return f"Measured on {_measured(_row(table, 'process'))}: {'; '.join(parts)}."
