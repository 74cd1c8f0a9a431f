"""The limit rule of the asymptotic claims (docs/asymptotic.md#what-is-measured): the model-error tolerance of a fitted
limit (``decades.model_error``) on curves whose answer is known, the verdicts ``reaches_limit`` and ``limit_above``,
and, on the committed tables, that no claim of a limit holds while its limit is more than 2 standard errors and its
tolerance from the value it names."""

import math

import numpy as np
import pandas as pd
import pytest

from dts_reproduction.reproduce.claims.verdict import (
    FAILS,
    HOLDS,
    NOT_SIGNIFICANT,
    OPPOSITE_NOT_SIGNIFICANT,
    Estimate,
    limit_above,
    reaches_limit,
)
from dts_reproduction.reproduce.harness.paths import ROOT
from dts_reproduction.reproduce.reporting.claims_report import read_study_tables
from dts_reproduction.reproduce.studies.asymptotic_study import decades

FIGURES = ROOT / "figures"
ENDS = np.array([10**k for k in range(6, 16)] + [2**53])


def per_run_values(limits, weights, extra=None):
    """Per-run decade values limit + weight / ln t (``decades.inverse_log``) at ENDS, plus ``extra`` (decades,) for
    every run."""
    x = decades.inverse_log(ENDS)
    values = np.asarray(limits)[:, None] + np.asarray(weights)[:, None] * x[None, :]
    return values if extra is None else values + np.asarray(extra)[None, :]


def test_a_curve_the_model_describes_has_no_model_error():
    """Runs of the exact form a_r + b_r / ln t: the mean decade values lie on the fitted curve (chi-square 0) and a
    later start moves the limit by nothing, so the tolerance is 0 and the limit is the runs' mean a."""
    rng = np.random.default_rng(5)
    a, b = rng.normal(50.0, 2.0, 40), rng.normal(-30.0, 10.0, 40)
    fit = decades.fitted_limit(ENDS, per_run_values(a, b), int(ENDS[0]))
    assert fit.limit.value == pytest.approx(a.mean(), rel=1e-12)
    assert fit.loglog.value == pytest.approx(b.mean(), rel=1e-9)
    assert fit.tolerance == pytest.approx(0.0, abs=1e-9)


def test_a_curve_the_model_misses_gets_a_tolerance():
    """A 1/ln^2 t term the model lacks, large against the runs' noise: the decade means scatter around the fitted
    curve far beyond their noise and the limit moves with the fit's start, so the tolerance is positive and covers the
    fit's miss of the true limit better than the standard error alone."""
    rng = np.random.default_rng(6)
    runs = 60
    x = decades.inverse_log(ENDS)
    truth = 50.0
    values = per_run_values(rng.normal(truth, 1.0, runs), np.zeros(runs), 4000.0 * x**2) \
        + rng.normal(0.0, 1.0, (runs, ENDS.size))
    fit = decades.fitted_limit(ENDS, values, int(ENDS[0]))
    assert fit.tolerance > fit.limit.se
    miss = abs(fit.limit.value - truth)
    assert miss > 2 * fit.limit.se
    assert miss <= 2 * fit.limit.se + fit.tolerance


def test_the_hump_part_counts_only_a_shift_beyond_its_noise():
    """A first decade raised far above the model (a hump the fit's start did not cut) shifts the limit when the fit
    starts one decade later; pure noise of the same runs does not."""
    rng = np.random.default_rng(7)
    a, b = rng.normal(50.0, 2.0, 40), rng.normal(0.0, 5.0, 40)
    hump = np.zeros(ENDS.size)
    hump[0] = 40.0
    clean = per_run_values(a, b) + rng.normal(0.0, 0.5, (40, ENDS.size))
    assert decades.model_error(ENDS, clean, decades.fitted_limit(ENDS, clean, int(ENDS[0])).limit) < 0.5
    humped = clean + hump
    assert decades.fitted_limit(ENDS, humped, int(ENDS[0])).tolerance > 5.0


@pytest.mark.parametrize("value, se, tolerance, target, verdict", [
    (57.2, 1.1, 0.0, 49.7, FAILS),    # D-TS on Cyclic against C_w: 7 standard errors off
    (57.2, 1.1, 0.0, 55.3, HOLDS),    # within 2 standard errors
    (57.2, 1.1, 5.0, 50.1, HOLDS),    # within 2 standard errors and the tolerance
    (57.2, 1.1, 5.0, 49.0, FAILS),
])
def test_reaches_limit_allows_two_standard_errors_and_the_tolerance(value, se, tolerance, target, verdict):
    assert reaches_limit(Estimate(value, se), tolerance, target) == verdict


@pytest.mark.parametrize("value, verdict", [(60.0, HOLDS), (53.0, NOT_SIGNIFICANT), (48.0, OPPOSITE_NOT_SIGNIFICANT),
                                            (40.0, FAILS)])
def test_limit_above_orders_with_the_noise_and_the_tolerance(value, verdict):
    """Against 50 with a standard error of 1 and a tolerance of 3: beyond 5 on either side decides."""
    assert limit_above(Estimate(value, 1.0), 3.0, 50.0) == verdict


def committed_limit_rows():
    """The asymptotic claims table's rows decided by the limit rule on one line (A1, A2, A5's first half, A6), each
    with the value it names and the line's fitted limit, standard error and tolerance from the final table."""
    claims = pd.read_csv(FIGURES / "asymptotic_claims.csv")
    final = read_study_tables(FIGURES, "_final.csv")["asymptotic"]
    rows = []
    for _, row in claims[claims["claim"].isin(["A1", "A2", "A5", "A6"])].iterrows():
        if row["site"].endswith("/above_C"):
            continue
        panel_id, _, curve = row["site"].partition(":")[2].partition("/")
        name = curve or "dts"
        line = final[(final["panel_id"] == panel_id) & (final["algorithm"] == name)].iloc[0]
        target = line["winner_constant"] if row["statement"].endswith("of C_w") else line["lower_bound_slope"]
        rows.append((row, line, target))
    return rows


def test_no_committed_limit_claim_holds_beyond_its_noise_and_tolerance():
    """Each committed verdict of a claim of a limit is what the limit rule gives on the final table's limit, standard
    error and tolerance: none holds more than 2 standard errors and its tolerance away from its value."""
    rows = committed_limit_rows()
    assert len(rows) >= 40
    for row, line, target in rows:
        distance = abs(line["slope_limit"] - target)
        allowed = 2 * line["slope_limit_se"] + line["slope_limit_tolerance"]
        assert row["verdict"] == (HOLDS if distance <= allowed else FAILS), (row["site"], distance, allowed)
        assert math.isfinite(line["slope_limit_tolerance"]) and line["slope_limit_tolerance"] >= 0
