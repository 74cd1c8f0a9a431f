"""A researcher's own algorithm, as the plug-in tests write it into a temporary folder: Copeland-UCB, in two
transcriptions of one rule -- numba (``NJIT_SOURCE``) and plain Python on NumPy arrays (``PYTHON_SOURCE``).

The rule, at slot t with n_ij comparisons and w_ij wins of i over j: UCB_ij = w_ij / n_ij + sqrt(scale ln t / n_ij)
(1 for a pair never compared, 1/2 on the diagonal); the first arm maximises #{j != i : UCB_ij >= 1/2}, the second
maximises UCB_j,a1 (a1 itself, at 1/2, when no other arm may still beat it: a self-comparison); each tie is broken
uniformly by one ``rng.random()`` (the candidate at floor(u * count), in index order).  Both transcriptions compute
every UCB with the same correctly rounded operations and ``math.log``, and draw the same numbers in the same order,
so they make the same decisions: a run of each draws the same numbers (numba's ``Generator.random`` is numpy's).
"""

from pathlib import Path

from dts_reproduction.algorithms import plugins

COMMON = '''
import math
from typing import NamedTuple

import numpy as np

from dts_reproduction.algorithms import AlgorithmSpec, Policy
from dts_reproduction.algorithms.base import check_positive


class CopelandUCBState(NamedTuple):
    scale: float
    comparisons: np.ndarray
    wins: np.ndarray


def init(K, horizon=None, scale=2.0):
    return CopelandUCBState(check_positive("scale", scale), np.zeros((K, K)), np.zeros((K, K)))
'''

NJIT_SOURCE = COMMON + '''
from numba import njit


@njit
def _ucb(comparisons, wins, scale, t):
    K = comparisons.shape[0]
    log_t = math.log(t)
    ucb = np.empty((K, K))
    for i in range(K):
        for j in range(K):
            if i == j:
                ucb[i, j] = 0.5
            elif comparisons[i, j] == 0.0:
                ucb[i, j] = 1.0
            else:
                ucb[i, j] = wins[i, j] / comparisons[i, j] + math.sqrt(scale * log_t / comparisons[i, j])
    return ucb


@njit
def _pick(scores, rng):
    best = scores.max()
    count = 0
    for k in range(scores.shape[0]):
        if scores[k] == best:
            count += 1
    chosen = int(rng.random() * count)
    for k in range(scores.shape[0]):
        if scores[k] == best:
            if chosen == 0:
                return k
            chosen -= 1
    return -1


@njit
def select(state, t, rng):
    comparisons, wins, scale = state.comparisons, state.wins, state.scale
    ucb = _ucb(comparisons, wins, scale, t)
    K = ucb.shape[0]
    counts = np.zeros(K)
    for i in range(K):
        for j in range(K):
            if j != i and ucb[i, j] >= 0.5:
                counts[i] += 1.0
    a1 = _pick(counts, rng)
    a2 = _pick(ucb[:, a1].copy(), rng)
    return a1, a2


@njit
def update(state, a1, a2, a1_won, t):
    comparisons, wins = state.comparisons, state.wins
    if a1 == a2:
        return
    comparisons[a1, a2] += 1.0
    comparisons[a2, a1] += 1.0
    if a1_won:
        wins[a1, a2] += 1.0
    else:
        wins[a2, a1] += 1.0


MINE_SPEC = AlgorithmSpec(name="copeland_ucb", label="Copeland-UCB", init=init, select=select, update=update,
                          defaults={"scale": 2.0}, reference="the plug-in tests' toy")


class CopelandUCB(Policy):
    spec = MINE_SPEC
'''

PYTHON_SOURCE = COMMON + '''

def _pick(scores, rng):
    best = np.flatnonzero(scores == scores.max())
    return int(best[int(rng.random() * best.size)])


def select(state, t, rng):
    n, w = state.comparisons, state.wins
    with np.errstate(divide="ignore", invalid="ignore"):
        ucb = np.where(n > 0.0, w / n + np.sqrt(state.scale * math.log(t) / n), 1.0)
    np.fill_diagonal(ucb, 0.5)
    counts = (ucb >= 0.5).sum(axis=1) - 1.0
    a1 = _pick(counts, rng)
    return a1, _pick(ucb[:, a1], rng)


def update(state, a1, a2, a1_won, t):
    if a1 == a2:
        return
    state.comparisons[a1, a2] += 1.0
    state.comparisons[a2, a1] += 1.0
    if a1_won:
        state.wins[a1, a2] += 1.0
    else:
        state.wins[a2, a1] += 1.0


MINE_SPEC = AlgorithmSpec(name="copeland_ucb_py", label="Copeland-UCB (Python)", init=init, select=select,
                          update=update, defaults={"scale": 2.0}, reference="the plug-in tests' toy")


class CopelandUCB(Policy):
    spec = MINE_SPEC
'''


def write_plugins(folder: Path) -> tuple[str, str]:
    """Write the two transcriptions into ``folder`` as ``mine.py`` (njit, algorithm "copeland_ucb") and
    ``mine_python.py`` (plain Python, "copeland_ucb_py"); return their references to ``MINE_SPEC``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "mine.py").write_text(NJIT_SOURCE)
    (folder / "mine_python.py").write_text(PYTHON_SOURCE)
    return f"{folder / 'mine.py'}:MINE_SPEC", f"{folder / 'mine_python.py'}:MINE_SPEC"


def empty_plugin_table(monkeypatch) -> None:
    """Give the test an empty plug-in table (``algorithms.plugins``), the process's own restored after it."""
    monkeypatch.setattr(plugins, "_PLUGINS", {})
    monkeypatch.setattr(plugins, "_BY_REFERENCE", {})
