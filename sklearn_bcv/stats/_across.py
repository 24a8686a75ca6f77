"""Tests across data sets (registry kind ``"datasets"``).

Two families, both read scores that are higher-is-better:

* **k estimators at once** on a table ``scores`` of shape (n_datasets, k),
  one mean score per data set and estimator: the Friedman test (with
  Iman and Davenport's F reported inside it) and the post hoc rank tests of
  Demšar (2006) -- Nemenyi (all pairs), Bonferroni–Dunn and Holm (against
  a control, or all pairs) on the mean ranks.
* **one pair at a time**, A against B: the Wilcoxon signed-rank and sign
  tests on ``dataset_differences`` (one mean score difference per data
  set), the Poisson-binomial test (seed 002 §3) on ``split_differences``
  (one difference per data set and split), and the Bayesian signed-rank and
  sign tests of Benavoli et al. (2017), sampled by Monte Carlo.

Monte Carlo of the Bayesian tests. Both posteriors are Dirichlet processes
whose weights do not depend on the data: ``w ~ Dirichlet(s, 1, ..., 1)``
over a pseudo-observation ``z_0 = 0`` (prior weight ``s``) and the q
differences. They are drawn as normalised gamma variables, ``Exp(1)`` for
the q data sets and ``Gamma(s)`` for the pseudo-observation, from a
:class:`numpy.random.Generator` seeded from ``random_state`` (through
:func:`sklearn.utils.check_random_state`, so an int gives the same result
every call). For an int ``random_state`` the last draw is cached: the pairs
of a comparison over the same data sets reuse it, and a result never
depends on what was computed before (a cached draw is exactly the draw the
seed makes).
"""

import threading
from numbers import Integral

import numpy as np
from scipy import special, stats
from sklearn.utils import Bunch, check_random_state

from ._bayesian import (
    _check_rope,
    _posterior_probabilities,
    posterior_decision,
    scaled_correlated_t_posterior,
)
from ._corrections import adjust_pvalues
from ._ranks import (
    check_score_table,
    critical_difference,
    rank_scores,
    rank_std_error,
)
from ._registry import register_test
from ._utils import (
    as_numeric_array,
    check_alpha,
    check_alternative,
    check_bool,
    check_differences,
    check_finite,
    check_real,
    check_size,
    chi2_sf,
    f_sf,
    is_real_dtype,
    make_result,
    safe_divide,
)

__all__ = [
    "bayesian_sign",
    "bayesian_signed_rank",
    "bonferroni_dunn",
    "friedman",
    "holm",
    "nemenyi",
    "poisson_binomial",
    "sign",
    "wilcoxon",
]

_TWO_SIDED = ("two-sided",)
_ZERO_METHODS = ("wilcox", "pratt", "zsplit")


# --------------------------------------------------------------------------
# Input validation
# --------------------------------------------------------------------------


def _check_dataset_differences(values, *, test, name="dataset_differences"):
    """``values`` as a finite float array of shape (n_datasets,), n >= 2."""
    expected = "a 1-D array of shape (n_datasets,)"
    arr = as_numeric_array(values, name=name, expected=expected)
    if not is_real_dtype(arr.dtype):
        raise ValueError(
            f"{name} must be numeric (score_a - score_b per data set); got dtype "
            f"{arr.dtype}."
        )
    if arr.ndim != 1:
        raise ValueError(f"{name} must be {expected}; got shape {arr.shape}.")
    if arr.size < 2:
        raise ValueError(
            f"{test} needs at least 2 data sets; got {name} with {arr.size}."
        )
    return check_finite(arr.astype(np.float64), name=name)


def _check_split_differences(values, *, test, name="split_differences"):
    """``values`` as a finite float array of shape (n_datasets, n_splits)."""
    arr = check_differences(values, min_splits=2, test=test, name=name)
    if arr.ndim != 2 or arr.shape[0] < 1:
        raise ValueError(
            f"{name} must be a 2-D array of shape (n_datasets, n_splits); got "
            f"shape {np.shape(values)}."
        )
    return arr


def check_dataset_sizes(value, n_datasets, *, name):
    """A positive size, or one positive size per data set (shape (n_datasets,))."""
    if np.ndim(value) == 0:
        return check_size(value.item() if hasattr(value, "item") else value, name=name)
    expected = f"a positive number or an array of shape ({n_datasets},)"
    arr = as_numeric_array(value, name=name, expected=expected)
    if (
        not is_real_dtype(arr.dtype)
        or arr.dtype == bool
        or arr.shape != (n_datasets,)
        or not np.all(np.isfinite(arr))
        or not np.all(arr > 0)
    ):
        raise ValueError(
            f"{name} must be {expected} (one per data set), finite and > 0; got "
            f"{value!r}."
        )
    return arr.astype(np.float64)


def _check_control(control, k):
    """None, or a column index of ``scores`` in [0, k)."""
    if control is None:
        return None
    if (
        isinstance(control, bool)
        or not isinstance(control, Integral)
        or not 0 <= control < k
    ):
        raise ValueError(
            f"control must be None or the column index of the control estimator, "
            f"an integer in [0, {k}); got {control!r}."
        )
    return int(control)


#: The most Monte Carlo values the Bayesian tests draw at once, n_samples ×
#: (data sets + 1) float32 (1 GiB): memory grows with them, never the
#: machine's whole memory. Their Monte Carlo error, below 1/(2·√n_samples),
#: is under 1e-4 long before.
MAX_DRAWS = 2**28


def _check_n_samples(n_samples, n_datasets=1):
    if (
        isinstance(n_samples, bool)
        or not isinstance(n_samples, Integral)
        or n_samples < 1
    ):
        raise ValueError(f"n_samples must be an integer >= 1; got {n_samples!r}.")
    if n_samples * (n_datasets + 1) > MAX_DRAWS:
        raise ValueError(
            f"n_samples × (data sets + 1) must be at most {MAX_DRAWS} (1 GiB of "
            f"draws); got n_samples={n_samples} for {n_datasets} data set"
            f"{'s' if n_datasets != 1 else ''}. Its Monte Carlo error is below "
            "1/(2·sqrt(n_samples)) already."
        )
    return int(n_samples)


def _check_prior_weight(prior_weight):
    return check_real(
        prior_weight,
        name="prior_weight",
        expected="a finite number > 0",
        is_valid=lambda s: s > 0,
    )


# --------------------------------------------------------------------------
# Ranks
# --------------------------------------------------------------------------


def _rank_table(scores):
    """``(scores, ranks, mean_ranks)``; ranks 1 = best, ties averaged."""
    scores = check_score_table(scores)
    ranks = rank_scores(scores)
    return scores, ranks, ranks.mean(axis=0)


def _tie_sum(scores):
    """``Σ_i Σ_groups (t³ − t)`` over the groups of tied scores of each row."""
    ordered = np.sort(scores, axis=1)
    starts = np.ones(ordered.shape, dtype=bool)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    sizes = np.bincount(np.cumsum(starts.ravel()) - 1).astype(np.int64)
    return int(np.sum(sizes**3 - sizes))


def _friedman_terms(scores, ranks):
    """Exact integer parts of the tie-corrected Friedman statistic.

    With ``U_j = 2·Σ_i ranks[i, j]`` (integers: average ranks are multiples
    of 1/2), ``spread = k·Σ_j U_j² − (Σ_j U_j)²`` and
    ``denominator = N(k³ − k) − Σ (t³ − t)`` (the tie-corrected total),
    ``chi2_F = 3(k − 1)·spread / (k·denominator)``.
    """
    n_datasets, k = scores.shape
    doubled = np.rint(2.0 * ranks.sum(axis=0)).astype(np.int64)
    spread = k * int(np.sum(doubled**2)) - int(doubled.sum()) ** 2
    denominator = n_datasets * (k**3 - k) - _tie_sum(scores)
    return spread, denominator


def _concordance_probability(scores):
    """P(every data set ranks the k estimators as the first one does) under
    H0, each data set's arrangement of its tied groups equally likely."""
    n_datasets, k = scores.shape
    log_p = 0.0
    for row in scores[1:]:
        _, sizes = np.unique(row, return_counts=True)
        log_p += float(np.sum(special.gammaln(sizes + 1.0)) - special.gammaln(k + 1.0))
    return float(np.exp(log_p))


def _pair_matrix(k, pairs, values, *, symmetric, fill):
    """A (k, k) array with ``values`` at ``pairs`` (and mirrored), ``fill`` else."""
    out = np.full((k, k), fill, dtype=np.float64)
    rows, cols = pairs
    out[rows, cols] = values
    out[cols, rows] = values if symmetric else -values
    return out


# --------------------------------------------------------------------------
# k estimators at once: Friedman and the post hoc rank tests
# --------------------------------------------------------------------------


@register_test("friedman", needs="scores", kind="datasets", alternatives=_TWO_SIDED)
def friedman(scores, *, alpha=0.05, alternative="two-sided"):
    """Friedman test of k estimators across data sets, with Iman–Davenport's F.

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

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            The tie-corrected Friedman statistic ``chi2_F`` (as
            :func:`scipy.stats.friedmanchisquare`).
        pvalue : float
            ``chi2.sf(chi2_F, k - 1)``.
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
    bonferroni_dunn, holm : The post hoc tests against a control.

    Notes
    -----
    With ``R_j`` the mean ranks over the N data sets (Friedman 1937; Demšar
    2006, §3.2.2),

    .. math:: \\chi^2_F = \\frac{12N}{k(k+1)} \\Big(\\sum_j R_j^2 -
              \\frac{k(k+1)^2}{4}\\Big) \\Big/ \\Big(1 - \\frac{\\sum_i
              \\sum_{\\text{groups}} (t^3 - t)}{N(k^3 - k)}\\Big),

    the denominator correcting for the groups of t tied scores on each data
    set; ``chi2_F`` is referred to chi-squared(k − 1). Iman and Davenport
    (1980) showed this to be conservative and proposed

    .. math:: F_F = \\frac{(N - 1)\\,\\chi^2_F}{N(k - 1) - \\chi^2_F},

    referred to F(k − 1, (k − 1)(N − 1)). Demšar recommends F_F; both are
    reported. Demšar prints the statistics without the tie correction: his
    Table 6 gives ``chi2_F = 9.28`` and ``F_F = 3.69``, which become 10.23
    and 4.19 with it (the example below).

    Both statistics are computed from exact integers (twice the rank sums
    and the tie counts), so the degenerate cases are detected exactly: when
    every data set ties all the estimators, ``chi2_F`` is 0 with p-value 1
    (so is ``F_F``); when every data set ranks the estimators the same way,
    ``F_F``'s denominator is 0 and ``F_F`` is infinite. Its p-value is then
    not the F distribution's 0 but the exact probability, under the null
    hypothesis, that all N data sets rank the estimators alike:
    ``(1/k!)^(N - 1)`` without ties (1/36 for three estimators on three data
    sets), ``Π_{i >= 2} Π_groups t! / k!`` with them. With so few data sets
    the F approximation says nothing sound, and 0 would overstate the
    evidence.

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
    >>> round(result.statistic, 3), result.df, round(result.pvalue, 4)
    (10.228, 3, 0.0167)
    >>> iman = result.iman_davenport
    >>> round(iman.statistic, 2), iman.df, round(iman.pvalue, 4)
    (4.19, (3, 39), 0.0116)
    """
    test = "friedman"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test, allowed=_TWO_SIDED)
    scores, ranks, mean_ranks = _rank_table(scores)
    n_datasets, k = scores.shape
    spread, denominator = _friedman_terms(scores, ranks)
    # 0/0 (every data set ties every estimator) -> statistic 0, p-value 1.
    statistic = safe_divide(3.0 * (k - 1) * spread, float(k * denominator))
    pvalue = 1.0 if spread == 0 else chi2_sf(statistic, k - 1)
    # F_F = 3(N − 1)·spread / (N·k·denominator − 3·spread), exactly.
    id_denominator = n_datasets * k * denominator - 3 * spread
    id_statistic = safe_divide(3.0 * (n_datasets - 1) * spread, float(id_denominator))
    id_df = (k - 1, (k - 1) * (n_datasets - 1))
    if spread == 0:
        id_pvalue = 1.0
    elif id_denominator == 0:
        id_pvalue = _concordance_probability(scores)
    else:
        id_pvalue = f_sf(id_statistic, *id_df)
    iman_davenport = Bunch(
        statistic=float(id_statistic),
        pvalue=float(id_pvalue),
        df=id_df,
        reject=bool(id_pvalue < alpha),
    )
    return make_result(
        test=test,
        statistic=statistic,
        pvalue=pvalue,
        df=k - 1,
        alpha=alpha,
        alternative=alternative,
        iman_davenport=iman_davenport,
        ranks=ranks,
        mean_ranks=mean_ranks,
        n_datasets=n_datasets,
    )


def _check_continuity(continuity):
    check_bool(continuity, name="continuity")


@register_test(
    "nemenyi",
    needs="scores",
    kind="datasets",
    alternatives=_TWO_SIDED,
    param_check=_check_continuity,
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
        of mean ranks (half a step of the rank sums), which keeps the
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
    tried (``doc/reproduction.rst``), at some cost in power.

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
    scores, _, mean_ranks = _rank_table(scores)
    n_datasets, k = scores.shape
    se = rank_std_error(k, n_datasets)
    pairs = np.triu_indices(k, 1)
    _check_continuity(continuity)
    correction = 0.5 / n_datasets if continuity else 0.0
    gap = np.abs(mean_ranks[pairs[0]] - mean_ranks[pairs[1]])
    q = np.maximum(gap - correction, 0.0) * np.sqrt(2.0) / se
    p = np.where(
        q == 0, 1.0, np.clip(stats.studentized_range.sf(q, k, np.inf), 0.0, 1.0)
    )
    statistic = _pair_matrix(k, pairs, q, symmetric=True, fill=0.0)
    pvalue = _pair_matrix(k, pairs, p, symmetric=True, fill=1.0)
    tested = ~np.eye(k, dtype=bool)
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
        mean_ranks=mean_ranks,
    )


def _rank_z_test(scores, control, alpha, alternative, *, test, correction):
    """Bonferroni–Dunn / Holm on the rank z statistics (shared body)."""
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test, allowed=_TWO_SIDED)
    scores, _, mean_ranks = _rank_table(scores)
    n_datasets, k = scores.shape
    control = _check_control(control, k)
    se = rank_std_error(k, n_datasets)
    if control is None:
        pairs = np.triu_indices(k, 1)
    else:
        others = np.array([j for j in range(k) if j != control], dtype=np.intp)
        pairs = (others, np.full(others.shape, control, dtype=np.intp))
    # z[a, b] = (R_b − R_a) / se: positive when A has the better (lower) rank.
    z = (mean_ranks[pairs[1]] - mean_ranks[pairs[0]]) / se
    p = np.minimum(1.0, 2.0 * special.ndtr(-np.abs(z)))
    p_adjusted = adjust_pvalues(p, correction)
    tested = _pair_matrix(k, pairs, 1.0, symmetric=True, fill=0.0).astype(bool)
    pvalue_adjusted = _pair_matrix(k, pairs, p_adjusted, symmetric=True, fill=1.0)
    extra = {}
    if correction == "bonferroni":
        extra["critical_difference"] = critical_difference(
            k, n_datasets, alpha, "bonferroni_dunn", n_comparisons=len(z)
        )
    return make_result(
        test=test,
        statistic=_pair_matrix(k, pairs, z, symmetric=False, fill=0.0),
        pvalue=_pair_matrix(k, pairs, p, symmetric=True, fill=1.0),
        df=None,
        alpha=alpha,
        alternative=alternative,
        reject=(pvalue_adjusted < alpha) & tested,
        pvalue_adjusted=pvalue_adjusted,
        tested=tested,
        control=control,
        n_comparisons=len(z),
        **extra,
        mean_ranks=mean_ranks,
    )


@register_test(
    "bonferroni_dunn", needs="scores", kind="datasets", alternatives=_TWO_SIDED
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


@register_test("holm", needs="scores", kind="datasets", alternatives=_TWO_SIDED)
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


# --------------------------------------------------------------------------
# One pair at a time: frequentist tests on the per-data-set differences
# --------------------------------------------------------------------------


def _check_zero_method(zero_method):
    if not isinstance(zero_method, str) or zero_method not in _ZERO_METHODS:
        raise ValueError(
            f"zero_method must be one of {list(_ZERO_METHODS)}; got {zero_method!r}."
        )


@register_test(
    "wilcoxon",
    needs="dataset_differences",
    kind="datasets",
    param_check=_check_zero_method,
)
def wilcoxon(
    dataset_differences, *, alpha=0.05, alternative="two-sided", zero_method="wilcox"
):
    """Wilcoxon signed-rank test of two estimators across data sets.

    Parameters
    ----------
    dataset_differences : array-like of shape (n_datasets,)
        ``score_a - score_b`` on each data set (e.g. the difference of the
        mean cross-validated scores); at least 2 data sets, finite.
    alpha : float, default=0.05
        Significance level of ``reject``.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: A is better than B (the differences are centred above
        0); ``"less"``: B is better.
    zero_method : {"wilcox", "pratt", "zsplit"}, default="wilcox"
        What to do with zero differences (ties), as
        :func:`scipy.stats.wilcoxon`: ``"wilcox"`` drops them, ``"pratt"``
        ranks them and then drops them, ``"zsplit"`` splits their ranks
        evenly between the positive and negative sums (Demšar's choice).

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            :func:`scipy.stats.wilcoxon`'s statistic: ``min(R+, R-)`` for
            the two-sided test, ``R+`` (the rank sum of the data sets on
            which A is better) for a one-sided one.
        pvalue : float
            The p-value of :func:`scipy.stats.wilcoxon` (exact for small
            samples without ties or zeros, else the normal approximation).
        df : None
        reject : bool
            ``pvalue < alpha``.
        n_datasets : int
            The number of data sets, zeros included.
        zero_method : str
            The input.
        min_pvalue : float
            The smallest p-value the exact test can give with these data
            sets: ``2^-n`` one-sided, twice that two-sided, n the ranked
            differences (on 5 data sets 0.0625 two-sided: it cannot reject at
            0.05 whatever the scores).
        alternative, alpha, test : the inputs and ``"wilcoxon"``.

    See Also
    --------
    sign : The sign test on the same differences.
    bayesian_signed_rank : Its Bayesian counterpart.

    Notes
    -----
    The absolute differences ``|d_i|`` are ranked (ties averaged);
    ``R+`` sums the ranks of the data sets on which A is better, ``R-``
    those on which B is. Demšar (2006, §3.1.3) recommends the test for two
    classifiers on multiple data sets: unlike the paired t test it does not
    assume normal differences or commensurable scores across data sets, and
    outliers weigh less. The data sets, not the splits, are the independent
    units, so the differences should be one number per data set.

    When every difference is 0 there is no evidence either way: statistic
    0 and p-value 1 (scipy would divide 0 by 0 there).

    References
    ----------
    .. [1] F. Wilcoxon, "Individual comparisons by ranking methods",
       Biometrics Bulletin 1(6):80-83, 1945.
    .. [2] J. Demšar, "Statistical comparisons of classifiers over multiple
       data sets", Journal of Machine Learning Research 7:1-30, 2006.

    Examples
    --------
    Demšar's Table 2: AUC of C4.5+m minus C4.5 on 14 data sets. With the
    zeros split, ``R+ = 93`` and ``R- = 12`` as in the paper:

    >>> import numpy as np
    >>> from sklearn_bcv.stats import wilcoxon
    >>> c45 = np.array([0.763, 0.599, 0.954, 0.628, 0.882, 0.936, 0.661,
    ...                 0.583, 0.775, 1.000, 0.940, 0.619, 0.972, 0.957])
    >>> c45m = np.array([0.768, 0.591, 0.971, 0.661, 0.888, 0.931, 0.668,
    ...                  0.583, 0.838, 1.000, 0.962, 0.666, 0.981, 0.978])
    >>> result = wilcoxon(c45m - c45, zero_method="zsplit")
    >>> result.statistic, round(result.pvalue, 4), result.reject
    (12.0, 0.011, True)
    >>> wilcoxon(c45m - c45, zero_method="zsplit", alternative="greater").statistic
    93.0
    """
    test = "wilcoxon"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test)
    _check_zero_method(zero_method)
    d = _check_dataset_differences(dataset_differences, test=test)
    if zero_method != "zsplit" and not np.any(d):
        statistic, pvalue = 0.0, 1.0
    else:
        found = stats.wilcoxon(d, zero_method=zero_method, alternative=alternative)
        statistic, pvalue = float(found.statistic), float(found.pvalue)
    n_ranked = d.size if zero_method != "wilcox" else int(np.count_nonzero(d))
    return make_result(
        test=test,
        statistic=statistic,
        pvalue=min(1.0, pvalue),
        df=None,
        alpha=alpha,
        alternative=alternative,
        n_datasets=d.size,
        zero_method=zero_method,
        min_pvalue=_smallest_pvalue(n_ranked, alternative),
    )


def _smallest_pvalue(n, alternative):
    """The smallest p-value of an exact test on ``n`` signs (every one on
    the same side): ``2^-n`` one-sided, twice that two-sided.

    For the signed-rank test it is the exact one with ``n`` nonzero
    differences without ties (scipy's normal approximation, for n > 50, is
    smaller still): tells when a test cannot reject at ``alpha`` at all.
    """
    factor = 2.0 if alternative == "two-sided" else 1.0
    return float(min(1.0, factor * 0.5**n))


@register_test("sign", needs="dataset_differences", kind="datasets")
def sign(dataset_differences, *, alpha=0.05, alternative="two-sided"):
    """Sign test of two estimators across data sets (wins and losses).

    Parameters
    ----------
    dataset_differences : array-like of shape (n_datasets,)
        ``score_a - score_b`` on each data set; at least 2 data sets,
        finite.
    alpha : float, default=0.05
        Significance level of ``reject``.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: A wins on more than half the data sets;
        ``"less"``: B does.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : int
            A's count in the binomial test: its wins plus half the ties
            (``wins + ties // 2``).
        pvalue : float
            ``scipy.stats.binomtest(statistic, n, 0.5, alternative)`` with
            ``n = wins + losses + 2 * (ties // 2)``.
        df : None
        reject : bool
            ``pvalue < alpha``.
        wins, losses, ties : int
            The data sets on which A is better (``d > 0``), worse
            (``d < 0``), and those with ``d == 0``.
        n_trials : int
            n.
        min_pvalue : float
            The smallest p-value the test can give with n trials: ``2^-n``
            one-sided, twice that two-sided.
        alternative, alpha, test : the inputs and ``"sign"``.

    See Also
    --------
    wilcoxon : Uses the size of the differences, not only their sign.
    bayesian_sign : Its Bayesian counterpart, with a rope.

    Notes
    -----
    Under the null hypothesis each estimator wins on a data set with
    probability 1/2, so A's wins are binomial (Demšar 2006, §3.1.3). Ties
    support the null hypothesis: they are split evenly between the two
    estimators, and an odd one is dropped. The p-value is the exact binomial
    one; Demšar's table of critical numbers of wins uses the normal
    approximation and can differ at the boundary (11 wins of 14 is
    "significant" in his Table 3 at 0.05, with exact two-sided p = 0.057).

    References
    ----------
    .. [1] J. Demšar, "Statistical comparisons of classifiers over multiple
       data sets", Journal of Machine Learning Research 7:1-30, 2006.

    Examples
    --------
    Demšar's Table 2 (see :func:`wilcoxon`): C4.5+m wins on 10 data sets,
    loses on 2, ties on 2, so it counts 11 of 14.

    >>> import numpy as np
    >>> from sklearn_bcv.stats import sign
    >>> c45 = np.array([0.763, 0.599, 0.954, 0.628, 0.882, 0.936, 0.661,
    ...                 0.583, 0.775, 1.000, 0.940, 0.619, 0.972, 0.957])
    >>> c45m = np.array([0.768, 0.591, 0.971, 0.661, 0.888, 0.931, 0.668,
    ...                  0.583, 0.838, 1.000, 0.962, 0.666, 0.981, 0.978])
    >>> result = sign(c45m - c45)
    >>> result.wins, result.losses, result.ties, result.statistic
    (10, 2, 2, 11)
    >>> round(result.pvalue, 4)
    0.0574
    >>> round(sign(c45m - c45, alternative="greater").pvalue, 4)
    0.0287
    """
    test = "sign"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test)
    d = _check_dataset_differences(dataset_differences, test=test)
    wins = int(np.count_nonzero(d > 0))
    losses = int(np.count_nonzero(d < 0))
    ties = d.size - wins - losses
    statistic = wins + ties // 2
    n_trials = wins + losses + 2 * (ties // 2)
    pvalue = (
        stats.binomtest(statistic, n_trials, 0.5, alternative=alternative).pvalue
        if n_trials
        else 1.0
    )
    return make_result(
        test=test,
        statistic=statistic,
        pvalue=min(1.0, float(pvalue)),
        df=None,
        alpha=alpha,
        alternative=alternative,
        wins=wins,
        losses=losses,
        ties=ties,
        n_trials=n_trials,
        min_pvalue=_smallest_pvalue(n_trials, alternative),
    )


# --------------------------------------------------------------------------
# The Poisson-binomial test (seed 002 §3)
# --------------------------------------------------------------------------


def _poisson_binomial_pmf(probabilities):
    """Exact pmf of the number of successes of independent Bernoulli(p_i).

    The recursion ``P_j(x) = P_{j-1}(x)(1 - p_j) + P_{j-1}(x - 1) p_j``,
    one vectorised step per trial: O(q²) operations, no sampling, every
    entry a sum of non-negative terms (no cancellation).
    """
    p = np.asarray(probabilities, dtype=np.float64)
    pmf = np.zeros(p.size + 1)
    pmf[0] = 1.0
    for j, p_j in enumerate(p):
        head = pmf[: j + 2]
        shifted = head[:-1] * p_j
        head *= 1.0 - p_j
        head[1:] += shifted
    return pmf


def _outcome_probabilities(pmf):
    """``P(X > q/2)``, ``P(X = q/2)``, ``P(X < q/2)`` of a pmf over 0..q."""
    q = pmf.size - 1
    twice = 2 * np.arange(q + 1)
    p_a_better = float(np.clip(pmf[twice > q].sum(), 0.0, 1.0))
    p_rope = float(np.clip(pmf[twice == q].sum(), 0.0, 1.0))
    p_b_better = float(np.clip(pmf[twice < q].sum(), 0.0, 1.0))
    return p_a_better, p_rope, p_b_better


@register_test(
    "poisson_binomial",
    needs=("split_differences", "n_train", "n_test"),
    kind="datasets",
)
def poisson_binomial(
    split_differences, n_train, n_test, *, alpha=0.05, alternative="two-sided"
):
    """Poisson-binomial test of two estimators across data sets (seed 002).

    Parameters
    ----------
    split_differences : array-like of shape (n_datasets, n_splits)
        ``score_a - score_b`` on each split of each data set's
        cross-validation (at least 2 splits), finite. With one data set the
        test is :func:`bayesian_correlated_t` on it.
    n_train : float or array-like of shape (n_datasets,)
        Training records per split on each data set (the mean where it
        varies), one value for all or one per data set.
    n_test : float or array-like of shape (n_datasets,)
        Test records per split, likewise.
    alpha : float, default=0.05
        A posterior probability above ``1 - alpha`` is a decision.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        Which decisions ``reject`` reports: ``"two-sided"`` either
        ``p_a_better > 1 - alpha`` or ``p_b_better > 1 - alpha``;
        ``"greater"`` only A better (seed 002's one-sided use); ``"less"``
        only B better.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            ``E[X] = Σ_i p_i``, the expected number of data sets on which A
            is better.
        pvalue : None
            The output is posterior probabilities.
        df : None
        p_a_better : float
            ``P(X > q/2)``: A is better on more than half the data sets.
        p_rope : float
            ``P(X = q/2)`` (0 when q is odd): a draw.
        p_b_better : float
            ``P(X < q/2)``: B is better on more than half.
        reject : bool
            A decision at level ``1 - alpha`` as ``alternative`` says.
        p_datasets : ndarray of shape (n_datasets,)
            ``p_i``, the posterior probability that A is better on data set
            i (Bayesian correlated t test, rope 0).
        pmf : ndarray of shape (n_datasets + 1,)
            ``P(X = x)``, x = 0 ... q.
        n_datasets : int
            q.
        alternative, alpha, test : the inputs and ``"poisson_binomial"``.

    See Also
    --------
    bayesian_correlated_t : The test on one data set that gives each p_i.
    bayesian_signed_rank : Ignores the uncertainty within each data set.

    Notes
    -----
    On data set i the Bayesian correlated t test (Corani and Benavoli 2015)
    gives a Student t posterior of the mean difference ``mu_i`` that
    accounts for the correlation of the cross-validation splits
    (``rho = n_test / (n_train + n_test)``);
    ``p_i = P(mu_i > 0) + P(mu_i = 0) / 2``. The second term matters only
    when the differences of a data set are all 0 (the posterior is then a
    point mass at 0 and ``p_i = 1/2``), so identical estimators never make
    either one better. Each data set is an independent Bernoulli trial won
    by A with probability ``p_i``, and the number X of data sets A wins is
    Poisson-binomial (seed 002 §3.1; Lacoste et al. 2012), its pmf computed
    exactly by the recursion ``P_j(x) = P_{j-1}(x)(1 - p_j) +
    P_{j-1}(x - 1) p_j``. A is declared better when
    ``P(X > q/2) > 1 - alpha``. Seed 002 writes it for the second classifier
    being better; here A is the first and the sides are named accordingly.

    Unlike :func:`wilcoxon` and :func:`bayesian_signed_rank`, which see one
    number per data set, the test weighs each data set by how certain its
    cross-validation result is; its inference is about the q data sets at
    hand rather than the population they come from.

    References
    ----------
    .. [1] G. Corani, A. Benavoli, "A Bayesian approach for comparing
       cross-validated algorithms on multiple data sets", Machine Learning
       100(2):285-304, 2015.
    .. [2] A. Lacoste, F. Laviolette, M. Marchand, "Bayesian comparison of
       machine learning algorithms on single and multiple datasets",
       AISTATS 2012.
    .. [3] Y. Hong, "On computing the distribution function for the Poisson
       binomial distribution", Computational Statistics & Data Analysis
       59:41-51, 2013.

    Examples
    --------
    Three data sets, 10-fold CV of 100 records on each; on the third the
    two estimators make the same predictions (every difference 0), which
    counts as half a win each:

    >>> import numpy as np
    >>> from sklearn_bcv.stats import poisson_binomial
    >>> d = np.array([
    ...     [0.02, 0.01, 0.03, 0.02, 0.02, 0.04, 0.00, 0.01, 0.03, 0.02],
    ...     [0.01, -0.01, 0.02, 0.00, 0.01, 0.03, -0.02, 0.01, 0.00, 0.02],
    ...     [0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00]])
    >>> result = poisson_binomial(d, n_train=90, n_test=10)
    >>> result.p_datasets.round(3).tolist()
    [0.998, 0.833, 0.5]
    >>> result.pmf.round(4).tolist()
    [0.0002, 0.0846, 0.4998, 0.4154]
    >>> round(result.p_a_better, 3), round(result.p_b_better, 3), result.reject
    (0.915, 0.085, False)
    """
    test = "poisson_binomial"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test)
    d = _check_split_differences(split_differences, test=test)
    n_datasets = d.shape[0]
    n_train = check_dataset_sizes(n_train, n_datasets, name="n_train")
    n_test = check_dataset_sizes(n_test, n_datasets, name="n_test")
    # Each data set's p_i is scale invariant (rope 0): computed on its own
    # differences divided by a power of two, it never overflows.
    loc, scale, df, _ = scaled_correlated_t_posterior(d, n_train, n_test, test=test)
    p_a, _, _ = _posterior_probabilities(loc, scale, df, 0.0)
    p_datasets = np.where((scale == 0) & (loc == 0), 0.5, p_a)
    pmf = _poisson_binomial_pmf(p_datasets)
    p_a_better, p_rope, p_b_better = _outcome_probabilities(pmf)
    return make_result(
        test=test,
        statistic=float(p_datasets.sum()),
        pvalue=None,
        df=None,
        alpha=alpha,
        alternative=alternative,
        reject=posterior_decision(p_a_better, p_b_better, alpha, alternative),
        p_a_better=p_a_better,
        p_rope=p_rope,
        p_b_better=p_b_better,
        p_datasets=p_datasets,
        pmf=pmf,
        n_datasets=n_datasets,
    )


# --------------------------------------------------------------------------
# Bayesian signed-rank and sign tests: Monte Carlo draws
# --------------------------------------------------------------------------

_CACHE_LOCK = threading.Lock()
# The last Exp(1) draw, (entropy, n_datasets, n_samples) -> float32 array
# (n_datasets, n_samples): 20 MB for 100 data sets and 50,000 samples.
_EXPONENTIALS = {}
# The last few Gamma(prior_weight) draws of the pseudo-observation.
_GAMMAS = {}
_MAX_GAMMAS = 4
# Draws larger than this many values are not kept, and the signed-rank
# staircase runs over blocks of samples of about this many values.
_MAX_VALUES = 2**24


def _entropy(random_state):
    """Seed material drawn from ``random_state``; whether it is reproducible.

    An int seeds a fresh RandomState (:func:`~sklearn.utils.check_random_state`),
    so the entropy, and everything drawn from it, is the same every call.
    """
    rng = check_random_state(random_state)
    entropy = tuple(int(v) for v in rng.randint(0, 2**32, size=4, dtype=np.uint64))
    reproducible = isinstance(random_state, Integral) and not isinstance(
        random_state, bool
    )
    return entropy, reproducible


def _generator(entropy, stream):
    seeds = np.random.SeedSequence(entropy, spawn_key=(stream,))
    return np.random.Generator(np.random.PCG64(seeds))


def _cached(cache, key, draw, *, keep, max_size):
    """``cache[key]``, drawing (and, when ``keep``, storing) it on a miss."""
    with _CACHE_LOCK:
        found = cache.get(key)
    if found is not None:
        return found
    found = draw()
    found.flags.writeable = False
    if keep:
        with _CACHE_LOCK:
            while len(cache) >= max_size:
                del cache[next(iter(cache))]
            cache[key] = found
    return found


def _dirichlet_parts(n_datasets, prior_weight, n_samples, random_state):
    """Unnormalised weights of ``Dirichlet(s, 1, ..., 1)``: the pseudo-observation's
    ``Gamma(s)`` draws (n_samples,) and the data sets' ``Exp(1)`` draws
    (n_datasets, n_samples), float32, read-only.

    The two come from independent streams of one seed, so a pair of tests
    with different prior weights shares the data sets' draws.
    """
    _check_n_samples(n_samples, n_datasets)
    entropy, keep = _entropy(random_state)
    keep = keep and n_datasets * n_samples <= _MAX_VALUES
    exponentials = _cached(
        _EXPONENTIALS,
        (entropy, n_datasets, n_samples),
        lambda: _generator(entropy, 0).standard_exponential(
            (n_datasets, n_samples), dtype=np.float32
        ),
        keep=keep,
        max_size=1,
    )
    gammas = _cached(
        _GAMMAS,
        (entropy, prior_weight, n_samples),
        lambda: _generator(entropy, 1).standard_gamma(
            prior_weight, n_samples, dtype=np.float32
        ),
        keep=keep,
        max_size=_MAX_GAMMAS,
    )
    return gammas, exponentials


def _staircase_sum(prefix, sorted_rows, thresholds, low, high, out):
    """``out += Σ_{low <= i < high} v_i · P[thresholds[i]]``, merging runs.

    ``v_i = sorted_rows[i]`` and ``P`` = ``prefix`` its prefix sums; the
    consecutive rows sharing a threshold add ``(P[e] - P[s]) · P[t]`` at
    once.
    """
    if high <= low:
        return out
    tmp = np.empty_like(out)
    cuts = np.flatnonzero(np.diff(thresholds[low:high])) + 1 + low
    for start, stop in zip(np.r_[low, cuts], np.r_[cuts, high]):
        t = thresholds[start]
        if stop - start == 1:
            np.multiply(sorted_rows[start], prefix[t], out=tmp)
        else:
            np.subtract(prefix[stop], prefix[start], out=tmp)
            tmp *= prefix[t]
        out += tmp
    return out


def _signed_rank_theta(z, rows, rope):
    """``(θ_A, θ_rope, θ_B)`` of the Bayesian signed-rank test, (3, n_samples).

    ``θ_A = Σ_{i,j} w_i w_j [z_i + z_j > 2 rope]``, ``θ_B`` likewise with
    ``< -2 rope``, ``θ_rope`` the rest, for the weights ``w = rows / Σ rows``
    of each sample. In the order of sorted ``z`` the pairs counted by
    ``θ_A`` are, for each i, a suffix ``j >= t_i`` with ``t_i``
    non-increasing (a staircase), so with ``P`` the prefix sums of the
    sorted weights, ``Σ_{i,j} = Σ_i w_i (P[q] - P[t_i])``: O(q) per sample
    instead of O(q²); rows entirely inside or outside the staircase cost
    O(1) together.
    """
    n = z.size
    order = np.argsort(z, kind="stable")
    zs = z[order]
    sums = zs[:, None] + zs[None, :]  # the comparisons baycomp makes, exactly
    start_a = n - np.count_nonzero(sums > 2.0 * rope, axis=1)  # non-increasing
    stop_b = np.count_nonzero(sums < -2.0 * rope, axis=1)  # non-increasing
    sorted_rows = [rows[i] for i in order]
    n_samples = sorted_rows[0].size
    prefix = np.empty((n + 1, n_samples), dtype=np.float32)
    prefix[0] = 0.0
    for k, row in enumerate(sorted_rows):
        np.add(prefix[k], row, out=prefix[k + 1])
    total = prefix[n]
    # A better: rows i >= first_a take part; rows with 0 < t_i < n partly.
    first_a = n - int(np.count_nonzero(start_a < n))
    first_full_a = n - int(np.count_nonzero(start_a == 0))
    # B better: rows i < n_full_b entirely, rows up to the last s_i > 0 partly.
    n_full_b = int(np.count_nonzero(stop_b == n))
    end_b = int(np.count_nonzero(stop_b > 0))
    total_sq = total * total
    theta = np.empty((3, n_samples), dtype=np.float32)
    if rope == 0:
        # The rope is the pairs summing to exactly 0 (few, as a rule): sum
        # them directly, run the cheaper staircase, subtract for the other.
        theta[1] = _zero_sum_mass(zs, prefix)
        a_runs = _n_runs(start_a[first_a:first_full_a])
        b_runs = _n_runs(stop_b[n_full_b:end_b])
        if a_runs <= b_runs:
            theta[0] = _a_mass(prefix, sorted_rows, start_a, first_a, first_full_a)
            np.subtract(total_sq, theta[0], out=theta[2])
        else:
            theta[2] = _b_mass(prefix, sorted_rows, stop_b, n_full_b, end_b)
            np.subtract(total_sq, theta[2], out=theta[0])
        # The side computed by difference carries its rounding (~1e-7 of
        # the total); the rope mass is exact up to float32.
        theta[0 if a_runs > b_runs else 2] -= theta[1]
        np.maximum(theta, 0.0, out=theta)
    else:
        theta[0] = _a_mass(prefix, sorted_rows, start_a, first_a, first_full_a)
        theta[2] = _b_mass(prefix, sorted_rows, stop_b, n_full_b, end_b)
        np.maximum(theta[0], 0.0, out=theta[0])
        np.maximum(theta[2], 0.0, out=theta[2])
        np.maximum(total_sq - theta[0] - theta[2], 0.0, out=theta[1])
    theta /= total_sq
    return theta


def _without_overflow(z, rope):
    """``z`` and ``rope`` divided by 4 when ``z_i + z_j`` or ``2·rope`` could
    overflow (a magnitude of ``2**1021`` or more), else unchanged.

    The comparisons ``z_i + z_j > 2·rope`` are invariant to a common power
    of two, which is exact in floating point: the quarter sizes give the
    comparisons of the full ones, without an infinite sum.
    """
    if max(float(np.max(np.abs(z))), rope) < 2.0**1021:
        return z, rope
    with np.errstate(under="ignore"):
        return np.ldexp(z, -2), float(np.ldexp(rope, -2))


def _n_runs(thresholds):
    """Number of runs of equal values (each costs one staircase step)."""
    return int(np.count_nonzero(np.diff(thresholds))) + 1 if thresholds.size else 0


def _a_mass(prefix, sorted_rows, start_a, first_a, first_full_a):
    """``Σ_i w_i (P[q] - P[t_i])`` over the rows that take part (unnormalised)."""
    total = prefix[-1]
    partial = np.zeros_like(total)
    _staircase_sum(prefix, sorted_rows, start_a, first_a, first_full_a, partial)
    return total * (total - prefix[first_a]) - partial


def _b_mass(prefix, sorted_rows, stop_b, n_full_b, end_b):
    """``Σ_i w_i P[s_i]`` (unnormalised)."""
    mass = prefix[-1] * prefix[n_full_b]
    return _staircase_sum(prefix, sorted_rows, stop_b, n_full_b, end_b, mass)


def _zero_sum_mass(zs, prefix):
    """``Σ_{i,j} w_i w_j [z_i + z_j = 0]`` for sorted ``zs`` (unnormalised).

    A float sum is exactly 0 when ``z_j = -z_i``; the ties of a value are
    contiguous in sorted order, so a group's weight is ``P[e] - P[s]``.
    """
    values, starts, counts = np.unique(zs, return_index=True, return_counts=True)
    group = {v: (s, s + c) for v, s, c in zip(values.tolist(), starts, counts)}
    mass = np.zeros_like(prefix[0])
    for value, (start, stop) in group.items():
        if value < 0 or -value not in group:
            continue
        weight = prefix[stop] - prefix[start]
        if value == 0:
            mass += weight * weight
        else:
            other_start, other_stop = group[-value]
            mass += 2.0 * weight * (prefix[other_stop] - prefix[other_start])
    return mass


def _sign_theta(z, exponentials, gammas, rope):
    """``(θ_A, θ_rope, θ_B)`` of the Bayesian sign test, (3, n_samples).

    The weights of the data sets beyond the rope on either side, and of
    those inside it plus the pseudo-observation, summed and normalised: by
    the aggregation property a ``Dirichlet(n_A, n_rope + s, n_B)`` sample.
    """
    theta = np.zeros((3, gammas.size), dtype=np.float32)
    theta[1] = gammas
    side = np.where(z > rope, 0, np.where(z < -rope, 2, 1))
    for i, where in enumerate(side):
        theta[where] += exponentials[i]
    theta /= theta.sum(axis=0)
    return theta


def _winning_shares(theta):
    """The share of samples in which each θ is the largest (ties shared)."""
    is_top = theta == theta.max(axis=0)
    n_top = is_top.sum(axis=0)
    if np.all(n_top == 1):
        shares = is_top.mean(axis=1)
    else:
        shares = (is_top / n_top).mean(axis=1)
    return tuple(float(share) for share in shares)


def _check_monte_carlo(test, alpha, alternative, rope, prior_weight, n_samples):
    return (
        check_alpha(alpha),
        check_alternative(alternative, test=test),
        _check_rope(rope),
        _check_prior_weight(prior_weight),
        _check_n_samples(n_samples),
    )


def _check_bayesian_params(rope, prior_weight, n_samples, random_state):
    """The Bayesian tests' own parameters, checked before any fit."""
    _check_rope(rope)
    _check_prior_weight(prior_weight)
    _check_n_samples(n_samples)
    check_random_state(random_state)


def _monte_carlo_result(test, theta, d, *, alpha, alternative, rope, prior_weight):
    p_a_better, p_rope, p_b_better = _winning_shares(theta)
    statistic = float(np.mean(theta[0], dtype=np.float64)) - float(
        np.mean(theta[2], dtype=np.float64)
    )
    return make_result(
        test=test,
        statistic=statistic,
        pvalue=None,
        df=None,
        alpha=alpha,
        alternative=alternative,
        reject=posterior_decision(p_a_better, p_b_better, alpha, alternative),
        p_a_better=p_a_better,
        p_rope=p_rope,
        p_b_better=p_b_better,
        rope=rope,
        prior_weight=prior_weight,
        samples=np.ascontiguousarray(theta.T),
        n_datasets=d.size,
    )


@register_test(
    "bayesian_signed_rank",
    needs="dataset_differences",
    kind="datasets",
    param_check=_check_bayesian_params,
)
def bayesian_signed_rank(
    dataset_differences,
    *,
    alpha=0.05,
    alternative="two-sided",
    rope=0.0,
    prior_weight=0.5,
    n_samples=50000,
    random_state=None,
):
    """Bayesian signed-rank test of two estimators across data sets.

    Parameters
    ----------
    dataset_differences : array-like of shape (n_datasets,)
        ``score_a - score_b`` on each data set; at least 2 data sets,
        finite.
    alpha : float, default=0.05
        A posterior probability above ``1 - alpha`` is a decision.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        Which decisions ``reject`` reports: ``"two-sided"`` either
        ``p_a_better > 1 - alpha`` or ``p_b_better > 1 - alpha``;
        ``"greater"`` only the first (A better), ``"less"`` only the second.
    rope : float, default=0.0
        Half-width of the region of practical equivalence, in score units;
        finite and >= 0.
    prior_weight : float, default=0.5
        Weight ``s`` of the prior pseudo-observation ``z_0 = 0``; > 0.
    n_samples : int, default=50000
        Monte Carlo samples of the posterior; ``n_samples × (n_datasets +
        1)`` at most ``2**28`` (the draws are held in memory, 1 GiB then).
    random_state : int, RandomState instance or None, default=None
        Seeds the Monte Carlo sampling; an int gives the same result every
        call.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            The posterior mean of ``θ_A - θ_B`` (positive when A is better).
        pvalue : None
            The output is posterior probabilities.
        df : None
        p_a_better : float
            The posterior probability that ``θ_A`` (A better by more than
            ``rope``) is the largest of the three.
        p_rope : float
            That ``θ_rope`` is (practical equivalence).
        p_b_better : float
            That ``θ_B`` is.
        reject : bool
            A decision at level ``1 - alpha`` as ``alternative`` says.
        samples : ndarray of shape (n_samples, 3), float32
            The sampled ``(θ_A, θ_rope, θ_B)``, rows summing to 1: the
            points of baycomp's simplex plot
            (:class:`~sklearn_bcv.PosteriorSimplexDisplay`).
        rope, prior_weight : float
            The inputs.
        n_datasets : int
            q.
        alternative, alpha, test : the inputs and ``"bayesian_signed_rank"``.

    See Also
    --------
    wilcoxon : The frequentist signed-rank test.
    bayesian_sign : Counts the data sets on each side instead.
    poisson_binomial : Uses the splits of each data set.

    Notes
    -----
    Benavoli et al. (2017; 2014) place a Dirichlet process prior on the
    distribution of the difference ``z`` over data sets, with a
    pseudo-observation ``z_0 = 0`` of weight ``s``. Given the differences
    ``z_1, ..., z_q``, posterior samples are ``w ~ Dirichlet(s, 1, ..., 1)``
    and

    .. math:: \\theta_A = \\sum_{i,j=0}^{q} w_i w_j [z_i + z_j > 2r], \\quad
              \\theta_B = \\sum_{i,j=0}^{q} w_i w_j [z_i + z_j < -2r],

    ``θ_rope = 1 - θ_A - θ_B`` (the closed rope ``|z_i + z_j| <= 2r``): the
    posterior of the probabilities that the Walsh average of two
    differences lies beyond the rope on either side, or inside it.
    ``p_a_better`` is the share of samples in which ``θ_A`` is the largest
    (ties shared evenly), as baycomp's ``SignedRankTest(...).probs()``
    reports it (its first, "left", model is A).

    The rope is closed, as in the paper: a Walsh average of exactly ``±2r``
    counts in the rope, where baycomp counts half of it on the side. With
    ``rope=0`` baycomp splits each zero sum (the pseudo-observation paired
    with itself, zero differences) evenly between the sides, and breaks a
    tie of the sides in favour of the first model, so two identical models
    come out "first better" with probability 1; here zero sums are the rope
    and identical estimators give ``p_rope = 1``. Otherwise the two agree
    within Monte Carlo error.

    The samples are drawn as normalised ``Exp(1)`` (data sets) and
    ``Gamma(s)`` (pseudo-observation) variables in float32. They do not
    depend on the differences, so every pair of estimators over the same
    data sets with the same int ``random_state`` reuses one draw (cached).
    In sorted order the pairs with ``z_i + z_j > 2r`` form a staircase, and
    ``θ_A = Σ_i w_i·(suffix sum of w from t_i)`` takes O(q) per sample.

    References
    ----------
    .. [1] A. Benavoli, G. Corani, J. Demšar, M. Zaffalon, "Time for a
       change: a tutorial for comparing multiple classifiers through
       Bayesian analysis", Journal of Machine Learning Research
       18(77):1-36, 2017.
    .. [2] A. Benavoli, G. Corani, F. Mangili, M. Zaffalon, F. Ruggeri, "A
       Bayesian Wilcoxon signed-rank test based on the Dirichlet process",
       ICML 2014.

    Examples
    --------
    Demšar's Table 2 (see :func:`wilcoxon`), C4.5+m against C4.5:

    >>> import numpy as np
    >>> from sklearn_bcv.stats import bayesian_signed_rank
    >>> c45 = np.array([0.763, 0.599, 0.954, 0.628, 0.882, 0.936, 0.661,
    ...                 0.583, 0.775, 1.000, 0.940, 0.619, 0.972, 0.957])
    >>> c45m = np.array([0.768, 0.591, 0.971, 0.661, 0.888, 0.931, 0.668,
    ...                  0.583, 0.838, 1.000, 0.962, 0.666, 0.981, 0.978])
    >>> result = bayesian_signed_rank(c45m - c45, random_state=0)
    >>> [round(result[k], 2) for k in ("p_a_better", "p_rope", "p_b_better")]
    [1.0, 0.0, 0.0]
    >>> result.samples.shape, result.samples.dtype, result.reject
    ((50000, 3), dtype('float32'), True)

    C4.5+m is better, but by more than one AUC point only with probability
    0.67:

    >>> result = bayesian_signed_rank(c45m - c45, rope=0.01, random_state=0)
    >>> [round(result[k], 2) for k in ("p_a_better", "p_rope", "p_b_better")]
    [0.67, 0.33, 0.0]
    """
    test = "bayesian_signed_rank"
    alpha, alternative, rope, prior_weight, n_samples = _check_monte_carlo(
        test, alpha, alternative, rope, prior_weight, n_samples
    )
    d = _check_dataset_differences(dataset_differences, test=test)
    gammas, exponentials = _dirichlet_parts(
        d.size, prior_weight, n_samples, random_state
    )
    z, rows = np.r_[0.0, d], [gammas, *exponentials]
    z, walsh_rope = _without_overflow(z, rope)
    block = max(1, _MAX_VALUES // z.size)
    theta = np.empty((3, n_samples), dtype=np.float32)
    for start in range(0, n_samples, block):
        part = slice(start, start + block)
        theta[:, part] = _signed_rank_theta(z, [row[part] for row in rows], walsh_rope)
    return _monte_carlo_result(
        test,
        theta,
        d,
        alpha=alpha,
        alternative=alternative,
        rope=rope,
        prior_weight=prior_weight,
    )


@register_test(
    "bayesian_sign",
    needs="dataset_differences",
    kind="datasets",
    param_check=_check_bayesian_params,
)
def bayesian_sign(
    dataset_differences,
    *,
    alpha=0.05,
    alternative="two-sided",
    rope=0.0,
    prior_weight=1.0,
    n_samples=50000,
    random_state=None,
):
    """Bayesian sign test of two estimators across data sets.

    Parameters
    ----------
    dataset_differences : array-like of shape (n_datasets,)
        ``score_a - score_b`` on each data set; at least 2 data sets,
        finite.
    alpha : float, default=0.05
        A posterior probability above ``1 - alpha`` is a decision.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        Which decisions ``reject`` reports: ``"two-sided"`` either
        ``p_a_better > 1 - alpha`` or ``p_b_better > 1 - alpha``;
        ``"greater"`` only the first (A better), ``"less"`` only the second.
    rope : float, default=0.0
        Half-width of the region of practical equivalence, in score units;
        finite and >= 0.
    prior_weight : float, default=1.0
        Prior weight ``s`` put on the rope; > 0.
    n_samples : int, default=50000
        Monte Carlo samples of the posterior; ``n_samples × (n_datasets +
        1)`` at most ``2**28`` (the draws are held in memory, 1 GiB then).
    random_state : int, RandomState instance or None, default=None
        Seeds the Monte Carlo sampling; an int gives the same result every
        call.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            The posterior mean of ``θ_A - θ_B`` (positive when A is better).
        pvalue : None
            The output is posterior probabilities.
        df : None
        p_a_better : float
            The posterior probability that ``θ_A`` (the probability that A
            is better by more than ``rope`` on a data set) is the largest
            of the three.
        p_rope : float
            That ``θ_rope`` is (practical equivalence).
        p_b_better : float
            That ``θ_B`` is.
        reject : bool
            A decision at level ``1 - alpha`` as ``alternative`` says.
        samples : ndarray of shape (n_samples, 3), float32
            The sampled ``(θ_A, θ_rope, θ_B)``, rows summing to 1: the
            points of baycomp's simplex plot
            (:class:`~sklearn_bcv.PosteriorSimplexDisplay`).
        rope, prior_weight : float
            The inputs.
        n_datasets : int
            q.
        alternative, alpha, test : the inputs and ``"bayesian_sign"``.

    See Also
    --------
    sign : The frequentist sign test.
    bayesian_signed_rank : Also uses the size of the differences.

    Notes
    -----
    With ``n_A``, ``n_rope`` and ``n_B`` the data sets on which
    ``z = score_a - score_b`` is above ``rope``, inside ``[-rope, rope]``
    and below ``-rope``, the posterior of the probabilities of the three
    outcomes on a new data set is (Benavoli et al. 2017, a Dirichlet
    process with a pseudo-observation of weight ``s`` in the rope)

    .. math:: (\\theta_A, \\theta_{rope}, \\theta_B) \\sim
              \\mathrm{Dirichlet}(n_A, n_{rope} + s, n_B),

    sampled here as the sums of one Dirichlet(s, 1, ..., 1) draw over the
    three groups (the aggregation property), the draw that
    :func:`bayesian_signed_rank` uses too. ``p_a_better`` is the share of
    samples in which ``θ_A`` is the largest (ties shared evenly), as
    baycomp's ``SignTest(...).probs()`` (its first, "left", model is A;
    baycomp adds 0.0001 to each count, so that an empty outcome has a
    positive parameter; here an empty outcome has weight 0).

    References
    ----------
    .. [1] A. Benavoli, G. Corani, J. Demšar, M. Zaffalon, "Time for a
       change: a tutorial for comparing multiple classifiers through
       Bayesian analysis", Journal of Machine Learning Research
       18(77):1-36, 2017.

    Examples
    --------
    Demšar's Table 2 (see :func:`wilcoxon`), C4.5+m against C4.5: 10 wins,
    2 losses and 2 ties without a rope; with a rope of one AUC point, 6
    wins, 0 losses and 8 equivalences.

    >>> import numpy as np
    >>> from sklearn_bcv.stats import bayesian_sign
    >>> c45 = np.array([0.763, 0.599, 0.954, 0.628, 0.882, 0.936, 0.661,
    ...                 0.583, 0.775, 1.000, 0.940, 0.619, 0.972, 0.957])
    >>> c45m = np.array([0.768, 0.591, 0.971, 0.661, 0.888, 0.931, 0.668,
    ...                  0.583, 0.838, 1.000, 0.962, 0.666, 0.981, 0.978])
    >>> result = bayesian_sign(c45m - c45, random_state=0)
    >>> [round(result[k], 2) for k in ("p_a_better", "p_rope", "p_b_better")]
    [0.98, 0.02, 0.01]
    >>> result = bayesian_sign(c45m - c45, rope=0.01, random_state=0)
    >>> [round(result[k], 2) for k in ("p_a_better", "p_rope", "p_b_better")]
    [0.21, 0.79, 0.0]
    """
    test = "bayesian_sign"
    alpha, alternative, rope, prior_weight, n_samples = _check_monte_carlo(
        test, alpha, alternative, rope, prior_weight, n_samples
    )
    d = _check_dataset_differences(dataset_differences, test=test)
    gammas, exponentials = _dirichlet_parts(
        d.size, prior_weight, n_samples, random_state
    )
    theta = _sign_theta(d, exponentials, gammas, rope)
    return _monte_carlo_result(
        test,
        theta,
        d,
        alpha=alpha,
        alternative=alternative,
        rope=rope,
        prior_weight=prior_weight,
    )
