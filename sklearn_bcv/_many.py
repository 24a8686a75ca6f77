"""Compare many estimators on one data set from one set of fits.

:func:`compare_many_estimators` fits each of k estimators once per split in
one joblib pool (k × n_splits fits, never one fit per pair) and
:func:`compare_many_predictions` takes predictions made elsewhere; both run
the omnibus tests of k estimators (Cochran's Q, Looney's F, their
block-regularized extension) and the two-estimator tests on every pair, or
on every estimator against a control, with the pairwise p-values adjusted
for multiplicity. The pairs come from the same store of predictions as
:func:`compare_estimators` uses, so every pair's numbers are the ones
:func:`compare_estimators` gives on the same splits.
"""

import os
from numbers import Integral, Real

from ._compat import HasMethods, Interval, StrOptions, validate_params
from ._constants import ALTERNATIVES, CLASSIFICATION, REGRESSION
from ._engine._plan import check_tests_argument, plan_many
from ._engine._prepare import fit_prepared, prepare_fits, store_predictions
from ._engine._validation import (
    check_estimator_list,
    check_names_subset,
    named_items,
)
from ._results import ManyComparisonResult, build_many_result
from ._results._methods import (
    GIVEN_SPLITTER,
    describe_cv,
    make_provenance,
    uses_pandas,
)
from ._store import StudyStore, call_seed, opened_store
from .stats._corrections import CORRECTIONS, check_family

__all__ = [
    "ManyComparisonResult",
    "compare_many_estimators",
    "compare_many_predictions",
]

_SHARED_PARAMETERS = {
    "tests": [str, list, tuple, dict, None],
    "pairwise_tests": [str, list, tuple, dict, None],
    "correction": [StrOptions(set(CORRECTIONS)), None],
    "control": [str, None],
    "scoring": [str, callable, None],
    "alpha": [Interval(Real, 0, 1, closed="neither")],
    "alternative": [StrOptions(set(ALTERNATIVES))],
}


@validate_params(
    {
        # A fitted search gets a message naming compare_search.
        "estimators": [list, tuple, dict, HasMethods("fit")],
        "X": ["array-like", "sparse matrix"],
        "y": ["array-like"],
        "cv": ["cv_object"],
        **_SHARED_PARAMETERS,
        "groups": ["array-like", None],
        "n_jobs": [Integral, None],
        "verbose": ["verbose"],
        "random_state": ["random_state"],
        "error_score": [StrOptions({"raise"}), Real],
        "return_predictions": ["boolean"],
        "params": [dict, None],
        "store": [str, os.PathLike, StudyStore, None],
    },
    prefer_skip_nested_validation=False,  # the estimators are not validated yet
)
def compare_many_estimators(
    estimators,
    X,
    y,
    *,
    cv=None,
    tests=None,
    pairwise_tests=None,
    correction="holm",
    control=None,
    scoring=None,
    alpha=0.05,
    alternative="two-sided",
    groups=None,
    n_jobs=None,
    verbose=0,
    random_state=None,
    error_score="raise",
    return_predictions=True,
    params=None,
    store=None,
):
    """Fit k estimators once per split and compare them all with sound tests.

    Clones of every estimator are fitted on every split of one list of
    splits (by default a block-regularized 5×2 CV), in one joblib pool:
    k × n_splits fits, however many pairs are compared. An omnibus test asks
    whether any of the k estimators differ; two-estimator tests on every
    pair (or on every estimator against ``control``), with their p-values
    adjusted for multiplicity, say which.

    Parameters
    ----------
    estimators : list of (str, estimator) tuples or dict of str to estimator
        The learning algorithms, named (as in
        :class:`~sklearn.ensemble.VotingClassifier`); at least two, names
        unique. Each is cloned for every split, never fitted in place; all
        classifiers or all regressors.
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
        The data.
    y : array-like of shape (n_samples,)
        The target.
    cv : int, cross-validation generator or iterable, default=None
        ``None`` is ``BlockRegularized5x2CV(random_state=random_state)``;
        otherwise any sklearn cv spec (see
        :func:`~sklearn.model_selection.check_cv`). The splits are generated
        once and shared by every estimator.
    tests : str, list of str or dict, default=None
        The omnibus tests (``available_tests(kind="many")``): ``None`` runs
        those applicable to the design and task (``bcv_cochran_q`` on an
        m×2 BCV, ``cochran_q`` and ``looney_f`` on one hold-out split; they
        need class labels); a name, a list of names, or ``{name: {param:
        value}}``. They ask whether any of the estimators differ, so they are
        two-sided whatever ``alternative`` says.
    pairwise_tests : str, list of str or dict, default=None
        Two-estimator tests (``available_tests()``) run on every pair, or on
        every estimator against ``control``. ``None`` is the test
        :func:`compare_estimators` recommends for the design (its verdict
        test); ``[]`` runs none.
    correction : str or None, default="holm"
        Multiplicity correction of each pairwise test's p-values, over the
        pairs it is run on: ``"holm"``, ``"bonferroni"``, ``"hochberg"``,
        ``"hommel"``, ``"finner"``, ``"li"``, ``"holland"``, ``"rom"``,
        ``"fdr_bh"``, and for all pairs (no ``control``) ``"shaffer"`` and
        ``"bergmann"`` (see :func:`~sklearn_bcv.stats.adjust_pvalues`).
        Bayesian tests give posterior probabilities and are not corrected.
    control : str, default=None
        Name of the estimator every other one is compared with
        (all-against-one: k − 1 pairs instead of k(k − 1)/2).
    scoring : str, callable or scorer, default=None
        As in :func:`compare_estimators` (accuracy for classifiers, r2 for
        regressors).
    alpha : float, default=0.05
        Significance level of every test and of the adjusted p-values.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        Of the pairwise tests (the omnibus tests are two-sided), with A the
        first of a pair in ``names`` order (or the other estimator against
        ``control``): ``"greater"`` tests "A better than B".
    groups : array-like of shape (n_samples,), default=None
        Group labels passed to the splitter (when metadata routing is off).
    n_jobs : int, default=None
        Number of jobs fitting in parallel over (estimator, split) pairs,
        capped at the number of fits (and at the number of cores for
        joblib's local process backends); 0 is refused.
    verbose : int, default=0
        ``> 0`` shows a progress bar on stderr (fits done of the total,
        elapsed and remaining time; tqdm's when it is installed), ``> 1``
        also prints the number of fits and one line per fit.
    random_state : int, RandomState instance or None, default=None
        Seeds the default ``cv`` only; None draws a seed, which the result
        records (as in :func:`compare_estimators`); seed randomised
        estimators yourself.
    error_score : "raise" or float, default="raise"
        As in :func:`compare_estimators`: a number records failed fits, sets
        their scores to it and runs no test.
    return_predictions : bool, default=True
        Whether to return the predictions (``predictions``).
    params : dict, default=None
        Parameters for every estimator's ``fit``, indexed per split (routed
        as :func:`~sklearn.model_selection.cross_validate` routes them when
        metadata routing is enabled).
    store : str, os.PathLike or StudyStore, default=None
        A study store (see :class:`StudyStore`; a path is opened, created
        when absent, and closed at the end): every finished fit is kept in it
        as it arrives, and fits it already holds are not fitted again, so an
        interrupted call resumes where it stopped. None keeps nothing.
        Adding an estimator to a stored study fits that estimator only.

    Returns
    -------
    result : ManyComparisonResult
        The fields of :func:`compare_many_predictions`' result, plus

        fit_time, score_time : ndarray of shape (n_splits, k)
            Seconds to fit and to predict, columns in ``names`` order.
        failed_fits : ndarray of bool of shape (n_splits, k)
            Which fits failed (all False unless ``error_score`` is a number).

    See Also
    --------
    compare_many_predictions : The same statistics on predictions made elsewhere.
    compare_estimators : Two estimators.
    SignificanceMatrixDisplay : The adjusted pairwise p-values as a heat map.

    Notes
    -----
    Each pair's two-estimator result, ``result.pair(name_a, name_b)``, holds
    the same numbers as :func:`compare_estimators` on the same splits: there
    is one engine and one statistics path. As there, all the randomness is
    drawn in the calling process, so with seeded estimators the result does
    not depend on ``n_jobs`` or the joblib backend.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_bcv import compare_many_estimators
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> result = compare_many_estimators(
    ...     [("logistic", make_pipeline(StandardScaler(), LogisticRegression())),
    ...      ("tree", DecisionTreeClassifier(random_state=0)),
    ...      ("bayes", GaussianNB()),
    ...      ("majority", DummyClassifier())],
    ...     X, y, random_state=0)
    >>> result.names
    ['logistic', 'tree', 'bayes', 'majority']
    >>> list(result.tests), list(result.pairwise)
    (['bcv_cochran_q'], ['bcv_mcnemar'])
    >>> bool(result.tests.bcv_cochran_q.reject)
    True
    >>> result.pairwise.bcv_mcnemar.pvalue_adjusted.shape
    (4, 4)
    >>> result.verdict.differ[:2]  # the pairs that differ, best first
    [('logistic', 'bayes'), ('logistic', 'tree')]
    >>> pair = result.pair("logistic", "majority")  # as compare_estimators
    >>> pair.tables.shape
    (10, 2, 2)
    """
    named = check_estimator_list(estimators)
    names = [name for name, _ in named]
    control = check_names_subset(control, names, name="control")
    check_family(correction, control)
    check_tests_argument(tests)
    if not (isinstance(pairwise_tests, list | tuple) and not pairwise_tests):
        check_tests_argument(pairwise_tests, argument="pairwise_tests")
    with opened_store(store) as study_store:
        # The default cv's seed: drawn when None (or the store's), recorded.
        seed = None if cv is not None else call_seed(random_state, study_store)
        prepared = prepare_fits(
            [(repr(name), estimator) for name, estimator in named],
            X,
            y,
            cv=cv,
            scoring=scoring,
            groups=groups,
            params=params,
            random_state=random_state if seed is None else seed.seed,
            owner="compare_many_estimators",
            error_score=error_score,
        )
        omnibus, skipped, pairwise = plan_many(
            tests,
            pairwise_tests,
            prepared.design,
            prepared.task,
            prepared.scoring,
            alternative,
        )
        fits, predictions = fit_prepared(
            prepared,
            labels=names,
            n_jobs=n_jobs,
            verbose=verbose,
            error_score=error_score,
            study_store=study_store,
            progress_label="compare_many",
        )
    result = build_many_result(
        predictions,
        names=names,
        design=prepared.design,
        omnibus_plan=omnibus,
        omnibus_skipped=skipped,
        pairwise_plan=pairwise,
        correction=correction,
        control=None if control is None else names.index(control),
        alpha=alpha,
        alternative=alternative,
        return_predictions=return_predictions,
        fits=fits,
    )
    result["provenance"] = make_provenance(
        estimators=named,
        cv=describe_cv(cv, random_state if seed is None else seed.seed),
        random_state=random_state,
        seed=GIVEN_SPLITTER if cv is not None else seed,
        pandas=uses_pandas(X, y),
    )
    return result


@validate_params(
    {
        "y": ["array-like"],
        "predictions": [dict, list, tuple],
        "splits": ["array-like"],
        **_SHARED_PARAMETERS,
        "task": [StrOptions({CLASSIFICATION, REGRESSION}), None],
        "cv": [None, HasMethods("split")],
    },
    prefer_skip_nested_validation=True,
)
def compare_many_predictions(
    y,
    predictions,
    splits,
    *,
    tests=None,
    pairwise_tests=None,
    correction="holm",
    control=None,
    scoring=None,
    alpha=0.05,
    alternative="two-sided",
    task=None,
    cv=None,
):
    """Compare k estimators from their predictions on shared splits.

    The statistics half of :func:`compare_many_estimators`, for predictions
    made elsewhere: the omnibus tests of the k estimators, and the
    two-estimator tests on every pair (or against ``control``) with
    adjusted p-values, all computed from one store of predictions.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        True targets of all records.
    predictions : dict of str to list of array-like
        ``predictions[name][i]`` holds that estimator's predictions for the
        test records ``splits[i][1]`` (as ``predictions_a`` of
        :func:`compare_predictions`, with its checks of class labels); at
        least two estimators.
    splits : list of (train, test) pairs of int arrays
        The splits the predictions were made on (for an m×2 design: fold 0,
        fold 1 of each repetition); as in :func:`compare_predictions`, a test
        set is disjoint from its training set.
    tests, pairwise_tests, correction, control, scoring, alpha, alternative
        As in :func:`compare_many_estimators`; ``scoring`` must work from
        predictions alone (as in :func:`compare_predictions`).
    task : {"classification", "regression"}, default=None
        ``None`` infers it from ``y`` and the predictions.
    cv : cross-validation generator, default=None
        The splitter that made ``splits`` (a ``BlockRegularizedMx2CV``
        marks the design as block-regularized).

    Returns
    -------
    result : ManyComparisonResult
        A :class:`~sklearn.utils.Bunch` subclass with

        names : list of str
            The k estimators, in the order given; every (k, k) array below
            is in this order, row = A and column = B.
        tests : Bunch
            Omnibus test name -> its result (``statistic``, ``pvalue``,
            ``df``, ``reject``, ...).
        skipped_tests : dict
            Tests that did not run, with the reason (a fit failed).
        pairwise : Bunch
            Pairwise test name -> a Bunch of (k, k) arrays: ``statistic``,
            ``pvalue``, ``pvalue_adjusted`` and ``reject`` (adjusted p-value
            below ``alpha``) for frequentist tests, ``p_a_better``,
            ``p_rope``, ``p_b_better`` and ``reject`` for Bayesian ones;
            ``tested`` (which entries hold a test: not the diagonal, nor
            pairs left out by ``control`` or by a one-sided alternative,
            whose entries are p-value 1, statistic 0, reject False), the
            ``correction`` and ``results``, a dict ``(name_a, name_b) ->``
            the test's full result for each tested pair. A two-sided test
            is symmetric: entry [B, A] repeats the p-values of [A, B].
        scores : ndarray of shape (n_splits, k)
            Score of each estimator on each split, higher is better.
        mean_scores : ndarray of shape (k,)
        n_train, n_test : float
            Mean training and test set sizes.
        test_indices : list of ndarray
            ``splits[i][1]``.
        predictions : dict of str to list of ndarray
            The predictions, by name.
        design : Design
            The design read off the splits.
        task, scoring, alpha, alternative, correction, control : the settings.
        verdict : Bunch
            ``omnibus_test``, ``omnibus_reject``, ``differ`` (the pairs
            ``(better, worse)`` that differ, best estimator first) and
            ``text`` (as printed).

        ``result.pair(name_a, name_b)`` returns the two-estimator
        :class:`ComparisonResult` of a pair, ``result.run_test(name)`` runs
        another omnibus test, and ``result.to_frame()`` gives a long
        :class:`pandas.DataFrame` of the pairwise tests.

    See Also
    --------
    compare_many_estimators : Fit the estimators and compare them.
    compare_predictions : Two estimators.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv import BlockRegularized5x2CV, compare_many_predictions
    >>> rng = np.random.RandomState(0)
    >>> y = rng.randint(0, 2, 600)
    >>> splits = list(BlockRegularized5x2CV(random_state=0).split(y))
    >>> def noisy(accuracy):
    ...     return [np.where(rng.rand(t.size) < accuracy, y[t], 1 - y[t])
    ...             for _, t in splits]
    >>> result = compare_many_predictions(
    ...     y, {"good": noisy(0.9), "fair": noisy(0.8), "poor": noisy(0.6)}, splits)
    >>> result.mean_scores.round(1)
    array([0.9, 0.8, 0.6])
    >>> bool(result.tests.bcv_cochran_q.reject)
    True
    >>> result.verdict.differ
    [('good', 'fair'), ('good', 'poor'), ('fair', 'poor')]
    """
    pairs = named_items(
        predictions,
        argument="predictions",
        expected="list of per-split prediction arrays",
        at_least=2,
        too_few="the predictions of at least 2 estimators",
    )
    names = [name for name, _ in pairs]
    control = check_names_subset(control, names, name="control")
    check_family(correction, control)
    store, design = store_predictions(
        y,
        [(f"predictions[{name!r}]", per_split) for name, per_split in pairs],
        splits,
        task=task,
        scoring=scoring,
        cv=cv,
    )
    omnibus, skipped, pairwise = plan_many(
        tests, pairwise_tests, design, store.task, store.scoring, alternative
    )
    result = build_many_result(
        store,
        names=names,
        design=design,
        omnibus_plan=omnibus,
        omnibus_skipped=skipped,
        pairwise_plan=pairwise,
        correction=correction,
        control=None if control is None else names.index(control),
        alpha=alpha,
        alternative=alternative,
    )
    result["provenance"] = make_provenance(
        cv=None if cv is None else repr(cv), given="predictions"
    )
    return result
