"""ASO's rate of "A better" decisions on equal score distributions.

Both algorithms' scores (n per algorithm, one per random seed) come from
one distribution: standard normal, a skewed beta(8, 2) (accuracies near
0.8) or a discrete one (accuracy on 50 test records: ties). A decision is
``eps_min < 0.2`` (the threshold of Ulmer et al. 2022) at confidence 0.95,
1,000 bootstrap samples. Prints the rate with its 95% Wilson interval, for
n = 5, 10, 20, 50; and, for m = 3 comparisons, the rate with the correct
Bonferroni level (1 - 0.05/3) and with deepsig's (0.95 + 0.05/3).

Usage::

    python benchmarks/reproduce_aso_null.py            # 1,000 per cell, ~3 min
    python benchmarks/reproduce_aso_null.py --quick    # 200 per cell
"""

import argparse
import time

from sklearn_bcv.simulation._hierarchical import aso_null_rates
from sklearn_bcv.simulation._result import rejection_rate_interval

SIZES = (5, 10, 20, 50)


def _cell(rate, n):
    low, high = rejection_rate_interval(round(rate * n), n)
    return f"{rate:.3f} [{low:.3f}, {high:.3f}]"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    n_experiments = 200 if args.quick else 1000
    print(f"{'distribution / level':34s}" + "".join(f"n = {n:<19d}" for n in SIZES))
    rows = [
        ("normal, c = 0.95", "normal", 0.95),
        ("skewed beta(8, 2), c = 0.95", "skewed", 0.95),
        ("discrete (50 records), c = 0.95", "discrete", 0.95),
        ("normal, Bonferroni m = 3 (0.9833)", "normal", 1 - 0.05 / 3),
        ("normal, deepsig's m = 3 (0.9667)", "normal", 0.95 + 0.05 / 3),
    ]
    for seed, (label, distribution, level) in enumerate(rows):
        start = time.perf_counter()
        rates = aso_null_rates(
            SIZES,
            n_experiments,
            distribution=distribution,
            confidence_level=level,
            random_state=seed,
        )
        cells = "".join(f"{_cell(*rates[n]):23s}" for n in SIZES)
        print(f"{label:34s}{cells} ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
