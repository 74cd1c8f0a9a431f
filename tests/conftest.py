"""Shared pytest setup: the tests import the project packages (installed editable by requirements.txt), and each
test leaves the termination signals' handlers as it found them (a command's ``main`` run in-process installs the
command line's: ``reproduce.harness.interrupt``)."""

import signal

import pytest

from dts_reproduction.reproduce.harness.interrupt import SIGNALS


@pytest.fixture(autouse=True)
def _signal_handlers_restored():
    """Restore the handlers of SIGTERM, SIGINT and SIGHUP after each test."""
    handlers = {signum: signal.getsignal(signum) for signum in SIGNALS}
    yield
    for signum, handler in handlers.items():
        signal.signal(signum, handler)
