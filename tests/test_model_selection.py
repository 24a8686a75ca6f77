"""Tests of the refit rule sklearn_bcv.model_selection.simplest_not_worse."""

import copy
import pickle

import numpy as np
import pytest
from scipy import stats as scipy_stats
from scipy.stats import rankdata
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import BlockRegularized5x2CV, StratifiedBlockRegularized5x2CV
from sklearn_bcv.model_selection import SimplestNotWorse, simplest_not_worse
from sklearn_bcv.stats import bayesian_correlated_t

X_BC, Y_BC = load_breast_cancer(return_X_y=True)


def results_of(scores, params):
    """A cv_results_ dict of split scores (n_splits, k) and params."""
    mean = scores.mean(axis=0)
    ranked = np.where(np.isnan(mean), -np.inf, mean)  # as sklearn ranks NaN last
    results = {
        "params": params,
        "mean_test_score": mean,
        "rank_test_score": rankdata(-ranked, method="min").astype(np.int32),
    }
    for i, row in enumerate(scores):
        results[f"split{i}_test_score"] = row
    return results


@pytest.fixture
def grid(rng):
    # Candidate 3 is the best; 0 is far worse, 1 and 2 a little worse.
    base = rng.normal(0.85, 0.02, size=(10, 1))
    noise = rng.normal(0, 0.01, size=(10, 4))
    scores = base + noise + np.array([-0.08, -0.004, -0.002, 0.0])
    params = [{"C": c} for c in (0.01, 0.1, 1.0, 10.0)]
    return scores, results_of(scores, params)


def one_sided_p(d, ratio, margin=0.0, side="less"):
    """Nadeau and Bengio's one-sided p-value of the differences d (here
    candidate - best), computed from the formula."""
    d = d + margin
    J = d.size
    t = d.mean() / np.sqrt((1 / J + ratio) * d.var(ddof=1))
    return scipy_stats.t.cdf(t, J - 1) if side == "less" else scipy_stats.t.sf(t, J - 1)


def test_default_rule_against_the_formula(grid):
    scores, results = grid
    rule = simplest_not_worse("C", cv=KFold(10))
    chosen = rule(results)
    best = int(np.argmax(scores.mean(axis=0)))
    expected = [best]
    for j in range(4):
        if j == best:
            continue
        p = one_sided_p(scores[:, j] - scores[:, best], 1 / 9)
        assert rule.result_.evidence[j] == pytest.approx(p, rel=1e-9)
        if p >= 0.05:
            expected.append(j)
    assert sorted(rule.result_.qualifying) == sorted(expected)
    assert chosen == min(expected)  # smaller C is simpler
    assert rule.result_.best_index == best
    assert rule.result_.test == "corrected_t"
    assert rule.result_.criterion == "not worse"
    assert "Chosen, the simplest of them (C smaller is simpler)" in str(rule.result_)


def test_margin_is_a_non_inferiority_test(grid):
    scores, results = grid
    best = int(np.argmax(scores.mean(axis=0)))
    rule = simplest_not_worse("C", cv=KFold(10), margin=0.02)
    chosen = rule(results)
    expected = [best]
    for j in range(4):
        if j == best:
            continue
        p = one_sided_p(scores[:, j] - scores[:, best], 1 / 9, 0.02, side="greater")
        assert rule.result_.evidence[j] == pytest.approx(p, rel=1e-9)
        if p < 0.05:
            expected.append(j)
    assert sorted(rule.result_.qualifying) == sorted(expected)
    assert chosen == min(expected)
    assert rule.result_.criterion == "non-inferior"
    assert 0 not in rule.result_.qualifying  # 0.08 worse: not within 0.02


def test_rope_is_the_bayesian_rule(grid):
    scores, results = grid
    best = int(np.argmax(scores.mean(axis=0)))
    rule = simplest_not_worse("C", cv=KFold(10), rope=0.01)
    rule(results)
    for j in range(4):
        if j == best:
            continue
        posterior = bayesian_correlated_t(
            scores[:, j] - scores[:, best], 9.0, 1.0, rope=0.01
        )
        expected = posterior.p_a_better + posterior.p_rope
        assert rule.result_.evidence[j] == pytest.approx(expected, rel=1e-9)
        assert (j in rule.result_.qualifying) == (expected >= 0.95)
    assert rule.result_.test == "bayesian_correlated_t"


def test_a_bcv_search_gives_the_numbers_of_bcv_t(grid):
    scores, results = grid
    best = int(np.argmax(scores.mean(axis=0)))
    by_default = simplest_not_worse("C", cv=BlockRegularized5x2CV())
    by_bcv_t = simplest_not_worse("C", cv=BlockRegularized5x2CV(), test="bcv_t")
    assert by_default(results) == by_bcv_t(results)
    for j in range(4):
        if j != best:
            assert by_default.result_.evidence[j] == pytest.approx(
                by_bcv_t.result_.evidence[j], rel=1e-12
            )


def test_in_grid_search_and_its_refit():
    cv = StratifiedBlockRegularized5x2CV(random_state=0)
    rule = simplest_not_worse("max_depth", cv=cv)
    grid = {"max_depth": [1, 2, 3, 5, None]}
    search = GridSearchCV(
        DecisionTreeClassifier(random_state=0), grid, cv=cv, refit=rule
    ).fit(X_BC, Y_BC)
    assert search.best_index_ == rule.result_.chosen_index
    assert search.best_params_ == rule.result_.chosen_params
    # The refitted estimator is the chosen candidate, fitted on all the data.
    assert search.best_estimator_.max_depth == rule.result_.chosen_params["max_depth"]
    assert rule.result_.comparison.control == rule.result_.comparison.names[0]
    plain = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=cv).fit(
        X_BC, Y_BC
    )
    assert rule.result_.best_index == plain.best_index_


def test_multi_metric_search_needs_the_metric():
    cv = StratifiedKFold(5)
    grid = {"var_smoothing": [1e-9, 1e-3, 1e-1]}
    rule = simplest_not_worse(("var_smoothing", "larger"), cv=cv, metric="roc_auc")
    search = GridSearchCV(
        GaussianNB(), grid, cv=cv, scoring=["accuracy", "roc_auc"], refit=rule
    ).fit(X_BC, Y_BC)
    assert rule.result_.metric == "roc_auc"
    assert search.best_index_ == rule.result_.chosen_index
    # larger var_smoothing is simpler: the largest that qualifies.
    qualifying = rule.result_.qualifying
    smoothing = [search.cv_results_["params"][j]["var_smoothing"] for j in qualifying]
    assert smoothing[0] == max(smoothing)
    with pytest.raises(ValueError, match=r"pass metric="):
        simplest_not_worse("var_smoothing", cv=cv)(search.cv_results_)


def test_order_forms(rng):
    scores = np.tile(rng.normal(0.8, 0.02, size=(10, 1)), (1, 4))
    scores += rng.normal(0, 1e-4, size=scores.shape)  # all equal
    params = [
        {"depth": None, "leaf": 1},
        {"depth": 3, "leaf": 5},
        {"depth": 3, "leaf": 1},
        {"depth": 8, "leaf": 1},
    ]
    results = results_of(scores, params)
    cv = KFold(10)
    assert simplest_not_worse("depth", cv=cv)(results) in (1, 2)
    assert simplest_not_worse(["depth", ("leaf", "larger")], cv=cv)(results) == 1
    assert simplest_not_worse(["depth", "leaf"], cv=cv)(results) == 2
    # None counts above every number (max_depth=None is no limit).
    assert simplest_not_worse(("depth", "larger"), cv=cv)(results) == 0
    assert simplest_not_worse(lambda p: -p["leaf"], cv=cv)(results) == 1


@pytest.mark.parametrize(
    "order, match",
    [
        ("kernel", r"has the value 'rbf', which has no order of simplicity"),
        ("gamma", r"has no parameter 'gamma'"),
    ],
)
def test_order_errors(rng, order, match):
    scores = rng.normal(0.8, 0.02, size=(10, 2))
    results = results_of(scores, [{"kernel": "rbf"}, {"kernel": "linear"}])
    with pytest.raises(ValueError, match=match):
        simplest_not_worse(order, cv=KFold(10))(results)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"order": 3}, r"order must be a parameter name"),
        ({"order": []}, r"at least one criterion"),
        ({"alpha": 1.5}, r"alpha must be in \(0, 1\)"),
        ({"margin": -1}, r"margin must be a finite number >= 0"),
        ({"margin": 0.1, "rope": 0.1}, r"not both"),
        ({"test": "calibrated_f_5x2bcv"}, r"one-sided test"),
        ({"test": "bcv_mcnemar"}, r"test of score differences"),
        ({"test": "bayesian_correlated_t"}, r"pass rope="),
        ({"test": "corrected_t", "rope": 0.01}, r"a Bayesian test with a rope"),
        ({"test": "no_such_test"}, r"not a registered test"),
    ],
)
def test_bad_rules(kwargs, match):
    arguments = {"order": "C", "cv": KFold(10), **kwargs}
    with pytest.raises(ValueError, match=match):
        simplest_not_worse(arguments.pop("order"), **arguments)


def test_the_rule_is_copied_pickled_and_cloned_with_its_search(grid):
    _, results = grid
    rule = simplest_not_worse("C", cv=KFold(10), margin=0.01)
    assert isinstance(rule, SimplestNotWorse)
    for other in (copy.deepcopy(rule), pickle.loads(pickle.dumps(rule))):
        assert other(results) == rule(results)
    search = GridSearchCV(GaussianNB(), {"var_smoothing": [1e-9]}, refit=rule)
    assert clone(search).refit.margin == 0.01
    assert "simplest_not_worse('C'" in repr(rule)


def test_one_candidate_is_refitted(rng):
    scores = rng.normal(0.8, 0.02, size=(10, 2))
    scores[3, 1] = np.nan  # a failed fit
    results = results_of(scores, [{"C": 1}, {"C": 2}])
    rule = simplest_not_worse("C", cv=KFold(10))
    assert rule(results) == 0
    assert "One candidate" in str(rule.result_)
