"""Tests of compare_many_estimators and compare_many_predictions."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_breast_cancer, make_regression
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import KFold, ShuffleSplit
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

import sklearn_bcv._engine._fit
from sklearn_bcv import (
    BlockRegularized5x2CV,
    ComparisonResult,
    ManyComparisonResult,
    compare_estimators,
    compare_many_estimators,
    compare_many_predictions,
)
from sklearn_bcv.stats import adjust_pvalues

X_BC, Y_BC = load_breast_cancer(return_X_y=True)
X_REG, Y_REG = make_regression(n_samples=120, n_features=5, noise=10.0, random_state=0)


def estimators():
    return [
        ("logistic", make_pipeline(StandardScaler(), LogisticRegression())),
        ("tree", DecisionTreeClassifier(random_state=0)),
        ("bayes", GaussianNB()),
        ("majority", DummyClassifier()),
    ]


NAMES = [name for name, _ in estimators()]


@pytest.fixture(scope="module")
def many():
    return compare_many_estimators(
        estimators(),
        X_BC,
        Y_BC,
        random_state=0,
        pairwise_tests=["bcv_mcnemar", "corrected_t", "bayesian_correlated_t"],
    )


def _assert_same_pair_result(first, second):
    assert list(first.tests) == list(second.tests)
    for name in first.tests:
        for key, value in first.tests[name].items():
            np.testing.assert_equal(second.tests[name][key], value)
    for key in ("tables", "differences", "scores_a", "scores_b", "n_train", "n_test"):
        np.testing.assert_array_equal(first[key], second[key])
    for a, b in zip(first.loss_differences, second.loss_differences):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(first.predictions_a, second.predictions_a):
        np.testing.assert_array_equal(a, b)
    assert first.recommended_test == second.recommended_test
    assert first.verdict.decision == second.verdict.decision


# ---------------------------------------------------------------- the engine


class _CountingClassifier(ClassifierMixin, BaseEstimator):
    """Majority class; counts its fits in a class attribute."""

    fits = 0

    def __init__(self, shift=0):
        self.shift = shift

    def fit(self, X, y):
        type(self).fits += 1
        self.classes_, counts = np.unique(y, return_counts=True)
        self.label_ = self.classes_[(np.argmax(counts) + self.shift) % 2]
        return self

    def predict(self, X):
        return np.full(len(X), self.label_)


def test_each_estimator_is_fitted_once_per_split():
    _CountingClassifier.fits = 0
    k = 5
    result = compare_many_estimators(
        [(f"m{j}", _CountingClassifier(shift=j)) for j in range(k)],
        X_BC,
        Y_BC,
        random_state=0,
    )
    # k × n_splits fits, not one pair of fits per pair of estimators.
    assert _CountingClassifier.fits == k * 10
    assert len(result.pairwise.bcv_mcnemar.results) == k * (k - 1) // 2


def test_result_fields_and_shapes(many):
    k = len(NAMES)
    assert isinstance(many, ManyComparisonResult)
    assert many.names == NAMES
    assert many.scores.shape == many.fit_time.shape == (10, k)
    assert many.score_time.shape == many.failed_fits.shape == (10, k)
    np.testing.assert_allclose(many.mean_scores, many.scores.mean(axis=0))
    assert set(many.predictions) == set(NAMES)
    assert len(many.test_indices) == 10
    assert many.design.kind == "bcv"
    assert list(many.tests) == ["bcv_cochran_q"]
    assert list(many.pairwise) == [
        "bcv_mcnemar",
        "corrected_t",
        "bayesian_correlated_t",
    ]


def test_pair_is_exactly_compare_estimators(many):
    # Same splits (the default 5×2 BCV with the same seed), same numbers.
    by_name = dict(estimators())
    for name_a, name_b in [("logistic", "tree"), ("majority", "bayes")]:
        pair = many.pair(name_a, name_b)
        assert isinstance(pair, ComparisonResult)
        alone = compare_estimators(
            by_name[name_a], by_name[name_b], X_BC, Y_BC, random_state=0
        )
        _assert_same_pair_result(alone, pair)
        assert pair.estimator_names == (name_a, name_b)
        assert pair.fit_time.shape == (10, 2)
        np.testing.assert_array_equal(
            pair.fit_time, many.fit_time[:, [NAMES.index(name_a), NAMES.index(name_b)]]
        )


def test_pairwise_matrices_come_from_the_pair_results(many):
    table = many.pairwise.bcv_mcnemar
    k = len(NAMES)
    pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
    raw = np.array(
        [many.pair(NAMES[a], NAMES[b]).tests.bcv_mcnemar.pvalue for a, b in pairs]
    )
    adjusted = adjust_pvalues(raw, "holm")
    for (a, b), p, q in zip(pairs, raw, adjusted):
        assert table.pvalue[a, b] == table.pvalue[b, a] == p
        assert table.pvalue_adjusted[a, b] == table.pvalue_adjusted[b, a] == q
        assert table.reject[a, b] == table.reject[b, a] == (q < many.alpha)
        assert table.results[(NAMES[a], NAMES[b])].pvalue == p
        # [B, A] holds the statistic of B against A.
        assert table.statistic[b, a] == pytest.approx(
            many.pair(NAMES[b], NAMES[a]).tests.bcv_mcnemar.statistic
        )
    assert table.correction == "holm"
    np.testing.assert_array_equal(np.diag(table.pvalue), 1.0)
    np.testing.assert_array_equal(np.diag(table.statistic), 0.0)
    assert not table.tested.diagonal().any() and table.tested.sum() == k * (k - 1)
    for test in many.pairwise.values():
        for key in ("pvalue", "pvalue_adjusted", "statistic", "p_a_better"):
            if key in test:
                assert np.all(np.isfinite(test[key]))
    # A signed statistic changes sign with the order of the pair.
    corrected = many.pairwise.corrected_t.statistic
    np.testing.assert_allclose(corrected, -corrected.T)


def test_bayesian_pairwise_matrix(many):
    table = many.pairwise.bayesian_correlated_t
    assert set(table) >= {"p_a_better", "p_rope", "p_b_better", "reject", "tested"}
    assert "pvalue" not in table and table.correction is None
    alone = many.pair("tree", "bayes").tests.bayesian_correlated_t
    t, b = NAMES.index("tree"), NAMES.index("bayes")
    assert table.p_a_better[t, b] == alone.p_a_better
    assert table.p_b_better[b, t] == alone.p_a_better
    assert table.p_a_better[b, t] == alone.p_b_better


def test_omnibus_result_matches_the_registered_test(many):
    store = many._store
    again = many.run_test("bcv_cochran_q")
    assert again.statistic == many.tests.bcv_cochran_q.statistic
    correct = store.correct
    assert len(correct) == 10 and correct[0].shape[1] == len(NAMES)
    assert many.tests.bcv_cochran_q.reject


def test_summary_ranks_and_lists_the_pairs_that_differ(many):
    text = str(many)
    lines = text.splitlines()
    assert lines[0] == (
        "Comparison of 4 estimators on 5×2 block-regularized CV, 569 records"
    )
    ranking = [line.split()[1] for line in lines[3:7]]
    assert ranking == [NAMES[j] for j in np.argsort(-many.mean_scores)]
    assert any(line.startswith("Omnibus bcv_cochran_q") for line in lines)
    assert "Pairwise bcv_mcnemar (holm-adjusted p-values, 6 pairs)" in text
    # The pairs that differ, best estimator first.
    assert many.verdict.differ[0][0] == ranking[0]
    for better, worse in many.verdict.differ:
        assert ranking.index(better) < ranking.index(worse)
    assert many.verdict.text in text


def test_to_frame(many):
    pd = pytest.importorskip("pandas")
    frame = many.to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert len(frame) == 3 * 6
    bcv = frame[frame.test == "bcv_mcnemar"]
    assert list(bcv.columns[:5]) == [
        "test",
        "estimator_a",
        "estimator_b",
        "mean_score_a",
        "mean_score_b",
    ]
    row = bcv[(bcv.estimator_a == "logistic") & (bcv.estimator_b == "tree")].iloc[0]
    assert row.pvalue_adjusted == many.pairwise.bcv_mcnemar.pvalue_adjusted[0, 1]
    bayes = frame[frame.test == "bayesian_correlated_t"]
    assert bayes.p_a_better.notna().all()


def test_compare_many_predictions_gives_the_same_statistics(many):
    splits = [
        (np.setdiff1d(np.arange(len(Y_BC)), test), test) for test in many.test_indices
    ]
    again = compare_many_predictions(
        Y_BC,
        many.predictions,
        splits,
        pairwise_tests=list(many.pairwise),
        cv=BlockRegularized5x2CV(random_state=0),
    )
    assert again.names == many.names
    np.testing.assert_array_equal(again.scores, many.scores)
    assert again.tests.bcv_cochran_q.pvalue == many.tests.bcv_cochran_q.pvalue
    for name, table in many.pairwise.items():
        for key in ("pvalue_adjusted", "p_a_better"):
            if key in table:
                np.testing.assert_array_equal(again.pairwise[name][key], table[key])
    assert again.fit_time is None


def test_n_jobs_does_not_change_the_result():
    kwargs = dict(random_state=3, pairwise_tests="corrected_t")
    one = compare_many_estimators(estimators()[:3], X_BC, Y_BC, n_jobs=1, **kwargs)
    two = compare_many_estimators(estimators()[:3], X_BC, Y_BC, n_jobs=2, **kwargs)
    np.testing.assert_array_equal(one.scores, two.scores)
    np.testing.assert_array_equal(
        one.pairwise.corrected_t.pvalue, two.pairwise.corrected_t.pvalue
    )


# ---------------------------------------------------------------- options


def test_control_compares_every_estimator_with_it():
    result = compare_many_estimators(
        estimators(), X_BC, Y_BC, random_state=0, control="majority"
    )
    table = result.pairwise.bcv_mcnemar
    c = NAMES.index("majority")
    assert result.control == "majority"
    assert set(table.results) == {(name, "majority") for name in NAMES[:3]}
    expected = np.zeros((4, 4), dtype=bool)
    expected[:, c] = expected[c, :] = True
    expected[c, c] = False
    np.testing.assert_array_equal(table.tested, expected)
    # One family of k - 1 p-values; untested pairs hold p = 1, statistic 0.
    raw = [table.pvalue[j, c] for j in range(3)]
    np.testing.assert_array_equal(
        [table.pvalue_adjusted[j, c] for j in range(3)], adjust_pvalues(raw, "holm")
    )
    assert table.pvalue[0, 1] == 1 and table.statistic[0, 1] == 0
    assert not table.reject[0, 1]


@pytest.mark.parametrize("correction", ["bonferroni", "hochberg", "fdr_bh", None])
def test_corrections(correction, many):
    result = compare_many_predictions(
        Y_BC,
        many.predictions,
        [(np.setdiff1d(np.arange(Y_BC.size), t), t) for t in many.test_indices],
        correction=correction,
        pairwise_tests="corrected_t",
    )
    table = result.pairwise.corrected_t
    upper = np.triu_indices(4, 1)
    np.testing.assert_allclose(
        table.pvalue_adjusted[upper], adjust_pvalues(table.pvalue[upper], correction)
    )
    if correction is None:
        np.testing.assert_array_equal(table.pvalue_adjusted, table.pvalue)
    assert table.correction == correction


def test_one_sided_alternative_tests_the_first_against_the_second():
    result = compare_many_estimators(
        estimators()[:3], X_BC, Y_BC, random_state=0, alternative="greater"
    )
    # The omnibus test asks whether any estimator differs: two-sided.
    assert result.tests.bcv_cochran_q.alternative == "two-sided"
    table = result.pairwise.bcv_mcnemar
    np.testing.assert_array_equal(table.tested, np.triu(np.ones((3, 3)), 1) > 0)
    greater = result.pair("logistic", "tree").tests.bcv_mcnemar
    assert greater.alternative == "greater"
    assert table.pvalue[0, 1] == greater.pvalue
    assert table.pvalue[1, 0] == 1.0
    # "greater": a rejection says the first of the pair is the better one.
    assert result.verdict.differ
    for better, worse in result.verdict.differ:
        assert NAMES.index(better) < NAMES.index(worse)


def test_hold_out_design_runs_cochran_and_looney():
    result = compare_many_estimators(
        estimators(),
        X_BC,
        Y_BC,
        cv=ShuffleSplit(n_splits=1, test_size=0.3, random_state=0),
    )
    assert list(result.tests) == ["cochran_q", "looney_f"]
    assert list(result.pairwise) == ["mcnemar"]
    assert result.tests.cochran_q.df == 3


def test_regression_has_no_omnibus_test_and_pairs_of_scores():
    result = compare_many_estimators(
        [
            ("ridge", Ridge()),
            ("tree", DecisionTreeRegressor(random_state=0)),
            ("mean", DummyRegressor()),
        ],
        X_REG,
        Y_REG,
        random_state=0,
    )
    assert result.task == "regression" and result.scoring == "r2"
    assert not result.tests and not result.skipped_tests
    assert list(result.pairwise) == ["calibrated_f_5x2bcv"]
    assert result.verdict.differ[0][0] == "ridge"


def test_identical_estimators_give_p_values_of_one():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = compare_many_estimators(
            [(f"same{j}", DummyClassifier()) for j in range(3)],
            X_BC,
            Y_BC,
            random_state=0,
            pairwise_tests=["bcv_mcnemar", "corrected_t"],
        )
    assert result.tests.bcv_cochran_q.pvalue == 1.0
    for table in result.pairwise.values():
        np.testing.assert_array_equal(table.pvalue, 1.0)
        np.testing.assert_array_equal(table.pvalue_adjusted, 1.0)
        assert not table.reject.any()
    assert result.verdict.differ == []


def test_failed_fits_run_no_test():
    class FailsOnFirstSplit(DummyClassifier):
        def fit(self, X, y):
            if len(y) and y[0] == 0:
                raise ValueError("first label is zero")
            return super().fit(X, y)

    with pytest.warns(FitFailedWarning, match="fits failed out of a total of 30"):
        result = compare_many_estimators(
            [("fails", FailsOnFirstSplit()), *estimators()[:2]],
            X_BC,
            Y_BC,
            random_state=0,
            error_score=-1.0,
        )
    assert result.failed_fits[:, 0].any() and not result.failed_fits[:, 1:].any()
    assert not result.tests and not result.pairwise
    assert {"bcv_cochran_q", "bcv_mcnemar"} <= set(result.skipped_tests)
    np.testing.assert_array_equal(result.scores[result.failed_fits], -1.0)
    assert "fits failed" in str(result)
    with pytest.raises(ValueError, match="cannot run: .* fits failed"):
        result.run_test("bcv_cochran_q")
    # A pair whose fits all succeeded is tested as compare_estimators would.
    assert "bcv_mcnemar" in result.pair("logistic", "tree").tests
    assert not result.pair("fails", "tree").tests


def test_verbose_counts_the_fits(capsys):
    # verbose=1: a bar of fits done of the total on stderr, stdout untouched.
    compare_many_estimators(estimators()[:3], X_BC, Y_BC, cv=2, verbose=1)
    captured = capsys.readouterr()
    assert "6/6" in captured.err and captured.out == ""
    # verbose=2 also says how many fits and reports each.
    compare_many_estimators(estimators()[:3], X_BC, Y_BC, cv=2, verbose=2)
    out = capsys.readouterr().out
    assert "Fitting 3 estimators on each of 2 splits, totalling 6 fits" in out
    assert out.count("END fit_time=") == 6


def test_dict_of_estimators():
    result = compare_many_estimators(
        dict(estimators()[:2]), X_BC, Y_BC, cv=KFold(3), pairwise_tests="paired_t"
    )
    assert result.names == NAMES[:2]


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "estimators_, kwargs, error, match",
    [
        (estimators()[:1], {}, ValueError, "must hold at least 2 estimators"),
        (
            [("a", GaussianNB()), ("a", DummyClassifier())],
            {},
            ValueError,
            r"names in estimators must be unique; \['a'\] repeat",
        ),
        (
            [(1, GaussianNB()), ("b", DummyClassifier())],
            {},
            TypeError,
            "names in estimators must be non-empty strings; got 1",
        ),
        (
            [("a", GaussianNB()), ("b", "tree")],
            {},
            TypeError,
            r"estimators\['b'\] must be an estimator with fit, predict",
        ),
        (
            [GaussianNB(), DummyClassifier()],
            {},
            TypeError,
            r"list of \(name, estimator\) pairs",
        ),
        (
            estimators(),
            {"control": "forest"},
            ValueError,
            r"control must be None or one of \['logistic'",
        ),
        (estimators(), {"correction": "sidak"}, ValueError, "'correction' parameter"),
        (
            estimators(),
            {"tests": "cochran_q"},
            ValueError,
            "cochran_q needs one hold-out split",
        ),
        (
            estimators(),
            {"tests": "bcv_mcnemar"},
            ValueError,
            "bcv_mcnemar is a test of kind 'pair'; tests takes tests of kind 'many'",
        ),
        (
            estimators(),
            {"pairwise_tests": "bcv_cochran_q"},
            ValueError,
            "bcv_cochran_q is a test of kind 'many'; pairwise_tests takes",
        ),
        (
            estimators(),
            {"pairwise_tests": {"corrected_t": {"bogus": 1}}},
            ValueError,
            r"pairwise_tests\['corrected_t'\] has unknown parameter\(s\) \['bogus'\]",
        ),
        (
            [("a", GaussianNB()), ("b", Ridge()), ("c", DummyClassifier())],
            {},
            ValueError,
            r"estimators must all be classifiers or all regressors; got a "
            r"classification model \('a': GaussianNB\) and a regression model "
            r"\('b': Ridge\)",
        ),
    ],
)
def test_bad_input_is_refused_before_any_fit(
    estimators_, kwargs, error, match, monkeypatch
):
    def no_fitting(*args, **kwargs):
        raise AssertionError("bad input must be rejected before any fit")

    monkeypatch.setattr(sklearn_bcv._engine._fit, "_fit_and_predict", no_fitting)
    with pytest.raises(error, match=match):
        compare_many_estimators(estimators_, X_BC, Y_BC, **kwargs)


def test_pair_bad_names(many):
    with pytest.raises(ValueError, match=r"name_b must be one of \["):
        many.pair("logistic", "forest")
    with pytest.raises(ValueError, match="name_a and name_b must differ"):
        many.pair("tree", "tree")


def test_compare_many_predictions_bad_input():
    y = np.array([0, 1] * 10)
    splits = list(KFold(2).split(y))
    good = [y[t] for _, t in splits]
    with pytest.raises(ValueError, match="at least 2 estimators; got 1"):
        compare_many_predictions(y, {"a": good}, splits)
    with pytest.raises(TypeError, match="dict name -> list of per-split"):
        compare_many_predictions(y, [good, good], splits)
    with pytest.raises(ValueError, match=r"predictions\['b'\] must hold one array"):
        compare_many_predictions(y, {"a": good, "b": good[:1]}, splits)
    with pytest.raises(ValueError, match="scoring='roc_auc' needs the fitted"):
        compare_many_predictions(y, {"a": good, "b": good}, splits, scoring="roc_auc")


# ---------------------------------------------------------------- invariants


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**16), order=st.permutations(range(4)))
def test_permuting_the_estimators_permutes_the_matrices(seed, order):
    rng = np.random.RandomState(seed)
    y = rng.randint(0, 2, 80)
    splits = list(BlockRegularized5x2CV(random_state=seed).split(y))
    accuracies = [0.9, 0.8, 0.7, 0.6]
    predictions = {
        f"e{j}": [
            np.where(rng.rand(t.size) < accuracies[j], y[t], 1 - y[t])
            for _, t in splits
        ]
        for j in range(4)
    }
    names = list(predictions)
    forward = compare_many_predictions(y, predictions, splits)
    permuted = compare_many_predictions(
        y, {names[j]: predictions[names[j]] for j in order}, splits
    )
    index = np.array(order)
    assert permuted.names == [names[j] for j in order]
    for key in ("pvalue", "pvalue_adjusted", "reject", "statistic"):
        np.testing.assert_allclose(
            permuted.pairwise.bcv_mcnemar[key],
            forward.pairwise.bcv_mcnemar[key][np.ix_(index, index)],
        )
    assert permuted.tests.bcv_cochran_q.statistic == pytest.approx(
        forward.tests.bcv_cochran_q.statistic
    )


def test_one_sided_bayesian_pairs_test_one_direction(many):
    splits = [(np.setdiff1d(np.arange(Y_BC.size), t), t) for t in many.test_indices]
    result = compare_many_predictions(
        Y_BC,
        many.predictions,
        splits,
        pairwise_tests="bayesian_correlated_t",
        alternative="greater",
    )
    table = result.pairwise.bayesian_correlated_t
    np.testing.assert_array_equal(table.tested, np.triu(np.ones((4, 4)), 1) > 0)
    assert not table.reject[np.tril_indices(4)].any()
    np.testing.assert_array_equal(table.p_rope[np.tril_indices(4)], 1.0)


def test_verdict_pairs_of_every_pairwise_test(many):
    verdict = many.verdict
    assert verdict.pairwise_test == "bcv_mcnemar"
    assert verdict.differ == verdict.differ_by_test["bcv_mcnemar"]
    assert set(verdict.differ_by_test) == set(many.pairwise)
    for test, pairs in verdict.differ_by_test.items():
        table = many.pairwise[test]
        for better, worse in pairs:
            b, w = NAMES.index(better), NAMES.index(worse)
            assert table.reject[b, w]
            assert many.mean_scores[b] >= many.mean_scores[w]
        assert len(pairs) == int(table.reject[np.triu_indices(4, 1)].sum())


def test_no_pairwise_test_runs_the_omnibus_tests_only(many):
    # pairwise_tests=[] as documented: the omnibus tests, no pair.
    result = compare_many_estimators(
        estimators(), X_BC, Y_BC, random_state=0, pairwise_tests=[]
    )
    assert not result.pairwise and result.verdict.differ == []
    assert list(result.tests) == list(many.tests)
    assert result.tests.bcv_cochran_q.pvalue == many.tests.bcv_cochran_q.pvalue
    assert "bcv_cochran_q" in str(result) and "Pairwise" not in str(result)
    assert result.to_frame().empty
    assert result.pair("tree", "bayes").tests  # every pair is still at hand
    splits = [
        (np.setdiff1d(np.arange(len(Y_BC)), test), test) for test in many.test_indices
    ]
    again = compare_many_predictions(
        Y_BC,
        many.predictions,
        splits,
        pairwise_tests=[],
        cv=BlockRegularized5x2CV(random_state=0),
    )
    assert not again.pairwise and list(again.tests) == ["bcv_cochran_q"]
