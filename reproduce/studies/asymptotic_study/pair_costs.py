"""Where a line's regret goes, pair by pair: stored runs simulated again keeping the algorithm's comparison counts
(``resimulated_comparisons``), and, on the matrices without a Condorcet winner, the pair that costs a line most
(``costliest_pair_rows``; docs/asymptotic.md#without-a-condorcet-winner-the-pairs-that-decide-the-winners).
"""

import math

import numpy as np
import pandas as pd

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.core.bound_allocation import kl_to_half
from dts_reproduction.core.copeland import copeland_winners
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import run_one
from dts_reproduction.reproduce.studies.asymptotic_study.decades import linear
from dts_reproduction.reproduce.studies.lower_bound import pair_regrets

PAIR_RUNS = 3  # runs of a line without a Condorcet winner simulated again for ``costliest_pair_rows``


def resimulated_comparisons(dataset, result, runs: int, title: str) -> list[np.ndarray]:
    """The comparison counts (``run_one``'s ``comparisons``, the matrix's labels) of runs 0 .. runs-1 of the stored
    line ``result`` on ``dataset``, simulated again: a run is a pure function of its index, so each must end at its
    stored R(T) bit for bit; ValueError naming the panel ``title``, the line and the run otherwise."""
    spec, seed = get_algorithm(result.line.algorithm), result.meta["config"]["seed"]
    counts = []
    for run in range(runs):
        again = run_one(dataset, spec, dict(result.line.params), result.line.horizon, run, seed, comparisons=True)
        if again["final"] != result.final[run]:
            raise ValueError(f"{title}, {result.label}: run {run} re-simulated to R(T) = {again['final']!r}, "
                             f"stored {result.final[run]!r}")
        counts.append(again["comparisons"])
    return counts


def flip_keeps_a_winner(P, i: int, j: int) -> bool:
    """Whether some Copeland winner of P is still one when the pair (i, j) alone is moved past 1/2 (p_ij <- 1 -
    p_ij).  Then that flip is no alternative of the Copeland bound, whose alternatives must make the winners disjoint
    (``regret_bound.copeland_lower_bound_and_exactness``: an algorithm that plays a winner of both matrices need not
    tell them apart); the pair can count only together with other flips."""
    P = np.asarray(P, dtype=np.float64)
    flipped = P.copy()
    flipped[i, j], flipped[j, i] = flipped[j, i], flipped[i, j]
    return bool(np.intersect1d(copeland_winners(P), copeland_winners(flipped)).size)


def costliest_pair_rows(panels, results, known: pd.DataFrame | None = None) -> pd.DataFrame:
    """On the panels without a Condorcet winner, per line with a slope (not ``decades.linear``): its first PAIR_RUNS
    runs simulated again (``resimulated_comparisons``) and the pair of different arms on which they lose the most
    regret per ln T: its arms (the matrix's 1-based labels), p_ij, that regret per ln T and its share of the runs'
    mean R(T), the price r_ij / KL(p_ij, 1/2) per ln t of showing which arm of the pair wins, and
    ``flip_keeps_a_winner``.  A line with a row in ``known`` (same panel, line, runs and horizon) keeps it, so a
    redraw simulates only lines stored since."""
    kept = {} if known is None else {(row["panel"], row["algorithm"], row["runs"], row["horizon"]): row
                                     for row in known.to_dict("records")}
    rows = []
    for panel, (title, curves) in zip(panels, results, strict=True):
        dataset = load_dataset(panel.dataset)
        if dataset.has_condorcet_winner:
            continue
        regret, information = pair_regrets(dataset.P), kl_to_half(dataset.P)
        upper = np.triu(np.ones((dataset.K, dataset.K), bool), 1)
        for res in curves:
            if linear(res):
                continue
            runs = min(PAIR_RUNS, res.final.size)
            key = (title, res.line.name, runs, res.line.horizon)
            if key in kept:
                rows.append(kept[key])
                continue
            per_log = np.mean(resimulated_comparisons(dataset, res, runs, title), axis=0) * regret \
                / math.log(res.line.horizon)
            i, j = np.unravel_index(np.argmax(np.where(upper, per_log, -1.0)), per_log.shape)
            share = per_log[i, j] * math.log(res.line.horizon) / res.final[:runs].mean()
            rows.append({"panel": title, "dataset": panel.dataset, "algorithm": res.line.name, "label": res.label,
                         "runs": runs, "horizon": res.line.horizon,
                         "pair": f"{dataset.labels[i]} vs {dataset.labels[j]}", "p": float(dataset.P[i, j]),
                         "pair_regret_per_log_t": float(per_log[i, j]), "share_of_regret": float(share),
                         "price_per_log_t": float(regret[i, j] / information[i, j]),
                         "flip_keeps_a_winner": flip_keeps_a_winner(dataset.P, i, j)})
    return pd.DataFrame(rows)
