"""After a search: the figures of compare_search and of the refit rule.

Printed beside their targets, measured in one run (best of a few, the
contenders alternating so that the load of a shared machine falls on both):

* ``compare_search`` without refitting (the split scores of ``cv_results_``,
  nothing fitted): 100 candidates × 10 splits (target ≤ 50 ms) and 1,000
  candidates × 100 splits (target ≤ 1 s; the 100 best-ranked are compared
  by default, the bound ``MAX_COMPARED``);
* ``compare_search(refit_candidates=True)``: the fits counted (target:
  exactly k × n_splits) and its wall time against the bare fits of the same
  candidates on the same splits, one joblib pool fitting and scoring each as
  ``cross_validate`` does (target ≤ 1.05×);
* a ``GridSearchCV`` of 50 candidates with ``refit=simplest_not_worse(...)``
  against ``refit=True`` (target ≤ 1.01×), and the rule's own call.

Every fit runs in this process (``n_jobs=1``). On a busy shared machine the
ratio of two wall times moves by several percent from run to run, so beside
each ratio the script measures the extra work itself, in the same run: the
time ``compare_search`` spends outside the fits and predictions (its wall
time less the fit and predict times its result records), and the time of the
rule's own call on ``cv_results_`` — what ``refit=rule`` adds to a search.

Usage::

    python benchmarks/bench_search.py            # a few minutes on a busy machine
    python benchmarks/bench_search.py --repeats 5
"""

import argparse
import time

import numpy as np
from _timing import best_of
from joblib import Parallel, delayed
from scipy.stats import rankdata
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import make_classification
from sklearn.metrics import accuracy_score
from sklearn.model_selection import GridSearchCV, KFold, RepeatedKFold
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import StratifiedBlockRegularized5x2CV, compare_search
from sklearn_bcv.model_selection import simplest_not_worse


def fake_results(k, n_splits, seed=0):
    """A cv_results_ of k candidates on n_splits splits."""
    rng = np.random.default_rng(seed)
    scores = np.round(rng.normal(0.8, 0.03, size=(n_splits, k)), 4)
    scores += rng.normal(0, 0.01, size=k)
    mean = scores.mean(axis=0)
    results = {
        "params": [{"C": float(c)} for c in np.logspace(-3, 3, k)],
        "mean_test_score": mean,
        "std_test_score": scores.std(axis=0),
        "rank_test_score": rankdata(-mean, method="min").astype(np.int32),
    }
    for i in range(n_splits):
        results[f"split{i}_test_score"] = scores[i]
    return results


class CountingSVC(ClassifierMixin, BaseEstimator):
    """An SVC that counts its fits (in this process: n_jobs=1)."""

    fits = 0

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        type(self).fits += 1
        self.model_ = SVC(C=self.C).fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)


def _fit_and_score(estimator, X, y, train, test):
    estimator.fit(X[train], y[train])
    return accuracy_score(y[test], estimator.predict(X[test]))


def bare_fits(candidates, X, y, splits):
    """Fit and score every candidate on every split: one joblib pool."""
    return Parallel(n_jobs=1)(
        delayed(_fit_and_score)(clone(est), X, y, train, test)
        for est in candidates
        for train, test in splits
    )


def row(figure, target, measured, beside=""):
    return f"{figure:<58} {target:<10} {measured:<18} {beside}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    lines = [row("figure", "target", "measured", "beside"), "-" * 110]

    # 1. compare_search on cv_results_ alone.
    small = fake_results(100, 10)
    large = fake_results(1000, 100, seed=1)
    times = best_of(
        {
            "small": lambda: compare_search(small, cv=KFold(10)),
            "large": lambda: compare_search(
                large, cv=RepeatedKFold(n_splits=10, n_repeats=10)
            ),
        },
        max(args.repeats, 5),
    )
    lines.append(
        row(
            "compare_search, 100 candidates × 10 splits",
            "≤ 50 ms",
            f"{times['small'] * 1e3:.1f} ms",
        )
    )
    lines.append(
        row(
            "compare_search, 1,000 candidates × 100 splits",
            "≤ 1 s",
            f"{times['large'] * 1e3:.1f} ms",
            "the 100 best-ranked compared (MAX_COMPARED)",
        )
    )

    # 2. refit_candidates=True: fits counted, time against the bare fits.
    X, y = make_classification(n_samples=1500, n_features=20, random_state=0)
    cv = StratifiedBlockRegularized5x2CV(random_state=0)
    grid = {"C": [0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0]}
    search = GridSearchCV(CountingSVC(), grid, cv=cv).fit(X, y)
    k, n_splits = len(grid["C"]), cv.get_n_splits()
    before = CountingSVC.fits
    compare_search(search, X, y, refit_candidates=True, n_jobs=1)
    counted = CountingSVC.fits - before
    splits = list(cv.split(X, y))
    candidates = [SVC(C=c) for c in grid["C"]]
    refit_times = best_of(
        {
            "bare": lambda: bare_fits(candidates, X, y, splits),
            "refit": lambda: compare_search(
                search, X, y, refit_candidates=True, n_jobs=1
            ),
        },
        args.repeats,
    )
    lines.append(
        row(
            f"refit_candidates=True: fits of {k} candidates × {n_splits} splits",
            f"= {k * n_splits}",
            f"{counted}",
        )
    )
    start = time.perf_counter()
    refitted = compare_search(search, X, y, refit_candidates=True, n_jobs=1)
    outside = time.perf_counter() - start - np.sum(refitted.fit_time)
    outside -= np.sum(refitted.score_time)
    lines.append(
        row(
            "refit_candidates=True, wall time / the bare fits",
            "≤ 1.05×",
            f"{refit_times['refit'] / refit_times['bare']:.3f}×",
            f"{refit_times['refit']:.2f} s / {refit_times['bare']:.2f} s",
        )
    )
    lines.append(
        row(
            "  outside the timed fits (bound: with the slicing of X)",
            "",
            f"{outside * 1e3:.0f} ms",
            f"{outside / refit_times['bare']:.2%} of the bare fits",
        )
    )

    # 3. A GridSearchCV of 50 candidates: refit=rule against refit=True.
    X, y = make_classification(n_samples=2000, n_features=20, random_state=1)
    grid = {"max_depth": list(range(1, 11)), "min_samples_leaf": [1, 2, 4, 8, 16]}
    rule = simplest_not_worse(["max_depth", ("min_samples_leaf", "larger")], cv=cv)
    tree = DecisionTreeClassifier(random_state=0)
    search_times = best_of(
        {
            "true": lambda: GridSearchCV(tree, grid, cv=cv).fit(X, y),
            "rule": lambda: GridSearchCV(tree, grid, cv=cv, refit=rule).fit(X, y),
        },
        max(args.repeats, 5),
    )
    fitted = GridSearchCV(tree, grid, cv=cv, refit=rule).fit(X, y)
    rule_call = min(
        _timed(lambda: rule(fitted.cv_results_)) for _ in range(max(args.repeats, 5))
    )
    lines.append(
        row(
            "GridSearchCV, 50 candidates: refit=rule / refit=True",
            "≤ 1.01×",
            f"{search_times['rule'] / search_times['true']:.3f}×",
            f"{search_times['rule']:.2f} s / {search_times['true']:.2f} s",
        )
    )
    lines.append(
        row(
            "  the rule's own call on cv_results_ (its overhead)",
            "",
            f"{rule_call * 1e3:.1f} ms",
            f"{rule_call / search_times['true']:.2%} of the search",
        )
    )
    print("\n".join(lines))


def _timed(func):
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
