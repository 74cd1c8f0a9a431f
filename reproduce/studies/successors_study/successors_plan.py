"""The successors study's plan before it computes: every line with its status and estimated cost (the benchmark's
``plan``, ``plan_table``: the harness's one cost model, ``reproduce.harness.cost``), checked against
--max-cpu-hours, and the order in which the lines to compute are computed: cheapest first, so that the lines that
finish soonest are stored (and can be committed) first."""

from dts_reproduction.reproduce.harness.cost import estimated_line_seconds
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
    """The lines of ``planned`` to compute, cheapest first by their estimated CPU seconds
    (``estimated_line_seconds``; a line without an estimate last), each once."""
    todo = {item.line: item.dataset for item in planned if item.status == TO_COMPUTE}

    def seconds(line) -> float:
        """The line's estimate, inf if unknown (sorted last)."""
        value = estimated_line_seconds(line, todo[line])
        return value if value == value else float("inf")
    return sorted(todo, key=seconds)
