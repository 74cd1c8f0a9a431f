"""``--fast``: every algorithm's exact fast paths (``AlgorithmSpec.fast``) in the figure scripts and run.py,
stored and drawn apart from the default-path results.  That each fast path has the defaults' law is
tested per algorithm (tests/algorithms/: test_dts_fast.py, test_rcs_fast.py, test_skip_exact.py); here: which
parameters the option selects and where its outputs go."""

import subprocess
import sys
from pathlib import Path

import pytest

from dts_reproduction.algorithms import ALGORITHMS, get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.cli.arguments import build_parser, resolve
from dts_reproduction.reproduce.config.paper import HORIZON
from dts_reproduction.reproduce.reporting import claims_report
from dts_reproduction.reproduce.studies.experiment import Curve, Panel, curves_and_stores, panel_curves
from dts_reproduction.reproduce.studies.paper_panels import FIG1_PANELS
from tests.scripts import run_script

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_fast_parameters_are_accepted_and_differ_from_the_defaults(name):
    """Every declared fast parameter is one of the algorithm's parameters, set to a value it accepts
    and not to its default (a fast path equal to the reference would time and store nothing new)."""
    spec = get_algorithm(name)
    for key, value in spec.fast.items():
        assert key in spec.defaults and spec.defaults[key] != value
    spec.make_state(5, 100, spec.problem_params(spec.resolve_params(spec.fast), load_dataset("mslr5_condorcet")))


def test_the_fast_paths_of_the_paper_algorithms():
    """The D-TS family and Self-Sparring sample "fast", RCS "knockout" and skips; RUCB, CCB, RMED1/2 and ECW-RMED
    skip exactly."""
    assert {name: dict(get_algorithm(name).fast) for name in ("dts", "dts_plus", "pure_dts", "self_sparring", "rcs",
                                                              "rucb", "ccb", "rmed1", "rmed2", "ecw_rmed")} == {
        **{name: {"sampling": "fast"} for name in ("dts", "dts_plus", "pure_dts", "self_sparring")},
        "rcs": {"sampling": "knockout", "skip": "exact"},
        **{name: {"skip": "exact"} for name in ("rucb", "ccb", "rmed1", "rmed2", "ecw_rmed")}}
    assert {name for name in ALGORITHMS if not get_algorithm(name).fast} == {"btm", "merge_rucb", "multisbm",
                                                                              "rex3", "savage", "scb", "sparring",
                                                                              "ws_s", "ws_w"}


def _settings(tmp_path, *flags):
    """The ``Settings`` the command line ``flags`` give, results and figures under ``tmp_path``."""
    return resolve(build_parser("test", HORIZON).parse_args(
        ["--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f"), *flags]))


def test_fast_lines_carry_the_fast_parameters_unless_the_curve_sets_them(tmp_path):
    panel = Panel("mslr5_condorcet", "p", ("dts", "sparring", Curve("rucb", (("skip", "off"),), tag="RUCB slow")))
    default = [curve[0].params for curve in panel_curves(panel, _settings(tmp_path))]
    fast = [curve[0].params for curve in panel_curves(panel, _settings(tmp_path, "--fast"))]
    assert default == [(), (), (("skip", "off"),)]
    assert fast == [(("sampling", "fast"),), (), (("skip", "off"),)]


@pytest.mark.parametrize("flags, sub", [((), ""), (("--fast",), "fast"), (("--quick", "--fast"), "quick/fast")])
def test_fast_results_and_figures_go_to_their_own_folders(tmp_path, flags, sub):
    settings = _settings(tmp_path, *flags)
    assert settings.out == tmp_path / "r" / sub and settings.figures == tmp_path / "f" / sub


def test_the_report_of_a_fast_folder_says_so(tmp_path):
    for folder in (tmp_path / "fast", tmp_path / "quick" / "fast"):
        folder.mkdir(parents=True)
        text = claims_report.build_report(folder)
        assert "Computed with `--fast`" in text
        assert ("Quick run" in text) == (folder.parent.name == "quick")
    assert "Computed with `--fast`" not in claims_report.build_report(tmp_path)


def test_lines_fast_leaves_unchanged_are_stored_with_the_defaults(tmp_path):
    """Under --fast a line of an algorithm without fast path, or of a curve setting its fast parameter
    itself, is the default line: it is read from and stored in the defaults' folder, never twice."""
    panel = Panel("mslr5_condorcet", "p", ("dts", "sparring", Curve("rucb", (("skip", "off"),), tag="RUCB slow")))
    _, stores = curves_and_stores([panel], _settings(tmp_path, "--fast"))
    assert list(stores.values()) == [tmp_path / "r" / "fast", tmp_path / "r", tmp_path / "r"]
    _, stores = curves_and_stores([panel], _settings(tmp_path, "--quick", "--fast"))
    assert list(stores.values()) == [tmp_path / "r" / "quick" / "fast", tmp_path / "r" / "quick",
                                     tmp_path / "r" / "quick"]
    assert list(curves_and_stores([panel], _settings(tmp_path))[1].values()) == [tmp_path / "r"] * 3


@pytest.mark.process
def test_a_fast_run_reuses_the_default_line_of_an_algorithm_without_fast_path(tmp_path):
    common = [sys.executable, "reproduce/run.py", "--dataset", "cyclic", "--algorithms", "dts", "sparring",
              "--runs", "2", "--horizon", "300", "--n-jobs", "1", "--no-progress", "--name", "t",
              "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f")]
    subprocess.run(common, cwd=ROOT, check=True, capture_output=True)
    sparring = sorted((tmp_path / "r" / "cyclic").glob("sparring_*/runs_*.npz"))
    assert len(sparring) == 1
    stamp = sparring[0].stat().st_mtime_ns
    subprocess.run([*common, "--fast"], cwd=ROOT, check=True, capture_output=True)
    assert sorted(p.parent.name.split("_")[0] for p in (tmp_path / "r" / "fast" / "cyclic").glob("*/runs_*.npz")) \
        == ["dts"]
    assert sparring[0].stat().st_mtime_ns == stamp  # read, not recomputed
    assert (tmp_path / "f" / "fast" / "t.png").is_file()


@pytest.mark.parametrize("flags, horizons", [((), {1_000_000, 2_000_000}), (("--horizon", "1e6"), {1_000_000}),
                                             (("--horizon", "3e5"), {300_000}), (("--quick",), {10_000}),
                                             (("--quick", "--horizon", "3e4"), {30_000})])
def test_a_given_horizon_replaces_every_panel_horizon_even_the_default(tmp_path, flags, horizons):
    """Fig. 1(b) runs to 2e6 by default; --horizon T, even T = the script's default 1e6, applies to every panel;
    so does --quick's horizon, unless --horizon is given too (``reproduce.config.scale``)."""
    settings = _settings(tmp_path, *flags)
    found = {line.horizon for panel in FIG1_PANELS for curve in panel_curves(panel, settings) for line in curve
             if line.algorithm not in ("btm", "savage")}
    assert found == horizons


def test_a_fast_run_names_every_results_folder_it_wrote(tmp_path, capsys):
    # D-TS's fast line goes to <out>/fast, BTM (no fast path) to <out> itself: the message named only the first.
    run_script("reproduce/run.py", ["--dataset", "mslr5_condorcet", "--algorithms", "dts", "btm", "--fast", "--runs",
                                    "2", "--horizon", "100", "--n-jobs", "1", "--no-progress", "--out",
                                    str(tmp_path / "r"), "--figures", str(tmp_path / "f")])
    out = capsys.readouterr().out
    key = "mslr5_condorcet"
    assert f"wrote results under {tmp_path / 'r' / 'fast' / key} and {tmp_path / 'r' / key}\n" in out
    assert (tmp_path / "r" / key).is_dir() and (tmp_path / "r" / "fast" / key).is_dir()
