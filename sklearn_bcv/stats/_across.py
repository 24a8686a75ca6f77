"""Tests across data sets (registry kind ``"datasets"``).

Two families, both read scores that are higher-is-better:

* **k estimators at once** on a table ``scores`` of shape (n_datasets, k),
  one mean score per data set and estimator: the Friedman test (with
  Iman and Davenport's F reported inside it) and the post hoc rank tests of
  Demšar (2006) -- Nemenyi (all pairs), Bonferroni–Dunn and Holm (against
  a control, or all pairs) on the mean ranks.
* **one pair at a time**, A against B: the Wilcoxon signed-rank and sign
  tests on ``dataset_differences`` (one mean score difference per data
  set), the Poisson-binomial test (Corani & Benavoli 2015, §3) on ``split_differences``
  (one difference per data set and split), and the Bayesian signed-rank and
  sign tests of Benavoli et al. (2017), sampled by Monte Carlo.

Monte Carlo of the Bayesian tests. Both posteriors are Dirichlet processes
whose weights do not depend on the data: ``w ~ Dirichlet(s, 1, ..., 1)``
over a pseudo-observation ``z_0 = 0`` (prior weight ``s``) and the q
differences. They are drawn as normalised gamma variables, ``Exp(1)`` for
the q data sets and ``Gamma(s)`` for the pseudo-observation, from a
:class:`numpy.random.Generator` seeded from ``random_state`` (through
:func:`sklearn.utils.check_random_state`, so an int gives the same result
every call). For an int ``random_state`` the last draw is cached: the pairs
of a comparison over the same data sets reuse it, and a result never
depends on what was computed before (a cached draw is exactly the draw the
seed makes).

The module holds the Bayesian tests and re-exports the rest of the family
(and its shared checks, :mod:`._across_utils`): the Friedman family in
:mod:`._friedman`, the aligned-ranks and Quade families in
:mod:`._aligned_quade`, the frequentist pairwise tests in
:mod:`._pairwise_across`.
"""

import threading
from numbers import Integral

import numpy as np
from sklearn.utils import check_random_state

from ._across_utils import (  # noqa: F401 (re-exported)
    MAX_DRAWS,
    _check_control,
    _check_dataset_differences,
    _check_n_samples,
    _check_prior_weight,
    _check_split_differences,
    _concordance_probability,
    _friedman_terms,
    _pair_matrix,
    _rank_table,
    _tie_sum,
    check_dataset_sizes,
)
from ._aligned_quade import (  # noqa: F401 (re-exported)
    aligned_posthoc,
    friedman_aligned,
    quade,
    quade_posthoc,
)
from ._bayesian import (
    _check_rope,
    posterior_decision,
)
from ._exact_posthoc import exact_posthoc  # noqa: F401 (re-exported)
from ._friedman import (  # noqa: F401 (re-exported)
    bonferroni_dunn,
    friedman,
    friedman_posthoc,
    holm,
    nemenyi,
)
from ._pairwise_across import (  # noqa: F401 (re-exported)
    _outcome_probabilities,
    _poisson_binomial_pmf,
    poisson_binomial,
    sign,
    wilcoxon,
)
from ._references import BENAVOLI_2014, BENAVOLI_2017
from ._registry import register_test
from ._ties import check_score_scale, difference_tolerance, merge_magnitudes
from ._utils import (
    check_alpha,
    check_alternative,
    make_result,
)

__all__ = [
    "aligned_posthoc",
    "bayesian_sign",
    "bayesian_signed_rank",
    "bonferroni_dunn",
    "exact_posthoc",
    "friedman",
    "friedman_aligned",
    "friedman_posthoc",
    "holm",
    "nemenyi",
    "poisson_binomial",
    "quade",
    "quade_posthoc",
    "sign",
    "wilcoxon",
]


# --------------------------------------------------------------------------
# Bayesian signed-rank and sign tests: Monte Carlo draws
# --------------------------------------------------------------------------

_CACHE_LOCK = threading.Lock()
# The last Exp(1) draw, (entropy, n_datasets, n_samples) -> float32 array
# (n_datasets, n_samples): 20 MB for 100 data sets and 50,000 samples.
_EXPONENTIALS = {}
# The last few Gamma(prior_weight) draws of the pseudo-observation.
_GAMMAS = {}
_MAX_GAMMAS = 4
# Draws larger than this many values are not kept, and the signed-rank
# staircase runs over blocks of samples of about this many values.
_MAX_VALUES = 2**24


def _entropy(random_state):
    """Seed material drawn from ``random_state``; whether it is reproducible.

    An int seeds a fresh RandomState (:func:`~sklearn.utils.check_random_state`),
    so the entropy, and everything drawn from it, is the same every call.
    """
    rng = check_random_state(random_state)
    entropy = tuple(int(v) for v in rng.randint(0, 2**32, size=4, dtype=np.uint64))
    reproducible = isinstance(random_state, Integral) and not isinstance(
        random_state, bool
    )
    return entropy, reproducible


def _generator(entropy, stream):
    seeds = np.random.SeedSequence(entropy, spawn_key=(stream,))
    return np.random.Generator(np.random.PCG64(seeds))


def _cached(cache, key, draw, *, keep, max_size):
    """``cache[key]``, drawing (and, when ``keep``, storing) it on a miss."""
    with _CACHE_LOCK:
        found = cache.get(key)
    if found is not None:
        return found
    found = draw()
    found.flags.writeable = False
    if keep:
        with _CACHE_LOCK:
            while len(cache) >= max_size:
                del cache[next(iter(cache))]
            cache[key] = found
    return found


def _dirichlet_parts(n_datasets, prior_weight, n_samples, random_state):
    """Unnormalised weights of ``Dirichlet(s, 1, ..., 1)``: the pseudo-observation's
    ``Gamma(s)`` draws (n_samples,) and the data sets' ``Exp(1)`` draws
    (n_datasets, n_samples), float32, read-only.

    The two come from independent streams of one seed, so a pair of tests
    with different prior weights shares the data sets' draws.
    """
    _check_n_samples(n_samples, n_datasets)
    entropy, keep = _entropy(random_state)
    keep = keep and n_datasets * n_samples <= _MAX_VALUES
    exponentials = _cached(
        _EXPONENTIALS,
        (entropy, n_datasets, n_samples),
        lambda: _generator(entropy, 0).standard_exponential(
            (n_datasets, n_samples), dtype=np.float32
        ),
        keep=keep,
        max_size=1,
    )
    gammas = _cached(
        _GAMMAS,
        (entropy, prior_weight, n_samples),
        lambda: _generator(entropy, 1).standard_gamma(
            prior_weight, n_samples, dtype=np.float32
        ),
        keep=keep,
        max_size=_MAX_GAMMAS,
    )
    return gammas, exponentials


def _staircase_sum(prefix, sorted_rows, thresholds, low, high, out):
    """``out += Σ_{low <= i < high} v_i · P[thresholds[i]]``, merging runs.

    ``v_i = sorted_rows[i]`` and ``P`` = ``prefix`` its prefix sums; the
    consecutive rows sharing a threshold add ``(P[e] - P[s]) · P[t]`` at
    once.
    """
    if high <= low:
        return out
    tmp = np.empty_like(out)
    cuts = np.flatnonzero(np.diff(thresholds[low:high])) + 1 + low
    for start, stop in zip(np.r_[low, cuts], np.r_[cuts, high]):
        t = thresholds[start]
        if stop - start == 1:
            np.multiply(sorted_rows[start], prefix[t], out=tmp)
        else:
            np.subtract(prefix[stop], prefix[start], out=tmp)
            tmp *= prefix[t]
        out += tmp
    return out


def _walsh_staircases(zs, rope, tolerance=0.0):
    """``(start_a, stop_b)`` over sorted ``zs``: for each i, the pairs with
    ``zs_i + zs_j > 2 rope`` are ``j >= start_a[i]`` and those with
    ``zs_i + zs_j < -2 rope`` are ``j < stop_b[i]``, both non-increasing
    in i; a sum within ``tolerance`` of ``±2 rope`` is in the rope (the tie
    rule). By binary search: O(q log q), never a (q, q) array.
    """
    with np.errstate(over="ignore"):
        start_a = np.searchsorted(zs, (2.0 * rope + tolerance) - zs, side="right")
        stop_b = np.searchsorted(zs, (-2.0 * rope - tolerance) - zs, side="left")
    return start_a, stop_b


def _sorted_prefix(z, rows):
    """``(sorted z, rows in that order, their prefix sums)`` (float32)."""
    order = np.argsort(z, kind="stable")
    sorted_rows = [rows[i] for i in order]
    prefix = np.empty((z.size + 1, sorted_rows[0].size), dtype=np.float32)
    prefix[0] = 0.0
    for k, row in enumerate(sorted_rows):
        np.add(prefix[k], row, out=prefix[k + 1])
    return z[order], sorted_rows, prefix


def _a_side(start_a, prefix, sorted_rows):
    """θ_A's mass from the staircase ``start_a`` (sorted order)."""
    n = start_a.size
    first_a = n - int(np.count_nonzero(start_a < n))
    first_full_a = n - int(np.count_nonzero(start_a == 0))
    return _a_mass(prefix, sorted_rows, start_a, first_a, first_full_a)


def _b_side(stop_b, prefix, sorted_rows):
    """θ_B's mass from the staircase ``stop_b`` (sorted order)."""
    n = stop_b.size
    n_full_b = int(np.count_nonzero(stop_b == n))
    end_b = int(np.count_nonzero(stop_b > 0))
    return _b_mass(prefix, sorted_rows, stop_b, n_full_b, end_b)


def _signed_rank_theta(z, rows, rope, tolerance=0.0):
    """``(θ_A, θ_rope, θ_B)`` of the Bayesian signed-rank test, (3, n_samples).

    ``θ_A = Σ_{i,j} w_i w_j [z_i + z_j > 2 rope]``, ``θ_B`` likewise with
    ``< -2 rope``, ``θ_rope`` the rest, for the weights ``w = rows / Σ rows``
    of each sample. ``tolerance`` (one per ``z``, or one number) is each
    value's rounding by the tie rule: with a rope, a Walsh sum within
    ``t_i + t_j`` of ``±2 rope`` counts in the rope, i.e. ``θ_A`` counts
    ``(z_i - t_i) + (z_j - t_j) > 2 rope`` and ``θ_B`` ``(z_i + t_i) +
    (z_j + t_j) < -2 rope``: each side a staircase over its own shifted
    values, so the tolerance of a sum comes from its own two data sets. In
    the order of sorted values the pairs counted by ``θ_A`` are, for each
    i, a suffix ``j >= t_i`` with ``t_i`` non-increasing (a staircase), so
    with ``P`` the prefix sums of the sorted weights, ``Σ_{i,j} = Σ_i w_i
    (P[q] - P[t_i])``: O(q) per sample instead of O(q²); rows entirely
    inside or outside the staircase cost O(1) together.
    """
    n_samples = rows[0].size
    theta = np.empty((3, n_samples), dtype=np.float32)
    if rope == 0:
        zs, sorted_rows, prefix = _sorted_prefix(z, rows)
        start_a, stop_b = _walsh_staircases(zs, rope)
        total = prefix[z.size]
        total_sq = total * total
        # The rope is the pairs summing to exactly 0 (few, as a rule): sum
        # them directly, run the cheaper staircase, subtract for the other.
        theta[1] = _zero_sum_mass(zs, prefix)
        n = z.size
        first_a = n - int(np.count_nonzero(start_a < n))
        first_full_a = n - int(np.count_nonzero(start_a == 0))
        n_full_b = int(np.count_nonzero(stop_b == n))
        end_b = int(np.count_nonzero(stop_b > 0))
        a_runs = _n_runs(start_a[first_a:first_full_a])
        b_runs = _n_runs(stop_b[n_full_b:end_b])
        if a_runs <= b_runs:
            theta[0] = _a_side(start_a, prefix, sorted_rows)
            np.subtract(total_sq, theta[0], out=theta[2])
        else:
            theta[2] = _b_side(stop_b, prefix, sorted_rows)
            np.subtract(total_sq, theta[2], out=theta[0])
        # The side computed by difference carries its rounding (~1e-7 of
        # the total); the rope mass is exact up to float32.
        theta[0 if a_runs > b_runs else 2] -= theta[1]
        np.maximum(theta, 0.0, out=theta)
    else:
        t = np.broadcast_to(np.asarray(tolerance, dtype=np.float64), z.shape)
        sides = []
        for shifted in (z - t, z + t):
            order = np.argsort(shifted, kind="stable")
            if sides and np.array_equal(order, sides[0][0]):
                sides.append((order, shifted[order], *sides[0][2:]))
            else:
                sides.append((order, *_sorted_prefix(shifted, rows)))
        (_, us, rows_a, prefix_a), (_, vs, rows_b, prefix_b) = sides
        start_a, _ = _walsh_staircases(us, rope)
        _, stop_b = _walsh_staircases(vs, rope)
        theta[0] = _a_side(start_a, prefix_a, rows_a)
        theta[2] = _b_side(stop_b, prefix_b, rows_b)
        total = prefix_a[z.size]
        total_sq = total * total
        np.maximum(theta[0], 0.0, out=theta[0])
        np.maximum(theta[2], 0.0, out=theta[2])
        np.maximum(total_sq - theta[0] - theta[2], 0.0, out=theta[1])
    theta /= total_sq
    return theta


def _without_overflow(z, rope):
    """``z`` and ``rope`` divided by 4 when ``z_i + z_j`` or ``2·rope`` could
    overflow (a magnitude of ``2**1021`` or more), else unchanged.

    The comparisons ``z_i + z_j > 2·rope`` are invariant to a common power
    of two, which is exact in floating point: the quarter sizes give the
    comparisons of the full ones, without an infinite sum.
    """
    if max(float(np.max(np.abs(z))), rope) < 2.0**1021:
        return z, rope
    with np.errstate(under="ignore"):
        return np.ldexp(z, -2), float(np.ldexp(rope, -2))


def _n_runs(thresholds):
    """Number of runs of equal values (each costs one staircase step)."""
    return int(np.count_nonzero(np.diff(thresholds))) + 1 if thresholds.size else 0


def _a_mass(prefix, sorted_rows, start_a, first_a, first_full_a):
    """``Σ_i w_i (P[q] - P[t_i])`` over the rows that take part (unnormalised)."""
    total = prefix[-1]
    partial = np.zeros_like(total)
    _staircase_sum(prefix, sorted_rows, start_a, first_a, first_full_a, partial)
    return total * (total - prefix[first_a]) - partial


def _b_mass(prefix, sorted_rows, stop_b, n_full_b, end_b):
    """``Σ_i w_i P[s_i]`` (unnormalised)."""
    mass = prefix[-1] * prefix[n_full_b]
    return _staircase_sum(prefix, sorted_rows, stop_b, n_full_b, end_b, mass)


def _zero_sum_mass(zs, prefix):
    """``Σ_{i,j} w_i w_j [z_i + z_j = 0]`` for sorted ``zs`` (unnormalised).

    A float sum is exactly 0 when ``z_j = -z_i``; the ties of a value are
    contiguous in sorted order, so a group's weight is ``P[e] - P[s]``.
    """
    values, starts, counts = np.unique(zs, return_index=True, return_counts=True)
    group = {v: (s, s + c) for v, s, c in zip(values.tolist(), starts, counts)}
    mass = np.zeros_like(prefix[0])
    for value, (start, stop) in group.items():
        if value < 0 or -value not in group:
            continue
        weight = prefix[stop] - prefix[start]
        if value == 0:
            mass += weight * weight
        else:
            other_start, other_stop = group[-value]
            mass += 2.0 * weight * (prefix[other_stop] - prefix[other_start])
    return mass


def _sign_theta(z, exponentials, gammas, rope):
    """``(θ_A, θ_rope, θ_B)`` of the Bayesian sign test, (3, n_samples).

    The weights of the data sets beyond the rope on either side, and of
    those inside it plus the pseudo-observation, summed and normalised: by
    the aggregation property a ``Dirichlet(n_A, n_rope + s, n_B)`` sample.
    """
    theta = np.zeros((3, gammas.size), dtype=np.float32)
    theta[1] = gammas
    side = np.where(z > rope, 0, np.where(z < -rope, 2, 1))
    for i, where in enumerate(side):
        theta[where] += exponentials[i]
    theta /= theta.sum(axis=0)
    return theta


def _winning_shares(theta):
    """The share of samples in which each θ is the largest (ties shared)."""
    is_top = theta == theta.max(axis=0)
    n_top = is_top.sum(axis=0)
    if np.all(n_top == 1):
        shares = is_top.mean(axis=1)
    else:
        shares = (is_top / n_top).mean(axis=1)
    return tuple(float(share) for share in shares)


def _merged(dataset_differences, test, score_scale, rope):
    """The checked differences with their ties in the user's units exact
    (``±rope`` and 0 included), and the tie rule's tolerance."""
    d = _check_dataset_differences(dataset_differences, test=test)
    tolerance = difference_tolerance(d, score_scale, rope)
    anchors = (0.0, rope) if rope else (0.0,)
    return merge_magnitudes(d, tolerance, anchors=anchors), tolerance


def _check_monte_carlo(test, alpha, alternative, rope, prior_weight, n_samples):
    return (
        check_alpha(alpha),
        check_alternative(alternative, test=test),
        _check_rope(rope),
        _check_prior_weight(prior_weight),
        _check_n_samples(n_samples),
    )


def _check_bayesian_params(
    rope, prior_weight, n_samples, random_state, score_scale=None
):
    """The Bayesian tests' own parameters, checked before any fit."""
    check_score_scale(score_scale)
    _check_rope(rope)
    _check_prior_weight(prior_weight)
    _check_n_samples(n_samples)
    check_random_state(random_state)


def _monte_carlo_result(test, theta, d, *, alpha, alternative, rope, prior_weight):
    p_a_better, p_rope, p_b_better = _winning_shares(theta)
    statistic = float(np.mean(theta[0], dtype=np.float64)) - float(
        np.mean(theta[2], dtype=np.float64)
    )
    return make_result(
        test=test,
        statistic=statistic,
        pvalue=None,
        df=None,
        alpha=alpha,
        alternative=alternative,
        reject=posterior_decision(p_a_better, p_b_better, alpha, alternative),
        p_a_better=p_a_better,
        p_rope=p_rope,
        p_b_better=p_b_better,
        rope=rope,
        prior_weight=prior_weight,
        samples=np.ascontiguousarray(theta.T),
        n_datasets=d.size,
    )


@register_test(
    "bayesian_signed_rank",
    needs="dataset_differences",
    kind="datasets",
    param_check=_check_bayesian_params,
    role="pairwise",
    swap="negate",
    bayesian=True,
    display_name="Bayesian signed-rank test",
    rationale="each pair on its paired scores across data sets: the Bayesian "
    "counterpart of Wilcoxon's test, the probability that one is better "
    "or that both are equivalent within the rope",
    references=(BENAVOLI_2014, BENAVOLI_2017),
    posterior="simplex",
)
def bayesian_signed_rank(
    dataset_differences,
    *,
    alpha=0.05,
    alternative="two-sided",
    rope=0.0,
    prior_weight=0.5,
    n_samples=50000,
    random_state=None,
    score_scale=None,
):
    """Bayesian signed-rank test of two estimators across data sets.

    Parameters
    ----------
    dataset_differences : array-like of shape (n_datasets,)
        ``score_a - score_b`` on each data set; at least 2 data sets,
        finite.
    alpha : float, default=0.05
        A posterior probability above ``1 - alpha`` is a decision.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        Which decisions ``reject`` reports: ``"two-sided"`` either
        ``p_a_better > 1 - alpha`` or ``p_b_better > 1 - alpha``;
        ``"greater"`` only the first (A better), ``"less"`` only the second.
    rope : float, default=0.0
        Half-width of the region of practical equivalence, in score units;
        finite and >= 0.
    prior_weight : float, default=0.5
        Weight ``s`` of the prior pseudo-observation ``z_0 = 0``; > 0.
    n_samples : int, default=50000
        Monte Carlo samples of the posterior; ``n_samples × (n_datasets +
        1)`` at most ``2**28`` (the draws are held in memory, 1 GiB then).
    random_state : int, RandomState instance or None, default=None
        Seeds the Monte Carlo sampling; an int gives the same result every
        call.
    score_scale : float, default=None
        The largest magnitude of the scores the differences come from.
        Values within ``2**-46`` times it (or the largest of the
        differences and the rope, when larger) of each other are equal: a
        difference that equals the rope in your decimals is inside the
        closed rope, and one of rounding errors only is 0, whatever the
        units (see :func:`wilcoxon`). None takes the largest of the
        ``|differences|`` and the rope.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            The posterior mean of ``θ_A - θ_B`` (positive when A is better).
        pvalue : None
            The output is posterior probabilities.
        df : None
        p_a_better : float
            The posterior probability that ``θ_A`` (A better by more than
            ``rope``) is the largest of the three.
        p_rope : float
            That ``θ_rope`` is (practical equivalence).
        p_b_better : float
            That ``θ_B`` is.
        reject : bool
            A decision at level ``1 - alpha`` as ``alternative`` says.
        samples : ndarray of shape (n_samples, 3), float32
            The sampled ``(θ_A, θ_rope, θ_B)``, rows summing to 1: the
            points of baycomp's simplex plot
            (:class:`~sklearn_bcv.PosteriorSimplexDisplay`).
        rope, prior_weight : float
            The inputs.
        n_datasets : int
            q.
        alternative, alpha, test : the inputs and ``"bayesian_signed_rank"``.

    See Also
    --------
    wilcoxon : The frequentist signed-rank test.
    bayesian_sign : Counts the data sets on each side instead.
    poisson_binomial : Uses the splits of each data set.

    Notes
    -----
    Benavoli et al. (2017; 2014) place a Dirichlet process prior on the
    distribution of the difference ``z`` over data sets, with a
    pseudo-observation ``z_0 = 0`` of weight ``s``. Given the differences
    ``z_1, ..., z_q``, posterior samples are ``w ~ Dirichlet(s, 1, ..., 1)``
    and

    .. math:: \\theta_A = \\sum_{i,j=0}^{q} w_i w_j [z_i + z_j > 2r], \\quad
              \\theta_B = \\sum_{i,j=0}^{q} w_i w_j [z_i + z_j < -2r],

    ``θ_rope = 1 - θ_A - θ_B`` (the closed rope ``|z_i + z_j| <= 2r``): the
    posterior of the probabilities that the Walsh average of two
    differences lies beyond the rope on either side, or inside it.
    ``p_a_better`` is the share of samples in which ``θ_A`` is the largest
    (ties shared evenly), as baycomp's ``SignedRankTest(...).probs()``
    reports it (its first, "left", model is A).

    The rope is closed, as in the paper: a Walsh average of exactly ``±2r``
    counts in the rope, where baycomp counts half of it on the side. With
    ``rope=0`` baycomp splits each zero sum (the pseudo-observation paired
    with itself, zero differences) evenly between the sides, and breaks a
    tie of the sides in favour of the first model, so two identical models
    come out "first better" with probability 1; here zero sums are the rope
    and identical estimators give ``p_rope = 1``. Otherwise the two agree
    within Monte Carlo error.

    The samples are drawn as normalised ``Exp(1)`` (data sets) and
    ``Gamma(s)`` (pseudo-observation) variables in float32. They do not
    depend on the differences, so every pair of estimators over the same
    data sets with the same int ``random_state`` reuses one draw (cached).
    In sorted order the pairs with ``z_i + z_j > 2r`` form a staircase, and
    ``θ_A = Σ_i w_i·(suffix sum of w from t_i)`` takes O(q) per sample.

    References
    ----------
    .. [1] A. Benavoli, G. Corani, J. Demšar, M. Zaffalon, "Time for a
       change: a tutorial for comparing multiple classifiers through
       Bayesian analysis", Journal of Machine Learning Research
       18(77):1-36, 2017.
    .. [2] A. Benavoli, G. Corani, F. Mangili, M. Zaffalon, F. Ruggeri, "A
       Bayesian Wilcoxon signed-rank test based on the Dirichlet process",
       ICML 2014.

    Examples
    --------
    Demšar's Table 2 (see :func:`wilcoxon`), C4.5+m against C4.5:

    >>> import numpy as np
    >>> from sklearn_bcv.stats import bayesian_signed_rank
    >>> c45 = np.array([0.763, 0.599, 0.954, 0.628, 0.882, 0.936, 0.661,
    ...                 0.583, 0.775, 1.000, 0.940, 0.619, 0.972, 0.957])
    >>> c45m = np.array([0.768, 0.591, 0.971, 0.661, 0.888, 0.931, 0.668,
    ...                  0.583, 0.838, 1.000, 0.962, 0.666, 0.981, 0.978])
    >>> result = bayesian_signed_rank(c45m - c45, random_state=0)
    >>> [round(result[k], 2) for k in ("p_a_better", "p_rope", "p_b_better")]
    [1.0, 0.0, 0.0]
    >>> result.samples.shape, result.samples.dtype, result.reject
    ((50000, 3), dtype('float32'), True)

    C4.5+m is better, but by more than one AUC point only with probability
    0.67:

    >>> result = bayesian_signed_rank(c45m - c45, rope=0.01, random_state=0)
    >>> [round(result[k], 2) for k in ("p_a_better", "p_rope", "p_b_better")]
    [0.67, 0.33, 0.0]
    """
    test = "bayesian_signed_rank"
    alpha, alternative, rope, prior_weight, n_samples = _check_monte_carlo(
        test, alpha, alternative, rope, prior_weight, n_samples
    )
    d, tolerance = _merged(dataset_differences, test, score_scale, rope)
    # After the merge a Walsh sum is exactly 0 or beyond the tolerance; with
    # a rope, a sum within its two data sets' tolerances of ±2·rope is in it
    # (the pseudo-observation 0 has none).
    tolerance = np.r_[0.0, np.broadcast_to(tolerance, d.shape)] if rope else 0.0
    gammas, exponentials = _dirichlet_parts(
        d.size, prior_weight, n_samples, random_state
    )
    z, rows = np.r_[0.0, d], [gammas, *exponentials]
    quarter = _without_overflow(z, rope)
    if quarter[0] is not z:
        tolerance = tolerance / 4.0
    z, walsh_rope = quarter
    block = max(1, _MAX_VALUES // z.size)
    theta = np.empty((3, n_samples), dtype=np.float32)
    for start in range(0, n_samples, block):
        part = slice(start, start + block)
        theta[:, part] = _signed_rank_theta(
            z, [row[part] for row in rows], walsh_rope, tolerance
        )
    return _monte_carlo_result(
        test,
        theta,
        d,
        alpha=alpha,
        alternative=alternative,
        rope=rope,
        prior_weight=prior_weight,
    )


@register_test(
    "bayesian_sign",
    needs="dataset_differences",
    kind="datasets",
    param_check=_check_bayesian_params,
    role="pairwise",
    swap="negate",
    bayesian=True,
    display_name="Bayesian sign test",
    rationale="each pair by the data sets each wins or where both are equivalent "
    "within the rope, a Dirichlet posterior of their shares",
    references=(BENAVOLI_2017,),
    posterior="simplex",
)
def bayesian_sign(
    dataset_differences,
    *,
    alpha=0.05,
    alternative="two-sided",
    rope=0.0,
    prior_weight=1.0,
    n_samples=50000,
    random_state=None,
    score_scale=None,
):
    """Bayesian sign test of two estimators across data sets.

    Parameters
    ----------
    dataset_differences : array-like of shape (n_datasets,)
        ``score_a - score_b`` on each data set; at least 2 data sets,
        finite.
    alpha : float, default=0.05
        A posterior probability above ``1 - alpha`` is a decision.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        Which decisions ``reject`` reports: ``"two-sided"`` either
        ``p_a_better > 1 - alpha`` or ``p_b_better > 1 - alpha``;
        ``"greater"`` only the first (A better), ``"less"`` only the second.
    rope : float, default=0.0
        Half-width of the region of practical equivalence, in score units;
        finite and >= 0.
    prior_weight : float, default=1.0
        Prior weight ``s`` put on the rope; > 0.
    n_samples : int, default=50000
        Monte Carlo samples of the posterior; ``n_samples × (n_datasets +
        1)`` at most ``2**28`` (the draws are held in memory, 1 GiB then).
    random_state : int, RandomState instance or None, default=None
        Seeds the Monte Carlo sampling; an int gives the same result every
        call.
    score_scale : float, default=None
        The largest magnitude of the scores the differences come from.
        Values within ``2**-46`` times it (or the largest of the
        differences and the rope, when larger) of each other are equal: a
        difference that equals the rope in your decimals is inside the
        closed rope, and one of rounding errors only is 0, whatever the
        units (see :func:`wilcoxon`). None takes the largest of the
        ``|differences|`` and the rope.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        The test's result, with fields:

        statistic : float
            The posterior mean of ``θ_A - θ_B`` (positive when A is better).
        pvalue : None
            The output is posterior probabilities.
        df : None
        p_a_better : float
            The posterior probability that ``θ_A`` (the probability that A
            is better by more than ``rope`` on a data set) is the largest
            of the three.
        p_rope : float
            That ``θ_rope`` is (practical equivalence).
        p_b_better : float
            That ``θ_B`` is.
        reject : bool
            A decision at level ``1 - alpha`` as ``alternative`` says.
        samples : ndarray of shape (n_samples, 3), float32
            The sampled ``(θ_A, θ_rope, θ_B)``, rows summing to 1: the
            points of baycomp's simplex plot
            (:class:`~sklearn_bcv.PosteriorSimplexDisplay`).
        rope, prior_weight : float
            The inputs.
        n_datasets : int
            q.
        alternative, alpha, test : the inputs and ``"bayesian_sign"``.

    See Also
    --------
    sign : The frequentist sign test.
    bayesian_signed_rank : Also uses the size of the differences.

    Notes
    -----
    With ``n_A``, ``n_rope`` and ``n_B`` the data sets on which
    ``z = score_a - score_b`` is above ``rope``, inside ``[-rope, rope]``
    and below ``-rope``, the posterior of the probabilities of the three
    outcomes on a new data set is (Benavoli et al. 2017, a Dirichlet
    process with a pseudo-observation of weight ``s`` in the rope)

    .. math:: (\\theta_A, \\theta_{rope}, \\theta_B) \\sim
              \\mathrm{Dirichlet}(n_A, n_{rope} + s, n_B),

    sampled here as the sums of one Dirichlet(s, 1, ..., 1) draw over the
    three groups (the aggregation property), the draw that
    :func:`bayesian_signed_rank` uses too. ``p_a_better`` is the share of
    samples in which ``θ_A`` is the largest (ties shared evenly), as
    baycomp's ``SignTest(...).probs()`` (its first, "left", model is A;
    baycomp adds 0.0001 to each count, so that an empty outcome has a
    positive parameter; here an empty outcome has weight 0).

    References
    ----------
    .. [1] A. Benavoli, G. Corani, J. Demšar, M. Zaffalon, "Time for a
       change: a tutorial for comparing multiple classifiers through
       Bayesian analysis", Journal of Machine Learning Research
       18(77):1-36, 2017.

    Examples
    --------
    Demšar's Table 2 (see :func:`wilcoxon`), C4.5+m against C4.5: 10 wins,
    2 losses and 2 ties without a rope; with a rope of one AUC point, 6
    wins, 0 losses and 8 equivalences.

    >>> import numpy as np
    >>> from sklearn_bcv.stats import bayesian_sign
    >>> c45 = np.array([0.763, 0.599, 0.954, 0.628, 0.882, 0.936, 0.661,
    ...                 0.583, 0.775, 1.000, 0.940, 0.619, 0.972, 0.957])
    >>> c45m = np.array([0.768, 0.591, 0.971, 0.661, 0.888, 0.931, 0.668,
    ...                  0.583, 0.838, 1.000, 0.962, 0.666, 0.981, 0.978])
    >>> result = bayesian_sign(c45m - c45, random_state=0)
    >>> [round(result[k], 2) for k in ("p_a_better", "p_rope", "p_b_better")]
    [0.98, 0.02, 0.01]
    >>> result = bayesian_sign(c45m - c45, rope=0.01, random_state=0)
    >>> [round(result[k], 2) for k in ("p_a_better", "p_rope", "p_b_better")]
    [0.21, 0.79, 0.0]
    """
    test = "bayesian_sign"
    alpha, alternative, rope, prior_weight, n_samples = _check_monte_carlo(
        test, alpha, alternative, rope, prior_weight, n_samples
    )
    d, _ = _merged(dataset_differences, test, score_scale, rope)
    gammas, exponentials = _dirichlet_parts(
        d.size, prior_weight, n_samples, random_state
    )
    theta = _sign_theta(d, exponentials, gammas, rope)
    return _monte_carlo_result(
        test,
        theta,
        d,
        alpha=alpha,
        alternative=alternative,
        rope=rope,
        prior_weight=prior_weight,
    )
