"""reproduce/successors.py and its library (reproduce.studies.successors_study): the study's panels (every matrix of
Figs. 1, 3 and 4 at its paper horizon and run count, CW-RMED only within its arm limit), the baselines as the figure
scripts' --fast lines (and, once stored, bit for bit their runs), the cheapest-first order, and bad input."""

import numpy as np
import pytest

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.config.paper import ROOT_SEED, paper_runs
from dts_reproduction.reproduce.harness.paths import RESULTS
from dts_reproduction.reproduce.harness.runner import Line
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.studies.benchmark_study.benchmark_plan import TO_COMPUTE, PlannedLine
from dts_reproduction.reproduce.studies.experiment import panel_curves, stored_line
from dts_reproduction.reproduce.studies.paper_figures.condorcet_figure import FIG3_STUDY
from dts_reproduction.reproduce.studies.paper_figures.noncondorcet_figure import FIG4_STUDY
from dts_reproduction.reproduce.studies.paper_panels import FIG1_PANELS
from dts_reproduction.reproduce.studies.successors_study import successors_panels as panels
from dts_reproduction.reproduce.studies.successors_study.successors_plan import cheapest_first
from tests.scripts import run_script

SCRIPT = "reproduce/successors.py"
PAPER = Settings.library(out=panels.RESULTS_FOLDER, seed=ROOT_SEED)


def study_lines(settings: Settings = PAPER) -> list[Line]:
    """Every line of the study under ``settings``."""
    return [line for panel in panels.PANELS for curve in panel_curves(panel, settings) for line in curve]


def test_every_matrix_of_figs_1_3_4_once_condorcet_first_at_its_paper_scale():
    paper = {panel.dataset: panel for panel in (*FIG1_PANELS, *FIG3_STUDY.panels, *FIG4_STUDY.panels)
             if panel.metric == "regret"}
    assert sorted(panel.dataset for panel in panels.PANELS) == sorted(paper)
    winners = [load_dataset(panel.dataset).has_condorcet_winner for panel in panels.PANELS]
    assert winners == sorted(winners, reverse=True) and sum(winners) == 7
    for panel in panels.PANELS:
        K = load_dataset(panel.dataset).K
        curves = panel_curves(panel, PAPER)
        assert {line.runs for curve in curves for line in curve} == {paper_runs(K)}, panel.dataset
        assert max(line.horizon for curve in curves for line in curve) == (paper[panel.dataset].horizon or
                                                                           PAPER.default_horizon)


def test_cw_rmed_runs_only_within_its_arm_limit_and_every_other_algorithm_everywhere():
    limit = get_algorithm("cw_rmed").arm_limit[0]
    for panel in panels.PANELS:
        algorithms = [curve.algorithm for curve in panel.curves()]
        K = load_dataset(panel.dataset).K
        expected = [name for name in (*panels.BASELINES, *panels.SUCCESSORS) if name != "cw_rmed" or K <= limit]
        assert algorithms == expected, panel.dataset
    assert {panel.dataset for panel in panels.PANELS if "cw_rmed" in
            [curve.algorithm for curve in panel.curves()]} == {"mslr5_condorcet", "cyclic", "strong_borda", "arxiv",
                                                                "mslr5_noncondorcet", "nc_cyclic", "nc_strong_borda",
                                                                "gap"}


def fast_twins() -> dict[Line, Line]:
    """{study line: the figure scripts' --fast line of the same matrix and algorithm} for every baseline line."""
    fast = Settings.library(fast=True, seed=ROOT_SEED)
    paper = [line for panel in (*FIG1_PANELS, *FIG3_STUDY.panels, *FIG4_STUDY.panels) if panel.metric == "regret"
             for curve in panel_curves(panel, fast) for line in curve]
    by_name = {(line.dataset, line.algorithm, line.tag): line for line in paper}
    return {line: by_name.get((line.dataset, line.algorithm, "")) for line in study_lines()
            if line.algorithm in panels.BASELINES}


def test_each_baseline_line_is_the_figure_scripts_fast_line():
    """Same key, so the same runs: the study computes them again only for the weak regret."""
    twins = fast_twins()
    assert len(twins) == 4 * len(panels.PANELS)
    assert {(line.dataset, line.algorithm) for line, twin in twins.items() if twin is None} == \
        {("copeland500", "rmed1"), ("copeland500", "dts_plus")}  # Fig. 4(d) runs neither
    assert all(line == twin for line, twin in twins.items() if twin is not None)
    assert all(dict(line.params) == get_algorithm(line.algorithm).fast for line in twins)


def test_the_baselines_computed_again_are_bit_for_bit_the_fast_figures_runs():
    """Every baseline line stored both here and under results/fast/ has the same regret, run by run and checkpoint by
    checkpoint, and its weak regret (new here) is finite and at most its Copeland regret."""
    compared = 0
    for line, twin in fast_twins().items():
        if twin is None:
            continue
        ours = stored_line(line, panels.RESULTS_FOLDER, ROOT_SEED)
        theirs = stored_line(twin, RESULTS / "fast", ROOT_SEED)
        if ours is None or theirs is None:
            continue
        np.testing.assert_array_equal(ours.regret, theirs.regret, err_msg=f"{line.dataset} {line.name}")
        np.testing.assert_array_equal(ours.permutations, theirs.permutations)
        assert np.isfinite(ours.weak).all() and (ours.weak <= ours.regret + 1e-9).all()
        compared += 1
    assert compared >= 1, "no baseline line of the study is stored yet"


def test_lines_are_computed_cheapest_first_and_only_those_to_compute():
    dataset = load_dataset("cyclic")
    long, short = (Line("cyclic", "ws_s", horizon, 10) for horizon in (10**6, 10**3))
    stored = Line("cyclic", "rex3", 10**3, 10)
    planned = [PlannedLine("p", long, dataset, TO_COMPUTE), PlannedLine("p", stored, dataset, "stored"),
               PlannedLine("p", short, dataset, TO_COMPUTE)]
    assert cheapest_first(planned) == [short, long]


@pytest.mark.parametrize(("argv", "message"), [
    (["--algorithms", "nope"], "--algorithms: 'nope' has no line in the study"),
    (["--datasets", "mslr136_perfect"], "--datasets: 'mslr136_perfect' has no line in the study"),
])
def test_bad_selection_is_one_line_and_exit_2(argv, message, tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        run_script(SCRIPT, [*argv, "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f")])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "r").exists() and not (tmp_path / "f").exists()


def test_a_quick_selected_run_computes_only_its_lines_and_writes_the_final_table(tmp_path):
    run_script(SCRIPT, ["--quick", "--algorithms", "ws_s", "ws_w", "--datasets", "cyclic", "--n-jobs", "1",
                        "--no-progress", "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f")])
    final = (tmp_path / "f" / "quick" / f"{panels.NAME}_final.csv").read_text()
    assert "ws_s" in final and "ws_w" in final and "dts" not in final.replace("ws_", "")
    stored = sorted(path.name.split("_T")[0] for path in (tmp_path / "r" / "quick" / "cyclic").iterdir())
    assert stored == ["ws_s", "ws_w"]
