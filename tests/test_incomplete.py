"""Tables with holes, several runs per cell and the replicability count,
through compare_scores, benchmark and the command line
(``sklearn_bcv/_engine/_incomplete.py``, ``_engine/_replicability.py``,
``_results/_incomplete.py``)."""

import csv
import io
import json

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.exceptions import FitFailedWarning
from sklearn.model_selection import KFold
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import benchmark, compare_scores
from sklearn_bcv._cli import main
from sklearn_bcv._cli._scores import read_scores
from sklearn_bcv._results._document import result_csv
from sklearn_bcv.stats import (
    corrected_t,
    effect_size,
    friedman,
    paired_t,
    poisson_binomial,
    replicability,
    skillings_mack,
    wilcoxon,
)

nan = np.nan

# 12 data sets × 5 estimators of two-decimal accuracies, two holes.
RNG = np.random.default_rng(7)
TABLE = np.round(
    RNG.uniform(0.6, 0.9, size=(12, 1))
    + np.linspace(0, 0.04, 5)
    + RNG.normal(0, 0.02, (12, 5)),
    2,
)
HOLED = TABLE.copy()
HOLED[3, 1] = nan
HOLED[8, 4] = nan
NAMES = ["a", "b", "c", "d", "e"]


# --------------------------------------------------------------------------
# missing="error" and "drop"
# --------------------------------------------------------------------------


def test_error_names_every_missing_cell():
    with pytest.raises(ValueError) as info:
        compare_scores(HOLED, names=NAMES)
    message = str(info.value)
    assert "scores must be finite" in message
    assert "2 data set(s) lack a score: dataset_3 lacks b; dataset_8 lacks e" in message
    assert "missing='skillings_mack'" in message and "missing='drop'" in message


def test_error_names_the_missing_splits():
    splits = np.repeat(TABLE[:, None, :], 3, axis=1)
    splits[2, 1, 3] = nan
    with pytest.raises(ValueError, match=r"dataset_2 lacks estimator_3 \(split 1\)"):
        compare_scores(splits)


def test_drop_leaves_out_the_data_sets_with_a_hole():
    result = compare_scores(HOLED, names=NAMES, missing="drop")
    assert result.missing.dropped == ["dataset_3", "dataset_8"]
    assert result.missing.cells == [["dataset_3", "b"], ["dataset_8", "e"]]
    kept = np.delete(TABLE, [3, 8], axis=0)
    assert result.tests.friedman.statistic == pytest.approx(friedman(kept).statistic)
    assert len(result.datasets) == 10
    assert "left out 2 data sets with a hole" in str(result)
    with pytest.raises(ValueError, match="0 data set"):
        compare_scores(np.array([[0.1, nan], [nan, 0.3]]), missing="drop")


def test_no_hole_every_mode_is_todays_path():
    reference = compare_scores(TABLE, random_state=0)
    for mode in ("error", "drop"):
        result = compare_scores(TABLE, random_state=0, missing=mode)
        assert result.tests.friedman.statistic == reference.tests.friedman.statistic
        assert result.missing == {"mode": mode, "cells": [], "dropped": []}
        assert str(result) == str(reference)


# --------------------------------------------------------------------------
# missing="skillings_mack"
# --------------------------------------------------------------------------


def test_skillings_mack_keeps_every_score():
    result = compare_scores(
        HOLED, names=NAMES, missing="skillings_mack", random_state=0
    )
    assert list(result.tests) == ["skillings_mack", "skillings_mack_posthoc"]
    assert result.tests.skillings_mack.statistic == pytest.approx(
        skillings_mack(HOLED).statistic
    )
    assert np.isnan(result.ranks[3, 1]) and np.isnan(result.scores[8, 4])
    assert result.ranks[3, ~np.isnan(HOLED[3])].max() == 4.0  # among 4 scores
    assert_allclose(result.mean_ranks, np.nanmean(result.ranks, axis=0))
    assert_allclose(result.mean_scores, np.nanmean(HOLED, axis=0))
    # Each pair on the data sets both have: Wilcoxon of b and c without
    # dataset_3.
    rows = ~np.isnan(HOLED[:, 1])
    reference = wilcoxon(HOLED[rows, 1] - HOLED[rows, 2], score_scale=0.96)
    table = result.pairwise.wilcoxon
    assert table.results[("b", "c")].pvalue == pytest.approx(reference.pvalue)
    assert table.results[("b", "c")].n_datasets == 11
    assert table.results[("a", "c")].n_datasets == 12
    # Effect sizes likewise.
    effect = next(e for e in result.effect_sizes if (e.a, e.b) == ("b", "c"))
    alone = effect_size(HOLED[rows, 1], HOLED[rows, 2], random_state=0)
    assert effect.estimate == pytest.approx(alone.estimate)


def test_skillings_mack_without_holes_equals_friedman():
    result = compare_scores(TABLE, missing="skillings_mack")
    assert result.tests.skillings_mack.statistic == pytest.approx(
        friedman(TABLE).statistic, rel=1e-10
    )
    # Its p-value is chi-squared's (Friedman's own decides by the exact
    # permutation law on small tables: the chi-squared form is beside it).
    assert result.tests.skillings_mack.pvalue == pytest.approx(
        friedman(TABLE).pvalue_chi2, rel=1e-8
    )


def test_with_a_control_and_lower_is_better():
    result = compare_scores(
        -HOLED,
        names=NAMES,
        missing="skillings_mack",
        control="a",
        greater_is_better=False,
    )
    post = result.tests.skillings_mack_posthoc
    assert post.control == 0
    assert post.tested[:, 0].tolist() == [False, True, True, True, True]
    reference = compare_scores(
        HOLED, names=NAMES, missing="skillings_mack", control="a"
    )
    assert_allclose(post.pvalue, reference.tests.skillings_mack_posthoc.pvalue)
    assert_allclose(result.mean_ranks, reference.mean_ranks)


def test_tests_that_need_a_complete_table_are_refused():
    with pytest.raises(ValueError, match="friedman needs a score of every"):
        compare_scores(HOLED, missing="skillings_mack", tests=["friedman"])
    with pytest.raises(ValueError, match="tests='auto'"):
        compare_scores(HOLED, missing="skillings_mack", tests="auto")
    # A pair with a single data set in common.
    sparse = np.array([[0.1, 0.2, nan], [0.3, nan, 0.2], [nan, 0.3, 0.1]])
    with pytest.raises(ValueError, match="fewer than 2 in common"):
        compare_scores(sparse, missing="skillings_mack")
    result = compare_scores(sparse, missing="skillings_mack", pairwise_tests=[])
    assert "skillings_mack" in result.tests


def test_durbin_by_name_on_a_balanced_design():
    scores = np.full((3, 3), nan)
    for i, block in enumerate([(0, 1), (1, 2), (0, 2)]):
        scores[i, list(block)] = [0.8, 0.7]
    result = compare_scores(
        scores, missing="skillings_mack", tests=["durbin"], pairwise_tests=[]
    )
    assert result.tests.durbin.design.together == 1
    assert (
        compare_scores(scores, missing="skillings_mack", pairwise_tests=[])
        .tests["skillings_mack"]
        .durbin
        is not None
    )


@pytest.mark.parametrize("format", ["text", "markdown", "latex", "html"])
def test_reports_say_where_the_holes_are(format):
    datasets = [f"d{i}" for i in range(12)]
    result = compare_scores(
        HOLED, names=NAMES, datasets=datasets, missing="skillings_mack", random_state=0
    )
    text = result.report(format)
    assert "d3: b" in text and "d8: e" in text
    assert "Skillings" in text
    document = json.loads(result.to_json())
    assert document["missing"]["cells"] == [["d3", "b"], ["d8", "e"]]
    assert document["scores"][3][1] is None


def test_summary_and_csv_with_holes():
    result = compare_scores(
        HOLED, names=NAMES, missing="skillings_mack", random_state=0
    )
    summary = str(result)
    assert "missing scores: 2 (dataset_3: b; dataset_8: e)" in summary
    assert "kept (missing='skillings_mack')" in summary
    rows = list(csv.DictReader(io.StringIO(result_csv(result))))
    holes = [r for r in rows if r["section"] == "score" and r["score"] == ""]
    assert {(r["dataset"], r["estimator"]) for r in holes} == {
        ("dataset_3", "b"),
        ("dataset_8", "e"),
    }


def test_critical_difference_diagram_with_holes():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from sklearn_bcv import CriticalDifferenceDisplay, DatasetScoresDisplay

    result = compare_scores(HOLED, names=NAMES, missing="skillings_mack")
    display = CriticalDifferenceDisplay.from_result(
        result, test="skillings_mack_posthoc"
    )
    assert display.figure_ is not None
    assert DatasetScoresDisplay.from_result(result).figure_ is not None


# --------------------------------------------------------------------------
# Runs per cell
# --------------------------------------------------------------------------

RUNS = 0.8 + np.linspace(0, 0.02, 3)[None, :, None] + RNG.normal(0, 0.01, (6, 3, 4))


def test_runs_array_and_long_frame_agree():
    pd = pytest.importorskip("pandas")
    by_array = compare_scores(RUNS, runs=True, names=["x", "y", "z"], random_state=0)
    rows = [
        {"dataset": f"d{i}", "estimator": "xyz"[j], "run": f"seed{r}", "score": v}
        for i in range(6)
        for j in range(3)
        for r, v in enumerate(RUNS[i, j])
    ]
    frame = pd.DataFrame(rows).sample(frac=1.0, random_state=0)  # any row order
    by_frame = compare_scores(frame, random_state=0)
    assert sorted(by_frame.names) == ["x", "y", "z"]
    order = [by_frame.names.index(n) for n in ["x", "y", "z"]]
    datasets = [by_frame.datasets.index(f"d{i}") for i in range(6)]
    assert_allclose(by_frame.scores[np.ix_(datasets, order)], by_array.scores)
    assert_allclose(by_array.scores, RUNS.mean(axis=2))
    assert by_array.runs.correlation == 0.0
    assert_array_equal(by_array.runs.n_runs, 4)
    assert by_array.split_scores is None


def test_runs_tests_use_the_runs_as_independent_replicates():
    result = compare_scores(RUNS, runs=True, random_state=0)
    pb = result.pairwise.poisson_binomial.results[("estimator_0", "estimator_2")]
    d = RUNS[:, 0, :] - RUNS[:, 2, :]
    reference = poisson_binomial(d, None, None, rho=0.0)
    assert_allclose(pb.p_datasets, reference.p_datasets)
    # rho = 0 is the plain Bayesian t test: n_test / n_train = 0.
    tiny = poisson_binomial(d, n_train=1e12, n_test=1e-12)
    assert_allclose(reference.p_datasets, tiny.p_datasets, rtol=1e-9)
    # Replicability from the paired t test of the runs.
    rep = result.replicability
    assert rep.tests == ["paired_t"]
    one = rep.results[("estimator_0", "estimator_2")].b_better
    p_less = paired_t(d, alternative="less").pvalue
    expected = replicability(p_less, alpha=0.025, datasets=result.datasets)
    assert one.count == expected.count
    assert_allclose(one.pvalues, p_less)


def test_runs_with_sizes_are_splits_and_missing_runs():
    runs = RUNS.copy()
    runs[1, 2, 3] = nan  # one run failed: the cell's mean of three
    runs[4, 0, :] = nan  # no run: a hole
    with pytest.raises(ValueError, match="dataset_4 lacks estimator_0"):
        compare_scores(runs, runs=True)
    result = compare_scores(runs, runs=True, missing="skillings_mack", random_state=0)
    assert result.scores[1, 2] == pytest.approx(np.mean(RUNS[1, 2, :3]))
    assert result.runs.n_runs[1, 2] == 3 and result.runs.n_runs[4, 0] == 0
    assert "3 to 4 runs per cell" in str(result)
    sized = compare_scores(
        RUNS, runs=True, n_train=90, n_test=10, replicability="fisher", random_state=0
    )
    assert sized.runs.correlation is None
    assert sized.replicability.tests == ["corrected_t"]
    d = RUNS[:, 0, :] - RUNS[:, 1, :]
    greater = corrected_t(d, 90, 10, alternative="greater").pvalue
    assert_allclose(
        sized.replicability.results[("estimator_0", "estimator_1")].a_better.pvalues,
        greater,
    )


def test_a_3d_array_is_splits_unless_runs():
    splits = np.moveaxis(RUNS, 2, 1)  # (6, 4 splits, 3 estimators)
    as_splits = compare_scores(splits)
    assert as_splits.split_scores.shape == (6, 4, 3)
    with pytest.raises(ValueError, match="pass runs=True"):
        compare_scores(RUNS, names=["x", "y", "z"])
    with pytest.raises(ValueError, match=r"runs=True takes scores of shape"):
        compare_scores(TABLE, runs=True)


def test_report_shows_the_spread_over_runs():
    result = compare_scores(RUNS, runs=True, random_state=0)
    text = result.report("markdown")
    assert "± sd over the runs" in text
    assert "independent replicates" in text


# --------------------------------------------------------------------------
# Replicability
# --------------------------------------------------------------------------


def test_replicability_from_split_scores_and_sizes():
    splits = 0.8 + RNG.normal(0, 0.02, (8, 10, 3))
    splits[:, :, 2] += 0.03
    result = compare_scores(splits, n_train=90, n_test=10, random_state=0)
    rep = result.replicability
    assert rep.method == "bonferroni" and rep.level == 0.025
    d = splits[..., 2] - splits[..., 0]
    p = corrected_t(d, 90, 10, alternative="greater").pvalue
    expected = replicability(p, alpha=0.025, datasets=result.datasets)
    found = rep.results[("estimator_0", "estimator_2")].b_better
    assert found.count == expected.count == rep.count[2, 0]
    assert (
        rep.identified[("estimator_2", "estimator_0")] == expected.identified_datasets
    )
    one_sided = compare_scores(
        splits, n_train=90, n_test=10, alternative="less", random_state=0
    )
    assert one_sided.replicability.level == 0.05
    assert (
        one_sided.replicability.results[("estimator_0", "estimator_2")].a_better is None
    )


def test_replicability_needs_pvalues():
    assert compare_scores(TABLE).replicability is None
    with pytest.raises(ValueError, match="needs a p-value on each data set"):
        compare_scores(TABLE, replicability="bonferroni")
    assert (
        compare_scores(
            RUNS, runs=True, replicability=False, random_state=0
        ).replicability
        is None
    )


# --------------------------------------------------------------------------
# benchmark: failed fits leave holes
# --------------------------------------------------------------------------


class _FailsOnLarge(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        if len(X) > 250:
            raise RuntimeError("too many records")
        self.constant_ = y[0]
        return self

    def predict(self, X):
        return np.full(len(X), self.constant_)


SMALL = make_classification(200, 4, random_state=0)
LARGE = make_classification(400, 4, random_state=1)
DATASETS = {
    "small": SMALL,
    "large": LARGE,
    "again": SMALL,
    "other": make_classification(250, 4, random_state=3),
}
ESTIMATORS = {
    "fails": _FailsOnLarge(),
    "tree": DecisionTreeClassifier(random_state=0),
    "bayes": GaussianNB(),
}


def test_benchmark_missing_modes():
    with pytest.warns(FitFailedWarning):
        error = benchmark(
            ESTIMATORS, DATASETS, error_score=np.nan, cv=KFold(3), random_state=0
        )
    assert not error.tests and error.missing.cells == [["large", "fails"]]
    assert "fits failed on large" in error.verdict.text
    assert "missing='skillings_mack'" in error.verdict.text
    with pytest.warns(FitFailedWarning):
        kept = benchmark(
            ESTIMATORS,
            DATASETS,
            error_score=np.nan,
            cv=KFold(3),
            random_state=0,
            missing="skillings_mack",
        )
    assert list(kept.tests) == ["skillings_mack", "skillings_mack_posthoc"]
    assert np.isnan(kept.scores[1, 0]) and np.isfinite(kept.scores[1, 1:]).all()
    assert kept.pairwise.wilcoxon.results[("fails", "tree")].n_datasets == 3
    assert "1 cell fits failed in large: fails" in str(kept)
    rep = kept.replicability
    assert rep.tests == ["corrected_t"]
    assert rep.results[("fails", "tree")].n_datasets == 3
    with pytest.warns(FitFailedWarning):
        dropped = benchmark(
            ESTIMATORS,
            DATASETS,
            error_score=0.0,  # a number: the failed cell is a hole all the same
            cv=KFold(3),
            random_state=0,
            missing="drop",
        )
    assert dropped.datasets == ["small", "again", "other"]
    assert dropped.missing.dropped == ["large"]
    assert dropped.failed_fits.shape[0] == 3
    assert list(dropped.tests) == ["friedman", "nemenyi"]
    assert set(dropped.per_dataset) == set(DATASETS)


def test_benchmark_refuses_complete_table_tests_with_skillings_mack():
    with pytest.raises(ValueError, match="nemenyi needs a score of every"):
        benchmark(
            ESTIMATORS,
            DATASETS,
            tests=["skillings_mack", "nemenyi"],
            missing="skillings_mack",
        )


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------


def run_cli(*args):
    out, err = io.StringIO(), io.StringIO()
    status = main(["scores", *map(str, args)], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def wide(tmp_path, table, names=NAMES):
    lines = [",".join(["dataset", *names])]
    for i, row in enumerate(table):
        lines.append(
            ",".join([f"d{i}", *("" if np.isnan(v) else repr(float(v)) for v in row)])
        )
    path = tmp_path / "holes.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_cli_missing(tmp_path):
    path = wide(tmp_path, HOLED)
    status, _, err = run_cli(path)
    assert status == 2
    assert "2 data set(s) lack a score: d3 lacks b; d8 lacks e" in err
    assert "--missing skillings_mack" in err
    status, out, err = run_cli(path, "--missing", "skillings_mack", "--format", "json")
    assert status == 0, err
    document = json.loads(out)
    reference = compare_scores(
        HOLED, names=NAMES, missing="skillings_mack", random_state=0
    )
    assert document["tests"]["skillings_mack"]["statistic"] == pytest.approx(
        reference.tests.skillings_mack.statistic
    )
    assert document["missing"]["cells"] == [["d3", "b"], ["d8", "e"]]
    status, out, err = run_cli(path, "--missing", "drop", "--format", "json")
    assert status == 0 and "left out 2 incomplete data set(s): d3, d8" in err
    assert json.loads(out)["missing"]["dropped"] == ["d3", "d8"]
    status, out, _ = run_cli(path, "--missing", "skillings_mack")
    assert status == 0 and "d3" in out and "missing scores: 2" in out
    status, _, err = run_cli(path, "--missing", "skillings_mack", "--drop-incomplete")
    assert status == 2 and "contradicts" in err


def test_cli_run_column(tmp_path):
    lines = ["dataset,estimator,run,accuracy"]
    for i in range(6):
        for j, name in enumerate("xyz"):
            for r in range(4):
                lines.append(f"d{i},{name},{r},{float(RUNS[i, j, r])!r}")
    path = tmp_path / "runs.csv"
    path.write_text("\n".join(lines) + "\n")
    table = read_scores(path)
    assert table.per == "run" and table.scores.shape == (6, 3, 4)
    status, out, err = run_cli(path, "--format", "json", "--replicability", "fisher")
    assert status == 0, err
    document = json.loads(out)
    reference = compare_scores(
        RUNS,
        runs=True,
        names=["x", "y", "z"],
        datasets=[f"d{i}" for i in range(6)],
        replicability="fisher",
        random_state=0,
    )
    assert document["replicability"]["method"] == "fisher"
    assert_allclose(
        np.array(document["replicability"]["count"]), reference.replicability.count
    )
    assert_allclose(np.array(document["scores"], float), reference.scores)
    status, out, _ = run_cli(path)
    assert "up to 4 runs per cell" in out
    both = tmp_path / "both.csv"
    both.write_text("dataset,estimator,run,split,score\nd1,x,1,1,0.5\n")
    status, _, err = run_cli(both)
    assert status == 2 and "not both" in err


def test_pairs_with_holes_batched_by_their_data_sets():
    # Every pair's Wilcoxon and sign test, run in batches of the pairs with
    # the same common data sets, is the test of that pair alone.
    result = compare_scores(
        HOLED,
        names=NAMES,
        missing="skillings_mack",
        pairwise_tests=["wilcoxon", "sign"],
    )
    scale = float(np.nanmax(np.abs(HOLED)))
    for (a, b), found in result.pairwise.wilcoxon.results.items():
        i, j = NAMES.index(a), NAMES.index(b)
        rows = ~np.isnan(HOLED[:, i]) & ~np.isnan(HOLED[:, j])
        alone = wilcoxon(HOLED[rows, i] - HOLED[rows, j], score_scale=scale)
        assert found.pvalue == pytest.approx(alone.pvalue, rel=1e-12)
        assert found.statistic == alone.statistic
    assert set(result.pairwise.sign.results) == set(result.pairwise.wilcoxon.results)


def test_hierarchical_model_on_the_runs():
    from sklearn_bcv.stats import bayesian_hierarchical

    params = {"n_samples": 2000, "n_warmup": 200, "random_state": 0}
    result = compare_scores(
        RUNS,
        runs=True,
        tests=[],
        pairwise_tests={"bayesian_hierarchical": params},
        effect_size=False,
        random_state=0,
    )
    found = result.pairwise.bayesian_hierarchical.results[
        ("estimator_0", "estimator_1")
    ]
    d = RUNS[:, 0, :] - RUNS[:, 1, :]
    alone = bayesian_hierarchical(
        d, None, None, rho=0.0, score_scale=float(np.max(np.abs(RUNS))), **params
    )
    assert found.p_a_better == pytest.approx(alone.p_a_better)
    assert found.delta0.mean == pytest.approx(alone.delta0.mean)
    # A test of set sizes that cannot take rho is refused on independent runs.
    with pytest.raises(ValueError, match="the runs are independent"):
        from sklearn.utils import Bunch

        from sklearn_bcv import register_test, unregister_test

        @register_test(
            "sizes_only",
            needs=("split_differences", "n_train", "n_test"),
            kind="datasets",
            role="pairwise",
        )
        def sizes_only(
            split_differences, n_train, n_test, *, alpha=0.05, alternative="two-sided"
        ):  # pragma: no cover - refused
            return Bunch(statistic=0.0, pvalue=1.0, df=None, reject=False)

        try:
            compare_scores(RUNS, runs=True, tests=[], pairwise_tests=["sizes_only"])
        finally:
            unregister_test("sizes_only")


def test_a_cell_missing_a_split_is_a_hole_everywhere():
    splits = 0.8 + RNG.normal(0, 0.02, (8, 10, 3))
    splits[2, 4, 1] = nan  # estimator_1 lacks one split of dataset_2
    result = compare_scores(
        splits, n_train=90, n_test=10, missing="skillings_mack", random_state=0
    )
    assert np.isnan(result.scores[2, 1])
    assert np.isnan(result.split_scores[2, 4, 1])  # as given
    rep = result.replicability.results[("estimator_0", "estimator_1")]
    assert rep.n_datasets == 7
    pb = result.pairwise.poisson_binomial.results[("estimator_0", "estimator_1")]
    assert pb.n_datasets == 7


def test_benchmark_drop_leaving_too_few_runs_nothing():
    with pytest.warns(FitFailedWarning):
        result = benchmark(
            ESTIMATORS,
            {"large": LARGE, "larger": make_classification(450, 4, random_state=2)},
            error_score=np.nan,
            cv=KFold(3),
            random_state=0,
            missing="drop",
        )
    assert not result.tests and not result.pairwise
    assert "fewer than 2 data sets" in result.verdict.text


def test_benchmark_replicability_batched_equals_pair_by_pair(monkeypatch):
    from sklearn_bcv._engine import _replicability

    estimators = {
        "tree": DecisionTreeClassifier(random_state=0),
        "bayes": GaussianNB(),
        "stump": DecisionTreeClassifier(max_depth=1, random_state=0),
    }
    data = {"small": SMALL, "other": DATASETS["other"], "large": LARGE}
    batched = benchmark(estimators, data, random_state=0, dataset_tests=[])
    monkeypatch.setattr(_replicability, "_store_needs", lambda *args: None)
    one_by_one = benchmark(estimators, data, random_state=0, dataset_tests=[])
    assert batched.replicability.tests == ["bcv_mcnemar"]
    for pair, found in batched.replicability.results.items():
        again = one_by_one.replicability.results[pair]
        for side in ("a_better", "b_better"):
            assert_allclose(found[side].pvalues, again[side].pvalues, rtol=1e-12)
    # The p-values are those of the recommended test on each data set.
    greater = benchmark(
        estimators,
        data,
        random_state=0,
        dataset_tests=["bcv_mcnemar"],
        alternative="greater",
    )
    p = greater.replicability.results[("tree", "bayes")].a_better.pvalues
    for i, name in enumerate(data):
        one = greater.per_dataset[name].pairwise.bcv_mcnemar.results[("tree", "bayes")]
        assert p[i] == pytest.approx(one.pvalue, rel=1e-12)
    assert greater.replicability.results[("tree", "bayes")].b_better is None
