"""Tests of seed 001's simulation (Tables 3 and 5): the learners, the
vectorised least squares, the runner and what must hold of the table."""

import numpy as np
import pytest
from joblib import parallel_config
from sklearn.base import clone
from sklearn.linear_model import LinearRegression
from sklearn.tree import DecisionTreeRegressor

from sklearn_bcv import BlockRegularized5x2CV, BlockRegularizedMx2CV
from sklearn_bcv.datasets import TWO_GAUSSIANS_CASES, make_two_gaussians
from sklearn_bcv.simulation import (
    PoorPartition5x2CV,
    ThresholdedRegressor,
    seed001_estimators,
    simulate_seed001,
)
from sklearn_bcv.simulation._seed001 import (
    SEED001_TESTS,
    TABLE3_PUBLISHED,
    TABLE4_PUBLISHED,
    TABLE5_PUBLISHED,
    _least_squares_errors,
    _reseeded,
)

# ---------------------------------------------------------------------------
# The learners
# ---------------------------------------------------------------------------


def test_thresholded_regressor_predicts_the_second_class_above_the_threshold():
    X = np.arange(8.0)[:, None]
    y = np.array(["no"] * 4 + ["yes"] * 4)
    model = ThresholdedRegressor().fit(X, y)
    np.testing.assert_array_equal(model.classes_, ["no", "yes"])
    # OLS of the 0/1 class on x is (x - 1.5) / 6 ... crosses 0.5 at x = 3.5
    np.testing.assert_array_equal(model.predict([[3.4], [3.6]]), ["no", "yes"])
    high = ThresholdedRegressor(threshold=0.9).fit(X, y)
    assert high.predict([[3.6]])[0] == "no"


def test_thresholded_regressor_needs_two_classes():
    with pytest.raises(ValueError, match="needs two classes in y"):
        ThresholdedRegressor().fit(np.zeros((6, 1)), [0, 1, 2, 0, 1, 2])


def test_thresholded_tree_is_a_least_squares_tree_of_the_class():
    X, y = make_two_gaussians(100, **TWO_GAUSSIANS_CASES[4], random_state=0)
    tree = DecisionTreeRegressor(min_samples_leaf=7, random_state=0)
    model = ThresholdedRegressor(tree).fit(X, y)
    leaves = clone(tree).fit(X, y.astype(float)).predict(X)
    np.testing.assert_array_equal(model.predict(X), (leaves > 0.5).astype(int))


@pytest.mark.parametrize("pair", ["rt_ls", "svm_rf", "svm_ab", "ab_rf", "svm_lda"])
def test_seed001_estimators_are_classifiers_with_documented_settings(pair):
    first, second = seed001_estimators(pair, random_state=3)
    for estimator in (first, second):
        assert hasattr(estimator, "predict")
    if pair == "rt_ls":
        params = first.regressor.get_params()
        assert (params["min_samples_split"], params["min_samples_leaf"]) == (20, 7)
        assert isinstance(second.regressor, LinearRegression)


def test_each_fit_can_draw_its_own_randomness():
    mlp_a, mlp_b = seed001_estimators("mlp10_mlp10", random_state=5)
    assert mlp_a.get_params()["mlpclassifier__random_state"] == 5
    assert mlp_b.get_params()["mlpclassifier__random_state"] == 6
    reseeded = _reseeded(mlp_a, 11)
    assert reseeded.get_params()["mlpclassifier__random_state"] == 11
    assert mlp_a.get_params()["mlpclassifier__random_state"] == 5  # a clone
    forest = _reseeded(seed001_estimators("svm_rf")[1], 3)
    assert forest.random_state == 3
    svm = _reseeded(seed001_estimators("svm_rf")[0], 3)  # nothing to seed
    assert "svc__random_state" in svm.get_params()


def test_seed001_estimators_unknown_pair():
    with pytest.raises(ValueError, match="pair must be one of"):
        seed001_estimators("svm_knn")


@pytest.mark.parametrize(
    "cv",
    [
        PoorPartition5x2CV(random_state=0),
        BlockRegularizedMx2CV(n_repeats=3, random_state=1),
        BlockRegularized5x2CV(random_state=2),
    ],
)
@pytest.mark.parametrize("case", [1, 3, 6])
def test_vectorised_least_squares_equals_fitting_each_split(cv, case):
    X, y = make_two_gaussians(200, **TWO_GAUSSIANS_CASES[case], random_state=case)
    splits = list(cv.split(X, y))
    fitted = [
        np.mean(ThresholdedRegressor().fit(X[tr], y[tr]).predict(X[te]) != y[te])
        for tr, te in splits
    ]
    np.testing.assert_allclose(_least_squares_errors(X, y, splits), fitted)


# ---------------------------------------------------------------------------
# The runner
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small():
    return simulate_seed001(12, pairs="rt_ls", cases=[2, 3], random_state=0)


def test_result_fields(small):
    keys = {("rt_ls", case, test) for case in (2, 3) for test in SEED001_TESTS}
    assert set(small.rates) == set(small.counts) == set(small.ci) == keys
    for key in keys:
        assert small.rejected[key].shape == (12,)
        assert small.counts[key] == small.rejected[key].sum()
        low, high = small.ci[key]
        assert low <= small.rates[key] <= high
    errors = small.mean_errors[("rt_ls", 2)]
    assert np.all((errors > 0.1) & (errors < 0.45))


def test_rates_do_not_depend_on_workers_batches_or_backend(small):
    kwargs = dict(pairs="rt_ls", cases=[2, 3], random_state=0)
    with parallel_config(backend="threading"):
        parallel = simulate_seed001(12, n_jobs=2, batch_size=5, **kwargs)
    one_by_one = simulate_seed001(12, batch_size=1, **kwargs)
    for other in (parallel, one_by_one):
        for key, rejected in small.rejected.items():
            np.testing.assert_array_equal(other.rejected[key], rejected)
        for key, errors in small.mean_errors.items():
            np.testing.assert_allclose(other.mean_errors[key], errors)


def test_a_case_is_the_same_data_whatever_the_other_cases(small):
    alone = simulate_seed001(12, pairs="rt_ls", cases=[3], random_state=0)
    for test in SEED001_TESTS:
        key = ("rt_ls", 3, test)
        np.testing.assert_array_equal(alone.rejected[key], small.rejected[key])


def test_text_shows_our_rates_beside_the_papers(small):
    text = small.to_text()
    assert "RT versus LS" in text and "F B5x2CV" in text
    assert "0.123" in text and "0.033" in text  # the paper's cases (2), (3)
    assert small.published("rt_ls", 3, "calibrated_f_5x2bcv") == 0.033
    assert small.published("svm_lda", "wine", "blocked_t_3x2cv") == 0.041
    assert small.published("rt_ls", "iris", "blocked_t_3x2cv") is None
    assert small.published("mlp3_mlp3", "wine", "blocked_t_3x2cv") is None
    assert small.published("mlp3_mlp3", "iris", "blocked_t_3x2cv") == 0.001
    assert "(2)" in small.to_text(rst=True)


def test_the_transcriptions_are_complete():
    assert len(TABLE3_PUBLISHED) == 12 and len(TABLE5_PUBLISHED) == 9
    assert len(TABLE4_PUBLISHED) == 18
    # Table 4 gives type II errors for LP against MLP: 1 - 0.909 on wine.
    assert TABLE4_PUBLISHED[("lp_mlp10", "combined_f_5x2cv")][1] == 0.091
    assert all(len(v) == 8 for v in TABLE3_PUBLISHED.values())
    assert all(len(v) == 2 for v in TABLE5_PUBLISHED.values())
    assert TABLE3_PUBLISHED[("svm_ab", "calibrated_f_5x2bcv")][5] == 0.786


def test_real_data_sets_are_partitioned_afresh():
    result = simulate_seed001(
        3, pairs="svm_lda", cases=["iris"], random_state=0, batch_size=1
    )
    assert set(result.cases) == {"iris"}
    assert 0.0 <= result.mean_errors[("svm_lda", "iris")][0] < 0.1


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"pairs": "svm_knn"}, ValueError, "pairs must be among"),
        ({"pairs": []}, ValueError, "pairs must name at least one pair"),
        ({"cases": [9]}, ValueError, r"cases must be among \[1, 2"),
        ({"cases": [True]}, ValueError, "cases must be among"),
        ({"cases": []}, ValueError, "cases must name at least one case"),
        ({"cases": [3, 3.0]}, ValueError, "cases must name each case once"),
        ({"pairs": ["rt_ls", "rt_ls"]}, ValueError, "pairs must name each pair once"),
        ({"n_jobs": 0}, ValueError, "n_jobs"),
        ({"n_swapped": 101}, ValueError, "n_swapped"),
        ({"n_swapped": 0}, ValueError, "n_swapped"),
        ({"n_samples": 4}, ValueError, "n_samples"),
        ({"n_repetitions": 0}, ValueError, "n_repetitions"),
    ],
)
def test_bad_input_is_named(kwargs, error, message):
    kwargs = {"n_repetitions": 1, "pairs": "rt_ls", "cases": [1], **kwargs}
    with pytest.raises(error, match=message):
        simulate_seed001(**kwargs)


# ---------------------------------------------------------------------------
# What must hold whatever the learner settings (slow)
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rt_ls_row():
    return simulate_seed001(1000, pairs="rt_ls", cases=[3, 4, 8], random_state=1)


@pytest.mark.slow
def test_calibrated_f_rejects_no_more_than_the_poor_partition_f_on_near_null_cases(
    rt_ls_row,
):
    # Cases (3) and (4): RT and LS differ by about 1% of error here (the
    # smallest differences of the eight cases, as in the paper). The
    # calibrated test's rate is at most the poor-partition F-test's, paired
    # over the same data sets, within a Monte Carlo margin of 2 standard
    # errors of the paired difference.
    for case in (3, 4):
        poor = rt_ls_row.rejected[("rt_ls", case, "combined_f_5x2cv")]
        calibrated = rt_ls_row.rejected[("rt_ls", case, "calibrated_f_5x2bcv")]
        difference = calibrated.astype(float) - poor
        margin = 2 * difference.std(ddof=1) / np.sqrt(difference.size)
        assert difference.mean() <= margin, (case, difference.mean(), margin)


@pytest.mark.slow
def test_every_test_rejects_more_where_the_learners_differ_more(rt_ls_row):
    # Case (8): LS beats RT by about 4% of error, against 1% in case (4).
    # (The paper's SVM-versus-AdaBoost rows, rejected almost always, need an
    # error gap scikit-learn's AdaBoost does not have: see reproduction.rst.)
    for test in SEED001_TESTS:
        far = rt_ls_row.rates[("rt_ls", 8, test)]
        near = rt_ls_row.rates[("rt_ls", 4, test)]
        assert far > near + 0.04, (test, far, near)
