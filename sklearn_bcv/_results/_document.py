"""Results as documents: one serialiser for every result type.

:func:`to_plain` turns any value a result holds (numbers, numpy scalars and
arrays, :class:`~sklearn.utils.Bunch` objects, nested test results,
estimators, designs, splitters) into plain, JSON-safe Python: ``dict``,
``list``, ``str``, ``int``, ``float``, ``bool`` and ``None``. A number that
is not finite (an undefined p-value, an infinite one-sided boundary) becomes
``None``, and the dict that held it gets a key ``<name>_nonfinite`` saying
what it was, so a reader of the JSON can tell "undefined" from "missing".
Estimators become their name and their parameters (``get_params(deep=False)``,
each parameter JSON-safe or its ``repr``), never a pickle.

:func:`result_document` is the document of ``to_dict()``; the ``*_csv_rows``
helpers are the tables of the command line's ``--format csv``.
"""

import csv
import io
import json
import math
import numbers
from pathlib import PurePath

import numpy as np

from .._checks import check_path
from ._text import csv_cell

__all__ = [
    "SCHEMA_VERSION",
    "DocumentMixin",
    "csv_text",
    "result_csv",
    "result_document",
    "to_plain",
]

#: Version of the layout of the documents of ``to_dict()``; bumped when a
#: field changes meaning or is removed.
SCHEMA_VERSION = 1

#: What a non-finite number was, in the ``<name>_nonfinite`` key.
_NONFINITE = {
    "nan": "NaN: undefined (e.g. a p-value of differences that are all equal)",
    "inf": "+infinity (e.g. no upper boundary of a one-sided test)",
    "-inf": "-infinity (e.g. no lower boundary of a one-sided test)",
}


def _nonfinite_kind(value):
    """ "nan", "inf", "-inf", "array" (an array holding some) or None."""
    if isinstance(value, bool | np.bool_):
        return None
    if isinstance(value, numbers.Real | np.floating | np.integer):
        value = float(value)
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return None
    if isinstance(value, np.ndarray) and value.dtype.kind in "fc":
        if value.size and not np.all(np.isfinite(value)):
            return "array"
    return None


def _estimator_document(estimator):
    from ._text import estimator_name

    try:
        params = estimator.get_params(deep=False)
    except Exception:  # an object with a broken get_params: its repr
        return {"name": type(estimator).__name__, "repr": repr(estimator)}
    plain_params = {}
    for key, value in params.items():
        if hasattr(value, "get_params") and hasattr(value, "fit"):
            plain_params[str(key)] = _estimator_document(value)
        elif value is None or isinstance(value, bool | int | float | str):
            plain_params[str(key)] = to_plain(value)
        elif isinstance(value, list | tuple) and all(
            v is None or isinstance(v, bool | int | float | str) for v in value
        ):
            plain_params[str(key)] = to_plain(value)
        else:
            plain_params[str(key)] = repr(value)
    return {"name": estimator_name(estimator), "params": plain_params}


def _key(key):
    if isinstance(key, tuple):
        return " vs ".join(str(to_plain(k)) for k in key)
    if isinstance(key, np.generic):
        key = key.item()
    return str(key)


def to_plain(value):
    """A plain, JSON-safe copy of ``value``.

    Parameters
    ----------
    value : object
        Anything a result holds.

    Returns
    -------
    plain : dict, list, str, int, float, bool or None
        Non-finite numbers are ``None`` (inside a dict, a sibling key
        ``<name>_nonfinite`` says what they were); numpy values are Python
        values; tuples are lists; keys are strings (a pair ``(a, b)`` is
        ``"a vs b"``; test results by pair are records with ``estimator_a``
        and ``estimator_b``); estimators are ``{"name", "params"}``; a design is
        its description; any other object is its ``repr``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv._results._document import to_plain
    >>> to_plain({"pvalue": np.float64("nan"), "df": np.int64(9)})
    {'pvalue': None, 'pvalue_nonfinite': 'NaN: undefined (e.g. a p-value of differences that are all equal)', 'df': 9}
    """  # noqa: E501
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        value = float(value)
        return value if math.isfinite(value) else None
    if isinstance(value, numbers.Complex):
        return repr(complex(value))
    if isinstance(value, dict):
        if hasattr(value, "_document_fields"):  # a nested result
            return _fields_document(value)
        if value and all(
            isinstance(k, tuple) and len(k) == 2 and isinstance(v, dict)
            for k, v in value.items()
        ):  # test results by pair: records naming the pair
            return [
                {"estimator_a": to_plain(a), "estimator_b": to_plain(b)}
                | to_plain(item)
                for (a, b), item in value.items()
            ]
        out = {}
        for key, item in value.items():
            if isinstance(key, str) and key.startswith("_"):
                continue  # private state (a store, the fits), never serialised
            name = _key(key)
            out[name] = to_plain(item)
            kind = _nonfinite_kind(item)
            if kind == "array":
                out[f"{name}_nonfinite"] = (
                    "holds NaN (undefined) or infinite values, written as null"
                )
            elif kind is not None:
                out[f"{name}_nonfinite"] = _NONFINITE[kind]
        return out
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "fc":
            return (
                [to_plain(v) for v in value.tolist()]
                if value.ndim == 1
                else [to_plain(row) for row in value]
            )
        return to_plain(value.tolist())
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else value
        return [to_plain(v) for v in items]
    if isinstance(value, PurePath):
        return str(value)
    if hasattr(value, "get_params") and hasattr(value, "fit"):
        return _estimator_document(value)
    describe = getattr(value, "describe", None)
    if callable(describe):
        try:
            return str(describe())
        except Exception:
            return repr(value)
    return repr(value)


def _fields_document(result):
    document = {"schema_version": SCHEMA_VERSION, "type": type(result).__name__}
    document.update(to_plain(dict(result)))
    return document


def result_document(result):
    """The document of ``result.to_dict()``: its fields as plain values,
    with ``schema_version`` and ``type`` first."""
    return _fields_document(result)


def csv_text(header, rows):
    """CSV text of ``rows`` (dicts) under ``header``: None, NaN and infinity
    are empty cells (a ``note`` column says why where it matters), numpy
    values are plain numbers, a list is joined with ``;``; every text cell
    goes through :func:`~sklearn_bcv._results._text.csv_cell` (a cell
    beginning with ``=``, ``+``, ``-`` or ``@`` is quoted as text)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([csv_cell(str(name)) for name in header])
    for row in rows:
        cells = []
        for field in header:
            value = to_plain(row.get(field))
            if isinstance(value, list):
                value = ";".join("" if v is None else str(v) for v in value)
            # Names are typed by anyone: no formula injection, no escapes.
            cells.append("" if value is None else csv_cell(value))
        writer.writerow(cells)
    return buffer.getvalue()


# --------------------------------------------------------------------------
# The tables of --format csv: every test row and every score.

TEST_COLUMNS = (
    "statistic",
    "df",
    "pvalue",
    "pvalue_adjusted",
    "reject",
    "p_a_better",
    "p_rope",
    "p_b_better",
)


def _undefined_note(test):
    notes = [
        f"{field} undefined ({_NONFINITE[kind].split(':')[0]})"
        for field in ("statistic", "pvalue")
        if (kind := _nonfinite_kind(test.get(field))) not in (None, "array")
    ]
    return "; ".join(notes) or None


def _test_row(name, test, status=None, **extra):
    row = {"section": "test", "test": name, "status": status, **extra}
    for field in TEST_COLUMNS:
        value = test.get(field)
        if np.ndim(value) == 0:
            row[field] = value
        elif field == "df":
            row[field] = list(np.ravel(value))
    row["correction"] = test.get("correction")
    row["note"] = _undefined_note(test)
    return row


def _pair_rows(result):
    from ._verdict import test_status

    rows = [
        _test_row(name, test, test_status(result, name))
        for name, test in result.tests.items()
    ]
    for split, (a, b) in enumerate(zip(result.scores_a, result.scores_b)):
        rows.append(
            {
                "section": "score",
                "split": split,
                "score_a": a,
                "score_b": b,
                "difference": a - b,
            }
        )
    return rows


PAIR_CSV = (
    "section",
    "test",
    "status",
    *TEST_COLUMNS,
    "correction",
    "note",
    "split",
    "score_a",
    "score_b",
    "difference",
)


def _table_rows(result, table, test, **extra):
    """One row per pair a pairwise or post hoc table tested."""

    names = list(result.names)
    if "results" in table:
        pairs = [(names.index(a), names.index(b)) for a, b in table.results]
    else:
        tested = np.asarray(table.get("tested", ~np.eye(len(names), dtype=bool)))
        pairs = [(int(a), int(b)) for a, b in zip(*np.nonzero(np.triu(tested, 1)))]
        pairs += [
            (int(a), int(b))
            for a, b in zip(*np.nonzero(np.tril(tested, -1)))
            if not tested[b, a]
        ]
    return [_pair_row(result, table, test, a, b, **extra) for a, b in pairs]


def _pair_row(result, table, test, a, b, **extra):
    from ._pairwise import matrix_fields

    names = list(result.names)
    row = {
        "section": "pairwise",
        "test": test,
        "estimator_a": names[a],
        "estimator_b": names[b],
        "mean_score_a": result.mean_scores[a],
        "mean_score_b": result.mean_scores[b],
        "correction": table.get("correction"),
        **extra,
    }
    if "mean_ranks" in result:
        row["mean_rank_a"] = result.mean_ranks[a]
        row["mean_rank_b"] = result.mean_ranks[b]
    for field in matrix_fields(table):
        if field in table and field in TEST_COLUMNS:
            row[field] = np.asarray(table[field])[a, b]
    row["note"] = _undefined_note(row)
    return row


MANY_CSV = (
    "section",
    "test",
    "status",
    "estimator_a",
    "estimator_b",
    "mean_score_a",
    "mean_score_b",
    *TEST_COLUMNS,
    "correction",
    "note",
    "estimator",
    "split",
    "score",
)


def _many_rows(result):
    rows = [_test_row(name, test) for name, test in result.tests.items()]
    for name, table in result.pairwise.items():
        rows += _table_rows(result, table, name)
    scores = np.asarray(result.scores)
    for split in range(scores.shape[0]):
        for j, name in enumerate(result.names):
            rows.append(
                {
                    "section": "score",
                    "estimator": name,
                    "split": split,
                    "score": scores[split, j],
                }
            )
    return rows


BENCHMARK_CSV = (
    "section",
    "test",
    "status",
    "estimator_a",
    "estimator_b",
    "mean_rank_a",
    "mean_rank_b",
    "mean_score_a",
    "mean_score_b",
    *TEST_COLUMNS,
    "correction",
    "note",
    "dataset",
    "estimator",
    "score",
    "rank",
)


def _benchmark_rows(result):
    from ._datasets import _compared_pairs

    rows = []
    for name, test in result.tests.items():
        if np.ndim(test.get("reject")) == 0:
            rows.append(_test_row(name, test))
            iman = test.get("iman_davenport")
            if iman is not None:
                rows.append(_test_row(f"{name} (Iman-Davenport F)", iman))
    for name, table, a, b in _compared_pairs(result):
        row = _pair_row(result, table, name, a, b)
        row["section"] = "pairwise" if name in result.pairwise else "posthoc"
        rows.append(row)
    for i, dataset in enumerate(result.datasets):
        for j, name in enumerate(result.names):
            rows.append(
                {
                    "section": "score",
                    "dataset": dataset,
                    "estimator": name,
                    "score": result.scores[i][j],
                    "rank": result.ranks[i][j],
                }
            )
    return rows


def _sequential_csv():
    """The columns of a sequential result's table: its trace's fields."""
    from ._sequential import TRACE_FIELDS  # _sequential builds on this module

    return TRACE_FIELDS


def sequential_rows(result):
    """One dict per look taken; infinite boundaries (one-sided) are None."""
    from ._sequential import look_labels

    rows = []
    labels = look_labels(result.trace)
    for i in range(len(result.trace.repeats)):
        row = {key: to_plain(result.trace[key][i]) for key in _sequential_csv()[:-1]}
        row["repeats"] = int(row["repeats"])
        row["decision"] = labels[i]
        rows.append(row)
    return rows


def result_csv(result):
    """The CSV text of a result: every test row and every score.

    A column ``section`` says what a row is: ``test`` (a test of the whole
    comparison, with its ``status``), ``posthoc`` or ``pairwise`` (one pair
    of a post hoc family or of a pairwise test), ``score`` (one score per
    split, or per data set and estimator). A sequential result has one row
    per look.
    """
    kind = type(result).__name__
    if kind == "SequentialResult":
        return csv_text(_sequential_csv(), sequential_rows(result))
    if kind == "ComparisonResult":
        return csv_text(PAIR_CSV, _pair_rows(result))
    if kind == "ManyComparisonResult":
        return csv_text(MANY_CSV, _many_rows(result))
    return csv_text(BENCHMARK_CSV, _benchmark_rows(result))


class DocumentMixin:
    """``to_dict``, ``to_json``, ``summary`` and ``report`` of a result, and
    its declared fields (a result class gives ``_summary_text(show)``).

    A result class lists its fields once, in ``_FIELDS`` (and documents
    them in its docstring, section Attributes). It is built with them: an
    unknown field is a ``TypeError`` naming it; a field not given is None.
    Names starting with ``_`` are private state (never serialised).
    """

    _document_fields = True
    _FIELDS = ()
    _DEFAULTS = {}

    def __init__(self, **fields):
        unknown = [
            name
            for name in fields
            if name not in self._FIELDS and not name.startswith("_")
        ]
        if unknown:
            raise TypeError(
                f"{type(self).__name__} has no field {unknown[0]!r}; its "
                f"fields are {', '.join(self._FIELDS)}."
            )
        super().__init__(**(dict.fromkeys(self._FIELDS) | self._DEFAULTS | fields))

    @classmethod
    def fields(cls):
        """The names of the declared fields, in order.

        Returns
        -------
        fields : tuple of str
        """
        return tuple(cls._FIELDS)

    def to_dict(self):
        """The result as a document of plain, JSON-safe Python values.

        Returns
        -------
        document : dict
            ``schema_version`` and ``type`` (the class name) first, then
            every field: arrays as lists, numpy values as Python values,
            nested results and test results as dicts, estimators as their
            name and parameters. A non-finite number (an undefined p-value)
            is ``None``, with a sibling key ``<name>_nonfinite`` saying
            what it was.
        """
        return result_document(self)

    def to_json(self, path=None, *, indent=2):
        """The document of :meth:`to_dict` as strict JSON (no NaN).

        Parameters
        ----------
        path : str, path-like or None, default=None
            Where to write it (without NUL bytes or control characters);
            None returns the text.
        indent : int or None, default=2
            Passed to :func:`json.dumps`.

        Returns
        -------
        text : str or None
            The JSON text when ``path`` is None, else None (the file is
            written, UTF-8).
        """
        if path is not None:
            path = check_path(path, name="path")
        text = json.dumps(self.to_dict(), indent=indent, allow_nan=False) + "\n"
        if path is None:
            return text
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return None

    def summary(self, show="default"):
        """The printed summary: the verdict of the recommended test first.

        Parameters
        ----------
        show : {"default", "all"}, default="default"
            ``"all"`` also shows the tests this library does not recommend
            (e.g. ``paired_t``), each with the reason; by default they are
            only named. A sequential summary has one test, shown either way.

        Returns
        -------
        text : str
        """
        return self._summary_text(show)

    def report(self, format="text"):
        """A report of the comparison.

        What was compared, which tests ran and why (the assumptions
        checked), the verdicts in sentences, the effect sizes with their
        confidence intervals, and the tables.

        Parameters
        ----------
        format : {"text", "markdown", "latex", "html"}, default="text"
            ``"latex"``: a fragment whose tables use ``booktabs``;
            ``"html"``: one self-contained page, the figures inline SVG
            (tables only without matplotlib). Every name is escaped.

        Returns
        -------
        report : str

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn_bcv import compare_scores
        >>> scores = np.array([[0.80, 0.85, 0.70], [0.75, 0.79, 0.72],
        ...                    [0.90, 0.91, 0.86], [0.66, 0.71, 0.60],
        ...                    [0.84, 0.88, 0.83], [0.71, 0.70, 0.75]])
        >>> result = compare_scores(scores, names=["svm", "forest", "knn"])
        >>> print(result.report("markdown").splitlines()[0])
        # Report
        >>> latex = result.report("latex")  # the effect sizes and the scores
        >>> latex.count("toprule"), latex.count("bottomrule")
        (2, 2)
        """
        from ._report import render_report

        return render_report(self, format)

    def __repr__(self):
        return self.summary()

    __str__ = __repr__
