"""The user's names as a figure writes them: drawable text, once.

A name is whatever the user typed: ``$\\foo$`` (which matplotlib would
parse as mathematics and fail on), a lone surrogate (which no font or file
format can hold), a newline, ten thousand characters (which matplotlib
cannot lay out, and whose figure pdflatex refuses as "Dimension too
large"). Every Display writes the names of estimators and data sets, and
the score's name, through :func:`display_names` or :func:`display_text`,
which make them text that matplotlib draws as it reads and LaTeX can
include: control characters, separators and lone surrogates written as
their escapes (as every report writes them), a name longer than
:data:`MAX_LABEL_LENGTH` characters shortened in its middle to that length
with an ellipsis, and a dollar sign escaped (``\\$``, drawn as ``$``).
Distinct names stay distinct on the figure. The Displays keep the names
themselves for everything else (the groups, the control, their
attributes).
"""

from collections import Counter

from .._results._text import escape_controls

__all__ = ["MAX_LABEL_LENGTH", "display_names", "display_text"]

#: The most characters of a name a figure writes: a longer one keeps its
#: first two thirds and last third around an ellipsis.
MAX_LABEL_LENGTH = 40

_ELLIPSIS = "\u2026"


def _shortened(text, limit):
    if len(text) <= limit:
        return text
    head = (limit - 1) * 2 // 3
    tail = limit - 1 - head
    return text[:head] + _ELLIPSIS + (text[-tail:] if tail else "")


def display_text(text, *, limit=MAX_LABEL_LENGTH):
    """``text`` as a figure writes it (see the module's docstring).

    Examples
    --------
    >>> from sklearn_bcv._plot._labels import display_text
    >>> print(display_text("$\\\\foo$"))
    \\$\\foo\\$
    >>> print(display_text("tree\\nforest"))
    tree\\x0aforest
    >>> len(display_text("x" * 10_000))
    40
    """
    return _shortened(escape_controls(str(text)), limit).replace("$", r"\$")


def display_names(names, *, limit=MAX_LABEL_LENGTH):
    """The labels of ``names`` (a sequence of distinct names), in order:
    :func:`display_text` of each, and two that the shortening made equal
    told apart by their position (``" #3"``).

    Examples
    --------
    >>> from sklearn_bcv._plot._labels import display_names
    >>> [len(label) for label in display_names(["a" * 50 + "1", "a" * 50 + "1!"])]
    [40, 40]
    >>> display_names(["a" * 60 + "z", "a" * 61 + "z"])[1][-3:]
    ' #2'
    """
    names = [str(name) for name in names]
    labels = [display_text(name, limit=limit) for name in names]
    counts = Counter(labels)
    for i, label in enumerate(labels):
        if counts[label] > 1:
            suffix = f" #{i + 1}"
            labels[i] = display_text(names[i], limit=limit - len(suffix)) + suffix
    return labels
