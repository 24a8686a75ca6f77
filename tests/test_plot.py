"""Tests of the Display objects, rendered with the Agg backend."""

import io

import numpy as np
import pytest
from scipy import integrate, stats
from sklearn.utils import Bunch

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sklearn_bcv import (  # noqa: E402
    ContingencyTableDisplay,
    PosteriorDisplay,
    ScoreDifferencesDisplay,
)
from sklearn_bcv.stats import bayesian_bcv_mcnemar  # noqa: E402
from sklearn_bcv.stats._bayesian_bcv import difference_pdf  # noqa: E402


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
            # Those of t(9) with loc 0.025 and scale 0.02 for the rope: a
            # display refuses probabilities its curve contradicts.
            p_a_better=0.763798,
            p_rope=0.179180,
            p_b_better=0.057022,
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
    assert text == "P(lr better) = 0.764\nP(rope) = 0.179\nP(rf better) = 0.057"
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


def _bcv_mcnemar_result(with_bayes=False, rope=0.01):
    result = _result(with_bayes=with_bayes)
    result.tests.bayesian_bcv_mcnemar = bayesian_bcv_mcnemar(result.tables, rope=rope)
    return result


def test_posterior_display_draws_the_accuracy_difference_of_bayesian_bcv_mcnemar():
    result = _bcv_mcnemar_result()
    test = result.tests.bayesian_bcv_mcnemar
    display = PosteriorDisplay.from_result(result, estimator_names=("lr", "rf"))
    assert display.text_.get_text() == (
        f"P(lr better) = {test.p_a_better:.3f}\nP(rope) = {test.p_rope:.3f}\n"
        f"P(rf better) = {test.p_b_better:.3f}"
    )
    assert display.ax_.get_title() == "Posterior of the accuracy difference"
    assert display.ax_.get_xlabel() == "accuracy difference lr − rf"
    verts = display.ax_.transData.inverted().transform(display.rope_patch_.get_verts())
    assert [verts[:, 0].min(), verts[:, 0].max()] == pytest.approx([-0.01, 0.01])
    grid, density = display.density_
    np.testing.assert_array_equal(display.line_.get_data()[1], density)
    # The grid holds the mass: the density integrates to 1, its mean is
    # the posterior mean of Δ, and the shaded sides are p_a_better and
    # p_b_better.
    assert -1 <= grid[0] < grid[-1] <= 1
    assert np.trapezoid(density, grid) == pytest.approx(1.0, abs=1e-3)
    assert np.trapezoid(grid * density, grid) == pytest.approx(test.mean, abs=1e-4)
    above = np.linspace(0.01, grid[-1], 4001)
    assert np.trapezoid(np.interp(above, grid, density), above) == pytest.approx(
        test.p_a_better, abs=1e-3
    )


@pytest.mark.parametrize("d", [-0.05, 0.0, 0.01, 0.08])
def test_posterior_display_density_of_the_accuracy_difference_by_quad(d):
    # f_Δ(d) = ∫ f_s(s) f_θ(1/2 + d/(2s)) / (2s) ds over s in (|d|, 1), by
    # scipy's adaptive quadrature.
    posterior_s, posterior_theta = (12.0, 90.0), (8.0, 5.0)

    def integrand(s):
        theta = 0.5 + d / (2 * s)
        return (
            stats.beta.pdf(s, *posterior_s)
            * stats.beta.pdf(theta, *posterior_theta)
            / (2 * s)
        )

    expected = integrate.quad(integrand, abs(d), 1, epsabs=1e-12, limit=200)[0]
    assert difference_pdf(d, posterior_s, posterior_theta) == pytest.approx(
        expected, rel=1e-8
    )


def test_posterior_display_picks_the_test():
    both = _bcv_mcnemar_result(with_bayes=True)
    # The correlated t by default (as before), the McNemar one when asked.
    default = PosteriorDisplay.from_result(both)
    assert default.ax_.get_title() == "Posterior of the mean difference"
    chosen = PosteriorDisplay.from_result(both, test="bayesian_bcv_mcnemar")
    assert chosen.ax_.get_title() == "Posterior of the accuracy difference"
    with pytest.raises(ValueError, match="test must be one of"):
        PosteriorDisplay.from_result(both, test="bcv_mcnemar")
    with pytest.raises(ValueError, match="has no 'bayesian_correlated_t';"):
        PosteriorDisplay.from_result(
            _bcv_mcnemar_result(), test="bayesian_correlated_t"
        )
    with pytest.raises(
        ValueError, match="has no 'bayesian_correlated_t' or 'bayesian_bcv_mcnemar'"
    ):
        PosteriorDisplay.from_result(_result(with_bayes=False))


def test_posterior_display_of_the_accuracy_difference_computes_probabilities():
    test = bayesian_bcv_mcnemar(_tables(), rope=0.02)
    display = PosteriorDisplay(
        posterior_s=test.posterior_s, posterior_theta=test.posterior_theta, rope=0.02
    ).plot()
    assert display.text_.get_text().splitlines() == [
        f"P(A better) = {test.p_a_better:.3f}",
        f"P(rope) = {test.p_rope:.3f}",
        f"P(B better) = {test.p_b_better:.3f}",
    ]
    # No disagreement at all: a posterior symmetric about 0.
    symmetric = PosteriorDisplay(posterior_s=(2, 400), posterior_theta=(1, 1)).plot()
    grid, density = symmetric.density_
    assert grid[0] == pytest.approx(-grid[-1])
    np.testing.assert_allclose(density, density[::-1], rtol=1e-9)
    assert np.trapezoid(density, grid) == pytest.approx(1.0, abs=2e-3)


def test_posterior_display_of_the_accuracy_difference_errors():
    with pytest.raises(ValueError, match="not a mix of the two"):
        PosteriorDisplay(0.0, 1.0, 3, posterior_s=(2, 3), posterior_theta=(1, 1)).plot()
    with pytest.raises(ValueError, match="not a mix of the two"):
        PosteriorDisplay(posterior_s=(2, 3)).plot()
    with pytest.raises(ValueError, match="posterior_theta must be two finite numbers"):
        PosteriorDisplay(posterior_s=(2, 3), posterior_theta=(1, -1)).plot()
    with pytest.raises(ValueError, match="posterior_s must be two finite numbers"):
        PosteriorDisplay(posterior_s=(2, 3, 4), posterior_theta=(1, 1)).plot()


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
