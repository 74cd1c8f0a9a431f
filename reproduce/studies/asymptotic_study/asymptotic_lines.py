"""The asymptotic study's lines (``reproduce/asymptotic.py``, docs/asymptotic.md): every algorithm with an exact
fast path, per paper matrix with a Condorcet winner to T = 2**53 (with the two oracles of the bound's allocation
beside them) and per matrix without one to T = 1e7, with the paper's run counts (50 at K > 100, as in the
large-scale study); and the order in which the study computes them.
Shared by the study and by ``bench/paper_cost.py --asymptotic``."""

import math

from dts_reproduction.algorithms.base import MAX_EXACT_HORIZON
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.config.paper import LARGE_SCALE_RUNS
from dts_reproduction.reproduce.harness.cost import estimated_line_seconds
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.studies.experiment import Curve, Panel, selected

NONCONDORCET_HORIZON = 10**7  # without a Condorcet winner a run costs T slots: 1e7 fits the budget (docs/asymptotic.md)
NONCONDORCET_RUNS = 100
RMED2_PAPER = Curve("rmed2", (("numerator", "paper"),), tag="RMED2 (paper)")
ALGORITHMS = ("dts", "dts_plus", "rucb", "rcs", "ccb", "rmed1", "rmed2", RMED2_PAPER, "ecw_rmed")
# The yardsticks of the Condorcet panels (``algorithms.oracle``): the bound's allocation played by a policy told the
# winner and the optimal partners (it should reach C), and told the winner as every arm's partner (C_w).
ORACLE_OPTIMAL = Curve("oracle", (("partner", "optimal"),), tag="Oracle: optimal partners")
ORACLE_WINNER = Curve("oracle", (("partner", "winner"),), tag="Oracle: the winner")
ORACLES = (ORACLE_OPTIMAL, ORACLE_WINNER)
ORACLE_LINES = frozenset(curve.tag for curve in ORACLES)  # their lines' names: no table ranks them as algorithms
# The registry name of each tagged curve's algorithm (a line's ``name`` is its tag).
TAGGED = {curve.tag: curve.algorithm for curve in (RMED2_PAPER, *ORACLES)}
CONDORCET = (("cyclic", "Cyclic"), ("strong_borda", "StrongBorda"), ("arxiv", "ArXiv"), ("sushi", "Sushi"),
             ("mslr5_condorcet", "MSLR K=5, Condorcet"), ("mslr16_condorcet", "MSLR K=16, Condorcet"),
             ("mslr32_condorcet", "MSLR K=32, Condorcet"), ("mslr136_perfect", "MSLR Perfect, K=136"),
             ("mslr136_navigational", "MSLR Navigational, K=136"),
             ("mslr135_informational_cdc", "MSLR Informational-CDC, K=135"))
NONCONDORCET = (("mslr5_noncondorcet", "MSLR K=5, non-Condorcet"), ("nc_cyclic", "Non-Condorcet Cyclic"),
                ("nc_strong_borda", "Non-Condorcet StrongBorda"), ("gap", "Gap"))
LETTERS = "abcdefghijklmnopqrstuvwxyz"
PANELS = tuple(
    Panel(dataset, f"({LETTERS[k]}) {title}", curves, horizon=horizon,
          runs=runs if runs else (LARGE_SCALE_RUNS if load_dataset(dataset).K > 100 else None))
    for k, (dataset, title, curves, horizon, runs) in enumerate(
        [(d, t, ALGORITHMS + ORACLES, MAX_EXACT_HORIZON, None) for d, t in CONDORCET]
        + [(d, t, ALGORITHMS, NONCONDORCET_HORIZON, NONCONDORCET_RUNS) for d, t in NONCONDORCET]))


def cheapest_first(settings: Settings):
    """The ``order`` of ``experiment.simulate_panels``: the lines the line selection of ``settings`` (--algorithms
    and --datasets) selects (every line without one), the cheapest whole line first by the harness's cost model
    (``estimated_line_seconds``; a line without an estimate last), so that the lines that finish soonest are on disk
    first."""
    def line_seconds(line) -> float:
        """Estimated CPU seconds of every run of ``line`` (inf without an estimate)."""
        seconds = estimated_line_seconds(line, load_dataset(line.dataset))
        return seconds if math.isfinite(seconds) else math.inf

    return lambda lines: sorted((line for line in lines if selected(line, settings)), key=line_seconds)
