"""The blocks a report is made of, and the small words its sentences share.

A result says what its report holds as a list of blocks — headings,
paragraphs, lists, tables and figures — that know nothing of formats; a
renderer (:mod:`._render_text`, :mod:`._render_markdown`,
:mod:`._render_latex`, :mod:`._render_html`) writes them. Each block hands
itself to the renderer's method of its own kind (:meth:`accept`), so a
renderer never asks what a block is, and a result never asks which format
it is written in. Text in a block is plain: every renderer escapes it once,
by its own rule, as it writes it.
"""

from ._text import format_number

__all__ = [
    "Figure",
    "Heading",
    "Items",
    "Paragraph",
    "Table",
    "article",
    "capital",
    "count",
    "names_list",
    "num",
]


class Heading:
    """A section heading."""

    def __init__(self, text):
        self.text = str(text)

    def accept(self, renderer):
        return renderer.heading(self)


class Paragraph:
    """A paragraph of running text."""

    def __init__(self, text):
        self.text = str(text)

    def accept(self, renderer):
        return renderer.paragraph(self)


class Items:
    """A bulleted list."""

    def __init__(self, items):
        self.items = [str(item) for item in items]

    def accept(self, renderer):
        return renderer.items(self)


class Table:
    """A table of text cells.

    Parameters
    ----------
    header : sequence of str
        The column names; the first column is a row label, left-aligned,
        the others right-aligned.
    rows : sequence of sequence of str
    caption : str
    bold : set of (row, column), default=()
        The cells set in bold (the best of a row).
    marked : set of (row, column), default=()
        The cells marked with a dagger (a difference a note explains).
    notes : sequence of str, default=()
        Lines under the table.
    rules : set of int, default=()
        Rows preceded by a horizontal rule (a summary row set apart), where
        the format draws rules.
    """

    def __init__(
        self, header, rows, *, caption, bold=(), marked=(), notes=(), rules=()
    ):
        self.header = [str(h) for h in header]
        self.rows = [[str(c) for c in row] for row in rows]
        self.caption = str(caption)
        self.bold = set(bold)
        self.marked = set(marked)
        self.notes = [str(note) for note in notes]
        self.rules = set(rules)

    def accept(self, renderer):
        return renderer.table(self)


class Figure:
    """A figure: a Display of :mod:`sklearn_bcv` drawn from a result.

    Parameters
    ----------
    caption : str
    display : str
        The public name of the Display class (e.g.
        ``"CriticalDifferenceDisplay"``); its ``from_result(source, ax=ax,
        **params)`` draws the figure.
    source : object
        What ``from_result`` is called with (the result).
    params : dict, default=None
        Its other keyword arguments.

    Only HTML reports draw figures (:func:`._report.render_report` turns
    each into its SVG, ``svg``, before rendering); the other formats skip
    them.
    """

    def __init__(self, caption, display, source, params=None):
        self.caption = str(caption)
        self.display = display
        self.source = source
        self.params = dict(params or {})
        self.svg = None

    def accept(self, renderer):
        return renderer.figure(self)


# --------------------------------------------------------------------------
# Words


def num(value, digits=3):
    """A number as reports write it ("-" for None)."""
    return format_number(None if value is None else value, digits)


def names_list(names):
    """``"a, b and c"``."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def count(n, noun):
    """``"1 pair"``, ``"3 pairs"``."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


def capital(text):
    return text[:1].upper() + text[1:]


def article(text):
    return ("an " if text[:1].lower() in "aeiou" else "a ") + text


# --------------------------------------------------------------------------
# Renderers


class Renderer:
    """Writes blocks in one format (a subclass per format).

    :meth:`render` calls :meth:`begin`, then each block's :meth:`accept`
    (which calls :meth:`heading`, :meth:`paragraph`, :meth:`items`,
    :meth:`table` or :meth:`figure`), then :meth:`end`; each appends lines
    to ``self.out``. :meth:`escape` is the format's one rule for text.
    """

    #: The mark of a cell of ``Table.marked``.
    dagger = "†"

    def render(self, blocks, *, n_figures=0):
        """The text of ``blocks``; ``n_figures`` figures were drawn."""
        self.out = []
        self.begin(n_figures)
        for block in blocks:
            block.accept(self)
        return self.end()

    def escape(self, text):  # pragma: no cover - every format has its own
        raise NotImplementedError

    def cell(self, table, i, j, bold=("", "")):
        """Cell ``(i, j)`` of ``table``, escaped, marked and set in bold as
        the table says."""
        text = self.escape(table.rows[i][j])
        if (i, j) in table.marked:
            text += self.dagger
        if (i, j) in table.bold:
            text = f"{bold[0]}{text}{bold[1]}"
        return text

    def begin(self, n_figures):
        pass

    def end(self):
        return "\n".join(self.out) + "\n"

    def figure(self, block):
        """Figures are drawn in HTML only."""
