"""Compare estimators across many data sets: the benchmark study of a paper.

:func:`benchmark` fits k estimators on every split of every data set in one
joblib pool (data set × split × estimator, no barrier between data sets)
and :func:`compare_scores` takes a score table made elsewhere; both run the
same statistics on the table of scores: Friedman's test with its post hoc
rank tests (Nemenyi, or the exact rank-sum test against a control), and
pairwise tests across data sets (Wilcoxon's signed-rank and the sign test,
the Poisson-binomial test of per-split posteriors, the Bayesian signed-rank
and sign tests), the frequentist p-values adjusted for multiplicity.
"""

import dataclasses
import os
from numbers import Integral, Real

import numpy as np
from sklearn.utils import Bunch

from ._compat import Interval, Options, StrOptions, validate_params
from ._constants import ALTERNATIVES
from ._engine._fit import default_cv
from ._engine._incomplete import (
    MISSING,
    benchmark_holes,
    check_auto,
    check_plan,
    check_takes_holes,
    incomplete_defaults,
    nan_mean,
    pairs_without_data,
    planning_needs,
    read_table,
    with_run_correlation,
)
from ._engine._plan import check_tests_argument, plan_across, plan_many
from ._engine._prepare import fit_datasets, prepare_fits
from ._engine._progress import FitProgress
from ._engine._replicability import (
    NO_PVALUES,
    check_replicability,
    pairwise_replicability,
    store_pvalues,
    table_pvalues,
)
from ._engine._scores import ScoreTable, mean_scores
from ._engine._seeds import dataset_seed, derived_seed, study_seed
from ._engine._split_scores import refuse_split_tables
from ._engine._validation import (
    check_estimator_list,
    check_names_subset,
    named_items,
)
from ._results import BenchmarkResult, build_datasets_result, build_many_result
from ._results._methods import (
    describe_cv,
    describe_dataset,
    describe_source,
    make_provenance,
    uses_pandas,
)
from ._results._pairwise import pairs_tested
from ._store import StudyStore, call_seed, opened_store
from .stats._corrections import CORRECTIONS, check_family
from .stats._effect import EFFECT_SIZE_KINDS, pairwise_effect_sizes
from .stats._parametric_across import auto_path
from .stats._registry import (
    ALL_AT_ONCE_ROLES,
    available_tests,
    default_tests,
    get_entry,
    keyword_names,
)
from .stats._ties import scores_precision
from .stats._utils import stable_mean

__all__ = ["BenchmarkResult", "benchmark", "compare_scores"]

_STATISTICS_PARAMETERS = {
    "tests": [str, list, tuple, dict, None],
    "pairwise_tests": [str, list, tuple, dict, None],
    "correction": [StrOptions(set(CORRECTIONS)), None],
    "control": [str, None],
    "rope": [Interval(Real, 0, None, closed="left")],
    "alpha": [Interval(Real, 0, 1, closed="neither")],
    "alternative": [StrOptions(set(ALTERNATIVES))],
    "effect_size": [StrOptions(set(EFFECT_SIZE_KINDS)), None, Options(bool, {False})],
    "effect_size_intervals": [StrOptions({"per_pair", "simultaneous"})],
    "random_state": ["random_state"],
    "missing": [StrOptions(set(MISSING))],
    "replicability": [
        StrOptions({"bonferroni", "fisher"}),
        None,
        Options(bool, {False}),
    ],
}


def _is_auto(tests):
    return isinstance(tests, str) and tests == "auto"


def _auto(scores, names, alpha, control, cell_tolerance=None):
    """The ``auto`` field: :func:`~sklearn_bcv.stats._parametric_across.auto_path`
    as Bunches."""
    decision = auto_path(
        scores, names, alpha=alpha, control=control, cell_tolerance=cell_tolerance
    )
    decision["normality"] = [Bunch(**row) for row in decision["normality"]]
    if decision["variance"] is not None:
        decision["variance"] = Bunch(**decision["variance"])
    return Bunch(**decision)


def _attach_effect_sizes(
    result, scores, effect_size, auto, *, seed, intervals, table=None
):
    """``result.effect_sizes`` from the (N, k) higher-is-better ``scores``
    (none when a fit failed: no statistic runs then), of the kind
    ``effect_size``, else that of the automatic path ``auto``, else
    ``cohen_dz``, and beside them ``result.mean_differences``, the mean
    difference of every pair in the scores' units; the intervals per pair,
    or simultaneous over the pairs (``intervals``); ``effect_size=False``
    computes none (the three fields None). ``table`` (the
    :class:`~._engine._scores.ScoreTable`) says whether the scores are the
    user's own or means, and their precision (the tie rule's)."""
    if effect_size is False:
        result["effect_size_kind"] = result["effect_sizes"] = None
        result["mean_differences"] = None
        return
    kind = effect_size or ("cohen_dz" if auto is None else auto.effect_size_kind)
    names = result.names
    result["effect_size_kind"] = kind
    if not np.all(np.isfinite(scores)) and result.get("skipped_tests"):
        result["effect_sizes"] = result["mean_differences"] = []
        return
    reference = (
        names.index(result.control)
        if result.get("control") is not None
        else int(np.argmin(result.mean_ranks))
    )
    effects = {}
    precision = None if table is None else table.precision
    cells = None if table is None else table.cell_tolerance()
    for each in dict.fromkeys([kind, "mean_difference"]):
        with scores_precision(precision or np.finfo(np.float64).eps):
            effects[each] = pairwise_effect_sizes(
                scores,
                names,
                kind=each,
                reference=reference,
                random_state=seed,
                simultaneous=intervals == "simultaneous",
                cell_tolerance=cells,
            )
    result["effect_sizes"] = effects[kind]
    result["mean_differences"] = effects["mean_difference"]


def _default_tests(tests, pairwise_tests, control, available):
    """The tests run when ``tests`` / ``pairwise_tests`` are None: those the
    registry declares to run by default in the context (all pairs, or
    against a control), omnibus tests before post hoc families before
    rankings, pairwise tests whose needs the table has."""
    context = "all_pairs" if control is None else "control"
    if tests is None:
        tests = [
            name
            for role in ALL_AT_ONCE_ROLES  # omnibus, post hoc, ranking
            for name in default_tests(context, role=role, available=available)
        ]
    if pairwise_tests is None:
        pairwise_tests = default_tests(context, role="pairwise", available=available)
    return tests, pairwise_tests


def _plan(
    table_needs,
    names,
    *,
    correction=None,
    tests,
    pairwise_tests,
    control,
    rope,
    alternative,
    random_state,
    table_shape=None,
):
    """``(rank plan, pairwise plan, control index)``, checked before any fit
    (``table_shape``: ``(n_datasets, k)``, for the tests' bounds on the work
    of the whole table). ``random_state`` is the study seed (an int): every
    pair's test samples from it, so pairs share their Dirichlet weights
    (common random numbers) and the result does not depend on the order in
    which the pairs are tested."""
    control = check_names_subset(control, names, name="control")
    check_family(correction, control)
    control = None if control is None else names.index(control)
    tests, pairwise_tests = _default_tests(tests, pairwise_tests, control, table_needs)
    context = {
        "control": control,
        "rope": rope,
        "random_state": int(random_state),
        "names": list(names),  # a ranking reports its estimators by name
    }
    plans = []
    for requested, pairwise in ((tests, False), (pairwise_tests, True)):
        if isinstance(requested, list | tuple) and not requested:
            plans.append([])
            continue
        plans.append(
            plan_across(
                requested,
                pairwise=pairwise,
                available=table_needs,
                # The rank tests compare all k at once: two-sided.
                alternative=alternative if pairwise else "two-sided",
                context=context,
                table_shape=table_shape,
            )
        )
    return plans[0], plans[1], control


def _with_score_scale(plan):
    """The pairwise ``plan`` with ``score_scale`` among the needs of every
    test that takes it (unless the user set it): each pair's, per data set,
    the largest ``|score|`` of its two estimators there (their per-split
    scores included). The tie rule of the tests on differences (equal in
    the user's decimals means equal) then reads the units of the scores
    each difference came from -- never another estimator's or another data
    set's."""
    planned = []
    for test in plan:
        accepted = keyword_names(get_entry(test.name).func) or frozenset()
        if "score_scale" in accepted and "score_scale" not in test.params:
            test = test._replace(needs=(*test.needs, "score_scale"))
        planned.append(test)
    return planned


@validate_params(
    {
        "scores": ["array-like"],
        "n_train": [Real, "array-like", None],
        "n_test": [Real, "array-like", None],
        "names": ["array-like", None],
        "datasets": ["array-like", None],
        "greater_is_better": ["boolean"],
        "runs": ["boolean", None],
        **_STATISTICS_PARAMETERS,
    },
    prefer_skip_nested_validation=True,
)
def compare_scores(
    scores,
    *,
    n_train=None,
    n_test=None,
    names=None,
    datasets=None,
    greater_is_better=True,
    tests=None,
    pairwise_tests=None,
    correction="holm",
    control=None,
    rope=0.0,
    alpha=0.05,
    alternative="two-sided",
    effect_size=None,
    effect_size_intervals="per_pair",
    random_state=None,
    missing="error",
    runs=None,
    replicability=None,
):
    """Compare k estimators across data sets from a table of their scores.

    The statistics half of :func:`benchmark`, for scores computed elsewhere
    (as autorank or scikit-posthocs take them): the estimators are ranked on
    every data set, Friedman's test asks whether any of them differ, a post
    hoc rank test which pairs, and pairwise tests across data sets compare
    each pair (or each estimator with ``control``).

    Parameters
    ----------
    scores : array-like or pandas.DataFrame
        Higher is better (see ``greater_is_better``). Either (n_datasets, k)
        mean scores (rows = data sets, columns = estimators) or (n_datasets,
        n_splits, k) per-split scores, which the split-aware
        ``poisson_binomial`` test needs; with ``runs=True``, (n_datasets, k,
        n_runs): several runs per cell (see ``runs``). A DataFrame gives the
        names: its columns are the estimators, its index the data sets, or a
        two-level index (data set, split) for per-split scores ((data set,
        run) with ``runs=True``); or a long table, with columns ``dataset``,
        ``estimator``, optionally ``run`` (several runs per cell) or
        ``split``, and one score column (``score``, or the only other
        column). At least 2 data sets and 2 estimators; finite, or NaN where
        a score is missing (see ``missing``).
    n_train, n_test : float or array-like of shape (n_datasets,), default=None
        Training and test set sizes of the splits (one value, or one per
        data set), needed by ``poisson_binomial``.
    names : list of str, default=None
        The estimators, in column order (default: the DataFrame's columns,
        else ``estimator_0``, ...). A sequence: a set is refused, its order
        being undefined.
    datasets : list of str, default=None
        The data sets, in row order (default: the DataFrame's index, else
        ``dataset_0``, ...).
    greater_is_better : bool, default=True
        False for losses and error rates (log loss, RMSE, error rate): the
        lower score is then the better one, and the ranks (1 = lowest
        loss), the pairwise differences, ``alternative`` ("greater": A
        better, i.e. lower) and every test follow. The scores are negated
        once, before any statistic: ``scores``, ``split_scores`` and
        ``mean_scores`` of the result stay in your units, while pairwise
        differences and test statistics are on the "higher is better"
        scale, so a positive difference always means A is better.
        Recorded as ``result.greater_is_better``.
    tests : "auto", str, list of str or dict, default=None
        ``"auto"`` chooses the tests from the table (autorank's procedure,
        corrected): Shapiro–Wilk on each estimator's scores at level
        ``alpha / k``; if all look normal, Bartlett's test of equal
        variances (else Levene's, centred on the median) at ``alpha``.
        k = 2: the paired t test (``paired_t_datasets``) when both are
        normal, else Wilcoxon, with ``alternative`` honoured; k ≥ 3:
        repeated-measures ANOVA with Tukey's HSD on its error term
        (``rm_anova``, ``tukey_rm``) when all are normal with equal
        variances, else Friedman with Nemenyi (the exact rank-sum post hoc
        test with a control). Fewer than 3 data sets, or an estimator with constant
        scores, cannot be tested for normality and take the rank-based
        path. ``result.auto`` says which path and why. Otherwise, tests
        of all k estimators at once (``available_tests(kind=
        "datasets")`` that need ``scores``): the omnibus tests
        ``friedman`` (with Iman–Davenport inside it), ``friedman_aligned``
        and ``quade``, and the post hoc families ``nemenyi`` (all pairs),
        ``exact_posthoc``, ``bonferroni_dunn``, ``holm``,
        ``friedman_posthoc``, ``aligned_posthoc`` and ``quade_posthoc``
        (against ``control``, or all pairs without one; ``exact_posthoc``
        and the last three with any ``correction``). None runs the tests
        the registry declares as defaults: ``friedman`` (its p-value exact
        given the ties) and ``nemenyi``, or ``friedman`` and
        ``exact_posthoc`` with a control (Bonferroni–Dunn's normal
        approximation exceeds its level on few data sets); ``[]`` runs
        none; ``{name: {param: value}}`` sets parameters.
    pairwise_tests : str, list of str or dict, default=None
        Tests of one pair at a time, run on every pair or every estimator
        against ``control``: ``wilcoxon``, ``sign``, ``poisson_binomial``,
        ``bayesian_signed_rank``, ``bayesian_sign``. None is ``wilcoxon``,
        plus ``poisson_binomial`` when per-split scores, ``n_train`` and
        ``n_test`` are known; ``[]`` runs none.
    correction : str or None, default="holm"
        Multiplicity correction of each frequentist pairwise test's
        p-values over the pairs it is run on: any of
        :func:`~sklearn_bcv.stats.adjust_pvalues` (``"shaffer"`` and
        ``"bergmann"`` for all pairs only, not with ``control``). The post
        hoc families in ``tests`` take their own ``correction`` parameter
        (e.g. ``tests={"aligned_posthoc": {"correction": "bergmann"}}``).
    control : str, default=None
        Name of the estimator the others are compared with (k − 1 pairs).
    rope : float, default=0.0
        Region of practical equivalence of the Bayesian tests, in score
        units.
    alpha : float, default=0.05
        Significance level (and ``1 - alpha`` the posterior probability of a
        Bayesian decision).
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        Of the pairwise tests, with A the first of a pair in ``names`` order
        (or the other estimator against ``control``): ``"greater"`` tests
        "A better". The rank tests are two-sided.
    effect_size : {"cohen_dz", "cohen_d", "cliff_delta", "akinshin_gamma", \
"mean_difference"}, None or False, default=None
        Kind of ``result.effect_sizes`` (see
        :func:`~sklearn_bcv.stats.effect_size`), over the data sets. None:
        the kind of the automatic path with ``tests="auto"`` (``cohen_d``
        on the parametric path, ``akinshin_gamma`` on the rank-based one,
        as autorank), else ``cohen_dz``, the effect of the paired design.
        Beside them ``result.mean_differences`` always gives the mean
        difference in the scores' units (what most papers report), and a
        report shows both. False computes none (``effect_sizes``,
        ``mean_differences`` and ``effect_size_kind`` are None).
    effect_size_intervals : {"per_pair", "simultaneous"}, default="per_pair"
        ``"per_pair"``: each 95% interval covers its own pair's effect with
        probability 0.95. ``"simultaneous"``: the intervals of all the
        pairs cover their effects together with probability at least 0.95
        (Bonferroni: each at ``1 - 0.05 / n_pairs``), what a claim about
        several pairs at once needs; the effect sizes say which
        (``simultaneous_level``), and so does the report.
    random_state : int, RandomState instance or None, default=None
        Seeds the Monte Carlo sampling of the Bayesian tests and the
        bootstrap of the effect sizes.
    missing : {"error", "drop", "skillings_mack"}, default="error"
        What to do with missing scores (NaN cells: an estimator crashed or
        timed out on a data set, or a paper reports no number; with
        per-split scores, a cell that lacks a split). ``"error"`` refuses
        them, naming every missing cell. ``"drop"`` leaves out the data sets
        with a hole (``result.missing.dropped``): simple, but it throws away
        the other estimators' scores there and favours the estimators that
        fail on hard data sets. ``"skillings_mack"`` keeps every score: the
        tests of all estimators at once are by default the Skillings–Mack
        test (Friedman's test for tables with holes; Durbin's test inside it
        when the holes form a balanced incomplete block design) and its post
        hoc family ``skillings_mack_posthoc``; each pair's pairwise tests and
        effect sizes use the data sets both have; each data set ranks the
        estimators it has (``ranks`` NaN at the holes), and ``mean_ranks``
        and ``mean_scores`` average over the data sets that score each
        estimator. With no hole, Skillings–Mack is Friedman's tie-corrected
        test. The result says which cells were missing
        (``result.missing``), and so do its summary and report.
    runs : bool, default=None
        True: a 3-D ``scores`` is (n_datasets, k, n_runs), several runs of
        each estimator on each data set (random seeds of a stochastic
        learner), and a two-level DataFrame index is (data set, run). A
        3-D array is otherwise read as (n_datasets, n_splits, k) per-split
        scores, as before this option existed: the two shapes cannot be
        told apart, so say which (a 3-D array whose second axis has as many
        entries as ``names`` and not its last is refused without it). None
        reads a long table with a ``run`` column as runs. The ranks, the
        rank tests and the Wilcoxon-type tests use each cell's mean over
        its runs (a NaN run is left out; a cell with no run is a hole); the
        tests of per-split differences (``poisson_binomial``,
        ``bayesian_hierarchical``) use the runs, paired by run, as
        independent replicates (correlation 0), or as cross-validation
        splits when ``n_train`` and ``n_test`` are given. The spread over
        the runs is in the report's tables.
    replicability : {"bonferroni", "fisher"}, None or False, default=None
        On how many data sets each pair differs, and which
        (``result.replicability``; :func:`~sklearn_bcv.stats.replicability`):
        partial conjunction tests of the one-sided p-values of the pair on
        each data set alone (the corrected t test of its splits with
        ``n_train`` and ``n_test``, the paired t test of its runs).
        ``"bonferroni"`` holds whatever the dependence between the data
        sets; ``"fisher"`` assumes them independent. None: Bonferroni where
        per-data-set p-values exist (per-split scores with the set sizes, or
        runs), nothing for a table of means; False: none.

    Returns
    -------
    result : BenchmarkResult
        A :class:`~sklearn.utils.Bunch` subclass with

        names, datasets : list of str
        scores : ndarray of shape (n_datasets, k)
            Mean score of each estimator on each data set.
        split_scores : ndarray of shape (n_datasets, n_splits, k)
            Present when per-split scores were given.
        mean_scores : ndarray of shape (k,)
        ranks : ndarray of shape (n_datasets, k)
            Rank on each data set, 1 = best, ties averaged.
        mean_ranks : ndarray of shape (k,)
        tests : Bunch
            Test name -> result: ``friedman`` (``statistic``, ``pvalue``,
            ``df``, ``iman_davenport``), the post hoc rank tests with (k, k)
            arrays ``statistic``, ``pvalue``, ``reject`` (and
            ``pvalue_adjusted``, ``critical_difference`` where they apply).
        pairwise : Bunch
            Pairwise test name -> (k, k) arrays in ``names`` order, row = A:
            ``statistic``, ``pvalue``, ``pvalue_adjusted``, ``reject`` for
            frequentist tests, ``p_a_better``, ``p_rope``, ``p_b_better``,
            ``reject`` for the Bayesian ones and ``poisson_binomial``;
            ``tested``, ``correction`` and ``results`` (``(name_a, name_b)
            ->`` the full result of the pair).
        n_train, n_test : ndarray of shape (n_datasets,) or None
        skipped_tests : dict
        alpha, alternative, correction, control, greater_is_better : the
            settings.
        effect_sizes : list of Bunch or None
            One per pair ``i < j`` in ``names`` order: ``a`` (=
            ``names[i]``), ``b``, ``kind``, ``estimate`` (positive when A
            is better), ``confidence_interval`` (paired BCa bootstrap over
            the data sets; above 2000 data sets the normal interval of
            asymptotic theory, said in ``note``), ``confidence_level`` (of
            each interval), ``simultaneous_level`` (of all of them, with
            ``effect_size_intervals="simultaneous"``; else None),
            ``magnitude``, ``note``. Above 10 estimators only the pairs
            with the control (or the best by mean rank), with 1999
            resamples, so the cost grows linearly in k. None with
            ``effect_size=False``.
        effect_size_kind : str or None
        mean_differences : list of Bunch or None
            The same pairs, ``kind="mean_difference"``: the mean of the
            differences in the scores' units (positive when A is better),
            with its interval; ``magnitude`` None.
        auto : Bunch or None
            With ``tests="auto"``: ``path`` (``"paired_t"``,
            ``"wilcoxon"``, ``"rm_anova"`` or ``"friedman"``), ``reason``
            (a sentence), ``normality`` (per estimator in ``names`` order:
            ``estimator``, ``statistic``, ``pvalue``, ``normal``,
            ``note``), ``normality_level``, ``variance`` (``test``,
            ``statistic``, ``pvalue``, ``equal``; None when all scores are
            constant), ``effect_size_kind``, ``tests``,
            ``pairwise_tests``. None otherwise.
        verdict : Bunch
            ``omnibus_test``, ``omnibus_reject``, ``posthoc_test``,
            ``pairwise_test``, ``differ`` (pairs ``(better, worse)`` of the
            post hoc test, or else of the first pairwise test, best first),
            ``differ_by_test`` and ``text``.
        missing : Bunch
            ``mode``, ``cells`` (``[data set, estimator]`` of every missing
            score) and ``dropped`` (the data sets left out).
        runs : Bunch or None
            With runs: ``scores`` (n_datasets, k, n_runs) as given,
            ``n_runs`` per cell and ``correlation``.
        replicability : Bunch or None
            ``count`` (k, k): the row is better than the column on at least
            that many data sets; ``identified`` (the data sets, by pair),
            ``results``, ``tested``, ``method``, ``tests``, ``alpha`` and
            ``level``.

        ``result.to_frame()`` gives the compared pairs as a long
        :class:`pandas.DataFrame` (``to_frame("scores")``, ``"ranks"``: the
        tables).

    See Also
    --------
    benchmark : Fit the estimators on every data set and compare them.
    CriticalDifferenceDisplay : Demšar's diagram of the mean ranks.

    Notes
    -----
    The rank tests (Demšar 2006) treat each data set as one observation,
    whatever its size; ``poisson_binomial`` (Corani & Benavoli 2015) lets
    the per-split variability of each data set weigh in, so a data set on
    which cross-validation is noisy counts for less. Its inference is about
    the data sets at hand, not a population of data sets.

    References
    ----------
    .. [1] J. Demšar, "Statistical comparisons of classifiers over multiple
       data sets", JMLR 7:1-30, 2006.
    .. [2] G. Corani, A. Benavoli, "A Bayesian approach for comparing
       cross-validated algorithms on multiple data sets", Machine Learning
       100(2):285-304, 2015.
    .. [3] A. Benavoli, G. Corani, J. Demšar, M. Zaffalon, "Time for a
       change: a tutorial for comparing multiple classifiers through
       Bayesian analysis", JMLR 18(77):1-36, 2017.

    Examples
    --------
    Demšar's (2006) Table 6: AUC of four variants of C4.5 on 14 data sets
    (0.9751: the paper ranks C4.5+cf ahead on that row, its printed 0.975
    being rounded).

    >>> import numpy as np
    >>> from sklearn_bcv import compare_scores
    >>> auc = np.array([
    ...     [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...     [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    ...     [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    ...     [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    ...     [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
    ...     [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    ...     [0.972, 0.981, 0.9751, 0.975], [0.957, 0.978, 0.946, 0.970]])
    >>> result = compare_scores(
    ...     auc, names=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"])
    >>> result.mean_ranks.round(3)
    array([3.143, 2.   , 2.893, 1.964])
    >>> round(result.tests.friedman.statistic, 3)
    10.228
    >>> round(result.tests.nemenyi.critical_difference, 3)  # Demšar's 1.254 + 1/28
    1.289
    >>> result.verdict.differ  # Nemenyi finds no pair at alpha = 0.05
    []

    Against C4.5 as the control (the exact rank-sum post hoc test, Holm's
    correction), two variants are better:

    >>> result = compare_scores(
    ...     auc, names=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"], control="C4.5")
    >>> list(result.tests)
    ['friedman', 'exact_posthoc']
    >>> result.verdict.differ
    [('C4.5+m+cf', 'C4.5'), ('C4.5+m', 'C4.5')]
    """
    refuse_split_tables(scores, datasets=datasets)  # one data set's splits
    read = read_table(
        scores,
        names=names,
        datasets=datasets,
        n_train=n_train,
        n_test=n_test,
        runs=runs,
        missing=missing,
    )
    table = read.table
    replicability = check_replicability(replicability)
    if replicability and table_pvalues(table, [])[0] is None:
        raise ValueError(f"replicability={replicability!r}: {NO_PVALUES}.")
    drawn = study_seed(random_state)  # recorded: a run with None can be repeated
    seed = drawn.seed
    if not greater_is_better:
        # Negate once at the boundary: every statistic below sees "higher is
        # better"; the result gets the user's units back.
        table = dataclasses.replace(
            table,
            scores=-table.scores,
            split_scores=None if table.split_scores is None else -table.split_scores,
        )
    auto = None
    if _is_auto(tests):
        check_auto(table)
        check_names_subset(control, table.names, name="control")
        auto = _auto(table.scores, table.names, alpha, control, table.cell_tolerance())
        tests = auto.tests
        if pairwise_tests is None:
            pairwise_tests = auto.pairwise_tests
    tests = incomplete_defaults(tests, control, missing)
    rank_plan, pairwise_plan, control = _plan(
        planning_needs(table),
        table.names,
        tests=tests,
        pairwise_tests=pairwise_tests,
        control=control,
        correction=correction,
        rope=rope,
        alternative=alternative,
        random_state=seed,
        table_shape=table.scores.shape,
    )
    pairs = pairs_tested(len(table.names), control)
    check_plan(table, rank_plan, pairwise_plan, pairs, table.names)
    pairwise_plan = with_run_correlation(pairwise_plan, table)
    result = build_datasets_result(
        table,
        rank_plan=rank_plan,
        pairwise_plan=_with_score_scale(pairwise_plan),
        correction=correction,
        control=control,
        alpha=alpha,
        alternative=alternative,
    )
    result["scores"] = read.user_scores
    result["mean_scores"] = _mean_scores(read.user_scores)
    result["split_scores"] = read.user_splits
    result["missing"], result["runs"] = read.missing, read.runs
    if replicability is not False:
        test, greater, less = table_pvalues(table, pairs)
        if test is not None:
            result["replicability"] = pairwise_replicability(
                greater,
                less,
                pairs,
                table.names,
                table.datasets,
                alpha=alpha,
                alternative=alternative,
                method=replicability or "bonferroni",
                tests=[test],
            )
    result["greater_is_better"] = bool(greater_is_better)
    result["auto"] = auto
    result["provenance"] = make_provenance(
        seed=drawn, given="scores", pandas=uses_pandas(scores)
    )
    _attach_effect_sizes(
        result,
        table.scores,
        effect_size,
        auto,
        seed=seed,
        intervals=effect_size_intervals,
        table=table,
    )
    return result


def _mean_scores(scores):
    """Each estimator's mean score over the data sets that score it."""
    if np.all(np.isfinite(scores)):
        return stable_mean(scores, axis=0)
    return nan_mean(scores, axis=0)


def _check_dataset_tests(dataset_tests):
    """``dataset_tests``: None, ``[]``, or two-estimator tests by name,
    checked by name and kind before any data set is loaded (whether each
    fits a data set's design and task is checked once its splits are made,
    still before any fit)."""
    if dataset_tests is None or (
        isinstance(dataset_tests, list | tuple) and not dataset_tests
    ):
        return dataset_tests
    requested = check_tests_argument(dataset_tests, argument="dataset_tests")
    for name in requested:
        try:
            entry = get_entry(name)
        except ValueError as exc:
            raise ValueError(f"dataset_tests: {exc}") from None
        if entry.kind != "pair":
            raise ValueError(
                f"dataset_tests: {name} is a test of kind {entry.kind!r}; "
                "dataset_tests takes the two-estimator tests run on the pairs of "
                f"each data set: {available_tests(kind='pair')}."
            )
    return dataset_tests


def _plan_dataset(dataset_tests, prepared, alternative, name):
    """The plan of one data set's tests (``dataset_tests`` on its design),
    an error naming the argument and the data set, before any fit."""
    try:
        return plan_many(
            None,
            dataset_tests,
            prepared.design,
            prepared.task,
            prepared.scoring,
            alternative,
            argument="dataset_tests",
        )
    except ValueError as exc:
        if dataset_tests is None or str(exc).startswith("dataset_tests"):
            raise
        raise ValueError(f"dataset_tests, on data set {name!r}: {exc}") from None


def _check_datasets(datasets):
    """``[(name, data or loader), ...]`` from a dict (or a list of pairs)."""
    pairs = named_items(
        datasets,
        argument="datasets",
        expected="(X, y) or a callable returning (X, y)",
        at_least=2,
        too_few="at least 2 data sets to compare across",
    )
    for name, data in pairs:
        if not callable(data) and not _is_xy(data):
            raise TypeError(
                f"datasets[{name!r}] must be a pair (X, y) or a callable returning "
                f"(X, y); got {type(data).__name__}"
                + (f" of length {len(data)}" if isinstance(data, tuple | list) else "")
                + "."
            )
    return pairs


def _is_xy(data):
    return isinstance(data, tuple | list) and len(data) == 2


def _load(name, data):
    """``(X, y)`` of one data set, calling its loader (once)."""
    if not callable(data):
        return data
    try:
        loaded = data()
    except Exception as exc:
        exc.add_note(f"(raised by the loader of datasets[{name!r}])")
        raise
    if not _is_xy(loaded):
        raise TypeError(
            f"datasets[{name!r}] is a loader; it must return (X, y), got "
            f"{type(loaded).__name__}."
        )
    return loaded


def _check_cv_spec(cv):
    """One cv for every data set: None, an int or a splitter (not splits)."""
    if cv is None or isinstance(cv, Integral) or hasattr(cv, "split"):
        return cv
    raise ValueError(
        "cv must be None, an int or a cross-validation splitter applied to every "
        "data set; a list of splits fits one data set only (use "
        f"compare_many_estimators for it). Got {type(cv).__name__}."
    )


def _stack(arrays):
    """``np.stack`` when every data set has the same number of splits."""
    if len({a.shape for a in arrays}) == 1:
        return np.stack(arrays)
    return list(arrays)


@validate_params(
    {
        "estimators": [list, tuple, dict],
        "datasets": [dict, list, tuple],
        "cv": ["cv_object"],
        "scoring": [str, callable, None],
        **_STATISTICS_PARAMETERS,
        "n_jobs": [Integral, None],
        "verbose": ["verbose"],
        "error_score": [StrOptions({"raise"}), Real],
        "store": [str, os.PathLike, StudyStore, None],
        "dataset_tests": [str, list, tuple, dict, None],
    },
    prefer_skip_nested_validation=False,  # the estimators are not validated yet
)
def benchmark(
    estimators,
    datasets,
    *,
    cv=None,
    scoring=None,
    tests=None,
    pairwise_tests=None,
    dataset_tests=None,
    correction="holm",
    control=None,
    rope=0.0,
    alpha=0.05,
    alternative="two-sided",
    effect_size=None,
    effect_size_intervals="per_pair",
    n_jobs=None,
    verbose=0,
    random_state=None,
    error_score="raise",
    store=None,
    missing="error",
    replicability=None,
):
    """Fit k estimators on every split of every data set and compare them.

    The benchmark study of a paper, from one set of fits: clones of each
    estimator are fitted once per split of every data set, in one joblib
    pool over (data set, split, estimator) with no barrier between data
    sets, so a large data set keeps no worker waiting. The per-split scores
    then go through :func:`compare_scores` (the same statistics path), and
    each data set gets its own :func:`compare_many_estimators` result from
    the same fits.

    Parameters
    ----------
    estimators : list of (str, estimator) tuples or dict of str to estimator
        At least two, names unique; all classifiers or all regressors.
    datasets : dict of str to (X, y) or to callable
        At least two data sets, each ``(X, y)`` or a zero-argument callable
        returning ``(X, y)`` (called once, when the benchmark starts). Each
        may have its own size, features and classes.
    cv : int or cross-validation generator, default=None
        One spec applied to every data set. None is a block-regularized 5×2
        CV, seeded per data set from ``random_state``.
    scoring : str, callable or scorer, default=None
        As in :func:`compare_estimators` (accuracy for classifiers, r2 for
        regressors).
    tests, pairwise_tests, correction, control, rope, alpha, alternative, \
effect_size, effect_size_intervals
        As in :func:`compare_scores` (``tests="auto"`` decides on the mean
        scores of the data sets, once the fits are done).
        ``pairwise_tests=None`` runs ``wilcoxon`` and ``poisson_binomial``
        (the per-split scores and the set sizes are known here).
    dataset_tests : str, list of str or dict, default=None
        The two-estimator tests (``available_tests(kind="pair")``) run on
        every pair (or against ``control``) of each data set, in
        ``result.per_dataset``: None runs the one
        :func:`compare_many_estimators` recommends for the design (its
        verdict test, e.g. ``bcv_mcnemar`` on a 5×2 BCV of a classifier);
        ``[]`` runs none (the omnibus tests of each data set still run:
        one per data set); a name, a list of names or ``{name: {param:
        value}}`` runs those. With many estimators these are most of the
        statistics' cost (k(k − 1)/2 pairs on every data set): pass ``[]``
        when only the comparison across data sets matters. Checked before
        any data set is loaded or fitted.
    n_jobs : int, default=None
        Number of jobs fitting in parallel over (data set, split,
        estimator), capped at the number of fits (and at the number of cores for
        joblib's local process backends); 0 is refused.
    verbose : int, default=0
        1 shows a progress bar (fits done of the total, elapsed and
        remaining time, data sets done; tqdm's when it is installed, else a
        line on stderr); 2 also a line as each data set's fits finish; 3 a
        line per fit.
    random_state : int, RandomState instance or None, default=None
        Seeds the default ``cv`` of every data set and the Bayesian tests'
        sampling; seed randomised estimators yourself.
    error_score : "raise" or float, default="raise"
        As in :func:`~sklearn.model_selection.cross_validate`: a number
        records failed fits (``failed_fits``) with a ``FitFailedWarning``.
        A cell (data set, estimator) with a failed fit is then a hole, which
        ``missing`` treats.
    store : str, os.PathLike or StudyStore, default=None
        A study store (see :class:`StudyStore`; a path is opened, created
        when absent, and closed at the end): every finished fit is kept in it
        as it arrives, and fits it already holds are not fitted again, so an
        interrupted call resumes where it stopped. None keeps nothing.
        The same call resumes an interrupted study (the result is that of
        an uninterrupted one); adding an estimator or a data set fits only
        those; a store that already holds the whole study fits nothing.
    missing : {"error", "drop", "skillings_mack"}, default="error"
        The cells whose fits failed (``error_score`` a number): with
        ``"error"`` no test runs (the fits are kept, and the result names
        the cells); ``"drop"`` leaves out the data sets with a failed cell;
        ``"skillings_mack"`` keeps every other score (as
        :func:`compare_scores`; the tests of all estimators at once must
        then take holes). ``result.missing.cells`` names the failed cells.
    replicability : {"bonferroni", "fisher"}, None or False, default=None
        As in :func:`compare_scores`; the p-value of a pair on each data set
        is that of the one-sided test recommended for the data set's design
        (e.g. ``bcv_mcnemar`` on a 5×2 BCV of classifiers scored by
        accuracy, ``corrected_t`` on k-fold), on its own fits. None is
        Bonferroni; False computes none.

    Returns
    -------
    result : BenchmarkResult
        The fields of :func:`compare_scores`' result (with ``split_scores``,
        ``n_train`` and ``n_test`` per data set), plus

        scoring : str
        per_dataset : Bunch
            Data set name -> its :class:`ManyComparisonResult` (the tests of
            k estimators on one data set), from the same fits.
        fit_time, score_time : ndarray of shape (n_datasets, n_splits, k)
            Seconds to fit and to predict (a list of (n_splits, k) arrays
            when the data sets have different numbers of splits).
        failed_fits : same shape, bool

    See Also
    --------
    compare_scores : The same statistics on a score table made elsewhere.
    compare_many_estimators : k estimators on one data set.
    CriticalDifferenceDisplay : Demšar's diagram of the mean ranks.

    Notes
    -----
    All the randomness (splits, clones) is drawn in the calling process, so
    with seeded estimators the result does not depend on ``n_jobs`` or the
    joblib backend; it runs unchanged on a dask cluster through
    ``joblib.parallel_config(backend="dask")``.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer, load_iris, load_wine
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_bcv import benchmark
    >>> result = benchmark(
    ...     {"bayes": GaussianNB(), "tree": DecisionTreeClassifier(random_state=0),
    ...      "majority": DummyClassifier()},
    ...     {"iris": lambda: load_iris(return_X_y=True),
    ...      "wine": lambda: load_wine(return_X_y=True),
    ...      "cancer": lambda: load_breast_cancer(return_X_y=True)},
    ...     random_state=0)
    >>> result.split_scores.shape  # data sets, splits of a 5×2 BCV, estimators
    (3, 10, 3)
    >>> result.mean_ranks
    array([1., 2., 3.])
    >>> list(result.tests), list(result.pairwise)
    (['friedman', 'nemenyi'], ['wilcoxon', 'poisson_binomial'])
    >>> list(result.per_dataset)
    ['iris', 'wine', 'cancer']
    >>> bool(result.per_dataset.iris.tests.bcv_cochran_q.reject)
    True
    """
    named = check_estimator_list(estimators)
    names = [name for name, _ in named]
    pairs = _check_datasets(datasets)
    cv = _check_cv_spec(cv)
    dataset_tests = _check_dataset_tests(dataset_tests)
    plan_kwargs = dict(
        control=control,
        correction=correction,
        rope=rope,
        alternative=alternative,
        random_state=0,  # the study seed, once the store is open (below)
        table_shape=(len(pairs), len(names)),
    )
    full_needs = {
        "scores",
        "dataset_differences",
        "split_differences",
        "n_train",
        "n_test",
    }
    auto_requested = _is_auto(tests)
    replicability = check_replicability(replicability)
    if not auto_requested:
        tests = incomplete_defaults(tests, control, missing)
    planned = dict(
        tests=[] if auto_requested else tests,
        pairwise_tests=[]
        if auto_requested and pairwise_tests is None
        else pairwise_tests,
    )
    # Checked before any fit (planned again with the study seed below).
    rank_plan, _, _ = _plan(full_needs, names, **planned, **plan_kwargs)
    if missing == "skillings_mack":  # a failed fit leaves a hole
        check_takes_holes(rank_plan)
    dataset_names = [name for name, _ in pairs]
    with opened_store(store) as study_store:
        # One study seed, drawn or given (or the store's, to resume it); each
        # data set's splits from it and the data set's name, not its place.
        seed = call_seed(random_state, study_store)
        sampling_seed = plan_kwargs["random_state"] = seed.seed
        split_seeds = {name: dataset_seed(seed.seed, name) for name in dataset_names}
        rank_plan, pairwise_plan, control_index = _plan(
            full_needs, names, **planned, **plan_kwargs
        )
        prepared, many_plans, loaded = [], [], []
        for name, data in pairs:
            X, y = _load(name, data)
            one = prepare_fits(
                [(repr(label), estimator) for label, estimator in named],
                X,
                y,
                cv=default_cv(split_seeds[name]) if cv is None else cv,
                scoring=scoring,
                groups=None,
                params=None,
                random_state=None,
                owner="benchmark",
                error_score=error_score,
            )
            prepared.append(one)
            loaded.append((X, y))
            many_plans.append(_plan_dataset(dataset_tests, one, alternative, name))
        progress = None
        if verbose > 0:
            progress = FitProgress(
                [
                    (n, len(p.splits) * len(names))
                    for n, p in zip(dataset_names, prepared)
                ],
                verbose,
            )
        try:
            fitted = fit_datasets(
                prepared,
                labels=names,
                n_jobs=n_jobs,
                verbose=max(0, verbose - 1),
                error_score=error_score,
                names=dataset_names,
                progress=progress,
                study_store=study_store,
            )
        finally:
            if progress is not None:
                progress.close()
    stores = [store for _, store in fitted]
    split_scores = _stack([store.scores for store in stores])
    failed = [name for name, store in zip(dataset_names, stores) if store.any_failed]
    means, cell_scale = mean_scores([store.scores for store in stores])
    table = ScoreTable(
        scores=means,
        names=names,
        datasets=dataset_names,
        split_scores=split_scores if isinstance(split_scores, np.ndarray) else None,
        n_train=np.array([store.n_train for store in stores]),
        n_test=np.array([store.n_test for store in stores]),
        cell_scale=cell_scale,
    )
    # A cell (data set, estimator) with a failed fit is a hole: kept as NaN
    # (missing="skillings_mack"), its data set dropped ("drop"), or no test
    # runs ("error", the fits kept).
    holes = benchmark_holes(
        table, np.array([s.failed.any(axis=0) for s in stores]), missing
    )
    kept = ~np.isin(dataset_names, holes.missing.dropped)
    runnable = not failed or (missing != "error" and kept.sum() >= 2)
    if runnable:
        table = holes.table
        stores = [store for store, keep in zip(stores, kept) if keep]
    auto = None
    if auto_requested and not failed:
        auto = _auto(table.scores, names, alpha, control, table.cell_tolerance())
        rank_plan, pairwise_plan, _ = _plan(
            full_needs,
            names,
            tests=auto.tests,
            pairwise_tests=auto.pairwise_tests
            if pairwise_tests is None
            else pairwise_tests,
            **plan_kwargs,
        )
    elif auto_requested and runnable and failed and missing == "skillings_mack":
        rank_plan, _, _ = _plan(
            full_needs,
            names,
            tests=incomplete_defaults(None, control, missing),
            pairwise_tests=[],
            **plan_kwargs,
        )
    if table.split_scores is None:  # uneven numbers of splits
        pairwise_plan = [t for t in pairwise_plan if "split_differences" not in t.needs]
    reason = None
    if not runnable:
        reason = f"fits failed on {', '.join(failed)}" + (
            f" ({len(holes.missing.cells)} cells; missing='skillings_mack' keeps "
            "the other scores, missing='drop' leaves those data sets out)"
            if missing == "error"
            else " (missing='drop' leaves fewer than 2 data sets)"
        )
    compared_pairs = pairs_tested(len(names), control_index)
    unpaired = {}
    short = pairs_without_data(table, compared_pairs) if runnable else []
    if short:  # the fits are done: say why, rather than lose them
        shown = ", ".join(f"{names[a]} and {names[b]}" for a, b in short[:10])
        unpaired = {
            t.name: f"{shown} have fewer than 2 data sets in common"
            for t in pairwise_plan
        }
        pairwise_plan = []
    if runnable:
        check_plan(table, rank_plan, pairwise_plan, compared_pairs, names)
    result = build_datasets_result(
        table,
        rank_plan=rank_plan,
        pairwise_plan=_with_score_scale(pairwise_plan),
        correction=correction,
        control=control_index,
        alpha=alpha,
        alternative=alternative,
        skipped={t.name: reason for t in (*rank_plan, *pairwise_plan)}
        if not runnable
        else None,
    )
    result["missing"] = holes.missing
    result["skipped_tests"].update(unpaired)
    if runnable and replicability is not False:
        tests_used, greater, less = store_pvalues(
            stores,
            [one.design for one, keep in zip(prepared, kept) if keep],
            prepared[0].task,
            prepared[0].scoring.label,
            compared_pairs,
        )
        result["replicability"] = pairwise_replicability(
            greater,
            less,
            compared_pairs,
            names,
            list(table.datasets),
            alpha=alpha,
            alternative=alternative,
            method=replicability or "bonferroni",
            tests=tests_used,
        )
    result["scoring"] = prepared[0].scoring.label
    result["greater_is_better"] = True  # scikit-learn scorers: higher is better
    result["auto"] = auto
    _attach_effect_sizes(
        result,
        table.scores,
        effect_size,
        auto,
        seed=sampling_seed,
        intervals=effect_size_intervals,
        table=table,
    )
    if not isinstance(split_scores, np.ndarray):
        result["split_scores"] = [s for s, keep in zip(split_scores, kept) if keep]
    compared = [fits for (fits, _), keep in zip(fitted, kept) if keep or not runnable]
    result["fit_time"] = _stack([fits.fit_time for fits in compared])
    result["score_time"] = _stack([fits.score_time for fits in compared])
    result["failed_fits"] = _stack([fits.failed for fits in compared])
    provenance = make_provenance(
        estimators=named,
        cv=describe_cv(cv, seed.seed, per_dataset=True),
        seed=seed,
        pandas=uses_pandas(*(data for pair in loaded for data in pair)),
    )
    provenance["datasets"] = {
        name: describe_dataset(
            X,
            y,
            task=one.task,
            source=describe_source(data),
            seed=split_seeds[name] if cv is None else None,
        )
        for (name, data), (X, y), one in zip(pairs, loaded, prepared)
    }
    result["provenance"] = provenance
    result["per_dataset"] = Bunch(
        **{
            name: build_many_result(
                store,
                names=names,
                design=one.design,
                omnibus_plan=plan[0],
                omnibus_skipped=plan[1],
                pairwise_plan=plan[2],
                correction=correction,
                control=control_index,
                alpha=alpha,
                alternative=alternative,
                fits=fits,
                switch="dataset_tests",
            )
            for name, one, plan, (fits, store) in zip(
                dataset_names, prepared, many_plans, fitted
            )
        }
    )
    for name, one in result.per_dataset.items():
        one["provenance"] = make_provenance(
            estimators=named,
            cv=describe_cv(cv, split_seeds[name]),
            seed=None if cv is not None else derived_seed(seed.seed, split_seeds[name]),
        )
    return result
