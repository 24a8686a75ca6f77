"""
===========================================
Stop fitting when the answer is clear
===========================================

A fixed 5×2 or 7×2 block-regularized cross-validation fits both estimators
on every split, whatever the data say. :func:`~sklearn_bcv.sequential_compare`
fits one repetition of a nested m×2 BCV at a time, looks at the BCV
McNemar statistic after each, and stops as soon as it crosses a
group-sequential boundary, with the overall type I error still at
``alpha`` under the BCV variance model. See :ref:`stopping_early` for the
construction and its limits.
"""

# %%
# A clear difference: three repetitions are enough
# ------------------------------------------------
# A support vector machine against a decision tree on the breast cancer
# data. The first look comes after ``min_repeats=3`` repetitions (12 fits);
# the design is laid out for ``max_repeats=7``.
import matplotlib.pyplot as plt
from sklearn.datasets import load_breast_cancer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import SequentialDisplay, sequential_compare

X, y = load_breast_cancer(return_X_y=True)
svm = make_pipeline(StandardScaler(), SVC())
tree = DecisionTreeClassifier(random_state=0)

clear = sequential_compare(svm, tree, X, y, random_state=0)
print(clear)

# %%
# The statistic crossed the upper boundary at the first look: 12 fits
# instead of the 28 of a fixed 7×2 design.
print(
    f"{clear.decision} after {clear.n_repeats} repetitions: "
    f"{clear.n_fits} fits made, {clear.n_fits_saved} saved"
)

# %%
# The boundary plot
# -----------------
# The grey band is the continuation region: while the statistic stays inside
# it, another repetition is fitted. The boundaries are drawn at every
# possible look, the path up to the look where fitting stopped.
SequentialDisplay.from_result(clear, estimator_names=("SVM", "tree"))

# %%
# A small difference: every look is taken
# ---------------------------------------
# A scaled logistic regression and a random forest differ by about one and a
# half accuracy points on these data. The statistic never leaves the band, the
# comparison fits all seven repetitions and ends "undecided" — which is not
# a claim that the two are equivalent.
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression

logreg = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
forest = RandomForestClassifier(n_estimators=50, random_state=0)

close = sequential_compare(logreg, forest, X, y, random_state=3)
print(close)

# %%
SequentialDisplay.from_result(close, estimator_names=("logistic", "forest"))

# %%
# The column "cond. power" is the conditional power under the current
# trend: the chance that the last look crosses its boundary if the
# difference stays the one seen so far. It stayed above 0.1 here, so the
# futility stop (on by default) let the comparison go on.
#
# No difference: the futility stop
# --------------------------------
# Two random forests that differ only in their seed. At the first look the
# statistic is 0 and the conditional power is about 1e-4: the comparison
# stops with "no difference" (``stopped_by`` is ``"futility"``) after 12
# fits, where the design without the futility stop (``futility=None``) would
# fit all 28.
futile = sequential_compare(
    RandomForestClassifier(n_estimators=50, random_state=0),
    RandomForestClassifier(n_estimators=50, random_state=1),
    X,
    y,
    random_state=0,
)
print(futile.decision, futile.stopped_by, futile.n_fits, futile.trace.conditional_power)

# %%
# ``result.comparison`` holds the fixed-design tests of the 7×2 BCV, from the
# same fits (``print(close.comparison)`` shows them all). Their p-values are
# those of a design fixed in advance and are *not* sequentially adjusted:
# the decision is ``close.decision``.
fixed = close.comparison.tests
print(f"fixed 7×2 BCV McNemar: p = {fixed.bcv_mcnemar.pvalue:.3f}")
print(f"fixed 7×2 BCV t:       p = {fixed.bcv_t.pvalue:.3f}")
print("sequentially adjusted:", close.comparison.sequentially_adjusted)

# %%
# Any score, regression included
# ------------------------------
# ``test="bcv_t"`` looks at the mean score difference under the BCV variance
# model, referred to Student's t with ``2m - 1`` degrees of freedom, so it
# works with any ``scoring``. Here a ridge regression against a fully grown
# regression tree on the diabetes data, by mean absolute error, with Pocock's
# boundary.
from sklearn.datasets import load_diabetes
from sklearn.linear_model import Ridge
from sklearn.tree import DecisionTreeRegressor

X_reg, y_reg = load_diabetes(return_X_y=True)
regression = sequential_compare(
    Ridge(),
    DecisionTreeRegressor(random_state=0),
    X_reg,
    y_reg,
    test="bcv_t",
    scoring="neg_mean_absolute_error",
    boundary="pocock",
    random_state=0,
)
print(regression)

# %%
# The interval is in the scoring's units: with ``neg_mean_absolute_error``,
# A - B > 0 means that the ridge regression's mean absolute error is lower.

# %%
# Pocock or O'Brien–Fleming?
# --------------------------
# :func:`~sklearn_bcv.stats.group_sequential_boundaries` gives the critical
# values of the standardised look statistic. Pocock's boundary is constant;
# O'Brien–Fleming's is stricter at the first looks and lower at the last.
# Under the BCV model with the conservative correlations
# ``rho1 = rho2 = 1/2`` the looks are strongly correlated (more repetitions
# add little information), so both stay close to the fixed-design 1.96.
import numpy as np

from sklearn_bcv.stats import group_sequential_boundaries

fig, ax = plt.subplots(figsize=(6, 4))
for boundary, marker in [("pocock", "o"), ("obrien_fleming", "s")]:
    bounds = group_sequential_boundaries(3, 7, boundary=boundary)
    ax.plot(bounds.repeats, bounds.upper, marker + "-", label=boundary)
    print(boundary, np.round(bounds.upper, 3), "nominal alpha per look:")
    print("   ", np.round(bounds.nominal_alpha, 4))
ax.axhline(1.96, color="grey", linestyle=":", label="fixed design, 1.96")
ax.set_xticks(bounds.repeats)
ax.set_xlabel("repetitions fitted (m)")
ax.set_ylabel("critical value of |z_m|")
ax.set_title("Two-sided boundaries, alpha = 0.05, looks 3 to 7")
ax.legend()
fig.tight_layout()

# %%
# ``boundary="pocock"`` stops earlier on a large difference;
# ``"obrien_fleming"`` (the default) loses less when the comparison runs to
# the end.

# %%
# The Bayesian m×2 BCV McNemar test
# ---------------------------------
# From the same effective table, ``bayesian_bcv_mcnemar`` gives posterior
# probabilities instead of a p-value: that the logistic regression is more
# accurate by more than a region of practical equivalence (``rope``), that the
# two are within it, or that the forest is better. ``result.comparison`` holds
# it with ``rope=0``; ``run_test`` computes it with a rope of one accuracy
# point, without refitting.
from sklearn_bcv import PosteriorDisplay

print(sorted(close.comparison.tests))
posterior = close.comparison.run_test("bayesian_bcv_mcnemar", rope=0.01)
for key in ("p_a_better", "p_rope", "p_b_better"):
    print(f"{key}: {posterior[key]:.3f}")

# %%
# The posterior density of the accuracy difference, the rope shaded.
PosteriorDisplay(
    posterior_s=posterior.posterior_s,
    posterior_theta=posterior.posterior_theta,
    rope=posterior.rope,
    estimator_names=("logistic", "forest"),
).plot()

# %%
# And without a rope, straight from the comparison:
PosteriorDisplay.from_result(
    close.comparison,
    test="bayesian_bcv_mcnemar",
    estimator_names=("logistic", "forest"),
)
plt.show()
