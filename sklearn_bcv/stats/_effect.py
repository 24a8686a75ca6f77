"""Effect sizes of two paired samples, with confidence intervals.

Five kinds (see the user guide's formulas): the mean difference in the
scores' own units, Cohen's d_z of the paired differences, Cohen's d with
autorank's pooled standard deviation, Cliff's delta and Akinshin's gamma.
Every kind is positive when A (the first sample) is better, i.e. higher.

The interval is the paired BCa bootstrap over the n pairs (as
``scipy.stats.bootstrap(..., paired=True, method="BCa")``, the same numbers
for the same seed) up to :data:`BOOTSTRAP_MAX_N` pairs, in O(n) memory and
O(n) time per resample:

* the resamples are drawn and evaluated in batches of about
  :data:`BATCH_VALUES` indices, never an (n_resamples, n) array;
* the jackknife of the acceleration is in closed form (leave-one-out means
  and sums of squares, medians and MADs from the sorted sample, Cliff's
  row and column counts), never an (n, n - 1) array;
* Cliff's delta is computed from counts by binary search on the sorted
  samples (resampled: prefix sums of the resample's weights), never an
  n × n matrix of comparisons.

Above :data:`BOOTSTRAP_MAX_N` pairs the interval is the normal one of
asymptotic theory, ``estimate ± z·se`` with ``se`` from the influence
function of the kind (the delta method; for the medians and MADs of
Akinshin's gamma with kernel density estimates), said in the result's
``note``; its coverage beside the bootstrap's is in ``doc/reproduction.rst``
(``benchmarks/reproduce_effect_coverage.py``).

Values equal in the user's decimals tie (:mod:`._ties`): the samples'
values are merged by the tie rule first, the differences of ``cohen_dz``
too, and a spread is 0 exactly when every value it spreads is equal.
"""

import warnings
from numbers import Integral, Real

import numpy as np
from scipy import special
from sklearn.utils import Bunch, check_random_state

from .._checks import check_integer
from .._compat import Interval, StrOptions, validate_params
from ._ties import (
    merge_magnitudes,
    merge_ties,
    precision_of,
    scores_precision,
    tie_unit,
    value_tolerance,
)
from ._utils import (
    as_numeric_array,
    check_finite,
    power_of_two_scale,
    safe_divide,
    unscale,
)

__all__ = [
    "BATCH_VALUES",
    "BOOTSTRAP_MAX_N",
    "EFFECT_SIZE_KINDS",
    "effect_size",
    "magnitude",
]

# kind -> (negligible, small, medium) upper bounds of |estimate|.
_THRESHOLDS = {
    "cohen_dz": (0.2, 0.5, 0.8),
    "cohen_d": (0.2, 0.5, 0.8),
    "akinshin_gamma": (0.2, 0.5, 0.8),
    # Romano et al. (2006).
    "cliff_delta": (0.147, 0.33, 0.474),
}
#: The kinds; ``mean_difference`` is in the scores' units and has no
#: magnitude (how large a difference is depends on the score).
EFFECT_SIZE_KINDS = (*_THRESHOLDS, "mean_difference")
_MAD_SCALE = 1.4826
#: Most bootstrap resamples: a 95% interval's bounds no longer move in
#: their third digit long before, and the time grows linearly (about 0.4 s
#: per 100,000 resamples of 30 pairs; benchmarks/bench_size_bounds.py).
#: Refused before any work beyond.
MAX_RESAMPLES = 10**6

#: Largest number of pairs with a bootstrap interval; above it, the normal
#: interval of asymptotic theory (named in the result's ``note``).
BOOTSTRAP_MAX_N = 2000

#: About this many resampled indices (and values per column) are held at
#: once: 2**21 (16 MiB of int64), whatever ``n_resamples``.
BATCH_VALUES = 2**21

_ASYMPTOTIC_NOTE = (
    "normal interval of asymptotic theory (influence function{how}), not the "
    f"bootstrap: more than {BOOTSTRAP_MAX_N} pairs"
)


def magnitude(estimate, kind, tolerance=0.0):
    """ "negligible", "small", "medium" or "large" for ``|estimate|``; a size
    within ``tolerance`` (its rounding) of a bound is that bound; None for a
    kind in the scores' units (``mean_difference``), which has no scale."""
    if kind not in _THRESHOLDS:
        return None
    size = abs(float(estimate))
    if np.isnan(size):  # no estimate (a pair without two data sets in common)
        return None
    for label, bound in zip(("negligible", "small", "medium"), _THRESHOLDS[kind]):
        if size < bound - tolerance:
            return label
    return "large"


# --------------------------------------------------------------------------
# Centres and spreads over an axis of samples: a constant sample (every
# value equal, after the tie rule) has exactly its value as centre and 0 as
# spread, which np.mean and np.std only approximate.
# --------------------------------------------------------------------------


def _constant(values, axis=-1):
    return np.ptp(values, axis=axis) == 0


def _mean_and_var(values, axis=-1):
    """``(mean, var with ddof=1)`` over ``axis``, exact for constants."""
    constant = _constant(values, axis)
    mean = np.where(constant, np.take(values, 0, axis), np.mean(values, axis=axis))
    var = np.where(constant, 0.0, np.var(values, axis=axis, ddof=1))
    return mean, var


def _resample_along(values, idx):
    """``values`` (..., n) at the resamples ``idx`` (B, n) as (..., n, B):
    the pairs of a resample along the middle axis, so that reducing over
    them runs over long contiguous rows of resamples (several times faster
    than a short last axis of n)."""
    return np.take(values, idx.T, axis=-1)


def _median_and_mad(values):
    """``(median, 1.4826·MAD)`` over the last axis."""
    center = np.median(values, axis=-1)
    mad = _MAD_SCALE * np.median(np.abs(values - center[..., None]), axis=-1)
    return center, mad


def _pooled(var_a, var_b):
    return np.sqrt((var_a + var_b) / 2.0)


# --------------------------------------------------------------------------
# The kinds. Each holds the sample (merged by the tie rule), its point
# estimate, the closed-form jackknife, the statistic of a batch of
# resamples of its columns, and the influence function of asymptotic theory.
# --------------------------------------------------------------------------


class _Kind:
    """One effect size on the columns of an (n, k) table, for ``pairs``."""

    #: Whether θ is a ratio num/den of values in score units (its rounding
    #: scales with tolerance / den); Cliff's delta is a ratio of counts.
    ratio = True
    #: Whether θ is in the scores' units (scaled back after the exact
    #: power-of-two scaling), rather than scale invariant.
    in_units = False
    how = ""

    def __init__(self, table, pairs, tolerance, rows=None):
        self.table = table
        self.columns = np.ascontiguousarray(table.T)  # (k, n)
        self.pairs = pairs
        # One tolerance per pair (of its centres: from its two columns), and
        # per pair and data set (of its differences: from the two scores).
        self.tolerance = np.broadcast_to(
            np.asarray(tolerance, dtype=np.float64), (len(pairs),)
        )
        self.rows = self.tolerance[:, None] if rows is None else rows
        self.n = table.shape[0]

    def degenerate(self):
        """Whether no resample can change the estimate of each pair: A's
        scores equal B's, or both constant."""
        i, j = np.array(self.pairs).T
        same = np.all(self.columns[i] == self.columns[j], axis=-1)
        return same | (_constant(self.columns[i]) & _constant(self.columns[j]))

    def width(self):
        """How many (batch, n) arrays a batch of resamples holds at once."""
        return self.table.shape[1] + 1

    def tie_width(self, estimates):
        """Width within which a resampled θ ties with θ̂ (its rounding)."""
        if not self.ratio:
            return np.zeros(len(self.pairs))
        den = np.asarray(self.denominators)
        width = self.tolerance * (1.0 + np.abs(estimates))
        return np.where(den > 0, width / np.where(den > 0, den, 1.0), 0.0)


class _CohenDz(_Kind):
    def __init__(self, table, pairs, tolerance, rows=None):
        super().__init__(table, pairs, tolerance, rows)
        columns = [table[:, i] - table[:, j] for i, j in pairs]
        # Differences equal in the user's decimals are equal, ≈ 0 is 0.
        self.d = merge_magnitudes(np.array(columns), self.rows, batch=True)  # (P, n)
        mean, var = _mean_and_var(self.d)
        self.denominators = np.sqrt(var)
        self.estimates = safe_divide(
            _nonzero_gap(mean, self.tolerance), self.denominators
        )

    def degenerate(self):  # every difference equal
        return _constant(self.d)

    def width(self):
        return len(self.pairs)

    def resampled(self, idx):
        mean, var = _mean_and_var(_resample_along(self.d, idx), axis=-2)
        return safe_divide(_nonzero_gap(mean, self.tolerance[:, None]), np.sqrt(var))

    def jackknife(self, p):
        mean, var = _loo_mean_var(self.d[p])
        return _loo_ratio(_nonzero_gap(mean, self.tolerance[p]), var)

    def influence(self, p):
        d = self.d[p]
        mean, sd = d.mean(), d.std(ddof=1)
        z = (d - mean) / sd
        return z - self.estimates[p] / 2.0 * (z**2 - 1.0)


class _MeanDifference(_Kind):
    """The mean of the paired differences ``a - b``, in the scores' units."""

    ratio = False
    in_units = True

    def __init__(self, table, pairs, tolerance, rows=None):
        super().__init__(table, pairs, tolerance, rows)
        columns = [table[:, i] - table[:, j] for i, j in pairs]
        # Differences equal in the user's decimals are equal, ≈ 0 is 0.
        self.d = merge_magnitudes(np.array(columns), self.rows, batch=True)  # (P, n)
        mean, _ = _mean_and_var(self.d)
        self.estimates = _nonzero_gap(mean, self.tolerance)

    def degenerate(self):  # every difference equal
        return _constant(self.d)

    def width(self):
        return len(self.pairs)

    def tie_width(self, estimates):
        """A mean of differences ties with θ̂ within the tie rule's own
        tolerance (its rounding in score units)."""
        return np.array(self.tolerance)

    def resampled(self, idx):
        mean = np.mean(_resample_along(self.d, idx), axis=-2)
        return _nonzero_gap(mean, self.tolerance[:, None])

    def jackknife(self, p):
        mean, _ = _loo_mean_var(self.d[p])
        return _nonzero_gap(mean, self.tolerance[p])

    def influence(self, p):
        return self.d[p] - self.d[p].mean()


class _CohenD(_Kind):
    def __init__(self, table, pairs, tolerance, rows=None):
        super().__init__(table, pairs, tolerance, rows)
        mean, var = _mean_and_var(self.columns)
        i, j = np.array(pairs).T
        self.denominators = _pooled(var[i], var[j])
        self.estimates = safe_divide(
            _nonzero_gap(mean[i] - mean[j], self.tolerance), self.denominators
        )

    def resampled(self, idx):
        mean, var = _mean_and_var(_resample_along(self.columns, idx), axis=-2)
        i, j = np.array(self.pairs).T
        gap = _nonzero_gap(mean[i] - mean[j], self.tolerance[:, None])
        return safe_divide(gap, _pooled(var[i], var[j]))

    def jackknife(self, p):
        i, j = self.pairs[p]
        mean_a, var_a = _loo_mean_var(self.columns[i])
        mean_b, var_b = _loo_mean_var(self.columns[j])
        gap = _nonzero_gap(mean_a - mean_b, self.tolerance[p])
        with np.errstate(invalid="ignore"):
            return safe_divide(gap, _pooled(var_a, var_b))

    def influence(self, p):
        i, j = self.pairs[p]
        a, b = self.columns[i], self.columns[j]
        da, db = a - a.mean(), b - b.mean()
        s2 = (a.var(ddof=1) + b.var(ddof=1)) / 2.0
        s = np.sqrt(s2)
        gap = da - db
        spread = (da**2 - a.var(ddof=1) + db**2 - b.var(ddof=1)) / 2.0
        return gap / s - self.estimates[p] / (2.0 * s2) * spread


class _AkinshinGamma(_Kind):
    how = " with kernel density estimates"

    def __init__(self, table, pairs, tolerance, rows=None):
        super().__init__(table, pairs, tolerance, rows)
        center, mad = _median_and_mad(self.columns)
        i, j = np.array(pairs).T
        self.denominators = _pooled(mad[i] ** 2, mad[j] ** 2)
        self.estimates = safe_divide(
            _nonzero_gap(center[i] - center[j], self.tolerance), self.denominators
        )
        self._mad = mad

    def resampled(self, idx):
        center, mad = _median_and_mad(np.take(self.columns, idx, axis=1))
        i, j = np.array(self.pairs).T
        gap = _nonzero_gap(center[i] - center[j], self.tolerance[:, None])
        return safe_divide(gap, _pooled(mad[i] ** 2, mad[j] ** 2))

    def jackknife(self, p):
        i, j = self.pairs[p]
        center_a, mad_a = _loo_median_mad(self.columns[i])
        center_b, mad_b = _loo_median_mad(self.columns[j])
        gap = _nonzero_gap(center_a - center_b, self.tolerance[p])
        return safe_divide(gap, _pooled(mad_a**2, mad_b**2))

    def influence(self, p):
        i, j = self.pairs[p]
        a_center, a_mad = _median_mad_influence(self.columns[i])
        b_center, b_mad = _median_mad_influence(self.columns[j])
        scale = self.denominators[p]
        mad_a, mad_b = self._mad[i], self._mad[j]
        spread = (mad_a * a_mad + mad_b * b_mad) / (2.0 * scale)
        return (a_center - b_center) / scale - self.estimates[p] * spread / scale


class _CliffDelta(_Kind):
    ratio = False

    def __init__(self, table, pairs, tolerance, rows=None):
        super().__init__(table, pairs, tolerance, rows)
        self.sorted_order = np.argsort(self.columns, axis=-1, kind="stable")
        n = self.n
        self.counts = []  # per pair: rows and columns of the sign matrix
        for i, j in pairs:
            a, b = self.columns[i], self.columns[j]
            b_sorted, a_sorted = b[self.sorted_order[j]], a[self.sorted_order[i]]
            # a_i against every b: #(b < a_i) - #(b > a_i), by binary search.
            low = np.searchsorted(b_sorted, a, side="left")
            high = np.searchsorted(b_sorted, a, side="right")
            row = low + high - n
            column = n - np.searchsorted(a_sorted, b, side="right")
            column -= np.searchsorted(a_sorted, b, side="left")
            self.counts.append((low, high, row, column))
        totals = np.array([row.sum() for _, _, row, _ in self.counts])
        self.estimates = totals / float(n * n)
        self.denominators = np.ones(len(pairs))

    def resampled(self, idx):
        batch, n = idx.shape
        # The multiplicity of each pair in each resample; the prefix sums of
        # those of B in its sorted order count the resampled b below a_i.
        offsets = (np.arange(batch) * n)[:, None]
        weights = np.bincount((idx + offsets).ravel(), minlength=batch * n)
        weights = weights.reshape(batch, n)
        prefix = {}
        out = np.empty((len(self.pairs), batch))
        for p, (_, j) in enumerate(self.pairs):
            if j not in prefix:
                cumulative = np.zeros((batch, n + 1), dtype=np.int64)
                np.cumsum(
                    weights[:, self.sorted_order[j]], axis=1, out=cumulative[:, 1:]
                )
                prefix[j] = cumulative
            low, high, _, _ = self.counts[p]
            cumulative = prefix[j]
            # Σ_i w_i (#{b < a_i} - #{b > a_i}) over the resampled pairs.
            signs = cumulative[:, low] + cumulative[:, high] - n
            out[p] = np.einsum("bi,bi->b", weights, signs) / float(n * n)
        return out

    def jackknife(self, p):
        i, j = self.pairs[p]
        _, _, row, column = self.counts[p]
        own = np.sign(self.columns[i] - self.columns[j])
        total = row.sum()
        return (total - row - column + own) / float((self.n - 1) ** 2)

    def influence(self, p):
        _, _, row, column = self.counts[p]
        return (row + column) / float(self.n) - 2.0 * self.estimates[p]


_KINDS = {
    "mean_difference": _MeanDifference,
    "cohen_dz": _CohenDz,
    "cohen_d": _CohenD,
    "cliff_delta": _CliffDelta,
    "akinshin_gamma": _AkinshinGamma,
}


def _nonzero_gap(gap, tolerance):
    """A difference of two centres (or a mean difference) within the tie
    rule's tolerance of 0 is 0."""
    return np.where(np.abs(gap) <= tolerance, 0.0, gap)


# --------------------------------------------------------------------------
# Closed-form jackknife: leave-one-out statistics in O(n) or O(n log n)
# --------------------------------------------------------------------------


def _loo_mean_var(x):
    """Leave-one-out means and variances (ddof=1) of ``x``, O(n).

    ``m_(i) = m - (x_i - m)/(n - 1)`` and ``SS_(i) = SS - (x_i - m)²·n/(n - 1)``;
    a leave-one-out sample that is constant has variance 0 exactly, and one
    value (n = 2) no variance (NaN, as scipy's jackknife).
    """
    n = x.size
    mean = x.mean()
    deviation = x - mean
    loo_mean = mean - deviation / (n - 1)
    sum_sq = np.sum(deviation**2)
    loo_ss = np.maximum(sum_sq - deviation**2 * n / (n - 1), 0.0)
    values, counts = np.unique(x, return_counts=True)
    if values.size == 1:
        return np.full(n, x[0]), np.zeros(n)
    if values.size == 2 and counts.min() == 1:  # leaving out the odd one
        odd = values[np.argmin(counts)]
        other = values[np.argmax(counts)]
        lonely = x == odd
        loo_mean = np.where(lonely, other, loo_mean)
        loo_ss = np.where(lonely, 0.0, loo_ss)
    with np.errstate(invalid="ignore", divide="ignore"):
        loo_var = loo_ss / (n - 2) if n > 2 else np.full(n, np.nan)
    return loo_mean, loo_var


def _loo_ratio(mean, var):
    with np.errstate(invalid="ignore"):
        return safe_divide(mean, np.sqrt(var))


def _loo_medians(x):
    """Leave-one-out medians of ``x`` from its sorted values, O(n log n).

    Removing the value at sorted position p leaves ``r_t = s_t`` for
    ``t < p`` and ``s_{t+1}`` after: the median of the n - 1 others is one
    or the mean of two of ``s_{h-1}, s_h, s_{h+1}`` (h = (n - 1) // 2).
    """
    n = x.size
    order = np.argsort(x, kind="stable")
    s = x[order]
    position = np.empty(n, dtype=np.intp)
    position[order] = np.arange(n)
    m = n - 1

    def remaining(t):  # r_t of each leave-one-out sample, vectorised
        return np.where(
            t < position, s[np.minimum(t, n - 1)], s[np.minimum(t + 1, n - 1)]
        )

    if m % 2:
        return remaining(np.full(n, m // 2))
    half = m // 2
    return (remaining(np.full(n, half - 1)) + remaining(np.full(n, half))) / 2.0


def _loo_median_mad(x):
    """Leave-one-out medians and 1.4826·MADs of ``x``, O(n log n).

    The leave-one-out median takes at most three values; for each, the MAD
    of the samples that have it is a leave-one-out median of ``|x - c|``.
    """
    centers = _loo_medians(x)
    mads = np.empty(x.size)
    for center in np.unique(centers):
        who = centers == center
        mads[who] = _loo_medians(np.abs(x - center))[who]
    return centers, _MAD_SCALE * mads


# --------------------------------------------------------------------------
# Influence functions of the medians and MADs (Akinshin's gamma, asymptotic)
# --------------------------------------------------------------------------


def _density_at(x, points):
    """Gaussian kernel density of ``x`` at ``points``, Silverman's bandwidth
    (0.9·min(sd, IQR/1.34)·n^(-1/5)); O(n) per point."""
    n = x.size
    q75, q25 = np.percentile(x, [75, 25])
    spread = min(np.std(x, ddof=1), (q75 - q25) / 1.34)
    if not spread > 0:
        spread = np.std(x, ddof=1)
    if not spread > 0:
        return np.full(np.shape(points), np.inf)
    width = 0.9 * spread * n**-0.2
    z = (x[None, :] - np.atleast_1d(points)[:, None]) / width
    return np.exp(-0.5 * z**2).sum(axis=1) / (n * width * np.sqrt(2.0 * np.pi))


def _median_mad_influence(x):
    """Influence values of the median and of 1.4826·MAD at each ``x_i``.

    ``IF_M(x) = sign(x - M) / (2 f(M))``;
    ``IF_m(x) = (1/2 - [|x - M| <= m] - (f(M + m) - f(M - m))·IF_M(x))
    / (f(M + m) + f(M - m))`` for the MAD m (Hampel 1974), f the density.
    """
    center = np.median(x)
    mad = np.median(np.abs(x - center))
    f_center, f_up, f_down = _density_at(x, [center, center + mad, center - mad])
    with np.errstate(divide="ignore", invalid="ignore"):
        center_if = np.sign(x - center) / (2.0 * f_center)
        inside = (np.abs(x - center) <= mad).astype(np.float64)
        mad_if = (0.5 - inside - (f_up - f_down) * center_if) / (f_up + f_down)
    return np.nan_to_num(center_if), _MAD_SCALE * np.nan_to_num(mad_if)


# --------------------------------------------------------------------------
# The intervals
# --------------------------------------------------------------------------


def _integers(rng):
    """``rng``'s integer draws as ``scipy.stats.bootstrap`` makes them."""
    return rng.integers if hasattr(rng, "integers") else rng.randint


def _bootstrap_distribution(kind, n_resamples, random_state):
    """θ* of every pair, (n_pairs, n_resamples), the resamples drawn in
    batches (for a legacy ``RandomState`` the very draws of one call)."""
    rng = check_random_state(random_state)
    integers = _integers(rng)
    n = kind.n
    size = max(1, BATCH_VALUES // (n * kind.width()))
    theta = np.empty((len(kind.pairs), n_resamples))
    for start in range(0, n_resamples, size):
        stop = min(start + size, n_resamples)
        idx = integers(0, n, (stop - start, n))
        theta[:, start:stop] = kind.resampled(idx)
    return theta


def _acceleration(jackknife):
    """BCa's ``a`` from the leave-one-out estimates (as scipy computes it)."""
    n = float(jackknife.size)
    u = (n - 1) * (jackknife.mean() - jackknife)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        return 1 / 6 * (np.sum(u**3) / n**3) / (np.sum(u**2) / n**2) ** (3 / 2)


def _bca(estimate, theta, jackknife, tie_width, confidence_level):
    """``(low, high, note)`` of the BCa interval, percentile where undefined.

    ``z0`` counts the resamples below ``θ̂`` and half those equal to it,
    equality by the tie rule (``tie_width``), so a resample equal to the
    sample in the user's decimals counts as equal in any units.
    """
    below = np.count_nonzero(theta < estimate - tie_width)
    not_above = np.count_nonzero(theta <= estimate + tie_width)
    tail = (1.0 - confidence_level) / 2.0
    with np.errstate(all="ignore"):
        z0 = special.ndtri((below + not_above) / (2.0 * theta.size))
        a = _acceleration(jackknife)
        z = special.ndtri(tail)
        low_level = special.ndtr(z0 + (z0 + z) / (1 - a * (z0 + z)))
        high_level = special.ndtr(z0 + (z0 - z) / (1 - a * (z0 - z)))
        if np.isfinite(low_level) and np.isfinite(high_level):
            low, high = np.quantile(theta, [low_level, high_level], method="linear")
            if np.isfinite(low) and np.isfinite(high):
                return float(low), float(high), None
    # Resamples with zero spread give infinite estimates, where BCa is
    # undefined: the percentile interval (no interpolation, so an infinite
    # bound is reported as such).
    low, high = np.quantile(theta, [tail, 1 - tail], method="inverted_cdf")
    note = "BCa undefined on this sample; percentile bootstrap interval"
    if not (np.isfinite(low) and np.isfinite(high)):
        note += " (unbounded: some resamples have zero spread)"
    return float(low), float(high), note


def _asymptotic(kind, p, confidence_level):
    """``(low, high, note)``: ``θ̂ ± z·se``, ``se² = Σ IF_i² / n²``."""
    estimate = float(kind.estimates[p])
    note = _ASYMPTOTIC_NOTE.format(how=kind.how)
    if not np.isfinite(estimate):  # a zero spread: the difference is certain
        return estimate, estimate, note + " (zero spread: an infinite estimate)"
    influence = kind.influence(p)
    se = float(np.sqrt(np.sum(influence**2)) / kind.n)
    half = float(special.ndtri(0.5 + confidence_level / 2.0)) * se
    low, high = estimate - half, estimate + half
    if isinstance(kind, _CliffDelta):
        low, high = max(low, -1.0), min(high, 1.0)
    if not np.isfinite(se):
        low, high = -np.inf, np.inf
        note += " (unbounded: an infinite estimate of the spread)"
    return low, high, note


#: Every degenerate sample (no resample can change the estimate: a equal
#: to b, both constant, or for cohen_dz every difference equal) has equal
#: differences a - b.
_DEGENERATE_NOTE = (
    "degenerate sample (every difference a - b is the same): the interval is the point"
)


def _pair_columns(table, pairs, cell_tolerance):
    """``(table, pairs)`` on which the pairs' statistics run, and the tie
    rule's tolerances: of each pair's centres (P,) and of each pair's
    differences on each data set (P, n), from that pair's own two scores.

    Scores equal by the tie rule (``cell_tolerance``, each score's own:
    None, the user's own scores at their own precision; means of per-split
    scores from those) are made equal within the two columns of each pair,
    which then get columns of their own (never merged with a third
    estimator's scores).
    """
    i, j = np.array(pairs).T
    unit = tie_unit()
    magnitude = np.abs(table)
    rows = unit * np.maximum(magnitude[:, i], magnitude[:, j]).T  # (P, n)
    if cell_tolerance is None:
        cell_tolerance = value_tolerance(table)
    cells = np.maximum(cell_tolerance[:, i], cell_tolerance[:, j]).T
    rows = np.maximum(rows, cells)
    if np.any(cell_tolerance > 0):
        both = np.stack([table[:, i].T, table[:, j].T], axis=1)  # (P, 2, n)
        widths = np.stack([cell_tolerance[:, i].T, cell_tolerance[:, j].T], axis=1)
        merged = merge_ties(
            both.reshape(len(pairs), -1),
            widths.reshape(len(pairs), -1),
            anchors=(),
            batch=True,
        ).reshape(both.shape)
        table = merged.reshape(2 * len(pairs), -1).T  # columns a0, b0, a1, ...
        pairs = [(2 * p, 2 * p + 1) for p in range(len(pairs))]
    return table, pairs, rows.max(axis=1), rows


def _effect_sizes(
    table,
    pairs,
    kind,
    *,
    confidence_level,
    n_resamples,
    random_state,
    cell_tolerance=None,
):
    """``[(estimate, low, high, note, width), ...]`` of ``pairs`` of columns
    of ``table`` (n, k), every pair resampled with the same indices;
    ``width`` is the estimate's rounding (within it, values tie).
    ``cell_tolerance`` (n, k): the tie rule's tolerance of each score
    (means of per-split scores: from those; None: each score its own
    scale, as the user's own scores)."""
    # The kinds are scale invariant: a common power-of-two scale (exact)
    # keeps squares and sums of extreme scores finite. A kind in the
    # scores' units is scaled back at the end (exact too).
    table, exponent = power_of_two_scale(table, axis=None)
    if cell_tolerance is not None:
        cell_tolerance = unscale(cell_tolerance, -int(exponent))
    table, pairs, tolerance, rows = _pair_columns(table, pairs, cell_tolerance)
    statistic = _KINDS[kind](table, pairs, tolerance, rows)
    estimates = np.asarray(statistic.estimates, dtype=np.float64)
    widths = statistic.tie_width(estimates)
    degenerate = np.asarray(statistic.degenerate())
    out = [None] * len(pairs)
    live = [p for p in range(len(pairs)) if not degenerate[p]]
    for p in np.flatnonzero(degenerate):
        value = float(estimates[p])
        out[p] = (value, value, value, _DEGENERATE_NOTE, widths[p])
    if live and statistic.n > BOOTSTRAP_MAX_N:
        for p in live:
            interval = _asymptotic(statistic, p, confidence_level)
            out[p] = (float(estimates[p]), *interval, widths[p])
    elif live:
        resampled = _KINDS[kind](
            table, [pairs[p] for p in live], tolerance[live], rows[live]
        )
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theta = _bootstrap_distribution(resampled, n_resamples, random_state)
            for q, p in enumerate(live):
                interval = _bca(
                    estimates[p],
                    theta[q],
                    resampled.jackknife(q),
                    widths[p],
                    confidence_level,
                )
                out[p] = (float(estimates[p]), *interval, widths[p])
    if statistic.in_units:
        out = [_in_units(row, int(exponent), kind) for row in out]
    return out


#: The note of a pair of a table with holes that shares fewer than two
#: data sets: it has no effect size.
_TOO_FEW_NOTE = "fewer than 2 data sets in common: no effect size"


def _effect_sizes_by_rows(table, pairs, kind, **kwargs):
    """:func:`_effect_sizes` of a table that may have holes (NaN): each pair
    on the data sets where both are scored, the pairs that share the same
    data sets in one call (on those rows and their columns)."""
    if not np.isnan(table).any():
        return _effect_sizes(table, pairs, kind, **kwargs)
    observed = ~np.isnan(table)
    groups = {}
    for p, (i, j) in enumerate(pairs):
        rows = observed[:, i] & observed[:, j]
        groups.setdefault(rows.tobytes(), (rows, []))[1].append(p)
    out = [None] * len(pairs)
    for rows, members in groups.values():
        if np.count_nonzero(rows) < 2:
            for p in members:
                out[p] = (np.nan, np.nan, np.nan, _TOO_FEW_NOTE, 0.0)
            continue
        columns = sorted({c for p in members for c in pairs[p]})
        position = {c: q for q, c in enumerate(columns)}
        own = [(position[pairs[p][0]], position[pairs[p][1]]) for p in members]
        cells = kwargs.get("cell_tolerance")
        own_kwargs = kwargs
        if cells is not None:  # each score's tolerance, on the same rows
            own_kwargs = {**kwargs, "cell_tolerance": cells[np.ix_(rows, columns)]}
        found = _effect_sizes(table[np.ix_(rows, columns)], own, kind, **own_kwargs)
        for p, value in zip(members, found):
            out[p] = value
    return out


def _in_units(row, exponent, kind):
    """An effect in the scores' units, scaled back from the exact power of
    two it was computed at; one beyond float64 (a mean difference of
    scores near ±1.8e308) is refused, never reported as ``inf``."""
    estimate, low, high, note, width = row
    scaled = [float(unscale(v, exponent)) for v in (estimate, low, high, width)]
    if not all(np.isfinite(scaled)) and all(np.isfinite([estimate, low, high, width])):
        raise ValueError(
            f"effect_size {kind!r}: the {kind.replace('_', ' ')} of these scores "
            f"({scaled[0]:g}, interval {scaled[1]:g} to {scaled[2]:g}) exceeds the "
            "range of float64 (1.8e308); divide the scores by a common factor "
            "(the other kinds are scale free)."
        )
    return (scaled[0], scaled[1], scaled[2], note, scaled[3])


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
    return a, b


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
    """Effect size of A over B from paired scores, with a confidence interval.

    Parameters
    ----------
    a, b : array-like of shape (n,)
        Paired scores of A and B (higher is better), one pair per data set
        (or per record, split or seed). At least 2 pairs; finite.
    kind : {"cohen_dz", "cohen_d", "cliff_delta", "akinshin_gamma", \
"mean_difference"}, default="cohen_dz"
        ``"cohen_dz"``: mean of the differences ``a - b`` over their standard
        deviation (n − 1), the effect of the paired design.
        ``"mean_difference"``: the mean of the differences ``a - b`` in the
        scores' own units (percentage points of accuracy, say): what most
        papers report; it has no magnitude.
        ``"cohen_d"``: difference of the means over the pooled standard
        deviation ``sqrt((var(a) + var(b)) / 2)``, which ignores the pairing
        (as autorank). ``"cliff_delta"``: ``(#{a_i > b_j} - #{a_i < b_j}) /
        n²`` over all n² pairs. ``"akinshin_gamma"``: difference of the
        medians over the pooled MAD (scaled by 1.4826; as autorank).
    confidence_level : float, default=0.95
        Level of the interval, in (0, 1).
    n_resamples : int, default=9999
        Bootstrap resamples of the n pairs, at most 1,000,000 (larger is
        refused before any work: it only costs time). Used up to
        ``BOOTSTRAP_MAX_N`` = 2000 pairs; above, the interval is asymptotic
        and this is unused.
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
            when that many resamples have zero spread); above 2000 pairs
            the normal interval of asymptotic theory (said in ``note``);
            ``(estimate, estimate)`` for a degenerate sample.
        confidence_level : float
        magnitude : {"negligible", "small", "medium", "large"} or None
            ``|d|``, ``|d_z|``, ``|γ|`` below 0.2, 0.5, 0.8, else large;
            Cliff's ``|δ|`` below 0.147, 0.33, 0.474 (Romano et al. 2006);
            None for ``mean_difference``.
        n : int
            Number of pairs.
        note : str or None
            Why the interval is not a BCa bootstrap interval, or None.

    See Also
    --------
    sklearn_bcv.compare_scores : Its ``effect_sizes`` field gives every pair.

    Notes
    -----
    Up to 2000 pairs the interval is the paired BCa bootstrap of
    ``scipy.stats.bootstrap`` (the same resamples for the same int
    ``random_state``, the same interval): the resamples are evaluated in
    batches (memory O(n) whatever ``n_resamples``) and the jackknife of the
    acceleration is in closed form (leave-one-out means and variances,
    medians and MADs from the sorted sample, Cliff's counts), so the time
    is O(n) per resample; Cliff's delta is counted by binary search on the
    sorted samples, never over the n² pairs.

    Above 2000 pairs the interval is ``estimate ± z·se``, ``z`` the normal
    quantile and ``se² = Σ_i IF_i² / n²`` from the kind's influence function
    (the delta method): ``IF = z_i - d_z (z_i² - 1)/2`` for Cohen's d_z
    (``z_i`` the standardised differences), its two-sample analogue for
    Cohen's d, ``(c_i + r_i)/n - 2δ`` for Cliff's delta (``c_i``, ``r_i`` the
    row and column sums of the sign matrix; clipped to [-1, 1]), and the
    influence functions of the median and the MAD with kernel density
    estimates for Akinshin's gamma. Its coverage, beside the bootstrap's, is
    in ``doc/reproduction.rst``.

    Your scores are compared as they are (two are equal only when they
    are equal); the differences ``a_i - b_i``, and the centres the kinds
    compare, tie when they are equal in your decimals (the tie rule of
    :func:`~sklearn_bcv.stats.wilcoxon`: within ``2**-46`` times the
    magnitude of the scores each came from, ``2**-20`` for float32 scores),
    so the estimate and interval are the same whatever the units. A mean
    difference beyond the range of float64 (scores near ``±1.8e308``) is
    refused with a message, never reported as infinite. The sample is
    degenerate when no resample can change the estimate: all differences
    ``a - b`` equal (``cohen_dz``), ``a`` equal to ``b`` (every kind), or
    both samples constant. Its interval is then the point itself, with a
    note.

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
    .. [5] B. Efron, R. Tibshirani, "An Introduction to the Bootstrap",
       Chapman & Hall, 1993, §14.3.
    .. [6] F. R. Hampel, "The influence curve and its role in robust
       estimation", Journal of the American Statistical Association
       69:383-393, 1974.

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
    >>> difference = effect_size(a, b, kind="mean_difference", random_state=0)
    >>> round(difference.estimate, 4), difference.magnitude  # in the scores' units
    (0.034, None)
    """
    check_integer(
        n_resamples,
        name="n_resamples",
        low=1,
        high=MAX_RESAMPLES,
        why="more only costs time",
    )
    precision = precision_of(a, b)  # float32 scores carry float32's rounding
    a, b = _check_samples(a, b)
    with scores_precision(precision):
        ((estimate, low, high, note, width),) = _effect_sizes(
            np.stack([a, b], axis=1),
            [(0, 1)],
            kind,
            confidence_level=float(confidence_level),
            n_resamples=int(n_resamples),
            random_state=random_state,
        )
    return Bunch(
        kind=kind,
        estimate=estimate,
        confidence_interval=(low, high),
        confidence_level=float(confidence_level),
        magnitude=magnitude(estimate, kind, width),
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
    simultaneous=False,
    cell_tolerance=None,
):
    """Effect sizes of the pairs of columns of an (N, k) higher-is-better table.

    Every pair ``i < j`` in ``names`` order (``a = names[i]``) while ``k <=
    ALL_PAIRS_MAX_K`` (9999 resamples each); above, only the pairs that
    include column ``reference`` (1999 resamples each). Every pair is
    resampled with the same indices (those :func:`effect_size` draws for an
    int ``random_state``), all pairs at once. Returns a list of Bunch
    ``a``, ``b``, ``kind``, ``estimate``, ``confidence_interval``,
    ``confidence_level``, ``simultaneous_level``, ``magnitude``, ``note``,
    ``n_resamples`` (the bootstrap's, for the methods).

    With ``simultaneous=True`` the intervals cover all the pairs at once
    with probability at least ``confidence_level`` (Bonferroni): each is at
    the level ``1 - (1 - confidence_level) / n_pairs``, its own
    ``confidence_level``, and ``simultaneous_level`` is the level of the
    family; otherwise each interval holds for its pair alone
    (``simultaneous_level`` None). ``cell_tolerance`` (N, k): the tie
    rule's tolerance of each score when they are derived (means of
    per-split scores; None: the user's own, compared as they are).
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
    if not isinstance(random_state, Integral) or isinstance(random_state, bool):
        # One seed for all the pairs, so they share their resamples.
        random_state = int(check_random_state(random_state).randint(2**31 - 1))
    family_level = float(confidence_level) if simultaneous else None
    if simultaneous:  # Bonferroni over the pairs
        confidence_level = 1.0 - (1.0 - float(confidence_level)) / max(len(pairs), 1)
    found = _effect_sizes_by_rows(
        scores,
        pairs,
        kind,
        confidence_level=float(confidence_level),
        n_resamples=n_resamples,
        random_state=int(random_state),
        cell_tolerance=cell_tolerance,
    )
    return [
        Bunch(
            a=names[i],
            b=names[j],
            kind=kind,
            estimate=estimate,
            confidence_interval=(low, high),
            confidence_level=float(confidence_level),
            simultaneous_level=family_level,
            magnitude=magnitude(estimate, kind, width),
            note=note,
            n_resamples=n_resamples,
        )
        for (i, j), (estimate, low, high, note, width) in zip(pairs, found)
    ]
