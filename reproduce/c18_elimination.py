"""Claim C18 (the paper's conclusion): "RUCB-based elimination seldom occurs under most practical settings".

A diagnostic, not a figure of the paper (which gives no numbers).  D-TS is run on every paper dataset with
K <= 32; at every slot, right after D-TS chose its first candidate from the candidate set C (Algorithm 1,
lines 4-11), an independent majority vote over *all* arms is drawn from the same posterior, and the slot
counts as one where the elimination acts if that unrestricted vote winner is outside C (so D-TS's choice
differs from what the vote alone would give).  Also recorded: the share of slots with C smaller than the
whole arm set.  The two counts of every run are stored like every figure's runs (``reproduce.harness.store``,
the runner's chunk plan of a D-TS line) under ``<results>/c18_elimination/<dataset>/``: resumable, reused
when present, checked by ``reproduce/verify.py``.  Writes ``<figures>/c18_elimination.csv`` (per dataset:
mean and s.e. over runs) and ``c18_elimination_claims.csv``.  Defaults: 20 runs of T = 1e6 per dataset,
the horizon of the paper's experiments (quick: 20 runs of T = 1e4); the share depends on T (at T = 1e5
it was 22% on MSLR K = 5 non-Condorcet and 1.4% on K = 16 non-Condorcet, at T = 1e6 3.5% and 17%), so a
shorter run does not stand for the paper's settings.
Usage: ``python reproduce/c18_elimination.py [--quick] [--runs N] [--horizon T] [--n-jobs J] [--plot-only]``.
"""

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from numba import njit

from algorithms import get_algorithm
from core.argmax import argmax_uniform
from data import load_dataset
from reproduce.claims import FAILS, HOLDS, QUICK_PREFIX, checked, claim_row, mean_se, under
from reproduce.cli import doc_summary
from reproduce.experiment import write_claims
from reproduce.figure_cli import figure_main
from reproduce.harness import seeds
from reproduce.harness.backends import backend_context
from reproduce.harness.limits import check_output_folder
from reproduce.harness.runner import Line, chunk_plan, git_commit, package_versions
from reproduce.harness.store import NotStored, inspect_chunk, save_chunk
from reproduce.paper_config import HORIZON
from reproduce.scale import power_of_ten
from reproduce.tables import print_table, write_table

NAME = "c18_elimination"
ALGORITHM = "dts"
# Marks a stored chunk as this diagnostic's (its config's "diagnostic" entry; the version changes if the probe does).
DIAGNOSTIC = f"{NAME} v1"
DATASETS = ("cyclic", "strong_borda", "arxiv", "sushi", "mslr5_condorcet", "mslr16_condorcet", "mslr32_condorcet",
            "nc_cyclic", "nc_strong_borda", "gap", "mslr5_noncondorcet", "mslr16_noncondorcet", "mslr32_noncondorcet")
# The real-world datasets: the "practical settings" of the claim.
PRACTICAL = ("arxiv", "sushi", "mslr5_condorcet", "mslr16_condorcet", "mslr32_condorcet", "mslr5_noncondorcet",
             "mslr16_noncondorcet", "mslr32_noncondorcet")
DEFAULT_RUNS, DEFAULT_HORIZON = 20, HORIZON
# "Seldom": the elimination changes the first candidate in fewer than this share of the slots.
RARE_SHARE = 0.05


@njit(cache=True)
def _unrestricted_winner_outside(rng, prob_above, in_c, votes):
    """Draw the votes 1(theta_ij > 1/2) of every pair i < j (theta_ji = 1 - theta_ij), take the
    uniform-tie argmax of the vote counts over all arms, and return whether it lies outside C."""
    K = prob_above.shape[0]
    votes[:] = 0
    for i in range(K):
        for j in range(i + 1, K):
            if rng.random() < prob_above[i, j]:
                votes[i] += 1
            else:
                votes[j] += 1
    everyone = np.ones(K, np.bool_)
    return not in_c[argmax_uniform(rng, votes, everyone)]


@njit(cache=True)
def _run(select, update, state, rng, probe_rng, P, horizon):
    """One D-TS run of ``horizon`` slots; returns (slots where the unrestricted vote winner is outside C,
    slots with |C| < K)."""
    K = P.shape[0]
    votes = np.zeros(K, np.int64)
    outside = 0
    restricted = 0
    for t in range(1, horizon + 1):
        a1, a2 = select(state, t, rng)
        size = 0
        for i in range(K):
            size += state.in_candidates[i]
        restricted += size < K
        outside += _unrestricted_winner_outside(probe_rng, state.prob_above, state.in_candidates, votes)
        update(state, a1, a2, rng.random() < P[a1, a2], t)
    return outside, restricted


def elimination_counts(dataset_name: str, run: int, horizon: int, seed: int) -> tuple[int, int]:
    """Run ``run`` of D-TS on ``dataset_name`` (arms shuffled by the run's permutation) for ``horizon`` slots:
    (slots where the unrestricted vote winner is outside C, slots with |C| < K).  A pure function of its
    arguments: the streams are the run's D-TS stream and a probe stream of its own (``reproduce.harness.seeds``)."""
    dataset = load_dataset(dataset_name)
    spec = get_algorithm(ALGORITHM)
    perm = seeds.run_permutation(seed, dataset.name, run, dataset.K)
    P = np.ascontiguousarray(dataset.P[np.ix_(perm, perm)])
    state = spec.make_state(dataset.K, horizon, {})
    rng = seeds.algorithm_rng(seed, dataset.name, run, spec.name)
    probe_rng = seeds.algorithm_rng(seed, dataset.name, run, NAME)
    outside, restricted = _run(spec.select, spec.update, state, rng, probe_rng, P, horizon)
    return int(outside), int(restricted)


def chunk_shapes(config: dict) -> dict:
    """The arrays of a C18 chunk made with ``config``: per run, the two slot counts of ``elimination_counts``."""
    start, stop = config["runs"]
    return {"outside": (stop - start,), "restricted": (stop - start,)}


def diagnostic_plan(dataset_name: str, runs: int, horizon: int, out: Path, seed: int) -> list:
    """The chunks of one dataset's C18 runs, (start, stop, path, config): the runner's chunk plan for a D-TS
    line, in the folder ``<out>/c18_elimination/``, each config marked with ``DIAGNOSTIC`` so that neither a
    D-TS line nor this diagnostic ever takes the other's chunk for its own."""
    line = Line(dataset=dataset_name, algorithm=ALGORITHM, horizon=horizon, runs=runs)
    return [(start, stop, path, {**config, "diagnostic": DIAGNOSTIC})
            for start, stop, path, config in chunk_plan(line, load_dataset(dataset_name), Path(out) / NAME, seed)]


def compute_chunk(path: Path, config: dict) -> tuple[Path, dict, dict]:
    """Simulate the runs of the chunk ``config`` describes; return (path, arrays, meta) for the calling process
    to store at ``path`` (workers only compute, as in ``reproduce.harness.runner``)."""
    began, began_cpu = time.time(), time.process_time()
    start, stop = config["runs"]
    counts = np.array([elimination_counts(config["dataset"], run, config["horizon"], config["seed"])
                       for run in range(start, stop)], dtype=np.int64).reshape(-1, 2)
    meta = {"config": config, "seconds": time.time() - began, "cpu_seconds": time.process_time() - began_cpu,
            "commit": git_commit(), "versions": package_versions(), "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    return path, {"outside": counts[:, 0], "restricted": counts[:, 1]}, meta


def verify_chunk(path: Path, chunk: dict, runs_per_chunk: int) -> list[str]:
    """Re-simulate the first ``runs_per_chunk`` runs of a stored C18 chunk and compare both counts exactly;
    one message per differing run (``reproduce/verify.py`` calls this for chunks marked ``DIAGNOSTIC``)."""
    config = chunk["meta"]["config"]
    start, stop = config["runs"]
    problems = []
    for row, run in enumerate(range(start, min(stop, start + runs_per_chunk))):
        fresh = elimination_counts(config["dataset"], run, config["horizon"], config["seed"])
        if fresh != (int(chunk["outside"][row]), int(chunk["restricted"][row])):
            problems.append(f"{path}: run {run}: C18 counts {fresh} differ from the stored "
                            f"({int(chunk['outside'][row])}, {int(chunk['restricted'][row])})")
    return problems


def stored_runs(args) -> pd.DataFrame:
    """Compute the chunks that are not stored yet (all with --force) on the backend of --backend/--scheduler/
    --local-cluster, writing each as it arrives; with --plot-only compute nothing and leave out a dataset whose
    runs are not all stored (ValueError if none is).  Return one row per run: dataset, K, run, share of slots
    with the elimination acting (``acts``) and with C restricted (``restricted``)."""
    from joblib import Parallel, delayed, parallel_config
    from tqdm.auto import tqdm

    runs = args.runs or DEFAULT_RUNS
    plans = {name: diagnostic_plan(name, runs, args.horizon, args.out, args.seed) for name in DATASETS}
    todo, found, missing = [], {}, []
    for name, plan in plans.items():
        for _start, _stop, path, config in plan:
            chunk, reason = (None, None) if args.force else inspect_chunk(path, config, chunk_shapes(config))
            if chunk is not None:
                found[path] = chunk
            elif args.plot_only:
                missing.append(name)
            else:
                if reason is not None and not args.stored_only:
                    print(f"recomputing {path}: {reason}", file=sys.stderr, flush=True)
                todo.append((path, config))
    if todo and args.stored_only:
        path, config = todo[0]
        raise NotStored(path, inspect_chunk(path, config, chunk_shapes(config))[1] or "missing", len(todo))
    if todo:
        check_output_folder(args.out, "results folder", create=True)
        total = sum((config["runs"][1] - config["runs"][0]) * config["horizon"] for _, config in todo)
        bar = tqdm(total=total, unit="slot", unit_scale=True, disable=args.no_progress,
                   desc=f"{NAME}: {len(todo)} chunks")
        with backend_context(args), parallel_config(backend=args.backend, n_jobs=args.n_jobs):
            for path, arrays, meta in Parallel(return_as="generator_unordered")(
                    delayed(compute_chunk)(path, config) for path, config in todo):
                save_chunk(path, arrays, meta)
                found[path] = {**arrays, "meta": meta}
                bar.update((meta["config"]["runs"][1] - meta["config"]["runs"][0]) * args.horizon)
        bar.close()
    if missing:
        if len(set(missing)) == len(plans):
            raise ValueError(f"--plot-only: no C18 runs are stored under {args.out / NAME}; run reproduce/{NAME}.py "
                             "without --plot-only to compute them")
        print(f"note: not computed yet, left out: {', '.join(dict.fromkeys(missing))}", file=sys.stderr)
    rows = []
    for name, plan in plans.items():
        if name in missing:
            continue
        K = load_dataset(name).K
        for start, stop, path, _config in plan:
            chunk = found[path]
            rows += [{"dataset": name, "K": K, "run": run, "acts": int(chunk["outside"][row]) / args.horizon,
                      "restricted": int(chunk["restricted"][row]) / args.horizon}
                     for row, run in enumerate(range(start, stop))]
    return pd.DataFrame(rows)


def c18_rows(table: pd.DataFrame) -> list[dict]:
    """One check per practical dataset: the elimination changes the first candidate in fewer than
    RARE_SHARE of the slots; and one for the majority of them."""
    rows, verdicts = [], []
    for name in PRACTICAL:
        per_run = table[table["dataset"] == name]
        if per_run.empty:
            continue
        acts, restricted = mean_se(per_run["acts"]), per_run["restricted"].mean()
        verdict = under(acts, RARE_SHARE)
        verdicts.append(verdict)
        rows.append(checked("C18", f"diagnostic {name}", f"elimination changes a1 in < {RARE_SHARE:.0%} of slots",
                            lambda acts=acts, restricted=restricted, verdict=verdict: (
                                f"{acts.value:.2%} +- {acts.se:.2%} of slots; C restricted in {restricted:.1%}",
                                verdict)))
    if verdicts:
        held = sum(verdict == HOLDS for verdict in verdicts)
        rows.append(claim_row("C18", "diagnostic, real-world datasets", "seldom on most practical settings "
                              "(on more than half of the real-world datasets)",
                              f"holds on {held} of {len(verdicts)}", HOLDS if 2 * held > len(verdicts) else FAILS))
    return rows


def build(args) -> None:
    """Compute (or read) the stored C18 runs of every dataset, tabulate, check C18."""
    per_run = stored_runs(args)
    runs, horizon = args.runs or DEFAULT_RUNS, args.horizon
    summary = per_run.groupby(["dataset", "K"], sort=False).agg(
        runs=("run", "size"), acts_mean=("acts", "mean"), acts_sd=("acts", "std"),
        restricted_mean=("restricted", "mean")).reset_index()
    summary["acts_se"] = summary["acts_sd"] / np.sqrt(summary["runs"])
    summary["horizon"] = horizon
    stem = args.figures / NAME
    write_table(summary.drop(columns="acts_sd"), stem.with_suffix(".csv"))
    checks = write_claims(c18_rows(per_run), stem.with_name(f"{NAME}_claims.csv"), QUICK_PREFIX if args.quick else None)
    print_table(summary.drop(columns="acts_sd"))
    print_table(checks.drop(columns="statement"))
    print(f"wrote {stem}.csv and {NAME}_claims.csv ({runs} runs of T = {horizon} per dataset)")


def main(argv=None):
    """Run the diagnostic from the command line (see module docstring)."""
    figure_main(doc_summary(__doc__), DEFAULT_HORIZON, build, argv, fast=False,  # slot by slot, by design
                runs_help=f"independent runs per dataset (default: {DEFAULT_RUNS}, this script's own; the paper gives "
                          "none)",
                horizon_help=f"time horizon T, e.g. 100000 or 1e5 (default: {power_of_ten(DEFAULT_HORIZON)}, the "
                             "horizon of the paper's experiments)")


if __name__ == "__main__":
    main()
