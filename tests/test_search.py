"""Tests of compare_search and compare_cross_validate."""

import json

import numpy as np
import pytest
from scipy import stats as scipy_stats
from scipy.stats import rankdata
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_breast_cancer, load_wine, make_moons
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    HalvingGridSearchCV,
    KFold,
    RandomizedSearchCV,
    RepeatedStratifiedKFold,
    StratifiedKFold,
    cross_validate,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import (
    BlockRegularized5x2CV,
    ManyComparisonResult,
    StratifiedBlockRegularized5x2CV,
    compare_cross_validate,
    compare_many_estimators,
    compare_search,
    compare_split_scores,
)
from sklearn_bcv._engine._cv_results import candidate_names, read_cv_results
from sklearn_bcv._search import MAX_COMPARED
from sklearn_bcv.stats import bayesian_correlated_t

X_BC, Y_BC = load_breast_cancer(return_X_y=True)
GRID = {"logisticregression__C": [0.001, 0.01, 0.1, 1.0]}


def pipe():
    return make_pipeline(StandardScaler(), LogisticRegression())


@pytest.fixture(scope="module")
def bcv_search():
    cv = StratifiedBlockRegularized5x2CV(random_state=0)
    return GridSearchCV(pipe(), GRID, cv=cv).fit(X_BC, Y_BC)


@pytest.fixture(scope="module")
def gallery_search():
    # scikit-learn's "Statistical comparison of models using grid search".
    X, y = make_moons(noise=0.352, random_state=1, n_samples=100)
    grid = [
        {"kernel": ["linear"]},
        {"kernel": ["poly"], "degree": [2, 3]},
        {"kernel": ["rbf"]},
    ]
    cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
    search = GridSearchCV(SVC(random_state=0), grid, scoring="roc_auc", cv=cv)
    return search.fit(X, y), X, y


def split_scores(search, metric="score"):
    results = search.cv_results_
    return np.array(
        [results[f"split{i}_test_{metric}"] for i in range(search.n_splits_)]
    )


def test_scikit_learns_gallery_numbers(gallery_search):
    # rbf vs linear, corrected resampled t: 0.750, one-sided p = 0.227.
    search, X, y = gallery_search
    result = compare_search(search, X, y, pairwise_tests="corrected_t")
    assert result.names == [
        "kernel=rbf",
        "kernel=linear",
        "degree=3, kernel=poly",
        "degree=2, kernel=poly",
    ]
    assert result.best_index == search.best_index_ == 3
    pair = result.pairwise.corrected_t.results["kernel=linear", "kernel=rbf"]
    assert round(pair.statistic, 3) == -0.750
    assert round(pair.pvalue / 2, 3) == 0.227
    one_sided = result.pair("kernel=rbf", "kernel=linear").run_test(
        "corrected_t", alternative="greater"
    )
    assert (round(one_sided.statistic, 3), round(one_sided.pvalue, 3)) == (0.75, 0.227)
    # The sizes are those of the splits of the 100 records: 90 and 10.
    assert (result.n_train, result.n_test) == (90.0, 10.0)
    # Without X, y the splitter gives the same ratio.
    again = compare_search(search, pairwise_tests="corrected_t")
    assert again.pairwise.corrected_t.results[
        "kernel=linear", "kernel=rbf"
    ].pvalue == pytest.approx(pair.pvalue, rel=1e-12)


def test_numbers_against_the_formula(bcv_search):
    # Nadeau and Bengio's t on the search's own split scores, by hand.
    result = compare_search(bcv_search, pairwise_tests="corrected_t", correction=None)
    scores = split_scores(bcv_search)
    best = bcv_search.best_index_
    for name, j in zip(result.names[1:], result.candidates[1:]):
        d = scores[:, j] - scores[:, best]
        t = d.mean() / np.sqrt((1 / 10 + 1.0) * d.var(ddof=1))
        p = 2 * scipy_stats.t.sf(abs(t), 9)
        found = result.pairwise.corrected_t.results[name, result.names[0]]
        assert found.statistic == pytest.approx(t, rel=1e-10)
        assert found.pvalue == pytest.approx(p, rel=1e-9)


def test_result_fields(bcv_search):
    result = compare_search(bcv_search)
    assert isinstance(result, ManyComparisonResult)
    assert result.names == ["C=1", "C=0.1", "C=0.01", "C=0.001"]
    assert result.candidates == [3, 2, 1, 0]
    assert result.best_index == bcv_search.best_index_
    assert result.params == [bcv_search.cv_results_["params"][j] for j in [3, 2, 1, 0]]
    assert result.control == "C=1"
    assert list(result.pairwise) == ["calibrated_f_5x2bcv"]
    # C=0.01 and C=0.001 are shown worse than the best; C=0.1 is not.
    assert result.equivalent_to_best == ["C=1", "C=0.1"]
    assert result.equivalent_test == "calibrated_f_5x2bcv"
    assert any("chosen on the very splits" in note for note in result.notes)
    text = str(result)
    assert "As good as the best (C=1) by calibrated_f_5x2bcv: C=1, C=0.1." in text
    assert "Note: the best was chosen" in text
    assert "As good as the best" in result.report()
    document = json.loads(result.to_json())
    assert document["best_index"] == 3
    assert document["params"][0] == {"logisticregression__C": 1.0}


def test_same_numbers_from_cv_results_and_from_split_scores(bcv_search):
    cv = StratifiedBlockRegularized5x2CV(random_state=0)
    found = compare_search(bcv_search.cv_results_, cv=cv, control=None)
    scores = split_scores(bcv_search)[:, found.candidates]
    direct = compare_split_scores(scores, cv=cv, names=found.names)
    np.testing.assert_array_equal(
        found.pairwise.calibrated_f_5x2bcv.pvalue,
        direct.pairwise.calibrated_f_5x2bcv.pvalue,
    )


class CountingClassifier(ClassifierMixin, BaseEstimator):
    """A naive Bayes classifier that counts its fits (one process)."""

    fits = 0

    def __init__(self, smoothing=1e-9):
        self.smoothing = smoothing

    def fit(self, X, y):
        type(self).fits += 1
        self.model_ = GaussianNB(var_smoothing=self.smoothing).fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)


def test_refit_candidates_fits_k_times_n_splits_and_adds_the_tests_of_predictions():
    cv = StratifiedBlockRegularized5x2CV(random_state=0)
    grid = {"smoothing": [1e-9, 1e-3, 1e-2, 1e-1, 0.5]}
    search = GridSearchCV(CountingClassifier(), grid, cv=cv).fit(X_BC, Y_BC)
    before = CountingClassifier.fits
    result = compare_search(search, X_BC, Y_BC, refit_candidates=True, n_jobs=1)
    assert CountingClassifier.fits - before == 5 * 10  # k × n_splits, exactly
    np.testing.assert_allclose(
        result.scores, split_scores(search)[:, result.candidates]
    )
    assert list(result.tests) == ["bcv_cochran_q"]
    assert list(result.pairwise) == ["bcv_mcnemar"]
    assert result.fit_time.shape == (10, 5)
    assert "Each estimator was fitted and scored" in result.report()
    # The same fits as compare_many_estimators of the candidates.
    many = compare_many_estimators(
        [
            (name, CountingClassifier(**params))
            for name, params in zip(result.names, result.params)
        ],
        X_BC,
        Y_BC,
        cv=cv,
        control=result.names[0],
    )
    np.testing.assert_array_equal(
        result.pairwise.bcv_mcnemar.pvalue, many.pairwise.bcv_mcnemar.pvalue
    )


def test_refit_candidates_names_the_candidate_whose_scores_differ(bcv_search):
    y = Y_BC.copy()
    y[:40] = 1 - y[:40]
    with pytest.raises(
        ValueError, match=r"the refitted candidate 'C=\S+' \(cv_results_"
    ):
        compare_search(bcv_search, X_BC, y, refit_candidates=True)


def test_refit_candidates_needs_reproducible_splits():
    search = GridSearchCV(pipe(), GRID, cv=KFold(5, shuffle=True)).fit(X_BC, Y_BC)
    with pytest.raises(ValueError, match=r"without a fixed seed"):
        compare_search(search, X_BC, Y_BC, refit_candidates=True)
    with pytest.raises(ValueError, match=r"pass X and y"):
        compare_search(search, refit_candidates=True)
    with pytest.raises(ValueError, match=r"not its cv_results_"):
        compare_search(search.cv_results_, X_BC, Y_BC, cv=5, refit_candidates=True)


def test_multi_metric_search():
    cv = StratifiedKFold(5)
    search = GridSearchCV(
        GaussianNB(),
        {"var_smoothing": [1e-9, 1e-3, 1e-1]},
        cv=cv,
        scoring=["accuracy", "roc_auc"],
        refit="roc_auc",
    ).fit(X_BC, Y_BC)
    default = compare_search(search)
    assert default.scoring == "roc_auc"
    accuracy = compare_search(search, metric="accuracy")
    assert accuracy.scoring == "accuracy"
    assert accuracy.best_index == int(
        np.argmin(search.cv_results_["rank_test_accuracy"])
    )
    with pytest.raises(ValueError, match=r"pass metric="):
        compare_search(search.cv_results_, cv=cv)
    with pytest.raises(ValueError, match=r"metric must be one of"):
        compare_search(search, metric="f1")
    refitted = compare_search(
        search, X_BC, Y_BC, metric="accuracy", refit_candidates=True
    )
    assert refitted.scoring == "accuracy"


def test_randomized_search():
    search = RandomizedSearchCV(
        GaussianNB(),
        {"var_smoothing": scipy_stats.loguniform(1e-9, 1e-1)},
        n_iter=6,
        cv=BlockRegularized5x2CV(random_state=0),
        random_state=0,
    ).fit(X_BC, Y_BC)
    result = compare_search(search)
    assert len(result.names) == 6
    assert result.names[0].startswith("var_smoothing=")


def test_halving_search_compares_its_last_iteration():
    search = HalvingGridSearchCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": [1, 2, 3, 4, 5, 6, None], "min_samples_leaf": [1, 5]},
        cv=StratifiedBlockRegularized5x2CV(random_state=0),
        random_state=0,
    ).fit(X_BC, Y_BC)
    iteration = np.asarray(search.cv_results_["iter"])
    last = np.flatnonzero(iteration == iteration.max())
    result = compare_search(search)
    assert sorted(result.candidates) == last.tolist()
    assert result.best_index == search.best_index_
    assert any("successive-halving" in note for note in result.notes)
    with pytest.raises(ValueError, match=r"successive-halving"):
        compare_search(search, X_BC, Y_BC, refit_candidates=True)


def fake_results(k, n_splits, rng, *, nan=()):
    scores = np.round(rng.normal(0.8, 0.03, size=(n_splits, k)), 3)
    for j in nan:
        scores[0, j] = np.nan
    mean = scores.mean(axis=0)
    ranked = np.where(np.isnan(mean), -np.inf, mean)
    results = {
        "params": [{"C": float(c)} for c in np.logspace(-3, 3, k)],
        "mean_test_score": mean,
        "rank_test_score": rankdata(-ranked, method="min").astype(np.int32),
    }
    for i in range(n_splits):
        results[f"split{i}_test_score"] = scores[i]
    return results


def test_candidates_top_k_list_and_bound(rng):
    results = fake_results(120, 10, rng)
    cv = KFold(10)
    bounded = compare_search(results, cv=cv)
    assert len(bounded.names) == MAX_COMPARED
    assert any(f"the {MAX_COMPARED} best-ranked of 120" in n for n in bounded.notes)
    top = compare_search(results, cv=cv, candidates=5)
    assert top.candidates == bounded.candidates[:5]
    chosen = compare_search(results, cv=cv, candidates=[7, 3, 100])
    assert sorted(chosen.candidates) == [3, 7, 100]
    assert chosen.best_index == chosen.candidates[0]
    with pytest.raises(ValueError, match=r"not an index of the 120"):
        compare_search(results, cv=cv, candidates=[0, 500])
    with pytest.raises(ValueError, match=r"candidates must be None, an int"):
        compare_search(results, cv=cv, candidates=["a", "b"])


def test_candidates_without_every_score_are_left_out(rng):
    results = fake_results(6, 10, rng, nan=(2,))
    result = compare_search(results, cv=10)
    assert 2 not in result.candidates
    assert any("1 candidate(s) left out" in note for note in result.notes)
    with pytest.raises(ValueError, match=r"candidate 2 has no finite score"):
        compare_search(results, cv=10, candidates=[1, 2])


def test_all_pairs_and_a_named_control(bcv_search):
    everything = compare_search(bcv_search, control=None)
    assert len(everything.pairwise.calibrated_f_5x2bcv.results) == 6
    named = compare_search(bcv_search, control="C=0.1")
    assert named.control == "C=0.1"
    with pytest.raises(ValueError, match=r"control must be 'best'"):
        compare_search(bcv_search, control="C=5")


def test_rope_decides_equivalence_by_the_bayesian_test(bcv_search):
    result = compare_search(bcv_search, rope=0.01)
    assert list(result.pairwise) == ["calibrated_f_5x2bcv", "bayesian_correlated_t"]
    assert result.equivalent_test == "bayesian_correlated_t"
    scores = split_scores(bcv_search)
    best = result.best_index
    expected = [result.names[0]]
    for name, j in zip(result.names[1:], result.candidates[1:]):
        posterior = bayesian_correlated_t(
            scores[:, j] - scores[:, best], 1.0, 1.0, rope=0.01
        )
        if posterior.p_a_better + posterior.p_rope >= 0.95:
            expected.append(name)
    assert result.equivalent_to_best == expected


def test_no_note_when_nothing_is_declared(rng):
    scores = np.tile(rng.normal(0.8, 0.02, size=(10, 1)), (1, 3))
    scores += rng.normal(0, 1e-4, size=scores.shape)
    results = fake_results(3, 10, rng)
    for i in range(10):
        results[f"split{i}_test_score"] = scores[i]
    result = compare_search(results, cv=10)
    assert len(result.equivalent_to_best) == 3
    assert not any("chosen on the very splits" in note for note in result.notes)


def test_unfitted_and_wrong_searches():
    with pytest.raises(ValueError, match=r"search must be fitted"):
        compare_search(GridSearchCV(pipe(), GRID))
    with pytest.raises(TypeError, match=r"search must be a fitted GridSearchCV"):
        compare_search([1, 2, 3])
    with pytest.raises(ValueError, match=r"does not say how its splits were made"):
        compare_search(
            {
                "params": [{}, {}],
                "rank_test_score": [1, 2],
                "split0_test_score": [0.8, 0.7],
                "split1_test_score": [0.8, 0.7],
            },
            cv=None,
        )


def test_candidate_names():
    assert candidate_names(
        [{"svc__C": 1, "svc__gamma": 0.1}, {"svc__C": 10, "svc__gamma": 0.1}]
    ) == ["C=1", "C=10"]
    # Two steps with the same parameter keep their steps.
    assert candidate_names(
        [{"a__C": 1, "b__C": 1}, {"a__C": 2, "b__C": 1}, {"a__C": 1, "b__C": 2}]
    ) == ["a__C=1, b__C=1", "a__C=2, b__C=1", "a__C=1, b__C=2"]
    # Values that print alike keep their candidate apart.
    assert candidate_names([{"x": 1.0}, {"x": 1.0000000001}], labels=[4, 9]) == [
        "x=1 #4",
        "x=1 #9",
    ]
    assert candidate_names([{"est": GaussianNB()}, {"est": SVC()}]) == [
        "est=GaussianNB()",
        "est=SVC()",
    ]


def test_read_cv_results_errors():
    with pytest.raises(ValueError, match=r"must be a search's cv_results_"):
        read_cv_results({"a": 1})
    with pytest.raises(ValueError, match=r"at least 2 splits"):
        read_cv_results(
            {"params": [{}, {}], "rank_test_score": [1, 2], "split0_test_score": [1, 2]}
        )


# --------------------------------------------------------------------------
# compare_cross_validate

X_WINE, Y_WINE = load_wine(return_X_y=True)


def wine_results(cv, **kwargs):
    return {
        name: cross_validate(estimator, X_WINE, Y_WINE, cv=cv, **kwargs)
        for name, estimator in [
            ("bayes", GaussianNB()),
            ("tree", DecisionTreeClassifier(random_state=0)),
            ("logistic", pipe()),
        ]
    }


def test_cross_validate_with_estimators_is_compare_many_estimators():
    cv = BlockRegularized5x2CV(random_state=0)
    results = wine_results(cv, return_indices=True, return_estimator=True)
    found = compare_cross_validate(results, X_WINE, Y_WINE, cv=cv)
    many = compare_many_estimators(
        [
            ("bayes", GaussianNB()),
            ("tree", DecisionTreeClassifier(random_state=0)),
            ("logistic", pipe()),
        ],
        X_WINE,
        Y_WINE,
        cv=cv,
    )
    assert list(found.tests) == list(many.tests) == ["bcv_cochran_q"]
    assert found.tests.bcv_cochran_q.statistic == many.tests.bcv_cochran_q.statistic
    np.testing.assert_array_equal(
        found.pairwise.bcv_mcnemar.pvalue, many.pairwise.bcv_mcnemar.pvalue
    )
    assert found.scoring == "accuracy"
    assert found.fit_time.shape == (10, 3)


def test_cross_validate_scores_only_with_indices_give_the_exact_design():
    cv = KFold(5, shuffle=True, random_state=0)
    results = wine_results(cv, return_indices=True)
    found = compare_cross_validate(results)
    assert found.design.kind == "kfold"
    assert found.n_train == pytest.approx(142.4)
    assert list(found.pairwise) == ["corrected_t"]
    assert found.notes == []


def test_cross_validate_different_splits_are_named():
    first = cross_validate(
        GaussianNB(),
        X_WINE,
        Y_WINE,
        cv=KFold(5, shuffle=True, random_state=0),
        return_indices=True,
    )
    second = cross_validate(
        GaussianNB(),
        X_WINE,
        Y_WINE,
        cv=KFold(5, shuffle=True, random_state=1),
        return_indices=True,
    )
    with pytest.raises(
        ValueError, match=r"'a' and 'b' were not evaluated on the same splits \(split 0"
    ):
        compare_cross_validate({"a": first, "b": second})


def test_cross_validate_without_indices_trusts_cv():
    cv = StratifiedKFold(5)
    results = wine_results(cv)
    with pytest.raises(ValueError, match=r"carry no split indices: pass cv="):
        compare_cross_validate(results)
    found = compare_cross_validate(results, cv=cv)
    assert any("trusted" in note for note in found.notes)
    assert found.design.kind == "kfold"
    drawn = compare_cross_validate(results, X_WINE, Y_WINE, cv=cv)
    assert drawn.design.n_samples == len(Y_WINE)


def test_cross_validate_metrics():
    cv = StratifiedKFold(5)
    results = {
        name: cross_validate(
            est, X_WINE, Y_WINE, cv=cv, scoring=["accuracy", "f1_macro"]
        )
        for name, est in [
            ("bayes", GaussianNB()),
            ("tree", DecisionTreeClassifier(random_state=0)),
        ]
    }
    with pytest.raises(ValueError, match=r"pass metric="):
        compare_cross_validate(results, cv=cv)
    found = compare_cross_validate(results, cv=cv, metric="f1_macro")
    assert found.scoring == "f1_macro"
    np.testing.assert_array_equal(found.scores[:, 0], results["bayes"]["test_f1_macro"])


def test_cross_validate_rebuilt_predictions_check_the_data():
    cv = BlockRegularized5x2CV(random_state=0)
    results = wine_results(cv, return_indices=True, return_estimator=True)
    shuffled = X_WINE[::-1]
    with pytest.raises(ValueError, match=r"X and y must be the data cross_validate"):
        compare_cross_validate(results, shuffled, Y_WINE)


def test_cross_validate_failed_fit_is_refused():
    results = wine_results(StratifiedKFold(5))
    results["bayes"]["test_score"] = results["bayes"]["test_score"].copy()
    results["bayes"]["test_score"][2] = np.nan
    with pytest.raises(ValueError, match=r"is nan on split 2 \(a failed fit\)"):
        compare_cross_validate(results, cv=StratifiedKFold(5))


def test_a_search_given_as_the_estimators_names_compare_search():
    search = GridSearchCV(GaussianNB(), {"var_smoothing": [1e-9, 1e-3]}, cv=3)
    search.fit(X_BC, Y_BC)
    with pytest.raises(TypeError, match=r"compared by compare_search\(search\)"):
        compare_many_estimators(search, X_BC, Y_BC)


def test_names_with_commas_are_listed_with_semicolons():
    # "C=0.1, kernel=linear ~ C=1, kernel=rbf, C=0.1, ..." reads as four
    # names; with semicolons each pair reads as one.
    rng = np.random.default_rng(0)
    scores = {
        "C=0.1, kernel=linear": 0.9 + rng.normal(scale=0.01, size=10),
        "C=1, kernel=rbf": 0.9 + rng.normal(scale=0.01, size=10),
        "C=1, kernel=linear": 0.9 + rng.normal(scale=0.01, size=10),
    }
    result = compare_split_scores(scores, cv=BlockRegularized5x2CV(random_state=0))
    line = [x for x in str(result).splitlines() if "no significant difference" in x][0]
    assert "C=0.1, kernel=linear ~ C=1, kernel=rbf; " in line


def test_a_list_of_splits_is_stated_by_its_count():
    # The methods and the trust note name a list of splits by their count,
    # never by the repr of every index array.
    cv = list(StratifiedKFold(5).split(X_WINE, Y_WINE))
    found = compare_cross_validate(wine_results(StratifiedKFold(5)), cv=cv)
    assert found.provenance["cv"] == "5 given splits"
    assert all("array(" not in note for note in found.notes)
    assert any("cv=5 given splits" in note for note in found.notes)
