"""D-TS (Algorithm 1), D-TS+ (Sec. 4.3) and "pure D-TS" (App. D.2.4) -- spec 3.1, 3.2, 3.3.

One state layout and one ``select`` serve the three variants:

* D-TS: RUCB elimination to the candidate set C (lines 4-6), majority vote of Thompson samples inside C
  with uniform tie-breaking (lines 7-11), second candidate by fresh samples among the arms with
  l_{i a1} <= 1/2 (lines 13-14).
* D-TS+: as D-TS, but ties of the vote inside C are broken by the smallest estimated regret R~_i.
* pure D-TS: no RUCB/RLCB filter at all (C = every arm, the second candidate among every arm).

As run by the authors (spec 3.1): pseudo-counts n = 1e-6, w = 1e-5 (so x/0 is "10" and, at t = 1,
a1 = K - 1 deterministically), mirrored bounds, ``u_ij >= 1/2`` in the count (the paper has ``>``).
Only the Thompson samples a decision needs are drawn (rows of C; none when |C| = 1), and by default a
vote 1(theta_ij > 1/2) is drawn as a Bernoulli with the cached probability P(theta_ij > 1/2)
(``core.thompson``), a theta value only where a decision needs it, conditioned on its side.  All of
this is exact in distribution (spec 1.15); ``sampling="direct"`` keeps the line-by-line reference.
"""

import math

import numpy as np
from numba import njit

from algorithms.base import AlgorithmSpec, Policy, check_alpha, check_choice
from core.argmax import argmax_first, argmax_uniform, argmin_first, fill_true
from core.bounds import fill_mirrored_switches, mirrored_bounds, refresh_mirrored_switches, upper_copeland_from_switches
from core.constants import ALPHA, PSEUDO_N, PSEUDO_W
from core.kl import kl_clamped
from core.thompson import SAMPLING_DIRECT, SAMPLING_INDICATORS, SAMPLINGS, fill_above_half, record_comparison, sample_beta_given_side, sample_votes

VARIANT_DTS, VARIANT_PLUS, VARIANT_PURE = 0, 1, 2
TIE_BREAK_AS_RUN, TIE_BREAK_PAPER = 0, 1
TIE_BREAKS = {"as-run": TIE_BREAK_AS_RUN, "paper": TIE_BREAK_PAPER}


def _make_state(K, variant, alpha, tie_break=TIE_BREAK_AS_RUN, sampling="indicators"):
    """State tuple: (n, w, real params [alpha], int params [variant, tie_break, sampling], then
    scratch: upper Copeland counts, candidate mask, theta (K x K), votes, done mask, second-round
    samples, eligible mask, estimated regrets, q = P(theta_ij > 1/2) (K x K), vote indicators
    (K x K), tied mask, and the ln t at which each mirrored u_ij reaches 1/2 (K x K))."""
    mode = SAMPLINGS[check_choice("sampling", sampling, tuple(SAMPLINGS))]
    n = np.full((K, K), PSEUDO_N)
    w = np.full((K, K), PSEUDO_W)
    q = np.full((K, K), 0.5)
    if mode == SAMPLING_INDICATORS:
        fill_above_half(q, w)
    return (
        n, w, np.array([alpha]), np.array([variant, tie_break, mode], dtype=np.int64),
        np.zeros(K, np.int64), np.zeros(K, np.bool_), np.full((K, K), 0.5), np.zeros(K, np.int64),
        np.zeros(K, np.bool_), np.zeros(K), np.zeros(K, np.bool_), np.zeros(K), q, np.zeros((K, K), np.bool_),
        np.zeros(K, np.bool_), fill_mirrored_switches(n, w, alpha, np.zeros((K, K))),
    )


def sync_dts(state):
    """Recompute the vote probabilities q and the switch-time cache from the statistics (state[0],
    state[1])."""
    fill_above_half(state[12], state[1])
    fill_mirrored_switches(state[0], state[1], state[2][0], state[15])


def init_dts(K, horizon=None, alpha=ALPHA, sampling="indicators"):
    """State of D-TS (Algorithm 1).  alpha: RUCB/RLCB scale factor (> 0; warns if <= 0.5).

    sampling: "indicators" (default) draws each vote 1(theta_ij > 1/2) as a Bernoulli with the cached
    probability P(theta_ij > 1/2), and a theta value only when a decision needs it (conditioned on its
    side); "direct" draws every needed theta from its Beta, line by line after Algorithm 1.  The two
    are identical in distribution (tests/test_dts.py); "direct" is the reference and the bench baseline.
    """
    return _make_state(K, VARIANT_DTS, check_alpha(alpha), sampling=sampling)


def init_dts_plus(K, horizon=None, alpha=ALPHA, tie_break="as-run", sampling="indicators"):
    """State of D-TS+ (Sec. 4.3).  alpha and sampling as for D-TS.

    tie_break: "as-run" (default) normalises the estimated regrets by the largest vote count inside C,
    as the authors' code does; "paper" uses the largest vote count over all arms, as Sec. 4.3 writes.
    They differ only when an arm outside C has more votes than every arm of C (spec D3).
    """
    tie = TIE_BREAKS[check_choice("tie_break", tie_break, tuple(TIE_BREAKS))]
    return _make_state(K, VARIANT_PLUS, check_alpha(alpha), tie, sampling)


def init_pure_dts(K, horizon=None, sampling="indicators"):
    """State of pure D-TS (App. D.2.4): D-TS without RUCB/RLCB elimination; sampling as for D-TS."""
    return _make_state(K, VARIANT_PURE, 1.0, sampling=sampling)


@njit(cache=True)
def _plus_regret_estimates(theta, votes, tied, in_c, tie_break, regret_est):
    """D-TS+ tie-break (Sec. 4.3): R_i = sum_{j != i, theta_ij != 1/2} (2 M* - s_i - s_j) / KLc(theta_ij, 1/2)
    for the tied arms i, and the first minimiser.  M* is the largest vote inside C ("as-run") or over
    all arms ("paper"); the paper's 1/(K-1) normalisation does not change the argmin."""
    K = votes.shape[0]
    reference = votes[argmax_first(votes, in_c)]
    if tie_break == TIE_BREAK_PAPER:
        reference = np.max(votes)
    for i in range(K):
        if not tied[i]:
            continue
        total = 0.0
        for j in range(K):
            if j != i and theta[i, j] != 0.5:
                total += (2 * reference - votes[i] - votes[j]) / kl_clamped(theta[i, j], 0.5)
        regret_est[i] = total
    return argmin_first(regret_est, tied)


@njit(cache=True)
def _mark_tied(votes, in_c, tied):
    """tied = the arms of C with the most votes; returns how many."""
    best = votes[argmax_first(votes, in_c)]
    count = 0
    for i in range(votes.shape[0]):
        tied[i] = in_c[i] and votes[i] == best
        count += tied[i]
    return count


@njit(cache=True)
def _theta_given_votes(rng, w, q, above, tied, theta):
    """theta_ij of the tied rows, each drawn from its Beta conditioned on its vote above[i, j] (and
    mirrored inside the tied rows): with the votes, exactly the unconditional joint sample."""
    K = w.shape[0]
    for i in range(K):
        if not tied[i]:
            continue
        for j in range(K):
            if j == i:
                continue
            if tied[j] and j < i:
                theta[i, j] = 1.0 - theta[j, i]
            else:
                side = q[i, j] if above[i, j] else q[j, i]
                theta[i, j] = sample_beta_given_side(rng, w[i, j] + 1.0, w[j, i] + 1.0, above[i, j], side)


@njit(cache=True)
def _first_candidate(rng, state, variant, indicators):
    """Lines 7-11: the votes of the rows of C and their uniform-tie argmax; for D-TS+ on a tie, the
    votes of the other rows too and the regret-based tie-break (with indicators, theta of the tied
    rows is drawn given their votes; exact in distribution, spec 1.15 and core.thompson)."""
    w, ints, in_c, theta, votes, done, regret_est, q, above, tied = state[1], state[3], state[5], state[6], \
        state[7], state[8], state[11], state[12], state[13], state[14]
    done[:] = False
    sample_votes(rng, w, q, indicators, in_c, done, theta, above, votes)
    if variant != VARIANT_PLUS:
        return argmax_uniform(rng, votes, in_c)
    if _mark_tied(votes, in_c, tied) == 1:
        return argmax_first(votes, tied)
    sample_votes(rng, w, q, indicators, ~done, done, theta, above, votes)
    if indicators:
        _theta_given_votes(rng, w, q, above, tied, theta)
    return _plus_regret_estimates(theta, votes, tied, in_c, ints[1], regret_est)


@njit(cache=True)
def select(state, t, rng):
    """Choose (a1, a2) at slot t: Algorithm 1 lines 3-14, with the D-TS+ and pure variants."""
    n, w, reals, ints, ucount, in_c, theta2, eligible, q = state[0], state[1], state[2], state[3], state[4], \
        state[5], state[9], state[10], state[12]
    alpha = reals[0]
    variant = ints[0]
    indicators = ints[2] == SAMPLING_INDICATORS
    K = n.shape[0]
    log_t = math.log(t)
    # Phase 1, lines 4-6: candidate set C from the upper Copeland counts.
    if variant == VARIANT_PURE:
        fill_true(in_c)
    else:
        upper_copeland_from_switches(state[15], log_t, ucount)
        top = np.max(ucount)
        for i in range(K):
            in_c[i] = ucount[i] == top
    size_c = 0
    for i in range(K):
        size_c += in_c[i]
    # Lines 7-11: majority vote of the Thompson samples, restricted to C (no sample needed if |C| = 1).
    if size_c == 1:
        a1 = argmax_first(ucount, in_c)
    else:
        a1 = _first_candidate(rng, state, variant, indicators)
    # Phase 2, lines 13-14: fresh samples against a1 among the arms with l_{i a1} <= 1/2.  theta2_{a1}
    # is 1/2, so only samples above 1/2 can beat a1: with indicators, the value of theta2_i is drawn
    # (conditioned on > 1/2) only for arms whose indicator says so.
    for i in range(K):
        eligible[i] = i == a1 or variant == VARIANT_PURE or mirrored_bounds(n, w, i, a1, log_t, alpha)[1] <= 0.5
        if i == a1:
            theta2[i] = 0.5
        elif eligible[i] and not indicators:
            theta2[i] = rng.beta(w[i, a1] + 1.0, w[a1, i] + 1.0)
        elif eligible[i]:
            eligible[i] = rng.random() < q[i, a1]
            if eligible[i]:
                theta2[i] = sample_beta_given_side(rng, w[i, a1] + 1.0, w[a1, i] + 1.0, True, q[i, a1])
    a2 = argmax_first(theta2, eligible)
    return a1, a2


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """Algorithm 1 line 17: one more win for the winner of (a1, a2); refresh the pair's vote
    probabilities (when sampling with indicators) and its switch times."""
    record_comparison(state[0], state[1], state[12], a1, a2, a1_won, state[3][2] == SAMPLING_INDICATORS)
    refresh_mirrored_switches(state[0], state[1], state[2][0], state[15], a1, a2)


DTS_SPEC = AlgorithmSpec(
    name="dts", label="D-TS", init=init_dts, select=select, update=update, sync=sync_dts,
    color="#d62728", marker="o",
    defaults={"alpha": ALPHA, "sampling": "indicators"},
    reference="Wu & Liu 2016, Algorithm 1",
)
DTS_PLUS_SPEC = AlgorithmSpec(
    name="dts_plus", label="D-TS+", init=init_dts_plus, select=select, update=update, sync=sync_dts,
    color="#1f77b4", marker=">",
    defaults={"alpha": ALPHA, "tie_break": "as-run", "sampling": "indicators"},
    reference="Wu & Liu 2016, Sec. 4.3 (Algorithm 1 with line 11 replaced)",
)
PURE_DTS_SPEC = AlgorithmSpec(
    name="pure_dts", label="pure D-TS", init=init_pure_dts, select=select, update=update, sync=sync_dts,
    color="#000000", marker="<",
    defaults={"sampling": "indicators"},
    reference="Wu & Liu 2016, App. D.2.4 (Algorithm 1 without lines 4-6 and the l <= 1/2 filter)",
)


class DTS(Policy):
    """D-TS as a live policy (see ``Policy``); parameter ``alpha`` (default 0.51)."""

    spec = DTS_SPEC


class DTSPlus(Policy):
    """D-TS+ as a live policy; parameters ``alpha`` (0.51) and ``tie_break`` ("as-run" or "paper")."""

    spec = DTS_PLUS_SPEC


class PureDTS(Policy):
    """Pure D-TS (no RUCB/RLCB elimination) as a live policy."""

    spec = PURE_DTS_SPEC
