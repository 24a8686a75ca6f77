"""
============================================
Test predictions of models trained elsewhere
============================================

When the models are trained outside scikit-learn (a GPU cluster, another
library), :func:`~sklearn_bcv.compare_predictions` runs the same statistics
on their predictions. You need the splits and, for each split, the
predictions of A and B on that split's test records. Generate the splits
with a block-regularized splitter so the BCV tests apply, train wherever you
like, and bring the predictions back.
"""

# %%
# The splits, saved and shared with the training jobs
# ---------------------------------------------------
import numpy as np
from sklearn.datasets import load_digits

from sklearn_bcv import BlockRegularized5x2CV, compare_predictions

X, y = load_digits(return_X_y=True)
splits = list(BlockRegularized5x2CV(random_state=0).split(X, y))

# %%
# "Elsewhere": here two scikit-learn models stand in for the external
# training jobs; only their predictions leave the loop.
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

predictions_a, predictions_b = [], []
for train, test in splits:
    predictions_a.append(GaussianNB().fit(X[train], y[train]).predict(X[test]))
    tree = DecisionTreeClassifier(max_depth=8, random_state=0)
    predictions_b.append(tree.fit(X[train], y[train]).predict(X[test]))

# %%
# The comparison
# --------------
result = compare_predictions(y, predictions_a, predictions_b, splits)
print(result)

# %%
# Any metric that takes ``(y_true, y_pred)`` works as the score; the
# contingency tables (and so the McNemar tests) always count correct
# predictions.
balanced = compare_predictions(
    y,
    predictions_a,
    predictions_b,
    splits,
    scoring="balanced_accuracy",
    tests=["calibrated_f_5x2bcv"],
)
print(balanced.tests.calibrated_f_5x2bcv)

# %%
# One hold-out split: comparing two fitted models
# -----------------------------------------------
# With a single (train, test) split the question becomes "which of these two
# fitted models makes fewer errors", answered by McNemar's test.
from sklearn_bcv import mcnemar_table

train, test = splits[0]
table = mcnemar_table(y[test], predictions_a[0], predictions_b[0])
print("A wrong & B right:", table[0, 1], " A right & B wrong:", table[1, 0])
holdout = compare_predictions(
    y, predictions_a[:1], predictions_b[:1], splits[:1], tests="mcnemar"
)
print(holdout.tests.mcnemar)
print("hold-out accuracies:", np.round([holdout.scores_a[0], holdout.scores_b[0]], 3))
