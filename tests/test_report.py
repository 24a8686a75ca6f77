"""Tests of the reports: ``result.report(format)`` and ``render_report``."""

import html
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import Bunch

from sklearn_bcv import (
    compare_estimators,
    compare_many_estimators,
    compare_scores,
    sequential_compare,
)
from sklearn_bcv._results._report import (
    REPORT_FORMATS,
    latex_escape,
    render_report,
)

HOSTILE = ["a_b & c%", "<script>alert(1)</script>", "x#$~^{}\\", "d|e*f"]

# Scores of 4 estimators on 10 data sets: the last is best on every data set
# but one, the first worst on all but one.
RNG = np.random.default_rng(0)
SCORES = RNG.normal(0.8, 0.03, (10, 4)) + np.array([0.0, 0.02, 0.04, 0.08])


@pytest.fixture(scope="module")
def across():
    return compare_scores(SCORES, names=HOSTILE)


@pytest.fixture(scope="module")
def pair():
    X, y = make_classification(n_samples=200, random_state=0)
    return compare_estimators(
        LogisticRegression(),
        DecisionTreeClassifier(random_state=0),
        X,
        y,
        random_state=0,
    )


@pytest.fixture(scope="module")
def many():
    X, y = make_classification(n_samples=200, random_state=0)
    return compare_many_estimators(
        [
            ("lo_g", LogisticRegression()),
            ("tree", DecisionTreeClassifier(random_state=0)),
            ("maj", DummyClassifier()),
        ],
        X,
        y,
        random_state=0,
    )


@pytest.fixture(scope="module")
def sequential():
    X, y = make_classification(n_samples=200, random_state=0)
    return sequential_compare(
        LogisticRegression(), DummyClassifier(), X, y, random_state=0
    )


# ---- validation -------------------------------------------------------------


@pytest.mark.parametrize("bad", ["pdf", "TEXT", None, 3, "md"])
def test_unknown_format_is_refused_with_the_four_named(across, bad):
    with pytest.raises(ValueError, match="format must be one of") as info:
        across.report(bad)
    for name in REPORT_FORMATS:
        assert repr(name) in str(info.value)


# ---- content ------------------------------------------------------------------


def test_friedman_sentence_quotes_scipys_statistic(across):
    chi2, p = stats.friedmanchisquare(*SCORES.T)
    text = across.report()
    # The p-value that decides is the permutation test's; scipy's
    # chi-squared p-value is the supplementary one beside it.
    assert f"chi2(3) = {chi2:.3g}, p = " in text
    assert f"the chi-squared approximation gives p = {p:.3g}" in text
    friedman = across.tests["friedman"]
    assert friedman.pvalue_chi2 == pytest.approx(p, rel=1e-12)
    assert "by the exact permutation test" in text or "Monte Carlo permutation" in text
    outcome = "rejected" if p < 0.05 else "did not reject"
    assert f"A Friedman test {outcome} equal performance" in text


def test_nemenyi_sentence_says_its_critical_difference_is_corrected(across):
    text = across.report()
    cd = across.tests.nemenyi.critical_difference
    # Demšar's CD: q_alpha sqrt(k (k + 1) / (6 N)), q_0.05 for k = 4 is 2.569.
    textbook = 2.569 * np.sqrt(4 * 5 / (6 * len(SCORES)))
    assert cd > textbook
    assert (
        f"critical difference {cd:.4g}, with a continuity correction of 1/(2N); "
        f"without it, as in Demšar (2006), {textbook:.4g}"
    ) in text
    for better, worse in across.verdict.differ_by_test["nemenyi"]:
        assert f"{better} better than {worse}" in text


def test_every_format_has_methods_verdicts_and_references(
    across, pair, many, sequential
):
    for result in (across, pair, many, sequential):
        for format in REPORT_FORMATS:
            text = result.report(format, figures=False)
            assert "Methods" in text
            assert "Verdicts" in text
            assert "References" in text
            assert text.index("Methods") < text.index("Verdicts")
            assert text.index("Verdicts") < text.index("References")


def test_pair_report_names_the_verdicts_test_and_its_rationale(pair):
    text = pair.report()
    verdict = pair.verdict
    assert f"The {verdict.test}" in text or verdict.test in text
    assert verdict.rationale in text
    p = pair.tests[verdict.test].pvalue
    assert f"p = {p:.3g}" in text
    assert f"{pair.design.n_samples} records" in text


def test_many_report_marks_the_estimators_differing_from_the_best(many):
    text = many.report()
    scores = text[text.index("Mean score of each estimator") :].split("\n\n")[0]
    rows = {line.split()[0]: line for line in scores.splitlines() if line[:2] == "  "}
    best = many.names[int(np.argmax(many.mean_scores))]
    for a, b in many.verdict.differ_by_test[many.verdict.pairwise_test]:
        if best in (a, b):
            other = b if a == best else a
            assert rows[other].endswith("†")
    assert rows[best].strip().endswith("*")


def test_sequential_report_states_the_stop_and_hides_unadjusted_tests(sequential):
    text = sequential.report()
    assert (
        f"stopped after {sequential.n_repeats} repetitions ({sequential.n_fits} fits"
        in text
    )
    assert f"decision: {sequential.decision}" in text
    assert "not sequentially adjusted" in text
    assert "p-value" not in text


def test_effect_sizes_and_auto_are_rendered_when_present():
    result = compare_scores(SCORES[:, :2], names=["alpha_1", "beta"])
    result["effect_sizes"] = [
        Bunch(
            a="alpha_1",
            b="beta",
            kind="cohen_dz",
            estimate=-0.61234,
            confidence_interval=(-1.25, -0.125),
            confidence_level=0.9,
            magnitude="medium",
            note=None,
        )
    ]
    result["auto"] = Bunch(
        path="wilcoxon",
        reason="beta is not normal",
        normality=[
            Bunch(estimator="alpha_1", statistic=0.95, pvalue=0.6, normal=True),
            Bunch(estimator="beta", statistic=0.71, pvalue=0.001, normal=False),
        ],
        variance=None,
        effect_size_kind="akinshin_gamma",
    )
    text = result.report()
    assert "90% bootstrap confidence intervals" in text
    # The mean difference in the scores' units, then the standardised kind.
    difference = result.mean_differences[0]
    low, high = difference.confidence_interval
    shown = [f"{v:.4f}" for v in (difference.estimate, low, high)]
    assert re.search(
        r"alpha_1\s+beta\s+"
        + r"\s+".join(re.escape(v) for v in shown)
        + r"\s+-0\.61\s+-1\.25\s+-0\.12\s+medium",
        text,
    )
    assert "Cohen's d_z" in text
    assert "Automatic path: wilcoxon. beta is not normal" in text
    assert "beta (W = 0.71, p = 0.001, not normal)" in text
    latex = result.report("latex")
    assert r"& $-$0 & .61 & $-$1 & .25 & $-$0 & .12 & medium" in latex
    assert "Cohen's $d_z$" in latex
    # Without them: no such section.
    plain = compare_scores(SCORES[:, :2], names=["alpha_1", "beta"])
    assert "Effect sizes" in plain.report()  # compare_scores attaches them
    plain["effect_sizes"] = None
    assert "Effect sizes" not in plain.report()
    assert "Automatic path" not in plain.report()


def test_report_says_how_the_effect_size_intervals_hold():
    names = ["a", "b", "c", "d"]
    each = compare_scores(SCORES, names=names, random_state=0)
    text = each.report()
    assert "95% bootstrap confidence intervals, each for its own pair, not " in text
    assert "adjusted for the number of pairs" in text
    # Ten data sets: fewer than 15, the report warns the intervals run narrow.
    assert "With 10 data sets, bootstrap intervals are narrower" in text
    together = compare_scores(
        SCORES, names=names, random_state=0, effect_size_intervals="simultaneous"
    )
    text = together.report()
    # Six pairs: each at 1 - 0.05/6 = 99.17%.
    assert "simultaneous 95% bootstrap confidence intervals over the 6 pairs" in text
    assert "(Bonferroni: each at 99.17%)" in text
    assert "each for its own pair" not in text
    for one, wide in zip(each.mean_differences, together.mean_differences):
        assert wide.estimate == one.estimate
        assert wide.confidence_interval[0] <= one.confidence_interval[0]
        assert one.confidence_interval[1] <= wide.confidence_interval[1]
    # Asked for as the kind, the mean difference is not repeated beside itself.
    alone = compare_scores(
        SCORES, names=names, random_state=0, effect_size="mean_difference"
    )
    assert alone.effect_sizes[0].magnitude is None
    assert "magnitude" not in alone.report().split("Effect sizes")[1]
    with pytest.raises(ValueError, match="effect_size_intervals"):
        compare_scores(SCORES, names=names, effect_size_intervals="joint")


# ---- LaTeX ---------------------------------------------------------------------


def test_latex_escapes_every_special_character():
    assert latex_escape("a_b & c%") == r"a\_b \& c\%"
    assert latex_escape("x#$~^{}\\") == (
        r"x\#\$\textasciitilde{}\textasciicircum{}\{\}\textbackslash{}"
    )
    assert latex_escape("<s>") == r"\textless{}s\textgreater{}"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_latex_escape_leaves_no_active_character(text):
    escaped = latex_escape(text)
    # Drop the escape sequences this module writes; nothing active remains.
    stripped = re.sub(
        r"\\(textbackslash|textasciitilde|textasciicircum|textless|textgreater|"
        r"textbar)\{\}|\\[&%$#_{}]|\$\\pm\$|\$\^\\dagger\$",
        "",
        escaped,
    )
    assert not set(stripped) & set("\\&%$#_{}~^")
    assert all(ord(c) < 0x180 for c in stripped)


def _latex_table(result):
    latex = result.report("latex")
    start = latex.index("\\caption{Mean score")
    start = latex.rindex("\\begin{table}", 0, start)
    return latex, latex[start : latex.index("\\end{table}", start)]


def test_latex_environments_are_balanced_with_booktabs_rules(across):
    latex, table = _latex_table(across)
    for env in ("table", "tabular", "itemize", "list"):
        assert latex.count(f"\\begin{{{env}}}") == latex.count(f"\\end{{{env}}}")
    # Every table has its rules, its caption and its label: the effect sizes,
    # the scores, and (a paper's compact form) every pair by Nemenyi's and
    # Wilcoxon's tests in one table.
    n_tables = latex.count("\\begin{table}")
    assert n_tables == 3
    for rule in ("\\toprule", "\\bottomrule", "\\caption{", "\n\\label{bcv:"):
        assert latex.count(rule) == n_tables
    assert table.count("\\toprule") == table.count("\\bottomrule") == 1
    assert table.count("\\midrule") == 2
    assert "\\hline" not in latex
    for name in HOSTILE:
        assert latex_escape(name) in latex


def _cells(line, k):
    """The k values of a row of the table of scores, each its sub-cells
    (integer part, fraction) joined."""
    parts = line[: -len("\\\\")].split(" & ")[1:]
    width = len(parts) // k
    return ["".join(parts[j * width : (j + 1) * width]) for j in range(k)]


def test_latex_bolds_the_best_of_each_row_and_marks_differences(across):
    _, table = _latex_table(across)
    rows = [line for line in table.splitlines() if line.endswith("\\\\")][1:]
    assert len(rows) == len(SCORES) + 2
    # The columns in the order of the mean ranks, as everywhere in a report.
    order = across._ranking()
    for i, line in enumerate(rows[: len(SCORES)]):
        cells = _cells(line, 4)
        bold = [order[j] for j, cell in enumerate(cells) if cell.startswith("\\textbf")]
        assert bold == [int(np.argmax(SCORES[i]))]
    # No bold mean score over the data sets (scores of data sets are not
    # compared); the best mean rank in bold.
    assert "\\textbf" not in rows[-2]
    ranks = _cells(rows[-1], 4)
    best = int(np.argmin(across.mean_ranks))
    reject = across.tests.nemenyi.reject[best]
    marked = sorted(order[j] for j, cell in enumerate(ranks) if "dag" in cell)
    assert marked == [j for j in range(4) if j != best and reject[j]]
    assert marked  # the data make at least one difference
    assert "differs from the best (lowest mean rank)" in table


def test_latex_aligns_numbers_on_the_point_with_one_precision(across):
    _, table = _latex_table(across)
    # Each estimator's column splits at the decimal point: r@{}l.
    assert "\\begin{tabular}{l" + "r@{}l" * 4 + "}" in table
    decimals = across._score_decimals()
    rows = [line for line in table.splitlines() if line.endswith("\\\\")][1:]
    for line in rows[: len(SCORES) + 1]:  # the scores and their means
        fractions = line[: -len("\\\\")].rstrip().split(" & ")[2::2]
        digits = {
            len(f.replace("\\textbf{", "").strip("}").lstrip(".")) for f in fractions
        }
        assert digits == {decimals}


def test_latex_of_per_split_scores_shows_the_sd():
    split = RNG.normal(0.8, 0.05, (5, 6, 3))
    result = compare_scores(split, names=["a", "b", "c"])
    _, table = _latex_table(result)
    sd = split.std(axis=1, ddof=1)
    d = result._score_decimals()
    mean = f"{split.mean(axis=1)[0, 0]:.{d}f}"
    spread = f"{sd[0, 0]:.{d}f}"
    assert f"{mean[0]} & {mean[1:]} & $\\pm${spread[0]} & {spread[1:]}" in table


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no pdflatex")
@pytest.mark.parametrize("which", ["across", "pair", "many", "sequential"])
def test_latex_compiles(which, request, tmp_path):
    result = request.getfixturevalue(which)
    document = (
        "\\documentclass{article}\n\\usepackage{booktabs}\n"
        "\\usepackage{graphicx}\n\\begin{document}\n"
        + result.report("latex")
        + "\\end{document}\n"
    )
    (tmp_path / "report.tex").write_text(document, encoding="utf-8")
    run = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "report.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-2000:]
    assert (tmp_path / "report.pdf").stat().st_size > 1000


# ---- HTML and markdown --------------------------------------------------------


def test_html_escapes_hostile_names_and_embeds_the_figures(across):
    page = across.report("html")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<script" not in page
    assert html.escape(HOSTILE[1]) in page
    # The CD diagram, the significance matrix of wilcoxon, the scores.
    assert page.count("<svg") == len(across._report_figures()) == 3
    assert "<style>" in page and "<link" not in page and "src=" not in page


def test_html_without_matplotlib_has_tables_only_and_says_so(across, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    page = render_report(across, "html")
    assert "<svg" not in page
    assert "need matplotlib" in page
    # The effect sizes, the scores, Nemenyi's and Wilcoxon's pairs.
    assert page.count("<table>") == 4


def test_markdown_tables_have_one_cell_per_column(across):
    markdown = across.report("markdown")
    scores = markdown[markdown.index("Mean score per data set") :]
    scores = scores.split("\n\n")[1]  # the table, up to its notes
    rows = [line for line in scores.splitlines() if line.startswith("|")]
    assert len(rows) == 2 + len(SCORES) + 2
    for row in rows:
        cells = re.split(r"(?<!\\)\|", row)[1:-1]
        assert len(cells) == 5
    assert "d\\|e\\*f" in markdown
    assert "<script>" not in markdown


def test_user_guide_quotes_the_report_it_shows():
    from pathlib import Path

    guide = (Path(__file__).parents[1] / "doc" / "user_guide.rst").read_text("utf-8")
    section = guide[guide.index("\nReporting\n") :]
    scores = np.array(
        [
            [0.80, 0.85, 0.70],
            [0.75, 0.79, 0.72],
            [0.90, 0.91, 0.86],
            [0.66, 0.71, 0.60],
            [0.84, 0.88, 0.83],
            [0.71, 0.70, 0.75],
        ]
    )
    text = compare_scores(scores, names=["svm", "forest", "knn"]).report()
    quoted = (
        "A Friedman test did not reject equal performance of the 3 estimators "
        "(chi2(2) = 5.33, p = 0.0721 by the exact permutation test given the ties, "
        "N = 6, k = 3; alpha = 0.05); supplementary, the chi-squared approximation "
        "gives p = 0.0695"
    )
    assert quoted in text
    assert " ".join(quoted.split()) in " ".join(section.split())


class _Headers(HTMLParser):
    """The text of every ``<th>`` and whether a ``<script>`` tag was seen."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.headers, self.scripts, self._in = [], 0, False

    def handle_starttag(self, tag, attrs):
        self.scripts += tag == "script"
        if tag == "th":
            self._in = True
            self.headers.append("")

    def handle_endtag(self, tag):
        if tag == "th":
            self._in = False

    def handle_data(self, data):
        if self._in:
            self.headers[-1] += data


names_strategy = st.lists(
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs", "Cc")),
        min_size=1,
        max_size=12,
    ).filter(lambda s: s.strip() == s and s),
    min_size=3,
    max_size=3,
    unique=True,
)


@settings(max_examples=40, deadline=None)
@given(names_strategy)
def test_html_table_headers_read_back_as_the_names(names):
    result = compare_scores(SCORES[:, :3], names=names)
    result["effect_sizes"] = None  # the scores table comes first
    parser = _Headers()
    parser.feed(render_report(result, "html", figures=False))
    assert parser.scripts == 0
    # The columns in the order of the mean ranks, as everywhere in a report.
    assert parser.headers[1:4] == [names[j] for j in result._ranking()]


# ---- reproducible -------------------------------------------------------------

_REPORTS_SCRIPT = """
import hashlib, warnings
import numpy as np
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn_bcv import (compare_estimators, compare_many_estimators,
                         compare_scores, sequential_compare)
warnings.simplefilter("ignore")
X, y = make_classification(n_samples=120, random_state=0)
results = [
    compare_scores(np.random.default_rng(0).normal(0.8, 0.03, (8, 3))
                   + [0, 0.02, 0.05], random_state=0),
    compare_estimators(LogisticRegression(), DummyClassifier(), X, y,
                       random_state=0),
    compare_many_estimators([("lr", LogisticRegression()),
                             ("dummy", DummyClassifier()),
                             ("prior", DummyClassifier(strategy="prior"))],
                            X, y, random_state=0),
    sequential_compare(LogisticRegression(), DummyClassifier(), X, y,
                       random_state=0),
]
for result in results:
    for format in ("text", "markdown", "latex", "html"):
        first, second = result.report(format), result.report(format)
        assert first == second, format
        print(format, hashlib.sha256(first.encode()).hexdigest())
"""


def test_the_same_result_gives_the_same_bytes_in_every_process(tmp_path):
    """No date, no random id: two processes write the same reports, byte for
    byte, in every format (the HTML with its figures)."""
    script = tmp_path / "reports.py"
    script.write_text(_REPORTS_SCRIPT, encoding="utf-8")
    runs = [
        subprocess.run(
            [sys.executable, str(script)],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        ).stdout
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    assert runs[0].count("html") == 4


def test_the_svg_of_a_report_has_no_date(across):
    page = across.report("html")
    assert "<dc:date>" not in page
    assert page.count("<svg") == 3
