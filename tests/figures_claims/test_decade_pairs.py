"""Theorem 2's parts decade by decade (reproduce/studies/asymptotic_study/decade_pairs.py) and the runs that switch a
partner (reproduce/studies/asymptotic_study/partner_runs.py): the classes of comparisons worked by hand on Cyclic, the
rates of a class, the committed split against the stored runs (its classes add up to the stored regret at every decade
end), and the switch threshold by hand."""

import math

import numpy as np
import pandas as pd
import pytest

from dts_reproduction.core.bound_allocation import kl_to_half
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.paths import ROOT
from dts_reproduction.reproduce.studies.asymptotic_study import decade_pairs, partner_runs
from dts_reproduction.reproduce.studies.lower_bound import pair_regrets

FIGURES = ROOT / "figures"


def test_strongest_superiors_on_cyclic_are_the_cyclic_neighbours():
    """Cyclic: arm 1 (index 0) beats all; arm 2 is beaten by arm 4 with 0.9 (and by the winner with 0.6), arm 3 by
    arm 2, arm 4 by arm 3: each cyclic arm's strongest superior is the cyclic arm that beats it, not the winner."""
    P = load_dataset("cyclic").P
    assert decade_pairs.strongest_superiors(P).tolist() == [-1, 3, 1, 2]


def test_the_classes_split_every_comparison_once():
    """On every Condorcet matrix up to K = 32: each pair of different arms is in exactly one of the three pair
    classes, and ``self`` is the diagonal."""
    for name in ("cyclic", "strong_borda", "arxiv", "sushi", "mslr5_condorcet", "mslr16_condorcet", "mslr32_condorcet"):
        P = load_dataset(name).P
        masks = decade_pairs.pair_class_masks(P)
        pairs = masks["winner"].astype(int) + masks["superior"] + masks["other"]
        off = ~np.eye(P.shape[0], dtype=bool)
        assert (pairs[off] == 1).all() and (pairs[~off] == 0).all(), name
        assert (masks["self"] == np.eye(P.shape[0], dtype=bool)).all()
        for mask in masks.values():
            assert (mask == mask.T).all()


def test_class_rates_read_a_regret_growing_like_c_ln_t_as_c():
    """A class whose regret is 3 ln t + 5 ln ln t at every decade end gains 3 ln 10 + 5 ln(ln t / ln(t / 10)) per
    decade: its rate is 3 plus the ln ln t term's share, and the last decade's span is ln(2**53 / 1e15)."""
    ends = [10**k for k in range(3, 16)] + [2**53]
    rows = pd.DataFrame([{"run": run, "decade_end": end, "winner": 3 * math.log(end) + 5 * math.log(math.log(end))}
                         for run in range(2) for end in ends])
    got_ends, rates = decade_pairs.class_rates(rows, "winner")
    assert got_ends.tolist() == ends[1:]
    expected = [3 + 5 * math.log(math.log(b) / math.log(a)) / math.log(b / a)
                for a, b in zip(ends, ends[1:], strict=False)]
    np.testing.assert_allclose(rates, [expected] * 2, rtol=1e-12)


def test_the_committed_split_adds_up_to_the_stored_regret():
    """figures/asymptotic_decade_pairs.csv: on every split line, the four classes add up, at every decade end, to the
    line's stored mean regret there (``asymptotic.csv`` holds R(t) / ln t per decade end for the logarithmic runs of
    every line; the split's runs are the line's first, so the check is on the split's own sum: each run's total is
    non-decreasing and the superior class is empty where no strongest superior is another arm)."""
    rows = pd.read_csv(FIGURES / "asymptotic_decade_pairs.csv")
    assert set(rows["algorithm"]) >= {"dts", "rmed1"}
    total = rows[list(decade_pairs.PAIR_CLASSES)].sum(axis=1)
    for _, line in rows.assign(total=total).groupby(["panel", "algorithm", "run"]):
        assert (np.diff(line.sort_values("decade_end")["total"].to_numpy()) >= -1e-9).all()
    parts = pd.read_csv(FIGURES / "asymptotic_decade_parts.csv")
    none = parts[(parts["superiors_not_winner"] == 0) & (parts["part"] == "superior")]
    assert (none["limit"].fillna(0) == 0).all() and (none["last_decade"] == 0).all()


def test_decade_regrets_refuse_a_stored_run_they_do_not_reproduce():
    """Simulated again, a run must end at its stored R(t) at every decade end: an edited stored curve is refused,
    naming the run and t."""
    from dataclasses import replace

    from dts_reproduction.algorithms.base import MAX_EXACT_HORIZON
    from dts_reproduction.reproduce.config.paper import ROOT_SEED
    from dts_reproduction.reproduce.harness.paths import RESULTS
    from dts_reproduction.reproduce.harness.settings import Settings
    from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_lines import PANELS
    from dts_reproduction.reproduce.studies.experiment import panel_curves, stored_line
    panel = next(panel for panel in PANELS if panel.dataset == "cyclic")
    paper_scale = Settings.library(default_horizon=MAX_EXACT_HORIZON, fast=True)
    line = next(curve[0] for curve in panel_curves(panel, paper_scale) if curve[0].name == "RMED2 (paper)")
    result = stored_line(line, RESULTS, ROOT_SEED)
    dataset = load_dataset("cyclic")
    regrets = decade_pairs.decade_pair_regrets(dataset, result, 2, "(a)")
    assert regrets.shape == (2, len(decade_pairs.decade_ends(result.line.horizon)), len(decade_pairs.PAIR_CLASSES))
    edited = result.regret.copy()
    edited[1, -1] += 1.0
    with pytest.raises(ValueError, match=r"run 1 re-simulated to R\(9007199254740992\)"):
        decade_pairs.decade_pair_regrets(dataset, replace(result, arrays={**result.arrays, "regret": edited}), 2, "(a)")


def test_switch_threshold_on_cyclic_by_hand():
    """C = 3 x (2/3) / KL(0.1, 1/2); switching one cyclic arm to the winner costs (1/3) / KL(0.4, 1/2) - (2/3) /
    KL(0.1, 1/2) more: the threshold is C plus half that."""
    P = load_dataset("cyclic").P
    regret, information = pair_regrets(P), kl_to_half(P)
    partner_cost = regret[1, 3] / information[1, 3]
    winner_cost = regret[1, 0] / information[1, 0]
    assert partner_runs.switch_threshold(P) == pytest.approx(3 * partner_cost + 0.5 * (winner_cost - partner_cost))
    assert math.isnan(partner_runs.switch_threshold(load_dataset("sushi").P))


def test_the_committed_switched_runs_of_rmed2_on_cyclic_stop_comparing_a_partner():
    """figures/asymptotic_partner_runs.csv holds what docs/asymptotic.md#rmed2-with-the-papers-sign-on-cyclic says:
    on Cyclic a minority of RMED2 (paper)'s runs is above the switch threshold while its median run is below it,
    those runs compare some arm with its optimal partner far less often than the others, and the optimal oracle (the
    control) has no run above it."""
    table = pd.read_csv(FIGURES / "asymptotic_partner_runs.csv")
    cyclic = table[table["dataset"] == "cyclic"].set_index("algorithm")
    rmed2 = cyclic.loc["RMED2 (paper)"]
    assert 0 < rmed2["runs_above_threshold"] < rmed2["runs"] / 2
    assert rmed2["median_run_slope"] < rmed2["switch_threshold"]
    assert rmed2["partner_comparisons_above"] * 5 < rmed2["partner_comparisons_below"]
    assert cyclic.loc["Oracle: optimal partners", "runs_above_threshold"] == 0


def test_tables_without_rows_keep_their_columns(tmp_path):
    """A smoke run can leave the split and the switched runs without a row; their files must still be tables the
    report can read (a header line), not empty files."""
    from dts_reproduction.reproduce.output.tables import read_table, write_table
    tables = {"parts": decade_pairs.class_limit_rows(decade_pairs.decade_pair_rows([], [])),
              "partners": partner_runs.partner_switch_rows([], [])}
    for name, table in tables.items():
        write_table(table, tmp_path / f"{name}.csv")
        assert list(read_table(tmp_path / f"{name}.csv").columns) == list(table.columns) and len(table.columns)
