"""What the benchmark runs: its tiers, its default algorithms and its panels -- the matrices of the paper's Fig. 3 (with
a Condorcet winner) and Fig. 4 (without one), as those figures declare them (their horizons, run rules and zooms), or
any datasets and matrix files chosen instead, each panel holding the user's curves."""

import re
from dataclasses import replace
from string import ascii_lowercase

from dts_reproduction.reproduce.config.scale import QUICK_HORIZON, QUICK_RUNS, power_of_ten
from dts_reproduction.reproduce.studies.custom_runs import dataset_panels
from dts_reproduction.reproduce.studies.experiment import Panel
from dts_reproduction.reproduce.studies.paper_figures.condorcet_figure import FIG3_STUDY
from dts_reproduction.reproduce.studies.paper_figures.noncondorcet_figure import FIG4_STUDY

NAME = "benchmark"  # the stem of every file it writes
# The tiers, by name: what each one runs.  quick is the repository's quick run (``Settings.quick``: its runs and
# horizon, its verdicts marked as not evidence); paper runs each matrix at its paper panel's run count and horizon.
TIERS = {
    "quick": f"the quick run's scale, {QUICK_RUNS} runs per line and T = {power_of_ten(QUICK_HORIZON)}: minutes, a "
             "smoke test, not evidence",
    "paper": "each matrix at the run count and horizon of its panel in the paper's Figs. 3 and 4, App. D",
}
DEFAULT_TIER = "quick"
DEFAULT_ALGORITHMS = ("dts", "dts_plus", "rmed1", "ecw_rmed", "rucb")
DEFAULT_AGAINST = "dts"
# Every matrix of Figs. 3 and 4 once, in the figures' order: their panels in Copeland regret (Fig. 3 (g) draws the G2W
# regret of StrongBorda's runs again).
PAPER_PANELS = tuple(panel for panel in (*FIG3_STUDY.panels, *FIG4_STUDY.panels) if panel.metric == "regret")
_LETTER = re.compile(r"^\([a-z]\) ")  # a paper panel's letter, "(a) "


def panel_letter(index: int) -> str:
    """The letter of the panel at ``index``: a..z, then its number from 27 on."""
    return ascii_lowercase[index] if index < len(ascii_lowercase) else str(index + 1)


def benchmark_panels(datasets, curves: tuple) -> list[Panel]:
    """One panel per matrix holding ``curves``, lettered (a), (b), ... in order: those of ``datasets`` (names or
    matrix files, in the order given; None: every matrix of ``PAPER_PANELS``).  A matrix of Figs. 3 and 4 keeps its
    paper panel's title, horizon, run rule and zoom; any other is titled by its matrix's name and runs at the paper's
    defaults (``Panel``).  ValueError for a dataset that does not load or is given twice (``dataset_panels``)."""
    paper = {panel.dataset: panel for panel in PAPER_PANELS}
    chosen = [panel.dataset for panel in PAPER_PANELS] if datasets is None else list(datasets)
    panels = []
    for index, plain in enumerate(dataset_panels(chosen, curves)):
        found = paper.get(plain.dataset, plain)
        panels.append(replace(found, algorithms=curves,
                              title=f"({panel_letter(index)}) {_LETTER.sub('', found.title)}"))
    return panels
