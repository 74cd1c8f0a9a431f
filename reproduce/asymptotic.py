"""Past the paper, in time: the regret slope of every algorithm with an exact fast path, decade by decade up to
T = 2**53 (9.0e15), against the lower bound, on every paper matrix with a Condorcet winner; and, at T = 1e7, the
matrices without one (where a run costs up to its T slots: only the self-comparisons of an arm the algorithm has
settled on can be skipped).

Per matrix: the slope of R(t) against ln t over each decade [t/10, t] (``reproduce.studies.decades``) of D-TS,
D-TS+, RUCB, RCS, CCB, RMED1, RMED2 (as run and with the RMED2 paper's sign, "RMED2 (paper)") and ECW-RMED, all with
their exact fast paths; the lower bound's slope C (Komiyama et al.) and, with a Condorcet winner, the winner
constant C_w (``reproduce.studies.regret_bound.winner_constant``: what comparing every arm with the winner costs),
and beside them the two oracles that play those allocations (``algorithms.oracle``: told the winner and the optimal
partners, or the winner as every arm's partner);
runs whose regret grows linearly (trapped) are counted apart, never averaged into a slope; where the regret goes,
pair by pair, in runs simulated again (``allocation_rows`` with a Condorcet winner, ``pair_costs.costliest_pair_rows``
without one). The paper's run counts
(500 for K < 10, 100 up to 100 arms), 50 at K = 136 as in the large-scale study. Claims C5 (at T = 2**53) and A1-A6
(docs/asymptotic.md). Without --plot-only the lines not stored yet are computed one at a time, the cheapest first
(``cheapest_first``; --algorithms and --datasets choose which). Usage: ``python reproduce/asymptotic.py
[--plot-only] [--algorithms NAME ...] [--datasets NAME ...] [--quick] [--runs N] ...``.
"""

import math
from dataclasses import replace

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.algorithms.base import MAX_EXACT_HORIZON
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.claims import paper as pc
from dts_reproduction.reproduce.claims.registry import ASYMPTOTIC
from dts_reproduction.reproduce.claims.verdict import (
    Estimate,
    Missing,
    Site,
    by_name,
    checked,
    exceeds,
    limit_above,
    need,
    reaches_limit,
)
from dts_reproduction.reproduce.cli.arguments import add_line_selection, check_selection, doc_summary
from dts_reproduction.reproduce.cli.figure import figure_main
from dts_reproduction.reproduce.config.scale import power_of_ten
from dts_reproduction.reproduce.harness import portable_math
from dts_reproduction.reproduce.harness.cost import estimated_run_seconds
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.plotting import (
    LOWER_BOUND_LOOK,
    NOTE_LINE,
    NOTE_MARGIN,
    NOTE_TOP,
    OPTIMAL_ORACLE_LOOK,
    PAPER_SIGN_LOOK,
    RATIO_AXIS_HEIGHT,
    RATIO_FIGURE_WIDTH,
    RATIO_ROW_HEIGHT,
    RATIO_TICKS,
    SLOPE_PANEL_SIZE,
    WINNER_CONSTANT_LOOK,
    WINNER_ORACLE_LOOK,
    figure_legend,
    save_figure,
    setup_theme,
    style,
)
from dts_reproduction.reproduce.output.tables import print_table, write_table
from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_lines import (
    ORACLE_OPTIMAL,
    ORACLE_WINNER,
    PANELS,
    RMED2_PAPER,
    TAGGED,
    cheapest_first,
)
from dts_reproduction.reproduce.studies.asymptotic_study.decade_pairs import class_limit_rows, decade_pair_rows
from dts_reproduction.reproduce.studies.asymptotic_study.decades import (
    FIRST_DECADE_END,
    decade_slopes,
    linear,
    slope_limit,
    trapped,
    untrapped,
)
from dts_reproduction.reproduce.studies.asymptotic_study.forced_band import forced_band_rows
from dts_reproduction.reproduce.studies.asymptotic_study.forced_sweeps import sweep_rows
from dts_reproduction.reproduce.studies.asymptotic_study.pair_costs import costliest_pair_rows, resimulated_comparisons
from dts_reproduction.reproduce.studies.asymptotic_study.partner_runs import partner_switch_rows
from dts_reproduction.reproduce.studies.experiment import (
    LOWER_BOUND_LABEL,
    evidence_note,
    final_table,
    panel_curves,
    save_figure_with_claims,
    simulate_panels,
    with_lower_bounds,
)
from dts_reproduction.reproduce.studies.lower_bounds import lower_bound
from dts_reproduction.reproduce.studies.regret_bound import condorcet_allocation, pair_regrets, winner_constant

NAME = ASYMPTOTIC
COST_HORIZON = 10**10  # what the lines without a Condorcet winner would cost at this horizon (``cost_rows``)
# The re-simulated runs whose comparisons per pair are tabulated (``allocation_rows``), on matrices up to this K.
ALLOCATION_RUNS = 10
ALLOCATION_MAX_ARMS = 32
# C_w and C differ when C_w exceeds C by more than this share (they are equal, up to rounding, when the winner is
# every arm's optimal partner): then C_w is drawn beside C and A5 also checks that D-TS's limit is above C.
WINNER_APART = 1e-3


def lower_bounds_of(panels, settings: Settings) -> dict:
    """{panel id (``Panel.key``): (C, its model, C_w or NaN)}: each panel's lower bound
    (``reproduce.studies.lower_bounds``, cached in ``settings.out`` unless the run only reads) and, with a Condorcet
    winner, its winner constant."""
    out = {}
    for panel in panels:
        constant, model = lower_bound(panel.dataset, settings.out,
                                      store=not (settings.plot_only or settings.stored_only))
        dataset = load_dataset(panel.dataset)
        out[panel.key] = (constant, model, winner_constant(dataset.P) if dataset.has_condorcet_winner else math.nan)
    return out


def slope_rows(panels, results, lower_bounds) -> pd.DataFrame:
    """One row per panel, curve and decade end t: the mean slope over [t/10, t] of its logarithmic runs with
    standard error and 95 % bootstrap interval, R(t)/ln t, and the panel's C and C_w (``results``: the (title,
    curves) of ``panels``; ``lower_bounds``: ``lower_bounds_of``'s)."""
    rows = []
    for panel, (title, curves) in zip(panels, results, strict=True):
        constant, _model, winner = lower_bounds[panel.key]
        for res in curves:
            if linear(res):
                continue
            slopes = decade_slopes(res)
            for k, end in enumerate(slopes.ends):
                rows.append({"panel": title, "dataset": res.line.dataset, "algorithm": res.line.name,
                             "label": res.label, "decade_end": int(end), "slope": slopes.mean[k],
                             "slope_se": slopes.se[k], "slope_low": slopes.low[k], "slope_high": slopes.high[k],
                             "regret_per_log_t": slopes.regret_per_log[k], "lower_bound_slope": constant,
                             "winner_constant": winner})
    return pd.DataFrame(rows)


def summary_table(panels, results, lower_bounds) -> pd.DataFrame:
    """Per panel and curve: ``experiment.final_table`` of its logarithmic runs with the panel's lower bound, the
    number of trapped runs, the last decade's slope over C and over C_w, and the fitted limit of the slope and
    weight of ln ln t (``decades.slope_limit``; NaN with fewer than three decades past 1e6); a ``decades.linear``
    line has a row with its counts of logarithmic (``runs``) and trapped runs and no slope (``results``: the (title,
    curves) of ``panels``; ``lower_bounds``: ``lower_bounds_of``'s).  The column ``slope_over_bound`` is the slope
    over the lower bound C, named as in the committed tables."""
    logarithmic = [(title, [untrapped(res) for res in curves if not linear(res)]) for title, curves in results]
    linear_lines = [{"panel": title, "dataset": res.line.dataset, "algorithm": res.line.name, "label": res.label,
                     "horizon": res.line.horizon, "runs": int((~trapped(res)).sum()),
                     "trapped_runs": int(trapped(res).sum()), "slope_last_decade": math.nan,
                     "lower_bound_slope": lower_bounds[panel.key][0], "lower_bound_model": lower_bounds[panel.key][1],
                     "winner_constant": lower_bounds[panel.key][2]}
                    for panel, (title, curves) in zip(panels, results, strict=True) for res in curves if linear(res)]
    if not any(curves for _, curves in logarithmic):
        return pd.DataFrame(linear_lines)
    table = with_lower_bounds(final_table(logarithmic), lower_bounds, panels)
    counts = {(title, res.line.name): int(trapped(res).sum()) for title, curves in results for res in curves}
    limits = {(title, res.line.name): slope_limit(decade_slopes(res))
              for title, curves in logarithmic for res in curves}
    table["trapped_runs"] = [counts[key] for key in zip(table["panel"], table["algorithm"], strict=True)]
    panel_ids = {panel.title: panel.key for panel in panels}
    table["winner_constant"] = table["panel"].map(lambda title: lower_bounds[panel_ids[title]][2])
    table["slope_over_bound"] = table["slope_last_decade"] / table["lower_bound_slope"]
    table["slope_over_winner_constant"] = table["slope_last_decade"] / table["winner_constant"]
    fits = [limits[key] for key in zip(table["panel"], table["algorithm"], strict=True)]
    table["slope_limit"] = [fit.limit.value if fit else math.nan for fit in fits]
    table["slope_limit_se"] = [fit.limit.se if fit else math.nan for fit in fits]
    table["slope_limit_tolerance"] = [fit.tolerance if fit else math.nan for fit in fits]
    table["loglog_weight"] = [fit.loglog.value if fit else math.nan for fit in fits]
    table["loglog_weight_se"] = [fit.loglog.se if fit else math.nan for fit in fits]
    return pd.concat([table, pd.DataFrame(linear_lines)], ignore_index=True) if linear_lines else table


def allocation_rows(panels, results, known: pd.DataFrame | None = None) -> pd.DataFrame:
    """Where each line's comparisons go, against the bound's optimal allocation (``condorcet_allocation``), on
    the Condorcet panels with at most ALLOCATION_MAX_ARMS arms: its first ALLOCATION_RUNS runs are simulated again
    (``pair_costs.resimulated_comparisons``: each must end at its stored R(T) bit for bit), and the regret per ln T
    of their comparisons of a
    non-winner with the winner, with its optimal partner (when that is not the winner) and with any other arm,
    and of its self-comparisons of non-winners, is set beside C (the optimal allocation's regret per ln T) and
    C_w.  A line with a row in ``known`` (the table written before: same panel, line, runs and horizon) keeps that
    row, so redrawing re-simulates only lines stored since.  ValueError if a re-simulated run differs from its stored
    one."""
    rows = []
    kept = {} if known is None else {(row["panel"], row["algorithm"], row["runs"], row["horizon"]): row
                                     for row in known.to_dict("records")}
    for panel, (title, curves) in zip(panels, results, strict=True):
        dataset = load_dataset(panel.dataset)
        if not dataset.has_condorcet_winner or dataset.K > ALLOCATION_MAX_ARMS:
            continue
        best = condorcet_allocation(dataset.P)
        regret = pair_regrets(dataset.P)
        losers = np.array([i for i in range(dataset.K) if i != best.winner])
        with_winner = np.zeros((dataset.K, dataset.K), bool)
        with_winner[losers, best.winner] = with_winner[best.winner, losers] = True
        with_partner = np.zeros_like(with_winner)
        moved = losers[best.partner[losers] != best.winner]
        with_partner[moved, best.partner[moved]] = with_partner[best.partner[moved], moved] = True
        other = ~(with_winner | with_partner | np.eye(dataset.K, dtype=bool))
        for res in curves:
            key = (title, res.line.name, min(ALLOCATION_RUNS, res.final.size), res.line.horizon)
            if key in kept:
                rows.append(kept[key])
                continue
            counts = resimulated_comparisons(dataset, res, min(ALLOCATION_RUNS, res.final.size), title)
            n = np.mean(counts, axis=0) / math.log(res.line.horizon)
            self_regret = (res.self_counts[:len(counts)].mean(axis=0) / math.log(res.line.horizon)
                           * np.diag(regret))
            # each unordered pair once: half the symmetric sum
            rows.append({"panel": title, "dataset": panel.dataset, "algorithm": res.line.name, "label": res.label,
                         "runs": len(counts), "horizon": res.line.horizon,
                         "winner_pairs": 0.5 * float((n * regret)[with_winner].sum()),
                         "partner_pairs": 0.5 * float((n * regret)[with_partner].sum()),
                         "other_pairs": 0.5 * float((n * regret)[other].sum()),
                         "self_comparisons": float(self_regret[losers].sum()),
                         "lower_bound_slope": float(best.cost.sum()), "winner_constant": float(best.winner_cost.sum())})
    return pd.DataFrame(rows)


def cost_rows(panels, results) -> pd.DataFrame:
    """What the lines without a Condorcet winner cost (a run costs up to its T slots, the cost at COST_HORIZON is
    scaled linearly from it, an upper estimate where a line skips self-comparisons): per
    line the CPU seconds of a run, measured from its stored chunks where every run is stored, else estimated by the
    harness's cost model (``reproduce.harness.cost``, from bench/step_cost.csv), and the CPU hours of the whole line
    at its horizon and at T = COST_HORIZON."""
    stored = {(title, res.line.name): res for title, curves in results for res in curves}
    rows = []
    paper_scale = Settings.library(default_horizon=MAX_EXACT_HORIZON, fast=True)
    for panel in panels:
        dataset = load_dataset(panel.dataset)
        if dataset.has_condorcet_winner:
            continue
        for curve in panel_curves(panel, paper_scale):
            line = curve[0]
            res = stored.get((panel.title, line.name))
            if res is not None:
                seconds, source = res.meta["cpu_seconds"] / line.runs, "measured"
            else:
                seconds, source = estimated_run_seconds(line, dataset), "estimated (bench)"
            rows.append({"panel": panel.title, "algorithm": line.name, "runs": line.runs, "horizon": line.horizon,
                         "cpu_seconds_per_run": seconds, "source": source,
                         "cpu_hours": seconds * line.runs / 3600.0,
                         "cpu_hours_at_1e10": seconds * line.runs / 3600.0 * COST_HORIZON / line.horizon})
    return pd.DataFrame(rows)


def limit_of(r: dict, name: str):
    """The fitted limit of the slope of the curve ``name`` (``decades.slope_limit``); ``Missing`` if the curve is not
    computed or has fewer than three decades past 1e6 and the hump."""
    fit = slope_limit(decade_slopes(need(r, name)[0]))
    if fit is None:
        raise Missing(f"{name}: fewer than three decades past 1e6 and the hump")
    return fit


def limit_text(fit) -> str:
    """How a claims row prints a fitted limit: value +- standard error, and its model-error tolerance."""
    return f"{fit.limit} (tolerance {fit.tolerance:.1f})"


def reaches(claim: str, site: Site, r: dict, name: str, target: float, what: str) -> dict:
    """A check "the slope of ``name`` tends to ``target`` (named ``what``)", decided on its fitted limit by the limit
    rule (``claims.verdict.reaches_limit``)."""
    def check():
        """(text, verdict) of the check."""
        fit = limit_of(r, name)
        return (f"{r[name].label} slope limit {limit_text(fit)}; {what} {target:.1f}",
                reaches_limit(fit.limit, fit.tolerance, target))
    label = r[name].label if name in r else name
    return checked(claim, site, f"{label}'s slope limit within 2 s.e. and its tolerance of {what}", check)


def part_row(parts: pd.DataFrame, name: str, part: str) -> pd.Series:
    """The row of ``decade_pairs.class_limit_rows`` (one panel's) of the line ``name`` and class ``part``;
    ``Missing`` if the line's regret is not split by decade."""
    row = parts[(parts["algorithm"] == name) & (parts["part"] == part)]
    if row.empty or not np.isfinite(row["limit"].iloc[0]):
        raise Missing(f"{name}'s regret split by decade ({part})")
    return row.iloc[0]


def part_estimate(row: pd.Series) -> Estimate:
    """The fitted limit of one class's regret per ln t (a ``part_row``)."""
    return Estimate(float(row["limit"]), float(row["limit_se"]))


def theorem2_claims(site: Site, parts: pd.DataFrame) -> list[dict]:
    """A7 on a panel whose regret is split by decade (``decade_pairs``): D-TS's regret per ln t with the strongest
    superiors that are not the winner tends to a positive limit, and with the remaining arms to 0; each part only
    where its class of pairs is not empty."""
    def stays():
        """(text, verdict) of part 2."""
        row = part_row(parts, "dts", "superior")
        return (f"D-TS's regret per ln t with strongest superiors other than the winner: limit "
                f"{part_estimate(row)}, last decade {row['last_decade']:.1f} +- {row['last_decade_se']:.1f} "
                f"({int(row['runs'])} runs)", exceeds(part_estimate(row), 0.0))

    def fades():
        """(text, verdict) of part 3."""
        row = part_row(parts, "dts", "other")
        return (f"D-TS's regret per ln t with the remaining arms: limit {part_estimate(row)} (tolerance "
                f"{row['tolerance']:.1f}), weight of ln ln t {row['loglog_weight']:.1f} +- "
                f"{row['loglog_weight_se']:.1f} ({int(row['runs'])} runs)",
                reaches_limit(part_estimate(row), float(row["tolerance"]), 0.0))
    first = parts.iloc[0]
    rows = [checked("A7", site.curve("superior", "strongest superiors"), "above 0: part 2 grows like ln t", stays)]\
        if first["superiors_not_winner"] else []
    return rows + ([checked("A7", site.curve("other", "remaining arms"), "limit 0 (2 s.e. and its tolerance): part 3 "
                            "grows like ln ln t", fades)] if first["remaining_pairs"] else [])


def panel_claims(key: str, title: str, curves, lower_bounds, dataset, parts: pd.DataFrame) -> list[dict]:
    """The claim rows of the panel ``key`` (``Panel.key``), titled ``title``, on ``dataset`` (only C5 and A1-A7 on
    the Condorcet panels; A7 where ``parts``, the panel's ``decade_pairs.class_limit_rows``, has rows);
    ``lower_bounds``: ``lower_bounds_of``'s."""
    if not dataset.has_condorcet_winner:
        return []
    constant, _model, winner = lower_bounds[key]
    site = pc.panel_site(NAME, "Asymptotic", key, title)
    r = by_name(curves)
    logarithmic = {name: untrapped(res) for name, res in r.items()}
    left_out = {name: pc.TrappedRuns(int(trapped(res).sum()), res.final.size, linear(res)) for name, res in r.items()
                if trapped(res).any()}
    rows = [pc.c5_same_slope_lower_constant(site, logarithmic, left_out),
            reaches("A1", site, r, "dts", constant, "C"),
            reaches("A2", site.curve("rmed2", "RMED2"), r, "rmed2", constant, "C"),
            reaches("A2", site.curve(RMED2_PAPER.tag, RMED2_PAPER.tag), r, RMED2_PAPER.tag, constant, "C")]

    def same_limit():
        """(text, verdict) of A3: the difference of the two limits against 0."""
        dts, plus = limit_of(r, "dts"), limit_of(r, "dts_plus")
        difference = Estimate(plus.limit.value - dts.limit.value, math.hypot(plus.limit.se, dts.limit.se))
        tolerance = math.hypot(plus.tolerance, dts.tolerance)
        return (f"slope limits: D-TS {limit_text(dts)}, D-TS+ {limit_text(plus)}; difference {difference}",
                reaches_limit(difference, tolerance, 0.0))
    rows.append(checked("A3", site, "D-TS+'s and D-TS's slope limits differ by less than 2 s.e. and their "
                        "tolerances", same_limit))

    def loglog_term():
        """(text, verdict) of A4."""
        fit = limit_of(r, "dts")
        return (f"D-TS slope(t) = {fit.limit} + ({fit.loglog}) / ln t over {fit.decades} decades from "
                f"{power_of_ten(fit.start)}",
                exceeds(fit.loglog, 0.0))
    rows.append(checked("A4", site, "D-TS's weight of ln ln t above 0", loglog_term))
    rows.append(reaches("A5", site, r, "dts", winner, "C_w"))
    if winner > constant * (1.0 + WINNER_APART):
        def not_c():
            """(text, verdict) of A5's second half: where C_w and C differ, the limit is above C."""
            fit = limit_of(r, "dts")
            return (f"D-TS slope limit {limit_text(fit)}; C {constant:.1f}",
                    limit_above(fit.limit, fit.tolerance, constant))
        rows.append(checked("A5", site.curve("above_C", "not C"), "D-TS's slope limit above C by more than 2 s.e. "
                            "and its tolerance", not_c))
    rows += [reaches("A6", site.curve(oracle.tag, oracle.tag), r, oracle.tag, target, what)
             for oracle, target, what in ((ORACLE_OPTIMAL, constant, "C"), (ORACLE_WINNER, winner, "C_w"))]
    if not parts.empty:
        rows += theorem2_claims(site, parts)
    return rows


def trapped_note(curves) -> str:
    """A panel's note on its trapped runs: the ``decades.linear`` lines, named with their trapped runs out of all
    under "regret linear in t", then the lines that keep a slope but leave some trapped runs out of it; two lines
    per row; empty if no run is trapped."""
    def listed(heading, lines):
        """``heading`` over the lines' labels and counts, two per row; empty for no line."""
        named = [f"{res.label} ({int(trapped(res).sum())}/{res.final.size})" for res in lines]
        rows = (", ".join(named[k:k + 2]) for k in range(0, len(named), 2))
        return [heading + ":\n" + ",\n".join(rows)] if named else []
    return "\n".join([*listed("regret linear in t (runs trapped)", [res for res in curves if linear(res)]),
                      *listed("trapped runs left out of the slope",
                              [res for res in curves if not linear(res) and trapped(res).any()])])


def room_above(ax, note_lines: int) -> None:
    """Raise the top of ``ax``'s log y axis so that its data end below a note of ``note_lines`` lines whose top is
    at NOTE_TOP of the panel's height (NOTE_LINE of the height per line, at the figure's panel size), with
    NOTE_MARGIN between them."""
    low, high = ax.get_ylim()
    data_share = NOTE_TOP - NOTE_LINE * note_lines - NOTE_MARGIN
    ax.set_ylim(low, low * (high / low) ** (1.0 / data_share))


def plot(panels, results, lower_bounds) -> tuple:
    """The slope figure: per panel, the slope of R against ln t per decade (y, log scale) over log10 t, one line per
    algorithm with its 95 % bootstrap band, C (dark, solid) and C_w (dark, dotted) as horizontal lines, x up to the
    panel's horizon; a ``decades.linear`` line (most runs trapped) is named in the panel with its trapped runs out
    of all, not drawn, and so are the trapped runs a line's slope leaves out (``trapped_note``); then
    ``<stem>_ratio``: each algorithm's last-decade slope over C per Condorcet matrix (``results``: the (title, curves)
    of ``panels``; ``lower_bounds``: ``lower_bounds_of``'s).  Returns (figure, bottom)."""
    setup_theme()
    ncols = 3
    rows = -(-len(results) // ncols)
    width, height = SLOPE_PANEL_SIZE
    fig, axes = plt.subplots(rows, ncols, figsize=(width * ncols, height * rows), squeeze=False)
    for ax, panel, (title, curves) in zip(axes.flat, panels, results, strict=False):
        constant, _model, winner = lower_bounds[panel.key]
        for res in curves:
            if linear(res):
                continue
            slopes = decade_slopes(res)
            look = curve_look(res)
            x = portable_math.log10(slopes.ends.astype(float))
            ax.plot(x, slopes.mean, color=look["color"], marker=look["marker"], linestyle=look["linestyle"],
                    markersize=3, linewidth=1.1, label=res.label)
            ax.fill_between(x, slopes.low, slopes.high, color=look["color"], alpha=0.15, linewidth=0)
        if not curves:
            ax.text(0.5, 0.5, "not computed yet", transform=ax.transAxes, ha="center", va="center", fontsize=8,
                    color="0.4")
        ax.axhline(constant, label=LOWER_BOUND_LABEL, **LOWER_BOUND_LOOK)
        if math.isfinite(winner) and winner > constant * (1.0 + WINNER_APART):
            ax.axhline(winner, label="winner constant C_w", **WINNER_CONSTANT_LOOK)
        ax.set_yscale("log")
        panel_note = trapped_note(curves)
        if panel_note:
            ax.text(0.97, NOTE_TOP, panel_note, transform=ax.transAxes, ha="right", va="top", fontsize=7,
                    color="0.25")
            room_above(ax, panel_note.count("\n") + 1)
        horizon = max((res.line.horizon for res in curves), default=MAX_EXACT_HORIZON)
        ax.set_xlim(math.log10(FIRST_DECADE_END) - 0.3, math.log10(horizon) + 0.3)
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("log10 t (decade [t/10, t])", fontsize=8)
        ax.set_ylabel("slope of R(t) per ln t", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in axes.flat[len(results):]:
        ax.set_visible(False)
    caption = ("Slope of the mean regret against ln t over each decade (logarithmic runs only; 95% bootstrap band).\n"
               "Dark solid line: the lower bound's C (Copeland regret); dark dotted: C_w, the cost of comparing every "
               "arm with the winner;\ngrey dashed and dash-dotted: the oracles that play those two allocations. A "
               "panel's own note names its trapped runs.")
    bottom = figure_legend(fig, list(axes.flat), caption, ncol=6,
                           last=(LOWER_BOUND_LABEL, "winner constant C_w"))
    return fig, bottom


# How a tagged curve is drawn apart from its algorithm's ``plotting.style`` (the looks are ``plotting``'s).
TAGGED_LOOKS = {RMED2_PAPER.tag: PAPER_SIGN_LOOK, ORACLE_OPTIMAL.tag: OPTIMAL_ORACLE_LOOK,
                ORACLE_WINNER.tag: WINNER_ORACLE_LOOK}


def curve_look(result) -> dict:
    """``plotting.style`` of a curve, with ``TAGGED_LOOKS`` for a tagged one."""
    look = style(result)
    look.update(TAGGED_LOOKS.get(result.line.name, {}))
    return look


def ratio_figure(table: pd.DataFrame, stem) -> None:
    """``<stem>_ratio.png``: per Condorcet matrix (rows), each algorithm's last-decade slope over C (x, log scale),
    with C_w / C marked: where the slopes sit against the bound at the largest horizon.  A linear line (no slope) is
    an arrow at the right edge, named with its trapped runs."""
    setup_theme()
    condorcet = table[table["winner_constant"].notna() & (table["runs"] > 0)]
    panels = list(dict.fromkeys(condorcet["panel"]))
    fig, ax = plt.subplots(figsize=(RATIO_FIGURE_WIDTH, RATIO_ROW_HEIGHT * len(panels) + RATIO_AXIS_HEIGHT))
    labels = list(dict.fromkeys(condorcet["label"]))
    looks = {}
    for k, label in enumerate(labels):
        part = condorcet[condorcet["label"] == label]
        name = part["algorithm"].iloc[0]
        spec = get_algorithm(TAGGED.get(name, name))
        looks[label] = {"color": spec.color, "marker": spec.marker, **TAGGED_LOOKS.get(name, {})}
        y = [panels.index(p) + (k - len(labels) / 2) * 0.06 for p in part["panel"]]
        ax.scatter(part["slope_over_bound"], y, color=looks[label]["color"], marker=looks[label]["marker"], s=22,
                   label=label)
    edge = RATIO_TICKS[-1]
    for row in condorcet[condorcet["slope_over_bound"].isna()].itertuples():
        k = panels.index(row.panel)
        ax.scatter([edge], [k], color=looks[row.label]["color"], marker=">", s=30, clip_on=False)
        ax.annotate(f"{row.label}: regret linear in {row.trapped_runs} of {row.runs + row.trapped_runs} runs",
                    (edge, k), xytext=(-7, 0), textcoords="offset points", ha="right", va="center", fontsize=7,
                    color="0.2")
    for k, panel in enumerate(panels):
        ratio = condorcet[condorcet["panel"] == panel]["slope_over_winner_constant"]
        winner_over_bound = (condorcet[condorcet["panel"] == panel]["slope_over_bound"] / ratio).iloc[0]
        ax.plot([winner_over_bound] * 2, [k - 0.4, k + 0.4], **WINNER_CONSTANT_LOOK)
    ax.axvline(1.0, **LOWER_BOUND_LOOK)
    ax.set_xscale("log")
    ax.set_xticks(RATIO_TICKS, [f"{tick:g}" for tick in RATIO_TICKS])
    ax.set_yticks(range(len(panels)), panels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("last-decade slope / lower bound C (1 = the bound; dotted: C_w / C)", fontsize=8)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.tight_layout()
    save_figure(fig, stem.with_name(f"{stem.name}_ratio"))


def build(settings: Settings) -> None:
    """Simulate (or read, with --plot-only) every panel's lines under ``settings`` with the fast paths (in the
    folders of ``settings``: the study offers no --fast) and write the study's tables, figures and claims."""
    settings = replace(settings, fast=True)
    check_selection(settings, [line for panel in PANELS for curve in panel_curves(panel, settings) for line in curve])
    results = simulate_panels(NAME, PANELS, settings, cheapest_first(settings))
    lower_bounds = lower_bounds_of(PANELS, settings)
    stem = settings.figures / NAME
    write_table(slope_rows(PANELS, results, lower_bounds), stem.with_name(f"{NAME}.csv"))
    table = summary_table(PANELS, results, lower_bounds)
    write_table(table, stem.with_name(f"{NAME}_final.csv"))
    write_table(cost_rows(PANELS, results), stem.with_name(f"{NAME}_cost.csv"))
    allocation_path = stem.with_name(f"{NAME}_allocation.csv")
    known = pd.read_csv(allocation_path) if allocation_path.is_file() else None
    write_table(allocation_rows(PANELS, results, known), allocation_path)
    pairs_path = stem.with_name(f"{NAME}_pairs.csv")
    write_table(costliest_pair_rows(PANELS, results, pd.read_csv(pairs_path) if pairs_path.is_file() else None),
                pairs_path)
    write_table(forced_band_rows(PANELS, settings, results), stem.with_name(f"{NAME}_forced_band.csv"))
    write_table(sweep_rows(PANELS, results), stem.with_name(f"{NAME}_sweeps.csv"))
    print_table(table[["panel", "label", "runs", "trapped_runs", "slope_last_decade", "lower_bound_slope",
                       "winner_constant", "slope_limit"]])
    decade_path = stem.with_name(f"{NAME}_decade_pairs.csv")
    decade_rows = decade_pair_rows(PANELS, results, pd.read_csv(decade_path) if decade_path.is_file() else None)
    write_table(decade_rows, decade_path)
    parts = class_limit_rows(decade_rows)
    write_table(parts, stem.with_name(f"{NAME}_decade_parts.csv"))
    write_table(partner_switch_rows(PANELS, results), stem.with_name(f"{NAME}_partner_runs.csv"))
    claim_rows = [row for panel, (title, curves) in zip(PANELS, results, strict=True)
                  for row in panel_claims(panel.key, title, curves, lower_bounds, load_dataset(panel.dataset),
                                          parts[parts["panel"] == title] if not parts.empty else parts)]
    fig, bottom = plot(PANELS, results, lower_bounds)
    checks = save_figure_with_claims(fig, stem, bottom, claim_rows, evidence_note(settings, PANELS))
    ratio_figure(table, stem)
    print_table(checks.drop(columns="statement"))
    print(f"wrote {stem}.png, .pdf, .csv, {stem.name}_ratio.png")


def main(argv=None):
    """Run the study from the command line (see module docstring)."""
    figure_main(doc_summary(__doc__), MAX_EXACT_HORIZON, build, argv, more_flags=add_line_selection, fast=False)


if __name__ == "__main__":
    main()
