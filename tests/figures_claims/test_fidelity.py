"""The stored runs against the authors' own code, from the committed files: the study,
``reproduce.studies.authors_agreement``, and its command line, ``reproduce/fidelity.py`` (run from its file).

The committed reference runs and stored lines must agree cell by cell (the guard: it fails as soon as a stored
line or a reference file leaves agreement, shown by scaling one line's regret), the generated page and table
must be up to date, and the statistics are checked against plain transcriptions of their definitions."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from dts_reproduction.data import load_dataset
from dts_reproduction.reproduce.config.paper import ROOT_SEED, paper_runs
from dts_reproduction.reproduce.harness.paths import RESULTS
from dts_reproduction.reproduce.studies import authors_agreement
from dts_reproduction.reproduce.studies.experiment import stored_line
from tests.bench_scripts import bench_script
from tests.scripts import run_script


@pytest.fixture(scope="module")
def committed():
    """The comparison table recomputed from the committed reference runs and results."""
    return authors_agreement.comparisons()


def test_every_committed_cell_agrees_with_the_authors_code(committed):
    """Recomputed from bench/authors_reference/ and results/: the smallest Holm-adjusted p of every cell is
    above the family-wise level, for the stored lines and for the authors' code against itself."""
    project = committed[committed.family == "project"]
    assert len(project) >= 10
    for family in ("project", "self"):
        rows = committed[committed.family == family]
        assert rows.min_p_holm.min() > authors_agreement.FAMILY_LEVEL, \
            rows.sort_values("min_p_holm").head(3).to_string()


@pytest.mark.parametrize("algorithm", ["dts_plus", "rmed2", "merge_dts", "self_sparring"])
def test_a_line_that_leaves_agreement_fails_the_guard(monkeypatch, committed, algorithm):
    """A stored line (a paper line, a declared line against the C++ or against the Python) whose regret is 30%
    higher than it is stored is found to disagree (the guard can fail)."""
    original = authors_agreement.project_regret
    cell = next(cell for cell in authors_agreement.reference_cells() if cell.algorithm == algorithm and not cell.reused)

    def shifted(other, results=authors_agreement.RESULTS):
        regret = original(other, results)
        return regret * 1.3 if other == cell else regret

    monkeypatch.setattr(authors_agreement, "project_regret", shifted)
    table = authors_agreement.comparisons()
    row = table[(table.family == "project") & (table.algorithm == cell.algorithm) & (table.matrix == cell.matrix)]
    assert row.verdict.item() == authors_agreement.DISAGREES
    disagrees = authors_agreement.DISAGREES
    assert (table.verdict == disagrees).sum() == 1 + (committed.verdict == disagrees).sum()


def test_the_page_and_the_table_are_up_to_date(committed):
    """docs/fidelity.md and figures/fidelity.csv are what reproduce/fidelity.py writes from the committed data."""
    assert authors_agreement.PAGE.read_text() == authors_agreement.page(committed)
    assert authors_agreement.TABLE.read_text() == committed.to_csv(index=False)


def plain_holm(p_values):
    """Holm's adjusted p-values straight from the definition: max over j <= i of (m - j + 1) p_(j), capped at 1."""
    m = len(p_values)
    order = sorted(range(m), key=lambda index: p_values[index])
    adjusted = [0.0] * m
    for rank, index in enumerate(order):
        adjusted[index] = min(1.0, max((m - j) * p_values[order[j]] for j in range(rank + 1)))
    return adjusted


def test_holm_adjusted_matches_the_definition():
    """Random p-values (with ties) and a hand-worked case."""
    rng = np.random.default_rng(35)
    for size in (1, 2, 7, 40):
        p_values = np.round(rng.uniform(0, 0.2, size), 3)
        np.testing.assert_allclose(authors_agreement.holm_adjusted(p_values), plain_holm(list(p_values)), rtol=0,
                                   atol=1e-15)
    np.testing.assert_allclose(authors_agreement.holm_adjusted([0.01, 0.04, 0.03, 0.5]), [0.04, 0.09, 0.09, 0.5])


def plain_welch(a, b):
    """Welch's two-sided p-value from the Welch-Satterthwaite formulas."""
    va, vb = np.var(a, ddof=1) / len(a), np.var(b, ddof=1) / len(b)
    t = (np.mean(a) - np.mean(b)) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    return 2 * stats.t.sf(abs(t), df)


def plain_ks(a, b):
    """The two-sample KS statistic: the largest gap between the two empirical distribution functions."""
    points = np.concatenate([a, b])
    return max(abs(np.mean(a <= x) - np.mean(b <= x)) for x in points)


def test_cell_tests_match_plain_statistics():
    """Welch at T and at each decade (Bonferroni over the decades below T), KS at T, and the means."""
    rng = np.random.default_rng(7)
    a, b = rng.gamma(2.0, 50.0, (60, 3)).cumsum(axis=1), rng.gamma(2.0, 55.0, (90, 3)).cumsum(axis=1)
    tests = authors_agreement.cell_tests(a, b)
    assert tests["p_mean"] == pytest.approx(plain_welch(a[:, -1], b[:, -1]), rel=1e-9)
    assert tests["p_curve"] == pytest.approx(min(1.0, 2 * min(plain_welch(a[:, k], b[:, k]) for k in range(2))),
                                             rel=1e-9)
    assert stats.ks_2samp(a[:, -1], b[:, -1]).statistic == pytest.approx(plain_ks(a[:, -1], b[:, -1]))
    assert tests["mean_a"] == pytest.approx(a[:, -1].mean()) and tests["mean_b"] == pytest.approx(b[:, -1].mean())
    assert authors_agreement.welch_p(np.ones(5), np.ones(4)) == 1.0


def test_detectable_difference_has_the_stated_power():
    """A shift of the detectable size is found at the strictest Holm level in ~80% of normal samples; the
    tolerance is four binomial standard deviations of 2000 trials."""
    rng = np.random.default_rng(11)
    tests, runs, trials = 30, 100, 2000
    se = math.sqrt(2 / runs)
    shift = authors_agreement.detectable_difference(se, tests)
    found = sum(plain_welch(rng.normal(0, 1, runs), rng.normal(shift, 1, runs)) < authors_agreement.FAMILY_LEVEL / tests
                for _ in range(trials))
    power = authors_agreement.POWER
    assert abs(found / trials - power) < 4 * math.sqrt(power * (1 - power) / trials)


def test_reference_files_and_the_plan_agree():
    """Every cell of bench/authors_code.py's PLAN is a committed file, every committed file a cell of the plan,
    each with its run count and the seeds the plan gives it, and their decade columns are increasing."""
    authors = bench_script("authors_code")
    planned = {(matrix, name, horizon, reuse): runs for matrix, name, horizon, runs, reuse in authors.PLAN}
    planned.update({(matrix, name, horizon, False): runs
                    for matrix, name, horizon, runs in bench_script("authors_python").PLAN})
    stored = {(cell.matrix, cell.algorithm, cell.horizon, cell.reused): cell
              for cell in authors_agreement.reference_cells()}
    assert set(stored) <= set(planned)
    for key, cell in stored.items():
        table = pd.read_csv(cell.path)
        assert list(table.run) == list(range(planned[key]))
        assert list(table.seed) == [authors.cell_seed(*key) + run for run in range(planned[key])]
        regret = authors_agreement.reference_regret(cell)
        assert np.all(np.diff(regret, axis=1) >= 0)


def test_bad_reference_name_and_bad_clone_are_value_errors(tmp_path):
    """A file under the reference folder that is not named like a cell, and a --cpp folder that is not the
    authors' clone, are errors naming the path (main_guard makes them one line and exit status 2)."""
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "notes.csv").write_text("x\n")
    with pytest.raises(ValueError, match="notes.csv"):
        authors_agreement.reference_cells(tmp_path)
    with pytest.raises(ValueError, match="not a clone"):
        bench_script("authors_code").check_clone(tmp_path)


def test_every_reference_cell_with_a_stored_line_is_compared(committed):
    """No cell is silently dropped: each fresh reference cell has a self row, and a project row unless its
    stored line is missing; the families are corrected separately over all their p-values."""
    cells = [cell for cell in authors_agreement.reference_cells() if not cell.reused]
    assert (committed.family == "self").sum() == len(cells)
    for family, rows in committed.groupby("family"):
        flat = rows[list(authors_agreement.P_COLUMNS)].to_numpy().ravel()
        adjusted = rows[[f"{column}_holm" for column in authors_agreement.P_COLUMNS]].to_numpy().ravel()
        np.testing.assert_allclose(adjusted, authors_agreement.holm_adjusted(flat), err_msg=family)
    codes = {**dict.fromkeys(authors_agreement.CPP_ALGORITHMS, "C++"),
             **dict.fromkeys(authors_agreement.PYTHON_ALGORITHMS, "Python")}
    assert not list(itertools.filterfalse(lambda name: name in codes, committed.algorithm))
    assert [codes[name] for name in committed.algorithm] == list(committed.source)


def test_every_code_and_algorithm_is_compared(committed):
    """Every algorithm of both codes has a compared cell (MultiSBM and RMED2 of the C++ on its nine matrices),
    every declared line is stored -- horizon T of its cell, the defaults, the paper's run count -- and the
    README's line names both codes."""
    project = committed[committed.family == "project"]
    assert set(project.algorithm) == {*authors_agreement.CPP_ALGORITHMS, *authors_agreement.PYTHON_ALGORITHMS}
    for name in ("multisbm", "rmed2"):
        assert project[project.algorithm == name].matrix.nunique() == 9
    cells = [cell for cell in authors_agreement.reference_cells()
             if cell.algorithm in authors_agreement.OWN_LINE and not cell.reused]
    lines = authors_agreement.declared_lines()
    assert len(lines) == len(cells)
    for cell, line in zip(cells, lines, strict=True):
        assert (line.dataset, line.algorithm, line.horizon, line.params) == (cell.matrix, cell.algorithm,
                                                                             cell.horizon, ())
        assert line.runs == paper_runs(load_dataset(cell.matrix).K)
        assert stored_line(line, RESULTS, ROOT_SEED) is not None, line
    line = authors_agreement.summary_line(committed)
    assert all(name in line for name in authors_agreement.CODES.values())


@pytest.mark.parametrize("argv,message", [
    (["--check", "--compute"], "error: give either --check (reads only) or --compute, not both"),
    (["--compute", "--n-jobs", "0"],
     "error: --n-jobs must be a positive number of workers or negative (-1: all cores), got 0")])
def test_compute_and_check_exclude_each_other(argv, message, capsys):
    """--check only reads, so --check with --compute is bad input (main_guard: one line, exit status 2), as is
    --n-jobs 0; both are refused before anything is read or computed."""
    with pytest.raises(SystemExit) as exit_:
        run_script("reproduce/fidelity.py", argv)
    out, err = capsys.readouterr()
    assert exit_.value.code == 2 and err == message + "\n" and out == ""


def fake_clone(folder, extra: str = ""):
    """A folder holding the files bench/authors_python.py ports, each containing every text it edits as often
    as listed (``extra`` appended once more to demo.py)."""
    authors = bench_script("authors_python")
    texts = {}
    for file, text, _replacement, matches in authors.EDITS:
        texts[file] = texts.get(file, "") + (text + "\n") * matches
    texts["demo.py"] += extra
    texts["dueling_bandits/self_sparring.py"] = "unchanged\n"
    for file, text in texts.items():
        (folder / file).parent.mkdir(parents=True, exist_ok=True)
        (folder / file).write_text(text)
    return authors


def test_python_port_applies_exactly_the_listed_edits(tmp_path):
    """The port copies their files into the scratch folder and replaces every listed text (their clone is left
    as it was); a text found more or less often than listed stops it (their code is not the one described);
    a folder that is not their clone is a ValueError naming it."""
    clone, scratch = tmp_path / "clone", tmp_path / "scratch"
    authors = fake_clone(clone)
    before = {path: path.read_text() for path in clone.rglob("*.py")}
    root = authors.port(authors.check_clone(clone), scratch)
    assert {path: path.read_text() for path in clone.rglob("*.py")} == before
    for file, text, replacement, matches in authors.EDITS:
        ported = (root / file).read_text()
        assert ported.count(replacement) >= matches and (text not in ported or text in replacement)
    assert (root / "dueling_bandits" / "self_sparring.py").read_text() == "unchanged\n"
    fake_clone(clone, extra=authors.EDITS[0][1])
    with pytest.raises(RuntimeError, match="occurs 2 times, not 1"):
        authors.port(clone, scratch)
    with pytest.raises(ValueError, match="not a clone of chang-li/MergeDTS"):
        authors.check_clone(tmp_path / "scratch" / "nowhere")


def test_python_regrets_from_the_pairs_played():
    """The driver's Copeland and gap regrets of recorded pairs, against a plain loop over the slots: the Copeland
    winner's score minus the pair's mean score, and the mean of the pair's gaps P[winner, a] - 1/2."""
    authors = bench_script("authors_python")
    matrix = np.asarray(load_dataset("arxiv").P, np.float64)
    rng = np.random.default_rng(3)
    pairs = rng.integers(0, len(matrix), (50, 2))
    copeland, gap = authors.copeland_and_gap(matrix, pairs)
    score = [sum(matrix[i, j] > 0.5 for j in range(len(matrix))) / (len(matrix) - 1) for i in range(len(matrix))]
    winner = int(np.argmax(score))
    plain_copeland = np.cumsum([max(score) - (score[a] + score[b]) / 2 for a, b in pairs])
    plain_gap = np.cumsum([(matrix[winner, a] + matrix[winner, b] - 1) / 2 for a, b in pairs])
    np.testing.assert_allclose(copeland, plain_copeland, rtol=0, atol=1e-12)
    np.testing.assert_allclose(gap, plain_gap, rtol=0, atol=1e-12)


def test_regrets_are_compared_on_their_lattice():
    """Two sums of the same slot costs formed in another order differ by rounding errors; on the lattice of
    multiples of 1 / (2 (K - 1)) they are equal, so KS sees no step between them (K = 6 for ArXiv: 1/10)."""
    exact = np.array([[5332.8, 5333.6]])
    assert np.array_equal(authors_agreement.on_lattice(exact - 2.5e-10, "arxiv"),
                          authors_agreement.on_lattice(exact, "arxiv"))
    np.testing.assert_allclose(authors_agreement.on_lattice(exact + 0.04, "arxiv"), exact)


def test_multisbm_state_leaks_between_runs_of_the_authors_main(committed):
    """NOTES.md's defect, from the committed runs: one MultiSBM object reused for every run (as the authors'
    single-algorithm main does) has a higher mean R(T) than a fresh object per run, by both tests."""
    reused = committed[committed.family == "reused"]
    assert list(reused.algorithm) == ["multisbm"]
    row = reused.iloc[0]
    assert row.mean_a > 2 * row.mean_b and row.p_mean < 1e-6 and row.p_ks < 1e-6


def test_power_line_states_each_codes_detectable_share():
    """The page says what a cell can see: the detectable difference over the authors' mean, median and range per
    code and the widest cell, from the table (the authors' code against itself is not counted)."""
    rows = [("C++", "dts", "cyclic", 100.0, 10.0), ("C++", "rucb", "gap", 100.0, 30.0),
            ("C++", "ccb", "arxiv", 50.0, 40.0), ("Python", "merge_dts", "sushi", 200.0, 20.0)]
    table = pd.DataFrame([{"source": s, "algorithm": a, "matrix": m, "family": "project", "mean_b": mean,
                           "detectable": d} for s, a, m, mean, d in rows]
                         + [{"source": "C++", "algorithm": "dts", "matrix": "cyclic", "family": "self", "mean_b": 1.0,
                             "detectable": 9.0}])
    assert authors_agreement.power_line(table).startswith(
        "**What the comparison can see**: the detectable difference as a share of the mean R(T) of the authors' runs, "
        "C++: 30% at the median cell, 10% to 80% (widest: ccb on arxiv); Python: 10% at the median cell, 10% to 10% "
        "(widest: merge_dts on sushi).")
