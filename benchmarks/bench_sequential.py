"""Cost of fitting one repetition at a time, measured side by side in one run.

:func:`sklearn_bcv.sequential_compare` runs one joblib call per look (the
first ``min_repeats`` repetitions, then 4 fits at a time), where
:func:`sklearn_bcv.compare_estimators` runs one call for the whole design.

(a) **Overhead of looking**: two estimators that never differ (identical
    predictions; ``futility=None``, so every look is taken),
    ``sequential_compare`` over 7
    repetitions against ``compare_estimators`` on the same 28 fits of the
    same nested 7×2 design, with trivial fits (the absolute cost of a look:
    a joblib call and the look's statistic), fits of 20 ms at ``n_jobs=1``
    (target: at most 1.10×) and fits of 0.1 s at ``n_jobs=2`` (the 4 fits of
    a look fill both workers; target: at most 1.10×).
(b) **Fits saved**: a clear difference (scaled logistic regression against
    the majority class on the breast cancer data) against the fixed 7×2
    design: the time ratio follows the fits ratio (12 against 28).
(c) **Futility under the null, real fits**: two random forests that differ
    only in their seed, on the breast cancer data: ``sequential_compare``
    with the futility stop (the default), without it (``futility=None``)
    and the fixed 5×2 BCV (``compare_estimators``): fits and times side by
    side (target: at most the fixed 5×2's 20 fits, ideally 16 or fewer).
(d) **Futility on Yang et al.'s simple setup** (``simulate_sequential``,
    n = 500): mean fits under the null and power at three effect sizes of
    the sequential BCV McNemar test (O'Brien-Fleming) with and without the
    futility stop, on the same fits (target: power within 0.02).

Run from the repository root::

    python benchmarks/bench_sequential.py
    python benchmarks/bench_sequential.py --repeats 5 --replications 1000
"""

import argparse

import numpy as np
from _timing import SleepyClassifier, best_of
from sklearn.datasets import load_breast_cancer
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_bcv import (
    BlockRegularized5x2CV,
    BlockRegularizedMx2CV,
    compare_estimators,
    sequential_compare,
)
from sklearn_bcv.simulation import simulate_sequential


def _pair(estimator, X, y, cv, n_jobs):
    """The sequential run and the fixed run of the same 28 fits."""

    def sequential():
        return sequential_compare(  # futility=None: every look is taken
            estimator,
            estimator,
            X,
            y,
            stratify=False,
            futility=None,
            n_jobs=n_jobs,
            random_state=0,
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


def futility_null(X, y, repeats, n_seeds=10):
    print("(c) futility under the null: two random forests, seeds s and s + 1")
    forests = [
        (
            RandomForestClassifier(n_estimators=20, random_state=2 * s),
            RandomForestClassifier(n_estimators=20, random_state=2 * s + 1),
        )
        for s in range(n_seeds)
    ]
    fits = {"futility": [], "no futility": []}
    decisions = {"futility": [], "no futility": []}
    for s, (a, b) in enumerate(forests):
        for label, futility in (
            ("futility", "conditional_power"),
            ("no futility", None),
        ):
            result = sequential_compare(a, b, X, y, futility=futility, random_state=s)
            fits[label].append(result.n_fits)
            decisions[label].append(result.decision)
    a, b = forests[0]
    times = best_of(
        {
            "futility": lambda: sequential_compare(a, b, X, y, random_state=0),
            "no futility": lambda: sequential_compare(
                a, b, X, y, futility=None, random_state=0
            ),
            "fixed 5×2": lambda: compare_estimators(
                a, b, X, y, cv=BlockRegularized5x2CV(random_state=0)
            ),
        },
        repeats,
    )
    for label in ("futility", "no futility"):
        counts = {d: decisions[label].count(d) for d in sorted(set(decisions[label]))}
        print(
            f"  {label:<12}: mean fits {np.mean(fits[label]):.1f} over {n_seeds} "
            f"seeds (fixed 5×2: 20; ratio {np.mean(fits[label]) / 20:.2f}), "
            f"decisions {counts}"
        )
    print(
        f"  time (seed 0): futility {times['futility']:.2f} s, no futility "
        f"{times['no futility']:.2f} s, fixed 5×2 {times['fixed 5×2']:.2f} s; "
        f"futility / fixed 5×2 {times['futility'] / times['fixed 5×2']:.2f}, "
        f"futility / no futility {times['futility'] / times['no futility']:.2f}"
    )


def futility_simulation(replications, n_jobs):
    print(
        "(d) futility on the simple setup (n = 500, logistic regression against "
        f"the majority class, {replications} replications per delta)"
    )
    result = simulate_sequential(
        "simple",
        n_samples=500,
        delta=[0.0, 0.25, 0.4, 0.55],
        n_repetitions=replications,
        tests="bcv_mcnemar",
        boundaries="obrien_fleming",
        futility="conditional_power",
        n_jobs=n_jobs,
        random_state=0,
    )
    rows = {(row["delta"], row["procedure"]): row for row in result.rows}
    plain = "sequential bcv_mcnemar (obrien_fleming)"
    futile = "sequential bcv_mcnemar (obrien_fleming, futility)"
    fixed = "fixed bcv_mcnemar 5×2"
    for delta in result.deltas:
        p, f, x = rows[(delta, plain)], rows[(delta, futile)], rows[(delta, fixed)]
        codes = result.decisions[(500, delta)]
        lost = int(np.sum((np.abs(codes[plain]) == 1) & (np.abs(codes[futile]) != 1)))
        what = "type I" if delta == 0 else "power"
        # paired difference: only the replications that lost a rejection count
        sd = np.sqrt(lost - lost**2 / replications) / replications
        print(
            f"  delta {delta:<4g}: {what} {f['rate']:.3f} with futility, "
            f"{p['rate']:.3f} without (difference {f['rate'] - p['rate']:+.3f} "
            f"± {1.96 * sd:.3f}), fixed 5×2 {x['rate']:.3f}; mean fits "
            f"{f['mean_fits']:.1f} with, {p['mean_fits']:.1f} without, 20 fixed "
            f"5×2 (saved {p['mean_fits'] - f['mean_fits']:.1f} by futility)"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--replications", type=int, default=300)
    parser.add_argument("--n-jobs", type=int, default=2)
    args = parser.parse_args()
    X, y = load_breast_cancer(return_X_y=True)
    overhead(X, y, args.repeats)
    fits_saved(X, y, args.repeats)
    futility_null(X, y, args.repeats)
    futility_simulation(args.replications, args.n_jobs)


if __name__ == "__main__":
    main()
