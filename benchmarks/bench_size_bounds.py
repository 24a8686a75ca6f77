"""What the size bounds protect: the work at a small size, the time that
grows from it at the bound, and the refusal beyond the bound, side by side.

Each bounded size's work grows linearly in it (resamples, draws, sweeps,
experiments); the script times it at two small sizes, fits the line, and
prints the time the line gives at the bound next to the time a value past
the bound takes to be refused (before any work). Run from the repository
root: ``python benchmarks/bench_size_bounds.py`` (about three minutes on
a 2-core machine).
"""

import time
import warnings

import numpy as np

from sklearn_bcv.simulation import simulate_null_across
from sklearn_bcv.simulation._checks import (
    MAX_DATASETS,
    MAX_ESTIMATORS,
    MAX_EXPERIMENTS,
)
from sklearn_bcv.stats import (
    almost_stochastic_order,
    bayesian_hierarchical,
    effect_size,
    plackett_luce,
)
from sklearn_bcv.stats._aso import _MAX_BOOTSTRAP
from sklearn_bcv.stats._effect import MAX_RESAMPLES
from sklearn_bcv.stats._hierarchical import MAX_CHAINS, MAX_SAMPLES, MAX_WARMUP
from sklearn_bcv.stats._plackett_luce import MAX_WORK

RNG = np.random.default_rng(0)
A, B = RNG.normal(0.80, 0.05, 30), RNG.normal(0.79, 0.05, 30)
#: A ranking of 5 estimators on many data sets (two-decimal scores: ties).
RANKED = np.round(RNG.uniform(0.6, 0.9, (MAX_WORK // (5 * 6800) + 1, 5)), 2)
X, Y = RNG.normal(size=20), RNG.normal(0.2, 1.0, 20)
D = RNG.normal(0.01, 0.02, (10, 10))


def seconds(call):
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        call()
    return time.perf_counter() - start


def refusal(call):
    start = time.perf_counter()
    try:
        call()
    except ValueError:
        return time.perf_counter() - start
    raise AssertionError("not refused")


def line(name, sizes, run, bound, beyond):
    """Time ``run(size)`` at two sizes; the line's time at ``bound``."""
    (n1, n2), (t1, t2) = sizes, [seconds(lambda n=n: run(n)) for n in sizes]
    slope = max((t2 - t1) / (n2 - n1), 0.0)
    at_bound = t1 + slope * (bound - n1)
    refused = refusal(lambda: run(beyond))
    print(
        f"{name:38s} {n1:>9,} {t1:7.2f} s  {n2:>9,} {t2:7.2f} s  "
        f"bound {bound:>11,} ~{at_bound:9.1f} s  refused past it in "
        f"{1e3 * refused:6.2f} ms"
    )


def main():
    print(
        f"{'size (work)':38s} {'small':>9s} {'time':>9s}  {'larger':>9s} "
        f"{'time':>9s}  {'the line at the bound':>27s}"
    )
    line(
        "effect_size n_resamples (30 pairs)",
        (10_000, 100_000),
        lambda n: effect_size(A, B, n_resamples=n, random_state=0),
        MAX_RESAMPLES,
        MAX_RESAMPLES + 1,
    )
    line(
        "ASO n_bootstrap (20 + 20 scores)",
        (100_000, 400_000),
        lambda n: almost_stochastic_order(X, Y, n_bootstrap=n, random_state=0),
        _MAX_BOOTSTRAP,
        _MAX_BOOTSTRAP + 1,
    )
    line(
        "hierarchical n_samples (10 data sets)",
        (8_000, 40_000),
        lambda n: bayesian_hierarchical(D, 100, 100, n_samples=n, random_state=0),
        MAX_SAMPLES,
        MAX_SAMPLES + 1,
    )
    line(
        "hierarchical n_warmup (10 data sets)",
        (500, 4_000),
        lambda n: bayesian_hierarchical(
            D, 100, 100, n_samples=4000, n_warmup=n, random_state=0
        ),
        MAX_WARMUP,
        MAX_WARMUP + 1,
    )
    line(
        "hierarchical n_chains (10 data sets)",
        (4, 32),
        lambda n: bayesian_hierarchical(
            D, 100, 100, n_samples=8 * n, n_chains=n, random_state=0
        ),
        MAX_CHAINS,
        MAX_CHAINS + 1,
    )
    line(
        "plackett_luce n_datasets (k=5, defaults)",
        (200, 1000),
        lambda n: plackett_luce(RANKED[:n], random_state=0),
        MAX_WORK // (5 * 6800),  # n_datasets × k × (4 × 200 + 6000) <= MAX_WORK
        MAX_WORK // (5 * 6800) + 1,
    )
    setup = dict(setups=["exchangeable"], tests=["friedman", "wilcoxon"])
    line(
        "null_across n_estimators (1 experiment)",
        (4, 12),
        lambda k: simulate_null_across(1, n_estimators=k, random_state=0, **setup),
        MAX_ESTIMATORS,
        1000,
    )
    line(
        "null_across n_datasets (1 experiment)",
        (20, 200),
        lambda n: simulate_null_across(1, n_datasets=n, random_state=0, **setup),
        MAX_DATASETS,
        10**6,
    )
    line(
        "null_across n_experiments (k=4, N=20)",
        (2, 6),
        lambda n: simulate_null_across(n, random_state=0, **setup),
        MAX_EXPERIMENTS,
        MAX_EXPERIMENTS + 1,
    )


if __name__ == "__main__":
    main()
