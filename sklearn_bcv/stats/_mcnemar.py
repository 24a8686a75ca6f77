"""McNemar's test on one hold-out split, on K folds and on an m×2 BCV design.

Every test here reads contingency tables in the package's layout:
``table[i, j]`` counts the validation records on which estimator A's
correctness is ``i`` and estimator B's correctness is ``j`` (0 = wrong,
1 = correct), so ``n01 = table[0, 1]`` (A wrong, B right) and
``n10 = table[1, 0]`` (A right, B wrong).
"""

import numpy as np
from scipy import stats

from ._references import DIETTERICH_1998, EDWARDS_1948, MCNEMAR_1947, YANG_BCV
from ._registry import register_test
from ._utils import (
    check_alpha,
    check_alternative,
    check_bool,
    check_label_type,
    check_real,
    check_tables,
    chi2_sf,
    label_type,
    make_result,
    normal_pvalue,
    safe_divide,
)

__all__ = ["bcv_mcnemar", "kfold_mcnemar", "mcnemar", "mcnemar_table"]


def mcnemar_table(y_true, y_pred_a, y_pred_b):
    """Count the records each of two estimators gets right or wrong.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred_a : array-like of shape (n_samples,)
        Predictions of estimator A.
    y_pred_b : array-like of shape (n_samples,)
        Predictions of estimator B.

    Returns
    -------
    table : ndarray of shape (2, 2), dtype=int
        ``table[i, j]`` is the number of records on which A's correctness is
        ``i`` and B's correctness is ``j`` (0 = wrong, 1 = correct): so
        ``table[0, 1]`` (n01) counts records A gets wrong and B right, and
        ``table[1, 0]`` (n10) records A gets right and B wrong.

    See Also
    --------
    mcnemar : McNemar's test on one such table.

    Notes
    -----
    This is the layout of Table I of Yang et al. (index 0 = incorrect), the
    one every test of :mod:`sklearn_bcv.stats` reads. It differs from
    ``mlxtend.evaluate.mcnemar_table``, whose first row and column are
    "correct": mlxtend's ``tb[0, 1]`` (A right, B wrong) is our
    ``table[1, 0]``, and its ``tb[0, 0]`` (both right) is our ``table[1, 1]``.
    Do not feed one library's table to the other's tests.

    References
    ----------
    .. [1] J. Yang, R. Wang, Y. Song and J. Li, "Block-regularized 5×2
       cross-validated McNemar's test for comparing two classification
       algorithms", Table I.

    Examples
    --------
    >>> from sklearn_bcv import mcnemar_table
    >>> y_true = [0, 1, 1, 0, 1, 0]
    >>> y_pred_a = [0, 1, 1, 1, 0, 0]
    >>> y_pred_b = [0, 0, 1, 1, 1, 1]
    >>> mcnemar_table(y_true, y_pred_a, y_pred_b)
    array([[1, 1],
           [2, 2]])
    """
    arrays = {}
    for name, values in (
        ("y_true", y_true),
        ("y_pred_a", y_pred_a),
        ("y_pred_b", y_pred_b),
    ):
        arr = np.asarray(values)
        if arr.ndim != 1:
            raise ValueError(
                f"{name} must be a 1-D array of labels; got shape {arr.shape}."
            )
        arrays[name] = arr
    lengths = {name: arr.shape[0] for name, arr in arrays.items()}
    if len(set(lengths.values())) > 1:
        raise ValueError(
            "y_true, y_pred_a and y_pred_b must have the same length; got "
            + ", ".join(f"{name}: {n}" for name, n in lengths.items())
            + "."
        )
    if label_type(arrays["y_true"]) == "mixed":
        raise ValueError(
            "y_true mixes strings and numbers; class labels must be all strings "
            "or all numbers."
        )
    for name in ("y_pred_a", "y_pred_b"):
        check_label_type(arrays[name], arrays["y_true"], name=name, y_name="y_true")
    a_correct = (arrays["y_pred_a"] == arrays["y_true"]).astype(np.int64)
    b_correct = (arrays["y_pred_b"] == arrays["y_true"]).astype(np.int64)
    return np.bincount(2 * a_correct + b_correct, minlength=4).reshape(2, 2)


def _discordant(tables):
    """Return ``(n01, n10)`` as float arrays of shape (..., n_splits).

    In float64 (counts below 2**63, see ``check_tables``) their sums and
    squares cannot overflow, as int64 arithmetic would.
    """
    return tables[..., 0, 1].astype(np.float64), tables[..., 1, 0].astype(np.float64)


def _continuity_chi2(n01, n10, correction):
    """``max(|n01 - n10| - correction, 0)² / (n01 + n10)``, 0 when n01 + n10 = 0."""
    numerator = np.maximum(np.abs(n01 - n10) - correction, 0.0) ** 2
    return safe_divide(numerator, n01 + n10)


def _signed_root(chi2, n01, n10):
    """``sign(n10 - n01)·sqrt(chi2)``: a z score, positive when A is better."""
    return np.sign(n10 - n01) * np.sqrt(chi2)


def _chi2_pvalue(chi2, z, n01, n10, alternative):
    """Chi-squared(1) p-value, or the normal tail of ``z`` for one side.

    With no disagreement at all (n01 + n10 = 0) the p-value is 1 for every
    alternative: there is no evidence either way.
    """
    if alternative == "two-sided":
        return chi2_sf(chi2, 1)
    return normal_pvalue(z, alternative, undefined=(n01 + n10) == 0)


_MULTI_SPLIT_HINT = (
    "Use kfold_mcnemar for the tables of k folds or bcv_mcnemar for those "
    "of an m×2 BCV design."
)


def _check_one_split(tables, *, test, hint=_MULTI_SPLIT_HINT):
    """Validate the table(s) of one hold-out split; return shape (..., 2, 2)."""
    tables = check_tables(tables)
    n_splits = tables.shape[-3]
    if n_splits != 1:
        raise ValueError(
            f"{test} needs the table of one hold-out split; got {n_splits} "
            f"tables. {hint}"
        )
    return tables[..., 0, :, :]


def _check_mcnemar_params(correction, exact):
    check_bool(correction, name="correction")
    check_bool(exact, name="exact")


@register_test(
    "mcnemar",
    needs="tables",
    design="holdout",
    recommended_for={"holdout": 1},
    rationale="recommended for one hold-out split",
    param_check=_check_mcnemar_params,
    swap="same",
    display_name="McNemar's test",
    references=(MCNEMAR_1947, EDWARDS_1948, DIETTERICH_1998),
)
def mcnemar(
    tables, *, alpha=0.05, alternative="two-sided", correction=True, exact=False
):
    """Run McNemar's test of two estimators on one hold-out split.

    Parameters
    ----------
    tables : array-like of shape (2, 2) or (1, 2, 2)
        The contingency table of the split (see :func:`~sklearn_bcv.mcnemar_table`).
        Leading batch dimensions, ``(..., 1, 2, 2)``, test many comparisons
        at once.
    alpha : float, default=0.05
        Significance level of ``reject``.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: A is more accurate than B (n10 > n01);
        ``"less"``: B is more accurate.
    correction : bool, default=True
        Whether to apply Edwards' continuity correction to the chi-squared
        statistic. Ignored when ``exact=True``.
    exact : bool, default=False
        Whether to run the exact binomial test instead of the chi-squared
        approximation; advisable when n01 + n10 is small (below about 25).

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float or int
            The chi-squared statistic; with ``exact=True``, the count n10
            (records A gets right and B wrong).
        pvalue : float
        df : int or None
            1, or None with ``exact=True``.
        reject : bool
            ``pvalue < alpha``.
        z : float
            Only without ``exact``: ``sign(n10 - n01)·sqrt(statistic)``,
            positive when A is better; one-sided p-values are its normal
            tails.
        alternative, alpha, test : the inputs and ``"mcnemar"``.

    See Also
    --------
    sklearn_bcv.mcnemar_table : Build the table from predictions.
    kfold_mcnemar : The naïve sum over K folds (not recommended).
    bcv_mcnemar : McNemar's test on a block-regularized m×2 CV.

    Notes
    -----
    With ``b = n01`` and ``c = n10`` the statistic is

    .. math:: \\chi^2 = \\frac{\\max(|b - c| - k, 0)^2}{b + c}

    with ``k = 1`` under Edwards' correction and ``k = 0`` otherwise,
    referred to :math:`\\chi^2(1)`. The one-sided p-values are normal tails
    of ``z = sign(c - b)·sqrt(chi2)`` (the two-sided p-value equals
    ``2·norm.sf(|z|)``).

    The exact test refers ``c`` to Binomial(b + c, 1/2): two-sided
    ``p = min(1, 2·binom.cdf(min(b, c), b + c, 1/2))``, ``"greater"``
    ``p = P(X >= c)``, ``"less"`` ``p = P(X <= c)``.

    Degenerate input: when ``b + c = 0`` (the estimators never disagree)
    the statistic is 0 and the p-value 1, for every alternative — "no
    evidence of a difference".
    Some implementations return a p-value of 0 there.

    The test uses one split: its power is limited by the variance of a
    single hold-out estimate (Yang et al., section 2).

    References
    ----------
    .. [1] Q. McNemar, "Note on the sampling error of the difference between
       correlated proportions or percentages", Psychometrika 12(2):153-157,
       1947.
    .. [2] A. L. Edwards, "Note on the 'correction for continuity' in testing
       the significance of the difference between correlated proportions",
       Psychometrika 13(3):185-187, 1948.
    .. [3] T. G. Dietterich, "Approximate statistical tests for comparing
       supervised classification learning algorithms", Neural Computation
       10(7):1895-1923, 1998.

    Examples
    --------
    Raschka's example: A gets 11 records right that B gets wrong and one
    record wrong that B gets right.

    >>> from sklearn_bcv.stats import mcnemar
    >>> table = [[29, 1], [11, 9959]]
    >>> result = mcnemar(table, correction=False)
    >>> round(result.statistic, 3), round(result.pvalue, 4)
    (8.333, 0.0039)
    >>> round(mcnemar(table).pvalue, 4)
    0.0094
    >>> round(mcnemar(table, exact=True).pvalue, 4)
    0.0063
    """
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test="mcnemar")
    correction = check_bool(correction, name="correction")
    exact = check_bool(exact, name="exact")
    table = _check_one_split(tables, test="mcnemar")
    n01, n10 = _discordant(table)
    if exact:
        n = n01 + n10
        if alternative == "greater":
            pvalue = stats.binom.sf(n10 - 1, n, 0.5)
        elif alternative == "less":
            pvalue = stats.binom.cdf(n10, n, 0.5)
        else:
            smaller = np.minimum(n01, n10)
            pvalue = np.minimum(1.0, 2.0 * stats.binom.cdf(smaller, n, 0.5))
        return make_result(
            test="mcnemar",
            statistic=table[..., 1, 0],  # the int64 count, not its float
            pvalue=pvalue,
            df=None,
            alpha=alpha,
            alternative=alternative,
        )
    chi2 = _continuity_chi2(n01, n10, 1.0 if correction else 0.0)
    z = _signed_root(chi2, n01, n10)
    pvalue = _chi2_pvalue(chi2, z, n01, n10, alternative)
    return make_result(
        test="mcnemar",
        statistic=chi2,
        pvalue=pvalue,
        df=1,
        alpha=alpha,
        alternative=alternative,
        z=z,
    )


@register_test(
    "kfold_mcnemar",
    needs="tables",
    design="kfold",
    alternatives="two-sided",
    not_recommended="it sums the K folds' statistics as if independent; they "
    "are correlated, so its type I error is not controlled",
    swap="same",
    display_name="k-fold McNemar test",
    rationale="the McNemar statistics of the K folds summed",
    references=(YANG_BCV,),
)
def kfold_mcnemar(tables, *, alpha=0.05, alternative="two-sided"):
    """Naïve K-fold cross-validated McNemar's test (not recommended).

    Parameters
    ----------
    tables : array-like of shape (n_splits, 2, 2)
        One contingency table per fold (``n_splits >= 2``), whose test sets
        partition the records. Leading batch dimensions,
        ``(..., n_splits, 2, 2)``, test many comparisons at once.
    alpha : float, default=0.05
        Significance level of ``reject``.
    alternative : {"two-sided"}, default="two-sided"
        The summed statistic has no direction, so one-sided alternatives
        raise a ``ValueError``.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            The sum of the K corrected McNemar statistics.
        pvalue : float
        df : int
            K, the number of folds.
        reject : bool
            ``pvalue < alpha``.
        alternative, alpha, test : the inputs and ``"kfold_mcnemar"``.

    See Also
    --------
    bcv_mcnemar : The recommended cross-validated McNemar's test.
    mcnemar : McNemar's test on one hold-out split.

    Notes
    -----
    Yang et al. (eq. 5) sum the continuity-corrected statistics of the K
    folds,

    .. math:: M^{KCV} = \\sum_{k=1}^K
              \\frac{\\max(|n_{01,k} - n_{10,k}| - 1, 0)^2}{n_{01,k} + n_{10,k}},

    and refer the sum to :math:`\\chi^2(K)` (a fold with
    ``n01 + n10 = 0`` adds 0). That distribution holds only if the K
    statistics are independent, and they are not: for K > 2 any two
    training sets share (K - 2)/(K - 1) of their records, so the folds'
    statistics are positively correlated and the test's type I error is not
    controlled. Yang et al. introduce it as a baseline and do not recommend
    it; use :func:`bcv_mcnemar`.

    References
    ----------
    .. [1] J. Yang, R. Wang, Y. Song and J. Li, "Block-regularized 5×2
       cross-validated McNemar's test for comparing two classification
       algorithms", section 3.

    Examples
    --------
    >>> from sklearn_bcv.stats import kfold_mcnemar
    >>> tables = [[[5, 3], [9, 33]], [[4, 6], [8, 32]], [[6, 2], [10, 32]]]
    >>> result = kfold_mcnemar(tables)
    >>> round(result.statistic, 3), result.df, round(result.pvalue, 4)
    (6.238, 3, 0.1006)
    """
    alpha = check_alpha(alpha)
    alternative = check_alternative(
        alternative, test="kfold_mcnemar", allowed=("two-sided",)
    )
    tables = check_tables(tables)
    n_splits = tables.shape[-3]
    if n_splits < 2:
        raise ValueError(
            "kfold_mcnemar needs the tables of k >= 2 folds; got "
            f"{n_splits} table. Use mcnemar for one hold-out split."
        )
    n01, n10 = _discordant(tables)
    statistic = _continuity_chi2(n01, n10, 1.0).sum(axis=-1)
    return make_result(
        test="kfold_mcnemar",
        statistic=statistic,
        pvalue=chi2_sf(statistic, n_splits),
        df=n_splits,
        alpha=alpha,
        alternative=alternative,
    )


def _check_correlation(value, *, name, low, closed_low):
    """Validate an assumed correlation: a number in [low, 1) or (low, 1)."""
    interval = f"[{low:g}, 1)" if closed_low else f"({low:g}, 1)"
    return check_real(
        value,
        name=name,
        expected=f"a number in {interval}",
        is_valid=lambda v: (v >= low if closed_low else v > low) and v < 1,
    )


def _check_rhos(rho1, rho2, n_repeats):
    """Validate (rho1, rho2) as the correlations of 2m hold-out estimates.

    rho1 (same repetition) may be negative, as Yang et al.'s Figure 1 shows it
    often is; rho2 (different repetitions) is in [0, 1) as eq. 10 bounds it.
    With m >= 2 the assumed correlation matrix must exist: its eigenvalue
    ``1 + rho1 - 2 rho2`` is >= 0, i.e. ``rho2 <= (1 + rho1) / 2`` (eq. 9).
    """
    rho1 = _check_correlation(rho1, name="rho1", low=-1, closed_low=False)
    rho2 = _check_correlation(rho2, name="rho2", low=0, closed_low=True)
    if n_repeats >= 2 and 2 * rho2 > 1 + rho1:
        raise ValueError(
            f"rho2 must be at most (1 + rho1) / 2 = {(1 + rho1) / 2:g} "
            f"(Yang et al., eq. 9): no 2m hold-out estimates have correlations "
            f"rho1={rho1:g} within and rho2={rho2:g} across repetitions."
        )
    return rho1, rho2


def check_rho_params(rho1, rho2):
    """The correlations before any fit: eq. 9 bounds them alike for every
    m >= 2 (with m = 1, rho2 is not used)."""
    _check_rhos(rho1, rho2, n_repeats=2)


def _effective_factor(n_repeats, rho1, rho2):
    """``t = 2m / (1 + rho1 + 2(m - 1)·rho2)``, the effective-table factor."""
    return 2 * n_repeats / (1 + rho1 + 2 * (n_repeats - 1) * rho2)


@register_test(
    "bcv_mcnemar",
    needs="tables",
    design="bcv",
    recommended_for={"bcv": 1},
    rationale="recommended for classifiers on a block-regularized m×2 CV "
    "(Yang et al. 2023)",
    param_check=check_rho_params,
    swap="same",
    display_name="BCV McNemar test",
    references=(YANG_BCV,),
)
def bcv_mcnemar(tables, *, alpha=0.05, alternative="two-sided", rho1=0.5, rho2=0.5):
    """Block-regularized m×2 cross-validated McNemar's test.

    Parameters
    ----------
    tables : array-like of shape (2m, 2, 2)
        The contingency tables of an m×2 design in split order (split
        ``2r`` is fold 0 of repetition ``r``, split ``2r + 1`` fold 1),
        ideally block-regularized (see
        :class:`~sklearn_bcv.BlockRegularized5x2CV`). Leading batch
        dimensions, ``(..., 2m, 2, 2)``, test many comparisons at once.
    alpha : float, default=0.05
        Significance level of ``reject``.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: A is more accurate than B; ``"less"``: B is.
    rho1 : float, default=0.5
        Assumed correlation of the two hold-out estimates of the
        disagreement rate within one 2-fold CV, in (-1, 1).
    rho2 : float, default=0.5
        Assumed correlation of hold-out estimates from different
        repetitions, in [0, 1) and at most ``(1 + rho1) / 2`` (eq. 9, so
        that the assumed correlations are possible). The defaults are the
        upper bounds of Yang et al.'s eq. 10, the conservative choice.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            The chi-squared statistic of eq. 14.
        pvalue : float
        df : int
            1.
        reject : bool
            ``pvalue < alpha``.
        z : float
            ``sign(nbar10 - nbar01)·sqrt(statistic)``, positive when A is
            better; one-sided p-values are its normal tails.
        t : float
            The factor ``2m / (1 + rho1 + 2(m - 1)·rho2)``.
        rho1, rho2 : float
            The correlations used.
        mean_table : ndarray of shape (2, 2)
            The mean of the 2m tables (eq. 6).
        effective_table : ndarray of shape (2, 2)
            ``t * mean_table`` (eq. 11).
        effective_size : float
            The effective validation set size, the sum of
            ``effective_table`` (eq. 12).
        alternative, alpha, test : the inputs and ``"bcv_mcnemar"``.

    See Also
    --------
    mcnemar : McNemar's test on one hold-out split.
    kfold_mcnemar : The naïve sum over K folds (not recommended).

    Notes
    -----
    The test is derived for **block-regularized** m×2 splits, where every
    training set has n/2 records and any two training sets of different
    repetitions share n/4; on a plain (random) m×2 CV the correlations the
    effective table relies on are not those assumed. The ``2m`` tables are
    averaged into ``nbar`` and compressed into one effective table
    :math:`C_e = t \\bar{C}` with

    .. math:: t = \\frac{2m}{1 + \\rho_1 + 2(m - 1)\\rho_2},

    which matches the variance of the averaged disagreement rate (eq. 8,
    11). McNemar's corrected statistic on :math:`C_e` (eq. 13-14) is

    .. math:: M^{BCV}_t = \\frac{t \\max(|\\bar n_{01} - \\bar n_{10}| - 1/t,
              0)^2}{\\bar n_{01} + \\bar n_{10}} \\sim \\chi^2(1).

    For m = 5, :math:`t = 10 / (1 + \\rho_1 + 8\\rho_2)` (eq. 14) and the
    defaults :math:`\\rho_1 = \\rho_2 = 1/2` give ``t = 20/11`` and the
    paper's test (eq. 15),

    .. math:: M^{BCV} = \\frac{20(|\\bar n_{01} - \\bar n_{10}| -
              11/20)^2}{11(\\bar n_{01} + \\bar n_{10})}.

    Yang et al. state the method for m = 5; the same derivation with 2m
    tables gives the general ``t`` above (an extension). Smaller ``rho``
    means a larger ``t`` and a more liberal test. Degenerate input: when
    ``nbar01 + nbar10 = 0`` the statistic is 0 and the p-value 1 for every
    alternative.

    References
    ----------
    .. [1] J. Yang, R. Wang, Y. Song and J. Li, "Block-regularized 5×2
       cross-validated McNemar's test for comparing two classification
       algorithms", section 4, eq. 6-15.

    Examples
    --------
    Ten tables of a 5×2 BCV on 200 records (100 test records per split):

    >>> import numpy as np
    >>> from sklearn_bcv.stats import bcv_mcnemar
    >>> n01 = np.array([3, 4, 2, 5, 3, 4, 3, 2, 4, 3])
    >>> n10 = np.array([8, 7, 9, 6, 8, 9, 7, 8, 6, 9])
    >>> tables = np.array([[[10, a], [b, 90 - a - b]] for a, b in zip(n01, n10)])
    >>> result = bcv_mcnemar(tables)
    >>> round(result.t, 4)
    1.8182
    >>> result.mean_table.round(2).tolist()
    [[10.0, 3.3], [7.7, 79.0]]
    >>> round(result.statistic, 3), round(result.pvalue, 4)
    (2.45, 0.1175)
    >>> round(result.effective_size, 1)
    181.8
    """
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test="bcv_mcnemar")
    tables = check_tables(tables)
    n_splits = tables.shape[-3]
    if n_splits % 2:
        raise ValueError(
            "bcv_mcnemar needs the tables of an m×2 (BCV) design: 2m splits, "
            "m >= 1, in the order fold 0, fold 1 of each repetition; got "
            f"{n_splits} tables."
        )
    rho1, rho2 = _check_rhos(rho1, rho2, n_splits // 2)
    t = _effective_factor(n_splits // 2, rho1, rho2)
    mean_table = tables.mean(axis=-3)
    nbar01, nbar10 = mean_table[..., 0, 1], mean_table[..., 1, 0]
    numerator = t * np.maximum(np.abs(nbar01 - nbar10) - 1.0 / t, 0.0) ** 2
    statistic = safe_divide(numerator, nbar01 + nbar10)
    z = _signed_root(statistic, nbar01, nbar10)
    pvalue = _chi2_pvalue(statistic, z, nbar01, nbar10, alternative)
    effective_table = t * mean_table
    return make_result(
        test="bcv_mcnemar",
        statistic=statistic,
        pvalue=pvalue,
        df=1,
        alpha=alpha,
        alternative=alternative,
        z=z,
        t=t,
        rho1=rho1,
        rho2=rho2,
        mean_table=mean_table,
        effective_table=effective_table,
        effective_size=effective_table.sum(axis=(-2, -1)),
    )
