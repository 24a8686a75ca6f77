"""Reproduce the power curves of Figure 4 of Yang et al. 2023 on the simple data set.

Figure 4 of the 5×2 BCV McNemar paper (Yang et al. 2023) plots the probability of
rejecting "equal error rates" as the data move away from the null. On the
"simple" data set (one predictor, ``x | y = 1 ~ N(delta, 1)``, n = 1,000) the
two algorithms are logistic regression and the majority class (here
scikit-learn's unpenalised ``LogisticRegression`` and ``DummyClassifier``;
the paper used R's glm): at ``delta = 0`` both have error rate 1/2 and a
rejection is a type I error; as ``delta`` grows only logistic regression
learns, and a rejection is a correct detection.

For every delta in 0, 0.1, ..., 1 the script runs every registered test on
the design the paper ran it on (the rows of Table V, plus the Bayesian
correlated t test on 10×10 CV) with
:func:`sklearn_bcv.simulation.simulate_comparisons`, prints the rejection
rates beside the paper's numbers and saves the figure to the path given on
the command line. Each delta sees the same data seeds (common random
numbers), so the curves are smooth.

The paper gives Figure 4 as an image only: its one number per test in the
text is the type I error at ``delta = 0`` (Table V, simple column), printed
in the "paper" column. Its claim about the curves is qualitative: the 5×2
BCV McNemar's test has the steepest one.

Usage::

    python benchmarks/reproduce_power.py power.png                 # ~5 min, 2 cores
    python benchmarks/reproduce_power.py power.png --repetitions 1000  # paper scale
    python benchmarks/reproduce_power.py power.png --rst           # reST table

Default: 100 repetitions per delta (Wilson 95% half-width at most 0.10). The
paper's Figure 4 uses the same simulation size as its Table V (not stated;
three-decimal rates suggest 1,000).
"""

import argparse
import time
from functools import partial

import numpy as np

from sklearn_bcv.datasets import make_simple
from sklearn_bcv.simulation import simulate_comparisons
from sklearn_bcv.simulation._paper import (
    TABLE5_COLUMNS,
    TABLE5_ROWS,
    format_text_table,
    simple_learners,
    table5_designs,
)

DELTAS = np.round(np.arange(0.0, 1.01, 0.1), 1)

#: Table V rows whose published type I error on the simple data set is at
#: most this are drawn in the left panel ("reasonable type I error", the
#: tests Figure 4 shows); the others, whose power is bought with false
#: positives, in the right panel.
REASONABLE = 0.06


def power_curves(deltas, n_repetitions, *, random_state=0, n_jobs=2, verbose=0):
    """``{(test, design): (rates, lows, highs)}`` over ``deltas``, every row."""
    designs = table5_designs(random_state)
    by_design = {}
    for _, test, design, _ in TABLE5_ROWS:
        by_design.setdefault(design, []).append(test)
    curves = {(test, design): ([], [], []) for _, test, design, _ in TABLE5_ROWS}
    for delta in deltas:
        start = time.perf_counter()
        make_data = partial(make_simple, n_samples=1000, delta=float(delta))
        for design, tests in by_design.items():
            result = simulate_comparisons(
                make_data, *simple_learners(), cv=designs[design], tests=tests,
                n_repetitions=n_repetitions, n_jobs=n_jobs,
                random_state=random_state,
            )  # fmt: skip
            for test in tests:
                rates, lows, highs = curves[test, design]
                rates.append(result.rates[test])
                lows.append(result.ci[test][0])
                highs.append(result.ci[test][1])
        if verbose:
            print(f"  delta = {delta:.1f}: {time.perf_counter() - start:.1f} s")
    return {key: tuple(map(np.array, curve)) for key, curve in curves.items()}


def _paper_type_one_error(paper):
    return None if paper is None else paper[TABLE5_COLUMNS.index("simple")]


def format_table(deltas, curves, *, rst=False):
    """One line per Table V row: our rate per delta, the paper's at delta = 0."""
    header = ["Test (Table V)", "paper Δ=0"] + [f"{d:.1f}" for d in deltas]
    lines = []
    for label, test, design, paper in TABLE5_ROWS:
        published = _paper_type_one_error(paper)
        rates = curves[test, design][0]
        lines.append(
            [label, "-" if published is None else f"{published:.3f}"]
            + [f"{rate:.3f}" for rate in rates]
        )
    return format_text_table(header, lines, rst=rst)


def plot(deltas, curves, path, n_repetitions):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True, layout="constrained")
    for label, test, design, paper in TABLE5_ROWS:
        published = _paper_type_one_error(paper)
        reasonable = published is not None and published <= REASONABLE
        ax = axes[0] if reasonable else axes[1]
        rates, lows, highs = curves[test, design]
        style = {"linewidth": 2.5} if test == "bcv_mcnemar" else {}
        (line,) = ax.plot(deltas, rates, marker="o", markersize=3, label=label, **style)
        ax.fill_between(deltas, lows, highs, color=line.get_color(), alpha=0.08)
        if published is not None:
            ax.plot(0, published, marker="x", color=line.get_color(), markersize=8)
    titles = (
        f"Table V type I error ≤ {REASONABLE} on this data set",
        "Table V type I error above it (or not in the paper)",
    )
    for ax, title in zip(axes, titles):
        ax.axhline(0.05, color="grey", linestyle=":", linewidth=1)
        ax.set_xlabel(r"$\Delta$ (mean of $x$ in class 1)")
        ax.set_title(title, fontsize="medium")
        ax.set_ylim(0, 1)
        ax.legend(fontsize="small", loc="lower right")
    axes[0].set_ylabel("rejection rate")
    fig.suptitle(
        "Power on the simple data set: logistic regression vs majority class "
        f"(n = 1000, {n_repetitions} repetitions per point, 95% Wilson bands; "
        "x: Table V at Δ = 0)",
        fontsize="medium",
    )
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("figure", help="path of the figure to write (e.g. power.png)")
    parser.add_argument("--repetitions", type=int, default=100)
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--random-state", type=int, default=0)
    parser.add_argument("--rst", action="store_true", help="print an reST table")
    parser.add_argument("-v", "--verbose", action="count", default=0)
    args = parser.parse_args(argv)

    start = time.perf_counter()
    curves = power_curves(
        DELTAS, args.repetitions, random_state=args.random_state,
        n_jobs=args.n_jobs, verbose=args.verbose,
    )  # fmt: skip
    print(
        f"{args.repetitions} repetitions per delta in "
        f"{time.perf_counter() - start:.1f} s (n_jobs={args.n_jobs})\n"
    )
    print(
        "Rejection rate at alpha = 0.05 (delta = 0: type I error, beside Table "
        "V's; delta > 0: power)"
    )
    print(format_table(DELTAS, curves, rst=args.rst))
    plot(DELTAS, curves, args.figure, args.repetitions)
    print(f"\nfigure written to {args.figure}")
    return curves


if __name__ == "__main__":
    main()
