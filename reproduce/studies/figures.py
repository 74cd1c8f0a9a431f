"""The paper's figures, one record each: the stem of its tables and of its script, the panels it simulates
(empty for a figure drawn from another's runs) and the claims it checks.  The stems are the claim registry's
(``reproduce.claims.registry``); the panels are ``reproduce.studies.paper_panels``'.  ``bench/paper_cost.py``
and the report read the figures here, never by loading a script."""

from dataclasses import dataclass

from dts_reproduction.reproduce.claims.registry import EVERY_CLAIM, FIG1, FIG2, FIG3, FIG4, FIG5, FIG6, FIG7
from dts_reproduction.reproduce.studies.experiment import Panel
from dts_reproduction.reproduce.studies.paper_panels import (
    FIG1_PANELS,
    FIG3_PANELS,
    FIG4_PANELS,
    FIG5_PANELS,
    FIG6_PANELS,
    FIG7_PANELS,
)


@dataclass(frozen=True)
class Figure:
    """One figure: ``stem`` (figures/<stem>_*.csv, reproduce/<stem>.py) and the ``panels`` its script simulates
    at the paper's horizon (none: it reads another figure's runs)."""

    stem: str
    panels: tuple[Panel, ...]

    @property
    def script(self) -> str:
        """The script that draws the figure, from the repository's root."""
        return f"reproduce/{self.stem}.py"

    @property
    def make_target(self) -> str:
        """The make target that draws it ("fig1" for fig1_mslr)."""
        return self.stem.split("_")[0]

    @property
    def claims(self) -> tuple[str, ...]:
        """The ids of the claims it checks (``reproduce.claims.registry``)."""
        return tuple(claim.id for claim in EVERY_CLAIM.values() if self.stem in claim.figures)


PAPER_FIGURES = {figure.stem: figure for figure in (
    Figure(FIG1, FIG1_PANELS), Figure(FIG2, ()), Figure(FIG3, FIG3_PANELS), Figure(FIG4, FIG4_PANELS),
    Figure(FIG5, FIG5_PANELS), Figure(FIG6, tuple(FIG6_PANELS)), Figure(FIG7, FIG7_PANELS))}
# The figures that simulate runs of their own (Fig. 2 reads Fig. 1's).
SIMULATED = tuple(stem for stem, figure in PAPER_FIGURES.items() if figure.panels)
