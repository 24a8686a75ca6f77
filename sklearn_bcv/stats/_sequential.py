"""Group-sequential m×2 BCV: boundaries, look statistics and stopping rule.

A sequential m×2 BCV looks at its statistic after repetitions
``min_repeats, ..., max_repeats`` of one nested block-regularized design and
stops at the first look whose statistic crosses a boundary. Under Yang et al.'s
variance model (variance ``sigma**2``, correlation ``rho1`` within and
``rho2`` across repetitions) ``Var(dbar_m) = sigma**2·V_m`` with
``V_m = (1 + rho1 + 2(m - 1)·rho2) / (2m)`` and, for ``m <= m'``,
``Cov(dbar_m, dbar_m') = sigma**2·V_m'``. So ``S_m = z_m / sqrt(V_m)`` (with
``z_m`` the standardised look statistic) has independent increments and
``Var(S_m) = 1/V_m``, the information of look m: the canonical joint
distribution of group-sequential tests (Jennison & Turnbull 2000, ch. 3),
whose crossing probabilities are computed here by numerical integration
(Armitage, McPherson & Rowe 1969) and checked against
:func:`scipy.stats.multivariate_normal` in the tests.

Everything here is vectorised over leading batch dimensions, so
:func:`sklearn_bcv.sequential_compare` (one comparison, one look at a time)
and the simulations (thousands of paths at once) share one path from the
registered tests' results to a decision.
"""

from dataclasses import dataclass
from functools import cache

import numpy as np
from scipy import optimize, special, stats
from sklearn.utils import Bunch

from .._checks import check_integer
from ._mcnemar import _check_rhos
from ._registry import get_test
from ._utils import check_alpha, check_alternative, check_real

__all__ = [
    "BOUNDARIES",
    "DECISIONS",
    "STOPPED_BY",
    "SEQUENTIAL_TESTS",
    "FUTILITY",
    "MAX_REPEATS",
    "check_futility",
    "check_sequential_test",
    "conditional_power",
    "first_stop",
    "group_sequential_boundaries",
    "look_decisions",
    "look_statistics",
    "sequential_boundaries",
    "sequential_codes",
    "variance_factor",
]

#: The group-sequential boundaries: Pocock's constant one and O'Brien and
#: Fleming's, which is wide at the first looks and narrows to about the
#: fixed-design critical value at the last.
BOUNDARIES = ("pocock", "obrien_fleming")

#: Decision codes of :func:`look_decisions` and :func:`first_stop` -> the
#: decision: 2 is the rope's equivalence stop, 3 the conditional-power
#: futility stop (both "no difference"; :data:`STOPPED_BY` tells them
#: apart), 0 at the stop the last look that crossed nothing.
DECISIONS = {
    0: "undecided",
    1: "A better",
    -1: "B better",
    2: "no difference",
    3: "no difference",
}

#: Decision codes at the stop -> why the design stopped (``stopped_by`` of
#: :func:`sklearn_bcv.sequential_compare`).
STOPPED_BY = {
    0: "max_repeats",
    1: "boundary",
    -1: "boundary",
    2: "rope",
    3: "futility",
}

#: The futility rules of :func:`sklearn_bcv.sequential_compare` (None: none).
FUTILITY = ("conditional_power",)

# Grid of the numerical integration: Simpson's rule on at least this many
# points per look, and at least this many points per standard deviation of
# the increment between two looks (looks close in information need a finer
# grid), capped so a kernel matrix stays below ~32 MB. The critical constant
# is then accurate to about 1e-7 (checked against a grid twice as fine).
_MIN_POINTS = 401
_POINTS_PER_SD = 6
_MAX_POINTS = 2001
# One-sided boundaries: the continuation region is cut this many standard
# deviations below the mean (the mass below is < 1e-10).
_TAIL_SDS = 6.5


@dataclass(frozen=True)
class SequentialForm:
    """How a registered test is looked at sequentially.

    ``needs`` is what the test is called with; ``statistic`` the field of its
    result read as the signed look statistic (positive when A is better);
    ``t_reference`` whether that statistic is referred to Student's t with
    ``2m - 1`` degrees of freedom (else to the standard normal);
    ``location`` maps the test's result to the estimated mean difference
    and its standard error, for the rope's futility stop.
    """

    test: str
    needs: str
    statistic: str
    t_reference: bool
    location: object


def _mcnemar_location(result):
    """Accuracy difference A - B and its standard error on the effective
    table (its size ``t·nbar``, the cells' proportions of ``nbar``)."""
    mean_table = np.asarray(result.mean_table, dtype=np.float64)
    n_test = mean_table.sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        p01 = np.where(n_test > 0, mean_table[..., 0, 1] / n_test, 0.0)
        p10 = np.where(n_test > 0, mean_table[..., 1, 0] / n_test, 0.0)
        estimate = p10 - p01
        variance = np.maximum(p01 + p10 - estimate**2, 0.0)
        effective_size = result.t * n_test
        std_error = np.sqrt(
            np.where(effective_size > 0, variance / effective_size, 0.0)
        )
    return estimate, std_error


def _t_location(result):
    return (
        np.asarray(result.mean_difference, dtype=np.float64),
        np.asarray(result.std_error, dtype=np.float64),
    )


#: Registered tests that have a sequential form.
SEQUENTIAL_TESTS = {
    "bcv_mcnemar": SequentialForm(
        "bcv_mcnemar", "tables", "z", t_reference=False, location=_mcnemar_location
    ),
    "bcv_t": SequentialForm(
        "bcv_t", "differences", "statistic", t_reference=True, location=_t_location
    ),
}


def check_sequential_test(test):
    """The :class:`SequentialForm` of ``test`` (a registered test's name)."""
    if not isinstance(test, str):
        raise ValueError(
            f"test must be the name of a test with a sequential form, one of "
            f"{sorted(SEQUENTIAL_TESTS)}; got {test!r}."
        )
    if test not in SEQUENTIAL_TESTS:
        get_test(test)  # an unknown name: the registry's message lists them
        raise ValueError(
            f"test={test!r} has no sequential form; sequential_compare can look "
            f"at {sorted(SEQUENTIAL_TESTS)} (bcv_mcnemar for classifiers' "
            "accuracy, bcv_t for any scoring, regression included)."
        )
    return SEQUENTIAL_TESTS[test]


def variance_factor(n_repeats, rho1, rho2):
    """``V_m = (1 + rho1 + 2(m - 1)·rho2) / (2m)``: ``Var(dbar_m) / sigma**2``
    under Yang et al.'s model; the inverse of :func:`bcv_mcnemar`'s ``t``."""
    m = np.asarray(n_repeats, dtype=np.float64)
    return (1.0 + rho1 + 2.0 * (m - 1.0) * rho2) / (2.0 * m)


# --------------------------------------------------------------------------
# Boundaries
# --------------------------------------------------------------------------


def _simpson_weights(n_points, step):
    weights = np.full(n_points, 2.0)
    weights[1::2] = 4.0
    weights[[0, -1]] = 1.0
    return weights * step / 3.0


def _grid(low, high, n_points):
    n_points += 1 - n_points % 2  # Simpson needs an odd count
    points = np.linspace(low, high, n_points)
    return points, _simpson_weights(n_points, (high - low) / (n_points - 1))


def _region(critical, information, two_sided):
    """Continuation region of ``S = z·sqrt(I)`` at one look."""
    sd = np.sqrt(information)
    high = critical * sd
    low = -high if two_sided else min(-_TAIL_SDS * sd, high - _TAIL_SDS * sd)
    return low, high


def _merged_regions(critical, information, two_sided):
    """Continuation regions of ``S`` per look; looks with the same
    information see the same ``S``, so they merge into one look whose region
    is the intersection of theirs."""
    looks = []
    for c, info in zip(critical, information):
        low, high = _region(c, info, two_sided)
        if looks and info - looks[-1][2] <= 1e-9 * info:
            previous_low, previous_high, _ = looks[-1]
            looks[-1] = (max(low, previous_low), min(high, previous_high), info)
        else:
            looks.append((low, high, info))
    return looks


def _non_crossing_probability(critical, information, two_sided):
    """P(no look crosses) under H0, by numerical integration over looks.

    ``S_j`` has independent normal increments of variance
    ``information[j] - information[j - 1]``. The sub-density of ``S_j`` on
    the continuation region (paths that have not stopped yet) is carried
    from look to look on a Simpson grid; the probability to stay at the
    next look integrates the normal increment exactly (``ndtr``).
    """
    looks = _merged_regions(critical, information, two_sided)
    low, high, info = looks[0]
    sd = np.sqrt(info)
    n_points = _MIN_POINTS
    if len(looks) > 1:
        smallest = np.sqrt(np.diff([look[2] for look in looks]).min())
        wanted = (high - low) / smallest * _POINTS_PER_SD
        n_points = int(np.clip(wanted, _MIN_POINTS, _MAX_POINTS))
    points, weights = _grid(low, high, n_points)
    density = stats.norm.pdf(points, scale=sd)
    stay = special.ndtr(high / sd) - special.ndtr(low / sd)
    for (low, high, info), previous in zip(looks[1:], looks):
        step_sd = np.sqrt(info - previous[2])
        mass = weights * density
        stay = np.sum(
            mass
            * (
                special.ndtr((high - points) / step_sd)
                - special.ndtr((low - points) / step_sd)
            )
        )
        new_points, new_weights = _grid(low, high, len(points))
        kernel = np.exp(-0.5 * ((new_points[:, None] - points) / step_sd) ** 2)
        density = kernel @ mass / (step_sd * np.sqrt(2.0 * np.pi))
        points, weights = new_points, new_weights
    return float(stay)


def _shape(boundary, variances):
    """Boundary shape ``c_m / c``: 1 (Pocock), ``sqrt(V_m / V_M)`` (O'Brien
    and Fleming)."""
    if boundary == "pocock":
        return np.ones_like(variances)
    return np.sqrt(variances / variances[-1])


@cache
def _critical_constant(boundary, first, last, alpha, two_sided, rho1, rho2):
    repeats = np.arange(first, last + 1)
    variances = variance_factor(repeats, rho1, rho2)
    information = 1.0 / variances
    shape = _shape(boundary, variances)
    sides = 2 if two_sided else 1

    def excess(constant):
        crossing = 1.0 - _non_crossing_probability(
            constant * shape, information, two_sided
        )
        return crossing - alpha

    # One look at the fixed-design critical value crosses with probability
    # >= alpha, Bonferroni over the looks with <= alpha.
    low = stats.norm.isf(alpha / sides) / shape.max()
    high = stats.norm.isf(alpha / (sides * len(repeats))) / shape.min()
    if len(repeats) == 1 or excess(low) <= 0:
        return float(low)
    return float(optimize.brentq(excess, low, high, xtol=1e-9, rtol=1e-12))


#: Most repetitions (looks) a group-sequential design takes, as the command
#: line's ``--max-repeats``: the boundaries' integration grows with the
#: number of looks ((1, 50) took 33 s on a loaded 2-core machine, (1, 200)
#: about two minutes, (1, 10**6) never finishes), and 4 fits per repetition
#: add up.
MAX_REPEATS = 50


def _check_repeats(min_repeats, max_repeats):
    min_repeats = check_integer(min_repeats, name="min_repeats", low=1)
    max_repeats = check_integer(
        max_repeats,
        name="max_repeats",
        low=1,
        high=MAX_REPEATS,
        why="the boundaries over more looks take minutes to hours to compute",
    )
    if min_repeats > max_repeats:
        raise ValueError(
            f"min_repeats must be at most max_repeats; got min_repeats="
            f"{min_repeats} > max_repeats={max_repeats}."
        )
    return int(min_repeats), int(max_repeats)


def check_boundary(boundary):
    """Validate the boundary's name."""
    if not isinstance(boundary, str) or boundary not in BOUNDARIES:
        raise ValueError(
            f"boundary must be one of {list(BOUNDARIES)}; got {boundary!r}."
        )
    return boundary


def check_rope(rope):
    """Validate a region of practical equivalence: a finite number >= 0."""
    return check_real(
        rope, name="rope", expected="a finite number >= 0", is_valid=lambda r: r >= 0
    )


def group_sequential_boundaries(
    min_repeats,
    max_repeats,
    *,
    boundary="obrien_fleming",
    alpha=0.05,
    alternative="two-sided",
    rho1=0.5,
    rho2=0.5,
    statistic="normal",
):
    """Critical values of a group-sequential m×2 BCV test.

    Parameters
    ----------
    min_repeats, max_repeats : int
        The first and last looks, in repetitions of 2-fold CV; there is one
        look after every repetition in between. ``max_repeats`` is at most
        ``MAX_REPEATS`` (50): boundaries over more looks take minutes.
    boundary : {"pocock", "obrien_fleming"}, default="obrien_fleming"
        ``"pocock"``: the same critical value ``c`` at every look;
        ``"obrien_fleming"``: ``c_m = c·sqrt(V_m / V_M)``, wide at the
        first looks and near the fixed-design value at the last.
    alpha : float, default=0.05
        Overall level: under H0 a look crosses with probability ``alpha``.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        Two-sided boundaries ``±c_m``; one-sided ones use one tail
        (``"greater"``: the upper boundary, A better; ``"less"``: the lower).
    rho1, rho2 : float, default=0.5
        The correlations of Yang et al.'s variance model (as in
        :func:`bcv_mcnemar`), which set the correlation
        ``sqrt(V_m' / V_m)`` of the looks ``m <= m'``.
    statistic : {"normal", "t"}, default="normal"
        The look statistics: standard normal ones (``bcv_mcnemar``'s signed
        root), or ``bcv_t``'s t statistics with ``2m - 1`` degrees of
        freedom, each referred to its t law at the nominal level of its look.

    Returns
    -------
    bounds : :class:`~sklearn.utils.Bunch`
        - ``repeats`` -- the looks, ``min_repeats ... max_repeats``;
        - ``lower``, ``upper`` -- the boundaries of the standardised (normal)
          look statistic at each look, ``∓c_m`` (``-inf`` / ``inf`` on the
          side a one-sided test does not stop on);
        - ``nominal_alpha`` -- the level of each look on its own
          (``2·norm.sf(c_m)`` two-sided);
        - ``constant`` -- ``c``;
        - ``variance_factor`` -- ``V_m`` of each look;
        - ``boundary``, ``alpha``, ``alternative``, ``rho1``, ``rho2``.

    Notes
    -----
    Under H0 the standardised look statistics are jointly normal with
    ``corr(z_m, z_m') = sqrt(V_m' / V_m)`` (the user guide, "Sequential
    m×2 BCV"). ``c`` solves ``P(some look crosses) = alpha`` under that law;
    the crossing probability is computed by numerical integration of the
    independent increments of ``z_m / sqrt(V_m)`` (accurate to about
    1e-9) and ``c`` by Brent's method; results are cached. With one look
    (``min_repeats == max_repeats``) the boundary is the fixed-design
    critical value.

    t statistics of different looks divide by different variance
    estimates, so they are less correlated than that normal law says, and
    its ``c`` would let them cross too often (6.6% instead of 5% for the
    defaults). For ``statistic="t"``, ``c`` is instead the ``1 - alpha``
    quantile of ``max_m z_m / shape_m`` over a seeded sample of 400,000
    draws of the model (normal differences with correlations ``rho1``
    within and ``rho2`` across repetitions; the statistic is free of
    ``sigma``), where ``z_m`` is ``bcv_t``'s statistic at look m mapped to
    the normal scale through its t(2m - 1) law (Monte Carlo error of the
    level about 0.0003 at ``alpha = 0.05``).

    References
    ----------
    .. [1] S. J. Pocock, "Group sequential methods in the design and analysis
       of clinical trials", Biometrika 64(2):191-199, 1977.
    .. [2] P. C. O'Brien and T. R. Fleming, "A multiple testing procedure for
       clinical trials", Biometrics 35(3):549-556, 1979.
    .. [3] C. Jennison and B. W. Turnbull, "Group Sequential Methods with
       Applications to Clinical Trials", Chapman & Hall/CRC, 2000, ch. 2-3
       and 19.

    Examples
    --------
    >>> from sklearn_bcv.stats import group_sequential_boundaries
    >>> bounds = group_sequential_boundaries(3, 7, boundary="pocock")
    >>> bounds.repeats.tolist()
    [3, 4, 5, 6, 7]
    >>> round(bounds.constant, 3)
    2.107
    >>> bounds = group_sequential_boundaries(3, 7)
    >>> bounds.upper.round(3).tolist()
    [2.159, 2.12, 2.097, 2.081, 2.069]
    """
    min_repeats, max_repeats = _check_repeats(min_repeats, max_repeats)
    boundary = check_boundary(boundary)
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test="sequential_compare")
    rho1, rho2 = _check_rhos(rho1, rho2, max_repeats)
    if statistic not in ("normal", "t"):
        raise ValueError(f"statistic must be 'normal' or 't'; got {statistic!r}.")
    two_sided = alternative == "two-sided"
    solve = _critical_constant if statistic == "normal" else _t_critical_constant
    constant = solve(boundary, min_repeats, max_repeats, alpha, two_sided, rho1, rho2)
    repeats = np.arange(min_repeats, max_repeats + 1)
    variances = variance_factor(repeats, rho1, rho2)
    critical = constant * _shape(boundary, variances)
    upper = critical if alternative != "less" else np.full_like(critical, np.inf)
    lower = -critical if alternative != "greater" else np.full_like(critical, -np.inf)
    sides = 2 if two_sided else 1
    return Bunch(
        repeats=repeats,
        lower=lower,
        upper=upper,
        nominal_alpha=sides * stats.norm.sf(critical),
        constant=constant,
        variance_factor=variances,
        boundary=boundary,
        alpha=alpha,
        alternative=alternative,
        rho1=rho1,
        rho2=rho2,
        statistic=statistic,
    )


# Draws of the model behind the t form's boundaries: fixed, so that the
# boundaries are a function of their arguments; drawn in chunks, so that
# memory stays bounded whatever max_repeats.
_T_DRAWS = 400_000
_T_CHUNK = 50_000
_T_SEED = 20261123


def _model_differences(n_repeats, rho1, rho2, n_draws, rng):
    """Normal split differences of Yang et al.'s model: unit variance,
    correlation ``rho1`` within and ``rho2`` across repetitions."""
    n_splits = 2 * n_repeats
    cov = np.full((n_splits, n_splits), rho2)
    for r in range(n_repeats):
        cov[2 * r : 2 * r + 2, 2 * r : 2 * r + 2] = [[1.0, rho1], [rho1, 1.0]]
    # eigh, not cholesky: at eq. 9's bound the matrix is singular
    values, vectors = np.linalg.eigh(cov)
    root = vectors * np.sqrt(np.clip(values, 0.0, None))
    return rng.standard_normal((n_draws, n_splits)) @ root.T


def _normal_scores(t_statistics, repeats, two_sided):
    """Looks' t statistics mapped to the normal scale through their
    t(2m - 1) laws (for a two-sided test, their absolute values)."""
    df = 2 * np.asarray(repeats) - 1
    if two_sided:
        return stats.norm.isf(stats.t.sf(np.abs(t_statistics), df))
    return stats.norm.isf(stats.t.sf(t_statistics, df))


@cache
def _t_critical_constant(boundary, first, last, alpha, two_sided, rho1, rho2):
    repeats = np.arange(first, last + 1)
    shape = _shape(boundary, variance_factor(repeats, rho1, rho2))
    form, params = SEQUENTIAL_TESTS["bcv_t"], {"rho1": rho1, "rho2": rho2}
    rng = np.random.default_rng(_T_SEED)
    largest = []
    for _ in range(_T_DRAWS // _T_CHUNK):
        draws = _model_differences(last, rho1, rho2, _T_CHUNK, rng)
        looks = look_statistics(form, draws, repeats, params=params)
        scores = _normal_scores(looks.statistic, repeats, two_sided)
        # A draw crosses the boundary c·shape iff c <= max_m z_m / shape_m.
        largest.append(np.max(scores / shape, axis=-1))
    constant = float(np.quantile(np.concatenate(largest), 1.0 - alpha))
    # never below the fixed design's critical value at the last look
    sides = 2 if two_sided else 1
    return max(constant, float(stats.norm.isf(alpha / sides) / shape[-1]))


# --------------------------------------------------------------------------
# Looks and decisions
# --------------------------------------------------------------------------


def sequential_boundaries(
    test, min_repeats, max_repeats, *, boundary, alpha, alternative, params=None
):
    """Everything a sequential run of a registered test needs before a fit.

    Returns ``(form, bounds, lower, upper)``: the test's
    :class:`SequentialForm`, the :func:`group_sequential_boundaries` of its
    correlations (``rho1``, ``rho2``: ``params`` over the test's defaults)
    and those boundaries in the scale of its statistic
    (:func:`statistic_boundaries`).
    """
    form = check_sequential_test(test)
    params = {} if params is None else params
    defaults = get_test(test).__kwdefaults__ or {}
    model = {
        key: params.get(key, defaults[key])
        for key in ("rho1", "rho2")
        if key in defaults
    }
    bounds = group_sequential_boundaries(
        min_repeats,
        max_repeats,
        boundary=boundary,
        alpha=alpha,
        alternative=alternative,
        statistic="t" if form.t_reference else "normal",
        **model,
    )
    lower, upper = statistic_boundaries(form, bounds)
    return form, bounds, lower, upper


def statistic_boundaries(form, bounds):
    """The boundaries in the scale of ``form``'s statistic: the normal
    ones, or, for a t statistic, the t quantiles of the same nominal level
    per look (``2m - 1`` degrees of freedom)."""
    if not form.t_reference:
        return bounds.lower, bounds.upper
    df = 2 * bounds.repeats - 1
    sides = 2 if bounds.alternative == "two-sided" else 1
    critical = stats.t.isf(bounds.nominal_alpha / sides, df)
    upper = np.where(np.isfinite(bounds.upper), critical, np.inf)
    lower = np.where(np.isfinite(bounds.lower), -critical, -np.inf)
    return lower, upper


def look_statistics(form, values, repeats, *, alpha=0.05, params=None):
    """The look statistics of ``form`` at each of ``repeats``.

    Parameters
    ----------
    form : SequentialForm
    values : ndarray
        The test's needs over the whole design in split order: tables of
        shape ``(..., 2M, 2, 2)`` or differences of shape ``(..., 2M)``.
    repeats : sequence of int
        The looks; look m reads the first 2m splits.
    alpha : float
        Level of the (1 - alpha) interval of the mean difference.
    params : dict
        The test's own parameters (``rho1``, ``rho2``).

    Returns
    -------
    looks : :class:`~sklearn.utils.Bunch`
        ``statistic``, ``estimate``, ``std_error``, ``low`` and ``high``
        (the two-sided interval of the mean difference) of shape
        ``(..., len(repeats))``.
    """
    params = {} if params is None else params
    test = get_test(form.test)
    values = np.asarray(values)
    split_axis = -3 if form.needs == "tables" else -1
    fields = {name: [] for name in ("statistic", "estimate", "std_error")}
    for m in repeats:
        prefix = np.take(values, np.arange(2 * m), axis=split_axis)
        result = test(**{form.needs: prefix}, alpha=alpha, **params)
        estimate, std_error = form.location(result)
        # + 0.0: a signed zero (-0.0 when B leads by less than the
        # continuity correction) prints as 0
        statistic = np.asarray(result[form.statistic], dtype=float) + 0.0
        fields["statistic"].append(statistic)
        fields["estimate"].append(estimate)
        fields["std_error"].append(std_error)
    looks = Bunch(**{name: np.stack(v, axis=-1) for name, v in fields.items()})
    df = 2 * np.asarray(repeats) - 1
    quantile = (
        stats.t.isf(alpha / 2, df) if form.t_reference else stats.norm.isf(alpha / 2)
    )
    spread = quantile * looks.std_error
    looks["low"] = looks.estimate - spread
    looks["high"] = looks.estimate + spread
    return looks


def look_decisions(
    statistic,
    lower,
    upper,
    *,
    low=None,
    high=None,
    rope=0.0,
    power=None,
    futility_threshold=None,
):
    """Decision code at every look (see :data:`DECISIONS`).

    1 ("A better") where ``statistic >= upper``, -1 ("B better") where
    ``statistic <= lower``, 2 ("no difference", stopped by the rope) where
    ``rope > 0`` and the interval ``[low, high]`` lies inside ``[-rope,
    rope]``, 3 ("no difference", stopped for futility) where
    ``futility_threshold`` is given and the conditional power ``power`` is
    below it, else 0 (go on). A crossing
    wins over the rope's rule, which wins over the futility rule, at the
    same look. ``power`` should be NaN (no futility stop) at the last look.
    """
    statistic = np.asarray(statistic, dtype=np.float64)
    codes = np.zeros(statistic.shape, dtype=np.int8)
    if futility_threshold is not None:
        codes[np.asarray(power) < futility_threshold] = 3
    if rope > 0:
        inside = (np.asarray(low) >= -rope) & (np.asarray(high) <= rope)
        codes[inside] = 2
    codes[statistic <= lower] = -1
    codes[statistic >= upper] = 1
    return codes


def check_futility(futility, futility_threshold):
    """Validate the futility rule and its threshold; the threshold, or None
    when there is no futility stop."""
    if futility is None:
        return None
    if not isinstance(futility, str) or futility not in FUTILITY:
        raise ValueError(
            f"futility must be one of {list(FUTILITY)} or None; got {futility!r}."
        )
    return check_real(
        futility_threshold,
        name="futility_threshold",
        expected="a number in [0, 1)",
        is_valid=lambda value: 0 <= value < 1,
    )


def _normal_scale(form, statistic, repeats):
    """Look statistics on the scale of the normal boundaries: ``bcv_t``'s t
    statistics through their t(2m - 1) laws (as its boundaries are
    calibrated), a normal statistic as it is."""
    statistic = np.asarray(statistic, dtype=np.float64)
    if not form.t_reference:
        return statistic
    df = 2 * np.asarray(repeats) - 1
    return stats.norm.isf(stats.t.sf(statistic, df))


#: The correlation across repetitions the conditional power reads the
#: looks' joint law with, when the boundaries' ``rho2`` is larger. The
#: boundaries' conservative 1/2 makes looks 3 and 7 correlated at 0.958,
#: more than measured for ``bcv_mcnemar`` with real learners (0.87 to
#: 0.92) and on Yang et al.'s simple data set (0.87 to 0.95): the trend read
#: at an early look was too sure, and power was lost. 0.2 gives 0.852,
#: below every correlation measured; a lower correlation only makes the
#: (non-binding) futility stop less eager.
FUTILITY_RHO2 = 0.2


def _last_look_correlation(form, bounds):
    """``corr(z_m, z_M)`` of every look with the last one under H0, with
    ``rho2`` at most :data:`FUTILITY_RHO2`: the normal law's
    ``sqrt(I_m / I_M)``, or for a t statistic that of its normal scores on
    the model's draws."""
    rho1, rho2 = float(bounds.rho1), min(float(bounds.rho2), FUTILITY_RHO2)
    if not form.t_reference:
        variances = variance_factor(bounds.repeats, rho1, rho2)
        return np.sqrt(variances[-1] / variances)
    first, last = int(bounds.repeats[0]), int(bounds.repeats[-1])
    return np.asarray(_t_last_look_correlation(first, last, rho1, rho2))


@cache
def _t_last_look_correlation(first, last, rho1, rho2):
    repeats = np.arange(first, last + 1)
    form, params = SEQUENTIAL_TESTS["bcv_t"], {"rho1": rho1, "rho2": rho2}
    rng = np.random.default_rng(_T_SEED)
    draws = _model_differences(last, rho1, rho2, _T_CHUNK, rng)
    looks = look_statistics(form, draws, repeats, params=params)
    scores = _normal_scale(form, looks.statistic, repeats)
    scores = scores[np.all(np.isfinite(scores), axis=-1)]
    # One look (min_repeats == max_repeats) is its own last look.
    correlation = np.atleast_2d(np.corrcoef(scores, rowvar=False))[:, -1]
    return tuple(np.clip(correlation, 1e-3, 1.0).tolist())


def conditional_power(form, statistic, bounds, repeats=None):
    """Conditional power under the current trend at every look.

    The probability that the last look ``M`` crosses its boundary, given
    the look statistic ``z_m`` at look m, when the effect is the one
    ``z_m`` estimates (Jennison & Turnbull 2000, §10.2), under the joint
    normal law of the looks the boundaries are computed from.

    Parameters
    ----------
    form : SequentialForm
    statistic : ndarray of shape (..., n_looks)
        The look statistics, in the test's own scale.
    bounds : Bunch
        :func:`group_sequential_boundaries` of the design.
    repeats : array-like of shape (n_looks,), default=None
        The looks ``statistic`` was taken at; None means the first
        ``n_looks`` of ``bounds.repeats``.

    Returns
    -------
    power : ndarray of the shape of ``statistic``
        In [0, 1]; at the last look, 1 where it crosses and 0 elsewhere.

    Notes
    -----
    With information ``I_m = 1 / V_m``, ``S_m = z_m·sqrt(I_m)`` has
    independent increments with drift ``theta·I_m``; the current trend is
    ``theta_hat = z_m / sqrt(I_m)``, so given ``z_m`` the last look's
    statistic is normal with mean ``z_m·sqrt(I_M / I_m)`` and variance
    ``1 - I_m / I_M``. The power adds the probabilities of the two tails
    beyond ``±c_M`` (one tail for a one-sided test). ``bcv_t``'s t
    statistic is first mapped to the normal scale through its t(2m - 1)
    law, the scale on which its boundaries are calibrated, so its ``c_M``
    is the normal one; and as its looks divide by different variance
    estimates, they are less correlated than the normal law says
    (``corr(z_3, z_7) = 0.82`` against ``sqrt(I_3 / I_7) = 0.85``), so
    ``I_M / I_m`` is read as ``1 / corr(z_m, z_M)**2`` with the correlation
    of the looks' normal scores on a seeded simulation of the model.

    The law is the boundaries' model with ``rho2`` at most
    :data:`FUTILITY_RHO2` (0.2; the boundaries keep theirs, 0.5 by
    default): with 0.5 the looks are more correlated than measured on
    real learners, and the stop lost up to 0.06 of power.
    """
    statistic = np.asarray(statistic, dtype=np.float64)
    if repeats is None:
        repeats = bounds.repeats[: statistic.shape[-1]]
    index = np.asarray(repeats) - bounds.repeats[0]
    z = _normal_scale(form, statistic, repeats)
    ratio = 1.0 / _last_look_correlation(form, bounds)[index] ** 2  # I_M / I_m
    mean = z * np.sqrt(ratio)
    sd = np.sqrt(np.clip(1.0 - 1.0 / ratio, 0.0, None))
    upper, lower = bounds.upper[-1], bounds.lower[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        above = np.where(
            sd > 0, special.ndtr((mean - upper) / sd), (mean >= upper) * 1.0
        )
        below = np.where(
            sd > 0, special.ndtr((lower - mean) / sd), (mean <= lower) * 1.0
        )
    # one-sided: the infinite boundary's tail is 0 (ndtr(-inf) = 0)
    above = np.where(np.isfinite(upper), above, 0.0)
    below = np.where(np.isfinite(lower), below, 0.0)
    return np.clip(above + below, 0.0, 1.0)


def sequential_codes(
    form,
    looks,
    bounds,
    lower,
    upper,
    *,
    repeats=None,
    rope=0.0,
    futility_threshold=None,
):
    """The conditional power and the decision code at every look taken.

    ``looks`` are :func:`look_statistics` at ``repeats`` (None: the first
    ``n_looks`` of ``bounds.repeats``); ``lower``, ``upper`` the boundaries
    at every look of ``bounds`` in the statistic's scale
    (:func:`sequential_boundaries`). The futility rule
    (``futility_threshold`` not None) applies before the last look only:
    the last look crosses or ends the design. Returns ``(power, codes)``,
    both of the shape of ``looks.statistic``.
    """
    statistic = looks.statistic
    if repeats is None:
        repeats = bounds.repeats[: statistic.shape[-1]]
    index = np.asarray(repeats) - bounds.repeats[0]
    power = conditional_power(form, statistic, bounds, repeats)
    before_last = np.asarray(repeats) < bounds.repeats[-1]
    codes = look_decisions(
        statistic,
        lower[index],
        upper[index],
        low=looks.low,
        high=looks.high,
        rope=rope,
        power=np.where(before_last, power, np.nan),
        futility_threshold=futility_threshold,
    )
    return power, codes


def first_stop(codes):
    """Index of the stopping look and the decision code of every path.

    The first look whose code is not 0; a path that never stops ends at the
    last look, undecided (code 0).
    """
    codes = np.asarray(codes)
    stopped = codes != 0
    any_stop = stopped.any(axis=-1)
    index = np.where(any_stop, np.argmax(stopped, axis=-1), codes.shape[-1] - 1)
    decision = np.take_along_axis(codes, index[..., None], axis=-1)[..., 0]
    return index, decision
