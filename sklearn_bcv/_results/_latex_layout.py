"""How the tables of a LaTeX report fit a page at print size.

Every table is set in ``\\footnotesize`` (8 pt in a 10 pt article, its
sub- and superscripts avoided: nothing below 7 pt), and fits the line by
design, not by shrinking: :func:`plan_table` estimates the natural width of
the table from the widths of Computer Modern's letters (:data:`_ROMAN`,
:data:`_BOLD`, read off the fonts' metrics) and takes the first layout
that fits:

1. its header on one line;
2. names in the header broken at their spaces, over two or three lines;
3. the names of the estimators' columns turned upright (rotated 90°);
4. in a two-column article, the whole width of the page (``table*``);
5. the estimators' names abbreviated, with a legend under the table;
6. the estimators' columns split over several tables.

Whatever is left of an error of the estimate is taken up by
``\\resizebox``, which may shrink a table to the 7 pt floor and no further
(the log says so, naming the table); a table that would need more sticks
out and the log says that too (an ``Overfull \\hbox``).

The widths assumed are those of LaTeX's ``article`` at 10 pt
(:data:`LAYOUTS`): a one-column line of 345 pt; a two-column column of
229.5 pt and a page of 469 pt. A class with wider columns (``IEEEtran``:
252 pt and 516 pt) only gains room.
"""

import re
from typing import NamedTuple

__all__ = [
    "FLOOR_PT",
    "LAYOUTS",
    "TABLE_PT",
    "Layout",
    "abbreviations",
    "check_layout",
    "plan_table",
    "text_width",
]


class Layout(NamedTuple):
    """The widths a report is set for, in TeX points."""

    name: str
    line: float  # a table or figure in the running text (\columnwidth)
    page: float | None  # across both columns (\textwidth), two columns only


#: The layouts of ``report("latex", layout=...)``.
LAYOUTS = {
    "onecolumn": Layout("onecolumn", 345.0, None),
    "twocolumn": Layout("twocolumn", 229.5, 469.0),
}

#: The size tables are set in (``\\footnotesize`` of a 10 pt article) and
#: the smallest any text may be shrunk to, in points.
TABLE_PT = 8.0
FLOOR_PT = 7.0

#: ``\\tabcolsep`` of the report's tables, in points (LaTeX's is 6 pt),
#: and the narrower one a table too wide for it tries.
TABCOLSEP = 4.0
NARROW_TABCOLSEP = 3.0

#: The estimate of a table's width is taken this much wider when it is
#: compared with the line (kerning, the rules' overhang, rounding).
SAFETY = 1.01

#: The widths of the printable ASCII characters (space to ``~``) of
#: Computer Modern Roman and Bold Extended at 8 pt, in thousandths of the
#: design size (from ``cmr8.tfm`` and ``cmbx8.tfm``; the OT1 slots that are
#: not ASCII, such as ``<``, ``_`` or ``|``, by the glyph LaTeX prints).
_ROMAN = (
    "354 295 500 885 531 885 826 295 413 413 531 826 295 354 295 531 531 531 "
    "531 531 531 531 531 531 531 531 295 295 826 826 826 502 826 796 752 767 "
    "811 723 693 834 796 383 545 825 664 973 796 826 723 826 782 590 767 796 "
    "796 1091 796 796 649 295 531 295 531 531 295 531 590 472 590 472 325 531 "
    "590 295 325 561 295 885 590 531 590 561 414 419 413 590 561 767 561 561 "
    "472 531 295 531 531"
)
_BOLD = (
    "408 373 500 1021 613 1021 953 340 476 476 613 953 340 408 340 613 613 613 "
    "613 613 613 613 613 613 613 613 340 340 826 953 826 578 953 922 869 885 "
    "938 803 769 962 955 459 631 956 735 1159 955 920 835 920 915 681 852 939 "
    "922 1263 922 922 749 340 531 340 531 531 340 595 681 544 681 561 374 613 "
    "681 340 374 647 340 1021 681 613 681 647 506 483 476 681 647 885 647 647 "
    "544 531 295 531 531"
)
_WIDTHS = {
    False: dict(zip(map(chr, range(32, 127)), map(int, _ROMAN.split()))),
    True: dict(zip(map(chr, range(32, 127)), map(int, _BOLD.split()))),
}
# LaTeX's \_ is a kern of 0.06 em and a rule of 0.3 em (em: the font's quad).
_WIDTHS[False]["_"] = 383
_WIDTHS[True]["_"] = 427
#: Signs set in math (``±``, the minus sign) and a character beyond ASCII.
_OTHER = {"±": 778, "−": 778, "†": 444, "×": 778}
_WIDE = 1000


def text_width(text, *, bold=False, size=TABLE_PT):
    """The width of ``text`` set at ``size`` points, in points (an
    estimate from the fonts' metrics; kerning and ligatures left out)."""
    widths = _WIDTHS[bool(bold)]
    total = sum(widths.get(c, _OTHER.get(c, _WIDE)) for c in str(text))
    return total * size / 1000.0


def check_layout(layout):
    """``layout`` if it is a key of :data:`LAYOUTS`, else a ValueError."""
    if not isinstance(layout, str) or layout not in LAYOUTS:
        raise ValueError(
            f"layout must be one of {', '.join(map(repr, LAYOUTS))}; got {layout!r}."
        )
    return LAYOUTS[layout]


# --------------------------------------------------------------------------
# Names: broken, or abbreviated


def header_lines(text, max_lines=3):
    """``text`` broken at its spaces into at most ``max_lines`` lines, the
    widest as narrow as can be (one line when it has no space)."""
    words = str(text).split(" ")
    if len(words) == 1:
        return [str(text)]
    best = [str(text)]
    best_width = text_width(text)
    n = len(words)
    for lines in range(2, min(max_lines, n) + 1):
        for cuts in _cuts(n, lines):
            parts = [" ".join(words[a:b]) for a, b in zip((0, *cuts), (*cuts, n))]
            width = max(text_width(part) for part in parts)
            if width < best_width - 1e-9:
                best, best_width = parts, width
    return best


def _cuts(n, lines):
    """Every way of cutting ``n`` words into ``lines`` non-empty runs."""
    if lines == 1:
        yield ()
        return
    for first in range(1, n - lines + 2):
        for rest in _cuts(n - first, lines - 1):
            yield (first, *(first + r for r in rest))


#: A name this short is never abbreviated.
_SHORT = 7


def _initials(name):
    """``"logistic regression"`` -> ``"LR"``, ``"RandomForestClassifier"`` ->
    ``"RFC"``, ``"k_nn"`` -> ``"KN"``."""
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", name)
    if len(words) < 2:
        return name[:4]
    return "".join(w if w.isdigit() else w[0].upper() for w in words)


def abbreviations(names):
    """Short forms of the long ``names`` (``{name: short}``), unique and
    distinct from every name; names of up to 7 characters are kept."""
    taken = {str(n) for n in names}
    short = {}
    for name in names:
        name = str(name)
        if len(name) <= _SHORT:
            continue
        base = _initials(name)
        candidate, i = base, 1
        while candidate in taken:
            i += 1
            candidate = f"{base}{i}"
        taken.add(candidate)
        short[name] = candidate
    return short


# --------------------------------------------------------------------------
# Widths of a table


#: A cell of numbers (measured here, split so by :mod:`._render_latex`): an
#: optional sign or bound, digits, a fraction, and an optional ``± sd`` (see
#: :class:`~._blocks.Table`).
_NUMBER = r"(?P<{0}sign>[<>]?-?)(?P<{0}int>\d+)(?P<{0}frac>\.\d+)?"
NUMBER_CELL = re.compile(_NUMBER.format("m") + r"(?: ± " + _NUMBER.format("s") + r")?")
#: A cell that holds no number in a column of numbers.
PLACEHOLDERS = frozenset({"-", "", "–"})


def _sign_width(sign, bold):
    return sum(
        _OTHER["−"] * TABLE_PT / 1000 if c == "-" else 778 * TABLE_PT / 1000
        for c in sign
    )


def _number_widths(plain, bold):
    """``[int part, fraction, sd int, sd fraction]`` widths of a number cell."""
    match = NUMBER_CELL.fullmatch(plain)
    if match is None:
        return [text_width(plain, bold=bold), 0.0, 0.0, 0.0]
    widths = [
        _sign_width(match["msign"], bold) + text_width(match["mint"], bold=bold),
        text_width(match["mfrac"] or "", bold=bold),
        0.0,
        0.0,
    ]
    if match["sint"] is not None:
        widths[2] = (
            text_width("±") + 1.4 + _sign_width(match["ssign"], bold)
            + text_width(match["sint"], bold=bold)
        )  # fmt: skip
        widths[3] = text_width(match["sfrac"] or "", bold=bold)
    return widths


def cell_text(cell, short=None):
    """The plain text of a cell (its abbreviation when ``short`` has one)."""
    text = cell.plain if cell.plain is not None else str(cell)
    return (short or {}).get(text, text)


def column_width(block, j, numbers, *, header="plain", short=None, sep=TABCOLSEP):
    """The width of column ``j`` (its sub-columns together), padding
    included: ``header`` is ``"plain"``, ``"stacked"`` or ``"rotated"``."""
    head = cell_text(block.header[j], short)
    if header == "rotated" and j >= block.label_columns:
        head_width = TABLE_PT
    elif header in ("stacked", "rotated") and block.header[j].plain is not None:
        # (a header with math is never broken: it is set on one line)
        head_width = max(text_width(line) for line in header_lines(head))
    else:
        head_width = text_width(head)
    if numbers is None:
        body = max(
            (
                text_width(cell_text(row[j], short), bold=(i, j) in block.bold)
                for i, row in enumerate(block.rows)
            ),
            default=0.0,
        )
    else:
        parts = [0.0, 0.0, 0.0, 0.0]
        for i, row in enumerate(block.rows):
            plain = row[j].plain or ""
            if plain in PLACEHOLDERS:
                continue
            widths = _number_widths(plain, (i, j) in block.bold)
            parts = [max(a, b) for a, b in zip(parts, widths)]
        body = sum(parts)
    return max(head_width, body) + 2 * sep


def table_width(
    block, numbers, *, header="plain", short=None, columns=None, sep=TABCOLSEP
):
    """The natural width of ``block`` (or of its ``columns``) in points."""
    columns = range(len(block.header)) if columns is None else columns
    return sum(
        column_width(block, j, numbers[j], header=header, short=short, sep=sep)
        for j in columns
    )


class TablePlan(NamedTuple):
    """How one table is set: its environment (``table`` or ``table*``), its
    header (``plain``, ``stacked`` or ``rotated``), the abbreviations of
    the estimators' names (or None), the value columns of each part, and
    the width it is set for."""

    env: str
    header: str
    short: dict | None
    parts: list
    width: float
    sep: float = TABCOLSEP


def plan_table(block, numbers, layout):
    """The :class:`TablePlan` of ``block`` in ``layout``: the first of the
    layouts of this module's description that fits."""
    label = list(range(block.label_columns))
    values = list(range(block.label_columns, len(block.header)))
    rotatable = bool(block.names) and any(
        cell_text(block.header[j]) in block.names for j in values
    )
    headers = ["plain", "stacked"] + (["rotated"] if rotatable else [])
    short = abbreviations(block.names) if block.names else {}
    widths = [("table", layout.line)]
    if layout.page is not None:
        widths.append(("table*", layout.page))

    def fits(width, header, short=None, columns=None, sep=TABCOLSEP):
        natural = table_width(block, numbers, header=header, short=short,
                              columns=columns, sep=sep)  # fmt: skip
        return natural * SAFETY <= width

    seps = (TABCOLSEP, NARROW_TABCOLSEP)
    for env, width in widths:
        for header in headers:
            for sep in seps:
                if fits(width, header, sep=sep):
                    return TablePlan(env, header, None, [values], width, sep)
    if short:
        for env, width in widths:
            for header in headers:
                for sep in seps:
                    if fits(width, header, short, sep=sep):
                        return TablePlan(env, header, short, [values], width, sep)
    # Split the value columns into parts that fit the widest environment.
    env, width = widths[-1]
    header = headers[-1]
    short = short or None
    sep = NARROW_TABCOLSEP
    parts, current = [], []
    for j in values:
        if current and not fits(width, header, short, label + current + [j], sep):
            parts.append(current)
            current = []
        current.append(j)
    parts.append(current)
    return TablePlan(env, header, short, parts, width, sep)
