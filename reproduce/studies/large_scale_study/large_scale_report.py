"""The large-scale study as the report sees it: its record, ``LARGE_SCALE_STUDY`` (``reproduce.studies.study.Study``,
registered in ``reproduce.studies.study_registry``), and its section of REPORT.md, on its lines over budget."""

from pathlib import Path

import pandas as pd

from dts_reproduction.reproduce.claims.registry import LARGE_SCALE
from dts_reproduction.reproduce.config.paper import LARGE_SCALE_CPU_HOURS
from dts_reproduction.reproduce.output.tables import OVER_BUDGET, load_tables, markdown_table
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_panels import MSLR_MATRICES
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_reasons import LARGE_SCALE_REASONS
from dts_reproduction.reproduce.studies.study import Study


def over_budget_table(folder: Path) -> pd.DataFrame:
    """The lines of every ``_lines.csv`` table in ``folder`` whose status is OVER_BUDGET (the large-scale study's
    lines that do not fit its CPU budget), cheapest first: figure, matrix, line, T, runs and the CPU hours each
    would need by its estimate."""
    rows = []
    for stem, lines in load_tables(folder, "_lines.csv").items():
        if "status" in lines:
            rows += [{"figure": stem, "matrix": row.dataset, "line": row.tag, "T": row.horizon, "runs": row.runs,
                      "estimated CPU hours": row.estimated_cpu_hours}
                     for row in lines[lines["status"] == OVER_BUDGET].itertuples()]
    table = pd.DataFrame(rows)
    return table.sort_values("estimated CPU hours", kind="stable") if len(table) else table

def over_budget_section(folder: Path, docs: str) -> list[str]:
    """The report's section on the lines over budget (``over_budget_table``), with what they would need together;
    no lines over budget: nothing."""
    table = over_budget_table(folder)
    if not len(table):
        return []
    hours = float(table["estimated CPU hours"].sum())
    return ["## Lines over the study's budget", "",
            f"{len(table)} lines do not fit the large-scale study's budget of {LARGE_SCALE_CPU_HOURS:g} CPU hours "
            f"({LARGE_SCALE_CPU_HOURS / 2:g} hours on 2 cores, `--budget`) and are not computed. By their estimates "
            f"they would need {hours:.0f} CPU hours more, {hours / 2:.0f} hours on 2 cores ([how lines are estimated "
            f"and planned]({docs}docs/experiments.md#large-scale-past-the-paper)).", "", markdown_table(table), ""]

# Its panels (a)-(d) are its matrices' (``large_scale_claims`` attaches its claims by matrix); (e) and (f) carry no
# claim and no id.
LARGE_SCALE_STUDY = Study(LARGE_SCALE, "make large-scale FORCE=1",
                          titled_ids=tuple((title, dataset) for dataset, title in MSLR_MATRICES),
                          report_section=over_budget_section, reasons=LARGE_SCALE_REASONS)
