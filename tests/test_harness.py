"""The simulation loop against its plain-Python reference, feedback delay, seeds, the result store,
determinism across n_jobs, and bad input at the API and the command line."""

import argparse
import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit
from pandas import testing as pd_testing

from algorithms import ALGORITHMS, get_algorithm
from algorithms.base import STATE_PROBE_K, state_bytes
from core.simulate import simulate
from data import load_dataset
from reproduce.harness import runner, seeds
from reproduce.harness.runner import Line, line_folder, line_key, load_line, log_grid, run_lines, run_one, validate_line
from reproduce.harness.store import chunk_path, load_chunk, save_chunk
from reproduce.verify import verify, verify_chunk
from tests import reference as ref

ROOT = Path(__file__).resolve().parent.parent


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
    regret, g2w, counts = np.zeros(len(checkpoints)), np.zeros(len(checkpoints)), np.zeros(5, np.int64)
    simulate(_script_select, _script_update, fast, np.random.default_rng(9), P, zeta, gap, checkpoints, delay,
             regret, g2w, counts)
    slow = script_state(horizon)
    r_ref, g_ref, c_ref = ref.simulate(_script_select.py_func, _script_update.py_func, slow,
                                       np.random.default_rng(9), P, zeta, gap, checkpoints, delay)
    np.testing.assert_allclose(regret, r_ref, rtol=1e-12)
    np.testing.assert_allclose(g2w, g_ref, rtol=1e-12)
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


def test_log_grid():
    grid = log_grid(10**6)
    assert grid[0] == 1 and grid[-1] == 10**6 and np.all(np.diff(grid) > 0)
    assert 200 <= len(grid) <= 260
    assert log_grid(1).tolist() == [1] and log_grid(7)[-1] == 7


def test_seeds_are_stable_and_independent():
    a = seeds.algorithm_rng(1, "gap", 3, "dts").random(3)
    assert np.array_equal(a, seeds.algorithm_rng(1, "gap", 3, "dts").random(3))
    assert not np.array_equal(a, seeds.algorithm_rng(1, "gap", 4, "dts").random(3))
    assert not np.array_equal(a, seeds.algorithm_rng(1, "gap", 3, "dts_plus").random(3))
    assert not np.array_equal(a, seeds.algorithm_rng(2, "gap", 3, "dts").random(3))
    assert seeds.run_permutation(5, "gap", 0, 5, shuffle=False).tolist() == [0, 1, 2, 3, 4]
    perm = seeds.run_permutation(5, "gap", 0, 5)
    assert sorted(perm.tolist()) == [0, 1, 2, 3, 4]


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


def test_store_roundtrip_and_stale_or_corrupt_files(tmp_path):
    path = chunk_path(tmp_path, 0, 3)
    save_chunk(path, {"x": np.arange(3)}, {"config": {"a": 1}})
    assert load_chunk(path, {"a": 1})["x"].tolist() == [0, 1, 2]
    assert load_chunk(path, {"a": 2}) is None
    path.write_bytes(b"garbage")
    assert load_chunk(path, {"a": 1}) is None
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temp file left behind


def lines_for(datasets=("gap", "nc_cyclic"), algorithms=("dts", "dts_plus")):
    return [Line(dataset=d, algorithm=a, horizon=3000, runs=5) for d in datasets for a in algorithms]


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


def test_resume_recomputes_only_missing_or_corrupt_chunks(tmp_path):
    line = Line(dataset="gap", algorithm="dts", horizon=2000, runs=5)
    first = run_lines([line], "res", tmp_path, seed=1, n_jobs=1, progress=False)[0]
    files = sorted(line_folder(tmp_path, line, 1).glob("*.npz"))
    assert files
    files[0].write_bytes(b"interrupted")
    stamp = {f: f.stat().st_mtime_ns for f in files[1:]}
    again = run_lines([line], "res", tmp_path, seed=1, n_jobs=1, progress=False)[0]
    np.testing.assert_array_equal(first.final, again.final)
    assert all(f.stat().st_mtime_ns == stamp[f] for f in files[1:])


def test_one_stored_line_serves_every_figure_and_parameters_are_part_of_its_key(tmp_path):
    """A line is stored by what changes its runs, not by the figure: a second figure asking for the same
    line reuses the chunks; another parameter value, delay, arm order or horizon is another folder."""
    line = Line(dataset="gap", algorithm="dts", horizon=500, runs=2)
    run_lines([line], "figA", tmp_path, seed=1, n_jobs=1, progress=False)
    files = sorted(tmp_path.rglob("*.npz"))
    stamp = [f.stat().st_mtime_ns for f in files]
    run_lines([Line(dataset="gap", algorithm="dts", horizon=500, runs=2, tag="D-TS again")], "figB", tmp_path,
              seed=1, n_jobs=1, progress=False)
    assert sorted(tmp_path.rglob("*.npz")) == files and [f.stat().st_mtime_ns for f in files] == stamp
    keys = {line_key(Line(dataset="gap", algorithm="dts", horizon=500, runs=2, params=params, delay=delay,
                          shuffle=shuffle))
            for params in ((), (("alpha", 0.6),), (("alpha", 0.7),), (("alpha", 0.51),))
            for delay in (1, 10) for shuffle in (True, False)}
    assert len(keys) == 3 * 2 * 2  # alpha=0.51 is the default: the same folder as no parameter
    assert line_key(line) == "dts_T500"


def test_stored_config_records_defaults_so_a_changed_default_is_stale(tmp_path, monkeypatch):
    """The config of a chunk holds every parameter, defaults included: if a default changes, the stored
    runs no longer match and are recomputed instead of being reused silently."""
    line = Line(dataset="gap", algorithm="rucb", horizon=300, runs=2)
    run_lines([line], "x", tmp_path, seed=1, n_jobs=1, progress=False)
    (path,) = tmp_path.rglob("*.npz")
    with np.load(path) as handle:
        assert json.loads(str(handle["meta"]))["config"]["params"] == {"alpha": 0.51, "hypothesis": "as-run"}
    spec = get_algorithm("rucb")
    changed = dataclasses.replace(spec, defaults={**spec.defaults, "hypothesis": "original"})
    monkeypatch.setattr(runner, "get_algorithm", lambda name: changed)
    dataset, _ = validate_line(line)
    with pytest.raises(ValueError, match="missing or stale"):
        load_line(line, dataset, spec, tmp_path, 1)


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


def run_cli(*args, cwd=ROOT):
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=300, env=env)


@pytest.mark.parametrize("args,message", [
    (["reproduce/run.py", "--dataset", "nope", "--algorithms", "dts"], "error: unknown dataset 'nope'"),
    (["reproduce/run.py", "--dataset", "gap", "--algorithms", "nope"], "error: unknown algorithm 'nope'"),
    (["reproduce/run.py", "--dataset", "gap", "--algorithms", "dts", "--param", "dts.alpha=-1"],
     "error: alpha must be a finite number > 0, got -1.0"),
    (["reproduce/run.py", "--dataset", "gap", "--algorithms", "dts", "--horizon", "0"],
     "error: --horizon must be >= 1"),
    (["reproduce/fig7_pure_dts.py", "--runs", "0"], "error: --runs must be >= 1, got 0"),
    (["reproduce/fig7_pure_dts.py", "--horizon", "-5"], "error: --horizon must be >= 1, got -5"),
    (["reproduce/fig7_pure_dts.py", "--backend", "dask"], "error: --backend dask needs --scheduler ADDRESS"),
])
@pytest.mark.process
def test_cli_bad_input_exits_2_with_one_line_and_no_files(tmp_path, args, message):
    proc = run_cli(*args, "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f"))
    assert proc.returncode == 2
    assert proc.stderr.strip() == message or proc.stderr.strip().startswith(message)
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "r").exists() and not (tmp_path / "f").exists()


@pytest.mark.process
def test_cli_bad_matrix_file_names_the_entry(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("0.5 0.7\n0.2 0.5\n")
    proc = run_cli("reproduce/run.py", "--dataset", str(bad), "--algorithms", "dts", "--out", str(tmp_path / "r"))
    assert proc.returncode == 2
    assert "p[0,1] + p[1,0] = 0.7 + 0.2" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "r").exists()


@pytest.mark.process
def test_cli_small_run_writes_figure_and_tables(tmp_path):
    proc = run_cli("reproduce/run.py", "--dataset", "cyclic", "--algorithms", "dts", "pure_dts", "--runs", "2",
                   "--horizon", "500", "--n-jobs", "1", "--no-progress", "--out", str(tmp_path / "r"),
                   "--figures", str(tmp_path / "f"), "--name", "smoke")
    assert proc.returncode == 0, proc.stderr
    for suffix in (".png", ".pdf", ".csv"):
        assert (tmp_path / "f" / f"smoke{suffix}").stat().st_size > 0
    assert "pure D-TS" in (tmp_path / "f" / "smoke_final.csv").read_text()


def test_run_one_resolves_defaults_and_problem_params():
    """run_one with no parameters runs SAVAGE with the variant the true matrix implies (docs/harness.md#regret)."""
    spec = get_algorithm("savage")
    for name, implied, other in (("gap", "copeland", "condorcet"), ("arxiv", "condorcet", "copeland")):
        dataset = load_dataset(name)
        default = run_one(dataset, spec, {}, 30000, 0, 1)["regret"]
        assert np.array_equal(default, run_one(dataset, spec, {"variant": implied}, 30000, 0, 1)["regret"])
        # the two variants part ways within 30000 slots on both matrices, so the default is not a coincidence
        assert not np.array_equal(default, run_one(dataset, spec, {"variant": other}, 30000, 0, 1)["regret"])


def test_report_collects_claims_and_final_tables(tmp_path):
    from reproduce.report import main as report_main

    (tmp_path / "figX_final.csv").write_text(
        "panel,dataset,algorithm,label,horizon,runs,mean_final_regret,std_final_regret,sem_final_regret\n"
        "(a),gap,dts,D-TS,100,2,18.25,5.0,3.5\n")
    (tmp_path / "figX_claims.csv").write_text("claim,where,statement,measured,verdict\nC1,w,s,m,holds\n")
    report_main(["--figures", str(tmp_path)])
    text = (tmp_path / "REPORT.md").read_text()
    assert "## Final regret R(T): figX" in text and "| C1 | w | s | m | holds |" in text
    assert "| (a) | D-TS | 100 | 2 | 18.2 |" in text


def test_verify_accepts_reproduced_chunks_and_flags_changed_ones(tmp_path, capsys):
    """reproduce/verify.py: fresh results check out; a chunk whose stored numbers were altered does not."""
    lines = [Line(dataset="gap", algorithm=a, horizon=400, runs=3) for a in ("ccb", "rucb")]
    run_lines(lines, "ver", tmp_path, seed=5, n_jobs=1, progress=False)
    args = argparse.Namespace(folders=[tmp_path], runs_per_chunk=2, algorithms=None, max_horizon=None)
    assert verify(args) == 0
    path = next(line_folder(tmp_path, lines[0], 5).glob("*.npz"))
    with np.load(path) as handle:
        arrays = {key: handle[key] for key in handle.files}
    arrays["final"][1] += 1.0
    with open(path, "wb") as handle:
        np.savez_compressed(handle, **arrays)
    assert verify(args) == 1
    assert "run 1: final differs" in capsys.readouterr().err
    assert verify(argparse.Namespace(**{**vars(args), "algorithms": ["rucb"]})) == 0


def test_verify_handles_stream_versions(tmp_path, capsys, monkeypatch):
    """A chunk made with a stream-versioned value (D-TS sampling="fast", every --fast result) records
    sampling_stream next to the parameters: verify re-simulates it (it used to stop at once with "unknown
    parameter 'sampling_stream'", exit 2), and reports it stale once the code draws another version."""
    run_lines([Line(dataset="gap", algorithm="dts", horizon=400, runs=2, params=(("sampling", "fast"),))], "ver",
              tmp_path, seed=5, n_jobs=1, progress=False)
    args = argparse.Namespace(folders=[tmp_path], runs_per_chunk=2, algorithms=None, max_horizon=None)
    assert verify(args) == 0
    spec = get_algorithm("dts")
    monkeypatch.setitem(ALGORITHMS, "dts", dataclasses.replace(spec, streams={"sampling": {"fast": 99}}))
    assert verify(args) == 1
    assert re.search(r"drawn with stream versions \{'sampling_stream': 3\}, the code now draws "
                     r"\{'sampling_stream': 99\}: stale, recompute it", capsys.readouterr().err)


@pytest.mark.parametrize("folder, algorithm", [
    ("results/mslr5_condorcet/dts_T1000000", "dts"),
    ("results/mslr5_condorcet/ccb_T1000000", "ccb"),
])
def test_stored_paper_scale_runs_reproduce(folder, algorithm):
    """The committed paper-scale results are what the current code computes (first run of a chunk,
    T = 1e6): a change that alters any decision of these algorithms must come with new results."""
    path = sorted((ROOT / folder).glob("*.npz"))[0]
    assert verify_chunk(path, 1) == []


@pytest.mark.process
def test_verify_cli_bad_folder_exits_2(tmp_path):
    proc = run_cli("reproduce/verify.py", str(tmp_path / "missing"))
    assert proc.returncode == 2 and proc.stderr.strip() == f"error: no results folder {str(tmp_path / 'missing')!r}"


def test_zoomed_row_is_presentation_only(tmp_path):
    """A zoom limit below the curves clips the panel (its full range goes to an inset); the CSV of what is
    drawn is the same."""
    from matplotlib import image

    from reproduce.plotting import plot_regret_panels
    lines = [Line(dataset="gap", algorithm=a, horizon=300, runs=2) for a in ("dts", "btm")]
    results = [("gap", run_lines(lines, "zoom", tmp_path, seed=2, n_jobs=1, progress=False))]
    plain = plot_regret_panels(results, tmp_path / "plain", ncols=1)
    zoomed = plot_regret_panels(results, tmp_path / "zoomed", ncols=1, zooms=[1.0])
    pd_testing.assert_frame_equal(plain, zoomed)
    pixels = {name: image.imread(tmp_path / f"{name}.png") for name in ("plain", "zoomed")}
    # the same panel (no second row), one note line taller (what the inset is)
    assert pixels["zoomed"].shape[1] == pixels["plain"].shape[1]
    assert pixels["plain"].shape[0] < pixels["zoomed"].shape[0] < 1.1 * pixels["plain"].shape[0]
    unneeded = plot_regret_panels(results, tmp_path / "unneeded", ncols=1, zooms=[1e9])  # above every curve
    assert np.array_equal(image.imread(tmp_path / "unneeded.png"), pixels["plain"])
    pd_testing.assert_frame_equal(plain, unneeded)
    plot_regret_panels(results, tmp_path / "again", ncols=1)  # no timestamp: a redraw is byte-identical
    assert (tmp_path / "again.pdf").read_bytes() == (tmp_path / "plain.pdf").read_bytes()


@pytest.mark.parametrize("name", ["dts", "dts_plus", "ccb", "rcs", "rucb", "rmed1", "ecw_rmed", "scb", "btm",
                                  "sparring", "multisbm"])
def test_state_size_grows_at_most_as_k_squared(name):
    """make_state sizes a state of K > STATE_PROBE_K arms as (K / STATE_PROBE_K)^2 times a probe state's
    before allocating it: that must not underestimate (checked at 2 STATE_PROBE_K, within rounding)."""
    spec = get_algorithm(name)
    params = spec.resolve_params({})
    probe, real = (state_bytes(spec.init(K, 1000, **params)) for K in (STATE_PROBE_K, 2 * STATE_PROBE_K))
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


def test_a_line_with_a_none_default_is_stored_and_reused(tmp_path):
    """MergeDTS's C defaults to None (its formula): the line runs, is stored, and reloads as the same runs."""
    line = Line("mslr5_condorcet", "merge_dts", horizon=50, runs=2)
    assert get_algorithm("merge_dts").defaults["C"] is None
    (result,) = run_lines([line], "x", tmp_path / "r", seed=0, n_jobs=1, progress=False)
    reloaded = load_line(line, load_dataset(line.dataset), get_algorithm(line.algorithm), tmp_path / "r", seed=0)
    np.testing.assert_array_equal(reloaded.final, result.final)
