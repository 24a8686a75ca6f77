"""Hostile input, round 3: the command line's exit codes and messages
(class 8).

Usage errors exit 2 as ``doc/cli.rst`` says (an empty test list, ``auto``
among test names, a correction for all pairs with ``--control``, an output
path that cannot be written); a stored fit that cannot come from the fit it
claims to be is blamed on the store, naming its file; every error and
warning line is bounded in length where it is printed.
"""

import io
import json
import shutil
import sqlite3
import textwrap

import pytest

from sklearn_bcv._cli import main
from sklearn_bcv._cli._main import MAX_MESSAGE_CHARS, _bounded

DUMMY = "sklearn.dummy.DummyClassifier"
NB = "sklearn.naive_bayes.GaussianNB"
BENCHMARK = ["benchmark", "--datasets", "iris", "wine", "--estimator", DUMMY,
             "--estimator", NB]  # fmt: skip
MANY = ["many", "--dataset", "iris", "--estimator", DUMMY, "--estimator", NB]


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def scores_file(tmp_path):
    path = tmp_path / "scores.csv"
    rows = "".join(f"d{i},0.{i}1,0.{i}5,0.{9 - i}2\n" for i in range(1, 9))
    path.write_text("dataset,a,b,c\n" + rows)
    return str(path)


def assert_usage_error(argv, match):
    status, out, err = run_cli(*argv)
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert match in lines[0], lines[0]
    assert out == ""
    return lines[0]


# ---- usage errors: status 2 -------------------------------------------------------


@pytest.mark.parametrize("tests", ["auto,friedman", "friedman,auto", "auto,auto"])
@pytest.mark.parametrize("command", ["benchmark", "scores"])
def test_auto_among_test_names_is_a_usage_error(scores_file, command, tests):
    argv = BENCHMARK if command == "benchmark" else ["scores", scores_file]
    line = assert_usage_error(
        [*argv, "--tests", tests],
        "--tests: auto chooses the tests itself and cannot be combined",
    )
    assert "unknown test" not in line


@pytest.mark.parametrize("correction", ["shaffer", "bergmann"])
@pytest.mark.parametrize("command", ["many", "benchmark", "scores"])
def test_a_correction_for_all_pairs_with_a_control_is_a_usage_error(
    scores_file, command, correction
):
    argv, control = {
        "many": (MANY, "GaussianNB"),
        "benchmark": (BENCHMARK, "GaussianNB"),
        "scores": (["scores", scores_file], "a"),
    }[command]
    assert_usage_error(
        [*argv, "--correction", correction, "--control", control],
        f"--correction {correction} uses the logic of all pairwise comparisons "
        "and cannot be combined with --control",
    )


@pytest.mark.parametrize("value", ["", ",", " , ,"])
@pytest.mark.parametrize(
    "argv, option",
    [
        (["--dataset", "iris"], "--tests"),
        (MANY, "--tests"),
        (MANY, "--pairwise-tests"),
        (BENCHMARK, "--tests"),
        (BENCHMARK, "--pairwise-tests"),
        (["scores", "SCORES"], "--pairwise-tests"),
    ],
)
def test_an_empty_test_list_is_a_usage_error(scores_file, argv, option, value):
    argv = [scores_file if a == "SCORES" else a for a in argv]
    assert_usage_error([*argv, option, value], f"{option}: give one or more test names")


def test_an_unknown_test_still_stops_the_comparison_with_status_1():
    status, _, err = run_cli(*BENCHMARK, "--tests", "friedman,no_such_test")
    assert status == 1
    assert "unknown test(s) ['no_such_test']" in err


@pytest.mark.parametrize("where", ["missing", "unwritable"])
@pytest.mark.parametrize("command", ["compare", "scores"])
def test_a_report_directory_that_cannot_be_written_is_a_usage_error(
    tmp_path, scores_file, where, command
):
    directory = tmp_path / "missing" if where == "missing" else "/proc"
    if where == "unwritable" and not (tmp_path / "/proc").is_dir():
        pytest.skip("no /proc")
    argv = ["--dataset", "iris"] if command == "compare" else ["scores", scores_file]
    line = assert_usage_error([*argv, "--report", f"{directory}/r.md"], "--report: ")
    assert ".tmp" not in line


# ---- a tampered store is blamed on the store -------------------------------------

#: One split's rows made wrong in a way the file's format cannot tell.
FIRST_SPLIT = "split = (SELECT MIN(split) FROM fits)"
TAMPERING = {
    "one prediction too many": (
        "UPDATE fits SET predict_dtype = '<f8', predict = zeroblob(8 * 76), "
        f"predict_shape = '[76]' WHERE {FIRST_SPLIT}",
        "output has shape (76,), not one row per test record",
    ),
    "predictions of another type": (
        "UPDATE fits SET predict_dtype = '<U1', predict = "
        "'[' || substr(replace(hex(zeroblob(75)), '00', '\"a\",'), 1, 299) || ']', "
        f"predict_shape = '[75]' WHERE {FIRST_SPLIT}",
        "its predictions are strings, the target's labels numbers",
    ),
    "NaN predictions": (
        "UPDATE fits SET predict_dtype = '<f8', predict = CAST("
        "(WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
        "WHERE i < 75) SELECT group_concat(x'000000000000F87F', '') FROM n) "
        f"AS BLOB), predict_shape = '[75]' WHERE {FIRST_SPLIT}",
        "its predict output holds NaN or infinity",
    ),
    "probabilities of too few classes": (
        "UPDATE fits SET predict_proba_shape = '[75, 1]', predict_proba = "
        "zeroblob(8 * 75), predict_proba_dtype = '<f8' "
        f"WHERE predict_proba IS NOT NULL AND {FIRST_SPLIT}",
        "its predict_proba output has shape (75, 1) for 3 classes",
    ),
    "text that is not UTF-8": (
        "UPDATE fits SET predict_dtype = '<U1', predict = CAST(x'FF' AS TEXT) "
        f"WHERE {FIRST_SPLIT}",
        "Could not decode to UTF-8",
    ),
}


@pytest.fixture(scope="module")
def stored_study(tmp_path_factory):
    folder = tmp_path_factory.mktemp("study")
    store = folder / "study.db"
    status, _, err = run_cli(
        *MANY, "--scoring", "neg_log_loss", "--store", str(store), "--quiet"
    )
    assert status == 0, err
    return store


@pytest.mark.parametrize("tampering", list(TAMPERING))
def test_a_tampered_row_is_blamed_on_the_store(tmp_path, stored_study, tampering):
    sql, problem = TAMPERING[tampering]
    store = tmp_path / "study.db"
    shutil.copy(stored_study, store)
    with sqlite3.connect(store) as db:
        assert db.execute(sql).rowcount > 0
    status, out, err = run_cli(
        *MANY, "--scoring", "neg_log_loss", "--store", str(store), "--quiet"
    )
    assert status == 1, err
    line = err.strip().splitlines()[-1]
    assert line.startswith(f"error: study store {store} is damaged")
    assert problem in line, line
    assert "predictions of" not in line  # not blamed on an estimator
    assert out == ""


# ---- error lines are bounded -----------------------------------------------------


def test_bounded_keeps_the_beginning_and_the_end():
    text = "what is wrong " + "x" * 100_000 + " what to do"
    line = _bounded(text)
    assert len(line) <= MAX_MESSAGE_CHARS + 50
    assert line.startswith("what is wrong ") and line.endswith(" what to do")
    assert "[" in line and "characters left out]" in line
    assert _bounded("short") == "short"


@pytest.mark.parametrize(
    "argv",
    [
        ["many", "--dataset", "iris", "--estimator", DUMMY, "--estimator", NB,
         "--params", "DummyClassifier=" + json.dumps({"strategy": [*range(20_000)]})],
        ["--dataset", "iris", "--params-a",
         json.dumps({"C": "x" * 60_000})],
        ["many", "--dataset", "iris", "--estimator", DUMMY, "--estimator", NB,
         "--control", "y" * 50_000],
        ["--dataset", "iris", "--estimator-a", "a" * 30_000 + ".X"],
    ],
    ids=["params-list", "params-a", "control", "import-path"],
)  # fmt: skip
def test_error_lines_are_bounded(argv):
    status, _, err = run_cli(*argv)
    assert status in (1, 2), err
    line = err.strip().splitlines()[-1]
    assert line.startswith("error: ")
    assert len(line) <= MAX_MESSAGE_CHARS + 60, len(line)


def test_warning_lines_are_bounded(tmp_path, monkeypatch):
    (tmp_path / "noisy33.py").write_text(
        textwrap.dedent(
            """
            import warnings
            from sklearn.dummy import DummyClassifier

            class Noisy(DummyClassifier):
                def fit(self, X, y):
                    warnings.warn("w" * 100_000)
                    return super().fit(X, y)
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path.parent)
    status, _, err = run_cli("--dataset", "iris", "--estimator-a", "noisy33.Noisy")
    assert status == 0, err
    warning = [line for line in err.splitlines() if line.startswith("warning: ")]
    assert len(warning) == 1
    assert len(warning[0]) <= MAX_MESSAGE_CHARS + 60
