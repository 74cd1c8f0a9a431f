"""``Settings``, the one declared record of a run's settings: the command line (``resolve``) builds the same one as a
library user (``Settings.library``) for the same values, with the folders, runs and horizon the flags' rules give;
a misspelt field is a TypeError where the settings are built; a built one cannot be changed, only varied."""

import dataclasses
import math

import pytest

from dts_reproduction.reproduce.cli.arguments import add_line_selection, build_parser, resolve
from dts_reproduction.reproduce.config.paper import HORIZON, ROOT_SEED
from dts_reproduction.reproduce.config.scale import QUICK_HORIZON, QUICK_RUNS
from dts_reproduction.reproduce.harness.limits import MAX_CPU_HOURS
from dts_reproduction.reproduce.harness.paths import FIGURES, RESULTS
from dts_reproduction.reproduce.harness.settings import Settings


def from_command_line(tmp_path, flags, **parser_options):
    """The settings ``resolve`` builds from ``flags`` (with the line selection offered), results and figures under
    ``tmp_path``."""
    parser = build_parser("test", HORIZON, **parser_options)
    add_line_selection(parser)
    return resolve(parser.parse_args([*flags, "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f")]))


@pytest.mark.parametrize("flags, parser_options, values", [
    ([], {}, {}),
    (["--quick", "--fast"], {}, {"quick": True, "fast": True}),
    (["--runs", "7", "--horizon", "1e5", "--seed", "3", "--n-jobs", "2", "--no-progress", "--force",
      "--max-cpu-hours", "5", "--local-cluster", "2", "--algorithms", "dts", "rucb", "--datasets", "sushi"], {},
     {"runs": 7, "horizon": 100_000, "seed": 3, "n_jobs": 2, "progress": False, "force": True, "max_cpu_hours": 5.0,
      "backend": "dask", "local_cluster": 2, "algorithms": ["dts", "rucb"], "datasets": ["sushi"]}),
    (["--scheduler", "tcp://host:8786", "--stored-only"], {"fast": False},
     {"backend": "dask", "scheduler": "tcp://host:8786", "stored_only": True}),
    (["--backend", "threading", "--plot-only", "--horizon", "1000000"], {}, {"backend": "threading",
                                                                             "plot_only": True, "horizon": HORIZON}),
    ([], {"computes": False}, {"n_jobs": 1, "progress": False, "plot_only": True, "stored_only": True,
                               "max_cpu_hours": math.inf}),
])
def test_the_command_line_builds_what_the_library_builds(tmp_path, flags, parser_options, values):
    """Every flag reaches its field: the same values given to ``Settings.library`` give an equal record."""
    library = Settings.library(out=tmp_path / "r", figures=tmp_path / "f", **values)
    assert from_command_line(tmp_path, flags, **parser_options) == library


def test_the_library_constructor_has_the_command_line_defaults_and_rules(tmp_path):
    """Without arguments: the paper's run in results/ and figures/; with quick and fast: the quick run's runs and
    horizon, quick/fast/ below the folders given and the defaults' folder quick/; a given horizon is marked given,
    even equal to the default (it then replaces every panel's own)."""
    paper = Settings.library()
    assert (paper.runs, paper.horizon, paper.horizon_given, paper.seed, paper.n_jobs, paper.backend) == \
        (None, HORIZON, False, ROOT_SEED, -1, "loky")
    assert (paper.out, paper.default_out, paper.figures) == (RESULTS, RESULTS, FIGURES)
    assert (paper.progress, paper.force, paper.plot_only, paper.stored_only, paper.max_cpu_hours) == \
        (True, False, False, False, MAX_CPU_HOURS)
    assert paper.algorithms is None and paper.datasets is None and paper.scheduler is paper.local_cluster is None
    smoke = Settings.library(quick=True, fast=True, out=tmp_path / "r", figures=tmp_path / "f")
    assert (smoke.runs, smoke.horizon, smoke.horizon_given) == (QUICK_RUNS, QUICK_HORIZON, False)
    assert (smoke.out, smoke.default_out, smoke.figures) == \
        (tmp_path / "r" / "quick" / "fast", tmp_path / "r" / "quick", tmp_path / "f" / "quick" / "fast")
    assert Settings.library(horizon=HORIZON).horizon_given
    assert Settings.library(algorithms=["dts"]).algorithms == ("dts",)


def test_a_misspelt_field_is_a_type_error_where_the_settings_are_built():
    """A typo in a field's name fails at once, in the constructor, ``replace`` and the raw record alike; so does a
    field left out of the raw record (every field is declared and required)."""
    paper = Settings.library()
    with pytest.raises(TypeError, match="fsat"):
        Settings.library(fsat=True)
    with pytest.raises(TypeError, match="no_progress"):
        dataclasses.replace(paper, no_progress=True)
    fields = dataclasses.asdict(paper)
    with pytest.raises(TypeError, match="horizon_gven"):
        Settings(**fields, horizon_gven=True)
    del fields["default_out"]
    with pytest.raises(TypeError, match="default_out"):
        Settings(**fields)


def test_settings_are_frozen_and_varied_by_replace():
    """Assigning a field raises; ``replace`` makes a variant and derives nothing again (the folders stay)."""
    fast = Settings.library(fast=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.fast = False
    plain = dataclasses.replace(fast, fast=False)
    assert (fast.fast, plain.fast, plain.out) == (True, False, fast.out)
