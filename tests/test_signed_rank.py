"""Wilcoxon's signed-rank test exact with ties and zeros (stats._signed_rank):
scipy's complete enumeration where scipy enumerates, scipy's exact path
without ties, an independent generating-function count in between, scipy's
normal approximation above 50 data sets."""

import numpy as np
import pytest
from _demsar import DEMSAR_AUC  # noqa: E402  (tests/ is on sys.path)
from scipy import stats

from sklearn_bcv import compare_scores
from sklearn_bcv.stats import wilcoxon
from sklearn_bcv.stats._signed_rank import EXACT_MAX_N, _null_tails, signed_rank_test

ZERO_METHODS = ("wilcox", "pratt", "zsplit")
ALTERNATIVES = ("two-sided", "greater", "less")


def _tied_differences(rng, n):
    """Whole-number differences: many ties and some zeros."""
    return rng.integers(-4, 5, size=n).astype(float)


@pytest.mark.parametrize("zero_method", ZERO_METHODS)
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_equals_scipys_complete_enumeration_with_ties(zero_method, alternative):
    # scipy 1.17 enumerates the 2**n sign flips (PermutationMethod) when
    # there are ties or zeros and n <= 13: the same distribution, to 1e-12.
    rng = np.random.default_rng(0)
    checked = 0
    # scipy's enumeration is slow (2**n statistics): a tie pattern of each
    # size up to 10 here, 13 (scipy's largest) once below.
    for n in range(2, 11):
        d = _tied_differences(rng, n)
        if zero_method != "zsplit" and not np.any(d):
            continue
        theirs = stats.wilcoxon(
            d,
            zero_method=zero_method,
            alternative=alternative,
            method=stats.PermutationMethod(n_resamples=2**14),
        )
        ours = wilcoxon(d, zero_method=zero_method, alternative=alternative)
        assert ours.statistic == theirs.statistic
        assert ours.pvalue == pytest.approx(theirs.pvalue, abs=1e-12, rel=0)
        checked += 1
    assert checked >= 8


def test_equals_scipys_complete_enumeration_at_13():
    d = np.array([3.0, -1, 2, 2, 0, -2, 4, 1, 1, 0, 3, -4, 2])
    theirs = stats.wilcoxon(d, zero_method="zsplit")  # scipy 1.17 enumerates
    ours = wilcoxon(d, zero_method="zsplit")
    assert ours.statistic == theirs.statistic
    assert ours.pvalue == pytest.approx(theirs.pvalue, abs=1e-12, rel=0)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_equals_scipys_exact_distribution_without_ties_up_to_50(alternative):
    rng = np.random.default_rng(1)
    for n in (5, 14, 30, 50):
        d = rng.permutation(np.arange(1, n + 1)) * rng.choice([-1.0, 1.0], n)
        theirs = stats.wilcoxon(d, alternative=alternative, method="exact")
        ours = wilcoxon(d, alternative=alternative)
        assert ours.statistic == theirs.statistic
        assert ours.pvalue == pytest.approx(theirs.pvalue, abs=1e-12, rel=0)


def _enumerated_pvalue(d, zero_method, alternative):
    """Exact p-value by an independent count: the generating function
    prod_i (1 + x^{2 r_i}) over the nonzero differences, in Python ints."""
    if zero_method == "wilcox":
        d = d[d != 0]
    ranks = stats.rankdata(np.abs(d))
    doubled = [int(round(2 * r)) for r, v in zip(ranks, d) if v != 0]
    counts = {0: 1}
    for weight in doubled:
        shifted = {s + weight: c for s, c in counts.items()}
        counts = {s: counts.get(s, 0) + shifted.get(s, 0) for s in {*counts, *shifted}}
    observed = int(round(2 * ranks[d > 0].sum()))
    total = 2 ** len(doubled)
    below = sum(c for s, c in counts.items() if s <= observed) / total
    above = sum(c for s, c in counts.items() if s >= observed) / total
    if alternative == "less":
        return below
    if alternative == "greater":
        return above
    return min(1.0, 2 * min(below, above))


@pytest.mark.parametrize("zero_method", ZERO_METHODS)
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_exact_from_14_to_50_with_ties_is_the_enumerated_count(
    zero_method, alternative
):
    # Where scipy falls back to the normal approximation.
    rng = np.random.default_rng(2)
    for n in (14, 23, 50):
        d = _tied_differences(rng, n)
        ours = wilcoxon(d, zero_method=zero_method, alternative=alternative)
        expected = _enumerated_pvalue(d, zero_method, alternative)
        assert ours.pvalue == pytest.approx(expected, abs=1e-12, rel=1e-12)


@pytest.mark.parametrize("zero_method", ZERO_METHODS)
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_normal_approximation_above_50_is_scipys(zero_method, alternative):
    # Above 50 nonzero differences (the zeros do not count: their signs are
    # not random, see test_exact_up_to_50_nonzero_differences_whatever_the_zeros).
    rng = np.random.default_rng(3)
    for n in (62, 80):
        d = _tied_differences(rng, n)
        assert np.count_nonzero(d) > 50
        ours = wilcoxon(d, zero_method=zero_method, alternative=alternative)
        theirs = stats.wilcoxon(d, zero_method=zero_method, alternative=alternative)
        assert ours.statistic == theirs.statistic
        assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-12)


@pytest.mark.parametrize("zero_method", ZERO_METHODS)
def test_exact_up_to_50_nonzero_differences_whatever_the_zeros(zero_method):
    # The table: 60 data sets, the two estimators tied on 55 (both
    # 1.0), A better on the other 5. Only 5 signs are random: the exact
    # p-value is 2/2**5, where scipy's normal approximation (decided on the
    # 60 differences) gives 0.043.
    d = np.r_[np.zeros(55), [0.01, 0.02, 0.03, 0.04, 0.05]]
    result = wilcoxon(d, zero_method=zero_method)
    assert result.pvalue == 0.0625
    assert result.min_pvalue == 0.0625
    assert not result.reject
    if zero_method == "wilcox":
        assert stats.wilcoxon(d).pvalue == pytest.approx(0.0431, abs=1e-4)
    # 50 nonzero differences among 120: still the exact subset-sum law,
    # checked against an independent count of the 2**50 sign patterns'
    # sums for the tie pattern (the generating-function count of the test
    # above) through the one-sided tail of the largest sum.
    rng = np.random.default_rng(5)
    d = np.r_[np.zeros(70), rng.integers(1, 9, size=50) * rng.choice([-1, 1], 50)]
    exact = wilcoxon(d, zero_method=zero_method)
    alone = wilcoxon(d[d != 0], zero_method=zero_method)
    if zero_method == "wilcox":  # the zeros dropped: the same test
        assert exact.pvalue == alone.pvalue
    all_positive = wilcoxon(np.abs(d), zero_method=zero_method, alternative="greater")
    assert all_positive.pvalue == pytest.approx(0.5**50, rel=1e-12)


def test_the_null_distribution_is_cached_by_tie_pattern():
    _null_tails.cache_clear()
    rng = np.random.default_rng(4)
    for _ in range(20):  # no ties: the pattern is n's alone
        wilcoxon(rng.normal(size=30))
    assert _null_tails.cache_info().misses == 1
    # Ranks 1, 2, 3 doubled: the 8 subsets sum to 0, 2, 4, 6, 6, 8, 10, 12.
    lower, upper = _null_tails((2, 4, 6))
    np.testing.assert_array_equal(lower * 8, [1, 1, 2, 2, 3, 3, 5, 5, 6, 6, 7, 7, 8])
    np.testing.assert_array_equal(upper * 8, [8, 7, 7, 6, 6, 5, 5, 3, 3, 2, 2, 1, 1])
    assert not lower.flags.writeable and not upper.flags.writeable


def test_zeros_only():
    for zero_method in ZERO_METHODS:
        statistic, pvalue = signed_rank_test(np.zeros((2, 5)), zero_method, "less")
        assert pvalue.tolist() == [1.0, 1.0]
    zsplit = signed_rank_test(np.zeros((1, 4)), "zsplit", "two-sided")[0]
    assert zsplit.tolist() == [5.0]  # 10 / 2
    assert EXACT_MAX_N == 50


def test_demsar_table_6_in_any_units():
    # The example: scipy on Demšar's Table 6 times 100 ranks
    # differences of equal decimals in their rounding order.
    names = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    found = []
    for scores in (DEMSAR_AUC, 100 * DEMSAR_AUC, DEMSAR_AUC + 0.1):
        result = compare_scores(scores, names=names, tests=[], effect_size=False)
        found.append(result.pairwise.wilcoxon)
    for table in found[1:]:
        np.testing.assert_array_equal(table.statistic, found[0].statistic)
        np.testing.assert_array_equal(table.pvalue, found[0].pvalue)
    scipy_units = [
        stats.wilcoxon(s[:, 0] - s[:, 3]).pvalue
        for s in (DEMSAR_AUC, 100 * DEMSAR_AUC, DEMSAR_AUC + 0.1)
    ]
    assert len(set(scipy_units)) > 1  # what the tie rule repairs
