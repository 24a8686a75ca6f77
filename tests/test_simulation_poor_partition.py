"""Tests of the "poor partition" 5×2 CV of seed 001 §3."""

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_array_equal
from sklearn.dummy import DummyClassifier
from sklearn.model_selection import cross_validate

from sklearn_bcv._engine._design import describe_design
from sklearn_bcv.simulation._poor_partition import PoorPartition5x2CV


def _splits(n, n_swapped=None, random_state=0):
    cv = PoorPartition5x2CV(n_swapped, random_state=random_state)
    return list(cv.split(np.zeros((n, 1))))


def _overlap(a, b):
    return len(np.intersect1d(a, b))


@st.composite
def _n_and_k(draw):
    n = draw(st.integers(4, 400))
    k = draw(st.integers(1, n // 2))
    return n, k


@given(_n_and_k(), st.integers(0, 2**32 - 1))
def test_poor_partition_properties(n_and_k, seed):
    n, k = n_and_k
    splits = _splits(n, k, seed)
    assert len(splits) == 10
    everyone = np.arange(n)
    for train, test in splits:
        assert train.dtype == np.intp and test.dtype == np.intp
        assert np.all(np.diff(train) > 0) and np.all(np.diff(test) > 0)
        assert _overlap(train, test) == 0
        assert_array_equal(np.union1d(train, test), everyone)
    for r in range(5):
        (s, t), (t_swapped, s_swapped) = splits[2 * r], splits[2 * r + 1]
        assert_array_equal(s, s_swapped)
        assert_array_equal(t, t_swapped)
        assert len(s) == n // 2
        assert len(t) == n - n // 2
    s1, t1 = splits[0]
    s2, t2 = splits[2]
    assert _overlap(s1, s2) == n // 2 - k
    assert _overlap(t1, t2) == n - n // 2 - k
    assert _overlap(s1, s2) + _overlap(t1, t2) == n - 2 * k
    # exactly k records moved each way
    assert _overlap(s1, t2) == _overlap(t1, s2) == k


@given(st.integers(4, 400), st.integers(0, 2**32 - 1))
def test_poor_partition_is_mx2_design(n, seed):
    splits = _splits(n, random_state=seed)
    design = describe_design(splits, n)
    assert design.is_mx2
    assert design.n_repeats == 5


def test_poor_partition_not_block_regularized():
    design = describe_design(_splits(200), 200)
    assert design.is_mx2 and not design.is_block_regularized


@pytest.mark.parametrize("n", [4, 5, 21, 200, 201])
def test_poor_partition_all_swapped_exchanges_folds(n):
    splits = _splits(n, n // 2, random_state=3)
    s1, t1 = splits[0]
    s2, t2 = splits[2]
    assert _overlap(s1, s2) == 0
    if n % 2 == 0:
        # P1 and P2 change places
        assert_array_equal(s2, t1)
        assert_array_equal(t2, s1)
    else:
        # all of P1 leaves; one record of P2 stays in T_2
        assert np.isin(s2, t1).all()
        assert np.isin(s1, t2).all()


@pytest.mark.parametrize("n, k", [(4, 1), (19, 1), (20, 1), (39, 1), (200, 10)])
def test_poor_partition_default_n_swapped(n, k):
    assert k == max(1, n // 20)
    splits = _splits(n)
    assert _overlap(splits[0][0], splits[2][0]) == n // 2 - k
    assert_array_equal(splits[2][0], _splits(n, k)[2][0])


def test_poor_partition_default_overlap_is_nine_twentieths():
    splits = _splits(200)
    assert _overlap(splits[0][0], splits[2][0]) == 90


def test_poor_partition_random_repetitions_overlap_a_quarter_on_average():
    n, n_seeds = 100, 400
    overlaps = []
    for seed in range(n_seeds):
        splits = _splits(n, random_state=seed)
        trains = [splits[2 * r][0] for r in range(5)]
        overlaps.extend(
            _overlap(trains[r], trains[q]) for r in range(2, 5) for q in range(r)
        )
    # hypergeometric: mean n/4 = 25, sd about 2.5 per pair; 3600 pairs
    assert abs(np.mean(overlaps) - n / 4) < 0.5
    # ...but they vary from one partition to the next
    assert np.std(overlaps) > 1


def test_poor_partition_reproducible():
    first = _splits(50, random_state=7)
    again = _splits(50, random_state=7)
    other = _splits(50, random_state=8)
    for (a_train, a_test), (b_train, b_test) in zip(first, again):
        assert_array_equal(a_train, b_train)
        assert_array_equal(a_test, b_test)
    assert any(not np.array_equal(a[0], b[0]) for a, b in zip(first, other))
    # the same instance gives the same splits on every call
    cv = PoorPartition5x2CV(random_state=7)
    X = np.zeros((50, 1))
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(cv.split(X), cv.split(X)))


def test_poor_partition_random_state_none_draws_fresh():
    cv = PoorPartition5x2CV()
    X = np.zeros((200, 1))
    draws = [tuple(next(cv.split(X))[0][:10]) for _ in range(3)]
    assert len(set(draws)) > 1


def test_poor_partition_accepts_random_state_instance():
    cv = PoorPartition5x2CV(random_state=np.random.RandomState(0))
    assert len(list(cv.split(np.zeros((10, 1))))) == 10


def test_poor_partition_get_n_splits_and_repr():
    cv = PoorPartition5x2CV(3, random_state=0)
    assert cv.get_n_splits() == 10
    assert cv.get_n_splits(np.zeros((20, 1))) == 10
    assert repr(cv) == "PoorPartition5x2CV(n_swapped=3, random_state=0)"


def test_poor_partition_in_cross_validate():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(60, 2))
    y = np.tile([0, 1], 30)
    result = cross_validate(
        DummyClassifier(), X, y, cv=PoorPartition5x2CV(random_state=0)
    )
    assert len(result["test_score"]) == 10


def test_poor_partition_groups_ignored_with_warning():
    cv = PoorPartition5x2CV(random_state=0)
    with pytest.warns(UserWarning, match="groups parameter is ignored"):
        cv.split(np.zeros((10, 1)), groups=np.zeros(10))


@pytest.mark.parametrize(
    "n_swapped, fragment",
    [
        (
            0,
            "n_swapped must be None or an integer in [1, 10] (n_samples // 2 for "
            "n_samples=20); got 0.",
        ),
        (-1, "got -1."),
        (11, "got 11."),
        (2.5, "got 2.5 of type float."),
        (True, "got True of type bool."),
        ("10", "got '10' of type str."),
    ],
)
def test_poor_partition_bad_n_swapped(n_swapped, fragment):
    cv = PoorPartition5x2CV(n_swapped, random_state=0)
    # no check in __init__, as in sklearn
    assert cv.n_swapped is n_swapped
    with pytest.raises(ValueError, match=re.escape(fragment)) as info:
        cv.split(np.zeros((20, 1)))
    assert str(info.value).startswith("n_swapped must be None or an integer in [1, 10]")


@pytest.mark.parametrize("X", [None, 3, "abc"])
def test_poor_partition_bad_X(X):
    with pytest.raises(TypeError, match=r"^X must be an array-like"):
        PoorPartition5x2CV(random_state=0).split(X)


def test_poor_partition_too_few_samples():
    message = (
        "X has too few samples: PoorPartition5x2CV needs at least 4; got n_samples=3."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        PoorPartition5x2CV(random_state=0).split(np.zeros((3, 1)))


@pytest.mark.parametrize("random_state", [-1, "seed", 2.5, 2**33])
def test_poor_partition_bad_random_state(random_state):
    with pytest.raises(ValueError, match=r"^random_state must be None, an int"):
        PoorPartition5x2CV(random_state=random_state).split(np.zeros((20, 1)))
