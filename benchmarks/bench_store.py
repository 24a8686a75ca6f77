"""Cost of a study store, measured side by side in one run.

(a) **Overhead**: ``benchmark`` of 5 quick estimators on 20 data sets on a
    5×2 BCV (1,000 fits, ``n_jobs=1``) with a new store against no store:
    target at most 1.05×.
(b) **Rerun of a finished study**: the same call again on its store: zero
    fits (the store says it found all 1,000) and at most 2 s in all, the
    statistics included.
(c) **Extending a finished study by one estimator**: the 5-estimator study
    is in the store; ``benchmark`` of the 6 estimators (the sixth a random
    forest) against fitting the sixth estimator alone on the same splits
    (a bare loop of ``fit`` and ``predict``): target at most 1.1×.

Each contender runs ``--repeats`` times (default 3), alternating, and keeps
its best time, so background load affects both alike. Run from the
repository root::

    python benchmarks/bench_store.py
    python benchmarks/bench_store.py --repeats 5 --datasets 30
"""

import argparse
import os
import shutil
import tempfile
import time

import numpy as np
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import RidgeClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import NearestCentroid
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import BlockRegularized5x2CV, StudyStore, benchmark


def quick_estimators():
    return {
        "bayes": GaussianNB(),
        "stump": DecisionTreeClassifier(max_depth=1, random_state=0),
        "tree": DecisionTreeClassifier(max_depth=4, random_state=0),
        "ridge": RidgeClassifier(random_state=0),
        "centroid": NearestCentroid(),
    }


def study_datasets(n_datasets):
    return {
        f"data{n}": make_classification(
            n_samples=200, n_features=10, n_informative=4, random_state=n
        )
        for n in range(n_datasets)
    }


def sixth():
    return RandomForestClassifier(n_estimators=60, random_state=0)


def run(estimators, datasets, store=None):
    return benchmark(estimators, datasets, random_state=0, n_jobs=1, store=store)


def fit_alone(estimator, datasets):
    """The sixth estimator's fits and predictions on the study's splits,
    bare (the splits are drawn as benchmark draws them)."""
    seeds = np.random.RandomState(0).randint(np.iinfo(np.int32).max, size=len(datasets))
    for (X, y), seed in zip(datasets.values(), seeds):
        for train, test in BlockRegularized5x2CV(random_state=int(seed)).split(X, y):
            clone(estimator).fit(X[train], y[train]).predict(X[test])


def best(function, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--datasets", type=int, default=20)
    args = parser.parse_args()
    datasets = study_datasets(args.datasets)
    estimators = quick_estimators()
    n_fits = 10 * len(estimators) * len(datasets)
    folder = tempfile.mkdtemp(prefix="bench_store_")
    counter = iter(range(10**6))

    def with_new_store():
        run(estimators, datasets, os.path.join(folder, f"s{next(counter)}.db"))

    # (a) alternating, best of each
    plain_times, store_times = [], []
    run(estimators, datasets)  # warm up imports and caches
    for _ in range(args.repeats):
        plain_times.append(best(lambda: run(estimators, datasets), 1))
        store_times.append(best(with_new_store, 1))
    plain, stored = min(plain_times), min(store_times)
    print(f"(a) {n_fits} fits: no store {plain:.3f} s, new store {stored:.3f} s: "
          f"{stored / plain:.3f}x (target <= 1.05x)")  # fmt: skip

    # (b) the finished study again
    path = os.path.join(folder, "study.db")
    run(estimators, datasets, path)
    with StudyStore(path) as store:
        rerun = best(lambda: run(estimators, datasets, store), args.repeats)
        call = store.last_call
    print(f"(b) rerun of the finished study: {rerun:.3f} s (target <= 2 s), "
          f"{call.n_found} fits found, {call.n_kept} fitted (target 0)")  # fmt: skip

    # (c) one more estimator
    extended = {**estimators, "forest": sixth()}
    alone_times, extend_times = [], []
    for repeat in range(args.repeats):
        alone_times.append(best(lambda: fit_alone(sixth(), datasets), 1))
        copy = os.path.join(folder, f"extend{repeat}.db")
        shutil.copyfile(path, copy)  # the finished 5-estimator study, closed
        extend_times.append(best(lambda copy=copy: run(extended, datasets, copy), 1))
    alone, extend = min(alone_times), min(extend_times)
    print(f"(c) extend by one estimator ({10 * len(datasets)} fits): fitting it "
          f"alone {alone:.3f} s, benchmark of 6 with the store of 5 "
          f"{extend:.3f} s: {extend / alone:.3f}x (target <= 1.1x)")  # fmt: skip


if __name__ == "__main__":
    main()
