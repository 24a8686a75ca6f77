"""Validation of a simulation's sizes and grids, before any work.

A grid (``deltas``, ``n_runs``, ``n_samples``, ...) is one or more numbers,
each finite, of the expected kind and inside the range the simulation is
defined on; an empty grid would return an empty result, a NaN would fail
deep inside numpy, so both are refused at the boundary with a message
naming the argument. An integer grid goes through the package's one
integer check, :func:`sklearn_bcv._checks.check_integer`, as every size of
a simulation does.

The bounds below refuse absurd sizes before any work (a simulation with
``n_estimators=1000`` ran for more than five minutes per experiment,
``n_splits=10**7`` filled memory): each keeps one experiment within about a
minute and a block of experiments within a few hundred megabytes on a
2-core machine, and none is below what a study of the tests needs.
"""

import math
from numbers import Integral, Real

import numpy as np

from .._checks import check_integer

__all__ = [
    "MAX_BLOCK_CELLS",
    "MAX_DATASETS",
    "MAX_ESTIMATORS",
    "MAX_EXPERIMENTS",
    "MAX_RECORDS",
    "MAX_RUNS",
    "MAX_SEED001_RECORDS",
    "MAX_SPLITS",
    "MORE_ONLY_COSTS_TIME",
    "check_experiments",
    "check_grid",
]

#: Most experiments (repetitions) of a simulation: a rejection rate is then
#: known to within ±0.003 (95%); more only costs time, linearly.
MAX_EXPERIMENTS = 100_000
#: Most data sets of one simulated study (Corani & Benavoli 2015 uses 50; a study across
#: data sets rarely has a few hundred).
MAX_DATASETS = 10_000
#: Most estimators compared at once: 1,225 pairs, about 17 s per
#: experiment of :func:`simulate_null_across`'s five setups.
MAX_ESTIMATORS = 50
#: Most splits per data set (a 500×2 design or 1000-fold CV).
MAX_SPLITS = 1_000
#: Most cross-validation runs per data set (m of Corani & Benavoli's m×10-fold CV).
MAX_RUNS = 100
#: Most records of a simulated data set (every repetition refits on them;
#: logistic regression on 100,000 records takes about 0.1 s a fit).
MAX_RECORDS = 100_000
#: Most records of Wang, Li & Li's Gaussian data sets: its SVMs' fits grow
#: quadratically (Wang, Li & Li 2017 uses 200).
MAX_SEED001_RECORDS = 10_000
#: Most simulated scores of one experiment (data sets × splits × estimators):
#: a block of 250 experiments then holds at most 200 MB per array.
MAX_BLOCK_CELLS = 100_000

#: What an upper bound protects, in its message.
MORE_ONLY_COSTS_TIME = "more only costs time"


def check_experiments(value, name):
    """The number of experiments (repetitions) of a simulation: an integer
    in ``[1, MAX_EXPERIMENTS]``, refused before any work beyond."""
    return check_integer(
        value, name=name, low=1, high=MAX_EXPERIMENTS, why=MORE_ONLY_COSTS_TIME
    )


def _interval(low, high, closed):
    left = "[" if closed[0] else "("
    right = "]" if closed[1] else ")"
    low = "-inf" if low is None else f"{low:g}"
    high = "inf" if high is None else f"{high:g}"
    return f"{left}{low}, {high}{right}"


def check_grid(
    value, name, *, kind=Real, low=None, high=None, closed=(True, True), why=None
):
    """``value`` (a number or a sequence of numbers) as a tuple of numbers.

    Parameters
    ----------
    value : number or sequence of numbers
        The grid.
    name : str
        The argument's name, for messages.
    kind : {numbers.Real, numbers.Integral}, default=numbers.Real
        The kind of every number (bool is refused either way); integers are
        checked by :func:`~sklearn_bcv._checks.check_integer`.
    low, high : float, default=None
        The bounds of every number; None is unbounded.
    closed : tuple of bool, default=(True, True)
        Whether ``low`` and ``high`` themselves are allowed.
    why : str, default=None
        What the upper bound of an integer grid protects, for its message.

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
    if kind is Integral:
        low = None if low is None else (low if closed[0] else math.floor(low) + 1)
        high = None if high is None else (high if closed[1] else math.ceil(high) - 1)
        return tuple(
            check_integer(v, name=name, low=low, high=high, why=why) for v in values
        )
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, kind):
            raise ValueError(f"{name} must be numbers; got {v!r}.")
        if not math.isfinite(v):
            raise ValueError(f"{name} must be finite; got {v!r}.")
        below = low is not None and (v < low if closed[0] else v <= low)
        above = high is not None and (v > high if closed[1] else v >= high)
        if below or above:
            raise ValueError(
                f"{name} must be in {_interval(low, high, closed)}; got {v!r}."
            )
        out.append(float(v))
    return tuple(out)
