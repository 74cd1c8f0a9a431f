"""bench/paper_cost.py: --measured prints the stored chunks' own records; --large-scale the study's estimates, with
--probe first measuring the probes they are made from."""

from dataclasses import replace

import pandas as pd
import pytest

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.config.paper import HORIZON, ROOT_SEED
from dts_reproduction.reproduce.harness.paths import RESULTS
from dts_reproduction.reproduce.harness.runner import load_line
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.studies.experiment import panel_curves
from dts_reproduction.reproduce.studies.paper_figures.diversity_figure import FIG5_STUDY
from tests.bench_scripts import bench_script


def _paper_cost():
    return bench_script("paper_cost")


def _rows(out: str) -> dict:
    """{(figure, store): [lines, missing, worker h, CPU h, no CPU, busy h, missing est. (nan for "-")]} from
    the printed table."""
    rows = {}
    for text in out.splitlines()[1:]:
        parts = text.split()
        if len(parts) >= 9 and parts[0].startswith("fig"):
            rows[parts[0], parts[1]] = [float(x) for x in parts[2:8]] + [float("nan" if parts[8] == "-" else parts[8])]
    return rows


def test_measured_hours_are_the_stored_records(tmp_path, capsys, monkeypatch):
    """Fig. 5's committed default lines: the worker hours printed are the sum of their chunks' records (they
    predate the CPU record, so their busy hours are those worker hours); an empty --fast store reports every
    line missing, zero hours, and as the estimate of the missing lines the busy hours of the default lines."""
    paper_cost = _paper_cost()
    monkeypatch.setattr(paper_cost, "STORES", (("defaults", RESULTS, False), ("--fast", tmp_path, True)))
    paper_cost.main(["--measured", "--figures", "fig5_diversity"])
    rows = _rows(capsys.readouterr().out)
    paper_scale = Settings.library(default_horizon=HORIZON)
    lines = {line for panel in FIG5_STUDY.panels for curve in panel_curves(panel, paper_scale) for line in curve}
    worker = sum(load_line(line, load_dataset(line.dataset), get_algorithm(line.algorithm), RESULTS, ROOT_SEED)
                 .meta["worker_seconds"] for line in lines) / 3600
    lines_count, missing, worker_h, cpu_h, no_cpu, busy_h, _ = rows["fig5_diversity", "defaults"]
    assert (lines_count, missing, cpu_h, no_cpu) == (len(lines), 0, 0.0, len(lines))
    assert abs(worker_h - worker) < 0.01 and busy_h == worker_h
    assert rows["fig5_diversity", "--fast"][:6] == [len(lines), len(lines), 0.0, 0.0, 0.0, 0.0]
    assert abs(rows["fig5_diversity", "--fast"][6] - worker) < 0.01


def test_busy_hours_are_cpu_hours_where_recorded():
    """A line's CPU hours if its chunks recorded them, else its worker hours (NaN CPU)."""
    busy_hours = _paper_cost().busy_hours
    assert busy_hours((2.0, 1.5)) == 1.5 and busy_hours((2.0, float("nan"))) == 2.0


def test_large_scale_prints_every_line_with_its_estimate_and_plan(capsys):
    """--large-scale: one row per line of the study plan of reproduce/large_scale.py, "unavailable" exactly for
    the unregistered algorithms, "-" as the estimate exactly where bench/step_cost.csv has no row, whether the
    plan takes it, and the totals of the planned and the over-budget estimates in the last line."""
    from dts_reproduction.reproduce.config.paper import LARGE_SCALE_CPU_HOURS, LARGE_SCALE_HORIZON
    from dts_reproduction.reproduce.studies.large_scale_study import large_scale_panels, large_scale_plan

    _paper_cost().main(["--large-scale"])
    out = capsys.readouterr().out.splitlines()
    paper_scale = Settings.library(default_horizon=LARGE_SCALE_HORIZON)
    costs = large_scale_plan.study_costs()
    _, plan = large_scale_plan.planned_panels(large_scale_panels.all_curves(paper_scale), costs,
                                              LARGE_SCALE_CPU_HOURS)
    rows = [text.split() for text in out[1:-1]]
    assert len(rows) == len(plan)
    totals = {True: 0.0, False: 0.0}
    for (line, planned), row in zip(plan.items(), rows, strict=True):
        assert row[0] == line.dataset
        assert ("unavailable" in row) == (not large_scale_panels.available(line))
        estimate = large_scale_plan.estimated_hours(line, costs)
        assert (row[-4] == "-") == (estimate != estimate) and row[-3] == ("yes" if planned else "no")
        totals[planned] += 0.0 if estimate != estimate else estimate
    assert 0 < totals[True] <= LARGE_SCALE_CPU_HOURS
    assert f"the plan takes {totals[True]:.1f} estimated CPU hours" in out[-1]
    assert f"would need {totals[False]:.1f} CPU hours more" in out[-1]


def test_probe_runs_and_their_extrapolation(monkeypatch):
    """``run_cost.probe_seconds`` times run 0 over probe / 10 and over probe slots after a 2-slot compile run;
    ``extrapolated_seconds`` extends the last 90 % of the probe's cost per slot to the horizon."""
    from dts_reproduction.reproduce.studies import run_cost

    calls, clock = [], iter([0.0, 1.5, 10.0, 16.0])
    monkeypatch.setattr(run_cost, "run_one", lambda dataset, spec, params, slots, run, seed, delay: calls.append(
        (slots, run, seed, delay)))
    monkeypatch.setattr(run_cost.time, "process_time", lambda: next(clock))
    assert run_cost.probe_seconds("dataset", "spec", {}, 10**6, 3) == (1.5, 6.0)
    assert calls == [(2, 0, 0, 3), (10**5, 0, 0, 3), (10**6, 0, 0, 3)]
    assert run_cost.extrapolated_seconds(1.5, 6.0, 10**6, 10**6) == 6.0
    assert run_cost.extrapolated_seconds(1.5, 6.0, 10**6, 10**7) == pytest.approx(6.0 + 9e6 * 4.5 / 9e5)
    assert run_cost.extrapolated_seconds(7.0, 6.0, 10**6, 10**7) == 6.0  # a noisy probe never lowers the estimate


def test_large_scale_probe_writes_one_row_per_missing_line_and_resumes(tmp_path, capsys, monkeypatch):
    """--large-scale --probe: each missing line of T >= the probe length gets one row (shared by its T = 1e8
    line), claim lines first, written as soon as it is measured; a stored line, a line the bench prices above
    --max-probe-seconds and a line already probed get none; the plan then takes its estimate from the row."""
    from dts_reproduction.reproduce.harness.runner import Line, line_key
    from dts_reproduction.reproduce.studies.large_scale_study import large_scale_plan

    paper_cost = _paper_cost()
    missing = Line("mslr136_navigational", "dts", 10**7, 50, (("sampling", "fast"),), "D-TS")
    long = replace(missing, horizon=10**8, tag="D-TS, T=1e8")
    dear = Line("mslr136_navigational", "dts_plus", 10**7, 50, (), "D-TS+ (indicators)")  # the bench's dearest
    cheap = Line("mslr136_navigational", "rmed1", 10**7, 50, (), "RMED1")  # cheaper, but no claim line
    stored = Line("mslr136_perfect", "merge_rucb", 10**7, 50, (), "MergeRUCB")
    costs = large_scale_plan.Costs(large_scale_plan.study_costs().steps,
                                   pd.DataFrame(columns=large_scale_plan.PROBE_COLUMNS))
    plan = {long: False, cheap: True, dear: False, missing: True, stored: True}
    monkeypatch.setattr(paper_cost, "study_plan", lambda: (costs, plan))
    # The store as the test needs it, whatever the committed results hold by now: only ``stored`` is stored.
    monkeypatch.setattr(paper_cost, "stored_hours", lambda lines, dataset: (0.1, 0.1) if lines == [stored] else None)
    probed = []
    monkeypatch.setattr(paper_cost, "probe_seconds", lambda dataset, spec, params, probe: probed.append(
        (dataset.name, spec.name, params, probe)) or (3.0, 12.0))
    bench_seconds = 1.1 * 3600 * large_scale_plan.estimated_hours(replace(dear, runs=1), costs)
    table = tmp_path / "probes.csv"
    paper_cost.probe_large_scale(10**7, bench_seconds - 1, table=table)
    assert probed == [("mslr136_navigational", "dts", {"sampling": "fast"}, 10**7),
                      ("mslr136_navigational", "rmed1", {}, 10**7)]  # the claim line's probe first
    rows = pd.read_csv(table)
    assert rows[["dataset", "line", "probe_slots", "tenth_cpu_seconds", "probe_cpu_seconds"]].values.tolist() == [
        ["mslr136_navigational", line_key(missing), 10**7, 3.0, 12.0],
        ["mslr136_navigational", line_key(cheap), 10**7, 3.0, 12.0]]
    with_probes = large_scale_plan.Costs(costs.steps, rows)
    assert large_scale_plan.estimated_hours(long, with_probes) == pytest.approx((12.0 + 9e7 * 9.0 / 9e6) * 50 / 3600)
    paper_cost.probe_large_scale(10**7, bench_seconds + 1, ["rucb"], table)  # no line of that name left
    paper_cost.probe_large_scale(10**7, bench_seconds + 1, table=table)  # resumes: only the dear line is new
    assert [name for _, name, _, _ in probed] == ["dts", "rmed1", "dts_plus"] and len(pd.read_csv(table)) == 3
    assert "probing 1 lines" in capsys.readouterr().out


def test_asymptotic_prints_every_line_cheapest_first_with_its_status(capsys):
    """--asymptotic: one row per line of the asymptotic study, in the order the study computes them (their
    estimated hours do not fall), a committed line as "stored", and the total of the missing ones; with
    --large-scale: exit 2."""
    from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_lines import PANELS

    _paper_cost().main(["--asymptotic"])
    lines = capsys.readouterr().out.splitlines()
    rows = [text.split() for text in lines[1:-1]]
    assert len(rows) == sum(len(panel.curves()) for panel in PANELS)
    hours = [float(row[-3]) for row in rows if row[-3] != "-"]
    assert hours == sorted(hours)
    assert any(row[:2] == ["cyclic", "dts"] and row[-2] == "stored" for row in rows)
    assert lines[-1].startswith("asymptotic: the missing lines need about")
    with pytest.raises(SystemExit) as stop:
        _paper_cost().main(["--asymptotic", "--large-scale"])
    assert stop.value.code == 2


def test_successors_prints_every_line_cheapest_first_with_its_estimate_and_what_stored_ones_took(capsys):
    """--successors: one row per planned line of the successors study, cheapest first by the cost model, a committed
    line as "stored" with its hours, and the totals; with --measured: exit 2."""
    from dts_reproduction.reproduce.harness.settings import Settings
    from dts_reproduction.reproduce.studies.successors_study import successors_panels, successors_plan

    _paper_cost().main(["--successors"])
    lines = capsys.readouterr().out.splitlines()
    rows = [text.split() for text in lines[1:-1]]
    planned = successors_plan.study_plan(successors_panels.PANELS,
                                         Settings.library(out=successors_panels.RESULTS_FOLDER))
    assert len(rows) == len(planned)
    hours = [float(row[-3]) for row in rows if row[-3] != "-"]
    assert hours == sorted(hours)
    assert any(row[:2] == ["cyclic", "ws_w"] and row[-2] == "stored" and float(row[-1]) > 0 for row in rows)
    assert lines[-1].startswith("successors: the stored lines took")
    with pytest.raises(SystemExit) as stop:
        _paper_cost().main(["--successors", "--measured"])
    assert stop.value.code == 2
