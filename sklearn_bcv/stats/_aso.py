"""Almost stochastic order of two score distributions (registered as ``aso``).

Deep-learning results are often one score per random seed of each
algorithm: two samples, not paired, whose whole distributions are to be
compared. Almost stochastic order (del Barrio, Cuesta-Albertos and Matrán
2018; Dror, Shlomov and Reichart 2019; Ulmer, Hardmeier and Frellsen 2022)
measures how far A is from stochastically dominating B by the share of the
squared Wasserstein distance of their quantile functions where A is below
B, and bounds it from above with a bootstrap.

Both empirical quantile functions are step functions, so the integrals are
computed exactly, as sums over the merged breakpoints ``i/n`` and ``j/m``
(no integration grid); the bootstrap resamples the two sorted samples
through one table of indices, all replicates at once, from a
:class:`numpy.random.Generator` of its own.
"""

import numpy as np
from scipy import special
from sklearn.utils import check_random_state

from .._checks import check_integer
from ._across import _entropy, _generator
from ._references import DEL_BARRIO_2018, DROR_2019
from ._registry import register_test
from ._ties import merge_ties, value_tolerance
from ._utils import (
    as_numeric_array,
    check_alpha,
    check_alternative,
    check_finite,
    check_real,
    is_real_dtype,
    make_result,
    power_of_two_scale,
)

__all__ = ["almost_stochastic_order", "aso"]

#: The most bootstrap values held at once (float64): 32 MiB per block.
_BLOCK_VALUES = 2**22
#: Enough for the bootstrap standard error to be known to 0.1%; more only
#: costs memory and time.
_MAX_BOOTSTRAP = 10**7


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------


def _check_scores(values, *, name):
    expected = "a 1-D array of at least 2 finite scores"
    arr = as_numeric_array(values, name=name, expected=expected)
    if not is_real_dtype(arr.dtype) or arr.dtype == bool:
        raise ValueError(f"{name} must be {expected}; got dtype {arr.dtype}.")
    if arr.ndim != 1 or arr.size < 2:
        raise ValueError(f"{name} must be {expected}; got shape {arr.shape}.")
    return check_finite(arr.astype(np.float64), name=name)


def _check_confidence_level(confidence_level):
    return check_real(
        confidence_level,
        name="confidence_level",
        expected="a number in (0, 1)",
        is_valid=lambda c: 0 < c < 1,
    )


def _check_threshold(threshold):
    return check_real(
        threshold,
        name="threshold",
        expected="a number in (0, 1)",
        is_valid=lambda t: 0 < t < 1,
    )


def _check_aso_params(
    *,
    confidence_level=0.95,
    n_bootstrap=1000,
    n_comparisons=1,
    threshold=0.2,
    random_state=None,
):
    """ASO's own parameters, checked before any fit."""
    _check_confidence_level(confidence_level)
    check_integer(
        n_bootstrap,
        name="n_bootstrap",
        low=1,
        high=_MAX_BOOTSTRAP,
        why="enough for the bootstrap standard error to 0.1%; more only costs time",
    )
    check_integer(n_comparisons, name="n_comparisons", low=1)
    _check_threshold(threshold)
    if not isinstance(random_state, np.random.Generator):
        check_random_state(random_state)


def _rng(random_state):
    """A Generator of this call's own: never numpy's global state.

    An int gives the same stream every call; None fresh operating-system
    entropy; a RandomState instance seeds it (advancing that instance); a
    Generator is used as is.
    """
    if isinstance(random_state, np.random.Generator):
        return random_state
    if random_state is None:
        return np.random.default_rng()
    entropy, _ = _entropy(random_state)
    return _generator(entropy, 0)


# --------------------------------------------------------------------------
# The violation ratio, exactly
# --------------------------------------------------------------------------


def quantile_steps(n, m):
    """The merged steps of two empirical quantile functions of n and m values.

    On ``t`` in ``((k-1)/n, k/n]`` the quantile function of n sorted values
    is the k-th of them. Between consecutive points of
    ``{i/n} ∪ {j/m}`` both are constant: returns, for each of these
    intervals, the 0-based index into the sorted A and B samples and the
    width (the breakpoints are the integers ``i·m`` and ``j·n`` over the
    common denominator ``n·m``, so the merge is exact).
    """
    ends = np.union1d(np.arange(1, n + 1) * m, np.arange(1, m + 1) * n)
    starts = np.r_[0, ends[:-1]]
    return (ends - 1) // m, (ends - 1) // n, (ends - starts) / (n * m)


def _violation_ratios(sorted_a, sorted_b, steps):
    """ε(F, G) of each row of two (..., n) and (..., m) sorted samples.

    ``∫_{F⁻¹ < G⁻¹} (F⁻¹ − G⁻¹)² dt / ∫ (F⁻¹ − G⁻¹)² dt`` as sums over the
    merged steps; 0/0 (equal quantile functions) is 1/2.
    """
    index_a, index_b, width = steps
    gap = sorted_a[..., index_a] - sorted_b[..., index_b]
    squared = width * gap * gap
    total = squared.sum(axis=-1)
    below = np.where(gap < 0, squared, 0.0).sum(axis=-1)
    ratio = np.divide(below, total, out=np.full(total.shape, 0.5), where=total > 0)
    return np.clip(ratio, 0.0, 1.0)


def violation_ratio(scores_a, scores_b):
    """ε(F, G): the share of the squared W₂ distance where A is below B.

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (n,) and (m,)
        The two samples (finite, at least 2 each).

    Returns
    -------
    ratio : float
        In [0, 1]; 0 when A's quantile function is nowhere below B's
        (A stochastically dominates B on the samples), 1 when it is nowhere
        above; 1/2 when the two quantile functions are equal.
    """
    a = _check_scores(scores_a, name="scores_a")
    b = _check_scores(scores_b, name="scores_b")
    a, b = _common_scale(a, b)
    steps = quantile_steps(a.size, b.size)
    return float(_violation_ratios(np.sort(a), np.sort(b), steps))


def _common_scale(a, b):
    """Both samples divided by one power of two (the ratio is scale
    invariant, and nothing overflows when the gaps are squared), scores
    equal in the user's decimals made equal (the tie rule of
    :mod:`._ties`: means of seeds or folds that are equal in the decimals
    give gaps of exactly 0, whatever the units). The inputs of a score are
    not known here, so each is its own scale: two distinct decimals never
    tie, whatever the other scores' magnitudes."""
    scaled, _ = power_of_two_scale(np.r_[a, b])
    scaled = merge_ties(scaled, value_tolerance(scaled), anchors=())
    return scaled[: a.size], scaled[a.size :]


def _bootstrap_ratios(a, b, steps, n_bootstrap, rng):
    """``n_bootstrap`` violation ratios of independent resamples of a and b."""
    n, m = a.size, b.size
    out = np.empty(n_bootstrap)
    block = max(1, _BLOCK_VALUES // (n + m + steps[2].size))
    for start in range(0, n_bootstrap, block):
        size = min(block, n_bootstrap - start)
        resampled_a = np.sort(a[rng.integers(0, n, size=(size, n))], axis=1)
        resampled_b = np.sort(b[rng.integers(0, m, size=(size, m))], axis=1)
        out[start : start + size] = _violation_ratios(resampled_a, resampled_b, steps)
    return out


def _aso_core(scores_a, scores_b, confidence_level, n_bootstrap, n_comparisons, rng):
    """``(ε̂, σ̂, z)``: the ratio, the bootstrap spread and the normal
    quantile of the Bonferroni-corrected confidence level."""
    a, b = _common_scale(scores_a, scores_b)
    steps = quantile_steps(a.size, b.size)
    ratio = float(_violation_ratios(np.sort(a), np.sort(b), steps))
    samples = _bootstrap_ratios(a, b, steps, n_bootstrap, rng)
    root = np.sqrt(a.size * b.size / (a.size + b.size))
    sigma = float(np.std(root * (samples - ratio)))
    corrected = 1.0 - (1.0 - confidence_level) / n_comparisons
    return ratio, sigma, root, corrected


def _eps_min(ratio, sigma, root, corrected):
    """The upper confidence bound of ε, clipped to [0, 1]."""
    return float(np.clip(ratio - sigma * special.ndtri(1.0 - corrected) / root, 0, 1))


# --------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------


def almost_stochastic_order(
    scores_a,
    scores_b,
    *,
    confidence_level=0.95,
    n_bootstrap=1000,
    n_comparisons=1,
    threshold=0.2,
    random_state=None,
):
    """Almost stochastic order of two score samples (e.g. one per seed).

    Parameters
    ----------
    scores_a : array-like of shape (n,)
        Scores of algorithm A (higher is better), e.g. one per random seed;
        at least 2, finite.
    scores_b : array-like of shape (m,)
        Scores of algorithm B; the two samples are independent (not paired)
        and may differ in size.
    confidence_level : float, default=0.95
        Confidence level ``c`` of the upper bound ``eps_min``, in (0, 1).
    n_bootstrap : int, default=1000
        Bootstrap replicates of the violation ratio, 1 to 10,000,000 (a
        larger value is refused before any work: 10 million replicates
        already give the bootstrap standard error to 0.1%, and the time
        grows linearly, about a second per million on 20 scores).
    n_comparisons : int, default=1
        Number m of comparisons made (e.g. all pairs of several
        algorithms): Bonferroni's correction runs each at confidence
        ``1 - (1 - c) / m``.
    threshold : float, default=0.2
        A is declared almost stochastically better when
        ``eps_min < threshold`` (0.2 is the value Ulmer et al. 2022
        recommend).
    random_state : int, RandomState instance, Generator or None, default=None
        Seeds the bootstrap through a :class:`numpy.random.Generator` of
        the call's own (numpy's global state is never used): an int gives
        the same result every call; None draws fresh entropy.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        With fields:

        eps_min : float
            The upper confidence bound of the violation ratio ε(F, G) at
            the corrected level: the smallest ε for which A is
            ε-almost-stochastically better than B with that confidence.
        violation_ratio : float
            ``ε̂``, the violation ratio of the two samples.
        sigma : float
            The bootstrap standard deviation ``σ̂`` of
            ``sqrt(nm/(n+m))·(ε* - ε̂)``.
        reject : bool
            ``eps_min < threshold``: A is almost stochastically better.
        threshold, confidence_level, n_comparisons, n_bootstrap : the inputs.
        corrected_confidence_level : float
            ``1 - (1 - confidence_level) / n_comparisons``.
        statistic : float
            ``eps_min`` (so the result reads like every registered test's).
        pvalue, df : None
        test : ``"almost_stochastic_order"``.

    See Also
    --------
    aso : The same as a registered test (``tests=["aso"]``).

    Notes
    -----
    With ``F⁻¹`` and ``G⁻¹`` the empirical quantile functions of A's n and
    B's m scores (``F⁻¹(t)`` is the k-th smallest score of A for
    ``t`` in ``((k-1)/n, k/n]``), the violation ratio (del Barrio et al.
    2018; Dror et al. 2019) is

    .. math:: \\varepsilon(F, G) = \\frac{\\int_{F^{-1}(t) < G^{-1}(t)}
              (F^{-1}(t) - G^{-1}(t))^2\\, dt}{\\int_0^1
              (F^{-1}(t) - G^{-1}(t))^2\\, dt},

    the share of the squared Wasserstein-2 distance where A is below B: 0
    when A stochastically dominates B, 1/2 when neither leans either way.
    Both quantile functions are constant between the merged breakpoints
    ``{i/n} ∪ {j/m}``, so both integrals are exact finite sums (no grid of
    ``t``, unlike deepsig's ``dt = 0.005``). When the two quantile
    functions are equal (the same multiset of scores, for n = m) the ratio
    is 0/0; it is defined as 1/2 (no evidence either way), in the
    bootstrap too. Scores within ``2**-46`` times the largest ``|score|``
    of each other are equal (the tie rule of
    :func:`~sklearn_bcv.stats.wilcoxon`: scores you derived, such as
    means, that are equal in your decimals), so the answer is the same in
    any units.

    ``B`` bootstrap replicates resample each sample with replacement,
    independently, giving ``ε*_b``; with ``σ̂ = sd_b(sqrt(nm/(n+m))·
    (ε*_b - ε̂))`` (ddof 0),

    .. math:: \\varepsilon_{min} = \\mathrm{clip}\\Big(\\hat\\varepsilon -
              \\frac{\\hat\\sigma\\, \\Phi^{-1}(1 - c_m)}{\\sqrt{nm/(n+m)}},
              0, 1\\Big), \\qquad c_m = 1 - \\frac{1 - c}{m},

    an upper confidence bound of ε (``Φ⁻¹(1 - c_m) < 0``). Bonferroni's
    correction for m comparisons divides the error ``1 - c`` by m. deepsig
    (1.2.8) computes ``c + (1 - c)/m = 1 - (1 - c)(1 - 1/m)`` instead,
    which equals Bonferroni's level only for m = 2 and is below it for
    m >= 3 (0.967 instead of 0.983 for m = 3, 0.955 instead of 0.995 for
    m = 10), so its family-wise error grows with m.

    Under the null hypothesis of equal score distributions the test is not
    a level-``1 - c`` test of equality: it declares A better when the upper
    bound of ε falls below ``threshold``; how often that happens on equal
    distributions is measured in ``doc/reproduction.rst``.

    References
    ----------
    .. [1] E. del Barrio, J. A. Cuesta-Albertos, C. Matrán, "An optimal
       transportation approach for assessing almost stochastic order",
       The Mathematics of the Uncertain, Springer, 33-44, 2018.
    .. [2] R. Dror, S. Shlomov, R. Reichart, "Deep dominance - how to
       properly compare deep neural models", ACL 2019.
    .. [3] D. Ulmer, C. Hardmeier, J. Frellsen, "deep-significance: easy
       and meaningful statistical significance testing in the age of neural
       networks", arXiv:2204.06815, 2022.

    Examples
    --------
    Five seeds of two networks; A's worst run is better than B's median:

    >>> from sklearn_bcv.stats import almost_stochastic_order
    >>> a = [0.912, 0.905, 0.921, 0.899, 0.917]
    >>> b = [0.902, 0.895, 0.908, 0.889, 0.901]
    >>> result = almost_stochastic_order(a, b, random_state=0)
    >>> result.violation_ratio
    0.0
    >>> round(result.eps_min, 3), result.reject
    (0.067, True)

    B's scores against A's: B is below A everywhere.

    >>> almost_stochastic_order(b, a, random_state=0).violation_ratio
    1.0
    """
    a = _check_scores(scores_a, name="scores_a")
    b = _check_scores(scores_b, name="scores_b")
    _check_aso_params(
        confidence_level=confidence_level,
        n_bootstrap=n_bootstrap,
        n_comparisons=n_comparisons,
        threshold=threshold,
        random_state=random_state,
    )
    ratio, sigma, root, corrected = _aso_core(
        a, b, confidence_level, n_bootstrap, n_comparisons, _rng(random_state)
    )
    eps_min = _eps_min(ratio, sigma, root, corrected)
    return make_result(
        test="almost_stochastic_order",
        statistic=eps_min,
        pvalue=None,
        df=None,
        alpha=1.0 - confidence_level,
        alternative="greater",
        reject=eps_min < threshold,
        eps_min=eps_min,
        violation_ratio=ratio,
        sigma=sigma,
        threshold=float(threshold),
        confidence_level=float(confidence_level),
        corrected_confidence_level=corrected,
        n_comparisons=int(n_comparisons),
        n_bootstrap=int(n_bootstrap),
    )


def _check_registered_aso_params(
    *, n_bootstrap=1000, n_comparisons=1, threshold=0.2, random_state=None
):
    _check_aso_params(
        n_bootstrap=n_bootstrap,
        n_comparisons=n_comparisons,
        threshold=threshold,
        random_state=random_state,
    )


@register_test(
    "aso",
    needs=("scores_a", "scores_b"),
    design="any",
    by_default=False,
    param_check=_check_registered_aso_params,
    swap="recompute",
    display_name="almost stochastic order test",
    rationale="whether the scores of one estimator almost stochastically dominate "
    "the other's, meant for scores of random seeds",
    references=(DEL_BARRIO_2018, DROR_2019),
)
def aso(
    scores_a,
    scores_b,
    *,
    alpha=0.05,
    alternative="two-sided",
    n_bootstrap=1000,
    n_comparisons=1,
    threshold=0.2,
    random_state=None,
):
    """Almost stochastic order as a registered test (``tests=["aso"]``).

    The engine calls it with the scores of A and B on each split; with one
    split per random seed (e.g. repeated hold-out with a different
    training seed, or scores the user already has through
    :func:`~sklearn_bcv.compare_predictions`), these are the seed score
    distributions ASO is meant for. It runs only when asked for by name
    (it is not among the ``tests=None`` defaults): the splits of
    cross-validation are paired and correlated, which ASO ignores.

    Parameters
    ----------
    scores_a, scores_b : array-like of shape (n_splits,)
        Scores of A and B (at least 2 each).
    alpha : float, default=0.05
        ``1 - alpha`` is the confidence level of the bound(s).
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: is A almost stochastically better than B
        (``eps_min`` of A over B below ``threshold``)? ``"less"``: is B
        better than A? ``"two-sided"``: either, each direction at
        confidence ``1 - alpha/2`` (Bonferroni over the two directions).
    n_bootstrap, n_comparisons, threshold, random_state
        As :func:`almost_stochastic_order`.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        ``statistic`` = ``eps_min`` (A over B), ``eps_min_reverse`` (B over
        A, from the same bootstrap: the violation ratio of B over A is
        ``1 - ε``), ``violation_ratio``, ``sigma``, ``threshold``,
        ``reject`` (a decision for the side(s) ``alternative`` names),
        ``decision`` (``"A better"``, ``"B better"`` or ``"no decision"``),
        ``pvalue`` and ``df`` None, ``alpha``, ``alternative``, ``test``.

    Examples
    --------
    >>> from sklearn_bcv.stats import aso
    >>> a = [0.912, 0.905, 0.921, 0.899, 0.917]
    >>> b = [0.902, 0.895, 0.908, 0.889, 0.901]
    >>> result = aso(scores_a=a, scores_b=b, random_state=0)
    >>> result.decision, round(result.eps_min_reverse, 2)
    ('A better', 1.0)
    """
    test = "aso"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test)
    a = _check_scores(scores_a, name="scores_a")
    b = _check_scores(scores_b, name="scores_b")
    _check_registered_aso_params(
        n_bootstrap=n_bootstrap,
        n_comparisons=n_comparisons,
        threshold=threshold,
        random_state=random_state,
    )
    sides = 2 if alternative == "two-sided" else 1
    ratio, sigma, root, corrected = _aso_core(
        a, b, 1.0 - alpha / sides, n_bootstrap, n_comparisons, _rng(random_state)
    )
    eps_a = _eps_min(ratio, sigma, root, corrected)
    eps_b = _eps_min(1.0 - ratio, sigma, root, corrected)
    a_better = eps_a < threshold and alternative != "less"
    b_better = eps_b < threshold and alternative != "greater"
    decision = "A better" if a_better else "B better" if b_better else "no decision"
    return make_result(
        test=test,
        statistic=eps_a,
        pvalue=None,
        df=None,
        alpha=alpha,
        alternative=alternative,
        reject=a_better or b_better,
        eps_min=eps_a,
        eps_min_reverse=eps_b,
        violation_ratio=ratio,
        sigma=sigma,
        threshold=float(threshold),
        corrected_confidence_level=corrected,
        decision=decision,
    )
