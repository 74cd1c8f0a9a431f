"""Why the large-scale study's checks that do not hold do not (its ``Study.reasons``, attached in
``large_scale_report``): L1, MergeDTS against an exact D-TS on the Condorcet MSLR matrices, and L2, the merge
algorithms on the matrix without a Condorcet winner.  Each entry is a ``reproduce.claims.reasons.Reason`` keyed by
(claim label, site id), as the paper figures' shared ``reproduce.claims.reasons.REASONS``; its text computes its
numbers from the study's final table (``large_scale_claims.final_rows``)."""

import math

import pandas as pd

from dts_reproduction.reproduce.claims.reasons import (
    LATER_CLAIM,
    STILL_EXPLORING,
    VERDICTS_DOC,
    Numbers,
    Reason,
    site,
)
from dts_reproduction.reproduce.claims.registry import LARGE_SCALE
from dts_reproduction.reproduce.claims.verdict import NOT_FALLING, WIDE_SPREAD, Estimate, stable_slope
from dts_reproduction.reproduce.config.paper import LONG_SUFFIX
from dts_reproduction.reproduce.config.scale import power_of_ten
from dts_reproduction.reproduce.studies.large_scale_study.large_scale_panels import MSLR_MATRICES

MERGE_DOC = f"{VERDICTS_DOC}#mergedts-against-an-exact-d-ts"
NO_WINNER_DOC = f"{VERDICTS_DOC}#the-merge-algorithms-without-a-condorcet-winner"
# The ids of its panels (a)-(d): their matrices (``large_scale_panels.MSLR_MATRICES``).
PERFECT, NAVIGATIONAL, CDC, INFORMATIONAL = (dataset for dataset, _title in MSLR_MATRICES)


def large_scale_row(n: Numbers, panel: str, label: str) -> pd.Series:
    """The final-regret row of the curve ``label`` on the panel ``panel`` (its id: its matrix) of the large-scale
    study."""
    table = n.finals[LARGE_SCALE]
    return table[(table["panel_id"] == panel) & (table["label"] == label)].iloc[0]


def mergedts_against_dts(panel: str, merge: str, suffix: str = "") -> Reason:
    """L1 on ``panel``: the MergeDTS regret (mean +- s.e.) of ``merge``, D-TS and, where drawn, D-TS (best), each
    label with ``suffix`` (e.g. ", T=1e8", the long lines), and how much of each one's regret is still growing
    (its slope per ln t over the last decade)."""
    def text(n: Numbers) -> str:
        """The MergeDTS regrets at T, the ratio of ``merge``'s to D-TS's and the last-decade slopes."""
        drawn = set(n.finals[LARGE_SCALE].query("panel_id == @panel")["label"])
        labels = [label + suffix for label in (merge, "D-TS", "D-TS (best)") if label + suffix in drawn]
        rows = {label: large_scale_row(n, panel, label) for label in labels}
        slopes = {label: stable_slope(float(row["slope_last_decade"]), float(row["mergedts_regret"]))
                  for label, row in rows.items()}
        parts = [f"{label} {Estimate(float(row['mergedts_regret']), float(row['mergedts_se']))} (slope "
                 f"{slopes[label]:.3g} per ln t)" for label, row in rows.items()]
        m, d = merge + suffix, "D-TS" + suffix
        ratio = float(rows[m]["mergedts_regret"] / rows[d]["mergedts_regret"])
        growing = f"; D-TS's regret still grows faster than {merge}'s" if slopes[d] > slopes[m] else ""
        spread = float(rows[m]["mergedts_se"]) * math.sqrt(float(rows[m]["runs"])) / float(rows[m]["mergedts_regret"])
        tail = (f"; {merge}'s runs spread widely (standard deviation {spread:.1f}x its mean): a few runs carry "
                "its mean" if spread > WIDE_SPREAD else "")
        return (f"MergeDTS regret at T = {power_of_ten(rows[m]['horizon'])}: {'; '.join(parts)}; {merge} is "
                f"{ratio:.2f}x exact D-TS{growing}{tail}")
    return Reason(LATER_CLAIM, MERGE_DOC, text)


def merge_without_condorcet(panel: str, merge: str) -> Reason:
    """L2 on ``panel`` (no Condorcet winner): the Copeland regret at T of ``merge`` and D-TS, and each one's regret
    per slot over the last decade and the one before: whether D-TS's has begun to fall, and, where ``merge`` has a
    long line, whether its rate stays the same up to T = 1e8 (linear regret)."""
    def rates(row: pd.Series) -> str:
        """The row's regret per slot over the last decade and the one before."""
        return (f"{row['regret_per_slot_last_decade']:.2g} a slot over the last decade "
                f"({row['regret_per_slot_decade_before']:.2g} over the one before)")

    def falling(row: pd.Series) -> bool:
        """Whether the row's regret per slot has fallen from the decade before to the last (NOT_FALLING)."""
        return row["regret_per_slot_last_decade"] < NOT_FALLING * row["regret_per_slot_decade_before"]

    def text(n: Numbers) -> str:
        """The two regrets at T, their rates, and the long line's rate where it is drawn."""
        m, d = large_scale_row(n, panel, merge), large_scale_row(n, panel, "D-TS")
        at_t = (f"Copeland regret at T = {power_of_ten(d['horizon'])}: {merge} "
                f"{Estimate(float(m['copeland_regret']), float(m['copeland_se']))}, D-TS "
                f"{Estimate(float(d['copeland_regret']), float(d['copeland_se']))}")
        dts = (f"D-TS {rates(d)}: " + ("falling, it has begun to settle" if falling(d) else
                                       "not falling, it is still exploring the arm pairs at this horizon"))
        parts = [at_t, dts, f"{merge} {rates(m)}"]
        long_label = merge + LONG_SUFFIX
        if long_label in set(n.finals[LARGE_SCALE].query("panel_id == @panel")["label"]):
            long = large_scale_row(n, panel, long_label)
            rate = float(long["regret_per_slot_last_decade"])
            span = f"from T = {power_of_ten(d['horizon'])} to {power_of_ten(long['horizon'])}"
            parts.append(f"{span} {merge}'s falls to {rate:.2g} a slot" if falling(long) else
                         f"{span} {merge} keeps {rate:.2g} a slot: linear regret, as its pruning predicts, "
                         f"{d['regret_per_slot_last_decade'] / rate:.1f}x below D-TS's over the decade to T = "
                         f"{power_of_ten(d['horizon'])}")
        return "; ".join(parts)
    return Reason(STILL_EXPLORING, NO_WINNER_DOC, text)


LARGE_SCALE_REASONS: dict[tuple[str, str], Reason] = {
    ("L1", site(LARGE_SCALE, PERFECT, "MergeDTS")): mergedts_against_dts(PERFECT, "MergeDTS"),
    ("L1", site(LARGE_SCALE, PERFECT, "MergeDTS (best)")): mergedts_against_dts(PERFECT, "MergeDTS (best)"),
    ("L1", site(LARGE_SCALE, PERFECT, "MergeDTS" + LONG_SUFFIX)): mergedts_against_dts(PERFECT, "MergeDTS",
                                                                                       LONG_SUFFIX),
    ("L1", site(LARGE_SCALE, NAVIGATIONAL, "MergeDTS")): mergedts_against_dts(NAVIGATIONAL, "MergeDTS"),
    ("L1", site(LARGE_SCALE, NAVIGATIONAL, "MergeDTS" + LONG_SUFFIX)): mergedts_against_dts(NAVIGATIONAL, "MergeDTS",
                                                                                            LONG_SUFFIX),
    ("L1", site(LARGE_SCALE, CDC, "MergeDTS")): mergedts_against_dts(CDC, "MergeDTS"),
    ("L1", site(LARGE_SCALE, CDC, "MergeDTS (best)")): mergedts_against_dts(CDC, "MergeDTS (best)"),
    ("L1", site(LARGE_SCALE, CDC, "MergeDTS" + LONG_SUFFIX)): mergedts_against_dts(CDC, "MergeDTS", LONG_SUFFIX),
    ("L1", site(LARGE_SCALE, CDC, "MergeDTS (best)" + LONG_SUFFIX)): mergedts_against_dts(CDC, "MergeDTS (best)",
                                                                                         LONG_SUFFIX),
    **{("L2", site(LARGE_SCALE, INFORMATIONAL, merge)): merge_without_condorcet(INFORMATIONAL, merge)
       for merge in ("MergeDTS", "MergeDTS (best)", "MergeRUCB", "MergeRUCB (best)")},
}
