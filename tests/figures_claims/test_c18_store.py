"""The C18 diagnostic keeps its runs in the result store like every figure: computed once, reused (nothing is
recomputed on a redraw), drawn with --plot-only, and re-simulated bit for bit by reproduce/verify.py."""

import numpy as np
import pytest

from reproduce import c18_elimination, verify
from reproduce.harness.store import read_chunk, save_chunk

ARGS = ["--runs", "2", "--horizon", "300", "--n-jobs", "1", "--backend", "sequential", "--no-progress"]


def run_c18(tmp_path, *extra):
    """Run the diagnostic on every dataset, 2 runs of T = 300, results and figures under ``tmp_path``."""
    c18_elimination.main([*ARGS, "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f"), *extra])
    return (tmp_path / "f" / "c18_elimination.csv").read_bytes()


def test_stored_runs_are_reused_drawn_and_verified(tmp_path, monkeypatch, capsys):
    """A second run and a --plot-only run compute nothing and write the same table; verify.py re-simulates each
    chunk and finds it equal; a changed count is reported."""
    first = run_c18(tmp_path)
    chunks = sorted((tmp_path / "r" / "c18_elimination").rglob("runs_*.npz"))
    assert len(chunks) == len(c18_elimination.DATASETS)

    def no_compute(*_):
        raise AssertionError("a stored C18 run was recomputed")

    monkeypatch.setattr(c18_elimination, "elimination_counts", no_compute)
    assert run_c18(tmp_path) == first
    assert run_c18(tmp_path, "--plot-only") == first
    monkeypatch.undo()
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        verify.main([str(tmp_path / "r")])
    assert exit_.value.code == 0, capsys.readouterr().err
    chunk = read_chunk(chunks[0])
    meta = chunk.pop("meta")
    chunk["outside"] = chunk["outside"] + np.int64(1)
    save_chunk(chunks[0], chunk, meta)
    with pytest.raises(SystemExit) as exit_:
        verify.main([str(tmp_path / "r")])
    assert exit_.value.code == 1 and "run 0: C18 counts" in capsys.readouterr().err


def test_a_d_ts_line_never_takes_a_c18_chunk(tmp_path):
    """The diagnostic's chunks live in their own folder and their config names the diagnostic, so a D-TS line
    with the same dataset, horizon and runs does not find them."""
    plan = c18_elimination.diagnostic_plan("cyclic", 2, 300, tmp_path, 1)
    (_start, _stop, path, config), = plan
    assert path.parent.parent.parent == tmp_path / c18_elimination.NAME
    assert config["diagnostic"] == c18_elimination.DIAGNOSTIC
