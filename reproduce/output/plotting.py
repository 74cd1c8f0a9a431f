"""Figures in the paper's style, one colour and marker per algorithm everywhere, at the size they are read.

The building blocks draw on a matplotlib ``Axes`` and return it, so that a figure's study only arranges
them: ``regret_axes`` (mean regret curves with their interval, semilog-x, a full-range inset when the y
axis is clipped), ``bars_axes`` (one bar per algorithm on a log axis, with error bars: Fig. 2),
``shares_axes`` (shares per Copeland winner: Fig. 5), ``parameter_axes`` (a statistic against a parameter
on log-log axes: Fig. 6).  Every interval of a regret is ``bootstrap_interval`` (INTERVAL_NOTE says so
under each figure).  ``figure_legend`` puts one legend and a note under a figure, ``save_figure`` writes
PNG and PDF atomically; the tables are ``reproduce.output.tables``'.  Importing this module makes matplotlib's "log"
axis scale ``PortableLogScale``, whose pixels do not depend on the CPU (docs/design.md#reproducibility).
"""

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import seaborn as sns  # noqa: E402
from matplotlib.font_manager import FontProperties  # noqa: E402
from matplotlib.scale import InvertedLogTransform, LogScale, LogTransform, register_scale  # noqa: E402
from matplotlib.textpath import TextToPath  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

from dts_reproduction.algorithms import get_algorithm  # noqa: E402
from dts_reproduction.reproduce.claims.intervals import BAND_BOOTSTRAP_RESAMPLES, bootstrap_interval
from dts_reproduction.reproduce.harness import portable_math  # noqa: E402
from dts_reproduction.reproduce.harness.atomic import write_atomic  # noqa: E402
from dts_reproduction.reproduce.output.tables import write_table  # noqa: E402


def keep_mask(values, out: np.ndarray):
    """``out`` (computed from the data of ``values``) with the mask of ``values`` if it is a masked array."""
    return np.ma.array(out, mask=np.ma.getmask(values)) if np.ma.isMaskedArray(values) else out


class PortableLogTransform(LogTransform):
    """matplotlib's log transform with the logarithm of ``reproduce.harness.portable_math``: the pixels of a log
    axis do not depend on the CPU (numpy's own log10 rounds differently on AVX-512 machines)."""

    def transform_non_affine(self, values):
        """log_base of each value; values <= 0 clipped to -1000 (or nan and -inf with nonpositive="mask"), as
        matplotlib does; a masked array keeps its mask."""
        data = np.asarray(np.ma.getdata(values), dtype=np.float64)
        out = portable_math.log10(data) if self.base == 10 else portable_math.log(data) / math.log(self.base)
        if self._clip:
            out[data <= 0] = -1000
        return keep_mask(values, out)

    def inverted(self):
        """The inverse, ``PortableInvertedLogTransform``."""
        return PortableInvertedLogTransform(self.base)


class PortableInvertedLogTransform(InvertedLogTransform):
    """base ** value with ``reproduce.harness.portable_math.power`` (axis limits and margins computed through the
    inverse)."""

    def transform_non_affine(self, values):
        """base ** each value (a masked array keeps its mask)."""
        return keep_mask(values, portable_math.power(self.base, np.ma.getdata(values)))

    def inverted(self):
        """The inverse, ``PortableLogTransform``."""
        return PortableLogTransform(self.base)


class PortableLogScale(LogScale):
    """The "log" scale with ``PortableLogTransform``.  Registered under matplotlib's own name, "log", when this
    module is imported, so that every ``set_xscale("log")`` of a process that draws with this module is portable
    (matplotlib's code that tests for the name "log" keeps working)."""

    name = "log"

    def __init__(self, *, base=10, subs=None, nonpositive="clip"):
        """As ``LogScale``, with the portable transform."""
        super().__init__(base=base, subs=subs, nonpositive=nonpositive)
        self._transform = PortableLogTransform(base, nonpositive)


register_scale(PortableLogScale)


Z_95 = 1.959963984540054
INTERVAL_NOTE = (f"95% bootstrap percentile interval of the mean ({BAND_BOOTSTRAP_RESAMPLES} resamples of the runs, "
                 "fixed seed)")
# The lower-bound slope line spans this many decades of t, ending at the horizon.
REFERENCE_DECADES = 2
REFERENCE_NOTE = (f"dotted: slope C of the asymptotic lower bound C ln t over the last {REFERENCE_DECADES} decades "
                  "of t, just under the curve lowest at T (compare slopes, not heights)")
INSET_NOTE = "inset: a clipped panel's full range (grey: the range the panel shows)"
# Where the full-range inset sits in a clipped panel (axes fractions: left, bottom, width, height).
INSET_BOUNDS = (0.08, 0.52, 0.32, 0.4)
MARKERS_PER_CURVE = 10
METRIC_LABELS = {"regret": "Regret", "g2w": "G2W regret", "weak": "Weak regret"}
# Print size: a double-column figure is this wide (inches), a regret panel this high.
FIGURE_WIDTH = 7.0
PANEL_HEIGHT = 2.6
PNG_DPI = 200
# The band under a figure: inches per legend row, per note line, and the margin below (also the least margin left
# and right of the note and the legend, which are wrapped or given fewer columns to keep it).
LEGEND_ROW_INCHES = 0.17
NOTE_LINE_INCHES = 0.12
BOTTOM_MARGIN_INCHES = 0.05
NOTE_FONT_SIZE = 6.5
# A curve drawn with open markers beside a curve of the same look (which curves: the study that draws them).
OPEN_MARKERS = {"markerfacecolor": "none"}

# The asymptotic study's figures (reproduce/asymptotic.py).  A slope panel's width and height (inches), three a row;
# the slope-over-bound figure's width, its height per matrix and the height of its axis and margins.
SLOPE_PANEL_SIZE = (4.2, 3.0)
RATIO_FIGURE_WIDTH, RATIO_ROW_HEIGHT, RATIO_AXIS_HEIGHT = 8.5, 0.45, 1.4
RATIO_TICKS = (0.5, 1, 2, 5, 10, 20, 50)  # the x ticks of the slope-over-bound figure
# The lower bound C (solid) and the winner constant C_w (dotted), dark grey.
LOWER_BOUND_LOOK = {"color": "0.35", "linewidth": 1.4}
WINNER_CONSTANT_LOOK = {"color": "0.35", "linewidth": 1.2, "linestyle": (0, (1, 1.5))}
# A panel's note on trapped runs starts at NOTE_TOP of its height, each of its lines taking NOTE_LINE (7 pt in a
# panel about 2.2 in high); the data end NOTE_MARGIN below it.
NOTE_TOP = 0.95
NOTE_LINE = 0.05
NOTE_MARGIN = 0.02
# Curves drawn apart from their algorithm's ``style``: RMED2 with the paper's sign dotted in black beside RMED2 as
# run; the two oracles grey, dark and dashed (optimal partners), light, dash-dotted and with pentagons (the winner).
PAPER_SIGN_LOOK = {"color": "black", "linestyle": ":"}
OPTIMAL_ORACLE_LOOK = {"linestyle": "--"}
WINNER_ORACLE_LOOK = {"color": "#9a9a9a", "linestyle": "-.", "marker": "p"}

# The large-scale study's figure (reproduce/large_scale.py).  Panels (a)-(d) start where their curves part: below
# t = 100 and a regret of 100 every algorithm is still in its first round of comparisons, and the decades they
# would take are left to the band where L1 and L2 are read.
MSLR_LOG_FLOOR = 100.0  # the bottom of the log y axis
MSLR_FIRST_SLOT = 100.0  # the left end of the log time axis
TITLE_CHARACTERS = 44  # a panel title wraps beyond this many characters (at FIGURE_WIDTH, two panels a row)
RANKING_MARGIN = 1.06  # panel (e)'s regret axis ends this far beyond the highest interval


def style(result) -> dict:
    """Colour, marker and line style of a curve: its algorithm's (declared with the algorithm); dashed when
    the arms keep the dataset's order, dash-dotted when its parameters are one of the algorithm's presets
    (``AlgorithmSpec.presets``, e.g. "best")."""
    spec = get_algorithm(result.line.algorithm)
    params = dict(result.line.params)
    preset = any(all(params.get(name) == value for name, value in values.items())
                 for values in spec.presets.values())
    linestyle = "--" if not result.line.shuffle else ("-." if preset else "-")
    return {"color": spec.color, "marker": spec.marker, "linestyle": linestyle}


def setup_theme() -> None:
    """The seaborn theme of every figure, with font sizes for print at FIGURE_WIDTH."""
    sns.set_theme(style="whitegrid", context="paper", rc={
        "font.size": 7.5, "axes.titlesize": 7.5, "axes.labelsize": 7.5, "xtick.labelsize": 6.5,
        "ytick.labelsize": 6.5, "legend.fontsize": 7, "axes.linewidth": 0.6, "grid.linewidth": 0.5})


def curve_frame(results, panel: str, metric: str = "regret") -> pd.DataFrame:
    """Tidy rows (panel, dataset, algorithm, label, metric, t, mean, std, sem, ci95_low, ci95_high, runs) of
    the curves ``results`` (LineResults) for ``metric`` ("regret", "g2w" or "weak"); ci95_low/high is the
    ``bootstrap_interval`` of the mean at each t; with one run the std, s.e. and band are NaN (not
    estimable, no band drawn)."""
    frames = []
    for res in results:
        values = getattr(res, metric)
        runs = values.shape[0]
        mean = values.mean(axis=0)
        std = values.std(axis=0, ddof=1) if runs > 1 else np.full_like(mean, np.nan)
        low, high = bootstrap_interval(values)
        frames.append(pd.DataFrame({
            "panel": panel, "dataset": res.line.dataset, "algorithm": res.line.name, "label": res.label,
            "metric": metric, "t": res.checkpoints, "mean_regret": mean, "std_regret": std,
            "sem_regret": std / np.sqrt(runs), "ci95_low": low, "ci95_high": high, "runs": runs,
        }))
    columns = ["panel", "dataset", "algorithm", "label", "metric", "t", "mean_regret", "std_regret", "sem_regret",
               "ci95_low", "ci95_high", "runs"]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)


def reference_line(frame: pd.DataFrame, slope: float) -> tuple[np.ndarray, np.ndarray]:
    """(t, y) of the slope reference of a panel (rows of ``frame``, see ``curve_frame``): y = a + slope ln t
    at the checkpoints of the last REFERENCE_DECADES decades of t of the curve with the lowest mean at the
    horizon, with the largest offset a for which it lies nowhere above that curve (it touches it from
    below), so that it can be read as a slope and never as a violated bound.  Points below 0 are dropped."""
    end = frame["t"].max()
    finals = frame[frame["t"] == end]
    anchor = finals.loc[finals["mean_regret"].idxmin(), "algorithm"]
    rows = frame[(frame["algorithm"] == anchor) & (frame["t"] >= end / 10.0 ** REFERENCE_DECADES)]
    t = rows["t"].to_numpy(dtype=np.float64)
    rise = slope * portable_math.log(t / end)
    line = np.min(rows["mean_regret"].to_numpy() - rise) + rise
    keep = line >= 0
    return t[keep], line[keep]


def draw_curves(ax, frame: pd.DataFrame, results, detail: bool = True, look_of=style) -> None:
    """The mean curve of each of ``results`` (their rows of ``frame``) on ``ax``, drawn as ``look_of(result)`` gives
    (``style`` unless given); with ``detail`` also its markers, band (ci95_low..ci95_high) and legend label."""
    for res in results:
        rows = frame[frame["algorithm"] == res.line.name]
        look = look_of(res)
        if detail:
            ax.plot(rows["t"], rows["mean_regret"], label=res.label, markevery=max(1, len(rows) // MARKERS_PER_CURVE),
                    markersize=3, linewidth=1.0, **look)
            ax.fill_between(rows["t"], rows["ci95_low"], rows["ci95_high"], color=look["color"], alpha=0.25,
                            linewidth=0)
        else:
            ax.plot(rows["t"], rows["mean_regret"], color=look["color"], linestyle=look["linestyle"], linewidth=0.7)


def short_number(value: float) -> str:
    """``value`` as a short tick label: "2e5" from 1e4 on, else as %g ("3500")."""
    if abs(value) < 1e4:
        return f"{value:g}"
    exponent = math.floor(math.log10(abs(value)))
    return f"{value / 10.0 ** exponent:g}e{exponent}"


def full_range_inset(ax, frame: pd.DataFrame, results, ymax: float):
    """An inset at INSET_BOUNDS of ``ax`` with every curve over its full range (no band), the range
    0..``ymax`` of ``ax`` shaded grey.  Returns the inset."""
    inset = ax.inset_axes(INSET_BOUNDS)
    draw_curves(inset, frame, results, detail=False)
    inset.axhspan(0.0, ymax, color="0.6", alpha=0.35, linewidth=0, zorder=0)
    inset.set_xscale("log")
    inset.set_ylim(bottom=0.0)
    inset.xaxis.set_major_locator(LogLocator(numticks=4))
    inset.xaxis.set_minor_formatter(NullFormatter())
    inset.yaxis.set_major_locator(plt.MaxNLocator(3))
    inset.yaxis.set_major_formatter(FuncFormatter(lambda v, _: short_number(v)))
    inset.tick_params(labelsize=5, length=1.5, pad=1)
    inset.grid(linewidth=0.3)
    inset.set_facecolor("white")
    return inset


def regret_axes(ax, frame: pd.DataFrame, results, title: str, zoom: float | None = None, reference=None,
                look_of=style, stacked_title: bool = False):
    """Mean curves and 95% intervals (``bootstrap_interval``) of ``results`` (their rows of ``frame``,
    see ``curve_frame``) on ``ax``, semilog-x, each drawn as ``look_of(result)`` gives (``style`` unless given).
    ``zoom``: clip the y axis at 0..zoom and show the full range in an inset (``full_range_inset``).
    ``reference``: optional (slope C, label): the dotted ``reference_line`` of slope C (an asymptotic lower bound:
    C ln T is approached only as T grows); C is named in the title, and an infinite C is named, not drawn; it does
    not change the y range.  The title also gives the runs per curve, after the panel's title or, with
    ``stacked_title`` (a narrow panel), on a line of its own under it.  Returns ``ax``."""
    draw_curves(ax, frame, results, look_of=look_of)
    notes = []
    if len(frame):
        notes.append(f"{'/'.join(str(r) for r in sorted({int(r) for r in frame['runs']}))} runs")
    if reference is not None:
        slope, label = reference
        notes.append(f"C = {slope:.3g}" if not np.isfinite(slope) or slope < 1000 else f"C = {slope:.0f}")
        notes[-1] += "" if np.isfinite(slope) else ", no line"
        if np.isfinite(slope) and len(frame):
            limits = ax.get_ylim()
            t, line = reference_line(frame, slope)
            ax.plot(t, line, color="black", linestyle=":", linewidth=1.4, label=label, zorder=5)
            ax.set_ylim(limits)  # the curves set the scale; a steep line runs off the panel
    ax.set_xscale("log")
    ax.set_xlabel("Time t")
    ax.set_ylabel(METRIC_LABELS.get(frame["metric"].iloc[0], "Regret") if len(frame) else "Regret")
    separator = "\n" if stacked_title else " "
    ax.set_title(f"{title}{separator}({', '.join(notes) if len(frame) else 'not computed'})")
    if zoom is not None:
        ax.set_ylim(0.0, zoom)
        full_range_inset(ax, frame, results, zoom)
    return ax


def log_ticks(ax, values, high: float) -> None:
    """A log y axis from the labelled tick at or below the smallest positive of ``values`` to ``high``, with
    labelled ticks at 1, 2, 5 times each power of ten (1 and 3 over more than two decades, powers only over more
    than four), so that every value in the range can be read against a labelled tick.  A value <= 0, which a log
    axis cannot show (a zero STD or interval bound in a smoke run), stays below the axis; with no positive value
    the axis spans the decade below ``high``."""
    positive = [value for value in np.ravel(values) if value > 0]
    low = min(positive) if positive else high / 10.0
    decade = 10.0 ** math.floor(math.log10(low))
    decades = math.log10(high / decade)
    subs = (1.0, 2.0, 5.0) if decades <= 2 else (1.0, 3.0) if decades <= 4 else (1.0,)
    bottom = max(s * decade for s in subs if s * decade <= low)
    ax.set_yscale("log")
    ax.set_ylim(bottom, high)
    ax.yaxis.set_major_locator(LogLocator(subs=subs))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())


def bars_axes(ax, table: pd.DataFrame, y: str, err: str, title: str, ylabel: str):
    """One bar per row of ``table`` (in order), labelled ``table["label"]``, coloured ``table["color"]``,
    height ``y`` with error bars ``err`` (half-width), on a log axis (``log_ticks``) from the decade at or
    below the smallest bar to above the highest error bar.  Returns ``ax``."""
    positions = np.arange(len(table))
    ax.bar(positions, table[y], yerr=table[err], color=table["color"], capsize=1.5, error_kw={"linewidth": 0.7})
    log_ticks(ax, table[y], 1.6 * (table[y] + table[err]).max())
    ax.set_xticks(positions, table["label"], rotation=45, ha="right", rotation_mode="anchor")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    return ax


SHARE_KINDS = {"path": "bar: share in one sample path (run {run})",
               "runs": "box: share over all runs (median, quartiles, whiskers to 1.5 IQR, dots beyond)"}


def shares_axes(ax, shares: pd.DataFrame, title: str, sample_run: int):
    """Fig. 5: per algorithm (rows of ``shares`` with columns label, winner, share, kind), for each Copeland
    winner side by side its share of the winner self-comparisons in run ``sample_run`` as a bar ("path")
    and the spread of that share over all runs as a box ("runs"), both in the winner's colour; winners
    are labelled under their pair, algorithms under their group.  Bars and boxes carry the legend labels
    SHARE_KINDS.  Returns ``ax``."""
    labels = list(dict.fromkeys(shares["label"]))
    winners = list(dict.fromkeys(shares["winner"]))
    slot = 0.84 / max(len(winners), 1)
    palette = sns.color_palette("colorblind", len(winners))
    centres = []
    for w, winner in enumerate(winners):
        centre = np.arange(len(labels)) - 0.42 + slot * (w + 0.5)
        centres.append(centre)
        path = shares[(shares["kind"] == "path") & (shares["winner"] == winner)].set_index("label").reindex(labels)
        ax.bar(centre - 0.22 * slot, path["share"], width=0.4 * slot, color=palette[w],
               label=SHARE_KINDS["path"].format(run=sample_run) if w == 0 else None)
        spread = [shares[(shares["kind"] == "runs") & (shares["winner"] == winner) & (shares["label"] == label)]
                  ["share"].to_numpy() for label in labels]
        boxes = ax.boxplot(spread, positions=centre + 0.22 * slot, widths=0.36 * slot, patch_artist=True,
                           manage_ticks=False, medianprops={"color": "black", "linewidth": 0.8},
                           boxprops={"facecolor": (*palette[w], 0.25), "edgecolor": palette[w], "linewidth": 0.8},
                           whiskerprops={"color": palette[w], "linewidth": 0.8},
                           capprops={"color": palette[w], "linewidth": 0.8},
                           flierprops={"markersize": 1.5, "markeredgecolor": palette[w]})
        if w == 0:
            boxes["boxes"][0].set_label(SHARE_KINDS["runs"])
    ax.set_xticks(np.concatenate(centres), [str(winner) for winner in winners for _ in labels], minor=True)
    ax.set_xticks(np.arange(len(labels)), labels)
    ax.xaxis.remove_overlapping_locs = False  # a middle winner sits under its algorithm's name
    ax.tick_params(axis="x", which="minor", labelsize=6, pad=1)
    ax.tick_params(axis="x", which="major", pad=11, length=0)
    ax.grid(axis="x", which="both", visible=False)
    ax.set_ylim(0.0, 1.0)
    ax.set_ylabel("Share of winner self-comparisons")
    ax.set_title(title)
    return ax


def parameter_axes(ax, table: pd.DataFrame, x: str, title: str, xlabel: str, ylabel: str, results_by_label):
    """One line per algorithm (``table`` columns label, x, mean, ci95_low, ci95_high) of a statistic against
    the parameter ``x`` on log-log axes (y: ``log_ticks``), with its interval as error bars; styles from
    ``results_by_label`` (label -> a LineResult of that curve).  Returns ``ax``."""
    for label, rows in table.groupby("label", sort=False):
        look = style(results_by_label[label])
        errors = np.vstack([rows["mean"] - rows["ci95_low"], rows["ci95_high"] - rows["mean"]])
        ax.errorbar(rows[x], rows["mean"], yerr=errors, label=label, color=look["color"],
                    marker=look["marker"], markersize=3.5, linewidth=1.0, capsize=2, elinewidth=0.8)
    ax.set_xscale("log")
    log_ticks(ax, table["ci95_low"], 1.3 * table["ci95_high"].max())
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    return ax


def text_inches(text: str, size: float) -> float:
    """The printed width in inches of the one-line ``text`` at font ``size`` (points) in the theme's font: its
    outline's, as the PDF draws it (a screen renderer rounds each glyph to whole pixels, wider at low resolution)."""
    width, _height, _descent = TextToPath().get_text_width_height_descent(text, FontProperties(size=size),
                                                                          ismath=False)
    return width / 72.0


def wrapped_note(note: str, width: float) -> str:
    """``note`` with every line wider than ``width`` inches (at NOTE_FONT_SIZE) broken between words into lines that
    fit (a single word wider than that stays whole); a line that fits is left as it is."""
    lines = []
    for line in note.split("\n"):
        current = ""
        for word in line.split(" "):
            longer = f"{current} {word}" if current else word
            if current and text_inches(longer, NOTE_FONT_SIZE) > width:
                lines.append(current)
                longer = word
            current = longer
        lines.append(current)
    return "\n".join(lines)


def legend_columns(fig, handles, labels, ncol: int, width: float) -> int:
    """The columns of ``fig``'s legend of ``handles`` and ``labels``: ``ncol`` at most, rows filled evenly, and fewer
    (more rows) while the legend is wider than ``width`` inches (at least one column)."""
    for most in range(ncol, 0, -1):
        columns = -(-len(labels) // -(-len(labels) // most))  # as many rows as ``most`` columns need, filled evenly
        trial = fig.legend(handles, labels, ncol=columns, frameon=False, columnspacing=1.2, handlelength=2.2)
        inches = trial.get_window_extent(fig.canvas.get_renderer()).width / fig.dpi
        trial.remove()
        if inches <= width:
            return columns
    return 1


def figure_legend(fig, axes, note: str = "", ncol: int = 6, last=()) -> float:
    """Grow ``fig`` by a band at the bottom holding one legend (every label drawn in any of ``axes``, once,
    those in ``last`` at the end; at most ``ncol`` a row, rows filled evenly) and, under it, ``note``
    (lines separated by newlines) clear of the legend; returns the band's fraction of the new height
    (the bottom of the layout's rect).  Neither is cut at the figure's edges: a note line wider than the figure
    less BOTTOM_MARGIN_INCHES each side is broken between words (``wrapped_note``), and a legend that wide gets
    fewer columns (``legend_columns``): a single-panel figure is half as wide as the others."""
    seen = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            seen.setdefault(label, handle)
    seen = {**{k: v for k, v in seen.items() if k not in last}, **{k: v for k, v in seen.items() if k in last}}
    width, height = fig.get_size_inches()
    room = width - 2 * BOTTOM_MARGIN_INCHES
    note = wrapped_note(note, room) if note else note
    ncol = legend_columns(fig, list(seen.values()), list(seen), ncol, room) if seen else ncol
    rows = -(-len(seen) // ncol)
    note_inches = NOTE_LINE_INCHES * (note.count("\n") + 1) if note else 0.0
    band = BOTTOM_MARGIN_INCHES + note_inches + LEGEND_ROW_INCHES * rows + (0.08 if rows else 0.0)
    fig.set_size_inches(width, height + band)
    total = height + band
    if note:
        fig.text(0.5, BOTTOM_MARGIN_INCHES / total, note, ha="center", va="bottom", fontsize=NOTE_FONT_SIZE,
                 linespacing=1.3)
    if seen:
        fig.legend(list(seen.values()), list(seen), loc="lower center", ncol=ncol, frameon=False,
                   bbox_to_anchor=(0.5, (BOTTOM_MARGIN_INCHES + note_inches) / total), borderaxespad=0.2,
                   columnspacing=1.2, handlelength=2.2)
    return band / total


def save_figure(fig, stem: Path) -> None:
    """Write ``stem``.png and ``stem``.pdf atomically (no creation date in the PDF, so a redraw from the same
    results leaves the file byte-identical) and close the figure."""
    stem = Path(stem)
    write_atomic(stem.with_suffix(".png"), lambda path: fig.savefig(path, dpi=PNG_DPI))
    write_atomic(stem.with_suffix(".pdf"), lambda path: fig.savefig(path, metadata={"CreationDate": None}))
    plt.close(fig)


def regret_note(references, zoomed: bool) -> str:
    """The note under a regret figure: what the lines and bands are, and what the slope line and the inset
    are when some panel has them."""
    lines = [f"lines: mean over runs; bands: {INTERVAL_NOTE}"]
    if any(ref is not None and np.isfinite(ref[0]) for ref in references):
        lines.append(REFERENCE_NOTE)
    if zoomed:
        lines.append(INSET_NOTE)
    return "\n".join(lines)


def plot_regret_panels(panels, stem: Path, ncols: int = 2, zooms=None, metrics=None, references=None,
                       stacked_titles: bool = False) -> pd.DataFrame:
    """Draw one axis per (title, results) panel, ``ncols`` a row at FIGURE_WIDTH (half of it for a single column);
    write ``stem``.png/.pdf/.csv; return the tidy frame (``curve_frame``, every curve whole).

    zooms: optional y upper limit per panel (None: no zoom); a panel whose curves rise above its limit is
    clipped there, with the full range in an inset (``regret_axes``), so that close curves near the bottom
    stay distinguishable (presentation only).  metrics: per panel "regret" (default), "g2w" or "weak".
    references: per panel None or (slope, label) of a reference line (see ``regret_axes``).  stacked_titles: each
    panel's runs and C on a line under its title (``regret_axes``), for panels too narrow for both on one line (three
    columns or more).  One legend and a note (``regret_note``) under the figure.
    """
    setup_theme()
    n = len(panels)
    metrics = list(metrics) if metrics is not None else ["regret"] * n
    references = list(references) if references is not None else [None] * n
    frames = [curve_frame(results, title, metric) for (title, results), metric in zip(panels, metrics, strict=True)]
    zooms = list(zooms) if zooms is not None else [None] * n
    zooms = [z if z is not None and len(frame) and frame["mean_regret"].max() > z else None
             for z, frame in zip(zooms, frames, strict=True)]
    ncols = min(ncols, n)
    rows = int(np.ceil(n / ncols))
    fig, axes = plt.subplots(rows, ncols, figsize=(FIGURE_WIDTH * min(1.0, ncols / 2), PANEL_HEIGHT * rows),
                             squeeze=False)
    flat = list(axes.flat)
    for ax, (title, results), frame, zoom, reference in zip(flat[:n], panels, frames, zooms, references, strict=True):
        regret_axes(ax, frame, results, title, zoom=zoom, reference=reference, stacked_title=stacked_titles)
    for ax in flat[n:]:
        ax.set_visible(False)
    bottom = figure_legend(fig, flat[:n], regret_note(references, any(z is not None for z in zooms)),
                           last=[ref[1] for ref in references if ref is not None])
    fig.tight_layout(rect=(0, bottom, 1, 1), h_pad=0.8, w_pad=1.0)
    table = pd.concat(frames, ignore_index=True)
    save_figure(fig, stem)
    write_table(table, Path(stem).with_suffix(".csv"))
    return table
