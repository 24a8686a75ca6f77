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
from ._figures import FigureMaker
from ._text import escape_controls

__all__ = ["HtmlRenderer"]

_CSS = (
    "body{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}"
    "table{border-collapse:collapse;margin:1em 0}"
    "th,td{padding:.2em .6em;text-align:right;border-bottom:1px solid #ccc}"
    "th:first-child,td:first-child,th.l,td.l{text-align:left}"
    "thead th{border-bottom:2px solid #222}caption{caption-side:top;"
    "text-align:left;font-style:italic}.note{font-size:.9em}"
    "figure{margin:1em 0}figure svg{max-width:100%;height:auto}"
)


class HtmlRenderer(Renderer):
    """The report as an HTML page."""

    def escape(self, text):
        return html.escape(escape_controls(text, markup=True))

    def begin(self):
        self.out += [
            "<!DOCTYPE html>",
            '<html lang="en">',
            '<head><meta charset="utf-8"><title>sklearn-bcv report</title>',
            f"<style>{_CSS}</style></head>",
            "<body>",
            "<h1>Report</h1>",
        ]
        self._after_title = len(self.out)
        self._figures_started = False

    def end(self):
        if self.figures is None or not self.figures.n_drawn:
            self.out.insert(
                self._after_title,
                '<p class="note">This report has tables only (no figures).</p>',
            )
        self.out += ["</body>", "</html>"]
        return "\n".join(self.out) + "\n"

    def heading(self, block):
        self.out.append(f"<h2>{self.write(block.text)}</h2>")

    def paragraph(self, block):
        self.out.append(f"<p>{self.write(block.text)}</p>")

    def items(self, block):
        self.out += [
            "<ul>",
            *[f"<li>{self.write(item)}</li>" for item in block.items],
            "</ul>",
        ]

    def table(self, block):
        self.out += ["<table>", f"<caption>{self.caption(block)}</caption>"]
        left = ' class="l"'
        self.out.append(
            "<thead><tr>"
            + "".join(
                f"<th{left if 0 < j < block.label_columns else ''}>{self.write(h)}</th>"
                for j, h in enumerate(block.header)
            )
            + "</tr></thead><tbody>"
        )
        for i, row in enumerate(block.rows):
            cells = [
                self.cell(block, i, j, ("<strong>", "</strong>"))
                for j in range(len(row))
            ]
            self.out.append(
                "<tr>"
                + "".join(
                    f"<td{left if 0 < j < block.label_columns else ''}>{c}</td>"
                    for j, c in enumerate(cells)
                )
                + "</tr>"
            )
        self.out.append("</tbody></table>")
        self.out += [f'<p class="note">{self.write(note)}</p>' for note in block.notes]

    def draws_figures(self):
        return self.figures is not None and self.figures.available()

    def figure(self, block):
        """The figure as inline SVG, under a heading "Figures" before the
        first; a paragraph saying why when it cannot be drawn."""
        if self.figures is None:
            return
        if not self._figures_started:
            self._figures_started = True
            self.out.append("<h2>Figures</h2>")
            if not self.figures.available():
                self.out.append(f"<p>{self.escape(FigureMaker.NO_MATPLOTLIB)}</p>")
        if not self.figures.available():
            return
        svg, why = self.figures.svg(block)
        if svg is None:
            why = self.escape(f"not drawn ({why}).")
            self.out.append(f"<p>{self.caption(block)}: {why}</p>")
            return
        self.out += [
            "<figure>",
            svg,
            f"<figcaption>{self.caption(block)}</figcaption>",
            "</figure>",
        ]
