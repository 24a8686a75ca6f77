"""Level of the sequential ``bcv_t`` test when Yang et al.'s variance model is wrong.

The t form's boundaries are calibrated on the model with ``rho1 = rho2 =
1/2`` (correlation of the split differences within and across
repetitions). This script draws normal split differences from the model
with other true correlations, runs the sequential test (looks at m = 3..7,
Pocock and O'Brien-Fleming, alpha = 0.05, two-sided, the default
``rho1 = rho2 = 1/2`` assumed) and the fixed 5×2 ``bcv_t`` test on the same
draws, and prints both rejection rates with 95% Wilson intervals and the
excess of the sequential test over the fixed one.

``rho1 = 2 rho2 - 1`` is the edge of the model (the covariance matrix is
singular there): every repetition has the same mean difference and the
two differences of a repetition are mirror images around it, as in seed
000's epsilon setup, where each record's loss is fixed whatever the split.

Usage::

    python benchmarks/reproduce_sequential_t_model.py        # 400,000 draws a row
    python benchmarks/reproduce_sequential_t_model.py --rst
"""

import argparse
import time

import numpy as np
from scipy import stats

from sklearn_bcv.simulation import rejection_rate_interval
from sklearn_bcv.simulation._paper import format_text_table
from sklearn_bcv.stats._sequential import (
    _model_differences,
    look_statistics,
    sequential_boundaries,
)

# (rho1, rho2): the model, the edge of the model at rho2 = 1/2 and in
# between, and a truth less correlated than assumed.
TRUTHS = [(0.5, 0.5), (0.3, 0.5), (0.1, 0.5), (0.05, 0.5), (0.0, 0.5), (0.2, 0.4)]
BOUNDARIES = [("pocock", "P"), ("obrien_fleming", "OF")]
MIN_REPEATS, MAX_REPEATS, FIXED_REPEATS, ALPHA = 3, 7, 5, 0.05


def _interval(rejections):
    low, high = rejection_rate_interval(int(rejections.sum()), rejections.size)
    return f"{rejections.mean():.4f} [{low:.4f}, {high:.4f}]"


def _paired_excess(sequential, fixed):
    """Difference of paired rejection rates with its 95% Wald interval."""
    diff = sequential.astype(float) - fixed.astype(float)
    half = 1.96 * diff.std(ddof=1) / np.sqrt(diff.size)
    return f"{diff.mean():+.4f} [{diff.mean() - half:+.4f}, {diff.mean() + half:+.4f}]"


def run(n_draws, seed, rst=False):
    repeats = np.arange(MIN_REPEATS, MAX_REPEATS + 1)
    runs = {
        label: sequential_boundaries(
            "bcv_t",
            MIN_REPEATS,
            MAX_REPEATS,
            boundary=boundary,
            alpha=ALPHA,
            alternative="two-sided",
        )
        for boundary, label in BOUNDARIES
    }
    fixed_critical = stats.t.isf(ALPHA / 2, 2 * FIXED_REPEATS - 1)
    form = next(iter(runs.values()))[0]
    rng = np.random.default_rng(seed)
    header = ["true rho1", "true rho2", "fixed 5×2 bcv_t"]
    for _, label in BOUNDARIES:
        header += [f"sequential t {label}", f"{label} - fixed [95% CI]"]
    lines = []
    for rho1, rho2 in TRUTHS:
        draws = _model_differences(MAX_REPEATS, rho1, rho2, n_draws, rng)
        statistic = look_statistics(form, draws, repeats).statistic
        fixed = np.abs(statistic[:, FIXED_REPEATS - MIN_REPEATS]) >= fixed_critical
        line = [f"{rho1:g}", f"{rho2:g}", _interval(fixed)]
        for _, label in BOUNDARIES:
            _, _, lower, upper = runs[label]
            sequential = ((statistic >= upper) | (statistic <= lower)).any(axis=1)
            line += [_interval(sequential), _paired_excess(sequential, fixed)]
        lines.append(line)
    return format_text_table(header, lines, rst=rst)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draws", type=int, default=400_000)
    parser.add_argument("--random-state", type=int, default=0)
    parser.add_argument("--rst", action="store_true", help="print a reST table")
    args = parser.parse_args()
    start = time.perf_counter()
    print(run(args.draws, args.random_state, rst=args.rst))
    print(f"\n{args.draws:,} draws per row; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
