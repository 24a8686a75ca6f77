"""Hostile input, round 4: a figure never stops a report (class 1).

One mechanism: every Display writes the names of estimators and data sets
(and the score's name) through ``sklearn_bcv/_plot/_labels.py``, which
makes them text matplotlib draws as it reads and LaTeX can include:
escapes for control characters and lone surrogates, a dollar sign
escaped, a name shortened to 40 characters with an ellipsis, distinct
names kept distinct. A figure that still fails to draw or to save is left
out with a sentence in the report. Before, ``$\\foo$`` (mathtext), a lone
surrogate, a 10,000-character name (matplotlib's MemoryError) lost the
whole report, and a 3,000-character name made a figure pdflatex refused
("Dimension too large").
"""

import shutil
import subprocess
import warnings

import numpy as np
import pytest

pytest.importorskip("matplotlib")
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sklearn_bcv import (  # noqa: E402
    CriticalDifferenceDisplay,
    DatasetScoresDisplay,
    RankProbabilityDisplay,
    ScoreDifferencesDisplay,
    SignificanceMatrixDisplay,
    compare_scores,
)
from sklearn_bcv._plot._labels import (  # noqa: E402
    MAX_LABEL_LENGTH,
    display_names,
    display_text,
)
from sklearn_bcv._results import _figures  # noqa: E402

SCORES = np.random.default_rng(0).uniform(0.6, 0.9, size=(8, 3))

#: Names that stopped a report, and their neighbours.
HOSTILE = {
    "mathtext": "$\\foo$",
    "two dollars": "a$b$c",
    "escaped dollar": "a\\$b",
    "lone surrogate": "\ud800x",
    "control": "tree\n\x1b[31mred",
    "ten thousand": "x" * 10_000,
    "three thousand": "y" * 3000,
    "braces": "}{\\end{figure}",
    "bidirectional": "\u202eevil",
}


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _result(names, datasets=None, *, every_figure=False):
    """A comparison with a critical-difference diagram, a significance
    matrix and the scores per data set (``every_figure``: the posterior
    of a Bayesian test and the ranking too)."""
    extra = every_figure
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compare_scores(
            SCORES,
            names=names,
            datasets=datasets,
            tests=["friedman", "nemenyi", *(["plackett_luce"] if extra else [])],
            pairwise_tests={
                "wilcoxon": {},
                **({"bayesian_signed_rank": {"n_samples": 2000}} if extra else {}),
            },
            random_state=0,
        )


@pytest.mark.parametrize("which", ["mathtext", "ten thousand", "lone surrogate"])
def test_every_kind_of_figure_is_drawn(which):
    result = _result([HOSTILE[which], "b", "c"], every_figure=True)
    page = result.report("html")
    # CD diagram, scores per data set, ranking, and the significance matrix
    # and posterior as the panels of one figure.
    assert page.count("<svg") == len(result._report_figures()) >= 4
    assert "not drawn" not in page


@pytest.mark.parametrize("which", list(HOSTILE))
def test_every_figure_of_an_html_report_is_drawn(which):
    result = _result([HOSTILE[which], "b", "c"])
    page = result.report("html")
    assert page.count("<svg") == len(result._report_figures())
    assert "not drawn" not in page


@pytest.mark.parametrize("which", list(HOSTILE))
def test_every_figure_of_a_latex_report_is_written(which, tmp_path):
    result = _result(["a", "b", HOSTILE[which]])
    latex = result.report("latex", figures=tmp_path / "figures")
    written = sorted((tmp_path / "figures").iterdir())
    assert len(written) == len(result._report_figures())
    assert "not drawn" not in latex
    for path in written:
        assert path.read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("which", ["mathtext", "ten thousand", "lone surrogate"])
def test_hostile_data_set_names_too(which):
    datasets = [f"d{i}" for i in range(7)] + [HOSTILE[which]]
    page = _result(["a", "b", "c"], datasets).report("html")
    assert "not drawn" not in page


@pytest.mark.parametrize(
    "text, drawn",
    [
        ("$\\foo$", "\\$\\foo\\$"),
        ("a\nb", "a\\x0ab"),
        ("\ud800x", "\\ud800x"),
        ("x" * 50, "x" * 26 + "\u2026" + "x" * 13),
        ("plain", "plain"),
    ],
)
def test_display_text(text, drawn):
    assert display_text(text) == drawn
    assert len(display_text(text).replace("\\$", "$")) <= MAX_LABEL_LENGTH


def test_distinct_names_stay_distinct_once_shortened():
    names = ["p" * 60 + str(i) for i in range(12)] + ["q" * 30]
    labels = display_names(names)
    assert len(set(labels)) == len(names)
    assert all(len(label) <= MAX_LABEL_LENGTH for label in labels)
    same_ends = ["a" * 30 + "m" * i + "z" * 30 for i in range(1, 5)]
    assert len(set(display_names(same_ends))) == 4


def test_matplotlib_draws_the_labels_as_the_names_read():
    # A dollar is a dollar on the figure: matplotlib's own parser says so.
    from matplotlib.text import Text

    for name in ("$\\foo$", "a$b$c", "a\\$b", "cost in $"):
        text = Text(text=display_text(name))
        shown, math = text._preprocess_math(text.get_text())
        assert not math and shown == name


def test_each_display_draws_hostile_names(tmp_path):
    names = [HOSTILE["mathtext"], HOSTILE["ten thousand"], HOSTILE["lone surrogate"]]
    displays = [
        CriticalDifferenceDisplay.from_ranks([1.5, 2.0, 2.5], 10, names),
        SignificanceMatrixDisplay(np.full((3, 3), 0.5), names=names).plot(),
        DatasetScoresDisplay(SCORES[:2], datasets=names[:2], names=names).plot(),
        RankProbabilityDisplay(
            [0.5, 0.3, 0.2],
            [0.4, 0.35, 0.25],
            [[0.3, 0.5], [0.2, 0.5], [0.1, 0.4]],
            names=names,
        ).plot(),
        ScoreDifferencesDisplay([0.01, -0.02, 0.03], estimator_names=names[:2]).plot(),
        ScoreDifferencesDisplay(  # equal once shortened: told apart
            [0.01, 0.02], estimator_names=["z" * 90 + "1", "z" * 90 + "2"]
        ).plot(),
    ]
    for display in displays:
        figure = display.figure_
        figure.savefig(tmp_path / "figure.svg")
        figure.savefig(tmp_path / "figure.pdf")
        texts = [t.get_text() for t in figure.findobj(matplotlib.text.Text)]
        assert all(len(t) < 200 for t in texts)


def test_the_display_keeps_the_names_themselves_for_its_groups():
    names = ["$a$", "b" * 100, "c"]
    display = CriticalDifferenceDisplay.from_ranks([1.2, 2.2, 2.6], 30, names)
    assert set(display.name_texts_) == set(names)  # keyed by the names
    drawn = {t.get_text().split(" (")[0] for t in display.name_texts_.values()}
    assert drawn == set(display_names(names))


# --------------------------------------------------------------------------
# A figure that still fails is left out, the report kept


def _failing(*args, **kwargs):
    raise MemoryError("matplotlib could not lay this out")


@pytest.mark.parametrize("where", ["svg_text", "pdf_bytes", "from_result"])
def test_a_figure_that_fails_is_left_out_with_a_sentence(where, monkeypatch, tmp_path):
    result = _result(["a", "b", "c"])
    if where == "from_result":
        monkeypatch.setattr(CriticalDifferenceDisplay, "from_result", _failing)
    else:
        monkeypatch.setattr(_figures, where, _failing)
    page = result.report("html")
    latex = result.report("latex", figures=tmp_path / "figures")
    n_figures = len(result._report_figures())
    if where != "pdf_bytes":
        assert "not drawn (matplotlib could not lay this out)" in page
        assert page.count("<svg") < n_figures
    if where != "svg_text":
        assert "not drawn (matplotlib could not lay this out)" in latex
        assert "\\small" in latex.split("not drawn (matplotlib")[0].splitlines()[-1]
    assert "Friedman" in page and "Friedman" in latex  # the rest is there


needs_pdflatex = pytest.mark.skipif(
    shutil.which("pdflatex") is None, reason="no pdflatex"
)


@needs_pdflatex
@pytest.mark.parametrize("which", ["three thousand", "mathtext", "ten thousand"])
def test_the_latex_report_with_its_figures_compiles(which, tmp_path, monkeypatch):
    result = _result([HOSTILE[which][:3000], "b", "c"])
    monkeypatch.chdir(tmp_path)  # the figures, relative to the document
    latex = result.report("latex", figures="figures")
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
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-2000:]
    assert "Dimension too large" not in run.stdout
