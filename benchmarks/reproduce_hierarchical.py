"""The hierarchical Bayesian test on Corani & Benavoli's simulation.

Corani & Benavoli's experiment (the C -> F network; zeroR against BN-hat by 10-fold
CV on q = 50 data sets of sizes uniform over {25, ..., 1000}), with three
tests deciding "BN-hat (A) is better" when their posterior probability
exceeds 0.95 (one-sided, as Corani & Benavoli 2015): the hierarchical test
(``bayesian_hierarchical``, rope 0), the Poisson-binomial test and the
Bayesian signed-rank test on the mean differences. Prints, per setting,
the rate of "A better" decisions (and of "B better" ones, always wrong
here) with 95% Wilson intervals, and, for the shrinkage claim of Corani et
al. (2017), the mean squared error of the hierarchical posterior means of
the data sets' differences and of the raw mean differences, against the
generating |delta_i|, with its Monte Carlo standard error.

Usage::

    python benchmarks/reproduce_hierarchical.py            # ~5 min on an idle core
    python benchmarks/reproduce_hierarchical.py --quick    # ~1 min
"""

import argparse
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from sklearn_bcv.simulation._hierarchical import simulate_hierarchical_seed002
from sklearn_bcv.simulation._result import rejection_rate_interval


def _rate(count, n):
    low, high = rejection_rate_interval(count, n)
    return f"{count / n:.3f} [{low:.3f}, {high:.3f}]"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--only", nargs="+", type=int, help="indices of the settings to run"
    )
    args = parser.parse_args()
    scale = 0.1 if args.quick else 1.0
    settings = [
        ("delta = 0 (fixed)", dict(delta=0.0), 150),
        ("delta = 0.01 (fixed)", dict(delta=0.01), 40),
        ("delta = 0.02 (fixed)", dict(delta=0.02), 40),
        ("delta = 0.03 (fixed)", dict(delta=0.03), 40),
        ("delta-bar = 0.02 (Cauchy)", dict(delta=0.02, cauchy=True), 40),
        ("delta = 0.05 (fixed)", dict(delta=0.05), 40),
        ("delta = 0.07 (fixed)", dict(delta=0.07), 40),
    ]
    header = (
        f"{'setting':28s} {'R':>4s}  {'hierarchical':22s} {'Poisson-binomial':22s} "
        f"{'signed-rank':22s} {'B better (h/P/s)':16s}"
    )
    print(header)
    shrinkage = []
    for seed, (label, kwargs, n) in enumerate(settings):
        if args.only is not None and seed not in args.only:
            continue
        n = max(10, int(n * scale))
        start = time.perf_counter()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            out = simulate_hierarchical_seed002(n, random_state=seed, **kwargs)
        n_warned = sum(issubclass(w.category, ConvergenceWarning) for w in caught)
        rates = [_rate(int(c), n) for c in out["decisions"].sum(axis=0)]
        wrong = "/".join(str(int(c)) for c in out["b_decisions"].sum(axis=0))
        print(
            f"{label:28s} {n:4d}  {rates[0]:22s} {rates[1]:22s} {rates[2]:22s} "
            f"{wrong:16s} ({time.perf_counter() - start:.0f} s; R-hat max "
            f"{out['max_rhat']:.3f}, ESS min {out['min_ess']:.0f}, "
            f"{n_warned} convergence warnings)"
        )
        shrinkage.append((label, n, out["squared_errors"]))
    print("\nMean squared error of the data sets' differences (x 1e-4), ± MC s.e.")
    print(f"{'setting':28s} {'hierarchical (shrunk)':24s} {'raw means':24s} ratio")
    for label, n, se in shrinkage:
        mean = se.mean(axis=0) * 1e4
        err = se.std(axis=0, ddof=1) / np.sqrt(n) * 1e4
        ratio = se[:, 0].mean() / se[:, 1].mean()
        print(
            f"{label:28s} {mean[0]:8.3f} ± {err[0]:<12.3f} {mean[1]:8.3f} ± "
            f"{err[1]:<12.3f} {ratio:.3f}"
        )


if __name__ == "__main__":
    main()
