"""Bayesian Plackett–Luce ranking across data sets (stats._plackett_luce)."""

import csv
import itertools
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.exceptions import ConvergenceWarning

from sklearn_bcv import compare_scores, get_test
from sklearn_bcv.simulation._hierarchical import rank_uniformity
from sklearn_bcv.simulation._plackett_luce import (
    calibration_ranks,
    draw_weak_orders,
    null_rankings,
    simplex_quadrature,
    weak_order_likelihood,
)
from sklearn_bcv.stats import plackett_luce
from sklearn_bcv.stats._plackett_luce import (
    _draw_small_tie_times,
    _draw_tie_times,
    ranking_content,
    ranking_lines,
    ranking_sentence,
    ranking_table,
    run_sampler,
    weak_order_levels,
)

# Measured results of the experiments of Blum, Calvo & Blesa (2015), the
# rows of sizes 100 and 1000 of scmamp's data set ``data.blum.2015``: numbers
# of a published experiment, kept here to check scmamp's published
# posterior; a test fixture, not part of the installed package.
BLUM = Path(__file__).parent / "_blum_2015.csv"
BLUM_NAMES = [
    "FruitFly",
    "Shukla",
    "Ikeda",
    "Turau",
    "Rand1",
    "Rand2",
    "FrogCOL",
    "FrogMIS",
]


def _quiet(*args, **kwargs):
    """plackett_luce without the convergence warning (short test runs)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return plackett_luce(*args, **kwargs)


def test_weak_order_likelihood_by_hand():
    """w = (0.5, 0.3, 0.2): the first two tied above the third is
    0.5 · 0.3/0.5 + 0.3 · 0.5/0.7 = 0.3 + 3/14; all three tied is 1; the
    full order (2, 0, 1) is 0.2 · 0.5/0.8."""
    w = np.array([0.5, 0.3, 0.2])
    assert weak_order_likelihood([[0, 0, 1]], w) == pytest.approx(0.3 + 3 / 14)
    assert weak_order_likelihood([[0, 0, 0]], w) == pytest.approx(1.0)
    assert weak_order_likelihood([[1, 2, 0]], w) == pytest.approx(0.2 * 0.5 / 0.8)
    both = weak_order_likelihood([[0, 0, 1], [1, 2, 0]], w)
    assert both == pytest.approx((0.3 + 3 / 14) * 0.125)


# A tied row at the top, one in the middle, one of all three, and orders.
TIED_LEVELS = np.array(
    [
        [0, 1, 2],
        [0, 0, 1],
        [1, 0, 0],
        [0, 1, 0],
        [0, 2, 1],
        [2, 1, 0],
        [0, 1, 1],
        [0, 0, 0],
    ]
)


@pytest.mark.parametrize(
    "levels, prior",
    [
        (TIED_LEVELS, 1.0),
        (TIED_LEVELS, 2.5),
        # Every data set ranks them alike: the weights spread over orders of
        # magnitude (the case the moves of the lightest weights are for).
        (np.tile([0, 1, 2], (6, 1)), 1.0),
    ],
    ids=["ties", "ties-prior-2.5", "consistent"],
)
def test_agrees_with_quadrature(levels, prior):
    """k = 3: the exact posterior by quadrature (500 × 500 Gauss–Legendre
    nodes) against the sampler, within 4 Monte Carlo standard errors (from
    the effective sample sizes the test reports) plus the quadrature's own
    error on the indicators of P(best) (below 2e-3 on this grid)."""
    exact = simplex_quadrature(levels, prior)
    scores = -np.asarray(levels, dtype=float)
    result = plackett_luce(scores, prior=prior, n_samples=16000, random_state=0)
    se_w = np.sqrt(
        np.diff(result.weights_interval, axis=1)[:, 0] ** 2 / 16 / result.ess
    )
    np.testing.assert_allclose(result.weights, exact["weights"], atol=4 * se_w.max())
    se_best = result.diagnostics.prob_best_se
    assert np.all(
        np.abs(result.prob_best - exact["prob_best"]) <= 4 * se_best + 2e-3
    ), (result.prob_best, exact["prob_best"])
    np.testing.assert_allclose(result.expected_rank, exact["expected_rank"], atol=0.03)
    np.testing.assert_allclose(result.prob_beats, exact["prob_beats"], atol=0.01)


def test_agrees_with_importance_sampling_on_four_with_large_ties():
    """k = 4, a tie of three at the top and of four (the sampler's tie
    groups of 3 and 4): self-normalised importance sampling from the prior
    (400,000 Dirichlet draws, the likelihood by enumerating the 24 orders)
    against the sampler."""
    levels = np.array(
        [[0, 0, 0, 1], [1, 0, 2, 3], [0, 1, 1, 2], [0, 0, 0, 0], [0, 1, 2, 2]]
    )
    rng = np.random.default_rng(7)
    w = rng.dirichlet(np.ones(4), size=400_000)
    weight = weak_order_likelihood(levels, w)
    weight /= weight.sum()
    ess_is = 1.0 / np.sum(weight**2)
    assert ess_is > 20_000
    exact_w = weight @ w
    exact_best = weight @ (w == w.max(axis=1, keepdims=True))
    result = plackett_luce(-levels.astype(float), n_samples=16000, random_state=1)
    np.testing.assert_allclose(result.weights, exact_w, atol=0.006)
    np.testing.assert_allclose(result.prob_best, exact_best, atol=0.02)


# --------------------------------------------------------------------------
# The tie groups' latent times are drawn exactly
# --------------------------------------------------------------------------


def _order_law(lam, rest):
    """``P(σ) ∝ Π_t w_σt / (c + Σ_{u ≥ t} w_σu)`` over the orders of the
    members of a tie group (the Plackett–Luce probability of σ with the c
    others all after it)."""
    law = {}
    for order in itertools.permutations(range(len(lam))):
        p, left = 1.0, rest + lam.sum()
        for j in order:
            p *= lam[j] / left
            left -= lam[j]
        law[order] = p
    total = sum(law.values())
    return {order: p / total for order, p in law.items()}


def _draw_times(lam, rest, n, method, seed=0):
    rng = np.random.default_rng(seed)
    members = np.tile(lam, (n, 1))
    if method == "enumerated":
        orders = np.array(list(itertools.permutations(range(len(lam)))))
        return _draw_small_tie_times(rng, members, np.full(n, rest), orders)
    mask = np.ones_like(members, dtype=bool)
    return _draw_tie_times(rng, members, mask, np.full(n, rest), np.full(n, np.inf))


@pytest.mark.parametrize(
    "method, lam, rest",
    [
        (method, [0.5, 0.3, 0.2], rest)
        for method in ("enumerated", "auxiliary")
        for rest in (0.05, 1.0, 30.0)
    ]
    # Groups of five or more always take the auxiliary time.
    + [("auxiliary", [0.3, 0.25, 0.2, 0.15, 0.1], 0.5)],
)
def test_tie_times_give_the_exact_order_law(method, lam, rest):
    """Given the weights, the order in which the members of a tie group
    arrive must follow its exact conditional law, by both samplers (all m!
    orders enumerated; the auxiliary time of the first estimator below):
    50,000 draws against it, chi-squared."""
    lam = np.array(lam)
    n = 50_000
    times = _draw_times(lam, rest, n, method)
    law = _order_law(lam, rest)
    orders, observed = np.unique(np.argsort(times, axis=1), axis=0, return_counts=True)
    expected = np.array([law[tuple(o)] for o in orders]) * n
    missing = 1 - sum(law[tuple(o)] for o in orders)
    assert missing * n < 5  # no order of real weight missed
    assert stats.chisquare(observed, expected * n / expected.sum()).pvalue > 1e-3


@pytest.mark.parametrize("method", ["enumerated", "auxiliary"])
def test_tie_times_span_matches_its_integral(method):
    """The mean span of a group (its last member's time) against numerical
    integration of its density ``∝ Π (1 - e^{-w_j t})' e^{-ct}``."""
    lam, rest = np.array([2.0, 0.1, 0.7, 0.05]), 0.4
    n = 80_000
    span = _draw_times(lam, rest, n, method, seed=1).max(axis=1)
    t = np.linspace(0, 400, 400_001)
    cdf = np.prod(1 - np.exp(-np.outer(t, lam)), axis=1)
    density = np.gradient(cdf, t) * np.exp(-rest * t)
    mean = np.trapezoid(t * density, t) / np.trapezoid(density, t)
    se = np.std(span) / np.sqrt(n)
    assert np.mean(span) == pytest.approx(mean, abs=4 * se)


# --------------------------------------------------------------------------
# Simulation-based calibration and the null
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "k, n_datasets, tie_probability, seed",
    [(4, 8, 0.3, 11), (8, 6, 0.7, 4)],
    ids=["ties-of-2-to-4", "ties-of-5-and-more"],
)
def test_simulation_based_calibration_small(k, n_datasets, tie_probability, seed):
    """Talts et al. (2018): the rank of each true weight among 99 thinned
    draws is uniform when the sampler draws from the posterior; weak orders
    with ties (neighbouring places merged at random: small tie groups, whose
    orders the sampler enumerates, and groups of 5 to 8, drawn through their
    auxiliary time). 150 replications here; 2,000 in the slow test and
    benchmarks/sbc_plackett_luce.py."""
    ranks, n_ranked = calibration_ranks(
        150,
        k=k,
        n_datasets=n_datasets,
        tie_probability=tie_probability,
        n_draws=495,
        thin=5,
        random_state=seed,
    )
    assert n_ranked == 99
    for j in range(k):
        counts, pvalue = rank_uniformity(ranks[:, j], n_ranked)
        assert pvalue > 1e-3, (j, counts)


@pytest.mark.slow
@pytest.mark.parametrize(
    "k, n_datasets, prior, tie_probability",
    [(4, 10, 1.0, 0.3), (3, 5, 1.0, 0.0), (6, 20, 0.5, 0.5), (8, 6, 1.0, 0.7)],
)
def test_simulation_based_calibration_large(k, n_datasets, prior, tie_probability):
    ranks, n_ranked = calibration_ranks(
        2000,
        k=k,
        n_datasets=n_datasets,
        prior=prior,
        tie_probability=tie_probability,
        random_state=1,
    )
    for j in range(k):
        counts, pvalue = rank_uniformity(ranks[:, j], n_ranked)
        assert pvalue > 1e-3, (j, counts)


def test_draw_weak_orders_follow_the_model():
    """The first place of the drawn orders is estimator j with probability
    w_j; merging neighbouring places ties them."""
    rng = np.random.default_rng(3)
    w = np.array([[0.6, 0.3, 0.1]])
    levels = draw_weak_orders(w, 20_000, rng)[0]
    first = np.argmin(levels, axis=1)
    np.testing.assert_allclose(np.bincount(first) / 20_000, w[0], atol=0.01)
    tied = draw_weak_orders(w, 2000, rng, tie_probability=1.0)[0]
    assert np.all(tied == 0)


def test_null_prob_best_near_one_over_k():
    """Exchangeable estimators (every score from one distribution): over
    experiments each is the best with probability 1/k on average, and no
    estimator is declared the best (the full simulation, with ties, is in
    benchmarks/reproduce_plackett_luce.py)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        out = null_rankings(10, k=4, n_datasets=15, n_samples=800, random_state=2)
        discrete = null_rankings(
            5, k=4, n_datasets=15, scores="discrete", n_samples=800, random_state=3
        )
    np.testing.assert_allclose(out["prob_best"].mean(axis=0), 0.25, atol=0.1)
    assert out["decisions"] == 0.0
    assert discrete["tied_datasets"] > 0.3
    assert discrete["decisions"] == 0.0


# --------------------------------------------------------------------------
# scmamp's published example (Calvo's vignette, data of Blum et al. 2015)
# --------------------------------------------------------------------------


def _blum(size, columns=BLUM_NAMES):
    with open(BLUM, newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if int(r["Size"]) == size]
    return np.array([[float(r[c]) for c in columns] for r in rows])


def _break_ties_at_random(scores, rng):
    """scmamp's ``rank(-x, ties.method="random")``: each row's ties in a
    random order (scores returned as minus the place)."""
    out = np.empty_like(scores)
    jitter = rng.random(scores.shape)
    for i, row in enumerate(scores):
        out[i, np.lexsort((jitter[i], -row))] = -np.arange(len(row))
    return out


def test_agrees_with_scmamp_where_ties_play_no_part():
    """scmamp's vignette, problems of size 1000, FruitFly, FrogCOL and
    FrogMIS alone (ties among them on 22 of 300 instances): it prints
    P(FrogCOL before FrogMIS) = 0.893 and P(FrogCOL before FruitFly) =
    0.753 (Stan, 10 × 1000 draws, ties broken at random). Ties broken at
    random as scmamp does, and kept as ties, agree within 0.01."""
    names = ["FruitFly", "FrogCOL", "FrogMIS"]
    scores = _blum(1000, names)
    assert scores.shape == (300, 3)
    broken = _break_ties_at_random(scores, np.random.default_rng(0))
    for table in (broken, scores):
        result = plackett_luce(table, names=names, random_state=0, n_samples=4000)
        assert result.prob_beats[1, 2] == pytest.approx(0.893, abs=0.01)
        assert result.prob_beats[1, 0] == pytest.approx(0.753, abs=0.01)


def test_agrees_with_scmamp_published_weights():
    """scmamp's vignette, the 8 algorithms on the 300 problems of size 100
    (ties on 297): its ``expected.win.prob`` (the posterior mean weights)
    after a random tie-break, FrogCOL 0.9245, FrogMIS 0.0377, FruitFly
    0.0142. The same tie-breaking gives these within their spread over
    tie-breaks (sd 0.010, 0.005, 0.002 over 20 of them, see
    doc/reproduction.rst); keeping the ties gives FrogCOL 0.97."""
    scores = _blum(100)
    broken = _break_ties_at_random(scores, np.random.default_rng(1))
    result = plackett_luce(broken, names=BLUM_NAMES, random_state=0, n_samples=4000)
    published = {"FrogCOL": 0.9245, "FrogMIS": 0.0377, "FruitFly": 0.0142}
    spread = {"FrogCOL": 0.03, "FrogMIS": 0.015, "FruitFly": 0.006}
    for name, value in published.items():
        j = BLUM_NAMES.index(name)
        assert result.weights[j] == pytest.approx(value, abs=spread[name])
    np.testing.assert_allclose(
        result.expected_rank[[0, 6, 7]], [3.0, 1.0, 2.0], atol=0.01
    )
    kept = _quiet(scores, names=BLUM_NAMES, random_state=0, n_samples=1000)
    assert kept.weights[6] > 0.96


# --------------------------------------------------------------------------
# Ties in the user's units; invariance
# --------------------------------------------------------------------------


def test_weak_order_levels_by_hand():
    scores = np.array([[0.8, 0.9, 0.8, 0.7], [1.0, 1.0, 1.0, 1.0], [3, 1, 2, 0]])
    np.testing.assert_array_equal(
        weak_order_levels(scores), [[1, 0, 1, 2], [0, 0, 0, 0], [0, 2, 1, 3]]
    )
    np.testing.assert_array_equal(
        weak_order_levels(scores, greater_is_better=False),
        [[1, 2, 1, 0], [0, 0, 0, 0], [3, 1, 2, 0]],
    )


def test_weak_order_levels_tie_what_the_decimals_tie():
    """0.1 + 0.2 and 0.3, 0.81 typed and 1 - 0.19 computed: equal in the
    user's decimals, one ulp apart in floating point; 0.3 and 0.30000001
    are not tied, nor are log losses of 1e-14 and 2e-14 beside 0.9 (each
    score at its own precision, never another's)."""
    scores = np.array(
        [[0.1 + 0.2, 0.3, 0.30000001], [1 - 0.19, 0.81, 0.8], [1e-14, 2e-14, 0.9]]
    )
    np.testing.assert_array_equal(
        weak_order_levels(scores), [[1, 1, 0], [0, 0, 1], [2, 1, 0]]
    )
    np.testing.assert_array_equal(
        weak_order_levels(100 * scores), weak_order_levels(scores)
    )


@st.composite
def decimal_tables(draw):
    """Tables of scores written with two decimals, many ties."""
    n = draw(st.integers(1, 6))
    k = draw(st.integers(2, 5))
    cents = draw(
        st.lists(st.integers(60, 66), min_size=n * k, max_size=n * k).map(
            lambda v: np.array(v).reshape(n, k)
        )
    )
    return cents


@settings(max_examples=15, deadline=None)
@given(
    cents=decimal_tables(),
    shift=st.sampled_from(["0.1", "-0.35", "7"]),
    seed=st.integers(0, 2**16),
)
def test_posterior_same_in_any_units_and_column_order(cents, shift, seed):
    """Fractions, percents, shifted scores (each computed in floating point
    from the decimals), and the columns reordered: the same ranking,
    bit for bit, the estimators' results following their columns."""
    fractions = cents / 100.0
    percents = cents * 1.0
    shifted = fractions + float(Fraction(shift))
    kwargs = dict(n_samples=200, n_chains=2, n_warmup=10, random_state=5)
    reference = _quiet(fractions, **kwargs)
    for table in (percents, shifted):
        other = _quiet(table, **kwargs)
        for field in ("weights", "weights_interval", "prob_best", "prob_beats"):
            np.testing.assert_array_equal(other[field], reference[field])
    permutation = np.random.default_rng(seed).permutation(cents.shape[1])
    permuted = _quiet(fractions[:, permutation], **kwargs)
    for field in ("weights", "prob_best", "expected_rank", "rank_probabilities"):
        np.testing.assert_allclose(
            permuted[field], reference[field][permutation], rtol=0, atol=1e-12
        )
    np.testing.assert_allclose(
        permuted.weights_interval, reference.weights_interval[permutation], atol=1e-12
    )
    np.testing.assert_allclose(
        permuted.prob_beats,
        reference.prob_beats[np.ix_(permutation, permutation)],
        atol=1e-12,
    )


def test_estimators_tied_everywhere_are_exchangeable():
    """Columns tied on every data set get equal summaries, and 1/2 against
    each other; a table tied throughout is the prior: P(best) = 1/k."""
    scores = np.array([[0.9, 0.8, 0.8], [0.7, 0.9, 0.9], [0.6, 0.6, 0.6]])
    result = plackett_luce(scores, n_samples=2000, random_state=0)
    assert result.weights[1] == result.weights[2]
    assert result.prob_best[1] == result.prob_best[2]
    assert result.prob_beats[1, 2] == 0.5
    flat = plackett_luce(np.ones((4, 5)), n_samples=2000, random_state=0)
    np.testing.assert_allclose(flat.prob_best, 0.2, atol=1e-12)
    np.testing.assert_allclose(flat.weights, 0.2, atol=1e-12)
    np.testing.assert_allclose(flat.expected_rank, 3.0, atol=1e-12)


def test_greater_is_better_false_ranks_losses():
    rng = np.random.default_rng(0)
    losses = rng.random((6, 4))
    as_losses = plackett_luce(losses, greater_is_better=False, random_state=1)
    negated = plackett_luce(-losses, random_state=1)
    for field in ("weights", "prob_best", "prob_beats"):
        np.testing.assert_array_equal(as_losses[field], negated[field])
    assert as_losses.greater_is_better is False


# --------------------------------------------------------------------------
# The contract
# --------------------------------------------------------------------------


def _example(seed=0, n=12, k=5, spread=0.04):
    rng = np.random.default_rng(seed)
    return 0.8 + np.linspace(0, spread, k) + 0.03 * rng.standard_normal((n, k))


def test_result_fields_and_their_identities():
    result = plackett_luce(_example(), n_samples=4000, random_state=0)
    k = 5
    assert result.test == "plackett_luce"
    assert result.statistic is None and result.pvalue is None and result.df is None
    assert result.names == [f"estimator_{j}" for j in range(k)]
    assert result.weights.shape == (k,) and result.weights.sum() == pytest.approx(1)
    assert result.weights_interval.shape == (k, 2)
    assert np.all(result.weights_interval[:, 0] <= result.weights_interval[:, 1])
    assert result.prob_best.sum() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(result.rank_probabilities.sum(axis=0), 1.0)
    np.testing.assert_allclose(result.rank_probabilities.sum(axis=1), 1.0)
    np.testing.assert_array_equal(result.rank_probabilities[:, 0], result.prob_best)
    assert result.expected_rank.sum() == pytest.approx(k * (k + 1) / 2)
    np.testing.assert_allclose(result.prob_beats + result.prob_beats.T, 1.0)
    np.testing.assert_array_equal(np.diag(result.prob_beats), 0.5)
    assert result.n_samples == 4000 and result.n_datasets == 12
    assert result.rhat < 1.01 and result.ess > 400
    assert set(result.diagnostics) == {"rhat", "ess", "prob_best_se"}
    assert np.all(result.diagnostics.prob_best_se < 0.01)


def test_reproducible_and_global_state_untouched():
    scores = np.round(_example(), 2)
    before = np.random.get_state()[1].copy()  # noqa: NPY002
    first = plackett_luce(scores, n_samples=2000, random_state=3)
    second = plackett_luce(scores, n_samples=2000, random_state=3)
    np.testing.assert_array_equal(np.random.get_state()[1], before)  # noqa: NPY002
    np.testing.assert_array_equal(first.weights, second.weights)
    np.testing.assert_array_equal(first.prob_beats, second.prob_beats)
    other = plackett_luce(scores, n_samples=2000, random_state=4)
    assert not np.array_equal(other.weights, first.weights)
    np.testing.assert_allclose(other.prob_best, first.prob_best, atol=0.05)


def test_the_default_sample_size_meets_its_monte_carlo_error():
    """Across seeds the estimates of P(best) spread by less than 0.01 (the
    figure of benchmarks/bench_plackett_luce.py, here on a small table)."""
    scores = _example(seed=5, n=10, k=4, spread=0.02)
    runs = np.array([plackett_luce(scores, random_state=s).prob_best for s in range(6)])
    assert runs.std(axis=0, ddof=1).max() < 0.01


def test_decision_when_one_is_the_best_with_high_probability():
    scores = _example(spread=0.3)
    result = plackett_luce(scores, names=list("abcde"), random_state=0)
    assert result.best == "e" and result.reject is True
    assert result.prob_best[4] > 0.95
    unsure = plackett_luce(_example(spread=0.0), random_state=0)
    assert unsure.best is None and unsure.reject is False


def test_one_data_set_and_two_estimators():
    """N = 1, k = 2: the posterior of w_A is Beta(2, 1) with a uniform
    prior (likelihood w_A): mean 2/3, P(w_A > 1/2) = 3/4."""
    result = plackett_luce([[0.9, 0.1]], n_samples=20000, random_state=0)
    assert result.weights[0] == pytest.approx(2 / 3, abs=0.01)
    assert result.prob_best[0] == pytest.approx(0.75, abs=0.015)
    low, high = result.weights_interval[0]
    assert low == pytest.approx(np.sqrt(0.025), abs=0.01)  # Beta(2, 1) quantiles
    assert high == pytest.approx(np.sqrt(0.975), abs=0.01)


def test_convergence_warning_on_a_short_run():
    scores = np.tile(np.arange(8.0), (40, 1))  # every data set ranks alike
    with pytest.warns(ConvergenceWarning, match="Increase n_samples"):
        plackett_luce(scores, n_samples=40, n_chains=4, n_warmup=0, random_state=0)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"scores": [[1.0, np.nan]]}, "finite"),
        ({"scores": [[1.0], [2.0]]}, "at least 1 data sets .* and 2 estimators"),
        ({"scores": np.ones((0, 3))}, "at least 1 data sets"),
        ({"scores": [1.0, 2.0]}, "2-D array"),
        ({"scores": [["a", "b"]]}, "must hold numbers"),
        ({"prior": 0.0}, r"prior must be a number in \[1e-06, 1e\+06\]"),
        ({"prior": np.inf}, r"prior must be a number in \[1e-06, 1e\+06\]"),
        ({"greater_is_better": "yes"}, "greater_is_better must be True or False"),
        ({"n_samples": 3}, "n_samples must be an integer >= 4"),
        ({"n_samples": 8, "n_chains": 4}, "at least 4 per chain"),
        ({"n_chains": 0}, "n_chains must be an integer >= 1"),
        ({"n_warmup": -1}, "n_warmup must be an integer >= 0"),
        ({"n_samples": 10**6}, "n_samples × k must be at most"),
        ({"n_samples": 10**6}, "n_samples × k² must be at most"),
        ({"names": ["a", "a", "b"]}, "3 distinct strings"),
        ({"names": "abc"}, "3 distinct strings"),
        ({"alpha": 1.5}, "alpha must be a number in"),
        ({"alternative": "greater"}, "supports alternative in"),
        ({"random_state": "x"}, "cannot be used to seed"),
    ],
)
def test_validation(kwargs, match):
    scores = [[0.9, 0.8, 0.7], [0.7, 0.8, 0.9]]
    if "n_samples × k²" in match:
        scores = np.arange(40.0)[None, :]  # 10**6 × 40 draws fit, not × 40²
    elif "n_samples × k" in match:
        scores = np.arange(200.0)[None, :]
    kwargs = {"scores": scores, **kwargs}
    with pytest.raises(ValueError, match=match):
        plackett_luce(**kwargs)


def test_registered_as_a_ranking_run_only_when_named():
    from sklearn_bcv.stats._registry import declared_tests, get_entry

    entry = get_entry("plackett_luce")
    assert get_test("plackett_luce") is plackett_luce
    assert entry.kind == "datasets" and entry.role == "ranking"
    assert declared_tests(role="ranking") == ["plackett_luce"]
    result = compare_scores(_example())
    assert "plackett_luce" not in result.tests


# --------------------------------------------------------------------------
# In the comparisons, their summaries, reports and documents
# --------------------------------------------------------------------------


def test_through_compare_scores():
    names = ["dummy", "tree", "knn", "svm", "forest"]
    result = compare_scores(
        _example(spread=0.3),
        names=names,
        tests=["friedman", "nemenyi", "plackett_luce"],
        random_state=0,
    )
    ranking = result.tests.plackett_luce
    assert ranking.names == names
    assert ranking.best == "forest"
    direct = plackett_luce(_example(spread=0.3), names=names, random_state=0)
    np.testing.assert_array_equal(ranking.weights, direct.weights)
    # Not an omnibus test: Friedman stays the verdict's omnibus.
    assert result.verdict.omnibus_test == "friedman"
    text = str(result)
    assert "P(forest is the best) = " in text
    assert "expected rank" in text
    for fmt in ("text", "markdown", "latex", "html"):
        report = result.report(fmt)
        assert "P(forest is the best)" in report
        assert "plackett_luce test rejected" not in report
    document = result.to_dict()
    assert document["tests"]["plackett_luce"]["names"] == names
    assert len(document["tests"]["plackett_luce"]["prob_beats"]) == 5
    result.to_json()


def test_through_compare_scores_alone_and_with_losses():
    losses = 1 - _example(spread=0.3)
    result = compare_scores(
        losses,
        greater_is_better=False,
        tests=["plackett_luce"],
        pairwise_tests=[],
        random_state=0,
    )
    assert result.verdict.omnibus_test is None
    assert result.tests.plackett_luce.best == "estimator_4"
    assert "P(estimator_4 is the best)" in result.verdict.text
    result.report("html")


def test_through_benchmark():
    from sklearn.datasets import load_iris, load_wine
    from sklearn.dummy import DummyClassifier
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_bcv import benchmark

    result = benchmark(
        {
            "bayes": GaussianNB(),
            "tree": DecisionTreeClassifier(random_state=0),
            "majority": DummyClassifier(),
        },
        {
            "iris": lambda: load_iris(return_X_y=True),
            "wine": lambda: load_wine(return_X_y=True),
        },
        tests=["plackett_luce"],
        pairwise_tests=[],
        random_state=0,
    )
    ranking = result.tests.plackett_luce
    assert ranking.names == ["bayes", "tree", "majority"]
    assert np.argmax(ranking.expected_rank) == 2  # the majority class is last
    assert "plackett_luce" in str(result)


def test_content_for_the_registry_hook():
    """The dict a comparison's ``content`` hook returns: summary lines, the
    report's sentence, one table, CSV rows per estimator (best first)."""
    result = plackett_luce(
        _example(), names=["a", "b", "c", "d", "e"], random_state=0, n_samples=2000
    )
    content = ranking_content("plackett_luce", result)
    assert content["summary"] == ranking_lines(result)
    assert content["sentences"] == [ranking_sentence(result)]
    (table,) = content["tables"]
    assert table["header"][:2] == ["estimator", "P(best)"]
    assert len(table["rows"]) == 5
    rows = content["csv_rows"]
    assert [row["estimator"] for row in rows] == [
        result.names[j] for j in np.argsort(result.expected_rank)
    ]
    best = rows[0]
    j = result.names.index(best["estimator"])
    assert best["prob_best"] == result.prob_best[j]
    assert (best["weight_low"], best["weight_high"]) == tuple(
        result.weights_interval[j]
    )


def test_text_helpers():
    result = plackett_luce(
        _example(), names=["a", "b", "c", "d", "e"], random_state=0, n_samples=2000
    )
    header, rows = ranking_table(result)
    assert header[:3] == ("estimator", "P(best)", "expected rank")
    order = np.argsort(result.expected_rank)
    assert [row[0] for row in rows] == [result.names[j] for j in order]
    assert rows[0][1] == f"{result.prob_best[order[0]]:.3f}"
    lines = ranking_lines(result)
    assert lines[0].startswith("plackett_luce: Bayesian Plackett-Luce ranking")
    assert ranking_sentence(result) in lines[1]


def test_sampler_chains_with_data_of_their_own():
    """run_sampler with (n_chains, n_datasets, k) levels: each chain samples
    the posterior of its own data (as the calibration uses it)."""
    levels = np.array([np.tile([0, 1, 2], (10, 1)), np.tile([2, 1, 0], (10, 1))])
    draws = run_sampler(
        levels,
        prior=1.0,
        n_draws=400,
        n_chains=2,
        n_warmup=50,
        rng=np.random.default_rng(0),
    )
    assert draws.shape == (2, 400, 3)
    assert draws[0, :, 0].mean() > 0.8 and draws[1, :, 2].mean() > 0.8


def test_command_line_scores_runs_the_ranking(tmp_path):
    import io
    import json

    from sklearn_bcv._cli import main

    scores = _example(n=6, k=3, spread=0.3)
    path = tmp_path / "scores.csv"
    lines = ["dataset,a,b,e"] + [
        f"d{i}," + ",".join(f"{v:.3f}" for v in row) for i, row in enumerate(scores)
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    base = ["scores", str(path), "--tests", "plackett_luce", "--random-state", "0"]
    out, err = io.StringIO(), io.StringIO()
    assert main(base, stdout=out, stderr=err) == 0, err.getvalue()
    assert "P(e is the best) = " in out.getvalue()
    out = io.StringIO()
    assert main([*base, "--format", "json"], stdout=out, stderr=io.StringIO()) == 0
    ranking = json.loads(out.getvalue())["tests"]["plackett_luce"]
    assert ranking["names"] == ["a", "b", "e"]
    assert ranking["weights"][2] == max(ranking["weights"])
    out = io.StringIO()
    assert main([*base, "--format", "csv"], stdout=out, stderr=io.StringIO()) == 0
    assert "plackett_luce" in out.getvalue()


def test_a_dataframe_names_the_estimators():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(_example(k=3), columns=["svm", "forest", "knn"])
    result = _quiet(frame, n_samples=400, random_state=0)
    assert result.names == ["svm", "forest", "knn"]
    named = _quiet(frame, names=["a", "b", "c"], n_samples=400, random_state=0)
    assert named.names == ["a", "b", "c"]
    np.testing.assert_array_equal(named.weights, result.weights)


def test_bad_parameters_refused_before_any_work():
    with pytest.raises(ValueError, match=r"tests\['plackett_luce'\]: prior must be"):
        compare_scores(_example(), tests={"plackett_luce": {"prior": -1}})
    with pytest.raises(ValueError, match="plackett_luce supports alternative"):
        get_test("plackett_luce")(scores=_example(), alternative="less")
