"""Tests of sequential_compare (sklearn_bcv._sequential)."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import (
    BlockRegularized5x2CV,
    BlockRegularizedMx2CV,
    StratifiedBlockRegularizedMx2CV,
    compare_estimators,
    sequential_compare,
)
from sklearn_bcv.stats import group_sequential_boundaries
from sklearn_bcv.stats._sequential import FUTILITY_RHO2, variance_factor


@pytest.fixture(scope="module")
def cancer():
    return load_breast_cancer(return_X_y=True)


def _logistic():
    return make_pipeline(StandardScaler(), LogisticRegression())


class FitCounter(ClassifierMixin, BaseEstimator):
    """A classifier that records every fit in a shared list."""

    def __init__(self, log=None):
        self.log = log

    def fit(self, X, y):
        self.log.append(1)
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def test_clear_difference_stops_at_the_first_look(cancer):
    X, y = cancer
    result = sequential_compare(_logistic(), DummyClassifier(), X, y, random_state=0)
    assert result.decision == "A better"
    assert (result.n_repeats, result.n_fits, result.n_fits_saved) == (3, 12, 16)
    assert result.trace.repeats.tolist() == [3]
    assert result.trace.statistic[0] >= result.trace.upper[0]
    # The look statistic is the fixed test's signed root on those splits.
    assert_allclose(result.trace.statistic[0], result.comparison.tests.bcv_mcnemar.z)
    assert result.comparison.sequentially_adjusted is False
    assert result.comparison.design.n_splits == 6
    swapped = sequential_compare(DummyClassifier(), _logistic(), X, y, random_state=0)
    assert swapped.decision == "B better"
    assert_allclose(swapped.trace.statistic, -result.trace.statistic)


def test_comparison_reuses_the_fits_of_the_nested_design(cancer):
    X, y = cancer
    X = X[:, :10]  # a closer contest: more looks
    result = sequential_compare(
        GaussianNB(),
        KNeighborsClassifier(),
        X,
        y,
        min_repeats=2,
        max_repeats=6,
        random_state=3,
    )
    m = result.n_repeats
    assert result.cv.n_repeats == m and result.cv.max_repeats == 6
    # the plain design the BCV tests are calibrated on
    assert type(result.cv) is BlockRegularizedMx2CV
    fixed = compare_estimators(
        GaussianNB(),
        KNeighborsClassifier(),
        X,
        y,
        cv=result.cv,
    )
    assert_array_equal(fixed.tables, result.comparison.tables)
    assert_allclose(
        fixed.tests.bcv_mcnemar.statistic, result.comparison.tests.bcv_mcnemar.statistic
    )
    assert (result.decision, m) == ("A better", 3)  # after two looks
    assert result.n_fits == 4 * m == result.comparison.fit_time.size
    assert len(result.trace.repeats) == m - 1


def test_looks_follow_the_boundaries(cancer):
    X, y = cancer
    result = sequential_compare(
        GaussianNB(),
        DecisionTreeClassifier(max_depth=1, random_state=0),
        X[:, :3],
        y,
        min_repeats=1,
        max_repeats=5,
        boundary="pocock",
        futility=None,
        random_state=0,
    )
    bounds = group_sequential_boundaries(1, 5, boundary="pocock")
    assert_allclose(result.boundaries.upper, bounds.upper)
    taken = len(result.trace.repeats)
    assert_allclose(result.trace.upper, bounds.upper[:taken])
    inside = np.abs(result.trace.statistic[:-1]) < result.trace.upper[:-1]
    assert inside.all()  # no earlier look crossed
    last_crossed = abs(result.trace.statistic[-1]) >= result.trace.upper[-1]
    assert last_crossed or result.n_repeats == 5
    assert result.decision in {"A better", "B better"} if last_crossed else True


def test_one_look_is_the_fixed_bcv_mcnemar(cancer):
    X, y = cancer
    for estimator in (DecisionTreeClassifier(random_state=0), GaussianNB()):
        result = sequential_compare(
            _logistic(),
            estimator,
            X,
            y,
            min_repeats=5,
            max_repeats=5,
            stratify=False,
            random_state=1,
        )
        fixed = compare_estimators(
            _logistic(), estimator, X, y, cv=BlockRegularized5x2CV(random_state=1)
        )
        assert result.n_repeats == 5
        crossed = result.decision in ("A better", "B better")
        assert crossed == bool(fixed.tests.bcv_mcnemar.reject)


def test_identical_estimators_are_never_declared_different(cancer):
    X, y = cancer
    tree = DecisionTreeClassifier(random_state=0)
    result = sequential_compare(
        tree, tree, X, y, random_state=0, boundary="pocock", futility=None
    )
    assert result.decision == "undecided"
    assert result.n_repeats == 7 and result.n_fits_saved == 0
    assert_array_equal(result.trace.statistic, 0)
    # a statistic of 0 has no chance of crossing: the futility stop
    futile = sequential_compare(tree, tree, X, y, random_state=0, boundary="pocock")
    assert (futile.decision, futile.stopped_by) == ("no difference", "futility")
    assert (futile.n_repeats, futile.n_fits, futile.n_fits_saved) == (3, 12, 16)
    assert futile.trace.conditional_power[0] < 1e-4  # 6e-5 with Pocock
    with_rope = sequential_compare(tree, tree, X, y, rope=0.01, random_state=0)
    assert with_rope.decision == "no difference"  # the rope wins over futility
    assert with_rope.n_repeats == 3
    for alternative in ("greater", "less"):
        one_sided = sequential_compare(
            tree,
            tree,
            X,
            y,
            test="bcv_t",
            alternative=alternative,
            futility=None,
            random_state=0,
        )
        assert one_sided.decision == "undecided"


def test_one_sided_alternative_only_stops_on_its_side(cancer):
    X, y = cancer
    result = sequential_compare(
        _logistic(),
        DummyClassifier(),
        X,
        y,
        alternative="less",
        futility=None,
        random_state=0,
    )
    assert result.decision == "undecided" and result.n_repeats == 7
    assert np.all(np.isposinf(result.trace.upper))
    # A far better than B: no chance that the last look finds B better
    futile = sequential_compare(
        _logistic(), DummyClassifier(), X, y, alternative="less", random_state=0
    )
    assert (futile.decision, futile.stopped_by) == ("no difference", "futility")
    assert futile.n_repeats == 3 and futile.trace.conditional_power[0] < 1e-6
    greater = sequential_compare(
        _logistic(), DummyClassifier(), X, y, alternative="greater", random_state=0
    )
    assert greater.decision == "A better" and greater.n_repeats == 3


def test_regression_with_the_differences_statistic():
    X, y = load_diabetes(return_X_y=True)
    result = sequential_compare(
        Ridge(), DummyRegressor(), X, y, test="bcv_t", random_state=0
    )
    assert result.decision == "A better"
    assert isinstance(result.cv, BlockRegularizedMx2CV)
    assert not isinstance(result.cv, StratifiedBlockRegularizedMx2CV)
    assert_allclose(result.trace.statistic[-1], result.comparison.tests.bcv_t.statistic)
    scored = sequential_compare(
        Ridge(),
        DummyRegressor(),
        X,
        y,
        test={"bcv_t": {"rho2": 0.3}},
        scoring="neg_mean_absolute_error",
        random_state=0,
    )
    assert scored.comparison.scoring == "neg_mean_absolute_error"
    assert scored.boundaries.rho2 == 0.3


def test_reproducible_whatever_n_jobs(cancer):
    X, y = cancer
    X = X[:, :4]
    kwargs = dict(max_repeats=6, boundary="pocock", random_state=5)
    one = sequential_compare(
        GaussianNB(), DecisionTreeClassifier(random_state=0), X, y, n_jobs=1, **kwargs
    )
    two = sequential_compare(
        GaussianNB(), DecisionTreeClassifier(random_state=0), X, y, n_jobs=2, **kwargs
    )
    assert one.decision == two.decision and one.n_repeats == two.n_repeats
    assert_array_equal(one.trace.statistic, two.trace.statistic)


def test_random_state_instance_gives_a_reusable_cv(cancer):
    X, y = cancer
    result = sequential_compare(
        _logistic(), DummyClassifier(), X, y, random_state=np.random.RandomState(0)
    )
    again = compare_estimators(_logistic(), DummyClassifier(), X, y, cv=result.cv)
    assert_array_equal(again.tables, result.comparison.tables)


def test_summary_frame_and_verbose(cancer, capsys):
    X, y = cancer
    result = sequential_compare(
        _logistic(), DummyClassifier(), X, y, random_state=0, verbose=1
    )
    # The looks' lines are written through the progress bar (stderr), which
    # ends complete when the design stops early: 12 of at most 28 fits.
    err = capsys.readouterr().err
    assert "Look 3: statistic" in err and "A better" in err
    assert "12/12" in err and "28" not in err.splitlines()[-1]
    text = str(result)
    assert (
        "O'Brien-Fleming" in text and "Decision: A better after 3 of at most 7" in text
    )
    assert "not sequentially adjusted" in text
    pd = pytest.importorskip("pandas")
    frame = result.to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert frame.columns.tolist()[:4] == ["repeats", "statistic", "lower", "upper"]
    assert frame.decision.tolist() == ["A better"]
    assert "conditional_power" in frame.columns
    assert "Look 3: statistic" in err and "conditional power 1.000" in err


def test_futility_trace_summary_and_frame(cancer):
    # Naive Bayes against a stump on three features: a modest difference.
    X, y = cancer
    kwargs = dict(min_repeats=2, max_repeats=6, random_state=0)
    a, b = GaussianNB(), DecisionTreeClassifier(max_depth=1, random_state=0)
    plain = sequential_compare(a, b, X[:, :3], y, futility=None, **kwargs)
    bounds = plain.boundaries
    # the trace's conditional power is the formula at every look taken, on
    # the boundaries' law with rho2 at most FUTILITY_RHO2
    rho2 = min(bounds.rho2, FUTILITY_RHO2)
    information = 1 / variance_factor(bounds.repeats, bounds.rho1, rho2)
    for i, z in enumerate(plain.trace.statistic[:-1]):
        ratio = information[-1] / information[i]
        mean, sd = z * np.sqrt(ratio), np.sqrt(1 - 1 / ratio)
        c = bounds.upper[-1]
        expected = stats.norm.sf((c - mean) / sd) + stats.norm.cdf((-c - mean) / sd)
        assert_allclose(plain.trace.conditional_power[i], expected)
    assert plain.futility is None and plain.futility_threshold is None
    # a threshold above every conditional power seen stops at the first look
    # (unless it crosses); one of 0 never stops for futility
    high = sequential_compare(a, b, X[:, :3], y, futility_threshold=0.999999, **kwargs)
    never = sequential_compare(a, b, X[:, :3], y, futility_threshold=0.0, **kwargs)
    assert never.decision == plain.decision and never.n_repeats == plain.n_repeats
    assert plain.decision == "undecided" and plain.n_repeats == 6
    assert (high.decision, high.stopped_by) == ("no difference", "futility")
    assert (high.n_repeats, high.n_fits, high.n_fits_saved) == (2, 8, 16)
    assert "Decision: no difference after 2" in str(high)
    assert "stopped by futility" in str(high)
    assert "futility: conditional power < 0.999999" in str(high)
    pytest.importorskip("pandas")
    assert high.to_frame().decision.tolist() == ["no difference"]
    assert high.to_frame().stopped_by.tolist() == ["futility"]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(min_repeats=5, max_repeats=3), "min_repeats must be at most max_repeats"),
        (dict(max_repeats=70), "max_repeats must be at most 50"),
        (dict(boundary="haybittle"), "boundary"),
        (dict(rope=-0.1), "rope"),
        (dict(futility="bayes"), "futility"),
        (dict(futility_threshold=1.0), "futility_threshold"),
        (dict(futility_threshold=-0.1), "futility_threshold"),
        (dict(test="calibrated_f_5x2bcv"), "has no sequential form"),
        (dict(test="no_such_test"), "not a registered test"),
        (dict(test={"bcv_mcnemar": {"rho2": 0.9}}), "rho2 must be"),
        (dict(test={"bcv_mcnemar": {"alpha": 0.1}}), "cannot set alpha"),
        (dict(test={"bcv_mcnemar": {"bogus": 1}}), "unknown parameter"),
        (dict(test={"bcv_mcnemar": {}, "bcv_t": {}}), "one test"),
        (dict(n_jobs=0), "n_jobs"),
        (dict(alpha=2.0), "alpha"),
    ],
)
def test_bad_input_fails_before_any_fit(kwargs, message):
    rng = np.random.RandomState(0)
    X, y = rng.normal(size=(100, 3)), rng.randint(0, 2, 100)
    log = []
    with pytest.raises(ValueError, match=message):
        sequential_compare(FitCounter(log), FitCounter(log), X, y, **kwargs)
    assert log == []


def test_classifier_statistic_on_regressors_fails_before_any_fit():
    X, y = load_diabetes(return_X_y=True)
    with pytest.raises(ValueError, match="use test='bcv_t'"):
        sequential_compare(Ridge(), DummyRegressor(), X, y)
    with pytest.raises(ValueError, match="stratify=True needs classifiers"):
        sequential_compare(Ridge(), DummyRegressor(), X, y, test="bcv_t", stratify=True)


def test_auto_stratifies_only_around_a_rare_class():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(200, 2))
    y = np.r_[np.zeros(185, dtype=int), np.ones(15, dtype=int)]  # 15 < 2 × 8
    nb = GaussianNB()
    rare = sequential_compare(nb, nb, X, y, max_repeats=4, random_state=0)
    assert isinstance(rare.cv, StratifiedBlockRegularizedMx2CV)
    y[:5] = 1  # 20 records of class 1: two per sub-block and more
    common = sequential_compare(nb, nb, X, y, max_repeats=4, random_state=0)
    assert type(common.cv) is BlockRegularizedMx2CV
    forced = sequential_compare(nb, nb, X, y, max_repeats=4, stratify=True)
    assert isinstance(forced.cv, StratifiedBlockRegularizedMx2CV)


def test_stopped_by_is_in_every_output(cancer):
    """The decision keeps its four values; why the design stopped is a field
    of its own, in the summary, the report, the document and the CSV."""
    import csv
    import io
    import json

    from sklearn_bcv._results._document import result_csv

    X, y = cancer
    crossed = sequential_compare(_logistic(), DummyClassifier(), X, y, random_state=0)
    tree = DecisionTreeClassifier(random_state=0)
    same = dict(random_state=0, boundary="pocock")
    undecided = sequential_compare(tree, tree, X, y, futility=None, **same)
    futile = sequential_compare(tree, tree, X, y, **same)
    expected = {
        "boundary": (crossed, "A better"),
        "max_repeats": (undecided, "undecided"),
        "futility": (futile, "no difference"),
    }
    for stopped_by, (result, decision) in expected.items():
        assert (result.decision, result.stopped_by) == (decision, stopped_by)
        assert result.decision in ("A better", "B better", "no difference", "undecided")
        assert f"Decision: {decision} after" in str(result)
        assert f"; stopped by {stopped_by}: " in str(result)
        for format in ("text", "markdown", "latex", "html"):
            shown = stopped_by.replace(
                "_", "\\_" if format in ("markdown", "latex") else "_"
            )
            # (LaTeX keeps a word of code from hyphenation: \kern0pt before it)
            report = result.report(format).replace("\\kern0pt ", "")
            assert f"stopped by {shown}" in report
        document = json.loads(result.to_json())
        assert (document["decision"], document["stopped_by"]) == (decision, stopped_by)
        rows = list(csv.DictReader(io.StringIO(result_csv(result))))
        assert [row["stopped_by"] for row in rows] == [""] * (len(rows) - 1) + [
            stopped_by
        ]
        assert rows[-1]["decision"] == decision
