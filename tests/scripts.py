"""The command lines of the repository run as Python runs them, from their files, for the tests: a test of a
command line runs its script (``run_script``) and never imports it as a module, and a test of what a script
computes imports the library the script calls (a script is only its command line)."""

import ast
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_script(relative_path: str, argv: list[str]) -> None:
    """Run the script at ``relative_path`` (from the repository root, e.g. "reproduce/large_scale.py") with the
    arguments ``argv`` (each as text) as ``python <relative_path> <argv...>`` would, in this process: as
    ``__main__``, with ``sys.argv`` = [its path, *argv] and its own folder first on ``sys.path`` while it runs (both
    restored after).  Its exit (``SystemExit``: --help, bad input, a failure) propagates.  The library modules it
    imports are this process's, so what a test patches in them holds for the run."""
    path = ROOT / relative_path
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [str(path), *map(str, argv)]
    sys.path.insert(0, str(path.parent))
    try:
        runpy.run_path(str(path), run_name="__main__")
    finally:
        sys.argv = saved_argv
        sys.path[:] = saved_path


def script_docstring(relative_path: str) -> str:
    """The docstring of the script at ``relative_path`` (from the repository root), as written (the script's
    ``__doc__``), read from its file without running it."""
    return ast.get_docstring(ast.parse((ROOT / relative_path).read_text()), clean=False)
