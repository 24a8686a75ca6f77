"""Type I error and power of the tests with learners fitted on generated data.

Every repetition draws a fresh data set, fits both estimators on the splits
of the design and runs the tests through
:func:`~sklearn_bcv.compare_estimators` (the one statistics path); the
repetitions run in one joblib pool.
"""

import copy
import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.model_selection import check_cv
from sklearn.utils import check_random_state
from sklearn.utils.parallel import Parallel, delayed

from .._compare import compare_estimators
from .._compat import HasMethods, Interval, StrOptions, validate_params
from .._constants import ALTERNATIVES
from .._engine._design import describe_design
from .._engine._fit import worker_count
from .._engine._plan import plan_tests
from .._engine._validation import task_of_estimators
from .._split import BlockRegularized5x2CV
from ._checks import check_experiments
from ._result import CI_METHODS, build_result

__all__ = ["simulate_comparisons"]

_SEED_BOUND = np.iinfo(np.int32).max
# Warned once by the parent; silenced in the repetitions.
_DESIGN_WARNING = r".* is derived for block-regularized m×2 splits"


def _seeded_cv(cv, seed):
    """A copy of ``cv`` whose randomness comes from ``seed``.

    ``None`` is the default block-regularized 5×2 CV; a splitter with a
    ``random_state`` (and, if it has one, ``shuffle=True``) gets ``seed``;
    others (ints, unshuffled k-fold) are deterministic and kept as they are.
    """
    if cv is None:
        return BlockRegularized5x2CV(random_state=seed)
    if hasattr(cv, "random_state") and getattr(cv, "shuffle", True):
        cv = copy.deepcopy(cv)
        cv.random_state = seed
    return cv


def _check_data(data, repetition):
    if not (isinstance(data, tuple | list) and len(data) == 2):
        raise ValueError(
            "make_data must return a pair (X, y); repetition "
            f"{repetition} returned {type(data).__name__}."
        )
    return data


def _one_repetition(
    make_data,
    estimator_a,
    estimator_b,
    cv,
    tests,
    scoring,
    alpha,
    alternative,
    data_seed,
    cv_seed,
    repetition,
):
    X, y = _check_data(make_data(random_state=data_seed), repetition)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_DESIGN_WARNING, category=UserWarning)
        result = compare_estimators(
            estimator_a,
            estimator_b,
            X,
            y,
            cv=_seeded_cv(cv, cv_seed),
            tests=tests,
            scoring=scoring,
            alpha=alpha,
            alternative=alternative,
            n_jobs=1,
            random_state=cv_seed,
            return_predictions=False,
        )
    return {
        name: (
            bool(test.reject),
            None if test.pvalue is None else float(test.pvalue),
            None if np.ndim(test.get("statistic")) != 0 else float(test.statistic),
        )
        for name, test in result.tests.items()
    }


def _planned_names(make_data, estimator_a, estimator_b, cv, tests, seeds, alternative):
    """Check the design and the tests once, on the first repetition's data."""
    X, y = _check_data(make_data(random_state=int(seeds[0, 0])), 0)
    y = np.asarray(y)
    task = task_of_estimators(
        [("estimator_a", estimator_a), ("estimator_b", estimator_b)], y
    )
    cv = check_cv(
        _seeded_cv(cv, int(seeds[0, 1])), y, classifier=task == "classification"
    )
    splits = list(cv.split(X, y))
    design = describe_design(splits, len(y), cv=cv)
    plan, _ = plan_tests(tests, design, task, alternative=alternative)
    return [test.name for test in plan], design


@validate_params(
    {
        "make_data": [callable],
        "estimator_a": [HasMethods(["fit", "predict"])],
        "estimator_b": [HasMethods(["fit", "predict"])],
        "cv": ["cv_object"],
        "tests": [str, list, tuple, dict, None],
        "scoring": [str, callable, None],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "alternative": [StrOptions(set(ALTERNATIVES))],
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "ci_method": [StrOptions(set(CI_METHODS))],
        "n_jobs": [Integral, None],
        "verbose": ["verbose"],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def simulate_comparisons(
    make_data,
    estimator_a,
    estimator_b,
    *,
    cv=None,
    tests=None,
    n_repetitions=100,
    scoring=None,
    alpha=0.05,
    alternative="two-sided",
    confidence_level=0.95,
    ci_method="wilson",
    n_jobs=None,
    verbose=0,
    random_state=None,
):
    """Rejection rates of the tests when two estimators are compared repeatedly.

    Every repetition draws a data set with ``make_data``, compares clones of
    the two estimators on it with :func:`~sklearn_bcv.compare_estimators`
    (design ``cv``) and records each test's decision. With equally good
    estimators the rates are type I errors; otherwise they are powers.

    Parameters
    ----------
    make_data : callable
        ``make_data(random_state=seed) -> (X, y)`` draws one data set, e.g.
        ``functools.partial(make_simple, n_samples=1000, delta=0.5)``.
    estimator_a, estimator_b : estimator objects implementing fit and predict
        The two learning algorithms (cloned, never fitted in place).
    cv : int, cross-validation generator or None, default=None
        The design of every repetition. ``None`` is
        :class:`~sklearn_bcv.BlockRegularized5x2CV`. A splitter with a
        ``random_state`` gets a fresh seed in every repetition.
    tests : str, list of str or dict, default=None
        As in :func:`~sklearn_bcv.compare_estimators` (``None``: every
        registered test applicable to the design and task).
    n_repetitions : int, default=100
        Number of simulated data sets, 1 to 100,000 (refused before any fit
        beyond).
    scoring : str or callable, default=None
        Scoring of the score differences (accuracy or r2 by default), as in
        :func:`~sklearn_bcv.compare_estimators`.
    alpha : float, default=0.05
        Significance level of every test.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        Passed to every test.
    confidence_level : float, default=0.95
        Level of the rates' confidence intervals.
    ci_method : {"wilson", "exact", "wilsoncc"}, default="wilson"
        Binomial interval (see :func:`rejection_rate_interval`).
    n_jobs : int, default=None
        Repetitions run in parallel in one joblib pool
        (:class:`sklearn.utils.parallel.Parallel`); each repetition fits its
        splits serially. ``None`` means 1 unless in a
        :func:`joblib.parallel_config` context.
    verbose : int, default=0
        joblib's progress messages when > 0.
    random_state : int, RandomState instance or None, default=None
        Draws, in the calling process, one data seed and one split seed per
        repetition, so the result does not depend on ``n_jobs`` or the joblib
        backend. Calls with the same ``random_state`` and ``n_repetitions``
        see the same data sets, whatever the design (common random numbers
        across designs).

    Returns
    -------
    result : SimulationResult
        A :class:`~sklearn.utils.Bunch` with the fields ``tests``, ``rates``,
        ``ci``, ``n_rejections``, ``n_repetitions``, ``rejections``,
        ``pvalues``, ``statistics``, ``design``, ``alpha``, ``alternative``,
        ``confidence_level`` and ``ci_method`` described in
        :func:`simulate_loss_vectors`, plus ``seeds``, the
        (n_repetitions, 2) data and split seeds.

    See Also
    --------
    simulate_loss_vectors : Loss vectors without learners, vectorised.
    sklearn_bcv.compare_estimators : One comparison.

    Examples
    --------
    Logistic regression against the majority class on the "simple" data set
    with no signal (``delta=0``): a rejection is a type I error.

    >>> from functools import partial
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_bcv.datasets import make_simple
    >>> from sklearn_bcv.simulation import simulate_comparisons
    >>> result = simulate_comparisons(
    ...     partial(make_simple, n_samples=200, delta=0.0),
    ...     LogisticRegression(), DummyClassifier(),
    ...     tests=["bcv_mcnemar", "calibrated_f_5x2bcv"],
    ...     n_repetitions=20, random_state=0)
    >>> result.n_repetitions, sorted(result.rates)
    (20, ['bcv_mcnemar', 'calibrated_f_5x2bcv'])
    >>> result.rates["bcv_mcnemar"]
    0.0
    """
    n_repetitions = check_experiments(n_repetitions, "n_repetitions")
    rng = check_random_state(random_state)
    seeds = rng.randint(_SEED_BOUND, size=(n_repetitions, 2))
    names, design = _planned_names(
        make_data, estimator_a, estimator_b, cv, tests, seeds, alternative
    )
    outputs = Parallel(n_jobs=worker_count(n_jobs, n_repetitions), verbose=verbose)(
        delayed(_one_repetition)(
            make_data,
            estimator_a,
            estimator_b,
            cv,
            tests,
            scoring,
            alpha,
            alternative,
            int(data_seed),
            int(cv_seed),
            repetition,
        )
        for repetition, (data_seed, cv_seed) in enumerate(seeds)
    )
    rejections, pvalues, statistics = {}, {}, {}
    for name in names:
        decisions = [output[name] for output in outputs]
        rejections[name] = np.array([reject for reject, _, _ in decisions])
        pvalues[name] = (
            None
            if any(pvalue is None for _, pvalue, _ in decisions)
            else np.array([pvalue for _, pvalue, _ in decisions])
        )
        statistics[name] = (
            None
            if any(statistic is None for _, _, statistic in decisions)
            else np.array([statistic for _, _, statistic in decisions])
        )
    result = build_result(
        rejections=rejections,
        pvalues=pvalues,
        statistics=statistics,
        design=design.describe(),
        alpha=alpha,
        alternative=alternative,
        confidence_level=confidence_level,
        ci_method=ci_method,
    )
    result.seeds = seeds
    return result
