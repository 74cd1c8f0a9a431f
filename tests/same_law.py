"""The whole-run check shared by every exact fast path (D-TS sampling="fast", skip="exact"): many runs of
the fast path and of the reference, then tests that the two samples have the same law."""

import numpy as np
from scipy import stats

from algorithms import get_algorithm
from data import load_dataset
from reproduce.harness.runner import log_grid, run_one

SEED = 99


def many_runs(dataset, name, params, horizon, runs, delay=1):
    """Runs 0 .. runs-1 of ``name`` with ``params`` on ``dataset`` (seed SEED, so the same shuffles for
    both paths): their regret curves, G2W curves and self-comparison counts, stacked by run."""
    ds, spec = load_dataset(dataset), get_algorithm(name)
    rows = [run_one(ds, spec, params, horizon, r, SEED, delay) for r in range(runs)]
    return {key: np.array([row[key] for row in rows]) for key in ("regret", "g2w", "self_counts")}


def assert_same_law(fast, ref, horizon, family_level):
    """Two ``many_runs`` samples agree: the regret at t ~ T/100, T/30, T/10, T/3 and at T (two-sample KS
    and Welch), the G2W regret at T where defined (Welch), and the total self-comparisons (Welch; equal
    constants where neither varies).  Each of these m <= 12 tests is run at family_level / m (Bonferroni),
    so two samples of one law fail with probability at most ``family_level``.  At family_level = 1e-3 and
    200 runs each, a mean shift of ~0.5 standard deviations at one checkpoint is detected with
    probability ~0.8 (z = 0.5 / sqrt(2 / 200) = 5 against a critical value of 3.9)."""
    grid = log_grid(horizon)
    picks = sorted({int(np.searchsorted(grid, horizon // d)) for d in (100, 30, 10, 3)} | {grid.size - 1})
    level = family_level / (2 * len(picks) + 2)
    for k in picks:
        a, b = fast["regret"][:, k], ref["regret"][:, k]
        assert stats.ks_2samp(a, b).pvalue > level, f"KS at t = {grid[k]}"
        if a.std() + b.std() > 0:
            assert stats.ttest_ind(a, b, equal_var=False).pvalue > level, f"mean at t = {grid[k]}"
    if not np.isnan(fast["g2w"]).any():
        assert stats.ttest_ind(fast["g2w"][:, -1], ref["g2w"][:, -1], equal_var=False).pvalue > level, "g2w"
    selfs, ref_selfs = fast["self_counts"].sum(axis=1), ref["self_counts"].sum(axis=1)
    if selfs.std() + ref_selfs.std() > 0:
        assert stats.ttest_ind(selfs, ref_selfs, equal_var=False).pvalue > level, "self-comparison totals"
    else:  # no spread (e.g. no self-comparison at all in T slots at K = 136): the constants must agree
        assert selfs[0] == ref_selfs[0]
    assert np.all(selfs <= horizon)
