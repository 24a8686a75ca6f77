"""Tests of the group-sequential boundaries and looks (stats._sequential)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import optimize, stats

from sklearn_bcv.stats import bcv_mcnemar, bcv_t, group_sequential_boundaries
from sklearn_bcv.stats._sequential import (
    FUTILITY_RHO2,
    SEQUENTIAL_TESTS,
    _non_crossing_probability,
    _t_last_look_correlation,
    check_futility,
    check_sequential_test,
    conditional_power,
    first_stop,
    look_decisions,
    look_statistics,
    sequential_boundaries,
    sequential_codes,
    statistic_boundaries,
    variance_factor,
)

pytestmark = pytest.mark.filterwarnings("error")


def _joint_correlation(variances):
    """corr(z_m, z_m') = sqrt(V_m' / V_m) for m <= m' (V decreasing)."""
    v = np.asarray(variances)
    return np.sqrt(np.minimum.outer(v, v) / np.maximum.outer(v, v))


def _mvn_crossing(bounds):
    """P(some look crosses) by scipy's multivariate normal cdf (Genz)."""
    corr = _joint_correlation(bounds.variance_factor)
    mvn = stats.multivariate_normal(np.zeros(len(corr)), corr, seed=0)
    upper = np.where(np.isfinite(bounds.upper), bounds.upper, 40.0)
    lower = np.where(np.isfinite(bounds.lower), bounds.lower, -40.0)
    return 1.0 - mvn.cdf(upper, lower_limit=lower)


@pytest.mark.parametrize("boundary", ["pocock", "obrien_fleming"])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize(
    "looks, rhos", [((3, 7), (0.5, 0.5)), ((1, 6), (0.2, 0.3)), ((2, 4), (-0.3, 0.1))]
)
def test_boundaries_have_level_alpha_under_the_joint_normal_law(
    boundary, alternative, looks, rhos
):
    bounds = group_sequential_boundaries(
        *looks, boundary=boundary, alternative=alternative, rho1=rhos[0], rho2=rhos[1]
    )
    assert_allclose(_mvn_crossing(bounds), 0.05, atol=2e-5)


def test_boundaries_by_simulation_of_the_joint_law():
    # A third computation: seeded draws of the looks' joint law.
    bounds = group_sequential_boundaries(3, 7, boundary="pocock")
    corr = _joint_correlation(bounds.variance_factor)
    z = np.random.default_rng(0).multivariate_normal(np.zeros(5), corr, 400_000)
    crossed = np.any(np.abs(z) >= bounds.upper, axis=1)
    assert_allclose(crossed.mean(), 0.05, atol=3 * np.sqrt(0.05 * 0.95 / 400_000))


@pytest.mark.parametrize(
    "shape, published",
    # Jennison & Turnbull (2000), Tables 2.1 and 2.3: K = 5 equally spaced
    # looks, two-sided alpha = 0.05: Pocock C_P = 2.413, O'Brien-Fleming
    # C_B = 2.040 (the last look's critical value).
    [("pocock", 2.413), ("obrien_fleming", 2.040)],
)
def test_classic_constants_with_equally_spaced_information(shape, published):
    information = np.arange(1.0, 6.0)
    factor = np.ones(5) if shape == "pocock" else np.sqrt(5.0 / information)

    def excess(c):
        return 1 - _non_crossing_probability(c * factor, information, True) - 0.05

    assert_allclose(optimize.brentq(excess, 1.9, 3.5), published, atol=5e-4)


def test_one_look_is_the_fixed_design():
    for alternative, critical in (("two-sided", 1.959964), ("greater", 1.644854)):
        for boundary in ("pocock", "obrien_fleming"):
            bounds = group_sequential_boundaries(
                5, 5, boundary=boundary, alternative=alternative
            )
            assert_allclose(bounds.constant, critical, atol=1e-6)
    bounds = group_sequential_boundaries(5, 5)
    assert_allclose(bounds.nominal_alpha, [0.05])


def test_perfectly_correlated_looks_need_no_penalty():
    # rho2 at eq. 9's bound (1 + rho1)/2: V_m is the same for every m, every
    # look sees the same statistic, and the boundary is the fixed one.
    bounds = group_sequential_boundaries(2, 6, boundary="pocock", rho1=0.0, rho2=0.5)
    assert_allclose(bounds.variance_factor, 0.5)
    assert_allclose(bounds.upper, 1.959964, atol=1e-6)


def test_shapes_and_orderings():
    pocock = group_sequential_boundaries(3, 7, boundary="pocock")
    obf = group_sequential_boundaries(3, 7, boundary="obrien_fleming")
    assert np.ptp(pocock.upper) == 0
    assert np.all(np.diff(obf.upper) < 0)
    assert_allclose(
        obf.upper / obf.upper[-1],
        np.sqrt(obf.variance_factor / obf.variance_factor[-1]),
    )
    # Pocock pays at the last look, O'Brien-Fleming at the first.
    assert pocock.upper[-1] > obf.upper[-1] > 1.959964
    assert pocock.upper[0] < obf.upper[0]
    assert_array_equal(pocock.lower, -pocock.upper)
    more = group_sequential_boundaries(3, 10, boundary="pocock")
    assert more.constant > pocock.constant
    greater = group_sequential_boundaries(3, 7, alternative="greater")
    assert np.all(np.isneginf(greater.lower)) and np.all(greater.upper < obf.upper)
    less = group_sequential_boundaries(3, 7, alternative="less")
    assert_array_equal(less.lower, -greater.upper)
    assert np.all(np.isposinf(less.upper))


@settings(max_examples=12, deadline=None)
@given(
    first=st.integers(1, 6),
    extra=st.integers(0, 4),
    rho1=st.floats(-0.5, 0.8),
    share=st.floats(0.0, 0.95),
    alpha=st.floats(0.005, 0.2),
    boundary=st.sampled_from(["pocock", "obrien_fleming"]),
)
def test_level_property(first, extra, rho1, share, alpha, boundary):
    rho2 = share * (1 + rho1) / 2
    bounds = group_sequential_boundaries(
        first, first + extra, boundary=boundary, alpha=alpha, rho1=rho1, rho2=rho2
    )
    crossing = 1 - _non_crossing_probability(
        bounds.upper, 1 / bounds.variance_factor, True
    )
    assert_allclose(crossing, alpha, rtol=1e-5)
    assert np.all(bounds.upper >= stats.norm.isf(alpha / 2) - 1e-9)


def test_variance_factor_is_the_inverse_of_bcv_mcnemars_t():
    tables = np.tile([[10, 3], [7, 80]], (10, 1, 1))
    assert_allclose(variance_factor(5, 0.5, 0.5), 1 / bcv_mcnemar(tables).t)
    assert_allclose(
        variance_factor(5, 0.2, 0.3), 1 / bcv_mcnemar(tables, rho1=0.2, rho2=0.3).t
    )


def test_look_statistics_are_the_registered_tests_on_prefixes():
    rng = np.random.default_rng(0)
    n01 = rng.integers(0, 15, size=(4, 14))
    n10 = rng.integers(0, 15, size=(4, 14))
    tables = np.empty((4, 14, 2, 2), dtype=np.int64)
    tables[..., 0, 0], tables[..., 0, 1], tables[..., 1, 0] = 30, n01, n10
    tables[..., 1, 1] = 70 - n01 - n10
    looks = look_statistics(SEQUENTIAL_TESTS["bcv_mcnemar"], tables, [3, 5, 7])
    for j, m in enumerate([3, 5, 7]):
        assert_allclose(looks.statistic[:, j], bcv_mcnemar(tables[:, : 2 * m]).z)
    d = rng.normal(0.01, 0.02, size=(4, 14))
    looks = look_statistics(SEQUENTIAL_TESTS["bcv_t"], d, [3, 7], params={"rho2": 0.3})
    assert_allclose(looks.statistic[:, 1], bcv_t(d, rho2=0.3).statistic)
    assert_allclose(looks.estimate[:, 0], d[:, :6].mean(axis=1))
    q = stats.t.isf(0.025, 5)
    assert_allclose(looks.high[:, 0] - looks.low[:, 0], 2 * q * looks.std_error[:, 0])


def test_mcnemar_location_is_the_accuracy_difference():
    # nbar = [[30, 4], [10, 56]]: A right and B wrong on 10, the reverse on 4.
    tables = np.tile([[30, 4], [10, 56]], (6, 1, 1))
    looks = look_statistics(SEQUENTIAL_TESTS["bcv_mcnemar"], tables, [3])
    assert_allclose(looks.estimate, [0.06])
    t = 6 / (1.5 + 2 * 0.5 * 2)
    assert_allclose(looks.std_error, [np.sqrt((0.14 - 0.06**2) / (t * 100))])


def test_t_statistics_use_the_same_nominal_level():
    bounds = group_sequential_boundaries(3, 7)
    lower, upper = statistic_boundaries(SEQUENTIAL_TESTS["bcv_t"], bounds)
    levels = 2 * stats.t.sf(upper, 2 * bounds.repeats - 1)
    assert_allclose(levels, bounds.nominal_alpha)
    assert np.all(upper > bounds.upper)
    assert_array_equal(lower, -upper)
    same = statistic_boundaries(SEQUENTIAL_TESTS["bcv_mcnemar"], bounds)
    assert_array_equal(same[1], bounds.upper)


def test_look_decisions_and_first_stop():
    statistic = np.array([[0.5, 2.5, 0.1], [-3.0, 0.0, 0.0], [0.1, 0.2, 0.3]])
    codes = look_decisions(statistic, -2.0, 2.0)
    assert_array_equal(codes, [[0, 1, 0], [-1, 0, 0], [0, 0, 0]])
    index, decision = first_stop(codes)
    assert_array_equal(index, [1, 0, 2])
    assert_array_equal(decision, [1, -1, 0])
    # The rope: an interval inside [-rope, rope] stops with "no difference",
    # unless the statistic crosses at that look.
    codes = look_decisions(
        [0.1, 2.5], -2.0, 2.0, low=[-0.01, -0.01], high=[0.01, 0.01], rope=0.02
    )
    assert_array_equal(codes, [2, 1])
    assert_array_equal(
        look_decisions([0.1], -2, 2, low=[-0.03], high=[0.01], rope=0.02), [0]
    )


def test_bad_input():
    with pytest.raises(ValueError, match="min_repeats must be at most max_repeats"):
        group_sequential_boundaries(5, 3)
    with pytest.raises(ValueError, match="boundary must be one of"):
        group_sequential_boundaries(3, 5, boundary="haybittle")
    with pytest.raises(ValueError, match="min_repeats must be an integer"):
        group_sequential_boundaries(0, 5)
    with pytest.raises(ValueError, match="max_repeats must be an integer"):
        group_sequential_boundaries(1, 2.5)
    with pytest.raises(ValueError, match="alpha"):
        group_sequential_boundaries(3, 5, alpha=1.5)
    with pytest.raises(ValueError, match="rho2 must be at most"):
        group_sequential_boundaries(3, 5, rho1=0.0, rho2=0.7)
    with pytest.raises(ValueError, match="has no sequential form"):
        check_sequential_test("calibrated_f_5x2bcv")
    with pytest.raises(ValueError, match="is not a registered test"):
        check_sequential_test("no_such_test")


def test_a_signed_zero_look_statistic_is_zero():
    # B ahead by less than the continuity correction: bcv_mcnemar's z is
    # -0.0; the look statistic is 0 (it prints as 0, not -0).
    tables = np.array([[[50, 3], [2, 45]], [[50, 2], [2, 46]]])
    assert np.signbit(bcv_mcnemar(tables).z)
    looks = look_statistics(SEQUENTIAL_TESTS["bcv_mcnemar"], tables, [1])
    assert looks.statistic[0] == 0 and not np.signbit(looks.statistic[0])


def _model_draws(m, rho1, rho2, n, seed):
    cov = np.full((2 * m, 2 * m), rho2)
    for r in range(m):
        cov[2 * r : 2 * r + 2, 2 * r : 2 * r + 2] = [[1, rho1], [rho1, 1]]
    rng = np.random.default_rng(seed)
    return rng.multivariate_normal(np.zeros(2 * m), cov, n)


@pytest.mark.parametrize("boundary", ["pocock", "obrien_fleming"])
@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_t_boundaries_have_level_alpha_under_the_model(boundary, alternative):
    # Fresh draws of the model (another generator, another seed than the
    # calibration's): the t looks cross with probability alpha. The normal
    # law's boundaries, at the same nominal levels, would cross in ~6.6%.
    form, bounds, lower, upper = sequential_boundaries(
        "bcv_t", 3, 7, boundary=boundary, alpha=0.05, alternative=alternative
    )
    assert bounds.statistic == "t"
    d = _model_draws(7, 0.5, 0.5, 100_000, seed=7)
    looks = look_statistics(form, d, bounds.repeats)
    _, decision = first_stop(look_decisions(looks.statistic, lower, upper))
    se = np.sqrt(0.05 * 0.95 / 100_000)
    assert abs(np.mean(decision != 0) - 0.05) < 4 * se
    normal = group_sequential_boundaries(
        3, 7, boundary=boundary, alternative=alternative
    )
    naive = statistic_boundaries(form, normal)
    _, decision = first_stop(look_decisions(looks.statistic, *naive))
    assert np.mean(decision != 0) > 0.05 + 4 * se


def test_t_boundaries_with_other_correlations():
    form, bounds, lower, upper = sequential_boundaries(
        "bcv_t",
        2,
        5,
        boundary="pocock",
        alpha=0.1,
        alternative="two-sided",
        params={"rho1": 0.2, "rho2": 0.1},
    )
    d = _model_draws(5, 0.2, 0.1, 100_000, seed=8)
    looks = look_statistics(form, d, bounds.repeats, params={"rho1": 0.2, "rho2": 0.1})
    _, decision = first_stop(look_decisions(looks.statistic, lower, upper))
    assert abs(np.mean(decision != 0) - 0.1) < 4 * np.sqrt(0.1 * 0.9 / 100_000)
    with pytest.raises(ValueError, match="statistic must be"):
        group_sequential_boundaries(2, 5, statistic="z")


# --------------------------------------------------------------------------
# Futility: conditional power under the current trend


def test_conditional_power_by_hand():
    # The boundaries' rho1 = rho2 = 0.5, the conditional power's law with
    # rho2 = FUTILITY_RHO2 = 0.2: V_3 = 2.3/6, V_7 = 3.9/14, so
    # I_7/I_3 = 161/117. Given z_3 under the trend theta = z_3/sqrt(I_3),
    # z_7 is normal with mean z_3·sqrt(161/117), variance 1 - 117/161.
    assert FUTILITY_RHO2 == 0.2
    form = SEQUENTIAL_TESTS["bcv_mcnemar"]
    bounds = group_sequential_boundaries(3, 7)
    c = bounds.upper[-1]
    z3 = np.array([0.0, 1.5, -1.8, 2.0])
    mean, sd = z3 * np.sqrt(161 / 117), np.sqrt(44 / 161)
    expected = stats.norm.sf((c - mean) / sd) + stats.norm.cdf((-c - mean) / sd)
    power = conditional_power(form, z3[:, None], bounds)[:, 0]
    assert_allclose(power, expected, rtol=1e-12)
    assert_allclose(power[1], 0.2768, atol=5e-4)
    # at the last look: whether it crossed
    statistic = np.array([[0.5, 1.0, 1.2, 1.9, 2.5], [0.5, 1.0, 1.2, 1.9, 1.0]])
    power = conditional_power(form, statistic, bounds)
    assert_array_equal(power[:, -1], [1.0, 0.0])
    # at look 5 only: I_7/I_5 = V_5/V_7 with rho2 = 0.2
    variances = variance_factor(bounds.repeats, 0.5, 0.2)
    ratio = variances[2] / variances[-1]
    mean5, sd5 = 1.2 * np.sqrt(ratio), np.sqrt(1 - 1 / ratio)
    assert_allclose(
        power[0, 2],
        stats.norm.sf((c - mean5) / sd5) + stats.norm.cdf((-c - mean5) / sd5),
    )
    # the same look given by its m
    assert_allclose(conditional_power(form, [1.2], bounds, [5]), power[0, 2])


def test_conditional_power_keeps_a_smaller_rho2():
    # the boundaries' own rho2 when it is below FUTILITY_RHO2: with
    # rho1 = 0.5, rho2 = 0.1, V_3 = 1.9/6 and V_7 = 2.7/14, I_7/I_3 = 133/81
    form = SEQUENTIAL_TESTS["bcv_mcnemar"]
    bounds = group_sequential_boundaries(3, 7, rho1=0.5, rho2=0.1)
    c = bounds.upper[-1]
    z3 = np.array([0.5, 1.5])
    mean, sd = z3 * np.sqrt(133 / 81), np.sqrt(1 - 81 / 133)
    expected = stats.norm.sf((c - mean) / sd) + stats.norm.cdf((-c - mean) / sd)
    assert_allclose(conditional_power(form, z3[:, None], bounds)[:, 0], expected)


def test_conditional_power_one_sided_reads_one_tail():
    form = SEQUENTIAL_TESTS["bcv_mcnemar"]
    greater = group_sequential_boundaries(3, 7, alternative="greater")
    less = group_sequential_boundaries(3, 7, alternative="less")
    z = np.array([[-1.9], [-1.0], [1.0], [1.9]])
    up, down = conditional_power(form, z, greater), conditional_power(form, z, less)
    mean, sd = z[:, 0] * np.sqrt(161 / 117), np.sqrt(44 / 161)
    assert_allclose(up[:, 0], stats.norm.sf((greater.upper[-1] - mean) / sd))
    assert_allclose(down[:, 0], stats.norm.cdf((less.lower[-1] - mean) / sd))
    assert_allclose(up[::-1, 0], down[:, 0])  # mirror images


def test_t_form_reads_the_correlation_of_its_normal_scores():
    form = SEQUENTIAL_TESTS["bcv_t"]
    correlation = np.array(_t_last_look_correlation(3, 7, 0.5, 0.5))
    normal = np.sqrt(
        variance_factor(7, 0.5, 0.5) / variance_factor(range(3, 8), 0.5, 0.5)
    )
    assert correlation[-1] == 1.0
    assert np.all(correlation[:-1] < normal[:-1])
    assert correlation[0] < normal[0] - 0.02  # 0.93 against 0.96
    # fresh draws of the model, another generator and seed
    draws = _model_draws(7, 0.5, 0.5, 40_000, seed=11)
    looks = look_statistics(form, draws, range(3, 8))
    scores = stats.norm.isf(stats.t.sf(looks.statistic, 2 * np.arange(3, 8) - 1))
    fresh = np.corrcoef(scores, rowvar=False)[:, -1]
    assert_allclose(correlation, fresh, atol=0.005)
    # t = 2.2 at look 3 read on the normal scale, I_7/I_3 = 1/corr**2 with
    # the correlation of the model with rho2 = FUTILITY_RHO2
    used = np.array(_t_last_look_correlation(3, 7, 0.5, FUTILITY_RHO2))
    assert used[0] < correlation[0] - 0.03
    bounds = group_sequential_boundaries(3, 7, statistic="t")
    z = stats.norm.isf(stats.t.sf(2.2, 5))
    mean, sd = z / used[0], np.sqrt(1 - used[0] ** 2)
    c = bounds.upper[-1]
    expected = stats.norm.sf((c - mean) / sd) + stats.norm.cdf((-c - mean) / sd)
    assert_allclose(conditional_power(form, [2.2], bounds, [3]), expected)


def test_look_decisions_with_futility():
    power = np.array([0.05, 0.05, 0.5, 0.05, np.nan])
    statistic = np.array([0.1, 2.5, 0.1, 0.1, 0.1])
    codes = look_decisions(
        statistic,
        -2.0,
        2.0,
        low=[-1, -1, -1, -0.01, -1],
        high=[1, 1, 1, 0.01, 1],
        rope=0.02,
        power=power,
        futility_threshold=0.1,
    )
    # futility, the crossing wins, go on, the rope wins, no futility at NaN
    assert_array_equal(codes, [3, 1, 0, 2, 0])
    assert_array_equal(
        look_decisions(statistic, -2.0, 2.0, power=power), [0, 1, 0, 0, 0]
    )


@pytest.mark.parametrize("test", ["bcv_mcnemar", "bcv_t"])
@pytest.mark.parametrize("shift", [0.0, 0.25])
def test_futility_is_non_binding(test, shift):
    # On the same paths, a futility stop only turns a rejection into a stop
    # for futility, never the other way: the efficacy decisions with
    # futility are a subset of those without, at the same looks.
    form, bounds, lower, upper = sequential_boundaries(
        test, 3, 7, boundary="pocock", alpha=0.05, alternative="two-sided"
    )
    draws = _model_draws(7, 0.5, 0.5, 4000, seed=3) + shift
    if test == "bcv_mcnemar":  # tables of 100 records: A right on a share
        rng = np.random.default_rng(4)
        n10 = rng.binomial(100, np.clip(0.10 + 0.04 * draws, 0, 1))
        n01 = rng.binomial(100, 0.10, size=n10.shape)
        draws = np.zeros(n10.shape + (2, 2), dtype=np.int64)
        draws[..., 1, 0], draws[..., 0, 1] = n10, n01
        draws[..., 1, 1] = 400 - n10 - n01
    looks = look_statistics(form, draws, bounds.repeats)
    _, plain = sequential_codes(form, looks, bounds, lower, upper)
    power, futile = sequential_codes(
        form, looks, bounds, lower, upper, futility_threshold=0.1
    )
    assert not np.any(plain == 3)
    assert np.all(futile[:, -1] != 3)  # never at the last look
    assert np.all(
        (futile == 3)
        == ((power < 0.1) & (np.abs(plain) != 1))[:, :] * (bounds.repeats < 7)
    )
    i_plain, d_plain = first_stop(plain)
    i_futile, d_futile = first_stop(futile)
    rejected = np.abs(d_futile) == 1
    assert np.all(d_plain[rejected] == d_futile[rejected])
    assert np.all(i_plain[rejected] == i_futile[rejected])
    assert np.all(i_futile <= i_plain)
    assert np.mean(np.abs(d_futile) == 1) <= np.mean(np.abs(d_plain) == 1)


def test_check_futility():
    assert check_futility(None, 0.5) is None
    assert check_futility("conditional_power", 0.2) == 0.2
    with pytest.raises(ValueError, match="futility must be one of"):
        check_futility("predictive", 0.1)
    with pytest.raises(ValueError, match="futility_threshold must be"):
        check_futility("conditional_power", 1.0)
    with pytest.raises(ValueError, match="futility_threshold must be"):
        check_futility("conditional_power", float("nan"))
