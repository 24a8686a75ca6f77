"""Command line interface: ``sklearn-bcv`` and ``python -m sklearn_bcv``.

Without arguments it runs the main job: a 5×2 block-regularized CV comparison
of a scaled logistic regression and a small random forest on scikit-learn's
bundled breast cancer data set, then prints the comparison table and verdict.

Nothing the user types is evaluated as Python: estimators are named by import
path and checked to be scikit-learn estimator classes, parameters are JSON.
"""

import argparse
import contextlib
import csv
import importlib
import inspect
import io
import json
import math
import os
import sys
import threading
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn import datasets
from sklearn.base import BaseEstimator, is_classifier, is_regressor
from sklearn.utils.multiclass import type_of_target

from .._compat import InvalidParameterError

__all__ = ["build_parser", "main"]

PROG = "sklearn-bcv"

#: Bundled scikit-learn loaders the CLI offers, and their task.
DATASETS = {
    "breast_cancer": ("load_breast_cancer", "classification"),
    "iris": ("load_iris", "classification"),
    "wine": ("load_wine", "classification"),
    "digits": ("load_digits", "classification"),
    "diabetes": ("load_diabetes", "regression"),
}

CV_CHOICES = ("5x2", "mx2", "stratified", "kfold")
FORMATS = ("text", "json", "csv")

#: A numeric target with more distinct values than this is a regression task.
MAX_CLASSES = 20


class CLIError(Exception):
    """An error reported to the user as one ``error: ...`` line."""


class _Parser(argparse.ArgumentParser):
    """ArgumentParser whose errors are one line, without the usage block."""

    def error(self, message):
        raise CLIError(f"{message} (see '{self.prog} --help')")


MAX_SEED = 2**32 - 1


def _int_in(low, high=None, *, allow_zero=True, what="an integer"):
    """An argparse type: an int in ``[low, high]`` (``0`` excluded if asked)."""

    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}; got {text!r}") from None
        if (
            (low is not None and value < low)
            or (high is not None and value > high)
            or (not allow_zero and value == 0)
        ):
            raise argparse.ArgumentTypeError(f"expected {what}; got {value}")
        return value

    parse.__name__ = what  # argparse names the type in its messages
    return parse


def _probability(text):
    """An argparse type: a float strictly between 0 and 1 (a level alpha)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number between 0 and 1; got {text!r}"
        ) from None
    if not 0 < value < 1:  # also rejects nan
        raise argparse.ArgumentTypeError(
            f"expected a number between 0 and 1 (exclusive); got {text}"
        )
    return value


def _delimiter(text):
    """An argparse type: one character (the csv module's delimiter)."""
    if text in ("\\t", "tab"):
        return "\t"
    if len(text) != 1:
        raise argparse.ArgumentTypeError(
            f"expected one character (or 'tab'); got {text!r}"
        )
    return text


def build_parser():
    """Return the argument parser of ``sklearn-bcv``.

    Returns
    -------
    parser : argparse.ArgumentParser
        The parser; its errors raise :class:`CLIError` instead of exiting.
    """
    parser = _Parser(
        prog=PROG,
        description=(
            "Compare two scikit-learn estimators with sound statistical tests "
            "on block-regularized m×2 cross-validation. Without arguments: a "
            "5×2 BCV comparison of a scaled logistic regression and a random "
            "forest on the bundled breast cancer data."
        ),
        epilog=(
            "Examples:\n"
            "  sklearn-bcv\n"
            "  sklearn-bcv --dataset wine --tests bcv_mcnemar,calibrated_f_5x2bcv\n"
            "  sklearn-bcv --data train.csv --target label --format json\n"
            "  sklearn-bcv --estimator-b sklearn.svm.SVC --params-b '{\"C\": 10}'\n"
            "  sklearn-bcv --cv mx2 --repeats 3 --plot comparison.png\n\n"
            "Exit status: 0 on success, 1 when the comparison cannot run, 2 on "
            "a usage error,\n130 when interrupted; errors are one line on "
            "stderr starting with 'error:'."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    data = parser.add_argument_group("data")
    source = data.add_mutually_exclusive_group()
    source.add_argument(
        "--dataset",
        choices=sorted(DATASETS),
        default=None,
        help="a data set bundled with scikit-learn (default: breast_cancer; "
        "diabetes is a regression task)",
    )
    source.add_argument(
        "--data",
        metavar="FILE.csv",
        type=Path,
        default=None,
        help="a CSV file with a header row; non-numeric feature columns are "
        "one-hot encoded, empty cells of numeric columns imputed",
    )
    data.add_argument(
        "--target",
        metavar="COLUMN",
        default=None,
        help="name of the target column of --data (required with --data)",
    )
    data.add_argument(
        "--delimiter",
        default=",",
        type=_delimiter,
        help="field delimiter of --data: one character, or 'tab' (default: ,)",
    )
    data.add_argument(
        "--task",
        choices=("auto", "classification", "regression"),
        default="auto",
        help="task of --data; auto: regression for a numeric target with "
        f"non-integer values or more than {MAX_CLASSES} distinct values, "
        "classification otherwise (default: auto)",
    )

    models = parser.add_argument_group("estimators")
    for side, default in (
        ("a", "a scaled LogisticRegression (Ridge for regression)"),
        (
            "b",
            "RandomForestClassifier(n_estimators=50) "
            "(RandomForestRegressor for regression)",
        ),
    ):
        models.add_argument(
            f"--estimator-{side}",
            metavar="IMPORT.PATH",
            default=None,
            help=f"import path of estimator {side.upper()}'s class, e.g. "
            f"sklearn.svm.SVC (default: {default})",
        )
        models.add_argument(
            f"--params-{side}",
            metavar="JSON",
            default=None,
            help=f"constructor parameters of estimator {side.upper()} as a JSON "
            "object, e.g. '{\"C\": 10}' (for a default pipeline: of its "
            "final estimator)",
        )

    comparison = parser.add_argument_group("comparison")
    comparison.add_argument(
        "--tests",
        metavar="NAME[,NAME...]",
        default=None,
        help="comma-separated registered tests to run (default: every test "
        "applicable to the design and task); 'list' prints the names",
    )
    comparison.add_argument(
        "--cv",
        choices=CV_CHOICES,
        default="5x2",
        help="5x2: 5×2 block-regularized CV (default); mx2: m×2 BCV with "
        "--repeats; stratified: stratified m×2 BCV; kfold: (stratified) "
        "K-fold CV with --folds",
    )
    comparison.add_argument(
        "--repeats",
        type=_int_in(1, what="an integer >= 1"),
        default=5,
        metavar="M",
        help="repetitions of 2-fold CV for --cv mx2/stratified (default: 5)",
    )
    comparison.add_argument(
        "--folds",
        type=_int_in(2, what="an integer >= 2"),
        default=10,
        metavar="K",
        help="folds for --cv kfold (default: 10)",
    )
    comparison.add_argument(
        "--scoring",
        default=None,
        help="a scikit-learn scorer name such as balanced_accuracy, roc_auc "
        "or r2 (default: accuracy for classifiers, r2 for regressors)",
    )
    comparison.add_argument(
        "--alpha",
        type=_probability,
        default=0.05,
        help="significance level, between 0 and 1 (default: 0.05)",
    )
    comparison.add_argument(
        "--alternative",
        choices=("two-sided", "greater", "less"),
        default="two-sided",
        help="greater: A better than B; less: B better (default: two-sided)",
    )
    comparison.add_argument(
        "--random-state",
        default=0,
        metavar="SEED",
        type=_int_in(0, MAX_SEED, what=f"an integer in [0, {MAX_SEED}]"),
        help="seed of the splits and of the default estimators (default: 0)",
    )
    comparison.add_argument(
        "--n-jobs",
        default=None,
        metavar="N",
        type=_int_in(None, allow_zero=False, what="a non-zero integer"),
        help="parallel fits (joblib n_jobs; -1 uses every core)",
    )

    output = parser.add_argument_group("output")
    output.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: summary table and verdict (default); json; csv: one row per test",
    )
    output.add_argument(
        "--plot",
        metavar="FILE.png",
        type=Path,
        default=None,
        help="also save a figure titled with the verdict (score differences, "
        "posterior, contingency tables; .png, .svg, .pdf, ...); needs "
        "matplotlib",
    )
    output.add_argument(
        "--quiet",
        action="store_true",
        help="nothing on stderr but an error: no progress indicator, warnings "
        "or output of imported modules",
    )
    output.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="report each fit on stderr (repeat for more detail)",
    )
    from .. import __version__

    output.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}"
    )
    return parser


# --------------------------------------------------------------------------
# Data


def load_bundled(name):
    """Return ``(X, y, task, description)`` of a bundled scikit-learn data set."""
    loader, task = DATASETS[name]
    X, y = getattr(datasets, loader)(return_X_y=True)
    return X, y, task, f"{name} (scikit-learn, {X.shape[0]} records)"


def _parse_float(value):
    try:
        return float(value)
    except ValueError:
        return None


def read_csv(path, target, *, delimiter=","):
    """Read a CSV file into features and target with the csv module.

    Returns
    -------
    columns : dict of str to list of str
        The feature columns, raw strings.
    y : list of str
        The target column, raw strings.
    """
    if target is None:
        raise CLIError("--data needs --target COLUMN (the name of the target column)")
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            rows = [
                row
                for row in csv.reader(handle, delimiter=delimiter)
                if any(cell.strip() for cell in row)
            ]
    except FileNotFoundError:
        raise CLIError(f"--data: file not found: {path}") from None
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise CLIError(f"--data: cannot read {path}: {exc}") from None
    if not rows:
        raise CLIError(f"--data: {path} is empty")
    header = [name.strip() for name in rows[0]]
    if target not in header:
        raise CLIError(
            f"--target: no column {target!r} in {path}; columns are {header}"
        )
    if len(set(header)) != len(header):
        raise CLIError(f"--data: {path} has duplicate column names")
    body = rows[1:]
    if not body:
        raise CLIError(f"--data: {path} has a header but no data rows")
    for line, row in enumerate(body, start=2):
        if len(row) != len(header):
            raise CLIError(
                f"--data: row {line} of {path} has {len(row)} fields; the "
                f"header has {len(header)}"
            )
    columns = {name: [row[i].strip() for row in body] for i, name in enumerate(header)}
    y = columns.pop(target)
    if not columns:
        raise CLIError(f"--data: {path} has no feature column besides {target!r}")
    if any(value == "" for value in y):
        raise CLIError(f"--target: column {target!r} has empty cells")
    return columns, y


def _numeric_column(values):
    """Floats of a column (empty cells NaN), or None if a cell is not a number."""
    parsed = [np.nan if value == "" else _parse_float(value) for value in values]
    return None if any(p is None for p in parsed) else parsed


def _check_finite_features(columns, parsed):
    """Reject infinite numbers: no imputer or estimator accepts them."""
    for name, column in zip(columns, parsed):
        if column is not None and np.isinf(column).any():
            raise CLIError(
                f"--data: column {name!r} holds an infinite value; use an empty "
                "cell for a missing value"
            )


def features_from_columns(columns):
    """Turn raw string columns into ``(X, preprocessor)``.

    Numeric columns become floats (empty cells NaN, imputed with the median
    by the preprocessor); the others stay strings and the preprocessor
    one-hot encodes them. ``preprocessor`` is None when every column is
    numeric and complete (then ``X`` is a float array).
    """
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.preprocessing import OneHotEncoder

    parsed = [_numeric_column(values) for values in columns.values()]
    _check_finite_features(columns, parsed)
    numeric = [j for j, col in enumerate(parsed) if col is not None]
    categorical = [j for j, col in enumerate(parsed) if col is None]
    X = np.array(
        [col if col is not None else raw for col, raw in zip(parsed, columns.values())],
        dtype=object,
    ).T
    has_missing = any(np.isnan(parsed[j]).any() for j in numeric)
    if not categorical and not has_missing:
        return X.astype(float), None
    transformers = []
    if numeric:
        imputer = SimpleImputer(strategy="median") if has_missing else "passthrough"
        transformers.append(("numeric", imputer, numeric))
    if categorical:
        encoder = OneHotEncoder(handle_unknown="ignore")
        transformers.append(("categorical", encoder, categorical))
    return X, ColumnTransformer(transformers, sparse_threshold=0)


def target_from_column(y, task="auto"):
    """Return ``(y, task)`` for a raw target column.

    A numeric column becomes floats; it is a regression target when ``task``
    is "regression", or with ``task="auto"`` when it holds non-integer
    values or more than :data:`MAX_CLASSES` distinct values. Anything else is
    a classification target (text labels stay strings).
    """
    parsed = [_parse_float(v) for v in y]
    if not all(p is not None for p in parsed):
        if task == "regression":
            bad = next(v for v, p in zip(y, parsed) if p is None)
            raise CLIError(f"--task regression needs a numeric target; found {bad!r}")
        return np.asarray(y, dtype=object), "classification"
    values = np.asarray(parsed, dtype=float)
    if not np.isfinite(values).all():
        raise CLIError("the target column holds non-finite values (nan or inf)")
    if task == "auto":
        continuous = type_of_target(values) == "continuous"
        task = (
            "regression"
            if continuous or len(np.unique(values)) > MAX_CLASSES
            else "classification"
        )
    return values, task


def check_target(y, task):
    """Reject targets a comparison cannot run on (one class, one value)."""
    if task == "classification":
        classes = np.unique(y)
        if len(classes) < 2:
            raise CLIError(
                f"the target has a single class ({classes[0]!r}); comparing "
                "classifiers needs at least two"
            )
    elif np.ptp(np.asarray(y, dtype=float)) == 0:
        raise CLIError("the target is constant; comparing regressors needs variation")


# --------------------------------------------------------------------------
# Estimators


def parse_params(text, option):
    """Parse a JSON object of estimator parameters (json.loads only)."""
    if text is None:
        return {}
    try:
        params = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CLIError(f"{option}: not valid JSON ({exc.msg}): {text!r}") from None
    if not isinstance(params, dict):
        raise CLIError(
            f"{option}: expected a JSON object like '{{\"C\": 1.0}}'; got {text!r}"
        )
    return params


def import_estimator_class(path, option, *, stdout=None):
    """Import the class at ``path`` and check it is a scikit-learn estimator.

    Importing runs the module's code (that is what naming a module asks
    for), but nothing else: ``path`` must be dotted identifiers, and
    anything the module prints goes to ``stdout`` (stderr in :func:`run`)
    so the requested output stays clean.
    """
    module_name, _, class_name = path.rpartition(".")
    if (
        not module_name
        or not class_name.isidentifier()
        or not all(part.isidentifier() for part in module_name.split("."))
    ):
        raise CLIError(
            f"{option}: expected an import path such as sklearn.svm.SVC; got {path!r}"
        )
    try:
        with contextlib.redirect_stdout(stdout or sys.stderr):
            module = importlib.import_module(module_name)
    except ImportError as exc:
        raise CLIError(
            f"{option}: cannot import module {module_name!r} ({exc})"
        ) from None
    except Exception as exc:  # the module's own code failed while importing
        raise CLIError(
            f"{option}: importing module {module_name!r} failed "
            f"({type(exc).__name__}: {exc})"
        ) from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise CLIError(f"{option}: module {module_name!r} has no {class_name!r}")
    if not (
        inspect.isclass(cls) and issubclass(cls, BaseEstimator) and hasattr(cls, "fit")
    ):
        raise CLIError(f"{option}: {path} is not a scikit-learn estimator class")
    return cls


def default_estimators(task, random_state):
    """The two estimators of the main job for ``task``."""
    from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    if task == "regression":
        return (
            make_pipeline(StandardScaler(), Ridge()),
            RandomForestRegressor(n_estimators=50, random_state=random_state),
        )
    return (
        make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
        RandomForestClassifier(n_estimators=50, random_state=random_state),
    )


def build_estimator(path, params_text, default, side, *, stdout=None):
    """Instantiate estimator ``side`` from the options, or use ``default``.

    ``--params-x`` sets parameters of the named class; for a default that is
    a pipeline (the scaled linear model) they go to its final estimator, so
    ``--params-a '{"C": 10}'`` works on the default A as on any classifier.
    """
    option = f"--estimator-{side}"
    params = parse_params(params_text, f"--params-{side}")
    if path is None:
        estimator = default
        target = default[-1] if hasattr(default, "steps") else default
    else:
        cls = import_estimator_class(path, option, stdout=stdout)
        try:
            estimator = target = cls()
        except Exception as exc:  # abstract classes, required arguments
            raise CLIError(
                f"{option}: cannot create {path}() without arguments "
                f"({type(exc).__name__}: {exc})"
            ) from None
    if not hasattr(estimator, "predict"):
        raise CLIError(
            f"{option}: {type(estimator).__name__} has no predict method; "
            "give a classifier or a regressor"
        )
    if params:
        try:
            target.set_params(**params)
        except ValueError as exc:
            raise CLIError(f"--params-{side}: {exc}") from None
    return estimator


def check_estimator_task(estimator, task, side):
    if task == "classification" and is_regressor(estimator):
        raise CLIError(
            f"--estimator-{side}: {type(estimator).__name__} is a regressor but "
            "the target is categorical"
        )
    if task == "regression" and is_classifier(estimator):
        raise CLIError(
            f"--estimator-{side}: {type(estimator).__name__} is a classifier but "
            "the target is continuous"
        )


def with_preprocessor(estimator, preprocessor):
    if preprocessor is None:
        return estimator
    from sklearn.base import clone
    from sklearn.pipeline import make_pipeline

    return make_pipeline(clone(preprocessor), estimator)


# --------------------------------------------------------------------------
# Design and tests


def build_cv(args, task):
    """The cross-validation splitter the options ask for."""
    from sklearn.model_selection import KFold, StratifiedKFold

    from .._split import (
        BlockRegularized5x2CV,
        BlockRegularizedMx2CV,
        StratifiedBlockRegularizedMx2CV,
    )

    seed = args.random_state
    if args.cv == "5x2":
        return BlockRegularized5x2CV(random_state=seed)
    if args.cv == "mx2":
        return BlockRegularizedMx2CV(n_repeats=args.repeats, random_state=seed)
    if args.cv == "stratified":
        if task != "classification":
            raise CLIError("--cv stratified needs a classification target")
        return StratifiedBlockRegularizedMx2CV(
            n_repeats=args.repeats, random_state=seed
        )
    splitter = StratifiedKFold if task == "classification" else KFold
    return splitter(n_splits=args.folds, shuffle=True, random_state=seed)


def parse_tests(text):
    """The list of test names of ``--tests`` (None: every applicable test)."""
    from ..stats._registry import available_tests

    if text is None:
        return None
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise CLIError("--tests: give one or more test names separated by commas")
    valid = available_tests()
    unknown = [name for name in names if name not in valid]
    if unknown:
        raise CLIError(f"--tests: unknown test(s) {unknown}; valid names: {valid}")
    return names


# --------------------------------------------------------------------------
# Progress and output


class Progress:
    """Elapsed-time indicator on stderr while the fits run.

    On a terminal the line is refreshed in place; elsewhere (pipes, logs) it
    writes one line when fitting starts and one when it ends. When the block
    raises, it writes nothing more (the terminal line is wiped): the error
    is the caller's one line to report.
    """

    def __init__(self, message, *, stream=None, enabled=True, interval=0.25):
        self.message = message
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled
        self.interval = interval
        self._done = threading.Event()
        self._thread = None

    def _is_tty(self):
        return bool(getattr(self.stream, "isatty", lambda: False)())

    def _spin(self):
        frames = "|/-\\"
        tick = 0
        while not self._done.wait(self.interval):
            elapsed = time.perf_counter() - self._start
            self.stream.write(f"\r{frames[tick % 4]} {self.message} {elapsed:5.1f} s")
            self.stream.flush()
            tick += 1

    def __enter__(self):
        self._start = time.perf_counter()
        if not self.enabled:
            return self
        if self._is_tty():
            self._thread = threading.Thread(target=self._spin, daemon=True)
            self._thread.start()
        else:
            self.stream.write(f"{self.message} ...\n")
            self.stream.flush()
        return self

    def __exit__(self, *exc_info):
        self._done.set()
        if self._thread is not None:
            self._thread.join()
        if not self.enabled:
            return False
        if exc_info[0] is not None:
            # The caller reports the error in one line; on a terminal, wipe
            # the spinner so that line stands alone.
            if self._thread is not None:
                width = len(self.message) + 10
                self.stream.write("\r" + " " * width + "\r")
                self.stream.flush()
            return False
        elapsed = time.perf_counter() - self._start
        prefix = "\r" if self._thread is not None else ""
        self.stream.write(f"{prefix}{self.message} done in {elapsed:.1f} s\n")
        self.stream.flush()
        return False


def _plain(value):
    """A JSON-friendly copy of ``value`` (numpy scalars and arrays, tuples)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, np.generic):
        return _plain(value.item())
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return repr(value)


TEST_FIELDS = ("test", "statistic", "pvalue", "df", "reject", "alternative")


def result_to_dict(result, context):
    """The JSON document of ``--format json``."""
    document = dict(context)
    document["tests"] = {
        name: _plain(dict(test)) for name, test in result.tests.items()
    }
    for key in (
        "scores_a",
        "scores_b",
        "differences",
        "fit_time",
        "score_time",
        "tables",
    ):
        if result.get(key, None) is not None:
            document[key] = _plain(result[key])
    design = result.get("design", None)
    if hasattr(design, "describe"):
        document["design"] = design.describe()
    document["recommended_test"] = result.get("recommended_test", None)
    document["verdict"] = result.verdict.text
    document["decision"] = result.verdict.decision
    return document


def result_to_csv(result):
    """The CSV text of ``--format csv``: one row per test."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    extras = ("p_a_better", "p_rope", "p_b_better")
    writer.writerow(TEST_FIELDS + extras)
    for name, test in result.tests.items():
        row = []
        for field in TEST_FIELDS + extras:
            value = test.get(field, None) if field != "test" else name
            if isinstance(value, tuple | list):
                value = ";".join(str(_plain(v)) for v in value)
            row.append("" if value is None else _plain(value))
        writer.writerow(row)
    return buffer.getvalue()


def check_plot_path(path):
    """Fail before fitting when ``--plot`` cannot be written."""
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise CLIError("--plot needs matplotlib: pip install matplotlib") from None
    formats = FigureCanvasBase.get_supported_filetypes()
    suffix = path.suffix.lower().lstrip(".")
    if suffix and suffix not in formats:
        raise CLIError(
            f"--plot: unknown image format {path.suffix!r}; use one of "
            f"{', '.join('.' + f for f in sorted(formats))}"
        )
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise CLIError(f"--plot: no directory {str(parent)!r} to save {path.name} in")


def _plot_title(result, names):
    """One line above the --plot figure: the verdict, with the real names."""
    verdict = result.verdict
    if verdict.test is None or verdict.test not in result.tests:
        return f"A = {names[0]}, B = {names[1]}"
    decision = {
        "A better": f"significant: {names[0]} better",
        "B better": f"significant: {names[1]} better",
    }.get(verdict.decision, "no significant difference")
    p_text = "" if verdict.pvalue is None else f" (p = {verdict.pvalue:.3g})"
    return f"{verdict.test}{p_text}: {decision} at alpha = {result.alpha}"


def save_plot(result, path, names):
    """Save the summary figure of ``result`` to ``path``.

    Top row: the per-split differences and, when it was run, the posterior
    of the Bayesian correlated t test; bottom row (classifiers): the mean
    and effective contingency tables. The title is the verdict.
    """
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise CLIError("--plot needs matplotlib: pip install matplotlib") from None
    from .._plot import (
        ContingencyTableDisplay,
        PosteriorDisplay,
        ScoreDifferencesDisplay,
    )

    has_tables = result.get("tables", None) is not None
    has_posterior = "bayesian_correlated_t" in result.tests
    n_rows = 2 if has_tables else 1
    fig = Figure(figsize=(12, 4.2 + 3.6 * (n_rows - 1)), layout="constrained")
    grid = fig.add_gridspec(n_rows, 2, height_ratios=[1.15, 1][:n_rows])
    ScoreDifferencesDisplay.from_result(
        result,
        estimator_names=names,
        ax=fig.add_subplot(grid[0, 0] if has_posterior else grid[0, :]),
    )
    if has_posterior:
        PosteriorDisplay.from_result(
            result, estimator_names=names, ax=fig.add_subplot(grid[0, 1])
        )
    if has_tables:
        bcv = result.tests.get("bcv_mcnemar", None)
        n_panels = 2 if bcv is not None and "effective_table" in bcv else 1
        axes = [fig.add_subplot(grid[1, i]) for i in range(n_panels)]
        ContingencyTableDisplay.from_result(
            result, estimator_names=names, ax=axes, show_splits=False
        )
    fig.suptitle(_plot_title(result, names), fontsize="large")
    try:
        fig.savefig(path, dpi=100)
    except (OSError, ValueError) as exc:
        raise CLIError(f"--plot: cannot save {path}: {exc}") from None


def _estimator_name(estimator):
    from sklearn.pipeline import Pipeline

    while isinstance(estimator, Pipeline):
        estimator = estimator.steps[-1][1]
    return type(estimator).__name__


# --------------------------------------------------------------------------
# Main


def _load_data(args):
    if args.data is not None:
        columns, raw_y = read_csv(args.data, args.target, delimiter=args.delimiter)
        X, preprocessor = features_from_columns(columns)
        y, task = target_from_column(raw_y, args.task)
        description = f"{args.data} ({len(y)} records, target {args.target!r})"
        return X, y, task, description, preprocessor
    if args.target is not None:
        raise CLIError("--target is only used with --data FILE.csv")
    X, y, task, description = load_bundled(args.dataset or "breast_cancer")
    return X, y, task, description, None


def check_scoring(scoring, task):
    """Check ``--scoring`` before fitting, with the engine's own resolver."""
    if scoring is None:
        return
    from .._engine._scoring import resolve_scoring

    try:
        resolve_scoring(scoring, task)
    except ValueError as exc:
        raise CLIError(f"--scoring: {exc}") from None


def run(args, *, stdout, stderr):
    """Run the comparison the parsed ``args`` describe; return the result."""
    tests = parse_tests(args.tests)
    if args.plot is not None:
        check_plot_path(args.plot)
    X, y, task, description, preprocessor = _load_data(args)
    check_target(y, task)
    check_scoring(args.scoring, task)
    default_a, default_b = default_estimators(task, args.random_state)
    # What a named module prints while it is imported is not our output:
    # stderr, or nowhere with --quiet.
    chatter = io.StringIO() if args.quiet else stderr
    estimator_a = build_estimator(
        args.estimator_a, args.params_a, default_a, "a", stdout=chatter
    )
    estimator_b = build_estimator(
        args.estimator_b, args.params_b, default_b, "b", stdout=chatter
    )
    for estimator, side in ((estimator_a, "a"), (estimator_b, "b")):
        check_estimator_task(estimator, task, side)
    names = (_estimator_name(estimator_a), _estimator_name(estimator_b))
    if names[0] == names[1]:
        names = (f"A ({names[0]})", f"B ({names[1]})")
    cv = build_cv(args, task)
    estimator_a = with_preprocessor(estimator_a, preprocessor)
    estimator_b = with_preprocessor(estimator_b, preprocessor)

    from .._compare import compare_estimators

    n_splits = cv.get_n_splits(X, y)
    message = f"fitting {names[0]} and {names[1]} on {n_splits} splits of {description}"
    # The engine's and joblib's verbose messages go to stderr so that stdout
    # holds only the requested output (JSON and CSV stay parseable).
    show_progress = not args.quiet and not args.verbose
    with (
        Progress(message, stream=stderr, enabled=show_progress),
        contextlib.redirect_stdout(stderr),
    ):
        result = compare_estimators(
            estimator_a,
            estimator_b,
            X,
            y,
            cv=cv,
            tests=tests,
            scoring=args.scoring,
            alpha=args.alpha,
            alternative=args.alternative,
            n_jobs=args.n_jobs,
            verbose=args.verbose,
            random_state=args.random_state,
        )
    context = {
        "data": description,
        "task": task,
        "estimator_a": repr(estimator_a),
        "estimator_b": repr(estimator_b),
        "cv": repr(cv),
        "scoring": args.scoring,
        "alpha": args.alpha,
        "alternative": args.alternative,
        "random_state": args.random_state,
    }
    if args.format == "json":
        stdout.write(json.dumps(result_to_dict(result, context), indent=2) + "\n")
    elif args.format == "csv":
        stdout.write(result_to_csv(result))
    else:
        stdout.write(
            f"A: {estimator_a!r}\nB: {estimator_b!r}\n"
            f"data: {description}\ncv: {cv!r}\n\n{result}\n"
        )
    stdout.flush()
    if args.plot is not None:
        save_plot(result, args.plot, names)
        if not args.quiet:
            stderr.write(f"plot saved to {args.plot}\n")
    return result


def _list_tests(stdout):
    from ..stats._registry import available_tests, get_test_info

    for name in available_tests():
        needs, design = get_test_info(name)
        stdout.write(f"{name:24s} design={design:8s} needs={','.join(needs)}\n")


def _one_line(exc):
    """The message of ``exc`` as one line for ``error: ...``."""
    # sklearn's validate_params re-attributes an estimator's parameter error
    # to the decorated function (compare_estimators); the estimator's own
    # message, kept as the cause, names the class whose parameter is wrong.
    cause = exc.__cause__
    if isinstance(exc, InvalidParameterError) and isinstance(
        cause, InvalidParameterError
    ):
        exc = cause
    text = " ".join(str(exc).split())
    if isinstance(exc, CLIError | ValueError | TypeError | OSError | ImportError):
        return text or type(exc).__name__
    # Anything else is unexpected: say what kind of error it was.
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _write_warnings(caught, stderr):
    """Each distinct warning once, on one line."""
    seen = set()
    for warning in caught:
        text = f"warning: {' '.join(str(warning.message).split())}"
        if text not in seen:
            seen.add(text)
            stderr.write(text + "\n")


def _silence_broken_stdout(stdout):
    """After EPIPE (``sklearn-bcv ... | head``), stop Python's exit-time flush
    of sys.stdout from printing a second error."""
    if stdout is sys.stdout:
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())


def main(argv=None, *, stdout=None, stderr=None):
    """Entry point of ``sklearn-bcv``; returns the exit status.

    Parameters
    ----------
    argv : list of str, default=None
        The arguments; None reads ``sys.argv[1:]``.
    stdout, stderr : file-like, default=None
        Where to write; None means ``sys.stdout`` / ``sys.stderr``.

    Returns
    -------
    status : int
        0 on success, 1 when the comparison cannot run, 2 on a usage error,
        130 when interrupted (Ctrl-C). Every error is reported as one line
        ``error: ...`` on ``stderr``, after any warnings.
    """
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    parser = build_parser()
    try:
        try:
            # --help and --version print to sys.stdout; send them to ``stdout``.
            with contextlib.redirect_stdout(stdout):
                args = parser.parse_args(argv)
        except SystemExit as exit_:  # --help and --version
            return exit_.code if isinstance(exit_.code, int) else 0
    except CLIError as exc:
        stderr.write(f"error: {_one_line(exc)}\n")
        return 2
    if args.tests == "list":
        _list_tests(stdout)
        return 0
    error, status = None, 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            run(args, stdout=stdout, stderr=stderr)
        except BrokenPipeError:
            _silence_broken_stdout(stdout)
            return 1
        except KeyboardInterrupt:
            error, status = "interrupted", 130
        except Exception as exc:  # every failure ends in one line, no traceback
            error, status = _one_line(exc), 1
    if not args.quiet:
        _write_warnings(caught, stderr)
    if error is not None:
        stderr.write(f"error: {error}\n")
    return status
