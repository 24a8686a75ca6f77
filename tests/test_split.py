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
from sklearn.base import clone
from sklearn.datasets import load_iris, make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    BaseCrossValidator,
    GridSearchCV,
    check_cv,
    cross_val_predict,
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
# n mod 2**k (and, stratified, every class count); the tables in the
# docstrings of BlockRegularizedMx2CV and StratifiedBlockRegularizedMx2CV.
# The rows for 16 to 31 repetitions are one bound for the whole range.
# test_remainder_blocks_matches_brute_force recomputes the first up to 7
# repetitions from scratch; the *_bound_is_attained tests sweep every
# remainder and class count.
PLAIN_BOUNDS = {1: (0.5, 0.0), 2: (0.5, 0.75), 3: (1.0, 0.75), 4: (1.0, 1.25),
                5: (1.0, 1.25), 6: (2.0, 1.5), 7: (2.0, 1.5), 8: (1.5, 1.75),
                9: (1.5, 1.75), 10: (1.5, 1.75), 11: (1.5, 2.0), 12: (1.5, 2.25),
                13: (1.5, 2.25), 14: (1.5, 2.25), 15: (2.0, 2.25)}  # fmt: skip
PLAIN_BOUNDS.update({m: (3.0, 5.0) for m in range(16, 32)})
STRATIFIED_BOUNDS = {1: (0.5, 0.0), 2: (1.0, 0.75), 3: (1.0, 0.75), 4: (1.0, 1.25),
                     5: (1.0, 1.5), 6: (2.0, 1.5), 7: (2.0, 1.5)}  # fmt: skip
STRATIFIED_BOUNDS.update({m: (2.0, 2.75) for m in range(8, 14)})
STRATIFIED_BOUNDS.update({14: (2.5, 2.75), 15: (2.5, 2.75)})
STRATIFIED_BOUNDS.update({m: (5.0, 5.5) for m in range(16, 32)})
# 6 and 7 repetitions place the extra records as 5 do (so that the 5×2 BCV
# is their prefix); their own best choices would give these bounds.
OWN_LAYOUT_BOUNDS = {6: (1.0, 1.5), 7: (1.5, 1.5)}
# The rows of those tables: each row's bound is attained by at least one
# n_repeats of the row (up to 15 plain repetitions, by each).
PLAIN_ROWS = [range(m, m + 1) for m in range(1, 16)] + [range(16, 32)]
STRATIFIED_ROWS = [range(1, 2), range(2, 4), range(4, 5), range(5, 6),
                   range(6, 8), range(8, 14), range(14, 16), range(16, 32)]  # fmt: skip

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


def membership_codes(splits, n_samples, n_repeats):
    """codes[i, r] = 1 when record i is in T_r (the test set of split 2r);
    no structure checks, for sweeps over many splits."""
    codes = np.zeros((n_samples, n_repeats), dtype=int)
    for r in range(n_repeats):
        codes[splits[2 * r][1], r] = 1
    return codes


def group_deviations(codes, starts):
    """Per group of consecutive records (groups begin at ``starts``): the
    largest |size - n/2| and |cell - n/4| over repetitions and pairs of
    repetitions, n the group's size and the cells |S_r & S_s|, |S_r & T_s|,
    |T_r & S_s|, |T_r & T_s| counted from the records' codes."""
    n_samples, n_repeats = codes.shape
    n_group = np.diff(np.append(starts, n_samples))[:, None]
    in_s = (codes == 0).astype(np.int8)
    sizes = np.add.reduceat(in_s, starts, axis=0, dtype=np.int64)
    size_dev = np.abs(sizes - n_group / 2).max(axis=1)
    if n_repeats < 2:
        return size_dev, np.zeros_like(size_dev)
    r, s = np.triu_indices(n_repeats, 1)
    s_and_s = np.add.reduceat(in_s[:, r] & in_s[:, s], starts, axis=0, dtype=np.int64)
    s_and_t = sizes[:, r] - s_and_s
    t_and_s = sizes[:, s] - s_and_s
    t_and_t = n_group - s_and_s - s_and_t - t_and_s
    cells = np.stack([s_and_s, s_and_t, t_and_s, t_and_t], axis=-1)
    cell_dev = np.abs(cells - n_group[:, :, None] / 4).max(axis=(1, 2))
    return size_dev, cell_dev


def max_deviations(codes):
    """Largest |size - n/2| and |cell - n/4| over all the records."""
    size_dev, cell_dev = group_deviations(codes, [0])
    return float(size_dev[0]), float(cell_dev[0])


def assert_strength_two(codes):
    """Every pair of columns shows each level pair equally often."""
    n_rows, n_cols = codes.shape
    for r, s in combinations(range(n_cols), 2):
        for a in (0, 1):
            for b in (0, 1):
                assert cell_counts(codes, a, b, r, s) * 4 == n_rows


def assert_sub_blocks_follow(codes, train_sets):
    """The records fall into equal sub-blocks D_1, D_2, ... (the records that
    share a membership code) placed as the paper's table says: D_i is in the
    training set S_j exactly when i is in train_sets[j]. Read off the splits
    alone, whatever the splitter numbers its sub-blocks."""
    n_blocks = 2 * len(train_sets[0])
    expected = {
        tuple(0 if i in train else 1 for train in train_sets)
        for i in range(1, n_blocks + 1)
    }
    found, sizes = np.unique(codes, axis=0, return_counts=True)
    assert {tuple(code) for code in found.tolist()} == expected
    assert_array_equal(sizes, len(codes) // n_blocks)


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


def _brute_force_best(n_repeats):
    """Best (over subsets of sub-blocks) deviations (size, cell) for every
    remainder, with plain Python loops: independent of the vectorised
    search."""
    array = _orthogonal_array(n_repeats).tolist()
    n_blocks = len(array)
    pairs = list(combinations(range(n_repeats), 2))
    best_by_extra = [(0.0, 0.0)]
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
        best_by_extra.append(best)
    return best_by_extra


@pytest.mark.parametrize("n_repeats", range(1, 8))
def test_remainder_blocks_matches_brute_force(n_repeats):
    # for every remainder, the splits are as balanced as the best choice of
    # sub-blocks; the worst remainder gives the documented bound
    best_by_extra = _brute_force_best(n_repeats)
    worst = tuple(max(best[i] for best in best_by_extra) for i in (0, 1))
    assert worst == OWN_LAYOUT_BOUNDS.get(n_repeats, PLAIN_BOUNDS[n_repeats])
    n_blocks = _n_sub_blocks(n_repeats)
    cv = BlockRegularizedMx2CV(n_repeats, random_state=0)
    for n_extra, best in enumerate(best_by_extra):
        n_samples = 3 * n_blocks + n_extra
        codes = membership_codes(all_splits(cv, n_samples), n_samples, n_repeats)
        if n_repeats in OWN_LAYOUT_BOUNDS:
            # the layout of 5: the first five repetitions as balanced as
            # they can be, the overlaps as good as with the own best choice,
            # the sizes within the (larger) documented bound
            assert max_deviations(codes[:, :5]) == _brute_force_best(5)[n_extra]
            size_dev, cell_dev = max_deviations(codes)
            assert cell_dev == best[1] and size_dev <= PLAIN_BOUNDS[n_repeats][0]
        else:
            assert max_deviations(codes) == best


@pytest.mark.parametrize("n_repeats_range", PLAIN_ROWS, ids=str)
def test_block_regularized_mx2_cv_bound_is_attained(n_repeats_range):
    # every remainder n mod 2**k: the documented bound holds and is the worst
    # case (deviations do not depend on n // 2**k)
    worst = (0.0, 0.0)
    for n_repeats in n_repeats_range:
        n_blocks = _n_sub_blocks(n_repeats)
        cv = BlockRegularizedMx2CV(n_repeats, random_state=n_repeats)
        for n_extra in range(n_blocks):
            n_samples = n_blocks + n_extra
            codes = membership_codes(all_splits(cv, n_samples), n_samples, n_repeats)
            size_dev, cell_dev = max_deviations(codes)
            assert size_dev <= PLAIN_BOUNDS[n_repeats][0]
            assert cell_dev <= PLAIN_BOUNDS[n_repeats][1]
            worst = (max(worst[0], size_dev), max(worst[1], cell_dev))
    assert worst == PLAIN_BOUNDS[n_repeats_range[-1]]


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


@pytest.mark.parametrize("n_samples", [16, 48, 400])
@pytest.mark.parametrize(
    "cv", [BlockRegularized5x2CV(random_state=1),
           StratifiedBlockRegularized5x2CV(random_state=1)], ids=str
)  # fmt: skip
def test_block_regularized_5x2_cv_reproduces_table_iii(cv, n_samples):
    y = np.arange(n_samples) % 2  # class counts multiples of 8
    splits = all_splits(cv, n_samples, y)
    codes = check_mx2_structure(splits, n_samples, 5)
    assert_sub_blocks_follow(codes, TABLE_III_S)
    # every two training sets share exactly n/4 records
    for r, s in combinations(range(5), 2):
        shared = np.intersect1d(splits[2 * r][0], splits[2 * s][0])
        assert len(shared) == n_samples // 4


def test_block_regularized_mx2_cv_reproduces_blocked_3x2():
    n_samples = 40
    splits = all_splits(BlockRegularizedMx2CV(3, random_state=2), n_samples)
    codes = check_mx2_structure(splits, n_samples, 3)
    assert_sub_blocks_follow(codes, BLOCKED_3X2_S)
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
    for seed in range(global_random_seed, global_random_seed + 200):
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


def _class_counts_on_every_run(n_blocks):
    """Class sizes which, dealt one class after another, give some class
    every run (start, length) of the dealing cycle: a filler class moves the
    start to the run's start, the next class covers the run. (A class of
    q * 2**k + length records adds q whole rounds, which are balanced, to
    its run; the hypothesis test above covers those.)"""
    counts, position = [], 0
    for start in range(n_blocks):
        for length in range(1, n_blocks):
            counts.append((start - position) % n_blocks)
            counts.append(length)
            position = (start + length) % n_blocks
    return [count for count in counts if count > 0]


@pytest.mark.parametrize("n_repeats_range", STRATIFIED_ROWS, ids=str)
def test_stratified_block_regularized_mx2_cv_bound_is_attained(n_repeats_range):
    # every class count, hence every run of extra records: the documented
    # bound holds for each class and for all records, and is the worst case
    worst = (0.0, 0.0)
    for n_repeats in n_repeats_range:
        counts = _class_counts_on_every_run(_n_sub_blocks(n_repeats))
        y = np.repeat(np.arange(len(counts)), counts)
        cv = StratifiedBlockRegularizedMx2CV(n_repeats, random_state=n_repeats)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # classes < 2**k
            splits = all_splits(cv, len(y), y)
        codes = membership_codes(splits, len(y), n_repeats)
        bound = STRATIFIED_BOUNDS[n_repeats]
        size_dev, cell_dev = max_deviations(codes)
        assert size_dev <= bound[0] and cell_dev <= bound[1]
        # the classes are consecutive runs of y
        size_dev, cell_dev = group_deviations(codes, np.cumsum([0] + counts[:-1]))
        assert size_dev.max() <= bound[0] and cell_dev.max() <= bound[1]
        worst = (max(worst[0], size_dev.max()), max(worst[1], cell_dev.max()))
    assert worst == STRATIFIED_BOUNDS[n_repeats_range[-1]]


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


@pytest.mark.parametrize(
    "y, target_type",
    [
        (np.linspace(0, 1, 20), "continuous"),
        (np.arange(40).reshape(20, 2) % 2, "multilabel-indicator"),
        (np.arange(60).reshape(20, 3) % 3, "multiclass-multioutput"),
    ],
    ids=str,
)
def test_stratified_block_regularized_cv_rejects_non_class_y(y, target_type):
    msg = (
        "StratifiedBlockRegularizedMx2CV stratifies class labels: y must be "
        f"binary or multiclass; got target type '{target_type}'."
    )
    with pytest.raises(ValueError, match=re.escape(msg)):
        StratifiedBlockRegularizedMx2CV().split(np.zeros((20, 1)), y)


# --------------------------------------------------------------------------
# randomness
# --------------------------------------------------------------------------


@given(
    klass=st.sampled_from([BlockRegularizedMx2CV, StratifiedBlockRegularizedMx2CV]),
    n_repeats=st.integers(1, 15),
    n_samples=st.integers(40, 200),
    seeds=st.lists(st.integers(0, 2**32 - 1), min_size=2, max_size=2, unique=True),
)
def test_block_regularized_cv_seed_properties(klass, n_repeats, n_samples, seeds):
    # the same int seed gives the same splits on every call; two different
    # seeds give different splits (at n >= 40 the chance that two seeds
    # draw the same allocation is below 1e-9: C(14, 7) * C(13, 6)**2 ways
    # for a stratified two-fold split of 14 + 13 + 13 records)
    X = np.zeros((n_samples, 1))
    y = np.arange(n_samples) % 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # small classes
        first, again, other = (
            list(klass(n_repeats, random_state=seed).split(X, y))
            for seed in (seeds[0], seeds[0], seeds[1])
        )
    for (a_train, a_test), (b_train, b_test) in zip(first, again):
        assert_array_equal(a_train, b_train)
        assert_array_equal(a_test, b_test)
    assert any(
        not np.array_equal(a_test, b_test)
        for (_, a_test), (_, b_test) in zip(first, other)
    )


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


def test_block_regularized_cv_cross_val_predict_needs_one_repeat():
    # cross_val_predict needs test sets that partition the data: a single
    # repetition does, more repetitions test every record m times
    X, y = make_classification(n_samples=60, random_state=0)
    tree = DecisionTreeClassifier(random_state=0)
    cv = BlockRegularizedMx2CV(1, random_state=0)
    predicted = cross_val_predict(tree, X, y, cv=cv)
    for train, test in cv.split(X):
        expected = clone(tree).fit(X[train], y[train]).predict(X[test])
        assert_array_equal(predicted[test], expected)
    with pytest.raises(ValueError, match="only works for partitions"):
        cross_val_predict(tree, X, y, cv=BlockRegularized5x2CV(random_state=0))


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


def test_same_seed_as_a_generator_unshuffles_its_records():
    # Documented trap (Notes): make_moons shuffles with the permutation the
    # splitter draws from the same seed, so the first repetition splits the
    # classes apart; another seed does not.
    from sklearn.datasets import make_moons

    X, y = make_moons(n_samples=400, random_state=0)
    train = next(iter(BlockRegularized5x2CV(random_state=0).split(X)))[0]
    assert np.unique(y[train]).size == 1
    train = next(iter(BlockRegularized5x2CV(random_state=1).split(X)))[0]
    assert np.unique(y[train]).size == 2
