"""``reproduce/fast_agreement.py`` and its library ``reproduce.checks.fast_path_agreement``: the line-by-line
comparison of the ``--fast`` results with the defaults.

Two small stores are computed the way the figure scripts compute them (the same lines, with and without
each algorithm's fast parameters); the real fast paths must agree with the defaults, while a fast line
whose regrets are scaled by 1.5 must be found to disagree, and one equal to its default line bit for bit
is "identical" and left out of the tests.  Lines of an algorithm without fast path are
not compared (``--fast`` stores them once, with the defaults)."""

import json
import shutil
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.reproduce.checks import fast_path_agreement as fa
from dts_reproduction.reproduce.harness.runner import Line, line_folder, run_lines
from dts_reproduction.reproduce.harness.store import read_chunk, save_chunk
from tests.scripts import run_script

SEED = 7
LINES = (Line("cyclic", "dts", horizon=3000, runs=60), Line("cyclic", "rucb", horizon=3000, runs=60),
         Line("cyclic", "sparring", horizon=3000, runs=60))


def fast_line(line: Line) -> Line:
    """``line`` with its algorithm's fast parameters, as ``--fast`` makes it."""
    return replace(line, params=tuple(sorted(get_algorithm(line.algorithm).fast.items())))


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    """A default store and its fast sub-folder holding LINES (and one line on the default side only)."""
    root = tmp_path_factory.mktemp("stores")
    run_lines([*LINES, Line("cyclic", "rcs", horizon=3000, runs=20)], "t", root / "r", SEED, n_jobs=1,
              progress=False)
    run_lines([fast_line(line) for line in LINES], "t", root / "r" / "fast", SEED, n_jobs=1, progress=False)
    return root / "r"


def _copy_store(source, target):
    shutil.copytree(source, target)
    return target


def _run(results, figures):
    with pytest.raises(SystemExit) as exit_info:
        run_script("reproduce/fast_agreement.py", ["--results", results, "--figures", figures])
    return exit_info.value.code, pd.read_csv(figures / fa.OUTPUT_NAME).set_index("algorithm")


def test_the_fast_paths_agree_and_a_line_without_one_is_identical(stores, tmp_path, capsys):
    code, table = _run(stores, tmp_path / "f")
    assert code == 0
    assert table.loc["dts", "verdict"] == fa.AGREES and table.loc["rucb", "verdict"] == fa.AGREES
    assert "sparring" not in table.index  # no fast path: nothing to compare
    assert (table["runs"] == 60).all()
    assert "sampling" not in json.loads(table.loc["dts", "params"])  # the fast parameter is what differs
    assert json.loads(table.loc["dts", "fast_params"]) == {"sampling": "fast"}
    out = capsys.readouterr().out
    assert "2 lines compared, 1 stored on one side only" in out


def _scale_fast_chunks(results, line, factor):
    for path in line_folder(results / "fast", fast_line(line), SEED).glob("runs_*.npz"):
        chunk = read_chunk(path)
        meta = chunk.pop("meta")
        chunk["final"] = chunk["final"] * factor
        chunk["regret"] = (chunk["regret"] * factor).astype(np.float32)
        save_chunk(path, chunk, meta)


def test_a_fast_line_from_another_law_disagrees(stores, tmp_path):
    results = _copy_store(stores, tmp_path / "r")
    _scale_fast_chunks(results, LINES[0], 1.5)
    code, table = _run(results, tmp_path / "f")
    assert code == 1
    assert table.loc["dts", "verdict"] == fa.DISAGREES and table.loc["rucb", "verdict"] == fa.AGREES


def _copy_default_runs_into_fast(results, line):
    """Overwrite the fast chunks of ``line`` with its default runs (what a fast path that never took a fast
    step stores), keeping the fast chunks' metadata."""
    for path in line_folder(results / "fast", fast_line(line), SEED).glob("runs_*.npz"):
        chunk = read_chunk(path)
        meta = chunk.pop("meta")
        default = read_chunk(line_folder(results, line, SEED) / path.name)
        chunk["final"], chunk["regret"] = default["final"], default["regret"]
        save_chunk(path, chunk, meta)


def test_a_fast_line_equal_to_its_default_bit_for_bit_is_identical_and_untested(stores, tmp_path, capsys):
    results = _copy_store(stores, tmp_path / "r")
    _copy_default_runs_into_fast(results, LINES[0])
    code, table = _run(results, tmp_path / "f")
    assert code == 0
    assert table.loc["dts", "verdict"] == fa.IDENTICAL and table.loc["rucb", "verdict"] == fa.AGREES
    assert table.loc["dts", fa.P_COLUMNS].isna().all() and table.loc["dts", "mean_difference"] == 0
    out = capsys.readouterr().out
    assert "1 agrees, 1 identical" in out and "not tested" in out
    assert f"Holm over {len(fa.P_COLUMNS)} tests" in out  # rucb's three tests only


def test_the_uniformity_check_leaves_identical_lines_out():
    rng = np.random.default_rng(3)
    n = fa.MIN_LINES_UNIFORMITY
    tested = pd.DataFrame({"p_paired_final": rng.uniform(size=n), "p_ks_final": 0.5, "p_curve": 0.5,
                           "verdict": fa.AGREES})
    identical = pd.DataFrame({column: [np.nan] * n for column in fa.P_COLUMNS} | {"verdict": [fa.IDENTICAL] * n})
    text = "\n".join(fa.summary(pd.concat([tested, identical], ignore_index=True), 0))
    expected = stats.kstest(tested["p_paired_final"], "uniform").pvalue
    assert f"of the {n} tested lines against the uniform law" in text and f"KS p = {expected:.3g}" in text
    assert f"{n} agrees, {n} identical" in text


def test_paired_p_is_the_paired_t_test():
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=50), rng.normal(0.3, size=50)
    assert fa.paired_p(b - a) == pytest.approx(stats.ttest_rel(b, a).pvalue)
    assert fa.paired_p(np.zeros(5)) == 1.0 and fa.paired_p(np.full(5, 2.0)) == 0.0


def test_holm_rejects_step_down():
    # sorted p: 0.001 <= 0.05/4, 0.02 > 0.05/3 stops; so only the first is rejected
    assert fa.holm_rejected(np.array([0.02, 0.001, 0.04, 0.5]), 0.05).tolist() == [False, True, False, False]
    assert fa.holm_rejected(np.array([0.01, 0.001, 0.02]), 0.05).tolist() == [True, True, True]


def test_curve_p_uses_the_decade_checkpoints():
    checkpoints = np.array([1, 2, 10, 30, 100, 300, 1000])
    default = np.zeros((20, 7))
    fast = np.zeros((20, 7))
    fast[:, 3] = np.arange(20) + 5.0  # a shift at t = 30, not a decade: ignored
    assert fa.curve_p(default, fast, checkpoints) == 1.0
    fast[:, 4] = np.arange(20) + 5.0  # and at t = 100: found, times 3 decades (10, 100, 1000)
    assert fa.curve_p(default, fast, checkpoints) == pytest.approx(min(1.0, 3 * fa.paired_p(fast[:, 4])))


def test_a_missing_fast_folder_is_one_line_and_status_2(tmp_path, capsys):
    (tmp_path / "r").mkdir()
    with pytest.raises(SystemExit) as exit_info:
        run_script("reproduce/fast_agreement.py", ["--results", tmp_path / "r", "--figures", tmp_path / "f"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "fast results folder" in err and "does not exist" in err
    assert not (tmp_path / "f").exists()


def test_a_file_as_figures_folder_is_one_line_and_status_2(stores, tmp_path, capsys):
    (tmp_path / "F").write_text("x")
    with pytest.raises(SystemExit) as exit_info:
        run_script("reproduce/fast_agreement.py", ["--results", stores, "--figures", tmp_path / "F"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err == f"error: figures folder {tmp_path / 'F'}: exists and is not a folder\n"
