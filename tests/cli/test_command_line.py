"""reproduce/run.py, a figure script and reproduce/verify.py as commands: bad input exits 2 with one line
and no files, a small run writes its figure and tables (real processes: marker ``process``)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


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


@pytest.mark.process
def test_verify_cli_bad_folder_exits_2(tmp_path):
    proc = run_cli("reproduce/verify.py", str(tmp_path / "missing"))
    assert proc.returncode == 2 and proc.stderr.strip() == f"error: no results folder {str(tmp_path / 'missing')!r}"


@pytest.mark.process
def test_a_matrix_file_name_the_c_locale_cannot_decode_is_named(tmp_path):
    """LC_ALL=C without UTF-8 mode: an accented file name reaches Python as undecodable bytes; the one line said only
    "'utf-8' codec can't encode characters in position 8-9", naming no file."""
    matrix = tmp_path / "matrice_\u00e9.txt"
    matrix.write_text("0.5 0.6\n0.4 0.5\n")
    env = {name: value for name, value in os.environ.items() if name not in ("PYTHONIOENCODING", "LANG", "LC_CTYPE")}
    proc = subprocess.run([sys.executable, "reproduce/run.py", "--dataset", os.fsencode(matrix), "--algorithms", "dts",
                           "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f")], cwd=ROOT,
                          capture_output=True, timeout=300, env={**env, "LC_ALL": "C", "PYTHONUTF8": "0"})
    assert proc.returncode == 2
    assert proc.stderr.decode("ascii") == (
        f"error: matrix file '{tmp_path}/matrice_\\udcc3\\udca9.txt': its name is not text in this locale's "
        "encoding; rename it or run under a UTF-8 locale (e.g. LC_ALL=C.UTF-8)\n")
    assert sorted(os.listdir(tmp_path)) == [matrix.name]
