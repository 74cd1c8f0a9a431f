"""Nanoseconds per time step of every algorithm at K = 5, 16, 32, 136, 500, and of one Beta draw.

For each (algorithm, K) the bench runs the simulator for ``warmup`` slots and for ``warmup + steps``
slots with the same seed (best of 3 each); because a run with the same seed is a prefix of a longer
one, the difference is the cost of slots warmup+1 .. warmup+steps (the steady state when warmup is
large).  BTM and SAVAGE depend on the horizon, so for them the two runs differ and the difference is
only an estimate.  On a loaded machine the difference can be noisy (even 0): rerun on an idle one.
It prints ns/step and the ratio to one Beta draw measured in the same process, and (for algorithms
with an initial phase) the cost of the first ``warmup`` slots.  Where the authors' C++ simulator has
a published per-step time (issue #3's anchors, measured on this kind of machine at K = 5, 16, 32,
100, 500; the K = 100 anchor is shown against K = 136), the last column is our steady-state time as
a fraction of it (below 1: faster).  Timings, not pass/fail.

Usage: python bench/step_cost.py [--algorithms dts dts_plus ...] [--K 5 16 ...] [--warmup N] [--steps N]
"""

import argparse
import time

import numpy as np
from numba import njit

from algorithms import ALGORITHMS, get_algorithm
from data import load_dataset
from reproduce.runner import run_one

DATASETS = {5: "mslr5_condorcet", 16: "mslr16_condorcet", 32: "mslr32_condorcet",
            136: "mslr136_informational", 500: "copeland500"}
# Default slots per K: the larger K, the fewer slots fit in a few seconds.  As many timed slots as
# warm-up slots, so that run-to-run noise of the warm-up run does not swamp the difference.
WARMUP = {5: 200_000, 16: 200_000, 32: 100_000, 136: 20_000, 500: 2_000}
STEPS = {5: 200_000, 16: 200_000, 32: 100_000, 136: 20_000, 500: 2_000}
# The authors' C++ per-step times in microseconds (issue #3), keyed by our K (their K = 100 -> 136).
CPP_ANCHOR_US = {
    "rucb": {5: 0.34, 16: 2.4, 32: 8.5, 136: 70.0, 500: 3400.0},
    "rmed1": {5: 0.24, 16: 1.0, 32: 4.0, 136: 22.0},
    "ecw_rmed": {5: 1.9, 16: 21.0, 32: 106.0, 136: 5600.0},
    "ccb": {5: 1.5, 16: 7.5, 32: 23.0, 136: 170.0, 500: 8000.0},
}


@njit(cache=True)
def _beta_draws(rng, a, b, count):
    total = 0.0
    for _ in range(count):
        total += rng.beta(a, b)
    return total


def beta_draw_ns(count: int = 2_000_000) -> float:
    """ns per numba ``Generator.beta`` draw with typical posterior parameters."""
    rng = np.random.default_rng(0)
    _beta_draws(rng, 3.00001, 5.00001, 10)
    began = time.perf_counter()
    _beta_draws(rng, 3.00001, 5.00001, count)
    return (time.perf_counter() - began) / count * 1e9


def timed_run(dataset, spec, horizon: int, seed: int = 0, repeats: int = 3) -> float:
    """Seconds to simulate one run of ``horizon`` slots (best of ``repeats``, against load noise)."""
    best = float("inf")
    for _ in range(repeats):
        began = time.perf_counter()
        run_one(dataset, spec, {}, horizon, 0, seed)
        best = min(best, time.perf_counter() - began)
    return best


def step_cost(name: str, K: int, warmup: int, steps: int) -> tuple[float, float]:
    """(ns per slot in the first ``warmup`` slots, ns per slot over the next ``steps`` slots)."""
    spec, dataset = get_algorithm(name), load_dataset(DATASETS[K])
    timed_run(dataset, spec, 2, repeats=1)  # compile
    first = timed_run(dataset, spec, warmup)
    both = timed_run(dataset, spec, warmup + steps)
    return first / warmup * 1e9, max(both - first, 0.0) / steps * 1e9


def main(argv=None):
    """Print the table of step costs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--algorithms", nargs="+", default=sorted(ALGORITHMS))
    parser.add_argument("--K", nargs="+", type=int, default=sorted(DATASETS), choices=sorted(DATASETS))
    parser.add_argument("--warmup", type=int, default=None, help="slots before timing (default: by K)")
    parser.add_argument("--steps", type=int, default=None, help="timed slots (default: by K)")
    args = parser.parse_args(argv)
    beta = beta_draw_ns()
    print(f"one Beta draw: {beta:.1f} ns")
    print(f"{'algorithm':<10} {'K':>4} {'warmup':>8} {'ns/slot (warmup)':>17} {'ns/slot (after)':>16} {'x Beta':>8} "
          f"{'C++ us':>8} {'x C++':>7}")
    for name in args.algorithms:
        for K in args.K:
            warmup = args.warmup or WARMUP[K]
            steps = args.steps or STEPS[K]
            early, steady = step_cost(name, K, warmup, steps)
            anchor = CPP_ANCHOR_US.get(name, {}).get(K)
            versus = f"{anchor:>8g} {steady / (anchor * 1e3):>7.3f}" if anchor else f"{'-':>8} {'-':>7}"
            print(f"{name:<10} {K:>4} {warmup:>8} {early:>17.0f} {steady:>16.0f} {steady / beta:>8.1f} {versus}",
                  flush=True)


if __name__ == "__main__":
    main()
