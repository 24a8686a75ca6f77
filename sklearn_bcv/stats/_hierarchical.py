"""Hierarchical Bayesian comparison of two estimators across data sets.

The model of Corani, Benavoli, Demšar, Mangili and Zaffalon (2017), with
the priors and scaling of baycomp's ``HierarchicalTest``, sampled by a
Gibbs sampler written for it (no Stan, no compiler, no cache file):

* per data set i, the n split differences are ``MVN(δ_i·1, σ_i²·Σ_ρ)``
  with ``Σ_ρ`` the compound-symmetric correlation matrix (1 on the
  diagonal, ``ρ_i = n_test_i / (n_train_i + n_test_i)`` off it). The
  likelihood depends on the differences only through their mean ``x̄_i``
  and the sum of squared deviations ``SS_i``:
  ``x̄_i ~ N(δ_i, σ_i²·c_i)``, ``c_i = (1 + (n - 1)ρ_i)/n``, and
  ``SS_i ~ σ_i²(1 - ρ_i)·χ²(n - 1)``, independent;
* across data sets ``δ_i ~ t_ν(δ₀, σ₀)``, written as the scale mixture
  ``δ_i | λ_i ~ N(δ₀, σ₀²/λ_i)``, ``λ_i ~ Gamma(ν/2, rate ν/2)``;
* ``δ₀ ~ U(-D, D)``, ``σ₀ ~ U(0, S₀)``, ``σ_i ~ U(0, S)``,
  ``ν - 1 ~ Gamma(a, rate b)``, ``a ~ U(1, 2)``, ``b ~ U(0.01, 0.1)``.

One sweep updates, all chains at once (numpy arrays of shape
(n_chains, n_datasets)):

1. ``δ_i`` from its normal full conditional;
2. ``δ₀`` (truncated normal) and ``σ₀`` (its precision is a truncated
   gamma) given the ``δ_i`` -- the centred parametrisation;
3. ``δ₀`` and ``σ₀`` again, both truncated normal, given
   ``z_i = (δ_i - δ₀)/σ₀`` -- the non-centred parametrisation, the
   ``δ_i`` moving with them (Yu and Meng's 2011 interweaving, which keeps
   the chain mixing both when the data sets agree, σ₀ near 0, and when
   they do not);
4. ``σ_i`` (its precision is a truncated gamma);
5. ``ν`` by a random-walk Metropolis step on ``log(ν - 1)`` with the
   ``λ_i`` integrated out (the target is the product of the Student t
   densities of the ``δ_i``) and ``a``, ``b`` integrated out of its prior
   exactly (:func:`nu_prior_logpdf`), then the ``λ_i`` from their gamma
   full conditional.

Every step leaves the posterior invariant; the proposal scale of step 5 is
tuned during warm-up only.
"""

import warnings

import numpy as np
from scipy import special
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import Bunch, check_random_state

from .._checks import check_integer
from ._across import (
    _entropy,
    _generator,
)
from ._bayesian import _check_rope, posterior_decision
from ._pairwise_across import merged_split_differences
from ._references import CORANI_2017
from ._registry import register_test
from ._runs import check_rho, sizes_or_rho
from ._ties import check_score_scale, difference_tolerance, merge_ties
from ._utils import (
    check_alpha,
    check_alternative,
    make_result,
    power_of_two_scale,
    unscale,
)

__all__ = ["bayesian_hierarchical"]

#: baycomp's bounds of the priors of a and b and the factor of the upper
#: bounds of the uniform priors on the standard deviations.
A_BOUNDS = (1.0, 2.0)
B_BOUNDS = (0.01, 0.1)
UPPER_SIGMA = 1000.0
#: Half-width, in units of the mean within-data-set standard deviation, of
#: the jitter given to a data set of zero variance when the rope is 0
#: (baycomp jitters by ±rope, which is nothing then): as wide as a typical
#: data set's noise. A narrow jitter (0.1 was tried) pins such data sets'
#: δ_i at their mean, a spike beside the other data sets that slows the
#: sampler (effective sample sizes 20 times smaller on Corani & Benavoli's data) and
#: reads as strong evidence of no difference.
ZERO_ROPE_JITTER = 1.0
#: The smallest standard deviation (σ_i, σ₀) the sampler takes, in units of
#: the mean within-data-set standard deviation: a numerical floor, far below
#: any posterior mass of real data, that keeps 1/σ² and (δ - δ₀)²/σ₀² finite
#: on data sets whose spreads differ by hundreds of orders of magnitude.
SIGMA_FLOOR = 1e-50
#: Thresholds of the convergence warning (Vehtari et al. 2021).
RHAT_MAX = 1.01
ESS_MIN = 400

_GAUSS_A = np.polynomial.legendre.leggauss(24)


# --------------------------------------------------------------------------
# Small samplers, vectorised
# --------------------------------------------------------------------------


def truncated_normal(rng, mean, sd, low, high):
    """Draws of ``N(mean, sd²)`` truncated to ``[low, high]``, elementwise.

    Inverse cdf in log space (``log_ndtr``, ``ndtri_exp``), on the side of
    the mean where the interval's tail is thinner, so bounds far in a tail
    give draws in it rather than at a bound or NaN.
    """
    mean, sd = np.broadcast_arrays(mean, sd)
    a, b = (low - mean) / sd, (high - mean) / sd
    flip = a > 0  # both bounds above the mean: draw -x in (-b, -a)
    lo, hi = np.where(flip, -b, a), np.where(flip, -a, b)
    log_lo, log_hi = special.log_ndtr(lo), special.log_ndtr(hi)
    u = rng.random(mean.shape)
    with np.errstate(divide="ignore", under="ignore"):
        log_p = log_hi + np.log(u + (1.0 - u) * np.exp(log_lo - log_hi))
    x = np.clip(special.ndtri_exp(np.minimum(log_p, 0.0)), lo, hi)
    x = np.where(flip, -x, x)
    return np.clip(mean + sd * x, low, high)


def truncated_gamma_above(rng, shape, rate, lower):
    """Draws of ``Gamma(shape, rate)`` truncated to ``(lower, inf)``.

    A plain gamma draw, redrawn by the inverse cdf where it falls below
    ``lower`` (rarely: the bound is the precision of a standard deviation
    1000 times the data's); all the mass beyond double precision piles
    at ``lower``.
    """
    rate = np.maximum(rate, 1e-200)  # a precision beyond 1/SIGMA_FLOOR² anyway
    draws = rng.standard_gamma(shape, size=rate.shape) / rate
    low = draws < lower
    if np.any(low):
        shape_low = np.broadcast_to(shape, rate.shape)[low]
        scaled = rate[low] * np.broadcast_to(lower, rate.shape)[low]
        tail = special.gammaincc(shape_low, scaled)
        u = rng.random(tail.shape)
        redrawn = special.gammainccinv(shape_low, u * tail) / rate[low]
        bound = np.broadcast_to(lower, rate.shape)[low]
        draws[low] = np.where(tail > 0, np.maximum(redrawn, bound), bound)
    return np.minimum(draws, SIGMA_FLOOR**-2)


def nu_prior_logpdf(nu):
    """Log density of ν when ``ν - 1 ~ Gamma(a, rate b)``, a and b uniform.

    Integrating b out exactly,
    ``p(y) = 1/(0.09 y²) ∫_1^2 a [P(a+1, 0.1y) - P(a+1, 0.01y)] da``
    (``y = ν - 1``, P the regularised lower incomplete gamma), the integral
    over a by 24-point Gauss–Legendre quadrature.
    """
    y = np.asarray(nu, dtype=float) - 1.0
    nodes, weights = _GAUSS_A
    half = (A_BOUNDS[1] - A_BOUNDS[0]) / 2
    a = A_BOUNDS[0] + half * (nodes + 1.0)
    shape = a + 1.0
    y_ = np.maximum(y, np.finfo(float).tiny)[..., None]
    low, high = B_BOUNDS[0] * y_, B_BOUNDS[1] * y_
    # P(high) - P(low), from the upper tail where both are near 1.
    upper = low > shape
    mass = np.where(
        upper,
        special.gammaincc(shape, low) - special.gammaincc(shape, high),
        special.gammainc(shape, high) - special.gammainc(shape, low),
    )
    integral = half * np.sum(weights * a * mass, axis=-1)
    width = (A_BOUNDS[1] - A_BOUNDS[0]) * (B_BOUNDS[1] - B_BOUNDS[0])
    with np.errstate(divide="ignore"):
        out = np.log(integral) - np.log(width) - 2.0 * np.log(y_[..., 0])
    return np.where(y > 0, out, -np.inf)


def _t_loglik_nu(nu, r2, n_datasets):
    """``Σ_i log t_ν(r_i)`` up to terms free of ν; ``r2`` (chains, q)."""
    half = nu / 2.0
    return n_datasets * (
        special.gammaln(half + 0.5) - special.gammaln(half) - 0.5 * np.log(nu)
    ) - (half + 0.5) * np.sum(np.log1p(r2 / nu[:, None]), axis=1)


# --------------------------------------------------------------------------
# The sampler
# --------------------------------------------------------------------------


class _Model:
    """The data as the sampler sees them: sufficient statistics and bounds.

    ``xbar``, ``ss`` (and ``rho``) of shape (q,) are shared by every chain;
    of shape (n_chains, q), each chain has its own data (simulation-based
    calibration runs one replication per chain).
    """

    def __init__(self, xbar, ss, n_splits, rho, delta_bound, sigma0_bound, sigma_bound):
        self.xbar = np.asarray(xbar, dtype=float)
        self.ss = np.asarray(ss, dtype=float)
        self.n = int(n_splits)
        self.rho = np.broadcast_to(np.asarray(rho, dtype=float), self.xbar.shape)
        self.c = (1.0 + (self.n - 1) * self.rho) / self.n
        self.e = 1.0 - self.rho
        self.q = self.xbar.shape[-1]
        self.delta_bound = float(delta_bound)
        self.sigma0_bound = float(sigma0_bound)
        self.sigma_bound = float(sigma_bound)


def _initial_state(model, n_chains, rng):
    """Dispersed starting points (so R-hat can see chains that disagree)."""
    m, q = model, model.q
    spread = np.std(m.xbar, axis=-1) + np.sqrt(np.mean(m.ss, axis=-1) / m.n)
    d0 = np.clip(
        np.mean(m.xbar, axis=-1) + spread * rng.standard_normal(n_chains),
        -0.99 * m.delta_bound,
        0.99 * m.delta_bound,
    )
    s0 = np.clip(
        spread * np.exp(rng.uniform(-1.5, 1.5, n_chains)),
        SIGMA_FLOOR,
        0.99 * m.sigma0_bound,
    )
    sd = np.sqrt(m.ss / ((m.n - 1) * m.e))
    sigma = np.clip(
        sd * np.exp(rng.uniform(-0.5, 0.5, (n_chains, q))),
        SIGMA_FLOOR,
        0.99 * m.sigma_bound,
    )
    delta = m.xbar + sigma * np.sqrt(m.c) * rng.standard_normal((n_chains, q))
    nu = 1.0 + np.exp(rng.uniform(np.log(0.5), np.log(50.0), n_chains))
    lam = np.ones((n_chains, q))
    return Bunch(d0=d0, s0=s0, sigma=sigma, delta=delta, nu=nu, lam=lam)


def _sweep(model, state, rng, step, n_mh=2):
    """One Gibbs sweep over every parameter; returns the MH acceptances."""
    m, s = model, state
    n_chains = s.d0.size
    # 1. δ_i | rest: prior N(δ₀, σ₀²/λ_i), likelihood x̄_i ~ N(δ_i, σ_i² c_i).
    prior_prec = s.lam / s.s0[:, None] ** 2
    lik_prec = 1.0 / (s.sigma**2 * m.c)
    var = 1.0 / (prior_prec + lik_prec)
    mean = var * (prior_prec * s.d0[:, None] + lik_prec * m.xbar)
    s.delta = mean + np.sqrt(var) * rng.standard_normal(mean.shape)
    # 2. centred: δ₀ | δ, λ, σ₀ and σ₀ | δ, λ, δ₀.
    lam_sum = s.lam.sum(axis=1)
    s.d0 = truncated_normal(
        rng,
        (s.lam * s.delta).sum(axis=1) / lam_sum,
        s.s0 / np.sqrt(lam_sum),
        -m.delta_bound,
        m.delta_bound,
    )
    quad = (s.lam * (s.delta - s.d0[:, None]) ** 2).sum(axis=1)
    prec0 = truncated_gamma_above(rng, (m.q - 1) / 2.0, quad / 2.0, m.sigma0_bound**-2)
    s.s0 = np.maximum(1.0 / np.sqrt(prec0), SIGMA_FLOOR)
    # 3. non-centred: z fixed, x̄_i - σ₀ z_i ~ N(δ₀, v_i), then
    #    x̄_i - δ₀ ~ N(σ₀ z_i, v_i); the δ_i follow.
    z = (s.delta - s.d0[:, None]) / s.s0[:, None]
    w = lik_prec
    w_sum = w.sum(axis=1)
    s.d0 = truncated_normal(
        rng,
        (w * (m.xbar - s.s0[:, None] * z)).sum(axis=1) / w_sum,
        1.0 / np.sqrt(w_sum),
        -m.delta_bound,
        m.delta_bound,
    )
    wz2 = np.maximum((w * z * z).sum(axis=1), np.finfo(float).tiny)
    s.s0 = truncated_normal(
        rng,
        (w * z * (m.xbar - s.d0[:, None])).sum(axis=1) / wz2,
        1.0 / np.sqrt(wz2),
        SIGMA_FLOOR,
        m.sigma0_bound,
    )
    s.delta = s.d0[:, None] + s.s0[:, None] * z
    # 4. σ_i | δ_i: precision ~ Gamma((n-1)/2, A_i/2) above 1/S².
    quad_i = (m.xbar - s.delta) ** 2 / m.c + m.ss / m.e
    prec = truncated_gamma_above(rng, (m.n - 1) / 2.0, quad_i / 2.0, m.sigma_bound**-2)
    s.sigma = np.maximum(1.0 / np.sqrt(prec), SIGMA_FLOOR)
    # 5. ν | δ, δ₀, σ₀ (λ integrated out), then λ | ν.
    r2 = ((s.delta - s.d0[:, None]) / s.s0[:, None]) ** 2
    log_y = np.log(s.nu - 1.0)
    current = nu_prior_logpdf(s.nu) + log_y + _t_loglik_nu(s.nu, r2, m.q)
    accepted = np.zeros(n_chains)
    for _ in range(n_mh):
        proposal_log_y = log_y + step * rng.standard_normal(n_chains)
        nu_new = 1.0 + np.exp(proposal_log_y)
        proposed = (
            nu_prior_logpdf(nu_new) + proposal_log_y + _t_loglik_nu(nu_new, r2, m.q)
        )
        accept = np.log(rng.random(n_chains)) < proposed - current
        log_y = np.where(accept, proposal_log_y, log_y)
        current = np.where(accept, proposed, current)
        accepted += accept
    s.nu = 1.0 + np.exp(log_y)
    s.lam = rng.standard_gamma((s.nu[:, None] + 1.0) / 2.0, size=r2.shape) / (
        (s.nu[:, None] + r2) / 2.0
    )
    return accepted / n_mh


def run_sampler(model, *, n_draws, n_chains, n_warmup, rng, keep_datasets=False):
    """Draws of the posterior, shape (n_chains, n_draws) for each scalar.

    Returns a Bunch ``delta0``, ``sigma0``, ``nu`` (n_chains, n_draws),
    ``delta_mean`` (the posterior means of the ``δ_i``, (n_chains, q)) and,
    with ``keep_datasets``, the draws ``delta`` and ``sigma``
    (n_chains, n_draws, q).
    """
    state = _initial_state(model, n_chains, rng)
    step = np.full(n_chains, 1.0)
    # Warm-up: Robbins–Monro on the log step, to 44% acceptance.
    for t in range(n_warmup):
        rate = _sweep(model, state, rng, step)
        step = step * np.exp((rate - 0.44) / np.sqrt(t + 1.0))
    out = Bunch(
        delta0=np.empty((n_chains, n_draws)),
        sigma0=np.empty((n_chains, n_draws)),
        nu=np.empty((n_chains, n_draws)),
        delta_mean=np.zeros((n_chains, model.q)),
    )
    if keep_datasets:
        out.delta = np.empty((n_chains, n_draws, model.q))
        out.sigma = np.empty((n_chains, n_draws, model.q))
    accepted = np.zeros(n_chains)
    for t in range(n_draws):
        accepted += _sweep(model, state, rng, step)
        out.delta0[:, t], out.sigma0[:, t], out.nu[:, t] = state.d0, state.s0, state.nu
        out.delta_mean += state.delta
        if keep_datasets:
            out.delta[:, t], out.sigma[:, t] = state.delta, state.sigma
    out.delta_mean /= n_draws
    out.acceptance = float(np.mean(accepted) / n_draws)
    return out


# --------------------------------------------------------------------------
# Convergence diagnostics (Gelman et al. 2013, BDA3 §11.4-11.5; Stan)
# --------------------------------------------------------------------------


def _split_chains(draws):
    """(n_chains, n) -> (2 n_chains, n // 2): each chain's halves."""
    half = draws.shape[1] // 2
    return np.concatenate([draws[:, :half], draws[:, half : 2 * half]])


def split_rhat(draws):
    """Split-R̂ of (n_chains, n_draws) draws; 1 for constant draws."""
    chains = _split_chains(np.asarray(draws, dtype=float))
    n = chains.shape[1]
    within = np.mean(np.var(chains, axis=1, ddof=1))
    between = n * np.var(np.mean(chains, axis=1), ddof=1)
    if within <= 0:
        return 1.0
    var_plus = (n - 1) / n * within + between / n
    return float(np.sqrt(var_plus / within))


def effective_sample_size(draws):
    """Multi-chain effective sample size of (n_chains, n_draws) draws.

    Stan's estimator on split chains: autocorrelations combined over
    chains, summed by Geyer's initial monotone sequence.
    """
    chains = _split_chains(np.asarray(draws, dtype=float))
    m, n = chains.shape
    centred = chains - chains.mean(axis=1, keepdims=True)
    size = 1 << int(np.ceil(np.log2(2 * n)))
    spectrum = np.fft.rfft(centred, size, axis=1)
    acov = np.fft.irfft(spectrum * np.conj(spectrum), size, axis=1)[:, :n] / n
    within = np.mean(acov[:, 0] * n / (n - 1))
    if within <= 0:
        return float(m * n)
    var_plus = within * (n - 1) / n + np.var(chains.mean(axis=1), ddof=1)
    rho = 1.0 - (within - acov.mean(axis=0)) / var_plus
    rho[0] = 1.0
    pairs = rho[: 2 * (n // 2)].reshape(-1, 2).sum(axis=1)
    positive = np.flatnonzero(pairs <= 0)
    pairs = pairs[: positive[0]] if positive.size else pairs
    pairs = np.minimum.accumulate(pairs)
    tau = -1.0 + 2.0 * pairs.sum()
    return float(m * n / max(tau, 1.0 / np.log10(m * n)))


# --------------------------------------------------------------------------
# The test
# --------------------------------------------------------------------------


#: Bounds of the sampler's sizes, refused before any work: one to three
#: minutes for a million draws and about a minute for 100,000 warm-up
#: sweeps on 10 data sets (time grows linearly in each;
#: benchmarks/bench_size_bounds.py). The Monte Carlo error of a probability
#: is below 0.001 long before the draws' bound; a few chains suffice for
#: R-hat.
MAX_SAMPLES = 10**6
MAX_CHAINS = 100
MAX_WARMUP = 10**5


def check_sampler_sizes(n_samples, n_chains, n_warmup):
    """The sizes of an MCMC run, checked before any work: ``n_samples``
    kept draws in all (at least 4 per chain: split R-hat needs two halves of
    two draws), ``n_chains`` and ``n_warmup``, each within its bound."""
    more = "more only costs time"
    n_samples = check_integer(
        n_samples, name="n_samples", low=4, high=MAX_SAMPLES, why=more
    )
    n_chains = check_integer(
        n_chains, name="n_chains", low=1, high=MAX_CHAINS, why=more
    )
    check_integer(n_warmup, name="n_warmup", low=0, high=MAX_WARMUP, why=more)
    if n_samples < 4 * n_chains:
        raise ValueError(
            f"n_samples must be at least 4 per chain (split R-hat needs 2 halves "
            f"of 2 draws); got n_samples={n_samples} for n_chains={n_chains}."
        )


def _check_params(
    *,
    rope=0.0,
    n_samples=20000,
    n_chains=4,
    n_warmup=1000,
    random_state=None,
    score_scale=None,
    rho=None,
):
    """The test's own parameters, checked before any fit."""
    check_score_scale(score_scale)
    check_rho(rho)
    _check_rope(rope)
    check_sampler_sizes(n_samples, n_chains, n_warmup)
    check_random_state(random_state)


def _rng(random_state):
    """The sampler's own Generator (never numpy's global state)."""
    if random_state is None:
        return np.random.default_rng()
    entropy, _ = _entropy(random_state)
    return _generator(entropy, 0)


def _orientation(d):
    """-1 when the first nonzero difference (in row order) is negative,
    else 1: the sign that makes ``d`` and ``-d`` the same input."""
    nonzero = np.flatnonzero(d)
    return -1.0 if nonzero.size and d.flat[nonzero[0]] < 0 else 1.0


def _prepare(d, rope, rng, tolerance=0.0):
    """Scaled sufficient statistics and prior bounds, as baycomp.

    ``d`` has its ties in the user's units exact already (``tolerance`` is
    the tie rule's, in its units: equal data-set means are equal). Returns
    ``(model, (factor, exponent), rope_scaled, jittered)``, the differences
    having been divided by ``factor·2**exponent``, or None when every
    difference is 0.
    """
    # A power of two first (exact), so nothing overflows in the variances.
    d, exponent = power_of_two_scale(d, axis=None)
    if not np.any(d):
        return None
    tolerance = unscale(tolerance, -int(exponent))
    n_splits = d.shape[1]
    # baycomp's unit, the mean within-data-set sd, floored at 2**-200 of the
    # largest |difference| (itself in [1/2, 1) here): data sets whose means
    # spread 60 orders of magnitude beyond their own noise would otherwise
    # overflow the squares of the sampler. Ordinary inputs never reach it.
    # A constant data set has sd 0 exactly (np.std rounds its mean).
    scale = float(np.mean(np.where(np.ptp(d, axis=1) == 0, 0.0, np.std(d, axis=1))))
    if scale == 0:  # every data set constant: the largest |difference|
        scale = float(np.max(np.abs(d)))
    scale = max(scale, 2.0**-200 * float(np.max(np.abs(d))))
    x = d / scale
    rope_scaled = float(unscale(rope, -exponent)) / scale
    # baycomp's jitter of a data set of zero variance: ±u on its halves,
    # here around its (kept) mean, u ~ U(-w, w), w the (scaled) rope.
    constant = np.flatnonzero(np.ptp(x, axis=1) == 0)
    if constant.size:
        width = rope_scaled if rope_scaled > 0 else ZERO_ROPE_JITTER
        width = min(width, 1e6)  # a rope dwarfing the differences
        half = n_splits // 2
        u = rng.uniform(-width, width, (constant.size, half))
        x = x.copy()
        x[constant, :half] += u
        x[constant, half : 2 * half] -= u
    std_within = float(np.mean(np.std(x, axis=1)))
    # Data-set means equal in the user's decimals are equal (their rounding
    # differs with the units), so equal means have no spread.
    means = merge_ties(np.mean(x, axis=1), tolerance / scale, anchors=())
    std_among = 0.0 if np.ptp(means) == 0 else float(np.std(means))
    if std_among == 0:
        std_among = std_within
    # σ₀'s prior bound (1000 std_among) above the sampler's floor, or its
    # truncated draws would have an empty interval.
    std_among = max(std_among, 10 * SIGMA_FLOOR)
    xbar = x.mean(axis=1)
    ss = np.sum((x - xbar[:, None]) ** 2, axis=1)
    return (
        Bunch(
            xbar=xbar,
            ss=ss,
            n_splits=n_splits,
            delta_bound=float(np.max(np.abs(x))),
            sigma0_bound=UPPER_SIGMA * std_among,
            sigma_bound=UPPER_SIGMA * std_within,
        ),
        (scale, int(exponent)),
        rope_scaled,
        constant,
    )


def region_masses(delta0, sigma0, nu, rope):
    """Masses of ``t_ν(δ₀, σ₀)`` beyond +rope, inside, below -rope.

    Returns an array (n, 3) of ``(θ_A, θ_rope, θ_B)``: A better (the mean
    difference of a new data set above ``rope``), practically equivalent,
    B better.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        upper = (delta0 - rope) / sigma0
        lower = (-rope - delta0) / sigma0
    theta_a = special.stdtr(nu, upper)
    theta_b = special.stdtr(nu, lower)
    theta_rope = np.clip(1.0 - theta_a - theta_b, 0.0, 1.0)
    return np.stack([theta_a, theta_rope, theta_b], axis=-1)


def _winning_shares(theta):
    """Share of draws in which each mass is the largest (ties shared)."""
    top = theta == theta.max(axis=1, keepdims=True)
    return tuple(float(p) for p in (top / top.sum(axis=1, keepdims=True)).mean(0))


def _point_mass_result(test, q, n_samples, alpha, alternative, rope):
    """Every difference 0: the posterior is a point mass at 0."""
    samples = np.tile(np.array([0.0, 1.0, 0.0], dtype=np.float32), (n_samples, 1))
    return make_result(
        test=test,
        statistic=0.0,
        pvalue=None,
        df=None,
        alpha=alpha,
        alternative=alternative,
        reject=False,
        p_a_better=0.0,
        p_rope=1.0,
        p_b_better=0.0,
        rope=rope,
        delta0=Bunch(mean=0.0, interval=(0.0, 0.0), std=0.0),
        delta=np.zeros(q),
        rhat=1.0,
        ess=float(n_samples),
        diagnostics=Bunch(),
        samples=samples,
        n_datasets=q,
        jittered=np.zeros(0, dtype=np.intp),
    )


def _diagnostics(draws, theta, rope):
    """Split-R̂ and ESS of δ₀, σ₀, ν and the masses (θ_rope only with a
    rope: without one it is 0)."""
    n_chains, n_draws = draws.delta0.shape
    quantities = {
        "delta0": draws.delta0,
        "sigma0": np.log(draws.sigma0),
        "nu": np.log(draws.nu - 1.0),
        "theta_a": theta[..., 0],
        **({"theta_rope": theta[..., 1]} if rope > 0 else {}),
        "theta_b": theta[..., 2],
    }
    out = Bunch()
    for name, values in quantities.items():
        values = values.reshape(n_chains, n_draws)
        if np.ptp(values) == 0:  # e.g. θ_rope with rope 0
            continue
        out[name] = Bunch(rhat=split_rhat(values), ess=effective_sample_size(values))
    return out


@register_test(
    "bayesian_hierarchical",
    needs=("split_differences", "n_train", "n_test"),
    kind="datasets",
    param_check=_check_params,
    role="pairwise",
    swap="negate",
    bayesian=True,
    display_name="Bayesian hierarchical test",
    rationale="each pair on its per-split scores, the data sets pooled in a "
    "hierarchical model of their mean differences: the probability that "
    "one is better or that both are equivalent within the rope",
    references=(CORANI_2017,),
    posterior="simplex",
)
def bayesian_hierarchical(
    split_differences,
    n_train,
    n_test,
    *,
    alpha=0.05,
    alternative="two-sided",
    rope=0.0,
    n_samples=20000,
    n_chains=4,
    n_warmup=1000,
    random_state=None,
    score_scale=None,
    rho=None,
):
    """Hierarchical Bayesian comparison of two estimators across data sets.

    Parameters
    ----------
    split_differences : array-like of shape (n_datasets, n_splits)
        ``score_a - score_b`` on each split of each data set's
        cross-validation; at least 2 data sets and 2 splits, finite.
    n_train : float or array-like of shape (n_datasets,)
        Training records per split on each data set (the mean where it
        varies).
    n_test : float or array-like of shape (n_datasets,)
        Test records per split. The correlation of the splits of data set
        i is ``ρ_i = n_test_i / (n_train_i + n_test_i)``: ``1/K`` for
        K-fold CV (baycomp's ``1 / n_folds``) and 1/2 for an m×2 design,
        as :func:`bayesian_correlated_t` and :func:`poisson_binomial`
        assume.
    alpha : float, default=0.05
        A posterior probability above ``1 - alpha`` is a decision; the
        credible interval of ``delta0`` has level ``1 - alpha``.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        Which decisions ``reject`` reports: ``"two-sided"`` either
        ``p_a_better > 1 - alpha`` or ``p_b_better > 1 - alpha``;
        ``"greater"`` only A better, ``"less"`` only B better.
    rope : float, default=0.0
        Half-width of the region of practical equivalence, in score units;
        finite and >= 0.
    n_samples : int, default=20000
        Posterior draws kept, over all chains (``n_samples // n_chains``
        per chain, at least 4), after ``n_warmup`` warm-up sweeps per chain;
        at most 1,000,000 (one to three minutes on 10 data sets; the Monte
        Carlo error of a probability is then far below 0.001).
    n_chains : int, default=4
        Independent chains, from dispersed starting points, sampled side by
        side (vectorised: more chains cost little more time per sweep); at
        most 100.
    n_warmup : int, default=1000
        Warm-up sweeps per chain (discarded; the Metropolis step of ν is
        tuned during them); at most 100,000 (about a minute). Larger sizes
        are refused before any work.
    random_state : int, RandomState instance or None, default=None
        Seeds the sampler's own :class:`numpy.random.Generator` (and the
        jitter of zero-variance data sets); an int gives the same result
        every call. numpy's global random state is never used.
    score_scale : float, default=None
        The largest magnitude of the scores the differences come from:
        differences (and data-set means) within ``2**-46`` times it of each
        other are equal, so a data set whose differences are equal in your
        decimals has zero variance whatever the units (the tie rule of
        :func:`wilcoxon`). None takes the largest of the ``|differences|``
        and the rope.
    rho : float, default=None
        The correlation of a data set's split differences, given directly
        instead of by the set sizes: 0 for independent runs (random seeds)
        of the estimators on each data set, where ``n_train`` and ``n_test``
        are not read (and may be None). None: ``n_test / (n_train +
        n_test)``.

    Returns
    -------
    result : :class:`~sklearn.utils.Bunch`
        With fields:

        statistic : float
            The posterior mean of ``θ_A - θ_B`` (positive when A is
            better), as :func:`bayesian_signed_rank`.
        pvalue, df : None
        p_a_better : float
            Share of posterior draws in which the mass of
            ``t_ν(δ₀, σ₀)`` above ``rope`` is the largest of the three:
            on the next data set A is more probably better than B
            (baycomp's ``p_right`` of its ``y - x``).
        p_rope : float
            Share in which the mass inside ``[-rope, rope]`` is.
        p_b_better : float
            Share in which the mass below ``-rope`` is.
        reject : bool
            A decision at level ``1 - alpha`` as ``alternative`` says.
        delta0 : :class:`~sklearn.utils.Bunch`
            Posterior of the mean difference ``δ₀`` (score units):
            ``mean``, ``std`` and the equal-tailed ``interval`` of level
            ``1 - alpha``.
        delta : ndarray of shape (n_datasets,)
            Posterior means of the data sets' mean differences ``δ_i``
            (score units): the raw means shrunk towards ``δ₀``.
        rhat : float
            The largest split-R̂ of ``δ₀``, ``log σ₀``, ``log(ν - 1)`` and
            the three masses.
        ess : float
            Their smallest effective sample size.
        diagnostics : :class:`~sklearn.utils.Bunch`
            R̂ and ESS of each of these quantities.
        samples : ndarray of shape (n_samples, 3), float32
            The posterior draws of the masses ``(θ_A, θ_rope, θ_B)``, the
            points of :class:`~sklearn_bcv.PosteriorSimplexDisplay`.
        rope : float
            The input.
        n_datasets : int
            q.
        jittered : ndarray of int
            The data sets of zero variance, jittered (see Notes).
        alternative, alpha, test : the inputs and
            ``"bayesian_hierarchical"``.

    Warns
    -----
    ConvergenceWarning
        When ``rhat > 1.01`` or ``ess < 400`` (Vehtari et al. 2021): the
        probabilities are then not to be trusted; raise ``n_samples`` (or
        ``n_warmup``).

    See Also
    --------
    poisson_binomial : Uses each data set's splits too, but its inference
        is about the data sets at hand.
    bayesian_signed_rank : One number per data set, a Dirichlet process.

    Notes
    -----
    The model (Corani, Benavoli, Demšar, Mangili and Zaffalon 2017): on
    data set i the n split differences ``x_i`` are multivariate normal with
    mean ``δ_i`` and covariance ``σ_i²`` times the matrix with 1 on the
    diagonal and ``ρ_i`` off it; the ``δ_i`` are drawn from a Student
    ``t_ν(δ₀, σ₀)``, the population of data sets. ``δ₀ ~ U(-D, D)``,
    ``σ₀ ~ U(0, 1000·s̄)``, ``σ_i ~ U(0, 1000·s)``,
    ``ν - 1 ~ Gamma(a, b)``, ``a ~ U(1, 2)``, ``b ~ U(0.01, 0.1)``, where,
    as in baycomp, everything is first divided by the mean of the
    data sets' standard deviations (ddof 0), D is the largest absolute
    (scaled) difference, s the mean standard deviation and s̄ the standard
    deviation of the data sets' means (s when it is 0). baycomp's Stan
    program writes the likelihood with the inverse of the correlation
    matrix; it depends on the differences only through their mean and sum
    of squares, which is what the sampler uses (see the module's
    docstring for the sweep). The answer is about the next data set: the
    posterior of the masses that ``t_ν(δ₀, σ₀)`` puts beyond the rope on
    either side and inside it; ``p_a_better`` is the share of draws in
    which A's mass is the largest, as baycomp's ``probs()``.

    A data set whose differences are all equal has no variance and an
    improper posterior of ``σ_i``; baycomp replaces its differences by
    ``±u``, ``u ~ U(-rope, rope)`` (scaled), which also moves its mean to
    0. Here ``±u`` is added to the equal differences, so the mean is
    kept (the same when they are 0, the usual case: identical
    predictions); with ``rope = 0`` baycomp's jitter is nothing and Stan's
    posterior improper, and here ``u ~ U(-1, 1)`` in units of the mean
    standard deviation (a data set of identical predictions is then read
    as a typical data set with that mean, not as a certain one).
    ``jittered`` lists these data sets. When every difference is 0 the
    posterior is a point mass at 0: ``p_rope = 1``.

    The sampler mixes well when the data sets' differences are roughly
    bell-shaped (effective sample sizes of 20 to 75% of the draws); on very
    heterogeneous data sets that include many on which the two estimators
    agree exactly (a spike at 0 beside heavy tails) it mixes slowly, and a
    chain may stay in a second mode of (σ₀, ν); R̂ and the effective sample
    size then trigger the warning (``doc/reproduction.rst``).

    baycomp's ``HierarchicalTest`` needs pystan and a C++ compiler,
    compiles the model on first use (about a minute), does not pass its
    ``random_state`` to Stan (two runs differ), and keeps the last
    posterior in ``./last-sample.pickle``, keyed on the differences but not
    on ``nsamples`` or ``chains``, so a second call with another sample size
    in the same directory returns the first answer. None of that applies
    here; on the same inputs the probabilities agree with Stan's within
    Monte Carlo error (``doc/reproduction.rst``).

    References
    ----------
    .. [1] G. Corani, A. Benavoli, J. Demšar, F. Mangili, M. Zaffalon,
       "Statistical comparison of classifiers through Bayesian hierarchical
       modelling", Machine Learning 106(11):1817-1837, 2017.
    .. [2] Y. Yu, X.-L. Meng, "To center or not to center: that is not the
       question -- an ancillarity-sufficiency interweaving strategy (ASIS)
       for boosting MCMC efficiency", Journal of Computational and Graphical
       Statistics 20(3):531-570, 2011.
    .. [3] A. Vehtari, A. Gelman, D. Simpson, B. Carpenter, P.-C. Bürkner,
       "Rank-normalization, folding, and localization: an improved R-hat
       for assessing convergence of MCMC", Bayesian Analysis 16(2):667-718,
       2021.

    Examples
    --------
    Ten data sets, 10-fold CV: A is better on most by about one point.

    >>> import numpy as np
    >>> from sklearn_bcv.stats import bayesian_hierarchical
    >>> rng = np.random.default_rng(0)
    >>> d = 0.01 + 0.005 * rng.standard_normal((10, 1)) \\
    ...     + 0.02 * rng.standard_normal((10, 10))
    >>> result = bayesian_hierarchical(d, n_train=900, n_test=100, rope=0.01,
    ...                                random_state=0)
    >>> [round(result[k], 1) for k in ("p_a_better", "p_rope", "p_b_better")]
    [0.6, 0.4, 0.0]
    >>> round(result.delta0.mean, 3), [round(v, 3) for v in result.delta0.interval]
    (0.011, [0.003, 0.019])
    >>> bool(result.rhat < 1.01), bool(result.ess > 400)
    (True, True)

    On the next data set A is better than B by more than one point with
    posterior probability 0.6, and practically equivalent with 0.4; the
    mean difference δ₀ is about one point (95% interval 0.3 to 1.9).
    """
    test = "bayesian_hierarchical"
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, test=test)
    _check_params(
        rope=rope,
        n_samples=n_samples,
        n_chains=n_chains,
        n_warmup=n_warmup,
        random_state=random_state,
        rho=rho,
    )
    rope = float(rope)
    d = merged_split_differences(split_differences, test, score_scale, rope)
    tolerance = np.ravel(difference_tolerance(d, score_scale, rope, split=True))
    q = d.shape[0]
    if q < 2:
        raise ValueError(
            f"{test} needs at least 2 data sets; got split_differences with {q}."
        )
    n_train, n_test = sizes_or_rho(n_train, n_test, rho, q)
    # ρ = 1 (n_test / n_train beyond double precision) would make the
    # splits identical copies; kept just below it.
    with np.errstate(over="ignore"):
        rho = np.broadcast_to(n_test / (np.asarray(n_train) + n_test), (q,))
    rho = np.minimum(rho, 1.0 - 1e-12)
    rng = _rng(random_state)
    # The sampler runs on the differences oriented by their first nonzero
    # one, and its draws of δ are turned back: B against A gives exactly the
    # mirrored posterior of A against B (not another Monte Carlo draw), so
    # the order of the estimators cannot change the answer.
    orientation = _orientation(d)
    prepared = _prepare(orientation * d, rope, rng, tolerance)
    if prepared is None:
        return _point_mass_result(test, q, n_samples, alpha, alternative, rope)
    stats, scale, rope_scaled, jittered = prepared
    model = _Model(
        stats.xbar,
        stats.ss,
        stats.n_splits,
        rho,
        stats.delta_bound,
        stats.sigma0_bound,
        stats.sigma_bound,
    )
    draws = run_sampler(
        model,
        n_draws=n_samples // n_chains,
        n_chains=n_chains,
        n_warmup=n_warmup,
        rng=rng,
    )
    draws.delta0 = orientation * draws.delta0
    draws.delta_mean = orientation * draws.delta_mean
    theta = region_masses(draws.delta0, draws.sigma0, draws.nu, rope_scaled)
    diagnostics = _diagnostics(draws, theta, rope_scaled)
    rhat = max(v.rhat for v in diagnostics.values())
    ess = min(v.ess for v in diagnostics.values())
    if rhat > RHAT_MAX or ess < ESS_MIN:
        warnings.warn(
            f"{test}: the sampler may not have converged (R-hat {rhat:.3f}, "
            f"effective sample size {ess:.0f}; want R-hat <= {RHAT_MAX} and "
            f"ESS >= {ESS_MIN}). Increase n_samples or n_warmup.",
            ConvergenceWarning,
            stacklevel=2,
        )
    theta = theta.reshape(-1, 3)
    p_a_better, p_rope, p_b_better = _winning_shares(theta)
    # In scaled units, then to score units (±inf beyond the largest double).
    factor, exponent = scale
    delta0 = draws.delta0.ravel()
    summary = np.r_[
        np.mean(delta0),
        np.std(delta0),
        np.quantile(delta0, [alpha / 2, 1 - alpha / 2]),
        draws.delta_mean.mean(axis=0),
    ]
    summary = unscale(summary * factor, exponent)
    return make_result(
        test=test,
        statistic=float(np.mean(theta[:, 0]) - np.mean(theta[:, 2])),
        pvalue=None,
        df=None,
        alpha=alpha,
        alternative=alternative,
        reject=posterior_decision(p_a_better, p_b_better, alpha, alternative),
        p_a_better=p_a_better,
        p_rope=p_rope,
        p_b_better=p_b_better,
        rope=rope,
        delta0=Bunch(
            mean=float(summary[0]),
            std=float(summary[1]),
            interval=(float(summary[2]), float(summary[3])),
        ),
        delta=summary[4:],
        rhat=float(rhat),
        ess=float(ess),
        diagnostics=diagnostics,
        samples=theta.astype(np.float32),
        n_datasets=q,
        jittered=jittered,
    )
