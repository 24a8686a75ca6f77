"""Reports as a LaTeX fragment a paper can ``\\input``.

The one rule, for every string: invisible characters are written as their
escapes (:func:`~._text.escape_controls`: a newline cannot end a paragraph
inside a table), then each character LaTeX treats specially is written as
the command that prints it, and a character plain ``pdflatex`` cannot
print (with its default font encoding) is written as its closest ASCII
form, else as its escape ``\\uXXXX``. The fragment is therefore always
balanced and compiles with ``\\usepackage{booktabs}`` and
``\\usepackage{graphicx}``, whatever the names. Statistics, ``alpha`` and
minus signs (:class:`~._blocks.Math` pieces) are set in math mode.

The layout of a table, the same in a one- or a two-column article:

* every table is a float with its ``\\caption`` and ``\\label``, its rules
  from ``booktabs``;
* a column of numbers is aligned on the decimal point, without any package:
  a number is split into two columns at its point (``r@{}l``), and its
  ``± sd`` into two more, so a bold cell, whose digits are wider, and a
  dagger, set in no width (``\\rlap``), leave the points in line;
* a table is set at its natural size when it fits the line, else scaled
  down to ``\\linewidth`` (``\\resizebox`` of ``graphicx``), so it never
  runs into the margin; the results keep their tables narrow (no repeated
  column, the spread of the scores in a table of its own beyond four
  estimators), so a one-column article needs no scaling up to eight
  estimators with short names.
"""

import re
import unicodedata

from ._blocks import Math, Renderer, Text
from ._figures import figure_file_name, file_stem
from ._text import escape_controls

__all__ = ["LatexRenderer", "latex_escape"]

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "±": r"$\pm$",
    "†": r"$^\dagger$",
    "∞": r"$\infty$",
    "−": "-",
}

#: The letters and signs beyond ASCII that ``pdflatex`` prints with its
#: default input and font encodings (checked by compiling each one): the
#: Latin-1 and Latin Extended-A ones but those that need the T1 encoding
#: (eth, thorn, ogoneks, ...).
_PRINTABLE = frozenset(
    "\xa0¡¢£¤¥¦§¨©ª¬®¯°²³´µ¶·¸¹º¼½¾¿ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÑÒÓÔÕÖ×ØÙÚÛÜÝßàáâãäåæçèéêë"
    "ìíîïñòóôõö÷øùúûüýÿĀāĂăĆćĈĉĊċČčĎďĒēĔĕĖėĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭİıĲĳĴĵĶķĹĺĻļĽľ"
    "ŁłŃńŅņŇňŌōŎŏŐőŒœŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŴŵŶŷŸŹźŻżŽž"
)

#: Punctuation with an ASCII spelling LaTeX turns back into the sign.
_PUNCTUATION = {
    "–": "--",
    "—": "---",
    "‘": "`",
    "’": "'",
    "“": "``",
    "”": "''",
    "«": "<<",
    "»": ">>",
    "…": "...",
}


def _spell(char):
    """A character beyond ASCII and :data:`_PRINTABLE`: its ASCII form
    (``ﬁ`` -> ``fi``, ``ǅ`` -> ``Dž``), else its escape."""
    if char in _PUNCTUATION:
        return _PUNCTUATION[char]
    base = unicodedata.normalize("NFKD", char)
    base = "".join(c for c in base if unicodedata.category(c) != "Mn")
    if base and all((" " <= c <= "~") or c in _PRINTABLE for c in base):
        return base
    code = ord(char)
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def latex_escape(text):
    """``text`` as LaTeX prints it, literally.

    Examples
    --------
    >>> from sklearn_bcv._results._render_latex import latex_escape
    >>> print(latex_escape("a_b & 50%\\nα"))
    a\\_b \\& 50\\%\\textbackslash{}x0a\\textbackslash{}u03b1
    """
    out = []
    for char in escape_controls(text):
        if char in _LATEX_SPECIAL:
            out.append(_LATEX_SPECIAL[char])
        elif " " <= char <= "~" or char in _PRINTABLE:
            out.append(char)
        else:
            out.append("".join(_LATEX_SPECIAL.get(c, c) for c in _spell(char)))
    return "".join(out)


#: Inside a word of code (``Pipeline(StandardScaler(), C=1.0)``), the
#: places a line may break: after a call's ``(`` (a name of two letters or
#: more: ``P(best)`` stays whole), ``,`` and ``=`` not followed by a space;
#: names stay whole, as a reader searches for them. TeX does not hyphenate
#: such words, and one longer than the line's slack would stick out.
_CODE_BREAK = re.compile(r"((?<=\w\w)\(|,|=)(?=[^\s])")


def _breakable(text):
    """``text`` with ``\\allowbreak{}`` where a word of code may break."""
    return _CODE_BREAK.sub(lambda m: m.group(1) + r"\allowbreak{}", text)


def _first(text):
    """A row's first cell or an item: ``{}`` before a leading ``[`` or
    ``*``, which ``\\\\``, ``\\midrule`` and ``\\item`` would read as their
    optional argument."""
    return "{}" + text if text[:1] in ("[", "*") else text


#: A cell of numbers: an optional sign or bound, digits, a fraction, and an
#: optional ``± sd`` (see :class:`~._blocks.Table`).
_NUMBER = r"(?P<{0}sign>[<>]?-?)(?P<{0}int>\d+)(?P<{0}frac>\.\d+)?"
_NUMBER_CELL = re.compile(_NUMBER.format("m") + r"(?: ± " + _NUMBER.format("s") + r")?")
#: A cell that holds no number in a column of numbers.
_PLACEHOLDERS = frozenset({"-", "", "–"})

#: A table wider than the line is scaled down to it (never up).
_FIT = r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%"


def _numbers(table, j):
    """How column ``j`` of ``table`` is split to align its numbers: the
    match of each cell (None for a placeholder) and the sub-columns of its
    mean and of its sd (1 or 2 each; 0 for an sd the column lacks), or None
    when the column does not hold numbers."""
    matches = []
    for row in table.rows:
        plain = row[j].plain
        if plain is None:
            return None
        if plain in _PLACEHOLDERS:
            matches.append(None)
            continue
        match = _NUMBER_CELL.fullmatch(plain)
        if match is None:
            return None
        matches.append(match)
    found = [m for m in matches if m is not None]
    if not found:
        return None
    mean = 2 if any(m["mfrac"] for m in found) else 1
    sd = 0
    if any(m["sint"] is not None for m in found):
        sd = 2 if any(m["sfrac"] for m in found) else 1
    return matches, mean, sd


def _sign(text):
    return "".join({"-": "$-$", "<": "$<$", ">": "$>$"}[char] for char in text)


class LatexRenderer(Renderer):
    """The report as a LaTeX fragment."""

    #: A dagger in no width: the column keeps its alignment.
    dagger = r"\rlap{$^\dagger$}"

    def escape(self, text):
        return latex_escape(text)

    def math(self, piece):
        return f"${piece.latex}$"

    def begin(self):
        from .._version import __version__

        self._labels = set()
        self._figures_left = 0
        prefix = self.label_prefix
        self.out += [
            f"% Report of a sklearn-bcv {__version__} comparison, to \\input{{}} "
            "in a LaTeX document.",
            "% Preamble: \\usepackage{booktabs} \\usepackage{graphicx}",
            "% (graphicx: the figures, and a table wider than the line scaled "
            "down to it).",
            f"% Each table and figure is a float with a \\caption and a "
            f"\\label{{{prefix}...}}.",
            "% A name or parameter longer than a line may stretch the spaces around it",
            "% (\\emergencystretch, inside this fragment's group only).",
            "\\begingroup",
            "\\setlength{\\emergencystretch}{3em}",
        ]

    def end(self):
        self.out += ["", "\\endgroup"]
        if self._figures_left:
            self.out += [
                "",
                f"% This report has {self._figures_left} figure(s): "
                'report("latex", figures="DIR") (the command line\'s '
                "--report-figures DIR) writes them as PDF files and includes them.",
            ]
        return "\n".join(self.out).rstrip("\n") + "\n"

    def _label(self, what):
        """A label of the report, unique in it: the prefix, then ``what``."""
        label = f"{self.label_prefix}{file_stem(what)}"
        unique, n = label, 1
        while unique in self._labels:
            n += 1
            unique = f"{label}-{n}"
        self._labels.add(unique)
        return unique

    def heading(self, block):
        self.out += ["", f"\\paragraph{{{self.write(block.text)}}}"]

    def paragraph(self, block):
        pieces = block.text.pieces if isinstance(block.text, Text) else (block.text,)
        self.out += [
            "".join(
                self.math(piece)
                if isinstance(piece, Math)
                else _breakable(self.escape(str(piece)))
                for piece in pieces
            ),
            "",
        ]

    def items(self, block):
        self.out += ["\\begin{itemize}"]
        self.out += [f"\\item {_first(self.write(item))}" for item in block.items]
        self.out += ["\\end{itemize}"]

    def references(self, block):
        """A list with hanging indents, ragged right (a long title or DOI
        never runs into the margin)."""
        self.out += [
            "{\\raggedright",
            "\\begin{list}{}{\\setlength{\\leftmargin}{1.5em}"
            "\\setlength{\\itemindent}{-1.5em}\\setlength{\\itemsep}{0pt}}",
        ]
        self.out += [f"\\item {_first(self.write(item))}" for item in block.items]
        self.out += ["\\end{list}", "\\par}"]

    def table(self, block):
        n = len(block.header)
        columns = [
            None if j < block.label_columns else _numbers(block, j) for j in range(n)
        ]
        spec = []
        for j, numbers in enumerate(columns):
            if numbers is None:
                spec.append("l" if j < block.label_columns else "r")
                continue
            _, mean, sd = numbers
            parts = ["r@{}l" if mean == 2 else "r"]
            if sd:
                parts.append("r@{}l" if sd == 2 else "r")
            spec.append("@{\\,}".join(parts))
        header = []
        for j, h in enumerate(block.header):
            text = self.write(h)
            width = self._width(columns[j])
            header.append(
                text if width == 1 else f"\\multicolumn{{{width}}}{{c}}{{{text}}}"
            )
        header[0] = _first(header[0])
        self.out += [
            "",
            "\\begin{table}[htbp]",
            "\\centering",
            f"\\caption{{{self.write(block.caption)}}}",
            f"\\label{{{self._label(block.label)}}}",
            "\\smallskip",
            _FIT,
            f"\\begin{{tabular}}{{{''.join(spec)}}}",
            "\\toprule",
            " & ".join(header) + " \\\\",
            "\\midrule",
        ]
        for i, row in enumerate(block.rows):
            if i in block.rules:
                self.out.append("\\midrule")
            cells = [
                self._number_cell(block, i, j, columns[j])
                if columns[j] is not None
                else self.cell(block, i, j, ("\\textbf{", "}"))
                for j in range(len(row))
            ]
            cells[0] = _first(cells[0])
            self.out.append(" & ".join(cells) + " \\\\")
        self.out += ["\\bottomrule", "\\end{tabular}}"]
        for note in block.notes:
            self.out += [
                "",
                "\\smallskip",
                f"{{\\footnotesize\\raggedright {self.write(note)}\\par}}",
            ]
        self.out.append("\\end{table}")

    @staticmethod
    def _width(numbers):
        """The sub-columns of a column (1 for a column of text)."""
        if numbers is None:
            return 1
        _, mean, sd = numbers
        return mean + sd

    def _number_cell(self, block, i, j, numbers):
        """Cell ``(i, j)`` of a column of numbers, split at its decimal
        point (and that of its sd) into the column's sub-columns."""
        matches, mean, sd = numbers
        match = matches[i]
        if match is None:
            width = mean + sd
            return "--" if width == 1 else f"\\multicolumn{{{width}}}{{c}}{{--}}"
        parts = [_sign(match["msign"]) + match["mint"]]
        if mean == 2:
            parts.append(match["mfrac"] or "")
        if sd:
            if match["sint"] is None:
                parts += [""] * sd
            else:
                parts.append("$\\pm$" + _sign(match["ssign"]) + match["sint"])
                if sd == 2:
                    parts.append(match["sfrac"] or "")
        if (i, j) in block.bold:
            parts = [f"\\textbf{{{part}}}" if part else "" for part in parts]
        if (i, j) in block.marked:
            last = max(k for k, part in enumerate(parts) if part)
            parts[last] += self.dagger
        return " & ".join(parts)

    def figure(self, block):
        """A float including the figure's PDF, written in the directory of
        figures; without one, a comment at the end says how to have them."""
        if self.figures is None or self.figures.directory is None:
            self._figures_left += 1
            return
        label = self._label(f"fig-{block.label}")
        path, why = self.figures.pdf(block, figure_file_name(label))
        if path is None:  # left out, and said where the figure would be
            self.out += [
                "",
                f"% Figure not drawn: {escape_controls(str(block.caption))} "
                f"({escape_controls(why)})",
                f"\\par\\noindent{{\\small {self.write(block.caption)}: not drawn "
                f"({self.escape(why)}).}}\\par",
            ]
            return
        self.out += [
            "",
            "\\begin{figure}[htbp]",
            "\\centering",
            f"\\includegraphics[width=\\linewidth]{{{path.as_posix()}}}",
            f"\\caption{{{self.write(block.caption)}}}",
            f"\\label{{{label}}}",
            "\\end{figure}",
        ]
