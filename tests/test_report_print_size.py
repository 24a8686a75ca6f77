"""Reports at print size: no text below 7 pt in a one- or a two-column
article of 10 pt, measured, not assumed.

Each result type's LaTeX report, with its figures, is compiled in both
layouts (where ``pdflatex`` is installed), and the smallest text of every
float is computed from what was set:

* a table is set in ``\\footnotesize`` (8 pt) with its marks and scripts at
  ``\\scriptsize`` (7 pt), so its smallest text is 7 pt times the scale
  ``\\resizebox`` gave it, which the fragment writes to the log when it is
  not 1 (``sklearn-bcv: table ... scaled to the line (natural width W, line
  L)``: the scale is L / W);
* a figure's smallest text is the smallest font size its PDF sets
  (``Tf``, in its content streams) times the scale LaTeX gives it: 1 when
  its natural width (the PDF's ``MediaBox``) fits the line, else line /
  natural width.

Where MuPDF's ``mutool`` is installed the whole compiled page is measured
too: every glyph's size as set (font size times every transformation above
it). Nothing depends on timing.
"""

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
import zlib
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine, make_moons
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import (
    benchmark,
    compare_estimators,
    compare_many_estimators,
    compare_scores,
    sequential_compare,
)

pytestmark = pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no pdflatex")

#: The floor: no text below it, in TeX points.
FLOOR = 7.0
#: The sizes the tables are set in: 8 pt, their marks and scripts 7 pt.
TABLE_SMALLEST = 7.0
#: Points (TeX's pt) per PostScript point (a PDF's unit).
PT_PER_BP = 72.27 / 72
LAYOUTS = ("onecolumn", "twocolumn")


@pytest.fixture(scope="module")
def results():
    """One result of each type: a benchmark with every kind of figure, 8
    estimators with names of a paper's length, a pair, many estimators on
    one data set, and a sequential comparison."""
    # (A generator and a splitter of one seed draw one permutation: the
    # splits would hold one class each.)
    X, y = make_moons(n_samples=120, noise=0.3, random_state=7)
    study = benchmark(
        {
            "logistic regression": make_pipeline(
                StandardScaler(), LogisticRegression()
            ),
            "naive Bayes": GaussianNB(),
            "decision tree": DecisionTreeClassifier(max_depth=3, random_state=0),
        },
        {
            "iris": partial(load_iris, return_X_y=True),
            "wine": partial(load_wine, return_X_y=True),
            "moons": (X, y),
        },
        pairwise_tests=["wilcoxon", "poisson_binomial", "bayesian_signed_rank"],
        rope=0.01,
        random_state=0,
    )
    rng = np.random.default_rng(1)
    names8 = [
        "logistic regression",
        "random forest",
        "k-NN",
        "decision tree",
        "naive Bayes",
        "RBF SVM",
        "gradient boosting",
        "MLP",
    ]
    split8 = np.clip(
        rng.normal(0.85, 0.03, (7, 10, 8)) + np.linspace(-0.04, 0.04, 8), 0, 1
    )
    across8 = compare_scores(
        split8,
        names=names8,
        datasets=["iris", "wine", "breast_cancer", "moons", "circles", "d", "e"],
        n_train=80,
        n_test=80,
        pairwise_tests=["wilcoxon", "poisson_binomial", "bayesian_signed_rank"],
        rope=0.01,
        random_state=0,
    )
    pair = compare_estimators(
        LogisticRegression(),
        DecisionTreeClassifier(random_state=0),
        X,
        y,
        tests=["bcv_mcnemar", "corrected_t", "bayesian_correlated_t"],
        random_state=0,
    )
    many = compare_many_estimators(
        [
            ("logistic", LogisticRegression()),
            ("tree", DecisionTreeClassifier(random_state=0)),
            ("bayes", GaussianNB()),
            ("majority", DummyClassifier()),
        ],
        X,
        y,
        pairwise_tests=["bcv_mcnemar", "bayesian_correlated_t"],
        random_state=0,
    )
    sequential = sequential_compare(
        LogisticRegression(), DummyClassifier(), X, y, random_state=0
    )
    return {
        "benchmark": study,
        "across8": across8,
        "pair": pair,
        "many": many,
        "sequential": sequential,
    }


def _compile(folder, layout, latex_path):
    document = (
        f"\\documentclass[{layout}]{{article}}\n\\usepackage{{booktabs}}\n"
        "\\usepackage{graphicx}\n\\begin{document}\n"
        f"\\typeout{{LINE: \\the\\columnwidth, PAGE: \\the\\textwidth}}\n"
        f"\\input{{{latex_path.stem}}}\n\\end{{document}}\n"
    )
    (folder / "paper.tex").write_text(document, encoding="utf-8")
    run = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
        cwd=folder,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=300,
    )
    log = (folder / "paper.log").read_text(encoding="utf-8", errors="replace")
    assert run.returncode == 0, run.stdout[-2000:]
    return "".join(log.split("\n"))  # the log cuts its lines at 79 characters


def _scales(log, what):
    """``{label: scale}`` of the tables or figures the log says were scaled
    (and those set at the floor, which stick out)."""
    scales = {}
    for label, natural, line in re.findall(
        rf"sklearn-bcv: {what} (\S+) scaled to the line \(natural width "
        r"([\d.]+)pt, line ([\d.]+)pt\)",
        log,
    ):
        scales[label] = float(line) / float(natural)
    floor = re.findall(rf"sklearn-bcv: {what} (\S+) set at the", log)
    return scales, floor


def _pdf_streams(data):
    """The decompressed content streams of a PDF (matplotlib's: Flate)."""
    out = []
    for match in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
        try:  # (trailing end-of-line bytes after the data are ignored)
            out.append(zlib.decompressobj().decompress(match.group(1)))
        except zlib.error:
            out.append(match.group(1))
    return out


def figure_fonts(path):
    """``(natural width in pt, smallest font size set, in pt)`` of a
    figure's PDF (matplotlib writes ``/F1 9 Tf``, in PostScript points)."""
    data = Path(path).read_bytes()
    box = re.search(rb"/MediaBox\s*\[\s*([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)", data)
    width = (float(box.group(3)) - float(box.group(1))) * PT_PER_BP
    sizes = [
        float(size)
        for stream in _pdf_streams(data)
        for size in re.findall(rb"/\S+ ([\d.]+) Tf", stream)
    ]
    assert sizes, f"no text in {path}"
    return width, min(sizes) * PT_PER_BP


def _glyph_sizes(pdf):
    """Every span's size as set on the page, in pt (``mutool trace``)."""
    trace = subprocess.run(
        ["mutool", "trace", str(pdf)], capture_output=True, text=True, check=True
    ).stdout
    sizes = []
    for node in ET.fromstring(trace).iter():
        if node.tag not in ("fill_text", "stroke_text"):
            continue
        a, b, c, d, *_ = (float(v) for v in node.get("transform").split())
        scale = abs(a * d - b * c) ** 0.5
        for span in node.iter("span"):
            ta, tb, tc, td = (float(v) for v in span.get("trm").split())
            text = "".join(g.get("unicode") or "" for g in span.iter("g"))
            if text.strip():
                sizes.append(abs(ta * td - tb * tc) ** 0.5 * scale * PT_PER_BP)
    return sizes


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("kind", ["benchmark", "across8", "pair", "many", "sequential"])
def test_no_text_below_7_pt_in_either_layout(results, kind, layout, tmp_path):
    latex_path = tmp_path / "report.tex"
    results[kind].report("latex", figures="figures", layout=layout, path=latex_path)
    latex = latex_path.read_text(encoding="utf-8")
    log = _compile(tmp_path, layout, latex_path)
    line, page = (
        float(v) for v in re.search(r"LINE: ([\d.]+)pt, PAGE: ([\d.]+)pt", log).groups()
    )
    # Tables: 7 pt at the scale they were set at; none at the floor.
    table_scales, table_floor = _scales(log, "table")
    assert table_floor == []
    n_tables = len(re.findall(r"\\begin\{table\*?\}", latex))
    assert n_tables
    smallest = [TABLE_SMALLEST * min(table_scales.values(), default=1.0)]
    # Figures: their smallest font at the scale LaTeX set them at.
    figure_scales, figure_floor = _scales(log, "figure")
    assert figure_floor == []
    included = (
        r"\\begin\{(figure\*?)\}.*?"
        r"\\bcvfit\{figure (\S+)\}\{\\includegraphics\{([^}]+)\}"
    )
    for env, label, path in re.findall(included, latex, re.S):
        natural, font = figure_fonts(tmp_path / path)
        width = page if env == "figure*" else line
        scale = min(1.0, width / natural)
        assert figure_scales.get(label, 1.0) == pytest.approx(scale, abs=2e-3)
        smallest.append(font * scale)
    assert min(smallest) >= FLOOR - 1e-6, (kind, layout, smallest)
    # The whole page as printed, where MuPDF can read it.
    if shutil.which("mutool"):
        assert min(_glyph_sizes(tmp_path / "paper.pdf")) >= FLOOR - 0.01


def test_the_estimate_of_a_tables_width_is_what_latex_sets(tmp_path):
    """The layout of a table is chosen from an estimate of its width (the
    letters' widths of Computer Modern): within 2 % of what pdflatex sets."""
    from sklearn_bcv._results._latex_layout import text_width

    samples = ["logistic regression", "0.9546", "breast_cancer", "RBF SVM", "k-NN"]
    body = "".join(
        f"\\settowidth{{\\w}}{{\\footnotesize {s.replace('_', chr(92) + '_')}}}"
        f"\\typeout{{W: \\the\\w}}"
        for s in samples
    )
    (tmp_path / "w.tex").write_text(
        "\\documentclass{article}\\newlength\\w\\begin{document}"
        + body
        + "\\end{document}\n"
    )
    subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "w.tex"],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
    )
    log = (tmp_path / "w.log").read_text()
    measured = [float(w) for w in re.findall(r"W: ([\d.]+)pt", log)]
    assert len(measured) == len(samples)
    for sample, width in zip(samples, measured):
        assert text_width(sample) == pytest.approx(width, rel=0.02), sample
