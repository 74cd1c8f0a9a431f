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
