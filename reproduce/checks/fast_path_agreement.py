"""Whether the exact fast paths (``--fast``) give the same results as the defaults, line by line: ``stored_lines``
pairs every line stored under a results folder and its ``fast/`` sub-folder, ``compare`` tests each pair (the paired t
test of R(T), two-sample Kolmogorov-Smirnov, the curve at every decade checkpoint, Holm over all lines at
``FAMILY_LEVEL``) and gives the table (one row per line: both means, the paired difference and its standard error,
the three p-values, empty for an identical line, and the verdict) with how many lines are stored on one side only
(left out); ``summary`` gives its lines of text.  Why each test, and what "identical" means: the command line's
docstring, ``reproduce/fast_agreement.py``."""

import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.reproduce.checks.resimulate import intact_chunk, stream_split
from dts_reproduction.reproduce.claims.verdict import FAMILY_LEVEL  # over every test of every line
from dts_reproduction.reproduce.harness.runner import Line, line_identity
from dts_reproduction.reproduce.harness.store import ChunkError

OUTPUT_NAME = "fast_agreement.csv"
P_COLUMNS = ["p_paired_final", "p_ks_final", "p_curve"]  # the tests of each line
ROW_COLUMNS = ["dataset", "algorithm", "params", "fast_params", "horizon", "delay", "shuffle", "runs",
               "mean_default", "mean_fast", "mean_difference", "se_difference"]  # what names and sums up a line
MIN_LINES_UNIFORMITY = 20  # from this many lines on, the summary also tests the p-values for uniformity
AGREES, DISAGREES, IDENTICAL = "agrees", "DISAGREES", "identical"


class StoredChunk(NamedTuple):
    """What the comparison reads of one chunk: the run after its last, and its runs' arrays."""

    stop: int
    final: np.ndarray  # float64 (runs,): R(T)
    regret: np.ndarray  # float64 (runs, checkpoints): the regret curves
    checkpoints: np.ndarray  # int64 (checkpoints,)


@dataclass
class StoredLine:
    """The chunks of one line found in one results folder, by the first run they hold, and the line's ``config``
    (its chunks' config but the run range, with the parameters both folders share: what names its row)."""

    config: dict
    chunks: dict[int, StoredChunk] = field(default_factory=dict)

    def complete_runs(self) -> int:
        """Number of runs 0 .. n-1 stored without a gap (0 if run 0 is missing)."""
        stop = 0
        while stop in self.chunks:
            stop = self.chunks[stop].stop
        return stop

    def arrays(self, runs: int):
        """(final regrets, regret curves, checkpoints) of runs 0 .. runs-1."""
        parts, start = [], 0
        while start < runs:
            parts.append(self.chunks[start])
            start = parts[-1].stop
        return (np.concatenate([part.final for part in parts]), np.concatenate([part.regret for part in parts]),
                parts[0].checkpoints)


def shared_params(config: dict, fast_store: bool) -> dict | None:
    """The parameters of the line a chunk's ``config`` belongs to but its fast ones (what the two folders' lines
    share), or None if it is not a line this comparison covers (no fast path, a stale stream version, a fast
    parameter at neither value): a default-folder line must have every fast parameter at its default, a fast-folder
    line every one at its fast value."""
    spec = get_algorithm(config["algorithm"])
    if not spec.fast:
        return None
    params, versions = stream_split(spec, config["params"])
    resolved = spec.resolve_params(params)
    if versions != spec.stream_tags(resolved):  # drawn the way an older version drew: stale, not this code's law
        return None
    wanted = spec.fast if fast_store else {name: spec.defaults[name] for name in spec.fast}
    if any(resolved[name] != value for name, value in wanted.items()):
        return None
    return {name: value for name, value in resolved.items() if name not in spec.fast}


def paired_line(config: dict, dataset, shared: dict) -> Path:
    """The key pairing the line a chunk's ``config`` on ``dataset`` belongs to with its line in the other folder:
    the harness's identity of the line (``runner.line_identity``) with its ``shared`` parameters and its fast ones at
    their defaults, since those are what differs between the two folders."""
    line = Line(dataset=config["dataset"], algorithm=config["algorithm"], horizon=config["horizon"],
                runs=config["runs"][1], params=tuple(sorted(shared.items())), delay=config["delay"],
                shuffle=config["shuffle"])
    return line_identity(line, dataset, config["seed"])


def stored_lines(folder: Path, fast_store: bool) -> dict[Path, StoredLine]:
    """Every intact chunk directly below ``folder`` (``<dataset>/<line>/runs_*.npz``; the quick and fast
    sub-folders are other stores), grouped by line; a damaged chunk is named on stderr and left out."""
    lines: dict[Path, StoredLine] = {}
    for path in sorted(folder.glob("*/*/runs_*.npz")):
        try:
            chunk, dataset = intact_chunk(path)
        except ChunkError as error:
            print(f"note: left out: {error}", file=sys.stderr)
            continue
        config = chunk["meta"]["config"]
        shared = shared_params(config, fast_store)
        if shared is None:
            continue
        start, stop = config["runs"]
        described = {**{name: value for name, value in config.items() if name != "runs"}, "params": shared}
        lines.setdefault(paired_line(config, dataset, shared), StoredLine(described)).chunks[start] = StoredChunk(
            stop, chunk["final"].astype(np.float64), chunk["regret"].astype(np.float64), chunk["checkpoints"])
    return lines


def paired_p(differences: np.ndarray) -> float:
    """Two-sided p-value of the paired t test that the mean of ``differences`` is 0 (1 if they are all 0,
    0 if they all equal one non-zero value)."""
    spread = differences.std(ddof=1) if differences.size > 1 else 0.0
    if spread == 0:
        return 1.0 if np.all(differences == 0) else 0.0
    return float(stats.ttest_1samp(differences, 0.0).pvalue)


def curve_p(default_curves: np.ndarray, fast_curves: np.ndarray, checkpoints: np.ndarray) -> float:
    """Bonferroni combination of the paired tests at the decade checkpoints t = 10^k of the regret curves."""
    decades = [k for k, t in enumerate(checkpoints) if t >= 10 and 10 ** round(math.log10(t)) == t]
    if not decades:
        return 1.0
    smallest = min(paired_p(fast_curves[:, k] - default_curves[:, k]) for k in decades)
    return min(1.0, smallest * len(decades))


def holm_rejected(p_values: np.ndarray, level: float) -> np.ndarray:
    """Which of ``p_values`` Holm's step-down method rejects at family-wise error rate ``level``."""
    order = np.argsort(p_values, kind="stable")
    rejected = np.zeros(p_values.size, bool)
    for rank, index in enumerate(order):
        if p_values[index] > level / (p_values.size - rank):
            break
        rejected[index] = True
    return rejected


def compare(default: dict[Path, StoredLine], fast: dict[Path, StoredLine]) -> tuple[pd.DataFrame, int]:
    """One row per line complete on both sides with the same runs, in the order of their configs (as sorted JSON);
    and the number of lines left out because one side is missing or incomplete."""
    rows, left_out = [], len(set(default) ^ set(fast))
    for key in sorted(set(default) & set(fast), key=lambda key: json.dumps(default[key].config, sort_keys=True)):
        runs = default[key].complete_runs()
        if runs == 0 or runs != fast[key].complete_runs():
            left_out += 1
            continue
        info = default[key].config
        spec = get_algorithm(info["algorithm"])
        final_d, curves_d, checkpoints = default[key].arrays(runs)
        final_f, curves_f, _ = fast[key].arrays(runs)
        differences = final_f - final_d
        row = {"dataset": info["dataset"], "algorithm": info["algorithm"],
               "params": json.dumps(info["params"], sort_keys=True), "fast_params": json.dumps(dict(spec.fast)),
               "horizon": info["horizon"], "delay": info["delay"], "shuffle": info["shuffle"], "runs": runs,
               "mean_default": final_d.mean(), "mean_fast": final_f.mean(), "mean_difference": differences.mean(),
               "se_difference": differences.std(ddof=1) / np.sqrt(runs) if runs > 1 else np.nan}
        if np.array_equal(final_f, final_d) and np.array_equal(curves_f, curves_d):
            row.update(dict.fromkeys(P_COLUMNS, np.nan), verdict=IDENTICAL)
        else:
            row.update(p_paired_final=paired_p(differences),
                       p_ks_final=float(stats.ks_2samp(final_d, final_f).pvalue),
                       p_curve=curve_p(curves_d, curves_f, checkpoints), verdict=AGREES)
        rows.append(row)
    table = pd.DataFrame(rows, columns=[*ROW_COLUMNS, *P_COLUMNS, "verdict"])
    tested = table.index[table["verdict"] == AGREES]
    if len(tested):
        p_values = table.loc[tested, P_COLUMNS].to_numpy().ravel()
        rejected = holm_rejected(p_values, FAMILY_LEVEL).reshape(-1, len(P_COLUMNS)).any(axis=1)
        table.loc[tested[rejected], "verdict"] = DISAGREES
    return table, left_out


def summary(table: pd.DataFrame, left_out: int) -> list[str]:
    """The printed summary: counts per verdict (identical lines explained), the smallest p-values of the
    tested lines, and how uniform their paired tests' p-values are (under agreement they are uniform on
    [0, 1]; from MIN_LINES_UNIFORMITY tested lines on)."""
    lines = [f"{len(table)} lines compared, {left_out} stored on one side only or incomplete (left out)"]
    if table.empty:
        return lines
    counts = table["verdict"].value_counts()
    lines.append(", ".join(f"{counts[v]} {v}" for v in (AGREES, DISAGREES, IDENTICAL) if v in counts))
    if IDENTICAL in counts:
        lines.append("identical: the fast runs equal the default runs bit for bit (no fast step was taken in any "
                     "run, so the defaults' random stream was drawn); not tested")
    tested = table[table["verdict"] != IDENTICAL]
    if tested.empty:
        return lines
    lines.append(f"smallest p-values: paired R(T) {tested['p_paired_final'].min():.3g}, KS R(T) "
                 f"{tested['p_ks_final'].min():.3g}, curve {tested['p_curve'].min():.3g} "
                 f"(Holm over {len(P_COLUMNS) * len(tested)} tests at family-wise level {FAMILY_LEVEL})")
    if len(tested) >= MIN_LINES_UNIFORMITY:
        uniform = stats.kstest(tested["p_paired_final"], "uniform").pvalue
        lines.append(f"paired R(T) p-values of the {len(tested)} tested lines against the uniform law (expected "
                     f"under agreement): KS p = {uniform:.3g}")
    return lines
