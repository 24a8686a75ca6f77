"""Tests of PosteriorSimplexDisplay, rendered with the Agg backend."""

import io

import numpy as np
import pytest
from sklearn.utils import Bunch

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sklearn_bcv import compare_scores  # noqa: E402
from sklearn_bcv._plot import PosteriorSimplexDisplay  # noqa: E402
from sklearn_bcv._plot._simplex import winning_probabilities  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _samples(n=5000, weights=(8, 3, 2), seed=0):
    return np.random.default_rng(seed).dirichlet(weights, size=n)


def _test_result(samples=None, rope=0.01):
    """A hand-built result of bayesian_signed_rank."""
    samples = _samples() if samples is None else samples
    return Bunch(
        p_a_better=0.7,
        p_rope=0.2,
        p_b_better=0.1,
        rope=rope,
        samples=samples,
    )


def _result():
    """A hand-built result of compare_scores: a Bayesian test on the pairs
    (forest, tree) and (forest, dummy), a frequentist one without samples."""
    pairs = {
        ("forest", "tree"): _test_result(),
        ("forest", "dummy"): _test_result(_samples(weights=(9, 1, 1))),
    }
    return Bunch(
        names=["forest", "tree", "dummy"],
        datasets=["d1", "d2", "d3"],
        pairwise=Bunch(
            bayesian_signed_rank=Bunch(p_a_better=np.full((3, 3), 0.5), results=pairs),
            wilcoxon=Bunch(
                pvalue=np.ones((3, 3)),
                results={("forest", "tree"): Bunch(pvalue=0.3, statistic=4.0)},
            ),
        ),
    )


def _texts(texts):
    return [text.get_text() for text in texts]


def test_simplex_display_draws_triangle_regions_points_and_corners():
    samples = _samples()
    display = PosteriorSimplexDisplay(
        samples, names=("forest", "tree"), rope=0.01
    ).plot()
    assert _texts(display.corner_texts_) == ["forest", "rope", "tree"]
    # Probabilities computed from the samples: the share of each argmax.
    expected = np.bincount(samples.argmax(axis=1), minlength=3) / len(samples)
    np.testing.assert_allclose(display.probabilities_, expected)
    assert _texts(display.probability_texts_) == [f"P = {p:.3f}" for p in expected]
    # The triangle A (0, 0), B (1, 0), rope on top.
    x, y = display.triangle_.get_data()
    np.testing.assert_allclose(x, [0, 1, 0.5, 0])
    np.testing.assert_allclose(y, [0, 0, np.sqrt(3) / 2, 0])
    # Three region lines from the centre to the middle of the edges.
    assert len(display.region_lines_) == 3
    centre = (0.5, np.sqrt(3) / 6)
    ends = set()
    for line in display.region_lines_:
        xs, ys = line.get_data()
        np.testing.assert_allclose((xs[0], ys[0]), centre)
        ends.add((round(xs[1], 6), round(ys[1], 6)))
    h = round(np.sqrt(3) / 4, 6)
    assert ends == {(0.25, h), (0.5, 0.0), (0.75, h)}
    # All the samples drawn (fewer than max_points), inside the triangle.
    offsets = display.points_.get_offsets()
    assert display.n_drawn_ == len(offsets) == 3000
    assert np.all(offsets[:, 1] >= -1e-12)
    assert np.all(
        offsets[:, 1]
        <= np.sqrt(3) * np.minimum(offsets[:, 0], 1 - offsets[:, 0]) + 1e-9
    )
    assert display.ax_.get_title() == "Posterior of forest vs tree (rope = 0.01)"
    assert not display.ax_.axison
    display.figure_.savefig(io.BytesIO(), format="png")


def test_simplex_display_projects_each_sample_to_its_barycentric_point():
    samples = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0], [0.2, 0.5, 0.3]])
    display = PosteriorSimplexDisplay(samples).plot()
    np.testing.assert_allclose(
        display.points_.get_offsets(),
        [[0, 0], [0.5, np.sqrt(3) / 2], [1, 0], [0.55, 0.5 * np.sqrt(3) / 2]],
    )
    assert _texts(display.corner_texts_) == ["A", "rope", "B"]
    assert display.ax_.get_title() == "Posterior of A vs B"


def test_simplex_display_subsamples_and_keeps_probabilities_of_all():
    samples = _samples(n=20000)
    display = PosteriorSimplexDisplay(samples).plot(max_points=500)
    assert display.n_drawn_ == 500 == len(display.points_.get_offsets())
    np.testing.assert_allclose(display.probabilities_, winning_probabilities(samples))
    # The same points on every call.
    again = PosteriorSimplexDisplay(samples).plot(max_points=500)
    np.testing.assert_array_equal(
        display.points_.get_offsets(), again.points_.get_offsets()
    )


def test_simplex_display_hexbin_and_given_axes():
    fig, ax = plt.subplots()
    display = PosteriorSimplexDisplay(_samples()).plot(ax=ax, kind="hexbin")
    assert display.ax_ is ax and display.figure_ is fig
    assert isinstance(display.points_, matplotlib.collections.PolyCollection)
    assert display.points_.get_array().sum() == 3000


def test_simplex_display_without_rope_keeps_the_triangle():
    samples = _samples(weights=(5, 1e-9, 3))
    samples[:, 1] = 0
    samples /= samples.sum(axis=1, keepdims=True)
    display = PosteriorSimplexDisplay(samples, rope=0.0).plot()
    assert display.probabilities_[1] == 0
    assert display.probability_texts_[1].get_text() == "P = 0.000"
    np.testing.assert_allclose(display.points_.get_offsets()[:, 1], 0)
    assert display.ax_.get_title() == "Posterior of A vs B (rope = 0)"


def test_winning_probabilities_share_ties():
    samples = [[0.5, 0.0, 0.5], [0.2, 0.2, 0.6], [1 / 3, 1 / 3, 1 / 3]]
    np.testing.assert_allclose(
        winning_probabilities(samples),
        [(0.5 + 0 + 1 / 3) / 3, (0 + 0 + 1 / 3) / 3, (0.5 + 1 + 1 / 3) / 3],
    )


def test_simplex_display_from_test_result_shows_the_given_probabilities():
    display = PosteriorSimplexDisplay.from_test_result(
        _test_result(), names=("forest", "tree"), max_points=100
    )
    assert display.probabilities_ == (0.7, 0.2, 0.1)
    assert _texts(display.probability_texts_) == ["P = 0.700", "P = 0.200", "P = 0.100"]
    assert _texts(display.corner_texts_) == ["forest", "rope", "tree"]
    assert display.rope == 0.01
    assert display.n_drawn_ == 100


def test_simplex_display_from_result_reads_and_swaps_the_pair():
    result = _result()
    samples = result.pairwise.bayesian_signed_rank.results[("forest", "tree")].samples
    display = PosteriorSimplexDisplay.from_result(result, "forest", "tree")
    assert _texts(display.corner_texts_) == ["forest", "rope", "tree"]
    assert display.probabilities_ == (0.7, 0.2, 0.1)
    np.testing.assert_array_equal(display.samples, samples)
    # The other way round: A and B swap, the rope stays.
    swapped = PosteriorSimplexDisplay.from_result(result, "tree", "forest")
    assert _texts(swapped.corner_texts_) == ["tree", "rope", "forest"]
    assert swapped.probabilities_ == (0.1, 0.2, 0.7)
    assert _texts(swapped.probability_texts_) == ["P = 0.100", "P = 0.200", "P = 0.700"]
    np.testing.assert_array_equal(swapped.samples, samples[:, [2, 1, 0]])
    # Mirrored points: x -> 1 - x, same height.
    x, y = display.points_.get_offsets().T
    xs, ys = swapped.points_.get_offsets().T
    np.testing.assert_allclose(xs, 1 - x)
    np.testing.assert_allclose(ys, y)


def test_simplex_display_from_result_without_probabilities_computes_them():
    result = _result()
    run = result.pairwise.bayesian_signed_rank.results[("forest", "dummy")]
    del run["p_rope"]
    display = PosteriorSimplexDisplay.from_result(result, "dummy", "forest")
    expected = winning_probabilities(run.samples[:, ::-1])
    np.testing.assert_allclose(display.probabilities_, expected)
    assert display.probabilities_[0] < display.probabilities_[2]


@pytest.mark.parametrize(
    "args, kwargs, match",
    [
        (("forest", "knn"), {}, r"name_b must be one of the names of the result \["),
        (("svm", "tree"), {}, r"name_a must be one of the names of the result \["),
        (("tree", "tree"), {}, "name_a and name_b must be two different"),
        (
            ("forest", "tree"),
            {"test": "bayesian_sign"},
            r"test must be a pairwise test of the result with posterior samples, "
            r"one of the result's Bayesian pairwise tests \['bayesian_signed_rank'\]; "
            r"got 'bayesian_sign'",
        ),
        (
            ("forest", "tree"),
            {"test": "wilcoxon"},
            "test 'wilcoxon' has no posterior samples to plot",
        ),
        (
            ("tree", "dummy"),
            {},
            r"result.pairwise\['bayesian_signed_rank'\] has no result for the pair "
            r"\('tree', 'dummy'\)",
        ),
    ],
)
def test_simplex_display_from_result_errors(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        PosteriorSimplexDisplay.from_result(_result(), *args, **kwargs)


def test_simplex_display_of_a_result_without_samples_says_how_to_get_them():
    result = compare_scores(
        np.random.default_rng(0).normal(0.8, 0.03, (6, 3)),
        names=["tree", "forest", "dummy"],
        pairwise_tests=["wilcoxon"],
    )
    for test in ("wilcoxon", "bayesian_signed_rank"):
        with pytest.raises(ValueError) as info:
            PosteriorSimplexDisplay.from_result(result, "tree", "forest", test=test)
        message = str(info.value)
        assert "[]" not in message
        assert "the result has none: run it with pairwise_tests" in message


def test_simplex_display_from_test_result_without_samples():
    with pytest.raises(ValueError, match="test_result has no posterior samples"):
        PosteriorSimplexDisplay.from_test_result(Bunch(pvalue=0.3))


@pytest.mark.parametrize(
    "samples, kwargs, match",
    [
        (np.ones((4, 2)) / 2, {}, r"samples must have shape \(n_samples, 3\)"),
        (np.empty((0, 3)), {}, r"samples must have shape \(n_samples, 3\)"),
        ([[0.5, 0.6, -0.1]], {}, "samples must be finite and >= 0"),
        ([[0.5, np.nan, 0.5]], {}, "samples must be finite and >= 0"),
        ([[0.5, 0.2, 0.2]], {}, "each row of samples must sum to 1"),
        (
            [[0.5, 0.2, 0.3]],
            {"names": ("a", "b", "c")},
            r"names must hold two names \(A, B\)",
        ),
        (
            [[0.5, 0.2, 0.3]],
            {"probabilities": (0.5, 1.5, 0.0)},
            r"probabilities \(A better, rope, B better\) must be 3 probabilities in "
            r"\[0, 1\] summing to 1",
        ),
        (
            [[0.5, 0.2, 0.3]],
            {"rope": -1},
            "rope must be None or a finite number >= 0; got -1",
        ),
    ],
)
def test_simplex_display_errors(samples, kwargs, match):
    with pytest.raises(ValueError, match=match):
        PosteriorSimplexDisplay(samples, **kwargs).plot()


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"kind": "kde"}, "kind must be one of 'scatter', 'hexbin'; got 'kde'"),
        ({"max_points": 0}, "max_points must be an integer >= 1; got 0"),
    ],
)
def test_simplex_display_plot_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        PosteriorSimplexDisplay(_samples(10)).plot(**kwargs)
