"""Which pairs ECW-RMED's forced exploration can hold for good
(docs/asymptotic.md#ecw-rmed-trapped-by-forced-exploration).

Step 1 of ECW-RMED plays every pair with |p-hat_ij - 1/2| < beta / max(1, ln ln t).  Up to a horizon T that
threshold never falls below beta / ln ln T, so a pair whose true p_ij lies within that *band* of 1/2 is forced at
every slot once p-hat_ij has settled close to p_ij (its fluctuations shrink like n^-1/2 while the band stays), and
its regret grows linearly from then on.  This table counts such pairs per matrix, from the matrix alone, and, where
ECW-RMED's line is stored, checks that each of its trapped runs is held by one of them: over the last decade such a
run's regret per slot is the Copeland cost r_ij of the pair it is forced to play."""

import math

import numpy as np
import pandas as pd

from dts_reproduction.algorithms.ecw_rmed_steps import gap_threshold
from dts_reproduction.core.constants import ECW_RMED_BETA
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.config.scale import panel_horizon
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.studies.asymptotic_study.decades import checkpoint_before, regret_at, trapped
from dts_reproduction.reproduce.studies.lower_bound import pair_regrets

# A trapped run's regret per slot over its last decade [T/10, T] matches a pair's Copeland cost r_ij when they
# differ by less than this fraction of r_ij.  A run forced to the pair at all but the first ~1e6 slots (the stored
# MSLR Perfect run 0: 1.06e6 of 2**53) deviates from r_ij by about 1e6 / (0.9 T r_ij), below 1e-8 at T = 2**53;
# two different costs of one matrix differ by a multiple of 1 / (2 (K - 1)), at least 2 % of any r_ij <= 1/2.
COST_MATCH = 1e-5


def forced_band_rows(panels, settings: Settings, results) -> pd.DataFrame:
    """Per panel: its matrix, K, the band at the panel's horizon under ``settings`` (``panel_horizon``; step 1's
    ``gap_threshold``), the pairs i > j with |p_ij - 1/2| below it (exact ties included), how many of them hold the
    Condorcet winner, and the winner's smallest gap min_j |p_cj - 1/2| (empty without a Condorcet winner); where
    ECW-RMED's line is among the panel's ``results`` (title, LineResults), ``band_pair_runs``."""
    rows = []
    for panel, (_, curves) in zip(panels, results, strict=True):
        dataset = load_dataset(panel.dataset)
        horizon = panel_horizon(settings, panel.horizon)
        band = float(gap_threshold(float(horizon), ECW_RMED_BETA))  # it only falls with t: the band up to T
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
        ecw_rmed = [res for res in curves if res.line.name == "ecw_rmed"]
        row.update(band_pair_runs(ecw_rmed[0], pair_regrets(dataset.P)[in_band]) if ecw_rmed else
                   {"ecw_rmed_runs": math.nan, "ecw_rmed_trapped": math.nan, "held_by_a_band_pair": math.nan,
                    "largest_cost_mismatch": math.nan})
        rows.append(row)
    return pd.DataFrame(rows)


def band_pair_runs(result, band_costs: np.ndarray) -> dict:
    """Of the line ``result``: its runs, its ``decades.trapped`` runs, how many of those spend their last decade
    [T/10, T] at the regret per slot of a pair inside the band (``band_costs``, their Copeland costs r_ij): within
    COST_MATCH of one, relative to it; and the largest such relative difference over the trapped runs (NaN if none
    is trapped)."""
    held = trapped(result)
    horizon = int(result.checkpoints[-1])
    start = int(result.checkpoints[checkpoint_before(result, horizon // 10)])
    per_slot = (result.final - regret_at(result, horizon // 10))[held] / (horizon - start)
    mismatch = (np.abs(per_slot[:, None] - band_costs[None, :]) / band_costs[None, :]).min(axis=1, initial=np.inf)
    return {"ecw_rmed_runs": int(held.size), "ecw_rmed_trapped": int(held.sum()),
            "held_by_a_band_pair": int((mismatch < COST_MATCH).sum()),
            "largest_cost_mismatch": float(mismatch.max()) if mismatch.size else math.nan}
