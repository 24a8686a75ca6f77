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

#: Largest number of differences (zeros included) with an exact p-value, as
#: the exact path of :func:`scipy.stats.wilcoxon`; above it, the normal
#: approximation.
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


def _average_ranks(values):
    """``(ranks, doubled)``: the average ranks (1 = smallest) of exactly
    tied ``values``, as ``scipy.stats.rankdata(values, method="average")``
    without its per-call overhead (the test runs on every pair of a study),
    and the doubled ranks in increasing order, a tuple of ints (the tie
    pattern)."""
    n = values.size
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    ranks = np.empty(n)
    if n < 2 or np.all(ordered[1:] != ordered[:-1]):  # no ties
        ranks[order] = np.arange(1.0, n + 1.0)
        return ranks, _untied(n)
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    counts = np.diff(np.r_[starts, n])
    doubled = np.repeat(2 * starts + counts + 1, counts)
    ranks[order] = doubled / 2.0
    return ranks, tuple(doubled.tolist())


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


def _normal_pvalue(d, magnitudes, ranks, zero_method, alternative):
    """scipy's normal approximation (no continuity correction) of
    ``R+``, with the tie correction and the terms of the zeros."""
    zeros = d == 0
    n = float(d.size)
    r_plus = float(np.sum(ranks[d > 0]))
    n_zero = float(np.count_nonzero(zeros))
    mean = n * (n + 1.0) / 4.0
    variance = n * (n + 1.0) * (2.0 * n + 1.0)
    if zero_method == "zsplit":
        r_plus += float(np.sum(ranks[zeros])) / 2.0
        ties = _tie_correction(magnitudes)
    else:  # pratt (wilcox arrives with its zeros removed)
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
    """``(statistic, pvalue, exact)`` of the signed-rank test of ``d``.

    ``d`` holds differences whose ties and zeros are exact already (see
    :mod:`._ties`). The statistic is scipy's: ``min(R+, R-)`` two-sided,
    ``R+`` one-sided, zsplit's zeros half to each sum.
    """
    n_total = d.size
    if zero_method == "wilcox":
        d = d[d != 0]
    magnitudes = np.abs(d)
    ranks, doubled_sorted = _average_ranks(magnitudes)
    zeros = d == 0
    positive = d > 0
    n_zero = int(zeros.sum())
    total = d.size * (d.size + 1) / 2.0  # the ranks' sum
    zero_share = ranks[zeros].sum() / 2.0 if zero_method == "zsplit" else 0.0
    zero_ranks = n_zero * (n_zero + 1) / 2.0  # the zeros hold the lowest ranks
    r_positive = float(ranks[positive].sum())
    r_plus = r_positive + zero_share
    r_minus = total - zero_ranks - r_positive + zero_share
    statistic = min(r_plus, r_minus) if alternative == "two-sided" else r_plus
    if n_zero == d.size:
        return statistic, 1.0, True
    if n_total > EXACT_MAX_N:
        pvalue = _normal_pvalue(d, magnitudes, ranks, zero_method, alternative)
        return statistic, pvalue, False
    # The nonzero differences' doubled ranks are the tail of the sorted
    # pattern, after the zeros'.
    lower, upper = _null_tails(doubled_sorted[n_zero:])
    observed = int(round(2.0 * r_positive))
    if alternative == "greater":
        pvalue = upper[observed]
    elif alternative == "less":
        pvalue = lower[observed]
    else:
        pvalue = min(1.0, 2.0 * min(lower[observed], upper[observed]))
    return statistic, float(pvalue), True
