"""Validation and small numerical helpers shared by every registered test.

Every test accepts optional leading batch dimensions (e.g. ``tables`` of shape
``(n_batches, n_splits, 2, 2)``) so a simulation can evaluate thousands of
comparisons in one numpy call; the helpers below are written elementwise for
that reason. Without batch dimensions the result fields are Python scalars.

Degenerate input follows one rule (the user guide's formulas), implemented here once: a
statistic whose denominator is 0 is 0 with p-value 1 when its numerator is 0
too (no evidence either way, whatever the alternative), otherwise ``±inf``
with p-value 0 on the side of the infinity (and 1 on the other side for a
one-sided alternative). Never NaN, never a division warning.

Extreme input follows one rule too: every finite input is accepted, however
large or small (up to the largest double, down to subnormals), and non-finite
input is refused by :func:`check_finite`, the one check of NaN and inf. The
statistics are invariant to the scale of the differences, so they are
computed on differences divided by a power of two
(:func:`power_of_two_scale`): nothing is squared or summed at a magnitude
that overflows, and, a power of two being exact in binary floating point,
the result is the very number the unscaled formula gives whenever that one
does not overflow. A ratio too large for a double is ``±inf`` (its p-value 0
on its side), as a zero denominator gives.
"""

from functools import partial
from numbers import Real

import numpy as np
from scipy import special
from sklearn.utils import Bunch

from .._constants import ALTERNATIVES


def check_real(value, *, name, expected, is_valid):
    """Validate a finite real scalar for which ``is_valid(value)`` holds.

    Booleans, strings, complex numbers, NaN and infinities are refused with
    ``"{name} must be {expected}; got {value!r}."``; returns a float.
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, Real)
        or not np.isfinite(value)
        or not is_valid(value)
    ):
        raise ValueError(f"{name} must be {expected}; got {value!r}.")
    return float(value)


def label_type(values):
    """``"string"``, ``"number"`` or ``"mixed"``: the type of the class
    labels in the array ``values``."""
    if values.dtype.kind in "US":
        return "string"
    if values.dtype != object:
        return "number"
    is_string = {isinstance(v, str) for v in values}
    if len(is_string) > 1:
        return "mixed"
    return "string" if is_string == {True} else "number"


def check_label_type(pred, y, *, name, y_name="y"):
    """Predicted labels ``pred`` must be of the label type of ``y`` (all
    strings or all numbers), with no None or NaN: a prediction of another
    type is never equal to its target and would silently count as an
    error."""
    if pred.dtype == object and any(v is None or v != v for v in pred):
        raise ValueError(
            f"{name} contains missing values (None or NaN); every record needs "
            "a predicted label."
        )
    kinds = label_type(pred), label_type(y)
    if kinds[0] == "mixed" or (pred.size and y.size and kinds[0] != kinds[1]):
        raise ValueError(
            f"{name} must hold labels of {y_name}'s type ({kinds[1]}s, like "
            f"{y[:1].tolist()[0]!r}); got {kinds[0]} labels, like "
            f"{pred[:1].tolist()[0]!r}. Predictions of another type are never "
            f"equal to {y_name} and would count as errors."
        )


def check_bool(value, *, name):
    """Validate a flag: True or False (NumPy's bool too); return a bool."""
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be True or False; got {value!r}.")
    return bool(value)


def check_alpha(alpha):
    """Validate the significance level; return it as a float."""
    return check_real(
        alpha, name="alpha", expected="a number in (0, 1)", is_valid=lambda a: 0 < a < 1
    )


def check_alternative(alternative, *, test, allowed=ALTERNATIVES):
    """Validate ``alternative`` against what ``test`` can honour."""
    if not isinstance(alternative, str) or alternative not in ALTERNATIVES:
        raise ValueError(
            f"alternative must be one of {list(ALTERNATIVES)}; got {alternative!r}."
        )
    if alternative not in allowed:
        raise ValueError(
            f"{test} supports alternative in {list(allowed)} only; got "
            f"{alternative!r} (its statistic does not carry the direction of "
            "the difference)."
        )
    return alternative


def is_real_dtype(dtype):
    """Whether an array of ``dtype`` holds real numbers (bool, int, float)."""
    return np.dtype(dtype).kind in "biuf"


def check_finite(arr, *, name, expected="finite"):
    """Refuse NaN and infinities in ``arr``: the one check every test uses.

    Raises ``ValueError("{name} must be {expected}; got NaN or inf.")``;
    returns ``arr`` unchanged.
    """
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be {expected}; got NaN or inf.")
    return arr


def as_numeric_array(values, *, name, expected):
    """``np.asarray(values)``, with a clear error for ragged nested sequences."""
    try:
        return np.asarray(values)
    except ValueError:
        raise ValueError(
            f"{name} must be {expected}; got a ragged nested sequence (its rows "
            "have different lengths)."
        ) from None


# Counts are stored as int64; the tests compute on them in float64, so a
# count up to 2**63 - 1 neither wraps around nor overflows when squared.
_MAX_COUNT = 2**63


def check_tables(tables, *, name="tables"):
    """Return ``tables`` as an int array of shape (..., n_splits, 2, 2).

    A single (2, 2) table is read as one split. Counts must be finite,
    non-negative whole numbers below 2**63.
    """
    arr = as_numeric_array(
        tables, name=name, expected="an array of shape (n_splits, 2, 2)"
    )
    if not is_real_dtype(arr.dtype):
        raise ValueError(f"{name} must be an array of counts; got dtype {arr.dtype}.")
    if arr.ndim < 2 or arr.shape[-2:] != (2, 2):
        raise ValueError(
            f"{name} must have shape (n_splits, 2, 2) (or (2, 2) for one split); "
            f"got shape {arr.shape}."
        )
    if arr.ndim == 2:
        arr = arr[np.newaxis]
    if arr.shape[-3] == 0:
        raise ValueError(f"{name} must hold at least one table; got shape {arr.shape}.")
    check_finite(arr, name=name, expected="finite counts")
    if np.any(arr < 0):
        raise ValueError(f"{name} must be non-negative counts; got a negative entry.")
    if np.any(arr != np.round(arr)):
        raise ValueError(f"{name} must be whole-number counts; got a fraction.")
    if np.any(arr >= _MAX_COUNT):
        raise ValueError(
            f"{name} must be counts below 2**63 (they are stored as int64); got "
            f"{arr.max().item()!r}."
        )
    return arr.astype(np.int64)


def check_differences(differences, *, min_splits=1, test=None, name="differences"):
    """Return ``differences`` as a float array of shape (..., n_splits)."""
    arr = as_numeric_array(
        differences, name=name, expected="an array of shape (n_splits,)"
    )
    if not is_real_dtype(arr.dtype):
        raise ValueError(
            f"{name} must be numeric (bool, int or float); got dtype {arr.dtype}."
        )
    arr = arr.astype(np.float64)
    if arr.ndim == 0:
        arr = arr[np.newaxis]
    check_finite(arr, name=name)
    if arr.shape[-1] < min_splits:
        who = f"{test} needs" if test else "Need"
        raise ValueError(
            f"{who} at least {min_splits} splits; got {name} with {arr.shape[-1]}."
        )
    return arr


def check_mx2_differences(differences, *, test, min_repeats=1):
    """Return m×2 differences reshaped to (..., m, 2) (split 2r + k -> [r, k])."""
    arr = check_differences(differences, min_splits=0, test=test)
    n_splits = arr.shape[-1]
    if n_splits % 2 or n_splits < 2 * min_repeats:
        raise ValueError(
            f"{test} needs the differences of an m×2 design (2m splits, "
            f"m >= {min_repeats}, in the order fold 0, fold 1 of each "
            f"repetition); got {n_splits} splits."
        )
    return arr.reshape(*arr.shape[:-1], n_splits // 2, 2)


def check_size(value, *, name):
    """Validate a training or test set size (a positive finite number)."""
    return check_real(
        value, name=name, expected="a positive number", is_valid=lambda v: v > 0
    )


def power_of_two_scale(values, axis=-1):
    """Divide ``values`` by a power of two so that their largest magnitude
    along ``axis`` is in [1/2, 1).

    Returns ``(scaled, exponent)``: ``values == scaled * 2**exponent``, with
    ``exponent`` an int array of the shape of ``values`` reduced over
    ``axis`` (0 where every value is 0). Squares and sums of the scaled
    values cannot overflow, and multiplying by a power of two is exact (only
    values below ``2**-1022`` times the largest lose bits, to underflow), so
    a scale-invariant statistic of ``scaled`` is the one of ``values``. Undo
    with :func:`unscale`.
    """
    values = np.asarray(values, dtype=np.float64)
    _, exponent = np.frexp(np.max(np.abs(values), axis=axis, keepdims=True))
    with np.errstate(under="ignore"):
        scaled = np.ldexp(values, -exponent)
    return scaled, np.squeeze(exponent, axis=axis)


def stable_mean(values, axis=None):
    """The mean of ``values`` along ``axis``, without overflow.

    A finite table whose sum overflows (``[1e308, 1e308]``) still has a
    finite mean: the values are scaled by a power of two first (exact), so
    the mean is ``np.mean`` of the scaled values, scaled back.
    """
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0 or not np.all(np.isfinite(values)):
        return np.mean(values, axis=axis)
    scaled, exponent = power_of_two_scale(values, axis=axis)
    return unscale(np.mean(scaled, axis=axis), exponent)


def unscale(values, exponent):
    """``values * 2**exponent``; a result beyond the largest double is ``±inf``.

    The inverse of :func:`power_of_two_scale` for quantities in the units of
    the input (a mean, a standard error, a confidence bound); also scales a
    threshold in those units (a rope) into the scaled units, with
    ``-exponent``. Never a warning.
    """
    with np.errstate(over="ignore", under="ignore"):
        return np.ldexp(np.asarray(values, dtype=np.float64), exponent)


def safe_divide(numerator, denominator):
    """Elementwise ``numerator / denominator`` with the documented degenerate rule.

    A zero denominator gives 0 when the numerator is 0 too, else ``±inf`` with
    the numerator's sign; a quotient beyond the largest double (a tiny
    denominator) is ``±inf`` too. Never NaN, never a division warning.
    """
    num = np.asarray(numerator, dtype=np.float64)
    den = np.asarray(denominator, dtype=np.float64)
    num, den = np.broadcast_arrays(num, den)
    out = np.where(num == 0, 0.0, np.copysign(np.inf, num))
    nonzero = den != 0
    with np.errstate(over="ignore", under="ignore"):
        np.divide(num, den, out=out, where=nonzero)
    return out


def undefined_ratio(numerator, denominator):
    """Where ``numerator / denominator`` is 0/0: no evidence either way.

    The statistic is 0 there (see :func:`safe_divide`) and the p-value must be
    1 for every alternative, not the 1/2 a one-sided tail gives at 0.
    """
    return (np.asarray(numerator) == 0) & (np.asarray(denominator) == 0)


# Distribution functions: the ufuncs scipy.stats itself evaluates (t.cdf is
# special.stdtr, norm.cdf is ndtr, chi2.sf is chdtrc, f.sf is fdtrc), so the
# numbers are scipy.stats' own, without the ~300 µs that building a frozen
# distribution costs on every call of a test.


def student_cdf(x, df):
    """Student t(df) cumulative distribution function, elementwise."""
    return special.stdtr(df, x)


def chi2_sf(x, df):
    """Upper tail of chi-squared(df), elementwise."""
    return special.chdtrc(df, x)


def f_sf(x, df1, df2):
    """Upper tail of F(df1, df2), elementwise (real df1 allowed)."""
    return special.fdtrc(df1, df2, x)


def pvalue_from_cdf(statistic, cdf, alternative, *, undefined=None):
    """P-value of ``statistic`` under a symmetric distribution given by its cdf.

    ``"greater"`` is the upper tail ``cdf(-statistic)``, ``"less"`` the lower
    tail, ``"two-sided"`` twice the smaller one. ``undefined`` marks 0/0
    statistics (see :func:`undefined_ratio`), whose p-value is 1 whatever the
    alternative.
    """
    statistic = np.asarray(statistic, dtype=np.float64)
    if alternative == "greater":
        pvalue = cdf(-statistic)
    elif alternative == "less":
        pvalue = cdf(statistic)
    else:
        pvalue = np.minimum(1.0, 2.0 * cdf(-np.abs(statistic)))
    if undefined is not None:
        pvalue = np.where(undefined, 1.0, pvalue)
    return pvalue


def t_pvalue(statistic, df, alternative, *, undefined=None):
    """P-value of a t statistic with ``df`` degrees of freedom."""
    return pvalue_from_cdf(
        statistic, partial(student_cdf, df=df), alternative, undefined=undefined
    )


def normal_pvalue(statistic, alternative, *, undefined=None):
    """P-value of a standard normal statistic."""
    return pvalue_from_cdf(statistic, special.ndtr, alternative, undefined=undefined)


def confidence_interval(center, std_error, alpha, alternative, *, df=None):
    """(1 - alpha) interval ``center ± q·std_error``; q from t(df), or normal.

    One-sided as ``alternative`` says, about the interval's own parameter and
    as :func:`scipy.stats.ttest_1samp` does: ``"greater"`` gives
    ``(low, inf)`` and ``"less"`` gives ``(-inf, high)``. A zero standard
    error gives the point ``center`` on its finite side(s), even where the
    quantile is infinite (an ``alpha`` so small that ``1 - alpha`` rounds to
    1). ``df=None`` means the standard normal quantile.
    """
    center = np.asarray(center, dtype=np.float64)
    std_error = np.asarray(std_error, dtype=np.float64)
    level = 1.0 - alpha / 2.0 if alternative == "two-sided" else 1.0 - alpha
    quantile = special.ndtri(level) if df is None else special.stdtrit(df, level)
    # A zero standard error is a point, whatever the quantile (inf·0 is NaN).
    half_width = np.zeros_like(std_error)
    np.multiply(quantile, std_error, out=half_width, where=std_error != 0)
    infinite = np.full_like(center, np.inf)
    low = -infinite if alternative == "less" else center - half_width
    high = infinite if alternative == "greater" else center + half_width
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def _scalar(value):
    arr = np.asarray(value)
    if arr.ndim:
        return arr
    item = arr.item()
    if arr.dtype.kind == "f" and isinstance(item, float | int):
        return float(item)
    return item


def make_result(
    *, test, statistic, pvalue, df, alpha, alternative, reject=None, **extra
):
    """Build the Bunch every registered test returns.

    ``reject`` defaults to ``pvalue < alpha``. 0-d arrays become Python scalars
    so a single comparison prints plainly; batched input keeps arrays.
    """
    if reject is None:
        reject = np.asarray(pvalue) < alpha
    result = Bunch(
        statistic=_scalar(statistic),
        pvalue=None if pvalue is None else _scalar(pvalue),
        df=df,
        reject=_scalar(reject),
        alternative=alternative,
        alpha=alpha,
        test=test,
    )
    for key, value in extra.items():
        if isinstance(value, np.ndarray | np.generic):
            value = _scalar(value)
        result[key] = value
    if isinstance(result.reject, np.bool_):
        result.reject = bool(result.reject)
    return result
