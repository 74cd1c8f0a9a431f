"""The asymptotic study's checks (docs/asymptotic.md#claims): per Condorcet panel, C5 at T = 2**53 and A1-A7, each
decided on the fitted limit of a slope (``decades.slope_limit``) by the limit rule (``claims.verdict.reaches_limit``);
A7 on Theorem 2's parts of D-TS's regret (``decade_pairs.class_limit_rows``)."""

import math

import numpy as np
import pandas as pd

from dts_reproduction.reproduce.claims import paper_checks as pc
from dts_reproduction.reproduce.claims.registry import ASYMPTOTIC
from dts_reproduction.reproduce.claims.verdict import (
    Estimate,
    Missing,
    Site,
    by_name,
    checked,
    exceeds,
    limit_above,
    need,
    reaches_limit,
)
from dts_reproduction.reproduce.config.scale import power_of_ten
from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_lines import (
    ORACLE_OPTIMAL,
    ORACLE_WINNER,
    RMED2_PAPER,
)
from dts_reproduction.reproduce.studies.asymptotic_study.decades import (
    decade_slopes,
    linear,
    slope_limit,
    trapped,
    untrapped,
)

# C_w and C differ when C_w exceeds C by more than this share (they are equal, up to rounding, when the winner is
# every arm's optimal partner): then C_w is drawn beside C and A5 also checks that D-TS's limit is above C.
WINNER_APART = 1e-3


def limit_of(r: dict, name: str):
    """The fitted limit of the slope of the curve ``name`` (``decades.slope_limit``); ``Missing`` if the curve is not
    computed or has fewer than three decades past 1e6 and the hump."""
    fit = slope_limit(decade_slopes(need(r, name)[0]))
    if fit is None:
        raise Missing(f"{name}: fewer than three decades past 1e6 and the hump")
    return fit


def limit_text(fit) -> str:
    """How a claims row prints a fitted limit: value +- standard error, and its model-error tolerance."""
    return f"{fit.limit} (tolerance {fit.tolerance:.1f})"


def reaches(claim: str, site: Site, r: dict, name: str, target: float, what: str) -> dict:
    """A check "the slope of ``name`` tends to ``target`` (named ``what``)", decided on its fitted limit by the limit
    rule (``claims.verdict.reaches_limit``)."""
    def check():
        """(text, verdict) of the check."""
        fit = limit_of(r, name)
        return (f"{r[name].label} slope limit {limit_text(fit)}; {what} {target:.1f}",
                reaches_limit(fit.limit, fit.tolerance, target))
    label = r[name].label if name in r else name
    return checked(claim, site, f"{label}'s slope limit within 2 s.e. and its tolerance of {what}", check)


def part_row(parts: pd.DataFrame, name: str, part: str) -> pd.Series:
    """The row of ``decade_pairs.class_limit_rows`` (one panel's) of the line ``name`` and class ``part``;
    ``Missing`` if the line's regret is not split by decade."""
    row = parts[(parts["algorithm"] == name) & (parts["part"] == part)]
    if row.empty or not np.isfinite(row["limit"].iloc[0]):
        raise Missing(f"{name}'s regret split by decade ({part})")
    return row.iloc[0]


def part_estimate(row: pd.Series) -> Estimate:
    """The fitted limit of one class's regret per ln t (a ``part_row``)."""
    return Estimate(float(row["limit"]), float(row["limit_se"]))


def theorem2_claims(site: Site, parts: pd.DataFrame) -> list[dict]:
    """A7 on a panel whose regret is split by decade (``decade_pairs``): D-TS's regret per ln t with the strongest
    superiors that are not the winner tends to a positive limit, and with the remaining arms to 0; each part only
    where its class of pairs is not empty."""
    def stays():
        """(text, verdict) of part 2."""
        row = part_row(parts, "dts", "superior")
        return (f"D-TS's regret per ln t with strongest superiors other than the winner: limit "
                f"{part_estimate(row)}, last decade {row['last_decade']:.1f} +- {row['last_decade_se']:.1f} "
                f"({int(row['runs'])} runs)", exceeds(part_estimate(row), 0.0))

    def fades():
        """(text, verdict) of part 3."""
        row = part_row(parts, "dts", "other")
        return (f"D-TS's regret per ln t with the remaining arms: limit {part_estimate(row)} (tolerance "
                f"{row['tolerance']:.1f}), weight of ln ln t {row['loglog_weight']:.1f} +- "
                f"{row['loglog_weight_se']:.1f} ({int(row['runs'])} runs)",
                reaches_limit(part_estimate(row), float(row["tolerance"]), 0.0))
    first = parts.iloc[0]
    rows = [checked("A7", site.curve("superior", "strongest superiors"), "above 0: part 2 grows like ln t", stays)]\
        if first["superiors_not_winner"] else []
    return rows + ([checked("A7", site.curve("other", "remaining arms"), "limit 0 (2 s.e. and its tolerance): part 3 "
                            "grows like ln ln t", fades)] if first["remaining_pairs"] else [])


def panel_claims(key: str, title: str, curves, lower_bounds, dataset, parts: pd.DataFrame) -> list[dict]:
    """The claim rows of the panel ``key`` (``Panel.key``), titled ``title``, on ``dataset`` (only C5 and A1-A7 on
    the Condorcet panels; A7 where ``parts``, the panel's ``decade_pairs.class_limit_rows``, has rows);
    ``lower_bounds``: ``asymptotic_tables.lower_bounds_of``'s."""
    if not dataset.has_condorcet_winner:
        return []
    constant, _model, winner = lower_bounds[key]
    site = pc.panel_site(ASYMPTOTIC, "Asymptotic", key, title)
    r = by_name(curves)
    logarithmic = {name: untrapped(res) for name, res in r.items()}
    left_out = {name: pc.TrappedRuns(int(trapped(res).sum()), res.final.size, linear(res)) for name, res in r.items()
                if trapped(res).any()}
    rows = [pc.c5_same_slope_lower_constant(site, logarithmic, left_out),
            reaches("A1", site, r, "dts", constant, "C"),
            reaches("A2", site.curve("rmed2", "RMED2"), r, "rmed2", constant, "C"),
            reaches("A2", site.curve(RMED2_PAPER.tag, RMED2_PAPER.tag), r, RMED2_PAPER.tag, constant, "C")]

    def same_limit():
        """(text, verdict) of A3: the difference of the two limits against 0."""
        dts, plus = limit_of(r, "dts"), limit_of(r, "dts_plus")
        difference = Estimate(plus.limit.value - dts.limit.value, math.hypot(plus.limit.se, dts.limit.se))
        tolerance = math.hypot(plus.tolerance, dts.tolerance)
        return (f"slope limits: D-TS {limit_text(dts)}, D-TS+ {limit_text(plus)}; difference {difference}",
                reaches_limit(difference, tolerance, 0.0))
    rows.append(checked("A3", site, "D-TS+'s and D-TS's slope limits differ by less than 2 s.e. and their "
                        "tolerances", same_limit))

    def loglog_term():
        """(text, verdict) of A4."""
        fit = limit_of(r, "dts")
        return (f"D-TS slope(t) = {fit.limit} + ({fit.loglog}) / ln t over {fit.decades} decades from "
                f"{power_of_ten(fit.start)}",
                exceeds(fit.loglog, 0.0))
    rows.append(checked("A4", site, "D-TS's weight of ln ln t above 0", loglog_term))
    rows.append(reaches("A5", site, r, "dts", winner, "C_w"))
    if winner > constant * (1.0 + WINNER_APART):
        def not_c():
            """(text, verdict) of A5's second half: where C_w and C differ, the limit is above C."""
            fit = limit_of(r, "dts")
            return (f"D-TS slope limit {limit_text(fit)}; C {constant:.1f}",
                    limit_above(fit.limit, fit.tolerance, constant))
        rows.append(checked("A5", site.curve("above_C", "not C"), "D-TS's slope limit above C by more than 2 s.e. "
                            "and its tolerance", not_c))
    rows += [reaches("A6", site.curve(oracle.tag, oracle.tag), r, oracle.tag, target, what)
             for oracle, target, what in ((ORACLE_OPTIMAL, constant, "C"), (ORACLE_WINNER, winner, "C_w"))]
    if not parts.empty:
        rows += theorem2_claims(site, parts)
    return rows
