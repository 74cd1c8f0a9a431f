"""The successors study's plan before it computes: every line with its status and estimated cost (the benchmark's
``plan``, ``plan_table``: the CPU time of a line's own stored runs where some are stored, else the harness's one cost
model, ``reproduce.harness.cost``), checked against
--max-cpu-hours, and the order in which the lines to compute are computed: cheapest first, so that the lines that
finish soonest are stored (and can be committed) first."""

from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.studies.benchmark_study.benchmark_plan import TO_COMPUTE, PlannedLine, plan
from dts_reproduction.reproduce.studies.experiment import selected


def study_plan(panels, settings: Settings) -> list[PlannedLine]:
    """Every line of ``panels`` under ``settings`` with its status (``benchmark_plan.plan``; nothing is reused from
    the figure scripts' folders, whose runs were stored before the weak regret was kept); a line the line selection
    (--algorithms, --datasets) leaves out is computed by nobody: "missing" unless it is stored."""
    planned = plan(panels, settings, reused={})
    return [item if item.status != TO_COMPUTE or selected(item.line, settings)
            else PlannedLine(item.panel, item.line, item.dataset, "missing") for item in planned]


def cheapest_first(planned: list[PlannedLine]) -> list:
    """The lines of ``planned`` to compute, cheapest first by the estimated CPU seconds of their runs still to compute
    (``PlannedLine.cpu_seconds``: measured on their stored runs where some are, else the cost model's; a line without
    an estimate last), each once."""
    todo = {}
    for item in planned:
        if item.status == TO_COMPUTE:
            todo.setdefault(item.line, item.cpu_seconds)
    return sorted(todo, key=lambda line: todo[line] if todo[line] == todo[line] else float("inf"))
