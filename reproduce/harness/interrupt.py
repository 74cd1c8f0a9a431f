"""Stopping a run cleanly on SIGTERM, SIGINT or SIGHUP (docs/harness.md, "Signals").

``catch_signals()`` (called by ``reproduce.cli.arguments.main_guard``) turns the first of these signals into an
``Interrupted`` exception in the main thread and ignores any further one while the run winds down: the
runner stops its workers and re-raises ``Interrupted`` with the number of chunks stored, and
``main_guard`` prints it as one line and exits with 128 + the signal number (130 for SIGINT, 143 for
SIGTERM, 129 for SIGHUP).

The handler never raises inside numba: while numba holds its compiler lock (compiling, or loading a
kernel from the cache, with LLVM objects in use), a signal is only recorded, with one line on stderr at once
(``COMPILING_NOTICE``), and ``Interrupted`` is raised as the outermost compile returns and releases the lock.
A compiled loop never runs a Python handler: ``core.simulate`` returns to Python about every
``SEGMENT_SECONDS``, where the handler runs.
Once the run is over, signals are ignored while the interpreter exits (``ignore_signals_while_exiting``): from
the moment ``main_guard`` marks it over (``RUN.over``), before it calls anything, so a signal whose handler runs
at the first call after the run returned is ignored too, not raised outside ``main_guard``'s ``try``.
"""

import signal
import sys
import threading

from numba.core import event

SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
COMPILER_LOCK = "numba:compiler_lock"  # numba's event around every hold of its compiler lock
# Said at once when a signal arrives inside numba's compiler lock, which a first compile may hold for 20 s.
COMPILING_NOTICE = "stopping once numba has compiled (a first compile takes up to a minute; further signals ignored)"


class Interrupted(BaseException):
    """A termination signal arrived: ``signum`` and, once known, ``progress`` ("N of M chunks stored")."""

    def __init__(self, signum: int, progress: str = ""):
        """Record the signal and what was stored when it arrived."""
        super().__init__(signum, progress)
        self.signum = signum
        self.progress = progress

    @property
    def exit_status(self) -> int:
        """128 + the signal number, as a shell reports a process killed by it."""
        return 128 + self.signum

    def message(self) -> str:
        """The one line printed on stderr."""
        return f"interrupted; {self.progress}, rerun to resume" if self.progress else "interrupted; rerun to resume"


class _CompilerLockWatch(event.Listener):
    """How deep the main thread (where signal handlers run) is in numba's compiler lock, and the signal
    that arrived inside it; other threads' holds are not counted."""

    def __init__(self):
        """Outside the lock, no signal waiting, not yet registered with numba."""
        self.depth = 0
        self.pending = None
        self.registered = False

    def on_start(self, _event):
        """The lock is being taken (again)."""
        if threading.current_thread() is threading.main_thread():
            self.depth += 1

    def on_end(self, _event):
        """The lock was released; once the outermost hold is, raise the signal that arrived inside it."""
        if threading.current_thread() is not threading.main_thread():
            return
        self.depth -= 1
        if self.depth == 0 and self.pending is not None:
            signum, self.pending = self.pending, None
            raise Interrupted(signum)


_WATCH = _CompilerLockWatch()


class _Run:
    """Whether the guarded run is over (it returned or raised): a signal is then ignored, not raised."""

    def __init__(self):
        """A run not yet over."""
        self.over = False


RUN = _Run()


def _on_signal(signum, _frame):
    """Signal handler: ignore further termination signals, then raise ``Interrupted`` in the main thread,
    or, inside numba's compiler lock, leave it to ``_CompilerLockWatch`` to raise once the lock is released."""
    if RUN.over:
        return
    for other in SIGNALS:
        signal.signal(other, signal.SIG_IGN)
    if _WATCH.depth > 0:
        _WATCH.pending = signum
        print(COMPILING_NOTICE, file=sys.stderr, flush=True)
    else:
        raise Interrupted(signum)


def ignore_signals_while_exiting() -> None:
    """Call when the run is over (``reproduce.cli.arguments.main_guard``): SIGTERM, SIGINT and SIGHUP are then
    ignored while the interpreter exits (joining loky's threads for a few seconds, closing a cluster), as they are
    once a signal stopped the run; they raised inside those joins, a traceback.  Everything is stored and printed
    by then.  ``main_guard`` sets ``RUN.over`` before this call: a signal handled at the call itself is ignored."""
    RUN.over = True
    for signum in SIGNALS:
        signal.signal(signum, signal.SIG_IGN)


def catch_signals() -> None:
    """Make SIGTERM, SIGINT and SIGHUP raise ``Interrupted`` (call from the main thread), never inside numba."""
    if not _WATCH.registered:
        event.register(COMPILER_LOCK, _WATCH)
        _WATCH.registered = True
    RUN.over = False
    for signum in SIGNALS:
        signal.signal(signum, _on_signal)
