"""The base install in a user's environment (docs/install.md, "Base and extras"): the wheel, installed without
constraints.txt into a venv that already holds numpy 2.2.6 and scipy 1.15.3, leaves both at their versions (its
ranges accept them) and brings only numba and its llvmlite; the live API and ``run_one`` then run and import
nothing of the ``figures`` extra.

The wheel is built as in test_wheel.py; the venv's packages come from pip's cache where it holds them, else from
the package index (a few downloads, wheels only)."""

import json
import sys

import pytest

from tests.integration.test_wheel import build_wheel, run

KEPT = {"numpy": "2.2.6", "scipy": "1.15.3"}
FIGURES = ("pandas", "matplotlib", "seaborn", "joblib", "tqdm")
DRIVER = """
import importlib.util, json, sys

import numpy as np

from dts_reproduction.algorithms import DTSPlus, get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import run_one

P = load_dataset("mslr5_condorcet").P
users = np.random.default_rng(1)
policy = DTSPlus(K=5, seed=0)
for _ in range(200):
    a1, a2 = policy.select()
    policy.update(a1, a2, bool(users.random() < P[a1, a2]))
res = run_one(load_dataset("mslr5_condorcet"), get_algorithm("dts"), {}, horizon=1000, run=0, seed=1)
print(json.dumps({"best": int(policy.best_arm()), "final": float(res["final"]),
                  "imported": sorted({name.split(".")[0] for name in sys.modules}),
                  "installed": sorted(name for name in %r if importlib.util.find_spec(name))}))
""" % (FIGURES,)


@pytest.fixture(scope="module")
def user_venv(tmp_path_factory) -> tuple[dict, dict]:
    """A venv holding numpy and scipy at ``KEPT``'s versions, into which this project's wheel is then installed
    without constraints: the versions of what it then holds, and what DRIVER printed in it."""
    tmp = tmp_path_factory.mktemp("install")
    wheel = build_wheel(tmp)
    venv = tmp / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python)]
    run([*pip, "install", "--quiet", "--only-binary", ":all:", *(f"{name}=={v}" for name, v in KEPT.items())])
    run([*pip, "install", "--quiet", "--only-binary", ":all:", str(wheel)])
    held = {row["name"]: row["version"] for row in json.loads(run([*pip, "list", "--format", "json"]))}
    return held, json.loads(run([str(python), "-c", DRIVER], cwd=tmp))


@pytest.mark.process
def test_the_base_install_keeps_the_users_numpy_and_scipy_and_runs(user_venv):
    held, seen = user_venv
    assert {name: held.get(name) for name in KEPT} == KEPT
    assert sorted(held) == sorted(["dts-reproduction", "llvmlite", "numba", *KEPT])
    assert 0 <= seen["best"] < 5 and seen["final"] > 0


@pytest.mark.process
def test_the_base_install_brings_and_imports_nothing_of_the_figures_extra(user_venv):
    _, seen = user_venv
    assert seen["installed"] == []
    assert not set(FIGURES) & set(seen["imported"])
