"""Hostile input to the command line (issue 15), one class of fault at a time.

Every case here fails before any estimator is fitted (or fits dummies on
iris), so the file runs in a few seconds: unbounded or binary files,
``--plot`` paths that would be written elsewhere than reported, scorers
that cannot score the target, modules imported from the current directory,
and numeric options out of range.
"""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sklearn_bcv._cli import _data, _output, main
from sklearn_bcv._cli._estimators import import_estimator_class
from sklearn_bcv._cli._output import DEFAULT_PLOT_SUFFIX, check_plot_path

DUMMY = "sklearn.dummy.DummyClassifier"
NB = "sklearn.naive_bayes.GaussianNB"

#: The options that select two quick estimators on iris in each subcommand.
SUBCOMMAND_ARGS = {
    "compare": ["--dataset", "iris", "--estimator-a", DUMMY, "--estimator-b", NB],
    "many": ["many", "--dataset", "iris", "--estimator", DUMMY, "--estimator", NB],
    "benchmark": [
        "benchmark",
        "--datasets",
        "iris",
        "wine",
        "--estimator",
        DUMMY,
        "--estimator",
        NB,
    ],
}
SUBCOMMANDS = list(SUBCOMMAND_ARGS)


def run_cli(*argv):
    """Run ``main`` on ``argv``; return (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def assert_one_line_error(status, err, match, expected_status):
    assert status == expected_status, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    assert match in lines[0], lines[0]
    assert "Traceback" not in err


def data_error(path, *extra):
    status, out, err = run_cli("--data", str(path), "--target", "y", *extra)
    assert out == ""
    return status, err


# ---- 1. reading files: regular files only, bounded, text -------------------


def test_read_limits_are_documented_module_constants():
    assert _data.MAX_FILE_BYTES == 256 * 2**20
    assert _data.MAX_LINE_CHARS == 2**20
    doc = (Path(__file__).parents[1] / "doc" / "cli.rst").read_text(encoding="utf-8")
    assert "256 MiB" in doc and "1 MiB" in doc


def _endless_files(tmp_path):
    """Files that a reader without the guard would read forever, or block on."""
    if os.path.exists("/dev/zero"):
        yield "/dev/zero", "is a character device, not a regular file"
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "pipe.csv"
        os.mkfifo(fifo)  # opening it would wait for a writer
        yield str(fifo), "is a named pipe, not a regular file"


def test_endless_files_are_refused_at_once_in_a_subprocess(tmp_path):
    # The reported fault: /dev/zero read as one endless line until the kernel
    # killed the process. In a subprocess with a timeout, so that a
    # regression fails instead of hanging the test run.
    cases = list(_endless_files(tmp_path))
    if not cases:
        pytest.skip("neither /dev/zero nor named pipes here")
    for path, match in cases:
        completed = subprocess.run(
            [sys.executable, "-m", "sklearn_bcv", "--data", path, "--target", "y"],
            capture_output=True,
            text=True,
            timeout=20,
            stdin=subprocess.DEVNULL,
        )
        assert completed.returncode == 1
        assert completed.stdout == ""
        assert completed.stderr == f"error: --data: {path} {match}; give a CSV file\n"


def test_other_files_that_are_not_regular(tmp_path):
    cases = [(tmp_path, "is a directory, not a regular file")]
    if os.path.exists("/dev/null"):  # at its end at once: safe in-process
        cases.append(("/dev/null", "is a character device, not a regular file"))
    for path, match in cases:
        status, err = data_error(path)
        assert_one_line_error(status, err, f"--data: {path} {match}", 1)


def test_standard_input_is_not_read(tmp_path):
    status, err = data_error("-")
    assert_one_line_error(status, err, "--data: reading standard input ('-')", 1)


def test_file_over_the_size_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(_data, "MAX_FILE_BYTES", 64)
    path = tmp_path / "big.csv"
    path.write_text("a,y\n" + "1,0\n" * 40)
    status, err = data_error(path)
    assert_one_line_error(status, err, "--data: ", 1)
    assert "164 bytes; the limit is 64 bytes" in err


def test_file_growing_past_the_size_limit_while_read(tmp_path, monkeypatch):
    # The size is checked before reading, and the characters while reading
    # (a file may grow, and /proc files report a size of 0).
    path = tmp_path / "grows.csv"
    path.write_text("a,y\n" + "1,0\n" * 40)
    monkeypatch.setattr(_data, "_check_regular", lambda info, path, option: None)
    monkeypatch.setattr(_data, "MAX_FILE_BYTES", 64)
    status, err = data_error(path)
    assert_one_line_error(status, err, "is larger than 64 bytes, the limit", 1)


@pytest.mark.parametrize("newline", ["", "\n"])
def test_line_over_the_length_limit(tmp_path, monkeypatch, newline):
    monkeypatch.setattr(_data, "MAX_LINE_CHARS", 32)
    path = tmp_path / "long.csv"
    path.write_text("a,y\n" + "1" * 40 + ",0" + newline)
    status, err = data_error(path)
    assert_one_line_error(status, err, "--data: line 2 of", 1)
    assert "is longer than 32 characters, the limit" in err


@pytest.mark.parametrize(
    "content, match",
    [
        (b"", "is empty"),
        (b"\n \n\r\n", "is empty"),
        (b"a,y\n", "has a header but no data rows"),
        (b"\xef\xbb\xbfa,y\n", "has a header but no data rows"),
        (b"a,b\n1,2\n", "--target: no column 'y' in"),
        (
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
            "is not UTF-8 text (it holds the byte 0x89)",
        ),
        (b"a,y\n1,0\n\x00\x00\x00\x00", "line 3 of"),
        (b"a,y\ncaf\xe9,0\n1,1\n", "(it holds the byte 0xe9); give a CSV text"),
        ("a,y\n1,0\n".encode("utf-16"), "is not UTF-8 text (it holds the byte 0xff)"),
        (b"a,y\nnan,0\n1,1\n", "column 'a' holds a NaN ('nan', row 2)"),
        (b"a,y\n1,0\nNaN,1\n", "column 'a' holds a NaN ('NaN', row 3)"),
        (b"a,y\ninf,0\n1,1\n", "column 'a' holds an infinite value ('inf', row 2)"),
        (b"a,y\n-1e999,0\n1,1\n", "holds an infinite value ('-1e999', row 2)"),
        (b"a,y\n1,nan\n2,1\n", "--target: the target column holds non-finite"),
        (b"a,y\n1,0\n2,-inf\n", "'-inf' in row 3"),
        (b"a,y\n1,\n2,1\n", "--target: column 'y' has empty cells"),
        (b"a,y\n1,0\n2\n", "row 3 of"),
        (b"y\n1\n2\n", "has no feature column besides 'y'"),
        (b"a,a,y\n1,2,0\n", "has duplicate column names"),
        (b'a,y\n"1,0\n', "row 2 of"),
    ],
    ids=lambda value: value[:16] if isinstance(value, bytes) else None,
)
def test_bad_csv_content_is_one_clear_line(tmp_path, content, match):
    path = tmp_path / "data.csv"
    path.write_bytes(content)
    status, err = data_error(path)
    assert_one_line_error(status, err, match, 1)
    if match == "line 3 of":
        assert "holds a NUL byte: binary data, not CSV text" in err


def test_long_header_is_shortened_in_the_missing_target_message(tmp_path):
    path = tmp_path / "wide.csv"
    header = [f"c{i}" for i in range(500)]
    path.write_text(",".join(header) + "\n" + ",".join("1" * 500) + "\n")
    status, err = data_error(path)
    assert_one_line_error(status, err, "--target: no column 'y'", 1)
    assert "and 480 more" in err
    assert len(err) < 600


@pytest.mark.parametrize(
    "first, match",
    [
        ("id", "column 'id' is not numeric ('u0' in row 2) and has 1,001 distinct"),
        ("typo", "column 'typo' is not numeric ('1.2.3' in row 2) and has 1,001"),
    ],
)
def test_non_numeric_column_with_too_many_values(tmp_path, first, match):
    # One-hot encoding an identifier (or a numeric column with a typo) would
    # make a dense column per record: reported before any fit.
    assert _data.MAX_CATEGORIES == 1000
    rows = [f"{first},x,y"]
    for i in range(1001):
        cell = f"u{i}" if first == "id" else ("1.2.3" if i == 0 else str(i / 2))
        rows.append(f"{cell},{i % 7},{i % 2}")
    path = tmp_path / "wide.csv"
    path.write_text("\n".join(rows) + "\n")
    status, err = data_error(path)
    assert_one_line_error(status, err, f"--data: {match}", 1)
    assert "more than the 1,000 one-hot encoding takes" in err


@pytest.mark.parametrize("delimiter", ['"', "\n", "\r", "\0", "a", "1", ";;"])
def test_delimiters_that_cannot_separate_fields(tmp_path, delimiter):
    path = tmp_path / "d.csv"
    path.write_text("a,y\n1,0\n")
    status, err = data_error(path, "--delimiter", delimiter)
    assert_one_line_error(status, err, "argument --delimiter: expected", 2)


# ---- 2. --plot: the file reported is the file written -----------------------


@pytest.fixture
def matplotlib():
    return pytest.importorskip("matplotlib")


def _bad_plot_paths(tmp_path):
    missing = tmp_path / "missing"
    fifo = tmp_path / "fifo.png"
    if hasattr(os, "mkfifo"):
        os.mkfifo(fifo)
        yield str(fifo), "exists and is not a regular file"
    yield f"{tmp_path}{os.sep}", "is a directory; give a file name, such as"
    yield str(tmp_path), "is a directory; give a file name, such as"
    yield f"{missing}{os.sep}", "is a directory; give a file name"
    yield str(missing / "x.png"), f"no directory {str(missing)!r} to save x.png in"
    yield str(tmp_path / "x.v2"), "unknown image format '.v2'; use one of"
    yield str(tmp_path / "x."), "unknown image format '.'; use one of"
    yield " ", "give a file name such as comparison.png"
    yield str(tmp_path / ("x" * 300 + ".png")), "File name too long"
    if hasattr(os, "pathconf"):
        # A name that fits, but not once .png is appended.
        name_max = os.pathconf(tmp_path, "PC_NAME_MAX")
        yield str(tmp_path / ("x" * (name_max - 2))), f"longer than {name_max} bytes"


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_bad_plot_paths_fail_before_fitting(matplotlib, tmp_path, command):
    for plot, match in _bad_plot_paths(tmp_path):
        status, out, err = run_cli(*SUBCOMMAND_ARGS[command], "--plot", plot)
        assert_one_line_error(status, err, "error: --plot: ", 2)
        assert match in err
        assert out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo.png"] * hasattr(
        os, "mkfifo"
    )


def test_unknown_format_lists_matplotlibs_formats(matplotlib, tmp_path):
    from matplotlib.backend_bases import FigureCanvasBase

    with pytest.raises(Exception, match="unknown image format") as info:
        check_plot_path(str(tmp_path / "figure.xyz"))
    for suffix in FigureCanvasBase.get_supported_filetypes():
        assert f".{suffix}" in str(info.value)


def test_plot_path_is_resolved_once(matplotlib, tmp_path):
    assert check_plot_path(str(tmp_path / "noext")) == tmp_path / "noext.png"
    assert DEFAULT_PLOT_SUFFIX == ".png"
    assert check_plot_path(str(tmp_path / "a.SVG")) == tmp_path / "a.SVG"
    assert check_plot_path(tmp_path / "b.pdf") == tmp_path / "b.pdf"


@pytest.mark.parametrize("command", ["compare", "many"])
def test_plot_without_suffix_reports_the_file_written(matplotlib, tmp_path, command):
    # Dummies on iris with 1×2 BCV: two splits, a fraction of a second.
    status, _, err = run_cli(
        *SUBCOMMAND_ARGS[command],
        "--cv",
        "mx2",
        "--repeats",
        "1",
        "--format",
        "csv",
        "--plot",
        str(tmp_path / "noext"),
    )
    assert status == 0, err
    written = sorted(tmp_path.iterdir())
    assert written == [tmp_path / "noext.png"]
    assert err.splitlines()[-1] == f"plot saved to {written[0]}"
    assert not (tmp_path.parent / f"{tmp_path.name}.png").exists()


def test_plot_is_saved_in_the_format_its_suffix_names(matplotlib, tmp_path):
    from matplotlib.figure import Figure

    args = type("Args", (), {"quiet": False})()
    err = io.StringIO()
    path = tmp_path / "upper.SVG"
    _output.save_figure(Figure(), path, args=args, stderr=err)
    assert path.read_text().lstrip().startswith("<?xml")
    assert err.getvalue() == f"plot saved to {path}\n"


# ---- 3. --scoring that cannot score the target ------------------------------


@pytest.mark.parametrize("command", SUBCOMMANDS)
@pytest.mark.parametrize(
    "scoring, instead",
    [
        (
            "roc_auc",
            "['roc_auc_ovo', 'roc_auc_ovo_weighted', 'roc_auc_ovr', "
            "'roc_auc_ovr_weighted']",
        ),
        ("f1", "['f1_macro', 'f1_micro', "),
        ("precision", "['precision_macro', "),
    ],
)
def test_binary_scorer_on_multiclass_says_what_to_use(command, scoring, instead):
    status, out, err = run_cli(*SUBCOMMAND_ARGS[command], "--scoring", scoring)
    assert_one_line_error(
        status,
        err,
        f"--scoring: scoring={scoring!r} cannot score a multiclass target",
        2,
    )
    assert f"Scorings of its family that may: {instead}" in err
    assert out == ""


def test_regression_scorer_that_cannot_score_negative_targets():
    status, _, err = run_cli(
        "benchmark",
        "--datasets",
        "regression",
        "friedman1",
        "--estimator",
        "sklearn.dummy.DummyRegressor",
        "--estimator",
        "sklearn.linear_model.Ridge",
        "--scoring",
        "neg_mean_squared_log_error",
    )
    assert_one_line_error(
        status,
        err,
        "--scoring: scoring='neg_mean_squared_log_error' cannot score a "
        "continuous target",
        2,
    )


@pytest.mark.parametrize("scoring", ["roc_auc", "neg_log_loss", "average_precision"])
def test_probability_scorer_on_a_continuous_target(scoring):
    status, _, err = run_cli("--dataset", "diabetes", "--scoring", scoring)
    assert_one_line_error(
        status, err, f"--scoring: {scoring} scores class probabilities or", 2
    )
    assert "the target is continuous (a regression task)" in err


@pytest.mark.parametrize("command", SUBCOMMANDS)
@pytest.mark.parametrize(
    "scoring, match",
    [
        ("roc_aoc", "'roc_aoc' is not a valid scoring value; did you mean roc_auc"),
        ("bogus", "'bogus' is not a valid scoring value; valid names: accuracy, "),
        ("", "'' is not a valid scoring value"),
        ("__import__('os')", "\"__import__('os')\" is not a valid scoring value"),
    ],
)
def test_unknown_scorer_names(command, scoring, match):
    status, _, err = run_cli(*SUBCOMMAND_ARGS[command], "--scoring", scoring)
    assert_one_line_error(status, err, f"--scoring: {match}", 2)


LIBRARY_FUNCTIONS = {
    "compare": ("sklearn_bcv._compare", "compare_estimators"),
    "many": ("sklearn_bcv._many", "compare_many_estimators"),
    "benchmark": ("sklearn_bcv._benchmark", "benchmark"),
}


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_library_errors_are_one_line(command, monkeypatch):
    module, name = LIBRARY_FUNCTIONS[command]
    calls = []

    def scoring_error(*args, **kwargs):
        calls.append(kwargs)
        raise ValueError(
            "scoring='roc_auc_ovr' cannot score a multiclass target:\n"
            "multi_class must be in ('ovo', 'ovr')."
        )

    monkeypatch.setattr(sys.modules[module], name, scoring_error)
    # A ValueError about the scoring the user gave: a usage error (status 2).
    argv = [*SUBCOMMAND_ARGS[command], "--quiet"]
    status, _, err = run_cli(*argv, "--scoring", "roc_auc_ovr")
    assert_one_line_error(status, err, "--scoring roc_auc_ovr: scoring=", 2)
    assert "multi_class must be in ('ovo', 'ovr')" in err
    # ... another ValueError: the comparison cannot run (status 1).
    status, _, err = run_cli(*argv)
    assert_one_line_error(status, err, "error: scoring='roc_auc_ovr'", 1)

    def other_error(*args, **kwargs):
        raise ValueError("something else\nwent wrong")

    monkeypatch.setattr(sys.modules[module], name, other_error)
    status, _, err = run_cli(*argv, "--scoring", "accuracy")
    assert_one_line_error(status, err, "error: something else went wrong", 1)
    assert calls[0]["scoring"] == "roc_auc_ovr"


# ---- 4. estimator modules: never from the current directory -----------------

EVIL = """
from pathlib import Path

Path({marker!r}).write_text("imported")
from sklearn.dummy import DummyClassifier as X
"""


def run_in(directory, *args, python_flags=(), timeout=60):
    """``python [flags] -m sklearn_bcv ARGS`` in ``directory``, without the
    caller's PYTHONPATH: what a user typing it there would run."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run(
        [sys.executable, *python_flags, "-m", "sklearn_bcv", *args],
        capture_output=True,
        text=True,
        cwd=directory,
        env=env,
        timeout=timeout,
    )


@pytest.fixture
def evil_directory(tmp_path, monkeypatch):
    """A current directory holding evil.py, which leaves a marker when imported."""
    marker = tmp_path / "MARKER"
    name = f"evil_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(EVIL.format(marker=str(marker)))
    monkeypatch.chdir(tmp_path)
    return tmp_path, name, marker


@pytest.mark.parametrize("entry", ["", ".", "cwd"])
@pytest.mark.parametrize("option", ["--estimator-a", "--estimator-b", "--estimator"])
def test_modules_in_the_current_directory_are_not_imported(
    evil_directory, monkeypatch, entry, option
):
    directory, name, marker = evil_directory
    monkeypatch.syspath_prepend(str(directory) if entry == "cwd" else entry)
    saved_path = list(sys.path)
    argv = ["--dataset", "iris", option, f"{name}.X"]
    if option == "--estimator":
        argv += ["--estimator", NB]
    status, out, err = run_cli(*argv)
    assert_one_line_error(
        status,
        err,
        f"{option}: module {name!r} is only in the current directory, and "
        "nothing is imported from there",
        1,
    )
    assert not marker.exists()
    assert name not in sys.modules
    assert sys.path == saved_path


def test_module_in_the_current_directory_in_a_subprocess(evil_directory):
    directory, name, marker = evil_directory
    completed = run_in(directory, "--estimator-a", f"{name}.X")
    assert completed.returncode == 1
    assert completed.stderr.startswith(
        f"error: --estimator-a: module {name!r} is only in the current directory"
    )
    assert not marker.exists()


def test_lazy_imports_while_running_are_not_from_the_current_directory(tmp_path):
    # --plot imports matplotlib once the command runs: a matplotlib.py in the
    # current directory must not be what it finds.
    pytest.importorskip("matplotlib")
    marker = tmp_path / "MARKER"
    (tmp_path / "matplotlib.py").write_text(EVIL.format(marker=str(marker)))
    completed = run_in(tmp_path, "--plot", "x.png", "--scoring", "?")
    assert completed.returncode == 2
    assert completed.stderr.startswith("error: --scoring: '?' is not a valid")
    assert not marker.exists()


@pytest.mark.skipif(sys.version_info < (3, 11), reason="PYTHONSAFEPATH is 3.11+")
def test_worker_processes_do_not_import_from_the_current_directory(tmp_path):
    # joblib starts its workers with 'python -m', which puts their current
    # directory (ours) first on their path: a joblib.py there would run in
    # every worker. -P keeps the parent safe, as the sklearn-bcv script is.
    marker = tmp_path / "MARKER"
    (tmp_path / "joblib.py").write_text(EVIL.format(marker=str(marker)))
    completed = run_in(
        tmp_path,
        *SUBCOMMAND_ARGS["compare"],
        *("--cv", "mx2", "--repeats", "1", "--n-jobs", "2", "--quiet"),
        python_flags=("-P",),
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    assert not marker.exists()


def test_module_on_the_path_outside_the_current_directory(
    evil_directory, monkeypatch, tmp_path_factory
):
    # The same module is importable from a directory put on the path, when
    # that directory is not the current one.
    directory, name, marker = evil_directory
    monkeypatch.syspath_prepend(str(directory))
    monkeypatch.chdir(tmp_path_factory.mktemp("elsewhere"))
    monkeypatch.delitem(sys.modules, name, raising=False)
    cls = import_estimator_class(f"{name}.X", "--estimator-a", stdout=io.StringIO())
    assert cls.__name__ == "DummyClassifier"
    assert marker.exists()


def test_installed_packages_and_missing_modules(evil_directory):
    assert import_estimator_class(NB, "--estimator-a").__name__ == "GaussianNB"
    status, _, err = run_cli("--estimator-a", "no_such_module_xyz.Model")
    assert_one_line_error(
        status, err, "cannot import module 'no_such_module_xyz' (No module named", 1
    )


# ---- 5. numeric options: clear errors before any fit ------------------------

NUMERIC = [
    ("--n-jobs", "0", "expected a non-zero integer; got 0"),
    ("--n-jobs", "1.5", "expected a non-zero integer; got '1.5'"),
    ("--n-jobs", "many", "expected a non-zero integer; got 'many'"),
    ("--n-jobs", "", "expected a non-zero integer; got ''"),
    ("--repeats", "0", "expected an integer in [1, 1000]; got 0"),
    ("--repeats", "-3", "expected an integer in [1, 1000]; got -3"),
    ("--repeats", "1001", "expected an integer in [1, 1000]; got 1001"),
    ("--repeats", str(10**30), "expected an integer in [1, 1000]; got 1000000"),
    ("--repeats", "1e3", "expected an integer in [1, 1000]; got '1e3'"),
    ("--folds", "1", "expected an integer >= 2; got 1"),
    ("--folds", "ten", "expected an integer >= 2; got 'ten'"),
    ("--alpha", "0", "expected a number between 0 and 1 (exclusive); got 0"),
    ("--alpha", "1", "expected a number between 0 and 1 (exclusive); got 1"),
    ("--alpha", "-0.05", "expected a number between 0 and 1 (exclusive); got -0.05"),
    ("--alpha", "nan", "expected a number between 0 and 1 (exclusive); got nan"),
    ("--alpha", "inf", "expected a number between 0 and 1 (exclusive); got inf"),
    ("--alpha", "5%", "expected a number between 0 and 1; got '5%'"),
    ("--random-state", "-1", "expected an integer in [0, 4294967295]; got -1"),
    ("--random-state", "1.5", "expected an integer in [0, 4294967295]; got '1.5'"),
    (
        "--random-state",
        str(2**32),
        "expected an integer in [0, 4294967295]; got 4294967296",
    ),
]


@pytest.mark.parametrize("command", SUBCOMMANDS)
@pytest.mark.parametrize("option, value, match", NUMERIC, ids=str)
def test_numeric_options_out_of_range(command, option, value, match):
    status, out, err = run_cli(*SUBCOMMAND_ARGS[command], f"{option}={value}")
    assert_one_line_error(status, err, f"argument {option}: {match}", 2)
    assert out == ""


@pytest.mark.parametrize(
    "value, match",
    [
        ("-0.01", "expected a finite number >= 0; got -0.01"),
        ("nan", "expected a finite number >= 0; got nan"),
        ("inf", "expected a finite number >= 0; got inf"),
        ("wide", "expected a number >= 0; got 'wide'"),
    ],
)
def test_rope_out_of_range(value, match):
    status, _, err = run_cli(*SUBCOMMAND_ARGS["benchmark"], f"--rope={value}")
    assert_one_line_error(status, err, f"argument --rope: {match}", 2)


@pytest.mark.parametrize("command", SUBCOMMANDS)
@pytest.mark.parametrize(
    "design, match",
    [
        (["--cv", "mx2", "--repeats", "1000"], "--repeats: BlockRegularizedMx2CV("),
        (
            ["--cv", "stratified", "--repeats", "200"],
            "--repeats: StratifiedBlockRegularizedMx2CV(",
        ),
        (["--cv", "kfold", "--folds", "100000"], "--folds: StratifiedKFold("),
    ],
)
def test_design_larger_than_the_data(command, design, match):
    status, out, err = run_cli(*SUBCOMMAND_ARGS[command], *design)
    assert_one_line_error(status, err, match, 2)
    assert "cannot split the 150 records" in err  # iris, the smallest
    assert out == ""


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_huge_n_jobs_reaches_the_library_unchanged(command, monkeypatch):
    # The library caps the workers at the number of fits (worker_count);
    # the command line only checks that --n-jobs is a non-zero integer.
    module, name = LIBRARY_FUNCTIONS[command]
    seen = {}

    def record(*args, **kwargs):
        seen.update(kwargs)
        raise RuntimeError("stop before fitting")

    monkeypatch.setattr(sys.modules[module], name, record)
    status, _, err = run_cli(*SUBCOMMAND_ARGS[command], "--quiet", "--n-jobs", "100000")
    assert_one_line_error(status, err, "RuntimeError: stop before fitting", 1)
    assert seen["n_jobs"] == 100000


def test_library_caps_the_workers_at_the_number_of_fits():
    from sklearn_bcv._engine._fit import worker_count

    assert worker_count(100000, 20) <= 20


@pytest.mark.parametrize(
    "params, match",
    [
        ("[" * 100000, "--params-a: the JSON is nested too deeply"),
        ('{"C": ' + "9" * 5000 + "}", "--params-a: not valid JSON (Exceeds the limit"),
        ("{C: 1}", "--params-a: not valid JSON"),
    ],
    ids=["deep", "huge-int", "bad"],
)
def test_params_json_that_json_loads_chokes_on(params, match):
    status, _, err = run_cli("--dataset", "iris", "--params-a", params)
    assert_one_line_error(status, err, match, 1)
    assert len(err) < 1000 or "nested" not in err
