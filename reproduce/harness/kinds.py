"""Run kinds: what a line's runs record besides (or instead of) the regret curves.

A ``Line`` of the default kind (``kind=""``) stores the regret curves, final regret, self counts and arm order of
every run.  A line of a registered ``RunKind`` runs through the same loop (``core.simulate``) with the kind's
``probe``, a diagnostic that reads the algorithm's state after every ``select`` and counts slots on a random stream
of its own (keyed by the kind's name, ``reproduce.harness.seeds``); its chunks store one integer per run and count,
under ``<results>/<folder>/``, with the kind's ``marker`` in their config, so that a line of one kind never takes
another kind's chunk.  Planned, locked, stored, resumed, interrupted and verified by the runner like any line.
"""

from collections.abc import Callable
from dataclasses import dataclass

from dts_reproduction.algorithms.dts_probe import elimination_probe


@dataclass(frozen=True)
class RunKind:
    """A kind of run: ``name`` (``Line.kind``, and the name of its probe's random stream); ``marker`` (the chunk
    config's "diagnostic" entry; a new version if the probe's counts change); ``folder`` (under the results folder);
    ``algorithms`` and ``params`` (per parameter, the values allowed: the states the probe can read); ``probe`` (an
    njit ``probe(state, rng, counts)``) and ``counts`` (the names of its counts, stored per run in that order)."""

    name: str
    marker: str
    folder: str
    algorithms: tuple
    params: dict
    probe: Callable
    counts: tuple

    def check(self, algorithm: str, params: dict) -> None:
        """ValueError unless the kind can probe ``algorithm`` run with the resolved ``params``."""
        if algorithm not in self.algorithms:
            raise ValueError(f"a {self.name} line runs {' or '.join(self.algorithms)}, got algorithm {algorithm!r}")
        for name, allowed in self.params.items():
            if params.get(name) not in allowed:
                raise ValueError(f"a {self.name} line needs {name} {' or '.join(map(repr, allowed))}, "
                                 f"got {params.get(name)!r}")

    def shapes(self, runs: int) -> dict:
        """The arrays of a chunk of ``runs`` runs: one integer per run and count."""
        return {name: (runs,) for name in self.counts}


# Claim C18 (algorithms.dts_probe): per run, the slots where D-TS's elimination changes its first candidate, and
# the slots with the candidate set restricted.
C18_ELIMINATION = RunKind(
    name="c18_elimination", marker="c18_elimination v1", folder="c18_elimination", algorithms=("dts",),
    params={"sampling": ("indicators",)}, probe=elimination_probe,
    counts=("outside", "restricted"))  # in the order of the probe's indices OUTSIDE, RESTRICTED
KINDS = {kind.name: kind for kind in (C18_ELIMINATION,)}
MARKERS = {kind.marker: kind for kind in KINDS.values()}


def run_kind(name: str) -> RunKind | None:
    """The registered kind ``name`` (None for the default kind, ""); ValueError naming the known ones otherwise."""
    if name == "":
        return None
    if not isinstance(name, str) or name not in KINDS:
        raise ValueError(f"unknown run kind {name!r} (known: {', '.join(KINDS)}, or '' for the regret curves)")
    return KINDS[name]


def config_kind(config: dict) -> RunKind | None:
    """The kind a stored chunk's config was made with (its "diagnostic" marker; None for the default kind);
    ValueError for a marker no registered kind has (a probe since changed: stale)."""
    marker = config.get("diagnostic")
    if marker is None:
        return None
    if marker not in MARKERS:
        raise ValueError(f"diagnostic {marker!r} is no registered run kind's (known: {', '.join(MARKERS)})")
    return MARKERS[marker]
