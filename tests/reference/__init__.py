"""Plain NumPy/Python references, one module per algorithm or kernel, written line by line after the
paper and docs/algorithms.md with no numba: the tests compare the fast code against them.

The kernel references are re-exported here (``from tests import reference as ref``; ``ref.kl`` ...);
the algorithm transcriptions are imported from their modules (``tests.reference.rucb_reference.RefRUCB`` ...).
"""

from tests.reference.argmax_reference import argmax_first, argmin_first
from tests.reference.bounds_reference import direct_UL, mirrored_UL
from tests.reference.copeland_reference import copeland_scores
from tests.reference.dts_reference import dts_select
from tests.reference.harness_reference import simulate
from tests.reference.kl_reference import kl, kl_clamped

__all__ = ["argmax_first", "argmin_first", "copeland_scores", "direct_UL", "dts_select", "kl", "kl_clamped",
           "mirrored_UL", "simulate"]
