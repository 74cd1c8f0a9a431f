"""The performance targets of the project (issue #8) against what was measured: a generated table.

Each target is checked against the measurements themselves, never a hand-copied number:

* the per-slot targets against ``bench/step_cost.csv`` (``make bench``; ``ns_whole``: the mean over a whole
  run from slot 1 of ``whole_slots`` slots, the cost a figure pays), in ns and in Beta draws timed in the
  same process;
* "K = 2000 runs T = 1e6 in under 30 minutes on one core" against the rows of K = 2000 timed over a whole
  run of 1e6 slots (``bench/step_cost.py --K 2000 --whole --whole-slots 1000000``);
* "every algorithm's fast path at least as fast as its defaults" against every (algorithm, K) with both
  rows, allowing ``NOISE`` for the run-to-run noise of a shared machine;
* "the whole paper with ``--fast`` from scratch in 8 hours on 2 cores" against the stored runs' own records
  (``bench/paper_cost.py --measured``: CPU hours, worker hours for lines older than that record), measured
  once every line is stored, before that the hours so far and an estimate from above of the rest (the
  missing lines' hours with the defaults), "met, from above" if the two together are within the target.

A target is "met", "not met" or "not measured" (no row, or the paper not complete and possibly over).
``--write`` replaces the generated block of ``bench/README.md`` with the table.

Usage: python bench/targets.py [--write]
"""

import importlib.util
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, main_guard
from dts_reproduction.reproduce.harness.atomic import write_text_atomic
from dts_reproduction.reproduce.harness.paths import BENCH_TABLE
from dts_reproduction.reproduce.reporting.claims_report import update_readme

BENCH_README = Path(__file__).resolve().parent / "README.md"
# "at least as fast as today": a fast path whose mean cost is above its defaults' by more than this factor
# is reported as slower (run-to-run noise on the shared 2-core machine is 5-15 %).
NOISE = 1.15
FAST_DTS = ("dts", "dts_plus")
PAPER_WALL_HOURS = 8.0  # the whole paper with --fast, from scratch, on 2 cores
PAPER_CORES = 2
RUN_MINUTES = 30.0  # one run of T = 1e6 slots at K = 2000, one core
RUN_K, RUN_SLOTS = 2000, 1_000_000


@dataclass(frozen=True)
class SlotTarget:
    """Mean ns per slot over a whole run of ``whole_slots`` slots at K arms, for each of ``algorithms``
    on its fastest path (its fast path if it has one, else its defaults), at most ``limit_ns``."""

    label: str
    algorithms: tuple
    K: int
    whole_slots: int
    limit_ns: float


SLOT_TARGETS = (
    SlotTarget("D-TS, D-TS+ mean over T = 1e6, K = 5", FAST_DTS, 5, 1_000_000, 250.0),
    SlotTarget("D-TS, D-TS+ mean over T = 1e6, K = 32", FAST_DTS, 32, 1_000_000, 1_500.0),
    SlotTarget("D-TS, D-TS+ mean over T = 2e5, K = 500", FAST_DTS, 500, 200_000, 30_000.0),
    SlotTarget("CCB, RCS, SAVAGE mean over T = 2e5, K = 500", ("ccb", "rcs", "savage"), 500, 200_000, 20_000.0),
)


def fastest_row(rows: pd.DataFrame, algorithm: str, K: int, whole_slots: int):
    """The row of ``algorithm`` at K timed over a whole run of ``whole_slots`` slots, on its fast path if
    it has one there, else its defaults; None if not measured."""
    mine = rows[(rows["algorithm"] == algorithm) & (rows["K"] == K) & (rows["whole_slots"] == whole_slots)
                & rows["ns_whole"].notna()]
    fast = mine[mine["options"] != "-"]
    chosen = fast if len(fast) else mine
    return None if chosen.empty else chosen.iloc[0]


def _beta_draws(row) -> str:
    """A row's mean cost over its whole run in Beta draws timed in the same process, as the step-cost table
    of bench/README.md writes it."""
    draws = row["ns_whole"] / row["beta_ns"]
    return f"{draws:,.0f}" if draws >= 100 else f"{draws:.3g}"


def _verdict(met: bool | None) -> str:
    """The verdict of a target: None = not measured."""
    return "not measured" if met is None else ("met" if met else "**not met**")


def slot_target_rows(rows: pd.DataFrame) -> list[dict]:
    """One table row per (target, algorithm): measured mean ns per slot, in Beta draws, verdict."""
    table = []
    for target in SLOT_TARGETS:
        for algorithm in target.algorithms:
            row = fastest_row(rows, algorithm, target.K, target.whole_slots)
            measured = "-" if row is None else (f"{row['ns_whole']:,.0f} ns ({_beta_draws(row)} Beta draws), "
                                                f"{row['options']}, {row['measured']}")
            table.append({"target": f"{target.label}: <= {target.limit_ns:,.0f} ns a slot", "algorithm": algorithm,
                          "measured": measured,
                          "verdict": _verdict(None if row is None else bool(row["ns_whole"] <= target.limit_ns))})
    return table


def run_target_rows(rows: pd.DataFrame) -> list[dict]:
    """D-TS and D-TS+ (fast): one run of RUN_SLOTS slots at K = RUN_K within RUN_MINUTES, from the rows
    timed over such a run."""
    table = []
    for algorithm in FAST_DTS:
        row = fastest_row(rows, algorithm, RUN_K, RUN_SLOTS)
        minutes = None if row is None else row["ns_whole"] * RUN_SLOTS / 1e9 / 60
        table.append({"target": f"K = {RUN_K}, one run of T = {RUN_SLOTS:.0e} on one core: < {RUN_MINUTES:g} min",
                      "algorithm": algorithm,
                      "measured": "-" if row is None else f"{minutes:.1f} min, {row['options']}, {row['measured']}",
                      "verdict": _verdict(None if row is None else bool(minutes < RUN_MINUTES))})
    return table


def slower_fast_paths(rows: pd.DataFrame) -> list[str]:
    """``algorithm K: ratio`` for every (algorithm, K) whose fast path's mean cost (whole run if both rows
    have one, else the later phase) exceeds its defaults' by more than NOISE."""
    slower = []
    for (algorithm, K), group in rows.groupby(["algorithm", "K"], sort=True):
        defaults, fast = group[group["options"] == "-"], group[group["options"] != "-"]
        if defaults.empty or fast.empty:
            continue
        column = "ns_whole" if defaults["ns_whole"].notna().all() and fast["ns_whole"].notna().all() else "ns_later"
        ratio = fast[column].iloc[0] / defaults[column].iloc[0]
        if ratio > NOISE:
            slower.append(f"{algorithm} K = {K}: x{ratio:.2f} ({column})")
    return slower


def paper_target_row(measured: dict) -> dict:
    """The whole paper with --fast: ``measured`` is ``bench/paper_cost.py``'s ``measured_hours()``; the wall
    time on PAPER_CORES otherwise idle cores is the busy hours (CPU hours; worker hours where no CPU time was
    recorded) / PAPER_CORES."""
    grand = measured["--fast"][-1][1]
    wall = grand["busy"] / PAPER_CORES
    target = f"all seven figures with `--fast` from scratch: <= {PAPER_WALL_HOURS:g} h on {PAPER_CORES} cores"
    how = (f"busy h / {PAPER_CORES}: CPU h, or worker h for the {grand['no_cpu']} lines computed before CPU "
           f"time was recorded")
    if grand["missing"]:
        rest = grand["estimate"] / PAPER_CORES
        text = (f"{grand['lines'] - grand['missing']} of {grand['lines']} lines stored: {wall:.1f} h so far ({how}), "
                f"the {grand['missing']} missing estimated from above at {rest:.1f} h more")
        verdict = "met, from above" if wall + rest <= PAPER_WALL_HOURS else _verdict(None)
        return {"target": target, "algorithm": "all", "measured": text, "verdict": verdict}
    return {"target": target, "algorithm": "all", "measured": f"{wall:.1f} h ({how}; worker h {grand['worker']:.1f})",
            "verdict": _verdict(wall <= PAPER_WALL_HOURS)}


def targets_table(rows: pd.DataFrame, measured: dict) -> str:
    """The markdown table of every target."""
    slower = slower_fast_paths(rows)
    table = slot_target_rows(rows) + run_target_rows(rows) + [
        {"target": f"every fast path at least as fast as its defaults, every K (x{NOISE:g} for noise)",
         "algorithm": "all", "measured": "; ".join(slower) if slower else "none slower",
         "verdict": _verdict(not slower)},
        paper_target_row(measured)]
    lines = ["| target | algorithm | measured | verdict |", "|---|---|---|---|"]
    lines += [f"| {row['target']} | {row['algorithm']} | {row['measured']} | {row['verdict']} |" for row in table]
    return "\n".join(lines)


def _paper_cost():
    """bench/paper_cost.py as a module (bench/ is a folder of scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("bench_paper_cost", Path(__file__).with_name("paper_cost.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv=None):
    """Print the targets table; with --write also put it into bench/README.md (bad input: one line, exit 2)."""
    parser = OneLineParser(description=doc_summary(__doc__))
    parser.add_argument("--write", action="store_true", help="also replace the generated block of bench/README.md")
    args = parser.parse_args(argv)

    def run():
        """Print the verdict table (and with --write, put it into bench/README.md)."""
        if not BENCH_TABLE.is_file():
            raise ValueError(f"{BENCH_TABLE}: no such file (run make bench)")
        text = targets_table(pd.read_csv(BENCH_TABLE), _paper_cost().measured_hours())
        print(text)
        if args.write:
            write_text_atomic(BENCH_README, update_readme(BENCH_README.read_text(), {"targets": text}))
            print(f"wrote {BENCH_README}")

    main_guard(run)


if __name__ == "__main__":
    main()
