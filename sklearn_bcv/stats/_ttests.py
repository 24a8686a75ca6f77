"""Tests on the per-split score differences: t tests and F tests.

Every function takes ``differences = score_a - score_b`` (one per split,
"higher is better" scores), so a signed statistic is positive when estimator
A is better and ``alternative="greater"`` means "A is better than B".
Optional leading batch dimensions are supported: ``differences`` of shape
``(n_batches, n_splits)`` gives array-valued fields, so thousands of simulated
comparisons run as one numpy call.

Degenerate input follows one documented rule (see ``stats._utils``): when the
variance estimate is zero the statistic is 0 with p-value 1 (for every
alternative) if its numerator is 0 too, otherwise ``±inf`` with p-value 0
(on the side of the infinity). No NaN, no warning.

Every statistic here is invariant to the scale of the differences, and is
computed on the differences divided by a power of two that brings the
largest to [1/2, 1) (``stats._utils.power_of_two_scale``): differences of
any finite magnitude, from subnormals to the largest double, give the
statistic the formula gives, never an overflow in squaring them. What is
reported in the units of the differences (a confidence interval) is scaled
back, and is ``±inf`` only where it lies beyond the largest double.
"""

import numpy as np

from ._mcnemar import _check_rhos, check_rho_params
from ._references import (
    ALPAYDIN_1999,
    BOUCKAERT_2004,
    DIETTERICH_1998,
    NADEAU_2003,
    WANG_2014,
    WANG_2017,
    YANG_BCV,
    YILDIZ_2013,
)
from ._registry import register_test
from ._utils import (
    check_alpha,
    check_alternative,
    check_differences,
    check_mx2_differences,
    check_real,
    check_size,
    confidence_interval,
    f_sf,
    make_result,
    power_of_two_scale,
    safe_divide,
    t_pvalue,
    undefined_ratio,
    unscale,
)

__all__ = [
    "paired_t_5x2cv",
    "combined_f_5x2cv",
    "calibrated_f_5x2bcv",
    "combined_t_5x2cv",
    "blocked_t_3x2cv",
    "bcv_t",
    "paired_t",
    "corrected_t",
]


# --------------------------------------------------------------------------
# Shared pieces
# --------------------------------------------------------------------------


def _scaled_mx2(differences, test):
    """m×2 differences of shape (..., m, 2), divided by a power of two.

    The statistics of the m×2 tests are scale invariant; on the scaled
    differences (largest magnitude in [1/2, 1)) nothing they square or sum
    overflows (see ``stats._utils.power_of_two_scale``).
    """
    p = check_mx2_differences(differences, test=test)
    scaled, _ = power_of_two_scale(p, axis=(-2, -1))
    return scaled


def _mx2_variances(p):
    """Per-repetition ``s2_r`` of m×2 differences ``p`` of shape (..., m, 2)."""
    pbar = p.mean(axis=-1, keepdims=True)
    return np.sum((p - pbar) ** 2, axis=-1)


def _mean_and_sum_of_squares(d):
    """Mean and centred sum of squares over the last axis.

    Equal differences have exactly their common value as mean and a sum of
    squares of exactly 0 (rounding would otherwise give e.g. a mean of
    0.10000000000000002 for three 0.1 and a sum of squares ~1e-33), so the
    zero-variance rule and the closed rope apply to them as documented.
    """
    constant = np.ptp(d, axis=-1) == 0
    dbar = np.where(constant, d[..., 0], d.mean(axis=-1))
    sum_of_squares = np.sum((d - dbar[..., np.newaxis]) ** 2, axis=-1)
    return dbar, np.where(constant, 0.0, sum_of_squares)


def _t_result(test, numerator, std_error, df, alpha, alternative, **extra):
    """Result of ``t = numerator / std_error`` referred to t(df).

    The one place the zero-variance rule meets the t tests: 0/0 gives
    statistic 0 and p-value 1 for every alternative.
    """
    statistic = safe_divide(numerator, std_error)
    undefined = undefined_ratio(numerator, std_error)
    return make_result(
        test=test,
        statistic=statistic,
        pvalue=t_pvalue(statistic, df, alternative, undefined=undefined),
        df=df,
        alpha=alpha,
        alternative=alternative,
        **extra,
    )


def _combined_f_statistic(p):
    """Alpaydin's ``sum_r sum_k p[r,k]**2 / (2 sum_r s2_r)``.

    ``p`` scaled (:func:`_scaled_mx2`); a denominator that underflows to 0
    beside a non-zero numerator gives ``inf``, as a zero variance does.
    """
    numerator = np.sum(p**2, axis=(-2, -1))
    denominator = 2.0 * np.sum(_mx2_variances(p), axis=-1)
    return safe_divide(numerator, denominator)


def _validate_common(alpha, alternative, test, allowed=None):
    alpha = check_alpha(alpha)
    if allowed is None:
        alternative = check_alternative(alternative, test=test)
    else:
        alternative = check_alternative(alternative, test=test, allowed=allowed)
    return alpha, alternative


# --------------------------------------------------------------------------
# m×2 designs
# --------------------------------------------------------------------------


@register_test(
    "paired_t_5x2cv",
    batched=True,
    needs="differences",
    design="mx2",
    swap="negate",
    display_name="5×2 CV paired t test (Dietterich)",
    rationale="Dietterich's t test of a random m×2 CV, its variance from the "
    "repetitions",
    references=(DIETTERICH_1998,),
)
def paired_t_5x2cv(differences, *, alpha=0.05, alternative="two-sided"):
    """Dietterich's 5×2 CV paired t test, for any m×2 design.

    Parameters
    ----------
    differences : array-like of shape (..., 2 * m)
        Score differences ``score_a - score_b`` of an m×2 design in split
        order: split ``2r`` is fold 0 of repetition ``r`` and split ``2r + 1``
        its fold 1. Leading dimensions are independent comparisons.
    alpha : float, default=0.05
        Significance level, in (0, 1).
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: A is better than B; ``"less"``: B is better.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        - ``statistic`` -- the t statistic (positive when A is better);
        - ``pvalue`` -- from Student's t with ``df`` degrees of freedom;
        - ``df`` -- ``m`` (5 for 5×2 CV);
        - ``reject`` -- ``pvalue < alpha``;
        - ``alternative``, ``alpha``, ``test`` -- as given / the test name.

    See Also
    --------
    combined_f_5x2cv : Alpaydin's F test, which uses all 2m differences.

    Notes
    -----
    With ``p[r, k] = differences[2r + k]``, ``pbar_r = (p[r,0] + p[r,1]) / 2``
    and ``s2_r = (p[r,0] - pbar_r)**2 + (p[r,1] - pbar_r)**2``,

    .. math:: t = p_{0,0} \\,/\\, \\sqrt{\\textstyle\\sum_{r} s^2_r / m},
              \\qquad t \\sim t(m).

    Only the first difference enters the numerator (Dietterich's choice), so
    the statistic depends on the order of the repetitions; the variance uses
    all of them. A zero variance estimate gives ``statistic=0`` and
    ``pvalue=1`` (for every alternative) when ``p[0, 0] == 0``, otherwise
    ``±inf`` and ``pvalue=0`` (1 for a one-sided alternative on the other
    side).

    References
    ----------
    .. [1] T. G. Dietterich, "Approximate statistical tests for comparing
       supervised classification learning algorithms", Neural Computation
       10(7):1895-1923, 1998.

    Examples
    --------
    >>> from sklearn_bcv.stats import paired_t_5x2cv
    >>> d = [0.04, 0.02, 0.03, 0.01, 0.05, 0.03, 0.02, 0.04, 0.03, 0.03]
    >>> result = paired_t_5x2cv(d)
    >>> round(result.statistic, 4), round(result.pvalue, 4), result.df
    (3.1623, 0.025, 5)
    """
    test = "paired_t_5x2cv"
    alpha, alternative = _validate_common(alpha, alternative, test)
    p = _scaled_mx2(differences, test)
    m = p.shape[-2]
    variance = np.sum(_mx2_variances(p), axis=-1) / m
    return _t_result(test, p[..., 0, 0], np.sqrt(variance), m, alpha, alternative)


@register_test(
    "combined_f_5x2cv",
    batched=True,
    needs="differences",
    design="mx2",
    alternatives="two-sided",
    recommended_for={"mx2": 1},
    rationale="recommended for a random m×2 CV (Alpaydin)",
    swap="same",
    display_name="combined 5×2 CV F test (Alpaydin)",
    references=(ALPAYDIN_1999,),
)
def combined_f_5x2cv(differences, *, alpha=0.05, alternative="two-sided"):
    """Alpaydin's combined 5×2 CV F test, for any m×2 design.

    Parameters
    ----------
    differences : array-like of shape (..., 2 * m)
        Score differences ``score_a - score_b`` of an m×2 design in split
        order (split ``2r + k`` is fold ``k`` of repetition ``r``).
    alpha : float, default=0.05
        Significance level, in (0, 1).
    alternative : {"two-sided"}, default="two-sided"
        The F statistic squares the differences and so cannot tell which
        estimator is better: one-sided alternatives raise ``ValueError``.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        - ``statistic`` -- the F statistic (>= 0);
        - ``pvalue`` -- upper tail of F(2m, m);
        - ``df`` -- the tuple ``(2m, m)``, ``(10, 5)`` for 5×2 CV;
        - ``reject``, ``alternative``, ``alpha``, ``test``.

    See Also
    --------
    calibrated_f_5x2bcv : the same statistic on a block-regularized design,
        with calibrated degrees of freedom.
    paired_t_5x2cv : Dietterich's t test on the same design.

    Notes
    -----
    With ``p[r, k] = differences[2r + k]`` and ``s2_r`` the within-repetition
    variance (see :func:`paired_t_5x2cv`),

    .. math:: f = \\frac{\\sum_r \\sum_k p_{r,k}^2}{2 \\sum_r s^2_r},
              \\qquad f \\sim F(2m, m).

    The statistic is invariant to the order of the repetitions and of the
    two folds, and to the sign of the differences. A zero denominator gives
    ``statistic=0``, ``pvalue=1`` when every difference is 0, otherwise
    ``inf`` and ``pvalue=0``. Being scale invariant, the statistic is
    computed on the differences divided by a power of two: differences of
    any finite magnitude (e.g. negative MSEs of targets near 1e80) are
    squared without overflow, and a ratio beyond the largest double is
    ``inf``, as a zero denominator gives.

    References
    ----------
    .. [1] E. Alpaydin, "Combined 5×2 cv F test for comparing supervised
       classification learning algorithms", Neural Computation
       11(8):1885-1892, 1999.

    Examples
    --------
    >>> from sklearn_bcv.stats import combined_f_5x2cv
    >>> d = [0.04, 0.02, 0.03, 0.01, 0.05, 0.03, 0.02, 0.04, 0.03, 0.03]
    >>> result = combined_f_5x2cv(d)
    >>> round(result.statistic, 3), round(result.pvalue, 4), result.df
    (6.375, 0.0271, (10, 5))
    """
    test = "combined_f_5x2cv"
    alpha, alternative = _validate_common(
        alpha, alternative, test, allowed=("two-sided",)
    )
    p = _scaled_mx2(differences, test)
    m = p.shape[-2]
    statistic = _combined_f_statistic(p)
    return make_result(
        test=test,
        statistic=statistic,
        pvalue=f_sf(statistic, 2 * m, m),
        df=(2 * m, m),
        alpha=alpha,
        alternative=alternative,
    )


def averaged_bcv_df1(n_repeats):
    """Numerator degrees of freedom of the calibrated F test, averaged over rho2.

    Wang, Li & Li 2017 (eq. 5-7) shows that, with group-in correlation ``rho1 = 0`` and
    group-out correlation ``rho2``, the statistic is F(f, m) with
    ``f = 2m / (1 + 2(m - 1) rho2**2)`` (``10 / (1 + 8 rho2**2)`` for m = 5),
    and averages ``f`` over ``rho2`` uniform on (0, 1/2):

    .. math:: \\bar f = 2 \\int_0^{1/2} \\frac{2m}{1 + 2(m-1)\\rho^2} d\\rho
              = \\frac{4m \\arctan(\\sqrt{2(m-1)}/2)}{\\sqrt{2(m-1)}},

    which is ``5 sqrt(2) arctan(sqrt(2)) = 6.755`` for m = 5 (the paper
    rounds it to 7). For m = 1 there is no pair of repetitions and the limit
    ``2m = 2`` is returned. Values for m != 5 are our extension of the paper.

    Parameters
    ----------
    n_repeats : int
        Number m of repetitions of 2-fold CV, >= 1.

    Returns
    -------
    df1 : float
        The averaged numerator degrees of freedom (not rounded).

    Examples
    --------
    >>> from sklearn_bcv.stats._ttests import averaged_bcv_df1
    >>> round(averaged_bcv_df1(5), 4), round(averaged_bcv_df1(3), 4)
    (6.7551, 4.7124)
    """
    if n_repeats == 1:
        return 2.0
    root = np.sqrt(2.0 * (n_repeats - 1))
    return float(4.0 * n_repeats * np.arctan(root / 2.0) / root)


def _check_df1(df1, m):
    if df1 is None:
        # The paper's rounded value for 5×2 BCV; the unrounded average else.
        return 7 if m == 5 else averaged_bcv_df1(m)
    df1 = check_real(
        df1, name="df1", expected="None or a positive number", is_valid=lambda f: f > 0
    )
    return int(df1) if df1.is_integer() else df1


@register_test(
    "calibrated_f_5x2bcv",
    batched=True,
    needs="differences",
    design="bcv",
    alternatives="two-sided",
    recommended_for={"bcv": 2},
    rationale="recommended for scores on a block-regularized m×2 CV "
    "(calibrated F-test)",
    param_check=lambda df1: _check_df1(df1, 5),  # m only sets None's meaning
    swap="same",
    display_name="calibrated 5×2 BCV F test",
    references=(WANG_2017, ALPAYDIN_1999),
)
def calibrated_f_5x2bcv(differences, *, alpha=0.05, alternative="two-sided", df1=None):
    """Calibrated F test of a (5×2) block-regularized cross-validation.

    Parameters
    ----------
    differences : array-like of shape (..., 2 * m)
        Score differences ``score_a - score_b`` of a block-regularized m×2
        design (e.g. :class:`~sklearn_bcv.BlockRegularized5x2CV`) in split
        order (split ``2r + k`` is fold ``k`` of repetition ``r``).
    alpha : float, default=0.05
        Significance level, in (0, 1).
    alternative : {"two-sided"}, default="two-sided"
        One-sided alternatives raise ``ValueError`` (F is direction-free).
    df1 : float, default=None
        Numerator degrees of freedom. None means 7 for m = 5 (Wang, Li & Li 2017,
        eq. 7) and, for other m, the same average computed for m
        (:func:`averaged_bcv_df1`, an extension of the paper; 2 for m = 1).

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        - ``statistic`` -- the F statistic (>= 0), the same number as
          :func:`combined_f_5x2cv` gives;
        - ``pvalue`` -- upper tail of F(df1, m);
        - ``df`` -- the tuple ``(df1, m)``, ``(7, 5)`` for 5×2 BCV;
        - ``reject``, ``alternative``, ``alpha``, ``test``.

    See Also
    --------
    combined_f_5x2cv : the uncalibrated F(2m, m) test.

    Notes
    -----
    The statistic is Alpaydin's (Wang, Li & Li 2017, eq. 4 and 6),

    .. math:: f = \\frac{\\sum_r \\sum_k p_{r,k}^2 / (2m)}{\\sum_r s^2_r / m}
              = \\frac{\\sum_r \\sum_k p_{r,k}^2}{2 \\sum_r s^2_r},

    referred to F(7, 5) instead of F(10, 5): on a block-regularized design
    any two training sets of different repetitions share n/4 records, the
    group-out correlation ``rho2`` of the differences is the same for every
    pair, and the statistic is F(f, 5) with ``f = 10 / (1 + 8 rho2**2)``
    when ``rho1 = 0`` (eq. 5-6). Averaging f over ``rho2`` in (0, 1/2)
    gives ``5 sqrt(2) arctan(sqrt(2)) ≈ 6.755``, rounded to 7 (eq. 7).

    The derivation relies on block-regularized splits (equal overlaps); on
    random m×2 splits the correlations differ between pairs of repetitions,
    and the comparison engine warns. For m ≠ 5 the default ``df1`` is the
    same average for m repetitions, not rounded; this extension is ours, not
    the paper's. Degenerate input as in :func:`combined_f_5x2cv`.

    References
    ----------
    .. [1] Y. Wang, J. Li, Y. Li, "Choosing between two classification
       learning algorithms based on calibrated balanced 5×2 cross-validated
       F-test", Neural Processing Letters 46:1-13, 2017.
    .. [2] E. Alpaydin, "Combined 5×2 cv F test for comparing supervised
       classification learning algorithms", Neural Computation
       11(8):1885-1892, 1999.

    Examples
    --------
    >>> from sklearn_bcv.stats import calibrated_f_5x2bcv
    >>> d = [0.04, 0.02, 0.03, 0.01, 0.05, 0.03, 0.02, 0.04, 0.03, 0.03]
    >>> result = calibrated_f_5x2bcv(d)
    >>> round(result.statistic, 3), round(result.pvalue, 4), result.df
    (6.375, 0.0291, (7, 5))
    """
    test = "calibrated_f_5x2bcv"
    alpha, alternative = _validate_common(
        alpha, alternative, test, allowed=("two-sided",)
    )
    p = _scaled_mx2(differences, test)
    m = p.shape[-2]
    df1 = _check_df1(df1, m)
    statistic = _combined_f_statistic(p)
    return make_result(
        test=test,
        statistic=statistic,
        pvalue=f_sf(statistic, df1, m),
        df=(df1, m),
        alpha=alpha,
        alternative=alternative,
    )


@register_test(
    "combined_t_5x2cv",
    batched=True,
    needs="differences",
    design="mx2",
    not_recommended="it treats the 2m differences as independent, so its type "
    "I error is inflated (0.15-0.29 at 0.05, Yang et al. Table V)",
    swap="negate",
    display_name="combined 5×2 CV t test",
    rationale="a t statistic over the 2m differences of an m×2 CV",
    references=(YILDIZ_2013,),
)
def combined_t_5x2cv(differences, *, alpha=0.05, alternative="two-sided"):
    """Yildiz's combined 5×2 CV t test, for any m×2 design (not recommended).

    Parameters
    ----------
    differences : array-like of shape (..., 2 * m)
        Score differences ``score_a - score_b`` of an m×2 design in split
        order (split ``2r + k`` is fold ``k`` of repetition ``r``).
    alpha : float, default=0.05
        Significance level, in (0, 1).
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: A is better than B; ``"less"``: B is better.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        - ``statistic`` -- the t statistic (positive when A is better);
        - ``pvalue`` -- from Student's t with ``m`` degrees of freedom;
        - ``df`` -- ``m``;
        - ``reject``, ``alternative``, ``alpha``, ``test``.

    See Also
    --------
    paired_t_5x2cv, combined_f_5x2cv, calibrated_f_5x2bcv

    Notes
    -----
    With ``pbar`` the mean of all 2m differences and ``s2_r`` as in
    :func:`paired_t_5x2cv`,

    .. math:: t = \\sqrt{2m}\\, \\bar p \\,/\\, \\sqrt{\\textstyle\\sum_r s^2_r / m},
              \\qquad t \\sim t(m).

    Not recommended: the factor ``sqrt(2m)`` treats the 2m differences as
    independent although they share training and test records, so the
    variance of ``pbar`` is underestimated and the type I error is inflated
    (0.15-0.29 at a nominal 0.05 in Table V of Yang et al. 2023). It is
    provided for comparison studies. Degenerate input: zero variance gives 0
    (p-value 1) when ``pbar == 0``, else ``±inf`` (p-value 0 on the side of
    the infinity).

    References
    ----------
    .. [1] O. T. Yildiz, "Omnivariate rule induction using a novel pairwise
       statistical test", IEEE Transactions on Knowledge and Data
       Engineering 25(9):2105-2118, 2013.
    .. [2] J. Yang, R. Wang, Y. Song, J. Li, "Block-regularized 5×2
       cross-validated McNemar's test for comparing two classification
       algorithms" (Yang et al. 2023), Table V.

    Examples
    --------
    >>> from sklearn_bcv.stats import combined_t_5x2cv
    >>> d = [0.04, 0.02, 0.03, 0.01, 0.05, 0.03, 0.02, 0.04, 0.03, 0.03]
    >>> result = combined_t_5x2cv(d)
    >>> round(result.statistic, 4), round(result.pvalue, 6), result.df
    (7.5, 0.000666, 5)
    """
    test = "combined_t_5x2cv"
    alpha, alternative = _validate_common(alpha, alternative, test)
    p = _scaled_mx2(differences, test)
    m = p.shape[-2]
    numerator = np.sqrt(2.0 * m) * p.mean(axis=(-2, -1))
    variance = np.sum(_mx2_variances(p), axis=-1) / m
    return _t_result(test, numerator, np.sqrt(variance), m, alpha, alternative)


@register_test(
    "blocked_t_3x2cv",
    batched=True,
    needs="differences",
    design="bcv",
    swap="negate",
    display_name="blocked 3×2 CV t test",
    rationale="the t test of a blocked 3×2 CV, its variance from the three "
    "blocked repetitions",
    references=(WANG_2014,),
)
def blocked_t_3x2cv(differences, *, alpha=0.05, alternative="two-sided"):
    """Blocked 3×2 CV t test of Wang et al. (2014), for any m×2 BCV.

    Parameters
    ----------
    differences : array-like of shape (..., 2 * m)
        Score differences ``score_a - score_b`` of a block-regularized m×2
        design (3×2 in the paper) in split order.
    alpha : float, default=0.05
        Significance level, in (0, 1).
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: A is better than B; ``"less"``: B is better.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        - ``statistic`` -- the t statistic (positive when A is better);
        - ``pvalue`` -- from Student's t with ``2m - 1`` degrees of freedom;
        - ``df`` -- ``2m - 1`` (5 for 3×2);
        - ``reject``, ``alternative``, ``alpha``, ``test``.

    See Also
    --------
    calibrated_f_5x2bcv : the F test on a 5×2 block-regularized design.

    Notes
    -----
    With ``dbar`` the mean of the 2m differences,

    .. math:: \\hat\\sigma^2 = \\frac{1}{2m}\\sum_{i}(d_i - \\bar d)^2,
              \\qquad t = \\bar d / \\hat\\sigma, \\qquad t \\sim t(2m - 1).

    This is the published test (statistic, divisor 2m and 2m - 1 degrees of
    freedom, as in the authors' own code); its null distribution is an
    approximation. The divisor is 2m and there is no ``1/sqrt(2m)`` in the
    denominator because on a block-regularized design the correlation
    between the two folds of a repetition is about 0 and between folds of
    different repetitions about 1/2: under the normal model with variance
    ``sigma**2`` and correlations ``rho1`` (same repetition) and ``rho2``
    (different repetitions), ``Var(dbar) = sigma**2 (1 + rho1 + (2m - 2)
    rho2) / (2m)`` and the sum of squares ``SS`` has expectation
    ``sigma**2 (2m - 1 - rho1 - (2m - 2) rho2)``, so at ``rho1 = 0``,
    ``rho2 = 1/2`` both ``Var(dbar)`` and ``E[SS / 2m]`` are ``sigma**2 /
    2``: ``sigma2_hat`` estimates the variance of ``dbar`` without bias, and
    dividing it by 2m again, as a naive paired t test does, would overstate
    the evidence. Unbiased is not t(2m - 1), though:
    ``SS / sigma**2 = (1 + rho1 - 2 rho2) chi2(m - 1) + (1 - rho1) chi2(m)``
    (independent of ``dbar``), whose effective degrees of freedom lie
    between m (``rho2 = (1 + rho1)/2``) and 2m - 1 (``rho2 = rho1``) — 3
    and 5 for the 3×2 design — and at ``rho1 = 0``, ``rho2 = 1/2`` the
    statistic is exactly t(m) (t(3) for 3×2), whose tails are heavier than
    those of the t(5) it is referred to: the test then rejects more often
    than ``alpha`` (it is exactly t(2m - 1) only when ``rho1 = rho2 =
    (m - 1)/(2m - 1)``). Wang, Li & Li's Table 3 prints this test's rejection rates at
    ``t_0.95(5) = 2.015``, i.e. two-sided at ``alpha = 0.10`` (see the
    reproduction notes). The design must be block-regularized (the
    comparison engine warns otherwise). Zero variance gives 0 (p-value 1)
    when ``dbar == 0``, else ``±inf`` (p-value 0 on the side of the
    infinity).

    References
    ----------
    .. [1] Y. Wang, R. Wang, H. Jia, J. Li, "Blocked 3×2 cross-validated
       t-test for comparing supervised classification learning algorithms",
       Neural Computation 26(1):208-235, 2014.

    Examples
    --------
    >>> from sklearn_bcv.stats import blocked_t_3x2cv
    >>> d = [0.03, 0.01, 0.02, 0.04, 0.02, 0.02]
    >>> result = blocked_t_3x2cv(d)
    >>> round(result.statistic, 4), round(result.pvalue, 4), result.df
    (2.4749, 0.0562, 5)
    """
    test = "blocked_t_3x2cv"
    alpha, alternative = _validate_common(alpha, alternative, test)
    p = _scaled_mx2(differences, test)
    d = p.reshape(*p.shape[:-2], -1)
    dbar, sum_of_squares = _mean_and_sum_of_squares(d)
    sigma2 = sum_of_squares / d.shape[-1]
    df = d.shape[-1] - 1
    return _t_result(test, dbar, np.sqrt(sigma2), df, alpha, alternative)


@register_test(
    "bcv_t",
    batched=True,
    needs="differences",
    design="bcv",
    param_check=check_rho_params,
    swap="negate",
    display_name="BCV t test",
    rationale="a t test of the mean difference on a block-regularized m×2 CV, "
    "with the variance model of its correlated splits",
    references=(YANG_BCV,),
)
def bcv_t(differences, *, alpha=0.05, alternative="two-sided", rho1=0.5, rho2=0.5):
    """t test of the mean score difference under the BCV variance model.

    Parameters
    ----------
    differences : array-like of shape (..., 2 * m)
        Score differences ``score_a - score_b`` of a block-regularized m×2
        design in split order (split ``2r + k`` is fold ``k`` of repetition
        ``r``), any scoring, regression included.
    alpha : float, default=0.05
        Significance level, in (0, 1).
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: A is better than B; ``"less"``: B is better.
    rho1 : float, default=0.5
        Assumed correlation of the two differences of one repetition, in
        (-1, 1).
    rho2 : float, default=0.5
        Assumed correlation of differences of different repetitions, in
        [0, 1) and at most ``(1 + rho1) / 2`` (Yang et al. 2023, eq. 9). The
        defaults are the upper bounds of Yang et al.'s eq. 10, as in
        :func:`bcv_mcnemar`.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        - ``statistic`` -- the t statistic (positive when A is better);
        - ``pvalue`` -- from Student's t with ``2m - 1`` degrees of freedom;
        - ``df`` -- ``2m - 1``;
        - ``mean_difference``, ``std_error`` -- ``dbar`` and the estimated
          standard deviation of ``dbar``, in the units of the differences;
        - ``confidence_interval`` -- ``(1 - alpha)`` interval of the mean
          difference, one-sided as ``alternative`` says;
        - ``variance_factor`` -- ``V_m`` below;
        - ``reject``, ``alternative``, ``alpha``, ``test``.

    See Also
    --------
    bcv_mcnemar : the effective-table McNemar test of the same design.
    blocked_t_3x2cv : the t test of Wang et al., which takes ``V_m = 1/2``.
    sklearn_bcv.sequential_compare : its group-sequential form.

    Notes
    -----
    Yang et al.'s variance model (§4) gives the 2m differences a common
    variance ``sigma**2``, correlation ``rho1`` within a repetition and
    ``rho2`` across repetitions, so

    .. math:: \\operatorname{Var}(\\bar d) = \\sigma^2 V_m, \\qquad
              V_m = \\frac{1 + \\rho_1 + 2(m - 1)\\rho_2}{2m},

    and the centred sum of squares has expectation
    :math:`E\\sum_i (d_i - \\bar d)^2 = 2m\\sigma^2 (1 - V_m)`. The pooled,
    unbiased estimate :math:`s^2 = \\sum_i (d_i - \\bar d)^2 / (2m(1 -
    V_m))` gives

    .. math:: t = \\frac{\\bar d}{\\sqrt{V_m s^2}} \\sim t(2m - 1).

    With ``rho1 = rho2 = 1/2`` (the defaults) every contrast orthogonal to
    the mean has the same variance under the model, so :math:`\\bar d` and
    :math:`s^2` are independent and :math:`t(2m - 1)` is exact for normal
    differences; for other correlations it is the usual approximation. This
    is the look statistic of the differences-based sequential test of the user
    guide (our extension; Yang et al. 2023 derives the model for its McNemar test).
    :func:`blocked_t_3x2cv` takes ``V_m = 1/2`` whatever m; here the
    variance of :math:`\\bar d` shrinks with m as the model says, which is
    what lets a sequential design gain from more repetitions.
    Zero variance: statistic 0 (p-value 1) when ``dbar == 0``, else ``±inf``.

    References
    ----------
    .. [1] J. Yang, R. Wang, Y. Song and J. Li, "Block-regularized 5×2
       cross-validated McNemar's test for comparing two classification
       algorithms", section 4 (the variance model, eq. 8-10).

    Examples
    --------
    >>> from sklearn_bcv.stats import bcv_t
    >>> d = [0.04, 0.02, 0.03, 0.01, 0.05, 0.03, 0.02, 0.04, 0.03, 0.03]
    >>> result = bcv_t(d)
    >>> round(result.statistic, 3), round(result.pvalue, 4), result.df
    (2.477, 0.0352, 9)
    """
    test = "bcv_t"
    alpha, alternative = _validate_common(alpha, alternative, test)
    p = check_mx2_differences(differences, test=test)
    m = p.shape[-2]
    rho1, rho2 = _check_rhos(rho1, rho2, m)
    d, exponent = power_of_two_scale(p.reshape(*p.shape[:-2], 2 * m))
    dbar, sum_of_squares = _mean_and_sum_of_squares(d)
    spread = 1.0 + rho1 + 2.0 * (m - 1) * rho2  # 2m·V_m
    # V_m·s² = V_m·SS / (2m(1 - V_m)) = spread·SS / (2m·(2m - spread))
    std_error = np.sqrt(spread * sum_of_squares / (2.0 * m * (2.0 * m - spread)))
    df = 2 * m - 1
    result = _location_t_result(test, dbar, std_error, df, alpha, alternative, exponent)
    result["mean_difference"] = _as_reported(unscale(dbar, exponent))
    result["std_error"] = _as_reported(unscale(std_error, exponent))
    result["variance_factor"] = spread / (2.0 * m)
    return result


# --------------------------------------------------------------------------
# Any design
# --------------------------------------------------------------------------


def _location_t_result(test, dbar, std_error, df, alpha, alternative, exponent):
    """Result of ``t = dbar / std_error`` ~ t(df), with its confidence interval.

    ``dbar`` and ``std_error`` are in scaled units (see
    :func:`_mean_and_variance`); the interval is reported in the units of
    the differences, ``±inf`` where a bound lies beyond the largest double.
    """
    interval = confidence_interval(dbar, std_error, alpha, alternative, df=df)
    interval = tuple(_as_reported(unscale(bound, exponent)) for bound in interval)
    return _t_result(
        test, dbar, std_error, df, alpha, alternative, confidence_interval=interval
    )


def _as_reported(value):
    """A 0-d array as a Python float (the interval of a single comparison)."""
    return float(value) if np.ndim(value) == 0 else value


def _mean_and_variance(differences, test):
    """Mean, sample variance (ddof=1), count and scale of the differences.

    Mean and variance are those of the differences divided by
    ``2**exponent`` (:func:`~sklearn_bcv.stats._utils.power_of_two_scale`):
    multiply the mean by ``2**exponent`` and the variance by
    ``4**exponent`` for the differences' own units (:func:`unscale`).
    """
    d = check_differences(differences, min_splits=2, test=test)
    d, exponent = power_of_two_scale(d)
    dbar, sum_of_squares = _mean_and_sum_of_squares(d)
    return dbar, sum_of_squares / (d.shape[-1] - 1), d.shape[-1], exponent


def corrected_std_error(s2, n_splits, n_train, n_test):
    """``sqrt((1/J + n_test/n_train)·s2)``, Nadeau and Bengio's standard error.

    ``n_test / n_train`` beyond the largest double is ``inf``, and so is
    the standard error unless ``s2 == 0``, where it is 0 (a point mass):
    never ``inf·0``, never a warning.
    """
    s2 = np.asarray(s2, dtype=np.float64)
    with np.errstate(over="ignore"):
        factor = 1.0 / n_splits + np.divide(n_test, n_train)
        variance = np.zeros(np.broadcast_shapes(s2.shape, np.shape(factor)))
        np.multiply(factor, s2, out=variance, where=s2 != 0)
    return np.sqrt(variance)


@register_test(
    "paired_t",
    batched=True,
    needs="differences",
    design="any",
    display_name="paired t test",
    not_recommended="its variance ignores the correlation of overlapping "
    "training sets, so it rejects too often (Dietterich 1998; Nadeau & Bengio "
    "2003)",
    swap="negate",
    rationale="the textbook paired t test of the per-split differences, for reference",
    references=(DIETTERICH_1998, NADEAU_2003),
)
def paired_t(differences, *, alpha=0.05, alternative="two-sided"):
    """Paired t test on the per-split differences (not recommended).

    The K-fold cross-validated paired t test and the resampled paired t test
    both compute this statistic; they differ only in how the splits were made.

    Parameters
    ----------
    differences : array-like of shape (..., n_splits)
        Score differences ``score_a - score_b``, ``n_splits >= 2``.
    alpha : float, default=0.05
        Significance level, in (0, 1).
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: A is better than B; ``"less"``: B is better.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        - ``statistic`` -- the t statistic (positive when A is better);
        - ``pvalue`` -- from Student's t with ``J - 1`` degrees of freedom;
        - ``df`` -- ``J - 1``;
        - ``confidence_interval`` -- ``(low, high)``, the (1 - alpha) t
          interval of the mean difference (one-sided for a one-sided
          ``alternative``, as in :func:`scipy.stats.ttest_1samp`);
        - ``reject``, ``alternative``, ``alpha``, ``test``.

    See Also
    --------
    corrected_t : the same test with a variance corrected for overlapping
        training sets.

    Notes
    -----
    With ``dbar`` the mean and ``s2`` the sample variance (ddof=1) of the J
    differences,

    .. math:: t = \\bar d \\,/\\, \\sqrt{s^2 / J}, \\qquad t \\sim t(J - 1),

    i.e. :func:`scipy.stats.ttest_1samp` against 0. Not recommended: the
    training sets of different splits overlap (K-fold CV: any two share
    (K - 2)/(K - 1) of their records; resampling: test sets overlap too), so
    the differences are positively correlated, ``s2 / J`` underestimates the
    variance of ``dbar`` and the type I error exceeds alpha (Dietterich 1998;
    Yang et al. 2023, Table V). Use :func:`corrected_t` or a 5×2 test instead.
    Zero variance gives 0 (p-value 1) when ``dbar == 0``, else ``±inf``
    (p-value 0 on the side of the infinity).

    References
    ----------
    .. [1] T. G. Dietterich, "Approximate statistical tests for comparing
       supervised classification learning algorithms", Neural Computation
       10(7):1895-1923, 1998.

    Examples
    --------
    >>> from sklearn_bcv.stats import paired_t
    >>> result = paired_t([0.02, 0.01, 0.03, 0.02, 0.02])
    >>> round(result.statistic, 4), round(result.pvalue, 4), result.df
    (6.3246, 0.0032, 4)
    """
    test = "paired_t"
    alpha, alternative = _validate_common(alpha, alternative, test)
    dbar, s2, n_splits, exponent = _mean_and_variance(differences, test)
    std_error = np.sqrt(s2 / n_splits)
    return _location_t_result(
        test, dbar, std_error, n_splits - 1, alpha, alternative, exponent
    )


@register_test(
    "corrected_t",
    batched=True,
    needs=("differences", "n_train", "n_test"),
    design="any",
    recommended_for={"bcv": 3, "mx2": 2, "kfold": 1, "any": 1},
    rationale="recommended for k-fold and other resampling designs (Nadeau & Bengio)",
    display_name="corrected resampled t test (Nadeau & Bengio)",
    swap="negate",
    references=(NADEAU_2003, BOUCKAERT_2004),
)
def corrected_t(differences, n_train, n_test, *, alpha=0.05, alternative="two-sided"):
    """Corrected resampled / repeated CV t test (Nadeau & Bengio).

    Parameters
    ----------
    differences : array-like of shape (..., n_splits)
        Score differences ``score_a - score_b``, ``n_splits >= 2``, from
        repeated hold-out splits or r×k cross-validation.
    n_train : float
        Number of training records per split (the mean when it varies).
    n_test : float
        Number of test records per split (the mean when it varies).
    alpha : float, default=0.05
        Significance level, in (0, 1).
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: A is better than B; ``"less"``: B is better.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        - ``statistic`` -- the corrected t statistic (positive when A is
          better);
        - ``pvalue`` -- from Student's t with ``J - 1`` degrees of freedom;
        - ``df`` -- ``J - 1``;
        - ``confidence_interval`` -- ``(low, high)``, the (1 - alpha) t
          interval of the mean difference with the corrected variance
          (one-sided for a one-sided ``alternative``);
        - ``reject``, ``alternative``, ``alpha``, ``test``.

    See Also
    --------
    paired_t : the uncorrected test.
    bayesian_correlated_t : its Bayesian counterpart (same posterior).

    Notes
    -----
    With ``dbar`` the mean and ``s2`` the sample variance (ddof=1) of the J
    differences,

    .. math:: t = \\frac{\\bar d}{\\sqrt{(1/J + n_{test}/n_{train})\\, s^2}},
              \\qquad t \\sim t(J - 1).

    The term ``n_test / n_train`` is Nadeau and Bengio's heuristic for the
    correlation ``rho = n_test / (n_train + n_test)`` between differences
    of overlapping splits (``rho / (1 - rho) = n_test / n_train``); Bouckaert
    and Frank apply it to r×k CV ("corrected repeated k-fold CV test").
    With ``n_test / n_train -> 0`` it reduces to :func:`paired_t`. Zero
    variance gives 0 (p-value 1) when ``dbar == 0``, else ``±inf``
    (p-value 0 on the side of the infinity).

    References
    ----------
    .. [1] C. Nadeau, Y. Bengio, "Inference for the generalization error",
       Machine Learning 52(3):239-281, 2003.
    .. [2] R. R. Bouckaert, E. Frank, "Evaluating the replicability of
       significance tests for comparing learning algorithms", PAKDD 2004,
       LNCS 3056:3-12.

    Examples
    --------
    Ten-fold CV of 100 records (90 train, 10 test per split):

    >>> from sklearn_bcv.stats import corrected_t
    >>> d = [0.02, 0.01, 0.03, 0.02, 0.02, 0.04, 0.0, 0.01, 0.03, 0.02]
    >>> result = corrected_t(d, n_train=90, n_test=10)
    >>> round(result.statistic, 4), round(result.pvalue, 4), result.df
    (3.7697, 0.0044, 9)
    >>> [round(bound, 4) for bound in result.confidence_interval]
    [0.008, 0.032]
    """
    test = "corrected_t"
    alpha, alternative = _validate_common(alpha, alternative, test)
    n_train = check_size(n_train, name="n_train")
    n_test = check_size(n_test, name="n_test")
    dbar, s2, n_splits, exponent = _mean_and_variance(differences, test)
    std_error = corrected_std_error(s2, n_splits, n_train, n_test)
    return _location_t_result(
        test, dbar, std_error, n_splits - 1, alpha, alternative, exponent
    )
