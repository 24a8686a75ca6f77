"""Hostile input to the Displays and the simulations, round 2 (issue 28).

7. impossible input (mean ranks that no table of ranks gives, probabilities
not summing to 1, NaN read as a decision, NaN and empty simulation grids)
and 4. runaway cost (a k = 150 significance matrix, 2·10⁵ looks): one
validation helper per kind of input, each tried with several variants.
"""

import time
from itertools import permutations
from numbers import Integral

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sklearn_bcv._plot._validate import (
    MAX_LOOKS,
    MAX_MATRIX_K,
    check_bool_matrix,
    check_finite_sequence,
    check_mean_ranks,
    check_probabilities,
)
from sklearn_bcv.simulation._checks import check_grid

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from sklearn_bcv import (  # noqa: E402
    CriticalDifferenceDisplay,
    PosteriorSimplexDisplay,
    SequentialDisplay,
    SignificanceMatrixDisplay,
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


# ---- mean ranks -----------------------------------------------------------------


@pytest.mark.parametrize(
    "ranks, match",
    [
        ([1, 1, 1], "must sum to k\\(k \\+ 1\\)/2 = 6"),
        ([3, 3, 3], "must sum to k\\(k \\+ 1\\)/2 = 6"),
        ([1, 1, 4], "between 1 and k = 3"),
        ([1, 1.2, 3.8, 4.0], "its 2 smallest sum to less than 3"),
        ([1.0, 1.0, 2.0, 6.0], "between 1 and k = 4"),
        ([1.1, 1.1, 1.1, 6.7], "between 1 and k = 4"),
        ([1.2, 1.3, 1.5, 4.0, 2.0, 11.0], "between 1 and k = 6"),
        ([1.5, 1.6, 2.0, 5.0, 5.4, 5.5], "its 3 smallest sum to less than 6"),
        ([np.nan, 2, 1], "finite ranks"),
        ([[1, 2]], "1-D array of at least 2"),
    ],
)
def test_impossible_mean_ranks_are_refused(ranks, match):
    with pytest.raises(ValueError, match=match):
        check_mean_ranks(ranks)
    if np.ndim(ranks) != 1:
        return
    with pytest.raises(ValueError, match=match):
        CriticalDifferenceDisplay.from_ranks(
            ranks, n_datasets=10, names=[f"m{j}" for j in range(np.size(ranks))]
        )


def test_demsar_rounded_ranks_are_accepted():
    # Demšar (2006), Table 6: ranks printed to three decimals.
    ranks = [3.143, 2.000, 2.893, 1.964]
    assert check_mean_ranks(ranks).sum() == pytest.approx(10, abs=1e-9)
    display = CriticalDifferenceDisplay.from_ranks(
        ranks,
        n_datasets=14,
        names=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"],
        continuity=False,
    )
    # CD = q_0.05 sqrt(k(k + 1)/(6N)) = 2.569 * sqrt(20/84) (Demšar, p. 12).
    assert display.critical_difference == pytest.approx(
        2.569 * np.sqrt(20 / 84), abs=1e-3
    )


@settings(max_examples=60, deadline=None)
@given(
    k=st.integers(2, 7),
    n=st.integers(1, 12),
    seed=st.integers(0, 2**32 - 1),
    ties=st.booleans(),
)
def test_every_table_of_ranks_gives_accepted_mean_ranks(k, n, seed, ties):
    # Invariant: mean ranks of any table (with ties averaged) pass the check.
    from scipy.stats import rankdata

    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 3 if ties else 10**6, size=(n, k))
    mean_ranks = np.mean([rankdata(row) for row in scores], axis=0)
    np.testing.assert_array_equal(check_mean_ranks(mean_ranks), mean_ranks)


def test_subset_condition_is_exact_for_k_3():
    # Every permutation average of 3 estimators over 2 data sets is accepted;
    # moving one estimator's mean rank below what its rank-sum allows is not.
    for first in permutations([1, 2, 3]):
        for second in permutations([1, 2, 3]):
            check_mean_ranks((np.array(first) + np.array(second)) / 2)
    with pytest.raises(ValueError, match="2 smallest"):
        check_mean_ranks([1.0, 1.5, 3.5, 4.0])  # 1 + 1.5 < 3, yet sums to 10


# ---- probabilities --------------------------------------------------------------


@pytest.mark.parametrize(
    "probabilities, match",
    [
        ((0.5, 0.5, 0.5), "summing to 1; got \\[0.5, 0.5, 0.5\\], summing to 1.5"),
        ((0.1, 0.1, 0.1), "summing to 0.3"),
        ((0.5, 1.5, -1.0), "in \\[0, 1\\] summing to 1"),
        ((np.nan, 0.5, 0.5), "3 finite probabilities"),
        ((0.5, 0.5), "3 finite probabilities"),
        (("a", "b", "c"), "3 finite probabilities"),
    ],
)
def test_probabilities_must_sum_to_one(probabilities, match):
    with pytest.raises(ValueError, match=match):
        check_probabilities(probabilities, name="p")
    with pytest.raises(ValueError, match=match):
        PosteriorSimplexDisplay([[0.2, 0.3, 0.5]], probabilities=probabilities).plot()


def test_rounded_probabilities_are_accepted():
    display = PosteriorSimplexDisplay(
        [[0.2, 0.3, 0.5]], probabilities=(0.333, 0.333, 0.333)
    ).plot()
    assert display.probabilities_ == (0.333, 0.333, 0.333)


def test_posterior_display_probabilities_must_sum_to_one():
    from sklearn_bcv import PosteriorDisplay

    with pytest.raises(ValueError, match="summing to 1"):
        PosteriorDisplay(
            0.01, 0.02, 9, rope=0.01, p_a_better=0.9, p_rope=0.9, p_b_better=0.9
        ).plot()


# ---- NaN is not a decision ------------------------------------------------------


@pytest.mark.parametrize(
    "values",
    [
        [[False, np.nan], [np.nan, False]],
        [[0, np.nan], [1, 0]],
        [[0, 2], [2, 0]],
        [[0, 0.5], [0.5, 0]],
    ],
)
def test_nan_or_non_boolean_decisions_are_refused(values):
    with pytest.raises(ValueError, match="must hold booleans"):
        SignificanceMatrixDisplay(values, names=["a", "b"], kind="reject").plot()
    with pytest.raises(ValueError, match="must hold booleans"):
        SignificanceMatrixDisplay(
            [[1, 0.2], [0.2, 1]], names=["a", "b"], reject=values
        ).plot()


def test_untested_cells_may_hold_nan_and_booleans_stay_booleans():
    np.testing.assert_array_equal(
        check_bool_matrix([[1, 0], [0, 1]], name="x"), [[True, False], [False, True]]
    )
    display = SignificanceMatrixDisplay(
        [[np.nan, 1], [0, np.nan]], names=["a", "b"], kind="reject"
    ).plot()
    assert display.text_[0, 0] is None


@pytest.mark.parametrize("kind", ["pvalue", "probability"])
def test_nan_p_values_are_refused(kind):
    with pytest.raises(ValueError, match="in every tested cell"):
        SignificanceMatrixDisplay(
            [[1, np.nan], [np.nan, 1]], names=["a", "b"], kind=kind
        ).plot()


# ---- sequential: NaN and runaway looks --------------------------------------------


@pytest.mark.parametrize(
    "field, value, match",
    [
        ("statistic", [1.0, np.nan], "statistic must be finite; got nan at position 1"),
        ("statistic", [1.0, np.inf], "statistic must be finite; got inf"),
        ("repeats", [3, np.nan], "repeats must be finite"),
        ("lower", [np.nan, -2.1, -2.0], "lower must be not NaN"),
        ("upper", [2.2, np.nan, 2.0], "upper must be not NaN"),
    ],
)
def test_sequential_display_refuses_nan(field, value, match):
    kwargs = {
        "repeats": [3, 4],
        "statistic": [1.2, 2.4],
        "boundary_repeats": [3, 4, 5],
        "lower": [-2.2, -2.1, -2.0],
        "upper": [2.2, 2.1, 2.0],
    }
    kwargs[field] = value
    with pytest.raises(ValueError, match=match):
        SequentialDisplay(**kwargs).plot()


def test_sequential_display_one_sided_boundary_still_drawn():
    display = SequentialDisplay(
        [3], [1.0], [3, 4], [-np.inf, -np.inf], [2.0, 1.9]
    ).plot()
    assert display.lower_line_ is None


@pytest.mark.parametrize("n_looks", [MAX_LOOKS + 1, 200_000])
def test_sequential_display_with_too_many_looks_is_refused_at_once(n_looks):
    looks = np.arange(1, n_looks + 1)
    start = time.perf_counter()
    with pytest.raises(ValueError, match=f"has {n_looks:,} values; .* at most 1,000"):
        SequentialDisplay([1], [0.0], looks, -np.ones(n_looks), np.ones(n_looks)).plot()
    assert time.perf_counter() - start < 5


def test_sequential_display_many_looks_have_bounded_ticks():
    n = MAX_LOOKS
    display = SequentialDisplay(
        [1, 2], [0.1, 0.2], np.arange(1, n + 1), -np.ones(n), np.ones(n)
    ).plot()
    assert len(display.ax_.get_xticks()) <= 15


# ---- significance matrix: memory --------------------------------------------------


@pytest.mark.parametrize("k", [MAX_MATRIX_K + 1, 150, 300])
def test_significance_matrix_above_the_limit_is_refused_before_drawing(k):
    p = np.full((k, k), 0.5)
    start = time.perf_counter()
    with pytest.raises(ValueError, match=f"k = {k} estimators; .* at most 40"):
        SignificanceMatrixDisplay(p, names=[f"e{i}" for i in range(k)]).plot()
    assert time.perf_counter() - start < 5


def test_significance_matrix_at_the_limit_is_drawn():
    k = MAX_MATRIX_K
    display = SignificanceMatrixDisplay(
        np.full((k, k), 0.5), names=[f"e{i}" for i in range(k)]
    ).plot()
    assert display.text_.shape == (k, k)


# ---- simulation grids -------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"deltas": [np.nan]}, "deltas must be finite; got nan"),
        ({"deltas": [0.0, np.inf]}, "deltas must be finite; got inf"),
        ({"deltas": [0.7]}, r"deltas must be in \[-0.5, 0.5\]; got 0.7"),
        ({"deltas": []}, "deltas must hold at least one value"),
        ({"n_runs": []}, "n_runs must hold at least one value"),
        ({"n_runs": [0]}, "n_runs must be an integer >= 1 and <= 100; got 0"),
        ({"n_runs": [1.5]}, "n_runs must be an integer >= 1 and <= 100; got 1.5 of"),
        ({"n_runs": [True]}, "n_runs must be an integer >= 1 and <= 100; got True of"),
    ],
)
def test_simulate_seed002_grids(kwargs, match):
    from sklearn_bcv.simulation import simulate_seed002

    start = time.perf_counter()
    with pytest.raises(ValueError, match=match):
        simulate_seed002(n_experiments=2, **kwargs)
    assert time.perf_counter() - start < 5  # refused before any simulation


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"delta": [np.nan]}, "delta must be finite"),
        ({"delta": []}, "delta must hold at least one value"),
        ({"n_samples": [0]}, "n_samples must be an integer >= 1 and <= 100,000; got 0"),
        ({"n_samples": []}, "n_samples must hold at least one value"),
    ],
)
def test_simulate_sequential_grids(kwargs, match):
    from sklearn_bcv.simulation import simulate_sequential

    with pytest.raises(ValueError, match=match):
        simulate_sequential("simple", n_repetitions=2, **kwargs)


def test_check_grid_returns_plain_numbers():
    assert check_grid(np.array([1, 2]), "n", kind=Integral) == (1, 2)
    assert check_grid(0.25, "d", low=0, high=1) == (0.25,)
    with pytest.raises(ValueError, match=r"d must be in \(0, 1\]; got 0"):
        check_grid([0], "d", low=0, high=1, closed=(False, True))
    seq = check_finite_sequence([1, -np.inf], name="lower", allow_inf=True)
    assert seq[1] == -np.inf
