"""Checks and evidence for the Bayesian Plackett–Luce ranking.

* :func:`draw_weak_orders`: rankings of k estimators on n data sets from a
  Plackett–Luce model, coarsened into weak orders (ties) independently of
  the order, so that the weak order's probability is the likelihood.
* :func:`calibration_ranks`: simulation-based calibration (Talts,
  Betancourt, Simpson, Vehtari and Gelman 2018) of the sampler: weights
  drawn from the prior, weak orders from the model given them, and the rank
  of each true weight among thinned posterior draws, uniform when the
  sampler draws from the posterior. One replication per chain, all chains
  vectorised.
* :func:`null_rankings`: the ranking on exchangeable estimators (every
  estimator's scores from one distribution), where each should be the best
  with probability 1/k.
* :func:`weak_order_likelihood` and :func:`simplex_quadrature`: the exact
  posterior of three weights by quadrature, the likelihood of each weak
  order by enumerating the full orders it merges (independent of the
  sampler's latent times).
"""

import itertools

import numpy as np

from ..stats._plackett_luce import plackett_luce, run_sampler

__all__ = [
    "calibration_ranks",
    "draw_weak_orders",
    "null_rankings",
    "simplex_quadrature",
    "weak_order_likelihood",
]


def draw_weak_orders(weights, n_datasets, rng, *, tie_probability=0.0):
    """Weak orders of the estimators drawn from a Plackett–Luce model.

    Parameters
    ----------
    weights : ndarray of shape (n_replications, k)
        The weights of each replication (positive).
    n_datasets : int
        Data sets (rankings) per replication.
    rng : numpy.random.Generator
    tie_probability : float, default=0.0
        Each pair of neighbouring places is merged into one tie group with
        this probability, independently of the order drawn (a coarsening
        at random, so the likelihood of the weak order is the sum of the
        probabilities of the orders it merges).

    Returns
    -------
    levels : ndarray of int of shape (n_replications, n_datasets, k)
        0 for the best group of each data set, 1 for the next, ...
    """
    weights = np.asarray(weights, dtype=float)
    n_replications, k = weights.shape
    # The exponential race: estimator j arrives after Exp(w_j); first = best.
    arrivals = rng.standard_exponential((n_replications, n_datasets, k))
    order = np.argsort(arrivals / weights[:, None, :], axis=-1)
    merged = rng.random((n_replications, n_datasets, k - 1)) < tie_probability
    place_levels = np.concatenate(
        [
            np.zeros((n_replications, n_datasets, 1), dtype=np.intp),
            np.cumsum(~merged, axis=-1),
        ],
        axis=-1,
    )
    levels = np.empty_like(place_levels)
    np.put_along_axis(levels, order, place_levels, axis=-1)
    return levels


def calibration_ranks(
    n_replications,
    *,
    k=4,
    n_datasets=10,
    prior=1.0,
    tie_probability=0.3,
    n_draws=1990,
    thin=10,
    n_warmup=100,
    random_state=0,
):
    """Ranks of simulation-based calibration of the Plackett–Luce sampler.

    Parameters
    ----------
    n_replications : int
        Prior draws of the weights, each with its own data and chain.
    k, n_datasets, prior, tie_probability : int, int, float, float
        The estimators, data sets, Dirichlet concentration, and the chance
        that two neighbouring places tie (see :func:`draw_weak_orders`).
    n_draws, thin, n_warmup : int
        Draws per chain after ``n_warmup`` warm-up sweeps, and the
        thinning (``n_draws // thin`` draws are ranked).
    random_state : int
        Seeds the prior draws, the data and the sampler.

    Returns
    -------
    ranks : ndarray of int of shape (n_replications, k)
        For each replication and estimator, the number of kept posterior
        draws of its weight below the true weight.
    n_ranked : int
        ``n_draws // thin``: each rank is uniform on ``0 ... n_ranked``.
    """
    rng = np.random.default_rng(random_state)
    weights = rng.dirichlet(np.full(k, float(prior)), size=n_replications)
    levels = draw_weak_orders(weights, n_datasets, rng, tie_probability=tie_probability)
    draws = run_sampler(
        levels,
        prior=float(prior),
        n_draws=n_draws,
        n_chains=n_replications,
        n_warmup=n_warmup,
        rng=rng,
    )
    kept = draws[:, thin - 1 :: thin]
    ranks = np.sum(kept < weights[:, None, :], axis=1)
    return ranks, kept.shape[1]


def null_rankings(
    n_experiments,
    *,
    k=5,
    n_datasets=20,
    scores="normal",
    n_samples=4000,
    alpha=0.05,
    random_state=0,
):
    """The ranking on exchangeable estimators.

    Every estimator's score on every data set is drawn from one
    distribution: ``"normal"`` (continuous, no ties) or ``"discrete"`` (an
    accuracy on 50 test records, binomial(50, 0.8) / 50: ties on most data
    sets).

    Returns
    -------
    result : dict
        ``prob_best`` (n_experiments, k); ``decisions``: the share of
        experiments in which some estimator is declared the best
        (``prob_best > 1 - alpha``); ``max_prob_best``: the largest
        ``prob_best`` of each experiment; ``tied_datasets``: the mean share
        of data sets with a tie.
    """
    rng = np.random.default_rng(random_state)
    draw = {
        "normal": lambda: rng.standard_normal((n_datasets, k)),
        "discrete": lambda: rng.binomial(50, 0.8, (n_datasets, k)) / 50.0,
    }[scores]
    prob_best = np.empty((n_experiments, k))
    decided = np.zeros(n_experiments, dtype=bool)
    tied = np.empty(n_experiments)
    for e in range(n_experiments):
        result = plackett_luce(
            draw(),
            alpha=alpha,
            n_samples=n_samples,
            random_state=int(rng.integers(2**31)),
        )
        prob_best[e] = result.prob_best
        decided[e] = result.best is not None
        tied[e] = result.n_tied_datasets / n_datasets
    return {
        "prob_best": prob_best,
        "decisions": float(decided.mean()),
        "max_prob_best": prob_best.max(axis=1),
        "tied_datasets": float(tied.mean()),
    }


def weak_order_likelihood(levels, w):
    """``Π_i P(weak order i | w)``, each the sum of the Plackett–Luce
    probabilities of the full orders that the weak order merges (found by
    enumerating the k! orders: small k only).

    Parameters
    ----------
    levels : array-like of int of shape (n_datasets, k)
        0 for the best group of each data set, 1 for the next, ...
    w : ndarray of shape (..., k)
        Weights (any positive scale).

    Returns
    -------
    likelihood : ndarray of shape w.shape[:-1]
    """
    w = np.asarray(w, dtype=float)
    k = w.shape[-1]
    total = np.ones(w.shape[:-1])
    for row in np.asarray(levels):
        p = np.zeros(w.shape[:-1])
        for order in itertools.permutations(range(k)):
            if np.any(np.diff(row[list(order)]) < 0):
                continue
            term, left = np.ones(w.shape[:-1]), w.sum(axis=-1)
            for j in order[:-1]:
                term = term * w[..., j] / left
                left = left - w[..., j]
            p = p + term
        total = total * p
    return total


def simplex_quadrature(levels, prior=1.0, n_nodes=500):
    """The exact posterior of three weights by quadrature on the simplex.

    ``w = (u, (1 - u) v, (1 - u)(1 - v))`` (Jacobian ``1 - u``) on a
    Gauss–Legendre grid of ``n_nodes`` × ``n_nodes`` points; the likelihood
    by :func:`weak_order_likelihood`, the prior ``Dirichlet(prior, prior,
    prior)``.

    Returns
    -------
    posterior : dict
        The posterior means of ``weights`` (3,), of the indicator of the
        largest weight (``prob_best``), of the ranks (``expected_rank``) and
        of ``w_i / (w_i + w_j)`` (``prob_beats``, (3, 3)).
    """
    x, wx = np.polynomial.legendre.leggauss(n_nodes)
    u, wu = (x + 1) / 2, wx / 2
    U, V = np.meshgrid(u, u, indexing="ij")
    w = np.stack([U, (1 - U) * V, (1 - U) * (1 - V)], axis=-1)
    density = (
        weak_order_likelihood(levels, w)
        * np.prod(w, axis=-1) ** (prior - 1)
        * (1 - U)
        * np.outer(wu, wu)
    )
    density /= density.sum()
    ranks = np.argsort(np.argsort(-w, axis=-1), axis=-1)

    def expect(f):
        return np.tensordot(density, f, axes=([0, 1], [0, 1]))

    return {
        "weights": expect(w),
        "prob_best": expect((ranks == 0).astype(float)),
        "expected_rank": 1 + expect(ranks.astype(float)),
        "prob_beats": expect(w[..., :, None] / (w[..., :, None] + w[..., None, :])),
    }
