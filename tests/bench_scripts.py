"""The scripts of bench/ and reproduce/ as modules, for the tests: a script is a command, not a library (bench/ is a
folder of scripts, not a package, and no module imports a script of reproduce/), so a test that calls a script's
``main`` loads it by its path."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
REPRODUCE = ROOT / "reproduce"


def script_module(path: Path, name: str, folder_on_path: Path | None = None):
    """The script at ``path`` loaded as a fresh module named ``name`` (its ``__main__`` block not run), with
    ``folder_on_path`` first on ``sys.path`` while it loads, if given."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    if folder_on_path is not None:
        sys.path.insert(0, str(folder_on_path))
    try:
        spec.loader.exec_module(module)
    finally:
        if folder_on_path is not None:
            sys.path.remove(str(folder_on_path))
    return module


def bench_script(name: str):
    """bench/<name>.py loaded as a fresh module named ``bench_<name>``, with bench/ on ``sys.path`` while it
    loads, as when Python runs the script (skip_ab imports step_cost from its own folder)."""
    return script_module(BENCH / f"{name}.py", f"bench_{name}", BENCH)


def reproduce_script(name: str):
    """reproduce/<name>.py loaded as a fresh module named ``name`` (its imports are the library's, by the package's
    name)."""
    return script_module(REPRODUCE / f"{name}.py", name)
