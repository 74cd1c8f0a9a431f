"""The C18 study (the paper's conclusion: "RUCB-based elimination seldom occurs under most practical settings"): its
run kind, its lines, its table, its claim rows and the reasons of its verdicts, and its ``Study`` record.

The run kind: D-TS with the probe of ``algorithms.dts_probe``, whose two counts per run its chunks store
(docs/harness.md, "Run kinds"), declared here by the study that needs it and handed to the harness on its lines;
``reproduce.checks.resimulate.RUN_KINDS`` knows it, so that ``reproduce/verify.py`` re-simulates its chunks.  What the
study measures and why: its command line, ``reproduce/c18_elimination.py``.
"""

import sys

import numpy as np
import pandas as pd

from dts_reproduction.algorithms.dts_probe import elimination_probe
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.claims.reasons import DATA_VS_TEXT, VERDICTS_DOC, Numbers, Reason, site
from dts_reproduction.reproduce.claims.registry import ELIMINATION
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
from dts_reproduction.reproduce.config.paper import HORIZON
from dts_reproduction.reproduce.harness.backends import backend_context
from dts_reproduction.reproduce.harness.kinds import RunKind, StoredArray
from dts_reproduction.reproduce.harness.runner import Line, run_lines
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.tables import print_table, write_table
from dts_reproduction.reproduce.studies.experiment import note_unchecked_code, stored_line, write_claims
from dts_reproduction.reproduce.studies.study import Study, make_command

# Per run, the slots where D-TS's elimination changes its first candidate, and the slots with the candidate set
# restricted: in the order of the probe's indices OUTSIDE, RESTRICTED.
COUNTS = ("outside", "restricted")
# The probe reads the cached P(theta_ij > 1/2) of a slot-by-slot D-TS state (a skip would leave slots unprobed).
# Name and version give the marker "c18_elimination v1" and the folder "c18_elimination" its committed chunks were
# stored with (by the diagnostic's former loop of its own, the same draws): keep both, or those chunks are stale.
C18_ELIMINATION = RunKind(
    name="c18_elimination", version=1, arrays=tuple(StoredArray(name, "int64", ("runs",)) for name in COUNTS),
    probe=elimination_probe, counts=COUNTS, algorithms=("dts",), params=(("sampling", ("indicators",)),))


NAME = C18_ELIMINATION.name
ALGORITHM = "dts"
DATASETS = ("cyclic", "strong_borda", "arxiv", "sushi", "mslr5_condorcet", "mslr16_condorcet", "mslr32_condorcet",
            "nc_cyclic", "nc_strong_borda", "gap", "mslr5_noncondorcet", "mslr16_noncondorcet", "mslr32_noncondorcet")
# The real-world datasets: the "practical settings" of the claim.
PRACTICAL = ("arxiv", "sushi", "mslr5_condorcet", "mslr16_condorcet", "mslr32_condorcet", "mslr5_noncondorcet",
             "mslr16_noncondorcet", "mslr32_noncondorcet")
DEFAULT_RUNS, DEFAULT_HORIZON = 20, HORIZON


def diagnostic_lines(runs: int, horizon: int) -> list[Line]:
    """One line of the C18 run kind (``reproduce.studies.elimination_study.C18_ELIMINATION``) per dataset: D-TS with
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
        note_unchecked_code(dict(zip(lines, results, strict=True)))
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


def elimination_acts_often(n: Numbers) -> str:
    """The reason of C18's verdict on the MSLR non-Condorcet subsets with K = 16, 32: close Copeland winners."""
    return ("on the MSLR non-Condorcet subsets with K = 16 and 32 several Copeland winners are close (the K = 32 "
            "subset even breaks the paper's own |p - 1/2| >= 0.003 filter), so the RUCB/RLCB elimination acts "
            f"often; the paper's \"seldom\" holds on most of its datasets ({n.claims_holding('C18')} of "
            f"{n.checks('C18')} rows of C18 hold, the summary row included)")


ELIMINATION_DOC = f"{VERDICTS_DOC}#the-elimination-on-mslr-non-condorcet"
# The datasets where C18 does not hold, each for the reason ``elimination_acts_often`` gives.
ACTS_OFTEN = ("mslr16_noncondorcet", "mslr32_noncondorcet")
ELIMINATION_STUDY = Study(ELIMINATION, make_command(ELIMINATION),
                          reasons={("C18", site(ELIMINATION, name)): Reason(DATA_VS_TEXT, ELIMINATION_DOC,
                                                                            elimination_acts_often)
                                   for name in ACTS_OFTEN})
