"""reproduce/verify.py: fresh chunks check out, altered or stream-stale ones do not, and the committed
paper-scale chunks re-simulate bit for bit."""

import dataclasses
import re
from pathlib import Path

import pytest

from dts_reproduction.algorithms import ALGORITHMS, get_algorithm
from dts_reproduction.reproduce.checks.resimulate import verify, verify_chunk
from dts_reproduction.reproduce.harness.runner import Line, line_folder, run_lines
from dts_reproduction.reproduce.harness.store import read_chunk, save_chunk

ROOT = Path(__file__).resolve().parents[2]


def test_verify_accepts_reproduced_chunks_and_flags_changed_ones(tmp_path, capsys):
    """reproduce/verify.py: fresh results check out; a chunk whose stored numbers were altered does not."""
    lines = [Line(dataset="gap", algorithm=a, horizon=400, runs=3) for a in ("ccb", "rucb")]
    run_lines(lines, "ver", tmp_path, seed=5, n_jobs=1, progress=False)
    assert verify([tmp_path], runs_per_chunk=2) == 0
    path = next(line_folder(tmp_path, lines[0], 5).glob("*.npz"))
    chunk = read_chunk(path)
    meta = chunk.pop("meta")
    chunk["final"][1] += 1.0  # with the last point of its curve, through the store (a fresh digest): only
    chunk["regret"][1, -1] = chunk["final"][1]  # re-simulating run 1 can tell
    save_chunk(path, chunk, meta)
    assert verify([tmp_path], runs_per_chunk=2) == 1
    assert "run 1: final differs" in capsys.readouterr().err
    assert verify([tmp_path], runs_per_chunk=2, algorithms=["rucb"]) == 0


def test_verify_refuses_filters_that_select_nothing(tmp_path, capsys):
    """--algorithms rucb on a folder without RUCB, or a --max-horizon below every chunk's, passed with nothing
    checked (exit 0): bad input, one line, before any chunk is checked."""
    run_lines([Line(dataset="gap", algorithm="ccb", horizon=400, runs=2)], "ver", tmp_path, seed=5, n_jobs=1,
              progress=False)
    cases = [({"algorithms": ["rucb"]}, "--algorithms rucb"), ({"max_horizon": 399}, "--max-horizon 399"),
             ({"algorithms": ["rucb", "dts"], "max_horizon": 10}, "--algorithms rucb dts, --max-horizon 10")]
    for flags, named in cases:
        with pytest.raises(ValueError) as refused:
            verify([tmp_path], **flags)
        assert str(refused.value) == f"no chunk under {tmp_path} is selected by {named}"
    assert capsys.readouterr().out == ""


def test_verify_counts_each_chunk_once(tmp_path, capsys):
    """A folder given twice, or with a folder inside it, was counted twice."""
    line = Line(dataset="gap", algorithm="ccb", horizon=400, runs=2)
    run_lines([line], "ver", tmp_path, seed=5, n_jobs=1, progress=False)
    assert verify([tmp_path, tmp_path, line_folder(tmp_path, line, 5), tmp_path / "." / "gap.s5"]) == 0
    out = capsys.readouterr().out
    assert out.count("ok   ") == 1 and out.endswith("1 chunks checked, 0 damaged, 0 mismatches, 0 without a digest\n")


def test_verify_refuses_a_format_it_does_not_know(tmp_path, capsys):
    """A chunk whose metadata says format 2 was called ok: this code reads format 1 only."""
    line = Line(dataset="gap", algorithm="ccb", horizon=400, runs=2)
    run_lines([line], "ver", tmp_path, seed=5, n_jobs=1, progress=False)
    (path,) = line_folder(tmp_path, line, 5).glob("*.npz")
    chunk = read_chunk(path)
    meta = chunk.pop("meta")
    meta["config"]["format"] = 2
    save_chunk(path, chunk, meta)
    assert verify([tmp_path]) == 1
    assert capsys.readouterr().err == f"{path}: unknown format 2 (this code reads format 1)\n"


def test_verify_handles_stream_versions(tmp_path, capsys, monkeypatch):
    """A chunk made with a stream-versioned value (D-TS sampling="fast", every --fast result) records
    sampling_stream next to the parameters: verify re-simulates it (it used to stop at once with "unknown
    parameter 'sampling_stream'", exit 2), and reports it stale once the code draws another version."""
    run_lines([Line(dataset="gap", algorithm="dts", horizon=400, runs=2, params=(("sampling", "fast"),))], "ver",
              tmp_path, seed=5, n_jobs=1, progress=False)
    assert verify([tmp_path], runs_per_chunk=2) == 0
    spec = get_algorithm("dts")
    monkeypatch.setitem(ALGORITHMS, "dts", dataclasses.replace(spec, streams={"sampling": {"fast": 99}}))
    assert verify([tmp_path], runs_per_chunk=2) == 1
    assert re.search(r"drawn with stream versions \{'sampling_stream': 3\}, the code now draws "
                     r"\{'sampling_stream': 99\}: stale, recompute it", capsys.readouterr().err)


@pytest.mark.parametrize("folder, algorithm", [
    ("results/mslr5_condorcet/dts_T1000000", "dts"),
    ("results/mslr5_condorcet/ccb_T1000000", "ccb"),
    ("results/sushi/ecw_rmed_p2b020eae0a_T9007199254740992", "ecw_rmed"),
])
def test_stored_paper_scale_runs_reproduce(folder, algorithm):
    """The committed paper-scale results are what the current code computes (first run of a chunk, T = 1e6, and
    an asymptotic ECW-RMED run to 2**53 on the matrix with an exact tie, which the pair runs of its forced
    exploration must leave as stored): a change that alters any decision of these algorithms must come with new
    results."""
    path = sorted((ROOT / folder).glob("*.npz"))[0]
    assert verify_chunk(path, 1) == []


def test_verify_reports_a_seed_it_cannot_use_as_damaged(tmp_path, capsys):
    """A seed edited into text in the metadata (digest recorded afresh) reaches the arm-order check of every run:
    one line naming the chunk, not a traceback."""
    line = Line(dataset="gap", algorithm="ccb", horizon=400, runs=2)
    run_lines([line], "ver", tmp_path, seed=5, n_jobs=1, progress=False)
    (path,) = line_folder(tmp_path, line, 5).glob("*.npz")
    chunk = read_chunk(path)
    meta = chunk.pop("meta")
    meta["config"]["seed"] = "five"
    save_chunk(path, chunk, meta)
    assert verify([tmp_path]) == 1
    assert capsys.readouterr().err.startswith(f"{path}: metadata cannot be used (TypeError: ")
