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
from dts_reproduction.algorithms.c2b import c2b_batches_probe
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.claims.registry import SUCCESSORS
from dts_reproduction.reproduce.harness.kinds import RunKind, StoredArray
from dts_reproduction.reproduce.harness.paths import RESULTS
from dts_reproduction.reproduce.harness.runner import Line
from dts_reproduction.reproduce.studies.benchmark_study.benchmark_panels import panel_letter
from dts_reproduction.reproduce.studies.experiment import Curve, Panel, panel_curves
from dts_reproduction.reproduce.studies.paper_figures.condorcet_figure import FIG3_STUDY
from dts_reproduction.reproduce.studies.paper_figures.noncondorcet_figure import FIG4_STUDY
from dts_reproduction.reproduce.studies.paper_panels import FIG1_PANELS

NAME = SUCCESSORS  # the stem of the study's script, tables and figures
RESULTS_FOLDER = RESULTS / NAME  # where its lines are stored
BASELINES = ("dts", "dts_plus", "rmed1", "ecw_rmed")  # the paper's algorithms the successors are compared with
# The successors, each with its paper in docs/algorithms.md.
SUCCESSOR_ALGORITHMS = ("versatile_db", "ws_s", "ws_w", "cw_rmed", "c2b", "rex3")


# When each algorithm was published, (year, month) of its venue: the claims S6 and S7 compare a successor with the
# algorithms "existing" before it (its paper's word).  RMED1 (COLT 2015), REX3 (ICML 2015), CW-RMED and ECW-RMED (ICML
# 2016), D-TS and D-TS+ (NIPS 2016), WS-S and WS-W (ICML 2017), Versatile-DB (ICML 2022), C2B (NeurIPS 2022).
PUBLISHED = {"rmed1": (2015, 7), "rex3": (2015, 7), "cw_rmed": (2016, 6), "ecw_rmed": (2016, 6), "dts": (2016, 12),
             "dts_plus": (2016, 12), "ws_s": (2017, 8), "ws_w": (2017, 8), "versatile_db": (2022, 7),
             "c2b": (2022, 12)}
# C2B's long lines (claim S4): one line per decade of T from 1e6 to 1e15 on every matrix with a Condorcet winner, so
# that its slope per ln T over the last decades can be set against the bound C.  Its exact fast path plays a batch's
# pair blocks as Binomial draws and its exploitation batch as one skip, so a run of T = 1e15 costs what its
# ceil(ln T) batches' planning costs (a twentieth of a second at K = 32).
ASYMPTOTIC_HORIZONS = tuple(10**exponent for exponent in range(6, 16))
ASYMPTOTIC_RUNS = 100
# The long lines of the successors that need no horizon and whose exact fast paths make T = 1e15 cheap: one line per
# matrix with a Condorcet winner that the algorithm runs on, read at the decades of its checkpoint grid (one run gives
# every T).  CW-RMED (claim S11; its skip: a run of 1e15 costs 0.1-4 s at K <= 9) beside the yardstick that tells what
# its estimates cost -- its option program="true", step 6 from the true matrix (docs/successors.md) -- and WS-S (its
# skip of exploitation phases: 0.01-0.1 s a run).  {name in the long-line table: (algorithm, parameters beyond its
# study curve's, legend tag)}.
ANYTIME_LONG_HORIZON = 10**15
CW_RMED_TRUE = "CW-RMED, program on the true matrix"
ANYTIME_LONG = {"cw_rmed": ("cw_rmed", (), ""), "cw_rmed_true": ("cw_rmed", (("program", "true"),), CW_RMED_TRUE),
                "ws_s": ("ws_s", (), "")}
# C2B's number of batches, recorded beside its regret: a run kind whose probe reads the batches C2B has started
# (``algorithms.c2b.c2b_batches_probe``) after every slot, so it runs slot by slot (skip "off": a probe sees every
# slot), at each panel's horizon and run count (about 55 ns a slot).  Its chunks store the count and the final regret.
BATCH_COUNTS = ("batches",)
C2B_BATCHES = RunKind(name="c2b_batches", version=1,
                      arrays=(StoredArray("batches", "int64", ("runs",)), StoredArray("final", "float64", ("runs",))),
                      probe=c2b_batches_probe, counts=BATCH_COUNTS, algorithms=("c2b",),
                      params=(("skip", ("off",)),))


def study_curve(algorithm: str) -> Curve:
    """The curve of ``algorithm`` in the study: its registry defaults with its exact fast paths, the arms shuffled
    in every run (the paper's protocol)."""
    return Curve(algorithm, tuple(sorted(get_algorithm(algorithm).fast.items())))


CURVES = tuple(study_curve(algorithm) for algorithm in (*BASELINES, *SUCCESSOR_ALGORITHMS))


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


def matrix_columns() -> dict[bool, list[str]]:
    """{whether the matrix has a Condorcet winner: the study's matrices so, in the panels' order}."""
    columns = {True: [], False: []}
    for panel in PANELS:
        columns[load_dataset(panel.dataset).has_condorcet_winner].append(panel.dataset)
    return columns


def asymptotic_curves(runs: int | None = None, horizons=ASYMPTOTIC_HORIZONS) -> dict[str, list[list[Line]]]:
    """{panel title: [C2B's curve, its lines at ``horizons``]} of every panel whose matrix has a Condorcet winner,
    ``runs`` runs a line (None: ASYMPTOTIC_RUNS); C2B with its exact fast path, the arms shuffled."""
    curve = study_curve("c2b")
    return {panel.title: [[Line(panel.dataset, curve.algorithm, horizon, runs or ASYMPTOTIC_RUNS, curve.params)
                           for horizon in horizons]]
            for panel in PANELS if load_dataset(panel.dataset).has_condorcet_winner}


def anytime_long_lines(runs: int | None = None, horizon: int = ANYTIME_LONG_HORIZON) -> dict[str, dict[str, Line]]:
    """{long-table name (ANYTIME_LONG): {panel title: its line}}: ``runs`` runs (None: ASYMPTOTIC_RUNS) of ``horizon``
    slots with the algorithm's exact fast path, the arms shuffled, on every panel whose matrix has a Condorcet winner
    and that the algorithm runs on (CW-RMED: K <= its arm limit)."""
    lines = {}
    for name, (algorithm, extra, tag) in ANYTIME_LONG.items():
        spec, curve = get_algorithm(algorithm), study_curve(algorithm)
        params = tuple(sorted((*curve.params, *extra)))
        lines[name] = {panel.title: Line(panel.dataset, algorithm, horizon, runs or ASYMPTOTIC_RUNS, params, tag=tag)
                       for panel in PANELS
                       if load_dataset(panel.dataset).has_condorcet_winner
                       and (spec.arm_limit is None or load_dataset(panel.dataset).K <= spec.arm_limit[0])}
    return lines


def batch_lines(settings) -> dict[str, Line]:
    """{panel title: C2B's batch-counting line} (``C2B_BATCHES``) of every panel, at the panel's horizon and run count
    under ``settings`` (its --runs, --horizon, --quick scale them as they scale the panel's curves)."""
    lines = {}
    for panel in PANELS:
        horizon = max(line.horizon for curve in panel_curves(panel, settings) for line in curve)
        runs = settings.runs or panel.own_runs()
        lines[panel.title] = Line(panel.dataset, "c2b", horizon, runs, (("skip", "off"),), kind=C2B_BATCHES)
    return lines
