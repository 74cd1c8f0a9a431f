"""The scripts run in this process, for the tests, without importing them (no test imports a script:
tests/harness/test_layers.py)."""

import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_script(relative_path: str, argv: list[str]) -> None:
    """Run the script at ``relative_path`` (from the repository's root, e.g. "reproduce/run.py") with the arguments
    ``argv`` as ``python <script> argv`` would, in this process: as ``__main__``, with ``sys.argv`` the script's
    path and ``argv`` while it runs.  Its ``sys.exit`` (``main_guard``'s exit status on bad input, ``--help``'s 0)
    surfaces as SystemExit."""
    saved = sys.argv
    sys.argv = [relative_path, *argv]
    try:
        runpy.run_path(str(ROOT / relative_path), run_name="__main__")
    finally:
        sys.argv = saved
