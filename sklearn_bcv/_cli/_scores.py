"""``sklearn-bcv scores FILE.csv``: the analysis of a results table you have.

The command-line face of :func:`sklearn_bcv.compare_scores`: nothing is
fitted. The file is read through the command line's bounded reader
(:func:`._data.open_bounded`) and parsed here into a score table, in one of
two layouts (:func:`read_scores`):

* **wide**: one row per data set, its first column the data set's name (or
  an index), every other column an estimator;
* **long**: one row per score, with the columns ``dataset``, ``estimator``,
  optionally ``split`` or ``run``, and one score column (``--score-column
  NAME``, or the only other column). With ``split`` the per-split scores are
  passed to :func:`~sklearn_bcv.compare_scores` as an (n_datasets, n_splits,
  k) array; with ``run`` (several runs per cell, e.g. random seeds) as an
  (n_datasets, k, n_runs) array with ``runs=True``.

A missing score (an empty cell, or no row) is a hole: ``--missing`` says
what to do with it, as ``compare_scores(missing=...)`` (one reader of
holes for both, :mod:`sklearn_bcv._engine._incomplete`).

``--layout auto`` (the default) reads a table whose header has both a
``dataset`` and an ``estimator`` column (any case) as long, any other as
wide. Every problem with the file is a usage error (status 2) naming the
row and column at fault. The output (text, JSON, CSV, ``--plot``) is that of
``benchmark``, from the same functions.
"""

import argparse
import csv
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import numpy as np

from .._engine._incomplete import array_from_cells, describe_holes, lacking_cells
from ._across import (
    add_effect_sizes_argument,
    add_replicability_argument,
    effect_size_intervals,
    list_tests_of,
    parse_test_options,
    plot_figure,
    replicability_option,
    result_to_csv,
    result_to_dict,
    rope_width,
    score_lines,
)
from ._args import (
    CORRECTIONS,
    MAX_SEED,
    CLIError,
    Subcommand,
    UsageError,
    add_output_arguments,
    add_tests_argument,
    int_in,
    probability,
)
from ._data import _delimiter, open_bounded
from ._output import check_plot_path, save_figure, write_result
from ._seed import record_seed

__all__ = ["COMMAND", "ScoreFile", "read_scores", "run"]

#: The columns that make a table long (compared case-insensitively).
LONG_COLUMNS = ("dataset", "estimator")
SPLIT_COLUMN = "split"
RUN_COLUMN = "run"

#: How the CLI names the file in its messages.
OPTION = "FILE"

#: Most estimators a table may have: every pair is tested, k (k - 1) / 2 of
#: them (19,900 for 200, some 20 s on one core); a file of thousands of
#: columns would run for hours. Larger studies are a job for the library.
MAX_ESTIMATORS = 200

#: How many names a message lists before "and N more".
SHOWN = 10


class ScoreFile(NamedTuple):
    """A results table read by :func:`read_scores`.

    ``scores`` is (n_datasets, k), or (n_datasets, n_splits, k) when a long
    table has a ``split`` column, or (n_datasets, k, n_runs) with a ``run``
    column (``per``), NaN where a score is missing; ``dropped`` lists the
    data sets ``missing="drop"`` leaves out (``datasets`` lists them all:
    :func:`~sklearn_bcv.compare_scores` drops them, and says so).
    """

    scores: np.ndarray
    names: list
    datasets: list
    layout: str
    score_column: str | None
    dropped: list
    per: str | None = None
    labels: list | None = None


def _listed(items):
    items = [str(item) for item in items]
    if len(items) <= SHOWN:
        return ", ".join(items)
    return f"{', '.join(items[:SHOWN])} and {len(items) - SHOWN} more"


def _read_rows(path, delimiter):
    """The non-blank rows of ``path`` (header first) and the delimiter used.

    ``delimiter=None`` (``--delimiter auto``) takes the first of ``,``,
    ``;`` and tab that occurs in the header line, else ``,``.
    """
    try:
        with open_bounded(path, OPTION) as lines:
            lines = iter(lines)
            first = next(lines, "")
            if delimiter is None:
                delimiter = next((d for d in ",;\t" if d in first), ",")
            reader = csv.reader(_chain(first, lines), delimiter=delimiter, strict=True)
            rows = [
                (number, [cell.strip() for cell in row])
                for number, row in enumerate(reader, start=1)
                if any(cell.strip() for cell in row)
            ]
    except csv.Error as exc:
        raise UsageError(f"{OPTION}: cannot read {path} as CSV: {exc}") from None
    except UsageError:
        raise
    except CLIError as exc:  # a missing, special, binary or huge file
        raise UsageError(str(exc)) from None
    if not rows:
        raise UsageError(f"{OPTION}: {path} is empty")
    return rows, delimiter


def _chain(first, lines):
    if first:
        yield first
    yield from lines


def _number(text, *, decimal_comma):
    """The finite float of a cell, or None."""
    if decimal_comma and "," in text and "." not in text:
        text = text.replace(",", ".", 1)
    try:
        value = float(text)
    except ValueError:
        return None
    return value if np.isfinite(value) else None


def _cell_value(text, *, path, line, column, decimal_comma):
    """The score in a cell; a usage error naming the row and column if it
    is not a finite number (None for an empty cell: a missing score)."""
    if text == "":
        return None
    value = _number(text, decimal_comma=decimal_comma)
    if value is None:
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise UsageError(
            f"{OPTION}: row {line} of {path}, column {column!r}: {shown!r} is "
            "not a finite number; every score must be one"
        )
    return value


def _check_header(header, path):
    if len(set(header)) != len(header):
        repeated = sorted(name for name, n in Counter(header).items() if n > 1)
        raise UsageError(
            f"{OPTION}: {path} has duplicate column names: {_listed(repeated)}"
        )


def _check_width(rows, width, path):
    for line, row in rows:
        if len(row) != width:
            raise UsageError(
                f"{OPTION}: row {line} of {path} has {len(row)} fields; the "
                f"header has {width}"
            )


def _detect_layout(header, layout):
    lowered = [name.lower() for name in header]
    if layout == "auto":
        return "long" if all(c in lowered for c in LONG_COLUMNS) else "wide"
    return layout


def _read_wide(header, body, path, *, decimal_comma):
    """``{dataset: {estimator: score}}`` of a wide table."""
    names = header[1:]
    if any(name == "" for name in names):
        column = names.index("") + 2
        raise UsageError(
            f"{OPTION}: column {column} of {path} has no name; in a wide table "
            "every column after the first names an estimator"
        )
    labels = [row[0] for _, row in body]
    if labels and all(
        (value := _number(label, decimal_comma=decimal_comma)) is not None
        and value != int(value)
        for label in labels
    ):
        raise UsageError(
            f"{OPTION}: the first column of {path} ({header[0]!r}) holds "
            f"scores ({labels[0]!r}, ...), but in a wide table it names the "
            "data sets; add a first column of data set names (or an index)"
        )
    table, lines = {}, {}
    for line, row in body:
        dataset = row[0]
        if dataset == "":
            raise UsageError(
                f"{OPTION}: row {line} of {path} has no data set name in its "
                "first column"
            )
        if dataset in table:
            raise UsageError(
                f"{OPTION}: data set {dataset!r} appears twice in {path} "
                f"(rows {lines[dataset]} and {line}); give each data set one row"
            )
        lines[dataset] = line
        table[dataset] = {
            name: _cell_value(
                cell, path=path, line=line, column=name, decimal_comma=decimal_comma
            )
            for name, cell in zip(names, row[1:])
        }
    return table, names


def _column(header, name, path, *, what):
    lowered = [column.lower() for column in header]
    if name.lower() not in lowered:
        raise UsageError(
            f"{OPTION}: {path} has no column {name!r} (a long table has {what}); "
            f"columns are "
            f"{_listed(header)}"
        )
    return lowered.index(name.lower())


def _read_long(header, body, path, *, score_column, decimal_comma):
    """``{dataset: {estimator: score or {split: score}}}`` of a long table,
    the estimators in order of appearance, and the score column's name."""
    what = "dataset, estimator, [split or run] and score columns"
    i_dataset = _column(header, "dataset", path, what=what)
    i_estimator = _column(header, "estimator", path, what=what)
    lowered = [column.lower() for column in header]
    i_split = lowered.index(SPLIT_COLUMN) if SPLIT_COLUMN in lowered else None
    per = "split" if i_split is not None else None
    if RUN_COLUMN in lowered:
        if i_split is not None:
            raise UsageError(
                f"{OPTION}: {path} has a 'split' and a 'run' column; a long table "
                "has the splits of a cross-validation or several runs per cell, "
                "not both"
            )
        i_split, per = lowered.index(RUN_COLUMN), "run"
    keys = {i_dataset, i_estimator, i_split} - {None}
    if score_column is not None:
        if score_column not in header:
            raise UsageError(
                f"--score-column: {path} has no column {score_column!r}; columns "
                f"are {_listed(header)}"
            )
        i_score = header.index(score_column)
        if i_score in keys:
            raise UsageError(
                f"--score-column: {score_column!r} is a key column (data set, "
                "estimator or split), not scores"
            )
    else:
        others = [j for j in range(len(header)) if j not in keys]
        if len(others) != 1:
            found = _listed([header[j] for j in others]) if others else "none"
            raise UsageError(
                f"{OPTION}: a long table has one score column besides dataset, "
                f"estimator and split; {path} has {len(others)} ({found}); name "
                "the one to compare with --score-column NAME"
            )
        i_score = others[0]
    column = header[i_score]
    table, names, seen = {}, [], {}
    for line, row in body:
        dataset, estimator = row[i_dataset], row[i_estimator]
        split = None if i_split is None else row[i_split]
        for value, what in ((dataset, "dataset"), (estimator, "estimator")) + (
            () if i_split is None else ((split, per),)
        ):
            if value == "":
                raise UsageError(
                    f"{OPTION}: row {line} of {path} has an empty {what!r} cell"
                )
        key = (dataset, estimator, split)
        if key in seen:
            shown = f"({dataset!r}, {estimator!r}" + (
                ")" if split is None else f", {per} {split!r})"
            )
            raise UsageError(
                f"{OPTION}: {shown} appears twice in {path} (rows {seen[key]} "
                f"and {line}); give each score once"
            )
        seen[key] = line
        value = _cell_value(
            row[i_score],
            path=path,
            line=line,
            column=column,
            decimal_comma=decimal_comma,
        )
        if estimator not in names:
            names.append(estimator)
        cells = table.setdefault(dataset, {})
        if split is None:
            cells[estimator] = value
        else:
            cells.setdefault(estimator, {})[split] = value
    return table, names, column, per


def read_scores(
    path,
    *,
    layout="auto",
    score_column=None,
    delimiter=None,
    drop_incomplete=False,
    missing="error",
):
    """Read a results table into a :class:`ScoreFile`.

    Parameters
    ----------
    path : path-like
        The CSV file, read through :func:`._data.open_bounded`.
    layout : {"auto", "wide", "long"}, default="auto"
        "auto": long when the header has ``dataset`` and ``estimator``
        columns (any case), wide otherwise.
    score_column : str, default=None
        The score column of a long table (default: its only column besides
        ``dataset``, ``estimator`` and ``split``).
    delimiter : str, default=None
        The field separator; None takes the first of ``,``, ``;`` and tab
        found in the header line. With ``;`` a decimal comma (``0,85``) is
        read as a decimal point.
    drop_incomplete : bool, default=False
        The earlier spelling of ``missing="drop"``.
    missing : {"error", "drop", "skillings_mack"}, default="error"
        What to do with a missing score (an empty cell, no row, or for
        per-split scores a split another estimator has; a run is missing
        only when a cell has none): refuse the table naming every hole,
        leave out the data sets that have one (they are listed in
        ``dropped``), or keep every score (NaN in ``scores``), as
        :func:`~sklearn_bcv.compare_scores` does.

    Returns
    -------
    table : ScoreFile
    """
    rows, delimiter = _read_rows(path, delimiter)
    decimal_comma = delimiter == ";"
    (_, header), body = rows[0], rows[1:]
    _check_header(header, path)
    if not body:
        raise UsageError(f"{OPTION}: {path} has a header but no rows of scores")
    _check_width(body, len(header), path)
    layout = _detect_layout(header, layout)
    if score_column is not None and layout == "wide":
        raise UsageError(
            "--score-column names the score column of a long table (columns "
            f"dataset, estimator, [split], score); {path} is read as wide"
        )
    if drop_incomplete and missing == "error":
        missing = "drop"
    if layout == "wide":
        if len(header) < 2:
            raise UsageError(
                f"{OPTION}: {path} has one column; a wide table has the data set "
                "names, then one column per estimator"
            )
        table, names = _read_wide(header, body, path, decimal_comma=decimal_comma)
        column, per = None, None
    else:
        table, names, column, per = _read_long(
            header, body, path, score_column=score_column, decimal_comma=decimal_comma
        )
    every = list(table)
    try:
        scores, labels = array_from_cells(table, names, every, per=per)
    except ValueError as exc:
        raise UsageError(
            f"{OPTION}: {exc}. Drop the split column to compare mean scores"
        ) from None
    kind = {"split": "splits", "run": "runs"}.get(per, "means")
    lacking = lacking_cells(scores, names, kind, labels)
    incomplete = [every[i] for i in lacking]
    if lacking and missing == "error":
        raise UsageError(
            f"{OPTION}: {describe_holes(every, names, lacking, shown=SHOWN)}; "
            "every estimator needs a score on every data set (or --missing "
            "skillings_mack keeps every score, --missing drop leaves those data "
            "sets out)"
        )
    dropped = incomplete if missing == "drop" else []
    datasets = [dataset for dataset in every if dataset not in dropped]
    if len(names) < 2:
        raise UsageError(
            f"{OPTION}: {path} has {len(names)} estimator(s) ({_listed(names)}); "
            "comparing needs at least 2"
        )
    if len(names) > MAX_ESTIMATORS:
        raise UsageError(
            f"{OPTION}: {path} has {len(names):,} estimators; the command line "
            f"compares at most {MAX_ESTIMATORS} (every pair is tested); give "
            "fewer, or call sklearn_bcv.compare_scores"
        )
    if len(datasets) < 2:
        dropped_text = f" after leaving out {len(dropped)}" if dropped else ""
        raise UsageError(
            f"{OPTION}: {path} has {len(datasets)} complete data set(s)"
            f"{dropped_text}; comparing across data sets needs at least 2 (for the "
            "per-split scores of one data set, add --splits --cv SPEC; "
            "--missing skillings_mack keeps the data sets with holes)"
        )
    return ScoreFile(scores, names, every, layout, column, dropped, per, labels)


# --------------------------------------------------------------------------
# Options


def _positive(text):
    """An argparse type: a finite number > 0 (a training or test set size)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number > 0; got {text!r}"
        ) from None
    if not (value > 0 and np.isfinite(value)):
        raise argparse.ArgumentTypeError(f"expected a finite number > 0; got {text}")
    return value


def _delimiter_or_auto(text):
    return None if text == "auto" else _delimiter(text)


def add_arguments(parser):
    """The options of ``scores``."""
    data = parser.add_argument_group("results table")
    data.add_argument(
        "file",
        metavar="FILE.csv",
        type=Path,
        nargs="?",
        default=None,
        help="the scores (required unless a test option is 'list'): wide "
        "(first column the data set names, one column per estimator) or "
        "long (columns dataset, estimator, optional split or run, and a "
        "score column); UTF-8, a BOM is skipped",
    )
    data.add_argument(
        "--layout",
        choices=("auto", "wide", "long"),
        default="auto",
        help="auto: long if the header has dataset and estimator columns (any "
        "case), wide otherwise (default: auto)",
    )
    data.add_argument(
        "--score-column",
        metavar="NAME",
        default=None,
        help="the score column of a long table (default: its only column "
        "besides dataset, estimator and split)",
    )
    data.add_argument(
        "--delimiter",
        default=None,
        type=_delimiter_or_auto,
        help="field separator: one character, 'tab' or auto, the first of , ; "
        "and tab in the header line (default: auto); with ; a decimal comma "
        "is read as a point",
    )
    data.add_argument(
        "--lower-is-better",
        action="store_true",
        help="the scores are losses or error rates: the lowest is ranked first "
        "(compare_scores(greater_is_better=False))",
    )
    data.add_argument(
        "--missing",
        choices=("error", "drop", "skillings_mack"),
        default=None,
        help="a missing score (an empty cell, or no row): error refuses the "
        "table naming every hole (default); drop leaves out (and names on "
        "stderr) the data sets with one; skillings_mack keeps every score: "
        "the Skillings-Mack test and its post hoc family, each pair on the "
        "data sets both have",
    )
    data.add_argument(
        "--drop-incomplete",
        action="store_true",
        help="the same as --missing drop",
    )
    data.add_argument(
        "--n-train",
        type=_positive,
        default=None,
        metavar="N",
        help="training set size of the splits (every data set), which "
        "poisson_binomial needs with per-split scores",
    )
    data.add_argument(
        "--n-test",
        type=_positive,
        default=None,
        metavar="N",
        help="test set size of the splits, with --n-train",
    )
    comparison = parser.add_argument_group("comparison")
    add_tests_argument(
        comparison,
        help="comma-separated tests of all the estimators at once, as in "
        "'benchmark' (default: friedman,nemenyi, or friedman,exact_posthoc "
        "with --control); 'auto' chooses them by the assumptions checked "
        "(where the library offers it); 'list' prints them",
    )
    add_tests_argument(
        comparison,
        "--pairwise-tests",
        help="comma-separated tests of one pair at a time across data sets, "
        "as in 'benchmark' (default: wilcoxon, and poisson_binomial with "
        "per-split scores and --n-train/--n-test); 'list' prints them",
    )
    comparison.add_argument(
        "--correction",
        choices=CORRECTIONS,
        default="holm",
        help="multiplicity correction of each pairwise test's p-values (default: holm)",
    )
    comparison.add_argument(
        "--control",
        metavar="NAME",
        default=None,
        help="compare every other estimator with this one only",
    )
    add_effect_sizes_argument(comparison)
    add_replicability_argument(comparison)
    comparison.add_argument(
        "--rope",
        type=rope_width,
        default=0.0,
        metavar="WIDTH",
        help="region of practical equivalence of the Bayesian tests, in score "
        "units (default: 0)",
    )
    comparison.add_argument(
        "--alpha",
        type=probability,
        default=0.05,
        help="significance level, between 0 and 1 (default: 0.05)",
    )
    comparison.add_argument(
        "--alternative",
        choices=("two-sided", "greater", "less"),
        default="two-sided",
        help="of the pairwise tests: greater tests 'A better than B', A the "
        "first of each pair in column (or first appearance) order; the rank "
        "tests are two-sided (default: two-sided)",
    )
    comparison.add_argument(
        "--random-state",
        default=None,
        metavar="SEED",
        type=int_in(0, MAX_SEED, what=f"an integer in [0, {MAX_SEED}]"),
        help="seed of the Bayesian tests' sampling (default: one drawn at "
        "random, said on stderr and recorded in the json and the report, so "
        "that --random-state SEED repeats the run)",
    )
    add_output_arguments(
        parser,
        format_help="text: the table with ranks, Friedman's test, the post hoc "
        "and pairwise tests (default); json; csv: one row per test and pair",
        plot_help="also save Demšar's critical-difference diagram of the mean "
        "ranks (.png, .svg, .pdf, ...); needs matplotlib",
    )
    parser._option_string_actions[
        "--verbose"
    ].help = "accepted as by every subcommand; nothing is fitted here"


# --------------------------------------------------------------------------
# Running


def run(args, *, stdout, stderr):
    """Compare the scores of the parsed ``args``' file; return the result."""
    for option in ("--tests", "--pairwise-tests"):
        if getattr(args, option[2:].replace("-", "_")) == "list":
            list_tests_of(option, stdout)
            return None
    if args.file is None:
        raise UsageError(
            "give the results table: sklearn-bcv scores FILE.csv (see "
            "'sklearn-bcv scores --help')"
        )
    tests, pairwise_tests = parse_test_options(args)
    plot_path = None if args.plot is None else check_plot_path(args.plot)
    if (args.n_train is None) != (args.n_test is None):
        raise UsageError("--n-train and --n-test go together; give both")
    if args.drop_incomplete and args.missing not in (None, "drop"):
        raise UsageError(
            f"--drop-incomplete is --missing drop; it contradicts --missing "
            f"{args.missing}"
        )
    missing = "drop" if args.drop_incomplete else args.missing or "error"
    table = read_scores(
        args.file,
        layout=args.layout,
        score_column=args.score_column,
        delimiter=args.delimiter,
        missing=missing,
    )
    if args.control is not None and args.control not in table.names:
        raise UsageError(
            f"--control: no estimator {args.control!r} in {args.file}; "
            f"estimators are {_listed(table.names)}"
        )
    if table.dropped and not args.quiet:
        stderr.write(
            f"left out {len(table.dropped)} incomplete data set(s): "
            f"{_listed(table.dropped)}\n"
        )

    from .._benchmark import compare_scores

    result = compare_scores(
        table.scores,
        names=table.names,
        datasets=table.datasets,
        n_train=args.n_train,
        n_test=args.n_test,
        greater_is_better=not args.lower_is_better,
        tests=tests,
        pairwise_tests=pairwise_tests,
        correction=None if args.correction == "none" else args.correction,
        control=args.control,
        rope=args.rope,
        alpha=args.alpha,
        alternative=args.alternative,
        effect_size=False if args.no_effect_sizes else None,
        effect_size_intervals=effect_size_intervals(args),
        random_state=args.random_state,
        missing=missing,
        runs=True if table.per == "run" else None,
        replicability=replicability_option(args),
    )
    context = {
        "file": str(args.file),
        "layout": table.layout,
        "score_column": table.score_column,
        "dropped_datasets": table.dropped,
        "greater_is_better": not args.lower_is_better,
        "alpha": args.alpha,
        "alternative": args.alternative,
        "correction": result.correction,
        "control": result.control,
        "rope": args.rope,
        "random_state": args.random_state,
    }
    record_seed(result, args, stderr)  # a seed drawn: said and recorded
    write_result(
        stdout,
        args.format,
        document=lambda: result_to_dict(result, context),
        table=lambda: result_to_csv(result),
        text=lambda: result_to_text(result, table, args),
    )
    # --report FILE: written here, from ``result``.
    if plot_path is not None:
        save_figure(plot_figure(result), plot_path, args=args, stderr=stderr)
    return result


def result_to_text(result, table, args):
    """The text of ``--format text``: what was read, the table of scores
    with ranks and the result's summary (as ``benchmark`` prints them)."""
    shape = f"{len(result.datasets)} data sets × {len(table.names)} estimators"
    if table.per == "run":
        shape += f", up to {table.scores.shape[2]} runs per cell"
    elif table.scores.ndim == 3:
        shape += f", {table.scores.shape[1]} splits each"
    column = (
        "" if table.score_column is None else f", score column {table.score_column!r}"
    )
    direction = (
        "lower is better (rank 1 = lowest)"
        if args.lower_is_better
        else "higher is better (rank 1 = highest)"
    )
    what = table.score_column or "score"
    lines = "".join(f"  {line}\n" for line in score_lines(result))
    return (
        f"scores: {args.file} ({table.layout} table{column}; {shape}); "
        f"{direction}\n\nMean {what} on each data set (rank):\n{lines}\n{result}\n"
    )


COMMAND = Subcommand(
    name="scores",
    summary="scores you already have: a results table (CSV) across data sets",
    description=(
        "Compare k >= 2 estimators across data sets from a table of their "
        "scores, computed elsewhere (the analysis of compare_scores; nothing "
        "is fitted): ranks on each data set, Friedman's test with a post hoc "
        "rank test (Nemenyi, or Bonferroni–Dunn against --control) and "
        "pairwise tests across data sets. The table is wide (a row per data "
        "set, a column per estimator) or long (columns dataset, estimator, "
        "optional split or run, and a score column); --lower-is-better for "
        "losses and error rates. An empty cell is a missing score: --missing "
        "skillings_mack keeps the others (the Skillings-Mack test)."
    ),
    examples=(
        "sklearn-bcv scores results.csv",
        "sklearn-bcv scores results.csv --control baseline --plot cd.png",
        "sklearn-bcv scores errors.csv --lower-is-better --format json",
        "sklearn-bcv scores runs.csv --layout long --score-column accuracy",
        "sklearn-bcv scores holes.csv --missing skillings_mack",
    ),
    add_arguments=add_arguments,
    run=run,
)
