"""Type I error of ``tests="auto"`` against always-Friedman on null tables.

Score tables of k estimators on N data sets under the null hypothesis (no
estimator better): ``score[i, j] = u_i + e_ij`` with data-set effects
``u_i ~ N(0, 2²)`` and errors ``e_ij`` normal, Student t with 3 degrees of
freedom (heavy tails) or lognormal (sigma 1, skewed), all estimators alike.
For each table the automatic path decides (Shapiro–Wilk at alpha/k,
Bartlett or Levene) and runs its test — the paired t or Wilcoxon (k = 2),
repeated-measures ANOVA or Friedman (k ≥ 3) — exactly the functions
``compare_scores(tests="auto")`` runs (``auto_path`` and the registered
tests; the effect sizes are left out, they do not decide). Beside it,
Friedman's test on every table. A rejection is the omnibus test (or the
k = 2 test) at alpha = 0.05.

The cost the literature warns of: choosing a test after testing its
assumptions conditions the second test on the first, so the automatic
path's level is not exactly alpha. The table shows how far off it is.

Run from the repository root (about 2 minutes with the defaults)::

    nice -n 10 python benchmarks/reproduce_auto.py --reps 4000 --seed 0
"""

import argparse
import time

import numpy as np

from sklearn_bcv.stats import (
    friedman,
    paired_t_datasets,
    rm_anova,
    wilcoxon,
)
from sklearn_bcv.stats._parametric_across import auto_path

ALPHA = 0.05
TESTS = {
    "paired_t": lambda t: paired_t_datasets(t[:, 0] - t[:, 1], alpha=ALPHA),
    "wilcoxon": lambda t: wilcoxon(t[:, 0] - t[:, 1], alpha=ALPHA),
    "rm_anova": lambda t: rm_anova(t, alpha=ALPHA),
    "friedman": lambda t: friedman(t, alpha=ALPHA),
}


def _errors(rng, kind, shape):
    if kind == "normal":
        return rng.normal(size=shape)
    if kind == "t3":
        return rng.standard_t(3, size=shape)
    return rng.lognormal(0.0, 1.0, size=shape)


def cell(rng, kind, n, k, reps):
    """``(auto rate, Friedman rate, share of parametric paths)``."""
    names = [f"e{j}" for j in range(k)]
    auto = fried = parametric = 0
    for _ in range(reps):
        table = 2.0 * rng.normal(size=(n, 1)) + _errors(rng, kind, (n, k))
        decision = auto_path(table, names, alpha=ALPHA)
        auto += bool(TESTS[decision["path"]](table).reject)
        fried += bool(friedman(table, alpha=ALPHA).reject)
        parametric += decision["path"] in ("paired_t", "rm_anova")
    return auto / reps, fried / reps, parametric / reps


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    se = np.sqrt(ALPHA * (1 - ALPHA) / args.reps)
    start = time.perf_counter()
    print(
        f"Type I error at alpha = {ALPHA}, {args.reps} null tables per cell "
        f"(Monte Carlo SE {se:.4f} at 0.05)"
    )
    print(
        f"{'errors':8s} {'k':>2s} {'N':>3s}  {'auto':>6s}  {'Friedman':>8s}  "
        f"{'parametric path':>15s}"
    )
    for kind in ("normal", "t3", "lognormal"):
        for k in (2, 3, 5):
            for n in (10, 30):
                a, f, p = cell(rng, kind, n, k, args.reps)
                print(f"{kind:8s} {k:2d} {n:3d}  {a:6.3f}  {f:8.3f}  {p:15.2f}")
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
