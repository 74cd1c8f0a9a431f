"""The benchmark's plan before it runs: which lines the repository's own stored runs already hold (``reused_lines``:
the figure scripts' results folders, so that at the paper tier the paper's algorithms cost nothing and only the
user's are computed), where every line's runs come from (``plan``), each line's estimated cost (``plan_table``, the
harness's one cost model, ``reproduce.harness.cost``), checked against --max-cpu-hours before anything starts
(``check_plan``)."""

import math
from dataclasses import dataclass, replace

import pandas as pd

from dts_reproduction.data import Dataset, load_dataset
from dts_reproduction.reproduce.harness.cost import check_plan_cost, measured_run_seconds, run_seconds
from dts_reproduction.reproduce.harness.runner import Line, line_seconds, stored_records
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.studies.experiment import curves_and_stores, note_unchecked_code, stored_lines

TO_COMPUTE = "to compute"
# What the plan's total estimate rests on, as the scripts print it after the total.
ESTIMATE_BASIS = ("a partly stored line at its stored runs' CPU time, any other at bench/step_cost.csv; compilation "
                  "and start-up not counted")


def scripts_settings(settings: Settings) -> Settings:
    """``settings`` with the results folders the figure scripts use for its scale (``Settings.library``'s defaults
    with its quick and fast flags: ``results/``, ``results/quick/``, ``results/fast/``...)."""
    scripts = Settings.library(quick=settings.quick, fast=settings.fast)
    return replace(settings, out=scripts.out, default_out=scripts.default_out)


def reused_lines(panels, settings: Settings) -> dict:
    """{line: LineResult} of the lines of ``panels`` under ``settings`` that the figure scripts' results folders
    (``scripts_settings``) hold whole and unchanged: read there, never computed or written again.  None with
    --force (which recomputes every line into the run's own folder).  The benchmark only loads them, so, as a study
    draws a line it only loads, a line not known to come from the code as it is now is drawn as stored and named on
    stderr (``note_unchecked_code``; docs/harness.md, "What a stored line knows of its code")."""
    if settings.force:
        return {}
    found = stored_lines(panels, scripts_settings(settings))
    note_unchecked_code(found)
    return found


def _stored(line, dataset, folder, seed: int) -> bool:
    """Whether every chunk of ``line`` is stored under ``folder`` for ``seed`` (their records only: the runs are
    checked when they are loaded)."""
    try:
        line_seconds(line, dataset, folder, seed)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class PlannedLine:
    """One line of the plan: the title of its panel, the line, its matrix and where its runs come from: "reused"
    (``reused_lines``), "stored" (in its own results folder), TO_COMPUTE, or "missing" where nothing is computed
    (--plot-only, --stored-only); for a line TO_COMPUTE of which some chunks are stored (a run stopped and resumed),
    ``stored_runs`` is how many runs they hold and ``measured_run_seconds`` the CPU seconds one of them took
    (``cost.measured_run_seconds``; NaN if none is stored)."""

    panel: str
    line: Line
    dataset: Dataset
    status: str
    stored_runs: int = 0
    measured_run_seconds: float = math.nan

    @property
    def runs_to_compute(self) -> int:
        """The runs of the line still to compute (none unless TO_COMPUTE)."""
        return self.line.runs - self.stored_runs if self.status == TO_COMPUTE else 0

    @property
    def cpu_seconds(self) -> float:
        """The estimated CPU seconds of ``runs_to_compute``: at the CPU seconds a stored run of the line took where
        some are stored, else at the cost model's (``cost.run_seconds``)."""
        runs = self.runs_to_compute
        return runs * run_seconds(self.line, self.dataset, self.measured_run_seconds) if runs else 0.0


def plan(panels, settings: Settings, reused: dict) -> list[PlannedLine]:
    """Every line of ``panels`` under ``settings`` (``curves_and_stores``) with its status (``PlannedLine``; a line of
    ``reused`` is "reused", with --force every other line is computed)."""
    curves, stores = curves_and_stores(panels, settings)
    planned = []
    for panel, panel_curves in zip(panels, curves, strict=True):
        dataset = load_dataset(panel.dataset)
        for line in (line for curve in panel_curves for line in curve):
            if line in reused:
                status = "reused"
            elif not settings.force and _stored(line, dataset, stores[line], settings.seed):
                status = "stored"
            else:
                status = "missing" if settings.plot_only or settings.stored_only else TO_COMPUTE
            if status == TO_COMPUTE and not settings.force:
                records = stored_records(line, dataset, stores[line], settings.seed)
                stored_runs = sum(stop - start for start, stop in (meta["config"]["runs"] for meta in records))
                planned.append(PlannedLine(panel.title, line, dataset, status, stored_runs,
                                           measured_run_seconds(records)))
            else:
                planned.append(PlannedLine(panel.title, line, dataset, status))
    return planned


def plan_table(planned: list[PlannedLine]) -> pd.DataFrame:
    """Per planned line: its panel, name, runs, horizon, status, the runs still to compute, their estimated CPU
    seconds (``PlannedLine.cpu_seconds``; 0 if none) and what the estimate rests on: "stored runs" (the CPU time of
    the line's own stored runs), "model" (bench/step_cost.csv) or "-"."""
    return pd.DataFrame([{"panel": item.panel, "line": item.line.name, "runs": item.line.runs,
                          "horizon": item.line.horizon, "status": item.status, "to_run": item.runs_to_compute,
                          "cpu_seconds": item.cpu_seconds,
                          "estimate": "-" if not item.runs_to_compute else
                          "stored runs" if math.isfinite(item.measured_run_seconds) else "model"}
                         for item in planned])


def check_plan(planned: list[PlannedLine], max_cpu_hours: float) -> float:
    """The estimated CPU hours of the runs still to compute of the planned lines TO_COMPUTE (``runs_to_compute``,
    each at ``cost.run_seconds``); ValueError of one line (``check_plan_cost``: the estimate, the costliest line and
    the flag that raises the bound) if they exceed ``max_cpu_hours``."""
    todo = [item for item in planned if item.runs_to_compute]
    return check_plan_cost([(item.line, item.dataset, item.runs_to_compute) for item in todo], max_cpu_hours,
                           measured={item.line: item.measured_run_seconds for item in todo})
