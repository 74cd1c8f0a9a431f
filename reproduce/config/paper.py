"""The experiment settings of the paper (Sec. 5 and App. D) and the choices this project made where the
paper is silent: run counts, horizons, the delay grid, the root seed, the algorithm sets of the figures.

Algorithm constants (alpha, gamma, ...) are not here: they live with the algorithms in
``core/constants.py``.  Every figure's study reads its settings from this module.
"""

RUNS_K_LT_10 = 500  # App. D: 500 independent runs for K < 10
RUNS_K_LE_100 = 100  # App. D: 100 runs for 10 <= K <= 100
RUNS_K_GT_100 = 10  # App. D: 10 runs for K > 100
HORIZON = 1_000_000  # App. D: T = 1e6 for the regret figures, the STD figure and the delay study ...
HORIZON_FIG1B = 2_000_000  # ... except Fig. 1(b): the authors' build for MSLR K=5 non-Condorcet ran 2e6 slots
# Fig. 4(e), (f): App. D.2.2 discusses MSLR K=16 non-Condorcet "up to 5e6" slots, so the curves must reach it.
HORIZON_MSLR_NONCONDORCET_LARGE = 5_000_000
# Fig. 6: the paper plots R(1e6) against the feedback delay d without listing the d values; this grid
# spans one slot (no delay) to 1% of the horizon, about 2 points per decade.
DELAY_GRID = (1, 10, 30, 100, 300, 1000, 3000, 10000)
# Past the paper (reproduce/large_scale.py), the MergeDTS authors' protocol (chang-li/MergeDTS demo.py): 50 runs with
# shuffled arms for K >= 100; their T = 1e8 only for the lines whose cost allows it, T = 1e7 for every line.
LARGE_SCALE_RUNS = 50
LARGE_SCALE_HORIZON = 10_000_000
LARGE_SCALE_LONG_HORIZON = 100_000_000
LONG_SUFFIX = ", T=1e8"  # a large-scale T = LARGE_SCALE_LONG_HORIZON line's tag: its T = 1e7 line's tag and this
LARGE_SCALE_CPU_HOURS = 24.0  # the study's budget: 12 h of wall time on 2 cores (large_scale_plan.study_plan)
ROOT_SEED = 20161205  # default root seed of every experiment (NIPS 2016 opened on 5 Dec 2016)

# The eleven algorithms of Figs. 1, 3 and 4, in the paper's legend order.
ALL_ELEVEN = ("btm", "savage", "rucb", "rcs", "sparring", "ccb", "scb", "rmed1", "ecw_rmed", "dts", "dts_plus")


def paper_runs(K: int) -> int:
    """Number of independent runs the paper uses for a K-armed problem (App. D)."""
    if K < 10:
        return RUNS_K_LT_10
    if K <= 100:
        return RUNS_K_LE_100
    return RUNS_K_GT_100
