"""Tests of the comparison engine: compare_estimators and compare_predictions."""

import re
import time
import warnings

import numpy as np
import pytest
import sklearn
from hypothesis import given
from hypothesis import strategies as st
from joblib import parallel_config
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import load_breast_cancer, make_regression
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.ensemble import RandomForestClassifier
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    log_loss,
    r2_score,
    roc_auc_score,
)
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    KFold,
    RepeatedKFold,
    ShuffleSplit,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.utils import Bunch

import sklearn_bcv._engine._fit
from sklearn_bcv import (
    BlockRegularized5x2CV,
    ComparisonResult,
    compare_estimators,
    compare_predictions,
    get_test,
    mcnemar_table,
    register_test,
)
from sklearn_bcv.stats import _registry
from sklearn_bcv.stats._registry import get_entry

X_BC, Y_BC = load_breast_cancer(return_X_y=True)
X_REG, Y_REG = make_regression(n_samples=120, n_features=5, noise=10.0, random_state=0)


def _default_tests(design):
    """What ``tests=None`` runs: the applicable tests (not only warned
    about) registered to run by default (``aso`` runs only by name)."""
    return {
        name
        for name in design.applicable_tests(include_warned=False)
        if get_entry(name).by_default
    }


def logistic():
    return make_pipeline(StandardScaler(), LogisticRegression())


def tree(**params):
    return DecisionTreeClassifier(random_state=0, **params)


@pytest.fixture
def restore_registry():
    saved = dict(_registry._REGISTRY)
    yield
    _registry._REGISTRY.clear()
    _registry._REGISTRY.update(saved)


@pytest.fixture(scope="module")
def bc_result():
    """LogisticRegression vs a small random forest on breast cancer, 5×2 BCV.

    The issue's setup with a scaled logistic regression (same model, fitted
    in a fraction of the time) and 20 trees; the exact setup is the slow test
    ``test_issue_setup_exactly``.
    """
    return compare_estimators(
        make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000)),
        RandomForestClassifier(n_estimators=20, random_state=0),
        X_BC,
        Y_BC,
        random_state=0,
        return_estimator=True,
    )


def _same_result(first, second):
    assert set(first.tests) == set(second.tests)
    for name in first.tests:
        for key, value in first.tests[name].items():
            np.testing.assert_equal(second.tests[name][key], value)
    np.testing.assert_array_equal(first.differences, second.differences)
    if "tables" in first:
        np.testing.assert_array_equal(first.tables, second.tables)
    for a, b in zip(first.predictions_a, second.predictions_a):
        np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------- done means


def test_compare_estimators_breast_cancer_runs_every_applicable_test(bc_result):
    result = bc_result
    assert isinstance(result, ComparisonResult)
    assert result.design.kind == "bcv" and result.design.n_repeats == 5
    expected = _default_tests(result.design)
    assert set(result.tests) == expected
    assert {
        "bcv_mcnemar",
        "calibrated_f_5x2bcv",
        "paired_t_5x2cv",
        "combined_f_5x2cv",
        "combined_t_5x2cv",
        "blocked_t_3x2cv",
        "paired_t",
        "corrected_t",
        "bayesian_correlated_t",
    } <= expected
    for name, test_result in result.tests.items():
        assert test_result.test == name
        assert isinstance(test_result.reject, bool)
    assert result.tables.shape == (10, 2, 2)
    assert result.fit_time.shape == result.score_time.shape == (10, 2)
    assert np.all(result.fit_time > 0) and np.all(result.score_time >= 0)
    assert len(result.estimators_a) == len(result.estimators_b) == 10
    assert result.recommended_test == "bcv_mcnemar"
    assert result.scoring == "accuracy" and result.task == "classification"


@pytest.mark.slow
def test_issue_setup_exactly():
    args = (
        LogisticRegression(max_iter=5000),
        RandomForestClassifier(random_state=0),
        X_BC,
        Y_BC,
    )
    result = compare_estimators(*args, random_state=0)
    assert set(result.tests) == _default_tests(result.design)
    _same_result(result, compare_estimators(*args, random_state=0, n_jobs=2))


def test_compare_estimators_default_cv_is_seeded_bcv(bc_result):
    cv = BlockRegularized5x2CV(random_state=0)
    splits = list(cv.split(X_BC))
    for (_, test), test_indices in zip(splits, bc_result.test_indices):
        np.testing.assert_array_equal(test, test_indices)


def test_compare_predictions_reproduces_compare_estimators(bc_result):
    splits = [
        (np.setdiff1d(np.arange(len(Y_BC)), test), test)
        for test in bc_result.test_indices
    ]
    again = compare_predictions(
        Y_BC, bc_result.predictions_a, bc_result.predictions_b, splits
    )
    # Without the splitter the design is inferred from the indices alone.
    assert again.design == bc_result.design
    _same_result(bc_result, again)


def test_tables_equal_mcnemar_table_and_hand_counts(bc_result):
    for i, test in enumerate(bc_result.test_indices):
        y_test = Y_BC[test]
        pred_a, pred_b = bc_result.predictions_a[i], bc_result.predictions_b[i]
        np.testing.assert_array_equal(
            bc_result.tables[i], mcnemar_table(y_test, pred_a, pred_b)
        )
        a_right, b_right = pred_a == y_test, pred_b == y_test
        # n01 = A wrong and B right, n10 = A right and B wrong (API.md Table I).
        assert bc_result.tables[i, 0, 1] == np.sum(~a_right & b_right)
        assert bc_result.tables[i, 1, 0] == np.sum(a_right & ~b_right)
        assert bc_result.tables[i].sum() == test.size


def test_differences_are_score_differences(bc_result):
    expected_a = [
        accuracy_score(Y_BC[t], p)
        for t, p in zip(bc_result.test_indices, bc_result.predictions_a)
    ]
    np.testing.assert_allclose(bc_result.scores_a, expected_a)
    np.testing.assert_array_equal(
        bc_result.differences, bc_result.scores_a - bc_result.scores_b
    )
    # Accuracy difference = (n10 - n01) / n_test for every split.
    tables = bc_result.tables
    np.testing.assert_allclose(
        bc_result.differences,
        (tables[:, 1, 0] - tables[:, 0, 1]) / tables.sum(axis=(1, 2)),
    )
    assert bc_result.n_train == bc_result.n_test == len(Y_BC) / 2


def test_loss_differences_are_zero_one_loss(bc_result):
    for i, test in enumerate(bc_result.test_indices):
        y_test = Y_BC[test]
        expected = (bc_result.predictions_a[i] != y_test).astype(float) - (
            bc_result.predictions_b[i] != y_test
        )
        np.testing.assert_array_equal(bc_result.loss_differences[i], expected)


def test_stored_tests_equal_direct_calls(bc_result):
    direct = get_test("bcv_mcnemar")(tables=bc_result.tables)
    assert direct.statistic == bc_result.tests.bcv_mcnemar.statistic
    direct = get_test("corrected_t")(
        differences=bc_result.differences, n_train=284.5, n_test=284.5
    )
    assert direct.pvalue == bc_result.tests.corrected_t.pvalue


def test_estimators_are_fitted_clones():
    estimator_a = logistic()
    result = compare_estimators(
        estimator_a, tree(), X_BC, Y_BC, random_state=0, return_estimator=True
    )
    assert not hasattr(estimator_a, "classes_")
    assert all(est is not estimator_a for est in result.estimators_a)
    fitted = result.estimators_a[3]
    np.testing.assert_array_equal(
        fitted.predict(X_BC[result.test_indices[3]]), result.predictions_a[3]
    )


def test_compare_estimators_n_jobs_does_not_change_the_result():
    kwargs = dict(random_state=0, cv=BlockRegularized5x2CV(random_state=3))
    serial = compare_estimators(logistic(), tree(), X_BC, Y_BC, n_jobs=1, **kwargs)
    parallel = compare_estimators(logistic(), tree(), X_BC, Y_BC, n_jobs=2, **kwargs)
    _same_result(serial, parallel)


@pytest.mark.parametrize("backend", ["loky", "threading"])
def test_random_state_instances_give_the_same_result_for_any_n_jobs(backend):
    # Clones are made in the parent, each with a copy of the RandomState in
    # its current state, so workers draw the same numbers whatever runs them.
    def forest(random_state):
        return RandomForestClassifier(n_estimators=5, random_state=random_state)

    random_state = np.random.RandomState(0)
    kwargs = dict(random_state=0, tests="corrected_t")
    serial = compare_estimators(
        forest(random_state), logistic(), X_BC[:200], Y_BC[:200], n_jobs=1, **kwargs
    )
    with parallel_config(backend=backend):
        parallel = compare_estimators(
            forest(random_state), logistic(), X_BC[:200], Y_BC[:200], n_jobs=2, **kwargs
        )
    _same_result(serial, parallel)
    # The caller's generator was copied, never advanced.
    assert random_state.randint(1000) == np.random.RandomState(0).randint(1000)


def test_compare_estimators_same_seed_same_result():
    first = compare_estimators(logistic(), tree(), X_BC, Y_BC, random_state=5)
    second = compare_estimators(logistic(), tree(), X_BC, Y_BC, random_state=5)
    _same_result(first, second)


def test_compare_estimators_nested_cv_with_grid_search():
    inner = GridSearchCV(tree(), {"max_depth": [1, 3]}, cv=3)
    result = compare_estimators(
        inner,
        logistic(),
        X_BC[:200],
        Y_BC[:200],
        random_state=0,
        tests=["bcv_mcnemar", "corrected_t"],
        return_estimator=True,
    )
    assert sorted(result.tests) == ["bcv_mcnemar", "corrected_t"]
    assert all(est.best_params_["max_depth"] in (1, 3) for est in result.estimators_a)
    assert result.estimator_names[0] == "GridSearchCV(DecisionTreeClassifier)"


# ---------------------------------------------------------------- regression


def test_regressors_get_score_based_tests_only():
    result = compare_estimators(
        Ridge(), DecisionTreeRegressor(random_state=0), X_REG, Y_REG, random_state=0
    )
    assert result.task == "regression" and result.scoring == "r2"
    assert result.tables is None
    assert not {"bcv_mcnemar", "mcnemar", "kfold_mcnemar", "proportion_z"} & set(
        result.tests
    )
    assert {"calibrated_f_5x2bcv", "corrected_t"} <= set(result.tests)
    assert result.recommended_test == "calibrated_f_5x2bcv"
    expected = [
        r2_score(Y_REG[t], p) for t, p in zip(result.test_indices, result.predictions_a)
    ]
    np.testing.assert_allclose(result.scores_a, expected)
    # Squared-error loss differences.
    i, test = 2, result.test_indices[2]
    expected = (result.predictions_a[i] - Y_REG[test]) ** 2 - (
        result.predictions_b[i] - Y_REG[test]
    ) ** 2
    np.testing.assert_allclose(result.loss_differences[i], expected)


def test_regressors_reject_table_tests():
    with pytest.raises(ValueError, match="bcv_mcnemar needs contingency tables"):
        compare_estimators(Ridge(), DummyRegressor(), X_REG, Y_REG, tests="bcv_mcnemar")


def test_regression_on_one_holdout_split_has_no_test():
    with pytest.raises(ValueError, match="No registered test applies to a regression"):
        compare_estimators(
            Ridge(), DummyRegressor(), X_REG, Y_REG, cv=ShuffleSplit(1, random_state=0)
        )


def test_kfold_regression_runs_cv_ci_z():
    result = compare_estimators(Ridge(), DummyRegressor(), X_REG, Y_REG, cv=5)
    assert result.design.kind == "kfold"
    assert "cv_ci_z" in result.tests and "kfold_mcnemar" not in result.tests
    assert result.recommended_test == "corrected_t"
    # Ridge fits this linear signal far better than a constant.
    assert result.tests.corrected_t.reject and result.differences.min() > 0


# ---------------------------------------------------------------- designs


def test_holdout_design_runs_mcnemar():
    result = compare_estimators(
        logistic(),
        tree(),
        X_BC,
        Y_BC,
        cv=ShuffleSplit(1, test_size=0.5, random_state=0),
    )
    assert sorted(result.tests) == ["mcnemar", "proportion_z"]
    assert result.recommended_test == "mcnemar"
    direct = get_test("mcnemar")(tables=result.tables)
    assert direct.pvalue == result.tests.mcnemar.pvalue


def test_random_mx2_design_skips_bcv_tests_and_warns_when_asked():
    cv = RepeatedKFold(n_splits=2, n_repeats=5, random_state=0)
    result = compare_estimators(logistic(), tree(), X_BC, Y_BC, cv=cv)
    assert result.design.kind == "mx2"
    assert "bcv_mcnemar" not in result.tests and "combined_f_5x2cv" in result.tests
    assert result.recommended_test == "combined_f_5x2cv"
    with pytest.warns(UserWarning, match="derived for block-regularized"):
        asked = compare_estimators(
            logistic(), tree(), X_BC, Y_BC, cv=cv, tests="bcv_mcnemar"
        )
    assert list(asked.tests) == ["bcv_mcnemar"]


def test_test_not_fitting_the_design_raises_before_fitting():
    class Exploding(DummyClassifier):
        def fit(self, X, y):
            raise AssertionError("fit must not be called")

    with pytest.raises(ValueError, match="bcv_mcnemar needs a block-regularized m×2"):
        compare_estimators(Exploding(), tree(), X_BC, Y_BC, cv=10, tests="bcv_mcnemar")


def test_groups_reach_the_splitter():
    groups = np.arange(len(Y_BC)) % 7
    result = compare_estimators(
        logistic(), tree(), X_BC, Y_BC, cv=GroupKFold(7), groups=groups
    )
    for test in result.test_indices:
        assert np.unique(groups[test]).size == 1


# ---------------------------------------------------------------- tests argument


def test_groups_routed_to_the_splitter_with_metadata_routing():
    groups = np.arange(len(Y_BC)) % 7
    with sklearn.config_context(enable_metadata_routing=True):
        result = compare_estimators(
            logistic(), tree(), X_BC, Y_BC, cv=GroupKFold(7), params={"groups": groups}
        )
    assert len(result.test_indices) == 7
    for test in result.test_indices:
        assert np.unique(groups[test]).size == 1


def test_tests_dict_passes_parameters():
    tables_result = compare_estimators(
        logistic(),
        tree(),
        X_BC,
        Y_BC,
        random_state=0,
        tests={"bcv_mcnemar": {"rho1": 0.0, "rho2": 0.0}, "paired_t": None},
    )
    # t = 2m / (1 + rho1 + 2(m - 1) rho2) = 10 with rho1 = rho2 = 0.
    assert tables_result.tests.bcv_mcnemar.t == pytest.approx(10.0)
    assert list(tables_result.tests) == ["bcv_mcnemar", "paired_t"]


def test_one_sided_alternative_skips_two_sided_only_tests():
    result = compare_estimators(
        logistic(), tree(), X_BC, Y_BC, random_state=0, alternative="greater"
    )
    assert "combined_f_5x2cv" in result.skipped_tests
    assert "calibrated_f_5x2bcv" in result.skipped_tests
    assert result.tests.corrected_t.alternative == "greater"
    with pytest.raises(ValueError, match="alternative"):
        result.run_test("combined_f_5x2cv")


def test_one_sided_alternative_recommends_a_directional_test():
    result = compare_estimators(
        Ridge(), DummyRegressor(), X_REG, Y_REG, random_state=0, alternative="greater"
    )
    # calibrated_f_5x2bcv, recommended two-sided, cannot honour "greater".
    assert "calibrated_f_5x2bcv" in result.skipped_tests
    assert result.recommended_test == "corrected_t"
    # The summary leads with the verdict.
    verdict = str(result).splitlines()[2]
    assert verdict == result.verdict.text
    assert verdict.startswith("Verdict from corrected_t (recommended for a one-sided")
    assert verdict.endswith("A better.")
    classifiers = compare_estimators(
        logistic(), tree(), X_BC, Y_BC, random_state=0, alternative="less"
    )
    assert classifiers.recommended_test == "bcv_mcnemar"


def test_automatic_test_errors_are_not_hidden(restore_registry):
    @register_test("fragile", needs="differences")
    def fragile(*, differences, alpha, alternative):
        raise ValueError("fragile cannot use this alternative hypothesis setup")

    # Only a one-sided alternative refused by a test is skipped silently.
    with pytest.raises(ValueError, match="fragile cannot use"):
        compare_estimators(logistic(), tree(), X_BC, Y_BC, cv=3)


def test_run_test_reuses_the_needs(bc_result):
    again = bc_result.run_test("bcv_mcnemar")
    assert again.statistic == bc_result.tests.bcv_mcnemar.statistic
    greater = bc_result.run_test("paired_t", alternative="greater")
    two_sided = bc_result.tests.paired_t
    # One-sided p-value is half the two-sided one on the side of the statistic.
    if two_sided.statistic > 0:
        assert greater.pvalue == pytest.approx(two_sided.pvalue / 2)
    with pytest.raises(ValueError, match="mcnemar needs one hold-out split"):
        bc_result.run_test("mcnemar")


def test_third_party_test_runs_like_a_built_in_one(restore_registry, bc_result):
    calls = []

    @register_test("mean_difference_sign", needs=("differences", "n_test"))
    def mean_difference_sign(*, differences, n_test, alpha, alternative, scale=1.0):
        calls.append((len(differences), n_test, alpha, alternative, scale))
        return Bunch(
            statistic=scale * float(np.mean(differences)),
            pvalue=0.5,
            df=None,
            reject=False,
            alternative=alternative,
            test="mean_difference_sign",
        )

    result = compare_estimators(
        logistic(),
        tree(),
        X_BC,
        Y_BC,
        random_state=0,
        tests={"mean_difference_sign": {"scale": 2.0}},
    )
    assert calls == [(10, len(Y_BC) / 2, 0.05, "two-sided", 2.0)]
    assert result.tests.mean_difference_sign.statistic == pytest.approx(
        2 * np.mean(result.differences)
    )
    # Also picked up by tests=None and by run_test on an older result.
    auto = compare_predictions(
        Y_BC,
        bc_result.predictions_a,
        bc_result.predictions_b,
        [(np.setdiff1d(np.arange(len(Y_BC)), t), t) for t in bc_result.test_indices],
    )
    assert "mean_difference_sign" in auto.tests
    assert bc_result.run_test("mean_difference_sign").statistic == pytest.approx(
        np.mean(bc_result.differences)
    )


def test_third_party_bcv_test_warns_on_random_mx2(restore_registry):
    @register_test("my_bcv", needs="tables", design="bcv")
    def my_bcv(*, tables, alpha, alternative):
        return Bunch(
            statistic=0.0,
            pvalue=1.0,
            df=None,
            reject=False,
            alternative=alternative,
            test="my_bcv",
        )

    cv = RepeatedKFold(n_splits=2, n_repeats=3, random_state=0)
    with pytest.warns(UserWarning, match="my_bcv is derived for block-regularized"):
        compare_estimators(DummyClassifier(), tree(), X_BC, Y_BC, cv=cv, tests="my_bcv")


@pytest.mark.parametrize(
    "tests, match",
    [
        ("nope", r"'nope' is not a registered test. Valid names: \["),
        ([], "tests must be None, a test name"),
        ([1], "tests must be None, a test name"),
        ({"paired_t": 3}, r"tests\['paired_t'\] must be a dict"),
    ],
)
def test_bad_tests_argument(tests, match):
    with pytest.raises(ValueError, match=match):
        compare_estimators(logistic(), tree(), X_BC, Y_BC, tests=tests)


# ---------------------------------------------------------------- scoring


def test_scoring_by_metric_name_and_callable(bc_result):
    splits = [
        (np.setdiff1d(np.arange(len(Y_BC)), t), t) for t in bc_result.test_indices
    ]
    args = (Y_BC, bc_result.predictions_a, bc_result.predictions_b, splits)
    balanced = compare_predictions(*args, scoring="balanced_accuracy", tests="paired_t")
    expected = [
        balanced_accuracy_score(Y_BC[t], p)
        for t, p in zip(bc_result.test_indices, bc_result.predictions_a)
    ]
    np.testing.assert_allclose(balanced.scores_a, expected)
    assert balanced.recommended_test == "calibrated_f_5x2bcv"

    def error_count(y_true, y_pred):
        return -float(np.sum(y_true != y_pred))

    custom = compare_predictions(*args, scoring=error_count, tests="paired_t")
    np.testing.assert_allclose(
        custom.differences, bc_result.tables[:, 1, 0] - bc_result.tables[:, 0, 1]
    )
    assert custom.scoring == "error_count"


def test_scoring_negated_loss_is_higher_is_better():
    splits = list(KFold(3).split(Y_REG))
    truth = [Y_REG[t] for _, t in splits]
    result = compare_predictions(
        Y_REG,
        truth,
        [t + 1.0 for t in truth],
        splits,
        scoring="neg_mean_squared_error",
        tests="paired_t",
    )
    # A is perfect (MSE 0), B is off by one everywhere (MSE 1).
    np.testing.assert_allclose(result.scores_a, 0.0)
    np.testing.assert_allclose(result.scores_b, -1.0)
    np.testing.assert_allclose(result.differences, 1.0)


def test_scoring_that_needs_probabilities_scores_the_fitted_estimators():
    # roc_auc and log loss need predict_proba/decision_function, so each
    # fitted clone is scored where it was fitted; the tables still come from
    # predict(). Check against roc_auc_score / log_loss on refitted clones.
    X, y = X_BC[:200], Y_BC[:200]
    cv = BlockRegularized5x2CV(random_state=0)
    splits = list(cv.split(X, y))
    for scoring in ("roc_auc", "neg_log_loss"):
        result = compare_estimators(
            logistic(),
            tree(max_depth=2),
            X,
            y,
            cv=cv,
            scoring=scoring,
            tests=["calibrated_f_5x2bcv", "bcv_mcnemar"],
        )
        assert result.scoring == scoring
        for i, (train, test) in enumerate(splits):
            for estimator, column in (
                (logistic(), "scores_a"),
                (tree(max_depth=2), "scores_b"),
            ):
                fitted = clone(estimator).fit(X[train], y[train])
                proba = fitted.predict_proba(X[test])[:, 1]
                expected = (
                    roc_auc_score(y[test], proba)
                    if scoring == "roc_auc"
                    else -log_loss(y[test], proba)
                )
                assert result[column][i] == pytest.approx(expected)
                if column == "scores_a":
                    np.testing.assert_array_equal(
                        result.predictions_a[i], fitted.predict(X[test])
                    )
        np.testing.assert_allclose(
            result.differences, result.scores_a - result.scores_b
        )
        expected_f = get_test("calibrated_f_5x2bcv")(differences=result.differences)
        assert result.tests.calibrated_f_5x2bcv.statistic == pytest.approx(
            expected_f.statistic
        )
        # The McNemar table does not depend on the scoring.
        accuracy = compare_estimators(
            logistic(), tree(max_depth=2), X, y, cv=cv, tests="bcv_mcnemar"
        )
        np.testing.assert_array_equal(result.tables, accuracy.tables)
        assert result.recommended_test == "calibrated_f_5x2bcv"


def test_probability_scorer_failure_follows_error_score():
    class NoProba(DecisionTreeClassifier):
        def predict_proba(self, X):
            raise RuntimeError("no probabilities today")

    X, y = X_BC[:120], Y_BC[:120]
    with pytest.raises(RuntimeError, match="no probabilities today"):
        compare_estimators(logistic(), NoProba(), X, y, cv=2, scoring="roc_auc")
    with pytest.warns(FitFailedWarning, match="predict or score failed"):
        result = compare_estimators(
            logistic(), NoProba(), X, y, cv=2, scoring="roc_auc", error_score=-1.0
        )
    np.testing.assert_array_equal(result.scores_b, [-1.0, -1.0])
    assert result.failed_fits[:, 1].all() and not result.failed_fits[:, 0].any()
    assert len(result.tests) == 0


def test_compare_predictions_refuses_scorers_that_need_the_estimator(bc_result):
    splits = [
        (np.setdiff1d(np.arange(len(Y_BC)), t), t) for t in bc_result.test_indices
    ]
    with pytest.raises(ValueError, match="scoring='roc_auc' needs the fitted"):
        compare_predictions(
            Y_BC,
            bc_result.predictions_a,
            bc_result.predictions_b,
            splits,
            scoring="roc_auc",
        )


@pytest.mark.parametrize(
    "scoring, match",
    [
        ("not_a_metric", "not_a_metric"),
        (lambda y_true, y_pred: np.array([1.0, 2.0]), "one finite number per split"),
    ],
)
def test_bad_scoring(scoring, match):
    with pytest.raises(ValueError, match=match):
        compare_estimators(
            logistic(), tree(), X_BC[:100], Y_BC[:100], cv=2, scoring=scoring
        )


# ---------------------------------------------------------------- bad input


class _NotAnEstimator:
    def fit(self, X, y):
        return self


class _NotCloneable(_NotAnEstimator):
    def predict(self, X):
        return np.zeros(len(X))


@pytest.mark.parametrize(
    "args, kwargs, match",
    [
        (
            (logistic(), tree(), X_BC, Y_BC[:-1]),
            {},
            "X and y must have the same number",
        ),
        ((3, tree(), X_BC, Y_BC), {}, "'estimator_a' parameter of compare_estimators"),
        (
            (logistic(), _NotAnEstimator(), X_BC, Y_BC),
            {},
            "'estimator_b' parameter",
        ),
        (
            (_NotCloneable(), tree(), X_BC, Y_BC),
            {},
            "'estimator_a' parameter .* implementing 'fit', 'predict' and 'get_params'",
        ),
        (
            (logistic(), Ridge(), X_BC, Y_BC),
            {},
            "must both be classifiers or both regressors; got a classification "
            "model .Pipeline. and a regression model .Ridge.",
        ),
        (
            (logistic(), tree(), X_BC[:5], np.array([0, 1, 0, 1, 0])),
            {},
            "cannot split the 5 records: .*BlockRegularized5x2CV with n_repeats=5 "
            "needs at least 8 samples",
        ),
        (
            (logistic(), tree(), X_BC[:5], np.array([0, 1, 0, 1, 0])),
            {"cv": KFold(10)},
            "cannot split the 5 records",
        ),
        (
            (logistic(), tree(), X_BC, np.zeros(len(Y_BC))),
            {},
            "y must hold at least two classes to compare classifiers; got 1",
        ),
        (
            (Ridge(), DummyRegressor(), X_REG, np.where(Y_REG > 0, np.nan, Y_REG)),
            {},
            "y contains NaN or infinity",
        ),
        (
            (logistic(), tree(), X_BC, np.c_[Y_BC, Y_BC]),
            {},
            r"y must be 1-D .* got shape \(569, 2\)",
        ),
        (
            (logistic(), tree(), X_BC, Y_BC),
            {"groups": np.zeros(3)},
            r"groups must have one label per record \(569\); got 3",
        ),
        ((logistic(), tree(), X_BC, Y_BC), {"alpha": 1.5}, "'alpha' parameter"),
        (
            (logistic(), tree(), X_BC, Y_BC),
            {"alternative": "bigger"},
            "'alternative' parameter",
        ),
        (
            (logistic(), tree(), X_BC, Y_BC),
            {"error_score": "ignore"},
            "'error_score' parameter",
        ),
        (
            (logistic(), tree(), X_BC, Y_BC + 0.5),
            {},
            "a classification needs class labels in y; got a 'continuous' target",
        ),
        (
            (logistic(), tree(), X_BC, Y_BC),
            {"scoring": lambda estimator, X, y: 1.0},
            r"takes \(estimator, X, y\) like a sklearn scorer",
        ),
    ],
)
def test_compare_estimators_bad_input(args, kwargs, match, monkeypatch):
    def no_fitting(*args, **kwargs):
        raise AssertionError("bad input must be rejected before any fit")

    # Every fit goes through _fit_and_predict (n_jobs=None runs in-process).
    monkeypatch.setattr(sklearn_bcv._engine._fit, "_fit_and_predict", no_fitting)
    with pytest.raises(ValueError, match=match):
        compare_estimators(*args, **kwargs)


def test_compare_predictions_bad_input():
    y = np.array([0, 1] * 10)
    splits = list(KFold(2).split(y))
    good = [y[t] for _, t in splits]
    with pytest.raises(ValueError, match="one array per split: 2 splits, got 1"):
        compare_predictions(y, good[:1], good, splits)
    with pytest.raises(ValueError, match="got one flat array"):
        compare_predictions(y, np.zeros(10), good, splits)
    with pytest.raises(ValueError, match=r"predictions_b\[1\] must be 1-D with one"):
        compare_predictions(y, good, [good[0], good[1][:-1]], splits)
    with pytest.raises(ValueError, match=r"outside \[0, 20\)"):
        compare_predictions(y, good, good, [(np.arange(10), np.arange(10, 21))] * 2)
    with pytest.raises(ValueError, match="'task' parameter"):
        compare_predictions(y, good, good, splits, task="ranking")
    with pytest.raises(ValueError, match=r"y must be 1-D .* got shape \(20, 2\)"):
        compare_predictions(np.c_[y, y], good, good, splits)
    # Objects of no known target type (here integers stored as object).
    with pytest.raises(ValueError, match="y must hold class labels or a continuous"):
        compare_predictions(y.astype(object), good, good, splits)


def test_compare_predictions_rejects_non_finite_predictions():
    y = np.array([0, 1] * 10)
    splits = list(KFold(2).split(y))
    good = [y[t].astype(float) for _, t in splits]
    bad = [good[0], good[1].copy()]
    bad[1][3] = np.nan
    with pytest.raises(ValueError, match=r"predictions_b\[1\] contains NaN or inf"):
        compare_predictions(y, good, bad, splits)


def test_compare_predictions_classification_needs_class_labels():
    splits = list(KFold(3).split(Y_REG))
    truth = [Y_REG[t] for _, t in splits]
    with pytest.raises(ValueError, match="needs class labels in y; got a 'cont"):
        compare_predictions(Y_REG, truth, truth, splits, task="classification")
    # A test set of one class is a valid classification of predictions.
    y = np.zeros(20, dtype=int)
    ones = [np.ones(10, dtype=int)] * 2
    with pytest.warns(UserWarning, match=r"labels that y never holds: \[1\]"):
        result = compare_predictions(
            y, ones, [y[t] for _, t in KFold(2).split(y)], list(KFold(2).split(y))
        )
    np.testing.assert_array_equal(result.differences, -1.0)


def test_compare_predictions_task_inference():
    y = np.arange(20) % 4
    splits = list(KFold(4).split(y))
    labels = [y[t] for _, t in splits]
    continuous = [t + 0.5 for t in labels]
    counts = compare_predictions(y, [t + 0.25 for t in labels], continuous, splits)
    # Integer targets with continuous predictions: a regression (counts).
    assert counts.task == "regression" and counts.tables is None
    # Labels from one, continuous values from the other: refused (issue 28),
    # not silently a regression scored with r2.
    with pytest.raises(ValueError, match=r"predictions_b\[0\] holds continuous"):
        compare_predictions(y, labels, continuous, splits)
    assert (
        compare_predictions(y, labels, continuous, splits, task="regression").task
        == "regression"
    )
    assert compare_predictions(y, labels, labels, splits).task == "classification"


def test_identical_estimators_give_no_difference():
    result = compare_estimators(tree(), tree(), X_BC, Y_BC, random_state=0)
    np.testing.assert_array_equal(result.differences, 0.0)
    assert not any(r.reject for r in result.tests.values())
    # Degenerate rule: no discordant pairs -> statistic 0, p-value 1.
    assert result.tests.bcv_mcnemar.pvalue == 1.0


# ---------------------------------------------------------------- fit failures


class FailingOnSmallLabels(ClassifierMixin, BaseEstimator):
    """Fails to fit when the first training label is 0 (some splits only)."""

    def fit(self, X, y):
        if y[0] == 0:
            raise ValueError("first label is zero")
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.ones(len(X), dtype=int)


def test_error_score_raise_reraises():
    with pytest.raises(ValueError, match="first label is zero"):
        compare_estimators(FailingOnSmallLabels(), tree(), X_BC, Y_BC, random_state=0)


def test_numeric_error_score_warns_and_runs_no_test():
    y = Y_BC.copy()
    with pytest.warns(FitFailedWarning, match="fits failed out of a total of 20"):
        result = compare_estimators(
            FailingOnSmallLabels(), tree(), X_BC, y, random_state=0, error_score=-1.0
        )
    train_first_labels = np.array(
        [y[np.setdiff1d(np.arange(len(y)), t)][0] for t in result.test_indices]
    )
    np.testing.assert_array_equal(result.failed_fits[:, 0], train_first_labels == 0)
    assert not result.failed_fits[:, 1].any()
    np.testing.assert_array_equal(result.scores_a[result.failed_fits[:, 0]], -1.0)
    assert len(result.tests) == 0
    assert set(result.skipped_tests) >= {"bcv_mcnemar", "corrected_t"}
    assert "fits failed" in str(result)


def test_run_test_refuses_a_result_with_failed_fits():
    with pytest.warns(FitFailedWarning):
        result = compare_estimators(
            FailingOnSmallLabels(), tree(), X_BC, Y_BC, random_state=0, error_score=0
        )
    # The differences hold error_score on failed splits: no test may use them.
    for name in ("paired_t", "bcv_mcnemar"):
        with pytest.raises(ValueError, match=f"{name} cannot run: 10 fits failed"):
            result.run_test(name)


def test_all_fits_failing_raises():
    class AlwaysFails(DummyClassifier):
        def fit(self, X, y):
            raise RuntimeError("broken")

    with pytest.raises(ValueError, match="All the 20 fits failed"):
        compare_estimators(AlwaysFails(), AlwaysFails(), X_BC, Y_BC, error_score=0)


# ---------------------------------------------------------------- params routing


def _weights_favouring_class(y, label):
    return np.where(y == label, 100.0, 1.0)


def test_sample_weight_reaches_fit():
    # The most frequent class is 1; weights 100x on class 0 make the weighted
    # prior predict 0 everywhere, so accuracy equals the share of class 0.
    weights = _weights_favouring_class(Y_BC, 0)
    result = compare_estimators(
        DummyClassifier(strategy="most_frequent"),
        DummyClassifier(strategy="most_frequent"),
        X_BC,
        Y_BC,
        random_state=0,
        params={"sample_weight": weights},
        tests="paired_t",
    )
    for pred in result.predictions_a:
        np.testing.assert_array_equal(pred, 0)
    unweighted = compare_estimators(
        DummyClassifier(strategy="most_frequent"),
        tree(),
        X_BC,
        Y_BC,
        random_state=0,
        tests="paired_t",
    )
    assert np.all(np.concatenate(unweighted.predictions_a) == 1)


def test_sample_weight_with_metadata_routing():
    weights = _weights_favouring_class(Y_BC, 0)
    with sklearn.config_context(enable_metadata_routing=True):
        weighted = DummyClassifier(strategy="most_frequent").set_fit_request(
            sample_weight=True
        )
        unweighted = DummyClassifier(strategy="most_frequent").set_fit_request(
            sample_weight=False
        )
        result = compare_estimators(
            weighted,
            unweighted,
            X_BC,
            Y_BC,
            random_state=0,
            params={"sample_weight": weights},
            tests="paired_t",
        )
        with pytest.raises(
            ValueError,
            match=r"\[sample_weight\] are passed but are not explicitly set as "
            "requested or not requested for DummyClassifier.fit, which is used "
            "within compare_estimators",
        ):
            compare_estimators(
                DummyClassifier(),
                unweighted,
                X_BC,
                Y_BC,
                params={"sample_weight": weights},
            )
        with pytest.raises(ValueError, match="groups can only be passed"):
            compare_estimators(
                weighted, unweighted, X_BC, Y_BC, groups=np.zeros(len(Y_BC))
            )
    assert np.all(np.concatenate(result.predictions_a) == 0)
    assert np.all(np.concatenate(result.predictions_b) == 1)


# ---------------------------------------------------------------- output


def test_summary_is_readable(bc_result):
    text = str(bc_result)
    assert text == repr(bc_result)
    lines = text.splitlines()
    assert lines[0] == (
        "Comparison of A = Pipeline(StandardScaler, LogisticRegression) and "
        "B = RandomForestClassifier on 5×2 block-regularized CV, 569 records"
    )
    assert re.match(
        r"  test +statistic +df +p-value +decision \(alpha=0.05\) +status", lines[3]
    )
    assert lines[4].split()[0] == "bcv_mcnemar" and lines[4].endswith("recommended")
    verdict = lines[2]
    assert verdict.startswith("Verdict from bcv_mcnemar (recommended for classifiers")
    expected = (
        "the estimators differ"
        if bc_result.tests.bcv_mcnemar.reject
        else "no significant difference"
    )
    assert expected in verdict


def test_verbose_prints_progress(capsys):
    compare_estimators(
        logistic(), tree(), X_BC, Y_BC, cv=2, verbose=2, tests="paired_t_5x2cv"
    )
    out = capsys.readouterr().out
    assert "Fitting 2 estimators on each of 2 splits, totalling 4 fits" in out
    assert "[compare A split 1/2] END fit_time=" in out
    assert "[compare B split 2/2] END" in out


class _Slow(DummyClassifier):
    """A dummy whose fit or predict sleeps, to tell the timing columns apart."""

    def __init__(self, fit_delay=0.0, predict_delay=0.0):
        super().__init__()
        self.fit_delay = fit_delay
        self.predict_delay = predict_delay

    def fit(self, X, y):
        time.sleep(self.fit_delay)
        return super().fit(X, y)

    def predict(self, X):
        time.sleep(self.predict_delay)
        return super().predict(X)


def test_fit_and_score_time_columns_are_a_then_b():
    result = compare_estimators(
        _Slow(fit_delay=0.02), _Slow(predict_delay=0.02), X_BC, Y_BC, cv=2
    )
    assert result.fit_time.shape == result.score_time.shape == (2, 2)
    # Sleeps bound the times from below only (no flaky upper bounds): swapped
    # columns would put the quick fits of B in column 0.
    assert np.all(result.fit_time[:, 0] >= 0.02)
    assert np.all(result.score_time[:, 1] >= 0.02)


def test_return_flags():
    result = compare_estimators(
        logistic(), tree(), X_BC, Y_BC, cv=2, return_predictions=False
    )
    assert result.predictions_a is None and result.estimators_a is None
    assert "differences" in result


def test_result_is_a_bunch_and_pickles(bc_result):
    import pickle

    assert bc_result["tests"] is bc_result.tests
    again = pickle.loads(pickle.dumps(bc_result))
    assert isinstance(again, ComparisonResult)
    np.testing.assert_array_equal(again.tables, bc_result.tables)


def test_no_warning_on_clean_bcv_run():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compare_estimators(logistic(), clone(tree()), X_BC, Y_BC, random_state=1)


# ---------------------------------------------------------------- invariants


@given(
    seed=st.integers(0, 2**16),
    n_classes=st.integers(2, 4),
    accuracy_a=st.floats(0.3, 1.0),
    accuracy_b=st.floats(0.3, 1.0),
)
def test_swapping_a_and_b_mirrors_the_result(seed, n_classes, accuracy_a, accuracy_b):
    rng = np.random.RandomState(seed)
    y = rng.randint(0, n_classes, 64)
    splits = list(BlockRegularized5x2CV(random_state=seed).split(y))

    def noisy(accuracy, test):
        wrong = (y[test] + 1 + rng.randint(0, n_classes - 1, test.size)) % n_classes
        return np.where(rng.rand(test.size) < accuracy, y[test], wrong)

    pred_a = [noisy(accuracy_a, test) for _, test in splits]
    pred_b = [noisy(accuracy_b, test) for _, test in splits]
    tests = ["bcv_mcnemar", "corrected_t", "combined_f_5x2cv"]
    forward = compare_predictions(y, pred_a, pred_b, splits, tests=tests)
    backward = compare_predictions(y, pred_b, pred_a, splits, tests=tests)
    # Swapping A and B transposes every table and negates the differences.
    np.testing.assert_array_equal(backward.tables, forward.tables.transpose(0, 2, 1))
    np.testing.assert_allclose(backward.differences, -forward.differences)
    # Accuracy difference = (n10 - n01) / n_test, from two computations.
    tables = forward.tables
    np.testing.assert_allclose(
        forward.differences,
        (tables[:, 1, 0] - tables[:, 0, 1]) / tables.sum(axis=(1, 2)),
        atol=1e-12,
    )
    for name in tests:
        assert backward.tests[name].pvalue == pytest.approx(forward.tests[name].pvalue)
    assert backward.tests.corrected_t.statistic == pytest.approx(
        -forward.tests.corrected_t.statistic
    )


# ---------------------------------------------------------------- declarations


def test_verdict_is_a_field(bc_result):
    verdict = bc_result.verdict
    assert verdict.test == "bcv_mcnemar" == bc_result.recommended_test
    assert verdict.text == str(bc_result).splitlines()[2]
    assert verdict.pvalue == bc_result.tests.bcv_mcnemar.pvalue
    expected = (
        ("A better" if np.mean(bc_result.differences) > 0 else "B better")
        if bc_result.tests.bcv_mcnemar.reject
        else "no difference"
    )
    assert verdict.decision == expected
    assert verdict.rationale.startswith("recommended for classifiers")


def test_verdict_of_a_bayesian_test_has_no_p_value():
    y = np.array([0, 1] * 20)
    splits = list(KFold(4).split(y))
    truth = [y[t] for _, t in splits]
    result = compare_predictions(
        y, truth, [1 - t for t in truth], splits, tests="bayesian_correlated_t"
    )
    assert result.verdict.test == "bayesian_correlated_t"
    assert result.verdict.pvalue is None and result.verdict.decision == "A better"
    assert "(p =" not in result.verdict.text


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (
            {"tests": "combined_f_5x2cv", "alternative": "greater"},
            r"combined_f_5x2cv supports alternative in \['two-sided'\] only; got "
            "'greater'",
        ),
        (
            {"tests": {"corrected_t": {"bogus": 1}}},
            r"tests\['corrected_t'\] has unknown parameter\(s\) \['bogus'\]; "
            r"corrected_t takes \['alpha', 'alternative'\]",
        ),
        (
            {"tests": {"bcv_mcnemar": {"tables": 1}}},
            r"tests\['bcv_mcnemar'\] has unknown parameter\(s\) \['tables'\]",
        ),
    ],
)
def test_declarations_refuse_a_test_before_any_fit(kwargs, match, monkeypatch):
    def no_fitting(*args, **kwargs):
        raise AssertionError("bad input must be rejected before any fit")

    monkeypatch.setattr(sklearn_bcv._engine._fit, "_fit_and_predict", no_fitting)
    with pytest.raises(ValueError, match=match):
        compare_estimators(logistic(), tree(), X_BC, Y_BC, **kwargs)


def test_a_third_party_test_can_be_the_recommended_one(restore_registry, bc_result):
    @register_test(
        "always_b",
        needs="differences",
        design="bcv",
        recommended_for={"bcv": 0},
        rationale="recommended by this test",
    )
    def always_b(*, differences, alpha, alternative):
        return Bunch(
            statistic=-1.0,
            pvalue=0.0,
            df=None,
            reject=True,
            alternative=alternative,
            test="always_b",
        )

    result = compare_predictions(
        Y_BC,
        bc_result.predictions_a,
        bc_result.predictions_b,
        [(np.setdiff1d(np.arange(len(Y_BC)), t), t) for t in bc_result.test_indices],
        cv=BlockRegularized5x2CV(random_state=0),
    )
    assert result.recommended_test == "always_b"
    assert result.verdict.text.startswith("Verdict from always_b (recommended by")
