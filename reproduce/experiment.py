"""What every regret-figure script shares: panels -> lines -> run/load -> plot, table and claim checks.

A figure script declares its panels and its claim checks and calls ``regret_figure``; the command
line is ``reproduce.cli``'s.  ``simulate`` (cached, resumable) and ``plot`` (cheap, re-runnable with
``--plot-only``) are separate steps.
"""

import argparse
import sys
from dataclasses import dataclass

import numpy as np
import pandas as pd

from algorithms import get_algorithm
from data import load_dataset
from reproduce.claims import QUICK_PREFIX, REDUCED_PREFIX, not_evidence_verdict
from reproduce.cli import backend_context, build_parser, main_guard, power_of_ten, resolve
from reproduce.lower_bounds import lower_bound
from reproduce.paper_config import paper_runs
from reproduce.plotting import final_table, plot_regret_panels, save_figure, write_table
from reproduce.runner import Line, LineResult, line_key, load_line, run_lines, validate_line

QUICK_NOTICE = ("quick run (few runs, short horizon): a smoke test of the pipeline, NOT evidence for or against the "
                "paper's claims; verdicts are marked as such")


@dataclass(frozen=True)
class Curve:
    """One curve of a panel: ``algorithm`` (registry name) with ``params`` ((name, value) pairs or a
    dict); ``tag`` names it in the legend and tables when one panel holds two variants of an algorithm;
    ``shuffle=False`` keeps the dataset's arm order in every run (drawn dashed)."""

    algorithm: str
    params: tuple = ()
    tag: str = ""
    shuffle: bool = True


@dataclass(frozen=True)
class Panel:
    """One subplot: ``algorithms`` (registry names or ``Curve``s) on ``dataset``.

    horizon overrides the script's default horizon for this panel (unless --horizon or --quick is given,
    even --horizon equal to the default);
    delay is passed to every line (feedback batched every d slots); shuffle=False keeps the file's arm
    order in every curve; zoom: y limit at which the panel is clipped, its full range going to an inset
    (``plotting.plot_regret_panels``), if any; metric: "regret" (Eq. 1, Copeland regret) or "g2w"
    (gap-to-Condorcet-winner regret, only for datasets with a Condorcet winner).
    """

    dataset: str
    title: str
    algorithms: tuple
    horizon: int | None = None
    delay: int = 1
    shuffle: bool = True
    zoom: float | None = None
    metric: str = "regret"

    def curves(self) -> tuple:
        """The panel's entries as ``Curve``s."""
        return tuple(entry if isinstance(entry, Curve) else Curve(entry, shuffle=self.shuffle)
                     for entry in self.algorithms)


def ete_horizons(horizon: int) -> list[int]:
    """Horizons at which explore-then-exploit algorithms are re-run, up to ``horizon``
    (docs/experiments.md#explore-then-exploit-algorithms).

    The authors' grid starts at 10 and adds x and 3x while x <= T (x <- 10x); the points above T are
    not plotted (the axis is clipped at T), so they are not run here.  T itself closes the curve.
    """
    grid, x = [], 10
    while x <= horizon:
        grid += [x, 3 * x]
        x *= 10
    return sorted({h for h in grid if h < horizon} | {horizon})


def horizon_given(args) -> bool:
    """Whether --horizon was given: then it replaces every panel's own horizon (e.g. Fig. 1(b)'s 2e6).  A
    namespace built in code without ``horizon_given`` counts a horizon other than the default as given."""
    return getattr(args, "horizon_given", args.horizon != args.default_horizon)


def panel_curves(panel: Panel, args) -> list[list[Line]]:
    """The lines of each curve of a panel under the command-line options (paper run count by K
    unless --runs; with --fast, each algorithm's ``AlgorithmSpec.fast`` parameters unless the curve
    sets them).  A curve is one line, or one line per grid horizon for BTM and SAVAGE."""
    K = load_dataset(panel.dataset).K
    runs = args.runs or paper_runs(K)
    horizon = args.horizon if (args.quick or horizon_given(args) or panel.horizon is None) else panel.horizon
    curves = []
    for curve in panel.curves():
        fast = get_algorithm(curve.algorithm).fast if getattr(args, "fast", False) else {}
        params = tuple(sorted({**fast, **dict(curve.params)}.items()))
        horizons = ete_horizons(horizon) if get_algorithm(curve.algorithm).needs_horizon else [horizon]
        curves.append([Line(dataset=panel.dataset, algorithm=curve.algorithm, horizon=h, runs=runs, params=params,
                            tag=curve.tag, delay=panel.delay, shuffle=curve.shuffle)
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
        meta={**last.meta, "ete_horizons": [int(res.line.horizon) for res in results],
              **{key: float(sum(res.meta.get(key, 0.0) for res in results))
                 for key in ("worker_seconds", "cpu_seconds")}},
    )


def curves_and_stores(panels, args) -> tuple[list, list]:
    """Every panel's curves (``panel_curves``) and, for their lines flattened in order, the results folder
    of each: ``args.out``, except that with --fast a line that --fast leaves unchanged (an algorithm
    without fast path, or a curve that sets its fast parameters itself) is the default line, read from
    and stored in the defaults' folder ``args.default_out`` -- the same runs, never computed twice."""
    curves = [panel_curves(panel, args) for panel in panels]
    flat = [line for panel in curves for curve in panel for line in curve]
    if not getattr(args, "fast", False):
        return curves, [args.out] * len(flat)
    plain = argparse.Namespace(**{**vars(args), "fast": False})
    defaults = [line for panel in panels for curve in panel_curves(panel, plain) for line in curve]
    return curves, [args.default_out if line == default else args.out
                    for line, default in zip(flat, defaults, strict=True)]


def simulate_panels(name: str, panels, args) -> list:
    """Run (or, with --plot-only, load) every panel's curves; returns [(title, [LineResult])].

    Each line is stored in the folder ``curves_and_stores`` gives it.  With --plot-only nothing is written
    into the results folders: a curve whose runs are not all stored yet is left out of its panel (listed on
    stderr), so that a figure whose computation is still under way can be drawn (its claims then read "not
    measured"); if no curve at all is stored, ValueError (one line: nothing to draw).
    """
    curves, stores = curves_and_stores(panels, args)
    flat = [line for panel in curves for curve in panel for line in curve]
    results = [None] * len(flat)
    for out in dict.fromkeys(sorted(stores, key=lambda folder: folder == args.out)):  # the defaults first
        index = [k for k, store in enumerate(stores) if store == out]
        lines = [flat[k] for k in index]
        if args.plot_only:
            found = [stored_line(line, out, args.seed) for line in lines]
        else:
            with backend_context(args):
                found = run_lines(lines, name, out, args.seed, n_jobs=args.n_jobs, force=args.force,
                                  progress=not args.no_progress, backend=args.backend)
        for k, result in zip(index, found, strict=True):
            results[k] = result
    if all(result is None for result in results):
        raise ValueError(f"--plot-only: no stored results of {name} under {', '.join(map(str, dict.fromkeys(stores)))}"
                         f" (run it without --plot-only first)")
    out, k, missing = [], 0, []
    for panel, panel_lines in zip(panels, curves, strict=True):
        merged = []
        for curve in panel_lines:
            part = results[k:k + len(curve)]
            k += len(curve)
            if any(res is None for res in part):
                missing.append(f"{panel.title}: {curve[0].name}")
                continue
            merged.append(part[0] if len(part) == 1 else combine_ete(part))
        out.append((panel.title, merged))
    if missing:
        print(f"note: not computed yet, left out: {'; '.join(missing)}", file=sys.stderr)
    write_table(lines_table(flat, results), args.figures / f"{name}_lines.csv")
    return out


def stored_line(line: Line, out, seed: int) -> LineResult | None:
    """The stored results of ``line`` under ``out``, or None if some of its chunks are missing or stale
    (only read: nothing is written)."""
    dataset, spec = validate_line(line)
    try:
        return load_line(line, dataset, spec, out, seed)
    except ValueError:
        return None


def lines_table(lines, results) -> pd.DataFrame:
    """What a figure drew: per line its dataset, algorithm, parameters, horizon, delay, runs, the worker
    seconds its stored runs took and the commits that computed them ("missing" if not stored yet)."""
    rows = []
    for line, res in zip(lines, results, strict=True):
        meta = res.meta if res is not None else {}
        rows.append({"dataset": line.dataset, "line": line_key(line), "algorithm": line.name, "horizon": line.horizon,
                     "delay": line.delay, "runs": line.runs if res is not None else 0,
                     "worker_seconds": meta.get("worker_seconds", 0.0), "cpu_seconds": meta.get("cpu_seconds", 0.0),
                     "commits": " ".join(meta.get("commits", ["missing"]))})
    return pd.DataFrame(rows)


def evidence_note(args, panels) -> str | None:
    """Why the claim verdicts of this run are not evidence for the paper: QUICK_PREFIX with --quick,
    REDUCED_PREFIX when some panel has fewer runs than the paper's rule or a shorter horizon than its
    paper horizon (--runs, --horizon); None at the paper's scale."""
    if args.quick:
        return QUICK_PREFIX
    for panel in panels:
        lines = [line for curve in panel_curves(panel, args) for line in curve]
        paper_horizon = panel.horizon or args.default_horizon
        if min(line.runs for line in lines) < paper_runs(load_dataset(panel.dataset).K) or \
                max(line.horizon for line in lines) < paper_horizon:
            return REDUCED_PREFIX
    return None


def write_claims(rows: list[dict], path, note: str | None) -> pd.DataFrame:
    """Write the claims table; with a ``note`` (``evidence_note``: a quick run or one below the paper's
    scale) every verdict is marked with it as not evidence for the paper."""
    checks = pd.DataFrame(rows, columns=["claim", "where", "statement", "measured", "verdict"])
    if note:
        checks["verdict"] = checks["verdict"].map(lambda verdict: not_evidence_verdict(verdict, note))
    write_table(checks, path)
    return checks


def save_figure_with_claims(fig, stem, bottom: float, claim_rows: list[dict], note: str | None) -> pd.DataFrame:
    """Lay ``fig`` out above the fraction ``bottom`` of its height (the band ``plotting.figure_legend``
    returns), write ``stem``.png/.pdf and ``<stem name>_claims.csv`` (``write_claims``); return the claims
    table."""
    fig.tight_layout(rect=(0, bottom, 1, 1))
    save_figure(fig, stem)
    return write_claims(claim_rows, stem.with_name(f"{stem.name}_claims.csv"), note)


def print_checks(checks: pd.DataFrame, stem) -> None:
    """Print a figure's claims table (without the statements) and the files it wrote."""
    print_table(checks.drop(columns="statement"))
    print(f"wrote {stem}.png, .pdf, .csv")


def regret_figure(name: str, description: str, panels, default_horizon: int, claims=None, argv=None):
    """Entry point of a regret-figure script: parse the CLI, simulate, plot, tabulate and check claims.

    Writes ``<figures>/<name>.png|pdf|csv`` (curves), ``<name>_final.csv`` (R(T) per line) and, when
    ``claims(panels_results) -> list[dict]`` is given, ``<name>_claims.csv``; prints both tables.
    """

    def main():
        """Parse and check the command line, then simulate, draw, tabulate and check the claims."""
        args = resolve(build_parser(description, default_horizon,
                                    horizon_help=panel_horizons_help(panels, default_horizon)).parse_args(argv))
        results = simulate_panels(name, panels, args)
        stem = args.figures / name
        bounds = [lower_bound(panel.dataset, args.out, store=not args.plot_only) if panel.metric == "regret" else None
                  for panel in panels]
        plot_regret_panels(results, stem, zooms=[panel.zoom for panel in panels],
                           metrics=[panel.metric for panel in panels],
                           references=[(b[0], LOWER_BOUND_LABEL) if b else None for b in bounds])
        table = with_lower_bounds(final_table([(title, res) for (title, res), panel in zip(results, panels, strict=True)
                                               if panel.metric == "regret"]),
                                  {title: b for (title, _), b in zip(results, bounds, strict=True) if b})
        write_table(table, stem.with_name(f"{name}_final.csv"))
        print_table(table[["panel", "label", "runs", "mean_final_regret", "sem_final_regret", "slope_last_decade",
                           "lower_bound_slope"]])
        if claims is not None:
            checks = write_claims(claims(results), stem.with_name(f"{name}_claims.csv"), evidence_note(args, panels))
            print_table(checks.drop(columns="statement"))
        if args.quick:
            print(QUICK_NOTICE)
        print(f"wrote {stem}.png, .pdf, .csv")

    main_guard(main)


LOWER_BOUND_LABEL = "slope C of the lower bound"


def panel_horizons_help(panels, default_horizon: int) -> str:
    """The ``--horizon`` help of a regret figure: its paper horizons, naming the panels with their own."""
    own = [f"{power_of_ten(panel.horizon)} for {panel.title}" for panel in panels
           if panel.horizon not in (None, default_horizon)]
    return (f"time horizon T of every panel, e.g. 100000 or 1e5 (default: the paper's, {power_of_ten(default_horizon)}"
            + (f"; {'; '.join(own)}" if own else "") + ")")


def with_lower_bounds(table: pd.DataFrame, bounds: dict) -> pd.DataFrame:
    """``table`` (a ``final_table``) with each panel's asymptotic lower bound: its constant C (R(T) >= C ln T
    asymptotically), the bound's model, and C ln T at each curve's horizon."""
    table = table.copy()
    table["lower_bound_slope"] = table["panel"].map(lambda title: bounds[title][0])
    table["lower_bound_model"] = table["panel"].map(lambda title: bounds[title][1])
    table["lower_bound_at_T"] = table["lower_bound_slope"] * np.log(table["horizon"].astype(float))
    return table


def figure_main(description: str, default_horizon: int, build, argv=None, **flags) -> None:
    """Entry point of a figure script that is not a plain regret figure: parse the common CLI (``flags``:
    the options of ``build_parser`` that choose the flags the script offers), then call ``build(args)``;
    bad input (ValueError) becomes one ``error:`` line and exit status 2."""

    def main():
        """Parse and check the command line, then build the figure."""
        args = resolve(build_parser(description, default_horizon, **flags).parse_args(argv))
        build(args)
        if args.quick:
            print(QUICK_NOTICE)

    main_guard(main)


def print_table(frame: pd.DataFrame) -> None:
    """Print a result table in full on stdout."""
    with pd.option_context("display.width", 200, "display.max_columns", 30, "display.max_colwidth", 90):
        print(frame.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
