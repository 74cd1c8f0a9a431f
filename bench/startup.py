"""What the first use costs: CPU and wall seconds, and the number of numba compilations, of each start-up step
in fresh processes, on a cold numba cache (an empty temporary folder) and on the cache the earlier steps
filled.  In order: the first ``DTS(5).select()`` of a process on a cold cache; ``make warm-cache``
(reproduce/warm_cache.py) on another cold cache; then, on that warmed cache, a new process's first
``DTS(5).select()``, its first ``run_one`` of D-TS and of RUCB (mslr5_condorcet, T = 1000), and
``make warm-cache`` again.  Each child's seconds are counted from just before its first project import.
Writes the rows to ``--csv`` (default bench/startup.csv), which
reproduce/report.py renders into docs/install.md.  Timings, not pass/fail; a few CPU minutes.

Usage: python bench/startup.py [--csv bench/startup.csv]
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, main_guard
from dts_reproduction.reproduce.harness.paths import ROOT, STARTUP_TABLE
from dts_reproduction.reproduce.harness.runner import git_commit
from dts_reproduction.reproduce.output.tables import write_table

# The child's code: count numba's compilations and time ``STEP`` from before the first project import.
CHILD = """
import json, time
cpu, wall = time.process_time(), time.perf_counter()
from numba.core import event

class Count(event.Listener):
    compiled = 0
    def on_start(self, e):
        Count.compiled += 1
    def on_end(self, e):
        pass

with event.install_listener("numba:compile", Count()):
{step}
print(json.dumps({{"cpu_seconds": time.process_time() - cpu, "wall_seconds": time.perf_counter() - wall,
                  "compiles": Count.compiled}}))
"""
FIRST_SELECT = """    from dts_reproduction.algorithms.dts import DTS
    DTS(5, seed=0).select()"""
FIRST_RUN = """    from dts_reproduction.algorithms import get_algorithm
    from dts_reproduction.data import load_dataset
    from dts_reproduction.reproduce.harness.runner import run_one
    run_one(load_dataset("mslr5_condorcet"), get_algorithm({name!r}), {{}}, 1000, 0, 1)"""
WARM_CACHE = """    import runpy, sys
    sys.argv = ["reproduce/warm_cache.py"]
    runpy.run_path("reproduce/warm_cache.py", run_name="__main__")"""


def child(step: str, cache: Path) -> dict:
    """Run ``step`` (indented code) in a fresh interpreter with ``cache`` as numba's cache folder; its measurement."""
    done = subprocess.run([sys.executable, "-c", CHILD.format(step=step)], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "NUMBA_CACHE_DIR": str(cache)}, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"a start-up step failed: {done.stderr.strip().splitlines()[-1]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure() -> list[dict]:
    """The rows of the module docstring's steps, in order, each with the cache it ran on."""
    steps = (("first DTS(5).select()", "cold", FIRST_SELECT, "cold_select"),
             ("make warm-cache", "cold", WARM_CACHE, "warmed"),
             ("first DTS(5).select()", "warm", FIRST_SELECT, "warmed"),
             ("first run_one of D-TS (T = 1000)", "warm", FIRST_RUN.format(name="dts"), "warmed"),
             ("first run_one of RUCB (T = 1000)", "warm", FIRST_RUN.format(name="rucb"), "warmed"),
             ("make warm-cache", "warm", WARM_CACHE, "warmed"))
    measured = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for what, cache, step, folder in steps:
            load = os.getloadavg()[0]
            row = child(step, Path(scratch) / folder)
            print(f"{what} ({cache} cache): {row['cpu_seconds']:.2f} CPU s, {row['wall_seconds']:.2f} s, "
                  f"{row['compiles']} compiled", flush=True)
            rows.append({"step": what, "cache": cache, **row, "load_average": load, "measured": measured,
                         "commit": git_commit()})
    return rows


def main(argv=None):
    """Measure every step and write the table (bad input: one ``error:`` line, exit status 2)."""
    def run():
        """Parse, check the output folder, measure, write."""
        parser = OneLineParser(description=doc_summary(__doc__))
        parser.add_argument("--csv", type=Path, default=STARTUP_TABLE, help="the table to write")
        args = parser.parse_args(argv)
        if args.csv.is_dir():
            raise ValueError(f"--csv {args.csv}: is a folder, not a file")
        if not args.csv.parent.is_dir():
            raise ValueError(f"--csv {args.csv}: no such folder {args.csv.parent}")
        write_table(pd.DataFrame(measure()), args.csv)
        print(f"wrote {args.csv}")

    main_guard(run)


if __name__ == "__main__":
    main()
