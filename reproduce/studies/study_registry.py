"""Every study, one line each: the report (``reproduce.reporting.claims_report``), the claims' "not measured" rows
and the cost estimates iterate ``STUDIES`` and know no study by name.  A new study is its module, which declares its
``reproduce.studies.study.Study``, plus its line here."""

from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_record import ASYMPTOTIC_STUDY
from dts_reproduction.reproduce.studies.authors_agreement import FIDELITY_STUDY
from dts_reproduction.reproduce.studies.elimination_study import ELIMINATION_STUDY
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_report import LARGE_SCALE_STUDY
from dts_reproduction.reproduce.studies.mslr_subsets import TABLE9_STUDY
from dts_reproduction.reproduce.studies.paper_figures.figures import PAPER_FIGURES
from dts_reproduction.reproduce.studies.successors_study.successors_report import SUCCESSORS_STUDY

STUDIES = (*PAPER_FIGURES.values(), TABLE9_STUDY,
           ELIMINATION_STUDY, LARGE_SCALE_STUDY, ASYMPTOTIC_STUDY, FIDELITY_STUDY, SUCCESSORS_STUDY)
BY_STEM = {study.stem: study for study in STUDIES}
