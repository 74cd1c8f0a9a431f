"""reproduce/benchmark.py and its library (``reproduce.studies.benchmark_study``): the command writes its figure,
ranking table and report, the ranking follows the table's means, every verdict is the claims' rule on the table's
numbers, the lines the repository's results folders hold are read there and not computed again, bad input is one
line and exit status 2 with nothing written; its panels are the matrices of Figs. 3 and 4 as those figures declare
them.  Tiny runs (4 runs of T = 2000) on two small matrices: the scale is the tier's only where a test says so."""

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from dts_reproduction.reproduce.claims.verdict import (
    FAILS,
    HOLDS,
    NOT_MEASURED,
    NOT_SIGNIFICANT,
    QUICK_PREFIX,
    Estimate,
    below,
    not_evidence_verdict,
)
from dts_reproduction.reproduce.harness.paths import RESULTS
from dts_reproduction.reproduce.studies.benchmark_study import benchmark_plan
from dts_reproduction.reproduce.studies.benchmark_study.benchmark_panels import PAPER_PANELS, benchmark_panels
from dts_reproduction.reproduce.studies.benchmark_study.benchmark_ranking import NO_VERDICT, RULE, panel_rows
from dts_reproduction.reproduce.studies.paper_figures.condorcet_figure import FIG3_STUDY
from dts_reproduction.reproduce.studies.paper_figures.noncondorcet_figure import FIG4_STUDY
from tests.scripts import run_script
from tests.toy_plugins import empty_plugin_table, write_plugins

SCRIPT = "reproduce/benchmark.py"
TINY = ["--algorithms", "dts", "rmed1", "--datasets", "cyclic", "nc_cyclic", "--runs", "4", "--horizon", "2000",
        "--n-jobs", "1", "--no-progress"]
OUTPUTS = ("benchmark.png", "benchmark.pdf", "benchmark.csv", "benchmark_lines.csv", "benchmark_ranking.csv",
           "benchmark.md")


def benchmark(tmp_path, *args, out="r"):
    """Run the command on the tiny plan with results under ``tmp_path/<out>`` and figures under ``tmp_path/f``; the
    folder it wrote into (the quick tier's ``quick/``)."""
    run_script(SCRIPT, [*TINY, *args, "--out", str(tmp_path / out), "--figures", str(tmp_path / "f")])
    return tmp_path / "f" / "quick"


def test_writes_figure_ranking_and_report_and_ranks_by_the_tables_means(tmp_path, capsys):
    folder = benchmark(tmp_path)
    printed = capsys.readouterr().out
    assert sorted(path.name for path in folder.iterdir()) == sorted(OUTPUTS)
    assert all((folder / name).stat().st_size > 0 for name in OUTPUTS)
    assert "to compute: 4 of 4 lines" in printed and "cpu_seconds" in printed  # the plan, before the run
    ranking = pd.read_csv(folder / "benchmark_ranking.csv", keep_default_na=False)
    curves = pd.read_csv(folder / "benchmark.csv")
    assert list(dict.fromkeys(ranking["dataset"])) == ["cyclic", "nc_cyclic"]
    for _matrix, rows in ranking.groupby("matrix", sort=False):
        assert list(rows["rank"]) == [1, 2]
        assert rows["mean_final_regret"].is_monotonic_increasing
        for row in rows.itertuples():  # the mean ranked is the drawn curve's mean at T
            at_t = curves[(curves["dataset"] == row.dataset) & (curves["algorithm"] == row.algorithm)
                          & (curves["t"] == row.horizon)]
            assert float(at_t["mean_regret"].iloc[0]) == pytest.approx(row.mean_final_regret)
            assert row.ci95_low <= row.mean_final_regret <= row.ci95_high and row.runs == 4
        first, second = (Estimate(row.mean_final_regret, row.se_final_regret) for row in rows.itertuples())
        expected = not_evidence_verdict(below(first, second), QUICK_PREFIX)
        assert list(rows["verdict_first_lower"]) == [expected, expected]  # row 1: the worst over the one other
        dts = rows[rows["algorithm"] == "dts"].iloc[0]
        rmed1 = rows[rows["algorithm"] == "rmed1"].iloc[0]
        assert dts["verdict_lower_than_against"] == NO_VERDICT and rmed1["against"] == "dts"
        assert rmed1["verdict_lower_than_against"] == not_evidence_verdict(
            below(Estimate(rmed1["mean_final_regret"], rmed1["se_final_regret"]),
                  Estimate(dts["mean_final_regret"], dts["se_final_regret"])), QUICK_PREFIX)
    report = (folder / "benchmark.md").read_text()
    assert RULE in report and "**Not evidence.**" in report and "Tier: quick" in report
    assert "4 runs per line, T = 2e3" in report
    assert "](" not in report and "http" not in report  # it links nothing
    for value in ranking["mean_final_regret"]:
        assert f"| {value:.3g} |" in report


def test_the_plan_costs_a_partly_stored_line_at_its_stored_runs(tmp_path, monkeypatch):
    """Rerun after 2 of a line's 4 one-run chunks were lost (a run stopped), the plan has 2 runs of it to run,
    estimated at twice the CPU seconds a stored run took (their records), "stored runs"; a line with nothing stored
    at the cost model's, "model"; a stored line at nothing, "-"."""
    from dts_reproduction.reproduce.harness import limits
    from dts_reproduction.reproduce.harness.cost import estimated_line_seconds, measured_run_seconds
    from dts_reproduction.reproduce.harness.store import read_chunk_meta
    from dts_reproduction.reproduce.studies.benchmark_study import benchmark_run

    monkeypatch.setattr(limits, "CHUNK_SLOTS", 2000 * 5)  # one run a chunk
    benchmark(tmp_path)
    out = tmp_path / "r" / "quick"
    (resumed_folder,) = out.glob("cyclic/dts_*")
    (fresh_folder,) = out.glob("nc_cyclic/dts_*")
    kept, lost = sorted(resumed_folder.glob("runs_*.npz"))[:2], sorted(resumed_folder.glob("runs_*.npz"))[2:]
    assert len(kept) == len(lost) == 2
    per_run = measured_run_seconds([read_chunk_meta(path) for path in kept])
    for path in [*lost, *fresh_folder.glob("runs_*.npz")]:
        path.unlink()
    seen = []
    monkeypatch.setattr(benchmark_run, "plan_table",
                        lambda planned: seen.extend(planned) or benchmark_plan.plan_table(planned))
    benchmark(tmp_path)
    planned = {(item.dataset.name, item.line.algorithm): item for item in seen}
    resumed, fresh, stored = planned[("cyclic", "dts")], planned[("nc_cyclic", "dts")], planned[("cyclic", "rmed1")]
    assert (resumed.status, resumed.stored_runs, resumed.runs_to_compute) == (benchmark_plan.TO_COMPUTE, 2, 2)
    assert resumed.cpu_seconds == pytest.approx(2 * per_run)
    assert (fresh.stored_runs, fresh.runs_to_compute) == (0, 4)
    assert fresh.cpu_seconds == pytest.approx(estimated_line_seconds(fresh.line, fresh.dataset))
    assert (stored.status, stored.runs_to_compute, stored.cpu_seconds) == ("stored", 0, 0.0)
    table = benchmark_plan.plan_table(seen).set_index("line")
    assert list(table.loc[resumed.line.name, ["to_run", "estimate"]].iloc[0]) == [2, "stored runs"]
    assert set(table["estimate"]) == {"stored runs", "model", "-"}


def test_the_repositorys_stored_lines_are_read_there_not_computed_again(tmp_path, monkeypatch, capsys):
    """A line the figure scripts' results folder holds (here: a first run's folder standing in for results/) is read
    from it; the run's own folder gets only the others, and the numbers are the same runs'."""
    shared = benchmark(tmp_path, out="shared")
    first = pd.read_csv(shared / "benchmark_ranking.csv")
    capsys.readouterr()
    monkeypatch.setattr(benchmark_plan, "scripts_settings",
                        lambda settings: replace(settings, out=tmp_path / "shared" / "quick",
                                                 default_out=tmp_path / "shared" / "quick"))
    again = benchmark(tmp_path, "--algorithms", "dts", "rmed1", "rucb")
    printed = capsys.readouterr().out
    assert "to compute: 2 of 6 lines" in printed and "4 lines reused" in printed
    report = (again / "benchmark.md").read_text()
    assert "4 of the lines were read as stored" in report and "not yet checked" not in report  # this code made them
    assert sorted(path.name for path in (tmp_path / "r" / "quick" / "cyclic").iterdir()) == ["rucb_T2000"]
    second = pd.read_csv(again / "benchmark_ranking.csv")
    merged = first.merge(second, on=["dataset", "algorithm"])
    assert len(merged) == 4
    assert np.array_equal(merged["mean_final_regret_x"], merged["mean_final_regret_y"])


def test_a_plug_in_reference_is_benchmarked_and_can_be_the_reference(tmp_path, monkeypatch):
    """An algorithm of one's own by reference (``algorithms.plugins``; the plain-Python toy, nothing to compile) is read
    as run.py reads it, ranked and compared as --against."""
    empty_plugin_table(monkeypatch)
    _njit, mine = write_plugins(tmp_path / "plugins")
    run_script(SCRIPT, ["--algorithms", "dts", mine, "--against", mine, "--datasets", "cyclic", "--runs", "2",
                        "--horizon", "300", "--n-jobs", "1", "--no-progress", "--out", str(tmp_path / "r"),
                        "--figures", str(tmp_path / "f")])
    ranking = pd.read_csv(tmp_path / "f" / "quick" / "benchmark_ranking.csv", keep_default_na=False)
    assert set(ranking["algorithm"]) == {"dts", mine} and set(ranking["against"]) == {mine}
    assert set(ranking["label"]) == {"D-TS", "Copeland-UCB (Python)"}
    dts = ranking[ranking["algorithm"] == "dts"].iloc[0]
    assert dts["verdict_lower_than_against"].startswith(QUICK_PREFIX)


def test_without_the_reference_the_verdicts_against_it_are_left_out(tmp_path):
    folder = benchmark(tmp_path, "--algorithms", "rmed1", "rucb")
    ranking = pd.read_csv(folder / "benchmark_ranking.csv", keep_default_na=False)
    assert set(ranking["against"]) == {NO_VERDICT} and set(ranking["verdict_lower_than_against"]) == {NO_VERDICT}
    assert "lower than" not in (folder / "benchmark.md").read_text().split("## Ranks")[1]


@pytest.mark.parametrize("args, message", [
    (["--algorithms", "nope"], "error: unknown algorithm 'nope'"),
    (["--datasets", "nope"], "error: unknown dataset 'nope'"),
    (["--datasets", "cyclic", "cyclic"], "error: dataset 'cyclic' is given twice"),
    (["--tier", "huge"], "error: argument --tier: invalid choice: 'huge'"),
    (["--tier", "paper", "--quick"], "error: --quick is --tier quick, but --tier paper was given"),
    (["--against", "rucb"], "error: --against 'rucb' is not one of --algorithms (dts, rmed1)"),
    (["--max-cpu-hours", "1e-9"], "error: the plan is estimated at"),
], ids=["algorithm", "dataset", "dataset-twice", "tier", "quick-and-paper", "against", "cpu-hours"])
def test_bad_input_is_one_line_exit_2_and_nothing_written(tmp_path, capsys, args, message):
    with pytest.raises(SystemExit) as stop:
        run_script(SCRIPT, [*TINY, *args, "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f")])
    err = capsys.readouterr().err
    assert stop.value.code == 2
    assert err.startswith(message) and len(err.strip().splitlines()) == 1, err
    assert list(tmp_path.iterdir()) == []


def test_the_default_panels_are_the_matrices_of_figs_3_and_4_as_declared():
    """Every matrix of Figs. 3 and 4 once (Fig. 3 (g) is StrongBorda's runs in G2W regret), lettered anew, with its
    paper panel's horizon, run rule and zoom; a dataset of one's own runs at the paper's defaults."""
    panels = benchmark_panels(None, ("dts",))
    paper = [panel for panel in (*FIG3_STUDY.panels, *FIG4_STUDY.panels) if panel.metric == "regret"]
    assert [panel.dataset for panel in panels] == [panel.dataset for panel in paper] == \
        [panel.dataset for panel in PAPER_PANELS]
    assert len(panels) == 12 and len({panel.dataset for panel in panels}) == 12
    assert [panel.title[:4] for panel in panels] == [f"({letter}) " for letter in "abcdefghijkl"]
    assert panels[6].title == "(g) Non-Condorcet Cyclic" and panels[1].title == "(b) StrongBorda"
    for mine, theirs in zip(panels, paper, strict=True):
        assert (mine.horizon, mine.runs, mine.zoom, mine.algorithms) == (theirs.horizon, theirs.runs, theirs.zoom,
                                                                         ("dts",))
    chosen = benchmark_panels(["gap", "mslr5_condorcet"], ("dts",))
    assert [panel.title for panel in chosen] == ["(a) Gap", "(b) mslr5_condorcet"]
    assert chosen[1].horizon is None and chosen[1].zoom is None


def stand_in(name, finals):
    """A stand-in LineResult of ``name`` with the final regrets ``finals``."""
    line = SimpleNamespace(dataset="cyclic", name=name, horizon=100)
    return SimpleNamespace(line=line, label=name.upper(), final=np.asarray(finals, float))


def test_ranking_rows_order_by_mean_and_apply_the_rule_to_each_pair():
    """Ranked by mean; row 1 holds "first lower than each other" (the worst pair), each other row its pair; the
    verdict against the reference on every other row, "not measured" if the reference is not among the curves."""
    low, mid, high = stand_in("a", [10, 11, 12, 13]), stand_in("b", [11, 12, 13, 14]), stand_in("c", [50, 51, 52, 53])
    entries = {"a": "a", "b": "b", "c": "c"}
    rows = panel_rows("(a) m", [high, mid, low], entries, "c", {}, None)
    assert [row["algorithm"] for row in rows] == ["a", "b", "c"] and [row["rank"] for row in rows] == [1, 2, 3]
    assert [row["verdict_first_lower"] for row in rows] == [NOT_SIGNIFICANT, NOT_SIGNIFICANT, HOLDS]
    assert [row["verdict_lower_than_against"] for row in rows] == [HOLDS, HOLDS, NO_VERDICT]
    reversed_ = panel_rows("(a) m", [low, high], entries, "a", {}, None)
    assert reversed_[1]["verdict_lower_than_against"] == FAILS
    missing = panel_rows("(a) m", [low, mid], entries, "c", {}, QUICK_PREFIX)  # marked as the claims tables are
    assert [row["verdict_lower_than_against"] for row in missing] == [f"{QUICK_PREFIX} ({NOT_MEASURED})"] * 2
    assert missing[0]["verdict_first_lower"] == f"{QUICK_PREFIX} ({NOT_SIGNIFICANT})"
    assert np.isnan(rows[0]["lower_bound_slope"])


def test_reused_lines_are_none_with_force_and_read_from_the_scripts_folders(tmp_path):
    """--force recomputes every line into the run's own folder; otherwise the folders are the figure scripts' for
    the run's scale (results/, results/quick/)."""
    from dts_reproduction.reproduce.harness.settings import Settings

    quick = Settings.library(quick=True, out=tmp_path)
    assert benchmark_plan.scripts_settings(quick).out == RESULTS / "quick"
    assert benchmark_plan.scripts_settings(Settings.library(out=tmp_path)).out == RESULTS
    assert benchmark_plan.reused_lines(benchmark_panels(["cyclic"], ("dts",)), replace(quick, force=True)) == {}
