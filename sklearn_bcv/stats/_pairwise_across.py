"""Two estimators across data sets, one pair at a time: Wilcoxon's
signed-rank and the sign test on the per-data-set differences, and the
Poisson-binomial test of per-split posteriors (Corani & Benavoli 2015, §3)."""

import numpy as np
from scipy import stats

from ._across_utils import (
    _ZERO_METHODS,
    _check_dataset_differences,
    _check_split_differences,
)
from ._bayesian import (
    _posterior_probabilities,
    posterior_decision,
    scaled_correlated_t_posterior,
)
from ._references import CORANI_2015, DEMSAR_2006, LACOSTE_2012, WILCOXON_1945
from ._registry import register_test
from ._runs import check_rho, sizes_or_rho
from ._signed_rank import signed_rank_test
from ._ties import check_score_scale, difference_tolerance, merge_magnitudes
from ._utils import (
    check_alpha,
    check_alternative,
    make_result,
)

# --------------------------------------------------------------------------
# One pair at a time: frequentist tests on the per-data-set differences
# --------------------------------------------------------------------------


def _check_zero_method(zero_method, score_scale=None):
    check_score_scale(score_scale)
    if not isinstance(zero_method, str) or zero_method not in _ZERO_METHODS:
        raise ValueError(
            f"zero_method must be one of {list(_ZERO_METHODS)}; got {zero_method!r}."
        )


@register_test(
    "wilcoxon",
    needs="dataset_differences",
    kind="datasets",
    param_check=_check_zero_method,
    role="pairwise",
    by_default={"all_pairs": 0, "control": 0},
    display_name="Wilcoxon signed-rank test",
    rationale="each pair on its paired scores across data sets, the "
    "pairwise test Demšar (2006) recommends",
    swap="same",
    references=(WILCOXON_1945, DEMSAR_2006),
    batched=True,
)
def wilcoxon(
    dataset_differences,
    *,
    alpha=0.05,
    alternative="two-sided",
    zero_method="wilcox",
    score_scale=None,
):
    """Wilcoxon signed-rank test of two estimators across data sets.

    Parameters
    ----------
    dataset_differences : array-like of shape (n_datasets,)
        ``score_a - score_b`` on each data set (e.g. the difference of the
        mean cross-validated scores); at least 2 data sets, finite. An array
        of shape (n_comparisons, n_datasets) tests each row (the fields of
        the result are then arrays over the rows): every pair of a study in
        one call.
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
    score_scale : float, default=None
        The largest magnitude of the scores the differences come from (1
        for accuracies, 100 for percents). Differences within ``2**-46``
        times it of each other tie, and within that of 0 are zeros (see
        Notes); None takes the largest ``|difference|``.
        :func:`~sklearn_bcv.compare_scores` passes the table's.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            :func:`scipy.stats.wilcoxon`'s statistic: ``min(R+, R-)`` for
            the two-sided test, ``R+`` (the rank sum of the data sets on
            which A is better) for a one-sided one.
        pvalue : float
            Exact while at most 50 differences are nonzero, ties and zeros
            included (see Notes); the normal approximation above.
        df : None
        reject : bool
            ``pvalue < alpha``.
        n_datasets : int
            The number of data sets, zeros included.
        zero_method : str
            The input.
        min_pvalue : float
            The smallest p-value the test can give with these data sets:
            ``2^-n`` one-sided, twice that two-sided, n the nonzero
            differences (on 5 data sets 0.0625 two-sided: it cannot reject at
            0.05 whatever the scores), ties or not (only the data sets all on
            one side reach the largest sum of ranks).
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

    **Ties in your units.** The differences are computed in floating point,
    so two that are equal in your decimals can differ in their last bits
    (``0.83 - 0.82`` is ``0.010000000000000009``, ``0.82 - 0.81`` is
    ``0.009999999999999898``, ``83 - 82`` is ``1``), and
    :func:`scipy.stats.wilcoxon` then breaks their tie arbitrarily,
    differently in percents or another column order. Here ``|d_i|`` and
    ``|d_j|`` tie when they differ by at most ``τ = 2**-46·M`` (``M`` the
    largest of ``score_scale`` and the ``|d_i|``), a ``|d_i|`` within
    ``τ`` of 0 is a zero, and near-equal values are grouped by single
    linkage (``doc/user_guide.rst``, "Ties in your units"): the statistic
    and p-value are the same whatever the units or the order of the data
    sets.

    **The p-value.** While at most 50 differences are nonzero, it is exact
    given the ties and zeros, whatever their number: under the null
    hypothesis each nonzero ``d_i`` is positive or negative with
    probability 1/2 independently, so ``2R+`` (doubled midranks are whole
    numbers) is distributed as the sum of a random subset of the doubled
    ranks of the nonzero differences (plus zsplit's fixed share of the
    zeros), computed by a dynamic programme over the sums and cached by tie
    pattern. Two-sided ``p = min(1, 2·min(P(T <= t), P(T >= t)))``,
    one-sided the matching tail. This is the distribution
    :func:`scipy.stats.wilcoxon` enumerates (its permutation path, up to 13
    data sets with ties or zeros) and its exact path without them; from 14
    to 50 data sets with ties, and above 50 data sets of which at most 50
    differ from 0, scipy uses the normal approximation, which is not needed
    here (60 data sets tied on 55, A better on the other 5: scipy's normal
    approximation gives 0.043, the exact p-value of the 5 signs is 0.0625).
    Above 50 nonzero differences, the normal approximation of scipy: ``R+``
    against mean ``n(n + 1)/4`` and variance ``(n(n + 1)(2n + 1) -
    Σ(t³ - t)/2)/24`` over the tie groups ``t``, with Pratt's terms for its
    zeros (Cureton 1967), no continuity correction.

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
    (12.0, 0.0078, True)
    >>> wilcoxon(c45m - c45, zero_method="zsplit", alternative="greater").statistic
    93.0
    """
    test = "wilcoxon"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test)
    _check_zero_method(zero_method)
    d = _merged_differences(dataset_differences, test, score_scale, batch=True)
    rows = np.atleast_2d(d)
    statistic, pvalue = signed_rank_test(rows, zero_method, alternative)
    # Only the nonzero differences have random signs, whatever the zero
    # method (zsplit's share of the zeros is fixed).
    n_ranked = np.count_nonzero(rows, axis=1)
    shape = d.shape[:-1]
    return make_result(
        test=test,
        statistic=statistic.reshape(shape),
        pvalue=np.minimum(1.0, pvalue).reshape(shape),
        df=None,
        alpha=alpha,
        alternative=alternative,
        n_datasets=d.shape[-1],
        zero_method=zero_method,
        min_pvalue=_smallest_pvalue(n_ranked, alternative).reshape(shape),
    )


def _merged_differences(
    dataset_differences, test, score_scale, rope=None, *, batch=False
):
    """The checked differences with their ties in the user's units made
    exact (``merge_magnitudes``): ``|d_i| ≈ |d_j|`` equal, ``≈ 0`` zero and,
    with a rope, ``≈ ±rope`` exactly ``±rope``; ``batch=True`` takes
    (n_comparisons, n_datasets) too, each comparison merged apart."""
    d = _check_dataset_differences(dataset_differences, test=test, batch=batch)
    tolerance = difference_tolerance(d, score_scale, rope)
    anchors = (0.0,) if not rope else (0.0, rope)
    return merge_magnitudes(d, tolerance, anchors=anchors, batch=d.ndim > 1)


def merged_split_differences(
    split_differences, test, score_scale, rope=None, *, batch=False
):
    """The checked (n_datasets, n_splits) differences (``batch=True``: also
    (n_comparisons, n_datasets, n_splits)), their ties in the user's units
    made exact (as :func:`_merged_differences`)."""
    d = _check_split_differences(split_differences, test=test, batch=batch)
    tolerance = difference_tolerance(d, score_scale, rope, split=True)
    anchors = (0.0,) if not rope else (0.0, rope)
    return merge_magnitudes(d, tolerance, anchors=anchors, batch=d.ndim > 2)


def _smallest_pvalue(n, alternative):
    """The smallest p-value of an exact test on ``n`` signs (every one on
    the same side): ``2^-n`` one-sided, twice that two-sided.

    For the signed-rank test it is the exact one with ``n`` nonzero
    differences without ties (scipy's normal approximation, for n > 50, is
    smaller still): tells when a test cannot reject at ``alpha`` at all.
    """
    factor = 2.0 if alternative == "two-sided" else 1.0
    return np.minimum(1.0, factor * 0.5 ** np.asarray(n, dtype=np.float64))


@register_test(
    "sign",
    needs="dataset_differences",
    kind="datasets",
    role="pairwise",
    display_name="sign test",
    swap="recompute",  # its statistic, the wins of A, becomes n - wins
    rationale="each pair by the number of data sets each wins, a binomial test "
    "with the fewest assumptions",
    references=(DEMSAR_2006,),
)
def sign(dataset_differences, *, alpha=0.05, alternative="two-sided", score_scale=None):
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
    score_scale : float, default=None
        The largest magnitude of the scores the differences come from; a
        difference within ``2**-46`` times it of 0 is a tie (see
        :func:`wilcoxon`). None takes the largest ``|difference|``.

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
            (``d < 0``), and those with ``d == 0`` (in your decimals: a
            difference of rounding errors only is 0).
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
    d = _merged_differences(dataset_differences, test, score_scale)
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
# The Poisson-binomial test (Corani & Benavoli 2015, §3)
# --------------------------------------------------------------------------


def _poisson_binomial_pmf(probabilities):
    """Exact pmf of the number of successes of independent Bernoulli(p_i).

    The recursion ``P_j(x) = P_{j-1}(x)(1 - p_j) + P_{j-1}(x - 1) p_j``,
    one vectorised step per trial: O(q²) operations, no sampling, every
    entry a sum of non-negative terms (no cancellation). ``probabilities``
    of shape (..., q) give pmfs of shape (..., q + 1).
    """
    p = np.asarray(probabilities, dtype=np.float64)
    q = p.shape[-1]
    pmf = np.zeros((*p.shape[:-1], q + 1))
    pmf[..., 0] = 1.0
    for j in range(q):
        p_j = p[..., j, None]
        head = pmf[..., : j + 2]
        shifted = head[..., :-1] * p_j
        head *= 1.0 - p_j
        head[..., 1:] += shifted
    return pmf


def _outcome_probabilities(pmf):
    """``P(X > q/2)``, ``P(X = q/2)``, ``P(X < q/2)`` of pmfs over 0..q
    (the last axis): floats, or arrays over the leading axes."""
    q = pmf.shape[-1] - 1
    twice = 2 * np.arange(q + 1)
    sides = [
        np.clip(pmf[..., side].sum(axis=-1), 0.0, 1.0)
        for side in (twice > q, twice == q, twice < q)
    ]
    return tuple(float(v) if np.ndim(v) == 0 else v for v in sides)


def _check_split_params(score_scale=None, rho=None):
    check_score_scale(score_scale)
    check_rho(rho)


@register_test(
    "poisson_binomial",
    needs=("split_differences", "n_train", "n_test"),
    kind="datasets",
    role="pairwise",
    by_default={"all_pairs": 1, "control": 1},
    swap="recompute",  # its statistic, A's expected wins, becomes n - wins
    bayesian=True,
    display_name="Poisson-binomial test",
    rationale="each pair on its per-split scores: the probability that one wins "
    "on each data set, from the correlated Bayesian t test of its "
    "splits, combined over the data sets",
    references=(CORANI_2015, LACOSTE_2012),
    batched=True,
    param_check=_check_split_params,
)
def poisson_binomial(
    split_differences,
    n_train,
    n_test,
    *,
    alpha=0.05,
    alternative="two-sided",
    score_scale=None,
    rho=None,
):
    """Poisson-binomial test of two estimators across data sets (Corani & Benavoli).

    Parameters
    ----------
    split_differences : array-like of shape (n_datasets, n_splits)
        ``score_a - score_b`` on each split of each data set's
        cross-validation (at least 2 splits), finite. With one data set the
        test is :func:`bayesian_correlated_t` on it. An array of shape
        (n_comparisons, n_datasets, n_splits) tests each comparison (the
        fields of the result are then arrays over them).
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
        ``"greater"`` only A better (Corani & Benavoli's one-sided use); ``"less"``
        only B better.
    score_scale : float, default=None
        The largest magnitude of the scores the differences come from:
        split differences within ``2**-46`` times it of each other are
        equal, and within that of 0 are 0 (see :func:`wilcoxon`), so a data
        set whose differences are equal in your decimals has zero variance
        whatever the units. None takes the largest ``|difference|``.
    rho : float, default=None
        The correlation of a data set's split differences, given directly:
        0 for independent runs (random seeds) of the estimators, where there
        are no set sizes (``n_train`` and ``n_test`` are then not read and
        may be None). None: ``n_test / (n_train + n_test)``.

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
    Poisson-binomial (Corani & Benavoli 2015, §3.1; Lacoste et al. 2012), its
    pmf computed
    exactly by the recursion ``P_j(x) = P_{j-1}(x)(1 - p_j) +
    P_{j-1}(x - 1) p_j``. A is declared better when
    ``P(X > q/2) > 1 - alpha``. Corani & Benavoli 2015 writes it for the second
    classifier
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
    d = merged_split_differences(split_differences, test, score_scale, batch=True)
    n_datasets = d.shape[-2]
    n_train, n_test = sizes_or_rho(n_train, n_test, rho, n_datasets)
    # Each data set's p_i is scale invariant (rope 0): computed on its own
    # differences divided by a power of two, it never overflows.
    loc, scale, df, _ = scaled_correlated_t_posterior(d, n_train, n_test, test=test)
    p_a, _, _ = _posterior_probabilities(loc, scale, df, 0.0)
    p_datasets = np.where((scale == 0) & (loc == 0), 0.5, p_a)
    pmf = _poisson_binomial_pmf(p_datasets)
    p_a_better, p_rope, p_b_better = _outcome_probabilities(pmf)
    return make_result(
        test=test,
        statistic=p_datasets.sum(axis=-1),
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
