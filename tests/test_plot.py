"""Tests of the Display objects, rendered with the Agg backend."""

import io

import numpy as np
import pytest
from scipy import stats
from sklearn.utils import Bunch

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sklearn_bcv import (  # noqa: E402
    ContingencyTableDisplay,
    PosteriorDisplay,
    ScoreDifferencesDisplay,
)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _tables(n_splits=10):
    # Split i: n00 = 5, n01 = 2 + i % 3, n10 = 4, n11 = 40 - n01 (50 records).
    tables = np.empty((n_splits, 2, 2), dtype=int)
    for i in range(n_splits):
        n01 = 2 + i % 3
        tables[i] = [[5, n01], [4, 39 - n01]]
    return tables


def _result(with_bcv=True, with_bayes=True):
    tables = _tables()
    differences = np.linspace(-0.02, 0.07, 10)
    tests = Bunch()
    if with_bcv:
        mean = tables.mean(axis=0)
        tests.bcv_mcnemar = Bunch(
            test="bcv_mcnemar",
            statistic=1.0,
            pvalue=0.3,
            df=1,
            reject=False,
            t=20 / 11,
            mean_table=mean,
            effective_table=20 / 11 * mean,
        )
    if with_bayes:
        tests.bayesian_correlated_t = Bunch(
            test="bayesian_correlated_t",
            statistic=None,
            pvalue=None,
            df=9,
            reject=False,
            p_a_better=0.9,
            p_rope=0.05,
            p_b_better=0.05,
            rope=0.01,
            loc=0.025,
            scale=0.02,
        )
    return Bunch(
        tests=tests,
        tables=tables,
        differences=differences,
        scores_a=0.9 + differences,
        scores_b=np.full(10, 0.9),
        design="bcv",
    )


def test_contingency_display_from_result_draws_splits_mean_and_effective():
    display = ContingencyTableDisplay.from_result(_result())
    titles = [ax.get_title() for ax in display.ax_]
    # An m×2 design (design "bcv"): split 2r + k is fold k of repetition r.
    assert titles[:3] == ["rep 0, fold 0", "rep 0, fold 1", "rep 1, fold 0"]
    assert titles[9:] == ["rep 4, fold 1", "mean", "effective"]
    # split 4 has n01 = 2 + 4 % 3 = 3: cell [0, 1] of its panel.
    assert display.text_[4][0, 1].get_text() == "3"
    # mean n01 over splits: (2+3+4)*3 + 2 = 29 / 10 = 2.9; effective = 20/11 * 2.9.
    assert display.text_[10][0, 1].get_text() == "2.9"
    assert display.text_[11][0, 1].get_text() == f"{20 / 11 * 2.9:.1f}"
    assert display.ax_[0].get_ylabel() == "A is"
    assert [t.get_text() for t in display.ax_[0].get_xticklabels()] == [
        "wrong",
        "right",
    ]
    assert display.figure_ is display.ax_[0].figure


def test_contingency_display_without_bcv_uses_mean_of_tables():
    display = ContingencyTableDisplay.from_result(
        _result(with_bcv=False), show_splits=False, estimator_names=("logreg", "forest")
    )
    assert [ax.get_title() for ax in display.ax_] == ["mean"]
    assert display.text_[0][0, 1].get_text() == "2.9"
    assert display.ax_[0].get_xlabel() == "forest is"


def test_contingency_display_on_given_axes():
    fig, axes = plt.subplots(1, 2)
    display = ContingencyTableDisplay.from_result(_result(), ax=axes, show_splits=False)
    assert display.figure_ is fig
    assert [ax.get_title() for ax in axes] == ["mean", "effective"]


def test_contingency_display_titles_by_split_without_mx2_design():
    result = _result()
    result.design = "kfold"
    display = ContingencyTableDisplay.from_result(result)
    assert [ax.get_title() for ax in display.ax_][:2] == ["split 0", "split 1"]


def test_contingency_display_errors():
    with pytest.raises(ValueError, match=r"2 \* n_repeats = 4 tables; got 10"):
        ContingencyTableDisplay(_tables(), n_repeats=2).plot()
    with pytest.raises(ValueError, match="ax must hold 12 axes"):
        _, ax = plt.subplots()
        ContingencyTableDisplay(_tables(), effective_table=np.eye(2)).plot(ax=ax)
    with pytest.raises(ValueError, match=r"tables must have shape \(n_splits, 2, 2\)"):
        ContingencyTableDisplay(np.ones((3, 3))).plot()
    regression = Bunch(differences=np.zeros(4), tests=Bunch())
    with pytest.raises(ValueError, match="no contingency tables"):
        ContingencyTableDisplay.from_result(regression)
    with pytest.raises(ValueError, match="estimator_names must hold two names"):
        ContingencyTableDisplay(_tables(), estimator_names=("a",)).plot()


def test_score_differences_display_groups_folds_by_repetition():
    result = _result()
    display = ScoreDifferencesDisplay.from_result(result)
    fold0, fold1 = display.lines_
    # Split 2r is fold 0 of repetition r, split 2r + 1 fold 1.
    np.testing.assert_allclose(fold0.get_ydata(), result.differences[0::2])
    np.testing.assert_allclose(fold1.get_ydata(), result.differences[1::2])
    np.testing.assert_allclose(np.round(fold0.get_xdata()), np.arange(5))
    assert display.mean_line_.get_ydata()[0] == pytest.approx(0.025)
    assert display.zero_line_.get_ydata()[0] == 0
    assert display.ax_.get_xlabel() == "repetition"
    assert display.ax_.get_ylabel() == "difference in score"
    assert display.ax_.get_title() == "A − B per split\n(above 0: A better)"


def test_score_differences_display_plain_splits():
    display = ScoreDifferencesDisplay([0.1, -0.1, 0.3]).plot(score_name="r2")
    (line,) = display.lines_
    np.testing.assert_allclose(line.get_xdata(), [0, 1, 2])
    assert display.ax_.get_xlabel() == "split"
    assert display.ax_.get_ylabel() == "difference in r2"
    result = Bunch(differences=np.zeros(6), design="kfold", tests=Bunch())
    assert len(ScoreDifferencesDisplay.from_result(result).lines_) == 1


def test_score_differences_display_errors():
    with pytest.raises(ValueError, match="2 \\* n_repeats = 4"):
        ScoreDifferencesDisplay([0.1, 0.2, 0.3], n_repeats=2).plot()
    with pytest.raises(ValueError, match="non-empty 1-D"):
        ScoreDifferencesDisplay([]).plot()


def test_posterior_display_from_result_shades_rope_and_annotates():
    display = PosteriorDisplay.from_result(_result(), estimator_names=("lr", "rf"))
    text = display.text_.get_text()
    assert text == "P(lr better) = 0.900\nP(rope) = 0.050\nP(rf better) = 0.050"
    # The rope patch spans [-rope, rope] in data coordinates.
    verts = display.ax_.transData.inverted().transform(display.rope_patch_.get_verts())
    assert [verts[:, 0].min(), verts[:, 0].max()] == pytest.approx([-0.01, 0.01])
    x, y = display.line_.get_data()
    # The drawn curve is the t(9) density with loc 0.025 and scale 0.02.
    np.testing.assert_allclose(y, stats.t(9, loc=0.025, scale=0.02).pdf(x))
    assert display.ax_.get_title() == "Posterior of the mean difference"
    assert "lr better" in [t.get_text() for t in display.legend_.texts]


@pytest.mark.parametrize("own_figure", [True, False])
def test_legends_below_the_axes_keep_the_y_label_inside_the_figure(own_figure):
    # The legend sits under the axes; on a figure the display makes itself,
    # constrained layout must leave room for it and for the y label in the
    # first saved image (an axes legend anchored below needs a second pass).
    displays = [
        ScoreDifferencesDisplay(np.linspace(0.0, 0.04, 10), n_repeats=5),
        PosteriorDisplay(loc=0.03, scale=0.01, df=9, rope=0.01),
    ]
    for display in displays:
        ax = None
        if not own_figure:
            _, ax = plt.subplots(figsize=(6, 5), layout="constrained")
        display.plot(ax=ax)
        fig = display.figure_
        assert (display.legend_ in fig.legends) is own_figure
        assert (display.ax_.get_legend() is display.legend_) is not own_figure
        fig.savefig(io.BytesIO(), format="png")
        renderer = fig.canvas.get_renderer()
        label = display.ax_.yaxis.label.get_window_extent(renderer)
        legend = display.legend_.get_window_extent(renderer)
        assert label.x0 >= 0
        axes_box = display.ax_.get_window_extent(renderer)
        assert legend.y1 <= axes_box.y0  # below the axes, hiding nothing
        plt.close(fig)


def test_posterior_display_computes_probabilities_and_point_mass():
    # No rope: P(A better) = 1 - t.cdf(0) with loc 0 = 0.5 by symmetry.
    display = PosteriorDisplay(0.0, 1.0, 4).plot()
    assert display.text_.get_text().splitlines() == [
        "P(A better) = 0.500",
        "P(rope) = 0.000",
        "P(B better) = 0.500",
    ]
    assert display.rope_patch_ is None
    point = PosteriorDisplay(0.03, 0.0, 9, rope=0.01).plot()
    assert point.line_.get_xdata()[0] == pytest.approx(0.03)
    assert point.text_.get_text().splitlines()[0] == "P(A better) = 1.000"


def test_posterior_display_errors():
    with pytest.raises(ValueError, match="scale must be a finite number >= 0"):
        PosteriorDisplay(0.0, -1.0, 3).plot()
    with pytest.raises(ValueError, match="df must be > 0"):
        PosteriorDisplay(0.0, 1.0, 0).plot()
    with pytest.raises(ValueError, match="has no 'bayesian_correlated_t'"):
        PosteriorDisplay.from_result(_result(with_bayes=False))


def test_contingency_display_colours_only_the_disagreements_on_a_shared_scale():
    result = _result()
    display = ContingencyTableDisplay.from_result(result)
    split_image, mean_image, effective_image = (
        display.images_[0],
        display.images_[10],
        display.images_[11],
    )
    # The agreement cells (diagonal) are masked; the disagreements are not.
    np.testing.assert_array_equal(
        np.ma.getmaskarray(split_image.get_array()), [[True, False], [False, True]]
    )
    np.testing.assert_array_equal(
        split_image.get_array().compressed(), [2, 4]
    )  # split 0: n01 = 2, n10 = 4
    # Splits and mean share one scale: the largest disagreement count, 4
    # (n10 = 4 everywhere, n01 at most 4); the effective table has its own.
    assert {image.norm.vmax for image in display.images_[:11]} == {4}
    assert mean_image.norm.vmax == 4
    assert effective_image.norm.vmax == pytest.approx(20 / 11 * 4)
    # The largest count is written in white on its dark cell.
    assert display.text_[2][0, 1].get_text() == "4"
    assert display.text_[2][0, 1].get_color() == "white"
    assert display.text_[0][0, 1].get_color() == "black"


def test_contingency_display_labels_the_outer_edges_of_its_own_grid():
    display = ContingencyTableDisplay.from_result(
        _result(), estimator_names=("lr", "rf")
    )
    # 12 panels on a 4-column grid: y labels on column 0, x labels on row 2.
    ylabels = [ax.get_ylabel() for ax in display.ax_]
    xlabels = [ax.get_xlabel() for ax in display.ax_]
    assert [i for i, label in enumerate(ylabels) if label] == [0, 4, 8]
    assert [i for i, label in enumerate(xlabels) if label] == [8, 9, 10, 11]
    assert set(ylabels) - {""} == {"lr is"} and set(xlabels) - {""} == {"rf is"}
    # Axes the caller gives are all labelled.
    fig, axes = plt.subplots(1, 2)
    given = ContingencyTableDisplay.from_result(_result(), ax=axes, show_splits=False)
    assert [ax.get_ylabel() for ax in given.ax_] == ["A is", "A is"]


def test_score_differences_display_draws_the_spread_within_repetitions():
    result = _result()
    display = ScoreDifferencesDisplay.from_result(result)
    segments = display.spread_.get_segments()
    assert len(segments) == 5
    pairs = result.differences.reshape(5, 2)
    for r, segment in enumerate(segments):
        # A vertical segment at x = r from one fold's difference to the other's.
        np.testing.assert_allclose(segment[:, 0], [r, r])
        np.testing.assert_allclose(sorted(segment[:, 1]), sorted(pairs[r]))
    assert ScoreDifferencesDisplay([0.1, 0.2]).plot().spread_ is None
