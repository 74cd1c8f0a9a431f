"""The asymptotic study's record for the report (``reproduce.studies.study.Study``, registered in
``reproduce.studies.study_registry``): its panels, the tables its reasons read, its yardsticks, its generated blocks
and its reasons."""

from dts_reproduction.reproduce.claims.registry import ASYMPTOTIC
from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_blocks import BLOCK_NAMES, asymptotic_blocks
from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_lines import ORACLE_LINES, PANELS
from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_reasons import (
    ASYMPTOTIC_REASONS,
    DECADE_PARTS,
    PARTNER_RUNS,
    SWEEPS,
)
from dts_reproduction.reproduce.studies.study import Study

ASYMPTOTIC_STUDY = Study(
    ASYMPTOTIC, "python reproduce/asymptotic.py", PANELS,
    tables=(SWEEPS, DECADE_PARTS, PARTNER_RUNS),
    yardsticks=tuple(sorted(ORACLE_LINES)),
    block_file="docs/asymptotic.md", blocks=asymptotic_blocks, block_names=BLOCK_NAMES, reasons=ASYMPTOTIC_REASONS)
