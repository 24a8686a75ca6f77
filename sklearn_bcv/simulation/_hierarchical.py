"""Checks and evidence for the hierarchical Bayesian test and ASO.

* :func:`calibration_ranks`: simulation-based calibration (Talts, Betancourt,
  Simpson, Vehtari and Gelman 2018) of the hierarchical sampler. Parameters
  are drawn from the model's prior (with fixed bounds), data from the model
  given them, and the rank of each true parameter among thinned posterior
  draws is recorded: when the sampler draws from the posterior, every rank
  is uniform. One replication per chain, all chains vectorised.
* :func:`simulate_hierarchical_seed002`: Corani & Benavoli's experiment (the C -> F
  network, zeroR against BN-hat by 10-fold CV on q data sets) with the
  hierarchical test beside the Poisson-binomial and Bayesian signed-rank
  tests, and the shrinkage of the per-data-set estimates.
* :func:`aso_null_rates`: how often ASO declares A better when the two
  score distributions are equal.
"""

import numpy as np
from scipy import stats

from ..stats import bayesian_signed_rank, poisson_binomial
from ..stats._aso import almost_stochastic_order
from ..stats._hierarchical import (
    A_BOUNDS,
    B_BOUNDS,
    _Model,
    bayesian_hierarchical,
    run_sampler,
)

__all__ = ["aso_null_rates", "calibration_ranks", "simulate_hierarchical_seed002"]

#: The parameters whose ranks :func:`calibration_ranks` records.
CALIBRATED = ("delta0", "log_sigma0", "log_nu_minus_1", "delta_1", "log_sigma_1")


def _prior_draws(rng, size, q, bounds):
    """Parameters from the model's prior, with fixed bounds (D, S0, S)."""
    delta_bound, sigma0_bound, sigma_bound = bounds
    a = rng.uniform(*A_BOUNDS, size)
    b = rng.uniform(*B_BOUNDS, size)
    nu = 1.0 + rng.gamma(a, 1.0 / b)
    d0 = rng.uniform(-delta_bound, delta_bound, size)
    s0 = rng.uniform(0.0, sigma0_bound, size)
    lam = rng.gamma(nu[:, None] / 2.0, 2.0 / nu[:, None], (size, q))
    delta = d0[:, None] + s0[:, None] * rng.standard_normal((size, q)) / np.sqrt(lam)
    sigma = rng.uniform(0.0, sigma_bound, (size, q))
    return d0, s0, nu, delta, sigma


def _simulate_splits(rng, delta, sigma, n_splits, rho):
    """Split differences ``MVN(δ_i·1, σ_i²·Σ_ρ)``: a shared and a free part."""
    shared = rng.standard_normal(delta.shape)[..., None]
    free = rng.standard_normal((*delta.shape, n_splits))
    noise = np.sqrt(rho) * shared + np.sqrt(1.0 - rho) * free
    return delta[..., None] + sigma[..., None] * noise


def calibration_ranks(
    n_replications,
    *,
    n_datasets=5,
    n_splits=10,
    rho=0.1,
    bounds=(2.0, 2.0, 2.0),
    n_draws=1990,
    thin=10,
    n_warmup=300,
    random_state=0,
):
    """Ranks of simulation-based calibration of the hierarchical sampler.

    Parameters
    ----------
    n_replications : int
        Prior draws, each with its data set and its own chain.
    n_datasets, n_splits, rho : int, int, float
        The design of each replication's data.
    bounds : tuple of float
        The (fixed) bounds ``(D, S0, S)`` of the uniform priors of δ₀, σ₀
        and σ_i (the test sets them from the data, as baycomp; a calibration
        needs a prior that does not depend on the data).
    n_draws, thin, n_warmup : int
        Draws per chain after ``n_warmup`` warm-up sweeps, and the thinning
        (``n_draws // thin`` draws are ranked, so ranks run over
        ``0 ... n_draws // thin``).
    random_state : int
        Seeds the prior draws, the data and the sampler.

    Returns
    -------
    ranks : dict of str to ndarray of shape (n_replications,)
        For each of :data:`CALIBRATED`, the number of kept posterior draws
        below the true value.
    n_ranked : int
        ``n_draws // thin``: each rank is uniform on ``0 ... n_ranked``.
    """
    rng = np.random.default_rng(random_state)
    d0, s0, nu, delta, sigma = _prior_draws(rng, n_replications, n_datasets, bounds)
    x = _simulate_splits(rng, delta, sigma, n_splits, rho)
    xbar = x.mean(axis=-1)
    ss = np.sum((x - xbar[..., None]) ** 2, axis=-1)
    model = _Model(xbar, ss, n_splits, rho, *bounds)
    draws = run_sampler(
        model,
        n_draws=n_draws,
        n_chains=n_replications,
        n_warmup=n_warmup,
        rng=rng,
        keep_datasets=True,
    )
    kept = slice(thin - 1, None, thin)
    posterior = {
        "delta0": draws.delta0[:, kept],
        "log_sigma0": np.log(draws.sigma0[:, kept]),
        "log_nu_minus_1": np.log(draws.nu[:, kept] - 1.0),
        "delta_1": draws.delta[:, kept, 0],
        "log_sigma_1": np.log(draws.sigma[:, kept, 0]),
    }
    truth = {
        "delta0": d0,
        "log_sigma0": np.log(s0),
        "log_nu_minus_1": np.log(nu - 1.0),
        "delta_1": delta[:, 0],
        "log_sigma_1": np.log(sigma[:, 0]),
    }
    ranks = {
        name: np.sum(posterior[name] < truth[name][:, None], axis=1)
        for name in CALIBRATED
    }
    return ranks, posterior["delta0"].shape[1]


def rank_uniformity(ranks, n_ranked, n_bins=10):
    """``(counts, chi2 p-value)`` of the ranks in ``n_bins`` equal bins.

    The ranks take ``n_ranked + 1`` values; a multiple of ``n_bins`` keeps
    the bins equally likely.
    """
    if (n_ranked + 1) % n_bins:
        raise ValueError(
            f"n_ranked + 1 = {n_ranked + 1} must be a multiple of n_bins={n_bins}."
        )
    counts = np.bincount(ranks * n_bins // (n_ranked + 1), minlength=n_bins)
    return counts, float(stats.chisquare(counts).pvalue)


# --------------------------------------------------------------------------
# Corani & Benavoli's experiment with the hierarchical test
# --------------------------------------------------------------------------


def simulate_hierarchical_seed002(
    n_experiments,
    *,
    delta=0.0,
    n_datasets=50,
    n_runs=1,
    n_folds=10,
    cauchy=False,
    rope=0.0,
    alpha=0.05,
    n_samples=4000,
    n_chains=4,
    n_warmup=300,
    random_state=0,
):
    """Corani & Benavoli's C -> F experiments, three tests per experiment.

    Each experiment draws ``n_datasets`` data sets from the network
    (sizes uniform over {25, ..., 1000}, ``theta = 0.5 + delta``, or with
    ``cauchy`` a per-data-set delta from a Cauchy of median and scale
    ``delta``, capped at ±0.5), runs ``n_runs`` × ``n_folds``-fold CV of
    BN-hat (A) against zeroR (B), and applies the hierarchical, the
    Poisson-binomial and the Bayesian signed-rank tests with a decision
    ``P(A better) > 1 - alpha`` (one-sided, as Corani & Benavoli 2015).

    Returns
    -------
    result : dict
        ``decisions`` (n_experiments, 3) bool for ("bayesian_hierarchical",
        "poisson_binomial", "bayesian_signed_rank"); ``b_decisions`` the
        same for "B better"; ``squared_errors`` (n_experiments, 2): the
        mean over data sets of the squared error of the hierarchical
        posterior means of δ_i and of the raw mean differences, against
        the true accuracy differences; ``max_rhat``, ``min_ess``.
    """
    from ._seed002 import DATASET_SIZES, draw_cells, draw_folds, fold_accuracies

    rng = np.random.default_rng(random_state)
    names = ("bayesian_hierarchical", "poisson_binomial", "bayesian_signed_rank")
    decisions = np.zeros((n_experiments, 3), dtype=bool)
    b_decisions = np.zeros((n_experiments, 3), dtype=bool)
    squared_errors = np.zeros((n_experiments, 2))
    rhat, ess = [], []
    for e in range(n_experiments):
        sizes = rng.choice(np.asarray(DATASET_SIZES), size=n_datasets)
        if cauchy:
            deltas = np.clip(delta + delta * rng.standard_cauchy(n_datasets), -0.5, 0.5)
        else:
            deltas = np.full(n_datasets, float(delta))
        cells = draw_cells(sizes, deltas, rng)
        test = draw_folds(cells, n_runs, n_folds, rng)
        zeror, bn = fold_accuracies(
            cells[:, None, :], test, uniforms=rng.random(test.shape[:-1])
        )
        d = bn - zeror  # A = BN-hat, B = zeroR
        n = sizes.astype(float)
        n_test = n / n_folds
        n_train = n - n_test
        seed = int(rng.integers(2**31))
        hier = bayesian_hierarchical(
            d,
            n_train,
            n_test,
            rope=rope,
            alpha=alpha,
            n_samples=n_samples,
            n_chains=n_chains,
            n_warmup=n_warmup,
            random_state=seed,
        )
        pois = poisson_binomial(d, n_train, n_test, alpha=alpha)
        rank = bayesian_signed_rank(
            d.mean(axis=1), rope=rope, alpha=alpha, random_state=seed
        )
        for j, result in enumerate((hier, pois, rank)):
            decisions[e, j] = result.p_a_better > 1 - alpha
            b_decisions[e, j] = result.p_b_better > 1 - alpha
        # The data set's accuracy difference of BN-hat over zeroR with
        # the network known: BN-hat is right with probability
        # max(theta, 1 - theta), zeroR with 1/2 (exact at delta = 0; with
        # finite training sets BN-hat falls a little short of it).
        truth = np.abs(deltas)
        squared_errors[e] = (
            np.mean((hier.delta - truth) ** 2),
            np.mean((d.mean(axis=1) - truth) ** 2),
        )
        rhat.append(hier.rhat)
        ess.append(hier.ess)
    return {
        "tests": names,
        "decisions": decisions,
        "b_decisions": b_decisions,
        "squared_errors": squared_errors,
        "max_rhat": float(np.max(rhat)),
        "min_ess": float(np.min(ess)),
    }


# --------------------------------------------------------------------------
# ASO on equal score distributions
# --------------------------------------------------------------------------


def aso_null_rates(
    sizes,
    n_experiments,
    *,
    distribution="normal",
    threshold=0.2,
    confidence_level=0.95,
    n_bootstrap=1000,
    random_state=0,
):
    """Share of experiments in which ASO declares A better, A and B equal.

    Both samples (n scores each) come from one distribution: ``"normal"``,
    ``"skewed"`` (a beta(8, 2), like accuracies near 0.8) or ``"discrete"``
    (accuracies on 50 test records, so with ties). Returns a dict
    n -> (rate, number of experiments).
    """
    rng = np.random.default_rng(random_state)
    draw = {
        "normal": lambda n: rng.standard_normal(n),
        "skewed": lambda n: rng.beta(8.0, 2.0, n),
        "discrete": lambda n: rng.binomial(50, 0.8, n) / 50.0,
    }[distribution]
    rates = {}
    for n in sizes:
        rejected = 0
        for _ in range(n_experiments):
            result = almost_stochastic_order(
                draw(n),
                draw(n),
                confidence_level=confidence_level,
                n_bootstrap=n_bootstrap,
                threshold=threshold,
                random_state=int(rng.integers(2**31)),
            )
            rejected += bool(result.reject)
        rates[n] = (rejected / n_experiments, n_experiments)
    return rates
