"""
==============================
Compare two classifiers
==============================

Is a scaled logistic regression better than a random forest on the breast
cancer data? :func:`~sklearn_bcv.compare_estimators` fits both on the ten
splits of a 5×2 block-regularized cross-validation and runs every test that
fits the design. The recommended ones for classifiers are the 5×2 BCV
McNemar's test and the calibrated 5×2 BCV F-test.
"""

# %%
# Fit and test
# ------------
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_bcv import compare_estimators

X, y = load_breast_cancer(return_X_y=True)
logreg = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
forest = RandomForestClassifier(n_estimators=50, random_state=0)

result = compare_estimators(logreg, forest, X, y, random_state=0)
print(result)

# %%
# The recommended tests
# ---------------------
# ``bcv_mcnemar`` compresses the ten correlated contingency tables into one
# effective table (``t`` = 20/11 times the mean table) and applies McNemar's
# test to it.
bcv = result.tests.bcv_mcnemar
print(f"BCV McNemar: statistic={bcv.statistic:.3f}, p-value={bcv.pvalue:.4f}")
print("mean table:\n", bcv.mean_table.round(1))
print("effective table:\n", bcv.effective_table.round(1))

f_test = result.tests.calibrated_f_5x2bcv
print(
    f"calibrated F(7, 5): statistic={f_test.statistic:.3f}, p-value={f_test.pvalue:.4f}"
)

# %%
# The raw material
# ----------------
# Every split's scores are in the result, in the m×2 split order (split
# ``2r`` is fold 0 of repetition ``r``, split ``2r + 1`` swaps train and test).
print("accuracy of A:", result.scores_a.round(3))
print("accuracy of B:", result.scores_b.round(3))
print("differences: ", result.differences.round(3))

# %%
# A picture of the differences
# ----------------------------
from sklearn_bcv import ScoreDifferencesDisplay

ScoreDifferencesDisplay.from_result(
    result, estimator_names=("logistic regression", "random forest")
)
