"""core/tsallis.py (Tsallis-INF's step) against its plain transcription tests/reference/tsallis_reference.py and
against facts of the 1/2-Tsallis distribution that do not depend on either: the closed form at equal losses and at K
= 2, the first-order condition it solves, and the unbiasedness of both loss estimates."""

import math

import numpy as np
import pytest

from dts_reproduction.core.tsallis import LEARNING_RATE_SCALE, add_loss_estimate, learning_rate, tsallis_weights
from tests.reference.tsallis_reference import loss_estimate, tsallis_distribution


def weights_of(losses, eta):
    """(w, x) of ``tsallis_weights``."""
    weights = np.empty(len(losses))
    x = tsallis_weights(np.asarray(losses, np.float64), eta, weights)
    return weights, x


@pytest.mark.parametrize("K", [2, 5, 136, 500])
@pytest.mark.parametrize("t", [1, 7, 10**4, 10**9])
def test_matches_transcription_bit_for_bit(K, t):
    rng = np.random.default_rng(K * 31 + t)
    eta = learning_rate(2.0, t)
    for losses in (np.zeros(K), rng.exponential(3.0 * math.sqrt(t), K), 1e9 + rng.exponential(50.0, K)):
        weights, x = weights_of(losses, eta)
        reference, ref_x = tsallis_distribution(list(losses), eta)
        assert weights.tolist() == reference and x == ref_x


@pytest.mark.parametrize("K", [2, 5, 500])
def test_equal_losses_give_the_uniform_distribution(K):
    # w_i = 4 / (eta (L - x))^2 = 1/K for all i: x = L - 2 sqrt(K) / eta.
    weights, x = weights_of(np.full(K, 3.0), 0.5)
    np.testing.assert_allclose(weights, 1.0 / K, rtol=1e-12)
    assert x == pytest.approx(3.0 - 2.0 * math.sqrt(K) / 0.5, rel=1e-12)


def test_two_arms_match_the_closed_form():
    # K = 2, L = (0, d): with u = -x, 4 / (eta u)^2 + 4 / (eta (u + d))^2 = 1, solved here by bisection.
    eta, d = 0.3, 4.0
    low, high = 1e-9, 100.0
    for _ in range(200):
        u = (low + high) / 2
        low, high = (u, high) if 4.0 / (eta * u) ** 2 + 4.0 / (eta * (u + d)) ** 2 > 1.0 else (low, u)
    weights, x = weights_of([0.0, d], eta)
    assert x == pytest.approx(-u, rel=1e-10)
    assert weights[0] == pytest.approx(4.0 / (eta * u) ** 2, rel=1e-10)


@pytest.mark.parametrize("seed", range(5))
def test_solves_the_first_order_condition(seed):
    # The minimiser of <w, L> - sum_i 4 sqrt(w_i) / eta over the simplex: L_i - 2 / (eta sqrt(w_i)) is the same
    # number (the multiplier x) for every arm, and the weights sum to 1.
    rng = np.random.default_rng(seed)
    losses, eta = rng.exponential(20.0, 40), 0.05
    weights, x = weights_of(losses, eta)
    assert weights.sum() == pytest.approx(1.0, abs=1e-14)
    np.testing.assert_allclose(losses - 2.0 / (eta * np.sqrt(weights)), x, rtol=0, atol=1e-9 * np.abs(losses).max())
    assert np.argmax(weights) == np.argmin(losses)


def test_newton_stops_within_its_bound_from_the_worst_start():
    # All losses equal at K = 500 is the farthest start (x_0 - x = 2 (sqrt(K) - 1) / eta): still exact.
    weights, _ = weights_of(np.zeros(500), learning_rate(2.0, 10**9))
    assert abs(weights.sum() - 1.0) < 1e-14 and np.all(weights > 0)


@pytest.mark.parametrize("reduced_variance", [False, True])
def test_loss_estimates_match_transcription(reduced_variance):
    weights, _ = weights_of([0.0, 1.0, 30.0, 2.0], 0.4)
    eta = 0.4
    for arm in range(4):
        for loss in (0.0, 1.0):
            losses = np.full(4, 2.0)
            add_loss_estimate(losses, weights, eta, arm, loss, reduced_variance, 0.5)
            expected = [2.0 + 0.5 * part for part in loss_estimate(list(weights), eta, arm, loss, reduced_variance)]
            np.testing.assert_allclose(losses, expected, rtol=1e-15)


def test_reduced_variance_baseline_on_a_hand_made_case():
    # eta = 0.4: eta^2 = 0.16; w = (0.5, 0.3, 0.1, 0.1): B = (1/2, 1/2, 0, 0).  Arm 1 lost (loss 1):
    # arm 1 gets 1/2 + (1 - 1/2) / 0.3, arm 0 gets 1/2, arms 2 and 3 nothing.
    losses = np.zeros(4)
    add_loss_estimate(losses, np.array([0.5, 0.3, 0.1, 0.1]), 0.4, 1, 1.0, True, 1.0)
    np.testing.assert_allclose(losses, [0.5, 0.5 + 0.5 / 0.3, 0.0, 0.0], rtol=1e-15)
    losses = np.zeros(4)
    add_loss_estimate(losses, np.array([0.5, 0.3, 0.1, 0.1]), 0.4, 2, 1.0, False, 1.0)
    np.testing.assert_allclose(losses, [0.0, 0.0, 10.0, 0.0], rtol=1e-15)


@pytest.mark.parametrize("reduced_variance", [False, True])
def test_both_estimates_are_unbiased(reduced_variance):
    # Averaged over the played arm I ~ w, sum_I w_I estimate(I, loss_I) = the loss vector, exactly.
    weights, _ = weights_of([0.0, 0.5, 3.0, 9.0, 1.0], 0.3)
    true_losses = np.array([0.2, 0.9, 0.4, 1.0, 0.0])
    mean = np.zeros(5)
    for arm in range(5):
        estimate = np.zeros(5)
        add_loss_estimate(estimate, weights, 0.3, arm, true_losses[arm], reduced_variance, 1.0)
        mean += weights[arm] * estimate
    np.testing.assert_allclose(mean, true_losses, rtol=0, atol=1e-12)


def test_learning_rates_of_theorem_one():
    assert LEARNING_RATE_SCALE == {"importance-weighted": 2.0, "reduced-variance": 4.0}
    assert learning_rate(2.0, 4) == 1.0 and learning_rate(4.0, 10**8) == 4e-4
