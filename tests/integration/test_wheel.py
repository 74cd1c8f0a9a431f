"""The built wheel in an environment of its own (docs/install.md, "Into your own environment"): it claims no
generic top-level name, so a user's own modules named ``data`` and ``core``, first on ``sys.path``, stay the
user's, while ``DTSPlus`` runs through the documented live API (docs/live-use.md) and ``run_one`` simulates,
both drawing exactly what the clone draws.

The wheel is built (``pip wheel --no-deps``) from a copy of the sources, so the clone is left as it was, and
installed without its dependencies into a fresh venv that sees this environment's numba, numpy, ... through a
``.pth`` line (no download); the venv's numba cache starts empty."""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest

from dts_reproduction.algorithms import DTSPlus, get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import run_one

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "bench/step_cost.csv",
           "bench/plugin_cost.csv", "dts_reproduction", "core", "algorithms", "data", "reproduce")
SLOTS, MATRIX, SEED, HORIZON = 300, "mslr5_condorcet", 0, 2000
USER_MODULE = 'WHOSE = "the user\'s"\n'
DRIVER = f"""
import json, sys

import core, data  # the user's, first on sys.path
import numpy as np

import dts_reproduction
from dts_reproduction.algorithms import DTSPlus, get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import run_one

P = load_dataset({MATRIX!r}).P
users = np.random.default_rng(1)
policy = DTSPlus(K=5, seed={SEED})
pairs = []
for _ in range({SLOTS}):
    a1, a2 = policy.select()
    policy.update(a1, a2, bool(users.random() < P[a1, a2]))
    pairs.append([int(a1), int(a2)])
res = run_one(load_dataset({MATRIX!r}), get_algorithm("dts"), {{}}, horizon={HORIZON}, run=0, seed=1)
print(json.dumps({{"pairs": pairs, "best": int(policy.best_arm()), "final": float(res["final"]),
                  "data": [data.WHOSE, data.__file__], "core": [core.WHOSE, core.__file__],
                  "project": sorted({{m.__file__ for name, m in sys.modules.items()
                                    if name.split(".")[0] == "dts_reproduction" and getattr(m, "__file__", None)}}),
                  "project_data": sys.modules["dts_reproduction.data"].__file__}}))
"""


def live_pairs() -> tuple[list[list[int]], int]:
    """The arms the clone's DTSPlus selects in DRIVER's loop, and the arm it recommends after it."""
    P = load_dataset(MATRIX).P
    users = np.random.default_rng(1)
    policy = DTSPlus(K=5, seed=SEED)
    pairs = []
    for _ in range(SLOTS):
        a1, a2 = policy.select()
        policy.update(a1, a2, bool(users.random() < P[a1, a2]))
        pairs.append([int(a1), int(a2)])
    return pairs, int(policy.best_arm())


def run(argv, **kwargs) -> str:
    """Run ``argv``; its stdout (it must exit 0, else its stderr is the failure)."""
    done = subprocess.run(argv, capture_output=True, text=True, timeout=900, **kwargs)
    assert done.returncode == 0, done.stderr
    return done.stdout


def build_wheel(tmp_path: Path) -> Path:
    """This project's wheel, built (``pip wheel --no-deps``) from a copy of its sources under ``tmp_path``."""
    source = tmp_path / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, symlinks=True,  # dts_reproduction/ links to the four folders
                            ignore=shutil.ignore_patterns("__pycache__", ".*"))
        elif (ROOT / name).exists():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(tmp_path / "dist"),
         str(source)])
    (wheel,) = (tmp_path / "dist").glob("dts_reproduction-*.whl")
    return wheel


@pytest.fixture(scope="module")
def wheel_venv(tmp_path_factory) -> tuple[Path, Path]:
    """The wheel built from a copy of the sources and installed into a fresh venv: (its python, its site-packages)."""
    tmp_path = tmp_path_factory.mktemp("wheel")
    wheel = build_wheel(tmp_path)
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    site = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).strip())
    (site / "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "--quiet",
         str(wheel)])
    return python, site


def user_env() -> dict:
    """This environment without PYTHONPATH and NUMBA_CACHE_DIR (the installed package alone, its own cache)."""
    return {name: value for name, value in os.environ.items() if name not in ("PYTHONPATH", "NUMBA_CACHE_DIR")}


@pytest.mark.process
def test_the_wheel_installs_beside_modules_named_data_and_core(tmp_path, wheel_venv):
    python, site = wheel_venv
    user = tmp_path / "user"
    (user / "data").mkdir(parents=True)
    (user / "data" / "__init__.py").write_text(USER_MODULE)
    (user / "core.py").write_text(USER_MODULE)
    (user / "drive.py").write_text(DRIVER)
    seen = json.loads(run([str(python), "drive.py"], cwd=user, env=user_env()))

    assert seen["data"] == ["the user's", str(user / "data" / "__init__.py")]
    assert seen["core"] == ["the user's", str(user / "core.py")]
    assert seen["project_data"] == str(site / "dts_reproduction" / "data" / "__init__.py")
    assert seen["project"] and all(Path(name).is_relative_to(site / "dts_reproduction") for name in seen["project"])
    pairs, best = live_pairs()
    assert (seen["pairs"], seen["best"]) == (pairs, best)
    clone = run_one(load_dataset(MATRIX), get_algorithm("dts"), {}, horizon=HORIZON, run=0, seed=1)
    assert seen["final"] == float(clone["final"])
    cache = site / "dts_reproduction" / ".numba_cache"
    assert any(cache.rglob("*.nbi"))  # numba's cache works from the installed package


@pytest.mark.process
def test_the_wheel_bounds_a_plan_and_writes_under_the_current_folder(tmp_path, wheel_venv):
    """The wheel carries the cost tables its plan bound reads: a run of 1e15 slots is refused at once with
    the clone's one line and exit status 2, and the results and figures folders it would default to are the
    current folder's, not the installed package's (a short run writes there)."""
    python, site = wheel_venv
    for table in ("step_cost.csv", "plugin_cost.csv"):
        assert (site / "dts_reproduction" / "bench" / table).read_bytes() == (ROOT / "bench" / table).read_bytes()
    command = [str(python), "-m", "dts_reproduction.reproduce.run", "--dataset", MATRIX, "--algorithms", "dts",
               "--runs", "1", "--n-jobs", "1", "--no-progress"]
    done = subprocess.run([*command, "--horizon", "1e15", "--out", "O/r", "--figures", "O/f"], cwd=tmp_path,
                          env=user_env(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("error: the plan is estimated at ") and "CPU hours" in line
    assert not (tmp_path / "O").exists()
    done = subprocess.run([*command, "--horizon", "100"], cwd=tmp_path, env=user_env(), capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "results" / "custom" / MATRIX).is_dir() and (tmp_path / "figures" / "custom").is_dir()
    assert not (site / "dts_reproduction" / "results").exists() and not (site / "dts_reproduction" / "figures").exists()
