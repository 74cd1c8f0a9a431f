"""What a line costs before it runs: the harness's one cost model (docs/harness.md, "Limits").

``estimated_run_seconds(line, dataset)`` is the CPU seconds of one run from the per-slot costs measured by
``bench/step_cost.py`` (``bench/step_cost.csv``: ns per slot per algorithm, fast-path options and K), and
``estimated_line_seconds`` the same for every run of the line.  A line partly stored (a run stopped and resumed) is
not costed by the model: its runs to compute are estimated at the CPU seconds its stored runs took
(``measured_run_seconds``, ``run_seconds``).  ``run_lines`` refuses a plan whose chunks to compute add up to more
than its CPU-hour bound (``reproduce.harness.limits.MAX_CPU_HOURS``).

The model, per run of T slots of an algorithm with K arms:

* every slot simulated (the defaults, a fast path that skips nothing, a matrix without a Condorcet winner, a
  feedback delay): T times the ns per slot after the warm-up (``ns_later``), linear in T;
* a fast path that skips runs of self-comparisons (``AlgorithmSpec.skip`` with the line's ``AlgorithmSpec.fast``
  parameters) on a matrix with a Condorcet winner that settles within T (``winner_settles``), without delay: the
  slots not skipped grow like log T, so
  beyond the measured whole run of ``whole_slots`` = T0 slots (``ns_whole`` a slot) the run costs
  ``ns_whole * T0 * (ln T / ln T0) ** 2`` -- an upper estimate: from T = 1e6 to 1e15 D-TS's fast path at K = 5
  and 32, RUCB's and CCB's skips at K = 16 and 32 took 2.4 to 5 times longer, the model says 6.25.

Between the measured K (5, 16, 32, 136, 500, 2000) every column is interpolated linearly in log K (log of the
column too), beyond them extrapolated from the last two (below K = 5: the K = 5 row).  An algorithm or options
the table does not hold (a plug-in, ``algorithms.plugins``, unless its rows were added to the table) are costed as
the most expensive built-in algorithm (``algorithms.ALGORITHMS``) at that K -- if its ``select`` and ``update`` are
numba dispatchers.  If either is plain Python (``runs_as_python``), the simulator runs its loop as Python
(``core.simulate.compiled_loop``), tens of times slower than any compiled slot: it is costed as the plain-Python
Copeland-UCB of tests/toy_plugins.py (``PLAIN_PYTHON``, the row of ``bench/plugin_cost.csv`` that ``make
bench-plugin`` measures, interpolated in K as above), or the most expensive built-in at that K if that is dearer.
The toy's select does a handful of NumPy operations on K x K arrays a slot, so this is the order of magnitude of a
Python algorithm, not a bound: one doing more Python work a slot costs more, and its own rows in the table
(``bench/step_cost.py --algorithms path/to/file.py:ATTR --csv ... --merge``) cost it as measured.
"""

import csv
import functools
import math

import numpy as np
from numba.core.dispatcher import Dispatcher

from dts_reproduction.algorithms import ALGORITHMS, get_algorithm
from dts_reproduction.reproduce.harness.paths import BENCH_TABLE, PLUGIN_TABLE

COLUMNS = ("ns_later", "ns_whole", "whole_slots")  # the bench table's columns the model reads
# The row of PLUGIN_TABLE (algorithm, options) that costs a slot of a plain-Python algorithm: the toy Copeland-UCB of
# tests/toy_plugins.py, its plain-Python transcription.
PLAIN_PYTHON = ("copeland_ucb_py", "-")


def options_text(algorithm: str, params) -> str:
    """The ``options`` column of bench/step_cost.csv for these parameters ("-" for none; only the fast-path
    options are benchmarked)."""
    fast = ALGORITHMS[algorithm].fast if algorithm in ALGORITHMS else {}
    chosen = [f"{name}={value}" for name, value in sorted(dict(params).items()) if name in fast]
    return " ".join(chosen) or "-"


def _number(text: str) -> float:
    """A cell of the bench table as a float (NaN if empty, not a number or not positive)."""
    try:
        value = float(text)
    except ValueError:
        return math.nan
    return value if value > 0 else math.nan


def step_costs() -> dict[tuple[str, str], dict[str, np.ndarray]]:
    """bench/step_cost.csv (``cost_table``)."""
    return cost_table(BENCH_TABLE)


def plugin_costs() -> dict[tuple[str, str], dict[str, np.ndarray]]:
    """bench/plugin_cost.csv, the toy plug-in's rows (``cost_table``)."""
    return cost_table(PLUGIN_TABLE)


@functools.cache
def cost_table(path) -> dict[tuple[str, str], dict[str, np.ndarray]]:
    """A table written by bench/step_cost.py's ``--csv`` by (algorithm, options): the measured K (increasing) and,
    per K, each of ``COLUMNS`` (NaN where not measured).  Empty if the table is missing."""
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    except OSError:
        return {}
    table = {}
    for row in rows:
        table.setdefault((row["algorithm"], row["options"]), []).append(row)
    return {key: {"K": np.array([float(row["K"]) for row in sorted(group, key=lambda row: int(row["K"]))]),
                  **{column: np.array([_number(row[column]) for row in sorted(group, key=lambda row: int(row["K"]))])
                     for column in COLUMNS}}
            for key, group in table.items()}


def _at_k(Ks: np.ndarray, values: np.ndarray, K: int) -> float:
    """``values`` (measured at ``Ks``) at K: linear in (log K, log value) between the measured points, the end
    segment extended beyond the largest, the smallest K's value below it; NaN if none is measured."""
    known = np.isfinite(values)
    Ks, values = Ks[known].tolist(), values[known].tolist()
    if not Ks:
        return math.nan
    if K <= Ks[0] or len(Ks) == 1:
        return values[0] if K <= Ks[0] else values[-1]
    at = min(int(np.searchsorted(Ks, K)), len(Ks) - 1)
    slope = math.log(values[at] / values[at - 1]) / math.log(Ks[at] / Ks[at - 1])
    return values[at - 1] * (K / Ks[at - 1]) ** slope


def _row_at_k(row: dict[str, np.ndarray], K: int) -> dict[str, float]:
    """Each of ``COLUMNS`` of one (algorithm, options) of a cost table at K (``_at_k``)."""
    return {column: _at_k(row["K"], row[column], K) for column in COLUMNS}


def runs_as_python(spec) -> bool:
    """Whether a run of ``spec`` goes through the simulator's loop as plain Python: its ``select`` or ``update`` is
    no numba dispatcher (``core.simulate.compiled_loop`` compiles the loop only when every kernel is one)."""
    return not all(isinstance(kernel, Dispatcher) for kernel in (spec.select, spec.update))


def _costs_at_k(algorithm: str, options: str, K: int, python: bool = False) -> dict[str, float]:
    """Each of ``COLUMNS`` for (algorithm, options) at K.  For an algorithm or options not in the table: the row at K
    with the largest ns per slot among the built-in algorithms' (its whole-run columns with it) and, if ``python``
    (the algorithm runs as plain Python), the ``PLAIN_PYTHON`` row of bench/plugin_cost.csv; all NaN if none."""
    table = step_costs()
    if (algorithm, options) in table:
        return _row_at_k(table[(algorithm, options)], K)
    candidates = [_row_at_k(row, K) for (name, _options), row in table.items() if name in ALGORITHMS]
    if python and PLAIN_PYTHON in plugin_costs():
        candidates.append(_row_at_k(plugin_costs()[PLAIN_PYTHON], K))
    known = [costs for costs in candidates if math.isfinite(costs["ns_later"])]
    return max(known, key=lambda costs: costs["ns_later"], default=dict.fromkeys(COLUMNS, math.nan))


def uses_skip(line) -> bool:
    """Whether ``line`` runs its algorithm's fast path and that path skips runs of self-comparisons (a ``skip``
    hook, its ``fast`` parameters set)."""
    spec = get_algorithm(line.algorithm)
    params = spec.resolve_params(dict(line.params))
    fast = bool(spec.fast) and all(params.get(name) == value for name, value in spec.fast.items())
    return spec.skip is not None and fast


def winner_settles(dataset, horizon: float) -> bool:
    """Whether the Condorcet winner of ``dataset`` can be told from its closest rival within ``horizon`` slots:
    the ln T / (2 gap^2) comparisons Hoeffding's bound needs at confidence 1 - 1/T, for the smallest gap
    p_{c,a} - 1/2, are fewer than T.  A skip only pays once the winner is settled, so a near-tie (a gap of
    1e-9) skips nothing at any feasible T."""
    gaps = np.delete(dataset.P[dataset.condorcet_winner], dataset.condorcet_winner) - 0.5
    T = float(horizon)
    return math.log(T) / (2.0 * float(np.min(gaps)) ** 2) < T


def skips_in_log_time(line, dataset) -> bool:
    """Whether a run of ``line`` skips all but about log T of its slots: it ``uses_skip``, the matrix has a
    Condorcet winner that ``winner_settles`` within the horizon and there is no feedback delay (a skip never
    passes a delivery)."""
    return (uses_skip(line) and dataset.has_condorcet_winner and line.delay == 1
            and winner_settles(dataset, line.horizon))


def estimated_run_seconds(line, dataset) -> float:
    """CPU seconds of one run of ``line`` on ``dataset`` (a ``data.Dataset``) by the model of this module's
    docstring; NaN if the bench table is missing."""
    in_log_time = skips_in_log_time(line, dataset)
    # A skipping fast path was benchmarked where it skips; where it cannot, every slot costs what a default slot does.
    options = "-" if not in_log_time and uses_skip(line) else options_text(line.algorithm, line.params)
    costs = _costs_at_k(line.algorithm, options, dataset.K, python=runs_as_python(get_algorithm(line.algorithm)))
    T = float(line.horizon)
    whole, slots = costs["ns_whole"], costs["whole_slots"]
    if in_log_time and math.isfinite(whole) and math.isfinite(slots):
        if T <= slots:
            return whole * T * 1e-9
        return whole * slots * (math.log(T) / math.log(slots)) ** 2 * 1e-9
    per_slot = costs["ns_later"] if math.isfinite(costs["ns_later"]) else whole
    return per_slot * T * 1e-9


def estimated_line_seconds(line, dataset) -> float:
    """CPU seconds of every run of ``line`` (``line.runs`` times ``estimated_run_seconds``)."""
    return line.runs * estimated_run_seconds(line, dataset)


def measured_run_seconds(metas) -> float:
    """CPU seconds a run took in the chunks whose metadata records are ``metas`` (chunks of one line, as stored:
    each with its ``config["runs"]`` range and ``cpu_seconds``), averaged over their runs; NaN if none has a CPU-time
    record.  A measurement of the line itself (its algorithm, parameters, matrix and horizon), so its missing runs are
    estimated from it where any are stored (``run_seconds``): the model above prices a slot from one bench matrix per
    K, and some algorithms cost several times more a slot on other matrices (docs/harness.md, "Limits")."""
    timed = [(meta["cpu_seconds"], meta["config"]["runs"]) for meta in metas
             if math.isfinite(meta.get("cpu_seconds", math.nan))]
    runs = sum(stop - start for _cpu, (start, stop) in timed)
    return sum(cpu for cpu, _runs in timed) / runs if runs else math.nan


def run_seconds(line, dataset, measured: float = math.nan) -> float:
    """CPU seconds of one run of ``line``: ``measured`` (``measured_run_seconds`` of its stored chunks) if it is a
    number, else the model's ``estimated_run_seconds``."""
    return measured if math.isfinite(measured) else estimated_run_seconds(line, dataset)


def check_plan_cost(work, max_cpu_hours: float, measured=None) -> float:
    """The estimated CPU hours of ``work``, ``(line, dataset, runs to compute)`` triples (the chunks a run has
    to compute, not those stored), each run at ``run_seconds`` (``measured``: {line: CPU seconds a stored run of it
    took}, for the lines partly stored); ValueError of one line naming the estimate, the costliest line and the flag
    that raises the bound if they exceed ``max_cpu_hours`` (``--max-cpu-hours``), or naming a line whose cost is
    unknown (no step-cost table) unless ``max_cpu_hours`` is inf (an unknown cost is never counted as zero)."""
    measured = measured or {}
    hours = [(runs * run_seconds(line, dataset, measured.get(line, math.nan)) / 3600, line, runs)
             for line, dataset, runs in work]
    unknown = [line for hour, line, _runs in hours if not math.isfinite(hour)]
    if unknown and math.isfinite(max_cpu_hours):
        raise ValueError(f"the cost of {unknown[0].name} on {unknown[0].dataset} cannot be estimated (no step costs "
                         f"in {BENCH_TABLE}): run it without a bound with --max-cpu-hours inf")
    total = sum(hour for hour, _line, _runs in hours if math.isfinite(hour))
    if total > max_cpu_hours:
        worst, line, runs = max(hours, key=lambda item: item[0])
        tables = "bench/step_cost.csv" + (" and bench/plugin_cost.csv" if runs_as_python(get_algorithm(line.algorithm))
                                          else "")
        raise ValueError(f"the plan is estimated at {total:.3g} CPU hours, over the bound of {max_cpu_hours:g} (the "
                         f"costliest line: {line.name} on {line.dataset}, {runs} run(s) of T = {line.horizon:.3g}, "
                         f"{worst:.3g} h; {tables}): raise it with --max-cpu-hours, or shorten the plan "
                         f"(--runs, --horizon; --fast on a matrix with a Condorcet winner)")
    return total
