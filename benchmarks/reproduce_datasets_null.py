"""Type I error of the tests across data sets on null score tables.

Every experiment draws the scores of k estimators on N data sets with the
same expected score for every estimator on every data set, and runs the
tests across data sets through :func:`sklearn_bcv.compare_scores`
(:func:`sklearn_bcv.simulation.simulate_null_across`): Friedman's test
(and Iman–Davenport's F), the post hoc rank tests (Nemenyi on all pairs,
Bonferroni–Dunn and Holm against estimator 0; family-wise error), Wilcoxon's
and the sign test on every pair with Holm's correction (family-wise error)
and on one pair unadjusted, and the Bayesian tests on one pair (the
Poisson-binomial test, the Bayesian signed-rank and sign tests: the rate of
a posterior probability above 0.95 on either side, and for "A better").

Null setups (data set sizes uniform over {25, 50, 100, 250, 500, 1000} as
in Corani & Benavoli 2015, expected scores uniform over (0.6, 0.95)):

* ``exchangeable``: one score per data set, normal noise;
* ``heavy_tailed``: the same with Student t(3) noise;
* ``per_split``: per-split scores of a 5×2-like design (n_test = n/2),
  the correlated t model with rho = n_test / n = 0.5 (matched);
* ``per_split_kfold``: a 10-fold-like design (n_test = n/10), rho = 0.1
  (matched);
* ``per_split_mismatched``: 10-fold sizes (the test assumes rho = 0.1),
  true rho = 0.3.

Then: the decisions whose null distribution is the same in every setup
(those that read only ranks or signs), pooled over the setups beside their
rate computed from that distribution; Nemenyi's family-wise error by N and
k; and a sweep of the true split correlation for the Poisson-binomial test
alone (the only test that reads the splits).

Usage::

    python benchmarks/reproduce_datasets_null.py           # 2,000 per setup
    python benchmarks/reproduce_datasets_null.py --full    # 10,000 per setup
    python benchmarks/reproduce_datasets_null.py --full --rst --n-jobs 2

The Bayesian signed-rank and sign tests draw 2,000 Monte Carlo samples
(their default is 50,000; the rates do not change, doc/reproduction.rst).
Runtime on two cores shared with other work, with ``--n-jobs 2``: the
default about 4 minutes (2 min 45 s for the main table), ``--full`` 8 min
20 s in all (6.5 min for the main table, 15 min of CPU; 45 s for the rho
sweep; 1 min for the reference rates). An experiment takes about 15 ms per
setup on one core (N = 20, k = 4), most of it in scipy's Wilcoxon test.
"""

import argparse
import time
from itertools import combinations

import numpy as np
from scipy import stats

from sklearn_bcv.simulation import rejection_rate_interval, simulate_null_across
from sklearn_bcv.simulation._paper import format_text_table
from sklearn_bcv.stats import bayesian_sign

ALPHA = 0.05
#: The sweep of the Poisson-binomial test: (design, test_fraction, true rhos);
#: None is the matched rho = n_test / n.
SWEEP = (
    ("10-fold", None, (None, 0.2, 0.3, 0.5, 0.7)),
    ("5×2", 0.5, (None, 0.7, 0.9)),
)


def sweep_setups(n_splits):
    setups = {}
    for design, fraction, rhos in SWEEP:
        assumed = fraction or 1.0 / n_splits
        for rho in rhos:
            true = "matched" if rho is None else f"{rho:g}"
            label = f"{design}: assumed {assumed:g}, true {true}"
            setups[label] = {"per_split": True, "test_fraction": fraction, "rho": rho}
    return setups


def matched_reference(n_datasets, alpha, n_draws=200_000, seed=0):
    """The Poisson-binomial decision rates when the correlated t model holds.

    Then every data set's ``p_i`` is exactly Uniform(0, 1) and independent,
    so the rates depend on N only; estimated from ``n_draws`` draws.
    """
    rng = np.random.default_rng(seed)
    p = rng.random((n_draws, n_datasets))
    pmf = np.zeros((n_draws, n_datasets + 1))
    pmf[:, 0] = 1.0
    for j in range(n_datasets):
        shifted = pmf[:, :-1] * p[:, j : j + 1]
        pmf *= 1.0 - p[:, j : j + 1]
        pmf[:, 1:] += shifted
    twice = 2 * np.arange(n_datasets + 1)
    p_a = pmf[:, twice > n_datasets].sum(axis=1)
    p_b = pmf[:, twice < n_datasets].sum(axis=1)
    greater = float(np.mean(p_a > 1 - alpha))
    either = float(np.mean((p_a > 1 - alpha) | (p_b > 1 - alpha)))
    return either, greater


#: Decisions whose null distribution is the same in every setup: they read
#: the scores through the ranks within each data set, or through the signs
#: (and the ranks of the absolute values) of one pair's differences, and
#: under every setup the ranks are a uniform random permutation and the
#: signs fair coins independent of the absolute values.
POOLED = (
    "friedman",
    "iman_davenport",
    "nemenyi",
    "bonferroni_dunn",
    "holm",
    "sign+holm",
    "sign (1 pair)",
    "wilcoxon (1 pair)",
    "bayesian_sign (either)",
    "bayesian_sign (greater)",
)
NEMENYI_GRID = ((3, 4, 5), (10, 15, 20, 25, 30, 50))


def random_rank_sums(n_datasets, n_estimators, n_draws, rng, chunk=50_000):
    """Rank sums (n_draws, k) of tables of uniform random permutations."""
    out = []
    for first in range(0, n_draws, chunk):
        size = min(chunk, n_draws - first)
        keys = rng.random((size, n_datasets, n_estimators))
        out.append((keys.argsort(axis=-1).argsort(axis=-1) + 1).sum(axis=1))
    return np.concatenate(out)


def nemenyi_fwer(rank_sums, n_datasets, alpha, continuity=True):
    """Nemenyi's "some pair differs" decision from the rank sums, with the
    package's continuity correction (half a step of the rank sums) or, with
    ``continuity=False``, Demšar's uncorrected test."""
    k = rank_sums.shape[1]
    se = np.sqrt(k * (k + 1) / (6 * n_datasets))
    spread = rank_sums.max(axis=1) - rank_sums.min(axis=1)
    if continuity:
        spread = np.maximum(spread - 0.5, 0.0)
    q = spread / n_datasets * np.sqrt(2) / se
    return stats.studentized_range.sf(q, k, np.inf) < alpha


def references(n_datasets, n_estimators, alpha, n_draws=200_000, seed=0):
    """Rates of the decisions of :data:`POOLED`, from their null distribution.

    The rank tests and the sign test with Holm's correction from
    ``n_draws`` random rank tables (the package's formulas, in the
    user guide); Wilcoxon's and the sign test on one pair exactly (the
    signed-rank and binomial distributions); the Bayesian sign test exactly
    over the number of wins, each count's posterior from
    :func:`~sklearn_bcv.stats.bayesian_sign` with 50,000 samples.
    """
    rng = np.random.default_rng(seed)
    n, k = n_datasets, n_estimators
    out = {}
    keys = rng.random((n_draws, n, k))
    ranks = keys.argsort(axis=-1).argsort(axis=-1) + 1
    rank_sums = ranks.sum(axis=1)
    mean_ranks = rank_sums / n
    chi2 = (
        12 * n / (k * (k + 1)) * (np.sum(mean_ranks**2, axis=1) - k * (k + 1) ** 2 / 4)
    )
    out["friedman"] = np.mean(stats.chi2.sf(chi2, k - 1) < alpha)
    f_stat = (n - 1) * chi2 / (n * (k - 1) - chi2)
    out["iman_davenport"] = np.mean(
        stats.f.sf(f_stat, k - 1, (k - 1) * (n - 1)) < alpha
    )
    out["nemenyi"] = np.mean(nemenyi_fwer(rank_sums, n, alpha))
    se = np.sqrt(k * (k + 1) / (6 * n))
    z = np.abs(mean_ranks[:, 1:] - mean_ranks[:, :1]) / se
    smallest = 2 * stats.norm.sf(z.max(axis=1))
    # Holm rejects something exactly when Bonferroni does.
    out["bonferroni_dunn"] = out["holm"] = np.mean(smallest * (k - 1) < alpha)
    pvalues = []
    for a, b in combinations(range(k), 2):
        wins = np.sum(ranks[:, :, a] < ranks[:, :, b], axis=1)
        tail = stats.binom.cdf(np.minimum(wins, n - wins), n, 0.5)
        pvalues.append(np.minimum(1.0, 2 * tail))
    pvalues = np.array(pvalues).T
    out["sign+holm"] = np.mean(pvalues.min(axis=1) * pvalues.shape[1] < alpha)
    wins = np.arange(n + 1)
    pmf = stats.binom.pmf(wins, n, 0.5)
    tail = np.minimum(1.0, 2 * stats.binom.cdf(np.minimum(wins, n - wins), n, 0.5))
    out["sign (1 pair)"] = pmf[tail < alpha].sum()
    # Signed-rank statistic W+ = sum of the ranks of the positive differences.
    counts = np.zeros(n * (n + 1) // 2 + 1)
    counts[0] = 1
    for r in range(1, n + 1):
        counts[r:] = counts[r:] + counts[:-r].copy()
    w_pmf = counts / counts.sum()
    lower = np.cumsum(w_pmf)
    upper = np.cumsum(w_pmf[::-1])[::-1]
    two_sided = np.minimum(1.0, 2 * np.minimum(lower, upper))
    out["wilcoxon (1 pair)"] = w_pmf[two_sided < alpha].sum()
    p_a = np.array(
        [
            bayesian_sign(
                np.r_[np.ones(w), -np.ones(n - w)], n_samples=50_000, random_state=0
            ).p_a_better
            for w in wins
        ]
    )
    out["bayesian_sign (greater)"] = pmf[p_a > 1 - alpha].sum()
    out["bayesian_sign (either)"] = pmf[
        (p_a > 1 - alpha) | (p_a[::-1] > 1 - alpha)
    ].sum()
    return out


def format_pooled(result, reference, *, rst=False):
    header = [
        "decision",
        f"pooled over {len(result.setups)} setups [95% CI]",
        "reference",
    ]
    rows = []
    for name in POOLED:
        sims = [
            result.results[s] for s in result.setups if name in result.results[s].rates
        ]
        if not sims or name not in reference:
            continue
        count = sum(sim.n_rejections[name] for sim in sims)
        total = sum(sim.n_repetitions for sim in sims)
        low, high = rejection_rate_interval(count, total)
        mark = " (!)" if low > result.levels[name] else ""
        rows.append(
            [
                name,
                f"{count / total:.4f} [{low:.4f}, {high:.4f}]{mark}",
                f"{reference[name]:.4f}",
            ]
        )
    return format_text_table(header, rows, rst=rst)


def format_nemenyi_grid(alpha, *, n_draws=100_000, seed=0, rst=False):
    rng = np.random.default_rng(seed)
    ks, ns = NEMENYI_GRID
    rows = []
    for k in ks:
        corrected, plain = [f"k = {k}"], [f"k = {k}, Demšar's"]
        for n in ns:
            rank_sums = random_rank_sums(n, k, n_draws, rng)
            corrected.append(f"{np.mean(nemenyi_fwer(rank_sums, n, alpha)):.4f}")
            uncorrected = nemenyi_fwer(rank_sums, n, alpha, continuity=False)
            plain.append(f"{np.mean(uncorrected):.4f}")
        rows += [corrected, plain]
    return format_text_table(["Nemenyi FWER"] + [f"N = {n}" for n in ns], rows, rst=rst)


def format_sweep(result, *, rst=False):
    header = ["design: rho assumed, true", "either side", "A better (greater)"]
    rows = []
    for label in result.setups:
        sim = result.results[label]
        cells = [label]
        for name in ("poisson_binomial (either)", "poisson_binomial (greater)"):
            low, high = sim.ci[name]
            mark = " (!)" if low > result.levels[name] else ""
            cells.append(f"{sim.rates[name]:.4f} [{low:.4f}, {high:.4f}]{mark}")
        rows.append(cells)
    return format_text_table(header, rows, rst=rst)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--full", action="store_true", help="10,000 experiments per setup"
    )
    parser.add_argument("--experiments", type=int, help="experiments per setup")
    parser.add_argument("--datasets", type=int, default=20, help="N (default 20)")
    parser.add_argument("--estimators", type=int, default=4, help="k (default 4)")
    parser.add_argument("--splits", type=int, default=10, help="splits per data set")
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--random-state", type=int, default=0)
    parser.add_argument("--rst", action="store_true", help="print reST tables")
    parser.add_argument("--no-sweep", action="store_true", help="skip the rho sweep")
    parser.add_argument("-v", "--verbose", action="count", default=0)
    args = parser.parse_args(argv)
    n = args.experiments or (10_000 if args.full else 2_000)
    common = dict(
        n_datasets=args.datasets,
        n_estimators=args.estimators,
        n_splits=args.splits,
        alpha=ALPHA,
        random_state=args.random_state,
        n_jobs=args.n_jobs,
        verbose=args.verbose,
    )

    start = time.perf_counter()
    result = simulate_null_across(n, **common)
    main_time = time.perf_counter() - start
    sweep = None
    if not args.no_sweep:
        start = time.perf_counter()
        sweep = simulate_null_across(
            n, setups=sweep_setups(args.splits), tests=["poisson_binomial"], **common
        )
        sweep_time = time.perf_counter() - start
    se = np.sqrt(ALPHA * (1 - ALPHA) / n)
    print(
        f"{n} experiments per setup, N = {args.datasets} data sets, "
        f"k = {args.estimators} estimators, {args.splits} splits, n_jobs = "
        f"{args.n_jobs}: {main_time:.1f} s"
        + ("" if sweep is None else f" (+ {sweep_time:.1f} s for the rho sweep)")
    )
    print(
        f"Monte Carlo standard error at a rate of {ALPHA}: {se:.4f} (3 SE = "
        f"{3 * se:.4f}); 95% Wilson intervals; (!) = interval entirely above "
        "the level (alpha, or 2·alpha for a Bayesian decision on either side)\n"
    )
    print(result.to_text(rst=args.rst))
    bad = [
        (setup, name)
        for setup in result.setups
        for name in result.frequentist
        if name in result.results[setup].rates
        and result.results[setup].rates[name] > ALPHA + 3 * se
    ]
    print(
        "\nfrequentist rates above alpha + 3 SE: "
        + (", ".join(f"{name} ({setup})" for setup, name in bad) or "none")
    )
    start = time.perf_counter()
    reference = references(args.datasets, args.estimators, ALPHA)
    print(
        "\nDecisions whose null distribution is the same in every setup, pooled "
        "over the setups, beside their rate computed from that distribution "
        "(200,000 random rank tables for the rank tests and sign+holm; exact "
        "for the one-pair Wilcoxon, sign and Bayesian sign tests)\n"
    )
    print(format_pooled(result, reference, rst=args.rst))
    print(
        "\nNemenyi's family-wise error under the null hypothesis by N and k, "
        "with the continuity correction and (Demšar's) without it (100,000 "
        "random rank tables each, standard error 0.0007)\n"
    )
    print(format_nemenyi_grid(ALPHA, rst=args.rst))
    print(f"(references: {time.perf_counter() - start:.1f} s)")
    if sweep is not None:
        either, greater = matched_reference(args.datasets, ALPHA)
        print(
            "\nPoisson-binomial test against the true split correlation "
            f"(assumed rho = n_test / n; matched-model reference for N = "
            f"{args.datasets}: either {either:.4f}, greater {greater:.4f}, from "
            "200,000 draws of uniform p_i)\n"
        )
        print(format_sweep(sweep, rst=args.rst))
    return result, sweep


if __name__ == "__main__":
    main()
