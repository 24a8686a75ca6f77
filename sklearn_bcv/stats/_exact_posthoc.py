"""The exact post hoc test of Friedman's rank sums (Eisinga, Heskes,
Pelzer & Te Grotenhuis 2017): each pair by the exact null law of the
difference of its two rank sums, ties included, as a post hoc family with
any correction."""

from ._across_utils import (
    _TWO_SIDED,
    _check_control,
    _rank_table,
    check_posthoc_params,
    family_pairs,
    posthoc_family,
)
from ._exact_ranks import (
    doubled_ranks,
    rank_difference_law,
    rank_difference_pvalue,
    smallest_difference_pvalue,
)
from ._references import DEMSAR_2006, EISINGA_2017, FRIEDMAN_1937
from ._registry import register_test
from ._utils import check_alpha, check_alternative

__all__ = ["exact_posthoc"]


@register_test(
    "exact_posthoc",
    needs="scores",
    kind="datasets",
    alternatives=_TWO_SIDED,
    param_check=check_posthoc_params,
    role="posthoc",
    omnibus="friedman",
    diagram="groups",
    by_default={"control": 1},
    display_name="exact rank-sum post hoc test",
    rationale="each pair (or each estimator against the control) by the exact "
    "law of the difference of its Friedman rank sums given the ties, with a "
    "multiplicity correction: exact where the normal and studentized-range "
    "approximations are weakest, on few data sets",
    references=(EISINGA_2017, FRIEDMAN_1937, DEMSAR_2006),
)
def exact_posthoc(
    scores, *, alpha=0.05, alternative="two-sided", control=None, correction="holm"
):
    """Exact post hoc test of Friedman's rank sums (Eisinga et al. 2017).

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
        Column of the control estimator: the family is the k - 1
        comparisons of the others with it. None compares all k(k - 1)/2
        pairs.
    correction : str, default="holm"
        The multiplicity correction of the family (see
        :func:`~sklearn_bcv.stats.adjust_pvalues`): ``"bonferroni"``,
        ``"holm"``, ``"hochberg"``, ``"hommel"``, ``"finner"``, ``"li"``,
        ``"holland"``, ``"rom"``, ``"fdr_bh"`` and, for all pairs only,
        ``"shaffer"`` and ``"bergmann"`` (k <= 9).

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with (k, k) arrays indexed [row A, column B];
        cells outside the family (``tested`` False, the diagonal included)
        hold statistic 0, p-values 1 and ``reject`` False:

        statistic : ndarray of shape (k, k)
            ``D[a, b] = N·(R_b - R_a)``, the difference of the two rank
            sums, positive when A has the better (lower) ranks.
        pvalue, pvalue_adjusted : ndarray of shape (k, k)
            Exact two-sided p-values ``P(|D| >= |d|)`` given the ties, and
            adjusted over the family.
        reject, tested : ndarray of shape (k, k) of bool
            ``pvalue_adjusted < alpha`` within the family; the family.
        min_pvalue : float
            The smallest p-value a pair can get with these data sets and
            ties (every data set puts one estimator of the pair first and
            the other last); the same for every pair.
        min_pvalue_adjusted : float
            The smallest adjusted p-value the family can give: the
            correction applied to its M comparisons all at ``min_pvalue``.
            Above ``alpha``, no scores could make a pair differ.
        method : str
            ``"exact"``, or ``"normal"`` on tables too large for the exact
            convolution (see Notes).
        control, correction, n_comparisons, mean_ranks : as named.
        rank_sums : ndarray of shape (k,)
            ``N·R_j``, the rank sum of each estimator (1 = best).
        df : None
        alternative, alpha, test : the inputs and ``"exact_posthoc"``.

    See Also
    --------
    friedman : The omnibus test, exact given the ties too.
    nemenyi : All pairs by the studentized range of the mean ranks.
    friedman_posthoc : The same family by normal approximations.

    Notes
    -----
    Eisinga, Heskes, Pelzer and Te Grotenhuis (2017) give the exact null
    law of the difference ``D = Σ_i (r_ia - r_ib)`` of two Friedman rank
    sums. Under the null hypothesis the k estimators are exchangeable on
    each data set, so the ranks ``(r_ia, r_ib)`` of a pair are a uniformly
    random ordered pair of distinct positions of the data set's ranks:
    without ties ``P(r_ia - r_ib = d) = (k - |d|) / (k(k - 1))`` for
    ``d = ±1, ..., ±(k - 1)``. With ties the ordered pairs of distinct
    positions are counted by the difference of their midranks (whole
    numbers once doubled), so tied scores are neither broken at random nor
    treated as untied. The data sets are independent: the law of ``D`` is
    the N-fold convolution of theirs, computed exactly (a direct
    convolution, without the cancellation of the paper's alternating sum),
    and the p-value is ``P(|D| >= |d_obs|)``. The law does not depend on
    the pair, so the whole family costs one convolution. Without ties it
    is the paper's closed form (its example: ``d = k = n = 100`` gives
    0.8085251). The convolution is exact up to 2**27 multiply-adds (some
    150 data sets of 20 estimators with ties, 1,300 of 3); beyond, where
    the difference is a sum of many independent small terms, the p-value is
    the normal law's with the exact variance of ``D`` given the ties,
    ``Σ_i 2·Σ_j (r_ij − r̄_i)² / (k − 1)``, and half a lattice step of
    continuity correction (``method="normal"``).

    The normal approximation of the same difference
    (:func:`friedman_posthoc`) and Nemenyi's studentized range
    (:func:`nemenyi`) are large-sample laws of a discrete statistic; on
    few data sets their p-values can be far from the exact ones in either
    direction, which is where papers comparing classifiers live.

    References
    ----------
    .. [1] R. Eisinga, T. Heskes, B. Pelzer, M. Te Grotenhuis, "Exact
       p-values for pairwise comparison of Friedman rank sums, with
       application to comparing classifiers", BMC Bioinformatics 18:68,
       2017.

    Examples
    --------
    Demšar's Table 6 (see :func:`friedman`): against C4.5 (column 0),
    C4.5+m and C4.5+m+cf have rank sums 16 and 16.5 lower, and differ by
    Holm's correction:

    >>> import numpy as np
    >>> from sklearn_bcv.stats import exact_posthoc
    >>> auc = np.array([
    ...     [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...     [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    ...     [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    ...     [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    ...     [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
    ...     [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    ...     [0.972, 0.981, 0.9751, 0.975], [0.957, 0.978, 0.946, 0.970]])
    >>> result = exact_posthoc(auc, control=0)
    >>> result.statistic[:, 0].tolist()  # each against C4.5
    [0.0, 16.0, 3.5, 16.5]
    >>> result.pvalue[1:, 0].round(4).tolist()
    [0.0142, 0.6223, 0.0113]
    >>> result.reject[:, 0].tolist()
    [False, True, False, True]

    On two data sets no pair of five estimators can differ after Holm's
    correction over the ten pairs, whatever the scores: the smallest
    p-value of a pair is ``2·(1/20)²`` and ten of them adjust to 0.05.

    >>> result = exact_posthoc([[0.9, 0.8, 0.7, 0.6, 0.5],
    ...                         [0.91, 0.81, 0.71, 0.61, 0.51]])
    >>> round(result.min_pvalue, 4), round(result.min_pvalue_adjusted, 4)
    (0.005, 0.05)
    >>> bool(result.reject.any())
    False
    """
    test = "exact_posthoc"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test, allowed=_TWO_SIDED)
    scores, ranks, mean_ranks = _rank_table(scores)
    n_datasets, k = scores.shape
    control = _check_control(control, k)
    check_posthoc_params(control, correction)
    pairs = family_pairs(k, control)
    doubled = doubled_ranks(ranks).sum(axis=0)
    # 2·D[a, b] = 2·(rank sum of B − rank sum of A): positive when A is better.
    difference = doubled[pairs[1]] - doubled[pairs[0]]
    law = rank_difference_law(ranks)
    pvalue = rank_difference_pvalue(difference, law, "two-sided")
    method = law[0]
    return posthoc_family(
        test=test,
        statistic=difference / 2.0,
        pvalue=pvalue,
        pairs=pairs,
        k=k,
        control=control,
        correction=correction,
        alpha=alpha,
        alternative=alternative,
        min_pvalue=smallest_difference_pvalue(ranks),
        method=method,
        mean_ranks=mean_ranks,
        rank_sums=doubled / 2.0,
    )
