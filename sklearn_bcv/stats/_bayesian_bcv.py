"""Bayesian m×2 BCV McNemar test: a Dirichlet posterior on the effective table.

The quadrature behind ``rope > 0`` (and behind the density drawn by
:class:`~sklearn_bcv.PosteriorDisplay`) is a fixed double-exponential
(tanh-sinh) rule on the upper-tail probability of the disagreement rate
``s``: vectorised over any batch of comparisons, exact at its end points'
singularities, and within 1e-10 of adaptive quadrature (see
``tests/test_stats_bayesian_bcv.py``).
"""

import numpy as np
from scipy import special

from ._bayesian import _check_rope, posterior_decision
from ._mcnemar import _check_rhos, _effective_factor, check_rho_params
from ._references import BENAVOLI_2017, YANG_BCV
from ._registry import register_test
from ._utils import (
    check_alpha,
    check_alternative,
    check_real,
    check_tables,
    make_result,
)

__all__ = ["bayesian_bcv_mcnemar"]


def _check_prior(prior):
    return check_real(
        prior, name="prior", expected="a finite number > 0", is_valid=lambda p: p > 0
    )


def _check_params(rope, prior, rho1, rho2):
    """The registry's check of the parameters, before any fit."""
    _check_rope(rope)
    _check_prior(prior)
    check_rho_params(rho1, rho2)


def _tanh_sinh_rule(step=1 / 12, half_width=3.0):
    """Nodes ``y`` in (0, 1) and weights of the tanh-sinh rule on [0, 1].

    ``y = (1 + tanh(π/2·sinh(τ))) / 2`` on a uniform grid of ``τ`` in
    ``[-half_width, half_width]``; the nodes cluster (doubly exponentially)
    at both ends, where the integrands below have algebraic singularities.
    Beyond ``|τ| = 3`` the weights are below 1e-13.
    """
    tau = np.arange(-half_width, half_width + step / 2, step)
    x = 0.5 * np.pi * np.sinh(tau)
    nodes = 1.0 / (1.0 + np.exp(-2.0 * x))
    weights = step * 0.25 * np.pi * np.cosh(tau) / np.cosh(x) ** 2
    return nodes, weights


_NODES, _WEIGHTS = _tanh_sinh_rule()


def _s_quadrature(posterior_s, threshold):
    """Nodes and weights of ``E_s[g(s); s > threshold]``, ``s ~ Beta``.

    With ``m = P(s > threshold)`` and ``s(w)`` the value whose upper-tail
    probability is ``w``, the expectation is the integral of ``g(s(w))``
    over ``w`` in ``(0, m)``, taken by the tanh-sinh rule: ``s`` enters
    through its quantiles, so a posterior of any concentration is resolved
    alike. ``posterior_s`` and ``threshold`` broadcast to the batch shape;
    returns ``s`` and the weights, both of shape ``batch + (n_nodes,)``:
    the expectation is ``np.sum(weights * g(s), axis=-1)``.
    """
    a_s, b_s = (np.asarray(p, dtype=np.float64)[..., np.newaxis] for p in posterior_s)
    threshold = np.asarray(threshold, dtype=np.float64)[..., np.newaxis]
    mass = special.betaincc(a_s, b_s, threshold)
    s = special.betainccinv(a_s, b_s, mass * _NODES)
    s = np.maximum(s, threshold)  # s > threshold, whatever the rounding
    return s, mass * _WEIGHTS


# Beyond this many pseudo-records a + b, SciPy's incomplete beta function
# loses accuracy (and gives NaN near 2**60); the Beta law is then normal to
# far better than float64 can tell (its skewness is O((a + b)**-1/2)).
_NORMAL_BEYOND = 2.0**40


def _beta_cdf(x, a, b):
    """``P(θ <= x)`` for ``θ ~ Beta(a, b)``: ``betainc``, or the normal law
    of the same mean and variance beyond ``_NORMAL_BEYOND`` pseudo-records."""
    x, a, b = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (x, a, b)))
    total = a + b
    huge = total > _NORMAL_BEYOND
    exact = special.betainc(np.where(huge, 1.0, a), np.where(huge, 1.0, b), x)
    # x - a/(a+b) as (x·b - (1 - x)·a)/(a+b): no cancellation of two
    # numbers near 1/2 (x·b and (1 - x)·a are exact in scale)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        numerator = x * b - (1.0 - x) * a
        z = numerator / np.sqrt(a * b / (total + 1.0))
    # a zero spread (x at 0 or 1): the side of the numerator
    z = np.where(np.isfinite(z), z, np.where(numerator >= 0, np.inf, -np.inf))
    return np.where(huge, special.ndtr(z), exact)


def _half_minus(rope, s):
    """``1/2 - rope/(2s)`` for ``s >= rope > 0``, clipped to [0, 1/2]."""
    return np.clip(0.5 - rope / (2.0 * s), 0.0, 0.5)


def _tails_at_zero(posterior_theta):
    """``(P(θ > 1/2), P(θ < 1/2))`` for ``θ ~ Beta(a10, a01)``, exactly.

    The smaller tail is the regularized incomplete beta function and the
    larger one its complement, so the two sum to 1 and swapping the
    parameters swaps them; equal parameters give 1/2 each.
    """
    a10, a01 = (np.asarray(p, dtype=np.float64) for p in posterior_theta)
    smaller = _beta_cdf(0.5, np.maximum(a10, a01), np.minimum(a10, a01))
    p_a_better = np.where(a10 > a01, 1.0 - smaller, smaller)
    p_b_better = np.where(a10 > a01, smaller, 1.0 - smaller)
    tie = a10 == a01
    return np.where(tie, 0.5, p_a_better), np.where(tie, 0.5, p_b_better)


def difference_tails(posterior_s, posterior_theta, rope):
    """``(P(Δ > rope), P(Δ < -rope))`` for ``Δ = s·(2θ - 1)``.

    ``s ~ Beta(*posterior_s)`` and ``θ ~ Beta(*posterior_theta)`` are
    independent, each parameter an array broadcasting to the batch shape;
    ``rope >= 0``. With ``rope = 0`` they are the Beta tails of ``θ`` at 1/2
    (closed form); otherwise
    ``P(Δ > r) = E_s[P(θ > 1/2 + r/(2s)); s > r]`` by quadrature.
    """
    if rope == 0:
        return _tails_at_zero(posterior_theta)
    a10, a01 = (np.asarray(p, dtype=np.float64)[..., None] for p in posterior_theta)
    s, weights = _s_quadrature(posterior_s, rope)
    x = _half_minus(rope, s)
    # P(θ > 1/2 + r/(2s)) = I_{1/2 - r/(2s)}(a01, a10), and its mirror: two
    # arrays of one layout, summed alike, so that swapping A and B swaps
    # the results exactly.
    p_a_better = np.sum(weights * _beta_cdf(x, a01, a10), axis=-1)
    p_b_better = np.sum(weights * _beta_cdf(x, a10, a01), axis=-1)
    return np.clip(p_a_better, 0.0, 1.0), np.clip(p_b_better, 0.0, 1.0)


def difference_pdf(d, posterior_s, posterior_theta):
    """Density of ``Δ = s·(2θ - 1)`` at the points ``d`` in (-1, 1).

    ``f_Δ(d) = E_s[f_θ(1/2 + d/(2s)) / (2s); s > |d|]``, by the quadrature
    of :func:`difference_tails` (the rope replaced by ``|d|``);
    ``posterior_s`` and ``posterior_theta`` are two scalars each (one
    comparison). Returns an array of the shape of ``d``.
    """
    d = np.asarray(d, dtype=np.float64)
    a10, a01 = (float(p) for p in posterior_theta)

    def integrand(s):
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            theta = 0.5 + d[..., np.newaxis] / (2.0 * s)
            log_density = (
                special.xlogy(a10 - 1.0, theta)
                + special.xlog1py(a01 - 1.0, -theta)
                - special.betaln(a10, a01)
                - np.log(2.0 * s)
            )
            inside = (theta > 0) & (theta < 1) & (s > 0)
            return np.where(inside, np.exp(np.where(inside, log_density, 0.0)), 0.0)

    s, weights = _s_quadrature(posterior_s, np.abs(d))
    return np.sum(weights * integrand(s), axis=-1)


def _effective_table(tables, rho1, rho2, test):
    """``(mean_table, t, rho1, rho2)`` of validated m×2 tables, as
    :func:`~sklearn_bcv.stats.bcv_mcnemar` computes them."""
    tables = check_tables(tables)
    n_splits = tables.shape[-3]
    if n_splits % 2:
        raise ValueError(
            f"{test} needs the tables of an m×2 (BCV) design: 2m splits, m >= 1, "
            f"in the order fold 0, fold 1 of each repetition; got {n_splits} tables."
        )
    rho1, rho2 = _check_rhos(rho1, rho2, n_splits // 2)
    t = _effective_factor(n_splits // 2, rho1, rho2)
    return tables.mean(axis=-3), t, rho1, rho2


def _posterior_parameters(effective_table, prior):
    """Beta parameters of ``s = π01 + π10`` and ``θ = π10 / s``."""
    a = effective_table + prior
    a00, a01, a10, a11 = a[..., 0, 0], a[..., 0, 1], a[..., 1, 0], a[..., 1, 1]
    posterior_s = np.stack([a01 + a10, a00 + a11], axis=-1)
    posterior_theta = np.stack([a10, a01], axis=-1)
    # The total as (a01 + a10) + (a00 + a11): the same when A and B swap.
    mean = (a10 - a01) / (posterior_s[..., 0] + posterior_s[..., 1])
    return posterior_s, posterior_theta, mean


def _decision(p_a_better, p_b_better, alpha, alternative):
    """``reject`` as :func:`~sklearn_bcv.stats.bayesian_correlated_t`, with a
    tie never a decision (it would be one with ``alpha >= 1/2``)."""
    p_a_better, p_b_better = np.asarray(p_a_better), np.asarray(p_b_better)
    return posterior_decision(
        np.where(p_a_better > p_b_better, p_a_better, 0.0),
        np.where(p_b_better > p_a_better, p_b_better, 0.0),
        alpha,
        alternative,
    )


@register_test(
    "bayesian_bcv_mcnemar",
    needs="tables",
    design="bcv",
    param_check=_check_params,
    swap="negate",
    bayesian=True,
    display_name="Bayesian BCV McNemar test",
    rationale="a Dirichlet posterior of the effective contingency table of a "
    "block-regularized m×2 CV: the probability that one classifier is "
    "more accurate or that both are equivalent within the rope",
    references=(YANG_BCV, BENAVOLI_2017),
    posterior="density",
)
def bayesian_bcv_mcnemar(
    tables,
    *,
    alpha=0.05,
    alternative="two-sided",
    rope=0.0,
    prior=1.0,
    rho1=0.5,
    rho2=0.5,
):
    """Bayesian m×2 BCV McNemar test on the effective contingency table.

    Parameters
    ----------
    tables : array-like of shape (2m, 2, 2)
        The contingency tables of an m×2 design in split order (split
        ``2r`` is fold 0 of repetition ``r``, split ``2r + 1`` fold 1),
        ideally block-regularized (see
        :class:`~sklearn_bcv.BlockRegularized5x2CV`); ``table[1, 0]``
        counts the records A gets right and B wrong. Leading batch
        dimensions, ``(..., 2m, 2, 2)``, test many comparisons at once.
    alpha : float, default=0.05
        A posterior probability above ``1 - alpha`` is a decision.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        Which decisions ``reject`` reports: ``"two-sided"`` either
        ``p_a_better > 1 - alpha`` or ``p_b_better > 1 - alpha``;
        ``"greater"`` only the first (A better), ``"less"`` only the second.
        The three probabilities are reported whatever ``alternative`` is.
    rope : float, default=0.0
        Half-width of the region of practical equivalence of the accuracy
        difference (e.g. 0.01 = one accuracy point); finite and >= 0.
    prior : float, default=1.0
        The Dirichlet prior's weight on each of the four cells, > 0 (1 is
        the uniform prior on the cell probabilities).
    rho1 : float, default=0.5
        Assumed correlation of the two hold-out estimates within one 2-fold
        CV, in (-1, 1), as in :func:`bcv_mcnemar`.
    rho2 : float, default=0.5
        Assumed correlation of hold-out estimates from different
        repetitions, in [0, 1) and at most ``(1 + rho1) / 2``, as in
        :func:`bcv_mcnemar`.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        - ``statistic`` -- ``mean``, the posterior mean of ``Δ``;
        - ``pvalue`` -- None: the output is posterior probabilities;
        - ``df`` -- None;
        - ``p_a_better`` -- ``P(Δ > rope)``, A is practically more accurate;
        - ``p_rope`` -- ``P(-rope <= Δ <= rope)``, practically equivalent;
        - ``p_b_better`` -- ``P(Δ < -rope)``, B is practically more accurate;
        - ``reject`` -- a decision for A or B at level ``1 - alpha`` as
          ``alternative`` says (never on a tie ``p_a_better ==
          p_b_better``);
        - ``mean`` -- the posterior mean of ``Δ``,
          ``(a10 - a01) / (a00 + a01 + a10 + a11)``;
        - ``posterior_s`` -- ndarray of shape (..., 2), the Beta parameters
          of the disagreement rate ``s``;
        - ``posterior_theta`` -- ndarray of shape (..., 2), the Beta
          parameters of ``θ``, A's share of the disagreements;
        - ``t``, ``rho1``, ``rho2`` -- the effective-table factor and the
          correlations used;
        - ``mean_table``, ``effective_table`` -- ndarrays of shape
          (..., 2, 2): the mean of the 2m tables and ``t`` times it;
        - ``rope``, ``prior``, ``alternative``, ``alpha``, ``test``.

    See Also
    --------
    bcv_mcnemar : The frequentist test on the same effective table.
    bayesian_correlated_t : The Bayesian test of the mean score difference.

    Notes
    -----
    As in :func:`bcv_mcnemar`, the 2m tables are averaged into
    :math:`\\bar C` and compressed into the effective table
    :math:`C_e = t \\bar C`, :math:`t = 2m / (1 + \\rho_1 + 2(m - 1)\\rho_2)`,
    whose counts :math:`c_{ij}` (not whole numbers in general) carry the
    information of the correlated splits. The cell probabilities of a
    record, :math:`(\\pi_{00}, \\pi_{01}, \\pi_{10}, \\pi_{11})`, get the
    posterior :math:`\\mathrm{Dirichlet}(c_{ij} + a)` with the prior weight
    :math:`a` = ``prior`` on each cell. The accuracy difference of A and B
    is :math:`\\Delta = \\pi_{10} - \\pi_{01}`. By the aggregation property
    of the Dirichlet distribution the disagreement rate and A's share of the
    disagreements are independent Beta variables,

    .. math:: s = \\pi_{01} + \\pi_{10} \\sim \\mathrm{Beta}(c_{01} + c_{10}
              + 2a,\\; c_{00} + c_{11} + 2a), \\qquad
              \\theta = \\pi_{10} / s \\sim \\mathrm{Beta}(c_{10} + a,\\;
              c_{01} + a),

    and :math:`\\Delta = s (2\\theta - 1)`. With ``rope = 0``,
    :math:`P(\\Delta > 0) = P(\\theta > 1/2)`, a regularized incomplete beta
    function, and ``p_rope = 0``. With a rope :math:`r > 0`,

    .. math:: P(\\Delta > r) = E_s\\big[P(\\theta > 1/2 + r / (2s))\\big],

    the inner probability being 0 where :math:`s \\le r`; the expectation is
    a one-dimensional integral over the quantiles of :math:`s`, taken by a
    fixed tanh-sinh rule (73 nodes) accurate to about 1e-10. ``P(Δ < -r)``
    is the mirror image (``θ`` and ``1 - θ`` swapped) and ``p_rope`` the
    rest. The rope logic and the decision rule follow Benavoli et al.
    (2017): a probability above ``1 - alpha`` is a decision. Beyond
    ``2**40`` (about 1.1e12) pseudo-records in the Beta parameters, where
    SciPy's incomplete beta function loses accuracy, the Beta tails are
    those of the normal law of the same mean and variance (exact to double
    precision there).

    Degenerate input: when the estimators never disagree (``c01 = c10 =
    0``) the posterior of ``θ`` is symmetric, so ``p_a_better ==
    p_b_better`` and ``reject`` is False. This Bayesian counterpart of the
    BCV McNemar test is the future work of Yang et al. 2023; it is our
    extension, and its operating characteristics are those the effective
    table gives its frequentist sibling only approximately.

    References
    ----------
    .. [1] J. Yang, R. Wang, Y. Song and J. Li, "Block-regularized 5×2
       cross-validated McNemar's test for comparing two classification
       algorithms" (Yang et al. 2023), section 4 (the effective table) and the
       conclusion (future work: a Bayesian version).
    .. [2] A. Benavoli, G. Corani, J. Demšar, M. Zaffalon, "Time for a
       change: a tutorial for comparing multiple classifiers through
       Bayesian analysis", Journal of Machine Learning Research
       18(77):1-36, 2017.

    Examples
    --------
    The ten tables of :func:`bcv_mcnemar`'s example (a 5×2 BCV on 200
    records, A right and B wrong on 7.7 records per split on average, the
    reverse on 3.3):

    >>> import numpy as np
    >>> from sklearn_bcv.stats import bayesian_bcv_mcnemar
    >>> n01 = np.array([3, 4, 2, 5, 3, 4, 3, 2, 4, 3])
    >>> n10 = np.array([8, 7, 9, 6, 8, 9, 7, 8, 6, 9])
    >>> tables = np.array([[[10, a], [b, 90 - a - b]] for a, b in zip(n01, n10)])
    >>> result = bayesian_bcv_mcnemar(tables)
    >>> result.effective_table.round(2).tolist()
    [[18.18, 6.0], [14.0, 143.64]]
    >>> result.posterior_s.round(2).tolist(), result.posterior_theta.round(2).tolist()
    ([22.0, 163.82], [15.0, 7.0])
    >>> [round(result[k], 4) for k in ("p_a_better", "p_rope", "p_b_better")]
    [0.9608, 0.0, 0.0392]
    >>> round(result.mean, 4), result.reject
    (0.0431, True)

    With a rope of one accuracy point:

    >>> result = bayesian_bcv_mcnemar(tables, rope=0.01)
    >>> [round(result[k], 4) for k in ("p_a_better", "p_rope", "p_b_better")]
    [0.9119, 0.0726, 0.0155]
    >>> result.reject, bayesian_bcv_mcnemar(tables, rope=0.01, alpha=0.1).reject
    (False, True)
    """
    test = "bayesian_bcv_mcnemar"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test)
    rope = _check_rope(rope)
    prior = _check_prior(prior)
    mean_table, t, rho1, rho2 = _effective_table(tables, rho1, rho2, test)
    effective_table = t * mean_table
    posterior_s, posterior_theta, mean = _posterior_parameters(effective_table, prior)
    p_a_better, p_b_better = difference_tails(
        (posterior_s[..., 0], posterior_s[..., 1]),
        (posterior_theta[..., 0], posterior_theta[..., 1]),
        rope,
    )
    if rope == 0:
        p_rope = np.zeros_like(p_a_better)
    else:
        # 1 - (a + b), not 1 - a - b: symmetric in A and B.
        p_rope = np.clip(1.0 - (p_a_better + p_b_better), 0.0, 1.0)
    return make_result(
        test=test,
        statistic=mean,
        pvalue=None,
        df=None,
        alpha=alpha,
        alternative=alternative,
        reject=_decision(p_a_better, p_b_better, alpha, alternative),
        p_a_better=p_a_better,
        p_rope=p_rope,
        p_b_better=p_b_better,
        rope=rope,
        prior=prior,
        mean=mean,
        posterior_s=posterior_s,
        posterior_theta=posterior_theta,
        t=t,
        rho1=rho1,
        rho2=rho2,
        mean_table=mean_table,
        effective_table=effective_table,
    )
