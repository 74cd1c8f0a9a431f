"""What the README's requirements, docs/figures.md's flags and scripts and every script's ``--help`` say, checked: the
flags each script offers, its help texts, ``run.py --list``, the flags the Makefile passes, the one list of
pinned versions and the supported Python, the licence and the citation file."""

import re
import shlex
import subprocess
import tomllib

import pytest
import yaml
from packaging.requirements import Requirement

from dts_reproduction.algorithms import ALGORITHMS
from dts_reproduction.data import dataset_names, load_dataset
from dts_reproduction.reproduce.cli.arguments import COMPUTE_FLAGS, doc_summary
from dts_reproduction.reproduce.harness.paths import ROOT
from tests.scripts import run_script, script_docstring

COMMON = {"--runs", "--horizon", "--seed", "--quick", "--out", "--figures"}
REGRET = ("reproduce/fig1_mslr.py", "reproduce/fig3_condorcet.py", "reproduce/fig4_noncondorcet.py",
          "reproduce/fig5_diversity.py", "reproduce/fig6_delay.py", "reproduce/fig7_pure_dts.py")
# The flags each script offers (by its path from the root): only those that do something for it.
OFFERED = {
    **{script: COMMON | {"--fast"} | set(COMPUTE_FLAGS) for script in REGRET},
    # reads Fig. 1's stored runs: nothing to compute, force or distribute
    "reproduce/fig2_regret_std.py": COMMON | {"--fast"},
    "reproduce/c18_elimination.py": COMMON | set(COMPUTE_FLAGS),  # D-TS slot by slot: no fast path
    "reproduce/table9_mslr_subsets.py": {"--figures", "--quick"},  # reads data/ only
    "reproduce/run.py": COMMON | {"--fast"} | set(COMPUTE_FLAGS) | {"--list", "--dataset", "--algorithms", "--param",
                                                                    "--delay", "--no-shuffle", "--name"},
    "reproduce/benchmark.py": COMMON | {"--fast"} | set(COMPUTE_FLAGS) | {"--tier", "--algorithms", "--param",
                                                                          "--datasets", "--against"},
}


def help_text(script: str, capsys) -> str:
    """The ``--help`` output of the script at ``script`` (from the root, run from its file), whitespace collapsed."""
    with pytest.raises(SystemExit) as exit_:
        run_script(script, ["--help"])
    assert exit_.value.code == 0
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("script", sorted(OFFERED))
def test_each_script_offers_only_its_flags(script, capsys):
    """fig2, table9 and c18 offered --runs/--force/--backend/--plot-only/--fast where they did nothing; the
    help lists exactly the flags of ``OFFERED`` and its description is the docstring's first paragraph, whole
    (table9's stopped mid-sentence)."""
    text = help_text(script, capsys)
    usage = text.split(" options: ")[0]
    assert set(re.findall(r"\[(--[a-z-]+)", usage)) == OFFERED[script]


# Every command line of the repository, by its path from the root: the scripts of reproduce/ and bench/.
ENTRY_POINTS = (
    *(f"reproduce/{name}.py" for name in (
        "asymptotic", "benchmark", "c18_elimination", "fast_agreement", "fidelity", "fig1_mslr", "fig2_regret_std",
        "fig3_condorcet", "fig4_noncondorcet", "fig5_diversity", "fig6_delay", "fig7_pure_dts", "large_scale",
        "lower_bounds", "report", "run", "successors", "table9_mslr_subsets", "verify", "warm_cache",
        "build_matrices")),
    *(f"bench/{name}.py" for name in ("authors_code", "authors_python", "cost_vs_k", "newcomer", "paper_cost",
                                      "policy_step", "skip_ab", "startup", "step_cost", "successors_fidelity",
                                      "targets")),
)


def test_every_command_line_is_listed():
    """A new script with a ``main`` must join ENTRY_POINTS, so that the help test below covers it."""
    scripts = {path.relative_to(ROOT).as_posix() for folder in ("reproduce", "bench")
               for path in (ROOT / folder).glob("*.py") if "\ndef main(" in path.read_text()}
    assert scripts == set(ENTRY_POINTS)


@pytest.mark.parametrize("script", sorted(ENTRY_POINTS))
def test_help_description_is_the_docstrings_first_paragraph(script, capsys):
    """Every ``--help`` opens with its docstring's first paragraph, whole: large_scale's and cost_vs_k's stopped
    mid-sentence ("... exact D-TS on"), being the first line alone."""
    text = help_text(script, capsys)
    description = doc_summary(script_docstring(script))
    assert description.endswith((".", "?")), description
    assert "".join(description.split()) in "".join(text.split()), text


def test_fig1_help_gives_the_horizon_of_each_panel(capsys):
    """fig1 --help said the default horizon is 1e6, but panel (b) runs to 2e6."""
    expected = "(default: the paper's, 1e6; 2e6 for (b) MSLR K=5, non-Condorcet)"
    assert "".join(expected.split()) in "".join(help_text("reproduce/fig1_mslr.py", capsys).split())  # wraps at '-'


def test_run_list_prints_every_dataset_and_algorithm_with_defaults(capsys):
    """run.py --list: each dataset with K and Condorcet or not, each algorithm with every parameter default;
    it needs neither --dataset nor --algorithms and writes nothing."""
    run_script("reproduce/run.py", ["--list"])
    out = capsys.readouterr().out
    for name in dataset_names():
        dataset = load_dataset(name)
        winner = "Condorcet winner" if dataset.has_condorcet_winner else "no Condorcet winner"
        assert re.search(rf"^  {name} +K = {dataset.K} +{winner}$", out, re.M), name
    for name, spec in ALGORITHMS.items():
        line = re.search(rf"^  {name} +(.*)$", out, re.M).group(1)
        assert line.startswith(spec.label)
        assert all(f"{key}={value!r}" in line for key, value in spec.defaults.items()), line


@pytest.mark.parametrize("mode", ["", "QUICK=1", "FAST=1", "FORCE=1", "QUICK=1 FORCE=1", "QUICK=1 FAST=1"])
def test_makefile_passes_each_script_only_flags_it_offers(mode, capsys):
    """`make all-figures FORCE=1` passed --force to every script, fig2 and c18 included; each command of
    `make -n all-figures` now uses only flags its script offers."""
    out = subprocess.run(["make", "-n", "all-figures", "PYTHON=python", *mode.split()], cwd=ROOT, text=True,
                         capture_output=True, check=True).stdout
    commands = [shlex.split(line) for line in out.splitlines() if line.startswith("python reproduce/")]
    assert {c[1] for c in commands} >= {"reproduce/fig1_mslr.py", "reproduce/fig2_regret_std.py"}
    for command in commands:
        if command[1] in OFFERED:
            flags = {arg for arg in command[2:] if arg.startswith("--")}
            assert flags <= OFFERED[command[1]], command


def test_pinned_versions_have_one_source_and_the_python_the_readme_states():
    """pyproject.toml declares ranges only (>=) and constraints.txt holds every pin (==), one for each package
    pyproject names, inside its range; requirements.txt installs the project with every extra under those pins and
    pins nothing itself; README's Python matches requires-python."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    ranges = [Requirement(r) for r in project["dependencies"]
              + [r for extra in project["optional-dependencies"].values() for r in extra]]
    assert ranges and all(str(r.specifier).startswith(">=") and "," not in str(r.specifier) for r in ranges), ranges
    pins = [Requirement(line) for line in (ROOT / "constraints.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    assert all(str(pin.specifier).startswith("==") for pin in pins), pins
    pinned = {pin.name: str(pin.specifier)[2:] for pin in pins}
    assert len(pinned) == len(pins)
    assert {"numba", "numpy", "scipy", "pandas", "matplotlib", "joblib", "dask", "pytest", "ruff"} <= pinned.keys()
    for r in ranges:
        assert r.specifier.contains(pinned[r.name]), (r, pinned.get(r.name))
    lines = [line.strip() for line in (ROOT / "requirements.txt").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    assert lines == ["-c constraints.txt", f"-e .[{','.join(sorted(project['optional-dependencies']))}]"]
    assert project["requires-python"] == ">=3.11"
    readme = (ROOT / "README.md").read_text()
    assert "Python 3.11 or later" in readme and "3.10+" not in readme


def test_license_and_citation_agree_with_pyproject():
    """LICENSE is the MIT licence pyproject declares; CITATION.cff cites the paper (preferred) and this code."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"]["text"] == "MIT"
    license_text = (ROOT / "LICENSE").read_text()
    assert license_text.startswith("MIT License") and "2026 The dts-reproduction authors" in license_text
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    paper = citation["preferred-citation"]
    assert paper["title"] == "Double Thompson Sampling for Dueling Bandits" and paper["year"] == 2016
    assert [a["family-names"] for a in paper["authors"]] == ["Wu", "Liu"]
    assert citation["type"] == "software" and citation["version"] == project["version"]
    assert citation["license"] == "MIT"
