"""Data of the command line: bundled scikit-learn data sets and CSV files.

The options ``--dataset`` / ``--data FILE.csv --target COLUMN`` (with
``--delimiter`` and ``--task``) are the same for every subcommand;
:func:`load_data` turns them into features, target, task and, for a CSV file
with categorical or missing values, the preprocessor every estimator is
fitted behind. A CSV file is read with the :mod:`csv` module, nothing is
evaluated, and every problem is one :class:`CLIError` before any fitting.

Every file the command line reads goes through :func:`open_bounded`: a
regular file only (not a directory, pipe, device or socket, which could
block or never end), at most :data:`MAX_FILE_BYTES` bytes, in lines of at
most :data:`MAX_LINE_CHARS` characters, UTF-8 text without NUL bytes.
"""

import argparse
import contextlib
import csv
import itertools
import os
import stat
from pathlib import Path
from typing import NamedTuple

import numpy as np
from sklearn import datasets
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.multiclass import type_of_target

from ._args import CLIError
from ._files import checked_path

__all__ = [
    "DATASETS",
    "Data",
    "TableFeatures",
    "add_data_arguments",
    "check_target",
    "features_from_columns",
    "load_bundled",
    "load_data",
    "open_bounded",
    "read_csv",
    "read_table",
    "target_from_column",
]

#: Bundled scikit-learn loaders the CLI offers, and their task.
DATASETS = {
    "breast_cancer": ("load_breast_cancer", "classification"),
    "iris": ("load_iris", "classification"),
    "wine": ("load_wine", "classification"),
    "digits": ("load_digits", "classification"),
    "diabetes": ("load_diabetes", "regression"),
}

#: A numeric target with more distinct values than this is a regression task.
MAX_CLASSES = 20

#: Most distinct values of a non-numeric feature column: each becomes a
#: one-hot column, dense, in every fit; a column with more (an identifier, a
#: free-text field, a numeric column with a typo) is reported instead.
MAX_CATEGORIES = 1000

#: Most columns of the encoded feature matrix, all columns together (each
#: numeric column is one, each non-numeric column one per distinct value):
#: the per-column limit alone lets 60 columns of 1,000 values make a 60,000
#: column matrix. Checked when the file is loaded, before any fit.
MAX_ENCODED_COLUMNS = 5000

#: Largest encoded feature matrix (records x encoded columns, float64), in
#: bytes (1 GiB); every fit holds a copy of it.
MAX_ENCODED_BYTES = 2**30

#: Largest file the command line reads, in bytes (256 MiB). The whole table
#: is held as Python strings and then as arrays, several times its size in
#: memory, and every estimator is fitted on it 10 times or more: a larger
#: file is a job for the library (:func:`sklearn_bcv.compare_estimators`),
#: not a reason to let ``--data /dev/zero`` fill the memory.
MAX_FILE_BYTES = 256 * 2**20

#: Longest line the command line reads, in characters, its end included
#: (1 MiB): room for some 100,000 columns, while a file without line breaks
#: is stopped early.
MAX_LINE_CHARS = 2**20

#: What a file that is not a regular one is, for the error message.
_FILE_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


# --------------------------------------------------------------------------
# Options


def _delimiter(text):
    """An argparse type: one character (the csv module's delimiter)."""
    if text in ("\\t", "tab"):
        return "\t"
    if len(text) != 1:
        raise argparse.ArgumentTypeError(
            f"expected one character (or 'tab'); got {text!r}"
        )
    if text in '"\r\n\0' or text.isalnum():
        raise argparse.ArgumentTypeError(
            f"expected a separator such as ',', ';' or 'tab'; got {text!r} (a "
            "quote, line break, NUL, letter or digit cannot separate fields)"
        )
    return text


def add_data_arguments(parser):
    """``--dataset`` or ``--data`` with ``--target``, ``--delimiter``, ``--task``."""
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
        help="a CSV file (UTF-8) with a header row; non-numeric feature columns "
        "are one-hot encoded, empty cells of numeric columns imputed; a "
        f"regular file of at most {MAX_FILE_BYTES // 2**20} MiB with lines of "
        f"at most {MAX_LINE_CHARS // 2**20} MiB",
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
    return data


# --------------------------------------------------------------------------
# Loading


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


def _mib(n_bytes):
    return f"{n_bytes / 2**20:.0f} MiB" if n_bytes >= 2**20 else f"{n_bytes:,} bytes"


def _file_kind(mode):
    """What a file that is not regular is (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in _FILE_KINDS if test(mode)), "not a file")


def _check_regular(info, path, option):
    kind = _file_kind(info.st_mode)
    if kind is not None:
        raise CLIError(
            f"{option}: {path} is {kind}, not a regular file; give a CSV file"
        )
    if info.st_size > MAX_FILE_BYTES:
        raise CLIError(
            f"{option}: {path} has {info.st_size:,} bytes; the limit is "
            f"{_mib(MAX_FILE_BYTES)} ({MAX_FILE_BYTES:,} bytes)"
        )


def _open_regular(path, option):
    """A text handle on the regular file ``path``, checked before reading.

    The path is checked before it is opened (opening a named pipe waits for
    a writer; opening a device may act on it) and the opened file again
    (the path may have changed in between); it is opened without blocking.
    """
    if str(path) == "-":
        raise CLIError(
            f"{option}: reading standard input ('-') is not supported; give a file"
        )
    path = checked_path(path, option)
    try:
        _check_regular(os.stat(path), path, option)
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise CLIError(f"{option}: file not found: {path}") from None
    except OSError as exc:
        raise CLIError(f"{option}: cannot open {path}: {exc.strerror or exc}") from None
    try:
        _check_regular(os.fstat(fd), path, option)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return open(fd, encoding="utf-8-sig", newline="")
    except BaseException:
        os.close(fd)
        raise


def _bounded_lines(handle, path, option):
    """The lines of ``handle``, stopped at the first one over a limit."""
    total = 0
    for number in itertools.count(1):
        try:
            line = handle.readline(MAX_LINE_CHARS + 1)
        except UnicodeDecodeError as exc:
            # Decoded ahead in chunks: the byte is known, not its line.
            byte = exc.object[exc.start : exc.start + 1].hex()
            raise CLIError(
                f"{option}: {path} is not UTF-8 text (it holds the byte "
                f"0x{byte}); give a CSV text file, saved as UTF-8"
            ) from None
        if not line:
            return
        if len(line) > MAX_LINE_CHARS:
            raise CLIError(
                f"{option}: line {number} of {path} is longer than "
                f"{MAX_LINE_CHARS:,} characters, the limit"
            )
        total += len(line)
        if total > MAX_FILE_BYTES:  # a file that grows while it is read
            raise CLIError(
                f"{option}: {path} is larger than {_mib(MAX_FILE_BYTES)}, the limit"
            )
        if "\0" in line:
            raise CLIError(
                f"{option}: line {number} of {path} holds a NUL byte: binary "
                "data, not CSV text"
            )
        yield line


@contextlib.contextmanager
def open_bounded(path, option):
    """Open ``path`` for reading as bounded lines of text.

    The one way the command line reads a file: only a regular file (a
    directory, named pipe, device or socket is refused before anything is
    read), of at most :data:`MAX_FILE_BYTES` bytes, UTF-8 text (a BOM is
    skipped) without NUL bytes, in lines of at most :data:`MAX_LINE_CHARS`
    characters. Every problem is a :class:`CLIError` naming ``option``.

    Yields
    ------
    lines : iterator of str
        The lines, their ends kept (for :func:`csv.reader`).
    """
    with _open_regular(path, option) as handle:
        try:
            yield _bounded_lines(handle, path, option)
        except OSError as exc:
            raise CLIError(
                f"{option}: cannot read {path}: {exc.strerror or exc}"
            ) from None


def _columns_text(header, limit=20):
    """The header for a message, shortened when it is long."""
    if len(header) <= limit:
        return str(header)
    return f"{header[:limit]} and {len(header) - limit} more"


def read_csv(path, target, *, delimiter=","):
    """Read a CSV file into features and target with the csv module.

    The file is read through :func:`open_bounded` (regular file, size and
    line bounds).

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
        with open_bounded(path, "--data") as lines:
            rows = [
                row
                for row in csv.reader(lines, delimiter=delimiter)
                if any(cell.strip() for cell in row)
            ]
    except csv.Error as exc:
        raise CLIError(f"--data: cannot read {path} as CSV: {exc}") from None
    if not rows:
        raise CLIError(f"--data: {path} is empty")
    header = [name.strip() for name in rows[0]]
    if target not in header:
        raise CLIError(
            f"--target: no column {target!r} in {path}; columns are "
            f"{_columns_text(header)}"
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
    """Reject infinite numbers (no imputer or estimator accepts them) and
    written NaN: a missing value is an empty cell, said one way."""
    for (name, raw), column in zip(columns.items(), parsed):
        if column is None:
            continue
        written = np.asarray(raw, dtype=object) != ""
        bad = np.flatnonzero(~np.isfinite(np.asarray(column, dtype=float)) & written)
        if bad.size:
            text = raw[bad[0]]
            what = "an infinite value" if np.isinf(column[bad[0]]) else "a NaN"
            raise CLIError(
                f"--data: column {name!r} holds {what} ({text!r}, row "
                f"{bad[0] + 2}); use an empty cell for a missing value"
            )


def _check_categories(columns, parsed):
    """Reject a non-numeric column with more than :data:`MAX_CATEGORIES`
    distinct values, naming its first cell that is not a number."""
    for (name, raw), column in zip(columns.items(), parsed):
        if column is not None:
            continue
        n_values = len(set(raw))
        if n_values > MAX_CATEGORIES:
            row, text = next(
                (row, text)
                for row, text in enumerate(raw, start=2)
                if text != "" and _parse_float(text) is None
            )
            raise CLIError(
                f"--data: column {name!r} is not numeric ({text!r} in row {row}) "
                f"and has {n_values:,} distinct values, more than the "
                f"{MAX_CATEGORIES:,} one-hot encoding takes; drop the column "
                "or fix its cells"
            )


def _check_encoded_size(columns, parsed):
    """Reject data whose encoded feature matrix would be too wide
    (:data:`MAX_ENCODED_COLUMNS`) or too large (:data:`MAX_ENCODED_BYTES`),
    and data whose feature columns are all empty (nothing to fit on)."""
    if all(all(value == "" for value in raw) for raw in columns.values()):
        raise CLIError(
            "--data: every feature column is empty; there is nothing to fit on"
        )
    width = sum(
        1 if column is not None else len(set(raw) - {""})
        for raw, column in zip(columns.values(), parsed)
    )
    n_records = len(next(iter(columns.values())))
    n_bytes = n_records * width * 8
    if width > MAX_ENCODED_COLUMNS or n_bytes > MAX_ENCODED_BYTES:
        raise CLIError(
            f"--data: one-hot encoding makes {width:,} feature columns for "
            f"{n_records:,} records ({n_bytes / 2**30:.2f} GiB); at most "
            f"{MAX_ENCODED_COLUMNS:,} columns and "
            f"{MAX_ENCODED_BYTES // 2**30} GiB are taken; drop or merge "
            "non-numeric columns"
        )


def _is_number_column(values):
    """Whether a column of a table holds numbers (floats, NaN for an empty
    cell) rather than text."""
    array = np.asarray(values)
    if array.dtype.kind in "fiu":
        return True
    return all(
        isinstance(v, float | int | np.floating | np.integer)
        and not isinstance(v, bool)
        for v in array
    )


class TableFeatures(TransformerMixin, BaseEstimator):
    """The features of a CSV file as the command line fits on them.

    Columns of numbers pass, their empty cells (NaN) imputed with the
    median of the training records; columns of text are one-hot encoded
    (a category the training records lack: all zeros). What is numeric is
    read off the table at :meth:`fit`, so one instance serves files of any
    layout: ``many --data`` and every data set of ``benchmark --datasets``
    (a bundled data set, all numbers, passes unchanged). Fitted on each
    split's training records only, it learns nothing from the test records.

    Attributes
    ----------
    numeric_columns_, categorical_columns_ : list of int
        The columns of each kind.
    transformer_ : ColumnTransformer
        The fitted imputer and encoder.
    """

    def fit(self, X, y=None):
        from sklearn.compose import ColumnTransformer
        from sklearn.impute import SimpleImputer
        from sklearn.preprocessing import OneHotEncoder

        X = self._table(X)
        self.numeric_columns_ = [
            j for j in range(X.shape[1]) if _is_number_column(X[:, j])
        ]
        self.categorical_columns_ = [
            j for j in range(X.shape[1]) if j not in self.numeric_columns_
        ]
        transformers = []
        if self.numeric_columns_:
            imputer = SimpleImputer(strategy="median", keep_empty_features=True)
            transformers.append(("numeric", imputer, self.numeric_columns_))
        if self.categorical_columns_:
            encoder = OneHotEncoder(handle_unknown="ignore")
            transformers.append(("categorical", encoder, self.categorical_columns_))
        self.transformer_ = ColumnTransformer(transformers, sparse_threshold=0)
        self.transformer_.fit(X)
        return self

    def transform(self, X):
        return np.asarray(self.transformer_.transform(self._table(X)), dtype=float)

    @staticmethod
    def _table(X):
        X = np.asarray(X, dtype=object if not isinstance(X, np.ndarray) else None)
        return X.reshape(len(X), -1) if X.ndim == 1 else X


def features_from_columns(columns):
    """Turn raw string columns into ``(X, preprocessor)``.

    Numeric columns become floats (empty cells NaN); the others stay
    strings. ``preprocessor`` (:class:`TableFeatures`) imputes the empty
    cells and one-hot encodes the text columns in every fit; it is None
    when every column is numeric and complete (then ``X`` is a float
    array).
    """
    parsed = [_numeric_column(values) for values in columns.values()]
    _check_finite_features(columns, parsed)
    _check_categories(columns, parsed)
    _check_encoded_size(columns, parsed)
    numeric = [j for j, col in enumerate(parsed) if col is not None]
    categorical = [j for j, col in enumerate(parsed) if col is None]
    X = np.array(
        [col if col is not None else raw for col, raw in zip(parsed, columns.values())],
        dtype=object,
    ).T
    has_missing = any(np.isnan(parsed[j]).any() for j in numeric)
    if not categorical and not has_missing:
        return X.astype(float), None
    return X, TableFeatures()


def read_table(path, target, *, task="auto", delimiter=","):
    """A CSV file as the command line fits on it, for ``many --data`` and
    ``benchmark --datasets PATH.csv:TARGET`` alike: ``(X, y, task,
    preprocessor)``, read by :func:`read_csv`, its features by
    :func:`features_from_columns` (``preprocessor``: a
    :class:`TableFeatures` when a column is text or has empty cells, else
    None), its target by :func:`target_from_column`, checked."""
    columns, raw_y = read_csv(path, target, delimiter=delimiter)
    X, preprocessor = features_from_columns(columns)
    y, task = target_from_column(raw_y, task)
    check_target(y, task)
    return X, y, task, preprocessor


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
        row = int(np.flatnonzero(~np.isfinite(values))[0])
        raise CLIError(
            f"--target: the target column holds non-finite values (nan or inf): "
            f"{y[row]!r} in row {row + 2}; every record needs a finite target"
        )
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


class Data(NamedTuple):
    """What :func:`load_data` returns."""

    X: object
    y: object
    task: str
    description: str
    preprocessor: object


def load_data(args):
    """Load and check the data the options name: a :class:`Data`."""
    if args.data is not None:
        X, y, task, preprocessor = read_table(
            args.data, args.target, task=args.task, delimiter=args.delimiter
        )
        description = f"{args.data} ({len(y)} records, target {args.target!r})"
    else:
        if args.target is not None:
            raise CLIError("--target is only used with --data FILE.csv")
        X, y, task, description = load_bundled(args.dataset or "breast_cancer")
        preprocessor = None
        check_target(y, task)
    return Data(X, y, task, description, preprocessor)
