"""Cost of the effect sizes with bootstrap intervals, measured side by side.

All 28 pairs of 8 estimators over 30 data sets (the ``effect_sizes`` of a
``compare_scores`` result), 9999 paired BCa resamples each, for every kind:
the vectorised statistic (``scipy.stats.bootstrap(vectorized=True)``, what
the library runs) against the same bootstrap calling the statistic once per
resample (``vectorized=False``, as a loop would). Then the whole
``compare_scores`` on that table, and on 100 estimators (only the 99 pairs
with the best, 1999 resamples each, above k = 10).

Each contender runs ``--repeats`` times (default 3), alternating, and keeps
its best time.

Run from the repository root::

    python benchmarks/bench_effect.py
"""

import argparse

import numpy as np
from _timing import best_of
from scipy import stats

from sklearn_bcv import compare_scores
from sklearn_bcv.stats._effect import _STATISTICS, EFFECT_SIZE_KINDS


def _all_pairs(table, kind, vectorized, n_resamples):
    statistic = _STATISTICS[kind]
    if not vectorized:
        plain = statistic

        def statistic(a, b):
            return plain(a, b)

    k = table.shape[1]
    for i in range(k):
        for j in range(i + 1, k):
            stats.bootstrap(
                (table[:, i], table[:, j]),
                statistic,
                paired=True,
                vectorized=vectorized,
                n_resamples=n_resamples,
                method="BCa",
                random_state=0,
            )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    table = rng.normal(0.8, 0.05, size=(30, 8)) + rng.normal(0, 0.03, size=(30, 1))
    print("28 pairs, 30 data sets, 9999 resamples: vectorised vs per-resample (s)")
    for kind in EFFECT_SIZE_KINDS:
        # The per-resample loop is timed on 999 resamples and scaled by 10.
        best = best_of(
            {
                "vectorised": lambda kind=kind: _all_pairs(table, kind, True, 9999),
                "loop_999": lambda kind=kind: _all_pairs(table, kind, False, 999),
            },
            args.repeats,
        )
        loop = 10 * best["loop_999"]
        print(
            f"  {kind:15s} {best['vectorised']:7.3f}  {loop:8.3f} (x10 of 999)"
            f"  ratio {loop / best['vectorised']:6.1f}"
        )
    wide = rng.normal(0.8, 0.05, size=(30, 100)) + rng.normal(0, 0.03, size=(30, 1))
    best = best_of(
        {
            "k8": lambda: compare_scores(table, random_state=0),
            "k8_auto": lambda: compare_scores(table, tests="auto", random_state=0),
            "k100": lambda: compare_scores(wide, pairwise_tests=[], random_state=0),
        },
        args.repeats,
    )
    print("compare_scores with effect_sizes (s)")
    for name, seconds in best.items():
        print(f"  {name:10s} {seconds:7.3f}")


if __name__ == "__main__":
    main()
