"""What the first use costs: CPU and wall seconds, and the number of numba compilations, of each start-up step
in fresh processes, on a cold numba cache (an empty temporary folder) and on the cache the earlier steps
filled.  In order: the first ``DTS(5).select()`` of a process on a cold cache, and on another cold cache its
first ``select()`` and ``update()`` (a ``Policy`` compiles ``update`` when first called); ``make warm-cache``
(reproduce/warm_cache.py) on another cold cache; then, on that warmed cache, a new process's first
``DTS(5).select()``, its first ``run_one`` of D-TS and of RUCB (mslr5_condorcet, T = 1000), and
``make warm-cache`` again.  Each child's seconds are counted from just before its first project import.
Writes the rows to ``--csv`` (default bench/startup.csv), which
reproduce/report.py renders into docs/install.md.  With ``--compiles``, also prints what each step compiled:
every kernel numba compiled, with the CPU seconds of its own compile (those of the kernels it compiled in
turn not included), dearest first.  Timings, not pass/fail; a few CPU minutes.

Usage: python bench/startup.py [--csv bench/startup.csv] [--compiles]
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

# The child's code: time ``STEP`` from before the first project import and record numba's compilations, each
# with the CPU seconds of its own compile (those nested in it, of the kernels it calls, subtracted).
CHILD = """
import json, time
cpu, wall = time.process_time(), time.perf_counter()
from numba.core import event

class Count(event.Listener):
    compiled, open = [], []  # (kernel, own CPU seconds) as each compile ends; [start, nested seconds] of those open
    def on_start(self, e):
        Count.open.append([time.process_time(), 0.0])
    def on_end(self, e):
        start, nested = Count.open.pop()
        spent = time.process_time() - start
        if Count.open:
            Count.open[-1][1] += spent
        function = e.data["dispatcher"].py_func
        Count.compiled.append((f"{{function.__module__}}.{{function.__qualname__}}", spent - nested))

with event.install_listener("numba:compile", Count()):
{step}
print(json.dumps({{"cpu_seconds": time.process_time() - cpu, "wall_seconds": time.perf_counter() - wall,
                  "compiles": len(Count.compiled), "kernels": Count.compiled}}))
"""
FIRST_SELECT = """    from dts_reproduction.algorithms.dts import DTS
    DTS(5, seed=0).select()"""
FIRST_SELECT_UPDATE = """    from dts_reproduction.algorithms.dts import DTS
    policy = DTS(5, seed=0)
    policy.update(*policy.select(), True)"""
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


def print_compiles(kernels: list) -> None:
    """Print what a step compiled (``kernels``: (name, own CPU seconds) of each compile), by kernel, dearest first."""
    own: dict[str, list] = {}
    for name, seconds in kernels:
        own.setdefault(name, []).append(seconds)
    for name, spent in sorted(own.items(), key=lambda item: -sum(item[1])):
        print(f"  {sum(spent):6.2f} CPU s  {name}" + (f" ({len(spent)} signatures)" if len(spent) > 1 else ""))


def measure(compiles: bool = False) -> list[dict]:
    """The rows of the module docstring's steps, in order, each with the cache it ran on (with ``compiles``, each
    step's compilations printed, ``print_compiles``)."""
    steps = (("first DTS(5).select()", "cold", FIRST_SELECT, "cold_select"),
             ("first DTS(5).select() and update()", "cold", FIRST_SELECT_UPDATE, "cold_update"),
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
            kernels = row.pop("kernels")
            print(f"{what} ({cache} cache): {row['cpu_seconds']:.2f} CPU s, {row['wall_seconds']:.2f} s, "
                  f"{row['compiles']} compiled", flush=True)
            if compiles:
                print_compiles(kernels)
            rows.append({"step": what, "cache": cache, **row, "load_average": load, "measured": measured,
                         "commit": git_commit()})
    return rows


def main(argv=None):
    """Measure every step and write the table (bad input: one ``error:`` line, exit status 2)."""
    def run():
        """Parse, check the output folder, measure, write."""
        parser = OneLineParser(description=doc_summary(__doc__))
        parser.add_argument("--csv", type=Path, default=STARTUP_TABLE, help="the table to write")
        parser.add_argument("--compiles", action="store_true",
                            help="also print the kernels each step compiled, with the CPU seconds of each compile")
        args = parser.parse_args(argv)
        if args.csv.is_dir():
            raise ValueError(f"--csv {args.csv}: is a folder, not a file")
        if not args.csv.parent.is_dir():
            raise ValueError(f"--csv {args.csv}: no such folder {args.csv.parent}")
        write_table(pd.DataFrame(measure(args.compiles)), args.csv)
        print(f"wrote {args.csv}")

    main_guard(run)


if __name__ == "__main__":
    main()
