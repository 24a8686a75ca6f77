"""Tests of make_many_epsilon_losses and simulate_many_loss_vectors.

The default tests are small (a few thousand repetitions in seconds); the
full type I error study of doc/reproduction.rst is marked slow
(``pytest -m slow tests/test_simulation_many.py``).
"""

import numpy as np
import pytest
from scipy import stats
from sklearn.model_selection import ShuffleSplit
from sklearn.utils import Bunch

from sklearn_bcv import (
    BlockRegularized5x2CV,
    BlockRegularizedMx2CV,
    get_test,
    mcnemar_table,
    register_test,
    unregister_test,
)
from sklearn_bcv.datasets import make_epsilon_losses, make_many_epsilon_losses
from sklearn_bcv.simulation import (
    _many,
    rejection_rate_interval,
    simulate_many_loss_vectors,
)
from sklearn_bcv.stats import adjust_pvalues, cochran_q, mcnemar

ALPHA = 0.05


def holdout(random_state=0):
    return ShuffleSplit(n_splits=1, test_size=1 / 3, random_state=random_state)


def assert_at_most_alpha(result, n_repetitions):
    """Every rate at or below alpha within Monte Carlo error (Wilson 99.9%)."""
    for name in result.tests:
        low, _ = rejection_rate_interval(
            result.n_rejections[name], n_repetitions, confidence_level=0.999
        )
        assert low <= ALPHA, (name, result.rates[name])


# --------------------------------------------------------------------------
# make_many_epsilon_losses
# --------------------------------------------------------------------------


def test_make_many_epsilon_losses_shapes_and_dtype():
    one = make_many_epsilon_losses(40, 4, random_state=0)
    assert one.shape == (40, 4) and one.dtype == np.int8
    many = make_many_epsilon_losses(40, 4, n_datasets=7, random_state=0)
    assert many.shape == (7, 40, 4)
    assert set(np.unique(many)) <= {0, 1}


@pytest.mark.parametrize("n_samples", [10, 300, 1000])
def test_two_algorithms_are_the_epsilon_data_set(n_samples):
    loss_a, loss_b = make_epsilon_losses(n_samples, n_datasets=5, random_state=3)
    losses = make_many_epsilon_losses(n_samples, 2, n_datasets=5, random_state=3)
    np.testing.assert_array_equal(losses[..., 0], loss_a)
    np.testing.assert_array_equal(losses[..., 1], loss_b)


@pytest.mark.parametrize("n_samples, n_estimators", [(12, 3), (300, 5), (301, 4)])
def test_rotating_halves_give_equal_error_rates(n_samples, n_estimators):
    # Estimated per-record error probabilities over many data sets: every
    # algorithm errs with epsilon/2 on n//2 records (a rotating window) and
    # 3 epsilon/2 on the others.
    epsilon = 0.2
    losses = make_many_epsilon_losses(
        n_samples, n_estimators, epsilon=epsilon, n_datasets=4000, random_state=0
    )
    per_record = losses.mean(axis=0)  # (n_samples, L)
    easy = per_record < epsilon
    np.testing.assert_array_equal(easy.sum(axis=0), n_samples // 2)
    for j in range(n_estimators):
        start = (j * n_samples) // n_estimators
        window = (np.arange(n_samples) - start) % n_samples < n_samples // 2
        np.testing.assert_array_equal(easy[:, j], window)
    # Equal expected error rates (the null), estimated within Monte Carlo error.
    rates = losses.mean(axis=(0, 1))
    expected = (n_samples // 2 * epsilon / 2 + (n_samples - n_samples // 2) * 1.5
                * epsilon) / n_samples  # fmt: skip
    np.testing.assert_allclose(rates, expected, atol=0.005)


def test_delta_raises_error_rates():
    losses = make_many_epsilon_losses(
        300, 3, delta=[0.0, 0.05, 0.1], n_datasets=3000, random_state=0
    )
    np.testing.assert_allclose(losses.mean(axis=(0, 1)), [0.1, 0.15, 0.2], atol=0.003)
    scalar = make_many_epsilon_losses(30, 3, delta=0.05, n_datasets=4, random_state=1)
    array = make_many_epsilon_losses(
        30, 3, delta=[0.05, 0, 0], n_datasets=4, random_state=1
    )
    np.testing.assert_array_equal(scalar, array)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"delta": [0.1, 0.0]}, r"delta must be a number or an array of shape "
         r"\(n_estimators,\) = \(3,\)"),
        ({"delta": 0.9}, r"delta must keep every error probability in \[0, 1\]"),
        ({"delta": -0.06}, r"delta must keep every error probability"),
        ({"delta": [np.nan, 0, 0]}, r"of finite numbers"),
        ({"n_estimators": 1}, r"'n_estimators' parameter"),
        ({"epsilon": 0.7}, r"'epsilon' parameter"),
        ({"n_samples": 1}, r"'n_samples' parameter"),
    ],
)  # fmt: skip
def test_make_many_epsilon_losses_validation(kwargs, message):
    params = {"n_samples": 30, "n_estimators": 3, **kwargs}
    with pytest.raises(ValueError, match=message):
        make_many_epsilon_losses(**params)


# --------------------------------------------------------------------------
# Vectorised multiplicity correction
# --------------------------------------------------------------------------

# --------------------------------------------------------------------------
# The vectorised path against the registered tests, one repetition at a time
# --------------------------------------------------------------------------


def _by_hand(losses, cv, random_state, omnibus, pairwise, correction="holm"):
    """Each repetition through the registered functions, no batch dimension."""
    permuted = _many._permute_records(losses, random_state)
    splits = list(cv.split(np.zeros((losses.shape[1], 1))))
    n_estimators = losses.shape[2]
    rows = []
    for r in range(losses.shape[0]):
        correct = [1 - permuted[r, test] for _, test in splits]
        result = get_test(omnibus)(correct=[c.astype(bool) for c in correct])
        pvalues = []
        for a in range(n_estimators):
            for b in range(a + 1, n_estimators):
                tables = [
                    mcnemar_table(np.ones(c.shape[0]), c[:, a], c[:, b])
                    for c in correct
                ]
                pvalues.append(get_test(pairwise)(tables=np.stack(tables)).pvalue)
        rows.append((result, np.array(pvalues), adjust_pvalues(pvalues, correction)))
    return rows


@pytest.mark.parametrize(
    "cv, omnibus, pairwise",
    [
        (holdout(), "cochran_q", "mcnemar"),
        (holdout(), "looney_f", "mcnemar"),
        (BlockRegularized5x2CV(random_state=0), "bcv_cochran_q", "bcv_mcnemar"),
        (BlockRegularizedMx2CV(3, random_state=1), "bcv_cochran_q", "bcv_mcnemar"),
    ],
    ids=["cochran_q", "looney_f", "bcv_cochran_q 5x2", "bcv_cochran_q 3x2"],
)
@pytest.mark.parametrize("n_estimators", [3, 5])
def test_vectorised_path_equals_registered_tests_one_by_one(
    cv, omnibus, pairwise, n_estimators
):
    losses = make_many_epsilon_losses(
        61, n_estimators, epsilon=0.3, delta=0.1, n_datasets=6, random_state=2
    )
    result = simulate_many_loss_vectors(
        losses, cv, tests=omnibus, pairwise_tests=pairwise, random_state=4
    )
    label = f"{pairwise}+holm"
    assert result.tests == [omnibus, label]
    assert len(result.pairs) == n_estimators * (n_estimators - 1) // 2
    for r, (single, raw, adjusted) in enumerate(_by_hand(losses, cv, 4, omnibus,
                                                         pairwise)):  # fmt: skip
        assert result.statistics[omnibus][r] == single.statistic
        assert result.pvalues[omnibus][r] == single.pvalue
        assert result.rejections[omnibus][r] == single.reject
        np.testing.assert_array_equal(result.pairwise[pairwise].pvalue[r], raw)
        np.testing.assert_allclose(
            result.pairwise[pairwise].pvalue_adjusted[r], adjusted, rtol=1e-12
        )
        assert result.rejections[label][r] == np.any(adjusted < ALPHA)
        assert result.pvalues[label][r] == pytest.approx(adjusted.min())


def test_third_party_tests_run_repetition_by_repetition():
    # Registered copies of cochran_q and mcnemar are not the package's own
    # functions, so they run one repetition (and pair) at a time, with the
    # same numbers.
    @register_test("my_cochran", needs="correct", design="holdout", kind="many",
                   alternatives="two-sided")  # fmt: skip
    def my_cochran(correct, *, alpha=0.05, alternative="two-sided"):
        return cochran_q(correct, alpha=alpha, alternative=alternative)

    @register_test("my_mcnemar", needs=("tables", "loss_differences"),
                   design="holdout")  # fmt: skip
    def my_mcnemar(tables, loss_differences, *, alpha=0.05, alternative="two-sided"):
        # loss_a - loss_b summed over the test records is n01 - n10.
        (table,) = tables
        assert loss_differences[0].sum() == table[0, 1] - table[1, 0]
        return mcnemar(tables, alpha=alpha, alternative=alternative)

    try:
        losses = make_many_epsilon_losses(60, 3, delta=0.1, n_datasets=8,
                                          random_state=0)  # fmt: skip
        ours = simulate_many_loss_vectors(
            losses, holdout(), tests="my_cochran", pairwise_tests="my_mcnemar",
            random_state=0,
        )  # fmt: skip
        builtin = simulate_many_loss_vectors(
            losses, holdout(), tests="cochran_q", pairwise_tests="mcnemar",
            random_state=0,
        )  # fmt: skip
    finally:
        unregister_test("my_cochran")
        unregister_test("my_mcnemar")
    np.testing.assert_array_equal(
        ours.pvalues["my_cochran"], builtin.pvalues["cochran_q"]
    )
    np.testing.assert_array_equal(
        ours.pairwise["my_mcnemar"].pvalue, builtin.pairwise["mcnemar"].pvalue
    )


def test_chunks_give_the_same_result(monkeypatch):
    losses = make_many_epsilon_losses(40, 4, delta=0.1, n_datasets=50, random_state=0)
    cv = BlockRegularized5x2CV(random_state=0)
    whole = simulate_many_loss_vectors(losses, cv, random_state=0)
    monkeypatch.setattr(_many, "_MAX_CHUNK_ELEMENTS", 4 * 200 * 7)  # 7 per chunk
    chunked = simulate_many_loss_vectors(losses, cv, random_state=0)
    for name in whole.tests:
        np.testing.assert_array_equal(whole.pvalues[name], chunked.pvalues[name])
    np.testing.assert_array_equal(whole.tables, chunked.tables)


def test_bcv_cochran_q_on_fixed_losses_is_a_scaled_whole_data_q():
    # The losses do not depend on the training set and each repetition of a
    # BCV tests every record once, so the mean column sums and denominator
    # are the whole data's halved: Q_e = (t / 2) Q(all records) = 10/11 Q.
    losses = make_many_epsilon_losses(300, 4, n_datasets=200, random_state=0)
    result = simulate_many_loss_vectors(
        losses, BlockRegularized5x2CV(random_state=0), random_state=0
    )
    whole = cochran_q((1 - losses)[:, np.newaxis].astype(bool)).statistic
    np.testing.assert_allclose(
        result.statistics["bcv_cochran_q"], 10 / 11 * whole, rtol=1e-12
    )
    np.testing.assert_array_equal(
        result.column_sums.sum(axis=1), 5 * (1 - losses).sum(axis=1)
    )


def test_result_fields():
    losses = make_many_epsilon_losses(30, 3, n_datasets=20, random_state=0)
    result = simulate_many_loss_vectors(
        losses, holdout(), correction=None, random_state=0
    )
    assert result.tests == ["cochran_q", "looney_f", "mcnemar+none"]
    assert result.pairs == [(0, 1), (0, 2), (1, 2)]
    assert result.tables.shape == (20, 3, 1, 2, 2)
    assert result.column_sums.shape == (20, 1, 3)
    np.testing.assert_array_equal(result.tables.sum(axis=(-2, -1)), 10)
    pairwise = result.pairwise["mcnemar"]
    np.testing.assert_array_equal(pairwise.pvalue, pairwise.pvalue_adjusted)
    np.testing.assert_array_equal(
        result.rejections["mcnemar+none"], (pairwise.pvalue < ALPHA).any(axis=1)
    )
    assert pairwise.pair_rates.shape == (3,)
    assert result.statistics["mcnemar+none"] is None
    assert result.n_estimators == 3 and result.correction is None
    assert result.alternative == "two-sided"
    assert "mcnemar+none" in str(result)


@pytest.mark.parametrize(
    "losses, kwargs, message",
    [
        (np.zeros((3, 10)), {}, r"losses must be a 3-D array of shape"),
        (np.zeros((3, 10, 1)), {}, r"n_estimators >= 2; got shape \(3, 10, 1\)"),
        (np.full((3, 10, 3), 2), {}, r"losses must hold 0-1 losses"),
        (np.zeros((3, 10, 3)), {"tests": "bcv_cochran_q", "cv": "holdout"},
         r"bcv_cochran_q needs a block-regularized m×2 design"),
        (np.zeros((3, 10, 3)), {"tests": "cochran_q", "cv": 5},
         r"cochran_q needs one hold-out split"),
        (np.zeros((3, 10, 3)), {"pairwise_tests": "bcv_cochran_q"},
         r"bcv_cochran_q is a test of kind 'many'; pairwise_tests takes"),
        (np.zeros((3, 16, 3)), {"pairwise_tests": "bayesian_correlated_t",
                                "cv": BlockRegularized5x2CV(random_state=0)},
         r"bayesian_correlated_t returns no p-value"),
        (np.zeros((3, 10, 3)), {"correction": "sidak"}, r"'correction' parameter"),
    ],
)  # fmt: skip
def test_bad_input(losses, kwargs, message):
    kwargs = dict(kwargs)
    cv = kwargs.pop("cv", holdout())
    if cv == "holdout":
        cv = holdout()
    with pytest.raises(ValueError, match=message):
        simulate_many_loss_vectors(losses, cv, **kwargs)


def test_degenerate_losses_never_reject():
    # Every algorithm right on every record (or wrong on every one): p = 1.
    for value in (0, 1):
        losses = np.full((20, 40, 3), value)
        result = simulate_many_loss_vectors(
            losses, BlockRegularized5x2CV(random_state=0), random_state=0
        )
        assert all(result.n_rejections[name] == 0 for name in result.tests)
        np.testing.assert_array_equal(result.pvalues["bcv_cochran_q"], 1.0)


# --------------------------------------------------------------------------
# Calibration and power (small, fast)
# --------------------------------------------------------------------------


@pytest.mark.parametrize("n_estimators", [3, 5])
@pytest.mark.parametrize(
    "cv", [holdout(), BlockRegularized5x2CV(random_state=0)], ids=["holdout", "bcv"]
)
def test_type_one_error_at_most_alpha_small(cv, n_estimators):
    losses = make_many_epsilon_losses(
        300, n_estimators, n_datasets=3000, random_state=n_estimators
    )
    result = simulate_many_loss_vectors(losses, cv, random_state=0)
    assert_at_most_alpha(result, 3000)
    # Not degenerate either: the omnibus tests do reject sometimes.
    omnibus = [name for name in result.tests if "+" not in name]
    assert all(result.rates[name] > 0.01 for name in omnibus)


def test_power_small():
    # One algorithm worse by 0.1 (n = 300, L = 3): the omnibus tests detect
    # it more often than at the null, the BCV ones most often.
    losses = make_many_epsilon_losses(300, 3, delta=0.1, n_datasets=500,
                                      random_state=0)  # fmt: skip
    bcv = simulate_many_loss_vectors(
        losses, BlockRegularized5x2CV(random_state=0), random_state=0
    )
    hold = simulate_many_loss_vectors(losses, holdout(), random_state=0)
    assert bcv.rates["bcv_cochran_q"] > 0.85
    assert hold.rates["cochran_q"] > 0.35
    assert bcv.rates["bcv_cochran_q"] > hold.rates["cochran_q"]
    # The worse algorithm is the first: its pairs are rejected most often.
    rates = bcv.pairwise["bcv_mcnemar"].pair_rates
    assert rates[:2].min() > rates[2]


# --------------------------------------------------------------------------
# The full study of doc/reproduction.rst (slow)
# --------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("n_samples", [300, 1000])
@pytest.mark.parametrize("n_estimators", [3, 5])
def test_type_one_error_at_most_alpha_full(n_estimators, n_samples):
    # 20,000 repetitions per cell (doc/reproduction.rst uses 100,000 through
    # benchmarks/reproduce_many.py --full).
    n_repetitions = 20_000
    losses = make_many_epsilon_losses(
        n_samples, n_estimators, n_datasets=n_repetitions, random_state=n_samples
    )
    for cv in (holdout(), BlockRegularized5x2CV(random_state=0)):
        result = simulate_many_loss_vectors(losses, cv, random_state=1)
        assert_at_most_alpha(result, n_repetitions)
        # The hold-out tests are close to alpha on this setup (random test
        # sets), the BCV ones conservative (10/11 of the whole data's Q).
        for name in ("cochran_q", "looney_f"):
            if name in result.rates:
                assert result.rates[name] > 0.04
        if "bcv_cochran_q" in result.rates:
            upper = stats.chi2.sf(1.1 * stats.chi2.isf(ALPHA, n_estimators - 1),
                                  n_estimators - 1)  # fmt: skip
            assert result.rates["bcv_cochran_q"] < upper + 0.005


@pytest.mark.slow
@pytest.mark.parametrize("n_estimators", [3, 5])
def test_omnibus_more_powerful_than_pairwise_holm_full(n_estimators):
    # One algorithm worse by 0.08, n = 300, 10,000 repetitions: each omnibus
    # test rejects more often than the pairwise McNemar tests with Holm's
    # correction on the same design (doc/reproduction.rst).
    n_repetitions = 10_000
    losses = make_many_epsilon_losses(
        300, n_estimators, delta=0.08, n_datasets=n_repetitions, random_state=0
    )
    hold = simulate_many_loss_vectors(losses, holdout(), random_state=0)
    bcv = simulate_many_loss_vectors(
        losses, BlockRegularized5x2CV(random_state=0), random_state=0
    )
    for better, worse in ((hold, "mcnemar+holm"), (bcv, "bcv_mcnemar+holm")):
        omnibus = [name for name in better.tests if "+" not in name]
        for name in omnibus:
            assert better.ci[name][0] > better.ci[worse][1], (name, better.rates)
    assert bcv.ci["bcv_cochran_q"][0] > hold.ci["cochran_q"][1]


def test_bunch_result_is_a_simulation_result():
    losses = make_many_epsilon_losses(30, 3, n_datasets=5, random_state=0)
    result = simulate_many_loss_vectors(losses, holdout(), random_state=0)
    assert isinstance(result, Bunch)
    assert result.n_repetitions == 5
    assert set(result.ci) == set(result.tests)
