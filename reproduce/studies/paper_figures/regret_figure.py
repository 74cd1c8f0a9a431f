"""The regret figure, the pipeline of Figs. 1, 3, 4 and 7 (a study with ``Study.claim_rows``): its panels simulated
or loaded, each regret panel's asymptotic lower bound, the curves drawn with the bound's slope beside them, the
final-regret table and the claims table.  Its command line is ``reproduce.cli.figure.regret_figure``."""

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from dts_reproduction.reproduce.harness.atomic import atomic_group
from dts_reproduction.reproduce.harness.limits import check_output_files
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.tables import write_table
from dts_reproduction.reproduce.studies.experiment import evidence_note, write_claims
from dts_reproduction.reproduce.studies.regret_panels import draw_regret_panels
from dts_reproduction.reproduce.studies.study import Study


@dataclass(frozen=True)
class RegretFigure:
    """What ``draw_regret_figure`` wrote: the figure ``<stem>``.png|pdf|csv, its final-regret table (``final``, with
    the lower bounds; ``<stem name>_final.csv``) and its claims table (``claims``; ``<stem name>_claims.csv``)."""

    stem: Path
    final: pd.DataFrame
    claims: pd.DataFrame


def draw_regret_figure(study: Study, settings: Settings) -> RegretFigure:
    """Simulate (or load) the panels of ``study`` (a regret figure: its ``claim_rows`` given) under ``settings`` and
    write, all or none of them (a full disk): ``<figures>/<stem>.png|pdf|csv`` (the curves, each regret panel with its
    lower bound's slope), ``<stem>_final.csv`` (R(T) per line, with the lower bounds), ``<stem>_lines.csv`` and
    ``<stem>_claims.csv`` (its claims, marked as not evidence below the paper's scale).  A file in the way is bad input
    (ValueError) before anything is computed; with --plot-only or --stored-only nothing is written into the results
    folder, the lower bounds' cache included."""
    stem = settings.figures / study.stem
    check_output_files([*(stem.with_suffix(suffix) for suffix in (".png", ".pdf", ".csv")),
                        *(settings.figures / f"{study.stem}{end}.csv" for end in ("_final", "_lines", "_claims"))],
                       "figure file")
    panels = study.panels
    with atomic_group(settings.figures):  # the figure and its tables appear together, or none of them (a full disk)
        results, table = draw_regret_panels(study.stem, panels, settings)
        write_table(table, stem.with_name(f"{study.stem}_final.csv"))
        checks = write_claims(study.claim_rows(panels, results), stem.with_name(f"{study.stem}_claims.csv"),
                              evidence_note(settings, panels))
    return RegretFigure(stem, table, checks)
