"""Tests of benchmark and compare_scores (estimators across data sets)."""

import io
import warnings

import numpy as np
import pytest
from _demsar import DEMSAR_AUC, DEMSAR_NAMES
from hypothesis import given
from hypothesis import strategies as st
from joblib import parallel_config
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_breast_cancer, load_iris, load_wine, make_regression
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import Ridge
from sklearn.model_selection import KFold, LeaveOneOut
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import (
    BenchmarkResult,
    BlockRegularized5x2CV,
    ManyComparisonResult,
    benchmark,
    compare_many_estimators,
    compare_scores,
)
from sklearn_bcv._engine._progress import FitProgress
from sklearn_bcv.stats import adjust_pvalues

SMALL = {
    "iris": load_iris(return_X_y=True),
    "wine": load_wine(return_X_y=True),
    "cancer": tuple(a[:200] for a in load_breast_cancer(return_X_y=True)),
}


def estimators():
    return {
        "bayes": GaussianNB(),
        "tree": DecisionTreeClassifier(max_depth=3, random_state=0),
        "majority": DummyClassifier(),
    }


NAMES = list(estimators())


@pytest.fixture(scope="module")
def study():
    return benchmark(estimators(), SMALL, random_state=0)


# ---------------------------------------------------------------------------
# compare_scores on Demšar's worked example
# ---------------------------------------------------------------------------


def test_compare_scores_demsar_ranks_and_friedman():
    result = compare_scores(DEMSAR_AUC, names=DEMSAR_NAMES)
    assert isinstance(result, BenchmarkResult)
    np.testing.assert_allclose(
        result.mean_ranks, [3.143, 2.000, 2.893, 1.964], atol=5e-4
    )
    assert result.ranks[9].tolist() == [2.5] * 4  # a four-way tie
    assert result.tests.friedman.statistic == pytest.approx(10.228, abs=5e-4)
    # Demšar's CD 1.254, plus the continuity correction 1/(2N) = 1/28.
    assert result.tests.nemenyi.critical_difference == pytest.approx(
        1.254 + 1 / 28, abs=5e-4
    )
    assert list(result.tests) == ["friedman", "nemenyi"]
    assert list(result.pairwise) == ["wilcoxon"]  # no per-split scores
    assert result.verdict.omnibus_reject
    assert result.verdict.differ == []  # Nemenyi: no pair at 0.05 (Demšar)
    assert result.names == DEMSAR_NAMES
    assert result.datasets == [f"dataset_{i}" for i in range(14)]


def test_compare_scores_control_uses_the_exact_posthoc_test():
    # The default against a control is the exact rank-sum family (Holm):
    # Bonferroni-Dunn's normal approximation exceeds its level on few data
    # sets (doc/reproduction.rst, "Exact inference on small tables").
    result = compare_scores(DEMSAR_AUC, names=DEMSAR_NAMES, control="C4.5")
    assert list(result.tests) == ["friedman", "exact_posthoc"]
    assert result.control == "C4.5"
    # Exact raw p-values 0.0142 and 0.0113 against C4.5, both 0.0340 after
    # Holm: C4.5+m+cf and C4.5+m differ (Demšar's Holm z test finds both too).
    assert result.verdict.differ == [("C4.5+m+cf", "C4.5"), ("C4.5+m", "C4.5")]
    # Bonferroni-Dunn by name: Demšar §3.2.2, only C4.5+m+cf beyond the CD
    # of 1.168 from C4.5.
    named = compare_scores(
        DEMSAR_AUC, names=DEMSAR_NAMES, control="C4.5", tests=["bonferroni_dunn"]
    )
    assert named.verdict.differ == [("C4.5+m+cf", "C4.5")]
    table = result.pairwise.wilcoxon
    assert set(table.results) == {(name, "C4.5") for name in DEMSAR_NAMES[1:]}


def test_compare_scores_pairwise_adjustment_over_pairs():
    result = compare_scores(DEMSAR_AUC, names=DEMSAR_NAMES, correction="bonferroni")
    table = result.pairwise.wilcoxon
    pairs = [(a, b) for a in range(4) for b in range(a + 1, 4)]
    raw = np.array([table.pvalue[a, b] for a, b in pairs])
    np.testing.assert_allclose(
        [table.pvalue_adjusted[a, b] for a, b in pairs],
        adjust_pvalues(raw, "bonferroni"),
    )
    # Two-sided: symmetric p-values.
    np.testing.assert_array_equal(table.pvalue, table.pvalue.T)


def test_compare_scores_dataframe_gives_names():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(
        DEMSAR_AUC, columns=DEMSAR_NAMES, index=[f"d{i}" for i in range(14)]
    )
    from_frame = compare_scores(frame)
    from_array = compare_scores(DEMSAR_AUC, names=DEMSAR_NAMES)
    assert from_frame.names == DEMSAR_NAMES
    assert from_frame.datasets == [f"d{i}" for i in range(14)]
    np.testing.assert_array_equal(from_frame.mean_ranks, from_array.mean_ranks)
    assert from_frame.tests.friedman.pvalue == from_array.tests.friedman.pvalue
    scores = from_frame.to_frame("scores")
    np.testing.assert_array_equal(scores.to_numpy(), DEMSAR_AUC)
    assert list(scores.columns) == DEMSAR_NAMES


def test_compare_scores_per_split_dataframe_matches_array(rng):
    pd = pytest.importorskip("pandas")
    split_scores = rng.uniform(0.6, 0.9, size=(5, 10, 3))
    index = pd.MultiIndex.from_product([[f"d{i}" for i in range(5)], range(10)])
    frame = pd.DataFrame(split_scores.reshape(50, 3), index=index, columns=list("abc"))
    from_frame = compare_scores(frame, n_train=100, n_test=100, random_state=0)
    from_array = compare_scores(
        split_scores, n_train=100, n_test=100, names=list("abc"), random_state=0
    )
    np.testing.assert_array_equal(from_frame.split_scores, split_scores)
    np.testing.assert_allclose(from_frame.scores, split_scores.mean(axis=1))
    assert list(from_frame.pairwise) == ["wilcoxon", "poisson_binomial"]
    for name, table in from_array.pairwise.items():
        np.testing.assert_array_equal(
            table.p_a_better if "p_a_better" in table else table.pvalue,
            from_frame.pairwise[name].get(
                "p_a_better", from_frame.pairwise[name].get("pvalue")
            ),
        )


def test_compare_scores_bayesian_tests_use_rope_and_seed(rng):
    scores = rng.uniform(0.6, 0.9, size=(12, 3))
    kwargs = dict(
        pairwise_tests=["bayesian_signed_rank", "bayesian_sign"],
        rope=0.01,
        random_state=3,
    )
    first, second = compare_scores(scores, **kwargs), compare_scores(scores, **kwargs)
    for name in kwargs["pairwise_tests"]:
        table = first.pairwise[name]
        np.testing.assert_array_equal(
            table.p_a_better, second.pairwise[name].p_a_better
        )
        for result in table.results.values():
            assert result.rope == 0.01
            total = result.p_a_better + result.p_rope + result.p_b_better
            assert total == pytest.approx(1.0)


def test_identical_estimators_no_nan():
    scores = np.tile([[0.8], [0.7], [0.9], [0.75]], (1, 3))
    result = compare_scores(
        scores,
        pairwise_tests=["wilcoxon", "sign", "bayesian_signed_rank", "bayesian_sign"],
        rope=0.01,
        random_state=0,
    )
    assert result.tests.friedman.pvalue == 1.0
    np.testing.assert_array_equal(result.tests.nemenyi.pvalue, np.ones((3, 3)))
    for name in ("wilcoxon", "sign"):
        np.testing.assert_array_equal(result.pairwise[name].pvalue_adjusted, 1.0)
    for name in ("bayesian_signed_rank", "bayesian_sign"):
        table = result.pairwise[name]
        tested = table.tested
        assert np.all(table.p_rope[tested] > 0.9)
    assert result.verdict.differ == []
    assert not np.isnan(result.mean_ranks).any()


@given(
    st.lists(
        st.lists(st.floats(0, 1, allow_nan=False), min_size=3, max_size=3),
        min_size=2,
        max_size=8,
    )
)
def test_ranks_are_a_permutation_of_1_to_k_on_average(rows):
    result = compare_scores(np.array(rows), pairwise_tests=[])
    np.testing.assert_allclose(result.ranks.sum(axis=1), 6.0)
    assert result.mean_ranks.sum() == pytest.approx(6.0)
    best = np.argmax(np.array(rows), axis=1)
    assert np.all(result.ranks[np.arange(len(rows)), best] == result.ranks.min(axis=1))


# ---------------------------------------------------------------------------
# compare_scores: bad input, refused before anything runs
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "scores, kwargs, match",
    [
        (np.ones((1, 3)), {}, "at least 2 data sets"),
        (np.ones((4, 1)), {}, "at least 2 data sets"),
        (np.ones(4), {}, "shape"),
        (np.ones((2, 3, 4, 5)), {}, "shape"),
        ([[0.1, np.nan], [0.2, 0.3]], {}, "finite"),
        ([["a", "b"], ["c", "d"]], {}, "numbers"),
        (np.ones((3, 2)), {"names": ["a"]}, "names must hold 2"),
        (np.ones((3, 2)), {"names": ["a", "a"]}, "unique"),
        (np.ones((3, 2)), {"datasets": ["x", "y"]}, "datasets must hold 3"),
        (np.ones((3, 2)), {"control": "nobody"}, "control"),
        (np.ones((3, 2)), {"tests": "wilcoxon"}, "pass it in pairwise_tests"),
        (np.ones((3, 2)), {"pairwise_tests": "friedman"}, "pass it in tests"),
        (np.ones((3, 2)), {"tests": "mcnemar"}, "kind 'pair'"),
        (np.ones((3, 2)), {"tests": "no_such_test"}, "not a registered test"),
        (np.ones((3, 2)), {"pairwise_tests": "poisson_binomial"}, "per-split"),
        (
            np.ones((3, 4, 2)),
            {"pairwise_tests": "poisson_binomial"},
            "n_train, n_test",
        ),
        (np.ones((3, 4, 2)), {"n_train": [1, 2]}, "n_train must be"),
        (np.ones((3, 4, 2)), {"n_test": -1}, "n_test must be"),
        (np.ones((3, 2)), {"tests": {"friedman": {"bogus": 1}}}, "bogus"),
        (np.ones((3, 2)), {"tests": "friedman", "alternative": "up"}, "alternative"),
    ],
)
def test_compare_scores_bad_input(scores, kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        compare_scores(scores, **kwargs)


def test_compare_scores_one_sided_applies_to_pairwise_only(rng):
    scores = rng.uniform(size=(10, 3))
    scores[:, 0] += 0.5
    result = compare_scores(scores, alternative="greater")
    assert result.tests.friedman.alternative == "two-sided"
    table = result.pairwise.wilcoxon
    assert table.tested[0, 1] and not table.tested[1, 0]
    assert table.reject[0, 1] and table.reject[0, 2]


# ---------------------------------------------------------------------------
# benchmark
# ---------------------------------------------------------------------------


def test_benchmark_fields(study):
    k, n = len(NAMES), len(SMALL)
    assert study.names == NAMES and study.datasets == list(SMALL)
    assert study.split_scores.shape == (n, 10, k)
    np.testing.assert_allclose(study.scores, study.split_scores.mean(axis=1))
    assert study.ranks.shape == (n, k) and study.mean_ranks.shape == (k,)
    assert study.fit_time.shape == study.failed_fits.shape == (n, 10, k)
    assert not study.failed_fits.any()
    assert study.scoring == "accuracy"
    np.testing.assert_array_equal(study.n_train, [75, 89, 100])
    np.testing.assert_array_equal(study.n_test, [75, 89, 100])
    assert list(study.tests) == ["friedman", "nemenyi"]
    assert list(study.pairwise) == ["wilcoxon", "poisson_binomial"]
    assert list(study.per_dataset) == list(SMALL)
    assert all(isinstance(r, ManyComparisonResult) for r in study.per_dataset.values())
    # The majority class is last on every data set.
    assert study.ranks[:, NAMES.index("majority")].tolist() == [3.0] * n


def test_benchmark_is_fitting_plus_compare_scores(study):
    again = compare_scores(
        study.split_scores,
        n_train=study.n_train,
        n_test=study.n_test,
        names=study.names,
        datasets=study.datasets,
        random_state=0,
    )
    np.testing.assert_array_equal(again.mean_ranks, study.mean_ranks)
    assert again.tests.friedman.statistic == study.tests.friedman.statistic
    for name, table in study.pairwise.items():
        for field in ("pvalue_adjusted", "p_a_better"):
            if field in table:
                np.testing.assert_array_equal(again.pairwise[name][field], table[field])
    assert again.verdict.text == study.verdict.text


def test_benchmark_per_dataset_matches_compare_many_estimators():
    cv = BlockRegularized5x2CV(random_state=7)
    result = benchmark(estimators(), SMALL, cv=cv, pairwise_tests=["sign"])
    for name, (X, y) in SMALL.items():
        alone = compare_many_estimators(estimators(), X, y, cv=cv)
        mine = result.per_dataset[name]
        np.testing.assert_array_equal(mine.scores, alone.scores)
        assert list(mine.tests) == list(alone.tests)
        for test, table in alone.pairwise.items():
            np.testing.assert_array_equal(
                mine.pairwise[test].pvalue_adjusted, table.pvalue_adjusted
            )
        np.testing.assert_array_equal(
            result.split_scores[list(SMALL).index(name)], alone.scores
        )


def test_benchmark_dataset_tests_choose_the_tests_of_each_data_set(study):
    cv = BlockRegularized5x2CV(random_state=7)
    none = benchmark(estimators(), SMALL, cv=cv, dataset_tests=[], effect_size=False)
    chosen = benchmark(
        estimators(), SMALL, cv=cv, dataset_tests=["corrected_t", "bcv_mcnemar"]
    )
    for name, (X, y) in SMALL.items():
        assert not none.per_dataset[name].pairwise
        assert list(none.per_dataset[name].tests) == ["bcv_cochran_q"]  # still run
        alone = compare_many_estimators(
            estimators(), X, y, cv=cv, pairwise_tests=["corrected_t", "bcv_mcnemar"]
        )
        mine = chosen.per_dataset[name]
        assert list(mine.pairwise) == ["corrected_t", "bcv_mcnemar"]
        for test, table in alone.pairwise.items():
            np.testing.assert_array_equal(
                mine.pairwise[test].pvalue_adjusted, table.pvalue_adjusted
            )
    # The statistics across data sets are the same whatever the choice.
    for name, table in chosen.pairwise.items():
        for field in ("pvalue", "p_a_better"):
            if field in table:
                np.testing.assert_array_equal(none.pairwise[name][field], table[field])
    assert none.effect_sizes is None and none.effect_size_kind is None
    assert chosen.effect_size_kind == "cohen_dz" and chosen.effect_sizes
    assert "Effect sizes" not in none.report("markdown")
    assert none.to_dict()["effect_sizes"] is None


def test_effect_size_false_skips_them_and_none_still_chooses_the_kind():
    skipped = compare_scores(DEMSAR_AUC, effect_size=False)
    assert skipped.effect_sizes is None and skipped.effect_size_kind is None
    chosen = compare_scores(DEMSAR_AUC, tests="auto")
    assert chosen.effect_size_kind == chosen.auto.effect_size_kind
    assert len(chosen.effect_sizes) == 6
    for value in (True, 0, "none"):
        with pytest.raises(ValueError, match="effect_size"):
            compare_scores(DEMSAR_AUC, effect_size=value)


def test_many_pairs_warning_names_the_switch_that_lowers_the_cost():
    from sklearn_bcv._results import _pairwise

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_pairwise, "_MANY_PAIR_TESTS", 2)  # 3 pairs are many
        with pytest.warns(UserWarning, match=r"pass dataset_tests=\[\]"):
            benchmark(estimators(), SMALL, pairwise_tests=[], effect_size=False)
        with pytest.warns(UserWarning, match=r"pass pairwise_tests=\[\]"):
            compare_scores(DEMSAR_AUC, pairwise_tests=["wilcoxon"])
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            benchmark(estimators(), SMALL, pairwise_tests=[], dataset_tests=[])


class CountingClassifier(ClassifierMixin, BaseEstimator):
    """Majority class; counts its fits (in-process, n_jobs=1)."""

    fits = 0

    def fit(self, X, y):
        type(self).fits += 1
        values, counts = np.unique(y, return_counts=True)
        self.majority_ = values[np.argmax(counts)]
        self.classes_ = values
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


def test_benchmark_fits_each_estimator_once_per_split():
    CountingClassifier.fits = 0
    benchmark(
        {"a": CountingClassifier(), "b": CountingClassifier(), "c": GaussianNB()},
        SMALL,
        n_jobs=1,
        random_state=0,
    )
    assert CountingClassifier.fits == 2 * 10 * len(SMALL)


def test_benchmark_loaders_called_once():
    calls = []

    def loader(name):
        def load():
            calls.append(name)
            return SMALL[name]

        return load

    benchmark(estimators(), {name: loader(name) for name in SMALL}, random_state=0)
    assert calls == list(SMALL)


def test_benchmark_same_result_whatever_n_jobs_and_backend(study):
    with parallel_config(backend="threading"):
        threaded = benchmark(estimators(), SMALL, random_state=0, n_jobs=2)
    parallel = benchmark(estimators(), SMALL, random_state=0, n_jobs=2)
    for other in (threaded, parallel):
        np.testing.assert_array_equal(other.split_scores, study.split_scores)
        assert other.verdict.text == study.verdict.text


def test_benchmark_seeds_each_dataset_differently():
    twins = {"first": SMALL["iris"], "second": SMALL["iris"]}
    result = benchmark(estimators(), twins, random_state=0)
    # Same data, different default splits: different per-split scores.
    assert not np.array_equal(result.split_scores[0], result.split_scores[1])
    again = benchmark(estimators(), twins, random_state=0)
    np.testing.assert_array_equal(again.split_scores, result.split_scores)


def test_benchmark_regression():
    data = {
        f"r{seed}": make_regression(
            n_samples=80, n_features=4, noise=5.0, random_state=seed
        )
        for seed in range(3)
    }
    result = benchmark(
        {"ridge": Ridge(), "mean": DummyRegressor()}, data, random_state=0
    )
    assert result.scoring == "r2"
    assert result.ranks[:, 0].tolist() == [1.0, 1.0, 1.0]
    assert "bcv_cochran_q" not in result.per_dataset.r0.tests


def test_benchmark_uneven_splits_drop_split_aware_tests():
    data = {
        "six": (np.arange(12.0).reshape(6, 2), np.array([0, 1] * 3)),
        "eight": (np.arange(16.0).reshape(8, 2), np.array([0, 1] * 4)),
    }
    result = benchmark(
        {"a": GaussianNB(), "b": DummyClassifier()}, data, cv=LeaveOneOut()
    )
    assert isinstance(result.split_scores, list)
    assert [s.shape for s in result.split_scores] == [(6, 2), (8, 2)]
    assert list(result.pairwise) == ["wilcoxon"]


class FailingClassifier(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        raise RuntimeError("this estimator always fails")

    def predict(self, X):  # pragma: no cover - never fitted
        return np.zeros(len(X))


def test_benchmark_failed_fits_run_no_test():
    with pytest.warns(FitFailedWarning, match="fits failed"):
        result = benchmark(
            {"ok": GaussianNB(), "bad": FailingClassifier()},
            SMALL,
            error_score=0.0,
            random_state=0,
        )
    assert result.failed_fits[:, :, 1].all() and not result.failed_fits[:, :, 0].any()
    assert not result.tests and not result.pairwise
    assert set(result.skipped_tests) == {
        "friedman",
        "nemenyi",
        "wilcoxon",
        "poisson_binomial",
    }
    assert "no test was run" in result.verdict.text
    assert "fits failed on" in repr(result)


@pytest.mark.parametrize(
    "datasets, kwargs, error, match",
    [
        ({"iris": SMALL["iris"]}, {}, ValueError, "at least 2 data sets"),
        ({"iris": SMALL["iris"], "x": 3}, {}, TypeError, r"datasets\['x'\]"),
        (
            {"iris": SMALL["iris"], "x": (1, 2, 3)},
            {},
            TypeError,
            "of length 3",
        ),
        ({"iris": SMALL["iris"], "x": lambda: 5}, {}, TypeError, "loader"),
        ([1, 2], {}, TypeError, "datasets must be a dict"),
        (SMALL, {"cv": [(np.arange(3), np.arange(3, 6))]}, ValueError, "one data set"),
        (SMALL, {"control": "nobody"}, ValueError, "control"),
        (SMALL, {"tests": "wilcoxon"}, ValueError, "pairwise_tests"),
        (SMALL, {"pairwise_tests": {"sign": {"bogus": 1}}}, ValueError, "bogus"),
        (SMALL, {"rope": -0.1}, ValueError, "rope"),
        (SMALL, {"dataset_tests": ["friedman"]}, ValueError, "dataset_tests: fri"),
        (SMALL, {"dataset_tests": ["nope"]}, ValueError, "dataset_tests: 'nope'"),
        (SMALL, {"dataset_tests": "mcnemar"}, ValueError, "dataset_tests.*mcnemar"),
        (SMALL, {"dataset_tests": {"sign": {}}}, ValueError, "dataset_tests: sign"),
        (SMALL, {"effect_size": True}, ValueError, "effect_size"),
    ],
)
def test_benchmark_bad_input_before_any_fit(datasets, kwargs, error, match):
    # FailingClassifier would raise its own error if anything were fitted.
    with pytest.raises(error, match=match):
        benchmark(
            {"a": FailingClassifier(), "b": FailingClassifier()}, datasets, **kwargs
        )


def test_benchmark_one_estimator_refused():
    with pytest.raises(ValueError, match="at least 2 estimators"):
        benchmark({"a": GaussianNB()}, SMALL)


def test_benchmark_to_frame(study):
    pytest.importorskip("pandas")
    frame = study.to_frame()
    assert set(frame.test) == {"nemenyi", "wilcoxon", "poisson_binomial"}
    nemenyi = frame[frame.test == "nemenyi"]
    assert len(nemenyi) == 3  # the 3 pairs of 3 estimators
    row = frame[(frame.test == "wilcoxon")].iloc[0]
    a, b = NAMES.index(row.estimator_a), NAMES.index(row.estimator_b)
    assert row.pvalue_adjusted == study.pairwise.wilcoxon.pvalue_adjusted[a, b]
    assert row.mean_rank_a == study.mean_ranks[a]
    ranks = study.to_frame("ranks")
    assert list(ranks.index) == list(SMALL)
    with pytest.raises(ValueError, match="kind must be"):
        study.to_frame("nope")


def test_benchmark_summary(study):
    text = repr(study)
    assert text.startswith(
        "Comparison of 3 estimators on 3 data sets, scoring: accuracy"
    )
    assert "mean rank" in text and "friedman" in text
    assert "Pairwise wilcoxon" in text and "Post hoc nemenyi" in text
    assert study.verdict.omnibus_test == "friedman"
    assert study.verdict.posthoc_test == "nemenyi"


# ---------------------------------------------------------------------------
# Progress
# ---------------------------------------------------------------------------


def test_progress_counter_without_tqdm():
    out = io.StringIO()
    progress = FitProgress([("a", 2), ("b", 3)], verbose=2, file=out, use_tqdm=False)
    for dataset in (0, 1, 0, 1, 1):
        progress.update(dataset)
    progress.close()
    text = out.getvalue()
    assert "5/5 fits (100%), data sets done 2/2" in text
    assert "[benchmark] a: 2 fits done" in text and "[benchmark] b: 3 fits done" in text
    assert "remaining 0:00" in text
    assert progress.line().startswith("[benchmark] 5/5 fits")


def test_progress_with_tqdm():
    pytest.importorskip("tqdm")
    out = io.StringIO()
    progress = FitProgress([("a", 2)], verbose=1, file=out)
    progress.update(0)
    progress.update(0)
    progress.close()
    assert "2/2" in out.getvalue()


def test_benchmark_verbose_shows_progress(capsys):
    benchmark(
        {"a": GaussianNB(), "b": DummyClassifier()},
        {"iris": SMALL["iris"], "wine": SMALL["wine"]},
        cv=KFold(3),
        verbose=1,
    )
    err = capsys.readouterr().err
    assert "12/12" in err


def test_benchmark_no_warnings(study):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        benchmark(estimators(), SMALL, random_state=1)


def test_progress_on_a_backend_that_cannot_stream(capsys):
    # multiprocessing cannot return a generator: the bar moves once, at the end.
    with parallel_config(backend="multiprocessing"):
        result = benchmark(
            {"a": GaussianNB(), "b": DummyClassifier()},
            {"iris": SMALL["iris"], "wine": SMALL["wine"]},
            cv=KFold(3),
            n_jobs=2,
            verbose=1,
        )
    assert "12/12" in capsys.readouterr().err
    assert result.split_scores.shape == (2, 3, 2)


def test_to_frame_pairs_against_control_in_one_order():
    pytest.importorskip("pandas")
    result = compare_scores(
        DEMSAR_AUC,
        names=DEMSAR_NAMES,
        control="C4.5",
        tests=["friedman", "holm"],
        pairwise_tests=["wilcoxon"],
    )
    frame = result.to_frame()
    for test in ("holm", "wilcoxon"):
        rows = frame[frame.test == test]
        assert rows.estimator_a.tolist() == DEMSAR_NAMES[1:]
        assert set(rows.estimator_b) == {"C4.5"}
    holm = frame[frame.test == "holm"].set_index("estimator_a")
    # z is positive when A (the row) has the better mean rank (Demšar §3.2.2).
    assert holm.statistic["C4.5+m+cf"] == pytest.approx(2.415, abs=1e-3)


def test_largest_training_sets_are_fitted_first():
    from sklearn_bcv._engine._fit import DataSet, _tasks

    def data(n, k=2):
        splits = list(KFold(2).split(np.zeros(n)))
        return DataSet(None, None, splits, [("e", None, {})] * k)

    tasks = _tasks([data(10), data(40), data(20)])
    assert [d for d, _, _ in tasks] == [1] * 4 + [2] * 4 + [0] * 4
    # Every (data set, split, estimator) exactly once.
    expected = [(d, i, j) for d in range(3) for i in range(2) for j in range(2)]
    assert sorted(tasks) == expected


def test_summary_says_when_a_pairwise_test_cannot_reject(rng):
    few = compare_scores(rng.uniform(size=(5, 3)))
    assert (
        "note: no outcome could change this verdict: with 5 data sets and their "
        "ties the smallest p-value the Wilcoxon signed-rank test can reach is 0.0625"
    ) in repr(few)
    many = compare_scores(rng.uniform(size=(8, 3)))
    assert "no outcome could change" not in repr(many)


def test_batched_pairwise_tests_give_what_one_call_per_pair_gives(rng):
    # wilcoxon and poisson_binomial run on all the pairs at once; the
    # numbers (and each pair's result) are those of one call per pair.
    from sklearn_bcv.stats import poisson_binomial, wilcoxon

    split = np.round(rng.uniform(0.6, 0.9, size=(8, 5, 5)), 2)
    result = compare_scores(split, n_train=90, n_test=10, random_state=0)
    names = result.names
    for (a, b), found in result.pairwise.wilcoxon.results.items():
        i, j = names.index(a), names.index(b)
        d = result.scores[:, i] - result.scores[:, j]
        scale = np.maximum(
            np.abs(result.scores).max(axis=1), np.abs(split).max(axis=(1, 2))
        )
        alone = wilcoxon(d, score_scale=scale)
        assert found == alone
        alone = poisson_binomial(
            split[..., i] - split[..., j], 90, 10, score_scale=scale
        )
        again = result.pairwise.poisson_binomial.results[(a, b)]
        assert again.keys() == alone.keys()
        for key, value in alone.items():
            np.testing.assert_array_equal(again[key], value)
            assert type(again[key]) is type(value)
