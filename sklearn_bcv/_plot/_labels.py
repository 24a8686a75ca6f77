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

from .._results._text import MAX_LABEL_LENGTH, short_names, short_text

__all__ = ["MAX_LABEL_LENGTH", "display_names", "display_text"]


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
    return short_text(text, limit=limit).replace("$", r"\$")


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
    # The dollar escaped after the shortening: it is one character drawn.
    return [label.replace("$", r"\$") for label in short_names(names, limit=limit)]
