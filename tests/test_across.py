"""Tests of the tests across data sets (sklearn_bcv.stats._across)."""

import itertools
import math
import warnings

import numpy as np
import pytest
from _demsar import DEMSAR_AUC  # noqa: E402  (tests/ is on sys.path)
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats

from sklearn_bcv import available_tests, get_test
from sklearn_bcv.stats import (
    _across,
    adjust_pvalues,
    bayesian_correlated_t,
    bayesian_sign,
    bayesian_signed_rank,
    bonferroni_dunn,
    friedman,
    holm,
    nemenyi,
    poisson_binomial,
    sign,
    wilcoxon,
)
from sklearn_bcv.stats._across import _poisson_binomial_pmf, _signed_rank_theta
from sklearn_bcv.stats._ranks import critical_difference
from sklearn_bcv.stats._registry import get_entry
from sklearn_bcv.stats._ties import tie_tolerance

pytestmark = pytest.mark.filterwarnings("error")

PROBABILITIES = ("p_a_better", "p_rope", "p_b_better")

C45, C45M, C45CF, C45MCF = range(4)
# Demšar's Table 2 (the first two columns): C4.5+m minus C4.5.
DEMSAR_D = DEMSAR_AUC[:, C45M] - DEMSAR_AUC[:, C45]

RANK_TESTS = {"friedman": friedman, "nemenyi": nemenyi}
RANK_TESTS.update(bonferroni_dunn=bonferroni_dunn, holm=holm)
PAIR_TESTS = {
    "wilcoxon": wilcoxon,
    "sign": sign,
    "bayesian_signed_rank": bayesian_signed_rank,
    "bayesian_sign": bayesian_sign,
}


def probabilities(result):
    return np.array([result[key] for key in PROBABILITIES])


def score_tables(max_datasets=12, max_k=6):
    """Accuracy-like score tables (multiples of 0.01, so with ties)."""
    return st.tuples(
        st.integers(2, max_datasets), st.integers(2, max_k), st.integers(0, 2**32 - 1)
    ).map(lambda args: np.random.default_rng(args[2]).integers(60, 100, args[:2]) / 100)


# --------------------------------------------------------------------------
# Registration
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, func, needs, alternatives",
    [(name, func, ("scores",), ("two-sided",)) for name, func in RANK_TESTS.items()]
    + [
        (name, func, ("dataset_differences",), ("two-sided", "greater", "less"))
        for name, func in PAIR_TESTS.items()
    ]
    + [
        (
            "poisson_binomial",
            poisson_binomial,
            ("split_differences", "n_train", "n_test"),
            ("two-sided", "greater", "less"),
        )
    ],
)
def test_registered_as_documented(name, func, needs, alternatives):
    entry = get_entry(name)
    assert get_test(name) is func
    assert (entry.kind, entry.needs, entry.design) == ("datasets", needs, None)
    assert entry.alternatives == alternatives
    assert name in available_tests(kind="datasets")
    assert name not in available_tests()  # not a two-estimator test


# --------------------------------------------------------------------------
# Friedman and Iman–Davenport
# --------------------------------------------------------------------------


def test_friedman_demsar_table_6():
    result = friedman(DEMSAR_AUC)
    assert_allclose(result.mean_ranks, [3.143, 2.000, 2.893, 1.964], atol=5e-4)
    assert result.ranks.shape == (14, 4)
    assert_array_equal(result.ranks[9], [2.5, 2.5, 2.5, 2.5])  # mushroom
    assert result.n_datasets == 14 and result.df == 3
    # Demšar's numbers are without the tie correction: chi2_F = 9.28 and
    # F_F = 3.69 from the mean ranks.
    n, k = DEMSAR_AUC.shape
    r = result.mean_ranks
    uncorrected = 12 * n / (k * (k + 1)) * (np.sum(r**2) - k * (k + 1) ** 2 / 4)
    assert round(uncorrected, 2) == 9.28
    assert round((n - 1) * uncorrected / (n * (k - 1) - uncorrected), 2) == 3.69
    # Ours is tie-corrected, as scipy.
    assert round(result.statistic, 3) == 10.228
    scipy_result = stats.friedmanchisquare(*DEMSAR_AUC.T)
    assert result.statistic == pytest.approx(scipy_result.statistic, rel=1e-12)
    # The chi-squared p-value is scipy's; the one that decides is the exact
    # permutation p-value given the ties (0.0136: see test_exact_ranks.py).
    assert result.pvalue_chi2 == pytest.approx(scipy_result.pvalue, rel=1e-12)
    assert result.method == "exact"
    assert round(result.pvalue, 4) == 0.0136
    assert result.reject
    iman = result.iman_davenport
    chi2 = result.statistic
    assert iman.statistic == pytest.approx((n - 1) * chi2 / (n * (k - 1) - chi2))
    assert round(iman.statistic, 2) == 4.19
    assert iman.df == (3, 39)
    assert iman.pvalue == pytest.approx(stats.f.sf(iman.statistic, 3, 39))
    assert iman.reject


@given(score_tables())
def test_friedman_agrees_with_scipy(scores):
    if scores.shape[1] < 3 or np.all(scores == scores[:, :1]):
        return  # scipy needs k >= 3 and divides 0 by 0 on all ties
    ours = friedman(scores, method="chi2")
    theirs = stats.friedmanchisquare(*scores.T)
    assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-9, abs=1e-12)
    assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-9, abs=1e-12)
    assert ours.pvalue_chi2 == ours.pvalue


def test_friedman_two_estimators_is_the_squared_sign_statistic():
    # Without ties, k = 2: chi2_F = (wins - losses)² / N.
    rng = np.random.default_rng(0)
    scores = rng.random((15, 2))
    wins = int(np.sum(scores[:, 0] > scores[:, 1]))
    result = friedman(scores)
    assert result.statistic == pytest.approx((wins - (15 - wins)) ** 2 / 15)
    assert result.df == 1


@given(score_tables(), st.integers(0, 2**32 - 1))
def test_friedman_invariances(scores, seed):
    rng = np.random.default_rng(seed)
    result = friedman(scores)
    rows = rng.permutation(scores.shape[0])
    cols = rng.permutation(scores.shape[1])
    permuted = friedman(scores[rows][:, cols])
    assert permuted.statistic == pytest.approx(result.statistic, rel=1e-12)
    assert_allclose(permuted.mean_ranks, result.mean_ranks[cols])
    # Ranks only: a monotone transform of each data set's scores changes nothing.
    transformed = friedman(np.exp(3 * scores) * rng.uniform(1, 2, (len(scores), 1)))
    assert transformed.statistic == result.statistic
    assert 0 <= result.pvalue <= 1 and 0 <= result.iman_davenport.pvalue <= 1


def test_friedman_all_tied_is_no_evidence():
    for scores in (np.ones((5, 4)), np.tile([[0.7], [0.9]], (1, 3))):
        result = friedman(scores)
        assert (result.statistic, result.pvalue, result.reject) == (0.0, 1.0, False)
        iman = result.iman_davenport
        assert (iman.statistic, iman.pvalue, iman.reject) == (0.0, 1.0, False)
        assert_array_equal(result.mean_ranks, (scores.shape[1] + 1) / 2)


@pytest.mark.parametrize(
    "row", [[0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.8, 0.6], [0.9, 0.9, 0.5, 0.5]]
)
def test_friedman_concordant_ranks(row):
    # Every data set ranks the estimators the same way (with the same ties):
    # chi2_F = N(k - 1) and Iman–Davenport's denominator is exactly 0.
    scores = np.tile(row, (7, 1))
    result = friedman(scores)
    assert result.statistic == pytest.approx(7 * 3, rel=1e-12)
    assert result.iman_davenport.statistic == np.inf
    # Not the F distribution's 0: the exact probability under H0 that the
    # 6 other data sets arrange their tied groups as the first one does.
    _, sizes = np.unique(row, return_counts=True)
    arrangements = math.factorial(4) / np.prod([math.factorial(t) for t in sizes])
    assert result.iman_davenport.pvalue == pytest.approx(arrangements**-6)


def test_iman_davenport_infinite_pvalue_is_exact_by_enumeration():
    # k = 3 estimators, N = 3 data sets, no ties: of the 6^3 equally likely
    # rankings, those with an infinite F_F are the 6 concordant ones.
    perms = list(itertools.permutations([0.3, 0.2, 0.1]))
    infinite = sum(
        friedman(np.array(rows)).iman_davenport.statistic == np.inf
        for rows in itertools.product(perms, repeat=3)
    )
    assert infinite == 6
    concordant = friedman(np.array([perms[0]] * 3)).iman_davenport
    assert concordant.pvalue == pytest.approx(infinite / 6**3)  # 1/36


# --------------------------------------------------------------------------
# Nemenyi
# --------------------------------------------------------------------------


def test_nemenyi_demsar():
    result = nemenyi(DEMSAR_AUC, continuity=False)
    # Demšar §3.2.2: q_0.05 = 2.569, CD = 2.569·sqrt(4·5/(6·14)) = 1.25; even
    # the best and the worst (1.179 apart) do not differ.
    assert round(result.critical_difference, 3) == 1.254
    assert not result.reject.any()
    # At alpha = 0.10 (CD = 1.12) C4.5+m and C4.5+m+cf beat C4.5.
    result = nemenyi(DEMSAR_AUC, alpha=0.10, continuity=False)
    assert round(result.critical_difference, 2) == 1.12
    rejected = {tuple(pair) for pair in np.argwhere(np.triu(result.reject))}
    assert rejected == {(C45, C45M), (C45, C45MCF)}


def test_nemenyi_continuity_correction_demsar():
    # The CD grows by 1/(2N) = 1/28: 1.254 + 0.036 = 1.289 at alpha 0.05 and
    # 1.118 + 0.036 = 1.154 at 0.10, which C4.5+m (1.143 from C4.5) misses.
    result = nemenyi(DEMSAR_AUC)
    assert result.continuity
    assert result.critical_difference == pytest.approx(
        nemenyi(DEMSAR_AUC, continuity=False).critical_difference + 1 / 28
    )
    result = nemenyi(DEMSAR_AUC, alpha=0.10)
    rejected = {tuple(pair) for pair in np.argwhere(np.triu(result.reject))}
    assert rejected == {(C45, C45MCF)}


def test_nemenyi_continuity_keeps_the_level_where_the_plain_test_exceeds_it():
    # N = 20, k = 4: the plain test rejects when two rank sums differ by 21
    # or more (N·CD = 20.98), which under H0 happens 5.6% of the time; the
    # corrected one needs 22. Exact family-wise error rates from 20,000 null
    # rank tables (Monte Carlo standard error 0.0016).
    rng = np.random.default_rng(0)
    n, k, reps = 20, 4, 20000
    tables = rng.permuted(np.tile(np.arange(k, dtype=float), (reps, n, 1)), axis=2)
    rank_sums = tables.sum(axis=1) + n  # ranks 1..k
    spread = rank_sums.max(axis=1) - rank_sums.min(axis=1)
    cd_plain = critical_difference(k, n, continuity=False) * n
    cd_corrected = critical_difference(k, n) * n
    assert np.floor(cd_plain) + 1 == 21 and np.floor(cd_corrected) + 1 == 22
    assert np.mean(spread > cd_plain) > 0.05 + 0.002
    assert np.mean(spread > cd_corrected) < 0.05 - 0.005


def test_nemenyi_structure():
    result = nemenyi(DEMSAR_AUC, continuity=False)
    k = 4
    assert result.statistic.shape == result.pvalue.shape == (k, k)
    assert_array_equal(np.diag(result.statistic), 0.0)
    assert_array_equal(np.diag(result.pvalue), 1.0)
    assert_array_equal(result.statistic, result.statistic.T)
    assert_array_equal(result.pvalue, result.pvalue.T)
    assert_array_equal(result.pvalue_adjusted, result.pvalue)
    assert_array_equal(result.tested, ~np.eye(k, dtype=bool))
    assert result.df is None and result.test == "nemenyi"
    r = result.mean_ranks
    se = np.sqrt(k * (k + 1) / (6 * 14))
    assert result.statistic[0, 3] == pytest.approx(abs(r[0] - r[3]) * np.sqrt(2) / se)
    assert result.pvalue[0, 3] == pytest.approx(
        stats.studentized_range.sf(result.statistic[0, 3], k, np.inf)
    )


@pytest.mark.parametrize("seed", range(3))
def test_nemenyi_reject_is_the_critical_difference(seed):
    rng = np.random.default_rng(seed)
    scores = rng.random((30, 6)) + np.linspace(0, 0.6, 6)
    result = nemenyi(scores)
    gaps = np.abs(result.mean_ranks[:, None] - result.mean_ranks[None, :])
    away = np.abs(gaps - result.critical_difference) > 1e-6
    assert_array_equal(result.reject[away], (gaps > result.critical_difference)[away])
    assert result.reject.any() and not result.reject.all()


@pytest.mark.parametrize("seed", range(3))
def test_nemenyi_agrees_with_scikit_posthocs(seed):
    sp = pytest.importorskip("scikit_posthocs")
    rng = np.random.default_rng(seed)
    scores = np.round(rng.random((20, 5)) + np.linspace(0, 0.5, 5), 1)  # ties
    # scikit-posthocs ranks low values first; the differences of mean ranks,
    # and so the p-values, are the same.
    theirs = sp.posthoc_nemenyi_friedman(scores).to_numpy()
    assert_allclose(
        nemenyi(scores, continuity=False).pvalue, theirs, rtol=1e-9, atol=1e-12
    )


# --------------------------------------------------------------------------
# Bonferroni–Dunn and Holm
# --------------------------------------------------------------------------


def test_rank_z_tests_demsar_control():
    # Demšar §3.2.2 with C4.5 as the control: se = sqrt(4·5/(6·14)) = 0.488;
    # z = 2.342 (C4.5+m), 0.512 (C4.5+cf), 2.415 (C4.5+m+cf), p = 0.019,
    # 0.608, 0.016. Holm compares 0.016, 0.019, 0.608 with 0.05/3, 0.05/2,
    # 0.05: two rejections. Bonferroni–Dunn: CD = 2.394·0.488 = 1.168, only
    # C4.5+m+cf (1.179) beyond it.
    bd = bonferroni_dunn(DEMSAR_AUC, control=C45)
    ho = holm(DEMSAR_AUC, control=C45)
    for result in (bd, ho):
        assert_allclose(result.statistic[1:, C45], [2.342, 0.512, 2.415], atol=1e-3)
        assert_allclose(result.pvalue[1:, C45], [0.0192, 0.6084, 0.0157], atol=1e-4)
        assert_allclose(result.statistic[C45], -result.statistic[:, C45])
        assert result.control == C45 and result.n_comparisons == 3
    assert round(bd.critical_difference, 3) == 1.168
    assert bd.critical_difference == critical_difference(4, 14, test="bonferroni_dunn")
    assert_array_equal(bd.reject[:, C45], [False, False, False, True])
    assert_array_equal(ho.reject[:, C45], [False, True, False, True])
    assert_array_equal(bd.reject, bd.reject.T)
    assert "critical_difference" not in ho


def test_rank_z_tests_family_with_a_control():
    result = holm(DEMSAR_AUC, control=2)
    expected = np.zeros((4, 4), dtype=bool)
    expected[:, 2] = expected[2, :] = True
    expected[2, 2] = False
    assert_array_equal(result.tested, expected)
    # Outside the family: statistic 0, p-values 1, no rejection.
    assert_array_equal(result.statistic[~expected], 0.0)
    assert_array_equal(result.pvalue[~expected], 1.0)
    assert_array_equal(result.pvalue_adjusted[~expected], 1.0)
    raw = result.pvalue[[0, 1, 3], 2]
    assert_allclose(result.pvalue_adjusted[[0, 1, 3], 2], adjust_pvalues(raw, "holm"))
    assert_allclose(
        bonferroni_dunn(DEMSAR_AUC, control=2).pvalue_adjusted[[0, 1, 3], 2],
        np.minimum(1, 3 * raw),
    )


@pytest.mark.parametrize(
    "func, p_adjust", [(bonferroni_dunn, "bonferroni"), (holm, "holm")]
)
@pytest.mark.parametrize("seed", range(2))
def test_rank_z_tests_all_pairs_agree_with_scikit_posthocs(func, p_adjust, seed):
    # Without a control the family is every pair: scikit-posthocs' Siegel and
    # Castellan test is the same z on the mean ranks, adjusted by
    # statsmodels' multipletests.
    sp = pytest.importorskip("scikit_posthocs")
    pytest.importorskip("statsmodels")
    rng = np.random.default_rng(seed)
    scores = np.round(rng.random((25, 5)) + np.linspace(0, 0.5, 5), 1)
    ours = func(scores)
    theirs = sp.posthoc_siegel_friedman(scores, p_adjust=p_adjust).to_numpy()
    assert_allclose(ours.pvalue_adjusted, theirs, rtol=1e-9, atol=1e-12)
    raw = sp.posthoc_siegel_friedman(scores).to_numpy()
    assert_allclose(ours.pvalue, raw, rtol=1e-9, atol=1e-12)
    assert ours.n_comparisons == 10 and ours.control is None
    assert_array_equal(ours.tested, ~np.eye(5, dtype=bool))


@pytest.mark.parametrize("control", [None, 0, 3])
def test_bonferroni_dunn_reject_is_the_critical_difference(control):
    rng = np.random.default_rng(1)
    scores = rng.random((40, 5)) + np.linspace(0, 0.5, 5)
    result = bonferroni_dunn(scores, control=control)
    gaps = np.abs(result.mean_ranks[:, None] - result.mean_ranks[None, :])
    m = 10 if control is None else 4
    assert result.critical_difference == pytest.approx(
        critical_difference(5, 40, test="bonferroni_dunn", n_comparisons=m)
    )
    expected = (gaps > result.critical_difference) & result.tested
    assert_array_equal(result.reject, expected)


@pytest.mark.parametrize("func", [bonferroni_dunn, holm])
@pytest.mark.parametrize("control", [-1, 4, 1.0, True, "0"])
def test_rank_z_tests_bad_control(func, control):
    with pytest.raises(ValueError, match=r"control must be None or the column index"):
        func(DEMSAR_AUC, control=control)


def test_rank_tests_identical_estimators():
    scores = np.tile([[0.8], [0.6], [0.9]], (1, 4))
    for func in (nemenyi, bonferroni_dunn, holm):
        result = func(scores)
        assert not np.any(np.isnan(result.pvalue))
        assert_array_equal(result.statistic, 0.0)
        assert_array_equal(result.pvalue, 1.0)
        assert not result.reject.any()


@pytest.mark.parametrize("func", list(RANK_TESTS.values()))
@pytest.mark.parametrize(
    "scores, match",
    [
        ([0.1, 0.2, 0.3], r"scores must be a 2-D array"),
        ([[0.1, 0.2]], r"scores must have at least 2 data sets"),
        ([[0.1], [0.2]], r"scores must have at least 2 data sets \(rows\) and 2"),
        ([[0.1, np.nan], [0.2, 0.3]], r"scores must be finite"),
        ([["a", "b"], ["c", "d"]], r"scores must hold numbers"),
        ([[0.1, 0.2], [0.3]], r"scores must be a 2-D array .* ragged"),
    ],
)
def test_rank_tests_bad_scores(func, scores, match):
    with pytest.raises(ValueError, match=match):
        func(scores)


@pytest.mark.parametrize("func", list(RANK_TESTS.values()))
def test_rank_tests_are_two_sided_only(func):
    with pytest.raises(ValueError, match=r"supports alternative in \['two-sided'\]"):
        func(DEMSAR_AUC, alternative="greater")
    with pytest.raises(ValueError, match=r"alpha must be a number in \(0, 1\)"):
        func(DEMSAR_AUC, alpha=1.5)


# --------------------------------------------------------------------------
# Wilcoxon and sign tests
# --------------------------------------------------------------------------


def test_wilcoxon_demsar_table_2():
    # Demšar §3.1.3: R+ = 93, R- = 12 with the zeros split between them.
    result = wilcoxon(DEMSAR_D, zero_method="zsplit")
    assert result.statistic == 12.0
    # Exact given the two zeros and the ties: 32 of the 2**12 sign patterns
    # of the 12 nonzero differences are as extreme (scipy 1.17's default,
    # the normal approximation from 14 data sets with ties, gives 0.011).
    assert result.pvalue == 32 / 2**12
    assert result.reject and result.n_datasets == 14
    assert (
        wilcoxon(DEMSAR_D, zero_method="zsplit", alternative="greater").statistic == 93
    )
    assert not wilcoxon(DEMSAR_D, alternative="less").reject


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
def test_wilcoxon_agrees_with_scipy(alternative, zero_method):
    rng = np.random.default_rng(0)
    # scipy enumerates up to 13 differences with ties (exact), approximates
    # above 50; in between see tests/test_signed_rank.py.
    for n in (6, 13, 80):
        d = np.round(rng.normal(0.01, 0.03, n), 2)  # zeros and ties
        ours = wilcoxon(d, alternative=alternative, zero_method=zero_method)
        theirs = stats.wilcoxon(
            np.round(d * 100), alternative=alternative, zero_method=zero_method
        )
        assert ours.statistic == theirs.statistic
        assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-12)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_wilcoxon_and_sign_all_zero_differences(alternative):
    for zero_method in ("wilcox", "pratt"):
        result = wilcoxon(np.zeros(6), alternative=alternative, zero_method=zero_method)
        assert (result.statistic, result.pvalue, result.reject) == (0.0, 1.0, False)
    assert wilcoxon(np.zeros(6), zero_method="zsplit").pvalue == 1.0
    result = sign(np.zeros(6), alternative=alternative)
    assert (result.wins, result.losses, result.ties, result.n_trials) == (0, 0, 6, 6)
    assert result.statistic == 3 and not result.reject


def test_sign_demsar_table_2():
    # C4.5+m: 10 wins, 2 losses, 2 ties -> 11 of 14 (Demšar §3.1.3).
    result = sign(DEMSAR_D)
    assert (result.wins, result.losses, result.ties) == (10, 2, 2)
    assert (result.statistic, result.n_trials) == (11, 14)
    assert result.pvalue == pytest.approx(stats.binomtest(11, 14).pvalue)
    assert round(result.pvalue, 4) == 0.0574
    greater = sign(DEMSAR_D, alternative="greater")
    assert greater.pvalue == pytest.approx(470 / 2**14)  # P(X >= 11), exact
    assert greater.reject
    assert sign(-DEMSAR_D, alternative="less").pvalue == greater.pvalue


def test_sign_odd_tie_is_dropped():
    result = sign([0.1, 0.2, -0.1, 0.0, 0.0, 0.0, 0.3])
    assert (result.wins, result.losses, result.ties) == (3, 1, 3)
    assert (result.statistic, result.n_trials) == (4, 6)
    assert result.pvalue == pytest.approx(stats.binomtest(4, 6).pvalue)


@pytest.mark.parametrize("func", [wilcoxon, sign, bayesian_signed_rank, bayesian_sign])
@pytest.mark.parametrize(
    "d, match",
    [
        ([[[0.1, 0.2]]], r"dataset_differences must be a 1-D array"),
        ([0.1], r"needs at least 2 data sets; got dataset_differences with 1"),
        ([0.1, np.nan, 0.2], r"dataset_differences must be finite"),
        (["a", "b"], r"dataset_differences must be numeric"),
    ],
)
def test_pair_tests_bad_differences(func, d, match):
    with pytest.raises(ValueError, match=match):
        func(d)


@pytest.mark.parametrize("func", [sign, bayesian_signed_rank, bayesian_sign])
def test_unbatched_pair_tests_take_one_comparison(func):
    with pytest.raises(ValueError, match=r"dataset_differences must be a 1-D array"):
        func([[0.1, 0.2], [0.3, 0.4]])


def test_wilcoxon_takes_a_batch_of_comparisons():
    rng = np.random.default_rng(0)
    d = np.round(rng.normal(0.01, 0.02, size=(6, 14)), 2)
    batch = wilcoxon(d, zero_method="pratt", alternative="greater")
    assert batch.statistic.shape == batch.pvalue.shape == batch.reject.shape == (6,)
    for row, found in zip(d, zip(batch.statistic, batch.pvalue, batch.min_pvalue)):
        alone = wilcoxon(row, zero_method="pratt", alternative="greater")
        assert found == (alone.statistic, alone.pvalue, alone.min_pvalue)


def test_wilcoxon_bad_zero_method():
    with pytest.raises(ValueError, match=r"zero_method must be one of"):
        wilcoxon(DEMSAR_D, zero_method="split")


# --------------------------------------------------------------------------
# Poisson-binomial
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "p, pmf",
    [
        ([0.2, 0.5], [0.4, 0.5, 0.1]),
        ([0.1, 0.2, 0.2], [0.576, 0.352, 0.068, 0.004]),
        ([], [1.0]),
        ([1.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.0]),
    ],
)
def test_poisson_binomial_pmf_by_hand(p, pmf):
    assert_allclose(_poisson_binomial_pmf(p), pmf, atol=1e-15)


@given(st.lists(st.floats(0, 1), min_size=1, max_size=9))
def test_poisson_binomial_pmf_against_enumeration(p):
    p = np.array(p)
    outcomes = np.array(list(itertools.product([0, 1], repeat=p.size)))
    weights = np.prod(np.where(outcomes == 1, p, 1 - p), axis=1)
    expected = np.bincount(outcomes.sum(axis=1), weights=weights, minlength=p.size + 1)
    assert_allclose(_poisson_binomial_pmf(p), expected, atol=1e-14)


def split_tables():
    """(n_datasets, n_splits) accuracy-like differences, constant rows included."""
    return st.tuples(
        st.integers(1, 6), st.integers(2, 10), st.integers(0, 2**32 - 1)
    ).map(_split_table)


def _split_table(args):
    n_datasets, n_splits, seed = args
    rng = np.random.default_rng(seed)
    d = rng.integers(-3, 4, (n_datasets, n_splits)) / 100
    d[rng.random(n_datasets) < 0.2] = 0.0  # identical estimators on some
    return d


@given(split_tables())
def test_poisson_binomial_probabilities(d):
    result = poisson_binomial(d, n_train=90, n_test=10)
    q = d.shape[0]
    # p_i from the Bayesian correlated t test on each data set; exact ties 1/2.
    for i in range(q):
        if np.all(d[i] == 0):
            assert result.p_datasets[i] == 0.5
        else:
            assert result.p_datasets[i] == pytest.approx(
                bayesian_correlated_t(d[i], 90, 10).p_a_better, rel=1e-12, abs=1e-300
            )
    assert_allclose(result.pmf, _poisson_binomial_pmf(result.p_datasets))
    x = np.arange(q + 1)
    assert result.p_a_better == pytest.approx(result.pmf[2 * x > q].sum())
    assert result.p_b_better == pytest.approx(result.pmf[2 * x < q].sum())
    assert result.p_rope == pytest.approx(result.pmf[2 * x == q].sum(), abs=1e-300)
    assert sum(probabilities(result)) == pytest.approx(1.0)
    assert result.statistic == pytest.approx(result.p_datasets.sum())
    # Swapping A and B mirrors everything.
    swapped = poisson_binomial(-d, n_train=90, n_test=10)
    assert_allclose(swapped.p_datasets, 1 - result.p_datasets, atol=1e-12)
    assert swapped.p_a_better == pytest.approx(result.p_b_better, abs=1e-12)


def test_poisson_binomial_one_data_set_is_the_correlated_t():
    d = [[0.02, 0.01, 0.03, 0.02, 0.02, 0.04, 0.0, 0.01, 0.03, 0.02]]
    ours = poisson_binomial(d, n_train=90, n_test=10)
    theirs = bayesian_correlated_t(d[0], n_train=90, n_test=10)
    assert ours.p_a_better == theirs.p_a_better
    assert ours.p_b_better == pytest.approx(theirs.p_b_better, abs=1e-15)
    assert ours.reject == theirs.reject
    assert ours.pvalue is None and ours.n_datasets == 1


def test_poisson_binomial_sizes_per_data_set():
    rng = np.random.default_rng(3)
    d = np.round(rng.normal(0.01, 0.02, (4, 10)), 2)
    n_train = np.array([90, 180, 45, 900])
    n_test = n_train / 9
    result = poisson_binomial(d, n_train=n_train, n_test=n_test)
    expected = [
        bayesian_correlated_t(row, n_train=a, n_test=b).p_a_better
        for row, a, b in zip(d, n_train, n_test)
    ]
    assert_allclose(result.p_datasets, expected, rtol=1e-12)
    # Only the ratio n_test / n_train enters the posterior.
    assert_allclose(poisson_binomial(d, 90, 10).p_datasets, expected, rtol=1e-12)


def test_poisson_binomial_identical_estimators():
    result = poisson_binomial(np.zeros((4, 10)), n_train=90, n_test=10)
    assert_array_equal(result.p_datasets, 0.5)
    assert_allclose(result.pmf, stats.binom.pmf(np.arange(5), 4, 0.5))
    assert result.p_a_better == result.p_b_better == pytest.approx(5 / 16)
    assert result.p_rope == pytest.approx(6 / 16)
    assert not result.reject


@pytest.mark.parametrize(
    "alternative, expected",
    [("two-sided", True), ("greater", True), ("less", False)],
)
def test_poisson_binomial_decisions(alternative, expected):
    d = np.tile([0.03, 0.01, 0.02, 0.04, 0.02], (6, 2))  # A better everywhere
    result = poisson_binomial(d, 90, 10, alternative=alternative)
    assert result.p_a_better > 0.95
    assert result.reject == expected
    assert poisson_binomial(-d, 90, 10, alternative=alternative).reject == (
        alternative != "greater"
    )


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"split_differences": [0.1, 0.2]}, r"split_differences must be a 2-D"),
        ({"split_differences": [[0.1], [0.2]]}, r"at least 2 splits"),
        ({"split_differences": [[0.1, np.nan]]}, r"split_differences must be finite"),
        ({"n_train": [90, 90, 90]}, r"n_train must be a positive number or an array"),
        ({"n_test": -1}, r"n_test must be a positive number"),
        ({"n_test": [10, 0]}, r"n_test must be a positive number or an array"),
        ({"n_train": "90"}, r"n_train must be a positive number"),
    ],
)
def test_poisson_binomial_bad_input(kwargs, match):
    arguments = {"split_differences": [[0.1, 0.2], [0.0, 0.1]], "n_train": 90}
    arguments["n_test"] = 10
    arguments.update(kwargs)
    with pytest.raises(ValueError, match=match):
        poisson_binomial(**arguments)


# --------------------------------------------------------------------------
# Bayesian signed-rank and sign tests
# --------------------------------------------------------------------------


def _brute_force_theta(z, weights, rope, tolerance):
    """(θ_A, θ_rope, θ_B) by the double sum, in float64; a Walsh sum within
    ``tolerance`` of ``±2 rope`` is in the rope (the tie rule)."""
    sums = z[:, None] + z[None, :]
    above = (sums > 2 * rope + tolerance).astype(float)
    below = (sums < -2 * rope - tolerance).astype(float)
    a = np.einsum("is,ij,js->s", weights, above, weights)
    b = np.einsum("is,ij,js->s", weights, below, weights)
    return np.stack([a, 1 - a - b, b])


@pytest.mark.parametrize("rope", [0.0, 0.01, 0.025])
@pytest.mark.parametrize("seed", range(4))
def test_signed_rank_staircase_is_the_double_sum(rope, seed):
    rng = np.random.default_rng(seed)
    q = int(rng.integers(2, 30))
    z = np.r_[0.0, np.round(rng.normal(0.005 * seed, 0.02, q), 2)]  # ties, ±pairs
    rows = rng.standard_exponential((q + 1, 500)).astype(np.float32)
    tolerance = tie_tolerance(z, rope)
    theta = _signed_rank_theta(z, list(rows), rope, tolerance)
    weights = rows.astype(float) / rows.astype(float).sum(axis=0)
    assert theta.dtype == np.float32
    expected = _brute_force_theta(z, weights, rope, tolerance)
    assert_allclose(theta, expected, atol=2e-6)


@pytest.mark.parametrize("rope", [0.0, 0.01])
@pytest.mark.parametrize("seed", [0, 1])
def test_bayesian_signed_rank_agrees_with_baycomp(rope, seed):
    baycomp = pytest.importorskip("baycomp")
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.7, 0.9, 15)
    y = x - rng.normal(0.004 + rope, 0.012 + rope, 15)  # no zeros, no ties
    # baycomp's first ("left") model is A.
    theirs = baycomp.SignedRankTest(x, y, rope, nsamples=20000, random_state=seed)
    ours = bayesian_signed_rank(x - y, rope=rope, random_state=seed)
    # Monte Carlo standard error <= 0.004 (20,000 and 50,000 samples).
    assert_allclose(probabilities(ours), theirs.probs(), atol=0.02)
    assert np.any((probabilities(ours) > 0.05) & (probabilities(ours) < 0.95))


@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_bayesian_sign_agrees_with_baycomp(rope):
    baycomp = pytest.importorskip("baycomp")
    rng = np.random.default_rng(5)
    x = rng.uniform(0.7, 0.9, 12)
    y = x - np.round(rng.normal(0.003, 0.012, 12), 3)
    theirs = baycomp.SignTest(x, y, rope, nsamples=50000, random_state=1).probs()
    ours = bayesian_sign(x - y, rope=rope, random_state=1)
    assert_allclose(probabilities(ours), theirs, atol=0.015)


def test_bayesian_sign_posterior_is_the_dirichlet():
    # Dirichlet(n_A, n_rope + s, n_B) = (6, 3 + 1, 2): means 6/12, 4/12, 2/12.
    d = np.array([0.03, 0.02, 0.05, 0.02, 0.04, 0.03, 0.0, 0.005, -0.005, -0.02, -0.03])
    result = bayesian_sign(d, rope=0.01, random_state=0)
    assert_allclose(result.samples.mean(axis=0), [6 / 12, 4 / 12, 2 / 12], atol=3e-3)
    variance = 6 / 12 * (1 - 6 / 12) / 13
    assert result.samples[:, 0].var() == pytest.approx(variance, rel=0.05)


@pytest.mark.parametrize("func", [bayesian_signed_rank, bayesian_sign])
@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_bayesian_identical_estimators_are_equivalent(func, rope):
    # baycomp with rope=0 says "first better" with probability 1 here.
    for alternative in ("two-sided", "greater", "less"):
        result = func(np.zeros(8), rope=rope, alternative=alternative, random_state=0)
        assert probabilities(result).tolist() == [0.0, 1.0, 0.0]
        assert not result.reject
        assert np.all(np.isfinite(result.samples))
        assert_allclose(result.samples, np.tile([0.0, 1.0, 0.0], (50000, 1)))
        assert result.statistic == 0.0


@pytest.mark.parametrize("func", [bayesian_signed_rank, bayesian_sign])
def test_bayesian_result_fields(func):
    d = DEMSAR_D
    result = func(d, rope=0.01, n_samples=1000, random_state=3)
    assert result.test == func.__name__
    assert result.pvalue is None and result.df is None
    assert (result.rope, result.n_datasets) == (0.01, 14)
    samples = result.samples
    assert samples.shape == (1000, 3) and samples.dtype == np.float32
    assert samples.flags.c_contiguous and np.all(samples >= 0)
    assert_allclose(samples.sum(axis=1), 1.0, atol=1e-5)
    # Columns (θ_A, θ_rope, θ_B): the shares of samples each one wins.
    winners = np.bincount(samples.argmax(axis=1), minlength=3) / 1000
    assert_allclose(probabilities(result), winners)
    assert result.statistic == pytest.approx(
        samples[:, 0].mean() - samples[:, 2].mean(), abs=1e-6
    )
    # A clearly better: the first column wins.
    strong = func(np.full(10, 0.05) + np.arange(10) / 1000, random_state=0)
    assert strong.p_a_better > 0.99 and strong.samples[:, 0].mean() > 0.8


@pytest.mark.parametrize("func", [bayesian_signed_rank, bayesian_sign])
def test_bayesian_reproducible_and_independent_of_call_order(func):
    d = DEMSAR_D
    first = func(d, rope=0.005, random_state=7)
    _across._EXPONENTIALS.clear()
    _across._GAMMAS.clear()
    func(d[::-1], random_state=8)  # something else in the cache
    again = func(d, rope=0.005, random_state=7)
    assert_array_equal(again.samples, first.samples)
    assert probabilities(again).tolist() == probabilities(first).tolist()
    other = func(d, rope=0.005, random_state=9)
    assert not np.array_equal(other.samples, first.samples)
    instance = func(d, rope=0.005, random_state=np.random.RandomState(7))
    assert_array_equal(instance.samples, first.samples)  # int 7 seeds the same
    func(d, random_state=None)  # the global RandomState


def test_bayesian_signed_rank_mirrors_when_swapped():
    rng = np.random.default_rng(11)
    d = rng.normal(0.004, 0.02, 30)
    for rope in (0.0, 0.005):
        ab = bayesian_signed_rank(d, rope=rope, random_state=0)
        ba = bayesian_signed_rank(-d, rope=rope, random_state=0)
        assert_allclose(probabilities(ba), probabilities(ab)[::-1], atol=1e-3)
        assert_allclose(ba.samples, ab.samples[:, ::-1], atol=1e-5)


@pytest.mark.parametrize(
    "alternative, decisions",
    [("two-sided", (True, True)), ("greater", (True, False)), ("less", (False, True))],
)
def test_bayesian_decisions(alternative, decisions):
    d = np.linspace(0.01, 0.05, 12)
    for func in (bayesian_signed_rank, bayesian_sign):
        a = func(d, alternative=alternative, random_state=0)
        b = func(-d, alternative=alternative, random_state=0)
        assert a.p_a_better > 0.95 and b.p_b_better > 0.95
        assert (a.reject, b.reject) == decisions


@pytest.mark.parametrize("func", [bayesian_signed_rank, bayesian_sign])
@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"rope": -0.01}, r"rope must be a finite number >= 0"),
        ({"prior_weight": 0}, r"prior_weight must be a finite number > 0"),
        ({"n_samples": 0}, r"n_samples must be an integer >= 1"),
        ({"n_samples": 10.0}, r"n_samples must be an integer >= 1"),
        ({"alternative": "bigger"}, r"alternative must be one of"),
        ({"random_state": "seed"}, r"cannot be used to seed"),
    ],
)
def test_bayesian_bad_parameters(func, kwargs, match):
    with pytest.raises(ValueError, match=match):
        func(DEMSAR_D, **kwargs)


def test_no_warnings_on_degenerate_input():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        friedman(np.ones((3, 3)))
        nemenyi(np.ones((3, 3)))
        wilcoxon(np.zeros(3))
        sign(np.zeros(2))
        poisson_binomial(np.zeros((2, 2)), 1, 1)
        bayesian_signed_rank(np.zeros(2), n_samples=10, random_state=0)
        bayesian_sign(np.zeros(2), n_samples=10, random_state=0)


def test_bayesian_signed_rank_in_blocks_of_samples(monkeypatch):
    # Many data sets: the staircase runs over blocks of samples, same numbers.
    d = np.random.default_rng(0).normal(0.003, 0.02, 40)
    whole = bayesian_signed_rank(d, rope=0.01, n_samples=3000, random_state=1)
    monkeypatch.setattr(_across, "_MAX_VALUES", 41 * 700)
    blocks = bayesian_signed_rank(d, rope=0.01, n_samples=3000, random_state=1)
    assert_array_equal(blocks.samples, whole.samples)


@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
@pytest.mark.parametrize("n", [3, 5, 8])
def test_smallest_pvalue_is_reached_when_every_difference_favours_a(n, alternative):
    # All n differences positive and distinct: the exact tests give their
    # smallest p-value, 2^-n one-sided and twice that two-sided.
    d = np.arange(1, n + 1) / 100
    expected = (2 if alternative == "two-sided" else 1) * 0.5**n
    for test in (wilcoxon, sign):
        result = test(d, alternative=alternative)
        assert result.min_pvalue == pytest.approx(expected)
        assert result.pvalue == pytest.approx(result.min_pvalue)
    # Zeros are dropped by the default zero_method: fewer ranked differences.
    with_zeros = wilcoxon(np.r_[d, 0.0, 0.0], alternative=alternative)
    assert with_zeros.min_pvalue == pytest.approx(expected)
