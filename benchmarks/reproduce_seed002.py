"""Corani & Benavoli 2015, §4.2–4.3 (Figures 2a, 2b): Poisson-binomial vs signed-rank.

Corani and Benavoli's experiment: q data sets from the Bayesian network
C -> F (sizes uniform over {25, 50, 100, 250, 500, 1000}, theta = 0.5 +
delta), m runs of 10-fold CV of zeroR and BN-hat on each, and one-sided
tests at alpha = 0.05 of "BN-hat is better": the Poisson-binomial test
(p_a_better > 0.95) and the Wilcoxon signed-rank test on the mean
differences (:func:`sklearn_bcv.simulation.simulate_seed002`, vectorised
over the folds' cell counts).

Prints the rejection rates with 95% Wilson intervals:

* §4.2 (Fig 2a): delta in {0, 0.01, ..., 0.1} on every data set, q = 50;
* §4.3 (Fig 2b): delta per data set from a Cauchy with median = scale =
  delta-bar in {0, ..., 0.05}, capped at ±0.5, q = 50 and q = 25;
* §4.2 and §4.3 (q = 50) again with stratified folds, as WEKA makes them;
* the choices that may move the ordering of the two tests at delta = 0.04
  and 0.05: a tie (all fold differences 0) as a win of zeroR instead of
  half a win, Laplace smoothing 1 instead of 0.5, zeroR's ties to the first
  class (WEKA), stratified folds (WEKA), the split correlation rho the
  Poisson-binomial test assumes (0.05 and 0.2 instead of n_test / n = 0.1).

Usage::

    python benchmarks/reproduce_seed002.py              # 1,000 per cell
    python benchmarks/reproduce_seed002.py --full       # 5,000 per cell
    python benchmarks/reproduce_seed002.py --full --rst --n-jobs 2
    python benchmarks/reproduce_seed002.py --plot doc/_static/seed002.png
"""

import argparse
import time

from sklearn_bcv.simulation import simulate_seed002

VARIANTS = {
    "baseline (tie = half, s = 0.5, zeroR random, KFold)": {},
    "tie = win of zeroR": {"ties": "b"},
    "smoothing s = 1 (Laplace, WEKA)": {"smoothing": 1.0},
    "zeroR ties -> first class (WEKA)": {"zeror_ties": "first"},
    "stratified folds (WEKA)": {"stratified": True},
    "assumed rho = 0.05 for the 10 m splits": {"rho": 0.05},
    "assumed rho = 0.2 for the 10 m splits": {"rho": 0.2},
    "WEKA-like (s = 1, zeroR first, stratified)": {
        "smoothing": 1.0,
        "zeror_ties": "first",
        "stratified": True,
    },
}


def _section(title, result, rst):
    print(f"\n{title} ({result.elapsed:.1f} s)")
    print(result.to_text(rst=rst))


def plot(results, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(5 * len(results), 3.6))
    for ax, (title, result) in zip(axes, results.items()):
        for m, style in zip(result.n_runs, ("--", "-")):
            for test, color, label in (
                ("poisson_binomial", "C0", "Poisson"),
                ("wilcoxon", "C1", "signed-rank"),
            ):
                ax.plot(
                    result.deltas,
                    result.rates[(m, test)],
                    style,
                    color=color,
                    marker="o",
                    ms=3,
                    label=f"{label}, m = {m}",
                )
        ax.axhline(result.alpha, color="grey", lw=0.5)
        ax.set_title(title)
        ax.set_xlabel("delta-bar" if result.design == "cauchy" else "delta_acc")
        ax.set_ylabel("rejection rate")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=80)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="5,000 per cell")
    parser.add_argument("--n-experiments", type=int, default=None)
    parser.add_argument("--rst", action="store_true")
    parser.add_argument("--n-jobs", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-variants", action="store_true")
    parser.add_argument("--plot", default=None, help="save Fig 2a/2b as a PNG")
    args = parser.parse_args()
    n = args.n_experiments or (5000 if args.full else 1000)
    common = {"n_jobs": args.n_jobs, "random_state": args.seed}
    start = time.perf_counter()

    fixed = simulate_seed002(n, **common)
    title = f"§4.2, Fig 2a: delta on all data sets, q = 50, {n} per cell"
    _section(title, fixed, args.rst)
    cauchy = simulate_seed002(n, design="cauchy", **common)
    _section(f"§4.3, Fig 2b: Cauchy delta, q = 50, {n} per cell", cauchy, args.rst)
    cauchy25 = simulate_seed002(n, design="cauchy", n_datasets=25, **common)
    _section(f"§4.3: Cauchy delta, q = 25, {n} per cell", cauchy25, args.rst)
    fixed_s = simulate_seed002(n, stratified=True, **common)
    _section(f"§4.2 with stratified folds (WEKA), {n} per cell", fixed_s, args.rst)
    cauchy_s = simulate_seed002(n, design="cauchy", stratified=True, **common)
    title = f"§4.3 with stratified folds (WEKA), q = 50, {n} per cell"
    _section(title, cauchy_s, args.rst)
    print("\nShare of data sets with every fold difference 0 (§4.2), by delta:")
    for m, share in fixed.all_ties.items():
        print(f"  m = {m}: " + " ".join(f"{x:.3f}" for x in share))

    if not args.skip_variants:
        for label, options in VARIANTS.items():
            result = simulate_seed002(n, deltas=[0.0, 0.04, 0.05], **options, **common)
            _section(f"Variant: {label}, q = 50", result, args.rst)
    if args.plot:
        panels = {"Fig 2a: fixed delta, q = 50": fixed, "Fig 2b: Cauchy": cauchy}
        plot(panels, args.plot)
        print(f"\nfigure saved to {args.plot}")
    print(f"\ntotal {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
