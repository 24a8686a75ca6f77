"""Hostile input at the library's entry points (issue 15): no hang, no crash,
no silent wrong answer.

Each class of fault is a parametrised group: workers (``n_jobs``), predicted
labels of the wrong type, designs that make no sense, results that alias the
caller's arrays, test parameters checked only after the fits, scorings that
cannot score the target, and extreme numbers. The splitters, the statistics
and the command line have their own modules (``test_hostile_split.py``,
``test_hostile_stats.py``, ``test_hostile_cli.py``).
"""

import re
import warnings

import numpy as np
import pytest
from _strategies import EXTREME
from hypothesis import given, settings
from hypothesis import strategies as st
from joblib import cpu_count, parallel_config
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.datasets import load_iris
from sklearn.dummy import DummyClassifier
from sklearn.model_selection import KFold
from sklearn.utils import Bunch

import sklearn_bcv._engine._fit
from sklearn_bcv import (
    BlockRegularized5x2CV,
    benchmark,
    compare_estimators,
    compare_many_estimators,
    compare_many_predictions,
    compare_predictions,
    compare_scores,
    mcnemar_table,
    sequential_compare,
)
from sklearn_bcv._engine._fit import worker_count

X_IRIS, Y_IRIS = load_iris(return_X_y=True)
SPLITS = list(BlockRegularized5x2CV(random_state=0).split(X_IRIS, Y_IRIS))


class NeverFitted(ClassifierMixin, BaseEstimator):
    """An estimator whose fit fails the test: the error must come first."""

    def fit(self, X, y):
        raise AssertionError("fitted before the input was checked")

    def predict(self, X):
        raise AssertionError("predicted before the input was checked")


def truth(y=Y_IRIS, splits=SPLITS):
    return [y[test].copy() for _, test in splits]


# ---------------------------------------------------------------------------
# n_jobs: capped at the tasks (and cores); 0 and non-integers named
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n_jobs", [1, 2, 100, 10**6, 10**18])
def test_workers_never_exceed_the_tasks_or_the_cores(n_jobs):
    workers = worker_count(n_jobs, 20)
    assert 1 <= workers <= min(n_jobs, 20, cpu_count())


def test_negative_n_jobs_count_from_the_cores_as_in_joblib():
    assert worker_count(-1, 10**6) == cpu_count()
    assert worker_count(-(10**6), 10) == 1


def test_threading_workers_are_capped_at_the_tasks_only():
    with parallel_config(backend="threading"):
        assert worker_count(64, 20) == 20
        assert worker_count(64, 100) == 64


@pytest.mark.parametrize("n_jobs", [0, 2.5, "2", True])
def test_bad_n_jobs_is_named_before_any_fit(n_jobs):
    with pytest.raises((ValueError, TypeError), match="n_jobs"):
        compare_estimators(NeverFitted(), NeverFitted(), X_IRIS, Y_IRIS, n_jobs=n_jobs)


def test_huge_n_jobs_runs_as_a_few_workers():
    # joblib alone fails ("Numeric literal ... too large") or starts one
    # process per job; the comparison is the same as with n_jobs=1.
    kwargs = dict(random_state=0, tests=["bcv_mcnemar"])
    huge = compare_estimators(
        DummyClassifier(),
        DummyClassifier(strategy="uniform", random_state=0),
        X_IRIS,
        Y_IRIS,
        n_jobs=10**6,
        **kwargs,
    )
    one = compare_estimators(
        DummyClassifier(),
        DummyClassifier(strategy="uniform", random_state=0),
        X_IRIS,
        Y_IRIS,
        n_jobs=1,
        **kwargs,
    )
    assert huge.tests.bcv_mcnemar.pvalue == one.tests.bcv_mcnemar.pvalue


# ---------------------------------------------------------------------------
# Predicted labels that do not share y's type or set
# ---------------------------------------------------------------------------

STRING_Y = np.array(["setosa", "versicolor", "virginica"])[Y_IRIS]


def _with_first(predictions, value, dtype=object):
    predictions = [p.astype(dtype) for p in predictions]
    predictions[0][0] = value
    return predictions


LABEL_CASES = {
    "strings against integer y": (
        Y_IRIS,
        [np.full(test.size, "cat", dtype=object) for _, test in SPLITS],
        "must hold labels of y's type .numbers.*got string labels",
    ),
    "numpy strings against integer y": (
        Y_IRIS,
        [np.full(test.size, "dog") for _, test in SPLITS],
        "must hold labels of y's type .numbers.*got string labels",
    ),
    "integers against string y": (
        STRING_Y,
        truth(Y_IRIS),
        "must hold labels of y's type .strings.*got number labels",
    ),
    "None inside object predictions": (
        STRING_Y,
        _with_first(truth(STRING_Y), None),
        r"contains missing values \(None or NaN\)",
    ),
    "NaN inside object predictions": (
        STRING_Y,
        _with_first(truth(STRING_Y), float("nan")),
        r"contains missing values \(None or NaN\)",
    ),
    "a number among string labels": (
        STRING_Y,
        _with_first(truth(STRING_Y), 3),
        "must hold labels of y's type .strings.*got mixed labels",
    ),
}


@pytest.mark.parametrize("case", LABEL_CASES, ids=list(LABEL_CASES))
def test_predicted_labels_of_another_type_are_refused(case):
    y, bad, message = LABEL_CASES[case]
    with pytest.raises(ValueError, match=f"predictions_a {message}"):
        compare_predictions(y, bad, truth(y), SPLITS)
    with pytest.raises(ValueError, match=message):
        compare_many_predictions(
            y, {"bad": bad, "good": truth(y), "other": truth(y)}, SPLITS
        )


def test_a_target_mixing_strings_and_numbers_is_refused():
    y = np.array(["a", 1] * 75, dtype=object)
    with pytest.raises(ValueError, match="y mixes strings and numbers"):
        compare_estimators(NeverFitted(), NeverFitted(), X_IRIS, y)


def test_valid_but_unseen_labels_are_warned_about_and_count_as_errors():
    seen = truth()
    unseen = _with_first(seen, 7, dtype=int)
    with pytest.warns(UserWarning, match=r"labels that y never holds: \[7\]"):
        result = compare_predictions(Y_IRIS, unseen, seen, SPLITS)
    assert result.tables[0][0, 1] == 1  # A wrong, B right on that one record


# ---------------------------------------------------------------------------
# Designs that make no sense
# ---------------------------------------------------------------------------

OVERLAPPING = {
    "test set reused as training set": (
        [(test, test) for _, test in SPLITS],
        r"splits\[0\] trains and tests on the same records",
    ),
    "one shared record": (
        [(np.append(train, test[0]), test) for train, test in SPLITS],
        r"splits\[0\] trains and tests on the same records \(1 shared",
    ),
    "a record tested twice": (
        [(train, np.append(test, test[0])) for train, test in SPLITS],
        r"splits\[0\] test holds record \d+ 2 times",
    ),
}


@pytest.mark.parametrize("case", OVERLAPPING, ids=list(OVERLAPPING))
def test_overlapping_train_and_test_sets_are_refused(case):
    splits, message = OVERLAPPING[case]
    predictions = [Y_IRIS[test] for _, test in splits]
    with pytest.raises(ValueError, match=message):
        compare_predictions(Y_IRIS, predictions, predictions, splits)
    with pytest.raises(ValueError, match=message):
        compare_estimators(NeverFitted(), NeverFitted(), X_IRIS, Y_IRIS, cv=splits)


def test_a_bootstrap_training_set_is_a_valid_design():
    rng = np.random.RandomState(0)
    splits = []
    for _ in range(3):
        train = rng.choice(100, 100)  # repeats records
        splits.append((train, np.setdiff1d(np.arange(150), train)))
    result = compare_predictions(
        Y_IRIS, truth(splits=splits), truth(splits=splits), splits
    )
    assert result.design.kind == "any"


# ---------------------------------------------------------------------------
# Results own their data
# ---------------------------------------------------------------------------


def _arrays(value):
    """Every ndarray reachable from a result (Bunch, dict, list, attrs)."""
    if isinstance(value, np.ndarray):
        yield value
    elif isinstance(value, dict | Bunch):
        for item in value.values():
            yield from _arrays(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _arrays(item)


def _assert_owns(result, inputs):
    inputs = list(_arrays(inputs))
    for array in _arrays(result):
        for given_array in inputs:
            assert not np.shares_memory(array, given_array)


def test_compare_predictions_owns_its_data():
    y, a, b = Y_IRIS.copy(), truth(), truth()
    splits = [(tr.copy(), te.copy()) for tr, te in SPLITS]
    result = compare_predictions(y, a, b, splits)
    _assert_owns(result, [y, a, b, splits])
    result.predictions_a[0][:] = 99
    result.test_indices[0][:] = 0
    np.testing.assert_array_equal(a[0], truth()[0])
    np.testing.assert_array_equal(splits[0][1], SPLITS[0][1])


def test_compare_many_predictions_owns_its_data():
    y = Y_IRIS.copy()
    predictions = {"a": truth(), "b": truth(), "c": truth()}
    splits = [(tr.copy(), te.copy()) for tr, te in SPLITS]
    result = compare_many_predictions(y, predictions, splits)
    _assert_owns(result, [y, list(predictions.values()), splits])


def test_compare_estimators_with_a_list_of_splits_owns_its_data():
    splits = [(tr.copy(), te.copy()) for tr, te in SPLITS]
    result = compare_estimators(
        DummyClassifier(), DummyClassifier(), X_IRIS, Y_IRIS, cv=splits
    )
    _assert_owns(result, [Y_IRIS, splits])
    many = compare_many_estimators(
        {"a": DummyClassifier(), "b": DummyClassifier()}, X_IRIS, Y_IRIS, cv=splits
    )
    _assert_owns(many, [Y_IRIS, splits])


def test_sequential_compare_owns_its_data():
    X, y = X_IRIS.copy(), Y_IRIS.copy()
    result = sequential_compare(
        DummyClassifier(), DummyClassifier(), X, y, max_repeats=3, random_state=0
    )
    _assert_owns(result, [X, y])


def test_compare_scores_owns_its_data():
    scores = np.random.RandomState(0).rand(6, 3)
    result = compare_scores(scores)
    _assert_owns(result, [scores])
    per_split = np.random.RandomState(0).rand(6, 10, 3)
    result = compare_scores(per_split, n_train=75, n_test=75)
    _assert_owns(result, [per_split])


# ---------------------------------------------------------------------------
# Test parameters are checked before any fit
# ---------------------------------------------------------------------------

LATE = {
    "unknown parameter": ({"corrected_t": {"bogus": 1}}, "unknown parameter"),
    "negative rope": ({"bayesian_correlated_t": {"rope": -1}}, "rope must be"),
    "alpha out of range": ({"corrected_t": {"alpha": 2}}, "alpha must be"),
    "unknown alternative": (
        {"corrected_t": {"alternative": "sideways"}},
        "alternative",
    ),
    "unknown test": ({"no_such_test": {}}, "no_such_test"),
    "correlations out of eq. 9's bound": (
        {"bcv_mcnemar": {"rho2": 0.9}},
        r"tests\['bcv_mcnemar'\]: rho2 must be at most",
    ),
    "negative degrees of freedom": (
        {"calibrated_f_5x2bcv": {"df1": -1}},
        "df1 must be",
    ),
}


@pytest.mark.parametrize("case", LATE, ids=list(LATE))
def test_test_parameters_are_checked_before_any_fit(case):
    tests, message = LATE[case]
    with pytest.raises(ValueError, match=message):
        compare_estimators(NeverFitted(), NeverFitted(), X_IRIS, Y_IRIS, tests=tests)
    with pytest.raises(ValueError, match=message):
        compare_many_estimators(
            {"a": NeverFitted(), "b": NeverFitted()},
            X_IRIS,
            Y_IRIS,
            pairwise_tests=tests,
        )


@pytest.mark.parametrize(
    "pairwise_tests, message",
    [
        ({"bayesian_signed_rank": {"rope": -1}}, "rope must be"),
        ({"wilcoxon": {"bogus": 1}}, "unknown parameter"),
        ({"sign": {"alpha": 0}}, "alpha must be"),
        ({"wilcoxon": {"zero_method": "drop"}}, "zero_method must be"),
        ({"bayesian_sign": {"n_samples": 0}}, "n_samples must be"),
        ({"bayesian_sign": {"random_state": "seed"}}, "seed"),
    ],
)
def test_benchmark_test_parameters_are_checked_before_any_fit(pairwise_tests, message):
    datasets = {"a": (X_IRIS, Y_IRIS), "b": (X_IRIS, Y_IRIS)}
    with pytest.raises(ValueError, match=message):
        benchmark(
            {"a": NeverFitted(), "b": NeverFitted()},
            datasets,
            pairwise_tests=pairwise_tests,
        )
    with pytest.raises(ValueError, match=message):
        compare_scores(
            np.random.RandomState(0).rand(6, 3),
            pairwise_tests=pairwise_tests,
            n_train=75,
            n_test=75,
        )


def test_benchmark_omnibus_parameters_are_checked_before_any_fit():
    with pytest.raises(ValueError, match="continuity must be True or False"):
        benchmark(
            {"a": NeverFitted(), "b": NeverFitted()},
            {"a": (X_IRIS, Y_IRIS), "b": (X_IRIS, Y_IRIS)},
            tests={"friedman": {}, "nemenyi": {"continuity": "yes"}},
        )


# ---------------------------------------------------------------------------
# A scoring that cannot score the target fails before any fit
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "scoring, instead",
    [("roc_auc", "roc_auc_ovr"), ("f1", "f1_macro"), ("precision", "precision_macro")],
)
def test_binary_scorings_on_a_multiclass_target_say_what_to_use(scoring, instead):
    message = f"scoring='{scoring}' cannot score a multiclass target.*'{instead}'"
    with pytest.raises(ValueError, match=message):
        compare_estimators(
            NeverFitted(), NeverFitted(), X_IRIS, Y_IRIS, scoring=scoring
        )
    with pytest.raises(ValueError, match=message):
        benchmark(
            {"a": NeverFitted(), "b": NeverFitted()},
            {"iris": (X_IRIS, Y_IRIS), "again": (X_IRIS, Y_IRIS)},
            scoring=scoring,
        )


def test_a_binary_scoring_on_string_labels_is_refused_before_any_fit():
    y = np.array(["no", "yes"])[(Y_IRIS > 0).astype(int)]
    with pytest.raises(ValueError, match="scoring='f1' cannot score a binary target"):
        compare_estimators(NeverFitted(), NeverFitted(), X_IRIS, y, scoring="f1")


def test_the_multiclass_variant_runs():
    result = compare_estimators(
        DummyClassifier(strategy="prior"),
        DummyClassifier(strategy="uniform", random_state=0),
        X_IRIS,
        Y_IRIS,
        scoring="roc_auc_ovr",
        random_state=0,
    )
    np.testing.assert_allclose(result.scores_a, 0.5)


# ---------------------------------------------------------------------------
# Extreme numbers: a p-value in [0, 1], never NaN, no warning
# ---------------------------------------------------------------------------

KFOLD = list(KFold(5).split(np.zeros(20)))


def _numbers(result):
    for name, test in result.tests.items():
        for key in ("pvalue", "statistic"):
            value = test.get(key)
            if value is not None:
                yield name, key, float(value)


@settings(max_examples=40, deadline=None)
@given(
    y=st.lists(EXTREME, min_size=20, max_size=20),
    shift_a=EXTREME,
    shift_b=EXTREME,
)
def test_regression_predictions_with_extreme_values(y, shift_a, shift_b):
    y = np.array(y)
    a = [y[test] + shift_a for _, test in KFOLD]
    b = [y[test] - shift_b for _, test in KFOLD]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            result = compare_predictions(
                y, a, b, KFOLD, task="regression", scoring="neg_mean_absolute_error"
            )
        except ValueError as exc:
            # What float64 cannot hold is named, not passed on as NaN or p = 1.
            assert re.search("finite|overflow|underflow", str(exc)), str(exc)
            return
    for name, key, value in _numbers(result):
        assert not np.isnan(value), (name, key)
        if key == "pvalue":
            assert 0.0 <= value <= 1.0, name
    assert "nan" not in result.verdict["text"]


def _all_pvalues(bunch):
    """Every p-value in a (nested) result Bunch."""
    for key, value in bunch.items():
        if isinstance(value, dict | Bunch):
            yield from _all_pvalues(value)
        elif key.startswith("pvalue") and value is not None:
            yield key, np.asarray(value, dtype=float)


@settings(max_examples=30, deadline=None)
@given(
    scores=st.lists(st.lists(EXTREME, min_size=3, max_size=3), min_size=5, max_size=8),
    per_split=st.booleans(),
)
def test_compare_scores_with_extreme_values(scores, per_split):
    scores = np.array(scores)
    if per_split:  # the same table on each of 4 splits, shifted by one split
        scores = np.stack([scores, scores, scores[::-1], scores], axis=1)
        kwargs = dict(n_train=50, n_test=50)
    else:
        kwargs = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            result = compare_scores(scores, random_state=0, **kwargs)
        except ValueError as exc:
            assert re.search("finite|overflow|underflow", str(exc)), str(exc)
            return
    pvalues = list(_all_pvalues(result.tests)) + list(_all_pvalues(result.pairwise))
    assert pvalues
    for key, value in pvalues:
        assert not np.any(np.isnan(value)), key
        assert np.all((value >= 0) & (value <= 1)), key
    text = str(result)
    assert " nan" not in text and "(p = nan" not in text


def test_a_failing_loader_is_named():
    def broken():
        raise OSError("no such file")

    with pytest.raises(OSError, match="no such file") as info:
        benchmark(
            {"a": NeverFitted(), "b": NeverFitted()},
            {"iris": (X_IRIS, Y_IRIS), "broken": broken},
        )
    assert "datasets['broken']" in "".join(info.value.__notes__)


class NeverFittedRegressor(RegressorMixin, BaseEstimator):
    fit, predict = NeverFitted.fit, NeverFitted.predict


@pytest.mark.parametrize("scoring", ["neg_log_loss", "roc_auc"])
def test_a_classifier_scoring_on_a_regression_says_so(scoring):
    y = X_IRIS[:, 0]
    never = NeverFittedRegressor()
    with pytest.raises(ValueError, match="needs a classifier's .*'r2'") as info:
        compare_estimators(never, never, X_IRIS, y, scoring=scoring)
    assert "Probe" not in str(info.value)
    assert "roc_auc_ovr" not in str(info.value)


@pytest.mark.parametrize("scale", [1e-150, 1e-80, 1e80, 1e150])
def test_a_regression_at_any_scale_gives_the_same_p_values(scale):
    rng = np.random.RandomState(0)
    y = rng.randn(20)
    a = [y[test] + 0.3 * rng.randn(test.size) for _, test in KFOLD]
    b = [y[test] + 0.5 * rng.randn(test.size) for _, test in KFOLD]
    unit = compare_predictions(y, a, b, KFOLD, scoring="neg_mean_absolute_error")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the task is inferred: no cast warning
        scaled = compare_predictions(
            y * scale,
            [p * scale for p in a],
            [p * scale for p in b],
            KFOLD,
            scoring="neg_mean_absolute_error",
        )
    assert scaled.task == "regression"
    for name, test in unit.tests.items():
        for key in ("pvalue", "p_a_better", "p_rope", "p_b_better"):
            if test.get(key) is not None:
                np.testing.assert_allclose(
                    scaled.tests[name][key], test[key], rtol=1e-9, atol=1e-12
                )


@pytest.mark.parametrize(
    "scale, beyond",
    [(1e300, "overflow"), (1e-300, "underflow"), (2.0**-1070, "underflow")],
)
def test_squared_errors_beyond_float64_are_refused_with_a_reason(scale, beyond):
    y = np.random.RandomState(0).randn(20) * scale
    with pytest.raises(ValueError, match=f"squared errors of the predictions {beyond}"):
        compare_predictions(
            y,
            [y[test] * 0.5 for _, test in KFOLD],
            [y[test] for _, test in KFOLD],
            KFOLD,
            scoring="neg_mean_absolute_error",
        )


@pytest.mark.parametrize(
    "y_true, y_pred_a, message",
    [
        ([0, 1, 1], ["a", "b", "b"], "y_pred_a must hold labels of y_true's type"),
        (["a", "b", "b"], [0, 1, 1], "y_pred_a must hold labels of y_true's type"),
        (["a", "b", "b"], ["a", None, "b"], "y_pred_a contains missing values"),
        (np.array(["a", 1, 1], dtype=object), [1, 1, 1], "y_true mixes strings"),
    ],
)
def test_mcnemar_table_refuses_labels_of_another_type(y_true, y_pred_a, message):
    y_pred_a = np.array(y_pred_a, dtype=object if None in y_pred_a else None)
    with pytest.raises(ValueError, match=message):
        mcnemar_table(y_true, y_pred_a, y_true)


@pytest.mark.parametrize("test", ["bayesian_signed_rank", "bayesian_sign"])
def test_monte_carlo_draws_are_bounded_before_any_allocation(test):
    from sklearn_bcv import stats

    differences = np.linspace(-0.1, 0.2, 10)
    with pytest.raises(ValueError, match=r"n_samples × \(data sets \+ 1\) must be"):
        getattr(stats, test)(differences, n_samples=10**9)
    with pytest.raises(ValueError, match="n_samples × .* must be at most"):
        compare_scores(
            np.random.RandomState(0).rand(6, 3),
            pairwise_tests={test: {"n_samples": 10**12}},
        )


def test_splits_too_many_for_the_memory_are_refused_before_they_are_drawn(
    monkeypatch,
):
    # 10**5 repetitions of 2-fold CV on 2**17 records: 2·10**5 × 2**17 indices
    # (about 195 GiB); the check comes before a sub-block is allocated.
    from sklearn_bcv import BlockRegularizedMx2CV

    monkeypatch.setattr(sklearn_bcv._engine._fit, "_physical_memory", lambda: 2**34)
    X = np.zeros((2**17, 1))
    y = np.arange(2**17) % 2
    with pytest.raises(ValueError, match="GiB of indices, more than half"):
        compare_estimators(
            NeverFitted(),
            NeverFitted(),
            X,
            y,
            cv=BlockRegularizedMx2CV(n_repeats=10**5),
        )


@pytest.mark.parametrize(
    "display, args",
    [
        ("ContingencyTableDisplay", ()),
        ("CriticalDifferenceDisplay", ()),
        ("PosteriorDisplay", ()),
        ("ScoreDifferencesDisplay", ()),
        ("SignificanceMatrixDisplay", ()),
        ("PosteriorSimplexDisplay", ("a", "b")),
    ],
)
def test_displays_name_the_result_they_need(display, args):
    import sklearn_bcv

    from_result = getattr(sklearn_bcv, display).from_result
    with pytest.raises(TypeError, match=f"{display} needs the result of .*NoneType"):
        from_result(None, *args)
    if display != "ContingencyTableDisplay":  # it says which field is missing
        with pytest.raises(ValueError, match=f"{display} needs the result of"):
            from_result(Bunch(), *args)
