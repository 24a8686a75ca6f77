"""The blocks a report is made of, and the small words its sentences share.

A result says what its report holds as a list of blocks — headings,
paragraphs, lists, tables, figures and references — that know nothing of
formats; a renderer (:mod:`._render_text`, :mod:`._render_markdown`,
:mod:`._render_latex`, :mod:`._render_html`) writes them. Each block hands
itself to the renderer's method of its own kind (:meth:`accept`), so a
renderer never asks what a block is, and a result never asks which format
it is written in.

Text in a block is plain, or a :class:`Text`: plain strings joined with
:class:`Math` pieces (a statistic, ``alpha``, a minus sign), which LaTeX
sets in math mode and the other formats write in words. Every renderer
escapes the plain strings once, by its own rule, as it writes them; a
:class:`Math` piece is written by the package, never from a name.
"""

import math
import re

from ._text import format_number

__all__ = [
    "ALPHA",
    "Choice",
    "the",
    "Figure",
    "FigurePanels",
    "FloatsHere",
    "Heading",
    "Items",
    "Math",
    "Paragraph",
    "Ref",
    "References",
    "Table",
    "Text",
    "alpha_is",
    "article",
    "capital",
    "chi2",
    "count",
    "decimals_of",
    "f_stat",
    "fixed",
    "level_is",
    "math_number",
    "names_list",
    "num",
    "signed",
]


# --------------------------------------------------------------------------
# Inline text


class Math:
    """A piece of inline mathematics: LaTeX writes ``latex`` in math mode,
    the other formats write ``plain`` (escaped as any text).

    Joined to strings with ``+`` it makes a :class:`Text`; in an f-string
    it would lose its LaTeX, so formatting one is an error.
    """

    __slots__ = ("latex", "plain", "table")

    def __init__(self, latex, plain, table=None):
        self.latex = str(latex)
        self.plain = str(plain)
        # In a table (8 pt) a sub- or superscript would be 6 pt: the table
        # form sets it at 7 pt (e.g. ``d_{\mbox{\scriptsize$z$}}``).
        self.table = self.latex if table is None else str(table)

    def __add__(self, other):
        return Text(self, other)

    def __radd__(self, other):
        return Text(other, self)

    def __str__(self):
        return self.plain

    def __format__(self, spec):
        raise TypeError(
            "a Math piece joins a text with +, not inside an f-string (its "
            "LaTeX would be lost)"
        )

    def __eq__(self, other):
        return isinstance(other, Math) and (self.latex, self.plain) == (
            other.latex,
            other.plain,
        )

    __hash__ = None


class Ref:
    """A reference to a table or a figure of the report (its block): LaTeX
    writes ``Table~\\ref{label}``, the other formats ``Table 3``, numbered
    in the order the report shows them.

    Joined to strings with ``+`` it makes a :class:`Text`.
    """

    __slots__ = ("target",)

    def __init__(self, target):
        self.target = target

    def __add__(self, other):
        return Text(self, other)

    def __radd__(self, other):
        return Text(other, self)

    def __str__(self):
        return "the table" if isinstance(self.target, Table) else "the figure"

    def __format__(self, spec):
        raise TypeError("a Ref joins a text with +, not inside an f-string")

    def __eq__(self, other):
        return isinstance(other, Ref) and other.target is self.target

    __hash__ = None


class Text:
    """Plain strings, :class:`Math` pieces and :class:`Ref` pieces, in order
    (``str()``: the plain text)."""

    __slots__ = ("pieces",)

    def __init__(self, *pieces):
        flat = []
        for piece in pieces:
            if isinstance(piece, Text):
                flat.extend(piece.pieces)
            elif isinstance(piece, Math | Ref):
                flat.append(piece)
            elif piece is not None and str(piece):
                flat.append(str(piece))
        self.pieces = tuple(flat)

    def __add__(self, other):
        return Text(self, other)

    def __radd__(self, other):
        return Text(other, self)

    def __str__(self):
        return "".join(str(piece) for piece in self.pieces)

    def __format__(self, spec):
        raise TypeError(
            "a Text joins another with +, not inside an f-string (its LaTeX "
            "would be lost)"
        )

    def __eq__(self, other):
        return isinstance(other, Text) and self.pieces == other.pieces

    __hash__ = None

    @property
    def plain(self):
        """The text when it holds no :class:`Math` or :class:`Ref` piece,
        else None."""
        if any(isinstance(piece, Math | Ref) for piece in self.pieces):
            return None
        return "".join(self.pieces)


def _text(value):
    return value if isinstance(value, Text) else Text(value)


# --------------------------------------------------------------------------
# Blocks


class Heading:
    """A section heading."""

    def __init__(self, text):
        self.text = _text(text)

    def accept(self, renderer):
        return renderer.heading(self)


class Paragraph:
    """A paragraph of running text."""

    def __init__(self, text):
        self.text = _text(text)

    def accept(self, renderer):
        return renderer.paragraph(self)


class Items:
    """A bulleted list."""

    def __init__(self, items):
        self.items = [_text(item) for item in items]

    def accept(self, renderer):
        return renderer.items(self)


class References(Items):
    """The bibliography: the full entries of the works cited, in order."""

    def accept(self, renderer):
        return renderer.references(self)


class Table:
    """A table of text cells.

    Parameters
    ----------
    header : sequence of str or Text
        The column names. The first ``label_columns`` columns label the
        rows (left-aligned), the others hold values (right-aligned; LaTeX
        aligns a column of numbers on their decimal point).
    rows : sequence of sequence of str or Text
        A cell of numbers is written ``"0.9546"``, ``"-0.31"``,
        ``"0.9546 ± 0.0180"``, ``"<0.001"`` or ``"-"`` (no value); a column
        gives its numbers one number of decimals (:func:`fixed`).
    caption : str or Text
    label : str, default=None
        What the table is, in a few letters and dashes (``"scores"``): the
        end of its LaTeX ``\\label`` (after the report's ``label_prefix``).
        None: ``"table"``.
    bold : set of (row, column), default=()
        The cells set in bold (the best of a row).
    marked : set of (row, column), default=()
        The cells marked with a dagger (a difference a note explains).
    notes : sequence of str or Text, default=()
        Lines under the table.
    rules : set of int, default=()
        Rows preceded by a horizontal rule (a summary row set apart), where
        the format draws rules.
    label_columns : int, default=1
        How many leading columns label the rows.
    intro : str or Text, default=None
        What the table gives, as the running text introduces it before the
        tables ("Table 3 gives the mean score ..."): a phrase, its details
        (marks, corrections) in the caption.
    names : sequence of str, default=()
        The estimators' names the table shows (in its header or its
        cells): LaTeX may turn them upright in the header, or abbreviate
        them with a legend, to fit the table to the line.
    """

    def __init__(
        self,
        header,
        rows,
        *,
        caption,
        label=None,
        bold=(),
        marked=(),
        notes=(),
        rules=(),
        label_columns=1,
        intro=None,
        names=(),
    ):
        self.header = [_text(h) for h in header]
        self.rows = [[_text(c) for c in row] for row in rows]
        self.caption = _text(caption)
        self.label = str(label or "table")
        self.bold = set(bold)
        self.marked = set(marked)
        self.notes = [_text(note) for note in notes]
        self.rules = set(rules)
        self.label_columns = int(label_columns)
        self.intro = None if intro is None else _text(intro)
        self.names = [str(name) for name in names]

    def introduce(self, *pieces):
        """Set :attr:`intro` to ``pieces`` joined: what the block gives, as
        the running text says it after its number ("the mean score of each
        estimator on each data set"); returns the block."""
        self.intro = Text(*pieces)
        return self

    def accept(self, renderer):
        return renderer.table(self)


class Figure:
    """A figure: a Display of :mod:`sklearn_bcv` drawn from a result.

    Parameters
    ----------
    caption : str or Text
    display : str
        The public name of the Display class (e.g.
        ``"CriticalDifferenceDisplay"``); its ``from_result(source, ax=ax,
        **params)`` draws the figure.
    source : object
        What ``from_result`` is called with (the result).
    params : dict, default=None
        Its other keyword arguments.
    label : str, default=None
        What the figure is, in a few letters and dashes
        (``"critical-difference"``): the end of its LaTeX ``\\label`` and of
        its file name. None: ``"figure"``.
    size : (float, float), default=(6.4, 3.6)
        Its size in inches on a web page (HTML).
    height : float or callable, default=None
        Its height in inches when LaTeX sets it at a given width (the
        line, or the page): a number, a function of the width, or None
        (``size``'s proportions).
    width : {"line", "page"}, default="line"
        What it spans in a two-column article: a column, or the page
        (``figure*``).
    max_width : float, default=None
        The widest it is drawn, in inches (narrower than the line, it is
        centred); None: the line.
    intro : str or Text, default=None
        Its introduction in the running text (as :class:`Table`'s).

    HTML reports draw it as inline SVG, LaTeX reports (given a directory
    of figures) as a PDF file they include; text and Markdown leave it out.
    """

    def __init__(
        self,
        caption,
        display,
        source,
        params=None,
        *,
        label=None,
        size=None,
        height=None,
        width="line",
        max_width=None,
        intro=None,
    ):
        self.caption = _text(caption)
        self.display = display
        self.source = source
        self.params = dict(params or {})
        self.label = str(label or "figure")
        self.size = tuple(size or (6.4, 3.6))
        self.height = height
        self.width = width
        self.max_width = max_width
        self.intro = None if intro is None else _text(intro)

    introduce = Table.introduce

    def height_at(self, width):
        """Its height in inches when set ``width`` inches wide."""
        if callable(self.height):
            return float(self.height(width))
        if self.height is not None:
            return float(self.height)
        return self.size[1] * width / self.size[0]

    def accept(self, renderer):
        return renderer.figure(self)


class Choice:
    """Blocks a report writes in one of two forms: ``full`` (text,
    Markdown, HTML: no page to fill) or ``compact`` (LaTeX: a paper's
    pages), e.g. one table of every test's pairs instead of a table per
    test."""

    def __init__(self, full, compact):
        self.full = list(full)
        self.compact = list(compact)

    def accept(self, renderer):  # pragma: no cover - expanded by render()
        return None


class FloatsHere:
    """Where a LaTeX report sets the tables and figures that come after it
    in the report (with their introductions), so that LaTeX can place them
    on the pages of the text that follows instead of pages of floats alone;
    the other formats keep them where they are."""

    def accept(self, renderer):
        return None


class FigurePanels(Figure):
    """Several Displays of one result side by side in one figure (one float,
    one caption): the panels of a grid whose number of columns depends on
    the width it is drawn at.

    Parameters
    ----------
    caption : str or Text
    panels : list of (str, dict)
        Each panel's Display (its public name) and the other keyword
        arguments of its ``from_result``, in reading order (left to right,
        then top to bottom).
    source : object
        What every ``from_result`` is called with (the result).
    columns : callable
        The number of columns of the grid at a width in inches.
    row_height : float
        The height of a row of panels, inches.
    first_column : dict, default=None
        Keyword arguments of the panels of the first column only (their row
        labels, which the others leave out).
    label, size, width, max_width, intro
        As for :class:`Figure`.
    """

    def __init__(
        self,
        caption,
        panels,
        source,
        *,
        columns,
        row_height,
        first_column=None,
        **kwargs,
    ):
        super().__init__(caption, panels[0][0], source, **kwargs)
        self.panels = [(display, dict(params)) for display, params in panels]
        self.columns = columns
        self.row_height = float(row_height)
        self.first_column = dict(first_column or {})
        self.height = self._height

    def _height(self, width):
        n_columns = max(1, min(len(self.panels), int(self.columns(width))))
        return self.row_height * -(-len(self.panels) // n_columns)


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


def the(title):
    """``"the Friedman test"``, but ``"Nemenyi's post hoc test"`` (a name
    in the possessive takes no article)."""
    first = title.split(" ", 1)[0]
    return title if first.endswith(("'s", "’s")) else f"the {title}"


#: alpha, as a sentence says it.
ALPHA = Math(r"\alpha", "alpha")


def alpha_is(alpha):
    """``alpha = 0.05`` (LaTeX: :math:`\\alpha = 0.05`)."""
    return Math(rf"\alpha = {alpha:g}", f"alpha = {alpha:g}")


def level_is(alpha):
    """``1 - alpha = 0.95``: the posterior probability a Bayesian decision
    needs."""
    return Math(rf"1-\alpha = {1 - alpha:g}", f"1 - alpha = {1 - alpha:g}")


def chi2(df):
    """``chi2(4)`` (LaTeX: :math:`\\chi^2_{4}`)."""
    df = num(df)
    return Math(rf"\chi^2_{{{df}}}", f"chi2({df})")


def f_stat(df):
    """``F(4, 24)`` (LaTeX: :math:`F_{4,24}`)."""
    shown = [num(d) for d in df]
    return Math(rf"F_{{{','.join(shown)}}}", f"F({', '.join(shown)})")


def math_number(value, digits=3):
    """A number in a sentence: as :func:`num` writes it, with a minus sign
    or a power of ten (``2.45e-05``) set in math by LaTeX.

    Examples
    --------
    >>> from sklearn_bcv._results._blocks import math_number
    >>> piece = math_number(2.45e-05)
    >>> print(piece.plain, piece.latex)
    2.45e-05 2.45 \\times 10^{-5}
    >>> math_number(0.0201)
    '0.0201'
    """
    text = num(value, digits)
    if text in ("∞", "-∞"):
        return Math(text.replace("∞", r"\infty"), text)
    mantissa, e, exponent = text.partition("e")
    if e:
        return Math(rf"{mantissa} \times 10^{{{int(exponent)}}}", text)
    return signed(text)


def signed(text):
    """A number's text with its minus sign set in math by LaTeX (a
    :class:`Math` piece when negative, else the text)."""
    text = str(text)
    if text.startswith("-") and len(text) > 1:
        return Math(text, text)
    return text


# --------------------------------------------------------------------------
# Numbers at one precision

#: The most decimals a number is written with (beyond, a column of scores
#: averaged over splits would print noise).
MAX_DECIMALS = 4

#: Significant digits of the largest value a column keeps at most.
SIGNIFICANT = 4


def decimals_of(values, *, significant=SIGNIFICANT, max_decimals=MAX_DECIMALS):
    """The decimals a column of ``values`` is written with: the fewest that
    write every value exactly (scores given as 96.1 are "96.1", not
    "96.1000"), at most enough for ``significant`` digits of a typical
    value (the median magnitude; a perfect score of 1 among accuracies of
    0.9 changes nothing), and at most ``max_decimals``.

    Examples
    --------
    >>> from sklearn_bcv._results._blocks import decimals_of
    >>> decimals_of([96.1, 95.25, 90.0])
    2
    >>> decimals_of([0.95466667, 0.8])  # means of splits: 4 significant digits
    4
    >>> decimals_of([1234.5678])
    0
    """
    finite = [float(v) for v in values if v is not None and math.isfinite(float(v))]
    if not finite:
        return 0
    sizes = sorted(abs(v) for v in finite if v != 0)
    typical = sizes[len(sizes) // 2] if sizes else 0.0  # the median size
    magnitude = math.floor(math.log10(typical)) if typical > 0 else 0
    cap = max(0, min(max_decimals, significant - 1 - magnitude))
    for decimals in range(cap + 1):
        if all(abs(round(v, decimals) - v) <= 1e-9 * max(1.0, abs(v)) for v in finite):
            return decimals
    return cap


def fixed(value, decimals):
    """``value`` with ``decimals`` decimals ("-" for None or NaN, "∞" for an
    infinity; no "-0")."""
    if value is not None and math.isinf(float(value)):
        return "∞" if float(value) > 0 else "-∞"
    if value is None or not math.isfinite(float(value)):
        return "-"
    text = f"{float(value):.{decimals}f}"
    if re.fullmatch(r"-0\.?0*", text):
        text = text[1:]
    return text


# --------------------------------------------------------------------------
# Renderers


def _drawn_with():
    """The sentence saying which matplotlib drew the figures (part of the
    software a rerun needs)."""
    try:
        import matplotlib
    except ImportError:  # pragma: no cover - no figure is drawn without it
        return Text()
    return Text(f"The figures were drawn with matplotlib {matplotlib.__version__}.")


class Renderer:
    """Writes blocks in one format (a subclass per format).

    :meth:`render` calls :meth:`begin`, then each block's :meth:`accept`
    (which calls :meth:`heading`, :meth:`paragraph`, :meth:`items`,
    :meth:`references`, :meth:`table` or :meth:`figure`), then :meth:`end`;
    each appends lines to ``self.out``. :meth:`escape` is the format's one
    rule for plain text, :meth:`math` its way with a :class:`Math` piece.

    Parameters
    ----------
    label_prefix : str, default=""
        The start of every LaTeX label (and of the figures' file names).
    figures : object, default=None
        What draws the figures (:class:`~._figures.FigureMaker`); None
        leaves them out.
    layout : {"onecolumn", "twocolumn"}, default="onecolumn"
        The page LaTeX sets the tables and figures for.
    """

    #: The mark of a cell of ``Table.marked``.
    dagger = "†"

    #: Whether :class:`Choice` blocks take their compact form.
    compact = False

    def __init__(self, *, label_prefix="", figures=None, layout="onecolumn"):
        self.label_prefix = label_prefix
        self.figures = figures
        self.layout = layout

    def render(self, blocks):
        """The text of ``blocks``: the tables and figures numbered first
        (a :class:`Ref` may come before its target), each run of them
        after one paragraph of their introductions."""
        self.out = []
        blocks = [
            b
            for block in blocks
            for b in (
                (block.compact if self.compact else block.full)
                if isinstance(block, Choice)
                else [block]
            )
        ]
        self._number_floats(blocks)
        self.begin()
        for block in self._introduced(blocks):
            block.accept(self)
        return self.end()

    def draws_figures(self):
        """Whether this renderer shows the figures (then they are numbered
        and introduced)."""
        return False

    def _shown(self, block):
        return isinstance(block, Table) or (
            isinstance(block, Figure) and self.draws_figures()
        )

    def _number_floats(self, blocks):
        """``self.floats``: block id -> ``(kind, number)``, tables and the
        figures shown, in order."""
        self.floats = {}
        counts = {"Table": 0, "Figure": 0}
        for block in blocks:
            if self._shown(block):
                kind = "Table" if isinstance(block, Table) else "Figure"
                counts[kind] += 1
                self.floats[id(block)] = (kind, counts[kind])

    def _introduced(self, blocks):
        """``blocks`` with, before each run of tables and figures, one
        paragraph of the introductions of those shown."""
        out, run = [], []
        for block in [*blocks, None]:
            if isinstance(block, Table | Figure):
                run.append(block)
                continue
            shown = [b for b in run if b.intro is not None and self._shown(b)]
            if shown:
                text = Text()
                for i, b in enumerate(shown):
                    text += Text("; " if i else "", Ref(b), " " if i else " gives ")
                    text += b.intro
                text += "."
                if any(isinstance(b, Figure) for b in shown):
                    text += Text(" ", _drawn_with())
                out.append(Paragraph(text))
            out += run
            run = []
            if block is not None:
                out.append(block)
        return out

    def ref(self, piece):
        """A :class:`Ref`: ``Table 3`` (LaTeX writes its ``\\ref``)."""
        kind, number = self.floats.get(id(piece.target), (None, None))
        if kind is None:
            return self.escape(str(piece))
        return self.escape(f"{kind} {number}")

    def caption(self, block):
        """The caption of a table or figure, after its number."""
        kind, number = self.floats.get(id(block), (None, None))
        text = self.write(block.caption)
        return text if kind is None else f"{self.escape(f'{kind} {number}.')} {text}"

    def escape(self, text):  # pragma: no cover - every format has its own
        raise NotImplementedError

    def math(self, piece):
        """A :class:`Math` piece: its plain words, escaped."""
        return self.escape(piece.plain)

    def write(self, text):
        """A :class:`Text` (or a string): its strings escaped, its
        :class:`Math` pieces as the format writes them."""
        pieces = text.pieces if isinstance(text, Text) else (str(text),)
        return "".join(
            self.math(piece)
            if isinstance(piece, Math)
            else self.ref(piece)
            if isinstance(piece, Ref)
            else self.escape(piece)
            for piece in pieces
        )

    def cell(self, table, i, j, bold=("", "")):
        """Cell ``(i, j)`` of ``table``, escaped, marked and set in bold as
        the table says."""
        text = self.write(table.rows[i][j])
        if (i, j) in table.marked:
            text += self.dagger
        if (i, j) in table.bold:
            text = f"{bold[0]}{text}{bold[1]}"
        return text

    def begin(self):
        pass

    def end(self):
        return "\n".join(self.out) + "\n"

    def references(self, block):
        """The bibliography: a list, unless the format has its own way."""
        return self.items(block)

    def figure(self, block):
        """Figures are drawn in HTML and LaTeX only."""
