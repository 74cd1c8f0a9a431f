"""kill -9 in the middle of an experiment, then the same command again: the finished chunks are reused,
the rest computed, and the results are bit for bit those of an uninterrupted run."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dts_reproduction.reproduce.harness.store import read_chunk

pytestmark = pytest.mark.process  # real processes: run with -m process
ROOT = Path(__file__).resolve().parents[2]
HORIZON, RUNS, RUNS_PER_CHUNK = 100_000, 16, 2
# run.py with chunks of 2 runs (limits.CHUNK_SLOTS patched), so that this tiny job has 8 chunks.
DRIVER = (f"import sys; from dts_reproduction.reproduce.harness import limits; "
          f"limits.CHUNK_SLOTS = {RUNS_PER_CHUNK * HORIZON * 5}; "
          "import runpy; sys.argv[0] = 'reproduce/run.py'; runpy.run_path(sys.argv[0], run_name='__main__')")


def command(tmp_path, name):
    return [sys.executable, "-c", DRIVER, "--dataset", "mslr5_condorcet", "--algorithms", "dts", "--runs", str(RUNS),
            "--horizon", str(HORIZON), "--n-jobs", "2", "--no-progress", "--out", str(tmp_path / name),
            "--figures", str(tmp_path / f"{name}_fig"), "--name", "k"]


def chunks(folder: Path) -> list[Path]:
    return sorted(folder.rglob("runs_*.npz"))


def test_sigkill_then_resume_is_bit_identical(tmp_path):
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    proc = subprocess.Popen(command(tmp_path, "killed"), cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 240
    try:
        while not chunks(tmp_path / "killed") and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the run and its worker processes: the session started above
        proc.wait()
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read().decode()
    done = chunks(tmp_path / "killed")
    assert 1 <= len(done) < RUNS // RUNS_PER_CHUNK, "the run must be killed with chunks still to do"
    stamps = {path: path.stat().st_mtime_ns for path in done}

    resumed = subprocess.run(command(tmp_path, "killed"), cwd=ROOT, env=env, capture_output=True, text=True,
                             timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert "recomputing" not in resumed.stderr  # atomic writes: no chunk was left half-written
    assert all(path.stat().st_mtime_ns == stamp for path, stamp in stamps.items())  # finished chunks reused
    whole = subprocess.run(command(tmp_path, "whole"), cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=300)
    assert whole.returncode == 0, whole.stderr

    names = [path.relative_to(tmp_path / "whole") for path in chunks(tmp_path / "whole")]
    assert len(names) == RUNS // RUNS_PER_CHUNK
    assert names == [path.relative_to(tmp_path / "killed") for path in chunks(tmp_path / "killed")]
    for name in names:
        a, b = read_chunk(tmp_path / "killed" / name), read_chunk(tmp_path / "whole" / name)
        assert a.keys() == b.keys()
        for key in a.keys() - {"meta"}:
            np.testing.assert_array_equal(a[key], b[key])
        assert a["meta"]["config"] == b["meta"]["config"]
    assert (tmp_path / "killed_fig" / "k.csv").read_bytes() == (tmp_path / "whole_fig" / "k.csv").read_bytes()
    # the final tables agree except for the recorded worker seconds
    killed, whole = (pd.read_csv(tmp_path / folder / "k_final.csv").drop(columns="worker_seconds")
                     for folder in ("killed_fig", "whole_fig"))
    pd.testing.assert_frame_equal(killed, whole)
