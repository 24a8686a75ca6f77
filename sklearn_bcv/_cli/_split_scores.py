"""``sklearn-bcv scores FILE.csv --splits --cv SPEC``: split scores of ONE data set.

The command-line face of :func:`sklearn_bcv.compare_split_scores`: the rows
of the table are the splits of one data set (what ``cross_validate`` or a
search recorded), not data sets, so the tests across data sets do not
apply; the tests of score differences recommended for the design do, the
design given by ``--cv SPEC`` (the splitter that made the splits) or by
``--n-train`` and ``--n-test``. The table is

* **wide**: one row per split (its first column a label or index, in split
  order), one column per estimator;
* **long**: columns ``split``, ``estimator`` and one score column
  (``--score-column NAME``, or the only other one); a ``dataset`` column,
  if any, must hold one data set.

The output (text, JSON, CSV, ``--report``, ``--plot``) is that of ``many``.
"""

import dataclasses

import numpy as np

from .._engine._split_scores import SplitTableError
from . import _scores
from ._args import CLIError, UsageError, parse_tests
from ._output import (
    check_plot_path,
    result_document,
    result_table,
    save_figure,
    write_result,
)
from ._scores import (
    OPTION,
    SPLIT_COLUMN,
    _cell_value,
    _check_header,
    _check_width,
    _listed,
    _read_long,
    _read_rows,
)
from ._seed import record_seed

__all__ = ["COMMAND", "cv_of_spec", "read_split_scores", "run"]

#: The forms of ``--cv SPEC``, for the help and the messages.
CV_SPECS = (
    "5x2 or Mx2 (block-regularized M×2 CV)",
    "K or kfold:K (K-fold CV)",
    "RxK, K >= 3, or repeated:RxK (R repetitions of K-fold CV; repeated:Rx2 "
    "is Dietterich's random R×2 CV)",
    "shuffle:N:F (N random hold-out splits, a fraction F tested)",
)


def add_split_arguments(group):
    """``--splits`` and ``--cv SPEC`` of ``scores``."""
    group.add_argument(
        "--splits",
        action="store_true",
        help="the rows are the splits of ONE data set (per-split scores, as "
        "cross_validate records them), not data sets: compare them with the "
        "tests of score differences of the design (compare_split_scores); "
        "needs --cv SPEC, or --n-train and --n-test",
    )
    group.add_argument(
        "--cv",
        metavar="SPEC",
        default=None,
        help="with --splits, the splitter that made the splits: " + "; ".join(CV_SPECS),
    )


def _positive_int(text, spec, what):
    if not text.isdigit() or int(text) < 1:
        raise UsageError(f"--cv {spec}: {what} must be a positive integer")
    return int(text)


def cv_of_spec(spec):
    """The splitter of ``--cv SPEC`` (its design is all that matters)."""
    from sklearn.model_selection import KFold, RepeatedKFold, ShuffleSplit

    from .._split import BlockRegularizedMx2CV

    text = spec.strip().lower()
    kind, _, rest = text.partition(":")
    try:
        if kind == "kfold" or (not rest and text.isdigit()):
            k = _positive_int(rest or text, spec, "the number of folds")
            return KFold(k)
        if kind == "bcv":
            return BlockRegularizedMx2CV(_positive_int(rest, spec, "M"))
        if kind == "shuffle":
            n, _, fraction = rest.partition(":")
            test = float(fraction)
            if not 0 < test < 1:
                raise ValueError
            return ShuffleSplit(_positive_int(n, spec, "N"), test_size=test)
        repeated = kind == "repeated"
        form = rest if repeated else text
        repeats, sep, folds = form.partition("x")
        if sep:
            r = _positive_int(repeats, spec, "the repetitions")
            k = _positive_int(folds, spec, "the folds")
            if k == 2 and not repeated:
                return BlockRegularizedMx2CV(r)
            if k < 2:
                raise ValueError
            return RepeatedKFold(n_splits=k, n_repeats=r)
    except ValueError:
        pass
    raise UsageError(f"--cv {spec!r}: expected one of: {'; '.join(CV_SPECS)}")


def _read_wide_splits(header, body, path, decimal_comma):
    names = header[1:]
    if not names or any(name == "" for name in names):
        raise UsageError(
            f"{OPTION}: in a wide table of split scores every column after the "
            f"first (the split) names an estimator; {path} has an unnamed one"
        )
    rows = []
    for line, row in body:
        rows.append(
            [
                _cell_value(
                    cell, path=path, line=line, column=name, decimal_comma=decimal_comma
                )
                for name, cell in zip(names, row[1:])
            ]
        )
    return rows, names, [row[0] for _, row in body], None


def _read_long_splits(header, body, path, score_column, decimal_comma):
    """A long table of split scores, read as the long table of ``scores``
    with one data set (a ``dataset`` column is added when there is none)."""
    lowered = [column.lower() for column in header]
    if "dataset" not in lowered:
        header = [*header, "dataset"]
        body = [(line, [*row, "one data set"]) for line, row in body]
    if SPLIT_COLUMN not in lowered:
        raise UsageError(
            f"{OPTION}: a long table of split scores has a column {SPLIT_COLUMN!r}; "
            f"columns are {_listed(header)}"
        )
    table, names, column, _ = _read_long(
        header,
        body,
        path,
        score_column=score_column,
        decimal_comma=decimal_comma,
    )
    if len(table) > 1:
        raise UsageError(
            f"{OPTION}: --splits compares the splits of ONE data set; {path} has "
            f"{len(table)} ({_listed(table)}); drop --splits to compare across "
            "data sets"
        )
    (cells,) = table.values()
    splits = list(dict.fromkeys(split for value in cells.values() for split in value))
    rows = [[cells.get(name, {}).get(split) for name in names] for split in splits]
    return rows, names, splits, column


def read_split_scores(path, *, layout, score_column, delimiter):
    """``(scores (n_splits, k), names, split labels, layout, score column)``."""
    rows, delimiter = _read_rows(path, delimiter)
    (_, header), body = rows[0], rows[1:]
    _check_header(header, path)
    if not body:
        raise UsageError(f"{OPTION}: {path} has a header but no rows of scores")
    _check_width(body, len(header), path)
    lowered = [name.lower() for name in header]
    if layout == "auto":
        layout = (
            "long" if SPLIT_COLUMN in lowered and "estimator" in lowered else "wide"
        )
    decimal_comma = delimiter == ";"
    if layout == "wide":
        if score_column is not None:
            raise UsageError("--score-column names the score column of a long table")
        values, names, splits, column = _read_wide_splits(
            header, body, path, decimal_comma
        )
    else:
        values, names, splits, column = _read_long_splits(
            header, body, path, score_column, decimal_comma
        )
    for split, row in zip(splits, values):
        lacking = [name for name, value in zip(names, row) if value is None]
        if lacking:
            raise UsageError(
                f"{OPTION}: split {split!r} lacks a score of {_listed(lacking)}; "
                "every estimator needs a score on every split"
            )
    if len(names) < 2 or len(splits) < 2:
        raise UsageError(
            f"{OPTION}: {path} has {len(splits)} split(s) and {len(names)} "
            "estimator(s); comparing needs at least 2 of each"
        )
    return np.array(values, dtype=float), names, splits, layout, column


def run_splits(args, *, stdout, stderr):
    """Run ``scores --splits``; return the result."""
    if args.cv is None and (args.n_train is None or args.n_test is None):
        raise UsageError(
            "--splits needs the design of the splits: --cv SPEC (the splitter that "
            "made them, e.g. --cv 5x2 or --cv 10x10) or --n-train and --n-test"
        )
    if (args.n_train is None) != (args.n_test is None):
        raise UsageError("--n-train and --n-test go together; give both")
    cv = None if args.cv is None else cv_of_spec(args.cv)
    tests = parse_tests(args.tests, kind="many")
    pairwise_tests = parse_tests(args.pairwise_tests, option="--pairwise-tests")
    plot_path = None if args.plot is None else check_plot_path(args.plot)
    scores, names, splits, layout, column = read_split_scores(
        args.file,
        layout=args.layout,
        score_column=args.score_column,
        delimiter=args.delimiter,
    )
    if args.control is not None and args.control not in names:
        raise UsageError(
            f"--control: no estimator {args.control!r} in {args.file}; "
            f"estimators are {_listed(names)}"
        )

    from .._split_scores import compare_split_scores

    try:
        result = compare_split_scores(
            scores,
            cv=cv,
            n_train=args.n_train,
            n_test=args.n_test,
            names=names,
            greater_is_better=not args.lower_is_better,
            tests=tests,
            pairwise_tests=pairwise_tests,
            correction=None if args.correction == "none" else args.correction,
            control=args.control,
            rope=args.rope,
            alpha=args.alpha,
            alternative=args.alternative,
            random_state=args.random_state,
            scoring=column,
        )
    except ValueError as exc:
        raise CLIError(str(exc)) from None
    context = {
        "file": str(args.file),
        "layout": layout,
        "score_column": column,
        "cv": None if cv is None else repr(cv),
        "greater_is_better": not args.lower_is_better,
        "alpha": args.alpha,
        "alternative": args.alternative,
        "correction": result.correction,
        "control": result.control,
        "rope": args.rope,
        "random_state": args.random_state,
    }
    record_seed(result, args, stderr)  # a seed drawn: said and recorded
    design = (
        f"cv: {cv!r}"
        if cv is not None
        else (f"n_train {args.n_train:g}, n_test {args.n_test:g}")
    )
    header = (
        f"scores: {args.file} ({layout} table; {len(splits)} splits of one data set "
        f"× {len(names)} estimators); {design}\n\n"
    )
    show = "all" if args.all_tests else "default"
    write_result(
        stdout,
        args.format,
        document=lambda: result_document(result, context),
        table=lambda: result_table(result),
        text=lambda: f"{header}{result.summary(show=show)}\n",
    )
    if plot_path is not None:
        from ._many import plot_figure

        save_figure(plot_figure(result), plot_path, args=args, stderr=stderr)
    return result


# --------------------------------------------------------------------------
# ``scores`` with ``--splits``: the subcommand of :mod:`._scores`, extended


def add_arguments(parser):
    """The options of ``scores``, and ``--splits`` / ``--cv``."""
    _scores.add_arguments(parser)
    add_split_arguments(parser.add_argument_group("per-split scores of one data set"))


def run(args, *, stdout, stderr):
    """``scores``: across data sets, or with ``--splits`` the splits of one."""
    if args.splits:
        return run_splits(args, stdout=stdout, stderr=stderr)
    if args.cv is not None:
        raise UsageError("--cv SPEC describes the splits of --splits; add --splits")
    try:
        return _scores.run(args, stdout=stdout, stderr=stderr)
    except SplitTableError as exc:
        raise UsageError(
            f"{OPTION}: {exc} On the command line: add --splits --cv SPEC."
        ) from None


COMMAND = dataclasses.replace(
    _scores.COMMAND,
    description=_scores.COMMAND.description
    + " With --splits, the rows are the splits of ONE data set (per-split "
    "scores of k estimators, as cross_validate or a search records them): "
    "the tests of score differences of the design given by --cv SPEC "
    "(compare_split_scores).",
    examples=(
        *_scores.COMMAND.examples,
        "sklearn-bcv scores split_scores.csv --splits --cv 5x2",
        "sklearn-bcv scores split_scores.csv --splits --cv 10x10 --alternative greater",
    ),
    add_arguments=add_arguments,
    run=run,
)
