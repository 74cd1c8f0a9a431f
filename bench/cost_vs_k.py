"""Cost against K: nanoseconds per slot (after the warm-up) of every benchmarked algorithm against the number of
arms, log-log, drawn from bench/step_cost.csv (``make bench``) as small multiples, one panel per family
(``PANELS``): the D-TS family with the authors' C++ D-TS and D-TS+, the merge algorithms, the UCB and KL family,
the rest.  In each panel the family is in its colours and D-TS (default and ``sampling="fast"``) in red as the
reference, the defaults solid, the exact fast paths dashed; every other series is a thin grey line behind
them, one Beta draw (the median of the timings in the table) a dotted line, and the authors' C++ per-step
times where the table has them (``ns_later / x_cpp``, from ``CPP_ANCHOR_US`` of bench/step_cost.py: RUCB,
RMED1, ECW-RMED and CCB from issue #3, D-TS and D-TS+ measured here) open diamonds of the algorithm's colour,
nested (each algorithm's a size smaller) where they coincide.
A row of 0 ns (every later slot skipped) has no place on a log axis and is left out of the drawing (it stays
in the CSV, which holds every row of every algorithm).

Usage: python bench/cost_vs_k.py [--table bench/step_cost.csv] [--figures DIR]   (writes DIR/cost_vs_k.png/.pdf/.csv)
"""

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from dts_reproduction.algorithms import ALGORITHMS
from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, main_guard
from dts_reproduction.reproduce.harness.limits import check_output_folder
from dts_reproduction.reproduce.harness.paths import BENCH_TABLE, FIGURES
from dts_reproduction.reproduce.output.plotting import save_figure, setup_theme
from dts_reproduction.reproduce.output.tables import write_table

NAME = "cost_vs_k"
# The small multiples, one panel per family: (title, algorithms drawn in colour).  D-TS, the reference of every
# comparison, is drawn in colour in every panel; every other series is a thin grey line behind the panel's own.
PANELS = (
    ("D-TS family and the authors' C++", ("dts", "dts_plus", "pure_dts")),
    ("merge algorithms against D-TS", ("merge_dts", "merge_rucb")),
    ("UCB and KL family against D-TS", ("rucb", "ccb", "rmed1", "rmed2", "ecw_rmed")),
    ("the rest against D-TS", ("btm", "savage", "scb", "sparring", "self_sparring", "multisbm", "rcs", "rex3",
                               "ws_s", "ws_w")),
)
REFERENCE = "dts"
BACKGROUND = "#cccccc"
PANEL_SIZE = (3.5, 3.4)  # inches, legend under it included: two side by side fill FIGURE_WIDTH, as the docs show it
# Each algorithm's C++ diamonds a step smaller than the previous one's, so that coinciding anchors (D-TS and
# D-TS+ from K = 16 on) nest instead of hiding each other.
CPP_MARKER_SIZE, CPP_MARKER_STEP = 7.0, 1.4


def cost_table(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (algorithm, path, K): ns per slot later, the path ("default" for options "-", else "fast"),
    and the authors' C++ ns per step where known (NaN otherwise); the newest measurement of a repeated row."""
    frame = table.sort_values("measured").drop_duplicates(["algorithm", "options", "K"], keep="last")
    frame = frame.assign(path=np.where(frame["options"] == "-", "default", "fast"),
                         cpp_ns=frame["ns_later"] / frame["x_cpp"])
    return frame[["algorithm", "options", "path", "K", "ns_later", "cpp_ns", "beta_ns"]].sort_values(
        ["algorithm", "path", "K"])




def series_label(algorithm: str, path: str, options: str) -> str:
    """The legend label of one series: the algorithm's label, with its options for a fast path."""
    return ALGORITHMS[algorithm].label + ("" if path == "default" else f" ({options})")


def panel_axes(ax, drawn: pd.DataFrame, cpp: pd.DataFrame, family: tuple, beta: float) -> None:
    """Draw one panel on ``ax``: every series of ``drawn`` not in ``family`` (or the reference) thin and grey,
    then the family's and the reference's in their colours (defaults solid, fast paths dashed), the authors'
    C++ points of the family as open diamonds, nested where they coincide, and one Beta draw dotted."""
    coloured = (REFERENCE, *family) if REFERENCE not in family else family
    for (algorithm, path), rows in drawn.groupby(["algorithm", "path"], sort=False):
        if algorithm not in coloured:
            ax.plot(rows["K"], rows["ns_later"], color=BACKGROUND, linewidth=0.6,
                    linestyle="-" if path == "default" else "--", zorder=1)
    for algorithm in coloured:
        spec = ALGORITHMS[algorithm]
        for path, rows in drawn[drawn["algorithm"] == algorithm].groupby("path", sort=False):
            ax.plot(rows["K"], rows["ns_later"], color=spec.color, marker=spec.marker, markersize=3.5,
                    linewidth=1.1, linestyle="-" if path == "default" else "--", zorder=3,
                    label=series_label(algorithm, path, rows["options"].iloc[0]))
    ours = cpp[cpp["algorithm"].isin(family)]
    for index, (algorithm, rows) in enumerate(ours.groupby("algorithm")):
        ax.plot(rows["K"], rows["cpp_ns"], linestyle="none", marker="D", markerfacecolor="none", zorder=4,
                markersize=CPP_MARKER_SIZE - CPP_MARKER_STEP * index, color=ALGORITHMS[algorithm].color,
                markeredgewidth=1.0, label=f"{ALGORITHMS[algorithm].label}: authors' C++")
    ax.axhline(beta, color="black", linestyle=":", linewidth=0.8, zorder=2, label=f"one Beta draw ({beta:.0f} ns)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.legend(fontsize=5.5, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, frameon=False,
              handlelength=2.4, borderaxespad=0.0, labelspacing=0.25, columnspacing=1.0)


def plot(frame: pd.DataFrame, stem: Path) -> None:
    """Draw the cost-against-K figure from ``cost_table`` rows, one panel per family of ``PANELS`` (every
    algorithm of ``frame`` in exactly one), and write ``stem``.png/.pdf/.csv."""
    placed = [algorithm for _, family in PANELS for algorithm in family]
    missing = sorted(set(frame["algorithm"]) - set(placed))
    if missing or len(placed) != len(set(placed)):
        raise ValueError(f"cost_vs_k.PANELS must hold every algorithm once; not placed: {missing}")
    setup_theme()
    columns = 2
    rows = -(-len(PANELS) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(PANEL_SIZE[0] * columns, PANEL_SIZE[1] * rows),
                             sharex=True, sharey=True)
    drawn = frame[frame["ns_later"] > 0]  # 0 ns: every later slot skipped (RCS's fast paths at K = 5), no log value
    cpp = frame.dropna(subset=["cpp_ns"]).drop_duplicates(["algorithm", "K"])
    beta = float(frame["beta_ns"].median())
    for ax, (title, family) in zip(axes.flat, PANELS, strict=True):
        panel_axes(ax, drawn, cpp, family, beta)
        ax.set_title(title, loc="left")
    for ax in axes.flat:
        ax.set_xlabel("number of arms K")
        ax.tick_params(labelbottom=True)
    for ax in axes[:, 0]:
        ax.set_ylabel("ns per slot (after the warm-up)")
    top = max(drawn["ns_later"].max(), cpp["cpp_ns"].max())
    axes.flat[0].set_ylim(drawn["ns_later"].min() / 2, top * 2)
    fig.suptitle("Cost of a slot against K (bench/step_cost.csv): solid defaults, dashed exact fast paths, "
                 "grey the other panels' series", fontsize=7, x=0.01, ha="left")
    fig.tight_layout()
    save_figure(fig, stem)
    write_table(frame, stem.with_suffix(".csv"))


def main(argv=None):
    """Command line (see the module docstring); bad input: one ``error:`` line, exit status 2."""
    def run():
        """Parse, check, read the table and draw."""
        parser = OneLineParser(description=doc_summary(__doc__))
        parser.add_argument("--table", type=Path, default=BENCH_TABLE, help="the step-cost table (make bench)")
        parser.add_argument("--figures", type=Path, default=FIGURES, help="output folder (default figures/)")
        args = parser.parse_args(argv)
        if not args.table.is_file():
            raise ValueError(f"--table {args.table}: no such file")
        table = pd.read_csv(args.table)
        unknown = sorted(set(table["algorithm"]) - set(ALGORITHMS))
        if unknown:
            raise ValueError(f"--table {args.table}: unknown algorithm {unknown[0]!r}")
        check_output_folder(args.figures, "figures folder", create=True)
        plot(cost_table(table), args.figures / NAME)
        print(f"wrote {args.figures / NAME}.png, .pdf, .csv")

    main_guard(run)


if __name__ == "__main__":
    main()
