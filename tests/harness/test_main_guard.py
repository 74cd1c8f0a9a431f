"""``main_guard``'s signal boundary, in-process: a signal during the run is one ``interrupted`` line and exit
status 130; a signal whose Python handler runs once the run is over (at the first call after ``main()``
returned, or while a failure line is printed) is ignored.  CI caught the second case as a traceback from
``main_guard``'s ``finally`` (tests/integration/test_processes.py, Ctrl-C while the interpreter exits)."""

import os
import signal

import pytest

from dts_reproduction.reproduce.cli import arguments


def send_sigint() -> None:
    """SIGINT to this process: its Python handler runs at the next call or backward jump, after ``os.kill``."""
    os.kill(os.getpid(), signal.SIGINT)


def test_a_signal_during_the_run_is_one_line_and_status_130(capsys):
    def main():
        send_sigint()
        raise AssertionError("the signal was not raised in main")

    with pytest.raises(SystemExit) as stop:
        arguments.main_guard(main)
    assert stop.value.code == 130
    assert capsys.readouterr().err == "interrupted; rerun to resume\n"


def test_a_signal_at_the_first_call_after_the_run_returned_is_ignored(monkeypatch, capsys):
    real = arguments.ignore_signals_while_exiting

    def signalled_then_ignored():
        send_sigint()
        real()

    monkeypatch.setattr(arguments, "ignore_signals_while_exiting", signalled_then_ignored)
    assert arguments.main_guard(lambda: print("done")) is None
    assert capsys.readouterr() == ("done\n", "")
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


def test_a_signal_while_the_failure_line_is_printed_keeps_the_failures_status(monkeypatch, capsys):
    real = arguments.failure_line

    def signalled_then_real(failure):
        send_sigint()
        return real(failure)

    def main():
        raise ValueError("--runs 0 must be positive")

    monkeypatch.setattr(arguments, "failure_line", signalled_then_real)
    with pytest.raises(SystemExit) as stop:
        arguments.main_guard(main)
    assert stop.value.code == 2
    assert capsys.readouterr().err == "error: --runs 0 must be positive\n"


def test_a_second_guarded_run_in_the_same_process_catches_signals_again():
    arguments.main_guard(lambda: None)
    with pytest.raises(SystemExit) as stop:
        arguments.main_guard(send_sigint)
    assert stop.value.code == 130
