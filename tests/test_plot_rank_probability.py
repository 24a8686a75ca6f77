"""Tests of RankProbabilityDisplay, rendered with the Agg backend."""

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sklearn_bcv import RankProbabilityDisplay, compare_scores  # noqa: E402
from sklearn_bcv.stats import plackett_luce  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _scores(seed=0):
    rng = np.random.default_rng(seed)
    return 0.8 + np.linspace(0, 0.06, 4) + 0.03 * rng.standard_normal((12, 4))


NAMES = ["knn", "tree", "svm", "forest"]


def test_draws_a_bar_and_an_interval_per_estimator_best_at_the_top():
    display = RankProbabilityDisplay(
        prob_best=[0.1, 0.7, 0.2],
        weights=[0.2, 0.5, 0.3],
        weights_interval=[[0.1, 0.3], [0.35, 0.65], [0.2, 0.4]],
        names=["a", "b", "c"],
    ).plot()
    assert [t.get_text() for t in display.ax_.get_yticklabels()] == ["b", "c", "a"]
    assert list(display.order_) == [1, 2, 0]
    widths = [bar.get_width() for bar in display.bars_]
    np.testing.assert_allclose(widths, [0.7, 0.2, 0.1])
    np.testing.assert_allclose(display.weight_points_.get_xdata(), [0.5, 0.3, 0.2])
    segments = display.intervals_.get_segments()
    np.testing.assert_allclose(
        [s[:, 0] for s in segments], [[0.35, 0.65], [0.2, 0.4], [0.1, 0.3]]
    )
    assert [t.get_text() for t in display.texts_] == ["0.70", "0.20", "0.10"]
    assert display.figure_ is display.ax_.figure


def test_expected_rank_orders_the_rows_and_annotate_false():
    _, ax = plt.subplots()
    display = RankProbabilityDisplay(
        [0.5, 0.5],
        [0.5, 0.5],
        [[0.2, 0.8], [0.2, 0.8]],
        expected_rank=[1.6, 1.4],
    ).plot(ax=ax, annotate=False)
    assert display.ax_ is ax and display.texts_ == []
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "estimator_1",
        "estimator_0",
    ]


def test_from_result_of_compare_scores_and_of_the_test():
    result = compare_scores(
        _scores(),
        names=NAMES,
        tests=["plackett_luce"],
        pairwise_tests=[],
        random_state=0,
    )
    ranking = result.tests.plackett_luce
    display = RankProbabilityDisplay.from_result(result)
    labels = [t.get_text() for t in display.ax_.get_yticklabels()]
    assert labels == [NAMES[j] for j in np.argsort(ranking.expected_rank)]
    direct = RankProbabilityDisplay.from_result(
        plackett_luce(_scores(), names=NAMES, random_state=0)
    )
    assert [t.get_text() for t in direct.ax_.get_yticklabels()] == labels


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"prob_best": [0.5]}, "at least 2 estimators"),
        ({"prob_best": [0.6, 0.6]}, "prob_best must be 2 probabilities"),
        ({"weights": [0.5, np.nan]}, "weights must be 2 finite"),
        ({"weights_interval": [[0.2, 0.1], [0.1, 0.2]]}, "lower <= upper"),
        ({"weights_interval": [[0.1, 0.2]]}, r"shape \(2, 2\)"),
        ({"names": ["a"]}, "names must hold k = 2 names"),
        ({"expected_rank": [0.5, 2]}, "expected_rank must be 2 ranks"),
        ({"level": 1.5}, "level must be a number in"),
    ],
)
def test_refuses_what_cannot_be_drawn(kwargs, match):
    fields = {
        "prob_best": [0.5, 0.5],
        "weights": [0.5, 0.5],
        "weights_interval": [[0.2, 0.8], [0.2, 0.8]],
        **kwargs,
    }
    prob_best = fields.pop("prob_best")
    weights = fields.pop("weights")
    interval = fields.pop("weights_interval")
    with pytest.raises(ValueError, match=match):
        RankProbabilityDisplay(prob_best, weights, interval, **fields).plot()


def test_from_result_without_a_ranking_says_how_to_get_one():
    result = compare_scores(_scores(), names=NAMES, pairwise_tests=[])
    with pytest.raises(ValueError, match="it ran none. Run compare_scores"):
        RankProbabilityDisplay.from_result(result)
    with pytest.raises(TypeError, match="needs the result of"):
        RankProbabilityDisplay.from_result([0.5, 0.5])
