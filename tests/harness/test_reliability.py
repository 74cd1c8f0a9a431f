"""Issue 36, in-process part: a failed chunk write releases its line's lock and reports its own error, locks
are taken read-only (a lock file of another user is taken), a completed line's left lock file is removed, and
verify.py checks the chunks of a renormalised matrix file and refuses an empty or wrong folder; then the rough
edges: a custom matrix stored once for all its chunks (old chunks holding it still verify), an unreadable lock
file of another user, the /dev/shm clean-up, a folder name too long, the lower-bound cache named once and never
written under --stored-only.  The real-signal cases are in tests/integration/test_processes.py (marker
``process``)."""

import csv
import errno
import math
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from dts_reproduction.algorithms import ALGORITHMS, load_plugin
from dts_reproduction.algorithms.base import MAX_EXACT_HORIZON
from dts_reproduction.data import Dataset, load_dataset
from dts_reproduction.reproduce.harness import cost, limits, runner
from dts_reproduction.reproduce.harness.atomic import write_atomic
from dts_reproduction.reproduce.harness.locks import FileLock
from dts_reproduction.reproduce.harness.paths import BENCH_TABLE, PLUGIN_TABLE, ROOT
from dts_reproduction.reproduce.harness.runner import LOCK_NAME, Line, line_folder, run_lines
from dts_reproduction.reproduce.harness.store import read_chunk, save_chunk
from dts_reproduction.reproduce.studies.paper_figures.figures import SIMULATED
from tests.scripts import run_script
from tests.toy_plugins import empty_plugin_table, write_plugins


def _permission_denied(path):
    """The OSError a write into a read-only folder raises, naming ``path``."""
    return PermissionError(errno.EACCES, "Permission denied", str(path))


def test_a_failed_chunk_write_reports_its_own_error_and_releases_the_lock(tmp_path, monkeypatch):
    # A folder made read-only while the run writes: the chunk's write fails, and so does the removal of the lock
    # file on release.  (The test runs as root too, which a read-only folder would not stop, so both failures
    # are injected.)
    line = Line("mslr5_condorcet", "dts", 50, 2)
    folder = line_folder(tmp_path, line, 1)
    lock_path = folder / LOCK_NAME
    real_unlink = os.unlink

    def save_chunk(path, arrays, meta):
        raise _permission_denied(path)

    def unlink(path, *args, **kwargs):
        if Path(path) == lock_path:
            raise _permission_denied(path)
        return real_unlink(path, *args, **kwargs)

    monkeypatch.setattr(runner, "save_chunk", save_chunk)
    monkeypatch.setattr(os, "unlink", unlink)
    with pytest.raises(PermissionError) as failed:
        run_lines([line], "t", tmp_path, 1, n_jobs=1, progress=False, backend="sequential")
    assert failed.value.filename.endswith("runs_00000-00002.npz")
    assert FileLock(lock_path).acquire(blocking=False)  # this process no longer holds it


def test_a_write_into_a_read_only_file_system_names_the_file_and_its_cause(tmp_path, monkeypatch):
    """On a file system remounted read-only mid-run, the removal of the temporary file fails too (EROFS, not "no
    such file"): that second error replaced the first and named the hidden ``.runs_...tmp``."""
    path = tmp_path / "runs_00000-00002.npz"
    real_unlink = os.unlink

    def read_only(tmp):
        raise OSError(errno.EROFS, "Read-only file system", str(tmp))

    def unlink(name, *args, **kwargs):
        if Path(name).name.startswith(f".{path.name}."):
            raise OSError(errno.EROFS, "Read-only file system", str(name))
        return real_unlink(name, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", unlink)
    with pytest.raises(OSError) as failed:
        write_atomic(path, read_only, keep_suffix=False)
    assert (failed.value.filename, failed.value.errno, failed.value.strerror) == (
        str(path), errno.EROFS, "Read-only file system")


def test_stored_only_draws_from_a_complete_read_only_results_folder(tmp_path, capsys, monkeypatch):
    """--stored-only (what make all-figures passes) computes and writes nothing in the results folder, yet it
    refused one that cannot be written in, where only --plot-only worked."""
    assert _run(tmp_path) == 0
    real_probe = limits._probe
    monkeypatch.setattr(limits, "_probe", lambda folder: (
        "read-only file system" if Path(folder).is_relative_to(tmp_path / "r") else real_probe(folder)))
    capsys.readouterr()
    assert _run(tmp_path, "--stored-only") == 0, capsys.readouterr().err
    assert f"read results under {tmp_path / 'r'}" in capsys.readouterr().out
    assert _run(tmp_path) == 2  # computing may write there: refused before anything starts
    assert capsys.readouterr().err == f"error: results folder {tmp_path / 'r'}: not writable (read-only file system)\n"


def test_a_completed_lines_left_lock_file_is_removed(tmp_path):
    line = Line("mslr5_condorcet", "dts", 50, 2)
    run_lines([line], "t", tmp_path, 1, n_jobs=1, progress=False, backend="sequential")
    lock_path = line_folder(tmp_path, line, 1) / LOCK_NAME
    lock_path.touch()  # left by a process killed while it held the lock, or that could not remove it
    run_lines([line], "t", tmp_path, 1, n_jobs=1, progress=False, backend="sequential")
    assert not lock_path.exists()


def test_a_held_lock_file_of_a_completed_line_stays(tmp_path):
    line = Line("mslr5_condorcet", "dts", 50, 2)
    run_lines([line], "t", tmp_path, 1, n_jobs=1, progress=False, backend="sequential")
    holder = FileLock(line_folder(tmp_path, line, 1) / LOCK_NAME)
    assert holder.acquire(blocking=False)
    run_lines([line], "t", tmp_path, 1, n_jobs=1, progress=False, backend="sequential")
    assert holder.path.exists() and holder.held
    holder.release()


def _acquire_as_another_user(path: Path) -> bool:
    """Whether a process of another user than the owner of ``path`` takes the lock at ``path`` (as root: a
    forked child that drops to uid/gid 65534; otherwise the file is made read-only for its owner, which is what
    another user's 0644 file is to us)."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        return FileLock(path).acquire(blocking=False)
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.setgid(65534)
            os.setuid(65534)
            code = 0 if FileLock(path).acquire(blocking=False) else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def test_a_stale_lock_file_of_another_user_is_taken():
    with tempfile.TemporaryDirectory() as folder:  # not under tmp_path, which only its owner may enter
        Path(folder).chmod(0o777)
        path = Path(folder) / LOCK_NAME
        path.touch()
        path.chmod(0o644)
        assert _acquire_as_another_user(path)


def _renormalised_matrix(path: Path) -> Path:
    """The issue's matrix file: p01 = 0.6005 against p10 = 0.4 (rows summing to 1.0005), renormalised on load
    into a pair that renormalising again changes."""
    P = np.array([[0.5, 0.6005, 0.7], [0.4, 0.5, 0.65], [0.3, 0.35, 0.5]])
    path.write_text("\n".join(" ".join(repr(float(x)) for x in row) for row in P) + "\n")
    return path


def test_verify_checks_the_chunks_of_a_renormalised_matrix_file(tmp_path, capsys):
    matrix = _renormalised_matrix(tmp_path / "m.txt")
    with pytest.warns(UserWarning, match="renormalised 1 pair"):
        run_lines([Line(str(matrix), "dts", 50, 2)], "t", tmp_path / "r", 1, n_jobs=1, progress=False,
                  backend="sequential")
    with pytest.raises(SystemExit) as done:
        run_script("reproduce/verify.py", [str(tmp_path / "r")])
    assert done.value.code == 0, capsys.readouterr()
    assert capsys.readouterr().out.splitlines()[-1] == "1 chunks checked, 0 damaged, 0 mismatches, 0 without a digest"


@pytest.mark.parametrize("make", ["empty", "no chunks"])
def test_verify_refuses_a_folder_without_chunks(tmp_path, capsys, make):
    folder = tmp_path / "r"
    folder.mkdir()
    if make == "no chunks":
        (folder / "notes.txt").write_text("a mistyped folder\n")
    with pytest.raises(SystemExit) as done:
        run_script("reproduce/verify.py", [str(folder)])
    err = capsys.readouterr().err
    assert done.value.code == 2
    assert err == f"error: no chunk files (runs_*.npz) under {folder}\n"


def test_verify_refuses_a_path_too_long_as_bad_input(tmp_path, capsys):
    with pytest.raises(SystemExit) as done:
        run_script("reproduce/verify.py", [str(tmp_path / ("x" * 5000))])
    err = capsys.readouterr().err
    assert done.value.code == 2
    assert err.startswith("error: results folder '") and err.endswith("...: file name too long\n")
    assert err.count("\n") == 1


# --- defect 2: a plan bounded before it starts by its size, memory and estimated cost --------------------------

def _bench_rows(table: Path = BENCH_TABLE) -> list[dict]:
    """The rows of a step-cost table (bench/step_cost.csv unless ``table``)."""
    with open(table, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _bench_row(algorithm: str, options: str, K: int, table: Path = BENCH_TABLE) -> dict:
    """The row of bench/step_cost.csv (or ``table``) for (algorithm, options, K)."""
    key = (algorithm, options, str(K))
    return next(row for row in _bench_rows(table) if (row["algorithm"], row["options"], row["K"]) == key)


def test_a_plan_of_years_is_refused_before_anything_is_written(tmp_path):
    line = Line("mslr5_condorcet", "dts", 10**15, 1)
    hours = float(_bench_row("dts", "-", 5)["ns_later"]) * 1e15 * 1e-9 / 3600
    with pytest.raises(ValueError) as refused:
        run_lines([line], "t", tmp_path / "r", 1, n_jobs=1, progress=False, backend="sequential",
                  max_cpu_hours=1000.0)
    assert str(refused.value).startswith(f"the plan is estimated at {hours:.3g} CPU hours, over the bound of 1000 ")
    assert "raise it with --max-cpu-hours" in str(refused.value)
    assert not (tmp_path / "r").exists()


def test_a_million_one_run_chunks_are_refused_before_they_are_planned(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "chunk_plan", lambda *args: pytest.fail("planned"))
    with pytest.raises(ValueError, match=r"^the plan has 1000000 chunk files, more than 100000 .*use fewer --runs$"):
        # slot by slot, one run a chunk (a fast line on a Condorcet matrix is chunked by its cost: runner.chunk_size)
        run_lines([Line("mslr5_condorcet", "dts", 10**15, 10**6)], "t", tmp_path, 1,
                  n_jobs=1, progress=False, backend="sequential", max_cpu_hours=math.inf)


def test_a_plan_whose_results_exceed_the_memory_is_refused(tmp_path, monkeypatch):
    line = Line("mslr5_condorcet", "dts", 1000, 100)
    monkeypatch.setattr(runner, "physical_memory", lambda: runner.result_bytes(line, 5) - 1)
    with pytest.raises(ValueError, match=r"^the plan's results take about .* GB of memory, more than this machine's"):
        run_lines([line], "t", tmp_path, 1, n_jobs=1, progress=False, backend="sequential", max_cpu_hours=1.0)


def test_measured_run_seconds_average_the_recorded_cpu_time_over_the_runs():
    """Two chunks of 3 and 1 runs that took 6 and 4 CPU seconds: 2.5 s a run; a record without CPU time (a chunk
    older than that record) is left out, none timed is NaN."""
    records = [{"config": {"runs": [0, 3]}, "cpu_seconds": 6.0}, {"config": {"runs": [3, 4]}, "cpu_seconds": 4.0},
               {"config": {"runs": [4, 9]}}]
    assert cost.measured_run_seconds(records) == 2.5
    assert math.isnan(cost.measured_run_seconds(records[2:])) and math.isnan(cost.measured_run_seconds([]))
    line, dataset = Line("cyclic", "dts", 1000, 1), load_dataset("cyclic")
    assert cost.run_seconds(line, dataset, 2.5) == 2.5
    assert cost.run_seconds(line, dataset) == cost.estimated_run_seconds(line, dataset)


def test_a_partly_stored_line_is_costed_at_what_its_stored_runs_took(tmp_path, monkeypatch):
    """A line resumed after 2 of its 4 one-run chunks is bounded by the CPU time its stored runs recorded, not by the
    cost model: with a model pricing each run at a CPU hour, the whole line is refused under a bound of 1 h, its
    resumption accepted (its stored runs took milliseconds) and completed."""
    monkeypatch.setattr(limits, "CHUNK_SLOTS", 2000 * 5)  # one run a chunk
    line, dataset = Line("cyclic", "dts", 2000, 4), load_dataset("cyclic")
    run_lines([line], "t", tmp_path, 1, n_jobs=1, progress=False, backend="sequential")
    chunks = sorted(line_folder(tmp_path, line, 1, dataset).glob("runs_*.npz"))
    assert len(chunks) == 4
    for path in chunks[2:]:
        path.unlink()
    assert len(runner.stored_records(line, dataset, tmp_path, 1)) == 2
    monkeypatch.setattr(cost, "estimated_run_seconds", lambda *_args: 3600.0)
    with pytest.raises(ValueError, match=r"^the plan is estimated at 4 CPU hours"):
        run_lines([line], "t", tmp_path / "fresh", 1, n_jobs=1, progress=False, backend="sequential",
                  max_cpu_hours=1.0)
    (result,) = run_lines([line], "t", tmp_path, 1, n_jobs=1, progress=False, backend="sequential",
                          max_cpu_hours=1.0)
    assert result.final.shape == (4,) and len(list(chunks[0].parent.glob("runs_*.npz"))) == 4


def test_a_fast_run_on_a_condorcet_matrix_at_the_largest_exact_horizon_is_accepted_and_runs(tmp_path):
    # The asymptotic study's lines: the slots a fast path does not skip grow like log T.
    line = Line("mslr5_condorcet", "dts", MAX_EXACT_HORIZON, 1, (("sampling", "fast"),))
    assert cost.estimated_line_seconds(line, load_dataset(line.dataset)) < 1.0
    (result,) = run_lines([line], "t", tmp_path, 1, n_jobs=1, progress=False, backend="sequential",
                          max_cpu_hours=1e-3)
    assert result.checkpoints[-1] == MAX_EXACT_HORIZON


def test_the_cost_model_reads_the_measured_step_costs():
    condorcet, cyclic = load_dataset("mslr16_condorcet"), load_dataset("mslr5_noncondorcet")
    default = Line("mslr16_condorcet", "rucb", 10**7, 3)
    assert cost.estimated_line_seconds(default, condorcet) == pytest.approx(
        3 * float(_bench_row("rucb", "-", 16)["ns_later"]) * 1e-2)
    fast = Line("mslr16_condorcet", "rucb", 10**12, 1, (("skip", "exact"),))
    row = _bench_row("rucb", "skip=exact", 16)
    whole, slots = float(row["ns_whole"]), float(row["whole_slots"])
    assert cost.estimated_run_seconds(fast, condorcet) == pytest.approx(whole * slots * 4 * 1e-9)  # (ln 1e12/ln 1e6)^2
    # Without a Condorcet winner (or with a delay) every slot is simulated: linear in T, at the cost of a default
    # slot (the fast path's bench row was measured where it skips: 9.5 ns a slot for D-TS at K = 5, not 887).
    linear = Line("mslr5_noncondorcet", "dts", 10**9, 1, (("sampling", "fast"),))
    assert cost.estimated_run_seconds(linear, cyclic) == pytest.approx(float(_bench_row("dts", "-", 5)["ns_later"]))
    delayed = Line("mslr16_condorcet", "rucb", 10**9, 1, (("skip", "exact"),), delay=10)
    default_slot = float(_bench_row("rucb", "-", 16)["ns_later"])
    assert cost.estimated_run_seconds(delayed, condorcet) == pytest.approx(default_slot)


def test_the_cost_model_interpolates_between_and_beyond_the_measured_k():
    K16, K32 = (float(_bench_row("dts", "-", K)["ns_later"]) for K in (16, 32))
    k24 = Dataset("k24", np.full((24, 24), 0.5), range(24), "test")
    between = cost.estimated_run_seconds(Line("mslr5_condorcet", "dts", 10**9, 1), k24)
    assert between == pytest.approx(K16 * (24 / 16) ** (math.log(K32 / K16) / math.log(2)))
    assert K16 < between < K32
    tiny = cost.estimated_run_seconds(Line("gap", "dts", 10**9, 1), load_dataset("gap"))
    assert tiny == pytest.approx(float(_bench_row("dts", "-", 5)["ns_later"]))


def _matrix(K: int) -> Dataset:
    """A made-up K-armed matrix of ties (the cost model reads only its K and its Condorcet winner: none)."""
    return Dataset(f"k{K}", np.full((K, K), 0.5), range(K), "test")


@pytest.fixture
def toy_specs(tmp_path, monkeypatch):
    """The toy Copeland-UCB of tests/toy_plugins.py loaded as plug-ins: (its njit spec, its plain-Python spec)."""
    empty_plugin_table(monkeypatch)
    return tuple(load_plugin(reference) for reference in write_plugins(tmp_path / "plugins"))


@pytest.mark.parametrize("K", [5, 16, 32, 136])
def test_a_plain_python_plugin_is_costed_at_least_as_the_measured_python_slot(toy_specs, K):
    """A plug-in whose select and update are plain Python costs a slot what the plain-Python toy's row of
    bench/plugin_cost.csv measured (about 70 times a compiled slot at K = 5), or the dearest built-in's if that is
    more; its njit transcription, whose loop is compiled, costs the dearest built-in's, as before."""
    njit, python = toy_specs
    assert not cost.runs_as_python(njit) and cost.runs_as_python(python)
    python_slot = float(_bench_row("copeland_ucb_py", "-", K, PLUGIN_TABLE)["ns_later"])
    builtin_slot = max(float(row["ns_later"]) for row in _bench_rows() if row["K"] == str(K)
                       and row["algorithm"] in ALGORITHMS)
    compiled = cost.estimated_run_seconds(Line(f"k{K}", njit.name, 10**6, 1), _matrix(K))
    plain = cost.estimated_run_seconds(Line(f"k{K}", python.name, 10**6, 1), _matrix(K))
    assert compiled == pytest.approx(builtin_slot * 1e-3)
    assert plain == pytest.approx(max(python_slot, builtin_slot) * 1e-3)
    assert plain >= python_slot * 1e-3 * (1 - 1e-12)  # at least the python row (to rounding)
    # A registered algorithm is costed by its own row, whatever the plug-ins.
    dts = cost.estimated_run_seconds(Line(f"k{K}", "dts", 10**6, 1), _matrix(K))
    assert dts == pytest.approx(float(_bench_row("dts", "-", K)["ns_later"]) * 1e-3)


def test_a_plain_python_plan_is_bounded_at_its_python_cost(toy_specs):
    """The plan of the issue, 10 runs of 2000 slots of the plain-Python toy at K = 5, is estimated at the Python
    slot (it was 0.026 CPU s, priced as the dearest compiled slot), and a refusal names both tables it reads."""
    njit, python = toy_specs
    python_slot = float(_bench_row("copeland_ucb_py", "-", 5, PLUGIN_TABLE)["ns_later"])
    dataset = load_dataset("mslr5_condorcet")
    line = Line("mslr5_condorcet", python.name, 2000, 10)
    assert cost.check_plan_cost([(line, dataset, 10)], math.inf) == pytest.approx(10 * 2000 * python_slot * 1e-9 / 3600)
    with pytest.raises(ValueError, match=r"h; bench/step_cost\.csv and bench/plugin_cost\.csv\): raise it with "):
        cost.check_plan_cost([(line, dataset, 10)], 1e-9)
    with pytest.raises(ValueError, match=r"h; bench/step_cost\.csv\): raise it with "):
        cost.check_plan_cost([(Line("mslr5_condorcet", njit.name, 2000, 10), dataset, 10)], 1e-9)


def test_the_python_slot_is_interpolated_and_the_dearer_of_it_and_the_builtins(toy_specs, tmp_path, monkeypatch):
    """With a made-up plug-in table, the plain-Python row at K = 24 is interpolated in log K as every row is, and
    where the dearest built-in costs more (a cheap Python row) the plug-in is costed as that built-in."""
    _njit, python = toy_specs
    table = tmp_path / "plugin_cost.csv"
    table.write_text("algorithm,options,K,ns_later,ns_whole,whole_slots\n"
                     "copeland_ucb_py,-,16,1e6,,0\ncopeland_ucb_py,-,32,4e6,,0\n"
                     "copeland_ucb_py,-,500,1,,0\n")
    monkeypatch.setattr(cost, "plugin_costs", lambda: cost.cost_table(table))
    plain = cost.estimated_run_seconds(Line("k24", python.name, 10**6, 1), _matrix(24))
    assert plain == pytest.approx(1e6 * (24 / 16) ** 2 * 1e-3)  # slope 2 in log-log between 16 and 32
    builtin_slot = max(float(row["ns_later"]) for row in _bench_rows() if row["K"] == "500"
                       and row["algorithm"] in ALGORITHMS)
    assert cost.estimated_run_seconds(Line("k500", python.name, 10**6, 1), _matrix(500)) == pytest.approx(
        builtin_slot * 1e-3)


def test_a_plugin_with_rows_of_its_own_is_costed_by_them(toy_specs, tmp_path, monkeypatch):
    """A plug-in whose rows a researcher added to the step-cost table (bench/step_cost.py --csv ... --merge) is
    costed by them, not by a stand-in, compiled or not; rows of a plug-in never price another algorithm."""
    njit, python = toy_specs
    table = tmp_path / "step_cost.csv"
    table.write_text(BENCH_TABLE.read_text() + f"{python.name},-,5,,,,3.0,,,0\n{njit.name},-,5,,,,2e6,,,0\n")
    monkeypatch.setattr(cost, "step_costs", lambda: cost.cost_table(table))
    assert cost.estimated_run_seconds(Line("k5", python.name, 10**6, 1), _matrix(5)) == pytest.approx(3e-3)
    assert cost.estimated_run_seconds(Line("k5", njit.name, 10**6, 1), _matrix(5)) == pytest.approx(2e3)
    builtin_slot = max(float(row["ns_later"]) for row in _bench_rows() if row["K"] == "5"
                       and row["algorithm"] in ALGORITHMS)
    unknown = Line("k5", "rucb", 10**6, 1, (("skip", "off"),))  # options the table does not hold
    assert cost.estimated_run_seconds(unknown, _matrix(5)) == pytest.approx(builtin_slot * 1e-3)


def test_max_cpu_hours_is_checked_on_the_command_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as done:
        run_script("reproduce/run.py", ["--dataset", "mslr5_condorcet", "--algorithms", "dts", "--max-cpu-hours", "0",
                                        "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f")])
    assert done.value.code == 2
    assert capsys.readouterr().err == "error: --max-cpu-hours must be > 0, got '0'\n"
    assert not (tmp_path / "r").exists()


# --- make all-figures computes nothing: --stored-only refuses a chunk not stored ------------------------------

RUN_ARGS = ["--dataset", "mslr5_condorcet", "--algorithms", "dts", "--runs", "2", "--horizon", "50", "--n-jobs", "1",
            "--backend", "sequential", "--no-progress"]


def _run(tmp_path, *extra) -> int:
    """reproduce/run.py on ``tmp_path``'s folders; its exit status."""
    try:
        run_script("reproduce/run.py", [*RUN_ARGS, "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f"),
                                        *extra])
    except SystemExit as done:
        return done.code
    return 0


def test_stored_only_refuses_a_missing_chunk_with_the_command_that_recomputes_it(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)  # the command is given from the root, as the script was run
    assert _run(tmp_path, "--stored-only") == 2
    chunk = line_folder(tmp_path / "r", Line("mslr5_condorcet", "dts", 50, 2)) / "runs_00000-00002.npz"
    command = shlex.join(["python", "reproduce/run.py", *RUN_ARGS, "--out", str(tmp_path / "r"), "--figures",
                          str(tmp_path / "f")])
    assert capsys.readouterr().err == (f"error: {chunk} is missing, and computing is off (--stored-only); recompute "
                                       f"it with: {command}\n")
    assert not (tmp_path / "r").exists()


def test_stored_only_refuses_a_damaged_chunk_and_leaves_it(tmp_path, capsys):
    _run(tmp_path)
    (chunk,) = (tmp_path / "r").rglob("runs_*.npz")
    chunk.write_bytes(chunk.read_bytes()[:100])
    damaged = chunk.read_bytes()
    capsys.readouterr()
    assert _run(tmp_path, "--stored-only") == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {chunk} is not usable: unreadable") and err.count("\n") == 1
    assert "recomputing" not in err and chunk.read_bytes() == damaged


def test_stored_only_draws_what_is_stored(tmp_path, capsys):
    assert _run(tmp_path) == 0
    assert _run(tmp_path, "--stored-only") == 0


def test_make_all_figures_at_paper_scale_passes_stored_only():
    def commands(*mode):
        out = subprocess.run(["make", "-n", "all-figures", "PYTHON=python", *mode], cwd=ROOT, text=True,
                             capture_output=True, check=True).stdout
        return {shlex.split(line)[1]: shlex.split(line)[2:] for line in out.splitlines()
                if line.startswith("python reproduce/")}
    figures = SIMULATED
    paper = commands()
    assert all("--stored-only" in paper[f"reproduce/{script}.py"] for script in (*figures, "c18_elimination"))
    fast = commands("FAST=1")  # its runs are committed too (results/fast/): it computed any chunk missing there
    assert all("--stored-only" in fast[f"reproduce/{script}.py"] for script in figures)
    for mode in ("QUICK=1", "FORCE=1", "QUICK=1 FAST=1"):
        assert not any("--stored-only" in flags for flags in commands(*mode.split()).values()), mode


# --- the rough edges -----------------------------------------------------------------------------------------

def test_a_chunk_whose_stored_final_was_edited_is_recomputed(tmp_path, capsys):
    line = Line("mslr5_condorcet", "dts", 50, 2)
    (first,) = run_lines([line], "t", tmp_path, 1, n_jobs=1, progress=False, backend="sequential")
    (path,) = line_folder(tmp_path, line, 1).glob("runs_*.npz")
    chunk = read_chunk(path)
    meta = chunk.pop("meta")
    chunk["final"] = chunk["final"] + np.array([0.0, 7.0])
    save_chunk(path, chunk, meta)
    (again,) = run_lines([line], "t", tmp_path, 1, n_jobs=1, progress=False, backend="sequential")
    assert capsys.readouterr().err == (f"recomputing {path}: damaged (the final regret of run 1 is not the last point "
                                       f"of its regret curve: edited?)\n")
    np.testing.assert_array_equal(again.final, first.final)


def test_plot_only_says_it_read_the_results(tmp_path, capsys):
    assert _run(tmp_path) == 0
    assert f"wrote results under {tmp_path / 'r'}" in capsys.readouterr().out
    assert _run(tmp_path, "--plot-only") == 0
    out = capsys.readouterr().out
    assert f"read results under {tmp_path / 'r'}" in out and "wrote results" not in out


def test_list_keeps_its_columns_for_the_longest_names(capsys):
    run_script("reproduce/run.py", ["--list"])
    out = capsys.readouterr().out.splitlines()
    datasets = [line for line in out if " K = " in line]
    assert len({line.index(" K = ") for line in datasets}) == 1
    algorithms = out[out.index(next(line for line in out if line.startswith("algorithms"))) + 1:]
    starts = {len(line) - len(line[2:].lstrip(" ").split(" ", 1)[1].lstrip(" ")) for line in algorithms}
    assert len(starts) == 1, algorithms


def _final_row(tmp_path, *extra) -> dict:
    """The final-regret table's row run.py wrote for RUN_ARGS with ``extra`` flags."""
    assert _run(tmp_path, *extra) == 0
    with open(tmp_path / "f" / "custom_final.csv", newline="", encoding="utf-8") as handle:
        return next(csv.DictReader(handle))


def test_one_run_has_no_standard_error_of_its_slope(tmp_path):
    row = _final_row(tmp_path, "--runs", "1")
    assert row["slope_se"] == "" and row["sem_final_regret"] == ""  # NaN in the CSV, not 0.0


def test_a_horizon_of_one_warns_nothing(tmp_path, recwarn):
    row = _final_row(tmp_path, "--horizon", "1")
    assert row["slope_last_decade"] == "" and not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


@pytest.mark.process
def test_the_alpha_warning_is_printed_once(tmp_path):
    proc = subprocess.run([sys.executable, "reproduce/run.py", *RUN_ARGS, "--param", "dts.alpha=0.3", "--out",
                           str(tmp_path / "r"), "--figures", str(tmp_path / "f")], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("warning: alpha = 0.3 <= 0.5") == 1, proc.stderr


def test_a_cache_of_lower_bounds_that_is_not_json_is_named_once(tmp_path, monkeypatch, capsys):
    """It was named four times by a figure of four panels: once per read, and a stored entry reads it twice."""
    from dts_reproduction.reproduce.studies import lower_bound_cache

    monkeypatch.setattr(lower_bound_cache, "_REPORTED", set())
    monkeypatch.setattr(lower_bound_cache, "regret_lower_bound", lambda P: (float(P[0, 1]), "fake model"))
    monkeypatch.setattr(lower_bound_cache, "RESULTS", tmp_path / "shared")  # no entry to take from the repository's
    cache = tmp_path / "r" / lower_bound_cache.CACHE_NAME
    cache.parent.mkdir()
    cache.write_text("{not json")
    for name in ("mslr5_condorcet", "mslr16_condorcet"):
        lower_bound_cache.lower_bound(name, tmp_path / "r", store=False)
    lower_bound_cache.lower_bound("mslr5_condorcet", tmp_path / "r")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"recomputing {cache}: not valid JSON"), err


def _own_matrix(path: Path) -> Path:
    """A 3-armed matrix file of one's own (not packaged), exact as written."""
    path.write_text("0.5 0.6 0.7\n0.4 0.5 0.65\n0.3 0.35 0.5\n")
    return path


def test_the_matrix_of_a_custom_dataset_is_stored_once_for_all_its_chunks(tmp_path, capsys):
    """Every chunk held the whole matrix (144 MB a chunk at K = 5000); now the dataset folder holds it once."""
    matrix = _own_matrix(tmp_path / "m.txt")
    lines = [Line(str(matrix), "dts", 50, 2), Line(str(matrix), "rucb", 50, 2)]
    first = run_lines(lines, "t", tmp_path / "r", 1, n_jobs=1, progress=False, backend="sequential")
    (folder,) = (tmp_path / "r").iterdir()
    chunks = sorted(folder.rglob("runs_*.npz"))
    assert len(chunks) == 2 and sorted(path.name for path in folder.iterdir()) == ["dts_T50", "matrix.npz", "rucb_T50"]
    np.testing.assert_array_equal(np.load(folder / "matrix.npz")["matrix"], load_dataset(str(matrix)).P)
    for path in chunks:
        chunk = read_chunk(path)
        assert "matrix" not in chunk and chunk["meta"]["matrix_file"] == "../matrix.npz"
    again = run_lines(lines, "t", tmp_path / "r", 1, n_jobs=1, progress=False, backend="sequential")
    assert "recomputing" not in capsys.readouterr().err  # resumed: every chunk reused
    np.testing.assert_array_equal(again[0].regret, first[0].regret)
    with pytest.raises(SystemExit) as done:
        run_script("reproduce/verify.py", [str(tmp_path / "r")])
    assert done.value.code == 0
    assert capsys.readouterr().out.endswith("2 chunks checked, 0 damaged, 0 mismatches, 0 without a digest\n")

    (folder / "matrix.npz").unlink()
    with pytest.raises(SystemExit) as done:
        run_script("reproduce/verify.py", [str(tmp_path / "r")])
    err = capsys.readouterr().err
    assert done.value.code == 1 and err.count(f"its matrix file {(folder / 'matrix.npz').resolve()} is missing") == 2
    # A run that reuses the chunks stores the matrix file again (it left it missing, and verify failing).
    run_lines(lines, "t", tmp_path / "r", 1, n_jobs=1, progress=False, backend="sequential")
    np.testing.assert_array_equal(np.load(folder / "matrix.npz")["matrix"], load_dataset(str(matrix)).P)
    with pytest.raises(SystemExit) as done:
        run_script("reproduce/verify.py", [str(tmp_path / "r")])
    assert done.value.code == 0, capsys.readouterr()


def test_a_chunk_that_holds_its_matrix_itself_still_loads_and_verifies(tmp_path, capsys):
    """The chunks stored before the matrix had a file of its own: array ``matrix``, no ``matrix_file``."""
    matrix = _own_matrix(tmp_path / "m.txt")
    line = Line(str(matrix), "dts", 50, 2)
    first, = run_lines([line], "t", tmp_path / "r", 1, n_jobs=1, progress=False, backend="sequential")
    (folder,) = (tmp_path / "r").iterdir()
    (path,) = folder.rglob("runs_*.npz")
    chunk = read_chunk(path)
    meta = chunk.pop("meta")
    del meta["matrix_file"]
    save_chunk(path, {**chunk, "matrix": np.load(folder / "matrix.npz")["matrix"]}, meta)
    (folder / "matrix.npz").unlink()
    with pytest.raises(SystemExit) as done:
        run_script("reproduce/verify.py", [str(tmp_path / "r")])
    assert done.value.code == 0
    assert capsys.readouterr().out.endswith("1 chunks checked, 0 damaged, 0 mismatches, 0 without a digest\n")
    again, = run_lines([line], "t", tmp_path / "r", 1, n_jobs=1, progress=False, backend="sequential")
    assert "recomputing" not in capsys.readouterr().err
    np.testing.assert_array_equal(again.final, first.final)


def test_stored_only_adds_no_lower_bound_to_the_results_folder(tmp_path, capsys):
    """make all-figures FAST=1 (--stored-only) added the constants results/fast/lower_bounds.json lacked, copied
    from results/lower_bounds.json: a committed file changed."""
    out = tmp_path / "r"
    args = ["--quick", "--out", str(out), "--figures", str(tmp_path / "f")]
    run_script("reproduce/fig7_pure_dts.py", [*args, "--n-jobs", "1", "--no-progress"])
    (out / "quick" / "lower_bounds.json").unlink()
    run_script("reproduce/fig7_pure_dts.py", [*args, "--stored-only"])
    assert "error" not in capsys.readouterr().err
    assert not (out / "quick" / "lower_bounds.json").exists()


def test_an_unreadable_lock_file_of_another_user_is_one_clear_line(tmp_path, monkeypatch, capsys):
    """A 0600 lock file of another user was 'error: <path>: Permission denied', which said neither why nor what to
    do.  As root a forked child dropping to uid 65534 opens the real file; otherwise the failure is injected."""
    with tempfile.TemporaryDirectory() as folder:  # not under tmp_path, which only its owner may enter
        Path(folder).chmod(0o777)
        path = Path(folder) / LOCK_NAME
        path.touch()
        path.chmod(0o600)
        if os.geteuid() == 0:
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:
                try:
                    os.setgid(65534)
                    os.setuid(65534)
                    FileLock(path).acquire(blocking=False)
                    os.write(write, b"taken")
                except PermissionError as error:
                    os.write(write, str(error).encode())
                finally:
                    os._exit(0)
            os.waitpid(pid, 0)
            message = os.read(read, 4096).decode()
        else:
            with pytest.raises(PermissionError) as raised:
                FileLock(path).acquire(blocking=False)
            message = str(raised.value)
    assert f"cannot open this lock file (owner uid {os.geteuid()}, mode 0600): another user's run" in message, message

    real_open = os.open

    def refuse_the_lock(name, *args):
        if Path(name).name == LOCK_NAME:
            raise _permission_denied(name)
        return real_open(name, *args)

    monkeypatch.setattr(os, "open", refuse_the_lock)
    assert _run(tmp_path) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    assert f"{LOCK_NAME}: cannot create this lock file" in err


def test_only_the_shared_memory_files_of_processes_gone_are_removed(tmp_path):
    from dts_reproduction.reproduce.harness.workers import remove_stale_files

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()
    names = {f"sem.loky-{gone}-ab12cd34": False, f"joblib_memmapping_folder_{gone}_0a1b_2c3d": False,
             f"sem.loky-{os.getpid()}-ab12cd34": True, f"joblib_memmapping_folder_{os.getpid()}_0a1b_2c3d": True,
             f"sem.mp-{gone}-ab12cd34": True, "notes.txt": True}
    for name in names:
        if "folder" in name:
            (tmp_path / name).mkdir()
            (tmp_path / name / "array.pkl").write_bytes(b"x")
        else:
            (tmp_path / name).write_bytes(b"x")
    removed = remove_stale_files([tmp_path])
    assert sorted(path.name for path in removed) == sorted(name for name, kept in names.items() if not kept)
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(name for name, kept in names.items() if kept)



@pytest.mark.parametrize("flag", ["--out", "--figures"])
def test_run_py_refuses_a_folder_name_too_long_as_bad_input(tmp_path, capsys, flag):
    """It was 'error: <path>: File name too long', exit status 1 (a failure while working)."""
    long = tmp_path / ("a" * 300) / "x"
    folders = {"--out": tmp_path / "r", "--figures": tmp_path / "f", flag: long}
    with pytest.raises(SystemExit) as done:
        run_script("reproduce/run.py", [*RUN_ARGS, "--out", str(folders["--out"]), "--figures",
                                        str(folders["--figures"])])
    err = capsys.readouterr().err
    assert done.value.code == 2 and err.count("\n") == 1 and err.endswith("...: file name too long\n"), err
    assert sorted(tmp_path.iterdir()) == []


def test_a_fast_path_on_a_near_tie_is_costed_slot_by_slot_and_refused(tmp_path, capsys):
    # A Condorcet winner by 1e-9: the skip would pay only once the winner is settled, which takes ~1e19 comparisons.
    matrix = tmp_path / "near_tie.csv"
    matrix.write_text("0.5,0.500000001\n0.499999999,0.5\n")
    tie = load_dataset(str(matrix))
    assert tie.has_condorcet_winner and not cost.winner_settles(tie, 1e15)
    assert cost.winner_settles(load_dataset("mslr5_condorcet"), 1e15)
    line = Line(str(matrix), "dts", 10**15, 1, (("sampling", "fast"),))
    assert not cost.skips_in_log_time(line, tie)
    assert cost.estimated_run_seconds(line, tie) == pytest.approx(float(_bench_row("dts", "-", 5)["ns_later"]) * 1e6)
    with pytest.raises(SystemExit) as done:
        run_script("reproduce/run.py", ["--dataset", str(matrix), "--algorithms", "dts", "--fast", "--runs", "1",
                                        "--horizon", "1e15", "--out", str(tmp_path / "r"), "--figures",
                                        str(tmp_path / "f")])
    assert done.value.code == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("error: the plan is estimated at ")
    assert not (tmp_path / "r").exists() and not (tmp_path / "f").exists()


def test_an_unknown_cost_is_refused_not_counted_as_zero(tmp_path, monkeypatch):
    monkeypatch.setattr(cost, "step_costs", dict)  # no step-cost table
    line = Line("mslr5_condorcet", "dts", 10**15, 1)
    dataset = load_dataset(line.dataset)
    assert math.isnan(cost.estimated_run_seconds(line, dataset))
    with pytest.raises(ValueError, match=r"^the cost of dts on mslr5_condorcet cannot be estimated \(no step costs "
                                         r"in .*step_cost\.csv\): run it without a bound with --max-cpu-hours inf$"):
        run_lines([line], "t", tmp_path / "r", 1, n_jobs=1, progress=False, backend="sequential")
    assert not (tmp_path / "r").exists()
    assert cost.check_plan_cost([(line, dataset, 1)], math.inf) == 0.0
