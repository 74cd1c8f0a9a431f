"""Fig. 5, the study: diversity of exploitation -- how D-TS, D-TS+ and ECW-RMED share their self-comparisons among
the Copeland winners on Non-Condorcet Cyclic and MSLR K=16 non-Condorcet -- its panels and its claim C14.  An
exploitation of winner c is a slot with a1 = a2 = c; per algorithm, each winner's share of all winner
self-comparisons in one sample path (run ``SAMPLE_PATH_RUN``) and over every run.  Drawn by ``build``; its script is
``reproduce/fig5_diversity.py``."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.claims.paper_checks import panel_site
from dts_reproduction.reproduce.claims.registry import FIG5
from dts_reproduction.reproduce.claims.verdict import (
    SUBSTANTIAL_SHARE,
    above,
    by_name,
    checked,
    exceeds,
    mean_se,
    need,
    worst,
)
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.output.plotting import FIGURE_WIDTH, figure_legend, setup_theme, shares_axes
from dts_reproduction.reproduce.output.tables import write_table
from dts_reproduction.reproduce.studies.experiment import (
    Panel,
    evidence_note,
    print_checks,
    save_figure_with_claims,
    simulate_panels,
)
from dts_reproduction.reproduce.studies.study import Study, make_command

ALGORITHMS = ("dts", "dts_plus", "ecw_rmed")
PANELS = (
    Panel("nc_cyclic", "(a) Non-Condorcet Cyclic", ALGORITHMS),
    Panel("mslr16_noncondorcet", "(b) MSLR K=16, non-Condorcet", ALGORITHMS),
)
SAMPLE_PATH_RUN = 0


def winner_shares(result) -> np.ndarray:
    """(runs, winners) share of each Copeland winner among the winner self-comparisons of each run (0 for a
    run without any)."""
    winners = load_dataset(result.line.dataset).winners
    counts = result.self_counts[:, winners].astype(np.float64)
    totals = counts.sum(axis=1, keepdims=True)
    return np.divide(counts, totals, out=np.zeros_like(counts), where=totals > 0)


def shares_table(results) -> pd.DataFrame:
    """Tidy rows (panel, algorithm, label, winner, kind "path"/"runs", run, share, count) of every curve."""
    rows = []
    for title, curves in results:
        for res in curves:
            dataset = load_dataset(res.line.dataset)
            shares = winner_shares(res)
            for w, winner in enumerate(dataset.winners):
                per_run = [{"panel": title, "algorithm": res.line.name, "label": res.label,
                            "winner": dataset.labels[winner], "kind": "runs", "run": run, "share": shares[run, w],
                            "count": int(res.self_counts[run, winner])} for run in range(shares.shape[0])]
                rows += per_run + [{**per_run[SAMPLE_PATH_RUN], "kind": "path"}]
    return pd.DataFrame(rows)


def c14(results) -> list[dict]:
    """C14 (Sec. 5.2 / Fig. 5): within one sample path D-TS spends its exploitations on every Copeland winner
    (each winner's share >= SUBSTANTIAL_SHARE), and this is typical over runs (the mean over runs of the
    smallest share exceeds it); D-TS+ is expected to concentrate more (Sec. 4.3's conjecture: its largest
    share is above D-TS's)."""
    rows = []
    for panel, (title, curves) in zip(PANELS, results, strict=True):
        r = by_name(curves)
        site = panel_site(FIG5, "Fig. 5", panel.key, title)

        def spread_over_all(r=r):
            """(text, verdict): every Copeland winner gets SUBSTANTIAL_SHARE of D-TS's exploitations."""
            (dts,) = need(r, "dts")
            shares = winner_shares(dts)
            path = shares[SAMPLE_PATH_RUN]
            smallest = mean_se(shares.min(axis=1))
            verdict = worst("holds" if path.min() >= SUBSTANTIAL_SHARE else "FAILS",
                            exceeds(smallest, SUBSTANTIAL_SHARE))
            return (f"path shares {', '.join(f'{s:.0%}' for s in path)}; smallest share over runs "
                    f"{smallest.value:.0%} +- {smallest.se:.0%}"), verdict

        def plus_concentrates(r=r):
            """(text, verdict): D-TS+'s largest winner share above D-TS's (mean over runs)."""
            dts, plus = need(r, "dts", "dts_plus")
            top = {name: mean_se(winner_shares(res).max(axis=1)) for name, res in (("dts", dts), ("dts_plus", plus))}
            return (f"largest share, mean over runs: D-TS {top['dts'].value:.0%}, D-TS+ {top['dts_plus'].value:.0%}",
                    above(top["dts_plus"], top["dts"]))

        rows += [checked("C14", site, f"D-TS gives every winner >= {SUBSTANTIAL_SHARE:.0%} of its exploitations "
                         "(the path, and on average the smallest share)", spread_over_all),
                 checked("C14", site, "conjecture (Sec. 4.3): D-TS+ concentrates more than D-TS", plus_concentrates)]
    return rows


def build(settings: Settings) -> None:
    """Simulate (or load) the lines under ``settings``, draw the shares, write the table and C14."""
    results = simulate_panels(FIG5, PANELS, settings)
    table = shares_table(results)
    stem = settings.figures / FIG5
    write_table(table, stem.with_suffix(".csv"))
    setup_theme()
    fig, axes = plt.subplots(1, len(results), figsize=(FIGURE_WIDTH, 2.6), squeeze=False)
    for ax, (title, curves) in zip(axes.flat, results, strict=True):
        runs = sorted({res.final.size for res in curves})
        shares_axes(ax, table[table["panel"] == title], f"{title} ({'/'.join(map(str, runs))} runs, "
                    f"T = {curves[0].line.horizon:g})", SAMPLE_PATH_RUN)
        ax.set_xlabel("Copeland winner (original id), per algorithm", labelpad=2)
    bottom = figure_legend(fig, axes.flat, ncol=1)
    checks = save_figure_with_claims(fig, stem, bottom, c14(results), evidence_note(settings, PANELS))
    paths = table[table["kind"] == "path"]
    for title, panel in paths.groupby("panel", sort=False):
        print(f"{title}: share of winner self-comparisons in run {SAMPLE_PATH_RUN}")
        print(panel.pivot_table(index="label", columns="winner", values="share", sort=False)
              .to_string(float_format=lambda v: f"{v:.1%}"))
    print_checks(checks, stem)


FIG5_STUDY = Study(FIG5, make_command(FIG5), PANELS, build=build)
