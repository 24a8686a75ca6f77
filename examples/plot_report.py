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
the LaTeX is compiled into a one-column article and its pages shown, when
``pdflatex`` is installed (else its source).
"""

# %%
# The benchmark
# -------------
# Four classifiers, five data sets (three bundled with scikit-learn, two
# generated), a 5×2 block-regularized cross-validation of each; the
# Bayesian signed-rank test joins the default pairwise tests, with a region
# of practical equivalence of one point of accuracy.
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

datasets = {
    "iris": lambda: load_iris(return_X_y=True),
    "wine": lambda: load_wine(return_X_y=True),
    "breast cancer": lambda: load_breast_cancer(return_X_y=True),
    "moons": lambda: make_moons(n_samples=300, noise=0.35, random_state=1),
    "classification": lambda: make_classification(
        n_samples=300, n_features=10, n_informative=4, random_state=1
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
# Every table is a float with a caption and a label (``label_prefix``
# keeps two reports in one paper apart), its numbers aligned on the decimal
# point, statistics and ``alpha`` in math; a table wider than the line is
# scaled down to it. ``figures=`` writes each figure as a PDF file (without
# a date: the same result gives the same bytes) that the report includes.
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

# The paper's folder: the figures' directory is given as the paper reaches
# it, relative to the paper.
folder = Path(tempfile.mkdtemp())
here = os.getcwd()
os.chdir(folder)
try:
    latex = result.report("latex", figures="figures", label_prefix="bench:")
finally:
    os.chdir(here)
(folder / "report.tex").write_text(latex, encoding="utf-8")
start = latex.index("\\begin{table}", latex.index("\\caption{Mean score") - 60)
print(latex[start : latex.index("\\end{table}", start) + len("\\end{table}")])
print(sorted(path.name for path in (folder / "figures").iterdir()))

# %%
# On a paper's page
# -----------------
# The fragment in a one-column article whose preamble loads ``booktabs``
# and ``graphicx``, compiled when ``pdflatex`` is installed, its first
# pages drawn with MuPDF or Poppler when one of them is; otherwise the
# figure of the scores per data set, as the HTML report shows it.
import matplotlib.pyplot as plt

(folder / "paper.tex").write_text(
    "\\documentclass{article}\n\\usepackage{booktabs}\n\\usepackage{graphicx}\n"
    "\\begin{document}\n\\input{report}\n\\end{document}\n",
    encoding="utf-8",
)


def compiled_pages(folder, pages=(1, 2)):
    """PNG files of the first pages of the compiled paper, or []."""
    if shutil.which("pdflatex") is None:
        return []
    run = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "paper.tex"],
        cwd=folder,
        capture_output=True,
        timeout=120,
    )
    if run.returncode != 0:
        return []
    drawn = []
    for page in pages:
        png = folder / f"page{page}.png"
        if shutil.which("mutool"):
            command = ["mutool", "draw", "-r", "110", "-o", str(png)]
            command += ["paper.pdf", str(page)]
        elif shutil.which("pdftoppm"):
            command = ["pdftoppm", "-png", "-r", "110", "-singlefile"]
            command += ["-f", str(page), "-l", str(page), "paper.pdf", str(png)[:-4]]
        else:
            return []
        subprocess.run(command, cwd=folder, capture_output=True, timeout=60)
        if png.exists():
            drawn.append(png)
    return drawn


pages = compiled_pages(folder)
if pages:
    fig, axes = plt.subplots(1, len(pages), figsize=(5.5 * len(pages), 7.5))
    for ax, png in zip(list(getattr(axes, "flat", [axes])), pages):
        ax.imshow(plt.imread(png))
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
