"""A researcher's own algorithm as a plug-in (algorithms/plugins.py; docs/extending.md, "Your own algorithm as a
plug-in"): a file or module reference and an entry point resolve through ``get_algorithm``; ``reproduce/run.py``
runs a plug-in under every backend (the worker processes of loky and dask load it from the reference each task
carries) and stores its line, which ``reproduce/verify.py`` re-simulates given the plug-in and refuses, naming the
plug-in to pass, without it; every bad reference is one line (exit status 2 on the command line, nothing written); no
kernel cached on disk is compiled for a plug-in file's types.  The toy plug-in is tests/toy_plugins.py's Copeland-UCB,
written into the test's folder; runs are tiny (K = 5, T = 2000, 4 runs)."""

import re
import sys

import numpy as np
import pytest

from dts_reproduction.algorithms import get_algorithm, is_plugin_reference, load_plugin, resolve_algorithm
from dts_reproduction.algorithms.plugins import (
    ENTRY_POINT_GROUP,
    load_plugins,
    plugin_names,
    plugin_references,
)
from dts_reproduction.core import simulate
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.checks.resimulate import verify
from dts_reproduction.reproduce.harness import limits
from dts_reproduction.reproduce.harness.runner import Line, line_folder, run_lines, run_one
from dts_reproduction.reproduce.harness.store import read_chunk_meta
from dts_reproduction.reproduce.studies.custom_runs import listing
from tests.scripts import run_script
from tests.toy_plugins import NJIT_SOURCE, PYTHON_SOURCE, empty_plugin_table, write_plugins

DATASET, HORIZON, RUNS, SEED = "mslr5_condorcet", 2000, 4, 11
FIELDS = ("regret", "g2w", "final", "self_counts", "permutations", "checkpoints")
BARE_POLICY = "from dts_reproduction.algorithms import Policy\n\n\nclass Bare(Policy):\n    pass\n"


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The references of the two transcriptions, written into ``tmp_path/plugins``, with an empty plug-in table:
    (njit reference, plain-Python reference)."""
    empty_plugin_table(monkeypatch)
    return write_plugins(tmp_path / "plugins")


def run_py(tmp_path, *args, name="mine"):
    """reproduce/run.py in this process on the test's folders, tiny: results under tmp_path/r."""
    run_script("reproduce/run.py", ["--dataset", DATASET, "--runs", str(RUNS), "--horizon", str(HORIZON),
                                    "--seed", str(SEED), "--no-progress", "--out", str(tmp_path / "r"),
                                    "--figures", str(tmp_path / "f"), "--name", name, *args])


def assert_one_line_exit_2(capsys, script, argv, message):
    """``script`` with ``argv`` exits with status 2 and prints exactly one line, ``error: <message>`` (a regex)."""
    with pytest.raises(SystemExit) as stopped:
        run_script(script, argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and re.fullmatch(f"error: {message}", err), err


@pytest.mark.parametrize("entry,expected", [
    ("dts", False), ("merge_dts:best", False), ("mine.py", False), ("mine.py:MINE_SPEC", True),
    ("plugins/mine:SPEC", True), ("./mine.py:X", True), ("my_package.my_module:SPEC", True),
])
def test_a_plugin_reference_is_told_from_a_name_and_a_preset(entry, expected):
    assert is_plugin_reference(entry) is expected


def test_a_file_reference_loads_once_under_a_stable_module_and_get_algorithm_finds_it(toy, tmp_path, monkeypatch):
    """A relative and an absolute reference to one file give the same spec (the file runs once); its Policy class is
    the same plug-in; the table remembers the resolved reference, the one a worker is handed."""
    njit_reference, _ = toy
    spec = load_plugin(njit_reference)
    monkeypatch.chdir(tmp_path)
    assert load_plugin("plugins/mine.py:MINE_SPEC") is spec
    assert load_plugin("plugins/../plugins/mine.py:CopelandUCB") is spec
    assert get_algorithm("copeland_ucb") is spec and resolve_algorithm(njit_reference) is spec
    assert plugin_references(["dts", "copeland_ucb", "copeland_ucb"]) == (njit_reference,)
    assert plugin_references(["dts"]) == ()
    assert spec.select.py_func.__module__.startswith("_dts_plugin_mine_")
    assert sys.modules[spec.select.py_func.__module__].MINE_SPEC is spec
    assert "copeland_ucb" in plugin_names()


def test_a_module_reference_loads_an_importable_module(toy, tmp_path, monkeypatch):
    package = tmp_path / "modules" / "toy_plugin_package"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "copeland.py").write_text(PYTHON_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path / "modules"))
    spec = load_plugin("toy_plugin_package.copeland:MINE_SPEC")
    assert spec.name == "copeland_ucb_py" and get_algorithm("copeland_ucb_py") is spec
    assert plugin_references(["copeland_ucb_py"]) == ("toy_plugin_package.copeland:MINE_SPEC",)


def bad_file(folder, name, text):
    """A plug-in file ``name`` holding ``text`` in ``folder``; its path."""
    path = folder / name
    path.write_text(text)
    return path


def named(source: str, name: str) -> str:
    """The njit toy's source with its algorithm named ``name``."""
    return source.replace('name="copeland_ucb"', f"name={name!r}")


def refusals(folder):
    """(reference, message regex) of every refusal: each names the reference (or the file) and the reason."""
    plugins = folder / "plugins"
    cases = [
        (f"{folder}/nope.py:MINE_SPEC", rf"plug-in '{folder}/nope.py:MINE_SPEC': no file {folder}/nope.py"),
        (f"{bad_file(plugins, 'boom.py', 'raise RuntimeError(chr(98) + chr(111) * 2 + chr(109))')}:X",
         rf"plug-in '{plugins}/boom.py:X': importing {plugins}/boom.py failed: RuntimeError: boom"),
        (f"{bad_file(plugins, 'syntax.py', 'def (:')}:X",
         rf"plug-in '{plugins}/syntax.py:X': importing {plugins}/syntax.py failed: SyntaxError: .*"),
        ("no_such_package_xyz.module:SPEC", r"plug-in 'no_such_package_xyz.module:SPEC': importing module "
                                            r"no_such_package_xyz.module failed: ModuleNotFoundError: No module named "
                                            r"'no_such_package_xyz'"),
        (f"{plugins}/mine.py:NOPE", rf"plug-in '{plugins}/mine.py:NOPE': {plugins}/mine.py has no attribute 'NOPE'"),
        (f"{plugins}/mine.py:init", rf"plug-in '{plugins}/mine.py:init' is of type function, not an AlgorithmSpec or "
                                    r"a Policy subclass"),
        (f"{bad_file(plugins, 'bare.py', BARE_POLICY)}:Bare",
         rf"plug-in '{plugins}/bare.py:Bare' is a Policy subclass without an AlgorithmSpec as its spec"),
        (f"{bad_file(plugins, 'builtin.py', named(NJIT_SOURCE, 'DTS'))}:MINE_SPEC",
         rf"plug-in '{plugins}/builtin.py:MINE_SPEC' names its algorithm 'DTS', the name of the built-in algorithm "
         r"'dts': choose another name"),
        (f"{bad_file(plugins, 'twin.py', NJIT_SOURCE)}:MINE_SPEC",
         rf"plug-in '{plugins}/twin.py:MINE_SPEC' names its algorithm 'copeland_ucb', already the name of plug-in "
         rf"'{plugins}/mine.py:MINE_SPEC' \('copeland_ucb'\)"),
        ("mine.py", r"plug-in reference 'mine.py' must look like path/to/file.py:ATTR or package.module:ATTR"),
        (f"{plugins}/mine.py:", rf"plug-in reference '{plugins}/mine.py:' must look like .*"),
    ]
    for bad_name in ("my algo", "../up", "mine_d10", "mine_fixed", "-mine", ""):
        path = bad_file(plugins, f"name{len(cases)}.py", named(NJIT_SOURCE, bad_name))
        cases.append((f"{path}:MINE_SPEC", rf"plug-in '{path}:MINE_SPEC' names its algorithm "
                                           rf"{re.escape(repr(bad_name))}(: an algorithm's name becomes a results "
                                           r"folder's|, which ends like the suffix a results folder adds).*"))
    return cases


def test_every_bad_reference_is_one_line_naming_it(toy, tmp_path):
    load_plugin(toy[0])  # 'twin' then takes a name already taken
    for reference, message in refusals(tmp_path):
        with pytest.raises(ValueError) as refused:
            load_plugin(reference)
        assert len(str(refused.value).splitlines()) == 1 and re.fullmatch(message, str(refused.value)), \
            (reference, str(refused.value))
    assert plugin_names() == ["copeland_ucb"]


@pytest.mark.parametrize("case", [0, 1, 3, 7, 11])
def test_run_py_refuses_a_bad_plugin_with_one_line_and_writes_nothing(toy, tmp_path, capsys, case):
    reference, message = refusals(tmp_path)[case]
    assert_one_line_exit_2(capsys, "reproduce/run.py",
                           ["--dataset", DATASET, "--algorithms", "dts", reference, "--runs", "2", "--horizon", "100",
                            "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f")], message)
    assert not (tmp_path / "r").exists() and not (tmp_path / "f").exists()


def test_verify_py_refuses_a_bad_plugin_with_one_line(toy, tmp_path, capsys):
    (tmp_path / "r").mkdir()
    reference, message = refusals(tmp_path)[0]
    assert_one_line_exit_2(capsys, "reproduce/verify.py", [str(tmp_path / "r"), "--plugins", reference], message)


@pytest.mark.parametrize("backend", ["sequential", "threading"])
def test_run_py_runs_a_python_plugin_with_a_parameter_and_verify_re_simulates_it(toy, tmp_path, capsys, backend,
                                                                                   monkeypatch):
    """run.py --algorithms <file>:MINE_SPEC --param <file>:MINE_SPEC.scale=1 (two runs a chunk): the line is stored
    under the algorithm's name with its parameter, equal to run_one; verify re-simulates it, selected by name or by
    reference."""
    monkeypatch.setattr(limits, "CHUNK_SLOTS", 2 * HORIZON * 5)
    _, reference = toy
    run_py(tmp_path, "--algorithms", reference, "--param", f"{reference}.scale=1", "--backend", backend,
           "--n-jobs", "2")
    spec = get_algorithm("copeland_ucb_py")
    line = Line(dataset=DATASET, algorithm=spec.name, horizon=HORIZON, runs=RUNS, params=(("scale", 1.0),))
    folder = line_folder(tmp_path / "r", line, SEED)
    assert folder.name.startswith("copeland_ucb_py_p") and len(list(folder.glob("runs_*.npz"))) == 2
    assert all(read_chunk_meta(path)["plugins"] == [reference] for path in folder.glob("runs_*.npz"))
    stored = run_lines([line], "mine", tmp_path / "r", SEED, compute=False)[0]
    for run in range(RUNS):
        fresh = run_one(load_dataset(DATASET), spec, {"scale": 1.0}, HORIZON, run, SEED)
        np.testing.assert_array_equal(stored.regret[run], fresh["regret"])
    capsys.readouterr()
    assert verify([tmp_path / "r"], runs_per_chunk=2) == 0
    assert verify([tmp_path / "r"], algorithms=[reference]) == 0
    assert capsys.readouterr().out.count("ok   ") == 4


def test_a_plugin_entry_point_resolves_through_get_algorithm(tmp_path, monkeypatch):
    """An installed distribution (a dist-info folder with entry_points.txt on sys.path) offers Copeland-UCB as
    "copeland_ucb_ep": get_algorithm finds it, run.py --list lists it, a worker is handed its module reference; an
    entry point whose spec has another name is refused."""
    empty_plugin_table(monkeypatch)
    site = tmp_path / "site"
    (site / "toy_dist-1.0.dist-info").mkdir(parents=True)
    (site / "toy_dist-1.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-dist\nVersion: 1.0\n")
    (site / "toy_dist-1.0.dist-info" / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\ncopeland_ucb_ep = toy_entry_point_module:MINE_SPEC\n"
        f"misnamed_ep = toy_entry_point_module:OTHER_SPEC\n")
    (site / "toy_entry_point_module.py").write_text(
        named(NJIT_SOURCE, "copeland_ucb_ep") + "\nOTHER_SPEC = __import__('dataclasses').replace(MINE_SPEC, "
                                                "name='other_ep')\n")
    monkeypatch.syspath_prepend(str(site))
    assert plugin_names() == ["copeland_ucb_ep", "misnamed_ep"]
    spec = get_algorithm("copeland_ucb_ep")
    assert spec.label == "Copeland-UCB" and spec.select.py_func.__module__ == "toy_entry_point_module"
    assert plugin_references(["copeland_ucb_ep"]) == ("toy_entry_point_module:MINE_SPEC",)
    listed = listing()
    assert re.search(r"^  copeland_ucb_ep +Copeland-UCB +scale=2.0$", listed, re.M), listed
    assert listed.endswith("\n  misnamed_ep: cannot be loaded (entry point 'misnamed_ep' of group "
                           "dts_reproduction.algorithms loads 'toy_entry_point_module:OTHER_SPEC', whose algorithm is "
                           "named 'other_ep': an entry point's name must be its algorithm's)")
    with pytest.raises(ValueError, match=r"^entry point 'misnamed_ep' of group dts_reproduction.algorithms loads "
                                         r"'toy_entry_point_module:OTHER_SPEC', whose algorithm is named 'other_ep': "
                                         r"an entry point's name must be its algorithm's$"):
        get_algorithm("misnamed_ep")
    with pytest.raises(ValueError, match=r"^unknown algorithm 'nope' \(known: .*, copeland_ucb_ep, .*\)$"):
        get_algorithm("nope")


def test_no_cached_kernel_is_compiled_for_a_plugin_files_state(toy):
    """A plug-in file's module cannot be imported by name in another process, so a kernel cached on disk compiled for
    its state type would break the cache index of every process after (numba unpickles every signature of the index):
    the plug-in's loop calls uncached stand-ins of the hooks it lacks, and the cached ones gain no signature."""
    spec = load_plugin(toy[0])
    run_one(load_dataset(DATASET), spec, {}, 100, 0, SEED)
    state_type = type(spec.make_state(5))
    for kernel, stand_in in simulate.UNCACHED_STAND_INS.items():
        assert not any(state_type.__name__ in str(signature) for signature in kernel.signatures), kernel
        assert any(state_type.__name__ in str(signature) for signature in stand_in.signatures), stand_in


def assert_same_lines(a, b):
    """Two lists of LineResults hold the same numbers."""
    for x, y in zip(a, b, strict=True):
        for key in FIELDS:
            np.testing.assert_array_equal(getattr(x, key), getattr(y, key), err_msg=key)


@pytest.mark.process  # loky starts worker processes, which load the plug-in from its file
def test_run_lines_under_loky_runs_a_plugin_in_worker_processes_and_verify_needs_it(toy, tmp_path, capsys,
                                                                                     monkeypatch):
    """The njit plug-in on two loky workers (one run a chunk): the numbers of the sequential backend; every chunk
    records its plug-in; verify.py re-simulates them given --plugins, and without it (a fresh table, as in a new
    process) refuses in one line naming the --plugins to pass."""
    monkeypatch.setattr(limits, "CHUNK_SLOTS", HORIZON * 5)
    reference, _ = toy
    line = Line(dataset=DATASET, algorithm=load_plugin(reference).name, horizon=HORIZON, runs=RUNS)
    workers = run_lines([line], "mine", tmp_path / "loky", SEED, n_jobs=2, progress=False, backend="loky")
    here = run_lines([line], "mine", tmp_path / "seq", SEED, n_jobs=1, progress=False, backend="sequential")
    assert_same_lines(workers, here)
    chunks = sorted(line_folder(tmp_path / "loky", line, SEED).glob("runs_*.npz"))
    assert len(chunks) == RUNS and all(read_chunk_meta(path)["plugins"] == [reference] for path in chunks)
    with pytest.raises(SystemExit) as stopped:
        run_script("reproduce/verify.py", [str(tmp_path / "loky"), "--plugins", reference])
    assert stopped.value.code == 0 and capsys.readouterr().out.count("ok   ") == RUNS
    empty_plugin_table(monkeypatch)
    assert_one_line_exit_2(capsys, "reproduce/verify.py", [str(tmp_path / "loky")],
                           rf"{chunks[0]} holds runs of algorithm 'copeland_ucb', which is no built-in algorithm nor a "
                           rf"loaded plug-in: pass the plug-in that defines it, --plugins {re.escape(reference)}")


@pytest.mark.process
def test_a_plugin_file_missing_on_a_worker_is_named(toy, tmp_path):
    """A plug-in loaded here whose file is gone by the time a worker process loads it (a dask worker without the
    file): the run fails with the plug-in's one line naming the file."""
    reference, _ = toy
    line = Line(dataset=DATASET, algorithm=load_plugin(reference).name, horizon=100, runs=1)
    (tmp_path / "plugins" / "mine.py").unlink()
    with pytest.raises(ValueError, match=rf"^plug-in '{re.escape(reference)}': no file {tmp_path}/plugins/mine.py$"):
        run_lines([line], "mine", tmp_path / "r", SEED, n_jobs=2, progress=False, backend="loky")


@pytest.mark.process
def test_a_dask_cluster_of_processes_runs_a_plugin(toy, tmp_path, monkeypatch):
    """Two dask worker processes load the plain-Python plug-in from its file: the sequential backend's numbers."""
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(limits, "CHUNK_SLOTS", HORIZON * 5)
    _, reference = toy
    line = Line(dataset=DATASET, algorithm=load_plugin(reference).name, horizon=HORIZON, runs=RUNS)
    here = run_lines([line], "mine", tmp_path / "seq", SEED, n_jobs=1, progress=False, backend="sequential")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster):
        remote = run_lines([line], "mine", tmp_path / "dask", SEED, n_jobs=2, progress=False, backend="dask")
    assert_same_lines(remote, here)


def test_load_plugins_loads_each_reference_once(toy):
    """A worker's loading: every reference, each once (a second task of the plug-in runs nothing again)."""
    load_plugins(toy)
    first = get_algorithm("copeland_ucb"), get_algorithm("copeland_ucb_py")
    load_plugins(toy)
    assert (get_algorithm("copeland_ucb"), get_algorithm("copeland_ucb_py")) == first


def test_warm_cache_takes_a_plugin_reference(toy, tmp_path, capsys):
    """reproduce/warm_cache.py runs a plug-in given by reference (its one line with the seconds it took); a bad
    reference is its one error line."""
    _, reference = toy
    run_script("reproduce/warm_cache.py", [reference])
    assert re.fullmatch(r"copeland_ucb_py: \d+\.\d s\n", capsys.readouterr().out)
    missing, message = refusals(tmp_path)[0]
    assert_one_line_exit_2(capsys, "reproduce/warm_cache.py", [missing], message)
