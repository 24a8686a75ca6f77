"""Cost of comparing many estimators, measured side by side in one run.

(a) **One set of fits**: ``compare_many_estimators`` on 5 estimators (50
    fits on a 5×2 BCV) against looping ``compare_estimators`` over the 10
    pairs (200 fits): target at least 3.5× faster.
(b) **Against mlxtend** (optional, ``pip install sklearn_bcv[bench]``): the
    workflow Raschka's survey describes with mlxtend's functions — Cochran's
    Q (``cochrans_q``) and the F test (``ftest``) on a hold-out split, then
    for every pair McNemar's test on that split (``mcnemar_table`` +
    ``mcnemar``) and, to compare the *algorithms* rather than one pair of
    fitted models, the 5×2cv paired t test (``paired_ttest_5x2cv``, which
    refits both estimators 10 times per pair): 5 + 10 × 20 = 205 fits.
    ``compare_many_estimators`` returns an omnibus test on all ten splits
    (the block-regularized Cochran's Q), the 5×2 BCV McNemar test of every
    pair with Holm-adjusted p-values and every pair's two-estimator result
    on demand, from 50 fits: target at least 3× faster.
(c) **Overhead**: ``compare_many_estimators(n_jobs=1)`` against a bare loop
    doing the same 50 fits and predictions on the same splits: target at
    most 1.05×.
(d) **Parallel scaling**: ``n_jobs=2`` against ``n_jobs=1`` on breast
    cancer, for two estimators (a 300-tree random forest and a scaled
    logistic regression, ``compare_estimators``) and for five
    (``compare_many_estimators``): median of ``--repeats`` runs each
    (default 7), the two settings alternating; target at least 1.85× (the
    limit is 2× on two cores, and only on an otherwise idle machine).

(a)-(c) keep the best time of ``--repeats`` runs (default 3) of each
contender, alternating, so background load affects both alike.

Run from the repository root::

    python benchmarks/bench_many.py
    python benchmarks/bench_many.py --parts d --repeats 7
"""

import argparse
import os
import statistics
import time
from itertools import combinations

from _timing import best_of
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.ensemble import (
    ExtraTreesClassifier,
    GradientBoostingClassifier,
    RandomForestClassifier,
)
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import (
    BlockRegularized5x2CV,
    compare_estimators,
    compare_many_estimators,
)


def five_estimators():
    """Five classifiers whose fits take from milliseconds to a second."""
    return [
        ("logistic", make_pipeline(StandardScaler(), LogisticRegression())),
        ("tree", DecisionTreeClassifier(random_state=0)),
        ("bayes", GaussianNB()),
        ("knn", make_pipeline(StandardScaler(), KNeighborsClassifier())),
        ("forest", RandomForestClassifier(n_estimators=50, random_state=0)),
    ]


def data():
    return make_classification(n_samples=2000, n_features=20, random_state=0)


def report(title, best, ratio, target):
    print(title)
    for name, seconds in best.items():
        print(f"    {name:<34s} {seconds:8.3f} s")
    print(f"    ratio {ratio:.2f}x ({target})")


def part_a(repeats):
    X, y = data()
    estimators = five_estimators()

    def loop_over_pairs():
        return [
            compare_estimators(a, b, X, y, random_state=0, n_jobs=1)
            for (_, a), (_, b) in combinations(estimators, 2)
        ]

    best = best_of(
        {
            "compare_estimators over 10 pairs": loop_over_pairs,
            "compare_many_estimators": lambda: compare_many_estimators(
                estimators, X, y, random_state=0, n_jobs=1
            ),
        },
        repeats,
    )
    ratio = best["compare_estimators over 10 pairs"] / best["compare_many_estimators"]
    report(
        f"(a) 5 estimators, 5x2 BCV, 2000 x 20 (best of {repeats}): 200 fits vs 50",
        best,
        ratio,
        "compare_many_estimators faster by; target >= 3.5x",
    )
    return ratio


def part_b(repeats):
    try:
        from mlxtend.evaluate import (
            cochrans_q,
            ftest,
            mcnemar,
            mcnemar_table,
            paired_ttest_5x2cv,
        )
    except ImportError:
        print("(b) skipped: mlxtend is not installed (pip install sklearn_bcv[bench])")
        return None
    X, y = data()
    estimators = five_estimators()

    def with_mlxtend():
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        predictions = [
            clone(est).fit(X_train, y_train).predict(X_test) for _, est in estimators
        ]
        omnibus = cochrans_q(y_test, *predictions), ftest(y_test, *predictions)
        pairs = [
            (
                mcnemar(mcnemar_table(y_test, predictions[i], predictions[j])),
                paired_ttest_5x2cv(
                    estimators[i][1], estimators[j][1], X, y, random_seed=0
                ),
            )
            for i, j in combinations(range(len(estimators)), 2)
        ]
        return omnibus, pairs

    best = best_of(
        {
            "mlxtend (205 fits)": with_mlxtend,
            "compare_many_estimators (50 fits)": lambda: compare_many_estimators(
                estimators, X, y, random_state=0, n_jobs=1
            ),
        },
        repeats,
    )
    ratio = best["mlxtend (205 fits)"] / best["compare_many_estimators (50 fits)"]
    report(
        f"(b) omnibus + pairwise tests of 5 estimators (best of {repeats}):",
        best,
        ratio,
        "compare_many_estimators faster by; target >= 3x",
    )
    return ratio


def bare_loop(estimators, X, y, splits):
    """The same fits and predictions as compare_many_estimators, nothing else."""
    return [
        [clone(est).fit(X[train], y[train]).predict(X[test]) for _, est in estimators]
        for train, test in splits
    ]


def part_c(repeats):
    X, y = data()
    estimators = five_estimators()
    cv = BlockRegularized5x2CV(random_state=0)
    splits = list(cv.split(X))
    best = best_of(
        {
            "bare loop of 50 fits": lambda: bare_loop(estimators, X, y, splits),
            "compare_many_estimators": lambda: compare_many_estimators(
                estimators, X, y, cv=cv, n_jobs=1
            ),
        },
        repeats,
    )
    ratio = best["compare_many_estimators"] / best["bare loop of 50 fits"]
    report(
        f"(c) overhead against the bare fits (best of {repeats}):",
        best,
        ratio,
        "compare_many_estimators / bare loop; target <= 1.05x",
    )
    return ratio


def part_d(repeats):
    X, y = load_breast_cancer(return_X_y=True)
    forest = RandomForestClassifier(n_estimators=300, random_state=0)
    logistic = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    five = [
        ("forest", forest),
        ("logistic", logistic),
        ("extra", ExtraTreesClassifier(n_estimators=300, random_state=0)),
        ("svc", make_pipeline(StandardScaler(), SVC())),
        ("boosting", GradientBoostingClassifier(random_state=0)),
    ]
    runs = {
        "2 estimators": lambda n_jobs: compare_estimators(
            logistic, forest, X, y, random_state=0, n_jobs=n_jobs
        ),
        "5 estimators": lambda n_jobs: compare_many_estimators(
            five, X, y, random_state=0, n_jobs=n_jobs
        ),
    }
    runs["2 estimators"](2)  # start the workers once, as a session would
    print(f"(d) parallel scaling on breast cancer (median of {repeats}):")
    ratios = {}
    for label, run in runs.items():
        times = {1: [], 2: []}
        for _ in range(repeats):
            for n_jobs in (1, 2):
                start = time.perf_counter()
                run(n_jobs)
                times[n_jobs].append(time.perf_counter() - start)
        one, two = statistics.median(times[1]), statistics.median(times[2])
        ratios[label] = one / two
        print(
            f"    {label:<14s} n_jobs=1 {one:6.2f} s, n_jobs=2 {two:6.2f} s, "
            f"speed-up {ratios[label]:.2f}x (target >= 1.85x)"
        )
    return ratios


def load_note():
    """Load average against cores: above the cores, ratios are noisy."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # not on every platform
        return "load average unknown"
    return f"load average (1 min) {load:.2f} on {os.cpu_count()} cores"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repeats", type=int, default=None, help="runs per contender (3; 7 for d)"
    )
    parser.add_argument("--parts", nargs="+", default=["a", "b", "c", "d"])
    args = parser.parse_args(argv)
    parts = {"a": part_a, "b": part_b, "c": part_c, "d": part_d}
    print(load_note())
    for part in args.parts:
        repeats = args.repeats or (7 if part == "d" else 3)
        parts[part](repeats)
    print(load_note())


if __name__ == "__main__":
    main()
