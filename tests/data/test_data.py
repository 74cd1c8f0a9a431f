"""Tests of the data package: the paper's tables, Table 9, winners, copeland500, validation and loading."""

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from dts_reproduction import data
from dts_reproduction.data import (
    Dataset,
    dataset_from_matrix,
    dataset_names,
    load_dataset,
    make_copeland_500,
    matrix_provenance,
    read_matrix_file,
    validate_preference_matrix,
)

MATRICES = Path(data.__file__).resolve().parent / "matrices"

# The paper's tables (D-TS App. D), typed in again independently of data/matrix_provenance.py.
PAPER_TABLES = {
    "cyclic": [  # Table 1
        [0.5, 0.6, 0.6, 0.6],
        [0.4, 0.5, 0.9, 0.1],
        [0.4, 0.1, 0.5, 0.9],
        [0.4, 0.9, 0.1, 0.5],
    ],
    "strong_borda": [  # Table 2
        [0.5, 0.55, 0.55, 0.55, 0.55],
        [0.45, 0.5, 0.95, 0.95, 0.95],
        [0.45, 0.05, 0.5, 0.95, 0.95],
        [0.45, 0.05, 0.05, 0.5, 0.95],
        [0.45, 0.05, 0.05, 0.05, 0.5],
    ],
    "arxiv": [  # Table 3
        [0.50, 0.55, 0.55, 0.54, 0.61, 0.61],
        [0.45, 0.50, 0.55, 0.55, 0.58, 0.60],
        [0.45, 0.45, 0.50, 0.54, 0.51, 0.56],
        [0.46, 0.45, 0.46, 0.50, 0.54, 0.50],
        [0.39, 0.42, 0.49, 0.46, 0.50, 0.51],
        [0.39, 0.40, 0.44, 0.50, 0.49, 0.50],
    ],
    "gap": [  # Table 4 (5x5; its LaTeX label is swapped with Table 5's)
        [0.5, 0.8, 0.8, 0.51, 0.2],
        [0.2, 0.5, 0.8, 0.2, 0.8],
        [0.2, 0.2, 0.5, 0.8, 0.8],
        [0.49, 0.8, 0.2, 0.5, 0.2],
        [0.8, 0.2, 0.2, 0.8, 0.5],
    ],
    "nc_strong_borda": [  # Table 5
        [0.5, 0.05, 0.55, 0.55, 0.55, 0.55],
        [0.95, 0.5, 0.95, 0.95, 0.45, 0.45],
        [0.45, 0.05, 0.5, 0.95, 0.95, 0.95],
        [0.45, 0.05, 0.05, 0.5, 0.95, 0.95],
        [0.45, 0.55, 0.05, 0.05, 0.5, 0.95],
        [0.45, 0.55, 0.05, 0.05, 0.05, 0.5],
    ],
    "nc_cyclic": [  # Table 6
        [0.5, 0.4, 0.6, 0.1, 0.6, 0.6, 0.6, 0.6, 0.6],
        [0.6, 0.5, 0.4, 0.6, 0.1, 0.6, 0.6, 0.6, 0.6],
        [0.4, 0.6, 0.5, 0.6, 0.6, 0.1, 0.6, 0.6, 0.6],
        [0.9, 0.4, 0.4, 0.5, 0.1, 0.9, 0.6, 0.6, 0.4],
        [0.4, 0.9, 0.4, 0.9, 0.5, 0.1, 0.4, 0.6, 0.6],
        [0.4, 0.4, 0.9, 0.1, 0.9, 0.5, 0.6, 0.4, 0.6],
        [0.4, 0.4, 0.4, 0.4, 0.6, 0.4, 0.5, 0.1, 0.9],
        [0.4, 0.4, 0.4, 0.4, 0.4, 0.6, 0.9, 0.5, 0.1],
        [0.4, 0.4, 0.4, 0.6, 0.4, 0.4, 0.1, 0.9, 0.5],
    ],
}

# Tables 7 and 8, printed to 3 decimals.
PAPER_MSLR5 = {
    "mslr5_condorcet": [
        [0.500, 0.535, 0.613, 0.757, 0.765],
        [0.465, 0.500, 0.580, 0.727, 0.738],
        [0.387, 0.420, 0.500, 0.659, 0.669],
        [0.243, 0.273, 0.341, 0.500, 0.510],
        [0.235, 0.262, 0.331, 0.490, 0.500],
    ],
    "mslr5_noncondorcet": [
        [0.500, 0.484, 0.519, 0.529, 0.518],
        [0.516, 0.500, 0.481, 0.530, 0.539],
        [0.481, 0.519, 0.500, 0.504, 0.512],
        [0.471, 0.470, 0.496, 0.500, 0.503],
        [0.482, 0.461, 0.488, 0.497, 0.500],
    ],
}
MSLR5_RANKERS = {"mslr5_condorcet": [2, 4, 3, 1, 5], "mslr5_noncondorcet": [93, 7, 92, 94, 105]}

# Table 9: ranker(Copeland score) lists and winners, as printed.
TABLE9 = {
    "mslr16_condorcet": (
        "10(0) 22(6) 36(12) 58(9) 59(10) 66(5) 67(3) 68(4) 77(2) 98(1) 109(11) 112(7) 115(15) 116(13) 117(8) 125(14)",
        [115],
    ),
    "mslr32_condorcet": (
        "7(9) 21(26) 24(12) 28(5) 32(13) 35(24) 37(15) 38(19) 43(6) 44(4) 45(10) 48(21) 52(3) 56(28) 61(29) 68(8) "
        "71(27) 73(20) 82(14) 85(25) 87(17) 91(11) 96(1) 99(2) 100(0) 105(7) 112(16) 115(31) 117(18) 121(30) 123(22) "
        "133(23)",
        [115],
    ),
    "mslr16_noncondorcet": (
        "2(6) 21(11) 42(4) 60(14) 67(5) 70(8) 79(3) 90(12) 91(7) 98(0) 99(1) 103(2) 106(14) 109(10) 117(9) 130(14)",
        [60, 106, 130],
    ),
    "mslr32_noncondorcet": (
        "4(8) 8(4) 12(24) 16(1) 20(0) 24(13) 28(7) 32(14) 36(25) 40(26) 44(6) 48(18) 52(5) 56(28) 60(30) 64(22) "
        "68(10) 72(16) 76(19) 80(21) 84(12) 88(17) 92(9) 96(3) 100(2) 104(11) 108(23) 112(15) 116(28) 120(30) 124(20) "
        "128(29)",
        [60, 120],
    ),
}

SUSHI_NAMES = ("sake awabi hamachi aka-gai tai ama-ebi hotate-gai toro "
               "tamago uni maguro ikura tako ika anago ebi").split()

# The dataset table of docs/datasets.md (and data/README.md): name, K, Copeland winners (0-based indices), zeta*,
# Copeland scores (None: not listed).
DATASET_TABLE = [
    ("cyclic", 4, [0], 1.0, [3, 1, 1, 1]),
    ("strong_borda", 5, [0], 1.0, [4, 3, 2, 1, 0]),
    ("arxiv", 6, [0], 1.0, [5, 4, 3, 1, 1, 0]),
    ("sushi", 16, [7], 1.0, [13, 1, 9, 0, 9, 14, 5, 15, 2, 6, 12, 10, 3, 4, 9, 7]),
    ("mslr5_condorcet", 5, [0], 1.0, [4, 3, 2, 1, 0]),
    ("mslr5_noncondorcet", 5, [0, 1, 2], 3 / 4, [3, 3, 3, 1, 0]),
    ("mslr16_condorcet", 16, [12], 1.0, None),
    ("mslr32_condorcet", 32, [27], 1.0, None),
    ("mslr16_noncondorcet", 16, [3, 12, 15], 14 / 15, None),
    ("mslr32_noncondorcet", 32, [14, 29], 30 / 31, None),
    ("nc_cyclic", 9, [0, 1, 2], 6 / 8, [6, 6, 6, 4, 4, 4, 2, 2, 2]),
    ("nc_strong_borda", 6, [0], 4 / 5, [4, 3, 3, 2, 2, 1]),
    ("gap", 5, [0], 3 / 4, [3, 2, 2, 1, 2]),
    ("mslr136_informational", 136, [114], 134 / 135, None),
    ("mslr136_navigational", 136, [109], 1.0, None),
    ("mslr136_perfect", 136, [109], 1.0, None),
    ("mslr135_informational_cdc", 135, [113], 1.0, None),
    ("mslr_perfect_k8", 8, [6], 1.0, [2, 3, 4, 0, 1, 6, 7, 5]),
    ("mslr_perfect_k16", 16, [12], 1.0, None),
    ("mslr_perfect_k32", 32, [26], 1.0, None),
    ("mslr_perfect_k64", 64, [52], 1.0, None),
    ("copeland500", 500, [0, 1, 2], 498 / 499, None),
]

ALL_NAMES = sorted(name for name, *_ in DATASET_TABLE)


def parse_table9(text):
    """'10(0) 22(6) ...' -> ([10, 22, ...], [0, 6, ...])."""
    pairs = [item.rstrip(")").split("(") for item in text.split()]
    return [int(r) for r, _ in pairs], [int(s) for _, s in pairs]


def square(n, fill=0.5):
    """An n x n valid matrix of 0.5s, as a writable float array."""
    return np.full((n, n), fill)


# ---------------------------------------------------------------- the datasets


def test_dataset_names_lists_every_dataset():
    assert dataset_names() == ALL_NAMES


@pytest.mark.parametrize("name", sorted(PAPER_TABLES))
def test_printed_tables_reproduced_exactly(name):
    d = load_dataset(name)
    assert np.array_equal(d.P, np.array(PAPER_TABLES[name]))
    assert d.labels == tuple(str(k + 1) for k in range(d.K))
    assert d.renormalised == ()


@pytest.mark.parametrize("name", sorted(PAPER_MSLR5))
def test_mslr5_full_precision_rounds_to_printed_table(name):
    d = load_dataset(name)
    printed = np.array(PAPER_MSLR5[name])
    assert np.all(np.abs(d.P - printed) <= 0.0005)
    assert d.labels == tuple(str(r) for r in MSLR5_RANKERS[name])


def test_mslr5_condorcet_prints_0535_not_0525():
    d = load_dataset("mslr5_condorcet")
    assert round(d.P[0, 1], 3) == 0.535
    assert round(d.P[1, 0], 3) == 0.465


@pytest.mark.parametrize("name", sorted(MSLR5_RANKERS))
def test_mslr5_is_submatrix_of_informational(name):
    P136 = load_dataset("mslr136_informational").P
    idx = np.array(MSLR5_RANKERS[name]) - 1
    assert np.array_equal(load_dataset(name).P, P136[np.ix_(idx, idx)])


@pytest.mark.parametrize("name", sorted(TABLE9))
def test_table9_copeland_scores_and_winners(name):
    rankers, scores = parse_table9(TABLE9[name][0])
    d = load_dataset(name)
    assert d.labels == tuple(str(r) for r in rankers)
    assert d.copeland_scores.tolist() == scores
    assert [rankers[i] for i in d.winners] == TABLE9[name][1]


@pytest.mark.parametrize("name", sorted(TABLE9))
def test_table9_subsets_regenerate_from_136_matrix(name):
    P136 = np.loadtxt(MATRICES / "mslr136_informational.txt")
    assert matrix_provenance.mslr_subset_text(name, P136) == (MATRICES / f"{name}.txt").read_text()


def test_cdc_is_informational_without_ranker_110_bit_for_bit():
    # The MergeDTS authors' MSLR-Informational-CDC: row/column 109 removed, nothing else changed.
    P136 = load_dataset("mslr136_informational").P
    cdc = load_dataset("mslr135_informational_cdc")
    keep = np.delete(np.arange(136), 109)
    assert np.array_equal(cdc.P, P136[np.ix_(keep, keep)])
    assert cdc.labels == tuple(str(r + 1) for r in keep)
    assert cdc.condorcet_winner == 113 and cdc.labels[113] == "115"
    assert matrix_provenance.cdc_text(np.loadtxt(MATRICES / "mslr136_informational.txt")) == \
        (MATRICES / "mslr135_informational_cdc.txt").read_text()
    # Row 0 of the authors' file, first and last entries as printed there (%.18e), read back to the same doubles.
    assert cdc.P[0, 1] == 2.430399158954673344e-01 and cdc.P[0, 134] == 1.592416124536436550e-01


def test_nested_perfect_subsets():
    # Each subset is the rows of mslr136_perfect named by its labels, contains the smaller ones and has the
    # Condorcet winner ranker 110; the files regenerate from the 136x136 matrix.
    perfect = load_dataset("mslr136_perfect")
    previous = set()
    for size in matrix_provenance.NESTED_SIZES:
        d = load_dataset(f"mslr_perfect_k{size}")
        rows = np.array([int(label) - 1 for label in d.labels])
        assert np.array_equal(d.P, perfect.P[np.ix_(rows, rows)])
        assert previous < set(rows.tolist()) and d.labels[d.condorcet_winner] == "110"
        previous = set(rows.tolist())
        assert matrix_provenance.nested_text(size, np.loadtxt(MATRICES / "mslr136_perfect.txt")) == \
            (MATRICES / f"mslr_perfect_k{size}.txt").read_text()


@pytest.mark.parametrize("name", sorted(PAPER_TABLES))
def test_printed_table_files_regenerate(name):
    assert matrix_provenance.printed_table_text(name) == (MATRICES / f"{name}.txt").read_text()


@pytest.mark.parametrize("name, K, winners, zeta, scores", DATASET_TABLE, ids=[row[0] for row in DATASET_TABLE])
def test_winners_and_zeta_star_as_documented(name, K, winners, zeta, scores):
    d = load_dataset(name)
    assert d.K == K and d.P.shape == (K, K)
    assert d.winners.tolist() == winners
    assert d.zeta_star == zeta
    assert d.has_condorcet_winner == (zeta == 1.0)
    assert d.condorcet_winner == (winners[0] if zeta == 1.0 else None)
    assert d.copeland_scores.dtype == np.int64
    assert np.array_equal(d.normalized_copeland, d.copeland_scores / (K - 1))
    if scores is not None:
        assert d.copeland_scores.tolist() == scores


def test_arxiv_exact_tie_counts_for_neither_arm():
    d = load_dataset("arxiv")
    assert d.P[3, 5] == d.P[5, 3] == 0.5
    assert d.copeland_scores[3] == d.copeland_scores[4] == 1


def test_sushi_labels_winner_and_tie():
    d = load_dataset("sushi")
    assert d.labels == tuple(SUSHI_NAMES)
    assert d.labels[d.condorcet_winner] == "toro"
    assert d.P[2, 4] == d.P[4, 2] == 0.5  # hamachi vs tai
    assert np.all(d.P + d.P.T == 1.0)


def test_mslr136_labels_are_ranker_ids():
    d = load_dataset("mslr136_informational")
    assert d.labels == tuple(str(r) for r in range(1, 137))
    assert d.copeland_scores.max() == 134
    assert d.labels[d.winners[0]] == "115"


def test_every_file_has_source_header_and_labels():
    for path in MATRICES.glob("*.txt"):
        rows, labels, header = read_matrix_file(path)
        assert labels is not None and len(labels) == len(rows), path.name
        assert any("source" in line for line in header), path.name


def test_dataset_is_immutable():
    d = load_dataset("cyclic")
    assert not d.P.flags.writeable
    with pytest.raises(ValueError):
        d.P[0, 1] = 0.7
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.name = "other"


# ---------------------------------------------------------------- copeland500


def check_copeland_tournament(P):
    """Assert the three-winner-cycle structure for any K."""
    K = P.shape[0]
    d = dataset_from_matrix(P, "t")
    assert d.renormalised == ()
    assert d.copeland_scores.tolist() == [K - 2] * 3 + list(range(K - 4, -1, -1))
    assert d.winners.tolist() == [0, 1, 2]
    assert P[0, 1] > 0.5 and P[1, 2] > 0.5 and P[2, 0] > 0.5
    assert np.all(P[:3, 3:] > 0.5)
    assert np.all(P + P.T == 1.0)


def test_copeland500_default_structure():
    P = make_copeland_500()
    assert P.shape == (500, 500)
    check_copeland_tournament(P)
    scores = (P > 0.5).sum(axis=1)
    assert sorted(scores.tolist()) == list(range(0, 497)) + [498] * 3
    assert P[0, 1] == 0.55 and P[0, 3] == 0.6 and P[3, 4] == 0.6


@pytest.mark.parametrize("K", [4, 5, 8, 13])
def test_copeland_small_K(K):
    check_copeland_tournament(make_copeland_500(K=K))


def test_copeland_random_magnitudes_are_seeded():
    kwargs = dict(K=12, p_winner_cycle=(0.51, 0.55), p_winner_vs_rest=(0.55, 0.9), p_rest=(0.5001, 0.9), seed=7)
    P = make_copeland_500(**kwargs)
    check_copeland_tournament(P)
    assert np.array_equal(P, make_copeland_500(**kwargs))
    assert not np.array_equal(P, make_copeland_500(**{**kwargs, "seed": 8}))
    assert 0.51 <= P[1, 2] <= 0.55


@pytest.mark.parametrize("kwargs, match", [
    (dict(K=3), "K = 3"),
    (dict(K=10.5), "K = 10.5"),
    (dict(p_winner_cycle=0.5), "p_winner_cycle = 0.5"),
    (dict(p_rest=1.2), "p_rest = 1.2"),
    (dict(p_winner_vs_rest=(0.7, 0.6)), "p_winner_vs_rest"),
    (dict(K="abc"), "K = 'abc' must be an integer >= 4"),  # int()'s message before
    (dict(K=float("inf")), "K = inf must be an integer >= 4"),  # OverflowError before
    (dict(K=None), "K = None must be an integer >= 4"),  # TypeError before
    (dict(p_rest="ab"), r"p_rest = 'ab' must be a number or a \(low, high\) pair"),  # float()'s message before
])
def test_copeland_rejects_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        make_copeland_500(**kwargs)


# ---------------------------------------------------------------- validation


def test_not_square():
    with pytest.raises(ValueError, match=r"not square: shape \(3, 4\)"):
        validate_preference_matrix(np.full((3, 4), 0.5))
    with pytest.raises(ValueError, match=r"not square: shape \(3,\)"):
        validate_preference_matrix([0.5, 0.5, 0.5])


def test_too_few_arms():
    with pytest.raises(ValueError, match=r"K >= 2.*shape \(1, 1\)"):
        validate_preference_matrix([[0.5]])


def test_not_numeric():
    with pytest.raises(ValueError, match="not numeric"):
        validate_preference_matrix([["a", "b"], ["c", "d"]])


@pytest.mark.parametrize("value, text", [(np.nan, "nan"), (np.inf, "inf"), (-np.inf, "-inf")])
def test_not_finite(value, text):
    P = square(3)
    P[1, 2] = value
    with pytest.raises(ValueError, match=rf"p\[1,2\] = {text} is not finite"):
        validate_preference_matrix(P)


@pytest.mark.parametrize("value", [1.3, -0.2])
def test_outside_unit_interval(value):
    P = square(3)
    P[0, 1] = value
    with pytest.raises(ValueError, match=rf"p\[0,1\] = {value} is outside \[0, 1\]"):
        validate_preference_matrix(P)


def test_bad_diagonal():
    P = square(3)
    P[2, 2] = 0.4
    with pytest.raises(ValueError, match=r"p\[2,2\] = 0.4 on the diagonal must be 0.5"):
        validate_preference_matrix(P)


def test_diagonal_within_1e12_is_set_to_half():
    P = square(3)
    P[1, 1] = 0.5 + 1e-13
    fixed, renormalised = validate_preference_matrix(P)
    assert fixed[1, 1] == 0.5 and renormalised == []


def test_inconsistent_pair():
    P = square(4)
    P[0, 3], P[3, 0] = 0.6, 0.5
    with pytest.raises(ValueError) as err:
        validate_preference_matrix(P)
    assert str(err.value) == (
        "inconsistent preference matrix: p[0,3] + p[3,0] = 0.6 + 0.5 = 1.1 (must be 1 within 0.001)"
    )


def test_sushi_3dp_pair_is_rejected():
    # the 3-decimal Komiyama sushi file prints p[10,15] = 0.627 (maguro vs ebi, 0.6275 exactly) and p[15,10] = 0.372;
    # in floating point |0.627 + 0.372 - 1| = 0.0010000000000000009, just above the 1e-3 tolerance
    P = np.array(load_dataset("sushi").P)
    P[10, 15], P[15, 10] = 0.627, 0.372
    message = r"p\[10,15\] \+ p\[15,10\] = 0.627 \+ 0.372 = 0.999 \(must be 1 within 0.001\)"
    with pytest.raises(ValueError, match=message):
        validate_preference_matrix(P)


def test_sushi_3dp_file_is_rejected(tmp_path):
    """The published 3-decimal Sushi file is the full-precision matrix printed with %.3f (checked byte for
    byte against Komiyama et al.'s file when this test was written); loading it fails on maguro/ebi."""
    path = tmp_path / "sushi16_3dp.txt"
    path.write_text("\n".join(" ".join(f"{p:.3f}" for p in row) for row in load_dataset("sushi").P) + "\n")
    with pytest.raises(ValueError, match=r"p\[10,15\]"):
        load_dataset(path)


def test_renormalisation_within_tolerance():
    P = square(3)
    P[0, 1], P[1, 0] = 0.6, 0.3995
    P[1, 2], P[2, 1] = 0.7, 0.3
    original = P.copy()
    fixed, renormalised = validate_preference_matrix(P)
    assert renormalised == [(0, 1)]
    assert fixed[0, 1] == 0.6 / 0.9995 and fixed[1, 0] == 0.3995 / 0.9995
    assert fixed[1, 2] == 0.7
    assert np.array_equal(P, original)


def test_renormalisation_recorded_and_warned(tmp_path):
    path = tmp_path / "almost.txt"
    path.write_text("0.5 0.6 0.5\n0.4002 0.5 0.5\n0.5 0.5 0.5\n")
    with pytest.warns(UserWarning, match=r"renormalised 1 pair.*\(0,1\)"):
        d = load_dataset(path)
    assert d.renormalised == ((0, 1),)
    assert abs(d.P[0, 1] + d.P[1, 0] - 1) < 1e-15


def test_tolerance_is_a_parameter():
    P = square(2)
    P[0, 1], P[1, 0] = 0.6, 0.39
    with pytest.raises(ValueError, match="within 0.001"):
        validate_preference_matrix(P)
    assert validate_preference_matrix(P, tol=0.02)[1] == [(0, 1)]


@pytest.mark.parametrize("tol", [float("nan"), float("inf"), 2.0, -0.1, "0.01", None, True])
def test_tolerance_must_be_a_number_in_0_1(tol):
    """A NaN or infinite tol renormalised any pair (p + p^T = 1.8 accepted), one above 1 turned a pair
    summing to 0 into NaN; a text or None tol raised numpy's or Python's TypeError."""
    P = [[0.5, 0.0], [0.0, 0.5]]
    with pytest.raises(ValueError, match=r"^tol must be a number in \[0, 1\] .*, got "):
        dataset_from_matrix(P, "x", tol=tol)


@pytest.mark.parametrize("name", [None, 5, ""])
def test_dataset_name_must_be_a_string(name):
    """The name keys the run's random streams: None or 5 was accepted and failed later in run_one."""
    with pytest.raises(ValueError, match=f"^dataset name must be a non-empty string, got {name!r}$"):
        dataset_from_matrix(square(2), name)


# ---------------------------------------------------------------- loading


CYCLIC_ROWS = PAPER_TABLES["cyclic"]


def test_load_plain_txt_path_without_labels(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("\n".join(" ".join(map(str, r)) for r in CYCLIC_ROWS) + "\n")
    d = load_dataset(str(path))
    assert d.name == "mine" and d.source == str(path)
    assert d.labels == ("1", "2", "3", "4") and d.header == ()
    assert np.array_equal(d.P, np.array(CYCLIC_ROWS))


def test_load_txt_with_header_and_labels(tmp_path):
    path = tmp_path / "lab.txt"
    path.write_text("# source: test\n# labels: a b c d\n" + "\n".join(" ".join(map(str, r)) for r in CYCLIC_ROWS))
    d = load_dataset(path)
    assert d.labels == ("a", "b", "c", "d")
    assert d.header == ("# source: test", "# labels: a b c d")


def test_load_csv(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text("# labels: w x y z\n" + "\n".join(", ".join(map(str, r)) for r in CYCLIC_ROWS) + "\n")
    d = load_dataset(path)
    assert d.labels == ("w", "x", "y", "z")
    assert np.array_equal(d.P, np.array(CYCLIC_ROWS))


@pytest.mark.parametrize("layout", ["multiline", "oneline"])
def test_load_cpp_format(tmp_path, layout):
    numbers = [str(x) for r in CYCLIC_ROWS for x in r]
    if layout == "multiline":
        text = "4\n" + "\n".join(" ".join(map(str, r)) for r in CYCLIC_ROWS)
    else:
        text = "4 " + " ".join(numbers)
    path = tmp_path / "cpp.txt"
    path.write_text(text + "\n")
    assert np.array_equal(load_dataset(path).P, np.array(CYCLIC_ROWS))


def test_unknown_name_lists_available():
    with pytest.raises(ValueError, match=r"unknown dataset 'nope'; available: .*cyclic.*sushi"):
        load_dataset("nope")


def test_missing_file():
    with pytest.raises(ValueError, match="no such matrix file"):
        load_dataset("/nonexistent/dir/missing.txt")


def test_unsupported_suffix(tmp_path):
    with pytest.raises(ValueError, match="unsupported file type '.npy'"):
        load_dataset(tmp_path / "m.npy")


@pytest.mark.parametrize("text, match", [
    ("0.5 0.5\n0.5 x\n", r"line 2: 'x' is not a number"),
    ("0.5 0.5 0.5\n0.5 0.5\n", "neither a K x K matrix"),
    ("3 0.5 0.5 0.5 0.5\n", "neither a K x K matrix"),
    ("# labels: a b c\n0.5 0.5\n0.5 0.5\n", "3 labels for K = 2"),
])
def test_malformed_files(tmp_path, text, match):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(ValueError, match=match):
        load_dataset(path)


def test_invalid_matrix_in_file_names_entry(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("0.5 0.7\n0.7 0.5\n")
    with pytest.raises(ValueError, match=r"p\[0,1\] \+ p\[1,0\] = 0.7 \+ 0.7 = 1.4"):
        load_dataset(path)


def test_dataset_from_matrix_checks_labels():
    with pytest.raises(ValueError, match="3 labels for K = 2"):
        dataset_from_matrix(square(2), "x", labels=["a", "b", "c"])
    assert isinstance(dataset_from_matrix(square(2), "x"), Dataset)
