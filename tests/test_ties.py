"""The tie rule of values derived from the scores (stats._ties): groups by
single linkage, anchors, per-data-set tolerances, and the same groups as
exact decimal arithmetic whatever the units."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sklearn_bcv.stats._ties import (
    TIE_ULPS,
    check_score_scale,
    difference_tolerance,
    merge_magnitudes,
    merge_ties,
    row_tolerance,
    tie_labels,
    tie_tolerance,
    tied_ranks,
)

EPS = np.finfo(float).eps


def test_tolerance_is_2_to_the_minus_46_of_the_largest_magnitude():
    assert TIE_ULPS * EPS == 2.0**-46
    assert tie_tolerance([0.5, -3.0], None, 1.0) == 3 * 2.0**-46
    assert tie_tolerance([]) == 0.0
    np.testing.assert_array_equal(
        row_tolerance(np.array([[1.0, -2.0], [0.0, 0.0]])), [[2 * 2.0**-46], [0.0]]
    )


def test_chains_are_one_group_and_gaps_split_them():
    tau = 1.0
    values = np.array([0.0, 0.9, 1.8, 2.7, 4.0, 4.5])  # 0-2.7 chain; 4-4.5
    assert tie_labels(values, tau).tolist() == [0, 0, 0, 0, 1, 1]
    assert tie_labels(values[::-1], tau).tolist() == [1, 1, 0, 0, 0, 0]
    assert tie_labels(values, 0.0).tolist() == [0, 1, 2, 3, 4, 5]
    assert merge_ties(values, tau, anchors=()).tolist() == [0, 0, 0, 0, 4, 4]


def test_anchors_win_their_group_and_values_keep_their_sign():
    tau = 1e-15
    d = np.array([0.83 - 0.82, 0.82 - 0.81, -0.01, 1e-17, -1e-17, 0.02 + 1e-17])
    merged = merge_magnitudes(d, tau, anchors=(0.0, 0.02))
    assert merged[0] == merged[1] == -merged[2] > 0
    assert merged[3] == merged[4] == 0.0 and not np.signbit(merged[4])
    assert merged[5] == 0.02
    assert merge_ties(np.array([0.3, 0.1 + 0.2]), tau, anchors=(0.3,)).tolist() == [
        0.3,
        0.3,
    ]


def test_each_value_carries_its_own_tolerance():
    # A data set of scores near 1e300 does not tie the small differences
    # of another: 0 and 1 are apart at their own magnitude.
    values = np.array([0.0, 1.0, 1e300, 1e300 * (1 + 2**-50)])
    tolerance = TIE_ULPS * EPS * np.array([1.0, 1.0, 1e300, 1e300])
    assert tie_labels(values, tolerance).tolist() == [0, 1, 2, 2]
    assert tie_labels(values, TIE_ULPS * EPS * 1e300).tolist() == [0, 0, 1, 1]


def test_ranks_average_over_the_groups():
    values = np.array([[0.3, 0.1 + 0.2, 0.5], [0.2, 0.2, 0.2]])
    assert tied_ranks(values, 1e-15, axis=1).tolist() == [
        [1.5, 1.5, 3.0],
        [2.0, 2.0, 2.0],
    ]
    assert tied_ranks(values, 1e-15).tolist() == [[4.5, 4.5, 6.0], [2.0, 2.0, 2.0]]


@pytest.mark.parametrize(
    "value, match",
    [
        (0.0, "score_scale must be None"),
        (-1.0, "score_scale must be None"),
        (np.nan, "score_scale must be None"),
        ("1", "score_scale must be None"),
        ([[[1.0]]], "score_scale must be None"),
        ([1.0, -1.0], "score_scale must be None"),
    ],
)
def test_score_scale_is_checked(value, match):
    with pytest.raises(ValueError, match=match):
        check_score_scale(value)


def test_difference_tolerance_per_difference_and_data_set():
    # Each difference's tolerance comes from its own data set's scale (and
    # the rope), never another data set's: without a scale, from itself.
    d = np.array([0.01, -0.5])
    assert difference_tolerance(d, None).tolist() == [0.01 * 2.0**-46, 0.5 * 2.0**-46]
    assert difference_tolerance(d, 100.0).tolist() == [100 * 2.0**-46] * 2
    per = difference_tolerance(d, np.array([1.0, 80.0]), rope=2.0)
    np.testing.assert_array_equal(per, np.array([2.0, 80.0]) * 2.0**-46)
    # A batch of comparisons, with one scale per comparison and data set.
    batch = difference_tolerance(
        np.array([[0.5, 1.0], [4.0, 0.0]]), np.array([[1.0, 1.0], [8.0, 2.0]])
    )
    np.testing.assert_array_equal(batch, [[2.0**-46, 2.0**-46], [2.0**-43, 2.0**-45]])
    split = difference_tolerance(np.ones((2, 3)), np.array([1.0, 4.0]), split=True)
    np.testing.assert_array_equal(split, [[2.0**-46], [4 * 2.0**-46]])
    with pytest.raises(ValueError, match="one scale per data set"):
        difference_tolerance(d, np.ones(3))


# Decimals of 1 to 4 digits with many exact ties, in fractions and floats.
decimals = st.integers(1, 4).flatmap(
    lambda digits: st.lists(
        st.integers(-30, 30).map(lambda c: Fraction(c, 10**digits)),
        min_size=2,
        max_size=40,
    )
)
maps = st.sampled_from(
    [(1, 0), (100, 0), (Fraction(1, 100), 0), (1, Fraction(1, 10)), (7, Fraction(-3))]
)


@settings(deadline=None)
@given(values=decimals, scale_shift=maps, data=st.data())
def test_groups_of_derived_differences_are_those_of_exact_arithmetic(
    values, scale_shift, data
):
    # Differences of (transformed) decimals tie exactly when they tie in
    # exact arithmetic, whatever the units and the order of the values.
    a, b = scale_shift
    scores = [a * v + b for v in values]
    floats = np.array([float(a) * float(v) + float(b) for v in values])
    order = data.draw(st.permutations(range(len(values))))
    pairs = [(order[i], order[i - 1]) for i in range(1, len(order))]
    exact = [scores[i] - scores[j] for i, j in pairs]
    derived = np.array([floats[i] - floats[j] for i, j in pairs])
    merged = merge_magnitudes(derived, tie_tolerance(floats))
    for (x, dx), (y, dy) in zip(zip(exact, merged), zip(exact[1:], merged[1:])):
        assert (abs(x) == abs(y)) == (abs(dx) == abs(dy))
        assert (x == 0) == (dx == 0)
    labels = tie_labels(np.abs(derived), tie_tolerance(floats))
    by_value = {}
    for x, label in zip(exact, labels):
        by_value.setdefault(abs(x), set()).add(int(label))
    assert all(len(found) == 1 for found in by_value.values())  # ties kept
    assert len(set.union(*by_value.values())) == len(by_value)  # none added
