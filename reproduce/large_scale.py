"""Past the paper: large-scale online ranker evaluation (MergeDTS, MergeRUCB, Self-Sparring and exact D-TS on
the 136 MSLR rankers, every algorithm on the 500-armed instance, R(T) against K).

Panels (a)-(d): the MSLR Perfect, Navigational, Informational-CDC (135 rankers, the MergeDTS authors'
Condorcet matrix) and Informational (no Condorcet winner) matrices; D-TS, D-TS+ (exact fast paths),
D-TS "best" (alpha = 0.8^7, the MergeDTS authors' tuning), MergeDTS and MergeRUCB (default and "best"),
Self-Sparring, RMED1, ECW-RMED, RUCB, RCS (their exact fast paths); 50 runs with shuffled arms (the MergeDTS
protocol), T = 1e7, and T = 1e8 for the lines in ``LONG_ALGORITHMS``.  The Condorcet panels draw the G2W
regret (Yue et al.'s gap sum per slot, gap(a) = p_ca - 1/2): the MergeDTS authors report half of it, the
"average of the two arms' gaps" 0.5 (gap(a1) + gap(a2)) per slot; the Informational panel draws the
Copeland regret of Eq. 1.  (e) the 500-armed instance with every algorithm, T = 1e6, 10 runs (100 for
D-TS, D-TS+, CCB, SCB, ECW-RMED).  (f) R(1e7) against K for D-TS, MergeDTS, Self-Sparring and RMED1 on nested
subsets of the Perfect matrix (K = 8, 16, 32, 64, 136).

An algorithm that is not registered (``algorithms.ALGORITHMS``) makes its lines "unavailable": they are
listed, never computed, and the claims that need them read "not measured", as for lines not computed yet.
Usage: ``python reproduce/large_scale.py [--plot-only] [--algorithms NAME ...] [--datasets NAME ...] [--max-hours H]
...``.
"""

import functools
import math
import sys
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from algorithms import ALGORITHMS, get_algorithm
from core import constants, portable_math
from data import load_dataset
from reproduce.claims import (
    QUICK_PREFIX,
    REDUCED_PREFIX,
    Estimate,
    above,
    by_name,
    checked,
    final,
    log_slope,
    mean_se,
    need,
    worst,
)
from reproduce.cli import build_parser, doc_summary, hours_flag, main_guard, resolve
from reproduce.experiment import combine_ete, ete_horizons, write_claims
from reproduce.harness.backends import backend_context
from reproduce.harness.cost import options_text
from reproduce.harness.paths import BENCH_TABLE, PROBE_TABLE
from reproduce.harness.runner import Line, line_key, load_line, run_lines
from reproduce.paper_config import (
    ALL_ELEVEN,
    HORIZON,
    LARGE_SCALE_CPU_HOURS,
    LARGE_SCALE_HORIZON,
    LARGE_SCALE_LONG_HORIZON,
    LARGE_SCALE_RUNS,
    LONG_SUFFIX,
    RUNS_K_GT_100,
)
from reproduce.paper_panels import FIG4_PANELS
from reproduce.plotting import (
    FIGURE_WIDTH,
    PANEL_HEIGHT,
    bootstrap_interval,
    curve_frame,
    figure_legend,
    regret_axes,
    regret_note,
    save_figure,
    setup_theme,
    style,
)
from reproduce.run_cost import extrapolated_seconds
from reproduce.scale import horizon_overridden
from reproduce.tables import NOT_STORED, OVER_BUDGET, print_table, write_table

NAME = "large_scale"
MSLR_MATRICES = (("mslr136_perfect", "(a) MSLR Perfect, K=136"),
                 ("mslr136_navigational", "(b) MSLR Navigational, K=136"),
                 ("mslr135_informational_cdc", "(c) MSLR Informational-CDC, K=135"),
                 ("mslr136_informational", "(d) MSLR Informational, K=136, no Condorcet winner"))
CONDORCET_MATRICES = MSLR_MATRICES[:3]  # the panels with a Condorcet winner (L1)
# The tuned settings the MergeDTS authors ran: the presets "best" (core/constants.py, AlgorithmSpec.presets) as
# a Line's params, so a preset line and its written-out parameters are one stored line.
DTS_BEST = tuple(sorted(constants.DTS_BEST.items()))
MERGE_DTS_BEST = tuple(sorted(constants.MERGE_DTS_BEST.items()))
MERGE_RUCB_BEST = tuple(sorted(constants.MERGE_RUCB_BEST.items()))
FAST_DTS = (("sampling", "fast"),)
# (algorithm, params, tag) of panels (a)-(d); an algorithm's exact fast paths are added where it has them.
MSLR_ENTRIES = (
    ("dts", (), "D-TS"), ("dts_plus", (), "D-TS+"), ("dts", DTS_BEST, "D-TS (best)"),
    ("merge_dts", (), "MergeDTS"), ("merge_dts", MERGE_DTS_BEST, "MergeDTS (best)"),
    ("merge_rucb", (), "MergeRUCB"), ("merge_rucb", MERGE_RUCB_BEST, "MergeRUCB (best)"),
    ("self_sparring", (), "Self-Sparring"), ("rmed1", (), "RMED1"), ("ecw_rmed", (), "ECW-RMED"),
    ("rucb", (), "RUCB"), ("rcs", (), "RCS"),
)
# T = 1e8 lines: the tags whose cost per slot at K = 136, once the first 1e6 slots are past, keeps 50 runs of
# 1e8 slots within 2 CPU hours per matrix (docs/experiments.md#large-scale-past-the-paper; measured costs
# printed by bench/paper_cost.py --large-scale).  D-TS (exact, fast paths) and MergeDTS are the pair the
# MergeDTS claim is about.
LONG_TAGS = ("D-TS", "MergeDTS", "MergeDTS (best)", "RUCB")
COPELAND500 = "copeland500"
EVERY_ALGORITHM = (*ALL_ELEVEN, "multisbm", "rmed2", "merge_dts", "merge_rucb", "self_sparring")
MANY_RUNS_500 = ("dts", "dts_plus", "ccb", "scb", "ecw_rmed")  # 100 runs on the 500-armed instance
MANY_RUNS = 100
# Panels (a)-(d) start where their curves part: below t = 100 and a regret of 100 every algorithm is still in
# its first round of comparisons, and the decades they would take are left to the band where L1 and L2 are read.
MSLR_LOG_FLOOR = 100.0  # the bottom of the log y axis
MSLR_FIRST_SLOT = 100.0  # the left end of the log time axis
TITLE_CHARACTERS = 44  # a panel title wraps beyond this many characters (at FIGURE_WIDTH, two panels a row)
RANKING_MARGIN = 1.06  # panel (e)'s regret axis ends this far beyond the highest interval
QUICK_RUNS_500 = 2  # the smoke run's 500-armed lines (at O(K^2) a slot, 20 runs of D-TS take minutes there)
NESTED = ("mslr_perfect_k8", "mslr_perfect_k16", "mslr_perfect_k32", "mslr_perfect_k64", "mslr136_perfect")
NESTED_TAGS = ("D-TS", "MergeDTS", "Self-Sparring", "RMED1")
# The lines the claims L1 and L2 compare (at T = 1e7 on the MSLR panels, and their T = 1e8 lines on the Condorcet
# panels: ``is_claim_line``): planned before every other line.
CLAIM_TAGS = ("D-TS", "MergeDTS", "MergeDTS (best)", "MergeRUCB", "MergeRUCB (best)")
GAP_AVERAGE_FACTOR = 0.5  # MergeDTS regret per slot 0.5 (gap(a1) + gap(a2)) = GAP_AVERAGE_FACTOR x the stored G2W


def with_fast(algorithm: str, params: tuple) -> tuple:
    """``params`` completed with the algorithm's exact fast paths (``AlgorithmSpec.fast``) where it is registered;
    an unregistered algorithm keeps ``params``."""
    fast = ALGORITHMS[algorithm].fast if algorithm in ALGORITHMS else {}
    return tuple(sorted({**fast, **dict(params)}.items()))


def mslr_lines(dataset: str, runs: int, horizon: int) -> list[Line]:
    """Every line of an MSLR panel (``MSLR_ENTRIES``) at ``horizon``, plus the T = 1e8 lines of LONG_TAGS."""
    lines = []
    for algorithm, params, tag in MSLR_ENTRIES:
        base = Line(dataset, algorithm, horizon, runs, with_fast(algorithm, params), tag)
        lines.append(base)
        if tag in LONG_TAGS and horizon == LARGE_SCALE_HORIZON:
            lines.append(replace(base, horizon=LARGE_SCALE_LONG_HORIZON, tag=f"{tag}{LONG_SUFFIX}"))
    return lines


def paper_500_algorithms() -> set[str]:
    """The algorithms of the paper's own 500-armed panel (Fig. 4(d), ``reproduce.paper_panels.FIG4_PANELS``)."""
    panel = next(panel for panel in FIG4_PANELS if panel.dataset == COPELAND500)
    return {curve.algorithm for curve in panel.curves()}


def copeland500_curves(runs: int | None, horizon: int) -> list[list[Line]]:
    """Panel (e): one curve per algorithm (the horizon grid for BTM and SAVAGE).  The paper's Fig. 4(d) algorithms
    with the defaults, so that those stored runs are reused; every other algorithm with its exact fast paths, as in
    panels (a)-(d) (the same law: at K = 500 the defaults of D-TS+ and RCS cost 0.2-0.4 ms a slot)."""
    paper = paper_500_algorithms()
    curves = []
    for algorithm in EVERY_ALGORITHM:
        count = runs or (MANY_RUNS if algorithm in MANY_RUNS_500 else RUNS_K_GT_100)
        needs_horizon = algorithm in ALGORITHMS and ALGORITHMS[algorithm].needs_horizon
        params = () if algorithm in paper else with_fast(algorithm, ())
        curves.append([Line(COPELAND500, algorithm, h, count, params)
                       for h in (ete_horizons(horizon) if needs_horizon else [horizon])])
    return curves


def nested_lines(runs: int, horizon: int) -> list[Line]:
    """Panel (f): the NESTED_TAGS lines of MSLR_ENTRIES on every nested Perfect subset."""
    entries = [entry for entry in MSLR_ENTRIES if entry[2] in NESTED_TAGS]
    return [Line(dataset, algorithm, horizon, runs, with_fast(algorithm, params), tag)
            for dataset in NESTED for algorithm, params, tag in entries]


def all_curves(args) -> dict[str, list[list[Line]]]:
    """Every curve of every panel under the command line (--runs, --horizon, --quick scale every panel down)."""
    scaled = horizon_overridden(args)
    horizon = args.horizon if scaled else LARGE_SCALE_HORIZON
    runs = args.runs or LARGE_SCALE_RUNS
    panels = {title: [[line] for line in mslr_lines(dataset, runs, horizon)] for dataset, title in MSLR_MATRICES}
    horizon500 = args.horizon if scaled else HORIZON
    runs500 = min(args.runs, QUICK_RUNS_500) if args.quick else args.runs
    panels[f"(e) 500-armed Copeland, T={horizon500:.0e}"] = copeland500_curves(runs500, horizon500)
    panels["(f) R(T) against K, nested MSLR Perfect subsets"] = [[line] for line in nested_lines(runs, horizon)]
    return panels


def check_selection(args, panels: dict) -> None:
    """--algorithms and --datasets must name algorithms and matrices of the study's lines (``all_curves``);
    ValueError naming the first that does not, and what the study has."""
    lines = [line for curves in panels.values() for curve in curves for line in curve]
    for flag, chosen, known in (("--algorithms", args.algorithms, {line.algorithm for line in lines}),
                                ("--datasets", args.datasets, {line.dataset for line in lines})):
        unknown = [name for name in chosen or () if name not in known]
        if unknown:
            raise ValueError(f"{flag}: {unknown[0]!r} has no line in the study (it has: {', '.join(sorted(known))})")


def available(line: Line) -> bool:
    """Whether the line's algorithm is registered (else the line is "unavailable")."""
    return line.algorithm in ALGORITHMS


# --- cost ---------------------------------------------------------------------------------------------------

class Costs(NamedTuple):
    """What the study's estimates are made from: ``steps``, bench/step_cost.csv (ns per slot by algorithm,
    options and K, on the bench's own matrices); ``probes``, bench/large_scale_probes.csv (two probe runs of a
    line on its own matrix, ``reproduce.run_cost``; columns ``PROBE_COLUMNS``), which takes precedence."""

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


@functools.cache
def arms(dataset: str) -> int:
    """K of a packaged dataset (read once: the plan asks for it hundreds of times)."""
    return load_dataset(dataset).K


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


# --- simulate or load --------------------------------------------------------------------------------------

def simulate(args) -> tuple[dict, pd.DataFrame]:
    """Compute the selected lines of the study plan (cheapest first) unless --plot-only, then load every stored
    line; returns {panel: [LineResult]} and the lines table (status stored / missing / over budget / unavailable,
    runs, estimated CPU hours, seconds)."""
    costs = study_costs()
    panels, plan = planned_panels(all_curves(args), costs, args.budget)
    flat = list(plan)
    if not args.plot_only:
        chosen = [line for line in flat if available(line) and plan[line]
                  and (not args.algorithms or line.algorithm in args.algorithms)
                  and (not args.datasets or line.dataset in args.datasets)
                  and within_budget(estimated_hours(line, costs), args.max_hours)]
        chosen.sort(key=lambda line: (math.isnan(estimated_hours(line, costs)), estimated_hours(line, costs)))
        with backend_context(args):
            for line in chosen:  # one at a time, so that every finished line is complete on disk
                run_lines([line], NAME, args.out, args.seed, n_jobs=args.n_jobs, force=args.force,
                          progress=not args.no_progress, backend=args.backend, max_cpu_hours=args.max_cpu_hours)
    stored, rows = {}, []
    for line in flat:
        status, result = "unavailable", None
        if available(line):
            try:
                result = load_line(line, load_dataset(line.dataset), get_algorithm(line.algorithm), args.out, args.seed)
                status = "stored"
            except ValueError:
                status = "missing" if plan[line] else OVER_BUDGET
        stored[line] = result
        meta = result.meta if result is not None else {}
        rows.append({"dataset": line.dataset, "line": line_key(line) if available(line) else line.algorithm,
                     "tag": line.name, "algorithm": line.algorithm, "horizon": line.horizon, "runs": line.runs,
                     "status": status, "estimated_cpu_hours": estimated_hours(line, costs),
                     "worker_seconds": meta.get("worker_seconds", math.nan),
                     "seconds_per_run": meta.get("worker_seconds", math.nan) / line.runs,
                     "cpu_seconds": meta.get("cpu_seconds", math.nan),
                     "commits": " ".join(meta.get("commits", [NOT_STORED]))})
    results = {}
    for title, curves in panels.items():
        results[title] = []
        for curve in curves:
            parts = [stored[line] for line in curve]
            if all(part is not None for part in parts):
                results[title].append(parts[0] if len(parts) == 1 else combine_ete(parts))
    table = pd.DataFrame(rows)
    over = table[table["status"] == OVER_BUDGET]
    if len(over):
        print(f"note: {len(over)} lines do not fit the study's {args.budget:g} CPU hours (--budget); by the estimate "
              f"they would need {over['estimated_cpu_hours'].sum():.0f} CPU hours more (large_scale_lines.csv)",
              file=sys.stderr)
    absent = table[~table["status"].isin(["stored", OVER_BUDGET])]
    if len(absent):
        print(f"note: {len(absent)} lines not drawn: " + "; ".join(
            f"{row.dataset} {row.tag} T={row.horizon} ({row.status})" for row in absent.itertuples()), file=sys.stderr)
    return results, table


# --- tables and claims -------------------------------------------------------------------------------------

def regret_per_slot(result, decades_before_end: int = 0) -> float:
    """The mean Copeland regret per slot over one decade of t, read from the mean curve: from the last checkpoint
    at or below T / 10^(n + 1) to the last at or below T / 10^n, n = ``decades_before_end`` (0: the last decade).
    A rate that stays the same from one decade to the next is linear regret; one that falls is still settling.
    NaN where the curve has no two checkpoints in that decade (short horizons)."""
    t = result.checkpoints
    end_t = t[-1] // 10 ** decades_before_end
    end, start = (int(np.searchsorted(t, limit, side="right")) - 1 for limit in (end_t, end_t // 10))
    if start < 0 or end <= start:
        return math.nan
    curve = result.regret.mean(axis=0)
    return float((curve[end] - curve[start]) / (t[end] - t[start]))


def final_rows(results: dict) -> pd.DataFrame:
    """Per drawn line: R(T) (Copeland, Eq. 1), the G2W regret and the MergeDTS authors' regret (G2W x 1/2) at T,
    mean and s.e. over runs, the slope of R against ln t over the last decade, and the regret per slot over the
    last decade and the one before (``regret_per_slot``)."""
    rows = []
    for title, curves in results.items():
        for res in curves:
            copeland, g2w = final(res), mean_se(res.g2w[:, -1])
            rows.append({"panel": title, "dataset": res.line.dataset, "label": res.label, "horizon": res.line.horizon,
                         "runs": res.final.shape[0], "copeland_regret": copeland.value, "copeland_se": copeland.se,
                         "g2w_regret": g2w.value, "g2w_se": g2w.se,
                         "mergedts_regret": GAP_AVERAGE_FACTOR * g2w.value,
                         "mergedts_se": GAP_AVERAGE_FACTOR * g2w.se,
                         "slope_last_decade": log_slope(res).value,
                         "regret_per_slot_last_decade": regret_per_slot(res),
                         "regret_per_slot_decade_before": regret_per_slot(res, 1),
                         "seconds_per_run": res.meta.get("worker_seconds", math.nan) / res.final.shape[0]})
    return pd.DataFrame(rows)


def g2w_final(result) -> Estimate:
    """Mean and s.e. of the G2W regret at T (the MergeDTS authors' regret is GAP_AVERAGE_FACTOR times it)."""
    return mean_se(result.g2w[:, -1])


def claims(results: dict) -> list[dict]:
    """L1: MergeDTS below exact D-TS on each Condorcet MSLR matrix (the MergeDTS authors' regret), at T = 1e7 and
    1e8, default and "best" settings.  L2: on Informational (no Condorcet winner) the merge algorithms' Copeland
    regret against D-TS's at T = 1e7, and whether it grows linearly (slope over the last decade above D-TS's)."""
    rows = []
    for _, title in CONDORCET_MATRICES:
        curves = by_name(results[title])
        for suffix in ("", LONG_SUFFIX):
            for merge in ("MergeDTS", "MergeDTS (best)"):
                def check(merge=merge + suffix, dts="D-TS" + suffix, best="D-TS (best)" + suffix, curves=curves):
                    """(text, verdict): D-TS's and D-TS (best)'s G2W regret above MergeDTS's at T (worst of both)."""
                    m, d = need(curves, merge, dts)
                    verdicts = [above(g2w_final(d), g2w_final(m))]
                    text = f"MergeDTS-regret at T: {merge} {GAP_AVERAGE_FACTOR * g2w_final(m).value:.4g}, " \
                           f"{dts} {GAP_AVERAGE_FACTOR * g2w_final(d).value:.4g}"
                    if best in curves:
                        verdicts.append(above(g2w_final(curves[best]), g2w_final(m)))
                        text += f", {best} {GAP_AVERAGE_FACTOR * g2w_final(curves[best]).value:.4g}"
                    return text, worst(*verdicts)
                rows.append(checked("L1", f"{title}{suffix}: {merge}", f"MergeDTS-regret at T: {merge} below D-TS "
                                    "and, where drawn, D-TS (best)", check))
    informational = by_name(results[MSLR_MATRICES[3][1]])
    for merge in ("MergeDTS", "MergeDTS (best)", "MergeRUCB", "MergeRUCB (best)"):
        def check_nc(merge=merge):
            """(text, verdict): the merge algorithm's Copeland regret at T and its last-decade slope above D-TS's."""
            m, d = need(informational, merge, "D-TS")
            verdicts = (above(final(m), final(d)), above(log_slope(m), log_slope(d)))
            return (f"R(T) {final(m)} vs D-TS {final(d)}; slope per ln t over the last decade {log_slope(m)} vs "
                    f"{log_slope(d)}"), worst(*verdicts)
        rows.append(checked("L2", f"{MSLR_MATRICES[3][1]}: {merge}", f"Copeland regret at T and slope per ln t over "
                                                                     f"the last decade: {merge} above D-TS", check_nc))
    return rows


# --- figures -----------------------------------------------------------------------------------------------

def ranking_axes(ax, frame: pd.DataFrame, results, title: str) -> None:
    """Panel (e) as it is read: the regret at the horizon of every curve of ``results`` (the last row of each in
    ``frame``, see ``curve_frame``: mean and 95% interval), one row each, lowest at the top, in the algorithm's
    colour and marker.  Sixteen curves that all stay near 0 until t = 1e4 and then fan out over the last decade
    cannot be told apart as curves; the curves themselves are in the figure's CSV."""
    ends = frame.loc[frame.groupby("label", sort=False)["t"].idxmax()].sort_values("mean_regret", ascending=False)
    looks = {res.label: style(res) for res in results}
    usual = ends["runs"].mode().min() if len(ends) else 0
    for row_index, row in enumerate(ends.itertuples()):
        error = [[row.mean_regret - row.ci95_low], [row.ci95_high - row.mean_regret]]
        ax.errorbar(row.mean_regret, row_index, xerr=error, label=row.label, capsize=3,
                    **{**looks[row.label], "linestyle": "none"})
    ax.set_yticks(range(len(ends)), [label if runs == usual else f"{label} ({runs} runs)"
                                     for label, runs in zip(ends["label"], ends["runs"], strict=True)])
    ax.set_xlim(0.0, RANKING_MARGIN * ends["ci95_high"].max() if len(ends) else 1.0)
    ax.set_xlabel("Copeland regret at T (mean, 95% interval)")
    ax.set_title(f"{title} ({usual} runs)" if len(ends) else f"{title} (not computed)")


def plot(results: dict, stem) -> pd.DataFrame:
    """Panels (a)-(d) as regret curves (G2W on the Condorcet ones, Copeland on (d)), (e) the Copeland regret at T
    by algorithm (``ranking_axes``), (f) R(T) against K; writes stem.png/.pdf/.csv (every curve, (e)'s too);
    returns the curve table."""
    setup_theme()
    titles = list(results)
    fig, axes = plt.subplots(3, 2, figsize=(FIGURE_WIDTH, 3 * PANEL_HEIGHT))
    frames = []
    for ax, title in zip(list(axes.flat)[:4], titles[:4], strict=True):
        metric = "g2w" if title in dict((t, d) for d, t in MSLR_MATRICES[:3]) else "regret"
        frame = curve_frame(results[title], title, metric)
        frames.append(frame)
        regret_axes(ax, frame, results[title], title)
        ax.set_title(textwrap.fill(ax.get_title(), TITLE_CHARACTERS))  # (d)'s title is too long for one line
        # The other panels draw the G2W regret: (d), which has no Condorcet winner, says which regret it draws.
        ax.set_ylabel("G2W regret (MergeDTS's regret x 2)" if metric == "g2w" else "Copeland regret (Eq. 1)")
        ax.set_yscale("log")  # L1 and L2 compare ratios of up to 30x: log-log shows each curve
        ax.set_ylim(bottom=MSLR_LOG_FLOOR)
        ax.set_xlim(left=MSLR_FIRST_SLOT)
    frames.append(curve_frame(results[titles[4]], titles[4]))
    ranking_axes(axes.flat[4], frames[-1], results[titles[4]], titles[4])
    ax = axes.flat[5]
    by_tag = {}
    for res in results[titles[5]]:
        by_tag.setdefault(res.label, []).append(res)
    for tag, curves in by_tag.items():
        curves.sort(key=lambda res: arms(res.line.dataset))
        K = [arms(res.line.dataset) for res in curves]
        mean = np.array([g2w_final(res).value for res in curves])
        low, high = np.array([bootstrap_interval(res.g2w[:, -1]) for res in curves]).T
        ax.errorbar(K, mean, yerr=(mean - low, high - mean), label=tag, capsize=3, **style(curves[0]))
        frames.append(pd.DataFrame({"panel": titles[5], "label": tag, "metric": "g2w", "t": curves[0].line.horizon,
                                    "K": K, "mean_regret": mean, "ci95_low": low, "ci95_high": high}))
    ax.set_xscale("log")
    ax.set_yscale("log")
    sizes = [arms(name) for name in NESTED]
    ax.set_xticks(sizes, [str(K) for K in sizes])
    ax.minorticks_off()
    ax.set_xlabel("number of arms K")
    ax.set_ylabel("G2W regret at T (MergeDTS's x 2)")
    ax.set_title(titles[5])
    bars = "(e): R(T) by algorithm, (f): R(T) against K; error bars: the same interval"
    note = f"{regret_note([None] * 5, False)}\n{bars}"
    bottom = figure_legend(fig, list(axes.flat), note)
    fig.tight_layout(rect=(0, bottom, 1, 1), h_pad=0.8, w_pad=1.0)
    save_figure(fig, stem)
    table = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    write_table(table, stem.with_suffix(".csv"))
    return table


def main(argv=None):
    """Parse and check the command line, simulate (or load), draw, tabulate and check the claims."""
    def run():
        """The script's body (bad input: ValueError, one ``error:`` line)."""
        parser = build_parser(doc_summary(__doc__), LARGE_SCALE_HORIZON, fast=False)
        parser.add_argument("--algorithms", nargs="+", default=None, metavar="NAME",
                            help="compute only the lines of these registry names (the others are loaded if stored)")
        parser.add_argument("--datasets", nargs="+", default=None, metavar="NAME",
                            help="compute only the lines on these matrices, e.g. mslr136_informational (the others "
                                 "are loaded if stored)")
        parser.add_argument("--max-hours", default="inf",
                            help="compute only lines whose estimated CPU hours (probe and bench tables) are at most "
                                 "this (lines without an estimate are computed only without this limit)")
        parser.add_argument("--budget", default=str(LARGE_SCALE_CPU_HOURS),
                            help=f"CPU hours of the whole study (default {LARGE_SCALE_CPU_HOURS:g}: 12 h on 2 cores): "
                                 "claim lines first, then cheapest first; the lines beyond it are listed as "
                                 f"'{OVER_BUDGET}' with their estimate and never computed; 'inf' plans every line")
        args = parser.parse_args(argv)
        args.max_hours = hours_flag(args.max_hours, "--max-hours")
        args.budget = hours_flag(args.budget, "--budget")
        args = resolve(args)
        check_selection(args, all_curves(args))
        results, lines = simulate(args)
        stem = args.figures / NAME
        write_table(lines, stem.with_name(f"{NAME}_lines.csv"))
        plot(results, stem)
        table = final_rows(results)
        write_table(table, stem.with_name(f"{NAME}_final.csv"))
        note = QUICK_PREFIX if args.quick else (REDUCED_PREFIX if args.runs or args.horizon_given else None)
        checks = write_claims(claims(results), stem.with_name(f"{NAME}_claims.csv"), note)
        print_table(lines[["dataset", "tag", "horizon", "runs", "status", "estimated_cpu_hours", "seconds_per_run"]])
        print_table(checks.drop(columns="statement"))
        print(f"wrote {stem}.png, .pdf, .csv")

    main_guard(run)


if __name__ == "__main__":
    main()
