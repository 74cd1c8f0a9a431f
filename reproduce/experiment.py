"""What every regret-figure script shares: panels -> lines -> run/load -> plot, table and claim checks.

A figure script declares its panels and its claim checks and calls ``regret_figure``; the command
line is ``reproduce.cli``'s.  ``simulate`` (cached, resumable) and ``plot`` (cheap, re-runnable with
``--plot-only``) are separate steps.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd

from core.constants import paper_runs
from data import load_dataset
from reproduce.cli import backend_context, build_parser, main_guard, resolve
from reproduce.plotting import final_table, plot_regret_panels, write_table
from algorithms import get_algorithm
from reproduce.runner import Line, LineResult, load_line, run_lines, validate_line


@dataclass(frozen=True)
class Panel:
    """One subplot: ``algorithms`` (registry names, or (tag, name, params) triples) on ``dataset``.

    horizon overrides the script's default horizon for this panel (unless --horizon/--quick is given);
    delay and shuffle are passed to every line (spec 1.11; shuffle=False keeps the file's arm order);
    zoom: y limit of an extra clipped copy of the panel (``plotting.plot_regret_panels``), if any.
    """

    dataset: str
    title: str
    algorithms: tuple
    horizon: int | None = None
    delay: int = 1
    shuffle: bool = True
    zoom: float | None = None


def ete_horizons(horizon: int) -> list[int]:
    """Horizons at which explore-then-exploit algorithms are re-run (spec 1.8), up to ``horizon``.

    The authors' grid starts at 10 and adds x and 3x while x <= T (x <- 10x); the points above T are
    not plotted (the axis is clipped at T), so they are not run here.  T itself closes the curve.
    """
    grid, x = [], 10
    while x <= horizon:
        grid += [x, 3 * x]
        x *= 10
    return sorted({h for h in grid if h < horizon} | {horizon})


def panel_curves(panel: Panel, args) -> list[list[Line]]:
    """The lines of each curve of a panel under the command-line options (paper run count by K
    unless --runs).  A curve is one line, or one line per grid horizon for BTM and SAVAGE."""
    K = load_dataset(panel.dataset).K
    runs = args.runs or paper_runs(K)
    horizon = args.horizon if (args.quick or args.horizon != args.default_horizon or panel.horizon is None) \
        else panel.horizon
    curves = []
    for entry in panel.algorithms:
        tag, name, params = (entry, entry, ()) if isinstance(entry, str) else entry
        params = tuple(sorted(dict(params).items()))
        horizons = ete_horizons(horizon) if get_algorithm(name).needs_horizon else [horizon]
        curves.append([Line(dataset=panel.dataset, algorithm=name, horizon=h, runs=runs, params=params,
                            tag=tag if tag != name else "", delay=panel.delay, shuffle=panel.shuffle)
                       for h in horizons])
    return curves


def combine_ete(results: list[LineResult]) -> LineResult:
    """One curve from runs at several horizons: the point at T_h is R(T_h) of the runs of horizon T_h."""
    last = results[-1]
    return LineResult(
        line=last.line, label=last.label,
        checkpoints=np.array([res.line.horizon for res in results], dtype=np.int64),
        regret=np.column_stack([res.final for res in results]).astype(np.float64),
        g2w=np.column_stack([res.g2w[:, -1] for res in results]),
        final=last.final, self_counts=last.self_counts, permutations=last.permutations,
        meta={**last.meta, "ete_horizons": [int(res.line.horizon) for res in results]},
    )


def simulate_panels(name: str, panels, args) -> list:
    """Run (or load, with --plot-only) every panel's curves; returns [(title, [LineResult])]."""
    curves = [panel_curves(panel, args) for panel in panels]
    flat = [line for panel in curves for curve in panel for line in curve]
    if args.plot_only:
        results = []
        for line in flat:
            dataset, spec = validate_line(line)
            results.append(load_line(line, dataset, spec, args.out, args.seed))
    else:
        with backend_context(args):
            results = run_lines(flat, name, args.out, args.seed, n_jobs=args.n_jobs, force=args.force,
                                progress=not args.no_progress, backend=args.backend)
    out, k = [], 0
    for panel, panel_lines in zip(panels, curves):
        merged = []
        for curve in panel_lines:
            part = results[k:k + len(curve)]
            k += len(curve)
            merged.append(part[0] if len(part) == 1 else combine_ete(part))
        out.append((panel.title, merged))
    return out


def regret_figure(name: str, description: str, panels, default_horizon: int, claims=None, argv=None):
    """Entry point of a regret-figure script: parse the CLI, simulate, plot, tabulate and check claims.

    Writes ``<figures>/<name>.png|pdf|csv`` (curves), ``<name>_final.csv`` (R(T) per line) and, when
    ``claims(panels_results) -> list[dict]`` is given, ``<name>_claims.csv``; prints both tables.
    """

    def main():
        args = resolve(build_parser(description, default_horizon).parse_args(argv))
        results = simulate_panels(name, panels, args)
        stem = args.figures / name
        plot_regret_panels(results, stem, zooms=[panel.zoom for panel in panels])
        table = final_table(results)
        write_table(table, stem.with_name(f"{name}_final.csv"))
        with pd.option_context("display.width", 160, "display.max_columns", 20):
            print(table.to_string(index=False, float_format=lambda v: f"{v:.2f}"))
            if claims is not None:
                checks = pd.DataFrame(claims(results))
                write_table(checks, stem.with_name(f"{name}_claims.csv"))
                print(checks.to_string(index=False))
        print(f"wrote {stem}.png, .pdf, .csv")

    main_guard(main)
