"""Hostile input, round 3: names in reports (escapes).

Estimator and data set names (and CSV column names, through ``sklearn-bcv
scores``) are typed by anyone: newlines, carriage returns, ESC and other
control characters, bidirectional overrides, lone surrogates, markup of
every format, any script. Each report format escapes them by one rule, and
these properties hold for arbitrary unicode names (hypothesis):

* text: no control character (no line a name did not ask for);
* Markdown: every table row keeps its columns;
* LaTeX: structurally balanced always (braces, math, environments, one
  ``&`` per column, no blank line in a table) and printable by plain
  ``pdflatex``; it compiles where an engine is installed;
* HTML: no tag from a name, the names read back from the table headers.
"""

import csv
import re
import shutil
import subprocess
import sys
import unicodedata
from html.parser import HTMLParser

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sklearn_bcv import compare_scores
from sklearn_bcv._cli import main
from sklearn_bcv._results._render_latex import _PRINTABLE
from sklearn_bcv._results._text import escape_controls

#: Characters that broke a format before, or could.
NASTY = [
    "\n",
    "\r",
    "\r\n",
    "\x1b[31m",
    "\x1b]0;title\x07",
    "\x00",
    "\x7f",
    "\x85",
    "\t",
    "\u2028",
    "\u2029",
    "\u202e",
    "\u2066",
    "\ufeff",
    "\ud800",
    "|",
    "\\",
    "&",
    "&lt;",
    "%",
    "{",
    "}",
    "[",
    "]",
    "*",
    "_",
    "`",
    "<script>",
    "#",
    "$",
    "~",
    "^",
    "é",
    "ð",
    "α",
    "中",
    "😀",
]

HOSTILE = [
    "line\nbreak",
    "carriage\rreturn",
    "\x1b[31mred\x1b[0m",
    "[bracket",
    "*star",
    "pipe|and\\back",
    "\u202eevil",
    "--><script>alert(1)</script><!--",
    "50% & {x}",
    "α-net 中",
]

_pieces = st.one_of(
    st.characters(exclude_categories=[]).map(str), st.sampled_from(NASTY)
)
name_strategy = st.lists(_pieces, min_size=1, max_size=6).map("".join)
names_strategy = st.lists(name_strategy, min_size=3, max_size=3, unique=True)
datasets_strategy = st.lists(name_strategy, min_size=4, max_size=4, unique=True)

SCORES = np.random.default_rng(0).normal(0.8, 0.03, (4, 3)) + [0.0, 0.02, 0.05]

#: What a report must not carry raw: control characters (but the report's
#: own line ends), lone surrogates, line and paragraph separators and the
#: bidirectional controls.
_BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _invisible(text, *, markup=False):
    """The characters of ``text`` a report may not carry raw."""
    bad = {"Cc", "Cs"} if markup else {"Cc", "Cs", "Zl", "Zp"}
    return [
        char
        for char in text
        if char != "\n"
        and (unicodedata.category(char) in bad or (not markup and char in _BIDI))
    ]


def _result(names, datasets):
    return compare_scores(SCORES, names=names, datasets=datasets, random_state=0)


def _plain(result):
    """The same comparison with plain names: the report's structure."""
    k, n = len(result.names), len(result.datasets)
    return compare_scores(
        SCORES,
        names=[f"e{j}" for j in range(k)],
        datasets=[f"d{i}" for i in range(n)],
        random_state=0,
    )


# --------------------------------------------------------------------------
# One rule per format, checked


def check_text(report, plain):
    assert _invisible(report) == []
    assert report.count("\n") == plain.count("\n")  # no line a name asked for
    report.encode("utf-8")


def _cells(row):
    """The cells of a Markdown table row, backslash escapes honoured."""
    cells, cell, escaped = [], "", False
    for char in row.strip()[1:-1]:
        if escaped:
            cell, escaped = cell + char, False
        elif char == "\\":
            cell, escaped = cell + char, True
        elif char == "|":
            cells.append(cell)
            cell = ""
        else:
            cell += char
    return [*cells, cell]


def _unescaped(text, char):
    """How many times ``char`` appears in ``text`` not escaped by a
    backslash."""
    count, escaped = 0, False
    for c in text:
        if escaped:
            escaped = False
        elif c == "\\":
            escaped = True
        else:
            count += c == char
    return count


def check_markdown(report, plain):
    assert _invisible(report) == []
    assert report.count("\n") == plain.count("\n")
    rows = [line for line in report.splitlines() if line.startswith("|")]
    assert len(rows) == len([line for line in plain.splitlines() if line[:1] == "|"])
    widths, width = [], None
    for line in report.splitlines() + [""]:
        if line.startswith("|"):
            width = width or len(_cells(line))
            widths.append(len(_cells(line)) == width)
        else:
            width = None
    assert all(widths)
    assert _unescaped(report, "<") == 0  # no tag from a name


def _latex_scan(report):
    """Brace depth, unescaped ``$`` count and the ``&`` of each line, read
    as TeX reads them (a backslash makes the next character literal)."""
    depth, dollars, ampersands = 0, 0, []
    for line in report.splitlines():
        count, i = 0, 0
        while i < len(line):
            char = line[i]
            if char == "\\":
                i += 2
                continue
            if char == "%":
                break  # a comment
            depth += (char == "{") - (char == "}")
            assert depth >= 0, line
            dollars += char == "$"
            count += char == "&"
            i += 1
        ampersands.append(count)
    return depth, dollars, ampersands


def check_latex(report, plain):
    assert _invisible(report) == []
    assert all(char in _PRINTABLE for char in report if ord(char) > 126)
    for env in ("table", "tabular", "itemize"):
        assert report.count(f"\\begin{{{env}}}") == report.count(f"\\end{{{env}}}")
    depth, dollars, _ = _latex_scan(report)
    assert depth == 0 and dollars % 2 == 0
    # Every row of a table has its columns: no name adds or hides an &. (The
    # layout of a table may differ from that of plain names: long names are
    # abbreviated or stacked to fit the line.)
    outer = r"\\begin\{tabular\}\{([^\n]*)\}\n(.*?)\n\\end\{tabular\}"
    tables = re.findall(outer, report, re.S)
    # (as many tables or more: one too wide is split over several)
    assert len(tables) >= len(re.findall(outer, plain, re.S))
    for spec, body in tables:
        assert "\n\n" not in body  # no paragraph inside a table
        n_columns = len(re.findall(r"[lrc]", re.sub(r"@\{[^}]*\}", "", spec)))
        rows = [row for row in body.splitlines() if row.endswith("\\\\")]
        for row in rows:
            # a row's first cell never reads as the optional argument of \\
            assert not row.startswith(("[", "*"))
            row = re.sub(r"\\begin\{tabular\}\[b\].*?\\end\{tabular\}", "", row)
            spans = sum(int(n) - 1 for n in re.findall(r"\\multicolumn\{(\d+)\}", row))
            assert _latex_scan(row)[2][0] + 1 + spans == n_columns, row


class _Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.headers, self.tags, self._in = [], set(), False

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if tag == "th":
            self._in = True
            self.headers.append("")

    def handle_endtag(self, tag):
        self._in = self._in and tag != "th"

    def handle_data(self, data):
        if self._in:
            self.headers[-1] += data


def check_html(report, names):
    assert _invisible(report, markup=True) == []
    assert "<script" not in report  # nor in a figure
    page = _Page()
    page.feed(re.sub(r"<svg.*?</svg>", "", report, flags=re.S))
    assert page.tags <= {
        "html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "ul",
        "li", "table", "caption", "thead", "tbody", "tr", "th", "td", "strong",
        "figure", "figcaption",
    }  # fmt: skip
    shown = [escape_controls(name, markup=True) for name in names]
    start = page.headers.index("data set") + 1  # the table of scores
    # (its columns in the order of the mean ranks)
    assert sorted(page.headers[start : start + len(names)]) == sorted(shown)


# --------------------------------------------------------------------------
# Property tests, one per format


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=names_strategy, datasets=datasets_strategy)
def test_text_reports_carry_no_control_character(names, datasets):
    result = _result(names, datasets)
    check_text(result.report("text"), _plain(result).report("text"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=names_strategy, datasets=datasets_strategy)
def test_markdown_tables_keep_their_columns(names, datasets):
    result = _result(names, datasets)
    check_markdown(result.report("markdown"), _plain(result).report("markdown"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=names_strategy, datasets=datasets_strategy)
def test_latex_is_balanced_and_printable(names, datasets):
    result = _result(names, datasets)
    check_latex(result.report("latex"), _plain(result).report("latex"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=names_strategy, datasets=datasets_strategy)
def test_html_names_are_text_and_read_back(names, datasets):
    from sklearn_bcv._results._report import render_report

    result = _result(names, datasets)
    check_html(render_report(result, "html", figures=False), names)


def test_the_escapes_are_readable():
    result = _result(HOSTILE[:3], HOSTILE[3:7])
    text = result.report("text")
    assert "line\\x0abreak" in text and "carriage\\x0dreturn" in text
    assert "\\x1b[31mred\\x1b[0m" in text
    assert "\\u202eevil" in text
    markdown = result.report("markdown")
    assert "line\\\\x0abreak" in markdown  # the backslash itself escaped
    assert "\\[bracket" in markdown and "pipe\\|and\\\\back" in markdown
    latex = result.report("latex")
    assert "line\\textbackslash{}x0abreak" in latex
    assert "{}[bracket" in latex and "{}*star" in latex
    others = _result(HOSTILE[7:], HOSTILE[:4])
    latex = others.report("latex")
    assert "50\\% \\& \\{x\\}" in latex
    assert "\\textbackslash{}u03b1-net \\textbackslash{}u4e2d" in latex
    check_html(others.report("html"), HOSTILE[7:])  # its figure too


# --------------------------------------------------------------------------
# LaTeX compiles


def _compile(latex, tmp_path):
    document = (
        "\\documentclass{article}\n\\usepackage{booktabs}\n"
        "\\usepackage{graphicx}\n\\begin{document}\n" + latex + "\\end{document}\n"
    )
    (tmp_path / "report.tex").write_text(document, encoding="utf-8")
    run = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "report.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-2000:]
    assert "Missing character" not in run.stdout


needs_pdflatex = pytest.mark.skipif(
    shutil.which("pdflatex") is None, reason="no pdflatex"
)


@needs_pdflatex
def test_latex_of_hostile_names_compiles(tmp_path):
    result = _result(HOSTILE[:3], HOSTILE[3:7])
    _compile(result.report("latex"), tmp_path)


@needs_pdflatex
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(names=names_strategy, datasets=datasets_strategy)
def test_latex_of_arbitrary_names_compiles(names, datasets, tmp_path):
    _compile(_result(names, datasets).report("latex"), tmp_path)


# --------------------------------------------------------------------------
# The same through the command line: quoted CSV column names


def _write_scores(path, names, datasets):
    with open(path, "w", newline="", encoding="utf-8", errors="surrogatepass") as file:
        writer = csv.writer(file)
        writer.writerow(["dataset", *names])
        for dataset, row in zip(datasets, SCORES):
            writer.writerow([dataset, *row])


#: Names a CSV file can hold (the reader refuses NUL bytes and text that is
#: not UTF-8, which a lone surrogate is not).
CSV_HOSTILE = [
    "line\nbreak",
    "carriage\r\nreturn",
    "\x1b[31mred",
    "[a|b]*c & 50%",
]


@pytest.mark.parametrize("suffix", [".md", ".tex", ".txt", ".html"])
def test_cli_reports_escape_quoted_csv_column_names(suffix, tmp_path):
    path = tmp_path / "scores.csv"
    names, datasets = CSV_HOSTILE[:3], ["d\n1", "d\r2", "d\x1b3", "[d4"]
    _write_scores(path, names, datasets)
    report = tmp_path / f"report{suffix}"
    command = ["scores", str(path), "--report", str(report), "--random-state", "0"]
    run = subprocess.run(
        [sys.executable, "-m", "sklearn_bcv", *command],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    text = report.read_text(encoding="utf-8")
    expected = _result(names, datasets).report(
        {".md": "markdown", ".tex": "latex", ".txt": "text", ".html": "html"}[suffix]
    )
    plain = _plain(_result(names, datasets))
    if suffix == ".md":
        check_markdown(text, plain.report("markdown"))
    elif suffix == ".tex":
        check_latex(text, plain.report("latex"))
    elif suffix == ".txt":
        check_text(text, plain.report("text"))
    else:
        check_html(text, names)
    # the names arrive as typed: the same report as the library's
    assert text.split("Tests and why")[0] == expected.split("Tests and why")[0]


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    names=st.lists(
        name_strategy.filter(lambda s: "\x00" not in s and s.strip() == s),
        min_size=3,
        max_size=3,
        unique=True,
    ),
    format=st.sampled_from([".md", ".tex", ".txt"]),
)
def test_cli_reports_of_arbitrary_column_names(names, format, tmp_path):
    try:
        "".join(names).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: no CSV file holds it
        return
    path = tmp_path / "scores.csv"
    _write_scores(path, names, ["d1", "d2", "d3", "d4"])
    report = tmp_path / f"report{format}"
    status = main(
        ["scores", str(path), "--report", str(report), "--quiet", "--random-state", "0"]
    )
    if status != 0:  # a name the reader refuses (e.g. one that repeats
        return  # another once trimmed) is refused with a message, not escaped
    text = report.read_text(encoding="utf-8")
    plain = _plain(_result(["a", "b", "c"], ["d1", "d2", "d3", "d4"]))
    if format == ".md":
        check_markdown(text, plain.report("markdown"))
    elif format == ".tex":
        check_latex(text, plain.report("latex"))
    else:
        check_text(text, plain.report("text"))
