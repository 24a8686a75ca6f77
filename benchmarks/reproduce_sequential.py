"""Evidence for the sequential m×2 BCV tests (Yang et al.'s future work).

Runs :func:`sklearn_bcv.simulation.simulate_sequential` on Yang et al.'s null
setups and on the power setups of its Figure 4, and prints:

1. type I errors at alpha = 0.05 of the sequential tests (``bcv_mcnemar``
   and ``bcv_t``, Pocock and O'Brien-Fleming boundaries, looks at
   m = 3..7 of one nested 7×2 BCV) beside the fixed 5×2 and 7×2 BCV
   McNemar tests, with 95% Wilson intervals (Monte Carlo error): the
   epsilon loss vectors (a sanity check only: each record's loss is fixed
   whatever the split, so the statistic's path is almost fixed) and the
   simple data set at delta = 0 with logistic regression against the
   majority class, several n;
2. power and ASN (mean repetitions fitted) on the simple data set at
   n = 1000, delta = 0.1 .. 1.0, side by side with the fixed designs;
3. the Bayesian 5×2 BCV McNemar test: how often ``p_a_better`` and
   ``p_b_better`` exceed 0.95, and how often its decision is the fixed
   5×2 BCV McNemar test's;
4. the times.

Every procedure reads the same fits: per replication one 7×2 BCV is
fitted; the 5×2 BCV is its first ten splits.

Usage::

    python benchmarks/reproduce_sequential.py              # reduced, ~2 min on 2 cores
    python benchmarks/reproduce_sequential.py --full       # the issue's sizes, ~9 min
    python benchmarks/reproduce_sequential.py --full --rst # reST tables
"""

import argparse
import time

import numpy as np

from sklearn_bcv.simulation import simulate_sequential
from sklearn_bcv.simulation._paper import format_text_table

DELTAS = tuple(np.round(np.arange(0.1, 1.01, 0.1), 1).tolist())
SEQUENTIAL = [
    ("bcv_mcnemar", "pocock", "McNemar P"),
    ("bcv_mcnemar", "obrien_fleming", "McNemar OF"),
    ("bcv_t", "pocock", "t P"),
    ("bcv_t", "obrien_fleming", "t OF"),
]
FIXED = [("fixed bcv_mcnemar 5×2", "fixed 5×2"), ("fixed bcv_mcnemar 7×2", "fixed 7×2")]
BAYES = "bayesian_bcv_mcnemar 5×2"

REDUCED = {"epsilon": 10000, "null": 3000, "power": 1000}
FULL = {"epsilon": 10000, "null": 10000, "power": 5000}


def _rows(result):
    """{(n, delta): {procedure: row}}."""
    cells = {}
    for row in result.rows:
        cells.setdefault((row["n_samples"], row["delta"]), {})[row["procedure"]] = row
    return cells


def _rate(row, digits=3):
    half = (row["ci_high"] - row["ci_low"]) / 2
    return f"{row['rate']:.{digits}f} ± {half:.{digits}f}"


def _rate_interval(row, digits=3):
    low, high = row["ci_low"], row["ci_high"]
    return f"{row['rate']:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def type_one_table(results, *, rst=False):
    """One line per (setup, n): each procedure's type I error [95% CI]."""
    header = ["setup", "n", "R"] + [label for *_, label in SEQUENTIAL]
    header += [label for _, label in FIXED]
    lines = []
    for result in results:
        for (n, _), cell in _rows(result).items():
            line = [result.setup, str(n), str(result.n_repetitions)]
            line += [
                _rate_interval(cell[f"sequential {t} ({b})"]) for t, b, _ in SEQUENTIAL
            ]
            line += [_rate_interval(cell[name]) for name, _ in FIXED]
            lines.append(line)
    return format_text_table(header, lines, rst=rst)


def asn_null_table(results, *, rst=False):
    """ASN of the sequential tests under the null setups."""
    header = ["setup", "n"] + [f"ASN {label}" for *_, label in SEQUENTIAL]
    lines = []
    for result in results:
        for (n, _), cell in _rows(result).items():
            line = [result.setup, str(n)]
            line += [
                f"{cell[f'sequential {t} ({b})']['asn']:.2f}" for t, b, _ in SEQUENTIAL
            ]
            lines.append(line)
    return format_text_table(header, lines, rst=rst)


def power_table(result, *, rst=False):
    """One line per delta: power ± MC half-width / ASN of every procedure."""
    header = (
        ["delta"] + [label for *_, label in SEQUENTIAL] + [label for _, label in FIXED]
    )
    lines = []
    for (_, delta), cell in _rows(result).items():
        line = [f"{delta:.1f}"]
        for test, boundary, _ in SEQUENTIAL:
            row = cell[f"sequential {test} ({boundary})"]
            line.append(f"{_rate(row)} / {row['asn']:.2f}")
        line += [_rate(cell[name]) for name, _ in FIXED]
        lines.append(line)
    return format_text_table(header, lines, rst=rst)


def fits_table(result, *, rst=False):
    """Mean fits and fits saved against the fixed 7×2 (28 fits) and 5×2 (20)."""
    header = ["delta"] + [f"fits {label}" for *_, label in SEQUENTIAL]
    header += ["saved vs 7×2 (McNemar P)", "saved vs 5×2 (McNemar P)"]
    lines = []
    for (_, delta), cell in _rows(result).items():
        line = [f"{delta:.1f}"]
        for test, boundary, _ in SEQUENTIAL:
            line.append(f"{cell[f'sequential {test} ({boundary})']['mean_fits']:.1f}")
        pocock = cell["sequential bcv_mcnemar (pocock)"]
        line += [f"{pocock['fits_saved']:.1f}", f"{20 - pocock['mean_fits']:.1f}"]
        lines.append(line)
    return format_text_table(header, lines, rst=rst)


def paired_table(results, *, rst=False):
    """Sequential McNemar against the fixed 5×2 BCV McNemar on the same
    replications: the replications only one of them rejects and the paired
    difference of the rejection rates with its 95% (Wald) interval."""
    header = ["setup", "n", "delta"]
    for *_, label in SEQUENTIAL[:2]:
        header += [f"{label}: only / 5×2 only", f"{label} - 5×2 [95% CI]"]
    lines = []
    for result in results:
        for (n, delta), codes in result.decisions.items():
            line = [result.setup, str(n), "-" if delta is None else f"{delta:.1f}"]
            fixed = codes[FIXED[0][0]] != 0
            for test, boundary, _ in SEQUENTIAL[:2]:
                sequential = codes[f"sequential {test} ({boundary})"] != 0
                size = sequential.size
                only_seq = int(np.sum(sequential & ~fixed))
                only_fixed = int(np.sum(~sequential & fixed))
                diff = (only_seq - only_fixed) / size
                var = only_seq + only_fixed - (only_seq - only_fixed) ** 2 / size
                half = 1.96 * np.sqrt(max(var, 0.0)) / size
                line += [
                    f"{only_seq} / {only_fixed}",
                    f"{diff:+.4f} [{diff - half:+.4f}, {diff + half:+.4f}]",
                ]
            lines.append(line)
    return format_text_table(header, lines, rst=rst)


def bayes_table(results, *, rst=False):
    """The Bayesian 5×2 BCV McNemar: decision rates and agreement."""
    header = [
        "setup",
        "n",
        "delta",
        "P(p_a_better > 0.95)",
        "P(p_b_better > 0.95)",
        "fixed 5×2 rate",
        "agreement",
        "Bayes only",
        "fixed only",
    ]
    lines = []
    for result in results:
        for (n, delta), cell in _rows(result).items():
            bayes, fixed = cell[BAYES], cell[FIXED[0][0]]
            level = 1 - result.alpha
            codes = result.decisions[(n, delta)]
            only_bayes = np.mean((codes[BAYES] != 0) & (codes[FIXED[0][0]] == 0))
            only_fixed = np.mean((codes[BAYES] == 0) & (codes[FIXED[0][0]] != 0))
            lines.append(
                [
                    result.setup,
                    str(n),
                    "-" if delta is None else f"{delta:.1f}",
                    f"{np.mean(result.p_a_better[(n, delta)] > level):.3f}",
                    f"{np.mean(result.p_b_better[(n, delta)] > level):.3f}",
                    f"{fixed['rate']:.3f}",
                    f"{bayes['agreement']:.3f}",
                    f"{only_bayes:.3f}",
                    f"{only_fixed:.3f}",
                ]
            )
    return format_text_table(header, lines, rst=rst)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="the issue's sizes")
    parser.add_argument("--epsilon-repetitions", type=int)
    parser.add_argument("--null-repetitions", type=int)
    parser.add_argument("--power-repetitions", type=int)
    parser.add_argument("--epsilon-n", type=int, nargs="+", default=[300, 1000])
    parser.add_argument("--null-n", type=int, nargs="+", default=[200, 500, 1000])
    parser.add_argument("--power-n", type=int, default=1000)
    parser.add_argument(
        "--alternative", default="two-sided", choices=["two-sided", "greater", "less"]
    )
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--random-state", type=int, default=0)
    parser.add_argument("--csv", help="write every row to this CSV file")
    parser.add_argument("--rst", action="store_true", help="print reST tables")
    parser.add_argument("-v", "--verbose", action="count", default=0)
    args = parser.parse_args(argv)
    sizes = dict(FULL if args.full else REDUCED)
    for key in sizes:
        value = getattr(args, f"{key}_repetitions")
        if value is not None:
            sizes[key] = value
    common = {
        "alternative": args.alternative,
        "n_jobs": args.n_jobs,
        "random_state": args.random_state,
        "verbose": args.verbose,
    }

    times = {}
    start = time.perf_counter()
    epsilon = simulate_sequential(
        "epsilon", n_samples=args.epsilon_n, n_repetitions=sizes["epsilon"], **common
    )
    times["epsilon"] = time.perf_counter() - start
    start = time.perf_counter()
    null = simulate_sequential(
        "simple",
        n_samples=args.null_n,
        delta=0.0,
        n_repetitions=sizes["null"],
        **common,
    )
    times["simple, delta = 0"] = time.perf_counter() - start
    start = time.perf_counter()
    power = simulate_sequential(
        "simple",
        n_samples=args.power_n,
        delta=list(DELTAS),
        n_repetitions=sizes["power"],
        **common,
    )
    times["simple, power"] = time.perf_counter() - start

    if args.csv:
        import pandas as pd

        pd.concat([r.to_frame() for r in (epsilon, null, power)]).to_csv(
            args.csv, index=False
        )

    rst = args.rst
    print(
        f"Sequential m×2 BCV, looks at m = 3..7 of one nested 7×2 BCV, alpha = "
        f"0.05, {args.alternative}; P = Pocock, OF = O'Brien-Fleming boundary\n"
    )
    print(
        f"Type I error [95% Wilson interval] (epsilon: {sizes['epsilon']} "
        f"replications per n; simple, delta = 0: {sizes['null']})"
    )
    print(type_one_table([epsilon, null], rst=rst))
    print("\nASN (mean repetitions fitted) under the null setups")
    print(asn_null_table([epsilon, null], rst=rst))
    print(
        f"\nPower ± half-width of the 95% interval / ASN, simple data set, n = "
        f"{args.power_n}, {sizes['power']} replications per delta"
    )
    print(power_table(power, rst=rst))
    print("\nMean fits (4 per repetition) and fits saved by the Pocock McNemar test")
    print(fits_table(power, rst=rst))
    print(
        "\nSequential McNemar against the fixed 5×2 BCV McNemar on the same "
        "replications (rejections of one only; paired difference of the rates)"
    )
    print(paired_table([epsilon, null, power], rst=rst))
    print(
        "\nBayesian 5×2 BCV McNemar (decides when a posterior probability > 0.95) "
        "against the fixed 5×2 BCV McNemar test"
    )
    print(bayes_table([epsilon, null, power], rst=rst))
    print(f"\nTimes (s, n_jobs = {args.n_jobs}):")
    for key, value in times.items():
        print(f"  {key}: {value:.1f}")
    return epsilon, null, power


if __name__ == "__main__":
    main()
