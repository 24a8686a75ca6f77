"""Family-wise error and power of the post hoc family across data sets.

**Null tables** (every estimator the same on every data set): N data sets
with expected scores uniform over (0.6, 0.95) and noise standard
deviations uniform over (0.01, 0.05) (data sets differ in difficulty and
in spread), k estimators with normal noise. For each cell (k, N) the
script draws ``--tables`` tables and counts

* the omnibus rejections: Friedman's chi-squared, Iman–Davenport's F,
  Friedman aligned ranks, Quade;
* Nemenyi's family-wise error (some pair rejected; its critical difference
  with the continuity correction, the rule :func:`sklearn_bcv.stats.nemenyi`
  applies);
* the family-wise error of each post hoc family (Friedman ranks, aligned
  ranks, Quade's t; all pairs) with each correction: bonferroni, holm,
  hochberg, hommel, finner, li, holland, rom, fdr_bh, shaffer, bergmann
  (k <= 9); and the aligned-ranks family with scmamp's published standard
  error ``sqrt(k(Nk + 1)/6)`` (``aligned_published``) beside the
  permutation one the package uses.

Each table goes through the registered tests themselves (the families are
run with ``correction=None`` to read their raw p-values, which are then
adjusted family by family with :func:`sklearn_bcv.stats.adjust_pvalues`,
all the tables of a cell at once).

**Power**: tables with a known set of differences, the expected score of
estimator j shifted by ``delta_j`` data-set noise standard deviations: the
share of the true differences found (pairs with different shifts)
averaged over the tables, and the family-wise error on the pairs with
equal shifts. García and Herrera (2008) ranked the procedures
Bergmann–Hommel >= Shaffer >= Holm >= Nemenyi; do we reproduce it?

Usage::

    python benchmarks/reproduce_posthoc.py                  # 2,000 tables
    python benchmarks/reproduce_posthoc.py --tables 10000 --n-jobs 2 --ks 3,4,5,6
    python benchmarks/reproduce_posthoc.py --tables 10000 --n-jobs 2 --ks 7,8,9,10 \
        --no-power
    python benchmarks/reproduce_posthoc.py --tables 10000 --quade-normal

Runtime: about 1.1 ms of one core per table (the six registered tests),
plus Bergmann–Hommel's loop over the families (2 ms a family at k = 9).
"""

import argparse
import time

import numpy as np
from joblib import Parallel, delayed

from sklearn_bcv.stats import (
    adjust_pvalues,
    aligned_posthoc,
    friedman,
    friedman_aligned,
    friedman_posthoc,
    quade,
    quade_posthoc,
)
from sklearn_bcv.stats._ranks import critical_difference

ALPHA = 0.05
KS = (3, 4, 5, 6, 7, 8, 9, 10)
NS = (10, 20, 30, 50)
FAMILIES = {
    "friedman": friedman_posthoc,
    "aligned": aligned_posthoc,
    "quade": quade_posthoc,
}
#: The aligned-ranks family with scmamp's standard error, on null tables.
PUBLISHED = "aligned_published"
CORRECTIONS = (
    "bonferroni",
    "holm",
    "hochberg",
    "hommel",
    "finner",
    "li",
    "holland",
    "rom",
    "fdr_bh",
    "shaffer",
    "bergmann",
)
OMNIBUS = ("friedman", "iman_davenport", "friedman_aligned", "quade")
#: Power configurations: label -> shifts (in noise standard deviations).
POWER = {
    "k=6, two groups (0.5 sd)": (0.5, 0.5, 0.5, 0, 0, 0),
    "k=5, staircase (0.2 sd)": (0.8, 0.6, 0.4, 0.2, 0.0),
    "k=8, one better (0.6 sd)": (0.6, 0, 0, 0, 0, 0, 0, 0),
}


def draw_tables(rng, n_tables, n_datasets, shifts):
    k = len(shifts)
    mean = rng.uniform(0.6, 0.95, size=(n_tables, n_datasets, 1))
    sd = rng.uniform(0.01, 0.05, size=(n_tables, n_datasets, 1))
    noise = rng.normal(size=(n_tables, n_datasets, k))
    return mean + sd * (noise + np.asarray(shifts, dtype=float))


def _published(scores, correction=None):
    return aligned_posthoc(scores, correction=correction, standard_error="published")


def run_tables(tables, published=False):
    """Raw pair p-values of each family, (n_tables, M), the omnibus
    rejections and Friedman's mean ranks, through the registered tests."""
    n_tables, n_datasets, k = tables.shape
    pairs = np.triu_indices(k, 1)
    families = {**FAMILIES, **({PUBLISHED: _published} if published else {})}
    raw = {name: np.empty((n_tables, len(pairs[0]))) for name in families}
    omnibus = {name: np.empty(n_tables, dtype=bool) for name in OMNIBUS}
    mean_ranks = np.empty((n_tables, k))
    for t, scores in enumerate(tables):
        result = friedman(scores, alpha=ALPHA, method="chi2")
        omnibus["friedman"][t] = result.reject
        omnibus["iman_davenport"][t] = result.iman_davenport.reject
        mean_ranks[t] = result.mean_ranks
        omnibus["friedman_aligned"][t] = friedman_aligned(scores, alpha=ALPHA).reject
        omnibus["quade"][t] = quade(scores, alpha=ALPHA).reject
        for name, family in families.items():
            raw[name][t] = family(scores, correction=None).pvalue[pairs]
    return raw, omnibus, mean_ranks


def decisions(raw, mean_ranks, k, n_datasets):
    """``{procedure: reject (n_tables, M)}`` for every procedure."""
    out = {}
    pairs = np.triu_indices(k, 1)
    cd = critical_difference(k, n_datasets, ALPHA, "nemenyi")
    gaps = np.abs(mean_ranks[:, pairs[0]] - mean_ranks[:, pairs[1]])
    out["nemenyi"] = gaps > cd
    for name, p in raw.items():
        for correction in CORRECTIONS:
            if correction == "bergmann" and k > 9:
                continue
            adjusted = adjust_pvalues(p, correction, alpha=ALPHA)
            out[f"{name}+{correction}"] = adjusted < ALPHA
    return out


def null_cell(k, n_datasets, n_tables, seed):
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    tables = draw_tables(rng, n_tables, n_datasets, np.zeros(k))
    raw, omnibus, mean_ranks = run_tables(tables, published=True)
    rates = {name: float(r.mean()) for name, r in omnibus.items()}
    for name, reject in decisions(raw, mean_ranks, k, n_datasets).items():
        rates[name] = float(reject.any(axis=1).mean())
    return (k, n_datasets), rates, time.perf_counter() - start


def power_cell(label, shifts, n_datasets, n_tables, seed):
    rng = np.random.default_rng(seed)
    k = len(shifts)
    tables = draw_tables(rng, n_tables, n_datasets, shifts)
    raw, omnibus, mean_ranks = run_tables(tables)
    shifts = np.asarray(shifts)
    pairs = np.triu_indices(k, 1)
    true = shifts[pairs[0]] != shifts[pairs[1]]
    out = {}
    for name, reject in decisions(raw, mean_ranks, k, n_datasets).items():
        found = reject[:, true].mean()
        fwer = reject[:, ~true].any(axis=1).mean() if (~true).any() else np.nan
        out[name] = (float(found), float(fwer))
    return (label, n_datasets), out


def _quade_normal_z(tables, n_scale):
    """The published normal approximation of Quade's post hoc (scmamp's
    ``quadePost``: ``n_scale`` = N; scikit-posthocs'
    ``posthoc_quade(dist="normal")``: ``n_scale`` = N·k), pair (0, 1)."""
    from scipy.stats import rankdata

    n_tables, n, k = tables.shape
    weights = rankdata(np.ptp(tables, axis=2), axis=1)
    within = rankdata(tables, axis=2)
    w = np.sum(weights[:, :, None] * within, axis=1) / (n * (n + 1) / 2)
    m = n_scale(n, k)
    se = np.sqrt(k * (k + 1) * (2 * m + 1) * (k - 1) / (18 * m * (m + 1)))
    return (w[:, 0] - w[:, 1]) / se


def quade_normal_cell(k, n_datasets, n_tables, seed):
    """Per-comparison type I error of pair (0, 1): Conover's t against the
    two published normal approximations."""
    from scipy.special import ndtr

    rng = np.random.default_rng(seed)
    tables = draw_tables(rng, n_tables, n_datasets, np.zeros(k))
    conover = np.array([quade_posthoc(t, correction=None).pvalue[0, 1] for t in tables])
    out = {"conover_t": float(np.mean(conover < ALPHA))}
    for label, scale in (
        ("normal_N", lambda n, k: n),
        ("normal_Nk", lambda n, k: n * k),
    ):
        z = _quade_normal_z(tables, scale)
        out[label] = float(np.mean(2 * ndtr(-np.abs(z)) < ALPHA))
    return (k, n_datasets), out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--power-tables", type=int, default=None)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--ks", default=",".join(map(str, KS)), help="comma-separated k of the null"
    )
    parser.add_argument("--no-power", action="store_true")
    parser.add_argument(
        "--quade-normal",
        action="store_true",
        help="only the per-comparison error of Quade's post hoc statistics",
    )
    args = parser.parse_args(argv)
    ks = tuple(int(k) for k in args.ks.split(","))
    power_tables = args.power_tables or max(args.tables // 5, 500)
    seeds = np.random.SeedSequence(args.seed).generate_state(100)
    start = time.perf_counter()
    if args.quade_normal:
        jobs = [(k, n) for k in (3, 5, 10) for n in (10, 30, 50)]
        rates = Parallel(n_jobs=args.n_jobs)(
            delayed(quade_normal_cell)(k, n, args.tables, int(seeds[80 + i]))
            for i, (k, n) in enumerate(jobs)
        )
        print(f"Quade's post hoc, pair (0, 1), {args.tables} null tables per cell:")
        print(
            f"{'(k, N)':>9s} {'Conover t':>10s} {'normal, N':>10s} {'normal, Nk':>11s}"
        )
        for cell, out in rates:
            print(
                f"{str(cell):>9s} {out['conover_t']:10.4f} {out['normal_N']:10.4f} "
                f"{out['normal_Nk']:11.4f}"
            )
        print(f"({time.perf_counter() - start:.0f} s)")
        return
    cells = [(k, n) for k in ks for n in NS]
    # Each cell has its own seed, whichever cells a run computes.
    results = Parallel(n_jobs=args.n_jobs)(
        delayed(null_cell)(k, n, args.tables, int(seeds[KS.index(k) * len(NS) + j]))
        for k, n in cells
        for j in [NS.index(n)]
    )
    null_time = time.perf_counter() - start
    se = np.sqrt(ALPHA * (1 - ALPHA) / args.tables)
    print(f"Null tables: {args.tables} per cell, alpha = {ALPHA}, Monte Carlo SE at")
    print(f"alpha {se:.4f}; '*' marks a rate above alpha + 3 SE = {ALPHA + 3 * se:.4f}")
    procedures = list(results[0][1])
    by_cell = {cell: rates for cell, rates, _ in results}
    print(f"\n{'procedure':24s} {'max':>7s} {'(k, N)':>9s} {'mean':>7s} {'min':>7s}")
    for name in procedures:
        values = [
            (rates[name], cell) for cell, rates in by_cell.items() if name in rates
        ]
        top, where = max(values)
        mean = np.mean([v for v, _ in values])
        low = min(v for v, _ in values)
        flag = "*" if top > ALPHA + 3 * se else " "
        print(f"{name:24s} {top:7.4f}{flag} {str(where):>9s} {mean:7.4f} {low:7.4f}")
    print("\nFamily-wise error by k (max over N), all pairs:")
    header = "procedure".ljust(24) + "".join(f"k={k:<6d}" for k in ks)
    print(header)
    for name in procedures:
        row = name.ljust(24)
        for k in ks:
            values = [by_cell[(k, n)].get(name) for n in NS]
            values = [v for v in values if v is not None]
            row += f"{max(values):<8.4f}" if values else "-".ljust(8)
        print(row)
    print(f"\n(null: {null_time:.0f} s)")
    if args.no_power:
        return

    start = time.perf_counter()
    jobs = [(label, shifts, n) for label, shifts in POWER.items() for n in (10, 30)]
    power = Parallel(n_jobs=args.n_jobs)(
        delayed(power_cell)(label, shifts, n, power_tables, int(seeds[50 + i]))
        for i, (label, shifts, n) in enumerate(jobs)
    )
    print(f"\nPower: {power_tables} tables per configuration; share of the true")
    print("differences found (family-wise error on the equal pairs)")
    for (label, n), out in power:
        print(f"\n{label}, N = {n}")
        ranked = sorted(out.items(), key=lambda item: -item[1][0])
        for name, (found, fwer) in ranked:
            fwer_text = "" if np.isnan(fwer) else f"  ({fwer:.3f})"
            print(f"  {name:24s} {found:.3f}{fwer_text}")
    print(f"\n(power: {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
