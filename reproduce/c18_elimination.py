"""Claim C18 (the paper's conclusion): "RUCB-based elimination seldom occurs under most practical settings".

A diagnostic, not a figure of the paper (which gives no numbers).  D-TS is run on every paper dataset with
K <= 32; at every slot, right after D-TS chose its first candidate from the candidate set C (Algorithm 1,
lines 4-11), an independent majority vote over *all* arms is drawn from the same posterior, and the slot
counts as one where the elimination acts if that unrestricted vote winner is outside C (so D-TS's choice
differs from what the vote alone would give).  Also recorded: the share of slots with C smaller than the
whole arm set.  The probe is ``algorithms.dts_probe``; its lines are of the run kind ``c18_elimination``
(``reproduce.studies.elimination_study``, a ``reproduce.harness.kinds.RunKind``), so the runner plans, locks, stores
(under ``<results>/c18_elimination/<dataset>/``), resumes, interrupts and ``reproduce/verify.py`` re-simulates them
like every figure's lines.  Writes ``<figures>/c18_elimination.csv`` (per dataset:
mean and s.e. over runs) and ``c18_elimination_claims.csv``.  Defaults: 20 runs of T = 1e6 per dataset,
the horizon of the paper's experiments (quick: 20 runs of T = 1e4); the share depends on T (at T = 1e5
it was 22% on MSLR K = 5 non-Condorcet and 1.4% on K = 16 non-Condorcet, at T = 1e6 3.5% and 17%), so a
shorter run does not stand for the paper's settings.
Usage: ``python reproduce/c18_elimination.py [--quick] [--runs N] [--horizon T] [--n-jobs J] [--plot-only]``.
"""

from dts_reproduction.reproduce.cli.arguments import doc_summary
from dts_reproduction.reproduce.cli.figure import figure_main
from dts_reproduction.reproduce.config.scale import power_of_ten
from dts_reproduction.reproduce.studies.elimination_study import DEFAULT_HORIZON, DEFAULT_RUNS, build


def main(argv=None):
    """Run the diagnostic from the command line (see module docstring)."""
    figure_main(doc_summary(__doc__), DEFAULT_HORIZON, build, argv, fast=False,  # slot by slot, by design
                runs_help=f"independent runs per dataset (default: {DEFAULT_RUNS}, this script's own; the paper gives "
                          "none)",
                horizon_help=f"time horizon T, e.g. 100000 or 1e5 (default: {power_of_ten(DEFAULT_HORIZON)}, the "
                             "horizon of the paper's experiments)")


if __name__ == "__main__":
    main()
