"""Tests of the score-difference t and F tests (sklearn_bcv._ttests)."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import integrate, stats

from sklearn_bcv import get_test
from sklearn_bcv.stats import (
    bcv_t,
    blocked_t_3x2cv,
    calibrated_f_5x2bcv,
    combined_f_5x2cv,
    combined_t_5x2cv,
    corrected_t,
    paired_t,
    paired_t_5x2cv,
)
from sklearn_bcv.stats._registry import get_test_info
from sklearn_bcv.stats._ttests import averaged_bcv_df1

pytestmark = pytest.mark.filterwarnings("error")

ALTERNATIVES = ["two-sided", "greater", "less"]
MX2_TESTS = [
    "paired_t_5x2cv",
    "combined_f_5x2cv",
    "calibrated_f_5x2bcv",
    "combined_t_5x2cv",
    "blocked_t_3x2cv",
]
F_TESTS = ["combined_f_5x2cv", "calibrated_f_5x2bcv"]
SIGNED_TESTS = [
    "paired_t_5x2cv",
    "combined_t_5x2cv",
    "blocked_t_3x2cv",
    "paired_t",
    "corrected_t",
]
ALL_TESTS = MX2_TESTS + ["paired_t", "corrected_t"]

# A 5×2 example: repetition r holds splits 2r, 2r + 1.
D5 = [0.04, 0.02, 0.03, 0.01, 0.05, 0.03, 0.02, 0.04, 0.03, 0.03]


def run(name, differences, **kwargs):
    """Call a registered test with what it needs (n_train = n_test = 50)."""
    needs, _ = get_test_info(name)
    if "n_train" in needs:
        kwargs = {"n_train": 50, "n_test": 50, **kwargs}
    return get_test(name)(differences=differences, **kwargs)


def mx2_differences(min_repeats=1, max_repeats=6):
    """Accuracy-like differences (multiples of 0.01) of an m×2 design."""
    return st.integers(min_repeats, max_repeats).flatmap(
        lambda m: st.lists(st.integers(-100, 100), min_size=2 * m, max_size=2 * m).map(
            lambda values: np.array(values) / 100.0
        )
    )


def any_differences(min_size=2, max_size=12):
    return st.lists(st.integers(-100, 100), min_size=min_size, max_size=max_size).map(
        lambda values: np.array(values) / 100.0
    )


# --------------------------------------------------------------------------
# Registry
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, needs, design",
    [
        ("paired_t_5x2cv", ("differences",), "mx2"),
        ("combined_f_5x2cv", ("differences",), "mx2"),
        ("calibrated_f_5x2bcv", ("differences",), "bcv"),
        ("combined_t_5x2cv", ("differences",), "mx2"),
        ("blocked_t_3x2cv", ("differences",), "bcv"),
        ("paired_t", ("differences",), "any"),
        ("corrected_t", ("differences", "n_train", "n_test"), "any"),
    ],
)
def test_registered_with_needs_and_design(name, needs, design):
    assert get_test_info(name) == (needs, design)
    result = run(name, D5)
    assert result.test == name
    assert set(result) >= {"statistic", "pvalue", "df", "reject", "alternative"}
    assert result.reject == (result.pvalue < 0.05)


# --------------------------------------------------------------------------
# Values computed independently
# --------------------------------------------------------------------------


def test_paired_t_5x2cv_hand_value():
    # s2_r = (p0 - p1)**2 / 2 = 0.0002 for repetitions 0-3 and 0 for the last,
    # so sigma2 = 0.0008 / 5 = 1.6e-4 and t = 0.04 / sqrt(1.6e-4) = sqrt(10).
    result = paired_t_5x2cv(D5)
    assert result.statistic == pytest.approx(math.sqrt(10), rel=1e-12)
    assert result.df == 5
    assert result.pvalue == pytest.approx(2 * stats.t.sf(math.sqrt(10), 5))
    greater = paired_t_5x2cv(D5, alternative="greater")
    assert greater.pvalue == pytest.approx(stats.t.sf(math.sqrt(10), 5))
    less = paired_t_5x2cv(D5, alternative="less")
    assert less.pvalue == pytest.approx(stats.t.cdf(math.sqrt(10), 5))


def test_combined_f_5x2cv_hand_value():
    # sum of squares = (16+4+9+1+25+9+4+16+9+9)e-4 = 0.0102 and
    # 2 * sum s2_r = 2 * 0.0008 = 0.0016, so f = 6.375.
    result = combined_f_5x2cv(D5)
    assert result.statistic == pytest.approx(6.375, rel=1e-12)
    assert result.df == (10, 5)
    assert result.pvalue == pytest.approx(stats.f.sf(6.375, 10, 5), rel=1e-12)


def test_calibrated_f_5x2bcv_hand_value():
    result = calibrated_f_5x2bcv(D5)
    assert result.statistic == pytest.approx(6.375, rel=1e-12)
    assert result.df == (7, 5)
    assert result.pvalue == pytest.approx(stats.f.sf(6.375, 7, 5), rel=1e-12)


def test_combined_t_5x2cv_hand_value():
    # pbar = 0.3 / 10 = 0.03 and sqrt(sum s2_r / 5) = sqrt(1.6e-4) = 0.04/sqrt(10),
    # so t = sqrt(10) * 0.03 * sqrt(10) / 0.04 = 7.5.
    result = combined_t_5x2cv(D5)
    assert result.statistic == pytest.approx(7.5, rel=1e-12)
    assert result.df == 5
    assert result.pvalue == pytest.approx(2 * stats.t.sf(7.5, 5), rel=1e-12)


def test_blocked_t_3x2cv_hand_value():
    # dbar = 0.14 / 6 = 7/300; sum of squares = 16/30000 (deviations
    # 2, -4, -1, 5, -1, -1 in units of 1/300), sigma2 = 16/180000, so
    # t = (7/300) / (4/sqrt(180000)) = 7 sqrt(2) / 4; df = 2*3 - 1 = 5.
    d = [0.03, 0.01, 0.02, 0.04, 0.02, 0.02]
    result = blocked_t_3x2cv(d)
    assert result.statistic == pytest.approx(7 * math.sqrt(2) / 4, rel=1e-12)
    assert result.df == 5
    assert result.pvalue == pytest.approx(2 * stats.t.sf(7 * math.sqrt(2) / 4, 5))


@pytest.mark.parametrize("m", [1, 3, 5])
def test_blocked_t_3x2cv_is_scipy_t_over_sqrt_2m_minus_1(m, rng):
    # scipy's one-sample t is dbar / sqrt(SS / ((2m - 1) 2m)); the blocked t is
    # dbar / sqrt(SS / 2m), i.e. scipy's divided by sqrt(2m - 1).
    d = rng.normal(0.01, 0.02, size=(20, 2 * m))
    expected = stats.ttest_1samp(d, 0.0, axis=-1).statistic / math.sqrt(2 * m - 1)
    result = blocked_t_3x2cv(d)
    assert_allclose(result.statistic, expected, rtol=1e-12)
    assert result.df == 2 * m - 1


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_paired_t_equals_scipy_ttest_1samp(alternative, rng):
    d = rng.normal(0.01, 0.03, size=(30, 10))
    result = paired_t(d, alternative=alternative, alpha=0.1)
    expected = stats.ttest_1samp(d, 0.0, axis=-1, alternative=alternative)
    assert_allclose(result.statistic, expected.statistic, rtol=1e-12)
    assert_allclose(result.pvalue, expected.pvalue, rtol=1e-10)
    assert result.df == 9
    low, high = result.confidence_interval
    expected_low, expected_high = expected.confidence_interval(0.9)
    assert_allclose(low, expected_low, rtol=1e-12)
    assert_allclose(high, expected_high, rtol=1e-12)


def test_paired_t_hand_value():
    # dbar = 0.02, s2 = 2e-4 / 4 = 5e-5, t = 0.02 / sqrt(5e-5 / 5) = 2 sqrt(10).
    result = paired_t([0.02, 0.01, 0.03, 0.02, 0.02])
    assert result.statistic == pytest.approx(2 * math.sqrt(10), rel=1e-12)
    assert result.df == 4


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_corrected_t_reduces_to_paired_t(alternative, rng):
    d = rng.normal(0.0, 0.05, size=(15, 8))
    corrected = corrected_t(d, n_train=1e12, n_test=1.0, alternative=alternative)
    plain = paired_t(d, alternative=alternative)
    assert_allclose(corrected.statistic, plain.statistic, rtol=1e-9)
    assert_allclose(corrected.pvalue, plain.pvalue, rtol=1e-8)
    assert_allclose(corrected.confidence_interval, plain.confidence_interval, rtol=1e-9)


def test_corrected_t_hand_value():
    # 10-fold CV, n = 100: dbar = 0.02, s2 = 12e-4 / 9, variance factor
    # 1/10 + 10/90 = 19/90, so t = 0.02 / sqrt(19/90 * 12e-4 / 9).
    d = [0.02, 0.01, 0.03, 0.02, 0.02, 0.04, 0.0, 0.01, 0.03, 0.02]
    result = corrected_t(d, n_train=90, n_test=10)
    std_error = math.sqrt(19 / 90 * 12e-4 / 9)
    assert result.statistic == pytest.approx(0.02 / std_error, rel=1e-12)
    assert result.df == 9
    assert result.pvalue == pytest.approx(2 * stats.t.sf(0.02 / std_error, 9))
    half = stats.t.ppf(0.975, 9) * std_error
    assert result.confidence_interval == pytest.approx((0.02 - half, 0.02 + half))


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_corrected_t_is_scaled_scipy_t(alternative, rng):
    # The correction multiplies the t statistic by sqrt((1/J) / (1/J + 1/4)).
    d = rng.normal(0.01, 0.05, size=(10, 12))
    result = corrected_t(d, n_train=80, n_test=20, alternative=alternative)
    scipy_t = stats.ttest_1samp(d, 0.0, axis=-1).statistic
    expected = scipy_t * math.sqrt((1 / 12) / (1 / 12 + 20 / 80))
    assert_allclose(result.statistic, expected, rtol=1e-12)
    assert_allclose(result.pvalue, _t_tail(expected, 11, alternative), rtol=1e-10)


def _t_tail(t, df, alternative):
    if alternative == "greater":
        return stats.t.sf(t, df)
    if alternative == "less":
        return stats.t.cdf(t, df)
    return 2 * stats.t.sf(np.abs(t), df)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_corrected_t_interval_agrees_with_pvalue(alternative, rng):
    # Duality: 0 lies outside the (1 - alpha) interval iff p < alpha.
    d = rng.normal(0.01, 0.03, size=(200, 10))
    result = corrected_t(d, n_train=90, n_test=10, alternative=alternative)
    low, high = result.confidence_interval
    zero_excluded = (low > 0) | (high < 0)
    assert np.array_equal(zero_excluded, result.pvalue < 0.05)
    assert np.all(low <= d.mean(axis=-1)) and np.all(d.mean(axis=-1) <= high)


def test_f_pvalues_match_scipy_for_other_m(rng):
    d = rng.normal(0.0, 0.02, size=(5, 6))  # m = 3
    combined = combined_f_5x2cv(d)
    assert combined.df == (6, 3)
    assert_allclose(combined.pvalue, stats.f.sf(combined.statistic, 6, 3), rtol=1e-12)
    calibrated = calibrated_f_5x2bcv(d)
    assert calibrated.df == (averaged_bcv_df1(3), 3)
    assert_allclose(
        calibrated.pvalue,
        stats.f.sf(calibrated.statistic, averaged_bcv_df1(3), 3),
        rtol=1e-12,
    )
    # With df1 = 2m the calibrated test is Alpaydin's.
    assert_allclose(calibrated_f_5x2bcv(d, df1=6).pvalue, combined.pvalue)


# --------------------------------------------------------------------------
# Level under models where the null distribution is exact (Monte Carlo)
# --------------------------------------------------------------------------

N_SIMULATIONS = 20_000
# Four binomial standard errors of a rejection rate of 0.05.
LEVEL_TOLERANCE = 4 * math.sqrt(0.05 * 0.95 / N_SIMULATIONS)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_exact_level_under_independent_normal_differences(alternative, rng):
    # Independent N(0, 1) differences: paired_t is exactly t(J - 1); and
    # combined_t_5x2cv is exactly t(m), because within a repetition the sum
    # p0 + p1 (numerator) is independent of p0 - p1 (s2_r = (p0 - p1)**2 / 2).
    d = rng.standard_normal((N_SIMULATIONS, 10))
    for name in ["paired_t", "combined_t_5x2cv"]:
        rate = np.mean(run(name, d, alternative=alternative).reject)
        assert rate == pytest.approx(0.05, abs=LEVEL_TOLERANCE), name


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_corrected_t_exact_level_under_equicorrelation(alternative, rng):
    # Nadeau & Bengio's model: differences with common correlation
    # rho = n_test / (n_train + n_test). The common component shifts dbar but
    # not the deviations, so dbar and s2 are independent and
    # Var(dbar) / E[s2] = 1/J + rho / (1 - rho): the corrected t is exactly
    # t(J - 1). The uncorrected paired t is liberal on the same data.
    rho = 10 / 100
    shared = rng.standard_normal((N_SIMULATIONS, 1))
    own = rng.standard_normal((N_SIMULATIONS, 10))
    d = math.sqrt(rho) * shared + math.sqrt(1 - rho) * own
    corrected = corrected_t(d, 90, 10, alternative=alternative)
    assert np.mean(corrected.reject) == pytest.approx(0.05, abs=LEVEL_TOLERANCE)
    assert np.mean(paired_t(d, alternative=alternative).reject) > 0.08


# --------------------------------------------------------------------------
# Calibrated degrees of freedom (seed 001, eq. 5-7)
# --------------------------------------------------------------------------


def test_averaged_df1_for_5x2_is_papers_value():
    # eq. 7: 5 sqrt(2) arctan(sqrt(2)) = 6.7551 (the paper prints 6.76 ≈ 7).
    assert averaged_bcv_df1(5) == pytest.approx(
        5 * math.sqrt(2) * math.atan(math.sqrt(2)), rel=1e-14
    )
    assert averaged_bcv_df1(5) == pytest.approx(6.7551, abs=1e-4)
    assert round(averaged_bcv_df1(5)) == 7


def test_averaged_df1_from_seed_001_table_2():
    # Row rho1 = 0 of Table 2 (f = 10 / (1 + 8 rho2**2)), rho2 = 0, 0.05, ... 0.5;
    # Simpson's rule over (0, 0.5) divided by 0.5 approximates eq. 7's average.
    row = [10.000, 9.804, 9.259, 8.475, 7.576, 6.667, 5.814, 5.051, 4.386, 3.817, 3.333]
    average = integrate.simpson(row, dx=0.05) / 0.5
    assert average == pytest.approx(averaged_bcv_df1(5), abs=2e-3)


@pytest.mark.parametrize("m", [1, 2, 3, 5, 10])
def test_averaged_df1_matches_numerical_integral(m):
    # f(rho2) = 2m / (1 + 2(m - 1) rho2**2) averaged over rho2 in (0, 1/2); for
    # m = 1 the integrand is the constant 2 (the limit the function returns).
    integral, _ = integrate.quad(lambda rho: 2 * m / (1 + 2 * (m - 1) * rho**2), 0, 0.5)
    assert averaged_bcv_df1(m) == pytest.approx(integral / 0.5, rel=1e-10)


def test_calibrated_f_default_df1():
    assert calibrated_f_5x2bcv(D5).df == (7, 5)
    assert calibrated_f_5x2bcv(D5[:2]).df == (2.0, 1)
    # m = 3: sqrt(2(m - 1)) = 2, so df1 = 12 arctan(1) / 2 = 3 pi / 2.
    assert calibrated_f_5x2bcv(D5[:6]).df == (pytest.approx(3 * math.pi / 2), 3)
    assert calibrated_f_5x2bcv(D5, df1=6.5).df == (6.5, 5)
    assert calibrated_f_5x2bcv(D5, df1=10).df == (10, 5)


# --------------------------------------------------------------------------
# Degenerate input (FORMULAS.md): never NaN, never a warning
# --------------------------------------------------------------------------


SUPPORTED = [
    (name, alternative)
    for name in ALL_TESTS
    for alternative in ALTERNATIVES
    if name not in F_TESTS or alternative == "two-sided"
]


@pytest.mark.parametrize("name, alternative", SUPPORTED)
def test_all_zero_differences_give_statistic_0_pvalue_1(name, alternative):
    # 0/0: no evidence either way, so p = 1 on either side too (not the 1/2
    # a t tail at 0 would give).
    result = run(name, np.zeros(10), alternative=alternative)
    assert result.statistic == 0.0
    assert result.pvalue == 1.0
    assert result.reject is False


@pytest.mark.parametrize("name, alternative", SUPPORTED)
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_constant_nonzero_differences_give_infinite_statistic(name, alternative, sign):
    result = run(name, np.full(10, sign * 0.1), alternative=alternative)
    expected = np.inf if name in F_TESTS else sign * np.inf
    assert result.statistic == expected
    # p = 0 on the side of the infinity, 1 on the other one.
    against = {"greater": -1.0, "less": 1.0}.get(alternative)
    assert result.pvalue == (1.0 if sign == against else 0.0)
    assert result.reject is (sign != against)


@pytest.mark.parametrize("name", ["paired_t", "corrected_t"])
def test_constant_differences_give_point_interval(name):
    low, high = run(name, [0.1, 0.1, 0.1]).confidence_interval
    assert low == high == 0.1
    low, high = run(name, [0.1, 0.1, 0.1], alternative="greater").confidence_interval
    assert (low, high) == (0.1, np.inf)


@pytest.mark.parametrize("name", ["paired_t", "corrected_t", "blocked_t_3x2cv"])
@pytest.mark.parametrize("n_splits, value", [(6, 0.1), (10, 0.02), (10, -0.3)])
def test_equal_differences_are_exactly_degenerate(name, n_splits, value):
    # np.mean of these equal values is off by one ulp, which would leave a
    # variance of ~1e-33 and a huge finite t instead of the documented ±inf.
    result = run(name, [value] * n_splits)
    assert result.statistic == math.copysign(np.inf, value)
    assert result.pvalue == 0.0


def test_paired_t_5x2cv_zero_first_difference_and_zero_variance():
    # Folds agree within every repetition (s2_r = 0) and p[0, 0] = 0: 0 / 0.
    d = [0.0, 0.0, 0.1, 0.1, -0.2, -0.2, 0.3, 0.3, 0.1, 0.1]
    for alternative in ALTERNATIVES:
        result = paired_t_5x2cv(d, alternative=alternative)
        assert (result.statistic, result.pvalue) == (0.0, 1.0)
    # The F statistic has a non-zero numerator over the same zero denominator.
    assert combined_f_5x2cv(d).statistic == np.inf


# --------------------------------------------------------------------------
# Batches
# --------------------------------------------------------------------------


@pytest.mark.parametrize("name, alternative", SUPPORTED)
def test_batched_equals_loop(name, alternative, rng):
    d = rng.normal(0.0, 0.05, size=(2, 3, 10))
    d[0, 1] = 0.0  # a degenerate comparison inside the batch
    batched = run(name, d, alternative=alternative)
    assert np.shape(batched.statistic) == (2, 3)
    for index in np.ndindex(2, 3):
        single = run(name, d[index], alternative=alternative)
        assert single.statistic == pytest.approx(batched.statistic[index], rel=1e-12)
        assert single.pvalue == pytest.approx(batched.pvalue[index], rel=1e-12)
        assert single.reject == batched.reject[index]
        assert single.df == batched.df
        if "confidence_interval" in single:
            assert single.confidence_interval == pytest.approx(
                tuple(bound[index] for bound in batched.confidence_interval)
            )


def test_single_comparison_gives_python_scalars():
    result = paired_t_5x2cv(D5)
    assert type(result.statistic) is float
    assert type(result.pvalue) is float
    assert type(result.reject) is bool


# --------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------


@given(d=mx2_differences(), alternative=st.sampled_from(ALTERNATIVES))
def test_mx2_pvalues_in_unit_interval(d, alternative):
    for name in MX2_TESTS:
        if name in F_TESTS and alternative != "two-sided":
            continue
        result = run(name, d, alternative=alternative)
        assert 0.0 <= result.pvalue <= 1.0
        assert not np.isnan(result.statistic)


@given(d=any_differences(), alternative=st.sampled_from(ALTERNATIVES))
def test_any_design_pvalues_in_unit_interval(d, alternative):
    for name in ["paired_t", "corrected_t"]:
        result = run(name, d, alternative=alternative)
        assert 0.0 <= result.pvalue <= 1.0
        low, high = result.confidence_interval
        # (np.mean of equal values may be one ulp off their common value.)
        assert low - 1e-12 <= d.mean() <= high + 1e-12


@given(d=mx2_differences())
def test_swapping_a_and_b(d):
    for name in SIGNED_TESTS:
        ab, ba = run(name, d), run(name, -d)
        assert ba.statistic == -ab.statistic
        assert ba.pvalue == pytest.approx(ab.pvalue, rel=1e-12)
        greater = run(name, d, alternative="greater")
        assert run(name, -d, alternative="less").pvalue == pytest.approx(
            greater.pvalue, rel=1e-12, abs=1e-300
        )
    for name in F_TESTS:
        assert run(name, -d).statistic == run(name, d).statistic
        assert run(name, -d).pvalue == run(name, d).pvalue


@given(d=mx2_differences(), scale=st.floats(0.01, 100.0))
def test_statistics_are_scale_invariant(d, scale):
    for name in ALL_TESTS:
        assert_allclose(
            run(name, scale * d).statistic, run(name, d).statistic, rtol=1e-7, atol=1e-9
        )


@given(d=mx2_differences(min_repeats=2), data=st.data())
def test_repetition_order(d, data):
    m = d.size // 2
    order = data.draw(st.permutations(range(m)))
    permuted = d.reshape(m, 2)[list(order)].ravel()
    for name in [
        "combined_f_5x2cv",
        "calibrated_f_5x2bcv",
        "combined_t_5x2cv",
        "blocked_t_3x2cv",
    ]:
        assert_allclose(
            run(name, permuted).statistic, run(name, d).statistic, rtol=1e-9, atol=1e-12
        )
    # Dietterich's t keeps p[0, 0] in the numerator: permuting repetitions
    # 1..m-1 leaves it unchanged, and it follows whichever difference comes first.
    rest = [0] + [1 + i for i in data.draw(st.permutations(range(m - 1)))]
    tail_permuted = d.reshape(m, 2)[rest].ravel()
    assert_allclose(
        paired_t_5x2cv(tail_permuted).statistic, paired_t_5x2cv(d).statistic, rtol=1e-9
    )
    variance = (
        np.sum((d.reshape(m, 2) - d.reshape(m, 2).mean(axis=1, keepdims=True)) ** 2) / m
    )
    if variance > 0:
        assert_allclose(
            paired_t_5x2cv(permuted).statistic,
            permuted[0] / np.sqrt(variance),
            rtol=1e-9,
        )


def test_paired_t_5x2cv_uses_only_first_difference():
    swapped_folds = list(D5)
    swapped_folds[0], swapped_folds[1] = swapped_folds[1], swapped_folds[0]
    # Same variance; numerator 0.02 instead of 0.04.
    assert paired_t_5x2cv(swapped_folds).statistic == pytest.approx(
        paired_t_5x2cv(D5).statistic / 2
    )
    assert combined_f_5x2cv(swapped_folds).statistic == pytest.approx(
        combined_f_5x2cv(D5).statistic
    )


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------


@pytest.mark.parametrize("name", MX2_TESTS)
def test_odd_number_of_splits_names_the_design(name):
    with pytest.raises(
        ValueError,
        match=rf"{name} needs the differences of an m×2 "
        r"design \(2m splits",
    ):
        run(name, [0.1, 0.2, 0.3])


@pytest.mark.parametrize("name", F_TESTS)
@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_f_tests_refuse_one_sided_alternatives(name, alternative):
    with pytest.raises(
        ValueError,
        match=rf"{name} supports alternative in "
        r"\['two-sided'\] only",
    ):
        run(name, D5, alternative=alternative)


@pytest.mark.parametrize("name", ALL_TESTS)
def test_unknown_alternative(name):
    with pytest.raises(ValueError, match="alternative must be one of"):
        run(name, D5, alternative="bigger")


@pytest.mark.parametrize("name", ALL_TESTS)
@pytest.mark.parametrize("alpha", [0.0, 1.0, -0.1, 1.5, np.nan, True, "0.05"])
def test_alpha_outside_unit_interval(name, alpha):
    with pytest.raises(ValueError, match=r"alpha must be a number in \(0, 1\)"):
        run(name, D5, alpha=alpha)


@pytest.mark.parametrize("name", ALL_TESTS)
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_differences(name, bad):
    d = list(D5)
    d[3] = bad
    with pytest.raises(ValueError, match="differences must be finite; got NaN or inf"):
        run(name, d)


@pytest.mark.parametrize("name", ALL_TESTS)
def test_non_numeric_differences(name):
    with pytest.raises(ValueError, match="differences must be numeric"):
        run(name, ["a"] * 10)


@pytest.mark.parametrize("name", ALL_TESTS)
def test_ragged_differences(name):
    with pytest.raises(
        ValueError,
        match=r"differences must be an array of shape \(n_splits,\); got a ragged",
    ):
        run(name, [[0.1, 0.2], [0.3]])


@pytest.mark.parametrize("name", MX2_TESTS)
def test_no_differences_names_the_mx2_design(name):
    with pytest.raises(
        ValueError,
        match=rf"{name} needs the differences of an m×2 design.*got 0 splits",
    ):
        run(name, [])


@pytest.mark.parametrize("name", ALL_TESTS)
@pytest.mark.parametrize("alternative", [np.array(["greater"]), ["less"], None, 1])
def test_alternative_must_be_a_string(name, alternative):
    with pytest.raises(ValueError, match="alternative must be one of"):
        run(name, D5, alternative=alternative)


@pytest.mark.parametrize("name", ["paired_t", "corrected_t"])
def test_any_design_tests_need_two_splits(name):
    with pytest.raises(ValueError, match=f"{name} needs at least 2 splits"):
        run(name, [0.1])


@pytest.mark.parametrize("argument", ["n_train", "n_test"])
@pytest.mark.parametrize(
    "value", [0, -5, np.nan, np.inf, "90", None, True, np.complex128(90)]
)
def test_corrected_t_bad_sizes(argument, value):
    sizes = {"n_train": 90, "n_test": 10, argument: value}
    with pytest.raises(ValueError, match=f"{argument} must be a positive number"):
        corrected_t(D5, **sizes)


@pytest.mark.parametrize("df1", [0, -1.0, np.inf, np.nan, "7", True, [7], 7 + 0j])
def test_calibrated_f_bad_df1(df1):
    with pytest.raises(ValueError, match="df1 must be None or a positive number"):
        calibrated_f_5x2bcv(D5, df1=df1)


@pytest.mark.parametrize("bad", [np.array([1 + 0j] * 10), [1j] * 10])
def test_complex_differences_are_refused(bad):
    with pytest.raises(ValueError, match="differences must be numeric"):
        paired_t(bad)


# --------------------------------------------------------------------------
# bcv_t: the mean difference under seed 000's BCV variance model
# --------------------------------------------------------------------------


def test_bcv_t_hand_value():
    # dbar = 0.03, SS = 12e-4, 2m·V_5 = 1 + .5 + 8·.5 = 5.5,
    # se = sqrt(5.5 · 12e-4 / (10 · (10 - 5.5))) = 0.0121106
    d = [0.04, 0.02, 0.03, 0.01, 0.05, 0.03, 0.02, 0.04, 0.03, 0.03]
    result = get_test("bcv_t")(differences=d)
    se = math.sqrt(5.5 * 12e-4 / (10 * 4.5))
    assert_allclose(result.std_error, se, rtol=1e-12)
    assert_allclose(result.statistic, 0.03 / se, rtol=1e-12)
    assert_allclose(result.pvalue, 2 * stats.t.sf(0.03 / se, 9), rtol=1e-10)
    assert result.df == 9
    assert_allclose(result.mean_difference, 0.03, rtol=1e-12)
    assert_allclose(result.variance_factor, 0.55)
    q = stats.t.isf(0.025, 9)
    assert_allclose(result.confidence_interval, (0.03 - q * se, 0.03 + q * se))


@given(
    st.lists(st.floats(-1, 1), min_size=2, max_size=16).filter(
        lambda v: len(v) % 2 == 0
    ),
    st.sampled_from(ALTERNATIVES),
)
def test_bcv_t_with_default_rhos_is_the_corrected_t_of_two_fold_cv(d, alternative):
    # With rho1 = rho2 = 1/2, V_m·s² = (m + 1/2)·SS / (2m(m - 1/2)), which is
    # Nadeau and Bengio's (1/J + n_test/n_train)·SS/(J - 1) with J = 2m and
    # n_test = n_train: two derivations, one number.
    ours = bcv_t(d, alternative=alternative)
    theirs = corrected_t(d, n_train=50, n_test=50, alternative=alternative)
    assert_allclose(ours.statistic, theirs.statistic, rtol=1e-9, atol=1e-12)
    assert_allclose(ours.pvalue, theirs.pvalue, rtol=1e-9, atol=1e-12)
    assert ours.df == theirs.df


def test_bcv_t_variance_model_by_simulation():
    # Normal differences with the model's correlations: t is t(2m - 1)
    # exactly for rho1 = rho2 = 1/2 (the contrasts have equal variances).
    m, rho1, rho2 = 3, 0.5, 0.5
    cov = np.full((2 * m, 2 * m), rho2)
    for r in range(m):
        cov[2 * r : 2 * r + 2, 2 * r : 2 * r + 2] = [[1, rho1], [rho1, 1]]
    d = np.random.default_rng(0).multivariate_normal(np.zeros(2 * m), cov, 200_000)
    result = bcv_t(d, rho1=rho1, rho2=rho2)
    assert_allclose(np.mean(result.pvalue < 0.05), 0.05, atol=0.003)
    assert stats.kstest(result.statistic[:20_000], "t", args=(2 * m - 1,)).pvalue > 0.01


def test_bcv_t_batch_zero_variance_and_errors():
    d = np.array([[0.1] * 6, [0.0] * 6, [0.1, 0.2, 0.1, 0.3, 0.0, 0.1]])
    batch = bcv_t(d)
    for row, stat in zip(d, batch.statistic):
        assert_allclose(bcv_t(row).statistic, stat)
    assert batch.statistic[0] == np.inf and batch.pvalue[0] == 0
    assert batch.statistic[1] == 0 and batch.pvalue[1] == 1
    with pytest.raises(ValueError, match="rho2 must be at most"):
        bcv_t(d, rho1=0.0, rho2=0.6)
    with pytest.raises(ValueError, match="m×2 design"):
        bcv_t([0.1, 0.2, 0.3])


def test_bcv_t_smaller_rho_is_more_liberal():
    d = [0.04, 0.02, 0.03, 0.01, 0.05, 0.03, 0.02, 0.04, 0.03, 0.03]
    assert bcv_t(d, rho2=0.2).statistic > bcv_t(d).statistic


def test_blocked_t_is_exactly_t3_at_the_bcv_correlations():
    """Under the normal model with rho1 = 0 (folds of one repetition) and
    rho2 = 1/2 (folds of different repetitions), the blocked 3×2 statistic
    is exactly t(3), not the t(5) it is referred to (its sum of squares is
    sigma**2 chi2(3)); it is t(5) when rho1 = rho2 = (m - 1)/(2m - 1) = 2/5
    (sum of squares (1 - rho) sigma**2 chi2(5), matching variance)."""
    from scipy import stats as scipy_stats

    from sklearn_bcv.stats import blocked_t_3x2cv

    rng = np.random.default_rng(0)
    repetition = np.repeat(np.arange(3), 2)
    same = repetition[:, None] == repetition[None, :]
    for rho1, rho2, exact, other in ((0.0, 0.5, 3, 5), (0.4, 0.4, 5, 3)):
        cov = np.where(same, rho1, rho2)
        np.fill_diagonal(cov, 1.0)
        draws = rng.multivariate_normal(np.zeros(6), cov, size=40_000)
        statistic = blocked_t_3x2cv(draws).statistic
        assert scipy_stats.kstest(statistic, "t", args=(exact,)).pvalue > 1e-3
        assert scipy_stats.kstest(statistic, "t", args=(other,)).pvalue < 1e-6
