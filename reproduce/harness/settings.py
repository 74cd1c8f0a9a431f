"""The settings of a run of a study, declared once: ``Settings``, what every study function reads (its runs,
horizon, folders, backend, what it may compute), whoever builds it -- the command line
(``reproduce.cli.arguments.resolve``), a notebook or a test (``Settings.library``).

Its fields hold resolved values (the quick and fast sub-folders appended, the horizon chosen), so
``dataclasses.replace`` makes a variant without deriving anything again: ``replace(settings, fast=False)`` is the
same run with the defaults' parameters, in the same folders.  It is frozen, and a misspelt field is a TypeError
where the settings are built, not an AttributeError deep inside a run.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from dts_reproduction.reproduce.config.paper import HORIZON, ROOT_SEED
from dts_reproduction.reproduce.config.scale import QUICK_RUNS, script_horizon
from dts_reproduction.reproduce.harness.limits import MAX_CPU_HOURS
from dts_reproduction.reproduce.harness.paths import FAST, FIGURES, QUICK, RESULTS


@dataclass(frozen=True, kw_only=True)
class Settings:
    """Everything a run of a study reads besides its panels (docs/live-use.md, "Running a study from Python").
    Every field is required: build one with ``Settings.library`` (the command line's defaults and rules), vary
    it with ``dataclasses.replace``."""

    runs: int | None  # runs per line; None: each panel's own (``Panel.own_runs``: the paper's rule by K)
    horizon: int  # the run's horizon: the one given, else the quick run's, else default_horizon (script_horizon)
    horizon_given: bool  # a horizon was given: it replaces every panel's own, even if equal (scale.panel_horizon)
    default_horizon: int  # the study's paper horizon, at which a panel without its own horizon runs
    quick: bool  # the smoke run: QUICK_RUNS runs, QUICK_HORIZON, folders under quick/; its verdicts are no evidence
    fast: bool  # every algorithm with its exact fast paths (``AlgorithmSpec.fast``) unless a curve sets them
    seed: int  # the root seed of every line
    out: Path  # the results folder the run reads and writes (quick/ and fast/ below the one given)
    default_out: Path  # the defaults' folder (quick/ only): with fast, a line fast leaves unchanged is stored here
    figures: Path  # the folder of the figures and their tables (quick/ and fast/ below the one given)
    n_jobs: int  # parallel workers (-1: all cores)
    backend: str  # the joblib backend (``reproduce.harness.backends.BACKENDS``): loky, dask, threading, sequential
    scheduler: str | None  # with backend "dask": the address of the dask scheduler to connect to
    local_cluster: int | None  # with backend "dask": the worker processes of a loopback LocalCluster to start
    progress: bool  # show a progress bar while lines are computed
    force: bool  # recompute every line, even if stored
    stored_only: bool  # compute nothing: a chunk not stored, or damaged, is an error (``store.NotStored``)
    plot_only: bool  # compute nothing and write nothing into the results folders; lines not stored are left out
    max_cpu_hours: float  # refuse a plan whose runs to compute are estimated at more CPU hours than this
    algorithms: tuple[str, ...] | None  # compute only the lines of these algorithms (None: no selection)
    datasets: tuple[str, ...] | None  # compute only the lines on these matrices (None: no selection)

    @classmethod
    def library(cls, *, default_horizon: int = HORIZON, horizon: int | None = None, runs: int | None = None,
                quick: bool = False, fast: bool = False, seed: int = ROOT_SEED, out: Path | None = None,
                figures: Path | None = None, n_jobs: int = -1, backend: str = "loky", scheduler: str | None = None,
                local_cluster: int | None = None, progress: bool = True, force: bool = False,
                stored_only: bool = False, plot_only: bool = False, max_cpu_hours: float = MAX_CPU_HOURS,
                algorithms: Iterable[str] | None = None, datasets: Iterable[str] | None = None) -> "Settings":
        """The settings of a run given as the command line gives it, with its defaults (a flag not given: the
        parameter's default) and its rules: ``horizon`` (None: QUICK_HORIZON with ``quick``, else
        ``default_horizon``), ``runs`` (None: QUICK_RUNS with ``quick``, else each panel's own), ``out`` and
        ``figures`` (None: ``paths.RESULTS`` and ``paths.FIGURES``) with quick/ and fast/ appended as ``quick``
        and ``fast`` say, ``default_out`` the results folder with quick/ only; ``algorithms`` and ``datasets``
        (iterables of names) kept as tuples.  Values are not checked here: ``reproduce.cli.arguments.resolve``
        checks the command line's before it calls this."""
        results = Path(out or RESULTS)
        below = Path(QUICK if quick else "", FAST if fast else "")
        return cls(runs=QUICK_RUNS if quick and runs is None else runs,
                   horizon=script_horizon(horizon, quick, default_horizon), horizon_given=horizon is not None,
                   default_horizon=default_horizon, quick=quick, fast=fast, seed=seed, out=results / below,
                   default_out=results / (QUICK if quick else ""), figures=Path(figures or FIGURES) / below,
                   n_jobs=n_jobs, backend=backend, scheduler=scheduler, local_cluster=local_cluster,
                   progress=progress, force=force, stored_only=stored_only, plot_only=plot_only,
                   max_cpu_hours=max_cpu_hours, algorithms=None if algorithms is None else tuple(algorithms),
                   datasets=None if datasets is None else tuple(datasets))
