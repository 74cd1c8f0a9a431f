"""The paper's claims as computations over stored runs, with one noise-aware verdict rule for all of them.

Every claim reduces to statements about *estimates* -- a number with its standard error computed from
the independent runs (a final regret, a growth factor, a slope in ln t, a standard deviation) -- of
three kinds: "x > f y" (``above``), "x > c" for a constant c (``exceeds``) and "x ~ y" (``close``).
Each statement gets one verdict:

* ``HOLDS``: true by more than ``NOISE_SE`` standard errors of the difference;
* ``NOT_SIGNIFICANT``: the means are in the claimed order, but within the noise;
* ``FACTOR_BORDERLINE``: the order (or the closeness) is significant, and only a claimed factor is within
  the noise of its threshold -- "x well above y" (f > 1) with x significantly above y and x - f y within
  the noise, or "within a factor f" with the ratio outside f by less than the noise: the runs cannot tell
  whether the factor is reached; likewise "x above y by less than a factor f" (``below_factor``) with x
  within the noise of f y;
* ``DIRECTION_ONLY``: for "x well above y" (a factor f > 1): x is significantly above y, but significantly
  short of f times;
* ``OPPOSITE_NOT_SIGNIFICANT``: the means are in the opposite order, but within the noise (no evidence
  either way: a reversal smaller than the noise does not make a claim fail);
* ``FAILS``: the claim is contradicted by more than the noise (for "x ~ y" and "within a factor": the
  difference exceeds it);
* ``NOT_MEASURED``: a curve the claim needs has not been computed.

A claim made of several statements takes the worst verdict of its parts (``worst``, in the order of
``SEVERITY``).  That order ranks what a verdict establishes, so a conjunction never claims an order that one of its
parts does not establish: "x much above y and z" with x significantly above y but short of the factor
(DIRECTION_ONLY) and x above z within the noise (NOT_SIGNIFICANT) reads "same order, not significant", not
"direction holds".  The thresholds that turn words like "much lower" into numbers are named constants here, each
with its reason.  A quick run cannot test the paper's claims: ``not_evidence_verdict`` marks its rows as not
evidence.
"""

import math
from dataclasses import dataclass

import numpy as np

from dts_reproduction.reproduce.harness import portable_math

# "near-linear": over the last decade a linear regret grows 10x, a logarithmic one by ln T/ln(T/10)
# (1.2 at T = 1e6); 3 separates the two with a wide margin on both sides.
LINEAR_GROWTH = 3.0
# "much lower" / "significantly reduces" / "clearly above" / "far above" / "much better": one factor for every
# such word (C2, C3, C5, C7-C9, C15, C16, C19).  Calibrated on the paper's own use: on Fig. 1(a) it calls
# RMED1's and ECW-RMED's 1.70-1.75x D-TS's regret "much lower" and RCS's 1.69x "significantly" more, so a
# factor of 2 would fail the paper's own examples; it is also where "comparable" ends.
CLEAR_FACTOR = 1.5
# "comparable" slopes (C5, C6, C7), "slightly worse" (C6), "by a limited margin" (C4), "only a little" (C11):
# within this factor (the complement of CLEAR_FACTOR).
COMPARABLE_FACTOR = 1.5
# Slopes that stand for asymptotic behaviour (C5, C6, C7) are fitted over the last half decade of t, not the
# last decade: the paper's point is that some algorithms reach their asymptotic regime late, and on MSLR
# K = 32 Condorcet RMED1's slope per ln t falls from ~4500 over [1e5, 3.2e5] to ~740 over [3.2e5, 1e6].
ASYMPTOTIC_SPAN = 10.0**0.5
# A slope is fitted to at least this many checkpoints.
SLOPE_MIN_POINTS = 3
# A difference is "significant" when it exceeds this many standard errors of the difference.
NOISE_SE = 2.0
# The family-wise error rate of a family of agreement tests (Holm): the fast paths against the defaults
# (reproduce/fast_agreement.py), the project against its authors' code (reproduce.studies.authors_agreement).
FAMILY_LEVEL = 0.05
# C14: a winner gets a "substantial share" of the exploitations if at least this fraction.  "Spreads over all
# winners" asks that none be left out, not for an even split (a third each over the three winners of Fig. 5's
# panels): a tenth is under a third of that, and far above the share of a winner an algorithm does not spread to
# (ECW-RMED gives its other winners together under 1 %, mean over runs, on both panels).
SUBSTANTIAL_SHARE = 0.10
# C12 compares ECW-RMED with D-TS+ at every checkpoint from this slot on (before it, both are in
# their initial exploration and the order is noise).
C12_FROM_SLOT = 1000
# C18, "seldom": the elimination changes the first candidate in fewer than this share of the slots.  The paper gives
# no number; one slot in twenty is the usual cut for a rare event (as a 5 % test level).  The measured shares fall
# into two groups far apart, and 5 % lies between them, where any threshold gives the same verdicts; which thresholds
# flip the summary row, with the numbers: docs/verdicts.md#the-elimination-on-mslr-non-condorcet.
RARE_SHARE = 0.05
# The words of the reasons (``reproduce.claims.reasons``).  A MergeDTS regret whose runs' standard deviation exceeds
# this multiple of its mean is called widely spread in its L1 reason (a few runs carry the mean: the tuned MergeDTS
# on Informational-CDC at T = 1e8).
WIDE_SPREAD = 1.0
# A regret per slot over the last decade at least this share of the decade before's has not fallen: linear regret
# over those two decades (D-TS on MSLR Informational at T = 1e7, the tuned MergeDTS there from 1e7 to 1e8).
NOT_FALLING = 0.8
# Bootstrap resamples for the standard error of a standard deviation (Fig. 2); a fixed seed keeps the
# report reproducible.
SPREAD_BOOTSTRAP_RESAMPLES = 400
SPREAD_BOOTSTRAP_SEED = 0

# A fitted slope smaller than this fraction of the curve's R(T) is zero up to floating-point rounding (a curve
# that is flat over the last decade, e.g. SCB on Non-Condorcet Cyclic, fits 1e-12 that changes with every
# redraw); it is printed as 0.
SLOPE_ROUNDING = 1e-9

HOLDS = "holds"
NOT_SIGNIFICANT = "same order, not significant"
FACTOR_BORDERLINE = "factor at its threshold, within the noise"
DIRECTION_ONLY = "direction holds, magnitude not reached"
# The measured order is the opposite of the claimed one, but within the noise: not evidence either way.
OPPOSITE_NOT_SIGNIFICANT = "opposite order, not significant"
FAILS = "FAILS"
NOT_MEASURED = "not measured"
QUICK_PREFIX = "quick run, not evidence"
# A run with fewer runs or a shorter horizon than the paper's for some panel (--runs, --horizon).
REDUCED_PREFIX = "below the paper's scale, not evidence"
# Worst first: the verdict of a conjunction is the first of its parts' verdicts in this order, that of a disjunction
# the last.  NOT_SIGNIFICANT (no order established) comes before DIRECTION_ONLY (the order established, the factor
# not), so that a conjunction never reads "direction holds" while one of its parts leaves the order open.
SEVERITY = (NOT_MEASURED, FAILS, OPPOSITE_NOT_SIGNIFICANT, NOT_SIGNIFICANT, DIRECTION_ONLY, FACTOR_BORDERLINE, HOLDS)


@dataclass(frozen=True)
class Estimate:
    """A statistic measured over independent runs: its value and its standard error."""

    value: float
    se: float

    def __str__(self) -> str:
        """``value +- se``, one decimal each (how the claims tables print an estimate)."""
        return f"{self.value:.1f} +- {self.se:.1f}"


class Missing(Exception):
    """A claim needs a curve that is not among the results (its verdict is NOT_MEASURED)."""


def by_name(curves) -> dict:
    """The ``LineResult``s of a panel keyed by their line's name (e.g. "dts", or a curve's tag)."""
    return {res.line.name: res for res in curves}


def need(results: dict, *names: str) -> list:
    """The results of the named curves; ``Missing`` if one of them has not been computed."""
    absent = [name for name in names if name not in results]
    if absent:
        raise Missing(", ".join(absent))
    return [results[name] for name in names]


# --- Estimates from stored runs ------------------------------------------------------------------

def mean_se(values) -> Estimate:
    """Mean and standard error of independent per-run values."""
    values = np.asarray(values, dtype=np.float64)
    se = values.std(ddof=1) / np.sqrt(values.size) if values.size > 1 else 0.0
    return Estimate(float(values.mean()), float(se))


def final(result) -> Estimate:
    """Mean and standard error of a curve's final regret R(T) over its runs."""
    return mean_se(result.final)


def at(result, t: int, metric: str = "regret") -> Estimate:
    """Mean and standard error of R(t) at the checkpoint ``t`` (the last checkpoint <= t)."""
    k = int(np.searchsorted(result.checkpoints, t, side="right")) - 1
    return mean_se(getattr(result, metric)[:, max(k, 0)])


def growth(result) -> Estimate:
    """R(T) / R(t0) of the mean curve, t0 the first checkpoint >= T/10 (10 for linear regret when t0 = T/10,
    about 1.2 for logarithmic regret at T = 1e6), with its delta-method standard error from the per-run
    pairs (R_r(t0), R_r(T))."""
    t = result.checkpoints
    tenth = int(np.searchsorted(t, t[-1] / 10.0))
    late, early = result.regret[:, -1], result.regret[:, tenth]
    ratio = late.mean() / max(early.mean(), 1e-12)
    runs = late.size
    if runs < 2:
        return Estimate(float(ratio), 0.0)
    cov = np.cov(late, early)
    var = (cov[0, 0] - 2 * ratio * cov[0, 1] + ratio**2 * cov[1, 1]) / (runs * max(early.mean(), 1e-12) ** 2)
    return Estimate(float(ratio), float(np.sqrt(max(var, 0.0))))


def log_slope(result, metric: str = "regret", span: float = 10.0) -> Estimate:
    """Least-squares slope of R(t) against ln t over the last ``span`` factor of t (default: the last decade;
    ASYMPTOTIC_SPAN for asymptotic claims): mean over runs of the per-run slopes (equal to the slope of the
    mean curve) and its standard error.  At least the last SLOPE_MIN_POINTS checkpoints are used (the
    horizon grids of BTM and SAVAGE have one point per half decade).  NaN, without a numpy warning, for a curve of
    one checkpoint (T = 1): no slope."""
    t = result.checkpoints.astype(np.float64)
    if t.size < 2:
        return Estimate(math.nan, math.nan)
    return mean_se(run_slopes(result.checkpoints, getattr(result, metric),
                              min(t[-1] / span, t[max(t.size - SLOPE_MIN_POINTS, 0)]), t[-1]))


def run_slopes(checkpoints, curves, low: float, high: float) -> np.ndarray:
    """Per run (row of ``curves``, one column per checkpoint), the least-squares slope of R(t) against ln t over the
    checkpoints t with low <= t <= high."""
    t = np.asarray(checkpoints).astype(np.float64)
    keep = (t >= low) & (t <= high)
    x = portable_math.log(t[keep])
    x = x - x.mean()
    # Elementwise products and numpy's own row sums, not a BLAS product (``@``): BLAS picks its kernel by CPU and
    # thread count, which changed the last digit of the stored tables from one machine to the next.
    return (curves[:, keep] * x).sum(axis=1) / (x * x).sum()


def stable_slope(slope: float, final_regret: float) -> float:
    """``slope``, or 0.0 if it is zero up to rounding (SLOPE_ROUNDING of R(T)): printed numbers stay the same
    when a figure is redrawn."""
    return 0.0 if abs(slope) <= SLOPE_ROUNDING * max(abs(final_regret), 1.0) else float(slope)


def spread(values) -> Estimate:
    """Standard deviation of independent per-run values, with a bootstrap standard error (heavy tails make
    the normal-theory error of a standard deviation unreliable)."""
    values = np.asarray(values, dtype=np.float64)
    rng = np.random.default_rng(SPREAD_BOOTSTRAP_SEED)
    boot = values[rng.integers(0, values.size, size=(SPREAD_BOOTSTRAP_RESAMPLES, values.size))].std(axis=1, ddof=1)
    return Estimate(float(values.std(ddof=1)), float(boot.std(ddof=1)))


def spread_over_mean(values) -> Estimate:
    """Standard deviation over mean of independent per-run values, with a bootstrap standard error that
    resamples both from the same runs: they are strongly correlated when a few runs dominate (0.9 for
    ECW-RMED on MSLR K=5 non-Condorcet), so ``ratio_of``, which treats them as independent, overstates it
    (there 2.4x).  NaN (undefined) if the mean is 0."""
    values = np.asarray(values, dtype=np.float64)
    if values.mean() == 0.0:
        return Estimate(float("nan"), float("nan"))
    rng = np.random.default_rng(SPREAD_BOOTSTRAP_SEED)
    boot = values[rng.integers(0, values.size, size=(SPREAD_BOOTSTRAP_RESAMPLES, values.size))]
    means = boot.mean(axis=1)
    ratios = boot.std(axis=1, ddof=1)[means != 0.0] / means[means != 0.0]
    return Estimate(float(values.std(ddof=1) / values.mean()), float(ratios.std(ddof=1)))


def ratio_of(x: Estimate, y: Estimate) -> Estimate:
    """x / y with the delta-method standard error of independent x and y; NaN (undefined) if y is 0, which
    only a tiny run gives (every run of a curve with zero regret, e.g. at T = 1)."""
    if y.value == 0.0:
        return Estimate(float("nan"), float("nan"))
    r = x.value / y.value
    return Estimate(r, abs(r) * float(np.hypot(x.se / x.value if x.value else 0.0, y.se / y.value)))


# --- Verdicts -------------------------------------------------------------------------------------

def above(x: Estimate, y: Estimate, factor: float = 1.0) -> str:
    """The statement "x > factor * y" (factor >= 1: "x well above y").  Plain order (factor 1): HOLDS by more
    than NOISE_SE standard errors of the difference, NOT_SIGNIFICANT if true by less,
    OPPOSITE_NOT_SIGNIFICANT if false by less, FAILS if false by more.  With a factor the order is judged
    first (any verdict but HOLDS is the claim's verdict); a significant order then gives HOLDS if x exceeds
    factor * y by more than the noise, FACTOR_BORDERLINE if by less or if it falls short by less, and
    DIRECTION_ONLY if it falls short by more."""
    if factor != 1.0:
        order = above(x, y)
        if order != HOLDS:
            return order
    diff = x.value - factor * y.value
    noise = NOISE_SE * float(np.hypot(x.se, factor * y.se))
    if diff > noise:
        return HOLDS
    if factor != 1.0:
        return FACTOR_BORDERLINE if diff >= -noise else DIRECTION_ONLY
    if diff > 0:
        return NOT_SIGNIFICANT
    return OPPOSITE_NOT_SIGNIFICANT if diff >= -noise else FAILS


def below(x: Estimate, y: Estimate) -> str:
    """The statement "x < y"."""
    return above(y, x)


def below_factor(x: Estimate, y: Estimate, factor: float) -> str:
    """The statement "x < factor * y" (factor > 1: "x above y by less than the factor"): HOLDS by more than
    NOISE_SE standard errors of the difference, FACTOR_BORDERLINE if x is within the noise of factor * y on
    either side, FAILS if above it by more."""
    diff = factor * y.value - x.value
    noise = NOISE_SE * float(np.hypot(x.se, factor * y.se))
    if diff > noise:
        return HOLDS
    return FACTOR_BORDERLINE if diff >= -noise else FAILS


def exceeds(x: Estimate, threshold: float) -> str:
    """The statement "x > threshold" for a constant threshold."""
    return above(x, Estimate(threshold, 0.0))


def under(x: Estimate, threshold: float) -> str:
    """The statement "x < threshold" for a constant threshold."""
    return above(Estimate(threshold, 0.0), x)


def at_most(x: Estimate, y: Estimate) -> str:
    """The statement "x is as low as y or lower": FAILS only if x is significantly above y."""
    return FAILS if above(x, y) == HOLDS else HOLDS


def close(x: Estimate, y: Estimate) -> str:
    """The statement "x and y are indistinguishable": HOLDS if they differ by less than the noise."""
    return HOLDS if abs(x.value - y.value) <= NOISE_SE * float(np.hypot(x.se, y.se)) else FAILS


def within_factor(x: Estimate, y: Estimate, factor: float) -> str:
    """The statement "x and y are within a factor ``factor`` of each other" (x, y > 0): HOLDS if the ratio
    x / y is inside [1 / factor, factor], FACTOR_BORDERLINE if it is outside by less than NOISE_SE of its
    standard errors, FAILS if by more."""
    r = ratio_of(x, y)
    if 1.0 / factor <= r.value <= factor:
        return HOLDS
    bound = factor if r.value > factor else 1.0 / factor
    return FACTOR_BORDERLINE if abs(r.value - bound) <= NOISE_SE * r.se else FAILS


def reaches_limit(limit: Estimate, tolerance: float, target: float) -> str:
    """The statement "the limit is ``target``" (a fitted asymptotic slope,
    ``studies.asymptotic_study.decades.fitted_limit``, or a difference of two): HOLDS if |limit - target| is at most
    NOISE_SE standard errors plus ``tolerance`` (what the fit cannot resolve,
    ``studies.asymptotic_study.decades.model_error``), FAILS otherwise.  No word factor: "reaches", "tends to" and "the
    same slope" are statements about the limit itself."""
    return HOLDS if abs(limit.value - target) <= NOISE_SE * limit.se + tolerance else FAILS


def resolved_limit(limit: Estimate, target: float) -> str:
    """The statement "the limit is ``target``" (target > 0) by ``reaches_limit`` without tolerance, except that a limit
    within the noise of ``target`` whose NOISE_SE standard errors reach ``target`` itself is NOT_SIGNIFICANT: the runs
    cannot tell the target from 0 or from twice it, so a "holds" would only say that the noise is wide.  A limit
    farther from the target than the noise FAILS however wide the noise."""
    verdict = reaches_limit(limit, 0.0, target)
    return NOT_SIGNIFICANT if verdict == HOLDS and NOISE_SE * limit.se >= target else verdict


def limit_above(limit: Estimate, tolerance: float, target: float) -> str:
    """The statement "the limit is above ``target``": HOLDS if it exceeds it by more than NOISE_SE standard errors plus
    ``tolerance`` (``studies.asymptotic_study.decades.model_error``), NOT_SIGNIFICANT if by less,
    OPPOSITE_NOT_SIGNIFICANT if it is below by less, FAILS if below by more."""
    diff, noise = limit.value - target, NOISE_SE * limit.se + tolerance
    if diff > noise:
        return HOLDS
    if diff > 0:
        return NOT_SIGNIFICANT
    return OPPOSITE_NOT_SIGNIFICANT if diff >= -noise else FAILS


def worst(*verdicts: str) -> str:
    """The verdict of a conjunction: the most severe of its parts."""
    return min(verdicts, key=SEVERITY.index)


def best(*verdicts: str) -> str:
    """The verdict of a disjunction (the claim holds under either reading): the least severe of its parts."""
    return max(verdicts, key=SEVERITY.index)


def not_evidence_verdict(verdict: str, prefix: str = QUICK_PREFIX) -> str:
    """The verdict column of a quick (smoke) run, or of a run below the paper's scale (``prefix``
    REDUCED_PREFIX): marked as not evidence for the paper's claims."""
    return f"{prefix} ({verdict})"


# The columns of every claims table (figures/<stem>_claims.csv), in order.
CLAIM_COLUMNS = ("claim", "where", "site", "statement", "measured", "verdict")


@dataclass(frozen=True)
class Site:
    """Where a claims-table row checks its claim.  ``id`` is stable -- ``"<figure stem>:<panel key>"``
    (``Panel.key``: the matrix, and the metric where it is not the Copeland regret), ``"/<curve>"`` appended for a
    row about one curve of the panel -- so reasons (``reproduce.claims.reasons``) are keyed by it and survive a
    panel's retitling or reordering; ``text`` is what the table shows (the figure and the panel's title)."""

    id: str
    text: str

    def curve(self, name: str, label: str) -> "Site":
        """The site of a row about one curve of this panel: ``name`` its key in the panel (``by_name``), ``label``
        what the table shows."""
        return Site(f"{self.id}/{name}", f"{self.text}: {label}")


def claim_row(claim: str, site: Site, statement: str, measured: str, verdict: str) -> dict:
    """One row of a claims table (``CLAIM_COLUMNS``): claim id, where (shown and stable id), statement, what was
    measured, verdict."""
    if verdict not in SEVERITY:
        raise ValueError(f"unknown verdict {verdict!r}")
    return {"claim": claim, "where": site.text, "site": site.id, "statement": statement, "measured": measured,
            "verdict": verdict}


def checked(claim: str, site: Site, statement: str, check) -> dict:
    """Run ``check() -> (measured, verdict)``; a ``Missing`` curve gives a NOT_MEASURED row naming it."""
    try:
        measured, verdict = check()
    except Missing as missing:
        measured, verdict = f"missing: {missing}", NOT_MEASURED
    return claim_row(claim, site, statement, measured, verdict)
