"""The command line shared by every figure script (DESIGN section 8).

``--runs --horizon --n-jobs --seed --quick --force --out --figures --backend --scheduler
--no-progress --plot-only``.  ``main_guard`` turns a ValueError (bad input) into a one-line
``error: ...`` on stderr and exit code 2, like argparse's own usage errors.
"""

import argparse
import sys
from contextlib import contextmanager
from pathlib import Path

from reproduce.paper_config import ROOT_SEED
from reproduce.paths import FIGURES, QUICK, RESULTS

QUICK_RUNS = 20
QUICK_HORIZON = 10_000


def build_parser(description: str, default_horizon: int) -> argparse.ArgumentParser:
    """The common parser; ``default_horizon`` is the figure's paper horizon."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--runs", type=int, default=None,
                        help="independent runs per curve (default: the paper's 500/100/10 rule by K)")
    parser.add_argument("--horizon", type=int, default=None,
                        help=f"time horizon T (default: {default_horizon:.0e}, the paper's)")
    parser.add_argument("--n-jobs", type=int, default=-1, help="parallel worker processes (-1: all cores)")
    parser.add_argument("--seed", type=int, default=ROOT_SEED, help=f"root seed (default {ROOT_SEED})")
    parser.add_argument("--quick", action="store_true",
                        help=f"smoke run: {QUICK_RUNS} runs, T = {QUICK_HORIZON}, written under '{QUICK}/'")
    parser.add_argument("--force", action="store_true", help="recompute results even if stored")
    parser.add_argument("--out", type=Path, default=None, help=f"results folder (default {RESULTS})")
    parser.add_argument("--figures", type=Path, default=None, help=f"figures folder (default {FIGURES})")
    parser.add_argument("--backend", default="loky",
                        help="joblib backend: loky (default, local processes) or dask (needs --scheduler)")
    parser.add_argument("--scheduler", default=None,
                        help="dask.distributed scheduler address, e.g. tcp://host:8786 (with --backend dask)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--plot-only", action="store_true",
                        help="only draw the figure from stored results (error if some are missing)")
    parser.set_defaults(default_horizon=default_horizon)
    return parser


def resolve(args: argparse.Namespace) -> argparse.Namespace:
    """Fill defaults that depend on other flags (quick mode, folders); ValueError on bad values."""
    if args.quick:
        args.runs = args.runs or QUICK_RUNS
        args.horizon = args.horizon or QUICK_HORIZON
    args.horizon = args.horizon if args.horizon is not None else args.default_horizon
    if args.horizon < 1:
        raise ValueError(f"--horizon must be >= 1, got {args.horizon}")
    if args.runs is not None and args.runs < 1:
        raise ValueError(f"--runs must be >= 1, got {args.runs}")
    if args.seed < 0:
        raise ValueError(f"--seed must be >= 0, got {args.seed}")
    if args.n_jobs == 0:
        raise ValueError("--n-jobs must be a positive number of workers or negative (-1: all cores), got 0")
    sub = QUICK if args.quick else ""
    args.out = (args.out or RESULTS) / sub
    args.figures = (args.figures or FIGURES) / sub
    return args


@contextmanager
def backend_context(args: argparse.Namespace):
    """Connect to the dask scheduler when ``--backend dask``; a no-op for local backends."""
    if args.backend != "dask":
        yield
        return
    if not args.scheduler:
        raise ValueError("--backend dask needs --scheduler ADDRESS")
    try:
        from dask.distributed import Client
    except ImportError:
        raise ValueError("--backend dask needs the 'dask[distributed]' package (pip install 'dask[distributed]')") from None
    with Client(args.scheduler):
        yield


def main_guard(main):
    """Run ``main()``; a ValueError becomes ``error: <message>`` on stderr and exit status 2."""
    try:
        main()
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
