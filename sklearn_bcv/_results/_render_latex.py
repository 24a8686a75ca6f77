"""Reports as a LaTeX fragment (tables with ``booktabs``).

The one rule, for every string: invisible characters are written as their
escapes (:func:`~._text.escape_controls`: a newline cannot end a paragraph
inside a table), then each character LaTeX treats specially is written as
the command that prints it, and a character plain ``pdflatex`` cannot
print (with its default font encoding) is written as its closest ASCII
form, else as its escape ``\\uXXXX``. The fragment is therefore always
balanced and compiles with ``\\usepackage{booktabs}`` alone, whatever the
names.
"""

import unicodedata

from ._blocks import Renderer
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


def _first(text):
    """A row's first cell or an item: ``{}`` before a leading ``[`` or
    ``*``, which ``\\\\``, ``\\midrule`` and ``\\item`` would read as their
    optional argument."""
    return "{}" + text if text[:1] in ("[", "*") else text


class LatexRenderer(Renderer):
    """The report as a LaTeX fragment."""

    dagger = "$^\\dagger$"

    def escape(self, text):
        return latex_escape(text)

    def begin(self, n_figures):
        self.out += [
            "% Report of a sklearn-bcv comparison.",
            "% Preamble: \\usepackage{booktabs}",
        ]

    def end(self):
        return "\n".join(self.out).rstrip("\n") + "\n"

    def heading(self, block):
        self.out += ["", f"\\paragraph{{{self.escape(block.text)}}}"]

    def paragraph(self, block):
        self.out += [self.escape(block.text), ""]

    def items(self, block):
        self.out += ["\\begin{itemize}"]
        self.out += [f"\\item {_first(self.escape(item))}" for item in block.items]
        self.out += ["\\end{itemize}"]

    def table(self, block):
        spec = "l" + "r" * (len(block.header) - 1)
        header = [self.escape(h) for h in block.header]
        header[0] = _first(header[0])
        self.out += [
            "",
            "\\begin{table}[htbp]",
            "\\centering",
            f"\\caption{{{self.escape(block.caption)}}}",
            f"\\begin{{tabular}}{{{spec}}}",
            "\\toprule",
            " & ".join(header) + " \\\\",
            "\\midrule",
        ]
        for i, row in enumerate(block.rows):
            if i in block.rules:
                self.out.append("\\midrule")
            cells = [
                self.cell(block, i, j, ("\\textbf{", "}")) for j in range(len(row))
            ]
            cells[0] = _first(cells[0])
            self.out.append(" & ".join(cells) + " \\\\")
        self.out += ["\\bottomrule", "\\end{tabular}"]
        for note in block.notes:
            self.out += ["", "\\smallskip", f"\\footnotesize {self.escape(note)}"]
        self.out.append("\\end{table}")
