"""Nanoseconds per time slot of every algorithm at K = 5, 16, 32, 136, 500 (and 2000), early and later.

For each (algorithm, parameters, K) the bench runs the simulator for ``warmup`` slots and for
``warmup + steps`` slots with the same seed (best of 3 each, process CPU time, so that other processes
on a shared machine count less); because a run with the same seed is a prefix of a longer one, the
difference is the cost of slots warmup+1 .. warmup+steps (the later phase), and the first run gives
the cost of the early phase.  BTM and SAVAGE depend on the horizon, so for them the two runs differ
and the difference is only an estimate.  On a loaded machine the difference can be noisy (even 0).  Without
``--warmup`` / ``--steps`` the slot counts start at ``WARMUP[K]`` and grow tenfold (up to
``MAX_SLOTS``) while the timed slots take less than ``MIN_TIMED_SECONDS`` in all: the noise of the
first run (at K = 2000 building the state, or RCS's first slots, take milliseconds to seconds) would
swamp 200 slots of a few microseconds.  Each path of each row grows its own counts and the row records
them; where the fast path needed more slots than the defaults, its ref/fast ratio compares per-slot
costs over different slots (marked ``*``).

Every algorithm is timed with its default parameters (the reference, how the stored results were
made) and, if it has exact fast paths (``AlgorithmSpec.fast``: D-TS's ``sampling="fast"``, RCS's
``sampling="knockout"`` with ``skip="exact"``, the ``skip="exact"`` of RUCB, CCB, RMED and ECW-RMED,
...), with those too; the last column is reference / fast
for the same slots.  One Beta draw and
one uniform draw, timed in the same process, are the baselines (columns "x Beta", "x unif").  "state
MB" is the size of the algorithm's state arrays; the peak resident memory of the process is printed
at the end.  K = 2000 has no data file: the bench generates a three-Copeland-winner tournament like
the 500-armed one (``data.make_copeland_500(K=2000, ...)`` with the probabilities drawn uniformly from
the ranges in ``K2000_RANGES`` with seed 2000).  Where the authors' C++ simulator has a published
per-step time (``CPP_ANCHOR_US``: RUCB, RMED1, ECW-RMED and CCB from issue #3's anchors at K = 5, 16, 32,
100, 500, the K = 100 anchor shown against K = 136; D-TS and D-TS+ measured on this machine from the
authors' public code at K = 5, 16, 32, 136, 500, bench/README.md says how), "x C++" is our later-phase
time as a fraction of it.  Timings, not pass/fail.

With ``--csv PATH`` the rows are also written as a table (with the Beta and uniform draw costs, the
load average, the time and the commit they were measured at); ``make bench`` writes
``bench/step_cost.csv``, from which ``reproduce/report.py --readme`` generates the step-cost table of
bench/README.md.
With ``--merge`` only the rows measured now replace those of the same (algorithm, options, K) in the
existing CSV, the others are kept: e.g. re-measure D-TS after a change to it without re-timing the rest.
With ``--refresh-cpp`` nothing is timed: only the column ``x_cpp`` of the CSV is recomputed from its
``ns_later`` and ``CPP_ANCHOR_US`` (after an anchor is added or changed).

With ``--whole`` each row also times one whole run from slot 1 (``WHOLE``: 1e6 slots at K <= 32,
2e5 from K = 136 on; ``--whole-slots N``: N at every K) and reports its mean ns per slot, the cost a
figure actually pays.

``--algorithms`` takes registered names and plug-in references (``path/to/file.py:ATTR`` or
``package.module:ATTR``, docs/extending.md), so a researcher's own algorithm is timed as the registered ones are; its
rows are named by its spec's name, the name a run of it is stored and costed under.  ``bench/plugin_cost.csv``
holds the rows of the toy Copeland-UCB of tests/toy_plugins.py, compiled and in plain Python (``make
bench-plugin``): the cost model prices a plain-Python plug-in by them (``reproduce.harness.cost``).

Usage: python bench/step_cost.py [--algorithms dts mine.py:MINE_SPEC ...] [--K 5 16 ...] [--warmup N] [--steps N]
       [--paths reference fast] [--whole [--whole-slots N]] [--csv PATH [--merge]]
       python bench/step_cost.py --csv PATH --refresh-cpp
"""

import os
import resource
import time
from pathlib import Path

import numpy as np
import pandas as pd
from numba import njit

from dts_reproduction.algorithms import ALGORITHMS, get_algorithm, resolve_algorithm
from dts_reproduction.data import dataset_from_matrix, load_dataset, make_copeland_500
from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, integer, main_guard
from dts_reproduction.reproduce.config.paper import HORIZON
from dts_reproduction.reproduce.harness.limits import check_output_folder
from dts_reproduction.reproduce.harness.runner import git_commit, run_one
from dts_reproduction.reproduce.output.tables import write_table

DATASETS = {5: "mslr5_condorcet", 16: "mslr16_condorcet", 32: "mslr32_condorcet",
            136: "mslr136_informational", 500: "copeland500", 2000: None}
K2000_RANGES = {"p_winner_cycle": (0.55, 0.65), "p_winner_vs_rest": (0.55, 0.7), "p_rest": (0.55, 0.7)}
K2000_SEED = 2000
# Slots of the whole run whose mean cost per slot is reported too (``--whole``): the paper's horizon
# at K <= 32, 2e5 slots from K = 136 on (the early, expensive phase of the large instances).
WHOLE = {5: HORIZON, 16: HORIZON, 32: HORIZON, 136: 200_000, 500: 200_000, 2000: 200_000}
# Default slots per K: the larger K, the fewer slots fit in a few seconds.  As many timed slots as
# warm-up slots, so that run-to-run noise of the warm-up run does not swamp the difference.
WARMUP = {5: 200_000, 16: 200_000, 32: 100_000, 136: 20_000, 500: 2_000, 2000: 200}
STEPS = WARMUP
# Without --warmup / --steps, cheap algorithms get tenfold more slots until the timed slots take this long.
MIN_TIMED_SECONDS = 0.5
MAX_SLOTS = max(WARMUP.values())
# The two parameter sets an algorithm can be timed with: its defaults and its exact fast paths.
PATHS = ("reference", "fast")
# The authors' C++ per-step times in microseconds, keyed by our K.  RUCB, RMED1, ECW-RMED, CCB: issue #3 (their
# K = 100 -> 136).  D-TS, D-TS+ (their Alg_DTS, Alg_DTS2): measured on this machine on 2026-11-28 from their
# public code built with g++ -O2 on the bench's datasets, process CPU time per slot of their singleRun after
# WARMUP[K] slots, median of 5 (K <= 32) or 3 processes, load average 3.5-6.5 (bench/README.md, "The authors'
# C++ D-TS").
CPP_ANCHOR_US = {
    "rucb": {5: 0.34, 16: 2.4, 32: 8.5, 136: 70.0, 500: 3400.0},
    "rmed1": {5: 0.24, 16: 1.0, 32: 4.0, 136: 22.0},
    "ecw_rmed": {5: 1.9, 16: 21.0, 32: 106.0, 136: 5600.0},
    "ccb": {5: 1.5, 16: 7.5, 32: 23.0, 136: 170.0, 500: 8000.0},
    "dts": {5: 9.69, 16: 46.5, 32: 194.0, 136: 3250.0, 500: 46000.0},
    "dts_plus": {5: 5.64, 16: 45.7, 32: 186.0, 136: 3260.0, 500: 47200.0},
}


@njit(cache=True)
def _beta_draws(rng, a, b, count):
    """Sum of ``count`` Beta(a, b) draws (the baseline every slot cost is divided by)."""
    total = 0.0
    for _ in range(count):
        total += rng.beta(a, b)
    return total


@njit(cache=True)
def _uniform_draws(rng, count):
    """Sum of ``count`` uniform draws (the second baseline)."""
    total = 0.0
    for _ in range(count):
        total += rng.random()
    return total


def beta_draw_ns(count: int = 2_000_000) -> float:
    """ns per numba ``Generator.beta`` draw with typical posterior parameters."""
    rng = np.random.default_rng(0)
    _beta_draws(rng, 3.00001, 5.00001, 10)
    began = time.process_time()
    _beta_draws(rng, 3.00001, 5.00001, count)
    return (time.process_time() - began) / count * 1e9


def uniform_draw_ns(count: int = 20_000_000) -> float:
    """ns per numba ``Generator.random`` draw."""
    rng = np.random.default_rng(0)
    _uniform_draws(rng, 10)
    began = time.process_time()
    _uniform_draws(rng, count)
    return (time.process_time() - began) / count * 1e9


_DATASETS = {}


def bench_dataset(K: int):
    """The dataset of the bench at K (generated for K = 2000, see the module docstring)."""
    if K not in _DATASETS:
        if DATASETS[K] is None:
            P = make_copeland_500(K=K, seed=K2000_SEED, **K2000_RANGES)
            _DATASETS[K] = dataset_from_matrix(P, f"bench_copeland{K}", source=f"bench/step_cost.py, seed {K2000_SEED}")
        else:
            _DATASETS[K] = load_dataset(DATASETS[K])
    return _DATASETS[K]


def timed_run(dataset, spec, params, horizon: int, seed: int = 0, repeats: int = 3) -> float:
    """CPU seconds to simulate one run of ``horizon`` slots (best of ``repeats``, against load noise)."""
    best = float("inf")
    for _ in range(repeats):
        began = time.process_time()
        run_one(dataset, spec, params, horizon, 0, seed)
        best = min(best, time.process_time() - began)
    return best


def state_mb(spec, K: int, params) -> float:
    """Size of the arrays of a fresh state, in MB."""
    state = spec.make_state(K, 1000, spec.problem_params(spec.resolve_params(params), bench_dataset(K)))
    return sum(getattr(part, "nbytes", 0) for part in state) / 1e6


def step_cost(name: str, K: int, warmup: int, steps: int, params, adapt: bool = False) -> tuple[int, int, float, float]:
    """(warm-up slots, timed slots, ns per slot in the first ``warmup`` slots, ns per slot over the next
    ``steps`` slots).  ``adapt``: both slot counts grow tenfold, up to ``MAX_SLOTS``, while the timed slots
    take less than ``MIN_TIMED_SECONDS`` (module doc)."""
    spec, dataset = get_algorithm(name), bench_dataset(K)
    timed_run(dataset, spec, params, 2, repeats=1)  # compile
    first = timed_run(dataset, spec, params, warmup)
    both = timed_run(dataset, spec, params, warmup + steps)
    while adapt and both - first < MIN_TIMED_SECONDS and warmup * 10 <= MAX_SLOTS:
        warmup, steps = warmup * 10, steps * 10
        first = timed_run(dataset, spec, params, warmup)
        both = timed_run(dataset, spec, params, warmup + steps)
    return warmup, steps, first / warmup * 1e9, max(both - first, 0.0) / steps * 1e9


def parse_arguments(argv=None):
    """The command line, every value checked before any timing: a bad one raises ValueError (one line).  Each
    ``--algorithms`` entry is replaced by its algorithm's name, a plug-in reference loaded and registered
    (``resolve_algorithm``), so that the rest of the bench looks every algorithm up by name."""
    parser = OneLineParser(description=doc_summary(__doc__))
    parser.add_argument("--algorithms", nargs="+", default=sorted(ALGORITHMS),
                        help="registered names or plug-in references (path/to/file.py:ATTR, package.module:ATTR); "
                             "default: every registered algorithm")
    parser.add_argument("--K", nargs="+", type=int, default=[5, 16, 32, 136, 500], choices=sorted(DATASETS))
    parser.add_argument("--warmup", default=None, help=f"slots before timing (default: by K, tenfold more while "
                        f"the timed slots take under {MIN_TIMED_SECONDS} s)")
    parser.add_argument("--steps", default=None, help="timed slots (default: by K)")
    parser.add_argument("--paths", nargs="+", default=list(PATHS), choices=PATHS,
                        help="time the defaults (reference) and/or the exact fast paths of each algorithm")
    parser.add_argument("--whole", action="store_true",
                        help="also time one whole run per row (1e6 slots at K <= 32, 2e5 from K = 136) and report "
                             "its mean ns per slot")
    parser.add_argument("--whole-slots", default=None,
                        help="with --whole: the slots of the whole run at every K (e.g. 1000000 for K = 2000, T = 1e6)")
    parser.add_argument("--csv", type=Path, default=None, help="also write the rows to this CSV file")
    parser.add_argument("--merge", action="store_true",
                        help="with --csv: replace only the rows measured now in the existing file, keep the others")
    parser.add_argument("--refresh-cpp", action="store_true",
                        help="with --csv: time nothing, recompute only the x_cpp column of the existing file "
                             "from CPP_ANCHOR_US")
    args = parser.parse_args(argv)
    for flag, given in (("--merge", args.merge), ("--refresh-cpp", args.refresh_cpp)):
        if given and (args.csv is None or not args.csv.is_file()):
            raise ValueError(f"{flag} needs --csv naming an existing file, got {args.csv}")
    if args.csv is not None:
        if args.csv.is_dir():
            raise ValueError(f"--csv {args.csv}: is a folder, not a file")
        check_output_folder(args.csv.parent or Path("."), "--csv folder", create=False)
    args.warmup = None if args.warmup is None else integer(args.warmup, "--warmup")
    args.steps = None if args.steps is None else integer(args.steps, "--steps")
    args.whole_slots = None if args.whole_slots is None else integer(args.whole_slots, "--whole-slots")
    if args.whole_slots is not None and not args.whole:
        raise ValueError(f"--whole-slots {args.whole_slots} needs --whole")
    args.algorithms = [resolve_algorithm(entry).name for entry in args.algorithms]
    return args


def cpp_fraction(name: str, K: int, later: float) -> float:
    """Our later-phase ns per slot ``later`` as a fraction of the authors' C++ per-step time of ``name`` at
    ``K`` (``CPP_ANCHOR_US``); NaN where there is none."""
    anchor = CPP_ANCHOR_US.get(name, {}).get(K)
    return later / (anchor * 1e3) if anchor else float("nan")


def refresh_cpp(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` (rows of ``--csv``) with its ``x_cpp`` column recomputed from ``ns_later`` and
    ``CPP_ANCHOR_US``; every other column unchanged, nothing re-timed."""
    rows = zip(table["algorithm"], table["K"], table["ns_later"], strict=True)
    return table.assign(x_cpp=[cpp_fraction(name, K, later) for name, K, later in rows])


def timed_params(spec, paths) -> list[tuple[str, dict]]:
    """(label, parameters) of each requested path the algorithm has: "-" for its defaults, the fast
    parameters as ``name=value`` for its fast path (none if it has no fast path)."""
    options = {"reference": ("-", {}),
               "fast": (" ".join(f"{k}={v}" for k, v in spec.fast.items()), dict(spec.fast)) if spec.fast else None}
    return [options[path] for path in paths if options[path] is not None]


ROW_KEY = ["algorithm", "options", "K"]


def merge_rows(old: pd.DataFrame, new: pd.DataFrame) -> pd.DataFrame:
    """``old`` with its rows of the same (algorithm, options, K) as a row of ``new`` replaced by it,
    new keys added; sorted by algorithm, then K, the reference ("-") before the fast path."""
    kept = old.merge(new[ROW_KEY], on=ROW_KEY, how="left", indicator=True)
    kept = old[(kept["_merge"] == "left_only").to_numpy()]
    merged = pd.concat([kept, new], ignore_index=True)
    order = merged.assign(_fast=merged["options"] != "-").sort_values(["algorithm", "K", "_fast"], kind="stable")
    return order.drop(columns="_fast").reset_index(drop=True)


def main(argv=None):
    """Print the table of step costs (bad input: one ``error:`` line, exit status 2)."""
    def run():
        """Parse and check, then refresh the x_cpp column (``--refresh-cpp``) or time."""
        args = parse_arguments(argv)
        if args.refresh_cpp:
            write_table(refresh_cpp(pd.read_csv(args.csv)), args.csv)
            print(f"recomputed x_cpp of {args.csv} from CPP_ANCHOR_US")
        else:
            print_step_costs(args)

    main_guard(run)


def print_step_costs(args):
    """Time every requested algorithm, K and path (defaults, fast) and print one table row each."""
    beta, uniform = beta_draw_ns(), uniform_draw_ns()
    print(f"one Beta draw: {beta:.1f} ns, one uniform draw: {uniform:.2f} ns (process CPU time)")
    print(f"{'algorithm':<10} {'options':<28} {'K':>4} {'warmup':>7} {'ns/slot early':>14} {'ns/slot later':>14} "
          f"{'x Beta':>8} {'x unif':>8} {'state MB':>9} {'x C++':>7} {'ref/fast':>13}"
          + (f"{'ns/slot whole run':>25}" if args.whole else ""))
    print("(ref/fast: reference / fast, early/later, * = over different slots; later < 1 ns/slot means the "
          "slots were skipped)")
    measured = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = os.getloadavg()[0]
    rows = []
    for name in args.algorithms:
        for K in args.K:
            reference = None
            for options, params in timed_params(get_algorithm(name), args.paths):
                warmup, steps, early, later = step_cost(name, K, args.warmup or WARMUP[K], args.steps or STEPS[K],
                                                        params, adapt=args.warmup is None and args.steps is None)
                slots = args.whole_slots or WHOLE[K]
                whole = (timed_run(bench_dataset(K), get_algorithm(name), params, slots, repeats=1) / slots * 1e9
                         if args.whole else float("nan"))
                fraction = cpp_fraction(name, K, later)
                versus = f"{'-':>7}" if np.isnan(fraction) else f"{fraction:>7.3f}"
                if reference is None:
                    reference, ratio = {"early": early, "later": later, "slots": (warmup, steps)}, "-"
                else:
                    late_ratio = f"{reference['later'] / later:.1f}" if later >= 1.0 else ">1000"
                    same_slots = reference["slots"] == (warmup, steps)
                    ratio = f"{reference['early'] / early:.1f}/{late_ratio}{'' if same_slots else '*'}"
                mb = state_mb(get_algorithm(name), K, params)
                print(f"{name:<10} {options:<28} {K:>4} {warmup:>7} {early:>14.0f} {later:>14.1f} "
                      f"{later / beta:>8.1f} {later / uniform:>8.1f} {mb:>9.2f} {versus} {ratio:>13}"
                      f"{f'{whole:>14.1f} (T={slots:.0e})' if args.whole else ''}", flush=True)
                rows.append({"algorithm": name, "options": options, "K": K, "warmup": warmup,
                             "steps": steps, "ns_early": early, "ns_later": later, "x_beta": later / beta,
                             "ns_whole": whole, "whole_slots": slots if args.whole else 0,
                             "x_uniform": later / uniform, "state_mb": mb,
                             "x_cpp": fraction,
                             "beta_ns": beta, "uniform_ns": uniform, "load_average": load,
                             "measured": measured, "commit": git_commit()})
    if args.csv is not None:
        table = pd.DataFrame(rows)
        write_table(merge_rows(pd.read_csv(args.csv), table) if args.merge else table, args.csv)
        print(f"wrote {args.csv}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of this process: {peak:.0f} MB")


if __name__ == "__main__":
    main()
