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

from ._blocks import (
    Choice,
    Figure,
    FloatsHere,
    Heading,
    Math,
    Ref,
    Renderer,
    Table,
    Text,
)
from ._figures import POINTS_PER_INCH, figure_file_name, file_stem
from ._latex_layout import (
    FLOOR_PT,
    NUMBER_CELL,
    PLACEHOLDERS,
    TABLE_PT,
    header_lines,
    plan_table,
)
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
    "†": r"\dag{}",
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
#: more: ``P(best)`` stays whole; not before its ``)``), ``,`` (not one
#: between digits: ``50,000``) and ``=`` not followed by a space;
#: names stay whole, as a reader searches for them. TeX does not hyphenate
#: such words, and one longer than the line's slack would stick out.
_CODE_BREAK = re.compile(r"((?<=\w\w)\((?!\))|,(?!\d)|(?<!\d),|=)(?=[^\s])")


def _breakable(text):
    """``text`` with ``\\allowbreak{}`` where a word of code may break."""
    return _CODE_BREAK.sub(lambda m: m.group(1) + r"\allowbreak{}", text)


def _first(text):
    """A row's first cell or an item: ``{}`` before a leading ``[`` or
    ``*``, which ``\\\\``, ``\\midrule`` and ``\\item`` would read as their
    optional argument."""
    return "{}" + text if text[:1] in ("[", "*") else text


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
        if plain in PLACEHOLDERS:
            matches.append(None)
            continue
        match = NUMBER_CELL.fullmatch(plain)
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


#: A word of code TeX must not hyphenate ("LogisticRe-gression",
#: "ran-dom_state"): one with an underscore, a call, an ``=``, a capital
#: inside it (CamelCase) or a dot between letters (a module's path).
_CODE_WORD = re.compile(r"\\_|\w\(|\w=|[a-z][A-Z]|\w\.[A-Za-z]")

#: Before a word, an explicit kern ends TeX's search for a word to
#: hyphenate (a word is hyphenated only right after glue).
_NO_HYPHENS = "\\kern0pt "


def _unhyphenated(text):
    """``text`` (LaTeX) with every word of code kept from hyphenation."""
    return " ".join(
        _NO_HYPHENS + word if _CODE_WORD.search(word) else word
        for word in text.split(" ")
    )


#: The macros of the fragment, defined inside its group: ``\bcvfit{what}
#: {content}`` sets ``content`` at its natural size when it fits the line,
#: else scales it down to the line, never below the floor of
#: :data:`~._latex_layout.FLOOR_PT` (the log says which, naming ``what``).
_MACROS = [
    "\\ifdefined\\bcvbox\\else\\newsavebox{\\bcvbox}\\fi",
    "\\ifdefined\\bcvfloor\\else\\newlength{\\bcvfloor}\\fi",
    "\\def\\bcvfit#1#2{\\savebox{\\bcvbox}{#2}%",
    f"  \\setlength{{\\bcvfloor}}{{{FLOOR_PT / TABLE_PT:.4f}\\wd\\bcvbox}}%",
    "  \\ifdim\\wd\\bcvbox>\\linewidth",
    "    \\ifdim\\bcvfloor>\\linewidth",
    "      \\typeout{sklearn-bcv: #1 set at the "
    f"{FLOOR_PT:g} pt floor (natural width \\the\\wd\\bcvbox, line "
    "\\the\\linewidth): it sticks out}%",
    "      \\resizebox{\\bcvfloor}{!}{\\usebox{\\bcvbox}}%",
    "    \\else",
    "      \\typeout{sklearn-bcv: #1 scaled to the line (natural width "
    "\\the\\wd\\bcvbox, line \\the\\linewidth)}%",
    "      \\resizebox{\\linewidth}{!}{\\usebox{\\bcvbox}}%",
    "    \\fi",
    "  \\else\\usebox{\\bcvbox}\\fi}",
    # The floats of a report are many and the text between them short:
    # more of them on a page of text, fewer pages of floats alone. The
    # fractions are this group's; the counts, LaTeX's counters (global),
    # are given back at its end.
    "\\renewcommand{\\topfraction}{0.85}\\renewcommand{\\bottomfraction}{0.5}%",
    "\\renewcommand{\\textfraction}{0.15}\\renewcommand{\\floatpagefraction}{0.85}%",
    "\\renewcommand{\\dbltopfraction}{0.85}"
    "\\renewcommand{\\dblfloatpagefraction}{0.85}%",
    "\\edef\\bcvcounts{\\noexpand\\setcounter{topnumber}{\\the\\value{topnumber}}%",
    "  \\noexpand\\setcounter{bottomnumber}{\\the\\value{bottomnumber}}%",
    "  \\noexpand\\setcounter{totalnumber}{\\the\\value{totalnumber}}%",
    "  \\noexpand\\setcounter{dbltopnumber}{\\the\\value{dbltopnumber}}}%",
    "\\setcounter{topnumber}{3}\\setcounter{bottomnumber}{2}%",
    "\\setcounter{totalnumber}{5}\\setcounter{dbltopnumber}{3}%",
]


def _hoisted(blocks):
    """``blocks`` with every table and figure after the first
    :class:`~._blocks.FloatsHere` moved up to it, in order (their
    introductions are written with them)."""
    blocks = [
        b
        for block in blocks
        for b in (block.compact if isinstance(block, Choice) else [block])
    ]
    marks = [i for i, block in enumerate(blocks) if isinstance(block, FloatsHere)]
    if not marks:
        return list(blocks)
    here = marks[0]
    after = blocks[here + 1 :]
    floats = [b for b in after if isinstance(b, Table | Figure)]
    rest = [b for b in after if not isinstance(b, Table | Figure | FloatsHere)]
    return [*blocks[:here], *floats, *rest]


def _without_empty_headings(blocks):
    """``blocks`` without a heading that another heading, or the end,
    follows at once (a LaTeX ``\\paragraph`` over nothing)."""
    out = []
    for i, block in enumerate(blocks):
        if isinstance(block, Heading):
            following = next(
                (b for b in blocks[i + 1 :] if not isinstance(b, FloatsHere)), None
            )
            if following is None or isinstance(following, Heading):
                continue
        out.append(block)
    return out


def _stacked(lines, align):
    """Header lines one above the other (a nested tabular)."""
    return (
        f"\\begin{{tabular}}[b]{{@{{}}{align}@{{}}}}" + "\\\\".join(lines)
        + "\\end{tabular}"
    )  # fmt: skip


class LatexRenderer(Renderer):
    """The report as a LaTeX fragment."""

    #: A dagger in no width, at 7 pt (a superscript of the 8 pt table
    #: would be 6 pt): the column keeps its alignment.
    dagger = r"\rlap{\raisebox{0.5ex}{\scriptsize\dag}}"

    #: A paper's pages: the compact form of a :class:`~._blocks.Choice`.
    compact = True

    def escape(self, text):
        return latex_escape(text)

    def math(self, piece):
        return f"${piece.latex}$"

    def ref(self, piece):
        kind, _ = self.floats.get(id(piece.target), (None, None))
        if kind is None:
            return self.escape(str(piece))
        return f"{kind}~\\ref{{{self.float_labels[id(piece.target)]}}}"

    def write(self, text):
        """Running text: words of code may break at their commas and
        parentheses but are never hyphenated."""
        pieces = text.pieces if isinstance(text, Text) else (str(text),)
        return "".join(
            self.math(piece)
            if isinstance(piece, Math)
            else self.ref(piece)
            if isinstance(piece, Ref)
            else _unhyphenated(_breakable(self.escape(str(piece))))
            for piece in pieces
        )

    def cell_text(self, text, short=None):
        """A table's cell or header: no breaks (a cell is one line), math
        in its table form (no 6 pt scripts), an abbreviated name."""
        pieces = text.pieces if isinstance(text, Text) else (str(text),)
        if short and text.plain is not None and text.plain in short:
            return self.escape(short[text.plain])
        return "".join(
            f"${piece.table}$" if isinstance(piece, Math) else self.escape(str(piece))
            for piece in pieces
        )

    def draws_figures(self):
        return self.figures is not None and self.figures.directory is not None

    def render(self, blocks):
        """The fragment: the floats after a :class:`~._blocks.FloatsHere`
        moved up to it, and no heading left without content."""
        return super().render(_without_empty_headings(_hoisted(blocks)))

    def _number_floats(self, blocks):
        super()._number_floats(blocks)
        self._labels = set()
        self.float_labels = {}
        for block in blocks:
            if id(block) in self.floats:
                what = block.label if isinstance(block, Table) else f"fig-{block.label}"
                self.float_labels[id(block)] = self._label(what)

    def begin(self):
        from .._version import __version__

        self._figures_left = 0
        prefix = self.label_prefix
        self.out += [
            f"% Report of a sklearn-bcv {__version__} comparison, to \\input{{}} "
            "in a LaTeX document.",
            "% Preamble: \\usepackage{booktabs} \\usepackage{graphicx}",
            f'% Set for a {self.layout.name} article of 10 pt (report("latex", '
            "layout=...)): tables in",
            "% \\footnotesize, figures drawn for the width they are set at; "
            f"no text below {FLOOR_PT:g} pt.",
            f"% Each table and figure is a float with a \\caption and a "
            f"\\label{{{prefix}...}}.",
            "% A name or parameter longer than a line may stretch the spaces around it",
            "% (\\emergencystretch), and floats take more of a page (LaTeX's float",
            "% fractions and counts), inside this fragment only.",
            "\\begingroup",
            "\\setlength{\\emergencystretch}{3em}",
            *_MACROS,
        ]

    def end(self):
        self.out += ["", "\\bcvcounts", "\\endgroup"]
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
        self.out += [self.write(block.text), ""]

    def items(self, block):
        self.out += ["\\begin{itemize}\\setlength{\\itemsep}{0pt}"]
        self.out += [f"\\item {_first(self.write(item))}" for item in block.items]
        self.out += ["\\end{itemize}"]

    def references(self, block):
        """A list with hanging indents, ragged right (a long title or DOI
        never runs into the margin)."""
        self.out += [
            "{\\small\\raggedright",
            "\\begin{list}{}{\\setlength{\\leftmargin}{1.5em}"
            "\\setlength{\\itemindent}{-1.5em}\\setlength{\\itemsep}{0pt}}",
        ]
        self.out += [f"\\item {_first(self.write(item))}" for item in block.items]
        self.out += ["\\end{list}", "\\par}"]

    # ---- tables --------------------------------------------------------

    def table(self, block):
        """The table as one float or more (:func:`~._latex_layout.plan_table`
        chooses how it fits the line at print size)."""
        n = len(block.header)
        numbers = [
            None if j < block.label_columns else _numbers(block, j) for j in range(n)
        ]
        plan = plan_table(block, numbers, self.layout)
        label = self.float_labels[id(block)]
        labels = list(range(block.label_columns))
        for k, part in enumerate(plan.parts):
            self._table_float(
                block,
                numbers,
                plan,
                labels + part,
                label if k == 0 else self._label(f"{block.label}-part{k + 1}"),
                (k + 1, len(plan.parts)),
            )

    def _table_float(self, block, numbers, plan, columns, label, part):
        spec = []
        for j in columns:
            if numbers[j] is None:
                spec.append("l" if j < block.label_columns else "r")
                continue
            _, mean, sd = numbers[j]
            parts = ["r@{}l" if mean == 2 else "r"]
            if sd:
                parts.append("r@{}l" if sd == 2 else "r")
            spec.append("@{\\,}".join(parts))
        header = [self._header_cell(block, j, numbers[j], plan) for j in columns]
        header[0] = _first(header[0])
        caption = self.write(block.caption)
        if part[1] > 1:
            caption += f" (part {part[0]} of {part[1]})"
        env = plan.env
        self.out += [
            "",
            f"\\begin{{{env}}}[{'tbp' if env == 'table*' else 'htbp'}]",
            "\\centering",
            f"\\caption{{{caption}}}",
            f"\\label{{{label}}}",
            "\\smallskip",
            f"\\footnotesize\\setlength{{\\tabcolsep}}{{{plan.sep:g}pt}}%",
            f"\\bcvfit{{table {label}}}{{%",
            f"\\begin{{tabular}}{{{''.join(spec)}}}",
            "\\toprule",
            " & ".join(header) + " \\\\",
            "\\midrule",
        ]
        for i in range(len(block.rows)):
            if i in block.rules:
                self.out.append("\\midrule")
            cells = [
                self._number_cell(block, i, j, numbers[j])
                if numbers[j] is not None
                else self._text_cell(block, i, j, plan.short)
                for j in columns
            ]
            cells[0] = _first(cells[0])
            self.out.append(" & ".join(cells) + " \\\\")
        self.out += ["\\bottomrule", "\\end{tabular}}"]
        notes = [self.write(note) for note in block.notes]
        if plan.short:
            shown = {
                text
                for j in columns
                for text in [block.header[j].plain, *(r[j].plain for r in block.rows)]
                if text in plan.short
            }
            legend = "; ".join(
                f"{plan.short[name]}: {name}" for name in block.names if name in shown
            )
            if legend:
                notes.append(self.write(f"Abbreviations: {legend}."))
        for note in notes:
            self.out += ["", "\\smallskip", f"{{\\raggedright {note}\\par}}"]
        self.out.append(f"\\end{{{env}}}")

    def _header_cell(self, block, j, numbers, plan):
        text = self.cell_text(block.header[j], plan.short)
        plain = block.header[j].plain
        if plain is not None and plan.short:
            plain = plan.short.get(plain, plain)
        value = j >= block.label_columns
        if plan.header == "rotated" and value and block.header[j].plain in block.names:
            text = f"\\rotatebox{{90}}{{{text}}}"
        elif plan.header in ("stacked", "rotated") and plain and " " in plain:
            lines = header_lines(plain)
            if len(lines) > 1:
                text = _stacked(
                    [self.escape(line) for line in lines], "c" if value else "l"
                )
        width = self._width(numbers)
        return text if width == 1 else f"\\multicolumn{{{width}}}{{c}}{{{text}}}"

    def _text_cell(self, block, i, j, short):
        text = self.cell_text(block.rows[i][j], short)
        if (i, j) in block.marked:
            text += self.dagger
        if (i, j) in block.bold:
            text = f"\\textbf{{{text}}}"
        return text

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

    # ---- figures -------------------------------------------------------

    def figure(self, block):
        """A float including the figure's PDF, drawn for the width it is
        set at (the line, or the page of a two-column article), written in
        the directory of figures; without one, a comment at the end says how
        to have them."""
        if not self.draws_figures():
            self._figures_left += 1
            return
        label = self.float_labels[id(block)]
        wide = self.layout.page is not None and block.width == "page"
        width = self.layout.page if wide else self.layout.line
        if block.max_width is not None:
            width = min(width, block.max_width * POINTS_PER_INCH)
        path, why = self.figures.pdf(block, figure_file_name(label), width_pt=width)
        if path is None:  # left out, and said where the figure would be
            self.out += [
                "",
                f"% Figure not drawn: {escape_controls(str(block.caption))} "
                f"({escape_controls(why)})",
                f"\\par\\noindent{{\\small {self.write(block.caption)}: not drawn "
                f"({self.escape(why)}).}}\\par",
            ]
            return
        env = "figure*" if wide else "figure"
        self.out += [
            "",
            f"\\begin{{{env}}}[{'tbp' if wide else 'htbp'}]",
            "\\centering",
            f"\\bcvfit{{figure {label}}}{{\\includegraphics{{{path}}}}}",
            f"\\caption{{{self.write(block.caption)}}}",
            f"\\label{{{label}}}",
            f"\\end{{{env}}}",
        ]
