"""The successors study's claims (``claims``, ``figures/successors_claims.csv``), each stated in
``reproduce.claims.registry`` before its lines were computed and decided by the one verdict rule
(``reproduce.claims.verdict``):

* S1: with a Condorcet winner, D-TS's Copeland regret at T is below each successor's, RMED1's and ECW-RMED's (one row
  per matrix and competitor; D-TS+ is D-TS's twin there, claim C1, and not a competitor).
* S2: without one, D-TS+'s is below each successor's, RMED1's and ECW-RMED's (D-TS is its own predecessor).
* S3: Versatile-DB within a constant factor of RMED1 on Condorcet data (Saha & Gaillard's theorem: both are
  O(sum_i log T / Delta_i)), read as: its regret is logarithmic, as RMED1's is proven to be -- its slope per ln t over
  the last decade below CLEAR_FACTOR times its slope over the decade before (a regret of order sqrt(t) multiplies its
  slope by sqrt(10) a decade).  The rule first stated, Versatile-DB's regret over RMED1's at T at most the same ratio
  at T/10, was replaced after the first runs (docs/successors.md#s3-the-rule-replaced): the ratio of two logarithmic
  regrets rises towards the ratio of their slopes, so it failed wherever Versatile-DB's constant is the larger.
* S4: C2B's slope per ln T over its long lines, T = 1e10 to 1e15 (``long_slope``), is the bound C, within the
  noise and only where the runs resolve it (``resolved_limit``: no tolerance, the runs alone decide).
* S5: with a Condorcet winner, WS-W's weak regret at T is below every other algorithm's (Chen & Frazier's setting).
* S6: Versatile-DB's regret at T below CLEAR_FACTOR times the lowest of the algorithms published before it.
* S7: WS-S's Copeland (strong) and WS-W's weak regret below each algorithm published before them (one row each per
  matrix, its verdict the worst over those algorithms).
* S8: CW-RMED's Copeland regret at T at most ECW-RMED's, on every matrix it runs on.
* S9: C2B's regret at T within COMPARABLE_FACTOR of RMED1's (the fully sequential algorithm of the same bound).
* S10: REX3's regret over the last decade grows by less than sqrt(10): R(T) < sqrt(10) R(T/10).
* S11: CW-RMED's slope per ln T over its long line, T = 1e10 to 1e15 (per run, ``log_slope`` over CW_RMED_FIT_SPAN),
  is its theorem's constant C*(P) (``cw_rmed_program.program_constant``), by ``resolved_limit`` as S4.
"""

import math

import numpy as np

from dts_reproduction.algorithms.cw_rmed_program import program_constant
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.claims.registry import SUCCESSORS
from dts_reproduction.reproduce.claims.verdict import (
    CLEAR_FACTOR,
    COMPARABLE_FACTOR,
    Estimate,
    Missing,
    Site,
    above,
    at,
    at_most,
    below_factor,
    by_name,
    checked,
    final,
    log_slope,
    mean_se,
    need,
    ratio_of,
    resolved_limit,
    within_factor,
    worst,
)
from dts_reproduction.reproduce.harness import portable_math
from dts_reproduction.reproduce.studies.successors_study.successors_panels import (
    BASELINES,
    PANELS,
    PUBLISHED,
    SUCCESSOR_ALGORITHMS,
)
from dts_reproduction.reproduce.studies.successors_study.successors_tables import decade_slope

# S4's fit takes the last six horizons of the long lines, T = 1e10 to 1e15 at the study's scale: from T = 1e10 on C2B's
# batch lengths (q = T^(1 / ceil(ln T))) exceed the constant part of its regret bound, O(K^2 log^2 K), by orders of
# magnitude on every matrix of the study (K <= 32).  A smoke run's three horizons are all taken.
LONG_FIT_POINTS = 6
# S11's fit: CW-RMED's last five decades, T = 1e10 to 1e15 at the study's scale (the span of S4's six horizons; a
# smoke run's line of 1e5 is fitted from 1).  One run gives every T, so the per-run slopes are averaged over runs.
CW_RMED_FIT_SPAN = 1e5


def weak(result) -> Estimate:
    """Mean and standard error of the weak regret at T."""
    return mean_se(result.weak[:, -1])


def competitors(reference: str, panel) -> list[str]:
    """The algorithms of ``panel`` that ``reference``'s lowest-regret claim is checked against: every successor, RMED1
    and ECW-RMED that run on its matrix (D-TS and D-TS+ are the reference and its twin)."""
    names = [curve.algorithm for curve in panel.curves()]
    return [name for name in (*SUCCESSOR_ALGORITHMS, *BASELINES[2:]) if name in names and name != reference]


def lowest_rows(claim: str, reference: str, condorcet: bool, metric, statement: str, results: dict,
                others=None) -> list[dict]:
    """One row per panel whose matrix has a Condorcet winner as ``condorcet`` says, and per competitor of
    ``reference`` there (``others(panel)``, default ``competitors``): ``reference`` below it in ``metric`` (a
    function of a ``LineResult`` giving an ``Estimate``) at T."""
    rows = []
    for panel in PANELS:
        if load_dataset(panel.dataset).has_condorcet_winner != condorcet:
            continue
        curves = by_name(results.get(panel.title, []))
        for other in (others or (lambda p: competitors(reference, p)))(panel):
            def check(other=other, curves=curves):
                """(measured, verdict): the competitor above the reference."""
                ref, comp = need(curves, reference, other)
                return f"{reference} {metric(ref)}, {other} {metric(comp)}", above(metric(comp), metric(ref))
            site = Site(f"{SUCCESSORS}:{panel.key}", panel.title).curve(other, other)
            rows.append(checked(claim, site, statement.format(reference=reference, other=other), check))
    return rows


def logarithmic(_panel, curves) -> tuple[str, str]:
    """S3: Versatile-DB's slope per ln t over the last decade below CLEAR_FACTOR times its slope over the decade
    before (``successors_tables.decade_slope``)."""
    (versatile,) = need(curves, "versatile_db")
    last, before = decade_slope(versatile), decade_slope(versatile, 1)
    return (f"slope per ln t over the last decade {last}, over the decade before {before}",
            below_factor(last, before, CLEAR_FACTOR))


def panel_rows(claim: str, algorithm: str, statement: str, check_panel, condorcet: bool | None,
               results: dict) -> list[dict]:
    """One row of ``claim`` per panel (those with a Condorcet winner as ``condorcet`` says; None: every panel) on which
    ``algorithm`` runs: ``check_panel(panel, curves)`` gives (measured, verdict) from the panel's stored curves
    ({name: LineResult}), ``Missing`` making it "not measured"."""
    rows = []
    for panel in PANELS:
        names = [curve.algorithm for curve in panel.curves()]
        if algorithm not in names or (condorcet is not None
                                      and load_dataset(panel.dataset).has_condorcet_winner != condorcet):
            continue
        curves = by_name(results.get(panel.title, []))
        site = Site(f"{SUCCESSORS}:{panel.key}", panel.title).curve(algorithm, algorithm)
        rows.append(checked(claim, site, statement, lambda panel=panel, curves=curves: check_panel(panel, curves)))
    return rows


def earlier(algorithm: str, panel) -> list[str]:
    """The algorithms of ``panel`` published before ``algorithm`` (``PUBLISHED``)."""
    return [curve.algorithm for curve in panel.curves() if PUBLISHED[curve.algorithm] < PUBLISHED[algorithm]]


def versatile_against_earlier(panel, curves) -> tuple[str, str]:
    """S6: Versatile-DB below CLEAR_FACTOR times the lowest regret at T of the algorithms published before it."""
    others = earlier("versatile_db", panel)
    versatile, *found = need(curves, "versatile_db", *others)
    lowest_name, lowest = min(zip(others, found, strict=True), key=lambda item: final(item[1]).value)
    return (f"versatile_db {final(versatile)}, lowest earlier: {lowest_name} {final(lowest)}",
            below_factor(final(versatile), final(lowest), CLEAR_FACTOR))


def winner_stays_against_earlier(variant: str, metric):
    """S7's check for ``variant`` (ws_s: Copeland regret; ws_w: weak regret): below each algorithm published before
    it, the worst verdict over them, the closest one named."""
    def check(panel, curves):
        """(measured, verdict) of one panel."""
        others = earlier(variant, panel)
        ours, *found = need(curves, variant, *others)
        verdicts = {name: above(metric(res), metric(ours)) for name, res in zip(others, found, strict=True)}
        closest = min(zip(others, found, strict=True), key=lambda item: metric(item[1]).value)
        return (f"{variant} {metric(ours)}; lowest earlier: {closest[0]} {metric(closest[1])}",
                worst(*verdicts.values()))
    return check


def cw_against_ecw(_panel, curves) -> tuple[str, str]:
    """S8: CW-RMED's Copeland regret at T at most ECW-RMED's."""
    cw, ecw = need(curves, "cw_rmed", "ecw_rmed")
    return f"cw_rmed {final(cw)}, ecw_rmed {final(ecw)}", at_most(final(cw), final(ecw))


def c2b_against_rmed1(_panel, curves) -> tuple[str, str]:
    """S9: C2B's regret at T within COMPARABLE_FACTOR of RMED1's."""
    c2b, rmed = need(curves, "c2b", "rmed1")
    return (f"c2b {final(c2b)}, rmed1 {final(rmed)}, ratio {ratio_of(final(c2b), final(rmed))}",
            within_factor(final(c2b), final(rmed), COMPARABLE_FACTOR))


def rex3_growth(_panel, curves) -> tuple[str, str]:
    """S10: REX3's R(T) below sqrt(10) R(T/10)."""
    (rex3,) = need(curves, "rex3")
    now, before = final(rex3), at(rex3, rex3.line.horizon // 10)
    return (f"R(T) {now}, R(T/10) {before}, growth {ratio_of(now, before)}",
            below_factor(now, before, math.sqrt(10.0)))


def weighted_slope(horizons, means, ses, points: int = LONG_FIT_POINTS) -> Estimate:
    """The slope per ln T of points (horizon, mean R(T) +- s.e.) each from its own runs (C2B's long lines): the
    weighted least-squares line of the means against ln T over the last ``points`` horizons (all if fewer), each
    weighted by 1 / its squared standard error; its standard error that of the fit, the points being independent.
    ``Missing`` with fewer than three horizons."""
    horizons = np.asarray(horizons, dtype=np.float64)
    if horizons.size < 3:
        raise Missing("fewer than three horizons of the long lines")
    use = np.arange(horizons.size) >= horizons.size - points
    x = portable_math.log(horizons[use])
    weights = 1.0 / np.maximum(np.asarray(ses, dtype=np.float64)[use], 1e-12) ** 2
    centre = float((weights * x).sum() / weights.sum())
    spread = float((weights * (x - centre) ** 2).sum())
    slope = float((weights * (x - centre) * np.asarray(means, dtype=np.float64)[use]).sum() / spread)
    return Estimate(slope, 1.0 / math.sqrt(spread))


def long_slope(result) -> Estimate:
    """``weighted_slope`` of a curve combined over its horizons (``result.checkpoints`` are the horizons)."""
    runs = result.regret.shape[0]
    return weighted_slope(result.checkpoints, result.regret.mean(axis=0),
                          result.regret.std(axis=0, ddof=1) / math.sqrt(runs))


def c2b_slope_rows(long_lines: dict, bounds: dict) -> list[dict]:
    """S4: per matrix with a Condorcet winner, C2B's last-decade slope (``decade_slope``) of its long lines
    (``long_lines``: {panel title: combined LineResult or None}) against the bound C (``bounds``: {matrix: C})."""
    rows = []
    for panel in PANELS:
        if not load_dataset(panel.dataset).has_condorcet_winner:
            continue

        def check(panel=panel):
            """(measured, verdict): the slope against C."""
            result = long_lines.get(panel.title)
            if result is None:
                raise Missing("c2b's long lines")
            slope, bound = long_slope(result), bounds[panel.dataset]
            first = result.checkpoints[max(len(result.checkpoints) - LONG_FIT_POINTS, 0)]
            return (f"slope per ln T over T = {first:.0e}..{result.checkpoints[-1]:.0e}: {slope}; "
                    f"C = {bound:.4g}", resolved_limit(slope, bound))
        site = Site(f"{SUCCESSORS}:{panel.key}", panel.title).curve("c2b", "c2b")
        rows.append(checked("S4", site, f"C2B's slope per ln T over the last {LONG_FIT_POINTS} horizons of its long "
                                        "lines equals C", check))
    return rows


def cw_rmed_slope_rows(cw_rmed_lines: dict, yardstick_lines: dict | None = None) -> list[dict]:
    """S11: per matrix of CW-RMED's long lines (``cw_rmed_lines``: {panel title: LineResult or None}), its slope per
    ln T over the last CW_RMED_FIT_SPAN of T (the per-run least-squares slopes, mean and s.e.) against its theorem's
    constant C*(P) of the matrix; the measured text also gives the same slope of its yardstick with the program on
    the true matrix (``yardstick_lines``, alike), where it is stored (it does not enter the verdict)."""
    rows = []
    for panel in PANELS:
        if panel.title not in cw_rmed_lines:
            continue

        def check(panel=panel):
            """(measured, verdict): the slope against C*(P)."""
            result = cw_rmed_lines[panel.title]
            if result is None:
                raise Missing("cw_rmed's long line")
            slope, target = log_slope(result, span=CW_RMED_FIT_SPAN), program_constant(load_dataset(panel.dataset).P)
            yardstick = (yardstick_lines or {}).get(panel.title)
            extra = "" if yardstick is None else \
                f"; with the program on the true matrix {log_slope(yardstick, span=CW_RMED_FIT_SPAN)}"
            return (f"slope per ln T over T = {result.line.horizon / CW_RMED_FIT_SPAN:.0e}..{result.line.horizon:.0e}: "
                    f"{slope}; C*(P) = {target:.4g}{extra}", resolved_limit(slope, target))
        site = Site(f"{SUCCESSORS}:{panel.key}", panel.title).curve("cw_rmed", "cw_rmed")
        rows.append(checked("S11", site, "CW-RMED's slope per ln T over the last five decades of its long line equals "
                                         "its theorem's constant C*(P)", check))
    return rows


def claims(results: dict, long_lines: dict, bounds: dict, anytime: dict | None = None) -> list[dict]:
    """Every row of the study's claims table from ``results`` ({panel title: [LineResult]}, the stored curves),
    C2B's long lines (``long_lines``, {panel title: LineResult or None}), the bounds C (``bounds``, {matrix: C}) and
    the anytime long lines (``anytime``, ``successors_run.anytime_long``'s {name: {panel title: LineResult or None}});
    a curve a row needs and that is not stored makes it "not measured"."""
    every_other = {"others": lambda panel: [curve.algorithm for curve in panel.curves() if curve.algorithm != "ws_w"]}
    return [*lowest_rows("S1", "dts", True, final, "Copeland regret at T: {other} above {reference}", results),
            *lowest_rows("S2", "dts_plus", False, final, "Copeland regret at T: {other} above {reference}", results),
            *panel_rows("S3", "versatile_db", f"Versatile-DB's slope per ln t over the last decade below "
                        f"{CLEAR_FACTOR:g} x its slope over the decade before", logarithmic, True, results),
            *c2b_slope_rows(long_lines, bounds),
            *lowest_rows("S5", "ws_w", True, weak, "weak regret at T: {other} above {reference}", results,
                         **every_other),
            *panel_rows("S6", "versatile_db", f"Copeland regret at T: Versatile-DB below {CLEAR_FACTOR:g} x the "
                        "smallest regret among earlier algorithms", versatile_against_earlier, True, results),
            *panel_rows("S7", "ws_s", "Copeland (strong) regret at T: WS-S below each algorithm published before it",
                        winner_stays_against_earlier("ws_s", final), True, results),
            *panel_rows("S7", "ws_w", "weak regret at T: WS-W below each algorithm published before it",
                        winner_stays_against_earlier("ws_w", weak), True, results),
            *panel_rows("S8", "cw_rmed", "Copeland regret at T: CW-RMED at most ECW-RMED", cw_against_ecw, None,
                        results),
            *panel_rows("S9", "c2b", f"regret at T: C2B within a factor {COMPARABLE_FACTOR:g} of RMED1",
                        c2b_against_rmed1, True, results),
            *panel_rows("S10", "rex3", "regret over the last decade: R(T) below sqrt(10) R(T/10)", rex3_growth, None,
                        results),
            *cw_rmed_slope_rows((anytime or {}).get("cw_rmed", {}), (anytime or {}).get("cw_rmed_true"))]
