"""Tests of the Bayesian m×2 BCV McNemar test (sklearn_bcv.stats._bayesian_bcv)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import integrate, special, stats
from sklearn.base import BaseEstimator, ClassifierMixin

from sklearn_bcv import (
    BlockRegularized5x2CV,
    available_tests,
    compare_estimators,
    compare_predictions,
    get_test,
)
from sklearn_bcv._constants import ALTERNATIVES
from sklearn_bcv.stats import bayesian_bcv_mcnemar, bcv_mcnemar
from sklearn_bcv.stats._bayesian import posterior_decision
from sklearn_bcv.stats._bayesian_bcv import difference_pdf, difference_tails
from sklearn_bcv.stats._registry import get_entry, get_test_info

pytestmark = pytest.mark.filterwarnings("error")

PROBABILITIES = ("p_a_better", "p_rope", "p_b_better")

# The ten tables of bcv_mcnemar's docstring: a 5×2 BCV of 200 records (100
# test records a split); the mean discordant counts are 3.3 (A wrong, B
# right) and 7.7 (A right, B wrong), so with t = 20/11 the effective table is
# [[200/11, 6], [14, 1580/11]].
N01 = np.array([3, 4, 2, 5, 3, 4, 3, 2, 4, 3])
N10 = np.array([8, 7, 9, 6, 8, 9, 7, 8, 6, 9])
TABLES = np.array([[[10, a], [b, 90 - a - b]] for a, b in zip(N01, N10)])


def probabilities(result):
    return np.array([result[key] for key in PROBABILITIES])


def tables_with(c00, c01, c10, c11, n_splits=10):
    """2m identical tables: the mean table is the one given."""
    return np.tile(np.array([[c00, c01], [c10, c11]]), (n_splits, 1, 1))


def swap_estimators(tables):
    return np.swapaxes(tables, -1, -2)


def monte_carlo(result, rope, n_draws=10**6, seed=0):
    """P(Δ > rope), P(Δ < -rope) and E[Δ] from Dirichlet draws of the
    posterior (effective table + prior), and the Monte Carlo standard error
    of a probability."""
    rng = np.random.default_rng(seed)
    cells = (result.effective_table + result.prior).ravel()  # 00, 01, 10, 11
    draws = rng.dirichlet(cells, size=n_draws)
    delta = draws[:, 2] - draws[:, 1]
    se = 0.5 / np.sqrt(n_draws)
    return (delta > rope).mean(), (delta < -rope).mean(), delta.mean(), se


def quad_tail(posterior_s, posterior_theta, rope):
    """P(Δ > rope) by adaptive quadrature over s (scipy.integrate.quad),
    split at quantiles of s so that a concentrated posterior is seen."""
    a_s, b_s = posterior_s
    a10, a01 = posterior_theta

    def integrand(s):
        inner = special.betainc(a01, a10, max(0.5 - rope / (2 * s), 0.0))
        return stats.beta.pdf(s, a_s, b_s) * inner

    levels = np.concatenate(
        [[1e-15, 1e-12, 1e-9, 1e-6], np.linspace(1e-3, 1 - 1e-3, 41)]
        + [1 - np.array([1e-6, 1e-9, 1e-12])]
    )
    cuts = stats.beta.ppf(levels, a_s, b_s)
    cuts = np.unique(np.concatenate([[rope], cuts[(cuts > rope) & (cuts < 1)], [1]]))
    return sum(
        integrate.quad(integrand, lo, hi, epsabs=1e-14, epsrel=1e-12, limit=200)[0]
        for lo, hi in zip(cuts[:-1], cuts[1:])
    )


# --------------------------------------------------------------------------
# Registration and result fields
# --------------------------------------------------------------------------


def test_registered_as_a_bcv_pair_test():
    assert get_test_info("bayesian_bcv_mcnemar") == (("tables",), "bcv")
    entry = get_entry("bayesian_bcv_mcnemar")
    assert entry.kind == "pair"
    assert entry.alternatives == get_entry("bayesian_correlated_t").alternatives
    assert entry.alternatives == ALTERNATIVES
    assert "bayesian_bcv_mcnemar" in available_tests(design="bcv")
    result = get_test("bayesian_bcv_mcnemar")(tables=TABLES)
    assert result.test == "bayesian_bcv_mcnemar"


def test_result_fields():
    result = bayesian_bcv_mcnemar(TABLES, rope=0.01)
    assert result.pvalue is None and result.df is None
    assert result.statistic == result.mean
    assert isinstance(result.reject, bool)
    for key in (*PROBABILITIES, "mean", "t", "rope", "prior", "rho1", "rho2"):
        assert isinstance(result[key], float), key
    np.testing.assert_allclose(result.mean_table, TABLES.mean(axis=0))
    np.testing.assert_allclose(result.effective_table, [[200 / 11, 6], [14, 1580 / 11]])
    # s ~ Beta(c01 + c10 + 2, c00 + c11 + 2), θ ~ Beta(c10 + 1, c01 + 1).
    np.testing.assert_allclose(result.posterior_s, [22, 1780 / 11 + 2])
    np.testing.assert_allclose(result.posterior_theta, [15, 7])
    # E[Δ] = (a10 - a01) / Σ a = 8 / (2000/11 + 4) (100 records a split).
    assert result.mean == pytest.approx(88 / 2044, rel=1e-12)
    assert (result.rope, result.prior, result.alpha) == (0.01, 1.0, 0.05)
    assert result.alternative == "two-sided"


# --------------------------------------------------------------------------
# Closed form, quadrature and Monte Carlo
# --------------------------------------------------------------------------


def test_hand_derived_values():
    # c01 = c10: θ ~ Beta(a, a) is symmetric about 1/2.
    result = bayesian_bcv_mcnemar(tables_with(40, 7, 7, 46))
    assert result.p_a_better == 0.5 and result.p_b_better == 0.5
    assert result.p_rope == 0.0 and result.mean == 0.0
    # θ ~ Beta(15, 7) (integer parameters): P(θ > 1/2) = P(Bin(21, 1/2) <= 14).
    result = bayesian_bcv_mcnemar(TABLES)
    assert result.p_a_better == pytest.approx(stats.binom.cdf(14, 21, 0.5), rel=1e-14)
    assert result.p_a_better == pytest.approx(2014992 / 2**21, rel=1e-14)
    assert result.p_a_better + result.p_b_better == 1.0
    # |Δ| <= s <= 1: a rope of 1 holds everything.
    result = bayesian_bcv_mcnemar(TABLES, rope=1.0)
    assert probabilities(result).tolist() == [0.0, 1.0, 0.0]


@pytest.mark.parametrize(
    "table",
    [(10, 3, 8, 79), (0, 0, 0, 0), (50, 20, 10, 20), (5, 1, 30, 64)],
    ids=str,
)
@pytest.mark.parametrize("rope", [0.0, 0.01, 0.05])
def test_agrees_with_monte_carlo_of_the_dirichlet(table, rope):
    n00, n01, n10, n11 = table
    result = bayesian_bcv_mcnemar(tables_with(n00, n01, n10, n11), rope=rope)
    p_a, p_b, mean, se = monte_carlo(result, rope)
    assert abs(result.p_a_better - p_a) < 5 * se
    assert abs(result.p_b_better - p_b) < 5 * se
    assert abs(result.p_rope - (1 - p_a - p_b)) < 10 * se
    assert result.mean == pytest.approx(mean, abs=5e-4)


QUADRATURE_CASES = [
    # (posterior_s, posterior_theta, rope)
    ((22.0, 163.8), (15.0, 7.0), 0.01),
    ((22.0, 163.8), (15.0, 7.0), 0.1),
    ((2.0, 400.0), (1.0, 1.0), 0.001),
    ((8000.0, 9000.0), (4000.0, 4000.0), 0.01),
    # θ concentrated near 1, a rope near the disagreement rate itself.
    ((1001.0, 2002.0), (1000.0, 1.0), 0.333),
    ((1001.0, 2002.0), (1000.0, 1.0), 0.3),
    ((100001.0, 2e6), (1e5, 1.0), 0.0476),
    # Rare disagreements on many records (s ~ 4e-7).
    ((8.0, 2e7), (4.0, 4.0), 3e-7),
    ((3.0, 3.0), (2.0, 1.0), 0.5),
    ((1.2, 1.3), (0.6, 0.6), 0.2),
]


@pytest.mark.parametrize("posterior_s, posterior_theta, rope", QUADRATURE_CASES)
def test_quadrature_agrees_with_scipy_quad(posterior_s, posterior_theta, rope):
    p_a, p_b = difference_tails(posterior_s, posterior_theta, rope)
    assert p_a == pytest.approx(quad_tail(posterior_s, posterior_theta, rope), abs=1e-9)
    assert p_b == pytest.approx(
        quad_tail(posterior_s, posterior_theta[::-1], rope), abs=1e-9
    )


def test_quadrature_agrees_with_quad_on_random_posteriors():
    rng = np.random.default_rng(7)
    for _ in range(40):
        counts = rng.integers(0, 3000, size=4) * rng.uniform(0.01, 1.0)
        cells = counts + rng.choice([0.5, 1.0, 2.0])
        posterior_s = (cells[1] + cells[2], cells[0] + cells[3])
        posterior_theta = (cells[2], cells[1])
        rope = posterior_s[0] / sum(posterior_s) * rng.uniform(0.1, 1.2)
        p_a, _ = difference_tails(posterior_s, posterior_theta, rope)
        assert p_a == pytest.approx(
            quad_tail(posterior_s, posterior_theta, rope), abs=1e-9
        )


def test_rope_probabilities_agree_with_the_density():
    # P(Δ > r) is also the integral of the density of Δ from r to 1.
    result = bayesian_bcv_mcnemar(TABLES, rope=0.02)
    s, theta = result.posterior_s, result.posterior_theta
    upper = integrate.quad(
        lambda d: difference_pdf(d, s, theta), 0.02, 1, points=[0.05, 0.1, 0.2]
    )[0]
    lower = integrate.quad(
        lambda d: difference_pdf(d, s, theta), -1, -0.02, points=[-0.1, -0.05]
    )[0]
    assert upper == pytest.approx(result.p_a_better, abs=1e-7)
    assert lower == pytest.approx(result.p_b_better, abs=1e-7)


# --------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------


@pytest.mark.parametrize("rope", [0.0, 0.01, 0.2])
def test_swapping_estimators_swaps_the_probabilities(rope):
    rng = np.random.default_rng(3)
    tables = rng.integers(0, 30, size=(20, 6, 2, 2))
    ab = bayesian_bcv_mcnemar(tables, rope=rope)
    ba = bayesian_bcv_mcnemar(swap_estimators(tables), rope=rope)
    np.testing.assert_array_equal(ab.p_a_better, ba.p_b_better)
    np.testing.assert_array_equal(ab.p_b_better, ba.p_a_better)
    np.testing.assert_array_equal(ab.p_rope, ba.p_rope)
    np.testing.assert_array_equal(ab.mean, -ba.mean)


@pytest.mark.parametrize("rope", [0.0, 0.02])
def test_monotonic_in_the_discordant_counts(rope):
    # More records A gets right and B wrong: A more likely better.
    results = [
        bayesian_bcv_mcnemar(tables_with(40, 6, c10, 40), rope=rope)
        for c10 in range(0, 30)
    ]
    p_a = np.array([r.p_a_better for r in results])
    assert np.all(np.diff(p_a) > 0)
    if rope == 0:
        p_b = np.array([r.p_b_better for r in results])
        assert np.all(np.diff(p_b) < 0)
        # More records B gets right and A wrong: A less likely better.
        p_a = [
            bayesian_bcv_mcnemar(tables_with(40, c01, 6, 40)).p_a_better
            for c01 in range(0, 30)
        ]
        assert np.all(np.diff(p_a) < 0)


@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_batch_equals_loop(rope):
    rng = np.random.default_rng(1)
    tables = rng.integers(0, 40, size=(4, 3, 10, 2, 2))
    batch = bayesian_bcv_mcnemar(tables, rope=rope, alpha=0.2)
    assert batch.p_a_better.shape == (4, 3)
    assert batch.posterior_s.shape == (4, 3, 2)
    assert batch.effective_table.shape == (4, 3, 2, 2)
    for index in np.ndindex(4, 3):
        single = bayesian_bcv_mcnemar(tables[index], rope=rope, alpha=0.2)
        for key in (*PROBABILITIES, "mean", "reject"):
            assert single[key] == batch[key][index], key
        np.testing.assert_array_equal(
            single.posterior_theta, batch.posterior_theta[index]
        )


def test_prior_weights_each_cell():
    tables = tables_with(40, 2, 6, 52)
    for prior in (0.5, 1.0, 3.0):
        result = bayesian_bcv_mcnemar(tables, prior=prior)
        effective = result.effective_table
        np.testing.assert_allclose(
            result.posterior_theta, [effective[1, 0] + prior, effective[0, 1] + prior]
        )
        np.testing.assert_allclose(
            result.posterior_s,
            [
                effective[0, 1] + effective[1, 0] + 2 * prior,
                effective.trace() + 2 * prior,
            ],
        )
    result = bayesian_bcv_mcnemar(tables, prior=0.5, rope=0.01)
    p_a, p_b, _, se = monte_carlo(result, 0.01, seed=5)
    assert abs(result.p_a_better - p_a) < 5 * se
    assert abs(result.p_b_better - p_b) < 5 * se
    # A heavy prior pulls θ towards 1/2, so A's advantage fades.
    p_a = [bayesian_bcv_mcnemar(tables, prior=p).p_a_better for p in (0.1, 1, 10, 100)]
    assert np.all(np.diff(p_a) < 0) and p_a[-1] > 0.5


@pytest.mark.parametrize(
    "n_splits, rhos", [(10, {}), (6, {"rho1": 0.1, "rho2": 0.3}), (2, {"rho1": -0.5})]
)
def test_effective_table_is_bcv_mcnemars(n_splits, rhos):
    rng = np.random.default_rng(n_splits)
    tables = rng.integers(0, 30, size=(n_splits, 2, 2))
    bayes = bayesian_bcv_mcnemar(tables, **rhos)
    frequentist = bcv_mcnemar(tables, **rhos)
    assert bayes.t == frequentist.t
    np.testing.assert_array_equal(bayes.effective_table, frequentist.effective_table)
    # A smaller assumed correlation means a larger t: a sharper posterior.
    default = bayesian_bcv_mcnemar(tables)
    smaller = bayesian_bcv_mcnemar(tables, rho1=-0.5, rho2=0.0)
    assert smaller.t > default.t
    assert smaller.posterior_s.sum() > default.posterior_s.sum()


def test_reject_follows_bayesian_correlated_t():
    rng = np.random.default_rng(11)
    tables = rng.integers(0, 30, size=(200, 10, 2, 2))
    for alternative in ALTERNATIVES:
        for alpha, rope in ((0.05, 0.0), (0.2, 0.01)):
            result = bayesian_bcv_mcnemar(
                tables, alpha=alpha, alternative=alternative, rope=rope
            )
            expected = posterior_decision(
                result.p_a_better, result.p_b_better, alpha, alternative
            )
            np.testing.assert_array_equal(result.reject, expected)
            assert 0 < expected.sum() < len(tables)


@pytest.mark.parametrize("alpha", [0.05, 0.5, 0.9])
@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_identical_predictions_are_never_a_decision(alpha, rope):
    # No disagreement at all: a symmetric posterior of Δ, no winner, even
    # when 1 - alpha is below 1/2.
    tables = tables_with(30, 0, 0, 70)
    for alternative in ALTERNATIVES:
        result = bayesian_bcv_mcnemar(
            tables, alpha=alpha, alternative=alternative, rope=rope
        )
        assert result.p_a_better == result.p_b_better
        assert result.mean == 0.0
        assert result.reject is False


@settings(deadline=None)
@given(
    tables=st.integers(1, 3).flatmap(
        lambda m: arrays(np.int64, (2 * m, 2, 2), elements=st.integers(0, 10**6))
    ),
    rope=st.one_of(st.just(0.0), st.floats(1e-6, 1.0)),
    prior=st.floats(0.01, 10.0),
)
def test_probabilities_sum_to_one(tables, rope, prior):
    result = bayesian_bcv_mcnemar(tables, rope=rope, prior=prior)
    p = probabilities(result)
    assert np.all((p >= 0) & (p <= 1))
    assert p.sum() == pytest.approx(1.0, abs=1e-12)
    assert -1 <= result.mean <= 1
    assert isinstance(result.reject, bool)


# --------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------

BAD = [
    ({"rope": -0.01}, "rope must be a finite number >= 0; got -0.01."),
    ({"rope": float("inf")}, "rope must be a finite number >= 0"),
    ({"prior": 0}, r"prior must be a finite number > 0; got 0\."),
    ({"prior": -1.0}, "prior must be a finite number > 0"),
    ({"prior": float("nan")}, "prior must be a finite number > 0"),
    ({"rho1": 1.0}, r"rho1 must be a number in \(-1, 1\)"),
    ({"rho2": 0.9}, "rho2 must be at most"),
    ({"alpha": 1.5}, "alpha must be"),
    ({"alternative": "sideways"}, "alternative must be one of"),
]


@pytest.mark.parametrize("params, message", BAD, ids=[str(p) for p, _ in BAD])
def test_bad_parameters(params, message):
    with pytest.raises(ValueError, match=message):
        bayesian_bcv_mcnemar(TABLES, **params)


def test_bad_tables():
    with pytest.raises(ValueError, match="needs the tables of an m×2 \\(BCV\\) design"):
        bayesian_bcv_mcnemar(TABLES[:9])
    with pytest.raises(ValueError, match="non-negative counts"):
        bayesian_bcv_mcnemar(-TABLES)
    with pytest.raises(ValueError, match=r"shape \(n_splits, 2, 2\)"):
        bayesian_bcv_mcnemar(np.ones((10, 3)))
    # The parameters are checked before the tables.
    with pytest.raises(ValueError, match="rope must be"):
        bayesian_bcv_mcnemar(TABLES[:9], rope=-1)


class NeverFitted(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        raise AssertionError("fitted before the parameters were checked")

    def predict(self, X):
        raise AssertionError("predicted before the parameters were checked")


@pytest.mark.parametrize(
    "params, message",
    [
        ({"rope": -1}, "rope must be"),
        ({"prior": 0.0}, "prior must be"),
        ({"rho2": 0.9}, "rho2 must be at most"),
    ],
)
def test_engine_checks_parameters_before_anything(params, message):
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(40, 2)), np.tile([0, 1], 20)
    tests = {"bayesian_bcv_mcnemar": params}
    cv = BlockRegularized5x2CV(random_state=0)
    with pytest.raises(ValueError, match=message):
        compare_estimators(NeverFitted(), NeverFitted(), X, y, cv=cv, tests=tests)
    splits = list(cv.split(X, y))
    predictions = [y[test] for _, test in splits]
    with pytest.raises(ValueError, match=message):
        compare_predictions(y, predictions, predictions, splits, cv=cv, tests=tests)


def test_runs_in_a_comparison_on_a_bcv_design():
    rng = np.random.default_rng(0)
    y = np.tile([0, 1], 20)
    cv = BlockRegularized5x2CV(random_state=0)
    splits = list(cv.split(np.zeros((40, 1)), y))
    pred_a = [y[test] for _, test in splits]  # always right
    pred_b = [
        np.where(rng.random(len(test)) < 0.3, 1 - y[test], y[test])
        for _, test in splits
    ]
    result = compare_predictions(y, pred_a, pred_b, splits, cv=cv)
    bayes = result.tests.bayesian_bcv_mcnemar
    np.testing.assert_array_equal(
        bayes.effective_table, result.tests.bcv_mcnemar.effective_table
    )
    assert bayes.p_a_better > 0.99 and bayes.reject
    again = compare_predictions(
        y, pred_a, pred_b, splits, cv=cv, tests={"bayesian_bcv_mcnemar": {"rope": 0.05}}
    )
    assert list(again.tests) == ["bayesian_bcv_mcnemar"]
    assert again.tests.bayesian_bcv_mcnemar.rope == 0.05


def test_huge_counts_use_the_normal_law_of_theta():
    # Cells of 2**62 records: SciPy's incomplete beta gives NaN there; the
    # Beta law is normal to double precision, and the tails stay sound.
    big = 4611686018427387904
    tables = np.array(
        [
            [[0, 0], [0, 0]],
            [[0, big], [big, 0]],
            [[0, 0], [513, 0]],
            [[0, 0], [0, 0]],
        ]
    )
    for rope in (0.0, 0.01):
        result = bayesian_bcv_mcnemar(tables, rope=rope)
        total = result.p_a_better + result.p_rope + result.p_b_better
        assert np.isfinite([result.p_a_better, result.p_b_better]).all()
        np.testing.assert_allclose(total, 1.0)
    # Where both computations hold (just beyond the switch), they agree.
    from scipy import special

    from sklearn_bcv.stats._bayesian_bcv import _beta_cdf

    a, b = 6e11, 6e11 * (1 + 4e-6)
    np.testing.assert_allclose(
        _beta_cdf(0.5, a, b), special.betainc(a, b, 0.5), rtol=1e-9
    )
