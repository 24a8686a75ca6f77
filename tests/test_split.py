"""Tests of the block-regularized m×2 splitters."""

import pickle
import re
import warnings
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_array_equal
from sklearn.datasets import load_iris, make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    BaseCrossValidator,
    GridSearchCV,
    check_cv,
    cross_val_score,
    cross_validate,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import (
    BlockRegularized5x2CV,
    BlockRegularizedMx2CV,
    StratifiedBlockRegularized5x2CV,
    StratifiedBlockRegularizedMx2CV,
)
from sklearn_bcv._split import (
    _column_masks,
    _dealing_order,
    _n_sub_blocks,
    _orthogonal_array,
    _remainder_blocks,
)

PLAIN_SPLITTERS = [
    BlockRegularizedMx2CV(random_state=0),
    BlockRegularizedMx2CV(n_repeats=3, random_state=0),
    BlockRegularized5x2CV(random_state=0),
]
STRATIFIED_SPLITTERS = [
    StratifiedBlockRegularizedMx2CV(random_state=0),
    StratifiedBlockRegularizedMx2CV(n_repeats=3, random_state=0),
    StratifiedBlockRegularized5x2CV(random_state=0),
]
ALL_SPLITTERS = PLAIN_SPLITTERS + STRATIFIED_SPLITTERS
SPLITTER_CLASSES = [
    BlockRegularizedMx2CV,
    BlockRegularized5x2CV,
    StratifiedBlockRegularizedMx2CV,
    StratifiedBlockRegularized5x2CV,
]

# Worst deviations (records) of a training-set size from n/2 and of a
# pairwise cell |S_r & S_s|, |S_r & T_s|, ... from n/4, over every remainder
# n mod 2**k; the tables in the docstrings of BlockRegularizedMx2CV and
# StratifiedBlockRegularizedMx2CV. test_remainder_blocks_matches_brute_force
# recomputes the first from scratch.
PLAIN_BOUNDS = {1: (0.5, 0.0), 2: (0.5, 0.75), 3: (1.0, 0.75), 4: (1.0, 1.25),
                5: (1.0, 1.25), 6: (1.0, 1.5), 7: (1.5, 1.5), 8: (1.5, 1.75),
                9: (1.5, 1.75), 10: (1.5, 1.75), 11: (1.5, 2.0), 12: (1.5, 2.25),
                13: (1.5, 2.25), 14: (1.5, 2.25), 15: (2.0, 2.25)}  # fmt: skip
PLAIN_BOUNDS.update({m: (3.0, 3.75) for m in range(16, 32)})
STRATIFIED_BOUNDS = {1: (0.5, 0.0), 2: (1.0, 0.75), 3: (1.0, 0.75), 4: (1.0, 1.25),
                     5: (1.0, 1.5), 6: (1.5, 1.5), 7: (1.5, 1.5)}  # fmt: skip
STRATIFIED_BOUNDS.update({m: (2.0, 2.75) for m in range(8, 14)})
STRATIFIED_BOUNDS.update({14: (2.5, 2.75), 15: (2.5, 2.75)})

# Table III of seed 000 (5×2 BCV): training set S_j as sub-block numbers.
TABLE_III_S = [{1, 2, 3, 4}, {1, 3, 5, 7}, {1, 2, 5, 6}, {1, 4, 5, 8}, {1, 3, 6, 8}]
# Table 1 of seed 001, groups 1-3 (blocked 3×2 CV): training sets of P_j.
BLOCKED_3X2_S = [{1, 2}, {1, 3}, {1, 4}]


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------


def check_mx2_structure(splits, n_samples, n_repeats):
    """m×2 order, every record tested once per repetition; returns the
    membership codes: codes[i, r] = 1 when record i is in T_r."""
    assert len(splits) == 2 * n_repeats
    codes = np.zeros((n_samples, n_repeats), dtype=int)
    everyone = np.arange(n_samples)
    for r in range(n_repeats):
        (train_s, test_t), (train_t, test_s) = splits[2 * r], splits[2 * r + 1]
        for train, test in splits[2 * r : 2 * r + 2]:
            assert train.dtype.kind == "i" and test.dtype.kind == "i"
            assert np.intersect1d(train, test).size == 0
            assert_array_equal(np.union1d(train, test), everyone)
        assert_array_equal(train_s, test_s)
        assert_array_equal(test_t, train_t)
        codes[test_t, r] = 1
    return codes


def cell_counts(codes, a, b, r, s):
    return int(np.sum((codes[:, r] == a) & (codes[:, s] == b)))


def max_deviations(codes):
    """Largest |size - n/2| and |cell - n/4| over repetitions and pairs."""
    n_samples, n_repeats = codes.shape
    size_dev = np.abs((codes == 0).sum(axis=0) - n_samples / 2).max()
    cell_dev = 0.0
    for r, s in combinations(range(n_repeats), 2):
        for a in (0, 1):
            for b in (0, 1):
                dev = abs(cell_counts(codes, a, b, r, s) - n_samples / 4)
                cell_dev = max(cell_dev, dev)
    return size_dev, cell_dev


def assert_strength_two(codes):
    """Every pair of columns shows each level pair equally often."""
    n_rows, n_cols = codes.shape
    for r, s in combinations(range(n_cols), 2):
        for a in (0, 1):
            for b in (0, 1):
                assert cell_counts(codes, a, b, r, s) * 4 == n_rows


def sub_block_sets(codes):
    """Training sets S_j as sets of sub-block numbers (1-based rows of the
    orthogonal array), recovering each record's sub-block from its code."""
    array = _orthogonal_array(codes.shape[1])
    row_of = {tuple(row): b + 1 for b, row in enumerate(array)}
    blocks = np.array([row_of[tuple(code)] for code in codes])
    return [set(blocks[codes[:, r] == 0].tolist()) for r in range(codes.shape[1])]


def all_splits(cv, n_samples, y=None):
    return list(cv.split(np.zeros((n_samples, 1)), y))


# --------------------------------------------------------------------------
# the orthogonal arrays
# --------------------------------------------------------------------------


@pytest.mark.parametrize("n_repeats", range(1, 32))
def test_orthogonal_array_is_strength_two(n_repeats):
    array = _orthogonal_array(n_repeats)
    n_blocks = _n_sub_blocks(n_repeats)
    assert array.shape == (n_blocks, n_repeats)
    # smallest power of two (>= 2) with 2**k - 1 >= n_repeats
    assert n_blocks - 1 >= n_repeats and (
        n_blocks // 2 - 1 < n_repeats or n_blocks == 2
    )
    assert set(np.unique(array)) <= {0, 1}
    assert_array_equal(array.sum(axis=0), n_blocks // 2)
    # distinct columns, and rows distinct too: each sub-block has its own code
    assert len({tuple(col) for col in array.T}) == n_repeats
    if n_repeats >= 2:
        assert_strength_two(array)


def test_orthogonal_array_matches_table_iii():
    # sub-blocks D1..D8 are rows 0..7; S_j = the sub-blocks marked 0
    array = _orthogonal_array(5)
    for j, expected in enumerate(TABLE_III_S):
        assert {b + 1 for b in np.flatnonzero(array[:, j] == 0)} == expected
    assert _column_masks(5) == [4, 1, 2, 3, 5]


def test_orthogonal_array_matches_blocked_3x2():
    array = _orthogonal_array(3)
    for j, expected in enumerate(BLOCKED_3X2_S):
        assert {b + 1 for b in np.flatnonzero(array[:, j] == 0)} == expected
    assert _column_masks(3) == [2, 1, 3]


def test_orthogonal_array_one_repeat_is_two_fold():
    assert_array_equal(_orthogonal_array(1), [[0], [1]])


@pytest.mark.parametrize("n_repeats", [2, 4, 6, 7, 9, 15, 20])
def test_column_masks_extend_the_papers_order(n_repeats):
    # the leading bit first, then the other nonzero masks ascending; so
    # 3×2 and 5×2 are prefixes of the orders for 2**k - 1 repetitions
    n_blocks = _n_sub_blocks(n_repeats)
    full = [n_blocks // 2] + [c for c in range(1, n_blocks) if c != n_blocks // 2]
    assert _column_masks(n_repeats) == full[:n_repeats]
    assert _column_masks(7)[:5] == _column_masks(5)


def test_orthogonal_array_is_a_fresh_copy():
    array = _orthogonal_array(5)
    array[:] = 9
    assert _orthogonal_array(5).max() == 1


# --------------------------------------------------------------------------
# the remainder rule
# --------------------------------------------------------------------------


def _brute_force_worst(n_repeats):
    """Worst (over remainders) of the best (over subsets) deviations, with
    plain Python loops: independent of the vectorised search."""
    array = _orthogonal_array(n_repeats).tolist()
    n_blocks = len(array)
    pairs = list(combinations(range(n_repeats), 2))
    worst = (0.0, 0.0)
    for n_extra in range(1, n_blocks):
        best = None
        for subset in combinations(range(n_blocks), n_extra):
            size_dev = max(
                abs(sum(array[b][r] == 0 for b in subset) - n_extra / 2)
                for r in range(n_repeats)
            )
            cell_dev = max(
                (
                    abs(
                        sum(array[b][r] == x and array[b][s] == z for b in subset)
                        - n_extra / 4
                    )
                    for r, s in pairs
                    for x in (0, 1)
                    for z in (0, 1)
                ),
                default=0.0,
            )
            if best is None or (size_dev, cell_dev) < best:
                best = (size_dev, cell_dev)
        worst = (max(worst[0], best[0]), max(worst[1], best[1]))
    return worst


@pytest.mark.parametrize("n_repeats", range(1, 8))
def test_remainder_blocks_matches_brute_force(n_repeats):
    assert _brute_force_worst(n_repeats) == PLAIN_BOUNDS[n_repeats]


@pytest.mark.parametrize("n_repeats", [1, 3, 5, 9, 15, 20])
def test_remainder_blocks_are_distinct_sub_blocks(n_repeats):
    n_blocks = _n_sub_blocks(n_repeats)
    for n_extra in range(n_blocks):
        chosen = _remainder_blocks(n_repeats, n_extra)
        assert len(set(chosen)) == n_extra
        assert all(0 <= b < n_blocks for b in chosen)


@pytest.mark.parametrize("n_repeats", [1, 2, 3, 5, 8, 15, 16, 31])
def test_dealing_order_is_a_permutation(n_repeats):
    order = _dealing_order(n_repeats)
    assert sorted(order) == list(range(_n_sub_blocks(n_repeats)))


# --------------------------------------------------------------------------
# structure of the splits
# --------------------------------------------------------------------------


@given(
    n_repeats=st.integers(1, 15),
    n_samples=st.integers(2, 260),
    seed=st.integers(0, 2**32 - 1),
)
def test_block_regularized_mx2_cv_structure(n_repeats, n_samples, seed):
    n_blocks = _n_sub_blocks(n_repeats)
    n_samples = max(n_samples, n_blocks)
    cv = BlockRegularizedMx2CV(n_repeats, random_state=seed)
    splits = all_splits(cv, n_samples)
    codes = check_mx2_structure(splits, n_samples, n_repeats)
    # every record's code is a row of the orthogonal array (its sub-block)
    rows = {tuple(row) for row in _orthogonal_array(n_repeats)}
    assert {tuple(code) for code in codes} <= rows
    # sub-block sizes are q or q + 1
    _, sizes = np.unique(codes, axis=0, return_counts=True)
    assert sizes.min() >= n_samples // n_blocks
    assert sizes.max() <= -(-n_samples // n_blocks)
    size_dev, cell_dev = max_deviations(codes)
    bound_size, bound_cell = PLAIN_BOUNDS[n_repeats]
    assert size_dev <= bound_size and cell_dev <= bound_cell
    if n_samples % n_blocks == 0:
        # exactly n/2 per fold, n/4 per pairwise cell: a strength-2 array
        assert size_dev == 0
        if n_repeats >= 2:
            assert_strength_two(codes)


@pytest.mark.parametrize("n_repeats", [16, 23, 31])
@pytest.mark.parametrize("n_samples", [32, 77, 100, 127])
def test_block_regularized_mx2_cv_many_repeats(n_repeats, n_samples):
    cv = BlockRegularizedMx2CV(n_repeats, random_state=0)
    codes = check_mx2_structure(all_splits(cv, n_samples), n_samples, n_repeats)
    size_dev, cell_dev = max_deviations(codes)
    assert size_dev <= PLAIN_BOUNDS[n_repeats][0]
    assert cell_dev <= PLAIN_BOUNDS[n_repeats][1]
    if n_samples % 32 == 0:
        assert size_dev == 0 and cell_dev == 0


@pytest.mark.parametrize("n_samples", [8, 16, 400])
def test_block_regularized_5x2_cv_reproduces_table_iii(n_samples):
    splits = all_splits(BlockRegularized5x2CV(random_state=1), n_samples)
    codes = check_mx2_structure(splits, n_samples, 5)
    assert sub_block_sets(codes) == TABLE_III_S
    # every two training sets share exactly n/4 records
    for r, s in combinations(range(5), 2):
        shared = np.intersect1d(splits[2 * r][0], splits[2 * s][0])
        assert len(shared) == n_samples // 4


def test_block_regularized_mx2_cv_reproduces_blocked_3x2():
    n_samples = 40
    splits = all_splits(BlockRegularizedMx2CV(3, random_state=2), n_samples)
    codes = check_mx2_structure(splits, n_samples, 3)
    assert sub_block_sets(codes) == BLOCKED_3X2_S
    for r, s in combinations(range(3), 2):
        assert len(np.intersect1d(splits[2 * r][0], splits[2 * s][0])) == 10


@pytest.mark.parametrize("n_samples", [2, 3, 10, 11])
def test_block_regularized_mx2_cv_one_repeat_is_random_two_fold(n_samples):
    splits = all_splits(BlockRegularizedMx2CV(1, random_state=0), n_samples)
    check_mx2_structure(splits, n_samples, 1)
    assert {len(splits[0][0]), len(splits[0][1])} == {
        n_samples // 2,
        n_samples - n_samples // 2,
    }


def test_block_regularized_5x2_cv_equals_mx2_with_five_repeats():
    X = np.zeros((53, 2))
    five = list(BlockRegularized5x2CV(random_state=3).split(X))
    mx2 = list(BlockRegularizedMx2CV(5, random_state=3).split(X))
    for (a_train, a_test), (b_train, b_test) in zip(five, mx2):
        assert_array_equal(a_train, b_train)
        assert_array_equal(a_test, b_test)
    assert BlockRegularized5x2CV().n_repeats == 5
    assert StratifiedBlockRegularized5x2CV().n_repeats == 5


def test_block_regularized_mx2_cv_sub_blocks_are_random(global_random_seed):
    # over many seeds each record lands in the test set of split 0 about half
    # the time (binomial(200, 1/2): 5 sd = 35)
    n_samples = 16
    hits = np.zeros(n_samples)
    for seed in range(200):
        _, test = next(BlockRegularized5x2CV(random_state=seed).split(np.zeros(16)))
        hits[test] += 1
    assert np.all(np.abs(hits - 100) < 35)


# --------------------------------------------------------------------------
# stratified variants
# --------------------------------------------------------------------------


@given(
    n_repeats=st.integers(1, 15),
    class_counts=st.lists(st.integers(1, 70), min_size=1, max_size=4),
    seed=st.integers(0, 2**32 - 1),
)
def test_stratified_block_regularized_mx2_cv_structure(n_repeats, class_counts, seed):
    n_blocks = _n_sub_blocks(n_repeats)
    y = np.repeat(np.arange(len(class_counts)), class_counts)
    if len(y) < n_blocks:
        y = np.concatenate([y, np.zeros(n_blocks - len(y), dtype=int)])
    y = np.random.default_rng(seed).permutation(y)
    n_samples = len(y)
    counts = np.bincount(y)
    cv = StratifiedBlockRegularizedMx2CV(n_repeats, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        splits = list(cv.split(np.zeros((n_samples, 1)), y))
    codes = check_mx2_structure(splits, n_samples, n_repeats)
    bound_size, bound_cell = STRATIFIED_BOUNDS[n_repeats]
    size_dev, cell_dev = max_deviations(codes)
    assert size_dev <= bound_size and cell_dev <= bound_cell
    for label, count in enumerate(counts):
        class_codes = codes[y == label]
        class_size_dev, class_cell_dev = max_deviations(class_codes)
        assert class_size_dev <= bound_size and class_cell_dev <= bound_cell
        if count % n_blocks == 0:
            # proportions exact; overlaps exactly a quarter of the class
            assert class_size_dev == 0
            if n_repeats >= 2:
                assert_strength_two(class_codes)


@pytest.mark.parametrize("cv", STRATIFIED_SPLITTERS, ids=str)
def test_stratified_block_regularized_cv_preserves_proportions(cv):
    # 24, 48 and 72 members: multiples of 8 sub-blocks, so every train and
    # test set holds exactly half of every class
    y = np.repeat([0, 1, 2], [24, 48, 72])
    for train, test in cv.split(np.zeros((len(y), 1)), y):
        assert_array_equal(np.bincount(y[train]), [12, 24, 36])
        assert_array_equal(np.bincount(y[test]), [12, 24, 36])


def test_stratified_block_regularized_cv_string_labels_match_integer_labels():
    rng = np.random.default_rng(0)
    y_int = rng.integers(0, 3, size=101)
    # classes encoded by order of appearance, so relabelling does not matter
    y_str = np.array(["cat", "dog", "emu"])[(y_int + 1) % 3]
    cv = StratifiedBlockRegularized5x2CV(random_state=0)
    X = np.zeros((101, 1))
    for (a_train, a_test), (b_train, b_test) in zip(
        cv.split(X, y_int), cv.split(X, y_str)
    ):
        assert_array_equal(a_train, b_train)
        assert_array_equal(a_test, b_test)


def test_stratified_block_regularized_cv_differs_from_plain_on_skewed_y():
    # plain splits of a 10%-minority class wander; stratified ones do not
    y = np.array([1] * 16 + [0] * 144)
    X = np.zeros((160, 1))
    stratified = StratifiedBlockRegularized5x2CV(random_state=0).split(X, y)
    assert {int(y[test].sum()) for _, test in stratified} == {8}
    plain = BlockRegularized5x2CV(random_state=0).split(X)
    assert len({int(y[test].sum()) for _, test in plain}) > 1


def test_stratified_block_regularized_cv_warns_on_small_class():
    y = np.array([0] * 30 + [1] * 3)
    msg = (
        "The least populated class in y has only 3 members, which is less than "
        "the number of sub-blocks n_sub_blocks=8 (n_repeats=5)."
    )
    with pytest.warns(UserWarning, match=re.escape(msg)):
        splits = list(StratifiedBlockRegularized5x2CV(random_state=0).split(y, y))
    codes = check_mx2_structure(splits, 33, 5)
    # the three minority records still sit in three different sub-blocks
    assert len({tuple(code) for code in codes[y == 1]}) == 3


def test_stratified_block_regularized_cv_needs_y():
    msg = "StratifiedBlockRegularized5x2CV needs the class labels y to stratify on"
    with pytest.raises(ValueError, match=msg):
        StratifiedBlockRegularized5x2CV().split(np.zeros((20, 1)))


def test_stratified_block_regularized_cv_rejects_continuous_y():
    msg = "y must be binary or multiclass; got target type 'continuous'"
    with pytest.raises(ValueError, match=msg):
        StratifiedBlockRegularizedMx2CV().split(
            np.zeros((20, 1)), np.linspace(0, 1, 20)
        )


# --------------------------------------------------------------------------
# randomness
# --------------------------------------------------------------------------


@pytest.mark.parametrize("cv", ALL_SPLITTERS, ids=str)
def test_block_regularized_cv_int_seed_is_deterministic(cv):
    y = np.arange(90) % 3
    first = list(cv.split(np.zeros((90, 1)), y))
    second = list(cv.split(np.zeros((90, 1)), y))
    for (a_train, a_test), (b_train, b_test) in zip(first, second):
        assert_array_equal(a_train, b_train)
        assert_array_equal(a_test, b_test)


@pytest.mark.parametrize("klass", SPLITTER_CLASSES, ids=str)
def test_block_regularized_cv_different_seeds_differ(klass):
    y = np.arange(90) % 3
    X = np.zeros((90, 1))
    tests = {tuple(next(klass(random_state=seed).split(X, y))[1]) for seed in range(5)}
    assert len(tests) == 5


@pytest.mark.parametrize("klass", SPLITTER_CLASSES, ids=str)
def test_block_regularized_cv_random_state_instance(klass):
    # as sklearn's splitters: a shared RandomState moves on between calls,
    # and two generators seeded alike give the same sequence of splits
    y = np.arange(64) % 2
    X = np.zeros((64, 1))
    cv_a = klass(random_state=np.random.RandomState(7))
    cv_b = klass(random_state=np.random.RandomState(7))
    first_a, second_a = (next(cv_a.split(X, y))[1] for _ in range(2))
    first_b, second_b = (next(cv_b.split(X, y))[1] for _ in range(2))
    assert not np.array_equal(first_a, second_a)
    assert_array_equal(first_a, first_b)
    assert_array_equal(second_a, second_b)


# --------------------------------------------------------------------------
# construction, validation, warnings
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cv, expected",
    [
        (BlockRegularizedMx2CV(),
         "BlockRegularizedMx2CV(n_repeats=5, random_state=None)"),
        (BlockRegularizedMx2CV(3, random_state=1),
         "BlockRegularizedMx2CV(n_repeats=3, random_state=1)"),
        (BlockRegularized5x2CV(random_state=2),
         "BlockRegularized5x2CV(random_state=2)"),
        (StratifiedBlockRegularizedMx2CV(7),
         "StratifiedBlockRegularizedMx2CV(n_repeats=7, random_state=None)"),
        (StratifiedBlockRegularized5x2CV(),
         "StratifiedBlockRegularized5x2CV(random_state=None)"),
    ],
    ids=str,
)  # fmt: skip
def test_block_regularized_cv_repr(cv, expected):
    assert repr(cv) == expected


@pytest.mark.parametrize("klass", SPLITTER_CLASSES, ids=str)
def test_block_regularized_cv_is_one_family(klass):
    cv = klass()
    assert isinstance(cv, BaseCrossValidator)
    assert isinstance(cv, BlockRegularizedMx2CV)
    assert cv.get_n_splits() == 10
    assert cv.n_sub_blocks == 8


@pytest.mark.parametrize("n_repeats", [1, 2, 3, 5, 8, 15, np.int64(4)])
def test_block_regularized_mx2_cv_get_n_splits(n_repeats):
    cv = BlockRegularizedMx2CV(n_repeats)
    assert cv.n_repeats is n_repeats  # stored unchanged
    assert cv.get_n_splits() == 2 * n_repeats
    assert (
        cv.get_n_splits(np.zeros((50, 1)), np.zeros(50), np.zeros(50)) == 2 * n_repeats
    )
    assert len(list(cv.split(np.zeros((50, 1))))) == 2 * n_repeats


@pytest.mark.parametrize(
    "klass", [BlockRegularizedMx2CV, StratifiedBlockRegularizedMx2CV]
)
@pytest.mark.parametrize(
    "n_repeats, msg",
    [
        (0, "n_repeats must be an integer >= 1; got 0."),
        (-3, "n_repeats must be an integer >= 1; got -3."),
        (2.5, "n_repeats must be an integer >= 1; got 2.5 of type float."),
        (5.0, "n_repeats must be an integer >= 1; got 5.0 of type float."),
        (True, "n_repeats must be an integer >= 1; got True of type bool."),
        ("5", "n_repeats must be an integer >= 1; got '5' of type str."),
        (None, "n_repeats must be an integer >= 1; got None of type NoneType."),
    ],
)  # fmt: skip
def test_block_regularized_mx2_cv_invalid_n_repeats(klass, n_repeats, msg):
    with pytest.raises(ValueError, match=re.escape(msg)):
        klass(n_repeats)


@pytest.mark.parametrize(
    "cv, n_samples, msg",
    [
        (BlockRegularized5x2CV(), 5,
         "BlockRegularized5x2CV with n_repeats=5 needs at least 8 samples for 8 "
         "sub-blocks; got n_samples=5."),
        (BlockRegularizedMx2CV(3), 3,
         "BlockRegularizedMx2CV with n_repeats=3 needs at least 4 samples for 4 "
         "sub-blocks; got n_samples=3."),
        (BlockRegularizedMx2CV(1), 1,
         "BlockRegularizedMx2CV with n_repeats=1 needs at least 2 samples for 2 "
         "sub-blocks; got n_samples=1."),
        (StratifiedBlockRegularizedMx2CV(9), 15,
         "StratifiedBlockRegularizedMx2CV with n_repeats=9 needs at least 16 "
         "samples for 16 sub-blocks; got n_samples=15."),
    ],
    ids=str,
)  # fmt: skip
def test_block_regularized_cv_too_few_samples(cv, n_samples, msg):
    y = np.arange(n_samples) % 2
    with pytest.raises(ValueError, match=re.escape(msg)):
        cv.split(np.zeros((n_samples, 1)), y)


@pytest.mark.parametrize("cv", ALL_SPLITTERS, ids=str)
def test_block_regularized_cv_warns_that_groups_are_ignored(cv):
    y = np.arange(40) % 2
    X = np.zeros((40, 1))
    msg = f"The groups parameter is ignored by {cv.__class__.__name__}"
    with pytest.warns(UserWarning, match=msg):
        with_groups = list(cv.split(X, y, groups=np.arange(40) % 4))
    without = list(cv.split(X, y))
    for (a_train, _), (b_train, _) in zip(with_groups, without):
        assert_array_equal(a_train, b_train)


@pytest.mark.parametrize("cv", ALL_SPLITTERS, ids=str)
def test_block_regularized_cv_no_warning_without_groups(cv):
    y = np.arange(40) % 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        list(cv.split(np.zeros((40, 1)), y))


def test_block_regularized_cv_inconsistent_lengths():
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        BlockRegularized5x2CV().split(np.zeros((20, 1)), np.zeros(19))


# --------------------------------------------------------------------------
# scikit-learn integration
# --------------------------------------------------------------------------


@pytest.mark.parametrize("cv", ALL_SPLITTERS, ids=str)
def test_block_regularized_cv_pickle_round_trip(cv):
    clone = pickle.loads(pickle.dumps(cv))
    assert repr(clone) == repr(cv)
    y = np.arange(30) % 2
    for (a_train, _), (b_train, _) in zip(
        cv.split(np.zeros((30, 1)), y), clone.split(np.zeros((30, 1)), y)
    ):
        assert_array_equal(a_train, b_train)


@pytest.mark.parametrize("cv", ALL_SPLITTERS, ids=str)
def test_block_regularized_cv_check_cv_passes_through(cv):
    assert check_cv(cv, classifier=True) is cv


@pytest.mark.parametrize("cv", ALL_SPLITTERS, ids=str)
def test_block_regularized_cv_cross_validate(cv):
    X, y = make_classification(n_samples=80, random_state=0)
    result = cross_validate(DecisionTreeClassifier(random_state=0), X, y, cv=cv)
    n_splits = cv.get_n_splits()
    assert result["test_score"].shape == (n_splits,)
    # the same scores as fitting by hand on the splits
    by_hand = [
        DecisionTreeClassifier(random_state=0)
        .fit(X[train], y[train])
        .score(X[test], y[test])
        for train, test in cv.split(X, y)
    ]
    np.testing.assert_allclose(result["test_score"], by_hand)


def test_block_regularized_cv_cross_val_score_in_pipeline():
    X, y = load_iris(return_X_y=True)
    pipe = make_pipeline(StandardScaler(), LogisticRegression())
    cv = StratifiedBlockRegularized5x2CV(random_state=0)
    scores = cross_val_score(pipe, X, y, cv=cv)
    assert scores.shape == (10,)
    assert np.all(scores > 0.8)


def test_block_regularized_cv_grid_search():
    X, y = make_classification(n_samples=96, random_state=0)
    cv = BlockRegularized5x2CV(random_state=0)
    search = GridSearchCV(
        DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3]}, cv=cv
    ).fit(X, y)
    assert search.n_splits_ == 10
    assert "split9_test_score" in search.cv_results_
    assert "split10_test_score" not in search.cv_results_
    means = search.cv_results_["mean_test_score"]
    assert search.best_index_ == int(np.argmax(means))
    assert search.best_params_ == {"max_depth": [1, 2, 3][search.best_index_]}
    # the per-split scores are those of the splitter's splits
    depth = search.best_params_["max_depth"]
    train, test = list(cv.split(X, y))[9]
    expected = (
        DecisionTreeClassifier(max_depth=depth, random_state=0)
        .fit(X[train], y[train])
        .score(X[test], y[test])
    )
    assert search.cv_results_["split9_test_score"][search.best_index_] == expected


def test_stratified_block_regularized_cv_needs_y_passed_explicitly_none():
    msg = "needs the class labels y to stratify on; got y=None."
    with pytest.raises(ValueError, match=msg):
        StratifiedBlockRegularizedMx2CV(3).split(np.zeros((20, 1)), None)


@pytest.mark.parametrize("cv", ALL_SPLITTERS, ids=str)
def test_block_regularized_cv_accepts_lists(cv):
    X = [[i] for i in range(24)]
    y = [["a", "b"][i % 2] for i in range(24)]
    splits = list(cv.split(X, y))
    codes = check_mx2_structure(splits, 24, cv.n_repeats)
    # 24 is a multiple of 4 and 8: exact halves and quarters
    assert max_deviations(codes) == (0, 0)
