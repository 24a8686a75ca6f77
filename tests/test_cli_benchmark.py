"""Tests of ``sklearn-bcv benchmark``: several estimators across data sets."""

import csv
import io
import json

import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine, make_moons
from sklearn.dummy import DummyClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import BlockRegularizedMx2CV, benchmark
from sklearn_bcv._cli import SUBCOMMANDS, main
from sklearn_bcv._cli._benchmark import (
    DEFAULT_DATASETS,
    GENERATED,
    load_dataset,
    parse_dataset,
    parse_datasets,
)

# Three classifiers whose ranking is the same on every data set (naive Bayes
# > a stump > the majority class) on three small data sets, with 2
# repetitions of 2-fold BCV: 3 × 4 × 3 = 36 quick fits.
ESTIMATORS = [
    "--estimator",
    "nb=sklearn.naive_bayes.GaussianNB",
    "--estimator",
    "stump=sklearn.tree.DecisionTreeClassifier",
    "--estimator",
    "majority=sklearn.dummy.DummyClassifier",
    "--params",
    'stump={"max_depth": 1, "random_state": 0}',
]
FAST = [
    "--datasets",
    "iris",
    "wine",
    "moons:1",
    "--cv",
    "mx2",
    "--repeats",
    "2",
    "--quiet",
    *ESTIMATORS,
]
NAMES = ["nb", "stump", "majority"]


def run_cli(*argv):
    """Run ``main`` on ``argv``; return (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    # Seed 0, as the library calls these tests compare with (without the
    # option the command draws a seed: tests/test_seeds.py).
    status = main(["benchmark", "--random-state", "0", *argv], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def assert_one_line_error(status, err, match, expected_status):
    assert status == expected_status, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    assert match in lines[0], lines[0]


def python_result(**kwargs):
    """What ``FAST`` asks for, through the Python API."""
    estimators = [
        ("nb", GaussianNB()),
        ("stump", DecisionTreeClassifier(max_depth=1, random_state=0)),
        ("majority", DummyClassifier()),
    ]
    datasets = {
        "iris": load_iris(return_X_y=True),
        "wine": load_wine(return_X_y=True),
        "moons:1": make_moons(
            n_samples=300, noise=0.3, random_state=np.random.RandomState([0xDA7A, 1])
        ),
    }
    cv = BlockRegularizedMx2CV(n_repeats=2, random_state=0)
    return benchmark(estimators, datasets, cv=cv, random_state=0, **kwargs)


@pytest.fixture(scope="module")
def text_output():
    return run_cli(*FAST)


# ---- the subcommand --------------------------------------------------------


def test_benchmark_is_a_subcommand_listed_in_the_help():
    assert "benchmark" in SUBCOMMANDS
    out, err = io.StringIO(), io.StringIO()
    assert main(["--help"], stdout=out, stderr=err) == 0
    assert "  benchmark   several estimators across several data sets" in out.getvalue()
    status, out, _ = run_cli("--help")
    assert status == 0
    assert out.startswith("usage: sklearn-bcv benchmark [-h]")
    for option in (
        "--datasets NAME [NAME ...]",
        "--estimator [NAME=]IMPORT.PATH",
        "--estimators SPEC [SPEC ...]",
        "--pairwise-tests",
        "--control NAME",
        "--correction",
        "--rope WIDTH",
        "--plot FILE.png",
        "a progress bar of the fits",
    ):
        assert option in out


# ---- text output -----------------------------------------------------------


def test_text_lists_the_data_sets_the_scores_and_ranks(text_output):
    status, out, err = text_output
    assert status == 0
    assert err == ""  # --quiet
    lines = out.splitlines()
    assert "  iris     150 records, 4 features, 3 classes (scikit-learn)" in lines
    assert "  moons:1  300 records, 2 features, 2 classes (make_moons, seed 1)" in lines
    assert "cv: BlockRegularizedMx2CV(n_repeats=2, random_state=0)" in lines
    # The table of mean scores: one row per data set, ranks in parentheses.
    start = lines.index("Mean accuracy on each data set (rank):")
    assert lines[start + 1].split() == ["data", "set", *NAMES]
    rows = {line.split()[0]: line.split()[1:] for line in lines[start + 2 : start + 5]}
    assert list(rows) == ["iris", "wine", "moons:1"]
    for cells in rows.values():
        assert cells[1::2] == ["(1)", "(2)", "(3)"]
    expected = python_result()
    iris = [float(cell) for cell in rows["iris"][::2]]
    np.testing.assert_allclose(iris, expected.scores[0], atol=5e-5)


def test_text_ranks_the_estimators_and_reports_friedman(text_output):
    _, out, _ = text_output
    lines = out.splitlines()
    start = lines.index("Comparison of 3 estimators on 3 data sets, scoring: accuracy")
    assert lines[start + 1].split() == [
        "rank",
        "estimator",
        "mean",
        "rank",
        "mean",
        "score",
    ]
    ranking = [line.split() for line in lines[start + 2 : start + 5]]
    assert [row[:3] for row in ranking] == [
        ["1", "nb", "1.000"],
        ["2", "stump", "2.000"],
        ["3", "majority", "3.000"],
    ]
    # The same ranking on 3 data sets: Friedman's chi2 = 6 (df 2), chi-squared
    # p = e^-3; its exact p-value, that every data set ranks alike, 1/3!².
    friedman = next(line for line in lines if line.startswith("friedman:"))
    assert friedman.startswith(
        "friedman: statistic 6 (df 2), p = 0.0278 by the exact permutation test "
        "given the ties (N = 3, k = 3); supplementary: chi-squared p = 0.0498"
    )
    assert friedman.endswith("the estimators differ at alpha=0.05.")
    assert any(line.startswith("Post hoc nemenyi on mean ranks") for line in lines)
    assert any("wilcoxon" in line for line in lines)


# ---- other formats ---------------------------------------------------------


def test_json_holds_the_numbers_of_the_python_api():
    status, out, _ = run_cli(*FAST, "--format", "json")
    assert status == 0
    document = json.loads(out)
    expected = python_result()
    assert document["names"] == NAMES
    assert document["dataset_names"] == ["iris", "wine", "moons:1"]
    assert document["task"] == "classification"
    assert document["scoring"] == "accuracy"
    np.testing.assert_allclose(document["scores"], expected.scores)
    np.testing.assert_allclose(document["split_scores"], expected.split_scores)
    np.testing.assert_allclose(document["mean_ranks"], [1.0, 2.0, 3.0])
    assert list(document["tests"]) == list(expected.tests)
    friedman = document["tests"]["friedman"]
    assert friedman["statistic"] == pytest.approx(expected.tests.friedman.statistic)
    assert friedman["pvalue_chi2"] == pytest.approx(np.exp(-3))
    assert friedman["pvalue"] == pytest.approx(1 / 36)  # exact
    assert list(document["pairwise"]) == list(expected.pairwise)
    assert document["verdict"]["omnibus_test"] == "friedman"
    assert document["verdict"]["omnibus_reject"] is True
    assert document["verdict"]["differ"] == [list(p) for p in expected.verdict.differ]
    assert set(document["per_dataset"]) == {"iris", "wine", "moons:1"}


def test_csv_has_one_row_per_test_and_pair():
    status, out, _ = run_cli(*FAST, "--format", "csv")
    assert status == 0
    every = list(csv.DictReader(io.StringIO(out)))
    rows = [r for r in every if r["section"] in ("posthoc", "pairwise")]
    result = python_result()
    expected = result.to_frame()
    assert out.startswith(
        "section,test,status,estimator_a,estimator_b,mean_rank_a,mean_rank_b,"
    )
    # The Friedman row (and Iman-Davenport's F) and every score are there.
    omnibus = [r for r in every if r["section"] == "test"]
    assert omnibus[0]["test"] == "friedman"
    assert float(omnibus[0]["pvalue"]) == pytest.approx(result.tests.friedman.pvalue)
    scores = [r for r in every if r["section"] == "score"]
    assert len(scores) == np.size(result.scores)
    assert float(scores[0]["score"]) == pytest.approx(result.scores[0][0])
    assert [(r["test"], r["estimator_a"], r["estimator_b"]) for r in rows] == list(
        zip(expected["test"], expected["estimator_a"], expected["estimator_b"])
    )
    tests = {row["test"] for row in rows}
    assert "nemenyi" in tests
    assert "wilcoxon" in tests


def test_control_runs_the_exact_posthoc_test_against_it():
    status, out, _ = run_cli(*FAST, "--control", "majority", "--format", "json")
    assert status == 0
    document = json.loads(out)
    assert document["control"] == "majority"
    assert list(document["tests"]) == ["friedman", "exact_posthoc"]
    pairs = {
        (r["estimator_a"], r["estimator_b"])
        for r in document["pairwise"]["wilcoxon"]["results"]
    }
    assert all("majority" in pair for pair in pairs)
    assert len(pairs) == 2


# ---- the plot --------------------------------------------------------------


def test_plot_saves_the_critical_difference_diagram(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "cd.png"
    status, _, err = run_cli(*[a for a in FAST if a != "--quiet"], "--plot", str(path))
    assert status == 0, err
    assert path.is_file() and path.stat().st_size > 0
    assert f"plot saved to {path}\n" in err


def test_plot_without_a_suffix_writes_and_reports_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "diagram"
    status, _, err = run_cli(
        *[a for a in FAST if a != "--quiet"], "--format", "csv", "--plot", str(path)
    )
    assert status == 0, err
    assert not path.exists()
    written = tmp_path / "diagram.png"
    assert written.read_bytes().startswith(b"\x89PNG")
    assert err.splitlines()[-1] == f"plot saved to {written}"


def test_plot_figure_is_sized_as_the_display_would_size_it():
    pytest.importorskip("matplotlib")
    from sklearn_bcv._cli._benchmark import plot_figure, plot_test, plot_title

    result = python_result()
    fig = plot_figure(result)
    assert plot_test(result) == "nemenyi"
    assert fig._suptitle.get_text() == plot_title(result, "nemenyi")
    assert plot_title(result, "nemenyi").startswith(
        "friedman (p = 0.0278): the estimators differ\nnemenyi: "
    )
    width, height = fig.get_size_inches()
    assert 4 < width < 8 and 1 < height < 4


# ---- progress --------------------------------------------------------------


def test_verbose_shows_a_progress_bar_of_the_fits():
    argv = [a for a in FAST if a != "--quiet"]
    status, out, err = run_cli(*argv, "-v")
    assert status == 0
    assert "36" in err  # the total number of fits
    assert "fits" in err
    assert "Comparison of 3 estimators" in out  # stdout holds only the output
    status, _, err = run_cli(*argv)
    assert status == 0
    assert err.startswith("fitting 3 estimators on 3 data sets (36 fits) ...\n")


# ---- data sets -------------------------------------------------------------


def test_data_set_names_and_seeds():
    assert parse_dataset("wine").seed is None
    assert parse_dataset("classification").seed == 0
    one, two = (load_dataset(parse_dataset(name)) for name in ("moons:1", "moons:2"))
    assert one[0].shape == two[0].shape == (300, 2)
    assert not np.array_equal(one[0], two[0])
    again = load_dataset(parse_dataset("moons:1"))
    np.testing.assert_array_equal(one[0], again[0])
    specs = parse_datasets(None)
    assert [spec.name for spec in specs] == list(DEFAULT_DATASETS)
    assert {spec.task for spec in specs} == {"classification"}
    assert parse_datasets(["iris,wine", "moons"])[2].name == "moons"
    for name in GENERATED:
        X, y, description = load_dataset(parse_dataset(name))
        assert len(X) == len(y) >= 300
        assert description.startswith(f"{len(X)} records")


def test_generated_data_do_not_share_the_stream_of_the_splits():
    # make_moons(random_state=0) cut by BlockRegularizedMx2CV(random_state=0)
    # has one class in each half (both draw the same permutation first); the
    # generated data sets use another stream, so the logistic regression
    # (which needs two classes) fits with the default seeds.
    X, y, _ = load_dataset(parse_dataset("moons"))
    cv = BlockRegularizedMx2CV(n_repeats=1, random_state=0)
    for train, _ in cv.split(X, y):
        assert 0.4 < y[train].mean() < 0.6
    status, out, err = run_cli(
        "--quiet",
        "--datasets",
        "moons",
        "classification",
        "--cv",
        "mx2",
        "--repeats",
        "1",
        "--estimators",
        "sklearn.linear_model.LogisticRegression",
        "sklearn.dummy.DummyClassifier",
        "--tests",
        "friedman",
        "--pairwise-tests",
        "sign",
    )
    assert status == 0, err
    assert "  moons           300 records, 2 features, 2 classes" in out


def test_datasets_list_describes_every_name():
    status, out, _ = run_cli("--datasets", "list")
    assert status == 0
    names = [line.split()[0] for line in out.splitlines()]
    assert names[:5] == ["breast_cancer", "diabetes", "digits", "iris", "wine"]
    assert set(GENERATED) <= set(names)
    assert "sklearn.datasets.make_moons(n_samples=300, noise=0.3), NAME:SEED" in out


def test_the_default_data_sets_run():
    status, out, _ = run_cli(
        "--quiet",
        "--cv",
        "mx2",
        "--repeats",
        "1",
        "--estimators",
        "sklearn.naive_bayes.GaussianNB",
        "sklearn.dummy.DummyClassifier",
        "--format",
        "json",
    )
    assert status == 0
    document = json.loads(out)
    assert document["dataset_names"] == list(DEFAULT_DATASETS)
    assert document["names"] == ["GaussianNB", "DummyClassifier"]
    assert document["mean_ranks"][0] < document["mean_ranks"][1]


def test_regression_data_sets_get_regressors():
    status, out, _ = run_cli(
        "--quiet",
        "--datasets",
        "diabetes",
        "friedman1",
        "--cv",
        "mx2",
        "--repeats",
        "1",
        "--estimators",
        "sklearn.linear_model.Ridge",
        "sklearn.dummy.DummyRegressor",
        "--tests",
        "friedman",
        "--pairwise-tests",
        "wilcoxon",
    )
    assert status == 0
    assert "Comparison of 2 estimators on 2 data sets, scoring: r2" in out
    assert "  diabetes   442 records, 10 features (scikit-learn)" in out.splitlines()


# ---- errors ----------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, match",
    [
        (
            ["--datasets", "iris", "mnist"],
            "--datasets: unknown data set 'mnist'; valid names: bundled: "
            "breast_cancer, diabetes, digits, iris, wine; generated",
        ),
        (["--datasets", "iris"], "--datasets: give at least 2 data sets"),
        (["--datasets", "iris", "iris"], "--datasets: iris given twice"),
        (
            ["--datasets", "iris", "diabetes"],
            "--datasets: the data sets must share one task (classification or "
            "regression); got classification: iris; regression: diabetes",
        ),
        (["--datasets", "iris:1", "wine"], "iris is bundled with scikit-learn"),
        (["--datasets", "moons:x", "wine"], "the seed after ':' must be an integer"),
        (["--estimator", "sklearn.svm.SVC"], "--estimator: give at least 2"),
        (
            ["--control", "svm"],
            "--control: no estimator named 'svm'; the estimators are "
            "['LogisticRegression', 'RandomForestClassifier', ",
        ),
        (
            [*ESTIMATORS, "--params", 'svm={"C": 1}'],
            "--params: no estimator named 'svm'",
        ),
        (["--rope", "-0.1"], "argument --rope: expected a finite number >= 0"),
        (["--alpha", "1.5"], "argument --alpha"),
        (["--scoring", "not_a_scorer"], "--scoring: 'not_a_scorer' is not a valid"),
        (["--bogus"], "unrecognized arguments: --bogus"),
        (
            ["--estimator-a", "sklearn.svm.SVC"],
            "unrecognized arguments: --estimator-a",
        ),
    ],
)
def test_usage_errors_are_one_line_with_status_2(argv, match):
    status, out, err = run_cli(*argv)
    assert_one_line_error(status, err, match, 2)
    assert out == ""


@pytest.mark.parametrize(
    "argv, match",
    [
        (["--tests", "bogus"], "--tests: unknown test(s) ['bogus']; valid names:"),
        (
            ["--tests", "wilcoxon"],
            "--tests: wilcoxon compares one pair at a time; give it in "
            "--pairwise-tests",
        ),
        (
            ["--pairwise-tests", "friedman"],
            "--pairwise-tests: friedman compares all at once; give it in --tests",
        ),
        (
            ["--datasets", "diabetes", "friedman1", *ESTIMATORS[:4]],
            "GaussianNB is a classifier but the target is continuous",
        ),
        (["--estimator", "a.B", "--estimator", "c.D"], "cannot import module 'a'"),
    ],
)
def test_errors_before_any_fit_are_one_line_with_status_1(argv, match):
    status, out, err = run_cli("--quiet", *argv)
    assert_one_line_error(status, err, match, 1)
    assert out == ""


@pytest.mark.parametrize(
    "argv, match",
    [
        (["--plot", "/no/such/dir/cd.png"], "--plot: no directory '/no/such/dir'"),
        (["--plot", "cd.nope"], "--plot: unknown image format '.nope'"),
    ],
)
def test_bad_plot_paths_are_usage_errors_before_any_fit(argv, match):
    status, out, err = run_cli("--quiet", *argv)
    assert_one_line_error(status, err, match, 2)
    assert out == ""


def test_tests_list_prints_the_tests_each_option_takes():
    status, out, _ = run_cli("--tests", "list")
    assert status == 0
    names = [line.split()[0] for line in out.splitlines()]
    assert names == [
        "aligned_posthoc",
        "bonferroni_dunn",
        "durbin",
        "exact_posthoc",
        "friedman",
        "friedman_aligned",
        "friedman_posthoc",
        "holm",
        "nemenyi",
        "plackett_luce",
        "quade",
        "quade_posthoc",
        "rm_anova",
        "skillings_mack",
        "skillings_mack_posthoc",
        "tukey_rm",
    ]
    assert all(" needs=scores" in line for line in out.splitlines())
    status, out, _ = run_cli("--pairwise-tests", "list")
    assert status == 0
    names = [line.split()[0] for line in out.splitlines()]
    for name in ("wilcoxon", "sign", "poisson_binomial", "bayesian_signed_rank"):
        assert name in names
    assert "friedman" not in names


def test_csv_datasets_are_encoded_and_imputed_as_many_data_does(tmp_path):
    """A CSV file with a text column and empty cells: read by the one reader
    of the command line, every estimator fitted behind the same encoding
    and imputation as ``many --data``, learnt on each training set."""
    from sklearn_bcv._cli._benchmark import parse_csv_dataset
    from sklearn_bcv._cli._data import TableFeatures, read_table

    rng = np.random.default_rng(0)
    path = tmp_path / "mixed.csv"
    with open(path, "w", encoding="utf-8") as file:
        file.write("colour,size,weight,label\n")
        for i in range(60):
            colour = ["red", "blue", "green"][i % 3]
            size = rng.normal() + (colour == "red")
            weight = "" if i % 7 == 0 else f"{rng.normal():.3f}"
            file.write(
                f"{colour},{size:.3f},{weight},{'yes' if size > 0.3 else 'no'}\n"
            )
    spec = parse_csv_dataset(f"{path}:label")
    X, y, task, preprocessor = read_table(path, "label")
    assert isinstance(spec.preprocessor, TableFeatures)
    assert isinstance(preprocessor, TableFeatures)
    np.testing.assert_array_equal(spec.data[1], y)
    assert "text columns encoded, empty cells imputed" in spec.data[2]
    encoded = TableFeatures().fit_transform(X)
    assert encoded.shape == (60, 2 + 3) and np.isfinite(encoded).all()
    # A bundled data set (numbers only) passes unchanged.
    numbers = np.arange(12.0).reshape(4, 3)
    np.testing.assert_array_equal(TableFeatures().fit_transform(numbers), numbers)
    # The whole run: the CSV beside bundled data sets.
    args = ["--datasets", f"{path}:label", "iris", *FAST[FAST.index("--cv") :]]
    status, out, err = run_cli(*args)
    assert status == 0, err
    assert "text columns encoded, empty cells imputed" not in err
    assert f"{path}:label" in out


# ---- the cost switches -----------------------------------------------------


def test_dataset_tests_and_no_effect_sizes_are_the_python_api():
    status, out, err = run_cli(
        *FAST,
        "--dataset-tests",
        "corrected_t,bcv_mcnemar",
        "--no-effect-sizes",
        "--format",
        "json",
    )
    assert status == 0, err
    document = json.loads(out)
    expected = python_result(
        dataset_tests=["corrected_t", "bcv_mcnemar"], effect_size=False
    )
    assert document["effect_sizes"] is None and document["effect_size_kind"] is None
    for name, mine in document["per_dataset"].items():
        assert list(mine["pairwise"]) == ["corrected_t", "bcv_mcnemar"]
        table = expected.per_dataset[name].pairwise.corrected_t
        np.testing.assert_allclose(
            mine["pairwise"]["corrected_t"]["pvalue_adjusted"], table.pvalue_adjusted
        )
    status, out, err = run_cli(*FAST, "--dataset-tests", "none", "--format", "json")
    assert status == 0, err
    document = json.loads(out)
    assert all(not d["pairwise"] for d in document["per_dataset"].values())
    assert document["effect_sizes"]  # the default still computes them


def test_dataset_tests_list_and_bad_names():
    status, out, _ = run_cli("--dataset-tests", "list")
    assert status == 0 and out.splitlines()[0].startswith("aso")
    assert all("design=" in line for line in out.splitlines())
    status, _, err = run_cli(*FAST, "--dataset-tests", "friedman")
    assert_one_line_error(status, err, "--dataset-tests: unknown test(s)", 1)
    status, _, err = run_cli(*FAST, "--dataset-tests", "mcnemar")
    assert_one_line_error(status, err, "dataset_tests, on data set 'iris'", 1)
