"""Hostile input, round 3: Displays refuse contradictory input (class 6).

Every Display's constructor and ``from_*`` go through the helpers of
``_plot/_validate.py``: names that label two estimators alike, looks taken
out of order or outside the possible looks, negative or non-finite counts,
non-finite differences and probabilities that contradict the posterior
drawn are refused with one line naming the argument; two equal names of a
pair (two estimators of one class) are told apart by their roles.
"""

import numpy as np
import pytest

pytest.importorskip("matplotlib")
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from sklearn.datasets import load_breast_cancer  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

from sklearn_bcv import (  # noqa: E402
    ContingencyTableDisplay,
    CriticalDifferenceDisplay,
    PosteriorDisplay,
    PosteriorSimplexDisplay,
    ScoreDifferencesDisplay,
    SequentialDisplay,
    SignificanceMatrixDisplay,
    compare_estimators,
)
from sklearn_bcv._plot._validate import check_looks, check_names  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


P = np.array([[1.0, 0.01, 0.5], [0.01, 1.0, 0.3], [0.5, 0.3, 1.0]])


@pytest.mark.parametrize(
    "names, repeated",
    [
        (["a", "a", "b"], "['a']"),
        (["a", "b", "a"], "['a']"),
        ([1, "1", "b"], "['1']"),  # print alike
        (["x", "x", "x"], "['x']"),
    ],
)
def test_significance_matrix_refuses_names_given_twice(names, repeated):
    with pytest.raises(ValueError, match=r"names must be unique") as info:
        SignificanceMatrixDisplay(P, names=names).plot()
    assert repeated in str(info.value)


@pytest.mark.parametrize(
    "names, match",
    [
        (["a", "a", "b"], "names must be unique"),
        (["a", "b"], "names must hold k = 3 names, one per mean rank"),
        ("abc", "names must be a list of 3 names"),
    ],
)
def test_critical_difference_names(names, match):
    with pytest.raises(ValueError, match=match):
        CriticalDifferenceDisplay.from_ranks([1.5, 1.5, 3.0], 10, names)


def test_critical_difference_groups_of_one_name_twice():
    display = CriticalDifferenceDisplay(
        [1.2, 2.0, 2.8],
        ["a", "b", "c"],
        None,
        n_datasets=10,
        test="friedman_posthoc",
        groups=[("a", "a")],
    )
    with pytest.raises(ValueError, match="two different names"):
        display.plot()


LOOKS = dict(
    boundary_repeats=[3, 4, 5], lower=[-2.2, -2.1, -2.0], upper=[2.2, 2.1, 2.0]
)


@pytest.mark.parametrize(
    "repeats, statistic, match",
    [
        ([4, 3, 3], [1.0, 2.0, 3.0], "repeats must be in strictly increasing order"),
        ([3, 3], [1.0, 2.0], "got 3 after 3"),
        ([30, 40], [1.0, 2.0, 3.0], "repeats and statistic must be non-empty 1-D"),
        ([3, 4, 5], [1.0, 2.0], "of one length"),
        ([3.5, 4], [1.0, 2.0], "whole numbers of repetitions >= 1"),
        ([0, 3], [1.0, 2.0], "whole numbers of repetitions >= 1"),
        ([4, 7], [1.0, 2.0], r"among the possible looks boundary_repeats \[3, 4, 5\]"),
    ],
)
def test_sequential_display_refuses_looks_that_contradict(repeats, statistic, match):
    with pytest.raises(ValueError, match=match):
        SequentialDisplay(repeats, statistic, **LOOKS).plot()


@pytest.mark.parametrize(
    "boundary, match",
    [
        ([5, 4, 3], "boundary_repeats must be in strictly increasing order"),
        ([3, 3, 4], "boundary_repeats must be in strictly increasing order"),
        ([3, 4], "boundary_repeats, lower and upper must be 1-D arrays of one length"),
    ],
)
def test_sequential_display_refuses_possible_looks_out_of_order(boundary, match):
    kwargs = dict(LOOKS, boundary_repeats=boundary)
    with pytest.raises(ValueError, match=match):
        SequentialDisplay([3], [1.0], **kwargs).plot()


def test_sequential_display_of_consistent_looks_is_drawn():
    display = SequentialDisplay([3, 5], [1.0, 2.5], **LOOKS, decision="A better").plot()
    assert display.path_line_.get_xydata().tolist() == [[3.0, 1.0], [5.0, 2.5]]
    with pytest.raises(ValueError, match="decision must be None or a str"):
        SequentialDisplay([3], [1.0], **LOOKS, decision=1).plot()


def test_check_looks_and_names_directly():
    assert check_looks([1, 2.0, 7], name="r").tolist() == [1, 2, 7]
    assert check_names(("a", 2), 2) == ["a", "2"]
    with pytest.raises(ValueError, match="at least one look"):
        check_looks([], name="r")


@pytest.mark.parametrize(
    "make",
    [
        lambda names: ScoreDifferencesDisplay([0.01, 0.02], estimator_names=names),
        lambda names: ContingencyTableDisplay(
            [[[5, 3], [2, 10]]], estimator_names=names
        ),
        lambda names: SequentialDisplay([3], [1.0], **LOOKS, estimator_names=names),
        lambda names: PosteriorDisplay(0.01, 0.02, 9, estimator_names=names),
        lambda names: PosteriorSimplexDisplay(
            np.array([[0.2, 0.3, 0.5]] * 5), names=names
        ),
    ],
    ids=["differences", "contingency", "sequential", "posterior", "simplex"],
)
def test_pair_displays_tell_equal_names_apart_and_refuse_other_counts(make):
    display = make(("tree", "tree")).plot()
    texts = [t.get_text() for t in display.figure_.findobj(matplotlib.text.Text)]
    assert any("tree (A)" in t for t in texts) and any("tree (B)" in t for t in texts)
    for names in (("a",), ("a", "b", "c"), "ab"):
        with pytest.raises(ValueError, match="must hold two names"):
            make(names).plot()


def test_pair_names_of_two_estimators_of_one_class_from_a_result():
    X, y = load_breast_cancer(return_X_y=True)
    result = compare_estimators(
        DecisionTreeClassifier(max_depth=1, random_state=0),
        DecisionTreeClassifier(random_state=0),
        X,
        y,
        random_state=0,
    )
    display = ScoreDifferencesDisplay.from_result(result)
    labels = [t.get_text() for t in display.figure_.findobj(matplotlib.text.Text)]
    assert any("(A)" in t for t in labels) and any("(B)" in t for t in labels)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"tables": [[[5, -3], [2, 10]]]}, "tables must hold finite counts >= 0"),
        ({"tables": [[[5, np.nan], [2, 10]]]}, "tables must hold finite counts >= 0"),
        ({"mean_table": [[1, 2, 3]]}, r"mean_table must have shape \(2, 2\)"),
        ({"mean_table": [[1, -2], [3, 4]]}, "mean_table must hold finite counts"),
        ({"effective_table": [[1, np.inf], [3, 4]]}, "effective_table must hold"),
    ],
)
def test_contingency_display_refuses_counts_that_cannot_be(kwargs, match):
    kwargs = {"tables": [[[5, 3], [2, 10]]], **kwargs}
    with pytest.raises(ValueError, match=match):
        ContingencyTableDisplay(**kwargs).plot()


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_score_differences_display_refuses_non_finite_differences(bad):
    with pytest.raises(ValueError, match="differences must be finite"):
        ScoreDifferencesDisplay([0.01, bad, 0.02, 0.0]).plot()


def test_posterior_display_refuses_probabilities_its_curve_contradicts():
    display = PosteriorDisplay(
        0.025, 0.02, 9, rope=0.01, p_a_better=0.9, p_rope=0.05, p_b_better=0.05
    )
    with pytest.raises(ValueError, match="contradicts the posterior drawn"):
        display.plot()
    # Those of a real test agree with the posterior drawn.
    X, y = load_breast_cancer(return_X_y=True)
    for rope in (0.0, 0.02):
        result = compare_estimators(
            GaussianNB(),
            DecisionTreeClassifier(random_state=0),
            X,
            y,
            random_state=0,
            tests={
                "bayesian_correlated_t": {"rope": rope},
                "bayesian_bcv_mcnemar": {"rope": rope},
            },
        )
        for test in ("bayesian_correlated_t", "bayesian_bcv_mcnemar"):
            PosteriorDisplay.from_result(result, test=test)
