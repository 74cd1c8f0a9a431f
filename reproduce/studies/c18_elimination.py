"""Claim C18's run kind: D-TS with the probe of ``algorithms.dts_probe``, whose two counts per run its chunks store
(docs/harness.md, "Run kinds").  Declared here, by the study that needs it, and handed to the harness on its lines;
``reproduce.checks.verify.RUN_KINDS`` knows it, so that ``reproduce/verify.py`` re-simulates its chunks.  Its command
line is ``reproduce/c18_elimination.py``.
"""

from dts_reproduction.algorithms.dts_probe import elimination_probe
from dts_reproduction.reproduce.harness.kinds import RunKind, StoredArray

# Per run, the slots where D-TS's elimination changes its first candidate, and the slots with the candidate set
# restricted: in the order of the probe's indices OUTSIDE, RESTRICTED.
COUNTS = ("outside", "restricted")
# The probe reads the cached P(theta_ij > 1/2) of a slot-by-slot D-TS state (a skip would leave slots unprobed).
# Name and version give the marker "c18_elimination v1" and the folder "c18_elimination" its committed chunks were
# stored with (by the diagnostic's former loop of its own, the same draws): keep both, or those chunks are stale.
C18_ELIMINATION = RunKind(
    name="c18_elimination", version=1, arrays=tuple(StoredArray(name, "int64", ("runs",)) for name in COUNTS),
    probe=elimination_probe, counts=COUNTS, algorithms=("dts",), params=(("sampling", ("indicators",)),))
