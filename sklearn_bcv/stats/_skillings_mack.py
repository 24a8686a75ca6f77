"""Rank tests of k estimators across data sets on a table with holes.

A results table often lacks a few cells: an estimator crashed or timed out
on a data set, or a paper printed no number for it. Friedman's test needs
every cell; dropping the data sets with a hole throws away the other
estimators' results there and biases the ranks towards the estimators that
fail on hard data sets. Here every observed cell is kept:

* :func:`skillings_mack` (Skillings & Mack 1981): Friedman's test for any
  pattern of holes, each data set ranking the estimators it has; with no
  hole it is Friedman's tie-corrected chi-squared.
* :func:`durbin` (Durbin 1951; Conover 1999): the classical test of a
  balanced incomplete block design (every data set has the same number of
  estimators, every estimator the same number of data sets, every pair of
  estimators the same number of data sets in common).
* :func:`skillings_mack_posthoc`: every pair (or every estimator against a
  control) by the difference of their Skillings–Mack adjusted rank sums,
  with a multiplicity correction.

Missing cells are NaN. Scores are higher-is-better; ranks are 1 = best
within the estimators a data set has, ties averaged by the tie rule of
:mod:`._ties`.
"""

import numpy as np
from scipy import special
from sklearn.utils import Bunch

from ._across_utils import (
    _TWO_SIDED,
    _check_control,
    check_posthoc_params,
    family_pairs,
    posthoc_family,
)
from ._references import CONOVER_1999, DEMSAR_2006, FRIEDMAN_1937
from ._registry import register_test
from ._ties import TIE_ULPS, tied_ranks
from ._utils import (
    as_numeric_array,
    check_alpha,
    check_alternative,
    check_bool,
    chi2_sf,
    f_sf,
    is_real_dtype,
    make_result,
    safe_divide,
)

__all__ = [
    "durbin",
    "incomplete_design",
    "observed_ranks",
    "skillings_mack",
    "skillings_mack_posthoc",
    "table_ranks",
]

SKILLINGS_MACK_1981 = (
    "Skillings & Mack 1981",
    "J. H. Skillings and G. A. Mack. On the use of a Friedman-type statistic "
    "in balanced and unbalanced block designs. Technometrics, 23(2):171–177, "
    "1981.",
)
CHATFIELD_2009 = (
    "Chatfield & Mander 2009",
    "M. Chatfield and A. Mander. The Skillings–Mack test (Friedman test when "
    "there are missing data). The Stata Journal, 9(2):299–305, 2009.",
)
DURBIN_1951 = (
    "Durbin 1951",
    "J. Durbin. Incomplete blocks in ranking experiments. British Journal of "
    "Statistical Psychology, 4(2):85–90, 1951.",
)

_EPS = float(np.finfo(np.float64).eps)

#: Relative size below which an eigenvalue of the covariance matrix of the
#: adjusted rank sums is 0 (its null space: the sum of the k sums, plus one
#: direction per further group of estimators never observed together).
_EIGEN_TOLERANCE = 1e-9


# --------------------------------------------------------------------------
# Input and ranks
# --------------------------------------------------------------------------


def _check_holed_scores(scores, *, name="scores"):
    """``scores`` as a float array (n_datasets, k) whose holes are NaN:
    at least 2 data sets and 2 estimators, no infinity, and every
    estimator scored on a data set beside another one."""
    expected = "a 2-D array (n_datasets, n_estimators), NaN where a score is missing"
    arr = as_numeric_array(scores, name=name, expected=expected)
    if not is_real_dtype(arr.dtype) or arr.dtype == bool:
        raise ValueError(
            f"{name} must hold numbers (higher is better); got dtype {arr.dtype}."
        )
    if arr.ndim != 2:
        raise ValueError(f"{name} must be {expected}; got shape {arr.shape}.")
    n_datasets, k = arr.shape
    if n_datasets < 2 or k < 2:
        raise ValueError(
            f"{name} must have at least 2 data sets (rows) and 2 estimators "
            f"(columns); got shape {arr.shape}."
        )
    arr = arr.astype(np.float64)
    if np.isinf(arr).any():
        where = np.argwhere(np.isinf(arr))[0].tolist()
        raise ValueError(
            f"{name} must be finite or NaN (a missing score); got "
            f"{arr[tuple(where)]} at index {where}."
        )
    observed = ~np.isnan(arr)
    informative = observed & (observed.sum(axis=1) >= 2)[:, None]
    alone = np.flatnonzero(~informative.any(axis=0))
    if alone.size:
        raise ValueError(
            f"{name}: estimator column(s) {alone.tolist()} have a score on no data "
            "set where another estimator has one; a rank needs two scores to "
            "compare (leave those estimators out)."
        )
    return arr, observed


def observed_ranks(scores):
    """Ranks within the estimators each data set has: 1 = best.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, k)
        Higher is better; NaN where a score is missing.

    Returns
    -------
    ranks : ndarray of shape (n_datasets, k)
        On a data set with ``k_i`` scores, ranks 1 to ``k_i`` (ties
        averaged: scores within ``2**-46`` times the data set's largest
        ``|score|`` tie), NaN at the holes.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.stats._skillings_mack import observed_ranks
    >>> observed_ranks([[0.9, np.nan, 0.7], [0.6, 0.8, 0.6]]).tolist()
    [[1.0, nan, 2.0], [2.5, 1.0, 2.5]]
    """
    scores = np.asarray(scores, dtype=np.float64)
    observed = ~np.isnan(scores)
    magnitude = np.where(observed, np.abs(scores), 0.0).max(axis=1, keepdims=True)
    tolerance = TIE_ULPS * _EPS * magnitude
    # Holes rank after every score of their row: they never move its ranks.
    values = np.where(observed, -scores, np.inf)
    ranks = tied_ranks(values, tolerance, axis=1)
    ranks[~observed] = np.nan
    return ranks


def table_ranks(scores):
    """:func:`observed_ranks`, NaN on the data sets with fewer than two
    scores too (a rank among one says nothing): the ranks a result shows
    and averages into its mean ranks."""
    ranks = observed_ranks(scores)
    ranks[(~np.isnan(ranks)).sum(axis=1) < 2] = np.nan
    return ranks


def _connected_groups(observed):
    """Number of groups of estimators linked by data sets that score two of
    them (the components of the design; 1 when every pair is linked, by a
    path of data sets)."""
    return len(set(_group_labels(observed)))


def _group_labels(observed):
    """The group (component of the design) of each estimator."""
    k = observed.shape[1]
    parent = list(range(k))

    def find(j):
        while parent[j] != j:
            parent[j] = parent[parent[j]]
            j = parent[j]
        return j

    for row in observed:
        present = np.flatnonzero(row)
        for j in present[1:]:
            a, b = find(int(present[0])), find(int(j))
            if a != b:
                parent[b] = a
    return [find(j) for j in range(k)]


def _adjusted_sums(scores, observed, tie_correction):
    """``(A, Σ, ranks, sizes)`` of Skillings and Mack.

    ``A_j = Σ_i sqrt(12/(k_i + 1))·((k_i + 1)/2 − r_ij)`` over the data sets
    that score j (positive when j ranks better than the middle) and ``Σ``
    its covariance matrix under the null hypothesis (every order of a data
    set's scores equally likely). Without ties ``Σ_jl = −λ_jl`` (the
    number of data sets scoring both) and ``Σ_jj = Σ_l λ_jl``, Skillings
    and Mack's matrix. With ``tie_correction`` each data set's share is
    that of its own midranks: ``g_i·(k_i·I − 1·1')`` on its estimators,
    ``g_i = 12·v_i / ((k_i + 1)(k_i − 1))``, ``v_i`` the mean square of its
    centred ranks (``(k_i² − 1)/12`` without ties, where ``g_i = 1``).
    """
    ranks = observed_ranks(scores)
    sizes = observed.sum(axis=1)
    informative = sizes >= 2
    middle = (sizes + 1) / 2.0
    centred = np.where(observed, middle[:, None] - ranks, 0.0)
    centred[~informative] = 0.0
    weights = np.sqrt(12.0 / (sizes + 1.0))
    adjusted = weights @ centred
    mask = (observed & informative[:, None]).astype(np.float64)
    if tie_correction:
        mean_square = np.sum(centred**2, axis=1) / np.maximum(sizes, 1)
        share = np.where(
            informative,
            12.0 * mean_square / ((sizes + 1.0) * np.maximum(sizes - 1.0, 1.0)),
            0.0,
        )
    else:
        share = informative.astype(np.float64)
    together = mask.T @ (share[:, None] * mask)  # Σ_i g_i [j, l both scored]
    covariance = -together
    np.fill_diagonal(covariance, (share * (sizes - 1.0)) @ mask)
    return adjusted, covariance, ranks, sizes


def _quadratic_form(adjusted, covariance):
    """``A' Σ⁻ A`` with the Moore–Penrose inverse of the symmetric ``Σ``;
    0 when Σ is 0 (no data set orders two estimators)."""
    values, vectors = np.linalg.eigh(covariance)
    largest = float(np.max(np.abs(values), initial=0.0))
    if largest == 0.0:
        return 0.0
    keep = values > _EIGEN_TOLERANCE * largest
    projections = vectors[:, keep].T @ adjusted
    return float(np.sum(projections**2 / values[keep]))


def _check_tie_correction(tie_correction=True, **_):
    check_bool(tie_correction, name="tie_correction")


# --------------------------------------------------------------------------
# Skillings–Mack
# --------------------------------------------------------------------------


@register_test(
    "skillings_mack",
    needs="scores",
    kind="datasets",
    alternatives=_TWO_SIDED,
    param_check=_check_tie_correction,
    role="omnibus",
    by_default={"incomplete": 0, "incomplete_control": 0},
    incomplete=True,
    display_name="Skillings–Mack test",
    rationale="Friedman's test for a table with holes: every data set ranks the "
    "estimators it has, and none is dropped",
    statistic_label="chi2",
    references=(SKILLINGS_MACK_1981, CHATFIELD_2009, FRIEDMAN_1937),
)
def skillings_mack(scores, *, alpha=0.05, alternative="two-sided", tie_correction=True):
    """Skillings–Mack test of k estimators across data sets with holes.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, k)
        One score per data set (row) and estimator (column), higher is
        better, NaN where the estimator has none; at least 2 data sets and 2
        estimators, and every estimator scored on a data set that scores
        another one too.
    alpha : float, default=0.05
        Significance level of ``reject``.
    alternative : {"two-sided"}, default="two-sided"
        The null hypothesis is that the k estimators are equivalent; the
        statistic has no direction, so one-sided alternatives raise a
        ``ValueError``.
    tie_correction : bool, default=True
        Use each data set's own midranks in the covariance of the adjusted
        rank sums (exact under the null hypothesis given the ties). With no
        hole the statistic is then Friedman's tie-corrected chi-squared
        (:func:`friedman`). False gives Skillings and Mack's published
        matrix, which assumes no ties (as R's ``Skillings.Mack`` and
        ``PMCMRplus::skillingsMackTest``); without ties the two agree.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            ``SM = A' Σ⁻ A`` (see Notes).
        pvalue : float
            ``chi2.sf(SM, df)``.
        df : int
            ``k - 1``, less one for each further group of estimators that
            no data set links to the others (then only the differences
            within the groups are tested; ``n_groups`` says how many).
        reject : bool
            ``pvalue < alpha``.
        adjusted_sums : ndarray of shape (k,)
            ``A_j``, positive when estimator j ranks better than the middle
            of the data sets that score it.
        covariance : ndarray of shape (k, k)
            ``Σ``, the covariance of ``A`` under the null hypothesis.
        n_together : ndarray of shape (k, k) of int
            The number of data sets that score both estimators (the
            diagonal: those that score the estimator beside another).
        ranks : ndarray of shape (n_datasets, k)
            Ranks within the estimators each data set has (1 = best), NaN
            at the holes.
        mean_ranks : ndarray of shape (k,)
            The mean of each estimator's ranks over the data sets that
            score it (ranks among fewer estimators are smaller: read them
            with ``n_scored``).
        n_scored : ndarray of shape (k,) of int
            The number of data sets that score each estimator.
        n_missing : int
            The number of holes.
        n_groups : int
            The groups of estimators linked by the data sets (1: every
            estimator is compared, directly or through others, with every
            other).
        uninformative : ndarray of int
            The data sets with fewer than two scores, which cannot order
            anything and are left out.
        durbin : :class:`~sklearn.utils.Bunch` or None
            When the holes make a balanced incomplete block design, the
            result of :func:`durbin` on the same table (None otherwise).
        tie_correction : bool
        alternative, alpha, test : the inputs and ``"skillings_mack"``.

    See Also
    --------
    friedman : The same test on a table without holes.
    durbin : The test of a balanced incomplete block design.
    skillings_mack_posthoc : Which pairs differ.

    Notes
    -----
    Data set i scores ``k_i`` of the k estimators and ranks them 1 to
    ``k_i``; estimator j gets the adjusted rank sum (Skillings and Mack
    1981; Chatfield and Mander 2009)

    .. math:: A_j = \\sum_{i:\\, j \\text{ scored}} \\sqrt{\\tfrac{12}{k_i + 1}}
              \\Big(\\frac{k_i + 1}{2} - r_{ij}\\Big),

    a missing cell counting as the middle rank ``(k_i + 1)/2`` (nothing).
    Under the null hypothesis (each data set's order of its estimators
    equally likely) ``A`` has mean 0 and, without ties, covariance
    ``Σ_jl = −λ_jl``, ``Σ_jj = Σ_{l ≠ j} λ_jl``, with ``λ_jl`` the number of
    data sets that score both j and l; ``SM = A' Σ⁻ A`` (a generalised
    inverse) is referred to chi-squared with ``k − 1`` degrees of freedom.
    Data sets with fewer than two scores contribute nothing.

    With ties, each data set's part of Σ is computed from its own midranks
    (``tie_correction=True``, the exact null covariance given the ties): with
    no hole, ``SM`` is then exactly Friedman's tie-corrected chi-squared,
    and with holes in a balanced incomplete design close to Durbin's. The
    published Σ assumes no ties and is kept with ``tie_correction=False``.

    The chi-squared law is a large-sample approximation, like Friedman's;
    with few data sets or many holes it is rough. Chatfield and Mander
    (2009) recommend at least a few data sets per pair of estimators.

    References
    ----------
    .. [1] J. H. Skillings, G. A. Mack, "On the use of a Friedman-type
       statistic in balanced and unbalanced block designs", Technometrics
       23(2):171-177, 1981.
    .. [2] M. Chatfield, A. Mander, "The Skillings-Mack test (Friedman test
       when there are missing data)", The Stata Journal 9(2):299-305, 2009.

    Examples
    --------
    The example of R's ``Skillings.Mack`` package: four assembly methods
    A–D timed on nine blocks, four times missing; the package gives
    ``SM = 15.493`` on 3 degrees of freedom (the scores here are times,
    lower is better; the statistic does not depend on the direction).

    >>> import numpy as np
    >>> from sklearn_bcv.stats import skillings_mack
    >>> nan = np.nan
    >>> times = np.array([
    ...     [3.2, 4.1, 3.8, 4.2], [3.1, 3.9, 3.4, 4.0], [4.3, 3.5, 4.6, 4.8],
    ...     [3.5, 3.6, 3.9, 4.0], [3.6, 4.2, 3.7, 3.9], [4.5, 4.7, 3.7, nan],
    ...     [nan, 4.2, 3.4, nan], [4.3, 4.6, 4.4, 4.9], [3.5, nan, 3.7, 3.9]])
    >>> result = skillings_mack(-times)
    >>> round(result.statistic, 3), result.df, round(result.pvalue, 4)
    (15.493, 3, 0.0014)
    >>> result.adjusted_sums.round(3).tolist()
    [14.126, -4.281, 4.281, -14.126]
    >>> result.n_missing, result.durbin is None
    (4, True)
    """
    test = "skillings_mack"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test, allowed=_TWO_SIDED)
    _check_tie_correction(tie_correction)
    scores, observed = _check_holed_scores(scores)
    n_datasets, k = scores.shape
    adjusted, covariance, ranks, sizes = _adjusted_sums(
        scores, observed, tie_correction
    )
    statistic = _quadratic_form(adjusted, covariance)
    informative = observed & (sizes >= 2)[:, None]
    n_groups = _connected_groups(informative)
    df = k - n_groups
    pvalue = 1.0 if statistic == 0 else float(chi2_sf(statistic, df))
    together = informative.T.astype(np.int64) @ informative.astype(np.int64)
    np.fill_diagonal(together, informative.sum(axis=0))
    design = incomplete_design(observed)
    durbin_result = None
    if design.balanced and design.block_size < k:
        durbin_result = durbin(scores, alpha=alpha)
    return make_result(
        test=test,
        statistic=statistic,
        pvalue=pvalue,
        df=int(df),
        alpha=alpha,
        alternative=alternative,
        adjusted_sums=adjusted,
        covariance=covariance,
        n_together=together,
        ranks=ranks,
        mean_ranks=np.nanmean(np.where(informative, ranks, np.nan), axis=0),
        n_scored=observed.sum(axis=0),
        n_missing=int(np.count_nonzero(~observed)),
        n_groups=int(n_groups),
        uninformative=np.flatnonzero(sizes < 2),
        durbin=durbin_result,
        tie_correction=bool(tie_correction),
        n_datasets=int(n_datasets),
    )


# --------------------------------------------------------------------------
# Durbin
# --------------------------------------------------------------------------


def incomplete_design(observed):
    """Whether the scored cells make a balanced (incomplete) block design.

    Parameters
    ----------
    observed : array-like of bool, shape (n_datasets, k)
        True where estimator j has a score on data set i.

    Returns
    -------
    design : :class:`~sklearn.utils.Bunch`
        ``balanced`` (every data set scores ``block_size`` estimators, every
        estimator is scored ``replicates`` times and every pair together
        ``together`` times), ``block_size``, ``replicates``, ``together``
        (None where they vary) and ``reason`` (why not balanced, or None).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.stats._skillings_mack import incomplete_design
    >>> blocks = [[0, 1], [1, 2], [0, 2]]  # three estimators, two per data set
    >>> observed = np.zeros((3, 3), dtype=bool)
    >>> for i, block in enumerate(blocks):
    ...     observed[i, block] = True
    >>> design = incomplete_design(observed)
    >>> design.balanced, design.block_size, design.replicates, design.together
    (True, 2, 2, 1)
    """
    observed = np.asarray(observed, dtype=bool)
    sizes = observed.sum(axis=1)
    replicates = observed.sum(axis=0)
    together = observed.T.astype(np.int64) @ observed.astype(np.int64)
    off = together[~np.eye(observed.shape[1], dtype=bool)]

    def one(values):
        values = np.unique(values)
        return int(values[0]) if values.size == 1 else None

    design = Bunch(
        balanced=False,
        block_size=one(sizes),
        replicates=one(replicates),
        together=one(off),
        reason=None,
    )
    if design.block_size is None:
        design.reason = (
            f"the data sets score different numbers of estimators "
            f"({', '.join(map(str, np.unique(sizes)))})"
        )
    elif design.block_size < 2:
        design.reason = "the data sets score fewer than 2 estimators each"
    elif design.replicates is None:
        design.reason = (
            "the estimators are scored on different numbers of data sets "
            f"({', '.join(map(str, np.unique(replicates)))})"
        )
    elif design.together is None:
        design.reason = (
            "the pairs of estimators share different numbers of data sets "
            f"({', '.join(map(str, np.unique(off)))})"
        )
    else:
        design.balanced = True
    return design


@register_test(
    "durbin",
    needs="scores",
    kind="datasets",
    alternatives=_TWO_SIDED,
    role="omnibus",
    incomplete=True,
    display_name="Durbin test",
    rationale="the rank test of a balanced incomplete block design: every data "
    "set scores the same number of estimators, and every pair of estimators "
    "shares the same number of data sets",
    statistic_label="chi2",
    references=(DURBIN_1951, CONOVER_1999),
)
def durbin(scores, *, alpha=0.05, alternative="two-sided"):
    """Durbin's test of k estimators on a balanced incomplete block design.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, k)
        Higher is better, NaN where the estimator has no score. The scored
        cells must make a balanced incomplete block design: every data set
        scores ``s >= 2`` estimators, every estimator is scored on ``r``
        data sets, and every pair of estimators on ``λ`` data sets in
        common (a complete table is the case ``s = k``: Friedman's test).
        Any other pattern is refused with the reason; use
        :func:`skillings_mack`.
    alpha : float, default=0.05
        Significance level of ``reject``.
    alternative : {"two-sided"}, default="two-sided"
        One-sided alternatives raise a ``ValueError``.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            Durbin's ``T1`` (see Notes).
        pvalue : float
            ``chi2.sf(T1, k - 1)``.
        df : int
            ``k - 1``.
        reject : bool
            ``pvalue < alpha``.
        f_test : :class:`~sklearn.utils.Bunch`
            Conover's F form ``T2``: ``statistic``, ``pvalue``, ``df =
            (k − 1, b·s − b − k + 1)`` and ``reject``.
        rank_sums : ndarray of shape (k,)
            ``R_j``, each estimator's sum of ranks (1 = best).
        design : :class:`~sklearn.utils.Bunch`
            ``block_size`` (s), ``replicates`` (r), ``together`` (λ) and
            ``n_blocks`` (b).
        alternative, alpha, test : the inputs and ``"durbin"``.

    See Also
    --------
    skillings_mack : Any pattern of holes.
    friedman : No hole.

    Notes
    -----
    With ``r_ij`` the rank of estimator j among the s scored on data set i
    (ties averaged), ``R_j = Σ_i r_ij``, ``A = Σ_ij r_ij²`` and
    ``C = b·s(s + 1)²/4`` (Conover 1999, §5.8):

    .. math:: T_1 = \\frac{(k - 1)\\,(\\sum_j R_j^2 - r\\,C)}{A - C},
              \\qquad
              T_2 = \\frac{T_1/(k - 1)}{(b(s - 1) - T_1)/(b s - b - k + 1)},

    ``T1`` referred to chi-squared(k − 1) and ``T2`` to F(k − 1,
    b·s − b − k + 1), which Conover finds the closer of the two. Both are
    computed from whole numbers (twice the ranks), so a table of ties
    (``A = C``) gives ``T1 = 0`` with p-value 1, and a table in which every
    data set ranks alike gives ``T2`` infinite with p-value 0.

    References
    ----------
    .. [1] J. Durbin, "Incomplete blocks in ranking experiments", British
       Journal of Statistical Psychology 4(2):85-90, 1951.
    .. [2] W. J. Conover, "Practical Nonparametric Statistics", 3rd ed.,
       Wiley, 1999, §5.8.

    Examples
    --------
    Conover's (1999) ice cream example: seven varieties, each of seven
    judges tastes three of them (a balanced incomplete block design,
    ``r = 3``, ``λ = 1``) and ranks them (1 = liked best; here scores, so
    the rank is negated). The rank sums are 8, 9, 4, 3, 5, 6 and 7,
    ``T1 = 12`` and ``T2 = 8``:

    >>> import numpy as np
    >>> from sklearn_bcv.stats import durbin
    >>> ranks = np.full((7, 7), np.nan)
    >>> for judge, tasted in enumerate([
    ...         {0: 2, 1: 3, 3: 1}, {1: 3, 2: 1, 4: 2}, {2: 2, 3: 1, 5: 3},
    ...         {3: 1, 4: 2, 6: 3}, {0: 3, 4: 1, 5: 2}, {1: 3, 5: 1, 6: 2},
    ...         {0: 3, 2: 1, 6: 2}]):
    ...     for variety, rank in tasted.items():
    ...         ranks[judge, variety] = rank
    >>> result = durbin(-ranks)
    >>> result.rank_sums.tolist()
    [8.0, 9.0, 4.0, 3.0, 5.0, 6.0, 7.0]
    >>> round(result.statistic, 3), result.df, round(result.pvalue, 4)
    (12.0, 6, 0.062)
    >>> f = result.f_test
    >>> round(f.statistic, 3), f.df, round(f.pvalue, 4)
    (8.0, (6, 8), 0.0049)
    """
    test = "durbin"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test, allowed=_TWO_SIDED)
    scores, observed = _check_holed_scores(scores)
    n_blocks, k = scores.shape
    design = incomplete_design(observed)
    if not design.balanced:
        raise ValueError(
            f"durbin needs a balanced incomplete block design; {design.reason}. "
            "Use skillings_mack, which takes any pattern of missing scores."
        )
    s, r = design.block_size, design.replicates
    doubled = np.rint(np.nan_to_num(2.0 * observed_ranks(scores))).astype(np.int64)
    sums = doubled.sum(axis=0)  # 2·R_j
    four_c = n_blocks * s * (s + 1) ** 2  # 4·C
    # 4·(Σ R_j² − r·C) and 4·(A − C), exactly.
    numerator = int(np.sum(sums**2)) - r * four_c
    denominator = int(np.sum(doubled**2)) - four_c
    statistic = float(safe_divide((k - 1) * numerator, denominator))
    pvalue = 1.0 if numerator == 0 else float(chi2_sf(statistic, k - 1))
    df_f = (k - 1, n_blocks * s - n_blocks - k + 1)
    # T2 = (T1/(k − 1)) / ((b(s − 1) − T1) / df2), T1 = (k − 1)·num/den.
    f_statistic = float(
        safe_divide(
            df_f[1] * numerator,
            (n_blocks * (s - 1) * denominator - (k - 1) * numerator),
        )
    )
    if numerator == 0:
        f_pvalue = 1.0
    elif np.isinf(f_statistic) or df_f[1] <= 0:
        f_pvalue = 0.0 if np.isinf(f_statistic) else 1.0
    else:
        f_pvalue = float(f_sf(f_statistic, *df_f))
    return make_result(
        test=test,
        statistic=statistic,
        pvalue=pvalue,
        df=int(k - 1),
        alpha=alpha,
        alternative=alternative,
        f_test=Bunch(
            statistic=f_statistic,
            pvalue=f_pvalue,
            df=(int(df_f[0]), int(df_f[1])),
            reject=bool(f_pvalue < alpha),
        ),
        rank_sums=sums / 2.0,
        design=Bunch(
            block_size=int(s),
            replicates=int(r),
            together=int(design.together),
            n_blocks=int(n_blocks),
        ),
        n_datasets=int(n_blocks),
    )


# --------------------------------------------------------------------------
# Post hoc
# --------------------------------------------------------------------------


def _check_posthoc(control=None, correction="holm", tie_correction=True, **_):
    check_posthoc_params(control, correction)
    _check_tie_correction(tie_correction)


@register_test(
    "skillings_mack_posthoc",
    needs="scores",
    kind="datasets",
    alternatives=_TWO_SIDED,
    param_check=_check_posthoc,
    role="posthoc",
    omnibus="skillings_mack",
    diagram="groups",
    by_default={"incomplete": 1, "incomplete_control": 1},
    incomplete=True,
    display_name="post hoc z test on Skillings–Mack rank sums",
    rationale="each pair (or each estimator against the control) by the "
    "difference of its Skillings–Mack adjusted rank sums, with a "
    "multiplicity correction; the holes stay holes",
    references=(SKILLINGS_MACK_1981, DEMSAR_2006),
)
def skillings_mack_posthoc(
    scores,
    *,
    alpha=0.05,
    alternative="two-sided",
    control=None,
    correction="holm",
    tie_correction=True,
):
    """Post hoc z tests of pairs on a table with holes (Skillings–Mack sums).

    Parameters
    ----------
    scores : array-like of shape (n_datasets, k)
        Higher is better, NaN where the estimator has no score (as
        :func:`skillings_mack`).
    alpha : float, default=0.05
        Family-wise significance level of ``reject``.
    alternative : {"two-sided"}, default="two-sided"
        One-sided alternatives raise a ``ValueError``.
    control : int, default=None
        Column of the control estimator: the family is the k - 1
        comparisons with it. None compares all pairs.
    correction : str, default="holm"
        Multiplicity correction over the family (any of
        :func:`~sklearn_bcv.stats.adjust_pvalues`; ``"shaffer"`` and
        ``"bergmann"`` for all pairs only).
    tie_correction : bool, default=True
        As :func:`skillings_mack`.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        (k, k) arrays in column order, row = A, column = B:

        statistic : ndarray of shape (k, k)
            ``z = (A_a − A_b) / sqrt(Σ_aa + Σ_bb − 2Σ_ab)``, positive when
            A ranks better.
        pvalue, pvalue_adjusted : ndarray of shape (k, k)
            Two-sided normal p-values, raw and adjusted over the family.
        reject, tested : ndarray of shape (k, k) of bool
        mean_ranks : ndarray of shape (k,)
            As :func:`skillings_mack` (the mean over the data sets that
            score each estimator).
        control, correction, n_comparisons : as named.
        df : None
        alternative, alpha, test : the inputs and
            ``"skillings_mack_posthoc"``.

    See Also
    --------
    skillings_mack : The omnibus test to run first.
    friedman_posthoc : The same family on a table without holes.

    Notes
    -----
    Under the null hypothesis the adjusted rank sums ``A`` of
    :func:`skillings_mack` have mean 0 and covariance ``Σ``, so
    ``A_a − A_b`` has variance ``Σ_aa + Σ_bb − 2Σ_ab`` and ``z`` is
    approximately standard normal. With no hole ``z`` is the z statistic
    of Friedman's mean ranks (:func:`friedman_posthoc`, exactly with
    ``tie_correction=False``; with ties the variance is the one the ties
    leave). Two estimators in groups that no data set links (``n_groups``
    of :func:`skillings_mack`) cannot be compared: ``z = 0``, p-value 1;
    nor can a pair whose data sets all tie (variance 0).

    Examples
    --------
    The assembly times of :func:`skillings_mack` (lower is better, so
    negated): Holm-adjusted p-values of all pairs.

    >>> import numpy as np
    >>> from sklearn_bcv.stats import skillings_mack_posthoc
    >>> nan = np.nan
    >>> times = np.array([
    ...     [3.2, 4.1, 3.8, 4.2], [3.1, 3.9, 3.4, 4.0], [4.3, 3.5, 4.6, 4.8],
    ...     [3.5, 3.6, 3.9, 4.0], [3.6, 4.2, 3.7, 3.9], [4.5, 4.7, 3.7, nan],
    ...     [nan, 4.2, 3.4, nan], [4.3, 4.6, 4.4, 4.9], [3.5, nan, 3.7, 3.9]])
    >>> result = skillings_mack_posthoc(-times)
    >>> result.pvalue_adjusted[0].round(4).tolist()
    [1.0, 0.0738, 0.5289, 0.001]
    >>> result.reject[0].tolist()
    [False, False, False, True]
    """
    test = "skillings_mack_posthoc"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test, allowed=_TWO_SIDED)
    _check_tie_correction(tie_correction)
    scores, observed = _check_holed_scores(scores)
    k = scores.shape[1]
    control = _check_control(control, k)
    check_posthoc_params(control, correction)
    adjusted, covariance, ranks, sizes = _adjusted_sums(
        scores, observed, tie_correction
    )
    rows, cols = family_pairs(k, control)
    variance = (
        covariance[rows, rows] + covariance[cols, cols] - 2.0 * covariance[rows, cols]
    )
    # Tiny negative variances are rounding: a pair with no information is 0.
    # A pair the data sets do not link (two groups of estimators never
    # scored together) cannot be compared, and a pair whose every data set
    # ties has variance 0 (up to rounding): z = 0, p-value 1.
    informative = observed & (sizes >= 2)[:, None]
    groups = np.asarray(_group_labels(informative))
    informed = (groups[rows] == groups[cols]) & (
        variance > _EIGEN_TOLERANCE * np.max(np.abs(covariance), initial=0.0)
    )
    z = np.where(
        informed,
        safe_divide(adjusted[rows] - adjusted[cols], np.sqrt(np.abs(variance))),
        0.0,
    )
    p = np.minimum(1.0, 2.0 * special.ndtr(-np.abs(z)))
    return posthoc_family(
        test=test,
        statistic=z,
        pvalue=p,
        pairs=(rows, cols),
        k=k,
        control=control,
        correction=correction,
        alpha=alpha,
        alternative=alternative,
        mean_ranks=np.nanmean(np.where(informative, ranks, np.nan), axis=0),
        tie_correction=bool(tie_correction),
    )
