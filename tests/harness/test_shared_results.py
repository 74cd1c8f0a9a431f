"""Issue 22, "safe to share a results folder", in-process part: a line's folder is keyed by what produced it
(the committed paper folders unchanged), --plot-only only reads, and the smaller defects of the issue.  The
parts with real processes, signals and concurrent runs are tests/integration/test_processes.py (marker ``process``)."""

import errno
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from dts_reproduction.algorithms import DTS
from dts_reproduction.algorithms.base import INT64_MAX
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.cli.arguments import build_parser
from dts_reproduction.reproduce.cli.param_flags import parse_params
from dts_reproduction.reproduce.config.paper import ROOT_SEED
from dts_reproduction.reproduce.harness import limits, runner
from dts_reproduction.reproduce.harness.atomic import write_atomic
from dts_reproduction.reproduce.harness.locks import FileLock
from dts_reproduction.reproduce.harness.paths import RESULTS
from dts_reproduction.reproduce.harness.runner import Line, dataset_key, line_folder, load_line, run_lines
from dts_reproduction.reproduce.harness.store import chunk_matrix, read_chunk, save_chunk
from dts_reproduction.reproduce.studies import lower_bound_cache
from tests.scripts import run_script

PAPER_MATRIX = Path(load_dataset("mslr5_condorcet").source)


def other_matrix(folder: Path, name: str = "mslr5_condorcet.txt") -> Path:
    """A matrix file named like the paper's MSLR K=5 Condorcet, with one pair changed."""
    text = PAPER_MATRIX.read_text()
    P = load_dataset("mslr5_condorcet").P.copy()
    P[0, 1], P[1, 0] = P[0, 1] - 0.01, P[1, 0] + 0.01
    header = [line for line in text.splitlines() if line.startswith("#")]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("\n".join([*header, *(" ".join(repr(float(x)) for x in row) for row in P)]) + "\n")
    return path


def tree(folder: Path) -> dict:
    """Every path under ``folder`` with its size and modification time (folders: -1)."""
    return {str(p): (p.stat().st_size, p.stat().st_mtime_ns) if p.is_file() else -1 for p in sorted(folder.rglob("*"))}


def test_committed_paper_lines_keep_their_folders_and_load():
    """The packaged matrix under the default seed keeps today's folder; the committed chunks load (their config
    is unchanged) and re-simulate bit for bit."""
    cases = [(Line("mslr5_condorcet", "btm", 10, 500), "mslr5_condorcet/btm_T10"),
             (Line("mslr5_condorcet", "dts", 1_000_000, 500), "mslr5_condorcet/dts_T1000000"),
             (Line(str(PAPER_MATRIX), "savage", 1000, 500), "mslr5_condorcet/savage_T1000"),
             (Line("nc_cyclic", "rucb", 1_000_000, 500), "nc_cyclic/rucb_T1000000")]
    for line, folder in cases:
        assert line_folder(RESULTS, line) == RESULTS / folder
        dataset = load_dataset(line.dataset)
        result = load_line(line, dataset, runner.get_algorithm(line.algorithm), RESULTS, ROOT_SEED)
        assert result.final.shape == (500,)


def test_verify_committed_short_lines(capsys):
    with pytest.raises(SystemExit) as exit_:
        run_script("reproduce/verify.py", [str(RESULTS / "mslr5_condorcet"), "--max-horizon", "1000", "--algorithms",
                                           "btm"])
    out = capsys.readouterr().out
    assert exit_.value.code == 0, out
    assert re.search(r"^([1-9]\d*) chunks checked, 0 damaged, 0 mismatches, 0 without a digest$", out, re.M), out


def test_dataset_key_never_collides_with_a_paper_folder(tmp_path):
    paper = load_dataset("mslr5_condorcet")
    assert dataset_key(paper) == "mslr5_condorcet" == dataset_key(load_dataset(PAPER_MATRIX))
    copy = tmp_path / "mslr5_condorcet.txt"
    shutil.copy(PAPER_MATRIX, copy)
    assert dataset_key(load_dataset(copy)) == "mslr5_condorcet"  # the same matrix: the same runs
    custom = load_dataset(other_matrix(tmp_path / "x"))
    assert re.fullmatch(r"mslr5_condorcet\.m[0-9a-f]{12}", dataset_key(custom))
    assert dataset_key(paper, 1) == "mslr5_condorcet.s1"
    assert re.fullmatch(r"mslr5_condorcet\.m[0-9a-f]{12}\.s2", dataset_key(custom, 2))


def test_custom_matrix_named_like_a_paper_dataset_gets_its_own_folder(tmp_path, capsys):
    """It rewrote results/mslr5_condorcet/btm_T10, after which fig1 --plot-only dropped BTM; verify.py then
    reported every chunk made from a matrix file damaged."""
    matrix = other_matrix(tmp_path)
    out = tmp_path / "r"
    run_script("reproduce/run.py", ["--dataset", str(matrix), "--algorithms", "btm", "dts", "--runs", "3",
                                    "--horizon", "100", "--n-jobs", "1", "--no-progress", "--out", str(out),
                                    "--figures", str(tmp_path / "f"), "--name", "own"])
    stdout = capsys.readouterr().out
    key = dataset_key(load_dataset(matrix))
    assert [p.name for p in out.iterdir() if p.is_dir()] == [key] and key != "mslr5_condorcet"  # and the bounds' cache
    assert f"wrote results under {out / key}\n" in stdout
    assert f"wrote figures {tmp_path / 'f' / 'own'}.png" in stdout
    path = next((out / key).rglob("runs_*.npz"))
    np.testing.assert_array_equal(chunk_matrix(path, read_chunk(path)), load_dataset(matrix).P)
    with pytest.raises(SystemExit) as exit_:
        run_script("reproduce/verify.py", [str(out)])
    assert exit_.value.code == 0, capsys.readouterr()
    # BTM at T = 10, 30, 100; D-TS
    assert "4 chunks checked, 0 damaged, 0 mismatches, 0 without a digest" in capsys.readouterr().out


def test_run_py_writes_to_the_git_ignored_custom_folders_by_default():
    namespace = build_parser("x", 10).parse_args([])
    assert namespace.out is None  # the figure scripts' default: results/

    for folder in ("results/custom/a/b.npz", "figures/custom/x.png", "results/mslr5_condorcet/.chunks.lock",
                   "results/.lower_bounds.json.lock"):
        assert subprocess.run(["git", "check-ignore", "-q", folder], cwd=RESULTS.parent).returncode == 0, folder


def test_plot_only_nothing_stored_is_one_line_exit_2(tmp_path, capsys):
    """It was a KeyError: 'panel' traceback, and an empty figure written."""
    with pytest.raises(SystemExit) as exit_:
        run_script("reproduce/fig1_mslr.py", ["--quick", "--plot-only", "--out", str(tmp_path / "r"), "--figures",
                                              str(tmp_path / "f")])
    out, err = capsys.readouterr()
    assert exit_.value.code == 2
    assert err == (f"error: --plot-only: no stored results of fig1_mslr under {tmp_path / 'r' / 'quick'} "
                   f"(run it without --plot-only first)\n")
    assert not (tmp_path / "f").exists() and not (tmp_path / "r").exists()


def test_plot_only_draws_what_exists_from_a_read_only_folder(tmp_path, capsys):
    """--plot-only wrote lower_bounds.json into the results folder: it failed on a read-only copy."""
    out = tmp_path / "r"
    run_lines([Line("mslr5_condorcet", "dts", 10_000, 20)], "x", out / "quick", seed=ROOT_SEED, n_jobs=1,
              progress=False)
    before = tree(out)
    for folder in [out, *out.rglob("*")]:
        if folder.is_dir():
            folder.chmod(0o555)
    try:
        run_script("reproduce/fig1_mslr.py", ["--quick", "--plot-only", "--out", str(out), "--figures",
                                              str(tmp_path / "f")])
    finally:
        for folder in [out, *out.rglob("*")]:
            if folder.is_dir():
                folder.chmod(0o755)
    err = capsys.readouterr().err
    assert err.startswith("note: not computed yet, left out: (a) MSLR K=5, Condorcet: btm; ")
    assert len(err.splitlines()) == 1
    assert "(a) MSLR K=5, Condorcet: rucb;" in err and "(a) MSLR K=5, Condorcet: dts;" not in err
    assert tree(out) == before
    assert (tmp_path / "f" / "quick" / "fig1_mslr.png").is_file()


def test_chunk_name_taken_by_a_folder_is_bad_input_before_any_compute(tmp_path, capsys):
    """It failed after the compute, naming the hidden .tmp file."""
    args = ["--dataset", "gap", "--algorithms", "dts", "--runs", "2", "--horizon", "100", "--n-jobs", "1",
            "--no-progress", "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f")]
    blocker = line_folder(tmp_path / "r", Line("gap", "dts", 100, 2)) / "runs_00000-00002.npz"
    blocker.mkdir(parents=True)
    before = tree(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        run_script("reproduce/run.py", args)
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert err == (f"error: results folder {tmp_path / 'r'}: {blocker} is in the way of a chunk file "
                   f"(it is not a file)\n")
    assert tree(tmp_path) == before


def test_disk_full_names_the_file_not_the_temporary(tmp_path):
    def full(tmp):
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OSError) as error:
        write_atomic(tmp_path / "a.npz", full)
    assert error.value.errno == errno.ENOSPC and error.value.filename == str(tmp_path / "a.npz")
    assert list(tmp_path.iterdir()) == []


def test_results_folder_removed_mid_run_is_exit_1_not_2(tmp_path, capsys, monkeypatch):
    """It exited 2, the bad-input status, after all the compute."""
    monkeypatch.setattr(limits, "CHUNK_SLOTS", 100 * 5)  # one run per chunk
    calls = []

    def save_then_remove(path, arrays, meta):
        save_chunk(path, arrays, meta)
        calls.append(path)
        if len(calls) == 1:
            shutil.rmtree(tmp_path / "r")

    monkeypatch.setattr(runner, "save_chunk", save_then_remove)
    with pytest.raises(SystemExit) as exit_:
        run_script("reproduce/run.py", ["--dataset", "gap", "--algorithms", "dts", "--runs", "2", "--horizon", "100",
                                        "--n-jobs", "1", "--no-progress", "--out", str(tmp_path / "r"), "--figures",
                                        str(tmp_path / "f")])
    err = capsys.readouterr().err
    assert exit_.value.code == 1
    assert re.fullmatch(r"error: missing or stale results for dts on gap, runs 0-0 \(\S+: missing\): stored by this "
                        r"run, then removed or changed \(was the results folder removed while it ran\?\); rerun to "
                        r"recompute it\n", err), err


def test_empty_csv_is_named_by_report(tmp_path, capsys):
    (tmp_path / "fig1_mslr_final.csv").write_bytes(b"")
    with pytest.raises(SystemExit) as exit_:
        run_script("reproduce/report.py", ["--figures", str(tmp_path)])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert err == (f"error: {tmp_path / 'fig1_mslr_final.csv'}: empty file, not a table "
                   f"(rerun the script that writes it)\n")


def test_param_one_and_one_point_zero_are_one_key():
    a = parse_params(["dts.alpha=1"], ["dts"])
    b = parse_params(["dts.alpha=1.0"], ["dts"])
    assert a == b and isinstance(a["dts"]["alpha"], float)
    keys = {runner.line_key(Line("gap", "dts", 10, 1, params=tuple(p["dts"].items()))) for p in (a, b)}
    assert len(keys) == 1


def test_seed_edited_in_a_chunk_is_not_reused(tmp_path, capsys):
    """A chunk whose metadata says another seed than the one it was drawn with was reused silently."""
    line = Line("mslr5_condorcet", "dts", 100, 4)
    run_lines([line], "x", tmp_path, seed=1, n_jobs=1, progress=False)
    stored = next(line_folder(tmp_path, line, 1).glob("runs_*.npz"))
    chunk = read_chunk(stored)
    meta = chunk.pop("meta")
    meta["config"]["seed"] = 2
    target = line_folder(tmp_path, line, 2) / stored.name
    save_chunk(target, chunk, meta)
    run_lines([line], "x", tmp_path, seed=2, n_jobs=1, progress=False)
    assert re.search(r"recomputing \S+: stale \(the arm order of run 0 is not the one seed 2 draws",
                     capsys.readouterr().err)
    assert read_chunk(target)["meta"]["config"]["seed"] == 2
    assert not np.array_equal(read_chunk(target)["permutation"], chunk["permutation"])


def test_one_run_has_no_standard_error(tmp_path, capsys):
    """--runs 1 printed s.e. 0.00."""
    run_script("reproduce/run.py", ["--dataset", "gap", "--algorithms", "dts", "--runs", "1", "--horizon", "100",
                                    "--n-jobs", "1", "--no-progress", "--out", str(tmp_path / "r"), "--figures",
                                    str(tmp_path / "f")])
    out = capsys.readouterr().out
    row = out.splitlines()[1].split()
    assert row[7:9] == ["NaN", "NaN"], out  # std_final_regret, sem_final_regret


def test_bom_matrix_is_read(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf0.5 0.6\n0.4 0.5\n")
    assert load_dataset(path).P[0, 1] == 0.6


def test_renormalised_warning_once_per_matrix(tmp_path, recwarn):
    path = tmp_path / "once.txt"
    path.write_text("0.5 0.6 0.5\n0.4002 0.5 0.5\n0.5 0.5 0.5\n")
    for _ in range(3):
        load_dataset(path)
    assert [str(w.message) for w in recwarn if "renormalised" in str(w.message)] == [
        "dataset 'once': renormalised 1 pair(s) whose sum was within 0.001 of 1: (0,1)"]


def test_policy_at_the_last_int64_slot_is_a_value_error():
    policy = DTS(3, seed=1)
    policy.t = INT64_MAX
    with pytest.raises(ValueError, match=r"select\(\): the policy has played t = 9223372036854775807 slots, the most "
                                         r"its int64 slot counter holds"):
        policy.select()


def test_file_lock_excludes_a_second_holder_and_leaves_no_file(tmp_path):
    first, second = FileLock(tmp_path / ".l.lock"), FileLock(tmp_path / ".l.lock")
    assert first.acquire(blocking=False) and (tmp_path / ".l.lock").exists()
    assert not second.acquire(blocking=False)  # flock: one holder per open file, in one process too
    first.release()
    assert not (tmp_path / ".l.lock").exists()
    with second:
        assert not first.acquire(blocking=False)
    assert list(tmp_path.iterdir()) == []


def test_lower_bound_of_a_custom_matrix_keeps_the_paper_entry(tmp_path, monkeypatch):
    monkeypatch.setattr(lower_bound_cache, "regret_lower_bound", lambda P: (1.0, "fake model"))
    shutil.copy(RESULTS / "lower_bounds.json", tmp_path / "lower_bounds.json")
    paper = json.loads((tmp_path / "lower_bounds.json").read_text())["mslr5_condorcet"]
    matrix = other_matrix(tmp_path / "m")
    assert lower_bound_cache.lower_bound(str(matrix), tmp_path) == (1.0, "fake model")
    cache = json.loads((tmp_path / "lower_bounds.json").read_text())
    assert cache["mslr5_condorcet"] == paper and cache[dataset_key(load_dataset(matrix))]["model"] == "fake model"
    assert not any(name.endswith(".lock") for name in os.listdir(tmp_path))
