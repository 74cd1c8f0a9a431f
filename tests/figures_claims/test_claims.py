"""The claim estimates and verdicts of reproduce/claims/verdict.py on synthetic runs with known means and errors."""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from dts_reproduction.reproduce.claims.verdict import (
    DIRECTION_ONLY,
    FACTOR_BORDERLINE,
    FAILS,
    HOLDS,
    NOISE_SE,
    NOT_MEASURED,
    NOT_SIGNIFICANT,
    OPPOSITE_NOT_SIGNIFICANT,
    Estimate,
    Missing,
    Site,
    above,
    at,
    at_most,
    below,
    below_factor,
    best,
    checked,
    claim_row,
    close,
    exceeds,
    final,
    growth,
    log_slope,
    mean_se,
    need,
    not_evidence_verdict,
    ratio_of,
    spread,
    spread_over_mean,
    under,
    within_factor,
    worst,
)

SITE = Site("fig_test:panel", "Fig. T (a) panel")


def values_with(mean, se, runs=100):
    """Per-run values whose mean and standard error are exactly ``mean`` and ``se``."""
    z = np.tile([-1.0, 1.0], runs // 2)
    return mean + z * se * np.sqrt(runs) / z.std(ddof=1)


def test_mean_se_of_synthetic_values():
    est = mean_se(values_with(10.0, 2.0))
    assert (est.value, est.se) == pytest.approx((10.0, 2.0))


@pytest.mark.parametrize("gap_in_se, verdict", [
    (NOISE_SE + 0.1, HOLDS), (NOISE_SE - 0.1, NOT_SIGNIFICANT), (0.5, NOT_SIGNIFICANT),
    (-0.5, OPPOSITE_NOT_SIGNIFICANT), (-(NOISE_SE - 0.1), OPPOSITE_NOT_SIGNIFICANT), (-(NOISE_SE + 0.1), FAILS),
])
def test_below_verdict_follows_the_noise(gap_in_se, verdict):
    """"a < b" with s.e. 3 and 4 (difference s.e. 5) and means gap_in_se x 5 apart."""
    a, b = Estimate(100.0, 3.0), Estimate(100.0 + 5.0 * gap_in_se, 4.0)
    assert below(a, b) == verdict
    assert above(b, a) == verdict


def test_above_by_a_factor():
    """"x well above y" with a factor 2: reached by more than the noise; reached or missed by less than the
    noise while the order is significant (borderline); missed by more (direction only); an order that is not
    significant or is contradicted gives the verdict of the plain order, whatever the factor."""
    y = Estimate(100.0, 1.0)
    assert above(Estimate(210.0, 0.1), y, 2.0) == HOLDS
    assert above(Estimate(203.0, 1.0), y, 2.0) == FACTOR_BORDERLINE
    assert above(Estimate(197.0, 1.0), y, 2.0) == FACTOR_BORDERLINE
    assert above(Estimate(171.0, 1.0), y, 2.0) == DIRECTION_ONLY
    assert above(Estimate(101.0, 1.0), y, 2.0) == NOT_SIGNIFICANT
    assert above(Estimate(99.0, 1.0), y, 2.0) == OPPOSITE_NOT_SIGNIFICANT
    assert above(Estimate(90.0, 1.0), y, 2.0) == FAILS


def test_a_borderline_factor_is_not_called_an_insignificant_order():
    """Issue 21: ECW-RMED 2829.8 +- 43.3 against 1.5 x D-TS+ 1824.3 +- 21.4 on StrongBorda (C7) is 1.55x, 25
    standard errors above D-TS+ but within the noise of 1.5x: the order is significant, only the factor is
    borderline; a slope ratio 1.52 +- 0.09 against "within x1.5" likewise (C5, MSLR K = 32)."""
    ecw, plus = Estimate(2829.8, 43.3), Estimate(1824.3, 21.4)
    assert above(ecw, plus) == HOLDS
    assert above(ecw, plus, 1.5) == FACTOR_BORDERLINE
    assert within_factor(Estimate(1012.6, 52.2), Estimate(664.5, 18.0), 1.5) == FACTOR_BORDERLINE
    assert worst(HOLDS, FACTOR_BORDERLINE) == FACTOR_BORDERLINE
    assert worst(NOT_SIGNIFICANT, FACTOR_BORDERLINE) == NOT_SIGNIFICANT


def test_a_conjunction_claims_no_order_a_part_leaves_unestablished():
    """C9 on Non-Condorcet StrongBorda: CCB 4196.7 +- 30.9 is significantly above D-TS 2985.5 +- 42.9 but short of
    x1.5 (direction only), heavy-tailed SCB 3702.0 +- 886.9 is above it by 0.8 standard errors (not significant).
    "Much better than CCB and SCB" then reads "same order, not significant": "direction holds" would claim an
    order the runs do not establish for SCB.  A disjunction takes the part that establishes the order."""
    dts, ccb, scb = Estimate(2985.5, 42.9), Estimate(4196.7, 30.9), Estimate(3702.0, 886.9)
    parts = above(ccb, dts, 1.5), above(scb, dts, 1.5)
    assert parts == (DIRECTION_ONLY, NOT_SIGNIFICANT)
    assert worst(*parts) == NOT_SIGNIFICANT
    assert best(*parts) == DIRECTION_ONLY


def test_below_a_factor():
    """"x above y by less than x1.5": below 150 by more than the noise holds, within the noise of 150 on
    either side is borderline, above it by more fails."""
    y = Estimate(100.0, 1.0)
    assert below_factor(Estimate(140.0, 1.0), y, 1.5) == HOLDS
    assert below_factor(Estimate(148.0, 1.0), y, 1.5) == FACTOR_BORDERLINE
    assert below_factor(Estimate(152.0, 1.0), y, 1.5) == FACTOR_BORDERLINE
    assert below_factor(Estimate(160.0, 1.0), y, 1.5) == FAILS


def test_constant_thresholds_and_at_most():
    assert exceeds(Estimate(0.5, 0.1), 0.1) == HOLDS
    assert exceeds(Estimate(0.15, 0.1), 0.1) == NOT_SIGNIFICANT
    assert under(Estimate(0.05, 0.01), 0.1) == HOLDS
    assert at_most(Estimate(10.0, 1.0), Estimate(10.5, 1.0)) == HOLDS
    assert at_most(Estimate(20.0, 1.0), Estimate(10.0, 1.0)) == FAILS


def test_close_and_within_factor():
    assert close(Estimate(10.0, 1.0), Estimate(11.0, 1.0)) == HOLDS
    assert close(Estimate(10.0, 1.0), Estimate(20.0, 1.0)) == FAILS
    assert within_factor(Estimate(10.0, 0.1), Estimate(14.0, 0.1), 1.5) == HOLDS
    assert within_factor(Estimate(10.0, 0.1), Estimate(30.0, 0.1), 1.5) == FAILS
    # ratio 1.6 +- ~0.16: within 2 s.e. of the bound 1.5, so borderline rather than FAILS
    assert within_factor(Estimate(16.0, 1.0), Estimate(10.0, 0.5), 1.5) == FACTOR_BORDERLINE


def test_ratio_delta_method():
    r = ratio_of(Estimate(200.0, 10.0), Estimate(100.0, 5.0))
    assert r.value == pytest.approx(2.0)
    assert r.se == pytest.approx(2.0 * np.hypot(0.05, 0.05))


def test_ratio_over_zero_is_undefined_not_an_error():
    """A curve with zero regret in every run (T = 1) made the figure scripts stop with ZeroDivisionError."""
    r = ratio_of(Estimate(2.0, 1.0), Estimate(0.0, 0.0))
    assert np.isnan(r.value) and np.isnan(r.se)


def curve(regret, checkpoints):
    """A stand-in LineResult with per-run regret curves."""
    regret = np.asarray(regret, dtype=np.float64)
    return SimpleNamespace(regret=regret, final=regret[:, -1], checkpoints=np.asarray(checkpoints))


def test_growth_and_slope_of_linear_and_logarithmic_curves():
    t = np.array([10, 100, 1000, 10_000, 100_000, 1_000_000])
    rng = np.random.default_rng(1)
    linear = curve(np.outer(rng.uniform(0.9, 1.1, 50), t * 1e-3), t)
    log = curve(np.outer(rng.uniform(0.9, 1.1, 50), 5.0 * np.log(t)), t)
    assert growth(linear).value == pytest.approx(10.0)
    assert growth(log).value == pytest.approx(np.log(1e6) / np.log(1e5))
    assert log_slope(log).value == pytest.approx(5.0, rel=0.05)
    assert log_slope(log).se > 0


def test_at_reads_the_last_checkpoint_not_after_t():
    res = curve([[1.0, 2.0, 3.0], [3.0, 4.0, 5.0]], [10, 100, 1000])
    assert at(res, 500).value == pytest.approx(3.0)
    assert final(res).value == pytest.approx(4.0)


def test_spread_bootstrap_se_is_near_normal_theory_for_gaussian_runs():
    """For Gaussian runs the s.e. of the STD is about sigma / sqrt(2 (n - 1)); bootstrap within 30%."""
    values = np.random.default_rng(2).normal(0.0, 3.0, 400)
    est = spread(values)
    assert est.value == pytest.approx(3.0, rel=0.1)
    assert est.se == pytest.approx(3.0 / np.sqrt(2 * 399), rel=0.3)


def test_worst_and_missing_curves():
    assert worst(HOLDS, NOT_SIGNIFICANT, FAILS) == FAILS
    assert worst(HOLDS, NOT_MEASURED) == NOT_MEASURED
    with pytest.raises(Missing):
        need({"dts": 1}, "dts", "rucb")

    def check():
        need({}, "rucb")
        return "never", HOLDS

    row = checked("C1", SITE, "statement", check)
    assert row["verdict"] == NOT_MEASURED and "rucb" in row["measured"]


def test_claim_row_refuses_unknown_verdicts_and_quick_rows_say_not_evidence():
    assert claim_row("C", SITE, "s", "m", HOLDS)["verdict"] == HOLDS
    with pytest.raises(ValueError, match="unknown verdict"):
        claim_row("C", SITE, "s", "m", "true")
    assert not_evidence_verdict(FAILS).startswith("quick run, not evidence")


def panel(**means):
    """Stand-in LineResults (label = name) whose 100 runs have the given mean final regret (s.e. 1)."""
    return {name: SimpleNamespace(label=name, final=values_with(mean, 1.0)) for name, mean in means.items()}


def test_c9_is_not_measured_while_d_ts_plus_is_missing_from_a_panel_that_draws_it():
    """C9 used to check D-TS alone when D-TS+ was not computed yet, and report that as the claim's verdict."""
    from dts_reproduction.reproduce.claims.paper_checks import c9_beat_ccb_scb

    partial = panel(dts=100.0, ccb=500.0, scb=500.0)
    row = c9_beat_ccb_scb(SITE, partial)
    assert row["verdict"] == NOT_MEASURED and "dts_plus" in row["measured"]
    # the 500-armed panel draws D-TS alone: checked on it, and the statement says so
    row = c9_beat_ccb_scb(SITE, partial, ("dts",))
    assert row["verdict"] == HOLDS and "D-TS+" not in row["statement"]
    assert c9_beat_ccb_scb(SITE, {**partial, **panel(dts_plus=90.0)})["verdict"] == HOLDS


def test_std_over_own_mean_resamples_std_and_mean_together():
    """Fig. 2 / C15a: the STD over the algorithm's own mean was given the error of a ratio of independent
    estimates; with a few dominating runs (ECW-RMED) STD and mean move together and that error was 2x too big."""
    from dts_reproduction.reproduce.studies.paper_figures.std_figure import std_table

    values = np.random.default_rng(3).lognormal(0.0, 1.5, 500)
    rng = np.random.default_rng(4)
    boot = values[rng.integers(0, values.size, size=(4000, values.size))]
    direct = (boot.std(axis=1, ddof=1) / boot.mean(axis=1)).std(ddof=1)
    est = spread_over_mean(values)
    assert est.value == pytest.approx(values.std(ddof=1) / values.mean())
    assert est.se == pytest.approx(direct, rel=0.2)
    assert ratio_of(spread(values), mean_se(values)).se > 1.5 * direct  # the independent-estimates error

    def line(name, v):
        return SimpleNamespace(line=SimpleNamespace(name=name, algorithm=name, horizon=1000), label=name, final=v)

    table = std_table([(SITE, [line("ecw_rmed", values), line("dts", values[:100] + 5.0)])], 1000).set_index(
        "algorithm")
    for column in ("std_over_own_mean", "std_over_ecw_mean"):
        assert table.loc["ecw_rmed", f"{column}_se"] == pytest.approx(direct, rel=0.2)
    assert table.loc["dts", "std_over_own_mean_se"] == pytest.approx(spread_over_mean(values[:100] + 5.0).se)


def test_asymptotic_slope_span_sees_only_the_late_slope():
    """A curve whose slope per ln t drops from 40 to 5 half a decade before T: the last decade mixes both,
    the last half decade (ASYMPTOTIC_SPAN, used by C5-C7) gives the late one."""
    from dts_reproduction.reproduce.claims.verdict import ASYMPTOTIC_SPAN

    t = np.geomspace(1e4, 1e6, 81)
    knee = 1e6 / np.sqrt(10.0)
    mean = np.where(t < knee, 40.0 * np.log(t), 40.0 * np.log(knee) + 5.0 * np.log(t / knee))
    res = curve(np.outer(np.random.default_rng(3).uniform(0.99, 1.01, 40), mean), t.astype(np.int64))
    assert log_slope(res, span=ASYMPTOTIC_SPAN).value == pytest.approx(5.0, rel=0.05)
    assert log_slope(res).value > 10.0


def test_c2_and_c4_read_their_words_with_the_shared_factors():
    """C2 ("much better") needs every baseline CLEAR_FACTOR above both D-TS variants; C4's "limited"
    improvement holds under either reading (x1.5, or below D-TS's own gain over RCS)."""
    from dts_reproduction.reproduce.claims.paper_checks import ALL_ELEVEN, c2_lowest, c4_rcs_beats_rucb_ccb
    from dts_reproduction.reproduce.claims.verdict import CLEAR_FACTOR

    base = {name: 1000.0 for name in ALL_ELEVEN}
    assert c2_lowest(SITE, panel(**{**base, "dts": 500.0, "dts_plus": 500.0}))["verdict"] == HOLDS
    close_call = panel(**{**base, "dts": 1000.0 / (CLEAR_FACTOR - 0.2), "dts_plus": 500.0})
    assert c2_lowest(SITE, close_call)["verdict"] == DIRECTION_ONLY
    # RCS 1.8x better than RUCB/CCB (not within x1.5) but D-TS 3x better than RCS: limited relative to it
    relative = panel(rcs=1000.0, rucb=1800.0, ccb=1800.0, dts=333.0, dts_plus=340.0)
    assert c4_rcs_beats_rucb_ccb(SITE, relative)["verdict"] == HOLDS
    # the same RCS gain with D-TS only 1.2x better than RCS: limited under neither reading
    neither = panel(rcs=1000.0, rucb=1800.0, ccb=1800.0, dts=830.0, dts_plus=840.0)
    assert c4_rcs_beats_rucb_ccb(SITE, neither)["verdict"] == FAILS


def test_c12_a_reversal_within_the_noise_at_the_last_checkpoints_does_not_fail():
    """C12 used to FAIL K = 16 because ECW-RMED's mean dipped below D-TS+'s at the last checkpoints by 0.3
    standard errors; the rule now applies at every checkpoint, so that is 'opposite order, not significant',
    and only a significant reversal FAILS."""
    from dts_reproduction.reproduce.claims.verdict import OPPOSITE_NOT_SIGNIFICANT
    from dts_reproduction.reproduce.studies.paper_figures.noncondorcet_figure import c12_rows
    from dts_reproduction.reproduce.studies.paper_panels import FIG4_PANELS

    t = np.array([1000, 10_000, 100_000, 1_000_000])
    spread_runs = np.tile([-1.0, 1.0], 50)[:, None]

    def line(name, means, sd):
        res = curve(np.asarray(means)[None, :] + sd * spread_runs, t)
        res.line, res.label = SimpleNamespace(name=name), name
        return res

    plus = line("dts_plus", [100.0, 1000.0, 2000.0, 3000.0], 10.0)
    dip = line("ecw_rmed", [200.0, 2000.0, 3000.0, 2999.0], 10.0)
    crash = line("ecw_rmed", [200.0, 2000.0, 3000.0, 2000.0], 10.0)
    rows = c12_rows(FIG4_PANELS, [None] * 4 + [("K16", [dip, plus]), ("K32", [crash, plus])])
    assert rows[0]["verdict"] == OPPOSITE_NOT_SIGNIFICANT
    assert rows[1]["verdict"] == FAILS


def test_slope_of_a_sparse_horizon_grid_uses_its_last_three_points():
    """SAVAGE's points are separate runs at T = ..., 1e5, 3e5, 1e6: a half-decade span holds one of them,
    which gave a NaN slope and a FAILS for C7's G2W part."""
    from dts_reproduction.reproduce.claims.verdict import ASYMPTOTIC_SPAN

    t = np.array([10_000, 30_000, 100_000, 300_000, 1_000_000])
    res = curve(np.outer(np.random.default_rng(4).uniform(0.9, 1.1, 30), 7.0 * np.log(t)), t)
    assert log_slope(res, span=ASYMPTOTIC_SPAN).value == pytest.approx(7.0, rel=0.1)


REDUCED = "below the paper's scale, not evidence"


@pytest.mark.parametrize("flags, note", [
    ([], None), (["--runs", "800"], None), (["--quick"], "quick run, not evidence"),
    (["--runs", "20"], REDUCED), (["--horizon", "1e5"], REDUCED),
])
def test_claims_of_a_run_below_the_paper_scale_are_marked_not_evidence(tmp_path, flags, note):
    """Only --quick used to mark verdicts: fig1 with --runs 20 wrote plain holds/FAILS into figures/ (and so
    into REPORT.md and the README); now any panel with fewer runs or a shorter horizon than the paper's
    marks them, and C19 (computed by the report from that figure's tables) follows its figure."""
    from dts_reproduction.reproduce.cli.arguments import build_parser, resolve
    from dts_reproduction.reproduce.config.paper import HORIZON
    from dts_reproduction.reproduce.reporting.claims_report import marked_like
    from dts_reproduction.reproduce.studies.experiment import evidence_note
    from dts_reproduction.reproduce.studies.paper_panels import FIG1_PANELS

    settings = resolve(build_parser("fig1", HORIZON).parse_args(
        [*flags, "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f")]))
    assert evidence_note(settings, FIG1_PANELS) == note
    table = pd.DataFrame({"verdict": [not_evidence_verdict(HOLDS, note)] if note else [HOLDS]})
    marked = marked_like(table, FAILS, quick=False)
    assert marked == (FAILS if note in (None, "quick run, not evidence") else not_evidence_verdict(FAILS, note))
