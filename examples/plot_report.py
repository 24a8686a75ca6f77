"""
===================================
From a benchmark to a paper's pages
===================================

A benchmark ends in a paper. ``result.report()`` writes what its methods
and results sections need: the estimators and their parameters, the design
and its seed, the fits, the tests with why each runs and the works they
cite; the verdicts in sentences; the effect sizes; a table of the scores,
one of every pair of every test and one of each data set's own tests; the
figures; the references. In four formats: text, Markdown, HTML (one page,
its figures inline) and LaTeX, a fragment a paper ``\\input``\\ s, its
figures written as PDF files.

Here four classifiers on five small data sets, fitted in a few seconds;
the LaTeX is set for a one-column and for a two-column article and compiled
into both, their first pages shown, when ``pdflatex`` is installed (else
its source). Every table and figure is set at print size: no text below
7 pt, in either layout.
"""

# %%
# The benchmark
# -------------
# Four classifiers, five data sets (three bundled with scikit-learn, two
# generated), a 5×2 block-regularized cross-validation of each; the
# Bayesian signed-rank test joins the default pairwise tests, with a region
# of practical equivalence of one point of accuracy.
from functools import partial

from sklearn.datasets import (
    load_breast_cancer,
    load_iris,
    load_wine,
    make_classification,
    make_moons,
)
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import benchmark

# Each data set as a ``functools.partial`` of its loader or generator: the
# methods of the report then state where it comes from, with its parameters.
datasets = {
    "iris": partial(load_iris, return_X_y=True),
    "wine": partial(load_wine, return_X_y=True),
    "breast cancer": partial(load_breast_cancer, return_X_y=True),
    "moons": partial(make_moons, n_samples=300, noise=0.35, random_state=1),
    "classification": partial(
        make_classification,
        n_samples=300,
        n_features=10,
        n_informative=4,
        random_state=1,
    ),
}
estimators = {
    "logistic": make_pipeline(StandardScaler(), LogisticRegression()),
    "bayes": GaussianNB(),
    "tree": DecisionTreeClassifier(max_depth=4, random_state=0),
    "majority": DummyClassifier(),
}
result = benchmark(
    estimators,
    datasets,
    pairwise_tests=["wilcoxon", "bayesian_signed_rank"],
    rope=0.01,
    random_state=0,
)

# %%
# The report
# ----------
# The methods first (everything a reader needs to run the study again),
# then the tests and why, the verdicts, the effect sizes and the tables.
print(result.report())

# %%
# The LaTeX a paper inputs
# ------------------------
# Every table is a float with a caption and a label (``label_prefix`` keeps
# two reports in one paper apart), its numbers aligned on the decimal point,
# statistics and ``alpha`` in math, set in ``\footnotesize`` and fitted to
# the line of the article it is set for (``layout=``) by its layout, not by
# shrinking its text. ``path=`` writes the report to a file and
# ``figures=`` beside it: each figure a PDF file (without a date: the same
# result gives the same bytes), drawn for the width it is set at.
import shutil
import subprocess
import tempfile
from pathlib import Path

folder = Path(tempfile.mkdtemp())  # the paper's folder
for layout in ("onecolumn", "twocolumn"):
    result.report(
        "latex",
        figures=f"figures-{layout}",
        layout=layout,
        label_prefix="bench:",
        path=folder / f"report-{layout}.tex",
    )
latex = (folder / "report-onecolumn.tex").read_text(encoding="utf-8")
start = latex.index("\\begin{table}", latex.index("\\caption{Mean score") - 60)
print(latex[start : latex.index("\\end{table}", start) + len("\\end{table}")])
print(sorted(path.name for path in (folder / "figures-onecolumn").iterdir()))

# %%
# On a paper's page
# -----------------
# The fragment in a one-column and in a two-column article whose preamble
# loads ``booktabs`` and ``graphicx``, compiled when ``pdflatex`` is
# installed, their first pages drawn with MuPDF or Poppler when one of them
# is; otherwise the figure of the scores per data set, as the HTML report
# shows it.
import matplotlib.pyplot as plt


def compiled_page(folder, layout, page=1):
    """A PNG file of a page of the paper in ``layout``, or None."""
    if shutil.which("pdflatex") is None:
        return None
    stem = f"paper-{layout}"
    (folder / f"{stem}.tex").write_text(
        f"\\documentclass[{layout}]{{article}}\n\\usepackage{{booktabs}}\n"
        "\\usepackage{graphicx}\n\\begin{document}\n"
        f"\\input{{report-{layout}}}\n\\end{{document}}\n",
        encoding="utf-8",
    )
    for _ in range(2):  # the second run resolves the references to floats
        run = subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", f"{stem}.tex"],
            cwd=folder,
            capture_output=True,
            timeout=180,
        )
    if run.returncode != 0:
        raise RuntimeError(f"the {layout} paper did not compile")
    png = folder / f"{stem}-{page}.png"
    if shutil.which("mutool"):
        command = ["mutool", "draw", "-r", "110", "-o", str(png), f"{stem}.pdf"]
        command.append(str(page))
    elif shutil.which("pdftoppm"):
        command = ["pdftoppm", "-png", "-r", "110", "-singlefile", "-f", str(page)]
        command += ["-l", str(page), f"{stem}.pdf", str(png)[:-4]]
    else:
        return None
    subprocess.run(command, cwd=folder, capture_output=True, timeout=60)
    return png if png.exists() else None


pages = [compiled_page(folder, layout) for layout in ("onecolumn", "twocolumn")]
if all(pages):
    fig, axes = plt.subplots(1, 2, figsize=(11, 7.5))
    for ax, png, layout in zip(axes, pages, ("one column", "two columns")):
        ax.imshow(plt.imread(png))
        ax.set_title(layout)
        ax.set_axis_off()
    fig.tight_layout()
else:
    from sklearn_bcv import DatasetScoresDisplay

    DatasetScoresDisplay.from_result(result)
plt.show()

# %%
# Markdown and HTML
# -----------------
# GitHub tables; and one self-contained page with every figure inline as
# SVG, ready to be written to a file.
print("\n".join(result.report("markdown").splitlines()[:12]))
page = result.report("html")
print(f"{len(page) // 1024} KiB of HTML, {page.count('<svg')} figures")
