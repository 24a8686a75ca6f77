"""Cost of the comparison engine, measured side by side in one run.

(a) **Overhead**: ``compare_estimators(n_jobs=1)`` against a bare loop doing
    the same 20 fits and predictions on the same 5×2 BCV splits (target:
    at most 1.10×). The two alternate ``--repeats`` times; the best time of
    each is kept, so background load affects both alike.
(b) **Scaling**: ``n_jobs=2`` against ``n_jobs=1`` with estimators whose fit
    takes about 0.2 s (target: at least 1.7×), once with a CPU-bound forest
    and once with a fit that sleeps (the engine's own parallel efficiency,
    independent of how busy the cores are).
(c) **Against mlxtend** (optional, ``pip install sklearn_bcv[bench]``):
    Dietterich's 5×2cv t (``paired_ttest_5x2cv``), Alpaydin's F
    (``combined_ftest_5x2cv``) and a hold-out McNemar test
    (``mcnemar_table`` + ``mcnemar``) — three calls, 42 fits — against one
    ``compare_estimators`` call returning all of them and more (target: at
    least 2× faster at ``n_jobs=1``). Skipped when mlxtend is absent.

Run from the repository root::

    python benchmarks/bench_compare.py
    python benchmarks/bench_compare.py --repeats 5 --parts a c
"""

import argparse
import os
import time

from _timing import SleepyClassifier, best_of
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import BlockRegularized5x2CV, compare_estimators


def bare_loop(estimator_a, estimator_b, X, y, splits):
    """The same fits and predictions as compare_estimators, nothing else."""
    predictions = []
    for estimator in (estimator_a, estimator_b):
        for train, test in splits:
            fitted = clone(estimator).fit(X[train], y[train])
            predictions.append(fitted.predict(X[test]))
    return predictions


def part_a(repeats):
    X, y = make_classification(n_samples=4000, n_features=20, random_state=0)
    estimator_a = make_pipeline(StandardScaler(), LogisticRegression())
    estimator_b = DecisionTreeClassifier(random_state=0)
    cv = BlockRegularized5x2CV(random_state=0)
    splits = list(cv.split(X))
    best = best_of(
        {
            "bare loop": lambda: bare_loop(estimator_a, estimator_b, X, y, splits),
            "compare_estimators": lambda: compare_estimators(
                estimator_a, estimator_b, X, y, cv=cv, n_jobs=1
            ),
        },
        repeats,
    )
    ratio = best["compare_estimators"] / best["bare loop"]
    print(f"(a) overhead, 20 fits on 4000 x 20 (best of {repeats}):")
    for name, seconds in best.items():
        print(f"    {name:<22s} {seconds:8.3f} s")
    print(f"    ratio {ratio:.3f}x (target <= 1.10x)")
    return ratio


def part_b(repeats):
    X, y = make_classification(n_samples=3000, n_features=20, random_state=0)
    forest = RandomForestClassifier(n_estimators=80, random_state=0, n_jobs=1)
    start = time.perf_counter()
    forest.fit(X[:1500], y[:1500])
    fit_seconds = time.perf_counter() - start
    print(f"(b) scaling (best of {repeats}); one forest fit takes {fit_seconds:.2f} s:")
    ratios = {}
    for label, estimator_a, estimator_b in (
        ("CPU-bound forests", forest, clone(forest).set_params(max_depth=6)),
        ("sleeping fits 0.2 s", SleepyClassifier(0.2), SleepyClassifier(0.2)),
    ):
        best = best_of(
            {
                n_jobs: (
                    lambda n_jobs=n_jobs, a=estimator_a, b=estimator_b: (
                        compare_estimators(a, b, X, y, random_state=0, n_jobs=n_jobs)
                    )
                )
                for n_jobs in (1, 2)
            },
            repeats,
        )
        ratios[label] = best[1] / best[2]
        print(
            f"    {label:<22s} n_jobs=1 {best[1]:6.2f} s, n_jobs=2 {best[2]:6.2f} s, "
            f"speed-up {ratios[label]:.2f}x (target >= 1.7x)"
        )
    return ratios


def part_c(repeats):
    try:
        from mlxtend.evaluate import (
            combined_ftest_5x2cv,
            mcnemar,
            mcnemar_table,
            paired_ttest_5x2cv,
        )
    except ImportError:
        print("(c) skipped: mlxtend is not installed (pip install sklearn_bcv[bench])")
        return None
    X, y = make_classification(n_samples=4000, n_features=20, random_state=0)
    estimator_a = make_pipeline(StandardScaler(), LogisticRegression())
    estimator_b = DecisionTreeClassifier(random_state=0)

    def with_mlxtend():
        t = paired_ttest_5x2cv(estimator_a, estimator_b, X, y, random_seed=0)
        f = combined_ftest_5x2cv(estimator_a, estimator_b, X, y, random_seed=0)
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        pred_a = clone(estimator_a).fit(X_train, y_train).predict(X_test)
        pred_b = clone(estimator_b).fit(X_train, y_train).predict(X_test)
        m = mcnemar(mcnemar_table(y_test, pred_a, pred_b))
        return t, f, m

    def with_sklearn_bcv():
        return compare_estimators(
            estimator_a,
            estimator_b,
            X,
            y,
            random_state=0,
            tests=["paired_t_5x2cv", "combined_f_5x2cv", "bcv_mcnemar"],
            n_jobs=1,
        )

    best = best_of(
        {"mlxtend (3 calls)": with_mlxtend, "compare_estimators": with_sklearn_bcv},
        repeats,
    )
    ratio = best["mlxtend (3 calls)"] / best["compare_estimators"]
    print(f"(c) 5x2cv t + 5x2cv F + McNemar (best of {repeats}):")
    for name, seconds in best.items():
        print(f"    {name:<22s} {seconds:8.3f} s")
    print(f"    compare_estimators is {ratio:.2f}x faster (target >= 2x)")
    return ratio


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--parts", nargs="+", default=["a", "b", "c"])
    args = parser.parse_args(argv)
    parts = {"a": part_a, "b": part_b, "c": part_c}
    print(load_note())
    for part in args.parts:
        parts[part](args.repeats)
    print(load_note())


def load_note():
    """Load average against cores: above the cores, ratios are noisy."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # not on every platform
        return "load average unknown"
    return f"load average (1 min) {load:.2f} on {os.cpu_count()} cores"


if __name__ == "__main__":
    main()
