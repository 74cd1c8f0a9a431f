"""The helper processes of a run on this machine -- loky's workers, the resource trackers, a dask LocalCluster's
workers -- never outlive it, take no signal meant for it, and leave nothing behind (docs/harness.md, "Signals").

* ``init_loky_worker`` (each loky worker's initializer): the worker ignores SIGINT and SIGHUP, which reach every
  process of the group on Ctrl-C or a closed terminal (the main process stops its workers itself), and a daemon
  thread ends it within ``PARENT_POLL_S`` once its parent is gone, whatever killed the parent (``kill -9``
  included): it was re-parented, so ``os.getppid()`` changed.
* ``start_loky_workers()``: the workers are started before the run's first task, with SIGINT and SIGHUP blocked
  (``helpers_started``), which they inherit; such a signal during a worker's start-up (its imports, before its
  initializer) then waits, pending, until the initializer ignores it, instead of ending the worker with a
  KeyboardInterrupt traceback on the terminal.
* ``helpers_started(signals)``: a block during which this thread starts helper processes with signals blocked,
  which they inherit: the resource trackers (``start_resource_trackers``; the run's termination signals, SIGTERM,
  SIGINT and SIGHUP, ``reproduce.harness.interrupt.SIGNALS``, passed in by the caller), which otherwise
  die of a SIGHUP of the group and are relaunched by loky to print a traceback per resource, and a dask
  LocalCluster's event-loop thread and the worker processes it spawns (SIGINT and SIGHUP: a Ctrl-C of the group
  printed each worker's KeyboardInterrupt; the cluster still stops its workers with SIGTERM).  A signal that
  arrives meanwhile is delivered to this process when the block ends.  The trackers end once every process
  holding their pipe (this one, its workers) has ended, and then remove what they tracked.
* ``remove_stale_files()``: what the semaphores and memory-mapping folders of a run killed with its trackers
  (``kill -9`` of the process group) left in ``/dev/shm`` (or the temporary folder), removed at the next start.
"""

import os
import re
import shutil
import signal
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

PARENT_POLL_S = 0.5  # a worker whose parent died ends within this many seconds (plus its current segment)
# loky's named semaphores and joblib's memory-mapping folders, named after the pid of the process that made them
STALE_PATTERN = re.compile(r"(?:sem\.loky-|joblib_memmapping_folder_)(\d+)[-_]")
SHARED_FOLDERS = (Path("/dev/shm"), Path(tempfile.gettempdir()))
# The signals of the process group a loky worker starts with blocked and then ignores (the main process stops its
# workers itself).
START_BLOCKED = (signal.SIGINT, signal.SIGHUP)


def init_loky_worker(parent: int) -> None:
    """In a loky worker started by process ``parent``: ignore SIGINT and SIGHUP, then unblock them (blocked since its
    start, ``start_loky_workers``: one that arrived meanwhile is dropped), and end (exit status 1) within
    ``PARENT_POLL_S`` once ``parent`` is no longer this process's parent (at once if it already is not)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, START_BLOCKED)  # a signal pending since start-up is now ignored
    threading.Thread(target=_exit_with_parent, args=(parent,), name="exit-with-parent", daemon=True).start()


def _exit_with_parent(parent: int) -> None:
    """Poll this process's parent every ``PARENT_POLL_S``; end the process at once when it is not ``parent``."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os._exit(1)


def start_loky_workers() -> None:
    """Start the loky workers of the active ``joblib.parallel_config`` now, with ``START_BLOCKED`` blocked in this
    thread (``helpers_started``): the workers and the executor's thread, which starts any later worker, inherit them
    blocked, until each worker's initializer (``init_loky_worker``) ignores and unblocks them.  The run's own
    ``Parallel`` then reuses these workers (same configuration).  Call it in the main thread, inside the
    ``parallel_config`` of the run, after ``start_resource_trackers`` (multiprocessing's tracker, started here,
    would unblock SIGINT in this thread)."""
    from joblib import Parallel, delayed

    with helpers_started(START_BLOCKED):
        Parallel()(delayed(os.getpid)() for _ in range(1))


@contextmanager
def helpers_started(signals):
    """Block ``signals`` (e.g. SIGTERM, SIGINT and SIGHUP) in this thread for the block, so that the processes
    and threads it starts inherit them blocked; on leaving, the previous mask is restored and a signal that arrived
    meanwhile is delivered."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def start_resource_trackers(signals, loky: bool = True) -> None:
    """Start multiprocessing's resource tracker and, with ``loky``, loky's, now if not running, with the run's
    termination ``signals`` blocked (``helpers_started``): they then ignore a SIGHUP of the process group, as they
    ignore SIGINT and SIGTERM.  Call it before a dask LocalCluster starts its workers too: multiprocessing starting
    its tracker from the cluster's thread would unblock SIGINT there (it unblocks rather than restores the mask)."""
    from multiprocessing import resource_tracker

    with helpers_started(signals):
        if loky:
            from joblib.externals.loky.backend import resource_tracker as loky_tracker

            loky_tracker.ensure_running()
        resource_tracker.ensure_running()


def remove_stale_files(folders=SHARED_FOLDERS) -> list[Path]:
    """Remove, from ``folders``, the loky semaphores and joblib memory-mapping folders of this user whose maker
    (the pid in the name) is no longer running; return what was removed.  A name of a running process, of
    another user, or that cannot be removed is left."""
    removed = []
    for folder in dict.fromkeys(folders):
        try:
            entries = list(folder.iterdir())
        except OSError:
            continue
        for entry in entries:
            found = STALE_PATTERN.match(entry.name)
            try:
                if not found or entry.lstat().st_uid != os.getuid() or _running(int(found.group(1))):
                    continue
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry)
                else:
                    entry.unlink()
            except OSError:
                continue
            removed.append(entry)
    return removed


def _running(pid: int) -> bool:
    """Whether a process ``pid`` exists (of any user)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
