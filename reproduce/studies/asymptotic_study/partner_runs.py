"""Runs that show an arm beaten by the winner rather than by its optimal partner, told apart by their own slope
(docs/asymptotic.md#rmed2-with-the-papers-sign-on-cyclic).

Where the winner is not every arm's optimal partner (C_w > C), a policy that shows arm i beaten by the winner instead
of by b(i) pays r_ic / KL(p_ic, 1/2) - r_ib(i) / KL(p_ib(i), 1/2) more per ln t (``regret_bound.condorcet_allocation``:
``winner_cost - cost``).  A run whose own slope, averaged over the decades its line's limit is fitted from
(``decades.fit_start``), exceeds C by more than half the smallest such switch is one in which at least one arm is
shown beaten by the winner: its allocation is not the bound's.  The count is kept only on the panels where it
separates the two allocations: where the oracle that plays the bound's optimal allocation (``ORACLE_OPTIMAL``) has at
most SEPARATION of its runs above the threshold (Cyclic and StrongBorda, where a switch costs 14.8 and 49 per ln t;
not ArXiv or the 136-ranker matrices, where the cheapest switch is smaller than the spread of the runs' slopes).
On a line some but not all of whose runs are above the threshold, up to COUNTED_RUNS runs of each group are simulated
again with their comparison counts, and the fewest comparisons of a non-winner with its optimal partner at T (over
the arms whose partner is not the winner) are set side by side: a switched arm is one whose pair with its partner
stops being compared.
"""

import numpy as np
import pandas as pd

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import run_one
from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_lines import ORACLE_OPTIMAL
from dts_reproduction.reproduce.studies.asymptotic_study.decades import decade_slopes, fit_start, linear, trapped
from dts_reproduction.reproduce.studies.lower_bound import condorcet_allocation

SEPARATION = 0.01
COUNTED_RUNS = 50
# The columns of ``partner_switch_rows`` (kept when no panel has a row, as in a smoke run: the report reads the file).
COLUMNS = ("panel", "dataset", "algorithm", "label", "runs", "switch_threshold", "median_run_slope",
           "runs_above_threshold", "partner_comparisons_above", "partner_comparisons_below")


def switch_threshold(P) -> float:
    """C plus half the smallest extra regret per ln t of showing one arm beaten by the winner instead of by its
    optimal partner; NaN when the winner is every arm's optimal partner (no switch exists)."""
    best = condorcet_allocation(P)
    moved = (best.partner >= 0) & (best.partner != best.winner)
    if not moved.any():
        return float("nan")
    return float(best.cost.sum() + 0.5 * (best.winner_cost - best.cost)[moved].min())


def run_slopes_since_fit(result) -> np.ndarray:
    """Each logarithmic run's mean slope over the decades from its line's ``fit_start`` (empty if there are none)."""
    slopes = decade_slopes(result)
    per_run = slopes.per_run[:, slopes.ends >= fit_start(slopes)]
    return per_run.mean(axis=1) if per_run.shape[1] else np.zeros(0)


def fewest_partner_comparisons(dataset, result, runs) -> float:
    """The median over the runs ``runs`` (indices) of ``result`` of the fewest comparisons at T of a non-winner with
    its optimal partner (over the arms whose partner is not the winner), each run simulated again (``run_one``); NaN
    for no run.  ValueError if a run does not end at its stored R(T)."""
    if len(runs) == 0:
        return float("nan")
    best = condorcet_allocation(dataset.P)
    moved = np.flatnonzero((best.partner >= 0) & (best.partner != best.winner))
    spec, seed = get_algorithm(result.line.algorithm), result.meta["config"]["seed"]
    fewest = []
    for run in runs:
        again = run_one(dataset, spec, dict(result.line.params), result.line.horizon, int(run), seed,
                        comparisons=True)
        if again["final"] != result.final[run]:
            raise ValueError(f"{result.label} on {dataset.name}: run {run} re-simulated to R(T) = {again['final']!r}, "
                             f"stored {result.final[run]!r}")
        fewest.append(float(again["comparisons"][moved, best.partner[moved]].min()))
    return float(np.median(fewest))


def partner_switch_rows(panels, results) -> pd.DataFrame:
    """Per Condorcet panel whose winner is not every arm's optimal partner and on which the count separates (module
    docstring), and per line with a slope (not ``decades.linear``): its logarithmic runs, the ``switch_threshold``,
    the median over runs of each run's mean slope over the decades from the line's ``fit_start``, and how many runs'
    mean slope exceeds the threshold; on a line with runs on both sides, ``fewest_partner_comparisons`` of up to
    COUNTED_RUNS runs above and below it."""
    rows = []
    for panel, (title, curves) in zip(panels, results, strict=True):
        dataset = load_dataset(panel.dataset)
        if not dataset.has_condorcet_winner:
            continue
        threshold = switch_threshold(dataset.P)
        if not np.isfinite(threshold):
            continue
        lines = {res.line.name: run_slopes_since_fit(res) for res in curves if not linear(res)}
        control = lines.get(ORACLE_OPTIMAL.tag, np.zeros(0))
        if control.size == 0 or (control > threshold).mean() > SEPARATION:
            continue
        for res in curves:
            run_slope = lines.get(res.line.name, np.zeros(0))
            if run_slope.size == 0:
                continue
            above = run_slope > threshold
            mixed = 0 < above.sum() < above.size
            kept = np.flatnonzero(~trapped(res))  # the stored run index of each logarithmic run
            counted = {side: fewest_partner_comparisons(dataset, res, kept[np.flatnonzero(group)][:COUNTED_RUNS])
                       if mixed else float("nan") for side, group in (("above", above), ("below", ~above))}
            rows.append({"panel": title, "dataset": panel.dataset, "algorithm": res.line.name, "label": res.label,
                         "runs": run_slope.size, "switch_threshold": threshold,
                         "median_run_slope": float(np.median(run_slope)),
                         "runs_above_threshold": int(above.sum()),
                         "partner_comparisons_above": counted["above"],
                         "partner_comparisons_below": counted["below"]})
    return pd.DataFrame(rows, columns=list(COLUMNS))


def partner_runs_table(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``partner_switch_rows`` worth showing, for the docs: the lines some but not all of whose runs are
    above the threshold, and the optimal-partner oracle beside them (the control), formatted."""
    shown = table[((table["runs_above_threshold"] > 0) & (table["runs_above_threshold"] < table["runs"]))
                  | (table["algorithm"] == ORACLE_OPTIMAL.tag)]
    return pd.DataFrame({"matrix": shown["panel"], "line": shown["label"], "runs": shown["runs"],
                         "threshold": shown["switch_threshold"].map(lambda v: f"{v:.3g}"),
                         "median run slope": shown["median_run_slope"].map(lambda v: f"{v:.3g}"),
                         "runs above": shown["runs_above_threshold"],
                         "partner comparisons at T: runs above": shown["partner_comparisons_above"].map(
                             lambda v: f"{v:.0f}" if v == v else ""),
                         "partner comparisons at T: runs below": shown["partner_comparisons_below"].map(
                             lambda v: f"{v:.0f}" if v == v else "")})
