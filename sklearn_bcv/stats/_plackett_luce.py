"""Bayesian Plackett–Luce ranking of k estimators across data sets.

The model of Calvo, Ceberio and Lozano (2018) (R's scmamp,
``bPlackettLuceModel``), sampled by a Gibbs sampler written for it (no
Stan), with ties kept as ties:

* on data set i the estimators, best first, are a Plackett–Luce draw with
  weights ``w`` on the simplex: ``P(order π | w) = Π_r w_{π_r} / Σ_{s ≥ r}
  w_{π_s}``; a group of tied estimators contributes the probability that
  they take their places in any order (the sum over their orders: the weak
  order's probability), never a random tie-break;
* ``w ~ Dirichlet(α, …, α)``.

Sampling (Caron and Doucet 2012, extended to weak orders). Write
``λ = S·w`` with ``S ~ Gamma(kα, 1)`` independent of ``w`` (then
``λ_j ~ Gamma(α, 1)`` independently), and see a Plackett–Luce order as a
race: estimator j arrives at an exponential time of rate ``λ_j``, the
order of arrival is the ranking. A weak order says that every estimator of
a tie group arrives after those of the groups above it and before those of
the groups below. Given ``λ`` the arrival times factorise over the groups
of each data set: by memorylessness, once the groups above have arrived
the estimators left are fresh, so the times ``x_j`` (from the arrival of
the last estimator above) of the members of a group G followed by
estimators of total weight ``c`` have the density

    ``Π_{j ∈ G} λ_j e^{-λ_j x_j} · e^{-c max_j x_j}``,

the second factor being the chance that none of the rest has arrived by
then. Integrating the times gives back the weak order's probability, so
they are latent variables of the exact model; their full conditional is
drawn exactly:

* a group of one estimator: ``x ~ Exp(λ_j + c)`` (Caron and Doucet's
  latent exponential);
* a tie group of up to four members (:data:`_ENUMERATED`): the order in
  which they arrive, drawn from its exact law over the ``|G|!`` orders,
  ``P(σ) ∝ Π_t λ_σt / (c + Σ_{s ≥ t} λ_σs)``; given it, the gaps between
  arrivals are independent ``Exp(c + Σ_{s ≥ t} λ_σs)``;
* a larger tie group: the auxiliary arrival time E of the first of the
  rest (``E > max x``) makes the members independent given it: E has the
  log-concave density ``∝ e^{-cE} Π_{j ∈ G} (1 - e^{-λ_j E})`` (one
  dimension whatever the size of the group), drawn exactly by rejection
  under the two tangents of its log density at ±1 standard deviation of
  its mode (most proposals are accepted); then each ``x_j`` is an
  ``Exp(λ_j)`` truncated to ``(0, E)``. The cost is linear in the size of
  the group: no sum over its ``|G|!`` orders is formed;
* the last group of a data set has no time (its factor integrates to 1).

Given the times, ``λ_j ~ Gamma(α + n_j, 1 + Σ_i t_ij)``, with ``n_j`` the
data sets on which j is not in the last group and ``t_ij`` its arrival
time (the arrival of the last group above, for an estimator of the last
group). Only ``w = λ/Σλ`` is reported and the likelihood does not see the
scale, so each sweep first redraws the scale ``S ~ Gamma(kα, 1)`` (its
exact full conditional, a move that speeds mixing) and works with the
weights: the times are drawn for ``λ = w`` and the update is
``w_j ∝ Gamma(α + n_j, 1) / (S + Σ_i t_ij)``.

When the data rank some estimators consistently below the others, the
posterior spreads the ratio of their weights over orders of magnitude,
which the Gibbs updates (each weight moving by about 1/sqrt(n_datasets) of
itself per sweep) cross slowly. Each sweep ends with two
Metropolis–Hastings moves (:func:`_cut_move`) that rescale the m lightest
weights together, exact given the order in which the times complete
(the latent orders of the tie groups). Every step leaves the posterior
invariant; all chains advance together as numpy arrays.
"""

import itertools
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import Bunch, check_random_state

from ._hierarchical import (
    ESS_MIN,
    RHAT_MAX,
    _rng,
    check_sampler_sizes,
    effective_sample_size,
    split_rhat,
)
from ._ranks import check_score_table, rank_scores
from ._references import CALVO_2018, CARON_2012, PLACKETT_1975
from ._registry import register_test
from ._utils import check_alpha, check_alternative, check_bool, check_real, make_result

__all__ = [
    "plackett_luce",
    "ranking_content",
    "ranking_lines",
    "ranking_sentence",
    "ranking_table",
    "weak_order_levels",
]

_TWO_SIDED = ("two-sided",)

#: The smallest weight the sampler keeps (a numerical floor far below any
#: posterior mass of a weight that matters: an estimator never out of the
#: last place with a tiny prior has weights near it), so that every rate and
#: time stays a finite double.
WEIGHT_FLOOR = 1e-200
#: At most this many safeguarded Newton steps towards the mode of a tie
#: group's auxiliary time (a handful from the last sweep's mode; the
#: envelope is valid after any number, only its acceptance rate depends on
#: it).
_MODE_ITERATIONS = 100
#: Tie groups of up to this many members draw their order from all m! of
#: them; larger ones go through their auxiliary time (both exact).
_ENUMERATED = 4
#: Proposals per tie group and pass of the rejection sampler.
_PROPOSALS = 3
#: Metropolis–Hastings moves of the lightest weights per sweep.
_CUT_MOVES = 2
#: The largest |log-factor| a move proposes (beyond, it is rejected).
_CUT_LIMIT = 40.0
#: Draws of the posterior held at once when forming the (k, k) table.
_CHUNK = 2**22
#: Largest n_samples × k (posterior draws kept, 1 GiB of float64).
MAX_DRAWS = 2**27
#: Largest n_samples × k² (the terms averaged into prob_beats: about ten
#: seconds of arithmetic; k = 100 estimators allow 100,000 draws).
MAX_PAIR_TERMS = 2**30
DEFAULT_N_SAMPLES = 6000
DEFAULT_N_WARMUP = 200
#: The priors sampled: beyond 1e6 the weights agree to within the rounding
#: of a draw whatever the table (1e300 gave equal weights and a "best"
#: picked by column order); below 1e-6 the prior puts all its mass in the
#: simplex's corners. Both refused, naming the bound.
PRIOR_BOUNDS = (1e-6, 1e6)
#: Largest n_datasets × k × (n_chains × n_warmup + n_samples), the
#: estimator-places the sampler sweeps in all (one sweep of one chain
#: visits every place of every data set): about one to five minutes on a
#: 2-core machine, more with many ties (benchmarks/bench_size_bounds.py).
#: Refused before any work (before any fit in a benchmark).
MAX_WORK = 5 * 10**8


# --------------------------------------------------------------------------
# The data: weak orders, ties in the user's units
# --------------------------------------------------------------------------


def weak_order_levels(scores, *, greater_is_better=True):
    """The weak order of the estimators on each data set, as tie levels.

    Parameters
    ----------
    scores : ndarray of shape (n_datasets, k)
        Finite scores.
    greater_is_better : bool, default=True
        Whether the highest score is the best.

    Returns
    -------
    levels : ndarray of int of shape (n_datasets, k)
        0 for the group of the best estimators of the row, 1 for the next
        group, ...; tied estimators share a level. Two scores tie when they
        are equal at their own precision (within ``2**-46`` of their own
        magnitude: a rounding, never a difference of decimals; the ranks of
        :func:`~sklearn_bcv.stats.friedman` do the same, and
        :func:`~sklearn_bcv.compare_scores` makes means of per-split scores
        that are equal in your decimals equal first), so the levels are the
        same for fractions, percents and shifted scores.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.stats._plackett_luce import weak_order_levels
    >>> weak_order_levels(np.array([[0.1 + 0.2, 0.3, 0.5], [0.8, 0.7, 0.9]]))
    array([[1, 1, 0],
           [1, 2, 0]])
    """
    x = np.asarray(scores, dtype=np.float64)
    ranks = rank_scores(x if greater_is_better else -x)  # 1 = best, ties averaged
    order = np.argsort(ranks, axis=1, kind="stable")
    ordered = np.take_along_axis(ranks, order, axis=1)
    sorted_levels = np.concatenate(
        [
            np.zeros((x.shape[0], 1), dtype=np.intp),
            np.cumsum(np.diff(ordered, axis=1) > 0, axis=1),
        ],
        axis=1,
    )
    levels = np.empty_like(sorted_levels)
    np.put_along_axis(levels, order, sorted_levels, axis=1)
    return levels


def _canonical_columns(levels):
    """``(order, classes)``: the columns sorted by their levels (so a
    reordering of the estimators gives the same sampler input), and for each
    sorted column the label of its class of identical columns (estimators
    tied with each other on every data set, exchangeable a posteriori)."""
    order = np.lexsort(levels[::-1])
    sorted_columns = levels[:, order].T
    new_class = np.any(sorted_columns[1:] != sorted_columns[:-1], axis=1)
    classes = np.concatenate([[0], np.cumsum(new_class)])
    return order, classes


# --------------------------------------------------------------------------
# The sampler
# --------------------------------------------------------------------------


class _TieGroups:
    """Tie groups of one class: their chain, data set, members' places
    (n_groups, width), last place, and the members' mask (large groups,
    None for the small ones, all of one size) or the orders of the small
    ones (their m! orders, None for the large)."""

    __slots__ = ("chain", "row", "members", "end", "mask", "orders")

    def __init__(self, **fields):
        for name, value in fields.items():
            setattr(self, name, value)


class _Rankings:
    """The weak orders as the sampler sees them.

    ``levels`` of shape (n_datasets, k) are shared by every chain; of shape
    (n_chains, n_datasets, k), each chain has its own data (simulation-based
    calibration runs one replication per chain).
    """

    def __init__(self, levels, n_chains):
        levels = np.asarray(levels, dtype=np.intp)
        if levels.ndim == 2:
            levels = np.broadcast_to(levels, (n_chains, *levels.shape))
        self.shape = levels.shape
        n_chains, _, k = levels.shape
        self.k = k
        order = np.argsort(levels, axis=-1, kind="stable")
        ordered = np.take_along_axis(levels, order, axis=-1)
        self.order = order
        self.inverse = np.argsort(order, axis=-1)
        self.chains = np.arange(n_chains)[:, None, None]
        self.rows = np.arange(levels.shape[1])[None, :, None]
        positions = np.arange(k)
        starts = np.ones(levels.shape, dtype=bool)
        starts[..., 1:] = ordered[..., 1:] != ordered[..., :-1]
        ends = np.ones(levels.shape, dtype=bool)
        ends[..., :-1] = starts[..., 1:]
        first = np.maximum.accumulate(np.where(starts, positions, 0), axis=-1)
        last = np.flip(
            np.minimum.accumulate(np.flip(np.where(ends, positions, k), -1), axis=-1),
            -1,
        )
        in_last_group = ordered == ordered[..., -1:]
        self.in_last_group = in_last_group
        self.not_last = (~in_last_group).astype(float)
        self.in_last = in_last_group.astype(float)
        # Where a group's span is added to the time elapsed (1.0) or not.
        self.gap_at = (ends & ~in_last_group).astype(float)
        # The place before each group (its start time is the time elapsed
        # there), and whether there is one.
        self.first_before = np.maximum(first - 1, 0)
        self.after_first = first > 0
        # n_j: the data sets on which j is not in the last group.
        self.counts = np.take_along_axis(~in_last_group, self.inverse, axis=-1).sum(
            axis=1
        )
        # Tie groups (two or more members) that are not the last group: one
        # class per size up to _ENUMERATED (their orders enumerated), one
        # for the larger ones (padded to the largest, with a mask).
        tie_start = starts & (last > first) & ~in_last_group
        chain, row, start = np.nonzero(tie_start)
        size = last[chain, row, start] - start + 1
        self.n_ties = chain.size
        self.tie_classes = []
        for m in [*range(2, _ENUMERATED + 1), None]:
            chosen = size > _ENUMERATED if m is None else size == m
            if not np.any(chosen):
                continue
            width = int(size[chosen].max())
            offsets = np.arange(width)
            self.tie_classes.append(
                _TieGroups(
                    chain=chain[chosen],
                    row=row[chosen],
                    members=np.minimum(start[chosen, None] + offsets, k - 1),
                    end=start[chosen] + size[chosen] - 1,
                    mask=None if m else offsets < size[chosen, None],
                    orders=np.array(list(itertools.permutations(range(m))))
                    if m
                    else None,
                )
            )


def _tie_log_density(u, lam, log_lam, mask, rest, *, value=True, curvature=True):
    """``h(u)``, ``h'(u)`` and ``h''(u)`` of the auxiliary time ``E = e^u``
    of tie groups: ``h(u) = u - c e^u + Σ_j log(1 - e^{-λ_j e^u})``, the log
    density of u (concave). Rows are groups, columns members (``mask``
    marks the real ones); ``value`` and ``curvature`` False skip h and h''
    (None in their place). Far in the tails (a proposal of the rejection
    sampler) h is -inf, never NaN."""
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        e = np.exp(u)
        z = lam * e[:, None]
        small = z < 1e-8  # series: z / (e^z - 1) = 1 - z/2, log(1 - e^-z) = log z
        q = np.where(small, 1.0 - 0.5 * z, z / np.expm1(z))
        q[~mask | np.isnan(q)] = 0.0  # z = inf: 0
        ce = rest * e
        h1 = 1.0 - ce + q.sum(axis=1)
        h = h2 = None
        if value:
            log_terms = np.where(small, log_lam + u[:, None], np.log(-np.expm1(-z)))
            log_terms[~mask] = 0.0
            h = u - ce + log_terms.sum(axis=1)
            h[np.isnan(h)] = -np.inf
        if curvature:
            h2 = np.sum(q * (1.0 - z - q), axis=1) - ce
    return h, h1, h2


def _draw_small_tie_times(rng, lam, rest, orders):
    """Exact draws of the arrival times of the members of small tie groups.

    ``lam`` (n_groups, m) holds the members' weights, ``rest`` (n_groups,)
    the total weight below each group, ``orders`` the m! orders of m
    members. The order of arrival has the probability ``Π_t λ_σt / D_t``,
    ``D_t = c + Σ_{s ≥ t} λ_σs`` (the Plackett–Luce probability of σ with
    the others all after it), computed for every order; given it, the gaps
    between arrivals are independent ``Exp(D_t)``. Returns the times
    (n_groups, m).
    """
    n = lam.shape[0]
    ordered = lam[:, orders]  # (n, m!, m)
    left = rest[:, None, None] + suffix_sums(ordered)
    probability = np.prod(ordered / left, axis=-1)
    cumulative = np.cumsum(probability, axis=1)
    u = rng.random(n) * cumulative[:, -1]
    pick = np.minimum(np.sum(cumulative < u[:, None], axis=1), len(orders) - 1)
    rows = np.arange(n)
    arrival = np.cumsum(rng.standard_exponential(lam.shape) / left[rows, pick], axis=1)
    times = np.empty_like(lam)
    times[rows[:, None], orders[pick]] = arrival
    return times


def _tie_mode(u, lo, hi, lam, log_lam, mask, rest):
    """The mode of each tie group's ``h`` in ``[lo, hi]``: Newton's method
    kept inside the bracket (bisection where a step leaves it), from ``u``,
    until the steps are below 1e-6 (each group as long as it needs)."""
    a, b = lo.copy(), hi.copy()
    u = u.copy()
    todo = np.arange(u.size)
    for _ in range(_MODE_ITERATIONS):
        if not todo.size:
            break
        _, h1, h2 = _tie_log_density(
            u[todo], lam[todo], log_lam[todo], mask[todo], rest[todo], value=False
        )
        a[todo] = np.where(h1 > 0, u[todo], a[todo])
        b[todo] = np.where(h1 > 0, b[todo], u[todo])
        step = u[todo] - h1 / h2
        inside = (step > a[todo]) & (step < b[todo])
        new = np.where(inside, step, 0.5 * (a[todo] + b[todo]))
        moved = np.abs(new - u[todo])
        u[todo] = new
        todo = todo[(moved > 1e-6) & (b[todo] - a[todo] > 1e-9)]
    return u


def _draw_tie_times(rng, lam, mask, rest, mode):
    """Exact draws of the arrival times of the members of tie groups.

    ``lam`` (n_groups, width) holds the members' weights (``mask`` marks
    the real members; the others hold 1), ``rest`` (n_groups,) the total
    weight of the estimators below each group, ``mode`` (n_groups,) a guess
    of the mode of each group's ``h`` (the last sweep's, updated in place).
    Returns the times (n_groups, width; 0 off the mask).
    """
    log_lam = np.log(lam)
    m = mask.sum(axis=1)
    total = np.sum(np.where(mask, lam, 0.0), axis=1)
    # The mode of h lies in [lo, hi]: z / (e^z - 1) is in [1 - z/2, 1].
    lo = np.log((1.0 + m) / (rest + total / 2.0))
    hi = np.log((1.0 + m) / rest)
    u = _tie_mode(np.clip(mode, lo, hi), lo, hi, lam, log_lam, mask, rest)
    mode[:] = u
    # Tangents at ±1 sd of the mode (the slopes' signs are then known; in
    # the rare group where rounding says otherwise, a point beyond the
    # bracket, where they are: h'(lo - 1) >= (1 + m)(1 - 1/e) > 0 and
    # h'(hi + 1) < 0).
    _, _, h2 = _tie_log_density(u, lam, log_lam, mask, rest, value=False)
    sd = 1.0 / np.sqrt(-h2)
    n = u.size
    both = np.concatenate([u - sd, u + sd])
    twice = (np.tile(lam, (2, 1)), np.tile(log_lam, (2, 1)), np.tile(mask, (2, 1)))
    h, s, _ = _tie_log_density(both, *twice, np.tile(rest, 2), curvature=False)
    bad = np.concatenate([~(s[:n] > 0), ~(s[n:] < 0)]) | ~np.isfinite(h)
    if np.any(bad):
        both[bad] = np.concatenate([lo - 1.0, hi + 1.0])[bad]
        h, s, _ = _tie_log_density(both, *twice, np.tile(rest, 2), curvature=False)
    u_left, u_right, h_left, h_right = both[:n], both[n:], h[:n], h[n:]
    s_left, s_right = s[:n], s[n:]
    # The tent under which h lies (concavity): the two tangents, meeting at
    # u_x; each side's mass is proportional to 1/|slope|.
    u_x = (h_right - h_left + s_left * u_left - s_right * u_right) / (s_left - s_right)
    p_left = -s_right / (s_left - s_right)
    u_draw = np.empty_like(u)
    pending = np.arange(n)
    while pending.size:
        # _PROPOSALS proposals per group and pass, the first accepted kept:
        # few passes, whatever the number of groups.
        shape = (pending.size, _PROPOSALS)
        left = rng.random(shape) < p_left[pending, None]
        slope = np.where(left, s_left[pending, None], s_right[pending, None])
        proposal = u_x[pending, None] - rng.standard_exponential(shape) / slope
        at = np.repeat(pending, _PROPOSALS)
        h, _, _ = _tie_log_density(
            proposal.ravel(), lam[at], log_lam[at], mask[at], rest[at], curvature=False
        )
        envelope = np.minimum(
            h_left[pending, None]
            + s_left[pending, None] * (proposal - u_left[pending, None]),
            h_right[pending, None]
            + s_right[pending, None] * (proposal - u_right[pending, None]),
        )
        accept = np.log(rng.random(shape)) <= h.reshape(shape) - envelope
        done = accept.any(axis=1)
        first = np.argmax(accept, axis=1)
        u_draw[pending[done]] = proposal[done, first[done]]
        pending = pending[~done]
    # Given E, each member's time is Exp(λ_j) truncated to (0, E).
    span = np.exp(u_draw)[:, None]
    z = lam * span
    v = rng.random(lam.shape)
    with np.errstate(under="ignore"):
        times = np.where(z < 1e-8, v * span, -np.log1p(v * np.expm1(-z)) / lam)
    times[~mask] = 0.0
    return times


def _sweep(data, w, prior, rng, tie_mode):
    """One Gibbs sweep: the arrival times given w, then w given them
    (``tie_mode``: the tie groups' last modes, updated in place)."""
    n_chains, n_datasets, k = data.shape
    lam = w[data.chains, data.order]
    # rest[..., p]: the weight of the estimators at places p, p + 1, ...
    rest = suffix_sums(lam)
    times = rng.standard_exponential(data.shape) / rest * data.not_last
    span = times * data.gap_at
    for ties in data.tie_classes:
        c, i = ties.chain[:, None], ties.row[:, None]
        members = lam[c, i, ties.members]
        below = rest[ties.chain, ties.row, ties.end + 1]
        if ties.mask is None:
            tie_times = _draw_small_tie_times(rng, members, below, ties.orders)
            times[c, i, ties.members] = tie_times
        else:
            members[~ties.mask] = 1.0
            tie_times = _draw_tie_times(rng, members, ties.mask, below, tie_mode)
            cc = np.broadcast_to(c, ties.members.shape)[ties.mask]
            ii = np.broadcast_to(i, ties.members.shape)[ties.mask]
            times[cc, ii, ties.members[ties.mask]] = tie_times[ties.mask]
        span[ties.chain, ties.row, ties.end] = tie_times.max(axis=1)
    elapsed = np.cumsum(span, axis=-1)
    start = elapsed[data.chains, data.rows, data.first_before]
    start[~data.after_first] = 0.0
    arrival = (start + times)[data.chains, data.rows, data.inverse]
    # S ~ Gamma(kα), in logarithms: for a small prior it is far below the
    # smallest double (and is all of the rate when every data set ties
    # every estimator: no times).
    log_scale = log_gamma(rng, np.full(n_chains, k * prior))
    with np.errstate(divide="ignore"):
        log_rate = np.logaddexp(log_scale[:, None], np.log(arrival.sum(axis=1)))
    w = _normalised_log(log_gamma(rng, prior + data.counts) - log_rate)
    # The order the times complete (ties ordered by arrival), then the
    # moves that rescale the lightest estimators (λ = S·w).
    completed = data.order
    if data.n_ties:
        key = np.where(data.in_last_group, np.inf, start + times)
        completed = data.order[data.chains, data.rows, np.argsort(key, axis=-1)]
    # The moves take λ = S·w apart: S underflowing to 0 is its limit there.
    scale = rng.standard_gamma(k * prior, size=n_chains)
    for _ in range(_CUT_MOVES):
        w = _cut_move(data, w, scale, completed, prior, rng)
    return _normalised(w)


def suffix_sums(x):
    """``Σ_{s ≥ p} x[..., s]`` along the last axis (summed from the
    smallest terms up, so that tiny weights keep their precision)."""
    return np.cumsum(x[..., ::-1], axis=-1)[..., ::-1]


def log_gamma(rng, shape):
    """Logarithms of ``Gamma(shape, 1)`` draws, finite whatever the shape.

    A draw of a small shape can underflow to 0 (``Gamma(0.001)`` is below
    ``1e-308`` with probability 0.5): those are drawn again in logarithms,
    by ``Gamma(a) = Gamma(a + 1) · U^(1/a)`` (exact), so a tiny prior never
    gives a weight of 0 or a NaN; the others are the draws themselves.
    """
    g = rng.standard_gamma(shape)
    with np.errstate(divide="ignore"):
        log_g = np.log(g)
    zero = g == 0
    if np.any(zero):
        a = np.broadcast_to(shape, g.shape)[zero]
        log_g[zero] = (
            np.log(rng.standard_gamma(a + 1.0)) + np.log(rng.random(a.size)) / a
        )
    return log_g


def _normalised_log(log_g):
    """``g / Σg`` per chain from ``log g``, each weight at least
    :data:`WEIGHT_FLOOR` (no underflow of the sum however small the g)."""
    with np.errstate(under="ignore"):
        g = np.exp(log_g - log_g.max(axis=1, keepdims=True))
    return _normalised(g)


def _normalised(g):
    """``g / Σg`` per chain, each weight at least :data:`WEIGHT_FLOOR`."""
    g = np.maximum(g / g.sum(axis=1, keepdims=True), WEIGHT_FLOOR)
    return g / g.sum(axis=1, keepdims=True)


def _cut_move(data, w, scale, completed, prior, rng):
    """A Metropolis–Hastings move scaling the m lightest weights by a
    common factor ``e^t`` (m uniform in 1..k-1).

    The unnormalised weights are ``λ = scale · w`` (``scale`` per chain, a
    ``Gamma(kα)`` draw that may underflow to 0 for a small prior: every
    ratio below is taken on ``w``, and the scale enters only through the
    prior's ``e^{-λ}``, whose limit it then is). Returns ``w`` with the
    light weights rescaled (not normalised).

    Given the order the times complete, the unnormalised weights have the
    posterior ``Π_j Gamma(λ_j; α, 1) · Π_i Π_{stages r before the last
    group} λ_{π_ir} / Σ_{s ≥ r} λ_{π_is}``. When the data rank some
    estimators consistently below the others, it spreads the ratio of the
    two sides over orders of magnitude, which the Gibbs updates (moving
    each weight by about 1/sqrt(n_datasets) of itself) cross slowly; this
    move jumps along it. Its log density in t, concave,
    ``f(t) = (n_B + mα) t - (e^t - 1) Λ_B - Σ log(1 + (e^t - 1) B_ir / R_ir)``
    (B: the light weights still to be placed at stage r, R: all of them;
    the Jacobian ``e^{mt}`` included), is proposed from by one Newton step,
    ``t ~ N(-f'(0)/f''(0), -1/f''(0))``, and the reverse proposal computed
    the same way from t. The m lightest must stay the lightest and
    ``|t| <= 40`` (else the move is rejected), so the move is reversible
    and leaves the posterior invariant.
    """
    n_chains, _, k = data.shape
    lam = w
    m = rng.integers(1, k, size=n_chains)
    lightest = np.argsort(lam, axis=1, kind="stable")
    light = np.empty(lam.shape, dtype=bool)
    np.put_along_axis(light, lightest, np.arange(k) < m[:, None], axis=1)
    light_weight = lam * light
    # At each stage, the shares of the light and the other weights still to
    # be placed (each summed on its own: no cancellation when one is 0);
    # the stages of the last group do not count (share 0, other 1).
    both = suffix_sums(
        np.stack([light_weight, lam - light_weight])[:, data.chains, completed]
    )
    total = both[0] + both[1]
    share = both[0] / total * data.not_last
    other = both[1] / total * data.not_last + data.in_last
    shape = (data.counts * light).sum(axis=1) + m * prior
    total_light = scale * light_weight.sum(axis=1)  # Λ_B
    # The lightest must stay the lightest: e^t below the ratio of the
    # lightest of the others to the heaviest of them.
    ordered = np.take_along_axis(lam, lightest, axis=1)
    rows = np.arange(n_chains)
    bound = np.log(ordered[rows, m]) - np.log(ordered[rows, m - 1])

    def slope_curvature(t):
        e = np.exp(t)[:, None, None]
        x = e * share / (other + e * share)  # e^t B / (A + e^t B)
        g = shape - e[:, 0, 0] * total_light - x.sum(axis=(1, 2))
        h = -e[:, 0, 0] * total_light - np.sum(x * (1.0 - x), axis=(1, 2))
        return g, h

    # A flat log density (no light weight placed, Λ_B = 0) has no Newton
    # step: its proposal is not finite, and the move is rejected.
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        g0, h0 = slope_curvature(np.zeros(n_chains))
        mean0, sd0 = -g0 / h0, 1.0 / np.sqrt(-h0)
        t = mean0 + sd0 * rng.standard_normal(n_chains)
        inside = (t < bound) & (np.abs(t) <= _CUT_LIMIT)
        t = np.where(inside, t, 0.0)
        g1, h1 = slope_curvature(t)
        mean1, sd1 = t - g1 / h1, 1.0 / np.sqrt(-h1)
        change = np.log(other + np.exp(t)[:, None, None] * share)
        log_target = shape * t - np.expm1(t) * total_light - change.sum(axis=(1, 2))
        log_ratio = (
            log_target + _normal_logpdf(0.0, mean1, sd1) - _normal_logpdf(t, mean0, sd0)
        )
    accept = inside & np.isfinite(log_ratio)
    accept &= np.log(rng.random(n_chains)) < np.where(accept, log_ratio, 0.0)
    return np.where(accept[:, None] & light, lam * np.exp(t)[:, None], lam)


def _normal_logpdf(x, mean, sd):
    return -0.5 * ((x - mean) / sd) ** 2 - np.log(sd)


def run_sampler(levels, *, prior, n_draws, n_chains, n_warmup, rng):
    """Posterior draws of the weights, shape (n_chains, n_draws, k).

    ``levels`` (n_datasets, k), or (n_chains, n_datasets, k) for data of
    each chain's own; the chains start from dispersed points (uniform on
    the simplex).
    """
    data = _Rankings(levels, n_chains)
    w = rng.dirichlet(np.ones(data.k), size=n_chains)
    w = np.maximum(w, WEIGHT_FLOOR)
    large = [ties for ties in data.tie_classes if ties.mask is not None]
    # The large tie groups' last modes (inf: clipped to each bracket's top).
    tie_mode = np.full(large[0].chain.size if large else 0, np.inf)
    for _ in range(n_warmup):
        w = _sweep(data, w, prior, rng, tie_mode)
    draws = np.empty((n_chains, n_draws, data.k))
    for t in range(n_draws):
        w = _sweep(data, w, prior, rng, tie_mode)
        draws[:, t] = w
    return draws


# --------------------------------------------------------------------------
# What the draws say
# --------------------------------------------------------------------------


def _rank_probabilities(flat):
    """(k, k): the share of draws in which estimator j has rank r + 1 by
    weight (1 = the largest)."""
    n, k = flat.shape
    order = np.argsort(-flat, axis=1, kind="stable")
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(k), axis=1)
    counts = np.bincount((np.arange(k) * k + ranks).ravel(), minlength=k * k)
    return counts.reshape(k, k) / n, ranks


def _beats(flat):
    """(k, k): the posterior mean of ``w_i / (w_i + w_j)``, in chunks of
    draws (never an n × k × k array)."""
    n, k = flat.shape
    total = np.zeros((k, k))
    step = max(1, _CHUNK // (k * k))
    for begin in range(0, n, step):
        w = flat[begin : begin + step]
        total += np.sum(w[:, :, None] / (w[:, :, None] + w[:, None, :]), axis=0)
    return total / n


def _diagnostics(draws, ranks):
    """Split-R̂ and effective sample size of each weight, and the Monte
    Carlo standard error of each P(best) (from the effective sample size of
    its indicator)."""
    n_chains, n_draws, k = draws.shape
    rhat, ess, se = np.ones(k), np.empty(k), np.zeros(k)
    best = (ranks == 0).reshape(n_chains, n_draws, k)
    for j in range(k):
        rhat[j] = split_rhat(draws[..., j])
        ess[j] = effective_sample_size(draws[..., j])
        p = best[..., j].mean()
        if 0 < p < 1:
            indicator = best[..., j].astype(float)
            se[j] = np.sqrt(p * (1 - p) / effective_sample_size(indicator))
    return rhat, ess, se


def _summarise(draws, alpha):
    """The posterior summaries of (n_chains, n_draws, k) draws."""
    k = draws.shape[-1]
    flat = draws.reshape(-1, k)
    rank_probabilities, ranks = _rank_probabilities(flat)
    rhat, ess, se = _diagnostics(draws, ranks)
    return Bunch(
        weights=flat.mean(axis=0),
        weights_interval=np.quantile(flat, [alpha / 2, 1 - alpha / 2], axis=0).T,
        rank_probabilities=rank_probabilities,
        prob_beats=_beats(flat),
        rhat=rhat,
        ess=ess,
        prob_best_se=se,
        _flat=flat,
    )


def _symmetrise(summary, classes, alpha):
    """Average the summaries over each class of identical columns.

    Estimators tied with each other on every data set are exchangeable a
    posteriori: their exact summaries are equal, and the average is the
    better estimate (and makes the result follow a reordering of the
    columns exactly). Their diagnostics become the class's worst.
    """
    labels = np.unique(classes)
    if labels.size == classes.size:
        return summary
    members = [np.flatnonzero(classes == c) for c in labels]
    out = Bunch(**{name: np.copy(value) for name, value in summary.items()})
    for a, group in enumerate(members):
        out.weights[group] = summary.weights[group].mean()
        out.rank_probabilities[group] = summary.rank_probabilities[group].mean(axis=0)
        out.prob_best_se[group] = summary.prob_best_se[group].mean()
        out.rhat[group] = summary.rhat[group].max()
        out.ess[group] = summary.ess[group].min()
        pooled = summary._flat[:, group].ravel()
        out.weights_interval[group] = np.quantile(pooled, [alpha / 2, 1 - alpha / 2])
        for b, other in enumerate(members):
            block = np.ix_(group, other)
            out.prob_beats[block] = 0.5 if a == b else summary.prob_beats[block].mean()
    return out


# --------------------------------------------------------------------------
# The result in words (for the summaries and reports of the comparisons)
# --------------------------------------------------------------------------


def _by_rank(test):
    """Estimator indices, most probably best first."""
    return sorted(
        range(len(test.names)),
        key=lambda j: (test.expected_rank[j], -test.prob_best[j], j),
    )


def ranking_sentence(test):
    """One sentence saying what the ranking found.

    Parameters
    ----------
    test : Bunch
        The result of :func:`plackett_luce`.

    Returns
    -------
    sentence : str

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.stats import plackett_luce
    >>> from sklearn_bcv.stats._plackett_luce import ranking_sentence
    >>> scores = np.array([[0.9, 0.8, 0.7], [0.8, 0.9, 0.6], [0.9, 0.7, 0.7]])
    >>> result = plackett_luce(scores, names=["forest", "svm", "knn"],
    ...                        random_state=0)
    >>> print(ranking_sentence(result))  # doctest: +NORMALIZE_WHITESPACE
    P(forest is the best) = 0.666: the posterior probability that forest has
    the largest Plackett-Luce weight (the best chance of ranking first on a
    new data set: 0.53, 95% interval 0.19 to 0.86); no estimator is the best
    with probability above 0.95, the level of a decision.
    """
    names = test.names
    leader = _by_rank(test)[0]
    name = names[leader]
    low, high = test.weights_interval[leader]
    level = 100 * (1 - test.alpha)
    sentence = (
        f"P({name} is the best) = {test.prob_best[leader]:.3f}: the posterior "
        f"probability that {name} has the largest Plackett-Luce weight (the "
        f"best chance of ranking first on a new data set: "
        f"{test.weights[leader]:.2f}, {level:g}% interval {low:.2f} to "
        f"{high:.2f}); "
    )
    # The level in words, not "1 - alpha": a report sets its own alpha in
    # math, and a hook's sentence is plain text in every format.
    if test.best is not None:
        return sentence + (
            f"{test.best} is the best with probability above {1 - test.alpha:g}, "
            "the level of a decision."
        )
    return sentence + (
        f"no estimator is the best with probability above {1 - test.alpha:g}, "
        "the level of a decision."
    )


def ranking_table(test):
    """``(header, rows)``: one row per estimator, most probably best first.

    The columns: estimator, P(best), expected rank, the posterior mean
    weight (the probability of ranking first on a new data set) and its
    credible interval; numbers as text with three decimals.
    """
    level = 100 * (1 - test.alpha)
    header = (
        "estimator",
        "P(best)",
        "expected rank",
        "P(first on a new data set)",
        f"{level:g}% interval",
    )
    rows = [
        (
            test.names[j],
            f"{test.prob_best[j]:.3f}",
            f"{test.expected_rank[j]:.2f}",
            f"{test.weights[j]:.3f}",
            f"[{test.weights_interval[j][0]:.3f}, {test.weights_interval[j][1]:.3f}]",
        )
        for j in _by_rank(test)
    ]
    return header, rows


def ranking_lines(test, name="plackett_luce"):
    """The lines of a printed summary: what was computed, the sentence of
    :func:`ranking_sentence` and the table of :func:`ranking_table`."""
    ties = test.n_tied_datasets
    tie_text = (
        f"ties kept as ties, on {ties} of {test.n_datasets} data sets"
        if ties
        else "no ties"
    )
    lines = [
        f"{name}: Bayesian Plackett-Luce ranking ({tie_text}; R-hat "
        f"{test.rhat:.3f}, effective sample size {test.ess:.0f})",
        "  " + ranking_sentence(test),
    ]
    header, rows = ranking_table(test)
    widths = [max(len(h), *(len(r[c]) for r in rows)) for c, h in enumerate(header)]
    for row in (header, *rows):
        cells = [
            cell.ljust(width) if c == 0 else cell.rjust(width)
            for c, (cell, width) in enumerate(zip(row, widths))
        ]
        lines.append("    " + "  ".join(cells).rstrip())
    return lines


def ranking_content(name, test, context=None):
    """What the ranking contributes to a comparison's summary, report and
    CSV table.

    The form of the registry's ``content`` hook of a test across
    estimators: a dict with ``"summary"`` (lines of the printed summary,
    :func:`ranking_lines`), ``"sentences"`` (the report's verdict,
    :func:`ranking_sentence`), ``"tables"`` (one table, :func:`ranking_table`:
    estimator, P(best), expected rank, weight and its interval) and
    ``"csv_rows"`` (section ``ranking``, one row per estimator, numbers as
    numbers).

    Parameters
    ----------
    name : str
        The test's name in the comparison.
    test : Bunch
        Its result (:func:`plackett_luce`).
    context : Bunch, default=None
        The comparison's settings (unused: the result carries its names and
        level).

    Returns
    -------
    content : dict
    """
    header, rows = ranking_table(test)
    level = 100 * (1 - test.alpha)
    csv_rows = [
        {
            "section": "ranking",
            "test": name,
            "estimator": test.names[j],
            "prob_best": float(test.prob_best[j]),
            "expected_rank": float(test.expected_rank[j]),
            "weight": float(test.weights[j]),
            "weight_low": float(test.weights_interval[j][0]),
            "weight_high": float(test.weights_interval[j][1]),
        }
        for j in _by_rank(test)
    ]
    return {
        "summary": ranking_lines(test, name),
        "sentences": [ranking_sentence(test)],
        "tables": [
            {
                "header": list(header),
                "rows": [list(row) for row in rows],
                "caption": (
                    "Bayesian Plackett-Luce ranking: P(best), the posterior "
                    "probability of the largest weight; the weight, the "
                    "probability of ranking first on a new data set, with its "
                    f"{level:g}% credible interval."
                ),
            }
        ],
        "csv_rows": csv_rows,
    }


# --------------------------------------------------------------------------
# The test
# --------------------------------------------------------------------------


def _check_prior(prior):
    low, high = PRIOR_BOUNDS
    return check_real(
        prior,
        name="prior",
        expected=(
            f"a number in [{low:g}, {high:g}] (the Dirichlet concentration: "
            "beyond, the weights are equal to the rounding of a draw, or all "
            "in the simplex's corners)"
        ),
        is_valid=lambda a: low <= a <= high,
    )


def check_work(n_datasets, k, n_samples, n_chains, n_warmup):
    """Refuse a run whose total work, ``n_datasets × k × (n_chains ×
    n_warmup + n_samples)`` estimator-places swept, exceeds
    :data:`MAX_WORK`, before any work."""
    work = int(n_datasets) * int(k) * (int(n_chains) * int(n_warmup) + int(n_samples))
    if work > MAX_WORK:
        raise ValueError(
            f"plackett_luce: n_datasets × k × (n_chains × n_warmup + n_samples) "
            f"must be at most {MAX_WORK:.0e} (the places the sampler sweeps, "
            f"about one to five minutes); got {n_datasets} × {k} × ({n_chains} × "
            f"{n_warmup} + {n_samples}) = {work:.2e}. Lower n_samples, n_warmup "
            "or n_chains, or rank fewer data sets."
        )


def _check_params(
    *,
    prior=1.0,
    greater_is_better=True,
    n_samples=DEFAULT_N_SAMPLES,
    n_chains=4,
    n_warmup=DEFAULT_N_WARMUP,
    names=None,
    random_state=None,
    table_shape=None,
):
    """The test's own parameters, checked before any work (with
    ``table_shape``, ``(n_datasets, k)``, the total work too)."""
    _check_prior(prior)
    check_bool(greater_is_better, name="greater_is_better")
    check_sampler_sizes(n_samples, n_chains, n_warmup)
    check_random_state(random_state)
    if table_shape is not None:
        check_work(*table_shape, n_samples, n_chains, n_warmup)


def _check_names(names, k):
    if names is None:
        return [f"estimator_{j}" for j in range(k)]
    if isinstance(names, str | set | frozenset):
        raise ValueError(
            f"names must be a sequence of {k} distinct strings; got {names!r}."
        )
    names = list(names)
    if (
        len(names) != k
        or not all(isinstance(name, str) for name in names)
        or len(set(names)) != k
    ):
        raise ValueError(
            f"names must be a sequence of {k} distinct strings, one per column of "
            f"scores; got {names!r}."
        )
    return names


@register_test(
    "plackett_luce",
    needs="scores",
    kind="datasets",
    alternatives=_TWO_SIDED,
    role="ranking",
    param_check=_check_params,
    by_default=False,
    display_name="Bayesian Plackett-Luce ranking",
    references=(CALVO_2018, CARON_2012, PLACKETT_1975),
    posterior="ranking",
    rationale=(
        "the posterior probability that each estimator is the best, and of "
        "each rank, from a Bayesian Plackett-Luce model of the rankings (ties "
        "kept as ties)"
    ),
    content=ranking_content,
)
def plackett_luce(
    scores,
    *,
    prior=1.0,
    greater_is_better=True,
    alpha=0.05,
    alternative="two-sided",
    n_samples=DEFAULT_N_SAMPLES,
    n_chains=4,
    n_warmup=DEFAULT_N_WARMUP,
    names=None,
    random_state=None,
):
    """Bayesian Plackett–Luce ranking of k estimators across data sets.

    What is the probability that each estimator is the best, and how sure
    are we of the whole ranking? The order of the estimators on each data
    set is a draw from a Plackett–Luce model whose weights get a Dirichlet
    prior (Calvo, Ceberio and Lozano 2018, R's scmamp); the posterior says
    which estimator is the most likely to rank first on a new data set, and
    how likely each rank is. Ties are kept as ties (see Notes).

    Parameters
    ----------
    scores : array-like of shape (n_datasets, k)
        One score per data set (row) and estimator (column); at least 1
        data set and 2 estimators, finite. Only each row's order is used
        (the same posterior for fractions, percents or shifted scores).
    prior : float, default=1.0
        The concentration α of the ``Dirichlet(α, …, α)`` prior of the
        weights, in ``[1e-6, 1e6]``: 1 is uniform on the simplex (scmamp's
        default); below 1 favours a few dominant estimators (sampled in
        logarithms, so a tiny prior never gives a NaN; far below 1 the
        chains may not mix, which R-hat reports), above it equal weights
        (at ``α`` the prior weighs about as much as ``α·k`` data sets).
    greater_is_better : bool, default=True
        False ranks losses and error rates: the lowest score is the best.
        (In :func:`~sklearn_bcv.compare_scores` and
        :func:`~sklearn_bcv.benchmark`, set theirs: the scores reach the
        test with the best highest.)
    alpha : float, default=0.05
        The credible intervals have level ``1 - alpha``; ``reject`` and
        ``best`` report an estimator whose ``prob_best`` exceeds
        ``1 - alpha``.
    alternative : {"two-sided"}, default="two-sided"
        Accepted for the registry's call; a ranking has no direction.
    n_samples : int, default=6000
        Posterior draws kept, over all chains (``n_samples // n_chains``
        per chain, at least 4), after ``n_warmup`` sweeps per chain. The
        default gives Monte Carlo errors of ``prob_best`` below 0.01
        (``diagnostics.prob_best_se`` estimates them).
    n_chains : int, default=4
        Independent chains from dispersed starting points (uniform on the
        simplex), sampled side by side (vectorised).
    n_warmup : int, default=200
        Warm-up sweeps per chain, discarded. The total work,
        ``n_datasets × k × (n_chains × n_warmup + n_samples)``, is at most
        ``5e8`` (about one to five minutes; larger is refused before any
        work, and before any fit in :func:`~sklearn_bcv.benchmark`).
    names : sequence of str, default=None
        The estimators, in column order (default: the columns of a
        :class:`pandas.DataFrame`, else ``estimator_0``, ...).
        :func:`~sklearn_bcv.compare_scores` and
        :func:`~sklearn_bcv.benchmark` pass theirs (and refuse it, and
        ``greater_is_better``, among the test's options: they describe the
        table).
    random_state : int, RandomState instance or None, default=None
        Seeds the sampler's own :class:`numpy.random.Generator`; an int
        gives the same result every call. numpy's global random state is
        never used.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        With fields (per estimator, in column order):

        weights : ndarray of shape (k,)
            The posterior mean of the weights (they sum to 1): the
            probability that the estimator ranks first on a new data set
            (scmamp's ``expected.win.prob``).
        weights_interval : ndarray of shape (k, 2)
            The central credible interval of each weight, level
            ``1 - alpha``.
        prob_best : ndarray of shape (k,)
            The posterior probability that the estimator has the largest
            weight (the best chance of ranking first); sums to 1.
        expected_rank : ndarray of shape (k,)
            The posterior mean of its rank by weight, 1 = the largest
            (scmamp's ``expected.mode.rank``).
        rank_probabilities : ndarray of shape (k, k)
            ``[j, r]``: the posterior probability that estimator j has rank
            ``r + 1`` by weight (rows and columns sum to 1; column 0 is
            ``prob_best``).
        prob_beats : ndarray of shape (k, k)
            ``[i, j]``: the posterior mean of ``w_i / (w_i + w_j)``, the
            probability that i ranks above j on a new data set on which
            both run (0.5 on the diagonal; ``prob_beats + prob_beats.T``
            is 1).
        names : list of str
        best : str or None
            The estimator whose ``prob_best`` exceeds ``1 - alpha``, if any.
        reject : bool
            Whether there is one (``best`` is not None). Not a test of a
            null hypothesis: a posterior decision, as the other Bayesian
            tests' ``reject``.
        statistic, pvalue, df : None
            A ranking has no test statistic or p-value.
        rhat : float
            The largest split-R̂ of the k weights.
        ess : float
            Their smallest effective sample size.
        diagnostics : :class:`~sklearn.utils.Bunch`
            ``rhat`` and ``ess`` of each weight, and ``prob_best_se``, the
            Monte Carlo standard error of each ``prob_best`` (from the
            effective sample size of its indicator).
        prior, greater_is_better : the inputs.
        n_datasets : int
        n_tied_datasets : int
            The data sets with at least one tie.
        n_samples : int
            The draws kept (``n_chains × (n_samples // n_chains)``).
        alternative, alpha, test : the inputs and ``"plackett_luce"``.

    Warns
    -----
    ConvergenceWarning
        When ``rhat > 1.01`` or ``ess < 400`` (Vehtari et al. 2021): the
        probabilities are then not to be trusted; raise ``n_samples``.

    See Also
    --------
    friedman, nemenyi : Which estimators differ, by mean ranks (frequentist).
    bayesian_signed_rank, bayesian_hierarchical : Two estimators at a time,
        with a region of practical equivalence.
    sklearn_bcv.RankProbabilityDisplay : P(best) and the weights, drawn.

    Notes
    -----
    On data set i, with the estimators sorted best first as ``π``,
    ``P(π | w) = Π_{r=1}^{k-1} w_{π_r} / Σ_{s ≥ r} w_{π_s}`` and
    ``w ~ Dirichlet(α, …, α)``. A group G of tied estimators at places
    ``r … r + |G| - 1`` contributes the probability that its members take
    those places in any order, the sum of the order probabilities over the
    ``|G|!`` orders of G (the probability of the weak order), not a random
    tie-break: scmamp breaks ties at random before fitting, so two runs on
    the same table give two posteriors. The estimators tied on every data
    set are exchangeable a posteriori, and their summaries are averaged
    over them (so equal, as exactly).

    The sampler (Caron and Doucet 2012, extended to weak orders; no Stan):
    a Plackett–Luce order is the order in which the estimators arrive when
    each arrives after an exponential time of rate ``w_j``; the arrival
    times given the weights and the observed weak orders are latent
    variables with a closed-form full conditional, and the weights given
    the times are independent gammas. A group of one estimator has Caron
    and Doucet's exponential time. A tie group G followed by estimators of
    total weight c is handled whatever its size, without summing over its
    orders: the arrival E of the first of the others (the group's members
    all before it) has the one-dimensional log-concave density
    ``∝ e^{-cE} Π_{j ∈ G} (1 - e^{-w_j E})``, drawn exactly by rejection
    under the tangents of its log density, and given E the members' times
    are independent exponentials truncated to ``(0, E)``: cost linear in
    ``|G|``. A Metropolis–Hastings move that rescales the lightest weights
    together (exact given the order the times complete) speeds the mixing
    when the data rank some estimators consistently below the others.
    Every step leaves the exact posterior invariant; ``doc/reproduction.rst``
    checks it against quadrature, simulation-based calibration and scmamp.

    References
    ----------
    .. [1] B. Calvo, J. Ceberio, J. A. Lozano, "Bayesian inference for
       algorithm ranking analysis", GECCO '18 Companion, 324-325, 2018.
    .. [2] F. Caron, A. Doucet, "Efficient Bayesian inference for
       generalized Bradley-Terry models", Journal of Computational and
       Graphical Statistics 21(1):174-196, 2012.
    .. [3] R. L. Plackett, "The analysis of permutations", Journal of the
       Royal Statistical Society C 24(2):193-202, 1975.

    Examples
    --------
    Demšar's (2006) Table 6: AUC of four variants of C4.5 on 14 data sets
    (one row ties all four, another two of them).

    >>> import numpy as np
    >>> from sklearn_bcv.stats import plackett_luce
    >>> auc = np.array([
    ...     [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...     [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    ...     [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    ...     [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    ...     [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
    ...     [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    ...     [0.972, 0.981, 0.975, 0.975], [0.957, 0.978, 0.946, 0.970]])
    >>> result = plackett_luce(
    ...     auc, names=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"], random_state=0)
    >>> result.prob_best.round(2)
    array([0.  , 0.46, 0.  , 0.54])
    >>> [result.names[j] for j in np.argsort(result.expected_rank)]
    ['C4.5+m+cf', 'C4.5+m', 'C4.5+cf', 'C4.5']
    >>> result.weights.round(2)
    array([0.1 , 0.38, 0.13, 0.39])
    >>> print(result.best)
    None

    C4.5+m and C4.5+m+cf are about equally likely to be the best (0.46 and
    0.54): each ranks first on a new data set with probability about 0.38
    to 0.39, plain C4.5 with 0.10. No estimator is the best with probability
    above 0.95.
    """
    test = "plackett_luce"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test, allowed=_TWO_SIDED)
    _check_params(
        prior=prior,
        greater_is_better=greater_is_better,
        n_samples=n_samples,
        n_chains=n_chains,
        n_warmup=n_warmup,
        random_state=random_state,
    )
    prior = float(prior)
    if names is None and hasattr(scores, "columns"):  # a pandas DataFrame
        names = [str(name) for name in scores.columns]
    scores = check_score_table(scores, min_datasets=1, min_estimators=2)
    n_datasets, k = scores.shape
    names = _check_names(names, k)
    if n_samples * k > MAX_DRAWS:
        raise ValueError(
            f"n_samples × k must be at most {MAX_DRAWS} (1 GiB of posterior "
            f"draws); got n_samples={n_samples} for {k} estimators."
        )
    if n_samples * k * k > MAX_PAIR_TERMS:
        raise ValueError(
            f"n_samples × k² must be at most {MAX_PAIR_TERMS} (the terms of "
            f"prob_beats, seconds each 10**8); got n_samples={n_samples} for {k} "
            f"estimators: lower n_samples to {MAX_PAIR_TERMS // (k * k)} or less."
        )
    check_work(n_datasets, k, n_samples, n_chains, n_warmup)
    levels = weak_order_levels(scores, greater_is_better=greater_is_better)
    columns, classes = _canonical_columns(levels)
    draws = run_sampler(
        levels[:, columns],
        prior=prior,
        n_draws=n_samples // n_chains,
        n_chains=n_chains,
        n_warmup=n_warmup,
        rng=_rng(random_state),
    )
    if not np.all(np.isfinite(draws)):  # never a NaN reported as a weight
        raise RuntimeError(
            f"{test}: the sampler drew a weight that is not a number (prior="
            f"{prior:g}); please report it, with the table."
        )
    summary = _symmetrise(_summarise(draws, alpha), classes, alpha)
    rhat, ess = float(summary.rhat.max()), float(summary.ess.min())
    if not (rhat <= RHAT_MAX and ess >= ESS_MIN):  # an undefined R-hat too
        warnings.warn(
            f"{test}: the sampler may not have converged (R-hat {rhat:.3f}, "
            f"effective sample size {ess:.0f}; want R-hat <= {RHAT_MAX} and "
            f"ESS >= {ESS_MIN}). Increase n_samples (and n_warmup); with a "
            "prior far below 1 the chains can stay in different corners.",
            ConvergenceWarning,
            stacklevel=2,
        )
    back = np.argsort(columns)  # canonical order -> the user's columns
    rank_probabilities = summary.rank_probabilities[back]
    prob_best = rank_probabilities[:, 0]
    leader = int(np.argmax(prob_best))
    decided = bool(prob_best[leader] > 1 - alpha)
    n_tied = int(np.sum(np.any(np.diff(np.sort(levels, axis=1), axis=1) == 0, axis=1)))
    return make_result(
        test=test,
        statistic=None,
        pvalue=None,
        df=None,
        alpha=alpha,
        alternative=alternative,
        reject=decided,
        names=names,
        weights=summary.weights[back],
        weights_interval=summary.weights_interval[back],
        prob_best=prob_best,
        expected_rank=1.0 + rank_probabilities @ np.arange(k),
        rank_probabilities=rank_probabilities,
        prob_beats=summary.prob_beats[np.ix_(back, back)],
        best=names[leader] if decided else None,
        rhat=rhat,
        ess=ess,
        diagnostics=Bunch(
            rhat=summary.rhat[back],
            ess=summary.ess[back],
            prob_best_se=summary.prob_best_se[back],
        ),
        prior=prior,
        greater_is_better=bool(greater_is_better),
        n_datasets=n_datasets,
        n_tied_datasets=n_tied,
        n_samples=int(draws.shape[0] * draws.shape[1]),
    )
