"""The asymptotic study's run (``reproduce/asymptotic.py`` calls ``build``): simulate or read its lines, then write
its tables, claims and figures."""

from dataclasses import replace

import pandas as pd

from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.claims.registry import ASYMPTOTIC
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.tables import print_table, write_table
from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_claims import panel_claims
from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_figures import plot, ratio_figure
from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_lines import PANELS, cheapest_first
from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_tables import (
    allocation_rows,
    cost_rows,
    lower_bounds_of,
    slope_rows,
    summary_table,
)
from dts_reproduction.reproduce.studies.asymptotic_study.decade_pairs import class_limit_rows, decade_pair_rows
from dts_reproduction.reproduce.studies.asymptotic_study.forced_band import forced_band_rows
from dts_reproduction.reproduce.studies.asymptotic_study.forced_sweeps import sweep_rows
from dts_reproduction.reproduce.studies.asymptotic_study.pair_costs import costliest_pair_rows
from dts_reproduction.reproduce.studies.asymptotic_study.partner_runs import partner_switch_rows
from dts_reproduction.reproduce.studies.experiment import (
    check_selection,
    evidence_note,
    panel_curves,
    save_figure_with_claims,
    simulate_panels,
)


def build(settings: Settings) -> None:
    """Simulate (or read, with --plot-only) every panel's lines under ``settings`` with the fast paths (in the
    folders of ``settings``: the study offers no --fast) and write the study's tables, figures and claims."""
    settings = replace(settings, fast=True)
    check_selection(settings, [line for panel in PANELS for curve in panel_curves(panel, settings) for line in curve])
    results = simulate_panels(ASYMPTOTIC, PANELS, settings, cheapest_first(settings))
    lower_bounds = lower_bounds_of(PANELS, settings)
    stem = settings.figures / ASYMPTOTIC
    write_table(slope_rows(PANELS, results, lower_bounds), stem.with_name(f"{ASYMPTOTIC}.csv"))
    table = summary_table(PANELS, results, lower_bounds)
    write_table(table, stem.with_name(f"{ASYMPTOTIC}_final.csv"))
    write_table(cost_rows(PANELS, results), stem.with_name(f"{ASYMPTOTIC}_cost.csv"))
    allocation_path = stem.with_name(f"{ASYMPTOTIC}_allocation.csv")
    known = pd.read_csv(allocation_path) if allocation_path.is_file() else None
    write_table(allocation_rows(PANELS, results, known), allocation_path)
    pairs_path = stem.with_name(f"{ASYMPTOTIC}_pairs.csv")
    write_table(costliest_pair_rows(PANELS, results, pd.read_csv(pairs_path) if pairs_path.is_file() else None),
                pairs_path)
    write_table(forced_band_rows(PANELS, settings, results), stem.with_name(f"{ASYMPTOTIC}_forced_band.csv"))
    write_table(sweep_rows(PANELS, results), stem.with_name(f"{ASYMPTOTIC}_sweeps.csv"))
    print_table(table[["panel", "label", "runs", "trapped_runs", "slope_last_decade", "lower_bound_slope",
                       "winner_constant", "slope_limit"]])
    decade_path = stem.with_name(f"{ASYMPTOTIC}_decade_pairs.csv")
    decade_rows = decade_pair_rows(PANELS, results, pd.read_csv(decade_path) if decade_path.is_file() else None)
    write_table(decade_rows, decade_path)
    parts = class_limit_rows(decade_rows)
    write_table(parts, stem.with_name(f"{ASYMPTOTIC}_decade_parts.csv"))
    write_table(partner_switch_rows(PANELS, results), stem.with_name(f"{ASYMPTOTIC}_partner_runs.csv"))
    claim_rows = [row for panel, (title, curves) in zip(PANELS, results, strict=True)
                  for row in panel_claims(panel.key, title, curves, lower_bounds, load_dataset(panel.dataset),
                                          parts[parts["panel"] == title] if not parts.empty else parts)]
    fig, bottom = plot(PANELS, results, lower_bounds)
    checks = save_figure_with_claims(fig, stem, bottom, claim_rows, evidence_note(settings, PANELS))
    ratio_figure(table, stem)
    print_table(checks.drop(columns="statement"))
    print(f"wrote {stem}.png, .pdf, .csv, {stem.name}_ratio.png")
