"""Runaway cost of hostile input, before and after, side by side.

* The name check of ``compare_scores`` / ``benchmark`` on n data sets: the
  former ``names.count`` per name (quadratic) against one ``Counter``.
* Pairwise tests over k estimators: every two-sided pair run both ways
  (the former behaviour, forced by declaring Wilcoxon's swap rule
  ``"recompute"``) against once per pair (its declared rule, ``"same"``).
* ``group_sequential_boundaries(1, 10**6)``: refused at once (the cap of 50
  looks); it never finished before.

Run from the repository root: ``python benchmarks/bench_hostile.py``.
"""

import dataclasses
import time
import warnings

import numpy as np
from _timing import best_of

from sklearn_bcv import compare_scores
from sklearn_bcv._engine._validation import check_names
from sklearn_bcv.stats import _registry, group_sequential_boundaries


def quadratic_duplicates(names):
    """The former check: ``names.count`` for every name."""
    return sorted({name for name in names if names.count(name) > 1})


def names_check(n):
    names = [f"dataset_{i}" for i in range(n)]
    best = best_of(
        {
            "quadratic": lambda: quadratic_duplicates(names),
            "counter": lambda: check_names(names, argument="datasets"),
        },
        repeats=1,
    )
    print(
        f"name check, n={n:>6}: quadratic {best['quadratic']:8.3f} s, "
        f"Counter {best['counter']:8.4f} s, ratio "
        f"{best['quadratic'] / best['counter']:8.0f}x"
    )


def pairwise(k, n_datasets=20):
    rng = np.random.default_rng(0)
    scores = rng.uniform(size=(n_datasets, k)) + np.linspace(0, 0.3, k)

    def run():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return compare_scores(
                scores, tests=[], pairwise_tests=["paired_t_datasets"]
            )

    def both_ways():
        saved = _registry.get_entry("wilcoxon")
        _registry._REGISTRY["wilcoxon"] = dataclasses.replace(saved, swap="recompute")
        try:
            return run()
        finally:
            _registry._REGISTRY["wilcoxon"] = saved

    best = best_of({"both ways": both_ways, "once": run}, repeats=1)
    print(
        f"pairwise paired t, k={k:>3}, {n_datasets} data sets: both ways "
        f"{best['both ways']:7.2f} s, once {best['once']:7.2f} s, ratio "
        f"{best['both ways'] / best['once']:5.2f}x"
    )


def boundaries_cap():
    start = time.perf_counter()
    try:
        group_sequential_boundaries(1, 10**6)
    except ValueError as exc:
        print(
            f"group_sequential_boundaries(1, 10**6): refused in "
            f"{time.perf_counter() - start:.4f} s ({exc})"
        )


if __name__ == "__main__":
    for n in (5_000, 20_000):
        names_check(n)
    for k in (40, 100):
        pairwise(k)
    boundaries_cap()
