"""Omnibus tests of k estimators on the same test records.

Cochran's Q and Looney's F on one hold-out split, and Cochran's Q on the
effective table of a block-regularized m×2 CV. Every test here reads
``correct``: per split, a boolean array ``x`` of shape (n_test, L) with
``x[r, j]`` True when estimator j gets test record r right.

The statistics depend on the records only through a few counts per split:
the column sums ``G_j = Σ_r x[r, j]`` (records estimator j gets right), the
sum of squared row sums ``Σ_r u_r²`` with ``u_r = Σ_j x[r, j]``, the number
of records N and of estimators L. The private ``_*_statistic`` functions take
those counts, with any leading batch dimensions, so a simulation can evaluate
thousands of comparisons from counts without building the records.

The sums of squares are computed from the integer counts in integer
arithmetic, scaled by ``L·N`` (as in the user guide's formulas): a zero
denominator (every record right by all estimators or by none, or identical
estimators) is then exactly zero and the degenerate rule of the package
applies (0/0 → statistic 0 and p-value 1; non-zero/0 → inf and p-value 0),
where a float transcription of the textbook formulas leaves a residue such
as 3.6e-15 and a huge statistic.
"""

from typing import NamedTuple

import numpy as np

from ._mcnemar import _check_rhos, _effective_factor, check_rho_params
from ._references import COCHRAN_1950, LOONEY_1988, YANG_BCV
from ._registry import register_test
from ._utils import (
    as_numeric_array,
    check_alpha,
    check_alternative,
    chi2_sf,
    f_sf,
    make_result,
    safe_divide,
    undefined_ratio,
)

__all__ = ["bcv_cochran_q", "cochran_q", "looney_f"]

_EXPECTED = (
    "a list with one boolean array of shape (n_test_i, n_estimators) per split "
    "(True where estimator j gets record r right), or an array of shape "
    "(n_records, n_estimators) or (n_splits, n_records, n_estimators)"
)

# Above this bound on |intermediate integers| the counts are carried as Python
# integers (object arrays) so that nothing overflows int64.
_INT64_SAFE = 2**62


class _Counts(NamedTuple):
    """The sufficient statistics of ``correct``, split by split.

    column_sums : int array (..., n_splits, L)
        ``G_ij``, the records of split i that estimator j gets right.
    row_square_sums : int array (..., n_splits)
        ``Σ_r u_ir²``, with ``u_ir`` the estimators right on record r.
    n_records : int array (n_splits,)
        Test records per split.
    n_estimators : int
        L.
    """

    column_sums: np.ndarray
    row_square_sums: np.ndarray
    n_records: np.ndarray
    n_estimators: int


# --------------------------------------------------------------------------
# Input validation: ``correct`` -> counts
# --------------------------------------------------------------------------


def _as_binary(values, *, name):
    """``values`` as a bool array; refuse anything but booleans and 0/1 integers."""
    arr = as_numeric_array(values, name=name, expected=_EXPECTED)
    if arr.dtype == bool:
        return arr
    if arr.dtype.kind not in "iu":
        raise ValueError(
            f"{name} must hold booleans (or the integers 0 and 1): True where "
            f"the estimator gets the record right; got dtype {arr.dtype}."
        )
    bad = (arr != 0) & (arr != 1)
    if np.any(bad):
        value = arr[bad][0].item()
        raise ValueError(
            f"{name} must hold booleans (or the integers 0 and 1): True where "
            f"the estimator gets the record right; got the value {value!r}."
        )
    return arr.astype(bool)


def _is_list_of_splits(correct):
    """Whether ``correct`` is a sequence of per-split arrays (each >= 2-D)."""
    if not isinstance(correct, list | tuple) or not correct:
        return False
    try:
        return all(np.ndim(split) >= 2 for split in correct)
    except ValueError:  # a ragged element: let _as_binary explain it
        return False


def _split_arrays(correct, *, name):
    """The per-split bool arrays, each of shape (..., n_test_i, L)."""
    if isinstance(correct, list | tuple) and not correct:
        raise ValueError(f"{name} must be {_EXPECTED}; got an empty {type(correct)}.")
    if _is_list_of_splits(correct):
        return [
            _as_binary(split, name=f"{name}[{i}]") for i, split in enumerate(correct)
        ]
    arr = _as_binary(correct, name=name)
    if arr.ndim < 2:
        raise ValueError(f"{name} must be {_EXPECTED}; got shape {arr.shape}.")
    if arr.ndim == 2:
        arr = arr[np.newaxis]
    if arr.shape[-3] == 0:
        raise ValueError(f"{name} must hold at least one split; got shape {arr.shape}.")
    return [arr[..., i, :, :] for i in range(arr.shape[-3])]


def _check_correct(correct, *, name="correct"):
    """Validate ``correct``; return its :class:`_Counts`."""
    splits = _split_arrays(correct, name=name)
    n_estimators = {split.shape[-1] for split in splits}
    if len(n_estimators) > 1:
        raise ValueError(
            f"{name} must have one column per estimator, the same number in "
            f"every split; got {sorted(n_estimators)} columns."
        )
    (n_estimators,) = n_estimators
    if n_estimators < 2:
        raise ValueError(
            f"{name} must have one column per estimator and at least 2 "
            f"estimators to compare; got {n_estimators} column(s) (shape "
            f"{splits[0].shape})."
        )
    batch_shapes = {split.shape[:-2] for split in splits}
    if len(batch_shapes) > 1:
        raise ValueError(
            f"{name} must have the same leading batch dimensions in every split; "
            f"got {sorted(batch_shapes)}."
        )
    n_records = np.array([split.shape[-2] for split in splits], dtype=np.int64)
    if np.any(n_records == 0):
        empty = int(np.flatnonzero(n_records == 0)[0])
        raise ValueError(
            f"{name} must hold at least one test record per split; split {empty} "
            "has none."
        )
    # The largest intermediate integer is about (L·Σ_i N_i)².
    dtype = (
        np.int64 if (n_estimators * int(n_records.sum())) ** 2 < _INT64_SAFE else object
    )
    column_sums = np.stack(
        [split.sum(axis=-2, dtype=np.int64) for split in splits], axis=-2
    ).astype(dtype)
    row_square_sums = np.stack(
        [
            np.square(split.sum(axis=-1, dtype=np.int64)).sum(axis=-1)
            for split in splits
        ],
        axis=-1,
    ).astype(dtype)
    return _Counts(column_sums, row_square_sums, n_records, n_estimators)


def _as_float(values):
    return np.asarray(values, dtype=np.float64)


# --------------------------------------------------------------------------
# The statistics, from the counts (leading batch dimensions allowed)
# --------------------------------------------------------------------------


def _cochran_terms(column_sums, row_square_sums, n_estimators):
    """Exact integer parts of Cochran's Q on one split.

    ``column_sums`` of shape (..., L), ``row_square_sums`` of shape (...).
    Returns ``spread = L·Σ_j G_j² − T²`` (that is ``Σ_{j<k} (G_j − G_k)²``)
    and ``denominator = L·T − Σ_r u_r²`` (that is ``Σ_r u_r (L − u_r)``),
    so that ``Q = (L − 1)·spread / denominator``.
    """
    total = column_sums.sum(axis=-1)
    spread = n_estimators * np.square(column_sums).sum(axis=-1) - np.square(total)
    denominator = n_estimators * total - row_square_sums
    return spread, denominator


def _cochran_statistic(column_sums, row_square_sums, n_estimators):
    """Cochran's Q of one split and its p-value, elementwise over batches."""
    spread, denominator = _cochran_terms(column_sums, row_square_sums, n_estimators)
    statistic = safe_divide((n_estimators - 1) * _as_float(spread), denominator)
    pvalue = np.where(
        undefined_ratio(spread, denominator),
        1.0,
        chi2_sf(statistic, n_estimators - 1),
    )
    return statistic, pvalue


def _looney_terms(column_sums, row_square_sums, n_records, n_estimators):
    """Looney's sums of squares on one split, times ``L·N``, as exact integers.

    Returns ``(ssa, ssb, ssab, sst)`` each multiplied by ``L·N``:
    ``L·Σ_j G_j² − T²``, ``N·Σ_r u_r² − T²``,
    ``L·N·T − L·Σ_j G_j² − N·Σ_r u_r² + T²`` and ``L·N·T − T²``.
    """
    total = column_sums.sum(axis=-1)
    total_sq = np.square(total)
    weighted = n_estimators * np.square(column_sums).sum(axis=-1)
    ssa = weighted - total_sq
    ssb = n_records * row_square_sums - total_sq
    sst = n_estimators * n_records * total - total_sq
    ssab = sst - ssa - ssb
    return ssa, ssb, ssab, sst


def _looney_df(n_records, n_estimators):
    return n_estimators - 1, (n_estimators - 1) * (n_records - 1)


def _looney_statistic(column_sums, row_square_sums, n_records, n_estimators):
    """Looney's F of one split and its p-value, elementwise over batches.

    ``F = (SSA / (L − 1)) / (SSAB / ((L − 1)(N − 1))) = (N − 1)·SSA / SSAB``,
    referred to F(L − 1, (L − 1)(N − 1)). With one record there is no
    residual degree of freedom: the ratio is 0/0, statistic 0 and p-value 1.
    """
    ssa, _, ssab, _ = _looney_terms(
        column_sums, row_square_sums, n_records, n_estimators
    )
    numerator = (n_records - 1) * _as_float(ssa)
    statistic = safe_divide(numerator, ssab)
    df1, df2 = _looney_df(n_records, n_estimators)
    pvalue = np.where(
        undefined_ratio(numerator, ssab), 1.0, f_sf(statistic, df1, max(df2, 1))
    )
    return statistic, pvalue


def _bcv_cochran_statistic(column_sums, row_square_sums, n_estimators, t):
    """Cochran's Q on the effective table of 2m splits, and its p-value.

    ``column_sums`` of shape (..., 2m, L), ``row_square_sums`` (..., 2m).
    With ``S_j = Σ_i G_ij`` and ``D = Σ_i (L·T_i − Σ_r u_ir²)`` (exact
    integers), ``Ḡ_j = S_j / 2m`` and ``D̄ = D / 2m``, so
    ``Q_e = t·(L − 1)·(L·Σ_j Ḡ_j² − (Σ_j Ḡ_j)²) / D̄
    = t·(L − 1)·(L·Σ_j S_j² − (Σ_j S_j)²) / (2m·D)``.
    """
    n_splits = column_sums.shape[-2]
    summed = column_sums.sum(axis=-2)
    spread, _ = _cochran_terms(summed, 0, n_estimators)
    _, denominators = _cochran_terms(column_sums, row_square_sums, n_estimators)
    denominator = denominators.sum(axis=-1)
    statistic = safe_divide(
        t * (n_estimators - 1) * _as_float(spread), n_splits * _as_float(denominator)
    )
    pvalue = np.where(
        undefined_ratio(spread, denominator),
        1.0,
        chi2_sf(statistic, n_estimators - 1),
    )
    return statistic, pvalue, summed, denominator


# --------------------------------------------------------------------------
# The registered tests
# --------------------------------------------------------------------------

_HOLDOUT_HINT = (
    "Use bcv_cochran_q for the splits of an m×2 BCV design (e.g. "
    "BlockRegularized5x2CV)."
)


def _one_split(counts, *, test):
    n_splits = counts.n_records.size
    if n_splits != 1:
        raise ValueError(
            f"{test} needs correct of one hold-out split (one array of shape "
            f"(n_records, n_estimators)); got {n_splits} splits. {_HOLDOUT_HINT}"
        )
    return (
        counts.column_sums[..., 0, :],
        counts.row_square_sums[..., 0],
        int(counts.n_records[0]),
    )


@register_test(
    "cochran_q",
    needs="correct",
    design="holdout",
    kind="many",
    alternatives="two-sided",
    display_name="Cochran's Q test",
    rationale="all k classifiers at once on one hold-out test set, from the "
    "records each gets right",
    references=(COCHRAN_1950,),
    statistic_label="chi2",
)
def cochran_q(correct, *, alpha=0.05, alternative="two-sided"):
    """Cochran's Q test of k estimators on one hold-out test set.

    Parameters
    ----------
    correct : array-like of shape (n_records, n_estimators) or list of one such
        ``correct[r, j]`` is True when estimator j gets test record r right
        (booleans, or the integers 0 and 1). The engine passes a list with one
        array per split; this test needs exactly one split. Leading batch
        dimensions, an array of shape ``(..., 1, n_records, n_estimators)``,
        test many comparisons at once.
    alpha : float, default=0.05
        Significance level of ``reject``.
    alternative : {"two-sided"}, default="two-sided"
        The null hypothesis is that the L estimators have the same accuracy;
        Q has no direction, so one-sided alternatives raise a ``ValueError``.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            Cochran's Q.
        pvalue : float
            ``chi2.sf(Q, L - 1)``.
        df : int
            L - 1.
        reject : bool
            ``pvalue < alpha``.
        n_records : int
            N, the test records.
        n_estimators : int
            L.
        accuracies : ndarray of shape (L,)
            ``G_j / N``, each estimator's accuracy on the test set.
        alternative, alpha, test : the inputs and ``"cochran_q"``.

    See Also
    --------
    looney_f : Looney's F test on the same input.
    bcv_cochran_q : Cochran's Q on a block-regularized m×2 CV.
    mcnemar : The test for two estimators.

    Notes
    -----
    With ``G_j`` the records estimator j gets right, ``u_r`` the estimators
    that get record r right and ``T = Σ_j G_j`` (Kuncheva 2004; Raschka
    2018),

    .. math:: Q = (L - 1) \\frac{L \\sum_j G_j^2 - T^2}{L T - \\sum_r u_r^2},

    approximately :math:`\\chi^2(L - 1)` under the null hypothesis that the
    estimators are equally accurate. For two estimators Q is McNemar's
    statistic without continuity correction. Records every estimator gets
    right (or none does) leave Q unchanged.

    Degenerate input: when the denominator is 0 (every record is right for
    all estimators or for none, e.g. identical estimators) the numerator is
    0 too, and Q is 0 with p-value 1. Q is computed from the integer counts,
    so this is detected exactly.

    Like McNemar's test on one split, Q compares the models trained on one
    training set; it ignores the variability due to the training set
    (Dietterich 1998). A significant Q says that some estimators differ, not
    which: follow it with pairwise tests under a multiplicity correction
    (:func:`~sklearn_bcv.compare_many_estimators` does).

    References
    ----------
    .. [1] W. G. Cochran, "The comparison of percentages in matched samples",
       Biometrika 37(3/4):256-266, 1950.
    .. [2] L. I. Kuncheva, "Combining Pattern Classifiers: Methods and
       Algorithms", Wiley, 2004.
    .. [3] S. Raschka, "Model evaluation, model selection, and algorithm
       selection in machine learning", arXiv:1811.12808, 2018, section
       "Comparing multiple classifiers".

    Examples
    --------
    Kuncheva's example (Raschka 2018): three classifiers on 100 test records,
    given as the number of records with each pattern of right (1) and wrong
    (0) answers.

    >>> import numpy as np
    >>> from sklearn_bcv.stats import cochran_q
    >>> patterns = np.array([[1, 1, 1], [1, 1, 0], [1, 0, 1], [1, 0, 0],
    ...                      [0, 1, 1], [0, 1, 0], [0, 0, 1], [0, 0, 0]])
    >>> correct = np.repeat(patterns, [80, 2, 0, 2, 9, 1, 3, 3], axis=0)
    >>> result = cochran_q(correct)
    >>> round(result.statistic, 4), result.df, round(result.pvalue, 3)
    (7.5294, 2, 0.023)
    >>> result.accuracies.tolist()
    [0.84, 0.92, 0.92]
    """
    alpha = check_alpha(alpha)
    alternative = check_alternative(
        alternative, test="cochran_q", allowed=("two-sided",)
    )
    counts = _check_correct(correct)
    column_sums, row_square_sums, n_records = _one_split(counts, test="cochran_q")
    statistic, pvalue = _cochran_statistic(
        column_sums, row_square_sums, counts.n_estimators
    )
    return make_result(
        test="cochran_q",
        statistic=statistic,
        pvalue=pvalue,
        df=counts.n_estimators - 1,
        alpha=alpha,
        alternative=alternative,
        n_records=n_records,
        n_estimators=counts.n_estimators,
        accuracies=_as_float(column_sums) / n_records,
    )


@register_test(
    "looney_f",
    needs="correct",
    design="holdout",
    kind="many",
    alternatives="two-sided",
    display_name="Looney's F test",
    rationale="all k classifiers at once on one hold-out test set, an F "
    "approximation of Cochran's Q",
    references=(LOONEY_1988,),
    statistic_label="F",
)
def looney_f(correct, *, alpha=0.05, alternative="two-sided"):
    """Looney's F test of k estimators on one hold-out test set.

    Parameters
    ----------
    correct : array-like of shape (n_records, n_estimators) or list of one such
        ``correct[r, j]`` is True when estimator j gets test record r right
        (booleans, or the integers 0 and 1). The engine passes a list with one
        array per split; this test needs exactly one split. Leading batch
        dimensions, an array of shape ``(..., 1, n_records, n_estimators)``,
        test many comparisons at once.
    alpha : float, default=0.05
        Significance level of ``reject``.
    alternative : {"two-sided"}, default="two-sided"
        F has no direction, so one-sided alternatives raise a ``ValueError``.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            The F statistic ``MSA / MSAB``.
        pvalue : float
            The upper tail of F(L - 1, (L - 1)(N - 1)).
        df : tuple of int
            ``(L - 1, (L - 1)(N - 1))``.
        reject : bool
            ``pvalue < alpha``.
        ssa, ssb, ssab, sst : float
            The sums of squares of the estimators, of the records, of their
            interaction and the total.
        n_records : int
            N, the test records.
        n_estimators : int
            L.
        accuracies : ndarray of shape (L,)
            Each estimator's accuracy on the test set.
        alternative, alpha, test : the inputs and ``"looney_f"``.

    See Also
    --------
    cochran_q : Cochran's Q test on the same input.
    bcv_cochran_q : Cochran's Q on a block-regularized m×2 CV.

    Notes
    -----
    The records-by-estimators table of 0s and 1s is analysed as a two-way
    layout without replication (Looney 1988). With ``acc_j = G_j / N`` and
    ``acc`` their mean,

    * ``SSA = N·Σ_j acc_j² − N·L·acc²`` (estimators),
    * ``SSB = (1/L)·Σ_r u_r² − L·N·acc²`` (records),
    * ``SST = L·N·acc·(1 − acc)`` and ``SSAB = SST − SSA − SSB``,

    and ``F = (SSA / (L − 1)) / (SSAB / ((L − 1)(N − 1)))``, referred to
    F(L − 1, (L − 1)(N − 1)), Looney's degrees of freedom. mlxtend's
    ``ftest`` computes the same F but refers it to F(L − 1, (L − 1)·N), so
    its p-values are slightly smaller.

    The sums of squares are computed exactly from the integer counts
    (multiplied by ``L·N``). Degenerate input: when ``SSAB = 0`` and
    ``SSA = 0`` (e.g. identical estimators, or every record right for all
    estimators or for none) F is 0 with p-value 1; when ``SSAB = 0`` but
    ``SSA > 0`` (the table is exactly additive, e.g. one estimator right on
    every record and another on none) F is infinite with p-value 0. With one
    record there is no residual degree of freedom: F is 0 with p-value 1.

    Looney recommends an adjusted version of the test; this is the plain F
    test (Raschka 2018). Like :func:`cochran_q`, it compares the models of
    one training set and ignores the variability due to the training set.

    References
    ----------
    .. [1] S. W. Looney, "A statistical technique for comparing the
       accuracies of several classifiers", Pattern Recognition Letters
       8(1):5-9, 1988.
    .. [2] S. Raschka, "Model evaluation, model selection, and algorithm
       selection in machine learning", arXiv:1811.12808, 2018, section
       "Comparing multiple classifiers".

    Examples
    --------
    Kuncheva's example of :func:`cochran_q`:

    >>> import numpy as np
    >>> from sklearn_bcv.stats import looney_f
    >>> patterns = np.array([[1, 1, 1], [1, 1, 0], [1, 0, 1], [1, 0, 0],
    ...                      [0, 1, 1], [0, 1, 0], [0, 0, 1], [0, 0, 0]])
    >>> correct = np.repeat(patterns, [80, 2, 0, 2, 9, 1, 3, 3], axis=0)
    >>> result = looney_f(correct)
    >>> round(result.statistic, 4), result.df, round(result.pvalue, 4)
    (3.8729, (2, 198), 0.0224)
    >>> round(result.ssa, 4), round(result.ssab, 4)
    (0.4267, 10.9067)
    """
    alpha = check_alpha(alpha)
    alternative = check_alternative(
        alternative, test="looney_f", allowed=("two-sided",)
    )
    counts = _check_correct(correct)
    column_sums, row_square_sums, n_records = _one_split(counts, test="looney_f")
    n_estimators = counts.n_estimators
    statistic, pvalue = _looney_statistic(
        column_sums, row_square_sums, n_records, n_estimators
    )
    scale = n_estimators * n_records
    ssa, ssb, ssab, sst = (
        _as_float(term) / scale
        for term in _looney_terms(column_sums, row_square_sums, n_records, n_estimators)
    )
    return make_result(
        test="looney_f",
        statistic=statistic,
        pvalue=pvalue,
        df=_looney_df(n_records, n_estimators),
        alpha=alpha,
        alternative=alternative,
        ssa=ssa,
        ssb=ssb,
        ssab=ssab,
        sst=sst,
        n_records=n_records,
        n_estimators=n_estimators,
        accuracies=_as_float(column_sums) / n_records,
    )


@register_test(
    "bcv_cochran_q",
    needs="correct",
    design="bcv",
    kind="many",
    alternatives="two-sided",
    param_check=check_rho_params,
    display_name="BCV Cochran's Q test",
    rationale="all k classifiers at once on a block-regularized m×2 CV, from the "
    "effective table of the records each gets right: this library's extension "
    "of the BCV McNemar test (Yang et al. 2023) to k classifiers, not a test of "
    "their paper",
    references=(YANG_BCV, COCHRAN_1950),
    statistic_label="chi2",
)
def bcv_cochran_q(correct, *, alpha=0.05, alternative="two-sided", rho1=0.5, rho2=0.5):
    """Block-regularized m×2 cross-validated Cochran's Q test (an extension).

    Parameters
    ----------
    correct : list of 2m array-likes of shape (n_test_i, n_estimators), or \
array-like of shape (2m, n_records, n_estimators)
        Per split of an m×2 design, in split order (split ``2r`` is fold 0 of
        repetition ``r``, split ``2r + 1`` fold 1), ``correct[i][r, j]`` is
        True when estimator j gets test record r of split i right (booleans,
        or the integers 0 and 1). The splits should be block-regularized
        (:class:`~sklearn_bcv.BlockRegularized5x2CV`). Leading batch
        dimensions (an array of shape ``(..., 2m, n_records, n_estimators)``,
        or a list of arrays of shape ``(..., n_test_i, n_estimators)``) test
        many comparisons at once.
    alpha : float, default=0.05
        Significance level of ``reject``.
    alternative : {"two-sided"}, default="two-sided"
        Q has no direction, so one-sided alternatives raise a ``ValueError``.
    rho1 : float, default=0.5
        Assumed correlation of the two hold-out estimates within one 2-fold
        CV, in (-1, 1), as in :func:`bcv_mcnemar`.
    rho2 : float, default=0.5
        Assumed correlation of hold-out estimates from different
        repetitions, in [0, 1) and at most ``(1 + rho1) / 2``, as in
        :func:`bcv_mcnemar`.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            The effective Cochran's Q, ``Q_e``.
        pvalue : float
            ``chi2.sf(Q_e, L - 1)``.
        df : int
            L - 1.
        reject : bool
            ``pvalue < alpha``.
        t : float
            The factor ``2m / (1 + rho1 + 2(m - 1)·rho2)`` of
            :func:`bcv_mcnemar`.
        rho1, rho2 : float
            The correlations used.
        mean_column_sums : ndarray of shape (L,)
            ``Ḡ_j``, the records estimator j gets right, averaged over the
            2m splits.
        mean_denominator : float
            ``D̄``, the mean over the splits of ``L·T_i − Σ_r u_ir²``.
        n_records : ndarray of shape (2m,)
            Test records per split.
        n_estimators : int
            L.
        accuracies : ndarray of shape (L,)
            Each estimator's accuracy over all 2m test sets.
        alternative, alpha, test : the inputs and ``"bcv_cochran_q"``.

    See Also
    --------
    bcv_mcnemar : The test for two estimators on a block-regularized m×2 CV.
    cochran_q : Cochran's Q on one hold-out split.

    Notes
    -----
    This test is an extension, not in the papers: it carries the effective
    table of the 5×2 BCV McNemar's test (Yang et al., eq. 6-15) over to
    Cochran's Q. Per split i, the column sums ``G_ij`` and the denominator
    ``D_i = L·T_i − Σ_r u_ir²`` of Cochran's Q are computed on the split's
    test set and averaged over the 2m splits into ``Ḡ_j`` and ``D̄``; with
    Yang et al.'s factor :math:`t = 2m / (1 + \\rho_1 + 2(m - 1)\\rho_2)`,

    .. math:: Q_e = t (L - 1) \\frac{L \\sum_j \\bar G_j^2 -
              (\\sum_j \\bar G_j)^2}{\\bar D} \\sim \\chi^2(L - 1).

    For L = 2 it equals :func:`bcv_mcnemar`'s statistic without the
    continuity correction, ``t·(n̄01 − n̄10)² / (n̄01 + n̄10)``. Its type I
    error has been checked by simulation only (see the reproduction page of
    the documentation), on the null setups of
    :func:`~sklearn_bcv.datasets.make_many_epsilon_losses`. The statistic is
    computed from the integer counts: when every record of every split is
    right for all estimators or for none (e.g. identical estimators) it is
    0 with p-value 1.

    References
    ----------
    .. [1] J. Yang, R. Wang, Y. Song and J. Li, "Block-regularized 5×2
       cross-validated McNemar's test for comparing two classification
       algorithms", section 4, eq. 6-15.
    .. [2] W. G. Cochran, "The comparison of percentages in matched samples",
       Biometrika 37(3/4):256-266, 1950.

    Examples
    --------
    Three estimators on the ten test sets of a 5×2 BCV of 300 records:

    >>> import numpy as np
    >>> from sklearn_bcv.stats import bcv_cochran_q
    >>> rng = np.random.default_rng(0)
    >>> correct = rng.random((10, 150, 3)) < [0.9, 0.85, 0.8]
    >>> result = bcv_cochran_q(correct)
    >>> round(result.t, 4), result.df
    (1.8182, 2)
    >>> result.mean_column_sums.round(1).tolist()
    [134.3, 129.6, 120.7]
    >>> round(result.statistic, 3), round(result.pvalue, 4)
    (9.131, 0.0104)
    """
    alpha = check_alpha(alpha)
    alternative = check_alternative(
        alternative, test="bcv_cochran_q", allowed=("two-sided",)
    )
    counts = _check_correct(correct)
    n_splits = counts.n_records.size
    if n_splits % 2:
        raise ValueError(
            "bcv_cochran_q needs correct of an m×2 (BCV) design: 2m splits, "
            "m >= 1, in the order fold 0, fold 1 of each repetition; got "
            f"{n_splits} split{'s' if n_splits != 1 else ''}. Use cochran_q or "
            "looney_f for one hold-out split."
        )
    rho1, rho2 = _check_rhos(rho1, rho2, n_splits // 2)
    t = _effective_factor(n_splits // 2, rho1, rho2)
    n_estimators = counts.n_estimators
    statistic, pvalue, summed, denominator = _bcv_cochran_statistic(
        counts.column_sums, counts.row_square_sums, n_estimators, t
    )
    return make_result(
        test="bcv_cochran_q",
        statistic=statistic,
        pvalue=pvalue,
        df=n_estimators - 1,
        alpha=alpha,
        alternative=alternative,
        t=t,
        rho1=rho1,
        rho2=rho2,
        mean_column_sums=_as_float(summed) / n_splits,
        mean_denominator=_as_float(denominator) / n_splits,
        n_records=counts.n_records,
        n_estimators=n_estimators,
        accuracies=_as_float(summed) / counts.n_records.sum(),
    )
