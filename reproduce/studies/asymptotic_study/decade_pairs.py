"""Where a line's regret goes, decade by decade, in the three parts of the paper's Theorem 2
(docs/asymptotic.md#why-d-ts-sits-above-c_w).

Theorem 2 (the refined bound; Condorcet case, L_C = 0) splits D-TS's regret in three parts: (1) the slots whose first
candidate is the winner, which compare each non-winner with the winner, O(K log T); (2) a non-winner i as first
candidate against its strongest superior sigma_i = argmax_j p_ji, the arm most likely to beat it, O(K log T); (3) i
against the remaining arms, O(K^2 log log T) by the back-substitution argument.  The classes of comparisons here
follow it: ``winner`` (a non-winner with the winner), ``superior`` (a non-winner with its strongest superior, where
that is not the winner), ``other`` (every other pair of two different arms) and ``self`` (a non-winner with itself,
which the theorem counts with the remaining arms); together they make up the regret.

The first runs of a line (``decade_plan``) are simulated again to the end of every decade (a run is a pure function
of its index, and a shorter horizon gives its prefix: each must end at its stored R(t) bit for bit), keeping the
comparison counts, so each class's regret is known at every decade end.  Over the decade [t/10, t] a class's
regret per ln t is its gain there over ln 10: a class whose regret grows like ln t keeps a positive rate, one that
grows like ln ln t has a rate falling like 1 / ln t to 0; the per-run rates are fitted like the slopes
(``decades.fitted_limit``) for each class's limit and weight of ln ln t.
"""

import math

import numpy as np
import pandas as pd

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.core.kl import kl_bernoulli
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness import portable_math
from dts_reproduction.reproduce.harness.runner import run_one
from dts_reproduction.reproduce.studies.asymptotic_study.decades import (
    decade_ends,
    decade_slopes,
    fit_start,
    fitted_limit,
    linear,
    regret_at,
)
from dts_reproduction.reproduce.studies.lower_bound import pair_regrets

PAIR_CLASSES = ("winner", "superior", "other", "self")
# The lines whose regret is split decade by decade (``asymptotic_panels`` names: D-TS, D-TS+, RMED1, RMED2 with the
# paper's sign, and the oracle that compares every non-winner with the winner, whose split is known in advance) and
# how many runs of each, on the Condorcet matrices up to SMALL_ARMS arms.  None on the larger ones yet: a run is
# simulated again once per decade end (14 times to 2**53), and most of its cost is in its first decades, so the split
# costs about 14 runs' CPU time per run: some 40 CPU minutes for the five lines at K = 32 (D-TS 4.6 s a run), half a
# CPU hour for five D-TS runs on each 136-ranker matrix.  Counting the comparisons at the checkpoints of one run
# would cut that 14-fold.
DECADE_LINES = ("dts", "dts_plus", "rmed1", "RMED2 (paper)", "Oracle: the winner")
DECADE_RUNS = 20
SMALL_ARMS = 16
# The columns of ``class_limit_rows`` (kept when there is no row: the report reads the file).
PART_COLUMNS = ("panel", "dataset", "algorithm", "label", "runs", "part", "superiors_not_winner", "remaining_pairs",
                "superior_separation", "last_decade", "last_decade_se", "limit", "limit_se", "tolerance",
                "loglog_weight", "loglog_weight_se")


def strongest_superiors(P) -> np.ndarray:
    """int64 (K,): each arm i's strongest superior sigma_i = argmax over {j : p_ji > 1/2} of p_ji (first index on
    ties), the arm most likely to beat it; -1 for an arm that no arm beats (the Condorcet winner)."""
    P = np.asarray(P, dtype=np.float64)
    beats = np.where(P > 0.5, P, -np.inf)  # beats[j, i] = p_ji where j beats i
    best = np.argmax(beats, axis=0)
    return np.where(np.isfinite(beats[best, np.arange(P.shape[0])]), best, -1).astype(np.int64)


def superior_separation(P) -> float:
    """The smallest, over the non-winners beaten by two arms or more, of KL(p_{sigma2 i}, p_{sigma1 i}) between the
    chances of its two strongest superiors: Theorem 2's Assumption 2 asks it to be positive, and the third part's
    bound grows like ln ln T over it (infinite for a tie); +inf if no arm has two superiors."""
    P = np.asarray(P, dtype=np.float64)
    smallest = math.inf
    for i in range(P.shape[0]):
        beaten_by = np.sort(P[P[:, i] > 0.5, i])[::-1]
        if beaten_by.size >= 2:
            smallest = min(smallest, float(kl_bernoulli(beaten_by[1], beaten_by[0])))
    return smallest


def pair_class_masks(P) -> dict:
    """{class: bool (K, K), symmetric}: the comparisons of a Condorcet matrix in each of PAIR_CLASSES (module
    docstring): every pair of different arms is in exactly one of the first three, and ``self`` holds the diagonal
    (the winner's self-comparisons cost nothing)."""
    P = np.asarray(P, dtype=np.float64)
    K = P.shape[0]
    superior = strongest_superiors(P)
    winner = int(np.flatnonzero(superior < 0)[0])
    masks = {name: np.zeros((K, K), bool) for name in PAIR_CLASSES}
    losers = np.array([i for i in range(K) if i != winner])
    masks["winner"][losers, winner] = masks["winner"][winner, losers] = True
    moved = losers[superior[losers] != winner]
    masks["superior"][moved, superior[moved]] = masks["superior"][superior[moved], moved] = True
    masks["other"] = ~(masks["winner"] | masks["superior"] | np.eye(K, dtype=bool))
    masks["self"] = np.eye(K, dtype=bool)
    return masks


def decade_pair_regrets(dataset, result, runs: int, title: str) -> np.ndarray:
    """float64 (runs, decades, classes): the regret of each of PAIR_CLASSES at the end of every decade
    (``decades.decade_ends``) of runs 0 .. runs-1 of the stored line ``result``, each simulated again to that end;
    ValueError naming the panel ``title``, the line, the run and t if a run does not end at its stored R(t)."""
    spec, seed = get_algorithm(result.line.algorithm), result.meta["config"]["seed"]
    regret = pair_regrets(dataset.P)
    masks = pair_class_masks(dataset.P)
    ends = decade_ends(result.line.horizon)
    out = np.zeros((runs, len(ends), len(PAIR_CLASSES)))
    for run in range(runs):
        for k, end in enumerate(ends):
            again = run_one(dataset, spec, dict(result.line.params), int(end), run, seed, comparisons=True)
            stored = regret_at(result, int(end))[run]
            if np.float32(again["final"]) != np.float32(stored):
                raise ValueError(f"{title}, {result.label}: run {run} re-simulated to R({end}) = {again['final']!r}, "
                                 f"stored {stored!r}")
            # each pair of different arms once (half the symmetric counts); a self-comparison once
            cost = 0.5 * again["comparisons"] * regret + np.diag(again["self_counts"] * np.diag(regret))
            out[run, k] = [float(cost[masks[name]].sum()) for name in PAIR_CLASSES]
    return out


def decade_plan(K: int) -> tuple[tuple[str, ...], int]:
    """(lines, runs): which lines of a Condorcet panel with K arms are split by decade, and how many runs of each
    (none above SMALL_ARMS arms)."""
    return (DECADE_LINES, DECADE_RUNS) if K <= SMALL_ARMS else ((), 0)


def decade_pair_rows(panels, results, known: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per panel, line, run and decade end of ``decade_plan``'s lines and runs: the regret of each of
    PAIR_CLASSES at that end (``decade_pair_regrets``), on the Condorcet panels.  A line whose rows are in ``known``
    (same panel, line, runs and horizon) keeps them, so a redraw simulates only lines stored since."""
    frames = []
    for panel, (title, curves) in zip(panels, results, strict=True):
        dataset = load_dataset(panel.dataset)
        if not dataset.has_condorcet_winner:
            continue
        lines, most_runs = decade_plan(dataset.K)
        for res in curves:
            if res.line.name not in lines or linear(res):
                continue
            runs = min(most_runs, res.final.size)
            if known is not None:
                kept = known[(known["panel"] == title) & (known["algorithm"] == res.line.name)
                             & (known["runs"] == runs) & (known["horizon"] == res.line.horizon)]
                if len(kept):
                    frames.append(kept)
                    continue
            regrets = decade_pair_regrets(dataset, res, runs, title)
            ends = decade_ends(res.line.horizon)
            run_index, end_index = np.meshgrid(np.arange(runs), np.arange(len(ends)), indexing="ij")
            frame = pd.DataFrame({"panel": title, "dataset": panel.dataset, "algorithm": res.line.name,
                                  "label": res.label, "runs": runs, "horizon": res.line.horizon,
                                  "fit_start": fit_start(decade_slopes(res)), "run": run_index.ravel(),
                                  "decade_end": np.asarray(ends, dtype=np.int64)[end_index.ravel()]})
            for k, name in enumerate(PAIR_CLASSES):
                frame[name] = regrets[:, :, k].ravel()
            frames.append(frame)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=[
        "panel", "dataset", "algorithm", "label", "runs", "horizon", "fit_start", "run", "decade_end", *PAIR_CLASSES])


def class_rates(rows: pd.DataFrame, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(ends, rates): of one line's ``decade_pair_rows``, the class ``name``'s regret per ln t over each decade
    [previous end, end] (its gain over the log of the decade's span), per run: rates (runs, decades - 1)."""
    table = rows.pivot(index="run", columns="decade_end", values=name).sort_index(axis=1)
    ends = table.columns.to_numpy(dtype=np.int64)
    span = portable_math.log(ends[1:].astype(np.float64) / ends[:-1])
    return ends[1:], np.diff(table.to_numpy(dtype=np.float64), axis=1) / span


def class_limit_rows(rows: pd.DataFrame) -> pd.DataFrame:
    """Per panel, line and class of PAIR_CLASSES (and their sum, "all", the whole regret): the number of non-winners
    whose strongest superior is not the winner, the remaining pairs (``other``), Theorem 2's ``superior_separation``,
    the mean regret per ln t over
    the last decade with its standard error, and the fit of the per-run decade rates from the line's own
    ``fit_start`` (``decades.fitted_limit``): limit, its standard error and model-error tolerance, weight of ln ln t
    and its standard error.  Empty for no rows."""
    out = []
    if rows.empty:
        return pd.DataFrame(columns=list(PART_COLUMNS))
    for (title, name), line in rows.groupby(["panel", "algorithm"], sort=False):
        P = load_dataset(line["dataset"].iloc[0]).P
        superior = strongest_superiors(P)
        moved = int(((superior >= 0) & (superior != np.flatnonzero(superior < 0)[0])).sum())
        separation = superior_separation(P)
        remaining = int(pair_class_masks(P)["other"].sum() // 2)
        totals = line.assign(all=line[list(PAIR_CLASSES)].sum(axis=1))
        for part in (*PAIR_CLASSES, "all"):
            ends, rates = class_rates(totals, part)
            fit = fitted_limit(ends, rates, int(line["fit_start"].iloc[0]))
            last = rates[:, -1]
            out.append({"panel": title, "dataset": line["dataset"].iloc[0], "algorithm": name,
                        "label": line["label"].iloc[0], "runs": rates.shape[0], "part": part,
                        "superiors_not_winner": moved, "remaining_pairs": remaining,
                        "superior_separation": separation,
                        "last_decade": float(last.mean()), "last_decade_se": float(last.std(ddof=1)
                                                                                     / math.sqrt(last.size)),
                        "limit": fit.limit.value if fit else math.nan, "limit_se": fit.limit.se if fit else math.nan,
                        "tolerance": fit.tolerance if fit else math.nan,
                        "loglog_weight": fit.loglog.value if fit else math.nan,
                        "loglog_weight_se": fit.loglog.se if fit else math.nan})
    return pd.DataFrame(out, columns=list(PART_COLUMNS))


def theorem2_table(parts: pd.DataFrame, final: pd.DataFrame) -> pd.DataFrame:
    """Per panel where D-TS's regret is split (``class_limit_rows``), for the docs: C, C_w, D-TS's slope limit from
    the study's final table (its runs, with its tolerance), the non-winners whose strongest superior is not the
    winner, and per part the limit of the regret per ln t with the last decade's in parentheses, the remaining
    pairs' weight of ln ln t, and the weight left to the pairs with the winner (the final table's weight less those of
    the two parts of pairs of two non-winners, standard errors in quadrature)."""
    rows = []
    for title, line in parts[parts["algorithm"] == "dts"].groupby("panel", sort=False):
        row = final[(final["panel"] == title) & (final["algorithm"] == "dts")].iloc[0]
        part = {name: line[line["part"] == name].iloc[0] for name in PAIR_CLASSES}
        superior, other = part["superior"], part["other"]
        winner_weight = row["loglog_weight"] - superior["loglog_weight"] - other["loglog_weight"]
        winner_se = math.hypot(row["loglog_weight_se"], superior["loglog_weight_se"], other["loglog_weight_se"])
        rows.append({"matrix": title, "C": f"{row['lower_bound_slope']:.4g}", "C_w": f"{row['winner_constant']:.4g}",
                     "D-TS limit (tolerance)": f"{row['slope_limit']:.4g} +- {row['slope_limit_se']:.2g} "
                                               f"({row['slope_limit_tolerance']:.2g})",
                     "superior not the winner": int(superior["superiors_not_winner"]),
                     "runs split": int(superior["runs"]),
                     "strongest superiors: limit (last decade)": f"{superior['limit']:.3g} +- "
                                                                 f"{superior['limit_se']:.2g} "
                                                                 f"({superior['last_decade']:.3g})",
                     "remaining pairs: limit (last decade)": f"{other['limit']:.3g} +- {other['limit_se']:.2g} "
                                                             f"({other['last_decade']:.3g})",
                     "remaining pairs: weight of ln ln t": f"{other['loglog_weight']:.3g} +- "
                                                           f"{other['loglog_weight_se']:.2g}",
                     "D-TS: weight of ln ln t": f"{row['loglog_weight']:.3g} +- {row['loglog_weight_se']:.2g}",
                     "left to the pairs with the winner": f"{winner_weight:.3g} +- {winner_se:.2g}"})
    return pd.DataFrame(rows)
