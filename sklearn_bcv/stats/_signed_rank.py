"""Wilcoxon's signed-rank test, exact with ties and zeros.

The null distribution of the signed-rank statistic given the observed tie
pattern and zero method is the subset-sum distribution of the doubled
midranks (integers): a dynamic programme over the sums, computed once per
tie pattern and cached (without ties the pattern depends on n only, so all
the pairs of a study share one distribution). See
:func:`~sklearn_bcv.stats.wilcoxon` for what is computed.
"""

from functools import lru_cache

import numpy as np
from scipy import special

__all__ = ["EXACT_MAX_N", "signed_rank_test"]

#: Largest number of nonzero differences (those whose signs are random under
#: the null hypothesis, whatever the zero method) with an exact p-value;
#: above it, the normal approximation. Zeros do not count: 60 data sets of
#: which 55 tie are 5 signs, and their exact p-value is the test's.
EXACT_MAX_N = 50


@lru_cache(maxsize=512)
def _null_tails(doubled):
    """``(P(T <= t), P(T >= t))`` for t = 0 ... sum(doubled), T the sum of a
    random subset of ``doubled`` (each element in with probability 1/2).

    The counts of subsets by sum are whole numbers below ``2**50``, exact
    in float64; the tails are their cumulative sums over ``2**n``.
    """
    total = sum(doubled)
    counts = np.zeros(total + 1)
    counts[0] = 1.0
    reach = 0
    for weight in doubled:
        # Subsets with this element: every sum reached so far, shifted.
        counts[weight : reach + weight + 1] += counts[: reach + 1].copy()
        reach += weight
    scale = 0.5 ** len(doubled)
    lower = np.cumsum(counts) * scale
    upper = np.cumsum(counts[::-1])[::-1] * scale
    lower.flags.writeable = upper.flags.writeable = False
    return lower, upper


def _row_ranks(magnitudes):
    """``(ranks, doubled_sorted)`` of each row of ``magnitudes`` (R, n):
    average ranks (1 = smallest) of exactly tied values, as
    ``scipy.stats.rankdata(..., method="average", axis=1)``, and the doubled
    ranks in increasing order (whole numbers: the tie pattern)."""
    n_rows, n = magnitudes.shape
    order = np.argsort(magnitudes, axis=1, kind="stable")
    ordered = np.take_along_axis(magnitudes, order, axis=1)
    starts = np.ones((n_rows, n), dtype=bool)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    group = np.cumsum(starts.ravel()) - 1
    first = np.tile(np.arange(n), n_rows)[starts.ravel()]  # in-row positions
    size = np.diff(np.r_[np.flatnonzero(starts.ravel()), starts.size])
    doubled_sorted = (2 * first + size + 1)[group].reshape(n_rows, n)
    ranks = np.empty((n_rows, n))
    np.put_along_axis(ranks, order, doubled_sorted / 2.0, axis=1)
    return ranks, doubled_sorted


@lru_cache(maxsize=128)
def _untied(n):
    return tuple(range(2, 2 * n + 1, 2))


def _tie_correction(values):
    """``Σ (t³ - t)`` over the groups of equal ``values``."""
    if values.size == 0:
        return 0.0
    _, sizes = np.unique(values, return_counts=True)
    sizes = sizes.astype(np.float64)
    return float(np.sum(sizes**3 - sizes))


def _normal_pvalue(d, zero_method, alternative):
    """scipy's normal approximation (no continuity correction) of ``R+``
    on the differences ``d`` of one comparison, with the tie correction and
    the terms of the zeros."""
    if zero_method == "wilcox":
        d = d[d != 0]
    magnitudes = np.abs(d)
    ranks, _ = _row_ranks(magnitudes[None, :])
    ranks = ranks[0]
    zeros = d == 0
    n = float(d.size)
    r_plus = float(np.sum(ranks[d > 0]))
    n_zero = float(np.count_nonzero(zeros))
    mean = n * (n + 1.0) / 4.0
    variance = n * (n + 1.0) * (2.0 * n + 1.0)
    if zero_method == "zsplit":
        r_plus += float(np.sum(ranks[zeros])) / 2.0
        ties = _tie_correction(magnitudes)
    else:  # pratt (wilcox has no zeros left)
        mean -= n_zero * (n_zero + 1.0) / 4.0
        variance -= n_zero * (n_zero + 1.0) * (2.0 * n_zero + 1.0)
        ties = _tie_correction(magnitudes[~zeros])
    se = np.sqrt(max(variance - ties / 2.0, 0.0) / 24.0)
    if se == 0:
        return 1.0
    z = (r_plus - mean) / se
    if alternative == "greater":
        return float(special.ndtr(-z))
    if alternative == "less":
        return float(special.ndtr(z))
    return float(min(1.0, 2.0 * special.ndtr(-abs(z))))


def signed_rank_test(d, zero_method, alternative):
    """``(statistic, pvalue)`` of the signed-rank test of each row of ``d``
    (n_comparisons, n), arrays of shape (n_comparisons,).

    ``d`` holds differences whose ties and zeros are exact already (see
    :mod:`._ties`). The statistic is scipy's: ``min(R+, R-)`` two-sided,
    ``R+`` one-sided, zsplit's zeros half to each sum. The zeros have the
    lowest ranks of ``|d|``, so the nonzero differences' ranks among
    themselves (``wilcox``) are those of the row minus the number of zeros,
    and their doubled ranks are the tail of the row's sorted pattern.
    """
    n_rows, n = d.shape
    ranks, doubled_sorted = _row_ranks(np.abs(d))
    zeros = d == 0
    positive = d > 0
    n_zero = zeros.sum(axis=1)
    if zero_method == "wilcox":
        ranks = ranks - n_zero[:, None]
        doubled_sorted = doubled_sorted - 2 * n_zero[:, None]
        total = (n - n_zero) * (n - n_zero + 1) / 2.0
        zero_ranks = zero_share = np.zeros(n_rows)
    else:
        total = np.full(n_rows, n * (n + 1) / 2.0)
        zero_ranks = n_zero * (n_zero + 1) / 2.0
        zero_share = np.where(zeros, ranks, 0.0).sum(axis=1) / 2.0
        if zero_method == "pratt":
            zero_share = np.zeros(n_rows)
    r_positive = np.where(positive, ranks, 0.0).sum(axis=1)
    r_plus = r_positive + zero_share
    r_minus = total - zero_ranks - r_positive + zero_share
    statistic = np.minimum(r_plus, r_minus) if alternative == "two-sided" else r_plus
    pvalue = np.ones(n_rows)
    untied = (doubled_sorted[:, 1:] != doubled_sorted[:, :-1]).all(axis=1)
    for row in np.flatnonzero(n_zero < n):
        if n - n_zero[row] > EXACT_MAX_N:
            pvalue[row] = _normal_pvalue(d[row], zero_method, alternative)
            continue
        start = int(n_zero[row])
        if untied[row] and (start == 0 or zero_method == "wilcox"):
            pattern = _untied(n - start)
        else:
            pattern = tuple(doubled_sorted[row, start:].tolist())
        lower, upper = _null_tails(pattern)
        observed = int(round(2.0 * r_positive[row]))
        if alternative == "greater":
            pvalue[row] = upper[observed]
        elif alternative == "less":
            pvalue[row] = lower[observed]
        else:
            pvalue[row] = min(1.0, 2.0 * min(lower[observed], upper[observed]))
    return statistic, pvalue
