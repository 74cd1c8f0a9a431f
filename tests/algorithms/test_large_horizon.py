"""The fast paths near the largest exact horizon (docs/harness.md#the-largest-exact-horizon): the law of D-TS's
skipped runs of self-comparisons at t = 1e15 and at 2**53 -- the run length against its exact law (a test whose
power against an exit rate off by a fifth is computed and shown on an injected error), its distribution function
in the settled regime against the law in 50-digit arithmetic across a switch time where ln t is rounded, and the
event that ends a run against slot-by-slot selection from the same state --, the exact ln t boundaries of the
deterministic skips there (the ends of their runs of self-comparisons where a slot-by-slot walk ends them, from
states reached at 1e15 and 5e15), and the refusal of larger horizons."""

import decimal
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import optimize, stats

from dts_reproduction.algorithms import ALGORITHMS, get_algorithm
from dts_reproduction.algorithms.base import MAX_EXACT_HORIZON
from dts_reproduction.algorithms.dts_state import PENDING_NONE, PENDING_PAIR
from dts_reproduction.core.constants import PSEUDO_N, PSEUDO_W
from dts_reproduction.core.simulate import LoopHooks, simulate
from dts_reproduction.core.skipping import first_slot_reaching, geometric_run, last_slot_before
from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.harness.runner import Line, run_one, validate_line
from tests.algorithms.test_dts import stats_from_wins
from tests.algorithms.test_dts_fast import ALPHA, counts_pvalue, homogeneity_pvalue, window_counts
from tests.algorithms.test_skip_exact import _walk, copy_state

# Statistics in which arm 0 (400 comparisons per pair, 90 % won) is the only candidate that every other arm's
# bound leaves alone at ln t = 34.5 (t = 1e15) while arms 1-3 (40 comparisons against arm 0, 80 % lost) still
# keep D-TS exploring now and then: the stretch of self-comparisons of arm 0 ends on either kind of event.
SCALE = 4


def settled_at_large_t():
    """(n, w) of the state described at SCALE (K = 8)."""
    K = 8
    rng = np.random.default_rng(8)
    wins = np.triu(rng.binomial(30 * SCALE, rng.uniform(0.3, 0.7, (K, K))), 1)
    wins = wins + np.triu(30 * SCALE - wins, 1).T
    wins[0, :], wins[:, 0] = 90 * SCALE, 10 * SCALE
    wins[0, 1:4], wins[1:4, 0] = 32, 8
    wins[0, 0] = 0
    return stats_from_wins(wins)


@pytest.mark.parametrize("name", ["dts", "dts_plus"])
@pytest.mark.parametrize("t0", [10**15, MAX_EXACT_HORIZON - 40])
def test_skip_matches_slot_by_slot_near_the_largest_horizon(name, t0):
    """2000 windows of 40 slots from t0 each way (skip + select, select alone) in the frozen state: chi-square of
    homogeneity, each at level ALPHA with fixed seeds, on the number of self-comparisons of the settled arm and on
    the first other pair -- the pair that the event slot a skip leaves to select (its row or pair conditioned on
    not being a sweep) makes, which the exact law of the skip's lengths does not cover.  At ~3.4e-4 exits a slot
    few windows see an event, so this detects only gross errors in that pair's law; the exit rate itself is held
    to its exact value with power by ``test_skip_lengths_have_their_exact_law_near_the_largest_horizon``."""
    n, w = settled_at_large_t()
    spec = get_algorithm(name)
    fast_counts, fast_first, _c, skipped = window_counts(spec, n, w, t0, True, 40, 41, 2000)
    assert skipped > 0, "the state chosen must be one where skip applies"
    assert len(set(fast_first)) > 1, "the stretches must end on more than one kind of event"
    ref_counts, ref_first, _, _ = window_counts(spec, n, w, t0, False, 40, 42, 2000)
    assert counts_pvalue(fast_counts, ref_counts) > ALPHA
    assert homogeneity_pvalue(fast_first, ref_first) > ALPHA


# The law of one skip (``algorithms.dts_fast.skip``): from slot t, after a self-comparison of c (in C), every
# slot until ln t reaches the next cached switch time is, independently, a "sweep" self-comparison (c, c) --
# row c of the first phase all votes (P_c = prod_{j != c} q[c, j]; 1 if C = {c}) and no theta2_i > 1/2 in
# E(c) = {i != c : l_ic <= 1/2} (p_self = prod_{i in E(c)} (1 - q[i, c])) -- with probability rho = P_c p_self.
# So the number G of sweep slots a skip returns before its event slot has P(G >= g) = rho^g (capped at the end of
# the stretch), and the event is a pair (c, b) with probability P_c (1 - p_self) / (1 - rho), else a first-phase
# row left to select.  ln t acts only through C and E(c), each constant between switch times.  The laws below take
# the stored vote probabilities q (the doubles select draws its votes with) as exact.
SKIP_DRAWS = 1500  # skips drawn per check; the power of the rate test (``rate_test_power``) follows from it
SKIP_STRETCH = 10**6  # slots a drawn skip may take (SCALE's runs average ~3,000 slots: none reaches the cap)
GOF_CELLS = 10  # cells of the chi-square of the run lengths, equally likely under the exact law


def select_sets(switch_log_t, log_t, c):
    """(C, E(c)) as ``select`` decides them at ln t = ``log_t`` from the cached switch times: the arms of most
    upper Copeland count #{j != i : ln t >= switch[i, j]}, and the arms i != c with u_ci >= 1/2 (l_ic <= 1/2)."""
    K = switch_log_t.shape[0]
    counts = [sum(log_t >= switch_log_t[i, j] for j in range(K) if j != i) for i in range(K)]
    in_c = [count == max(counts) for count in counts]
    return in_c, [i != c and log_t >= switch_log_t[c, i] for i in range(K)]


def sweep_law(q, log_t, switch_log_t, c):
    """(P_c, p_self) at ln t = ``log_t`` as exact fractions of the vote probabilities ``q`` (the doubles)."""
    in_c, eligible = select_sets(switch_log_t, log_t, c)
    assert in_c[c], "the arm of the self-comparisons must be in C"
    sweep, self_prob = Fraction(1), Fraction(1)
    for j in range(q.shape[0]):
        if j != c and sum(in_c) > 1:
            sweep *= Fraction(float(q[c, j]))
        if eligible[j]:
            self_prob *= 1 - Fraction(float(q[j, c]))
    return sweep, self_prob


def exit_law(state, t, c=0):
    """(1 - rho, P(the event is a pair (c, b))) of a skip of ``state`` from slot t, exact."""
    sweep, self_prob = sweep_law(state.prob_above, math.log(t), state.switch_log_t, c)
    rho = sweep * self_prob
    return 1 - rho, sweep * (1 - self_prob) / (1 - rho)


def frozen_skip_state(name, n, w):
    """(spec, sampling="fast" state of ``name``) with the statistics (n, w)."""
    spec = get_algorithm(name)
    state = spec.make_state(n.shape[0], params={"sampling": "fast"})
    spec.set_statistics(state, n, w)
    return spec, state


def inject_exit_factor(state, t, factor, c=0):
    """Change the vote probabilities the kernel reads (``state.prob_above``, not the statistics) so that the exit
    probability of a skip from slot t is ``factor`` times its own: every 1 - q[c, j] (j != c, if |C| > 1) and every
    q[i, c] (i in E(c)) multiplied by one s, solved for.  The injected error of a skip that misreads its law."""
    in_c, eligible = select_sets(state.switch_log_t, math.log(t), c)
    original = state.prob_above.copy()
    target = factor * float(exit_law(state, t, c)[0])

    def excess(scale):
        """The exit probability with the probabilities scaled by ``scale``, less the target."""
        for j in range(original.shape[0]):
            if j != c and sum(in_c) > 1:
                state.prob_above[c, j] = 1.0 - scale * (1.0 - original[c, j])
            if eligible[j]:
                state.prob_above[j, c] = scale * original[j, c]
        return float(exit_law(state, t, c)[0]) - target

    excess(optimize.brentq(excess, 0.1, 3.0, xtol=1e-15))
    assert float(exit_law(state, t, c)[0]) == pytest.approx(target, rel=1e-9)


def draw_skips(spec, state, t, seed, c=0):
    """SKIP_DRAWS skips from slot t in the frozen ``state``, each the first after a self-comparison of c, with up to
    SKIP_STRETCH slots before the limit: the run lengths G and whether each event is a pair (else a row)."""
    rng = np.random.default_rng(seed)
    gaps, pairs = [], []
    for _ in range(SKIP_DRAWS):
        record = state.skip_state[0]
        record["pending"], record["last_self"], record["refused_at"] = PENDING_NONE, c, -1
        gap, arm = spec.skip(state)(state, t, rng, t + SKIP_STRETCH - 1)
        assert arm == c and 0 <= gap < SKIP_STRETCH, "every run must end on an event inside the stretch"
        gaps.append(gap)
        pairs.append(state.skip_state[0]["pending"] == PENDING_PAIR)
    return np.array(gaps), np.array(pairs)


def rate_test_pvalue(total, exit_prob):
    """Two-sided p-value of the total length of SKIP_DRAWS runs: under the exact law a sum of SKIP_DRAWS independent
    geometric counts of sweep slots before an exit of probability ``exit_prob``, i.e. negative binomial."""
    law = stats.nbinom(SKIP_DRAWS, exit_prob)
    return min(1.0, 2.0 * min(law.cdf(total), law.sf(total - 1)))


def rate_test_power(exit_prob, factor):
    """The probability that ``rate_test_pvalue`` is <= ALPHA when the exit probability is ``factor`` times
    ``exit_prob``: the mass of the rejection region (the totals whose tail beyond them is <= ALPHA / 2 on either
    side) under the negative binomial of the wrong rate."""
    law, wrong = stats.nbinom(SKIP_DRAWS, exit_prob), stats.nbinom(SKIP_DRAWS, factor * exit_prob)
    low = int(law.ppf(ALPHA / 2))  # the smallest total with cdf >= ALPHA / 2
    low -= law.cdf(low) > ALPHA / 2  # the largest total rejected from below
    high = int(law.isf(ALPHA / 2)) + 1  # P(total >= high) <= ALPHA / 2 < P(total >= high - 1)
    assert law.cdf(low) <= ALPHA / 2 < law.cdf(low + 1) and law.sf(high - 1) <= ALPHA / 2 < law.sf(high - 2)
    return wrong.cdf(low) + wrong.sf(high - 1)


def skip_law_pvalues(gaps, pairs, exit_prob, pair_prob):
    """p-values of SKIP_DRAWS skips against their exact law: the total length (``rate_test_pvalue``), the lengths'
    distribution (chi-square over GOF_CELLS cells of about equal exact probability, edges at the geometric
    quantiles) and the share of events that are pairs (exact binomial test)."""
    log_rho = math.log1p(-exit_prob)
    edges = [math.ceil(math.log1p(-k / GOF_CELLS) / log_rho) for k in range(1, GOF_CELLS)]
    survival = np.exp(np.array([0, *edges, np.inf]) * log_rho)  # P(G >= edge)
    observed = np.bincount(np.searchsorted(edges, gaps, side="right"), minlength=GOF_CELLS)
    return {"rate": rate_test_pvalue(int(gaps.sum()), exit_prob),
            "lengths": stats.chisquare(observed, SKIP_DRAWS * -np.diff(survival)).pvalue,
            "event kind": stats.binomtest(int(pairs.sum()), SKIP_DRAWS, pair_prob).pvalue}


@pytest.mark.parametrize("name", ["dts", "dts_plus"])
@pytest.mark.parametrize("t0", [10**15, MAX_EXACT_HORIZON - SKIP_STRETCH + 1])
def test_skip_lengths_have_their_exact_law_near_the_largest_horizon(name, t0):
    """SKIP_DRAWS skips from t0 in SCALE's state (exit probability ~3.4e-4 a slot, both kinds of event), the last
    ending at 2**53: the total length (negative binomial), the lengths (chi-square, GOF_CELLS cells) and the share of
    pair events (binomial) against the exact law of the state (the comment above ``SKIP_DRAWS``), each at level
    ALPHA with a fixed seed (the total's and the share's tests are exact, of size at most ALPHA; the chi-square has
    SKIP_DRAWS / GOF_CELLS = 150 expected per cell).  The total's test rejects an exit probability off by a fifth
    either way with probability at least 0.9 (computed by the test that follows), and does on a skip given such a
    rate (``test_the_skip_law_test_fails_on_an_exit_rate_off_by_a_fifth``)."""
    spec, state = frozen_skip_state(name, *settled_at_large_t())
    gaps, pairs = draw_skips(spec, state, t0, 43)
    exit_prob, pair_prob = exit_law(state, t0)
    assert 0.1 < pair_prob < 0.9, "the state must end its runs on both kinds of event"
    for check, pvalue in skip_law_pvalues(gaps, pairs, float(exit_prob), float(pair_prob)).items():
        assert pvalue > ALPHA, check


def test_the_skip_rate_test_has_power_against_an_exit_rate_off_by_a_fifth():
    """The power of the total-length test of ``test_skip_lengths_have_their_exact_law_near_the_largest_horizon`` at
    level ALPHA, computed from the negative binomial laws of the total under exit probabilities 0.8 and 1.2 times
    the true one (the same at 1e15 and 2**53 in SCALE's state): at least 0.9 each way."""
    state = frozen_skip_state("dts", *settled_at_large_t())[1]
    exit_prob = exit_law(state, 10**15)[0]
    assert exit_law(state, MAX_EXACT_HORIZON)[0] == exit_prob
    powers = {factor: float(rate_test_power(float(exit_prob), factor)) for factor in (0.8, 1.2)}
    print(f"exit probability {float(exit_prob):.3g} a slot, {SKIP_DRAWS} skips, level {ALPHA}: power {powers}")
    assert min(powers.values()) >= 0.9, powers


@pytest.mark.parametrize("factor", [0.8, 1.2])
def test_the_skip_law_test_fails_on_an_exit_rate_off_by_a_fifth(factor):
    """The real skip given vote probabilities whose exit probability at 1e15 is ``factor`` times that of SCALE's
    statistics (``inject_exit_factor``), checked against the law of those statistics as in
    ``test_skip_lengths_have_their_exact_law_near_the_largest_horizon`` (same seed): the total-length test rejects
    it at level ALPHA."""
    spec, state = frozen_skip_state("dts", *settled_at_large_t())
    exit_prob, pair_prob = exit_law(state, 10**15)
    inject_exit_factor(state, 10**15, factor)
    gaps, pairs = draw_skips(spec, state, 10**15, 43)
    assert skip_law_pvalues(gaps, pairs, float(exit_prob), float(pair_prob))["rate"] <= ALPHA


# Settled statistics at large t (K = 4; raw wins, pseudo-counts added): arm 0 has won 128 of 160 against arms 2
# and 3 (q[i, 0] = 2.6e-15 each) and n10 - w10 of n10 against arm 1, whose bound u_10 reaches 1/2 at ln t =
# n10 (1/2 - w10 / n10)^2 / alpha (rounded); arm 1 has won 990 of 1000 against arms 2 and 3, arm 3 990 of 1000
# against arm 2.  So C = {0} until that switch time (exit ~5e-15 a slot: only the second phase leaves (0, 0)), then
# C = {0, 1} (~1e-14: row 0 of the first phase can lose a vote too), and no other switch time comes before 2**53.
# Per run: (n10, w10, first slot t0, slots by which the rounded ln t reaches the switch time before the exact one).
SETTLED_RUNS = {"1e15": (2000, 812, 10**15, 4), "2**53": (2030, 820, MAX_EXACT_HORIZON - 175 * 10**12, 32)}
DIGITS = 50  # of the exact law's arithmetic


def settled_stats(n10, w10):
    """(n, w) of the settled statistics above."""
    wins = np.zeros((4, 4))
    wins[1, 0], wins[0, 1] = w10, n10 - w10
    wins[2:, 0], wins[0, 2:] = 32, 128
    wins[1, 2:], wins[2:, 1] = 990, 10
    wins[3, 2], wins[2, 3] = 990, 10
    return stats_from_wins(wins)


def rounded_log(s):
    """ln s rounded to the nearest double, from DIGITS digits (what ``math.log`` returns, up to its last-bit
    accuracy)."""
    with decimal.localcontext() as context:
        context.prec = DIGITS
        return float(decimal.Decimal(s).ln())


def exact_first_slot(value):
    """(the smallest slot s with ``rounded_log(s) >= value``, the test by which select reaches a switch time; the
    smallest with ln s >= value exactly)."""
    with decimal.localcontext() as context:
        context.prec = DIGITS
        exact = int(decimal.Decimal(value).exp().to_integral_value(rounding=decimal.ROUND_CEILING))
    s = exact
    while rounded_log(s - 1) >= value:
        s -= 1
    while rounded_log(s) < value:
        s += 1
    return s, exact


def exact_pieces(state, t0, T, c=0):
    """The stretches of slots t0 .. T between the slots at which select reaches a switch time (``exact_first_slot``),
    each with its exact ln rho (``sweep_law`` at its first slot, in DIGITS digits): [(first slot, slots, ln rho)]."""
    switches = [v for v in state.switch_log_t.flat if rounded_log(t0) < v <= rounded_log(T)]
    starts = sorted({t0} | {exact_first_slot(v)[0] for v in switches})
    pieces = []
    for start, end in zip(starts, [*starts[1:], T + 1], strict=True):
        sweep, self_prob = sweep_law(state.prob_above, rounded_log(start), state.switch_log_t, c)
        rho = sweep * self_prob
        with decimal.localcontext() as context:
            context.prec = DIGITS
            log_rho = (decimal.Decimal(rho.numerator) / decimal.Decimal(rho.denominator)).ln()
        pieces.append((start, end - start, log_rho))
    return pieces


def exact_ends_before(pieces, g):
    """P(a run from the first slot of ``pieces`` has fewer than g sweep slots), exact: 1 - prod rho^(its slots)."""
    t0 = pieces[0][0]
    with decimal.localcontext() as context:
        context.prec = DIGITS
        log_stays = sum(min(max(t0 + g - start, 0), slots) * log_rho for start, slots, log_rho in pieces)
        return 1 - log_stays.exp()


def uniform_first(k):
    """A generator whose next ``random()`` is k 2**-53: SFC64 returns a + b + counter of its state (a, b, c,
    counter), and ``random()`` the top 53 bits of that."""
    bits = np.random.SFC64(0)
    state = bits.state
    state["state"]["state"] = np.array([k << 11, 0, 0, 0], dtype=np.uint64)
    bits.state = state
    return np.random.Generator(bits)


def skip_gap(spec, state, t, k, t_limit, c=0):
    """The run length of the skip of a copy of ``state`` from slot t, after a self-comparison of c, when its uniform
    (the first random number it draws, ``core.skipping.geometric_run``'s) is k 2**-53."""
    probe = copy_state(state)
    probe.skip_state[0]["last_self"] = c
    gap, arm = spec.skip(probe)(probe, t, uniform_first(k), t_limit)
    assert arm == c
    return gap


def skip_ends_before(spec, state, t, x, t_limit):
    """P(the skip from slot t returns fewer than x slots), exactly: the run length only grows with the uniform, so
    this is the number of uniforms k 2**-53 below the first whose run is x or more (bisection), times 2**-53."""
    low, high = -1, 2**53  # run(low) < x <= run(high), with run(-1) = -inf and run(2**53) = +inf
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if skip_gap(spec, state, t, middle, t_limit) >= x else (middle, high)
    return Fraction(high, 2**53)


def skip_run_ends_before(spec, state, pieces, T, g):
    """P(the run of sweep slots from the first slot of ``pieces`` has fewer than g slots) with the skip as the
    simulator calls it: a skip per stretch (``exact_pieces``), each taking all of its stretch or ending the run,
    the probabilities computed exactly (``skip_ends_before``)."""
    t0, reached, ends = pieces[0][0], Fraction(1), Fraction(0)
    for start, slots, _ in pieces:
        if t0 + g <= start:
            break
        ends += reached * skip_ends_before(spec, state, start, min(t0 + g - start, slots), T)
        reached *= 1 - skip_ends_before(spec, state, start, slots, T)
    return ends


def settled_law_errors(spec, state, law_state, t0, T):
    """({g: |P(the run has fewer than g sweep slots), skip - exact|}, tolerance) at run lengths g spread over the
    stretch t0 .. T of ``law_state``'s exact law (``exact_pieces``), with those around each switch slot and the whole
    stretch; the tolerance is (2K + 4) 2**-53 per stretch (derived in the docstring of the settled test below)."""
    pieces = exact_pieces(law_state, t0, T)
    lengths = {1, 2, T - t0 + 1}
    for start, slots, _ in pieces:
        lengths |= {start - t0 + slots // divisor for divisor in (10**6, 100, 3)}
        lengths |= {start - t0 + offset for offset in (-33, -5, -1, 0, 1, 2, 5, 33) if 0 < start - t0 + offset}
    errors = {g: abs(skip_run_ends_before(spec, state, pieces, T, g) - Fraction(exact_ends_before(pieces, g)))
              for g in sorted(lengths)}
    return errors, len(pieces) * (2 * state.prob_above.shape[0] + 4) * Fraction(1, 2**53)


@pytest.mark.parametrize("name", ["dts", "dts_plus"])
@pytest.mark.parametrize("run", sorted(SETTLED_RUNS))
def test_settled_skip_has_its_exact_law_where_ln_t_is_rounded(name, run):
    """In the settled statistics above (exit ~5e-15 then ~1e-14 a slot), the run of sweep self-comparisons from t0
    to the horizon 2**53 (which cuts the 2**53 run's last stretch): its distribution function P(fewer
    than g sweep slots) with the real skip called as the simulator calls it, computed exactly by bisection over
    its uniform, against the law of select's slots in DIGITS-digit arithmetic (stretches between the slots at
    which select's test of the rounded ln t reaches a switch time, found in DIGITS digits; the stored vote
    probabilities taken as exact), at g spread over both stretches, at 8 slots from 33 before to 33 after the
    switch slot -- which the rounded ln t reaches 4 (1e15) and 32 (2**53) slots before the exact ln t
    (SETTLED_RUNS): consecutive slots share one double ln t there -- and at the whole stretch.  A skip whose draw
    outlasts its stretch takes exactly the slots of it.

    Tolerance, per stretch, (2K + 4) 2**-53 = 1.3e-15: 2**-53 for the grid of the uniform, and (2K + 3) 2**-53 for
    the relative rounding of the run's quotient ln(1 - U) / ln rho (each logarithm within 2 2**-53, the 2K - 3
    additions of ln rho's terms of one sign and the division within 2**-53 each: (2K + 2) 2**-53 in all), which moves
    P by at most that since x rho^x ln(1/rho) <= 1/e.  An exit rate off by a fifth fails by far
    (``test_the_settled_law_check_fails_on_an_exit_rate_off_by_a_fifth``).
    select draws each vote with a uniform on the same 2**-53 grid, so its own slots realise these probabilities
    only to that resolution (docs/harness.md#the-largest-exact-horizon); the check is against the exact law."""
    assert all(uniform_first(k).random() == k / 2**53 for k in (0, 1, 2**52 + 7, 2**53 - 1))
    n10, w10, t0, rounding_shift = SETTLED_RUNS[run]
    spec, state = frozen_skip_state(name, *settled_stats(n10, w10))
    pieces = exact_pieces(state, t0, MAX_EXACT_HORIZON)
    assert len(pieces) == 2, "one switch time between t0 and 2**53"
    switch_slot, exact_slot = exact_first_slot(state.switch_log_t[1, 0])
    assert pieces[1][0] == switch_slot and exact_slot - switch_slot == rounding_shift
    assert math.log(switch_slot - 1) < state.switch_log_t[1, 0] <= math.log(switch_slot)
    for start, slots, log_rho in pieces:  # a draw that outlasts its stretch takes all of it
        if slots * log_rho > -53 * decimal.Decimal(2).ln():  # as the largest uniform's does
            assert skip_gap(spec, state, start, 2**53 - 1, MAX_EXACT_HORIZON) == slots
    errors, tolerance = settled_law_errors(spec, state, state, t0, MAX_EXACT_HORIZON)
    assert max(errors.values()) <= tolerance, {g: float(e) for g, e in errors.items() if e > tolerance}


@pytest.mark.parametrize("factor", [0.8, 1.2])
def test_the_settled_law_check_fails_on_an_exit_rate_off_by_a_fifth(factor):
    """The real skip given vote probabilities whose exit probability at t0 (1e15) is ``factor`` times that of the
    settled statistics (``inject_exit_factor``), against the exact law of those statistics as in
    ``test_settled_skip_has_its_exact_law_where_ln_t_is_rounded``: some P(fewer than g sweep slots) is off by more
    than the tolerance."""
    n10, w10, t0, _ = SETTLED_RUNS["1e15"]
    spec, law_state = frozen_skip_state("dts", *settled_stats(n10, w10))
    state = copy_state(law_state)
    inject_exit_factor(state, t0, factor)
    errors, tolerance = settled_law_errors(spec, state, law_state, t0, MAX_EXACT_HORIZON)
    print(f"exit x {factor}: largest |P(skip) - P(exact)| {float(max(errors.values())):.3g}")
    assert max(errors.values()) > tolerance


def test_first_slot_reaching_is_exact_up_to_the_largest_horizon():
    """Against the floating-point test itself at slots near 1e12, 1e15 and 2**53, where ln t stays the same double
    over several consecutive slots: the boundary found is the first slot that passes, whatever the rounding."""
    for centre in (10**12, 10**15, MAX_EXACT_HORIZON - 64):
        for step in range(0, 64, 3):
            for offset in (0.0, 1.7):
                value = math.log(centre + step) + offset
                s = first_slot_reaching(value, offset)
                assert math.log(s) + offset >= value and math.log(s - 1) + offset < value
                assert last_slot_before(value, offset, MAX_EXACT_HORIZON) == s - 1


def skips_on_its_fast_paths(spec) -> bool:
    """Whether the algorithm's exact fast paths skip slots: its ``skip`` hook gives a kernel for a state made with
    them."""
    horizon = 1000 if spec.needs_horizon else None
    return bool(spec.fast) and spec.skip is not None and spec.skip(spec.make_state(4, horizon, spec.fast)) is not None


@pytest.mark.parametrize("name", [name for name, spec in ALGORITHMS.items() if skips_on_its_fast_paths(spec)])
def test_fast_paths_refuse_horizons_beyond_the_largest_exact_one(name):
    """For every registered algorithm whose fast paths skip slots: a line with the fast paths is refused above 2**53
    with one line naming the horizon, and accepted at it; the default (slot by slot) accepts it (it is bounded by its
    cost, not by exactness)."""
    spec = get_algorithm(name)
    fast = tuple(sorted(spec.fast.items()))
    validate_line(Line("cyclic", name, MAX_EXACT_HORIZON, 1, fast))
    with pytest.raises(ValueError, match=rf"T = {MAX_EXACT_HORIZON + 1} is beyond .* 2\*\*53") as error:
        validate_line(Line("cyclic", name, MAX_EXACT_HORIZON + 1, 1, fast))
    assert "\n" not in str(error.value)
    validate_line(Line("cyclic", name, MAX_EXACT_HORIZON + 1, 1))


def test_a_run_to_the_largest_horizon_adds_up():
    """One D-TS+ run with its fast paths to 2**53 on Cyclic: every slot is accounted for (the comparisons of pairs
    of different arms plus the self-comparisons make T), and R(T) is the stored regret sum of those slots."""
    dataset = load_dataset("cyclic")
    spec = get_algorithm("dts_plus")
    out = run_one(dataset, spec, {"sampling": "fast"}, MAX_EXACT_HORIZON, 0, 7, comparisons=True)
    pairs = out["comparisons"].sum() / 2.0
    assert pairs + out["self_counts"].sum() == pytest.approx(MAX_EXACT_HORIZON, abs=1.0)
    assert out["self_counts"].sum() > 0.999 * MAX_EXACT_HORIZON
    zeta = dataset.normalized_copeland
    regret_self = float(((zeta.max() - zeta) * out["self_counts"]).sum())
    regret_pairs = float((0.5 * (2 * zeta.max() - zeta[:, None] - zeta[None, :]) * out["comparisons"]).sum() / 2.0)
    # the pseudo-counts (1e-6 comparisons of every pair, docs/algorithms.md#shared-building-blocks) add ~1e-5
    assert out["final"] == pytest.approx(regret_self + regret_pairs, abs=1e-4)



def state_at(name, dataset, t_reached, seed):
    """A state of ``name`` with its exact skip after a fast-path run of ``t_reached`` slots on ``dataset``
    (unshuffled), and the run's generator."""
    spec = get_algorithm(name)
    P = load_dataset(dataset).P
    state = spec.make_state(P.shape[0], params={"skip": "exact"})
    rng = np.random.default_rng(seed)
    zeros = np.zeros(P.shape[0])
    simulate(spec.select, spec.update, state, rng, P, zeros, zeros, np.array([t_reached]), 1, np.zeros(1),
             np.zeros(1), np.zeros(P.shape[0], np.int64), LoopHooks(skip=spec.skip(state)))
    return spec, state, rng


@pytest.mark.parametrize("name,dataset", [("rucb", "sushi"), ("rucb", "mslr16_condorcet"), ("rmed1", "sushi"),
                                          ("rmed2", "sushi"), ("ecw_rmed", "sushi")])
@pytest.mark.parametrize("t_reached", [10**15, 5 * 10**15])
def test_deterministic_skips_end_where_the_slot_by_slot_walk_does_at_large_t(name, dataset, t_reached):
    """From a state reached at t = 1e15 or 5e15, the slot at which the skip's run of self-comparisons ends (its
    next exploration, found by the skip itself) is approached slot by slot from 300 slots before: both walks,
    with and without the skip, give the same self-comparisons and the same next pair, across 5 such ends.  (CCB
    picks among its candidate winners at random in every slot, so its walks do not replay bit for bit: its skip is
    checked in law, ``tests/algorithms/test_skip_exact.py``.)"""
    spec, state, rng = state_at(name, dataset, t_reached, 11)
    t, checked = t_reached + 1, 0
    while checked < 5 and t < MAX_EXACT_HORIZON - 1000:
        probe = copy_state(state)
        slots, _arm = spec.skip(state)(probe, t, np.random.default_rng(0), MAX_EXACT_HORIZON)
        if slots == 0:  # an exploration slot now: take it and look again
            a1, a2 = spec.select(state, t, rng)
            spec.update(state, a1, a2, rng.random() < load_dataset(dataset).P[a1, a2], t)
            t += 1
            continue
        end = t + slots  # the first slot the skip leaves to select
        start = max(t, end - 300)
        walked = []
        for use_skip in (False, True):
            frozen = copy_state(state)
            if start > t:
                spec.skip(frozen)(frozen, t, np.random.default_rng(0), start - 1)
            walked.append(_walk(spec.select, spec.update, spec.skip(frozen), use_skip, frozen,
                                np.random.default_rng(1), start, end + 300)[:3])
        assert walked[0] == walked[1], f"{name} on {dataset}: run end near {end}: {walked}"
        assert walked[0][1] != -1, "the walk must reach the exploration the skip stopped before"
        checked += 1
        spec.skip(state)(state, t, np.random.default_rng(0), end - 1)
        t = end
    assert checked == 5


def crossing_state():
    """(n, w) for K = 3 in which arm 0 beats both others, arm 2 is out of every candidate set, and arm 1's bound
    against arm 0 (6500 comparisons, 2911 won) reaches 1/2 at ln t = 34.67 (t = 1.1e15): arm 1 enters RUCB's
    candidate set there (and CCB's: its upper Copeland count ties arm 0's), and from then on it is the challenger of
    arm 0."""
    n = np.array([[0.0, 6500, 9000], [6500, 0, 9000], [9000, 9000, 0]]) + np.eye(3) * PSEUDO_N
    w = np.array([[0.0, 3589, 6000], [2911, 0, 6000], [3000, 3000, 0]]) + np.eye(3) * PSEUDO_W
    return n, w


def _reference(name):
    """The plain reference of ``name`` in 40-digit arithmetic, for K = 3."""
    from tests.reference.ccb_reference import RefCCB
    from tests.reference.rucb_reference import RefRUCB

    return {"rucb": RefRUCB, "ccb": RefCCB}[name](3)


@pytest.mark.parametrize("name", ["rucb", "ccb"])
def test_challenger_matches_the_exact_reference_where_a_bound_crosses_half_at_large_t(name):
    """300 slots around the slot at which arm 1's bound against arm 0 reaches 1/2 at t = 1.1e15, in the frozen
    statistics, each slot drawn from its own generator: the njit select and the reference in 40-digit arithmetic
    (``tests.reference.rucb_reference``, ``tests.reference.ccb_reference``) make the same pairs, but for the slots
    by which the rounding of the switch time moves the crossing (7 here: ln t has one unit in the last place per 8
    slots).  The rounded sum mean + width stays at or below 1/2 for ~120 slots after the switch time; choosing the
    challenger by it (the code before ``core.bounds.challenger_from_column`` in RUCB, before the switch-time scan of
    ``algorithms.ccb`` in CCB) gave (0, 0) with arm 1 a candidate in about half of them
    (docs/asymptotic.md#rucbs-last-decade)."""
    n, w = crossing_state()
    spec = get_algorithm(name)
    state = spec.make_state(3)
    spec.set_statistics(state, n, w)
    ref = _reference(name)
    ref.n[:], ref.w[:] = n, w
    crossing = first_slot_reaching(float(state.upper_switch[1, 0]), 0.0)
    differ, self_with_two = [], 0
    for t in range(crossing - 150, crossing + 150):
        a1, a2 = (int(a) for a in spec.select(state, t, np.random.default_rng(t)))
        if (a1, a2) != tuple(ref.select(t, np.random.default_rng(t))):
            differ.append(t - crossing)
        self_with_two += a1 == a2 and t >= crossing
    assert self_with_two == 0, "a self-comparison while arm 1 is a candidate"
    assert len(differ) <= 16 and all(-16 <= d < 0 for d in differ), differ


def test_geometric_run_caps_a_wait_beyond_int64_instead_of_wrapping():
    """An event of probability 1e-20 a slot waits ~1e20 slots, past int64: the run is every available slot (the
    chance of an event within 1e12 slots is 1e-8), never the negative count the wrapped conversion gave."""
    rng = np.random.default_rng(5)
    available = 10**12
    runs = [geometric_run(rng, -1e-20, available) for _ in range(2000)]
    assert set(runs) == {available}


# RCS's statistics in MSLR K = 5 Condorcet run 10 (its arm order) at t = 8,907,843,100,000,000: arm 1, the winner,
# won ~10^4 comparisons against arm 3, so "no Condorcet winner sampled" has probability ~3e-19 a slot, and arm 3's
# bound reaches 1/2 22,611,516 slots later.  Raw win counts w[i, j] (i beat j).
RCS_LATE_WINS = [[0, 55, 1, 6, 2], [191, 0, 763, 8399, 189], [12, 460, 0, 53, 6], [21, 7314, 67, 0, 35],
                 [4, 54, 5, 17, 0]]
RCS_LATE_T = 8_907_843_100_000_000


def test_rcs_skip_runs_to_the_next_challenge_when_a_sampled_loss_is_rarer_than_int64_slots():
    """From the state above, every skip (200 generators) takes the whole stretch up to arm 3's challenge and
    counts it as champion slots of arm 1; the wrapped wait used to give a negative run in ~7 % of the draws,
    leaving arm 1 the least-often champion and the run slot by slot for good (docs/asymptotic.md#rcs-near-253)."""
    spec = get_algorithm("rcs")
    n, w = stats_from_wins(RCS_LATE_WINS)
    for seed in range(200):
        state = spec.make_state(5, params={"sampling": "knockout", "skip": "exact"})
        state.comparisons[:], state.wins[:] = n, w
        spec.sync(state)
        state.champion_counts[:] = [21, RCS_LATE_T - 300, 21, 219, 20]
        state.skip_state[0]["last_self"] = 1
        slots, arm = spec.skip(state)(state, RCS_LATE_T, np.random.default_rng(seed), MAX_EXACT_HORIZON)
        assert (slots, arm) == (22_611_516, 1)
        assert state.champion_counts[1] == RCS_LATE_T - 300 + slots
