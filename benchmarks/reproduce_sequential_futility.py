"""Evidence for the sequential m×2 BCV's futility stop.

``sequential_compare(..., futility="conditional_power",
futility_threshold=0.1)`` stops, before the last look, when the
conditional power under the current trend is below 0.1. This script puts
each sequential test with and without the futility stop side by side on
the same fits (common random numbers) and prints, per setup:

* the rejection rate (type I error on null setups, power otherwise) with
  and without futility, with 95% Wilson intervals, and the paired
  difference (replications only one of the two rejects);
* the mean number of fits (4 per repetition) with and without futility,
  against the fixed 5×2 BCV's 20, and the share of futility stops.

Setups:

1. Yang et al.'s simulation setups
   (:func:`~sklearn_bcv.simulation.simulate_sequential`):
   the epsilon loss vectors (null), the simple data set at delta = 0
   (null, several n) and its power setups (n = 1000, several delta), with
   logistic regression against the majority class;
2. real learners on one fixed data-generating problem
   (``make_classification``, 40,000 records, of which each replication
   draws 500): two copies of one algorithm with different seeds (random
   forests of 10 trees; decision trees on random feature subsets) under
   the null, and algorithms of different quality (logistic regression
   against naive Bayes, and against decision trees of depth 2 and 3;
   true accuracy differences about 0.02, 0.04 and 0.08). Each replication
   fits one nested 7×2 BCV once (:func:`~sklearn_bcv.compare_estimators`)
   and reads every procedure from those fits through the functions
   :func:`~sklearn_bcv.sequential_compare` uses; a few replications are
   checked against ``sequential_compare`` itself.

Usage::

    python benchmarks/reproduce_sequential_futility.py           # ~4 min on 2 cores
    python benchmarks/reproduce_sequential_futility.py --full    # ~10 min
    python benchmarks/reproduce_sequential_futility.py --rst     # reST tables
"""

import argparse
import time
import warnings

import numpy as np
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import BlockRegularizedMx2CV, compare_estimators, sequential_compare
from sklearn_bcv.simulation import simulate_sequential
from sklearn_bcv.simulation._paper import format_text_table
from sklearn_bcv.simulation._result import rejection_rate_interval
from sklearn_bcv.simulation._sequential import (
    _procedure_name,
    _procedures,
    sequential_decisions,
)
from sklearn_bcv.stats import _sequential as stats_sequential

TESTS = ("bcv_mcnemar", "bcv_t")
BOUNDARIES = ("obrien_fleming", "pocock")
THRESHOLD = 0.1
SIM_DELTAS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6)
POOL_SIZE, N_RECORDS = 40_000, 500
#: Other thresholds shown for the real learners (same fits).
OTHER_THRESHOLDS = (0.05, 0.02)
#: Correlations across repetitions the conditional power could read the
#: looks' law with (``FUTILITY_RHO2``; 0.5 is the boundaries'), same fits.
RHO2_VALUES = (0.5, 0.3, 0.25, 0.2, 0.1, 0.0)
REDUCED = {"null": 2000, "power": 600, "real_null": 200, "real_power": 200}
FULL = {"null": 4000, "power": 1500, "real_null": 500, "real_power": 400}


def real_setups():
    """``{name: (null, make_pair(seed))}``: the real-learner setups."""
    return {
        "forests, 2 seeds": (
            True,
            lambda s: (
                RandomForestClassifier(n_estimators=10, random_state=2 * s),
                RandomForestClassifier(n_estimators=10, random_state=2 * s + 1),
            ),
        ),
        "trees (sqrt features), 2 seeds": (
            True,
            lambda s: (
                DecisionTreeClassifier(max_features="sqrt", random_state=2 * s),
                DecisionTreeClassifier(max_features="sqrt", random_state=2 * s + 1),
            ),
        ),
        "logistic vs naive Bayes": (
            False,
            lambda s: (LogisticRegression(), GaussianNB()),
        ),
        "logistic vs tree depth 2": (
            False,
            lambda s: (
                LogisticRegression(),
                DecisionTreeClassifier(max_depth=2, random_state=s),
            ),
        ),
        "logistic vs tree depth 3": (
            False,
            lambda s: (
                LogisticRegression(),
                DecisionTreeClassifier(max_depth=3, random_state=s),
            ),
        ),
    }


def _needs_of_one(estimator_a, estimator_b, X, y, seed):
    """Tables (14, 2, 2) and accuracy differences (14,) of one nested 7×2 BCV."""
    cv = BlockRegularizedMx2CV(n_repeats=7, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence of an unlucky split
        result = compare_estimators(
            estimator_a, estimator_b, X, y, cv=cv, tests=["bcv_mcnemar"]
        )
    return np.asarray(result.tables), np.asarray(result.differences)


def run_real(name, make_pair, n_repetitions, n_jobs, seed):
    """Decision codes and repetitions at the stop of every procedure."""
    X_pool, y_pool = make_classification(
        n_samples=POOL_SIZE,
        n_features=10,
        n_informative=4,
        n_redundant=2,
        flip_y=0.05,
        random_state=0,
    )
    rng = np.random.RandomState(seed)
    seeds = rng.randint(np.iinfo(np.int32).max, size=(n_repetitions, 2))
    tables, differences, data = [], [], []
    for r, (data_seed, cv_seed) in enumerate(seeds):
        rows = np.random.RandomState(data_seed).choice(POOL_SIZE, N_RECORDS, False)
        X, y = X_pool[rows], y_pool[rows]
        a, b = make_pair(r)
        t, d = _needs_of_one(a, b, X, y, int(cv_seed))
        tables.append(t)
        differences.append(d)
        data.append((X, y, a, b, int(cv_seed)))
    settings = {
        "min_repeats": 3,
        "max_repeats": 7,
        "alpha": 0.05,
        "alternative": "two-sided",
        "futility_thresholds": (None, THRESHOLD),
    }
    tables, differences = np.stack(tables), np.stack(differences)
    procedures, _ = _procedures(
        tables, differences, tests=TESTS, boundaries=BOUNDARIES, settings=settings
    )
    return procedures, data, tables, differences


def threshold_rows(label, procedures, tables, differences):
    """Power (or type I error) lost and mean fits at other thresholds, on
    the same fits, O'Brien-Fleming boundaries."""
    lines = []
    for test in TESTS:
        values = tables if test == "bcv_mcnemar" else differences
        plain, plain_m, _ = procedures[_procedure_name(test, "obrien_fleming", None)]
        line = [label, test, f"{np.mean(np.abs(plain) == 1):.3f}"]
        for threshold in (THRESHOLD, *OTHER_THRESHOLDS):
            codes, repeats = sequential_decisions(
                test,
                values,
                min_repeats=3,
                max_repeats=7,
                boundary="obrien_fleming",
                alpha=0.05,
                alternative="two-sided",
                futility_threshold=threshold,
            )
            lost = np.mean((np.abs(plain) == 1) & (np.abs(codes) != 1))
            line.append(f"{lost:.3f} / {4 * repeats.mean():.1f}")
        lines.append(line)
    return lines


def rho2_rows(label, tables):
    """``bcv_mcnemar``'s power (or type I error) lost and mean fits with the
    conditional power's law at each of :data:`RHO2_VALUES`, same fits."""
    line = [label]
    default = stats_sequential.FUTILITY_RHO2
    for boundary in BOUNDARIES:
        settings = {"min_repeats": 3, "max_repeats": 7, "boundary": boundary}
        settings.update(alpha=0.05, alternative="two-sided")
        plain, _ = sequential_decisions("bcv_mcnemar", tables, **settings)
        for rho2 in RHO2_VALUES:
            stats_sequential.FUTILITY_RHO2 = rho2
            try:
                codes, repeats = sequential_decisions(
                    "bcv_mcnemar", tables, futility_threshold=THRESHOLD, **settings
                )
            finally:
                stats_sequential.FUTILITY_RHO2 = default
            lost = np.mean((np.abs(plain) == 1) & (np.abs(codes) != 1))
            line.append(f"{lost:.3f} / {4 * repeats.mean():.1f}")
    return [line]


def check_against_sequential_compare(procedures, data, n_checks):
    """The procedures' decisions are those of sequential_compare itself."""
    codes = {"boundary": None, "max_repeats": 0, "futility": 3}
    checked = 0
    for r, (X, y, a, b, cv_seed) in enumerate(data[:n_checks]):
        for futility in (None, "conditional_power"):
            one = sequential_compare(
                clone(a), clone(b), X, y, futility=futility, random_state=cv_seed
            )
            threshold = None if futility is None else THRESHOLD
            name = _procedure_name("bcv_mcnemar", "obrien_fleming", threshold)
            decision, repeats, _ = procedures[name]
            code = codes[one.stopped_by]
            if code is None:  # a boundary: the sign says which
                code = 1 if one.decision == "A better" else -1
            assert decision[r] == code, (r, futility)
            assert repeats[r] == one.n_repeats, (r, futility)
            checked += 1
    return checked


def _rate(codes):
    n = codes.size
    k = int(np.count_nonzero(np.abs(codes) == 1))
    low, high = rejection_rate_interval(k, n)
    return f"{k / n:.3f} [{low:.3f}, {high:.3f}]"


def comparison_rows(label, procedures):
    """One line per sequential test and boundary: with against without."""
    lines = []
    for test in TESTS:
        for boundary in BOUNDARIES:
            plain, plain_m, _ = procedures[_procedure_name(test, boundary, None)]
            futile, futile_m, _ = procedures[_procedure_name(test, boundary, THRESHOLD)]
            reject_plain, reject_futile = np.abs(plain) == 1, np.abs(futile) == 1
            only_plain = int(np.sum(reject_plain & ~reject_futile))
            only_futile = int(np.sum(~reject_plain & reject_futile))
            size = plain.size
            diff = (only_futile - only_plain) / size
            var = only_plain + only_futile - (only_futile - only_plain) ** 2 / size
            half = 1.96 * np.sqrt(max(var, 0.0)) / size
            lines.append(
                [
                    label,
                    f"{test} {'OF' if boundary == 'obrien_fleming' else 'P'}",
                    str(size),
                    _rate(plain),
                    _rate(futile),
                    f"{only_plain} / {only_futile}",
                    f"{diff:+.3f} ± {half:.3f}",
                    f"{4 * plain_m.mean():.1f}",
                    f"{4 * futile_m.mean():.1f}",
                    f"{4 * (plain_m.mean() - futile_m.mean()):.1f}",
                    f"{np.mean(futile == 3):.3f}",
                ]
            )
    return lines


HEADER = [
    "setup",
    "test",
    "R",
    "rate, no futility",
    "rate, futility",
    "lost / gained",
    "difference",
    "fits, no fut.",
    "fits, futility",
    "saved",
    "futile stops",
]


def simulation_procedures(result):
    """``{label: {procedure: (codes, repeats, None)}}`` of a simulation."""
    out = {}
    for (n, delta), codes in result.decisions.items():
        label = f"{result.setup} n={n}" + ("" if delta is None else f" d={delta:g}")
        out[label] = {
            name: (codes[name], result.repeats[(n, delta)][name], None)
            for name in codes
        }
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="larger replications")
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--random-state", type=int, default=0)
    parser.add_argument("--checks", type=int, default=5)
    parser.add_argument("--skip-simulation", action="store_true")
    parser.add_argument("--skip-real", action="store_true")
    parser.add_argument("--rst", action="store_true", help="print reST tables")
    args = parser.parse_args(argv)
    sizes = FULL if args.full else REDUCED
    common = {
        "futility": "conditional_power",
        "futility_threshold": THRESHOLD,
        "tests": TESTS,
        "boundaries": BOUNDARIES,
        "n_jobs": args.n_jobs,
        "random_state": args.random_state,
    }
    lines, times = [], {}
    if not args.skip_simulation:
        start = time.perf_counter()
        results = [
            simulate_sequential(
                "epsilon", n_samples=[300, 1000], n_repetitions=sizes["null"], **common
            ),
            simulate_sequential(
                "simple",
                n_samples=[200, 500, 1000],
                delta=0.0,
                n_repetitions=sizes["null"],
                **common,
            ),
            simulate_sequential(
                "simple",
                n_samples=1000,
                delta=list(SIM_DELTAS),
                n_repetitions=sizes["power"],
                **common,
            ),
        ]
        for result in results:
            for label, procedures in simulation_procedures(result).items():
                lines += comparison_rows(label, procedures)
        times["simulation setups"] = time.perf_counter() - start
    checked, sensitivity, correlations = 0, [], []
    if not args.skip_real:
        for name, (null, make_pair) in real_setups().items():
            start = time.perf_counter()
            n_repetitions = sizes["real_null" if null else "real_power"]
            procedures, data, tables, differences = run_real(
                name, make_pair, n_repetitions, args.n_jobs, args.random_state
            )
            checked += check_against_sequential_compare(procedures, data, args.checks)
            lines += comparison_rows(name, procedures)
            sensitivity += threshold_rows(name, procedures, tables, differences)
            correlations += rho2_rows(name, tables)
            times[name] = time.perf_counter() - start
            print(f"[{name}: {times[name]:.0f} s]", flush=True)
    print(
        f"Sequential m×2 BCV, looks at m = 3..7, alpha = 0.05, two-sided: without "
        f"and with the futility stop (conditional power < {THRESHOLD}) on the same "
        "fits; OF = O'Brien-Fleming, P = Pocock; lost / gained: replications only "
        "the design without / with futility rejects; the fixed 5×2 BCV makes 20 "
        "fits, the fixed 7×2 28."
    )
    print(format_text_table(HEADER, lines, rst=args.rst))
    if sensitivity:
        print(
            "\nReal learners, O'Brien-Fleming: rejection rate without futility, "
            "and per threshold the rate lost / mean fits"
        )
        header = ["setup", "test", "rate, no futility"]
        header += [f"threshold {t:g}" for t in (THRESHOLD, *OTHER_THRESHOLDS)]
        print(format_text_table(header, sensitivity, rst=args.rst))
    if correlations:
        print(
            "\nReal learners, bcv_mcnemar: rate lost / mean fits with the "
            "conditional power's law at rho2 = "
            f"{', '.join(f'{r:g}' for r in RHO2_VALUES)} (FUTILITY_RHO2 = "
            f"{stats_sequential.FUTILITY_RHO2:g}; 0.5 is the boundaries')"
        )
        header = ["setup"] + [
            f"{'OF' if b == 'obrien_fleming' else 'P'} {r:g}"
            for b in BOUNDARIES
            for r in RHO2_VALUES
        ]
        print(format_text_table(header, correlations, rst=args.rst))
    if checked:
        print(f"{checked} real-learner runs checked against sequential_compare.")
    for name, seconds in times.items():
        print(f"time, {name}: {seconds:.0f} s")


if __name__ == "__main__":
    main()
