"""Validation of what the Display objects draw, one helper per kind of input.

A display draws what it is given; these helpers make sure it is something
that can occur: mean ranks that some table of ranks could produce,
probabilities that sum to 1, p-values in [0, 1] (NaN refused: a missing
p-value must not be drawn as a rejection), finite sequences of bounded
length, names that tell the estimators apart, looks taken in order. Input
that contradicts itself (two rows labelled alike, a look taken before the
one it follows, a look that is not among the possible ones) would be drawn
as a figure that says something false; it is refused. Each raises a
one-line :class:`ValueError` naming the argument and what was expected.
"""

import numpy as np

__all__ = [
    "MAX_LOOKS",
    "MAX_MATRIX_K",
    "check_bool_matrix",
    "check_counts",
    "check_finite_sequence",
    "check_intervals",
    "check_looks",
    "check_matrix_size",
    "check_mean_ranks",
    "check_names",
    "check_probabilities",
]

#: Most estimators a significance matrix draws: k² annotated cells; above
#: this the figure is unreadable and its memory grows past a gigabyte
#: (k = 150 needed 5.8 GB). Summarize with a critical-difference diagram.
MAX_MATRIX_K = 40

#: Most looks a sequential display draws (a group-sequential design has a
#: handful; the library's own cap is far below this).
MAX_LOOKS = 1000


def _show(values, limit=8):
    values = np.asarray(values, dtype=float).ravel()
    shown = ", ".join(f"{v:.6g}" for v in values[:limit])
    return f"[{shown}{', ...' if values.size > limit else ''}]"


def check_mean_ranks(mean_ranks, *, name="mean_ranks", atol=None, complete=True):
    """``mean_ranks`` as a float array, checked to be mean ranks that occur.

    The mean ranks of k estimators over any number of data sets (ties
    sharing the mean of their ranks) lie in [1, k], sum to k(k + 1)/2, and
    any j of them sum to at least j(j + 1)/2 (j estimators cannot all come
    first). ``atol`` (default ``0.0005 k``, the rounding of ranks printed
    to three decimals) is the tolerance of the sums. ``complete=False``
    (a table with holes: each data set ranks the estimators it has, so the
    sums do not hold) checks the range only.
    """
    ranks = np.asarray(mean_ranks, dtype=float)
    if ranks.ndim != 1 or len(ranks) < 2:
        raise ValueError(
            f"{name} must be a 1-D array of at least 2 mean ranks; got shape "
            f"{ranks.shape}."
        )
    k = len(ranks)
    if not np.all(np.isfinite(ranks)) or np.any((ranks < 1) | (ranks > k)):
        raise ValueError(
            f"{name} must be finite ranks between 1 and k = {k}; got {_show(ranks)}."
        )
    if not complete:
        return ranks
    atol = 5e-4 * k if atol is None else atol
    total, expected = float(ranks.sum()), k * (k + 1) / 2
    if abs(total - expected) > atol:
        raise ValueError(
            f"{name} must sum to k(k + 1)/2 = {expected:g} (the ranks 1..{k} of "
            f"each data set, averaged); got {_show(ranks)}, summing to {total:.6g}."
        )
    j = np.arange(1, k + 1)
    short = np.flatnonzero(np.cumsum(np.sort(ranks)) < j * (j + 1) / 2 - atol)
    if short.size:
        n = int(short[0]) + 1
        raise ValueError(
            f"{name} cannot occur: its {n} smallest sum to less than "
            f"{n * (n + 1) / 2:g} ({n} estimators cannot all rank first); got "
            f"{_show(ranks)}."
        )
    return ranks


def check_probabilities(probabilities, *, name, n=3, atol=1e-6):
    """``probabilities`` as a float array of ``n`` values in [0, 1] summing
    to 1 (within ``atol``)."""
    try:
        p = np.asarray(probabilities, dtype=float)
    except (TypeError, ValueError):
        p = None
    if p is None or p.shape != (n,) or not np.all(np.isfinite(p)):
        raise ValueError(
            f"{name} must be {n} finite probabilities; got {probabilities!r}."
        )
    if np.any((p < 0) | (p > 1)) or abs(float(p.sum()) - 1) > atol:
        raise ValueError(
            f"{name} must be {n} probabilities in [0, 1] summing to 1; got "
            f"{_show(p)}, summing to {float(p.sum()):.6g}."
        )
    return p


def check_matrix_size(k, *, name="values", max_k=MAX_MATRIX_K):
    """Refuse a k x k matrix display above ``max_k`` estimators, before
    anything of size k² is drawn."""
    if k > max_k:
        raise ValueError(
            f"{name} has k = {k} estimators; a significance matrix draws at most "
            f"{max_k} (k² annotated cells on a figure growing with k); draw a "
            "critical-difference diagram instead, or the sub-matrix of the "
            "estimators of interest."
        )


def check_bool_matrix(values, *, name):
    """``values`` as a bool array, refusing anything but True/False/0/1: a
    NaN (a missing decision) would otherwise be read as True, a rejection."""
    array = np.asarray(values)
    if array.dtype != bool:
        try:
            numbers = array.astype(float)
        except (TypeError, ValueError):
            raise ValueError(
                f"{name} must hold booleans (True/False or 0/1); got dtype "
                f"{array.dtype}."
            ) from None
        bad = ~((numbers == 0) | (numbers == 1))  # NaN fails both
        if bad.any():
            where = tuple(int(i) for i in np.argwhere(bad)[0])
            raise ValueError(
                f"{name} must hold booleans (True/False or 0/1); got "
                f"{numbers[where]!r} at {list(where)} (NaN is not a decision)."
            )
    return array.astype(bool)


def check_names(names, k, *, name="names", per="one per estimator"):
    """``names`` as a list of ``k`` distinct strings.

    Two estimators drawn under one name (``["a", "a"]``, or ``[1, "1"]``,
    which print alike) cannot be told apart on the figure: refused, with
    the names given twice.
    """
    if isinstance(names, str) or not hasattr(names, "__iter__"):
        raise ValueError(f"{name} must be a list of {k} names, {per}; got {names!r}.")
    names = [str(item) for item in names]
    if len(names) != k:
        raise ValueError(f"{name} must hold k = {k} names, {per}; got {len(names)}.")
    seen, repeated = set(), []
    for item in names:
        if item in seen and item not in repeated:
            repeated.append(item)
        seen.add(item)
    if repeated:
        raise ValueError(
            f"{name} must be unique (each labels one estimator); "
            f"{repeated} given more than once in {names}."
        )
    return names


def check_looks(values, *, name):
    """Looks (repetitions fitted) as an int array: whole numbers >= 1 in
    strictly increasing order, as a sequential design takes them."""
    x = check_finite_sequence(values, name=name)
    if not len(x):
        raise ValueError(f"{name} must hold at least one look; got none.")
    if np.any(x < 1) or np.any(x != np.round(x)):
        raise ValueError(
            f"{name} must be whole numbers of repetitions >= 1; got {_show(x)}."
        )
    if np.any(np.diff(x) <= 0):
        i = int(np.flatnonzero(np.diff(x) <= 0)[0])
        raise ValueError(
            f"{name} must be in strictly increasing order (the looks are taken one "
            f"after the other); got {x[i + 1]:g} after {x[i]:g} in {_show(x)}."
        )
    return x.astype(np.int64)


def check_counts(values, *, name, shape=None):
    """A float array of finite counts >= 0 (of ``shape`` when given)."""
    try:
        x = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must hold numbers; got {values!r}.") from None
    if shape is not None and x.shape != shape:
        raise ValueError(f"{name} must have shape {shape}; got shape {x.shape}.")
    if not np.all(np.isfinite(x)) or np.any(x < 0):
        raise ValueError(f"{name} must hold finite counts >= 0; got {_show(x)}.")
    return x


def check_finite_sequence(values, *, name, max_length=MAX_LOOKS, allow_inf=False):
    """A 1-D float array of at most ``max_length`` values, none NaN (a NaN
    statistic or boundary would be drawn as nothing, or compared as a stop)
    and none infinite unless ``allow_inf`` (a one-sided boundary)."""
    x = np.asarray(values, dtype=float)
    if x.ndim != 1:
        raise ValueError(f"{name} must be 1-D; got shape {x.shape}.")
    if len(x) > max_length:
        raise ValueError(
            f"{name} has {len(x):,} values; a sequential display draws at most "
            f"{max_length:,} looks."
        )
    bad = np.isnan(x) if allow_inf else ~np.isfinite(x)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        what = "not NaN" if allow_inf else "finite"
        raise ValueError(f"{name} must be {what}; got {float(x[i])!r} at position {i}.")
    return x


def check_intervals(intervals, *, name, n, low=0.0, high=1.0):
    """``intervals`` as an (n, 2) float array of finite ``[lower, upper]``
    pairs within ``[low, high]``, ``lower <= upper``."""
    try:
        x = np.asarray(intervals, dtype=float)
    except (TypeError, ValueError):
        x = None
    if x is None or x.shape != (n, 2) or not np.all(np.isfinite(x)):
        raise ValueError(
            f"{name} must be {n} finite intervals [lower, upper] (shape ({n}, 2)); "
            f"got shape {np.shape(intervals)}."
        )
    bad = (x[:, 0] > x[:, 1]) | (x < low).any(axis=1) | (x > high).any(axis=1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{name} must hold intervals [lower, upper] with {low:g} <= lower <= "
            f"upper <= {high:g}; got {_show(x[i])} at row {i}."
        )
    return x
