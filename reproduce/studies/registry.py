"""Every study, one line each: the report (``reproduce.reporting.report``), the claims' "not measured" rows and the
cost estimates iterate ``STUDIES`` and know no study by name.  A new study is its module, which declares its
``reproduce.studies.study.Study``, plus its line here."""

from dts_reproduction.reproduce.claims.registry import ELIMINATION
from dts_reproduction.reproduce.studies.asymptotic_study import ASYMPTOTIC_STUDY
from dts_reproduction.reproduce.studies.authors_agreement import FIDELITY_STUDY
from dts_reproduction.reproduce.studies.large_scale_study import LARGE_SCALE_STUDY
from dts_reproduction.reproduce.studies.paper_figures.figures import PAPER_FIGURES
from dts_reproduction.reproduce.studies.study import Study, make_command

STUDIES = (*PAPER_FIGURES.values(), Study("table9_mslr_subsets", make_command("table9_mslr_subsets")),
           Study(ELIMINATION, make_command(ELIMINATION)), LARGE_SCALE_STUDY, ASYMPTOTIC_STUDY, FIDELITY_STUDY)
BY_STEM = {study.stem: study for study in STUDIES}
