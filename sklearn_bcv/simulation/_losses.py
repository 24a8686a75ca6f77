"""Type I error and power of the tests on simulated loss vectors (no learners).

Every repetition's contingency tables and score differences are built at
once as arrays, and each registered test is called once with a leading
repetition dimension, so thousands of repetitions take seconds.
"""

import time
from numbers import Integral, Real

import numpy as np
from sklearn.model_selection import check_cv
from sklearn.utils import check_random_state

from .. import stats
from .._compat import HasMethods, Interval, StrOptions, validate_params
from .._constants import ALTERNATIVES
from .._engine._design import describe_design
from .._engine._plan import plan_tests, run_tests
from ..stats._registry import get_test
from ._result import CI_METHODS, build_result

__all__ = ["simulate_loss_vectors"]

# Bound on the temporary (batch, 4, n_samples) one-hot array of ``_tables``
# (float64: 64 MB), whatever the number of records.
_MAX_BATCH_ELEMENTS = 2**23
_BATCHED_NEEDS = {"tables", "differences", "n_train", "n_test"}


def _check_losses(loss_a, loss_b):
    arrays = []
    for name, loss in (("loss_a", loss_a), ("loss_b", loss_b)):
        arr = np.asarray(loss)
        if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 2:
            raise ValueError(
                f"{name} must be a 2-D array of shape (n_repetitions, n_samples) "
                f"with n_samples >= 2; got shape {arr.shape}."
            )
        if not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool) or not (
            np.all((arr == 0) | (arr == 1))
        ):
            raise ValueError(f"{name} must hold 0-1 losses (0 or 1 only).")
        arrays.append(arr.astype(np.int8))
    if arrays[0].shape != arrays[1].shape:
        raise ValueError(
            "loss_a and loss_b must have the same shape; got "
            f"{arrays[0].shape} and {arrays[1].shape}."
        )
    return arrays


def _split_records(cv, n_samples):
    """The splits of ``n_samples`` records, which carry no labels or groups."""
    try:
        return list(cv.split(np.zeros((n_samples, 1))))
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"cv must split {n_samples} records without class labels or groups "
            f"(loss vectors carry neither); {cv!r} failed: {exc}"
        ) from exc


def _tables(loss_a, loss_b, masks):
    """Tables (n_repetitions, n_splits, 2, 2) of the test records of ``masks``.

    ``table[i, j]`` counts records where A's correctness is i and B's is j.
    """
    n_repetitions, n_samples = loss_a.shape
    batch = max(1, _MAX_BATCH_ELEMENTS // (4 * n_samples))
    tables = np.empty((n_repetitions, masks.shape[0], 2, 2), dtype=np.int64)
    for start in range(0, n_repetitions, batch):
        part = slice(start, start + batch)
        cell = 2 * (1 - loss_a[part]) + (1 - loss_b[part])  # flat [a_ok, b_ok]
        one_hot = (cell[:, np.newaxis, :] == np.arange(4)[:, np.newaxis]).astype(
            np.float64
        )
        counts = one_hot @ masks.T  # (batch, 4, n_splits), exact small integers
        tables[part] = (
            np.rint(counts)
            .astype(np.int64)
            .transpose(0, 2, 1)
            .reshape(-1, masks.shape[0], 2, 2)
        )
    return tables


def _takes_batches(name, test_needs):
    """Whether the test can be called once with a leading repetition dimension.

    The package's own tests (:mod:`sklearn_bcv.stats`) accept leading batch
    dimensions; those needing only tables, differences and set sizes run
    batched. A third-party test may not accept them, and one that
    half-supports them could return an array of the right shape holding
    wrong numbers, so it always runs repetition by repetition.
    """
    builtin = any(get_test(name) is getattr(stats, func) for func in stats.__all__)
    return builtin and set(test_needs) <= _BATCHED_NEEDS


def _per_repetition_results(test, loss_a, loss_b, splits, needs, alpha, alternative):
    """Run a test one repetition at a time."""
    results = []
    for r in range(loss_a.shape[0]):
        needs_r = {
            "tables": needs["tables"][r],
            "differences": needs["differences"][r],
            "scores_a": needs["scores_a"][r],
            "scores_b": needs["scores_b"][r],
            "n_train": needs["n_train"],
            "n_test": needs["n_test"],
        }
        if "loss_differences" in test.needs:
            difference = loss_a[r].astype(np.float64) - loss_b[r]
            needs_r["loss_differences"] = [difference[test] for _, test in splits]
        results.append(run_tests([test], needs_r, alpha, alternative)[test.name])
    return results


def _collect(result, n_repetitions):
    """(reject, pvalue, statistic) arrays of a result with a repetition axis."""
    reject = np.asarray(result.reject, dtype=bool).reshape(n_repetitions)
    pvalue = None if result.pvalue is None else np.asarray(result.pvalue, dtype=float)
    statistic = result.get("statistic")
    statistic = None if statistic is None else np.asarray(statistic, dtype=float)
    if statistic is not None and statistic.shape != (n_repetitions,):
        statistic = None
    return reject, pvalue, statistic


def _stack(results):
    reject = np.array([bool(result.reject) for result in results])
    pvalue = (
        None
        if any(result.pvalue is None for result in results)
        else np.array([float(result.pvalue) for result in results])
    )
    statistic = (
        None
        if any(np.ndim(result.get("statistic")) != 0 for result in results)
        or any(result.get("statistic") is None for result in results)
        else np.array([float(result.statistic) for result in results])
    )
    return reject, pvalue, statistic


@validate_params(
    {
        "loss_a": ["array-like"],
        "loss_b": ["array-like"],
        "cv": [Interval(Integral, 2, None, closed="left"), HasMethods("split")],
        "tests": [str, list, tuple, dict, None],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "alternative": [StrOptions(set(ALTERNATIVES))],
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "ci_method": [StrOptions(set(CI_METHODS))],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    },
    prefer_skip_nested_validation=True,
)
def simulate_loss_vectors(
    loss_a,
    loss_b,
    cv,
    *,
    tests=None,
    alpha=0.05,
    alternative="two-sided",
    confidence_level=0.95,
    ci_method="wilson",
    random_state=None,
    verbose=0,
):
    """Rejection rates of the tests on simulated 0-1 loss vectors.

    Each row of ``loss_a`` / ``loss_b`` is one simulated data set: the 0-1
    losses two algorithms incur on its records, whatever they are trained on
    (as in Dietterich's epsilon data set, see
    :func:`~sklearn_bcv.datasets.make_epsilon_losses`). For every row the
    records are put in a random order and split by ``cv``; the contingency
    tables and accuracy differences of every split of every repetition are
    built as arrays, and each of the package's tests runs once on all
    repetitions (leading batch dimension). Tests that need per-record
    ``loss_differences`` (``cv_ci_z``) and third-party tests (registered with
    :func:`~sklearn_bcv.register_test`, which may not handle a batch
    dimension) run repetition by repetition, through the same engine.

    Parameters
    ----------
    loss_a, loss_b : array-like of shape (n_repetitions, n_samples)
        0-1 losses of A and B (1 = wrong) on the records of each repetition's
        data set.
    cv : int or cross-validation generator
        The design: a splitter with a ``split`` method (e.g.
        :class:`~sklearn_bcv.BlockRegularized5x2CV`,
        :class:`~sklearn.model_selection.ShuffleSplit` for hold-out designs)
        or an int for k-fold CV. It is split once, on ``n_samples`` records.
    tests : str, list of str or dict, default=None
        As in :func:`~sklearn_bcv.compare_estimators`: ``None`` runs every
        registered test applicable to the design (those derived for
        block-regularized splits only on a block-regularized design); a name
        or a list of names; or ``{name: {param: value}}``.
    alpha : float, default=0.05
        Significance level of every test.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        Passed to every test (with ``tests=None``, tests that cannot honour a
        one-sided alternative are left out).
    confidence_level : float, default=0.95
        Level of the rates' confidence intervals.
    ci_method : {"wilson", "exact", "wilsoncc"}, default="wilson"
        Binomial interval (see :func:`rejection_rate_interval`).
    random_state : int, RandomState instance or None, default=None
        Draws the record order of every repetition. Pass an int for
        reproducible output.
    verbose : int, default=0
        Print progress (table building and each test's timing) when > 0.

    Returns
    -------
    result : SimulationResult
        A :class:`~sklearn.utils.Bunch` with fields

        tests : list of str
            The tests run, in order.
        rates : Bunch
            ``rates[name]``: fraction of repetitions in which the test
            rejected (the type I error when the null hypothesis holds, the
            power otherwise).
        ci : Bunch
            ``ci[name]``: the ``(low, high)`` binomial confidence interval of
            the rate.
        n_rejections : Bunch
            ``n_rejections[name]``: number of rejecting repetitions.
        n_repetitions : int
            Number of repetitions (rows of the loss arrays).
        rejections : Bunch
            ``rejections[name]``: bool array of shape (n_repetitions,).
        pvalues, statistics : Bunch
            Float arrays of shape (n_repetitions,) per test (None for a test
            without a p-value, e.g. ``bayesian_correlated_t``).
        design : str
            The design's description, e.g. ``"5×2 block-regularized CV"``.
        alpha, alternative, confidence_level, ci_method
            The arguments.
        tables : ndarray of shape (n_repetitions, n_splits, 2, 2)
            Every repetition's contingency tables.
        differences : ndarray of shape (n_repetitions, n_splits)
            Every repetition's accuracy differences (A minus B).

    See Also
    --------
    simulate_comparisons : The same with learners fitted on generated data.
    sklearn_bcv.datasets.make_epsilon_losses : The epsilon loss vectors.

    Notes
    -----
    The splits are drawn once from ``cv`` and every repetition permutes its
    records uniformly at random (from ``random_state``) before they are
    read. For splitters that allocate records at random (the block-regularized
    ones, shuffled k-fold, :class:`~sklearn.model_selection.ShuffleSplit`,
    :class:`~sklearn.model_selection.RepeatedKFold`) this has the same
    distribution as drawing a fresh split for every repetition, except that
    when the sizes of the folds or sub-blocks differ by one record, which of
    them holds the extra records is fixed; an unshuffled k-fold becomes a
    random one. Splitters that need class labels or groups (stratified or
    group splitters) are refused: loss vectors carry neither. As
    :func:`~sklearn_bcv.compare_predictions`
    does, score differences are accuracies (``(n10 - n01) / n_test`` per
    split) and ``n_train`` / ``n_test`` the mean set sizes.

    Examples
    --------
    Type I error of the 5×2 BCV McNemar's test on the epsilon data set
    (Yang et al. 2023, Table V reports 0.025):

    >>> from sklearn_bcv import BlockRegularized5x2CV
    >>> from sklearn_bcv.datasets import make_epsilon_losses
    >>> from sklearn_bcv.simulation import simulate_loss_vectors
    >>> loss_a, loss_b = make_epsilon_losses(300, n_datasets=2000, random_state=0)
    >>> result = simulate_loss_vectors(
    ...     loss_a, loss_b, BlockRegularized5x2CV(random_state=0),
    ...     tests=["bcv_mcnemar", "combined_t_5x2cv"], random_state=0)
    >>> round(result.rates["bcv_mcnemar"], 3)
    0.022
    >>> print(result)  # doctest: +NORMALIZE_WHITESPACE
    Rejection rates over 2000 repetitions (5×2 block-regularized CV; alpha = 0.05;
    95% wilson intervals)
    test              rate   95% interval          rejections
    bcv_mcnemar       0.022  [0.016, 0.029]        44
    combined_t_5x2cv  0.289  [0.270, 0.310]        579
    """
    loss_a, loss_b = _check_losses(loss_a, loss_b)
    n_repetitions, n_samples = loss_a.shape
    cv = check_cv(cv)
    splits = _split_records(cv, n_samples)
    design = describe_design(splits, n_samples, cv=cv)
    plan, _ = plan_tests(tests, design, "classification", alternative=alternative)

    # The record orders come from a generator seeded through a SeedSequence:
    # drawn straight from ``random_state``'s stream they would repeat the
    # uniforms that generated the losses whenever the caller passes the same
    # int to the loss generator, tying the splits to the losses.
    seed = check_random_state(random_state).randint(np.iinfo(np.int32).max)
    keys = np.random.default_rng(seed).random((n_repetitions, n_samples))
    order = np.argsort(keys, axis=1)
    loss_a = np.take_along_axis(loss_a, order, axis=1)
    loss_b = np.take_along_axis(loss_b, order, axis=1)

    start = time.perf_counter()
    masks = np.zeros((len(splits), n_samples))
    for k, (_, test) in enumerate(splits):
        masks[k, test] = 1.0
    tables = _tables(loss_a, loss_b, masks)
    n_test_per_split = np.array([test.size for _, test in splits], dtype=np.float64)
    differences = (tables[..., 1, 0] - tables[..., 0, 1]) / n_test_per_split
    needs = {
        "tables": tables,
        "differences": differences,
        # Accuracies per split, for tests of score samples (aso).
        "scores_a": (tables[..., 1, 0] + tables[..., 1, 1]) / n_test_per_split,
        "scores_b": (tables[..., 0, 1] + tables[..., 1, 1]) / n_test_per_split,
        "n_train": float(np.mean([train.size for train, _ in splits])),
        "n_test": float(np.mean(n_test_per_split)),
    }
    if verbose > 0:
        print(
            f"[simulate_loss_vectors] {n_repetitions} repetitions × "
            f"{len(splits)} splits ({design.describe()}): tables built in "
            f"{time.perf_counter() - start:.2f} s"
        )

    rejections, pvalues, statistics = {}, {}, {}
    for test in plan:
        name = test.name
        start = time.perf_counter()
        if _takes_batches(name, test.needs):
            ran = run_tests([test], needs, alpha, alternative)
            collected = _collect(ran[name], n_repetitions)
        else:
            results = _per_repetition_results(
                test, loss_a, loss_b, splits, needs, alpha, alternative
            )
            collected = _stack(results)
        rejections[name], pvalues[name], statistics[name] = collected
        if verbose > 0:
            print(
                f"[simulate_loss_vectors] {name}: {time.perf_counter() - start:.2f} s"
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
    result.tables = tables
    result.differences = differences
    return result
