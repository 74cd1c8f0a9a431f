"""A run of the successors study (``reproduce/successors.py``): print the plan with each line's estimated cost,
compute C2B's and CW-RMED's long lines (minutes) and then the lines not stored cheapest first (each complete on disk
before the next begins), then draw and tabulate from the stored lines and decide the claims."""

import sys

from dts_reproduction.reproduce.claims.registry import ASYMPTOTIC
from dts_reproduction.reproduce.claims.verdict import Missing, log_slope
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.tables import print_table, read_table, write_table
from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_figures import ratio_figure
from dts_reproduction.reproduce.studies.benchmark_study.benchmark_plan import ESTIMATE_BASIS, check_plan, plan_table
from dts_reproduction.reproduce.studies.experiment import (
    evidence_note,
    panel_results,
    selected,
    simulate_lines,
    simulate_panels,
    write_claims,
)
from dts_reproduction.reproduce.studies.lower_bound_cache import lower_bound
from dts_reproduction.reproduce.studies.successors_study.successors_claims import CW_RMED_FIT_SPAN, claims, long_slope
from dts_reproduction.reproduce.studies.successors_study.successors_figure import RATIO_LABELS, plot, ratio_table
from dts_reproduction.reproduce.studies.successors_study.successors_panels import (
    ASYMPTOTIC_HORIZONS,
    NAME,
    PANELS,
    anytime_long_lines,
    asymptotic_curves,
    batch_lines,
    matrix_columns,
)
from dts_reproduction.reproduce.studies.successors_study.successors_plan import cheapest_first, study_plan
from dts_reproduction.reproduce.studies.successors_study.successors_tables import final_rows, long_rows

QUICK_LONG_HORIZONS = (10**3, 10**4, 10**5)  # the smoke run's long lines (three decades: one fitted slope)
ASYMPTOTIC_FINAL = f"{ASYMPTOTIC}_final.csv"  # the asymptotic study's table the slope-ratio figure extends


def long_lines(settings: Settings) -> dict:
    """C2B's long lines (``asymptotic_curves``; the smoke run's at QUICK_LONG_HORIZONS) computed where selected and not
    stored (unless --plot-only or --stored-only), else loaded: {panel title: its curve combined over the horizons, or
    None if some line is not stored}."""
    curves = asymptotic_curves(settings.runs, QUICK_LONG_HORIZONS if settings.quick else ASYMPTOTIC_HORIZONS)
    flat = [line for lines in curves.values() for curve in lines for line in curve]
    found = simulate_lines(NAME, dict.fromkeys(flat, settings.out), settings,
                           computed=[line for line in flat if selected(line, settings)])
    drawn, _missing = panel_results(list(curves), list(curves.values()), found)
    return {title: (combined[0] if combined else None) for title, combined in drawn}


def anytime_long(settings: Settings) -> dict:
    """The anytime long lines (``anytime_long_lines``; the smoke run's to the last of QUICK_LONG_HORIZONS) computed
    where selected and not stored (unless --plot-only or --stored-only), else loaded: {long-table name: {panel title:
    LineResult or None if not stored}}."""
    horizon = {"horizon": QUICK_LONG_HORIZONS[-1]} if settings.quick else {}
    lines = anytime_long_lines(settings.runs, **horizon)
    flat = [line for by_title in lines.values() for line in by_title.values()]
    found = simulate_lines(NAME, dict.fromkeys(flat, settings.out), settings,
                           computed=[line for line in flat if selected(line, settings)])
    return {name: {title: found[line] for title, line in by_title.items()} for name, by_title in lines.items()}


def batch_counts(settings: Settings) -> dict:
    """C2B's batch-counting lines (``batch_lines``) computed where selected and not stored (unless --plot-only or
    --stored-only), else loaded: {panel title: LineResult or None if not stored}."""
    lines = batch_lines(settings)
    found = simulate_lines(NAME, dict.fromkeys(lines.values(), settings.out), settings,
                           computed=[line for line in lines.values() if selected(line, settings)])
    return {title: found[line] for title, line in lines.items()}


def compute(settings: Settings) -> list:
    """Print the plan (``study_plan``, ``plan_table``), refuse it above --max-cpu-hours, then compute the lines to
    compute cheapest first and load the others; returns the panels' results, [(title, [LineResult])] (a curve not
    stored is left out)."""
    planned = study_plan(PANELS, settings)
    print_table(plan_table(planned))
    hours = check_plan(planned, settings.max_cpu_hours)
    order = cheapest_first(planned)
    print(f"to compute: {len(order)} of {len(planned)} lines, estimated {hours:.3g} CPU hours "
          f"({ESTIMATE_BASIS}), cheapest first", flush=True)
    return simulate_panels(NAME, PANELS, settings, order=lambda _todo: order)


def draw_ratio(long: dict, anytime: dict, bounds: dict, figures, stem) -> None:
    """``<stem>_ratio.png``: the asymptotic study's slope-ratio figure (``asymptotic_figures.ratio_figure``) extended by
    C2B's fitted slope of its long lines and, for CW-RMED and WS-S, the slope over the last five decades of their
    anytime long lines (``anytime``: ``anytime_long``'s) (``successors_figure.ratio_table``; ``bounds``: {matrix: C}),
    from the asymptotic study's final table in ``figures`` (as ``make all-figures`` draws it first); without that
    table, nothing is drawn (a note says so)."""
    path = figures / ASYMPTOTIC_FINAL
    if not path.exists():
        print(f"note: {path} not found (draw the asymptotic study first): {NAME}_ratio.png not drawn", file=sys.stderr)
        return
    fits = {name: {} for name in RATIO_LABELS}
    for result in long.values():
        if result is not None:
            try:
                fits["c2b"][result.line.dataset] = long_slope(result)
            except Missing:
                continue
    for name in fits.keys() & anytime.keys():
        for result in anytime[name].values():
            if result is not None:
                fits[name][result.line.dataset] = log_slope(result, span=CW_RMED_FIT_SPAN)
    ratio_figure(ratio_table(read_table(path), long_rows(long, bounds, anytime), fits), stem)


def run_study(settings: Settings) -> None:
    """C2B's long lines (``long_lines``), the anytime ones (``anytime_long``) and C2B's batch counts
    (``batch_counts``), then every other line (``compute``);
    then write under ``settings.figures``
    ``successors_final.csv`` (``final_rows``), ``successors_long.csv`` (``long_rows``), the figure
    (``successors_figure.plot``) and ``successors_claims.csv`` (``successors_claims.claims``, marked as no evidence
    for a quick or reduced run), and print the claims."""
    long = long_lines(settings)
    anytime = anytime_long(settings)
    batches = batch_counts(settings)
    results = compute(settings)
    store = not (settings.plot_only or settings.stored_only)
    bounds = {panel.dataset: lower_bound(panel.dataset, settings.out, store=store)[0] for panel in PANELS}
    table = final_rows(results, batches)
    stem = settings.figures / NAME
    write_table(table, stem.with_name(f"{NAME}_final.csv"))
    write_table(long_rows(long, bounds, anytime), stem.with_name(f"{NAME}_long.csv"))
    note = evidence_note(settings, PANELS)
    plot(table, matrix_columns(), stem, note or "")
    draw_ratio(long, anytime, bounds, settings.figures, stem)
    decided = claims(dict(results), long, bounds, anytime)
    checks = write_claims(decided, stem.with_name(f"{NAME}_claims.csv"), note)
    print_table(checks.drop(columns="statement"))
    print(f"wrote {NAME}.png, .pdf, .csv, {NAME}_final.csv, {NAME}_long.csv, {NAME}_claims.csv and {NAME}_lines.csv "
          f"under {settings.figures}")
