"""The large-scale study's plan: what each line is estimated to cost (``estimated_hours``, from a probe of the line
on its own matrix or the bench's per-slot costs) and which lines the study computes within its CPU budget
(``study_plan``, ``planned_panels``: the claim lines first, then the cheapest), and the table of every line's status
(``lines_table``)."""

import math
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from dts_reproduction.reproduce.config.paper import LONG_SUFFIX, RUNS_K_GT_100
from dts_reproduction.reproduce.harness import portable_math
from dts_reproduction.reproduce.harness.cost import options_text
from dts_reproduction.reproduce.harness.paths import BENCH_TABLE, PROBE_TABLE
from dts_reproduction.reproduce.harness.runner import Line, line_key
from dts_reproduction.reproduce.output.tables import NOT_STORED, OVER_BUDGET
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_panels import (
    CONDORCET_MATRICES,
    COPELAND500,
    MSLR_MATRICES,
    arms,
    available,
)
from dts_reproduction.reproduce.studies.run_cost import extrapolated_seconds

# The lines the claims L1 and L2 compare (at T = 1e7 on the MSLR panels, and their T = 1e8 lines on the Condorcet
# panels: ``is_claim_line``): planned before every other line.
CLAIM_TAGS = ("D-TS", "MergeDTS", "MergeDTS (best)", "MergeRUCB", "MergeRUCB (best)")


class Costs(NamedTuple):
    """What the study's estimates are made from: ``steps``, bench/step_cost.csv (ns per slot by algorithm,
    options and K, on the bench's own matrices); ``probes``, bench/large_scale_probes.csv (two probe runs of a
    line on its own matrix, ``reproduce.studies.run_cost``; columns ``PROBE_COLUMNS``), which takes precedence."""

    steps: pd.DataFrame
    probes: pd.DataFrame


PROBE_COLUMNS = ("dataset", "line", "probe_slots", "tenth_cpu_seconds", "probe_cpu_seconds", "load_average",
                 "measured", "commit")


def study_costs(steps: Path = BENCH_TABLE, probes: Path = PROBE_TABLE) -> Costs:
    """The two cost tables (``Costs``); no probe table is an empty one."""
    probe_table = pd.read_csv(probes) if probes.exists() else pd.DataFrame(columns=PROBE_COLUMNS)
    return Costs(pd.read_csv(steps), probe_table)


def probe_line_key(line: Line, probe: int) -> str:
    """The ``line`` column of a probe row of ``line``: the stored-line key (``line_key``) of the same line at the
    probe's horizon (so the T = 1e8 line of a tag shares the probe of its T = 1e7 line)."""
    return line_key(replace(line, horizon=probe))


def line_probe(line: Line, probes: pd.DataFrame) -> pd.Series | None:
    """The row of ``probes`` (bench/large_scale_probes.csv) measured for ``line``, at the longest probe length up to
    its horizon; None if it has none (or its algorithm is not registered)."""
    if not available(line):
        return None
    own = [row for _, row in probes[(probes["dataset"] == line.dataset) & (probes["probe_slots"] <= line.horizon)]
           .iterrows() if row["line"] == probe_line_key(line, int(row["probe_slots"]))]
    return max(own, key=lambda row: row["probe_slots"]) if own else None


def estimated_hours(line: Line, costs: Costs) -> float:
    """CPU hours of the line's runs.  From a probe of the line on its own matrix where ``costs.probes`` has one
    at a probe length up to its horizon (the longest): ``run_cost.extrapolated_seconds`` per run.  Otherwise from
    bench/step_cost.csv at the nearest measured K: the mean ns per slot of a whole run from slot 1 (``ns_whole``,
    over ``whole_slots``) for its first slots and the ns per slot after the warm-up (``ns_later``) for the rest;
    NaN where the algorithm or its options were not benchmarked.  For lines whose slots keep getting cheaper with
    t (the fast paths) both are upper estimates, the bench's by far: its runs are too short to reach the slots a
    converged run skips."""
    probe = line_probe(line, costs.probes)
    if probe is not None:
        seconds = extrapolated_seconds(probe["tenth_cpu_seconds"], probe["probe_cpu_seconds"],
                                       int(probe["probe_slots"]), line.horizon)
        return seconds * line.runs / 3600
    K = arms(line.dataset)
    steps = costs.steps
    rows = steps[(steps["algorithm"] == line.algorithm) & (steps["options"] == options_text(line.algorithm,
                                                                                        line.params))]
    if rows.empty:
        return math.nan
    row = rows.iloc[int(np.argmin(np.abs(portable_math.log(rows["K"].to_numpy() / K))))]
    first = min(line.horizon, row["whole_slots"]) if np.isfinite(row["ns_whole"]) else 0
    ns = first * row["ns_whole"] + (line.horizon - first) * row["ns_later"] if first else \
        line.horizon * row["ns_later"]
    return float(ns) * 1e-9 * line.runs / 3600


def is_claim_line(line: Line) -> bool:
    """Whether the claims L1 and L2 compare the line: a ``CLAIM_TAGS`` line of an MSLR panel at T = 1e7, or its
    T = 1e8 line on a panel with a Condorcet winner (L1 compares MergeDTS and D-TS at 1e8 too)."""
    tag = line.tag.removesuffix(LONG_SUFFIX)
    matrices = MSLR_MATRICES if tag == line.tag else CONDORCET_MATRICES
    return tag in CLAIM_TAGS and line.dataset in dict(matrices)


def study_plan(lines: list[Line], costs: Costs, budget: float) -> dict[Line, bool]:
    """Whether each line is part of the study under ``budget`` CPU hours (``--budget``): the claim lines (``CLAIM_TAGS``
    on the MSLR panels at T = 1e7) first, then every other line, each group cheapest first by ``estimated_hours``,
    taken while the running sum stays within the budget (a line that does not fit is skipped, a cheaper later one
    may still fit).  A line without an estimate is planned only under an unlimited budget.  Stored lines count like
    the others, so the plan depends on the code and the cost tables (``Costs``), never on how far the
    computation got."""
    def order(line):
        """Claim lines first, then by estimate (none last)."""
        hours = estimated_hours(line, costs)
        return (not is_claim_line(line), math.isnan(hours), hours)

    plan, spent = {}, 0.0
    for line in sorted(lines, key=order):
        hours = estimated_hours(line, costs)
        plan[line] = math.isinf(budget) or (not math.isnan(hours) and spent + hours <= budget)
        spent += hours if plan[line] and not math.isnan(hours) else 0.0
    return plan


def planned_panels(panels: dict, costs: Costs, budget: float) -> tuple[dict, dict[Line, bool]]:
    """The panels and the plan of every line in them (``study_plan``; unavailable lines are not planned).  A
    100-run line of panel (e) that does not fit is drawn from its first ``RUNS_K_GT_100`` runs, the paper's count
    (for D-TS the paper's Fig. 4(d) runs); the 100-run line stays in the plan, not planned, so that its need is
    listed."""
    flat = list(dict.fromkeys(line for curves in panels.values() for curve in curves for line in curve))
    plan = study_plan([line for line in flat if available(line)], costs, budget)
    fewer = {line: replace(line, runs=RUNS_K_GT_100) for line in flat
             if available(line) and not plan[line] and line.dataset == COPELAND500 and line.runs > RUNS_K_GT_100}
    if fewer:
        panels = {title: [[fewer.get(line, line) for line in curve] for curve in curves]
                  for title, curves in panels.items()}
        drawn = list(dict.fromkeys(line for curves in panels.values() for curve in curves for line in curve))
        plan = {**study_plan([line for line in drawn if available(line)], costs, budget),
                **dict.fromkeys(fewer, False)}
    return panels, {line: plan.get(line, False) for line in dict.fromkeys([*plan, *flat])}


def within_budget(hours: float, max_hours: float) -> bool:
    """Whether a line of ``hours`` estimated CPU hours is computed under --max-hours: at most the limit, or no
    estimate (NaN) and no limit (inf)."""
    return hours <= max_hours or (math.isnan(hours) and math.isinf(max_hours))


def lines_table(lines, plan: dict[Line, bool], results: dict, costs: Costs) -> pd.DataFrame:
    """One row per line of the study: its status (stored; missing if planned, over budget if not; unavailable if its
    algorithm is not registered), runs, estimated CPU hours and, if stored, the seconds its runs took and the commits
    that computed them (``results``: {line: LineResult or None})."""
    rows = []
    for line in lines:
        result = results.get(line)
        status = "unavailable" if not available(line) else "stored" if result is not None else \
            "missing" if plan[line] else OVER_BUDGET
        meta = result.meta if result is not None else {}
        rows.append({"dataset": line.dataset, "line": line_key(line) if available(line) else line.algorithm,
                     "tag": line.name, "algorithm": line.algorithm, "horizon": line.horizon, "runs": line.runs,
                     "status": status, "estimated_cpu_hours": estimated_hours(line, costs),
                     "worker_seconds": meta.get("worker_seconds", math.nan),
                     "seconds_per_run": meta.get("worker_seconds", math.nan) / line.runs,
                     "cpu_seconds": meta.get("cpu_seconds", math.nan),
                     "commits": " ".join(meta.get("commits", [NOT_STORED]))})
    return pd.DataFrame(rows)
