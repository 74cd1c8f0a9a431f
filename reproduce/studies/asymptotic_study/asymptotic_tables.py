"""The asymptotic study's tables (docs/asymptotic.md#what-is-measured), from its simulated lines: the slopes per
decade (``slope_rows``), the summary per line with the fitted limit of its slope (``summary_table``), where the
comparisons go against the bound's optimal allocation (``allocation_rows``), what the lines without a Condorcet winner
cost (``cost_rows``), and each panel's lower bound and winner constant they are set against (``lower_bounds_of``)."""

import math

import numpy as np
import pandas as pd

from dts_reproduction.algorithms.base import MAX_EXACT_HORIZON
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.cost import estimated_run_seconds
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.studies.asymptotic_study.decades import (
    decade_slopes,
    linear,
    slope_limit,
    trapped,
    untrapped,
)
from dts_reproduction.reproduce.studies.asymptotic_study.pair_costs import resimulated_comparisons
from dts_reproduction.reproduce.studies.experiment import final_table, panel_curves, with_lower_bounds
from dts_reproduction.reproduce.studies.lower_bound import condorcet_allocation, pair_regrets, winner_constant
from dts_reproduction.reproduce.studies.lower_bound_cache import lower_bound

COST_HORIZON = 10**10  # what the lines without a Condorcet winner would cost at this horizon (``cost_rows``)
# The re-simulated runs whose comparisons per pair are tabulated (``allocation_rows``), on matrices up to this K.
ALLOCATION_RUNS = 10
ALLOCATION_MAX_ARMS = 32


def lower_bounds_of(panels, settings: Settings) -> dict:
    """{panel id (``Panel.key``): (C, its model, C_w or NaN)}: each panel's lower bound
    (``reproduce.studies.lower_bound_cache``, cached in ``settings.out`` unless the run only reads) and, with a
    Condorcet winner, its winner constant."""
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
