"""The panels of every figure of the paper, so that no script imports another and the figures' registry
(``reproduce.studies.figures``) holds them: Fig. 1's two MSLR K=5 panels, whose stored runs Fig. 2 also
summarises, Fig. 3's, Fig. 4's, whose 500-armed panel the large-scale study extends, and those of Figs. 5-7."""

from dts_reproduction.reproduce.config.paper import (
    ALL_ELEVEN,
    DELAY_GRID,
    HORIZON,
    HORIZON_FIG1B,
    HORIZON_MSLR_NONCONDORCET_LARGE,
)
from dts_reproduction.reproduce.studies.experiment import Curve, Panel

FIG1_PANELS = (
    Panel("mslr5_condorcet", "(a) MSLR K=5, Condorcet", ALL_ELEVEN, horizon=HORIZON, zoom=3500),
    Panel("mslr5_noncondorcet", "(b) MSLR K=5, non-Condorcet", ALL_ELEVEN, horizon=HORIZON_FIG1B, zoom=30000),
)
FIG3_PANELS = (
    Panel("cyclic", "(a) Cyclic", ALL_ELEVEN, zoom=1000),
    Panel("strong_borda", "(b) StrongBorda", ALL_ELEVEN, zoom=6000),
    Panel("arxiv", "(c) ArXiv", ALL_ELEVEN, zoom=6000),
    Panel("sushi", "(d) Sushi", ALL_ELEVEN, zoom=4000),
    Panel("mslr16_condorcet", "(e) MSLR K=16, Condorcet", ALL_ELEVEN, zoom=20000),
    Panel("mslr32_condorcet", "(f) MSLR K=32, Condorcet", ALL_ELEVEN, zoom=40000),
    Panel("strong_borda", "(g) StrongBorda, G2W regret", ALL_ELEVEN, metric="g2w", zoom=1500),
)
FIXED_ORDER_ECW = Curve("ecw_rmed", tag="ECW-RMED (fixed order)", shuffle=False)  # Fig. 4(c)'s dashed curve
FIG4_PANELS = (
    Panel("nc_cyclic", "(a) Non-Condorcet Cyclic", ALL_ELEVEN, zoom=6000),
    Panel("nc_strong_borda", "(b) Non-Condorcet StrongBorda", ALL_ELEVEN, zoom=6000),
    Panel("gap", "(c) Gap", (*ALL_ELEVEN, FIXED_ORDER_ECW), zoom=20000),
    Panel("copeland500", "(d) 500-armed Copeland", ("ccb", "scb", "ecw_rmed", "dts")),
    Panel("mslr16_noncondorcet", "(e) MSLR K=16, non-Condorcet", ALL_ELEVEN, horizon=HORIZON_MSLR_NONCONDORCET_LARGE,
          zoom=60000),
    Panel("mslr32_noncondorcet", "(f) MSLR K=32, non-Condorcet", ALL_ELEVEN, horizon=HORIZON_MSLR_NONCONDORCET_LARGE,
          zoom=120000),
)
FIG5_ALGORITHMS = ("dts", "dts_plus", "ecw_rmed")
FIG5_PANELS = (
    Panel("nc_cyclic", "(a) Non-Condorcet Cyclic", FIG5_ALGORITHMS),
    Panel("mslr16_noncondorcet", "(b) MSLR K=16, non-Condorcet", FIG5_ALGORITHMS),
)
FIG6_ALGORITHMS = ("ecw_rmed", "dts", "dts_plus")
FIG6_DATASETS = (("mslr5_condorcet", "(a) MSLR K=5, Condorcet"), ("nc_cyclic", "(b) Non-Condorcet Cyclic"))


def delay_panels(horizon: int) -> list[Panel]:
    """Fig. 6's panels: one per (dataset, delay) for every delay of the grid below the horizon (a delay of T or
    more would deliver no feedback at all), and d = 1 (no delay) at any horizon, T = 1 included."""
    return [Panel(dataset, f"{title}|{d}", FIG6_ALGORITHMS, delay=d)
            for dataset, title in FIG6_DATASETS for d in DELAY_GRID if d == 1 or d < horizon]


# Fig. 6's panels at the paper's horizon (the script rebuilds them for --horizon).
FIG6_PANELS = delay_panels(HORIZON)
FIG7_ALGORITHMS = ("pure_dts", "dts", "dts_plus")
FIG7_PANELS = (
    Panel("strong_borda", "(a) StrongBorda", FIG7_ALGORITHMS),
    Panel("nc_cyclic", "(b) Non-Condorcet Cyclic", FIG7_ALGORITHMS, zoom=6000),
    Panel("mslr5_condorcet", "(c) MSLR K=5, Condorcet", FIG7_ALGORITHMS),
    Panel("mslr5_noncondorcet", "(d) MSLR K=5, non-Condorcet", FIG7_ALGORITHMS),
)
