"""The panels of the paper's figures that more than one study draws: Fig. 1's two MSLR K=5 panels, whose stored runs
Fig. 2 also summarises, and Fig. 4's, whose 500-armed panel the large-scale study extends.  Every other figure's
panels are in its own module of ``reproduce.studies.paper_figures``."""

from dts_reproduction.reproduce.config.paper import (
    ALL_ELEVEN,
    HORIZON,
    HORIZON_FIG1B,
    HORIZON_MSLR_NONCONDORCET_LARGE,
)
from dts_reproduction.reproduce.studies.experiment import Curve, Panel

FIG1_PANELS = (
    Panel("mslr5_condorcet", "(a) MSLR K=5, Condorcet", ALL_ELEVEN, horizon=HORIZON, zoom=3500),
    Panel("mslr5_noncondorcet", "(b) MSLR K=5, non-Condorcet", ALL_ELEVEN, horizon=HORIZON_FIG1B, zoom=30000),
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
