"""Reports as plain text.

The one rule: every character that is not visible (a newline, ESC or any
other control character, a bidirectional override) is written as its
escape (:func:`~._text.escape_controls`), so a name cannot break a line,
a table or the terminal the report is printed on.
"""

from ._blocks import Renderer
from ._text import escape_controls, text_table

__all__ = ["TextRenderer"]


class TextRenderer(Renderer):
    """The report as plain text."""

    def escape(self, text):
        return escape_controls(text)

    def begin(self):
        self.out += ["Report", "======"]

    def heading(self, block):
        text = self.write(block.text)
        self.out += ["", text, "-" * len(text)]

    def paragraph(self, block):
        self.out.append(self.write(block.text))

    def items(self, block):
        self.out += [f"* {self.write(item)}" for item in block.items]

    def table(self, block):
        rows = [
            [self.cell(block, i, j, ("*", "*")) for j in range(len(row))]
            for i, row in enumerate(block.rows)
        ]
        header = [self.write(h) for h in block.header]
        self.out += ["", self.caption(block)]
        self.out += [
            "  " + line
            for line in text_table(
                header,
                rows,
                right_aligned=tuple(range(block.label_columns, len(header))),
            )
        ]
        self.out += ["  (*: bold)"] if block.bold else []
        self.out += [f"  {self.write(note)}" for note in block.notes]
