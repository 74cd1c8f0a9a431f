"""Regenerate the matrix files in data/matrices (executable provenance).

Usage (from the repository root; the command line is reproduce/build_matrices.py):
    python reproduce/build_matrices.py [--sources DIR] [--out DIR]

* The paper's printed tables (D-TS App. D, Tables 1-6) are transcribed by hand below,
  exactly as printed, and written verbatim.
* The full-precision files are converted from their source files (names, origins and checksums in
  docs/datasets.md#source-files), read from the folder given as ``--sources``, and re-written with
  ``%.17g`` (a bit-exact round trip).
* The four Table-9 MSLR subsets are cut out of data/matrices/mslr136_informational.txt
  (ranker r is row r-1), rows in the table's listed ranker order.
* mslr135_informational_cdc (the MergeDTS authors' "MSLR-Informational-CDC") is mslr136_informational without
  ranker 110 (row/column 109), and the nested subsets mslr_perfect_k{8,16,32,64} are cut from
  mslr136_perfect (the Condorcet winner, ranker 110, plus the first K - 1 of a seeded permutation of the
  other rankers), both from the committed 136x136 files.
Without ``--sources`` the conversions are skipped, so only the tables and the subsets are
rebuilt (from the committed 136x136 matrix).  Every file gets a ``#`` header (source, derivation, checks)
and a ``# labels:`` line.  Each check below raises ValueError if it fails.
It reads and writes the matrices with numpy alone, not through the ``data`` package (whose loader reads
what this module writes); the Copeland scores and winners are ``core.copeland``'s.
"""

from pathlib import Path

import numpy as np

from dts_reproduction.core.copeland import copeland_scores, copeland_winners

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUT = REPO / "data" / "matrices"
PAPER = 'Wu & Liu, "Double Thompson Sampling for Dueling Bandits", NIPS 2016'
NIGHTINGAL = (
    "GitHub nightingal3/duelling-bandits, files added in commit cd17008ba0241c74100db965d34a87e1622c4a57 "
    "(HEAD da41c471d3c984f0fd2851ae91a573eb7623b234); data by Zoghi, Karnin, Whiteson & de Rijke (NIPS 2015)"
)
MSLR136 = "mslr136_informational"
MSLR136_PERFECT = "mslr136_perfect"
MERGEDTS = ("GitHub chang-li/MergeDTS (Li, Markov, de Rijke & Zoghi, ACM TOIS 2020), file "
            "matrix/MSLR-Informational-CDC.txt (commit db7d41882225d955068f5f9e25af515aef2274d1)")
CDC_NAME = "mslr135_informational_cdc"
CDC_REMOVED_ROW = 109  # ranker 110, the Condorcet winner of Perfect/Navigational; without it Informational has one
CDC_WINNER_ROW = 113  # ranker 115, the Condorcet winner of the reduced matrix (row 114 of the 136x136 one)
# Nested random subsets of mslr136_perfect for the R(T)-against-K panel (reproduce/large_scale.py): each holds
# the Condorcet winner (row 109) and the first K - 1 rows of one seeded permutation of the other 135 rows, so
# every subset contains the smaller ones and has the same Condorcet winner.
NESTED_SIZES = (8, 16, 32, 64)
NESTED_SEED = 20200101  # MergeDTS (arXiv 1812.04412, TOIS 2020) year; any fixed seed would do
PERFECT_WINNER_ROW = 109

# name: (table, caption and notes, rows exactly as printed)
PRINTED = {
    "cyclic": ("Table 1", ['"Cyclic" (adopted from Komiyama et al., COLT 2015)',
                           "arm 1 is the Condorcet winner (p_1j = 0.6); arms 2-4 form a 0.9/0.1 cycle"], """
        0.5 0.6 0.6 0.6
        0.4 0.5 0.9 0.1
        0.4 0.1 0.5 0.9
        0.4 0.9 0.1 0.5"""),
    "strong_borda": ("Table 2", ['"StrongBorda"',
                                 "arm 1 is the Condorcet winner (0.55); arm 2, the Borda winner, beats arms 3-5 at "
                                 "0.95"], """
        0.5 0.55 0.55 0.55 0.55
        0.45 0.5 0.95 0.95 0.95
        0.45 0.05 0.5 0.95 0.95
        0.45 0.05 0.05 0.5 0.95
        0.45 0.05 0.05 0.05 0.5"""),
    "arxiv": ("Table 3", ['"ArXiv" (interleaving experiments, Yue & Joachims, ICML 2011)',
                          "exact tie p_46 = p_64 = 0.50: counts for neither arm (violates Assumption 1; kept as the "
                          "authors used it)"], """
        0.50 0.55 0.55 0.54 0.61 0.61
        0.45 0.50 0.55 0.55 0.58 0.60
        0.45 0.45 0.50 0.54 0.51 0.56
        0.46 0.45 0.46 0.50 0.54 0.50
        0.39 0.42 0.49 0.46 0.50 0.51
        0.39 0.40 0.44 0.50 0.49 0.50"""),
    "gap": ("Table 4", ['"Gap" (adopted from Komiyama et al., ICML 2016)',
                        "the LaTeX \\label of this table (tab:noncondorcet_strongborda) is swapped with the "
                        "Non-Condorcet StrongBorda table; caption and content (5x5) identify it as Gap; p_14 = "
                        "0.51"], """
        0.5 0.8 0.8 0.51 0.2
        0.2 0.5 0.8 0.2 0.8
        0.2 0.2 0.5 0.8 0.8
        0.49 0.8 0.2 0.5 0.2
        0.8 0.2 0.2 0.8 0.5"""),
    "nc_strong_borda": ("Table 5", ['"Non-Condorcet StrongBorda"',
                                    "the LaTeX \\label of this table (tab:synthetic_gap) is swapped with the Gap "
                                    "table; "
                                    "caption and content (6x6) identify it; the Borda winner, arm 2, beats arm 1 at "
                                    "0.95"], """
        0.5 0.05 0.55 0.55 0.55 0.55
        0.95 0.5 0.95 0.95 0.45 0.45
        0.45 0.05 0.5 0.95 0.95 0.95
        0.45 0.05 0.05 0.5 0.95 0.95
        0.45 0.55 0.05 0.05 0.5 0.95
        0.45 0.55 0.05 0.05 0.05 0.5"""),
    "nc_cyclic": ("Table 6", ['"Non-Condorcet Cyclic"',
                              "three groups of arms with Copeland scores 6, 4 and 2"], """
        0.5 0.4 0.6 0.1 0.6 0.6 0.6 0.6 0.6
        0.6 0.5 0.4 0.6 0.1 0.6 0.6 0.6 0.6
        0.4 0.6 0.5 0.6 0.6 0.1 0.6 0.6 0.6
        0.9 0.4 0.4 0.5 0.1 0.9 0.6 0.6 0.4
        0.4 0.9 0.4 0.9 0.5 0.1 0.4 0.6 0.6
        0.4 0.4 0.9 0.1 0.9 0.5 0.6 0.4 0.6
        0.4 0.4 0.4 0.4 0.6 0.4 0.5 0.1 0.9
        0.4 0.4 0.4 0.4 0.4 0.6 0.9 0.5 0.1
        0.4 0.4 0.4 0.6 0.4 0.4 0.1 0.9 0.5"""),
}

# name: (Table 9 row, rankers as listed (1-based), printed Copeland scores, printed winners)
TABLE9 = {
    "mslr16_condorcet": (
        "K = 16, Condorcet",
        [10, 22, 36, 58, 59, 66, 67, 68, 77, 98, 109, 112, 115, 116, 117, 125],
        [0, 6, 12, 9, 10, 5, 3, 4, 2, 1, 11, 7, 15, 13, 8, 14],
        [115],
    ),
    "mslr32_condorcet": (
        "K = 32, Condorcet",
        [7, 21, 24, 28, 32, 35, 37, 38, 43, 44, 45, 48, 52, 56, 61, 68,
         71, 73, 82, 85, 87, 91, 96, 99, 100, 105, 112, 115, 117, 121, 123, 133],
        [9, 26, 12, 5, 13, 24, 15, 19, 6, 4, 10, 21, 3, 28, 29, 8,
         27, 20, 14, 25, 17, 11, 1, 2, 0, 7, 16, 31, 18, 30, 22, 23],
        [115],
    ),
    "mslr16_noncondorcet": (
        "K = 16, non-Condorcet",
        [2, 21, 42, 60, 67, 70, 79, 90, 91, 98, 99, 103, 106, 109, 117, 130],
        [6, 11, 4, 14, 5, 8, 3, 12, 7, 0, 1, 2, 14, 10, 9, 14],
        [60, 106, 130],
    ),
    "mslr32_noncondorcet": (
        "K = 32, non-Condorcet",
        [4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64,
         68, 72, 76, 80, 84, 88, 92, 96, 100, 104, 108, 112, 116, 120, 124, 128],
        [8, 4, 24, 1, 0, 13, 7, 14, 25, 26, 6, 18, 5, 28, 30, 22,
         10, 16, 19, 21, 12, 17, 9, 3, 2, 11, 23, 15, 28, 30, 20, 29],
        [60, 120],
    ),
}

SUSHI_LABELS = ("sake awabi hamachi aka-gai tai ama-ebi hotate-gai toro "
                "tamago uni maguro ikura tako ika anago ebi").split()
SUSHI_NOTES = [
    "source: Komiyama et al. (COLT 2015 / ICML 2016) Sushi 16x16, recipe jkomiyama/duelingbanditlib "
    "sushi/build_pref_sushi.py "
    "(commit ee43828c9b6dd298abf4a938eada8cae5b2be0fc), recomputed from the sushi3b orders as redistributed by PrefLib "
    "(00014-00000002.soi, fleverest/PrefLib-Data e70f12c3f1ee0dfa6f7974618522df0aa4ce9d91; same file in "
    "PrefLib/PrefLib-Data "
    "aaadda8ea0daff6bfed7435192d943a134eb37ec)",
    "derivation: the 16 most-compared of the 100 set-B items, rows in ascending comparison count; p_ij = W_ij / (W_ij "
    "+ W_ji) "
    "from pairwise win counts W, at full precision (source file sushi16_komiyama_pref_fullprec.txt)",
    "rows are sushi3 item ids 15 14 13 12 11 9 10 8 7 4 2 6 5 3 1 0; the Condorcet winner is toro (row index 7)",
    "exact off-diagonal tie: hamachi vs tai = 126:126, p = 0.5 (counts for neither arm; violates Assumption 1)",
    "the 3-decimal version (source file sushi16_komiyama_pref_3dp.txt) is NOT used: its pair maguro/ebi prints "
    "0.627/0.372, "
    "summing to 0.999, and |0.999 - 1| = 0.0010000000000000009 is not < 1e-3, so the authors' consistency check "
    "rejects it",
    "checked by build_matrices.py: equals W / (W + W^T) of source file sushi16_komiyama_pairwise_win_counts.txt bit "
    "for bit",
    "the raw Kamishima data may not be redistributed; only this derived aggregate is kept",
]

# name: (source file, labels, notes)
COPIES = {
    "mslr136_informational": (
        "MSLR_Informational_PMat_136x136.txt", [str(r) for r in range(1, 137)],
        [f"source: {NIGHTINGAL}", "file data/MSLR_Informational_PMat.npz (blob "
                                  "5cd4f98db3bb3bb55b921e75595928831cf2ae23, "
         "sha256 ef05eca2b7b27f63faaa292b0e88b17311560bf76124693354d953c702b7e9da), key PMat, unchanged",
         "the 136 MSLR-WEB30K rankers, informational click model; label = 1-based ranker id (ranker r is row r-1)",
         "the D-TS 5-armed tables and all four Table-9 subsets are sub-matrices of this matrix"]),
    "mslr136_navigational": (
        "MSLR_Navigational_PMat_136x136.txt", [str(r) for r in range(1, 137)],
        [f"source: {NIGHTINGAL}", "file data/MSLR_Navigational_PMat.npz (blob "
                                  "0e7aa5cf7df105851b5e5dc518e9f4ec2731e715, "
         "sha256 302f4d88cba0bcace47a0e7a6e5bebdd8961b2ad912db9b682b3f2a9a05c3a94), key PMat, unchanged",
         "navigational click model; label = 1-based ranker id"]),
    "mslr136_perfect": (
        "MSLR_Perfect_PMat_136x136.txt", [str(r) for r in range(1, 137)],
        [f"source: {NIGHTINGAL}", "file data/MSLR_Perfect_PMat.npz (blob 4d470d5e9c70671f78da96ce92cb6c02b79de0e4, "
         "sha256 5a8ea50334af26d1efc7c2a9731dc9336d96dbbc3ec8d741509e25b3324b55a5), key PMat, unchanged",
         "perfect click model; label = 1-based ranker id"]),
    "mslr5_condorcet": (
        "MSLR_Informational_5_Condorcet_rankers_2-4-3-1-5_fullprec.txt", ["2", "4", "3", "1", "5"],
        [f"source: {PAPER}, Appendix D, Table 7 (MSLR K = 5, Condorcet), printed to 3 decimals; full precision from "
         f"mslr136_informational",
         "identification: HuasenWu/DuelingBandits DuelingBandit/data/MSLR_Informational_5_Condorcet.txt (commit "
         "832893cd52715842ae1ef59b34122b0d23564fcd, 8 digits) equals rankers (2, 4, 3, 1, 5) of the 136x136 matrix "
         "within 4.7e-9",
         "the paper prints p_12 = 0.535 (= 0.53519...); the 0.525 in nightingal3's transcription (src/ltr_matrices.py) "
         "is a typo there",
         "checked by build_matrices.py: equals rows/columns (2, 4, 3, 1, 5) of mslr136_informational bit for bit"]),
    "mslr5_noncondorcet": (
        "MSLR_Informational_5_nonCondorcet_rankers_93-7-92-94-105_fullprec.txt", ["93", "7", "92", "94", "105"],
        [f"source: {PAPER}, Appendix D, Table 8 (MSLR K = 5, non-Condorcet), printed to 3 decimals; full precision "
         f"from mslr136_informational",
         "identification: an exhaustive search over ordered 5-tuples of the 136 Informational rankers finds exactly "
         "one tuple, "
         "(93, 7, 92, 94, 105), whose entries all round to the printed table (max abs diff 0.000497)",
         "three Copeland winners in a cycle 93 -> 92 -> 7 -> 93",
         "checked by build_matrices.py: equals rows/columns (93, 7, 92, 94, 105) of mslr136_informational bit for "
         "bit"]),
    "sushi": ("sushi16_komiyama_pref_fullprec.txt", SUSHI_LABELS, SUSHI_NOTES),
}
SUSHI_COUNTS = "sushi16_komiyama_pairwise_win_counts.txt"
MSLR16_SOURCE = "MSLR_Informational_16_Condorcet_rankers_10-22-36-58-59-66-67-68-77-98-109-112-115-116-117-125.txt"
FIVE_ARMED_RANKERS = {"mslr5_condorcet": [2, 4, 3, 1, 5], "mslr5_noncondorcet": [93, 7, 92, 94, 105]}


def check_consistent(P, what):
    """Raise ValueError unless P is square with diagonal 0.5 and p_ij + p_ji == 1 exactly."""
    P = np.asarray(P)
    if P.ndim != 2 or P.shape[0] != P.shape[1]:
        raise ValueError(f"{what}: not square: shape {P.shape}")
    if not (np.diag(P) == 0.5).all():
        raise ValueError(f"{what}: diagonal is not all 0.5")
    bad = np.argwhere(P + P.T != 1.0)
    if bad.size:
        i, j = bad[0]
        raise ValueError(f"{what}: p[{i},{j}] + p[{j},{i}] = {P[i, j]!r} + {P[j, i]!r} != 1")


def summary_lines(P, labels):
    """Header lines stating the Copeland scores (K <= 32) and the Copeland winners by label."""
    s = copeland_scores(P)
    K = len(labels)
    winners = [labels[i] for i in copeland_winners(P)]
    kind = "Condorcet winner" if s.max() == K - 1 else "Copeland winners (no Condorcet winner)"
    lines = []
    if K <= 32:
        lines.append("Copeland scores (#j with p_ij > 0.5, strict), by row: " + " ".join(str(int(x)) for x in s))
    lines.append(f"{kind}: {' '.join(winners)} with score {int(s.max())} of {K - 1}")
    return lines


def render(notes, labels, rows):
    """File text: '# ' + each note, the labels line, then the rows (lists of number strings)."""
    out = [f"# {line}" for line in notes]
    out.append("# labels: " + " ".join(labels))
    out.extend(" ".join(r) for r in rows)
    return "\n".join(out) + "\n"


def full_precision_rows(P):
    """Rows of '%.17g' strings (bit-exact round trip through float())."""
    return [["%.17g" % x for x in row] for row in np.asarray(P)]


def load_plain(path):
    """Numbers of a matrix file, skipping '#' lines."""
    return np.loadtxt(path, comments="#", ndmin=2)


def printed_table_text(name):
    """Text of the file for printed table ``name`` (a key of PRINTED), after checking it."""
    table, notes, body = PRINTED[name]
    rows = [line.split() for line in body.strip().splitlines()]
    P = np.array(rows, dtype=float)
    check_consistent(P, name)
    labels = [str(k + 1) for k in range(P.shape[0])]
    head = [f"{name}: K = {P.shape[0]}",
            f"source: {PAPER}, Appendix D, {table} {notes[0]}",
            "derivation: none; transcribed by hand exactly as printed; labels are the paper's 1-based arm numbers"]
    head += notes[1:]
    head.append("checked by build_matrices.py: diagonal 0.5 and p_ij + p_ji == 1 exactly for every pair")
    return render(head + summary_lines(P, labels), labels, rows)


def mslr_subset_text(name, P136):
    """Text of the Table-9 subset ``name`` cut from the 136x136 Informational matrix, after checking
    that every ranker's Copeland score and the winners are as printed."""
    row, rankers, printed_scores, printed_winners = TABLE9[name]
    idx = np.array(rankers) - 1
    P = np.asarray(P136)[np.ix_(idx, idx)]
    s = copeland_scores(P)
    if list(s) != printed_scores:
        raise ValueError(f"{name}: Copeland scores {list(s)} differ from Table 9 {printed_scores}")
    winners = [rankers[i] for i in copeland_winners(P)]
    if winners != printed_winners:
        raise ValueError(f"{name}: winners {winners} differ from Table 9 {printed_winners}")
    labels = [str(r) for r in rankers]
    off = ~np.eye(len(rankers), dtype=bool)
    head = [f"{name}: K = {len(rankers)}",
            f"source: {PAPER}, Appendix D, Table 9 row '{row}' (ranker ids and their Copeland scores)",
            f"derivation: rows/columns (ranker r -> row r-1) of {MSLR136}.txt, in the table's listed ranker order; "
            "labels are the 1-based ranker ids",
            f"source of the 136x136 matrix: {NIGHTINGAL}",
            "checked by build_matrices.py: every ranker's Copeland score and the winners equal Table 9",
            f"smallest |p_ij - 1/2| off the diagonal: {np.abs(P - 0.5)[off].min():.6f}"]
    if name == "mslr32_noncondorcet":
        head.append("rankers 4, 8, ..., 128 = the C++ harness's 'customised' input (0-based rows 3, 7, ..., 127); "
                    "it has pairs with |p_ij - 1/2| < 0.003, which the paper says were eliminated")
    if name == "mslr16_condorcet":
        head.append(f"also equals source file {MSLR16_SOURCE} (checked when building with --sources)")
    return render(head + summary_lines(P, labels), labels, full_precision_rows(P))


def copy_text(name, sources):
    """Text of the converted full-precision file ``name`` (a key of COPIES) read from folder ``sources``."""
    filename, labels, notes = COPIES[name]
    P = load_plain(Path(sources) / filename)
    check_consistent(P, filename)
    if name == "sushi":
        W = load_plain(Path(sources) / SUSHI_COUNTS)
        N = W + W.T
        if not np.array_equal(np.divide(W, N, out=np.full(W.shape, 0.5), where=N > 0), P):
            raise ValueError(f"{filename} is not W / (W + W^T) of {SUSHI_COUNTS}")
    head = [f"{name}: K = {P.shape[0]}, converted from source file {filename} at full precision (%.17g)"]
    head += notes
    head.append("checked by build_matrices.py: diagonal 0.5 and p_ij + p_ji == 1 exactly for every pair")
    return render(head + summary_lines(P, labels), labels, full_precision_rows(P))


def check_against_136(out, sources):
    """Check the 5-armed files (and the K=16 source file, if ``sources``) against the 136x136 matrix in ``out``."""
    P136 = load_plain(Path(out) / f"{MSLR136}.txt")
    for name, rankers in FIVE_ARMED_RANKERS.items():
        idx = np.array(rankers) - 1
        if not np.array_equal(load_plain(Path(out) / f"{name}.txt"), P136[np.ix_(idx, idx)]):
            raise ValueError(f"{name}.txt is not rankers {rankers} of {MSLR136}.txt")
    if sources is not None:
        idx = np.array(TABLE9["mslr16_condorcet"][1]) - 1
        if not np.array_equal(load_plain(Path(sources) / MSLR16_SOURCE), P136[np.ix_(idx, idx)]):
            raise ValueError(f"source file {MSLR16_SOURCE} differs from the subset of {MSLR136}.txt")


def cdc_text(P136):
    """Text of mslr135_informational_cdc: mslr136_informational without row/column CDC_REMOVED_ROW, after
    checking that the result has its Condorcet winner at CDC_WINNER_ROW."""
    P = np.delete(np.delete(np.asarray(P136), CDC_REMOVED_ROW, axis=0), CDC_REMOVED_ROW, axis=1)
    check_consistent(P, CDC_NAME)
    s = copeland_scores(P)
    if s[CDC_WINNER_ROW] != P.shape[0] - 1:
        raise ValueError(f"{CDC_NAME}: row {CDC_WINNER_ROW} is not a Condorcet winner (score {s[CDC_WINNER_ROW]})")
    labels = [str(r) for r in range(1, 137) if r != CDC_REMOVED_ROW + 1]
    head = [f"{CDC_NAME}: K = {P.shape[0]}",
            f"source: {MERGEDTS}: the 135-ranker Condorcet matrix the MergeDTS authors evaluated",
            f"derivation: {MSLR136}.txt without ranker {CDC_REMOVED_ROW + 1} (row/column {CDC_REMOVED_ROW}); labels "
            "are the 1-based ranker ids",
            f"source of the 136x136 matrix: {NIGHTINGAL}",
            "checked against the authors' file (printed with %.18e): its row 0 (135 entries) and entries (3, 134), "
            "(4, 99) equal this matrix bit for bit",
            "checked by build_matrices.py: diagonal 0.5, p_ij + p_ji == 1 exactly, Condorcet winner at row "
            f"{CDC_WINNER_ROW}"]
    return render(head + summary_lines(P, labels), labels, full_precision_rows(P))


def nested_rows(size):
    """Rows of mslr136_perfect in the nested subset of ``size`` arms, ascending: the Condorcet winner and the first
    size - 1 of the seeded permutation of the other 135 rows (``NESTED_SEED``)."""
    others = np.delete(np.arange(136), PERFECT_WINNER_ROW)
    order = np.random.default_rng(NESTED_SEED).permutation(others)
    return np.sort(np.append(order[:size - 1], PERFECT_WINNER_ROW))


def nested_text(size, P136_perfect):
    """Text of the nested subset mslr_perfect_k<size> of mslr136_perfect (``nested_rows``)."""
    rows = nested_rows(size)
    P = np.asarray(P136_perfect)[np.ix_(rows, rows)]
    winner = int(np.flatnonzero(rows == PERFECT_WINNER_ROW)[0])
    if copeland_scores(P)[winner] != size - 1:
        raise ValueError(f"mslr_perfect_k{size}: ranker {PERFECT_WINNER_ROW + 1} is not a Condorcet winner")
    labels = [str(r + 1) for r in rows]
    head = [f"mslr_perfect_k{size}: K = {size}",
            f"source: {MSLR136_PERFECT}.txt (the MSLR Perfect click model; {NIGHTINGAL})",
            f"derivation: rows/columns {' '.join(labels)} (1-based ranker ids, ascending) of {MSLR136_PERFECT}: the "
            f"Condorcet winner (ranker {PERFECT_WINNER_ROW + 1}) and the first {size - 1} rankers of "
            f"numpy.random.default_rng({NESTED_SEED}).permutation of the other 135 rows; the subsets of sizes "
            f"{', '.join(map(str, NESTED_SIZES))} are nested",
            f"checked by build_matrices.py: ranker {PERFECT_WINNER_ROW + 1} is the Condorcet winner"]
    return render(head + summary_lines(P, labels), labels, full_precision_rows(P))


def missing_inputs(out, sources=None) -> list:
    """The files ``build(out, sources)`` reads that do not exist: with ``sources``, the source files of COPIES
    (and the sushi counts and the K=16 check file) there; without, the 136-ranker and 5-armed files in ``out``
    that the subsets are cut from and checked against."""
    if sources is not None:
        names = [filename for filename, _, _ in COPIES.values()] + [SUSHI_COUNTS, MSLR16_SOURCE]
        return [Path(sources) / name for name in names if not (Path(sources) / name).is_file()]
    names = [MSLR136, MSLR136_PERFECT, *FIVE_ARMED_RANKERS]
    return [Path(out) / f"{name}.txt" for name in names if not (Path(out) / f"{name}.txt").is_file()]


def build(out=DEFAULT_OUT, sources=None):
    """Write every file into ``out``: conversions from the folder ``sources`` (skipped if None), then the
    Table-9 subsets and the 135-ranker CDC matrix (from ``out``/mslr136_informational.txt), the nested Perfect
    subsets (from ``out``/mslr136_perfect.txt) and the printed tables."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if sources is not None:
        for name in COPIES:
            (out / f"{name}.txt").write_text(copy_text(name, sources))
    check_against_136(out, sources)
    P136 = load_plain(out / f"{MSLR136}.txt")
    for name in TABLE9:
        (out / f"{name}.txt").write_text(mslr_subset_text(name, P136))
    (out / f"{CDC_NAME}.txt").write_text(cdc_text(P136))
    P136_perfect = load_plain(out / f"{MSLR136_PERFECT}.txt")
    for size in NESTED_SIZES:
        (out / f"mslr_perfect_k{size}.txt").write_text(nested_text(size, P136_perfect))
    for name in PRINTED:
        (out / f"{name}.txt").write_text(printed_table_text(name))

