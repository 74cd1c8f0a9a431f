"""Where the project's inputs and outputs live (one place for every path)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # reproduce/harness/paths.py -> the repository (installed: the package)
# A clone holds the package's folder beside its own (dts_reproduction/__init__.py); an installed wheel is that
# folder, inside site-packages, so it writes its results and figures under the current directory instead.
INSTALLED = not (ROOT / "dts_reproduction").is_dir()
RESULTS = (Path.cwd() if INSTALLED else ROOT) / "results"
FIGURES = (Path.cwd() if INSTALLED else ROOT) / "figures"
# Written by `make bench`, read for bench/README.md and by the cost model (a wheel carries it: setup.py).
BENCH_TABLE = ROOT / "bench" / "step_cost.csv"
# Written by `make bench-plugin` (the toy plug-in, compiled and plain Python), read by the cost model (a wheel
# carries it too).
PLUGIN_TABLE = ROOT / "bench" / "plugin_cost.csv"
STARTUP_TABLE = ROOT / "bench" / "startup.csv"  # written by bench/startup.py, read for docs/install.md
PROBE_TABLE = ROOT / "bench" / "large_scale_probes.csv"  # written by bench/paper_cost.py --large-scale --probe
QUICK = "quick"  # sub-folder of RESULTS and FIGURES for --quick runs, so they never overwrite paper runs
FAST = "fast"  # sub-folder (below QUICK in a quick run) for --fast runs: the exact fast paths' own results
CUSTOM = "custom"  # sub-folder of RESULTS and FIGURES where reproduce/run.py writes by default (git-ignored)
