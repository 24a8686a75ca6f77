"""Reports of a result in text, Markdown, LaTeX or HTML.

A result says what its report holds (``result._report_blocks()``: what was
compared, which tests ran and why, the verdicts in sentences, the tables;
``result._report_figures()``: its figures), as blocks that do not depend
on the format (:mod:`._blocks`). This module only writes them: one
renderer per format, each escaping every string once, by its own rule, as
it writes it. It knows no result type: a new result class brings its own
blocks and nothing here changes.

The figures of an HTML report are the package's Displays, which sit above
the results in the layers: :mod:`sklearn_bcv._plot` hands them over when
imported (as ``import sklearn_bcv`` does) through
:func:`register_displays`, and a figure block names the Display it wants.
"""

import io
import warnings

from ._blocks import Paragraph
from ._render_html import HtmlRenderer
from ._render_latex import LatexRenderer, latex_escape
from ._render_markdown import MarkdownRenderer
from ._render_text import TextRenderer
from ._text import escape_controls

__all__ = [
    "REPORT_FORMATS",
    "check_report_format",
    "latex_escape",
    "register_displays",
    "render_report",
    "svg_text",
]

#: The format of a report -> its renderer.
_RENDERERS = {
    "text": TextRenderer,
    "markdown": MarkdownRenderer,
    "latex": LatexRenderer,
    "html": HtmlRenderer,
}

#: The formats of :func:`render_report`.
REPORT_FORMATS = tuple(_RENDERERS)


def check_report_format(format):
    """``format`` if it is one of :data:`REPORT_FORMATS`, else a ValueError."""
    if not isinstance(format, str) or format not in REPORT_FORMATS:
        raise ValueError(
            f"format must be one of {', '.join(map(repr, REPORT_FORMATS))}; "
            f"got {format!r}."
        )
    return format


def render_report(result, format="text", *, figures=True):
    """The report of a comparison as a string.

    Parameters
    ----------
    result : ComparisonResult, ManyComparisonResult, BenchmarkResult or SequentialResult
        The result reported (any object with ``_report_blocks()`` and
        ``_report_figures()``).
    format : {"text", "markdown", "latex", "html"}, default="text"
        ``"latex"`` gives a fragment (tables need ``booktabs``; the
        preamble lines needed are in a comment at its top), ``"html"`` one
        self-contained page (inline CSS, figures as inline SVG when
        matplotlib is installed).
    figures : bool, default=True
        HTML only: embed the figures.

    Returns
    -------
    report : str
        The same result gives the same bytes, every time and in every
        process (the figures carry no date and no random id).
    """
    check_report_format(format)
    blocks = list(result._report_blocks())
    drawn = 0
    if format == "html" and figures:
        extra, drawn = _drawn_figures(result._report_figures())
        blocks += extra
    return _RENDERERS[format]().render(blocks, n_figures=drawn)


# --------------------------------------------------------------------------
# Figures (HTML)

#: Display name -> Display class, from :func:`register_displays`.
_DISPLAYS = {}


def register_displays(*displays):
    """Make Display classes available to the figures of reports, by their
    class name (see :class:`~._blocks.Figure`)."""
    for display in displays:
        _DISPLAYS[display.__name__] = display
    return displays


#: What makes matplotlib's SVG the same bytes for the same figure: its
#: element ids are hashes salted with this (not with a random number) and
#: it writes no date.
_SVG_SALT = "sklearn-bcv"


def svg_text(fig):
    """The SVG of a matplotlib figure, from ``<svg`` on, the same bytes for
    the same figure every time (no date in its metadata, element ids from
    a fixed salt), with the control characters of its texts (a name's
    newline or ESC, which XML cannot hold) written as escapes."""
    import matplotlib

    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": _SVG_SALT}):
        fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    lines = buffer.getvalue().split("\n")
    svg = "\n".join(escape_controls(line, markup=True) for line in lines)
    return svg[svg.find("<svg") :]


def _drawn_figures(figures):
    """``(blocks, n_drawn)``: the figure blocks with their SVG drawn, or
    paragraphs saying why a figure is left out (a figure never stops a
    report)."""
    try:
        from matplotlib.figure import Figure as MatplotlibFigure
    except ImportError:
        message = "Figures are left out: they need matplotlib (pip install matplotlib)."
        return [Paragraph(message)], 0
    blocks, drawn = [], 0
    for figure in figures:
        display = _DISPLAYS.get(figure.display)
        if display is None:  # pragma: no cover - sklearn_bcv imports the plots
            blocks.append(
                Paragraph(f"{figure.caption}: not drawn ({figure.display} not loaded).")
            )
            continue
        fig = MatplotlibFigure(figsize=(6.4, 3.6))
        with warnings.catch_warnings():
            # A name in a script the font lacks is drawn as a box; saying so
            # each time a report is written helps no one.
            warnings.filterwarnings("ignore", "Glyph .* missing from", UserWarning)
            try:
                display.from_result(
                    figure.source, ax=fig.add_subplot(), **figure.params
                )
            except Exception as exc:  # a figure never stops the report
                blocks.append(Paragraph(f"{figure.caption}: not drawn ({exc})."))
                continue
            figure.svg = svg_text(fig)
        blocks.append(figure)
        drawn += 1
    return blocks, drawn
