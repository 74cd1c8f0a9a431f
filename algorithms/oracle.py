"""The bound's oracle: a yardstick for the asymptotic study, not a dueling-bandit algorithm
(docs/asymptotic.md#the-oracle-that-plays-the-bounds-allocation).

The Condorcet-model lower bound (Komiyama, Honda, Kashima and Nakagawa, COLT 2015, Thm. 2) says what an optimal
algorithm does asymptotically: it shows every non-winner i beaten by comparing it with one partner b(i), 1 /
KL(p_{i b(i)}, 1/2) times per ln t, and otherwise compares the winner with itself.  The oracle is *told* the
structure an algorithm has to learn -- which arm is the Condorcet winner c and each non-winner's partner -- and
learns the rest from its comparisons: at slot t it compares (b(i), i) for the first non-winner i (in arm order)
whose evidence of being beaten,

    S_i = n_i KL(w_i / n_i, 1/2) if b(i) has won more than half of the n_i comparisons, else 0

(w_i of them won by b(i); KL unclamped, ``core.kl.kl_bernoulli``), is at most ln t, and the winner with itself
otherwise.  S_i is the log-likelihood ratio of the best p against 1/2, so i's comparisons stop when its evidence
has passed ln t: n_i ~ ln t / KL(p_{i b(i)}, 1/2), and the oracle's regret per ln t tends to
sum_i r_{i b(i)} / KL(p_{i b(i)}, 1/2), the bound C with the optimal partners.

Options:
* ``partner``: "optimal" (default): b(i) is the bound's optimal partner (``core.bound_allocation.optimal_partners``,
  the same function the bound uses); "winner": b(i) = c for every i, the allocation of the winner constant C_w
  (every non-winner shown beaten by the winner, what D-TS, RUCB, RCS and RMED1 do).
* ``partners``: the arms' partners as an int array in the run's arm order, the winner its own partner.  The simulator
  derives it from the run's matrix and ``partner`` (``oracle_partners``, the spec's ``from_problem``); it is not a
  parameter of a stored line (the matrix and ``partner`` decide it).
* ``skip`` (docs/algorithms.md#exact-skipping-of-self-comparison-runs): "off" (default, slot by slot) or "exact":
  a run of self-comparisons of the winner lasts, deterministically, until ln t reaches the least evidence, and is
  done in one step; it draws no outcomes for those slots, so the runs equal the default ones in law, not bit for
  bit.
"""

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from dts_reproduction.algorithms.base import (
    EXACT_SKIP,
    SKIP_OFF,
    AlgorithmSpec,
    check_choice,
    check_skip,
    exact_skip_hook,
)
from dts_reproduction.core.bound_allocation import optimal_partners
from dts_reproduction.core.bounds import update_pair
from dts_reproduction.core.copeland import condorcet_winner
from dts_reproduction.core.kl import kl_bernoulli
from dts_reproduction.core.skipping import last_slot_before, record_self_run

PARTNER_CHOICES = ("optimal", "winner")


class OracleState(NamedTuple):
    """State of the oracle.  Settings: ``winner`` (c), ``skip_runs`` (option skip="exact"), ``partners``.
    Arrays (K arms, no pseudo-counts):"""

    comparisons: np.ndarray  # float64 (K, K): n_ij
    wins: np.ndarray  # float64 (K, K): w_ij
    partners: np.ndarray  # int64 (K,): b(i); partners[c] = c
    evidence: np.ndarray  # float64 (K,): S_i of the module doc, kept consistent with (n, w); +inf for the winner
    winner: int
    skip_runs: bool


def init_oracle(K, horizon=None, partner="optimal", partners=None, skip=SKIP_OFF):
    """State of the oracle on K arms told ``partners`` (module doc; ``partner`` only names how the simulator chose
    them).  ValueError, naming the value, for partners that are not K arm indices with exactly one arm its own
    partner (the winner), and for an unknown ``partner`` or ``skip``."""
    check_choice("partner", partner, PARTNER_CHOICES)
    skip_runs = check_skip(skip)
    if partners is None:
        raise ValueError("the oracle needs partners: the simulator derives them from the true matrix "
                         "(oracle_partners); a caller of init gives them as K arm indices, the winner its own")
    partners = np.asarray(partners)
    if partners.shape != (K,) or partners.dtype.kind not in "iu" or partners.min() < 0 or partners.max() >= K:
        raise ValueError(f"partners must be {K} arm indices in 0..{K - 1}, got {partners.tolist()!r}")
    own = np.flatnonzero(partners == np.arange(K))
    if own.size != 1:
        raise ValueError(f"partners must name exactly one arm as its own partner (the winner), got "
                         f"{own.size}: {partners.tolist()!r}")
    evidence = np.zeros(K)
    evidence[own[0]] = math.inf
    return OracleState(np.zeros((K, K)), np.zeros((K, K)), partners.astype(np.int64), evidence, int(own[0]),
                       skip_runs)


def oracle_partners(params, dataset, P):
    """The spec's ``from_problem``: ``params`` with ``partners`` derived from the run's matrix P (the dataset's,
    in the run's arm order) by ``params["partner"]``.  ValueError if P has no Condorcet winner (the bound the oracle
    plays is the Condorcet model's)."""
    check_choice("partner", params["partner"], PARTNER_CHOICES)
    P = np.ascontiguousarray(P, dtype=np.float64)
    winner = condorcet_winner(P)
    if winner < 0:
        raise ValueError(f"the oracle plays the Condorcet-model bound: dataset {dataset.name!r} has no Condorcet "
                         "winner")
    partners = optimal_partners(P) if params["partner"] == "optimal" else np.full(P.shape[0], winner, np.int64)
    partners[winner] = winner
    return {**params, "partners": partners}


@njit(cache=True, inline="always")
def evidence_of(compared, won):
    """S of the module doc for a non-winner compared ``compared`` times with its partner, ``won`` of them won by
    the partner: compared KL(won / compared, 1/2) if won / compared > 1/2, else 0."""
    if compared > 0.0 and won / compared > 0.5:
        return compared * kl_bernoulli(won / compared, 0.5)
    return 0.0


@njit(cache=True)
def select(state, t, rng):
    """(b(i), i) for the first non-winner i with S_i <= ln t; (c, c) if there is none (module doc)."""
    partners, evidence, winner = state.partners, state.evidence, state.winner
    log_t = math.log(t)
    for i in range(partners.shape[0]):
        if evidence[i] <= log_t:
            return partners[i], i
    return winner, winner


@njit(cache=True)
def update(state, a1, a2, a1_won, t):
    """Count the comparison; refresh the evidence of an arm compared with its partner."""
    comparisons, wins, partners, evidence, winner = (state.comparisons, state.wins, state.partners, state.evidence,
                                                      state.winner)
    update_pair(comparisons, wins, a1, a2, a1_won)
    if a1 != a2:
        for partner, arm in ((a1, a2), (a2, a1)):
            if arm != winner and partners[arm] == partner:
                evidence[arm] = evidence_of(comparisons[partner, arm], wins[partner, arm])


@njit(cache=True)
def skip(state, t, rng, t_limit):
    """After a self-comparison, at slot t: the run of self-comparisons of the winner that ``select`` makes up to the
    last slot s <= t_limit with ln s below every evidence (the very test of ``select``, ``last_slot_before``),
    recorded on the diagonal; (0, -1) if ``select`` compares a pair at t.  Deterministic: no draw."""
    comparisons, wins, evidence, winner = state.comparisons, state.wins, state.evidence, state.winner
    least = evidence.min()
    if not math.log(t) < least:
        return 0, -1
    slots = last_slot_before(least, 0.0, t_limit) - t + 1
    record_self_run(comparisons, wins, winner, slots)
    return slots, winner


ORACLE_SPEC = AlgorithmSpec(
    name="oracle", label="Oracle", init=init_oracle, select=select, update=update, from_problem=oracle_partners,
    skip=exact_skip_hook(skip), fast=EXACT_SKIP, color="#555555", marker="P",
    defaults={"partner": "optimal", "partners": None, "skip": SKIP_OFF},
    reference="Komiyama et al. COLT 2015, Thm. 2: the bound's optimal allocation, played by a policy told the "
              "Condorcet winner and each arm's partner (a yardstick, not a bandit algorithm)",
)
