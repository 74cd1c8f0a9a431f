"""The paper's seven figures, one ``Study`` each, by stem (the claim registry's, ``reproduce.claims.registry``): what
the study registry (``reproduce.studies.study_registry``) and ``bench/paper_cost.py`` read, never a script."""

from dts_reproduction.reproduce.studies.paper_figures.condorcet_figure import FIG3_STUDY
from dts_reproduction.reproduce.studies.paper_figures.delay_figure import FIG6_STUDY
from dts_reproduction.reproduce.studies.paper_figures.diversity_figure import FIG5_STUDY
from dts_reproduction.reproduce.studies.paper_figures.mslr_figure import FIG1_STUDY
from dts_reproduction.reproduce.studies.paper_figures.noncondorcet_figure import FIG4_STUDY
from dts_reproduction.reproduce.studies.paper_figures.pure_dts_figure import FIG7_STUDY
from dts_reproduction.reproduce.studies.paper_figures.std_figure import FIG2_STUDY

PAPER_FIGURES = {study.stem: study for study in (FIG1_STUDY, FIG2_STUDY, FIG3_STUDY, FIG4_STUDY, FIG5_STUDY,
                                                 FIG6_STUDY, FIG7_STUDY)}
# The figures that simulate runs of their own (Fig. 2 reads Fig. 1's).
SIMULATED = tuple(stem for stem, figure in PAPER_FIGURES.items() if figure.panels)
