"""Tests of compare_split_scores and of the design read off a splitter."""

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as scipy_stats
from sklearn.datasets import load_breast_cancer, make_regression
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import (
    GroupKFold,
    KFold,
    LeaveOneOut,
    RepeatedKFold,
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedGroupKFold,
    StratifiedKFold,
    StratifiedShuffleSplit,
    TimeSeriesSplit,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from sklearn_bcv import (
    BlockRegularized5x2CV,
    BlockRegularizedMx2CV,
    ComparisonResult,
    ManyComparisonResult,
    StratifiedBlockRegularized5x2CV,
    compare_estimators,
    compare_many_estimators,
    compare_split_scores,
)
from sklearn_bcv._engine._design import describe_design
from sklearn_bcv._engine._split_scores import design_of_cv
from sklearn_bcv.stats import bayesian_correlated_t

X_BC, Y_BC = load_breast_cancer(return_X_y=True)
X_REG, Y_REG = make_regression(n_samples=120, n_features=5, noise=10.0, random_state=0)

#: The tests of score differences, by the design they run on.
SCORE_TESTS = {
    "bcv": [
        "calibrated_f_5x2bcv",
        "bcv_t",
        "blocked_t_3x2cv",
        "paired_t_5x2cv",
        "combined_f_5x2cv",
        "corrected_t",
        "paired_t",
        "bayesian_correlated_t",
    ],
    "kfold": ["corrected_t", "paired_t", "bayesian_correlated_t"],
}


def classifiers():
    return [
        ("logistic", make_pipeline(StandardScaler(), LogisticRegression())),
        ("tree", DecisionTreeClassifier(random_state=0)),
        ("bayes", GaussianNB()),
        ("majority", DummyClassifier()),
    ]


def _same_tables(found, expected, names, exact):
    assert list(found.pairwise) == list(expected.pairwise)
    for test, table in expected.pairwise.items():
        other = found.pairwise[test]
        for field in ("statistic", "pvalue", "pvalue_adjusted", "p_a_better", "p_rope"):
            if field not in table:
                continue
            if exact:
                np.testing.assert_array_equal(other[field], table[field])
            else:
                np.testing.assert_allclose(other[field], table[field], rtol=1e-12)
        np.testing.assert_array_equal(other.reject, table.reject)
        assert list(other.results) == list(table.results)


@pytest.mark.parametrize(
    "cv, design",
    [(BlockRegularized5x2CV(random_state=0), "bcv"), (StratifiedKFold(5), "kfold")],
)
def test_same_result_and_numbers_as_compare_many_estimators(cv, design):
    # The score tests of the fitted estimators, and the same tests on their
    # split scores: one class, the same numbers (exactly with the splits
    # themselves, to rounding of the set sizes' ratio with the splitter).
    tests = {name: {} for name in SCORE_TESTS[design]}
    tests["bayesian_correlated_t"] = {"rope": 0.01}
    fitted = compare_many_estimators(
        classifiers(), X_BC, Y_BC, cv=cv, pairwise_tests=tests, control="logistic"
    )
    scores = pd.DataFrame(fitted.scores, columns=fitted.names)
    splits = list(cv.split(X_BC, Y_BC))
    for given_cv, exact in ((splits, True), (cv, False)):
        found = compare_split_scores(
            scores,
            cv=given_cv,
            pairwise_tests=SCORE_TESTS[design],
            control="logistic",
            rope=0.01,
        )
        assert type(found) is ManyComparisonResult
        assert found.design.kind == fitted.design.kind
        np.testing.assert_array_equal(found.scores, fitted.scores)
        _same_tables(found, fitted, fitted.names, exact)
        assert found.verdict.differ_by_test == fitted.verdict.differ_by_test


def test_pair_of_split_scores_is_compare_estimators_on_the_scores():
    cv = BlockRegularized5x2CV(random_state=1)
    (a, est_a), (b, est_b) = classifiers()[:2]
    pair = compare_estimators(est_a, est_b, X_BC, Y_BC, cv=cv)
    found = compare_split_scores(
        {a: pair.scores_a, b: pair.scores_b}, cv=list(cv.split(X_BC))
    ).pair(a, b)
    assert isinstance(found, ComparisonResult)
    scored = [name for name in pair.tests if name in found.tests]
    assert {"calibrated_f_5x2bcv", "bcv_t", "corrected_t"} <= set(scored)
    for name in scored:
        assert found.tests[name].pvalue == pair.tests[name].pvalue
        assert found.tests[name].statistic == pair.tests[name].statistic
    # The tests of predictions are not run (no tables).
    assert "bcv_mcnemar" not in found.tests
    with pytest.raises(ValueError, match="only per-split scores were given"):
        found.run_test("bcv_mcnemar")


def test_regression_scores_give_the_same_numbers():
    cv = KFold(5, shuffle=True, random_state=0)
    fitted = compare_many_estimators(
        [("ridge", Ridge()), ("tree", DecisionTreeRegressor(random_state=0))],
        X_REG,
        Y_REG,
        cv=cv,
        pairwise_tests=["corrected_t"],
    )
    found = compare_split_scores(fitted.scores, cv=cv, names=fitted.names)
    assert list(found.pairwise) == ["corrected_t"]
    np.testing.assert_allclose(
        found.pairwise.corrected_t.pvalue,
        fitted.pairwise.corrected_t.pvalue,
        rtol=1e-12,
    )


def test_corrected_t_by_hand_on_repeated_kfold(rng):
    # Nadeau and Bengio's t, computed here from its formula: repeated 10-fold
    # has n_test / n_train = 1/9 whatever the number of records.
    scores = np.round(rng.normal(0.8, 0.03, size=(30, 2)), 3)
    scores[:, 0] += 0.01
    d = scores[:, 0] - scores[:, 1]
    J = d.size
    t = d.mean() / np.sqrt((1 / J + 1 / 9) * d.var(ddof=1))
    p = scipy_stats.t.sf(t, J - 1)
    result = compare_split_scores(
        scores,
        cv=RepeatedKFold(n_splits=10, n_repeats=3),
        names=["a", "b"],
        alternative="greater",
    )
    found = result.pairwise.corrected_t.results["a", "b"]
    assert found.statistic == pytest.approx(t, rel=1e-12)
    assert found.pvalue == pytest.approx(p, rel=1e-10)
    assert found.df == J - 1


def test_rope_adds_the_bayesian_correlated_t(rng):
    scores = rng.normal(0.8, 0.02, size=(10, 3))
    result = compare_split_scores(
        scores, cv=BlockRegularized5x2CV(), rope=0.01, names=["a", "b", "c"]
    )
    assert list(result.pairwise) == ["calibrated_f_5x2bcv", "bayesian_correlated_t"]
    found = result.pairwise.bayesian_correlated_t.results["a", "c"]
    alone = bayesian_correlated_t(scores[:, 0] - scores[:, 2], 1.0, 1.0, rope=0.01)
    for key in ("p_a_better", "p_rope", "p_b_better"):
        assert found[key] == pytest.approx(alone[key], rel=1e-12)


def test_tests_of_predictions_are_named_not_run(rng):
    scores = rng.normal(0.8, 0.02, size=(10, 3))
    result = compare_split_scores(
        scores, cv=BlockRegularized5x2CV(), scoring="accuracy"
    )
    assert list(result.pairwise) == ["calibrated_f_5x2bcv"]
    assert set(result.skipped_tests) == {"bcv_cochran_q", "bcv_mcnemar"}
    assert "calibrated_f_5x2bcv runs instead" in result.skipped_tests["bcv_mcnemar"]
    assert "only per-split scores" in result.skipped_tests["bcv_cochran_q"]
    assert "bcv_cochran_q: not run" in result.report()
    with pytest.raises(ValueError, match=r"pairwise_tests: bcv_mcnemar needs"):
        compare_split_scores(
            scores, cv=BlockRegularized5x2CV(), pairwise_tests="bcv_mcnemar"
        )
    with pytest.raises(ValueError, match=r"tests: bcv_cochran_q needs which records"):
        compare_split_scores(scores, cv=BlockRegularized5x2CV(), tests="bcv_cochran_q")


def test_one_sided_on_bcv_runs_the_t_of_the_design(rng):
    # The calibrated F test is two-sided; the one-sided test recommended on a
    # BCV is the corrected t, whose numbers on an m×2 BCV are those of bcv_t.
    scores = rng.normal(0.8, 0.02, size=(10, 2))
    result = compare_split_scores(
        scores, cv=BlockRegularized5x2CV(), alternative="greater", names=["a", "b"]
    )
    assert list(result.pairwise) == ["corrected_t"]
    both = compare_split_scores(
        scores,
        cv=BlockRegularized5x2CV(),
        alternative="greater",
        names=["a", "b"],
        pairwise_tests=["corrected_t", "bcv_t"],
    )
    t, bcv = (
        both.pairwise[name].results["a", "b"] for name in ("corrected_t", "bcv_t")
    )
    assert t.statistic == pytest.approx(bcv.statistic, rel=1e-12)
    assert t.pvalue == pytest.approx(bcv.pvalue, rel=1e-12)


def test_lower_is_better_is_negated_and_said(rng):
    errors = rng.uniform(0.1, 0.3, size=(10, 2))
    lower = compare_split_scores(
        errors, cv=10, greater_is_better=False, names=["a", "b"], scoring="error"
    )
    higher = compare_split_scores(-errors, cv=10, names=["a", "b"])
    np.testing.assert_array_equal(lower.scores, -errors)
    np.testing.assert_array_equal(
        lower.pairwise.corrected_t.pvalue, higher.pairwise.corrected_t.pvalue
    )
    assert lower.scoring == "-error"
    assert "negated" in lower.notes[0]
    assert "Note: the scores were given lower-is-better" in str(lower)


@pytest.mark.parametrize(
    "scores",
    [
        {"a": [0.8, 0.82, 0.79, 0.81], "b": [0.78, 0.8, 0.8, 0.79]},
        pd.DataFrame({"a": [0.8, 0.82, 0.79, 0.81], "b": [0.78, 0.8, 0.8, 0.79]}),
        np.array([[0.8, 0.78], [0.82, 0.8], [0.79, 0.8], [0.81, 0.79]]),
    ],
)
def test_array_frame_and_dict_are_the_same(scores):
    result = compare_split_scores(scores, cv=KFold(4), names=["a", "b"])
    assert result.names == ["a", "b"]
    assert result.pairwise.corrected_t.pvalue[0, 1] == pytest.approx(
        compare_split_scores(
            [[0.8, 0.78], [0.82, 0.8], [0.79, 0.8], [0.81, 0.79]], cv=4
        ).pairwise.corrected_t.pvalue[0, 1]
    )


def test_summary_report_and_json(rng):
    result = compare_split_scores(
        rng.normal(0.8, 0.02, size=(10, 3)), cv=KFold(10), names=["x", "y", "z"]
    )
    text = str(result)
    assert "on 10-fold CV\n" in text and "records" not in text.splitlines()[0]
    assert "task: not given" in text
    report = result.report()
    assert "The split scores were given, on the 10 splits of a 10-fold CV" in report
    document = json.loads(result.to_json())
    assert document["provenance"]["given"] == "split scores"
    assert document["test_indices"] is None


# --------------------------------------------------------------------------
# The design of a splitter, without the data


N = 120
GROUPS = np.repeat(np.arange(12), 10)
Y = np.tile([0, 1], N // 2)


@pytest.mark.parametrize(
    "cv",
    [
        BlockRegularized5x2CV(random_state=0),
        StratifiedBlockRegularized5x2CV(random_state=0),
        BlockRegularizedMx2CV(3, random_state=0),
        KFold(5),
        KFold(2),
        StratifiedKFold(4),
        GroupKFold(3),
        StratifiedGroupKFold(3),
        RepeatedKFold(n_splits=5, n_repeats=3, random_state=0),
        RepeatedKFold(n_splits=4, n_repeats=1, random_state=0),
        RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0),
        ShuffleSplit(5, test_size=0.25, random_state=0),
        StratifiedShuffleSplit(4, test_size=0.2, train_size=0.5, random_state=0),
        ShuffleSplit(3, test_size=30, train_size=60, random_state=0),
    ],
    ids=repr,
)
def test_design_of_a_splitter_is_that_of_its_splits(cv):
    # Two computations: the design read off the splitter alone, and the one
    # read off its splits of 120 records.
    grouped = isinstance(cv, GroupKFold | StratifiedGroupKFold)
    splits = list(cv.split(np.zeros((N, 1)), Y, GROUPS if grouped else None))
    drawn = describe_design(splits, N, cv=cv)
    nominal = design_of_cv(cv, len(splits))
    assert nominal.kind == drawn.kind
    assert nominal.n_splits == drawn.n_splits
    assert nominal.n_repeats == drawn.n_repeats
    assert nominal.n_test / nominal.n_train == pytest.approx(
        drawn.n_test / drawn.n_train, rel=1e-12
    )
    assert nominal.n_samples is None


def test_random_2_fold_repetitions_are_an_mx2_design():
    design = design_of_cv(RepeatedKFold(n_splits=2, n_repeats=5), 10)
    assert design.kind == "mx2" and design.n_repeats == 5


def test_leave_one_out_and_an_int():
    assert design_of_cv(LeaveOneOut(), 30).kind == "kfold"
    assert design_of_cv(7, 7).describe() == "7-fold CV"


def test_sizes_given_replace_the_splitter_s(rng):
    design = design_of_cv(ShuffleSplit(5, test_size=20), 5, n_train=80, n_test=20)
    assert (design.n_train, design.n_test) == (80.0, 20.0)
    design = design_of_cv(None, 7, n_train=90, n_test=10)
    assert design.kind == "any" and design.n_splits == 7


@given(
    k=st.integers(3, 12),
    repeats=st.integers(1, 4),
)
def test_repeated_kfold_ratio_is_one_over_k_minus_one(k, repeats):
    design = design_of_cv(RepeatedKFold(n_splits=k, n_repeats=repeats), k * repeats)
    assert design.n_test / design.n_train == pytest.approx(1 / (k - 1))


@pytest.mark.parametrize(
    "cv, n_splits, kwargs, match",
    [
        (KFold(5), 4, {}, r"makes 5 splits, but the scores have 4"),
        (TimeSeriesSplit(3), 3, {}, r"cannot be read without the data"),
        (None, 5, {}, r"pass cv \(the splitter"),
        (KFold(5), 5, {"n_train": 4}, r"n_train and n_test go together"),
        (KFold(5), 5, {"n_train": -1, "n_test": 1}, r"n_train must be a positive"),
        (ShuffleSplit(3, test_size=20), 3, {}, r"pass n_train and n_test"),
        ([(np.arange(5), np.arange(5, 10))] * 2, 3, {}, r"cv holds 2 splits"),
    ],
)
def test_design_errors(cv, n_splits, kwargs, match):
    with pytest.raises(ValueError, match=match):
        design_of_cv(cv, n_splits, **kwargs)


@pytest.mark.parametrize(
    "scores, match",
    [
        ([[0.8, np.nan], [0.7, 0.6]], r"scores must be finite; got nan on split 0"),
        ([[0.8, 0.7]], r"at least 2 splits \(rows\) and 2 estimators"),
        ([[[0.8]]], r"shape \(n_splits, k\)"),
        ({"a": [0.8, 0.7], "b": [0.7]}, r"needs a score on each split"),
        ([["a", "b"], ["c", "d"]], r"must hold numbers"),
    ],
)
def test_bad_scores(scores, match):
    with pytest.raises(ValueError, match=match):
        compare_split_scores(scores, cv=2)


def test_bad_names_and_control():
    with pytest.raises(ValueError, match=r"names must hold 2 names"):
        compare_split_scores([[0.8, 0.7], [0.7, 0.6]], cv=2, names=["a"])
    with pytest.raises(ValueError, match=r"control"):
        compare_split_scores([[0.8, 0.7], [0.7, 0.6]], cv=2, control="c")


SCORES_3 = np.random.default_rng(3).normal(0.8, 0.03, size=(10, 3))


@given(
    order=st.permutations([0, 1, 2]),
    shift=st.floats(-5, 5, allow_nan=False),
)
def test_estimator_order_and_a_shift_change_nothing(order, shift):
    # Invariants: permuting the estimators permutes the tables; adding one
    # constant to every score leaves the differences, and the tests, alone.
    names = ["a", "b", "c"]
    base = compare_split_scores(SCORES_3, cv=BlockRegularized5x2CV(), names=names)
    moved = compare_split_scores(
        SCORES_3[:, order] + shift,
        cv=BlockRegularized5x2CV(),
        names=[names[j] for j in order],
    )
    for a in range(3):
        for b in range(3):
            i, j = moved.names.index(names[a]), moved.names.index(names[b])
            assert moved.pairwise.calibrated_f_5x2bcv.pvalue[i, j] == pytest.approx(
                base.pairwise.calibrated_f_5x2bcv.pvalue[a, b], rel=1e-6, abs=1e-9
            )


def test_each_pair_s_interval_is_its_own(rng):
    # The pairs run in one batched call; each pair's result holds its own
    # numbers, the interval's two bounds included (as one call per pair).
    from sklearn_bcv.stats import corrected_t

    scores = rng.normal(0.8, 0.03, size=(10, 4))
    result = compare_split_scores(scores, cv=KFold(10), pairwise_tests=["corrected_t"])
    for (name_a, name_b), found in result.pairwise.corrected_t.results.items():
        a, b = (result.names.index(name) for name in (name_a, name_b))
        alone = corrected_t(scores[:, a] - scores[:, b], 0.9, 0.1)
        assert isinstance(found.confidence_interval, tuple)
        assert found.confidence_interval == pytest.approx(alone.confidence_interval)
        assert found.pvalue == pytest.approx(alone.pvalue, rel=1e-12)


def test_batched_needs_refuse_per_record_needs(rng):
    from sklearn_bcv._engine._split_scores import ScoreStore

    store = ScoreStore(rng.normal(size=(4, 3)), n_train=3, n_test=1)
    with pytest.raises(ValueError, match=r"run the test pair by pair"):
        store.pairs_needs([(0, 1)], ("tables",))


# --------------------------------------------------------------------------
# compare_scores refuses the splits of one data set


def _search_results():
    from sklearn.model_selection import GridSearchCV, cross_validate

    search = GridSearchCV(GaussianNB(), {"var_smoothing": [1e-9, 1e-3]}, cv=3)
    search.fit(X_BC, Y_BC)
    runs = {name: cross_validate(GaussianNB(), X_BC, Y_BC, cv=3) for name in ("a", "b")}
    return search.cv_results_, runs


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: _search_results()[0], r"Use compare_search\(search\)"),
        (lambda: pd.DataFrame(_search_results()[0]), r"Use compare_search"),
        (lambda: _search_results()[1], r"Use compare_cross_validate\(results\)"),
        (
            lambda: pd.DataFrame(
                np.ones((5, 3)), index=[f"split{i}" for i in range(5)]
            ),
            r"rows are labelled as splits.*compare_split_scores",
        ),
        (
            lambda: pd.DataFrame(
                np.ones((5, 3)), index=pd.Index(range(5), name="fold")
            ),
            r"compare_split_scores",
        ),
        (
            lambda: pd.DataFrame({"split": range(5), "a": np.ones(5), "b": np.ones(5)}),
            r"it has a column 'split'",
        ),
    ],
)
def test_compare_scores_refuses_the_splits_of_one_data_set(make, match):
    from sklearn_bcv import compare_scores

    with pytest.raises(ValueError, match=match):
        compare_scores(make())


def test_compare_scores_refuses_data_sets_named_as_splits_only(rng):
    from sklearn_bcv import compare_scores

    scores = rng.uniform(0.6, 0.9, size=(5, 3))
    with pytest.raises(ValueError, match=r"data sets are named as splits"):
        compare_scores(scores, datasets=[f"fold {i}" for i in range(5)])
    # Ordinary names, and per-split tables of several data sets, pass.
    compare_scores(scores, datasets=["iris", "wine", "digits", "split", "fold7x"])
    index = pd.MultiIndex.from_product([["d1", "d2", "d3"], range(4)])
    compare_scores(pd.DataFrame(rng.uniform(size=(12, 2)), index=index))
