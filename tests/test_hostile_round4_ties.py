"""Hostile input, round 4: the tie rule scoped to each value's own inputs
(class 2).

One mechanism (``sklearn_bcv/stats/_ties.py``): the user's own scores tie
only at their own precision (within ``2**-46`` of their own magnitude,
``2**-20`` for float32 scores), a derived value (a difference, a mean of
per-split scores, a Walsh sum) by the magnitude of the inputs that produced
it -- never another estimator's, another data set's or another row's.
Before, the ranks of a data set changed when another data set was added,
log losses of 1e-14 and 2e-14 beside 0.9 were merged, and a float32 table
gave another Wilcoxon statistic in percents than in fractions.
"""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from sklearn_bcv import compare_scores
from sklearn_bcv.stats import effect_size, friedman, wilcoxon
from sklearn_bcv.stats._across import _signed_rank_theta
from sklearn_bcv.stats._plackett_luce import weak_order_levels
from sklearn_bcv.stats._ranks import rank_scores
from sklearn_bcv.stats._ties import (
    difference_tolerance,
    precision_of,
    scores_precision,
    tie_unit,
)

U = 2.0**-46

# --------------------------------------------------------------------------
# Nothing leaks between data sets or rows


@pytest.mark.parametrize(
    "other",
    [
        [1.0, 1.0 - 0.9 * U],  # the row that bridged the two before
        [1.0 - 0.9 * U, 1.0 - 1.8 * U],
        [1.0 - 0.5 * U, 1.0 - 1.3 * U],
        [1e300, -1e300],
        [0.0, 0.0],
    ],
)
def test_a_data_sets_ranks_do_not_change_when_another_is_added(other):
    alone = np.array([[1.0, 1.0 - 1.8 * U]])
    assert rank_scores(alone).tolist() == [[1.0, 2.0]]
    beside = rank_scores(np.vstack([alone, [other]]))
    assert beside[0].tolist() == [1.0, 2.0]
    assert rank_scores(np.vstack([[other], alone]))[1].tolist() == [1.0, 2.0]


@pytest.mark.parametrize(
    "row, ranks",
    [
        ([1e-14, 2e-14, 0.9], [3.0, 2.0, 1.0]),  # log losses, higher better here
        ([1e-300, 3e-300, 1e300], [3.0, 2.0, 1.0]),
        ([0.5, 0.5 + 1e-12, 1e6], [3.0, 2.0, 1.0]),
        ([0.1 + 0.2, 0.3, 1e12], [2.5, 2.5, 1.0]),  # one rounding apart: equal
    ],
)
def test_the_users_distinct_scores_are_never_merged_by_a_large_score(row, ranks):
    assert rank_scores([row]).tolist() == [ranks]
    levels = weak_order_levels(np.array([row]))
    assert len(set(levels[0])) == len(set(ranks))


def test_log_losses_keep_their_order_in_a_comparison():
    losses = np.array([[1e-14, 2e-14, 0.9], [3e-14, 1e-14, 0.8], [2e-14, 1e-14, 0.7]])
    result = compare_scores(
        losses,
        names=["a", "b", "c"],
        greater_is_better=False,
        tests=["friedman"],
        pairwise_tests=["sign"],
        random_state=0,
    )
    np.testing.assert_array_equal(result.ranks, [[1, 2, 3], [2, 1, 3], [2, 1, 3]])
    # The sign test counts each data set as a win, none as a tie.
    assert result.pairwise["sign"].results[("a", "b")].statistic == 1


def test_a_data_sets_magnitude_changes_only_its_own_ties():
    """A data set with a zero difference, scored (0.5, 0.5) or (1e6, 1e6):
    every test of ranks, signs, counts and rope gives the same answer,
    Walsh sums that are not ±2 rope included (its tolerance is its own)."""
    base = np.array(
        [
            [0.83, 0.80],
            [0.81 + 1e-10, 0.80],  # d = 0.01 + 1e-10: 0.03 + d is not 2·rope
            [0.71, 0.74],
            [0.52, 0.50],
            [0.90, 0.89],
            [0.5, 0.5],
        ]
    )
    big = base.copy()
    big[-1] = 1e6
    pairwise = {
        "wilcoxon": {},
        "sign": {},
        "bayesian_signed_rank": {"n_samples": 4000},
        "bayesian_sign": {"n_samples": 4000},
    }
    results = [
        compare_scores(
            table,
            tests=["friedman", "friedman_aligned", "quade", "nemenyi"],
            pairwise_tests=pairwise,
            rope=0.02,
            effect_size="cohen_dz",
            random_state=0,
        )
        for table in (base, big)
    ]
    first, second = results
    for name in ("friedman", "friedman_aligned", "quade"):
        assert first.tests[name].statistic == second.tests[name].statistic
        assert first.tests[name].pvalue == second.tests[name].pvalue
    for name in pairwise:
        for field in ("statistic", "pvalue", "p_a_better", "p_rope", "p_b_better"):
            if field in first.pairwise[name]:
                np.testing.assert_array_equal(
                    first.pairwise[name][field], second.pairwise[name][field]
                )
    assert first.effect_sizes[0].estimate == second.effect_sizes[0].estimate


def test_a_walsh_sum_is_tied_to_the_rope_by_its_own_two_data_sets():
    # z = 0.03 and 0.01 + 1e-10 sum to 2·rope + 1e-10: beyond the rope by
    # their own tolerances (~2e-16), whatever a third data set's (1e6·2**-46
    # = 1.4e-8, which the largest-of-all tolerance applied to every sum).
    z = np.array([0.0, 0.03, 0.01 + 1e-10, 0.0])
    t = U * np.array([0.0, 0.83, 0.81, 1e6])
    rows = [np.ones(1, dtype=np.float32)] * 4
    theta = _signed_rank_theta(z, rows, 0.02, t)
    # A: (1, 1) and the two orders of (1, 2), of 16 equally weighted pairs.
    assert theta[0, 0] == pytest.approx(3 / 16)
    assert theta[2, 0] == 0.0


def test_a_third_estimator_does_not_change_a_pairs_ties():
    # Differences of 1e-14 between a and b are real; c's scores of 1e6 on
    # the same data sets must not make them zeros.
    a = np.array([2e-14, 3e-14, 4e-14, 1e-14, 5e-14, 2e-14])
    b = a - np.array([1, 2, 1, 3, 1, 2]) * 1e-14
    c = np.full(6, 1e6)
    alone = compare_scores(np.c_[a, b], pairwise_tests=["wilcoxon", "sign"])
    beside = compare_scores(np.c_[a, b, c], pairwise_tests=["wilcoxon", "sign"])
    for name in ("wilcoxon", "sign"):
        assert (
            alone.pairwise[name].statistic[0, 1]
            == beside.pairwise[name].statistic[0, 1]
        )
        assert alone.pairwise[name].pvalue[0, 1] == beside.pairwise[name].pvalue[0, 1]
    assert alone.pairwise["sign"].results[("estimator_0", "estimator_1")].statistic == 6
    assert alone.effect_sizes[0].estimate == beside.effect_sizes[0].estimate
    assert np.isfinite(alone.effect_sizes[0].estimate)  # not 0/0 of merged scores


def test_difference_tolerance_is_each_differences_own():
    d = np.array([1e-14, 0.5, 3.0])
    tau = difference_tolerance(d, None)
    np.testing.assert_array_equal(tau, U * np.abs(d))
    scale = np.array([[2e-14, 0.9, 4.0], [1.0, 1.0, 1.0]])
    batch = difference_tolerance(np.vstack([d, d]), scale)
    np.testing.assert_array_equal(batch, U * np.maximum(scale, np.abs(d)))


# --------------------------------------------------------------------------
# float32 scores carry float32's rounding


def _tables(n_tables, seed=0, shape=(10, 3)):
    rng = np.random.default_rng(seed)
    for _ in range(n_tables):
        yield np.round(rng.uniform(0.6, 0.9, size=shape), 2)


def test_precision_of_reads_the_coarsest_dtype():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(
        {"a": np.ones(3, dtype=np.float32), "b": np.ones(3, dtype=np.float64)}
    )
    assert precision_of(frame) == 2.0**-23
    assert precision_of(np.ones(2)) == 2.0**-52
    assert precision_of(np.arange(3)) == 2.0**-52
    with scores_precision(2.0**-23):
        assert tie_unit() == 2.0**-20
    assert tie_unit() == U


@pytest.mark.parametrize("seed", range(4))
def test_a_float32_table_gives_the_same_answer_in_fractions_and_percents(seed):
    pd = pytest.importorskip("pandas")
    for table in _tables(5, seed):
        fractions = table.astype(np.float32)
        percents = fractions * np.float32(100)  # computed in float32
        shifted = fractions + np.float32(0.1)
        results = []
        for values in (fractions, percents, shifted):
            frame = pd.DataFrame(values, columns=["a", "b", "c"])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                results.append(
                    compare_scores(
                        frame,
                        tests=["friedman", "quade"],
                        pairwise_tests=["wilcoxon", "sign"],
                        effect_size="cliff_delta",
                        random_state=0,
                    )
                )
        reference = results[0]
        for other in results[1:]:
            np.testing.assert_array_equal(reference.ranks, other.ranks)
            for name in ("friedman", "quade"):
                assert reference.tests[name].statistic == other.tests[name].statistic
            for name in ("wilcoxon", "sign"):
                np.testing.assert_array_equal(
                    reference.pairwise[name].statistic, other.pairwise[name].statistic
                )
                np.testing.assert_array_equal(
                    reference.pairwise[name].pvalue, other.pairwise[name].pvalue
                )
            for mine, theirs in zip(reference.effect_sizes, other.effect_sizes):
                assert mine.estimate == theirs.estimate


def test_float32_per_split_scores_give_the_same_means_ranks_in_any_units():
    rng = np.random.default_rng(3)
    split = np.round(rng.uniform(0.6, 0.9, size=(8, 4, 3)), 2).astype(np.float32)
    split[:, :, 1] = split[:, ::-1, 0]  # the same scores in another order
    base = compare_scores(split, tests=["friedman"], pairwise_tests=["wilcoxon"])
    percents = compare_scores(
        split * np.float32(100), tests=["friedman"], pairwise_tests=["wilcoxon"]
    )
    np.testing.assert_array_equal(base.ranks, percents.ranks)
    assert np.all(base.ranks[:, 0] == base.ranks[:, 1])  # equal means tie
    assert base.tests.friedman.statistic == percents.tests.friedman.statistic


def test_a_float64_table_keeps_its_own_precision():
    # Two float64 decimals 1e-9 apart are distinct; the same scores as
    # float32 are one float32 rounding apart and tie.
    table = np.array([[0.8, 0.8 + 1e-9, 0.5], [0.7, 0.6, 0.9]])
    assert rank_scores(table)[0].tolist() == [2.0, 1.0, 3.0]
    with scores_precision(precision_of(np.float32(0))):
        assert rank_scores(table)[0].tolist() == [1.5, 1.5, 3.0]


def test_the_tests_called_directly_and_through_compare_scores_agree():
    a = np.array([0.82, 0.81, 0.93, 0.75, 0.64, 0.88, 0.71, 0.59])
    b = np.array([0.81, 0.82, 0.90, 0.74, 0.66, 0.86, 0.70, 0.57])
    scale = np.maximum(np.abs(a), np.abs(b))
    direct = wilcoxon(a - b, score_scale=scale)
    through = compare_scores(np.c_[a, b], pairwise_tests=["wilcoxon"])
    assert direct.statistic == through.pairwise.wilcoxon.statistic[0, 1] == 8.5
    assert friedman(np.c_[a, b]).statistic == through.tests.friedman.statistic
    fractions = effect_size(a, b, random_state=0)
    percents = effect_size(100 * a, 100 * b, random_state=0)
    assert fractions.estimate == pytest.approx(percents.estimate, rel=1e-12)


def test_a_missing_run_leaves_the_pair_scale_of_its_data_set():
    # The tie rule's scale of a pair on a data set is the largest |score| of
    # its cells, a missing run left out: not NaN (then 0, which silenced the
    # rule for the whole data set).
    from sklearn_bcv._engine._scores import ScoreTable

    runs = np.array([[[0.5, 0.9], [0.6, 0.7]], [[0.8, np.nan], [0.4, 0.3]]])
    table = ScoreTable(
        scores=np.nanmean(runs, axis=1),
        names=["a", "b"],
        datasets=["d0", "d1"],
        split_scores=runs,
    )
    assert_array_equal(table._pair_scale(0, 1), [0.9, 0.8])
    hole = ScoreTable(
        scores=np.array([[np.nan, 0.5]]), names=["a", "b"], datasets=["d0"]
    )
    assert_array_equal(hole._pair_scale(0, 1), [0.5])
