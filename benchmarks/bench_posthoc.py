"""Cost of the post hoc family across data sets, measured side by side.

(a) **Bergmann–Hommel for k = 9**: the adjusted p-values of the 36 pairs
    of 9 estimators, which take the 21,146 exhaustive sets of the Bell(9)
    partitions. Cold (the partitions enumerated, as on the first call of a
    session) and warm (cached), against a direct loop over the partitions
    in Python (the definition, as a reference implementation would write
    it): target cold under 0.5 s.
(b) **The whole family on a 50 × 10 table** (50 data sets, 10 estimators,
    45 pairs): the three omnibus tests (Friedman, aligned ranks, Quade),
    Nemenyi, and the three post hoc families (Friedman, aligned ranks,
    Quade) with each of the ten corrections that apply to k = 10
    (Bergmann–Hommel stops at k = 9), 34 results in all: target under
    100 ms. Beside it, for scale, scikit-posthocs' nearest equivalents when
    it is installed (Nemenyi, Siegel–Friedman and Quade's t with the
    statsmodels corrections it takes: bonferroni, holm, simes-hochberg,
    hommel, fdr_bh).

Each contender runs ``--repeats`` times (default 5), alternating, and keeps
its best time.

Run from the repository root::

    python benchmarks/bench_posthoc.py
"""

import argparse
import time
from itertools import combinations

import numpy as np
from _timing import best_of

from sklearn_bcv.stats import (
    _corrections,
    adjust_pvalues,
    aligned_posthoc,
    friedman,
    friedman_aligned,
    friedman_posthoc,
    nemenyi,
    quade,
    quade_posthoc,
)

#: Bergmann–Hommel stops at k = 9: every other correction at k = 10.
CORRECTIONS_K10 = tuple(c for c in _corrections.CORRECTIONS if c != "bergmann")


def _partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def bergmann_by_loop(p, k):
    """The definition, one partition at a time."""
    index = {pair: i for i, pair in enumerate(combinations(range(k), 2))}
    adjusted = np.zeros(len(index))
    for partition in _partitions(list(range(k))):
        members = [
            index[pair] for block in partition for pair in combinations(block, 2)
        ]
        if members:
            value = len(members) * min(p[i] for i in members)
            for i in members:
                adjusted[i] = max(adjusted[i], value)
    return np.minimum(adjusted, 1.0)


def part_a(repeats):
    rng = np.random.default_rng(0)
    p = rng.uniform(size=36) ** 3

    def cold():
        _corrections.exhaustive_sets.cache_clear()
        return adjust_pvalues(p, "bergmann")

    def warm():
        return adjust_pvalues(p, "bergmann")

    assert np.allclose(cold(), bergmann_by_loop(p, 9))
    times = best_of(
        {"cold": cold, "warm": warm, "loop": lambda: bergmann_by_loop(p, 9)}, repeats
    )
    print("(a) Bergmann–Hommel, k = 9 (21,146 exhaustive sets)")
    print(f"    ours, cold (partitions enumerated): {1e3 * times['cold']:8.1f} ms")
    print(f"    ours, warm (cached):                {1e3 * times['warm']:8.1f} ms")
    print(f"    loop over the partitions:           {1e3 * times['loop']:8.1f} ms")
    print(
        f"    loop / cold = {times['loop'] / times['cold']:.1f}x; target cold < 500 "
        f"ms: {'met' if times['cold'] < 0.5 else 'NOT met'}"
    )


def whole_family(scores):
    out = [friedman(scores), friedman_aligned(scores), quade(scores), nemenyi(scores)]
    for family in (friedman_posthoc, aligned_posthoc, quade_posthoc):
        out += [family(scores, correction=c) for c in CORRECTIONS_K10]
    return out


def part_b(repeats):
    rng = np.random.default_rng(1)
    scores = rng.normal(size=(50, 1)) + rng.normal(scale=0.1, size=(50, 10))
    contenders = {"ours": lambda: whole_family(scores)}
    try:
        import scikit_posthocs as sp

        def theirs():
            out = [sp.posthoc_nemenyi_friedman(scores)]
            for method in ("bonferroni", "holm", "simes-hochberg", "hommel", "fdr_bh"):
                out.append(sp.posthoc_siegel_friedman(scores, p_adjust=method))
                out.append(sp.posthoc_quade(scores, dist="t", p_adjust=method))
            return out

        contenders["scikit-posthocs"] = theirs
    except ImportError:
        pass
    n_results = len(whole_family(scores))
    times = best_of(contenders, repeats)
    print(f"(b) The whole family on a 50 x 10 table ({n_results} results)")
    print(f"    ours:                              {1e3 * times['ours']:8.1f} ms")
    if "scikit-posthocs" in times:
        print(
            "    scikit-posthocs, 11 results:       "
            f"{1e3 * times['scikit-posthocs']:8.1f} ms"
        )
    print(
        f"    target < 100 ms: {'met' if times['ours'] < 0.1 else 'NOT met'}"
        f" ({1e3 * times['ours'] / n_results:.2f} ms per result)"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--parts", default="ab")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if "a" in args.parts:
        part_a(args.repeats)
    if "b" in args.parts:
        part_b(args.repeats)
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
