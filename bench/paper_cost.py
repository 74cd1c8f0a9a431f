"""Estimated and measured worker time of every paper figure, from per-slot costs measured on this machine.

For each line of the figures' panels (as the figure scripts declare them, at paper scale: the paper's
run counts, horizons and the BTM/SAVAGE horizon grids) the script measures, once per (algorithm,
dataset, parameters), the CPU time of one run of ``probe / 10`` slots and of ``probe`` slots (same
seed, so the second run extends the first) and extrapolates a run of T slots as
``cost(probe) + (T - probe) * (cost(probe) - cost(probe / 10)) / (0.9 probe)``: the cost per slot of
the last decade measured is assumed to hold up to T (for most algorithms it falls further with t, so
this is an upper estimate, most of all for the fast paths, whose slots get cheaper as self-comparisons
dominate).  A line shared by several figures is computed once (one stored line serves every figure):
it is counted in the first figure that declares it (in the order of ``make all-figures``) and shown
as "reused" with 0 hours in the others, so the totals are the cost of the paper from scratch.  The
"fast h" column is the same estimate with every algorithm's exact fast paths (``AlgorithmSpec.fast``:
what the figures cost with ``--fast``; the committed results use the defaults).  Not a promise: on
a shared machine the measured costs move by tens of percent.  The default probe is the paper's horizon
at K <= 32, so a line of T = 1e6 there is measured, not extrapolated (a probe of 1e5 slots would
extrapolate ECW-RMED's expensive first 2e5 slots, ~9 us a slot at K = 32, to all of T, where the
rest costs ~0.6 us).

The "stored h" column is the worker time the runs stored in ``results/`` actually took (the wall
time each chunk records; on a shared machine, or with more workers than cores, more than the CPU time
estimated here), where every run of the curve is stored; "-" where some are missing; "fast stored h"
the same for the runs of ``--fast`` (``results/fast/``).

``--measured`` skips the probes and prints only what the stored runs took, per figure: worker hours
(wall time of the workers) and CPU hours, with the defaults and with ``--fast``, and how many lines are
still missing (with ``--fast``, a line the option leaves unchanged, e.g. BTM's, is the default line and
is counted from ``results/``, where it is stored), the busy hours (CPU hours, or worker hours for lines
computed before CPU time was recorded), and for ``--fast`` an estimate from above of what the missing
lines will take (their default lines' busy hours).  This is how the cost of the whole paper is measured
when it is computed over several sessions (the chunks keep their own times, so a resumed computation
adds up exactly): the wall time of ``make all-figures`` on J otherwise idle cores is about the busy
hours / J once every line is stored.

``--successors`` prints, for every line of ``reproduce/successors.py``, its estimated CPU hours, its status and what its
stored runs took, cheapest first, with the totals estimated and measured (how far the cost model is off for the study's
algorithms, measured as its lines land) and what the runs still to compute need (a partly stored line's estimated at
what its stored runs took).

``--large-scale`` prints, for every line of ``reproduce/large_scale.py`` (past the paper), its estimated CPU hours
(``large_scale_plan.estimated_hours``: from the line's probe in bench/large_scale_probes.csv where it has one, else from
bench/step_cost.csv; "-" for an algorithm not benchmarked or not registered), whether the study plan takes it, its
status (stored / missing / unavailable) and what its stored runs took, with the totals and the wall time on 2 cores.
With ``--probe`` it first measures the probes of the study's missing lines of T >= 1e7 (``reproduce.studies.run_cost``:
run 0 over 1e6 and over 1e7 slots on the line's own matrix), cheapest first, skipping a line whose two runs the bench
prices above ``--max-probe-seconds``, and adds each row to the table as soon as it is measured.

Usage: python bench/paper_cost.py [--figures fig1_mslr fig4_noncondorcet ...] [--probe-slots N] [--measured]
       python bench/paper_cost.py --large-scale [--probe [--max-probe-seconds S] [--algorithms NAME ...]]
       python bench/paper_cost.py --successors
"""

import math
import os
import time
from dataclasses import replace
from pathlib import Path

import pandas as pd

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.algorithms.base import MAX_EXACT_HORIZON, check_positive
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, integer, main_guard
from dts_reproduction.reproduce.config.paper import (
    HORIZON,
    LARGE_SCALE_CPU_HOURS,
    LARGE_SCALE_HORIZON,
    ROOT_SEED,
)
from dts_reproduction.reproduce.harness.cost import estimated_line_seconds
from dts_reproduction.reproduce.harness.paths import FAST, PROBE_TABLE, RESULTS
from dts_reproduction.reproduce.harness.runner import git_commit, line_identity, line_seconds
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.tables import write_table
from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_lines import PANELS as ASYMPTOTIC_PANELS
from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_lines import cheapest_first
from dts_reproduction.reproduce.studies.experiment import curves_and_stores, panel_curves
from dts_reproduction.reproduce.studies.large_scale_study import large_scale_plan
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_panels import all_curves, available
from dts_reproduction.reproduce.studies.paper_figures.figures import PAPER_FIGURES, SIMULATED
from dts_reproduction.reproduce.studies.run_cost import extrapolated_seconds, probe_seconds
from dts_reproduction.reproduce.studies.successors_study import successors_plan
from dts_reproduction.reproduce.studies.successors_study.successors_panels import PANELS as SUCCESSORS_PANELS
from dts_reproduction.reproduce.studies.successors_study.successors_panels import (
    RESULTS_FOLDER as SUCCESSORS_RESULTS,
)

FIGURES = SIMULATED  # the figures that simulate runs of their own (Fig. 2 reads Fig. 1's)
_COSTS = {}


def probe_slots(K: int, default: int) -> int:
    """Probe length by K (large K: slots are expensive and their cost changes less)."""
    return default if K <= 32 else max(1000, default * 32 // (K * 4))


def run_seconds(algorithm, dataset, params, horizon, slots, delay) -> float:
    """Estimated CPU seconds of one run of ``horizon`` slots (see the module docstring)."""
    key = (algorithm, dataset.name, tuple(sorted(params.items())), delay,
           horizon if get_algorithm(algorithm).needs_horizon else None)
    probe = min(slots, horizon)
    if key not in _COSTS:
        _COSTS[key] = (*probe_seconds(dataset, get_algorithm(algorithm), params, probe, delay), probe)
    tenth, whole, probe = _COSTS[key]
    return extrapolated_seconds(tenth, whole, probe, horizon)


def parse_arguments(argv=None):
    """The command line, checked before any probe run: a bad value raises ValueError (one line)."""
    parser = OneLineParser(description=doc_summary(__doc__))
    parser.add_argument("--figures", nargs="+", default=list(FIGURES), choices=FIGURES)
    parser.add_argument("--probe-slots", default=str(HORIZON), help=f"probe length at K <= 32 (default {HORIZON:.0e})")
    parser.add_argument("--measured", action="store_true",
                        help="no probe runs: only the worker and CPU hours the stored runs took (defaults and --fast)")
    parser.add_argument("--large-scale", action="store_true",
                        help="the lines of reproduce/large_scale.py: estimated CPU hours (probe and bench tables)")
    parser.add_argument("--asymptotic", action="store_true",
                        help="the lines of reproduce/asymptotic.py: estimated CPU hours (the cost model) and status")
    parser.add_argument("--successors", action="store_true",
                        help="the lines of reproduce/successors.py: estimated CPU hours (the cost model), status and "
                             "what the stored ones took")
    parser.add_argument("--probe", action="store_true",
                        help="with --large-scale: first measure the probes of the study's missing lines of T >= 1e7 "
                             "(two runs each, of 1e6 and 1e7 slots) into bench/large_scale_probes.csv")
    parser.add_argument("--algorithms", nargs="+", default=None, metavar="NAME",
                        help="with --probe: probe only the lines of these registry names")
    parser.add_argument("--max-probe-seconds", default="1800",
                        help="with --probe: skip a line whose two probe runs the bench estimates above this (default "
                             "1800)")
    args = parser.parse_args(argv)
    args.probe_slots = integer(args.probe_slots, "--probe-slots")
    args.max_probe_seconds = check_positive("--max-probe-seconds", args.max_probe_seconds, text=True)
    if args.asymptotic and (args.large_scale or args.measured):
        raise ValueError("--asymptotic takes neither --large-scale nor --measured")
    if args.successors and (args.asymptotic or args.large_scale or args.measured):
        raise ValueError("--successors takes none of --asymptotic, --large-scale and --measured")
    if args.probe and not args.large_scale:
        raise ValueError("--probe needs --large-scale")
    if args.algorithms and not args.probe:
        raise ValueError("--algorithms needs --probe")
    for name in args.algorithms or ():
        get_algorithm(name)  # ValueError naming an unknown algorithm
    return args


def main(argv=None):
    """Print the estimated CPU hours of every figure (bad input: one ``error:`` line, exit status 2)."""
    def run():
        """Parse the arguments and print the chosen table."""
        args = parse_arguments(argv)
        if args.asymptotic:
            print_asymptotic()
        elif args.successors:
            print_successors()
        elif args.large_scale:
            if args.probe:
                from dts_reproduction.reproduce.config.paper import LARGE_SCALE_HORIZON

                probe_large_scale(LARGE_SCALE_HORIZON, args.max_probe_seconds, args.algorithms)
            print_large_scale()
        else:
            (print_measured if args.measured else print_figure_costs)(args)

    main_guard(run)


def curve_hours(curve, dataset, probe: int) -> tuple[float, float]:
    """Estimated CPU hours of a curve's lines (all its runs) with the defaults and with the fast paths."""
    hours = fast_hours = 0.0
    for line in curve:
        params = dict(line.params)
        fast_params = {**get_algorithm(line.algorithm).fast, **params}
        seconds = run_seconds(line.algorithm, dataset, params, line.horizon, probe, line.delay)
        fast = seconds if fast_params == params else run_seconds(line.algorithm, dataset, fast_params,
                                                                line.horizon, probe, line.delay)
        hours += line.runs * seconds / 3600
        fast_hours += line.runs * fast / 3600
    return hours, fast_hours


def stored_hours(curve, dataset, results=RESULTS) -> tuple[float, float] | None:
    """(worker hours, CPU hours) the stored runs of a curve took (their chunks' records: the wall time of
    the workers, and their CPU time, NaN for chunks older than that record), or None if some are missing
    from ``results``.  Each line is loaded once."""
    try:
        seconds = [line_seconds(line, dataset, results, ROOT_SEED) for line in curve]
    except ValueError:
        return None
    return sum(worker for worker, _ in seconds) / 3600, sum(cpu for _, cpu in seconds) / 3600


def counted_line(line, dataset) -> tuple:
    """What a line is counted once by: the stored line it is (``runner.line_identity``: not its legend tag) and its
    number of runs (two figures' lines of one stored line with different runs cost differently)."""
    return line_identity(line, dataset, ROOT_SEED), line.runs


def print_figure_costs(args):
    """Estimate each requested figure's CPU hours from probe runs and print them per curve and in total
    (a line another figure already counted: "reused", 0 hours); then what the stored runs took
    (``print_measured``)."""
    paper_scale = Settings.library(default_horizon=HORIZON)
    grand = dict.fromkeys(("reference", "fast", "stored", "stored_est"), 0.0)
    counted = set()
    print(f"{'figure':<18} {'panel':<34} {'line':<12} {'K':>4} {'T':>9} {'runs':>5} {'CPU h':>8} {'fast h':>8} "
          f"{'stored h':>9}")
    for figure in args.figures:
        total = dict.fromkeys(grand, 0.0)
        for panel in PAPER_FIGURES[figure].panels:
            dataset = load_dataset(panel.dataset)
            for curve in panel_curves(panel, paper_scale):
                keys = {counted_line(line, dataset) for line in curve}
                reused = keys <= counted
                hours, fast_hours = (0.0, 0.0) if reused else \
                    curve_hours(curve, dataset, probe_slots(dataset.K, args.probe_slots))
                hours_stored = None if reused else stored_hours(curve, dataset)
                stored = 0.0 if reused else (None if hours_stored is None else hours_stored[0])
                counted |= keys
                total["reference"] += hours
                if stored is not None:
                    total["stored"] += stored
                    total["stored_est"] += hours
                total["fast"] += fast_hours
                first = curve[-1]
                print(f"{figure:<18} {panel.title[:34]:<34} {first.name[:12]:<12} {dataset.K:>4} {first.horizon:>9} "
                      f"{first.runs:>5} {hours:>8.2f} {fast_hours:>8.2f} "
                      f"{'-' if stored is None else f'{stored:.2f}':>9}{'  reused' if reused else ''}", flush=True)
        print(f"{figure:<18} {'TOTAL':<34} {'':<12} {'':>4} {'':>9} {'':>5} {total['reference']:>8.2f} "
              f"{total['fast']:>8.2f} {total['stored']:>9.2f}  (stored curves estimated at {total['stored_est']:.2f})",
              flush=True)
        for key in grand:
            grand[key] += total[key]
    print(f"all figures from scratch: {grand['reference']:.1f} CPU hours with the defaults (the committed "
          f"results), {grand['fast']:.1f} with --fast (every algorithm's exact fast paths); the curves stored so "
          f"far took {grand['stored']:.1f} CPU hours, estimated here at {grand['stored_est']:.1f}")
    print("\nMeasured: what the stored runs took (--measured prints only this)")
    print_measured(args)


STORES = (("defaults", RESULTS, False), ("--fast", RESULTS / FAST, True))


def busy_hours(hours: tuple[float, float]) -> float:
    """The hours a line kept its worker busy: its CPU hours where every chunk recorded them, else (older
    chunks) its worker hours, the wall time of the worker, which on a loaded machine is more."""
    worker, cpu = hours
    return worker if math.isnan(cpu) else cpu


def measured_hours(figures=FIGURES, stores=None) -> dict[str, list[tuple[str, dict]]]:
    """Per store (``STORES``: defaults, --fast), per figure and then "all figures": the lines stored and
    missing, the worker and CPU hours the stored ones took (each line counted once, in the first figure
    that draws it), how many lack a CPU record, their busy hours (``busy_hours``: what they would take on
    an otherwise idle machine, from above where the CPU record is missing), and for --fast ("estimate") an
    estimate from above of what the missing lines will take: the busy hours of the same lines with the
    defaults (stored in ``results/``; every fast path timed at least as fast as its defaults in
    ``bench/step_cost.py``, most far faster; inf if a default line is missing too)."""
    measured = {}
    for store, results, fast in stores or STORES:
        counted = set()
        grand = {"lines": 0, "missing": 0, "worker": 0.0, "cpu": 0.0, "no_cpu": 0, "busy": 0.0, "estimate": 0.0}
        rows = []
        for figure in figures:
            total = dict.fromkeys(grand, 0)
            for panel in PAPER_FIGURES[figure].panels:
                dataset = load_dataset(panel.dataset)
                lines, folders = _panel_lines(panel, fast, results)
                default_lines, default_folders = _panel_lines(panel, False, RESULTS)
                for line, folder, default_line, default_folder in zip(lines, folders, default_lines, default_folders,
                                                                      strict=True):
                    if counted_line(line, dataset) in counted:
                        continue
                    counted.add(counted_line(line, dataset))
                    hours = stored_hours([line], dataset, folder)
                    total["lines"] += 1
                    if hours is None:
                        total["missing"] += 1
                        default = stored_hours([default_line], dataset, default_folder) if fast else None
                        total["estimate"] += math.inf if default is None else busy_hours(default)
                        continue
                    total["worker"] += hours[0]
                    total["busy"] += busy_hours(hours)
                    if math.isnan(hours[1]):
                        total["no_cpu"] += 1
                    else:
                        total["cpu"] += hours[1]
            rows.append((figure, total))
            for key in grand:
                grand[key] += total[key]
        measured[store] = rows + [("all figures", grand)]
    return measured


def print_measured(args):
    """Print ``measured_hours`` as a table, with the wall time the stored lines would take on 2 cores."""
    print(f"{'figure':<18} {'store':<9} {'lines':>6} {'missing':>8} {'worker h':>9} {'CPU h':>8} {'no CPU':>7} "
          f"{'busy h':>7} {'missing est.':>13}")
    for (store, rows), (_, _, fast) in zip(measured_hours(args.figures, STORES).items(), STORES, strict=True):
        for name, total in rows:
            estimate = f"{total['estimate']:.2f}" if fast else "-"
            print(f"{name:<18} {store:<9} {total['lines']:>6} {total['missing']:>8} {total['worker']:>9.2f} "
                  f"{total['cpu']:>8.2f} {total['no_cpu']:>7} {total['busy']:>7.2f} {estimate:>13}", flush=True)
        grand = rows[-1][1]
        print(f"{'':<18} {store:<9} ({'complete' if grand['missing'] == 0 else 'incomplete'}: on 2 cores about "
              f"{grand['busy'] / 2:.1f} h of wall time for the stored lines"
              + (f", at most about {grand['estimate'] / 2:.1f} h more for the missing ones)"
                 if fast and grand["missing"] else ")"))
    print("no CPU: stored lines with a chunk computed before CPU seconds were recorded (2026-11-26), left out of "
          "CPU h; busy h: CPU h, or worker h for the lines without a CPU record (from above); missing est.: the "
          "missing lines' busy h with the defaults, an estimate from above (inf: not stored either)")


def print_asymptotic() -> None:
    """Every line of reproduce/asymptotic.py at its full scale, in the order the study computes them (cheapest first,
    ``cheapest_first``): estimated CPU hours (``harness.cost.estimated_line_seconds``),
    status (stored / missing) and stored busy hours; then the estimated hours of the missing lines and their wall
    time on 2 cores."""
    paper_scale = Settings.library(default_horizon=MAX_EXACT_HORIZON, fast=True)
    lines = [line for panel in ASYMPTOTIC_PANELS for curve in panel_curves(panel, paper_scale) for line in curve]
    print(f"{'dataset':<26} {'line':<22} {'K':>4} {'T':>8} {'runs':>5} {'est. CPU h':>11} {'status':<8} "
          f"{'stored h':>9}")
    missing = 0.0
    for line in cheapest_first(paper_scale)(lines):
        dataset = load_dataset(line.dataset)
        hours = estimated_line_seconds(line, dataset) / 3600.0
        found = stored_hours([line], dataset)
        missing += hours if found is None and math.isfinite(hours) else 0.0
        print(f"{line.dataset:<26} {line.name[:22]:<22} {dataset.K:>4} {line.horizon:>8.1e} {line.runs:>5} "
              f"{'-' if math.isnan(hours) else f'{hours:.2f}':>11} {'missing' if found is None else 'stored':<8} "
              f"{'-' if found is None else f'{busy_hours(found):.2f}':>9}", flush=True)
    print(f"asymptotic: the missing lines need about {missing:.1f} estimated CPU hours (about {missing / 2:.1f} h of "
          f"wall time on 2 cores)")


def print_successors() -> None:
    """Every line of reproduce/successors.py at its paper scale, cheapest first as the study computes them: its
    estimated CPU hours (``harness.cost.estimated_line_seconds``), status and the busy hours its stored runs took
    (results/successors/); then the totals, estimated and measured, of the stored lines, and the estimate of the runs
    still to compute (``PlannedLine.cpu_seconds``: a partly stored line's at the CPU time of its stored runs).  The
    study's C2B long lines and batch counts (seconds to minutes) are not listed."""
    settings = Settings.library(out=SUCCESSORS_RESULTS)
    planned = successors_plan.study_plan(SUCCESSORS_PANELS, settings)
    print(f"{'dataset':<20} {'line':<26} {'K':>4} {'T':>8} {'runs':>5} {'est. CPU h':>11} {'status':<8} "
          f"{'stored h':>9}")
    totals = {"stored estimate": 0.0, "stored": 0.0, "missing": 0.0}
    for item in sorted(planned, key=lambda item: estimated_line_seconds(item.line, item.dataset)):
        line, dataset = item.line, item.dataset
        hours = estimated_line_seconds(line, dataset) / 3600.0
        found = stored_hours([line], dataset, SUCCESSORS_RESULTS)
        if found is None:
            totals["missing"] += item.cpu_seconds / 3600.0 if math.isfinite(item.cpu_seconds) else 0.0
        else:
            totals["stored estimate"] += hours if math.isfinite(hours) else 0.0
            totals["stored"] += busy_hours(found)
        print(f"{line.dataset:<20} {line.name[:26]:<26} {dataset.K:>4} {line.horizon:>8.1e} {line.runs:>5} "
              f"{'-' if math.isnan(hours) else f'{hours:.3f}':>11} {'missing' if found is None else 'stored':<8} "
              f"{'-' if found is None else f'{busy_hours(found):.3f}':>9}", flush=True)
    missing = totals["missing"]
    print(f"successors: the stored lines took {totals['stored']:.2f} CPU hours (estimated "
          f"{totals['stored estimate']:.2f}); the runs still to compute need about {missing:.1f} estimated CPU hours "
          f"(a partly stored line at its stored runs' CPU time; about {missing / 2:.1f} h of wall time on 2 cores)")


def study_plan():
    """(costs, plan) of reproduce/large_scale.py at its full scale under its default budget
    (``large_scale_plan.planned_panels``)."""
    costs = large_scale_plan.study_costs()
    paper_scale = Settings.library(default_horizon=LARGE_SCALE_HORIZON)
    _, plan = large_scale_plan.planned_panels(all_curves(paper_scale), costs, LARGE_SCALE_CPU_HOURS)
    return costs, plan


def print_large_scale() -> None:
    """Every line of reproduce/large_scale.py at its full scale: estimated CPU hours, whether the study plan
    (``large_scale_plan.planned_panels`` under its default budget) takes it, status and stored hours; then the totals
    of the planned and the over-budget lines and the wall time on 2 cores."""
    costs, plan = study_plan()
    print(f"{'dataset':<26} {'line':<22} {'K':>4} {'T':>10} {'runs':>5} {'est. CPU h':>11} {'plan':<5} "
          f"{'status':<12} {'stored h':>9}")
    totals = {"planned": 0.0, "over": 0.0, "stored": 0.0}
    for line, planned in plan.items():
        dataset = load_dataset(line.dataset)
        hours = large_scale_plan.estimated_hours(line, costs)
        status, stored = "unavailable", None
        if available(line):
            found = stored_hours([line], dataset)
            status, stored = ("missing", None) if found is None else ("stored", busy_hours(found))
        totals["planned" if planned else "over"] += 0.0 if math.isnan(hours) else hours
        totals["stored"] += stored or 0.0
        print(f"{line.dataset:<26} {line.name[:22]:<22} {dataset.K:>4} {line.horizon:>10.0e} {line.runs:>5} "
              f"{'-' if math.isnan(hours) else f'{hours:.2f}':>11} {'yes' if planned else 'no':<5} {status:<12} "
              f"{'-' if stored is None else f'{stored:.2f}':>9}", flush=True)
    print(f"large_scale: the plan takes {totals['planned']:.1f} estimated CPU hours (budget "
          f"{LARGE_SCALE_CPU_HOURS:g}: about {totals['planned'] / 2:.1f} h of wall time on 2 cores); the "
          f"lines over budget would need {totals['over']:.1f} CPU hours more; the stored lines took "
          f"{totals['stored']:.1f} busy hours")


def lines_to_probe(costs, plan, probe: int, max_seconds: float, algorithms=None) -> list:
    """The lines of the study worth a probe of ``probe`` slots, one per probe row: horizon at least ``probe``,
    registered, not stored, no probe row yet, and at most ``max_seconds`` for both probe runs by the bench's
    estimate (a run of probe / 10 slots and one of ``probe``), of the registry names ``algorithms`` if given.
    Those of the claim lines (``is_claim_line``, also
    through their T = 1e8 line) first, then cheapest first."""
    bench_only = large_scale_plan.Costs(costs.steps, costs.probes.iloc[0:0])
    probed = set(zip(costs.probes["dataset"], costs.probes["line"], strict=True))
    chosen = {}
    for line in plan:
        if line.horizon < probe or not available(line) or (algorithms and line.algorithm not in algorithms):
            continue
        key = (line.dataset, large_scale_plan.probe_line_key(line, probe))
        if key in probed or key in chosen or stored_hours([line], load_dataset(line.dataset)) is not None:
            continue
        seconds = 1.1 * 3600 * large_scale_plan.estimated_hours(replace(line, horizon=probe, runs=1), bench_only)
        if seconds <= max_seconds:
            chosen[key] = (seconds, line)
    claims = {(line.dataset, large_scale_plan.probe_line_key(line, probe)) for line in plan
              if large_scale_plan.is_claim_line(line)}
    return [line for key, (_, line) in sorted(chosen.items(), key=lambda item: (item[0] not in claims, item[1][0]))]


def probe_large_scale(probe: int, max_seconds: float, algorithms=None, table: Path = PROBE_TABLE) -> None:
    """Measure the probes of ``lines_to_probe`` one after the other, adding each row to ``table`` as soon as it
    is measured (atomically: an interrupted session keeps the rows it finished), and print each."""
    costs, plan = study_plan()
    costs = large_scale_plan.Costs(costs.steps, pd.read_csv(table) if table.exists() else costs.probes.iloc[0:0])
    lines = lines_to_probe(costs, plan, probe, max_seconds, algorithms)
    print(f"probing {len(lines)} lines at {probe:.0e} slots (run 0, seed 0, process CPU seconds)", flush=True)
    rows = costs.probes
    for line in lines:
        tenth, whole = probe_seconds(load_dataset(line.dataset), get_algorithm(line.algorithm), dict(line.params),
                                     probe)
        row = {"dataset": line.dataset, "line": large_scale_plan.probe_line_key(line, probe), "probe_slots": probe,
               "tenth_cpu_seconds": tenth, "probe_cpu_seconds": whole, "load_average": os.getloadavg()[0],
               "measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": git_commit()}
        rows = pd.concat([rows, pd.DataFrame([row])], ignore_index=True)
        write_table(rows, table)
        print(f"{line.dataset:<26} {line.name[:22]:<22} {probe // 10:.0e} slots {tenth:8.1f} s, {probe:.0e} slots "
              f"{whole:8.1f} s", flush=True)


def _panel_lines(panel, fast: bool, results) -> tuple[list, list]:
    """The lines of a panel at the paper's scale, with the fast paths if ``fast``, in order, and the store folder each
    is read from (``curves_and_stores``: ``results``, or with ``fast`` results/ for a line the fast paths leave
    unchanged)."""
    settings = replace(Settings.library(default_horizon=HORIZON, fast=fast), out=results)
    curves, stores = curves_and_stores([panel], settings)
    lines = [line for curve in curves[0] for line in curve]
    return lines, [stores[line] for line in lines]


if __name__ == "__main__":
    main()
