"""Fig. 2, the study: the standard deviation of the regret R(T) at T = 1e6 on the two 5-armed MSLR matrices,
computed from Fig. 1's stored runs (it simulates nothing: its ``Study`` has no panels of its own), and its claim C15a.
Each algorithm's STD over runs is normalised two ways, by ECW-RMED's mean regret (the paper's caption) and by the
algorithm's own mean regret (its text).  Drawn by ``build``; its script is ``reproduce/fig2_regret_std.py``."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.reproduce.claims.paper_checks import panel_result, panel_site
from dts_reproduction.reproduce.claims.registry import FIG2
from dts_reproduction.reproduce.claims.verdict import (
    CLEAR_FACTOR,
    COMPARABLE_FACTOR,
    Estimate,
    Missing,
    above,
    best,
    checked,
    mean_se,
    ratio_of,
    spread,
    spread_over_mean,
    within_factor,
    worst,
)
from dts_reproduction.reproduce.harness.runner import chunk_plan, stored_chunk, validate_line
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.plotting import FIGURE_WIDTH, Z_95, bars_axes, figure_legend, setup_theme
from dts_reproduction.reproduce.output.tables import print_table, write_table
from dts_reproduction.reproduce.studies.experiment import (
    curves_and_stores,
    evidence_note,
    print_checks,
    save_figure_with_claims,
    simulate_panels,
)
from dts_reproduction.reproduce.studies.paper_panels import FIG1_PANELS
from dts_reproduction.reproduce.studies.study import Study, make_command

C15A_PANEL = "mslr5_noncondorcet"  # the Fig. 1 panel (Panel.key) whose STDs the paper quotes
# C15a's printed numbers (Sec. 5.2): ECW-RMED's STD is "about 200%" of its mean, D-TS+'s normalised STD 13.16%.
PAPER_ECW_STD_RATIO = 2.0
PAPER_DTS_PLUS_STD_RATIO = 0.1316
# The two rows of the figure: (column of std_table, y label).
NORMALISATIONS = (("std_over_ecw_mean", "STD of R(T)\n/ ECW-RMED's mean R(T)"),
                  ("std_over_own_mean", "STD of R(T)\n/ its own mean R(T)"))
ERROR_BAR_NOTE = ("bar: STD of R(T) over runs, divided by ECW-RMED's (top) or the algorithm's own (bottom) mean R(T);\n"
                  "error bar: ± 1.96 bootstrap standard errors of that ratio")


def regret_at(result, t: int) -> np.ndarray:
    """Per-run R(t): the final regret of runs with horizon t, else the value at the checkpoint t."""
    if result.line.horizon == t:
        return np.asarray(result.final, dtype=np.float64)
    k = int(np.searchsorted(result.checkpoints, t))
    if k >= result.checkpoints.size or result.checkpoints[k] != t:
        raise ValueError(f"{result.line.name} on {result.line.dataset}: no checkpoint at t = {t}")
    return result.regret[:, k].astype(np.float64)


def std_table(results, t: int) -> pd.DataFrame:
    """Per panel and curve: mean and STD of R(t), and the STD over ECW-RMED's mean and over its own mean,
    each with a bootstrap standard error."""
    rows = []
    for title, curves in results:
        values = {res.line.name: regret_at(res, t) for res in curves}
        ecw_mean = mean_se(values["ecw_rmed"]) if "ecw_rmed" in values else None
        for res in curves:
            v = values[res.line.name]
            std = spread(v)
            mean = mean_se(v)
            by_own = spread_over_mean(v)  # STD and mean of the same runs: not independent
            if res.line.name == "ecw_rmed":
                by_ecw = by_own
            else:
                by_ecw = ratio_of(std, ecw_mean) if ecw_mean is not None else Estimate(np.nan, np.nan)
            rows.append({"panel": title, "algorithm": res.line.name, "label": res.label, "t": t, "runs": v.size,
                         "mean": mean.value, "std": std.value, "std_se": std.se,
                         "std_over_ecw_mean": by_ecw.value, "std_over_ecw_mean_se": by_ecw.se,
                         "std_over_own_mean": by_own.value, "std_over_own_mean_se": by_own.se,
                         "color": get_algorithm(res.line.algorithm).color})
    return pd.DataFrame(rows)


def c15a(table: pd.DataFrame, title: str) -> list[dict]:
    """C15a (Sec. 5.2) on Fig. 1(b)'s runs (``C15A_PANEL``, titled ``title``): ECW-RMED's STD about 200% of its
    mean; D-TS+'s normalised STD 13.16% (checked under both normalisations); D-TS and D-TS+ much smaller STD than
    ECW-RMED."""
    rows = table[table["panel"] == title].set_index("algorithm")
    site = panel_site(FIG2, "Fig. 2", C15A_PANEL, title)

    def est(name, column):
        """The panel's ``column`` for algorithm ``name`` with its standard error; Missing if not drawn."""
        if name not in rows.index:
            raise Missing(name)
        return Estimate(float(rows.loc[name, column]), float(rows.loc[name, f"{column}_se"]))

    def ecw_about_200():
        """(text, verdict): ECW-RMED's STD over its own mean within COMPARABLE_FACTOR of the paper's."""
        own = est("ecw_rmed", "std_over_own_mean")
        return f"ECW-RMED STD/mean {own.value:.0%} +- {own.se:.0%}", within_factor(
            own, Estimate(PAPER_ECW_STD_RATIO, 0.0), COMPARABLE_FACTOR)

    def plus_1316():
        """(text, verdict): D-TS+'s normalised STD near the paper's, under the better of the two normalisations."""
        by_ecw, by_own = est("dts_plus", "std_over_ecw_mean"), est("dts_plus", "std_over_own_mean")
        paper = Estimate(PAPER_DTS_PLUS_STD_RATIO, 0.0)
        verdict = best(within_factor(by_ecw, paper, COMPARABLE_FACTOR), within_factor(by_own, paper, COMPARABLE_FACTOR))
        return (f"D-TS+ STD / ECW-RMED mean {by_ecw.value:.1%}, / own mean {by_own.value:.1%} "
                f"(paper {PAPER_DTS_PLUS_STD_RATIO:.2%})", verdict)

    def smaller():
        """(text, verdict): ECW-RMED's STD CLEAR_FACTOR above both D-TS's and D-TS+'s."""
        ecw = est("ecw_rmed", "std")
        verdict = worst(*(above(ecw, est(d, "std"), CLEAR_FACTOR) for d in ("dts", "dts_plus")))
        return (f"STD: ECW-RMED {ecw}, D-TS {est('dts', 'std')}, D-TS+ {est('dts_plus', 'std')}"), verdict

    return [checked("C15a", site, f"ECW-RMED STD about {PAPER_ECW_STD_RATIO:.0%} of its mean (within "
                    f"x{COMPARABLE_FACTOR:g})", ecw_about_200),
            checked("C15a", site, f"D-TS+ normalised STD about {PAPER_DTS_PLUS_STD_RATIO:.2%} (within "
                    f"x{COMPARABLE_FACTOR:g}, either normalisation)", plus_1316),
            checked("C15a", site, f"STD of D-TS and D-TS+ below ECW-RMED's (x{CLEAR_FACTOR:g})", smaller)]


def missing_lines(settings: Settings) -> list[str]:
    """The lines of Fig. 1 (under the same ``settings``) whose runs are not all stored and intact, by name."""
    _, stores = curves_and_stores(FIG1_PANELS, settings)
    missing = []
    for line, out in stores.items():
        dataset, _spec = validate_line(line)
        for _start, _stop, path, config in chunk_plan(line, dataset, out, settings.seed):
            if stored_chunk(path, config, dataset, line.kind)[0] is None:
                missing.append(f"{line.name} on {line.dataset} at T = {line.horizon} ({path})")
                break
    return missing


def build(settings: Settings) -> None:
    """Check that every line of Fig. 1 under ``settings`` is stored (else one ValueError naming how many are missing
    and the first, before any file is written), load them, tabulate the STD at T, draw the two normalisations, check
    C15a."""
    t = settings.horizon  # Fig. 1(a)'s horizon (scale.panel_horizon); Fig. 1(b)'s longer runs are read at t
    missing = missing_lines(settings)
    if missing:
        raise ValueError(f"Fig. 2 is computed from Fig. 1's stored runs, and {len(missing)} of its lines are not "
                         f"stored (first: {missing[0]}): run reproduce/fig1_mslr.py with the same flags first")
    results = simulate_panels(FIG2, FIG1_PANELS, settings)
    table = std_table(results, t)
    stem = settings.figures / FIG2
    write_table(table.drop(columns="color"), stem.with_suffix(".csv"))
    setup_theme()
    fig, axes = plt.subplots(2, len(results), figsize=(FIGURE_WIDTH, 4.4), squeeze=False)
    for col, (title, _) in enumerate(results):
        rows = table[table["panel"] == title].copy()
        for row, (column, label) in enumerate(NORMALISATIONS):
            rows["ci"] = Z_95 * rows[f"{column}_se"]
            bars_axes(axes[row, col], rows, column, "ci", f"{title}, T = {t:g}", label)
    bottom = figure_legend(fig, [], ERROR_BAR_NOTE)
    claims = c15a(table, panel_result(FIG1_PANELS, results, C15A_PANEL)[0])
    checks = save_figure_with_claims(fig, stem, bottom, claims, evidence_note(settings, FIG1_PANELS))
    print_table(table.drop(columns=["color"] + [c for c in table.columns if c.endswith("_se")]))
    print_checks(checks, stem)


FIG2_STUDY = Study(FIG2, make_command(FIG2), build=build)
