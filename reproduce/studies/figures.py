"""The paper's figures, one ``Study`` each: the stem of its tables and of its script, the panels it simulates
(empty for a figure drawn from another's runs) and the claims it checks.  The stems are the claim registry's
(``reproduce.claims.registry``); the panels are ``reproduce.studies.paper_panels``'.  ``bench/paper_cost.py``
and the report read the figures here, never by loading a script."""

from dts_reproduction.reproduce.claims.registry import FIG1, FIG2, FIG3, FIG4, FIG5, FIG6, FIG7
from dts_reproduction.reproduce.studies.paper_panels import (
    FIG1_PANELS,
    FIG3_PANELS,
    FIG4_PANELS,
    FIG5_PANELS,
    FIG6_PANELS,
    FIG7_PANELS,
)
from dts_reproduction.reproduce.studies.study import Study, make_command

PAPER_FIGURES = {stem: Study(stem, make_command(stem), panels) for stem, panels in (
    (FIG1, FIG1_PANELS), (FIG2, ()), (FIG3, FIG3_PANELS), (FIG4, FIG4_PANELS), (FIG5, FIG5_PANELS),
    (FIG6, tuple(FIG6_PANELS)), (FIG7, FIG7_PANELS))}
# The figures that simulate runs of their own (Fig. 2 reads Fig. 1's).
SIMULATED = tuple(stem for stem, figure in PAPER_FIGURES.items() if figure.panels)
