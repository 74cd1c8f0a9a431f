"""Stopping a run cleanly on SIGTERM, SIGINT or SIGHUP (docs/harness.md, "Signals").

``catch_signals()`` (called by ``reproduce.cli.main_guard``) turns the first of these signals into an
``Interrupted`` exception in the main thread and ignores any further one while the run winds down: the
runner stops its workers and re-raises ``Interrupted`` with the number of chunks stored, and
``main_guard`` prints it as one line and exits with 128 + the signal number (130 for SIGINT, 143 for
SIGTERM, 129 for SIGHUP).
"""

import signal

SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


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


def _raise(signum, _frame):
    """Signal handler: ignore further termination signals, then raise ``Interrupted`` in the main thread."""
    for other in SIGNALS:
        signal.signal(other, signal.SIG_IGN)
    raise Interrupted(signum)


def catch_signals() -> None:
    """Make SIGTERM, SIGINT and SIGHUP raise ``Interrupted`` (call from the main thread)."""
    for signum in SIGNALS:
        signal.signal(signum, _raise)
