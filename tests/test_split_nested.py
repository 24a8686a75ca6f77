"""Nested block-regularized m×2 designs (``max_repeats``): the design of m
repetitions laid out for M is the prefix of the design of M repetitions, and
for M <= 7 the first five repetitions are the paper's 5×2 BCV."""

import inspect
import pickle
import re
import warnings
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_array_equal
from sklearn.model_selection import check_cv, cross_val_score, cross_validate
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import (
    BlockRegularized5x2CV,
    BlockRegularizedMx2CV,
    StratifiedBlockRegularized5x2CV,
    StratifiedBlockRegularizedMx2CV,
)
from sklearn_bcv._split import _layout_repeats, _n_sub_blocks

MX2_CLASSES = [BlockRegularizedMx2CV, StratifiedBlockRegularizedMx2CV]
FIVE_BY_TWO = {
    BlockRegularizedMx2CV: BlockRegularized5x2CV,
    StratifiedBlockRegularizedMx2CV: StratifiedBlockRegularized5x2CV,
}
MAX_M = 20

# Worst deviations (records) of a training-set size from n/2 and of a
# pairwise cell |S_r & S_s|, |S_r & T_s|, ... from n/4 when n is not a
# multiple of the number of sub-blocks: the tables of the docstrings of
# BlockRegularizedMx2CV and StratifiedBlockRegularizedMx2CV (row M).
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


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------


def splits_of(cv, n_samples, y=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # classes < sub-blocks
        return list(cv.split(np.zeros((n_samples, 1)), y))


def assert_same_splits(first, second):
    assert len(first) == len(second)
    for (a_train, a_test), (b_train, b_test) in zip(first, second):
        assert_array_equal(a_train, b_train)
        assert_array_equal(a_test, b_test)


def deviations(splits, n_repeats, records):
    """Largest |size - n/2| and |cell - n/4| over the repetitions (and pairs
    of them) of the training sets S_r (split 2r) restricted to ``records``."""
    n_samples = len(records)
    in_s = np.zeros((len(records), n_repeats), dtype=bool)
    where = np.full(records.max() + 1 if len(records) else 0, -1)
    where[records] = np.arange(n_samples)
    for r in range(n_repeats):
        train = splits[2 * r][0]
        in_s[where[train[np.isin(train, records)]], r] = True
    size_dev = np.abs(in_s.sum(axis=0) - n_samples / 2).max()
    cell_dev = 0.0
    for r, s in combinations(range(n_repeats), 2):
        for a in (True, False):
            for b in (True, False):
                cell = np.sum((in_s[:, r] == a) & (in_s[:, s] == b))
                cell_dev = max(cell_dev, abs(cell - n_samples / 4))
    return float(size_dev), float(cell_dev)


@st.composite
def nested_designs(draw):
    """(m, M, n_samples, seed): m <= M <= 20, n_samples at least the number
    of sub-blocks of M, often a multiple of it (or of 8 or 16 only)."""
    max_repeats = draw(st.integers(1, MAX_M))
    n_repeats = draw(st.integers(1, max_repeats))
    n_blocks = _n_sub_blocks(max_repeats)
    quotient = draw(st.integers(1, max(1, 320 // n_blocks)))
    extra = draw(st.sampled_from([0, 0, 8, 16]) | st.integers(0, n_blocks - 1))
    n_samples = quotient * n_blocks + extra % n_blocks
    seed = draw(st.integers(0, 2**32 - 1))
    return n_repeats, max_repeats, n_samples, seed


def random_labels(seed, n_samples):
    """1 to 4 classes in random order, each of at least one record."""
    rng = np.random.default_rng(seed)
    n_classes = int(rng.integers(1, min(4, n_samples) + 1))
    y = np.concatenate(
        [np.arange(n_classes), rng.integers(0, n_classes, n_samples - n_classes)]
    )
    return rng.permutation(y)


# --------------------------------------------------------------------------
# nesting
# --------------------------------------------------------------------------


@given(design=nested_designs())
def test_design_laid_out_for_max_repeats_is_a_prefix(design):
    n_repeats, max_repeats, n_samples, seed = design
    full = splits_of(BlockRegularizedMx2CV(max_repeats, random_state=seed), n_samples)
    cv = BlockRegularizedMx2CV(n_repeats, max_repeats=max_repeats, random_state=seed)
    nested = splits_of(cv, n_samples)
    assert len(nested) == cv.get_n_splits() == 2 * n_repeats
    assert_same_splits(nested, full[: 2 * n_repeats])
    # max_repeats=M on the M-design is the M-design
    same = BlockRegularizedMx2CV(
        max_repeats, max_repeats=max_repeats, random_state=seed
    )
    assert_same_splits(splits_of(same, n_samples), full)


@given(design=nested_designs())
def test_stratified_design_laid_out_for_max_repeats_is_a_prefix(design):
    n_repeats, max_repeats, n_samples, seed = design
    y = random_labels(seed, n_samples)
    full = splits_of(
        StratifiedBlockRegularizedMx2CV(max_repeats, random_state=seed), n_samples, y
    )
    cv = StratifiedBlockRegularizedMx2CV(
        n_repeats, max_repeats=max_repeats, random_state=seed
    )
    assert_same_splits(splits_of(cv, n_samples, y), full[: 2 * n_repeats])


@given(design=nested_designs())
def test_nested_design_keeps_the_regularized_overlaps(design):
    # sizes n/2 and overlaps n/4 exactly when the sub-blocks are equal,
    # within the bounds of max_repeats's row otherwise
    n_repeats, max_repeats, n_samples, seed = design
    n_repeats = max(n_repeats, min(2, max_repeats))
    cv = BlockRegularizedMx2CV(n_repeats, max_repeats=max_repeats, random_state=seed)
    splits = splits_of(cv, n_samples)
    size_dev, cell_dev = deviations(splits, n_repeats, np.arange(n_samples))
    if n_samples % cv.n_sub_blocks == 0:
        assert size_dev == 0 and cell_dev == 0
        for r, s in combinations(range(n_repeats), 2):
            shared = np.intersect1d(splits[2 * r][0], splits[2 * s][0])
            assert 4 * len(shared) == n_samples
    else:
        bound_size, bound_cell = PLAIN_BOUNDS[max_repeats]
        assert size_dev <= bound_size and cell_dev <= bound_cell


@given(design=nested_designs())
def test_nested_stratified_design_keeps_the_regularized_overlaps(design):
    n_repeats, max_repeats, n_samples, seed = design
    n_blocks = _n_sub_blocks(max_repeats)
    y = random_labels(seed, n_samples)
    if seed % 2:
        # every class count a multiple of the number of sub-blocks
        y = np.repeat(y[: max(1, n_samples // n_blocks)], n_blocks)
        n_samples = len(y)
    cv = StratifiedBlockRegularizedMx2CV(
        n_repeats, max_repeats=max_repeats, random_state=seed
    )
    splits = splits_of(cv, n_samples, y)
    bound_size, bound_cell = STRATIFIED_BOUNDS[max_repeats]
    for label in np.unique(y):
        records = np.flatnonzero(y == label)
        size_dev, cell_dev = deviations(splits, n_repeats, records)
        if len(records) % n_blocks == 0:
            assert size_dev == 0 and cell_dev == 0
        else:
            assert size_dev <= bound_size and cell_dev <= bound_cell
    size_dev, cell_dev = deviations(splits, n_repeats, np.arange(n_samples))
    assert size_dev <= bound_size and cell_dev <= bound_cell


# --------------------------------------------------------------------------
# the 5×2 BCV is the prefix of 6×2 and 7×2
# --------------------------------------------------------------------------


@pytest.mark.parametrize("klass", MX2_CLASSES, ids=lambda k: k.__name__)
@pytest.mark.parametrize("max_repeats", [6, 7])
def test_5x2_bcv_is_the_prefix_of_6x2_and_7x2(klass, max_repeats):
    # every remainder n mod 8 (and mod 16) several times, several seeds
    rng = np.random.default_rng(max_repeats)
    for n_samples in range(8, 60):
        y = rng.integers(0, 3, n_samples)
        seed = int(rng.integers(2**32))
        five = splits_of(FIVE_BY_TWO[klass](random_state=seed), n_samples, y)
        longer = splits_of(klass(max_repeats, random_state=seed), n_samples, y)
        assert len(longer) == 2 * max_repeats
        assert_same_splits(five, longer[:10])
        # and the five repetitions laid out for 6 or 7 are the 5×2 BCV
        nested = klass(5, max_repeats=max_repeats, random_state=seed)
        assert_same_splits(splits_of(nested, n_samples, y), five)


@given(
    klass=st.sampled_from(MX2_CLASSES),
    n_repeats=st.integers(1, 7),
    n_samples=st.integers(8, 400),
    seed=st.integers(0, 2**32 - 1),
)
def test_designs_up_to_seven_repetitions_start_with_the_5x2_bcv(
    klass, n_repeats, n_samples, seed
):
    y = random_labels(seed, n_samples)
    five = splits_of(FIVE_BY_TWO[klass](random_state=seed), n_samples, y)
    seven = splits_of(klass(7, random_state=seed), n_samples, y)
    assert_same_splits(five, seven[:10])
    nested = splits_of(klass(n_repeats, max_repeats=7, random_state=seed), n_samples, y)
    assert_same_splits(nested, seven[: 2 * n_repeats])
    if n_repeats >= 5:
        own = splits_of(klass(n_repeats, random_state=seed), n_samples, y)
        assert_same_splits(own[:10], five)


def test_layout_rule():
    # 6 and 7 repetitions take the layout of 5; every other number its own
    assert [_layout_repeats(m) for m in range(1, 10)] == [1, 2, 3, 4, 5, 5, 5, 8, 9]
    assert _layout_repeats(1000) == 1000


# --------------------------------------------------------------------------
# the parameter
# --------------------------------------------------------------------------


@pytest.mark.parametrize("klass", MX2_CLASSES, ids=lambda k: k.__name__)
@pytest.mark.parametrize("max_repeats", [None, 5, 9, np.int64(16)])
def test_max_repeats_is_stored_unchanged(klass, max_repeats):
    cv = klass(5, max_repeats=max_repeats)
    assert cv.max_repeats is max_repeats
    assert cv.get_n_splits() == 10
    expected = _n_sub_blocks(5 if max_repeats is None else max_repeats)
    assert cv.n_sub_blocks == expected
    assert pickle.loads(pickle.dumps(cv)).max_repeats == max_repeats
    assert check_cv(cv) is cv


@pytest.mark.parametrize("klass", MX2_CLASSES, ids=lambda k: k.__name__)
def test_max_repeats_is_keyword_only_after_n_repeats(klass):
    parameters = inspect.signature(klass).parameters
    assert list(parameters) == ["n_repeats", "max_repeats", "random_state"]
    assert parameters["max_repeats"].kind is inspect.Parameter.KEYWORD_ONLY
    assert parameters["max_repeats"].default is None
    with pytest.raises(TypeError):
        klass(3, 7)


@pytest.mark.parametrize("klass", list(FIVE_BY_TWO.values()), ids=lambda k: k.__name__)
def test_5x2_classes_keep_their_signature(klass):
    assert list(inspect.signature(klass).parameters) == ["random_state"]
    cv = klass(random_state=3)
    assert cv.max_repeats is None and cv.n_sub_blocks == 8
    assert repr(cv) == f"{klass.__name__}(random_state=3)"
    with pytest.raises(TypeError):
        klass(max_repeats=7)


@pytest.mark.parametrize(
    "cv, expected",
    [
        (BlockRegularizedMx2CV(3, max_repeats=7, random_state=1),
         "BlockRegularizedMx2CV(max_repeats=7, n_repeats=3, random_state=1)"),
        (StratifiedBlockRegularizedMx2CV(max_repeats=5),
         "StratifiedBlockRegularizedMx2CV(max_repeats=5, n_repeats=5, "
         "random_state=None)"),
        # left out at its default, so that reprs printed before stay as they were
        (BlockRegularizedMx2CV(3, random_state=1),
         "BlockRegularizedMx2CV(n_repeats=3, random_state=1)"),
        (StratifiedBlockRegularizedMx2CV(7),
         "StratifiedBlockRegularizedMx2CV(n_repeats=7, random_state=None)"),
    ],
    ids=str,
)  # fmt: skip
def test_repr_shows_max_repeats(cv, expected):
    assert repr(cv) == expected


@pytest.mark.parametrize("klass", MX2_CLASSES, ids=lambda k: k.__name__)
@pytest.mark.parametrize(
    "n_repeats, max_repeats, msg",
    [
        (5, 3, "max_repeats must be an integer >= n_repeats=5; got 3."),
        (5, 4, "max_repeats must be an integer >= n_repeats=5; got 4."),
        (2, 1, "max_repeats must be an integer >= n_repeats=2; got 1."),
        (5, -7, "max_repeats must be an integer >= n_repeats=5; got -7."),
        (5, 7.0, "max_repeats must be an integer >= n_repeats=5; got 7.0 of type "
                 "float."),
        (5, 2.5, "max_repeats must be an integer >= n_repeats=5; got 2.5 of type "
                 "float."),
        (5, True, "max_repeats must be an integer >= n_repeats=5; got True of type "
                  "bool."),
        (1, True, "max_repeats must be an integer >= n_repeats=1; got True of type "
                  "bool."),
        (5, False, "max_repeats must be an integer >= n_repeats=5; got False of "
                   "type bool."),
        (5, "7", "max_repeats must be an integer >= n_repeats=5; got '7' of type "
                 "str."),
    ],
)  # fmt: skip
def test_invalid_max_repeats(klass, n_repeats, max_repeats, msg):
    with pytest.raises(ValueError, match="^" + re.escape(msg) + "$"):
        klass(n_repeats, max_repeats=max_repeats)
    # set after construction: refused when splitting too
    cv = klass(n_repeats)
    cv.max_repeats = max_repeats
    y = np.arange(64) % 2
    with pytest.raises(ValueError, match="^" + re.escape(msg) + "$"):
        next(cv.split(np.zeros((64, 1)), y))
    with pytest.raises(ValueError, match="^" + re.escape(msg) + "$"):
        cv.get_n_splits()


@pytest.mark.parametrize("klass", MX2_CLASSES, ids=lambda k: k.__name__)
def test_n_repeats_is_checked_before_max_repeats(klass):
    with pytest.raises(ValueError, match=r"^n_repeats must be an integer >= 1"):
        klass(0, max_repeats=3)


@pytest.mark.parametrize("klass", MX2_CLASSES, ids=lambda k: k.__name__)
def test_too_few_samples_for_max_repeats(klass):
    # the sub-blocks of max_repeats: 16 for 9 repetitions, not 4 for 3
    cv = klass(3, max_repeats=9)
    msg = (
        f"X has too few samples: {klass.__name__} with n_repeats=3, "
        "max_repeats=9 needs at least 16 samples for 16 sub-blocks; got "
        "n_samples=15."
    )
    with pytest.raises(ValueError, match="^" + re.escape(msg) + "$"):
        next(cv.split(np.zeros((15, 1)), np.arange(15) % 2))
    assert len(splits_of(cv, 16, np.arange(16) % 2)) == 6


def test_small_class_warning_counts_the_sub_blocks_of_max_repeats():
    y = np.array([0] * 10 + [1] * 30)
    X = np.zeros((40, 1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        list(StratifiedBlockRegularizedMx2CV(3, random_state=0).split(X, y))
    cv = StratifiedBlockRegularizedMx2CV(3, max_repeats=9, random_state=0)
    msg = (
        "The least populated class in y has only 10 members, which is less "
        "than the number of sub-blocks n_sub_blocks=16 (n_repeats=3, "
        "max_repeats=9)."
    )
    with pytest.warns(UserWarning, match=re.escape(msg)):
        list(cv.split(X, y))


# --------------------------------------------------------------------------
# scikit-learn
# --------------------------------------------------------------------------


@pytest.mark.parametrize("klass", MX2_CLASSES, ids=lambda k: k.__name__)
def test_nested_design_in_cross_validate(klass):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(90, 3))
    y = (X[:, 0] + rng.normal(size=90) > 0).astype(int)
    tree = DecisionTreeClassifier(max_depth=2, random_state=0)
    cv = klass(3, max_repeats=7, random_state=0)
    result = cross_validate(tree, X, y, cv=cv, return_indices=True)
    assert result["test_score"].shape == (6,)
    # the scores of the first three repetitions of the 7×2 design
    full = cross_val_score(tree, X, y, cv=klass(7, random_state=0))
    assert_array_equal(result["test_score"], full[:6])
    for test, (_, expected) in zip(result["indices"]["test"], cv.split(X, y)):
        assert_array_equal(test, expected)
