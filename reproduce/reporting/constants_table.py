"""The registry, constants and defaults tables of docs/algorithms.md, generated from the code so that they cannot drift.

``registry_frame()`` walks the registry: every algorithm's name, live-policy class, legend label, source, parameters
and exact fast paths, so that a newly registered algorithm has its row once the blocks are regenerated.
``constants_frame()`` reads ``core/constants.py``: every constant, its value (as the module holds it), the
source its line names (the comment after the assignment) and the modules of ``core/``, ``algorithms/`` and
``reproduce/`` that import it.  ``defaults_frame()`` reads the registry: every algorithm's default parameters
and presets (``AlgorithmSpec.defaults``, ``AlgorithmSpec.presets``).  ``reproduce/report.py`` writes them
as the ``registry``, ``constants`` and ``defaults`` blocks of docs/algorithms.md.
"""

import ast
import io
import tokenize
from pathlib import Path

import pandas as pd

from dts_reproduction.algorithms import ALGORITHMS, YARDSTICKS
from dts_reproduction.algorithms.base import policy_classes
from dts_reproduction.core import constants
from dts_reproduction.reproduce.harness.paths import ROOT

CONSTANTS_SOURCE = Path(constants.__file__)
# The packages whose imports of a constant are listed in the "used by" column.
USING_PACKAGES = ("core", "algorithms", "reproduce")


def shown(value) -> str:
    """A value as the tables print it: floats in the shortest of %g (0.51, 1e-06), strings quoted, dicts
    as {name: value, ...}."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{name}: {shown(item)}" for name, item in value.items()) + "}"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def constant_sources(path: Path = CONSTANTS_SOURCE) -> dict[str, str]:
    """Each module-level constant of ``path`` (an upper-case name assigned once), in file order, with the
    comment on its line; ValueError naming the constant if its line has no comment (every constant names
    its source)."""
    text = path.read_text()
    comments = {token.start[0]: token.string.lstrip("#").strip()
                for token in tokenize.generate_tokens(io.StringIO(text).readline) if token.type == tokenize.COMMENT}
    sources = {}
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name.isupper():
                if node.end_lineno not in comments:
                    raise ValueError(f"{path.name}: constant {name} has no comment naming its source")
                sources[name] = comments[node.end_lineno]
    return sources


def importers(root: Path = ROOT) -> dict[str, list[str]]:
    """For each name imported ``from dts_reproduction.core.constants``, the modules (paths from the repository root) of
    ``USING_PACKAGES`` that import it."""
    users: dict[str, list[str]] = {}
    for package in USING_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.module == "dts_reproduction.core.constants":
                    for alias in node.names:
                        users.setdefault(alias.name, []).append(path.relative_to(root).as_posix())
    return users


def constants_frame() -> pd.DataFrame:
    """One row per constant of ``core/constants.py``: name, value, source (its comment), used by."""
    users = importers()
    return pd.DataFrame([{"constant": f"`{name}`", "value": shown(getattr(constants, name)),
                          "source (core/constants.py)": source,
                          "used by": ", ".join(f"`{user}`" for user in users.get(name, ())) or "-"}
                         for name, source in constant_sources().items()])


def defaults_frame() -> pd.DataFrame:
    """One row per registered algorithm and yardstick (``algorithms.YARDSTICKS``): its default parameters and its
    presets."""
    return pd.DataFrame([{"algorithm": f"`{name}`", "defaults": shown(dict(spec.defaults)) if spec.defaults else "-",
                          "presets": ", ".join(f"`{name}:{preset}` {shown(dict(params))}"
                                               for preset, params in spec.presets.items()) or "-"}
                         for name, spec in {**ALGORITHMS, **YARDSTICKS}.items()])


def recommendation_rule(spec) -> str:
    """How the table names an algorithm's recommendation rule: its ``best_arm`` function, or the default's name."""
    return f"`{spec.best_arm.__name__}`" if spec.best_arm is not None else "empirical Copeland winner"


def registry_frame() -> pd.DataFrame:
    """One row per registered algorithm and yardstick (``algorithms.YARDSTICKS``), in registry order: its name (for
    ``--algorithms`` and ``get_algorithm``), its live-policy class ("-" for a yardstick, which has none), legend label,
    source (``AlgorithmSpec.reference``), parameters (``AlgorithmSpec.defaults``; their values are in the defaults
    table), exact fast path (``AlgorithmSpec.fast``, "-" if none), recommendation rule (``AlgorithmSpec.best_arm``, or
    the default, docs/algorithms.md#recommendations; "-" without a live policy) and whether it needs the horizon
    (``AlgorithmSpec.needs_horizon``: a live policy must be given it, the simulator re-runs it on the horizon grid)."""
    classes = policy_classes()
    return pd.DataFrame([{"name": f"`{name}`", "class": f"`{classes[name].__name__}`" if name in classes else "-",
                          "label": spec.label, "source": spec.reference,
                          "parameters": ", ".join(f"`{parameter}`" for parameter in spec.defaults) or "-",
                          "fast path": shown(dict(spec.fast)) if spec.fast else "-",
                          "best arm": recommendation_rule(spec) if name in classes else "-",
                          "needs the horizon": "yes" if spec.needs_horizon else "-"}
                         for name, spec in {**ALGORITHMS, **YARDSTICKS}.items()])
