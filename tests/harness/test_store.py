"""The result store: the atomic writer, full validation of a chunk before use, damaged or stale chunks
recomputed with one stderr line each, and verify.py listing every damaged chunk without stopping."""

import os
import re

import numpy as np
import pytest

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness import runner
from dts_reproduction.reproduce.harness.atomic import write_atomic, write_text_atomic
from dts_reproduction.reproduce.harness.runner import Line, line_seconds, load_line, run_lines
from dts_reproduction.reproduce.harness.store import (
    ChunkError,
    chunk_path,
    inspect_chunk,
    read_chunk,
    read_chunk_meta,
    save_chunk,
)
from dts_reproduction.reproduce.verify import main as verify_main

ARRAYS = ("regret", "g2w", "final", "self_counts", "permutation", "checkpoints")


def test_atomic_writer_replaces_whole_files_and_leaves_nothing_on_failure(tmp_path):
    path = tmp_path / "sub" / "table.csv"
    write_text_atomic(path, "a,b\n1,2\n")
    assert path.read_text() == "a,b\n1,2\n"
    assert oct(path.stat().st_mode & 0o777) == oct(0o666 & ~_umask())

    def failing(tmp):
        tmp.write_text("half")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        write_atomic(path, failing)
    assert path.read_text() == "a,b\n1,2\n"  # the old file, untouched
    assert sorted(p.name for p in path.parent.iterdir()) == ["table.csv"]  # no temporary file left
    seen = []
    write_atomic(path, lambda tmp: (seen.append(tmp.name), tmp.write_text("x")))
    assert seen[0].startswith(".table.csv.") and seen[0].endswith(".tmp.csv")  # suffix kept for matplotlib


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_read_chunk_reasons(tmp_path):
    path = chunk_path(tmp_path, 0, 2)
    with pytest.raises(ChunkError, match="missing"):
        read_chunk(path)
    save_chunk(path, {"x": np.arange(2)}, {"config": {"a": 1}})
    assert inspect_chunk(path, {"a": 1}, {"x": (2,)})[1] is None
    assert inspect_chunk(path, {"a": 1}, {"x": (3,)})[1] == "array 'x' has shape (2,), the metadata says (3,)"
    assert inspect_chunk(path, {"a": 1}, {"x": (2,), "y": (2,)})[1] == "missing arrays: y"
    assert inspect_chunk(path, {"a": 2})[1].startswith("stale (made with another config: stored != asked: a 1 != 2")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    assert inspect_chunk(path, {"a": 1})[1].startswith("unreadable (BadZipFile")
    np.savez_compressed(path, x=np.arange(2))  # no metadata record
    assert inspect_chunk(path, {"a": 1})[1] == "no metadata record"
    assert inspect_chunk(tmp_path / "none.npz", {"a": 1}) == (None, None)


def test_read_chunk_meta_reads_the_record_alone_with_the_same_reasons(tmp_path):
    path = chunk_path(tmp_path, 0, 2)
    with pytest.raises(ChunkError, match="missing"):
        read_chunk_meta(path)
    save_chunk(path, {"x": np.arange(2)}, {"config": {"a": 1}, "seconds": 2.5})
    assert read_chunk_meta(path) == read_chunk(path)["meta"] == {"config": {"a": 1}, "seconds": 2.5}
    np.savez_compressed(path, x=np.arange(2))
    with pytest.raises(ChunkError, match="no metadata record"):
        read_chunk_meta(path)
    np.savez_compressed(path, meta=np.array("{not json"))
    with pytest.raises(ChunkError, match="metadata record is not JSON"):
        read_chunk_meta(path)
    np.savez_compressed(path, meta=np.array('{"seconds": 1}'))
    with pytest.raises(ChunkError, match="metadata record has no config"):
        read_chunk_meta(path)


def test_line_seconds_is_what_load_line_reports_and_refuses_what_it_refuses(tmp_path, monkeypatch):
    """The metadata-only time query agrees with the full load, and a missing or stale chunk is an error there too."""
    monkeypatch.setattr(runner, "CHUNK_SLOTS", 2 * 300 * 5)
    line = Line(dataset="mslr5_condorcet", algorithm="rucb", horizon=300, runs=6)
    run_lines([line], "sec", tmp_path, seed=2, n_jobs=1, progress=False)
    dataset = load_dataset(line.dataset)
    meta = load_line(line, dataset, get_algorithm("rucb"), tmp_path, 2).meta
    worker, cpu = line_seconds(line, dataset, tmp_path, 2)
    assert worker == meta["worker_seconds"] > 0 and cpu == meta["cpu_seconds"] > 0
    files = sorted(tmp_path.rglob("runs_*.npz"))
    assert len(files) == 3
    with pytest.raises(ValueError, match="stale results"):
        line_seconds(line, dataset, tmp_path, 3)  # another seed: another config (and folder: missing)
    _rewrite(files[1], config={"horizon": 299})
    with pytest.raises(ValueError, match=r"runs 2-3 .*horizon 299 != 300"):
        line_seconds(line, dataset, tmp_path, 2)
    files[1].unlink()
    with pytest.raises(ValueError, match=r"runs 2-3 .*missing"):
        line_seconds(line, dataset, tmp_path, 2)


def _rewrite(path, drop=(), rows=None, config=None):
    chunk = read_chunk(path)
    meta = chunk.pop("meta")
    if config:
        meta["config"].update(config)
    arrays = {key: value for key, value in chunk.items() if key not in drop}
    if rows is not None:
        arrays = {key: (value if key == "checkpoints" else value[:rows]) for key, value in arrays.items()}
    save_chunk(path, arrays, meta)


@pytest.fixture
def damaged(tmp_path, monkeypatch):
    """A line stored as 5 chunks of 2 runs, four of them then damaged in four different ways."""
    monkeypatch.setattr(runner, "CHUNK_SLOTS", 2 * 400 * 5)
    line = Line(dataset="mslr5_condorcet", algorithm="dts", horizon=400, runs=10)
    first = run_lines([line], "dmg", tmp_path, seed=2, n_jobs=1, progress=False)[0]
    files = sorted(tmp_path.rglob("runs_*.npz"))
    assert len(files) == 5
    data = files[0].read_bytes()
    files[0].write_bytes(data[: len(data) - 200])  # truncated (as by a full disk; kill -9 cannot do this)
    _rewrite(files[1], drop=("g2w",))  # valid metadata, an array missing
    _rewrite(files[2], rows=1)  # fewer rows than the metadata's run range
    _rewrite(files[3], config={"seed": 3})  # made with another config
    reasons = {files[0]: "unreadable", files[1]: "missing arrays: g2w",
               files[2]: "array 'regret' has shape (1, ", files[3]: "stale (made with another config"}
    return line, first, files, reasons


def test_damaged_chunks_are_recomputed_and_named_on_stderr(damaged, tmp_path, capsys, monkeypatch):
    line, first, files, reasons = damaged
    monkeypatch.setattr(runner, "CHUNK_SLOTS", 2 * 400 * 5)
    capsys.readouterr()
    stamp = files[4].stat().st_mtime_ns
    again = run_lines([line], "dmg", tmp_path, seed=2, n_jobs=1, progress=False)[0]
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 4
    for path, reason in reasons.items():
        assert sum(line.startswith(f"recomputing {path}: {reason}") for line in err) == 1, (path, err)
    for key in ("regret", "g2w", "final", "self_counts", "permutations"):
        np.testing.assert_array_equal(getattr(first, key), getattr(again, key))
    assert files[4].stat().st_mtime_ns == stamp  # the intact chunk is reused
    run_lines([line], "dmg", tmp_path, seed=2, n_jobs=1, progress=False)
    assert capsys.readouterr().err == ""  # all repaired: nothing to report


def test_verify_lists_every_damaged_chunk_and_exits_1(damaged, tmp_path, capsys):
    _, _, files, reasons = damaged
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        verify_main([str(tmp_path)])
    assert exit_.value.code == 1
    out, err = capsys.readouterr()
    err = err.strip().splitlines()
    for path, reason in list(reasons.items())[:3]:
        assert f"{path}: {reason}" in "\n".join(err) and f"BAD  {path}" in out
    # The stale chunk is intact on its own terms (its metadata says seed 3): re-simulated, it differs.
    assert any(re.match(rf"{re.escape(str(files[3]))}: run \d+: \w+ differs", line) for line in err)
    assert f"ok   {files[4]}" in out
    assert "2 chunks checked, 3 damaged" in out
    assert not any("Traceback" in line for line in err)
