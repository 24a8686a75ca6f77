"""On how many data sets is A better than B? Replicability analysis.

A table of per-data-set results invites the question "A is better than B
on how many of the data sets, and on which?". Counting the data sets whose
own test rejects overstates it (with 30 data sets and no difference, one or
two reject at 0.05 by chance). Benjamini and Heller's (2008) partial
conjunction tests answer it with a count that holds its error rate: the
estimated number ``u`` of data sets on which A is better is such that "A is
better on at least ``u`` data sets" is wrong with probability at most
``alpha``; Dror, Baumer, Bogomolov and Reichart (2017) brought it to
comparisons of algorithms over many data sets.
"""

import numpy as np
from scipy import stats
from sklearn.utils import Bunch

from ._utils import as_numeric_array, check_alpha, is_real_dtype

__all__ = ["REPLICABILITY_METHODS", "replicability"]

BENJAMINI_HELLER_2008 = (
    "Benjamini & Heller 2008",
    "Y. Benjamini and R. Heller. Screening for partial conjunction hypotheses. "
    "Biometrics, 64(4):1215–1222, 2008.",
)
DROR_2017 = (
    "Dror et al. 2017",
    "R. Dror, G. Baumer, M. Bogomolov and R. Reichart. Replicability analysis "
    "for natural language processing: testing significance with multiple "
    "datasets. Transactions of the Association for Computational Linguistics, "
    "5:471–486, 2017.",
)
REFERENCES = (BENJAMINI_HELLER_2008, DROR_2017)

#: How the partial conjunction p-values combine the data sets' p-values.
REPLICABILITY_METHODS = ("bonferroni", "fisher")


def _check_pvalues(pvalues):
    arr = as_numeric_array(
        pvalues, name="pvalues", expected="a 1-D array of p-values, one per data set"
    )
    if not is_real_dtype(arr.dtype) or arr.dtype == bool or arr.ndim != 1:
        got = f"shape {arr.shape}" if arr.ndim != 1 else f"dtype {arr.dtype}"
        raise ValueError(
            f"pvalues must be a 1-D array of p-values, one per data set; got {got}."
        )
    if arr.size < 1:
        raise ValueError("pvalues must hold at least one p-value.")
    arr = arr.astype(np.float64)
    if not np.all((arr >= 0) & (arr <= 1)):
        bad = arr[~((arr >= 0) & (arr <= 1))][0]
        raise ValueError(f"pvalues must be numbers in [0, 1]; got {bad}.")
    return arr


def check_method(method):
    if not isinstance(method, str) or method not in REPLICABILITY_METHODS:
        raise ValueError(
            f"method must be one of {list(REPLICABILITY_METHODS)}; got {method!r}."
        )
    return method


def partial_conjunction(pvalues, method):
    """The partial conjunction p-values of "at least u of the N", u = 1..N,
    made non-decreasing in u (so that the count is a step down), of the
    p-values ``pvalues`` (..., N), each row apart (sorted here)."""
    ordered = np.sort(np.asarray(pvalues, dtype=np.float64), axis=-1)
    n = ordered.shape[-1]
    u = np.arange(1, n + 1)
    if method == "bonferroni":
        raw = np.minimum(1.0, (n - u + 1) * ordered)
    else:
        with np.errstate(divide="ignore"):
            logs = np.log(ordered)
        # -2 Σ_{i >= u} ln p_(i): the sums of the largest N - u + 1.
        tail = -2.0 * np.flip(np.cumsum(np.flip(logs, -1), axis=-1), -1)
        raw = stats.chi2.sf(tail, 2 * (n - u + 1))
    return np.maximum.accumulate(raw, axis=-1)


def replicability_rows(pvalues, alpha, method):
    """The counts of many comparisons at once: ``pvalues`` (R, N) checked
    p-values, one row per comparison. Returns ``(count, partial, order,
    n_identified)``: the counts (R,), the partial conjunction p-values
    (R, N), each row's data sets sorted by p-value (stable), and how many of
    them Holm's procedure identifies (R,): the Bonferroni sequence of the
    same p-values."""
    order = np.argsort(pvalues, axis=-1, kind="stable")
    partial = partial_conjunction(pvalues, method)
    count = np.count_nonzero(partial <= alpha, axis=-1)
    holm = (
        partial
        if method == "bonferroni"
        else partial_conjunction(pvalues, "bonferroni")
    )
    return count, partial, order, np.count_nonzero(holm <= alpha, axis=-1)


def one_result(
    pvalues, count, partial, order, n_identified, *, alpha, method, datasets
):
    """The Bunch of :func:`replicability` of one comparison."""
    identified = [int(i) for i in order[: int(n_identified)]]
    return Bunch(
        test="replicability",
        count=int(count),
        partial_pvalues=partial,
        identified=identified,
        identified_datasets=None
        if datasets is None
        else [datasets[i] for i in identified],
        pvalues=pvalues,
        n_datasets=int(pvalues.size),
        method=method,
        alpha=alpha,
    )


def replicability(pvalues, *, alpha=0.05, method="bonferroni", datasets=None):
    """How many data sets show the effect, and which: partial conjunctions.

    Parameters
    ----------
    pvalues : array-like of shape (n_datasets,)
        On each data set, the one-sided p-value of "A is better than B"
        from a test on that data set alone (e.g. the corrected t test of its
        cross-validation splits).
    alpha : float, default=0.05
        The error rate: "A is better on at least ``count`` data sets" is
        wrong with probability at most ``alpha``, and so is the claim that
        every data set in ``identified`` is one of them.
    method : {"bonferroni", "fisher"}, default="bonferroni"
        How the partial conjunction p-value combines the p-values (see
        Notes). Bonferroni holds whatever the dependence between the data
        sets (results of the same estimators on data sets of one study are
        rarely independent); Fisher's is more powerful when many data sets
        show a small effect, but assumes they are independent.
    datasets : list of str, default=None
        Names of the data sets, in the order of ``pvalues``, to name the
        identified ones.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        With fields:

        count : int
            ``û``, the estimated number of data sets on which A is better:
            the largest u whose partial conjunction p-value is at most
            ``alpha`` (0: not even one data set can be claimed).
        partial_pvalues : ndarray of shape (n_datasets,)
            The p-value of "A is better on at least u data sets", u = 1 ...
            N (non-decreasing in u).
        identified : list of int
            The data sets (indices, smallest p-value first) on which A is
            better by Holm's step-down procedure on ``pvalues`` at ``alpha``
            (the family-wise error over the data sets). With Bonferroni they
            are exactly ``count`` data sets; with Fisher they may be fewer
            (Fisher's count combines data sets none of which is convincing
            alone).
        identified_datasets : list of str or None
            Their names, with ``datasets``.
        pvalues : ndarray of shape (n_datasets,)
            The input.
        n_datasets : int
        method, alpha : the inputs.
        test : ``"replicability"``.

    See Also
    --------
    sklearn_bcv.compare_scores, sklearn_bcv.benchmark : compute it for
        every compared pair (``result.replicability``).

    Notes
    -----
    With the p-values sorted, ``p_(1) <= ... <= p_(N)``, the partial
    conjunction hypothesis "A is better on fewer than u data sets" is tested
    by (Benjamini and Heller 2008)

    * Bonferroni: ``p^u = (N - u + 1)·p_(u)``;
    * Fisher: ``p^u = P(chi2(2(N - u + 1)) >= -2 Σ_{i >= u} ln p_(i))``;

    made non-decreasing in u, and ``û = max{u : p^u <= alpha}``. Because the
    ``p^u`` are ordered, rejecting every u up to ``û`` holds the family-wise
    error at ``alpha`` (Dror et al. 2017): with probability at least ``1 -
    alpha``, A is truly better on at least ``û`` data sets. Holm's
    procedure on the same p-values names them. Each data set's p-value must
    be valid on its own (a test that accounts for the overlap of its
    cross-validation splits, as the corrected t test; the naive paired t
    test of the splits is not).

    References
    ----------
    .. [1] Y. Benjamini, R. Heller, "Screening for partial conjunction
       hypotheses", Biometrics 64(4):1215-1222, 2008.
    .. [2] R. Dror, G. Baumer, M. Bogomolov, R. Reichart, "Replicability
       analysis for natural language processing: testing significance with
       multiple datasets", TACL 5:471-486, 2017.

    Examples
    --------
    Six data sets; A is clearly better on three of them:

    >>> from sklearn_bcv.stats import replicability
    >>> p = [0.001, 0.004, 0.008, 0.3, 0.6, 0.9]
    >>> result = replicability(p, datasets=["a", "b", "c", "d", "e", "f"])
    >>> result.count, result.identified_datasets
    (3, ['a', 'b', 'c'])
    >>> result.partial_pvalues.round(3).tolist()
    [0.006, 0.02, 0.032, 0.9, 1.0, 1.0]

    Fisher's combination of the p-values from the third onwards is diluted
    by the three large ones (it suits many data sets with a small effect):

    >>> replicability(p, method="fisher").count
    2
    """
    pvalues = _check_pvalues(pvalues)
    alpha = check_alpha(alpha)
    method = check_method(method)
    n = pvalues.size
    if datasets is not None:
        datasets = [str(d) for d in datasets]
        if len(datasets) != n:
            raise ValueError(
                f"datasets must hold {n} names (one per p-value); got {len(datasets)}."
            )
    count, partial, order, n_identified = replicability_rows(
        pvalues[None, :], alpha, method
    )
    return one_result(
        pvalues,
        count[0],
        partial[0],
        order[0],
        n_identified[0],
        alpha=alpha,
        method=method,
        datasets=datasets,
    )
