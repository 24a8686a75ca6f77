"""Wang, Li & Li 2017, §3 (Tables 3 and 5): the calibrated 5×2 BCV F-test against
Alpaydın's combined 5×2 CV F-test on a poor partition and the blocked 3×2
BCV t-test.

Each replication draws a data set (Wang, Li & Li's two Gaussian classes,
:data:`~sklearn_bcv.datasets.TWO_GAUSSIANS_CASES`, ``n = 200``; or a real
data set taken as the population and partitioned afresh), fits two
learners on three designs of its own, and runs one test on each, as the
paper does: :func:`~sklearn_bcv.stats.combined_f_5x2cv` on a poorly
overlapping 5×2 CV (:class:`PoorPartition5x2CV`),
:func:`~sklearn_bcv.stats.blocked_t_3x2cv` on a 3×2 BCV and
:func:`~sklearn_bcv.stats.calibrated_f_5x2bcv` on a 5×2 BCV.

Every replication's data and seeds are drawn in the calling process from
its own seed, so the rates do not depend on ``n_jobs``, on the batching or
on the joblib backend (a dask cluster included). The least-squares fits of
the LS learner are solved for all the splits of a replication at once
(their normal equations), not fitted one by one.
"""

import time
import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.ensemble import AdaBoostClassifier, RandomForestClassifier
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LinearRegression, Perceptron
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeRegressor
from sklearn.utils import Bunch, check_random_state
from sklearn.utils.multiclass import unique_labels
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import check_is_fitted, validate_data

from .._checks import check_integer
from .._compat import HasMethods, Interval, validate_params
from .._engine._fit import worker_count
from .._split import BlockRegularized5x2CV, BlockRegularizedMx2CV
from ..datasets import TWO_GAUSSIANS_CASES, make_two_gaussians
from ..stats._registry import get_test
from ._checks import MAX_EXPERIMENTS, MAX_SEED001_RECORDS, check_experiments
from ._poor_partition import PoorPartition5x2CV
from ._result import rejection_rate_interval

__all__ = [
    "SEED001_PAIRS",
    "SEED001_TESTS",
    "Seed001Result",
    "TABLE3_PUBLISHED",
    "TABLE4_PUBLISHED",
    "TABLE5_PUBLISHED",
    "ThresholdedRegressor",
    "seed001_estimators",
    "simulate_seed001",
]

#: The three tests of Wang, Li & Li 2017, each on its own design, in the paper's order.
SEED001_TESTS = ("combined_f_5x2cv", "blocked_t_3x2cv", "calibrated_f_5x2bcv")
#: How the paper names them (F(10, 5), t(5), F(7, 5)).
TEST_LABELS = {
    "combined_f_5x2cv": "F 5x2CV (poor partition)",
    "blocked_t_3x2cv": "t B3x2CV",
    "calibrated_f_5x2bcv": "F B5x2CV",
}
#: The pairs of learners: Table 3's four, then Table 5's two new ones.
SEED001_PAIRS = {
    "rt_ls": "RT versus LS",
    "svm_rf": "SVM versus RF",
    "svm_ab": "SVM versus AB",
    "ab_rf": "AB versus RF",
    "svm_lda": "SVM versus LDA",
    "lda_rf": "LDA versus RF",
    "mlp3_mlp3": "MLP(3) versus MLP(3)",
    "mlp10_mlp10": "MLP(10) versus MLP(10)",
    "mlp20_mlp20": "MLP(20) versus MLP(20)",
    "lp_mlp3": "LP versus MLP(3)",
    "lp_mlp10": "LP versus MLP(10)",
    "lp_mlp20": "LP versus MLP(20)",
}
#: The real data sets of Table 5 that ship with scikit-learn.
REAL_DATASETS = ("iris", "wine")
#: Rough cost of one replication of a pair, in ms of one core (26 splits,
#: 52 fits on 100 records): sets how many replications one task runs.
_PAIR_COST_MS = {
    "rt_ls": 10,
    "svm_rf": 1700,
    "svm_ab": 1200,
    "ab_rf": 2800,
    "svm_lda": 80,
    "lda_rf": 1700,
    "mlp3_mlp3": 600,
    "mlp10_mlp10": 600,
    "mlp20_mlp20": 600,
    "lp_mlp3": 350,
    "lp_mlp10": 350,
    "lp_mlp20": 350,
}
#: About this long per joblib task: scheduling is then not the cost.
_TASK_MS = 2000


def _transcribed(text):
    """``{(pair, test): rates}`` from rows ``pair test rate rate ...``."""
    rows = (line.split() for line in text.strip().splitlines())
    return {(pair, test): tuple(map(float, rates)) for pair, test, *rates in rows}


#: Wang, Li & Li's Table 3, (pair, test) -> rejection rates of cases (1) .. (8),
#: 5000 replications each.
TABLE3_PUBLISHED = _transcribed(
    """
    rt_ls  combined_f_5x2cv     0.149 0.180 0.070 0.054 0.086 0.043 0.099 0.214
    rt_ls  blocked_t_3x2cv      0.145 0.205 0.048 0.043 0.078 0.040 0.094 0.241
    rt_ls  calibrated_f_5x2bcv  0.091 0.123 0.033 0.029 0.046 0.022 0.042 0.125
    svm_rf combined_f_5x2cv     0.073 0.433 0.135 0.060 0.058 0.097 0.038 0.074
    svm_rf blocked_t_3x2cv      0.069 0.507 0.131 0.067 0.034 0.108 0.027 0.047
    svm_rf calibrated_f_5x2bcv  0.062 0.410 0.112 0.046 0.029 0.081 0.012 0.053
    svm_ab combined_f_5x2cv     1.000 0.906 1.000 0.999 0.996 0.874 1.000 1.000
    svm_ab blocked_t_3x2cv      1.000 0.928 1.000 1.000 1.000 0.874 1.000 1.000
    svm_ab calibrated_f_5x2bcv  1.000 0.871 1.000 0.999 0.998 0.786 1.000 1.000
    ab_rf  combined_f_5x2cv     1.000 0.999 1.000 1.000 0.999 0.975 1.000 1.000
    ab_rf  blocked_t_3x2cv      1.000 0.999 1.000 1.000 0.999 0.901 1.000 1.000
    ab_rf  calibrated_f_5x2bcv  1.000 1.000 1.000 1.000 0.999 0.939 1.000 1.000
    """
)
#: Wang, Li & Li's Table 4 on the data sets that ship with scikit-learn, (pair,
#: test) -> (iris, wine) rejection rates: its type I errors for two MLPs of
#: equal hidden units, one minus its type II errors for LP against MLP;
#: nan where it has no such row (wine with 3 hidden units).
TABLE4_PUBLISHED = _transcribed(
    """
    mlp3_mlp3   combined_f_5x2cv     0.023 nan
    mlp3_mlp3   blocked_t_3x2cv      0.001 nan
    mlp3_mlp3   calibrated_f_5x2bcv  0.018 nan
    mlp10_mlp10 combined_f_5x2cv     0.006 0.034
    mlp10_mlp10 blocked_t_3x2cv      0.008 0.078
    mlp10_mlp10 calibrated_f_5x2bcv  0.008 0.030
    mlp20_mlp20 combined_f_5x2cv     0.008 0.019
    mlp20_mlp20 blocked_t_3x2cv      0.009 0.020
    mlp20_mlp20 calibrated_f_5x2bcv  0.007 0.019
    lp_mlp3     combined_f_5x2cv     0.962 nan
    lp_mlp3     blocked_t_3x2cv      0.999 nan
    lp_mlp3     calibrated_f_5x2bcv  0.958 nan
    lp_mlp10    combined_f_5x2cv     0.993 0.091
    lp_mlp10    blocked_t_3x2cv      0.991 0.062
    lp_mlp10    calibrated_f_5x2bcv  0.991 0.108
    lp_mlp20    combined_f_5x2cv     0.991 0.313
    lp_mlp20    blocked_t_3x2cv      0.991 0.299
    lp_mlp20    calibrated_f_5x2bcv  0.992 0.336
    """
)
#: Wang, Li & Li's Table 5 on the data sets that ship with scikit-learn,
#: (pair, test) -> (iris, wine).
TABLE5_PUBLISHED = _transcribed(
    """
    svm_rf  combined_f_5x2cv     0.039 0.040
    svm_rf  blocked_t_3x2cv      0.102 0.036
    svm_rf  calibrated_f_5x2bcv  0.032 0.035
    svm_lda combined_f_5x2cv     0.242 0.034
    svm_lda blocked_t_3x2cv      0.491 0.041
    svm_lda calibrated_f_5x2bcv  0.224 0.043
    lda_rf  combined_f_5x2cv     0.124 0.008
    lda_rf  blocked_t_3x2cv      0.057 0.001
    lda_rf  calibrated_f_5x2bcv  0.108 0.009
    """
)


# --------------------------------------------------------------------------
# The learners
# --------------------------------------------------------------------------


class ThresholdedRegressor(ClassifierMixin, BaseEstimator):
    """A binary classifier from a regressor of the 0/1 class: ``I[f(x) > t]``.

    Wang, Li & Li's RT and LS learners: a least-squares regression tree and
    ordinary least squares fitted to the class coded 0/1, predicting the
    second class where the regression exceeds ``threshold``.

    Parameters
    ----------
    regressor : regressor, default=None
        Fitted (a clone) to the class coded 0 (first class) / 1 (second);
        None is :class:`~sklearn.linear_model.LinearRegression`.
    threshold : float, default=0.5
        The second class is predicted where the regression exceeds it.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two classes.
    regressor_ : regressor
        The fitted regressor.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.simulation import ThresholdedRegressor
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> ThresholdedRegressor().fit(X, [0, 0, 1, 1]).predict([[0.2], [2.9]])
    array([0, 1])
    """

    _parameter_constraints = {
        "regressor": [HasMethods(["fit", "predict"]), None],
        "threshold": [Real],
    }

    def __init__(self, regressor=None, threshold=0.5):
        self.regressor = regressor
        self.threshold = threshold

    def fit(self, X, y):
        """Fit the regressor to ``y`` coded 0/1."""
        self._validate_params()
        X, y = validate_data(self, X, y)
        self.classes_ = unique_labels(y)
        if self.classes_.size != 2:
            raise ValueError(
                f"ThresholdedRegressor needs two classes in y; got {self.classes_}."
            )
        regressor = LinearRegression() if self.regressor is None else self.regressor
        target = (y == self.classes_[1]).astype(np.float64)
        self.regressor_ = clone(regressor).fit(X, target)
        return self

    def predict(self, X):
        """The second class where the regression exceeds ``threshold``."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        above = self.regressor_.predict(X) > self.threshold
        return self.classes_[above.astype(np.intp)]


def seed001_estimators(pair, *, random_state=None):
    """The two learners of a pair of Wang, Li & Li 2017, as scikit-learn estimators.

    The paper gives no settings; these are scikit-learn's defaults, except
    the regression tree, which follows R's ``rpart`` defaults (at least 20
    records to split a node, 7 in a leaf; no complexity pruning), the usual
    "least squares regression tree" of the authors' R environment, where
    scikit-learn's default grows the tree until every leaf is pure; and the
    SVM, which standardises the features first, as R's ``e1071::svm`` does
    by default (without it, an RBF SVM on wine, whose features range from
    0.1 to 1,000, errs on a third of the records).

    * RT: :class:`ThresholdedRegressor` of
      ``DecisionTreeRegressor(min_samples_split=20, min_samples_leaf=7)``;
    * LS: :class:`ThresholdedRegressor` of ``LinearRegression()`` (with an
      intercept);
    * SVM: ``make_pipeline(StandardScaler(), SVC())`` (Gaussian kernel,
      ``C=1``, ``gamma="scale"``);
    * RF: ``RandomForestClassifier()`` (100 trees);
    * AB: ``AdaBoostClassifier()`` (50 stumps);
    * LDA: ``LinearDiscriminantAnalysis()``;
    * MLP(h) (Table 4): ``make_pipeline(StandardScaler(),
      MLPClassifier(hidden_layer_sizes=(h,), solver="lbfgs", max_iter=100))``,
      one hidden layer of h units trained by quasi-Newton for at most 100
      iterations, as R's ``nnet`` does by default (Adam's default 200 steps
      leave it far from trained on 75 records: 45% error on iris with 3
      units, against 6%);
    * LP (Table 4, the single-layer perceptron):
      ``make_pipeline(StandardScaler(), Perceptron())``.

    Two learners of the same kind (``"mlp10_mlp10"``) get different seeds
    (``random_state`` and ``random_state + 1``). :func:`simulate_seed001`
    goes further and draws fresh randomness for every fit, so that two
    copies of one algorithm have exactly equal expected errors.

    Parameters
    ----------
    pair : str
        A key of :data:`SEED001_PAIRS`: ``"rt_ls"``, ``"svm_rf"``,
        ``"svm_ab"``, ``"ab_rf"`` (Table 3), ``"svm_lda"``, ``"lda_rf"``
        (Table 5), ``"mlp{h}_mlp{h}"`` and ``"lp_mlp{h}"`` for h in 3, 10,
        20 (Table 4).
    random_state : int, default=None
        Seeds the randomised learners (RT's ties, RF, AB).

    Returns
    -------
    estimator_a, estimator_b : estimators
    """
    if pair not in SEED001_PAIRS:
        raise ValueError(f"pair must be one of {list(SEED001_PAIRS)}; got {pair!r}.")
    learners = {
        "rt": lambda: ThresholdedRegressor(
            DecisionTreeRegressor(
                min_samples_split=20, min_samples_leaf=7, random_state=random_state
            )
        ),
        "ls": lambda: ThresholdedRegressor(LinearRegression()),
        "svm": lambda: make_pipeline(StandardScaler(), SVC()),
        "rf": lambda: RandomForestClassifier(random_state=random_state),
        "ab": lambda: AdaBoostClassifier(random_state=random_state),
        "lda": lambda: LinearDiscriminantAnalysis(),
        "lp": lambda: make_pipeline(
            StandardScaler(), Perceptron(random_state=random_state)
        ),
    }
    for units in (3, 10, 20):
        learners[f"mlp{units}"] = lambda units=units: make_pipeline(
            StandardScaler(),
            MLPClassifier(
                hidden_layer_sizes=(units,),
                solver="lbfgs",
                max_iter=100,
                random_state=random_state,
            ),
        )
    first, second = pair.split("_")
    estimator_a = learners[first]()
    if first == second and random_state is not None:
        random_state += 1  # the same algorithm from another initialisation
    return estimator_a, learners[second]()


# --------------------------------------------------------------------------
# One batch of replications
# --------------------------------------------------------------------------


def _designs(seeds, n_swapped):
    """The three designs of one replication, each from its own seed."""
    return (
        PoorPartition5x2CV(n_swapped=n_swapped, random_state=int(seeds[0])),
        BlockRegularizedMx2CV(n_repeats=3, random_state=int(seeds[1])),
        BlockRegularized5x2CV(random_state=int(seeds[2])),
    )


def _least_squares_errors(X, y, splits):
    """Test errors of OLS thresholded at 0.5 on every split, at once.

    The normal equations of the ``s`` training sets are built from their
    0/1 membership (``(s, n)``) and solved together; the same numbers as
    fitting ``ThresholdedRegressor(LinearRegression())`` on each split.
    """
    design = np.column_stack([np.ones(len(X)), X])
    train = np.zeros((len(splits), len(X)))
    test = np.zeros((len(splits), len(X)), dtype=bool)
    for i, (tr, te) in enumerate(splits):
        train[i, tr] = 1.0
        test[i, te] = True
    target = (y == np.unique(y)[-1]).astype(np.float64)
    gram = np.einsum("sn,ni,nj->sij", train, design, design)
    moments = np.einsum("sn,ni,n->si", train, design, target)
    coef = np.linalg.solve(gram, moments[..., None])[..., 0]
    predicted = (design @ coef.T).T > 0.5  # (s, n)
    wrong = predicted != (target > 0.5)
    return (wrong & test).sum(axis=1) / test.sum(axis=1)


def _reseeded(estimator, seed):
    """A clone of ``estimator`` whose every ``random_state`` is ``seed``."""
    names = [
        name
        for name in estimator.get_params()
        if name == "random_state" or name.endswith("__random_state")
    ]
    return clone(estimator).set_params(**dict.fromkeys(names, seed))


def _errors(estimator, X, y, splits, seeds):
    """Test errors of ``estimator`` fitted on every split.

    Each fit draws its own randomness (``seeds[i]`` for split ``i``): a
    randomised learner is the algorithm with its random choices, drawn
    afresh every time it is trained, as in the paper's R code, so two copies
    of one algorithm (``"mlp10_mlp10"``) have equal expected errors.
    """
    if isinstance(estimator, ThresholdedRegressor) and isinstance(
        estimator.regressor, LinearRegression
    ):
        return _least_squares_errors(X, y, splits)
    errors = np.empty(len(splits))
    with warnings.catch_warnings():
        # A fixed budget of training is the learner (MLP's 100 iterations).
        warnings.simplefilter("ignore", ConvergenceWarning)
        for i, (train, test) in enumerate(splits):
            fitted = _reseeded(estimator, int(seeds[i])).fit(X[train], y[train])
            errors[i] = np.mean(fitted.predict(X[test]) != y[test])
    return errors


def _run_batch(pair, datasets, seeds, n_swapped, alpha):
    """Each test's results and the learners' errors, for a batch.

    ``datasets`` is a list of ``(X, y)``; ``seeds`` an int array
    ``(batch, 4)``: the three designs' and the learners'. Returns
    ``(results, mean_errors)``: ``results[test]`` holds the ``reject``,
    ``pvalue`` and mean difference ``dbar`` of every replication.
    """
    differences = {test: [] for test in SEED001_TESTS}
    mean_errors = np.empty((len(datasets), 2))
    for r, ((X, y), seed) in enumerate(zip(datasets, seeds)):
        estimators = seed001_estimators(pair)
        # Fresh randomness for every fit: (learner, design, split) seeds.
        fit_seeds = (
            np.random.SeedSequence(int(seed[3]))
            .generate_state(2 * 3 * 10)
            .reshape(2, 3, 10)
        )
        for t, (test, cv) in enumerate(zip(SEED001_TESTS, _designs(seed, n_swapped))):
            splits = list(cv.split(X, y))
            err_a, err_b = (
                _errors(est, X, y, splits, fit_seeds[j, t])
                for j, est in enumerate(estimators)
            )
            differences[test].append(err_b - err_a)  # accuracy of A - of B
            if test == "calibrated_f_5x2bcv":
                mean_errors[r] = err_a.mean(), err_b.mean()
    results = {}
    for test in SEED001_TESTS:
        d = np.array(differences[test])
        ran = get_test(test)(differences=d, alpha=alpha)
        results[test] = {
            "reject": np.atleast_1d(ran.reject),
            "pvalue": np.atleast_1d(ran.pvalue),
            "dbar": d.mean(axis=-1),
        }
    return results, mean_errors


# --------------------------------------------------------------------------
# The data sets and the runner
# --------------------------------------------------------------------------


def _real_dataset(name):
    from sklearn import datasets

    return getattr(datasets, f"load_{name}")(return_X_y=True)


def _case_key(case):
    return case if isinstance(case, str) else int(case)


def _check_cases(cases):
    cases = list(cases)
    if not cases:
        raise ValueError("cases must name at least one case.")
    valid = [*TWO_GAUSSIANS_CASES, *REAL_DATASETS]
    for case in cases:
        if isinstance(case, bool) or case not in valid:
            raise ValueError(f"cases must be among {valid}; got {case!r}.")
    cases = [_case_key(case) for case in cases]
    if len(set(cases)) < len(cases):
        raise ValueError(f"cases must name each case once; got {cases}.")
    return cases


def _check_pairs(pairs):
    pairs = [pairs] if isinstance(pairs, str) else list(pairs)
    if not pairs:
        raise ValueError("pairs must name at least one pair.")
    for pair in pairs:
        if pair not in SEED001_PAIRS:
            raise ValueError(
                f"pairs must be among {list(SEED001_PAIRS)}; got {pair!r}."
            )
    if len(set(pairs)) < len(pairs):
        raise ValueError(f"pairs must name each pair once; got {pairs}.")
    return pairs


def _batch_size(pair, batch_size, n_repetitions):
    if batch_size is None:
        batch_size = max(1, round(_TASK_MS / _PAIR_COST_MS[pair]))
    return min(batch_size, n_repetitions)


class Seed001Result(Bunch):
    """Rejection rates of Wang, Li & Li's three tests, by (pair, case, test).

    ``rates``, ``counts``, ``ci`` (95% Wilson intervals), ``rejected``
    (whether each replication rejected, for paired comparisons of the
    tests), ``pvalues`` (each replication's p-value: the rates at another
    level, without another run) and ``dbar`` (each replication's mean
    difference of accuracy, A - B, on the test's own design) are dicts
    keyed by ``(pair, case, test)``; ``mean_errors`` by
    ``(pair, case)`` holds
    the learners' mean 5×2 BCV test errors (A, B); ``elapsed`` seconds.
    """

    def published(self, pair, case, test):
        """The paper's rate for the cell, or None."""
        if isinstance(case, str):
            column = REAL_DATASETS.index(case)
            values = TABLE5_PUBLISHED.get((pair, test)) or TABLE4_PUBLISHED.get(
                (pair, test)
            )
        else:
            column = case - 1
            values = TABLE3_PUBLISHED.get((pair, test))
        if values is None or np.isnan(values[column]):
            return None
        return values[column]

    def to_text(self, *, rst=False, digits=3):
        """One block of rows per pair: each test's rate ± the half-width of
        its 95% interval, the paper's rate below it."""
        from ._paper import format_text_table

        header = ["pair", "test"] + [
            f"({case})" if isinstance(case, int) else case for case in self.cases
        ]
        rows = []
        for pair in self.pairs:
            errors = [
                "{:.2f}/{:.2f}".format(*self.mean_errors[(pair, case)])
                for case in self.cases
            ]
            rows.append([SEED001_PAIRS[pair], "errors A/B"] + errors)
            for test in SEED001_TESTS:
                cells, paper = [], []
                for case in self.cases:
                    low, high = self.ci[(pair, case, test)]
                    half = (high - low) / 2
                    cells.append(
                        f"{self.rates[(pair, case, test)]:.{digits}f}±{half:.{digits}f}"
                    )
                    value = self.published(pair, case, test)
                    paper.append("" if value is None else f"{value:.{digits}f}")
                rows.append(["", TEST_LABELS[test]] + cells)
                rows.append(["", "  paper"] + paper)
        table = format_text_table(header, rows, rst=rst)
        if rst:
            return table
        return (
            f"Rejection rates at alpha = {self.alpha:g} over {self.n_repetitions} "
            f"replications per cell (± half of the 95% Wilson interval), "
            f"n = {self.n_samples} for the Gaussian cases, k = "
            f"{self.n_swapped or 'n/20'} records swapped in the poor partition\n"
            f"{table}"
        )

    def __repr__(self):
        return self.to_text()

    __str__ = __repr__


@validate_params(
    {
        "pairs": [str, list, tuple],
        "cases": [list, tuple],
        "n_swapped": [Interval(Integral, 1, None, closed="left"), None],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "batch_size": [Interval(Integral, 1, MAX_EXPERIMENTS, closed="both"), None],
        "n_jobs": [Integral, None],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def simulate_seed001(
    n_repetitions=100,
    *,
    pairs=("rt_ls", "svm_rf", "svm_ab", "ab_rf"),
    cases=tuple(TWO_GAUSSIANS_CASES),
    n_samples=200,
    n_swapped=None,
    alpha=0.05,
    batch_size=None,
    n_jobs=None,
    random_state=None,
):
    """Wang, Li & Li 2017, §3: rejection rates of the three tests of Tables 3 and 5.

    In every replication of a case, a data set is drawn (the two Gaussian
    classes of case 1–8 of Table 3, ``n_samples`` records; or ``"iris"``
    / ``"wine"``, the whole data set, partitioned afresh as in Table 5),
    and each pair of learners (:func:`seed001_estimators`) is compared
    with the three tests of the paper, each on its own design:
    :func:`~sklearn_bcv.stats.combined_f_5x2cv` on a
    :class:`PoorPartition5x2CV` (``n_swapped`` records exchanged, ``n/20``
    by default), :func:`~sklearn_bcv.stats.blocked_t_3x2cv` on a
    ``BlockRegularizedMx2CV(n_repeats=3)`` and
    :func:`~sklearn_bcv.stats.calibrated_f_5x2bcv` on a
    :class:`~sklearn_bcv.BlockRegularized5x2CV`. All the pairs of a
    replication see the same data set and the same three partitions.

    Parameters
    ----------
    n_repetitions : int, default=100
        Replications per case; Wang, Li & Li 2017 runs 5000. At most 100,000.
    pairs : str or sequence of str, default=("rt_ls", "svm_rf", "svm_ab", "ab_rf")
        Keys of :data:`SEED001_PAIRS`: ``"rt_ls"``, ``"svm_rf"``,
        ``"svm_ab"``, ``"ab_rf"`` (Table 3), ``"svm_lda"``, ``"lda_rf"``
        (Table 5), ``"mlp{h}_mlp{h}"`` and ``"lp_mlp{h}"``, h in 3, 10, 20
        (Table 4).
    cases : sequence, default=(1, ..., 8)
        Table 3's cases (keys of
        :data:`~sklearn_bcv.datasets.TWO_GAUSSIANS_CASES`) and ``"iris"``,
        ``"wine"``.
    n_samples : int, default=200
        Records of a Gaussian case's data set, 8 to 10,000 (the SVMs' fits
        grow quadratically with it; Wang, Li & Li 2017 uses 200). Larger sizes are
        refused before any fit.
    n_swapped : int, default=None
        ``k`` of the poor partition; None is ``n // 20``.
    alpha : float, default=0.05
    batch_size : int, default=None
        Replications per joblib task; None aims at about two seconds of
        fitting per task.
    n_jobs : int, default=None
        Joblib workers (any backend, e.g. dask through
        :func:`joblib.parallel_config`).
    random_state : int, RandomState instance or None, default=None
        Seeds every replication (its data, designs and learners).

    Returns
    -------
    result : Seed001Result
        ``rates``, ``counts``, ``ci``, ``rejected``, ``pvalues``, ``dbar`` by
        ``(pair, case, test)``; ``mean_errors`` by ``(pair, case)``;
        ``elapsed``; the inputs.

    Examples
    --------
    >>> from sklearn_bcv.simulation import simulate_seed001
    >>> result = simulate_seed001(20, pairs="rt_ls", cases=[3], random_state=0)
    >>> sorted(test for (_, _, test) in result.rates)
    ['blocked_t_3x2cv', 'calibrated_f_5x2bcv', 'combined_f_5x2cv']
    """
    pairs = _check_pairs(pairs)
    cases = _check_cases(cases)
    n_repetitions = check_experiments(n_repetitions, "n_repetitions")
    n_samples = check_integer(
        n_samples,
        name="n_samples",
        low=8,
        high=MAX_SEED001_RECORDS,
        why="the SVMs' fits grow quadratically with the records",
    )
    rng = check_random_state(random_state)
    entropy = int(rng.randint(np.iinfo(np.int32).max))
    real = {case: _real_dataset(case) for case in cases if isinstance(case, str)}

    def replication_seeds(case):
        key = REAL_DATASETS.index(case) + 100 if isinstance(case, str) else case
        sequence = np.random.SeedSequence([entropy, key])
        return sequence.generate_state(5 * n_repetitions).reshape(n_repetitions, 5)

    seeds = {case: replication_seeds(case) for case in cases}

    def data(case, rows):
        if isinstance(case, str):
            return [real[case]] * len(rows)
        return [
            make_two_gaussians(
                n_samples,
                **TWO_GAUSSIANS_CASES[case],
                random_state=int(seeds[case][r, 4]),
            )
            for r in rows
        ]

    tasks = []
    for pair in pairs:
        size = _batch_size(pair, batch_size, n_repetitions)
        for case in cases:
            for first in range(0, n_repetitions, size):
                tasks.append(
                    (pair, case, range(first, min(first + size, n_repetitions)))
                )
    start = time.perf_counter()
    outputs = Parallel(n_jobs=worker_count(n_jobs, len(tasks)))(
        delayed(_run_batch)(
            pair,
            data(case, rows),
            seeds[case][rows.start : rows.stop, :4],
            n_swapped,
            alpha,
        )
        for pair, case, rows in tasks
    )
    elapsed = time.perf_counter() - start
    keys = [(p, c, t) for p in pairs for c in cases for t in SEED001_TESTS]
    rejected = {key: np.zeros(n_repetitions, dtype=bool) for key in keys}
    pvalues = {key: np.zeros(n_repetitions) for key in keys}
    dbar = {key: np.zeros(n_repetitions) for key in keys}
    errors = {(p, c): np.zeros(2) for p in pairs for c in cases}
    for (pair, case, rows), (batch, mean_errors) in zip(tasks, outputs):
        for test in SEED001_TESTS:
            done = slice(rows.start, rows.stop)
            rejected[(pair, case, test)][done] = batch[test]["reject"]
            pvalues[(pair, case, test)][done] = batch[test]["pvalue"]
            dbar[(pair, case, test)][done] = batch[test]["dbar"]
        errors[(pair, case)] += mean_errors.sum(axis=0) / n_repetitions
    counts = {key: int(rejected[key].sum()) for key in keys}
    rates = {key: count / n_repetitions for key, count in counts.items()}
    ci = {
        key: rejection_rate_interval(count, n_repetitions)
        for key, count in counts.items()
    }
    return Seed001Result(
        rates=rates,
        counts=counts,
        rejected=rejected,
        pvalues=pvalues,
        dbar=dbar,
        ci=ci,
        mean_errors=errors,
        pairs=tuple(pairs),
        cases=tuple(cases),
        n_repetitions=n_repetitions,
        n_samples=n_samples,
        n_swapped=n_swapped,
        alpha=alpha,
        elapsed=elapsed,
    )
