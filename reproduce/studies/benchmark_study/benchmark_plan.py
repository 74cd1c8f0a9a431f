"""The benchmark's plan before it runs: which lines the repository's own stored runs already hold (``reused_lines``:
the figure scripts' results folders, so that at the paper tier the paper's algorithms cost nothing and only the
user's are computed), where every line's runs come from (``plan``), each line's estimated cost (``plan_table``, the
harness's one cost model, ``reproduce.harness.cost``), checked against --max-cpu-hours before anything starts
(``check_plan``)."""

from dataclasses import dataclass, replace

import pandas as pd

from dts_reproduction.data import Dataset, load_dataset
from dts_reproduction.reproduce.harness.cost import check_plan_cost, estimated_line_seconds
from dts_reproduction.reproduce.harness.runner import Line, line_seconds
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.studies.experiment import curves_and_stores, note_unchecked_code, stored_lines

TO_COMPUTE = "to compute"


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
    (--plot-only, --stored-only)."""

    panel: str
    line: Line
    dataset: Dataset
    status: str


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
            planned.append(PlannedLine(panel.title, line, dataset, status))
    return planned


def plan_table(planned: list[PlannedLine]) -> pd.DataFrame:
    """Per planned line: its panel, name, runs, horizon, status and the estimated CPU seconds of its runs if it is to
    be computed (``estimated_line_seconds``; 0 otherwise)."""
    return pd.DataFrame([{"panel": item.panel, "line": item.line.name, "runs": item.line.runs,
                          "horizon": item.line.horizon, "status": item.status,
                          "cpu_seconds": estimated_line_seconds(item.line, item.dataset)
                          if item.status == TO_COMPUTE else 0.0} for item in planned])


def check_plan(planned: list[PlannedLine], max_cpu_hours: float) -> float:
    """The estimated CPU hours of the planned lines TO_COMPUTE; ValueError of one line (``check_plan_cost``: the
    estimate, the costliest line and the flag that raises the bound) if they exceed ``max_cpu_hours``."""
    return check_plan_cost([(item.line, item.dataset, item.line.runs) for item in planned
                            if item.status == TO_COMPUTE], max_cpu_hours)
