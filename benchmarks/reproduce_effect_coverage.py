"""Coverage of the effect sizes' 95 % intervals: the BCa bootstrap beside the
normal interval of asymptotic theory, by simulation.

``effect_size`` gives the paired BCa bootstrap interval up to
``BOOTSTRAP_MAX_N`` (2,000) pairs and, above, ``estimate ± z·se`` with
``se`` from the kind's influence function (the delta method; kernel density
estimates for the medians and MADs of Akinshin's gamma). For each kind and
three populations of paired scores this script draws ``--reps`` samples of
n pairs and counts how often each interval holds the population value:

* ``normal``: ``a ~ N(0.8, 0.05²)``, ``d = a - b ~ N(0.01, 0.03²)``
  independent of a;
* ``skewed``: ``a`` as above, ``d = 0.03·(Exp(1) - 0.7)``;
* ``2 decimals``: the normal scores rounded to two decimals (what results
  tables hold: many exact ties).

The population value of each kind is its estimate on one sample of
4,000,000 pairs. Both intervals are computed on every sample (the
asymptotic one by lowering the bootstrap limit), the bootstrap with
``--resamples`` (default 1999) resamples; above 2,000 pairs only the
asymptotic one. The Monte Carlo standard error of a coverage near 0.95 is
``sqrt(0.95·0.05/reps)``: 0.011 for 400 repetitions.

Run from the repository root::

    python benchmarks/reproduce_effect_coverage.py
    python benchmarks/reproduce_effect_coverage.py --reps 100 --sizes 200 5000
"""

import argparse
import time

import numpy as np

from sklearn_bcv.stats import _effect
from sklearn_bcv.stats._effect import EFFECT_SIZE_KINDS, effect_size


def population(name, n, rng):
    a = rng.normal(0.8, 0.05, n)
    if name == "skewed":
        d = 0.03 * (rng.standard_exponential(n) - 0.7)
    else:
        d = rng.normal(0.01, 0.03, n)
    b = a - d
    if name == "2 decimals":
        a, b = np.round(a, 2), np.round(b, 2)
    return a, b


def covers(interval, value):
    low, high = interval
    return low <= value <= high


def interval(a, b, kind, method, n_resamples, seed):
    """The interval of ``effect_size`` with the bootstrap or, by lowering
    the limit, the asymptotic one."""
    saved = _effect.BOOTSTRAP_MAX_N
    if method == "asymptotic":
        _effect.BOOTSTRAP_MAX_N = 0
    try:
        result = effect_size(
            a, b, kind=kind, n_resamples=n_resamples, random_state=seed
        )
    finally:
        _effect.BOOTSTRAP_MAX_N = saved
    return result.confidence_interval


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=400)
    parser.add_argument("--resamples", type=int, default=1999)
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 1000, 5000])
    parser.add_argument("--kinds", nargs="+", default=list(EFFECT_SIZE_KINDS))
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    names = ("normal", "skewed", "2 decimals")
    truth = {}
    for name in names:
        a, b = population(name, 4_000_000, np.random.default_rng(123))
        for kind in args.kinds:
            # Cliff's delta by counts on the big sample (sorting, O(n log n)).
            truth[name, kind] = effect_size(a, b, kind=kind).estimate
    print(
        f"95 % intervals, {args.reps} samples each, bootstrap of "
        f"{args.resamples} resamples (MC s.e. of a coverage near 0.95: "
        f"{np.sqrt(0.95 * 0.05 / args.reps):.3f})"
    )
    header = f"{'kind':15s} {'population':11s} {'n':>6s}"
    print(f"{header} {'bootstrap':>10s} {'asymptotic':>11s}")
    for kind in args.kinds:
        for name in names:
            for n in args.sizes:
                start = time.perf_counter()
                hits = {"bootstrap": 0, "asymptotic": 0}
                methods = ["asymptotic"]
                if n <= _effect.BOOTSTRAP_MAX_N:
                    methods.insert(0, "bootstrap")
                for rep in range(args.reps):
                    a, b = population(name, n, rng)
                    for method in methods:
                        found = interval(a, b, kind, method, args.resamples, rep)
                        hits[method] += covers(found, truth[name, kind])
                shown = {
                    m: f"{hits[m] / args.reps:.3f}" if m in methods else "-"
                    for m in hits
                }
                seconds = time.perf_counter() - start
                print(
                    f"{kind:15s} {name:11s} {n:>6d} {shown['bootstrap']:>10s} "
                    f"{shown['asymptotic']:>11s}   ({seconds:.0f} s)"
                )


if __name__ == "__main__":
    main()
