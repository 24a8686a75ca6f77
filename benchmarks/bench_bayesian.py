"""Cost and stability of the hierarchical test and of ASO.

(a) **Hierarchical test** (``bayesian_hierarchical``) on 50 data sets × 10
    splits (10-fold CV, rope 0.01) at the default sample size (4 chains,
    20,000 draws after 1,000 warm-up sweeps each): target < 5 s; and its
    posterior probabilities stable to ±0.01 between seeds (printed for
    ``--seeds`` seeds). With ``--baycomp`` (pystan and a C++ compiler
    needed), baycomp's ``HierarchicalTest`` on the same data, in a
    temporary directory (it writes ``./last-sample.pickle``): its first
    call compiles the Stan model.
(b) **ASO** at 10 against 10 scores with 1,000 bootstrap samples:
    ``almost_stochastic_order`` against deepsig's ``aso`` (optional,
    ``pip install sklearn_bcv[bench]``), best of ``--repeats`` runs,
    alternating: target ≥ 50× faster; and their ``eps_min`` over
    ``--seeds`` seeds (mean ± sd of the seeds: the bootstrap error).

Run from the repository root::

    python benchmarks/bench_bayesian.py
    python benchmarks/bench_bayesian.py --baycomp
"""

import argparse
import os
import tempfile
import time
import warnings

import numpy as np
from _timing import best_of

from sklearn_bcv.stats import almost_stochastic_order, bayesian_hierarchical


def hierarchical_data(seed=0, q=50, n_splits=10):
    rng = np.random.default_rng(seed)
    return (
        0.008
        + 0.01 * rng.standard_normal((q, 1))
        + 0.02 * rng.standard_normal((q, n_splits))
    )


def bench_hierarchical(seeds, with_baycomp):
    d = hierarchical_data()
    print("(a) bayesian_hierarchical, 50 data sets x 10 splits, rope 0.01")
    times, rows = [], []
    for seed in range(seeds):
        start = time.perf_counter()
        result = bayesian_hierarchical(d, 90, 10, rope=0.01, random_state=seed)
        times.append(time.perf_counter() - start)
        rows.append((result.p_a_better, result.p_rope, result.p_b_better))
        print(
            f"    seed {seed}: P(A better) {rows[-1][0]:.4f}  P(rope) "
            f"{rows[-1][1]:.4f}  P(B better) {rows[-1][2]:.4f}  R-hat "
            f"{result.rhat:.4f}  ESS {result.ess:.0f}  {times[-1]:.2f} s"
        )
    rows = np.array(rows)
    deviation = float(np.max(np.abs(rows - rows.mean(axis=0))))
    spread = float(np.max(rows.max(axis=0) - rows.min(axis=0)))
    print(
        f"    median time {np.median(times):.2f} s (target < 5 s); largest "
        f"deviation of a seed's probability from the seeds' mean {deviation:.4f} "
        f"(target <= 0.01; largest spread between two seeds {spread:.4f})"
    )
    if with_baycomp:
        import baycomp

        with tempfile.TemporaryDirectory() as tmp:
            cwd = os.getcwd()
            os.chdir(tmp)
            try:
                for label in ("first call (compiles)", "second call"):
                    start = time.perf_counter()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        probs = baycomp.HierarchicalTest.probs(
                            np.zeros_like(d), d, rope=0.01
                        )
                    elapsed = time.perf_counter() - start
                    print(
                        f"    baycomp {label}: P(A better) {probs[2]:.4f}  "
                        f"P(rope) {probs[1]:.4f}  P(B better) {probs[0]:.4f}  "
                        f"{elapsed:.1f} s ({elapsed / np.median(times):.0f}x ours)"
                    )
                    os.remove("last-sample.pickle")  # else the second is cached
            finally:
                os.chdir(cwd)


def bench_aso(seeds, repeats):
    rng = np.random.default_rng(0)
    a, b = rng.normal(0.3, 1.0, 10), rng.normal(0.0, 1.0, 10)
    print("\n(b) ASO, 10 vs 10 scores, 1,000 bootstrap samples")
    contenders = {
        "sklearn_bcv": lambda: almost_stochastic_order(a, b, random_state=0),
    }
    try:
        import deepsig
    except ImportError:
        deepsig = None
        print("    deepsig not installed: pip install sklearn_bcv[bench]")
    if deepsig is not None:

        def run_deepsig(seed=0):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return deepsig.aso(
                    a,
                    b,
                    num_bootstrap_iterations=1000,
                    seed=seed,
                    show_progress=False,
                    num_jobs=1,
                )

        contenders["deepsig"] = run_deepsig
    best = best_of(contenders, repeats)
    for name, seconds in best.items():
        print(f"    {name:12s} {seconds * 1e3:9.1f} ms")
    if deepsig is not None:
        print(f"    ratio {best['deepsig'] / best['sklearn_bcv']:.0f}x (target >= 50x)")
    ours = [almost_stochastic_order(a, b, random_state=s).eps_min for s in range(seeds)]
    print(
        f"    eps_min sklearn_bcv: {np.mean(ours):.4f} ± {np.std(ours, ddof=1):.4f}"
        f" over {seeds} seeds (violation ratio "
        f"{almost_stochastic_order(a, b).violation_ratio:.4f})"
    )
    if deepsig is not None:
        # deepsig seeds replicate b with seed + b: spaced seeds, or the
        # runs would share all but a few bootstrap samples.
        theirs = [run_deepsig(10_000 * s) for s in range(seeds)]
        print(
            f"    eps_min deepsig:     {np.mean(theirs):.4f} ± "
            f"{np.std(theirs, ddof=1):.4f} over {seeds} seeds"
        )
        se = np.sqrt(np.var(ours, ddof=1) / seeds + np.var(theirs, ddof=1) / seeds)
        print(
            f"    difference of the means {np.mean(ours) - np.mean(theirs):+.4f} "
            f"(standard error {se:.4f})"
        )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--baycomp", action="store_true")
    args = parser.parse_args()
    bench_hierarchical(args.seeds, args.baycomp)
    bench_aso(args.seeds, args.repeats)


if __name__ == "__main__":
    main()
