"""Adding an algorithm is its module plus one registry line (docs/extending.md#adding-an-algorithm): a toy algorithm
registered into ``ALGORITHMS`` for the duration of a test is recommended by the default rule (or its own), gets its row
in the generated registry and defaults tables (so the committed docs/algorithms.md is stale until they are
regenerated), is listed by run.py --list, drawn in the cost figure and timed by the step-cost bench -- with no edit of
any of them."""

import dataclasses
from typing import NamedTuple

import numpy as np
import pandas as pd
import pytest

from dts_reproduction.algorithms import ALGORITHMS
from dts_reproduction.algorithms.base import AlgorithmSpec, Policy, policy_classes
from dts_reproduction.reproduce.harness.paths import ROOT
from dts_reproduction.reproduce.output.tables import markdown_table
from dts_reproduction.reproduce.reporting import claims_report, constants_table
from dts_reproduction.reproduce.studies.custom_runs import listing
from tests.bench_scripts import bench_script

K = 4


class ToyState(NamedTuple):
    """The toy's pair statistics, named as the default recommendation rule reads them, and its setting."""

    comparisons: np.ndarray  # float64 (K, K): n
    wins: np.ndarray  # float64 (K, K): w
    spread: int  # how far the second arm is from the first


def init_toy(K, horizon=None, spread=1):
    """A fresh ``ToyState``: nothing compared yet.  spread: 1 <= spread < K."""
    if not 1 <= spread < K:
        raise ValueError(f"spread must be in [1, {K - 1}], got {spread!r}")
    return ToyState(comparisons=np.zeros((K, K)), wins=np.zeros((K, K)), spread=spread)


def select_toy(state, t, rng):
    """Round robin: the pair (t mod K, t + spread mod K), every arm in turn."""
    K = state.comparisons.shape[0]
    return t % K, (t + state.spread) % K


def update_toy(state, a1, a2, a1_won, t):
    """One more comparison of {a1, a2}, one win for the winner."""
    state.comparisons[a1, a2] += 1.0
    state.comparisons[a2, a1] += 1.0
    state.wins[(a1, a2) if a1_won else (a2, a1)] += 1.0


# Plain Python kernels: a Policy calls a kernel that is not a numba dispatcher as it is (``bound_kernel``).
TOY_SPEC = AlgorithmSpec(name="toy_round_robin", label="Toy round robin", init=init_toy, select=select_toy,
                         update=update_toy, defaults={"spread": 1}, color="#123456", marker="o",
                         reference="tests/algorithms/test_registry_driven.py, a round robin over pairs")


class ToyRoundRobin(Policy):
    """The toy as a live policy."""

    spec = TOY_SPEC


@pytest.fixture()
def toy(monkeypatch):
    """The toy registered in ``ALGORITHMS`` (the one dict every module imports) for the test, and its spec."""
    monkeypatch.setitem(ALGORITHMS, TOY_SPEC.name, TOY_SPEC)
    return TOY_SPEC


def played(policy, slots: int = 200):
    """``policy`` after ``slots`` comparisons in which the higher arm always wins (arm K - 1 the Condorcet winner)."""
    for _ in range(slots):
        a1, a2 = policy.select()
        policy.update(a1, a2, a1 > a2)
    return policy


def test_the_default_rule_recommends_the_empirical_copeland_winner(toy):
    """No ``best_arm`` declared: the policy of the registered toy recommends the empirical Copeland winner of its
    statistics: arm 0 before any comparison (every arm beats nobody, ties go to the lowest); with spread 2 only the
    pairs {0, 2} and {1, 3} are compared, so arms 2 and 3 each beat one arm and the tie goes to 2; with spread 1 every
    neighbouring pair is compared and arm K - 1 beats the most."""
    assert policy_classes()[toy.name] is ToyRoundRobin
    policy = ToyRoundRobin(K, seed=0, spread=2)
    assert policy.best_arm() == 0
    assert played(policy).best_arm() == 2
    assert played(ToyRoundRobin(K, seed=0)).best_arm() == K - 1


def test_a_declared_rule_overrides_the_default(toy, monkeypatch):
    """``best_arm=`` on the spec is what ``Policy.best_arm()`` returns, whatever the statistics say."""
    monkeypatch.setattr(ToyRoundRobin, "spec", dataclasses.replace(toy, best_arm=lambda state: 1))
    assert played(ToyRoundRobin(K, seed=0)).best_arm() == 1


def test_the_generated_tables_have_its_row_and_the_doc_is_stale_until_regenerated(toy):
    """The registry and defaults tables of docs/algorithms.md walk the registry: the toy's row is there (name, class,
    label, source, parameters, no fast path, the default rule), and the committed page no longer agrees with them
    (the test of the generated blocks fails until ``reproduce/report.py --readme README.md`` is rerun)."""
    registry = markdown_table(constants_table.registry_frame())
    assert (f"| `{toy.name}` | `ToyRoundRobin` | {toy.label} | {toy.reference} | `spread` | - | "
            f"empirical Copeland winner | - |") in registry
    assert f"| `{toy.name}` | {{spread: 1}} | - |" in markdown_table(constants_table.defaults_frame())
    blocks = claims_report.generated_blocks(ROOT / "figures")
    current, wanted = claims_report.updated_files(ROOT, blocks)[ROOT / "docs" / "algorithms.md"]
    assert toy.name not in current and f"| `{toy.name}` | `ToyRoundRobin` |" in wanted


def test_run_lists_it(toy):
    """run.py --list prints the toy with its label and its parameters' defaults."""
    assert any(line.split()[:2] == [toy.name, "Toy"] and line.endswith("spread=1") for line in listing().splitlines())


def test_the_cost_figure_draws_it(toy, tmp_path):
    """bench/cost_vs_k.py places the toy in its last panel, with every other algorithm no family names, and draws a
    table holding its rows."""
    cost_vs_k = bench_script("cost_vs_k")
    title, rest = cost_vs_k.panels()[-1]
    assert title == cost_vs_k.REST and rest[-1] == toy.name
    frame = pd.DataFrame({"algorithm": ["dts", toy.name], "options": ["-", "-"], "path": ["default", "default"],
                      "K": [5, 5], "ns_later": [100.0, 50.0], "cpp_ns": [float("nan")] * 2, "beta_ns": [30.0] * 2})
    cost_vs_k.plot(frame, tmp_path / "cost_vs_k")
    assert (tmp_path / "cost_vs_k.png").is_file()


def test_the_step_cost_bench_times_it(toy):
    """bench/step_cost.py times every registered algorithm by default, the toy with it."""
    assert toy.name in bench_script("step_cost").parse_arguments([]).algorithms
