"""Tests of the synthetic data sets (seed 000 §5.2, seed 001 §3.1)."""

import math

import numpy as np
import pytest

from sklearn_bcv import mcnemar_table
from sklearn_bcv.datasets import (
    TWO_GAUSSIANS_CASES,
    make_epsilon_losses,
    make_exp6,
    make_simple,
    make_two_gaussians,
)

GENERATORS = [
    lambda random_state: make_epsilon_losses(50, random_state=random_state),
    lambda random_state: make_exp6(50, random_state=random_state),
    lambda random_state: make_simple(50, delta=0.5, random_state=random_state),
    lambda random_state: make_two_gaussians(50, random_state=random_state),
]
GENERATOR_IDS = ["epsilon", "exp6", "simple", "two_gaussians"]


@pytest.mark.parametrize("generate", GENERATORS, ids=GENERATOR_IDS)
def test_generators_are_reproducible(generate):
    first, second = generate(0), generate(0)
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    other = generate(1)
    assert any(not np.array_equal(a, b) for a, b in zip(first, other))


# --------------------------------------------------------------------------
# Epsilon loss vectors
# --------------------------------------------------------------------------


def test_epsilon_losses_rates_per_half():
    # Seed 000 §5.2: A wrong with prob eps/2 on the first half and 3 eps/2 on
    # the second; B the other way round; both eps overall.
    eps = 0.2
    loss_a, loss_b = make_epsilon_losses(
        300, epsilon=eps, n_datasets=4000, random_state=0
    )
    assert loss_a.shape == loss_b.shape == (4000, 300)
    assert set(np.unique(loss_a)) <= {0, 1}
    # Each half-mean averages 600,000 Bernoulli draws: standard error < 0.0005.
    np.testing.assert_allclose(loss_a[:, :150].mean(), eps / 2, atol=0.002)
    np.testing.assert_allclose(loss_a[:, 150:].mean(), 3 * eps / 2, atol=0.002)
    np.testing.assert_allclose(loss_b[:, :150].mean(), 3 * eps / 2, atol=0.002)
    np.testing.assert_allclose(loss_b[:, 150:].mean(), eps / 2, atol=0.002)


def test_epsilon_losses_of_a_and_b_are_independent():
    # Independent draws: P(both wrong) = (eps/2)(3 eps/2) = 3 eps²/4 = 0.03 on
    # either half for eps = 0.2 (a shared draw would give eps/2 = 0.1).
    loss_a, loss_b = make_epsilon_losses(
        300, epsilon=0.2, n_datasets=4000, random_state=1
    )
    np.testing.assert_allclose((loss_a & loss_b).mean(), 0.03, atol=0.002)


def test_epsilon_losses_expected_contingency_table():
    # The Notes' expected table for the paper's setting (n = 300, eps = 0.1),
    # counted by sklearn_bcv's own mcnemar_table on predictions that are
    # wrong exactly where the losses are 1:
    # n01 = n10 = n (eps/2 (1 - 3 eps/2) + 3 eps/2 (1 - eps/2)) / 2 = 27.75,
    # n00 = n 3 eps² / 4 = 2.25.
    loss_a, loss_b = make_epsilon_losses(300, n_datasets=2000, random_state=2)
    y_true = np.zeros(300, dtype=int)
    tables = np.array([mcnemar_table(y_true, a, b) for a, b in zip(loss_a, loss_b)])
    mean = tables.mean(axis=0)
    # Standard errors over 2,000 data sets: about 0.11 for n01 and n10, 0.034
    # for n00.
    assert mean[0, 1] == pytest.approx(27.75, abs=0.4)
    assert mean[1, 0] == pytest.approx(27.75, abs=0.4)
    assert mean[0, 0] == pytest.approx(2.25, abs=0.12)
    assert mean.sum() == 300


def test_epsilon_losses_one_data_set_and_odd_size():
    loss_a, loss_b = make_epsilon_losses(7, epsilon=2 / 3, random_state=0)
    assert loss_a.shape == loss_b.shape == (7,)
    # eps = 2/3: on the first half (3 records) B is always wrong; on the other
    # four records A is.
    np.testing.assert_array_equal(loss_b[:3], 1)
    np.testing.assert_array_equal(loss_a[3:], 1)


def test_epsilon_zero_gives_no_losses():
    loss_a, loss_b = make_epsilon_losses(10, epsilon=0.0, random_state=0)
    assert loss_a.sum() == loss_b.sum() == 0


@pytest.mark.parametrize(
    "params, match",
    [
        ({"epsilon": 0.7}, "epsilon"),
        ({"epsilon": -0.1}, "epsilon"),
        ({"n_samples": 1}, "n_samples"),
        ({"n_datasets": 0}, "n_datasets"),
    ],
)
def test_epsilon_losses_bad_input(params, match):
    with pytest.raises(ValueError, match=match):
        make_epsilon_losses(**params)


# --------------------------------------------------------------------------
# EXP6
# --------------------------------------------------------------------------

# Grid points labelled by hand from eq. 16-17 (class index = j - 1 for Y_j):
# f1(x) = x² - 4x + 6, f2(x) = 4 sin(x/2) + 8, f3(x) = -(x² - 108x + 236)/25.
EXP6_BY_HAND = [
    # (0, 15): f1 = 6, f2 = 8 -> x2 above both -> Y1.
    ((0.0, 15.0), 0),
    # (5.5, 14): f1 = 14.25 > 14, f2 = 9.52 < 14, f3 = 13.11 < 14 -> Y2.
    ((5.5, 14.0), 1),
    # (2, 2): f1 = 2 (on the boundary, g1 = 0 counts as >= 0), f2 = 11.37 -> Y3.
    ((2.0, 2.0), 2),
    # (0, 0): f1 = 6, f2 = 8, f3 = -9.44 -> below f1 and f2, above f3 -> Y4.
    ((0.0, 0.0), 3),
    # (7, 10): f1 = 27, f2 = 6.60, f3 = 18.84 -> above f2 only -> Y5.
    ((7.0, 10.0), 4),
    # (7, 0): below f1 = 27, f2 = 6.60 and f3 = 18.84 -> Y6.
    ((7.0, 0.0), 5),
    # (4, 6.5): f1 = 6, f2 = 11.64, f3 = 7.2: cases Y3 and Y6 both hold;
    # the first listed (Y3) wins (documented in make_exp6's Notes).
    ((4.0, 6.5), 2),
]


def test_exp6_labels_follow_eq16_on_hand_computed_grid_points():
    X, y = make_exp6(None)
    index = {tuple(np.round(x, 1)): label for x, label in zip(X, y)}
    for point, expected in EXP6_BY_HAND:
        assert index[point] == expected, point


def test_exp6_grid_is_the_whole_0_1_grid():
    X, y = make_exp6(None)
    assert X.shape == (151 * 151, 2)
    assert len({tuple(row) for row in np.round(X * 10).astype(int)}) == 151 * 151
    assert X.min() == 0.0 and X.max() == 15.0
    # Every class occurs and every point has one of six labels.
    np.testing.assert_array_equal(np.unique(y), np.arange(6))


def _exp6_label_scalar(x1, x2):
    """Eq. 16 read case by case with Python floats (no numpy)."""
    g1 = x2 - (x1**2 - 4 * x1 + 6)
    g2 = x2 - (4 * math.sin(x1 / 2) + 8)
    g3 = x2 - (-(x1**2 - 108 * x1 + 236) / 25)
    cases = [
        g1 >= 0 and g2 >= 0,
        g1 < 0 and g2 >= 0 and g3 >= 0,
        g1 >= 0 and g2 < 0,
        g1 < 0 and g2 < 0 and g3 >= 0,
        g2 >= 0 and g3 < 0,
        g2 < 0 and g3 < 0,
    ]
    return cases.index(True)


def test_exp6_grid_labels_agree_with_a_scalar_reading_of_eq16():
    # A second, independent computation over the whole grid: point by point
    # with Python floats, x = k / 10 exactly as the generator builds it.
    X, y = make_exp6(None)
    expected = [
        _exp6_label_scalar(k1 / 10, k2 / 10) for k1 in range(151) for k2 in range(151)
    ]
    np.testing.assert_array_equal(y, expected)
    np.testing.assert_array_equal(
        np.bincount(expected), [2250, 67, 3284, 819, 7794, 8587]
    )


def test_exp6_overlap_of_eq16_is_the_documented_sliver():
    # Points where two cases of eq. 16 hold at once: g1 >= 0 and g3 < 0,
    # i.e. f1 <= x2 < f3, only possible where f1 < f3 (2.93 < x1 < 5.07).
    X, _ = make_exp6(None)
    x1, x2 = X.T
    f1 = x1**2 - 4 * x1 + 6
    f3 = -(x1**2 - 108 * x1 + 236) / 25
    overlap = (x2 >= f1) & (x2 < f3)
    assert overlap.any()
    assert x1[overlap].min() > 2.92 and x1[overlap].max() < 5.08


def test_exp6_samples_lie_on_the_grid_with_grid_labels():
    X, y = make_exp6(500, random_state=0)
    assert X.shape == (500, 2) and y.shape == (500,)
    np.testing.assert_allclose(X * 10, np.round(X * 10), atol=1e-9)
    X_grid, y_grid = make_exp6(None)
    k1, k2 = np.round(X * 10).astype(int).T
    np.testing.assert_array_equal(y, y_grid[k1 * 151 + k2])


def test_exp6_bad_input():
    with pytest.raises(ValueError, match="n_samples"):
        make_exp6(0)


# --------------------------------------------------------------------------
# Simple and two Gaussians
# --------------------------------------------------------------------------


@pytest.mark.parametrize("delta", [0.0, 0.5, 1.0])
def test_simple_class_means_and_balance(delta):
    X, y = make_simple(20000, delta=delta, random_state=0)
    assert X.shape == (20000, 1)
    # About 10,000 records per class: standard error of a class mean ~0.01.
    assert abs(X[y == 0].mean()) < 0.05
    assert abs(X[y == 1].mean() - delta) < 0.05
    assert abs(X[y == 0].std() - 1) < 0.05 and abs(X[y == 1].std() - 1) < 0.05
    assert abs(y.mean() - 0.5) < 0.02  # standard error 0.0035


def test_simple_bad_input():
    with pytest.raises(ValueError, match="delta"):
        make_simple(10, delta=np.inf)


@pytest.mark.parametrize("case", sorted(TWO_GAUSSIANS_CASES))
def test_two_gaussians_cases_of_seed_001(case):
    params = TWO_GAUSSIANS_CASES[case]
    X, y = make_two_gaussians(20000, **params, random_state=case)
    assert X.shape == (20000, 2)
    np.testing.assert_allclose(X[y == 0].mean(axis=0), [0, 0], atol=0.05)
    np.testing.assert_allclose(X[y == 1].mean(axis=0), params["mean_1"], atol=0.06)
    np.testing.assert_allclose(np.cov(X[y == 0].T), np.eye(2), atol=0.06)
    np.testing.assert_allclose(
        np.cov(X[y == 1].T),
        params["cov_1"] * np.eye(2),
        atol=0.06 * params["cov_1"] + 0.02,
    )


def test_two_gaussians_table3_transcription():
    # Seed 001 Table 3: mu_1 and Sigma_1 of cases (1)-(8).
    means = [(-1.5, -1.5), (-0.5, -0.5)] + [(1, 1)] * 4 + [(2, 2)] * 2
    scales = [1 / 2, 1 / 6, 1 / 6, 1 / 3, 1 / 2, 7 / 3, 1 / 6, 1 / 2]
    for case, mean, scale in zip(range(1, 9), means, scales):
        assert TWO_GAUSSIANS_CASES[case]["mean_1"] == mean
        assert TWO_GAUSSIANS_CASES[case]["cov_1"] == scale


def test_two_gaussians_full_covariance_and_dimension():
    cov = [[1.0, 0.8, 0.0], [0.8, 1.0, 0.0], [0.0, 0.0, 2.0]]
    X, y = make_two_gaussians(
        20000, mean_0=(0, 0, 0), cov_0=cov, mean_1=(1, 2, 3), random_state=0
    )
    assert X.shape == (20000, 3)
    np.testing.assert_allclose(np.cov(X[y == 0].T), cov, atol=0.08)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"mean_1": (1.0, 1.0, 1.0)}, "same length"),
        ({"cov_1": -1.0}, "positive definite"),
        ({"cov_1": [[1.0, 2.0], [2.0, 1.0]]}, "positive definite"),
        ({"cov_0": np.eye(3)}, r"cov_0 must be .* \(2, 2\) matrix"),
        ({"mean_0": []}, "mean_0 must be a non-empty"),
    ],
)
def test_two_gaussians_bad_input(params, match):
    with pytest.raises(ValueError, match=match):
        make_two_gaussians(10, **params)
