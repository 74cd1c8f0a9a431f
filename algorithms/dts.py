"""D-TS (Algorithm 1), D-TS+ (Sec. 4.3) and "pure D-TS" (App. D.2.4); how the authors ran
them: ``docs/algorithms.md``, sections "D-TS", "D-TS+" and "pure D-TS".

One state layout and one ``select`` serve the three variants:

* D-TS: RUCB elimination to the candidate set C (lines 4-6), majority vote of Thompson samples inside C
  with uniform tie-breaking (lines 7-11), second candidate by fresh samples among the arms with
  l_{i a1} <= 1/2 (lines 13-14).
* D-TS+: as D-TS, but ties of the vote inside C are broken by the smallest estimated regret R~_i.
* pure D-TS: no RUCB/RLCB filter at all (C = every arm, the second candidate among every arm).

As run by the authors (``docs/algorithms.md``, "D-TS"): pseudo-counts n = 1e-6, w = 1e-5 (so x/0 is "10" and, at t = 1,
a1 = K - 1 deterministically), mirrored bounds, ``u_ij >= 1/2`` in the count (the paper has ``>``).
Only the Thompson samples a decision needs are drawn (rows of C; none when |C| = 1), and by default a
vote 1(theta_ij > 1/2) is drawn as a Bernoulli with the cached probability P(theta_ij > 1/2)
(``core.thompson``), a theta value only where a decision needs it, conditioned on its side.  All of
this is exact in distribution (the pairs of Algorithm 1 line 8 are independent); ``sampling="direct"`` keeps the line-by-line reference.
"""

import math
from typing import NamedTuple

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


class DTSState(NamedTuple):
    """The state of D-TS, D-TS+ and pure D-TS: the pair statistics, the settings, then caches and
    scratch arrays reused every slot (no allocation per slot).  A ``typing.NamedTuple`` so that numba
    sees a heterogeneous tuple (fields read by name in njit code; ``cache=True`` works)."""

    comparisons: np.ndarray  # n, float64 (K, K): comparisons of each unordered pair, pseudo-count 1e-6
    wins: np.ndarray  # w, float64 (K, K): wins[i, j] = wins of i over j, pseudo-count 1e-5
    alpha: float  # RUCB/RLCB scale factor
    variant: int  # VARIANT_DTS, VARIANT_PLUS or VARIANT_PURE
    tie_break: int  # D-TS+ normaliser: TIE_BREAK_AS_RUN or TIE_BREAK_PAPER
    sampling: int  # SAMPLING_INDICATORS or SAMPLING_DIRECT
    upper_counts: np.ndarray  # int64 (K,): upper Copeland counts #{j != i : u_ij >= 1/2} (line 5)
    in_candidates: np.ndarray  # bool (K,): the candidate set C (line 6)
    theta: np.ndarray  # float64 (K, K): first-round Thompson samples (those drawn)
    votes: np.ndarray  # int64 (K,): first-round votes #{j != i : theta_ij > 1/2} of the rows drawn
    rows_drawn: np.ndarray  # bool (K,): rows of theta drawn at this slot
    theta2: np.ndarray  # float64 (K,): second-round samples against a1 (line 13)
    eligible: np.ndarray  # bool (K,): arms that may be the second candidate (l_{i a1} <= 1/2, line 14)
    regret_est: np.ndarray  # float64 (K,): D-TS+ estimated regrets of the tied arms (Sec. 4.3)
    prob_above: np.ndarray  # q, float64 (K, K): q[i, j] = P(theta_ij > 1/2) (kept only with indicators)
    above: np.ndarray  # bool (K, K): the vote indicators 1(theta_ij > 1/2) drawn at this slot
    tied: np.ndarray  # bool (K,): arms of C with the most votes (D-TS+)
    switch_log_t: np.ndarray  # float64 (K, K): the ln t from which the mirrored u_ij >= 1/2


def _make_state(K, variant, alpha, tie_break=TIE_BREAK_AS_RUN, sampling="indicators"):
    """A fresh ``DTSState`` for K arms (pseudo-counts, caches consistent with them)."""
    mode = SAMPLINGS[check_choice("sampling", sampling, tuple(SAMPLINGS))]
    n = np.full((K, K), PSEUDO_N)
    w = np.full((K, K), PSEUDO_W)
    q = np.full((K, K), 0.5)
    if mode == SAMPLING_INDICATORS:
        fill_above_half(q, w)
    return DTSState(
        comparisons=n, wins=w, alpha=float(alpha), variant=int(variant), tie_break=int(tie_break), sampling=int(mode),
        upper_counts=np.zeros(K, np.int64), in_candidates=np.zeros(K, np.bool_), theta=np.full((K, K), 0.5),
        votes=np.zeros(K, np.int64), rows_drawn=np.zeros(K, np.bool_), theta2=np.zeros(K), eligible=np.zeros(K, np.bool_),
        regret_est=np.zeros(K), prob_above=q, above=np.zeros((K, K), np.bool_), tied=np.zeros(K, np.bool_),
        switch_log_t=fill_mirrored_switches(n, w, alpha, np.zeros((K, K))),
    )


def sync_dts(state):
    """Recompute the vote probabilities and the switch-time cache from the statistics
    (``state.comparisons``, ``state.wins``)."""
    fill_above_half(state.prob_above, state.wins)
    fill_mirrored_switches(state.comparisons, state.wins, state.alpha, state.switch_log_t)


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
    They differ only when an arm outside C has more votes than every arm of C (``docs/algorithms.md``, "D-TS+").
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
    rows is drawn given their votes; exact in distribution, see core.thompson)."""
    w, in_c, theta, votes, done, q, above, tied = state.wins, state.in_candidates, state.theta, state.votes, \
        state.rows_drawn, state.prob_above, state.above, state.tied
    done[:] = False
    sample_votes(rng, w, q, indicators, in_c, done, theta, above, votes)
    if variant != VARIANT_PLUS:
        return argmax_uniform(rng, votes, in_c)
    if _mark_tied(votes, in_c, tied) == 1:
        return argmax_first(votes, tied)
    sample_votes(rng, w, q, indicators, ~done, done, theta, above, votes)
    if indicators:
        _theta_given_votes(rng, w, q, above, tied, theta)
    return _plus_regret_estimates(theta, votes, tied, in_c, state.tie_break, state.regret_est)


@njit(cache=True)
def select(state, t, rng):
    """Choose (a1, a2) at slot t: Algorithm 1 lines 3-14, with the D-TS+ and pure variants."""
    n, w, ucount, in_c, theta2, eligible, q = state.comparisons, state.wins, state.upper_counts, \
        state.in_candidates, state.theta2, state.eligible, state.prob_above
    alpha = state.alpha
    variant = state.variant
    indicators = state.sampling == SAMPLING_INDICATORS
    K = n.shape[0]
    log_t = math.log(t)
    # Phase 1, lines 4-6: candidate set C from the upper Copeland counts.
    if variant == VARIANT_PURE:
        fill_true(in_c)
    else:
        upper_copeland_from_switches(state.switch_log_t, log_t, ucount)
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
    record_comparison(state.comparisons, state.wins, state.prob_above, a1, a2, a1_won,
                      state.sampling == SAMPLING_INDICATORS)
    refresh_mirrored_switches(state.comparisons, state.wins, state.alpha, state.switch_log_t, a1, a2)


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
