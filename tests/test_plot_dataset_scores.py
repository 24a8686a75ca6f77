"""Tests of DatasetScoresDisplay, rendered with the Agg backend."""

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sklearn_bcv import DatasetScoresDisplay, compare_scores  # noqa: E402

SCORES = np.array([[0.91, 0.95, 0.62], [0.80, 0.84, 0.55], [0.66, 0.65, 0.60]])
DATASETS = ["iris", "wine", "moons"]
NAMES = ["tree", "forest", "dummy"]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_one_row_per_dataset_one_marker_per_estimator():
    display = DatasetScoresDisplay(SCORES, datasets=DATASETS, names=NAMES).plot()
    assert [t.get_text() for t in display.ax_.get_yticklabels()] == DATASETS
    assert [c.get_label() for c in display.lines_] == NAMES
    for j, container in enumerate(display.lines_):
        x, y = container.lines[0].get_data()
        np.testing.assert_allclose(x, SCORES[:, j])
        # Each marker sits in its data set's row, offset within it.
        np.testing.assert_allclose(np.round(y), [0, 1, 2])
        assert np.all(np.abs(y - np.arange(3)) < 0.5)
    # The first data set on top.
    bottom, top = display.ax_.get_ylim()
    assert top < bottom
    assert display.ax_.get_xlabel() == "mean score (higher is better)"
    texts = [t.get_text() for t in display.legend_.get_texts()]
    assert texts == NAMES


def test_bars_are_one_sd_over_the_splits():
    sd = np.full_like(SCORES, 0.02)
    display = DatasetScoresDisplay(SCORES, datasets=DATASETS, names=NAMES, sd=sd)
    display.plot()
    segments = display.lines_[0].lines[2][0].get_segments()
    widths = [segment[1][0] - segment[0][0] for segment in segments]
    np.testing.assert_allclose(widths, 0.04)
    plain = DatasetScoresDisplay(SCORES, datasets=DATASETS, names=NAMES, sd=sd)
    assert plain.plot(error_bars=False).lines_[0].lines[2] == ()


def test_from_result_reads_the_splits_and_the_direction():
    rng = np.random.default_rng(0)
    split = rng.normal(0.2, 0.05, (3, 10, 3))
    result = compare_scores(
        split, names=NAMES, datasets=DATASETS, greater_is_better=False
    )
    display = DatasetScoresDisplay.from_result(result)
    np.testing.assert_allclose(display.sd, split.std(axis=1, ddof=1))
    assert display.ax_.get_xlabel() == "mean score (lower is better)"
    np.testing.assert_allclose(
        display.lines_[1].lines[0].get_data()[0], split.mean(axis=1)[:, 1]
    )


def test_failed_fits_are_drawn_as_nothing():
    scores = SCORES.copy()
    scores[1, 2] = np.nan
    display = DatasetScoresDisplay(scores, datasets=DATASETS, names=NAMES).plot()
    x = display.lines_[2].lines[0].get_data()[0]
    assert np.isnan(x[1]) and np.isfinite(np.delete(x, 1)).all()


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"scores": SCORES[0]}, "scores must be a 2-D array"),
        ({"scores": [["a", "b", "c"]] * 3}, "scores must hold numbers"),
        ({"scores": SCORES + np.inf}, "must not hold infinite"),
        ({"names": ["a", "a", "b"]}, "names must be unique"),
        ({"names": ["a", "b"]}, "names must hold k = 3 names"),
        ({"datasets": ["x", "y"]}, "datasets must hold k = 3 names"),
        ({"sd": SCORES[:2]}, "sd must have the shape of scores"),
        ({"sd": -SCORES}, "sd must hold standard deviations >= 0"),
    ],
)
def test_bad_input_is_refused_naming_it(kwargs, match):
    given = {"scores": SCORES, "datasets": DATASETS, "names": NAMES} | kwargs
    scores = given.pop("scores")
    with pytest.raises(ValueError, match=match):
        DatasetScoresDisplay(scores, **given).plot()


def test_from_result_needs_a_result_across_datasets():
    with pytest.raises(ValueError, match="needs the result of benchmark"):
        DatasetScoresDisplay.from_result({"scores": SCORES})
