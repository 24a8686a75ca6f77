"""Tests of the design recognition behind the comparison engine."""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.model_selection import (
    KFold,
    LeaveOneOut,
    RepeatedKFold,
    ShuffleSplit,
    StratifiedKFold,
)

from sklearn_bcv import (
    BlockRegularized5x2CV,
    BlockRegularizedMx2CV,
    StratifiedBlockRegularized5x2CV,
    available_tests,
)
from sklearn_bcv._engine._design import (
    Design,
    block_regularization_bound,
    describe_design,
)

N = 200
X = np.zeros((N, 1))
Y = np.tile([0, 1, 1, 0, 1], N // 5)


def _design(cv, n_samples=N, y=None, *, pass_cv=True):
    splits = list(cv.split(np.zeros((n_samples, 1)), y))
    return describe_design(splits, n_samples, cv=cv if pass_cv else None)


@pytest.mark.parametrize(
    "cv",
    [
        ShuffleSplit(n_splits=1, test_size=0.25, random_state=0),
        [(np.arange(150), np.arange(150, 200))],
    ],
    ids=["ShuffleSplit(1)", "one (train, test) pair"],
)
def test_design_holdout(cv):
    splits = list(cv.split(X)) if hasattr(cv, "split") else cv
    design = describe_design(splits, N)
    assert design.kind == "holdout"
    assert design.is_holdout and not design.is_partition and not design.is_mx2
    assert design.supports("holdout")
    assert not design.supports("any") and not design.supports("kfold")
    assert design.n_train == 150 and design.n_test == 50
    assert design.applicable_tests() == available_tests(design="holdout")


@pytest.mark.parametrize(
    "cv", [KFold(10), StratifiedKFold(5, shuffle=True, random_state=0)], ids=str
)
def test_design_kfold(cv):
    design = _design(cv, y=Y)
    assert design.kind == "kfold"
    assert design.is_partition and not design.is_mx2 and not design.is_holdout
    assert design.supports("kfold") and design.supports("any")
    assert not design.supports("mx2") and not design.supports("bcv")
    assert design.describe() == f"{design.n_splits}-fold CV"
    assert design.n_test * design.n_splits == N
    assert "kfold_mcnemar" in design.applicable_tests()
    assert "bcv_mcnemar" not in design.applicable_tests()


def test_design_leave_one_out_is_a_partition():
    design = _design(LeaveOneOut(), n_samples=12)
    assert design.kind == "kfold" and design.n_splits == 12


def test_design_two_fold_is_both_kfold_and_mx2():
    design = _design(KFold(2))
    assert design.is_partition and design.is_mx2 and design.n_repeats == 1
    # Halves of exactly n/2 records: a 1×2 block-regularized design.
    assert design.is_block_regularized


def test_design_repeated_kfold_is_mx2_not_bcv():
    design = _design(RepeatedKFold(n_splits=2, n_repeats=5, random_state=0))
    assert design.kind == "mx2" and design.n_repeats == 5
    assert design.is_mx2 and not design.is_block_regularized
    assert design.supports("mx2") and design.supports("bcv")
    assert design.warns_for("bcv") and not design.warns_for("mx2")
    assert design.describe() == "5×2 CV (not block-regularized)"
    # tests=None leaves the BCV tests out; by name they run with a warning.
    assert "bcv_mcnemar" in design.applicable_tests()
    assert "bcv_mcnemar" not in design.applicable_tests(include_warned=False)
    assert "combined_f_5x2cv" in design.applicable_tests(include_warned=False)
    with pytest.warns(UserWarning, match="bcv_mcnemar is derived for block-reg"):
        design.check_test("bcv_mcnemar")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        design.check_test("paired_t_5x2cv")


@pytest.mark.parametrize(
    "cv",
    [
        BlockRegularized5x2CV(random_state=0),
        BlockRegularizedMx2CV(n_repeats=3, random_state=1),
        StratifiedBlockRegularized5x2CV(random_state=2),
    ],
    ids=str,
)
@pytest.mark.parametrize("n_samples", [200, 203])
@pytest.mark.parametrize("pass_cv", [True, False], ids=["cv object", "inferred"])
def test_design_bcv(cv, n_samples, pass_cv):
    y = np.arange(n_samples) % 3
    design = _design(cv, n_samples=n_samples, y=y, pass_cv=pass_cv)
    assert design.kind == "bcv"
    assert design.is_mx2 and design.is_block_regularized
    assert design.n_repeats == cv.n_repeats
    assert not design.is_partition
    assert not design.warns_for("bcv")
    assert design.describe() == f"{cv.n_repeats}×2 block-regularized CV"
    assert {"bcv_mcnemar", "calibrated_f_5x2bcv", "corrected_t"} <= set(
        design.applicable_tests(include_warned=False)
    )


def test_design_arbitrary_splits_are_any():
    design = _design(ShuffleSplit(n_splits=7, test_size=0.2, random_state=0))
    assert design.kind == "any"
    assert design.supports("any")
    assert not (design.supports("kfold") or design.supports("mx2"))
    assert design.describe() == "7 splits (neither k-fold nor m×2)"
    assert set(design.applicable_tests()) == set(available_tests(design="any"))


def test_design_swapped_pair_order_is_not_mx2():
    # Splits 0 and 2 are not complementary halves: the m×2 order is broken.
    splits = list(RepeatedKFold(n_splits=2, n_repeats=2, random_state=0).split(X))
    design = describe_design([splits[0], splits[2], splits[1], splits[3]], N)
    assert not design.is_mx2
    assert design.kind == "any"


def test_design_incomplete_halves_are_not_mx2():
    # Complementary within the used records, but records 190.. never used.
    half = np.arange(0, 190, 2), np.arange(1, 190, 2)
    design = describe_design([half, half[::-1]], N)
    assert not design.is_mx2 and not design.is_partition


def test_design_repeated_training_indices_are_not_mx2():
    # Complementary as sets, but record 0 is trained on twice in split 0.
    first = (np.r_[0, np.arange(100)], np.arange(100, 200))
    design = describe_design([first, (first[1], np.arange(100))], N)
    assert not design.is_mx2
    assert design.n_train == (101 + 100) / 2


def test_design_random_mx2_with_unbalanced_overlap_is_not_bcv():
    # Repetition 2 equals repetition 1: the overlap is n/2, not n/4.
    first = (np.arange(100), np.arange(100, 200))
    splits = [first, first[::-1], first, first[::-1]]
    design = describe_design(splits, N)
    assert design.kind == "mx2"


@pytest.mark.parametrize(
    "name, cv, match",
    [
        (
            "bcv_mcnemar",
            KFold(10),
            r"bcv_mcnemar needs a block-regularized m×2 design "
            r"\(BlockRegularized5x2CV\); the splits are 10-fold CV",
        ),
        ("mcnemar", KFold(10), "mcnemar needs one hold-out split"),
        (
            "paired_t_5x2cv",
            KFold(5),
            "paired_t_5x2cv needs an m×2 design .*; the splits are 5-fold CV",
        ),
        (
            "cv_ci_z",
            RepeatedKFold(n_splits=2, n_repeats=5, random_state=0),
            "cv_ci_z needs k >= 2 splits whose test sets partition the records",
        ),
        (
            "corrected_t",
            ShuffleSplit(n_splits=1, random_state=0),
            "corrected_t needs at least two splits; the splits are one hold-out",
        ),
    ],
)
def test_design_check_test_names_the_design_it_needs(name, cv, match):
    design = _design(cv)
    with pytest.raises(ValueError, match=match):
        design.check_test(name)


def test_design_check_test_unknown_name():
    with pytest.raises(ValueError, match="'nope' is not a registered test"):
        _design(KFold(5)).check_test("nope")


def test_design_supports_rejects_unknown_design():
    with pytest.raises(ValueError, match="design must be one of"):
        _design(KFold(5)).supports("5x2")


@pytest.mark.parametrize(
    "splits, match",
    [
        ([], "at least one"),
        (5, "must be a list of"),
        ([(np.arange(5),)], r"splits\[0\] must be a \(train, test\) pair"),
        ([(np.arange(5), np.array([], dtype=int))], r"splits\[0\] test is empty"),
        ([(np.arange(5), np.array([5, 10]))], r"outside \[0, 10\)"),
        ([(np.arange(5), np.array([-1]))], r"outside \[0, 10\)"),
        ([(np.arange(5), np.array([5.0, 6.0]))], "integer indices; got dtype float"),
        ([(np.arange(5), np.ones((2, 2), dtype=int))], r"1-D .* got shape \(2, 2\)"),
    ],
)
def test_describe_design_rejects_bad_splits(splits, match):
    with pytest.raises(ValueError, match=match):
        describe_design(splits, 10)


@pytest.mark.parametrize("n_samples", [0, -3, 2.5, True, "10"])
def test_describe_design_rejects_bad_n_samples(n_samples):
    with pytest.raises(ValueError, match="n_samples must be a positive integer"):
        describe_design([(np.arange(1), np.arange(1, 2))], n_samples)


def test_block_regularization_bound_matches_sub_blocks():
    # 2**k sub-blocks with 2**k - 1 >= m: m=1 -> 2, m=2,3 -> 4, m=4..7 -> 8.
    assert block_regularization_bound(1) == (1.0, 1.0)
    assert block_regularization_bound(3) == (2.0, 1.0)
    assert block_regularization_bound(5) == (4.0, 2.0)
    assert block_regularization_bound(8) == (8.0, 4.0)


def test_design_is_frozen():
    design = _design(KFold(3))
    assert isinstance(design, Design)
    with pytest.raises(AttributeError):
        design.n_splits = 4


def _naive_design_flags(splits, n_samples):
    """Set-based reference for is_partition / is_mx2 and training overlaps."""
    sets = [(set(tr.tolist()), set(te.tolist())) for tr, te in splits]
    everything = set(range(n_samples))
    tested = [i for _, te in splits for i in te.tolist()]
    is_partition = (
        len(splits) >= 2
        and sorted(tested) == sorted(everything)
        and all(not (tr & te) for tr, te in sets)
    )
    is_mx2 = len(splits) >= 2 and len(splits) % 2 == 0
    for r in range(0, len(splits) - 1, 2):
        (tr0, te0), (tr1, te1) = sets[r], sets[r + 1]
        is_mx2 &= tr0 == te1 and te0 == tr1 and not (tr0 & te0)
        is_mx2 &= (tr0 | te0) == everything
    overlaps = [
        len(sets[2 * r][0] & sets[2 * s][0])
        for r in range(len(splits) // 2)
        for s in range(len(splits) // 2)
        if r != s
    ]
    return is_partition, is_mx2, overlaps


@given(
    n_samples=st.integers(8, 120),
    n_repeats=st.integers(1, 7),
    seed=st.integers(0, 2**16),
    kind=st.sampled_from(["bcv", "random_mx2", "kfold", "shuffle"]),
)
def test_design_flags_agree_with_set_reference(n_samples, n_repeats, seed, kind):
    cv = {
        "bcv": BlockRegularizedMx2CV(n_repeats=n_repeats, random_state=seed),
        "random_mx2": RepeatedKFold(n_splits=2, n_repeats=n_repeats, random_state=seed),
        "kfold": KFold(min(n_repeats + 1, n_samples), shuffle=True, random_state=seed),
        "shuffle": ShuffleSplit(n_splits=n_repeats, random_state=seed),
    }[kind]
    splits = list(cv.split(np.zeros((n_samples, 1))))
    design = describe_design(splits, n_samples)
    is_partition, is_mx2, overlaps = _naive_design_flags(splits, n_samples)
    assert design.is_partition == is_partition
    assert design.is_mx2 == is_mx2
    if kind == "bcv":
        # The splitter's documented bounds hold, so the indices alone tell it.
        assert design.is_block_regularized
        _, overlap_bound = block_regularization_bound(n_repeats)
        assert all(abs(o - n_samples / 4) < overlap_bound for o in overlaps)
    if is_mx2 and not design.is_block_regularized:
        _, overlap_bound = block_regularization_bound(n_repeats)
        sizes = [len(tr) for tr, _ in splits[::2]]
        size_bound, _ = block_regularization_bound(n_repeats)
        assert any(abs(o - n_samples / 4) >= overlap_bound for o in overlaps) or any(
            abs(s - n_samples / 2) >= size_bound for s in sizes
        )
