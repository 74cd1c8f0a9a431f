"""The large-scale study's tables and claims: per drawn line its regrets at T (Copeland, G2W and the MergeDTS
authors' half of it), slope and regret per slot (``final_rows``); claims L1 (MergeDTS below exact D-TS on the
Condorcet MSLR matrices) and L2 (the merge algorithms on the matrix without a Condorcet winner), ``claims``."""

import math

import numpy as np
import pandas as pd

from dts_reproduction.reproduce.claims.registry import LARGE_SCALE
from dts_reproduction.reproduce.claims.verdict import (
    Estimate,
    Site,
    above,
    by_name,
    checked,
    final,
    log_slope,
    mean_se,
    need,
    worst,
)
from dts_reproduction.reproduce.config.paper import LONG_SUFFIX
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_panels import CONDORCET_MATRICES, MSLR_MATRICES

GAP_AVERAGE_FACTOR = 0.5  # MergeDTS regret per slot 0.5 (gap(a1) + gap(a2)) = GAP_AVERAGE_FACTOR x the stored G2W


def regret_per_slot(result, decades_before_end: int = 0) -> float:
    """The mean Copeland regret per slot over one decade of t, read from the mean curve: from the last checkpoint
    at or below T / 10^(n + 1) to the last at or below T / 10^n, n = ``decades_before_end`` (0: the last decade).
    A rate that stays the same from one decade to the next is linear regret; one that falls is still settling.
    NaN where the curve has no two checkpoints in that decade (short horizons)."""
    t = result.checkpoints
    end_t = t[-1] // 10 ** decades_before_end
    end, start = (int(np.searchsorted(t, limit, side="right")) - 1 for limit in (end_t, end_t // 10))
    if start < 0 or end <= start:
        return math.nan
    curve = result.regret.mean(axis=0)
    return float((curve[end] - curve[start]) / (t[end] - t[start]))


def final_rows(results: dict) -> pd.DataFrame:
    """Per drawn line: R(T) (Copeland, Eq. 1), the G2W regret and the MergeDTS authors' regret (G2W x 1/2) at T,
    mean and s.e. over runs, the slope of R against ln t over the last decade, and the regret per slot over the
    last decade and the one before (``regret_per_slot``)."""
    rows = []
    for title, curves in results.items():
        for res in curves:
            copeland, g2w = final(res), mean_se(res.g2w[:, -1])
            rows.append({"panel": title, "dataset": res.line.dataset, "label": res.label, "horizon": res.line.horizon,
                         "runs": res.final.shape[0], "copeland_regret": copeland.value, "copeland_se": copeland.se,
                         "g2w_regret": g2w.value, "g2w_se": g2w.se,
                         "mergedts_regret": GAP_AVERAGE_FACTOR * g2w.value,
                         "mergedts_se": GAP_AVERAGE_FACTOR * g2w.se,
                         "slope_last_decade": log_slope(res).value,
                         "regret_per_slot_last_decade": regret_per_slot(res),
                         "regret_per_slot_decade_before": regret_per_slot(res, 1),
                         "seconds_per_run": res.meta.get("worker_seconds", math.nan) / res.final.shape[0]})
    return pd.DataFrame(rows)


def g2w_final(result) -> Estimate:
    """Mean and s.e. of the G2W regret at T (the MergeDTS authors' regret is GAP_AVERAGE_FACTOR times it)."""
    return mean_se(result.g2w[:, -1])


def claims(results: dict) -> list[dict]:
    """L1: MergeDTS below exact D-TS on each Condorcet MSLR matrix (the MergeDTS authors' regret), at T = 1e7 and
    1e8, default and "best" settings.  L2: on Informational (no Condorcet winner) the merge algorithms' Copeland
    regret against D-TS's at T = 1e7, and whether it grows linearly (slope over the last decade above D-TS's)."""
    rows = []
    for dataset, title in CONDORCET_MATRICES:
        curves = by_name(results[title])
        for suffix in ("", LONG_SUFFIX):
            for merge in ("MergeDTS", "MergeDTS (best)"):
                def check(merge=merge + suffix, dts="D-TS" + suffix, best="D-TS (best)" + suffix, curves=curves):
                    """(text, verdict): D-TS's and D-TS (best)'s G2W regret above MergeDTS's at T (worst of both)."""
                    m, d = need(curves, merge, dts)
                    verdicts = [above(g2w_final(d), g2w_final(m))]
                    text = f"MergeDTS-regret at T: {merge} {GAP_AVERAGE_FACTOR * g2w_final(m).value:.4g}, " \
                           f"{dts} {GAP_AVERAGE_FACTOR * g2w_final(d).value:.4g}"
                    if best in curves:
                        verdicts.append(above(g2w_final(curves[best]), g2w_final(m)))
                        text += f", {best} {GAP_AVERAGE_FACTOR * g2w_final(curves[best]).value:.4g}"
                    return text, worst(*verdicts)
                site = Site(f"{LARGE_SCALE}:{dataset}", f"{title}{suffix}").curve(merge + suffix, merge)
                rows.append(checked("L1", site, f"MergeDTS-regret at T: {merge} below D-TS "
                                    "and, where drawn, D-TS (best)", check))
    informational_key, informational_title = MSLR_MATRICES[3]
    informational = by_name(results[informational_title])
    for merge in ("MergeDTS", "MergeDTS (best)", "MergeRUCB", "MergeRUCB (best)"):
        def check_nc(merge=merge):
            """(text, verdict): the merge algorithm's Copeland regret at T and its last-decade slope above D-TS's."""
            m, d = need(informational, merge, "D-TS")
            verdicts = (above(final(m), final(d)), above(log_slope(m), log_slope(d)))
            return (f"R(T) {final(m)} vs D-TS {final(d)}; slope per ln t over the last decade {log_slope(m)} vs "
                    f"{log_slope(d)}"), worst(*verdicts)
        site = Site(f"{LARGE_SCALE}:{informational_key}", informational_title).curve(merge, merge)
        rows.append(checked("L2", site, f"Copeland regret at T and slope per ln t over the last decade: {merge} above "
                                        "D-TS", check_nc))
    return rows
