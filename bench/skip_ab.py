"""Interleaved A/B of skip="off" (default) against skip="exact" for RUCB, CCB, RMED1, RMED2 and ECW-RMED.

For each (algorithm, dataset) the two settings are timed in turn (A, B, A, B, ...; ``--rounds`` rounds,
the best of each kept, process CPU time) so that a change in the load of a shared machine hits both
alike.  Early = ns per slot over the first ``warmup`` slots; later = ns per slot over the next
``steps`` slots, as the difference of runs of warmup and warmup + steps slots with the same seed (a run
is a prefix of a longer one).  Both are also given as multiples of one Beta draw timed in the same
process.  ``--whole`` times whole runs of that many slots instead (CPU seconds).  Timings, not pass/fail.

Usage: python bench/skip_ab.py [--algorithms rucb ccb rmed1 ...] [--datasets mslr5_condorcet ...]
       [--warmup N] [--steps N] [--rounds N] [--whole T]
"""

import time

from step_cost import beta_draw_ns  # bench/, this script's folder

from dts_reproduction.algorithms import ALGORITHMS, get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, integer, main_guard
from dts_reproduction.reproduce.harness.runner import run_one

DATASETS = ("mslr5_condorcet", "mslr16_condorcet", "mslr32_condorcet", "mslr16_noncondorcet")
SETTINGS = ("off", "exact")


def cpu_seconds(dataset, spec, skip: str, horizon: int) -> float:
    """Process CPU seconds of one run (run index 0, seed 0) of ``horizon`` slots with option ``skip``."""
    began = time.process_time()
    run_one(dataset, spec, {"skip": skip}, horizon, 0, 0)
    return time.process_time() - began


def interleaved(dataset, spec, horizons, rounds: int) -> dict:
    """{(skip, horizon): best CPU seconds over ``rounds``}, the settings and horizons taken in turn."""
    for skip in SETTINGS:
        cpu_seconds(dataset, spec, skip, 2)  # compile
    best = {}
    for _ in range(rounds):
        for skip in SETTINGS:
            for horizon in horizons:
                seconds = cpu_seconds(dataset, spec, skip, horizon)
                best[skip, horizon] = min(best.get((skip, horizon), float("inf")), seconds)
    return best


def parse_arguments(argv=None):
    """The command line, every value checked before any timing: a bad one raises ValueError (one line)."""
    parser = OneLineParser(description=doc_summary(__doc__))
    parser.add_argument("--algorithms", nargs="+", default=["rucb", "ccb", "rmed1", "rmed2", "ecw_rmed"],
                        help="algorithms with a skip option")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--warmup", default="200000", help="slots timed as the early phase")
    parser.add_argument("--steps", default="200000", help="slots timed as the later phase, after the warm-up")
    parser.add_argument("--rounds", default="3", help="A/B rounds; the best of each setting is kept")
    parser.add_argument("--whole", default=None, help="time whole runs of this many slots instead")
    args = parser.parse_args(argv)
    for flag in ("warmup", "steps", "rounds"):
        setattr(args, flag, integer(getattr(args, flag), f"--{flag}"))
    args.whole = None if args.whole is None else integer(args.whole, "--whole")
    for name in args.algorithms:
        if "skip" not in get_algorithm(name).defaults:
            raise ValueError(f"--algorithms: {name!r} has no skip option (those with one: "
                             f"{', '.join(n for n in sorted(ALGORITHMS) if 'skip' in ALGORITHMS[n].defaults)})")
    for name in args.datasets:
        load_dataset(name)
    return args


def main(argv=None):
    """Print one line per (algorithm, dataset, setting) (bad input: one ``error:`` line, exit status 2)."""
    main_guard(lambda: print_ab(parse_arguments(argv)))


def print_ab(args):
    """Time both settings of every requested algorithm and dataset in turn and print one row each."""
    beta = beta_draw_ns()
    print(f"one Beta draw: {beta:.1f} ns (process CPU time)")
    if args.whole:
        print(f"{'algorithm':<10} {'dataset':<20} {'T':>8} {'CPU s off':>10} {'CPU s exact':>12} {'off/exact':>10}")
    else:
        print(f"{'algorithm':<10} {'dataset':<20} {'skip':<6} {'ns/slot early':>14} {'ns/slot later':>14} "
              f"{'early x Beta':>13} {'later x Beta':>13}")
    for name in args.algorithms:
        spec = get_algorithm(name)
        for dataset_name in args.datasets:
            dataset = load_dataset(dataset_name)
            if args.whole:
                best = interleaved(dataset, spec, [args.whole], args.rounds)
                off, exact = best["off", args.whole], best["exact", args.whole]
                print(f"{name:<10} {dataset_name:<20} {args.whole:>8} {off:>10.3f} {exact:>12.3f} {off / exact:>10.1f}",
                      flush=True)
                continue
            best = interleaved(dataset, spec, [args.warmup, args.warmup + args.steps], args.rounds)
            for skip in SETTINGS:
                first = best[skip, args.warmup]
                early = first / args.warmup * 1e9
                later = max(best[skip, args.warmup + args.steps] - first, 0.0) / args.steps * 1e9
                print(f"{name:<10} {dataset_name:<20} {skip:<6} {early:>14.1f} {later:>14.1f} "
                      f"{early / beta:>13.2f} {later / beta:>13.2f}", flush=True)


if __name__ == "__main__":
    main()
