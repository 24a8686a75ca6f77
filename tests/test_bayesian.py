"""Tests of the Bayesian correlated t test (sklearn_bcv._bayesian)."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats

from sklearn_bcv import get_test
from sklearn_bcv.stats import bayesian_correlated_t, corrected_t
from sklearn_bcv.stats._registry import get_test_info

pytestmark = pytest.mark.filterwarnings("error")

# 10-fold CV of 100 records.
D10 = [0.02, 0.01, 0.03, 0.02, 0.02, 0.04, 0.0, 0.01, 0.03, 0.02]
PROBABILITIES = ("p_a_better", "p_rope", "p_b_better")


def differences(min_size=2, max_size=12):
    """Accuracy-like differences (multiples of 0.01)."""
    return st.lists(st.integers(-100, 100), min_size=min_size, max_size=max_size).map(
        lambda values: np.array(values) / 100.0
    )


def probabilities(result):
    return np.array([result[key] for key in PROBABILITIES])


def test_registered():
    assert get_test_info("bayesian_correlated_t") == (
        ("differences", "n_train", "n_test"),
        "any",
    )
    result = get_test("bayesian_correlated_t")(differences=D10, n_train=90, n_test=10)
    assert result.test == "bayesian_correlated_t"
    assert result.pvalue is None
    assert set(result) >= {
        "statistic",
        "df",
        "reject",
        "alternative",
        "rope",
        "loc",
        "scale",
        *PROBABILITIES,
    }


def test_posterior_parameters_by_hand():
    # dbar = 0.02, s2 = 12e-4 / 9, rho = 10/100 so rho / (1 - rho) = 1/9:
    # scale = sqrt((1/10 + 1/9) * 12e-4 / 9), df = 9.
    result = bayesian_correlated_t(D10, n_train=90, n_test=10)
    assert result.loc == pytest.approx(0.02, rel=1e-12)
    assert result.statistic == result.loc
    assert result.scale == pytest.approx(math.sqrt(19 / 90 * 12e-4 / 9), rel=1e-12)
    assert result.df == 9
    assert result.rope == 0.0


@pytest.mark.parametrize("rope", [0.0, 0.005, 0.01, 0.03])
def test_probabilities_match_scipy_location_scale_t(rope):
    # scipy's loc/scale Student t is a second, independent evaluation.
    result = bayesian_correlated_t(D10, n_train=90, n_test=10, rope=rope)
    posterior = stats.t(result.df, loc=result.loc, scale=result.scale)
    assert result.p_a_better == pytest.approx(posterior.sf(rope), rel=1e-10)
    assert result.p_b_better == pytest.approx(posterior.cdf(-rope), rel=1e-10)
    assert result.p_rope == pytest.approx(
        posterior.cdf(rope) - posterior.cdf(-rope), abs=1e-12
    )


def test_rope_zero_matches_corrected_t(rng):
    # Seed 002, Corollary 1: P(mu > 0) = 1 - p of the one-sided corrected t test.
    d = rng.normal(0.005, 0.03, size=(50, 10))
    bayes = bayesian_correlated_t(d, n_train=90, n_test=10)
    frequentist = corrected_t(d, n_train=90, n_test=10, alternative="greater")
    assert_allclose(bayes.p_a_better, 1.0 - frequentist.pvalue, rtol=1e-10)
    less = corrected_t(d, n_train=90, n_test=10, alternative="less")
    assert_allclose(bayes.p_b_better, 1.0 - less.pvalue, rtol=1e-10)
    assert_allclose(bayes.p_rope, 0.0, atol=1e-15)


def constant_differences():
    """Equal differences (zero variance): a point-mass posterior."""
    return st.tuples(st.integers(-100, 100), st.integers(2, 12)).map(
        lambda value_size: np.full(value_size[1], value_size[0] / 100.0)
    )


@given(
    d=st.one_of(differences(), constant_differences()),
    n_train=st.integers(1, 1000),
    n_test=st.integers(1, 1000),
)
def test_rope_zero_is_one_minus_corrected_t_pvalue(d, n_train, n_test):
    # Corollary 1 as a property, degenerate inputs included: with zero
    # variance the point mass gives 0 or 1, and corrected_t gives p = 1 (0/0)
    # or a p of 0 / 1 on the two sides of an infinite statistic.
    bayes = bayesian_correlated_t(d, n_train, n_test)
    greater = corrected_t(d, n_train, n_test, alternative="greater")
    less = corrected_t(d, n_train, n_test, alternative="less")
    assert bayes.p_a_better == pytest.approx(1.0 - greater.pvalue, abs=1e-12)
    assert bayes.p_b_better == pytest.approx(1.0 - less.pvalue, abs=1e-12)
    assert bayes.loc == pytest.approx(np.mean(d), abs=1e-15)
    assert bayes.df == corrected_t(d, n_train, n_test).df


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_one_sided_decision_equals_corrected_t(alternative, rng):
    d = rng.normal(0.0, 0.03, size=(400, 10))
    bayes = bayesian_correlated_t(d, 90, 10, alternative=alternative, alpha=0.1)
    frequentist = corrected_t(d, 90, 10, alternative=alternative, alpha=0.1)
    assert np.array_equal(bayes.reject, frequentist.reject)
    assert 0 < frequentist.reject.sum() < 400  # both outcomes occur


def test_two_sided_decision_is_either_direction(rng):
    d = rng.normal(0.0, 0.03, size=(400, 10))
    result = bayesian_correlated_t(d, 90, 10, alpha=0.1)
    expected = (result.p_a_better > 0.9) | (result.p_b_better > 0.9)
    assert np.array_equal(result.reject, expected)
    # ... which is the two-sided corrected t test at level 2 alpha.
    assert np.array_equal(result.reject, corrected_t(d, 90, 10, alpha=0.2).reject)


def test_hand_example_with_rope():
    result = bayesian_correlated_t(D10, n_train=90, n_test=10, rope=0.01)
    # (0.01 - 0.02) / scale = -1.8848: P(mu > rope) = t9.cdf(1.8848).
    z = 0.01 / math.sqrt(19 / 90 * 12e-4 / 9)
    assert result.p_a_better == pytest.approx(stats.t.cdf(z, 9), rel=1e-10)
    assert result.p_a_better == pytest.approx(0.954, abs=5e-4)
    assert result.reject is True
    assert bayesian_correlated_t(D10, 90, 10, rope=0.01, alternative="less").reject is (
        False
    )


@pytest.mark.parametrize(
    "dbar, rope, expected",
    [
        (0.02, 0.01, (1.0, 0.0, 0.0)),
        (0.01, 0.01, (0.0, 1.0, 0.0)),  # the rope is closed
        (-0.01, 0.01, (0.0, 1.0, 0.0)),
        (0.005, 0.01, (0.0, 1.0, 0.0)),
        (-0.02, 0.01, (0.0, 0.0, 1.0)),
        (0.0, 0.0, (0.0, 1.0, 0.0)),
        (0.02, 0.0, (1.0, 0.0, 0.0)),
        (-0.02, 0.0, (0.0, 0.0, 1.0)),
    ],
)
def test_zero_variance_is_a_point_mass(dbar, rope, expected):
    result = bayesian_correlated_t([dbar] * 5, n_train=80, n_test=20, rope=rope)
    assert result.scale == 0.0
    assert result.loc == pytest.approx(dbar)
    assert tuple(probabilities(result)) == expected
    assert result.reject == (expected[1] == 0.0)


@pytest.mark.parametrize("n_splits, value", [(3, 0.1), (10, 0.02), (9, -0.03)])
def test_constant_differences_on_the_rope_edge_are_inside(n_splits, value):
    # np.mean of these equal values is off by one ulp (e.g. 3 x 0.1 averages
    # to 0.10000000000000002); the closed rope must still contain them.
    result = bayesian_correlated_t([value] * n_splits, 90, 10, rope=abs(value))
    assert result.loc == value
    assert tuple(probabilities(result)) == (0.0, 1.0, 0.0)


def test_batched_equals_loop(rng):
    d = rng.normal(0.0, 0.03, size=(3, 4, 10))
    d[1, 2] = 0.01  # a point mass inside the batch
    batched = bayesian_correlated_t(d, 90, 10, rope=0.01)
    assert np.shape(batched.p_rope) == (3, 4)
    for index in np.ndindex(3, 4):
        single = bayesian_correlated_t(d[index], 90, 10, rope=0.01)
        for key in (*PROBABILITIES, "loc", "scale", "statistic"):
            assert single[key] == pytest.approx(batched[key][index], rel=1e-12)
        assert single.reject == batched.reject[index]


def test_single_comparison_gives_python_scalars():
    result = bayesian_correlated_t(D10, 90, 10)
    for key in (*PROBABILITIES, "loc", "scale", "statistic"):
        assert type(result[key]) is float
    assert type(result.reject) is bool


@given(d=differences(), rope=st.floats(0.0, 0.5))
def test_probabilities_sum_to_one(d, rope):
    p = probabilities(bayesian_correlated_t(d, 90, 10, rope=rope))
    assert np.all((p >= 0) & (p <= 1))
    assert p.sum() == pytest.approx(1.0, abs=1e-12)


@given(d=differences(), ropes=st.lists(st.floats(0.0, 0.5), min_size=2, max_size=5))
def test_rope_monotonicity(d, ropes):
    # A wider rope can only move probability into it, from both sides.
    results = [bayesian_correlated_t(d, 90, 10, rope=r) for r in sorted(ropes)]
    for narrow, wide in zip(results, results[1:]):
        assert wide.p_rope >= narrow.p_rope - 1e-12
        assert wide.p_a_better <= narrow.p_a_better + 1e-12
        assert wide.p_b_better <= narrow.p_b_better + 1e-12


@given(d=differences(), rope=st.floats(0.0, 0.5))
def test_swapping_a_and_b_swaps_the_probabilities(d, rope):
    ab = bayesian_correlated_t(d, 90, 10, rope=rope)
    ba = bayesian_correlated_t(-d, 90, 10, rope=rope)
    assert ba.loc == -ab.loc
    assert ba.scale == ab.scale
    assert ba.p_a_better == pytest.approx(ab.p_b_better, rel=1e-9, abs=1e-15)
    assert ba.p_b_better == pytest.approx(ab.p_a_better, rel=1e-9, abs=1e-15)
    assert ba.p_rope == pytest.approx(ab.p_rope, rel=1e-9, abs=1e-12)


@given(d=differences(), scale=st.floats(0.01, 100.0))
def test_scaling_differences_and_rope_together(d, scale):
    # Expressing scores in other units (and the rope with them) changes nothing.
    base = probabilities(bayesian_correlated_t(d, 90, 10, rope=0.02))
    scaled = probabilities(bayesian_correlated_t(scale * d, 90, 10, rope=scale * 0.02))
    assert_allclose(scaled, base, atol=1e-7)


@pytest.mark.parametrize("rope", [-0.01, np.nan, np.inf, "0.01", None, True])
def test_bad_rope(rope):
    with pytest.raises(ValueError, match="rope must be a finite number >= 0"):
        bayesian_correlated_t(D10, 90, 10, rope=rope)


@pytest.mark.parametrize("argument", ["n_train", "n_test"])
@pytest.mark.parametrize("value", [0, -1, np.nan, np.inf, "90"])
def test_bad_sizes(argument, value):
    sizes = {"n_train": 90, "n_test": 10, argument: value}
    with pytest.raises(ValueError, match=f"{argument} must be a positive number"):
        bayesian_correlated_t(D10, **sizes)


@pytest.mark.parametrize("alpha", [0.0, 1.0, np.nan, 2])
def test_bad_alpha(alpha):
    with pytest.raises(ValueError, match=r"alpha must be a number in \(0, 1\)"):
        bayesian_correlated_t(D10, 90, 10, alpha=alpha)


def test_bad_alternative():
    with pytest.raises(ValueError, match="alternative must be one of"):
        bayesian_correlated_t(D10, 90, 10, alternative="A")


@pytest.mark.parametrize("bad", [np.nan, -np.inf])
def test_non_finite_differences(bad):
    with pytest.raises(ValueError, match="differences must be finite; got NaN or inf"):
        bayesian_correlated_t([0.1, bad, 0.2], 90, 10)


def test_needs_two_splits():
    with pytest.raises(ValueError, match="bayesian_correlated_t needs at least 2"):
        bayesian_correlated_t([0.1], 90, 10)


@given(
    st.lists(
        st.sampled_from([-0.03, -0.01, 0.0, 0.005, 0.01, 0.02, 0.035, 0.05]),
        min_size=2,
        max_size=12,
    )
)
def test_a_rope_of_zero_holds_no_mass_exactly(values):
    # A continuous posterior puts no mass on the single point 0: P(rope) is
    # 0 itself, not the rounding residue 1 - p - (1 - p) ~ 1e-17, as the
    # Bayesian BCV McNemar's test gives.
    differences = np.array(values)
    result = bayesian_correlated_t(differences=differences, n_train=90, n_test=10)
    if np.ptp(differences) > 0:
        assert result.p_rope == 0.0
        assert_allclose(result.p_a_better + result.p_b_better, 1.0, rtol=0, atol=1e-15)
    else:  # a point mass: in the (closed) rope exactly when it is 0
        assert result.p_rope == float(differences[0] == 0)


def test_a_rope_of_zero_in_both_bayesian_tests_prints_zero():
    differences = np.array(
        [0.03, 0.02, 0.05, 0.03, 0.01, 0.04, 0.02, 0.035, 0.01, 0.02]
    )
    result = bayesian_correlated_t(differences=differences, n_train=100, n_test=100)
    assert result.p_rope == 0.0
    mcnemar = get_test("bayesian_bcv_mcnemar")(tables=[[[20, 12], [4, 64]]] * 10)
    assert mcnemar.p_rope == 0.0
