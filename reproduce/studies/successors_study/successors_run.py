"""A run of the successors study (``reproduce/successors.py``): check the selection, print the plan with each line's
estimated cost, compute the lines not stored cheapest first (each complete on disk before the next begins), then
draw and tabulate from the stored lines."""

from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.tables import print_table, write_table
from dts_reproduction.reproduce.studies.benchmark_study.benchmark_plan import check_plan, plan_table
from dts_reproduction.reproduce.studies.experiment import final_table, simulate_panels
from dts_reproduction.reproduce.studies.successors_study.successors_panels import NAME, PANELS
from dts_reproduction.reproduce.studies.successors_study.successors_plan import cheapest_first, study_plan


def compute(settings: Settings) -> list:
    """Print the plan (``study_plan``, ``plan_table``), refuse it above --max-cpu-hours, then compute the lines to
    compute cheapest first and load the others; returns the panels' results, [(title, [LineResult])] (a curve not
    stored is left out)."""
    planned = study_plan(PANELS, settings)
    print_table(plan_table(planned))
    hours = check_plan(planned, settings.max_cpu_hours)
    order = cheapest_first(planned)
    print(f"to compute: {len(order)} of {len(planned)} lines, estimated {hours:.3g} CPU hours "
          f"(bench/step_cost.csv; compilation and start-up not counted), cheapest first", flush=True)
    return simulate_panels(NAME, PANELS, settings, order=lambda _todo: order)


def run_study(settings: Settings) -> None:
    """Compute (``compute``) and write ``<figures>/successors_final.csv``, the final regret of every stored line."""
    results = compute(settings)
    table = final_table(results)
    write_table(table, settings.figures / f"{NAME}_final.csv")
    print(f"wrote {NAME}_final.csv and {NAME}_lines.csv under {settings.figures}")
