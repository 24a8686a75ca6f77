"""Validation of the grids a simulation runs over (one helper for all).

A grid (``deltas``, ``n_runs``, ``n_samples``, ...) is one or more numbers,
each finite, of the expected kind and inside the range the simulation is
defined on; an empty grid would return an empty result, a NaN would fail
deep inside numpy, so both are refused at the boundary with a message
naming the argument.
"""

import math
from numbers import Integral, Real

import numpy as np

__all__ = ["check_grid"]


def _interval(low, high, closed):
    left = "[" if closed[0] else "("
    right = "]" if closed[1] else ")"
    low = "-inf" if low is None else f"{low:g}"
    high = "inf" if high is None else f"{high:g}"
    return f"{left}{low}, {high}{right}"


def check_grid(value, name, *, kind=Real, low=None, high=None, closed=(True, True)):
    """``value`` (a number or a sequence of numbers) as a tuple of numbers.

    Parameters
    ----------
    value : number or sequence of numbers
        The grid.
    name : str
        The argument's name, for messages.
    kind : {numbers.Real, numbers.Integral}, default=numbers.Real
        The kind of every number (bool is refused either way).
    low, high : float, default=None
        The bounds of every number; None is unbounded.
    closed : tuple of bool, default=(True, True)
        Whether ``low`` and ``high`` themselves are allowed.

    Returns
    -------
    values : tuple
        The numbers, as Python ints (``kind=Integral``) or floats.
    """
    try:
        values = tuple(np.atleast_1d(np.asarray(value, dtype=object)).ravel().tolist())
    except (TypeError, ValueError):
        values = (value,)
    if not values:
        raise ValueError(f"{name} must hold at least one value; got {value!r}.")
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, kind):
            what = "integers" if kind is Integral else "numbers"
            raise ValueError(f"{name} must be {what}; got {v!r}.")
        if not math.isfinite(v):
            raise ValueError(f"{name} must be finite; got {v!r}.")
        below = low is not None and (v < low if closed[0] else v <= low)
        above = high is not None and (v > high if closed[1] else v >= high)
        if below or above:
            raise ValueError(
                f"{name} must be in {_interval(low, high, closed)}; got {v!r}."
            )
        out.append(int(v) if kind is Integral else float(v))
    return tuple(out)
