"""Past the paper: large-scale online ranker evaluation (MergeDTS, MergeRUCB, Self-Sparring and exact D-TS on
the 136 MSLR rankers, every algorithm on the 500-armed instance, R(T) against K).

Panels (a)-(d): the MSLR Perfect, Navigational, Informational-CDC (135 rankers, the MergeDTS authors'
Condorcet matrix) and Informational (no Condorcet winner) matrices; D-TS, D-TS+ (exact fast paths),
D-TS "best" (alpha = 0.8^7, the MergeDTS authors' tuning), MergeDTS and MergeRUCB (default and "best"),
Self-Sparring, RMED1, ECW-RMED, RUCB, RCS (their exact fast paths); 50 runs with shuffled arms (the MergeDTS
protocol), T = 1e7, and T = 1e8 for the lines of ``LONG_TAGS``.  The Condorcet panels draw the G2W
regret (Yue et al.'s gap sum per slot, gap(a) = p_ca - 1/2): the MergeDTS authors report half of it, the
"average of the two arms' gaps" 0.5 (gap(a1) + gap(a2)) per slot; the Informational panel draws the
Copeland regret of Eq. 1.  (e) the 500-armed instance with every algorithm, T = 1e6, 10 runs (100 for
D-TS, D-TS+, CCB, SCB, ECW-RMED).  (f) R(1e7) against K for D-TS, MergeDTS, Self-Sparring and RMED1 on nested
subsets of the Perfect matrix (K = 8, 16, 32, 64, 136).

An algorithm that is not registered (``algorithms.ALGORITHMS``) makes its lines "unavailable": they are
listed, never computed, and the claims that need them read "not measured", as for lines not computed yet.
Usage: ``python reproduce/large_scale.py [--plot-only] [--algorithms NAME ...] [--datasets NAME ...] [--max-hours H]
...``.

The study is the package ``reproduce.studies.large_scale_study`` (its lines in ``large_scale_panels``, its plan and
budget in ``large_scale_plan``, its tables and claims in ``large_scale_claims``); its lines are simulated, stored and
loaded by the figures' shared step (``reproduce.studies.experiment.simulate_lines``).
This script holds the command line and the figure.
"""

import math
import sys
import textwrap

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from dts_reproduction.reproduce.claims.verdict import QUICK_PREFIX, REDUCED_PREFIX
from dts_reproduction.reproduce.cli.arguments import (
    add_line_selection,
    build_parser,
    check_selection,
    doc_summary,
    hours_flag,
    main_guard,
    resolve,
)
from dts_reproduction.reproduce.config.paper import LARGE_SCALE_CPU_HOURS, LARGE_SCALE_HORIZON
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.plotting import (
    FIGURE_WIDTH,
    MSLR_FIRST_SLOT,
    MSLR_LOG_FLOOR,
    PANEL_HEIGHT,
    RANKING_MARGIN,
    TITLE_CHARACTERS,
    bootstrap_interval,
    curve_frame,
    figure_legend,
    regret_axes,
    regret_note,
    save_figure,
    setup_theme,
)
from dts_reproduction.reproduce.output.tables import OVER_BUDGET, print_table, write_table
from dts_reproduction.reproduce.studies.experiment import (
    panel_results,
    require_stored,
    selected,
    simulate_lines,
    write_claims,
)
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_claims import claims, final_rows, g2w_final
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_panels import (
    MSLR_MATRICES,
    NESTED,
    all_curves,
    arms,
    available,
    curve_look,
)
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_plan import (
    estimated_hours,
    lines_table,
    planned_panels,
    study_costs,
    within_budget,
)

NAME = "large_scale"


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
              **simulate_lines(NAME, {line: settings.out for line in flat if available(line)}, settings,
                               computed=chosen)}
    if settings.plot_only:  # otherwise the selected lines were computed: a study selecting none still draws its table
        require_stored(NAME, stored, [settings.out])
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


# --- figures -----------------------------------------------------------------------------------------------

def ranking_axes(ax, frame: pd.DataFrame, results, title: str) -> None:
    """Panel (e) as it is read: the regret at the horizon of every curve of ``results`` (the last row of each in
    ``frame``, see ``curve_frame``: mean and 95% interval), one row each, lowest at the top, in the algorithm's
    colour and marker.  Sixteen curves that all stay near 0 until t = 1e4 and then fan out over the last decade
    cannot be told apart as curves; the curves themselves are in the figure's CSV."""
    ends = frame.loc[frame.groupby("label", sort=False)["t"].idxmax()].sort_values("mean_regret", ascending=False)
    looks = {res.label: curve_look(res) for res in results}
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
        regret_axes(ax, frame, results[title], title, look_of=curve_look)
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
        ax.errorbar(K, mean, yerr=(mean - low, high - mean), label=tag, capsize=3, **curve_look(curves[0]))
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
        add_line_selection(parser)
        parser.add_argument("--max-hours", default="inf",
                            help="compute only lines whose estimated CPU hours (probe and bench tables) are at most "
                                 "this (lines without an estimate are computed only without this limit)")
        parser.add_argument("--budget", default=str(LARGE_SCALE_CPU_HOURS),
                            help=f"CPU hours of the whole study (default {LARGE_SCALE_CPU_HOURS:g}: 12 h on 2 cores): "
                                 "claim lines first, then cheapest first; the lines beyond it are listed as "
                                 f"'{OVER_BUDGET}' with their estimate and never computed; 'inf' plans every line")
        namespace = parser.parse_args(argv)
        max_hours = hours_flag(namespace.max_hours, "--max-hours")
        budget = hours_flag(namespace.budget, "--budget")
        settings = resolve(namespace)
        check_selection(settings, [line for curves in all_curves(settings).values() for curve in curves
                                   for line in curve])
        results, lines = simulate(settings, budget, max_hours)
        stem = settings.figures / NAME
        write_table(lines, stem.with_name(f"{NAME}_lines.csv"))
        plot(results, stem)
        table = final_rows(results)
        write_table(table, stem.with_name(f"{NAME}_final.csv"))
        note = QUICK_PREFIX if settings.quick else (REDUCED_PREFIX if settings.runs or settings.horizon_given else None)
        checks = write_claims(claims(results), stem.with_name(f"{NAME}_claims.csv"), note)
        print_table(lines[["dataset", "tag", "horizon", "runs", "status", "estimated_cpu_hours", "seconds_per_run"]])
        print_table(checks.drop(columns="statement"))
        print(f"wrote {stem}.png, .pdf, .csv")

    main_guard(run)


if __name__ == "__main__":
    main()
