"""The asymptotic study's figures (docs/asymptotic.md): the slope of R(t) per ln t decade by decade on every panel
against C and C_w (``plot``), with each panel's trapped runs named in it (``trapped_note``), and every line's
last-decade slope over C per Condorcet matrix (``ratio_figure``)."""

import math

import matplotlib.pyplot as plt
import pandas as pd

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.algorithms.base import MAX_EXACT_HORIZON
from dts_reproduction.reproduce.harness import portable_math
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
from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_claims import WINNER_APART
from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_lines import (
    ORACLE_OPTIMAL,
    ORACLE_WINNER,
    RMED2_PAPER,
    TAGGED,
)
from dts_reproduction.reproduce.studies.asymptotic_study.decades import FIRST_DECADE_END, decade_slopes, linear, trapped
from dts_reproduction.reproduce.studies.experiment import LOWER_BOUND_LABEL


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
    of ``panels``; ``lower_bounds``: ``asymptotic_tables.lower_bounds_of``'s).  Returns (figure, bottom)."""
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
