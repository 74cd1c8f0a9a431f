"""Cost against K: nanoseconds per slot (after the warm-up) of every benchmarked algorithm against the number of
arms, log-log, drawn from bench/step_cost.csv (``make bench``) -- the defaults solid, the exact fast paths dashed,
one Beta draw (the median of the timings in the table) as a dotted line, and the authors' C++ per-step times
where the table has them (``ns_later / x_cpp``, from ``CPP_ANCHOR_US`` of bench/step_cost.py: RUCB, RMED1,
ECW-RMED and CCB from issue #3, D-TS and D-TS+ measured here) as open diamonds of the algorithm's colour,
nested (each algorithm's a size smaller) where they coincide.
A row of 0 ns (every later slot skipped) has no place on a log axis and is left out of the drawing (it stays
in the CSV).

Usage: python bench/cost_vs_k.py [--table bench/step_cost.csv] [--figures DIR]   (writes DIR/cost_vs_k.png/.pdf/.csv)
"""

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from algorithms import ALGORITHMS
from reproduce.cli import OneLineParser, doc_summary, main_guard
from reproduce.harness.limits import check_output_folder
from reproduce.harness.paths import BENCH_TABLE, FIGURES
from reproduce.plotting import save_figure, setup_theme
from reproduce.tables import write_table

NAME = "cost_vs_k"
# Each algorithm's C++ diamonds a step smaller than the previous one's, so that coinciding anchors (D-TS and
# D-TS+ from K = 16 on) nest instead of hiding each other.
CPP_MARKER_SIZE, CPP_MARKER_STEP = 12.0, 1.6


def cost_table(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (algorithm, path, K): ns per slot later, the path ("default" for options "-", else "fast"),
    and the authors' C++ ns per step where known (NaN otherwise); the newest measurement of a repeated row."""
    frame = table.sort_values("measured").drop_duplicates(["algorithm", "options", "K"], keep="last")
    frame = frame.assign(path=np.where(frame["options"] == "-", "default", "fast"),
                         cpp_ns=frame["ns_later"] / frame["x_cpp"])
    return frame[["algorithm", "options", "path", "K", "ns_later", "cpp_ns", "beta_ns"]].sort_values(
        ["algorithm", "path", "K"])


def plot(frame: pd.DataFrame, stem: Path) -> None:
    """Draw the cost-against-K figure from ``cost_table`` rows and write ``stem``.png/.pdf/.csv."""
    setup_theme()
    fig, ax = plt.subplots(figsize=(9, 6.5))
    drawn = frame[frame["ns_later"] > 0]  # 0 ns: every later slot skipped (RCS's fast paths at K = 5), no log value
    for (algorithm, path), rows in drawn.groupby(["algorithm", "path"], sort=False):
        spec = ALGORITHMS[algorithm]
        label = spec.label + ("" if path == "default" else f" ({rows['options'].iloc[0]})")
        ax.plot(rows["K"], rows["ns_later"], color=spec.color, marker=spec.marker, markersize=4,
                linestyle="-" if path == "default" else "--", label=label)
    cpp = frame.dropna(subset=["cpp_ns"]).drop_duplicates(["algorithm", "K"])
    for index, (algorithm, rows) in enumerate(cpp.groupby("algorithm")):
        size = CPP_MARKER_SIZE - CPP_MARKER_STEP * index
        ax.plot(rows["K"], rows["cpp_ns"], linestyle="none", marker="D", markersize=size, markerfacecolor="none",
                color=ALGORITHMS[algorithm].color, label=f"{ALGORITHMS[algorithm].label}: authors' C++")
    beta = float(frame["beta_ns"].median())
    ax.axhline(beta, color="black", linestyle=":", label=f"one Beta draw ({beta:.0f} ns)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("number of arms K")
    ax.set_ylabel("ns per slot (after the warm-up)")
    ax.set_title("Cost of a slot against K (bench/step_cost.csv)\nsolid: defaults; dashed: exact fast paths; "
                 "open diamonds: the authors' C++", fontsize=9, loc="left")
    ax.legend(fontsize=6.5, ncol=2, loc="upper left", bbox_to_anchor=(1.01, 1.0))
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
