"""Lines in the result store: round trip, resume of missing or corrupt chunks, one folder per line
whatever the figure, parameters and defaults in the key and the config."""

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.data import dataset_from_matrix, load_dataset
from dts_reproduction.reproduce.harness import runner
from dts_reproduction.reproduce.harness.runner import Line, line_folder, line_key, load_line, run_lines, validate_line
from dts_reproduction.reproduce.harness.store import chunk_path, inspect_chunk, save_chunk
from dts_reproduction.reproduce.studies.elimination_study import C18_ELIMINATION


def test_store_roundtrip_and_stale_or_corrupt_files(tmp_path):
    path = chunk_path(tmp_path, 0, 3)
    save_chunk(path, {"x": np.arange(3)}, {"config": {"a": 1}})
    assert inspect_chunk(path, {"a": 1})[0]["x"].tolist() == [0, 1, 2]
    assert inspect_chunk(path, {"a": 2})[0] is None
    path.write_bytes(b"garbage")
    assert inspect_chunk(path, {"a": 1})[0] is None
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temp file left behind


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


def test_a_line_with_a_none_default_is_stored_and_reused(tmp_path):
    """MergeDTS's C defaults to None (its formula): the line runs, is stored, and reloads as the same runs."""
    line = Line("mslr5_condorcet", "merge_dts", horizon=50, runs=2)
    assert get_algorithm("merge_dts").defaults["C"] is None
    (result,) = run_lines([line], "x", tmp_path / "r", seed=0, n_jobs=1, progress=False)
    reloaded = load_line(line, load_dataset(line.dataset), get_algorithm(line.algorithm), tmp_path / "r", seed=0)
    np.testing.assert_array_equal(reloaded.final, result.final)


def test_a_lines_identity_is_what_its_runs_depend_on():
    """runner.line_identity, the one definition of "the same stored line" (the runner's folders, the fast-agreement
    pairing, the paper-cost count): the tag, the figure, the run count and parameters spelled at their defaults do
    not change it; a parameter, a delay, an arm order, a seed, a matrix or a kind does."""
    gap = load_dataset("gap")
    line = Line("gap", "dts", 1000, 5)
    same = (dataclasses.replace(line, tag="D-TS (x)", runs=50), dataclasses.replace(line, params=(("alpha", 0.51),)))
    assert {runner.line_identity(other, gap, 7) for other in same} == {runner.line_identity(line, gap, 7)}
    reversed_gap = dataset_from_matrix(gap.P[::-1, ::-1], "gap")
    changed = [dataclasses.replace(line, params=(("alpha", 0.6),)), dataclasses.replace(line, delay=10),
               dataclasses.replace(line, shuffle=False), dataclasses.replace(line, kind=C18_ELIMINATION)]
    others = [(other, gap, 7) for other in changed] + [(line, gap, 8), (line, reversed_gap, 7), (line, gap, 7)]
    assert len({runner.line_identity(*other) for other in others}) == len(others)
    assert line_folder("out", line, 7, gap) == Path("out") / runner.line_identity(line, gap, 7)
