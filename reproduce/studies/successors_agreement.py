"""The successors REX3, WS-W, WS-S and Versatile-DB against public code: the "Successors" section of docs/fidelity.md.

``bench/successors_fidelity.py`` runs public implementations (the MergeDTS authors' ``rex3.py``; duelpy's
``winner_stays.py``; stephen-huan/dueling-bandit's ``vdb.py``) and this project's algorithms on the same matrices and
stores the final Copeland regret R(T) of every run in ``RUNS`` (``bench/authors_reference/successors.csv``: source,
line, matrix, horizon, run, seed, final) and what it compared, and why, in ``PROVENANCE``
(``PROVENANCE_successors.json``: ``comparisons``, each a project line, a reference line and whether the two are the
same algorithm; the codes, their versions and edits; the command and the CPU time of each source's run, by its
option).  ``comparisons()`` compares them cell by cell (Welch's test of the mean R(T), Holm over all cells at
``FAMILY_LEVEL``, the standard error of the difference) and ``section()`` writes the section from committed files
only.
"""

import json
import math

import numpy as np
import pandas as pd

from dts_reproduction.reproduce.claims.two_sample import holm_adjusted, welch_p
from dts_reproduction.reproduce.claims.verdict import FAMILY_LEVEL
from dts_reproduction.reproduce.config.scale import power_of_ten
from dts_reproduction.reproduce.harness.paths import ROOT

REFERENCE = ROOT / "bench" / "authors_reference"  # the committed reference runs of public code
RUNS = REFERENCE / "successors.csv"
PROVENANCE = REFERENCE / "PROVENANCE_successors.json"
PROJECT = "project"  # the ``source`` of this project's runs in RUNS
SAME, DIFFERENT = "same", "different"  # a comparison's ``expected``: the same algorithm, or one that differs


def difference(ours: np.ndarray, theirs: np.ndarray) -> dict:
    """Two samples of final regrets compared: their means, the standard error of the difference of the means, the
    difference in standard errors (z) and Welch's two-sided p-value."""
    se = math.sqrt(ours.var(ddof=1) / len(ours) + theirs.var(ddof=1) / len(theirs))
    return {"runs_ours": len(ours), "runs_theirs": len(theirs), "mean_ours": float(ours.mean()),
            "mean_theirs": float(theirs.mean()), "se_difference": se,
            "z": float((ours.mean() - theirs.mean()) / se) if se > 0 else 0.0, "p": welch_p(ours, theirs)}


def comparisons(runs: pd.DataFrame | None = None, record: dict | None = None) -> pd.DataFrame:
    """One row per (comparison, matrix) of the record: the two lines' final regrets compared (``difference``),
    the Holm-adjusted p over all rows, and the verdict ("agrees" if the adjusted p is above FAMILY_LEVEL, else
    "differs") next to what was expected."""
    runs = pd.read_csv(RUNS) if runs is None else runs
    record = json.loads(PROVENANCE.read_text()) if record is None else record
    rows = []
    for comparison in record["comparisons"]:
        ours = runs[(runs.source == PROJECT) & (runs.line == comparison["project"])]
        theirs = runs[(runs.source == comparison["source"]) & (runs.line == comparison["reference"])]
        for (matrix, horizon), cell in ours.groupby(["matrix", "horizon"]):
            other = theirs[(theirs.matrix == matrix) & (theirs.horizon == horizon)]
            rows.append({"project": comparison["project"], "source": comparison["source"],
                         "reference": comparison["reference"], "expected": comparison["expected"], "matrix": matrix,
                         "horizon": int(horizon), **difference(cell.final.to_numpy(), other.final.to_numpy())})
    table = pd.DataFrame(rows)
    table["p_holm"] = holm_adjusted(table.p.to_numpy())
    table["verdict"] = np.where(table.p_holm > FAMILY_LEVEL, "agrees", "differs")
    return table


def section(table: pd.DataFrame | None = None, record: dict | None = None) -> list[str]:
    """The lines of the "Successors" section of docs/fidelity.md."""
    table = comparisons() if table is None else table
    record = json.loads(PROVENANCE.read_text()) if record is None else record
    expected = {SAME: "agrees", DIFFERENT: "differs"}
    as_expected = int((table.verdict == table.expected.map(expected)).sum())
    lines = ["## Successors", "",
             "REX3, WS-W, WS-S and Versatile-DB ([algorithms.md](algorithms.md#rex3)) against public code, cell by "
             "cell: the mean final Copeland regret R(T) of this project's runs (its seeds, "
             "`reproduce.harness.runner.run_one`) and of the public code's (its own loop and generator), the standard "
             "error of their difference, Welch's test, "
             f"Holm over all {len(table)} cells at a family-wise level of {FAMILY_LEVEL}. Cells of the same algorithm "
             "should agree; the others show what the test sees (a difference by design need not show on every "
             f"matrix). {as_expected} of {len(table)} cells come out as expected.", ""]
    lines += [f"* {name}: {code['what']} ({code['version']}); edits: {code['edits']}"
              for name, code in record["codes"].items()]
    cpu = ", ".join(f"--{option.replace('_', '-')}: {seconds / 60:.1f}" for option, seconds in record["cpu_s"].items())
    lines += ["", f"Measured by `{record['command']}` (their code, CPU minutes by option: {cpu}), "
              "which writes `bench/authors_reference/successors.csv` and `PROVENANCE_successors.json`; "
              "`python reproduce/fidelity.py` then writes this page.", "",
              "| project | reference | expected | matrix | T | runs | mean R(T) here | mean R(T) reference | "
              "SE of difference | z | adjusted p | verdict |", "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in table.itertuples():
        lines.append(f"| {row.project} | {row.source}: {row.reference} | {row.expected} | {row.matrix} | "
                     f"{power_of_ten(row.horizon)} | {row.runs_ours} / {row.runs_theirs} | {row.mean_ours:.1f} | "
                     f"{row.mean_theirs:.1f} | {row.se_difference:.1f} | {row.z:.2f} | {row.p_holm:.3g} | "
                     f"{row.verdict} |")
    lines += ["", "Why a cell is expected to differ:", ""]
    lines += [f"* {comparison['project']} against {comparison['source']}'s {comparison['reference']}: "
              f"{comparison['why']}" for comparison in record["comparisons"] if comparison["expected"] == DIFFERENT]
    return [*lines, "", *WITHOUT_PUBLIC_CODE, ""]


# CW-RMED and C2B have no public code to run (docs/algorithms.md#cw-rmed, #c2b): what checks them instead.
WITHOUT_PUBLIC_CODE = [
    "CW-RMED and C2B: no public code of either was found (not their authors', not duelpy's for C2B; duelpy's CwRmed "
    "solves another program), so no cell above. Each is checked against its paper's theorem instead:", "",
    "* CW-RMED: the constant its theorem names, C*(P) (its program on the true matrix), equals the exact Copeland "
    "lower bound computed by another implementation (`reproduce/studies/lower_bound.py`) on every paper matrix with "
    "one Copeland winner and no tie (`tests/algorithms/test_cw_rmed.py`), and its slope per ln T over T = 1e10 to "
    "1e15 is set against C*(P) by claim S11 of the [successors study](successors.md), 100 runs on each Condorcet "
    "matrix it runs on (its exact skip makes a run of 1e15 cost seconds); verdicts in "
    "[figures/REPORT.md](../figures/REPORT.md).",
    "* C2B: its batches, counted slot by slot in every run of the study, against its theorem's ceil(ln T) "
    "(`figures/successors_final.csv`, columns batches_max and batch_bound), and its slope per ln T over its long "
    "lines to T = 1e15 against the bound C by claim S4 (the theorem's order O(K log T) is reached, its constant is "
    "not claimed: [successors.md](successors.md#c2b-the-order-of-its-bound-not-its-constant)).",
]
