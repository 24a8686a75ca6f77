"""Type I error and power of the rank tests on small tables, exact and not.

The cells of a paper's size: N in {5, 8, 10, 15, 30} data sets, k in
{2, 3, 5, 8} estimators, scores without ties and rounded to two decimals
(accuracies as papers print them: many ties). Per cell, each procedure's
rate at alpha = 0.05:

* ``chi2``, ``iman_dav``: Friedman's chi-squared approximation and Iman and
  Davenport's F;
* ``exact``: the default p-value of :func:`sklearn_bcv.stats.friedman`,
  the permutation law given the ties (exact where its dynamic programme is
  small, else Monte Carlo; the simulation draws ``--resamples`` resamples,
  999 by default: ``(1 + #) / (1 + B)`` is a valid p-value at any B, so
  the level holds whatever B, and B only changes the power a little);
* ``nemenyi``: Nemenyi's test of all pairs (the package's default, with the
  continuity correction); ``bonf_dunn``: Bonferroni–Dunn against the first
  estimator (the default with a control);
* ``exact_ph``: the exact rank-sum post hoc test of all pairs
  (:func:`sklearn_bcv.stats.exact_posthoc`, Holm; the default of all pairs
  is Nemenyi's); ``exact_ctl``: the same against the first estimator (the
  default with a control);
* ``wilcoxon``, ``sign``: the pairwise tests of all pairs, Holm-adjusted
  (the default pairwise test and correction; with k = 2 one pair).

A rate of a post hoc or pairwise procedure is its family-wise error (null
tables: any pair declared different). **Null tables**: data set i has
level ``a_i ~ U(0.6, 0.95)`` and noise sd ``s_i ~ U(0.01, 0.05)``, score
``a_i + s_i·z_ij``. **Power**: the same with estimator j shifted by
``j/(k - 1)`` noise sds (a staircase from 0 to 1 sd): the Friedman rows
give the rejection rate, the others the share of the k(k - 1)/2 true
differences found.

The chi-squared, Iman–Davenport, Nemenyi and Bonferroni–Dunn decisions are
computed for all ``--tables`` tables of a cell at once from the ranks, and
checked equal to the registered tests on the first 50 tables of every
cell; the exact tests (Friedman, the exact post hoc) run through the
registered functions on the first ``--exact-tables`` tables; Wilcoxon runs
batched through the registered test, the sign test's exact binomial
p-values vectorised (checked against the registered test likewise).

Usage::

    python benchmarks/reproduce_exact_small.py                  # 20,000 / 2,000 tables
    python benchmarks/reproduce_exact_small.py --n-jobs 2
    python benchmarks/reproduce_exact_small.py --tables 2000 --exact-tables 400 --ks 2,3

Runtime: about 10 minutes of one core with the defaults (the exact tests
dominate: 1 to 5 ms a table).
"""

import argparse
import time

import numpy as np
from joblib import Parallel, delayed
from scipy import stats
from scipy.special import ndtr

from sklearn_bcv.stats import (
    adjust_pvalues,
    bonferroni_dunn,
    exact_posthoc,
    friedman,
    nemenyi,
    sign,
    wilcoxon,
)
from sklearn_bcv.stats._ranks import critical_difference

ALPHA = 0.05
KS = (2, 3, 5, 8)
NS = (5, 8, 10, 15, 30)
TIES = ("none", "2 decimals")
COLUMNS = (
    "chi2",
    "iman_dav",
    "exact",
    "nemenyi",
    "bonf_dunn",
    "exact_ph",
    "exact_ctl",
    "wilcoxon",
    "sign",
)


def draw_tables(rng, n_tables, n_datasets, k, ties, shift):
    """``(n_tables, n_datasets, k)`` scores; two decimals as whole cents
    (the ranks and differences of the package do not depend on the units,
    and whole numbers keep every tie exact here too)."""
    level = rng.uniform(0.6, 0.95, size=(n_tables, n_datasets, 1))
    sd = rng.uniform(0.01, 0.05, size=(n_tables, n_datasets, 1))
    steps = shift * np.arange(k) / max(k - 1, 1)
    scores = level + sd * (rng.normal(size=(n_tables, n_datasets, k)) + steps)
    return np.rint(100 * scores) if ties != "none" else scores


def ranks_of(tables):
    """Midranks within each data set, 1 = best."""
    return stats.rankdata(-tables, axis=-1)


def approximate_decisions(tables, alpha=ALPHA):
    """``{column: (n_tables, M) reject}`` of chi2, Iman–Davenport, Nemenyi
    and Bonferroni–Dunn, vectorised over the tables (M = 1 for the omnibus
    tests; the pairs, or the k - 1 pairs with the first estimator)."""
    n_tables, n, k = tables.shape
    ranks = ranks_of(tables)
    doubled = np.rint(2 * ranks.sum(axis=1)).astype(np.int64)
    spread = k * np.sum(doubled**2, axis=1) - np.sum(doubled, axis=1) ** 2
    ties = np.zeros(n_tables)
    for value in np.unique(ranks):
        t = np.sum(ranks == value, axis=2).astype(float)
        ties += np.sum(t**3 - t, axis=1)
    denominator = n * (k**3 - k) - ties
    with np.errstate(divide="ignore", invalid="ignore"):
        chi2 = np.where(spread == 0, 0.0, 3.0 * (k - 1) * spread / (k * denominator))
        id_den = n * k * denominator - 3 * spread
        f = 3.0 * (n - 1) * spread / id_den
    p_chi2 = np.where(spread == 0, 1.0, stats.chi2.sf(chi2, k - 1))
    p_id = np.where(
        spread == 0,
        1.0,
        stats.f.sf(np.where(id_den > 0, f, 0.0), k - 1, (k - 1) * (n - 1)),
    )
    concordant = (spread > 0) & (id_den == 0)
    for t in np.flatnonzero(concordant):  # the degenerate rule, by the test
        p_id[t] = friedman(tables[t], method="iman_davenport").pvalue
    mean = ranks.mean(axis=1)
    pairs = np.triu_indices(k, 1)
    gaps = np.abs(mean[:, pairs[0]] - mean[:, pairs[1]])
    cd = critical_difference(k, n, alpha, "nemenyi")
    se = np.sqrt(k * (k + 1) / (6.0 * n))
    z = np.abs(mean[:, 1:] - mean[:, :1]) / se
    return {
        "chi2": (p_chi2 < alpha)[:, None],
        "iman_dav": (p_id < alpha)[:, None],
        "nemenyi": gaps > cd,
        "bonf_dunn": (k - 1) * 2.0 * ndtr(-z) < alpha,
    }


def _check_approximations(tables, decided, alpha=ALPHA):
    """The vectorised decisions are the registered tests' on these tables."""
    k = tables.shape[2]
    pairs = np.triu_indices(k, 1)
    for t, scores in enumerate(tables):
        result = friedman(scores, alpha=alpha, method="chi2")
        assert result.reject == decided["chi2"][t, 0], t
        assert result.iman_davenport.reject == decided["iman_dav"][t, 0], t
        assert np.array_equal(
            nemenyi(scores, alpha=alpha).reject[pairs], decided["nemenyi"][t]
        ), t
        assert np.array_equal(
            bonferroni_dunn(scores, alpha=alpha, control=0).reject[1:, 0],
            decided["bonf_dunn"][t],
        ), t


def pairwise_decisions(tables, alpha=ALPHA):
    """``{"wilcoxon", "sign"}: (n_tables, M)`` Holm-adjusted decisions of
    every pair: Wilcoxon through the registered test (batched), the sign
    test by its exact binomial p-value (ties split, an odd one dropped)."""
    n_tables, n, k = tables.shape
    a, b = np.triu_indices(k, 1)
    d = tables[:, :, a] - tables[:, :, b]  # (tables, N, M)
    flat = np.moveaxis(d, 1, 2).reshape(-1, n)
    p_w = np.empty(flat.shape[0])
    step = 20_000
    for start in range(0, flat.shape[0], step):
        p_w[start : start + step] = wilcoxon(flat[start : start + step]).pvalue
    wins = np.sum(d > 0, axis=1)
    losses = np.sum(d < 0, axis=1)
    ties = n - wins - losses
    count = wins + ties // 2
    trials = wins + losses + 2 * (ties // 2)
    high = np.maximum(count, trials - count)
    p_s = np.where(
        trials > 0, np.minimum(1.0, 2 * stats.binom.sf(high - 1, trials, 0.5)), 1.0
    )
    p_w = p_w.reshape(n_tables, -1)
    out = {
        "wilcoxon": adjust_pvalues(p_w, "holm") < alpha,
        "sign": adjust_pvalues(p_s, "holm") < alpha,
    }
    for t in range(min(50, n_tables)):
        for m in range(len(a)):
            assert sign(d[t, :, m]).pvalue == float(p_s[t, m]) or np.isclose(
                sign(d[t, :, m]).pvalue, p_s[t, m], rtol=1e-12
            )
    return out


def exact_decisions(tables, resamples, seed, alpha=ALPHA):
    """``{"exact", "exact_ph", "exact_ctl"}``: Friedman's default p-value
    and the exact post hoc family (Holm) of all pairs and against the first
    estimator, through the registered tests; and how many Friedman p-values
    were exact (rather than Monte Carlo)."""
    n_tables, n, k = tables.shape
    pairs = np.triu_indices(k, 1)
    omnibus = np.empty((n_tables, 1), dtype=bool)
    posthoc = np.empty((n_tables, len(pairs[0])), dtype=bool)
    control = np.empty((n_tables, k - 1), dtype=bool)
    n_exact = 0
    for t, scores in enumerate(tables):
        result = friedman(
            scores, alpha=alpha, n_resamples=resamples, random_state=seed + t
        )
        omnibus[t, 0] = result.reject
        n_exact += result.method == "exact"
        posthoc[t] = exact_posthoc(scores, alpha=alpha).reject[pairs]
        control[t] = exact_posthoc(scores, alpha=alpha, control=0).reject[1:, 0]
    return {"exact": omnibus, "exact_ph": posthoc, "exact_ctl": control}, n_exact


def run_cell(k, n, ties, shift, n_tables, n_exact_tables, resamples, seed):
    start = time.perf_counter()
    rng = np.random.default_rng(seed)
    tables = draw_tables(rng, n_tables, n, k, ties, shift)
    decided = approximate_decisions(tables)
    _check_approximations(tables[:50], {key: v[:50] for key, v in decided.items()})
    decided.update(pairwise_decisions(tables))
    few = tables[:n_exact_tables]
    exact, n_exact = exact_decisions(few, resamples, seed)
    decided.update(exact)
    rates = {}
    for column in COLUMNS:
        reject = decided[column]
        if shift == 0:
            rates[column] = (float(reject.any(axis=1).mean()), reject.shape[0])
        else:  # every pair differs: the share found
            rates[column] = (float(reject.mean()), reject.shape[0])
    return (k, n, ties), rates, n_exact / len(few), time.perf_counter() - start


def _table(results, title, n_tables, n_exact_tables):
    se_big = np.sqrt(ALPHA * (1 - ALPHA) / n_tables)
    se_small = np.sqrt(ALPHA * (1 - ALPHA) / n_exact_tables)
    print(
        f"\n{title} (alpha = {ALPHA}; Monte Carlo standard error at 0.05: "
        f"{se_big:.4f} over {n_tables} tables, {se_small:.4f} over "
        f"{n_exact_tables} for exact, exact_ph and exact_ctl)"
    )
    header = ["ties", "k", "N", *COLUMNS, "exact share"]
    widths = [10, 2, 3, *[9] * len(COLUMNS), 11]
    print("  ".join(h.rjust(w) for h, w in zip(header, widths)))
    for (k, n, ties), (rates, share, _) in sorted(
        results.items(), key=lambda item: (item[0][2], item[0][0], item[0][1])
    ):
        row = [ties, str(k), str(n)] + [f"{rates[c][0]:.4f}" for c in COLUMNS]
        row.append(f"{share:.2f}")
        print("  ".join(c.rjust(w) for c, w in zip(row, widths)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20_000)
    parser.add_argument("--exact-tables", type=int, default=2_000)
    parser.add_argument("--resamples", type=int, default=999)
    parser.add_argument("--ks", default=",".join(map(str, KS)))
    parser.add_argument("--ns", default=",".join(map(str, NS)))
    parser.add_argument("--shift", type=float, default=1.0)
    parser.add_argument("--no-power", action="store_true")
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    ks = [int(v) for v in args.ks.split(",")]
    ns = [int(v) for v in args.ns.split(",")]
    start = time.perf_counter()
    shifts = [0.0] + ([] if args.no_power else [args.shift])
    cells = [
        (k, n, ties, shift) for shift in shifts for ties in TIES for k in ks for n in ns
    ]
    seeds = np.random.SeedSequence(args.seed).generate_state(len(cells))
    out = Parallel(n_jobs=args.n_jobs)(
        delayed(run_cell)(
            k, n, ties, shift, args.tables, args.exact_tables, args.resamples, int(seed)
        )
        for (k, n, ties, shift), seed in zip(cells, seeds)
    )
    by_shift = {shift: {} for shift in shifts}
    for (*_, shift), (key, rates, share, _) in zip(cells, out):
        by_shift[shift][key] = (rates, share, None)
    _table(
        by_shift[0.0],
        "Type I error (family-wise for the pairs)",
        args.tables,
        args.exact_tables,
    )
    if not args.no_power:
        _table(
            by_shift[args.shift],
            f"Power: staircase of {args.shift:g} sd (Friedman: rejections; pairs: "
            "share of the true differences found)",
            args.tables,
            args.exact_tables,
        )
    print(f"\n{time.perf_counter() - start:.0f} s in all")


if __name__ == "__main__":
    main()
