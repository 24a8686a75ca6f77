"""``compare_scores(..., greater_is_better=False)``: losses and error rates."""

import numpy as np
import pytest

from sklearn_bcv import compare_scores
from sklearn_bcv._results._pairwise import ranking

# Error rates of three estimators on three data sets: A has the lowest error
# on two of them.
LOSS = np.array([[0.1, 0.2, 0.3], [0.2, 0.1, 0.3], [0.1, 0.3, 0.2]])


def test_loss_table_gives_the_mirror_ranking():
    loss = compare_scores(LOSS, names=["A", "B", "C"], greater_is_better=False)
    gain = compare_scores(LOSS, names=["A", "B", "C"])
    # By hand: ranks per row (1 = lowest error) [1, 2, 3], [2, 1, 3], [1, 3, 2].
    np.testing.assert_allclose(
        loss.ranks, [[1.0, 2.0, 3.0], [2.0, 1.0, 3.0], [1.0, 3.0, 2.0]]
    )
    np.testing.assert_allclose(loss.mean_ranks, [4 / 3, 2.0, 8 / 3])
    # Read as higher-is-better the same table ranks the other way round.
    np.testing.assert_allclose(gain.mean_ranks, 4.0 - loss.mean_ranks)
    # Friedman's statistic does not depend on the direction: 12N/(k(k+1))
    # * sum (R_j - (k+1)/2)^2 = 12*3/12 * (4/9 + 0 + 4/9) = 8/3.
    assert loss.tests.friedman.statistic == pytest.approx(8 / 3)
    assert gain.tests.friedman.statistic == pytest.approx(8 / 3)
    assert loss.greater_is_better is False and gain.greater_is_better is True
    assert [loss.names[j] for j in ranking(loss)] == ["A", "B", "C"]


def test_scores_stay_in_the_users_units():
    loss = compare_scores(LOSS, greater_is_better=False)
    np.testing.assert_array_equal(loss.scores, LOSS)
    np.testing.assert_allclose(loss.mean_scores, [0.4 / 3, 0.2, 0.8 / 3])


def test_every_test_equals_that_of_the_negated_table():
    rng = np.random.default_rng(0)
    loss = rng.uniform(0.05, 0.4, size=(12, 4))
    loss[:, 0] = rng.uniform(0.0, 0.04, size=12)  # estimator_0 always lowest
    kwargs = dict(
        pairwise_tests=["wilcoxon", "sign", "bayesian_sign"],
        alternative="greater",
        random_state=0,
    )
    by_flag = compare_scores(loss, greater_is_better=False, **kwargs)
    by_hand = compare_scores(-loss, **kwargs)
    np.testing.assert_allclose(by_flag.mean_ranks, by_hand.mean_ranks)
    assert by_flag.tests.friedman.pvalue == pytest.approx(by_hand.tests.friedman.pvalue)
    for name in ("wilcoxon", "sign"):
        np.testing.assert_allclose(
            by_flag.pairwise[name].pvalue, by_hand.pairwise[name].pvalue
        )
    np.testing.assert_allclose(
        by_flag.pairwise.bayesian_sign.p_a_better,
        by_hand.pairwise.bayesian_sign.p_a_better,
    )
    # "greater" = A better = A has the lower loss: estimator_0 beats the rest.
    # All 12 differences favour A: exact one-sided Wilcoxon p = 1 / 2**12.
    np.testing.assert_allclose(by_flag.pairwise.wilcoxon.pvalue[0, 1:], 2.0**-12)
    assert by_flag.verdict.differ == by_hand.verdict.differ


def test_split_scores_stay_in_the_users_units():
    rng = np.random.default_rng(1)
    split = rng.uniform(0.1, 0.3, size=(5, 4, 3))
    result = compare_scores(split, greater_is_better=False)
    np.testing.assert_array_equal(result.split_scores, split)
    np.testing.assert_allclose(result.scores, split.mean(axis=1))


@pytest.mark.parametrize("bad", ["yes", 1.5, None])
def test_greater_is_better_must_be_a_bool(bad):
    with pytest.raises(ValueError, match="greater_is_better"):
        compare_scores(LOSS, greater_is_better=bad)
