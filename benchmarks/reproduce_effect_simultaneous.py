"""Coverage of the mean differences' intervals over the pairs of a benchmark:
each pair alone, and all the pairs together (simultaneous, Bonferroni).

A benchmark of k estimators on N data sets reports k(k - 1)/2 effect
sizes. A 95% interval per pair covers its own pair's difference 95% of the
time, but all of them cover together less often; ``effect_size_intervals=
"simultaneous"`` widens each to the level ``1 - 0.05 / n_pairs``
(Bonferroni), so that all cover together at least 95% of the time. This
script draws ``--reps`` tables of N data sets and k estimators and counts,
for the mean difference in the scores' units (the BCa bootstrap of
:func:`~sklearn_bcv.stats.effect_size`, ``kind="mean_difference"``):

* per pair: how often one pair's 95% interval holds its true difference
  (averaged over the pairs);
* family: how often every pair's interval holds its true difference at
  once, with per-pair and with simultaneous intervals.

The scores: data set i has a level ``L_i ~ N(0.8, 0.05²)``; estimator j
scores ``L_i + μ_j + e_ij`` with ``μ = (0, 0.01, 0.02, ...)``, ``e_ij ~
N(0, 0.02²)`` (``normal``) or ``0.02·(Exp(1) - 1)`` (``skewed``), rounded to
``--decimals`` (the true difference of j and l is ``μ_j - μ_l``, the
rounding being unbiased on average). The Monte Carlo standard error of a
coverage near 0.95 is ``sqrt(0.95·0.05/reps)``: 0.011 for 400 repetitions.

Run from the repository root::

    python benchmarks/reproduce_effect_simultaneous.py
    python benchmarks/reproduce_effect_simultaneous.py --reps 100 --sizes 7 15
"""

import argparse
import time

import numpy as np

from sklearn_bcv.stats._effect import pairwise_effect_sizes


def table(n, k, population, decimals, rng):
    level = rng.normal(0.8, 0.05, (n, 1))
    means = 0.01 * np.arange(k)
    if population == "skewed":
        noise = 0.02 * (rng.standard_exponential((n, k)) - 1.0)
    else:
        noise = rng.normal(0.0, 0.02, (n, k))
    scores = level + means + noise
    return (np.round(scores, decimals) if decimals is not None else scores), means


def coverage(n, k, population, decimals, reps, resamples, seed):
    rng = np.random.default_rng(seed)
    names = [f"e{j}" for j in range(k)]
    pair_hits = np.zeros(2)
    family_hits = np.zeros(2)
    for rep in range(reps):
        scores, means = table(n, k, population, decimals, rng)
        for column, simultaneous in enumerate((False, True)):
            found = pairwise_effect_sizes(
                scores,
                names,
                kind="mean_difference",
                random_state=rep,
                simultaneous=simultaneous,
            )
            held = [
                e.confidence_interval[0]
                <= means[names.index(e.a)] - means[names.index(e.b)]
                <= e.confidence_interval[1]
                for e in found
            ]
            pair_hits[column] += np.mean(held)
            family_hits[column] += all(held)
    return pair_hits / reps, family_hits / reps


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=400)
    parser.add_argument("--resamples", type=int, default=9999)
    parser.add_argument("--sizes", type=int, nargs="+", default=[7, 15, 30])
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--decimals", type=int, default=None)
    args = parser.parse_args()
    n_pairs = args.k * (args.k - 1) // 2
    print(
        f"mean difference, k = {args.k} estimators ({n_pairs} pairs), "
        f"{args.reps} tables each, 95% intervals (MC s.e. near 0.95: "
        f"{np.sqrt(0.95 * 0.05 / args.reps):.3f})"
    )
    print(
        f"{'population':11s} {'N':>4s} {'per pair':>9s} {'simult.':>8s}   "
        f"{'family: per pair':>17s} {'family: simult.':>16s}"
    )
    for population in ("normal", "skewed"):
        for n in args.sizes:
            start = time.perf_counter()
            pair, family = coverage(
                n, args.k, population, args.decimals, args.reps, args.resamples, n
            )
            seconds = time.perf_counter() - start
            print(
                f"{population:11s} {n:>4d} {pair[0]:>9.3f} {pair[1]:>8.3f}   "
                f"{family[0]:>17.3f} {family[1]:>16.3f}   ({seconds:.0f} s)"
            )


if __name__ == "__main__":
    main()
