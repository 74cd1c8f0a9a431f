"""CW-RMED (Komiyama, Honda & Nakagawa, ICML 2016), the asymptotically optimal Copeland algorithm --
docs/algorithms.md#cw-rmed.

ECW-RMED's frame (``algorithms.ecw_rmed``) with the exact optimisation.  Each slot t: (1) forced exploration, as
ECW-RMED's (``forced_pair``: the first pair (i > j) with n_ij < alpha sqrt(ln t) or |p_ij - 1/2| < beta / max(1,
ln max(1, ln t))); (2) otherwise the pair LC[q] is played and, with the statistics including its outcome and lambda =
max(1, ln t): if an arm of fewest empirical losses is confident (its every alternative costs at least 1 with the
evidences n KLc(p, 1/2) / lambda, ``cw_rmed_program.confident_winner``) then (w, w) joins the next list; otherwise the
regret-minimisation program of the lower bound is solved exactly on the empirical matrix
(``cw_rmed_program.optimal_allocation``) and the pairs with q_ij > n_ij / lambda join it, with (w, w) for its
candidate w; the played pair leaves LR, q advances, and at the end of LC the round LC = LR = LN starts
(``ecw_rmed_steps.add_next``, ``advance_list``).

As for ECW-RMED, the steps after the outcome of slot t run at the start of select at slot t + 1, with the lambda of slot
t (identical for feedback delay 1); no pseudo-counts (p = 1/2 until a pair is played).  Deterministic: ``rng`` is
unused.

Option ``program`` (a yardstick, docs/algorithms.md#cw-rmed, "The program on the true matrix"): "estimated"
(default, the algorithm) or "true": step 6 takes the program's candidate and allocation from the true matrix, which the
simulator hands to ``init`` as ``true_matrix`` (``true_program``, the spec's ``from_problem``), solved once; the
confidence test, forced exploration and the lists still run on the data.  It separates what the estimates cost from
what the lists and the confidence test do.

Option ``skip`` (docs/algorithms.md#cw-rmed, "Exact skip"): "off" (default, slot by slot) or "exact": in the simulator a
run of self-pairs that nothing but ln t can end is done in one step (``cw_rmed_skip``), and so is a stretch of 2**17
slots or more that forced exploration surely gives to one pair, its wins drawn as one Binomial (ECW-RMED's pair run,
``ecw_rmed_forced_run``); the skipped slots' outcomes are not drawn one by one, so the runs equal the default ones in
law, not bit for bit.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from dts_reproduction.algorithms.base import (
    EXACT_SKIP,
    SKIP_OFF,
    AlgorithmSpec,
    Policy,
    check_choice,
    check_positive,
    check_skip,
    exact_skip_hook,
)
from dts_reproduction.algorithms.cw_rmed_program import after_play, optimal_allocation
from dts_reproduction.algorithms.cw_rmed_skip import skip
from dts_reproduction.algorithms.ecw_rmed_forced_run import add_pair_run, plan
from dts_reproduction.algorithms.ecw_rmed_state import ECW_RMED_COUNTERS, first_row_summary
from dts_reproduction.algorithms.ecw_rmed_steps import forced_pair, refresh_pair
from dts_reproduction.core.bounds import update_pair
from dts_reproduction.core.constants import ECW_RMED_ALPHA, ECW_RMED_BETA
from dts_reproduction.core.kl import kl_clamped
from dts_reproduction.core.pairs import pair_of_index
from dts_reproduction.core.records import record

# The scalars of the state that change, as the named fields of one record (docs/extending.md#adding-an-algorithm).
# The most arms CW-RMED runs with here, and why (``AlgorithmSpec.arm_limit``): a run of T = 1e6 stays under about 5
# CPU minutes at K = 9, while one program took 1.8 s at K = 16 -- docs/algorithms.md#cw-rmed, "Cost and limit".
CW_RMED_ARM_LIMIT = (9, "its linear program took 1.8 s at K = 16, hours to days a run of T = 1e6, and its cost a slot "
                        "is measured at K = 5 only, so the cost model could not bound it (docs/algorithms.md#cw-rmed); "
                        "ECW-RMED (ecw_rmed) is its efficient version")
# The counters are ECW-RMED's record (q, |LC|, |LN|, the pending list pair, its slot and id; its allocation owner
# unused here, -1): the list steps both algorithms share are compiled for that one record type, where a record of
# other fields would reach them as a subtype of it, which numba handles as an experimental feature (and warns).
CW_RMED_COUNTERS = ECW_RMED_COUNTERS
PROGRAM_CHOICES = ("estimated", "true")  # option ``program`` (module doc)


class CWRMEDState(NamedTuple):
    """State of CW-RMED.  Settings: ``alpha``, ``beta`` (forced exploration).  Pair ids as ECW-RMED's: (i, j), i > j,
    has id i(i-1)/2 + j, the self-pair (w, w) K(K-1)/2 + w; the lists hold M = K(K-1)/2 + K ids."""

    comparisons: np.ndarray  # float64 (K, K): n_ij
    wins: np.ndarray  # float64 (K, K): w_ij
    p_hat: np.ndarray  # float64 (K, K): w_ij / n_ij, 1/2 until the pair is played
    kl_half: np.ndarray  # float64 (K, K): KLc(p_hat_ij, 1/2)
    alpha: float
    beta: float
    counters: np.ndarray  # CW_RMED_COUNTERS (1,)
    current_list: np.ndarray  # int64 (M,): LC in its first |LC| entries
    in_remaining: np.ndarray  # bool (M,): LR
    next_list: np.ndarray  # int64 (M,): LN in its first |LN| entries
    in_next: np.ndarray  # bool (M,): LN as a mask
    copeland_wins: np.ndarray  # int64 (K,): #{j : p_ij > 1/2}, kept by ``update``
    losses: np.ndarray  # int64 (K,): L_i = #{j : p_ji > 1/2}, kept by ``update``
    row_min_count: np.ndarray  # float64 (K,): min_{j < i} n_ij (forced exploration), kept by ``update``
    row_min_gap: np.ndarray  # float64 (K,): min_{j < i} |p_ij - 1/2|, kept by ``update``
    row_max_evidence: np.ndarray  # float64 (K,): max_{j < i} n_ij KLc, kept by ``refresh_pair`` (unread here)
    allocation: np.ndarray  # float64 (K, K): the last program's optimal q (program="true": the true matrix's)
    true_winner: int  # program="true": the true program's candidate; -1 for the algorithm itself
    skip_runs: bool  # option skip="exact" (``cw_rmed_skip``)


def init_cw_rmed(K, horizon=None, alpha=ECW_RMED_ALPHA, beta=ECW_RMED_BETA, program="estimated", true_matrix=None,
                 skip=SKIP_OFF):
    """A fresh ``CWRMEDState``: LC = LR = every pair (i > j) in id order, LN empty.  alpha, beta: finite and > 0;
    program: "estimated" or "true", which needs ``true_matrix`` (K x K; the simulator gives it, ``true_program``),
    whose program is solved here; skip: "off" or "exact".  ValueError naming the value otherwise.  (``make_state``
    refuses more arms than ``CW_RMED_ARM_LIMIT`` allows before calling it.)"""
    alpha, beta = check_positive("alpha", alpha), check_positive("beta", beta)
    allocation, true_winner = np.zeros((K, K)), -1
    if check_choice("program", program, PROGRAM_CHOICES) == "true":
        P = np.asarray(true_matrix if true_matrix is not None else np.zeros(0), dtype=np.float64)
        if P.shape != (K, K):
            raise ValueError(f"program='true' needs the true matrix, {K} x {K}: the simulator derives it "
                             f"(true_program), got shape {P.shape}")
        kl = np.array([[kl_clamped(P[i, j], 0.5) if i != j else 0.0 for j in range(K)] for i in range(K)])
        true_winner = int(optimal_allocation(P, kl, (P.T > 0.5).sum(axis=1).astype(np.int64), allocation))
    n_pairs = K * (K - 1) // 2
    current_list = np.zeros(n_pairs + K, np.int64)
    current_list[:n_pairs] = np.arange(n_pairs)
    in_remaining = np.zeros(n_pairs + K, np.bool_)
    in_remaining[:n_pairs] = True
    return CWRMEDState(
        comparisons=np.zeros((K, K)), wins=np.zeros((K, K)), p_hat=np.full((K, K), 0.5), kl_half=np.zeros((K, K)),
        alpha=alpha, beta=beta, counters=record(CW_RMED_COUNTERS, (0, n_pairs, 0, 0, 0, 0, -1)),
        current_list=current_list, in_remaining=in_remaining, next_list=np.zeros(n_pairs + K, np.int64),
        in_next=np.zeros(n_pairs + K, np.bool_), copeland_wins=np.zeros(K, np.int64), losses=np.zeros(K, np.int64),
        row_min_count=first_row_summary(0.0, np.inf, K), row_min_gap=first_row_summary(0.0, np.inf, K),
        row_max_evidence=first_row_summary(0.0, -np.inf, K), allocation=allocation, true_winner=true_winner,
        skip_runs=check_skip(skip),
    )


@njit(cache=True)
def select(state, t, rng):
    """Choose (a1, a2) at slot t: first finishes the previous list slot (``after_play``), then forced exploration,
    else the pair LC[q]; ``rng`` is unused."""
    comparisons, p_hat, row_min_count, row_min_gap = (state.comparisons, state.p_hat, state.row_min_count,
                                                      state.row_min_gap)
    kl_half, losses, allocation = state.kl_half, state.losses, state.allocation
    current_list, in_remaining, next_list, in_next = (state.current_list, state.in_remaining, state.next_list,
                                                      state.in_next)
    alpha, beta, counters, true_winner = state.alpha, state.beta, state.counters[0], state.true_winner
    if counters.pending:
        counters.pending = 0
        after_play(comparisons, p_hat, kl_half, losses, allocation, current_list, in_remaining, next_list, in_next,
                   counters, true_winner)
    pair = forced_pair(comparisons, p_hat, row_min_count, row_min_gap, t, alpha, beta)
    if pair < 0:
        pair = current_list[counters.position]
        counters.pending = 1
        counters.played_slot = t
        counters.played_pair = pair
    n_pairs = comparisons.shape[0] * (comparisons.shape[0] - 1) // 2
    if pair >= n_pairs:
        return pair - n_pairs, pair - n_pairs
    return pair_of_index(pair)


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """The common pair update; then p, KLc(p, 1/2), the Copeland counts and the row summaries of the played pair
    (``refresh_pair``; the diagonal stays 1/2)."""
    comparisons, wins, p_hat, kl_half, copeland_wins, losses = (state.comparisons, state.wins, state.p_hat,
                                                                state.kl_half, state.copeland_wins, state.losses)
    row_min_count, row_min_gap, row_max_evidence = state.row_min_count, state.row_min_gap, state.row_max_evidence
    update_pair(comparisons, wins, a1, a2, a1_won)
    if a1 != a2:
        refresh_pair(comparisons, wins, p_hat, kl_half, copeland_wins, losses, row_min_count, row_min_gap,
                     row_max_evidence, a1, a2)


def true_program(params, dataset, P):
    """The spec's ``from_problem``: with program="true", ``params`` with ``true_matrix``, the run's matrix P (the
    dataset's in the run's arm order); unchanged otherwise."""
    if params.get("program") != "true":
        return params
    return {**params, "true_matrix": np.ascontiguousarray(P, dtype=np.float64)}


CW_RMED_SPEC = AlgorithmSpec(
    name="cw_rmed", label="CW-RMED", init=init_cw_rmed, select=select, update=update, from_problem=true_program,
    skip=exact_skip_hook(skip),
    pair_run=exact_skip_hook((plan, add_pair_run)), fast=EXACT_SKIP, color="#ad494a", marker="3",
    defaults={"alpha": ECW_RMED_ALPHA, "beta": ECW_RMED_BETA, "program": "estimated", "true_matrix": None,
              "skip": SKIP_OFF},
    reference="Komiyama et al. ICML 2016, CW-RMED (the lower bound's program solved exactly)",
    arm_limit=CW_RMED_ARM_LIMIT,
)


class CWRMED(Policy):
    """CW-RMED as a live policy; parameters ``alpha`` (3), ``beta`` (0.01); ``skip`` acts only in the simulator."""

    spec = CW_RMED_SPEC
