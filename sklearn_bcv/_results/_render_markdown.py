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

    def begin(self):
        self.out.append("# Report")

    def end(self):
        return "\n".join(self.out).rstrip("\n") + "\n"

    def heading(self, block):
        self.out += ["", f"## {self.write(block.text)}", ""]

    def paragraph(self, block):
        self.out += [self.write(block.text), ""]

    def items(self, block):
        self.out += [f"- {self.write(item)}" for item in block.items]

    def table(self, block):
        self.out += ["", f"*{self.caption(block)}*", ""]
        self.out.append("| " + " | ".join(self.write(h) for h in block.header) + " |")
        n, labels = len(block.header), block.label_columns
        self.out.append(
            "|" + "|".join(["---"] * labels + ["---:"] * (n - labels)) + "|"
        )
        for i, row in enumerate(block.rows):
            cells = [self.cell(block, i, j, ("**", "**")) for j in range(len(row))]
            self.out.append("| " + " | ".join(cells) + " |")
        self.out += ["", *[self.write(note) for note in block.notes]]
