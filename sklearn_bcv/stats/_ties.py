"""Ties in the user's units: the one rule of every test that ranks or
compares values it derives from the scores.

Scores come as decimals (0.81, or 81 %). The user's own scores are equal
only when they are equal at their own precision: each is its own ``M``
below (a score within ``τ`` of another is that score with a rounding, a
mean the user computed; two decimals never are), never another score's or
another data set's. The values the tests derive from them -- differences
``a - b``, means of per-split scores, aligned values ``x_ij - mean_i``,
ranges, Walsh averages, spreads -- are computed in binary floating point,
so two of them that are equal in the user's decimals can differ in their
last bits, and differently in other units or another column order:
``0.83 - 0.82`` is ``0.010000000000000009``,
``0.82 - 0.81`` is ``0.009999999999999898`` and ``83 - 82`` is ``1``.

The rule (``doc/user_guide.rst``, "Ties in your units"): two derived values
are **equal** when they differ by at most

.. math:: \\tau = u\\,M, \\qquad u = \\max(64\\,\\varepsilon,\\ 8\\,\\varepsilon_{in}),

``M`` the largest magnitude among **the inputs that produced that value**
(the two scores of a difference -- or the per-split scores behind them --,
the scores of the data set an aligned value or a range comes from, the
rope it is compared with), never another cell's or another data set's;
``ε = 2^-52`` the machine epsilon of the arithmetic and ``ε_in`` that of
the scores as given (``2^-52`` for float64, so ``u = 2^-46``; ``2^-23``
for float32 scores, which carry float32's rounding: ``u = 2^-20``). Two
values compare with the larger of their two ``τ``; a derived value within
its ``τ`` of 0 (or of a threshold such as the rope) **is** 0 (that
threshold). ``64 ε`` is 64 to 128 units in the last place of ``M``: the
rounding of a subtraction, of a mean of thousands of values, of a change
of units ``a·x + b`` and of a second subtraction together stay well below
it, while two decimals of up to 12 significant digits that differ are at
least ``10^-12 M`` apart, 70 times ``τ``; for float32 scores, decimals of
up to 6 significant digits stay apart.

Near-equal values are grouped by **single linkage**: sorted, a value joins
the group of its predecessor when the gap between them is at most ``τ``.
A chain of near-equal values (each within ``τ`` of the next) is one group
even when its ends are further apart: the grouping is then transitive and
does not depend on the order of the values, so a reordering of the
estimators cannot change it. Chains longer than ``τ`` arise only from
values equal up to rounding, never from distinct decimals. Groups never
cross what is ranked apart (the rows of a table ranked within each data
set). Ranks average over the groups; a group that holds 0 (or a
threshold) takes that value, any other its smallest member.

The precision of the scores as given reaches the rule through
:func:`scores_precision` (a context :func:`~sklearn_bcv.compare_scores`
sets from its table's dtype); without it, float64.
"""

import contextlib
import contextvars

import numpy as np
from scipy.stats import rankdata

from ._utils import check_real

__all__ = [
    "INPUT_ULPS",
    "TIE_ULPS",
    "check_score_scale",
    "difference_tolerance",
    "merge_magnitudes",
    "merge_rows",
    "merge_ties",
    "precision_of",
    "row_tolerance",
    "score_precision",
    "scores_precision",
    "tie_labels",
    "tie_tolerance",
    "tie_unit",
    "tied_ranks",
    "value_tolerance",
]

#: ``τ`` is at least ``TIE_ULPS · ε · M`` (float64 arithmetic): 2**-46 of
#: the magnitude of the inputs.
TIE_ULPS = 64
#: ... and at least ``INPUT_ULPS · ε_in · M``, ``ε_in`` the machine epsilon
#: of the scores as given (float32: 2**-20 of the magnitude).
INPUT_ULPS = 8
_EPS = float(np.finfo(np.float64).eps)
_PRECISION = contextvars.ContextVar("sklearn_bcv_score_precision", default=_EPS)


def precision_of(*arrays):
    """The machine epsilon of the scores as given: that of the coarsest
    floating-point dtype among ``arrays`` (arrays, DataFrames, dtypes or
    anything :func:`numpy.asarray` takes), float64's for integers, Python
    numbers and anything finer.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.stats._ties import precision_of
    >>> precision_of(np.ones(2, dtype=np.float32)) == 2.0**-23
    True
    >>> precision_of([0.5, 1.0], np.arange(3)) == 2.0**-52
    True
    """
    precision = _EPS
    for value in arrays:
        dtypes = getattr(value, "dtypes", None)  # a DataFrame: every column
        if dtypes is not None:
            found = list(dtypes)
        elif isinstance(value, np.dtype):
            found = [value]
        else:
            found = [getattr(value, "dtype", None) or np.asarray(value).dtype]
        for dtype in found:
            # pandas' extension dtypes (Float32, string) name their numpy one,
            # if any; a column of text is no score.
            try:
                dtype = np.dtype(getattr(dtype, "numpy_dtype", dtype))
            except TypeError:
                continue
            if dtype.kind == "f":
                precision = max(precision, float(np.finfo(dtype).eps))
    return precision


def score_precision():
    """The machine epsilon of the scores the tests are given (float64's
    unless :func:`scores_precision` says otherwise)."""
    return _PRECISION.get()


@contextlib.contextmanager
def scores_precision(precision):
    """Within the block, the scores carry the rounding of ``precision`` (a
    machine epsilon, e.g. :func:`precision_of` of the table as given): the
    tie rule's unit is ``max(64 ε, 8 precision)``."""
    token = _PRECISION.set(max(_EPS, float(precision)))
    try:
        yield
    finally:
        _PRECISION.reset(token)


def tie_unit():
    """``u``: ``τ = u · M`` (2**-46 for float64 scores, 2**-20 for float32)."""
    return max(TIE_ULPS * _EPS, INPUT_ULPS * score_precision())


def _largest_magnitude(values):
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        return 0.0
    return float(np.max(np.abs(values)))


def tie_tolerance(*inputs):
    """``τ``: ``u`` (:func:`tie_unit`) times the largest magnitude among
    ``inputs``, for a value derived from all of them.

    Each of ``inputs`` is a number, an array or None (ignored): e.g. the
    whole table a residual of an ANOVA comes from.

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
    return tie_unit() * largest


def value_tolerance(values):
    """``τ`` of each of ``values`` from its own magnitude: for values whose
    inputs are not known (a mean the user computed), the best bound of
    their rounding; two distinct decimals of up to 12 significant digits
    never tie by it.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.stats._ties import value_tolerance
    >>> (value_tolerance(np.array([1e-14, -0.5])) / 2.0**-46).tolist()
    [1e-14, 0.5]
    """
    return tie_unit() * np.abs(np.asarray(values, dtype=np.float64))


def row_tolerance(scores, axis=-1):
    """``τ`` of each row of a score table: ``u`` times the row's largest
    ``|score|`` (kept as an axis of length 1, to broadcast), for values
    derived from the whole row (aligned values, ranges).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.stats._ties import row_tolerance
    >>> (row_tolerance(np.array([[0.5, -1.0], [80.0, 64.0]])) / 2.0**-46).tolist()
    [[1.0], [80.0]]
    """
    scores = np.asarray(scores, dtype=np.float64)
    return tie_unit() * np.max(np.abs(scores), axis=axis, keepdims=True)


_SCORE_SCALE = (
    "None, or the largest |score| the differences come from: a finite number "
    "> 0, or one per data set (finite, >= 0; with a leading axis of "
    "comparisons, one per comparison and data set)"
)


def check_score_scale(score_scale):
    """``score_scale`` of the tests on differences: None, a finite number
    > 0, or an array of finite numbers >= 0 (one per data set, or per
    comparison and data set)."""
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
        or scale.ndim not in (1, 2)
        or not np.all(np.isfinite(scale) & (scale >= 0))
    ):
        raise ValueError(f"score_scale must be {_SCORE_SCALE}; got {score_scale!r}.")
    return scale


def difference_tolerance(d, score_scale, rope=None, *, split=False):
    """``τ`` of differences ``d``: (..., n_datasets), or with ``split=True``
    (..., n_datasets, n_splits); leading axes are comparisons.

    Each difference's own: ``u`` times the largest of its ``|d|``, its
    data set's ``score_scale`` (the largest ``|score|`` it came from: a
    number, one per data set, or one per comparison and data set) and the
    rope -- never another data set's. With ``split=True`` the differences of
    one data set share one ``τ`` (from all of them: the per-split scores of
    the two estimators on that data set). Without ``score_scale`` a
    difference is its own scale (the scores it came from are unknown). The
    result broadcasts against ``d``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.stats._ties import difference_tolerance
    >>> d = np.array([1e-14, -0.5])
    >>> (difference_tolerance(d, None) / 2.0**-46).tolist()
    [1e-14, 0.5]
    >>> (difference_tolerance(d, np.array([0.9, 0.7])) / 2.0**-46).tolist()
    [0.9, 0.7]
    """
    score_scale = check_score_scale(score_scale)
    d = np.abs(np.asarray(d, dtype=np.float64))
    axis = -2 if split else -1  # the axis of the data sets
    if split:
        d = np.max(d, axis=-1, keepdims=True)
    scale = 0.0
    if score_scale is not None:
        scale = score_scale
        if np.ndim(scale):
            n_datasets = d.shape[axis]
            if scale.shape[-1] != n_datasets:
                raise ValueError(
                    f"score_scale must hold one scale per data set ({n_datasets}); "
                    f"got {scale.shape[-1]}."
                )
            if split:
                scale = scale[..., None]
            try:
                np.broadcast_shapes(scale.shape, d.shape)
            except ValueError:
                raise ValueError(
                    f"score_scale of shape {score_scale.shape} does not match the "
                    f"differences' comparisons and data sets {d.shape}."
                ) from None
    return tie_unit() * np.maximum(np.maximum(d, scale), rope or 0.0)


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


def _line_labels(values, tolerance):
    """Group labels of each line (last axis) of ``values``, grouped apart:
    0, 1, ... increasing with the values within each line."""
    shape = values.shape
    rows, tolerance = _rows(values, tolerance, np.empty(0), batch=True)
    if values.ndim == 1:
        rows = rows.reshape(1, -1)
    order, _, starts = _sorted_groups(rows, tolerance)
    labels = np.empty(rows.shape, dtype=np.intp)
    np.put_along_axis(labels, order, np.cumsum(starts, axis=1) - 1, axis=1)
    return labels.reshape(shape)


def merge_rows(values, tolerance):
    """``values`` (..., L) with the near-equal values of each line (last
    axis) made exactly equal, lines apart; values that are not finite (a
    failed fit's NaN) are left as they are and tie with nothing.

    ``tolerance`` broadcasts against ``values`` (each value's own). The
    derived values of one data set -- the means of its per-split scores --
    go through it before they are ranked.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.stats._ties import merge_rows
    >>> x = np.array([[(0.1 + 0.2) / 2, 0.3 / 2, np.nan], [0.15, 0.2, 0.3]])
    >>> merge_rows(x, 1e-15).tolist()
    [[0.15, 0.15, nan], [0.15, 0.2, 0.3]]
    """
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        return values.copy()
    finite = np.isfinite(values)
    tolerance = np.broadcast_to(np.asarray(tolerance, dtype=np.float64), values.shape)
    filled = np.where(finite, values, np.inf)
    lines = filled.reshape(-1, values.shape[-1])
    widths = np.where(finite, np.nan_to_num(tolerance), 0.0).reshape(lines.shape)
    merged = merge_ties(lines, widths, anchors=(), batch=True).reshape(values.shape)
    return np.where(finite, merged, values)


def tied_ranks(values, tolerance, *, axis=None):
    """Average ranks of ``values`` (1 = smallest), ties by the rule.

    ``axis=None`` ranks all values together; an int ranks along that axis,
    each line apart (its groups formed from its own values only). A rank
    depends only on the order of the groups.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.stats._ties import tied_ranks
    >>> d = np.abs([0.83 - 0.82, 0.02, 0.82 - 0.81])
    >>> bool(d[0] == d[2])  # equal in the user's decimals, not in binary
    False
    >>> tied_ranks(d, 1e-15).tolist()
    [1.5, 3.0, 1.5]
    >>> tied_ranks([[1.0, 1.18], [1.0, 1.09]], 0.1, axis=1).tolist()  # rows apart
    [[1.0, 2.0], [1.5, 1.5]]
    """
    values = np.asarray(values, dtype=np.float64)
    if axis is None:
        labels = tie_labels(values, tolerance)
        return rankdata(labels.ravel(), method="average").reshape(values.shape)
    # Each line along ``axis`` is grouped on its own: a value of another
    # line never bridges two of this one's.
    moved = np.moveaxis(values, axis, -1)
    if np.ndim(tolerance):
        tolerance = np.moveaxis(
            np.broadcast_to(np.asarray(tolerance, dtype=np.float64), values.shape),
            axis,
            -1,
        )
    labels = _line_labels(moved, tolerance)
    return np.moveaxis(rankdata(labels, method="average", axis=-1), -1, axis)


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
