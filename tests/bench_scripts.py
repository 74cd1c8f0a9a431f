"""The scripts of bench/ as modules, for the tests (bench/ is a folder of scripts, not a package)."""

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def bench_script(name: str):
    """bench/<name>.py loaded as a fresh module named ``bench_<name>``."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
