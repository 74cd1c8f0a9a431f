"""Regret panels drawn with their lower bounds: the step the paper's regret figures (``paper_figures.regret_figure``),
a run of one's own (``custom_runs``, ``reproduce/run.py``) and the benchmark (``benchmark_study``) share.  The panels
are simulated or loaded, every regret panel gets its asymptotic lower bound wherever it can be computed (the Condorcet
constant when the matrix has a Condorcet winner, else the Copeland one: ``lower_bound.regret_lower_bound``, through
its cache), the curves are drawn with the bound's slope beside them, and the final-regret table carries the bounds."""

import pandas as pd

from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.plotting import plot_regret_panels
from dts_reproduction.reproduce.studies.experiment import (
    LOWER_BOUND_LABEL,
    final_table,
    simulate_panels,
    with_lower_bounds,
)
from dts_reproduction.reproduce.studies.lower_bound_cache import lower_bound


def panel_lower_bounds(panels, settings: Settings) -> dict:
    """{panel id (``Panel.key``): (C, model)} of every panel of ``panels`` drawn in Copeland regret (a G2W panel has
    none), read from the cache under ``settings.out`` or computed; the cache is written unless --plot-only or
    --stored-only, which write nothing into the results folder."""
    store = not (settings.plot_only or settings.stored_only)
    return {panel.key: lower_bound(panel.dataset, settings.out, store=store) for panel in panels
            if panel.metric == "regret"}


def draw_regret_panels(name: str, panels, settings: Settings, ncols: int = 2, stacked_titles: bool = False,
                       known=None) -> tuple[list, pd.DataFrame]:
    """Simulate (or load) ``panels`` under ``settings`` (``simulate_panels``, with the lines ``known`` already read,
    which writes ``<figures>/<name>_lines.csv``) and draw them, ``ncols`` a row (``stacked_titles``: see
    ``plot_regret_panels``), into ``<figures>/<name>.png|pdf|csv``, each regret panel with the slope line of its lower
    bound (``panel_lower_bounds``).  Returns the panels' results, [(title, [LineResult])], and their final-regret
    table (``final_table`` of the regret panels, with the bounds: ``with_lower_bounds``), which the caller writes."""
    results = simulate_panels(name, panels, settings, known=known)
    bounds = panel_lower_bounds(panels, settings)
    table = with_lower_bounds(final_table([(title, res) for (title, res), panel in zip(results, panels, strict=True)
                                           if panel.metric == "regret"]), bounds, panels)
    plot_regret_panels(results, settings.figures / name, ncols=ncols, zooms=[panel.zoom for panel in panels],
                       metrics=[panel.metric for panel in panels], stacked_titles=stacked_titles,
                       references=[(bounds[panel.key][0], LOWER_BOUND_LABEL) if panel.key in bounds else None
                                   for panel in panels])
    return results, table
