"""ECW-RMED (Komiyama, Honda & Nakagawa, ICML 2016) as run by Wu & Liu -- docs/algorithms.md#ecw-rmed.

Each slot t: (1) forced exploration -- the first pair (i > j) in the order (1,0), (2,0), (2,1), ... with
n_ij < alpha sqrt(ln t) or |p_ij - 1/2| < beta / max(1, ln max(1, ln t)) is played and the lists are
untouched; (2) otherwise the pair LC[q] (a pair i > j or a self-pair (w, w)) is played, and with the
statistics *including its outcome* (lambda = max(1, ln t)): the empirical Copeland winners are
checked for confidence (step 4); the next pairs are {(w, w)} for a confident winner w, else those with
q_ij > n_ij / lambda from the approximate regret minimisation ``find_min_regret`` plus (w, w); the
played pair leaves LR, new pairs join LN, q advances, and at the end of LC the round LC = LR = LN starts.

The steps after the outcome of slot t run at the *start of select at slot t + 1* (before its forced
exploration check), with the lambda of slot t: identical for feedback delay 1, and with delay d they see
the statistics that have been delivered by then.  No pseudo-counts (n = w = 0, p = 1/2 until played).

Options and choices:
* ``confidence_precheck="as-run"`` (default): the authors' code declares every winner not confident as
  soon as any pair has n_ij KLc(p_ij, 1/2) / lambda > 1, which looks inverted (docs/algorithms.md#ecw-rmed); ``"none"``
  drops that pre-check (only the per-winner test of step 4 remains).
* Sorting: the confidence list S = H + O (H first, each by opponent index) and findMinRegret's Sup set
  are sorted by a stable sort; the C++ uses an unstable std::sort, so ties of equal cost may be
  ordered differently (any order is allowed).
* q is a symmetric allocation of unordered pairs: setting q_{i1 j} or q_{j i2} sets both entries.
* ``skip`` (docs/algorithms.md#exact-skipping-of-self-comparison-runs): "off" (default, slot by slot) or
  "exact": in the simulator, a run of self-pairs (w, w) that nothing but ln t can end is done in one
  step (``skip``), and so is a stretch of 2**17 slots or more that forced exploration surely gives to one
  pair, its wins drawn as one Binomial (``ecw_rmed_forced_run``); the outcomes of the skipped slots are not
  drawn one by one, so the runs equal the default ones in law, not bit for bit.
"""

from numba import njit

from dts_reproduction.algorithms.base import EXACT_SKIP, SKIP_OFF, AlgorithmSpec, Policy, exact_skip_hook
from dts_reproduction.algorithms.ecw_rmed_forced_run import apply, plan
from dts_reproduction.algorithms.ecw_rmed_skip import skip
from dts_reproduction.algorithms.ecw_rmed_state import init_ecw_rmed
from dts_reproduction.algorithms.ecw_rmed_steps import (
    after_play,
    forced_pair,
    mark_stale_columns,
    refresh_pair,
    winner_sign,
)
from dts_reproduction.core.bounds import update_pair
from dts_reproduction.core.constants import ECW_RMED_ALPHA, ECW_RMED_BETA
from dts_reproduction.core.pairs import pair_of_index


@njit(cache=True)
def select(state, t, rng):
    """Choose (a1, a2) at slot t (docs/algorithms.md#ecw-rmed); deterministic, ``rng`` is unused.  First finishes the
    previous list slot (steps 3-7), then forced exploration (step 1), else the pair LC[q] (step 2)."""
    comparisons, p_hat, kl_half, copeland_wins, losses = (state.comparisons, state.p_hat, state.kl_half,
                                                          state.copeland_wins, state.losses)
    row_min_count, row_min_gap, row_max_evidence = state.row_min_count, state.row_min_gap, state.row_max_evidence
    alpha, beta, precheck, counters = state.alpha, state.beta, state.precheck, state.counters[0]
    current_list, in_remaining, next_list, in_next = (state.current_list, state.in_remaining, state.next_list,
                                                      state.in_next)
    allocation, best_allocation, keys, items = state.allocation, state.best_allocation, state.keys, state.items
    sorted_cost, sorted_arms, sorted_len = state.sorted_cost, state.sorted_arms, state.sorted_len
    loss_evidence, loss_arms, loss_len, loss_stale = (state.loss_evidence, state.loss_arms, state.loss_len,
                                                      state.loss_stale)
    superior_cost, superior_arms, superior_len = state.superior_cost, state.superior_arms, state.superior_len
    superiors_stale, allocated_arms, allocated_len = state.superiors_stale, state.allocated_arms, state.allocated_len
    if counters.pending:
        counters.pending = 0
        after_play(comparisons, p_hat, kl_half, copeland_wins, losses, row_max_evidence, precheck, keys, items,
                   loss_evidence, loss_arms, loss_len, loss_stale, allocation, best_allocation, sorted_cost,
                   sorted_arms, sorted_len, superior_cost, superior_arms, superior_len, superiors_stale,
                   allocated_arms, allocated_len, current_list, in_remaining, next_list, in_next, counters)
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
    """The common pair update; p, KLc(p, 1/2), the Copeland counts and the row summaries of the played pair follow
    (``refresh_pair``; the diagonal stays 1/2), and the sorted superiors this makes stale are marked
    (``mark_stale_columns``)."""
    comparisons, wins, p_hat, kl_half = state.comparisons, state.wins, state.p_hat, state.kl_half
    copeland_wins, losses, superiors_stale, loss_stale = (state.copeland_wins, state.losses, state.superiors_stale,
                                                          state.loss_stale)
    row_min_count, row_min_gap, row_max_evidence = state.row_min_count, state.row_min_gap, state.row_max_evidence
    update_pair(comparisons, wins, a1, a2, a1_won)
    if a1 != a2:
        before = winner_sign(p_hat, a1, a2)
        refresh_pair(comparisons, wins, p_hat, kl_half, copeland_wins, losses, row_min_count, row_min_gap,
                     row_max_evidence, a1, a2)
        mark_stale_columns(p_hat, superiors_stale, loss_stale, a1, a2, before)


ECW_RMED_SPEC = AlgorithmSpec(
    name="ecw_rmed", label="ECW-RMED", init=init_ecw_rmed, select=select, update=update,
    skip=exact_skip_hook(skip), pair_run=exact_skip_hook((plan, apply)), fast=EXACT_SKIP, color="#98df8a", marker="*",
    defaults={"alpha": ECW_RMED_ALPHA, "beta": ECW_RMED_BETA, "confidence_precheck": "as-run", "skip": SKIP_OFF},
    reference="Komiyama et al. ICML 2016, ECW-RMED (Algorithm 2 with the approximate optimisation)",
)


class ECWRMED(Policy):
    """ECW-RMED as a live policy; parameters ``alpha`` (3), ``beta`` (0.01), ``confidence_precheck``;
    ``skip`` acts only in the simulator."""

    spec = ECW_RMED_SPEC
