"""The large-scale study run: the lines its plan takes within the CPU budget computed (or only loaded), the figure
drawn and its tables written (``run_study``), under the ``Settings`` the command line (``reproduce/large_scale.py``)
or a library caller gives.  Its lines are simulated, stored and loaded by the figures' shared step
(``reproduce.studies.experiment.simulate_lines``)."""

import math
import sys

import pandas as pd

from dts_reproduction.reproduce.claims.registry import LARGE_SCALE
from dts_reproduction.reproduce.claims.verdict import QUICK_PREFIX, REDUCED_PREFIX
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.tables import OVER_BUDGET, print_table, write_table
from dts_reproduction.reproduce.studies.experiment import (
    panel_results,
    require_stored,
    selected,
    simulate_lines,
    write_claims,
)
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_claims import claims, final_rows
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_figures import plot
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_panels import all_curves, available
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_plan import (
    estimated_hours,
    lines_table,
    planned_panels,
    study_costs,
    within_budget,
)


def simulate(settings: Settings, budget: float, max_hours: float) -> tuple[dict, pd.DataFrame]:
    """Compute the lines of the study plan under ``budget`` CPU hours (--budget) that ``settings`` selects and whose
    estimate is at most ``max_hours`` (--max-hours), cheapest first, one at a time, unless --plot-only, then load
    every stored line, through ``experiment.simulate_lines``; returns {panel: [LineResult]} (the curves whose lines
    are all stored) and the lines table (``large_scale_plan.lines_table``).  ValueError if --plot-only finds no line
    stored (nothing to draw: ``experiment.require_stored``)."""
    costs = study_costs()
    panels, plan = planned_panels(all_curves(settings), costs, budget)
    flat = list(plan)
    chosen = [line for line in flat if available(line) and plan[line]
              and selected(line, settings)
              and within_budget(estimated_hours(line, costs), max_hours)]
    chosen.sort(key=lambda line: (math.isnan(estimated_hours(line, costs)), estimated_hours(line, costs)))
    stored = {**dict.fromkeys(flat),  # an unavailable line: None, never computed or loaded
              **simulate_lines(LARGE_SCALE, {line: settings.out for line in flat if available(line)}, settings,
                               computed=chosen)}
    if settings.plot_only:  # otherwise the selected lines were computed: a study selecting none still draws its table
        require_stored(LARGE_SCALE, stored, [settings.out])
    drawn, _missing = panel_results(list(panels), list(panels.values()), stored)
    table = lines_table(flat, plan, stored, costs)
    over = table[table["status"] == OVER_BUDGET]
    if len(over):
        print(f"note: {len(over)} lines do not fit the study's {budget:g} CPU hours (--budget); by the estimate "
              f"they would need {over['estimated_cpu_hours'].sum():.0f} CPU hours more (large_scale_lines.csv)",
              file=sys.stderr)
    absent = table[~table["status"].isin(["stored", OVER_BUDGET])]
    if len(absent):
        print(f"note: {len(absent)} lines not drawn: " + "; ".join(
            f"{row.dataset} {row.tag} T={row.horizon} ({row.status})" for row in absent.itertuples()), file=sys.stderr)
    return dict(drawn), table


def run_study(settings: Settings, budget: float, max_hours: float) -> None:
    """Simulate (or load) the study's lines (``simulate``), then write under ``settings.figures`` its lines table
    (``large_scale_lines.csv``), its figure (``large_scale.png``, ``.pdf``, ``.csv``: ``plot``), its final table
    (``large_scale_final.csv``) and its claims (``large_scale_claims.csv``, marked as no evidence for a quick or
    reduced run); prints the lines and the claims tables and what it wrote.  ValueError as ``simulate``."""
    results, lines = simulate(settings, budget, max_hours)
    stem = settings.figures / LARGE_SCALE
    write_table(lines, stem.with_name(f"{LARGE_SCALE}_lines.csv"))
    plot(results, stem)
    write_table(final_rows(results), stem.with_name(f"{LARGE_SCALE}_final.csv"))
    note = QUICK_PREFIX if settings.quick else (REDUCED_PREFIX if settings.runs or settings.horizon_given else None)
    checks = write_claims(claims(results), stem.with_name(f"{LARGE_SCALE}_claims.csv"), note)
    print_table(lines[["dataset", "tag", "horizon", "runs", "status", "estimated_cpu_hours", "seconds_per_run"]])
    print_table(checks.drop(columns="statement"))
    print(f"wrote {stem}.png, .pdf, .csv")
