"""The simulation loop (core/simulate.py) against its plain-Python reference, feedback delay, the
per-slot regret of Eq. (1), fair self-comparisons, and bad arguments checked before any slot."""


import numpy as np
import pytest
from numba import njit

from dts_reproduction.core.simulate import python_function, simulate
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import log_grid
from tests import reference as ref


@njit(cache=True)
def _script_select(state, t, rng):
    """Toy algorithm: plays the scripted pair of slot t (cycling)."""
    pairs = state[0]
    k = (t - 1) % pairs.shape[0]
    return pairs[k, 0], pairs[k, 1]


@njit(cache=True)
def _script_update(state, a1, a2, a1_won, t):
    """Records every delivered outcome: (slot, a1, a2, won) in delivery order."""
    log, count = state[1], state[2]
    k = count[0]
    log[k, 0], log[k, 1], log[k, 2], log[k, 3] = t, a1, a2, a1_won
    count[0] = k + 1


def script_state(horizon):
    pairs = np.array([[0, 1], [2, 2], [3, 0], [1, 3], [2, 0]], dtype=np.int64)
    return (pairs, np.full((horizon, 4), -1, np.int64), np.zeros(1, np.int64))


@pytest.mark.parametrize("delay", [1, 3, 7])
def test_simulate_matches_reference_loop(delay):
    ds = load_dataset("gap")
    P, zeta = ds.P, ds.normalized_copeland.astype(float)
    gap = P[0] - 0.5
    horizon = 200
    checkpoints = log_grid(horizon, 10)
    fast = script_state(horizon)
    regret, g2w, weak = (np.zeros(len(checkpoints)) for _ in range(3))
    counts = np.zeros(5, np.int64)
    simulate(_script_select, _script_update, fast, np.random.default_rng(9), P, zeta, gap, checkpoints, delay,
             regret, g2w, counts, weak=weak)
    slow = script_state(horizon)
    r_ref, g_ref, c_ref, w_ref = ref.simulate(python_function(_script_select), python_function(_script_update), slow,
                                              np.random.default_rng(9), P, zeta, gap, checkpoints, delay)
    np.testing.assert_allclose(regret, r_ref, rtol=1e-12)
    np.testing.assert_allclose(g2w, g_ref, rtol=1e-12)
    np.testing.assert_allclose(weak, w_ref, rtol=1e-12)
    assert 0 < weak[-1] < regret[-1]  # the script plays the winner (arm 0) in some pairs, not in others
    np.testing.assert_array_equal(counts, c_ref)
    delivered = fast[1][: fast[2][0]]
    np.testing.assert_array_equal(delivered, slow[1][: slow[2][0]])
    # Outcomes are delivered in order, in batches at the end of every slot t with t % d == 0.
    assert len(delivered) == horizon - horizon % delay
    np.testing.assert_array_equal(delivered[:, 0], np.arange(1, len(delivered) + 1))


BAD_SIMULATE_ARGUMENTS = (
    ({"delay": 0}, "delay must be an integer at least 1"),
    ({"delay": -3}, "delay must be an integer at least 1"),
    ({"checkpoints": np.array([5, 5, 10])}, "checkpoints must be increasing"),
    ({"checkpoints": np.array([0, 10])}, "checkpoints must be increasing"),
    ({"delay": 1.5}, r"delay must be an integer at least 1 \(1 = no delay\), got 1.5"),  # was a numba TypingError
    ({"delay": "3"}, "delay must be an integer at least 1"),
    ({"delay": True}, "delay must be an integer at least 1"),
    ({"checkpoints": np.array([5.0, 10.5])}, "1-D integer array"),  # regrets were never written (10.5 != any t)
    ({"checkpoints": np.linspace(1.0, 10.0, 300)},  # the message printed all 300 values on many lines
     r"checkpoints must be increasing slots >= 1 in a 1-D integer array, got an array of dtype float64 and shape "
     r"\(300,\)"),
    ({"checkpoints": np.append(np.arange(1, 300), 299)},
     r"checkpoints must be increasing slots >= 1, got checkpoints\[299\] = 299 after 299"),
    ({"checkpoints": np.array([[5, 10]])}, "1-D integer array"),
    ({"checkpoints": [5, 10]}, "1-D integer array"),
    ({"regret": np.zeros(1)}, "one entry per checkpoint"),
    ({"weak": np.zeros(3)}, "regret, g2w and weak need one entry per checkpoint"),
    ({"self_counts": np.zeros(3, np.int64)}, "one entry per arm"),
)


@pytest.mark.parametrize("bad, message", BAD_SIMULATE_ARGUMENTS)
def test_simulate_rejects_bad_arguments_before_any_slot(bad, message):
    """The compiled loop indexes without bounds checks (a delay of 0 corrupted the heap): the wrapper
    checks first, and no slot runs."""
    ds = load_dataset("gap")
    arguments = {"P": ds.P, "zeta": ds.normalized_copeland.astype(float), "gap": ds.P[0] - 0.5,
                 "checkpoints": np.array([5, 10]), "delay": 1, "regret": np.zeros(2), "g2w": np.zeros(2),
                 "self_counts": np.zeros(5, np.int64)}
    arguments.update(bad)
    state = script_state(10)
    with pytest.raises(ValueError, match=message) as err:
        simulate(_script_select, _script_update, state, np.random.default_rng(0), **arguments)
    assert state[2][0] == 0 and "\n" not in str(err.value)


def test_delay_beyond_the_horizon_is_horizon_plus_one():
    """A delay longer than the run delivers nothing; the loop's buffers are sized for horizon + 1, not for
    the delay (2**40 raised MemoryError, 2**62 "array is too big"), and the run is the same."""
    ds = load_dataset("gap")
    runs = []
    for delay in (11, 2**40, 2**62):
        state, regret, g2w, counts = script_state(10), np.zeros(2), np.zeros(2), np.zeros(5, np.int64)
        simulate(_script_select, _script_update, state, np.random.default_rng(0), ds.P,
                 ds.normalized_copeland.astype(float), ds.P[0] - 0.5, np.array([5, 10]), delay, regret, g2w, counts)
        assert state[2][0] == 0
        runs.append((regret.tolist(), g2w.tolist(), counts.tolist()))
    assert runs[1] == runs[0] and runs[2] == runs[0]


def test_regret_increments_follow_eq_1():
    """Per-slot Copeland regret zeta* - (zeta_a1 + zeta_a2)/2 and G2W (p_c,a1 - 1/2) + (p_c,a2 - 1/2)."""
    ds = load_dataset("mslr5_condorcet")
    zeta = ds.normalized_copeland.astype(float)
    horizon = 5
    state = script_state(horizon)
    checkpoints = np.arange(1, horizon + 1, dtype=np.int64)
    regret, g2w, counts = np.zeros(horizon), np.zeros(horizon), np.zeros(5, np.int64)
    simulate(_script_select, _script_update, state, np.random.default_rng(0), ds.P, zeta, ds.P[0] - 0.5,
             checkpoints, 1, regret, g2w, counts)
    expected = np.cumsum([1 - (zeta[a] + zeta[b]) / 2 for a, b in state[0]])
    np.testing.assert_allclose(regret, expected)
    np.testing.assert_allclose(g2w, np.cumsum([ds.P[0, a] + ds.P[0, b] - 1 for a, b in state[0]]))
    assert counts.tolist() == [0, 0, 1, 0, 0]


def test_self_comparison_is_a_fair_coin():
    ds = load_dataset("cyclic")
    horizon = 40000
    state = (np.array([[1, 1]], dtype=np.int64), np.full((horizon, 4), -1, np.int64), np.zeros(1, np.int64))
    simulate(_script_select, _script_update, state, np.random.default_rng(1), ds.P,
             ds.normalized_copeland.astype(float), np.zeros(4), np.array([horizon]), 1, np.zeros(1),
             np.zeros(1), np.zeros(4, np.int64))
    wins = state[1][:, 3].sum()
    # Binomial(40000, 1/2): sd = 100; 4.5 sd leaves a false-failure probability below 1e-5.
    assert abs(wins - horizon / 2) < 4.5 * 100
