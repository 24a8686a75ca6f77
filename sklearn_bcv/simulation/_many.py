"""Type I error and power of the tests of k estimators on simulated loss vectors.

The k-estimator version of :func:`simulate_loss_vectors`: every repetition's
records are permuted and split, the per-split arrays of which records each
estimator gets right are gathered for a chunk of repetitions at once, the
registered omnibus tests run once per chunk on them (their leading batch
dimension), and the pairwise two-estimator test runs once per chunk on the
contingency tables of all L(L − 1)/2 pairs, built from each split's
Gram matrix of right answers. The pairwise p-values of each repetition are
then adjusted as one family, vectorised over the repetitions.
"""

import time
from itertools import combinations
from numbers import Integral, Real

import numpy as np
from sklearn.model_selection import check_cv
from sklearn.utils import Bunch, check_random_state

from .. import stats
from .._compat import HasMethods, Interval, StrOptions, validate_params
from .._engine._design import describe_design
from .._engine._plan import plan_tests, recommend, run_tests
from ..stats._corrections import CORRECTIONS, adjust_pvalues, check_correction
from ..stats._registry import get_test
from ._losses import _split_records
from ._result import CI_METHODS, build_result

__all__ = ["simulate_many_loss_vectors"]

# Bound on the per-chunk record arrays (bool elements over all splits).
_MAX_CHUNK_ELEMENTS = 2**23
_BATCHED_MANY_NEEDS = {"correct", "scores", "n_train", "n_test"}
_BATCHED_PAIR_NEEDS = {"tables", "differences", "n_train", "n_test"}


def _check_many_losses(losses):
    arr = np.asarray(losses)
    if arr.ndim != 3 or arr.shape[0] < 1 or arr.shape[1] < 2 or arr.shape[2] < 2:
        raise ValueError(
            "losses must be a 3-D array of shape (n_repetitions, n_samples, "
            "n_estimators) with n_samples >= 2 and n_estimators >= 2; got shape "
            f"{arr.shape}."
        )
    if not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool) or not (
        np.all((arr == 0) | (arr == 1))
    ):
        raise ValueError("losses must hold 0-1 losses (0 or 1 only).")
    return arr.astype(np.int8)


def _permute_records(losses, random_state):
    """Every repetition's records in a random order (as simulate_loss_vectors).

    The orders come from a generator seeded through a SeedSequence, so that
    the same int passed to the loss generator and here does not tie the
    splits to the losses.
    """
    n_repetitions, n_samples = losses.shape[:2]
    seed = check_random_state(random_state).randint(np.iinfo(np.int32).max)
    keys = np.random.default_rng(seed).random((n_repetitions, n_samples))
    order = np.argsort(keys, axis=1)
    return np.take_along_axis(losses, order[:, :, np.newaxis], axis=1)


def _is_builtin(name):
    """Whether ``name`` is one of the package's own tests (batch support)."""
    return any(get_test(name) is getattr(stats, func) for func in stats.__all__)


def _family_label(name, correction):
    """Name of the family-wise ("any pair rejected") entry of a pairwise test."""
    return f"{name}+{correction or 'none'}"


def _gram(split_correct):
    """Per repetition, ``C[a, b]`` = records both a and b get right (exact ints)."""
    x = split_correct.astype(np.float64)
    return np.rint(np.swapaxes(x, -1, -2) @ x).astype(np.int64)


def _pair_tables(grams, n_test, pairs):
    """Tables (B, P, S, 2, 2), ``table[a_correct, b_correct]``, of every pair."""
    a, b = np.array(pairs).T
    both = grams[:, :, a, b]  # (B, S, P)
    right_a = grams[:, :, a, a]
    right_b = grams[:, :, b, b]
    n = n_test[np.newaxis, :, np.newaxis]
    tables = np.stack(
        [
            np.stack([n - right_a - right_b + both, right_b - both], axis=-1),
            np.stack([right_a - both, both], axis=-1),
        ],
        axis=-2,
    )  # (B, S, P, 2, 2)
    return np.moveaxis(tables, 2, 1)


def _chunk_needs(correct, splits, pairs):
    """The needs of one chunk of repetitions: omnibus and pairwise."""
    split_correct = [correct[:, test, :] for _, test in splits]
    n_test = np.array([test.size for _, test in splits], dtype=np.int64)
    grams = np.stack([_gram(x) for x in split_correct], axis=1)  # (B, S, L, L)
    column_sums = np.diagonal(grams, axis1=-2, axis2=-1)  # (B, S, L)
    tables = _pair_tables(grams, n_test, pairs)
    differences = (tables[..., 1, 0] - tables[..., 0, 1]) / n_test
    sizes = {
        "n_train": float(np.mean([train.size for train, _ in splits])),
        "n_test": float(np.mean(n_test)),
    }
    many = {"correct": split_correct, "scores": column_sums / n_test[:, None], **sizes}
    pair = {"tables": tables, "differences": differences, **sizes}
    return many, pair, column_sums


def _run_many(test, needs, alpha):
    """(reject, pvalue, statistic) arrays (B,) of an omnibus test over a chunk."""
    n_batch = needs["correct"][0].shape[0]
    if _is_builtin(test.name) and set(test.needs) <= _BATCHED_MANY_NEEDS:
        result = run_tests([test], needs, alpha, "two-sided")[test.name]
        pvalue = result.pvalue
        reject, statistic = result.reject, result.statistic
    else:  # a third-party test: one repetition at a time, no batch dimension
        results = []
        for r in range(n_batch):
            needs_r = dict(needs, correct=[x[r] for x in needs["correct"]])
            needs_r["scores"] = needs["scores"][r]
            results.append(run_tests([test], needs_r, alpha, "two-sided")[test.name])
        reject = [bool(res.reject) for res in results]
        pvalue = (
            None
            if any(res.pvalue is None for res in results)
            else [float(res.pvalue) for res in results]
        )
        statistic = [
            float(res.statistic) if np.ndim(res.statistic) == 0 else np.nan
            for res in results
        ]
    return (
        np.asarray(reject, dtype=bool).reshape(n_batch),
        None if pvalue is None else np.asarray(pvalue, np.float64).reshape(n_batch),
        np.asarray(statistic, dtype=np.float64).reshape(n_batch),
    )


def _run_pairwise(test, needs, correct_splits, pairs, alpha):
    """Raw p-values (B, P) of a two-estimator test on every pair of a chunk."""
    n_batch, n_pairs = needs["tables"].shape[:2]
    if _is_builtin(test.name) and set(test.needs) <= _BATCHED_PAIR_NEEDS:
        result = run_tests([test], needs, alpha, "two-sided")[test.name]
        pvalue = result.pvalue
    else:
        pvalue = []
        for r in range(n_batch):
            for p, (a, b) in enumerate(pairs):
                needs_rp = {
                    "tables": needs["tables"][r, p],
                    "differences": needs["differences"][r, p],
                    "n_train": needs["n_train"],
                    "n_test": needs["n_test"],
                    # 0-1 loss of a minus that of b = b right minus a right
                    "loss_differences": [
                        x[r, :, b].astype(np.float64) - x[r, :, a]
                        for x in correct_splits
                    ],
                }
                pvalue.append(
                    run_tests([test], needs_rp, alpha, "two-sided")[test.name].pvalue
                )
        if any(value is None for value in pvalue):
            pvalue = None
    if pvalue is None:
        raise ValueError(
            f"pairwise_tests: {test.name} returns no p-value, so its pairs cannot "
            "be adjusted for multiplicity; use a frequentist two-estimator test "
            "(e.g. mcnemar or bcv_mcnemar)."
        )
    return np.asarray(pvalue, dtype=np.float64).reshape(n_batch, n_pairs)


def _plan_pairwise(pairwise_tests, design):
    if pairwise_tests is None:
        name, _ = recommend(design, "classification", "accuracy")
        if name is None:
            return []
        pairwise_tests = name
    plan, _ = plan_tests(
        pairwise_tests,
        design,
        "classification",
        kind="pair",
        argument="pairwise_tests",
    )
    return plan


@validate_params(
    {
        "losses": ["array-like"],
        "cv": [Interval(Integral, 2, None, closed="left"), HasMethods("split")],
        "tests": [str, list, tuple, dict, None],
        "pairwise_tests": [str, list, tuple, dict, None],
        "correction": [StrOptions(set(CORRECTIONS)), None],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "ci_method": [StrOptions(set(CI_METHODS))],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    },
    prefer_skip_nested_validation=True,
)
def simulate_many_loss_vectors(
    losses,
    cv,
    *,
    tests=None,
    pairwise_tests=None,
    correction="holm",
    alpha=0.05,
    confidence_level=0.95,
    ci_method="wilson",
    random_state=None,
    verbose=0,
):
    """Rejection rates of the tests of k estimators on simulated 0-1 losses.

    Each slice ``losses[r]`` is one simulated data set: the 0-1 losses L
    algorithms incur on its records, whatever they are trained on (see
    :func:`~sklearn_bcv.datasets.make_many_epsilon_losses`). For every
    repetition the records are put in a random order and split by ``cv``.
    Two kinds of procedure are evaluated on the same splits:

    * the **omnibus** tests (registry kind ``"many"``: ``cochran_q``,
      ``looney_f``, ``bcv_cochran_q``), one decision per repetition;
    * a **pairwise** two-estimator test (``mcnemar``, ``bcv_mcnemar``, ...)
      on all L(L − 1)/2 pairs, whose p-values are adjusted as one family by
      ``correction``; the procedure rejects when any pair does (its
      family-wise rate: the type I error of "some pair differs").

    The package's own tests run on all repetitions of a chunk at once
    through their batch dimension; third-party tests (registered with
    :func:`~sklearn_bcv.register_test`) run repetition by repetition.

    Parameters
    ----------
    losses : array-like of shape (n_repetitions, n_samples, n_estimators)
        0-1 losses (1 = wrong) of every algorithm on the records of each
        repetition's data set.
    cv : int or cross-validation generator
        The design, split once on ``n_samples`` records: a splitter (e.g.
        :class:`~sklearn_bcv.BlockRegularized5x2CV`, or
        ``ShuffleSplit(n_splits=1, test_size=1/3)`` for one hold-out split)
        or an int for k-fold CV.
    tests : str, list of str or dict, default=None
        Omnibus tests, as ``tests`` of
        :func:`~sklearn_bcv.compare_many_estimators`: ``None`` runs those
        registered for the design (``cochran_q`` and ``looney_f`` on one
        hold-out split, ``bcv_cochran_q`` on a block-regularized m×2 CV).
    pairwise_tests : str, list of str or dict, default=None
        Two-estimator tests run on every pair; ``None`` is the test
        :func:`~sklearn_bcv.compare_estimators` recommends for the design
        (``mcnemar`` on one hold-out split, ``bcv_mcnemar`` on a
        block-regularized m×2 CV).
    correction : str or None, default="holm"
        Multiplicity correction of each pairwise test's family of p-values,
        any of :func:`~sklearn_bcv.stats.adjust_pvalues`.
    alpha : float, default=0.05
        Significance level of every test and of the adjusted p-values.
    confidence_level : float, default=0.95
        Level of the rates' confidence intervals.
    ci_method : {"wilson", "exact", "wilsoncc"}, default="wilson"
        Binomial interval (see :func:`rejection_rate_interval`).
    random_state : int, RandomState instance or None, default=None
        Draws the record order of every repetition. Pass an int for
        reproducible output.
    verbose : int, default=0
        Print progress when > 0.

    Returns
    -------
    result : SimulationResult
        A :class:`~sklearn.utils.Bunch` with fields

        tests : list of str
            The omnibus tests, then one entry ``"<pairwise test>+<correction>"``
            per pairwise test (e.g. ``"bcv_mcnemar+holm"``;
            ``"+none"`` without correction): the procedure "reject when any
            pair's adjusted p-value is below ``alpha``".
        rates, ci, n_rejections, rejections : Bunch
            Per entry of ``tests``, as in :func:`simulate_loss_vectors`.
        pvalues : Bunch
            Per entry, a float array of shape (n_repetitions,): the omnibus
            p-values, and for a pairwise entry the smallest adjusted p-value
            of the repetition (it rejects exactly when that is below
            ``alpha``).
        statistics : Bunch
            The omnibus statistics (None for the pairwise entries).
        pairs : list of (int, int)
            The pairs ``(a, b)``, ``a < b``, in the order of the columns below.
        pairwise : Bunch
            Per pairwise test, a Bunch of arrays of shape (n_repetitions,
            n_pairs): ``pvalue``, ``pvalue_adjusted``, ``reject`` (adjusted
            p-value below ``alpha``), and ``pair_rates`` (n_pairs,), each
            pair's rejection rate.
        column_sums : ndarray of shape (n_repetitions, n_splits, n_estimators)
            Records of each test set each estimator gets right.
        tables : ndarray of shape (n_repetitions, n_pairs, n_splits, 2, 2)
            Every pair's contingency tables (``table[a_correct, b_correct]``).
        n_repetitions, n_estimators, design, correction, alpha, alternative, \
confidence_level, ci_method
            The arguments and the design's description (``alternative`` is
            ``"two-sided"``: the omnibus tests have no direction).

    See Also
    --------
    simulate_loss_vectors : The same for two estimators.
    sklearn_bcv.datasets.make_many_epsilon_losses : Loss vectors of L
        algorithms with equal error rates, or with some worse by ``delta``.
    sklearn_bcv.compare_many_estimators : The same tests on fitted estimators.

    Notes
    -----
    As in :func:`simulate_loss_vectors`, the splits are drawn once from
    ``cv`` and every repetition permutes its records uniformly at random,
    which for splitters that allocate records at random is the same as
    drawing fresh splits. The losses do not depend on the training set, so
    the simulation measures the tests' calibration against test-set
    sampling only: the variability due to the training sets, which the
    hold-out tests ignore (Yang et al. 2023), is absent from it.

    Examples
    --------
    Type I error on three algorithms of equal error rate, on a 5×2 BCV: the
    block-regularized Cochran's Q against the pairwise 5×2 BCV McNemar's
    tests with Holm's correction.

    >>> from sklearn_bcv import BlockRegularized5x2CV
    >>> from sklearn_bcv.datasets import make_many_epsilon_losses
    >>> from sklearn_bcv.simulation import simulate_many_loss_vectors
    >>> losses = make_many_epsilon_losses(300, 3, n_datasets=2000, random_state=0)
    >>> result = simulate_many_loss_vectors(
    ...     losses, BlockRegularized5x2CV(random_state=0), random_state=0)
    >>> result.tests
    ['bcv_cochran_q', 'bcv_mcnemar+holm']
    >>> print(result)  # doctest: +NORMALIZE_WHITESPACE
    Rejection rates over 2000 repetitions (5×2 block-regularized CV; alpha = 0.05;
    95% wilson intervals)
    test              rate   95% interval          rejections
    bcv_cochran_q     0.032  [0.025, 0.040]        63
    bcv_mcnemar+holm  0.018  [0.013, 0.025]        36
    """
    losses = _check_many_losses(losses)
    correction = check_correction(correction)
    n_repetitions, n_samples, n_estimators = losses.shape
    cv = check_cv(cv)
    splits = _split_records(cv, n_samples)
    design = describe_design(splits, n_samples, cv=cv)
    plan, _ = plan_tests(tests, design, "classification", kind="many")
    pair_plan = _plan_pairwise(pairwise_tests, design)
    if not plan and not pair_plan:
        raise ValueError(
            f"No omnibus or pairwise test applies to {design.describe()}; use one "
            "hold-out split or a block-regularized m×2 CV (BlockRegularized5x2CV)."
        )
    pairs = list(combinations(range(n_estimators), 2))

    start = time.perf_counter()
    correct = 1 - _permute_records(losses, random_state)
    per_repetition = n_estimators * sum(test.size for _, test in splits)
    chunk = max(1, _MAX_CHUNK_ELEMENTS // per_repetition)
    many = {test.name: [] for test in plan}
    raw = {test.name: [] for test in pair_plan}
    column_sums, tables = [], []
    for first in range(0, n_repetitions, chunk):
        part = correct[first : first + chunk].astype(bool)
        many_needs, pair_needs, sums = _chunk_needs(part, splits, pairs)
        column_sums.append(sums)
        tables.append(pair_needs["tables"])
        for test in plan:
            many[test.name].append(_run_many(test, many_needs, alpha))
        for test in pair_plan:
            raw[test.name].append(
                _run_pairwise(test, pair_needs, many_needs["correct"], pairs, alpha)
            )
        if verbose > 0:
            done = min(first + chunk, n_repetitions)
            print(
                f"[simulate_many_loss_vectors] {done}/{n_repetitions} repetitions "
                f"({design.describe()}, {n_estimators} estimators): "
                f"{time.perf_counter() - start:.2f} s"
            )

    rejections, pvalues, statistics = {}, {}, {}
    for name, parts in many.items():
        rejections[name] = np.concatenate([p[0] for p in parts])
        pvalues[name] = (
            None
            if any(p[1] is None for p in parts)
            else np.concatenate([p[1] for p in parts])
        )
        statistics[name] = np.concatenate([p[2] for p in parts])
    pairwise = Bunch()
    for name, parts in raw.items():
        pvalue = np.concatenate(parts)
        adjusted = adjust_pvalues(pvalue, correction, alpha=alpha)
        reject = adjusted < alpha
        label = _family_label(name, correction)
        rejections[label] = reject.any(axis=-1)
        pvalues[label] = adjusted.min(axis=-1)
        statistics[label] = None
        pairwise[name] = Bunch(
            pvalue=pvalue,
            pvalue_adjusted=adjusted,
            reject=reject,
            pair_rates=reject.mean(axis=0),
        )

    result = build_result(
        rejections=rejections,
        pvalues=pvalues,
        statistics=statistics,
        design=design.describe(),
        alpha=alpha,
        alternative="two-sided",
        confidence_level=confidence_level,
        ci_method=ci_method,
    )
    result.update(
        pairs=pairs,
        pairwise=pairwise,
        column_sums=np.concatenate(column_sums),
        tables=np.concatenate(tables),
        n_estimators=n_estimators,
        correction=correction,
    )
    return result
