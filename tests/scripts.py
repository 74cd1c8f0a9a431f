"""The scripts of reproduce/ run as commands, in the test's process: a test drives a command line through its file,
never by importing the script as a module (only the library is imported)."""

import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_script(relative_path: str, argv: list[str]) -> None:
    """Run ``relative_path`` (from the repository root, e.g. "reproduce/run.py") as ``python relative_path *argv``
    would, in this process: its ``if __name__ == "__main__":`` block runs with ``sys.argv`` set; a command that exits
    (``main_guard``'s exit status, ``--help``) raises SystemExit as it would end the process."""
    path = ROOT / relative_path
    saved = sys.argv
    sys.argv = [str(path), *map(str, argv)]
    try:
        runpy.run_path(str(path), run_name="__main__")
    finally:
        sys.argv = saved
