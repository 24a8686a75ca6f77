"""Compare k estimators from their per-split scores on one data set.

:func:`compare_split_scores` takes the scores the user already has (a table
of split scores, what a search or ``cross_validate`` recorded) and runs the
statistics of :func:`compare_many_estimators` on them: the same planning
(the tests recommended for the design, less those that need predictions,
named in the result with the reason), the same store of needs and the same
result, so every test of score differences gives the numbers
:func:`compare_many_estimators` gives on the same splits.
:func:`compare_stored` is that path, shared by the entry points of searches
and ``cross_validate`` results, with scores or with rebuilt predictions.
"""

from numbers import Integral, Real

from ._compat import HasMethods, Interval, StrOptions, validate_params
from ._constants import ALTERNATIVES
from ._engine._plan import PlannedTest, check_tests_argument, plan_many
from ._engine._seeds import study_seed
from ._engine._split_scores import ScoreStore, check_split_scores, design_of_cv
from ._engine._validation import check_names_subset
from ._results import build_many_result
from ._results._methods import describe_cv, make_provenance
from .stats._corrections import CORRECTIONS, check_family
from .stats._registry import get_entry, keyword_names

__all__ = ["compare_split_scores", "compare_stored"]

#: The Bayesian test added to the default pairwise test when a rope is given.
ROPE_TEST = "bayesian_correlated_t"

#: The parameters every entry point of split scores validates alike.
SHARED_PARAMETERS = {
    "tests": [str, list, tuple, dict, None],
    "pairwise_tests": [str, list, tuple, dict, None],
    "correction": [StrOptions(set(CORRECTIONS)), None],
    "rope": [Interval(Real, 0, None, closed="left")],
    "alpha": [Interval(Real, 0, 1, closed="neither")],
    "random_state": ["random_state"],
}


@validate_params(
    {
        "scores": ["array-like", dict],
        "cv": [Integral, HasMethods("split"), list, tuple, None],
        "n_train": [Real, None],
        "n_test": [Real, None],
        "names": ["array-like", None],
        "greater_is_better": ["boolean"],
        **SHARED_PARAMETERS,
        "control": [str, None],
        "alternative": [StrOptions(set(ALTERNATIVES))],
        "scoring": [str, None],
    },
    prefer_skip_nested_validation=True,
)
def compare_split_scores(
    scores,
    *,
    cv=None,
    n_train=None,
    n_test=None,
    names=None,
    greater_is_better=True,
    tests=None,
    pairwise_tests=None,
    correction="holm",
    control=None,
    rope=0.0,
    alpha=0.05,
    alternative="two-sided",
    random_state=None,
    scoring=None,
):
    """Compare k estimators from their per-split scores on one data set.

    The statistics of :func:`compare_many_estimators` on scores you already
    have: every estimator scored on the same splits of ONE data set (row i
    of every column from split i), by ``cross_validate``, a search or your
    own loop. The design of the splits comes from ``cv``, the splitter that
    made them: the tests of score differences recommended for it run, with
    the variance that knows the training sets overlap (the corrected
    resampled t of Nadeau and Bengio (2003) on k-fold, repeated k-fold and
    repeated hold-out splits, the tests of block-regularized and 5×2 CV on
    m×2 splits). The tests that need predictions (the McNemar family,
    Cochran's Q, Looney's F) cannot run on scores; the result names them in
    ``skipped_tests`` with the reason.

    Parameters
    ----------
    scores : array-like of shape (n_splits, k), DataFrame or dict
        The scores of k >= 2 estimators on n_splits >= 2 splits, higher is
        better (see ``greater_is_better``): an array (columns are
        estimators), a DataFrame (its columns name them) or a dict name ->
        per-split scores.
    cv : int, cross-validation splitter or list of (train, test), default=None
        The splitter that made the splits: a block-regularized m×2 splitter
        (:class:`BlockRegularized5x2CV`, ...), ``KFold``, ``StratifiedKFold``,
        ``GroupKFold``, ``StratifiedGroupKFold``, ``LeaveOneOut``,
        ``RepeatedKFold``, ``RepeatedStratifiedKFold``, ``ShuffleSplit`` or
        ``StratifiedShuffleSplit`` (their sets' sizes are then fractions of
        the data: the tests use their ratio only); an int k is k-fold CV; a
        list of (train, test) index arrays gives the design exactly. None:
        give ``n_train`` and ``n_test``, which any design of repeated
        splits then takes.
    n_train, n_test : float, default=None
        Mean training and test set sizes, in records (or any two numbers in
        their ratio); given, they replace those the splitter fixes (e.g.
        for a ``ShuffleSplit`` whose sizes are in records).
    names : list of str, default=None
        The estimators' names (default: the DataFrame's columns, the dict's
        keys, else ``estimator_0``, ...).
    greater_is_better : bool, default=True
        False for losses and error rates: the scores are negated once, so
        every statistic and the result read "higher is better" (as
        scikit-learn's ``neg_`` scorers do); the result says so.
    tests : str, list of str or dict, default=None
        Tests of the k estimators at once (``available_tests(kind="many")``);
        the package's need predictions, so None runs none and names them.
    pairwise_tests : str, list of str or dict, default=None
        Two-estimator tests of score differences run on every pair (or
        against ``control``): None is the test recommended for the design
        (as :func:`compare_many_estimators` recommends it, less those that
        need predictions), plus ``bayesian_correlated_t`` when ``rope > 0``;
        ``[]`` runs none; a test that needs predictions is refused, with the
        reason.
    correction : str or None, default="holm"
        Multiplicity correction of each frequentist pairwise test's p-values
        (as in :func:`compare_many_estimators`).
    control : str, default=None
        The estimator every other one is compared with.
    rope : float, default=0.0
        The region of practical equivalence of the Bayesian tests, in the
        scores' units (given to every pairwise test that takes a ``rope``
        unless ``pairwise_tests`` sets one).
    alpha : float, default=0.05
        Significance level.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        Of the pairwise tests, A being the first of a pair in ``names``
        order (or the other estimator against ``control``).
    random_state : int, RandomState instance or None, default=None
        Seeds the tests that sample (given to those that take a
        ``random_state``).
    scoring : str, default=None
        The name of the score, for the summary and the report ("score").

    Returns
    -------
    result : ManyComparisonResult
        As :func:`compare_many_predictions` returns it (``scores``,
        ``pairwise``, ``verdict``, ``pair(name_a, name_b)``, ...), without
        predictions, ``test_indices``, fit times or omnibus tests;
        ``skipped_tests`` names the tests the predictions would add.
        ``n_train`` and ``n_test`` are those of the design (fractions of
        the data when only the splitter is known).

    See Also
    --------
    compare_search : The candidates of a fitted GridSearchCV.
    compare_cross_validate : The results of ``cross_validate``.
    compare_many_estimators : Fit the estimators, with the tests of predictions.
    compare_scores : Scores across data sets (a data set per row).

    Notes
    -----
    Splits of one data set are not independent data sets: their training
    sets overlap, so the tests across data sets (Friedman, Wilcoxon) of
    :func:`compare_scores` would treat correlated values as independent
    (compare_scores refuses a table whose rows are labelled as splits).
    Here the variance of a mean difference accounts for the overlap.

    Examples
    --------
    scikit-learn's example "Statistical comparison of models using grid
    search" compares an SVC with an RBF kernel and a linear one on 10 × 10
    repeated stratified 10-fold CV; their ROC AUC on the 100 splits give
    the corrected t of Nadeau and Bengio (2003) of 0.750, p = 0.227 (one
    side). Here, two columns of made-up scores:

    >>> import numpy as np
    >>> from sklearn.model_selection import RepeatedStratifiedKFold
    >>> from sklearn_bcv import compare_split_scores
    >>> rng = np.random.default_rng(0)
    >>> linear = np.round(rng.normal(0.90, 0.05, size=100), 3)
    >>> rbf = np.round(linear + rng.normal(0.01, 0.03, size=100), 3)
    >>> cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
    >>> result = compare_split_scores({"rbf": rbf, "linear": linear}, cv=cv,
    ...                               alternative="greater")
    >>> list(result.pairwise)
    ['corrected_t']
    >>> t = result.pairwise.corrected_t.results["rbf", "linear"]
    >>> round(t.statistic, 3), round(t.pvalue, 3)
    (0.851, 0.199)

    Accuracies on a 5×2 block-regularized CV: the test of contingency
    tables the fits would give is named, with the reason it cannot run:

    >>> from sklearn_bcv import BlockRegularized5x2CV
    >>> accuracy = np.round(rng.normal(0.8, 0.02, size=(10, 3)), 3)
    >>> result = compare_split_scores(accuracy, cv=BlockRegularized5x2CV(),
    ...                               names=["svm", "tree", "knn"],
    ...                               scoring="accuracy")
    >>> list(result.pairwise)
    ['calibrated_f_5x2bcv']
    >>> sorted(result.skipped_tests)
    ['bcv_cochran_q', 'bcv_mcnemar']
    """
    values, names = check_split_scores(scores, names=names)
    design = design_of_cv(cv, values.shape[0], n_train=n_train, n_test=n_test)
    label = "score" if scoring is None else str(scoring)
    notes = []
    drawn = study_seed(random_state)  # recorded: a run with None can be repeated
    if not greater_is_better:
        values, label = -values, f"-{label}"
        notes.append(
            "the scores were given lower-is-better; they are negated here "
            f"({label}), so that higher is better in every statistic and table"
        )
    store = ScoreStore(
        values, n_train=design.n_train, n_test=design.n_test, scoring=label
    )
    result = compare_stored(
        store,
        design,
        names,
        tests=tests,
        pairwise_tests=pairwise_tests,
        correction=correction,
        control=control,
        rope=rope,
        alpha=alpha,
        alternative=alternative,
        random_state=drawn.seed,
    )
    result["provenance"] = make_provenance(
        cv=None if cv is None else describe_cv(cv), seed=drawn, given="split scores"
    )
    result["notes"] = notes
    return result


def _with_context(plan, context):
    """The plan with the comparison's ``rope`` and ``random_state`` given to
    every test that takes them and was not given its own."""
    planned = []
    for test in plan:
        entry = get_entry(test.name)
        accepted = keyword_names(entry.func) or frozenset()
        shared = {
            key: value
            for key, value in context.items()
            if key in accepted and key not in test.params
        }
        if shared:
            try:
                entry.check_params({**shared, **test.params})
            except ValueError as exc:
                raise ValueError(f"pairwise_tests[{test.name!r}]: {exc}") from None
        planned.append(PlannedTest(test.name, test.needs, {**shared, **test.params}))
    return planned


def compare_stored(
    store,
    design,
    names,
    *,
    tests=None,
    pairwise_tests=None,
    correction="holm",
    control=None,
    rope=0.0,
    alpha=0.05,
    alternative="two-sided",
    random_state=None,
    fits=None,
):
    """The :class:`ManyComparisonResult` of a store of needs (scores, or
    predictions) on ``design``: the statistics half every entry point of
    one data set shares. ``pairwise_tests=None`` with ``rope > 0`` adds the
    Bayesian correlated t to the recommended test; ``fits`` (the engine's,
    when it fitted) adds the fit times."""
    control = check_names_subset(control, names, name="control")
    check_family(correction, control)
    check_tests_argument(tests)
    if not (isinstance(pairwise_tests, list | tuple) and not pairwise_tests):
        check_tests_argument(pairwise_tests, argument="pairwise_tests")
    omnibus, skipped, pairwise = plan_many(
        tests,
        pairwise_tests,
        design,
        store.task,
        store.scoring,
        alternative,
        available=store.available,
    )
    if pairwise_tests is None and rope > 0 and design.supports("any"):
        if ROPE_TEST not in [test.name for test in pairwise]:
            pairwise.append(PlannedTest(ROPE_TEST, get_entry(ROPE_TEST).needs, {}))
    # The entry points give their recorded study seed: every test that
    # samples draws from it.
    context = {"rope": float(rope), "random_state": random_state}
    return build_many_result(
        store,
        names=list(names),
        design=design,
        omnibus_plan=_with_context(omnibus, context),
        omnibus_skipped=skipped,
        pairwise_plan=_with_context(pairwise, context),
        correction=correction,
        control=None if control is None else list(names).index(control),
        alpha=alpha,
        alternative=alternative,
        return_predictions=False,
        fits=fits,
    )
