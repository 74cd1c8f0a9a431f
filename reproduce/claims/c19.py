"""C19, the paper's summary claim, checked per regret panel of its figures (``EVERY_CLAIM["C19"].figures``).

Unlike the other checks it reads no curves: it compares the final regrets R(T) that Figs. 1, 3 and 4 write
(``<figures>/<stem>_final.csv``, one row per panel and algorithm with ``mean_final_regret`` and
``sem_final_regret``, as the report reads them: with each row's ``panel_id``, ``reporting.claims_report.with_panel_id``)
and returns claims-table rows (``reproduce.claims.verdict.claim_row``) that
``reproduce/report.py`` adds to the figures' own.
"""

import pandas as pd

from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.claims.paper_checks import DTS_FAMILY
from dts_reproduction.reproduce.claims.registry import EVERY_CLAIM
from dts_reproduction.reproduce.claims.verdict import (
    CLEAR_FACTOR,
    COMPARABLE_FACTOR,
    NOT_MEASURED,
    Estimate,
    Site,
    above,
    below,
    best,
    claim_row,
    within_factor,
    worst,
)

C19 = EVERY_CLAIM["C19"]
# Not "existing methods" of the summary: pure D-TS, and ECW-RMED (compared separately), including its
# fixed-order curve on Gap (tagged "ECW-RMED (fixed order)").
NOT_COMPARED_IN_C19 = ("pure_dts", "ecw_rmed")
C19_EXCEPTIONS = ("strong_borda",)  # by panel id: the paper's own exception, SAVAGE is lowest there (C2, C7)


def c19_rows(finals: dict[str, pd.DataFrame], lines: dict[str, pd.DataFrame] | None = None) -> list[dict]:
    """C19 per regret panel of ``finals`` ({table stem: final table}; only the stems of ``C19.figures`` are read):
    every other baseline CLEAR_FACTOR times above the better D-TS variant ("significantly outperform"), and
    against ECW-RMED CLEAR_FACTOR times lower on Condorcet panels, lower or within COMPARABLE_FACTOR otherwise.
    A panel some of whose curves are not computed yet (``lines``: the figures' ``_lines.csv``, runs 0) is
    not measured; StrongBorda, where the paper itself reports SAVAGE lowest (C2, C7), is left out.  The D-TS
    variants are those the panel draws (``lines``: the lines of the panel's matrix; D-TS alone on the 500-armed panel),
    both without ``lines``.  Each row's site is its figure's panel: "<stem>:<panel id>", shown as "<stem> <panel
    title>"."""
    rows = []
    for stem in C19.figures:
        if stem not in finals:
            continue
        drawn = (lines or {}).get(stem)
        for title, panel in finals[stem].groupby("panel", sort=False):
            panel_id, dataset = panel["panel_id"].iloc[0], panel["dataset"].iloc[0]
            if panel_id in C19_EXCEPTIONS:
                continue
            estimates = {row.algorithm: Estimate(row.mean_final_regret, row.sem_final_regret)
                         for row in panel.itertuples()}
            site = Site(f"{stem}:{panel_id}", f"{stem} {title}")
            on_panel = set(drawn.loc[drawn["dataset"] == dataset, "algorithm"]) if drawn is not None else set()
            family = [name for name in DTS_FAMILY if name in on_panel] or list(DTS_FAMILY)
            missing = sorted(set(drawn.loc[(drawn["dataset"] == dataset) & (drawn["runs"] == 0), "algorithm"])) \
                if drawn is not None else []
            missing += [name for name in family if name not in estimates and name not in missing]
            if missing:
                rows.append(claim_row("C19", site, C19.statement, f"missing: {', '.join(missing)}", NOT_MEASURED))
                continue
            ours = [estimates[name] for name in family]
            mine = min(ours, key=lambda e: e.value)
            others = {name: e for name, e in estimates.items()
                      if name not in DTS_FAMILY + NOT_COMPARED_IN_C19 and not name.startswith("ECW-RMED")}
            verdicts = [above(e, mine, CLEAR_FACTOR) for e in others.values()]
            measured = f"best D-TS variant {mine}"
            if others:
                runner_up = min(others, key=lambda name: others[name].value)
                measured += f"; best other baseline {runner_up} {others[runner_up]}"
            if "ecw_rmed" in estimates:
                ecw = estimates["ecw_rmed"]
                if load_dataset(dataset).has_condorcet_winner:
                    verdicts.append(above(ecw, mine, CLEAR_FACTOR))
                else:
                    verdicts.append(best(below(mine, ecw), within_factor(mine, ecw, COMPARABLE_FACTOR)))
                measured += f"; ECW-RMED {ecw}"
            rows.append(claim_row("C19", site, C19.statement, measured, worst(*verdicts)))
    return rows
