"""Tests of the command line interface, run in-process through ``main``."""

import csv
import io
import json
import re
import subprocess
import sys

import numpy as np
import pytest

from sklearn_bcv import BlockRegularizedMx2CV
from sklearn_bcv._cli import main

FAST_B = ["--estimator-b", "sklearn.naive_bayes.GaussianNB"]


def run_cli(*argv):
    """Run ``main`` on ``argv``; return (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def assert_one_line_error(status, err, match, expected_status=1):
    assert status == expected_status
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    assert match in lines[0], lines[0]
    assert "Traceback" not in err


def write_csv(path, rows):
    with open(path, "w", newline="") as handle:
        csv.writer(handle).writerows(rows)
    return str(path)


@pytest.fixture
def mixed_csv(tmp_path):
    # 80 records: a numeric feature that separates the classes, a noise
    # feature with a few empty cells and a categorical column.
    rng = np.random.default_rng(0)
    rows = [["x", "noise", "colour", "label"]]
    for i in range(80):
        label = "yes" if i % 2 else "no"
        noise = "" if i % 17 == 0 else f"{rng.normal():.3f}"
        rows.append(
            [
                f"{(i % 2) * 2 + rng.normal():.3f}",
                noise,
                ["red", "green", "blue"][i % 3],
                label,
            ]
        )
    return write_csv(tmp_path / "mixed.csv", rows)


def test_help_in_a_subprocess():
    completed = subprocess.run(
        [sys.executable, "-m", "sklearn_bcv", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0
    assert completed.stdout.startswith("usage: sklearn-bcv")
    for option in (
        "--dataset",
        "--data",
        "--estimator-a",
        "--params-b",
        "--tests",
        "--cv",
        "--n-jobs",
        "--alpha",
        "--format",
        "--plot",
        "--quiet",
    ):
        assert option in completed.stdout


def test_help_in_process_exits_zero():
    status, out, _ = run_cli("--help")
    assert status == 0
    assert "--random-state" in out


@pytest.mark.parametrize(
    "argv, match",
    [
        (["--cv", "loo"], "argument --cv: invalid choice: 'loo'"),
        (
            ["--alpha", "high"],
            "argument --alpha: expected a number between 0 and 1; got 'high'",
        ),
        (
            ["--alpha", "1"],
            "argument --alpha: expected a number between 0 and 1 (exclusive); got 1",
        ),
        (["--alpha", "nan"], "(exclusive); got nan"),
        (["--n-jobs", "0"], "argument --n-jobs: expected a non-zero integer; got 0"),
        (
            ["--random-state", "-1"],
            "argument --random-state: expected an integer in [0, 4294967295]; got -1",
        ),
        (
            ["--random-state", "1.5"],
            "expected an integer in [0, 4294967295]; got '1.5'",
        ),
        (
            ["--repeats", "0", "--cv", "mx2"],
            "argument --repeats: expected an integer in [1, 1000]; got 0",
        ),
        (["--folds", "1"], "argument --folds: expected an integer >= 2; got 1"),
        (
            ["--delimiter", ";;"],
            "argument --delimiter: expected one character (or 'tab'); got ';;'",
        ),
        (["--dataset", "iris", "--data", "x.csv"], "not allowed with argument"),
        (["--no-such-option"], "unrecognized arguments: --no-such-option"),
    ],
)
def test_usage_errors_are_one_line_with_status_2(argv, match):
    status, _, err = run_cli(*argv)
    assert_one_line_error(status, err, match, expected_status=2)
    assert "see 'sklearn-bcv --help'" in err


@pytest.mark.parametrize(
    "argv, match",
    [
        (["--params-a", "{C: 1}"], "--params-a: not valid JSON"),
        (["--params-b", "[1, 2]"], "--params-b: expected a JSON object"),
        (["--params-b", '{"no_such_param": 1}'], "--params-b: Invalid parameter"),
        (
            ["--estimator-a", "__import__('os').system('echo hi')"],
            "--estimator-a: expected an import path",
        ),
        (
            ["--estimator-a", "no_such_module_xyz.Model"],
            "cannot import module 'no_such_module_xyz'",
        ),
        (
            ["--estimator-b", "sklearn.svm.NoSuchModel"],
            "module 'sklearn.svm' has no 'NoSuchModel'",
        ),
        (
            ["--estimator-b", "os.system"],
            "os.system is not a scikit-learn estimator class",
        ),
        (
            ["--estimator-b", "sklearn.linear_model.Ridge"],
            "Ridge is a regressor but the target is categorical",
        ),
        (["--tests", "bcv_mcnemar,magic"], "unknown test(s) ['magic']"),
        (["--target", "y"], "--target is only used with --data"),
        (
            ["--estimator-a", "sklearn.preprocessing.StandardScaler"],
            "--estimator-a: StandardScaler has no predict method; give a classifier "
            "or a regressor",
        ),
        (
            ["--estimator-b", "sklearn.ensemble.VotingClassifier"],
            "--estimator-b: cannot create sklearn.ensemble.VotingClassifier() without "
            "arguments (TypeError: ",
        ),
        (
            ["--estimator-b", "sklearn.linear_model._base.LinearModel"],
            "cannot create sklearn.linear_model._base.LinearModel() without "
            "arguments (TypeError: Can't instantiate abstract class",
        ),
        (
            ["--params-a", '{"no_such_param": 1}'],
            "--params-a: Invalid parameter 'no_such_param' for estimator "
            "LogisticRegression",
        ),
        (
            ["--dataset", "diabetes", "--cv", "stratified"],
            "--cv stratified needs a classification target",
        ),
    ],
)
def test_bad_options_give_one_line_errors(argv, match):
    # Checked before any fitting: no progress line, only the error.
    if "--plot" in argv:
        pytest.importorskip("matplotlib")
    status, out, err = run_cli(*argv)
    assert_one_line_error(status, err, match)
    assert out == ""


@pytest.mark.parametrize(
    "argv, match",
    [
        (
            ["--plot", "/no/such/dir/x.png"],
            "--plot: no directory '/no/such/dir' to save x.png in",
        ),
        (["--plot", "figure.xyz"], "--plot: unknown image format '.xyz'; use one"),
    ],
)
def test_bad_output_paths_are_usage_errors_before_any_fit(argv, match):
    # (An empty --tests list too: tests/test_hostile_round3_cli.py.)
    pytest.importorskip("matplotlib")
    status, out, err = run_cli(*argv)
    assert_one_line_error(status, err, match, expected_status=2)
    assert out == ""


def test_unknown_scoring_is_a_usage_error_before_any_fit():
    status, out, err = run_cli("--scoring", "bogus")
    assert_one_line_error(
        status, err, "--scoring: 'bogus' is not a valid scoring value;", 2
    )
    assert "valid names: accuracy, " in err
    assert out == ""


def test_csv_errors(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    status, _, err = run_cli("--data", str(empty), "--target", "y")
    assert_one_line_error(status, err, "is empty")

    header_only = write_csv(tmp_path / "header.csv", [["a", "y"]])
    status, _, err = run_cli("--data", header_only, "--target", "y")
    assert_one_line_error(status, err, "has a header but no data rows")

    data = write_csv(
        tmp_path / "d.csv", [["a", "b", "y"], ["1", "2", "x"], ["3", "4", "x"]]
    )
    status, _, err = run_cli("--data", data, "--target", "label")
    assert_one_line_error(
        status,
        err,
        "no column 'label' in",
    )
    assert "columns are ['a', 'b', 'y']" in err
    status, _, err = run_cli("--data", data)
    assert_one_line_error(status, err, "--data needs --target COLUMN")
    status, _, err = run_cli("--data", data, "--target", "y")
    assert_one_line_error(status, err, "the target has a single class ('x')")

    ragged = write_csv(tmp_path / "r.csv", [["a", "y"], ["1", "0"], ["2"]])
    status, _, err = run_cli("--data", ragged, "--target", "y")
    assert_one_line_error(status, err, "row 3 of")

    status, _, err = run_cli("--data", str(tmp_path / "missing.csv"), "--target", "y")
    assert_one_line_error(status, err, "file not found")


def test_tests_list_prints_the_registry():
    from sklearn_bcv import available_tests

    status, out, _ = run_cli("--tests", "list")
    assert status == 0
    assert [line.split()[0] for line in out.splitlines()] == available_tests()


def test_csv_features_are_encoded_and_imputed(mixed_csv):
    from sklearn_bcv._cli import features_from_columns, read_csv

    columns, y = read_csv(mixed_csv, "label")
    X, preprocessor = features_from_columns(columns)
    assert X.shape == (80, 3)
    transformed = preprocessor.fit_transform(X)
    # x and noise pass (noise imputed), colour one-hot into 3 columns.
    assert transformed.shape == (80, 5)
    assert not np.isnan(transformed.astype(float)).any()
    assert sorted(set(y)) == ["no", "yes"]

    # All numeric and complete: a float array and no preprocessing.
    X, preprocessor = features_from_columns({"a": ["1", "2.5"], "b": ["-3", "4e2"]})
    assert preprocessor is None
    np.testing.assert_array_equal(X, [[1.0, -3.0], [2.5, 400.0]])


# ---- end-to-end runs (fit estimators through compare_estimators) ----------


def test_main_job_without_arguments_prints_table_and_verdict():
    status, out, err = run_cli()
    assert status == 0, err
    assert "bcv_mcnemar" in out
    assert "LogisticRegression" in out and "RandomForestClassifier" in out
    assert "breast_cancer" in out
    # The progress indicator went to stderr, not stdout.
    assert "fitting LogisticRegression and RandomForestClassifier on 10 splits" in err
    assert "done in" in err


def test_quiet_json_output_on_a_bundled_dataset():
    status, out, err = run_cli(
        "--dataset",
        "iris",
        *FAST_B,
        "--quiet",
        "--format",
        "json",
        "--tests",
        "bcv_mcnemar,calibrated_f_5x2bcv",
        "--random-state",
        "3",
    )
    assert status == 0
    assert err == ""
    document = json.loads(out)
    assert set(document["tests"]) == {"bcv_mcnemar", "calibrated_f_5x2bcv"}
    bcv = document["tests"]["bcv_mcnemar"]
    assert 0 <= bcv["pvalue"] <= 1
    assert bcv["t"] == pytest.approx(20 / 11)
    assert len(document["differences"]) == 10
    np.testing.assert_allclose(
        np.subtract(document["scores_a"], document["scores_b"]), document["differences"]
    )
    # iris: 150 records, each tested once per repetition (two splits).
    per_split = np.asarray(document["tables"]).sum(axis=(1, 2))
    assert per_split.reshape(5, 2).sum(axis=1).tolist() == [150] * 5
    assert document["task"] == "classification"
    assert document["recommended_test"] == "bcv_mcnemar"
    assert document["verdict"]["text"].startswith("Verdict from bcv_mcnemar")


def test_probability_scoring_on_a_binary_target():
    status, out, _ = run_cli(
        *FAST_B,
        "--quiet",
        "--format",
        "json",
        "--scoring",
        "roc_auc",
        "--tests",
        "calibrated_f_5x2bcv",
    )
    assert status == 0
    document = json.loads(out)
    assert document["scoring"] == "roc_auc"
    assert all(0.5 < s <= 1 for s in document["scores_a"] + document["scores_b"])


def test_same_seed_same_output():
    argv = (
        "--dataset",
        "wine",
        *FAST_B,
        "--quiet",
        "--format",
        "csv",
        "--random-state",
        "7",
    )
    assert run_cli(*argv)[1] == run_cli(*argv)[1]


def test_n_jobs_does_not_change_the_output():
    # Everything random is drawn before the fits are dispatched; the CSV
    # holds no timings, so it must be byte-identical.
    argv = (
        "--dataset",
        "wine",
        "--quiet",
        "--format",
        "csv",
        "--random-state",
        "3",
        "--params-b",
        '{"n_estimators": 10}',
    )
    serial = run_cli(*argv, "--n-jobs", "1")
    parallel = run_cli(*argv, "--n-jobs", "2")
    assert serial[0] == parallel[0] == 0
    assert serial[1] == parallel[1]


def test_csv_output_and_mixed_csv_data(mixed_csv):
    status, out, err = run_cli(
        "--data",
        mixed_csv,
        "--target",
        "label",
        *FAST_B,
        "--quiet",
        "--format",
        "csv",
        "--cv",
        "mx2",
        "--repeats",
        "3",
    )
    assert status == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    scores = [row for row in rows if row["section"] == "score"]
    rows = [row for row in rows if row["section"] == "test"]
    assert len(scores) >= 2
    for row in scores:
        difference = float(row["score_a"]) - float(row["score_b"])
        assert float(row["difference"]) == pytest.approx(difference)
    names = [row["test"] for row in rows]
    assert "bcv_mcnemar" in names and "paired_t_5x2cv" in names
    for row in rows:
        if row["pvalue"]:
            assert 0 <= float(row["pvalue"]) <= 1
        assert row["reject"] in ("True", "False")


def test_regression_dataset_and_kfold():
    status, out, err = run_cli(
        "--dataset",
        "diabetes",
        "--quiet",
        "--cv",
        "kfold",
        "--folds",
        "5",
        "--tests",
        "corrected_t",
        "--format",
        "json",
        "--estimator-b",
        "sklearn.dummy.DummyRegressor",
    )
    assert status == 0, err
    document = json.loads(out)
    assert document["task"] == "regression"
    assert list(document["tests"]) == ["corrected_t"]
    assert document["tables"] is None
    # Ridge beats the mean predictor on diabetes: positive r2 differences.
    assert np.mean(document["differences"]) > 0


def test_plot_option_writes_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "comparison.png"
    status, _, err = run_cli("--dataset", "iris", *FAST_B, "--plot", str(target))
    assert status == 0, err
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"plot saved to {target}" in err


def test_estimator_params_are_used():
    status, out, err = run_cli(
        "--dataset",
        "iris",
        "--quiet",
        "--estimator-a",
        "sklearn.neighbors.KNeighborsClassifier",
        "--params-a",
        '{"n_neighbors": 3}',
        *FAST_B,
        "--tests",
        "bcv_mcnemar",
    )
    assert status == 0, err
    assert "KNeighborsClassifier(n_neighbors=3)" in out


class _FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_on_a_terminal_writes_only_the_end_line():
    # On a terminal the library draws the bar of fits; the command adds the
    # line saying when it is done.
    from sklearn_bcv._cli import Progress

    stream = _FakeTerminal()
    with Progress("fitting", stream=stream):
        pass
    text = stream.getvalue()
    assert text.startswith("fitting done in") and text.endswith("s\n")
    assert text.count("\n") == 1


def test_progress_disabled_writes_nothing_and_leaves_failures_to_the_caller():
    from sklearn_bcv._cli import Progress

    quiet = io.StringIO()
    with Progress("fitting", stream=quiet, enabled=False):
        pass
    assert quiet.getvalue() == ""
    log = io.StringIO()
    with pytest.raises(RuntimeError), Progress("fitting", stream=log):
        raise RuntimeError("boom")
    # Only the start line: the caller reports the error in its own line.
    assert log.getvalue() == "fitting ...\n"
    terminal = _FakeTerminal()
    with pytest.raises(RuntimeError), Progress("fitting", stream=terminal):
        raise RuntimeError("boom")
    assert terminal.getvalue() == ""  # the error's line stands alone


def test_verbose_reports_fits_on_stderr_and_keeps_stdout_clean():
    status, out, err = run_cli(
        "--dataset", "iris", *FAST_B, "-vv", "--format", "csv", "--tests", "bcv_mcnemar"
    )
    assert status == 0, err
    assert out.splitlines()[0].startswith("section,test,status,statistic")
    # One test row, then one row per split.
    assert len(out.splitlines()) == 2 + 10
    assert "Fitting 2 estimators on each of 10 splits, totalling 20 fits" in err


def test_target_task_inference():
    from sklearn_bcv._cli import CLIError, target_from_column

    # Text labels and few integer codes: classification.
    assert target_from_column(["a", "b", "a"])[1] == "classification"
    y, task = target_from_column(["0", "1", "2", "1"])
    assert task == "classification" and y.tolist() == [0.0, 1.0, 2.0, 1.0]
    # Non-integer values, or more than 20 distinct integers: regression.
    assert target_from_column(["0.5", "1.25", "2"])[1] == "regression"
    many = [str(100 + i) for i in range(21)]
    assert target_from_column(many)[1] == "regression"
    assert target_from_column(many[:20])[1] == "classification"
    # --task overrides the guess.
    assert target_from_column(["0", "1"], "regression")[1] == "regression"
    assert target_from_column(many, "classification")[1] == "classification"
    with pytest.raises(CLIError, match="--task regression needs a numeric target"):
        target_from_column(["1", "x"], "regression")
    with pytest.raises(CLIError, match="non-finite"):
        target_from_column(["1", "nan"])


def test_csv_regression_target(tmp_path):
    rng = np.random.default_rng(1)
    rows = [["x1", "x2", "price"]]
    for _ in range(64):
        x1, x2 = rng.normal(size=2)
        rows.append([f"{x1:.3f}", f"{x2:.3f}", str(int(1000 + 300 * x1 + 20 * x2))])
    data = write_csv(tmp_path / "prices.csv", rows)
    status, out, err = run_cli(
        "--data",
        data,
        "--target",
        "price",
        "--quiet",
        "--format",
        "json",
        "--tests",
        "calibrated_f_5x2bcv",
        "--estimator-b",
        "sklearn.dummy.DummyRegressor",
    )
    assert status == 0, err
    document = json.loads(out)
    assert document["task"] == "regression"
    # Ridge explains the price (nearly linear in x1); the mean predictor does not.
    assert np.mean(document["differences"]) > 0.5


# ---- error paths during fitting, user modules, output plumbing -------------

USER_MODULE = '''
import warnings

from sklearn.dummy import DummyClassifier

print("hello from the module")  # must not reach the requested output


class Majority(DummyClassifier):
    """A user-defined estimator class."""


class Broken(DummyClassifier):
    def fit(self, X, y):
        warnings.warn("about to fail")
        raise RuntimeError("boom")


class Interrupted(DummyClassifier):
    def fit(self, X, y):
        raise KeyboardInterrupt
'''


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    name = f"user_estimators_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(USER_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    return name


def test_user_estimator_class_and_module_output_kept_off_stdout(user_module):
    status, out, err = run_cli(
        "--dataset",
        "iris",
        "--format",
        "csv",
        "--estimator-b",
        f"{user_module}.Majority",
        "--tests",
        "bcv_mcnemar",
    )
    assert status == 0, err
    assert err.splitlines()[0] == "hello from the module"
    assert out.splitlines()[0].startswith("section,test,status,statistic")
    # The scaled logistic regression beats the majority class on iris.
    row = next(csv.DictReader(io.StringIO(out)))
    assert row["test"] == "bcv_mcnemar" and row["reject"] == "True"


def test_unexpected_error_in_fit_is_one_line_after_the_warnings(user_module):
    status, out, err = run_cli(
        "--dataset", "iris", "--estimator-b", f"{user_module}.Broken"
    )
    assert status == 1
    assert out == ""
    lines = err.splitlines()
    # The module's print, the progress start line, the warning, then the
    # error as the last line.
    assert lines[0] == "hello from the module"
    assert lines[1].startswith("fitting LogisticRegression and Broken on 10 splits")
    assert lines[2] == "warning: about to fail"
    assert lines[-1] == "error: RuntimeError: boom"
    assert "Traceback" not in err
    status, _, err = run_cli(
        "--dataset", "iris", "--quiet", "--estimator-b", f"{user_module}.Broken"
    )
    assert_one_line_error(status, err, "error: RuntimeError: boom")


def test_interrupt_exits_130_with_one_line(user_module):
    status, _, err = run_cli(
        "--dataset", "iris", "--quiet", "--estimator-a", f"{user_module}.Interrupted"
    )
    assert_one_line_error(status, err, "error: interrupted", expected_status=130)


def test_invalid_parameter_value_names_the_estimator_not_the_engine():
    # sklearn's validate_params re-attributes the estimator's error to
    # compare_estimators; the CLI reports the estimator's own message.
    status, _, err = run_cli(
        "--dataset", "iris", "--quiet", "--params-b", '{"n_estimators": "many"}'
    )
    assert_one_line_error(
        status,
        err,
        "The 'n_estimators' parameter of RandomForestClassifier "
        "must be an int in the range [1, inf). Got 'many' instead.",
    )


def test_params_of_the_default_pipeline_go_to_its_final_estimator():
    status, out, err = run_cli(
        "--dataset",
        "iris",
        "--random-state",
        "0",
        "--quiet",
        *FAST_B,
        "--params-a",
        '{"C": 0.01}',
        "--tests",
        "bcv_mcnemar",
    )
    assert status == 0, err
    assert "LogisticRegression(C=0.01, max_iter=1000, random_state=0)" in out
    assert "StandardScaler()" in out


def test_broken_pipe_exits_quietly():
    class ClosedPipe(io.StringIO):
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

    err = io.StringIO()
    status = main(
        ["--dataset", "iris", "--quiet", *FAST_B, "--tests", "bcv_mcnemar"],
        stdout=ClosedPipe(),
        stderr=err,
    )
    assert status == 1
    assert err.getvalue() == ""


def test_csv_infinite_feature_and_tab_delimiter(tmp_path):
    rows = [["x", "y"]] + [[str(i), str(i % 2)] for i in range(20)]
    rows[5][0] = "inf"
    data = write_csv(tmp_path / "inf.csv", rows)
    status, _, err = run_cli("--data", data, "--target", "y")
    assert_one_line_error(status, err, "--data: column 'x' holds an infinite value")

    from sklearn_bcv._cli import read_csv

    tabbed = tmp_path / "tabbed.tsv"
    tabbed.write_text("a\tlabel\n1\tx\n2\ty\n")
    status, _, err = run_cli(
        "--data",
        str(tabbed),
        "--target",
        "label",
        "--delimiter",
        "tab",
        "--tests",
        "list",
    )
    assert status == 0
    assert read_csv(tabbed, "label", delimiter="\t") == ({"a": ["1", "2"]}, ["x", "y"])


def test_plot_title_states_the_verdict_with_the_estimator_names():
    pytest.importorskip("matplotlib")
    from sklearn_bcv import compare_predictions
    from sklearn_bcv._cli import _plot_title

    y = np.array([0, 1] * 20)
    splits = [(np.arange(20), np.arange(20, 40)), (np.arange(20, 40), np.arange(20))]
    truth = [y[test] for _, test in splits]
    result = compare_predictions(
        y, truth, [1 - t for t in truth], splits, tests=["corrected_t"]
    )
    # A always right, B always wrong: corrected t is +inf, p = 0.
    assert _plot_title(result, ("lr", "rf")) == (
        "corrected_t (p = 0): significant: lr better at alpha = 0.05"
    )
    result.tests = {}
    assert _plot_title(result, ("lr", "rf")) == "A = lr, B = rf"


# Progress on a terminal: fits done of the total, elapsed, time left, by
# default for every subcommand that fits (tqdm's bar, or a plain line).
_FITTING_SUBCOMMANDS = {
    "compare": (["--dataset", "iris", *FAST_B, "--tests", "bcv_mcnemar"], 20),
    "many": (
        [
            "many",
            "--dataset",
            "iris",
            "--estimator",
            "sklearn.naive_bayes.GaussianNB",
            "--estimator",
            "sklearn.dummy.DummyClassifier",
        ],
        20,
    ),
    "benchmark": (
        [
            "benchmark",
            "--datasets",
            "iris",
            "wine",
            "--estimator",
            "sklearn.naive_bayes.GaussianNB",
            "--estimator",
            "sklearn.dummy.DummyClassifier",
        ],
        40,
    ),
    # The main job's pair on wine stops at the first look: 12 of at most 28.
    "sequential": (["sequential", "--dataset", "wine"], 12),
}
# Seeded: the sequential design's stop (so its count of fits) depends on
# the splits, and a drawn seed adds its line at the end.
_FITTING_SUBCOMMANDS = {
    name: ([*argv, "--random-state", "0"], n_fits)
    for name, (argv, n_fits) in _FITTING_SUBCOMMANDS.items()
}


def _run_on_a_terminal(argv):
    out, err = io.StringIO(), _FakeTerminal()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("subcommand", list(_FITTING_SUBCOMMANDS))
def test_a_terminal_shows_fits_done_of_the_total_by_default(subcommand, monkeypatch):
    # Without tqdm: the plain line, rewritten in place.
    monkeypatch.setitem(sys.modules, "tqdm", None)
    argv, n_fits = _FITTING_SUBCOMMANDS[subcommand]
    status, out, err = _run_on_a_terminal(argv)
    assert status == 0, err
    label = {"compare": "compare", "many": "compare_many"}.get(subcommand, subcommand)
    final = err.split("\r")[-1].splitlines()[0]  # the bar as it was left
    assert f"[{label}] {n_fits}/{n_fits} fits (100%)" in err, err
    assert "elapsed 0:" in final and "remaining 0:00" in final
    # Nothing draws over the bar; the end line still comes.
    assert "|" not in err.replace("\r", "\n").splitlines()[0]
    assert err.rstrip().splitlines()[-1].endswith("(tests included)")
    assert out  # the requested output, on stdout only
    assert "elapsed" not in out and "remaining" not in out


def test_a_terminal_shows_tqdm_when_installed():
    pytest.importorskip("tqdm")
    argv, _ = _FITTING_SUBCOMMANDS["compare"]
    status, _, err = _run_on_a_terminal(argv)
    assert status == 0, err
    assert "20/20" in err and "fits" in err


def test_no_bar_off_a_terminal_or_with_quiet():
    argv, _ = _FITTING_SUBCOMMANDS["compare"]
    status, _, err = run_cli(*argv)
    assert status == 0, err
    # A log gets two lines: the start and the end, no bar.
    assert "20/20" not in err and "fits (" not in err
    assert err.startswith("fitting ") and "done in" in err
    out, quiet = io.StringIO(), _FakeTerminal()
    assert main([*argv, "--quiet"], stdout=out, stderr=quiet) == 0
    assert quiet.getvalue() == ""


def test_verbose_shows_the_bar_off_a_terminal_too(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    argv, _ = _FITTING_SUBCOMMANDS["compare"]
    status, _, err = run_cli(*argv, "-v")
    assert status == 0, err
    assert "[compare] 20/20 fits (100%)" in err
    assert "END fit_time" not in err
    status, _, err = run_cli(*argv, "-vv")
    assert err.count("END fit_time") == 20


@pytest.mark.parametrize(
    "word, hint",
    [
        ("benchmarks", "did you mean 'benchmark'?"),
        ("Many", "did you mean 'many'?"),
        ("score", "did you mean 'scores'?"),
        ("sequentail", "did you mean 'sequential'?"),
        ("iris", None),
    ],
)
def test_a_mistyped_subcommand_is_a_usage_error_with_the_nearest_name(word, hint):
    status, out, err = run_cli(word, "--dataset", "iris")
    assert_one_line_error(status, err, f"unknown subcommand '{word}'", 2)
    assert "(subcommands: compare, many, benchmark, scores, sequential;" in err
    if hint is None:
        assert "did you mean" not in err
    else:
        assert hint in err
    assert out == ""


def _help_of(*argv):
    status, out, _ = run_cli(*argv, "--help")
    assert status == 0
    return " ".join(out.split())


def test_help_of_repeats_states_the_records_the_design_needs(tmp_path):
    # The --help claim "N records for M <= ..." against the splitter: N
    # records split, N - 1 are refused (a usage error of the command line).
    claims = re.findall(
        r"(\d+) records? for M = 1|(\d+) for M <= (\d+)", _help_of("--cv", "mx2")
    )
    bounds = [(2, 1)] + [(int(n), int(m)) for _, n, m in claims if n]
    assert bounds == [(2, 1), (4, 3), (8, 7), (16, 15)]
    for records, largest_m in bounds:
        for n_repeats in {largest_m, records // 2}:
            cv = BlockRegularizedMx2CV(n_repeats=n_repeats, random_state=0)
            assert len(list(cv.split(np.zeros((records, 1))))) == 2 * n_repeats
            with pytest.raises(ValueError, match=f"at least {records}"):
                list(cv.split(np.zeros((records - 1, 1))))
    # Through the command line, for the default M = 5: 8 records, not 7.
    rows = [["x", "y"]] + [[str(i), str(i % 2)] for i in range(8)]
    eight = write_csv(tmp_path / "eight.csv", rows)
    seven = write_csv(tmp_path / "seven.csv", rows[:-1])
    common = ["--target", "y", "--cv", "mx2", *FAST_B, "--quiet"]
    common += ["--estimator-a", "sklearn.dummy.DummyClassifier"]
    assert run_cli("--data", eight, *common)[0] == 0
    status, _, err = run_cli("--data", seven, *common)
    assert status == 2 and "at least 8" in err


def test_help_of_random_state_is_what_it_seeds():
    # --help: the seed reaches the user's estimators too, nested ones
    # included, and a seed given in --params wins.
    text = _help_of()
    assert (
        "every random_state parameter of the estimators, the defaults and yours" in text
    )
    status, out, err = run_cli(
        "--dataset",
        "iris",
        "--estimator-a",
        "sklearn.ensemble.ExtraTreesClassifier",
        "--params-a",
        '{"n_estimators": 5}',
        "--estimator-b",
        "sklearn.ensemble.BaggingClassifier",
        "--params-b",
        '{"n_estimators": 2, "random_state": 9}',
        "--random-state",
        "3",
        "--tests",
        "bcv_mcnemar",
        "--quiet",
    )
    assert status == 0, err
    assert "ExtraTreesClassifier(n_estimators=5, random_state=3)" in out
    assert "random_state=9" in out and "random_state=3)" in out.splitlines()[0]
