"""The everyday results table and the huge one, timed side by side in one run.

(a) **A 12 × 10 table of two-decimal accuracies** (many exact ties):
    ``compare_scores`` with every default statistic (Friedman, Nemenyi,
    Wilcoxon on all 45 pairs) and the default effect sizes (Cohen's d_z of
    every pair, 9999 BCa resamples each): target at most 0.2 s. Beside it,
    ``scipy.stats.wilcoxon`` on the same 45 pairs (it falls back to a
    permutation test whenever the differences tie).
(b) **k = 100 estimators on 30 data sets, Wilcoxon on all 4,950 pairs**
    (``compare_scores(tests=[], pairwise_tests=["wilcoxon"])``, effect
    sizes included): target at most 1 s; beside it, ``scipy.stats.wilcoxon``
    on the same pairs.
(c) **``compare_scores`` on 100,000 × 3** two-decimal scores with the
    defaults: target at most 10 s and 1 GiB peak memory (the peak of a
    fresh process that runs only this, from ``getrusage``).
(d) **One effect size on 20,000 pairs**, each kind (``effect_size``; above
    2,000 pairs the asymptotic interval): target at most 5 s each; beside
    it the bootstrap on 2,000 pairs, the largest it runs on.
(e) **Rerun of a stored study of 150 estimators on 4 data sets** (6,000
    fits of a 5×2 BCV, kept in a study store and built on the first run,
    a minute or so): ``benchmark(..., store=...)`` again with
    ``dataset_tests=[]`` (no pair tests on each data set): target at most
    5 s; beside it the rerun with the default tests on each data set.

Optionally, ``--before DIR`` runs (a) and (b) with the package found in
``DIR`` (e.g. an earlier commit unpacked with ``git archive``) in a
subprocess, for the times before this work.

Each contender runs ``--repeats`` times (default 3), alternating, and keeps
its best time, so background load affects them alike.

Run from the repository root::

    python benchmarks/bench_real_tables.py
    python benchmarks/bench_real_tables.py --parts ab --before /tmp/before
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np
from _timing import best_of
from scipy import stats

TARGETS = {"a": 0.2, "b": 1.0, "c": 10.0, "d": 5.0, "e": 5.0}


def two_decimals(shape, seed=0):
    rng = np.random.default_rng(seed)
    quality = rng.uniform(0.6, 0.9, size=shape[:-1] + (1,))
    spread = np.linspace(0.0, 0.05, shape[-1])
    return np.clip(np.round(quality + spread + rng.normal(0, 0.02, shape), 2), 0, 1)


def scipy_pairs(table):
    """``scipy.stats.wilcoxon`` on every pair of columns."""
    k = table.shape[1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(k):
            for j in range(i + 1, k):
                stats.wilcoxon(table[:, i], table[:, j])


def part_a(repeats):
    from sklearn_bcv import compare_scores

    table = two_decimals((12, 10))
    best = best_of(
        {
            "compare_scores": lambda: compare_scores(table, random_state=0),
            "scipy wilcoxon, 45 pairs": lambda: scipy_pairs(table),
        },
        repeats,
    )
    report("a", "12 x 10 two-decimal table, defaults", best, "compare_scores")


def part_b(repeats):
    from sklearn_bcv import compare_scores

    rng = np.random.default_rng(0)
    table = rng.uniform(size=(30, 100)) + np.linspace(0, 0.3, 100)

    def ours():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # 4,950 pairs
            compare_scores(table, tests=[], pairwise_tests=["wilcoxon"], random_state=0)

    best = best_of(
        {
            "compare_scores": ours,
            "scipy wilcoxon, 4950 pairs": lambda: scipy_pairs(table),
        },
        max(1, repeats - 1),
    )
    report(
        "b", "k = 100 on 30 data sets, all pairwise Wilcoxon", best, "compare_scores"
    )


def part_c(repeats):
    # In a fresh process: its peak memory is that of the comparison alone.
    code = (
        "import resource, time, numpy as np\n"
        "from sklearn_bcv import compare_scores\n"
        "rng = np.random.default_rng(0)\n"
        "table = np.round(rng.uniform(0.6, 0.95, size=(100_000, 3)), 2)\n"
        "start = time.perf_counter()\n"
        "result = compare_scores(table, random_state=0)\n"
        "seconds = time.perf_counter() - start\n"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024\n"
        "print(seconds, peak, result.effect_sizes[0].note)\n"
    )
    best = float("inf")
    for _ in range(repeats):
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.split(maxsplit=2)
        best = min(best, float(out[0]))
        peak = float(out[1])
    print(
        f"(c) compare_scores on 100,000 x 3, defaults: {best:.2f} s (target <= "
        f"{TARGETS['c']:g} s), peak {peak:.0f} MiB (target <= 1024 MiB); "
        f"interval: {out[2].strip()}"
    )


def part_d(repeats):
    from sklearn_bcv.stats import effect_size
    from sklearn_bcv.stats._effect import BOOTSTRAP_MAX_N

    table = two_decimals((20_000, 2), seed=1)
    a, b = table[:, 1], table[:, 0]
    head = slice(0, BOOTSTRAP_MAX_N)
    for kind in ("cohen_dz", "cohen_d", "cliff_delta", "akinshin_gamma"):
        best = best_of(
            {
                "20000 pairs": lambda kind=kind: effect_size(
                    a, b, kind=kind, random_state=0
                ),
                f"bootstrap, {BOOTSTRAP_MAX_N} pairs": lambda kind=kind: effect_size(
                    a[head], b[head], kind=kind, random_state=0
                ),
            },
            repeats,
        )
        report("d", f"effect size {kind}", best, "20000 pairs")


def study150():
    from sklearn.datasets import make_classification
    from sklearn.tree import DecisionTreeClassifier

    estimators = {
        f"tree{i}": DecisionTreeClassifier(
            max_depth=1 + i % 6, min_samples_leaf=1 + i // 6, random_state=i
        )
        for i in range(150)
    }
    datasets = {
        f"data{n}": make_classification(
            n_samples=200, n_features=10, n_informative=4, random_state=n
        )
        for n in range(4)
    }
    return estimators, datasets


def part_e(repeats, folder):
    from sklearn_bcv import benchmark

    estimators, datasets = study150()
    path = os.path.join(folder, "study150.db")

    def rerun(**kwargs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # 11,175 pairs
            return benchmark(
                estimators, datasets, random_state=0, n_jobs=1, store=path, **kwargs
            )

    start = time.perf_counter()
    rerun(dataset_tests=[])  # fits the 6,000 fits once, into the store
    built = time.perf_counter() - start
    print(f"(e) building the stored study (6,000 fits): {built:.1f} s")
    best = best_of(
        {
            "rerun, dataset_tests=[]": lambda: rerun(dataset_tests=[]),
            "rerun, default dataset tests": lambda: rerun(),
        },
        max(1, repeats - 1),
    )
    report(
        "e", "rerun of a stored 150-estimator study", best, "rerun, dataset_tests=[]"
    )


def before(parts, folder, repeats):
    """Parts (a) and (b) with the package of ``folder``, in a subprocess."""
    env = {**os.environ, "PYTHONPATH": folder}
    script = os.path.abspath(__file__)
    for part in parts:
        if part in "ab":
            out = subprocess.run(
                [sys.executable, script, "--parts", part, "--repeats", str(repeats)],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            for line in out.splitlines():
                print(f"    before: {line}")


def report(part, label, best, ours):
    others = ", ".join(
        f"{name} {seconds:.3f} s" for name, seconds in best.items() if name != ours
    )
    print(
        f"({part}) {label}: {ours} {best[ours]:.3f} s (target <= {TARGETS[part]:g} s)"
        + (f"; {others}" if others else "")
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="abcde")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--before", metavar="DIR", default=None)
    args = parser.parse_args()
    import sklearn_bcv

    print(f"sklearn_bcv from {os.path.dirname(sklearn_bcv.__file__)}")
    with tempfile.TemporaryDirectory() as folder:
        for part in args.parts:
            if part == "e":
                part_e(args.repeats, folder)
            else:
                globals()[f"part_{part}"](args.repeats)
    if args.before:
        before(args.parts, args.before, args.repeats)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory of this process: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
