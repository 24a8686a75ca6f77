"""Type I error and power of the omnibus tests of k estimators (no learners).

The tests of k estimators on one data set — Cochran's Q and Looney's F on
one hold-out split, and the block-regularized Cochran's Q (``bcv_cochran_q``,
an extension of Yang et al.'s effective table) on a 5×2 BCV — are run on the
epsilon data set generalised to L algorithms
(:func:`sklearn_bcv.datasets.make_many_epsilon_losses`: every algorithm errs
with probability ε/2 on one half of the records and 3ε/2 on the other,
halves rotating between algorithms, ε = 0.1), beside the procedure they
compete with: the pairwise two-estimator McNemar's test on all L(L − 1)/2
pairs with Holm's correction, rejecting when any pair does (``mcnemar+holm``
on the hold-out split, ``bcv_mcnemar+holm`` on the 5×2 BCV). Everything is
vectorised over the repetitions
(:func:`sklearn_bcv.simulation.simulate_many_loss_vectors`).

* **Type I error**: L = 3 and 5 algorithms of equal error rate, n = 300 and
  1,000 records.
* **Power** (n = 300): Δ added to the error rate of one algorithm ("one
  worse"), or spread linearly, algorithm j getting j·Δ/(L − 1) ("spread").
  Each Δ sees the same random draws (common random numbers).

Designs: one hold-out split with a third of the records as test set
(``ShuffleSplit(n_splits=1, test_size=1/3)``, Yang et al.'s HO design) and
:class:`sklearn_bcv.BlockRegularized5x2CV`.

Usage::

    python benchmarks/reproduce_many.py                  # ~1 min: 10,000 / 1,000
    python benchmarks/reproduce_many.py --full           # 100,000 / 10,000
    python benchmarks/reproduce_many.py --full --rst --plot many_power.png

Defaults: 10,000 repetitions per type I error cell and 1,000 per power point
(Wilson 95% half-width about 0.004 at a rate of 0.05, at most 0.03);
``--full`` runs 100,000 and 10,000 (half-widths about 0.0014 and 0.01).
"""

import argparse
import time

import numpy as np
from sklearn.model_selection import ShuffleSplit

from sklearn_bcv import BlockRegularized5x2CV
from sklearn_bcv.datasets import make_many_epsilon_losses
from sklearn_bcv.simulation import rejection_rate_interval, simulate_many_loss_vectors
from sklearn_bcv.simulation._paper import format_text_table

ALPHA = 0.05
EPSILON = 0.1
ESTIMATORS = (3, 5)
SIZES = (300, 1000)
POWER_SIZE = 300
DELTAS = (0.0, 0.02, 0.04, 0.06, 0.08, 0.10, 0.12, 0.15)
SCENARIOS = ("one worse", "spread")
#: Repetitions drawn at once (the losses of a block: block × n × L bytes).
BLOCK = 10_000

#: (design, procedure, label) in the order of the tables.
PROCEDURES = (
    ("holdout", "cochran_q", "Cochran's Q (hold-out)"),
    ("holdout", "looney_f", "Looney's F (hold-out)"),
    ("holdout", "mcnemar+holm", "pairwise McNemar + Holm (hold-out)"),
    ("5x2bcv", "bcv_cochran_q", "BCV Cochran's Q (5×2 BCV)"),
    ("5x2bcv", "bcv_mcnemar+holm", "pairwise BCV McNemar + Holm (5×2 BCV)"),
)


def designs(random_state):
    return {
        "holdout": ShuffleSplit(n_splits=1, test_size=1 / 3, random_state=random_state),
        "5x2bcv": BlockRegularized5x2CV(random_state=random_state),
    }


def deltas_of(scenario, delta, n_estimators):
    if scenario == "one worse":
        return np.r_[delta, np.zeros(n_estimators - 1)]
    return delta * np.arange(n_estimators) / (n_estimators - 1)


def rejection_counts(n_samples, n_estimators, delta, n_repetitions, seed):
    """{procedure: n_rejections} over ``n_repetitions``, drawn in blocks."""
    counts = {procedure: 0 for _, procedure, _ in PROCEDURES}
    block_seeds = np.random.SeedSequence(seed).generate_state(
        -(-n_repetitions // BLOCK)
    )
    for b, block_seed in enumerate(block_seeds):
        size = min(BLOCK, n_repetitions - b * BLOCK)
        losses = make_many_epsilon_losses(
            n_samples, n_estimators, epsilon=EPSILON, delta=delta,
            n_datasets=size, random_state=int(block_seed),
        )  # fmt: skip
        for cv in designs(int(block_seed)).values():
            result = simulate_many_loss_vectors(
                losses, cv, alpha=ALPHA, random_state=int(block_seed)
            )
            for name in result.tests:
                counts[name] += result.n_rejections[name]
    return counts


def type_one_errors(n_repetitions, random_state, verbose=0):
    """{(n_estimators, n_samples): {procedure: n_rejections}} under the null."""
    cells = {}
    for n_estimators in ESTIMATORS:
        for n_samples in SIZES:
            start = time.perf_counter()
            cells[n_estimators, n_samples] = rejection_counts(
                n_samples, n_estimators, 0.0, n_repetitions,
                seed=[random_state, n_estimators, n_samples],
            )  # fmt: skip
            if verbose:
                print(
                    f"  type I, L = {n_estimators}, n = {n_samples}: "
                    f"{time.perf_counter() - start:.1f} s"
                )
    return cells


def power_curves(n_repetitions, random_state, verbose=0):
    """{(scenario, n_estimators): {procedure: [n_rejections per delta]}}."""
    curves = {}
    for scenario in SCENARIOS:
        for n_estimators in ESTIMATORS:
            start = time.perf_counter()
            rows = {procedure: [] for _, procedure, _ in PROCEDURES}
            for delta in DELTAS:
                counts = rejection_counts(
                    POWER_SIZE, n_estimators,
                    deltas_of(scenario, delta, n_estimators), n_repetitions,
                    seed=[random_state, n_estimators, 1],  # common random numbers
                )  # fmt: skip
                for procedure, count in counts.items():
                    rows[procedure].append(count)
            curves[scenario, n_estimators] = rows
            if verbose:
                print(
                    f"  power, {scenario}, L = {n_estimators}: "
                    f"{time.perf_counter() - start:.1f} s"
                )
    return curves


def _rate(count, n_repetitions):
    low, high = rejection_rate_interval(count, n_repetitions)
    return count / n_repetitions, low, high


def format_type_one(cells, n_repetitions, *, rst=False):
    header = ["procedure"] + [f"L = {k}, n = {n}" for k, n in cells]
    lines = []
    for _, procedure, label in PROCEDURES:
        row = [label]
        for counts in cells.values():
            rate, low, high = _rate(counts[procedure], n_repetitions)
            flag = "" if low <= ALPHA else " (!)"
            row.append(f"{rate:.4f} [{low:.4f}, {high:.4f}]{flag}")
        lines.append(row)
    return format_text_table(header, lines, rst=rst)


def format_power(curves, n_repetitions, *, rst=False):
    tables = []
    for (scenario, n_estimators), rows in curves.items():
        header = [f"{scenario}, L = {n_estimators}"] + [f"Δ={d:g}" for d in DELTAS]
        lines = [
            [label] + [f"{count / n_repetitions:.3f}" for count in rows[procedure]]
            for _, procedure, label in PROCEDURES
        ]
        tables.append(format_text_table(header, lines, rst=rst))
    return "\n\n".join(tables)


def plot(curves, n_repetitions, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys = list(curves)
    fig, axes = plt.subplots(
        len(SCENARIOS), len(ESTIMATORS), figsize=(11, 8), sharex=True, sharey=True,
        layout="constrained",
    )  # fmt: skip
    styles = {"holdout": "--", "5x2bcv": "-"}
    for ax, key in zip(axes.ravel(), keys):
        scenario, n_estimators = key
        for design, procedure, label in PROCEDURES:
            rates, lows, highs = np.array(
                [_rate(count, n_repetitions) for count in curves[key][procedure]]
            ).T
            (line,) = ax.plot(
                DELTAS, rates, styles[design], marker="o", markersize=3, label=label
            )
            ax.fill_between(DELTAS, lows, highs, color=line.get_color(), alpha=0.12)
        ax.axhline(ALPHA, color="grey", linestyle=":", linewidth=1)
        ax.set_title(f"{scenario}, L = {n_estimators}", fontsize="medium")
        ax.set_ylim(0, 1)
    for ax in axes[-1]:
        ax.set_xlabel("Δ (added error rate)")
    for ax in axes[:, 0]:
        ax.set_ylabel("rejection rate")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=2, fontsize="small")
    fig.suptitle(
        f"Omnibus tests vs pairwise McNemar + Holm, epsilon losses (ε = {EPSILON}, "
        f"n = {POWER_SIZE}, {n_repetitions} repetitions per point, 95% Wilson "
        "bands)",
        fontsize="medium",
    )
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--full", action="store_true",
        help="100,000 repetitions per type I error cell and 10,000 per power point",
    )  # fmt: skip
    parser.add_argument("--repetitions", type=int, help="type I error repetitions")
    parser.add_argument(
        "--power-repetitions", type=int, help="repetitions per power point"
    )
    parser.add_argument("--random-state", type=int, default=0)
    parser.add_argument("--rst", action="store_true", help="print reST tables")
    parser.add_argument("--plot", metavar="FILE.png", help="write the power figure")
    parser.add_argument("-v", "--verbose", action="count", default=0)
    args = parser.parse_args(argv)
    n_type_one = args.repetitions or (100_000 if args.full else 10_000)
    n_power = args.power_repetitions or (10_000 if args.full else 1_000)

    start = time.perf_counter()
    cells = type_one_errors(n_type_one, args.random_state, args.verbose)
    type_one_time = time.perf_counter() - start
    start = time.perf_counter()
    curves = power_curves(n_power, args.random_state, args.verbose)
    power_time = time.perf_counter() - start
    print(
        f"type I error: {n_type_one} repetitions per cell in {type_one_time:.1f} s; "
        f"power: {n_power} repetitions per point in {power_time:.1f} s\n"
    )
    print(
        f"Type I error at alpha = {ALPHA} (epsilon losses, ε = {EPSILON}; 95% "
        "Wilson intervals; (!) = interval entirely above alpha)"
    )
    print(format_type_one(cells, n_type_one, rst=args.rst))
    rate, _, high = _rate(n_power // 2, n_power)  # the widest interval
    print(
        f"\nPower at alpha = {ALPHA} (n = {POWER_SIZE}; Δ = 0: type I error; "
        f"95% Wilson half-width at most {high - rate:.3f})\n"
    )
    print(format_power(curves, n_power, rst=args.rst))
    if args.plot:
        plot(curves, n_power, args.plot)
        print(f"\nfigure written to {args.plot}")
    return cells, curves


if __name__ == "__main__":
    main()
