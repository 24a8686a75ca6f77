"""Hostile input, round 4: the Bayesian Plackett-Luce ranking at its edges
(class 3).

One mechanism per edge, in ``sklearn_bcv/stats/_plackett_luce.py``: the
Gamma draws and the scale of the weights are taken in logarithms where
they underflow (``prior=0.001`` gave NaN weights and R-hat and still named
a best), the prior is bounded (``1e300`` gave equal weights and a best by
column order), an undefined R-hat warns; the table's own parameters
(``greater_is_better``, ``names``) are refused in a comparison's test
options; and the total work, ``n_datasets × k × (n_chains × n_warmup +
n_samples)``, is bounded before any work (before any fit in a benchmark).
"""

import re
import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_iris
from sklearn.exceptions import ConvergenceWarning

from sklearn_bcv import benchmark, compare_scores
from sklearn_bcv.stats import plackett_luce
from sklearn_bcv.stats._plackett_luce import MAX_WORK, PRIOR_BOUNDS, log_gamma

RNG = np.random.default_rng(0)
TABLES = {
    "no ties": RNG.uniform(size=(12, 4)),
    "one always last": np.c_[RNG.uniform(0.5, 1, (10, 3)), np.zeros(10)],
    "all tied": np.ones((5, 4)),
    "one data set": np.array([[0.9, 0.1, 0.5]]),
    "ties": np.round(RNG.uniform(size=(20, 5)), 1),
}


def _finite(result):
    for field in ("weights", "weights_interval", "prob_best", "expected_rank"):
        assert np.all(np.isfinite(result[field])), field
    assert np.all(np.isfinite(result.prob_beats))
    assert np.isfinite(result.rhat) and np.isfinite(result.ess)
    assert result.prob_best.sum() == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize("prior", [1e-6, 1e-3, 0.01, 1e3, 1e6])
@pytest.mark.parametrize("table", list(TABLES))
def test_every_prior_in_bounds_is_sampled_without_nan(prior, table):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        result = plackett_luce(
            TABLES[table], prior=prior, n_samples=800, n_warmup=50, random_state=1
        )
    _finite(result)
    if table == "all tied":  # exchangeable: every estimator alike
        np.testing.assert_allclose(result.prob_best, 0.25)


def test_a_tiny_prior_gives_the_posterior_of_the_data():
    # With 12 data sets the data dominate: prior 0.001 is close to 0.01.
    table = TABLES["no ties"]
    small = plackett_luce(table, prior=1e-3, random_state=0)
    less_small = plackett_luce(table, prior=1e-2, random_state=0)
    np.testing.assert_allclose(small.weights, less_small.weights, atol=0.03)


@pytest.mark.parametrize(
    "prior", [0.0, 1e-7, 2e6, 1e300, np.inf, np.nan, -1.0, "1", None]
)
def test_a_prior_out_of_bounds_is_refused(prior):
    low, high = PRIOR_BOUNDS
    with pytest.raises((ValueError, TypeError), match="prior must be"):
        plackett_luce(TABLES["no ties"], prior=prior)
    with pytest.raises(ValueError, match="prior must be"):
        compare_scores(TABLES["no ties"], tests={"plackett_luce": {"prior": prior}})
    assert (low, high) == (1e-6, 1e6)


def test_log_gamma_is_finite_for_any_shape():
    rng = np.random.default_rng(0)
    for shape in (1e-9, 1e-6, 1e-3, 0.1, 1.0, 1e6):
        draws = log_gamma(rng, np.full(10_000, shape))
        assert np.all(np.isfinite(draws))
    # Gamma(a) for small a: log draws near log(U)/a, far below -708.
    assert np.min(log_gamma(rng, np.full(1000, 1e-3))) < -1000


@pytest.mark.parametrize(
    "kwargs",
    [
        {"n_samples": 40, "n_chains": 4, "n_warmup": 0},
        {"n_samples": 16, "n_chains": 4, "n_warmup": 0, "prior": 1e-6},
    ],
)
def test_a_chain_that_did_not_converge_warns_naming_r_hat(kwargs):
    table = np.r_[TABLES["no ties"], TABLES["no ties"][::-1]]
    with pytest.warns(ConvergenceWarning, match=r"R-hat \S+"):
        result = plackett_luce(table, random_state=0, **kwargs)
    _finite(result)


# --------------------------------------------------------------------------
# The table's parameters are the comparison's


@pytest.mark.parametrize(
    "params, refused",
    [
        ({"greater_is_better": False}, "greater_is_better"),
        ({"names": ["w", "x", "y", "z"]}, "names"),
        ({"names": ["a", "b", "c", "d"]}, "names"),  # even the same names
        ({"greater_is_better": True, "names": None}, "greater_is_better, names"),
    ],
)
def test_the_tables_parameters_are_refused_in_the_test_options(params, refused):
    with pytest.raises(ValueError, match=f"sets {refused}, which describe the table"):
        compare_scores(
            TABLES["no ties"],
            names=list("abcd"),
            tests={"friedman": {}, "plackett_luce": params},
        )


def test_the_ranking_follows_the_comparisons_own_orientation_and_names():
    losses = TABLES["no ties"]
    result = compare_scores(
        losses,
        names=list("abcd"),
        greater_is_better=False,
        tests=["friedman", "plackett_luce"],
        random_state=0,
    )
    ranking = result.tests.plackett_luce
    assert ranking.names == list("abcd")
    best_by_ranks = result.names[int(np.argmin(result.mean_ranks))]
    assert ranking.names[int(np.argmax(ranking.prob_best))] == best_by_ranks


# --------------------------------------------------------------------------
# The total work, bounded before any work


class _MustNotFit(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        raise AssertionError("fitted: the refusal came after the fits")

    def predict(self, X):  # pragma: no cover - never fitted
        return np.zeros(len(X))


@pytest.mark.parametrize(
    "shape, params",
    [
        ((20_000, 5), {}),  # 6.8e8 with the defaults
        ((200, 10), {"n_warmup": 10**5, "n_chains": 100, "n_samples": 400}),
        ((1000, 100), {"n_samples": 6000}),
    ],
)
def test_the_total_work_is_refused_before_any_work(shape, params):
    table = np.zeros(shape)
    with pytest.raises(ValueError, match=r"n_datasets × k × \(n_chains × n_warmup"):
        plackett_luce(table, **params)
    with pytest.raises(ValueError, match=re.escape(f"must be at most {MAX_WORK:.0e}")):
        compare_scores(table, tests={"plackett_luce": params})


def test_benchmark_refuses_the_work_before_any_fit():
    X, y = load_iris(return_X_y=True)
    # 10 × 10 places × (100 × 10**5 + 6000) sweeps: 1e9 > MAX_WORK.
    datasets = {f"d{i}": (X, y) for i in range(10)}
    estimators = {f"e{j}": _MustNotFit() for j in range(10)}
    with pytest.raises(ValueError, match="n_datasets × k"):
        benchmark(
            estimators,
            datasets,
            tests={"plackett_luce": {"n_warmup": 10**5, "n_chains": 100}},
        )
    with pytest.raises(ValueError, match="describe the table"):
        benchmark(estimators, datasets, tests={"plackett_luce": {"names": ["x"]}})


def test_the_work_at_the_bound_is_accepted():
    # n_datasets × k × (n_chains × n_warmup + n_samples) == MAX_WORK exactly:
    # checked, not run (the check is the first thing the test does).
    from sklearn_bcv.stats._plackett_luce import check_work

    check_work(MAX_WORK // (5 * 6800), 5, 6000, 4, 200)
    with pytest.raises(ValueError, match="at most"):
        check_work(MAX_WORK // (5 * 6800) + 1, 5, 6000, 4, 200)
