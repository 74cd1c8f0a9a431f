"""Reference regrets from the authors' own C++ simulator (HuasenWu/DuelingBandits), as committed data.

Given a local clone of the authors' repository, the script compiles their sources with g++ in a build
folder outside this repository, links them with this project's driver ``bench/authors_driver.cpp`` (their
main() reads a hard-coded Windows path and only writes averages; the driver calls their own single-run
loop ``CMAB_singleAlg::singleRun`` once per run), runs the cells of ``PLAN`` and writes, per cell,
``bench/authors_reference/<matrix>/<algorithm>_T<horizon>.csv``: one row per run (run index, srand seed,
the Copeland regret R(t) at t = 10, 30, 100, ..., T) -- and ``bench/authors_reference/PROVENANCE.json``
(their commit, compiler and version, flags, the edits below, and the CPU seconds of every cell).  A cell
whose CSV exists is not run again, so an interrupted run resumes; ``--only MATRIX`` runs one matrix.

Edits to the authors' code, all made at build time (no source file of theirs is changed):

* Windows-only headers: ``stdafx.h`` includes ``<tchar.h>`` and ``targetver.h`` includes
  ``<SDKDDKVer.h>``; both are empty files in the build folder's include path.
* Headers MSVC includes transitively: ``-include climits -include cfloat`` (INT_MIN, INT_MAX, DBL_MAX).
* Their two mains (``DuelingBandit.cpp``, ``DuelingBandit_singleAlg.cpp``) and the empty ``stdafx.cpp``
  are not compiled; ``bench/authors_driver.cpp`` is the main.  The other 17 files of their Visual Studio
  project are compiled as they are (``-O2 -std=c++11``).

Protocol (the driver's comment has the details): run r of a cell calls ``srand(seed + r)`` with
``seed = crc32("<matrix>/<algorithm>/T<horizon>") mod 2^30`` (``/reused`` appended for a reused cell),
shuffles the arm order with ``random_shuffle`` as their main does, builds a fresh ``CMAB_singleAlg`` (a
``_reused`` cell: one object for all runs, as their main does) and runs ``singleRun`` with their
main's parameters (BTM gamma 1.3, RUCB/CCB alpha 0.51, SBM alpha 3, RMED2 alpha 3, ECW-RMED alpha 3 and
beta 0.01).  The matrices are the project's (``data.load_dataset``; every pair sums to 1 exactly, which
their single-algorithm loop requires).  Compiled with glibc, ``rand()`` has 31 bits (MSVC's has 15; the
project does not reproduce that quantisation either).  D-TS, D-TS+ and RCS draw their Thompson samples
from ``std::random_device`` (a fresh ``mt19937`` per sample), so their rows are not reproducible bit for
bit, only in law; the others are pure functions of (matrix, algorithm, horizon, run).  BTM and SAVAGE use
the horizon, so they run at their own horizon (as the authors' ETE runs do).

The cells, horizons and run counts and why they have power: ``PLAN`` below and docs/fidelity.md.  The MergeDTS
authors' Python (MergeDTS, MergeRUCB, Self-Sparring) has its own driver, ``bench/authors_python.py``.

Usage: python bench/authors_code.py --cpp PATH [--build DIR] [--only MATRIX]
"""

import json
import resource
import subprocess
import tempfile
import zlib
from pathlib import Path

import numpy as np
import pandas as pd

from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, main_guard
from dts_reproduction.reproduce.output.tables import write_table
from dts_reproduction.reproduce.studies.authors_agreement import CPP_ALGORITHMS, REFERENCE

ROOT = Path(__file__).resolve().parent.parent
DRIVER = ROOT / "bench" / "authors_driver.cpp"
SOURCES = ("Alg", "Alg_BTM", "Alg_CCB", "Alg_DTS", "Alg_DTS2", "Alg_ECWRMED", "Alg_MultiSBM", "Alg_RCS",
           "Alg_RMED", "Alg_RUCB", "Alg_SAVAGE", "Alg_SCB", "Alg_Sparring", "MAB", "MAB_singleAlg", "Results",
           "SBM")
FLAGS = ("-O2", "-std=c++11", "-include", "climits", "-include", "cfloat")
EMPTY_HEADERS = ("tchar.h", "SDKDDKVer.h")
EDITS = ("empty <tchar.h> and <SDKDDKVer.h> (Windows-only headers) in the include path",
         "-include climits -include cfloat (MSVC includes them transitively)",
         "main() replaced by bench/authors_driver.cpp (their mains read a hard-coded Windows path); "
         "DuelingBandit.cpp, DuelingBandit_singleAlg.cpp and stdafx.cpp not compiled")
CPP_INDEX = {name: index for index, name in enumerate(CPP_ALGORITHMS)}  # their ALG_* index of each algorithm
# Per matrix: every algorithm, at T = 1e5 (their regret at t <= 1e5 is read off the stored T = 1e6 lines, a run
# being a prefix of a longer one; MultiSBM and RMED2 have no paper line: off the lines of horizon T that
# reproduce/studies/authors_agreement.py declares), 100 runs; D-TS at T = 1e4 (its C++ costs ~40 us a slot at
# K = 5, ten times the others); BTM and SAVAGE at their own horizon 1e4, 200 runs.  At K = 16 the C++ draws and
# copies K^2 outcomes a slot (~10 times K = 5): Sushi, every algorithm at T = 1e4, BTM and SAVAGE at 1e3.
PLAN_MATRICES = ("mslr5_condorcet", "mslr5_noncondorcet", "arxiv", "cyclic", "strong_borda", "gap",
                 "nc_strong_borda", "nc_cyclic")
LARGER_MATRICES = ("sushi",)
ANYTIME = ("dts_plus", "rucb", "rcs", "sparring", "ccb", "scb", "rmed1", "ecw_rmed", "multisbm", "rmed2")
PLAN = tuple((matrix, algorithm, horizon, runs, False) for matrix in PLAN_MATRICES for algorithm, horizon, runs in (
    *((name, 100_000, 100) for name in ANYTIME), ("dts", 10_000, 100), ("btm", 10_000, 200),
    ("savage", 10_000, 200))) + (
    # MultiSBM's init() does not clear its SBMs: their main reuses one object for all runs (NOTES.md).
    ("mslr5_condorcet", "multisbm", 100_000, 100, True),) + tuple(
    (matrix, algorithm, horizon, runs, False) for matrix in LARGER_MATRICES for algorithm, horizon, runs in (
        *((name, 10_000, 100) for name in (*ANYTIME, "dts")), ("btm", 1_000, 200), ("savage", 1_000, 200)))


def cell_seed(matrix: str, algorithm: str, horizon: int, reuse: bool) -> int:
    """The srand seed of run 0 of a cell (run r uses seed + r): a CRC-32 of its name, below 2^30."""
    return zlib.crc32(f"{matrix}/{algorithm}/T{horizon}{'/reused' if reuse else ''}".encode()) % (1 << 30)


def reference_grid(horizon: int) -> np.ndarray:
    """The slots whose regret a reference row keeps: 10, 30, 100, 300, ... below horizon, and horizon."""
    grid = [t for k in range(1, 10) for t in (10 ** k, 3 * 10 ** k) if t < horizon]
    return np.array([*grid, horizon], dtype=np.int64)


def reference_path(matrix: str, algorithm: str, horizon: int, reuse: bool) -> Path:
    """Where the reference rows of a cell are stored (``_reused``: one object for all runs, as their main)."""
    return REFERENCE / matrix / f"{algorithm}_T{horizon}{'_reused' if reuse else ''}.csv"


def check_clone(path: Path) -> Path:
    """The source folder of a clone of HuasenWu/DuelingBandits (ValueError naming the path otherwise)."""
    source = Path(path) / "DuelingBandit"
    missing = [name for name in SOURCES if not (source / f"{name}.cpp").is_file()]
    if missing:
        raise ValueError(f"--cpp {path}: not a clone of HuasenWu/DuelingBandits (no DuelingBandit/{missing[0]}.cpp)")
    return source


def build(source: Path, folder: Path) -> Path:
    """Compile the authors' sources and the driver in ``folder``; return the driver's path."""
    shim = folder / "shim"
    shim.mkdir(parents=True, exist_ok=True)
    for name in EMPTY_HEADERS:
        (shim / name).touch()
    driver = folder / "driver"
    subprocess.run(["g++", *FLAGS, f"-I{shim}", f"-I{source}", "-o", str(driver), str(DRIVER),
                    *(str(source / f"{name}.cpp") for name in SOURCES)], check=True)
    return driver


def run_cell(driver: Path, folder: Path, matrix: str, algorithm: str, horizon: int, runs: int,
             reuse: bool) -> float:
    """Run one cell with the driver, write its CSV and return the CPU seconds it took."""
    dataset = load_dataset(matrix)
    grid = reference_grid(horizon)
    matrix_file, grid_file, out_file = (folder / f"{matrix}.{suffix}" for suffix in ("matrix", "grid", "out"))
    rows = "\n".join(" ".join(repr(float(p)) for p in row) for row in np.asarray(dataset.P))
    matrix_file.write_text(f"{dataset.K}\n{rows}\n")
    grid_file.write_text("\n".join(str(t) for t in grid) + "\n")
    seed = cell_seed(matrix, algorithm, horizon, reuse)
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    subprocess.run([str(driver), str(CPP_INDEX[algorithm]), str(seed), str(runs), str(horizon), str(int(reuse)),
                    str(matrix_file), str(grid_file), str(out_file)], check=True, stdout=subprocess.DEVNULL)
    seconds = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
    values = np.loadtxt(out_file, ndmin=2)
    if not np.array_equal(values[:, 0], np.arange(runs)):
        raise RuntimeError(f"{out_file}: the driver wrote runs {values[:, 0]}, not 0 .. {runs - 1}")
    write_cell(reference_path(matrix, algorithm, horizon, reuse), seed, grid, values[:, 1:])
    return seconds


def write_cell(path: Path, seed: int, grid: np.ndarray, regret: np.ndarray) -> None:
    """Write a cell's CSV: one row per run r (run index, its seed ``seed + r``, its regret at every slot of
    ``grid``: ``regret`` is (runs, grid))."""
    runs = len(regret)
    table = pd.DataFrame(regret, columns=[f"R{t}" for t in grid])
    table.insert(0, "seed", seed + np.arange(runs, dtype=np.int64))
    table.insert(0, "run", np.arange(runs, dtype=np.int64))
    path.parent.mkdir(parents=True, exist_ok=True)
    write_table(table, path)


def clone_commit(path: Path) -> str:
    """The commit the clone at ``path`` is at."""
    return subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], check=True, capture_output=True,
                          text=True).stdout.strip()


def update_provenance(clone: Path, cells: dict) -> None:
    """Merge the CPU seconds of the cells just run into PROVENANCE.json, with commit, compiler and edits."""
    path = REFERENCE / "PROVENANCE.json"
    record = json.loads(path.read_text()) if path.is_file() else {"cells": {}}
    compiler = subprocess.run(["g++", "--version"], check=True, capture_output=True, text=True).stdout
    record.update({"repository": "https://github.com/HuasenWu/DuelingBandits", "commit": clone_commit(clone),
                   "compiler": compiler.splitlines()[0], "flags": " ".join(FLAGS), "edits": list(EDITS),
                   "driver": "bench/authors_driver.cpp", "sources": [f"DuelingBandit/{n}.cpp" for n in SOURCES]})
    record["cells"].update(cells)
    path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")


def main(argv=None) -> None:
    """Parse the arguments, build the authors' code and run the cells of PLAN not stored yet."""
    parser = OneLineParser(description=doc_summary(__doc__))
    parser.add_argument("--cpp", type=Path, required=True, help="local clone of HuasenWu/DuelingBandits")
    parser.add_argument("--build", type=Path, default=Path(tempfile.gettempdir()) / "authors_build",
                        help="build folder, outside this repository")
    parser.add_argument("--only", choices=PLAN_MATRICES + LARGER_MATRICES, help="run the cells of one matrix only")
    args = parser.parse_args(argv)
    source = check_clone(args.cpp)
    if ROOT in args.build.resolve().parents or args.build.resolve() == ROOT:
        raise ValueError(f"--build {args.build}: inside this repository (the authors' code stays out of it)")
    todo = [cell for cell in PLAN if (args.only in (None, cell[0]))
            and not reference_path(*cell[:3], cell[4]).is_file()]
    if not todo:
        print("every cell of the plan is stored")
        return
    args.build.mkdir(parents=True, exist_ok=True)
    driver = build(source, args.build)
    for matrix, algorithm, horizon, runs, reuse in todo:
        seconds = run_cell(driver, args.build, matrix, algorithm, horizon, runs, reuse)
        name = reference_path(matrix, algorithm, horizon, reuse).relative_to(REFERENCE).with_suffix("")
        update_provenance(args.cpp, {str(name): {"runs": runs, "cpu_s": round(seconds, 1)}})
        print(f"{matrix} {algorithm} T={horizon} runs={runs}: {seconds:.1f} CPU s", flush=True)


if __name__ == "__main__":
    main_guard(main)
