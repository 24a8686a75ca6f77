"""The smallest p-value a test with a discrete null law can reach.

A rank or sign test on N data sets has finitely many outcomes, so its
p-value has a floor: ``2·2^-N`` for the two-sided sign and signed-rank
tests (every data set on one side), and after a correction over M
comparisons the floor of the adjusted p-values is the correction applied
to M comparisons all at the floor (every correction here is monotone in
each p-value). When that floor is not below alpha, no scores whatever
could make the test reject: the verdict was fixed before the data were
seen, and a report must say so.

The tests report their floor given the data's own ties (``min_pvalue``,
and ``min_pvalue_adjusted`` for a family). This module gives the floor
without ties for a number of data sets, so that a report can say what
would change a verdict fixed in advance: how many data sets the test
needs, or another family.
"""

import numpy as np
from scipy import special, stats

from ._corrections import PAIRS_ONLY, adjust_pvalues
from ._ranks import nemenyi_continuity, rank_std_error

__all__ = ["adjusted_floor", "datasets_needed", "pvalue_floor"]

#: The most data sets :func:`datasets_needed` looks at.
MAX_DATASETS = 10_000


def pvalue_floor(test, n_datasets, k, *, alternative="two-sided"):
    """The smallest raw p-value of the built-in test ``test`` on
    ``n_datasets`` data sets of ``k`` estimators without ties, or None for
    a test whose floor is not known here.

    Examples
    --------
    >>> from sklearn_bcv.stats._attainable import pvalue_floor
    >>> pvalue_floor("wilcoxon", 5, 2)
    0.0625
    >>> round(pvalue_floor("exact_posthoc", 2, 5), 12)  # 2·(1/20)²
    0.005
    """
    n, k = int(n_datasets), int(k)
    sides = 2.0 if alternative == "two-sided" else 1.0
    if test in ("wilcoxon", "sign"):
        return float(min(1.0, sides * 0.5**n))
    if test == "exact_posthoc":
        return float(min(1.0, sides * (1.0 / (k * (k - 1))) ** n))
    if test == "friedman":  # every data set ranks alike: k!·(1/k!)^N
        return float(np.exp(-(n - 1) * special.gammaln(k + 1.0)))
    se = rank_std_error(k, n)
    if test == "nemenyi":
        q = max(k - 1 - nemenyi_continuity(k, n), 0.0) * np.sqrt(2.0) / se
        return 1.0 if q == 0 else float(stats.studentized_range.sf(q, k, np.inf))
    if test in ("friedman_posthoc", "bonferroni_dunn", "holm"):
        return float(min(1.0, 2.0 * special.ndtr(-(k - 1) / se)))
    return None


def adjusted_floor(floor, n_comparisons, correction, *, alpha=0.05):
    """The smallest adjusted p-value of a family of ``n_comparisons``
    comparisons, each of raw floor ``floor`` (a number, or one per
    comparison), by ``correction`` (None: the raw floor)."""
    floors = np.broadcast_to(np.asarray(floor, dtype=float), (int(n_comparisons),))
    if correction is None or len(floors) <= 1:
        return float(np.min(floors))
    return float(np.min(adjust_pvalues(floors, correction, alpha=alpha)))


def _family_floor(test, n, k, n_comparisons, correction, alpha, alternative):
    floor = pvalue_floor(test, n, k, alternative=alternative)
    if floor is None:
        return None
    if test == "nemenyi":  # the studentized range is the family's adjustment
        return floor
    if correction in PAIRS_ONLY and n_comparisons != k * (k - 1) // 2:
        correction = "holm"
    return adjusted_floor(floor, n_comparisons, correction, alpha=alpha)


def datasets_needed(
    test, k, *, n_comparisons=1, correction=None, alpha=0.05, alternative="two-sided"
):
    """The fewest data sets (without ties) on which ``test`` can reject at
    ``alpha`` after ``correction`` over ``n_comparisons``; None when the
    floor of ``test`` is not known here or not reached by
    :data:`MAX_DATASETS` data sets.

    Examples
    --------
    Wilcoxon on every pair of 5 estimators with Holm's correction (10
    pairs) needs 9 data sets: ``2·2^-9·10 = 0.039``.

    >>> from sklearn_bcv.stats._attainable import datasets_needed
    >>> datasets_needed("wilcoxon", 5, n_comparisons=10, correction="holm")
    9
    """

    def floor(n):
        return _family_floor(test, n, k, n_comparisons, correction, alpha, alternative)

    if floor(2) is None:
        return None
    low, high = 2, 2
    while floor(high) >= alpha:  # the floors fall with N: double, then bisect
        low, high = high, 2 * high
        if high > MAX_DATASETS:
            return None
    while low < high:
        middle = (low + high) // 2
        if floor(middle) < alpha:
            high = middle
        else:
            low = middle + 1
    return high
