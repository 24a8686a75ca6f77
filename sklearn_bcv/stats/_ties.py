"""Ties in the user's units: the one rule of every test that ranks or
compares values it derives from the scores.

Scores come as decimals (0.81, or 81 %). The values the tests derive from
them -- differences ``a - b``, aligned values ``x_ij - mean_i``, ranges,
split means, Walsh averages, spreads -- are computed in binary floating
point, so two of them that are equal in the user's decimals can differ in
their last bits, and differently in other units or another column order:
``0.83 - 0.82`` is ``0.010000000000000009``, ``0.82 - 0.81`` is
``0.009999999999999898`` and ``83 - 82`` is ``1``.

The rule (``doc/user_guide.rst``, "Ties in your units"): two derived values
are **equal** when they differ by at most

.. math:: \\tau = 2^{-46}\\,M \\quad (64\\,\\varepsilon M),

``M`` the largest magnitude among the inputs they come from (the scores of
the data set a difference, an aligned value or a range comes from; or the
differences and the rope a test is given), ``ε = 2^-52`` the machine
epsilon; a derived value within ``τ`` of 0 (or of a threshold such as the
rope) **is** 0 (that threshold). ``τ`` is 64 to 128 units in the last
place of ``M``: the rounding of a subtraction, of a mean of thousands of
values, of a change of units ``a·x + b`` and of a second subtraction
together stay well below it, while two decimals of up to 12 significant
digits that differ are at least ``10^-12 M`` apart, 70 times ``τ``.
Values from data sets of different magnitudes each carry their own ``τ``
and tie when they differ by at most the larger, so a table whose scores
span many orders of magnitude keeps its small differences.

Near-equal values are grouped by **single linkage**: sorted, a value joins
the group of its predecessor when the gap between them is at most ``τ``.
A chain of near-equal values (each within ``τ`` of the next) is one group
even when its ends are further apart: the grouping is then transitive and
does not depend on the order of the values, so a reordering of the
estimators cannot change it. Chains longer than ``τ`` arise only from
values equal up to rounding, never from distinct decimals. Ranks average
over the groups; a group that holds 0 (or a threshold) takes that value,
any other its smallest member.

The scores themselves go through the same rule where they are ranked
(their ties are exact when they are the user's numbers, and the rule then
changes nothing; a mean of per-split scores is derived).
"""

import numpy as np
from scipy.stats import rankdata

from ._utils import check_real

__all__ = [
    "TIE_ULPS",
    "check_score_scale",
    "difference_tolerance",
    "merge_magnitudes",
    "merge_ties",
    "row_tolerance",
    "tie_labels",
    "tie_tolerance",
    "tied_ranks",
]

#: ``τ = TIE_ULPS · ε · M``: 2**-46 of the largest magnitude.
TIE_ULPS = 64
_EPS = float(np.finfo(np.float64).eps)


def _largest_magnitude(values):
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        return 0.0
    return float(np.max(np.abs(values)))


def tie_tolerance(*inputs):
    """``τ``: ``TIE_ULPS · ε`` times the largest magnitude among ``inputs``.

    Each of ``inputs`` is a number, an array or None (ignored): the scores,
    or the differences, the rope and the scores' scale a test is given.

    Examples
    --------
    >>> from sklearn_bcv.stats._ties import tie_tolerance
    >>> tie_tolerance([0.81, 0.8]) == 2.0**-46 * 0.81
    True
    >>> tie_tolerance([81.0, 80.0], None, 0.5) == 2.0**-46 * 81
    True
    """
    largest = max(
        (_largest_magnitude(value) for value in inputs if value is not None),
        default=0.0,
    )
    return TIE_ULPS * _EPS * largest


def row_tolerance(scores, axis=-1):
    """``τ`` of each row of a score table: ``TIE_ULPS · ε`` times the row's
    largest ``|score|`` (kept as an axis of length 1, to broadcast).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.stats._ties import row_tolerance
    >>> (row_tolerance(np.array([[0.5, -1.0], [80.0, 64.0]])) / 2.0**-46).tolist()
    [[1.0], [80.0]]
    """
    scores = np.asarray(scores, dtype=np.float64)
    return TIE_ULPS * _EPS * np.max(np.abs(scores), axis=axis, keepdims=True)


_SCORE_SCALE = (
    "None, or the largest |score| the differences come from: a finite number "
    "> 0, or one per data set (finite, >= 0)"
)


def check_score_scale(score_scale):
    """``score_scale`` of the tests on differences: None, a finite number
    > 0, or an array of finite numbers >= 0 (one per data set)."""
    if score_scale is None:
        return None
    if np.ndim(score_scale) == 0:
        return check_real(
            score_scale,
            name="score_scale",
            expected=_SCORE_SCALE,
            is_valid=lambda value: value > 0,
        )
    try:
        scale = np.asarray(score_scale, dtype=np.float64)
    except (TypeError, ValueError):
        scale = None
    if (
        scale is None
        or scale.ndim != 1
        or not np.all(np.isfinite(scale) & (scale >= 0))
    ):
        raise ValueError(f"score_scale must be {_SCORE_SCALE}; got {score_scale!r}.")
    return scale


def difference_tolerance(d, score_scale, rope=None):
    """``τ`` of the differences ``d`` (n_datasets,) or (n_datasets, n_splits).

    With ``score_scale`` None, one ``τ`` from the largest ``|d|`` and the
    rope; with one scale, from it too; with one scale per data set, one
    ``τ`` per data set (a column, to broadcast against split differences).
    """
    score_scale = check_score_scale(score_scale)
    if score_scale is None or np.ndim(score_scale) == 0:
        return tie_tolerance(d, score_scale, rope)
    d = np.asarray(d, dtype=np.float64)
    if score_scale.shape != d.shape[:1]:
        raise ValueError(
            f"score_scale must hold one scale per data set ({d.shape[0]}); got "
            f"{score_scale.shape[0]}."
        )
    largest = np.abs(d) if d.ndim == 1 else np.max(np.abs(d), axis=1)
    largest = np.maximum(np.maximum(largest, score_scale), rope or 0.0)
    tolerance = TIE_ULPS * _EPS * largest
    return tolerance if d.ndim == 1 else tolerance[:, None]


def _sorted_groups(flat, tolerance):
    """``(order, ordered, starts)``: the sorting permutation, the sorted
    values and, in sorted order, True where a value starts a new group (a
    gap above the larger ``tolerance`` of the two values it separates)."""
    order = np.argsort(flat, kind="stable")
    ordered = flat[order]
    starts = np.empty(flat.size, dtype=bool)
    if flat.size:
        starts[0] = True
        if np.ndim(tolerance):
            tolerance = np.asarray(tolerance)[order]
            tolerance = np.maximum(tolerance[1:], tolerance[:-1])
        with np.errstate(over="ignore", invalid="ignore"):
            starts[1:] = np.diff(ordered) > tolerance
    return order, ordered, starts


def _flat_tolerance(tolerance, shape, n_extra=0):
    """``tolerance`` flattened against values of ``shape`` (a scalar stays
    one), with ``n_extra`` zeros appended (the anchors are exact)."""
    if np.ndim(tolerance) == 0:
        return float(tolerance)
    tolerance = np.asarray(tolerance, dtype=np.float64)
    if tolerance.shape != shape:
        tolerance = np.broadcast_to(tolerance, shape)
    flat = tolerance.ravel()
    return np.concatenate([flat, np.zeros(n_extra)]) if n_extra else flat


def _positive(tolerance):
    """Whether any ``tolerance`` is above 0 (a number or an array)."""
    if np.ndim(tolerance) == 0:
        return tolerance > 0
    return bool((np.asarray(tolerance) > 0).any())


def tie_labels(values, tolerance):
    """Group label of every value, 0, 1, ... increasing with the values.

    Values within ``tolerance`` of their sorted predecessor share its label
    (single linkage); ``tolerance=0`` groups exact ties only. ``tolerance``
    is a number or an array broadcasting against ``values`` (each value's
    own; a gap is compared with the larger of its two values').

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.stats._ties import tie_labels
    >>> tie_labels(np.array([0.3, 0.1 + 0.2, 0.2, 0.30001]), 1e-12).tolist()
    [1, 1, 0, 2]
    """
    values = np.asarray(values, dtype=np.float64)
    tolerance = _flat_tolerance(tolerance, values.shape)
    order, _, starts = _sorted_groups(values.ravel(), tolerance)
    labels = np.empty(values.size, dtype=np.intp)
    labels[order] = np.cumsum(starts) - 1
    return labels.reshape(values.shape)


def tied_ranks(values, tolerance, *, axis=None):
    """Average ranks of ``values`` (1 = smallest), ties by the rule.

    ``axis=None`` ranks all values together; an int ranks along that axis.
    The groups are formed over all the values, so a rank depends only on
    the order of the groups.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.stats._ties import tied_ranks
    >>> d = np.abs([0.83 - 0.82, 0.02, 0.82 - 0.81])
    >>> bool(d[0] == d[2])  # equal in the user's decimals, not in binary
    False
    >>> tied_ranks(d, 1e-15).tolist()
    [1.5, 3.0, 1.5]
    """
    values = np.asarray(values, dtype=np.float64)
    labels = tie_labels(values, tolerance)
    if axis is None:
        return rankdata(labels.ravel(), method="average").reshape(values.shape)
    return rankdata(labels, method="average", axis=axis)


def merge_ties(values, tolerance, *, anchors=(0.0,)):
    """``values`` with every group of near-equal values made exactly equal.

    A group that holds one of ``anchors`` (0, a rope) takes the anchor's
    value (the smallest such anchor); any other group takes its smallest
    value. Equal values stay equal; every value moves by at most the width
    of its group (``tolerance`` unless a chain of rounding errors is longer).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.stats._ties import merge_ties
    >>> merge_ties(np.array([0.83 - 0.82, 0.01, 2e-17, 0.5]), 1e-15).tolist()
    [0.01, 0.01, 0.0, 0.5]
    """
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0 or not _positive(tolerance):
        return values.copy()
    anchors = np.asarray(anchors, dtype=np.float64).ravel()
    flat = np.concatenate([values.ravel(), anchors])
    tolerance = _flat_tolerance(tolerance, values.shape, anchors.size)
    order, ordered, starts = _sorted_groups(flat, tolerance)
    if starts.all():  # no value near another or near an anchor (the rule)
        return values.copy()
    labels = np.cumsum(starts) - 1
    representative = ordered[starts]
    is_anchor = order >= values.size
    # Reversed so that the smallest anchor of a group is written last.
    representative[labels[is_anchor][::-1]] = ordered[is_anchor][::-1]
    merged = np.empty(flat.size)
    merged[order] = representative[labels]
    return merged[: values.size].reshape(values.shape)


def merge_magnitudes(values, tolerance, *, anchors=(0.0,)):
    """``values`` with their magnitudes merged by :func:`merge_ties`, signs
    kept: ``d`` and ``-d'`` with ``|d| ≈ |d'|`` get exactly opposite values,
    and a value within ``tolerance`` of 0 becomes 0 (a positive zero).

    ``anchors`` are magnitudes (0, a rope): a value within ``tolerance`` of
    ``±rope`` becomes exactly ``±rope``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.stats._ties import merge_magnitudes
    >>> d = np.array([0.83 - 0.82, 0.81 - 0.82, 0.1 + 0.2 - 0.3, -0.02])
    >>> d.tolist()
    [0.010000000000000009, -0.009999999999999898, 5.551115123125783e-17, -0.02]
    >>> merge_magnitudes(d, 1e-15).tolist()
    [0.009999999999999898, -0.009999999999999898, 0.0, -0.02]
    """
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0 or not _positive(tolerance):
        return values + 0.0  # a copy, and -0.0 becomes 0.0
    magnitudes = merge_ties(np.abs(values), tolerance, anchors=anchors)
    return np.where(values < 0, -magnitudes, magnitudes) + 0.0
