"""
=========================================
Compare classifiers across many data sets
=========================================

A paper proposing a classifier does not claim that it is better on one data
set but across a collection of them. The data sets are then the units of
observation: each gives one score per classifier, and the question is whether
the classifiers differ in a way that holds across data sets (Demšar 2006).
:func:`~sklearn_bcv.benchmark` fits four classifiers on every split of six
small data sets, in one joblib pool, and runs the tests across data sets:
Friedman's test on the ranks and Nemenyi's post hoc test (drawn as a
critical-difference diagram), and on every pair the Wilcoxon signed-rank
test, the Poisson-binomial test and, here, the Bayesian signed-rank test with
a region of practical equivalence.
"""

# %%
# Six data sets, four classifiers
# -------------------------------
# Three data sets bundled with scikit-learn and three generated ones, each
# given as a zero-argument callable returning ``(X, y)`` (called once, when
# the benchmark starts). The generated data sets have their own seeds.
from sklearn.datasets import (
    load_breast_cancer,
    load_iris,
    load_wine,
    make_circles,
    make_classification,
    make_moons,
)
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import benchmark

datasets = {
    "iris": lambda: load_iris(return_X_y=True),
    "wine": lambda: load_wine(return_X_y=True),
    "breast cancer": lambda: load_breast_cancer(return_X_y=True),
    "moons": lambda: make_moons(n_samples=400, noise=0.35, random_state=1),
    "circles": lambda: make_circles(
        n_samples=400, noise=0.15, factor=0.6, random_state=1
    ),
    "classification": lambda: make_classification(
        n_samples=600, n_features=20, n_informative=6, flip_y=0.05, random_state=1
    ),
}
estimators = {
    "logistic": make_pipeline(StandardScaler(), LogisticRegression()),
    "forest": RandomForestClassifier(n_estimators=50, random_state=0),
    "k-NN": make_pipeline(StandardScaler(), KNeighborsClassifier()),
    "tree": DecisionTreeClassifier(random_state=0),
}

# %%
# One call fits the four classifiers on the ten splits of a 5×2
# block-regularized cross-validation of each data set (240 fits) and runs the
# tests. ``pairwise_tests`` adds the Bayesian signed-rank test to the default
# ones (Wilcoxon and Poisson-binomial), and ``rope=0.01`` declares that a
# difference of one point of accuracy is too small to matter. The rope is
# part of the question: choose it before looking at the results.
result = benchmark(
    estimators,
    datasets,
    pairwise_tests=["wilcoxon", "poisson_binomial", "bayesian_signed_rank"],
    rope=0.01,
    n_jobs=2,
    random_state=0,
)
print(result)

# %%
# The scores and the ranks
# ------------------------
# The mean accuracy of each classifier on each data set and, in brackets, its
# rank there (1 = best, ties averaged). The tests work on these tables and
# never average accuracies across data sets. Logistic regression has the best
# mean rank, first on four data sets of six, and the worst mean accuracy,
# because of its collapse on *circles*, which a linear model cannot separate:
# a rank records who wins on a data set, not by how much.
print(f"{'':>15}" + "".join(f"{name:>12}" for name in result.names))
for dataset, scores, ranks in zip(result.datasets, result.scores, result.ranks):
    print(
        f"{dataset:>15}" + "".join(f"{s:>8.3f} ({r:g})" for s, r in zip(scores, ranks))
    )
print(f"{'mean rank':>15}" + "".join(f"{r:>12.2f}" for r in result.mean_ranks))

# %%
# Friedman's test asks whether any of the four differ, from the ranks alone.
# Its p-value is exact given the ties (the permutation law of the statistic,
# ``friedman.method``); the chi-squared approximation and Iman and
# Davenport's F, computed from the same statistic, are reported beside it.
# None rejects at the 5% level with six data sets.
friedman = result.tests.friedman
iman = friedman.iman_davenport
print(
    f"Friedman chi2 = {friedman.statistic:.2f}, p = {friedman.pvalue:.3f} "
    f"({friedman.method}; chi-squared p = {friedman.pvalue_chi2:.3f})"
)
print(f"Iman-Davenport F = {iman.statistic:.2f}, p = {iman.pvalue:.3f}")

# %%
# The critical-difference diagram
# -------------------------------
# The mean ranks on an axis (the best on the left), the critical difference
# of Nemenyi's test as a bar above it, and a thick line joining each group of
# classifiers whose mean ranks are closer than the critical difference. Two
# classifiers joined by no line would differ significantly.
import matplotlib.pyplot as plt

from sklearn_bcv import CriticalDifferenceDisplay

cd_display = CriticalDifferenceDisplay.from_result(result, show_ranks=True)
plt.show()

# %%
# With four classifiers and six data sets the critical difference is almost
# two ranks, on an axis three ranks long, and one line joins all four. That
# line is no evidence that they are *equivalent*: six data sets cannot tell
# them apart by mean rank, nothing more. The mean ranks would also change if
# a classifier were added or removed, although nothing about the others
# would have changed.
print(f"critical difference: {result.tests.nemenyi.critical_difference:.3f}")
print("groups joined by a line:", cd_display.groups_)

# %%
# A stronger post hoc family, and letters
# ---------------------------------------
# Nemenyi's test is the weakest way to ask which pairs differ. The z tests
# on the same mean ranks with Bergmann and Hommel's correction, which uses
# the logic of pairwise comparisons (if A = B and B = C then A = C), find
# more at the same family-wise error. The diagram of any post hoc family
# draws its groups, the maximal sets of classifiers no two of which it finds
# different; ``compact_letters`` writes the same groups as letters.
from sklearn_bcv import compact_letters, compare_scores

posthoc = compare_scores(
    result.scores,
    names=result.names,
    datasets=result.datasets,
    tests={"friedman_posthoc": {"correction": "bergmann"}},
    pairwise_tests=[],
)
CriticalDifferenceDisplay.from_result(posthoc, test="friedman_posthoc")
plt.show()
print(compact_letters(posthoc, "friedman_posthoc"))

# %%
# One pair, three tests
# ---------------------
# A random forest is bagged trees: does it beat a single tree? The pairwise
# tests compare the two on their own scores, whatever the other classifiers.
# The forest wins on all six data sets. Wilcoxon's test ranks the six mean
# differences; its p-value is adjusted by Holm's method for the six pairs
# tested. The Poisson-binomial test uses the ten per-split differences of
# each data set: ``p_datasets`` is the posterior probability that the forest
# is better on each one, lower where cross-validation is noisy. The Bayesian
# signed-rank test gives the probabilities that the forest is better by more
# than the rope, that the two are within one point of accuracy, and that the
# tree is better.
forest, tree = result.names.index("forest"), result.names.index("tree")
wilcoxon = result.pairwise.wilcoxon
poisson = result.pairwise.poisson_binomial
signed_rank = result.pairwise.bayesian_signed_rank
print(
    f"Wilcoxon: p = {wilcoxon.pvalue[forest, tree]:.3f}, "
    f"Holm-adjusted {wilcoxon.pvalue_adjusted[forest, tree]:.3f}"
)
per_dataset = poisson.results[("forest", "tree")].p_datasets
print(
    "Poisson-binomial: p_i =",
    ", ".join(f"{d} {p:.2f}" for d, p in zip(result.datasets, per_dataset)),
)
print(f"  P(forest better on more than half) = {poisson.p_a_better[forest, tree]:.3f}")
print(
    f"Bayesian signed-rank: P(forest better) = "
    f"{signed_rank.p_a_better[forest, tree]:.3f}, "
    f"P(rope) = {signed_rank.p_rope[forest, tree]:.3f}, "
    f"P(tree better) = {signed_rank.p_b_better[forest, tree]:.3f}"
)

# %%
# The forest's six wins out of six give Wilcoxon's test p = 0.031, the
# smallest two-sided p-value six data sets allow, and Holm's correction for
# six pairs leaves it short of the 5% level. The Poisson-binomial and
# Bayesian tests, which answer other questions, both favour the forest. The
# Poisson-binomial conclusion is about these six data sets ("the forest is
# better on more than half of them"); the signed-rank tests treat them as a
# sample of data sets.

# %%
# The posterior in a simplex
# --------------------------
# Each point is one posterior sample of (θ forest better, θ rope, θ other
# better), placed in a triangle whose corners are the three outcomes. The
# dashed lines split it into the regions where each outcome is the most
# probable, and the probability written at each corner is the share of
# samples in its region. Left, the forest against the tree: the cloud lies
# on the edge opposite the tree, squeezed into the forest's corner, a clear
# conclusion. Right, the forest
# against k-NN: the cloud stretches from the rope towards the forest, most
# of it in the rope's region; "practically equivalent" is the likeliest
# outcome, but below the 0.95 needed to claim it.
from sklearn_bcv import PosteriorSimplexDisplay

fig, axes = plt.subplots(1, 2, figsize=(9, 4.4), layout="constrained")
for ax, other in zip(axes, ("tree", "k-NN")):
    PosteriorSimplexDisplay.from_result(
        result, "forest", other, test="bayesian_signed_rank", ax=ax
    )
plt.show()

# %%
# Each data set on its own
# ------------------------
# The same fits answer the single-data-set question as well: ``per_dataset``
# holds each data set's :func:`~sklearn_bcv.compare_many_estimators` result,
# with the 5×2 BCV tests of the four classifiers on that data set.
for dataset, one in result.per_dataset.items():
    verdict = one.verdict
    outcome = "differ" if verdict.omnibus_reject else "no significant difference"
    print(f"{dataset:>15}: {verdict.omnibus_test}, {outcome}; pairs: {verdict.differ}")
