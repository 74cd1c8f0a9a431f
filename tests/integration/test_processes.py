"""Issue 22 with real processes: SIGTERM, SIGINT and SIGHUP stop every worker (loky, a dask LocalCluster) and
leave a resumable folder; a killed worker is one line; two runs on one results folder at once (the same
command, two seeds, two matrices with one stem) both finish with the single-run result; two lower-bound
fills of one cache keep every entry.  Each case checks the exit status, the one line on stderr, the
process table (no process of the run alive 10 s after it ended) and the stored chunks against one
uninterrupted run's."""

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import numpy as np
import pytest

from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import dataset_key
from dts_reproduction.reproduce.harness.store import read_chunk

pytestmark = pytest.mark.process  # real processes: run with -m process
ROOT = Path(__file__).resolve().parents[2]
HORIZON, RUNS, RUNS_PER_CHUNK = 100_000, 16, 2
# run.py with chunks of 2 runs (limits.CHUNK_SLOTS patched), so that this tiny job has 8 chunks per line.
DRIVER = (f"import sys; from dts_reproduction.reproduce.harness import limits; "
          f"limits.CHUNK_SLOTS = {RUNS_PER_CHUNK * HORIZON * 5}; "
          "import runpy; sys.argv[0] = 'reproduce/run.py'; runpy.run_path(sys.argv[0], run_name='__main__')")
STOPPED_WITHIN_S = 10


def command(out: Path, figures: Path, *flags, dataset="mslr5_condorcet", runs=RUNS):
    return [sys.executable, "-c", DRIVER, "--dataset", str(dataset), "--algorithms", "dts", "--runs", str(runs),
            "--horizon", str(HORIZON), "--no-progress", "--out", str(out), "--figures", str(figures), "--name", "k",
            *flags]


def marked_env(mark: str) -> dict:
    """The environment of a run whose processes (workers included: they inherit it) carry ``mark``."""
    return {**os.environ, "PYTHONWARNINGS": "ignore", "DTS_TEST_RUN": mark}


def processes_with(mark: str) -> list[int]:
    """The live processes whose environment carries ``mark`` (zombies excluded)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "stat").read_text().split(")")[-1].split()[0] == "Z":
                continue
            if f"DTS_TEST_RUN={mark}".encode() in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def assert_no_process_left(mark: str) -> None:
    deadline = time.monotonic() + STOPPED_WITHIN_S
    while processes_with(mark) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert processes_with(mark) == [], f"processes of the run still alive {STOPPED_WITHIN_S} s after it ended"


def chunks(folder: Path) -> list[Path]:
    return sorted(folder.rglob("runs_*.npz"))


def assert_same_chunks(folder: Path, reference: Path) -> None:
    names = [path.relative_to(reference) for path in chunks(reference)]
    assert names and names == [path.relative_to(folder) for path in chunks(folder)]
    for name in names:
        a, b = read_chunk(folder / name), read_chunk(reference / name)
        assert a.keys() == b.keys() and a["meta"]["config"] == b["meta"]["config"]
        for key in a.keys() - {"meta"}:
            np.testing.assert_array_equal(a[key], b[key])


def no_temporary_files(folder: Path) -> bool:
    return not [path for path in folder.rglob(".*") if path.is_file()]


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """One uninterrupted run: the reference every stopped and resumed or concurrent run must equal."""
    folder = tmp_path_factory.mktemp("whole")
    proc = subprocess.run(command(folder / "r", folder / "f", "--n-jobs", "1"), cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env=marked_env("whole"))
    assert proc.returncode == 0, proc.stderr
    assert len(chunks(folder / "r")) == RUNS // RUNS_PER_CHUNK
    return folder / "r"


def signal_and_wait(proc, signum: int, timeout: float) -> str:
    """Send ``signum`` to ``proc`` and wait up to ``timeout`` s for it to end; its stderr.  Whatever happens, its
    process group is killed if it is still running."""
    proc.send_signal(signum)
    try:
        return proc.communicate(timeout=timeout)[1]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def stop_after_first_chunk(argv, out: Path, signum: int, mark: str):
    """Start ``argv``, send ``signum`` once a chunk is stored; return the finished process and its stderr."""
    proc = start_and_wait_for_a_chunk(argv, out, mark)
    return proc, signal_and_wait(proc, signum, 60)


@pytest.mark.parametrize("signum, flags", [
    (signal.SIGTERM, ["--n-jobs", "2"]),
    (signal.SIGINT, ["--n-jobs", "2"]),
    (signal.SIGHUP, ["--n-jobs", "2"]),
    (signal.SIGTERM, ["--local-cluster", "2"]),
], ids=["sigterm-loky", "sigint-loky", "sighup-loky", "sigterm-local-cluster"])
def test_signal_stops_every_worker_and_the_rerun_resumes(signum, flags, tmp_path, whole):
    """SIGTERM of a run with --n-jobs 2 left the loky workers computing (4 processes alive after 400 s);
    SIGINT and SIGTERM with --local-cluster printed 20-39 lines of traceback."""
    mark = uuid.uuid4().hex
    out = tmp_path / "r"
    proc, err = stop_after_first_chunk(command(out, tmp_path / "f", *flags), out, signum, mark)
    assert proc.returncode == 128 + signum, err
    stored = len(chunks(out))
    assert err == f"interrupted; {stored} of {RUNS // RUNS_PER_CHUNK} chunks stored, rerun to resume\n"
    assert 1 <= stored < RUNS // RUNS_PER_CHUNK
    assert_no_process_left(mark)
    assert no_temporary_files(out)
    if signum != signal.SIGTERM or "--local-cluster" in flags:
        return  # the other signals and backends stop the same way: one resume suffices
    resumed = subprocess.run(command(out, tmp_path / "f", "--n-jobs", "2"), cwd=ROOT, capture_output=True,
                             text=True, timeout=600, env=marked_env(mark))
    assert resumed.returncode == 0 and resumed.stderr == "", resumed.stderr
    assert_same_chunks(out, whole)


def test_killed_worker_is_one_line(tmp_path):
    mark = uuid.uuid4().hex
    out = tmp_path / "r"
    proc = subprocess.Popen(command(out, tmp_path / "f", "--n-jobs", "2"), cwd=ROOT, env=marked_env(mark),
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while not chunks(out) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    workers = [pid for pid in processes_with(mark) if pid != proc.pid and
               b"popen_loky_posix" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    assert workers
    os.kill(workers[0], signal.SIGKILL)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err
    assert len(err.splitlines()) == 1 and err.startswith("error: a worker process died (killed, or out of memory); ")
    assert err.endswith(f"of {RUNS // RUNS_PER_CHUNK} chunks stored, rerun to resume\n")
    assert_no_process_left(mark)


def test_two_identical_runs_at_once_compute_each_chunk_once(tmp_path, whole):
    """Both did all the work.  The second starts while the first is computing (it has stored a chunk): it
    waits for the line's lock and then reuses every chunk (none is rewritten: same inodes)."""
    mark = uuid.uuid4().hex
    out = tmp_path / "r"
    first = subprocess.Popen(command(out, tmp_path / "f1", "--n-jobs", "1"), cwd=ROOT, env=marked_env(mark),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while not chunks(out) and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    second = subprocess.Popen(command(out, tmp_path / "f2", "--n-jobs", "1"), cwd=ROOT, env=marked_env(mark),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    first_err = first.communicate(timeout=600)[1]
    inodes = {path: path.stat().st_ino for path in chunks(out)}
    second_err = second.communicate(timeout=600)[1]
    assert (first.returncode, second.returncode) == (0, 0), (first_err, second_err)
    assert first_err == ""
    assert second_err in ("", "waiting for another run computing 1 line(s) in this results folder\n")
    assert {path: path.stat().st_ino for path in chunks(out)} == inodes
    assert_same_chunks(out, whole)
    assert no_temporary_files(out)
    assert_no_process_left(mark)


def test_runs_of_two_seeds_and_two_same_named_matrices_at_once(tmp_path, whole):
    """The first to finish exited 2 ("missing or stale results") after all its compute: the other had
    replaced its chunks."""
    other = tmp_path / "m" / "mslr5_condorcet.txt"
    other.parent.mkdir()
    P = load_dataset("mslr5_condorcet").P.copy()
    P[0, 1], P[1, 0] = P[0, 1] - 0.01, P[1, 0] + 0.01
    other.write_text("\n".join(" ".join(repr(float(x)) for x in row) for row in P) + "\n")
    out = tmp_path / "r"
    mark = uuid.uuid4().hex
    runs = [command(out, tmp_path / "f1", "--n-jobs", "1", "--seed", "1", runs=4),
            command(out, tmp_path / "f2", "--n-jobs", "1", "--seed", "2", runs=4),
            command(out, tmp_path / "f3", "--n-jobs", "1"),
            command(out, tmp_path / "f4", "--n-jobs", "1", dataset=other)]
    procs = [subprocess.Popen(argv, cwd=ROOT, env=marked_env(mark), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) for argv in runs]
    errs = [proc.communicate(timeout=900)[1] for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0, 0, 0], errs
    assert errs == ["", "", "", ""]
    custom = dataset_key(load_dataset(other))
    assert sorted(path.name for path in out.iterdir()) == sorted(  # and the lower bounds' cache the four shared
        ["mslr5_condorcet", "mslr5_condorcet.s1", "mslr5_condorcet.s2", custom, "lower_bounds.json"])
    for path in chunks(out / "mslr5_condorcet"):  # the paper matrix's line: the single run's chunks
        reference = read_chunk(whole / "mslr5_condorcet" / path.relative_to(out / "mslr5_condorcet"))
        np.testing.assert_array_equal(read_chunk(path)["regret"], reference["regret"])
    assert len(chunks(out / "mslr5_condorcet")) == len(chunks(whole))
    assert_no_process_left(mark)


LOWER_BOUND_DRIVER = """
import sys
from dts_reproduction.reproduce.studies import lower_bound_cache
lower_bound_cache.regret_lower_bound = lambda P: (float(P[0, 1]), "fake model")
for path in sys.argv[2:]:
    lower_bound_cache.lower_bound(path, sys.argv[1])
"""


def test_two_lower_bound_fills_of_one_cache_keep_every_entry(tmp_path):
    """15, 16 and 11 of 16 entries were kept in three tries."""
    files = []
    for k in range(16):
        path = tmp_path / "m" / f"two{k}.txt"
        path.parent.mkdir(exist_ok=True)
        p = 0.51 + k / 100
        path.write_text(f"0.5 {p}\n{1 - p!r} 0.5\n")
        files.append(str(path))
    for attempt in range(3):
        out = tmp_path / f"r{attempt}"
        out.mkdir()
        procs = [subprocess.Popen([sys.executable, "-c", LOWER_BOUND_DRIVER, str(out), *order], cwd=ROOT,
                                  env=marked_env("lb"), stderr=subprocess.PIPE, text=True)
                 for order in (files, files[::-1])]
        errs = [proc.communicate(timeout=300)[1] for proc in procs]
        assert [proc.returncode for proc in procs] == [0, 0], errs
        cache = json.loads((out / "lower_bounds.json").read_text())
        assert len(cache) == 16
        assert sorted(path.name for path in out.iterdir()) == ["lower_bounds.json"]


# --- issue 36: helper processes never outlive the run nor take its signals; nothing left in /dev/shm -------------

def parent_pid(pid: int) -> int | None:
    """The parent of process ``pid`` (None if it is gone)."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def children_with(mark: str, parent: int) -> list[int]:
    """``processes_with(mark)`` started by ``parent`` itself: a run's workers and trackers, not a short-lived child of
    one of them, such as the ``git rev-parse`` each chunk's record starts, which until it execs carries its parent's
    command line (a loaded machine once caught it as a sixth process, once as a third loky worker)."""
    return [pid for pid in processes_with(mark) if parent_pid(pid) == parent]


def loky_workers(pids: list[int]) -> list[int]:
    """The loky workers among ``pids``."""
    found = []
    for pid in pids:
        try:
            if b"popen_loky_posix" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            continue
    return found


def start_and_wait_for_a_chunk(argv, out: Path, mark: str) -> subprocess.Popen:
    """Start ``argv`` in a session of its own; return once it has stored a chunk (it must still run)."""
    proc = subprocess.Popen(argv, cwd=ROOT, env=marked_env(mark), start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while not chunks(out) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before it could be stopped"
    return proc


def test_no_worker_or_resource_tracker_outlives_a_killed_main_process(tmp_path):
    """kill -9 of the main process alone left its 2 loky workers and 2 resource trackers alive, idle, > 8 min."""
    mark = uuid.uuid4().hex
    out = tmp_path / "r"
    proc = start_and_wait_for_a_chunk(command(out, tmp_path / "f", "--n-jobs", "2"), out, mark)
    started = children_with(mark, proc.pid)
    assert len(loky_workers(started)) == 2 and len(started) == 4  # the run's 2 workers and 2 trackers
    proc.kill()
    proc.wait()
    assert_no_process_left(mark)


def shared_memory_names(pid: int) -> list[str]:
    """The loky semaphores and joblib memory-mapping folders in /dev/shm made by process ``pid``."""
    return sorted(name for name in os.listdir("/dev/shm")
                  if name.startswith((f"sem.loky-{pid}-", f"joblib_memmapping_folder_{pid}_")))


def test_what_a_killed_process_group_left_in_dev_shm_is_removed_at_the_next_start(tmp_path, whole):
    """Each kill -9 of the process group left 10 empty entries in /dev/shm (8 semaphores, 2 folders)."""
    mark = uuid.uuid4().hex
    out = tmp_path / "r"
    proc = start_and_wait_for_a_chunk(command(out, tmp_path / "f", "--n-jobs", "2"), out, mark)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert_no_process_left(mark)
    assert shared_memory_names(proc.pid)  # what the test is about: the trackers died before cleaning
    resumed = subprocess.run(command(out, tmp_path / "f", "--n-jobs", "2"), cwd=ROOT, capture_output=True,
                             text=True, timeout=600, env=marked_env(mark))
    assert resumed.returncode == 0 and resumed.stderr == "", resumed.stderr
    assert shared_memory_names(proc.pid) == []
    assert_same_chunks(out, whole)


@pytest.mark.parametrize("signum, flags", [
    (signal.SIGHUP, ["--n-jobs", "2"]),
    (signal.SIGINT, ["--local-cluster", "2"]),
    (signal.SIGHUP, ["--local-cluster", "2"]),
], ids=["sighup-loky", "sigint-local-cluster", "sighup-local-cluster"])
def test_a_signal_to_the_whole_process_group_is_one_line(signum, flags, tmp_path):
    """A closed terminal (SIGHUP) or Ctrl-C (SIGINT) reaches every process of the group: SIGHUP killed loky's
    resource tracker, relaunched to print 43-50 lines of KeyError tracebacks; Ctrl-C printed each dask worker's
    KeyboardInterrupt (34-67 lines)."""
    mark = uuid.uuid4().hex
    out = tmp_path / "r"
    proc = start_and_wait_for_a_chunk(command(out, tmp_path / "f", *flags), out, mark)
    os.killpg(proc.pid, signum)
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 128 + signum, err
    assert len(err.splitlines()) == 1 and err.startswith("interrupted; ") and err.endswith(" rerun to resume\n"), err
    assert_no_process_left(mark)
    assert no_temporary_files(out)


def test_ctrl_c_while_the_interpreter_exits_is_ignored(tmp_path):
    """Ctrl-C while a finished run exited (loky joins its threads for seconds) printed a traceback from
    threading._shutdown; the run is over, everything stored and printed.  The signals start once ``main``
    returned (the driver then prints ``main returned``): one landing before, inside the run, is an interruption
    (130), and the boundary itself is tested in-process (tests/harness/test_main_guard.py)."""
    mark = uuid.uuid4().hex
    out = tmp_path / "r"
    argv = command(out, tmp_path / "f", "--n-jobs", "2", runs=4)
    argv[1:3] = ["-u", "-c", DRIVER + "; print('main returned')"]  # unbuffered: the line comes as main returns
    proc = subprocess.Popen(argv, cwd=ROOT, env=marked_env(mark), start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    for line in proc.stdout:
        if line == "main returned\n":
            break
    sent = 0
    try:
        while proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)
            sent += 1
            time.sleep(0.02)
    except ProcessLookupError:
        pass
    _, err = proc.communicate(timeout=60)
    assert sent and proc.returncode == 0 and err == "", (sent, err)
    assert_no_process_left(mark)


def test_a_signal_to_a_threading_run_is_one_line_every_time(tmp_path):
    """--backend threading aborted on SIGTERM or SIGINT in 8 of 37 tries (``terminate called without an active
    exception``, exit status 134): the interpreter exited while a worker thread was inside compiled code.  The
    runner now stops the threads at their next segment and waits for them; 12 tries, the signal at varying times
    while both threads simulate."""
    for attempt in range(12):
        signum = (signal.SIGTERM, signal.SIGINT)[attempt % 2]
        folder = tmp_path / str(attempt)
        proc = subprocess.Popen([sys.executable, "reproduce/run.py", "--dataset", "mslr5_condorcet", "--algorithms",
                                 "dts", "rucb", "--runs", "4000", "--horizon", "1e4", "--backend", "threading",
                                 "--n-jobs", "2", "--no-progress", "--out", str(folder / "r"), "--figures",
                                 str(folder / "f")], cwd=ROOT, stderr=subprocess.PIPE, text=True,
                                env=marked_env(uuid.uuid4().hex), start_new_session=True)
        time.sleep(6 + 0.25 * (attempt % 6))
        err = signal_and_wait(proc, signum, 120)
        assert (proc.returncode, err) == (128 + signum, "interrupted; 0 of 2 chunks stored, rerun to resume\n"), \
            (attempt, proc.returncode, err)
        assert no_temporary_files(folder)
