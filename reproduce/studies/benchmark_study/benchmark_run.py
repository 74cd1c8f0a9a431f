"""A run of the benchmark (``reproduce/benchmark.py``, its command line): check everything, print the plan with each
line's estimated cost, then simulate or read every line and write the figure, the ranking table and the report
together into the figures folder."""

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from dts_reproduction.reproduce.harness.atomic import atomic_group, write_text_atomic
from dts_reproduction.reproduce.harness.limits import check_output_files
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.tables import print_table, write_table
from dts_reproduction.reproduce.studies.benchmark_study.benchmark_panels import NAME, benchmark_panels
from dts_reproduction.reproduce.studies.benchmark_study.benchmark_plan import (
    ESTIMATE_BASIS,
    TO_COMPUTE,
    check_plan,
    plan,
    plan_table,
    reused_lines,
    scripts_settings,
)
from dts_reproduction.reproduce.studies.benchmark_study.benchmark_ranking import ranking_table
from dts_reproduction.reproduce.studies.benchmark_study.benchmark_report import report_text, reuse_text
from dts_reproduction.reproduce.studies.custom_runs import algorithm_curve
from dts_reproduction.reproduce.studies.experiment import evidence_note
from dts_reproduction.reproduce.studies.regret_panels import draw_regret_panels

# The panels a row of the figure holds (three: twelve matrices in four rows, a page at the figures' width).
COLUMNS = 3


@dataclass(frozen=True)
class Benchmark:
    """What ``run_benchmark`` wrote into ``folder``: the ranking table (``ranking``) and the report's text."""

    folder: Path
    ranking: pd.DataFrame
    report: str


def output_files(folder: Path) -> list[Path]:
    """Every file a benchmark writes into ``folder``: the figure (.png, .pdf, and .csv of its curves), the lines
    table, the ranking table and the report."""
    return [folder / f"{NAME}{suffix}" for suffix in (".png", ".pdf", ".csv", "_lines.csv", "_ranking.csv", ".md")]


def run_benchmark(params: dict, datasets, against: str | None, tier: str, settings: Settings,
                  command: str) -> Benchmark:
    """Benchmark the curve of every ``--algorithms`` entry of ``params`` ({entry: its ``--param`` overrides}, in the
    order given; ``custom_runs.algorithm_curve``) on ``datasets`` (None: the matrices of Figs. 3 and 4;
    ``benchmark_panels``) under ``settings`` (the tier's scale), ranking each matrix's algorithms with the verdicts
    against ``against`` (an entry of ``params``, or None).  Every input is checked first (a bad algorithm, preset,
    dataset or reference, or a file in the way: ValueError, nothing written); then the plan is printed, each line
    with its estimated cost, and refused above --max-cpu-hours; the lines the figure scripts' results folders hold
    are read there (``reused_lines``), the others computed into (or read from) ``settings.out``.  Writes
    ``output_files``, all or none of them; ``command`` (the command line) goes into the report."""
    curves = tuple(algorithm_curve(entry, overrides, shuffle=True) for entry, overrides in params.items())
    entries = {curve.tag or curve.algorithm: entry for curve, entry in zip(curves, params, strict=True)}
    if against is not None and against not in params:
        raise ValueError(f"--against {against!r} is not one of --algorithms ({', '.join(params)})")
    panels = benchmark_panels(datasets, curves)
    check_output_files(output_files(settings.figures), "output file")
    reused = reused_lines(panels, settings)
    planned = plan(panels, settings, reused)
    print_table(plan_table(planned))
    hours = check_plan(planned, settings.max_cpu_hours)
    print(f"to compute: {sum(item.status == TO_COMPUTE for item in planned)} of {len(planned)} lines, estimated "
          f"{hours * 3600:.3g} CPU seconds ({ESTIMATE_BASIS}); "
          f"{len(reused)} lines reused from {scripts_settings(settings).out}", flush=True)
    note = evidence_note(settings, panels)
    with atomic_group(settings.figures):  # the figure, its tables and the report appear together, or none of them
        results, final_regrets = draw_regret_panels(NAME, panels, settings, ncols=min(COLUMNS, len(panels)),
                                                    stacked_titles=len(panels) >= COLUMNS, known=reused)
        ranking = ranking_table(results, entries, against, final_regrets, note)
        write_table(ranking, settings.figures / f"{NAME}_ranking.csv")
        commits = sorted({commit for _title, found in results for res in found
                          for commit in res.meta.get("commits", [])})
        report = report_text(ranking, list(params), tier, note, command, commits,
                             reuse_text(reused, scripts_settings(settings).out))
        write_text_atomic(settings.figures / f"{NAME}.md", report)
    return Benchmark(settings.figures, ranking, report)
