"""Cost of a benchmark study across data sets, measured side by side in one run.

(a) **One pool, no barrier**: ``benchmark`` of 4 estimators on 6 data sets
    of very different sizes (150 to 6,000 records) on a 5×2 BCV — 240 fits
    in one joblib pool over (data set, split, estimator) — against a loop of
    ``compare_many_estimators`` over the data sets (one pool per data set,
    each ending with a barrier where a worker may wait for the last slow
    fit), both at ``n_jobs=2``: target at least 1.2× faster.
(d) **No barrier on a cluster**, emulated: the same comparison of (a) on 16
    workers (joblib's threading backend) with estimators whose fit sleeps
    for a time proportional to its training set (a cost model of real fits
    on a cluster, without using the 2 cores): one pool against the loop,
    target at least 1.2× faster. Here the barrier of each data set's pool
    leaves workers idle for lack of tasks, as on a real cluster.
(b) **Parallel scaling**: ``benchmark`` at ``n_jobs=2`` against
    ``n_jobs=1``: target at least 1.85× (the limit is 2× on two cores, and
    only on an otherwise idle machine).
(c) **Statistics**: ``compare_scores`` on a 100 × 10 score table (100 data
    sets, 10 estimators, 45 pairs): the default tests (Friedman, Nemenyi,
    Wilcoxon on every pair), the Bayesian signed-rank and sign tests on
    every pair (50,000 samples each), and the Poisson-binomial test on
    per-split scores (100 × 10 × 10): target under 50 ms.

Each contender runs ``--repeats`` times (default 3), alternating, and keeps
its best time, so background load affects both alike.

Run from the repository root::

    python benchmarks/bench_benchmark.py
    python benchmarks/bench_benchmark.py --parts c --repeats 5
"""

import argparse
import time

import numpy as np
from joblib import parallel_config
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import (
    load_breast_cancer,
    load_digits,
    load_iris,
    load_wine,
    make_classification,
)
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import (
    BlockRegularized5x2CV,
    benchmark,
    compare_many_estimators,
    compare_scores,
)


def estimators():
    return {
        "logistic": make_pipeline(StandardScaler(), LogisticRegression(max_iter=500)),
        "forest": RandomForestClassifier(n_estimators=60, random_state=0),
        "tree": DecisionTreeClassifier(random_state=0),
        "bayes": GaussianNB(),
    }


def datasets():
    return {
        "iris": load_iris(return_X_y=True),
        "wine": load_wine(return_X_y=True),
        "cancer": load_breast_cancer(return_X_y=True),
        "digits": load_digits(return_X_y=True),
        "gen3000": make_classification(
            n_samples=3000, n_features=20, n_informative=8, random_state=0
        ),
        "gen6000": make_classification(
            n_samples=6000, n_features=30, n_informative=10, random_state=1
        ),
    }


def best_of(repeats, *contenders):
    """Best wall time of each contender, running them alternately."""
    times = [float("inf")] * len(contenders)
    for _ in range(repeats):
        for i, run in enumerate(contenders):
            start = time.perf_counter()
            run()
            times[i] = min(times[i], time.perf_counter() - start)
    return times


def part_a(repeats):
    data = datasets()
    cv = BlockRegularized5x2CV(random_state=0)

    def one_pool():
        benchmark(estimators(), data, cv=cv, n_jobs=2)

    def loop():
        for X, y in data.values():
            compare_many_estimators(estimators(), X, y, cv=cv, n_jobs=2)

    pool, looped = best_of(repeats, one_pool, loop)
    print(
        f"(a) one pool {pool:.2f} s, loop of compare_many_estimators "
        f"{looped:.2f} s: {looped / pool:.2f}x faster (target >= 1.2x)"
    )


class SleepingClassifier(ClassifierMixin, BaseEstimator):
    """Majority class, after sleeping ``cost`` seconds per 1,000 training
    records (sleeping holds no core, so 16 threads emulate 16 workers)."""

    def __init__(self, cost=0.1):
        self.cost = cost

    def fit(self, X, y):
        time.sleep(self.cost * len(y) / 1000)
        values, counts = np.unique(y, return_counts=True)
        self.classes_, self.majority_ = values, values[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


def part_d(repeats):
    data = datasets()
    cv = BlockRegularized5x2CV(random_state=0)
    sleepers = {
        f"cost{cost}": SleepingClassifier(cost) for cost in (0.05, 0.1, 0.2, 0.4)
    }

    def one_pool():
        benchmark(sleepers, data, cv=cv, n_jobs=16)

    def loop():
        for X, y in data.values():
            compare_many_estimators(sleepers, X, y, cv=cv, n_jobs=16)

    with parallel_config(backend="threading"):
        pool, looped = best_of(repeats, one_pool, loop)
    print(
        f"(d) 16 emulated workers: one pool {pool:.2f} s, loop {looped:.2f} s: "
        f"{looped / pool:.2f}x faster (target >= 1.2x)"
    )


def part_b(repeats):
    data = datasets()
    cv = BlockRegularized5x2CV(random_state=0)
    serial, parallel = best_of(
        repeats,
        lambda: benchmark(estimators(), data, cv=cv, n_jobs=1),
        lambda: benchmark(estimators(), data, cv=cv, n_jobs=2),
    )
    print(
        f"(b) n_jobs=1 {serial:.2f} s, n_jobs=2 {parallel:.2f} s: "
        f"{serial / parallel:.2f}x faster (target >= 1.85x)"
    )


def part_c(repeats):
    rng = np.random.default_rng(0)
    quality = rng.uniform(0.6, 0.9, size=(100, 1, 10))
    split_scores = np.clip(quality + rng.normal(0, 0.03, (100, 10, 10)), 0, 1)
    scores = split_scores.mean(axis=1)
    bayesian = ["bayesian_signed_rank", "bayesian_sign"]
    runs = {
        "default tests (friedman, nemenyi, wilcoxon)": lambda: compare_scores(scores),
        "bayesian signed-rank + sign, 45 pairs": lambda: compare_scores(
            scores, tests=[], pairwise_tests=bayesian, rope=0.01, random_state=0
        ),
        "poisson_binomial, 45 pairs (per-split)": lambda: compare_scores(
            split_scores,
            n_train=500,
            n_test=500,
            tests=[],
            pairwise_tests=["poisson_binomial"],
        ),
        "everything at once": lambda: compare_scores(
            split_scores,
            n_train=500,
            n_test=500,
            pairwise_tests=["wilcoxon", "poisson_binomial", *bayesian],
            rope=0.01,
            random_state=0,
        ),
    }
    times = best_of(repeats, *runs.values())
    for (label, _), seconds in zip(runs.items(), times):
        print(f"(c) {label}: {1000 * seconds:.1f} ms (target < 50 ms)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="adbc")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    for part in args.parts:
        {"a": part_a, "b": part_b, "c": part_c, "d": part_d}[part](args.repeats)


if __name__ == "__main__":
    main()
