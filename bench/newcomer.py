"""Time what a newcomer runs, on fresh clones of this repository's HEAD, and write bench/newcomer.csv.

Clone A runs the README's first command (install and the main job), then ``make all-figures``; clone B runs the
README's second command (install and the default test suite), then, unless ``--no-suites``, the suites the default
one deselects as .ci/run runs them (``-m process -n 0``, ``-m slow``).  After each step the clone's ``git status``
must have nothing to report.  Each step's wall time and the CPU time of its processes (children included) are
recorded with pytest's own test count and duration; ``reproduce/report.py`` renders them into the README and
docs/testing.md (``reproduce.reporting.newcomer_times``).  The clones live in a temporary folder, removed at the
end.  On a shared machine the times move with the load: measure on an otherwise idle one.

Usage: python bench/newcomer.py [--no-suites] [--out bench/newcomer.csv]
"""

import datetime
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, main_guard
from dts_reproduction.reproduce.harness.limits import check_output_folder
from dts_reproduction.reproduce.reporting.newcomer_times import COLUMNS, TABLE, pytest_summary, readme_commands

ROOT = Path(__file__).resolve().parent.parent


def children_cpu_seconds() -> float:
    """User + system CPU seconds of every finished child process so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: str, folder: Path) -> tuple[float, float, str]:
    """Run ``command`` in a shell in ``folder``: (wall seconds, CPU seconds, its output); the output streams to
    stdout as it comes.  RuntimeError (naming the command and its exit status) if it fails."""
    cpu, start = children_cpu_seconds(), time.perf_counter()
    process = subprocess.Popen(command, shell=True, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    output = []
    for line in process.stdout:
        sys.stdout.write(line)
        output.append(line)
    if process.wait():
        raise RuntimeError(f"{command!r} in {folder} exited with status {process.returncode}")
    return time.perf_counter() - start, children_cpu_seconds() - cpu, "".join(output)


def clean(folder: Path) -> bool:
    """True iff ``git status --porcelain`` of ``folder`` reports nothing."""
    return not subprocess.run(["git", "status", "--porcelain"], cwd=folder, capture_output=True, text=True,
                              check=True).stdout.strip()


def measure(suites: bool) -> pd.DataFrame:
    """Every step on fresh clones of HEAD (module docstring); one row per step."""
    main_command, test_command = readme_commands((ROOT / "README.md").read_text())
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.strip()
    python = ".venv/bin/python"
    steps = [("a", "main", main_command, False), ("a", "all_figures", f"make all-figures PYTHON={python}", False),
             ("b", "tests", test_command, True)]
    if suites:
        steps += [("b", "process", f"{python} -m pytest -q -m process -n 0", True),
                  ("b", "slow", f"{python} -m pytest -q -m slow", True)]
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        clones = {name: Path(scratch) / name for name in ("a", "b")}
        for folder in clones.values():
            subprocess.run(["git", "clone", "-q", str(ROOT), str(folder)], check=True)
        for clone, step, command, tests in steps:
            print(f"== {step}: {command}", flush=True)
            wall, cpu, output = timed(command, clones[clone])
            passed, test_seconds = pytest_summary(output) if tests else (None, None)
            rows.append({"step": step, "command": command, "wall_seconds": round(wall, 1),
                         "cpu_seconds": round(cpu, 1), "tests_passed": passed, "test_seconds": test_seconds,
                         "clean": clean(clones[clone]), "commit": commit, "cores": os.cpu_count(),
                         "measured_on": datetime.date.today().isoformat()})
    return pd.DataFrame(rows, columns=list(COLUMNS)).astype({"tests_passed": "Int64"})  # empty where no tests


def main(argv=None) -> None:
    """Measure and write the table (bad input, or a step that fails: one ``error:`` line, exit status 2)."""
    parser = OneLineParser(description=doc_summary(__doc__))
    parser.add_argument("--no-suites", action="store_true", help="skip the process and slow suites")
    parser.add_argument("--out", type=Path, default=TABLE, help=f"table to write (default {TABLE})")
    args = parser.parse_args(argv)

    def run():
        """Check the output folder, measure every step, then write the table."""
        check_output_folder(args.out.parent, "output folder")
        try:
            table = measure(not args.no_suites)
        except RuntimeError as error:
            raise ValueError(str(error)) from None
        table.to_csv(args.out, index=False)
        print(f"wrote {args.out} ({len(table)} steps)")

    main_guard(run)

if __name__ == "__main__":
    main()
