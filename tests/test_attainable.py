"""Verdicts no outcome could change (stats._attainable, _results._attainable):
the floors of the p-values against brute force, the notes of the summaries
and reports checked against every number printed beside them, and
infinite statistics written as ∞ / \\infty."""

import re

import numpy as np
import pytest
from _demsar import DEMSAR_AUC  # noqa: E402  (tests/ is on sys.path)

from sklearn_bcv import compare_scores
from sklearn_bcv.stats import (
    adjust_pvalues,
    bonferroni_dunn,
    exact_posthoc,
    friedman,
    holm,
    nemenyi,
    sign,
    wilcoxon,
)
from sklearn_bcv.stats._attainable import adjusted_floor, datasets_needed, pvalue_floor

NOTE = "no outcome could change this verdict"


def _concordant(n, k, rng=None):
    """Every data set ranks the estimators alike: the best any test sees."""
    base = np.linspace(0.9, 0.6, k)
    shift = np.zeros((n, 1)) if rng is None else rng.uniform(-0.05, 0.05, (n, 1))
    return base + shift


# --------------------------------------------------------------------------
# The floors


@pytest.mark.parametrize("n, k", [(2, 3), (3, 3), (5, 4), (6, 5), (4, 2)])
def test_floors_are_reached_by_the_concordant_table(n, k):
    # Every data set ranks the estimators alike: each test's smallest p-value.
    scores = _concordant(n, k)
    assert friedman(scores).pvalue == pytest.approx(friedman(scores).min_pvalue)
    assert friedman(scores).min_pvalue == pytest.approx(pvalue_floor("friedman", n, k))
    ph = exact_posthoc(scores, correction=None)
    assert ph.pvalue[0, k - 1] == pytest.approx(ph.min_pvalue)
    assert ph.min_pvalue == pytest.approx(pvalue_floor("exact_posthoc", n, k))
    ne = nemenyi(scores)
    assert ne.pvalue[0, k - 1] == pytest.approx(ne.min_pvalue)
    assert ne.min_pvalue == pytest.approx(pvalue_floor("nemenyi", n, k))
    z = holm(scores)
    assert z.pvalue[0, k - 1] == pytest.approx(z.min_pvalue)
    assert z.min_pvalue == pytest.approx(pvalue_floor("holm", n, k))
    d = scores[:, 0] - scores[:, -1]
    for test in (wilcoxon, sign):
        result = test(d)
        assert result.pvalue == pytest.approx(result.min_pvalue)
        assert result.min_pvalue == pytest.approx(pvalue_floor(test.__name__, n, k))


def test_adjusted_floor_is_the_correction_of_the_floors():
    for correction in ("holm", "bonferroni", "hochberg", "hommel", "finner", "rom"):
        expected = adjust_pvalues(np.full(10, 0.0078125), correction).min()
        assert adjusted_floor(0.0078125, 10, correction) == pytest.approx(expected)
    assert adjusted_floor(0.0078125, 10, "holm") == pytest.approx(0.078125)
    assert adjusted_floor(0.01, 1, "holm") == 0.01
    # The family's own: bonferroni_dunn with a control, 3 comparisons.
    result = bonferroni_dunn(_concordant(4, 4), control=0)
    assert result.min_pvalue_adjusted == pytest.approx(min(1, 3 * result.min_pvalue))


@pytest.mark.parametrize(
    "test, k, m, correction",
    [
        ("wilcoxon", 5, 10, "holm"),
        ("sign", 3, 3, "holm"),
        ("wilcoxon", 2, 1, None),
        ("exact_posthoc", 5, 10, "holm"),
        ("friedman", 3, 1, None),
        ("nemenyi", 4, 6, None),
        ("holm", 4, 3, "holm"),
    ],
)
def test_datasets_needed_is_the_first_n_below_alpha(test, k, m, correction):
    needed = datasets_needed(test, k, n_comparisons=m, correction=correction)

    def floor(n):
        raw = pvalue_floor(test, n, k)
        return raw if test == "nemenyi" else adjusted_floor(raw, m, correction)

    assert floor(needed) < 0.05 <= floor(needed - 1)


def test_the_issues_examples():
    # 8 data sets, 5 estimators, Holm over 10 pairs: Wilcoxon's p-values are
    # at least 2/2**8 = 0.0078, every adjusted one at least 0.078.
    rng = np.random.default_rng(0)
    scores = _concordant(8, 5, rng)
    result = compare_scores(scores)
    text = repr(result)
    assert "Pairwise wilcoxon (holm-adjusted p-values, 10 pairs): 0 differ" in text
    assert f"note: {NOTE}" in text and "0.0781 after the holm correction" in text
    assert "with at least 9 data sets without ties" in text
    assert "exact_posthoc" in text
    table = result.pairwise["wilcoxon"]
    assert np.all(table.pvalue_adjusted[table.tested] >= 0.078)
    # The Friedman test and Nemenyi can decide here: no note on them.
    assert result.tests["friedman"].reject
    assert text.count(f"note: {NOTE}") == 1
    # The same table prints Iman-Davenport's infinite F as ∞.
    assert "Iman-Davenport F ∞" in text and " inf " not in text
    # 60 data sets tied on 55: Wilcoxon's exact p-value is 0.0625 and the
    # note agrees with it.
    tied = np.r_[np.ones((55, 2)), [[0.9, 0.8]] * 5]
    result = compare_scores(tied, names=["A", "B"])
    assert result.pairwise["wilcoxon"].pvalue[0, 1] == 0.0625
    assert result.tests["friedman"].pvalue == 0.0625
    assert not result.verdict.differ


# --------------------------------------------------------------------------
# Every printed note against the numbers beside it

_P = re.compile(r"\bp = ([0-9.e+-]+)")
_FLOOR = re.compile(
    r"can reach is ([0-9.e+-]+)(?: for one comparison and ([0-9.e+-]+))?"
)
#: What a note's p-value is not about: the supplementary p-values printed
#: beside the deciding one (the note names the method it is about).
_SUPPLEMENTARY = re.compile(r"; supplementary.*")


def _blocks(summary):
    """``[(header, [lines])]`` of a summary: a test's header line and the
    indented lines under it."""
    blocks = []
    for line in summary.split("\n"):
        if line.startswith("  ") and blocks:
            blocks[-1][1].append(line)
        else:
            blocks.append((line, []))
    return blocks


def _check_summary(summary):
    notes = 0
    for header, lines in _blocks(summary):
        for line in lines:
            if f"note: {NOTE}" not in line:
                continue
            notes += 1
            found = _FLOOR.search(line)
            floor = float(found.group(2) or found.group(1))
            # The block decides nothing...
            assert re.search(
                r": 0 (pairs differ|differ)|no significant difference among", header
            ), header
            # ... and every p-value it prints is at least the floor (both
            # printed to 3 significant digits).
            before = header + " ".join(x for x in lines if NOTE not in x)
            for p in _P.findall(_SUPPLEMENTARY.sub("", before)):
                assert float(p) >= floor * (1 - 5e-3), (p, floor, header)
    return notes


def _check_report(report):
    notes = 0
    paragraphs = [p for p in report.split("\n\n") if p.strip()]
    for before, paragraph in zip(paragraphs, paragraphs[1:]):
        if not paragraph.startswith("No outcome could change this verdict"):
            continue
        notes += 1
        assert "found no pair that differs" in before or "did not reject" in before
        floor = _FLOOR.search(paragraph)
        floor = float(floor.group(2) or floor.group(1))
        for p in _P.findall(_SUPPLEMENTARY.sub("", before)):
            assert float(p) >= floor * (1 - 5e-3), (p, floor, before)
    return notes


def _tables():
    rng = np.random.default_rng(3)
    for n, k in ((2, 3), (3, 4), (5, 3), (5, 5), (8, 5), (8, 2), (12, 6), (4, 8)):
        yield _concordant(n, k, rng)
        yield np.round(rng.uniform(0.7, 0.9, size=(n, k)), 2)
        yield np.round(_concordant(n, k) + rng.normal(0, 0.02, (n, k)), 2)
    yield DEMSAR_AUC


@pytest.mark.parametrize(
    "options",
    [
        {},
        {
            "tests": ["friedman", "exact_posthoc"],
            "pairwise_tests": ["wilcoxon", "sign"],
        },
        {"tests": ["friedman", "holm", "exact_posthoc"], "control": "e0"},
        {"tests": ["friedman", "nemenyi"], "correction": "bonferroni"},
    ],
)
def test_no_note_contradicts_a_printed_pvalue(options):
    seen = 0
    for scores in _tables():
        names = [f"e{j}" for j in range(scores.shape[1])]
        result = compare_scores(scores, names=names, random_state=0, **options)
        seen += _check_summary(repr(result))
        seen += _check_report(result.report())
        # At the level of the numbers: a test with a note rejects nothing,
        # and one without a note could reject.
        for name, test in [*result.tests.items(), *result.pairwise.items()]:
            floor = test.get("min_pvalue_adjusted", test.get("min_pvalue"))
            if floor is None:
                continue
            tested = np.asarray(test.get("tested", True))
            smallest = np.min(np.asarray(floor)[tested] if np.ndim(floor) else floor)
            adjusted = test.get("pvalue_adjusted", test.get("pvalue"))
            assert np.all(np.asarray(adjusted)[tested] >= smallest - 1e-12), name
    assert seen > 0


def test_notes_in_every_report_format():
    scores = _concordant(4, 5)
    result = compare_scores(scores, tests=["friedman", "exact_posthoc"])
    for fmt in ("text", "markdown", "html", "latex"):
        report = result.report(format=fmt)
        assert "o outcome could change this verdict" in report, fmt


# --------------------------------------------------------------------------
# Infinite statistics


def test_infinite_statistics_print_as_infinity_in_every_format():
    scores = _concordant(6, 4)  # Iman-Davenport's F has a zero denominator
    result = compare_scores(scores, tests=["friedman"], pairwise_tests=[])
    assert result.tests["friedman"].iman_davenport.statistic == np.inf
    text = repr(result)
    assert "Iman-Davenport F ∞" in text
    for fmt in ("text", "markdown", "html"):
        report = result.report(format=fmt)
        assert "F(3, 15) = ∞" in report, fmt
        assert not re.search(r"\binf\b", report), fmt
    latex = result.report(format="latex")
    assert r"$F_{3,15}$ = $\infty$" in latex
    assert not re.search(r"\binf\b", latex) and "∞" not in latex
