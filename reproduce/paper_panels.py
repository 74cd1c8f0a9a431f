"""Panels that more than one figure script reads: Fig. 1's two MSLR K=5 panels, whose stored runs Fig. 2
also summarises (so that no figure script imports another)."""

from reproduce.experiment import Panel
from reproduce.paper_config import ALL_ELEVEN, HORIZON, HORIZON_FIG1B

FIG1_PANELS = (
    Panel("mslr5_condorcet", "(a) MSLR K=5, Condorcet", ALL_ELEVEN, horizon=HORIZON, zoom=3500),
    Panel("mslr5_noncondorcet", "(b) MSLR K=5, non-Condorcet", ALL_ELEVEN, horizon=HORIZON_FIG1B, zoom=30000),
)
