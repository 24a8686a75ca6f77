"""
===================================
Compare scores you already have
===================================

The experiments are done: a table holds the score of every method on every
data set, computed elsewhere (your own runs, a paper's table, one score per
seed of a network). :func:`~sklearn_bcv.compare_scores` runs the analysis of
:func:`~sklearn_bcv.benchmark` on it without fitting anything: the ranks on
each data set, Friedman's test, a post hoc rank test drawn as a
critical-difference diagram, pairwise tests across data sets, and, when
asked, a Bayesian ranking of the methods. From a shell,
``sklearn-bcv scores results.csv`` does the same on a CSV file.
"""

# %%
# A classic table
# ---------------
# Demšar (2006, Table 6): the AUC of four variants of C4.5 on 14 data sets.
# A :class:`pandas.DataFrame` gives the names: columns are the estimators,
# the index the data sets.
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sklearn_bcv import (
    CriticalDifferenceDisplay,
    RankProbabilityDisplay,
    compare_scores,
)

auc = pd.DataFrame(
    [
        [0.763, 0.768, 0.771, 0.798],
        [0.599, 0.591, 0.590, 0.569],
        [0.954, 0.971, 0.968, 0.967],
        [0.628, 0.661, 0.654, 0.657],
        [0.882, 0.888, 0.886, 0.898],
        [0.936, 0.931, 0.916, 0.931],
        [0.661, 0.668, 0.609, 0.685],
        [0.583, 0.583, 0.563, 0.625],
        [0.775, 0.838, 0.866, 0.875],
        [1.000, 1.000, 1.000, 1.000],
        [0.940, 0.962, 0.965, 0.962],
        [0.619, 0.666, 0.614, 0.669],
        [0.972, 0.981, 0.9751, 0.975],
        [0.957, 0.978, 0.946, 0.970],
    ],
    columns=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"],
    index=[
        "adult",
        "breast",
        "wisconsin",
        "cmc",
        "ionosphere",
        "iris",
        "liver",
        "lung",
        "lymphography",
        "mushroom",
        "tumor",
        "rheum",
        "voting",
        "wine",
    ],
)
result = compare_scores(auc)
print(result)

# %%
# The mean ranks are Demšar's. Friedman's statistic, 10.23, is his 9.28
# corrected for ties (the mushroom row is a four-way tie), as
# :func:`scipy.stats.friedmanchisquare` computes it; the estimators differ
# at the 5% level, yet Nemenyi's critical difference separates no pair. The
# diagram shows it: every estimator is joined to another by a bar.
CriticalDifferenceDisplay.from_result(result)
plt.show()

# %%
# Which one is the best? A Bayesian ranking
# -----------------------------------------
# Nemenyi's test answers "which pairs differ?" and here finds none. The
# Bayesian Plackett–Luce ranking answers "how probable is it that each
# variant is the best?": each data set's ranking is a draw from a
# Plackett–Luce model with a Dirichlet prior on its weights (Calvo et al.
# 2018), sampled in numpy, ties (the mushroom row) kept as ties. P(best)
# is the posterior probability that a variant has the largest weight; its
# weight is the probability that it ranks first on a new data set.
ranked = compare_scores(auc, tests=["friedman", "plackett_luce"], random_state=0)
ranking = ranked.tests.plackett_luce
print(
    pd.DataFrame(
        {
            "P(best)": ranking.prob_best,
            "expected rank": ranking.expected_rank,
            "weight": ranking.weights,
        },
        index=ranking.names,
    ).round(3)
)

# %%
# C4.5+m and C4.5+m+cf share the lead, each the best with probability about
# one half; plain C4.5 is almost surely not. The bars are P(best), the dots
# and lines each weight with its 95% credible interval.
RankProbabilityDisplay.from_result(ranked)
plt.show()

# %%
# Against a control
# -----------------
# A paper proposing one variant compares it with the others only: k − 1
# comparisons instead of k(k − 1)/2, so Bonferroni–Dunn's test against the
# control has more power than Nemenyi's on all pairs.
against_c45 = compare_scores(auc, control="C4.5")
print(against_c45.verdict.text)

# %%
# Losses and error rates
# ----------------------
# With ``greater_is_better=False`` the lowest score ranks first and every
# test follows; the scores stay in your units. ``1 - AUC`` gives the same
# ranks and the same tests as the AUC.
loss = compare_scores(1 - auc, greater_is_better=False)
print(np.allclose(loss.mean_ranks, result.mean_ranks))
print(round(loss.tests.friedman.statistic, 3))

# %%
# Per-split scores
# ----------------
# When the table keeps each cross-validation split's score (a long table
# with columns ``dataset``, ``estimator``, ``split`` and a score on the
# command line; a (data set, split) index here), the Poisson-binomial test
# also weighs how much each data set's scores vary from split to split. Here
# ten noisy splits around the mean AUC of the first two variants, each tested
# on 100 of 200 records.
rng = np.random.default_rng(0)
pair = auc[["C4.5", "C4.5+m"]]
splits = np.repeat(pair.to_numpy()[:, None, :], 10, axis=1)
splits = splits + rng.normal(scale=0.01, size=splits.shape)
per_split = pd.DataFrame(
    splits.reshape(-1, 2),
    columns=pair.columns,
    index=pd.MultiIndex.from_product(
        [auc.index, range(10)], names=["dataset", "split"]
    ),
)
split_result = compare_scores(per_split, n_train=100, n_test=100, random_state=0)
print(list(split_result.pairwise))
print(split_result.verdict.text)
