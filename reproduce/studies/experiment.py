"""What the studies share, as a library: panels -> lines -> run/load (``simulate_panels``) -> the
tables of lines and claims.

A study (``reproduce.studies.study.Study``) declares its panels and its claims; a script's command line (parsing,
``regret_figure``, ``figure_main``) is ``reproduce.cli.figure``'s: never imported here.  ``simulate`` (cached,
resumable) and ``plot`` (cheap, re-runnable with ``--plot-only``) are separate steps.  ``settings`` below is the
run's ``reproduce.harness.settings.Settings`` (the command line's: ``reproduce.cli.arguments.resolve``; a
library user's: ``Settings.library``); a flag named below is the field it sets.
"""

import sys
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.claims.verdict import (
    CLAIM_COLUMNS,
    QUICK_PREFIX,
    REDUCED_PREFIX,
    log_slope,
    not_evidence_verdict,
)
from dts_reproduction.reproduce.config.paper import paper_runs
from dts_reproduction.reproduce.config.scale import panel_horizon
from dts_reproduction.reproduce.harness import portable_math
from dts_reproduction.reproduce.harness.backends import backend_context
from dts_reproduction.reproduce.harness.runner import Line, LineResult, line_key, load_line, run_lines, validate_line
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.plotting import save_figure
from dts_reproduction.reproduce.output.tables import NOT_STORED, print_table, write_table


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

    horizon overrides the script's default horizon for this panel (``scale.panel_horizon``: unless --horizon
    or --quick is given, even --horizon equal to the default); runs overrides the paper's run count by K
    (``paper_runs``) unless --runs or --quick is given (a study past the paper that follows another protocol,
    e.g. 50 runs at K = 136 as the MergeDTS authors did);
    delay is passed to every line (feedback batched every d slots); shuffle=False keeps the file's arm
    order in every curve; zoom: y limit at which the panel is clipped, its full range going to an inset
    (``plotting.plot_regret_panels``), if any; metric: "regret" (Eq. 1, Copeland regret), "g2w"
    (gap-to-Condorcet-winner regret, only for datasets with a Condorcet winner) or "weak" (the weak regret,
    docs/harness.md#store: only for lines computed since it is stored; NaN otherwise).
    """

    dataset: str
    title: str
    algorithms: tuple
    horizon: int | None = None
    delay: int = 1
    shuffle: bool = True
    zoom: float | None = None
    metric: str = "regret"
    runs: int | None = None

    @property
    def key(self) -> str:
        """The panel's stable id within its figure, by which claims are attached (never its position or title): the
        matrix, and the metric when it is not the Copeland regret (``strong_borda``, ``strong_borda:g2w``)."""
        return self.dataset if self.metric == "regret" else f"{self.dataset}:{self.metric}"

    def own_runs(self) -> int:
        """The panel's run count at its own scale: ``runs``, else the paper's rule by K."""
        return self.runs or paper_runs(load_dataset(self.dataset).K)

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


def panel_curves(panel: Panel, settings: Settings) -> list[list[Line]]:
    """The lines of each curve of a panel under ``settings`` (the panel's run count, ``Panel.own_runs``, unless
    --runs; with --fast, each algorithm's ``AlgorithmSpec.fast`` parameters unless the curve sets them).  A curve is
    one line, or one line per grid horizon for BTM and SAVAGE."""
    runs = settings.runs or panel.own_runs()
    horizon = panel_horizon(settings, panel.horizon)
    curves = []
    for curve in panel.curves():
        fast = get_algorithm(curve.algorithm).fast if settings.fast else {}
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
        arrays={"checkpoints": np.array([res.line.horizon for res in results], dtype=np.int64),
                "regret": np.column_stack([res.final for res in results]).astype(np.float64),
                "g2w": np.column_stack([res.g2w[:, -1] for res in results]),
                "weak": np.column_stack([res.weak[:, -1] for res in results]),
                "final": last.final, "self_counts": last.self_counts, "permutation": last.permutations},
        meta={**last.meta, "ete_horizons": [int(res.line.horizon) for res in results],
              **{key: float(sum(res.meta.get(key, 0.0) for res in results))
                 for key in ("worker_seconds", "cpu_seconds")}},
    )


def curves_and_stores(panels, settings: Settings) -> tuple[list, dict]:
    """Every panel's curves (``panel_curves``) and the results folder of each of their lines, ``{line:
    folder}`` in the order the lines first appear: ``settings.out``, except that with --fast a line that --fast
    leaves unchanged (an algorithm without fast path, or a curve that sets its fast parameters itself) is
    the default line, read from and stored in the defaults' folder ``settings.default_out`` -- the same runs,
    never computed twice."""
    curves = [panel_curves(panel, settings) for panel in panels]
    flat = [line for panel in curves for curve in panel for line in curve]
    if not settings.fast:
        return curves, dict.fromkeys(flat, settings.out)
    plain = replace(settings, fast=False)
    defaults = [line for panel in panels for curve in panel_curves(panel, plain) for line in curve]
    stores = {}
    for line, default in zip(flat, defaults, strict=True):
        stores.setdefault(line, settings.default_out if line == default else settings.out)
    return curves, stores


def selected(line, settings: Settings) -> bool:
    """Whether ``line`` is among the lines the line selection of ``settings`` (--algorithms and --datasets,
    ``cli.arguments.add_line_selection``) selects; every line when neither is given."""
    return ((not settings.algorithms or line.algorithm in settings.algorithms)
            and (not settings.datasets or line.dataset in settings.datasets))


def check_selection(settings: Settings, lines) -> None:
    """The line selection of ``settings`` (--algorithms and --datasets) must name algorithms and matrices of
    ``lines`` (the study's); ValueError naming the first that does not, and what the study has."""
    for flag, chosen, known in (("--algorithms", settings.algorithms, {line.algorithm for line in lines}),
                                ("--datasets", settings.datasets, {line.dataset for line in lines})):
        unknown = [name for name in chosen or () if name not in known]
        if unknown:
            raise ValueError(f"{flag}: {unknown[0]!r} has no line in the study (it has: {', '.join(sorted(known))})")


def simulate_panels(name: str, panels, settings: Settings, order=None, known=None) -> list:
    """Run (or, with --plot-only, load) every panel's curves; returns [(title, [LineResult])].

    Each line is stored in the folder ``curves_and_stores`` gives it, and its result is looked up by the
    line itself.  ``known`` ({line: LineResult}, e.g. ``stored_lines`` of other folders), if given, holds lines
    already read: taken as they are, neither computed nor loaded again.  ``order``, if given, maps the list of every
    other line to the lines to compute, in the order to compute them (``simulate_lines``' ``computed``: each complete
    on disk before the next begins); the rest are only loaded.  With --plot-only nothing is written into the results
    folders: a curve whose runs are not all stored yet is left out of its panel (listed on stderr), so that a figure
    whose computation is still under way can be drawn (its claims then read "not measured"); if no curve at all is
    stored, ValueError (one line: nothing to draw).  Writes ``<figures>/<name>_lines.csv`` (``lines_table``).
    """
    curves, stores = curves_and_stores(panels, settings)
    known = known or {}
    todo = {line: folder for line, folder in stores.items() if line not in known}
    results = {**simulate_lines(name, todo, settings, None if order is None else order(list(todo))), **known}
    require_stored(name, results, stores.values())
    out, missing = panel_results([panel.title for panel in panels], curves, results)
    if missing:
        print(f"note: not computed yet, left out: {'; '.join(missing)}", file=sys.stderr)
    flat = [line for panel in curves for curve in panel for line in curve]
    write_table(lines_table(flat, [results[line] for line in flat]), settings.figures / f"{name}_lines.csv")
    return out


def stored_lines(panels, settings: Settings) -> dict:
    """{line: LineResult} of the lines of ``panels`` under ``settings`` that are stored whole, unchanged, in the
    folders ``curves_and_stores`` gives them; nothing is computed or written (``stored_line``)."""
    found = {line: stored_line(line, folder, settings.seed)
             for line, folder in curves_and_stores(panels, settings)[1].items()}
    return {line: result for line, result in found.items() if result is not None}


def require_stored(name: str, results: dict, folders) -> None:
    """ValueError, one line (nothing to draw), if no line of ``results`` ({line: LineResult or None}) of the study
    ``name`` is stored under ``folders``: what --plot-only finds in a folder where nothing was computed yet."""
    if all(result is None for result in results.values()):
        raise ValueError(f"--plot-only: no stored results of {name} under "
                         f"{', '.join(map(str, dict.fromkeys(folders)))} (run it without --plot-only first)")


def simulate_lines(name: str, stores: dict, settings: Settings, computed=None) -> dict:
    """The result of every line of ``stores`` ({line: results folder}), or None for a line not stored: the shared
    step of every figure and study.  Unless --plot-only, the lines are computed through ``run_lines`` (the defaults'
    folder first), under the backend, jobs, --force, cost bound and --stored-only of ``settings``; with ``computed`` (a
    list of lines) only those, one ``run_lines`` call each in the order given, so that every finished line is
    complete on disk, and every other line is only loaded.  With --plot-only or --stored-only, or for a line not
    computed, nothing is simulated or written, and a line whose code is unchecked is drawn as stored, named in one
    note (``note_unchecked_code``)."""
    results = {}
    for out in dict.fromkeys(sorted(stores.values(), key=lambda folder: folder == settings.out)):  # the defaults first
        lines = [line for line, store in stores.items() if store == out]
        if settings.plot_only:
            groups = []
        elif computed is None:
            groups = [lines]
        else:
            groups = [[line] for line in computed if stores.get(line) == out]
        if groups:
            with backend_context(settings):
                for group in groups:
                    found = run_lines(group, name, out, settings.seed, n_jobs=settings.n_jobs, force=settings.force,
                                      progress=settings.progress, backend=settings.backend,
                                      max_cpu_hours=settings.max_cpu_hours, compute=not settings.stored_only)
                    results.update(zip(group, found, strict=True))
        loaded = {line: stored_line(line, out, settings.seed) for line in lines if line not in results}
        note_unchecked_code({**loaded, **(results if settings.stored_only else {})})
        results.update(loaded)
    return {line: results[line] for line in stores}


def note_unchecked_code(results: dict) -> None:
    """One note on stderr naming the lines of ``results`` ({line: LineResult or None}, lines only loaded: with
    --plot-only, or not computed by this run) whose chunks are not known to come from the code as it is now
    (``LineResult.meta["unchecked_code"]``, docs/harness.md, "What a stored line knows of its code"): they are drawn as
    stored; a run that computes them (without --plot-only) re-checks them.  Nothing if there is none."""
    unchecked = [f"{line.dataset}/{line_key(line)} ({result.meta['unchecked_code']})"
                 for line, result in results.items() if result is not None and result.meta.get("unchecked_code")]
    if unchecked:
        more = f"; and {len(unchecked) - 3} more" if len(unchecked) > 3 else ""
        print(f"note: drawn as stored, their code unchecked (a run that computes them re-checks it): "
              f"{'; '.join(unchecked[:3])}{more}", file=sys.stderr)


def panel_results(titles, curves, results: dict) -> tuple[list, list[str]]:
    """[(title, [LineResult])] of the panels ``titles`` with their ``curves`` (per panel, per curve, its lines), read
    from ``results`` ({line: LineResult or None}; an explore-then-exploit curve's lines combined, ``combine_ete``), and
    the curves left out as not all stored ("<title>: <name>")."""
    out, missing = [], []
    for title, panel_lines in zip(titles, curves, strict=True):
        merged = []
        for curve in panel_lines:
            part = [results[line] for line in curve]
            if any(res is None for res in part):
                missing.append(f"{title}: {curve[0].name}")
                continue
            merged.append(part[0] if len(part) == 1 else combine_ete(part))
        out.append((title, merged))
    return out, missing


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
    seconds its stored runs took and the commits that computed them (NOT_STORED if not stored yet)."""
    rows = []
    for line, res in zip(lines, results, strict=True):
        meta = res.meta if res is not None else {}
        rows.append({"dataset": line.dataset, "line": line_key(line), "algorithm": line.name, "horizon": line.horizon,
                     "delay": line.delay, "runs": line.runs if res is not None else 0,
                     "worker_seconds": meta.get("worker_seconds", 0.0), "cpu_seconds": meta.get("cpu_seconds", 0.0),
                     "commits": " ".join(meta.get("commits", [NOT_STORED]))})
    return pd.DataFrame(rows)


def evidence_note(settings: Settings, panels) -> str | None:
    """Why the claim verdicts of a run of ``panels`` under ``settings`` are not evidence for the paper: QUICK_PREFIX
    with --quick, REDUCED_PREFIX when some panel has fewer runs than the paper's rule or a shorter horizon than its
    paper horizon (--runs, --horizon); None at the paper's scale."""
    if settings.quick:
        return QUICK_PREFIX
    for panel in panels:
        lines = [line for curve in panel_curves(panel, settings) for line in curve]
        paper_horizon = panel.horizon or settings.default_horizon
        if min(line.runs for line in lines) < panel.own_runs() or \
                max(line.horizon for line in lines) < paper_horizon:
            return REDUCED_PREFIX
    return None


def write_claims(rows: list[dict], path, note: str | None) -> pd.DataFrame:
    """Write the claims table; with a ``note`` (``evidence_note``: a quick run or one below the paper's
    scale) every verdict is marked with it as not evidence for the paper."""
    checks = pd.DataFrame(rows, columns=list(CLAIM_COLUMNS))
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


LOWER_BOUND_LABEL = "slope C of the lower bound"


def with_lower_bounds(table: pd.DataFrame, lower_bounds: dict, panels) -> pd.DataFrame:
    """``table`` (a ``final_table`` of some of ``panels``, which names each by its title) with each panel's
    asymptotic lower bound from ``lower_bounds`` ({panel id (``Panel.key``): (C, model, ...)}): its constant C
    (R(T) >= C ln T asymptotically), the lower bound's model, and C ln T at each curve's horizon."""
    panel_ids = table["panel"].map({panel.title: panel.key for panel in panels})
    table = table.copy()
    table["lower_bound_slope"] = panel_ids.map(lambda panel_id: lower_bounds[panel_id][0])
    table["lower_bound_model"] = panel_ids.map(lambda panel_id: lower_bounds[panel_id][1])
    table["lower_bound_at_T"] = table["lower_bound_slope"] * portable_math.log(table["horizon"].to_numpy(float))
    return table


def final_table(panels) -> pd.DataFrame:
    """Per panel and curve: runs, mean, std and standard error of the exact final regret R(T), the slope
    of R against ln t over the last decade with its standard error (``claims.verdict.log_slope``), and the worker
    seconds its stored runs took.  With one run the std and both s.e. are NaN (not estimable), never 0."""
    rows = []
    for title, results in panels:
        for res in results:
            final = np.asarray(res.final, dtype=np.float64)
            runs = final.shape[0]
            std = final.std(ddof=1) if runs > 1 else np.nan
            slope = log_slope(res)
            rows.append({"panel": title, "dataset": res.line.dataset, "algorithm": res.line.name,
                         "label": res.label, "horizon": res.line.horizon, "runs": runs,
                         "mean_final_regret": final.mean(), "std_final_regret": std,
                         "sem_final_regret": std / np.sqrt(runs), "slope_last_decade": slope.value,
                         "slope_se": slope.se if runs > 1 else np.nan,
                         "worker_seconds": res.meta.get("worker_seconds", 0.0)})
    return pd.DataFrame(rows)
