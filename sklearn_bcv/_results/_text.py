"""Short texts shared by the printed summaries of every result."""

import math
import numbers
import re
import unicodedata
from collections import Counter
from numbers import Real

__all__ = [
    "MAX_LABEL_LENGTH",
    "short_names",
    "short_text",
    "csv_cell",
    "escape_controls",
    "estimator_name",
    "format_number",
    "join_lines",
    "printable",
    "shared_ranks",
    "text_table",
]


def format_number(value, digits=4):
    """A short text of a number, a tuple of numbers, or "-" for None; an
    infinity is "∞" (LaTeX reports write it ``\\infty``), never "inf"."""
    if value is None:
        return "-"
    if isinstance(value, tuple):
        return "(" + ", ".join(format_number(v, digits) for v in value) + ")"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, Real):
        if math.isinf(value):  # an infinite statistic, as a reader writes it
            return "∞" if value > 0 else "-∞"
        return f"{float(value):.{digits}g}"
    return str(value)


def estimator_name(estimator):
    """Short readable name: the class, with the steps or inner estimator."""
    name = type(estimator).__name__
    steps = getattr(estimator, "steps", None)
    if isinstance(steps, list):
        inner = [
            estimator_name(step)
            for _, step in steps
            if step is not None and step != "passthrough"
        ]
        return f"{name}({', '.join(inner)})"
    # GridSearchCV and other meta-estimators taking an ``estimator`` parameter.
    inner = estimator.get_params(deep=False).get("estimator")
    if hasattr(inner, "fit"):
        return f"{name}({estimator_name(inner)})"
    return name


def text_table(header, rows, *, right_aligned=()):
    """Rows of cells as aligned lines (columns in ``right_aligned`` justified)."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [
            cell.rjust(width) if i in right_aligned else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths))
        ]
        lines.append("  ".join(cells).rstrip())
    return lines


#: ANSI/VT escape sequences (CSI ``ESC [ ... final``, OSC ``ESC ] ... BEL or
#: ESC \\``, and two-character ``ESC x``), then any other C0/C1 control
#: character and DEL.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[@-_]?"
    r"|\x9b[0-?]*[ -/]*[@-~]"
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text, *, keep_newlines=True):
    """``text`` safe to print: escape sequences removed (they would reach the
    terminal) and other control characters shown as ``\\xNN``. Newlines
    (and tabs) are kept unless ``keep_newlines`` is False, when they are
    escaped too (a name or a one-line message)."""
    text = _ESCAPES.sub("", str(text))
    pattern = _CONTROL if keep_newlines else re.compile(r"[\x00-\x1f\x7f-\x9f]")
    return pattern.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


#: What :func:`escape_controls` writes as escapes: the Unicode categories of
#: control characters (newlines, ESC, NUL, C1), lone surrogates (which no
#: file can encode) and line and paragraph separators, and the
#: bidirectional controls, which reorder the text around them.
_INVISIBLE = frozenset({"Cc", "Cs", "Zl", "Zp"})
_BIDI = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
#: In markup that shows them as they are (HTML), only the characters that
#: cannot be written: controls and lone surrogates.
_UNWRITABLE = frozenset({"Cc", "Cs"})


def _escape(char):
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escape_controls(text, *, markup=False):
    """``text`` on one line with nothing invisible: every control character,
    line or paragraph separator, bidirectional control (and lone surrogate)
    written as its Python escape (``\\n`` as ``\\x0a``, ESC as ``\\x1b``,
    U+202E as ``\\u202e``); everything else, any script or emoji,
    unchanged.

    The first step of every report format: a name typed by anyone cannot
    break a line, a table row or a terminal, and stays readable. With
    ``markup=True`` (HTML, which shows separators and bidirectional marks
    as the name's own characters without breaking its structure) only
    control characters and lone surrogates are escaped.

    Examples
    --------
    >>> from sklearn_bcv._results._text import escape_controls
    >>> print(escape_controls("tree\\n\\x1b[31mred\\u202e é"))
    tree\\x0a\\x1b[31mred\\u202e é
    """
    text = str(text)
    if text.isprintable():  # the common case: nothing to do
        return text
    categories = _UNWRITABLE if markup else _INVISIBLE
    bidi = frozenset() if markup else _BIDI
    return "".join(
        _escape(char)
        if unicodedata.category(char) in categories or char in bidi
        else char
        for char in text
    )


#: The first characters that make a spreadsheet read a cell as a formula.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """One CSV cell: control characters escaped, and a text beginning with
    ``=``, ``+``, ``-``, ``@``, a tab or a carriage return prefixed with
    ``'`` so a spreadsheet shows it as text instead of running it as a
    formula (CSV injection). Numbers are written as numbers (a negative
    number is not text and is left alone)."""
    if not isinstance(value, str):
        return value
    if value.startswith(_FORMULA_STARTS):
        try:  # a number, or numbers joined with ";", is not a formula
            [float(part) for part in value.split(";")]
        except ValueError:
            value = "'" + value
    return printable(value, keep_newlines=False)


def join_lines(lines):
    """The lines of a printed text (a summary, a verdict), each on one line
    with nothing invisible: a name's newline or ESC is written as its
    escape (:func:`escape_controls`), as in the text reports. Lines already
    joined by this function may be passed again (split on ``"\\n"``)."""
    return "\n".join(escape_controls(line) for line in lines)


def shared_ranks(values):
    """The rank of each value in the order given (``values`` sorted, best
    first): equal values share the rank of the first of them (1, 2, 2, 4).

    Examples
    --------
    >>> from sklearn_bcv._results._text import shared_ranks
    >>> shared_ranks([2.0, 2.857, 2.857, 4.714])
    [1, 2, 2, 4]
    """
    ranks = []
    for i, value in enumerate(values):
        tied = i and abs(value - values[i - 1]) <= 1e-12 * max(1.0, abs(value))
        ranks.append(ranks[-1] if tied else i + 1)
    return ranks


#: The most characters of a name a figure (and its caption) writes: a
#: longer one keeps its first two thirds and last third around an ellipsis.
MAX_LABEL_LENGTH = 40

_ELLIPSIS = "\u2026"


def _shortened(text, limit):
    if len(text) <= limit:
        return text
    head = (limit - 1) * 2 // 3
    tail = limit - 1 - head
    return text[:head] + _ELLIPSIS + (text[-tail:] if tail else "")


def short_text(text, *, limit=MAX_LABEL_LENGTH):
    """``text`` as a figure labels it: control characters, separators and
    lone surrogates as their escapes, shortened in its middle to ``limit``
    characters with an ellipsis.

    Examples
    --------
    >>> from sklearn_bcv._results._text import short_text
    >>> print(short_text("tree\\nforest"))
    tree\\x0aforest
    >>> len(short_text("x" * 10_000))
    40
    """
    return _shortened(escape_controls(str(text)), limit)


def short_names(names, *, limit=MAX_LABEL_LENGTH):
    """The labels of ``names`` (distinct names), in order: :func:`short_text`
    of each, two that the shortening made equal told apart by their
    position (``" #3"``). A figure and its caption name the estimators
    alike.

    Examples
    --------
    >>> from sklearn_bcv._results._text import short_names
    >>> short_names(["a" * 60 + "z", "a" * 61 + "z"])[1][-3:]
    ' #2'
    """
    names = [str(name) for name in names]
    labels = [short_text(name, limit=limit) for name in names]
    counts = Counter(labels)
    for i, label in enumerate(labels):
        if counts[label] > 1:
            suffix = f" #{i + 1}"
            labels[i] = short_text(names[i], limit=limit - len(suffix)) + suffix
    return labels
