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


def difference_tolerance(d, score_scale, rope=None, *, split=False):
    """``τ`` of differences ``d``: (..., n_datasets), or with ``split=True``
    (..., n_datasets, n_splits); leading axes are comparisons.

    With ``score_scale`` None (or one number), one ``τ`` per comparison,
    from its largest ``|d|``, the rope and the number; with one scale per
    data set, one ``τ`` per comparison and data set. The result broadcasts
    against ``d``.
    """
    score_scale = check_score_scale(score_scale)
    d = np.abs(np.asarray(d, dtype=np.float64))
    core = 2 if split else 1  # the axes of one comparison
    if score_scale is None or np.ndim(score_scale) == 0:
        largest = np.max(d, axis=tuple(range(d.ndim - core, d.ndim)), keepdims=True)
        largest = np.maximum(largest, score_scale or 0.0)
    else:
        n_datasets = d.shape[-core]
        if score_scale.shape != (n_datasets,):
            raise ValueError(
                f"score_scale must hold one scale per data set ({n_datasets}); "
                f"got {score_scale.shape[0]}."
            )
        if split:
            d = np.max(d, axis=-1, keepdims=True)
            score_scale = score_scale[:, None]
        largest = np.maximum(d, score_scale)
    return TIE_ULPS * _EPS * np.maximum(largest, rope or 0.0)


def _sorted_groups(rows, tolerance):
    """``(order, ordered, starts)`` of each row of ``rows`` (R, L): the
    sorting permutation within the row, the sorted values and, in sorted
    order, True where a value starts a new group (the row's first, or a gap
    above the larger ``tolerance`` of the two values it separates). Groups
    never cross rows."""
    order = np.argsort(rows, axis=1, kind="stable")
    ordered = np.take_along_axis(rows, order, axis=1)
    starts = np.empty(rows.shape, dtype=bool)
    if rows.size:
        starts[:, 0] = True
        if np.ndim(tolerance):
            tolerance = np.take_along_axis(tolerance, order, axis=1)
            tolerance = np.maximum(tolerance[:, 1:], tolerance[:, :-1])
        with np.errstate(over="ignore", invalid="ignore"):
            starts[:, 1:] = np.diff(ordered, axis=1) > tolerance
    return order, ordered, starts


def _rows(values, tolerance, anchors, batch):
    """``values`` and ``tolerance`` as rows (R, L) to group, each row
    followed by the ``anchors`` (exact: tolerance 0). ``batch``: one row per
    entry of the leading axis; else a single row."""
    n_rows = values.shape[0] if batch and values.ndim > 1 else 1
    rows = values.reshape(n_rows, -1)
    if np.ndim(tolerance):
        tolerance = np.broadcast_to(
            np.asarray(tolerance, dtype=np.float64), values.shape
        )
        tolerance = tolerance.reshape(n_rows, -1)
    if anchors.size:
        rows = np.concatenate(
            [rows, np.broadcast_to(anchors, (n_rows, anchors.size))], 1
        )
        if np.ndim(tolerance):
            tolerance = np.concatenate([tolerance, np.zeros((n_rows, anchors.size))], 1)
    return rows, (float(tolerance) if np.ndim(tolerance) == 0 else tolerance)


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
    rows, tolerance = _rows(values, tolerance, np.empty(0), batch=False)
    order, _, starts = _sorted_groups(rows, tolerance)
    labels = np.empty(values.size, dtype=np.intp)
    labels[order[0]] = np.cumsum(starts[0]) - 1
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


def merge_ties(values, tolerance, *, anchors=(0.0,), batch=False):
    """``values`` with every group of near-equal values made exactly equal.

    A group that holds one of ``anchors`` (0, a rope) takes the anchor's
    value (the smallest such anchor); any other group takes its smallest
    value. Equal values stay equal; every value moves by at most the width
    of its group (``tolerance`` unless a chain of rounding errors is longer).
    ``batch=True`` groups each entry of the leading axis (a comparison)
    apart.

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
    rows, tolerance = _rows(values, tolerance, anchors, batch)
    order, ordered, starts = _sorted_groups(rows, tolerance)
    if starts.all():  # no value near another or near an anchor (the rule)
        return values.copy()
    labels = np.cumsum(starts) - 1  # over all the rows: never across two
    flat = ordered.ravel()
    representative = flat[starts.ravel()]
    width = rows.shape[1]
    is_anchor = (order >= width - anchors.size).ravel()
    # Reversed so that the smallest anchor of a group is written last.
    representative[labels[is_anchor][::-1]] = flat[is_anchor][::-1]
    merged = np.empty(rows.shape)
    np.put_along_axis(merged, order, representative[labels].reshape(rows.shape), 1)
    return merged[:, : width - anchors.size].reshape(values.shape)


def merge_magnitudes(values, tolerance, *, anchors=(0.0,), batch=False):
    """``values`` with their magnitudes merged by :func:`merge_ties`, signs
    kept: ``d`` and ``-d'`` with ``|d| ≈ |d'|`` get exactly opposite values,
    and a value within ``tolerance`` of 0 becomes 0 (a positive zero).

    ``anchors`` are magnitudes (0, a rope): a value within ``tolerance`` of
    ``±rope`` becomes exactly ``±rope``. ``batch=True`` merges each entry of
    the leading axis (a comparison) apart.

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
    magnitudes = merge_ties(np.abs(values), tolerance, anchors=anchors, batch=batch)
    return np.where(values < 0, -magnitudes, magnitudes) + 0.0
