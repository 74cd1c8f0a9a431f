"""Claim C18 (the paper's conclusion): "RUCB-based elimination seldom occurs under most practical settings".

A diagnostic, not a figure of the paper (which gives no numbers).  D-TS is run on every paper dataset with
K <= 32; at every slot, right after D-TS chose its first candidate from the candidate set C (Algorithm 1,
lines 4-11), an independent majority vote over *all* arms is drawn from the same posterior, and the slot
counts as one where the elimination acts if that unrestricted vote winner is outside C (so D-TS's choice
differs from what the vote alone would give).  Also recorded: the share of slots with C smaller than the
whole arm set.  Writes ``<figures>/c18_elimination.csv`` (per dataset: mean and s.e. over runs) and
``c18_elimination_claims.csv``.  Defaults: 20 runs of T = 1e6 per dataset, the horizon of the paper's
experiments (quick: 20 runs of T = 1e4); the share depends on T (at T = 1e5 it was 22% on MSLR K = 5
non-Condorcet and 1.4% on K = 16 non-Condorcet, at T = 1e6 3.5% and 17%), so a shorter run does not
stand for the paper's settings.
Usage: ``python reproduce/c18_elimination.py [--quick] [--runs N] [--horizon T] [--n-jobs J]``.
"""

import numpy as np
import pandas as pd
from numba import njit

from algorithms import get_algorithm
from core.argmax import argmax_uniform
from data import load_dataset
from reproduce import seeds
from reproduce.claims import FAILS, HOLDS, QUICK_PREFIX, checked, claim_row, mean_se, under
from reproduce.cli import backend_context
from reproduce.experiment import figure_main, print_table, write_claims
from reproduce.paper_config import HORIZON
from reproduce.plotting import write_table

NAME = "c18_elimination"
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


def one_run(dataset_name: str, run: int, horizon: int, seed: int) -> dict:
    """Shares of slots with the elimination acting / C restricted, in run ``run`` (arms shuffled)."""
    dataset = load_dataset(dataset_name)
    spec = get_algorithm("dts")
    perm = seeds.run_permutation(seed, dataset.name, run, dataset.K)
    P = np.ascontiguousarray(dataset.P[np.ix_(perm, perm)])
    state = spec.make_state(dataset.K, horizon, {})
    rng = seeds.algorithm_rng(seed, dataset.name, run, spec.name)
    probe_rng = seeds.algorithm_rng(seed, dataset.name, run, NAME)
    outside, restricted = _run(spec.select, spec.update, state, rng, probe_rng, P, horizon)
    return {"dataset": dataset.name, "K": dataset.K, "run": run, "acts": outside / horizon,
            "restricted": restricted / horizon}


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
    """Run D-TS with the probe on every dataset (on the backend of --backend/--scheduler/--local-cluster),
    tabulate, check C18.  Nothing is stored, so --plot-only has nothing to draw from: ValueError."""
    from joblib import Parallel, delayed, parallel_config

    if args.plot_only:
        raise ValueError(f"--plot-only: {NAME} stores no runs to draw from (it always recomputes); run it without")
    runs, horizon = args.runs or DEFAULT_RUNS, args.horizon
    with backend_context(args), parallel_config(backend=args.backend, n_jobs=args.n_jobs):
        per_run = pd.DataFrame(Parallel()(
            delayed(one_run)(name, run, horizon, args.seed) for name in DATASETS for run in range(runs)))
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
    figure_main(__doc__.splitlines()[0], DEFAULT_HORIZON, build, argv, fast=False,  # slot by slot, by design
                own_runs=DEFAULT_RUNS)


if __name__ == "__main__":
    main()
