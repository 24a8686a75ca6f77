"""Hostile input, round 3: warnings that are true (class 9).

The study store's :class:`UnfixedRandomStateWarning` fires only where a
rerun can differ (the rule of ``_store/_randomness.py``), says "may" where
that cannot be known, and the rule agrees with what the estimators do:
those it clears fit the same whatever NumPy's global state, those it
flags do not.
"""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import make_classification
from sklearn.decomposition import PCA
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import (
    AdaBoostClassifier,
    BaggingClassifier,
    HistGradientBoostingClassifier,
    RandomForestClassifier,
    StackingClassifier,
    VotingClassifier,
)
from sklearn.linear_model import (
    Lasso,
    LogisticRegression,
    Ridge,
    SGDClassifier,
)
from sklearn.model_selection import GridSearchCV
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import compare_many_estimators
from sklearn_bcv._store import UnfixedRandomStateWarning
from sklearn_bcv._store._randomness import unfixed_random_states

X, Y = make_classification(160, 6, n_informative=4, flip_y=0.2, random_state=0)


class Custom(ClassifierMixin, BaseEstimator):
    """An estimator the rule cannot know."""

    def __init__(self, random_state=None):
        self.random_state = random_state

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


SILENT = {
    "LogisticRegression()": LogisticRegression(),
    "LogisticRegression(lbfgs) in a pipeline": make_pipeline(
        StandardScaler(), LogisticRegression()
    ),
    "DummyClassifier()": DummyClassifier(),
    "Bagging(tree, seeded)": BaggingClassifier(
        DecisionTreeClassifier(), random_state=0
    ),
    "AdaBoost(tree, seeded)": AdaBoostClassifier(
        DecisionTreeClassifier(max_depth=1), random_state=0, n_estimators=5
    ),
    "Bagging(pipeline of a forest, seeded)": BaggingClassifier(
        make_pipeline(StandardScaler(), RandomForestClassifier(n_estimators=3)),
        n_estimators=3,
        random_state=0,
    ),
    "SVC()": SVC(),
    "LinearSVC(dual=False)": LinearSVC(dual=False),
    "Ridge()": Ridge(solver="cholesky"),
    "Lasso()": Lasso(),
    "SGDClassifier(shuffle=False)": SGDClassifier(shuffle=False),
    "PCA(full)": PCA(svd_solver="full"),
    "GaussianNB()": GaussianNB(),
    "KNeighborsClassifier()": KNeighborsClassifier(),
    "GridSearchCV(LogisticRegression())": GridSearchCV(
        LogisticRegression(), {"C": [0.1, 1.0]}
    ),
    "Voting of deterministic ones": VotingClassifier(
        [("lr", LogisticRegression()), ("nb", GaussianNB())]
    ),
}

CERTAIN = {
    "RandomForestClassifier()": (RandomForestClassifier(), ["random_state"]),
    "DecisionTreeClassifier()": (DecisionTreeClassifier(), ["random_state"]),
    "Bagging(tree)": (BaggingClassifier(DecisionTreeClassifier()), ["random_state"]),
    "LogisticRegression(saga)": (LogisticRegression(solver="saga"), ["random_state"]),
    "DummyClassifier(stratified)": (
        DummyClassifier(strategy="stratified"),
        ["random_state"],
    ),
    "SVC(probability=True)": (SVC(probability=True), ["random_state"]),
    "SGDClassifier()": (SGDClassifier(), ["random_state"]),
    "pipeline of a forest": (
        make_pipeline(StandardScaler(), RandomForestClassifier()),
        ["steps[1][1].random_state"],
    ),
    "stacking with a tree": (
        StackingClassifier(
            [("tree", DecisionTreeClassifier())], final_estimator=LogisticRegression()
        ),
        ["estimators[0][1].random_state"],
    ),
    "GridSearchCV(forest)": (
        GridSearchCV(RandomForestClassifier(), {"max_depth": [2]}),
        ["estimator.random_state"],
    ),
}

MAYBE = {
    "Custom()": (Custom(), ["random_state"]),
    "HistGradientBoosting()": (HistGradientBoostingClassifier(), ["random_state"]),
    "Ridge(auto)": (Ridge(), ["random_state"]),
    "PCA()": (PCA(), ["random_state"]),
    "LinearSVC()": (LinearSVC(), ["random_state"]),
    "pipeline of a custom one": (
        make_pipeline(StandardScaler(), Custom()),
        ["steps[1][1].random_state"],
    ),
}


@pytest.mark.parametrize("name", list(SILENT))
def test_the_rule_clears_what_cannot_differ(name):
    assert unfixed_random_states(SILENT[name]) == []


@pytest.mark.parametrize("name", list(CERTAIN))
def test_the_rule_flags_what_would_differ(name):
    estimator, paths = CERTAIN[name]
    assert unfixed_random_states(estimator) == [(path, True) for path in paths]


@pytest.mark.parametrize("name", list(MAYBE))
def test_the_rule_says_may_where_it_cannot_know(name):
    estimator, paths = MAYBE[name]
    assert unfixed_random_states(estimator) == [(path, False) for path in paths]


def test_a_subclass_is_not_taken_for_its_parent():
    class MyLogistic(LogisticRegression):
        pass

    assert unfixed_random_states(MyLogistic()) == [("random_state", False)]


def _predictions(estimator, global_seed):
    """Class probabilities on held-out records after a fit with NumPy's
    global state seeded by ``global_seed`` (what random_state=None uses)."""
    np.random.seed(global_seed)  # noqa: NPY002 - the legacy state is the point
    fitted = clone(estimator).fit(X[:100], Y[:100])
    for method in ("predict_proba", "decision_function", "predict"):
        if hasattr(fitted, method):
            return getattr(fitted, method)(X[100:])


@pytest.mark.parametrize(
    "name",
    [
        "LogisticRegression()",
        "DummyClassifier()",
        "Bagging(tree, seeded)",
        "AdaBoost(tree, seeded)",
        "SVC()",
        "GaussianNB()",
    ],
)
def test_what_the_rule_clears_fits_the_same_whatever_the_global_state(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        first = _predictions(SILENT[name], 0)
        for seed in (1, 2, 3):
            np.testing.assert_array_equal(_predictions(SILENT[name], seed), first)


@pytest.mark.parametrize(
    "name",
    ["RandomForestClassifier()", "Bagging(tree)", "DummyClassifier(stratified)"],
)
def test_what_the_rule_flags_does_differ(name):
    estimator, _ = CERTAIN[name]
    fits = [_predictions(estimator, seed) for seed in range(4)]
    assert any((fits[0] != other).any() for other in fits[1:])


def test_the_store_warns_only_where_a_rerun_can_differ(tmp_path):
    estimators = {
        "lr": make_pipeline(StandardScaler(), LogisticRegression()),
        "dummy": DummyClassifier(),
        "bag": BaggingClassifier(DecisionTreeClassifier(), random_state=0),
        "forest": RandomForestClassifier(n_estimators=5),
        "custom": Custom(),
    }
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compare_many_estimators(
            estimators, X, Y, random_state=0, store=tmp_path / "study.db"
        )
    messages = [
        str(w.message)
        for w in caught
        if issubclass(w.category, UnfixedRandomStateWarning)
    ]
    assert len(messages) == 2, messages
    forest, custom = sorted(messages, key=lambda m: "custom" in m)
    assert forest.startswith(
        "estimator 'forest' has random_state=None at random_state, which it uses:"
    )
    assert "a rerun would fit it differently" in forest
    assert custom.startswith(
        "estimator 'custom' has random_state=None at random_state, which it may use:"
    )
    assert "a rerun may fit it differently" in custom
    from sklearn_bcv import StudyStore

    with StudyStore(tmp_path / "study.db", mode="r") as store:
        fixed = {e.name: e.random_state_fixed for e in store.estimators}
    assert fixed == {
        "lr": True,
        "dummy": True,
        "bag": True,
        "forest": False,
        "custom": False,
    }
