"""Plain-Python select and update in the simulator (core/simulate.py, ``compiled_loop``): the loop's template runs
as Python when a kernel is not numba-compiled, with the same draws from the same generator in the same order, so a
Python rule and its njit transcription make the same run, and a compiled algorithm run through the uncompiled loop
draws what its compiled loop draws (numba's ``Generator.random`` and ``binomial`` are numpy's); a ``Policy`` drives
Python kernels as it drives njit ones; a kernel that is no function is refused before any slot."""

import dataclasses

import numpy as np
import pytest
from numba import njit
from numba.core.dispatcher import Dispatcher

from dts_reproduction.algorithms import AlgorithmSpec, Policy, get_algorithm
from dts_reproduction.algorithms.ecw_rmed_forced_run import apply
from dts_reproduction.algorithms.plugins import load_plugin
from dts_reproduction.core.simulate import LoopHooks, compiled_loop, simulate
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import run_one
from tests.algorithms.test_ecw_rmed_forced_run import GAP, P_TRAP, SPEC, ZETA, small_plan, trap_state
from tests.toy_plugins import empty_plugin_table, write_plugins

RUNS, HORIZON, SEED = 4, 2000, 7


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The two transcriptions of the toy plug-in, loaded into an empty plug-in table: (njit spec, plain-Python
    spec)."""
    empty_plugin_table(monkeypatch)
    return tuple(load_plugin(reference) for reference in write_plugins(tmp_path))


def python_update(spec):
    """``spec``'s njit update behind a plain-Python function: the loop of its kernels is then run uncompiled."""

    def update(state, a1, a2, a1_won, t):
        """The njit update, called through its dispatcher."""
        spec.update(state, a1, a2, a1_won, t)

    return update


def test_a_python_rule_makes_the_runs_of_its_njit_transcription(toy):
    """The toy's plain-Python transcription, under the njit one's name (so the same streams), gives every run's
    regret curve, final regret and self-comparison counts bit for bit; only the njit one's loop is compiled.  The
    runs differ from each other, so the rule depends on the outcomes and on its tie-break draws."""
    compiled, plain = toy
    assert isinstance(compiled_loop(compiled.select, compiled.update), Dispatcher)
    assert not isinstance(compiled_loop(plain.select, plain.update), Dispatcher)
    dataset, renamed = load_dataset("mslr5_condorcet"), dataclasses.replace(plain, name=compiled.name)
    finals = []
    for run in range(RUNS):
        a = run_one(dataset, compiled, {}, HORIZON, run, SEED)
        b = run_one(dataset, renamed, {}, HORIZON, run, SEED)
        for key in ("regret", "g2w", "self_counts", "permutation"):
            np.testing.assert_array_equal(a[key], b[key], err_msg=f"run {run}: {key}")
        finals.append(a["final"])
    assert len(set(finals)) == RUNS and min(finals) > 0


def test_a_python_parameter_reaches_the_python_rule(toy):
    """A parameter given to the plain-Python plug-in changes its runs as it changes the njit one's."""
    compiled, plain = toy
    dataset, renamed = load_dataset("mslr5_condorcet"), dataclasses.replace(plain, name=compiled.name)
    a = run_one(dataset, compiled, {"scale": 0.5}, HORIZON, 0, SEED)
    b = run_one(dataset, renamed, {"scale": 0.5}, HORIZON, 0, SEED)
    np.testing.assert_array_equal(a["regret"], b["regret"])
    assert a["final"] != run_one(dataset, compiled, {}, HORIZON, 0, SEED)["final"]


@pytest.mark.parametrize("name,params", [("dts", {}), ("rmed1", {"skip": "exact"})])
def test_a_compiled_algorithm_through_the_uncompiled_loop_draws_what_its_compiled_loop_draws(name, params):
    """D-TS (its Beta draws and the outcomes' uniforms) and RMED1 with its skip (a hook called from Python), their
    update behind a Python function: the same run as the compiled loop's, bit for bit."""
    spec = get_algorithm(name)
    dataset = load_dataset("mslr5_condorcet")
    wrapped = dataclasses.replace(spec, update=python_update(spec))
    a, b = run_one(dataset, spec, params, HORIZON, 1, SEED), run_one(dataset, wrapped, params, HORIZON, 1, SEED)
    for key in ("regret", "g2w", "self_counts"):
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def pair_run_outcome(update, pair_runs: bool, seed: int) -> np.ndarray:
    """ECW-RMED (skip="exact") on the test matrix whose forced pair is trapped, with the short pair runs of its
    tests or without, ``update`` as given: the regrets at 5e3 and 2e4 and the wins of the forced pair (2, 1)."""
    state = trap_state()
    checkpoints = np.array([5000, 20000], np.int64)
    regret, g2w, self_counts = np.zeros(2), np.zeros(2), np.zeros(3, np.int64)
    simulate(SPEC.select, update, state, np.random.default_rng(seed), P_TRAP, ZETA, GAP, checkpoints, 1, regret, g2w,
             self_counts, LoopHooks(skip=SPEC.skip(state), pair_run=(small_plan, apply) if pair_runs else None,
                                    pair_run_retry=32))
    return np.array([*regret, state.wins[2, 1], state.wins[1, 2]])


@pytest.mark.parametrize("seed", [5, 8])  # two runs the forced pair traps (the second leaves it before 2e4)
def test_a_pair_run_through_the_uncompiled_loop_draws_the_binomial_of_the_compiled_loop(seed):
    """ECW-RMED's pair runs draw Binomial(slots, p) in the loop: numpy's in the uncompiled loop, numba's in the
    compiled one, the same numbers; pair runs were made (the wins differ from those of the run without)."""
    compiled = pair_run_outcome(SPEC.update, True, seed)
    np.testing.assert_array_equal(pair_run_outcome(python_update(SPEC), True, seed), compiled)
    assert not np.array_equal(compiled, pair_run_outcome(SPEC.update, False, seed))


@njit
def _binomials(rng, n, p, count):
    """``count`` draws of Binomial(n, p) by numba's generator."""
    out = np.empty(count, np.int64)
    for k in range(count):
        out[k] = rng.binomial(n, p)
    return out


@pytest.mark.parametrize("n,p", [(5, 0.3), (100, 0.6), (10_000, 0.01), (1_000_000, 0.5)])
def test_numbas_binomial_draws_numpys_numbers(n, p):
    """Both of numpy's binomial methods (inversion for n min(p, 1-p) < 30, BTPE above), p on either side of 1/2:
    numba's draws from a generator are numpy's, one call at a time."""
    numpy_rng = np.random.default_rng(3)
    expected = [numpy_rng.binomial(n, p) for _ in range(500)]
    np.testing.assert_array_equal(_binomials(np.random.default_rng(3), n, p, 500), expected)


def test_a_policy_drives_python_kernels_as_njit_ones(toy):
    """A live policy of each transcription, same seed and same feedback: the same pairs at every step."""
    compiled, plain = toy
    policies = [type("Live", (Policy,), {"spec": spec})(5, seed=3) for spec in (compiled, plain)]
    feedback = np.random.default_rng(4)
    for _ in range(300):
        pairs = [policy.select() for policy in policies]
        assert pairs[0] == pairs[1]
        won = bool(feedback.random() < 0.6)
        for policy, pair in zip(policies, pairs, strict=True):
            policy.update(*pair, won)
    np.testing.assert_array_equal(policies[0].state.comparisons, policies[1].state.comparisons)


def test_a_kernel_that_is_no_function_is_refused(toy):
    """An AlgorithmSpec whose select is not callable, and a simulate given one, or a hook that is not: one line."""
    compiled, _ = toy
    with pytest.raises(ValueError, match=r"^algorithm 'x': select must be a function, got 3$"):
        AlgorithmSpec(name="x", label="x", init=compiled.init, select=3, update=compiled.update)
    state = compiled.make_state(5)
    args = (state, np.random.default_rng(0), P_TRAP, ZETA, GAP, np.array([10]), 1, np.zeros(1), np.zeros(1),
            np.zeros(3, np.int64))
    with pytest.raises(ValueError, match=r"^update must be a function \(njit or plain Python\), got None$"):
        simulate(compiled.select, None, *args)
    with pytest.raises(ValueError, match=r"^skip must be a function \(njit or plain Python\), got 'fast'$"):
        simulate(compiled.select, compiled.update, *args, LoopHooks(skip="fast"))
