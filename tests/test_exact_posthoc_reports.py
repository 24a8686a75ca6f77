"""The exact rank-sum post hoc test through the package: the critical
difference diagram and the compact letters drawn from it, its table,
sentence and figure in the reports, its CSV rows and JSON document, and the
command line."""

import csv
import io
import json
from itertools import combinations

import numpy as np
import pytest
from _demsar import DEMSAR_AUC, DEMSAR_NAMES  # noqa: E402  (tests/ is on sys.path)

from sklearn_bcv import compact_letters, compare_scores
from sklearn_bcv._cli import main
from sklearn_bcv.stats import exact_posthoc

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sklearn_bcv import CriticalDifferenceDisplay  # noqa: E402


@pytest.fixture(scope="module")
def demsar():
    return compare_scores(
        DEMSAR_AUC,
        names=DEMSAR_NAMES,
        alpha=0.10,
        tests=["friedman", "exact_posthoc"],
        pairwise_tests=[],
    )


def test_diagram_draws_the_exact_families_groups(demsar):
    display = CriticalDifferenceDisplay.from_result(demsar, test="exact_posthoc")
    direct = exact_posthoc(DEMSAR_AUC, alpha=0.10)
    index = {name: i for i, name in enumerate(DEMSAR_NAMES)}
    for group in display.groups_:
        for a, b in combinations(group, 2):
            assert not direct.reject[index[a], index[b]]
    for a, b in combinations(range(4), 2):
        if not direct.reject[a, b]:
            assert any(
                DEMSAR_NAMES[a] in g and DEMSAR_NAMES[b] in g for g in display.groups_
            )
    assert display.cd_line_ is None
    assert display.cd_text_.get_text() == "exact rank-sum post hoc test, α = 0.1"
    plt.close("all")


def test_diagram_against_a_control_and_at_another_alpha():
    result = compare_scores(
        DEMSAR_AUC,
        names=DEMSAR_NAMES,
        control="C4.5",
        tests=["friedman", "exact_posthoc"],
        pairwise_tests=[],
    )
    display = CriticalDifferenceDisplay.from_result(result, test="exact_posthoc")
    # Holm against C4.5: C4.5+m (raw 0.0142) and C4.5+m+cf (0.0113) differ.
    assert display.groups_ == [("C4.5+cf", "C4.5")]
    assert display.control == "C4.5"
    strict = CriticalDifferenceDisplay.from_result(
        result, test="exact_posthoc", alpha=0.01
    )
    assert strict.groups_ == [("C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5")]
    plt.close("all")


def test_compact_letters_of_the_exact_family(demsar):
    letters = compact_letters(demsar, test="exact_posthoc")
    direct = exact_posthoc(DEMSAR_AUC, alpha=0.10)
    for a, b in combinations(range(4), 2):
        shared = set(letters[DEMSAR_NAMES[a]]) & set(letters[DEMSAR_NAMES[b]])
        assert bool(shared) == (not direct.reject[a, b])
    # Not run in the result: run on its scores, with the family's defaults.
    other = compare_scores(DEMSAR_AUC, names=DEMSAR_NAMES, pairwise_tests=[])
    assert compact_letters(other, test="exact_posthoc", alpha=0.10) == letters


def test_reports_show_the_exact_family(demsar):
    text = demsar.report()
    assert "Exact rank-sum post hoc test (holm correction" in text
    assert "Eisinga et al. 2017" in text
    assert "R. Eisinga, T. Heskes, B. Pelzer and M. Te Grotenhuis" in text
    assert "The exact rank-sum post hoc test, pair by pair" in text
    html = demsar.report("html")
    assert "Critical difference diagram (exact rank-sum post hoc test)" in html
    assert "<svg" in html
    summary = repr(demsar)
    assert "Post hoc exact_posthoc (holm) on mean ranks" in summary


def test_csv_and_json_of_the_exact_family(demsar):
    from sklearn_bcv._results._document import DocumentMixin

    assert isinstance(demsar, DocumentMixin)
    document = json.loads(demsar.to_json())
    family = document["tests"]["exact_posthoc"]
    assert family["min_pvalue"] == pytest.approx(demsar.tests.exact_posthoc.min_pvalue)
    assert family["rank_sums"] == pytest.approx([44.0, 28.0, 40.5, 27.5])
    friedman = document["tests"]["friedman"]
    assert friedman["method"] == "exact"
    assert friedman["pvalue_chi2"] == pytest.approx(0.0167, abs=1e-4)
    frame = demsar.to_frame()
    rows = frame[frame.test == "exact_posthoc"]
    assert len(rows) == 6
    assert set(rows.columns) >= {"statistic", "pvalue", "pvalue_adjusted", "reject"}


def test_command_line_runs_the_exact_family(tmp_path):
    path = tmp_path / "scores.csv"
    lines = ["dataset," + ",".join(DEMSAR_NAMES)]
    lines += [
        f"d{i}," + ",".join(repr(float(v)) for v in row)
        for i, row in enumerate(DEMSAR_AUC)
    ]
    path.write_text("\n".join(lines) + "\n")
    out, err = io.StringIO(), io.StringIO()
    status = main(
        ["scores", str(path), "--tests", "friedman,exact_posthoc", "--format", "csv"],
        stdout=out,
        stderr=err,
    )
    assert status == 0, err.getvalue()
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    exact = [row for row in rows if row["test"] == "exact_posthoc"]
    assert len(exact) == 6
    out = io.StringIO()
    status = main(
        ["scores", str(path), "--tests", "list"], stdout=out, stderr=io.StringIO()
    )
    assert status == 0 and "exact_posthoc" in out.getvalue()


def test_two_estimators_decide_exactly_throughout():
    # The table: every default decision on two estimators is exact.
    tied = np.r_[np.ones((55, 2)), [[0.9, 0.8]] * 5]
    result = compare_scores(tied, names=["A", "B"], tests=["friedman", "exact_posthoc"])
    assert result.tests.friedman.pvalue == 0.0625
    assert result.tests.exact_posthoc.pvalue[0, 1] == 0.0625
    assert result.pairwise.wilcoxon.pvalue[0, 1] == 0.0625
    assert not result.verdict.differ
