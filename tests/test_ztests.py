"""Tests of proportion_z and cv_ci_z."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from sklearn_bcv.stats import cv_ci_z, proportion_z

# A RuntimeWarning (0/0, sqrt of a negative, ...) is a bug here.
pytestmark = pytest.mark.filterwarnings("error")

ALTERNATIVES = ["two-sided", "greater", "less"]
RASCHKA_A = np.array([[29, 1], [11, 9959]])  # n01 = 1, n10 = 11, n = 10000


def expand_table(table):
    """Per-record correctness of A and B for a (2, 2) table."""
    a_correct, b_correct = [], []
    for i in (0, 1):
        for j in (0, 1):
            a_correct += [i] * int(table[i][j])
            b_correct += [j] * int(table[i][j])
    return np.array(a_correct), np.array(b_correct)


# --------------------------------------------------------------------------
# proportion_z
# --------------------------------------------------------------------------


def test_proportion_z_dietterich_formula():
    # Dietterich 1998 in accuracies: pA = 0.997, pB = 0.996, p = (pA + pB)/2,
    # z = (pA - pB) / sqrt(2 p (1 - p) / n) = 0.001 / sqrt(2 * .9965 * .0035 / 1e4)
    z = 0.001 / np.sqrt(2 * 0.9965 * 0.0035 / 10_000)
    result = proportion_z(RASCHKA_A)
    assert result.statistic == pytest.approx(z, rel=1e-12)
    assert result.statistic == pytest.approx(1.1973, abs=1e-4)
    assert result.pvalue == pytest.approx(2 * stats.norm.sf(z), rel=1e-12)
    assert result.df is None
    assert result.reject is False
    assert result.difference == pytest.approx(0.001)
    assert result.test == "proportion_z"


@given(table=arrays(np.int64, (2, 2), elements=st.integers(0, 60)))
def test_proportion_z_matches_error_rate_formula(table):
    n = table.sum()
    if n == 0:
        return
    error_a = (table[0, 0] + table[0, 1]) / n
    error_b = (table[0, 0] + table[1, 0]) / n
    e = (error_a + error_b) / 2
    result = proportion_z(table)
    if e in (0.0, 1.0):
        assert result.statistic == 0.0 and result.pvalue == 1.0
    else:
        z = (error_b - error_a) / np.sqrt(2 * e * (1 - e) / n)
        assert result.statistic == pytest.approx(z, rel=1e-10, abs=1e-12)


@pytest.mark.parametrize("alpha", [0.05, 0.1, 0.01])
@given(table=arrays(np.int64, (2, 2), elements=st.integers(0, 60)))
def test_proportion_z_interval_is_paired_mean_interval(alpha, table):
    # Independent computation: normal interval of the mean of the per-record
    # differences correct_A - correct_B, standard deviation with ddof=0.
    if table.sum() == 0:
        return
    a_correct, b_correct = expand_table(table)
    diff = a_correct - b_correct
    half = stats.norm.ppf(1 - alpha / 2) * diff.std() / np.sqrt(diff.size)
    low, high = proportion_z(table, alpha=alpha).confidence_interval
    assert low == pytest.approx(diff.mean() - half, abs=1e-12)
    assert high == pytest.approx(diff.mean() + half, abs=1e-12)
    # one-sided intervals use the 1 - alpha quantile on one side only
    one_half = stats.norm.ppf(1 - alpha) * diff.std() / np.sqrt(diff.size)
    low, high = proportion_z(
        table, alpha=alpha, alternative="greater"
    ).confidence_interval
    assert low == pytest.approx(diff.mean() - one_half, abs=1e-12) and high == np.inf
    low, high = proportion_z(table, alpha=alpha, alternative="less").confidence_interval
    assert low == -np.inf and high == pytest.approx(diff.mean() + one_half, abs=1e-12)


def test_proportion_z_interval_coverage(global_random_seed):
    # 4,000 simulated hold-out tables (one batched call): the 95% paired
    # interval should cover the true accuracy difference about 95% of the time.
    rng = np.random.default_rng(global_random_seed)
    probabilities = [0.10, 0.08, 0.15, 0.67]  # n00, n01, n10, n11
    true_difference = 0.15 - 0.08
    counts = rng.multinomial(400, probabilities, size=4000).reshape(4000, 1, 2, 2)
    low, high = proportion_z(counts).confidence_interval
    coverage = np.mean((low <= true_difference) & (true_difference <= high))
    assert 0.93 < coverage < 0.97


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_proportion_z_one_sided_at_zero_with_information(alternative):
    # Equal error rates that are neither 0 nor 1: an ordinary z = 0, whose
    # one-sided tail is 1/2 (only 0/0 is "no evidence", p = 1).
    result = proportion_z([[5, 3], [3, 9]], alternative=alternative)
    assert result.statistic == 0.0
    assert result.pvalue == 0.5


def test_proportion_z_one_sided():
    greater = proportion_z(RASCHKA_A, alternative="greater")
    less = proportion_z(RASCHKA_A, alternative="less")
    assert greater.pvalue == pytest.approx(stats.norm.sf(greater.statistic))
    assert greater.pvalue + less.pvalue == pytest.approx(1.0)
    assert greater.pvalue < 0.5 < less.pvalue  # A is the more accurate


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize(
    "table", [[[0, 0], [0, 0]], [[0, 0], [0, 50]], [[50, 0], [0, 0]], [[5, 0], [0, 20]]]
)
def test_proportion_z_degenerate(table, alternative):
    # Empty table, both always right, both always wrong, never disagreeing.
    # 0/0: statistic 0 and p-value 1 for every alternative (FORMULAS.md).
    result = proportion_z(table, alternative=alternative)
    assert result.statistic == 0.0
    assert result.pvalue == 1.0
    assert result.reject is False
    low, high = result.confidence_interval
    assert (low == 0.0 or low == -np.inf) and (high == 0.0 or high == np.inf)


@given(table=arrays(np.int64, (1, 2, 2), elements=st.integers(0, 60)))
def test_proportion_z_swapping_estimators(table):
    swapped = np.swapaxes(table, -1, -2)
    a, b = proportion_z(table), proportion_z(swapped)
    assert a.statistic == -b.statistic
    assert a.pvalue == pytest.approx(b.pvalue, rel=1e-12)
    assert a.confidence_interval == pytest.approx(
        tuple(-bound for bound in b.confidence_interval[::-1]), abs=1e-15
    )
    greater = proportion_z(table, alternative="greater")
    less = proportion_z(swapped, alternative="less")
    assert greater.pvalue == pytest.approx(less.pvalue, rel=1e-12)
    for result in (a, greater, less):
        assert 0.0 <= result.pvalue <= 1.0


@given(table=arrays(np.int64, (2, 2), elements=st.integers(0, 60)))
def test_proportion_z_pvalue_range(table):
    for alternative in ALTERNATIVES:
        assert 0.0 <= proportion_z(table, alternative=alternative).pvalue <= 1.0


def test_proportion_z_batched_equals_loop(rng):
    tables = rng.integers(0, 30, size=(5, 3, 1, 2, 2))
    tables[0, 0] = 0
    for alternative in ALTERNATIVES:
        batched = proportion_z(tables, alternative=alternative)
        assert batched.statistic.shape == (5, 3)
        low, high = batched.confidence_interval
        for i in range(5):
            for j in range(3):
                single = proportion_z(tables[i, j], alternative=alternative)
                assert batched.statistic[i, j] == pytest.approx(single.statistic)
                assert batched.pvalue[i, j] == pytest.approx(single.pvalue)
                assert batched.reject[i, j] == single.reject
                assert (low[i, j], high[i, j]) == pytest.approx(
                    single.confidence_interval
                )


def test_proportion_z_rejects_several_splits():
    with pytest.raises(
        ValueError,
        match=r"proportion_z needs the table of one hold-out split; got 5 tables\. "
        r"For k folds use cv_ci_z",
    ):
        proportion_z(np.ones((5, 2, 2), dtype=int))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"alpha": 0.0}, r"alpha must be a number in \(0, 1\)"),
        ({"alternative": "two_sided"}, r"alternative must be one of"),
        ({"tables": [["1", "2"], ["3", "4"]]}, r"tables must be an array of counts"),
        ({"tables": [1, 2, 3, 4]}, r"tables must have shape \(n_splits, 2, 2\)"),
    ],
)
def test_proportion_z_validation(kwargs, message):
    kwargs = {"tables": RASCHKA_A, **kwargs}
    with pytest.raises(ValueError, match=message):
        proportion_z(**kwargs)


# --------------------------------------------------------------------------
# cv_ci_z
# --------------------------------------------------------------------------

FOLDS = [
    [0, -1, 0, 0, -1, 1, 0, -1],
    [-1, 0, 0, -1, 0, 0, 1, 0],
    [0, 0, -1, -1, 0, -1, 0, 0],
]


def direct_cv_ci(folds, alpha):
    """Bayle et al.'s interval from the per-fold sizes, means and variances.

    sigma2_out = (1/n) sum_k sum_{i in k} (h_i - hbar_k)^2
               = sum_k (n_k / n) var_k   (var_k with ddof=0)
    """
    sizes = np.array([len(fold) for fold in folds])
    means = np.array([np.mean(fold) for fold in folds])
    variances = np.array([np.var(fold) for fold in folds])
    n = sizes.sum()
    mean = np.sum(sizes * means) / n
    sigma2_out = np.sum(sizes * variances) / n
    se = np.sqrt(sigma2_out / n)
    half = stats.norm.ppf(1 - alpha / 2) * se
    return mean, se, (mean - half, mean + half)


def test_cv_ci_z_by_hand():
    # Fold sums of squared deviations 3.5, 2.875 and 1.875: sigma2_out =
    # 8.25/24, mean = -6/24, z = 0.25 / sqrt(8.25 / 24**2) = 2.0889.
    result = cv_ci_z(FOLDS)
    assert result.statistic == pytest.approx(0.25 / np.sqrt(8.25 / 24**2))
    assert result.statistic == pytest.approx(2.0889, abs=1e-4)
    assert result.pvalue == pytest.approx(2 * stats.norm.sf(result.statistic))
    assert result.mean_loss_difference == pytest.approx(-0.25)
    assert result.df is None
    assert result.test == "cv_ci_z"
    assert result.reject is True


@pytest.mark.parametrize("alpha", [0.05, 0.2])
@given(
    folds=st.lists(
        st.lists(st.floats(-5, 5, allow_nan=False), min_size=1, max_size=15),
        min_size=2,
        max_size=6,
    )
)
def test_cv_ci_z_matches_direct_computation(alpha, folds):
    mean, se, interval = direct_cv_ci(folds, alpha)
    result = cv_ci_z(folds, alpha=alpha)
    assert result.mean_loss_difference == pytest.approx(mean, abs=1e-12)
    assert result.std_error == pytest.approx(se, rel=1e-9, abs=1e-12)
    assert result.confidence_interval == pytest.approx(interval, rel=1e-9, abs=1e-9)
    if se > 1e-9:
        assert result.statistic == pytest.approx(-mean / se, rel=1e-6)
    for alternative in ALTERNATIVES:
        assert 0.0 <= cv_ci_z(folds, alternative=alternative).pvalue <= 1.0


@given(
    folds=st.lists(
        st.lists(st.sampled_from([-1.0, 0.0, 1.0]), min_size=1, max_size=20),
        min_size=2,
        max_size=5,
    ),
    alpha=st.sampled_from([0.01, 0.05, 0.1]),
)
def test_cv_ci_z_reject_agrees_with_interval(folds, alpha):
    # The test inverts the interval: reject iff the interval excludes 0,
    # on the side the alternative names ("greater": A's losses are lower).
    for alternative in ALTERNATIVES:
        result = cv_ci_z(folds, alpha=alpha, alternative=alternative)
        low, high = result.confidence_interval
        z_crit = stats.norm.ppf(
            1 - (alpha / 2 if alternative == "two-sided" else alpha)
        )
        if abs(abs(result.statistic) - z_crit) < 1e-9:
            continue  # on the boundary, rounding decides
        assert result.reject == (low > 0 or high < 0)
        if alternative == "greater":
            assert low == -np.inf
        if alternative == "less":
            assert high == np.inf


def test_cv_ci_z_direction():
    # A loses less on every fold: positive statistic, "greater" rejects.
    assert cv_ci_z(FOLDS, alternative="greater").reject is True
    assert cv_ci_z(FOLDS, alternative="less").reject is False
    assert cv_ci_z(FOLDS, alternative="greater").confidence_interval[1] < 0


@given(
    folds=st.lists(
        st.lists(st.sampled_from([-1.0, 0.0, 1.0]), min_size=1, max_size=20),
        min_size=2,
        max_size=5,
    )
)
def test_cv_ci_z_swapping_estimators(folds):
    negated = [[-value for value in fold] for fold in folds]
    a, b = cv_ci_z(folds), cv_ci_z(negated)
    assert a.statistic == -b.statistic
    assert a.pvalue == pytest.approx(b.pvalue, rel=1e-12)
    assert a.confidence_interval == pytest.approx(
        tuple(-bound for bound in b.confidence_interval[::-1]), abs=1e-12
    )
    greater = cv_ci_z(folds, alternative="greater")
    less = cv_ci_z(negated, alternative="less")
    assert greater.pvalue == pytest.approx(less.pvalue, rel=1e-12)


def test_cv_ci_z_accepts_2d_array():
    folds = np.array([[0, -1, 1, -1], [-1, 0, 0, -1], [1, -1, 0, 0]])
    result = cv_ci_z(folds)
    assert result.statistic == pytest.approx(cv_ci_z(list(folds)).statistic)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_cv_ci_z_degenerate(alternative):
    # Every loss difference 0: statistic 0, p-value 1, interval {0}.
    result = cv_ci_z([[0, 0, 0], [0, 0]], alternative=alternative)
    assert result.statistic == 0.0
    assert result.pvalue == 1.0
    assert result.confidence_interval in [(0.0, 0.0), (-np.inf, 0.0), (0.0, np.inf)]
    # Constant within folds but not zero: infinite evidence that A is better.
    result = cv_ci_z([[-1, -1], [-1, -1, -1]], alternative=alternative)
    assert result.statistic == np.inf
    assert result.pvalue == (1.0 if alternative == "less" else 0.0)
    two_sided = cv_ci_z([[-1, -1], [-1, -1, -1]]).confidence_interval
    assert two_sided == (-1.0, -1.0)


@pytest.mark.parametrize(
    "loss_differences, message",
    [
        ([[0, 1, -1]], r"cv_ci_z needs the loss differences of k >= 2 folds; got 1"),
        ([], r"cv_ci_z needs the loss differences of k >= 2 folds; got 0"),
        ([[0, 1], []], r"loss_differences\[1\] is empty"),
        ([[0, 1], [[1], [2, 3]]], r"loss_differences\[1\] must be numeric"),
        ([[0, np.nan], [1]], r"loss_differences\[0\] must be finite"),
        ([[0, 1], [1, np.inf]], r"loss_differences\[1\] must be finite"),
        ([[[0, 1]], [1]], r"1-D arrays.*loss_differences\[0\] has shape \(1, 2\)"),
        ([0.5, -0.5], r"1-D arrays.*loss_differences\[0\] has shape \(\)"),
        ([["a", "b"], [1]], r"loss_differences\[0\] must be numeric"),
        (3.0, r"loss_differences must be a list of 1-D arrays.*got float"),
        ("abc", r"loss_differences must be a list of 1-D arrays.*got str"),
    ],
)
def test_cv_ci_z_validation(loss_differences, message):
    with pytest.raises(ValueError, match=message):
        cv_ci_z(loss_differences)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"alpha": 1}, r"alpha must be a number in \(0, 1\)"),
        ({"alternative": None}, r"alternative must be one of"),
    ],
)
def test_cv_ci_z_parameter_validation(kwargs, message):
    with pytest.raises(ValueError, match=message):
        cv_ci_z(FOLDS, **kwargs)
