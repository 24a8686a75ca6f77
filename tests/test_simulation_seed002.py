"""Seed 002 §4: zeroR against BN-hat on the network C -> F."""

import numpy as np
import pytest
from sklearn.model_selection import RepeatedKFold

from sklearn_bcv import benchmark
from sklearn_bcv.simulation import (
    BinaryNaiveBayes,
    ZeroRClassifier,
    simulate_seed002,
)
from sklearn_bcv.simulation._seed002 import (
    draw_cells,
    draw_folds,
    fold_accuracies,
    poisson_binomial_batch,
    wilcoxon_batch,
)
from sklearn_bcv.stats import poisson_binomial, wilcoxon


def _records(cells, rng):
    """X (n, 1), y (n,) holding the cell counts (c0 f0, c0 f1, c1 f0, c1 f1)."""
    y = np.repeat([0, 0, 1, 1], cells)
    f = np.repeat([0, 1, 0, 1], cells)
    order = rng.permutation(y.size)
    return f[order, None], y[order]


def _cells(X, y):
    f = X[:, 0]
    return np.array([np.sum((y == c) & (f == v)) for c in (0, 1) for v in (0, 1)])


@pytest.mark.parametrize(
    "smoothing, zeror_ties, seed",
    [(0.5, "random", 0), (1.0, "random", 3), (0.5, "first", 1)],
)
def test_vectorised_folds_match_benchmark(smoothing, zeror_ties, seed):
    rng = np.random.default_rng(seed)
    sizes = np.array([20, 24, 25, 50, 100])
    all_cells = draw_cells(sizes, np.full(sizes.size, 0.05), rng)
    data = {f"d{i}": _records(c, rng) for i, c in enumerate(all_cells)}
    cv = RepeatedKFold(n_splits=10, n_repeats=2, random_state=seed)
    zeror = ZeroRClassifier(ties=zeror_ties, random_state=seed)
    result = benchmark(
        {"bn": BinaryNaiveBayes(smoothing=smoothing), "zeror": zeror},
        data,
        cv=cv,
        tests=[],
        pairwise_tests=[],
    )
    uniform = np.random.RandomState(seed).random_sample()  # the tie draw of every fit
    ties_seen = 0
    for i, (X, y) in enumerate(data.values()):
        test = np.array([_cells(X[te], y[te]) for _, te in cv.split(X, y)])
        train = all_cells[i] - test
        ties_seen += np.sum(train[:, :2].sum(1) == train[:, 2:].sum(1))
        z, b = fold_accuracies(
            all_cells[i],
            test,
            smoothing=smoothing,
            zeror_ties=zeror_ties,
            uniforms=np.full(test.shape[0], uniform),
        )
        np.testing.assert_array_equal(result.split_scores[i, :, 0], b)
        np.testing.assert_array_equal(result.split_scores[i, :, 1], z)
    assert ties_seen > 0  # the tie rule of zeroR was exercised


def test_estimators_fit_predict():
    X = np.array([[0], [0], [1], [1], [1]])
    y = np.array([0, 0, 1, 1, 0])
    assert ZeroRClassifier().fit(X, y).predict(X).tolist() == [0] * 5
    assert BinaryNaiveBayes().fit(X, y).predict([[0], [1]]).tolist() == [0, 1]
    tie = np.array([0, 1, 0, 1])
    assert ZeroRClassifier(ties="first").fit(X[:4], tie).prediction_ == 0
    draws = {
        ZeroRClassifier(random_state=s).fit(X[:4], tie).prediction_ for s in range(20)
    }
    assert draws == {0, 1}
    with pytest.raises(ValueError, match="binary"):
        BinaryNaiveBayes().fit([[2], [0]], [0, 1])


@pytest.mark.parametrize("stratified", [False, True])
def test_draw_folds_deals_every_record(stratified):
    rng = np.random.default_rng(0)
    sizes = rng.choice([25, 50, 101], size=(30, 4))
    cells = draw_cells(sizes, np.full(sizes.shape, 0.1), rng)
    folds = draw_folds(cells, 3, 10, rng, stratified=stratified)
    assert folds.shape == (30, 4, 30, 4)
    assert np.all(folds >= 0)
    per_run = folds.reshape(30, 4, 3, 10, 4).sum(axis=3)
    np.testing.assert_array_equal(per_run, np.repeat(cells[:, :, None], 3, axis=2))
    n_test = folds.sum(-1)
    assert np.all(n_test.max(-1) - n_test.min(-1) <= 1)
    if stratified:
        ones = folds[..., 2] + folds[..., 3]
        assert np.all(ones.max(-1) - ones.min(-1) <= 1)


def _simulated_differences(rng, n_experiments=60, q=20, m=2):
    sizes = rng.choice([25, 50, 100], size=(n_experiments, q))
    cells = draw_cells(sizes, np.full(sizes.shape, 0.03), rng)
    test = draw_folds(cells, m, 10, rng)
    z, b = fold_accuracies(
        cells[..., None, :], test, uniforms=rng.random(test.shape[:-1])
    )
    return b - z, sizes


def test_batched_tests_match_registered():
    rng = np.random.default_rng(1)
    d, sizes = _simulated_differences(rng)
    d[0, :] = 0.0  # every data set tied
    d[1, :3] = 0.0
    d[2:4, :, :] = rng.normal(size=(2, d.shape[1], 1))  # no zeros nor ties
    n_test = sizes / 10.0
    p_a = poisson_binomial_batch(d, sizes - n_test, n_test)
    means = d.mean(axis=-1)
    pvalue = wilcoxon_batch(means)
    for r in range(d.shape[0]):
        expected = poisson_binomial(
            d[r], sizes[r] - n_test[r], n_test[r], alternative="greater"
        )
        np.testing.assert_allclose(p_a[r], expected.p_a_better, rtol=1e-10, atol=1e-12)
        found = wilcoxon(means[r], alternative="greater")
        np.testing.assert_allclose(pvalue[r], found.pvalue, rtol=1e-10)
    assert pvalue[0] == 1.0
    # a tie counted as a win of B can only lower p_a_better
    assert np.all(
        poisson_binomial_batch(d, sizes - n_test, n_test, ties="b") <= p_a + 1e-12
    )


def test_simulate_small_reproducible():
    kwargs = dict(deltas=[0.0, 0.08], n_runs=(1, 2), n_datasets=20, random_state=0)
    first = simulate_seed002(60, **kwargs)
    again = simulate_seed002(60, n_jobs=2, **kwargs)
    for key, rate in first.rates.items():
        np.testing.assert_array_equal(rate, again.rates[key])
        assert np.all((first.ci[key][:, 0] <= rate) & (rate <= first.ci[key][:, 1]))
    assert "Poisson, m=2" in first.to_text()
    assert first.to_text(rst=True).startswith("=")
    cauchy = simulate_seed002(
        20, design="cauchy", deltas=[0.02], n_datasets=10, n_runs=(1,)
    )
    assert cauchy.rates[(1, "wilcoxon")].shape == (1,)
    # a larger assumed correlation widens the posteriors: fewer decisions
    wide = simulate_seed002(60, rho=0.5, **kwargs)
    for m in (1, 2):
        key = (m, "poisson_binomial")
        assert np.all(wide.rates[key] <= first.rates[key])
        np.testing.assert_array_equal(
            wide.rates[(m, "wilcoxon")], first.rates[(m, "wilcoxon")]
        )


@pytest.mark.slow
def test_calibrated_at_zero_and_power_grows():
    n = 1000
    result = simulate_seed002(
        n, deltas=[0.0, 0.03, 0.06], n_runs=(1, 10), random_state=2, n_jobs=2
    )
    margin = 3 * np.sqrt(0.05 * 0.95 / n)
    for key, rate in result.rates.items():
        assert rate[0] <= 0.05 + margin, key
        assert rate[1] > rate[0] and rate[2] > rate[1] + 0.2, (key, rate)
