"""The successors study's figure (``plot``, ``figures/successors.png``): the final regret of every algorithm on every
matrix, read at a glance.  Four panels: the Copeland regret of Eq. 1 (top) and the weak regret (bottom) at each
matrix's horizon T, on the matrices with a Condorcet winner (left) and without one (right); one column of markers
per matrix, one marker per algorithm (its colour and marker, mean over runs with +-2 standard errors), on a log
axis.  The algorithm each column's claim is about -- D-TS with a Condorcet winner, D-TS+ without -- is ringed and
drawn first in its group, so that what lies below it is what beats it."""

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.reproduce.claims.verdict import NOISE_SE
from dts_reproduction.reproduce.output.plotting import (
    FIGURE_WIDTH,
    PANEL_HEIGHT,
    figure_legend,
    save_figure,
    setup_theme,
)
from dts_reproduction.reproduce.output.tables import write_table

# The algorithm each column's claim is about, by whether its matrices have a Condorcet winner (claims S1 and S2).
HIGHLIGHTED = {True: "dts", False: "dts_plus"}
METRICS = (("copeland", "Copeland regret at T (Eq. 1)"), ("weak", "weak regret at T"))
FLOOR = 1.0  # the lowest bottom of the log axes: a mean at or below the bottom (a weak regret of 0) is drawn on it,
# hollow
MARKER_SIZE = 4.5
SPREAD = 0.8  # the width of a matrix's column of markers, in matrices
RING = {"s": 70, "facecolors": "none", "edgecolors": "black", "linewidths": 1.1, "zorder": 4}
SHORT_NAMES = {"mslr5_condorcet": "MSLR5", "cyclic": "Cyclic", "strong_borda": "StrongBorda", "arxiv": "ArXiv",
               "sushi": "Sushi", "mslr16_condorcet": "MSLR16", "mslr32_condorcet": "MSLR32",
               "mslr5_noncondorcet": "MSLR5", "nc_cyclic": "NC Cyclic", "nc_strong_borda": "NC StrongBorda",
               "gap": "Gap", "copeland500": "K=500", "mslr16_noncondorcet": "MSLR16", "mslr32_noncondorcet": "MSLR32"}


def marker_offsets(algorithms: list[str]) -> dict[str, float]:
    """{algorithm: its x offset within a matrix's column}, spread evenly over SPREAD in the order given."""
    step = SPREAD / max(len(algorithms), 1)
    return {name: -SPREAD / 2 + step * (index + 0.5) for index, name in enumerate(algorithms)}


def axis_bottom(means) -> float:
    """The bottom of a row's log axis: the decade at or below the smallest mean above FLOOR (FLOOR if none)."""
    positive = [mean for mean in means if mean > FLOOR]
    return 10.0 ** math.floor(math.log10(min(positive))) if positive else FLOOR


def axis_top(means, errors) -> float:
    """The top of a row's log axis: the decade above the highest mean + NOISE_SE standard errors, so that no marker
    or bar touches the frame (FLOOR * 10 if there is none)."""
    highs = [mean + NOISE_SE * error for mean, error in zip(means, errors, strict=True) if mean > FLOOR]
    return 10.0 ** math.ceil(math.log10(1.5 * max(highs))) if highs else 10 * FLOOR


def panel_axes(ax, table: pd.DataFrame, matrices: list[str], metric: str, bottom: float,
               highlighted: str) -> pd.DataFrame:
    """Draw one panel: a column per matrix of ``matrices`` (in order; a matrix without rows stays, empty), its
    markers from the rows of ``table`` (``successors_tables.final_rows``), on a log axis from ``bottom``; return
    the drawn points (matrix, algorithm, metric, x, mean, se, floored)."""
    algorithms = [highlighted, *(name for name in dict.fromkeys(table["algorithm"]) if name != highlighted)]
    offsets = marker_offsets(algorithms)
    points = []
    for row in table.itertuples():
        mean, se = getattr(row, f"{metric}_regret"), getattr(row, f"{metric}_se")
        x = matrices.index(row.dataset) + offsets[row.algorithm]
        floored = not mean > bottom
        spec = get_algorithm(row.algorithm)
        shown = max(mean, bottom)
        error = None if floored else [[min(NOISE_SE * se, shown - bottom)], [NOISE_SE * se]]
        ax.errorbar(x, shown, yerr=error, linestyle="none", marker=spec.marker, color=spec.color,
                    markersize=MARKER_SIZE,
                    elinewidth=0.7, label=spec.label, markerfacecolor="none" if floored else spec.color)
        if row.algorithm == highlighted:
            ax.scatter([x], [shown], **RING)
        points.append({"dataset": row.dataset, "algorithm": row.algorithm, "metric": metric, "x": x, "mean": mean,
                       "se": se, "floored": floored})
    ax.set_yscale("log")
    ax.set_ylim(bottom=bottom / 1.5)
    ax.set_xticks(range(len(matrices)), [SHORT_NAMES.get(name, name) for name in matrices], rotation=30,
                  ha="right", rotation_mode="anchor")
    ax.set_xlim(-0.6, len(matrices) - 0.4)
    for boundary in np.arange(0.5, len(matrices) - 1, 1.0):
        ax.axvline(boundary, color="0.85", linewidth=0.6)
    ax.grid(axis="x", visible=False)
    return pd.DataFrame(points)


def plot(table: pd.DataFrame, columns: dict[bool, list[str]], stem, note: str = "") -> pd.DataFrame:
    """The figure from ``table`` (``successors_tables.final_rows``), the matrices of each column given by
    ``columns`` ({has a Condorcet winner: [matrix, ...]}): writes stem.png/.pdf and stem.csv (every drawn point) and
    returns the points; ``note`` (e.g. that a quick run is not evidence) goes under the legend."""
    setup_theme()
    fig, axes = plt.subplots(2, 2, figsize=(FIGURE_WIDTH, 2 * PANEL_HEIGHT + 0.6), sharey="row")
    frames = []
    for row_index, (metric, ylabel) in enumerate(METRICS):
        bottom = axis_bottom(table[f"{metric}_regret"])
        axes[row_index, 0].set_ylabel(ylabel)
        axes[row_index, 0].set_ylim(top=axis_top(table[f"{metric}_regret"], table[f"{metric}_se"].fillna(0.0)))
        for column, condorcet in enumerate((True, False)):
            ax = axes[row_index, column]
            highlighted = HIGHLIGHTED[condorcet]
            frames.append(panel_axes(ax, table[table["condorcet"] == condorcet], columns[condorcet], metric, bottom,
                                     highlighted))
            winner = "with" if condorcet else "without"
            ax.set_title(f"({'abcd'[2 * row_index + column]}) {winner} a Condorcet winner: "
                         f"{get_algorithm(highlighted).label} ringed")
    lines = [f"markers: mean over runs at each matrix's T, bars +-{NOISE_SE:g} standard errors; hollow, on the "
             "bottom of the axis: a mean at or below it", *([note] if note else [])]
    bottom = figure_legend(fig, list(axes.flat), "\n".join(lines))
    fig.tight_layout(rect=(0, bottom, 1, 1), h_pad=0.6, w_pad=0.8)
    save_figure(fig, stem)
    points = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    write_table(points, stem.with_suffix(".csv"))
    return points


# The rows the slope-ratio figure adds, per algorithm: its label there.
RATIO_LABELS = {"c2b": "C2B (fit, T = 1e10 to 1e15)", "cw_rmed": "CW-RMED (T = 1e10 to 1e15)",
                "ws_s": "WS-S (T = 1e10 to 1e15)"}


def ratio_table(asymptotic: pd.DataFrame, long: pd.DataFrame, fits: dict) -> pd.DataFrame:
    """The asymptotic study's slope-ratio table (its final table, ``asymptotic_final.csv``: per Condorcet matrix each
    algorithm's last-decade slope at T = 2^53 over C, and C_w) extended by one row per matrix and algorithm of
    ``fits`` ({algorithm: {matrix: Estimate}}: C2B's slope fitted to its long lines, ``successors_claims.long_slope``;
    CW-RMED's and WS-S's over their long lines' last five decades) over C, labelled RATIO_LABELS[algorithm], on the
    asymptotic study's row of that matrix; ``long`` (``long_rows``) gives C and the runs.  A matrix without a positive
    fit (no long lines, or a fit at or below 0, which a log axis cannot show) gets no row."""
    condorcet = asymptotic[asymptotic["winner_constant"].notna()]
    rows = []
    for algorithm, by_dataset in fits.items():
        for dataset, fit in by_dataset.items():
            found = condorcet[condorcet["dataset"] == dataset]
            own = long[(long["dataset"] == dataset) & (long["algorithm"] == algorithm)]
            if found.empty or own.empty or not fit.value > 0:
                continue
            first = found.iloc[0]
            rows.append({"panel": first["panel"], "dataset": dataset, "algorithm": algorithm,
                         "label": RATIO_LABELS[algorithm], "runs": int(own["runs"].iloc[-1]), "trapped_runs": 0,
                         "winner_constant": first["winner_constant"],
                         "slope_over_bound": fit.value / float(own["lower_bound_slope"].iloc[0]),
                         "slope_over_winner_constant": fit.value / float(first["winner_constant"])})
    return pd.concat([condorcet, pd.DataFrame(rows)], ignore_index=True)
