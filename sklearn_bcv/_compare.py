"""Compare two estimators: fit them on shared splits and run the tests.

:func:`compare_estimators` is the engine's case of two estimators on one
data set: clones of both are fitted on every split of one materialised list
of splits (one joblib pool), and their predictions go to the statistics path
that :func:`compare_predictions` exposes for predictions made elsewhere: the
needs of the registered tests are computed once from the store of
per-split predictions, and every requested test, built-in or registered by
a third party, runs through the registry.
"""

import os
from numbers import Integral, Real

from ._compat import HasMethods, Interval, StrOptions, validate_params
from ._constants import ALTERNATIVES, CLASSIFICATION, REGRESSION
from ._engine._plan import check_tests_argument, plan_tests
from ._engine._prepare import fit_prepared, prepare_fits, store_predictions
from ._results import ComparisonResult, build_pair_result, estimator_name
from ._results._methods import (
    GIVEN_SPLITTER,
    describe_cv,
    make_provenance,
    uses_pandas,
)
from ._store import StudyStore, call_seed, opened_store

__all__ = ["ComparisonResult", "compare_estimators", "compare_predictions"]


@validate_params(
    {
        # get_params: clone() needs it to give every fit a fresh copy.
        "estimator_a": [HasMethods(["fit", "predict", "get_params"])],
        "estimator_b": [HasMethods(["fit", "predict", "get_params"])],
        "X": ["array-like", "sparse matrix"],
        "y": ["array-like"],
        "cv": ["cv_object"],
        "tests": [str, list, tuple, dict, None],
        "scoring": [str, callable, None],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "alternative": [StrOptions(set(ALTERNATIVES))],
        "groups": ["array-like", None],
        "n_jobs": [Integral, None],
        "verbose": ["verbose"],
        "random_state": ["random_state"],
        "error_score": [StrOptions({"raise"}), Real],
        "return_estimator": ["boolean"],
        "return_predictions": ["boolean"],
        "params": [dict, None],
        "store": [str, os.PathLike, StudyStore, None],
    },
    prefer_skip_nested_validation=False,  # the estimators are not validated yet
)
def compare_estimators(
    estimator_a,
    estimator_b,
    X,
    y,
    *,
    cv=None,
    tests=None,
    scoring=None,
    alpha=0.05,
    alternative="two-sided",
    groups=None,
    n_jobs=None,
    verbose=0,
    random_state=None,
    error_score="raise",
    return_estimator=False,
    return_predictions=True,
    params=None,
    store=None,
):
    """Fit two estimators on shared splits and compare them with sound tests.

    Clones of both estimators are fitted on every split of one list of
    splits (by default a block-regularized 5×2 CV), in one joblib pool; their
    predictions go through :func:`compare_predictions`, which runs every
    requested test (by default all that apply to the design and task).

    Parameters
    ----------
    estimator_a, estimator_b : estimator objects implementing fit and predict
        The two learning algorithms (scikit-learn compatible, so that they
        can be cloned); both classifiers or both regressors.
        They are cloned, never fitted in place. Meta-estimators such as
        :class:`~sklearn.model_selection.GridSearchCV` give nested CV.
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
        The data.
    y : array-like of shape (n_samples,)
        The target.
    cv : int, cross-validation generator or iterable, default=None
        ``None`` is ``BlockRegularized5x2CV(random_state=random_state)``.
        Otherwise any sklearn cv spec, resolved by
        :func:`~sklearn.model_selection.check_cv` (an int gives
        ``StratifiedKFold`` for classifiers). The splits are generated once
        and shared by A and B.
    tests : str, list of str or dict, default=None
        ``None`` runs every registered test applicable to the design and
        task; a name, a list of names, or ``{name: {param: value}}``.
    scoring : str, callable or scorer, default=None
        Score of one split, higher is better: ``None`` (accuracy for
        classifiers, r2 for regressors), any name
        :func:`~sklearn.metrics.get_scorer` knows (``"roc_auc"`` and
        ``"neg_log_loss"`` included), a scorer made by
        :func:`~sklearn.metrics.make_scorer`, or a callable
        ``(y_true, y_pred) -> float``. A scorer that needs
        ``predict_proba`` or ``decision_function`` scores each fitted
        estimator on its test set where it was fitted; the contingency
        tables and loss differences always come from ``predict``.
    alpha : float, default=0.05
        Significance level.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: A is better than B; ``"less"``: B is better.
    groups : array-like of shape (n_samples,), default=None
        Group labels passed to the splitter (when metadata routing is off).
    n_jobs : int, default=None
        Number of jobs fitting in parallel over (estimator, split) pairs;
        ``None`` means 1 unless in a joblib backend context. The workers are
        capped at the number of fits (and at the number of cores for
        joblib's local process backends); 0 is refused.
    verbose : int, default=0
        ``> 0`` shows a progress bar on stderr (fits done of the total,
        elapsed and remaining time; tqdm's when it is installed), ``> 1``
        also prints the number of fits and one line per fit.
    random_state : int, RandomState instance or None, default=None
        Seeds the default ``cv`` only. None draws a seed (from NumPy's
        global generator; with a ``store`` that holds one, the store's),
        which the result records (``provenance.random_state``): passing it
        repeats the splits. Estimators keep their own ``random_state``: set
        it (an int or a RandomState instance) for reproducible fits, see
        Notes.
    error_score : "raise" or float, default="raise"
        ``"raise"`` re-raises an error of fit or predict. A number records
        the failure (a ``FitFailedWarning`` summarises them), sets the score
        of the failed splits to that number and runs no test, since every
        test needs every split; if all fits fail a ``ValueError`` is raised.
    return_estimator : bool, default=False
        Whether to return the fitted estimators (``estimators_a``,
        ``estimators_b``).
    return_predictions : bool, default=True
        Whether to return the predictions (``predictions_a``,
        ``predictions_b``), which :func:`compare_predictions` can reuse.
    params : dict, default=None
        Parameters for the estimators' ``fit`` (e.g. ``sample_weight``),
        indexed per split; with metadata routing enabled they are routed
        like :func:`~sklearn.model_selection.cross_validate` does (to the
        estimators' ``fit`` and the splitter's ``split``).
    store : str, os.PathLike or StudyStore, default=None
        A study store (see :class:`StudyStore`; a path is opened, created
        when absent, and closed at the end): every finished fit is kept in it
        as it arrives, and fits it already holds are not fitted again, so an
        interrupted call resumes where it stopped. None keeps nothing.
        Not with ``return_estimator=True``.

    Returns
    -------
    result : ComparisonResult
        The fields of :func:`compare_predictions`' result, plus

        fit_time, score_time : ndarray of shape (n_splits, 2)
            Seconds to fit and to predict, column 0 for A, 1 for B.
        estimators_a, estimators_b : list of estimators
            When ``return_estimator``.
        failed_fits : ndarray of bool of shape (n_splits, 2)
            Which fits failed (all False unless ``error_score`` is a number).
        estimator_names : tuple of str
            Short names of A and B (class names, with pipeline steps or the
            inner estimator), shown by the printed summary.

    See Also
    --------
    compare_predictions : The statistics from predictions made elsewhere.
    BlockRegularized5x2CV : The default splitter.
    sklearn.model_selection.cross_validate : Scores of one estimator.

    Notes
    -----
    All the randomness of the comparison is drawn in the calling process:
    the splits are materialised once before any fit, and every task receives
    a clone made there (a ``RandomState`` instance given to an estimator is
    copied into each clone in the same state, as in
    :func:`~sklearn.model_selection.cross_validate`). So with seeded
    estimators the result does not depend on ``n_jobs`` or the joblib
    backend. An estimator whose ``random_state`` is None draws from the
    global NumPy generator of whichever process runs the fit; its fits then
    differ from call to call even with ``n_jobs=1``, as everywhere in
    scikit-learn: give randomised estimators a ``random_state``.

    The fits run on the active joblib backend, so a cluster works unchanged.
    With dask::

        from distributed import Client
        from joblib import parallel_config
        client = Client("tcp://scheduler:8786")  # the cluster's scheduler
        with parallel_config(backend="dask"):
            result = compare_estimators(a, b, X, y, random_state=0)

    and with ray, ``from ray.util.joblib import register_ray`` then
    ``register_ray()`` and ``parallel_config(backend="ray")``.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_bcv import compare_estimators
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> result = compare_estimators(
    ...     make_pipeline(StandardScaler(), LogisticRegression()),
    ...     DecisionTreeClassifier(random_state=0), X, y, random_state=0)
    >>> result.design.describe()
    '5×2 block-regularized CV'
    >>> result.tables.shape, result.fit_time.shape
    ((10, 2, 2), (10, 2))
    >>> result.recommended_test
    'bcv_mcnemar'
    >>> bool(result.tests.bcv_mcnemar.reject)
    True
    """
    check_tests_argument(tests)
    if return_estimator and store is not None:
        raise ValueError(
            "return_estimator=True needs the fitted estimators, which a study "
            "store does not keep; pass store=None to get them."
        )
    with opened_store(store) as study_store:
        # The default cv's seed: drawn when None (or the store's), recorded.
        seed = None if cv is not None else call_seed(random_state, study_store)
        prepared = prepare_fits(
            [("estimator_a", estimator_a), ("estimator_b", estimator_b)],
            X,
            y,
            cv=cv,
            scoring=scoring,
            groups=groups,
            params=params,
            random_state=random_state if seed is None else seed.seed,
            owner="compare_estimators",
            error_score=error_score,
        )
        plan, skipped = plan_tests(
            tests, prepared.design, prepared.task, alternative=alternative
        )
        fits, predictions = fit_prepared(
            prepared,
            labels=("A", "B"),
            n_jobs=n_jobs,
            verbose=verbose,
            error_score=error_score,
            return_estimator=return_estimator,
            study_store=study_store,
        )
    result = build_pair_result(
        predictions,
        0,
        1,
        design=prepared.design,
        plan=plan,
        skipped=skipped,
        alpha=alpha,
        alternative=alternative,
        return_predictions=return_predictions,
        fits=fits,
        estimator_names=(estimator_name(estimator_a), estimator_name(estimator_b)),
    )
    result["provenance"] = make_provenance(
        estimators=[("A", estimator_a), ("B", estimator_b)],
        cv=describe_cv(cv, random_state if seed is None else seed.seed),
        random_state=random_state,
        seed=GIVEN_SPLITTER if cv is not None else seed,
        pandas=uses_pandas(X, y),
    )
    return result


@validate_params(
    {
        "y": ["array-like"],
        "predictions_a": ["array-like"],
        "predictions_b": ["array-like"],
        "splits": ["array-like"],
        "tests": [str, list, tuple, dict, None],
        "scoring": [str, callable, None],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "alternative": [StrOptions(set(ALTERNATIVES))],
        "task": [StrOptions({CLASSIFICATION, REGRESSION}), None],
        "cv": [None, HasMethods("split")],
    },
    prefer_skip_nested_validation=True,
)
def compare_predictions(
    y,
    predictions_a,
    predictions_b,
    splits,
    *,
    tests=None,
    scoring=None,
    alpha=0.05,
    alternative="two-sided",
    task=None,
    cv=None,
):
    """Compare two estimators from their predictions on shared splits.

    The statistics half of :func:`compare_estimators`, for predictions made
    elsewhere: the needs of the registered tests are computed once from the
    predictions and every requested test is run through the registry.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        True targets of all records.
    predictions_a, predictions_b : list of array-like
        ``predictions_a[i]`` holds estimator A's predictions for the test
        records ``splits[i][1]`` (in that order); likewise for B. Predicted
        class labels must be of y's label type (all strings or all numbers,
        no None or NaN); labels y never holds are allowed, count as errors,
        and are warned about.
    splits : list of (train, test) pairs of int arrays
        The splits the predictions were made on, in the order the tests read
        them (for an m×2 design: fold 0, fold 1 of each repetition). A test
        set must not share a record with its training set nor hold one
        twice (a training set may repeat records: a bootstrap sample).
    tests : str, list of str or dict, default=None
        ``None`` runs every registered test applicable to the design and
        task (see Notes); a name or list of names runs those; a dict
        ``{name: {param: value}}`` passes parameters to each test.
    scoring : str or callable, default=None
        Score of one split, higher is better. ``None`` is accuracy for class
        labels and r2 for a continuous target; a string names a sklearn
        metric of ``(y_true, y_pred)`` (``"balanced_accuracy"``,
        ``"f1_macro"``, ``"r2"``, ``"neg_mean_squared_error"``, ...); a
        callable is called as ``scoring(y_true, y_pred)``. Scorers that
        need ``predict_proba`` or ``decision_function`` (``"roc_auc"``,
        ``"neg_log_loss"``) need the fitted estimators: use
        :func:`compare_estimators`.
    alpha : float, default=0.05
        Significance level of every test's ``reject``.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: A is better than B; ``"less"``: B is better.
    task : {"classification", "regression"}, default=None
        ``None`` infers it: classification when ``y`` holds class labels
        (binary or multiclass) and the predictions are labels too.
    cv : cross-validation generator, default=None
        The splitter that made ``splits``; a ``BlockRegularizedMx2CV``
        marks the design as block-regularized (otherwise this is inferred
        from the indices).

    Returns
    -------
    result : ComparisonResult
        A :class:`~sklearn.utils.Bunch` subclass with

        tests : Bunch
            Test name -> the test's result Bunch (``statistic``, ``pvalue``,
            ``df``, ``reject``, ...).
        skipped_tests : dict
            Tests chosen by ``tests=None`` that could not honour a one-sided
            ``alternative`` (F tests), with the reason.
        tables : ndarray of shape (n_splits, 2, 2)
            Classification only: ``tables[i, a, b]`` counts test records of
            split ``i`` that A gets right (``a=1``) or wrong (``a=0``) and B
            right or wrong (see :func:`~sklearn_bcv.mcnemar_table`).
        scores_a, scores_b, differences : ndarray of shape (n_splits,)
            Scores per split and ``scores_a - scores_b``.
        n_train, n_test : float
            Mean training and test set sizes.
        loss_differences : list of ndarray
            Per split, loss of A minus loss of B per test record (0-1 loss
            for classification, squared error for regression).
        test_indices : list of ndarray
            ``splits[i][1]``.
        predictions_a, predictions_b : list of ndarray
            The predictions.
        design : Design
            The design read off the splits (``design.kind`` is one of
            ``"holdout"``, ``"kfold"``, ``"mx2"``, ``"bcv"``, ``"any"``).
        task, scoring, alpha, alternative : the settings used.
        recommended_test : str or None
            The test the printed verdict is based on: ``bcv_mcnemar`` for
            classifiers (accuracy) on a block-regularized m×2 design,
            ``calibrated_f_5x2bcv`` for other scores on one, ``mcnemar`` on
            one hold-out split, ``combined_f_5x2cv`` on a random m×2 CV,
            ``corrected_t`` otherwise, and also in place of the two F tests
            when ``alternative`` is one-sided (they cannot honour it). The
            registry declares these recommendations (``register_test``'s
            ``recommended_for``).
        verdict : Bunch
            The verdict of the comparison, as printed: ``test`` (the
            recommended test if it ran, else the first test run; None when
            no test ran), ``decision`` (``"A better"``, ``"B better"``,
            ``"no difference"``, or None), ``pvalue`` (None for a Bayesian
            test), ``rationale`` (why that test) and ``text``.

        ``result.run_test(name, **params)`` runs any other registered test
        on the stored needs without refitting.

    See Also
    --------
    compare_estimators : Fit two estimators on shared splits and compare them.
    sklearn_bcv.register_test : Add a test the engine runs like the built-in ones.

    Notes
    -----
    ``tests=None`` runs each registered test whose design fits the splits
    and whose needs exist for the task (contingency tables exist for
    classification only). Tests derived for block-regularized splits
    (design ``"bcv"``) are left out on an m×2 design that is not
    block-regularized, where their calibration does not hold; asked for by
    name they run with a ``UserWarning``. A test asked for on a design it
    does not fit raises ``ValueError`` naming the design it needs.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.model_selection import KFold
    >>> from sklearn_bcv import compare_predictions
    >>> rng = np.random.RandomState(0)
    >>> y = rng.randint(0, 2, 400)
    >>> splits = list(KFold(5).split(y))
    >>> def noisy(accuracy, test):
    ...     return np.where(rng.rand(len(test)) < accuracy, y[test], 1 - y[test])
    >>> pred_a = [noisy(0.9, test) for _, test in splits]
    >>> pred_b = [noisy(0.7, test) for _, test in splits]
    >>> result = compare_predictions(y, pred_a, pred_b, splits)
    >>> result.design.describe()
    '5-fold CV'
    >>> sorted(result.tests)
    ['bayesian_correlated_t', 'corrected_t', 'cv_ci_z', 'kfold_mcnemar', 'paired_t']
    >>> result.tests.corrected_t.reject
    True

    A test registered by a third party runs through the engine like the
    built-in ones, also later on a stored result:

    >>> from sklearn.utils import Bunch
    >>> from sklearn_bcv import register_test
    >>> @register_test("sign_count", needs="differences", overwrite=True)
    ... def sign_count(*, differences, alpha=0.05, alternative="two-sided"):
    ...     wins = int(np.sum(np.asarray(differences) > 0))
    ...     return Bunch(statistic=wins, pvalue=None, df=None, reject=False,
    ...                  alternative=alternative, test="sign_count")
    >>> compare_predictions(y, pred_a, pred_b, splits,
    ...                     tests="sign_count").tests.sign_count.statistic
    5
    >>> result.run_test("sign_count").statistic
    5
    >>> from sklearn_bcv import unregister_test
    >>> unregister_test("sign_count")
    """
    store, design = store_predictions(
        y,
        [("predictions_a", predictions_a), ("predictions_b", predictions_b)],
        splits,
        task=task,
        scoring=scoring,
        cv=cv,
    )
    plan, skipped = plan_tests(tests, design, store.task, alternative=alternative)
    result = build_pair_result(
        store,
        0,
        1,
        design=design,
        plan=plan,
        skipped=skipped,
        alpha=alpha,
        alternative=alternative,
    )
    result["provenance"] = make_provenance(
        cv=None if cv is None else repr(cv), given="predictions"
    )
    return result
