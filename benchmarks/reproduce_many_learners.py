"""Type I error of the omnibus tests with learners (training-set variance in).

The epsilon losses of ``reproduce_many.py`` do not depend on the training
set, so they cannot show how a test treats the one variance a hold-out test
ignores and the block-regularized tests model: that of the training sets.
Here k real learners are fitted on Yang et al.'s simple data set with
``delta = 0`` (:func:`sklearn_bcv.datasets.make_simple`: the class is a fair
coin independent of the predictor), so every learner's true error rate is
exactly 1/2 and the null hypothesis holds, while each learner's predictions
change with its training set. Every repetition draws a fresh data set and
runs :func:`sklearn_bcv.compare_many_estimators` (the library's own path) on
a 5×2 BCV (``bcv_cochran_q``, pairwise ``bcv_mcnemar`` with Holm) and on one
hold-out split with a third of the records as test set (``cochran_q``,
``looney_f``, pairwise ``mcnemar`` with Holm).

Learners: k = 3 — Yang et al.'s logistic regression (unpenalised, Newton) and
majority class, and a decision stump; k = 5 adds Gaussian naive Bayes and
15-nearest neighbours.

Usage::

    python benchmarks/reproduce_many_learners.py                 # 1,000 / cell
    python benchmarks/reproduce_many_learners.py --repetitions 4000 --rst
"""

import argparse
import time

import numpy as np
from joblib import Parallel, delayed
from sklearn.model_selection import ShuffleSplit
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import BlockRegularized5x2CV, compare_many_estimators
from sklearn_bcv.datasets import make_simple
from sklearn_bcv.simulation import rejection_rate_interval
from sklearn_bcv.simulation._paper import format_text_table, simple_learners

ALPHA = 0.05
SIZES = (300, 1000)
#: (design, procedure, label): omnibus tests by name, pairwise ones "+holm".
PROCEDURES = (
    ("holdout", "cochran_q", "Cochran's Q (hold-out)"),
    ("holdout", "looney_f", "Looney's F (hold-out)"),
    ("holdout", "mcnemar+holm", "pairwise McNemar + Holm (hold-out)"),
    ("5x2bcv", "bcv_cochran_q", "BCV Cochran's Q (5×2 BCV)"),
    ("5x2bcv", "bcv_mcnemar+holm", "pairwise BCV McNemar + Holm (5×2 BCV)"),
)


def learners(k):
    logistic, majority = simple_learners()
    named = [
        ("logistic", logistic),
        ("majority", majority),
        ("stump", DecisionTreeClassifier(max_depth=1, random_state=0)),
        ("bayes", GaussianNB()),
        ("knn", KNeighborsClassifier(n_neighbors=15)),
    ]
    return named[:k]


def one_repetition(k, n_samples, seed):
    """{procedure: rejected} on one fresh data set."""
    X, y = make_simple(n_samples, delta=0.0, random_state=seed)
    rejected = {}
    for cv in (
        ShuffleSplit(n_splits=1, test_size=1 / 3, random_state=seed),
        BlockRegularized5x2CV(random_state=seed),
    ):
        result = compare_many_estimators(learners(k), X, y, cv=cv, n_jobs=1)
        for name, test in result.tests.items():
            rejected[name] = bool(test.reject)
        for name, table in result.pairwise.items():
            rejected[f"{name}+holm"] = bool(table.reject.any())
    return rejected


def type_one_errors(n_repetitions, random_state, n_jobs):
    cells = {}
    seeds = np.random.RandomState(random_state).randint(2**31 - 1, size=n_repetitions)
    for k in (3, 5):
        for n_samples in SIZES:
            outcomes = Parallel(n_jobs=n_jobs)(
                delayed(one_repetition)(k, n_samples, int(seed)) for seed in seeds
            )
            cells[k, n_samples] = {
                procedure: sum(outcome[procedure] for outcome in outcomes)
                for _, procedure, _ in PROCEDURES
            }
    return cells


def format_cells(cells, n_repetitions, *, rst=False):
    header = ["procedure"] + [f"k = {k}, n = {n}" for k, n in cells]
    rows = []
    for _, procedure, label in PROCEDURES:
        row = [label]
        for counts in cells.values():
            low, high = rejection_rate_interval(counts[procedure], n_repetitions)
            flag = "" if low <= ALPHA else " (!)"
            row.append(
                f"{counts[procedure] / n_repetitions:.3f} [{low:.3f}, {high:.3f}]{flag}"
            )
        rows.append(row)
    return format_text_table(header, rows, rst=rst)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repetitions", type=int, default=1000)
    parser.add_argument("--random-state", type=int, default=0)
    parser.add_argument("--n-jobs", type=int, default=-1)
    parser.add_argument("--rst", action="store_true", help="print a reST table")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    cells = type_one_errors(args.repetitions, args.random_state, args.n_jobs)
    print(
        f"Type I error at alpha = {ALPHA} with learners on the simple data set "
        f"(delta = 0), {args.repetitions} repetitions per cell, 95% Wilson "
        f"intervals; (!) = interval entirely above alpha; "
        f"{time.perf_counter() - start:.0f} s\n"
    )
    print(format_cells(cells, args.repetitions, rst=args.rst))
    return cells


if __name__ == "__main__":
    main()
