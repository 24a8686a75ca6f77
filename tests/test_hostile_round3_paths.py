"""Hostile input, round 3: file paths (class 1), refusals that leave
nothing behind (class 2) and output paths checked before the work
(class 4), on the library and the command line.

1. Every path goes through one check (:func:`sklearn_bcv._checks.check_path`):
   a NUL byte or a control character is refused with a message naming the
   argument; nothing is created.
2. A study store file is created only by the first write of an accepted
   call: a call refused for any reason leaves no file.
4. Every output path (``--report``, ``--plot``, ``--store``) is tried for
   real (a temporary file created and removed) before any fit; the error
   is a usage error (status 2) naming the path given, never a temporary
   file.
"""

import io
import os
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.dummy import DummyClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer

from sklearn_bcv import (
    StudyStore,
    benchmark,
    compare_estimators,
    compare_many_estimators,
    compare_scores,
)
from sklearn_bcv._checks import check_creatable, check_path
from sklearn_bcv._cli import main

X, Y = load_iris(return_X_y=True)
DUMMY = "sklearn.dummy.DummyClassifier"
NB = "sklearn.naive_bayes.GaussianNB"

#: Names a path must not hold, and what the message says of each.
BAD_NAMES = {
    "study\x00.db": "a NUL byte at position 5",
    "study\n.db": "the control character '\\n' at position 5",
    "study\r.db": "the control character '\\r' at position 5",
    "study\t.db": "the control character '\\t' at position 5",
    "\x1b[31mstudy.db": "the control character '\\x1b' at position 0",
    "study\x7f.db": "the control character '\\x7f' at position 5",
    "study\x9b2J.db": "the control character '\\x9b' at position 5",
}


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def assert_one_line_error(status, err, match, expected_status):
    assert status == expected_status, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err  # no progress line: refused before any fit
    assert lines[0].startswith("error: "), err
    assert match in lines[0], lines[0]


# ---- 1. one path check ------------------------------------------------------


@pytest.mark.parametrize("name", list(BAD_NAMES), ids=repr)
def test_check_path_refuses_nul_and_control_characters(name):
    with pytest.raises(ValueError) as info:
        check_path(name, name="store")
    message = str(info.value)
    assert message.startswith("store must be a file path without NUL bytes or")
    assert BAD_NAMES[name] in message
    assert "\x00" not in message and "\n" not in message and "\x1b" not in message
    # bytes and path-like objects are read the same way
    with pytest.raises(ValueError, match=BAD_NAMES[name].replace("\\", "\\\\")):
        check_path(os.fsencode(name), name="store")
    if "\x00" not in name:
        with pytest.raises(ValueError):
            check_path(Path(name), name="store")


@pytest.mark.parametrize(
    "name", ["study.db", "runs/étude é.db", "дані.db", "a b/c d.db", "x" * 300]
)
def test_check_path_keeps_ordinary_names(name):
    assert check_path(name, name="path") == name
    assert check_path(Path(name), name="path") == str(Path(name))


def test_check_path_refuses_what_is_not_a_path():
    with pytest.raises(ValueError, match="got an empty string"):
        check_path("", name="path")
    with pytest.raises(TypeError, match="path must be a file path"):
        check_path(3, name="path")


@pytest.mark.parametrize("name", list(BAD_NAMES), ids=repr)
def test_library_paths_are_checked_and_nothing_is_written(tmp_path, name):
    path = str(tmp_path / name)
    with pytest.raises(ValueError, match="store must be a file path"):
        compare_estimators(GaussianNB(), DummyClassifier(), X, Y, store=path)
    with pytest.raises(ValueError, match="path must be a file path"):
        StudyStore(path)
    result = compare_scores(np.random.default_rng(0).random((6, 3)))
    with pytest.raises(ValueError, match="path must be a file path"):
        result.to_json(path)
    assert list(tmp_path.iterdir()) == []


CLI_PATHS = {
    "--store": ["--dataset", "iris", "--estimator-a", DUMMY, "--store"],
    "--report": ["--dataset", "iris", "--estimator-a", DUMMY, "--report"],
    "--plot": ["--dataset", "iris", "--estimator-a", DUMMY, "--plot"],
    "--data": ["--target", "y", "--data"],
    "FILE": ["scores"],
    "--datasets": ["benchmark", "--estimator", DUMMY, "--estimator", NB,
                   "--datasets", "iris"],
}  # fmt: skip


@pytest.mark.parametrize("option", list(CLI_PATHS))
@pytest.mark.parametrize("name", ["study\x00.db", "study\n.md", "\x1b]0;x\x07.png"])
def test_cli_paths_are_one_usage_error_before_anything_is_read(tmp_path, option, name):
    if option == "--plot":
        pytest.importorskip("matplotlib")
    suffix = {"--report": ".md", "--plot": ".png", "--datasets": ".csv:y"}.get(
        option, ""
    )
    path = str(tmp_path / name) + suffix
    status, out, err = run_cli(*CLI_PATHS[option], path)
    assert_one_line_error(status, err, "must be a file path without NUL bytes", 2)
    assert err.startswith(f"error: {option}")
    assert "\x1b" not in err and "\x07" not in err
    assert out == ""
    assert list(tmp_path.iterdir()) == []


# ---- 2. a refusal leaves nothing behind ---------------------------------------


def _lambda_pipeline():
    return make_pipeline(FunctionTransformer(lambda x: x), GaussianNB())


REFUSED_CALLS = {
    "lambda in a pipeline": lambda store: compare_estimators(
        _lambda_pipeline(), DummyClassifier(), X, Y, store=store
    ),
    "lambda in many": lambda store: compare_many_estimators(
        {"a": _lambda_pipeline(), "b": GaussianNB()}, X, Y, store=store
    ),
    "invalid parameter": lambda store: compare_estimators(
        GaussianNB(var_smoothing=-1.0), DummyClassifier(), X, Y, store=store
    ),
    "unknown control": lambda store: benchmark(
        {"a": GaussianNB(), "b": DummyClassifier()},
        {"iris": (X, Y), "iris2": (X, Y)},
        control="c",
        store=store,
    ),
    "n_jobs=0": lambda store: compare_estimators(
        GaussianNB(), DummyClassifier(), X, Y, store=store, n_jobs=0
    ),
    "a scoring a store cannot keep": lambda store: compare_estimators(
        GaussianNB(),
        DummyClassifier(),
        X,
        Y,
        store=store,
        scoring=lambda estimator, X, y: 0.5,
    ),
}


@pytest.mark.parametrize("call", list(REFUSED_CALLS))
def test_a_refused_call_creates_no_store_file(tmp_path, call):
    path = tmp_path / "study.db"
    with pytest.raises((ValueError, TypeError)):
        REFUSED_CALLS[call](str(path))
    assert list(tmp_path.iterdir()) == []
    # The same refusal through an open StudyStore: still nothing created.
    with StudyStore(path) as store:
        with pytest.raises((ValueError, TypeError)):
            REFUSED_CALLS[call](store)
        assert store.n_fits == 0 and store.estimators == []
    assert list(tmp_path.iterdir()) == []


def test_an_accepted_call_creates_the_store_at_its_first_fit(tmp_path):
    path = tmp_path / "study.db"
    store = StudyStore(path)
    assert not path.exists()
    assert store.n_fits == 0 and store.fits().empty and repr(store).endswith("<0 fits>")
    compare_estimators(
        GaussianNB(), DummyClassifier(), X, Y, store=store, random_state=0
    )
    assert path.is_file() and store.n_fits == 20
    store.close()
    with pytest.raises(ValueError, match="is closed"):
        _ = store.n_fits


@pytest.mark.parametrize(
    "argv",
    [
        ["--estimator-b", "sklearn.linear_model.LogisticRegression",
         "--params-b", '{"C": -1}'],
        ["--tests", "no_such_test"],
        ["--scoring", "no_such_scoring"],
        ["many", "--estimator", DUMMY, "--estimator", NB, "--control", "zz"],
        ["benchmark", "--estimator", DUMMY, "--estimator", NB, "--datasets",
         "iris", "wine", "--correction", "shaffer", "--control", "GaussianNB"],
    ],
)  # fmt: skip
def test_a_refused_command_creates_no_store_file(tmp_path, argv):
    store = tmp_path / "study.db"
    if argv[0] not in ("many", "benchmark"):
        argv = ["--dataset", "iris", *argv]
    status, out, err = run_cli(*argv, "--store", str(store))
    assert status in (1, 2), err
    assert err.strip().splitlines()[-1].startswith("error: "), err
    assert list(tmp_path.iterdir()) == []


# ---- 4. every output path tried before any fit ------------------------------


def test_check_creatable_tries_for_real_and_leaves_nothing(tmp_path):
    check_creatable(tmp_path / "new.db")
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(FileNotFoundError, match="no directory"):
        check_creatable(tmp_path / "missing" / "new.db")
    (tmp_path / "file").write_text("")
    with pytest.raises(NotADirectoryError, match="is not a directory"):
        check_creatable(tmp_path / "file" / "new.db")
    if Path("/proc").is_dir():
        with pytest.raises(OSError, match="cannot write in the directory '/proc'"):
            check_creatable("/proc/new.db")


OUTPUTS = {
    "--report": ("r.md", "--report: "),
    "--plot": ("x.png", "--plot: "),
    "--store": ("s.db", "--store: "),
}


def _unwritable_directories(tmp_path):
    yield str(tmp_path / "missing"), "no directory"
    if Path("/proc").is_dir():
        yield "/proc", "cannot write in the directory '/proc'"
    if Path("/sys/kernel").is_dir():
        yield "/sys/kernel", "cannot write in the directory '/sys/kernel'"


@pytest.mark.parametrize("option", list(OUTPUTS))
@pytest.mark.parametrize(
    "command",
    [
        ["--dataset", "iris", "--estimator-a", DUMMY],
        ["many", "--dataset", "iris", "--estimator", DUMMY, "--estimator", NB],
        ["benchmark", "--datasets", "iris", "wine", "--estimator", DUMMY,
         "--estimator", NB],
    ],
    ids=["compare", "many", "benchmark"],
)  # fmt: skip
def test_outputs_are_tried_before_any_fit(tmp_path, option, command):
    if option == "--plot":
        pytest.importorskip("matplotlib")
    name, prefix = OUTPUTS[option]
    for directory, match in _unwritable_directories(tmp_path):
        path = f"{directory}/{name}"
        status, out, err = run_cli(*command, option, path)
        assert_one_line_error(status, err, prefix, 2)
        assert match in err
        assert ".tmp" not in err and "sklearn-bcv-" not in err  # no temporary file
        assert out == ""


def test_report_of_scores_is_tried_before_the_file_is_read(tmp_path):
    table = tmp_path / "scores.csv"
    table.write_text(
        "dataset,a,b\n" + "".join(f"d{i},0.{i},0.{9 - i}\n" for i in range(8))
    )
    if Path("/proc").is_dir():
        status, out, err = run_cli("scores", str(table), "--report", "/proc/r.md")
        assert_one_line_error(status, err, "--report: cannot use /proc/r.md", 2)
        assert "/proc/." not in err
    status, out, err = run_cli("scores", str(table), "--report", str(tmp_path / "r.md"))
    assert status == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.md", "scores.csv"]


def test_a_failing_report_write_names_the_report(tmp_path, monkeypatch):
    import tempfile

    from sklearn_bcv._cli._report import write_report

    def no_temporary(*args, **kwargs):
        raise PermissionError(13, "Permission denied", "/x/.r.md.abc.tmp")

    monkeypatch.setattr(tempfile, "mkstemp", no_temporary)

    class Result:
        def report(self, format):
            return "text"

    with pytest.raises(Exception) as info:
        write_report(Result(), tmp_path / "r.md")
    assert (
        str(info.value)
        == f"--report: cannot write {tmp_path / 'r.md'}: Permission denied"
    )
