"""docs/extending.md, "Your own algorithm as a plug-in", followed literally: its ``mine.py`` written as the page prints
it, its command lines run as the page prints them (from a folder holding ``mine.py``, into the folders they name, with
the default backend, loky), and its live-policy lines executed -- so that the page a researcher follows is a test,
and a change that breaks one of its steps fails here.

Each command line's own behaviour is tested where it is built (tests/algorithms/test_plugins.py, tests/cli/
test_benchmark.py, tests/harness/test_code_identity.py); here the question is only whether the page's steps work as
written, and produce what the page says they produce."""

import re
import runpy
import shlex
from pathlib import Path

import pandas as pd
import pytest

from tests.scripts import ROOT, run_script
from tests.toy_plugins import empty_plugin_table

PAGE = ROOT / "docs" / "extending.md"
SECTION = "## Your own algorithm as a plug-in"


def section_blocks() -> dict[str, list[str]]:
    """The fenced code blocks of the page's plug-in section, by language (``python``, ``bash``), in page order."""
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    blocks = {}
    for language, body in re.findall(r"```(\w+)\n(.*?)```", text[start:end if end >= 0 else None], re.S):
        blocks.setdefault(language, []).append(body)
    return blocks


def commands(block: str) -> list[list[str]]:
    """The command lines of a bash block, each split as a shell would split it."""
    return [shlex.split(line) for line in block.splitlines() if line.strip() and not line.startswith("#")]


@pytest.fixture
def clone_folder(tmp_path, monkeypatch):
    """A folder standing for the clone's, holding the page's ``mine.py`` (its first python block), as the working
    folder, with an empty plug-in table."""
    empty_plugin_table(monkeypatch)
    (tmp_path / "mine.py").write_text(section_blocks()["python"][0], encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_pages_plugin_runs_through_every_command_and_live(clone_folder, capsys):
    """Every command line of the page's bash block exits normally (run.py, verify.py and benchmark.py with mine.py's
    reference, under the default loky backend), writes what the page says, and the page's live lines run."""
    lines = commands(section_blocks()["bash"][0])
    assert [line[:2] for line in lines] == [["python", "mine.py"], ["python", "reproduce/run.py"],
                                            ["python", "reproduce/verify.py"], ["python", "reproduce/benchmark.py"]]
    runpy.run_path(str(clone_folder / "mine.py"), run_name="__main__")
    assert float(capsys.readouterr().out.strip()) > 0  # its first try prints a final regret
    for line in lines[1:]:
        try:
            run_script(line[1], line[2:])
        except SystemExit as stop:
            assert stop.code in (0, None), f"{' '.join(line)} exited with {stop.code}"
    results, figures, ranking = (clone_folder / "mine_results", clone_folder / "mine_figures",
                                 clone_folder / "mine_benchmark" / "quick")
    assert list(results.rglob("uniform_pairs_T2000/runs_*.npz")), "run.py stored no chunk of the plug-in"
    assert any(figures.glob("*.png")), "run.py drew no figure"
    table = pd.read_csv(ranking / "benchmark_ranking.csv")
    assert set(table["algorithm"]) == {"mine.py:MINE_SPEC", "dts", "rmed1"}  # named as --algorithms gives them
    assert (ranking / "benchmark.md").read_text(encoding="utf-8").count("Uniform pairs") >= 1
    namespace = {}
    exec(section_blocks()["python"][1], namespace)  # the live lines: select, update, best_arm
    assert 0 <= namespace["policy"].best_arm() < 5


def test_the_pages_plugin_is_a_plain_python_algorithm(clone_folder):
    """What the page says of its example holds: mine.py's select and update are plain Python (not numba), and its
    name is the one the page's folders carry."""
    spec = runpy.run_path(str(clone_folder / "mine.py"))["MINE_SPEC"]
    assert spec.name == "uniform_pairs"
    assert not hasattr(spec.select, "py_func") and not hasattr(spec.update, "py_func")
    assert Path(PAGE).read_text(encoding="utf-8").count("mine.py:MINE_SPEC") >= 4
