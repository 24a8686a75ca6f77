"""Almost stochastic order (sklearn_bcv.stats._aso)."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special

from sklearn_bcv import available_tests, compare_predictions, get_test
from sklearn_bcv.stats import almost_stochastic_order, aso
from sklearn_bcv.stats._aso import quantile_steps, violation_ratio


def _integrated_ratio(a, b, n_points=400_000):
    """ε(F, G) by the midpoint rule on a fine grid of t, the quantile
    functions from numpy's ``inverted_cdf`` (the smallest x with
    F(x) >= t): an independent computation of the exact sum."""
    t = (np.arange(n_points) + 0.5) / n_points
    f = np.quantile(a, t, method="inverted_cdf")
    g = np.quantile(b, t, method="inverted_cdf")
    gap2 = (f - g) ** 2
    return gap2[f < g].sum() / gap2.sum()


def test_violation_ratio_hand_derived():
    # F⁻¹ = 0, 0 | 5, 5 and G⁻¹ = 1 | 2, 2 | 3 on (0, 1/3], (1/3, 1/2],
    # (1/2, 2/3], (2/3, 1]: gaps -1, -2, 3, 2, widths 1/3, 1/6, 1/6, 1/3;
    # ∫gap² = 1/3 + 4/6 + 9/6 + 4/3 = 23/6, of which 1 below.
    assert violation_ratio([0, 5], [1, 2, 3]) == pytest.approx(6 / 23, abs=1e-15)
    assert violation_ratio([1, 2, 3], [0, 5]) == pytest.approx(17 / 23, abs=1e-15)
    # Equal halves above and below.
    assert violation_ratio([0, 3], [1, 2]) == pytest.approx(0.5, abs=1e-15)


def test_quantile_steps_widths_and_indices():
    index_a, index_b, width = quantile_steps(2, 3)
    assert index_a.tolist() == [0, 0, 1, 1]
    assert index_b.tolist() == [0, 1, 1, 2]
    np.testing.assert_allclose(width, [1 / 3, 1 / 6, 1 / 6, 1 / 3])
    for n, m in [(1, 1), (4, 6), (7, 13), (10, 10)]:
        index_a, index_b, width = quantile_steps(n, m)
        assert width.sum() == pytest.approx(1.0)
        assert np.all(np.diff(index_a) >= 0) and np.all(np.diff(index_b) >= 0)
        assert index_a[-1] == n - 1 and index_b[-1] == m - 1


@pytest.mark.parametrize("n, m", [(5, 5), (7, 13), (20, 9), (50, 50)])
def test_violation_ratio_matches_numerical_integral(n, m):
    rng = np.random.default_rng(n * 100 + m)
    a = rng.normal(0.2, 1.0, n)
    b = rng.gamma(2.0, 0.5, m)
    assert violation_ratio(a, b) == pytest.approx(_integrated_ratio(a, b), abs=2e-4)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-1000, 1000), min_size=2, max_size=12),
    st.lists(st.integers(-1000, 1000), min_size=2, max_size=12),
)
def test_violation_ratio_invariants(a, b):
    ratio = violation_ratio(a, b)
    assert 0.0 <= ratio <= 1.0
    reverse = violation_ratio(b, a)
    if sorted(a) == sorted(b):
        assert ratio == reverse == 0.5
    else:
        # The two directions share the distance: ε(F, G) + ε(G, F) = 1
        # (unless every gap is 0 on a set of full measure).
        assert ratio + reverse == pytest.approx(1.0, abs=1e-9) or ratio == 0.5
    # Shifts and positive scalings of both samples (exact on integers).
    shifted = violation_ratio(np.add(a, 7.0), np.add(b, 7.0))
    assert shifted == pytest.approx(ratio, abs=1e-12)
    scaled = violation_ratio(np.multiply(a, 0.125), np.multiply(b, 0.125))
    assert scaled == pytest.approx(ratio, abs=1e-12)


def test_violation_ratio_degenerate_and_extreme():
    assert violation_ratio([1.0, 2.0], [2.0, 1.0]) == 0.5  # 0/0
    assert violation_ratio([3.0, 3.0], [3.0, 3.0]) == 0.5
    assert violation_ratio([2.0, 3.0], [0.0, 1.0]) == 0.0
    assert violation_ratio([0.0, 1.0], [2.0, 3.0]) == 1.0
    big = np.array([1e308, -1e308, 5e307])
    assert violation_ratio(big, big[::-1] * 0.5) == pytest.approx(
        violation_ratio(big / 1e300, big[::-1] * 0.5 / 1e300)
    )
    tiny = np.array([1e-310, 3e-310, 2e-310])
    assert violation_ratio(tiny, tiny * 2) == 1.0


def test_eps_min_formula_and_bonferroni():
    rng = np.random.default_rng(3)
    a, b = rng.normal(0.3, 1, 12), rng.normal(0, 1, 9)
    for m in (1, 3, 10):
        result = almost_stochastic_order(a, b, n_comparisons=m, random_state=0)
        corrected = 1 - 0.05 / m
        assert result.corrected_confidence_level == pytest.approx(corrected)
        root = np.sqrt(12 * 9 / 21)
        expected = (
            result.violation_ratio + result.sigma * special.ndtri(corrected) / root
        )
        assert result.eps_min == pytest.approx(np.clip(expected, 0, 1))
    # Same bootstrap, higher confidence: a larger upper bound.
    bounds = [
        almost_stochastic_order(a, b, n_comparisons=m, random_state=0).eps_min
        for m in (1, 2, 5, 50)
    ]
    assert bounds == sorted(bounds) and bounds[0] < bounds[-1]


def test_reproducible_and_global_state_untouched():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=10), rng.normal(size=10)
    # numpy's global state, read only (what deepsig mutates).
    before = np.random.get_state()[1].copy()  # noqa: NPY002
    first = almost_stochastic_order(a, b, random_state=42)
    second = almost_stochastic_order(a, b, random_state=42)
    almost_stochastic_order(a, b)  # fresh entropy, still not the global state
    np.testing.assert_array_equal(np.random.get_state()[1], before)  # noqa: NPY002
    assert first.eps_min == second.eps_min and first.sigma == second.sigma
    other = almost_stochastic_order(a, b, random_state=43)
    assert other.sigma != first.sigma
    generator = almost_stochastic_order(a, b, random_state=np.random.default_rng(1))
    assert 0 <= generator.eps_min <= 1


def test_bootstrap_sigma_matches_a_loop():
    """The vectorised bootstrap against one replicate at a time, with the
    same resampled indices."""
    rng = np.random.default_rng(8)
    a, b = rng.normal(size=6), rng.normal(0.5, 1, size=8)
    result = almost_stochastic_order(a, b, n_bootstrap=300, random_state=5)
    from sklearn_bcv.stats._aso import _rng

    gen = _rng(5)
    index_a = gen.integers(0, 6, size=(300, 6))
    index_b = gen.integers(0, 8, size=(300, 8))
    ratios = [violation_ratio(a[i], b[j]) for i, j in zip(index_a, index_b)]
    root = np.sqrt(6 * 8 / 14)
    sigma = np.std(root * (np.array(ratios) - violation_ratio(a, b)))
    assert result.sigma == pytest.approx(sigma, rel=1e-9)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"scores_a": [1.0]}, "scores_a must be a 1-D array of at least 2"),
        ({"scores_b": [[1.0, 2.0]]}, "scores_b must be a 1-D array"),
        ({"scores_a": [1.0, np.nan]}, "scores_a must be finite"),
        ({"scores_b": ["a", "b"]}, "scores_b must be"),
        ({"confidence_level": 1.0}, "confidence_level must be a number in"),
        ({"n_bootstrap": 0}, "n_bootstrap must be an integer >= 1"),
        ({"n_bootstrap": 2.5}, "n_bootstrap must be an integer"),
        ({"n_comparisons": 0}, "n_comparisons must be an integer >= 1"),
        ({"threshold": 0.0}, "threshold must be a number in"),
        ({"random_state": "x"}, "random_state|RandomState"),
    ],
)
def test_validation(kwargs, match):
    args = {"scores_a": [0.1, 0.2, 0.3], "scores_b": [0.2, 0.1, 0.4], **kwargs}
    with pytest.raises(ValueError, match=match):
        almost_stochastic_order(args.pop("scores_a"), args.pop("scores_b"), **args)


def test_registered_aso_directions():
    a = [0.91, 0.92, 0.90, 0.93, 0.915, 0.925]
    b = [0.88, 0.89, 0.87, 0.885, 0.90, 0.86]
    assert get_test("aso") is aso
    greater = aso(scores_a=a, scores_b=b, alternative="greater", random_state=0)
    less = aso(scores_a=a, scores_b=b, alternative="less", random_state=0)
    both = aso(scores_a=a, scores_b=b, random_state=0)
    assert greater.reject and greater.decision == "A better"
    assert not less.reject and less.decision == "no decision"
    assert both.decision == "A better" and both.eps_min_reverse == 1.0
    # Two-sided: each direction at 1 - alpha/2.
    assert both.corrected_confidence_level == pytest.approx(0.975)
    flipped = aso(scores_a=b, scores_b=a, random_state=0)
    assert flipped.decision == "B better"


def test_aso_in_the_engine_only_by_name():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    splits = [(np.arange(0, 200), np.arange(200, 400))] * 6
    pred_a = [
        np.where(rng.random(200) < 0.9, y[test], 1 - y[test]) for _, test in splits
    ]
    pred_b = [
        np.where(rng.random(200) < 0.7, y[test], 1 - y[test]) for _, test in splits
    ]
    default = compare_predictions(y, pred_a, pred_b, splits)
    assert "aso" not in default.tests
    result = compare_predictions(
        y, pred_a, pred_b, splits, tests={"aso": {"random_state": 0}}
    )
    direct = aso(scores_a=result.scores_a, scores_b=result.scores_b, random_state=0)
    assert result.tests.aso.eps_min == direct.eps_min
    assert result.tests.aso.decision == "A better"
    assert "aso" in available_tests(design="any")


def test_type_one_error_small():
    """Equal score distributions (normal, 10 seeds each): A declared better
    at the threshold 0.2 in at most about 5% of 300 experiments (the full
    study is benchmarks/reproduce_aso_null.py)."""
    rng = np.random.default_rng(2026)
    decisions = [
        almost_stochastic_order(
            rng.normal(size=10), rng.normal(size=10), n_bootstrap=300, random_state=i
        ).reject
        for i in range(300)
    ]
    rate = np.mean(decisions)
    assert rate <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / 300)


def test_agrees_with_deepsig():
    deepsig = pytest.importorskip("deepsig")
    rng = np.random.default_rng(11)
    a, b = rng.normal(0.4, 1, 10), rng.normal(0, 1, 10)
    ours = almost_stochastic_order(a, b, n_bootstrap=2000, random_state=0)
    with warnings.catch_warnings():  # deepsig warns of its own deprecations
        warnings.simplefilter("ignore")
        theirs = deepsig.aso(
            a, b, num_bootstrap_iterations=500, seed=0, show_progress=False, num_jobs=1
        )
    # deepsig integrates on a grid of dt = 0.005 and bootstraps 500 times:
    # its bound agrees within a few hundredths.
    assert ours.eps_min == pytest.approx(theirs, abs=0.03)


def test_the_same_answer_in_any_units_with_derived_ties():
    # Scores equal in their decimals but not in binary: A's 0.3 as 0.1 + 0.2
    # (0.30000000000000004) and 0.7 + 0.2 - 0.6 against B's 0.3; the tie
    # rule makes their gaps 0.
    a = np.array([0.1 + 0.2, 0.5, 0.7, 0.7 + 0.2 - 0.6])
    b = np.array([0.3, 0.5, 0.7, 0.3])
    assert a[0] != b[0] and a[3] != b[3]
    assert violation_ratio(a, b) == 0.5  # equal quantile functions: 0/0
    base = aso(a, b, random_state=0)
    for scale, shift in ((100.0, 0.0), (1.0, 0.1), (100.0, 0.1)):
        other = aso(scale * a + shift, scale * b + shift, random_state=0)
        assert other.statistic == base.statistic
        assert other.eps_min == base.eps_min
