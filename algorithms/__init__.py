"""Dueling-bandit algorithms, each an ``AlgorithmSpec`` composed from the ``core`` kernels.

``ALGORITHMS`` maps the registry (CLI) name to its spec; ``get_algorithm`` looks one up by name.
"""

from algorithms.base import AlgorithmSpec, Policy
from algorithms.btm import BTM, BTM_SPEC
from algorithms.ccb import CCB, CCB_SPEC
from algorithms.rcs import RCS, RCS_SPEC
from algorithms.rucb import RUCB, RUCB_SPEC
from algorithms.dts import DTS, DTS_PLUS_SPEC, DTS_SPEC, PURE_DTS_SPEC, DTSPlus, PureDTS
from algorithms.savage import SAVAGE_SPEC, Savage
from algorithms.scb import SCB, SCB_SPEC
from algorithms.sparring import MULTISBM_SPEC, SPARRING_SPEC, MultiSBM, Sparring

ALGORITHMS: dict[str, AlgorithmSpec] = {
    spec.name: spec for spec in (BTM_SPEC, SAVAGE_SPEC, RUCB_SPEC, RCS_SPEC, SPARRING_SPEC, MULTISBM_SPEC, CCB_SPEC, SCB_SPEC, DTS_SPEC, DTS_PLUS_SPEC, PURE_DTS_SPEC)
}


def get_algorithm(name: str) -> AlgorithmSpec:
    """The spec registered under ``name``; ValueError listing the known names otherwise."""
    try:
        return ALGORITHMS[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown algorithm {name!r} (known: {', '.join(sorted(ALGORITHMS))})"
        ) from None


__all__ = ["ALGORITHMS", "AlgorithmSpec", "Policy", "get_algorithm", "BTM", "DTS", "DTSPlus", "PureDTS", "Savage",
           "SCB", "Sparring", "MultiSBM",
           "RUCB", "RCS", "CCB"]
