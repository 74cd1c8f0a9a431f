"""reproduce/run.py with several datasets and matrices of one's own: one figure with a panel per dataset, tables that
name each line's dataset, and the slope of the lower bound drawn on every panel where it can be computed -- a matrix
file with a Condorcet winner (the Condorcet constant) and one without (the Copeland constant) alike."""

import numpy as np
import pandas as pd
import pytest

from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.output import plotting
from dts_reproduction.reproduce.studies.experiment import LOWER_BOUND_LABEL
from dts_reproduction.reproduce.studies.lower_bound import condorcet_lower_bound, copeland_lower_bound_and_exactness
from tests.scripts import run_script

TINY = ["--algorithms", "dts", "rmed1", "--runs", "2", "--horizon", "1000", "--n-jobs", "1", "--no-progress"]
# 3 arms, arm 0 the Condorcet winner; and 4 arms, 0-2 in a cycle (the Copeland winners, no Condorcet winner)
# beating arm 3, the one arm with regret.
CONDORCET = "0.5 0.7 0.8\n0.3 0.5 0.6\n0.2 0.4 0.5\n"
CYCLE = "0.5 0.7 0.3 0.8\n0.3 0.5 0.7 0.8\n0.7 0.3 0.5 0.8\n0.2 0.2 0.2 0.5\n"


def drawn(monkeypatch) -> list:
    """Patch ``plotting.save_figure`` to keep, for every figure saved, its visible panels as (title, [line labels])
    before saving it as usual."""
    kept, save = [], plotting.save_figure

    def keep_then_save(fig, stem):
        kept.append([(ax.get_title(), [line.get_label() for line in ax.lines]) for ax in fig.axes
                     if ax.get_visible() and ax.get_title()])
        save(fig, stem)

    monkeypatch.setattr(plotting, "save_figure", keep_then_save)
    return kept


def run(tmp_path, *datasets) -> pd.DataFrame:
    """run.py on ``datasets`` with the tiny plan, named "several"; its final-regret table."""
    run_script("reproduce/run.py", ["--dataset", *map(str, datasets), *TINY, "--name", "several",
                                    "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f")])
    return pd.read_csv(tmp_path / "f" / "several_final.csv")


def test_two_datasets_make_one_figure_of_two_panels(tmp_path, monkeypatch):
    figures = drawn(monkeypatch)
    final = run(tmp_path, "cyclic", "nc_cyclic")
    (panels,) = figures
    assert [title.split(" (")[0] for title, _labels in panels] == ["cyclic", "nc_cyclic"]
    assert all(labels[:2] == ["D-TS", "RMED1"] for _title, labels in panels)
    assert list(final["dataset"]) == ["cyclic", "cyclic", "nc_cyclic", "nc_cyclic"]
    curves = pd.read_csv(tmp_path / "f" / "several.csv")
    assert set(curves["dataset"]) == {"cyclic", "nc_cyclic"}
    assert {"cyclic", "nc_cyclic"} <= {path.name for path in (tmp_path / "r").iterdir()}


def test_the_bound_is_drawn_for_matrices_of_ones_own_with_and_without_a_condorcet_winner(tmp_path, monkeypatch):
    condorcet, cycle = tmp_path / "winner.txt", tmp_path / "cycle.txt"
    condorcet.write_text(CONDORCET)
    cycle.write_text(CYCLE)
    figures = drawn(monkeypatch)
    final = run(tmp_path, condorcet, cycle)
    (panels,) = figures
    assert all(LOWER_BOUND_LABEL in labels for _title, labels in panels), panels
    bounds = final.groupby("dataset", sort=False)[["lower_bound_slope", "lower_bound_model"]].first()
    expected_condorcet = condorcet_lower_bound(load_dataset(condorcet).P)
    expected_copeland, exact = copeland_lower_bound_and_exactness(load_dataset(cycle).P)
    assert exact and np.isfinite(expected_copeland) and expected_copeland > 0
    assert bounds["lower_bound_slope"].tolist() == pytest.approx([expected_condorcet, expected_copeland])
    assert [model.split(" ")[0] for model in bounds["lower_bound_model"]] == ["Condorcet", "Copeland"]
    assert f"C = {expected_condorcet:.3g}" in panels[0][0]


def test_a_dataset_given_twice_is_one_line_exit_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        run(tmp_path, "cyclic", "gap", "cyclic")
    assert stop.value.code == 2
    assert capsys.readouterr().err == "error: dataset 'cyclic' is given twice\n"
    assert list(tmp_path.iterdir()) == []
