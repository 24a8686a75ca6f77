"""tests="auto": the assumption checks, the path chosen, and its tests."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sklearn_bcv import compare_scores
from sklearn_bcv.stats import paired_t_datasets, rm_anova, tukey_rm


def _normal_table(n=30, k=4, seed=0, shift=0.0):
    rng = np.random.default_rng(seed)
    table = rng.normal(size=(n, k)) + 3 * rng.normal(size=(n, 1))
    table[:, 0] += shift
    return table


def test_rm_anova_matches_statsmodels_anovarm():
    anova_rm = pytest.importorskip("statsmodels.stats.anova").AnovaRM
    table = _normal_table(n=12, k=4, seed=1, shift=0.7)
    long = pd.DataFrame(
        {
            "dataset": np.repeat(np.arange(12), 4),
            "estimator": np.tile(np.arange(4), 12),
            "score": table.ravel(),
        }
    )
    fit = anova_rm(long, "score", "dataset", within=["estimator"]).fit()
    row = fit.anova_table.loc["estimator"]
    ours = rm_anova(table)
    assert ours.statistic == pytest.approx(row["F Value"], rel=1e-10)
    assert ours.pvalue == pytest.approx(row["Pr > F"], rel=1e-8)
    assert ours.df == (int(row["Num DF"]), int(row["Den DF"]))


def test_rm_anova_and_tukey_by_hand():
    scores = np.array([[0.8, 0.7, 0.6], [0.9, 0.7, 0.7], [0.7, 0.6, 0.4]])
    # Grand mean 0.6778; SS_treat = 3 * 0.027407 = 0.082222, SS_subj =
    # 0.062222, SS_total = 0.155556, SS_err = 0.011111 on 4 df.
    result = rm_anova(scores)
    assert result.statistic == pytest.approx((0.0822222 / 2) / (0.0111111 / 4), 1e-5)
    assert result.ms_error == pytest.approx(0.0111111 / 4, rel=1e-5)
    tukey = tukey_rm(scores)
    se = np.sqrt(result.ms_error / 3)
    means = scores.mean(axis=0)
    for a, b in [(0, 1), (0, 2), (1, 2)]:
        q = (means[a] - means[b]) / se
        assert tukey.statistic[a, b] == pytest.approx(q)
        assert tukey.statistic[b, a] == pytest.approx(-q)
        assert tukey.pvalue[a, b] == pytest.approx(
            stats.studentized_range.sf(abs(q), 3, 4)
        )
    assert tukey.reject.tolist() == [
        [False, False, True], [False, False, False], [True, False, False]
    ]  # fmt: skip


def test_tukey_rm_ignores_data_set_effects_unlike_a_one_way_tukey():
    # A constant 0.01 advantage over data sets of very different levels: the
    # RM error term is 0-ish, a one-way Tukey (autorank's) sees no effect.
    rng = np.random.default_rng(0)
    level = rng.uniform(0.5, 0.95, 15)
    noise = rng.normal(0, 0.001, (15, 3))
    table = level[:, None] + np.array([0.01, 0.0, 0.0]) + noise
    assert tukey_rm(table).reject[0, 1:].all()
    one_way = stats.tukey_hsd(*table.T)
    assert (one_way.pvalue[0, 1:] > 0.05).all()


def test_paired_t_datasets_equals_scipy_ttest_rel():
    rng = np.random.default_rng(4)
    a, b = rng.normal(0.8, 0.05, 9), rng.normal(0.78, 0.05, 9)
    for alternative in ("two-sided", "greater", "less"):
        ours = paired_t_datasets(a - b, alternative=alternative)
        ref = stats.ttest_rel(a, b, alternative=alternative)
        assert ours.statistic == pytest.approx(ref.statistic)
        assert ours.pvalue == pytest.approx(ref.pvalue)


def test_normal_equal_variances_take_the_parametric_path():
    result = compare_scores(_normal_table(shift=1.0), tests="auto", random_state=0)
    assert result.auto.path == "rm_anova"
    assert list(result.tests) == ["rm_anova", "tukey_rm"]
    assert result.auto.variance.test == "bartlett" and result.auto.variance.equal
    assert result.auto.effect_size_kind == "cohen_d"
    assert {e.kind for e in result.effect_sizes} == {"cohen_d"}
    assert "repeated-measures ANOVA" in result.auto.reason
    assert result.tests.rm_anova.reject


def test_heavy_tails_take_the_rank_path_with_levene():
    rng = np.random.default_rng(0)
    table = rng.lognormal(0, 1.5, size=(30, 3))
    result = compare_scores(table, tests="auto", random_state=0)
    assert result.auto.path == "friedman"
    assert list(result.tests) == ["friedman", "nemenyi"]
    assert result.auto.variance.test == "levene"
    assert result.auto.effect_size_kind == "akinshin_gamma"
    assert not all(row.normal for row in result.auto.normality)
    with_control = compare_scores(
        table, tests="auto", control="estimator_0", random_state=0
    )
    # With a control the exact rank-sum family (Bonferroni-Dunn exceeds its
    # level on few data sets).
    assert list(with_control.tests) == ["friedman", "exact_posthoc"]


def test_shapiro_rows_carry_the_right_names_whatever_the_column_order():
    rng = np.random.default_rng(5)
    table = np.column_stack(
        [rng.normal(size=20), rng.exponential(size=20) ** 3, rng.normal(size=20)]
    )
    names = ["normal_1", "skewed", "normal_2"]
    result = compare_scores(table, names=names, tests="auto", random_state=0)
    rows = {row.estimator: row for row in result.auto.normality}
    assert [row.estimator for row in result.auto.normality] == names
    for j, name in enumerate(names):
        assert rows[name].pvalue == pytest.approx(stats.shapiro(table[:, j]).pvalue)
    assert not rows["skewed"].normal and rows["normal_1"].normal
    assert result.auto.normality_level == pytest.approx(0.05 / 3)
    permuted = compare_scores(
        table[:, [2, 0, 1]], names=["normal_2", "normal_1", "skewed"], tests="auto"
    )
    again = {row.estimator: row.pvalue for row in permuted.auto.normality}
    assert again == {name: rows[name].pvalue for name in names}


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_two_normal_estimators_get_the_paired_t_with_the_alternative(alternative):
    table = _normal_table(n=20, k=2, seed=3, shift=0.4)
    result = compare_scores(
        table, tests="auto", alternative=alternative, random_state=0
    )
    assert result.auto.path == "paired_t" and list(result.tests) == []
    ref = stats.ttest_rel(table[:, 0], table[:, 1], alternative=alternative)
    assert result.pairwise.paired_t_datasets.pvalue[0, 1] == pytest.approx(ref.pvalue)


def test_two_skewed_estimators_get_a_two_sided_wilcoxon_unless_asked():
    rng = np.random.default_rng(6)
    table = rng.lognormal(0, 2, size=(20, 2))
    result = compare_scores(table, tests="auto", random_state=0)
    assert result.auto.path == "wilcoxon"
    ref = stats.wilcoxon(table[:, 0], table[:, 1])
    assert result.pairwise.wilcoxon.pvalue[0, 1] == pytest.approx(ref.pvalue)
    greater = compare_scores(table, tests="auto", alternative="greater")
    ref = stats.wilcoxon(table[:, 0], table[:, 1], alternative="greater")
    assert greater.pairwise.wilcoxon.pvalue[0, 1] == pytest.approx(ref.pvalue)


def test_degenerate_tables_have_a_defined_path():
    two = compare_scores([[0.8, 0.7, 0.6], [0.9, 0.6, 0.5]], tests="auto")
    assert two.auto.path == "friedman"
    assert all(row.note == "fewer than 3 data sets" for row in two.auto.normality)
    assert all(row.pvalue is None for row in two.auto.normality)
    rng = np.random.default_rng(0)
    table = rng.normal(size=(10, 3))
    table[:, 1] = 0.5
    constant = compare_scores(table, tests="auto", random_state=0)
    assert constant.auto.normality[1].note == "constant scores"
    assert not constant.auto.normality[1].normal
    assert constant.auto.path == "friedman"
    flat = compare_scores(np.full((5, 3), 0.5), tests="auto")
    assert flat.auto.variance is None and flat.auto.path == "friedman"
    assert all(e.estimate == 0 for e in flat.effect_sizes)


def test_losses_take_the_same_path_and_mirror_the_effects():
    table = _normal_table(shift=1.0)
    gain = compare_scores(table, tests="auto", random_state=0)
    loss = compare_scores(-table, tests="auto", greater_is_better=False, random_state=0)
    assert loss.auto.path == gain.auto.path
    assert [e.estimate for e in loss.effect_sizes] == pytest.approx(
        [e.estimate for e in gain.effect_sizes]
    )


def test_default_effect_sizes_are_cohen_dz_for_every_pair_in_names_order():
    table = _normal_table(n=12, k=3)
    result = compare_scores(table, names=["x", "y", "z"], random_state=0)
    assert result.auto is None and result.effect_size_kind == "cohen_dz"
    assert [(e.a, e.b) for e in result.effect_sizes] == [
        ("x", "y"), ("x", "z"), ("y", "z")
    ]  # fmt: skip
    d = table[:, 0] - table[:, 2]
    assert result.effect_sizes[1].estimate == pytest.approx(d.mean() / d.std(ddof=1))
    chosen = compare_scores(table, effect_size="cliff_delta", random_state=0)
    assert chosen.effect_size_kind == "cliff_delta"
    with pytest.raises(ValueError, match="effect_size"):
        compare_scores(table, effect_size="hedges")


def test_many_estimators_keep_only_the_pairs_with_the_best():
    rng = np.random.default_rng(0)
    table = rng.normal(size=(8, 14))
    table[:, 9] += 5
    result = compare_scores(table, pairwise_tests=[], random_state=0)
    assert len(result.effect_sizes) == 13
    assert all("estimator_9" in (e.a, e.b) for e in result.effect_sizes)


def _type_one_error(reps, n, k, heavy, seed):
    rng = np.random.default_rng(seed)
    rejections = 0
    for _ in range(reps):
        noise = rng.standard_t(3, (n, k)) if heavy else rng.normal(size=(n, k))
        table = noise + 2 * rng.normal(size=(n, 1))
        result = compare_scores(table, tests="auto", pairwise_tests=None)
        first = (list(result.tests) or list(result.pairwise))[0]
        test = result.tests.get(first) or result.pairwise[first]
        rejections += bool(np.any(test.reject))
    return rejections / reps


def test_auto_path_holds_its_level_roughly_small():
    # A short version of benchmarks/reproduce_auto.py: 200 null tables.
    rate = _type_one_error(200, 15, 3, heavy=False, seed=0)
    assert rate < 0.05 + 3 * np.sqrt(0.05 * 0.95 / 200)


@pytest.mark.slow
@pytest.mark.parametrize("heavy", [False, True])
def test_auto_path_holds_its_level_roughly(heavy):
    rate = _type_one_error(2000, 10, 3, heavy=heavy, seed=1)
    assert rate < 0.05 + 3 * np.sqrt(0.05 * 0.95 / 2000)


def test_benchmark_auto_decides_like_compare_scores_on_its_scores():
    from sklearn.datasets import load_iris, load_wine
    from sklearn.dummy import DummyClassifier
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_bcv import benchmark

    data = {
        "iris": load_iris(return_X_y=True),
        "wine": load_wine(return_X_y=True),
        "iris2": tuple(a[::2] for a in load_iris(return_X_y=True)),
    }
    estimators = {
        "bayes": GaussianNB(),
        "tree": DecisionTreeClassifier(max_depth=2, random_state=0),
        "majority": DummyClassifier(),
    }
    study = benchmark(estimators, data, tests="auto", random_state=0)
    again = compare_scores(
        study.scores, names=study.names, tests="auto", random_state=0
    )
    assert study.auto.path == again.auto.path
    assert study.auto.reason == again.auto.reason
    assert list(study.tests) == list(again.tests)
    assert list(study.pairwise) == list(again.pairwise)
    assert study.effect_size_kind == again.effect_size_kind
    assert [e.estimate for e in study.effect_sizes] == pytest.approx(
        [e.estimate for e in again.effect_sizes]
    )
    default = benchmark(estimators, data, random_state=0)
    assert default.auto is None and default.effect_size_kind == "cohen_dz"
    assert len(default.effect_sizes) == 3
