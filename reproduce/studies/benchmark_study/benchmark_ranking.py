"""The benchmark's ranking: on each matrix the algorithms ordered by mean final regret R(T), with the standard error
and the bootstrap interval of every mean, and two verdicts of the claims' one rule (``reproduce.claims.verdict``):
"the first-ranked has lower regret than this one" (on the first-ranked's own row: than each other, the worst of
those) and "this one has lower regret than the reference" (``--against``), marked as not evidence where the run is
(a quick run, or below the paper's scale)."""

import numpy as np
import pandas as pd

from dts_reproduction.reproduce.claims.intervals import bootstrap_interval
from dts_reproduction.reproduce.claims.verdict import (
    NOISE_SE,
    NOT_MEASURED,
    below,
    final,
    not_evidence_verdict,
    worst,
)

# Where a verdict does not apply: the reference against itself, a panel of one curve.
NO_VERDICT = ""
RANKING_COLUMNS = ("matrix", "dataset", "algorithm", "label", "runs", "horizon", "mean_final_regret",
                   "se_final_regret", "ci95_low", "ci95_high", "rank", "verdict_first_lower", "against",
                   "verdict_lower_than_against", "lower_bound_slope", "lower_bound_at_T")
# The verdict rule in one sentence, from the rule's own constant (``claims.verdict.above``).
RULE = (f"\"A has lower regret than B\" holds when B's mean R(T) exceeds A's by more than {NOISE_SE:g} standard "
        f"errors of the difference, reads \"same order, not significant\" when it exceeds it by less, \"opposite "
        f"order, not significant\" when it is below it by less than {NOISE_SE:g} standard errors, and FAILS when "
        f"it is below it by more.")


def ranked(curves) -> list:
    """``curves`` (the LineResults of one panel) ordered by mean R(T), lowest first (ties in the given order)."""
    return sorted(curves, key=lambda res: float(np.mean(res.final)))


def marked(verdict: str, note: str | None) -> str:
    """``verdict`` marked with ``note`` (``not_evidence_verdict``) if the run is not evidence, else as it is."""
    return not_evidence_verdict(verdict, note) if note else verdict


def first_lower(order: list) -> list[str]:
    """The verdicts of "the first-ranked has lower regret than each other" on the ranked curves ``order``: for the
    first-ranked the conjunction over every other (``worst``), for each other the pair's (``below``);
    NO_VERDICT for a panel of one curve."""
    pairs = [below(final(order[0]), final(res)) for res in order[1:]]
    return [worst(*pairs) if pairs else NO_VERDICT, *pairs]


def panel_rows(title: str, curves, entries: dict, against: str | None, bounds: dict, note: str | None) -> list[dict]:
    """The ranking rows of one panel (``RANKING_COLUMNS``): its ``curves`` ranked, each named by its
    ``--algorithms`` entry (``entries``: {line name: entry}), with both verdicts (``first_lower``, and "this one has
    lower regret than ``against``"; NO_VERDICT where one does not apply, NOT_MEASURED against a reference that is not
    among the curves), marked with ``note`` (``marked``), and the panel's lower bound
    (``bounds``: {"lower_bound_slope": C, "lower_bound_at_T": C ln T}, NaN where there is none)."""
    order = ranked(curves)
    reference = {entries[res.line.name]: res for res in curves}.get(against)
    rows = []
    for rank, (res, first) in enumerate(zip(order, first_lower(order), strict=True), start=1):
        estimate = final(res)
        low, high = bootstrap_interval(res.final)
        entry = entries[res.line.name]
        if against is None or entry == against:
            versus = NO_VERDICT
        else:
            versus = NOT_MEASURED if reference is None else below(estimate, final(reference))
        rows.append({"matrix": title, "dataset": res.line.dataset, "algorithm": entry, "label": res.label,
                     "runs": int(res.final.size), "horizon": int(res.line.horizon),
                     "mean_final_regret": estimate.value, "se_final_regret": estimate.se,
                     "ci95_low": float(low), "ci95_high": float(high), "rank": rank,
                     "verdict_first_lower": marked(first, note) if first else first,
                     "against": against or NO_VERDICT,
                     "verdict_lower_than_against": marked(versus, note) if versus else versus,
                     "lower_bound_slope": bounds.get("lower_bound_slope", np.nan),
                     "lower_bound_at_T": bounds.get("lower_bound_at_T", np.nan)})
    return rows


def ranking_table(results, entries: dict, against: str | None, final_regrets: pd.DataFrame,
                  note: str | None) -> pd.DataFrame:
    """The ranking of every panel of ``results`` ([(title, [LineResult])], ``simulate_panels``), ``RANKING_COLUMNS``
    (``panel_rows``); the lower bounds are read from ``final_regrets`` (``regret_panels.draw_regret_panels``' table:
    a row per curve with its panel's bound), ``note`` marks the verdicts as not evidence."""
    bounds = final_regrets.groupby("panel", sort=False)[["lower_bound_slope", "lower_bound_at_T"]].first()
    rows = [row for title, curves in results
            for row in panel_rows(title, curves, entries, against,
                                  bounds.loc[title].to_dict() if title in bounds.index else {}, note)]
    return pd.DataFrame(rows, columns=list(RANKING_COLUMNS))
