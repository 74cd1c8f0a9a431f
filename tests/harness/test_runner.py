"""The runner (reproduce/harness/runner.py): the checkpoint grid, prefixes of longer runs, arms mapped back
through the shuffle, determinism across n_jobs, bad lines refused before any file, defaults and
problem parameters, state sizes and storable configs."""

import json

import numpy as np
import pytest

from dts_reproduction.algorithms import ALGORITHMS, get_algorithm
from dts_reproduction.algorithms.base import STATE_PROBE_K, state_bytes
from dts_reproduction.data import dataset_from_matrix, load_dataset
from dts_reproduction.reproduce.harness import runner
from dts_reproduction.reproduce.harness.runner import (
    Line,
    line_key,
    log_grid,
    resolved_params,
    run_lines,
    run_one,
    validate_line,
)


def test_log_grid():
    grid = log_grid(10**6)
    assert grid[0] == 1 and grid[-1] == 10**6 and np.all(np.diff(grid) > 0)
    assert 200 <= len(grid) <= 260
    assert log_grid(1).tolist() == [1] and log_grid(7)[-1] == 7


def test_shorter_run_is_a_prefix_of_a_longer_one():
    ds, spec = load_dataset("arxiv"), get_algorithm("dts")
    short = run_one(ds, spec, {}, 1000, 2, 8)
    long = run_one(ds, spec, {}, 10000, 2, 8)
    grid = log_grid(10000)
    assert long["regret"][np.searchsorted(grid, 1000)] == short["final"]


def test_self_counts_are_mapped_to_original_arms():
    ds = load_dataset("mslr5_condorcet")
    res = run_one(ds, get_algorithm("dts"), {}, 20000, 0, 4)
    assert res["self_counts"].argmax() == ds.condorcet_winner
    assert sorted(res["permutation"].tolist()) == list(range(5))


def lines_for(datasets=("gap", "nc_cyclic"), algorithms=("dts", "dts_plus")):
    return [Line(dataset=d, algorithm=a, horizon=3000, runs=5) for d in datasets for a in algorithms]


@pytest.mark.process  # n_jobs=2 starts loky worker processes
def test_identical_results_for_any_n_jobs(tmp_path):
    one = run_lines(lines_for(), "det", tmp_path / "one", seed=3, n_jobs=1, progress=False)
    two = run_lines(lines_for(), "det", tmp_path / "two", seed=3, n_jobs=2, progress=False)
    for a, b in zip(one, two, strict=True):
        np.testing.assert_array_equal(a.regret, b.regret)
        np.testing.assert_array_equal(a.final, b.final)
        np.testing.assert_array_equal(a.self_counts, b.self_counts)
    # The other algorithms of an experiment do not change a line's numbers.
    alone = run_lines(lines_for(algorithms=("dts_plus",)), "det", tmp_path / "alone", seed=3, n_jobs=1,
                      progress=False)
    np.testing.assert_array_equal(alone[0].final, one[1].final)


@pytest.mark.parametrize("line,message", [
    (Line(dataset="nope", algorithm="dts", horizon=10, runs=1), "unknown dataset 'nope'"),
    (Line(dataset="gap", algorithm="nope", horizon=10, runs=1), "unknown algorithm 'nope'"),
    (Line(dataset="gap", algorithm="dts", horizon=0, runs=1), "horizon must be an integer >= 1"),
    (Line(dataset="gap", algorithm="dts", horizon=10, runs=0), "runs must be an integer >= 1"),
    (Line(dataset="gap", algorithm="dts", horizon=10, runs=1, delay=0), "delay must be an integer >= 1"),
    (Line(dataset="gap", algorithm="dts", horizon=10, runs=1, params=(("alpha", 0.0),)), "alpha must be"),
])
def test_bad_lines_raise_before_any_file_is_written(tmp_path, line, message):
    good = Line(dataset="gap", algorithm="dts", horizon=10, runs=1)
    with pytest.raises(ValueError, match=message):
        run_lines([good, line], "bad", tmp_path, seed=0, n_jobs=1, progress=False)
    assert not any(tmp_path.rglob("*"))


def test_horizon_1_without_delay_runs(tmp_path):
    """T = 1 is a valid horizon (README: T < 1 is bad input): d = 1 means no delay, so "delay 1 >= horizon 1"
    no longer refuses it."""
    line = Line(dataset="gap", algorithm="dts", horizon=1, runs=2)
    (result,) = run_lines([line], "t1", tmp_path, seed=0, n_jobs=1, progress=False)
    assert result.checkpoints.tolist() == [1] and result.final.shape == (2,)
    with pytest.raises(ValueError, match="got delay 2 with horizon 2"):
        validate_line(Line(dataset="gap", algorithm="dts", horizon=2, runs=1, delay=2))


def test_run_one_resolves_defaults_and_problem_params():
    """run_one with no parameters runs SAVAGE with the variant the true matrix implies (docs/harness.md#regret)."""
    spec = get_algorithm("savage")
    for name, implied, other in (("gap", "copeland", "condorcet"), ("arxiv", "condorcet", "copeland")):
        dataset = load_dataset(name)
        default = run_one(dataset, spec, {}, 30000, 0, 1)["regret"]
        assert np.array_equal(default, run_one(dataset, spec, {"variant": implied}, 30000, 0, 1)["regret"])
        # the two variants part ways within 30000 slots on both matrices, so the default is not a coincidence
        assert not np.array_equal(default, run_one(dataset, spec, {"variant": other}, 30000, 0, 1)["regret"])


def ordered_dataset(K: int):
    """K arms where arm i beats arm j > i with probability 0.6 (arm 0 the Condorcet winner)."""
    P = np.full((K, K), 0.5) + 0.1 * np.sign(np.subtract.outer(np.arange(K), np.arange(K))).T
    return dataset_from_matrix(P, f"ordered{K}", source="tests/harness/test_runner.py")


@pytest.mark.parametrize("name", sorted(name for name, spec in ALGORITHMS.items()
                                         if spec.arm_limit is None or spec.arm_limit[0] > STATE_PROBE_K))
def test_state_size_grows_at_most_as_k_squared(name):
    """make_state sizes a state of K > STATE_PROBE_K arms as (K / STATE_PROBE_K)^2 times a probe state's
    before allocating it: that must not underestimate (checked at 2 STATE_PROBE_K, within rounding), for every
    registered algorithm with its defaults completed from a matrix of as many arms (SAVAGE's variant) -- but one
    whose ``arm_limit`` refuses such K before any sizing."""
    spec = get_algorithm(name)
    probe, real = (state_bytes(spec.init(K, 1000, **spec.problem_params(spec.resolve_params({}), ordered_dataset(K))))
                   for K in (STATE_PROBE_K, 2 * STATE_PROBE_K))
    assert real <= 4 * probe * 1.001


def test_every_algorithm_and_preset_has_a_storable_config():
    """Each registered algorithm, with its default parameters and with each preset, passes the checks of a line
    and its stored config survives JSON unchanged (so its chunks are reused): a default the config cannot hold
    (e.g. None read as not storable) fails here, not in a figure script."""
    dataset = load_dataset("mslr5_condorcet")
    for name, spec in ALGORITHMS.items():
        for params in ({}, *spec.presets.values()):
            line = Line(dataset.name, name, horizon=20, runs=2, params=tuple(sorted(params.items())))
            validate_line(line)
            config = runner._config(line, dataset, 0, 0, 2)
            assert json.loads(json.dumps(config)) == config, (name, params)


def test_an_option_added_later_is_not_recorded_at_the_value_stored_runs_had():
    """``runner.UNRECORDED_DEFAULTS``: CW-RMED's program="estimated" and true_matrix=None (added after its lines were
    stored) are left out of the config and the key, so those lines stay valid; program="true" is recorded."""
    plain = Line(dataset="cyclic", algorithm="cw_rmed", horizon=300, runs=2, params=(("skip", "exact"),))
    explicit = Line(dataset="cyclic", algorithm="cw_rmed", horizon=300, runs=2,
                    params=(("program", "estimated"), ("skip", "exact")))
    true = Line(dataset="cyclic", algorithm="cw_rmed", horizon=300, runs=2, params=(("program", "true"),))
    assert resolved_params(plain) == resolved_params(explicit) == {"alpha": 3.0, "beta": 0.01, "skip": "exact"}
    assert line_key(plain) == line_key(explicit)
    assert resolved_params(true)["program"] == "true" and "true_matrix" not in resolved_params(true)
    assert line_key(true) != line_key(Line(dataset="cyclic", algorithm="cw_rmed", horizon=300, runs=2))
