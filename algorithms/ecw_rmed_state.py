"""The state of ECW-RMED (``algorithms.ecw_rmed``): the statistics, the lists LC, LR, LN and the scratch of
the confidence test and findMinRegret (``algorithms.ecw_rmed_steps``)."""

from typing import NamedTuple

import numpy as np

from dts_reproduction.algorithms.base import SKIP_OFF, check_choice, check_positive, check_skip
from dts_reproduction.core.constants import ECW_RMED_ALPHA, ECW_RMED_BETA
from dts_reproduction.core.records import record

PRECHECKS = {"as-run": 0, "none": 1}
# The scalars of the state that change, as the named fields of one record: one array instead of one per
# scalar: every array a kernel reads is reference-counted on each call (docs/extending.md#adding-an-algorithm).
ECW_RMED_COUNTERS = np.dtype([
    ("position", np.int64),  # q, the position in LC of the next list pair
    ("current_len", np.int64),  # |LC|
    ("next_len", np.int64),  # |LN|
    ("pending", np.int64),  # 1 if the list pair of the last select still awaits steps 3-7
    ("played_slot", np.int64),  # the slot t at which that list pair was played
    ("played_pair", np.int64),  # its pair id
    ("allocation_owner", np.int64),  # the candidate whose findMinRegret allocation best_allocation holds; -1: none
])


class ECWRMEDState(NamedTuple):
    """State of ECW-RMED.  Settings: ``alpha``, ``beta`` (forced exploration), ``precheck`` (0 as run,
    1 none), ``skip_runs`` (option skip="exact").  Pair ids: the M = K(K-1)/2 + K entries of the lists
    are pair ids, (i, j) with i > j has id i(i-1)/2 + j (``core.pairs``), the self-pair (w, w) has id
    K(K-1)/2 + w.  No pseudo-counts."""

    comparisons: np.ndarray  # float64 (K, K): n_ij
    wins: np.ndarray  # float64 (K, K): w_ij
    p_hat: np.ndarray  # float64 (K, K): w_ij / n_ij, 1/2 until the pair is played
    kl_half: np.ndarray  # float64 (K, K): KLc(p_hat_ij, 1/2), clamped KL
    alpha: float
    beta: float
    precheck: int
    skip_runs: bool
    counters: np.ndarray  # ECW_RMED_COUNTERS (1,): the changing scalars, by name (``counters[0].position``)
    current_list: np.ndarray  # int64 (M,): LC in its first |LC| entries
    in_remaining: np.ndarray  # bool (M,): LR, the pairs of LC not yet played this round
    next_list: np.ndarray  # int64 (M,): LN in its first |LN| entries
    in_next: np.ndarray  # bool (M,): LN as a mask
    copeland_wins: np.ndarray  # int64 (K,): sc_i = #{j : p_ij > 1/2}, kept by ``update``
    row_min_count: np.ndarray  # float64 (K,): min_{j < i} n_ij, kept by ``update`` (``summarise_row``)
    row_min_gap: np.ndarray  # float64 (K,): min_{j < i} |p_ij - 1/2|, kept by ``update``
    row_max_evidence: np.ndarray  # float64 (K,): max_{j < i} n_ij KLc(p_ij, 1/2), kept by ``update``
    losses: np.ndarray  # int64 (K,): L_i = #{j : p_ji > 1/2}, kept by ``update``
    allocation: np.ndarray  # scratch float64 (K, K): findMinRegret's q for one candidate
    best_allocation: np.ndarray  # scratch float64 (K, K): q of the best candidate
    keys: np.ndarray  # scratch float64 (K,)
    items: np.ndarray  # scratch int64 (K,)
    sorted_cost: np.ndarray  # scratch float64 (K, K): per arm, its sorted beaters' costs
    sorted_arms: np.ndarray  # scratch int64 (K, K): per arm, its beaters in that order
    sorted_len: np.ndarray  # scratch int64 (K,): how many; -1 while not built this slot
    loss_evidence: np.ndarray  # float64 (K, K): per arm i2, n_{j i2} KLc(p_{j i2}, 1/2) of its beaters j, ascending
    loss_arms: np.ndarray  # int64 (K, K): per arm, its beaters in that order (ties: j ascending)
    loss_len: np.ndarray  # int64 (K,): how many
    loss_stale: np.ndarray  # bool (K,): the arm's loss lists must be rebuilt (inputs changed), kept by ``update``
    superior_cost: np.ndarray  # float64 (K, K): per arm, the costs of its sorted superiors (findMinRegret)
    superior_arms: np.ndarray  # int64 (K, K): per arm, its superiors in that order
    superior_len: np.ndarray  # int64 (K,): how many
    superiors_stale: np.ndarray  # bool (K,): the arm's superiors must be rebuilt (inputs changed), kept by ``update``
    allocated_arms: np.ndarray  # int64 (K, K): per arm i2, the arms j of the pairs {j, i2} its column allocated
    allocated_len: np.ndarray  # int64 (K,): how many


def first_row_summary(value, empty, K):
    """A row summary of the fresh state (``summarise_row``): ``value`` in every row but row 0, which has no pair
    and holds ``empty``."""
    summary = np.full(K, value)
    summary[0] = empty
    return summary


def init_ecw_rmed(K, horizon=None, alpha=ECW_RMED_ALPHA, beta=ECW_RMED_BETA, confidence_precheck="as-run",
                  skip=SKIP_OFF):
    """A fresh ``ECWRMEDState``: LC = LR = every pair (i > j) in id order, LN empty.

    alpha, beta: finite and > 0 (forced exploration); confidence_precheck: "as-run" or "none"; skip:
    "off" or "exact" (module doc).
    """
    alpha, beta = check_positive("alpha", alpha), check_positive("beta", beta)
    precheck = PRECHECKS[check_choice("confidence_precheck", confidence_precheck, tuple(PRECHECKS))]
    n_pairs = K * (K - 1) // 2
    in_lr = np.zeros(n_pairs + K, np.bool_)
    in_lr[:n_pairs] = True
    lc = np.zeros(n_pairs + K, np.int64)
    lc[:n_pairs] = np.arange(n_pairs)
    counters = record(ECW_RMED_COUNTERS)
    counters[0]["current_len"] = n_pairs
    counters[0]["allocation_owner"] = -1
    return ECWRMEDState(
        comparisons=np.zeros((K, K)), wins=np.zeros((K, K)), p_hat=np.full((K, K), 0.5), kl_half=np.zeros((K, K)),
        alpha=alpha, beta=beta, precheck=precheck, skip_runs=check_skip(skip),
        counters=counters,
        current_list=lc, in_remaining=in_lr, next_list=np.zeros(n_pairs + K, np.int64),
        in_next=np.zeros(n_pairs + K, np.bool_),
        copeland_wins=np.zeros(K, np.int64), losses=np.zeros(K, np.int64),
        row_min_count=first_row_summary(0.0, np.inf, K), row_min_gap=first_row_summary(0.0, np.inf, K),
        row_max_evidence=first_row_summary(0.0, -np.inf, K),
        allocation=np.zeros((K, K)), best_allocation=np.zeros((K, K)),
        keys=np.zeros(K), items=np.zeros(K, np.int64),
        sorted_cost=np.zeros((K, K)), sorted_arms=np.zeros((K, K), np.int64), sorted_len=np.zeros(K, np.int64),
        loss_evidence=np.zeros((K, K)), loss_arms=np.zeros((K, K), np.int64), loss_len=np.zeros(K, np.int64),
        loss_stale=np.ones(K, np.bool_),
        superior_cost=np.zeros((K, K)), superior_arms=np.zeros((K, K), np.int64), superior_len=np.zeros(K, np.int64),
        superiors_stale=np.ones(K, np.bool_),
        allocated_arms=np.zeros((K, K), np.int64), allocated_len=np.zeros(K, np.int64),
    )
