"""Tests of SignificanceMatrixDisplay, rendered with the Agg backend."""

import io

import numpy as np
import pytest
from sklearn.utils import Bunch

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sklearn_bcv import (  # noqa: E402
    BlockRegularized5x2CV,
    SignificanceMatrixDisplay,
    compare_many_predictions,
)
from sklearn_bcv._results._roles import probability  # noqa: E402

NAMES = ["tree", "forest", "bayes", "dummy"]
MEAN_SCORES = [0.91, 0.95, 0.88, 0.62]
# A symmetric matrix of adjusted p-values in NAMES order, one of each
# formatting case: <0.001, three decimals, as the report's tables write them
# (one format per quantity).
PVALUES = np.array(
    [
        [1.0, 0.2, 0.004, 0.0004],
        [0.2, 1.0, 0.0312, 0.00001],
        [0.004, 0.0312, 1.0, 0.08],
        [0.0004, 0.00001, 0.08, 1.0],
    ]
)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _texts(display):
    """The cell texts as a (k, k) array of str, "" where there is none."""
    return np.array(
        [[t.get_text() if t is not None else "" for t in row] for row in display.text_]
    )


def _tick_labels(axis):
    return [label.get_text() for label in axis.get_ticklabels()]


@pytest.fixture(scope="module")
def many_result():
    """Four "estimators" of known accuracy on a 5×2 BCV, from predictions."""
    rng = np.random.RandomState(0)
    y = rng.randint(0, 2, 600)
    splits = list(BlockRegularized5x2CV(random_state=0).split(y))

    def noisy(accuracy):
        return [
            np.where(rng.rand(test.size) < accuracy, y[test], 1 - y[test])
            for _, test in splits
        ]

    predictions = {
        "fair": noisy(0.8),
        "good": noisy(0.9),
        "poor": noisy(0.6),
        "close": noisy(0.81),
    }
    return compare_many_predictions(
        y,
        predictions,
        splits,
        pairwise_tests=["bcv_mcnemar", "bayesian_correlated_t"],
    )


def test_significance_display_annotates_tested_cells_with_compact_pvalues():
    display = SignificanceMatrixDisplay(PVALUES, names=NAMES).plot()
    # No mean scores: names order, bare names.
    assert _tick_labels(display.ax_.yaxis) == NAMES
    np.testing.assert_array_equal(
        _texts(display),
        [
            ["", "0.200", "0.004", "<0.001"],
            ["0.200", "", "0.031", "<0.001"],
            ["0.004", "0.031", "", "0.080"],
            ["<0.001", "<0.001", "0.080", ""],
        ],
    )
    # The cells below alpha = 0.05 are in bold, the others not.
    bold = np.array(
        [
            [t is not None and t.get_fontweight() == "bold" for t in row]
            for row in display.text_
        ]
    )
    np.testing.assert_array_equal(bold, (PVALUES < 0.05) & ~np.eye(4, dtype=bool))
    # One text per tested cell, at its (column, row) position.
    assert len(display.ax_.texts) == 12
    assert display.text_[0, 3].get_position() == (3, 0)
    assert display.ax_.get_title() == "p-values (no correction), α = 0.05"


def test_significance_display_formats_one_and_values_format():
    pvalues = np.array([[1.0, 1.0], [0.999, 1.0]])
    display = SignificanceMatrixDisplay(pvalues, names=["a", "b"]).plot()
    assert display.text_[0, 1].get_text() == "1.000"
    assert display.text_[1, 0].get_text() == "0.999"
    display = SignificanceMatrixDisplay(PVALUES, names=NAMES).plot(
        values_format=".1e", sort=False
    )
    assert display.text_[1, 3].get_text() == "1.0e-05"
    assert display.text_[0, 1].get_text() == "2.0e-01"


def test_significance_display_greys_out_untested_cells():
    # Every estimator against the control "dummy", one-sided: only the
    # entries [j, dummy] hold a test.
    tested = np.zeros((4, 4), dtype=bool)
    tested[:3, 3] = True
    display = SignificanceMatrixDisplay(PVALUES, names=NAMES, tested=tested).plot()
    texts = _texts(display)
    assert list(texts[:3, 3]) == ["<0.001", "<0.001", "0.080"]
    assert (texts[~tested] == "").all()
    assert all(t is None for t in display.text_[~tested])
    assert len(display.ax_.texts) == 3
    # Untested cells are masked and drawn in the grey "bad" colour.
    np.testing.assert_array_equal(np.ma.getmaskarray(display.im_.get_array()), ~tested)
    grey = matplotlib.colors.to_rgba("#d4d4d4")
    rgba = display.im_.to_rgba(display.im_.get_array())
    np.testing.assert_allclose(rgba[0, 0], grey)
    np.testing.assert_allclose(rgba[3, 0], grey)
    assert not np.allclose(rgba[0, 3], grey)


def test_significance_display_sorts_best_mean_score_first():
    display = SignificanceMatrixDisplay(
        PVALUES, names=NAMES, mean_scores=MEAN_SCORES, score_name="accuracy"
    ).plot()
    expected = ["forest (0.950)", "tree (0.910)", "bayes (0.880)", "dummy (0.620)"]
    assert _tick_labels(display.ax_.yaxis) == expected
    assert _tick_labels(display.ax_.xaxis) == expected
    np.testing.assert_array_equal(display.order_, [1, 0, 2, 3])
    # The cells follow the rows: [0, 2] is forest against bayes (0.0312).
    assert display.text_[0, 2].get_text() == "0.031"
    assert display.text_[1, 2].get_text() == "0.004"  # tree against bayes
    np.testing.assert_allclose(display.im_.get_array()[0, 3], 0.00001)
    assert display.ax_.get_ylabel() == "A (mean accuracy)"
    assert display.ax_.get_xlabel() == "B (mean accuracy)"
    # sort=False keeps names order, the mean scores still beside the names.
    unsorted = SignificanceMatrixDisplay(
        PVALUES, names=NAMES, mean_scores=MEAN_SCORES
    ).plot(sort=False)
    assert _tick_labels(unsorted.ax_.yaxis)[0] == "tree (0.910)"
    np.testing.assert_array_equal(unsorted.order_, [0, 1, 2, 3])
    assert unsorted.text_[0, 1].get_text() == "0.200"


def test_significance_display_ties_keep_names_order():
    display = SignificanceMatrixDisplay(
        PVALUES, names=NAMES, mean_scores=[0.9, 0.9, 0.95, 0.9]
    ).plot()
    assert [label.split()[0] for label in _tick_labels(display.ax_.yaxis)] == [
        "bayes",
        "tree",
        "forest",
        "dummy",
    ]


def test_significance_display_colour_changes_at_alpha():
    display = SignificanceMatrixDisplay(PVALUES, names=NAMES, alpha=0.05).plot()
    norm = display.im_.norm
    # Log scale: alpha in the middle of the colormap, the floor 1e-4 at 0.
    assert norm(0.05) == pytest.approx(0.5)
    assert norm(1e-4) == pytest.approx(0.0) and norm(1e-9) == pytest.approx(0.0)
    assert norm(1.0) == pytest.approx(1.0)
    assert norm(0.049) < 0.5 < norm(0.051)
    # Just below and just above alpha: different hues (red vs blue).
    below, above = display.im_.cmap([norm(0.049), norm(0.051)])
    assert below[0] > below[2] and above[2] > above[0]
    # Dark cells get white text, light ones black.
    assert display.text_[0, 3].get_color() == "white"  # 0.0004
    assert display.text_[0, 1].get_color() == "black"  # 0.2
    labels = _tick_labels(display.colorbar_.ax.yaxis)
    assert "α = 0.05" in labels and "≤0.0001" in labels
    assert display.colorbar_.ax.get_ylabel() == "p-value"


def test_significance_display_title_names_test_and_correction():
    display = SignificanceMatrixDisplay(
        PVALUES, names=NAMES, test_name="bcv_mcnemar", correction="holm"
    ).plot()
    assert display.ax_.get_title() == ("bcv_mcnemar\nHolm-adjusted p-values, α = 0.05")
    assert display.colorbar_.ax.get_ylabel() == "adjusted p-value"
    raw = SignificanceMatrixDisplay(PVALUES, names=NAMES, alpha=0.01).plot()
    assert raw.ax_.get_title() == "p-values (no correction), α = 0.01"


def test_significance_display_reject_kind():
    reject = PVALUES < 0.05
    np.fill_diagonal(reject, False)
    display = SignificanceMatrixDisplay(
        reject, names=NAMES, kind="reject", correction="bonferroni"
    ).plot(sort=False)
    np.testing.assert_array_equal(
        _texts(display),
        [
            ["", "n.s.", "differ", "differ"],
            ["n.s.", "", "differ", "differ"],
            ["differ", "differ", "", "n.s."],
            ["differ", "differ", "n.s.", ""],
        ],
    )
    assert display.ax_.get_title() == (
        "decisions at α = 0.05 (Bonferroni-adjusted p-values)"
    )
    assert _tick_labels(display.colorbar_.ax.yaxis) == ["n.s.", "differ"]
    # The two decisions are two different colours.
    rgba = display.im_.to_rgba(display.im_.get_array())
    assert not np.allclose(rgba[0, 1], rgba[0, 2])
    np.testing.assert_allclose(rgba[0, 2], rgba[3, 1])


def test_significance_display_probability_kind_marks_decisions():
    probabilities = np.array([[0.0, 0.97, 0.6], [0.03, 0.0, 0.2], [0.4, 0.8, 0.0]])
    display = SignificanceMatrixDisplay(
        probabilities, names=["a", "b", "c"], kind="probability"
    ).plot()
    assert _texts(display)[0, 1] == "0.970"
    # P > 0.95 or P < 0.05 is a decision (bold); 0.6 is not.
    assert display.text_[0, 1].get_fontweight() == "bold"
    assert display.text_[1, 0].get_fontweight() == "bold"
    assert display.text_[0, 2].get_fontweight() == "normal"
    norm = display.im_.norm
    assert [norm(p) for p in (0.0, 0.05, 0.5, 0.95, 1.0)] == pytest.approx(
        [0, 0.25, 0.5, 0.75, 1]
    )
    assert display.ax_.get_title() == "P(A better than B); a decision beyond 0.95"
    assert display.colorbar_.ax.get_ylabel() == "P(A better than B)"


def test_significance_display_on_given_axes_without_colorbar_or_text():
    fig, ax = plt.subplots()
    display = SignificanceMatrixDisplay(PVALUES, names=NAMES).plot(
        ax=ax, colorbar=False, annotate=False
    )
    assert display.figure_ is fig and display.ax_ is ax
    assert display.colorbar_ is None
    assert all(t is None for t in display.text_.ravel())
    assert not ax.texts


def test_significance_display_from_result_pvalues(many_result):
    result = many_result
    display = SignificanceMatrixDisplay.from_result(result)
    table = result.pairwise.bcv_mcnemar
    order = np.argsort(-result.mean_scores, kind="stable")
    # The first pairwise test, best estimator first.
    assert [label.split()[0] for label in _tick_labels(display.ax_.yaxis)] == [
        result.names[j] for j in order
    ]
    assert _tick_labels(display.ax_.yaxis)[0].split()[0] == "good"
    # The test by its display name, not its registry name.
    assert display.ax_.get_title() == (
        "BCV McNemar test\nHolm-adjusted p-values, α = 0.05"
    )
    assert display.ax_.get_ylabel() == "A (mean accuracy)"
    np.testing.assert_allclose(
        display.im_.get_array().filled(np.nan)[~np.eye(4, dtype=bool)],
        table.pvalue_adjusted[np.ix_(order, order)][~np.eye(4, dtype=bool)],
    )
    good, poor = result.names.index("good"), result.names.index("poor")
    assert table.pvalue_adjusted[good, poor] < 0.001
    assert display.text_[0, 3].get_text() == "<0.001"  # good against poor
    assert all(display.text_[i, i] is None for i in range(4))
    # The same figure twice: savefig works.
    display.figure_.savefig(io.BytesIO(), format="png")


def test_significance_display_from_result_bayesian_and_reject(many_result):
    result = many_result
    display = SignificanceMatrixDisplay.from_result(
        result, test="bayesian_correlated_t", kind="probability", sort=False
    )
    table = result.pairwise.bayesian_correlated_t
    assert display.kind == "probability"
    assert display.correction is None
    fair, good = result.names.index("fair"), result.names.index("good")
    p = table.p_a_better[good, fair]
    expected = ">0.999" if p > 0.999 else f"{p:.3f}"
    assert display.text_[good, fair].get_text() == expected
    assert display.ax_.get_title().startswith("Bayesian correlated t test\nP(A better")
    reject = SignificanceMatrixDisplay.from_result(result, kind="reject", sort=False)
    texts = _texts(reject)
    decided = result.pairwise.bcv_mcnemar.reject
    assert (texts[decided] == "differ").all()
    assert (texts[~decided & ~np.eye(4, dtype=bool)] == "n.s.").all()


def test_significance_display_from_result_one_sided_greys_reverse_pairs():
    rng = np.random.RandomState(1)
    y = rng.randint(0, 2, 400)
    splits = list(BlockRegularized5x2CV(random_state=1).split(y))
    predictions = {
        name: [np.where(rng.rand(t.size) < a, y[t], 1 - y[t]) for _, t in splits]
        for name, a in (("x", 0.9), ("y", 0.7), ("z", 0.8))
    }
    result = compare_many_predictions(
        y, predictions, splits, pairwise_tests="bcv_mcnemar", alternative="greater"
    )
    display = SignificanceMatrixDisplay.from_result(result, sort=False)
    # Only [A, B] with A first in names order is tested.
    tested = np.triu(np.ones((3, 3), dtype=bool), k=1)
    assert (_texts(display)[tested] != "").all()
    assert all(t is None for t in display.text_[~tested])


def test_significance_display_draws_eight_estimators():
    rng = np.random.RandomState(0)
    k = 8
    p = rng.uniform(0, 0.2, (k, k))
    p = np.minimum(p, p.T)
    display = SignificanceMatrixDisplay(
        p, names=[f"estimator_{i}" for i in range(k)], mean_scores=np.linspace(0, 1, k)
    ).plot()
    assert _tick_labels(display.ax_.yaxis)[0] == "estimator_7 (1.00)"
    assert sum(t is not None for t in display.text_.ravel()) == k * (k - 1)
    display.figure_.savefig(io.BytesIO(), format="png")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            {"values": np.ones((2, 3))},
            r"values must be a square matrix of shape \(k, k\); got shape \(2, 3\)",
        ),
        ({"values": np.ones(4)}, r"square matrix of shape \(k, k\); got shape \(4,\)"),
        (
            {"names": ["a", "b"]},
            "names must hold k = 4 names, one per row of values; got 2",
        ),
        ({"alpha": 0.0}, r"alpha must be a number in \(0, 1\); got 0.0"),
        ({"alpha": 1}, r"alpha must be a number in \(0, 1\); got 1"),
        ({"alpha": "0.05"}, r"alpha must be a number in \(0, 1\)"),
        (
            {"kind": "pvalues"},
            "kind must be one of 'pvalue', 'reject', 'probability', 'decision'; "
            "got 'pvalues'",
        ),
        (
            {"values": PVALUES * 10},
            r"values must hold p-values in \[0, 1\] in every tested cell",
        ),
        ({"values": np.where(np.eye(4) > 0, 1.0, np.nan)}, "p-values in"),
        (
            {"tested": np.ones((3, 3))},
            r"tested must have the shape of values, \(4, 4\); got shape \(3, 3\)",
        ),
        ({"reject": np.ones(4)}, r"reject must have the shape of values"),
        (
            {"mean_scores": [0.9, 0.8]},
            r"mean_scores must have shape \(k,\) = \(4,\); got shape \(2,\)",
        ),
    ],
)
def test_significance_display_errors(kwargs, message):
    params = {"values": PVALUES, "names": NAMES, **kwargs}
    display = SignificanceMatrixDisplay(params.pop("values"), **params)
    with pytest.raises(ValueError, match=message):
        display.plot()


def test_significance_display_untested_cells_may_hold_anything():
    values = PVALUES.copy()
    np.fill_diagonal(values, np.nan)  # ignored: the diagonal holds no test
    SignificanceMatrixDisplay(values, names=NAMES).plot()


def test_significance_display_from_result_errors(many_result):
    with pytest.raises(
        ValueError,
        match=r"test must be one of the pairwise tests of the result "
        r"\['bcv_mcnemar', 'bayesian_correlated_t'\]; got 'wilcoxon'",
    ):
        SignificanceMatrixDisplay.from_result(many_result, test="wilcoxon")
    empty = Bunch(names=["a", "b"], pairwise=Bunch(), mean_scores=np.zeros(2))
    with pytest.raises(
        ValueError, match=r"result has no pairwise test to plot .*'bcv_mcnemar'"
    ):
        SignificanceMatrixDisplay.from_result(empty)
    with pytest.raises(ValueError, match="bayesian_correlated_t is Bayesian"):
        SignificanceMatrixDisplay.from_result(
            many_result, test="bayesian_correlated_t", kind="pvalue"
        )
    with pytest.raises(ValueError, match="bcv_mcnemar gives p-values, not posterior"):
        SignificanceMatrixDisplay.from_result(many_result, kind="probability")
    with pytest.raises(ValueError, match="kind must be None or one of"):
        SignificanceMatrixDisplay.from_result(many_result, kind="p")


# --------------------------------------------------------------------------
# A Bayesian test: coloured by its decision and the probability of it


def test_bayesian_default_is_the_decision_and_the_decided_probability(many_result):
    result = many_result
    display = SignificanceMatrixDisplay.from_result(
        result, test="bayesian_correlated_t", sort=False
    )
    assert display.kind == "decision"
    table = result.pairwise.bayesian_correlated_t
    k = len(result.names)
    for i in range(k):
        for j in range(k):
            if i == j:
                continue
            p = [table.p_a_better[i, j], table.p_rope[i, j], table.p_b_better[i, j]]
            likeliest = int(np.argmax([p[0], p[2], p[1]]))
            shown = [p[0], p[2], p[1]][likeliest]
            text = display.text_[i, j]
            assert text.get_text() == probability(shown)
            decided = shown > 0.95
            assert (text.get_fontweight() == "bold") == decided
            rgb = np.asarray(display.im_.get_array())[i, j, :3]
            hue = ["row", "column", "rope"][likeliest]
            base = np.array(
                {"row": (0.129, 0.400, 0.675), "column": (0.698, 0.094, 0.169),
                 "rope": (0.106, 0.471, 0.216)}[hue]
            )  # fmt: skip
            depth = (1 - rgb) / (1 - base)
            np.testing.assert_allclose(depth, depth[0], atol=1e-9)
            # Deep when decided (0.55 to 1), a pale tint when not (at most 0.3).
            assert (depth[0] >= 0.55) if decided else (depth[0] <= 0.3 + 1e-9)


def test_a_no_decision_is_never_the_dark_colour_of_the_other_side():
    """The issue's case: P(row better) = 0.002 with P(column better) = 0.760
    and no decision is pale (the column's tint), not dark red or blue."""
    p_a = np.array([[0.0, 0.002], [0.760, 0.0]])
    p_b = p_a.T.copy()
    p_rope = np.array([[0.0, 0.238], [0.238, 0.0]])
    display = SignificanceMatrixDisplay(
        p_a, names=["k-NN", "RBF SVM"], kind="decision", p_b_better=p_b,
        p_rope=p_rope,
    ).plot()  # fmt: skip
    assert display.text_[0, 1].get_text() == "0.760"
    assert display.text_[0, 1].get_fontweight() == "normal"
    rgb = np.asarray(display.im_.get_array())[0, 1, :3]
    assert rgb.min() > 0.75  # pale
    assert rgb[0] > rgb[2]  # a tint of red: the column (RBF SVM) is likelier


def test_the_decision_kind_needs_the_other_probabilities():
    with pytest.raises(ValueError, match="needs p_b_better"):
        SignificanceMatrixDisplay(
            np.full((2, 2), 0.5), names=["a", "b"], kind="decision"
        ).plot()


def test_mean_ranks_order_and_label_the_rows():
    display = SignificanceMatrixDisplay(
        PVALUES, names=NAMES, mean_ranks=[2.0, 1.5, 3.0, 3.5]
    ).plot(column_labels="numbers")
    assert _tick_labels(display.ax_.yaxis) == [
        "1  forest (1.50)", "2  tree (2.00)", "3  bayes (3.00)", "4  dummy (3.50)",
    ]  # fmt: skip
    assert _tick_labels(display.ax_.xaxis) == ["1", "2", "3", "4"]
    assert display.ax_.get_ylabel() == "A (mean rank)"
