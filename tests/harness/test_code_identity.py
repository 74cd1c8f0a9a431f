"""What a stored line knows of its code (docs/harness.md): the code identity of a line is the same in another process
and through another path to the package, follows edits of the functions a run calls (a helper of core/, a
constant, a closure's value), and decides reuse -- an edit that changes the draws is refused (exit 2, naming the
function and --force), one that changes none costs one re-check recorded beside the chunks, which stay as they were;
a line stored before identities existed is re-checked once; --plot-only re-checks nothing and writes nothing; a dirty
work tree is recorded.  Tiny runs only: K = 5, T <= 2000, at most 4 runs."""

import importlib
import inspect
import json
import os
import shutil
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

from dts_reproduction.algorithms import ALGORITHMS, YARDSTICKS, get_algorithm
from dts_reproduction.algorithms.base import AlgorithmSpec
from dts_reproduction.core import thompson
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.checks import resimulate
from dts_reproduction.reproduce.checks.resimulate import verify
from dts_reproduction.reproduce.harness import code_identity, code_record, limits, runner
from dts_reproduction.reproduce.harness.code_identity import (
    changed_functions,
    function_digests,
    git_dirty,
    qualified_name,
    run_code,
    unwrapped,
)
from dts_reproduction.reproduce.harness.curves import CURVES
from dts_reproduction.reproduce.harness.runner import Line, line_folder, run_lines
from dts_reproduction.reproduce.harness.store import read_chunk, save_chunk
from tests.scripts import run_script

ROOT = Path(__file__).resolve().parents[2]
DATASET = "mslr5_condorcet"  # K = 5
# What the subprocess prints: the identity of a D-TS line (skip hooks, numba kernels, core helpers) and of a
# Sparring line (no hook: no state is made, so a copy of the sources compiles nothing).
IDENTITIES = """
import json
from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness import code_identity
from dts_reproduction.reproduce.harness.curves import CURVES
names = {names!r}
print(code_identity.__file__)
print(json.dumps([code_identity.run_code(get_algorithm(name), get_algorithm(name).resolve_params({{}}),
                                         load_dataset("mslr5_condorcet"), 2000, CURVES) for name in names]))
"""
# The state is a plain tuple, not a class of the toy's module: numba's on-disk cache of the loop's hooks that take
# the state (core.simulate._never_skip ...) records its type, which another process must be able to import.
TOY = '''"""A toy dueling-bandit algorithm for the tests: uniform pairs."""

import numpy as np
from numba import njit

from dts_reproduction.algorithms.base import AlgorithmSpec


def init_toy(K, horizon=None):
    """A fresh state: the comparisons and wins of every pair."""
    return np.ones((K, K)), np.zeros((K, K))


@njit
def select(state, t, rng):
    """Two uniform arms."""
    K = state[0].shape[0]
    first = rng.integers(0, K)
    return first, rng.integers(0, K)


@njit
def update(state, a1, a2, a1_won, t):
    """Count the comparison."""
    state[0][a1, a2] += 1.0
    state[1][a1, a2] += a1_won


TOY_SPEC = AlgorithmSpec(name="toy", label="Toy", init=init_toy, select=select, update=update)
'''
CHAIN = """SCALE = 2


def helper(x):
    return SCALE * x


def select(state, t, rng):
    return helper(t), 0


def make(offset):
    def shifted(state, t, rng):
        return helper(t) + offset, 0
    return shifted
"""
SAME_DRAWS = ("    first = rng.integers(0, K)\n    return first, rng.integers(0, K)",
              "    arm = rng.integers(0, K)  # the first arm, uniformly\n    return arm, rng.integers(0, K)")
OTHER_DRAWS = ("    return first, rng.integers(0, K)", "    return first, (first + 1) % K")


def _identities(pythonpath: Path, names, env=None) -> tuple[str, list]:
    """(the file code_identity was imported from, the identities of ``names``' lines) in a fresh interpreter whose
    only path to the package is ``pythonpath``."""
    done = subprocess.run([sys.executable, "-c", IDENTITIES.format(names=list(names))], capture_output=True, text=True,
                          cwd=pythonpath, env={**os.environ, "PYTHONPATH": str(pythonpath), **(env or {})},
                          timeout=600, check=True)
    where, identities = done.stdout.splitlines()[-2:]
    return where, json.loads(identities)


def _here(name: str) -> dict:
    """The identity of a line of ``name`` (defaults, mslr5_condorcet, T = 2000) in this process."""
    spec = get_algorithm(name)
    return run_code(spec, spec.resolve_params({}), load_dataset(DATASET), 2000, CURVES)


def test_the_identity_is_the_same_in_another_process_and_through_another_path(tmp_path):
    """Another interpreter reaching the package through a link of its own (a clone's links resolve elsewhere), and
    one importing a copy of its sources (as an installed wheel does), find the identity of this process: source text
    only, no path, no memory address, no order of a set."""
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "dts_reproduction").symlink_to(ROOT / "dts_reproduction", target_is_directory=True)
    where, identities = _identities(linked, ["dts", "sparring"])
    assert where.startswith(str(linked)) and identities == [_here("dts"), _here("sparring")]
    copy = tmp_path / "copy" / "dts_reproduction"
    copy.mkdir(parents=True)
    shutil.copy(ROOT / "dts_reproduction" / "__init__.py", copy)
    for folder in ("core", "algorithms", "data", "reproduce"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__"))
    where, identities = _identities(copy.parent, ["sparring"], {"NUMBA_CACHE_DIR": str(tmp_path / "cache")})
    assert where.startswith(str(copy)) and identities == [_here("sparring")]
    assert len(_here("dts")["functions"]) > 50 and "algorithms.dts.select" in _here("dts")["functions"]


def test_the_identity_follows_a_helper_of_core_the_kernels_call(monkeypatch):
    """An edit of core.thompson.sample_votes, which D-TS's select calls through two modules, changes the identity of
    a D-TS line and names that function alone; it leaves a Sparring line's, which never calls it."""
    before = {name: _here(name) for name in ("dts", "sparring")}
    getsource = inspect.getsource

    def edited(obj):
        """The source text, with a comment added to sample_votes."""
        return getsource(obj) + ("# edited\n" if obj is thompson.sample_votes.py_func else "")

    monkeypatch.setattr(inspect, "getsource", edited)
    monkeypatch.setattr(code_identity, "_NODES", weakref.WeakKeyDictionary())
    monkeypatch.setattr(code_identity, "_RUN_CODES", weakref.WeakKeyDictionary())
    after = {name: _here(name) for name in ("dts", "sparring")}
    assert after["dts"]["digest"] != before["dts"]["digest"]
    assert changed_functions(before["dts"]["functions"], after["dts"]["functions"]) == ["core.thompson.sample_votes"]
    assert after["sparring"] == before["sparring"]


def test_the_identity_follows_constants_closures_and_the_hooks_a_state_uses(tmp_path, monkeypatch):
    """A module constant a kernel reads, and a factory's closure value, are part of the digest of the function that
    reads them (one name, two closures: one entry of both); a skip kernel counts only for the parameters whose state
    uses it; plain Python functions are digested as kernels are."""
    (tmp_path / "toy_chain.py").write_text(CHAIN)
    monkeypatch.syspath_prepend(str(tmp_path))
    import toy_chain

    digests = function_digests([toy_chain.select], modules={"toy_chain"})
    assert sorted(digests) == ["toy_chain.helper", "toy_chain.select"]
    monkeypatch.setattr(toy_chain, "SCALE", 3)
    monkeypatch.setattr(code_identity, "_NODES", weakref.WeakKeyDictionary())
    assert changed_functions(digests, function_digests([toy_chain.select], modules={"toy_chain"})) == \
        ["toy_chain.helper"]
    one, two = (function_digests([toy_chain.make(offset)], modules={"toy_chain"}) for offset in (1, 2))
    assert changed_functions(one, two) == ["toy_chain.make.<locals>.shifted"]
    assert function_digests([toy_chain.make(1), toy_chain.make(2)], modules={"toy_chain"}).keys() == one.keys()
    ccb = get_algorithm("ccb")
    plain, skipping = (run_code(ccb, ccb.resolve_params(params), load_dataset(DATASET), 2000, CURVES)["functions"]
                       for params in ({}, {"skip": "exact"}))
    assert "algorithms.ccb_skip.skip" in skipping and "algorithms.ccb_skip.skip" not in plain
    spec = AlgorithmSpec(name="plain", label="Plain", init=lambda K, horizon=None: (), select=toy_chain.select,
                         update=toy_chain.helper)
    functions = run_code(spec, {}, load_dataset(DATASET), 2000, CURVES)["functions"]
    assert {"toy_chain.select", "toy_chain.helper", "core.simulate._loop_segment"} <= set(functions)


def test_every_algorithm_has_an_identity_with_its_kernels_and_the_loop():
    """Every registered algorithm, with its defaults and with its fast paths, has an identity naming its select and
    update, the loop and the environment's draws; the D-TS family shares its kernels' digests; a fast path taken
    through a skip hook has an identity of its own (one chosen inside select, Self-Sparring's, runs the same
    functions)."""
    dataset = load_dataset(DATASET)
    for spec in [*ALGORITHMS.values(), *YARDSTICKS.values()]:
        identities = [run_code(spec, spec.resolve_params(params), dataset, 2000, CURVES) for params in ({}, spec.fast)]
        for functions in (identity["functions"] for identity in identities):
            kernels = {qualified_name(unwrapped(kernel)) for kernel in (spec.select, spec.update)}
            assert kernels | {"core.simulate._loop_segment", "reproduce.harness.seeds.algorithm_rng",
                              "reproduce.harness.runner.run_one"} <= set(functions), spec.name
        assert (identities[0] != identities[1]) == (spec.skip is not None and bool(spec.fast)), spec.name
    family = [_here(name)["functions"] for name in ("dts", "dts_plus", "pure_dts")]
    assert family[0]["algorithms.dts.select"] == family[1]["algorithms.dts.select"] == \
        family[2]["algorithms.dts.select"]


def _toy(tmp_path, monkeypatch, edit=None):
    """Write (or edit: ``(old, new)``) the toy algorithm's module in ``tmp_path``, import it afresh and register its
    spec as "toy"; returns the spec."""
    path = tmp_path / "toy_duel.py"
    text = TOY if edit is None else path.read_text().replace(*edit)
    assert edit is None or text != path.read_text()
    path.write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    module = importlib.reload(sys.modules["toy_duel"]) if "toy_duel" in sys.modules else importlib.import_module(
        "toy_duel")
    monkeypatch.setitem(ALGORITHMS, "toy", module.TOY_SPEC)
    return module.TOY_SPEC


def _run(tmp_path, algorithm: str, *extra) -> int:
    """reproduce/run.py with ``algorithm`` on mslr5_condorcet, 4 runs of T = 2000, in-process, on ``tmp_path``'s
    folders; its exit status."""
    try:
        run_script("reproduce/run.py", ["--dataset", DATASET, "--algorithms", algorithm, "--runs", "4", "--horizon",
                                        "2000", "--n-jobs", "1", "--backend", "sequential", "--no-progress",
                                        "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f"), *extra])
    except SystemExit as done:
        return done.code
    return 0


def _chunks(tmp_path, algorithm: str) -> dict:
    """{chunk path: (mtime_ns, bytes)} of the stored line of ``algorithm`` that ``_run`` makes."""
    folder = line_folder(tmp_path / "r", Line(DATASET, algorithm, 2000, 4))
    return {path: (path.stat().st_mtime_ns, path.read_bytes()) for path in sorted(folder.glob("runs_*.npz"))}


def test_an_edit_that_changes_the_draws_is_refused_until_forced(tmp_path, monkeypatch, capsys):
    """The toy's select edited so that its second arm is no longer drawn: run.py exits 2 before computing anything,
    one line naming the line, the function and --force, the chunks as they were; --force recomputes them with the
    new identity."""
    first = _toy(tmp_path, monkeypatch)
    assert _run(tmp_path, "toy") == 0
    stored = _chunks(tmp_path, "toy")
    assert [read_chunk(path)["meta"]["code"]["digest"] for path in stored] == \
        [run_code(first, {}, load_dataset(DATASET), 2000, CURVES)["digest"]]
    capsys.readouterr()
    edited = _toy(tmp_path, monkeypatch, OTHER_DRAWS)
    assert _run(tmp_path, "toy") == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("error: the stored runs of toy on mslr5_condorcet (")
    assert "changed: toy_duel.select)" in error and error.endswith("recompute them with --force\n")
    assert _chunks(tmp_path, "toy") == stored
    assert not (next(iter(stored)).parent / code_record.CODE_FILE).exists()
    assert _run(tmp_path, "toy", "--force") == 0
    assert [read_chunk(path)["meta"]["code"]["digest"] for path in _chunks(tmp_path, "toy")] == \
        [run_code(edited, {}, load_dataset(DATASET), 2000, CURVES)["digest"]]


def test_an_edit_that_changes_no_draw_costs_one_re_check(tmp_path, monkeypatch, capsys):
    """A comment and a renamed local in the toy's select: the next run re-simulates the sample, reuses the chunks
    (not rewritten: the same bytes and times) and records the new identity in the line's code.json; the run after
    reuses them without re-checking."""
    _toy(tmp_path, monkeypatch)
    assert _run(tmp_path, "toy") == 0
    stored = _chunks(tmp_path, "toy")
    capsys.readouterr()
    edited = _toy(tmp_path, monkeypatch, SAME_DRAWS)
    assert _run(tmp_path, "toy") == 0
    assert "re-checked" in capsys.readouterr().err
    assert _chunks(tmp_path, "toy") == stored
    record = json.loads((next(iter(stored)).parent / code_record.CODE_FILE).read_text())
    current = run_code(edited, {}, load_dataset(DATASET), 2000, CURVES)
    assert [entry["digest"] for entry in record["accepted"]] == [current["digest"]]
    assert record["accepted"][0]["functions"] == current["functions"]
    assert _run(tmp_path, "toy") == 0
    assert "re-checked" not in capsys.readouterr().err


def _strip_identities(folder: Path) -> dict:
    """Rewrite the chunks of ``folder`` as chunks stored before identities existed (no code, no dirty flag in their
    record: the committed results); returns {path: (mtime_ns, bytes)} of them as rewritten."""
    for path in sorted(folder.glob("runs_*.npz")):
        chunk = read_chunk(path)
        meta = chunk.pop("meta")
        del meta["code"], meta["dirty"], meta["digest"]
        save_chunk(path, chunk, meta)
    return {path: (path.stat().st_mtime_ns, path.read_bytes()) for path in sorted(folder.glob("runs_*.npz"))}


def test_a_line_stored_before_identities_is_re_checked_once(tmp_path, monkeypatch, capsys):
    """A RUCB line whose chunks record no identity: --plot-only and --stored-only (make all-figures) draw it as stored
    with a note and re-simulate and write nothing; a run that may compute re-simulates its sample once and records the
    identity; the next runs re-simulate nothing and note nothing."""
    line = Line(DATASET, "rucb", 2000, 4)
    folder = line_folder(tmp_path / "r", line)
    assert _run(tmp_path, "rucb") == 0
    stored = _strip_identities(folder)
    capsys.readouterr()
    resimulated = []
    real = runner.resimulated_differences
    monkeypatch.setattr(runner, "resimulated_differences", lambda *args: resimulated.append(args[-1]) or real(*args))
    for flag in ("--plot-only", "--stored-only"):
        assert _run(tmp_path, "rucb", flag) == 0
        assert "note: drawn as stored, their code unchecked (a run that computes them re-checks it): " \
               "mslr5_condorcet/rucb_T2000 (no identity recorded)\n" in capsys.readouterr().err
        assert resimulated == [] and not (folder / code_record.CODE_FILE).exists()
    assert _run(tmp_path, "rucb") == 0
    assert "(no identity recorded): run 0 re-simulated bit for bit" in capsys.readouterr().err
    assert resimulated == [[0]] and (folder / code_record.CODE_FILE).exists() and _chunks(tmp_path, "rucb") == stored
    for flag in ((), ("--stored-only",), ("--plot-only",)):
        assert _run(tmp_path, "rucb", *flag) == 0
    assert resimulated == [[0]] and "note:" not in capsys.readouterr().err


def test_a_line_the_code_no_longer_draws_is_refused_and_nothing_is_written(tmp_path, capsys):
    """A line without identity whose first run's curve the code does not draw (a point mid-curve changed, through the
    store, so that every check of a chunk passes): refused with "no identity recorded" and --force, exit 2, no file
    written."""
    line = Line(DATASET, "rucb", 2000, 4)
    folder = line_folder(tmp_path / "r", line)
    assert _run(tmp_path, "rucb") == 0
    (path,) = _strip_identities(folder)
    chunk = read_chunk(path)
    meta = chunk.pop("meta")
    chunk["regret"][0, 10] += 1.0
    save_chunk(path, chunk, meta)
    before = {item: item.stat().st_mtime_ns for item in (tmp_path / "r").rglob("*")}
    capsys.readouterr()
    assert _run(tmp_path, "rucb") == 2
    error = capsys.readouterr().err
    assert error.startswith("error: the stored runs of rucb on mslr5_condorcet (") and error.count("\n") == 1
    assert "(run 0: regret differs; no identity recorded): recompute them with --force" in error
    assert {item: item.stat().st_mtime_ns for item in (tmp_path / "r").rglob("*")} == before


def test_verify_records_the_code_of_the_lines_it_re_simulated(tmp_path, monkeypatch, capsys):
    """verify.py --record-code writes code.json where every chunk re-simulated bit for bit (the committed results'
    way to a run that re-checks nothing), and not where one differs; a run then re-simulates nothing."""
    lines = [Line(DATASET, name, 2000, 2) for name in ("rucb", "ccb")]
    run_lines(lines, "ver", tmp_path, seed=5, n_jobs=1, progress=False, backend="sequential")
    folders = [line_folder(tmp_path, line, 5) for line in lines]
    for folder in folders:
        _strip_identities(folder)
    (path,) = folders[1].glob("runs_*.npz")
    chunk = read_chunk(path)
    meta = chunk.pop("meta")
    chunk["regret"][1, 10] += 1.0
    save_chunk(path, chunk, meta)
    assert verify([tmp_path], runs_per_chunk=2, record=True) == 1
    assert "recorded the code as it is now in 1 line folder(s) (code.json)" in capsys.readouterr().out
    assert (folders[0] / code_record.CODE_FILE).exists() and not (folders[1] / code_record.CODE_FILE).exists()
    monkeypatch.setattr(runner, "resimulated_differences", lambda *args: pytest.fail("re-simulated"))
    assert run_lines(lines[:1], "ver", tmp_path, seed=5, n_jobs=1, progress=False)[0].meta["unchecked_code"] is None


def test_a_verify_stopped_half_way_keeps_what_it_checked_and_resume_re_simulates_only_the_rest(tmp_path, monkeypatch,
                                                                                              capsys):
    """verify --record-code records each chunk as soon as it re-simulated bit for bit: stopped while re-simulating
    the second chunk of the second line, the first line's code.json names both its chunks and the runs re-simulated,
    the second line's its first chunk; --resume then re-simulates that one chunk only, and after that nothing --
    until more runs a chunk are asked for than were re-simulated, or a chunk's content changes."""
    lines = [Line(DATASET, name, 2000, 2) for name in ("ccb", "rucb")]
    monkeypatch.setattr(limits, "CHUNK_SLOTS", 2000 * 5)  # a chunk a run
    run_lines(lines, "ver", tmp_path, seed=5, n_jobs=1, progress=False, backend="sequential")
    folders = [line_folder(tmp_path, line, 5) for line in lines]
    names = [[path.name for path in sorted(folder.glob("runs_*.npz"))] for folder in folders]
    resimulated, stop = [], [True]
    real = runner.resimulated_differences

    def counting(chunk, *args):
        """The real re-simulation, noting (algorithm, first run) -- or stopping as a signal would, once."""
        if len(resimulated) == 3 and stop:
            stop.clear()
            raise KeyboardInterrupt
        resimulated.append((chunk["meta"]["config"]["algorithm"], chunk["meta"]["config"]["runs"][0]))
        return real(chunk, *args)

    monkeypatch.setattr(resimulate, "resimulated_differences", counting)
    with pytest.raises(KeyboardInterrupt):
        verify([tmp_path], record=True, resume=True)
    assert resimulated == [("ccb", 0), ("ccb", 1), ("rucb", 0)]
    verified = [json.loads((folder / code_record.CODE_FILE).read_text())["accepted"][0]["verified"]
                for folder in folders]
    assert sorted(verified[0]) == names[0] and list(verified[1]) == names[1][:1]
    assert all(runs == 1 for _content, runs in [*verified[0].values(), *verified[1].values()])
    capsys.readouterr()
    assert verify([tmp_path], record=True, resume=True) == 0
    assert resimulated[3:] == [("rucb", 1)]
    assert "4 chunks checked (3 of them re-simulated by an earlier verify with this code)" in capsys.readouterr().out
    assert verify([tmp_path], record=True, resume=True) == 0 and len(resimulated) == 4
    assert verify([tmp_path], runs_per_chunk=2, resume=True) == 0 and len(resimulated) == 8
    path = folders[1] / names[1][0]
    chunk = read_chunk(path)
    meta = chunk.pop("meta")
    save_chunk(path, chunk, {**meta, "note": "rewritten"})
    assert verify([tmp_path], resume=True) == 0 and resimulated[8:] == [("rucb", 0)]


def test_a_dirty_work_tree_is_recorded(tmp_path):
    """git_dirty in a real repository: False when clean, True once a tracked file of a package folder is edited, not
    for an untracked file or an edit outside the package folders, None outside a repository; a chunk records the
    checkout's."""
    def git(*args):
        """Run git in the temporary repository."""
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repository, check=True,
                       capture_output=True)

    repository, plain = tmp_path / "repository", tmp_path / "plain"
    for folder in (repository / "core", repository / "docs", plain):
        folder.mkdir(parents=True)
    (repository / "core" / "kernel.py").write_text("x = 1\n")
    (repository / "docs" / "notes.md").write_text("notes\n")
    git("init", "-q")
    git("add", ".")
    git("commit", "-q", "-m", "first")
    assert git_dirty(repository) is False
    (repository / "core" / "new.py").write_text("y = 2\n")
    (repository / "docs" / "notes.md").write_text("more notes\n")
    assert git_dirty(repository) is False
    (repository / "core" / "kernel.py").write_text("x = 2\n")
    assert git_dirty(repository) is True
    assert git_dirty(repository / "core") is None and git_dirty(plain) is None
    line = Line(DATASET, "rucb", 50, 1)
    run_lines([line], "dirty", tmp_path / "results", seed=5, n_jobs=1, progress=False, backend="sequential")
    (path,) = line_folder(tmp_path / "results", line, 5).glob("runs_*.npz")
    assert read_chunk(path)["meta"]["dirty"] == git_dirty() is not None
