"""Cost of fitting one repetition at a time, measured side by side in one run.

:func:`sklearn_bcv.sequential_compare` runs one joblib call per look (the
first ``min_repeats`` repetitions, then 4 fits at a time), where
:func:`sklearn_bcv.compare_estimators` runs one call for the whole design.

(a) **Overhead of looking**: two estimators that never differ (identical
    predictions, so every look is taken), ``sequential_compare`` over 7
    repetitions against ``compare_estimators`` on the same 28 fits of the
    same nested 7×2 design, with trivial fits (the absolute cost of a look:
    a joblib call and the look's statistic), fits of 20 ms at ``n_jobs=1``
    (target: at most 1.10×) and fits of 0.1 s at ``n_jobs=2`` (the 4 fits of
    a look fill both workers; target: at most 1.10×).
(b) **Fits saved**: a clear difference (scaled logistic regression against
    the majority class on the breast cancer data) against the fixed 7×2
    design: the time ratio follows the fits ratio (12 against 28).

Run from the repository root::

    python benchmarks/bench_sequential.py
    python benchmarks/bench_sequential.py --repeats 5
"""

import argparse

from _timing import SleepyClassifier, best_of
from sklearn.datasets import load_breast_cancer
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_bcv import BlockRegularizedMx2CV, compare_estimators, sequential_compare


def _pair(estimator, X, y, cv, n_jobs):
    """The sequential run and the fixed run of the same 28 fits."""

    def sequential():
        return sequential_compare(
            estimator, estimator, X, y, stratify=False, n_jobs=n_jobs, random_state=0
        )

    def fixed():
        return compare_estimators(
            estimator, estimator, X, y, cv=cv, tests="bcv_mcnemar", n_jobs=n_jobs
        )

    return {"sequential": sequential, "fixed": fixed}


def overhead(X, y, repeats):
    print("(a) overhead of looking: identical estimators, all 7 looks, 28 fits")
    cv = BlockRegularizedMx2CV(n_repeats=7, max_repeats=7, random_state=0)
    for n_jobs, estimator in (
        (1, DummyClassifier()),
        (1, SleepyClassifier(0.02)),
        (2, SleepyClassifier(0.1)),
    ):
        result = _pair(estimator, X, y, cv, n_jobs)["sequential"]()
        assert result.n_repeats == 7 and result.decision == "undecided"
        times = best_of(_pair(estimator, X, y, cv, n_jobs), repeats)
        extra = (times["sequential"] - times["fixed"]) / 5 * 1e3
        print(
            f"  n_jobs={n_jobs} ({estimator!r}): sequential "
            f"{times['sequential']:.3f} s, fixed 7×2 {times['fixed']:.3f} s, ratio "
            f"{times['sequential'] / times['fixed']:.2f}, {extra:.1f} ms per extra look"
        )


def fits_saved(X, y, repeats):
    print("(b) fits saved: logistic regression against the majority class")
    logistic = make_pipeline(StandardScaler(), LogisticRegression())
    dummy = DummyClassifier()
    result = sequential_compare(logistic, dummy, X, y, random_state=0)
    cv = BlockRegularizedMx2CV(n_repeats=7, random_state=0)
    times = best_of(
        {
            "sequential": lambda: sequential_compare(
                logistic, dummy, X, y, random_state=0
            ),
            "fixed": lambda: compare_estimators(logistic, dummy, X, y, cv=cv),
        },
        repeats,
    )
    print(
        f"  stopped at m={result.n_repeats} ({result.decision}): {result.n_fits} "
        f"fits against 28; sequential {times['sequential']:.3f} s, fixed 7×2 "
        f"{times['fixed']:.3f} s, ratio {times['sequential'] / times['fixed']:.2f} "
        f"(fits ratio {result.n_fits / 28:.2f})"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    X, y = load_breast_cancer(return_X_y=True)
    overhead(X, y, args.repeats)
    fits_saved(X, y, args.repeats)


if __name__ == "__main__":
    main()
