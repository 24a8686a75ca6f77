"""Reproduce the power curves of Figure 4 of seed 000 on the simple data set.

Figure 4 of the 5×2 BCV McNemar paper (seed 000) plots the probability of
rejecting "equal error rates" as the data move away from the null. On the
"simple" data set (one predictor, ``x | y = 1 ~ N(delta, 1)``, n = 1,000) the
two algorithms are logistic regression and the majority class (here
scikit-learn's ``LogisticRegression`` and ``DummyClassifier``; the paper
used R's glm): at ``delta = 0`` both have error rate 1/2 and a rejection is
a type I error; as ``delta`` grows only logistic regression learns, and a
rejection is a correct detection.

For every delta in 0, 0.1, ..., 1 the script runs the tests that keep a
reasonable type I error in Table V on the paper's designs
(:func:`sklearn_bcv.simulation.simulate_comparisons`), prints the table of
rejection rates and saves the figure to the path given on the command line.
Each delta sees the same data seeds (common random numbers), so the curves
are smooth.

Usage::

    python benchmarks/reproduce_power.py power.png             # ~2-3 min, 2 cores
    python benchmarks/reproduce_power.py power.png --repetitions 1000   # paper scale

Default: 200 repetitions per delta (Wilson 95% half-width at most 0.07).
The paper's Figure 4 uses the same simulation size as its Table V (not
stated; three-decimal rates suggest 1,000).
"""

import argparse
import time
from functools import partial

import numpy as np
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression

from sklearn_bcv.datasets import make_simple
from sklearn_bcv.simulation import simulate_comparisons
from sklearn_bcv.simulation._paper import table5_designs

#: (label, registered test, design key of table5_designs): the tests whose
#: type I error Table V finds reasonable on the simple data set, and the
#: McNemar family the paper advocates.
POWER_TESTS = (
    ("5×2 BCV McNemar", "bcv_mcnemar", "5x2bcv"),
    ("Calibrated 5×2 BCV F", "calibrated_f_5x2bcv", "5x2bcv"),
    ("Blocked 3×2 CV t", "blocked_t_3x2cv", "3x2bcv"),
    ("Combined 5×2 CV F", "combined_f_5x2cv", "5x2"),
    ("Corrected RHO t", "corrected_t", "rho_9/10"),
    ("HO McNemar", "mcnemar", "holdout_2/3"),
    ("Proportional z", "proportion_z", "holdout_2/3"),
    ("Naïve K-fold McNemar", "kfold_mcnemar", "10-fold"),
)

DELTAS = np.round(np.arange(0.0, 1.01, 0.1), 1)


def power_curves(deltas, n_repetitions, *, random_state=0, n_jobs=2, verbose=0):
    """Rejection rates ``{label: (rates, lows, highs)}`` over ``deltas``."""
    designs = table5_designs(random_state)
    by_design = {}
    for label, test, design in POWER_TESTS:
        by_design.setdefault(design, []).append((label, test))
    curves = {label: ([], [], []) for label, _, _ in POWER_TESTS}
    for delta in deltas:
        start = time.perf_counter()
        make_data = partial(make_simple, n_samples=1000, delta=float(delta))
        for design, tests in by_design.items():
            result = simulate_comparisons(
                make_data, LogisticRegression(), DummyClassifier(),
                cv=designs[design], tests=[test for _, test in tests],
                n_repetitions=n_repetitions, n_jobs=n_jobs,
                random_state=random_state,
            )  # fmt: skip
            for label, test in tests:
                rates, lows, highs = curves[label]
                rates.append(result.rates[test])
                lows.append(result.ci[test][0])
                highs.append(result.ci[test][1])
        if verbose:
            print(f"  delta = {delta:.1f}: {time.perf_counter() - start:.1f} s")
    return {label: tuple(map(np.array, curve)) for label, curve in curves.items()}


def format_table(deltas, curves):
    width = max(len(label) for label in curves)
    lines = [f"{'delta':<{width}}  " + "  ".join(f"{d:5.1f}" for d in deltas)]
    lines.append("-" * len(lines[0]))
    for label, (rates, _, _) in curves.items():
        lines.append(f"{label:<{width}}  " + "  ".join(f"{r:5.3f}" for r in rates))
    return "\n".join(lines)


def plot(deltas, curves, path, n_repetitions):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5), layout="constrained")
    for label, (rates, lows, highs) in curves.items():
        (line,) = ax.plot(deltas, rates, marker="o", markersize=3, label=label)
        ax.fill_between(deltas, lows, highs, color=line.get_color(), alpha=0.08)
    ax.axhline(0.05, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel(r"$\Delta$ (mean of $x$ in class 1)")
    ax.set_ylabel("rejection rate")
    ax.set_title(
        "Power on the simple data set: logistic regression vs majority class\n"
        f"(n = 1000, {n_repetitions} repetitions per point, 95% Wilson bands)"
    )
    ax.set_ylim(0, 1)
    ax.legend(fontsize="small", loc="lower right")
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("figure", help="path of the figure to write (e.g. power.png)")
    parser.add_argument("--repetitions", type=int, default=200)
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--random-state", type=int, default=0)
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
    print("Rejection rate at alpha = 0.05 (delta = 0: type I error; else power)")
    print(format_table(DELTAS, curves))
    plot(DELTAS, curves, args.figure, args.repetitions)
    print(f"\nfigure written to {args.figure}")
    return curves


if __name__ == "__main__":
    main()
