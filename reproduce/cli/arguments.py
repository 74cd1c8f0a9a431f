"""The command line shared by every figure script and ``reproduce/run.py`` (imported by entry points only;
it imports the harness, ``reproduce.harness``, never the reverse).

``--runs --horizon --n-jobs --seed --quick --fast --force --out --figures --backend --scheduler
--local-cluster --no-progress --plot-only``, each offered only by the scripts it applies to
(``build_parser``); ``resolve`` turns them into the run's ``reproduce.harness.settings.Settings``, what the library
reads (a script's own flags stay its own).  Every value is checked before any work starts, in quick mode too:
integers may be written 1e6-style (``integer``), the results and figures folders must be writable
(``reproduce.harness.limits.check_output_folder``: a file in the way or no permission is refused, nothing
is written), and a dask scheduler must answer within ``reproduce.harness.backends.SCHEDULER_TIMEOUT_S``.
``main_guard`` turns a ValueError (bad input) into one ``error: ...`` line on stderr and exit status 2; so
does every argparse usage error (``OneLineParser``).
"""

import argparse
import re
import shlex
import sys
import warnings
from pathlib import Path

from dts_reproduction.algorithms.base import INT64_MAX
from dts_reproduction.reproduce.config.paper import ROOT_SEED, RUNS_K_GT_100, RUNS_K_LE_100, RUNS_K_LT_10
from dts_reproduction.reproduce.config.scale import QUICK_HORIZON, QUICK_RUNS, power_of_ten
from dts_reproduction.reproduce.harness.backends import BACKENDS, SCHEDULER_TIMEOUT_S
from dts_reproduction.reproduce.harness.interrupt import RUN, Interrupted, catch_signals, ignore_signals_while_exiting
from dts_reproduction.reproduce.harness.limits import MAX_CPU_HOURS, MAX_JOBS, MAX_RUNS, check_output_folder
from dts_reproduction.reproduce.harness.paths import CUSTOM, FAST, FIGURES, QUICK, RESULTS
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.harness.store import NotStored

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
MAX_NAME_LENGTH = 100


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one ``error: ...`` line and exit status 2 (``--help``
    still prints the full usage)."""

    def error(self, message):
        """One ``error: ...`` line on stderr and exit status 2, instead of argparse's usage block."""
        print(f"error: {message} (see --help)", file=sys.stderr)
        sys.exit(2)


INTEGER_PATTERN = re.compile(r"[+-]?[0-9][0-9_]*(?:[eE]\+?[0-9]+)?")


def integer(text, option: str, low: int = 1, high: int = INT64_MAX) -> int:
    """``text`` as an int in [low, high].  Digits, optionally with ``_`` separators and a power of ten:
    1000000, 1_000_000, 1e6, 25e5.  A decimal point or a negative exponent is refused even where the
    value is whole (1.5e3, 1000.0, 1e-3): ValueError naming ``option``, as for 2.5, nan, 1e30 or abc."""
    if isinstance(text, bool) or not isinstance(text, (int, str)):
        raise ValueError(f"{option} must be an integer, got {text!r}")
    if isinstance(text, int):
        value = text
    else:
        if not INTEGER_PATTERN.fullmatch(text.strip()) or "__" in text or "_e" in text.lower():
            raise ValueError(f"{option} must be an integer (digits, or a power-of-ten form such as 1e6), "
                             f"got {text!r}")
        mantissa, _, exponent = text.strip().replace("_", "").lower().partition("e")
        # beyond int64 whatever the mantissa: do not build a huge int
        if exponent and int(exponent) > 40 and int(mantissa) != 0:
            value = high + 1 if not mantissa.startswith("-") else low - 1
        else:
            value = int(mantissa) * 10 ** int(exponent or 0)
    if value < low:
        raise ValueError(f"{option} must be >= {low}, got {text}")
    if value > high:
        raise ValueError(f"{option} must be <= {high}{' (int64)' if high == INT64_MAX else ''}, got {text}")
    return value


def check_name(name: str, option: str = "--name") -> str:
    """``name`` if it is a plain file name (letters, digits, '.', '_', '-', not starting with '.' or '-',
    at most MAX_NAME_LENGTH characters); ValueError otherwise, so that no name writes outside its folder."""
    if not name:
        raise ValueError(f"{option} must not be empty")
    if not NAME_PATTERN.fullmatch(name) or len(name) > MAX_NAME_LENGTH:
        raise ValueError(f"{option} must be a plain file name (letters, digits, '.', '_', '-'; no path "
                         f"separators; at most {MAX_NAME_LENGTH} characters), got {name!r}")
    return name


def doc_summary(doc: str) -> str:
    """The first paragraph of a module docstring on one line: a script's ``--help`` description (its first
    line alone may stop mid-sentence)."""
    return " ".join(doc.strip().split("\n\n")[0].split())



def add_line_selection(parser: argparse.ArgumentParser) -> None:
    """``--algorithms NAME ...`` and ``--datasets NAME ...``: a study script computes only the lines they select
    (the others are loaded if stored); ``studies.experiment.check_selection`` checks the names against the
    study's lines."""
    parser.add_argument("--algorithms", nargs="+", default=None, metavar="NAME",
                        help="compute only the lines of these registry names (the others are loaded if stored)")
    parser.add_argument("--datasets", nargs="+", default=None, metavar="NAME",
                        help="compute only the lines on these matrices, e.g. mslr136_informational (the others "
                             "are loaded if stored)")


# The flags of a script that computes runs (and may hand them to a cluster); a script that only reads stored
# runs (Fig. 2) does not offer them.  Their values when not offered: nothing to compute, read-only.
COMPUTE_FLAGS = ("--n-jobs", "--force", "--backend", "--scheduler", "--local-cluster", "--no-progress", "--plot-only",
                 "--max-cpu-hours", "--stored-only")
READ_ONLY_DEFAULTS = {"n_jobs": "1", "force": False, "backend": None, "scheduler": None, "local_cluster": None,
                      "no_progress": True, "plot_only": True, "max_cpu_hours": "inf",
                      "stored_only": True}


def build_parser(description: str, default_horizon: int, fast: bool = True, computes: bool = True,
                 runs_help: str | None = None, horizon_help: str | None = None,
                 folders_help: tuple[str, str] | None = None) -> argparse.ArgumentParser:
    """The common parser; ``default_horizon`` is the figure's paper horizon.  Each script offers only the flags
    that apply to it: ``fast`` offers ``--fast`` (a script whose computation has no fast path leaves it out; the
    namespace then holds fast=False); ``computes=False`` leaves out ``COMPUTE_FLAGS`` (a script that only reads
    stored runs; the namespace then holds ``READ_ONLY_DEFAULTS``); ``runs_help`` and ``horizon_help`` replace the
    default help of ``--runs`` (the paper's rule by K) and ``--horizon`` (``default_horizon``, the paper's), and
    ``folders_help`` that of ``--out`` and ``--figures`` (a script whose default folders are its own).  The
    line selection is ``add_line_selection``'s (without it: none).  Numbers are read as text and checked by
    ``resolve``, so every error reads ``error: --option ...``."""
    parser = OneLineParser(description=description)
    parser.add_argument("--runs", default=None, help=runs_help or (
        f"independent runs per curve (default: the paper's rule by K: {RUNS_K_LT_10} for K < 10, {RUNS_K_LE_100} "
        f"for 10 <= K <= 100, {RUNS_K_GT_100} for K > 100)"))
    parser.add_argument("--horizon", default=None, help=horizon_help or (
        f"time horizon T, e.g. 100000 or 1e5 (default: {power_of_ten(default_horizon)}, the paper's)"))
    if computes:
        parser.add_argument("--n-jobs", default="-1", help=f"parallel workers (-1: all cores; at most {MAX_JOBS})")
    parser.add_argument("--seed", default=str(ROOT_SEED), help=f"root seed (default {ROOT_SEED})")
    parser.add_argument("--quick", action="store_true",
                        help=f"smoke run: {QUICK_RUNS} runs, T = {QUICK_HORIZON}, results and figures under "
                             f"'{QUICK}/' (not evidence)")
    if fast:
        parser.add_argument("--fast", action="store_true",
                            help="run every algorithm with its exact fast paths (same law as the defaults, other "
                                 f"random streams; docs/harness.md#fast-paths), results and figures under '{FAST}/'")
    if computes:
        parser.add_argument("--force", action="store_true", help="recompute results even if stored")
    out_help, figures_help = folders_help or (
        f"results folder (default {RESULTS}; reproduce/run.py: {RESULTS / CUSTOM})",
        f"figures folder (default {FIGURES}; reproduce/run.py: {FIGURES / CUSTOM})")
    parser.add_argument("--out", type=Path, default=None, help=out_help)
    parser.add_argument("--figures", type=Path, default=None, help=figures_help)
    if computes:
        parser.add_argument("--backend", choices=BACKENDS, default=None,
                            help="joblib backend: loky (default, local processes), threading, sequential, or dask "
                                 "(with --scheduler or --local-cluster)")
        parser.add_argument("--scheduler", default=None,
                            help="dask.distributed scheduler address, e.g. tcp://host:8786 (implies --backend dask; "
                                 f"fails after {SCHEDULER_TIMEOUT_S} s if it does not answer)")
        parser.add_argument("--local-cluster", default=None, metavar="N",
                            help="start a dask.distributed LocalCluster of N worker processes on this machine "
                                 "(loopback only) and run on it (implies --backend dask)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")
        parser.add_argument("--plot-only", action="store_true",
                            help="only draw from stored results, compute nothing and write nothing into the results "
                                 "folder (lines not stored are left out and named; nothing stored is an error)")
        parser.add_argument("--max-cpu-hours", default=f"{MAX_CPU_HOURS:g}",
                            help=f"refuse, before anything starts, a plan whose runs to compute are estimated at "
                                 f"more CPU hours than this (default {MAX_CPU_HOURS:g}; 'inf': no bound)")
        parser.add_argument("--stored-only", action="store_true",
                            help="compute nothing: a chunk not stored, or damaged, is an error naming it and the "
                                 "command that recomputes it (make all-figures)")
    else:
        parser.set_defaults(**READ_ONLY_DEFAULTS)
    if not fast:
        parser.set_defaults(fast=False)
    parser.set_defaults(default_horizon=default_horizon, algorithms=None, datasets=None)
    return parser


def _resolve_backend(namespace: argparse.Namespace) -> tuple[str, int | None]:
    """Check --backend, --scheduler and --local-cluster together; the backend to use ("dask" with a scheduler or a
    local cluster, else the one given, loky by default) and the local cluster's workers (None without one).
    ValueError names the conflicting flags."""
    local_cluster = namespace.local_cluster
    if local_cluster is not None:
        local_cluster = integer(local_cluster, "--local-cluster", 1, MAX_JOBS)
        if namespace.scheduler:
            raise ValueError("give either --scheduler ADDRESS or --local-cluster N, not both")
    if namespace.scheduler is not None and not namespace.scheduler.strip():
        raise ValueError("--scheduler must be an address such as tcp://host:8786, got ''")
    distributed = namespace.scheduler is not None or local_cluster is not None
    if distributed and namespace.backend not in (None, "dask"):
        flag = "--scheduler" if namespace.scheduler is not None else "--local-cluster"
        raise ValueError(f"{flag} runs on dask, but --backend {namespace.backend} was given")
    if namespace.backend == "dask" and not distributed:
        raise ValueError("--backend dask needs --scheduler ADDRESS or --local-cluster N")
    return "dask" if distributed else (namespace.backend or "loky"), local_cluster


def resolve(namespace: argparse.Namespace) -> Settings:
    """The ``Settings`` of the parsed flags ``namespace`` (``build_parser``'s, with ``add_line_selection``'s if
    offered), built by ``Settings.library`` (defaults that depend on other flags: quick mode, folders) after every
    value is checked, in quick mode too; ValueError on the first bad one (--force with --plot-only or
    --stored-only, which contradict it, too).  The results folder (unless --plot-only or --stored-only) and the
    figures folder must be writable or creatable; nothing is created here.  A script's own flags stay in
    ``namespace``."""
    horizon = None if namespace.horizon is None else integer(namespace.horizon, "--horizon")
    runs = None if namespace.runs is None else integer(namespace.runs, "--runs", 1, MAX_RUNS)
    seed = integer(namespace.seed, "--seed", 0)
    max_cpu_hours = hours_flag(namespace.max_cpu_hours, "--max-cpu-hours")
    n_jobs = integer(namespace.n_jobs, "--n-jobs", -INT64_MAX, MAX_JOBS)
    if n_jobs == 0:
        raise ValueError("--n-jobs must be a positive number of workers or negative (-1: all cores), got 0")
    backend, local_cluster = _resolve_backend(namespace)
    if namespace.force and (namespace.plot_only or namespace.stored_only):
        raise ValueError(f"--force recomputes every run, {'--plot-only' if namespace.plot_only else '--stored-only'} "
                         f"computes none: give one of them")
    settings = Settings.library(
        default_horizon=namespace.default_horizon, horizon=horizon, runs=runs, quick=namespace.quick,
        fast=namespace.fast, seed=seed, out=namespace.out, figures=namespace.figures, n_jobs=n_jobs, backend=backend,
        scheduler=namespace.scheduler, local_cluster=local_cluster, progress=not namespace.no_progress,
        force=namespace.force, stored_only=namespace.stored_only, plot_only=namespace.plot_only,
        max_cpu_hours=max_cpu_hours, algorithms=namespace.algorithms, datasets=namespace.datasets)
    if not (settings.plot_only or settings.stored_only):  # both only read the results folder: it may be read-only
        check_output_folder(settings.out, "results folder")
    check_output_folder(settings.figures, "figures folder")
    return settings


def recompute_command() -> str:
    """The command line of this process without ``--stored-only``: the one that computes what it refused to."""
    script = Path(sys.argv[0])
    if script.is_absolute() and script.is_relative_to(Path.cwd()):
        script = script.relative_to(Path.cwd())
    return " ".join(["python", shlex.quote(str(script)), *(shlex.quote(arg) for arg in sys.argv[1:]
                                                          if arg != "--stored-only")])


def not_stored_error(error: NotStored) -> str:
    """The one line ``--stored-only`` prints for ``error``: the chunk and the command that recomputes it."""
    return f"{error} (--stored-only); recompute it with: {recompute_command()}"


def hours_flag(text: str, flag: str) -> float:
    """The value of an hours flag ("inf" allowed); ValueError naming the flag unless a number > 0."""
    try:
        hours = float(text)
    except ValueError:
        raise ValueError(f"{flag} must be a number of hours, got {text!r}") from None
    if not hours > 0:
        raise ValueError(f"{flag} must be > 0, got {text!r}")
    return hours


def main_guard(main):
    """Run ``main()``; a ValueError (bad input) becomes ``error: <message>`` on stderr and exit status 2,
    an OSError while working (disk full, folder removed) one ``error:`` line and exit status 1, and
    SIGTERM, SIGINT or SIGHUP (``reproduce.harness.interrupt``) one ``interrupted; ...`` line and exit status 128 +
    the signal number.  The run is marked over (``RUN.over``) the moment ``main()`` returns or raises, before
    anything is called, so a signal from then on, while the failure line is printed or the interpreter exits,
    is ignored (``reproduce.harness.interrupt.ignore_signals_while_exiting``).  A warning is one ``warning: ...``
    line, without the source line."""
    catch_signals()
    warnings.formatwarning = _one_line_warning
    try:
        main()
        failure = None
    except (ValueError, OSError, Interrupted, KeyboardInterrupt) as error:
        failure = error
    finally:
        RUN.over = True  # first, with no call before it: a Python signal handler runs only at a call or a jump back
        ignore_signals_while_exiting()
    if failure is not None:
        line, status = failure_line(failure)
        print(line, file=sys.stderr, flush=True)
        sys.exit(status)


def failure_line(failure: BaseException) -> tuple[str, int]:
    """The one stderr line and the exit status ``main_guard`` reports for a run that raised ``failure``."""
    if isinstance(failure, NotStored):
        return f"error: {not_stored_error(failure)}", 2
    if isinstance(failure, ValueError):
        return f"error: {failure}", 2
    if isinstance(failure, OSError):
        where = f"{failure.filename}: " if getattr(failure, "filename", None) else ""
        return f"error: {where}{failure.strerror or failure}", 1
    stop = failure if isinstance(failure, Interrupted) else Interrupted(2)
    return stop.message(), stop.exit_status


def _one_line_warning(message, category, *_args, **_kwargs) -> str:
    """A warning as one line, ``warning: <message>`` (the default format adds the source line)."""
    return f"warning: {message}\n"
