"""The LaTeX of a report as a paper ``\\input``s it.

Structure, always: every table a float with a caption, a label (of the
prefix asked for), booktabs rules and numbers aligned on their decimal
point at one precision per column; statistics, alpha and minus signs in
math; the figures written as PDF files, the same bytes every time.
Compiled, where ``pdflatex`` is installed: every result type's report,
with its figures, in a one-column and a two-column article, without one
``Overfull \\hbox`` above 1 pt.
"""

import re
import shutil
import subprocess

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import (
    compare_estimators,
    compare_many_estimators,
    compare_scores,
    sequential_compare,
)

X, Y = make_classification(n_samples=160, random_state=0)

#: Scores of 8 estimators with names of a paper's length on 7 data sets: the
#: widest table the issue asks to fit one column.
RNG = np.random.default_rng(1)
NAMES8 = ["logistic", "forest", "k-NN", "tree", "bayes", "SVM-rbf", "boosting", "MLP"]
SPLIT8 = np.clip(RNG.normal(0.85, 0.03, (7, 10, 8)) + np.linspace(-0.04, 0.04, 8), 0, 1)
DATASETS = ["iris", "wine", "breast cancer", "moons", "circles", "digits", "blobs"]


@pytest.fixture(scope="module")
def results():
    """One result of each type, with every pairwise table and figure kind."""
    across8 = compare_scores(
        SPLIT8,
        names=NAMES8,
        datasets=DATASETS,
        n_train=80,
        n_test=80,
        pairwise_tests=["wilcoxon", "poisson_binomial", "bayesian_signed_rank"],
        rope=0.01,
        random_state=0,
    )
    across3 = compare_scores(
        SPLIT8[:, :, :3] * 100,  # percentages, per-split sd inline
        names=NAMES8[:3],
        datasets=DATASETS,
        control="logistic",
        random_state=0,
    )
    pair = compare_estimators(
        LogisticRegression(),
        DecisionTreeClassifier(random_state=0),
        X,
        Y,
        tests=["bcv_mcnemar", "corrected_t", "bayesian_correlated_t"],
        random_state=0,
    )
    many = compare_many_estimators(
        [
            # A long description in the methods: a word TeX cannot hyphenate.
            (
                "logistic",
                make_pipeline(
                    StandardScaler(), LogisticRegression(C=0.5, max_iter=1000)
                ),
            ),
            ("tree", DecisionTreeClassifier(random_state=0)),
            ("bayes", GaussianNB()),
            ("majority", DummyClassifier()),
        ],
        X,
        Y,
        pairwise_tests=["bcv_mcnemar", "bayesian_correlated_t"],
        random_state=0,
    )
    sequential = sequential_compare(
        LogisticRegression(), DummyClassifier(), X, Y, random_state=0
    )
    return {
        "across8": across8,
        "across3": across3,
        "pair": pair,
        "many": many,
        "sequential": sequential,
    }


KINDS = ["across8", "across3", "pair", "many", "sequential"]


def _tables(latex):
    return re.findall(r"\\begin\{table\*?\}.*?\\end\{table\*?\}", latex, re.S)


# --------------------------------------------------------------------------
# Structure (always)


@pytest.mark.parametrize("kind", KINDS)
def test_every_table_has_caption_label_rules_and_fits_the_line(results, kind):
    latex = results[kind].report("latex", label_prefix="study:")
    tables = _tables(latex)
    assert tables
    labels = re.findall(r"\\label\{([^}]*)\}", latex)
    assert len(labels) == len(set(labels))  # unique
    assert all(label.startswith("study:") for label in labels)
    for table in tables:
        assert table.count("\\caption{") == table.count("\\label{study:") == 1
        assert table.count("\\toprule") == table.count("\\bottomrule") == 1
        # Set at print size, fitted to the line by its layout; \bcvfit scales
        # down what an estimate missed, never below the 7 pt floor.
        assert "\\footnotesize" in table and "\\bcvfit{table " in table
    assert "\\usepackage{booktabs} \\usepackage{graphicx}" in latex


def _number_columns(table):
    """The fractions of each decimal-aligned column of a tabular, by
    column: its spec splits a number at its point (``r@{}l``)."""
    spec = re.search(r"\\begin\{tabular\}\{(.*)\}\n", table).group(1)
    columns = re.findall(r"r@\{\}l|@\{\\,\}|[lrc]", spec)
    rows = [
        line.rstrip()[:-2].rstrip().split(" & ")
        for line in table.splitlines()
        if line.rstrip().endswith("\\\\")
        and "\\multicolumn" not in line
        and not line.startswith("mean rank")  # ranks: their own precision
    ]
    fractions = {}
    i = 0
    for column in columns:
        if column == "@{\\,}":
            continue
        if column == "r@{}l":
            fractions[i + 1] = [row[i + 1] for row in rows if len(row) > i + 1]
            i += 2
        else:
            i += 1
    return fractions


@pytest.mark.parametrize("kind", ["across8", "across3", "many"])
def test_numbers_share_one_precision_per_column(results, kind):
    latex = results[kind].report("latex")
    for table in _tables(latex):
        for column in _number_columns(table).values():
            digits = {
                len(re.sub(r"\\textbf\{|\}|\\rlap\{.*|\.", "", cell))
                for cell in column
                if cell.startswith((".", "\\textbf{."))
            }
            assert len(digits) <= 1, (column, table[:200])


def test_percent_scores_keep_their_own_precision(results):
    result = results["across3"]
    assert result._score_decimals() == 2
    text = str(result)
    means = re.findall(r"\s(\d+\.\d+)$", text, re.M)
    assert means and all(len(m.split(".")[1]) == 2 for m in means)


def test_code_in_the_methods_may_break_after_its_parentheses_and_commas(results):
    latex = results["many"].report("latex")
    # A call's "(" breaks, not before its ")"; a word of code is never
    # hyphenated (an explicit kern before it ends TeX's search for one).
    assert (
        r"\kern0pt Pipeline(\allowbreak{}StandardScaler(), "
        r"\kern0pt LogisticRegression(\allowbreak{}C=\allowbreak{}0.5," in latex
    )
    # Math keeps its own text; prose parentheses are left alone.
    assert r"\allowbreak{}" not in "".join(re.findall(r"\$[^$]*\$", latex))
    assert r"(\allowbreak{}the" not in latex


@pytest.mark.parametrize("kind", KINDS)
def test_statistics_alpha_and_minus_signs_are_math(results, kind):
    latex = results[kind].report("latex")
    assert "$\\alpha = 0.05$" in latex
    assert "alpha = 0.05" not in latex.replace("$\\alpha = 0.05$", "")
    assert "1 - alpha" not in latex
    # A minus sign before a digit is math, never a text hyphen, in tables.
    for table in _tables(latex):
        body = table[table.index("\\midrule") :]
        assert not re.search(r"(?:^|& )-\d", body, re.M), body[:300]
    if kind.startswith("across"):
        assert "$\\chi^2_{" in latex
    # A power of ten is math too: 2.45 x 10^-5, never "2.45e-05" in text.
    prose = re.sub(r"\$[^$]*\$", "", latex)
    assert not re.search(r"\de[-+]\d", prose)


def test_bayesian_sentences_say_probabilities_rope_and_rule(results):
    text = results["across8"].report("text")
    sentence = next(
        line for line in text.splitlines() if line.startswith("The Bayesian signed")
    )
    assert "rope of ±0.01" in sentence
    assert "a decision when one exceeds 1 - alpha = 0.95" in sentence
    assert "at alpha" not in sentence
    pair = results["pair"].report("text")
    assert "P(LogisticRegression better) = " in pair
    assert "at 0.95 (1 - alpha = 0.95)" in pair or "no decision at 0.95" in pair


def test_figures_are_pdf_files_included_and_reproducible(results, tmp_path):
    result = results["across8"]
    first = result.report("latex", figures=tmp_path / "a", label_prefix="s1:")
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    # CD diagram; the three significance matrices and the posterior as the
    # panels of one figure; the scores.
    assert len(names) == len(result._report_figures()) == 3
    assert all(name.startswith("s1_cfig-") and name.endswith(".pdf") for name in names)
    for name in names:
        # At its natural size: drawn for the width it is set at.
        assert f"\\includegraphics{{{tmp_path.as_posix()}/a/{name}}}" in first
        data = (tmp_path / "a" / name).read_bytes()
        assert data.startswith(b"%PDF") and b"CreationDate" not in data
    second = result.report("latex", figures=tmp_path / "b", label_prefix="s1:")
    assert second.replace("/b/", "/a/") == first
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (
            tmp_path / "b" / name
        ).read_bytes()


def test_without_a_directory_the_figures_are_named_in_a_comment(results):
    latex = results["pair"].report("latex")
    assert "\\includegraphics" not in latex
    assert "% This report has 2 figure(s)" in latex


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"figures": "my figures"}, "figures must be a directory"),
        ({"figures": True}, "give the directory"),
        ({"label_prefix": "a b"}, "label_prefix must be"),
        ({"label_prefix": "x{"}, "label_prefix must be"),
    ],
)
def test_bad_latex_arguments_are_refused(results, kwargs, match):
    with pytest.raises(ValueError, match=match):
        results["pair"].report("latex", **kwargs)


def test_a_directory_of_figures_is_for_latex_only(results, tmp_path):
    with pytest.raises(ValueError, match="for a LaTeX report only"):
        results["pair"].report("html", figures=tmp_path)


# --------------------------------------------------------------------------
# Compiled


needs_pdflatex = pytest.mark.skipif(
    shutil.which("pdflatex") is None, reason="no pdflatex"
)

#: The widest ``Overfull \hbox`` allowed, in points.
TOLERANCE_PT = 1.0


def _overfull(log):
    """The widths (pt) of the overfull boxes a LaTeX log reports."""
    return [float(w) for w in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide", log)]


@needs_pdflatex
@pytest.mark.parametrize("columns", ["onecolumn", "twocolumn"])
@pytest.mark.parametrize("kind", KINDS)
def test_reports_compile_without_overfull_boxes(
    results, kind, columns, tmp_path, monkeypatch
):
    # The figures, written where the document finds them (a relative path).
    monkeypatch.chdir(tmp_path)
    # Set for the article it goes in (layout=): its tables and figures fit
    # that article's line at print size.
    latex = results[kind].report("latex", figures="figures", layout=columns)
    (tmp_path / "report.tex").write_text(latex, encoding="utf-8")
    document = (
        f"\\documentclass[{columns}]{{article}}\n\\usepackage{{booktabs}}\n"
        "\\usepackage{graphicx}\n\\begin{document}\n\\input{report}\n"
        "\\end{document}\n"
    )
    (tmp_path / "paper.tex").write_text(document, encoding="utf-8")
    for _ in range(2):  # the second run resolves the references to floats
        run = subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=180,
        )
    log = (tmp_path / "paper.log").read_text(encoding="utf-8", errors="replace")
    assert run.returncode == 0, run.stdout[-2000:]
    too_wide = [w for w in _overfull(log) if w > TOLERANCE_PT]
    assert too_wide == [], [
        line for line in log.splitlines() if line.startswith("Overfull")
    ]
    assert "Missing character" not in log
    assert "LaTeX Warning: Reference" not in log
