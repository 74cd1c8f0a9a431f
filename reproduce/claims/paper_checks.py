"""The claims of the paper's Sec. 5 and App. D that concern one regret panel, as checks over its curves.

Each function takes ``site`` (``reproduce.claims.verdict.Site``: the panel's stable id and what the table
shows) and ``r`` (curve name -> LineResult of that panel) and returns a claims-table row
(``reproduce.claims.verdict.checked``).  A figure's study lists which
claims apply to which of its panels; claims that compare panels or use another kind of figure live in
the figure's module (``reproduce.studies.paper_figures``).  Each claim is defined in ``reproduce/claims/registry.py``;
a row's statement here is the comparison computed, with the threshold that makes the paper's words a computation.
"""

from typing import NamedTuple

from dts_reproduction.reproduce.claims.verdict import (
    ASYMPTOTIC_SPAN,
    CLEAR_FACTOR,
    COMPARABLE_FACTOR,
    FAILS,
    LINEAR_GROWTH,
    Site,
    above,
    below,
    below_factor,
    best,
    by_name,
    checked,
    close,
    exceeds,
    final,
    growth,
    log_slope,
    need,
    ratio_of,
    under,
    within_factor,
    worst,
)
from dts_reproduction.reproduce.config.paper import ALL_ELEVEN

DTS_FAMILY = ("dts", "dts_plus")
LABELS = {"dts": "D-TS", "dts_plus": "D-TS+"}
BASELINES = tuple(name for name in ALL_ELEVEN if name not in DTS_FAMILY)


def c1_indistinguishable(site, r):
    """C1 (Sec. 5.1): with a Condorcet winner, D-TS and D-TS+ are practically indistinguishable."""
    def check():
        """(text, verdict) of C1 on the curves ``r``, as ``checked`` takes it."""
        dts, plus = (final(x) for x in need(r, *DTS_FAMILY))
        return f"D-TS {dts} vs D-TS+ {plus}", close(dts, plus)
    return checked("C1", site, "D-TS and D-TS+ indistinguishable (within noise)", check)


def c2_lowest(site, r):
    """C2 (Sec. 5.1): on Condorcet data D-TS and D-TS+ perform "much better" than every existing method (the best
    baseline CLEAR_FACTOR times their regret)."""
    def check():
        """(text, verdict) of C2 on the curves ``r``, as ``checked`` takes it."""
        need(r, *ALL_ELEVEN)
        lowest = min(BASELINES, key=lambda name: final(r[name]).value)
        verdict = worst(*(above(final(r[lowest]), final(r[d]), CLEAR_FACTOR) for d in DTS_FAMILY))
        return (f"best baseline {r[lowest].label} {final(r[lowest])}; D-TS {final(r['dts'])}, "
                f"D-TS+ {final(r['dts_plus'])}"), verdict
    return checked("C2", site, f"every baseline above D-TS and D-TS+ (x{CLEAR_FACTOR:g})", check)


def c3_rcs_above(site, r):
    """C3 (Sec. 5.1): D-TS and D-TS+ clearly beat RCS."""
    def check():
        """(text, verdict) of C3 on the curves ``r``, as ``checked`` takes it."""
        rcs, dts, plus = (final(x) for x in need(r, "rcs", *DTS_FAMILY))
        verdict = worst(above(rcs, dts, CLEAR_FACTOR), above(rcs, plus, CLEAR_FACTOR))
        return (f"RCS {rcs}, {ratio_of(rcs, dts).value:.2f}x D-TS, {ratio_of(rcs, plus).value:.2f}x D-TS+",
                verdict)
    return checked("C3", site, f"RCS well above D-TS and D-TS+ (x{CLEAR_FACTOR:g})", check)


def c4_rcs_beats_rucb_ccb(site, r):
    """C4 (Sec. 5.1): on real-world Condorcet data RCS beats RUCB and CCB, but "the improvement is limited" --
    read as less than COMPARABLE_FACTOR, or as smaller than the gain of D-TS over RCS that the same paragraph
    contrasts it with (either reading; the measured ratios are printed)."""
    def check():
        """(text, verdict) of C4 on the curves ``r``, as ``checked`` takes it."""
        rcs, rucb, ccb, dts, plus = (final(x) for x in need(r, "rcs", "rucb", "ccb", *DTS_FAMILY))
        ours = min(dts, plus, key=lambda e: e.value)
        gain = ratio_of(rcs, ours)
        limited = best(worst(below_factor(rucb, rcs, COMPARABLE_FACTOR), below_factor(ccb, rcs, COMPARABLE_FACTOR)),
                       worst(below(ratio_of(rucb, rcs), gain), below(ratio_of(ccb, rcs), gain)))
        verdict = worst(below(rcs, rucb), below(rcs, ccb), limited)
        return (f"RCS {rcs}, RUCB {rucb}, CCB {ccb}; RUCB/RCS {ratio_of(rucb, rcs).value:.2f}, CCB/RCS "
                f"{ratio_of(ccb, rcs).value:.2f}, RCS/best D-TS variant {gain.value:.2f}"), verdict
    return checked("C4", site, f"RCS below RUCB and CCB, by less than x{COMPARABLE_FACTOR:g} or less than D-TS's "
                   "gain over RCS", check)


class TrappedRuns(NamedTuple):
    """Of a line of the asymptotic study: its runs whose regret grows linearly
    (``reproduce.studies.asymptotic_study.decades.trapped``), all its runs, and whether that makes the line linear
    (``decades.linear``: it then has no slope)."""

    trapped: int
    runs: int
    linear: bool


def c5_same_slope_lower_constant(site, r, trapped=None):
    """C5 (Sec. 5.1): against RMED1 and ECW-RMED, D-TS and D-TS+ have about the same slope in ln t but a much
    smaller constant (lower R(T)).  ``trapped`` (the asymptotic study) maps the name of a line with trapped runs to
    its ``TrappedRuns``, and ``r`` then holds the logarithmic runs of every line: the row names the trapped runs it
    leaves out, and a linear line has no slope to be about another's, so the slope half of every comparison it is
    in FAILS (the row shows what its few logarithmic runs do)."""
    trapped = trapped or {}
    linear = {name for name, runs in trapped.items() if runs.linear}

    def check():
        """(text, verdict) of C5 on the curves ``r``, as ``checked`` takes it."""
        need(r, "rmed1", "ecw_rmed", *DTS_FAMILY)
        slopes = {name: log_slope(r[name], span=ASYMPTOTIC_SPAN) for name in (*DTS_FAMILY, "rmed1", "ecw_rmed")}
        verdict = worst(*(worst(FAILS if {d, b} & linear else within_factor(slopes[d], slopes[b], COMPARABLE_FACTOR),
                                above(final(r[b]), final(r[d]), CLEAR_FACTOR))
                          for d in DTS_FAMILY for b in ("rmed1", "ecw_rmed")))
        shown = ", ".join(f"{r[k].label} {v}" for k, v in slopes.items())
        finals = ", ".join(f"{r[k].label} {final(r[k])}" for k in slopes)
        left_out = "".join(f"{r[k].label}'s regret is linear in {t.trapped} of {t.runs} runs, "
                           f"{'so it has no slope' if t.linear else 'left out'} (below: its logarithmic runs only); "
                           for k, t in trapped.items() if k in slopes)
        return f"{left_out}slopes per ln t over the last half decade: {shown}; R(T): {finals}", verdict
    return checked("C5", site, f"slope within x{COMPARABLE_FACTOR:g} of RMED1's and ECW-RMED's, R(T) "
                   f"x{CLEAR_FACTOR:g} lower", check)


def c6_ecw_slightly_worse(site, r):
    """C6 (Sec. 5.1): on Condorcet data ECW-RMED is slightly worse than RMED1, with a similar slope."""
    def check():
        """(text, verdict) of C6 on the curves ``r``, as ``checked`` takes it."""
        ecw, rmed1 = need(r, "ecw_rmed", "rmed1")
        verdict = worst(above(final(ecw), final(rmed1)), below_factor(final(ecw), final(rmed1), COMPARABLE_FACTOR),
                        within_factor(log_slope(ecw, span=ASYMPTOTIC_SPAN), log_slope(rmed1, span=ASYMPTOTIC_SPAN),
                                      COMPARABLE_FACTOR))
        return (f"ECW-RMED {final(ecw)} vs RMED1 {final(rmed1)}; slopes over the last half decade "
                f"{log_slope(ecw, span=ASYMPTOTIC_SPAN)} vs {log_slope(rmed1, span=ASYMPTOTIC_SPAN)}"), verdict
    return checked("C6", site, f"ECW-RMED above RMED1 by less than x{COMPARABLE_FACTOR:g}, similar slope", check)


def c7_strong_borda(site, r):
    """C7 (Sec. 5.1, StrongBorda): SAVAGE (Condorcet variant) has the lowest Copeland regret; D-TS and D-TS+
    escape the Borda trap (logarithmic regret); ECW-RMED does not do well."""
    def check():
        """(text, verdict) of C7 on the curves ``r``, as ``checked`` takes it."""
        need(r, *ALL_ELEVEN)
        savage = final(r["savage"])
        others = [name for name in ALL_ELEVEN if name != "savage"]
        growths = {d: growth(r[d]) for d in DTS_FAMILY}
        verdict = worst(*(below(savage, final(r[name])) for name in others),
                        *(under(g, LINEAR_GROWTH) for g in growths.values()),
                        *(above(final(r["ecw_rmed"]), final(r[d]), CLEAR_FACTOR) for d in DTS_FAMILY))
        runner_up = min(others, key=lambda name: final(r[name]).value)
        return (f"SAVAGE {savage}, next {r[runner_up].label} {final(r[runner_up])}; growth D-TS "
                f"{growths['dts'].value:.2f}, D-TS+ {growths['dts_plus'].value:.2f}; ECW-RMED "
                f"{final(r['ecw_rmed'])}"), verdict
    return checked("C7", site, f"SAVAGE lowest; D-TS, D-TS+ growth < {LINEAR_GROWTH:g}; ECW-RMED above D-TS "
                   f"(x{CLEAR_FACTOR:g})", check)


def c7_g2w_savage_near_rmed1(site, r):
    """C7, last part (Sec. 5.1): under gap-to-Condorcet-winner regret SAVAGE approaches RMED1's asymptotic
    performance (comparable slopes in ln t)."""
    def check():
        """(text, verdict) of C7 on the curves ``r``, as ``checked`` takes it."""
        savage, rmed1 = need(r, "savage", "rmed1")
        s, m = log_slope(savage, "g2w", ASYMPTOTIC_SPAN), log_slope(rmed1, "g2w", ASYMPTOTIC_SPAN)
        return (f"G2W slopes per ln t over the last half decade: SAVAGE {s}, RMED1 {m}",
                within_factor(s, m, COMPARABLE_FACTOR))
    return checked("C7", site, f"G2W: SAVAGE's slope within x{COMPARABLE_FACTOR:g} of RMED1's", check)


def c8_condorcet_methods_fail(site, r):
    """C8 (Sec. 5.2): without a Condorcet winner BTM, RUCB, RCS, RMED1 grow near-linearly, and they,
    Sparring and SAVAGE end far above D-TS."""
    def check():
        """(text, verdict) of C8 on the curves ``r``, as ``checked`` takes it."""
        need(r, "btm", "rucb", "rcs", "rmed1", "sparring", "savage", "dts")
        growths = {name: growth(r[name]) for name in ("btm", "rucb", "rcs", "rmed1")}
        far = ("btm", "rucb", "rcs", "rmed1", "sparring", "savage")
        verdict = worst(*(exceeds(g, LINEAR_GROWTH) for g in growths.values()),
                        *(above(final(r[name]), final(r["dts"]), CLEAR_FACTOR) for name in far))
        ratios = ", ".join(f"{r[name].label} {ratio_of(final(r[name]), final(r['dts'])).value:.1f}x" for name in far)
        return ("growth R(T)/R(T/10): " + ", ".join(f"{r[k].label} {v.value:.1f}" for k, v in growths.items())
                + f"; vs D-TS: {ratios}"), verdict
    return checked("C8", site, f"BTM, RUCB, RCS, RMED1 growth >= {LINEAR_GROWTH:g}; they, Sparring, SAVAGE above "
                   f"D-TS (x{CLEAR_FACTOR:g})", check)


def c9_beat_ccb_scb(site, r, family=DTS_FAMILY):
    """C9 (Sec. 5.2): D-TS and D-TS+ are much better than CCB and SCB on non-Condorcet data.  ``family``: the
    D-TS variants the panel draws (on the 500-armed instance, where D-TS+ is not run, D-TS alone); a variant
    the panel draws but that is not computed yet makes the row "not measured", it is not left out."""
    def check():
        """(text, verdict) of C9 on the curves ``r``, as ``checked`` takes it."""
        need(r, *family)
        ccb, scb = (final(x) for x in need(r, "ccb", "scb"))
        verdict = worst(*(above(b, final(r[d]), CLEAR_FACTOR) for d in family for b in (ccb, scb)))
        return ", ".join(f"{r[d].label} {final(r[d])}" for d in family) + f"; CCB {ccb}, SCB {scb}", verdict
    names = " and ".join(LABELS[d] for d in family)
    return checked("C9", site, f"CCB and SCB above {names} (x{CLEAR_FACTOR:g})", check)


def c11_nc_cyclic(site, r):
    """C11 (Sec. 5.2, Non-Condorcet Cyclic): D-TS is above ECW-RMED (it explores its several equal winners),
    and D-TS+ improves on D-TS only a little."""
    def check():
        """(text, verdict) of C11 on the curves ``r``, as ``checked`` takes it."""
        dts, plus, ecw = (final(x) for x in need(r, "dts", "dts_plus", "ecw_rmed"))
        verdict = worst(above(dts, ecw), below(plus, dts), below_factor(dts, plus, COMPARABLE_FACTOR))
        return f"D-TS {dts}, D-TS+ {plus}, ECW-RMED {ecw}", verdict
    return checked("C11", site, f"D-TS above ECW-RMED; D-TS+ below D-TS by less than x{COMPARABLE_FACTOR:g}", check)


def c13_plus_below_dts(site, r):
    """C13 (Sec. 5.2): D-TS+ has lower regret than D-TS on the MSLR non-Condorcet sets."""
    def check():
        """(text, verdict) of C13 on the curves ``r``, as ``checked`` takes it."""
        dts, plus = (final(x) for x in need(r, *DTS_FAMILY))
        return f"D-TS+ {plus} vs D-TS {dts}", below(plus, dts)
    return checked("C13", site, "D-TS+ below D-TS", check)


def c15b_gap_order(site, r, fixed: str):
    """C15b (App. D.2.2, Gap): ECW-RMED with the matrix's own arm order (curve ``fixed``) has much smaller
    regret than with shuffled orders; D-TS and D-TS+ beat shuffled ECW-RMED on average."""
    def check():
        """(text, verdict) of C15b on the curves ``r``, as ``checked`` takes it."""
        ecw, ecw_fixed, dts, plus = (final(x) for x in need(r, "ecw_rmed", fixed, "dts", "dts_plus"))
        verdict = worst(*(above(ecw, other, CLEAR_FACTOR) for other in (ecw_fixed, dts, plus)))
        return f"ECW-RMED shuffled {ecw}, fixed order {ecw_fixed}; D-TS {dts}, D-TS+ {plus}", verdict
    return checked("C15b", site, f"fixed-order ECW-RMED far below shuffled (x{CLEAR_FACTOR:g}); shuffled ECW-RMED "
                   f"above D-TS, D-TS+ (x{CLEAR_FACTOR:g})", check)


def panel_result(panels, results, key: str) -> tuple:
    """(title, [LineResult]) of the panel whose ``Panel.key`` is ``key``: ``results`` holds the figure's ``panels``
    in their order; ValueError naming the key if no panel has it."""
    for panel, result in zip(panels, results, strict=True):
        if panel.key == key:
            return result
    raise ValueError(f"no panel {key!r} in this figure (it has: {', '.join(panel.key for panel in panels)})")


def panel_site(stem: str, figure: str, key: str, title: str) -> Site:
    """The site of the panel ``key`` (``Panel.key``) of the figure whose tables are ``stem``, shown as
    "<figure> <title>" (e.g. "Fig. 3 (a) Cyclic")."""
    return Site(f"{stem}:{key}", f"{figure} {title}")


def panel_claims(stem: str, figure: str, panels, results, table: dict) -> list[dict]:
    """Rows of the per-panel claims of the figure ``stem`` (shown as ``figure``, e.g. "Fig. 1"): ``table`` maps a
    panel's key (``Panel.key``: its matrix, and metric) to its claim functions, so that reordering or retitling
    panels moves no claim and drops no reason; ``results`` is the list of (title, [LineResult]) of the figure's
    ``panels``, in their order."""
    rows = []
    for key, checks in table.items():
        title, curves = panel_result(panels, results, key)
        rows += [check(panel_site(stem, figure, key, title), by_name(curves)) for check in checks]
    return rows
