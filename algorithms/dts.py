"""D-TS (Algorithm 1), D-TS+ (Sec. 4.3) and "pure D-TS" (App. D.2.4) -- spec 3.1, 3.2, 3.3.

One state layout and one ``select`` serve the three variants:

* D-TS: RUCB elimination to the candidate set C (lines 4-6), majority vote of Thompson samples inside C
  with uniform tie-breaking (lines 7-11), second candidate by fresh samples among the arms with
  l_{i a1} <= 1/2 (lines 13-14).
* D-TS+: as D-TS, but ties of the vote inside C are broken by the smallest estimated regret R~_i.
* pure D-TS: no RUCB/RLCB filter at all (C = every arm, the second candidate among every arm).

As run by the authors (spec 3.1): pseudo-counts n = 1e-6, w = 1e-5 (so x/0 is "10" and, at t = 1,
a1 = K - 1 deterministically), mirrored bounds, ``u_ij >= 1/2`` in the count (the paper has ``>``).
Only the Thompson samples a decision needs are drawn (rows of C; none when |C| = 1); this is exact in
distribution (spec 1.15).
"""

import math

import numpy as np
from numba import njit

from algorithms.base import AlgorithmSpec, Policy, check_alpha, check_choice
from core.argmax import argmax_first, argmax_uniform, argmin_first, fill_true
from core.bounds import mirrored_bounds, update_pair, upper_copeland_mirrored
from core.constants import ALPHA, PSEUDO_N, PSEUDO_W
from core.copeland import sample_tournament
from core.kl import kl_clamped

VARIANT_DTS, VARIANT_PLUS, VARIANT_PURE = 0, 1, 2
TIE_BREAK_AS_RUN, TIE_BREAK_PAPER = 0, 1
TIE_BREAKS = {"as-run": TIE_BREAK_AS_RUN, "paper": TIE_BREAK_PAPER}


def _make_state(K, variant, alpha, tie_break=TIE_BREAK_AS_RUN):
    """State tuple: (n, w, real params [alpha], int params [variant, tie_break], then scratch:
    upper Copeland counts, candidate mask, theta (K x K), votes, done mask, second-round samples,
    eligible mask, estimated regrets)."""
    return (
        np.full((K, K), PSEUDO_N),
        np.full((K, K), PSEUDO_W),
        np.array([alpha]),
        np.array([variant, tie_break], dtype=np.int64),
        np.zeros(K, np.int64),
        np.zeros(K, np.bool_),
        np.full((K, K), 0.5),
        np.zeros(K, np.int64),
        np.zeros(K, np.bool_),
        np.zeros(K),
        np.zeros(K, np.bool_),
        np.zeros(K),
    )


def init_dts(K, horizon=None, alpha=ALPHA):
    """State of D-TS (Algorithm 1).  alpha: RUCB/RLCB scale factor (> 0; warns if <= 0.5)."""
    return _make_state(K, VARIANT_DTS, check_alpha(alpha))


def init_dts_plus(K, horizon=None, alpha=ALPHA, tie_break="as-run"):
    """State of D-TS+ (Sec. 4.3).

    tie_break: "as-run" (default) normalises the estimated regrets by the largest vote count inside C,
    as the authors' code does; "paper" uses the largest vote count over all arms, as Sec. 4.3 writes.
    They differ only when an arm outside C has more votes than every arm of C (spec D3).
    """
    tie = TIE_BREAKS[check_choice("tie_break", tie_break, tuple(TIE_BREAKS))]
    return _make_state(K, VARIANT_PLUS, check_alpha(alpha), tie)


def init_pure_dts(K, horizon=None):
    """State of pure D-TS (App. D.2.4): D-TS without RUCB/RLCB elimination; no parameter."""
    return _make_state(K, VARIANT_PURE, 1.0)


@njit(cache=True)
def _plus_first_candidate(rng, w, in_c, done, theta, votes, tied, regret_est, tie_break):
    """D-TS+ first candidate (Sec. 4.3): among the arms of C with the most votes M, the one with the
    smallest R_i = sum_{j != i, theta_ij != 1/2} (2 M* - s_i - s_j) / KLc(theta_ij, 1/2), first index
    on ties.  M* = M ("as-run") or the largest vote over all arms ("paper"); the scale 1/(K-1) of the
    paper's normalised scores does not change the argmin."""
    K = w.shape[0]
    best_in_c = votes[argmax_first(votes, in_c)]
    n_tied = 0
    for i in range(K):
        tied[i] = in_c[i] and votes[i] == best_in_c
        n_tied += tied[i]
    if n_tied == 1:
        return argmax_first(votes, tied)
    for i in range(K):
        done[i] = in_c[i]
    rest = ~in_c
    sample_tournament(rng, w, rest, done, theta, votes)
    reference = best_in_c
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
def select(state, t, rng):
    """Choose (a1, a2) at slot t: Algorithm 1 lines 3-14, with the D-TS+ and pure variants."""
    n, w, reals, ints, ucount, in_c, theta, votes, done, theta2, eligible, regret_est = state
    alpha = reals[0]
    variant = ints[0]
    K = n.shape[0]
    log_t = math.log(t)
    # Phase 1, lines 4-6: candidate set C from the upper Copeland counts.
    if variant == VARIANT_PURE:
        fill_true(in_c)
    else:
        upper_copeland_mirrored(n, w, log_t, alpha, ucount)
        top = np.max(ucount)
        for i in range(K):
            in_c[i] = ucount[i] == top
    size_c = 0
    for i in range(K):
        size_c += in_c[i]
    # Lines 7-11: majority vote of the Thompson samples, restricted to C.
    if size_c == 1:
        a1 = argmax_first(ucount, in_c)
    else:
        for i in range(K):
            done[i] = False
        sample_tournament(rng, w, in_c, done, theta, votes)
        if variant == VARIANT_PLUS:
            a1 = _plus_first_candidate(rng, w, in_c, done, theta, votes, eligible, regret_est, ints[1])
        else:
            a1 = argmax_uniform(rng, votes, in_c)
    # Phase 2, lines 13-14: fresh samples against a1 among the arms with l_{i a1} <= 1/2.
    for i in range(K):
        if i == a1:
            eligible[i] = True
            theta2[i] = 0.5
        elif variant == VARIANT_PURE or mirrored_bounds(n, w, i, a1, log_t, alpha)[1] <= 0.5:
            eligible[i] = True
            theta2[i] = rng.beta(w[i, a1] + 1.0, w[a1, i] + 1.0)
        else:
            eligible[i] = False
    a2 = argmax_first(theta2, eligible)
    return a1, a2


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """Algorithm 1 line 17: one more win for the winner of (a1, a2)."""
    update_pair(state[0], state[1], a1, a2, a1_won)


DTS_SPEC = AlgorithmSpec(
    name="dts", label="D-TS", init=init_dts, select=select, update=update,
    defaults={"alpha": ALPHA},
    reference="Wu & Liu 2016, Algorithm 1",
)
DTS_PLUS_SPEC = AlgorithmSpec(
    name="dts_plus", label="D-TS+", init=init_dts_plus, select=select, update=update,
    defaults={"alpha": ALPHA, "tie_break": "as-run"},
    reference="Wu & Liu 2016, Sec. 4.3 (Algorithm 1 with line 11 replaced)",
)
PURE_DTS_SPEC = AlgorithmSpec(
    name="pure_dts", label="pure D-TS", init=init_pure_dts, select=select, update=update,
    defaults={},
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
