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

:func:`result_document` is the document of ``to_dict()``; :func:`csv_text`
writes rows as CSV, and :func:`result_csv` a result's own table (the
command line's ``--format csv``). Nothing here knows a result type: each
result class gives its content, this module writes it down.
"""

import csv
import io
import json
import math
import numbers
from pathlib import Path, PurePath

import numpy as np

from .._checks import check_path
from ._figures import replace_file
from ._text import csv_cell, estimator_name

__all__ = [
    "SCHEMA_VERSION",
    "DocumentMixin",
    "csv_text",
    "nonfinite_kind",
    "nonfinite_meaning",
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


def nonfinite_kind(value):
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


def nonfinite_meaning(kind):
    """What a non-finite number of kind ``"nan"``, ``"inf"`` or ``"-inf"``
    was (the text of a ``<name>_nonfinite`` key)."""
    return _NONFINITE[kind]


def _estimator_document(estimator):
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
            kind = nonfinite_kind(item)
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


def result_csv(result):
    """The CSV text of a result (the command line's ``--format csv``).

    The result gives its columns and rows (``result._csv_table()``); a
    column ``section`` says what a row is: ``test`` (a test of the whole
    comparison, with its ``status``), ``posthoc`` or ``pairwise`` (one pair
    of a post hoc family or of a pairwise test), ``score`` (one score per
    split, or per data set and estimator). A sequential result has one row
    per look.
    """
    return csv_text(*result._csv_table())


class DocumentMixin:
    """``to_dict``, ``to_json``, ``summary`` and ``report`` of a result, and
    its declared fields.

    A result class lists its fields once, in ``_FIELDS`` (and documents
    them in its docstring, section Attributes). It is built with them: an
    unknown field is a ``TypeError`` naming it; a field not given is None.
    Names starting with ``_`` are private state (never serialised).

    A result class owns its content, in four methods: ``_summary_text(show)``
    (the printed summary), ``_report_blocks()`` (the report's headings,
    sentences and tables, see :mod:`._blocks`), ``_report_figures()`` (its
    figures; none by default) and ``_csv_table()`` (``(columns, rows)`` of
    its CSV table). This class and the renderers only write them down.
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
        replace_file(path, text.encode("utf-8"))  # a link replaced, not written through
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

    def report(
        self,
        format="text",
        *,
        figures=None,
        label_prefix="bcv:",
        layout="onecolumn",
        path=None,
    ):
        """A report of the comparison, for a paper, a README or a web page.

        Its methods first (what was compared and how: the estimators and
        their parameters, the design and its seed, the scoring, the fits,
        the tests with why each runs and the works they cite, alpha, the
        correction, the rope, and this package's version), then the
        verdicts in sentences, the effect sizes with their confidence
        intervals, the tables (the scores, every pairwise test pair by
        pair, each data set's own tests), the figures, and the references.

        Parameters
        ----------
        format : {"text", "markdown", "latex", "html"}, default="text"
            ``"latex"``: a fragment to ``\\input`` in a paper, whose
            preamble needs ``booktabs`` and ``graphicx`` (a comment at its
            top says so): every table a float with a caption and a label,
            its numbers aligned on the decimal point, set at print size
            (no text below 7 pt in a 10 pt article, see ``layout``);
            ``"html"``: one self-contained page, the figures inline SVG
            with searchable text (tables only without matplotlib).
            Every name is escaped, by one rule per format: control
            characters (a newline, ESC) are written as their escapes
            (``\\x0a``, ``\\x1b``), then the format's markup (Markdown's
            ``|``, LaTeX's ``&``, HTML's ``<``) is escaped; LaTeX writes a
            character plain ``pdflatex`` cannot print as its ASCII form,
            else as its escape (``\\u03b1``).
        figures : bool, str, path-like or None, default=None
            HTML: None or True embeds the figures, False leaves them out.
            LaTeX: a directory (as the document reaches it, e.g.
            ``"figures"``: relative to the report's file with ``path``,
            else to the working directory; created if missing) where each
            figure is written as a PDF file, without a date, drawn for the
            width it is set at, that the report ``\\includegraphics``;
            None leaves them out. Text and Markdown have no figures.
        label_prefix : str, default="bcv:"
            The start of every LaTeX ``\\label`` (``\\ref{bcv:scores}``)
            and of the figures' file names: two reports in one document
            take two prefixes. Letters, digits, ``:``, ``.``, ``_``, ``-``.
        layout : {"onecolumn", "twocolumn"}, default="onecolumn"
            LaTeX: the article the tables and figures are set for (10 pt:
            a line of 345 pt; or columns of 229.5 pt on a page of 469 pt).
            Each table fits its line at 8 pt by its layout (names over two
            lines or upright, abbreviated with a legend, split; in two
            columns a table or figure too wide for a column spans the page,
            ``table*``/``figure*``), and each figure is drawn for the width
            it is set at, its text at 7 pt or more.
        path : str, path-like or None, default=None
            Write the report to this file (UTF-8) instead of returning it;
            a relative ``figures`` directory is then beside it.

        Returns
        -------
        report : str or None
            The report (None when written to ``path``). The same result
            gives the same bytes, every time and in every process (the
            figures carry no date and no random id).

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn_bcv import compare_scores
        >>> scores = np.array([[0.80, 0.85, 0.70], [0.75, 0.79, 0.72],
        ...                    [0.90, 0.91, 0.86], [0.66, 0.71, 0.60],
        ...                    [0.84, 0.88, 0.83], [0.71, 0.70, 0.75]])
        >>> result = compare_scores(scores, names=["svm", "forest", "knn"],
        ...                         random_state=0)
        >>> print(result.report("markdown").splitlines()[0])
        # Report
        >>> latex = result.report("latex", label_prefix="study1:")
        >>> latex.count(r"\\begin{table}") == latex.count(r"\\toprule")
        True
        >>> r"\\label{study1:scores}" in latex
        True
        """
        from ._report import render_report

        if path is not None:
            path = Path(check_path(path, name="path"))
        text = render_report(
            self,
            format,
            figures=figures,
            label_prefix=label_prefix,
            layout=layout,
            relative_to=None if path is None else path.parent,
        )
        if path is None:
            return text
        replace_file(path, text.encode("utf-8"))  # as the figures beside it
        return None

    def _summary_text(self, show):  # pragma: no cover - every result has one
        """The printed summary (``show`` checked by the class)."""
        raise NotImplementedError(f"{type(self).__name__} gives no summary text.")

    def _report_blocks(self):  # pragma: no cover - every result has them
        """The report's blocks (:mod:`._blocks`), without figures."""
        raise NotImplementedError(f"{type(self).__name__} gives no report blocks.")

    def _report_figures(self):
        """The figures of the report (:class:`~._blocks.Figure`), which its
        blocks hold before the references; none by default."""
        return []

    def _csv_table(self):  # pragma: no cover - every result has one
        """``(columns, rows)`` of the CSV table (rows are dicts)."""
        raise NotImplementedError(f"{type(self).__name__} gives no CSV table.")

    def __repr__(self):
        return self.summary()

    __str__ = __repr__
