"""The newcomer measurements: the README's commands as bench/newcomer.py finds them, pytest's summary line, and the
blocks rendered from the table (reproduce.reporting.newcomer_times)."""

import pandas as pd
import pytest

from dts_reproduction.reproduce.harness.paths import ROOT
from dts_reproduction.reproduce.reporting import newcomer_times


def test_the_readme_opens_with_the_two_commands():
    main, tests = newcomer_times.readme_commands((ROOT / "README.md").read_text())
    assert main.startswith("python3 -m venv .venv && ") and main.endswith("reproduce/fig1_mslr.py")
    assert tests.startswith("python3 -m venv .venv && ") and tests.endswith("-m pytest -q")


def test_readme_commands_refuses_a_readme_without_two_one_line_blocks():
    with pytest.raises(ValueError, match="1 bash code blocks"):
        newcomer_times.readme_commands("```bash\nls\n```\n")
    with pytest.raises(ValueError, match="more than one line"):
        newcomer_times.readme_commands("```bash\nls\npwd\n```\n```bash\nls\n```\n")


@pytest.mark.parametrize("output, expected", [
    ("....\n1295 passed, 37 deselected in 221.34s (0:03:41)\n", (1295, 221.34)),
    ("===== 37 passed, 1290 deselected in 234.10s =====\n", (37, 234.10)),
    ("===== 1290 deselected in 3.20s =====\n", (0, 3.20)),
])
def test_pytest_summary_reads_count_and_duration(output, expected):
    assert newcomer_times.pytest_summary(output) == expected


@pytest.mark.parametrize("output, message", [
    ("no summary here\n", "no pytest summary"),
    ("== 3 failed, 1292 passed in 200.00s ==\n", "failures"),
    ("== 1 error, 1294 passed in 200.00s ==\n", "failures"),
])
def test_pytest_summary_refuses_failures_and_missing_lines(output, message):
    with pytest.raises(ValueError, match=message):
        newcomer_times.pytest_summary(output)


def table(clean=True):
    """A table of every step, as bench/newcomer.py writes it."""
    rows = [("main", 70.4, None, None, None), ("all_figures", 130.0, None, None, None),
            ("tests", 300.0, 460.0, 1300, 240.0), ("process", 250.0, 200.0, 38, 245.0),
            ("slow", 510.0, 900.0, 35, 505.0)]
    return pd.DataFrame([{"step": step, "command": step, "wall_seconds": wall, "cpu_seconds": cpu,
                          "tests_passed": passed, "test_seconds": seconds, "clean": clean,
                          "commit": "0123456789abcdef", "cores": 2, "measured_on": "2026-12-02"}
                         for step, wall, cpu, passed, seconds in rows])


def test_the_blocks_state_the_measured_numbers():
    assert newcomer_times.main_block(table()) == (
        "Measured on a fresh clone of 0123456 (2 cores, 2026-12-02): 70 s, most of it the install; then "
        "`make all-figures` 130 s, computing nothing, with `git status` clean.")
    assert "1,300 tests passed in 4.0 min; the whole command, install included, 5.0 min (7.7 min of CPU)" in \
        newcomer_times.tests_block(table())
    assert newcomer_times.suites_block(table()).endswith(
        "`-m process -n 0`: 38 tests in 4.1 min; `-m slow`: 35 tests in 8.4 min.")


def test_a_dirty_clone_is_said_and_a_missing_step_named():
    assert "`git status` NOT clean" in newcomer_times.main_block(table(clean=False))
    with pytest.raises(ValueError, match="no row for step 'slow'"):
        newcomer_times.suites_block(table()[lambda frame: frame["step"] != "slow"])
