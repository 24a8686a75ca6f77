"""Reports of a result in text, Markdown, LaTeX or HTML.

A result says what its report holds (``result._report_blocks()``: its
methods, the tests and why, the verdicts in sentences, the tables, the
figures and the references), as blocks that do not depend on the format
(:mod:`._blocks`). This module only has them written: one renderer per
format, each escaping every string once, by its own rule, as it writes it,
and drawing the figures its format holds (:mod:`._figures`). It knows no
result type: a new result class brings its own blocks and nothing here
changes.
"""

import re
from pathlib import Path

from ._figures import (
    FigureMaker,
    check_figures_directory,
    register_displays,
    svg_text,
)
from ._latex_layout import LAYOUTS, check_layout
from ._render_html import HtmlRenderer
from ._render_latex import LatexRenderer, latex_escape
from ._render_markdown import MarkdownRenderer
from ._render_text import TextRenderer

__all__ = [
    "DEFAULT_LABEL_PREFIX",
    "LAYOUTS",
    "REPORT_FORMATS",
    "check_label_prefix",
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

#: The start of the LaTeX labels of a report (``\\ref{bcv:scores}``).
DEFAULT_LABEL_PREFIX = "bcv:"


def check_report_format(format):
    """``format`` if it is one of :data:`REPORT_FORMATS`, else a ValueError."""
    if not isinstance(format, str) or format not in REPORT_FORMATS:
        raise ValueError(
            f"format must be one of {', '.join(map(repr, REPORT_FORMATS))}; "
            f"got {format!r}."
        )
    return format


#: What a LaTeX label may hold here: letters, digits, ``:``, ``.``, ``_``
#: and ``-`` (no brace, space or control sequence).
_LABEL = re.compile(r"[A-Za-z0-9:._\-]*")


def check_label_prefix(label_prefix):
    """``label_prefix`` if a LaTeX label can start with it, else a
    ValueError."""
    if not isinstance(label_prefix, str) or not _LABEL.fullmatch(label_prefix):
        raise ValueError(
            "label_prefix must be a string of letters, digits, ':', '.', '_' "
            f"and '-' (the start of every LaTeX label); got {label_prefix!r}."
        )
    return label_prefix


def _figure_maker(format, figures, relative_to=None):
    """What draws the figures of a report in ``format``, or None; a LaTeX
    report's directory of figures is relative to ``relative_to`` (the
    folder of the report's file) when given."""
    path = figures not in (None, True, False)
    if path and format != "latex":
        raise ValueError(
            "figures may name a directory of PDF files for a LaTeX report only; "
            f"for format={format!r} give True, False or None; got {figures!r}."
        )
    if format == "latex":
        if figures is True:
            raise ValueError(
                "figures=True: a LaTeX report includes its figures as PDF files; "
                "give the directory to write them in (figures='figures')."
            )
        if not path:
            return None
        reference = check_figures_directory(figures)
        directory = reference
        if relative_to is not None and not reference.is_absolute():
            directory = Path(relative_to) / reference
        return FigureMaker(directory, reference.as_posix())
    if format == "html" and figures is not False:
        return FigureMaker()
    return None


def render_report(
    result,
    format="text",
    *,
    figures=None,
    label_prefix="bcv:",
    layout="onecolumn",
    relative_to=None,
):
    """The report of a comparison as a string.

    Parameters
    ----------
    result : ComparisonResult, ManyComparisonResult, BenchmarkResult or SequentialResult
        The result reported (any object with ``_report_blocks()``).
    format : {"text", "markdown", "latex", "html"}, default="text"
        ``"latex"`` gives a fragment to ``\\input`` (the preamble lines it
        needs are in a comment at its top), ``"html"`` one self-contained
        page (inline CSS, figures as inline SVG when matplotlib is
        installed).
    figures : bool, str, path-like or None, default=None
        HTML: None or True embeds the figures, False leaves them out.
        LaTeX: a directory (relative to the document) where each figure
        is written as a PDF file the report includes; None or False leaves
        them out (a comment says so). Text and Markdown have no figures.
    label_prefix : str, default="bcv:"
        The start of every LaTeX ``\\label`` (``bcv:scores``) and of the
        figures' file names; two reports ``\\input`` in one document take
        two prefixes.
    layout : {"onecolumn", "twocolumn"}, default="onecolumn"
        The article LaTeX sets the tables and figures for
        (:mod:`._latex_layout`).
    relative_to : path-like, default=None
        The folder of the report's file: a relative ``figures`` directory
        is there (and ``\\includegraphics`` names it as given). None: the
        working directory.

    Returns
    -------
    report : str
        The same result gives the same bytes, every time and in every
        process (the figures carry no date and no random id).
    """
    check_report_format(format)
    label_prefix = check_label_prefix(label_prefix)
    layout = check_layout(layout)
    maker = _figure_maker(format, figures, relative_to)
    renderer = _RENDERERS[format](
        label_prefix=label_prefix, figures=maker, layout=layout
    )
    return renderer.render(list(result._report_blocks()))
