"""Running on dask.distributed: the same numbers, bit for bit, as the local backends; an unreachable
scheduler is one error line within the stated timeout."""

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dts_reproduction.reproduce.harness import limits
from dts_reproduction.reproduce.harness.backends import SCHEDULER_TIMEOUT_S
from dts_reproduction.reproduce.harness.runner import Line, run_lines

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.process  # real processes: run with -m process
ROOT = Path(__file__).resolve().parents[2]
FIELDS = ("regret", "g2w", "final", "self_counts", "permutations", "checkpoints")


def tiny_lines():
    return [Line(dataset="mslr5_condorcet", algorithm=name, horizon=500, runs=4) for name in ("dts", "rucb")]


def test_local_cluster_results_are_bit_identical_to_local_backends(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "CHUNK_SLOTS", 500 * 5)  # one run per chunk: 8 tasks spread over the workers
    local = run_lines(tiny_lines(), "dask", tmp_path / "seq", seed=11, n_jobs=1, progress=False, backend="sequential")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        remote = run_lines(tiny_lines(), "dask", tmp_path / "dask", seed=11, n_jobs=2, progress=False, backend="dask")
    assert len(sorted((tmp_path / "dask").rglob("runs_*.npz"))) == 8
    for a, b in zip(local, remote, strict=True):
        for key in FIELDS:
            np.testing.assert_array_equal(getattr(a, key), getattr(b, key))


def test_unreachable_scheduler_fails_within_the_timeout(tmp_path):
    began = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "reproduce/run.py", "--dataset", "mslr5_condorcet", "--algorithms", "dts", "--runs", "2",
         "--horizon", "500", "--scheduler", "tcp://127.0.0.1:1", "--out", str(tmp_path / "r"), "--figures",
         str(tmp_path / "f")],
        cwd=ROOT, capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    elapsed = time.monotonic() - began
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith(
        f"error: cannot reach dask scheduler tcp://127.0.0.1:1 within {SCHEDULER_TIMEOUT_S} s")
    assert len(proc.stderr.strip().splitlines()) == 1
    assert elapsed < SCHEDULER_TIMEOUT_S + 30  # the timeout plus the interpreter's start-up on a busy machine
    assert not any(tmp_path.iterdir())


def test_local_cluster_flag_of_the_scripts(tmp_path):
    """``--local-cluster 2`` (worker processes on loopback) stores the same chunks as ``--backend sequential``."""
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    for flags, out in ((["--local-cluster", "2"], "cluster"), (["--backend", "sequential"], "seq")):
        proc = subprocess.run(
            [sys.executable, "reproduce/run.py", "--dataset", "mslr5_condorcet", "--algorithms", "dts", "rucb",
             "--runs", "4", "--horizon", "500", "--no-progress", *flags, "--out", str(tmp_path / out),
             "--figures", str(tmp_path / "f"), "--name", out],
            cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
        assert proc.returncode == 0, proc.stderr
    from dts_reproduction.reproduce.harness.store import read_chunk
    files = sorted(p.relative_to(tmp_path / "seq") for p in (tmp_path / "seq").rglob("runs_*.npz"))
    cluster = tmp_path / "cluster"
    assert files and files == sorted(p.relative_to(cluster) for p in cluster.rglob("runs_*.npz"))
    for name in files:
        a, b = read_chunk(tmp_path / "seq" / name), read_chunk(tmp_path / "cluster" / name)
        assert a.keys() == b.keys()
        for key in a.keys() - {"meta"}:
            np.testing.assert_array_equal(a[key], b[key])
    # the same numbers in the final tables; only the recorded worker seconds differ
    seq, cluster = (pd.read_csv(tmp_path / "f" / f"{name}_final.csv").drop(columns="worker_seconds")
                    for name in ("seq", "cluster"))
    pd.testing.assert_frame_equal(seq, cluster)


def test_scheduler_without_workers_is_an_error_not_a_hang(monkeypatch):
    from dts_reproduction.reproduce.harness import backends
    from dts_reproduction.reproduce.harness.settings import Settings

    monkeypatch.setattr(backends, "SCHEDULER_TIMEOUT_S", 1)
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        settings = Settings.library(backend="dask", scheduler=cluster.scheduler_address)
        with pytest.raises(ValueError, match=r"dask scheduler \S+ has no workers \(waited 1 s; start some with: "
                                             r"dask worker \S+ --nthreads 1\)"):
            with backends.backend_context(settings):
                pass
