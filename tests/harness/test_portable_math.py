"""``reproduce.harness.portable_math`` and the portable "log" axis scale: what reaches a file does not depend on
numpy's CPU dispatch.  On an AVX-512 machine numpy's log10 and power round the last bit differently from the C library,
and one such bit moved one pixel of the committed Fig. 4 (docs/design.md#reproducibility)."""

import math
import os
import re
import subprocess
import sys
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest

from dts_reproduction.reproduce.harness import portable_math
from dts_reproduction.reproduce.harness.runner import log_grid
from dts_reproduction.reproduce.output.plotting import PortableInvertedLogTransform, PortableLogTransform

ROOT = Path(__file__).resolve().parents[2]
# Whole numbers (checkpoints, horizons, K) and a seeded spread of reals, as the drawings and tables see them.
VALUES = np.concatenate([np.arange(1.0, 100_001.0), np.random.default_rng(7).uniform(1e-3, 1e8, 100_000)])
SPECIAL = np.array([0.0, -0.0, -1.0, np.nan, np.inf, 5e-324, 1e308])


def c_library(function, values) -> list:
    """``function`` of each value by Python's math module; the cases math refuses as numpy answers them."""
    out = []
    for value in values.tolist():
        try:
            out.append(function(value))
        except ValueError:
            out.append(-math.inf if value == 0 else math.nan)
    return out


@pytest.mark.parametrize("name", ["log", "log10"])
def test_logarithms_are_the_c_librarys(name):
    """Bit for bit math.log / math.log10 on every value, -inf at 0 and nan below 0 and at nan (as numpy), and
    within one unit in the last place of numpy's own (which on AVX-512 machines differs in that bit)."""
    ours = getattr(portable_math, name)(np.concatenate([VALUES, SPECIAL]))
    expected = np.array(c_library(getattr(math, name), np.concatenate([VALUES, SPECIAL])))
    np.testing.assert_array_equal(ours, expected)
    with np.errstate(divide="ignore", invalid="ignore"):
        numpy_own = getattr(np, name)(VALUES)
    assert np.all(np.abs(ours[:VALUES.size] - numpy_own) <= np.spacing(np.abs(numpy_own)))


def test_power_is_the_c_librarys_and_keeps_the_shape():
    """math.pow(10, e) on every exponent of the checkpoint grids, inf on overflow, and the input's shape."""
    exponents = np.arange(0, 401) / 40
    np.testing.assert_array_equal(portable_math.power(10.0, exponents), [math.pow(10.0, e) for e in exponents])
    assert portable_math.power(10.0, [400.0])[0] == math.inf
    assert portable_math.log(np.ones((2, 3))).shape == (2, 3)


def test_log_grid_comes_from_the_c_library():
    """The checkpoint grid (part of what a stored run records) rounds math.pow(10, k / 40), whatever the CPU."""
    for horizon in (10**4, 2 * 10**6, 5 * 10**6, 10**8):
        powers = {round(math.pow(10.0, k / 40)) for k in range(math.floor(math.log10(horizon) * 40) + 1)}
        assert log_grid(horizon).tolist() == sorted({p for p in powers if p <= horizon} | {horizon})


def test_the_log_axis_scale_is_the_portable_one():
    """After ``import reproduce.output.plotting`` every "log" axis maps data to pixels through the C library's log10
    (values <= 0 clipped to -1000 as matplotlib does), and back through math.pow; matplotlib still sees the name
    "log"."""
    fig, ax = plt.subplots()
    ax.set_xscale("log")
    transform = ax.xaxis.get_transform()
    assert isinstance(transform, PortableLogTransform) and ax.get_xscale() == "log"
    assert isinstance(transform.inverted(), PortableInvertedLogTransform)
    forward = transform.transform_non_affine(VALUES)
    np.testing.assert_array_equal(forward, [math.log10(v) for v in VALUES.tolist()])
    np.testing.assert_array_equal(transform.transform_non_affine(np.array([0.0, -2.0])), [-1000.0, -1000.0])
    np.testing.assert_array_equal(transform.inverted().transform_non_affine(forward[:1000]),
                                  [math.pow(10.0, v) for v in forward[:1000].tolist()])
    masked = np.ma.array([10.0, 100.0, 1000.0], mask=[False, True, False])
    forward = transform.transform_non_affine(masked)
    assert np.ma.isMaskedArray(forward) and forward.mask.tolist() == [False, True, False]
    assert forward.compressed().tolist() == [1.0, 3.0]
    assert transform.inverted().transform_non_affine(forward).mask.tolist() == [False, True, False]
    plt.close(fig)


def avx512_features() -> list:
    """numpy's dispatched CPU features of the AVX-512 family that this machine enables (empty elsewhere)."""
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    return [name for name in __cpu_dispatch__ if __cpu_features__.get(name) and re.match("X86_V4|AVX512", name)]


@pytest.mark.process
@pytest.mark.skipif(not avx512_features(), reason="numpy has no AVX-512 code to turn off on this machine: both "
                                                  "drawings would run the same code")
def test_a_figure_is_the_same_bytes_with_and_without_numpys_avx512_code(tmp_path):
    """Fig. 4 drawn from the committed runs twice, once with numpy's AVX-512 code turned off (as on a machine
    without it, where the committed figures were drawn): every file written is the same bytes."""
    drawn = {}
    for mode, disabled in (("avx512", ""), ("baseline", " ".join(avx512_features()))):
        env = {**os.environ, "NPY_DISABLE_CPU_FEATURES": disabled, "PYTHONWARNINGS": "ignore"}
        folder = tmp_path / mode
        subprocess.run([sys.executable, "reproduce/fig4_noncondorcet.py", "--plot-only", "--figures", str(folder)],
                       cwd=ROOT, env=env, check=True, capture_output=True, timeout=600)
        drawn[mode] = {path.name: path.read_bytes() for path in sorted(folder.iterdir())}
    assert drawn["avx512"].keys() == drawn["baseline"].keys() and "fig4_noncondorcet.png" in drawn["avx512"]
    different = [name for name in drawn["avx512"] if drawn["avx512"][name] != drawn["baseline"][name]]
    assert not different, different


def test_no_cpu_dependent_numpy_logarithm_or_power_reaches_a_file():
    """The code that writes tables and figures (reproduce/, data/) calls none of numpy's CPU-dispatched
    logarithms, exponentials or powers; it uses ``reproduce.harness.portable_math`` or ``math`` instead."""
    dispatched = re.compile(r"\bnp\.(log|log10|log2|log1p|exp|exp2|expm1|power|float_power|cbrt)\(")
    files = [path for folder in ("reproduce", "data") for path in (ROOT / folder).rglob("*.py")]
    found = [f"{path.relative_to(ROOT)}:{number}" for path in files
             for number, line in enumerate(path.read_text().splitlines(), 1) if dispatched.search(line)]
    assert not found, found
