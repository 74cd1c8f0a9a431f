"""Does every algorithm run as its authors' code ran it?  The stored runs against the authors' code.

The reference runs of the authors' own code (``bench/authors_code.py``: their C++ compiled with their single-run
loop; ``bench/authors_python.py``: the MergeDTS authors' Python ported to Python 3, their single-run loop; both
committed under ``bench/authors_reference/``) and this project's stored runs (``results/``, read through
``reproduce.studies.experiment.stored_line``) are compared cell by cell -- one cell per (algorithm, matrix, horizon T
of the reference).  Per cell: Welch's t test of the mean R(T), the two-sample Kolmogorov-Smirnov test of the
distribution of R(T), and Welch's test at every decade t = 100, 1000, ... below T (Bonferroni over them: the
curve).  The p-values of all cells are corrected together by Holm's method at the family-wise level
``FAMILY_LEVEL``; a cell "agrees" if none is rejected.  To show what the tests can see, the same tests compare
the authors' code with itself (the first half of its runs against the second, disjoint seeds; a Holm family of
its own), and each cell states the smallest difference of the means the test would detect with 80% power at
the strictest Holm level.  Extra reference cells of one algorithm run two ways (``_reused``: one object for all
runs, as the authors' main does) are compared with each other: the state that leaks between runs (NOTES.md).

A project line is the stored paper line of the cell's matrix and algorithm: horizon ``PAPER_HORIZON`` (1e6, 2e6
for MSLR K = 5 non-Condorcet), the paper's run count; BTM and SAVAGE use T, so theirs is the stored line of
horizon T itself.  A run of the other algorithms at horizon 1e6 is a run at T followed by more slots, so its
regret at t <= T is that of a run of horizon T.  The algorithms of ``OWN_LINE`` have no paper line: their project
line is declared here (``declared_lines``: the algorithm's defaults, the cell's matrix, horizon T, the paper's run
count), computed through the shared pipeline by ``python reproduce/fidelity.py --compute`` (``compute_declared``) and
stored under ``results/`` like every line; without --compute nothing is computed.

Writes ``figures/fidelity.csv`` (one row per cell) and ``docs/fidelity.md`` (generated: do not edit;
``write_comparison``; its last section, the successors REX3, WS-W and WS-S against public code, is
``reproduce.studies.successors_agreement``'s), reads committed files only (seconds).  ``summary_line`` is the
README's ``fidelity`` block (``reproduce/report.py``).

Usage: python reproduce/fidelity.py [--check].  Exit status 0 if every cell agrees, 1 if one does not (or, with
--check, if docs/fidelity.md or figures/fidelity.csv is out of date), 2 on bad input.
"""

import json
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.data import dataset_names, load_dataset
from dts_reproduction.reproduce.claims.two_sample import holm_adjusted, welch_p
from dts_reproduction.reproduce.claims.verdict import FAMILY_LEVEL
from dts_reproduction.reproduce.config.paper import HORIZON, HORIZON_FIG1B, ROOT_SEED, paper_runs
from dts_reproduction.reproduce.config.scale import power_of_ten
from dts_reproduction.reproduce.harness.atomic import write_text_atomic
from dts_reproduction.reproduce.harness.paths import FIGURES, RESULTS, ROOT
from dts_reproduction.reproduce.harness.runner import Line
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.tables import write_table
from dts_reproduction.reproduce.studies.experiment import simulate_lines, stored_line
from dts_reproduction.reproduce.studies.study import Study
from dts_reproduction.reproduce.studies.successors_agreement import REFERENCE, section

FIDELITY = "fidelity"  # the study's stem: its table figures/fidelity.csv and its script reproduce/fidelity.py
TABLE = FIGURES / "fidelity.csv"
PAGE = ROOT / "docs" / "fidelity.md"
POWER = 0.8  # the power at which the detectable difference is stated
FIRST_DECADE = 100  # the curve is tested at t = 100, 1000, ... (t = 10 has a handful of possible values)
PAPER_HORIZON = {"mslr5_noncondorcet": HORIZON_FIG1B}  # horizon of the stored paper lines, else HORIZON
# The algorithms of the authors' C++, in the order of its ALG_* indices (DuelingBandit.h).
CPP_ALGORITHMS = ("btm", "savage", "rucb", "rcs", "multisbm", "sparring", "ccb", "scb", "rmed1", "rmed2", "ecw_rmed",
                  "dts", "dts_plus")
# The algorithms of the MergeDTS authors' Python (bench/authors_python.py) and the record of their runs.
PYTHON_ALGORITHMS = ("merge_dts", "merge_rucb", "self_sparring")
PYTHON_PROVENANCE = REFERENCE / "PROVENANCE_python.json"
# Run separately for every horizon (``AlgorithmSpec.needs_horizon``, docs/harness.md#checkpoints): BTM and SAVAGE.
HORIZON_DEPENDENT = tuple(name for name in CPP_ALGORITHMS if get_algorithm(name).needs_horizon)
OWN_LINE = ("multisbm", "rmed2", *PYTHON_ALGORITHMS)  # no stored paper line: a line at the reference horizon
P_COLUMNS = ("p_mean", "p_ks", "p_curve")
CELL_NAME = re.compile(r"(?P<algorithm>[a-z0-9_]+?)_T(?P<horizon>[0-9]+)(?P<reused>_reused)?\.csv")
AGREES, DISAGREES = "agrees", "DISAGREES"
# Where the project's default follows the C++ against the paper (NOTES.md), and the option that gives the paper.
DELIBERATE = (
    ("dts_plus", "normaliser of the tie-breaking vote: best inside C", 'tie_break="paper"'),
    ("rcs", "fallback: least-often champion", 'fallback="random"'),
    ("rucb", "hypothesis B kept outside C, neighbour substitution", 'hypothesis="original"'),
    ("btm", "the max over W read at arm id = position", "faithful_bug=False"),
    ("scb", "rounds 1000, 1e6, 1e12", 'schedule="original"'),
    ("ecw_rmed", "confidence pre-check: any pair with n KL/lambda > 1 fails every winner",
     'confidence_precheck="none"'),
    ("sparring", "unplayed arm's index 1.0, global t", 'sbm_init="original"'),
    ("multisbm", "unplayed arm's index 1.0, global t", 'sbm_init="original"'),
)


@dataclass(frozen=True)
class ReferenceCell:
    """One file of reference runs: ``algorithm`` on ``matrix`` at horizon ``horizon``; ``reused`` if one
    object of the authors' code served every run."""

    matrix: str
    algorithm: str
    horizon: int
    reused: bool

    @property
    def source(self) -> str:
        """Whose code made the cell's runs: "C++" (Wu & Liu's simulator) or "Python" (the MergeDTS authors')."""
        return "Python" if self.algorithm in PYTHON_ALGORITHMS else "C++"

    @property
    def path(self) -> Path:
        """The CSV holding the cell's runs."""
        return REFERENCE / self.matrix / f"{self.algorithm}_T{self.horizon}{'_reused' if self.reused else ''}.csv"


def reference_cells(folder: Path = REFERENCE) -> list[ReferenceCell]:
    """Every reference cell stored under ``folder``, sorted by matrix, algorithm, horizon."""
    cells = []
    for path in sorted(Path(folder).glob("*/*.csv")):
        match = CELL_NAME.fullmatch(path.name)
        if match is None:
            raise ValueError(f"{path}: not a reference file name (<algorithm>_T<horizon>[_reused].csv)")
        cells.append(ReferenceCell(path.parent.name, match["algorithm"], int(match["horizon"]),
                                   match["reused"] is not None))
    return sorted(cells, key=lambda cell: (cell.matrix, cell.algorithm, cell.horizon, cell.reused))


def decades(horizon: int) -> np.ndarray:
    """The slots a cell is tested at: 100, 1000, ... up to ``horizon``, and ``horizon`` (last)."""
    grid = [10 ** k for k in range(2, 20) if 10 ** k < horizon]
    return np.array([*grid, horizon], dtype=np.int64)


def on_lattice(regret: np.ndarray, matrix: str) -> np.ndarray:
    """Copeland regrets rounded to their lattice: every slot costs a multiple of 1 / (2 (K - 1)), but sums
    formed in another order (the C++'s running totals, the stored float32 checkpoints) are off by rounding
    errors, which would split equal values and make the KS test see steps that are not there."""
    unit = 2 * (load_dataset(matrix).K - 1)
    return np.round(regret * unit) / unit


def reference_regret(cell: ReferenceCell) -> np.ndarray:
    """(runs, decades) regret of the cell's reference runs at ``decades(cell.horizon)``, on the lattice."""
    table = pd.read_csv(cell.path)
    return on_lattice(table[[f"R{t}" for t in decades(cell.horizon)]].to_numpy(np.float64), cell.matrix)


def project_line(cell: ReferenceCell) -> Line:
    """The stored line a reference cell is compared with: the paper line, or for ``OWN_LINE`` (and the
    horizon-dependent BTM and SAVAGE) the line of horizon T; the algorithm's defaults, the paper's run count."""
    own = cell.algorithm in HORIZON_DEPENDENT or cell.algorithm in OWN_LINE
    horizon = cell.horizon if own else PAPER_HORIZON.get(cell.matrix, HORIZON)
    return Line(cell.matrix, cell.algorithm, horizon, paper_runs(load_dataset(cell.matrix).K))


def declared_lines(folder: Path = REFERENCE) -> list[Line]:
    """The project lines this comparison declares (``OWN_LINE``'s, one per fresh reference cell), in cell order:
    what ``reproduce/fidelity.py --compute`` computes into ``results/``."""
    return list(dict.fromkeys(project_line(cell) for cell in reference_cells(folder)
                              if cell.algorithm in OWN_LINE and not cell.reused))


def project_regret(cell: ReferenceCell, results: Path = RESULTS) -> np.ndarray | None:
    """(runs, decades) regret of the project's stored line at ``decades(cell.horizon)`` (the exact R(T) where
    T is the line's horizon) on the lattice, or None if the line is not stored."""
    line = project_line(cell)
    stored = stored_line(line, results, ROOT_SEED)
    if stored is None:
        return None
    columns = [stored.final if t == line.horizon else stored.regret[:, int(np.flatnonzero(stored.checkpoints == t)[0])]
               for t in decades(cell.horizon)]
    return on_lattice(np.column_stack(columns).astype(np.float64), cell.matrix)


def cell_tests(a: np.ndarray, b: np.ndarray) -> dict:
    """The tests of two samples of (runs, decades) regrets: Welch on the mean R(T), KS on R(T), Welch at the
    decades below T (Bonferroni); the means of R(T) and the standard error of their difference."""
    below = [welch_p(a[:, k], b[:, k]) for k in range(a.shape[1] - 1)]
    return {"mean_a": float(a[:, -1].mean()), "mean_b": float(b[:, -1].mean()),
            "se_difference": math.sqrt(a[:, -1].var(ddof=1) / len(a) + b[:, -1].var(ddof=1) / len(b)),
            "p_mean": welch_p(a[:, -1], b[:, -1]),
            "p_ks": float(stats.ks_2samp(a[:, -1], b[:, -1]).pvalue),
            "p_curve": min(1.0, min(below) * len(below)) if below else 1.0}


def detectable_difference(se: float, tests: int) -> float:
    """The difference of two means a two-sided z test at level FAMILY_LEVEL / tests detects with POWER."""
    return (stats.norm.ppf(1 - FAMILY_LEVEL / (2 * tests)) + stats.norm.ppf(POWER)) * se


def comparisons(results: Path = RESULTS, folder: Path = REFERENCE) -> pd.DataFrame:
    """One row per comparison: "project" (stored line against the authors), "self" (the authors' two halves)
    and "reused" (one object for all runs against fresh objects); Holm-adjusted p-values per family."""
    rows = []
    cells = reference_cells(folder)
    fresh = {(cell.matrix, cell.algorithm, cell.horizon): cell for cell in cells if not cell.reused}
    for cell in cells:
        reference = reference_regret(cell)
        key = {"source": cell.source, "matrix": cell.matrix, "algorithm": cell.algorithm, "horizon": cell.horizon}
        if cell.reused:
            other = reference_regret(fresh[(cell.matrix, cell.algorithm, cell.horizon)])
            rows.append({**key, "family": "reused", "runs_a": len(reference), "runs_b": len(other),
                         **cell_tests(reference, other)})
            continue
        half = len(reference) // 2
        rows.append({**key, "family": "self", "runs_a": half, "runs_b": len(reference) - half,
                     **cell_tests(reference[:half], reference[half:])})
        project = project_regret(cell, results)
        if project is not None:
            rows.append({**key, "family": "project", "runs_a": len(project), "runs_b": len(reference),
                         **cell_tests(project, reference)})
    table = pd.DataFrame(rows)
    for _, members in table.groupby("family"):
        adjusted = holm_adjusted(members[list(P_COLUMNS)].to_numpy().ravel()).reshape(len(members), -1)
        for column, values in zip(P_COLUMNS, adjusted.T, strict=True):
            table.loc[members.index, f"{column}_holm"] = values
        tests = adjusted.size
        table.loc[members.index, "detectable"] = [detectable_difference(se, tests) for se in members["se_difference"]]
    holm = [f"{column}_holm" for column in P_COLUMNS]
    table["min_p_holm"] = table[holm].min(axis=1)
    table["verdict"] = np.where(table["min_p_holm"] > FAMILY_LEVEL, AGREES, DISAGREES)
    return table


def _number(value: float) -> str:
    """A regret or a p-value as the page prints it."""
    return f"{value:.3g}" if abs(value) < 1000 else f"{value:.0f}"


CODES = {"C++": "the authors' C++", "Python": "the MergeDTS authors' Python"}  # each source, as prose names it


def _cells_of(rows: pd.DataFrame) -> str:
    """'a of n cells, k algorithms x m matrices' of the agreeing rows among ``rows``."""
    return (f"{int((rows.verdict == AGREES).sum())} of {len(rows)} cells, {rows.algorithm.nunique()} algorithms x "
            f"{rows.matrix.nunique()} matrices")


def summary_line(table: pd.DataFrame) -> str:
    """The README's one line: cells compared per code, how many agree, the smallest adjusted p of both families."""
    project, own = table[table.family == "project"], table[table.family == "self"]
    per_code = "; ".join(f"{CODES[source]}: {_cells_of(rows)}" for source, rows in project.groupby("source"))
    return (f"**Agreement with the authors' code** ([docs/fidelity.md](docs/fidelity.md)): "
            f"{int((project.verdict == AGREES).sum())} of {len(project)} cells agree with the authors' own code "
            f"({per_code}); smallest Holm-adjusted p {_number(project.min_p_holm.min())} (their code against "
            f"itself: {_number(own.min_p_holm.min())}).")


def _provenance(source: str = "C++") -> dict:
    """The committed record of how the reference runs of ``source`` ("C++" or "Python") were made."""
    return json.loads((REFERENCE / "PROVENANCE.json" if source == "C++" else PYTHON_PROVENANCE).read_text())


GENERATED = "from bench/authors_reference/ and results/, do not edit"
PROCEDURE = """## Procedure: the authors' C++

The reference runs are the authors' C++ simulator ({repository} at {commit}), compiled with
{compiler} (`{flags}`) and run through its own single-run loop `CMAB_singleAlg::singleRun` by
`bench/authors_driver.cpp`: one fresh object and `srand(seed + r)` per run, the arm order shuffled as the authors'
main does, their parameters. Edits, all at build time:

{edits}

They took {minutes:.1f} CPU minutes. To regenerate them from a clone of the authors' code, then this page:

```
python bench/authors_code.py --cpp PATH/TO/DuelingBandits
python reproduce/fidelity.py
```

Horizons and run counts (`PLAN` in `bench/authors_code.py`): T = 1e5 and 100 runs for the algorithms that do not
use T (their regret at t <= 1e5 is read off the stored 1e6 lines; MultiSBM's and RMED2's, which have no paper line,
off the lines of horizon T declared for this comparison: below); D-TS at T = 1e4 (the C++ D-TS draws every
Beta sample from a newly seeded generator, ~40 us a slot at K = 5); BTM and SAVAGE at T = 1e4, 200 runs, against
the stored lines of that horizon. At K = 16 (the C++ draws K^2 outcomes a slot) every algorithm at T = 1e4,
BTM and SAVAGE at 1e3. The tests (`reproduce/studies/authors_agreement.py`'s docstring): Welch on the mean R(T),
Kolmogorov-Smirnov on R(T) and Welch at every decade below T (Bonferroni), Holm over all cells at a family-wise
level of {level:g}. The column *detectable* is the difference of the mean R(T) that the test finds with
{power:.0%} power at the strictest Holm level, from the standard error of the difference; *self* compares the
first half of the authors' runs with the second (other seeds)."""
PYTHON_PROCEDURE = """## Procedure: the MergeDTS authors' Python

The reference runs of {algorithms} are the MergeDTS authors' Python ({repository} at {commit}), copied into
a scratch folder, ported to Python 3 at run time and run under {interpreter} through their own single-run loop
`{loop}` by `bench/authors_python.py`, with `demo.py`'s parameters (the project's defaults). Edits, all to the
scratch copy:

{edits}

Protocol (`bench/authors_python.py`'s docstring): run r of a cell seeds their loop, the algorithm and NumPy's
global generator (their tie-breaks) with seed + r; their loop counts the gap regret, so the pairs it plays are
recorded and the Copeland regret recomputed from them (checked against their own count). Their code costs
{cost_low:.0f}-{cost_high:.0f} CPU us a slot (`us_per_slot` in `bench/authors_reference/PROVENANCE_python.json`), so
the matrices with a Condorcet winner among the C++ comparison's are run at T = {horizons}, {runs} runs a cell:
{minutes:.1f} CPU minutes. These algorithms have no stored paper line, nor have MultiSBM and RMED2 (computed, not
plotted): their project lines are declared by `reproduce/studies/authors_agreement.py` (`declared_lines`: the defaults,
the cell's matrix, horizon T, the paper's run count) and computed into `results/` by the shared pipeline. To
regenerate:

```
python bench/authors_python.py --python PATH/TO/MergeDTS
python reproduce/fidelity.py --compute
```
"""


def power_line(table: pd.DataFrame) -> str:
    """What the comparison can see, per code: the detectable difference over the project's mean R(T), its median
    and range over the cells, and the cell where it is largest -- a difference smaller than it would pass."""
    rows = table[table.family == "project"]
    rows = rows.assign(share=rows.detectable / rows.mean_b)
    parts = []
    for source, cells in rows.groupby("source", sort=False):
        widest = cells.loc[cells.share.idxmax()]
        parts.append(f"{source}: {cells.share.median():.0%} at the median cell, {cells.share.min():.0%} to "
                     f"{cells.share.max():.0%} (widest: {widest.algorithm} on {widest.matrix})")
    return ("**What the comparison can see**: the detectable difference as a share of the mean R(T) of the authors' "
            f"runs, {'; '.join(parts)}. A defect that moves R(T) by less than that share passes a cell unseen.")


def _python_procedure(table: pd.DataFrame) -> str:
    """The procedure section of the Python reference runs, from their record and the table."""
    record = _provenance("Python")
    rows = table[(table.family == "self") & (table.source == "Python")]
    costs = record["us_per_slot"].values()
    return PYTHON_PROCEDURE.format(
        algorithms=", ".join(PYTHON_ALGORITHMS), repository=record["repository"], commit=record["commit"][:12],
        interpreter=record["interpreter"], loop=record["loop"],
        edits="\n".join(f"* {edit}" for edit in record["edits"]), cost_low=min(costs), cost_high=max(costs),
        horizons=", ".join(power_of_ten(h) for h in sorted(set(rows.horizon))),
        runs=" or ".join(str(n) for n in sorted(set(rows.runs_a + rows.runs_b))),
        minutes=sum(cell["cpu_s"] for cell in record["cells"].values()) / 60)


def _not_compared(table: pd.DataFrame) -> list[str]:
    """The "Not compared yet" section: per code, its algorithms and the packaged matrices without a compared cell,
    and why."""
    project = table[table.family == "project"]
    lines = ["## Not compared yet", ""]
    for source, algorithms in (("C++", CPP_ALGORITHMS), ("Python", PYTHON_ALGORITHMS)):
        rows = project[project.source == source]
        left = [name for name in algorithms if name not in set(rows.algorithm)]
        matrices = [name for name in dataset_names() if name not in set(rows.matrix)]
        compared = f"not compared: {', '.join(left)}" if left else "every algorithm compared"
        if source == "C++":
            why = (f"not on {', '.join(matrices)}: the C++ draws and copies all K^2 outcomes every slot, so a cell "
                   f"costs about K^2 times more than at K = 5 (D-TS ~45 ms a slot at K = 500); `PLAN` in "
                   f"`bench/authors_code.py` lists what was affordable")
        else:
            absent = [name for name in matrices if not load_dataset(name).has_condorcet_winner]
            costs = _provenance("Python")["us_per_slot"].values()
            why = (f"not on {', '.join(name for name in matrices if name not in absent)}: their code costs "
                   f"{min(costs):.0f}-{max(costs):.0f} CPU us a slot already at K <= 16, and the larger matrices need "
                   f"far longer horizons (`PLAN` in `bench/authors_python.py`); not applicable to {', '.join(absent)} "
                   f"(no Condorcet winner, which these algorithms assume)")
        lines.append(f"* {CODES[source]}: {compared}; {why}.")
    return [*lines, ""]


def page(table: pd.DataFrame) -> str:
    """The text of docs/fidelity.md."""
    record = _provenance()
    cpu = sum(cell["cpu_s"] for cell in record["cells"].values())
    lines = ["# Agreement with the authors' code", "", f"<!-- generated by reproduce/fidelity.py: {GENERATED} -->", "",
             summary_line(table).replace(" ([docs/fidelity.md](docs/fidelity.md))", ""), "",
             "Without correction, the smallest p-value is "
             + "; ".join(f"{_number(rows[list(P_COLUMNS)].min().min())} for {name} ({len(rows)} cells, {3 * len(rows)} "
                         f"tests; the mean's p-values against uniform, KS: "
                         f"{_number(stats.kstest(rows.p_mean, 'uniform').pvalue)})"
                         for name, rows in (("the stored runs", table[table.family == "project"]),
                                            ("the authors' code against itself", table[table.family == "self"])))
             + ": as many small p-values as chance gives when nothing differs.", "",
             PROCEDURE.format(repository=record["repository"], commit=record["commit"][:12],
                              compiler=record["compiler"], flags=record["flags"],
                              edits="\n".join(f"* {edit}" for edit in record["edits"]), minutes=cpu / 60,
                              level=FAMILY_LEVEL, power=POWER), "", power_line(table), "", _python_procedure(table)]
    for family, title in (("project", "Stored runs against the authors' code"),
                          ("self", "The authors' code against itself (two disjoint seed sets)")):
        rows = table[table.family == family]
        lines += [f"## {title}", "", "| code | algorithm | matrix | T | runs | mean R(T) here | mean R(T) authors | "
                  "detectable | min adjusted p | verdict |", "|---|---|---|---|---|---|---|---|---|---|"]
        if family == "self":
            lines[-2] = lines[-2].replace("here", "first half").replace("authors |", "second half |")
        for row in rows.sort_values(["source", "algorithm", "matrix"]).itertuples():
            lines.append(f"| {row.source} | {row.algorithm} | {row.matrix} | {power_of_ten(row.horizon)} | "
                         f"{row.runs_a} / {row.runs_b} | {_number(row.mean_a)} | {_number(row.mean_b)} | "
                         f"{_number(row.detectable)} | {_number(row.min_p_holm)} | {row.verdict} |")
        lines.append("")
    reused = table[table.family == "reused"]
    if len(reused):
        lines += ["## State that leaks between runs", "",
                  "The authors' single-algorithm main builds one algorithm object and calls `singleRun` for every run;",
                  "MultiSBM's `init` appends K new SBMs without removing the old ones and then uses the first K, so",
                  "runs 2, 3, ... continue run 1's statistics ([NOTES.md](../NOTES.md)). One object for all runs",
                  "against a fresh object per run (the protocol above, and this project):", "",
                  "| algorithm | matrix | T | runs | mean R(T) reused | mean R(T) fresh | p (Welch) | p (KS) |",
                  "|---|---|---|---|---|---|---|---|"]
        lines += [f"| {row.algorithm} | {row.matrix} | {power_of_ten(row.horizon)} | {row.runs_a} / {row.runs_b} | "
                  f"{_number(row.mean_a)} | {_number(row.mean_b)} | {row.p_mean:.2g} | {row.p_ks:.2g} |"
                  for row in reused.itertuples()]
        lines.append("")
    lines += ["## Where the project deliberately differs", "",
              "The defaults follow the C++ where it departs from the paper ([NOTES.md](../NOTES.md)); each such",
              "cell above is the default, and an option gives the paper's (or the original algorithm's) behaviour:", "",
              "| algorithm | as run (default, compared above) | option |", "|---|---|---|",
              *(f"| {name} | {default} | `{option}` |" for name, default, option in DELIBERATE),
              "| all | the C++ draws all K(K+1)/2 outcomes every slot with `rand()` (15 bits under MSVC, 31 under the "
              "glibc build above); the project draws the played pair only, in double precision | — |", ""]
    return "\n".join([*lines, *_not_compared(table), *section()])


def compute_declared(n_jobs: int) -> None:
    """Compute (or load, if stored) every declared project line (``declared_lines``) into results/ through
    ``experiment.simulate_lines``, with ``n_jobs`` workers and every other setting the command line's default."""
    settings = Settings.library(n_jobs=n_jobs)
    lines = declared_lines()
    simulate_lines(FIDELITY, dict.fromkeys(lines, settings.out), settings)
    print(f"{len(lines)} declared lines stored under {RESULTS.relative_to(ROOT)}")


def write_comparison(check: bool = False) -> bool:
    """Compare every cell (``comparisons``) and write ``TABLE`` and ``PAGE`` (``page``), saying so; with ``check``,
    write nothing and only compare the committed ``PAGE`` with the page the comparison gives (out of date: one
    line on stderr, and False at once).  Then print ``summary_line``.  Returns whether every project cell agrees
    (and, with ``check``, ``PAGE`` is up to date)."""
    table = comparisons()
    text = page(table)
    if check:
        if PAGE.read_text() != text:
            print(f"out of date: {PAGE.relative_to(ROOT)} (run python reproduce/fidelity.py)", file=sys.stderr)
            return False
    else:
        write_table(table, TABLE)
        write_text_atomic(PAGE, text)
        print(f"wrote {TABLE.relative_to(ROOT)} and {PAGE.relative_to(ROOT)}")
    print(summary_line(table))
    return not (table[table.family == "project"].verdict != AGREES).any()


def readme_blocks(_folder: Path) -> dict[str, str]:
    """The README's ``fidelity`` block (``summary_line``), from the committed comparison table ``TABLE`` whatever
    figures folder the report reads (a smoke run computes no comparison)."""
    return {"fidelity": summary_line(pd.read_csv(TABLE))}


FIDELITY_STUDY = Study(FIDELITY, "make fidelity", block_file="README.md", block_names=("fidelity",),
                       blocks=readme_blocks)
