"""Cost of a study store, measured side by side in one run.

(a) **Overhead**: ``benchmark`` of 5 quick estimators on 20 data sets on a
    5×2 BCV (1,000 fits, ``n_jobs=1``) with a new store against no store:
    target at most 1.05×; also the store's CPU time per fit (one SQLite
    transaction of two statements, committed before the next fit is taken,
    and the call's share of fingerprinting and look-ups), which says from
    which fit duration on the target holds.
(b) **Rerun of a finished study**: the same call again on its store: zero
    fits (the store says it found all 1,000) and at most 2 s in all, the
    statistics included.
(c) **Extending a finished study by one estimator**: the 5-estimator study
    is in the store; ``benchmark`` of the 6 estimators (the sixth a random
    forest) against fitting the sixth estimator alone on the same splits
    (``cross_validate`` on the same splits): target at most 1.1×.

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
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import Perceptron, RidgeClassifier
from sklearn.model_selection import cross_validate
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import BlockRegularized5x2CV, StudyStore, benchmark


def quick_estimators():
    return {
        "bayes": GaussianNB(),
        "stump": DecisionTreeClassifier(max_depth=1, random_state=0),
        "tree": DecisionTreeClassifier(max_depth=4, random_state=0),
        "ridge": RidgeClassifier(random_state=0),
        "perceptron": Perceptron(random_state=0),
    }


def study_datasets(n_datasets):
    return {
        f"data{n}": make_classification(
            n_samples=200, n_features=10, n_informative=4, random_state=n
        )
        for n in range(n_datasets)
    }


def sixth():
    return RandomForestClassifier(n_estimators=30, random_state=0)


def run(estimators, datasets, store=None):
    return benchmark(estimators, datasets, random_state=0, n_jobs=1, store=store)


def fit_alone(estimator, datasets):
    """The sixth estimator alone on the study's splits, as scikit-learn
    fits it: ``cross_validate`` on each data set's splits (drawn as
    benchmark draws them)."""
    seeds = np.random.RandomState(0).randint(np.iinfo(np.int32).max, size=len(datasets))
    for (X, y), seed in zip(datasets.values(), seeds):
        splits = list(BlockRegularized5x2CV(random_state=int(seed)).split(X, y))
        cross_validate(estimator, X, y, cv=splits, n_jobs=1)


class KeepClock:
    """CPU and wall time spent keeping fits (``StudySession.keep``: encoding
    the outputs and the fit's SQLite transaction), measured inside the run:
    a steadier figure than the difference of two whole runs."""

    def __init__(self):
        from sklearn_bcv._store._resume import StudySession

        self.wall = self.cpu = 0.0
        self.calls = 0
        keep = StudySession.keep

        def timed_keep(session, out):
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                return keep(session, out)
            finally:
                self.wall += time.perf_counter() - wall
                self.cpu += time.process_time() - cpu
                self.calls += 1

        StudySession.keep = timed_keep

    def best_per_fit(self):
        """Per-fit ``(wall, CPU)`` ms of the best lap."""
        return self._best

    def lap(self):
        if self.calls:
            per_fit = (self.wall / self.calls * 1e3, self.cpu / self.calls * 1e3)
            best = getattr(self, "_best", (float("inf"), float("inf")))
            self._best = (min(best[0], per_fit[0]), min(best[1], per_fit[1]))
        self.wall = self.cpu = 0.0
        self.calls = 0


def timed(function):
    """``(wall seconds, CPU seconds of this process, all its threads)``."""
    wall, cpu = time.perf_counter(), time.process_time()
    function()
    return time.perf_counter() - wall, time.process_time() - cpu


def alternate(functions, repeats):
    """Best wall and CPU time of each function, the functions alternating so
    that background load affects them alike."""
    best = {name: [float("inf"), float("inf")] for name in functions}
    for _ in range(repeats):
        for name, function in functions.items():
            wall, cpu = timed(function)
            best[name] = [min(best[name][0], wall), min(best[name][1], cpu)]
    return best


def ratio_line(label, best, first, second, target):
    (wall_a, cpu_a), (wall_b, cpu_b) = best[first], best[second]
    return (
        f"{label}: {first} {wall_a:.3f} s, {second} {wall_b:.3f} s: "
        f"{wall_b / wall_a:.3f}x wall (CPU {cpu_a:.3f} s and {cpu_b:.3f} s: "
        f"{cpu_b / cpu_a:.3f}x) (target <= {target}x)"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--datasets", type=int, default=20)
    parser.add_argument("--parts", default="abc")
    args = parser.parse_args()
    datasets = study_datasets(args.datasets)
    estimators = quick_estimators()
    n_fits = 10 * len(estimators) * len(datasets)
    folder = tempfile.mkdtemp(prefix="bench_store_")
    counter = iter(range(10**6))
    run(estimators, datasets)  # warm up imports and caches

    if "a" in args.parts:
        clock = KeepClock()

        def with_store():
            run(estimators, datasets, os.path.join(folder, f"s{next(counter)}.db"))
            clock.lap()

        best = alternate(
            {"no store": lambda: run(estimators, datasets), "new store": with_store},
            args.repeats,
        )
        print(ratio_line(f"(a) {n_fits} fits", best, "no store", "new store", 1.05))
        extra = (best["new store"][1] - best["no store"][1]) / n_fits * 1e3
        print(f"    the store's CPU per fit: {extra:.3f} ms (one SQLite transaction "
              "and the call's look-ups); a fit here takes "
              f"{best['no store'][1] / n_fits * 1e3:.2f} ms of CPU: the 1.05x "
              f"target holds for fits of {max(extra, 0) / 0.05:.1f} ms or more"
              )  # fmt: skip
        keep_wall, keep_cpu = clock.best_per_fit()
        print(f"    inside the run, keeping a fit (encoding and its transaction) "
              f"takes {keep_wall:.3f} ms wall, {keep_cpu:.3f} ms CPU (best run)"
              )  # fmt: skip

    path = os.path.join(folder, "study.db")
    run(estimators, datasets, path)
    if "b" in args.parts:
        with StudyStore(path) as store:
            (wall, _) = alternate(
                {"rerun": lambda: run(estimators, datasets, store)}, args.repeats
            )["rerun"]
            call = store.last_call
        print(f"(b) rerun of the finished study: {wall:.3f} s (target <= 2 s), "
              f"{call.n_found} fits found, {call.n_kept} fitted (target 0)"
              )  # fmt: skip

    if "c" in args.parts:
        extended = {**estimators, "forest": sixth()}
        copies = iter(range(10**6))

        def extend():
            copy = os.path.join(folder, f"extend{next(copies)}.db")
            shutil.copyfile(path, copy)  # the finished 5-estimator study, closed
            with StudyStore(copy) as store:
                start = time.perf_counter()
                run(extended, datasets, store)
                assert store.last_call.n_kept == 10 * len(datasets)
                return time.perf_counter() - start

        best = alternate(
            {"fitting it alone": lambda: fit_alone(sixth(), datasets),
             "benchmark of 6 on the store of 5": extend},
            args.repeats,
        )  # fmt: skip
        print(ratio_line(f"(c) extend by one estimator ({10 * len(datasets)} fits)",
                         best, "fitting it alone", "benchmark of 6 on the store of 5",
                         1.1))  # fmt: skip


if __name__ == "__main__":
    main()
