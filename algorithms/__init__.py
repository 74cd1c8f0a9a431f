"""Dueling-bandit algorithms, each an ``AlgorithmSpec`` composed from the ``core`` kernels.

``ALGORITHMS`` maps the registry (CLI) name to its spec, in the paper's legend order
followed by the lines the paper computes but does not plot, by pure D-TS, by the large-scale
algorithms past the paper (Self-Sparring, MergeDTS, MergeRUCB) and by the successors REX3, WS-S, WS-W, Versatile-DB,
C2B and CW-RMED.
Each algorithm also has a ``Policy`` class for live experiments.  ``YARDSTICKS`` holds what the simulator runs
beside them but is not a dueling-bandit algorithm (it is told what an algorithm has to learn, so it has no live
policy): the oracle that plays the lower bound's allocation (``algorithms.oracle``).  ``get_algorithm`` looks a
name up in both, then among the researcher's own algorithms loaded as plug-ins (``algorithms.plugins``: a file or
module of one's own, or an installed entry point).

Before any kernel is imported, numba's cache is keyed on the sources of ``core/`` and ``algorithms/``
(``core.use_source_cache``): an algorithm's cached machine code includes the core kernels it calls.
"""

from pathlib import Path

from dts_reproduction import core

core.use_source_cache(Path(core.__file__).resolve().parent, Path(__file__).resolve().parent)

from dts_reproduction.algorithms.base import AlgorithmSpec, Policy
from dts_reproduction.algorithms.btm import BTM, BTM_SPEC
from dts_reproduction.algorithms.c2b import C2B, C2B_SPEC
from dts_reproduction.algorithms.ccb import CCB, CCB_SPEC
from dts_reproduction.algorithms.cw_rmed import CW_RMED_SPEC, CWRMED
from dts_reproduction.algorithms.dts import DTS, DTS_PLUS_SPEC, DTS_SPEC, PURE_DTS_SPEC, DTSPlus, PureDTS
from dts_reproduction.algorithms.ecw_rmed import ECW_RMED_SPEC, ECWRMED
from dts_reproduction.algorithms.merge_dts import MERGE_DTS_SPEC, MergeDTS
from dts_reproduction.algorithms.merge_rucb import MERGE_RUCB_SPEC, MergeRUCB
from dts_reproduction.algorithms.oracle import ORACLE_SPEC
from dts_reproduction.algorithms.plugins import FORMS, is_plugin_reference, load_plugin, plugin_names, plugin_spec
from dts_reproduction.algorithms.rcs import RCS, RCS_SPEC
from dts_reproduction.algorithms.rex3 import REX3_SPEC, Rex3
from dts_reproduction.algorithms.rmed import RMED1, RMED1_SPEC, RMED2, RMED2_SPEC
from dts_reproduction.algorithms.rucb import RUCB, RUCB_SPEC
from dts_reproduction.algorithms.savage import SAVAGE_SPEC, Savage
from dts_reproduction.algorithms.scb import SCB, SCB_SPEC
from dts_reproduction.algorithms.self_sparring import SELF_SPARRING_SPEC, SelfSparring
from dts_reproduction.algorithms.sparring import MULTISBM_SPEC, SPARRING_SPEC, MultiSBM, Sparring
from dts_reproduction.algorithms.versatile_db import VERSATILE_DB_SPEC, VersatileDB
from dts_reproduction.algorithms.winner_stays import WS_S_SPEC, WS_W_SPEC, WinnerStaysStrong, WinnerStaysWeak

ALGORITHMS: dict[str, AlgorithmSpec] = {
    spec.name: spec
    for spec in (
        BTM_SPEC, SAVAGE_SPEC, RUCB_SPEC, RCS_SPEC, SPARRING_SPEC, CCB_SPEC, SCB_SPEC, RMED1_SPEC,
        ECW_RMED_SPEC, DTS_SPEC, DTS_PLUS_SPEC, MULTISBM_SPEC, RMED2_SPEC, PURE_DTS_SPEC, SELF_SPARRING_SPEC,
        MERGE_DTS_SPEC, MERGE_RUCB_SPEC, REX3_SPEC, WS_S_SPEC, WS_W_SPEC, VERSATILE_DB_SPEC, C2B_SPEC, CW_RMED_SPEC,
    )
}


YARDSTICKS: dict[str, AlgorithmSpec] = {ORACLE_SPEC.name: ORACLE_SPEC}


def get_algorithm(name: str) -> AlgorithmSpec:
    """The spec of the algorithm named ``name``: a built-in one (``ALGORITHMS``, ``YARDSTICKS``), else a plug-in
    loaded in this process, else one an installed entry point offers (``algorithms.plugins``, loaded now).
    ValueError listing the known names otherwise (a plug-in reference is no name: ``resolve_algorithm``), or if
    that entry point cannot be loaded."""
    if isinstance(name, str) and (name in ALGORITHMS or name in YARDSTICKS):
        return ALGORITHMS[name] if name in ALGORITHMS else YARDSTICKS[name]
    spec = plugin_spec(name) if isinstance(name, str) else None
    if spec is not None:
        return spec
    hint = f"; {name!r} is a plug-in reference, not a name: load it with load_plugin" \
        if is_plugin_reference(name) else f"; or a plug-in of one's own, {FORMS}"
    raise ValueError(f"unknown algorithm {name!r} (known: {', '.join(sorted([*ALGORITHMS, *YARDSTICKS]))}"
                     f"{''.join(f', {plugin}' for plugin in plugin_names())}{hint})")


def resolve_algorithm(entry: str) -> AlgorithmSpec:
    """The spec of an algorithm given by name (``get_algorithm``) or by plug-in reference (``is_plugin_reference``:
    loaded and registered, ``load_plugin``), as a command line's ``--algorithms`` takes them; ValueError as theirs."""
    return load_plugin(entry) if is_plugin_reference(entry) else get_algorithm(entry)


__all__ = [
    "ALGORITHMS", "YARDSTICKS", "AlgorithmSpec", "Policy", "get_algorithm", "is_plugin_reference", "load_plugin",
    "resolve_algorithm",
    "BTM", "C2B", "CCB", "CWRMED", "DTS", "DTSPlus", "ECWRMED", "MergeDTS", "MergeRUCB", "MultiSBM", "PureDTS", "RCS",
    "RMED1", "RMED2", "RUCB", "Rex3", "SCB", "Savage", "SelfSparring", "Sparring", "VersatileDB", "WinnerStaysStrong",
    "WinnerStaysWeak",
]
