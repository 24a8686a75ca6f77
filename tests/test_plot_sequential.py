"""Tests of SequentialDisplay, rendered with the Agg backend."""

import io

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.utils import Bunch

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from sklearn.datasets import load_breast_cancer  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402

from sklearn_bcv import SequentialDisplay, sequential_compare  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def result():
    X, y = load_breast_cancer(return_X_y=True)
    return sequential_compare(
        GaussianNB(),
        KNeighborsClassifier(),
        X[:, :5],
        y,
        min_repeats=2,
        max_repeats=6,
        random_state=3,
    )


def test_from_result_draws_the_path_boundaries_and_stop(result):
    display = SequentialDisplay.from_result(result)
    assert_allclose(
        display.path_line_.get_xydata(),
        np.column_stack([result.trace.repeats, result.trace.statistic]),
    )
    assert_allclose(display.upper_line_.get_ydata(), result.boundaries.upper)
    assert_allclose(display.lower_line_.get_ydata(), result.boundaries.lower)
    # the conditional power is 0.34 at look 2, 0.093 < 0.1 at look 3: a
    # futility stop
    assert (result.decision, result.stopped_by) == ("no difference", "futility")
    assert display.stop_marker_.get_label() == f"stop: {result.decision}"
    assert display.stop_marker_.get_xdata()[0] == result.n_repeats == 3
    assert "A = GaussianNB, B = KNeighborsClassifier" in display.ax_.get_title()
    assert display.ax_.get_ylabel() == "bcv_mcnemar statistic (z)"
    assert [t.get_text() for t in display.legend_.get_texts()] == [
        "continue fitting",
        "boundary (A better)",
        "boundary (B better)",
        "statistic",
        f"stop: {result.decision}",
    ]
    display.figure_.savefig(io.BytesIO(), format="png")


def test_one_sided_draws_one_boundary():
    display = SequentialDisplay(
        [3], [2.5], [3, 4, 5], [-np.inf] * 3, [1.8, 1.79, 1.78], decision="A better"
    ).plot()
    assert display.lower_line_ is None
    assert_allclose(display.upper_line_.get_ydata(), [1.8, 1.79, 1.78])
    low, high = display.ax_.get_ylim()
    assert np.isfinite(low) and low < 0 < 2.5 < high


def test_draws_on_given_axes(result):
    fig, ax = plt.subplots()
    display = SequentialDisplay.from_result(
        result, ax=ax, estimator_names=("nb", "knn")
    )
    assert display.ax_ is ax and display.figure_ is fig
    assert display.ax_.get_title().startswith("A = nb, B = knn")


def test_bad_input():
    with pytest.raises(ValueError, match="sequential_compare"):
        SequentialDisplay.from_result(Bunch(decision="A better"))
    with pytest.raises(TypeError, match="sequential_compare"):
        SequentialDisplay.from_result(None)
    with pytest.raises(ValueError, match="one length"):
        SequentialDisplay([3, 4], [1.0], [3, 4], [-2, -2], [2, 2]).plot()
    with pytest.raises(ValueError, match="lower must not exceed upper"):
        SequentialDisplay([3], [1.0], [3], [2.0], [-2.0]).plot()
