"""Effect sizes of two paired samples, with bootstrap confidence intervals.

Four kinds (see ``FORMULAS.md``, Part 3): Cohen's d_z of the paired
differences, Cohen's d with autorank's pooled standard deviation, Cliff's
delta and Akinshin's gamma. Every kind is positive when A (the first sample)
is better, i.e. higher. The interval is a paired bootstrap over the n pairs
(``scipy.stats.bootstrap``, BCa where defined).
"""

import warnings
from numbers import Integral, Real

import numpy as np
from scipy import stats as sp_stats
from sklearn.utils import Bunch

from .._checks import check_integer
from .._compat import Interval, StrOptions, validate_params
from ._utils import as_numeric_array, check_finite, power_of_two_scale, safe_divide

__all__ = ["effect_size", "EFFECT_SIZE_KINDS", "magnitude"]

# kind -> (negligible, small, medium) upper bounds of |estimate|.
_THRESHOLDS = {
    "cohen_dz": (0.2, 0.5, 0.8),
    "cohen_d": (0.2, 0.5, 0.8),
    "akinshin_gamma": (0.2, 0.5, 0.8),
    # Romano et al. (2006).
    "cliff_delta": (0.147, 0.33, 0.474),
}
EFFECT_SIZE_KINDS = tuple(_THRESHOLDS)
_MAD_SCALE = 1.4826
#: Most bootstrap resamples: a 95% interval's bounds no longer move in
#: their third digit long before, and the time grows linearly (about 0.4 s
#: per 100,000 resamples of 30 pairs; benchmarks/bench_size_bounds.py).
#: Refused before any work beyond.
MAX_RESAMPLES = 10**6


def magnitude(estimate, kind):
    """ "negligible", "small", "medium" or "large" for ``|estimate|``."""
    size = abs(float(estimate))
    for label, bound in zip(("negligible", "small", "medium"), _THRESHOLDS[kind]):
        if size < bound:
            return label
    return "large"


def _cohen_dz(a, b, axis=-1):
    d = a - b
    return safe_divide(np.mean(d, axis=axis), np.std(d, axis=axis, ddof=1))


def _cohen_d(a, b, axis=-1):
    pooled = np.sqrt((np.var(a, axis=axis, ddof=1) + np.var(b, axis=axis, ddof=1)) / 2)
    return safe_divide(np.mean(a, axis=axis) - np.mean(b, axis=axis), pooled)


def _cliff_delta(a, b, axis=-1):
    a = np.moveaxis(a, axis, -1)
    b = np.moveaxis(b, axis, -1)
    n = a.shape[-1]
    signs = np.sign(a[..., :, None] - b[..., None, :])
    return signs.sum(axis=(-2, -1)) / (n * n)


def _mad(x, axis):
    center = np.median(x, axis=axis, keepdims=True)
    return _MAD_SCALE * np.median(np.abs(x - center), axis=axis)


def _akinshin_gamma(a, b, axis=-1):
    pooled = np.sqrt((_mad(a, axis) ** 2 + _mad(b, axis) ** 2) / 2)
    return safe_divide(np.median(a, axis=axis) - np.median(b, axis=axis), pooled)


_STATISTICS = {
    "cohen_dz": _cohen_dz,
    "cohen_d": _cohen_d,
    "cliff_delta": _cliff_delta,
    "akinshin_gamma": _akinshin_gamma,
}


def _check_samples(a, b):
    arrays = []
    for values, name in ((a, "a"), (b, "b")):
        arr = as_numeric_array(values, name=name, expected="a 1-d array of scores")
        if arr.ndim != 1 or not np.issubdtype(arr.dtype, np.number):
            raise ValueError(
                f"{name} must be a 1-d array of numbers; got an array of shape "
                f"{arr.shape} and dtype {arr.dtype}."
            )
        arrays.append(check_finite(arr.astype(np.float64), name=name))
    a, b = arrays
    if a.shape != b.shape:
        raise ValueError(
            "a and b must be paired (the same length); got "
            f"{a.shape[0]} and {b.shape[0]} values."
        )
    if a.shape[0] < 2:
        raise ValueError(f"a and b need at least 2 pairs; got {a.shape[0]}.")
    # The kinds are scale invariant: a common power-of-two scale (exact)
    # keeps squares and sums of extreme scores finite.
    scaled, _ = power_of_two_scale(np.stack([a, b]).ravel())
    return scaled[: a.shape[0]], scaled[a.shape[0] :]


def _interval(statistic, a, b, *, confidence_level, n_resamples, random_state):
    """``(low, high, note)`` of the paired bootstrap, BCa where defined."""
    batch = None
    if statistic is _cliff_delta:  # (batch, n, n) comparisons at a time
        batch = max(1, 2_000_000 // (a.shape[0] ** 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            res = sp_stats.bootstrap(
                (a, b),
                statistic,
                paired=True,
                vectorized=True,
                n_resamples=n_resamples,
                batch=batch,
                confidence_level=confidence_level,
                method="BCa",
                random_state=random_state,
            )
    low, high = res.confidence_interval
    if np.isfinite(low) and np.isfinite(high):
        return float(low), float(high), None
    # Resamples with zero spread give infinite estimates, where BCa is
    # undefined: the percentile interval (no interpolation, so an infinite
    # bound is reported as such).
    tail = (1 - confidence_level) / 2
    dist = res.bootstrap_distribution
    low, high = np.quantile(dist, [tail, 1 - tail], method="inverted_cdf")
    note = "BCa undefined on this sample; percentile bootstrap interval"
    if not (np.isfinite(low) and np.isfinite(high)):
        note += " (unbounded: some resamples have zero spread)"
    return float(low), float(high), note


@validate_params(
    {
        "a": ["array-like"],
        "b": ["array-like"],
        "kind": [StrOptions(set(EFFECT_SIZE_KINDS))],
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "n_resamples": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def effect_size(
    a,
    b,
    *,
    kind="cohen_dz",
    confidence_level=0.95,
    n_resamples=9999,
    random_state=None,
):
    """Effect size of A over B from paired scores, with a bootstrap interval.

    Parameters
    ----------
    a, b : array-like of shape (n,)
        Paired scores of A and B (higher is better), one pair per data set
        (or per record, split or seed). At least 2 pairs; finite.
    kind : {"cohen_dz", "cohen_d", "cliff_delta", "akinshin_gamma"}, \
default="cohen_dz"
        ``"cohen_dz"``: mean of the differences ``a - b`` over their standard
        deviation (n − 1), the effect of the paired design.
        ``"cohen_d"``: difference of the means over the pooled standard
        deviation ``sqrt((var(a) + var(b)) / 2)``, which ignores the pairing
        (as autorank). ``"cliff_delta"``: ``(#{a_i > b_j} - #{a_i < b_j}) /
        n²`` over all n² pairs. ``"akinshin_gamma"``: difference of the
        medians over the pooled MAD (scaled by 1.4826; as autorank).
    confidence_level : float, default=0.95
        Level of the interval, in (0, 1).
    n_resamples : int, default=9999
        Bootstrap resamples of the n pairs, at most 1,000,000 (larger is
        refused before any work: it only costs time).
    random_state : int, RandomState instance or None, default=None
        Seeds the bootstrap.

    Returns
    -------
    result : Bunch
        kind : str
        estimate : float
            Positive when A is better, in every kind. A zero spread gives 0
            when the centres are equal too, else ``±inf`` (the difference is
            certain).
        confidence_interval : tuple of float
            ``(low, high)``: BCa bootstrap interval, the percentile one
            where BCa is undefined (said in ``note``; a bound is ``±inf``
            when that many resamples have zero spread); ``(estimate,
            estimate)`` for a degenerate sample.
        confidence_level : float
        magnitude : {"negligible", "small", "medium", "large"}
            ``|d|``, ``|d_z|``, ``|γ|`` below 0.2, 0.5, 0.8, else large;
            Cliff's ``|δ|`` below 0.147, 0.33, 0.474 (Romano et al. 2006).
        n : int
            Number of pairs.
        note : str or None
            Why the interval is not a BCa bootstrap interval, or None.

    See Also
    --------
    sklearn_bcv.compare_scores : Its ``effect_sizes`` field gives every pair.

    Notes
    -----
    The sample is degenerate when no resample can change the estimate: all
    differences ``a - b`` equal (``cohen_dz``), ``a`` equal to ``b`` (every
    kind), or both samples constant.
    Its interval is then the point itself, with a note.

    References
    ----------
    .. [1] J. Cohen, "Statistical Power Analysis for the Behavioral
       Sciences", 2nd ed., 1988.
    .. [2] N. Cliff, "Dominance statistics: ordinal analyses to answer
       ordinal questions", Psychological Bulletin 114(3):494-509, 1993.
    .. [3] A. Akinshin, "Nonparametric Cohen's d-consistent effect size",
       2020.
    .. [4] J. Romano et al., "Appropriate statistics for ordinal level
       data", 2006.

    Examples
    --------
    >>> from sklearn_bcv.stats import effect_size
    >>> a = [0.80, 0.85, 0.90, 0.82, 0.88]
    >>> b = [0.78, 0.80, 0.86, 0.81, 0.83]
    >>> result = effect_size(a, b, random_state=0)
    >>> round(result.estimate, 4)  # mean 0.034 / sd 0.018166 of the differences
    1.8716
    >>> result.magnitude
    'large'
    >>> low, high = result.confidence_interval
    >>> bool(0 < low < result.estimate < high)
    True
    >>> effect_size(a, b, kind="cliff_delta").estimate  # (18 - 6) / 25
    0.48
    """
    check_integer(
        n_resamples,
        name="n_resamples",
        low=1,
        high=MAX_RESAMPLES,
        why="more only costs time",
    )
    a, b = _check_samples(a, b)
    statistic = _STATISTICS[kind]
    estimate = float(statistic(a, b))
    d = a - b
    constant_d = bool(np.all(d == d[0]))
    both_constant = bool(np.all(a == a[0]) and np.all(b == b[0]))
    identical = bool(np.all(d == 0))
    if identical or both_constant or (kind == "cohen_dz" and constant_d):
        low = high = estimate
        note = (
            "degenerate sample (every difference a - b is the same): the "
            "interval is the point"
            if constant_d
            else "degenerate sample (both constant): the interval is the point"
        )
    else:
        low, high, note = _interval(
            statistic,
            a,
            b,
            confidence_level=float(confidence_level),
            n_resamples=int(n_resamples),
            random_state=random_state,
        )
    return Bunch(
        kind=kind,
        estimate=estimate,
        confidence_interval=(low, high),
        confidence_level=float(confidence_level),
        magnitude=magnitude(estimate, kind),
        n=int(a.shape[0]),
        note=note,
    )


# All pairs up to this many estimators; above it only the pairs with the
# control (or the best by mean rank), with fewer resamples: the cost stays
# linear in k.
ALL_PAIRS_MAX_K = 10
_FEW_RESAMPLES = 1999


def pairwise_effect_sizes(
    scores,
    names,
    *,
    kind,
    confidence_level=0.95,
    reference=None,
    random_state=None,
):
    """Effect sizes of the pairs of columns of an (N, k) higher-is-better table.

    Every pair ``i < j`` in ``names`` order (``a = names[i]``) while ``k <=
    ALL_PAIRS_MAX_K`` (9999 resamples each); above, only the pairs that
    include column ``reference`` (1999 resamples each). Returns a list of
    Bunch ``a``, ``b``, ``kind``, ``estimate``, ``confidence_interval``,
    ``confidence_level``, ``magnitude``, ``note``.
    """
    scores = np.asarray(scores, dtype=np.float64)
    k = scores.shape[1]
    n_resamples = 9999
    if k <= ALL_PAIRS_MAX_K or reference is None:
        pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    else:
        pairs = [
            (i, j) for i in range(k) for j in range(i + 1, k) if reference in (i, j)
        ]
        n_resamples = _FEW_RESAMPLES
    out = []
    for i, j in pairs:
        one = effect_size(
            scores[:, i],
            scores[:, j],
            kind=kind,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            random_state=random_state,
        )
        out.append(
            Bunch(
                a=names[i],
                b=names[j],
                kind=kind,
                estimate=one.estimate,
                confidence_interval=one.confidence_interval,
                confidence_level=one.confidence_level,
                magnitude=one.magnitude,
                note=one.note,
            )
        )
    return out
