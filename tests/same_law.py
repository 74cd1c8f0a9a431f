"""The whole-run check shared by every exact fast path (D-TS and Self-Sparring sampling="fast", RCS
sampling="knockout", skip="exact", the oracle's skip): many runs of the fast path and of the reference, then tests
that the two samples have the same law.  ``CASES`` is the one table of the problems each fast path is compared on;
the suites of tests/algorithms/ (test_dts_fast.py, test_rcs_fast.py, test_skip_exact.py, test_self_sparring.py,
test_oracle.py) each read their algorithms' rows with ``cases``."""

import numpy as np
import pytest
from scipy import stats

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import log_grid, run_one

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


def case(algorithm, dataset, horizon, delay, fast, reference=None, slow=False):
    """One row of CASES: ``algorithm`` run with ``reference`` (default: its defaults) and with ``reference``
    updated by the ``fast`` parameters, on ``dataset`` for ``horizon`` slots with feedback delay ``delay``;
    ``slow`` rows run only with ``-m slow``.  The id names every field."""
    reference = reference or {}
    name = "-".join([algorithm, dataset, f"T{horizon}", f"d{delay}",
                     *(f"{key}={value}" for key, value in reference.items()),
                     "fast:" + ",".join(f"{key}={value}" for key, value in fast.items())])
    return pytest.param(algorithm, dataset, horizon, delay, reference, fast, id=name,
                        marks=[pytest.mark.slow] if slow else [])


DTS_FAST = {"sampling": "fast"}
SELF_SPARRING_FAST = {"sampling": "fast"}
RCS_KNOCKOUT = {"sampling": "knockout"}
RCS_KNOCKOUT_SKIP = {"sampling": "knockout", "skip": "exact"}
SKIP = {"skip": "exact"}

# Condorcet and non-Condorcet problems, delayed feedback and non-default parameters, for each fast path.  By
# default one row per algorithm and path (RCS: Condorcet, the random fallback with a delay, the skip); the slow
# rows (-m slow) are the other settings, longer runs and larger K.
CASES = (
    case("dts", "mslr5_condorcet", 10000, 1, DTS_FAST),
    case("dts_plus", "mslr5_condorcet", 10000, 10, DTS_FAST, slow=True),
    case("dts", "nc_cyclic", 5000, 1, DTS_FAST, slow=True),
    case("dts", "mslr16_condorcet", 2000, 1, DTS_FAST, slow=True),
    case("pure_dts", "strong_borda", 5000, 1, DTS_FAST, slow=True),
    # K = 136 >= BITS_MIN_K: the pruned bit-sliced first phase (also pinned by FAST_STREAM_DIGESTS and
    # test_pruned_first_phase_matches_indicators_at_large_K by default)
    case("dts", "mslr136_informational", 1000, 1, DTS_FAST, slow=True),
    case("dts_plus", "mslr5_noncondorcet", 100000, 1, DTS_FAST, slow=True),
    case("dts", "mslr32_condorcet", 20000, 1, DTS_FAST, slow=True),
    case("self_sparring", "mslr5_condorcet", 10000, 1, SELF_SPARRING_FAST),
    case("self_sparring", "mslr16_noncondorcet", 5000, 4, SELF_SPARRING_FAST, {"learning_rate": 0.5}, slow=True),
    case("self_sparring", "mslr_perfect_k32", 20000, 1, SELF_SPARRING_FAST, slow=True),
    case("rcs", "mslr5_condorcet", 10000, 1, RCS_KNOCKOUT),
    case("rcs", "sushi", 5000, 1, RCS_KNOCKOUT, slow=True),
    case("rcs", "nc_cyclic", 5000, 1, RCS_KNOCKOUT, slow=True),
    case("rcs", "nc_cyclic", 5000, 4, RCS_KNOCKOUT, {"fallback": "random"}),
    case("rcs", "mslr5_condorcet", 20000, 1, RCS_KNOCKOUT_SKIP, slow=True),
    case("rcs", "arxiv", 20000, 7, RCS_KNOCKOUT_SKIP, slow=True),
    case("rcs", "sushi", 10000, 1, RCS_KNOCKOUT_SKIP, slow=True),
    case("rcs", "mslr16_noncondorcet", 5000, 1, RCS_KNOCKOUT_SKIP),
    case("rucb", "mslr5_condorcet", 10000, 1, SKIP),
    case("rucb", "mslr5_condorcet", 10000, 10, SKIP, slow=True),
    case("rucb", "arxiv", 10000, 1, SKIP, {"hypothesis": "original"}, slow=True),
    case("rmed1", "mslr5_condorcet", 10000, 1, SKIP),
    case("rmed1", "mslr5_condorcet", 10000, 7, SKIP, slow=True),
    case("rmed2", "nc_strong_borda", 10000, 1, SKIP),
    case("ecw_rmed", "mslr5_condorcet", 10000, 3, SKIP),
    case("ccb", "mslr5_condorcet", 30000, 1, SKIP),
    case("cw_rmed", "mslr5_condorcet", 10000, 3, SKIP),
    case("ws_s", "mslr5_condorcet", 100000, 1, SKIP),
    case("ws_s", "arxiv", 100000, 5, SKIP, slow=True),
    case("cw_rmed", "nc_strong_borda", 30000, 1, SKIP, slow=True),
    case("ccb", "arxiv", 30000, 7, SKIP, slow=True),
    case("rucb", "mslr5_condorcet", 300000, 1, SKIP, slow=True),
    case("rmed1", "mslr16_condorcet", 300000, 1, SKIP, slow=True),
    case("rmed2", "mslr16_condorcet", 100000, 3, SKIP, slow=True),
    case("ecw_rmed", "arxiv", 100000, 1, SKIP, {"confidence_precheck": "none"}, slow=True),
    case("ecw_rmed", "mslr5_noncondorcet", 100000, 1, SKIP, slow=True),
    case("ccb", "mslr16_condorcet", 300000, 3, SKIP, slow=True),
    case("oracle", "strong_borda", 100000, 1, SKIP),
    case("oracle", "arxiv", 100000, 5, SKIP, {"partner": "winner"}, slow=True),
)
CASE_FIELDS = "algorithm,dataset,horizon,delay,reference,fast"


def cases(*algorithms):
    """The rows of CASES for ``algorithms``, in table order (for ``pytest.mark.parametrize(CASE_FIELDS, ...)``)."""
    return [row for row in CASES if row.values[0] in algorithms]


def assert_fast_path_exact(algorithm, dataset, horizon, delay, reference, fast, family_level, must_change,
                           runs=200):
    """``runs`` runs with the fast parameters and as many with ``reference`` (the same run indices, so the same
    shuffles) have the same law (``assert_same_law`` at ``family_level``); with ``must_change``, they also
    differ somewhere (else the comparison would be empty)."""
    fast_runs = many_runs(dataset, algorithm, {**reference, **fast}, horizon, runs, delay)
    reference_runs = many_runs(dataset, algorithm, reference, horizon, runs, delay)
    if must_change:
        assert not np.array_equal(fast_runs["regret"], reference_runs["regret"]), "the fast path never applied"
    assert_same_law(fast_runs, reference_runs, horizon, family_level)
