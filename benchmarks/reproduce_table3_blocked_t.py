"""Wang, Li & Li's Table 3, blocked 3×2 t column: our test at alpha = 0.10 and
0.05 beside the paper's rates.

Wang, Li & Li 2017 prints, for RT versus LS on its eight cases of two Gaussian
classes, the rejection rate of the blocked 3×2 CV t-test of Wang et al.
(2014). Our :func:`~sklearn_bcv.stats.blocked_t_3x2cv` is that test as
published (the mean of the six differences over the root of their sum of
squares divided by 2m = 6, referred to t with 5 degrees of freedom). This
script runs RT versus LS (:func:`sklearn_bcv.simulation.simulate_seed001`,
the same data sets and 3×2 BCV partitions as ``reproduce_table3.py``),
keeps each replication's p-value, and prints the rejection rate at alpha =
0.10 (two-sided: ``|t| > t_0.95(5) = 2.015``) and at alpha = 0.05 beside the
paper's column, with the chi-square of the eight differences (each a
two-sample comparison of proportions, our n replications against the
paper's 5,000; 8 degrees of freedom if the two columns estimate the same
rates) and the mean difference. It also prints each case's mean accuracy
difference E[d̄] (A = RT minus B = LS) on the 3×2 design: case 1 is not a
null case here.

The default run is short (300 replications per case, a minute or two on
two cores); ``--full`` runs the paper's 5,000 (about 8 minutes on two
quiet cores).

Usage::

    python benchmarks/reproduce_table3_blocked_t.py
    python benchmarks/reproduce_table3_blocked_t.py --full --n-jobs 2
"""

import argparse

import numpy as np
from scipy import stats

from sklearn_bcv.simulation import simulate_seed001
from sklearn_bcv.simulation._result import rejection_rate_interval
from sklearn_bcv.simulation._seed001 import TABLE3_PUBLISHED

TEST = "blocked_t_3x2cv"
PAIR = "rt_ls"
CASES = tuple(range(1, 9))
#: Replications behind each of the paper's rates.
PAPER_REPLICATIONS = 5000


def chi_square(ours, n, paper, n_paper=PAPER_REPLICATIONS):
    """Sum over the cases of the squared two-sample z of proportions, and its
    p-value against chi-square(len(ours))."""
    ours, paper = np.asarray(ours), np.asarray(paper)
    pooled = (ours * n + paper * n_paper) / (n + n_paper)
    variance = pooled * (1 - pooled) * (1 / n + 1 / n_paper)
    statistic = float(np.sum((ours - paper) ** 2 / variance))
    return statistic, float(stats.chi2.sf(statistic, len(ours)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="5,000 per case")
    parser.add_argument("--repetitions", type=int, default=None)
    parser.add_argument("--n-jobs", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    n = args.repetitions or (5000 if args.full else 300)
    result = simulate_seed001(
        n, pairs=PAIR, cases=CASES, n_jobs=args.n_jobs, random_state=args.seed
    )
    paper = TABLE3_PUBLISHED[(PAIR, TEST)]
    print(
        f"Wang, Li & Li 2017, Table 3, RT versus LS, blocked 3x2 CV t-test: {n} "
        f"replications per case ({result.elapsed:.0f} s); rate ± half the 95% "
        "Wilson interval"
    )
    header = f"{'':26s}" + "".join(f"{f'({case})':>13s}" for case in CASES)
    print(header)
    dbar = [result.dbar[(PAIR, case, TEST)].mean() for case in CASES]
    print(f"{'E[dbar] (RT - LS)':26s}" + "".join(f"{v:13.3f}" for v in dbar))
    for alpha in (0.10, 0.05):
        rates, cells = [], []
        for case in CASES:
            pvalues = result.pvalues[(PAIR, case, TEST)]
            count = int(np.sum(pvalues < alpha))
            low, high = rejection_rate_interval(count, n)
            rates.append(count / n)
            cells.append(f"{count / n:.3f}±{(high - low) / 2:.3f}")
        print(
            f"{f'ours, alpha = {alpha:.2f}':26s}" + "".join(f"{c:>13s}" for c in cells)
        )
        statistic, pvalue = chi_square(rates, n, paper)
        difference = float(np.mean(np.subtract(rates, paper)))
        print(
            f"{'':26s}chi-square to the paper's column {statistic:.1f} "
            f"(8 df, p = {pvalue:.2g}), mean difference {difference:+.3f}"
        )
    print(f"{'paper':26s}" + "".join(f"{p:13.3f}" for p in paper))


if __name__ == "__main__":
    main()
