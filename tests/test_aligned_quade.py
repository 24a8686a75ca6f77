"""Tests of the post hoc family across data sets (stats._aligned_quade and
stats._friedman's friedman_posthoc; FORMULAS.md Part 3)."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from _demsar import DEMSAR_AUC  # noqa: E402  (tests/ is on sys.path)
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats

from sklearn_bcv import compare_scores
from sklearn_bcv.stats import (
    adjust_pvalues,
    aligned_posthoc,
    bonferroni_dunn,
    friedman_aligned,
    friedman_posthoc,
    holm,
    quade,
    quade_posthoc,
)
from sklearn_bcv.stats._corrections import CORRECTIONS
from sklearn_bcv.stats._registry import declared_tests, default_tests, get_entry

pytestmark = pytest.mark.filterwarnings("error")

# Conover (1999), §5.8 (R's quade.test example): seven stores, five brands.
SALES = np.array(
    [
        [5, 4, 7, 10, 12],
        [1, 3, 1, 0, 2],
        [16, 12, 22, 22, 35],
        [5, 4, 3, 5, 4],
        [10, 9, 7, 13, 10],
        [19, 18, 28, 37, 58],
        [10, 7, 6, 8, 7],
    ],
    dtype=float,
)
POSTHOC = (friedman_posthoc, aligned_posthoc, quade_posthoc)
OMNIBUS = (friedman_aligned, quade)
ALL_PAIRS_CORRECTIONS = CORRECTIONS  # every correction takes all pairs

tables = (
    st.integers(2, 6)
    .flatmap(
        lambda k: st.integers(3, 12).flatmap(
            lambda n: st.lists(
                st.lists(
                    st.sampled_from([0.5, 0.6, 0.7, 0.8, 0.9]), min_size=k, max_size=k
                ),
                min_size=n,
                max_size=n,
            )
        )
    )
    .map(np.array)
)


def _random_table(seed, n=12, k=5):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, 1)) * 3 + rng.normal(size=(n, k))


# --------------------------------------------------------------------------
# Quade
# --------------------------------------------------------------------------


def test_quade_is_conovers_example():
    # R: quade.test(dataFreq): Quade F = 3.8293, num df = 4, denom df = 24,
    # p-value = 0.01519.
    result = quade(SALES)
    assert result.statistic == pytest.approx(3.8293, abs=5e-5)
    assert result.df == (4, 24)
    assert result.pvalue == pytest.approx(0.01519, abs=5e-6)
    assert result.reject


def test_quade_by_hand_on_two_data_sets():
    # Ranges 2 and 6 -> Q = (1, 2); within ranks (1 = worst) (1, 2, 3) and
    # (3, 1, 2): S = 1·(-1, 0, 1) + 2·(1, -1, 0) = (1, -2, 1).
    scores = np.array([[1.0, 2.0, 3.0], [7.0, 1.0, 4.0]])
    result = quade(scores)
    a = 1 + 1 + 4 + 4  # sum of S_ij²
    b = (1 + 4 + 1) / 2
    assert_allclose(result.weighted_ranks, [1, -2, 1])
    assert result.statistic == pytest.approx((2 - 1) * b / (a - b))
    assert result.pvalue == pytest.approx(stats.f.sf((2 - 1) * b / (a - b), 2, 2))


@pytest.mark.parametrize("seed", range(5))
def test_quade_posthoc_agrees_with_scikit_posthocs(seed):
    sp = pytest.importorskip("scikit_posthocs")
    pytest.importorskip("statsmodels")
    scores = _random_table(seed)
    raw = sp.posthoc_quade(scores, dist="t").to_numpy()
    assert_allclose(quade_posthoc(scores).pvalue, raw, rtol=1e-10)
    adjusted = sp.posthoc_quade(scores, dist="t", p_adjust="holm").to_numpy()
    ours = quade_posthoc(scores, correction="holm").pvalue_adjusted
    assert_allclose(ours, adjusted, rtol=1e-10)


def test_quade_posthoc_is_conovers_t():
    result = quade_posthoc(SALES)
    totals, n, k = result.weighted_ranks, 7, 5
    s = quade(SALES)
    a_minus_b = (n - 1) * np.sum(totals**2) / n / s.statistic
    se = np.sqrt(2 * n * a_minus_b / ((n - 1) * (k - 1)))
    t = (totals[:, None] - totals[None, :]) / se
    assert_allclose(result.statistic, t, atol=1e-12)
    p = 2 * stats.t.sf(np.abs(t), (n - 1) * (k - 1))
    assert_allclose(result.pvalue, np.where(np.eye(k, dtype=bool), 1.0, p))
    assert result.df == 24


# --------------------------------------------------------------------------
# Friedman aligned ranks
# --------------------------------------------------------------------------


def _aligned_by_hand(scores):
    """Aligned ranks in exact rational arithmetic on the decimals (an
    independent form of the tie rule: aligned values equal in the decimals
    tie, whatever their floating-point rounding)."""
    n, k = scores.shape
    exact = [[Fraction(repr(float(x))) for x in row] for row in scores]
    aligned = [[x - sum(row) / k for x in row] for row in exact]
    order = sorted({value for row in aligned for value in row}, reverse=True)
    position = {value: i for i, value in enumerate(order)}
    counts = np.bincount([position[v] for row in aligned for v in row])
    first = np.concatenate([[0], np.cumsum(counts)[:-1]])
    average = first + (counts + 1) / 2.0
    return np.array([[average[position[v]] for v in row] for row in aligned])


@pytest.mark.parametrize("seed", range(5))
def test_friedman_aligned_is_the_published_formula_without_ties(seed):
    scores = _random_table(seed)
    n, k = scores.shape
    ranks = _aligned_by_hand(scores)
    r_j, r_i = ranks.sum(axis=0), ranks.sum(axis=1)
    kn = k * n
    t = (k - 1) * (np.sum(r_j**2) - (k * n**2 / 4) * (kn + 1) ** 2)
    t /= kn * (kn + 1) * (2 * kn + 1) / 6 - np.sum(r_i**2) / k
    result = friedman_aligned(scores)
    assert result.statistic == pytest.approx(t, rel=1e-12)
    assert result.pvalue == pytest.approx(stats.chi2.sf(t, k - 1), rel=1e-10)
    assert_allclose(result.mean_ranks, ranks.mean(axis=0))


@given(scores=tables)
@settings(max_examples=60, deadline=None)
def test_friedman_aligned_is_the_permutation_statistic(scores):
    # Independent form: (k - 1)·Σ_j (R_j − N(Nk + 1)/2)² over the within-
    # data-set sum of squares of the aligned ranks (ties included).
    n, k = scores.shape
    ranks = _aligned_by_hand(scores)
    numerator = (k - 1) * np.sum((ranks.sum(axis=0) - n * (n * k + 1) / 2) ** 2)
    denominator = np.sum((ranks - ranks.mean(axis=1, keepdims=True)) ** 2)
    result = friedman_aligned(scores)
    if denominator == 0:
        assert result.statistic == 0 and result.pvalue == 1
    else:
        assert result.statistic == pytest.approx(numerator / denominator, rel=1e-9)
    assert 0 <= result.pvalue <= 1


@pytest.mark.parametrize("standard_error", ["permutation", "published"])
def test_aligned_posthoc_by_hand(standard_error):
    scores = DEMSAR_AUC
    n, k = scores.shape
    ranks = _aligned_by_hand(scores)
    mean = ranks.mean(axis=0)
    if standard_error == "published":  # scmamp's friedmanAlignedRanksPost
        se = np.sqrt(k * (n * k + 1) / 6)
    else:  # the permutation variance: within-data-set sum of squares
        within = np.sum((ranks - ranks.mean(axis=1, keepdims=True)) ** 2)
        se = np.sqrt(2 * within / (n**2 * (k - 1)))
    z = (mean[None, :] - mean[:, None]) / se
    result = aligned_posthoc(scores, standard_error=standard_error)
    assert result.std_error == pytest.approx(se, rel=1e-12)
    assert_allclose(result.statistic, z, atol=1e-12)
    p = 2 * stats.norm.sf(np.abs(z))
    assert_allclose(result.pvalue, p, rtol=1e-12)
    pairs = np.triu_indices(k, 1)
    assert_allclose(
        result.pvalue_adjusted[pairs], adjust_pvalues(p[pairs], "holm"), rtol=1e-12
    )


@given(scores=tables, scale=st.sampled_from([0.25, 2.0, 8.0]))
@settings(max_examples=40, deadline=None)
def test_omnibus_invariances(scores, scale):
    # A scale by a power of two (exact) changes no rank; permuting the data
    # sets changes nothing. (A shift is not exact in floating point: it may
    # break ties of the aligned values.)
    order = np.arange(len(scores))[::-1]
    for test in OMNIBUS:
        base = test(scores)
        for other in (test(scores * scale), test(scores[order])):
            assert other.statistic == pytest.approx(base.statistic, rel=1e-9)
            assert other.pvalue == pytest.approx(base.pvalue, rel=1e-9, abs=1e-15)


# --------------------------------------------------------------------------
# The families
# --------------------------------------------------------------------------


@pytest.mark.parametrize("control", [None, 0, 2])
def test_holm_and_bonferroni_dunn_are_friedman_posthoc(control):
    for name, func in (("holm", holm), ("bonferroni", bonferroni_dunn)):
        ours = friedman_posthoc(DEMSAR_AUC, control=control, correction=name)
        theirs = func(DEMSAR_AUC, control=control)
        for field in ("statistic", "pvalue", "pvalue_adjusted", "reject", "tested"):
            assert_array_equal(ours[field], theirs[field])
        assert theirs.correction == name


@pytest.mark.parametrize("func", POSTHOC)
@pytest.mark.parametrize("correction", ALL_PAIRS_CORRECTIONS)
def test_every_family_and_correction(func, correction):
    scores = _random_table(3, n=15, k=5)
    result = func(scores, correction=correction)
    k = scores.shape[1]
    pairs = np.triu_indices(k, 1)
    expected = adjust_pvalues(result.pvalue[pairs], correction)
    assert_allclose(result.pvalue_adjusted[pairs], expected, rtol=1e-12)
    assert_array_equal(result.pvalue_adjusted, result.pvalue_adjusted.T)
    assert_allclose(result.statistic, -result.statistic.T)
    assert_array_equal(result.reject, (result.pvalue_adjusted < 0.05) & result.tested)
    assert result.correction == correction
    assert result.n_comparisons == 10
    assert not result.tested.diagonal().any()


@pytest.mark.parametrize("func", POSTHOC)
def test_control_family(func):
    scores = _random_table(4, n=15, k=5)
    result = func(scores, control=1, correction="finner")
    assert result.n_comparisons == 4
    assert result.tested[:, 1].sum() == 4 and result.tested.sum() == 8
    others = [0, 2, 3, 4]
    raw = result.pvalue[others, 1]
    assert_allclose(result.pvalue_adjusted[others, 1], adjust_pvalues(raw, "finner"))
    # The statistic of each estimator against the control is that of the
    # all-pairs family: only the adjustment differs.
    full = func(scores, correction="holm")
    assert_allclose(result.statistic[others, 1], full.statistic[others, 1])


@pytest.mark.parametrize("func", POSTHOC)
def test_more_powerful_corrections_reject_more(func):
    scores = _random_table(5, n=30, k=6)
    scores[:, 0] += 1.0  # one estimator better
    rejected = {
        c: func(scores, correction=c).reject.sum()
        for c in ("bonferroni", "holm", "shaffer", "bergmann")
    }
    assert (
        rejected["bergmann"]
        >= rejected["shaffer"]
        >= rejected["holm"]
        >= rejected["bonferroni"]
    )


@pytest.mark.parametrize("seed", range(3))
def test_aligned_permutation_variance_is_exact(seed):
    # Enumerate every within-data-set permutation of a small table's aligned
    # ranks (3 data sets, 3 estimators: 6^3 = 216 equally likely tables) and
    # compare the variance of R_0 - R_1 with the standard error.
    scores = np.random.default_rng(seed).normal(size=(3, 3))
    ranks = _aligned_by_hand(scores)
    perms = list(itertools.permutations(range(3)))
    differences = [
        np.mean([ranks[i, p[i][0]] - ranks[i, p[i][1]] for i in range(3)])
        for p in itertools.product(perms, repeat=3)
    ]
    se = aligned_posthoc(scores).std_error
    assert np.var(differences) == pytest.approx(se**2, rel=1e-12)


def test_degenerate_tables():
    tied = np.full((5, 3), 0.7)
    for test in OMNIBUS:
        result = test(tied)
        assert result.statistic == 0 and result.pvalue == 1 and not result.reject
    for func in POSTHOC:
        result = func(tied)
        assert_array_equal(result.pvalue, np.ones((3, 3)))
        assert not result.reject.any()
    # Every data set ranks the estimators alike, and the ranges tie: A = B.
    alike = np.array([[3.0, 2.0, 1.0], [6.0, 5.0, 4.0], [9.0, 8.0, 7.0]])
    result = quade(alike)
    assert result.statistic == np.inf and result.pvalue == 0
    post = quade_posthoc(alike)
    assert post.statistic[0, 1] == np.inf and post.pvalue[0, 1] == 0
    assert not np.isnan(post.statistic).any()


def test_extreme_values_do_not_overflow():
    scores = np.array([[1e308, -1e308, 0.0], [1e-300, 0.0, -1e-300], [5.0, 4.0, 6.0]])
    for test in (*OMNIBUS, *POSTHOC):
        result = test(scores)
        assert np.all(np.isfinite(np.asarray(result.pvalue)))


# --------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------


@pytest.mark.parametrize("func", POSTHOC)
def test_bad_parameters(func):
    with pytest.raises(ValueError, match="control must be None or the column"):
        func(DEMSAR_AUC, control=4)
    with pytest.raises(ValueError, match="correction must be None or one of"):
        func(DEMSAR_AUC, correction="sidak")
    with pytest.raises(ValueError, match="against a control"):
        func(DEMSAR_AUC, control=0, correction="shaffer")
    with pytest.raises(ValueError, match="alternative"):
        func(DEMSAR_AUC, alternative="greater")
    with pytest.raises(ValueError, match="k <= 9; got k = 10.*shaffer"):
        func(np.random.default_rng(0).normal(size=(12, 10)), correction="bergmann")


def test_aligned_standard_error_is_checked():
    with pytest.raises(ValueError, match="standard_error must be one of"):
        aligned_posthoc(DEMSAR_AUC, standard_error="garcia")


@pytest.mark.parametrize("test", OMNIBUS)
def test_bad_tables(test):
    with pytest.raises(ValueError, match="at least 2 data sets"):
        test([[0.5, 0.6]])
    with pytest.raises(ValueError, match="finite"):
        test([[0.5, np.nan], [0.1, 0.2]])
    with pytest.raises(ValueError, match="alternative"):
        test(DEMSAR_AUC, alternative="less")


# --------------------------------------------------------------------------
# Registry declarations and the engine
# --------------------------------------------------------------------------


def test_registry_declares_the_family():
    assert declared_tests(role="omnibus") == [
        "durbin",  # tables with holes (missing="skillings_mack")
        "friedman",
        "friedman_aligned",
        "quade",
        "rm_anova",  # the parametric path of tests="auto"
        "skillings_mack",
    ]
    assert declared_tests(role="posthoc", diagram="bar") == [
        "bonferroni_dunn",
        "nemenyi",
    ]
    assert set(declared_tests(role="posthoc", diagram="groups")) == {
        "aligned_posthoc",
        "exact_posthoc",
        "friedman_posthoc",
        "holm",
        "quade_posthoc",
        "skillings_mack_posthoc",
    }
    assert get_entry("aligned_posthoc").omnibus == "friedman_aligned"
    assert get_entry("quade_posthoc").omnibus == "quade"
    assert default_tests("all_pairs", role="omnibus") == ["friedman"]
    assert default_tests("all_pairs", role="posthoc") == ["nemenyi"]
    assert default_tests("control", role="posthoc") == ["exact_posthoc"]
    assert default_tests(
        "all_pairs", role="pairwise", available={"dataset_differences"}
    ) == ["wilcoxon"]


def test_through_compare_scores():
    names = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    result = compare_scores(
        DEMSAR_AUC,
        names=names,
        tests={
            "friedman_aligned": {},
            "aligned_posthoc": {"correction": "bergmann"},
            "quade": {},
            "quade_posthoc": {"correction": "shaffer"},
        },
        pairwise_tests=["wilcoxon"],
        correction="hommel",
    )
    assert (
        result.tests.friedman_aligned.statistic
        == friedman_aligned(DEMSAR_AUC).statistic
    )
    assert_array_equal(
        result.tests.aligned_posthoc.pvalue_adjusted,
        aligned_posthoc(DEMSAR_AUC, correction="bergmann").pvalue_adjusted,
    )
    assert_array_equal(
        result.tests.quade_posthoc.reject,
        quade_posthoc(DEMSAR_AUC, correction="shaffer").reject,
    )
    table = result.pairwise.wilcoxon
    pairs = list(itertools.combinations(range(4), 2))
    raw = np.array([table.pvalue[a, b] for a, b in pairs])
    assert_allclose(
        [table.pvalue_adjusted[a, b] for a, b in pairs], adjust_pvalues(raw, "hommel")
    )


def test_control_reaches_the_families_and_shaffer_is_refused_with_it():
    names = ["a", "b", "c", "d"]
    result = compare_scores(
        DEMSAR_AUC,
        names=names,
        control="a",
        tests=["quade_posthoc"],
        pairwise_tests=[],
    )
    assert result.tests.quade_posthoc.control == 0
    with pytest.raises(ValueError, match="against a control"):
        compare_scores(
            DEMSAR_AUC, names=names, control="a", tests=[], correction="shaffer"
        )
    with pytest.raises(ValueError, match="against a control"):
        compare_scores(
            DEMSAR_AUC,
            names=names,
            control="a",
            tests={"aligned_posthoc": {"correction": "bergmann"}},
        )


# --------------------------------------------------------------------------
# Family-wise error on null tables (benchmarks/reproduce_posthoc.py has the
# full grid)
# --------------------------------------------------------------------------


def _null_fwer(n_tables, k, n_datasets, seed):
    rng = np.random.default_rng(seed)
    mean = rng.uniform(0.6, 0.95, size=(n_tables, n_datasets, 1))
    sd = rng.uniform(0.01, 0.05, size=(n_tables, n_datasets, 1))
    tables = mean + sd * rng.normal(size=(n_tables, n_datasets, k))
    pairs = np.triu_indices(k, 1)
    rates = {}
    for func in POSTHOC:
        raw = np.array([func(t, correction=None).pvalue[pairs] for t in tables])
        for correction in ("holm", "hommel", "finner", "shaffer", "bergmann"):
            adjusted = adjust_pvalues(raw, correction)
            rates[func.__name__, correction] = np.mean((adjusted < 0.05).any(axis=1))
    return rates


@pytest.mark.parametrize(
    "n_tables",
    [300, pytest.param(4000, marks=pytest.mark.slow)],
)
def test_family_wise_error_at_most_alpha(n_tables):
    rates = _null_fwer(n_tables, k=5, n_datasets=20, seed=11)
    bound = 0.05 + 3 * np.sqrt(0.05 * 0.95 / n_tables)
    assert all(rate <= bound for rate in rates.values()), rates
    # and the procedures are not vacuous: the least conservative rejects
    # sometimes.
    assert max(rates.values()) > 0.01


@pytest.mark.parametrize("correction", ["shaffer", "bergmann", "rom"])
def test_pairwise_tests_take_the_new_corrections(correction):
    names = ["a", "b", "c", "d"]
    result = compare_scores(
        DEMSAR_AUC, names=names, tests=[], pairwise_tests=["wilcoxon"],
        correction=correction, alpha=0.1,
    )  # fmt: skip
    table = result.pairwise.wilcoxon
    pairs = list(itertools.combinations(range(4), 2))
    raw = np.array([table.pvalue[a, b] for a, b in pairs])
    expected = adjust_pvalues(raw, correction, alpha=0.1)
    assert_allclose([table.pvalue_adjusted[a, b] for a, b in pairs], expected)
    assert table.correction == correction


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"role": "family"}, "role must be None or one of"),
        ({"diagram": "tree"}, "diagram must be None or one of"),
        ({"defaults": {"always": 0}}, "defaults must be a dict"),
        ({"defaults": {"all_pairs": True}}, "defaults must be a dict"),
        ({"omnibus": 3}, "omnibus must be None or a test name"),
    ],
)
def test_register_test_checks_the_declarations(kwargs, match):
    from sklearn_bcv import register_test

    with pytest.raises(ValueError, match=match):
        register_test("bad_declaration", needs="scores", kind="datasets", **kwargs)


def test_a_registered_family_is_read_everywhere():
    from sklearn_bcv import register_test, unregister_test
    from sklearn_bcv._results._letters import family_decisions

    @register_test(
        "friedman_bonferroni_family",
        needs="scores",
        kind="datasets",
        alternatives="two-sided",
        role="posthoc",
        omnibus="friedman",
        diagram="groups",
        defaults={"all_pairs": 2},
    )
    def family(*, scores, alpha=0.05, alternative="two-sided", control=None):
        return friedman_posthoc(
            scores, alpha=alpha, control=control, correction="bonferroni"
        )

    try:
        assert "friedman_bonferroni_family" in declared_tests(
            role="posthoc", diagram="groups"
        )
        assert default_tests("all_pairs", role="posthoc") == [
            "nemenyi",
            "friedman_bonferroni_family",
        ]
        result = compare_scores(DEMSAR_AUC, pairwise_tests=[])
        assert list(result.tests) == [
            "friedman",
            "nemenyi",
            "friedman_bonferroni_family",
        ]
        reject, control, _ = family_decisions(result, "friedman_bonferroni_family")
        assert control is None and reject.shape == (4, 4)
    finally:
        unregister_test("friedman_bonferroni_family")
