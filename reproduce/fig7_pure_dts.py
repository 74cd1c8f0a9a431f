"""Fig. 7 (App. D.2.4): impact of RUCB/RLCB elimination -- pure D-TS against D-TS and D-TS+.

Four panels, T = 1e6, 500 runs (K < 10), arms shuffled in every run.  Claims checked (C17):
(a) on StrongBorda pure D-TS has higher regret than D-TS; (b) on Non-Condorcet Cyclic pure D-TS has
linear regret while D-TS does not; (c) on the 5-armed MSLR sets pure D-TS does as well as or better
than D-TS.  Usage: ``python reproduce/fig7_pure_dts.py [--quick] [--runs N] [--horizon T] ...``.
"""

from dts_reproduction.reproduce.claims.registry import FIG7
from dts_reproduction.reproduce.claims.verdict import (
    LINEAR_GROWTH,
    above,
    at_most,
    by_name,
    checked,
    exceeds,
    final,
    growth,
    need,
    under,
    worst,
)
from dts_reproduction.reproduce.cli.arguments import doc_summary
from dts_reproduction.reproduce.cli.figure import regret_figure
from dts_reproduction.reproduce.studies.paper_config import HORIZON
from dts_reproduction.reproduce.studies.paper_panels import FIG7_PANELS as PANELS


def claims(results) -> list[dict]:
    """Rows for C17 (a)-(c)."""
    by = [(f"Fig. 7 {title}", by_name(curves)) for title, curves in results]

    def borda():
        """C17a: (text, verdict) of pure D-TS's R(T) above D-TS's."""
        pure, dts = (final(x) for x in need(by[0][1], "pure_dts", "dts"))
        return f"pure D-TS {pure} vs D-TS {dts}", above(pure, dts)

    def linear():
        """C17b: (text, verdict) of pure D-TS growing linearly and D-TS not."""
        pure, dts = (growth(x) for x in need(by[1][1], "pure_dts", "dts"))
        verdict = worst(exceeds(pure, LINEAR_GROWTH), under(dts, LINEAR_GROWTH))
        return f"growth R(T)/R(T/10): pure D-TS {pure.value:.2f}, D-TS {dts.value:.2f}", verdict

    def as_well(r):
        """The C17c check on the curves ``r`` of one panel (a function, as ``checked`` takes it)."""
        def check():
            """(text, verdict): pure D-TS's R(T) not significantly above D-TS's."""
            pure, dts = (final(x) for x in need(r, "pure_dts", "dts"))
            return f"pure D-TS {pure} vs D-TS {dts}", at_most(pure, dts)
        return check

    return [checked("C17a", by[0][0], "pure D-TS above D-TS", borda),
            checked("C17b", by[1][0], f"pure D-TS linear (growth >= {LINEAR_GROWTH:g}), D-TS not", linear)] + [
        checked("C17c", where, "pure D-TS as good as or better than D-TS (not significantly above)", as_well(r))
        for where, r in by[2:]]


def main(argv=None):
    """Run the figure from the command line (see module docstring)."""
    regret_figure(FIG7, doc_summary(__doc__), PANELS, HORIZON, claims, argv)


if __name__ == "__main__":
    main()
