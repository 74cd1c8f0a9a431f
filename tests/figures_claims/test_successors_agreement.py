"""The successors against public code (reproduce/studies/successors_agreement.py, docs/fidelity.md#successors): the
committed comparison comes out as recorded (the same algorithms agree, the different ones differ), a shifted line
is caught, and the statistic is the textbook one."""

import math

import numpy as np
import pandas as pd
import pytest

from dts_reproduction.reproduce.studies import successors_agreement as successors


@pytest.fixture(scope="module")
def committed():
    """The committed runs and record, and the comparison table they give."""
    runs = pd.read_csv(successors.RUNS)
    return runs, successors.comparisons(runs)


def test_the_same_algorithms_agree_and_each_different_one_differs_somewhere(committed):
    # A difference by design need not be visible on every matrix (duelpy's WS-S on Sushi is not).
    _, table = committed
    assert len(table) and set(table.expected) == {successors.SAME, successors.DIFFERENT}
    assert (table[table.expected == successors.SAME].verdict == "agrees").all()
    different = table[table.expected == successors.DIFFERENT]
    assert (different.groupby("project").verdict.apply(lambda verdicts: (verdicts == "differs").any())).all()


def test_a_shifted_line_is_caught(committed):
    # The project's REX3 runs on one matrix made 15 % worse: that cell, and only it, turns to "differs".
    runs, table = committed
    cell = table[table.project == "rex3"].iloc[0]
    shifted = runs.copy()
    chosen = (shifted.source == successors.PROJECT) & (shifted.line == "rex3") & (shifted.matrix == cell.matrix)
    shifted.loc[chosen, "final"] *= 1.15
    again = successors.comparisons(shifted)
    changed = again.verdict != table.verdict
    assert changed.sum() == 1 and again[changed].iloc[0].matrix == cell.matrix


def test_difference_is_welch():
    ours, theirs = np.array([1.0, 2.0, 3.0, 4.0]), np.array([2.0, 4.0, 6.0])
    row = successors.difference(ours, theirs)
    se = math.sqrt(np.var(ours, ddof=1) / 4 + np.var(theirs, ddof=1) / 3)
    assert row["se_difference"] == pytest.approx(se) and row["z"] == pytest.approx((2.5 - 4.0) / se)
    assert row["mean_ours"] == 2.5 and row["mean_theirs"] == 4.0 and row["runs_ours"] == 4
    assert 0.0 < row["p"] < 1.0
