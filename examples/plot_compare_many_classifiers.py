"""
=============================================
Compare many classifiers from one set of fits
=============================================

Five classifiers on the breast cancer data: which of them differ?
:func:`~sklearn_bcv.compare_many_estimators` fits each one once on every
split of a 5×2 block-regularized cross-validation (50 fits, where looping
:func:`~sklearn_bcv.compare_estimators` over the ten pairs would take 200),
runs an omnibus test of "all five are equally accurate" and the 5×2 BCV
McNemar's test on every pair, with Holm-adjusted p-values.
"""

# %%
# Fit once, test every pair
# -------------------------
from sklearn.datasets import load_breast_cancer
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import compare_many_estimators

X, y = load_breast_cancer(return_X_y=True)
estimators = [
    ("logistic", make_pipeline(StandardScaler(), LogisticRegression())),
    ("forest", RandomForestClassifier(n_estimators=50, random_state=0)),
    ("tree", DecisionTreeClassifier(random_state=0)),
    ("naive Bayes", GaussianNB()),
    ("majority", DummyClassifier()),
]
result = compare_many_estimators(estimators, X, y, random_state=0)
print(result)

# %%
# The omnibus test
# ----------------
# ``bcv_cochran_q`` extends the effective contingency table of the 5×2 BCV
# McNemar's test to five estimators: do any of them differ at all?
omnibus = result.tests.bcv_cochran_q
print(f"Q_e = {omnibus.statistic:.1f}, df = {omnibus.df}, p = {omnibus.pvalue:.3g}")

# %%
# Which pairs differ
# ------------------
# The pairwise p-values form one family, adjusted by Holm's method: the chance
# that any of the ten pairs is declared different when none is stays below
# alpha. Row = A, column = B, in the order the estimators were given.
pairwise = result.pairwise.bcv_mcnemar
print(pairwise.pvalue_adjusted.round(4))
print("pairs that differ, better first:", result.verdict.differ)

# %%
# A picture of it
# ---------------
# :class:`~sklearn_bcv.SignificanceMatrixDisplay` draws the adjusted p-values,
# best estimator first.
from sklearn_bcv import SignificanceMatrixDisplay

SignificanceMatrixDisplay.from_result(result)

# %%
# Any pair, as compare_estimators gives it
# ----------------------------------------
# Every pair's full two-estimator result comes from the same fits, with the
# same numbers as :func:`~sklearn_bcv.compare_estimators` on the same splits.
print(result.pair("logistic", "forest"))

# %%
# Against a baseline
# ------------------
# With ``control`` only the pairs with the baseline are tested: four instead
# of ten, so Holm's correction costs less power.
against_majority = compare_many_estimators(
    estimators, X, y, random_state=0, control="majority"
)
print(against_majority.verdict.text)
