"""The study as the unit: one ``Study`` record per study says what it computes, which command does it, which tables
its reasons read, which generated blocks of the docs it writes and what it adds to the report.  The report
(``reproduce.reporting``) iterates ``reproduce.studies.study_registry.STUDIES`` and knows no study by name, so adding a
study is its module plus one line in the registry."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dts_reproduction.reproduce.claims.reasons import Reason
from dts_reproduction.reproduce.claims.registry import EVERY_CLAIM
from dts_reproduction.reproduce.harness.settings import Settings

# What a study's generated blocks are: {block name: markdown text}, from the tables in a figures folder.
Blocks = Callable[[Path], dict[str, str]]
# What a study adds to REPORT.md: its lines, from the tables in a figures folder and the path from REPORT.md to the
# repository root ("" or "../", for links to docs/); none: an empty list.
ReportSection = Callable[[Path, str], list[str]]
# A regret figure's claims: the rows of its claims table (``reproduce.claims.verdict.checked``) from its panels and
# their results, [(title, [LineResult])] in the panels' order.
ClaimRows = Callable[[tuple, list], list[dict]]
# What computes and draws a figure with a pipeline of its own under a run's ``Settings``: simulate or load its lines,
# draw, write its tables and its claims, print them.
Build = Callable[[Settings], None]


@dataclass(frozen=True)
class Study:
    """One study.  ``stem``: its tables are ``<figures>/<stem>_*.csv`` (and its figure ``<stem>.png``), its claims'
    ``figures`` name it (``reproduce.claims.registry``) and its script is ``reproduce/<stem>.py``; ``command``: what
    computes its tables (a "not measured" row tells the reader to run it); ``panels``: the panels it simulates
    (``experiment.Panel``; a paper figure's at the paper's horizon, which ``bench/paper_cost.py`` estimates; empty: it
    reads another study's runs); ``titled_ids``: (title, id) of the panels its tables name that are no ``Panel``
    record (``panel_ids``); ``tables``: the suffixes of its tables besides ``_final.csv`` and ``_claims.csv`` that its
    reasons read (``reproduce.claims.reasons.Numbers``); ``yardsticks``: the algorithm names of its lines that are
yardsticks, not algorithms (an oracle that knows the matrix), which the report's closest-slope table leaves out;
``block_file`` and ``blocks``: the file (from the repository
    root) holding its generated blocks and the function writing them, whose names ``block_names`` lists;
    ``report_section``: what it adds to REPORT.md after the shared sections; ``reasons``: why each of its checks
that does not hold does not, {(claim label, site id): ``reproduce.claims.reasons.Reason``} (the reasons shared by
the paper's figures are ``claims.reasons.REASONS``).  How a paper figure is drawn (``reproduce.studies.paper_figures``):
``claim_rows``, a regret figure's claims, which ``paper_figures.regret_figure`` checks on its panels; or ``build``, the
pipeline of a figure drawn otherwise (Figs. 2, 5 and 6).  Its script calls one of the two through ``reproduce.cli``."""

    stem: str
    command: str
    panels: tuple = ()
    titled_ids: tuple[tuple[str, str], ...] = ()
    tables: tuple[str, ...] = ()
    yardsticks: tuple[str, ...] = ()
    block_file: str | None = None
    block_names: tuple[str, ...] = ()
    blocks: Blocks | None = None
    report_section: ReportSection | None = None
    reasons: Mapping[tuple[str, str], Reason] = field(default_factory=dict)
    claim_rows: ClaimRows | None = None
    build: Build | None = None

    @property
    def script(self) -> str:
        """The script that computes and draws the study, from the repository's root."""
        return f"reproduce/{self.stem}.py"

    @property
    def panel_ids(self) -> dict[str, str]:
        """{panel title: panel id}: the id (``Panel.key``) by which claims and reasons find a panel's rows in its
        tables, which name the panel by its title."""
        return {**{panel.title: panel.key for panel in self.panels}, **dict(self.titled_ids)}

    @property
    def claims(self) -> tuple[str, ...]:
        """The ids of the claims it checks (``reproduce.claims.registry``)."""
        return tuple(claim.id for claim in EVERY_CLAIM.values() if self.stem in claim.figures)

    def written_blocks(self, folder: Path) -> dict[str, str]:
        """Its generated blocks from the tables in ``folder`` ({} for a study with none); ValueError if ``blocks``
        writes other names than ``block_names`` declares (the report places each block by its declared name)."""
        if self.blocks is None:
            return {}
        written = self.blocks(Path(folder))
        if set(written) != set(self.block_names):
            raise ValueError(f"study {self.stem}: wrote the blocks {sorted(written)}, "
                             f"declared {list(self.block_names)}")
        return written

    def section(self, folder: Path, docs: str) -> list[str]:
        """Its lines of REPORT.md (``report_section``; none: [])."""
        return [] if self.report_section is None else self.report_section(Path(folder), docs)


def make_command(stem: str) -> str:
    """The make target that computes a study named like the paper's figures: "make fig1" for fig1_mslr."""
    return f"make {stem.split('_')[0]}"

