"""Figures in the paper's style, one colour and marker per algorithm everywhere.

The building blocks draw on a matplotlib ``Axes`` and return it, so that a figure script only arranges
them: ``regret_axes`` (mean regret curves with a 95% band, semilog-x), ``bars_axes`` (one bar per
algorithm, with error bars: Fig. 2), ``shares_axes`` (shares per Copeland winner: Fig. 5),
``parameter_axes`` (a statistic against a parameter on a log axis: Fig. 6).  ``figure_legend`` puts one
legend under a figure, ``save_figure`` writes PNG and PDF atomically, ``write_table`` a CSV.
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import seaborn as sns  # noqa: E402

from algorithms import get_algorithm  # noqa: E402
from reproduce.atomic import write_atomic  # noqa: E402

Z_95 = 1.959963984540054
# The lower-bound slope line spans this factor of t, ending at the horizon.
REFERENCE_DECADES = 100.0
MARKERS_PER_CURVE = 10
METRIC_LABELS = {"regret": "Regret", "g2w": "G2W regret"}
BAND_NOTE = "mean over runs; shaded: 95% confidence band of the mean (mean +- 1.96 s.e.)"


def style(result) -> dict:
    """Colour, marker and line style of a curve: its algorithm's (declared with the algorithm), dashed when
    the arms keep the dataset's order."""
    spec = get_algorithm(result.line.algorithm)
    return {"color": spec.color, "marker": spec.marker, "linestyle": "-" if result.line.shuffle else "--"}


def setup_theme() -> None:
    """The seaborn theme of every figure."""
    sns.set_theme(style="whitegrid", context="paper")


def curve_frame(results, panel: str, metric: str = "regret") -> pd.DataFrame:
    """Tidy rows (panel, dataset, algorithm, label, metric, t, mean, std, sem, ci95_low, ci95_high, runs) of
    the curves ``results`` (LineResults) for ``metric`` ("regret" or "g2w"); with one run the std, s.e. and
    band are NaN (not estimable, no band drawn)."""
    frames = []
    for res in results:
        values = getattr(res, metric)
        runs = values.shape[0]
        mean = values.mean(axis=0)
        std = values.std(axis=0, ddof=1) if runs > 1 else np.full_like(mean, np.nan)
        sem = std / np.sqrt(runs)
        frames.append(pd.DataFrame({
            "panel": panel, "dataset": res.line.dataset, "algorithm": res.line.name, "label": res.label,
            "metric": metric, "t": res.checkpoints, "mean_regret": mean, "std_regret": std, "sem_regret": sem,
            "ci95_low": mean - Z_95 * sem, "ci95_high": mean + Z_95 * sem, "runs": runs,
        }))
    columns = ["panel", "dataset", "algorithm", "label", "metric", "t", "mean_regret", "std_regret", "sem_regret",
               "ci95_low", "ci95_high", "runs"]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)


def regret_axes(ax, frame: pd.DataFrame, results, title: str, ymax: float | None = None, reference=None):
    """Mean curves and 95% bands of ``results`` (their rows of ``frame``, see ``curve_frame``) on ``ax``,
    semilog-x; the y axis clipped at ``ymax`` if given.  ``reference``: optional (slope C, label): a dotted
    black line of slope C in ln t over the last REFERENCE_DECADES of t, through the lowest curve's final
    value, so that the curves' final slopes can be compared with C (an asymptotic lower bound: C ln T is
    approached from below or above only as T grows; an infinite C is named, not drawn); it does not change the
    y range.  Returns ``ax``."""
    for res in results:
        rows = frame[frame["algorithm"] == res.line.name]
        look = style(res)
        ax.plot(rows["t"], rows["mean_regret"], label=res.label, color=look["color"], marker=look["marker"],
                linestyle=look["linestyle"], markevery=max(1, len(rows) // MARKERS_PER_CURVE), markersize=4,
                linewidth=1.3)
        ax.fill_between(rows["t"], rows["ci95_low"], rows["ci95_high"], color=look["color"], alpha=0.2, linewidth=0)
    if reference is not None and len(frame):
        slope, label = reference
        if np.isfinite(slope):  # an infinite C (ties at 1/2 alone change the winners) has no line
            end = frame["t"].max()
            lowest = frame.loc[frame["t"] == end, "mean_regret"].min()
            t = np.geomspace(end / REFERENCE_DECADES, end, 20)
            line = lowest + slope * np.log(t / end)
            limits = ax.get_ylim()
            ax.plot(t[line >= 0], line[line >= 0], color="black", linestyle=":", linewidth=1.2, label=label)
            ax.set_ylim(limits)  # the curves set the scale; a steep bound runs off the panel
        ax.text(0.02, 0.96, f"lower bound C = {slope:.3g}", transform=ax.transAxes, fontsize=7, va="top")
    ax.set_xscale("log")
    ax.set_xlabel("Time t")
    ax.set_ylabel(METRIC_LABELS.get(frame["metric"].iloc[0], "Regret") if len(frame) else "Regret")
    runs = sorted({int(r) for r in frame["runs"]}) if len(frame) else []
    if ymax is None:
        ax.set_title(f"{title} ({'/'.join(map(str, runs))} runs)" if runs else f"{title} (not computed)")
    else:
        ax.set_ylim(0.0, ymax)
        ax.set_title(f"{title}, y up to {ymax:g}", fontsize=9)
    return ax


def bars_axes(ax, table: pd.DataFrame, y: str, err: str, title: str, ylabel: str):
    """One bar per row of ``table`` (in order), labelled ``table["label"]``, coloured ``table["color"]``,
    height ``y`` with error bars ``err`` (half-width).  Returns ``ax``."""
    positions = np.arange(len(table))
    ax.bar(positions, table[y], yerr=table[err], color=table["color"], capsize=2, error_kw={"linewidth": 0.8})
    ax.set_xticks(positions, table["label"])
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    return ax


def shares_axes(ax, shares: pd.DataFrame, title: str):
    """Fig. 5: per algorithm (rows of ``shares`` with columns label, winner, share, color, kind), the
    share of each Copeland winner in one sample path as bars ("path") and, over many runs, the spread of
    that share as a box ("runs").  Returns ``ax``."""
    labels = list(dict.fromkeys(shares["label"]))
    winners = list(dict.fromkeys(shares["winner"]))
    width = 0.8 / max(len(winners), 1)
    palette = sns.color_palette("colorblind", len(winners))
    for w, winner in enumerate(winners):
        positions = np.arange(len(labels)) - 0.4 + width * (w + 0.5)
        path = shares[(shares["kind"] == "path") & (shares["winner"] == winner)].set_index("label").reindex(labels)
        ax.bar(positions, path["share"], width=width * 0.9, color=palette[w], alpha=0.55,
               label=f"winner {winner} (one path)")
        spread = [shares[(shares["kind"] == "runs") & (shares["winner"] == winner) & (shares["label"] == label)]
                  ["share"].to_numpy() for label in labels]
        ax.boxplot(spread, positions=positions, widths=width * 0.5, showfliers=True, manage_ticks=False,
                   medianprops={"color": palette[w]}, flierprops={"markersize": 2})
    ax.set_xticks(np.arange(len(labels)), labels)
    ax.set_ylim(0.0, 1.0)
    ax.set_ylabel("Share of winner self-comparisons")
    ax.set_title(title)
    return ax


def parameter_axes(ax, table: pd.DataFrame, x: str, title: str, xlabel: str, ylabel: str, results_by_label):
    """One line per algorithm (``table`` columns label, x, mean, ci95 (half-width)) of a statistic against
    the parameter ``x`` on a log axis, with 95% error bars; styles from ``results_by_label`` (label -> a
    LineResult of that curve).  Returns ``ax``."""
    for label, rows in table.groupby("label", sort=False):
        look = style(results_by_label[label])
        ax.errorbar(rows[x], rows["mean"], yerr=rows["ci95"], label=label, color=look["color"],
                    marker=look["marker"], markersize=4, linewidth=1.3, capsize=2)
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    return ax


def figure_legend(fig, axes, ncol: int = 6) -> None:
    """One legend for the whole figure, under the axes: every label drawn in any of ``axes``, once."""
    seen = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            seen.setdefault(label, handle)
    if seen:
        fig.legend(list(seen.values()), list(seen), loc="lower center", ncol=min(ncol, len(seen)), fontsize=8,
                   frameon=False)


def legend_space(fig, axes, per_row: int = 6) -> float:
    """The fraction of the figure's height that ``figure_legend`` (``per_row`` entries a row) and the note
    under it need at the bottom."""
    labels = {label for ax in axes for label in ax.get_legend_handles_labels()[1]}
    rows = -(-len(labels) // per_row)
    return min(0.5, (0.25 * rows + 0.2) / fig.get_size_inches()[1])


def save_figure(fig, stem: Path) -> None:
    """Write ``stem``.png and ``stem``.pdf atomically (no creation date in the PDF, so a redraw from the same
    results leaves the file byte-identical) and close the figure."""
    stem = Path(stem)
    write_atomic(stem.with_suffix(".png"), lambda path: fig.savefig(path, dpi=150))
    write_atomic(stem.with_suffix(".pdf"), lambda path: fig.savefig(path, metadata={"CreationDate": None}))
    plt.close(fig)


def plot_regret_panels(panels, stem: Path, ncols: int = 2, zooms=None, metrics=None, references=None) -> pd.DataFrame:
    """Draw one axis per (title, results) panel; write ``stem``.png/.pdf/.csv; return the tidy frame.

    zooms: optional y upper limit per panel (None: no zoom); when some panel's curves rise above its
    limit, a second block of rows shows every such panel again with the y axis clipped there, so that
    close curves near the bottom stay distinguishable (presentation only; the CSV holds every curve
    whole).  metrics: per panel "regret" (default) or "g2w".  references: per panel None or (slope, label)
    of a reference line (see ``regret_axes``).  One legend for the figure.
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
    rows_full = int(np.ceil(n / ncols))
    zoomed = [k for k, z in enumerate(zooms) if z is not None]
    rows_zoom = int(np.ceil(len(zoomed) / ncols))
    fig, axes = plt.subplots(rows_full + rows_zoom, ncols, figsize=(5.2 * ncols, 3.8 * (rows_full + rows_zoom) + 0.8),
                             squeeze=False)
    flat = list(axes.flat)
    for k, ((title, results), frame) in enumerate(zip(panels, frames, strict=True)):
        regret_axes(flat[k], frame, results, title, reference=references[k])
    for slot, k in enumerate(zoomed):
        title, results = panels[k]
        regret_axes(flat[rows_full * ncols + slot], frames[k], results, title, ymax=zooms[k], reference=references[k])
    used = set(range(n)) | {rows_full * ncols + slot for slot in range(len(zoomed))}
    for k, ax in enumerate(flat):
        ax.set_visible(k in used)
    figure_legend(fig, [flat[k] for k in sorted(used)])
    fig.text(0.5, 0.001, BAND_NOTE, ha="center", fontsize=7)
    fig.tight_layout(rect=(0, legend_space(fig, flat), 1, 1))
    table = pd.concat(frames, ignore_index=True)
    save_figure(fig, stem)
    write_table(table, Path(stem).with_suffix(".csv"))
    return table


def final_table(panels) -> pd.DataFrame:
    """Per panel and curve: runs, mean, std and standard error of the exact final regret R(T), the slope
    of R against ln t over the last decade with its standard error (``claims.log_slope``), and the worker
    seconds its stored runs took.  With one run the std and s.e. are NaN (not estimable), never 0."""
    from reproduce.claims import log_slope

    rows = []
    for title, results in panels:
        for res in results:
            final = np.asarray(res.final, dtype=np.float64)
            runs = final.shape[0]
            std = final.std(ddof=1) if runs > 1 else np.nan
            slope = log_slope(res)
            rows.append({"panel": title, "dataset": res.line.dataset, "algorithm": res.line.name,
                         "label": res.label, "horizon": res.line.horizon, "runs": runs,
                         "mean_final_regret": final.mean(), "std_final_regret": std,
                         "sem_final_regret": std / np.sqrt(runs), "slope_last_decade": slope.value,
                         "slope_se": slope.se, "worker_seconds": res.meta.get("worker_seconds", 0.0)})
    return pd.DataFrame(rows)


def write_table(table: pd.DataFrame, path: Path) -> None:
    """Write a CSV atomically."""
    write_atomic(path, lambda tmp: table.to_csv(tmp, index=False))
