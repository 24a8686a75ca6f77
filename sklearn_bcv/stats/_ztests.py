"""Normal-approximation (z) tests: difference of proportions and CV-CI.

Signed statistics are positive when estimator A is better, and
``alternative="greater"`` means "A is better than B", as everywhere in the
package. Degenerate input follows the rule of ``stats._utils``: a zero
standard error gives a statistic of 0 and p-value 1 (for every alternative)
when the estimated difference is 0 too, otherwise ``±inf`` and p-value 0 on
the side of the infinity. No NaN, no warning.
"""

import numpy as np

from ._mcnemar import _check_one_split
from ._references import AGRESTI_2013, BAYLE_2020, DIETTERICH_1998
from ._registry import register_test
from ._utils import (
    check_alpha,
    check_alternative,
    check_finite,
    confidence_interval,
    is_real_dtype,
    make_result,
    normal_pvalue,
    power_of_two_scale,
    safe_divide,
    undefined_ratio,
    unscale,
)

__all__ = ["cv_ci_z", "proportion_z"]


_PROPORTION_Z_HINT = (
    "For k folds use cv_ci_z (on per-record loss differences) or "
    "kfold_mcnemar; for an m×2 BCV design use bcv_mcnemar."
)


@register_test(
    "proportion_z",
    needs="tables",
    design="holdout",
    swap="negate",
    display_name="difference-of-proportions z test",
    rationale="a z test of the two accuracies on one hold-out test set",
    references=(DIETTERICH_1998, AGRESTI_2013),
)
def proportion_z(tables, *, alpha=0.05, alternative="two-sided"):
    """Run the difference-of-proportions z test on one hold-out split.

    Parameters
    ----------
    tables : array-like of shape (2, 2) or (1, 2, 2)
        The contingency table of the split (see
        :func:`~sklearn_bcv.mcnemar_table`). Leading batch dimensions,
        ``(..., 1, 2, 2)``, test many comparisons at once.
    alpha : float, default=0.05
        Significance level of ``reject`` and ``1 - alpha`` the level of the
        confidence interval.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: A is more accurate than B; ``"less"``: B is.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            The z statistic, positive when A is more accurate.
        pvalue : float
        df : None
        reject : bool
            ``pvalue < alpha``.
        confidence_interval : tuple of float
            ``(low, high)``, the paired Wald interval for the accuracy
            difference ``acc_A - acc_B`` at level ``1 - alpha`` (one-sided
            for a one-sided alternative: ``(low, inf)`` for ``"greater"``,
            ``(-inf, high)`` for ``"less"``); see Notes.
        difference : float
            ``acc_A - acc_B = (n10 - n01) / n``.
        alternative, alpha, test : the inputs and ``"proportion_z"``.

    See Also
    --------
    mcnemar : The test Dietterich (1998) recommends for one split instead.

    Notes
    -----
    With ``n`` test records, error rates ``eA = (n00 + n01)/n`` and
    ``eB = (n00 + n10)/n`` and their mean ``e = (eA + eB)/2``,

    .. math:: z = \\frac{e_B - e_A}{\\sqrt{2 e (1 - e) / n}},

    referred to the standard normal distribution. The variance assumes the
    two error rates are independent, but they are measured on the same test
    records and are positively correlated; Dietterich (1998) found that the
    test's type I error is inflated because of this (and because it ignores
    the variation due to the training set). Prefer :func:`mcnemar`.

    The confidence interval does not make that independence assumption: it
    is the Wald interval of a difference of paired proportions,

    .. math:: d \\pm z_{1-\\alpha/2}\\sqrt{\\frac{(n_{10} + n_{01})/n - d^2}{n}},
              \\quad d = \\frac{n_{10} - n_{01}}{n},

    i.e. the normal interval of the mean of the per-record differences
    ``correct_A - correct_B`` (variance with divisor n). Because the test and
    the interval use different variances, ``reject`` need not agree with
    whether the interval contains 0.

    Degenerate input: a table with ``n01 + n10 = 0`` (the estimators never
    disagree; this includes an empty table and equal error rates of 0 or 1,
    where the standard error is 0 too) gives z = 0 and p-value 1 for every
    alternative.

    References
    ----------
    .. [1] T. G. Dietterich, "Approximate statistical tests for comparing
       supervised classification learning algorithms", Neural Computation
       10(7):1895-1923, 1998, section 3.2.
    .. [2] A. Agresti, "Categorical Data Analysis", 3rd ed., Wiley, 2013,
       section 11.1 (the interval for paired proportions).

    Examples
    --------
    Raschka's example, where McNemar's test gives p = 0.0039:

    >>> from sklearn_bcv.stats import proportion_z
    >>> result = proportion_z([[29, 1], [11, 9959]])
    >>> round(result.statistic, 3), round(result.pvalue, 4)
    (1.197, 0.2312)
    >>> [round(bound, 5) for bound in result.confidence_interval]
    [0.00032, 0.00168]
    """
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test="proportion_z")
    table = _check_one_split(
        tables, test="proportion_z", hint=_PROPORTION_Z_HINT
    ).astype(np.float64)
    n = table.sum(axis=(-2, -1))
    n00, n01, n10 = table[..., 0, 0], table[..., 0, 1], table[..., 1, 0]
    error_a = safe_divide(n00 + n01, n)
    error_b = safe_divide(n00 + n10, n)
    error = (error_a + error_b) / 2.0
    pooled_se = np.sqrt(safe_divide(2.0 * error * (1.0 - error), n))
    statistic = safe_divide(error_b - error_a, pooled_se)
    # Estimators that never disagree (including 0/0: an empty table, error
    # rates both 0 or both 1) give no evidence either way.
    undefined = (n01 + n10) == 0

    difference = safe_divide(n10 - n01, n)
    discordant = safe_divide(n10 + n01, n)
    # max(.., 0) only guards rounding: discordant >= difference**2 always.
    paired_var = np.maximum(discordant - difference**2, 0.0)
    paired_se = np.sqrt(safe_divide(paired_var, n))
    return make_result(
        test="proportion_z",
        statistic=statistic,
        pvalue=normal_pvalue(statistic, alternative, undefined=undefined),
        df=None,
        alpha=alpha,
        alternative=alternative,
        confidence_interval=confidence_interval(
            difference, paired_se, alpha, alternative
        ),
        difference=difference,
    )


def _check_loss_differences(loss_differences):
    """Return the folds' loss differences as a list of finite 1-D float arrays."""
    not_a_list = ValueError(
        "loss_differences must be a list of 1-D arrays, one per fold; got "
        f"{type(loss_differences).__name__}."
    )
    if isinstance(loss_differences, str | bytes):
        raise not_a_list
    try:
        raw_folds = list(loss_differences)
    except TypeError:
        raise not_a_list from None
    folds = []
    for k, fold in enumerate(raw_folds):
        try:
            arr = np.asarray(fold)
        except ValueError:
            arr = np.asarray(fold, dtype=object)  # ragged: reported as below
        if not is_real_dtype(arr.dtype):
            raise ValueError(
                f"loss_differences[{k}] must be numeric (bool, int or float); got "
                f"dtype {arr.dtype}."
            )
        if arr.ndim != 1:
            raise ValueError(
                "loss_differences must be a list of 1-D arrays, one per fold; "
                f"loss_differences[{k}] has shape {arr.shape}."
            )
        if arr.size == 0:
            raise ValueError(
                f"loss_differences[{k}] is empty; every fold needs at least "
                "one test record."
            )
        arr = check_finite(arr.astype(np.float64), name=f"loss_differences[{k}]")
        folds.append(arr)
    if len(folds) < 2:
        raise ValueError(
            f"cv_ci_z needs the loss differences of k >= 2 folds; got {len(folds)}."
        )
    return folds


@register_test(
    "cv_ci_z",
    needs="loss_differences",
    design="kfold",
    swap="negate",
    display_name="cross-validation z test (Bayle et al.)",
    rationale="a z test of the per-record loss differences over the folds of a "
    "k-fold CV, valid as the number of records grows",
    references=(BAYLE_2020,),
)
def cv_ci_z(loss_differences, *, alpha=0.05, alternative="two-sided"):
    """K-fold cross-validation z test and confidence interval (Bayle et al.).

    Parameters
    ----------
    loss_differences : list of array-like of shape (n_test_k,)
        One array per fold: ``loss_a - loss_b`` for each test record of the
        fold (0-1 loss for classifiers). The folds' test sets must partition
        the records (K-fold CV); at least two folds, none empty.
    alpha : float, default=0.05
        Significance level of ``reject`` and ``1 - alpha`` the level of the
        confidence interval.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: A is better than B (lower loss); ``"less"``: B is.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            ``z = -mean(h) / sqrt(sigma2_out / n)``, positive when A has the
            lower loss.
        pvalue : float
        df : None
        reject : bool
            ``pvalue < alpha``.
        confidence_interval : tuple of float
            ``(low, high)``, the ``1 - alpha`` interval for the mean loss
            difference ``mean(loss_a - loss_b)`` — negative values favour A.
            For ``"greater"`` (A better, i.e. a negative mean loss
            difference) it is one-sided ``(-inf, high)``; for ``"less"``
            ``(low, inf)``. ``reject`` is then equivalent to the interval
            excluding 0.
        mean_loss_difference : float
            ``mean(h)`` over all n records.
        std_error : float
            ``sqrt(sigma2_out / n)``.
        alternative, alpha, test : the inputs and ``"cv_ci_z"``.

    See Also
    --------
    kfold_mcnemar : A naïve K-fold test on contingency tables.

    Notes
    -----
    Let ``h_i`` be the loss difference of record ``i``, gathered over the K
    test folds (n records in all), and ``hbar_k`` the mean within fold k.
    Bayle et al. (2020) estimate the variance with the "out" estimator

    .. math:: \\hat\\sigma^2_{out} = \\frac{1}{n}\\sum_{k=1}^K
              \\sum_{i \\in B_k} (h_i - \\bar h_k)^2

    and show that the CV estimate ``mean(h)`` is asymptotically normal with
    variance :math:`\\hat\\sigma^2_{out}/n` under stability conditions on
    the learning algorithms, so

    .. math:: z = \\frac{-\\bar h}{\\sqrt{\\hat\\sigma^2_{out} / n}},
              \\qquad \\bar h \\pm z_{1-\\alpha/2}
              \\sqrt{\\hat\\sigma^2_{out} / n}.

    The interval is for the K-fold CV test error difference (the average,
    over the folds' fitted models, of their expected loss difference).
    Degenerate input: when every fold's differences are constant
    (:math:`\\hat\\sigma^2_{out} = 0`) the statistic is 0 with p-value 1 if
    ``mean(h) = 0``, else ``±inf`` with p-value 0 on the side of the
    infinity, and the interval shrinks to the point ``mean(h)``. The
    statistic is invariant to the scale of the losses and is computed on
    them divided by a power of two, so losses of any finite magnitude give
    it without overflow; the interval and ``std_error`` are reported in loss
    units (a bound beyond the largest double is ``±inf``).

    References
    ----------
    .. [1] P. Bayle, A. Bayle, L. Janson and L. Mackey, "Cross-validation
       confidence intervals for test error", Advances in Neural Information
       Processing Systems 33, 2020.

    Examples
    --------
    0-1 loss differences of three folds (-1: only A right, 1: only B right):

    >>> from sklearn_bcv.stats import cv_ci_z
    >>> folds = [[0, -1, 0, 0, -1, 1, 0, -1],
    ...          [-1, 0, 0, -1, 0, 0, 1, 0],
    ...          [0, 0, -1, -1, 0, -1, 0, 0]]
    >>> result = cv_ci_z(folds)
    >>> round(result.statistic, 3), round(result.pvalue, 4)
    (2.089, 0.0367)
    >>> [round(bound, 3) for bound in result.confidence_interval]
    [-0.485, -0.015]
    """
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test="cv_ci_z")
    folds = _check_loss_differences(loss_differences)
    # z is scale invariant: compute it on the losses divided by a power of
    # two (largest magnitude in [1/2, 1)), so no square or sum overflows,
    # and report the rest in loss units.
    scaled, exponent = power_of_two_scale(np.concatenate(folds))
    folds = np.split(scaled, np.cumsum([fold.size for fold in folds])[:-1])
    n = scaled.size
    mean_difference = sum(fold.sum() for fold in folds) / n
    sigma2_out = sum(np.sum((fold - fold.mean()) ** 2) for fold in folds) / n
    std_error = np.sqrt(sigma2_out / n)
    statistic = safe_divide(-mean_difference, std_error)
    undefined = undefined_ratio(mean_difference, std_error)
    # "A better" means a negative mean loss difference: mirror the side.
    side = {"greater": "less", "less": "greater"}.get(alternative, alternative)
    interval = confidence_interval(mean_difference, std_error, alpha, side)
    return make_result(
        test="cv_ci_z",
        statistic=statistic,
        pvalue=normal_pvalue(statistic, alternative, undefined=undefined),
        df=None,
        alpha=alpha,
        alternative=alternative,
        confidence_interval=tuple(
            float(unscale(bound, exponent)) for bound in interval
        ),
        mean_loss_difference=unscale(mean_difference, exponent),
        std_error=unscale(std_error, exponent),
    )
