"""Bayesian correlated t test (Corani & Benavoli 2015) on score differences."""

import numpy as np

from ._references import CORANI_2015, NADEAU_2003
from ._registry import register_test
from ._ttests import _mean_and_variance, corrected_std_error
from ._utils import (
    check_alpha,
    check_alternative,
    check_real,
    check_size,
    make_result,
    safe_divide,
    student_cdf,
    unscale,
)

__all__ = ["bayesian_correlated_t"]


def _check_rope(rope):
    return check_real(
        rope, name="rope", expected="a finite number >= 0", is_valid=lambda r: r >= 0
    )


def _posterior_probabilities(loc, scale, df, rope):
    """``P(mu > rope)``, ``P(-rope <= mu <= rope)``, ``P(mu < -rope)``.

    ``mu ~ loc + scale * t(df)``; a zero ``scale`` is a point mass at ``loc``
    (the rope is closed, so ``|loc| == rope`` counts as inside it). An
    infinite ``scale`` (``n_test / n_train`` beyond the largest double) is a
    flat posterior, 1/2 on either side of any finite rope: never
    ``inf / inf``, even when the rope, scaled to the units of the
    differences, is infinite too.
    """
    flat = np.isinf(scale)
    finite_scale = np.where(flat, 1.0, scale)
    upper = np.where(flat, 0.0, safe_divide(rope - loc, finite_scale))
    lower = np.where(flat, 0.0, safe_divide(-rope - loc, finite_scale))
    p_a_better = student_cdf(-upper, df)
    p_b_better = student_cdf(lower, df)
    point_mass = scale == 0
    p_a_better = np.where(point_mass, loc > rope, p_a_better).astype(np.float64)
    p_b_better = np.where(point_mass, loc < -rope, p_b_better).astype(np.float64)
    # 1 - the tails rather than a difference of cdfs, so the three sum to 1;
    # a rope of 0 under a continuous posterior holds no mass: exactly 0, not
    # the rounding residue of 1 - p - (1 - p) (1e-17).
    p_rope = np.clip(1.0 - p_a_better - p_b_better, 0.0, 1.0)
    p_rope = np.where((np.asarray(rope) == 0) & ~point_mass, 0.0, p_rope)
    return p_a_better, p_rope, p_b_better


def scaled_correlated_t_posterior(differences, n_train, n_test, *, test):
    """Location, scale, df and exponent of the posterior of ``mu``, scaled.

    ``differences`` of shape (..., n_splits); ``n_train`` and ``n_test``
    validated sizes, scalars or arrays broadcasting against the leading
    dimensions (one per data set in :func:`~sklearn_bcv.stats.poisson_binomial`).
    ``loc`` and ``scale`` are those of the differences divided by
    ``2**exponent`` (one exponent per comparison; see
    :func:`~sklearn_bcv.stats._utils.power_of_two_scale`), so nothing
    overflows; a rope goes to the same units as ``unscale(rope, -exponent)``.
    """
    loc, s2, n_splits, exponent = _mean_and_variance(differences, test)
    scale = corrected_std_error(s2, n_splits, n_train, n_test)
    return loc, scale, n_splits - 1, exponent


def correlated_t_posterior(differences, n_train, n_test, *, test):
    """Location, scale and df of the posterior of ``mu`` (Corani & Benavoli 2015).

    In the units of the differences (``±inf`` beyond the largest double);
    :func:`scaled_correlated_t_posterior` is the overflow-free form the
    tests use.
    """
    loc, scale, df, exponent = scaled_correlated_t_posterior(
        differences, n_train, n_test, test=test
    )
    return unscale(loc, exponent), unscale(scale, exponent), df


def posterior_decision(p_a_better, p_b_better, alpha, alternative):
    """``reject`` of a Bayesian test: a probability above ``1 - alpha`` on
    the side(s) ``alternative`` names."""
    decided_a = np.asarray(p_a_better) > 1.0 - alpha
    decided_b = np.asarray(p_b_better) > 1.0 - alpha
    if alternative == "greater":
        return decided_a
    if alternative == "less":
        return decided_b
    return decided_a | decided_b


@register_test(
    "bayesian_correlated_t",
    batched=True,
    needs=("differences", "n_train", "n_test"),
    design="any",
    param_check=_check_rope,
    swap="negate",
    bayesian=True,
    display_name="Bayesian correlated t test",
    rationale="a posterior of the mean score difference whose variance accounts "
    "for the overlap of the training sets: the probability that one is "
    "better or that both are equivalent within the rope",
    references=(CORANI_2015, NADEAU_2003),
    posterior="density",
)
def bayesian_correlated_t(
    differences, n_train, n_test, *, alpha=0.05, alternative="two-sided", rope=0.0
):
    """Bayesian correlated t test of the mean score difference.

    Parameters
    ----------
    differences : array-like of shape (..., n_splits)
        Score differences ``score_a - score_b``, ``n_splits >= 2`` (repeated
        hold-out or r×k cross-validation). Leading dimensions are
        independent comparisons.
    n_train : float
        Number of training records per split (the mean when it varies).
    n_test : float
        Number of test records per split (the mean when it varies).
    alpha : float, default=0.05
        A posterior probability above ``1 - alpha`` is a decision.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        Which decisions ``reject`` reports: ``"two-sided"`` either
        ``p_a_better > 1 - alpha`` or ``p_b_better > 1 - alpha``;
        ``"greater"`` only the first (A better), ``"less"`` only the second.
        The three probabilities are reported whatever ``alternative`` is.
    rope : float, default=0.0
        Half-width of the region of practical equivalence, in score units
        (e.g. 0.01 = one accuracy point); finite and >= 0.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        - ``statistic`` -- the posterior location ``dbar`` (the posterior
          mean of the mean difference when ``df > 1``);
        - ``pvalue`` -- None: the output is posterior probabilities;
        - ``p_a_better`` -- ``P(mu > rope)``, A is practically better;
        - ``p_rope`` -- ``P(-rope <= mu <= rope)``, practically equivalent;
        - ``p_b_better`` -- ``P(mu < -rope)``, B is practically better;
        - ``rope`` -- the rope used;
        - ``loc``, ``scale``, ``df`` -- the Student t posterior of ``mu``;
        - ``reject`` -- a decision for A or B at level ``1 - alpha`` as
          ``alternative`` says;
        - ``alternative``, ``alpha``, ``test``.

    See Also
    --------
    corrected_t : the frequentist test with the same sampling distribution.

    Notes
    -----
    The J differences are modelled as normal with mean ``mu``, variance
    ``sigma2`` and a common correlation ``rho``, which cannot be estimated
    from the data; Nadeau and Bengio's heuristic fixes
    ``rho = n_test / (n_train + n_test)``. Under the matching prior the
    posterior of ``mu`` is (Corani & Benavoli 2015, §2.4, Theorem 2)

    .. math:: \\mu \\mid d \\sim \\bar d + \\sqrt{\\Big(\\frac{1}{J} +
              \\frac{\\rho}{1-\\rho}\\Big) s^2}\\; t(J - 1),

    with ``dbar`` the mean and ``s2`` the sample variance (ddof=1) of the
    differences; ``rho / (1 - rho) = n_test / n_train``. With ``rope=0``,
    ``p_a_better`` equals ``1 -`` the ``"greater"`` p-value of
    :func:`corrected_t` (Corani & Benavoli 2015, Corollary 1), so
    ``alternative="greater"``
    rejects exactly when that test does; the two-sided rule (a decision in
    either direction at ``1 - alpha``) corresponds to the two-sided
    :func:`corrected_t` at level ``2 alpha``.

    A zero sample variance gives a point-mass posterior at ``dbar``
    (``scale = 0``): each probability is 0 or 1 according to whether
    ``dbar > rope``, ``-rope <= dbar <= rope`` (closed rope) or
    ``dbar < -rope``.

    The probabilities depend on the differences and the rope only through
    their ratios, and are computed on both divided by the same power of
    two, so differences of any finite magnitude give them without overflow;
    ``loc`` and ``scale`` are reported in score units, ``scale`` being
    ``inf`` only when it exceeds the largest double. When ``n_test /
    n_train`` itself does, the posterior is flat: ``p_a_better`` and
    ``p_b_better`` are 1/2 and ``p_rope`` 0 (unless the variance is 0).

    References
    ----------
    .. [1] G. Corani, A. Benavoli, "A Bayesian approach for comparing
       cross-validated algorithms on multiple data sets", Machine Learning
       100(2):285-304, 2015.
    .. [2] C. Nadeau, Y. Bengio, "Inference for the generalization error",
       Machine Learning 52(3):239-281, 2003.

    Examples
    --------
    Ten-fold CV of 100 records (90 train, 10 test per split), with a rope of
    one accuracy point:

    >>> from sklearn_bcv.stats import bayesian_correlated_t
    >>> d = [0.02, 0.01, 0.03, 0.02, 0.02, 0.04, 0.0, 0.01, 0.03, 0.02]
    >>> result = bayesian_correlated_t(d, n_train=90, n_test=10, rope=0.01)
    >>> [round(result[k], 4) for k in ("p_a_better", "p_rope", "p_b_better")]
    [0.954, 0.0459, 0.0002]
    >>> round(result.loc, 4), round(result.scale, 4), result.df, result.reject
    (0.02, 0.0053, 9, True)
    """
    test = "bayesian_correlated_t"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test)
    rope = _check_rope(rope)
    n_train = check_size(n_train, name="n_train")
    n_test = check_size(n_test, name="n_test")
    loc, scale, df, exponent = scaled_correlated_t_posterior(
        differences, n_train, n_test, test=test
    )
    # The probabilities in scaled units, the rope scaled alike (inf if it
    # dwarfs the differences beyond the largest double: all in the rope).
    p_a_better, p_rope, p_b_better = _posterior_probabilities(
        loc, scale, df, unscale(rope, -exponent)
    )
    loc, scale = unscale(loc, exponent), unscale(scale, exponent)
    reject = posterior_decision(p_a_better, p_b_better, alpha, alternative)
    return make_result(
        test=test,
        statistic=loc,
        pvalue=None,
        df=df,
        alpha=alpha,
        alternative=alternative,
        reject=reject,
        p_a_better=p_a_better,
        p_rope=p_rope,
        p_b_better=p_b_better,
        rope=rope,
        loc=loc,
        scale=scale,
    )
