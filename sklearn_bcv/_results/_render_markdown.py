"""Reports as Markdown (CommonMark, with GitHub's tables).

The one rule: invisible characters are written as their escapes
(:func:`~._text.escape_controls`: a newline cannot end a table row), then
every character Markdown could read as markup is escaped with a backslash
(``|`` cannot split a cell, ``*`` or ``_`` cannot start emphasis, ``<``
cannot open a tag, ``$`` cannot start math, ``&lt;`` stays four
characters).
"""

import re

from ._blocks import Renderer
from ._text import escape_controls

__all__ = ["MarkdownRenderer", "markdown_escape"]

#: Markup characters, and an ``&`` that would start an entity (``&lt;``).
_MARKUP = re.compile(r"([\\`*_{}\[\]<>|~$]|&(?=#?[A-Za-z0-9]+;))")


def markdown_escape(text):
    """``text`` as Markdown shows it, literally.

    Examples
    --------
    >>> from sklearn_bcv._results._render_markdown import markdown_escape
    >>> print(markdown_escape("a|b\\n*c*"))
    a\\|b\\\\x0a\\*c\\*
    """
    return _MARKUP.sub(r"\\\1", escape_controls(text))


class MarkdownRenderer(Renderer):
    """The report as Markdown."""

    def escape(self, text):
        return markdown_escape(text)

    def begin(self, n_figures):
        self.out.append("# Report")

    def end(self):
        return "\n".join(self.out).rstrip("\n") + "\n"

    def heading(self, block):
        self.out += ["", f"## {self.escape(block.text)}", ""]

    def paragraph(self, block):
        self.out += [self.escape(block.text), ""]

    def items(self, block):
        self.out += [f"- {self.escape(item)}" for item in block.items]

    def table(self, block):
        self.out += ["", f"*{self.escape(block.caption)}*", ""]
        self.out.append("| " + " | ".join(self.escape(h) for h in block.header) + " |")
        self.out.append(
            "|" + "|".join(["---", *["---:"] * (len(block.header) - 1)]) + "|"
        )
        for i, row in enumerate(block.rows):
            cells = [self.cell(block, i, j, ("**", "**")) for j in range(len(row))]
            self.out.append("| " + " | ".join(cells) + " |")
        self.out += ["", *[self.escape(note) for note in block.notes]]
