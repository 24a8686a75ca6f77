"""Ranks of estimators across data sets, and Demšar's critical difference.

Shared by the rank tests (:mod:`._across`) and the critical-difference
diagram, so a rank and a CD are computed in one place.
"""

import numpy as np
from scipy.stats import norm, studentized_range

from ._ties import tied_ranks, value_tolerance
from ._utils import check_alpha, check_finite

__all__ = [
    "critical_difference",
    "nemenyi_continuity",
    "rank_scores",
    "rank_std_error",
]

#: The critical differences this module has a formula for. Which tests a
#: critical-difference diagram can draw, and how, is the registry's
#: declaration (``diagram=`` of :func:`~sklearn_bcv.register_test`).
_CD_FORMULAS = ("nemenyi", "bonferroni_dunn")


def check_score_table(scores, *, name="scores", min_datasets=2, min_estimators=2):
    """``scores`` as a finite float array of shape (n_datasets, k)."""
    try:
        arr = np.asarray(scores)
    except ValueError:
        raise ValueError(
            f"{name} must be a 2-D array (n_datasets, n_estimators); got a ragged "
            "nested sequence."
        ) from None
    if arr.dtype.kind not in "biuf":
        raise ValueError(
            f"{name} must hold numbers (higher is better); got dtype {arr.dtype}."
        )
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be a 2-D array (n_datasets, n_estimators); got shape "
            f"{arr.shape}."
        )
    n_datasets, k = arr.shape
    if n_datasets < min_datasets or k < min_estimators:
        raise ValueError(
            f"{name} must have at least {min_datasets} data sets (rows) and "
            f"{min_estimators} estimators (columns); got shape {arr.shape}."
        )
    return check_finite(arr.astype(np.float64), name=name)


def rank_scores(scores):
    """Rank the estimators on each data set: 1 = best (highest score).

    Parameters
    ----------
    scores : array-like of shape (n_datasets, k)
        Higher is better.

    Returns
    -------
    ranks : ndarray of shape (n_datasets, k)
        Ties get the average of the ranks they span. The scores are your
        numbers: two tie only when they are equal at their own precision
        (the tie rule of :mod:`._ties`: within ``2**-46`` of their own
        magnitude, a rounding, never a difference of decimals, and never
        because of another score's or another data set's magnitude);
        :func:`~sklearn_bcv.compare_scores` makes the means of per-split
        scores that are equal in your decimals equal before it ranks them,
        each data set on its own.

    Examples
    --------
    >>> from sklearn_bcv.stats._ranks import rank_scores
    >>> rank_scores([[0.9, 0.8, 0.8], [0.7, 0.9, 0.5]]).tolist()
    [[1.0, 2.5, 2.5], [2.0, 1.0, 3.0]]
    >>> rank_scores([[1e-14, 2e-14, 0.9]]).tolist()  # distinct: never merged
    [[3.0, 2.0, 1.0]]
    >>> rank_scores([[(0.1 + 0.2) / 2, 0.3 / 2]]).tolist()  # a mean's rounding
    [[1.5, 1.5]]
    """
    scores = check_score_table(scores, min_datasets=1, min_estimators=1)
    return tied_ranks(-scores, value_tolerance(scores), axis=1)


def nemenyi_continuity(k, n_datasets):
    """Half a step of a difference of two mean ranks: ``1/(2N)`` (rank sums
    move by whole ranks), ``1/N`` for two estimators (without ties each
    data set moves the difference by ±1, so the rank sums of the two
    differ by an even number or an odd one, in steps of 2)."""
    return (1.0 if int(k) == 2 else 0.5) / int(n_datasets)


def rank_std_error(k, n_datasets):
    """Standard error of a difference of mean ranks, ``sqrt(k(k+1)/(6N))``."""
    return float(np.sqrt(k * (k + 1) / (6.0 * n_datasets)))


def critical_difference(
    k, n_datasets, alpha=0.05, test="nemenyi", *, n_comparisons=None, continuity=True
):
    """Demšar's critical difference of mean ranks.

    Two mean ranks further apart than the CD differ significantly by the
    Nemenyi test (all pairs) or the Bonferroni–Dunn test (against a
    control, k − 1 comparisons).

    Parameters
    ----------
    k : int
        Number of estimators, at least 2.
    n_datasets : int
        Number of data sets, at least 2.
    alpha : float, default=0.05
    test : {"nemenyi", "bonferroni_dunn"}, default="nemenyi"
    n_comparisons : int, default=None
        The number M of comparisons Bonferroni–Dunn adjusts for; None means
        k − 1 (against a control). Ignored by Nemenyi.
    continuity : bool, default=True
        Nemenyi only: add the continuity correction ``1/(2N)`` (``1/N``
        with two estimators) of :func:`~sklearn_bcv.stats.nemenyi` (rank
        sums are whole numbers, and without it the test exceeds its level
        for some N and k); False gives Demšar's CD.

    Returns
    -------
    cd : float

    Examples
    --------
    Demšar (2006), §3.2.2: four algorithms on 14 data sets, alpha = 0.05.

    >>> from sklearn_bcv.stats._ranks import critical_difference
    >>> round(critical_difference(4, 14, continuity=False), 3)
    1.254

    With the continuity correction ``1/(2N)`` the Nemenyi test applies:

    >>> round(critical_difference(4, 14), 3)
    1.289
    >>> round(critical_difference(4, 14, test="bonferroni_dunn"), 3)
    1.168

    Bonferroni over all six pairs instead of the three against a control:

    >>> round(critical_difference(4, 14, test="bonferroni_dunn", n_comparisons=6), 3)
    1.287
    """
    for value, name, low in ((k, "k", 2), (n_datasets, "n_datasets", 2)):
        if (
            isinstance(value, bool)
            or not isinstance(value, int | np.integer)
            or value < low
        ):
            raise ValueError(f"{name} must be an integer >= {low}; got {value!r}.")
    alpha = check_alpha(alpha)
    if test not in _CD_FORMULAS:
        raise ValueError(f"test must be one of {list(_CD_FORMULAS)}; got {test!r}.")
    if n_comparisons is None:
        n_comparisons = int(k) - 1
    elif (
        isinstance(n_comparisons, bool)
        or not isinstance(n_comparisons, int | np.integer)
        or n_comparisons < 1
    ):
        raise ValueError(
            f"n_comparisons must be None or an integer >= 1; got {n_comparisons!r}."
        )
    se = rank_std_error(int(k), int(n_datasets))
    if test == "nemenyi":
        q_alpha = studentized_range.ppf(1.0 - alpha, int(k), np.inf) / np.sqrt(2.0)
        correction = nemenyi_continuity(k, n_datasets) if continuity else 0.0
        return float(q_alpha * se + correction)
    q_alpha = norm.ppf(1.0 - alpha / (2.0 * int(n_comparisons)))
    return float(q_alpha * se)
