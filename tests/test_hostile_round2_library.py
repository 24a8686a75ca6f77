"""Hostile input, round 2 (issue 28), the library side: one mechanism per
class of fault, each tried on several variants and on every entry point it
serves.

Classes: silent wrong answers (a loss given as a score, names from a set,
continuous predictions among class labels, a clusterer as a classifier),
late failures (failed fits with ``error_score=np.nan``, invalid or
unclonable estimators, the order of ``sequential_compare``'s checks),
runaway cost (the cap on looks, the name check, pairwise tests run once per
pair) and overflow/mutation (tables near ``±1e308``, a list-of-lists X).
"""

import time
import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.cluster import KMeans
from sklearn.datasets import make_classification, make_regression
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.ensemble import IsolationForest
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.metrics import (
    accuracy_score,
    log_loss,
    make_scorer,
    mean_absolute_error,
    mean_squared_error,
    zero_one_loss,
)
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import (
    BlockRegularized5x2CV,
    benchmark,
    compare_estimators,
    compare_many_estimators,
    compare_many_predictions,
    compare_predictions,
    compare_scores,
    sequential_compare,
)
from sklearn_bcv._engine._validation import check_names
from sklearn_bcv.stats import group_sequential_boundaries
from sklearn_bcv.stats._utils import stable_mean

X_REG, Y_REG = make_regression(120, 4, noise=5.0, random_state=0)
X_CLF, Y_CLF = make_classification(120, 4, random_state=0)


# --- 1. Silent wrong answers -------------------------------------------------


LOSSES = [
    mean_squared_error,
    mean_absolute_error,
    make_scorer(mean_squared_error),
    lambda y_true, y_pred: float(np.mean((y_true - y_pred) ** 2)),
]


@pytest.mark.parametrize("scoring", LOSSES)
def test_loss_as_scoring_is_refused_before_any_fit(scoring):
    """A loss (by its name or by scoring a worse regressor higher) is refused
    with a message saying how to pass it, by every entry point."""
    message = "is a loss.*neg_mean_squared_error.*greater_is_better=False"
    with pytest.raises(ValueError, match=message):
        compare_estimators(
            LinearRegression(), DummyRegressor(), X_REG, Y_REG, scoring=scoring
        )
    with pytest.raises(ValueError, match=message):
        compare_many_estimators(
            {"lr": LinearRegression(), "dummy": DummyRegressor()},
            X_REG,
            Y_REG,
            scoring=scoring,
        )
    with pytest.raises(ValueError, match=message):
        sequential_compare(
            LinearRegression(),
            DummyRegressor(),
            X_REG,
            Y_REG,
            scoring=scoring,
            test="bcv_t",
        )
    with pytest.raises(ValueError, match=message):
        benchmark(
            {"lr": LinearRegression(), "dummy": DummyRegressor()},
            {"a": (X_REG, Y_REG), "b": (X_REG[:100], Y_REG[:100])},
            scoring=scoring,
        )
    splits = list(BlockRegularized5x2CV(random_state=0).split(Y_REG))
    good = [Y_REG[t] + 1.0 for _, t in splits]
    with pytest.raises(ValueError, match=message):
        compare_predictions(Y_REG, good, good, splits, scoring=scoring)


@pytest.mark.parametrize("scoring", [log_loss, zero_one_loss])
def test_classification_losses_are_refused(scoring):
    with pytest.raises(ValueError, match="is a loss"):
        compare_estimators(
            DecisionTreeClassifier(), DummyClassifier(), X_CLF, Y_CLF, scoring=scoring
        )


@pytest.mark.parametrize(
    "scoring",
    [
        "neg_mean_squared_error",
        make_scorer(mean_squared_error, greater_is_better=False),
        lambda y_true, y_pred: -float(np.mean(np.abs(y_true - y_pred))),
    ],
)
def test_negated_losses_rank_the_better_regressor_first(scoring):
    result = compare_estimators(
        LinearRegression(),
        DummyRegressor(),
        X_REG,
        Y_REG,
        scoring=scoring,
        random_state=0,
    )
    assert result.scores_a.mean() > result.scores_b.mean()


def test_scores_are_accepted():
    result = compare_estimators(
        DecisionTreeClassifier(random_state=0),
        DummyClassifier(),
        X_CLF,
        Y_CLF,
        scoring=accuracy_score,
        random_state=0,
    )
    assert result.scores_a.mean() > result.scores_b.mean()


@pytest.mark.parametrize(
    "names",
    [
        {"a", "b", "c"},
        frozenset("abc"),
        {"a": 1, "b": 2, "c": 3}.keys(),
        iter(["a", "b", "c"]),
        (n for n in "abc"),
    ],
)
def test_names_must_be_an_ordered_sequence(names):
    scores = np.arange(12.0).reshape(4, 3) % 5
    # Iterators are refused by the parameter validation, sets by the check.
    with pytest.raises((TypeError, ValueError), match="names.* must be a"):
        compare_scores(scores, names=names)


def test_names_from_a_list_or_tuple_or_array_label_columns_in_order():
    scores = np.array([[0.9, 0.5, 0.7]] * 5) + np.arange(5)[:, None] * 0.01
    for names in (["x", "y", "z"], ("x", "y", "z"), np.array(["x", "y", "z"])):
        result = compare_scores(scores, names=names)
        assert result.names == ["x", "y", "z"]
        np.testing.assert_array_equal(result.mean_ranks, [1.0, 3.0, 2.0])


def _splits_and_labels():
    rng = np.random.RandomState(0)
    y = rng.randint(0, 3, 200)
    splits = list(BlockRegularized5x2CV(random_state=0).split(y))
    labels = [y[t] for _, t in splits]
    return rng, y, splits, labels


def test_continuous_predictions_among_labels_are_refused():
    rng, y, splits, labels = _splits_and_labels()
    probabilities = [rng.rand(t.size) for _, t in splits]
    # Only one split's predictions continuous: named with its split.
    one_split = [p.astype(float) for p in labels]
    one_split[3] = one_split[3] + 0.25
    for bad, where in ((probabilities, r"\[0\]"), (one_split, r"\[3\]")):
        with pytest.raises(ValueError, match=f"predictions_b{where} holds continuous"):
            compare_predictions(y, labels, bad, splits)
        with pytest.raises(ValueError, match=rf"\['p'\]{where} holds continuous"):
            compare_many_predictions(y, {"l": labels, "p": bad, "m": labels}, splits)


def test_all_continuous_predictions_of_a_whole_number_target_are_a_regression():
    rng, y, splits, _ = _splits_and_labels()
    a = [y[t] + 0.1 for _, t in splits]
    b = [y[t] + rng.normal(0, 1, t.size) for _, t in splits]
    assert compare_predictions(y, a, b, splits).scoring == "r2"
    labels_as_float = [y[t].astype(float) for _, t in splits]
    result = compare_predictions(y, labels_as_float, labels_as_float, splits)
    assert result.scoring == "accuracy"


@pytest.mark.parametrize("other", [KMeans(2, n_init=1), IsolationForest()])
def test_clusterers_and_outlier_detectors_are_refused(other):
    with pytest.raises(TypeError, match="must be a classifier or a regressor"):
        compare_estimators(other, DummyClassifier(), X_CLF, Y_CLF)
    with pytest.raises(TypeError, match=r"'odd' must be a classifier.*a (cluster|out)"):
        compare_many_estimators({"odd": other, "d": DummyClassifier()}, X_CLF, Y_CLF)
    with pytest.raises(TypeError, match="must be a classifier or a regressor"):
        sequential_compare(DummyClassifier(), other, X_CLF, Y_CLF)


# --- 2. Late failures --------------------------------------------------------


class _FailsOnLargeTrainingSets(ClassifierMixin, BaseEstimator):
    def __init__(self, max_records=150):
        self.max_records = max_records

    def fit(self, X, y):
        if len(X) > self.max_records:
            raise RuntimeError("too many records")
        self.constant_ = y[0]
        return self

    def predict(self, X):
        return np.full(len(X), self.constant_)


def test_benchmark_error_score_nan_warns_and_skips_the_tests():
    small = make_classification(200, 4, random_state=0)
    large = make_classification(400, 4, random_state=1)
    with pytest.warns(Warning, match="fits failed"):
        result = benchmark(
            {
                "fails": _FailsOnLargeTrainingSets(),
                "tree": DecisionTreeClassifier(random_state=0),
                "stump": DecisionTreeClassifier(max_depth=1, random_state=0),
            },
            {"small": small, "large": large, "again": small},
            error_score=np.nan,
            random_state=0,
        )
    assert np.isnan(result.scores[1, 0]) and np.all(np.isfinite(result.scores[0]))
    assert result.failed_fits[1, :, 0].all() and not result.failed_fits[0].any()
    assert not result.tests and not result.pairwise
    assert "fits failed on large" in result.verdict.text
    assert np.all(np.isnan(result.mean_ranks))


class _Counting(ClassifierMixin, BaseEstimator):
    fits = 0

    def fit(self, X, y):
        type(self).fits += 1
        self.constant_ = y[0]
        return self

    def predict(self, X):
        return np.full(len(X), self.constant_)


class _Unclonable(ClassifierMixin, BaseEstimator):
    def __init__(self, a=1):
        self.b = a  # stores a parameter under another name: clone fails

    def fit(self, X, y):
        return self

    def predict(self, X):
        return np.zeros(len(X))


@pytest.mark.parametrize(
    "bad, match",
    [
        (LogisticRegression(C=-1), r"\(LogisticRegression\) has an invalid parameter"),
        (DecisionTreeClassifier(max_depth=-3), "has an invalid parameter"),
        (_Unclonable(), r"\(_Unclonable\) cannot be cloned"),
    ],
)
def test_bad_estimators_fail_before_any_fit_naming_the_estimator(bad, match):
    calls = [
        lambda: compare_estimators(_Counting(), bad, X_CLF, Y_CLF),
        lambda: compare_many_estimators({"ok": _Counting(), "bad": bad}, X_CLF, Y_CLF),
        lambda: sequential_compare(_Counting(), bad, X_CLF, Y_CLF),
        lambda: benchmark(
            {"ok": _Counting(), "bad": bad},
            {"a": (X_CLF, Y_CLF), "b": (X_CLF[:100], Y_CLF[:100])},
        ),
    ]
    _Counting.fits = 0
    for call in calls:
        with pytest.raises(ValueError, match=match) as info:
            call()
        # Not sklearn's InvalidParameterError naming the entry point's 'C'.
        assert "parameter of benchmark" not in str(info.value)
        assert "parameter of compare" not in str(info.value)
    assert _Counting.fits == 0


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(scoring=mean_squared_error), "is a loss"),
        (dict(scoring="roc_auc"), "needs a classifier"),
        (dict(stratify=True), "stratify=True needs classifiers"),
    ],
)
def test_sequential_compare_checks_before_its_boundaries(kwargs, match):
    # 50 looks take tens of seconds to compute: the refusal must come first.
    start = time.perf_counter()
    with pytest.raises(ValueError, match=match):
        sequential_compare(
            LinearRegression(),
            DummyRegressor(),
            X_REG,
            Y_REG,
            min_repeats=1,
            max_repeats=50,
            test="bcv_t",
            **kwargs,
        )
    assert time.perf_counter() - start < 5.0


# --- 4. Runaway cost ---------------------------------------------------------


@pytest.mark.parametrize("max_repeats", [51, 200, 10**6])
def test_group_sequential_boundaries_cap_the_looks(max_repeats):
    with pytest.raises(ValueError, match="max_repeats must be at most 50"):
        group_sequential_boundaries(1, max_repeats)
    with pytest.raises(ValueError, match="max_repeats must be at most 50"):
        sequential_compare(
            LinearRegression(),
            DummyRegressor(),
            X_REG,
            Y_REG,
            max_repeats=max_repeats,
            test="bcv_t",
        )


def test_name_check_is_linear_and_still_finds_repeats():
    names = [f"d{i}" for i in range(200_000)]
    start = time.perf_counter()
    assert check_names(names, argument="datasets") == names
    assert time.perf_counter() - start < 5.0  # quadratic: about 6 minutes
    with pytest.raises(ValueError, match=r"\['d7', 'd9'\] repeat"):
        check_names([*names[:10], "d9", "d7", "d9"], argument="datasets")


def test_compare_scores_on_many_datasets():
    rng = np.random.default_rng(0)
    scores = rng.uniform(size=(20_000, 3)) + [0.0, 0.01, 0.02]
    result = compare_scores(scores, pairwise_tests=[])
    np.testing.assert_array_equal(np.argsort(result.mean_ranks), [2, 1, 0])


def test_pairwise_tables_derive_the_swapped_statistic_exactly():
    """Derived [B, A] statistics are those of running the test swapped."""
    from sklearn_bcv._results import _pairwise

    rng = np.random.default_rng(1)
    scores = rng.uniform(size=(12, 7)) + np.linspace(0, 0.2, 7)
    # paired_t_datasets runs one pair at a time (wilcoxon, batched, runs
    # every pair both ways at once).
    derived = compare_scores(scores, pairwise_tests=["paired_t_datasets"])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_pairwise, "_SWAP_EVIDENCE", 10**9)  # run every pair twice
        both = compare_scores(scores, pairwise_tests=["paired_t_datasets"])
    for field in ("statistic", "pvalue", "reject"):
        np.testing.assert_array_equal(
            derived.pairwise.paired_t_datasets[field],
            both.pairwise.paired_t_datasets[field],
        )


def test_swap_rule_learns_only_from_consistent_pairs():
    from sklearn.utils import Bunch

    from sklearn_bcv._results._pairwise import _SwapRule

    rule = _SwapRule()
    for value in (1.0, 2.0, 3.0):
        assert rule.derive(Bunch(statistic=value)) is None
        rule.learn(Bunch(statistic=value), Bunch(statistic=-value))
    assert rule.derive(Bunch(statistic=4.0)).statistic == -4.0
    rule = _SwapRule()
    rule.learn(Bunch(statistic=1.0), Bunch(statistic=-1.0))
    rule.learn(Bunch(statistic=2.0), Bunch(statistic=5.0))  # neither: run all
    for value in (3.0, 4.0, 6.0):
        rule.learn(Bunch(statistic=value), Bunch(statistic=-value))
    assert rule.derive(Bunch(statistic=7.0)) is None


def test_many_pairwise_tests_warn():
    scores = np.random.default_rng(0).uniform(size=(3, 150))
    with pytest.warns(UserWarning, match="11175 pairs of 150 estimators"):
        with pytest.MonkeyPatch.context() as patch:
            from sklearn_bcv._results import _pairwise

            patch.setattr(_pairwise, "_run_one", _stub_run_one)
            compare_scores(scores, tests=[], pairwise_tests=["wilcoxon"])


def _stub_run_one(test, needs, alpha, alternative):
    from sklearn.utils import Bunch

    return Bunch(statistic=1.0, pvalue=1.0)


# --- 8. Overflow and mutation --------------------------------------------------


def test_stable_mean_at_the_edge_of_float64():
    big = np.finfo(np.float64).max
    assert stable_mean([big, big]) == big
    assert stable_mean([-big, -big, -big]) == -big
    assert stable_mean([1e308, 1e308, -1e308]) == pytest.approx(1e308 / 3)
    values = np.random.default_rng(0).normal(size=(5, 7, 3))
    np.testing.assert_allclose(stable_mean(values, axis=1), values.mean(axis=1))


def test_per_split_tables_of_1e308_are_compared():
    rng = np.random.default_rng(0)
    split_scores = np.abs(rng.normal(size=(6, 4, 3))) * 1e307 + 1.5e308
    split_scores = np.minimum(split_scores, 1.7e308)
    split_scores[:, :, 2] -= 1e307  # the third estimator is the worst
    result = compare_scores(split_scores, pairwise_tests=[])
    assert np.all(np.isfinite(result.scores))
    np.testing.assert_allclose(result.scores, stable_mean(split_scores, axis=1))
    np.testing.assert_allclose(result.scores, (split_scores / 4).sum(axis=1))
    assert result.mean_ranks[2] == 3.0


def test_differences_beyond_float64_are_named():
    scores = np.array([[1e308, -1e308], [1e308, 1e307], [-1e308, 1e308], [0, 1.0]])
    with pytest.raises(ValueError, match="differences between 'a' and 'b' overflow"):
        compare_scores(scores, names=["a", "b"], pairwise_tests=["wilcoxon"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow in the library's means
        result = compare_scores(scores, names=["a", "b"], pairwise_tests=[])
    np.testing.assert_array_equal(result.mean_ranks, [1.5, 1.5])
    np.testing.assert_allclose(result.mean_scores, [1e308 / 4, 1e307 / 4])


class _MutatesX(RegressorMixin, BaseEstimator):
    def fit(self, X, y):
        X[0][0] = 1e6  # in place, on whatever it is given
        self.mean_ = float(np.mean(y))
        return self

    def predict(self, X):
        return np.full(len(X), self.mean_)


@pytest.mark.parametrize(
    "as_rows", [lambda X: X.tolist(), lambda X: [tuple(r) for r in X]]
)
def test_list_of_rows_is_never_mutated(as_rows):
    X = as_rows(X_REG)
    before = [list(row) for row in X]
    compare_estimators(_MutatesX(), DummyRegressor(), X, Y_REG, random_state=0)
    compare_many_estimators(
        {"m": _MutatesX(), "d": DummyRegressor()}, X, Y_REG, random_state=0
    )
    sequential_compare(
        _MutatesX(), DummyRegressor(), X, Y_REG, max_repeats=3, test="bcv_t"
    )
    assert [list(row) for row in X] == before


def test_names_of_many_datasets_are_checked_quickly_in_benchmark_names():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"\['x'\] repeat"):
            compare_scores(np.ones((3, 2)), datasets=["x", "y", "x"])


class _BadPredict(RegressorMixin, BaseEstimator):
    """Counts its fits; predict returns what ``kind`` says."""

    fits = 0

    def __init__(self, kind="nan"):
        self.kind = kind

    def fit(self, X, y):
        type(self).fits += 1
        return self

    def predict(self, X):
        n = len(X)
        return {
            "nan": np.full(n, np.nan),
            "short": np.zeros(n - 1),
            "2d": np.zeros((n, 2)),
            "inf": np.full(n, np.inf),
        }[self.kind]


@pytest.mark.parametrize(
    "kind, match",
    [
        ("nan", "NaN or infinity"),
        ("inf", "NaN or infinity"),
        ("short", r"one prediction per test record \(\d+\); got shape"),
        ("2d", "one prediction per test record"),
    ],
)
def test_bad_predictions_fail_at_the_first_fit(kind, match):
    for call, label in [
        (
            lambda: compare_estimators(
                _BadPredict(kind), DummyRegressor(), X_REG, Y_REG
            ),
            r"\[A split 1/10\]",
        ),
        (
            lambda: compare_many_estimators(
                {"bad": _BadPredict(kind), "d": DummyRegressor()}, X_REG, Y_REG
            ),
            r"\[bad split 1/10\]",
        ),
    ]:
        _BadPredict.fits = 0
        with pytest.raises(ValueError, match=f"{label} .*{match}"):
            call()
        assert _BadPredict.fits == 1  # n_jobs=None: fitted one at a time


def test_invalid_parameters_with_a_numeric_error_score_are_failed_fits():
    """error_score=np.nan keeps its promise (as cross_validate): the invalid
    estimator's fits are recorded as failed, with a warning."""
    with pytest.warns(Warning, match="fits failed"):
        result = compare_many_estimators(
            {"bad": LogisticRegression(C=-1), "d": DummyClassifier()},
            X_CLF,
            Y_CLF,
            error_score=np.nan,
            random_state=0,
        )
    assert result.failed_fits[:, 0].all() and not result.failed_fits[:, 1].any()
    with pytest.raises(ValueError, match=r"\(_Unclonable\) cannot be cloned"):
        compare_many_estimators(
            {"bad": _Unclonable(), "d": DummyClassifier()},
            X_CLF,
            Y_CLF,
            error_score=np.nan,
        )
