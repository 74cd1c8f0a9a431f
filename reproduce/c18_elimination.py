"""Claim C18 (the paper's conclusion): "RUCB-based elimination seldom occurs under most practical settings".

A diagnostic, not a figure of the paper (which gives no numbers).  D-TS is run on every paper dataset with
K <= 32; at every slot, right after D-TS chose its first candidate from the candidate set C (Algorithm 1,
lines 4-11), an independent majority vote over *all* arms is drawn from the same posterior, and the slot
counts as one where the elimination acts if that unrestricted vote winner is outside C (so D-TS's choice
differs from what the vote alone would give).  Also recorded: the share of slots with C smaller than the
whole arm set.  The probe is ``algorithms.dts_probe``; its lines are of the run kind ``c18_elimination``
(``reproduce.studies.c18_elimination``, a ``reproduce.harness.kinds.RunKind``), so the runner plans, locks, stores
(under ``<results>/c18_elimination/<dataset>/``), resumes, interrupts and ``reproduce/verify.py`` re-simulates them
like every figure's lines.  Writes ``<figures>/c18_elimination.csv`` (per dataset:
mean and s.e. over runs) and ``c18_elimination_claims.csv``.  Defaults: 20 runs of T = 1e6 per dataset,
the horizon of the paper's experiments (quick: 20 runs of T = 1e4); the share depends on T (at T = 1e5
it was 22% on MSLR K = 5 non-Condorcet and 1.4% on K = 16 non-Condorcet, at T = 1e6 3.5% and 17%), so a
shorter run does not stand for the paper's settings.
Usage: ``python reproduce/c18_elimination.py [--quick] [--runs N] [--horizon T] [--n-jobs J] [--plot-only]``.
"""

import sys

import numpy as np
import pandas as pd

from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.claims.verdict import (
    FAILS,
    HOLDS,
    QUICK_PREFIX,
    RARE_SHARE,
    Site,
    checked,
    claim_row,
    mean_se,
    under,
)
from dts_reproduction.reproduce.cli.arguments import doc_summary
from dts_reproduction.reproduce.cli.figure import figure_main
from dts_reproduction.reproduce.config.paper import HORIZON
from dts_reproduction.reproduce.config.scale import power_of_ten
from dts_reproduction.reproduce.harness.backends import backend_context
from dts_reproduction.reproduce.harness.runner import Line, run_lines
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.tables import print_table, write_table
from dts_reproduction.reproduce.studies.c18_elimination import C18_ELIMINATION
from dts_reproduction.reproduce.studies.experiment import stored_line, write_claims

NAME = C18_ELIMINATION.name
ALGORITHM = "dts"
DATASETS = ("cyclic", "strong_borda", "arxiv", "sushi", "mslr5_condorcet", "mslr16_condorcet", "mslr32_condorcet",
            "nc_cyclic", "nc_strong_borda", "gap", "mslr5_noncondorcet", "mslr16_noncondorcet", "mslr32_noncondorcet")
# The real-world datasets: the "practical settings" of the claim.
PRACTICAL = ("arxiv", "sushi", "mslr5_condorcet", "mslr16_condorcet", "mslr32_condorcet", "mslr5_noncondorcet",
             "mslr16_noncondorcet", "mslr32_noncondorcet")
DEFAULT_RUNS, DEFAULT_HORIZON = 20, HORIZON


def diagnostic_lines(runs: int, horizon: int) -> list[Line]:
    """One line of the C18 run kind (``reproduce.studies.c18_elimination.C18_ELIMINATION``) per dataset: D-TS with
    its defaults, ``runs`` runs of ``horizon`` slots."""
    return [Line(dataset=name, algorithm=ALGORITHM, horizon=horizon, runs=runs, kind=C18_ELIMINATION)
            for name in DATASETS]


def stored_runs(settings: Settings) -> pd.DataFrame:
    """Compute the runs that are not stored yet (all with --force) through the harness's ``run_lines`` on the backend
    of ``settings`` (--backend/--scheduler/--local-cluster); with --plot-only compute nothing and leave out a dataset
    whose runs are not all stored (ValueError if none is).  Return one row per run: dataset, K, run, share of slots
    with the elimination acting (``acts``) and with C restricted (``restricted``)."""
    lines = diagnostic_lines(settings.runs or DEFAULT_RUNS, settings.horizon)
    if settings.plot_only:
        results = [stored_line(line, settings.out, settings.seed) for line in lines]
        missing = [line.dataset for line, result in zip(lines, results, strict=True) if result is None]
        if len(missing) == len(lines):
            raise ValueError(f"--plot-only: no C18 runs are stored under {settings.out / C18_ELIMINATION.folder}; "
                             f"run reproduce/{NAME}.py without --plot-only to compute them")
        if missing:
            print(f"note: not computed yet, left out: {', '.join(missing)}", file=sys.stderr)
    else:
        with backend_context(settings):
            results = run_lines(lines, NAME, settings.out, settings.seed, n_jobs=settings.n_jobs,
                                force=settings.force, progress=settings.progress, backend=settings.backend,
                                max_cpu_hours=settings.max_cpu_hours, compute=not settings.stored_only)
    rows = []
    for line, result in zip(lines, results, strict=True):
        if result is None:
            continue
        K = load_dataset(line.dataset).K
        rows += [{"dataset": line.dataset, "K": K, "run": run, "acts": int(outside) / settings.horizon,
                  "restricted": int(restricted) / settings.horizon}
                 for run, (outside, restricted) in enumerate(zip(result.arrays["outside"], result.arrays["restricted"],
                                                                 strict=True))]
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
        rows.append(checked("C18", Site(f"{NAME}:{name}", f"diagnostic {name}"),
                            f"elimination changes a1 in < {RARE_SHARE:.0%} of slots",
                            lambda acts=acts, restricted=restricted, verdict=verdict: (
                                f"{acts.value:.2%} +- {acts.se:.2%} of slots; C restricted in {restricted:.1%}",
                                verdict)))
    if verdicts:
        held = sum(verdict == HOLDS for verdict in verdicts)
        rows.append(claim_row("C18", Site(f"{NAME}:practical", "diagnostic, real-world datasets"),
                              "seldom on most practical settings (on more than half of the real-world datasets)",
                              f"holds on {held} of {len(verdicts)}", HOLDS if 2 * held > len(verdicts) else FAILS))
    return rows


def build(settings: Settings) -> None:
    """Compute (or read) the stored C18 runs of every dataset under ``settings``, tabulate, check C18."""
    per_run = stored_runs(settings)
    runs, horizon = settings.runs or DEFAULT_RUNS, settings.horizon
    summary = per_run.groupby(["dataset", "K"], sort=False).agg(
        runs=("run", "size"), acts_mean=("acts", "mean"), acts_sd=("acts", "std"),
        restricted_mean=("restricted", "mean")).reset_index()
    summary["acts_se"] = summary["acts_sd"] / np.sqrt(summary["runs"])
    summary["horizon"] = horizon
    stem = settings.figures / NAME
    write_table(summary.drop(columns="acts_sd"), stem.with_suffix(".csv"))
    checks = write_claims(c18_rows(per_run), stem.with_name(f"{NAME}_claims.csv"),
                          QUICK_PREFIX if settings.quick else None)
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
