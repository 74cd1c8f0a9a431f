"""Interleaved A/B of the live ``Policy`` step against the compiled step: ns per time slot of
``policy.select()`` + ``policy.update(...)`` driven from Python; of the bare njit ``select`` / ``update`` calls
from a Python loop through numba's dispatcher (what the policy paid before it bound its kernels); of two
compiled no-ops taking the same arguments (what passing the state and the numpy generator to compiled code
costs, the floor of any Python driver); and of the simulator's compiled slot (``run_one``, the same slots
1..N).  Each is timed in turn (``--rounds`` rounds, the best of each kept, process CPU time) on the bench's
dataset of each K (bench/step_cost.py), so that a change in the load of the shared machine hits all four
alike.  The outcomes are drawn from the dataset's matrix with one uniform per slot drawn beforehand.
Timings, not pass/fail.

Usage: python bench/policy_step.py [--algorithms dts rucb ...] [--K 5 32] [--steps N] [--rounds N]
"""

import time

import numpy as np
from numba import njit
from step_cost import DATASETS, bench_dataset, timed_run  # bench/, this script's folder

from dts_reproduction.algorithms import ALGORITHMS, get_algorithm
from dts_reproduction.algorithms.base import bound_kernel, policy_classes
from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, integer, main_guard

DEFAULT_ALGORITHMS = ("dts", "dts_plus", "rucb", "ccb", "rmed1", "sparring", "merge_dts")


@njit(cache=True)
def takes_select_arguments(state, t, rng):
    """Nothing: the cost of passing ``select``'s arguments from Python to compiled code."""
    return 0, 0


@njit(cache=True)
def takes_update_arguments(state, a1, a2, a1_won, t):
    """Nothing: the cost of passing ``update``'s arguments from Python to compiled code."""
    return None


def policy_seconds(cls, P: np.ndarray, uniforms: np.ndarray) -> float:
    """Process CPU seconds of ``len(uniforms)`` slots of a fresh ``cls`` policy (seed 0) driven through
    ``select`` and ``update``, the first candidate winning when its uniform is below P[a1, a2]."""
    policy = cls(P.shape[0], seed=0)
    began = time.process_time()
    for u in uniforms:
        a1, a2 = policy.select()
        policy.update(a1, a2, u < P[a1, a2])
    return time.process_time() - began


def dispatch_seconds(spec, P: np.ndarray, uniforms: np.ndarray) -> float:
    """Process CPU seconds of the same slots with the bare njit ``select`` / ``update`` called from Python."""
    state, rng = spec.make_state(P.shape[0]), np.random.default_rng(0)
    select, update = spec.select, spec.update
    began = time.process_time()
    for t, u in enumerate(uniforms, start=1):
        a1, a2 = select(state, t, rng)
        update(state, a1, a2, u < P[a1, a2], t)
    return time.process_time() - began


def arguments_seconds(spec, P: np.ndarray, uniforms: np.ndarray) -> float:
    """Process CPU seconds of the same number of slots of compiled no-ops bound to the numba types of
    the arguments of ``select`` and ``update``: the part of a policy step that passing the state and the
    generator costs, whatever the algorithm does."""
    state, rng = spec.make_state(P.shape[0]), np.random.default_rng(0)
    select = bound_kernel(takes_select_arguments, (state, 1, rng))
    update = bound_kernel(takes_update_arguments, (state, 0, 0, True, 1))
    began = time.process_time()
    for t, u in enumerate(uniforms, start=1):
        a1, a2 = select(state, t, rng)
        update(state, a1, a2, u < 0.5, t)
    return time.process_time() - began


def interleaved(name: str, K: int, steps: int, rounds: int) -> dict:
    """{"policy" | "dispatch" | "arguments" | "compiled": best ns per slot over ``rounds``}, taken in turn."""
    spec, dataset = get_algorithm(name), bench_dataset(K)
    cls, P = policy_classes()[name], dataset.P
    uniforms = np.random.default_rng(1).random(steps)
    timers = {"policy": lambda: policy_seconds(cls, P, uniforms),
              "dispatch": lambda: dispatch_seconds(spec, P, uniforms),
              "arguments": lambda: arguments_seconds(spec, P, uniforms),
              "compiled": lambda: timed_run(dataset, spec, spec.resolve_params({}), steps, repeats=1)}
    for timer in timers.values():  # compile, or load from the cache
        timer()
    best = dict.fromkeys(timers, float("inf"))
    for _ in range(rounds):
        for key, timer in timers.items():
            best[key] = min(best[key], timer())
    return {key: seconds / steps * 1e9 for key, seconds in best.items()}


def parse_arguments(argv=None):
    """The command line, every value checked before any timing: a bad one raises ValueError (one line)."""
    parser = OneLineParser(description=doc_summary(__doc__))
    parser.add_argument("--algorithms", nargs="+", default=list(DEFAULT_ALGORITHMS))
    parser.add_argument("--K", nargs="+", default=["5", "32"], help="numbers of arms (bench datasets)")
    parser.add_argument("--steps", default="20000", help="slots timed per measurement")
    parser.add_argument("--rounds", default="5", help="A/B rounds; the best of each is kept")
    args = parser.parse_args(argv)
    for flag in ("steps", "rounds"):
        setattr(args, flag, integer(getattr(args, flag), f"--{flag}"))
    args.K = [integer(k, "--K") for k in args.K]
    for name in args.algorithms:
        if name not in ALGORITHMS:
            raise ValueError(f"--algorithms: unknown algorithm {name!r}")
        spec = ALGORITHMS[name]
        if spec.needs_horizon or spec.from_problem is not None:
            raise ValueError(f"--algorithms: {name!r} needs the horizon or settings derived from the true matrix; "
                             f"not timed here")
        if name not in policy_classes():
            raise ValueError(f"--algorithms: {name!r} has no Policy class")
    for k in args.K:
        if k not in DATASETS:
            raise ValueError(f"--K {k}: the bench has datasets for K = {', '.join(map(str, DATASETS))} only")
    return args


def main(argv=None):
    """Print one row per (algorithm, K): ns per slot of each path and the policy's multiple of the compiled slot."""
    def run():
        """Parse, then time and print each row as it is measured."""
        args = parse_arguments(argv)
        print(f"{'algorithm':<10} {'K':>4} {'policy ns':>10} {'dispatch ns':>12} {'arguments ns':>13} "
              f"{'compiled ns':>12} {'policy/compiled':>16} {'policy - compiled':>18}", flush=True)
        for name in args.algorithms:
            for K in args.K:
                ns = interleaved(name, K, args.steps, args.rounds)
                print(f"{name:<10} {K:>4} {ns['policy']:>10,.0f} {ns['dispatch']:>12,.0f} {ns['arguments']:>13,.0f} "
                      f"{ns['compiled']:>12,.0f} "
                      f"{ns['policy'] / ns['compiled']:>16.1f} {ns['policy'] - ns['compiled']:>18,.0f}", flush=True)

    main_guard(run)


if __name__ == "__main__":
    main()
