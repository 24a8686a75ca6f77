"""The aligned-ranks and Quade families across data sets.

Two omnibus tests more powerful than Friedman's when the data sets differ
in difficulty (García, Fernández, Luengo and Herrera 2010): Hodges and
Lehmann's Friedman aligned ranks, which ranks all N·k scores together once
each data set's mean is removed, and Quade's test, which weights each data
set's ranks by the rank of its range. Each comes with its post hoc family
(all pairs or against a control), adjusted by any correction of
:func:`~sklearn_bcv.stats.adjust_pvalues`.
"""

import numpy as np
from scipy import special

from ._across_utils import (
    _TWO_SIDED,
    _check_control,
    check_posthoc_params,
    family_pairs,
    posthoc_family,
)
from ._ranks import check_score_table
from ._references import CONOVER_1999, GARCIA_2010, HODGES_1962, QUADE_1979
from ._registry import register_test
from ._ties import row_tolerance, tied_ranks, value_tolerance
from ._utils import (
    check_alpha,
    check_alternative,
    chi2_sf,
    f_sf,
    make_result,
    power_of_two_scale,
    safe_divide,
    t_pvalue,
    undefined_ratio,
)

__all__ = ["aligned_posthoc", "friedman_aligned", "quade", "quade_posthoc"]


def _checked(scores, alpha, alternative, test):
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test, allowed=_TWO_SIDED)
    return check_score_table(scores), alpha, alternative


# --------------------------------------------------------------------------
# Friedman aligned ranks (Hodges & Lehmann 1962)
# --------------------------------------------------------------------------


def aligned_ranks(scores):
    """Ranks of the aligned scores, all N·k together: 1 = the largest
    ``x_ij - mean_j' x_ij'``, ties averaged. Shape (n_datasets, k).

    Aligned values equal in the user's decimals tie (the tie rule of
    :mod:`._ties`, relative to their data set's largest ``|score|``): their
    rounding differs with the units and the order of the columns.
    """
    scores, _ = power_of_two_scale(scores, axis=None)
    aligned = scores - scores.mean(axis=1, keepdims=True)
    return tied_ranks(-aligned, row_tolerance(scores))


@register_test(
    "friedman_aligned",
    needs="scores",
    kind="datasets",
    alternatives=_TWO_SIDED,
    role="omnibus",
    display_name="Friedman aligned-ranks test",
    rationale="aligned ranks compare scores across data sets as well as within them",
    statistic_label="chi2",
    references=(HODGES_1962, GARCIA_2010),
)
def friedman_aligned(scores, *, alpha=0.05, alternative="two-sided"):
    """Friedman aligned-ranks test of k estimators across data sets.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, k)
        One score per data set (row) and estimator (column), higher is
        better; at least 2 data sets and 2 estimators, finite.
    alpha : float, default=0.05
        Significance level of ``reject``.
    alternative : {"two-sided"}, default="two-sided"
        One-sided alternatives raise a ``ValueError``.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            Hodges and Lehmann's T (see Notes).
        pvalue : float
            ``chi2.sf(T, k - 1)``.
        df : int
            ``k - 1``.
        reject : bool
            ``pvalue < alpha``.
        ranks : ndarray of shape (n_datasets, k)
            The aligned ranks, 1 = the best aligned score of all N·k.
        mean_ranks : ndarray of shape (k,)
            The mean aligned rank of each estimator (between 1 and N·k).
        n_datasets : int
        alternative, alpha, test : the inputs and ``"friedman_aligned"``.

    See Also
    --------
    aligned_posthoc : Its post hoc family.
    friedman, quade : The other omnibus tests.

    Notes
    -----
    Each data set's mean score is subtracted from its scores (the
    alignment, which removes the data sets' difficulty) and the N·k aligned
    values are ranked together. With ``R_j`` the rank total of estimator j
    and ``R_i`` of data set i (García et al. 2010, after Hodges and Lehmann
    1962),

    .. math:: T = \\frac{(k - 1) \\big[\\sum_j R_j^2 - (kN^2/4)(kN + 1)^2
              \\big]}{\\sum_{ij} r_{ij}^2 - (1/k) \\sum_i R_i^2},

    referred to chi-squared(k − 1). Without ties ``sum_ij r_ij²`` is
    ``kN(kN + 1)(2kN + 1)/6``, the published denominator; with ties the sum
    of the squared average ranks is used, which keeps T the statistic of
    the permutation distribution within data sets. When every data set
    scores its estimators alike (all aligned values 0), T is 0/0: 0 with
    p-value 1.

    Aligned values equal in your decimals tie: computed in floating point
    they differ in their last bits, and differently in percents or another
    column order, so values within ``2**-46`` times their data set's largest
    ``|score|`` of each other are one tie (the tie rule of
    :func:`wilcoxon`; the statistic is then the same in any units and
    order).

    References
    ----------
    .. [1] J. L. Hodges, E. L. Lehmann, "Rank methods for combination of
       independent experiments in analysis of variance", Annals of
       Mathematical Statistics 33:482-497, 1962.
    .. [2] S. García, A. Fernández, J. Luengo, F. Herrera, "Advanced
       nonparametric tests for multiple comparisons in the design of
       experiments in computational intelligence and data mining:
       experimental analysis of power", Information Sciences
       180:2044-2064, 2010.

    Examples
    --------
    Demšar's Table 6 (see :func:`friedman`):

    >>> import numpy as np
    >>> auc = np.array([
    ...     [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...     [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    ...     [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    ...     [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    ...     [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
    ...     [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    ...     [0.972, 0.981, 0.9751, 0.975], [0.957, 0.978, 0.946, 0.970]])
    >>> from sklearn_bcv.stats import friedman_aligned
    >>> result = friedman_aligned(auc)
    >>> round(result.statistic, 3), result.df, round(result.pvalue, 4)
    (11.559, 3, 0.0091)
    >>> result.mean_ranks.round(2).tolist()
    [38.21, 23.0, 34.75, 18.04]
    """
    test = "friedman_aligned"
    scores, alpha, alternative = _checked(scores, alpha, alternative, test)
    n_datasets, k = scores.shape
    ranks = aligned_ranks(scores)
    by_estimator = ranks.sum(axis=0)
    by_dataset = ranks.sum(axis=1)
    numerator = (k - 1) * (
        np.sum(by_estimator**2) - k * n_datasets**2 / 4.0 * (k * n_datasets + 1) ** 2
    )
    denominator = np.sum(ranks**2) - np.sum(by_dataset**2) / k
    # Round-off of the sums of squares of (half-)integers: they are exact
    # below 2**53, so the differences are too.
    statistic = float(safe_divide(numerator, denominator))
    pvalue = 1.0 if numerator == 0 else float(chi2_sf(statistic, k - 1))
    return make_result(
        test=test,
        statistic=statistic,
        pvalue=pvalue,
        df=k - 1,
        alpha=alpha,
        alternative=alternative,
        ranks=ranks,
        mean_ranks=ranks.mean(axis=0),
        n_datasets=n_datasets,
    )


_STANDARD_ERRORS = ("permutation", "published")


def _check_aligned_params(control=None, correction="holm", standard_error=None):
    check_posthoc_params(control, correction)
    if standard_error not in _STANDARD_ERRORS:
        raise ValueError(
            f"standard_error must be one of {list(_STANDARD_ERRORS)}; got "
            f"{standard_error!r}."
        )


def aligned_standard_error(ranks, standard_error="permutation"):
    """Standard error of a difference of two mean aligned ranks.

    ``"permutation"``: ``sqrt(2·D / (N²(k - 1)))`` with ``D = sum_ij r_ij² -
    (1/k) sum_i R_i²``, the exact variance when each data set's aligned
    ranks are permuted among the estimators (the null hypothesis; D is the
    denominator of :func:`friedman_aligned`). ``"published"``:
    ``sqrt(k(Nk + 1)/6)``, the variance of ranks assigned at random without
    the data sets' blocks, which underestimates it by about k/(k - 1).
    """
    n_datasets, k = ranks.shape
    if standard_error == "published":
        return float(np.sqrt(k * (n_datasets * k + 1) / 6.0))
    within = float(np.sum(ranks**2) - np.sum(ranks.sum(axis=1) ** 2) / k)
    return float(np.sqrt(max(2.0 * within, 0.0) / (n_datasets**2 * (k - 1))))


@register_test(
    "aligned_posthoc",
    needs="scores",
    kind="datasets",
    alternatives=_TWO_SIDED,
    param_check=_check_aligned_params,
    role="posthoc",
    omnibus="friedman_aligned",
    diagram="groups",
    display_name="post hoc z test on aligned mean ranks",
    rationale="each pair (or each estimator against the control) by the aligned "
    "mean ranks, with a multiplicity correction",
    references=(HODGES_1962, GARCIA_2010),
)
def aligned_posthoc(
    scores,
    *,
    alpha=0.05,
    alternative="two-sided",
    control=None,
    correction="holm",
    standard_error="permutation",
):
    """Post hoc family of z tests on the Friedman aligned mean ranks.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, k)
        One score per data set (row) and estimator (column), higher is
        better; at least 2 data sets and 2 estimators, finite.
    alpha : float, default=0.05
        Family-wise significance level of ``reject``.
    alternative : {"two-sided"}, default="two-sided"
        One-sided alternatives raise a ``ValueError``.
    control : int, default=None
        Column of the control estimator (the family is its k - 1
        comparisons); None compares all pairs.
    correction : str, default="holm"
        The correction of the family (see
        :func:`~sklearn_bcv.stats.adjust_pvalues`); ``"shaffer"`` and
        ``"bergmann"`` for all pairs only.
    standard_error : {"permutation", "published"}, default="permutation"
        The standard error of a difference of mean aligned ranks (see
        Notes). ``"published"`` reproduces scmamp and the corrected García
        et al. (2010), whose family-wise error exceeds alpha.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        As :func:`friedman_posthoc`: (k, k) ``statistic`` (positive when A
        has the better, lower, aligned mean rank), ``pvalue``,
        ``pvalue_adjusted``, ``reject``, ``tested``, and ``control``,
        ``correction``, ``n_comparisons``, ``mean_ranks`` (the aligned
        ones), ``std_error``, ``standard_error``, ``test``
        ``"aligned_posthoc"``.

    See Also
    --------
    friedman_aligned : The omnibus test.

    Notes
    -----
    ``z[a, b] = (R_b - R_a) / se`` with R the mean aligned ranks, two-sided
    normal p-values. Under the null hypothesis each data set's k aligned
    ranks are equally likely in any order among the estimators, so the
    variance of a difference of mean ranks is exactly

    .. math:: \\operatorname{se}^2 = \\frac{2}{N^2 (k - 1)} \\Big(\\sum_{ij}
              r_{ij}^2 - \\frac{1}{k} \\sum_i R_i^2\\Big),

    the denominator of :func:`friedman_aligned` (``standard_error=
    "permutation"``). García et al. (2010) printed a standard error that
    does not grow with N (scmamp issue #6; Santafé, Inza and Lozano 2015);
    the corrected ``sqrt(k(Nk + 1)/6)`` of scmamp
    (``standard_error="published"``) is the variance of N·k ranks assigned
    at random, ignoring that each data set holds one rank per estimator,
    and underestimates it by a factor of about k/(k - 1): on null tables its
    family-wise error is 0.11 at k = 3 and 0.07 at k = 6 for alpha = 0.05,
    against at most 0.05 with the permutation standard error
    (``doc/reproduction.rst``).

    Examples
    --------
    Demšar's Table 6 (see :func:`friedman`), every estimator against C4.5:

    >>> import numpy as np
    >>> auc = np.array([
    ...     [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...     [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    ...     [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    ...     [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    ...     [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
    ...     [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    ...     [0.972, 0.981, 0.9751, 0.975], [0.957, 0.978, 0.946, 0.970]])
    >>> from sklearn_bcv.stats import aligned_posthoc
    >>> result = aligned_posthoc(auc, control=0, correction="finner")
    >>> result.statistic[:, 0].round(3).tolist()
    [0.0, 2.213, 0.504, 2.935]
    >>> result.pvalue_adjusted[:, 0].round(4).tolist()
    [1.0, 0.0401, 0.6143, 0.01]
    >>> result.reject[:, 0].tolist()
    [False, True, False, True]

    scmamp's standard error gives larger statistics:

    >>> published = aligned_posthoc(auc, control=0, standard_error="published")
    >>> published.statistic[:, 0].round(3).tolist()
    [0.0, 2.468, 0.562, 3.273]
    """
    test = "aligned_posthoc"
    scores, alpha, alternative = _checked(scores, alpha, alternative, test)
    n_datasets, k = scores.shape
    control = _check_control(control, k)
    _check_aligned_params(control, correction, standard_error)
    ranks = aligned_ranks(scores)
    mean_ranks = ranks.mean(axis=0)
    pairs = family_pairs(k, control)
    se = aligned_standard_error(ranks, standard_error)
    difference = mean_ranks[pairs[1]] - mean_ranks[pairs[0]]
    # se = 0 only when every aligned value ties (all differences 0): 0/0.
    z = safe_divide(difference, np.full(difference.shape, se))
    p = np.where(
        undefined_ratio(difference, se),
        1.0,
        np.minimum(1.0, 2.0 * special.ndtr(-np.abs(z))),
    )
    return posthoc_family(
        test=test,
        statistic=z,
        pvalue=p,
        pairs=pairs,
        k=k,
        control=control,
        correction=correction,
        alpha=alpha,
        alternative=alternative,
        mean_ranks=mean_ranks,
        std_error=se,
        standard_error=standard_error,
    )


# --------------------------------------------------------------------------
# Quade (1979; Conover 1999 §5.8)
# --------------------------------------------------------------------------


def _quade_terms(scores):
    """``(S_j, A, B)`` of Quade's test; ``S_j`` larger is better."""
    n_datasets, k = scores.shape
    scores, _ = power_of_two_scale(scores, axis=None)
    # Ranges equal in the user's decimals tie, each by its own data set's
    # magnitude; the scores themselves at their own precision, as ranked
    # everywhere (rank_scores).
    weights = tied_ranks(np.ptp(scores, axis=1), row_tolerance(scores)[:, 0])
    within = tied_ranks(scores, value_tolerance(scores), axis=1)  # 1 = worst
    s = weights[:, None] * (within - (k + 1) / 2.0)
    totals = s.sum(axis=0)
    return totals, float(np.sum(s**2)), float(np.sum(totals**2) / n_datasets)


@register_test(
    "quade",
    needs="scores",
    kind="datasets",
    alternatives=_TWO_SIDED,
    role="omnibus",
    display_name="Quade test",
    rationale="Quade's test weights each data set by the range of its scores",
    references=(QUADE_1979, GARCIA_2010),
)
def quade(scores, *, alpha=0.05, alternative="two-sided"):
    """Quade's test of k estimators across data sets.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, k)
        One score per data set (row) and estimator (column), higher is
        better; at least 2 data sets and 2 estimators, finite.
    alpha : float, default=0.05
        Significance level of ``reject``.
    alternative : {"two-sided"}, default="two-sided"
        One-sided alternatives raise a ``ValueError``.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            Quade's F (see Notes).
        pvalue : float
            ``f.sf(F, k - 1, (N - 1)(k - 1))``.
        df : tuple of int
            ``(k - 1, (N - 1)(k - 1))``.
        reject : bool
            ``pvalue < alpha``.
        weighted_ranks : ndarray of shape (k,)
            Quade's ``S_j``, larger is better.
        n_datasets : int
        alternative, alpha, test : the inputs and ``"quade"``.

    See Also
    --------
    quade_posthoc : Its post hoc family.
    friedman, friedman_aligned : The other omnibus tests.

    Notes
    -----
    ``Q_i`` is the rank of data set i's range ``max_j x_ij - min_j x_ij``
    among the N ranges, ``r_ij`` the rank of estimator j on data set i
    (1 = worst; ties averaged), ``S_ij = Q_i·(r_ij - (k + 1)/2)``,
    ``S_j = sum_i S_ij``, ``A = sum_ij S_ij²``, ``B = sum_j S_j² / N`` and

    .. math:: F = \\frac{(N - 1) B}{A - B},

    referred to F(k − 1, (N − 1)(k − 1)) (Quade 1979; Conover 1999, §5.8).
    A = B happens when every data set ranks the estimators alike and all
    the ranges tie: F is then infinite and the p-value 0 (or, when every
    data set ties them all, 0/0: F = 0 and p-value 1).

    Ranges (and scores) equal in your decimals tie: ranges within
    ``2**-46`` times the larger of their data sets' largest ``|score|`` are
    one tie (the tie rule of :func:`wilcoxon`), so F is the same in
    fractions, percents or any column order.

    References
    ----------
    .. [1] D. Quade, "Using weighted rankings in the analysis of complete
       blocks with additive block effects", Journal of the American
       Statistical Association 74:680-683, 1979.
    .. [2] W. J. Conover, "Practical nonparametric statistics", 3rd ed.,
       Wiley, 1999.

    Examples
    --------
    Conover's example (also R's ``quade.test``): sales of five brands of
    hand lotion in seven stores; ``F = 3.8293`` on (4, 24) degrees of
    freedom.

    >>> from sklearn_bcv.stats import quade
    >>> sales = [[5, 4, 7, 10, 12], [1, 3, 1, 0, 2], [16, 12, 22, 22, 35],
    ...          [5, 4, 3, 5, 4], [10, 9, 7, 13, 10], [19, 18, 28, 37, 58],
    ...          [10, 7, 6, 8, 7]]
    >>> result = quade(sales)
    >>> round(result.statistic, 4), result.df, round(result.pvalue, 5)
    (3.8293, (4, 24), 0.01519)
    """
    test = "quade"
    scores, alpha, alternative = _checked(scores, alpha, alternative, test)
    n_datasets, k = scores.shape
    totals, a, b = _quade_terms(scores)
    df = (k - 1, (n_datasets - 1) * (k - 1))
    spread = a - b
    statistic = float(safe_divide((n_datasets - 1) * b, spread))
    if b == 0:
        pvalue = 1.0
    elif spread <= 0:  # every data set ranks the estimators alike
        statistic, pvalue = np.inf, 0.0
    else:
        pvalue = float(f_sf(statistic, *df))
    return make_result(
        test=test,
        statistic=statistic,
        pvalue=pvalue,
        df=df,
        alpha=alpha,
        alternative=alternative,
        weighted_ranks=totals,
        n_datasets=n_datasets,
    )


@register_test(
    "quade_posthoc",
    needs="scores",
    kind="datasets",
    alternatives=_TWO_SIDED,
    param_check=check_posthoc_params,
    role="posthoc",
    omnibus="quade",
    diagram="groups",
    display_name="Conover's post hoc t test on Quade's statistics",
    rationale="each pair (or each estimator against the control) by Quade's "
    "weighted rank sums, with a multiplicity correction",
    references=(QUADE_1979, CONOVER_1999),
)
def quade_posthoc(
    scores, *, alpha=0.05, alternative="two-sided", control=None, correction="holm"
):
    """Post hoc family of Conover's t tests on Quade's weighted ranks.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, k)
        One score per data set (row) and estimator (column), higher is
        better; at least 2 data sets and 2 estimators, finite.
    alpha : float, default=0.05
        Family-wise significance level of ``reject``.
    alternative : {"two-sided"}, default="two-sided"
        One-sided alternatives raise a ``ValueError``.
    control : int, default=None
        Column of the control estimator (the family is its k - 1
        comparisons); None compares all pairs.
    correction : str, default="holm"
        The correction of the family (see
        :func:`~sklearn_bcv.stats.adjust_pvalues`); ``"shaffer"`` and
        ``"bergmann"`` for all pairs only.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        As :func:`friedman_posthoc`: (k, k) ``statistic`` (Conover's t,
        positive when A is better), ``pvalue``, ``pvalue_adjusted``,
        ``reject``, ``tested``, ``df`` ``(N - 1)(k - 1)``, and ``control``,
        ``correction``, ``n_comparisons``, ``weighted_ranks`` (Quade's
        ``S_j``), ``test`` ``"quade_posthoc"``.

    See Also
    --------
    quade : The omnibus test.

    Notes
    -----
    ``t[a, b] = (S_a - S_b) / sqrt(2N(A - B) / ((N - 1)(k - 1)))`` with
    ``(N - 1)(k - 1)`` degrees of freedom, two-sided (Conover 1999, §5.8;
    ``scikit_posthocs.posthoc_quade(..., dist="t")`` computes the same).
    Two normal approximations have been published on Quade's weighted
    ranks (García et al. 2010; scmamp and scikit-posthocs'
    ``dist="normal"``): they are wrong in opposite directions and are not
    offered. With A = B (every data set ranks the estimators alike, the
    ranges tie) the statistics are ±inf with p-value 0 for the pairs whose S differ, and
    0 with p-value 1 for those that tie.

    Examples
    --------
    Conover's lotion sales (see :func:`quade`), all pairs, Holm:

    >>> from sklearn_bcv.stats import quade_posthoc
    >>> sales = [[5, 4, 7, 10, 12], [1, 3, 1, 0, 2], [16, 12, 22, 22, 35],
    ...          [5, 4, 3, 5, 4], [10, 9, 7, 13, 10], [19, 18, 28, 37, 58],
    ...          [10, 7, 6, 8, 7]]
    >>> result = quade_posthoc(sales)
    >>> result.weighted_ranks.tolist()
    [-9.5, -38.0, -14.0, 23.5, 38.0]
    >>> result.pvalue[4].round(4).tolist()  # brand E against each
    [0.0416, 0.0021, 0.0269, 0.5172, 1.0]
    >>> result.reject[4].tolist()
    [False, True, False, False, False]
    """
    test = "quade_posthoc"
    scores, alpha, alternative = _checked(scores, alpha, alternative, test)
    n_datasets, k = scores.shape
    control = _check_control(control, k)
    check_posthoc_params(control, correction)
    totals, a, b = _quade_terms(scores)
    pairs = family_pairs(k, control)
    df = (n_datasets - 1) * (k - 1)
    difference = totals[pairs[0]] - totals[pairs[1]]
    variance = max(2.0 * n_datasets * (a - b) / df, 0.0)
    se = np.full(difference.shape, np.sqrt(variance))
    t = safe_divide(difference, se)
    p = t_pvalue(t, df, "two-sided", undefined=undefined_ratio(difference, se))
    return posthoc_family(
        test=test,
        statistic=t,
        pvalue=np.asarray(p, dtype=np.float64),
        pairs=pairs,
        k=k,
        control=control,
        correction=correction,
        alpha=alpha,
        alternative=alternative,
        df=df,
        weighted_ranks=totals,
    )
