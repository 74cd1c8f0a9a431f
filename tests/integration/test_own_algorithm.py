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

import numpy as np
import pandas as pd
import pytest

from dts_reproduction.algorithms import Policy, load_plugin
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.config.paper import ROOT_SEED
from dts_reproduction.reproduce.harness.runner import Line, load_line
from tests.scripts import ROOT, run_script
from tests.toy_plugins import empty_plugin_table, write_plugins

PAGE = ROOT / "docs" / "extending.md"
RUNS = 40  # of each transcription: enough for the final regrets' standard errors to be a few percent of their means
SECTION = "## Your own algorithm as a plug-in"


def section_blocks() -> dict[str, list[str]]:
    """The fenced code blocks of the page's plug-in section, by language, in page order: ``python`` (mine.py, also run
    from the repository root by tests/figures_claims/test_readme_examples.py), ``bash`` (its commands) and ``py`` (its
    live lines, which need mine.py beside them: run here only)."""
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
    exec(section_blocks()["py"][0], namespace)  # the live lines: select, update, best_arm
    assert 0 <= namespace["policy"].best_arm() < 5


def test_the_pages_plugin_is_a_plain_python_algorithm(clone_folder):
    """What the page says of its example holds: mine.py's select and update are plain Python (not numba), and its
    name is the one the page's folders carry."""
    spec = runpy.run_path(str(clone_folder / "mine.py"))["MINE_SPEC"]
    assert spec.name == "uniform_pairs"
    assert not hasattr(spec.select, "py_func") and not hasattr(spec.update, "py_func")
    assert Path(PAGE).read_text(encoding="utf-8").count("mine.py:MINE_SPEC") >= 4


def _run(script: str, *argv) -> None:
    """Run ``script`` with ``argv``; fail naming the command if it exits with a status other than 0."""
    try:
        run_script(script, list(argv))
    except SystemExit as stop:
        assert stop.code in (0, None), f"{script} {' '.join(map(str, argv))} exited with {stop.code}"


def test_an_njit_and_a_python_transcription_run_alike_under_loky(tmp_path, monkeypatch):
    """The toy Copeland-UCB in its two transcriptions (njit and plain Python, tests/toy_plugins.py), as plug-ins under
    loky with two workers: run.py stores both lines and their final regrets agree in law (their names key their random
    streams, so their runs differ: a two-sample z-test, within 4 standard errors of the difference, a false alarm once
    in 16,000; the standard error of the difference is about 10 on means near 420, so a shift of 40 or more -- the
    Python radius scale at 0.5 instead of 2 shifts it by 105 -- fails it; run_one with one name gives the same numbers
    bit for bit, tests/kernels/test_python_kernels.py),
    verify.py re-simulates both, benchmark.py ranks both, and live, from one generator seed, both choose the same
    pairs."""
    empty_plugin_table(monkeypatch)
    compiled, python = write_plugins(tmp_path / "plugins")
    out, figures = tmp_path / "r", tmp_path / "f"
    _run("reproduce/run.py", "--dataset", "cyclic", "--algorithms", compiled, python, "--runs", str(RUNS), "--horizon",
         "1000", "--backend", "loky", "--n-jobs", "2", "--no-progress", "--out", out, "--figures", figures)
    dataset = load_dataset("cyclic")
    finals = [load_line(Line("cyclic", name, 1000, RUNS), dataset, load_plugin(reference), out, ROOT_SEED).final
              for name, reference in (("copeland_ucb", compiled), ("copeland_ucb_py", python))]
    difference = finals[0].mean() - finals[1].mean()
    standard_error = np.sqrt(sum(final.var(ddof=1) / RUNS for final in finals))
    assert abs(difference) < 4 * standard_error, (difference, standard_error)
    _run("reproduce/verify.py", out, "--plugins", compiled, python)
    _run("reproduce/benchmark.py", "--algorithms", compiled, python, "--datasets", "cyclic", "--runs", "4",
         "--horizon", "1000", "--backend", "loky", "--n-jobs", "2", "--no-progress", "--out", out, "--figures",
         tmp_path / "b")
    ranking = pd.read_csv(tmp_path / "b" / "quick" / "benchmark_ranking.csv")
    assert set(ranking["algorithm"]) == {compiled, python}
    assert sorted(ranking["rank"]) == [1, 2]

    class Mine(Policy):
        spec = load_plugin(compiled)

    class MinePython(Policy):
        spec = load_plugin(python)

    policies = [Mine(5, seed=3), MinePython(5, seed=3)]
    for _ in range(50):
        pairs = [policy.select() for policy in policies]
        assert pairs[0] == pairs[1]
        for policy in policies:
            policy.update(*pairs[0], a1_won=pairs[0][0] <= pairs[0][1])
    assert policies[0].best_arm() == policies[1].best_arm()
