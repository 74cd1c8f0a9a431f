"""The kernels as plain Python (``NUMBA_DISABLE_JIT=1``, docs/testing.md "Without the JIT"): the simulation tests
of the default suite pass, and a run draws exactly what the compiled run draws.  What coverage tools see of the
kernels is what runs this way."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dts_reproduction.algorithms import ALGORITHMS, get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import run_one

ROOT = Path(__file__).resolve().parents[2]
# The simulation tests run without the JIT: the loop against its reference, and the runner (its state-size check
# is left out: it builds states of 2 * STATE_PROBE_K arms, minutes of plain-Python initialisation).
SIMULATION_TESTS = ("tests/kernels/test_simulate.py", "tests/harness/test_runner.py", "-k", "not state_size")
# (algorithm, parameters) run for 500 slots on mslr5_condorcet both ways: every registered algorithm with its defaults
# and with its exact fast paths (skips, records of counters, ...), about 3 s without the JIT.
CASES = [[name, params] for name, spec in ALGORITHMS.items()
         for params in ({}, *([dict(spec.fast)] if spec.fast else []))]
RUN = """
import json, sys
from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import run_one
print(json.dumps([run_one(load_dataset("mslr5_condorcet"), get_algorithm(name), params, 500, 0, 1)["regret"].tolist()
                  for name, params in json.loads(sys.argv[1])]))
"""
JIT_OFF = {**os.environ, "NUMBA_DISABLE_JIT": "1"}


@pytest.mark.process
def test_the_simulation_tests_pass_without_the_jit():
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
                           *SIMULATION_TESTS], cwd=ROOT, env=JIT_OFF, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout and "failed" not in done.stdout


@pytest.mark.process
def test_a_run_without_the_jit_draws_what_the_compiled_run_draws():
    done = subprocess.run([sys.executable, "-c", RUN, json.dumps(CASES)], cwd=ROOT, env=JIT_OFF, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    for (name, params), plain in zip(CASES, json.loads(done.stdout), strict=True):
        compiled = run_one(load_dataset("mslr5_condorcet"), get_algorithm(name), params, 500, 0, 1)["regret"]
        assert plain == compiled.tolist(), (name, params)
