"""Run kinds (reproduce.harness.kinds): a kind declared here, outside the harness, is planned, stored, reused,
loaded and verified by the harness as it is; the runner asks a line's kind and never branches on which it is; a
kind reaches a worker process with its probe by reference; a stored chunk's kind is found by its marker."""

import ast
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.checks import resimulate as checks_verify
from dts_reproduction.reproduce.harness import limits, runner
from dts_reproduction.reproduce.harness.curves import CURVES
from dts_reproduction.reproduce.harness.kinds import MARKER_KEY, ChunkSize, RunKind, StoredArray, kind_of
from dts_reproduction.reproduce.harness.runner import Line, line_folder, load_line, run_lines
from dts_reproduction.reproduce.harness.store import read_chunk, save_chunk
from dts_reproduction.reproduce.studies.elimination_study import C18_ELIMINATION
from tests.scripts import run_script

SLOTS, HEADS = range(2)  # the toy probe's counts


@njit(cache=True)
def coin_probe(state, rng, counts):
    """A toy probe: counts the slots, and the heads of a fair coin tossed on its own stream at each."""
    counts[SLOTS] += 1
    counts[HEADS] += rng.random() < 0.5


def every_slot_probed(chunk: dict, config: dict, dataset) -> str | None:
    """The toy kind's consistency: every run probed each of its slots."""
    if np.any(chunk["slots"] != config["horizon"]):
        return "damaged (a run's slot count is not its horizon: edited?)"
    return None


# Per run: the exact final regret (an output of the loop every run has) and the probe's two counts.
TOY = RunKind(name="coin_toss", version=3, probe=coin_probe, counts=("slots", "heads"), algorithms=("rucb",),
              consistency=every_slot_probed,
              arrays=(StoredArray("final", "float64", ("runs",)), StoredArray("slots", "int64", ("runs",)),
                      StoredArray("heads", "int64", ("runs",), presented="float64")))
LINE = Line(dataset="mslr5_condorcet", algorithm="rucb", horizon=300, runs=3, kind=TOY)


def verify_main(folder: Path, capsys) -> tuple[int, str, str]:
    """reproduce/verify.py on ``folder``, one run a chunk: (exit status, stdout, stderr)."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        run_script("reproduce/verify.py", [folder, "--runs-per-chunk", "1"])
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def test_a_kind_declared_outside_the_harness_is_stored_reused_loaded_and_verified(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(limits, "CHUNK_SLOTS", 2 * LINE.horizon * 5)  # two runs a chunk: two chunks
    toy = run_lines([LINE], "t", tmp_path, 3, n_jobs=1, progress=False, backend="sequential")[0]
    folder = line_folder(tmp_path, LINE, 3)
    assert folder == tmp_path / "coin_toss" / "mslr5_condorcet.s3" / "rucb_T300"
    assert sorted(path.name for path in folder.glob("*.npz")) == ["runs_00000-00002.npz", "runs_00002-00003.npz"]
    chunk = read_chunk(folder / "runs_00000-00002.npz")
    assert chunk["meta"]["config"][MARKER_KEY] == "coin_toss v3"
    assert {name: (chunk[name].dtype.str, chunk[name].shape) for name in ("final", "slots", "heads")} == {
        "final": ("<f8", (2,)), "slots": ("<i8", (2,)), "heads": ("<i8", (2,))}
    # loaded as the kind presents it; the probe changed nothing of the runs (the curves line's own final regrets)
    assert set(toy.arrays) == {"final", "slots", "heads"} and toy.arrays["heads"].dtype == np.float64
    assert toy.arrays["slots"].tolist() == [LINE.horizon] * LINE.runs
    assert np.all((toy.arrays["heads"] > 100) & (toy.arrays["heads"] < 200))
    curves = run_lines([Line(LINE.dataset, LINE.algorithm, LINE.horizon, LINE.runs)], "t", tmp_path, 3, n_jobs=1,
                       progress=False, backend="sequential")[0]
    np.testing.assert_array_equal(toy.final, curves.final)
    with pytest.raises(AttributeError, match="a coin_toss line stores no 'regret'"):
        toy.regret  # noqa: B018

    def no_compute(*_):
        raise AssertionError("a stored chunk of the toy kind was recomputed")

    monkeypatch.setattr(runner, "_compute_chunk", no_compute)
    again = run_lines([LINE], "t", tmp_path, 3, n_jobs=1, progress=False, backend="sequential")[0]
    assert all(np.array_equal(again.arrays[name], toy.arrays[name]) for name in toy.arrays)

    # verify knows the kinds it is handed: without the toy one, its chunks are no known kind's
    status, out, err = verify_main(folder, capsys)
    assert status == 1 and "2 chunks checked" not in out and "'coin_toss v3' is no known run kind's" in err
    monkeypatch.setattr(checks_verify, "RUN_KINDS", (*checks_verify.RUN_KINDS, TOY))
    status, out, err = verify_main(tmp_path, capsys)
    assert status == 0 and "4 chunks checked, 0 damaged, 0 mismatches" in out, err

    # a count edited with a digest recorded anew: the kind's own check finds it, as the runner and verify read it
    path = folder / "runs_00002-00003.npz"
    chunk = read_chunk(path)
    meta = chunk.pop("meta")
    save_chunk(path, {**chunk, "slots": chunk["slots"] - 1}, meta)
    status, out, err = verify_main(folder, capsys)
    assert status == 1 and "1 damaged" in out and "a run's slot count is not its horizon" in err
    dataset = load_dataset(LINE.dataset)
    with pytest.raises(ValueError, match="a run's slot count is not its horizon"):
        load_line(LINE, dataset, get_algorithm(LINE.algorithm), tmp_path, 3)


def test_a_kind_refuses_what_it_cannot_run_before_any_work(tmp_path):
    with pytest.raises(ValueError, match="a coin_toss line runs rucb, got algorithm 'dts'"):
        run_lines([Line(LINE.dataset, "dts", 10, 1, kind=TOY)], "t", tmp_path / "r", 3, n_jobs=1, progress=False)
    with pytest.raises(ValueError, match=r"kind must be a RunKind \(reproduce.harness.kinds\), got 'coin_toss'"):
        run_lines([Line(LINE.dataset, "rucb", 10, 1, kind="coin_toss")], "t", tmp_path / "r", 3, n_jobs=1,
                  progress=False)
    assert not (tmp_path / "r").exists()


def test_the_runner_never_branches_on_a_kind():
    """Every mention of a kind in the runner is a call into it (or passes it on): no test of a condition, loop or
    comprehension names one."""
    tree = ast.parse(Path(runner.__file__).read_text(encoding="utf-8"))
    tests = [node.test for node in ast.walk(tree) if isinstance(node, (ast.If, ast.IfExp, ast.While, ast.Assert))]
    tests += [condition for node in ast.walk(tree) if isinstance(node, ast.comprehension) for condition in node.ifs]
    tests += [node.subject for node in ast.walk(tree) if isinstance(node, ast.Match)]
    assert [ast.unparse(test) for test in tests if "kind" in ast.unparse(test)] == []


def test_a_kind_reaches_another_process_with_its_modules_probe():
    """Pickled as a worker gets it, a kind's probe is its module's compiled (and cached) kernel, not a copy rebuilt
    from its code, which the worker would compile again; the kind is equal to the one pickled."""
    code = ("import pickle, sys; from dts_reproduction.algorithms import dts_probe; "
            "from dts_reproduction.reproduce.studies.elimination_study import C18_ELIMINATION; "
            "kind = pickle.loads(sys.stdin.buffer.read()); "
            "print(kind.probe is dts_probe.elimination_probe, kind == C18_ELIMINATION)")
    done = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(C18_ELIMINATION), capture_output=True,
                          check=True, timeout=120)
    assert done.stdout.split() == [b"True", b"True"]
    assert pickle.loads(pickle.dumps(CURVES)) == CURVES


def test_a_stored_config_names_its_kind_by_its_marker():
    assert kind_of({"horizon": 10}, (CURVES, C18_ELIMINATION)) is CURVES
    assert kind_of({MARKER_KEY: "c18_elimination v1"}, (CURVES, C18_ELIMINATION)) is C18_ELIMINATION
    with pytest.raises(ValueError, match="'c18_elimination v0' is no known run kind's .known: 'c18_elimination v1'"):
        kind_of({MARKER_KEY: "c18_elimination v0"}, (CURVES, C18_ELIMINATION))
    assert (C18_ELIMINATION.folder, CURVES.folder, CURVES.config_entries()) == (Path("c18_elimination"), Path(), {})


def test_a_kinds_arrays_are_shaped_and_sized_by_the_chunk():
    size = ChunkSize(runs=3, arms=5, checkpoints=7)
    assert CURVES.shapes(size) == {"regret": (3, 7), "g2w": (3, 7), "final": (3,), "self_counts": (3, 5),
                                   "permutation": (3, 5), "checkpoints": (7,), "weak": (3, 7)}
    assert CURVES.per_run_arrays() == ("regret", "g2w", "final", "self_counts", "permutation", "weak")
    assert CURVES.later_arrays() == ("weak",)
    # stored float32 and presented float64 curves, the rest as stored (twice per run), the checkpoints once
    assert CURVES.loaded_bytes(size) == 3 * 3 * 7 * (4 + 4 + 8) + 3 * 16 + 2 * 3 * 5 * 16 + 7 * 8


def test_a_chunk_stored_before_the_weak_regret_stays_valid_and_loads_as_nan(tmp_path):
    """A curves chunk without ``weak`` (every chunk stored before it was kept) passes the store's checks and loads
    with NaN weak regret for its runs, beside a chunk that has it; a chunk without another array is damaged."""
    line = Line("mslr5_condorcet", "rucb", 200, 2)
    dataset = load_dataset(line.dataset)
    runner.run_lines([line], "weak", tmp_path, seed=3, n_jobs=1, progress=False, backend="sequential")
    (path,) = runner.line_folder(tmp_path, line, 3).glob("runs_*.npz")
    fresh = read_chunk(path)
    meta = fresh.pop("meta")
    assert np.all(np.isfinite(fresh["weak"])) and np.all(fresh["weak"] <= fresh["regret"])
    save_chunk(path, {name: array for name, array in fresh.items() if name != "weak"}, meta)
    loaded = runner.load_line(line, dataset, get_algorithm("rucb"), tmp_path, 3)
    assert loaded.weak.shape == loaded.regret.shape and np.isnan(loaded.weak).all()
    np.testing.assert_array_equal(loaded.regret, fresh["regret"].astype(np.float64))
    save_chunk(path, {name: array for name, array in fresh.items() if name != "g2w"}, meta)
    with pytest.raises(ValueError, match="missing arrays: g2w"):
        runner.load_line(line, dataset, get_algorithm("rucb"), tmp_path, 3)


def test_a_curves_result_keeps_the_runs_asked_for():
    arrays = {"checkpoints": np.array([1, 2]), "regret": np.arange(6.0).reshape(3, 2), "g2w": np.zeros((3, 2)),
              "final": np.array([1.0, 3.0, 5.0]), "self_counts": np.eye(3, dtype=np.int64),
              "permutation": np.tile(np.arange(3), (3, 1))}
    result = runner.LineResult(Line("cyclic", "dts", 2, 3), "x", arrays)
    kept = result.of_runs(np.array([True, False, True]))
    assert kept.final.tolist() == [1.0, 5.0] and kept.regret.shape == (2, 2) and kept.permutations.shape == (2, 3)
    assert kept.checkpoints is result.checkpoints and result.final.tolist() == [1.0, 3.0, 5.0]
