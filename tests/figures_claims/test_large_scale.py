"""reproduce/large_scale.py, run as a script, and its library (the package reproduce.studies.large_scale_study:
large_scale_panels, _plan, _claims, _figures): the line plan (protocol, fast
paths, nested subsets), the rule for unregistered algorithms (listed as unavailable, claims not measured), the cost
estimate from bench/step_cost.csv, the MergeDTS regret factor, bad input, and a study line through the figures'
shared step (experiment.simulate_lines)."""

import math
from dataclasses import replace
from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.claims.verdict import NOT_MEASURED
from dts_reproduction.reproduce.config.paper import (
    LARGE_SCALE_HORIZON,
    LARGE_SCALE_LONG_HORIZON,
    LARGE_SCALE_RUNS,
)
from dts_reproduction.reproduce.harness import seeds
from dts_reproduction.reproduce.harness.runner import Line, run_one
from dts_reproduction.reproduce.studies import experiment
from dts_reproduction.reproduce.studies.large_scale_study import large_scale_claims as ls_claims
from dts_reproduction.reproduce.studies.large_scale_study import large_scale_figures as ls_figures
from dts_reproduction.reproduce.studies.large_scale_study import large_scale_panels as ls_panels
from dts_reproduction.reproduce.studies.large_scale_study import large_scale_plan as ls_plan
from tests.scripts import run_script

SCRIPT = "reproduce/large_scale.py"


def test_mslr_lines_follow_the_protocol_with_fast_paths():
    lines = ls_panels.mslr_lines("mslr136_perfect", LARGE_SCALE_RUNS, LARGE_SCALE_HORIZON)
    by_tag = {line.tag: line for line in lines}
    assert all(line.runs == 50 and line.shuffle for line in lines)
    assert by_tag["D-TS"].params == (("sampling", "fast"),)
    assert by_tag["D-TS (best)"].params == (("alpha", 0.8**7), ("sampling", "fast"))
    assert by_tag["RCS"].params == (("sampling", "knockout"), ("skip", "exact"))
    assert by_tag["MergeDTS (best)"].params == (("C", 4e5), ("alpha", 0.8**6), ("batch_size", 16),
                                                ("sampling", "indicators"))
    long = {line.tag for line in lines if line.horizon == LARGE_SCALE_LONG_HORIZON}
    assert long == {f"{tag}, T=1e8" for tag in ls_panels.LONG_TAGS}
    # Quick or scaled-down runs have no T = 1e8 lines.
    assert all(line.horizon == 10_000 for line in ls_panels.mslr_lines("mslr136_perfect", 20, 10_000))


def test_nested_panel_reuses_the_perfect_lines_at_k136():
    nested = ls_panels.nested_lines(LARGE_SCALE_RUNS, LARGE_SCALE_HORIZON)
    perfect = set(ls_panels.mslr_lines("mslr136_perfect", LARGE_SCALE_RUNS, LARGE_SCALE_HORIZON))
    assert {line for line in nested if line.dataset == "mslr136_perfect"} <= perfect
    assert [load_dataset(name).K for name in ls_panels.NESTED] == [8, 16, 32, 64, 136]


def test_copeland500_run_counts():
    curves = ls_panels.copeland500_curves(None, 10**6)
    runs = {curve[0].algorithm: curve[0].runs for curve in curves}
    assert {name for name, count in runs.items() if count == 100} == set(ls_panels.MANY_RUNS_500)
    assert len(curves) == 16 and set(runs.values()) == {10, 100}
    assert len(next(curve for curve in curves if curve[0].algorithm == "btm")) > 1  # the horizon grid


def bench_costs(steps: dict) -> ls_plan.Costs:
    """A ``Costs`` with these bench rows and no probe."""
    return ls_plan.Costs(pd.DataFrame(steps), pd.DataFrame(columns=ls_plan.PROBE_COLUMNS))


def probe_row(line: Line, probe: int, tenth: float, whole: float) -> dict:
    """A probe-table row of ``line`` at ``probe`` slots."""
    return {"dataset": line.dataset, "line": ls_plan.probe_line_key(line, probe), "probe_slots": probe,
            "tenth_cpu_seconds": tenth, "probe_cpu_seconds": whole, "load_average": 1.0, "measured": "-",
            "commit": "-"}


def test_a_probe_of_the_line_on_its_own_matrix_overrides_the_bench():
    steps = {"algorithm": ["dts"], "options": ["sampling=fast"], "K": [136], "ns_later": [20000.0],
             "ns_whole": [math.nan], "whole_slots": [0]}
    line = Line("mslr136_perfect", "dts", 10**7, 50, (("sampling", "fast"),), "D-TS")
    long = replace(line, horizon=10**8, tag="D-TS, T=1e8")
    probes = pd.DataFrame([probe_row(line, 10**7, 9.0, 12.0), probe_row(line, 10**6, 5.0, 9.0),
                           probe_row(replace(line, dataset="mslr136_navigational"), 10**7, 1.0, 1.0)])
    costs = ls_plan.Costs(pd.DataFrame(steps), probes)
    # At its own horizon: the probe's whole run, 12 s a run; at 1e8 the last 90 % of the longest probe's slots
    # (3 s per 9e6) extended: 12 + 9e7 * 3 / 9e6 = 42 s a run.
    assert ls_plan.estimated_hours(line, costs) == pytest.approx(12.0 * 50 / 3600)
    assert ls_plan.estimated_hours(long, costs) == pytest.approx(42.0 * 50 / 3600)
    # Another line (other parameters: another key), or a shorter horizon than every probe: the bench.
    best = replace(line, params=(("alpha", 0.8 ** 7), ("sampling", "fast")))
    assert ls_plan.estimated_hours(best, costs) == pytest.approx(20000e-9 * 1e7 * 50 / 3600)
    assert ls_plan.estimated_hours(replace(line, horizon=10**5), costs) == pytest.approx(20000e-9 * 1e5 * 50 / 3600)
    assert ls_plan.estimated_hours(line, bench_costs(steps)) == pytest.approx(20000e-9 * 1e7 * 50 / 3600)


def test_budget_rule_and_cost_estimate():
    assert ls_plan.within_budget(0.5, 1.0) and not ls_plan.within_budget(1.5, 1.0)
    assert not ls_plan.within_budget(math.nan, 1.0) and ls_plan.within_budget(math.nan, math.inf)
    costs = bench_costs({"algorithm": ["rucb", "rucb"], "options": ["skip=exact", "skip=exact"], "K": [32, 136],
                         "ns_later": [100.0, 1000.0], "ns_whole": [float("nan"), 5000.0], "whole_slots": [0, 200_000]})
    line = Line("mslr135_informational_cdc", "rucb", 10**7, 50, (("skip", "exact"),))
    # nearest K: 136; the first 2e5 slots at the whole-run mean, the rest at the later cost
    assert ls_plan.estimated_hours(line, costs) == pytest.approx((2e5 * 5000 + 9.8e6 * 1000) * 1e-9 * 50 / 3600)
    assert ls_plan.estimated_hours(replace(line, dataset="mslr_perfect_k32"), costs) == \
        pytest.approx(100e-9 * 1e7 * 50 / 3600)  # no whole-run mean: the later cost throughout
    assert math.isnan(ls_plan.estimated_hours(Line("mslr136_perfect", "rucb", 10, 1), costs))  # "-" not benchmarked


def test_mergedts_regret_is_half_the_g2w():
    # The MergeDTS authors add 0.5 (gap(a1) + gap(a2)) a slot; the harness's G2W adds gap(a1) + gap(a2).  Replay
    # one stored-style run slot by slot through the policy and sum both.
    ds = load_dataset("mslr5_condorcet")
    spec = get_algorithm("rucb")
    row = run_one(ds, spec, {}, 500, 0, 3, shuffle=False)
    rng = seeds.algorithm_rng(3, ds.name, 0, spec.name, None)
    state, gap, total = spec.make_state(5), ds.P[ds.condorcet_winner] - 0.5, 0.0
    for t in range(1, 501):
        a1, a2 = spec.select(state, t, rng)
        spec.update(state, a1, a2, rng.random() < ds.P[a1, a2], t)
        total += 0.5 * (gap[a1] + gap[a2])
    assert total == pytest.approx(ls_claims.GAP_AVERAGE_FACTOR * row["g2w"][-1], rel=1e-12)


def test_unregistered_algorithms_are_unavailable_and_their_claims_not_measured(tmp_path, monkeypatch):
    """A registry without the merge algorithms (e.g. a trimmed copy): their lines are listed as unavailable,
    every claim reads not measured, and --plot-only writes no results.  (One line is stored first: with none,
    --plot-only has nothing to draw and refuses.)"""
    run_script(SCRIPT, ["--quick", "--no-progress", "--algorithms", "rmed1", "--datasets", "mslr_perfect_k8",
                        "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f")])
    stored = {path: path.stat().st_mtime_ns for path in (tmp_path / "r").rglob("*")}
    registered = {name: spec for name, spec in ls_panels.ALGORITHMS.items() if not name.startswith("merge_")}
    monkeypatch.setattr(ls_panels, "ALGORITHMS", registered)
    run_script(SCRIPT, ["--quick", "--plot-only", "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f")])
    lines = pd.read_csv(tmp_path / "f" / "quick" / "large_scale_lines.csv")
    merge = lines[lines["algorithm"].isin(["merge_dts", "merge_rucb"])]
    assert len(merge) and set(merge["status"]) == {"unavailable"}
    assert set(lines["status"]) == {"unavailable", "missing", "stored"}
    claims = pd.read_csv(tmp_path / "f" / "quick" / "large_scale_claims.csv")
    assert claims["verdict"].str.contains(NOT_MEASURED).all()
    assert {path: path.stat().st_mtime_ns for path in (tmp_path / "r").rglob("*")} == stored  # --plot-only wrote none


@pytest.mark.parametrize("flag,value", [("--max-hours", "0"), ("--max-hours", "soon"), ("--runs", "0"),
                                        ("--algorithms", "dts_fast"), ("--datasets", "mslr5_condorcet")])
def test_bad_input_is_one_line_and_exit_2(tmp_path, flag, value, capsys):
    with pytest.raises(SystemExit) as exit_:
        run_script(SCRIPT, ["--plot-only", flag, value, "--figures", str(tmp_path / "f")])
    out, err = capsys.readouterr()
    assert exit_.value.code == 2 and err.count("\n") == 1 and err.startswith("error: ") and flag in err
    assert out == "" and not (tmp_path / "f").exists()


def test_algorithms_and_datasets_narrow_what_is_computed(tmp_path):
    """--algorithms and --datasets together compute exactly their lines (quick scale); every other line is only
    listed."""
    run_script(SCRIPT, ["--quick", "--no-progress", "--algorithms", "rmed1", "--datasets", "mslr_perfect_k8",
                        "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f")])
    assert [path.name for path in (tmp_path / "r" / "quick").iterdir()] == ["mslr_perfect_k8"]
    lines = pd.read_csv(tmp_path / "f" / "quick" / "large_scale_lines.csv")
    stored = lines[lines["status"] == "stored"]
    assert list(zip(stored["dataset"], stored["algorithm"], strict=True)) == [("mslr_perfect_k8", "rmed1")]


def test_study_plan_puts_claim_lines_first_then_cheapest_within_the_budget():
    costs = bench_costs({"algorithm": ["dts", "rucb", "rmed1"], "options": ["sampling=fast", "skip=exact", "-"],
                         "K": [136] * 3, "ns_later": [4000.0, 100.0, 50.0], "ns_whole": [math.nan] * 3,
                         "whole_slots": [0] * 3})
    claim = Line("mslr136_perfect", "dts", 10**7, 50, (("sampling", "fast"),), "D-TS")
    cheap = Line("mslr136_perfect", "rucb", 10**7, 50, (("skip", "exact"),), "RUCB")
    cheaper = replace(cheap, dataset="mslr136_navigational")
    unestimated = Line("mslr136_perfect", "rmed1", 10**7, 50, (("skip", "exact"),), "RMED1")
    hours = {line: ls_plan.estimated_hours(line, costs) for line in (claim, cheap)}
    # Room for the claim line and one RUCB line: the claim line is planned although it is the dearest.
    plan = ls_plan.study_plan([cheap, unestimated, claim, cheaper], costs, hours[claim] + 1.5 * hours[cheap])
    assert plan == {claim: True, cheap: True, cheaper: False, unestimated: False}
    assert all(ls_plan.study_plan([cheap, unestimated, claim], costs, math.inf).values())
    # Without room for the claim line, cheaper lines still fill the budget.
    assert ls_plan.study_plan([claim, cheap], costs, 1.5 * hours[cheap]) == {claim: False, cheap: True}


def test_claim_lines_are_the_claim_tags_and_their_condorcet_t_1e8_lines():
    dts = Line("mslr136_perfect", "dts", 10**7, 50, (("sampling", "fast"),), "D-TS")
    long = replace(dts, horizon=10**8, tag="D-TS" + ls_panels.LONG_SUFFIX)
    informational = replace(dts, dataset="mslr136_informational")
    assert ls_plan.is_claim_line(dts) and ls_plan.is_claim_line(long) and ls_plan.is_claim_line(informational)
    assert not ls_plan.is_claim_line(replace(long, dataset="mslr136_informational"))  # L2 is at T = 1e7 only
    assert not ls_plan.is_claim_line(replace(dts, dataset="mslr_perfect_k64"))  # a nested subset
    assert not ls_plan.is_claim_line(replace(dts, algorithm="rucb", tag="RUCB" + ls_panels.LONG_SUFFIX))


def test_a_500_armed_line_over_budget_is_drawn_from_the_papers_run_count():
    costs = ls_plan.study_costs()
    panels = {"(e)": ls_panels.copeland500_curves(None, 10**6)}
    drawn, plan = ls_plan.planned_panels(panels, costs, budget=1.0)
    dts = [line for line in plan if line.algorithm == "dts"]
    assert {line.runs for line in dts} == {ls_panels.MANY_RUNS, 10} and not plan[max(dts, key=lambda line: line.runs)]
    assert [curve[0].runs for curve in drawn["(e)"] if curve[0].algorithm == "dts"] == [10]
    planned = [line for line, chosen in plan.items() if chosen]
    assert sum(ls_plan.estimated_hours(line, costs) for line in planned) <= 1.0


def test_panel_e_ranks_the_regret_at_the_horizon_lowest_at_the_top():
    """Panel (e): one row per curve at its last checkpoint, lowest regret at the top, the run count named only
    where it differs from the panel's usual one."""
    rows = [("D-TS", "dts", 10, [5.0, 250.0]), ("SCB", "scb", 100, [5.0, 500.0]), ("RMED1", "rmed1", 10, [5.0, 350.0])]
    frame = pd.DataFrame([{"label": label, "algorithm": algorithm, "t": t, "mean_regret": mean, "ci95_low": mean - 1,
                           "ci95_high": mean + 1, "runs": runs}
                          for label, algorithm, runs, means in rows for t, mean in zip((10, 100), means, strict=True)])
    results = [SimpleNamespace(label=label, line=Line("copeland500", algorithm, 100, runs))  # what ``style`` reads
               for label, algorithm, runs, _ in rows]
    fig, ax = plt.subplots()
    ls_figures.ranking_axes(ax, frame, results, "(e)")
    labels = [tick.get_text() for tick in ax.get_yticklabels()]
    plt.close(fig)
    assert labels == ["SCB (100 runs)", "RMED1", "D-TS"]  # bottom to top: the lowest regret is the top row
    assert ax.get_title() == "(e) (10 runs)"


def test_regret_per_slot_reads_one_decade_of_the_mean_curve():
    """A plain reference: on a log grid with a run of linear regret 0.25 a slot and one of 0.75, the rate of each
    decade is 0.5 (the mean); a curve that is flat over the last decade reads 0 there and its rate before it; a
    decade the grid does not reach (T = 10: no checkpoint at or below 0.1) is NaN."""
    t = np.array([1, 3, 10, 30, 100, 300, 1000])
    linear = SimpleNamespace(checkpoints=t, regret=np.vstack([0.25 * t, 0.75 * t]))
    assert ls_claims.regret_per_slot(linear) == pytest.approx(0.5)
    assert ls_claims.regret_per_slot(linear, 1) == pytest.approx(0.5)
    flat = SimpleNamespace(checkpoints=t, regret=np.minimum(t, 100.0)[None, :].astype(float))
    assert ls_claims.regret_per_slot(flat) == 0.0 and ls_claims.regret_per_slot(flat, 1) == pytest.approx(1.0)
    # Between checkpoints the rate is read from the last checkpoint at or below each end of the decade.
    off_grid = SimpleNamespace(checkpoints=np.array([1, 7, 70, 999]), regret=np.array([[0.0, 7.0, 14.0, 20.0]]))
    assert ls_claims.regret_per_slot(off_grid) == pytest.approx((20.0 - 14.0) / (999 - 70))
    short = SimpleNamespace(checkpoints=np.array([1, 3, 10]), regret=np.array([[1.0, 2.0, 3.0]]))
    assert ls_claims.regret_per_slot(short) == pytest.approx((3.0 - 1.0) / 9)
    assert math.isnan(ls_claims.regret_per_slot(short, 1))


def test_a_study_line_is_computed_and_drawn_through_the_figures_shared_step(tmp_path, monkeypatch):
    """The study computes its chosen lines through experiment.simulate_lines (one run_lines call per line) and, with
    --plot-only, computes nothing and lists the same stored line."""
    calls, real = [], experiment.run_lines

    def spy(lines, *args, **kwargs):
        calls.append(list(lines))
        return real(lines, *args, **kwargs)

    monkeypatch.setattr(experiment, "run_lines", spy)
    argv = ["--quick", "--no-progress", "--n-jobs", "1", "--algorithms", "rmed1", "--datasets", "mslr_perfect_k8",
            "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f")]
    run_script(SCRIPT, argv)
    assert [[(line.dataset, line.algorithm) for line in lines] for lines in calls] == [[("mslr_perfect_k8", "rmed1")]]
    table = (tmp_path / "f" / "quick" / "large_scale_lines.csv").read_bytes()
    calls.clear()
    run_script(SCRIPT, [*argv, "--plot-only"])
    assert calls == [] and (tmp_path / "f" / "quick" / "large_scale_lines.csv").read_bytes() == table
