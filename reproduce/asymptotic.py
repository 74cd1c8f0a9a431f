"""Past the paper, in time: the regret slope of every algorithm with an exact fast path, decade by decade up to
T = 2**53 (9.0e15), against the lower bound, on every paper matrix with a Condorcet winner; and, at T = 1e7, the
matrices without one (where a run costs up to its T slots: only the self-comparisons of an arm the algorithm has
settled on can be skipped).

Usage: ``python reproduce/asymptotic.py [--plot-only] [--algorithms NAME ...] [--datasets NAME ...] [--quick]
[--runs N] ...``.  Without --plot-only the lines not stored yet are computed one at a time, the cheapest first
(--algorithms and --datasets choose which).  Writes, in the figures folder: ``asymptotic.png`` and ``.pdf`` (the
slope per decade of every line, against C and C_w), ``asymptotic_ratio.png`` (last-decade slope over C),
``asymptotic.csv`` (the slopes per decade), ``asymptotic_final.csv``, ``_claims.csv`` (C5 at T = 2**53, A1-A7),
``_cost.csv``, ``_allocation.csv``, ``_pairs.csv``, ``_forced_band.csv``, ``_sweeps.csv``, ``_decade_pairs.csv``,
``_decade_parts.csv`` and ``_partner_runs.csv``.  The study is the package ``reproduce.studies.asymptotic_study``
(its docstring maps it; docs/asymptotic.md).
"""

from dts_reproduction.algorithms.base import MAX_EXACT_HORIZON
from dts_reproduction.reproduce.cli.arguments import add_line_selection, doc_summary
from dts_reproduction.reproduce.cli.figure import figure_main
from dts_reproduction.reproduce.studies.asymptotic_study.asymptotic_run import build


def main(argv=None):
    """Run the study from the command line (see module docstring)."""
    figure_main(doc_summary(__doc__), MAX_EXACT_HORIZON, build, argv, more_flags=add_line_selection, fast=False)


if __name__ == "__main__":
    main()
