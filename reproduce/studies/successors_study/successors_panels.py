"""The successors study's panels and lines: every matrix of the paper's Figs. 1, 3 and 4 (seven with a Condorcet
winner, seven without), each at its paper panel's horizon and run count (App. D: 500 runs for K < 10, 100 for
K <= 100, 10 for K = 500), holding the four baselines and the six successors.

The baselines run with their exact fast paths (``AlgorithmSpec.fast``: the same law as their defaults, other
random streams), so each line is bit for bit the figure scripts' ``--fast`` line of the same key under
``results/fast/`` -- computed again here only because those runs were stored before the weak regret was kept.  A
successor runs with its paper's parameters (the registry's defaults) and, where it has one, its exact fast path
(C2B's skip of its confident batches)."""

import re
from dataclasses import replace

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.paths import RESULTS
from dts_reproduction.reproduce.studies.benchmark_study.benchmark_panels import panel_letter
from dts_reproduction.reproduce.studies.experiment import Curve, Panel
from dts_reproduction.reproduce.studies.paper_figures.condorcet_figure import FIG3_STUDY
from dts_reproduction.reproduce.studies.paper_figures.noncondorcet_figure import FIG4_STUDY
from dts_reproduction.reproduce.studies.paper_panels import FIG1_PANELS

NAME = "successors"  # the stem of the study's script, tables and figures
RESULTS_FOLDER = RESULTS / NAME  # where its lines are stored
BASELINES = ("dts", "dts_plus", "rmed1", "ecw_rmed")  # the paper's algorithms the successors are compared with
SUCCESSORS = ("versatile_db", "ws_s", "ws_w", "cw_rmed", "c2b", "rex3")  # docs/algorithms.md has each one's paper


def study_curve(algorithm: str) -> Curve:
    """The curve of ``algorithm`` in the study: its registry defaults with its exact fast paths, the arms shuffled
    in every run (the paper's protocol)."""
    return Curve(algorithm, tuple(sorted(get_algorithm(algorithm).fast.items())))


CURVES = tuple(study_curve(algorithm) for algorithm in (*BASELINES, *SUCCESSORS))


def runs_on(algorithm: str, K: int) -> bool:
    """Whether ``algorithm`` runs on a K-armed matrix: within its registered arm limit (``AlgorithmSpec.arm_limit``;
    CW-RMED's linear program bounds it to K <= 9, docs/algorithms.md#cw-rmed), or it has none."""
    limit = get_algorithm(algorithm).arm_limit
    return limit is None or K <= limit[0]


def paper_regret_panels() -> tuple[Panel, ...]:
    """The paper's panels in Copeland regret, one per matrix, in the order of Figs. 1, 3 and 4 (Fig. 3 (g), the
    G2W regret of StrongBorda's runs drawn again, is the same runs)."""
    found = (*FIG1_PANELS, *FIG3_STUDY.panels, *FIG4_STUDY.panels)
    return tuple(panel for panel in found if panel.metric == "regret")


def study_panels() -> tuple[Panel, ...]:
    """The study's panels: ``paper_regret_panels`` holding the ``CURVES`` that run on their matrix (``runs_on``),
    those whose matrix has a Condorcet winner first (Fig. 1 (a), Fig. 3), each group in the paper's order, lettered
    (a), (b), ... in that order (a panel's id, ``Panel.key``, is its matrix)."""
    panels = paper_regret_panels()
    winners = [panel for panel in panels if load_dataset(panel.dataset).has_condorcet_winner]
    ordered = (*winners, *(panel for panel in panels if panel not in winners))
    return tuple(replace(panel, zoom=None,
                         algorithms=tuple(curve for curve in CURVES
                                          if runs_on(curve.algorithm, load_dataset(panel.dataset).K)),
                         title=f"({panel_letter(index)}) {_LETTER.sub('', panel.title)}")
                 for index, panel in enumerate(ordered))


_LETTER = re.compile(r"^\([a-z]\) ")  # a paper panel's letter, "(a) "
PANELS = study_panels()
