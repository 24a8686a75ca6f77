"""The Friedman family across data sets: Friedman's omnibus test (with
Iman and Davenport's F) and Demšar's post hoc rank tests (Nemenyi;
Bonferroni–Dunn and Holm, which are :func:`friedman_posthoc` with that
correction)."""

import numpy as np
from scipy import special, stats
from sklearn.utils import Bunch, check_random_state

from .._checks import check_integer
from ._across_utils import (
    _TWO_SIDED,
    _check_control,
    _concordance_probability,
    _friedman_terms,
    _pair_matrix,
    _rank_table,
    check_posthoc_params,
    family_pairs,
    posthoc_family,
)
from ._exact_ranks import (
    MONTE_CARLO_RESAMPLES,
    doubled_ranks,
    friedman_permutation_test,
    friedman_spread,
)
from ._ranks import (
    critical_difference,
    nemenyi_continuity,
    rank_std_error,
)
from ._references import (
    DEMSAR_2006,
    DUNN_1961,
    FRIEDMAN_1937,
    GARCIA_2008,
    HOLM_1979,
    IMAN_1980,
    NEMENYI_1963,
)
from ._registry import register_test
from ._utils import (
    check_alpha,
    check_alternative,
    check_bool,
    chi2_sf,
    f_sf,
    make_result,
    safe_divide,
)

# --------------------------------------------------------------------------
# k estimators at once: Friedman and the post hoc rank tests
# --------------------------------------------------------------------------


#: How :func:`friedman` may decide (``method=``).
FRIEDMAN_METHODS = ("auto", "exact", "monte_carlo", "chi2", "iman_davenport")

#: The most Monte Carlo resamples :func:`friedman` takes (its standard error
#: is below 1e-4 long before).
MAX_RESAMPLES = 10**7


def _check_friedman_params(
    method="auto", n_resamples=MONTE_CARLO_RESAMPLES, random_state=None, **_
):
    """Friedman's own parameters, checked before any fit."""
    if not isinstance(method, str) or method not in FRIEDMAN_METHODS:
        raise ValueError(
            f"method must be one of {list(FRIEDMAN_METHODS)}; got {method!r}."
        )
    check_integer(
        n_resamples,
        name="n_resamples",
        low=1,
        high=MAX_RESAMPLES,
        why="its Monte Carlo standard error is below 1e-4 long before",
    )
    check_random_state(random_state)


@register_test(
    "friedman",
    needs="scores",
    kind="datasets",
    alternatives=_TWO_SIDED,
    param_check=_check_friedman_params,
    role="omnibus",
    by_default={"all_pairs": 0, "control": 0},
    display_name="Friedman test",
    rationale="the rank test of k estimators across data sets recommended "
    "by Demšar (2006); it assumes neither normality nor equal variances; "
    "its p-value is exact given the ties (a permutation test), by Monte "
    "Carlo on large tables",
    statistic_label="chi2",
    references=(FRIEDMAN_1937, IMAN_1980, DEMSAR_2006),
)
def friedman(
    scores,
    *,
    alpha=0.05,
    alternative="two-sided",
    method="auto",
    n_resamples=MONTE_CARLO_RESAMPLES,
    random_state=None,
):
    """Friedman test of k estimators across data sets, exact given the ties.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, k)
        One score per data set (row) and estimator (column), higher is
        better; at least 2 data sets and 2 estimators, finite.
    alpha : float, default=0.05
        Significance level of ``reject``.
    alternative : {"two-sided"}, default="two-sided"
        The null hypothesis is that the k estimators are equivalent (equal
        mean ranks); the statistic has no direction, so one-sided
        alternatives raise a ``ValueError``.
    method : {"auto", "exact", "monte_carlo", "chi2", "iman_davenport"}, \
default="auto"
        What gives ``pvalue`` (and ``reject``). ``"auto"``: the permutation
        law of the statistic given each data set's ties, exact where its
        dynamic programme is small (see Notes), else by Monte Carlo;
        ``"exact"`` insists on the exact law (a ``ValueError`` where it is
        too large); ``"monte_carlo"`` always samples; ``"chi2"`` and
        ``"iman_davenport"`` decide by the chi-squared approximation or
        Iman and Davenport's F (Demšar's recommendation), which are
        reported beside the permutation p-value whatever the method.
    n_resamples : int, default=12000
        Monte Carlo resamples of the permutation law (at most 10**7): a
        standard error of at most 0.002 near p = 0.05.
    random_state : int, RandomState instance or None, default=None
        Seeds the Monte Carlo; an int gives the same p-value every call.
        Not used when the p-value is exact.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            The tie-corrected Friedman statistic ``chi2_F`` (as
            :func:`scipy.stats.friedmanchisquare`).
        pvalue : float
            The p-value of ``method``: by default the permutation p-value
            ``P(chi2_F >= observed)`` given the ties, exact or Monte Carlo.
        method : str
            What gave ``pvalue``: ``"exact"``, ``"monte_carlo"``, ``"chi2"``
            or ``"iman_davenport"`` (``"auto"`` gives ``"chi2"`` on tables
            so large that the Monte Carlo would draw more than 2**27 ranks,
            some 11,000 ranked scores at the default resamples, where the
            chi-squared error is far below the Monte Carlo's).
        pvalue_chi2 : float
            ``chi2.sf(chi2_F, k - 1)``, the large-sample approximation.
        pvalue_mc_se : float or None
            The Monte Carlo standard error of ``pvalue`` (None unless
            ``method`` is ``"monte_carlo"``).
        n_resamples : int or None
            The Monte Carlo resamples (None unless ``"monte_carlo"``).
        min_pvalue : float
            The smallest p-value ``method`` can give with these data sets
            and ties (the probability that every data set ranks the
            estimators alike, for the exact law; ``1/(1 + n_resamples)``
            for the Monte Carlo): above ``alpha``, no scores could reject.
        df : int
            ``k - 1``.
        reject : bool
            ``pvalue < alpha``.
        iman_davenport : :class:`~sklearn.utils.Bunch`
            Iman and Davenport's F computed from ``chi2_F``: ``statistic``,
            ``pvalue``, ``df = (k - 1, (k - 1)(N - 1))`` and ``reject``.
        ranks : ndarray of shape (n_datasets, k)
            The rank of each estimator on each data set, 1 = best (highest
            score), ties averaged.
        mean_ranks : ndarray of shape (k,)
            ``R_j``, the mean rank of each estimator.
        n_datasets : int
            N.
        alternative, alpha, test : the inputs and ``"friedman"``.

    See Also
    --------
    nemenyi : The post hoc test of all pairs.
    exact_posthoc : The exact post hoc test of the rank sums.
    bonferroni_dunn, holm : The post hoc tests against a control.

    Notes
    -----
    With ``R_j`` the mean ranks over the N data sets (Friedman 1937; Demšar
    2006, §3.2.2),

    .. math:: \\chi^2_F = \\frac{12N}{k(k+1)} \\Big(\\sum_j R_j^2 -
              \\frac{k(k+1)^2}{4}\\Big) \\Big/ \\Big(1 - \\frac{\\sum_i
              \\sum_{\\text{groups}} (t^3 - t)}{N(k^3 - k)}\\Big),

    the denominator correcting for the groups of t tied scores on each data
    set (scores within ``2**-46`` times the data set's largest ``|score|``
    tie, so that means of per-split scores equal in your decimals do: the
    tie rule of :func:`wilcoxon`).

    **The p-value.** Under the null hypothesis the k scores of a data set
    are exchangeable: given its midranks (ties kept), every arrangement of
    them over the estimators is equally likely, independently across data
    sets. ``chi2_F`` is an increasing function of ``S = Σ_j (N R_j)²`` (its
    denominator does not change under these arrangements), so the exact
    p-value is ``P(S >= s_obs)`` over the arrangements. It is computed by a
    dynamic programme over the multiset of the partial rank sums (the
    estimators are exchangeable, so their order carries nothing), exact to
    rounding, where it visits at most 2**19 states (about 20 ms): for 3
    estimators up to about 80 data sets, 4 up to 18, 5 up to 7, 6 up to 3
    and 7 or 8 on 2 (more with ties). Beyond, ``n_resamples`` tables with
    each data set's ranks shuffled give ``p = (1 + #{S_b >= s_obs}) / (1 +
    B)`` (a valid test at every B), with its standard error. On tables so
    large that the Monte Carlo would draw more than 2**27 ranks (some
    11,000 ranked scores at the default 12,000 resamples), the chi-squared
    approximation decides: its error is then far below the Monte Carlo's
    (``method`` says ``"chi2"``). With two
    estimators the law is that of the exact sign test of the data sets
    that do not tie (a tie is the same ranks whatever the arrangement):
    60 data sets tied on 55 and won by A on the other 5 give p = 0.0625,
    where chi-squared says 0.025.

    The chi-squared approximation, which Demšar (2006) and most software
    use, is poor where papers live (few data sets, many ties): with two
    estimators on 5 data sets it rejects at 0.05 with probability 0.0625;
    Iman and Davenport (1980) showed it conservative for k >= 3 and
    proposed

    .. math:: F_F = \\frac{(N - 1)\\,\\chi^2_F}{N(k - 1) - \\chi^2_F},

    referred to F(k − 1, (k − 1)(N − 1)). Both are reported
    (``pvalue_chi2``, ``iman_davenport``); the simulation in
    ``doc/reproduction.rst`` ("Exact inference on small tables") shows
    where they exceed the level. Demšar prints the statistics without the
    tie correction: his Table 6 gives ``chi2_F = 9.28`` and ``F_F = 3.69``,
    which become 10.23 and 4.19 with it (the example below).

    Both statistics are computed from exact integers (twice the rank sums
    and the tie counts), so the degenerate cases are detected exactly: when
    every data set ties all the estimators, ``chi2_F`` is 0 with p-value 1
    (so is ``F_F``); when every data set ranks the estimators the same way,
    ``F_F``'s denominator is 0 and ``F_F`` is infinite. Its p-value is then
    not the F distribution's 0 but the exact probability, under the null
    hypothesis, that all N data sets rank the estimators alike:
    ``(1/k!)^(N - 1)`` without ties (1/36 for three estimators on three data
    sets), ``Π_{i >= 2} Π_groups t! / k!`` with them.

    References
    ----------
    .. [1] M. Friedman, "The use of ranks to avoid the assumption of
       normality implicit in the analysis of variance", Journal of the
       American Statistical Association 32(200):675-701, 1937.
    .. [2] R. L. Iman, J. M. Davenport, "Approximations of the critical
       region of the Friedman statistic", Communications in Statistics -
       Theory and Methods 9(6):571-595, 1980.
    .. [3] J. Demšar, "Statistical comparisons of classifiers over multiple
       data sets", Journal of Machine Learning Research 7:1-30, 2006.

    Examples
    --------
    Demšar's Table 6: AUC of C4.5, C4.5+m, C4.5+cf and C4.5+m+cf on 14 data
    sets. The paper rounds the AUCs to three decimals; its ranks on
    "voting" (4, 1, 2, 3) break the printed tie 0.975 / 0.975, hence 0.9751.

    >>> import numpy as np
    >>> from sklearn_bcv.stats import friedman
    >>> auc = np.array([
    ...     [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...     [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    ...     [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    ...     [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    ...     [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
    ...     [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    ...     [0.972, 0.981, 0.9751, 0.975], [0.957, 0.978, 0.946, 0.970]])
    >>> result = friedman(auc)
    >>> result.mean_ranks.round(3).tolist()
    [3.143, 2.0, 2.893, 1.964]
    >>> round(result.statistic, 3), result.df, result.method, round(result.pvalue, 4)
    (10.228, 3, 'exact', 0.0136)
    >>> round(result.pvalue_chi2, 4)
    0.0167
    >>> iman = result.iman_davenport
    >>> round(iman.statistic, 2), iman.df, round(iman.pvalue, 4)
    (4.19, (3, 39), 0.0116)

    With two estimators the exact law is the sign test's (ties dropped):

    >>> two = np.r_[np.ones((55, 2)), [[0.9, 0.8]] * 5]
    >>> result = friedman(two)
    >>> result.pvalue, round(result.pvalue_chi2, 4), result.min_pvalue
    (0.0625, 0.0253, 0.0625)
    """
    test = "friedman"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test, allowed=_TWO_SIDED)
    _check_friedman_params(method, n_resamples, random_state)
    scores, ranks, mean_ranks = _rank_table(scores)
    n_datasets, k = scores.shape
    spread, denominator = _friedman_terms(scores, ranks)
    # 0/0 (every data set ties every estimator) -> statistic 0, p-value 1.
    statistic = safe_divide(3.0 * (k - 1) * spread, float(k * denominator))
    pvalue_chi2 = 1.0 if spread == 0 else chi2_sf(statistic, k - 1)
    iman_davenport = _iman_davenport(spread, denominator, ranks, alpha)
    largest = _largest_spread(ranks)
    extra = {"pvalue_mc_se": None, "n_resamples": None}
    if method == "chi2":
        pvalue = pvalue_chi2
        smallest = _chi2_floor(largest, denominator, k)
    elif method == "iman_davenport":
        pvalue = iman_davenport.pvalue
        smallest = _iman_davenport(largest, denominator, ranks, alpha).pvalue
    else:
        permutation = friedman_permutation_test(
            ranks, method=method, n_resamples=n_resamples, random_state=random_state
        )
        if permutation is None:  # too large: chi-squared, whose error is tiny
            method, pvalue = "chi2", pvalue_chi2
            smallest = _chi2_floor(largest, denominator, k)
        else:
            pvalue, method, mc_se, smallest = permutation
        if method == "monte_carlo":
            extra = {"pvalue_mc_se": mc_se, "n_resamples": int(n_resamples)}
    return make_result(
        test=test,
        statistic=statistic,
        pvalue=float(pvalue),
        df=k - 1,
        alpha=alpha,
        alternative=alternative,
        method=method,
        pvalue_chi2=float(pvalue_chi2),
        **extra,
        min_pvalue=float(smallest),
        iman_davenport=iman_davenport,
        ranks=ranks,
        mean_ranks=mean_ranks,
        n_datasets=n_datasets,
    )


def _iman_davenport(spread, denominator, ranks, alpha):
    """Iman and Davenport's F from Friedman's exact parts (a Bunch)."""
    n_datasets, k = ranks.shape
    # F_F = 3(N − 1)·spread / (N·k·denominator − 3·spread), exactly.
    id_denominator = n_datasets * k * denominator - 3 * spread
    id_statistic = safe_divide(3.0 * (n_datasets - 1) * spread, float(id_denominator))
    id_df = (k - 1, (k - 1) * (n_datasets - 1))
    if spread == 0:
        id_pvalue = 1.0
    elif id_denominator == 0:
        id_pvalue = _concordance_probability(ranks)
    else:
        id_pvalue = f_sf(id_statistic, *id_df)
    return Bunch(
        statistic=float(id_statistic),
        pvalue=float(id_pvalue),
        df=id_df,
        reject=bool(id_pvalue < alpha),
    )


def _chi2_floor(largest, denominator, k):
    """The chi-squared p-value of the largest spread the ties allow."""
    if largest == 0:
        return 1.0
    return chi2_sf(3.0 * (k - 1) * largest / (k * denominator), k - 1)


def _largest_spread(ranks):
    """The spread ``k·Σ U_j² − (Σ U_j)²`` of the doubled rank sums when every
    data set ranks the estimators alike: the largest the ties allow."""
    concordant = np.sort(doubled_ranks(ranks), axis=1)
    return friedman_spread(concordant)


def _check_continuity(continuity):
    check_bool(continuity, name="continuity")


@register_test(
    "nemenyi",
    needs="scores",
    kind="datasets",
    alternatives=_TWO_SIDED,
    param_check=_check_continuity,
    role="posthoc",
    omnibus="friedman",
    diagram="bar",
    by_default={"all_pairs": 1},
    display_name="Nemenyi's post hoc test",
    rationale="all pairs by their mean ranks, with the family-wise error "
    "controlled (Demšar 2006)",
    references=(NEMENYI_1963, DEMSAR_2006),
)
def nemenyi(scores, *, alpha=0.05, alternative="two-sided", continuity=True):
    """Nemenyi post hoc test of all pairs of k estimators across data sets.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, k)
        One score per data set (row) and estimator (column), higher is
        better; at least 2 data sets and 2 estimators, finite.
    alpha : float, default=0.05
        Family-wise significance level of ``reject`` and of the critical
        difference.
    alternative : {"two-sided"}, default="two-sided"
        One-sided alternatives raise a ``ValueError``.
    continuity : bool, default=True
        Subtract the continuity correction ``1/(2N)`` from each difference
        of mean ranks (half a step of the rank sums; ``1/N`` with two
        estimators, whose rank sums differ in steps of 2), which keeps the
        family-wise error at or below ``alpha`` (see Notes). False gives
        Demšar's (and scikit-posthocs') uncorrected test.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with (k, k) arrays indexed [row A, column B]:

        statistic : ndarray of shape (k, k)
            ``q = max(|R_a - R_b| - 1/(2N), 0) · sqrt(2) / se``, the
            studentized range of the two mean ranks (0 on the diagonal;
            without the ``1/(2N)`` when ``continuity=False``).
        pvalue : ndarray of shape (k, k)
            ``studentized_range.sf(q, k, inf)`` (1 on the diagonal); it
            already controls the family-wise error of the k(k - 1)/2 pairs.
        pvalue_adjusted : ndarray of shape (k, k)
            The same as ``pvalue`` (the studentized range is the
            adjustment), given so every post hoc test has this field.
        reject : ndarray of shape (k, k) of bool
            ``pvalue < alpha`` off the diagonal, that is
            ``|R_a - R_b| > critical_difference``.
        tested : ndarray of shape (k, k) of bool
            True off the diagonal: every pair is compared.
        critical_difference : float
            ``q_alpha · se + 1/(2N)`` (Demšar's CD ``q_alpha · se`` when
            ``continuity=False``): pairs whose mean ranks differ by more are
            rejected.
        mean_ranks : ndarray of shape (k,)
            The mean rank of each estimator, 1 = best.
        df : None
        alternative, alpha, test : the inputs and ``"nemenyi"``.

    See Also
    --------
    friedman : The omnibus test to run first.
    bonferroni_dunn, holm : Comparisons with a control.

    Notes
    -----
    With ``se = sqrt(k(k + 1) / (6N))`` (Demšar 2006, §3.2.2), two
    estimators differ when their mean ranks differ by more than the critical
    difference ``CD = q_alpha · se``, ``q_alpha`` the upper ``alpha``
    quantile of the studentized range of k variables with infinite degrees
    of freedom divided by ``sqrt(2)`` (2.569 for k = 4, alpha = 0.05).
    The p-value of a pair is the studentized range survival function at
    ``q = |R_a - R_b| · sqrt(2) / se``, as
    ``scikit_posthocs.posthoc_nemenyi_friedman`` computes it
    (``continuity=False``).

    The studentized range is the large-sample law of a statistic that is
    discrete: the rank sums ``N·R_j`` are whole numbers (halves with ties),
    and the test rejects as soon as their difference reaches the first
    whole number above ``N·CD``. Without a correction its family-wise error
    exceeds ``alpha`` for some N and k: 0.056 at N = 20, k = 4 and 0.054 at
    N = 20, k = 3 (alpha = 0.05; simulated null rank tables, Monte Carlo
    standard error 0.001). Subtracting half a step, ``1/(2N)`` in mean
    ranks, brings it to at most 0.049 on every N in 5…50 and k in 3…10
    tried (``doc/reproduction.rst``), at some cost in power. With two
    estimators a data set moves their difference of rank sums by ±1 (0 on
    a tie), so the difference changes in steps of 2 and half a step is
    ``1/N``: with ``1/(2N)`` the test rejected 5 wins out of 5 data sets,
    whose exact probability is 0.0625 (``doc/reproduction.rst``, "Exact
    inference on small tables"); with ``1/N`` it is the sign test's normal
    approximation with its continuity correction.

    References
    ----------
    .. [1] P. B. Nemenyi, "Distribution-free multiple comparisons", PhD
       thesis, Princeton University, 1963.
    .. [2] J. Demšar, "Statistical comparisons of classifiers over multiple
       data sets", Journal of Machine Learning Research 7:1-30, 2006.

    Examples
    --------
    Demšar's Table 6 (see :func:`friedman`): at alpha = 0.05 no pair differs,
    the largest difference of mean ranks (1.179) being below the CD.

    >>> import numpy as np
    >>> from sklearn_bcv.stats import nemenyi
    >>> auc = np.array([
    ...     [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...     [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    ...     [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    ...     [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    ...     [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
    ...     [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    ...     [0.972, 0.981, 0.9751, 0.975], [0.957, 0.978, 0.946, 0.970]])
    >>> result = nemenyi(auc)
    >>> round(result.critical_difference, 3), bool(result.reject.any())
    (1.289, False)
    >>> result.pvalue[0].round(3).tolist()  # C4.5 against each
    [1.0, 0.105, 0.972, 0.089]

    Demšar's uncorrected test (CD 1.254; his §3.2.2) and, at alpha = 0.10
    (CD 1.118), its finding that C4.5+m and C4.5+m+cf beat C4.5:

    >>> demsar = nemenyi(auc, continuity=False)
    >>> round(demsar.critical_difference, 3), demsar.pvalue[0].round(3).tolist()
    (1.254, [1.0, 0.089, 0.956, 0.074])
    >>> nemenyi(auc, alpha=0.10, continuity=False).reject[0].tolist()
    [False, True, False, True]

    With the correction (CD 1.154 at alpha = 0.10) only C4.5+m+cf does:

    >>> nemenyi(auc, alpha=0.10).reject[0].tolist()
    [False, False, False, True]
    """
    test = "nemenyi"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test, allowed=_TWO_SIDED)
    scores, ranks, mean_ranks = _rank_table(scores)
    n_datasets, k = scores.shape
    se = rank_std_error(k, n_datasets)
    pairs = np.triu_indices(k, 1)
    _check_continuity(continuity)
    correction = nemenyi_continuity(k, n_datasets) if continuity else 0.0
    gap = np.abs(mean_ranks[pairs[0]] - mean_ranks[pairs[1]])
    q = np.maximum(gap - correction, 0.0) * np.sqrt(2.0) / se
    p = np.where(
        q == 0, 1.0, np.clip(stats.studentized_range.sf(q, k, np.inf), 0.0, 1.0)
    )
    statistic = _pair_matrix(k, pairs, q, symmetric=True, fill=0.0)
    pvalue = _pair_matrix(k, pairs, p, symmetric=True, fill=1.0)
    tested = ~np.eye(k, dtype=bool)
    q_max = max(_largest_gap(ranks) - correction, 0.0) * np.sqrt(2.0) / se
    smallest = (
        1.0
        if q_max == 0
        else float(np.clip(stats.studentized_range.sf(q_max, k, np.inf), 0.0, 1.0))
    )
    return make_result(
        test=test,
        statistic=statistic,
        pvalue=pvalue,
        df=None,
        alpha=alpha,
        alternative=alternative,
        reject=(pvalue < alpha) & tested,
        pvalue_adjusted=pvalue.copy(),
        tested=tested,
        critical_difference=critical_difference(
            k, n_datasets, alpha, "nemenyi", continuity=continuity
        ),
        continuity=bool(continuity),
        min_pvalue=smallest,
        min_pvalue_adjusted=smallest,
        mean_ranks=mean_ranks,
    )


def _largest_gap(ranks):
    """The largest difference of two mean ranks the ties allow: one
    estimator best and the other worst on every data set."""
    return float(np.mean(ranks.max(axis=1) - ranks.min(axis=1)))


def _rank_z_test(scores, control, alpha, alternative, *, test, correction):
    """The z statistics of Friedman's mean ranks as a post hoc family."""
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test, allowed=_TWO_SIDED)
    scores, ranks, mean_ranks = _rank_table(scores)
    n_datasets, k = scores.shape
    control = _check_control(control, k)
    check_posthoc_params(control, correction)
    se = rank_std_error(k, n_datasets)
    pairs = family_pairs(k, control)
    # z[a, b] = (R_b − R_a) / se: positive when A has the better (lower) rank.
    z = (mean_ranks[pairs[1]] - mean_ranks[pairs[0]]) / se
    p = np.minimum(1.0, 2.0 * special.ndtr(-np.abs(z)))
    extra = {}
    if test == "bonferroni_dunn":
        extra["critical_difference"] = critical_difference(
            k, n_datasets, alpha, "bonferroni_dunn", n_comparisons=len(z)
        )
    result = posthoc_family(
        test=test,
        statistic=z,
        pvalue=p,
        pairs=pairs,
        k=k,
        control=control,
        correction=correction,
        alpha=alpha,
        alternative=alternative,
        **extra,
        min_pvalue=float(min(1.0, 2.0 * special.ndtr(-_largest_gap(ranks) / se))),
        mean_ranks=mean_ranks,
    )
    return result


@register_test(
    "friedman_posthoc",
    needs="scores",
    kind="datasets",
    alternatives=_TWO_SIDED,
    param_check=check_posthoc_params,
    role="posthoc",
    omnibus="friedman",
    diagram="groups",
    display_name="post hoc z test on Friedman mean ranks",
    rationale="each pair (or each estimator against the control) by Friedman's "
    "mean ranks, with a multiplicity correction",
    references=(DEMSAR_2006, GARCIA_2008),
)
def friedman_posthoc(
    scores, *, alpha=0.05, alternative="two-sided", control=None, correction="holm"
):
    """Post hoc family of z tests on Friedman's mean ranks, any correction.

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
            ``z[a, b] = (R_b - R_a) / se``, ``se = sqrt(k(k + 1)/(6N))``,
            positive when A has the better (lower) mean rank.
        pvalue, pvalue_adjusted : ndarray of shape (k, k)
            Raw two-sided normal p-values, and adjusted over the family.
        reject, tested : ndarray of shape (k, k) of bool
            ``pvalue_adjusted < alpha`` within the family; the family.
        control, correction, n_comparisons, mean_ranks : as named.
        df : None
        alternative, alpha, test : the inputs and ``"friedman_posthoc"``.

    See Also
    --------
    holm, bonferroni_dunn : This family with that correction.
    aligned_posthoc, quade_posthoc : The families of the other omnibus
        tests.

    Notes
    -----
    Demšar (2006) and García and Herrera (2008): the statistic of pair
    (a, b) is ``z = (R_b - R_a) / sqrt(k(k + 1)/(6N))``, two-sided normal
    p-values. García and Herrera's comparison of all pairs ranks the
    procedures Bergmann–Hommel >= Shaffer >= Holm >= Nemenyi in power, at
    the same family-wise error.

    Examples
    --------
    Demšar's Table 6 (see :func:`friedman`): against C4.5 (column 0) Holm
    rejects two of the three comparisons (:func:`holm`); among all six
    pairs even Shaffer's and Bergmann–Hommel's procedures, which use the
    logic of pairwise comparisons, reject none at 0.05.

    >>> import numpy as np
    >>> from sklearn_bcv.stats import friedman_posthoc
    >>> auc = np.array([
    ...     [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...     [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    ...     [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    ...     [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    ...     [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
    ...     [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    ...     [0.972, 0.981, 0.9751, 0.975], [0.957, 0.978, 0.946, 0.970]])
    >>> shaffer = friedman_posthoc(auc, correction="shaffer")
    >>> shaffer.pvalue[0].round(3).tolist()  # C4.5 against each, raw
    [1.0, 0.019, 0.608, 0.016]
    >>> shaffer.pvalue_adjusted[0].round(3).tolist()
    [1.0, 0.094, 1.0, 0.094]
    >>> bool(friedman_posthoc(auc, correction="bergmann").reject.any())
    False
    >>> friedman_posthoc(auc, control=0).reject[:, 0].tolist()
    [False, True, False, True]
    """
    return _rank_z_test(
        scores,
        control,
        alpha,
        alternative,
        test="friedman_posthoc",
        correction=correction,
    )


@register_test(
    "bonferroni_dunn",
    needs="scores",
    kind="datasets",
    alternatives=_TWO_SIDED,
    role="posthoc",
    omnibus="friedman",
    diagram="bar",
    display_name="Bonferroni-Dunn post hoc test",
    rationale="each estimator against the control by mean ranks",
    references=(DUNN_1961, DEMSAR_2006),
)
def bonferroni_dunn(scores, *, alpha=0.05, alternative="two-sided", control=None):
    """Bonferroni–Dunn post hoc test of the mean ranks against a control.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, k)
        One score per data set (row) and estimator (column), higher is
        better; at least 2 data sets and 2 estimators, finite.
    alpha : float, default=0.05
        Family-wise significance level of ``reject`` and of the critical
        difference.
    alternative : {"two-sided"}, default="two-sided"
        One-sided alternatives raise a ``ValueError``.
    control : int, default=None
        Column of the control estimator: the family is the k - 1
        comparisons of the others with it. None compares all
        k(k - 1)/2 pairs (Dunn's Bonferroni procedure on all pairs).

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with (k, k) arrays indexed [row A, column B];
        cells outside the family (``tested`` False, the diagonal included)
        hold statistic 0, p-values 1 and ``reject`` False:

        statistic : ndarray of shape (k, k)
            ``z[a, b] = (R_b - R_a) / se``, positive when A has the better
            (lower) mean rank; antisymmetric.
        pvalue : ndarray of shape (k, k)
            Raw two-sided normal p-values.
        pvalue_adjusted : ndarray of shape (k, k)
            Adjusted over the family (k - 1 comparisons with a control,
            k(k - 1)/2 without) by Bonferroni's method, ``min(1, M·p)``.
        reject : ndarray of shape (k, k) of bool
            ``pvalue_adjusted < alpha`` within the family.
        tested : ndarray of shape (k, k) of bool
            The family: the cells ``[j, control]`` and ``[control, j]``, or
            every off-diagonal cell without a control.
        control : int or None
            The control's column.
        n_comparisons : int
            M, the size of the family.
        critical_difference : float
            ``z_{alpha / (2M)} · se``: two mean ranks further apart differ
            (for the pairs of the family).
        mean_ranks : ndarray of shape (k,)
            The mean rank of each estimator, 1 = best.
        df : None
        alternative, alpha, test : the inputs and ``"bonferroni_dunn"``.

    See Also
    --------
    friedman_posthoc : The same family with any correction
        (``correction="bonferroni"`` is this test).
    holm : The step-down procedure on the same z statistics (more powerful).
    nemenyi : All pairs with the studentized range.

    Notes
    -----
    With ``se = sqrt(k(k + 1) / (6N))`` (Demšar 2006, §3.2.2), the
    statistic of estimator j against the control c is
    ``z = (R_c - R_j) / se``, referred to the standard normal; the M
    two-sided p-values are multiplied by M (capped at 1). Equivalently, j
    differs from the control when ``|R_j - R_c|`` exceeds the critical
    difference ``CD = z_{alpha / (2M)} · se`` (2.394·se for k = 4, alpha =
    0.05, Demšar's Table 5(b)). Without a control the family is all pairs,
    which is what ``scikit_posthocs.posthoc_siegel_friedman(...,
    p_adjust="bonferroni")`` computes.

    References
    ----------
    .. [1] O. J. Dunn, "Multiple comparisons among means", Journal of the
       American Statistical Association 56(293):52-64, 1961.
    .. [2] J. Demšar, "Statistical comparisons of classifiers over multiple
       data sets", Journal of Machine Learning Research 7:1-30, 2006.

    Examples
    --------
    Demšar's Table 6 (see :func:`friedman`) with C4.5 (column 0) as the
    control: the CD is 1.168, and only C4.5+m+cf (mean rank 1.964 against
    3.143) differs.

    >>> import numpy as np
    >>> from sklearn_bcv.stats import bonferroni_dunn
    >>> auc = np.array([
    ...     [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...     [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    ...     [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    ...     [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    ...     [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
    ...     [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    ...     [0.972, 0.981, 0.9751, 0.975], [0.957, 0.978, 0.946, 0.970]])
    >>> result = bonferroni_dunn(auc, control=0)
    >>> round(result.critical_difference, 3)
    1.168
    >>> result.statistic[:, 0].round(3).tolist()  # each against C4.5
    [0.0, 2.342, 0.512, 2.415]
    >>> result.pvalue_adjusted[:, 0].round(3).tolist()
    [1.0, 0.058, 1.0, 0.047]
    >>> result.reject[:, 0].tolist()
    [False, False, False, True]
    """
    return _rank_z_test(
        scores,
        control,
        alpha,
        alternative,
        test="bonferroni_dunn",
        correction="bonferroni",
    )


@register_test(
    "holm",
    needs="scores",
    kind="datasets",
    alternatives=_TWO_SIDED,
    role="posthoc",
    omnibus="friedman",
    diagram="groups",
    display_name="Holm post hoc test",
    rationale="each estimator against the control (or every pair) by mean ranks, "
    "with Holm's step-down correction",
    references=(HOLM_1979, DEMSAR_2006, GARCIA_2008),
)
def holm(scores, *, alpha=0.05, alternative="two-sided", control=None):
    """Holm's step-down post hoc test of the mean ranks against a control.

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
        comparisons of the others with it. None compares all
        k(k - 1)/2 pairs.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with (k, k) arrays indexed [row A, column B];
        cells outside the family (``tested`` False, the diagonal included)
        hold statistic 0, p-values 1 and ``reject`` False:

        statistic : ndarray of shape (k, k)
            ``z[a, b] = (R_b - R_a) / se``, positive when A has the better
            (lower) mean rank; antisymmetric.
        pvalue : ndarray of shape (k, k)
            Raw two-sided normal p-values.
        pvalue_adjusted : ndarray of shape (k, k)
            Adjusted over the family (k - 1 comparisons with a control,
            k(k - 1)/2 without) by Holm's step-down method.
        reject : ndarray of shape (k, k) of bool
            ``pvalue_adjusted < alpha`` within the family.
        tested : ndarray of shape (k, k) of bool
            The family: the cells ``[j, control]`` and ``[control, j]``, or
            every off-diagonal cell without a control.
        control : int or None
            The control's column.
        n_comparisons : int
            M, the size of the family.
        mean_ranks : ndarray of shape (k,)
            The mean rank of each estimator, 1 = best.
        df : None
        alternative, alpha, test : the inputs and ``"holm"``.

    See Also
    --------
    friedman_posthoc : The same family with any correction
        (``correction="holm"`` is this test); ``"shaffer"`` and
        ``"bergmann"`` reject more on all pairs.
    bonferroni_dunn : The single-step procedure on the same z statistics.
    nemenyi : All pairs with the studentized range.

    Notes
    -----
    The z statistics and raw p-values are those of :func:`bonferroni_dunn`;
    Holm's procedure (Holm 1979; Demšar 2006, §3.2.2; García and Herrera
    2008) compares the ordered p-values ``p_(1) <= ... <= p_(M)`` with
    ``alpha / (M - i + 1)`` and stops at the first it cannot reject; the
    adjusted p-values ``max_{j <= i} min(1, (M - j + 1) p_(j))``
    (:func:`adjust_pvalues`) give the same decisions. Without a control the
    family is all pairs, as
    ``scikit_posthocs.posthoc_siegel_friedman(..., p_adjust="holm")``.

    References
    ----------
    .. [1] S. Holm, "A simple sequentially rejective multiple test
       procedure", Scandinavian Journal of Statistics 6(2):65-70, 1979.
    .. [2] J. Demšar, "Statistical comparisons of classifiers over multiple
       data sets", Journal of Machine Learning Research 7:1-30, 2006.
    .. [3] S. García, F. Herrera, "An extension on 'Statistical comparisons
       of classifiers over multiple data sets' for all pairwise
       comparisons", Journal of Machine Learning Research 9:2677-2694,
       2008.

    Examples
    --------
    Demšar's worked example of Holm's procedure (Table 6, see
    :func:`friedman`, C4.5 as control): the raw p-values 0.016, 0.019 and
    0.608 are compared with 0.05/3, 0.05/2 and 0.05; the first two are
    rejected, where Bonferroni–Dunn rejects only the first.

    >>> import numpy as np
    >>> from sklearn_bcv.stats import holm
    >>> auc = np.array([
    ...     [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...     [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    ...     [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    ...     [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    ...     [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
    ...     [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    ...     [0.972, 0.981, 0.9751, 0.975], [0.957, 0.978, 0.946, 0.970]])
    >>> result = holm(auc, control=0)
    >>> result.pvalue[1:, 0].round(3).tolist()
    [0.019, 0.608, 0.016]
    >>> result.pvalue_adjusted[1:, 0].round(3).tolist()
    [0.047, 0.608, 0.047]
    >>> result.reject[:, 0].tolist()
    [False, True, False, True]
    """
    return _rank_z_test(
        scores, control, alpha, alternative, test="holm", correction="holm"
    )
