"""Exact inference on Friedman's ranks (stats._exact_ranks, friedman's
permutation p-value, exact_posthoc): complete enumeration of every
arrangement of small tables, the closed form and worked example of Eisinga
et al. (2017), the exact sign test for two estimators, and the Monte Carlo
against the exact law."""

import itertools
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from _demsar import DEMSAR_AUC  # noqa: E402  (tests/ is on sys.path)
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from sklearn_bcv.stats import exact_posthoc, friedman
from sklearn_bcv.stats._exact_ranks import (
    EXACT_MAX_WORK,
    _exact_law,
    _monte_carlo_spreads,
    _patterns,
    _sorting_network,
    doubled_ranks,
    friedman_spread,
    rank_difference_law,
    rank_difference_pvalue,
    smallest_difference_pvalue,
)
from sklearn_bcv.stats._ranks import rank_scores

# --------------------------------------------------------------------------
# Independent computations


def _arrangements(row):
    return sorted(set(itertools.permutations(row)))


def _enumerated_friedman(scores):
    """``P(S >= s_obs)`` over every arrangement of every data set's ranks
    (Fractions: no rounding)."""
    ranks = rank_scores(scores)
    doubled = doubled_ranks(ranks)
    k = doubled.shape[1]
    observed = friedman_spread(doubled)
    rows = [_arrangements(tuple(row)) for row in doubled]
    hits = total = 0
    for table in itertools.product(*rows):
        sums = np.sum(table, axis=0)
        spread = k * int(np.sum(sums**2)) - int(np.sum(sums)) ** 2
        hits += spread >= observed
        total += 1
    return Fraction(hits, total)


def _enumerated_difference(scores, a, b):
    """``P(|D| >= |d_obs|)`` for the pair (a, b) over every arrangement."""
    doubled = doubled_ranks(rank_scores(scores))
    observed = abs(int(doubled[:, a].sum() - doubled[:, b].sum()))
    rows = [_arrangements(tuple(row)) for row in doubled]
    hits = total = 0
    for table in itertools.product(*rows):
        table = np.asarray(table)
        hits += abs(int(table[:, a].sum() - table[:, b].sum())) >= observed
        total += 1
    return Fraction(hits, total)


def _eisinga_closed_form(d, k, n):
    """Eisinga et al. (2017), eq. for ``P(|D| >= d)`` without ties (rank
    units), in exact rational arithmetic."""
    if d == 0:
        return Fraction(1)
    result = Fraction(0)
    for h in range(n + 1):
        outer = Fraction(comb(n, h), k**h * (1 - k) ** n)
        inner = 0
        for s in range(h + 1):
            if k * s - d - h >= 0:
                inner += (
                    (-1) ** s * comb(2 * h, h + s) * comb(k * s - d + h, k * s - d - h)
                )
        result += outer * inner
    return 2 * result


def _tied_table(rng, n, k, values=4):
    """Whole-number scores from a few values: many ties."""
    return rng.integers(0, values, size=(n, k)).astype(float)


# --------------------------------------------------------------------------
# Exact Friedman


@pytest.mark.parametrize("shape", [(2, 3), (3, 3), (4, 3), (2, 4), (3, 4), (2, 5)])
def test_friedman_exact_is_the_complete_enumeration(shape):
    rng = np.random.default_rng(sum(shape))
    for values in (3, 100):  # many ties, then (almost) none
        for _ in range(4):
            scores = _tied_table(rng, *shape, values=values)
            result = friedman(scores)
            assert result.method == "exact"
            expected = _enumerated_friedman(scores)
            assert result.pvalue == pytest.approx(float(expected), abs=1e-13, rel=1e-13)


def test_friedman_exact_demsar_table_6_against_a_long_monte_carlo():
    exact = friedman(DEMSAR_AUC)
    assert exact.method == "exact"
    mc = friedman(DEMSAR_AUC, method="monte_carlo", n_resamples=400_000, random_state=0)
    assert mc.method == "monte_carlo" and mc.n_resamples == 400_000
    assert abs(mc.pvalue - exact.pvalue) < 4 * mc.pvalue_mc_se
    assert round(exact.pvalue, 4) == 0.0136
    assert round(exact.pvalue_chi2, 4) == 0.0167  # scipy's


@pytest.mark.parametrize("n", [1, 5, 14, 60, 500])
def test_friedman_two_estimators_is_the_exact_sign_test_ties_dropped(n):
    rng = np.random.default_rng(n)
    scores = np.round(rng.normal(size=(n, 2)), 0)
    wins = int(np.sum(scores[:, 0] > scores[:, 1]))
    losses = int(np.sum(scores[:, 0] < scores[:, 1]))
    expected = stats.binomtest(wins, wins + losses).pvalue if wins + losses else 1.0
    if n == 1:
        scores = np.r_[scores, [[0.5, 0.5]]]  # at least 2 data sets
    result = friedman(scores)
    assert result.method == "exact"
    assert result.pvalue == pytest.approx(expected, rel=1e-12)
    assert result.min_pvalue == pytest.approx(min(1.0, 2 * 0.5 ** (wins + losses)))


def test_the_issues_table_friedman_with_two_estimators():
    # 60 data sets, tied on 55 (both 1.0), A better on the other 5: chi2 = 5,
    # p = 0.025 by chi-squared; the exact p-value is the sign test's 0.0625.
    scores = np.r_[np.ones((55, 2)), [[0.9, 0.8]] * 5]
    result = friedman(scores)
    assert result.statistic == pytest.approx(5.0)
    assert result.pvalue_chi2 == pytest.approx(stats.chi2.sf(5, 1))
    assert (result.pvalue, result.method, result.reject) == (0.0625, "exact", False)
    assert friedman(scores, method="chi2").reject


def test_friedman_monte_carlo_agrees_with_the_exact_law():
    rng = np.random.default_rng(11)
    for shape in ((5, 5), (12, 4)):
        scores = np.round(rng.normal(size=shape) + 0.4 * np.arange(shape[1]), 1)
        exact = friedman(scores, method="exact")
        mc = friedman(scores, method="monte_carlo", n_resamples=100_000, random_state=1)
        assert abs(mc.pvalue - exact.pvalue) < 4 * mc.pvalue_mc_se + 1e-5
        assert mc.min_pvalue == 1 / 100_001


def test_monte_carlo_draws_every_arrangement_uniformly():
    # Each path (table of k! permutations, mixed-radix Fisher-Yates, numpy's
    # permuted) puts every value of a row in every column equally often.
    for k in (4, 12, 23):
        row = tuple(range(0, 2 * k, 2))
        rng = np.random.default_rng(k)
        spreads = _monte_carlo_spreads((row,) * 2, k, 40_000, rng)
        # Two rows: the spread is k·Σ(a_j + b_j)² - T²; its mean over the
        # arrangements is exact: E Σ (a_j + b_{π(j)})² = 2Σa² + 2(Σa)²/k.
        a = np.asarray(row, dtype=float)
        mean = k * (2 * np.sum(a**2) + 2 * np.sum(a) ** 2 / k) - (2 * a.sum()) ** 2
        assert abs(spreads.mean() - mean) < 5 * spreads.std() / np.sqrt(40_000)


def test_friedman_monte_carlo_is_seeded():
    rng = np.random.default_rng(2)
    scores = rng.normal(size=(30, 10))
    first = friedman(scores, random_state=3)
    assert first.method == "monte_carlo"
    assert friedman(scores, random_state=3).pvalue == first.pvalue
    assert first.pvalue_mc_se == pytest.approx(
        np.sqrt(first.pvalue * (1 - first.pvalue) / 12_000)
    )
    assert 0.001 < first.pvalue_mc_se <= 0.005


def test_friedman_methods_and_their_checks():
    rng = np.random.default_rng(4)
    scores = rng.normal(size=(8, 4))
    chi2 = friedman(scores, method="chi2")
    iman = friedman(scores, method="iman_davenport")
    assert chi2.pvalue == chi2.pvalue_chi2 and chi2.method == "chi2"
    assert iman.pvalue == iman.iman_davenport.pvalue
    assert chi2.pvalue_mc_se is None and chi2.n_resamples is None
    with pytest.raises(ValueError, match="method must be one of"):
        friedman(scores, method="permutation")
    with pytest.raises(ValueError, match="n_resamples"):
        friedman(scores, n_resamples=0)
    with pytest.raises(ValueError, match="n_resamples"):
        friedman(scores, n_resamples=10**8)
    with pytest.raises(ValueError, match="would visit more than"):
        friedman(rng.normal(size=(40, 6)), method="exact")


def test_friedman_smallest_pvalue():
    # Without ties the exact floor is (1/k!)^(N - 1): every data set ranks
    # the estimators as the first one does.
    rng = np.random.default_rng(5)
    for n, k in ((3, 3), (2, 4), (6, 3)):
        result = friedman(rng.normal(size=(n, k)))
        assert result.min_pvalue == pytest.approx(
            (1 / np.prod(range(1, k + 1))) ** (n - 1)
        )
    # Two data sets of three estimators can never reject at 0.05.
    assert friedman([[3, 2, 1], [3, 2, 1]]).min_pvalue == pytest.approx(1 / 6)
    # The chi-squared floor is that of the largest statistic the ties allow.
    tied = np.array([[1.0, 1.0, 0.0], [3.0, 2.0, 1.0], [2.0, 1.0, 0.0]])
    result = friedman(tied, method="chi2")
    best = friedman(
        np.array([[1.0, 1.0, 0.0], [3.0, 2.0, 1.0], [3.0, 2.0, 1.0]]), method="chi2"
    )
    assert result.min_pvalue == pytest.approx(best.pvalue)


def test_exact_law_is_cached_and_bounded():
    _exact_law.cache_clear()
    rng = np.random.default_rng(6)
    for _ in range(5):
        friedman(rng.normal(size=(10, 4)))  # no ties: one law for (10, 4)
    assert _exact_law.cache_info().misses == 1
    patterns = _patterns(doubled_ranks(rank_scores(rng.normal(size=(40, 6)))))
    assert _exact_law(patterns, 6, EXACT_MAX_WORK) is None


@pytest.mark.parametrize("k", range(2, 11))
def test_sorting_network_sorts(k):
    network = _sorting_network(k)
    for values in itertools.product(range(3), repeat=min(k, 7)):
        row = list(values) + [1] * (k - len(values))
        for i, j in network:
            if row[i] > row[j]:
                row[i], row[j] = row[j], row[i]
        assert row == sorted(row)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(3, 4), st.integers(0, 2**32 - 1))
def test_friedman_exact_invariances(n, k, seed):
    rng = np.random.default_rng(seed)
    scores = _tied_table(rng, n, k, values=3)
    result = friedman(scores)
    rows, cols = rng.permutation(n), rng.permutation(k)
    permuted = friedman(100 * scores[rows][:, cols] + 0.1)
    assert permuted.pvalue == result.pvalue
    assert 0 < result.min_pvalue <= result.pvalue <= 1


# --------------------------------------------------------------------------
# Exact rank-sum differences (Eisinga et al. 2017)


@pytest.mark.parametrize("k, n", [(2, 7), (3, 4), (5, 5), (4, 10), (10, 10)])
def test_rank_difference_is_the_closed_form_without_ties(k, n):
    ranks = np.tile(np.arange(1.0, k + 1), (n, 1))
    law = rank_difference_law(ranks, max_work=np.inf)
    for d in range(n * (k - 1) + 1):
        expected = float(_eisinga_closed_form(d, k, n))
        assert float(rank_difference_pvalue(2 * d, law)) == pytest.approx(
            expected, rel=1e-10, abs=1e-15
        )


def test_rank_difference_the_papers_example():
    # Eisinga et al.'s supplementary code: d = k = n = 100 gives 0.8085251.
    ranks = np.tile(np.arange(1.0, 101), (100, 1))
    law = rank_difference_law(ranks, max_work=np.inf)
    assert round(float(rank_difference_pvalue(200, law)), 7) == 0.8085251


@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (4, 3), (3, 4)])
def test_exact_posthoc_is_the_complete_enumeration_with_ties(shape):
    rng = np.random.default_rng(10 + sum(shape))
    for _ in range(4):
        scores = _tied_table(rng, *shape, values=3)
        result = exact_posthoc(scores, correction=None)
        for a, b in itertools.combinations(range(shape[1]), 2):
            expected = float(_enumerated_difference(scores, a, b))
            assert result.pvalue[a, b] == pytest.approx(expected, rel=1e-12)


def test_exact_posthoc_one_sided_tails_are_the_enumeration():
    rng = np.random.default_rng(20)
    scores = _tied_table(rng, 3, 4, values=3)
    doubled = doubled_ranks(rank_scores(scores))
    law = rank_difference_law(rank_scores(scores))
    rows = [_arrangements(tuple(row)) for row in doubled]
    tables = np.array([np.asarray(t) for t in itertools.product(*rows)])
    d_all = tables[:, :, 0].sum(axis=1) - tables[:, :, 1].sum(axis=1)
    for observed in np.unique(d_all):
        assert rank_difference_pvalue(observed, law, "greater") == pytest.approx(
            np.mean(d_all >= observed)
        )
        assert rank_difference_pvalue(observed, law, "less") == pytest.approx(
            np.mean(d_all <= observed)
        )


def test_exact_posthoc_two_estimators_is_the_exact_sign_test():
    rng = np.random.default_rng(7)
    scores = np.round(rng.normal(size=(25, 2)), 0)
    result = exact_posthoc(scores)
    assert result.pvalue[0, 1] == pytest.approx(friedman(scores).pvalue, rel=1e-12)


def test_exact_posthoc_family_fields_and_corrections():
    result = exact_posthoc(DEMSAR_AUC, control=0, correction="bonferroni")
    assert result.n_comparisons == 3 and result.control == 0
    assert result.tested[:, 0].tolist() == [False, True, True, True]
    assert result.rank_sums.tolist() == pytest.approx([44.0, 28.0, 40.5, 27.5])
    # D[a, b] = rank sum of B minus rank sum of A: antisymmetric.
    assert result.statistic[1, 0] == 16.0 and result.statistic[0, 1] == -16.0
    raw = result.pvalue[1:, 0]
    assert result.pvalue_adjusted[1:, 0] == pytest.approx(np.minimum(1, 3 * raw))
    for correction in ("holm", "hochberg", "hommel", "finner", "li", "holland", "rom"):
        exact_posthoc(DEMSAR_AUC, correction=correction)
    for correction in ("shaffer", "bergmann", "fdr_bh"):
        all_pairs = exact_posthoc(DEMSAR_AUC, correction=correction)
        assert all_pairs.n_comparisons == 6
    with pytest.raises(ValueError, match="uses the logic of all pairwise"):
        exact_posthoc(DEMSAR_AUC, control=0, correction="shaffer")
    with pytest.raises(ValueError, match="one-sided|supports|alternative"):
        exact_posthoc(DEMSAR_AUC, alternative="greater")


def test_exact_posthoc_smallest_pvalue_with_ties():
    # A row's largest difference: one estimator at its best rank and the
    # other at its worst; with ties, the number of such ordered pairs.
    scores = np.array(
        [[3.0, 2.0, 1.0, 0.0], [1.0, 1.0, 0.0, 0.0], [2.0, 2.0, 2.0, 2.0]]
    )
    # Row 1: 1·1/12; row 2: 2·2/12; row 3 (all tied): 1.
    expected = 2 * (1 / 12) * (4 / 12)
    assert smallest_difference_pvalue(rank_scores(scores)) == pytest.approx(expected)
    result = exact_posthoc(scores)
    assert result.min_pvalue == pytest.approx(expected)
    assert result.min_pvalue_adjusted == pytest.approx(min(1, 6 * expected))
    # It is reached: the enumeration's smallest p-value.
    doubled = doubled_ranks(rank_scores(scores))
    rows = [_arrangements(tuple(row)) for row in doubled]
    d = [
        np.asarray(t)[:, 0].sum() - np.asarray(t)[:, 1].sum()
        for t in itertools.product(*rows)
    ]
    d = np.abs(d)
    assert np.mean(d >= d.max()) == pytest.approx(expected)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12), st.integers(2, 7), st.integers(0, 2**32 - 1))
def test_exact_posthoc_invariances(n, k, seed):
    rng = np.random.default_rng(seed)
    scores = _tied_table(rng, n, k, values=5)
    result = exact_posthoc(scores)
    rows, cols = rng.permutation(n), rng.permutation(k)
    moved = exact_posthoc(100 * scores[rows][:, cols] + 0.1)
    np.testing.assert_array_equal(moved.pvalue, result.pvalue[np.ix_(cols, cols)])
    np.testing.assert_array_equal(moved.statistic, result.statistic[np.ix_(cols, cols)])
    assert np.all(result.pvalue >= result.min_pvalue - 1e-15)
    assert np.all((result.pvalue >= 0) & (result.pvalue <= 1))


def test_exact_posthoc_normal_law_on_large_tables():
    # Beyond the exact convolution's budget: the normal law of D with its
    # exact variance given the ties and half a step of continuity, which
    # the exact law approaches.
    rng = np.random.default_rng(30)
    scores = np.round(rng.normal(size=(60, 6)) + 0.1 * np.arange(6), 1)
    ranks = rank_scores(scores)
    exact = rank_difference_law(ranks, max_work=np.inf)
    normal = rank_difference_law(ranks, max_work=0)
    assert exact[0] == "exact" and normal[0] == "normal" and exact[1] == normal[1]
    # The variance: the exact law's second moment.
    step, tail = exact[1], exact[2]
    pmf = -np.diff(np.r_[tail, 0.0])
    d = step * np.arange(len(pmf))
    variance = 2 * np.sum(d[1:] ** 2 * pmf[1:])  # symmetric about 0
    assert normal[2] ** 2 == pytest.approx(variance, rel=1e-9)
    for observed in (0, 2 * step, 10 * step, 30 * step):
        assert float(rank_difference_pvalue(observed, normal)) == pytest.approx(
            float(rank_difference_pvalue(observed, exact)), abs=0.01
        )
    big = exact_posthoc(np.round(rng.normal(size=(400, 12)), 1))
    assert big.method == "normal"
    assert exact_posthoc(scores).method == "exact"


def test_friedman_on_huge_tables_decides_by_chi_squared():
    # More ranks than the Monte Carlo draws by default: the chi-squared
    # approximation, said in method; an explicit Monte Carlo that large is
    # refused before any draw.
    rng = np.random.default_rng(31)
    scores = rng.normal(size=(20_000, 3))
    result = friedman(scores)
    assert result.method == "chi2" and result.pvalue == result.pvalue_chi2
    with pytest.raises(ValueError, match="at most 4294967296"):
        friedman(scores, method="monte_carlo", n_resamples=10**6)
