"""Bad input, table-driven, across the command lines (reproduce/run.py, reproduce/verify.py, a figure
script in quick mode, the benchmarks under bench/, the folder checks report.py uses) and the Python API (runner.run_lines, Line,
Policy, matrix loading).  Every case checks the exit status 2 (or the exception type), the one-line
message, and that nothing is left behind (the tree under tmp_path is the same before and after).

The CLI cases run each script in-process, as ``python <script> argv`` would (``tests.scripts.run_script``; a bench
script through the ``main(argv)`` of the module loaded from its path), minus the interpreter start-up;
``test_scripts_as_subprocesses`` runs a few of them as real processes.  Cases that
tests/cli/test_command_line.py, tests/harness/test_runner.py and tests/data/test_data.py already cover
(unknown dataset/algorithm, --horizon 0, bad matrix entries through the API...) are not repeated.
"""

import dataclasses
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dts_reproduction.algorithms import ALGORITHMS, BTM, DTS, ECWRMED, Savage, Sparring, get_algorithm
from dts_reproduction.algorithms.base import MAX_ARMS
from dts_reproduction.data import dataset_from_matrix, load_dataset
from dts_reproduction.reproduce.cli.param_flags import parse_params
from dts_reproduction.reproduce.harness.limits import check_folder_readable, check_output_folder
from dts_reproduction.reproduce.harness.runner import Line, run_lines, run_one
from tests.bench_scripts import bench_script
from tests.scripts import run_script

ROOT = Path(__file__).resolve().parents[2]
RUN = ["--dataset", "mslr5_condorcet", "--algorithms", "dts", "--runs", "2", "--horizon", "1000", "--n-jobs", "1",
       "--no-progress"]
INT64 = "9223372036854775807"
RO_REASON = r"(not writable|cannot be created in \S+) \(permission denied\)"


# The scripts of reproduce/ the cases run (``tests.scripts.run_script``), by path from the root.
RUN_PY, VERIFY, LOWER_BOUNDS = "reproduce/run.py", "reproduce/verify.py", "reproduce/lower_bounds.py"
FIG1, FIG2, TABLE9 = "reproduce/fig1_mslr.py", "reproduce/fig2_regret_std.py", "reproduce/table9_mslr_subsets.py"
C18, LARGE_SCALE = "reproduce/c18_elimination.py", "reproduce/large_scale.py"
FAST_AGREEMENT, BUILD_MATRICES = "reproduce/fast_agreement.py", "reproduce/build_matrices.py"
step_cost, paper_cost, skip_ab = bench_script("step_cost"), bench_script("paper_cost"), bench_script("skip_ab")
policy_step, startup = bench_script("policy_step"), bench_script("startup")

# (id, script, arguments, message regex); {F} a regular file, {RO} a folder nobody may write in, {M:x}
# matrix file x of MATRICES, {T} the test's folder.  run.py cases get RUN + --out {T}/r --figures {T}/f first.
CLI_CASES = [
    ("out-is-file", RUN_PY, ["--out", "{F}"], r"results folder {F}: exists and is not a folder"),
    ("figures-is-file", RUN_PY, ["--figures", "{F}"], r"figures folder {F}: exists and is not a folder"),
    ("out-under-file", RUN_PY, ["--out", "{F}/sub"], r"results folder {F}/sub: cannot be created, {F} is a file, not a folder"),
    ("figures-under-file", RUN_PY, ["--figures", "{F}/a/b"],
     r"figures folder {F}/a/b: cannot be created, {F} is a file, not a folder"),
    ("out-read-only", RUN_PY, ["--out", "{RO}"], r"results folder {RO}: " + RO_REASON),
    ("figures-read-only", RUN_PY, ["--figures", "{RO}"], r"figures folder {RO}: " + RO_REASON),
    ("horizon-decimal", RUN_PY, ["--horizon", "1.5e3"],
     r"--horizon must be an integer \(digits, or a power-of-ten form such as 1e6\), got '1.5e3'"),
    ("horizon-1e30", RUN_PY, ["--horizon", "1e30"], rf"--horizon must be <= {INT64} \(int64\), got 1e30"),
    ("horizon-int64+1", RUN_PY, ["--horizon", "9223372036854775808"],
     rf"--horizon must be <= {INT64} \(int64\), got 9223372036854775808"),
    ("horizon-negative", RUN_PY, ["--horizon=-1e3"], r"--horizon must be >= 1, got -1e3"),
    ("horizon-nan", RUN_PY, ["--horizon", "nan"], r"--horizon must be an integer .*, got 'nan'"),
    ("horizon-empty", RUN_PY, ["--horizon", ""], r"--horizon must be an integer .*, got ''"),
    ("quick-runs-0", RUN_PY, ["--quick", "--runs", "0"], r"--runs must be >= 1, got 0"),
    ("quick-horizon-0", RUN_PY, ["--quick", "--horizon", "0"], r"--horizon must be >= 1, got 0"),
    ("runs-fraction", RUN_PY, ["--runs", "2.5"], r"--runs must be an integer .*, got '2.5'"),
    ("runs-too-many", RUN_PY, ["--runs", "2e6"], r"--runs must be <= 1000000, got 2e6"),
    ("seed-negative", RUN_PY, ["--seed", "-1"], r"--seed must be >= 0, got -1"),
    ("n-jobs-huge", RUN_PY, ["--n-jobs", "1e9"], r"--n-jobs must be <= 1024, got 1e9"),  # loky forked 1e9 workers
    ("n-jobs-0", RUN_PY, ["--n-jobs", "0"], r"--n-jobs must be a positive number of workers or negative .*, got 0"),
    ("delay-0", RUN_PY, ["--delay", "0"], r"--delay must be >= 1, got 0"),
    ("delay-ge-horizon", RUN_PY, ["--delay", "1000"],
     r"--delay must be smaller than --horizon \(no feedback would arrive before the end\), got --delay 1000 "
     r"with --horizon 1000"),
    ("name-empty", RUN_PY, ["--name", ""], r"--name must not be empty"),
    ("name-escapes", RUN_PY, ["--name", "../../x"], r"--name must be a plain file name .*, got '\.\./\.\./x'"),
    ("name-separator", RUN_PY, ["--name", "a/b"], r"--name must be a plain file name .*, got 'a/b'"),
    ("name-of-a-figure", RUN_PY, ["--name", "fig1_mslr"],  # overwrote the paper's Fig. 1 files
     r"--name fig1_mslr is the name of reproduce/fig1_mslr.py's figure, whose files \(and REPORT.md's numbers\) "
     r"it would overwrite: choose another"),
    ("name-dotdot", RUN_PY, ["--name", ".."], r"--name must be a plain file name .*, got '\.\.'"),
    ("backend-multiprocessing", RUN_PY, ["--backend", "multiprocessing"],
     r"argument --backend: invalid choice: 'multiprocessing' \(choose from 'loky', 'dask', 'threading', "
     r"'sequential'\) \(see --help\)"),
    ("dask-without-scheduler", RUN_PY, ["--backend", "dask"], r"--backend dask needs --scheduler ADDRESS or --local-cluster N"),
    ("scheduler-with-threading", RUN_PY, ["--backend", "threading", "--scheduler", "tcp://127.0.0.1:1"],
     r"--scheduler runs on dask, but --backend threading was given"),
    ("local-cluster-0", RUN_PY, ["--local-cluster", "0"], r"--local-cluster must be >= 1, got 0"),
    ("local-cluster-and-scheduler", RUN_PY, ["--local-cluster", "2", "--scheduler", "tcp://127.0.0.1:1"],
     r"give either --scheduler ADDRESS or --local-cluster N, not both"),
    ("param-malformed", RUN_PY, ["--param", "dts.alpha"], r"--param must look like ALGORITHM.NAME=VALUE, got 'dts.alpha'"),
    ("param-unknown", RUN_PY, ["--param", "dts.nope=1"],
     r"unknown parameter 'nope' for algorithm 'dts' \(accepted: alpha, sampling\)"),
    ("unknown-option", RUN_PY, ["--bogus"], r"unrecognized arguments: --bogus \(see --help\)"),
    ("matrix-empty", RUN_PY, ["--dataset", "{M:empty.txt}"], r"{M:empty.txt}: neither a K x K matrix \(0 rows of \[\] numbers\).*"),
    ("matrix-comments-only", RUN_PY, ["--dataset", "{M:comments.csv}"], r"{M:comments.csv}: neither a K x K matrix .*"),
    ("matrix-one-arm", RUN_PY, ["--dataset", "{M:one.txt}"], r"preference matrix needs K >= 2 arms: shape \(1, 1\)"),
    ("matrix-nan", RUN_PY, ["--dataset", "{M:nan.txt}"], r"p\[0,1\] = nan is not finite"),
    ("matrix-is-folder", RUN_PY, ["--dataset", "{M:folder.txt}"], r"no such matrix file: {M:folder.txt}"),
    ("matrix-binary", RUN_PY, ["--dataset", "{M:binary.txt}"], r"{M:binary.txt}: not a text matrix file \(byte 0 is not UTF-8\)"),
    ("param-alpha-text", RUN_PY, ["--param", "dts.alpha=abc"], r"alpha must be a finite number > 0, got 'abc'"),
    ("verify-missing-folder", VERIFY, ["{T}/missing"], r"no results folder '{T}/missing'"),
    ("verify-file", VERIFY, ["{F}"], r"no results folder '{F}'"),
    ("verify-runs-per-chunk-0", VERIFY, ["{T}", "--runs-per-chunk", "0"], r"--runs-per-chunk must be >= 1, got 0"),
    ("verify-max-horizon-decimal", VERIFY, ["{T}", "--max-horizon", "1.5e3"],
     r"--max-horizon must be an integer .*, got '1.5e3'"),
    ("verify-unknown-algorithm", VERIFY, ["{T}", "--algorithms", "nope"], r"unknown algorithm 'nope'.*"),
    # --algorithms took the folder after it as an algorithm, then said the folders were missing.
    ("verify-folder-after-algorithms", VERIFY, ["--algorithms", "rucb", "{T}"],
     r"--algorithms: '{T}' is a folder, not an algorithm \(give the results folders before --algorithms\)"),
    ("verify-no-folder", VERIFY, ["--algorithms", "rucb"], r"no results folder given"),
    # Contradictory flags were taken: --force then recomputed nothing, or --stored-only refused nothing.
    ("plot-only-force", RUN_PY, ["--plot-only", "--force"],
     r"--force recomputes every run, --plot-only computes none: give one of them"),
    ("stored-only-force", RUN_PY, ["--stored-only", "--force"],
     r"--force recomputes every run, --stored-only computes none: give one of them"),
    # large_scale.py drew empty figures and exited 0.
    ("large-scale-plot-only-nothing-stored", LARGE_SCALE, ["--plot-only"],
     r"--plot-only: no stored results of large_scale under {T}/r \(run it without --plot-only first\)"),
    ("fig1-quick-runs-0", FIG1, ["--quick", "--runs", "0"], r"--runs must be >= 1, got 0"),
    ("fig1-quick-horizon-decimal", FIG1, ["--quick", "--horizon", "1.5e3"], r"--horizon must be an integer .*"),
    ("fig1-quick-figures-file", FIG1, ["--quick", "--figures", "{F}"],
     r"figures folder {F}/quick: cannot be created, {F} is a file, not a folder"),
    ("fig1-quick-out-read-only", FIG1, ["--quick", "--out", "{RO}"], r"results folder {RO}/quick: .*"),
    ("fig1-quick-seed-huge", FIG1, ["--quick", "--seed", "1e30"], rf"--seed must be <= {INT64} \(int64\), got 1e30"),
    ("fig1-quick-local-cluster-text", FIG1, ["--quick", "--local-cluster", "two"],
     r"--local-cluster must be an integer .*, got 'two'"),
    ("c18-plot-only-nothing-stored", C18, ["--quick", "--plot-only"],
     r"--plot-only: no C18 runs are stored under {T}/r/quick/c18_elimination; run reproduce/c18_elimination.py "
     r"without --plot-only to compute them"),
    # Fig. 2 rewrote its committed lines table (every line "missing") and printed ~70 notes before this line.
    ("fig2-runs-not-stored", FIG2, ["--runs", "3"],
     r"Fig. 2 is computed from Fig. 1's stored runs, and 64 of its lines are not stored \(first: btm on "
     r"mslr5_condorcet at T = 10 \({T}/r/mslr5_condorcet/btm_T10/runs_00000-00003.npz\)\): run "
     r"reproduce/fig1_mslr.py with the same flags first"),
    ("fig2-empty-out", FIG2, ["--out", ""], r"Fig. 2 is computed from Fig. 1's stored runs, and 64 .*"),
    # Flags that do nothing for a script are not offered.
    ("fig2-force", FIG2, ["--force"], r"unrecognized arguments: --force \(see --help\)"),
    ("fig2-plot-only", FIG2, ["--plot-only"], r"unrecognized arguments: --plot-only \(see --help\)"),
    ("fig2-backend", FIG2, ["--backend", "loky"], r"unrecognized arguments: --backend loky \(see --help\)"),
    ("table9-runs", TABLE9, ["--runs", "3"], r"unrecognized arguments: --runs 3 \(see --help\)"),
    ("c18-fast", C18, ["--fast"], r"unrecognized arguments: --fast \(see --help\)"),
    ("fig1-quick-dask", FIG1, ["--quick", "--backend", "dask"], r"--backend dask needs --scheduler ADDRESS.*"),
    ("algorithms-twice", RUN_PY, ["--algorithms", "dts", "rucb", "dts"], r"--algorithms names 'dts' twice"),
    ("algorithms-unknown-preset", RUN_PY, ["--algorithms", "merge_dts:fast"],
     r"unknown preset 'fast' for algorithm 'merge_dts' \(known: best\)"),
    ("algorithms-preset-of-unknown", RUN_PY, ["--algorithms", "nope:best"], r"unknown algorithm 'nope' \(known: .*\)"),
    ("param-bool-text", RUN_PY, ["--algorithms", "btm", "--param", "btm.faithful_bug=false"],
     r"faithful_bug must be True or False, got 'false'"),
    ("param-twice", RUN_PY, ["--param", "dts.alpha=0.5", "--param", "dts.alpha=0.6"], r"--param dts.alpha is given twice"),
    ("fast-agreement-missing-results", FAST_AGREEMENT, ["--results", "{T}/missing"],
     r"results folder {T}/missing: does not exist"),
    ("fast-agreement-no-fast-folder", FAST_AGREEMENT, ["--results", "{T}"], r"fast results folder {T}/fast: does not exist"),
    ("fast-agreement-unknown-option", FAST_AGREEMENT, ["--bogus"], r"unrecognized arguments: --bogus \(see --help\)"),
    ("verify-algorithms-empty", VERIFY, ["{T}", "--algorithms"],
     r"argument --algorithms: expected at least one argument \(see --help\)"),
    ("lower-bounds-unknown-dataset", LOWER_BOUNDS, ["nope"], r"unknown dataset 'nope'; available: .*"),
    ("lower-bounds-out-is-file", LOWER_BOUNDS, ["gap", "--out", "{F}"], r"results folder {F}: exists and is not a folder"),
    ("bench-unknown-algorithm", step_cost, ["--algorithms", "nope"], r"unknown algorithm 'nope' \(known: .*\)"),
    ("bench-warmup-negative", step_cost, ["--warmup", "-5"], r"--warmup must be >= 1, got -5"),
    ("bench-steps-0", step_cost, ["--steps", "0"], r"--steps must be >= 1, got 0"),
    ("bench-paths", step_cost, ["--paths", "bogus"],
     r"argument --paths: invalid choice: 'bogus' \(choose from 'reference', 'fast'\) .*"),
    ("bench-K", step_cost, ["--K", "7"], r"argument --K: invalid choice: 7 .*"),
    ("bench-csv-folder", step_cost, ["--csv", "{T}"], r"--csv {T}: is a folder, not a file"),
    ("bench-csv-under-file", step_cost, ["--csv", "{F}/x.csv"], r"--csv folder {F}: exists and is not a folder"),
    ("bench-whole-slots-0", step_cost, ["--whole", "--whole-slots", "0"], r"--whole-slots must be >= 1, got 0"),
    ("bench-whole-slots-alone", step_cost, ["--whole-slots", "10"], r"--whole-slots 10 needs --whole"),
    ("bench-merge-no-csv", step_cost, ["--merge"], r"--merge needs --csv naming an existing file, got None"),
    ("bench-merge-no-file", step_cost, ["--merge", "--csv", "{T}/none.csv"],
     r"--merge needs --csv naming an existing file, got {T}/none.csv"),
    ("bench-paper-probe-decimal", paper_cost, ["--probe-slots", "1.5e3"], r"--probe-slots must be an integer .*"),
    ("bench-paper-figure", paper_cost, ["--figures", "fig9"], r"argument --figures: invalid choice: 'fig9' .*"),
    # skip_ab printed tracebacks for these and timed negative step counts.
    ("skip-ab-unknown-algorithm", skip_ab, ["--algorithms", "nope"], r"unknown algorithm 'nope' \(known: .*\)"),
    ("skip-ab-no-skip-option", skip_ab, ["--algorithms", "dts"],
     r"--algorithms: 'dts' has no skip option \(those with one: "
     + ", ".join(sorted(name for name, spec in ALGORITHMS.items() if "skip" in spec.defaults)) + r"\)"),
    ("skip-ab-unknown-dataset", skip_ab, ["--datasets", "nope"], r"unknown dataset 'nope'; available: .*"),
    ("skip-ab-steps-negative", skip_ab, ["--steps", "-5"], r"--steps must be >= 1, got -5"),
    ("skip-ab-whole-0", skip_ab, ["--whole", "0"], r"--whole must be >= 1, got 0"),
    ("skip-ab-rounds-decimal", skip_ab, ["--rounds", "1.5"], r"--rounds must be an integer .*"),
    ("policy-step-unknown-algorithm", policy_step, ["--algorithms", "nope"], r"--algorithms: unknown algorithm 'nope'"),
    ("policy-step-needs-problem", policy_step, ["--algorithms", "btm"],
     r"--algorithms: 'btm' needs the horizon or settings derived from the true matrix; not timed here"),
    ("policy-step-K", policy_step, ["--K", "7"], r"--K 7: the bench has datasets for K = 5, 16, 32, 136, 500, 2000 only"),
    ("policy-step-steps-0", policy_step, ["--steps", "0"], r"--steps must be >= 1, got 0"),
    ("startup-csv-folder", startup, ["--csv", "{T}"], r"--csv {T}: is a folder, not a file"),
    ("startup-csv-no-folder", startup, ["--csv", "{T}/none/x.csv"], r"--csv {T}/none/x.csv: no such folder {T}/none"),
    # build_matrices printed a usage block, or a traceback after creating the --out folder.
    ("build-matrices-no-sources", BUILD_MATRICES, ["--sources", "{T}/none"], r"--sources folder {T}/none: does not exist"),
    ("build-matrices-out-is-file", BUILD_MATRICES, ["--out", "{F}"], r"--out folder {F}: exists and is not a folder"),
    ("build-matrices-out-read-only", BUILD_MATRICES, ["--out", "{RO}/m"], r"--out folder {RO}/m: " + RO_REASON),
    ("build-matrices-empty-out", BUILD_MATRICES, ["--out", "{T}/new"],
     r"{T}/new/mslr136_informational.txt: no such file \(4 input files missing; without --sources .*\)"),
    ("build-matrices-empty-sources", BUILD_MATRICES, ["--sources", "{T}", "--out", "{T}/new"],
     r"{T}/MSLR_Informational_PMat_136x136.txt: no such file \(8 input files missing; the source files, .*\)"),
]

MATRICES = {"empty.txt": "", "comments.csv": "# source: nothing\n# labels: a b\n", "one.txt": "0.5\n",
            "nan.txt": "0.5 nan\nnan 0.5\n"}


@pytest.fixture
def env(tmp_path):
    """The files the cases refer to, and a function that fills the {F} / {RO} / {T} / {M:x} fields of a case."""
    (tmp_path / "F").write_text("a file in the way\n")
    if os.geteuid() == 0:  # root writes in any folder whatever its mode; /sys refuses new files even to root
        ro = Path("/sys/dts_robust_readonly")
        if not Path("/sys").is_dir() or os.access("/sys", os.W_OK) and _can_create(Path("/sys")):
            pytest.skip("no folder refuses writes here")
    else:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o555)
    mats = tmp_path / "matrices"
    mats.mkdir()
    for name, text in MATRICES.items():
        (mats / name).write_text(text)
    (mats / "folder.txt").mkdir()
    (mats / "binary.txt").write_bytes(b"\xff\xfe\x00binary")
    values = {"{F}": str(tmp_path / "F"), "{RO}": str(ro), "{T}": str(tmp_path)}
    values.update({f"{{M:{name}}}": str(mats / name) for name in (*MATRICES, "folder.txt", "binary.txt")})

    def fill(text, escape=False):
        for key, value in values.items():
            text = text.replace(key, re.escape(value) if escape else value)
        return text

    yield tmp_path, fill
    if ro.parent == tmp_path:
        ro.chmod(0o755)


def _can_create(folder: Path) -> bool:
    try:
        (folder / ".dts_robust_probe").touch()
    except OSError:
        return False
    (folder / ".dts_robust_probe").unlink()
    return True


def tree(folder: Path) -> dict:
    """Every path under ``folder`` with its size (folders: -1)."""
    return {str(p): (p.stat().st_size if p.is_file() else -1) for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("case", CLI_CASES, ids=[case[0] for case in CLI_CASES])
def test_cli_bad_input(case, env, capsys):
    _, script, arguments, message = case
    tmp_path, fill = env
    argv = [fill(a) for a in arguments]
    if script == RUN_PY:
        argv = [*RUN, "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f"), *argv]
    elif script in (FIG1, C18, LARGE_SCALE):
        argv = ["--no-progress", "--n-jobs", "1", "--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f"), *argv]
    elif script == FIG2:
        argv = ["--out", str(tmp_path / "r"), "--figures", str(tmp_path / "f"), *argv]
    elif script == TABLE9:
        argv = ["--figures", str(tmp_path / "f"), *argv]
    before = tree(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        if isinstance(script, str):
            run_script(script, argv)
        else:  # a bench script, loaded by its path
            script.main(argv)
    out, err = capsys.readouterr()
    assert exit_.value.code == 2, err
    assert re.fullmatch("error: " + fill(message, escape=True), err.strip()), err
    assert len(err.strip().splitlines()) == 1 and out == ""
    assert tree(tmp_path) == before  # no result, figure or temporary file left behind


def test_run_param_true_false_are_booleans():
    """--param btm.faithful_bug=False, a documented option, was kept as the text 'False' and refused."""
    params = parse_params(["btm.faithful_bug=False", "dts.alpha=1", "dts.sampling=fast"], ["btm", "dts"])
    assert params == {"btm": {"faithful_bug": False}, "dts": {"alpha": 1, "sampling": "fast"}}
    get_algorithm("btm").make_state(3, 10, params["btm"])


def test_report_folder_helpers(tmp_path):
    """The helpers report.py calls before reading or writing a figures folder."""
    (tmp_path / "F").write_text("x")
    cases = [
        (lambda: check_folder_readable("/nonexistent/figures", "figures folder"),
         "figures folder /nonexistent/figures: does not exist"),
        (lambda: check_folder_readable(tmp_path / "F", "figures folder"), f"figures folder {tmp_path / 'F'}: is not a folder"),
        (lambda: check_output_folder(tmp_path / "F", "report folder"), f"report folder {tmp_path / 'F'}: exists and is not a folder"),
        (lambda: check_output_folder(tmp_path / "F" / "x", "report folder", create=True),
         f"report folder {tmp_path / 'F' / 'x'}: cannot be created, {tmp_path / 'F'} is a file, not a folder"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError) as err:
            call()
        assert str(err.value) == message
    assert [p.name for p in tmp_path.iterdir()] == ["F"]
    assert check_output_folder(tmp_path / "new" / "figs", create=True).is_dir()
    assert check_folder_readable(tmp_path) == tmp_path


GOOD = Line(dataset="gap", algorithm="dts", horizon=10, runs=1)


def _run_one(**bad):
    """``run_one`` of D-TS on Gap, T = 100, with the arguments ``bad`` changed."""
    arguments = {"horizon": 100, "run": 0, "seed": 1, **bad}
    return run_one(load_dataset("gap"), get_algorithm("dts"), {}, **arguments)


def _out_of_memory_spec():
    """D-TS whose init runs out of memory (as a K too large for this machine does)."""
    def init(*args, **kwargs):
        raise MemoryError

    return dataclasses.replace(get_algorithm("dts"), init=init)


def _policy_after_select():
    policy = DTS(3, seed=1)
    return policy, policy.select()


API_CASES = [
    ("run_lines-out-is-file", lambda t: run_lines([GOOD], "x", t / "F", seed=0, n_jobs=1, progress=False),
     ValueError, "results folder {T}/F: exists and is not a folder"),
    ("run_lines-backend", lambda t: run_lines([GOOD], "x", t / "r", seed=0, progress=False, backend="multiprocessing"),
     ValueError, "backend must be one of loky, dask, threading, sequential, got 'multiprocessing'"),
    ("run_lines-dask-without-client", lambda t: run_lines([GOOD], "x", t / "r", seed=0, progress=False, backend="dask"),
     ValueError, "backend 'dask' needs a running dask.distributed Client (see reproduce.harness.backends.backend_context)"),
    ("run_lines-seed", lambda t: run_lines([GOOD], "x", t / "r", seed=-1, progress=False),
     ValueError, "seed must be a non-negative integer (int64), got -1"),
    ("run_lines-n-jobs", lambda t: run_lines([GOOD], "x", t / "r", seed=0, n_jobs=0, progress=False),
     ValueError, "n_jobs must be a non-zero integer (-1: all cores), got 0"),
    ("line-float-horizon", lambda t: run_lines([Line("gap", "dts", horizon=1000.0, runs=1)], "x", t / "r", seed=0),
     ValueError, "horizon must be an integer >= 1, got 1000.0"),
    ("line-horizon-beyond-int64", lambda t: run_lines([Line("gap", "dts", horizon=2**63, runs=1)], "x", t / "r", seed=0),
     ValueError, f"horizon must be at most {INT64} (int64), got {2**63}"),
    ("line-bool-runs", lambda t: run_lines([Line("gap", "dts", horizon=10, runs=True)], "x", t / "r", seed=0),
     ValueError, "runs must be an integer >= 1, got True"),
    ("line-delay-ge-horizon", lambda t: run_lines([Line("gap", "dts", horizon=10, runs=1, delay=10)], "x", t / "r", seed=0),
     ValueError, "delay must be smaller than horizon (no feedback would arrive before the end), got delay 10 with horizon 10"),
    ("line-params-numpy-float32",
     lambda t: run_lines([Line("gap", "dts", horizon=10, runs=1, params=(("alpha", np.float32(0.6)),))], "x", t / "r",
                         seed=0),
     ValueError, r"parameter 'alpha' of 'dts' must be a str, bool, int, float or None \(it is stored as JSON\), got "
                 r"np.float32\(0.6\) of type float32"),
    ("line-params-not-pairs", lambda t: run_lines([Line("gap", "dts", horizon=10, runs=1, params="alpha")], "x",
                                                  t / "r", seed=0),
     ValueError, r"parameters of algorithm 'dts' must be a mapping or \(name, value\) pairs, got 'alpha'"),
    ("line-shuffle-text", lambda t: run_lines([Line("gap", "dts", horizon=10, runs=1, shuffle="no")], "x", t / "r",
                                              seed=0),
     ValueError, "shuffle must be True or False, got 'no'"),
    ("line-runs-too-many", lambda t: run_lines([Line("gap", "dts", horizon=10, runs=10**7)], "x", t / "r", seed=0),
     ValueError, "runs must be at most 1000000, got 10000000"),
    ("run_lines-n-jobs-huge", lambda t: run_lines([GOOD], "x", t / "r", seed=0, n_jobs=10**9, progress=False),
     ValueError, "n_jobs must be at most 1024 worker processes, got 1000000000"),
    ("policy-update-text", lambda t: (lambda p, pair: p.update(*pair, "no"))(*_policy_after_select()),
     ValueError, "update(): a1_won must be a bool (or 0/1), got 'no'"),
    ("policy-update-2", lambda t: (lambda p, pair: p.update(*pair, 2))(*_policy_after_select()),
     ValueError, "update(): a1_won must be a bool (or 0/1), got 2"),
    ("ecw_rmed-beta-text", lambda t: ECWRMED(3, beta="abc"), ValueError, "beta must be a finite number > 0, got 'abc'"),
    ("btm-gamma-none", lambda t: BTM(3, horizon=10, gamma=None), ValueError,
     "gamma must be a finite number > 0, got None"),
    ("sparring-scale-list", lambda t: Sparring(3, scale=[3]), ValueError, "scale must be a finite number > 0, got [3]"),
    ("dts-alpha-bool", lambda t: DTS(3, alpha=True), ValueError, "alpha must be a finite number > 0, got True"),
    # A number given as text was kept as text (alpha='0.6' ran, stored and keyed as the string).
    ("dts-alpha-numeric-text", lambda t: DTS(3, alpha="0.6"), ValueError, "alpha must be a finite number > 0, got '0.6'"),
    ("run_one-alpha-numeric-text", lambda t: run_one(load_dataset("gap"), get_algorithm("dts"), {"alpha": "0.6"}, 10, 0,
                                                     1), ValueError, "alpha must be a finite number > 0, got '0.6'"),
    ("merge-c-numeric-text", lambda t: get_algorithm("merge_dts").make_state(3, 10, {"C": "100"}), ValueError,
     "C must be None (its formula) or a finite number >= 0, got '100'"),
    ("policy-savage-auto", lambda t: Savage(3, horizon=100), ValueError,  # said only "resolve_savage_variant(...)"
     "SAVAGE variant 'auto' needs the true matrix: give variant='condorcet' or 'copeland' (the simulator resolves it "
     "with resolve_savage_variant)"),
    ("policy-seed-float", lambda t: DTS(3, seed=1.5), ValueError,
     "seed must be None, a non-negative integer, a SeedSequence or a Generator, got 1.5"),
    ("policy-seed-negative", lambda t: DTS(3, seed=-1), ValueError,
     "seed must be None, a non-negative integer, a SeedSequence or a Generator, got -1"),
    ("policy-horizon-unused-but-0", lambda t: DTS(3, horizon=0), ValueError, "the horizon T must be an integer >= 1, got 0"),
    ("policy-K-beyond-int64", lambda t: DTS(MAX_ARMS + 1), ValueError,
     f"the number of arms K = {MAX_ARMS + 1} is too large: its K x K statistics do not fit in memory"),
    ("policy-K-beyond-physical-memory", lambda t: DTS(1_000_000), ValueError,  # sized from K = 1024, not allocated
     r"the number of arms K = 1000000 is too large: the state of 'dts' needs about \d+ GiB, more than this "
     r"machine's \d+ GiB of memory"),
    ("policy-K-out-of-memory", lambda t: _out_of_memory_spec().make_state(3), ValueError,
     "the number of arms K = 3 is too large: the state of 'dts' does not fit in memory"),
    ("policy-params-not-pairs", lambda t: get_algorithm("dts").resolve_params("alpha"), ValueError,
     "parameters of algorithm 'dts' must be a mapping or (name, value) pairs, got 'alpha'"),
    ("policy-update-fractional-arm", lambda t: (lambda p, pair: p.update(pair[0] + 0.5, pair[1], True))(
        *_policy_after_select()), ValueError, r"update\(\): a1 must be an integer arm index, got \d\.5"),
    ("policy-update-text-arm", lambda t: (lambda p, pair: p.update(pair[0], "x", True))(*_policy_after_select()),
     ValueError, "update(): a2 must be an integer arm index, got 'x'"),
    ("run_one-horizon-0", lambda t: _run_one(horizon=0), ValueError, "the horizon T must be an integer >= 1, got 0"),
    ("run_one-horizon-fraction", lambda t: _run_one(horizon=100.5), ValueError,
     "the horizon T must be an integer >= 1, got 100.5"),
    ("run_one-run-negative", lambda t: _run_one(run=-1), ValueError, "run must be a non-negative integer, got -1"),
    ("run_one-seed-none", lambda t: _run_one(seed=None), ValueError,
     "seed must be a non-negative integer (int64), got None"),
    ("run_one-shuffle-text", lambda t: _run_one(shuffle="no"), ValueError, "shuffle must be True or False, got 'no'"),
    ("run_one-checkpoints-short", lambda t: _run_one(checkpoints=[1, 10, 50]), ValueError,
     "checkpoints must end at the horizon 100, got last checkpoint 50"),
    ("run_one-dataset-name", lambda t: run_one("gap", get_algorithm("dts"), {}, 100, 0, 1), ValueError,
     r"dataset must be a data.Dataset \(load_dataset\(name\) or dataset_from_matrix\(P, name\)\), got a str"),
    ("run_one-spec-name", lambda t: run_one(load_dataset("gap"), "dts", {}, 100, 0, 1), ValueError,
     r"spec must be an AlgorithmSpec \(get_algorithm\(name\)\), got a str"),
    ("matrix-ragged", lambda t: dataset_from_matrix([[0.5, 0.5], [0.5]], "ragged"),
     ValueError, "preference matrix is not numeric: .*"),
    ("dataset-not-a-name", lambda t: load_dataset(123), ValueError, "dataset must be a name or a path, got 123"),
    ("matrix-labels-string", lambda t: dataset_from_matrix([[0.5, 0.4], [0.6, 0.5]], "two", labels="ab"), ValueError,
     "dataset 'two': labels must be a sequence of K names, got the string 'ab'"),  # was read as ('a', 'b')
    ("line-dataset-object", lambda t: run_lines([Line(load_dataset("gap"), "dts", horizon=10, runs=1)], "x", t / "r",
                                                seed=0),
     ValueError, r"dataset must be a name or a path, got the Dataset 'gap' itself \(run_one takes a Dataset; a Line "
                 r"needs a name or a matrix file\)"),  # the Dataset's repr, matrix and all, over several lines before
]


@pytest.mark.parametrize("case", API_CASES, ids=[case[0] for case in API_CASES])
def test_api_bad_input(case, tmp_path):
    _, call, error, message = case
    (tmp_path / "F").write_text("x")
    before = tree(tmp_path)
    with pytest.raises(error) as err:
        call(tmp_path)
    expected = message.replace("{T}", str(tmp_path))
    assert str(err.value) == expected or re.fullmatch(expected, str(err.value)), str(err.value)
    assert tree(tmp_path) == before


@pytest.mark.process
def test_scripts_as_subprocesses(tmp_path):
    """The real scripts: exit status 2, one error line, no traceback, nothing written."""
    (tmp_path / "F").write_text("x")
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    cases = [
        (["reproduce/run.py", *RUN, "--out", str(tmp_path / "F"), "--figures", str(tmp_path / "f")],
         f"error: results folder {tmp_path / 'F'}: exists and is not a folder"),
        (["reproduce/run.py", *RUN, "--horizon", "1e6", "--delay", "2e6", "--out", str(tmp_path / "r")],
         "error: --delay must be smaller than --horizon (no feedback would arrive before the end), "
         "got --delay 2000000 with --horizon 1000000"),
        (["reproduce/fig1_mslr.py", "--quick", "--runs", "0", "--out", str(tmp_path / "r"), "--figures",
          str(tmp_path / "f")], "error: --runs must be >= 1, got 0"),
        (["reproduce/verify.py", str(tmp_path), "--runs-per-chunk", "x"],
         "error: --runs-per-chunk must be an integer (digits, or a power-of-ten form such as 1e6), got 'x'"),
        (["bench/skip_ab.py", "--steps", "-5"], "error: --steps must be >= 1, got -5"),  # imports step_cost beside it
        (["reproduce/build_matrices.py", "--out", str(tmp_path / "F")],
         f"error: --out folder {tmp_path / 'F'}: exists and is not a folder"),
    ]
    for argv, message in cases:
        proc = subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
        assert proc.returncode == 2 and proc.stderr.strip() == message, (argv, proc.stderr)
    assert [p.name for p in tmp_path.iterdir()] == ["F"]


STATS_K3 = np.full((3, 3), 100.0), np.full((3, 3), 50.0)
OFF_DIAGONAL = ~np.eye(3, dtype=bool)
STATISTICS_CASES = [
    ("scalar", (100.0, 50.0), r"n must be a 3 x 3 array, got shape \(\)"),
    ("row", (np.full(3, 100.0), np.full(3, 50.0)), r"n must be a 3 x 3 array, got shape \(3,\)"),
    ("w-too-large", (STATS_K3[0], np.full((4, 4), 50.0)), r"w must be a 3 x 3 array, got shape \(4, 4\)"),
    ("text", ([["a"] * 3] * 3, STATS_K3[1]), r"n must be a 3 x 3 array of numbers \(could not convert .*\)"),
    ("negative-n", (np.where(OFF_DIAGONAL, -100.0, 100.0), STATS_K3[1]), r"n\[0,1\] = -100.0 must be finite and >= 0"),
    ("negative-w", (STATS_K3[0], np.where(OFF_DIAGONAL, -0.5, 50.0)), r"w\[0,1\] = -0.5 must be finite and >= 0"),
    ("nan-w", (STATS_K3[0], np.where(OFF_DIAGONAL, np.nan, 50.0)), r"w\[0,1\] = nan must be finite and >= 0"),
    ("inf-n", (np.where(OFF_DIAGONAL, np.inf, 100.0), STATS_K3[1]), r"n\[0,1\] = inf must be finite and >= 0"),
    ("zero-n", (np.zeros((3, 3)), np.zeros((3, 3))),
     r"n\[0,1\] = 0.0: a pair needs comparisons > 0 \(an unseen pair has the pseudo-count 1e-06\)"),
    ("asymmetric-n", (np.array([[0, 10, 10], [20, 0, 10], [10, 10, 0.0]]), np.full((3, 3), 5.0)),
     r"n must be symmetric \(comparisons of unordered pairs\), got n\[0,1\] = 10.0 != n\[1,0\] = 20.0"),
    ("wins-above-comparisons", (STATS_K3[0], np.full((3, 3), 60.0)),
     r"the wins of pair \(0,1\) exceed its comparisons: w\[0,1\] \+ w\[1,0\] = 120.0 > n\[0,1\] = 100.0"),
]


@pytest.mark.parametrize("name", [name for name, spec in ALGORITHMS.items() if spec.sync is not None])
@pytest.mark.parametrize("case", STATISTICS_CASES, ids=[case[0] for case in STATISTICS_CASES])
def test_set_statistics_refuses_impossible_statistics(case, name):
    """A warm start with statistics no run can have (a scalar or a row was broadcast, NaN or negative counts
    and wins above the comparisons were taken, n = 0 divided by zero in the kernels) is one ValueError,
    and the state is left as it was (w of the wrong shape used to fail after n was written)."""
    _, (n, w), message = case
    spec = get_algorithm(name)
    state = spec.make_state(3)
    before = state.comparisons.copy(), state.wins.copy()
    with pytest.raises(ValueError) as err:
        spec.set_statistics(state, n, w)
    assert re.fullmatch("set_statistics: " + message, str(err.value)), str(err.value)
    assert np.array_equal(state.comparisons, before[0]) and np.array_equal(state.wins, before[1])


def test_set_statistics_accepts_pseudo_counts_either_way():
    """The statistics a run holds, counts without pseudo-counts, and n - w (reversed estimates, pseudo-counts
    and all: wins of -9e-6) are all accepted."""
    spec = get_algorithm("dts")
    state = spec.make_state(3)
    fresh = state.comparisons.copy(), state.wins.copy()
    spec.set_statistics(state, *fresh)
    spec.set_statistics(state, *STATS_K3)
    spec.set_statistics(state, fresh[0], fresh[0] - fresh[1])
    assert np.array_equal(state.wins, fresh[0] - fresh[1])


def _tree(folder: Path) -> dict:
    """Every path under ``folder`` with its kind and, for a file, its bytes."""
    return {str(path): path.read_bytes() if path.is_file() else "folder" for path in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("in_the_way, message", [
    ("r/mslr5_condorcet", "results folder {t}/r/mslr5_condorcet/dts_T100: cannot be created, {t}/r/mslr5_condorcet "
                          "is a file, not a folder"),  # was "Not a directory", exit 1
    ("r/mslr5_condorcet/dts_T100", "results folder {t}/r/mslr5_condorcet/dts_T100: cannot be created, "
                                   "{t}/r/mslr5_condorcet/dts_T100 is a file, not a folder"),  # was "File exists"
    ("f/custom.png/", "figure file {t}/f/custom.png: is a folder, in the way of the file"),  # was "Is a directory"
])
def test_an_output_path_in_the_way_is_bad_input(tmp_path, capsys, in_the_way, message):
    """A file where a results folder goes, or a folder where a figure file goes: one line, exit status 2, before
    anything is computed, nothing changed."""
    (tmp_path / "f").mkdir()
    (tmp_path / "r").mkdir()
    blocker = tmp_path / in_the_way
    blocker.parent.mkdir(parents=True, exist_ok=True)
    if in_the_way.endswith("/"):
        blocker.mkdir()
    else:
        blocker.write_text("mine")
    before = _tree(tmp_path)
    with pytest.raises(SystemExit) as done:
        run_script(RUN_PY, ["--dataset", "mslr5_condorcet", "--algorithms", "dts", "--runs", "2", "--horizon", "100",
                            "--n-jobs", "1", "--no-progress", "--out", str(tmp_path / "r"), "--figures",
                            str(tmp_path / "f")])
    assert done.value.code == 2
    assert capsys.readouterr().err == f"error: {message.format(t=tmp_path)}\n"
    assert _tree(tmp_path) == before
