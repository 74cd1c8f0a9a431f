"""The scripts of bench/ as modules, for the tests (bench/ is a folder of scripts, not a package)."""

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def bench_script(name: str):
    """bench/<name>.py loaded as a fresh module named ``bench_<name>``, with bench/ on ``sys.path`` while it
    loads, as when Python runs the script (skip_ab imports step_cost from its own folder)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(BENCH))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module
