"""Reports as one self-contained HTML page (inline CSS, figures as inline
SVG).

The one rule: control characters are written as their escapes
(:func:`~._text.escape_controls` with ``markup=True``; a name's other
characters, bidirectional marks included, are shown as they are), then
``&``, ``<``, ``>`` and quotes as HTML entities (:func:`html.escape`), so
no name can open a tag.
"""

import html

from ._blocks import Renderer
from ._text import escape_controls

__all__ = ["HtmlRenderer"]

_CSS = (
    "body{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}"
    "table{border-collapse:collapse;margin:1em 0}"
    "th,td{padding:.2em .6em;text-align:right;border-bottom:1px solid #ccc}"
    "th:first-child,td:first-child{text-align:left}"
    "thead th{border-bottom:2px solid #222}caption{caption-side:top;"
    "text-align:left;font-style:italic}.note{font-size:.9em}"
    "figure{margin:1em 0}figure svg{max-width:100%;height:auto}"
)


class HtmlRenderer(Renderer):
    """The report as an HTML page."""

    def escape(self, text):
        return html.escape(escape_controls(text, markup=True))

    def begin(self, n_figures):
        self.out += [
            "<!DOCTYPE html>",
            '<html lang="en">',
            '<head><meta charset="utf-8"><title>sklearn-bcv report</title>',
            f"<style>{_CSS}</style></head>",
            "<body>",
            "<h1>Report</h1>",
        ]
        if not n_figures:
            self.out.append(
                '<p class="note">This report has tables only (no figures).</p>'
            )

    def end(self):
        self.out += ["</body>", "</html>"]
        return "\n".join(self.out) + "\n"

    def heading(self, block):
        self.out.append(f"<h2>{self.escape(block.text)}</h2>")

    def paragraph(self, block):
        self.out.append(f"<p>{self.escape(block.text)}</p>")

    def items(self, block):
        self.out += [
            "<ul>",
            *[f"<li>{self.escape(item)}</li>" for item in block.items],
            "</ul>",
        ]

    def table(self, block):
        self.out += ["<table>", f"<caption>{self.escape(block.caption)}</caption>"]
        self.out.append(
            "<thead><tr>"
            + "".join(f"<th>{self.escape(h)}</th>" for h in block.header)
            + "</tr></thead><tbody>"
        )
        for i, row in enumerate(block.rows):
            cells = [
                self.cell(block, i, j, ("<strong>", "</strong>"))
                for j in range(len(row))
            ]
            self.out.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        self.out.append("</tbody></table>")
        self.out += [f'<p class="note">{self.escape(note)}</p>' for note in block.notes]

    def figure(self, block):
        self.out += [
            "<figure>",
            block.svg,
            f"<figcaption>{self.escape(block.caption)}</figcaption>",
            "</figure>",
        ]
