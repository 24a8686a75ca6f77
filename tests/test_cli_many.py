"""Tests of the command line's subcommands and of ``sklearn-bcv many``."""

import csv
import io
import json

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import (
    BlockRegularizedMx2CV,
    available_tests,
    compare_many_estimators,
    register_test,
    unregister_test,
)
from sklearn_bcv._cli import SUBCOMMANDS, UsageError, main
from sklearn_bcv._cli._many import estimator_names

# Three quick classifiers on iris with 2 repetitions of 2-fold BCV (4 splits),
# seed 0 (without --random-state a seed is drawn: tests/test_seeds.py).
FAST = [
    "--dataset",
    "iris",
    "--random-state",
    "0",
    "--cv",
    "mx2",
    "--repeats",
    "2",
    "--quiet",
    "--estimator",
    "nb=sklearn.naive_bayes.GaussianNB",
    "--estimator",
    "sklearn.tree.DecisionTreeClassifier",
    "--estimator",
    "knn=sklearn.neighbors.KNeighborsClassifier",
    "--params",
    'DecisionTreeClassifier={"random_state": 0, "max_depth": 2}',
    "--params",
    'knn={"n_neighbors": 15}',
]
NAMES = ["nb", "DecisionTreeClassifier", "knn"]


def run_cli(*argv):
    """Run ``main`` on ``argv``; return (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def csv_rows(text, section="pairwise"):
    rows = csv.DictReader(io.StringIO(text))
    return [row for row in rows if row["section"] == section]


def python_result(**kwargs):
    """What ``FAST`` asks for, through the Python API."""
    X, y = load_iris(return_X_y=True)
    estimators = [
        ("nb", GaussianNB()),
        ("DecisionTreeClassifier", DecisionTreeClassifier(random_state=0, max_depth=2)),
        ("knn", KNeighborsClassifier(n_neighbors=15)),
    ]
    cv = BlockRegularizedMx2CV(n_repeats=2, random_state=0)
    return compare_many_estimators(estimators, X, y, cv=cv, **kwargs)


# ---- subcommands -----------------------------------------------------------


def test_subcommands_are_registered_and_listed_in_the_help():
    assert list(SUBCOMMANDS) == ["compare", "many", "benchmark", "scores", "sequential"]
    status, out, _ = run_cli("--help")
    assert status == 0
    assert out.startswith("usage: sklearn-bcv [-h]")
    assert "Subcommands ('sklearn-bcv NAME --help' describes each):" in out
    assert "  compare     two estimators (the default" in out
    assert (
        "  many        any number of estimators on one data set; also what runs " in out
    )
    assert "  benchmark   " in out
    assert "  scores      scores you already have" in out
    assert "  sequential  two estimators, one repetition at a time" in out
    assert "also what runs when --sequential is given" in out
    status, out, _ = run_cli("many", "--help")
    assert status == 0
    assert out.startswith("usage: sklearn-bcv many [-h]")
    for option in ("--estimator", "--params", "--pairwise-tests", "--correction"):
        assert option in out
    assert "--control NAME" in out
    assert "--estimator-a" not in out  # accepted only to say what to use instead


def test_compare_subcommand_is_the_default():
    argv = ["--dataset", "iris", "--random-state", "0", "--quiet", "--format"]
    argv += ["csv", "--tests"]
    argv += ["bcv_mcnemar", "--estimator-b", "sklearn.naive_bayes.GaussianNB"]
    default = run_cli(*argv)
    named = run_cli("compare", *argv)
    assert default[0] == named[0] == 0
    assert default[1] == named[1]
    assert default[1].startswith("section,test,status,statistic")
    status, _, err = run_cli("compare", "--estimator", "x.Y")
    # Named explicitly, compare has no --estimator.
    assert status == 2
    assert "(see 'sklearn-bcv compare --help')" in err


def test_estimator_without_a_subcommand_runs_many():
    implied = run_cli(*FAST, "--format", "json")
    named = run_cli("many", *FAST, "--format", "json")
    assert implied[0] == named[0] == 0
    implied_doc, named_doc = json.loads(implied[1]), json.loads(named[1])
    for document in (implied_doc, named_doc):
        document.pop("fit_time"), document.pop("score_time")
    assert implied_doc == named_doc
    assert implied_doc["names"] == NAMES


# ---- output ----------------------------------------------------------------


def test_json_holds_names_scores_tests_and_the_verdict_of_the_python_api():
    status, out, err = run_cli(
        "many", *FAST, "--format", "json", "--pairwise-tests", "bcv_mcnemar"
    )
    assert status == 0, err
    assert err == ""
    document = json.loads(out)
    expected = python_result(pairwise_tests=["bcv_mcnemar"])
    assert document["names"] == NAMES == expected.names
    assert list(document["estimators"]) == NAMES
    assert "n_neighbors=15" in document["estimators"]["knn"]
    np.testing.assert_allclose(document["mean_scores"], expected.mean_scores)
    assert np.shape(document["scores"]) == (4, 3)
    assert set(document["tests"]) == set(expected.tests)
    assert document["correction"] == "holm"
    table = document["pairwise"]["bcv_mcnemar"]
    for field in ("pvalue", "pvalue_adjusted", "statistic"):
        np.testing.assert_allclose(table[field], expected.pairwise.bcv_mcnemar[field])
    assert table["reject"] == expected.pairwise.bcv_mcnemar.reject.tolist()
    assert np.diag(table["pvalue"]).tolist() == [1.0, 1.0, 1.0]
    pairs = [(r["estimator_a"], r["estimator_b"]) for r in table["results"]]
    assert pairs == [
        ("nb", "DecisionTreeClassifier"),
        ("nb", "knn"),
        ("DecisionTreeClassifier", "knn"),
    ]
    assert all(r["test"] == "bcv_mcnemar" for r in table["results"])
    verdict = document["verdict"]
    assert verdict["text"] == expected.verdict.text
    assert [tuple(pair) for pair in verdict["differ"]] == expected.verdict.differ


def test_a_pair_has_the_numbers_of_the_two_estimator_command():
    status, out, _ = run_cli("many", *FAST, "--format", "json")
    assert status == 0
    pair = json.loads(out)["pairwise"]["bcv_mcnemar"]["results"][1]
    assert (pair["estimator_a"], pair["estimator_b"]) == ("nb", "knn")
    status, out, _ = run_cli(
        "--dataset",
        "iris",
        "--random-state",
        "0",
        "--cv",
        "mx2",
        "--repeats",
        "2",
        "--quiet",
        "--format",
        "json",
        "--tests",
        "bcv_mcnemar",
        "--estimator-a",
        "sklearn.naive_bayes.GaussianNB",
        "--estimator-b",
        "sklearn.neighbors.KNeighborsClassifier",
        "--params-b",
        '{"n_neighbors": 15}',
    )
    assert status == 0
    two = json.loads(out)["tests"]["bcv_mcnemar"]
    for field in ("statistic", "pvalue", "effective_table"):
        np.testing.assert_allclose(pair[field], two[field])


def test_csv_one_row_per_pairwise_test_and_pair():
    tests = "bcv_mcnemar,corrected_t,bayesian_correlated_t"
    status, out, err = run_cli(
        "many", *FAST, "--format", "csv", "--pairwise-tests", tests
    )
    assert status == 0, err
    rows = csv_rows(out)
    assert list(rows[0])[:7] == [
        "section",
        "test",
        "status",
        "estimator_a",
        "estimator_b",
        "mean_score_a",
        "mean_score_b",
    ]
    for field in ("statistic", "pvalue", "pvalue_adjusted", "reject"):
        assert field in rows[0]
    for field in ("p_a_better", "p_rope", "p_b_better"):
        assert field in rows[0]
    # The omnibus test and every score are in the same file.
    assert [row["test"] for row in csv_rows(out, "test")] == ["bcv_cochran_q"]
    scores = csv_rows(out, "score")
    assert len(scores) == len(expected_splits(scores)) * len(NAMES)
    k = len(NAMES)
    assert len(rows) == 3 * k * (k - 1) // 2
    assert [row["test"] for row in rows] == [
        name for name in tests.split(",") for _ in range(3)
    ]
    expected = python_result(pairwise_tests=tests.split(","))
    for row in rows:
        table = expected.pairwise[row["test"]]
        a, b = NAMES.index(row["estimator_a"]), NAMES.index(row["estimator_b"])
        assert a < b
        assert row["reject"] == str(bool(table.reject[a, b]))
        if row["test"] == "bayesian_correlated_t":
            assert row["pvalue"] == row["pvalue_adjusted"] == ""
            assert float(row["p_a_better"]) == pytest.approx(table.p_a_better[a, b])
        else:
            assert row["p_a_better"] == ""
            assert float(row["pvalue"]) == pytest.approx(table.pvalue[a, b])
            adjusted = float(row["pvalue_adjusted"])
            assert adjusted == pytest.approx(table.pvalue_adjusted[a, b])
            assert adjusted >= float(row["pvalue"])


def test_control_gives_k_minus_1_rows_and_no_correction_keeps_the_pvalues():
    status, out, err = run_cli(
        "many",
        *FAST,
        "--format",
        "csv",
        "--control",
        "knn",
        "--correction",
        "none",
        "--pairwise-tests",
        "bcv_mcnemar,corrected_t",
        "--alternative",
        "greater",
    )
    assert status == 0, err
    rows = csv_rows(out)
    assert len(rows) == 2 * (len(NAMES) - 1)
    assert [(row["estimator_a"], row["estimator_b"]) for row in rows] == [
        ("nb", "knn"),
        ("DecisionTreeClassifier", "knn"),
    ] * 2
    assert all(row["pvalue"] == row["pvalue_adjusted"] for row in rows)


def test_text_output_ranks_the_estimators():
    status, out, err = run_cli("many", *FAST)
    assert status == 0, err
    assert out.startswith("estimators:\n  nb: GaussianNB()\n")
    assert "  knn: KNeighborsClassifier(n_neighbors=15)\n" in out
    assert "data: iris (scikit-learn, 150 records)" in out
    expected = python_result()
    assert str(expected) in out
    assert out.rstrip().endswith(expected.verdict.text.splitlines()[-1])


def test_n_jobs_does_not_change_the_output():
    argv = [*FAST, "--estimator", "sklearn.ensemble.RandomForestClassifier"]
    argv += [
        "--params",
        'RandomForestClassifier={"n_estimators": 5, "random_state": 1}',
    ]
    outputs = {}
    for output in ("csv", "text"):
        serial = run_cli("many", *argv, "--format", output, "--n-jobs", "1")
        parallel = run_cli("many", *argv, "--format", output, "--n-jobs", "2")
        assert serial[0] == parallel[0] == 0
        assert serial[1] == parallel[1]
        outputs[output] = serial[1]
    # 4 estimators: 6 pairs of the recommended test.
    assert len(csv_rows(outputs["csv"])) == 6
    assert "RandomForestClassifier(n_estimators=5, random_state=1)" in outputs["text"]


def test_default_estimators_for_each_task():
    fast_cv = ["--cv", "mx2", "--repeats", "1", "--quiet", "--format", "json"]
    fast_cv += ["--random-state", "0"]
    status, out, err = run_cli("many", "--dataset", "iris", *fast_cv)
    assert status == 0, err
    assert json.loads(out)["names"] == [
        "LogisticRegression",
        "RandomForestClassifier",
        "DecisionTreeClassifier",
        "GaussianNB",
    ]
    status, out, err = run_cli(
        "many", "--dataset", "diabetes", *fast_cv, "--params", 'Ridge={"alpha": 2}'
    )
    assert status == 0, err
    document = json.loads(out)
    assert document["names"] == [
        "Ridge",
        "RandomForestRegressor",
        "DecisionTreeRegressor",
        "KNeighborsRegressor",
    ]
    assert document["task"] == "regression"
    # --random-state seeds every random_state parameter, the defaults' too
    assert "Ridge(alpha=2, random_state=0)" in document["estimators"]["Ridge"]


def test_tests_list_prints_the_omnibus_tests():
    def fake_omnibus(*, correct, alpha=0.05, alternative="two-sided"):
        raise AssertionError("listing runs no test")

    register_test("fake_omnibus_cli", needs="correct", design="bcv", kind="many")(
        fake_omnibus
    )
    try:
        status, out, _ = run_cli("many", "--tests", "list")
        listed = [line.split()[0] for line in out.splitlines()]
        assert status == 0
        assert listed == available_tests(kind="many")
        assert "fake_omnibus_cli" in listed
        line = out.splitlines()[listed.index("fake_omnibus_cli")]
        assert line.split()[1:] == ["design=bcv", "needs=correct"]
    finally:
        unregister_test("fake_omnibus_cli")
    status, out, _ = run_cli("many", "--pairwise-tests", "list")
    assert status == 0
    assert [line.split()[0] for line in out.splitlines()] == available_tests()


def test_plot_writes_the_significance_matrix(tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "significance.png"
    status, out, err = run_cli("many", *FAST, "--plot", str(target))
    assert status == 0, err
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out.startswith("estimators:")
    status, _, err = run_cli(
        "many", *[a for a in FAST if a != "--quiet"], "--plot", str(target)
    )
    assert status == 0
    assert f"plot saved to {target}" in err


def test_plot_title_reads_the_verdict_fields():
    from sklearn_bcv._cli._many import plot_title

    # The title counts the pairs of the plotted (first) test.
    result = python_result(pairwise_tests=["corrected_t", "bcv_mcnemar"])
    title = plot_title(result)
    table = result.pairwise.corrected_t
    n_differ = int(np.sum(np.triu(table.reject)))
    assert f"{n_differ} of 3 pairs differ (corrected_t) at alpha = 0.05" in title
    if result.verdict.omnibus_test is not None:
        assert title.startswith(result.verdict.omnibus_test)
    result.tests = {}
    result.verdict.omnibus_test = None
    result.verdict.pairwise_test = None
    assert plot_title(result) == "3 estimators"


# ---- errors ----------------------------------------------------------------

USER_MODULE = '''
from sklearn.dummy import DummyClassifier


class Exploding(DummyClassifier):
    """Any fit is an error: a test passing with it fitted nothing."""

    def fit(self, X, y):
        raise RuntimeError("fitted")
'''


@pytest.fixture
def exploding(tmp_path, monkeypatch):
    name = f"exploding_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(USER_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    one, two = f"one={name}.Exploding", f"two={name}.Exploding"
    return ["--dataset", "iris", "--estimator", one, "--estimator", two]


@pytest.mark.parametrize(
    "argv, match, expected_status",
    [
        (
            ["--estimator", "three=sklearn.svm.SVC", "--params", "four={}"],
            "--params: no estimator named 'four'; the estimators are "
            "['one', 'two', 'three']",
            2,
        ),
        (["--control", "four"], "--control: no estimator named 'four'", 2),
        (
            ["--params", "one={}", "--params", "one={}"],
            "--params: parameters of ['one'] given twice",
            2,
        ),
        (
            ["--estimator", "one=sklearn.svm.SVC"],
            "--estimator: the name(s) ['one'] are given twice",
            2,
        ),
        (
            ["--estimator-b", "sklearn.svm.SVC"],
            "--estimator-b belongs to the two-estimator comparison",
            2,
        ),
        (
            ["--estimator", "=sklearn.svm.SVC"],
            "argument --estimator: expected [NAME=]IMPORT.PATH",
            2,
        ),
        (["--params", "one"], "argument --params: expected NAME=JSON", 2),
        (
            ["--correction", "sidak"],
            "argument --correction: invalid choice: 'sidak'",
            2,
        ),
        (["--alpha", "2"], "argument --alpha: expected a number between 0 and 1", 2),
        (["--tests", "magic"], "--tests: unknown test(s) ['magic']", 1),
        (["--tests", "bcv_mcnemar"], "--tests: unknown test(s) ['bcv_mcnemar']", 1),
        (
            ["--pairwise-tests", "bcv_mcnemar,magic"],
            "--pairwise-tests: unknown test(s) ['magic']",
            1,
        ),
        (["--params", "two={C: 1}"], "--params two: not valid JSON", 1),
        (
            ["--params", 'two={"no_such": 1}'],
            "--params two: Invalid parameter 'no_such'",
            1,
        ),
        (
            ["--estimator", "sklearn.linear_model.Ridge"],
            "--estimator Ridge: Ridge is a regressor",
            1,
        ),
        (
            ["--estimator", "sklearn.svm.NoSuchModel"],
            "--estimator: module 'sklearn.svm' has no 'NoSuchModel'",
            1,
        ),
        (
            ["--estimator", "os.system"],
            "--estimator: os.system is not a scikit-learn estimator class",
            1,
        ),
        (["--scoring", "bogus"], "--scoring: 'bogus' is not a valid scoring value", 2),
        (["--plot", "/no/such/dir/x.png"], "--plot: no directory '/no/such/dir'", 2),
        (["--target", "y"], "--target is only used with --data", 1),
    ],
)
def test_bad_options_are_one_line_errors_before_any_fit(
    exploding, argv, match, expected_status
):
    if "--plot" in argv:
        pytest.importorskip("matplotlib")
    # Without --quiet: a fit would also show the progress line.
    status, out, err = run_cli("many", *exploding, *argv)
    assert status == expected_status
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    assert match in lines[0], lines[0]


def test_tests_that_do_not_fit_the_design_are_refused_before_any_fit(exploding):
    # The engine plans the tests before it fits (after the progress line).
    status, out, err = run_cli(
        "many", *exploding, "--quiet", "--pairwise-tests", "mcnemar"
    )
    assert status == 1
    assert out == ""
    assert err.startswith("error: mcnemar needs one hold-out split")
    assert len(err.splitlines()) == 1


def test_fewer_than_two_estimators_and_mixed_options_are_usage_errors():
    status, _, err = run_cli("many", "--estimator", "sklearn.svm.SVC")
    assert status == 2
    assert err == (
        "error: --estimator: give at least 2 estimators to compare (or none for "
        "the default set)\n"
    )
    status, _, err = run_cli(
        "--estimator", "a.B", "--estimator", "c.D", "--params-a", "{}"
    )
    assert status == 2
    assert err.startswith("error: --params-a belongs to the two-estimator comparison")
    status, _, err = run_cli("many", "--dataset", "diabetes", "--control", "GaussianNB")
    assert status == 2
    assert "the estimators are ['Ridge', 'RandomForestRegressor'," in err


def test_a_failing_fit_is_one_line_after_the_progress(exploding):
    status, out, err = run_cli("many", *exploding)
    assert status == 1
    assert out == ""
    lines = err.splitlines()
    assert (
        lines[0]
        == "fitting 2 estimators on 10 splits of iris (scikit-learn, 150 records) ..."
    )
    assert lines[-1] == "error: RuntimeError: fitted"


def test_invalid_parameter_value_names_the_estimator():
    status, _, err = run_cli("many", *FAST, "--params", 'nb={"var_smoothing": "tiny"}')
    assert status == 1
    # Checked before any fit, naming the estimator (issue 28).
    assert err.startswith(
        "error: 'nb' (GaussianNB) has an invalid parameter: "
        "The 'var_smoothing' parameter of GaussianNB must be"
    )


@pytest.mark.parametrize(
    "specs, names",
    [
        ([(None, "a.SVC"), (None, "b.Tree")], ["SVC", "Tree"]),
        (
            [(None, "a.SVC"), (None, "b.SVC"), (None, "c.Tree")],
            ["SVC-1", "SVC-2", "Tree"],
        ),
        ([("SVC", "a.SVC"), (None, "b.SVC")], ["SVC", "SVC-1"]),
        (
            [(None, "a.SVC"), ("SVC-1", "b.SVC"), (None, "c.SVC")],
            ["SVC-2", "SVC-1", "SVC-3"],
        ),
    ],
)
def test_estimator_names_are_class_names_made_unique(specs, names):
    assert estimator_names(specs) == names


def test_given_names_must_be_unique():
    with pytest.raises(UsageError, match=r"the name\(s\) \['x'\] are given twice"):
        estimator_names([("x", "a.SVC"), ("x", "b.Tree")])


def expected_splits(score_rows):
    """The splits named in the score rows of a csv output."""
    return sorted({int(row["split"]) for row in score_rows})
