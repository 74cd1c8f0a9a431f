"""The C18 diagnostic is a run kind (reproduce.studies.elimination_study, a reproduce.harness.kinds.RunKind): its
probe runs inside the one
simulation loop and gives the counts of a separate plain loop bit for bit, without changing the run; its lines are
planned, locked, stored, resumed after an interrupt and re-simulated by reproduce/verify.py like any line; the
script computes once, reuses, and draws with --plot-only."""

import numpy as np
import pytest

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.algorithms.dts_probe import unrestricted_winner_outside
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness import limits, runner, seeds
from dts_reproduction.reproduce.harness.interrupt import Interrupted
from dts_reproduction.reproduce.harness.locks import FileLock
from dts_reproduction.reproduce.harness.runner import LOCK_NAME, Line, line_folder, run_lines, run_one
from dts_reproduction.reproduce.harness.store import read_chunk, save_chunk
from dts_reproduction.reproduce.studies.elimination_study import C18_ELIMINATION, DATASETS
from tests.scripts import run_script

ARGS = ["--runs", "2", "--horizon", "300", "--n-jobs", "1", "--backend", "sequential", "--no-progress"]
LINE = Line(dataset="mslr5_noncondorcet", algorithm="dts", horizon=400, runs=3, kind=C18_ELIMINATION)


def plain_counts(dataset_name: str, run: int, horizon: int, seed: int) -> tuple[int, int]:
    """The reference: D-TS slot by slot in Python (its njit select and update), the probe drawn after every select
    on the probe's own stream, as the diagnostic's former loop of its own did; (outside, restricted)."""
    dataset, spec = load_dataset(dataset_name), get_algorithm("dts")
    perm = seeds.run_permutation(seed, dataset.name, run, dataset.K)
    P = dataset.P[np.ix_(perm, perm)]
    state = spec.make_state(dataset.K, horizon, {})
    rng = seeds.algorithm_rng(seed, dataset.name, run, "dts")
    probe_rng = seeds.algorithm_rng(seed, dataset.name, run, C18_ELIMINATION.name)
    outside = restricted = 0
    for t in range(1, horizon + 1):
        a1, a2 = spec.select(state, t, rng)
        restricted += int(state.in_candidates.sum()) < dataset.K
        outside += unrestricted_winner_outside(probe_rng, state.prob_above, state.in_candidates,
                                               np.zeros(dataset.K, np.int64))
        spec.update(state, a1, a2, rng.random() < P[a1, a2], t)
    return outside, restricted


@pytest.mark.parametrize("name", ["mslr5_noncondorcet", "arxiv"])
def test_the_probe_in_the_one_loop_gives_the_plain_loops_counts_and_leaves_the_run_unchanged(name):
    dataset, spec = load_dataset(name), get_algorithm("dts")
    for run in range(2):
        probed = run_one(dataset, spec, {}, 500, run, 3, kind=C18_ELIMINATION)
        plain = run_one(dataset, spec, {}, 500, run, 3)
        assert (probed["outside"], probed["restricted"]) == plain_counts(name, run, 500, 3)
        for key in ("regret", "g2w", "self_counts", "permutation"):
            np.testing.assert_array_equal(probed[key], plain[key])
    assert probed["restricted"] > 0  # the run restricted C at least once: the counts are not trivially zero


def test_a_c18_line_is_stored_resumed_after_an_interrupt_and_verified(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(limits, "CHUNK_SLOTS", LINE.horizon * 5)  # one run a chunk: three chunks
    real_save, saved = runner.save_chunk, []

    def save_until_interrupted(path, arrays, meta):
        if len(saved) == 1:  # the signal arrives as the second chunk comes back
            saved.append(None)
            raise Interrupted(15)
        real_save(path, arrays, meta)
        saved.append(path)

    monkeypatch.setattr(runner, "save_chunk", save_until_interrupted)
    with pytest.raises(Interrupted, match="1 of 3 chunks stored"):
        run_lines([LINE], "t", tmp_path, 3, n_jobs=1, progress=False, backend="sequential")
    folder = line_folder(tmp_path, LINE, 3)
    assert folder == tmp_path / "c18_elimination" / f"{LINE.dataset}.s3" / "dts_T400"
    assert [path.name for path in sorted(folder.glob("*.npz"))] == ["runs_00000-00001.npz"]
    assert not (folder / LOCK_NAME).exists()  # released on the interrupt
    first = saved[0].stat().st_mtime_ns
    result = run_lines([LINE], "t", tmp_path, 3, n_jobs=1, progress=False, backend="sequential")[0]
    saved.remove(None)
    assert saved[0].stat().st_mtime_ns == first and len(saved) == 3  # resumed: the stored chunk was kept
    for run in range(LINE.runs):
        assert (result.arrays["outside"][run], result.arrays["restricted"][run]) == plain_counts(
            LINE.dataset, run, LINE.horizon, 3)
    assert set(result.arrays) == {"outside", "restricted"}
    assert result.meta["config"]["diagnostic"] == C18_ELIMINATION.marker == "c18_elimination v1"
    with pytest.raises(AttributeError, match="a c18_elimination line stores no 'regret'"):
        result.regret  # noqa: B018
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        run_script("reproduce/verify.py", [str(tmp_path), "--runs-per-chunk", "1"])
    assert exit_.value.code == 0 and "3 chunks checked, 0 damaged, 0 mismatches" in capsys.readouterr().out
    chunk = read_chunk(saved[1])
    meta = chunk.pop("meta")
    chunk["restricted"] = chunk["restricted"] + np.int64(1)
    save_chunk(saved[1], chunk, meta)
    with pytest.raises(SystemExit) as exit_:
        run_script("reproduce/verify.py", [str(tmp_path)])
    assert exit_.value.code == 1 and "run 1: restricted differs" in capsys.readouterr().err


def test_a_c18_line_held_by_another_process_is_waited_for(tmp_path, monkeypatch, capsys):
    # Another process holds the line's lock: run_lines waits for it (here: the holder releases at the first wait).
    folder = line_folder(tmp_path, LINE, 3)
    folder.mkdir(parents=True)
    holder = FileLock(folder / LOCK_NAME)
    assert holder.acquire(blocking=False)
    real_acquire = FileLock.acquire

    def acquire(lock, blocking=True):
        if blocking:
            holder.release()
        return real_acquire(lock, blocking)

    monkeypatch.setattr(FileLock, "acquire", acquire)
    result = run_lines([LINE], "t", tmp_path, 3, n_jobs=1, progress=False, backend="sequential")[0]
    assert "waiting for another run computing 1 line(s)" in capsys.readouterr().err
    assert len(result.arrays["outside"]) == LINE.runs


def test_a_regret_line_never_takes_a_c18_chunk_and_a_c18_line_refuses_what_it_cannot_probe(tmp_path):
    plain = Line(dataset=LINE.dataset, algorithm="dts", horizon=LINE.horizon, runs=LINE.runs)
    assert line_folder(tmp_path, plain, 3).parent.parent == tmp_path
    assert "diagnostic" not in runner.chunk_plan(plain, load_dataset(LINE.dataset), tmp_path, 3)[0][3]
    for bad, message in ((Line(LINE.dataset, "rucb", 10, 1, kind=LINE.kind), "runs dts, got algorithm 'rucb'"),
                         (Line(LINE.dataset, "dts", 10, 1, params=(("sampling", "fast"),), kind=LINE.kind),
                          "needs sampling 'indicators', got 'fast'"),
                         (Line(LINE.dataset, "dts", 10, 1, kind="c19"), "kind must be a RunKind")):
        with pytest.raises(ValueError, match=message):
            run_lines([bad], "t", tmp_path / "bad", 3, n_jobs=1, progress=False)
    assert not (tmp_path / "bad").exists()


def run_c18(tmp_path, *extra):
    """Run the diagnostic on every dataset, 2 runs of T = 300, results and figures under ``tmp_path``."""
    run_script("reproduce/c18_elimination.py", [*ARGS, "--out", tmp_path / "r", "--figures", tmp_path / "f", *extra])
    return (tmp_path / "f" / "c18_elimination.csv").read_bytes()


def test_the_script_stores_reuses_and_draws_its_runs(tmp_path, monkeypatch):
    """A second run and a --plot-only run compute nothing and write the same table."""
    first = run_c18(tmp_path)
    chunks = sorted((tmp_path / "r" / "c18_elimination").rglob("runs_*.npz"))
    assert len(chunks) == len(DATASETS)

    def no_compute(*_):
        raise AssertionError("a stored C18 run was recomputed")

    monkeypatch.setattr(runner, "_compute_chunk", no_compute)
    assert run_c18(tmp_path) == first
    assert run_c18(tmp_path, "--plot-only") == first
