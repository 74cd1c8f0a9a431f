"""The large-scale study's panels and lines (``reproduce/large_scale.py``, docs/experiments.md#large-scale-past-the-
paper): per panel title its curves, each a list of ``Line``s (one, or one per grid horizon for BTM and SAVAGE), under
the command line's --runs, --horizon and --quick.  Panels (a)-(d): every ``MSLR_ENTRIES`` algorithm on the four MSLR
matrices of K = 135/136, plus the T = 1e8 lines of ``LONG_TAGS``; (e) every algorithm on the 500-armed instance;
(f) ``NESTED_TAGS`` on nested subsets of the Perfect matrix.  An algorithm that is not registered makes its lines
"unavailable" (``available``): listed, never computed."""

import functools
from dataclasses import replace

from dts_reproduction.algorithms import ALGORITHMS
from dts_reproduction.core import constants
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.config.paper import (
    ALL_ELEVEN,
    HORIZON,
    LARGE_SCALE_HORIZON,
    LARGE_SCALE_LONG_HORIZON,
    LARGE_SCALE_RUNS,
    LONG_SUFFIX,
    RUNS_K_GT_100,
)
from dts_reproduction.reproduce.config.scale import horizon_overridden
from dts_reproduction.reproduce.harness.runner import Line
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.plotting import OPEN_MARKERS, style
from dts_reproduction.reproduce.studies.experiment import ete_horizons
from dts_reproduction.reproduce.studies.paper_panels import FIG4_PANELS

MSLR_MATRICES = (("mslr136_perfect", "(a) MSLR Perfect, K=136"),
                 ("mslr136_navigational", "(b) MSLR Navigational, K=136"),
                 ("mslr135_informational_cdc", "(c) MSLR Informational-CDC, K=135"),
                 ("mslr136_informational", "(d) MSLR Informational, K=136, no Condorcet winner"))
CONDORCET_MATRICES = MSLR_MATRICES[:3]  # the panels with a Condorcet winner (L1)
# The tuned settings the MergeDTS authors ran: the presets "best" (core/constants.py, AlgorithmSpec.presets) as
# a Line's params, so a preset line and its written-out parameters are one stored line.
DTS_BEST = tuple(sorted(constants.DTS_BEST.items()))
MERGE_DTS_BEST = tuple(sorted(constants.MERGE_DTS_BEST.items()))
MERGE_RUCB_BEST = tuple(sorted(constants.MERGE_RUCB_BEST.items()))
# (algorithm, params, tag) of panels (a)-(d); an algorithm's exact fast paths are added where it has them.
MSLR_ENTRIES = (
    ("dts", (), "D-TS"), ("dts_plus", (), "D-TS+"), ("dts", DTS_BEST, "D-TS (best)"),
    ("merge_dts", (), "MergeDTS"), ("merge_dts", MERGE_DTS_BEST, "MergeDTS (best)"),
    ("merge_rucb", (), "MergeRUCB"), ("merge_rucb", MERGE_RUCB_BEST, "MergeRUCB (best)"),
    ("self_sparring", (), "Self-Sparring"), ("rmed1", (), "RMED1"), ("ecw_rmed", (), "ECW-RMED"),
    ("rucb", (), "RUCB"), ("rcs", (), "RCS"),
)
# T = 1e8 lines: the tags whose cost per slot at K = 136, once the first 1e6 slots are past, keeps 50 runs of
# 1e8 slots within 2 CPU hours per matrix (docs/experiments.md#large-scale-past-the-paper; measured costs
# printed by bench/paper_cost.py --large-scale).  D-TS (exact, fast paths) and MergeDTS are the pair the
# MergeDTS claim is about.
LONG_TAGS = ("D-TS", "MergeDTS", "MergeDTS (best)", "RUCB")
COPELAND500 = "copeland500"
EVERY_ALGORITHM = (*ALL_ELEVEN, "multisbm", "rmed2", "merge_dts", "merge_rucb", "self_sparring")
MANY_RUNS_500 = ("dts", "dts_plus", "ccb", "scb", "ecw_rmed")  # 100 runs on the 500-armed instance
MANY_RUNS = 100
QUICK_RUNS_500 = 2  # the smoke run's 500-armed lines (at O(K^2) a slot, 20 runs of D-TS take minutes there)
NESTED = ("mslr_perfect_k8", "mslr_perfect_k16", "mslr_perfect_k32", "mslr_perfect_k64", "mslr136_perfect")
NESTED_TAGS = ("D-TS", "MergeDTS", "Self-Sparring", "RMED1")


def with_fast(algorithm: str, params: tuple) -> tuple:
    """``params`` completed with the algorithm's exact fast paths (``AlgorithmSpec.fast``) where it is registered;
    an unregistered algorithm keeps ``params``."""
    fast = ALGORITHMS[algorithm].fast if algorithm in ALGORITHMS else {}
    return tuple(sorted({**fast, **dict(params)}.items()))


def mslr_lines(dataset: str, runs: int, horizon: int) -> list[Line]:
    """Every line of an MSLR panel (``MSLR_ENTRIES``) at ``horizon``, plus the T = 1e8 lines of LONG_TAGS."""
    lines = []
    for algorithm, params, tag in MSLR_ENTRIES:
        base = Line(dataset, algorithm, horizon, runs, with_fast(algorithm, params), tag)
        lines.append(base)
        if tag in LONG_TAGS and horizon == LARGE_SCALE_HORIZON:
            lines.append(replace(base, horizon=LARGE_SCALE_LONG_HORIZON, tag=f"{tag}{LONG_SUFFIX}"))
    return lines


def paper_500_algorithms() -> set[str]:
    """The algorithms of the paper's own 500-armed panel (Fig. 4(d), ``reproduce.studies.paper_panels.FIG4_PANELS``)."""
    panel = next(panel for panel in FIG4_PANELS if panel.dataset == COPELAND500)
    return {curve.algorithm for curve in panel.curves()}


def copeland500_curves(runs: int | None, horizon: int) -> list[list[Line]]:
    """Panel (e): one curve per algorithm (the horizon grid for BTM and SAVAGE).  The paper's Fig. 4(d) algorithms
    with the defaults, so that those stored runs are reused; every other algorithm with its exact fast paths, as in
    panels (a)-(d) (the same law: at K = 500 the defaults of D-TS+ and RCS cost 0.2-0.4 ms a slot)."""
    paper = paper_500_algorithms()
    curves = []
    for algorithm in EVERY_ALGORITHM:
        count = runs or (MANY_RUNS if algorithm in MANY_RUNS_500 else RUNS_K_GT_100)
        needs_horizon = algorithm in ALGORITHMS and ALGORITHMS[algorithm].needs_horizon
        params = () if algorithm in paper else with_fast(algorithm, ())
        curves.append([Line(COPELAND500, algorithm, h, count, params)
                       for h in (ete_horizons(horizon) if needs_horizon else [horizon])])
    return curves


def nested_lines(runs: int, horizon: int) -> list[Line]:
    """Panel (f): the NESTED_TAGS lines of MSLR_ENTRIES on every nested Perfect subset."""
    entries = [entry for entry in MSLR_ENTRIES if entry[2] in NESTED_TAGS]
    return [Line(dataset, algorithm, horizon, runs, with_fast(algorithm, params), tag)
            for dataset in NESTED for algorithm, params, tag in entries]


def all_curves(settings: Settings) -> dict[str, list[list[Line]]]:
    """Every curve of every panel under ``settings`` (--runs, --horizon, --quick scale every panel down)."""
    scaled = horizon_overridden(settings)
    horizon = settings.horizon if scaled else LARGE_SCALE_HORIZON
    runs = settings.runs or LARGE_SCALE_RUNS
    panels = {title: [[line] for line in mslr_lines(dataset, runs, horizon)] for dataset, title in MSLR_MATRICES}
    horizon500 = settings.horizon if scaled else HORIZON
    runs500 = min(settings.runs, QUICK_RUNS_500) if settings.quick else settings.runs
    panels[f"(e) 500-armed Copeland, T={horizon500:.0e}"] = copeland500_curves(runs500, horizon500)
    panels["(f) R(T) against K, nested MSLR Perfect subsets"] = [[line] for line in nested_lines(runs, horizon)]
    return panels


def every_line(settings: Settings) -> list[Line]:
    """Every line of every curve of ``all_curves(settings)``, panel by panel: what --algorithms and --datasets
    select from."""
    return [line for curves in all_curves(settings).values() for curve in curves for line in curve]


def curve_look(result) -> dict:
    """How the large-scale figure draws a curve: its ``plotting.style``, with open markers (``plotting.OPEN_MARKERS``)
    for a line past ``LARGE_SCALE_HORIZON`` (the T = 1e8 lines of ``LONG_TAGS``), drawn beside its T = 1e7 line."""
    look = style(result)
    if result.line.horizon > LARGE_SCALE_HORIZON:
        look.update(OPEN_MARKERS)
    return look


def available(line: Line) -> bool:
    """Whether the line's algorithm is registered (else the line is "unavailable")."""
    return line.algorithm in ALGORITHMS


@functools.cache
def arms(dataset: str) -> int:
    """K of a packaged dataset (read once: the plan asks for it hundreds of times)."""
    return load_dataset(dataset).K
