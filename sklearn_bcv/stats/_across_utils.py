"""Shared input checks and helpers of the tests across data sets.

Re-exported by :mod:`sklearn_bcv.stats._across`, from which the other
modules of the family (and other packages' tests) import them.
"""

from numbers import Integral

import numpy as np
from scipy import special

from .._checks import check_integer
from ._corrections import PAIRS_ONLY, adjust_pvalues, check_family
from ._ranks import (
    check_score_table,
    rank_scores,
)
from ._utils import (
    as_numeric_array,
    check_differences,
    check_finite,
    check_real,
    check_size,
    is_real_dtype,
    make_result,
)

_TWO_SIDED = ("two-sided",)
_ZERO_METHODS = ("wilcox", "pratt", "zsplit")


# --------------------------------------------------------------------------
# Input validation
# --------------------------------------------------------------------------


def _check_dataset_differences(
    values, *, test, name="dataset_differences", batch=False
):
    """``values`` as a finite float array of shape (n_datasets,), n >= 2;
    ``batch=True`` also takes (n_comparisons, n_datasets)."""
    expected = "a 1-D array of shape (n_datasets,)"
    if batch:
        expected += " or a 2-D array of shape (n_comparisons, n_datasets)"
    arr = as_numeric_array(values, name=name, expected=expected)
    if not is_real_dtype(arr.dtype):
        raise ValueError(
            f"{name} must be numeric (score_a - score_b per data set); got dtype "
            f"{arr.dtype}."
        )
    if arr.ndim != 1 and not (batch and arr.ndim == 2):
        raise ValueError(f"{name} must be {expected}; got shape {arr.shape}.")
    if arr.shape[-1] < 2:
        raise ValueError(
            f"{test} needs at least 2 data sets; got {name} with {arr.shape[-1]}."
        )
    return check_finite(arr.astype(np.float64), name=name)


def _check_split_differences(values, *, test, name="split_differences", batch=False):
    """``values`` as a finite float array of shape (n_datasets, n_splits);
    ``batch=True`` also takes (n_comparisons, n_datasets, n_splits)."""
    arr = check_differences(values, min_splits=2, test=test, name=name)
    if arr.ndim not in ((2, 3) if batch else (2,)) or arr.shape[-2] < 1:
        raise ValueError(
            f"{name} must be a 2-D array of shape (n_datasets, n_splits)"
            + (" or 3-D (n_comparisons, n_datasets, n_splits)" if batch else "")
            + f"; got shape {np.shape(values)}."
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
    n_samples = check_integer(n_samples, name="n_samples", low=1)
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
# Ranks and (k, k) tables
# --------------------------------------------------------------------------


def _rank_table(scores):
    """``(scores, ranks, mean_ranks)``; ranks 1 = best, ties averaged."""
    scores = check_score_table(scores)
    ranks = rank_scores(scores)
    return scores, ranks, ranks.mean(axis=0)


def _tie_sum(ranks):
    """``Σ_i Σ_groups (t³ − t)`` over the groups of tied scores of each row,
    read from the row's average ranks (tied scores, by the tie rule, share
    one exact half-integer rank)."""
    ordered = np.sort(ranks, axis=1)
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
    denominator = n_datasets * (k**3 - k) - _tie_sum(ranks)
    return spread, denominator


def _concordance_probability(ranks):
    """P(every data set ranks the k estimators as the first one does) under
    H0, each data set's arrangement of its tied groups equally likely
    (read from the ranks, as :func:`_tie_sum`)."""
    n_datasets, k = ranks.shape
    log_p = 0.0
    for row in ranks[1:]:
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
# Post hoc families: all pairs or against a control, one correction
# --------------------------------------------------------------------------


def family_pairs(k, control):
    """``(rows, cols)`` of the family: all pairs A < B, or (j, control)."""
    if control is None:
        return np.triu_indices(k, 1)
    others = np.array([j for j in range(k) if j != control], dtype=np.intp)
    return others, np.full(others.shape, control, dtype=np.intp)


def check_posthoc_params(control=None, correction="holm", **_):
    """A post hoc family's own parameters, checked before any fit (the
    control's range is checked once k is known)."""
    check_family(correction, control)
    if control is not None and (
        isinstance(control, bool) or not isinstance(control, Integral) or control < 0
    ):
        raise ValueError(
            "control must be None or the column index of the control estimator, "
            f"an integer >= 0; got {control!r}."
        )


def posthoc_family(
    *,
    test,
    statistic,
    pvalue,
    pairs,
    k,
    control,
    correction,
    alpha,
    alternative,
    **extra,
):
    """The result of a post hoc family from the statistic and raw p-value of
    each of its ``pairs`` (``statistic`` positive when the row is better).
    With ``min_pvalue`` (the smallest raw p-value a comparison can reach),
    ``min_pvalue_adjusted`` is the smallest adjusted one the family can.

    Every family is adjusted by :func:`adjust_pvalues`; its (k, k) tables
    are in ``names`` order, row = A, column = B, antisymmetric statistic,
    symmetric p-values, and cells outside the family hold statistic 0,
    p-values 1 and ``reject`` False.
    """
    check_posthoc_params(control, correction)
    family = list(zip(*pairs)) if correction in PAIRS_ONLY else None
    adjusted = adjust_pvalues(pvalue, correction, alpha=alpha, pairs=family)
    if extra.get("min_pvalue") is not None:
        # The correction is monotone in every p-value: its smallest adjusted
        # value is reached with every comparison at the smallest raw one.
        extra["min_pvalue_adjusted"] = float(
            np.min(
                adjust_pvalues(
                    np.full(len(pvalue), float(extra["min_pvalue"])),
                    correction,
                    alpha=alpha,
                    pairs=family,
                )
            )
        )
    tested = _pair_matrix(k, pairs, 1.0, symmetric=True, fill=0.0).astype(bool)
    pvalue_adjusted = _pair_matrix(k, pairs, adjusted, symmetric=True, fill=1.0)
    return make_result(
        test=test,
        statistic=_pair_matrix(k, pairs, statistic, symmetric=False, fill=0.0),
        pvalue=_pair_matrix(k, pairs, pvalue, symmetric=True, fill=1.0),
        df=extra.pop("df", None),
        alpha=alpha,
        alternative=alternative,
        reject=(pvalue_adjusted < alpha) & tested,
        pvalue_adjusted=pvalue_adjusted,
        tested=tested,
        control=control,
        correction=correction,
        n_comparisons=len(pvalue),
        **extra,
    )
