"""The result store: the atomic writer, full validation of a chunk before use, damaged or stale chunks
recomputed with one stderr line each, and verify.py listing every damaged chunk without stopping."""

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness import limits, runner
from dts_reproduction.reproduce.harness.atomic import write_atomic, write_text_atomic
from dts_reproduction.reproduce.harness.curves import CURVES
from dts_reproduction.reproduce.harness.runner import Line, line_folder, line_seconds, load_line, run_lines
from dts_reproduction.reproduce.harness.store import (
    LEGACY_DIGESTS,
    ChunkError,
    chunk_digest,
    chunk_path,
    inspect_chunk,
    read_chunk,
    read_chunk_meta,
    save_chunk,
)
from tests.scripts import run_script

ROOT = Path(__file__).resolve().parents[2]
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
    digest = chunk_digest({"x": np.arange(2)}, {"config": {"a": 1}, "seconds": 2.5})
    assert read_chunk_meta(path) == read_chunk(path)["meta"] == {"config": {"a": 1}, "seconds": 2.5, "digest": digest}
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
    monkeypatch.setattr(limits, "CHUNK_SLOTS", 2 * 300 * 5)
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
    monkeypatch.setattr(limits, "CHUNK_SLOTS", 2 * 400 * 5)
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
    monkeypatch.setattr(limits, "CHUNK_SLOTS", 2 * 400 * 5)
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
        run_script("reproduce/verify.py", [str(tmp_path)])
    assert exit_.value.code == 1
    out, err = capsys.readouterr()
    err = err.strip().splitlines()
    for path, reason in list(reasons.items())[:3]:
        assert f"{path}: {reason}" in "\n".join(err) and f"BAD  {path}" in out
    # The chunk whose metadata says seed 3 fails the arm-order check, as run.py's reuse does (it used to be
    # re-simulated under seed 3 and reported as differing).
    assert f"{files[3]}: stale (the arm order of run 6 is not the one seed 3 draws" in "\n".join(err)
    assert f"BAD  {files[3]}" in out and f"ok   {files[4]}" in out
    assert "1 chunks checked, 4 damaged" in out
    assert not any("Traceback" in line for line in err)


# --- digests and the consistency checks of every run -------------------------------------------------------------

def _stored_line(tmp_path, runs=3):
    """A D-TS line of ``runs`` runs stored as one chunk under ``tmp_path`` (seed 2): (line, its chunk's path)."""
    line = Line(dataset="mslr5_condorcet", algorithm="dts", horizon=300, runs=runs)
    run_lines([line], "dig", tmp_path, seed=2, n_jobs=1, progress=False, backend="sequential")
    (path,) = line_folder(tmp_path, line, 2).glob("runs_*.npz")
    return line, path


def _edit_keeping_meta(path, edit):
    """Rewrite the chunk at ``path`` by hand, as the issue's user did: its arrays through ``edit`` (in place), its
    metadata record, digest included, as it was."""
    with np.load(path) as handle:
        arrays = {key: handle[key] for key in handle.files}
    edit(arrays)
    with open(path, "wb") as handle:
        np.savez_compressed(handle, **arrays)


def _reason(line, path):
    """What run.py's reuse says of the chunk at ``path`` (``stored_chunk``; None: reused)."""
    dataset = load_dataset(line.dataset)
    config = runner.chunk_plan(line, dataset, path.parents[2], 2)[0][3]
    return runner.stored_chunk(path, config, dataset, CURVES)[1]


def _verify(folder, capsys, *flags):
    """reproduce/verify.py on ``folder`` (first run of each chunk, its default): (exit status, stdout, stderr)."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        run_script("reproduce/verify.py", [str(folder), *flags])
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def _set(name, index, delta):
    """An edit adding ``delta`` to ``arrays[name][index]``."""
    def edit(arrays):
        arrays[name][index] += delta
    return edit


def _consistent_final(arrays):
    """The issue's consistent edit: run 1's final regret and the last point of its curve, both by 1."""
    arrays["final"][1] += 1.0
    arrays["regret"][1, -1] += np.float32(1.0)


def _swap_permutation(arrays):
    """Run 2's arm order with two arms swapped, and its self counts to match (consistent by hand)."""
    arrays["permutation"][2, [0, 1]] = arrays["permutation"][2, [1, 0]]
    arrays["self_counts"][2, [0, 1]] = arrays["self_counts"][2, [1, 0]]


@pytest.mark.parametrize("edit", [_set("final", 1, 1.0), _consistent_final, _set("regret", (1, 10), np.float32(0.5)),
                                  _set("self_counts", (0, 2), 1), _swap_permutation, _set("checkpoints", 3, 1)],
                         ids=["final", "final-and-last-point", "mid-curve", "self-counts", "later-permutation",
                              "checkpoint"])
def test_a_chunk_edited_by_hand_differs_from_its_digest_for_both_tools(tmp_path, capsys, edit):
    """run.py reused chunks edited consistently by hand (a final regret with the last point of its curve, a point
    mid-curve, self counts, a later run's arm order) and verify.py saw edits in run 0 only: the digest recorded at
    write now refuses every one, in both."""
    line, path = _stored_line(tmp_path)
    _edit_keeping_meta(path, edit)
    digest = "damaged (its content differs from the digest recorded when it was written: edited?)"
    assert _reason(line, path) == digest
    status, out, err = _verify(tmp_path, capsys)
    assert status == 1 and f"BAD  {path}" in out and err == f"{path}: {digest}\n"


def test_the_digest_covers_the_metadata_record(tmp_path, capsys):
    """A number of the metadata record edited by hand (here the time the chunk took) is an edit too."""
    line, path = _stored_line(tmp_path)
    chunk = read_chunk(path)
    meta = chunk.pop("meta")
    meta["seconds"] += 1.0
    np.savez_compressed(path, meta=np.array(json.dumps(meta, sort_keys=True)), **chunk)
    assert _reason(line, path).startswith("damaged (its content differs from the digest")


def test_every_run_is_checked_by_both_tools(tmp_path, capsys):
    """A chunk written through the store (its digest recorded afresh) whose run 1 has a final regret that is not the
    last point of its curve: run.py recomputed it, verify.py (first run only) passed it.  Both now check every run:
    the final regret, the arm order (run 2's, not only the first's) and the checkpoints."""
    line, path = _stored_line(tmp_path)
    cases = [("final", _set("final", 1, 1.0),
              "damaged (the final regret of run 1 is not the last point of its regret curve: edited?)"),
             ("permutation", _swap_permutation,
              "stale (the arm order of run 2 is not the one seed 2 draws: made with another seed than its metadata "
              "says, or edited)"),
             ("checkpoints", lambda arrays: arrays.update(checkpoints=arrays["checkpoints"] * 2),
              "damaged (its checkpoints are not the grid of horizon 300 at 40 a decade: edited?)")]
    original = read_chunk(path)
    for _name, edit, reason in cases:
        chunk = {key: value.copy() for key, value in original.items() if key != "meta"}
        edit(chunk)
        save_chunk(path, chunk, original["meta"])
        assert _reason(line, path) == reason
        status, out, err = _verify(tmp_path, capsys)
        assert status == 1 and err == f"{path}: {reason}\n" and out.endswith("0 chunks checked, 1 damaged, "
                                                                               "0 mismatches, 0 without a digest\n")


def test_edited_checkpoints_are_recomputed_not_drawn(tmp_path, capsys):
    """A chunk saved with its checkpoints doubled was reused: the figure's t column read 2, 4, ... and the slope
    changed.  It is recomputed, and the line's checkpoints are the grid of its horizon."""
    line, path = _stored_line(tmp_path)
    chunk = read_chunk(path)
    meta = chunk.pop("meta")
    save_chunk(path, {**chunk, "checkpoints": chunk["checkpoints"] * 2}, meta)
    capsys.readouterr()
    (again,) = run_lines([line], "dig", tmp_path, seed=2, n_jobs=1, progress=False, backend="sequential")
    assert capsys.readouterr().err.startswith(f"recomputing {path}: damaged (its checkpoints are not the grid")
    np.testing.assert_array_equal(again.checkpoints, runner.log_grid(300))


def test_a_chunk_without_a_digest_loads_and_verify_names_it(tmp_path, capsys):
    """A chunk written before chunks held a digest (none in its record, none in its folder's digests.json) is
    reused and verified as before, and verify.py names it "no digest" without failing; once its folder's
    digests.json holds its digest (the committed chunks'), an edit is caught as in a chunk of today."""
    line, path = _stored_line(tmp_path)
    chunk = read_chunk(path)
    meta = chunk.pop("meta")
    del meta["digest"]
    np.savez_compressed(path, meta=np.array(json.dumps(meta, sort_keys=True)), **chunk)
    assert _reason(line, path) is None
    status, out, err = _verify(tmp_path, capsys)
    assert status == 0 and out.endswith("1 chunks checked, 0 damaged, 0 mismatches, 1 without a digest\n")
    assert err.startswith(f"{path}: no digest (written before chunks recorded one")
    (path.parent / LEGACY_DIGESTS).write_text(json.dumps({path.name: chunk_digest(chunk, meta)}))
    assert _reason(line, path) is None
    assert _verify(tmp_path, capsys)[1].endswith("0 without a digest\n")
    _edit_keeping_meta(path, _consistent_final)
    assert _reason(line, path).startswith("damaged (its content differs from the digest")
    (path.parent / LEGACY_DIGESTS).write_text("{not json")
    assert _reason(line, path).startswith(f"its folder's {LEGACY_DIGESTS} is unreadable (JSONDecodeError")


def test_every_committed_chunk_has_its_digest():
    """Every chunk under results/ has a digest: its folder's digests.json (chunks committed before chunks held
    their own) names every chunk file there and nothing else, or the chunk's record holds it.  (That each digest
    matches is checked wherever a chunk is read: make all-figures reads every one.)"""
    tracked = subprocess.run(["git", "ls-files", "-z", "results"], cwd=ROOT, capture_output=True, check=True).stdout
    folders = {(ROOT / name).parent for name in tracked.decode().split("\0") if Path(name).name.startswith("runs_")}
    assert len(folders) > 900
    for folder in folders:
        names = sorted(path.name for path in folder.glob("runs_*.npz"))
        legacy = folder / LEGACY_DIGESTS
        listed = sorted(json.loads(legacy.read_text())) if legacy.exists() else []
        unlisted = [name for name in names if name not in listed]
        assert all(name in names for name in listed), folder
        assert all("digest" in read_chunk_meta(folder / name) for name in unlisted), folder
