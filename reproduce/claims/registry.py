"""Every claim this project checks, defined once: its id, its statement in this project's words, the figures
that check it, and whether it is past the paper (docs/experiments.md#where-a-claim-is-defined).

A figure's claims table (``figures/<stem>_claims.csv``) has one row per check; its ``claim`` column holds a
claim id or a part of one ("C10(ii)", "C15a" and "C17b" are checks of C10, C15 and C17: ``claim_id``), its
``statement`` column the specific comparison computed, never the claim's statement.  C19 is not checked by a
figure script: ``reproduce/claims/c19.py`` computes it from the final-regret tables of its figures.  This
module imports nothing from the project, so every checking, collecting or rendering module can import it.
"""

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Claim:
    """One claim: ``id`` ("C1"-"C19" for the paper's claims of Sec. 5, App. D and the conclusion, "L1", "L2" past
    the paper), ``statement`` (the claim in this project's words), ``figures`` (the table stems under figures/ of
    the scripts that check it; each must check it before it counts as measured) and ``past_the_paper`` (listed
    after the paper's claims, checked by the same rule, not counted among them)."""

    id: str
    statement: str
    figures: tuple[str, ...]
    past_the_paper: bool = False


# The table stems of the scripts that check claims (figures/<stem>_claims.csv, <stem>_final.csv).
FIG1, FIG2, FIG3, FIG4 = "fig1_mslr", "fig2_regret_std", "fig3_condorcet", "fig4_noncondorcet"
FIG5, FIG6, FIG7 = "fig5_diversity", "fig6_delay", "fig7_pure_dts"
ELIMINATION, LARGE_SCALE, ASYMPTOTIC = "c18_elimination", "large_scale", "asymptotic"
SUCCESSORS = "successors"

# The ordered registry: the paper's claims C1-C19, then the claims past the paper.
EVERY_CLAIM = {claim.id: claim for claim in (
    Claim("C1", "With one Condorcet winner, D-TS and D-TS+ are practically indistinguishable.", (FIG1, FIG3)),
    Claim("C2", "On Condorcet data D-TS and D-TS+ have clearly lower regret than every existing method, except on "
                "StrongBorda.", (FIG1, FIG3)),
    Claim("C3", "D-TS and D-TS+ clearly beat RCS on Condorcet data.", (FIG1, FIG3)),
    Claim("C4", "On the real Condorcet data (ArXiv, Sushi, MSLR 16/32) RCS beats RUCB and CCB by a limited margin.",
          (FIG3,)),
    Claim("C5", "D-TS/D-TS+ have about RMED1's and ECW-RMED's asymptotic slope but a much smaller constant.",
          (FIG1, FIG3, ASYMPTOTIC)),
    Claim("C6", "On Condorcet data ECW-RMED is slightly worse than RMED1, with a similar asymptotic behaviour.",
          (FIG3,)),
    Claim("C7", "On StrongBorda D-TS/D-TS+ escape the Borda trap, SAVAGE has the lowest Copeland regret, ECW-RMED "
                "does not do well; under G2W regret SAVAGE approaches RMED1.", (FIG3,)),
    Claim("C8", "On non-Condorcet data the Condorcet-only methods grow near-linearly; Sparring and SAVAGE are large.",
          (FIG1, FIG4)),
    Claim("C9", "D-TS and D-TS+ are much better than CCB and SCB on all non-Condorcet data (500 arms included).",
          (FIG1, FIG4)),
    Claim("C10", "MSLR K=5 non-Condorcet: (i) D-TS+ < 0.1 CCB, (ii) D-TS > ECW-RMED, (iii) D-TS+ < ECW-RMED.",
          (FIG1,)),
    Claim("C11", "Non-Condorcet Cyclic: D-TS is above ECW-RMED; D-TS+ improves on D-TS only a little.", (FIG4,)),
    Claim("C12", "MSLR K=16 non-Condorcet: ECW-RMED stays above D-TS+ up to 5e6; on K=32 the gap is larger.",
          (FIG4,)),
    Claim("C13", "D-TS+ is below D-TS on MSLR 5, 16 and 32 non-Condorcet.", (FIG1, FIG4)),
    Claim("C14", "In one sample path D-TS spreads its exploitations over all Copeland winners.", (FIG5,)),
    Claim("C15", "(a) ECW-RMED's regret STD is ~200% of its mean, D-TS+'s 13.16%; (b) on Gap, fixed-order ECW-RMED "
                 "is very low, shuffled it is much larger and above D-TS/D-TS+.", (FIG2, FIG4)),
    Claim("C16", "ECW-RMED's regret rises much faster with the feedback delay; on Non-Condorcet Cyclic it overtakes "
                 "both D-TS variants once d exceeds ~300.", (FIG6,)),
    Claim("C17", "Pure D-TS: (a) worse than D-TS on StrongBorda, (b) linear on Non-Condorcet Cyclic, (c) as good or "
                 "better on MSLR K=5.", (FIG7,)),
    Claim("C18", "The RUCB-based elimination seldom acts under practical settings (conclusion).", (ELIMINATION,)),
    Claim("C19", "D-TS/D-TS+ beat every existing method except ECW-RMED; against ECW-RMED much better on Condorcet "
                 "data and better or comparable on non-Condorcet data.", (FIG1, FIG3, FIG4)),
    Claim("L1", "MergeDTS outperforms the state of the art (here: exact D-TS) on large-scale Condorcet ranker "
                "evaluation (Li et al. 2020), at T = 1e7 and 1e8.", (LARGE_SCALE,), past_the_paper=True),
    Claim("L2", "On MSLR Informational (no Condorcet winner) the merge algorithms, whose pruning assumes one, have "
                "higher regret than D-TS.", (LARGE_SCALE,), past_the_paper=True),
    Claim("A1", "D-TS's regret slope reaches the lower bound C on every Condorcet matrix (T = 2**53).", (ASYMPTOTIC,),
          past_the_paper=True),
    Claim("A2", "RMED2 (anytime; Komiyama et al. 2015 prove the bound for its fixed-horizon variant RMED2FH) reaches "
                "the lower bound C (as run, and with the RMED2 paper's sign).", (ASYMPTOTIC,), past_the_paper=True),
    Claim("A3", "D-TS+ and D-TS have the same asymptotic slope.", (ASYMPTOTIC,), past_the_paper=True),
    Claim("A4", "The K^2 log log T term of Theorem 2 is visible: D-TS's slope per decade falls like 1/ln t.",
          (ASYMPTOTIC,), past_the_paper=True),
    Claim("A5", "D-TS's slope tends to the winner constant C_w (every arm shown beaten by the Condorcet winner), not "
                "to C where the two differ.", (ASYMPTOTIC,), past_the_paper=True),
    Claim("A6", "The bound is reached by the allocation it names: an oracle told the winner and each arm's optimal "
                "partner reaches C, told the winner as every arm's partner it reaches C_w.", (ASYMPTOTIC,),
          past_the_paper=True),
    Claim("A7", "Theorem 2's parts, measured: D-TS's duels of a non-winner with its strongest superior (where that is "
                "not the winner) keep a regret per ln t above 0, and its duels with the remaining arms tend to 0 per "
                "ln t.", (ASYMPTOTIC,), past_the_paper=True),
    Claim("S1", "Ten years on, D-TS's Copeland regret is still the lowest on Condorcet data: below Versatile-DB, WS-S, "
                "WS-W, CW-RMED, C2B, REX3, RMED1 and ECW-RMED.", (SUCCESSORS,), past_the_paper=True),
    Claim("S2", "Ten years on, D-TS+ is still the best without a Condorcet winner: its Copeland regret below every "
                "successor's, RMED1's and ECW-RMED's.", (SUCCESSORS,), past_the_paper=True),
    Claim("S3", "Versatile-DB is within a constant factor of RMED1 on Condorcet data (Saha & Gaillard's theorem: both "
                "O(sum log T / Delta)): its regret is logarithmic, its slope per ln t no longer growing.",
          (SUCCESSORS,), past_the_paper=True),
    Claim("S4", "Asymptotically optimal (Agarwal et al.'s theorem): C2B's regret per ln T tends to the bound C on "
                "Condorcet data.", (SUCCESSORS,), past_the_paper=True),
    Claim("S5", "WS-W's weak regret is below every other algorithm's where a Condorcet winner exists (Chen & "
                "Frazier: constant weak regret).",
          (SUCCESSORS,), past_the_paper=True),
    Claim("S6", "Versatile-DB's efficacy is \"empirically corroborated against the existing dueling bandit methods\" "
                "(Saha & Gaillard's abstract): on Condorcet data its regret is not clearly above the lowest of the "
                "algorithms published before it.", (SUCCESSORS,), past_the_paper=True),
    Claim("S7", "Winner Stays has \"significantly smaller regret than existing algorithms in both the weak- and "
                "strong-regret settings\" (Chen & Frazier's abstract): WS-S's strong and WS-W's weak regret below "
                "every algorithm published before them, with a Condorcet winner.", (SUCCESSORS,), past_the_paper=True),
    Claim("S8", "CW-RMED, the optimal Copeland algorithm, has no higher regret than ECW-RMED, its efficient version "
                "(Komiyama et al.'s theorems), wherever it runs.", (SUCCESSORS,), past_the_paper=True),
    Claim("S9", "C2B with O(log T) batches \"achieves almost the same performance as fully sequential algorithms\" "
                "(Agarwal et al.'s abstract): its regret within a comparable factor of RMED1's on Condorcet data.",
          (SUCCESSORS,), past_the_paper=True),
    Claim("S10", "REX3's regret grows no faster than sqrt(T) (Gajane et al.'s O(sqrt(K ln K T)) bound; their abstract "
                 "makes no comparative claim): over the last decade R(T) below sqrt(10) R(T/10).", (SUCCESSORS,),
          past_the_paper=True),
    Claim("S11", "Asymptotically optimal for the Copeland regret (Komiyama et al.'s theorem on CW-RMED): its regret "
                 "per ln T tends to C*(P), the optimum of its own program on the true matrix, on the Condorcet "
                 "matrices it runs on (K <= 9).", (SUCCESSORS,), past_the_paper=True),
)}
# The paper's claims only (C1-C19): what "n of 19 claims hold" counts.
PAPER_CLAIMS = {name: claim for name, claim in EVERY_CLAIM.items() if not claim.past_the_paper}


def claim_id(label: str) -> str:
    """The claim id of a claims-table row's label: "C10(ii)" -> "C10", "C15a" -> "C15"; a label that does not
    start with C and digits ("L1") is its own id."""
    match = re.match(r"C\d+", str(label))
    return match.group(0) if match else str(label)
