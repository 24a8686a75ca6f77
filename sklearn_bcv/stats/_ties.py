"""Ties in the user's units: the one rule of every test that ranks or
compares values it derives from the scores.

Scores come as decimals (0.81, or 81 %). The values the tests derive from
them -- differences ``a - b``, aligned values ``x_ij - mean_i``, ranges,
split means, Walsh averages, spreads -- are computed in binary floating
point, so two of them that are equal in the user's decimals can differ in
their last bits, and differently in other units or another column order:
``0.83 - 0.82`` is ``0.010000000000000009`` while ``83 - 82`` is ``1``.

The rule (``doc/user_guide.rst``, "Ties in your units"): two derived values
are **equal** when they differ by at most

.. math:: \\tau = 2^{-46}\\,M \\quad (64\\,\\varepsilon M),

``M`` the largest magnitude among the inputs they come from (the scores,
or the differences and the rope a test is given), ``ε = 2^-52`` the
machine epsilon; a derived value within ``τ`` of 0 (or of a threshold such
as the rope) **is** 0 (that threshold). ``τ`` is 64 to 128 units in the
last place of ``M``: the rounding of a subtraction, of a mean of thousands
of values, of a change of units ``a·x + b`` and of a second subtraction
together stay below it, while two decimals of up to 12 significant digits
that differ are at least ``10^-12 M`` apart, 70 times ``τ``.

Near-equal values are grouped by **single linkage**: sorted, a value
joins the group of its predecessor when the gap between them is at most
``τ``. A chain of near-equal values (each within ``τ`` of the next) is one
group even when its ends are further apart: grouping is then transitive
and does not depend on the order of the values, so a reordering of the
estimators cannot change it. Chains longer than ``τ`` arise only from
values equal up to rounding, never from distinct decimals. Ranks average
over the groups, and a group that holds 0 (or a threshold) takes that
value.

The tests call these helpers on their derived values only: the scores
themselves are compared exactly where they are the user's own numbers
(ties in the scores are ties in any units already), and with the rule
where they are derived (the mean of per-split scores).
"""

import numpy as np
from scipy.stats import rankdata

from ._utils import check_real

__all__ = [
    "TIE_ULPS",
    "check_score_scale",
    "merge_magnitudes",
    "merge_ties",
    "side",
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


def check_score_scale(score_scale):
    """``score_scale`` of the tests on differences: None or a finite number > 0."""
    if score_scale is None:
        return None
    return check_real(
        score_scale,
        name="score_scale",
        expected="None or the largest |score| the differences come from, a "
        "finite number > 0",
        is_valid=lambda value: value > 0,
    )


def _sorted_groups(flat, tolerance):
    """``(order, starts)``: the sorting permutation and, in sorted order,
    True where a value starts a new group (a gap above ``tolerance``)."""
    order = np.argsort(flat, kind="stable")
    ordered = flat[order]
    starts = np.empty(flat.size, dtype=bool)
    if flat.size:
        starts[0] = True
        with np.errstate(over="ignore", invalid="ignore"):
            starts[1:] = np.diff(ordered) > tolerance
    return order, ordered, starts


def tie_labels(values, tolerance):
    """Group label of every value, 0, 1, ... increasing with the values.

    Values within ``tolerance`` of their sorted predecessor share its label
    (single linkage); ``tolerance=0`` groups exact ties only.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.stats._ties import tie_labels
    >>> tie_labels(np.array([0.3, 0.1 + 0.2, 0.2, 0.30001]), 1e-12).tolist()
    [1, 1, 0, 2]
    """
    values = np.asarray(values, dtype=np.float64)
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
    >>> d = np.abs([0.83 - 0.82, 0.02, 0.52 - 0.51])
    >>> d[0] == d[2]  # equal in the user's decimals, not in binary
    np.False_
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
    if tolerance <= 0 or values.size == 0:
        return values.copy()
    anchors = np.asarray(anchors, dtype=np.float64).ravel()
    flat = np.concatenate([values.ravel(), anchors])
    order, ordered, starts = _sorted_groups(flat, tolerance)
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
    >>> d = np.array([0.83 - 0.82, 0.51 - 0.52, 1e-17, -0.02])
    >>> merged = merge_magnitudes(d, 1e-15)
    >>> merged.tolist()
    [0.01, -0.01, 0.0, -0.02]
    """
    values = np.asarray(values, dtype=np.float64)
    if tolerance <= 0 or values.size == 0:
        return values + 0.0  # a copy, and -0.0 becomes 0.0
    magnitudes = merge_ties(np.abs(values), tolerance, anchors=anchors)
    return np.where(values < 0, -magnitudes, magnitudes) + 0.0


def side(values, threshold, tolerance):
    """+1 where a value exceeds ``threshold`` by more than ``tolerance``, -1
    where it falls below it by more, 0 where it equals it by the rule.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.stats._ties import side
    >>> side(np.array([0.83 - 0.82, 0.02, 0.0]), 0.01, 1e-15).tolist()
    [0, 1, -1]
    """
    values = np.asarray(values, dtype=np.float64)
    above = values > threshold + tolerance
    below = values < threshold - tolerance
    return above.astype(np.int8) - below.astype(np.int8)
