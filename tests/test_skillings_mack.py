"""Tests of the rank tests on tables with holes: Skillings–Mack, Durbin and
the Skillings–Mack post hoc family (``sklearn_bcv/stats/_skillings_mack.py``)."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from sklearn_bcv.stats import (
    durbin,
    friedman,
    friedman_posthoc,
    skillings_mack,
    skillings_mack_posthoc,
)
from sklearn_bcv.stats._registry import available_tests, get_entry
from sklearn_bcv.stats._skillings_mack import (
    _adjusted_sums,
    incomplete_design,
    observed_ranks,
)

nan = np.nan

# The example of R's Skillings.Mack package (Chatfield & Mander 2009): four
# assembly methods timed on nine blocks, four times missing; the package
# prints SM = 15.493 on 3 degrees of freedom.
ASSEMBLY = np.array(
    [
        [3.2, 4.1, 3.8, 4.2],
        [3.1, 3.9, 3.4, 4.0],
        [4.3, 3.5, 4.6, 4.8],
        [3.5, 3.6, 3.9, 4.0],
        [3.6, 4.2, 3.7, 3.9],
        [4.5, 4.7, 3.7, nan],
        [nan, 4.2, 3.4, nan],
        [4.3, 4.6, 4.4, 4.9],
        [3.5, nan, 3.7, 3.9],
    ]
)

# Conover (1999, §5.8): seven ice cream varieties, each of seven judges
# ranks three of them (a balanced incomplete block design, r = 3, lambda =
# 1); the rank sums are 8, 9, 4, 3, 5, 6, 7, T1 = 12 and T2 = 8.
ICE_CREAM = [
    {0: 2, 1: 3, 3: 1},
    {1: 3, 2: 1, 4: 2},
    {2: 2, 3: 1, 5: 3},
    {3: 1, 4: 2, 6: 3},
    {0: 3, 4: 1, 5: 2},
    {1: 3, 5: 1, 6: 2},
    {0: 3, 2: 1, 6: 2},
]


def ice_cream_ranks():
    ranks = np.full((7, 7), nan)
    for judge, tasted in enumerate(ICE_CREAM):
        for variety, rank in tasted.items():
            ranks[judge, variety] = rank
    return ranks


# --------------------------------------------------------------------------
# Worked examples
# --------------------------------------------------------------------------


@pytest.mark.parametrize("tie_correction", [True, False])
def test_skillings_mack_package_example(tie_correction):
    result = skillings_mack(-ASSEMBLY, tie_correction=tie_correction)
    assert result.statistic == pytest.approx(15.493, abs=5e-4)
    assert result.df == 3
    assert result.pvalue == pytest.approx(0.0014403, rel=1e-4)
    assert result.n_missing == 4
    assert result.n_groups == 1
    assert result.durbin is None  # blocks of 2, 3 and 4 estimators
    # Without ties the covariance is Skillings and Mack's: -lambda off the
    # diagonal, lambda's row sums on it.
    together = result.n_together.astype(float)
    expected = -together
    np.fill_diagonal(expected, together.sum(axis=1) - np.diag(together))
    assert_allclose(result.covariance, expected, atol=1e-12)
    # The statistic does not depend on the direction of the scores.
    assert skillings_mack(ASSEMBLY).statistic == pytest.approx(result.statistic)


def test_skillings_mack_hand_derived_two_blocks():
    # Three estimators on two data sets; the second lacks C. Block 1 ranks
    # A, B, C as 1, 2, 3 (A best): centred (k+1)/2 - r = 1, 0, -1, weight
    # sqrt(12/4) = sqrt(3). Block 2 ranks A, B as 2, 1: centred -1/2, 1/2,
    # weight sqrt(12/3) = 2. A = (sqrt3 - 1, 1, -sqrt3). lambda: AB = 2,
    # AC = BC = 1.
    scores = np.array([[0.9, 0.8, 0.7], [0.5, 0.6, nan]])
    result = skillings_mack(scores)
    s3 = np.sqrt(3.0)
    assert_allclose(result.adjusted_sums, [s3 - 1, 1, -s3])
    sigma = np.array([[3.0, -2, -1], [-2, 3, -1], [-1, -1, 2]])
    assert_allclose(result.covariance, sigma, atol=1e-12)
    a = result.adjusted_sums
    assert result.statistic == pytest.approx(a @ np.linalg.pinv(sigma) @ a)


def test_durbin_conover_ice_cream():
    result = durbin(-ice_cream_ranks())
    assert result.rank_sums.tolist() == [8, 9, 4, 3, 5, 6, 7]
    assert result.statistic == pytest.approx(12.0)
    assert result.df == 6
    assert result.pvalue == pytest.approx(0.0619688, rel=1e-5)
    assert result.f_test.statistic == pytest.approx(8.0)
    assert result.f_test.df == (6, 8)
    assert result.design == {
        "block_size": 3,
        "replicates": 3,
        "together": 1,
        "n_blocks": 7,
    }
    # Skillings–Mack is Durbin's statistic on a balanced incomplete design
    # without ties, and reports it inside.
    sm = skillings_mack(-ice_cream_ranks())
    assert sm.statistic == pytest.approx(12.0)
    assert sm.durbin.statistic == pytest.approx(12.0)


@pytest.mark.filterwarnings("ignore:The inplace keyword")
def test_durbin_against_scikit_posthocs():
    sp = pytest.importorskip("scikit_posthocs")
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(0)
    # A BIBD of 7 treatments in blocks of 3 (the Fano plane), twice over,
    # with decimal scores that tie now and then.
    design = [{t % 7 for t in (i, i + 1, i + 3)} for i in range(7)] * 2
    for _ in range(5):
        scores = np.full((len(design), 7), nan)
        for i, block in enumerate(design):
            for t in block:
                scores[i, t] = round(rng.uniform(0.6, 0.9), 1)
        rows = [(i, t, scores[i, t]) for i in range(len(design)) for t in design[i]]
        frame = pd.DataFrame(rows, columns=["block", "group", "y"])
        pvalue, statistic, df = sp.test_durbin(
            frame,
            y_col="y",
            group_col="group",
            block_col="block",
            block_id_col="block",
            melted=True,
        )
        ours = durbin(scores)
        assert ours.statistic == pytest.approx(statistic, rel=1e-12)
        assert ours.pvalue == pytest.approx(pvalue, rel=1e-10)
        assert ours.df == df


# --------------------------------------------------------------------------
# With no hole: Friedman
# --------------------------------------------------------------------------

decimal_tables = st.integers(2, 12).flatmap(
    lambda n: st.integers(2, 6).flatmap(
        lambda k: st.lists(
            st.lists(st.integers(60, 70), min_size=k, max_size=k),
            min_size=n,
            max_size=n,
        )
    )
)


@given(decimal_tables)
def test_no_hole_equals_tie_corrected_friedman(table):
    scores = np.array(table) / 100.0  # two-decimal scores: many ties
    ours = skillings_mack(scores)
    reference = friedman(scores)
    assert ours.statistic == pytest.approx(reference.statistic, rel=1e-9, abs=1e-9)
    assert ours.df == reference.df
    # Friedman decides by its exact permutation law on small tables; its
    # chi-squared form is the one Skillings-Mack's equals.
    assert ours.pvalue == pytest.approx(reference.pvalue_chi2, rel=1e-8, abs=1e-12)
    assert_allclose(ours.mean_ranks, reference.mean_ranks)


def test_no_hole_no_tie_published_matrix_equals_friedman():
    rng = np.random.default_rng(1)
    scores = rng.normal(size=(15, 5))
    published = skillings_mack(scores, tie_correction=False)
    assert published.statistic == pytest.approx(friedman(scores).statistic)
    # The post hoc z statistics are those of Friedman's mean ranks.
    ours = skillings_mack_posthoc(scores, tie_correction=False, correction="bonferroni")
    reference = friedman_posthoc(scores, correction="bonferroni")
    assert_allclose(ours.statistic, reference.statistic, atol=1e-12)
    assert_allclose(ours.pvalue_adjusted, reference.pvalue_adjusted, atol=1e-12)


# --------------------------------------------------------------------------
# The covariance against an independent computation: every permutation
# --------------------------------------------------------------------------


def exact_covariance(scores):
    """The covariance of the adjusted rank sums under the null hypothesis,
    by enumerating every order of each data set's midranks (data sets are
    independent: their covariances add)."""
    ranks = observed_ranks(scores)
    k = scores.shape[1]
    total = np.zeros((k, k))
    for row in ranks:
        present = np.flatnonzero(~np.isnan(row))
        size = present.size
        if size < 2:
            continue
        weight = np.sqrt(12.0 / (size + 1))
        values = (size + 1) / 2.0 - row[present]
        draws = np.array([weight * np.array(p) for p in itertools.permutations(values)])
        block = np.cov(draws.T, bias=True)
        total[np.ix_(present, present)] += block
    return total


@pytest.mark.parametrize("seed", range(6))
def test_covariance_is_the_exact_null_covariance_with_ties(seed):
    rng = np.random.default_rng(seed)
    scores = np.round(rng.uniform(0.6, 0.7, size=(6, 5)), 2)
    scores[rng.uniform(size=scores.shape) < 0.25] = nan
    scores[:, 0] = np.where(np.isnan(scores[:, 0]), 0.65, scores[:, 0])
    scores[0] = [0.6, 0.6, 0.6, 0.7, 0.7]  # ties
    observed = ~np.isnan(scores)
    _, covariance, _, _ = _adjusted_sums(scores, observed, True)
    assert_allclose(covariance, exact_covariance(scores), atol=1e-12)


# --------------------------------------------------------------------------
# Invariances, designs and degenerate input
# --------------------------------------------------------------------------


@given(decimal_tables, st.integers(0, 2**32 - 1))
def test_invariant_to_units_and_column_order(table, seed):
    rng = np.random.default_rng(seed)
    scores = np.array(table, dtype=float) / 100.0
    scores[rng.uniform(size=scores.shape) < 0.2] = nan
    try:
        reference = skillings_mack(scores)
    except ValueError:  # an estimator without a data set beside another
        return
    order = rng.permutation(scores.shape[1])
    moved = skillings_mack(100.0 * scores[:, order] + 0.1)
    assert moved.statistic == pytest.approx(reference.statistic, rel=1e-9, abs=1e-12)
    assert moved.df == reference.df
    assert_allclose(moved.adjusted_sums, reference.adjusted_sums[order], atol=1e-9)
    post = skillings_mack_posthoc(scores)
    post_moved = skillings_mack_posthoc(100.0 * scores[:, order] + 0.1)
    assert_allclose(
        post_moved.pvalue_adjusted,
        post.pvalue_adjusted[np.ix_(order, order)],
        atol=1e-9,
    )


def test_disconnected_design_counts_its_groups():
    # A and B are never scored beside C or D: two groups, df = 4 - 2.
    scores = np.array(
        [
            [0.9, 0.8, nan, nan],
            [0.7, 0.8, nan, nan],
            [nan, nan, 0.6, 0.5],
            [nan, nan, 0.4, 0.6],
            [0.9, 0.7, nan, nan],
        ]
    )
    result = skillings_mack(scores)
    assert result.n_groups == 2
    assert result.df == 2
    post = skillings_mack_posthoc(scores)
    # A pair the data sets never link: z = 0, p-value 1.
    assert post.statistic[0, 2] == 0.0
    assert post.pvalue[0, 2] == 1.0


def test_all_tied_gives_zero_and_pvalue_one():
    scores = np.array([[0.5, 0.5, nan], [0.7, 0.7, 0.7], [nan, 0.3, 0.3]])
    result = skillings_mack(scores)
    assert result.statistic == 0.0 and result.pvalue == 1.0
    post = skillings_mack_posthoc(scores)
    assert_array_equal(post.pvalue, 1.0)
    assert durbin(np.full((3, 3), 0.5)).statistic == 0.0


def test_rows_with_one_score_carry_no_information():
    with_row = np.vstack([ASSEMBLY, [3.0, nan, nan, nan]])
    result = skillings_mack(-with_row)
    assert result.statistic == pytest.approx(skillings_mack(-ASSEMBLY).statistic)
    assert result.uninformative.tolist() == [9]


def test_incomplete_design_reasons():
    observed = ~np.isnan(ASSEMBLY)
    design = incomplete_design(observed)
    assert not design.balanced
    assert "different numbers of estimators" in design.reason
    with pytest.raises(ValueError, match="balanced incomplete block design"):
        durbin(ASSEMBLY)
    # Equal block sizes, unequal replication.
    lopsided = np.array([[1, 2, nan], [1, 2, nan], [1, nan, 2]])
    with pytest.raises(ValueError, match="different numbers of data sets"):
        durbin(lopsided)


@pytest.mark.parametrize(
    "scores, match",
    [
        ([[0.1, np.inf], [0.2, 0.3]], "finite or NaN"),
        ([[0.1, 0.2, 0.3]], "at least 2 data sets"),
        ([[0.1, nan], [0.2, nan]], r"column\(s\) \[0, 1\]"),
        ([[0.1, 0.2, nan], [0.2, 0.1, nan], [nan, nan, 0.4]], r"column\(s\) \[2\]"),
        ([["a", "b"], ["c", "d"]], "must hold numbers"),
        ([0.1, 0.2], "2-D array"),
    ],
)
def test_bad_input_is_refused(scores, match):
    for func in (skillings_mack, skillings_mack_posthoc, durbin):
        with pytest.raises(ValueError, match=match):
            func(scores)


def test_parameters_are_checked():
    with pytest.raises(ValueError, match="tie_correction"):
        skillings_mack(ASSEMBLY, tie_correction="yes")
    with pytest.raises(ValueError, match="supports alternative"):
        skillings_mack(ASSEMBLY, alternative="greater")
    with pytest.raises(ValueError, match="control"):
        skillings_mack_posthoc(ASSEMBLY, control=7)
    with pytest.raises(ValueError, match="correction"):
        skillings_mack_posthoc(ASSEMBLY, correction="nothing")


def test_registered_as_tests_of_tables_with_holes():
    for name in ("skillings_mack", "durbin", "skillings_mack_posthoc"):
        assert name in available_tests(kind="datasets")
        assert get_entry(name).incomplete
    assert get_entry("skillings_mack").default_rank("incomplete") == 0
    assert get_entry("skillings_mack_posthoc").default_rank("incomplete_control") == 1
    assert get_entry("durbin").default_rank("incomplete") is None
    assert not get_entry("friedman").incomplete
    assert get_entry("skillings_mack_posthoc").diagram == "groups"


def test_control_family():
    result = skillings_mack_posthoc(-ASSEMBLY, control=0)
    assert result.tested[:, 0].tolist() == [False, True, True, True]
    assert result.n_comparisons == 3
    assert result.reject[3, 0]  # D (slowest) against A (fastest)
