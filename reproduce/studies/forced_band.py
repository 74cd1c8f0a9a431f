"""Which pairs ECW-RMED's forced exploration can hold for good
(docs/asymptotic.md#ecw-rmed-trapped-by-forced-exploration).

Step 1 of ECW-RMED plays every pair with |p-hat_ij - 1/2| < beta / max(1, ln ln t).  Up to a horizon T that
threshold never falls below beta / ln ln T, so a pair whose true p_ij lies within that *band* of 1/2 is forced at
every slot once p-hat_ij has settled close to p_ij (its fluctuations shrink like n^-1/2 while the band stays), and
its regret grows linearly from then on.  This table counts such pairs per matrix, from the matrix alone."""

import math

import numpy as np
import pandas as pd

from dts_reproduction.core.constants import ECW_RMED_BETA
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.config.scale import panel_horizon


def band_at(horizon: int, beta: float = ECW_RMED_BETA) -> float:
    """The smallest gap threshold of step 1 up to slot ``horizon``: beta / max(1, ln max(1, ln T))."""
    return beta / max(1.0, math.log(max(1.0, math.log(horizon))))


def forced_band_rows(panels, args) -> pd.DataFrame:
    """Per panel: its matrix, K, the band at the panel's horizon (``panel_horizon``), the pairs i > j with
    |p_ij - 1/2| below it (exact ties included), how many of them hold the Condorcet winner, and the winner's
    smallest gap min_j |p_cj - 1/2| (empty without a Condorcet winner)."""
    rows = []
    for panel in panels:
        dataset = load_dataset(panel.dataset)
        horizon = panel_horizon(args, panel.horizon)
        band = band_at(horizon)
        gaps = np.abs(dataset.P - 0.5)
        lower = np.tril(np.ones_like(gaps, dtype=bool), k=-1)
        in_band = lower & (gaps < band)
        winner = dataset.condorcet_winner
        row = {"panel": panel.title, "dataset": panel.dataset, "K": dataset.K, "horizon": horizon,
               "band": band, "pairs_in_band": int(in_band.sum()), "exact_ties": int((lower & (gaps == 0.0)).sum())}
        if winner is None:
            row.update(with_winner=math.nan, winner_smallest_gap=math.nan)
        else:
            others = np.delete(gaps[winner], winner)
            row.update(with_winner=int(in_band[winner].sum() + in_band[:, winner].sum()),
                       winner_smallest_gap=float(others.min()))
        rows.append(row)
    return pd.DataFrame(rows)
