"""
=================
Reading the plots
=================

Three displays summarise a comparison. They are built from the result of
:func:`~sklearn_bcv.compare_estimators` with ``from_result`` and need
matplotlib.
"""

# %%
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_bcv import (
    ContingencyTableDisplay,
    PosteriorDisplay,
    ScoreDifferencesDisplay,
    compare_estimators,
)

X, y = load_breast_cancer(return_X_y=True)
names = ("logistic regression", "naive Bayes")
result = compare_estimators(
    make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
    GaussianNB(),
    X,
    y,
    random_state=0,
    tests={"bcv_mcnemar": {}, "bayesian_correlated_t": {"rope": 0.01}},
)

# %%
# Contingency tables
# ------------------
# One panel per split (rows: A wrong / right; columns: B wrong / right), then
# the mean table and the effective table of the 5×2 BCV McNemar's test. Only
# the off-diagonal cells matter to McNemar, so only they are coloured:
# ``[0, 1]`` (top right) counts records where A is wrong and B right,
# ``[1, 0]`` (bottom left) the reverse. A dark bottom-left cell and a pale
# top-right one, split after split, is what "A better" looks like. The split
# and mean tables share one colour scale. The effective table is the mean
# table scaled by ``t = 20/11``: the ten correlated tables carry about as much
# information as 20/11 × n/2 ≈ 0.9 n independent records, not 5 n.
ContingencyTableDisplay.from_result(result, estimator_names=names)

# %%
# Score differences
# -----------------
# The accuracy of A minus that of B on each split, the two folds of each
# repetition joined by a grey segment. Points above zero favour A. The 5×2cv
# t and F tests compare the spread *within* repetitions (the length of the
# segments, ``s2_r`` is half its square) with the size of the differences;
# short segments far from zero are what makes them reject.
ScoreDifferencesDisplay.from_result(result, estimator_names=names)

# %%
# Posterior of the Bayesian correlated t test
# -------------------------------------------
# The posterior of the mean accuracy difference, accounting for the overlap
# of the training sets. The grey band is the region of practical equivalence
# (here ±1 accuracy point); the three probabilities say how much of the
# posterior lies right of it (A better), inside it (equivalent) and left of
# it (B better). Unlike a p-value they can support "no practical
# difference".
PosteriorDisplay.from_result(result, estimator_names=names)
