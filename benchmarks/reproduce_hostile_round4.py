"""Hostile input, round 4: the probes of each fault class, handled well or
not, on the package found first on the path (the numbers of
``doc/reproduction.rst``).

Each probe is one hostile input from the issue or a variant of it, run
through the public API (and the command line in a subprocess), and judged
by what the library promises: a report is kept and every figure drawn, a
user's distinct scores never merged and no tie leaking between data sets,
no NaN from the ranking and its bounds refused before any work, figure
files of two prefixes kept apart and never written through a link,
contradictory options a usage error. (Class 6, a signal at the very end
of a run, is reached deterministically only from inside the process:
``tests/test_hostile_round4_signals.py``.) Run it once with this checkout
and once with an earlier one for the "before" column::

    python benchmarks/reproduce_hostile_round4.py
    git archive f5088e8 sklearn_bcv | tar -x -C /tmp/before
    PYTHONPATH=/tmp/before python benchmarks/reproduce_hostile_round4.py

(about five minutes on a 2-core machine).
"""

import io
import signal
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

warnings.simplefilter("ignore")
import matplotlib  # noqa: E402

matplotlib.use("Agg")

import sklearn_bcv  # noqa: E402
from sklearn_bcv import compare_scores  # noqa: E402
from sklearn_bcv.stats import effect_size, plackett_luce  # noqa: E402

SCORES = np.random.default_rng(0).uniform(0.6, 0.9, size=(8, 3))
RESULTS = {}


def probe(group, name):
    """Record the probe ``name`` of class ``group``: good when the
    decorated function returns True, bad when it returns False or raises."""

    def decorate(function):
        try:
            good = bool(function())
        except Exception as exc:  # a probe that raises is handled badly
            good, name_ = False, f"{name} ({type(exc).__name__})"
        else:
            name_ = name
        RESULTS.setdefault(group, []).append((name_, good))
        return function

    return decorate


# ---- 1. a figure stops the report -------------------------------------------

HOSTILE_NAMES = {
    "mathtext $\\foo$": "$\\foo$",
    "two dollars": "a$b$c",
    "lone surrogate": "\ud800x",
    "control characters": "tree\n\x1b[31mred",
    "10,000 characters": "x" * 10_000,
    "3,000 characters": "y" * 3000,
}


def _compare(names, **kwargs):
    return compare_scores(SCORES, names=names, random_state=0, **kwargs)


for label, hostile in HOSTILE_NAMES.items():

    @probe("1 figures", f"html, estimator named {label}")
    def _(hostile=hostile):
        result = _compare([hostile, "b", "c"])
        page = result.report("html")
        return page.count("<svg") == len(result._report_figures())

    @probe("1 figures", f"latex figures, estimator named {label}")
    def _(hostile=hostile):
        result = _compare(["a", hostile, "c"])
        with tempfile.TemporaryDirectory() as directory:
            latex = result.report("latex", figures=Path(directory) / "f")
            written = len(list((Path(directory) / "f").iterdir()))
        return written == len(result._report_figures()) and "not drawn" not in latex

    @probe("1 figures", f"html, data set named {label}")
    def _(hostile=hostile):
        datasets = [hostile] + [f"d{i}" for i in range(7)]
        result = compare_scores(SCORES, datasets=datasets, random_state=0)
        page = result.report("html")
        return page.count("<svg") == len(result._report_figures())


# ---- 2. ties leak between data sets, distinct scores merged -----------------

U = 2.0**-46


@probe("2 ties", "a data set's ranks unchanged by another data set")
def _():
    alone = compare_scores([[1, 1 - 1.8 * U], [0.5, 0.4]], tests=["friedman"])
    beside = compare_scores(
        [[1, 1 - 1.8 * U], [1, 1 - 0.9 * U]], tests=["friedman"], pairwise_tests=[]
    )
    return alone.ranks[0].tolist() == beside.ranks[0].tolist() == [1.0, 2.0]


@probe("2 ties", "log losses 1e-14, 2e-14 beside 0.9 kept apart")
def _():
    table = [[1e-14, 2e-14, 0.9], [3e-14, 1e-14, 0.8]]
    result = compare_scores(table, greater_is_better=False, pairwise_tests=[])
    return result.ranks[0].tolist() == [1.0, 2.0, 3.0]


def _float32_same(test, n_tables=40):
    """A float32 table of two-decimal scores gives ``test`` the same
    statistic (a Bayesian test: posterior) in fractions, percents and
    shifted (computed in float32), on each of ``n_tables`` random tables."""
    import pandas as pd

    rng = np.random.default_rng(1)
    for _ in range(n_tables):
        table = np.round(rng.uniform(0.6, 0.9, size=(8, 2)), 2).astype(np.float32)
        values = []
        for units, rope in (
            (table, 0.01),
            (table * np.float32(100), 1.0),  # the rope in the scores' units
            (table + np.float32(0.1), 0.01),
        ):
            frame = pd.DataFrame(units, columns=["a", "b"])
            result = compare_scores(
                frame, tests=[], pairwise_tests=[test], rope=rope, random_state=0
            )
            table_of_test = result.pairwise[test]
            field = "statistic" if "statistic" in table_of_test else "p_a_better"
            values.append(float(table_of_test[field][0, 1]))
        if len(set(values)) != 1:
            return False
    return True


for test in ("wilcoxon", "sign", "bayesian_sign"):

    @probe("2 ties", f"40 float32 tables, {test}: fractions = percents = shifted")
    def _(test=test):
        return _float32_same(test)


@probe("2 ties", "a third estimator's scale leaves a pair's effect size")
def _():
    a = np.array([2e-14, 3e-14, 4e-14, 1e-14, 5e-14, 2e-14])
    b = a - np.array([1, 2, 1, 3, 1, 2]) * 1e-14
    alone = compare_scores(np.c_[a, b], pairwise_tests=[])
    beside = compare_scores(np.c_[a, b, np.full(6, 1e6)], pairwise_tests=[])
    return alone.effect_sizes[0].estimate == beside.effect_sizes[0].estimate != 0


@probe("2 ties", "a zero-difference data set's magnitude leaves every test")
def _():
    base = np.array(
        [[0.83, 0.80], [0.81 + 1e-10, 0.80], [0.71, 0.74], [0.52, 0.5], [0.5, 0.5]]
    )
    big = base.copy()
    big[-1] = 1e6
    found = [
        compare_scores(
            table,
            tests=["friedman", "quade"],
            pairwise_tests={"wilcoxon": {}, "bayesian_signed_rank": {}},
            rope=0.02,
            random_state=0,
        )
        for table in (base, big)
    ]
    first, second = found
    return (
        first.tests.quade.statistic == second.tests.quade.statistic
        and first.pairwise.bayesian_signed_rank.p_a_better[0, 1]
        == second.pairwise.bayesian_signed_rank.p_a_better[0, 1]
    )


# ---- 3. Plackett-Luce at its edges ------------------------------------------

PL_TABLE = np.random.default_rng(0).uniform(size=(20, 4))


def _no_nan_or_refused(**kwargs):
    try:
        result = plackett_luce(PL_TABLE, random_state=0, n_samples=2000, **kwargs)
    except ValueError:
        return True  # refused, with a message
    fields = (result.weights, result.prob_best, [result.rhat, result.ess])
    finite = all(np.all(np.isfinite(f)) for f in fields)
    # A "best" from equal weights is a best by column order.
    spread = np.ptp(result.weights) > 1e-12 or result.best is None
    return finite and spread


for prior in (1e-3, 1e-2, 1e-6, 1e300, 1e6):

    @probe("3 plackett-luce", f"prior={prior:g}: no NaN, no best by column order")
    def _(prior=prior):
        return _no_nan_or_refused(prior=prior)


for params in ({"greater_is_better": False}, {"names": list("wxyz")}):

    @probe("3 plackett-luce", f"test option {sorted(params)} refused")
    def _(params=params):
        try:
            compare_scores(
                PL_TABLE,
                names=list("abcd"),
                tests={"friedman": {}, "plackett_luce": params},
            )
        except ValueError:
            return True
        return False


class _TooLong(Exception):
    pass


def _too_long(signum, frame):
    raise _TooLong


def _refused_at_once(table, **kwargs):
    """Refused within 5 s (a run is stopped then: it would take minutes
    to hours)."""
    start = time.perf_counter()
    previous = signal.signal(signal.SIGALRM, _too_long)
    signal.alarm(5)
    try:
        plackett_luce(table, **kwargs)
    except ValueError:
        return time.perf_counter() - start < 5.0
    except _TooLong:
        return False
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return False


@probe("3 plackett-luce", "100,000 data sets refused before any work")
def _():
    return _refused_at_once(np.zeros((100_000, 5)))


@probe("3 plackett-luce", "n_warmup=1e5 × 100 chains on 200 × 10 refused at once")
def _():
    return _refused_at_once(np.zeros((200, 10)), n_warmup=10**5, n_chains=100)


# ---- 4. figure files --------------------------------------------------------

for first, second in (("s1:", "s1."), ("a:", "a-"), ("S1:", "s1:"), ("x_", "x:")):

    @probe("4 figure files", f"label_prefix {first!r} then {second!r}: own files")
    def _(first=first, second=second):
        result = _compare(["a", "b", "c"])
        with tempfile.TemporaryDirectory() as directory:
            figures = Path(directory) / "figures"
            one = result.report("latex", figures=figures, label_prefix=first)
            two = result.report("latex", figures=figures, label_prefix=second)

            def files(latex):
                return {
                    line.split("{", 1)[1].rstrip("}").lower()
                    for line in latex.splitlines()
                    if line.startswith("\\includegraphics")
                }

            return not files(one) & files(two)


@probe("4 figure files", "a link named like a figure file: target untouched")
def _():
    result = _compare(["a", "b", "c"])
    with tempfile.TemporaryDirectory() as directory:
        figures = Path(directory) / "figures"
        latex = result.report("latex", figures=figures)
        target = Path(directory) / "precious.txt"
        target.write_text("keep me")
        for line in latex.splitlines():
            if line.startswith("\\includegraphics"):
                path = Path(line.split("{", 1)[1].rstrip("}"))
                path.unlink()
                path.symlink_to(target)
        result.report("latex", figures=figures)
        return target.read_text() == "keep me"


for place in ("/proc/sklearn-bcv-figures", "/proc/self"):

    @probe("4 figure files", f"--report-figures {place}: refused before any fit")
    def _(place=place):
        from sklearn_bcv._cli import main

        with tempfile.TemporaryDirectory() as directory:
            err = io.StringIO()
            status = main(
                ["benchmark", "--datasets", "iris", "wine", "--estimator",
                 "sklearn.dummy.DummyClassifier", "--estimator",
                 "sklearn.naive_bayes.GaussianNB", "--report",
                 str(Path(directory) / "r.tex"), "--report-figures", place],
                stdout=io.StringIO(),
                stderr=err,
            )  # fmt: skip
            return status == 2 and "done in" not in err.getvalue()


# ---- 5. the small ones ------------------------------------------------------


@probe("5 small", "--no-effect-sizes --simultaneous-intervals: usage error")
def _():
    from sklearn_bcv._cli import main

    with tempfile.TemporaryDirectory() as directory:
        csv = Path(directory) / "s.csv"
        csv.write_text("dataset,a,b\nd1,0.8,0.7\nd2,0.9,0.8\nd3,0.7,0.75\n")
        status = main(
            ["scores", str(csv), "--no-effect-sizes", "--simultaneous-intervals"],
            stdout=io.StringIO(),
            stderr=io.StringIO(),
        )
    return status == 2


@probe("5 small", "RankProbabilityDisplay refuses duplicate names")
def _():
    from sklearn_bcv import RankProbabilityDisplay

    try:
        RankProbabilityDisplay(
            [0.5, 0.5], [0.5, 0.5], [[0, 1], [0, 1]], names=["a", "a"]
        ).plot()
    except ValueError:
        return True
    return False


@probe("5 small", "effect_size(a, -a, 'mean_difference') near 1.5e308")
def _():
    a = np.array([1.5e308, 1.4e308, 1.3e308, 1.45e308])
    try:
        result = effect_size(a, -a, kind="mean_difference", random_state=0)
    except ValueError as exc:
        return "float64" in str(exc)
    return bool(np.isfinite(result.estimate))


def main():
    print(f"sklearn_bcv {sklearn_bcv.__version__} from {sklearn_bcv.__file__}")
    total = good_total = 0
    for group, found in RESULTS.items():
        good = sum(ok for _, ok in found)
        total, good_total = total + len(found), good_total + good
        print(f"{group:18s} {good:3d} of {len(found):3d} handled well")
        for name, ok in found:
            if not ok:
                print(f"    badly: {name}")
    print(f"{'all':18s} {good_total:3d} of {total:3d}")


if __name__ == "__main__":
    main()
