"""
==========================================
Reports: text, markdown, LaTeX and HTML
==========================================

A comparison ends in a paper, a README or a web page. ``result.report()``
writes what was compared, which tests ran and why, the verdicts in
sentences a methods section can quote, the effect sizes with their
intervals (when the result has them) and the tables, in four formats.
Here: six estimators on twelve data sets, from a table of scores the user
already has (:func:`~sklearn_bcv.compare_scores`); the estimator names are
awkward on purpose (``_``, ``&`` and ``%`` are special in LaTeX).
"""

# %%
# A table of scores
# -----------------
import numpy as np

from sklearn_bcv import compare_scores

rng = np.random.default_rng(0)
names = ["log_reg", "svm_rbf", "forest", "k-NN & scaling", "tree_d3", "50% bagging"]
level = rng.normal(0.8, 0.05, (12, 1))
scores = level + np.linspace(0.0, 0.05, 6) + rng.normal(0, 0.02, (12, 6))
result = compare_scores(
    scores,
    names=names,
    datasets=[f"data_{i}" for i in range(12)],
)

# %%
# The text report
# ---------------
# The Friedman test with its degrees of freedom, Nemenyi's critical
# difference beside its textbook value, the pairwise Wilcoxon tests, then
# the table: the best of each row between asterisks, a dagger on the
# estimators Nemenyi's test finds different from the best.
print(result.report())

# %%
# LaTeX
# -----
# A fragment for a document with ``\usepackage{booktabs}``: every name
# escaped, the best bold, the dagger explained in a footnote.
latex = result.report("latex")
print(latex[latex.index("\\begin{table}") :])

# %%
# Markdown and HTML
# -----------------
# GitHub tables; and one self-contained page with the critical difference
# diagram as inline SVG, ready to be written to a file.
print("\n".join(result.report("markdown").splitlines()[-6:]))
page = result.report("html")
print(f"{len(page) // 1024} KiB of HTML, {page.count('<svg')} embedded figure")
