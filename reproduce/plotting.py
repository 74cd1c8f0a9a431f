"""Figures: regret curves in the paper's style, one colour and marker per algorithm everywhere.

Mean regret over runs on semilog-x axes with a shaded 95% confidence band of the mean
(mean +- 1.96 standard errors), PNG and PDF, and a tidy CSV of exactly what is drawn.
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import seaborn as sns  # noqa: E402

# Legend order of the paper (spec 1.10), then the lines only this project draws.  Colours are
# picked by hand so that the lines compared in one panel (the D-TS family in particular) differ.
STYLE = {
    "btm": {"color": "#7f7f7f", "marker": "v"},
    "savage": {"color": "#bcbd22", "marker": "^"},
    "rucb": {"color": "#ff7f0e", "marker": "s"},
    "rcs": {"color": "#e377c2", "marker": "D"},
    "sparring": {"color": "#8c564b", "marker": "P"},
    "ccb": {"color": "#9467bd", "marker": "X"},
    "scb": {"color": "#17becf", "marker": "p"},
    "rmed1": {"color": "#2ca02c", "marker": "h"},
    "ecw_rmed": {"color": "#98df8a", "marker": "*"},
    "dts": {"color": "#d62728", "marker": "o"},
    "dts_plus": {"color": "#1f77b4", "marker": ">"},
    "pure_dts": {"color": "#000000", "marker": "<"},
    "multisbm": {"color": "#c49c94", "marker": "d"},
    "rmed2": {"color": "#aec7e8", "marker": "H"},
}
ORDER = tuple(STYLE)
Z_95 = 1.959963984540054
MARKERS_PER_CURVE = 10


def curve_frame(results, panel: str) -> pd.DataFrame:
    """Tidy rows (panel, dataset, algorithm, label, t, mean, std, sem, ci_low, ci_high, runs) of ``results``."""
    frames = []
    for res in results:
        runs = res.regret.shape[0]
        mean = res.regret.mean(axis=0)
        std = res.regret.std(axis=0, ddof=1) if runs > 1 else np.zeros_like(mean)
        sem = std / np.sqrt(runs)
        frames.append(pd.DataFrame({
            "panel": panel, "dataset": res.line.dataset, "algorithm": res.line.name, "label": res.label,
            "t": res.checkpoints, "mean_regret": mean, "std_regret": std, "sem_regret": sem,
            "ci95_low": mean - Z_95 * sem, "ci95_high": mean + Z_95 * sem, "runs": runs,
        }))
    return pd.concat(frames, ignore_index=True)


def _draw_panel(ax, frame: pd.DataFrame, results, title: str, ymax: float | None = None) -> None:
    """Mean curves and 95% bands of ``results`` (rows of ``frame``) on ``ax``; y clipped at ``ymax``."""
    for res in results:
        rows = frame[frame["algorithm"] == res.line.name]
        style = STYLE.get(res.line.algorithm, {"color": None, "marker": "o"})
        every = max(1, len(rows) // MARKERS_PER_CURVE)
        ax.plot(rows["t"], rows["mean_regret"], label=res.label, color=style["color"],
                marker=style["marker"], markevery=every, markersize=4, linewidth=1.3)
        ax.fill_between(rows["t"], rows["ci95_low"], rows["ci95_high"], color=style["color"], alpha=0.2,
                        linewidth=0)
    ax.set_xscale("log")
    ax.set_xlabel("Time t")
    ax.set_ylabel("Regret")
    runs = results[0].regret.shape[0]
    if ymax is None:
        ax.set_title(f"{title} ({runs} runs)")
    else:
        ax.set_ylim(0.0, ymax)
        ax.set_title(f"{title}, y up to {ymax:g}", fontsize=9)
    ax.legend(fontsize=7, loc="upper left")


def plot_regret_panels(panels, stem: Path, ncols: int = 2, zooms=None) -> pd.DataFrame:
    """Draw one axis per (title, results) panel; write ``stem``.png/.pdf/.csv; return the tidy frame.

    zooms: optional y upper limit per panel (None: no zoom); when some panel's curves rise above its
    limit, a second row shows every such panel again with the y axis clipped there, so that close
    curves near the bottom stay distinguishable (presentation only; the CSV holds every curve whole).
    """
    sns.set_theme(style="whitegrid", context="paper")
    frames = [curve_frame(results, title) for title, results in panels]
    zooms = list(zooms) if zooms is not None else [None] * len(panels)
    zooms = [z if z is not None and frame["mean_regret"].max() > z else None for z, frame in zip(zooms, frames)]
    rows_full = int(np.ceil(len(panels) / ncols))
    rows_zoom = rows_full if any(z is not None for z in zooms) else 0
    fig, axes = plt.subplots(rows_full + rows_zoom, ncols, figsize=(5.2 * ncols, 3.8 * (rows_full + rows_zoom)),
                             squeeze=False)
    flat = list(axes.flat)
    for k, ((title, results), frame) in enumerate(zip(panels, frames)):
        _draw_panel(flat[k], frame, results, title)
    used = set(range(len(panels)))
    for k, ((title, results), frame, zoom) in enumerate(zip(panels, frames, zooms)):
        if zoom is not None:
            _draw_panel(flat[rows_full * ncols + k], frame, results, title, ymax=zoom)
            used.add(rows_full * ncols + k)
    for k, ax in enumerate(flat):
        ax.set_visible(k in used)
    fig.text(0.5, 0.003, "mean over runs; shaded: 95% confidence band of the mean (mean +- 1.96 s.e.)",
             ha="center", fontsize=7)
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    table = pd.concat(frames, ignore_index=True)
    _write_atomic(lambda path: fig.savefig(path, dpi=150), stem.with_suffix(".png"))
    # No creation date in the PDF: redrawing from the same results leaves the committed file unchanged.
    _write_atomic(lambda path: fig.savefig(path, metadata={"CreationDate": None}), stem.with_suffix(".pdf"))
    _write_atomic(lambda path: table.to_csv(path, index=False), stem.with_suffix(".csv"))
    plt.close(fig)
    return table


def final_table(panels) -> pd.DataFrame:
    """Per panel and line: runs, mean, std and standard error of the exact final regret R(T)."""
    rows = []
    for title, results in panels:
        for res in results:
            final = np.asarray(res.final, dtype=np.float64)
            runs = final.shape[0]
            std = final.std(ddof=1) if runs > 1 else 0.0
            rows.append({"panel": title, "dataset": res.line.dataset, "algorithm": res.line.name,
                         "label": res.label, "horizon": res.line.horizon, "runs": runs,
                         "mean_final_regret": final.mean(), "std_final_regret": std,
                         "sem_final_regret": std / np.sqrt(runs)})
    return pd.DataFrame(rows)


def write_table(table: pd.DataFrame, path: Path) -> None:
    """Write a CSV atomically."""
    _write_atomic(lambda tmp: table.to_csv(tmp, index=False), Path(path))


def _write_atomic(write, path: Path) -> None:
    tmp = path.with_name(f".{path.stem}.tmp{path.suffix}")
    write(tmp)
    tmp.replace(path)
