"""The claim verdicts of reproduce/claims.py on synthetic final regrets with known means and errors."""

from types import SimpleNamespace

import numpy as np
import pytest

from reproduce.claims import (DIRECTION_ONLY, FAILS, HOLDS, NOISE_SE, NOT_SIGNIFICANT, claim_row, factor_verdict,
                              mean_and_sem, order_verdict, ratio)


def line(mean, sem, runs=100):
    """A stand-in LineResult whose final regrets have exactly this mean and standard error."""
    z = np.tile([-1.0, 1.0], runs // 2)
    z *= sem * np.sqrt(runs) / z.std(ddof=1)
    return SimpleNamespace(final=mean + z)


def test_synthetic_lines_have_the_requested_mean_and_sem():
    assert mean_and_sem(line(10.0, 2.0)) == pytest.approx((10.0, 2.0))


@pytest.mark.parametrize("gap_in_se, verdict", [
    (NOISE_SE + 0.1, HOLDS), (NOISE_SE - 0.1, NOT_SIGNIFICANT), (0.5, NOT_SIGNIFICANT),
    (-0.5, FAILS), (-(NOISE_SE + 0.1), FAILS),
])
def test_order_verdict(gap_in_se, verdict):
    """"R_a < R_b": two lines with s.e. 3 and 4 (difference s.e. 5) whose means differ by gap_in_se x 5."""
    a, b = line(100.0, 3.0), line(100.0 + 5.0 * gap_in_se, 4.0)
    assert order_verdict(a, b) == verdict


def test_factor_verdict():
    """"R_a well above R_b" read as a factor 2: reached, significant but smaller, or not significant."""
    b = line(100.0, 1.0)
    assert factor_verdict(line(201.0, 1.0), b, 2.0) == HOLDS
    assert factor_verdict(line(171.0, 1.0), b, 2.0) == DIRECTION_ONLY
    assert factor_verdict(line(101.0, 1.0), b, 2.0) == FAILS
    assert ratio(line(171.0, 1.0), b) == "ratio 1.71"


def test_claim_row_accepts_bools_and_verdict_strings():
    assert claim_row("C", "s", "m", True)["verdict"] == HOLDS
    assert claim_row("C", "s", "m", np.False_)["verdict"] == FAILS
    assert claim_row("C", "s", "m", NOT_SIGNIFICANT)["verdict"] == NOT_SIGNIFICANT
