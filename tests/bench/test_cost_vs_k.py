"""bench/cost_vs_k.py: every registered algorithm has exactly one panel, and a table with an unplaced algorithm is
refused."""

import pandas as pd
import pytest

from dts_reproduction.algorithms import ALGORITHMS
from tests.bench_scripts import bench_script


@pytest.fixture(scope="module")
def cost_vs_k():
    return bench_script("cost_vs_k")


def test_every_algorithm_is_drawn_in_exactly_one_panel(cost_vs_k):
    placed = [algorithm for _, family in cost_vs_k.panels() for algorithm in family]
    assert sorted(placed) == sorted(ALGORITHMS)


def test_an_algorithm_missing_from_the_panels_is_refused_before_drawing(cost_vs_k, monkeypatch, tmp_path):
    monkeypatch.setattr(cost_vs_k, "ALGORITHMS", {name: spec for name, spec in ALGORITHMS.items() if name != "btm"})
    frame = pd.DataFrame({"algorithm": ["btm"], "options": ["-"], "path": ["default"], "K": [5], "ns_later": [1.0],
                          "cpp_ns": [float("nan")], "beta_ns": [30.0]})
    with pytest.raises(ValueError, match="not placed: \\['btm'\\]"):
        cost_vs_k.plot(frame, tmp_path / "cost_vs_k")
    assert not list(tmp_path.iterdir())


def test_the_committed_figure_table_is_drawn_from_the_committed_step_costs(cost_vs_k):
    """figures/cost_vs_k.csv is what the script makes of bench/step_cost.csv: a row added to the table without the
    redraw fails here, in the default suite, not only at CI's make all-figures."""
    drawn = pd.read_csv(cost_vs_k.FIGURES / f"{cost_vs_k.NAME}.csv")
    expected = cost_vs_k.cost_table(pd.read_csv(cost_vs_k.BENCH_TABLE)).reset_index(drop=True)
    pd.testing.assert_frame_equal(drawn, expected, check_dtype=False, rtol=1e-9)
