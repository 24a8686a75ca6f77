"""Hostile input for the splitters (issue 15, classes 2 and 10): clear
one-line errors for bad arguments, and designs with thousands of
repetitions that finish quickly."""

import re
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_array_equal
from scipy.linalg import hadamard

from sklearn_bcv import (
    BlockRegularized5x2CV,
    BlockRegularizedMx2CV,
    StratifiedBlockRegularized5x2CV,
    StratifiedBlockRegularizedMx2CV,
)
from sklearn_bcv._split import (
    _column_masks,
    _dealing_order,
    _greedy_block_order,
    _n_sub_blocks,
    _orthogonal_array,
    _remainder_blocks,
    _size_greedy_prefix,
    _walsh_hadamard,
)

SPLITTER_CLASSES = [
    BlockRegularizedMx2CV,
    BlockRegularized5x2CV,
    StratifiedBlockRegularizedMx2CV,
    StratifiedBlockRegularized5x2CV,
]
STRATIFIED_CLASSES = [StratifiedBlockRegularizedMx2CV, StratifiedBlockRegularized5x2CV]

# Worst deviation (records) of a training-set size from n/2 over every
# remainder n mod 2**k: the table in the Notes of BlockRegularizedMx2CV, as
# (first n_repeats of the row, bound).
# The "size vs n/2" column of BlockRegularizedMx2CV's docstring table (6 and
# 7 repetitions share the 5x2 BCV's layout, hence 2 records there).
DOCUMENTED_SIZE_BOUNDS = [(1, 0.5), (2, 0.5), (3, 1.0), (6, 2.0), (8, 1.5),
                          (15, 2.0), (16, 3.0), (32, 5.0), (64, 16.5),
                          (128, 32.5), (256, 64.5)]  # fmt: skip

X40 = np.zeros((40, 1))
Y40 = np.arange(40) % 2
RANDOM_STATE_MSG = (
    "random_state must be None, an int in [0, 2**32 - 1] or a "
    "numpy.random.RandomState instance; got "
)


def documented_size_bound(n_repeats):
    return [bound for first, bound in DOCUMENTED_SIZE_BOUNDS if first <= n_repeats][-1]


def make(klass, **params):
    if klass in (BlockRegularized5x2CV, StratifiedBlockRegularized5x2CV):
        return klass(**params)
    return klass(5, **params)


def raises_one_line(exc_type, fragment, call):
    with pytest.raises(exc_type, match=re.escape(fragment)) as info:
        call()
    assert "\n" not in str(info.value)


def size_deviations(n_repeats, sub_blocks):
    """|#(S_r & E) - |E|/2| for every repetition r, E the given sub-blocks;
    S_r holds the sub-blocks with an even popcount(b & c_r)."""
    blocks = np.asarray(sub_blocks, dtype=np.int64)[:, None]
    masks = np.asarray(_column_masks(n_repeats), dtype=np.int64)[None, :]
    masked = blocks & masks
    parity = np.zeros_like(masked)
    while masked.any():
        parity ^= masked & 1
        masked >>= 1
    return np.abs((parity == 0).sum(axis=0) - len(sub_blocks) / 2)


# --------------------------------------------------------------------------
# bad arguments: one line, naming the argument and what was expected
# --------------------------------------------------------------------------


@pytest.mark.parametrize("klass", SPLITTER_CLASSES, ids=str)
@pytest.mark.parametrize(
    "X, fragment",
    [
        (None, "got None."),
        (3, "got 3 of type int."),
        (np.float64(3.0), "of type float64."),
        ("abcdefghijk", "got 'abcdefghijk' of type str."),
        ({"a": [1, 2]}, "of type dict."),
    ],
    ids=["None", "int", "numpy-scalar", "str", "dict"],
)
def test_split_rejects_x_that_is_not_array_like(klass, X, fragment):
    msg = "X must be an array-like of shape (n_samples, n_features); got "
    raises_one_line(TypeError, msg, lambda: make(klass).split(X, Y40))
    raises_one_line(TypeError, fragment, lambda: make(klass).split(X, Y40))


@pytest.mark.parametrize("klass", SPLITTER_CLASSES, ids=str)
@pytest.mark.parametrize("n_samples", [0, 1, 7])
def test_split_rejects_x_with_too_few_samples(klass, n_samples):
    msg = (
        f"X has too few samples: {klass.__name__} with n_repeats=5 needs at least "
        f"8 samples for 8 sub-blocks; got n_samples={n_samples}."
    )
    X = np.zeros((n_samples, 2))
    y = np.arange(n_samples) % 2
    raises_one_line(ValueError, msg, lambda: make(klass).split(X, y))


@pytest.mark.parametrize("klass", SPLITTER_CLASSES, ids=str)
@pytest.mark.parametrize("n_labels", [0, 39, 41])
def test_split_rejects_y_of_the_wrong_length(klass, n_labels):
    msg = f"X and y have inconsistent numbers of samples: X has 40, y has {n_labels}."
    y = np.arange(n_labels) % 2
    raises_one_line(ValueError, msg, lambda: make(klass).split(X40, y))


@pytest.mark.parametrize("klass", SPLITTER_CLASSES, ids=str)
@pytest.mark.parametrize(
    "y, fragment", [(3, "got 3 of type int."), ("ab", "got 'ab' of type str.")]
)
def test_split_rejects_y_that_is_not_array_like(klass, y, fragment):
    # the plain splitters ignore y but, as scikit-learn's, still check it
    msg = "y must be an array-like of shape (n_samples,); " + fragment
    raises_one_line(TypeError, msg, lambda: make(klass).split(X40, y))


@pytest.mark.parametrize("klass", STRATIFIED_CLASSES, ids=str)
def test_stratified_split_needs_y(klass):
    msg = f"{klass.__name__} needs the class labels y to stratify on; got y=None."
    raises_one_line(ValueError, msg, lambda: make(klass).split(X40))
    raises_one_line(ValueError, msg, lambda: make(klass).split(X40, None))


@pytest.mark.parametrize("klass", STRATIFIED_CLASSES, ids=str)
@pytest.mark.parametrize(
    "y, exc_type, fragment",
    [
        (np.r_[np.nan, Y40[1:]], ValueError, "Input y contains NaN."),
        (np.linspace(0, 1, 40), ValueError, "y must be binary or multiclass"),
        (np.array([None] * 40), ValueError, "y must be binary or multiclass"),
    ],
    ids=["nan", "continuous", "objects"],
)
def test_stratified_split_rejects_labels_that_are_not_classes(
    klass, y, exc_type, fragment
):
    raises_one_line(exc_type, fragment, lambda: make(klass).split(X40, y))


@pytest.mark.parametrize("klass", STRATIFIED_CLASSES, ids=str)
def test_stratified_split_warns_about_a_class_too_small_to_spread(klass):
    # not an error: the lone record goes to one sub-block
    y = np.r_[2, Y40[1:]]
    with pytest.warns(UserWarning, match="least populated class in y has only 1"):
        splits = list(make(klass, random_state=0).split(X40, y))
    assert len(splits) == 10


@pytest.mark.parametrize("klass", SPLITTER_CLASSES, ids=str)
def test_split_rejects_groups_of_the_wrong_length(klass):
    msg = "X and groups have inconsistent numbers of samples: X has 40, groups has 3."
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # groups are ignored
        raises_one_line(
            ValueError, msg, lambda: make(klass).split(X40, Y40, groups=[1, 2, 3])
        )


@pytest.mark.parametrize("klass", SPLITTER_CLASSES, ids=str)
@pytest.mark.parametrize(
    "random_state, fragment",
    [
        ("seed", "'seed' of type str."),
        (1.5, "1.5 of type float."),
        (-1, "-1 of type int."),
        (2**32, "4294967296 of type int."),
        (np.random.default_rng(0), "of type Generator."),
    ],
    ids=["str", "float", "negative", "too-large", "Generator"],
)
def test_split_rejects_an_invalid_random_state(klass, random_state, fragment):
    cv = make(klass, random_state=random_state)  # stored unchanged
    assert cv.random_state is random_state
    raises_one_line(ValueError, RANDOM_STATE_MSG, lambda: cv.split(X40, Y40))
    raises_one_line(ValueError, fragment, lambda: cv.split(X40, Y40))


@pytest.mark.parametrize(
    "klass", [BlockRegularizedMx2CV, StratifiedBlockRegularizedMx2CV], ids=str
)
@pytest.mark.parametrize(
    "n_repeats, msg",
    [
        (0, "n_repeats must be an integer >= 1; got 0."),
        (2.0, "n_repeats must be an integer >= 1; got 2.0 of type float."),
        (None, "n_repeats must be an integer >= 1; got None of type NoneType."),
    ],
)
def test_n_repeats_set_after_construction_is_checked(klass, n_repeats, msg):
    cv = klass(3)
    cv.n_repeats = n_repeats
    raises_one_line(ValueError, msg, cv.get_n_splits)
    raises_one_line(ValueError, msg, lambda: cv.split(X40, Y40))
    raises_one_line(ValueError, msg, lambda: klass(n_repeats))


@pytest.mark.parametrize("klass", SPLITTER_CLASSES, ids=str)
@pytest.mark.parametrize("X", [None, 3, "abc", np.zeros((0, 1))], ids=repr)
def test_get_n_splits_ignores_its_arguments(klass, X):
    # documented: X, y and groups are ignored, as by scikit-learn's splitters
    assert make(klass).get_n_splits(X, X, X) == 10


def test_a_huge_n_repeats_asks_for_more_samples():
    cv = BlockRegularizedMx2CV(10**6)
    assert cv.n_sub_blocks == 2**20
    msg = "needs at least 1048576 samples for 1048576 sub-blocks; got n_samples=40."
    raises_one_line(ValueError, msg, lambda: cv.split(X40))


# --------------------------------------------------------------------------
# many repetitions: the fast greedy is the greedy it replaced
# --------------------------------------------------------------------------


def reference_size_greedy(n_repeats):
    """The greedy order of the sub-blocks that balances the training-set
    sizes only, scored over every candidate and repetition as before the
    fast version: lexicographically smallest (largest deviation, sum of
    squares), lowest sub-block on ties. O(4**k * n_repeats)."""
    in_s = (_orthogonal_array(n_repeats) == 0).astype(int)
    n_blocks = len(in_s)
    counts = np.zeros(n_repeats, dtype=int)
    available = np.ones(n_blocks, dtype=bool)
    order = []
    for size in range(1, n_blocks + 1):
        candidates = np.flatnonzero(available)
        twice_dev = 2 * (counts + in_s[candidates]) - size  # integers: exact
        largest = np.abs(twice_dev).max(axis=1)
        squares = (twice_dev**2).sum(axis=1)
        chosen = candidates[np.lexsort((candidates, squares, largest))[0]]
        order.append(int(chosen))
        available[chosen] = False
        counts += in_s[chosen]
    return tuple(order)


def test_walsh_hadamard_matches_the_sylvester_matrix():
    rng = np.random.default_rng(0)
    for n in (1, 2, 8, 64):
        values = rng.integers(-5, 6, size=n)
        assert_array_equal(_walsh_hadamard(values), hadamard(n) @ values)


@pytest.mark.parametrize("n_repeats", [64, 100, 127, 128, 200])
def test_fast_size_greedy_is_the_plain_greedy(n_repeats):
    # beyond 64 sub-blocks: the same order (so the same splits) as scoring
    # every candidate over every repetition
    order = _greedy_block_order(n_repeats)
    assert order == reference_size_greedy(n_repeats)
    for n_extra in (1, 5, len(order) // 2, len(order) - 1):
        assert _size_greedy_prefix(n_repeats, n_extra) == order[:n_extra]
        assert _remainder_blocks(n_repeats, n_extra) == tuple(sorted(order[:n_extra]))


@pytest.mark.parametrize(
    "n_repeats, n_extra", [(2000, 4), (2000, 1), (1023, 1000), (4000, 8)]
)
def test_remainder_blocks_for_thousands_of_repeats(n_repeats, n_extra):
    # m=2000, n=4100 used to take 15-37 s and m=4000, n=8200 over 15 minutes
    n_blocks = _n_sub_blocks(n_repeats)
    chosen = _remainder_blocks(n_repeats, n_extra)
    assert len(set(chosen)) == n_extra
    assert all(0 <= b < n_blocks for b in chosen)
    bound = min(n_extra / 2, n_blocks / 8 + 0.5)
    assert size_deviations(n_repeats, chosen).max() <= bound


def test_block_regularized_mx2_cv_with_two_thousand_repeats():
    n_repeats, n_samples = 2000, 4100  # 2048 sub-blocks of 2 or 3 records
    cv = BlockRegularizedMx2CV(n_repeats, random_state=0)
    n_pairs = 0
    for r, (train, test) in enumerate(cv.split(np.zeros((n_samples, 1)))):
        assert len(train) + len(test) == n_samples
        assert abs(len(train) - n_samples / 2) <= 2  # 4 extra records
        if r % 400 == 0:  # splits 0, 400, ...: test sets T_0, T_200, ...
            in_test = np.zeros(n_samples, dtype=bool)
            in_test[test] = True
            if r == 0:
                first = in_test
            else:
                # n/4 = 1025: 1024 records of whole sub-blocks, plus 0 to 4
                both = np.count_nonzero(first & in_test)
                assert abs(both - n_samples / 4) <= 3
                n_pairs += 1
    assert r == 2 * n_repeats - 1 and n_pairs == 9


def test_stratified_block_regularized_mx2_cv_with_many_repeats_and_classes():
    n_repeats, n_samples = 1000, 2100  # 1024 sub-blocks, 150 classes
    y = np.arange(n_samples) % 150
    cv = StratifiedBlockRegularizedMx2CV(n_repeats, random_state=0)
    order = _dealing_order(n_repeats)
    assert sorted(order) == list(range(1024))
    with pytest.warns(UserWarning, match="least populated class"):
        splits = cv.split(np.zeros((n_samples, 1)), y)
    for r, (train, test) in enumerate(splits):
        assert len(train) + len(test) == n_samples
        if r % 500 == 0:
            # every class of 14 records is split 7 / 7, give or take the
            # runs of the dealing order
            assert np.abs(np.bincount(y[train], minlength=150) - 7).max() <= 7
    assert r == 2 * n_repeats - 1


@given(
    n_repeats=st.integers(1, 300),
    n_rounds=st.integers(1, 3),
    n_extra=st.integers(0, 511),
    seed=st.integers(0, 2**32 - 1),
)
def test_training_set_sizes_within_the_documented_bound(
    n_repeats, n_rounds, n_extra, seed
):
    n_blocks = _n_sub_blocks(n_repeats)
    n_samples = n_rounds * n_blocks + n_extra % n_blocks
    cv = BlockRegularizedMx2CV(n_repeats, random_state=seed)
    bound = documented_size_bound(n_repeats)
    sizes = [len(train) for train, _ in cv.split(np.zeros((n_samples, 1)))]
    assert len(sizes) == 2 * n_repeats
    assert np.abs(np.asarray(sizes) - n_samples / 2).max() <= bound


@pytest.mark.parametrize("n_repeats", range(1, 16))
def test_documented_size_bound_is_reached_up_to_15_repeats(n_repeats):
    # The table is the worst case, not a loose bound: some remainder reaches
    # it (6 and 7 repetitions: 2 records, e.g. 12 records give 8 and 4).
    n_blocks = _n_sub_blocks(n_repeats)
    worst = 0.0
    for n_samples in range(n_blocks, 2 * n_blocks):
        cv = BlockRegularizedMx2CV(n_repeats, random_state=0)
        sizes = [len(train) for train, _ in cv.split(np.zeros((n_samples, 1)))]
        worst = max(worst, float(np.abs(np.asarray(sizes) - n_samples / 2).max()))
    assert worst == documented_size_bound(n_repeats)


def test_documented_size_bound_for_64_to_127_repeats_is_the_worst_case():
    # the row "64 -- 127: 16.5" of the table: over every n_repeats of the row
    # and every remainder e (the first e sub-blocks of the greedy order)
    worst = 0.0
    for n_repeats in range(64, 128):
        order = _greedy_block_order(n_repeats)
        in_s = _orthogonal_array(n_repeats)[list(order)] == 0
        chosen = np.cumsum(in_s, axis=0)[:-1]
        n_extra = np.arange(1, len(order))[:, None]
        worst = max(worst, float(np.abs(chosen - n_extra / 2).max()))
    assert worst == documented_size_bound(64) == documented_size_bound(127) == 16.5
