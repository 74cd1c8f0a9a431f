"""The large-scale study's figure: panels (a)-(d) as regret curves (G2W on the Condorcet matrices, Copeland on the
one without a Condorcet winner), (e) the Copeland regret at T by algorithm on the 500-armed instance, (f) R(T)
against K on the nested Perfect subsets (``plot``)."""

import textwrap

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from dts_reproduction.reproduce.claims.intervals import bootstrap_interval
from dts_reproduction.reproduce.output.plotting import (
    FIGURE_WIDTH,
    MSLR_FIRST_SLOT,
    MSLR_LOG_FLOOR,
    PANEL_HEIGHT,
    RANKING_MARGIN,
    TITLE_CHARACTERS,
    curve_frame,
    figure_legend,
    regret_axes,
    regret_note,
    save_figure,
    setup_theme,
)
from dts_reproduction.reproduce.output.tables import write_table
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_claims import g2w_final
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_panels import (
    MSLR_MATRICES,
    NESTED,
    arms,
    curve_look,
)


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
