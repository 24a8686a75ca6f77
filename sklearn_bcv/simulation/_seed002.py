"""Corani & Benavoli 2015, §4: the Poisson-binomial test against the signed-rank test.

Corani and Benavoli generate data sets from the Bayesian network
``C -> F`` (binary class C with ``P(c0) = 0.5``, binary feature F with
``P(f0 | c0) = theta``, ``P(f0 | c1) = 1 - theta``, ``theta = 0.5 +
delta``) and compare by cross-validation zeroR (the training majority
class) with BN-hat (the network with parameters learned from the training
fold, i.e. naive Bayes on the one feature). Both fits are counts, so one
fold is summarised by the 4 (class, feature) cell counts of its test part,
the training part being the data set's totals minus them. The simulation
draws the cell counts of the data sets (binomials) and of the folds
(sequential multivariate hypergeometric draws, the way :class:`KFold` with
shuffling deals the records) instead of records, and computes each fold's
accuracies from the counts, vectorised over experiments, data sets, runs
and folds.

:class:`ZeroRClassifier` and :class:`BinaryNaiveBayes` are the same
classifiers as scikit-learn estimators (a test checks that fitting them
through :func:`~sklearn_bcv.benchmark` on the same folds gives exactly the
vectorised accuracies).
"""

import time
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import Bunch, check_random_state
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import check_is_fitted, validate_data

from .._checks import check_integer
from .._compat import Interval, StrOptions, validate_params
from .._engine._fit import worker_count
from ..stats._bayesian import _posterior_probabilities, correlated_t_posterior
from ..stats._pairwise_across import (
    _outcome_probabilities,
    _poisson_binomial_pmf,
    wilcoxon,
)
from ._checks import (
    MAX_BLOCK_CELLS,
    MAX_DATASETS,
    MAX_RUNS,
    MORE_ONLY_COSTS_TIME,
    check_experiments,
    check_grid,
)
from ._result import rejection_rate_interval

__all__ = [
    "BinaryNaiveBayes",
    "Seed002Result",
    "ZeroRClassifier",
    "simulate_seed002",
]

#: Data set sizes, drawn uniformly for each data set (Corani & Benavoli 2015, §4.2).
DATASET_SIZES = (25, 50, 100, 250, 500, 1000)
#: delta_acc of §4.2 (fixed on all data sets) and delta-bar of §4.3 (Cauchy).
FIXED_DELTAS = tuple(round(0.01 * i, 2) for i in range(11))
CAUCHY_DELTAS = tuple(round(0.01 * i, 2) for i in range(6))
TESTS = ("poisson_binomial", "wilcoxon")
#: Experiments per block (one joblib task).
BLOCK = 250


# --------------------------------------------------------------------------
# The two classifiers as scikit-learn estimators
# --------------------------------------------------------------------------


def _check_binary(X, y=None):
    X = np.asarray(X)
    if X.ndim != 2 or X.shape[1] != 1 or not np.all((X == 0) | (X == 1)):
        raise ValueError("X must have one binary feature (values 0 and 1).")
    if y is not None and not np.all((np.asarray(y) == 0) | (np.asarray(y) == 1)):
        raise ValueError("y must be binary (classes 0 and 1).")


class ZeroRClassifier(ClassifierMixin, BaseEstimator):
    """zeroR: predicts the majority class of the training set.

    The class C of the network has the states 0 and 1 (``classes_`` is
    always ``[0, 1]``, whatever the training fold holds).

    Parameters
    ----------
    ties : {"random", "first"}, default="random"
        When both classes are equally frequent in the training set:
        ``"random"`` draws the class (Corani & Benavoli 2015); ``"first"`` predicts
        class 0 (WEKA's ZeroR, which takes the first maximum).
    random_state : int, RandomState instance or None, default=None
        The draw of a tie: class 1 when the first uniform of
        ``check_random_state(random_state)`` is below 0.5 (so an int seed
        gives the same draw at every fit).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    prediction_ : int
        The predicted class.
    """

    def __init__(self, ties="random", random_state=None):
        self.ties = ties
        self.random_state = random_state

    def fit(self, X, y):
        X, y = validate_data(self, X, y)
        _check_binary(X, y)
        self.classes_ = np.array([0, 1])
        ones = int(np.count_nonzero(y == 1))
        zeros = y.size - ones
        if ones != zeros:
            self.prediction_ = int(ones > zeros)
        elif self.ties == "first":
            self.prediction_ = 0
        else:
            uniform = check_random_state(self.random_state).random_sample()
            self.prediction_ = int(uniform < 0.5)
        return self

    def predict(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return np.full(X.shape[0], self.prediction_)


class BinaryNaiveBayes(ClassifierMixin, BaseEstimator):
    """BN-hat: the network C -> F with parameters learned by counts.

    Naive Bayes on one binary feature: ``P(c) ∝ n_c + s`` and
    ``P(f | c) = (n_cf + s) / (n_c + 2s)`` with smoothing ``s``; it
    predicts the class of largest ``P(c) P(f | c)``, class 0 when they are
    equal (WEKA's first maximum). The comparison is made on the
    cross-multiplied products of counts, exactly.

    Parameters
    ----------
    smoothing : float, default=0.5
        ``s`` > 0: 0.5 is the Krichevsky–Trofimov / Jeffreys estimate, 1
        Laplace's (WEKA's NaiveBayes initialises every count to 1). With
        one binary feature every ``s`` in (0, 1] makes the same
        predictions: for each value of the feature the class with more
        training records having it, on equal counts the larger class.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    predictions_ : ndarray of shape (2,)
        The predicted class for f = 0 and f = 1.
    """

    def __init__(self, smoothing=0.5):
        self.smoothing = smoothing

    def fit(self, X, y):
        X, y = validate_data(self, X, y)
        _check_binary(X, y)
        self.classes_ = np.array([0, 1])
        f = X[:, 0].astype(int)
        y = np.asarray(y).astype(int)
        cells = np.array(
            [np.count_nonzero((y == c) & (f == v)) for c in (0, 1) for v in (0, 1)]
        )
        self.predictions_ = _bn_predictions(cells, self.smoothing).astype(int)
        return self

    def predict(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return self.predictions_[X[:, 0].astype(int)]


# --------------------------------------------------------------------------
# Fold accuracies from cell counts
# --------------------------------------------------------------------------


def _bn_predictions(train, smoothing):
    """``(..., 2)`` bool: BN-hat predicts class 1 for f = 0, f = 1.

    ``train[..., 4]``: training counts of (c0 f0, c0 f1, c1 f0, c1 f1).
    """
    s = float(smoothing)
    train = np.asarray(train, dtype=np.float64)
    n0 = train[..., 0] + train[..., 1]
    n1 = train[..., 2] + train[..., 3]
    out = []
    for v in (0, 1):
        score0 = (n0 + s) * (train[..., v] + s) * (n1 + 2 * s)
        score1 = (n1 + s) * (train[..., 2 + v] + s) * (n0 + 2 * s)
        out.append(score1 > score0)
    return np.stack(out, axis=-1)


def fold_accuracies(totals, test, *, smoothing=0.5, zeror_ties="random", uniforms=None):
    """Test accuracies of zeroR and BN-hat on folds given by cell counts.

    Parameters
    ----------
    totals : array-like of shape (..., 4)
        Cell counts of the data set: (c0 f0, c0 f1, c1 f0, c1 f1);
        broadcast against ``test``.
    test : array-like of shape (..., 4)
        Cell counts of the test fold (the training fold is the rest).
    smoothing : float, default=0.5
        BN-hat's smoothing (:class:`BinaryNaiveBayes`).
    zeror_ties : {"random", "first"}, default="random"
        zeroR's rule for a tied training set (:class:`ZeroRClassifier`).
    uniforms : array-like of shape test.shape[:-1], default=None
        With ``"random"``: a tie predicts class 1 where the uniform is
        below 0.5 (required then).

    Returns
    -------
    zeror, bn : ndarray of shape test.shape[:-1]
        Accuracies.
    """
    test = np.asarray(test)
    train = np.asarray(totals) - test
    n_test = test.sum(axis=-1)
    n0 = train[..., 0] + train[..., 1]
    n1 = train[..., 2] + train[..., 3]
    ones = n1 > n0
    if zeror_ties == "random":
        ones = ones | ((n1 == n0) & (np.asarray(uniforms) < 0.5))
    test_ones = test[..., 2] + test[..., 3]
    zeror = np.where(ones, test_ones, n_test - test_ones) / n_test
    pred = _bn_predictions(train, smoothing)
    correct = np.where(pred[..., 0], test[..., 2], test[..., 0]) + np.where(
        pred[..., 1], test[..., 3], test[..., 1]
    )
    return zeror, correct / n_test


def draw_cells(sizes, deltas, rng):
    """Cell counts of data sets of the network with ``theta = 0.5 + delta``."""
    theta = 0.5 + np.asarray(deltas, dtype=np.float64)
    n0 = rng.binomial(sizes, 0.5)
    n1 = sizes - n0
    c0f0 = rng.binomial(n0, theta)
    c1f0 = rng.binomial(n1, 1.0 - theta)
    return np.stack([c0f0, n0 - c0f0, c1f0, n1 - c1f0], axis=-1)


def _fold_sizes(n, n_folds, k):
    return n // n_folds + (k < n % n_folds)


def draw_folds(cells, n_runs, n_folds, rng, *, stratified=False):
    """Test cell counts of ``n_runs`` shuffled ``n_folds``-fold CVs.

    ``cells`` (..., 4) -> (..., n_runs * n_folds, 4). Unstratified: fold k
    has :class:`~sklearn.model_selection.KFold`'s size (the first ``n %
    n_folds`` folds one record more) and its cells are a multivariate
    hypergeometric draw from the records not yet dealt. Stratified (as
    WEKA: the records sorted by class and dealt round-robin to the folds),
    the class counts of each fold are fixed and only the feature is drawn.
    """
    cells = np.repeat(cells[..., None, :], n_runs, axis=-2)  # (..., m, 4)
    rest = cells.copy()
    n = cells.sum(axis=-1)
    n0 = cells[..., 0] + cells[..., 1]
    folds = []
    for k in range(n_folds):
        if k == n_folds - 1:
            folds.append(rest)
            break
        if stratified:
            # record i of the sorted data set goes to fold i % n_folds.
            size0 = _fold_sizes(n0, n_folds, k)
            start1 = n0 % n_folds  # fold of the first record of class 1
            size1 = _fold_sizes(n - n0, n_folds, (k - start1) % n_folds)
            f0 = rng.hypergeometric(rest[..., 0], rest[..., 1], size0)
            f1 = rng.hypergeometric(rest[..., 2], rest[..., 3], size1)
            fold = np.stack([f0, size0 - f0, f1, size1 - f1], axis=-1)
        else:
            size = _fold_sizes(n, n_folds, k)
            parts, left = [], size
            for c in range(3):
                x = rng.hypergeometric(
                    rest[..., c], rest[..., c + 1 :].sum(axis=-1), left
                )
                parts.append(x)
                left = left - x
            parts.append(left)
            fold = np.stack(parts, axis=-1)
        rest = rest - fold
        folds.append(fold)
    out = np.stack(folds, axis=-2)  # (..., m, K, 4)
    return out.reshape(out.shape[:-3] + (n_runs * n_folds, 4))


# --------------------------------------------------------------------------
# The two tests, batched
# --------------------------------------------------------------------------


def poisson_binomial_batch(split_differences, n_train, n_test, *, ties="half"):
    """``p_a_better`` of :func:`~sklearn_bcv.stats.poisson_binomial`, batched.

    ``split_differences`` (n_experiments, q, n_splits), ``n_train`` and
    ``n_test`` (n_experiments, q) or broadcastable. ``ties="half"`` is the
    registered test (a data set whose differences are all 0 has
    ``p_i = 1/2``); ``ties="b"`` counts it as a win of B (``p_i = 0``: with
    A = BN-hat and B = zeroR, a tie is a win of zeroR).
    """
    d = np.asarray(split_differences, dtype=np.float64)
    loc, scale, df = correlated_t_posterior(d, n_train, n_test, test="poisson_binomial")
    p_a, _, _ = _posterior_probabilities(loc, scale, df, 0.0)
    tie = (scale == 0) & (loc == 0)
    p = np.where(tie, 0.5 if ties == "half" else 0.0, p_a)
    p_a_better, _, _ = _outcome_probabilities(_poisson_binomial_pmf(p))
    return np.asarray(p_a_better)


def wilcoxon_batch(dataset_differences, *, alternative="greater"):
    """p-values of :func:`~sklearn_bcv.stats.wilcoxon` (``zero_method="wilcox"``)
    on each row of ``dataset_differences`` (n_experiments, q): the
    registered test itself, which takes a batch of comparisons (exact given
    each row's ties and zeros up to 50 data sets)."""
    d = np.asarray(dataset_differences, dtype=np.float64)
    return np.atleast_1d(wilcoxon(d, alternative=alternative).pvalue)


# --------------------------------------------------------------------------
# The simulation
# --------------------------------------------------------------------------


def _run_block(seed, size, n_datasets, n_runs, delta, design, options):
    rng = np.random.default_rng(seed)
    sizes = rng.choice(np.asarray(DATASET_SIZES), size=(size, n_datasets))
    if design == "cauchy":
        deltas = np.clip(
            delta + delta * rng.standard_cauchy((size, n_datasets)), -0.5, 0.5
        )
    else:
        deltas = np.full((size, n_datasets), float(delta))
    cells = draw_cells(sizes, deltas, rng)
    test = draw_folds(cells, n_runs, 10, rng, stratified=options["stratified"])
    uniforms = rng.random(test.shape[:-1])
    zeror, bn = fold_accuracies(
        cells[..., None, :],
        test,
        smoothing=options["smoothing"],
        zeror_ties=options["zeror_ties"],
        uniforms=uniforms,
    )
    d = bn - zeror  # A = BN-hat, B = zeroR
    n_test = sizes * (0.1 if options["rho"] is None else options["rho"])
    p_a = poisson_binomial_batch(d, sizes - n_test, n_test, ties=options["ties"])
    pvalue = wilcoxon_batch(d.mean(axis=-1), alternative="greater")
    alpha = options["alpha"]
    return {
        "poisson_binomial": int(np.count_nonzero(p_a > 1.0 - alpha)),
        "wilcoxon": int(np.count_nonzero(pvalue < alpha)),
        "all_ties": float(np.mean(np.all(d == 0, axis=-1))),
    }


class Seed002Result(Bunch):
    """Rejection rates of the Poisson-binomial and signed-rank tests.

    Returned by :func:`simulate_seed002`; ``rates[(m, test)]`` and
    ``ci[(m, test)]`` are arrays over ``deltas``.
    """

    def to_text(self, *, rst=False, digits=3):
        """One row per delta, one column per (runs, test): rate [interval]."""
        from ._paper import format_text_table

        name = {"poisson_binomial": "Poisson", "wilcoxon": "signed-rank"}
        columns = [(m, t) for m in self.n_runs for t in TESTS]
        header = ["delta-bar" if self.design == "cauchy" else "delta"] + [
            f"{name[t]}, m={m}" for m, t in columns
        ]
        rows = []
        for i, delta in enumerate(self.deltas):
            row = [f"{delta:g}"]
            for key in columns:
                low, high = self.ci[key][i]
                rate = self.rates[key][i]
                row.append(f"{rate:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]")
            rows.append(row)
        table = format_text_table(header, rows, rst=rst)
        if rst:
            return table
        return (
            f"Rejection rates (H1: BN-hat better, alpha = {self.alpha:g}) over "
            f"{self.n_experiments} experiments per cell, q = {self.n_datasets} "
            f"data sets, {self.design} delta; 95% Wilson intervals\n{table}"
        )

    def __repr__(self):
        return self.to_text()

    __str__ = __repr__


@validate_params(
    {
        "deltas": ["array-like", None],
        "n_runs": [list, tuple],
        "design": [StrOptions({"fixed", "cauchy"})],
        "smoothing": [Interval(Real, 0, None, closed="neither")],
        "zeror_ties": [StrOptions({"random", "first"})],
        "ties": [StrOptions({"half", "b"})],
        "stratified": ["boolean"],
        "rho": [Interval(Real, 0, 1, closed="neither"), None],
        "alpha": [Interval(Real, 0, 0.5, closed="neither")],
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def simulate_seed002(
    n_experiments=500,
    *,
    deltas=None,
    n_runs=(1, 10),
    n_datasets=50,
    design="fixed",
    smoothing=0.5,
    zeror_ties="random",
    ties="half",
    stratified=False,
    rho=None,
    alpha=0.05,
    n_jobs=None,
    random_state=None,
):
    """Corani & Benavoli 2015, §4.2–4.3: power of Poisson-binomial and signed-rank.

    Each experiment draws ``n_datasets`` data sets from the network
    ``C -> F`` (sizes uniform over {25, 50, 100, 250, 500, 1000},
    ``theta = 0.5 + delta``), runs ``m`` shuffled 10-fold CVs of zeroR and
    BN-hat on each, and tests one-sided at ``alpha`` whether BN-hat (A) is
    better than zeroR (B): :func:`~sklearn_bcv.stats.poisson_binomial`
    (``p_a_better > 1 - alpha``, on the ``10 m`` fold differences with
    ``n_test / n_train = 1/9`` of the data set's size, as Corani & Benavoli
    2015 does for
    m runs) and :func:`~sklearn_bcv.stats.wilcoxon` (``alternative=
    "greater"`` on the mean difference per data set).

    Parameters
    ----------
    n_experiments : int, default=500
        Experiments per (delta, m); Corani & Benavoli 2015 runs 5000. At most 100,000.
    deltas : array-like, default=None
        ``delta_acc`` (design "fixed", default 0, 0.01, ..., 0.1) or
        ``delta-bar`` (design "cauchy", default 0, ..., 0.05); at least
        one, each finite and in [-0.5, 0.5] (0.5 + delta is a probability).
    n_runs : tuple of int, default=(1, 10)
        The numbers m of runs of 10-fold CV; at least one, each in [1, 100].
    n_datasets : int, default=50
        q, 6 to 10,000; with the largest m, ``q × 10m × 4`` (the cell
        counts of one experiment's folds) at most 100,000, so that a block
        of 250 experiments holds at most 200 MB. Larger sizes are refused
        before any work.
    design : {"fixed", "cauchy"}, default="fixed"
        "fixed" (§4.2): the same delta on every data set; "cauchy" (§4.3):
        delta drawn per data set from a Cauchy with median = scale =
        delta-bar, capped at ±0.5.
    smoothing : float, default=0.5
        BN-hat's smoothing (:class:`BinaryNaiveBayes`).
    zeror_ties : {"random", "first"}, default="random"
        zeroR's tie rule (:class:`ZeroRClassifier`).
    ties : {"half", "b"}, default="half"
        A data set whose fold differences are all 0: half a win
        (the registered test) or a win of zeroR.
    stratified : bool, default=False
        Folds stratified by class (WEKA's round-robin deal of the sorted
        records) instead of KFold's.
    rho : float, default=None
        The split correlation the Poisson-binomial test assumes, passed as
        ``n_test = rho·n`` and ``n_train = (1 - rho)·n``; None is the usual
        ``n_test / n = 0.1`` for all ``10 m`` splits.
    alpha : float, default=0.05
    n_jobs : int, default=None
        Joblib workers over blocks of 250 experiments.
    random_state : int, RandomState instance or None, default=None

    Returns
    -------
    result : Seed002Result
        ``rates`` and ``ci`` (95% Wilson intervals), keyed by ``(m, test)``,
        arrays over ``deltas``; ``all_ties``, keyed by m, the mean share of
        data sets with all fold differences 0; ``elapsed`` seconds; and the
        inputs.
    """
    if deltas is None:
        deltas = CAUCHY_DELTAS if design == "cauchy" else FIXED_DELTAS
    # theta = 0.5 + delta is a probability.
    deltas = list(check_grid(deltas, "deltas", low=-0.5, high=0.5))
    n_runs = list(
        check_grid(
            n_runs,
            "n_runs",
            kind=Integral,
            low=1,
            high=MAX_RUNS,
            why=MORE_ONLY_COSTS_TIME,
        )
    )
    n_experiments = check_experiments(n_experiments, "n_experiments")
    n_datasets = check_integer(
        n_datasets,
        name="n_datasets",
        low=6,
        high=MAX_DATASETS,
        why=MORE_ONLY_COSTS_TIME,
    )
    cells = n_datasets * 10 * max(n_runs) * 4
    if cells > MAX_BLOCK_CELLS:
        raise ValueError(
            f"n_datasets × 10·max(n_runs) × 4 (the cell counts of one experiment's "
            f"folds) must be at most {MAX_BLOCK_CELLS:,}, as a block of {BLOCK} "
            f"experiments is drawn at once; got {cells:,} (n_datasets="
            f"{n_datasets}, n_runs up to {max(n_runs)})."
        )
    options = {
        "smoothing": smoothing,
        "zeror_ties": zeror_ties,
        "ties": ties,
        "stratified": bool(stratified),
        "rho": None if rho is None else float(rho),
        "alpha": alpha,
    }
    rng = check_random_state(random_state)
    sizes = [BLOCK] * (n_experiments // BLOCK)
    if n_experiments % BLOCK:
        sizes.append(n_experiments % BLOCK)
    tasks = []
    for m in n_runs:
        for i, delta in enumerate(deltas):
            for size in sizes:
                seed = int(rng.randint(np.iinfo(np.int32).max))
                tasks.append(((m, i), seed, size, delta, m))
    start = time.perf_counter()
    blocks = Parallel(n_jobs=worker_count(n_jobs, len(tasks)))(
        delayed(_run_block)(seed, size, n_datasets, m, delta, design, options)
        for _, seed, size, delta, m in tasks
    )
    elapsed = time.perf_counter() - start
    counts = {(m, t): np.zeros(len(deltas), dtype=int) for m in n_runs for t in TESTS}
    all_ties = {m: np.zeros(len(deltas)) for m in n_runs}
    for (key, _, size, _, m), block in zip(tasks, blocks):
        for t in TESTS:
            counts[(m, t)][key[1]] += block[t]
        all_ties[m][key[1]] += block["all_ties"] * size / n_experiments
    rates = {key: value / n_experiments for key, value in counts.items()}
    ci = {
        key: np.array([rejection_rate_interval(int(c), n_experiments) for c in value])
        for key, value in counts.items()
    }
    return Seed002Result(
        rates=rates,
        ci=ci,
        counts=counts,
        all_ties=all_ties,
        deltas=np.array(deltas),
        n_runs=tuple(n_runs),
        n_experiments=n_experiments,
        n_datasets=n_datasets,
        design=design,
        alpha=alpha,
        options=options,
        elapsed=elapsed,
    )
