"""Parametric tests across data sets: the normal path of ``tests="auto"``.

Repeated-measures ANOVA of k estimators over N data sets (the data sets
are the subjects), Tukey's HSD on its error term, and the paired t test of
two estimators across data sets. They assume normal scores with equal
variances; ``compare_scores(tests="auto")`` runs them only when the
Shapiro–Wilk and Bartlett tests do not reject that (see the user
guide's formulas, "The automatic path").
"""

import numpy as np
from scipy import stats

from ._across_utils import (
    _check_control,
    family_pairs,
)
from ._pairwise_across import _merged_differences
from ._ranks import check_score_table
from ._references import DEMSAR_2006, TUKEY_1949
from ._registry import register_test
from ._ties import (
    difference_tolerance,
    merge_magnitudes,
    tie_tolerance,
    value_tolerance,
)
from ._ttests import _mean_and_sum_of_squares
from ._utils import (
    check_alpha,
    check_alternative,
    f_sf,
    make_result,
    power_of_two_scale,
    safe_divide,
    t_pvalue,
    unscale,
)

_TWO_SIDED = ("two-sided",)


def _anova_terms(scores):
    """``(scaled scores, exponent, SS_treat, SS_err, df_treat, df_err, column
    means)`` of the RM ANOVA, on the table divided by a power of two (the F
    and q statistics are scale invariant; nothing overflows)."""
    scores = check_score_table(scores)
    n, k = scores.shape
    scaled, exponent = power_of_two_scale(scores.ravel())
    scaled = scaled.reshape(n, k)
    # The tie rule (._ties): deviations and residuals of rounding errors
    # only are 0, equal ones equal, so an exactly additive table has no
    # error and equal means no treatment effect, whatever the units.
    tolerance = tie_tolerance(scaled)
    grand = scaled.mean()
    col = merge_magnitudes(scaled.mean(axis=0) - grand, tolerance)
    row = merge_magnitudes(scaled.mean(axis=1) - grand, tolerance)
    ss_treat = n * np.sum(col**2)
    # SS_err from the residuals directly: no cancellation of large sums.
    resid = merge_magnitudes(scaled - col[None, :] - row[:, None] - grand, tolerance)
    ss_err = float(np.sum(resid**2))
    return (
        scaled,
        int(exponent),
        float(ss_treat),
        ss_err,
        k - 1,
        (k - 1) * (n - 1),
        grand + col,
    )


@register_test(
    "rm_anova",
    needs="scores",
    kind="datasets",
    alternatives=_TWO_SIDED,
    role="omnibus",
    display_name="repeated-measures ANOVA",
    rationale="the parametric test of k estimators across data sets, chosen "
    "when every estimator's scores look normal with equal variances",
    statistic_label="F",
    references=(DEMSAR_2006,),
)
def rm_anova(scores, *, alpha=0.05, alternative="two-sided"):
    """Repeated-measures ANOVA of k estimators across data sets.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, k)
        One score per data set (row, the subject) and estimator (column);
        at least 2 data sets and 2 estimators, finite.
    alpha : float, default=0.05
        Significance level of ``reject``.
    alternative : {"two-sided"}, default="two-sided"
        The null hypothesis is equal mean scores; one-sided alternatives
        raise a ``ValueError``.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        statistic : float
            ``F = (SS_treat / (k - 1)) / (SS_err / ((k - 1)(N - 1)))``.
        pvalue : float
            ``F(k - 1, (k - 1)(N - 1)).sf(F)``.
        df : tuple of int
            ``(k - 1, (k - 1)(N - 1))``.
        reject : bool
        ms_error : float
            ``SS_err / ((k - 1)(N - 1))``, in the units of ``scores²``, the
            error term of :func:`tukey_rm`.
        n_datasets : int
        alternative, alpha, test : the inputs and ``"rm_anova"``.

    See Also
    --------
    tukey_rm : Its post hoc test of all pairs.
    friedman : The rank-based alternative.

    Notes
    -----
    With ``m_j`` the mean of estimator j, ``r_i`` that of data set i and
    ``m`` the grand mean, ``SS_treat = N Σ_j (m_j − m)²``, ``SS_subj = k Σ_i
    (r_i − m)²`` and ``SS_err = SS_total − SS_treat − SS_subj`` (as
    statsmodels' ``AnovaRM``). A table without error (every data set shifts
    all estimators alike) has ``F = inf`` and p-value 0 when the means
    differ, ``F = 0`` and p-value 1 when they do not.

    Examples
    --------
    >>> from sklearn_bcv.stats import rm_anova
    >>> scores = [[0.8, 0.7, 0.6], [0.9, 0.7, 0.7], [0.7, 0.6, 0.4]]
    >>> result = rm_anova(scores)
    >>> round(result.statistic, 3), result.df  # (0.0822 / 2) / (0.0111 / 4)
    (14.8, (2, 4))
    >>> round(result.pvalue, 4)
    0.0142
    """
    test = "rm_anova"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test, allowed=_TWO_SIDED)
    scaled, exponent, ss_treat, ss_err, df1, df2, _ = _anova_terms(scores)
    statistic = float(safe_divide(ss_treat / df1, ss_err / df2))
    if ss_treat == 0:
        pvalue = 1.0
    elif ss_err == 0:
        pvalue = 0.0
    else:
        pvalue = float(f_sf(statistic, df1, df2))
    ms_error = float(unscale(unscale(ss_err / df2, exponent), exponent))
    return make_result(
        test=test,
        statistic=statistic,
        pvalue=pvalue,
        df=(df1, df2),
        alpha=alpha,
        alternative=alternative,
        ms_error=ms_error,
        n_datasets=scaled.shape[0],
    )


@register_test(
    "tukey_rm",
    needs="scores",
    kind="datasets",
    alternatives=_TWO_SIDED,
    role="posthoc",
    omnibus="rm_anova",
    display_name="Tukey's HSD test on the repeated-measures error term",
    rationale="all pairs by their mean scores, with the family-wise error "
    "controlled, on the repeated-measures ANOVA's error term",
    compares="scores",
    references=(TUKEY_1949,),
)
def tukey_rm(scores, *, alpha=0.05, alternative="two-sided", control=None):
    """Tukey's HSD of all pairs on the repeated-measures error term.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, k)
        One score per data set (row) and estimator (column); at least 2
        data sets and 2 estimators, finite.
    alpha : float, default=0.05
        Family-wise significance level of ``reject``.
    alternative : {"two-sided"}, default="two-sided"
    control : int, default=None
        Column of a control: only the k − 1 pairs with it are tested (with
        the all-pairs studentized range, which is then conservative).

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        statistic : ndarray of shape (k, k)
            ``q[a, b] = (m_a − m_b) / sqrt(MS_err / N)``, positive when A
            has the higher mean (0 outside the family).
        pvalue, pvalue_adjusted : ndarray of shape (k, k)
            ``studentized_range.sf(|q|, k, (k − 1)(N − 1))``, already
            family-wise (the two are equal).
        reject, tested : ndarray of shape (k, k), bool
        df : int
            ``(k − 1)(N − 1)``.
        mean_scores : ndarray of shape (k,)
        alternative, alpha, control, test : the inputs and ``"tukey_rm"``.

    See Also
    --------
    rm_anova : The omnibus test it follows up.

    Notes
    -----
    Unlike autorank, which runs a one-way Tukey HSD that ignores the
    pairing, the error term is that of the repeated-measures ANOVA, so the
    differences between data sets do not inflate it.

    Examples
    --------
    >>> from sklearn_bcv.stats import tukey_rm
    >>> scores = [[0.8, 0.7, 0.6], [0.9, 0.7, 0.7], [0.7, 0.6, 0.4]]
    >>> result = tukey_rm(scores)
    >>> result.statistic[0].round(3).tolist()  # (m_0 - m_j) / sqrt(0.00278 / 3)
    [0.0, 4.382, 7.668]
    >>> result.reject[0].tolist()
    [False, False, True]
    """
    test = "tukey_rm"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test, allowed=_TWO_SIDED)
    scaled, exponent, _, ss_err, _, df_err, means = _anova_terms(scores)
    n, k = scaled.shape
    control = _check_control(control, k)
    pairs = family_pairs(k, control)
    se = np.sqrt(ss_err / df_err / n)
    gap = means[pairs[0]] - means[pairs[1]]
    q = safe_divide(gap, se)
    absq = np.abs(q)
    with np.errstate(all="ignore"):
        p = np.where(
            absq == 0,
            1.0,
            np.where(
                np.isinf(absq),
                0.0,
                stats.studentized_range.sf(np.minimum(absq, 1e300), k, df_err),
            ),
        )
    p = np.clip(np.nan_to_num(p, nan=0.0), 0.0, 1.0)
    statistic = np.zeros((k, k))
    pvalue = np.ones((k, k))
    tested = np.zeros((k, k), dtype=bool)
    statistic[pairs] = q
    statistic[pairs[::-1]] = -q
    pvalue[pairs] = p
    pvalue[pairs[::-1]] = p
    tested[pairs] = tested[pairs[::-1]] = True
    return make_result(
        test=test,
        statistic=statistic,
        pvalue=pvalue,
        df=df_err,
        alpha=alpha,
        alternative=alternative,
        reject=(pvalue < alpha) & tested,
        pvalue_adjusted=pvalue.copy(),
        tested=tested,
        control=control,
        mean_scores=unscale(means, exponent),
    )


@register_test(
    "paired_t_datasets",
    needs="dataset_differences",
    kind="datasets",
    role="pairwise",
    by_default=False,
    display_name="paired t test across data sets",
    rationale="a pair on its paired scores across data sets, chosen when "
    "both look normal",
    swap="negate",
    references=(DEMSAR_2006,),
)
def paired_t_datasets(
    dataset_differences, *, alpha=0.05, alternative="two-sided", score_scale=None
):
    """Paired t test of two estimators across data sets.

    Parameters
    ----------
    dataset_differences : array-like of shape (n_datasets,)
        ``score_a - score_b`` on each data set; at least 2, finite.
    alpha : float, default=0.05
        Significance level of ``reject``.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: A is better.
    score_scale : float, default=None
        The largest magnitude of the scores the differences come from:
        differences within ``2**-46`` times it of each other are equal
        (the tie rule of :func:`wilcoxon`), so differences equal in your
        decimals have zero variance whatever the units. None takes the
        largest ``|difference|``.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        statistic : float
            ``t = mean(d) / (sd(d) / sqrt(N))`` (as
            :func:`scipy.stats.ttest_rel`); 0 when every difference is 0,
            ``±inf`` when they are equal and not 0.
        pvalue : float
        df : int
            ``N − 1``.
        reject : bool
        mean_difference : float
        alternative, alpha, test : the inputs and ``"paired_t_datasets"``.

    See Also
    --------
    wilcoxon : The rank-based alternative.

    Examples
    --------
    >>> from sklearn_bcv.stats import paired_t_datasets
    >>> result = paired_t_datasets([0.02, 0.05, 0.01, 0.04])
    >>> round(result.statistic, 4), result.df, round(result.pvalue, 4)
    (3.2863, 3, 0.0462)
    """
    test = "paired_t_datasets"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test)
    d = _merged_differences(dataset_differences, test, score_scale)
    scaled, exponent = power_of_two_scale(d)
    n = scaled.size
    mean, sum_of_squares = _mean_and_sum_of_squares(scaled)
    # A mean within the tie rule's width of 0 is 0: differences that cancel
    # in the user's decimals (0.01 - 0.02 + 0.01) leave rounding residues
    # that change with the units, and so would t.
    width = np.max(difference_tolerance(d, score_scale), initial=0.0)
    cancels = abs(mean) <= unscale(width, -int(exponent))
    mean = 0.0 if cancels else mean
    sd = np.sqrt(sum_of_squares / (n - 1))
    statistic = float(safe_divide(mean * np.sqrt(n), sd))
    undefined = bool(mean == 0 and sd == 0)
    pvalue = t_pvalue(statistic, n - 1, alternative, undefined=undefined)
    return make_result(
        test=test,
        statistic=statistic,
        pvalue=pvalue,
        df=n - 1,
        alpha=alpha,
        alternative=alternative,
        mean_difference=0.0 if cancels else float(d.mean()),
    )


def _constant(column, tolerance):
    """Whether ``column`` is constant: its scores all equal by the tie rule
    (``tolerance``, each score's own)."""
    spread = np.ptp(column)
    return spread == 0 or spread <= np.max(tolerance)


def _shapiro(column, tolerance):
    """``(statistic, pvalue, note)`` of Shapiro–Wilk; None where undefined."""
    if column.size < 3:
        return None, None, "fewer than 3 data sets"
    if _constant(column, tolerance):
        return None, None, "constant scores"
    with np.errstate(all="ignore"):
        res = stats.shapiro(column)
    return float(res.statistic), float(res.pvalue), None


def auto_path(scores, names, *, alpha=0.05, control=None, cell_tolerance=None):
    """The decision of ``tests="auto"`` on an (N, k) higher-is-better table.

    Returns a Bunch: ``path`` ("paired_t", "wilcoxon", "rm_anova" or
    "friedman"), ``reason`` (a sentence), ``normality`` (one Bunch per
    estimator in ``names`` order: ``estimator``, ``statistic``, ``pvalue``,
    ``normal``, ``note``), ``normality_level`` (alpha / k), ``variance``
    (Bunch ``test``, ``statistic``, ``pvalue``, ``equal``, or None when it
    cannot run), ``effect_size_kind``, and ``tests`` / ``pairwise_tests``:
    the registered tests the path runs.

    Shapiro–Wilk is undefined on fewer than 3 data sets or a constant
    column: that column is then not taken as normal (the rank-based path,
    which needs no such assumption). A column is constant when its scores
    are equal by the tie rule: ``cell_tolerance`` (N, k), each score's
    (from the per-split scores of a mean); None, each at its own precision.
    """
    scores = check_score_table(scores)
    n, k = scores.shape
    level = alpha / k
    if cell_tolerance is None:
        cell_tolerance = value_tolerance(scores)
    cells = [cell_tolerance[:, j] for j in range(k)]
    normality = []
    for j, name in enumerate(names):
        statistic, pvalue, note = _shapiro(scores[:, j], cells[j])
        normality.append(
            {
                "estimator": name,
                "statistic": statistic,
                "pvalue": pvalue,
                "normal": bool(pvalue is not None and pvalue >= level),
                "note": note,
            }
        )
    all_normal = all(row["normal"] for row in normality)
    variance = None
    columns = [scores[:, j] for j in range(k)]
    if n >= 2 and not all(_constant(c, t) for c, t in zip(columns, cells)):
        test = "bartlett" if all_normal else "levene"
        with np.errstate(all="ignore"):
            res = (
                stats.bartlett(*columns)
                if all_normal
                else stats.levene(*columns, center="median")
            )
        statistic, pvalue = float(res.statistic), float(res.pvalue)
        if np.isfinite(statistic) and np.isfinite(pvalue):
            variance = {
                "test": test,
                "statistic": statistic,
                "pvalue": pvalue,
                "equal": bool(pvalue >= alpha),
            }
    not_normal = [row["estimator"] for row in normality if not row["normal"]]
    why_not = (
        f"Shapiro-Wilk at alpha/k = {level:.3g} rejects normality of (or cannot "
        f"test) {', '.join(not_normal)}"
    )
    if k == 2:
        if all_normal:
            path, tests, pairwise = "paired_t", [], ["paired_t_datasets"]
            reason = (
                f"Both estimators' scores pass Shapiro-Wilk at alpha/k = "
                f"{level:.3g}: paired t test."
            )
        else:
            path, tests, pairwise = "wilcoxon", [], ["wilcoxon"]
            reason = f"{why_not}: Wilcoxon signed-rank test."
    elif all_normal and variance is not None and variance["equal"]:
        path, tests, pairwise = "rm_anova", ["rm_anova", "tukey_rm"], []
        reason = (
            f"Every estimator's scores pass Shapiro-Wilk at alpha/k = {level:.3g} "
            f"and Bartlett's test finds no unequal variances (p = "
            f"{variance['pvalue']:.3g}): repeated-measures ANOVA with Tukey's HSD "
            "on its error term."
        )
    else:
        # With a control, the exact rank-sum family: Bonferroni-Dunn's normal
        # approximation exceeds alpha with two estimators (0.0625 on 5 data
        # sets, 0.070 on 8; doc/reproduction.rst).
        posthoc = "nemenyi" if control is None else "exact_posthoc"
        path, tests, pairwise = "friedman", ["friedman", posthoc], []
        if all_normal:
            reason = (
                "Every estimator's scores pass Shapiro-Wilk, but Bartlett's test "
                "finds unequal variances"
                + (
                    f" (p = {variance['pvalue']:.3g})"
                    if variance is not None
                    else " (or cannot test them)"
                )
                + f": Friedman test with {posthoc}."
            )
        else:
            reason = f"{why_not}: Friedman test with {posthoc}."
    parametric = path in ("paired_t", "rm_anova")
    return {
        "path": path,
        "reason": reason,
        "normality": normality,
        "normality_level": level,
        "variance": variance,
        "effect_size_kind": "cohen_d" if parametric else "akinshin_gamma",
        "tests": tests,
        "pairwise_tests": pairwise,
    }
