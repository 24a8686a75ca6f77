"""Hierarchical Bayesian comparison across data sets (stats._hierarchical)."""

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy import special, stats
from sklearn.exceptions import ConvergenceWarning

from sklearn_bcv import compare_scores, get_test
from sklearn_bcv.simulation._hierarchical import (
    CALIBRATED,
    calibration_ranks,
    rank_uniformity,
)
from sklearn_bcv.stats import bayesian_hierarchical
from sklearn_bcv.stats._hierarchical import (
    effective_sample_size,
    nu_prior_logpdf,
    split_rhat,
    truncated_gamma_above,
    truncated_normal,
)

STAN = json.loads((Path(__file__).parent / "_stan_hierarchical.json").read_text())


def _example(q=10, seed=0, effect=0.01):
    rng = np.random.default_rng(seed)
    return (
        effect
        + 0.005 * rng.standard_normal((q, 1))
        + 0.02 * rng.standard_normal((q, 10))
    )


# --------------------------------------------------------------------------
# Agreement with Stan (baycomp's program) and with quadrature
# --------------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(STAN))
def test_agrees_with_stan_on_fixed_inputs(case):
    """baycomp's Stan program, 4 chains × 10,000 draws (NUTS), on three
    inputs (benchmarks/stan_hierarchical_reference.py): the probabilities
    within Monte Carlo error (about 0.005 for each run), δ₀'s posterior
    mean and standard deviation within 3%."""
    ref = STAN[case]
    d = np.array(ref["diff"])
    n_train, n_test = (50, 50) if ref["runs"] == 5 else (90, 10)
    result = bayesian_hierarchical(d, n_train, n_test, rope=ref["rope"], random_state=0)
    for key in ("p_a_better", "p_rope", "p_b_better"):
        assert result[key] == pytest.approx(ref[key], abs=0.025), key
    assert result.delta0.mean == pytest.approx(
        ref["delta0_mean"], abs=0.05 * ref["delta0_sd"]
    )
    assert result.delta0.std == pytest.approx(ref["delta0_sd"], rel=0.03)
    assert result.rhat < 1.01 and result.ess > 400


@pytest.mark.slow
def test_agrees_with_baycomp_run_now(tmp_path, monkeypatch):
    pytest.importorskip("stan")
    baycomp = pytest.importorskip("baycomp")
    monkeypatch.chdir(tmp_path)  # baycomp writes ./last-sample.pickle
    ref = STAN["six_10fold"]
    d = np.array(ref["diff"])
    x = np.zeros_like(d)
    p_b, p_rope, p_a = baycomp.HierarchicalTest.probs(x, d, rope=0.01)
    ours = bayesian_hierarchical(d, 90, 10, rope=0.01, random_state=1)
    assert (ours.p_a_better, ours.p_rope, ours.p_b_better) == pytest.approx(
        (p_a, p_rope, p_b), abs=0.025
    )


def _nu_prior_2d(y, n_nodes=64):
    """p(ν - 1) by 2-D Gauss–Legendre over a ~ U(1, 2), b ~ U(0.01, 0.1)
    of the gamma density: independent of the closed form in b."""
    x, w = np.polynomial.legendre.leggauss(n_nodes)
    a, wa = 1.5 + 0.5 * x, 0.5 * w
    b, wb = 0.055 + 0.045 * x, 0.045 * w
    grid_a, grid_b = np.meshgrid(a, b, indexing="ij")
    density = stats.gamma.pdf(np.asarray(y)[..., None, None], grid_a, scale=1 / grid_b)
    return np.sum(np.outer(wa, wb) / 0.09 * density, axis=(-2, -1))


def test_nu_prior_matches_a_two_dimensional_integral():
    y = np.array([1e-3, 0.1, 1.0, 5.0, 20.0, 100.0, 800.0, 3000.0])
    np.testing.assert_allclose(
        np.exp(nu_prior_logpdf(1.0 + y)), _nu_prior_2d(y), rtol=1e-6
    )
    assert nu_prior_logpdf(np.array([1.0, 0.5]))[0] == -np.inf


def _posterior_by_quadrature(x, rho, n_d0=24, n_s0=32, n_nu=20, n_nodes=100):
    """Posterior mean, sd and P(δ₀ > 0) of the model on scaled data x, by
    quadrature: Gauss–Legendre over δ₀ (each half of (-D, D)), log σ₀ and
    log(ν - 1); σ_i integrated out in closed form,
    ``∫_0^S σ^-n exp(-A/2σ²) dσ ∝ A^-(n-1)/2 Q((n-1)/2, A/2S²)``; and each
    δ_i by the trapezoidal rule on nodes around δ₀ and around x̄_i."""
    q, n = x.shape
    xbar = x.mean(1)
    ss = ((x - xbar[:, None]) ** 2).sum(1)
    bound, s0_hi, s_hi = np.abs(x).max(), 1000 * xbar.std(), 1000 * x.std(1).mean()
    k = (n - 1) / 2
    g, gw = np.polynomial.legendre.leggauss(n_d0 // 2)
    d0 = np.r_[-bound / 2 + bound / 2 * g, bound / 2 + bound / 2 * g]
    w_d0 = np.r_[bound / 2 * gw, bound / 2 * gw]
    g, gw = np.polynomial.legendre.leggauss(n_s0)
    lo, hi = np.log(1e-5), np.log(s0_hi)
    s0 = np.exp((lo + hi) / 2 + (hi - lo) / 2 * g)
    w_s0 = (hi - lo) / 2 * gw * s0
    g, gw = np.polynomial.legendre.leggauss(n_nu)
    lo, hi = np.log(1e-4), np.log(2e4)
    y = np.exp((lo + hi) / 2 + (hi - lo) / 2 * g)
    nu = 1 + y
    w_nu = (hi - lo) / 2 * gw * y * _nu_prior_2d(y)
    c, e = (1 + (n - 1) * rho) / n, 1 - rho
    width = np.sqrt(ss / ((n - 1) * e) * c)
    u_t = np.sinh(np.linspace(-7, 7, n_nodes))
    u_l = np.sinh(np.linspace(-4.5, 4.5, n_nodes))
    log_w = np.zeros((d0.size, s0.size, nu.size))
    for j, sj in enumerate(s0):
        for i in range(q):
            nodes = np.sort(
                np.concatenate(
                    [
                        d0[:, None] + sj * u_t,
                        np.broadcast_to(xbar[i] + width[i] * u_l, (d0.size, n_nodes)),
                    ],
                    axis=1,
                ),
                axis=1,
            )
            a = (xbar[i] - nodes) ** 2 / c + ss[i] / e
            with np.errstate(divide="ignore"):
                log_l = -k * np.log(a) + np.log(special.gammaincc(k, a / (2 * s_hi**2)))
            z = (nodes[:, None, :] - d0[:, None, None]) / sj
            log_t = stats.t.logpdf(z, nu[None, :, None]) - np.log(sj)
            top = log_l.max()
            f = np.exp(log_t + log_l[:, None, :] - top)
            log_w[:, j, :] += np.log(np.trapezoid(f, nodes[:, None, :], axis=-1)) + top
    weights = np.exp(log_w - log_w.max())
    weights *= w_d0[:, None, None] * w_s0[None, :, None] * w_nu[None, None, :]
    marginal = weights.sum(axis=(1, 2)) / weights.sum()
    mean = np.sum(marginal * d0)
    sd = np.sqrt(np.sum(marginal * (d0 - mean) ** 2))
    return mean, sd, marginal[d0 > 0].sum()


def test_agrees_with_quadrature():
    """Four data sets, 10-fold CV: δ₀'s posterior by quadrature (converged
    to 5e-4 in P(δ₀ > 0) on this grid) against the sampler. With rope 0,
    ``p_a_better`` is P(δ₀ > 0): the mass of t_ν(δ₀, σ₀) above 0 is the
    largest exactly when δ₀ > 0."""
    rng = np.random.default_rng(3)
    d = 0.015 + 0.01 * rng.standard_normal((4, 1)) + 0.02 * rng.standard_normal((4, 10))
    scale = d.std(axis=1).mean()  # the scaling of baycomp and of the test
    mean, sd, p_positive = _posterior_by_quadrature(d / scale, 0.1)
    result = bayesian_hierarchical(d, 90, 10, random_state=0)
    se = sd * scale / np.sqrt(result.diagnostics.delta0.ess)
    assert result.delta0.mean == pytest.approx(mean * scale, abs=4 * se)
    assert result.delta0.std == pytest.approx(sd * scale, rel=0.03)
    assert result.p_a_better == pytest.approx(p_positive, abs=0.015)


# --------------------------------------------------------------------------
# Simulation-based calibration
# --------------------------------------------------------------------------


def test_simulation_based_calibration_small():
    """Talts et al. (2018): the rank of each true parameter among 199
    thinned draws is uniform when the sampler is right (100 replications
    here; 1,000 in the slow test and benchmarks/sbc_hierarchical.py)."""
    ranks, n_ranked = calibration_ranks(
        100, n_draws=995, thin=5, n_warmup=200, random_state=11
    )
    assert n_ranked == 199
    for name in CALIBRATED:
        counts, pvalue = rank_uniformity(ranks[name], n_ranked)
        assert pvalue > 1e-3, (name, counts)


@pytest.mark.slow
def test_simulation_based_calibration_large():
    ranks, n_ranked = calibration_ranks(1000, random_state=1)
    for name in CALIBRATED:
        counts, pvalue = rank_uniformity(ranks[name], n_ranked)
        assert pvalue > 1e-3, (name, counts)


# --------------------------------------------------------------------------
# The small samplers and the diagnostics
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "mean, sd, low, high",
    [
        (0.0, 1.0, -1.0, 2.0),
        (0.0, 1.0, 3.0, 5.0),
        (0.0, 1.0, -40.0, -38.0),
        (5.0, 0.1, -1.0, 1.0),
        (0.0, 2.0, 0.0, np.inf),
    ],
)
def test_truncated_normal_matches_scipy(mean, sd, low, high):
    rng = np.random.default_rng(0)
    draws = truncated_normal(rng, np.full(4000, mean), sd, low, high)
    assert np.all((draws >= low) & (draws <= high))
    a, b = (low - mean) / sd, (high - mean) / sd
    reference = stats.truncnorm(a, b, loc=mean, scale=sd)
    assert stats.kstest(draws, reference.cdf).pvalue > 1e-3


@pytest.mark.parametrize("shape, rate, lower", [(0.5, 2.0, 0.1), (4.5, 1.0, 8.0)])
def test_truncated_gamma_matches_the_conditional_law(shape, rate, lower):
    rng = np.random.default_rng(1)
    draws = truncated_gamma_above(rng, shape, np.full(4000, rate), lower)
    assert np.all(draws >= lower)
    law = stats.gamma(shape, scale=1 / rate)

    def cdf(x):
        return (law.cdf(x) - law.cdf(lower)) / law.sf(lower)

    assert stats.kstest(draws, cdf).pvalue > 1e-3


def test_diagnostics_on_known_chains():
    rng = np.random.default_rng(2)
    independent = rng.standard_normal((4, 2000))
    assert split_rhat(independent) == pytest.approx(1.0, abs=0.01)
    assert effective_sample_size(independent) == pytest.approx(8000, rel=0.15)
    # AR(1) with phi = 0.9: ESS = n (1 - phi) / (1 + phi).
    ar = np.zeros((4, 4000))
    noise = rng.standard_normal(ar.shape)
    for t in range(1, ar.shape[1]):
        ar[:, t] = 0.9 * ar[:, t - 1] + noise[:, t]
    assert effective_sample_size(ar) == pytest.approx(16000 / 19, rel=0.25)
    shifted = independent + np.arange(4)[:, None]
    assert split_rhat(shifted) > 1.5


# --------------------------------------------------------------------------
# The test's contract
# --------------------------------------------------------------------------


def test_reproducible_and_global_state_untouched():
    d = _example()
    before = np.random.get_state()[1].copy()  # noqa: NPY002
    first = bayesian_hierarchical(d, 90, 10, n_samples=4000, random_state=3)
    second = bayesian_hierarchical(d, 90, 10, n_samples=4000, random_state=3)
    np.testing.assert_array_equal(np.random.get_state()[1], before)  # noqa: NPY002
    assert first.p_a_better == second.p_a_better
    np.testing.assert_array_equal(first.samples, second.samples)
    other = bayesian_hierarchical(d, 90, 10, n_samples=4000, random_state=4)
    assert other.delta0.mean != first.delta0.mean
    assert other.p_a_better == pytest.approx(first.p_a_better, abs=0.05)


def test_result_fields_and_symmetry():
    d = _example(effect=0.012)
    result = bayesian_hierarchical(d, 90, 10, rope=0.01, random_state=0, n_samples=8000)
    probabilities = (result.p_a_better, result.p_rope, result.p_b_better)
    assert sum(probabilities) == pytest.approx(1.0)
    assert result.samples.shape == (8000, 3) and result.samples.dtype == np.float32
    np.testing.assert_allclose(result.samples.sum(axis=1), 1.0, atol=1e-5)
    low, high = result.delta0.interval
    assert low < result.delta0.mean < high
    assert result.delta.shape == (10,) and result.pvalue is None
    # Shrinkage: the data sets' estimates lie between their raw means and δ₀.
    raw = d.mean(axis=1)
    assert np.all(
        np.abs(result.delta - result.delta0.mean)
        <= np.abs(raw - result.delta0.mean) + 1e-4
    )
    mirrored = bayesian_hierarchical(
        -d, 90, 10, rope=0.01, random_state=0, n_samples=8000
    )
    assert mirrored.p_b_better == pytest.approx(result.p_a_better, abs=0.03)
    assert mirrored.delta0.mean == pytest.approx(-result.delta0.mean, rel=0.05)


def test_decisions_follow_alternative():
    d = _example(effect=0.03)
    result = bayesian_hierarchical(d, 90, 10, random_state=0, n_samples=4000)
    assert result.p_a_better > 0.95 and result.reject
    assert not bayesian_hierarchical(
        d, 90, 10, alternative="less", random_state=0, n_samples=4000
    ).reject


def test_identical_estimators_are_a_point_mass():
    result = bayesian_hierarchical(np.zeros((5, 10)), 90, 10, rope=0.01)
    assert (result.p_a_better, result.p_rope, result.p_b_better) == (0.0, 1.0, 0.0)
    assert result.delta0.interval == (0.0, 0.0) and not result.reject


def test_zero_variance_data_sets_are_jittered_keeping_their_mean():
    d = _example(q=6)
    d[2] = 0.0  # identical predictions on data set 2
    d[4] = 0.03  # the same difference on every split of data set 4
    result = bayesian_hierarchical(d, 90, 10, rope=0.01, random_state=0, n_samples=8000)
    assert result.jittered.tolist() == [2, 4]
    assert result.delta[4] == pytest.approx(0.03, abs=0.006)
    assert abs(result.delta[2]) < 0.006


def test_means_spread_far_beyond_their_noise_do_not_overflow():
    # A data set with noise 1 beside one at 6.7e153 (found by the hostile
    # input property): the unit is floored at 2**-200 of the largest
    # difference, so no square overflows, and the answer is the same at
    # any power-of-two scale.
    d = np.array([[0.0, 1.0], [6.7e153, 6.7e153]])
    kwargs = dict(n_samples=200, n_chains=2, n_warmup=20, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("ignore", ConvergenceWarning)
        base = bayesian_hierarchical(d, 1, 1, **kwargs)
        halved = bayesian_hierarchical(d / 2**40, 1, 1, **kwargs)
    probabilities = [base.p_a_better, base.p_rope, base.p_b_better]
    assert np.isfinite(probabilities).all()
    assert sum(probabilities) == pytest.approx(1.0)
    assert halved.p_a_better == base.p_a_better
    assert halved.p_b_better == base.p_b_better


def test_means_agreeing_below_the_floor_sample_without_warnings():
    # Data set means that agree to 1e-61 of their noise (found by the
    # hostile-input property): σ₀'s prior bound stays above the floor.
    d = np.zeros((3, 6))
    d[1, 4:] = 1e300, -1e300
    d[2, 5] = 2.02967507e239
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("ignore", ConvergenceWarning)
        result = bayesian_hierarchical(
            d, 1, 1, n_samples=200, n_chains=2, n_warmup=20, random_state=0
        )
    probabilities = [result.p_a_better, result.p_rope, result.p_b_better]
    assert np.isfinite(probabilities).all()
    assert sum(probabilities) == pytest.approx(1.0)


def test_convergence_warning_on_a_short_run():
    with pytest.warns(ConvergenceWarning, match="R-hat"):
        bayesian_hierarchical(
            _example(), 90, 10, n_samples=40, n_warmup=0, random_state=0
        )


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"split_differences": np.zeros((1, 10))}, "at least 2 data sets"),
        ({"split_differences": np.zeros((3, 1))}, "split_differences"),
        ({"rope": -0.1}, "rope must be a finite number >= 0"),
        ({"n_samples": 2}, "n_samples must be an integer >= 4"),
        ({"n_samples": 10, "n_chains": 4}, "at least 4 per chain"),
        ({"n_chains": 0}, "n_chains must be an integer >= 1"),
        ({"n_warmup": -1}, "n_warmup must be an integer >= 0"),
        ({"n_train": [90, 90]}, "n_train must be"),
    ],
)
def test_validation(kwargs, match):
    args = {
        "split_differences": _example(q=3),
        "n_train": 90,
        "n_test": 10,
        **kwargs,
    }
    with pytest.raises(ValueError, match=match):
        bayesian_hierarchical(**args)


# --------------------------------------------------------------------------
# Through compare_scores, benchmark and the simplex display
# --------------------------------------------------------------------------


def test_through_compare_scores_and_the_simplex():
    rng = np.random.default_rng(0)
    base = rng.uniform(0.7, 0.9, (8, 1, 1))
    scores = base + 0.02 * rng.standard_normal((8, 10, 3))
    scores[..., 0] += 0.02
    params = {"n_samples": 4000, "rope": 0.01}
    result = compare_scores(
        scores,
        n_train=90,
        n_test=10,
        names=["a", "b", "c"],
        pairwise_tests={"bayesian_hierarchical": params},
        random_state=7,
    )
    pair = result.pairwise["bayesian_hierarchical"]
    direct = get_test("bayesian_hierarchical")(
        split_differences=scores[..., 0] - scores[..., 1],
        n_train=90,
        n_test=10,
        random_state=7,
        **params,
    )
    assert pair["p_a_better"][0, 1] == direct.p_a_better
    assert pair["p_b_better"][1, 0] == pytest.approx(direct.p_a_better)

    import matplotlib

    matplotlib.use("Agg")
    from sklearn_bcv import PosteriorSimplexDisplay

    display = PosteriorSimplexDisplay.from_result(
        result, "a", "b", test="bayesian_hierarchical"
    )
    assert display.probabilities_ == pytest.approx(
        (direct.p_a_better, direct.p_rope, direct.p_b_better), abs=1e-6
    )
    import matplotlib.pyplot as plt

    plt.close("all")


def test_through_benchmark():
    from sklearn.datasets import make_classification
    from sklearn.dummy import DummyClassifier
    from sklearn.naive_bayes import GaussianNB

    from sklearn_bcv import benchmark

    datasets = {f"d{i}": make_classification(60, 4, random_state=i) for i in range(3)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        result = benchmark(
            {"nb": GaussianNB(), "dummy": DummyClassifier()},
            datasets,
            cv=5,
            pairwise_tests={"bayesian_hierarchical": {"n_samples": 2000}},
            random_state=0,
        )
    pair = result.pairwise["bayesian_hierarchical"].results[("nb", "dummy")]
    assert pair.p_a_better > 0.9 and pair.n_datasets == 3
