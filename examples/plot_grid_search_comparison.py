"""
==================================================
Statistical comparison of models after grid search
==================================================

scikit-learn's example "Statistical comparison of models using grid search"
compares the candidates of a :class:`~sklearn.model_selection.GridSearchCV`
by hand: it pulls the split scores out of ``cv_results_``, corrects the
t test of Nadeau and Bengio (2003) for the overlap of the training sets, and
adjusts for the comparisons. Here :func:`~sklearn_bcv.compare_search` does it
in a few lines and reproduces its numbers; then the same study runs on
block-regularized 5×2 splits (Yang et al.), with the tests of predictions,
the refit rule :func:`~sklearn_bcv.model_selection.simplest_not_worse` beside
the one-standard-deviation rule, and the nested protocol for a claim about
the chosen model.
"""

# %%
# scikit-learn's study
# --------------------
# Moons with noise, 100 records; an SVC with four kernels; 10 × 10 repeated
# stratified 10-fold CV; ROC AUC.
from sklearn.datasets import make_moons
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
from sklearn.svm import SVC

from sklearn_bcv import compare_search

X, y = make_moons(noise=0.352, random_state=1, n_samples=100)
grid = [
    {"kernel": ["linear"]},
    {"kernel": ["poly"], "degree": [2, 3]},
    {"kernel": ["rbf"]},
]
cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
search = GridSearchCV(SVC(random_state=0), grid, scoring="roc_auc", cv=cv)
search.fit(X, y)

result = compare_search(search, X, y, pairwise_tests="corrected_t")
print(result)

# %%
# rbf against linear, one side, as scikit-learn's example reports it: the
# corrected t is 0.750 and the one-sided p-value 0.227.
pair = result.pair("kernel=rbf", "kernel=linear")
one_sided = pair.run_test("corrected_t", alternative="greater")
print(f"corrected t = {one_sided.statistic:.3f}, p = {one_sided.pvalue:.3f}")

# %%
# The Bayesian view of the same pair: the correlated t posterior of Corani
# and Benavoli (2015), with a region of practical equivalence of 0.01 in ROC
# AUC.
bayes = pair.run_test("bayesian_correlated_t", rope=0.01)
print(
    f"P(rbf better) = {bayes.p_a_better:.3f}, P(equivalent) = {bayes.p_rope:.3f}, "
    f"P(linear better) = {bayes.p_b_better:.3f}"
)

# %%
# Every pair, Bonferroni-corrected, as the example's last table:
every_pair = compare_search(
    search, X, y, control=None, pairwise_tests="corrected_t", correction="bonferroni"
)
print(every_pair.to_frame()[["estimator_a", "estimator_b", "pvalue_adjusted"]])

# %%
# The same study on block-regularized 5×2 splits
# ----------------------------------------------
# Ten splits, each record tested once per repetition, training sets of
# different repetitions sharing a quarter of the records. On ROC AUC the
# recommended test is the calibrated 5×2 BCV F test; on accuracy, with the
# candidates fitted again on the search's own splits
# (``refit_candidates=True``: four candidates × ten splits, forty fits), the
# BCV McNemar's test and the block-regularized Cochran's Q run too.
import matplotlib.pyplot as plt

from sklearn_bcv import SignificanceMatrixDisplay, StratifiedBlockRegularized5x2CV

bcv = StratifiedBlockRegularized5x2CV(random_state=0)
on_bcv = GridSearchCV(SVC(random_state=0), grid, scoring="roc_auc", cv=bcv)
on_bcv.fit(X, y)
print(compare_search(on_bcv))

by_accuracy = GridSearchCV(SVC(random_state=0), grid, cv=bcv).fit(X, y)
refitted = compare_search(by_accuracy, X, y, refit_candidates=True)
print(refitted)
SignificanceMatrixDisplay.from_result(refitted)
plt.show()

# %%
# A refit rule beside the one-standard-deviation rule
# ---------------------------------------------------
# Which kernel should be refitted? The simplest one not shown worse than the
# best. "Simpler" is the user's to say: here linear, then the polynomials by
# degree, then rbf.
import numpy as np

from sklearn_bcv.model_selection import simplest_not_worse


def complexity(params):
    return {"linear": 1, "poly": params.get("degree", 3), "rbf": 4}[params["kernel"]]


rule = simplest_not_worse(complexity, cv=bcv)
refit = GridSearchCV(SVC(random_state=0), grid, scoring="roc_auc", cv=bcv, refit=rule)
refit.fit(X, y)
print(rule.result_)

# %%
# scikit-learn's refit example keeps the simplest candidate whose mean is
# within one standard deviation of the best's, the standard deviation of its
# split scores: it reads them as independent and states no level.
results = on_bcv.cv_results_
best = int(np.argmin(results["rank_test_score"]))
threshold = results["mean_test_score"][best] - results["std_test_score"][best]
within = [j for j, mean in enumerate(results["mean_test_score"]) if mean >= threshold]
one_sd = min(within, key=lambda j: complexity(results["params"][j]))
print("one standard deviation:", results["params"][one_sd])
print("simplest_not_worse:   ", rule.result_.chosen_params)

# %%
# Here both keep the linear kernel. The rule says why, at a stated level, with
# a variance that knows the training sets overlap: its p-values are in
# ``rule.result_.evidence`` and the comparison with the best in
# ``rule.result_.comparison``. ``margin=`` makes it a non-inferiority rule,
# ``rope=`` a Bayesian one.

# %%
# The chosen model against a baseline: nested cross-validation
# ------------------------------------------------------------
# The best was chosen on the splits that compared it, which makes "the best
# is better" optimistic (the result above says so in a note; the user guide
# gives the simulation). To test the *chosen* model, put the whole search
# inside each outer split: :func:`~sklearn_bcv.compare_estimators` fits a
# fresh clone of the search on every outer training set.
from sklearn_bcv import BlockRegularized5x2CV, compare_estimators

inner = StratifiedBlockRegularized5x2CV(random_state=1)
tuned = GridSearchCV(SVC(random_state=0), grid, scoring="roc_auc", cv=inner)
nested = compare_estimators(
    tuned,
    SVC(kernel="linear", random_state=0),
    X,
    y,
    cv=BlockRegularized5x2CV(random_state=0),
    scoring="roc_auc",
)
print(nested)
