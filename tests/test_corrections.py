"""Tests of adjust_pvalues (multiplicity corrections, FORMULAS.md Part 2)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sklearn_bcv.stats import adjust_pvalues

pytestmark = pytest.mark.filterwarnings("error")

CORRECTIONS = ["holm", "bonferroni", "hochberg", "fdr_bh"]
# statsmodels' names of the same procedures.
STATSMODELS = {
    "holm": "holm",
    "bonferroni": "bonferroni",
    "hochberg": "simes-hochberg",
    "fdr_bh": "fdr_bh",
}

# p-values with ties: a few round values, and any value in [0, 1].
pvalue = st.sampled_from([0.0, 0.001, 0.01, 0.02, 0.05, 0.2, 0.5, 1.0]) | st.floats(
    0.0, 1.0
)
families = st.lists(pvalue, min_size=1, max_size=12).map(np.array)


# --------------------------------------------------------------------------
# Hand-derived values
# --------------------------------------------------------------------------

# M = 4, p = (0.01, 0.04, 0.03, 0.005); sorted 0.005 < 0.01 < 0.03 < 0.04.
HAND_P = [0.01, 0.04, 0.03, 0.005]


def test_bonferroni_by_hand():
    # min(1, 4 p)
    np.testing.assert_allclose(
        adjust_pvalues(HAND_P, "bonferroni"), [0.04, 0.16, 0.12, 0.02]
    )
    np.testing.assert_allclose(adjust_pvalues([0.3, 0.6], "bonferroni"), [0.6, 1.0])


def test_holm_by_hand():
    # (M - j + 1) p_(j) = 4·0.005, 3·0.01, 2·0.03, 1·0.04 = 0.02, 0.03, 0.06,
    # 0.04; running maximum: 0.02, 0.03, 0.06, 0.06; back in input order.
    np.testing.assert_allclose(adjust_pvalues(HAND_P, "holm"), [0.03, 0.06, 0.06, 0.02])


def test_hochberg_by_hand():
    # Same products 0.02, 0.03, 0.06, 0.04; running minimum from the largest:
    # 0.02, 0.03, 0.04, 0.04.
    np.testing.assert_allclose(
        adjust_pvalues(HAND_P, "hochberg"), [0.03, 0.04, 0.04, 0.02]
    )


def test_fdr_bh_by_hand():
    # M p_(j) / j = 0.02, 0.02, 0.04, 0.04; running minimum from the largest
    # leaves them unchanged.
    np.testing.assert_allclose(
        adjust_pvalues(HAND_P, "fdr_bh"), [0.02, 0.04, 0.04, 0.02]
    )


def test_holm_caps_at_one_and_keeps_the_running_maximum():
    # 3·0.2 = 0.6, 2·0.6 = 1.2 -> 1, 1·0.7 = 0.7 -> max(1, 0.7) = 1.
    np.testing.assert_allclose(adjust_pvalues([0.7, 0.2, 0.6], "holm"), [1, 0.6, 1])


def test_no_correction_returns_a_copy():
    p = np.array(HAND_P)
    adjusted = adjust_pvalues(p, None)
    np.testing.assert_array_equal(adjusted, p)
    adjusted[0] = 1.0
    assert p[0] == 0.01


@pytest.mark.parametrize("correction", [*CORRECTIONS, None])
def test_single_and_empty_families(correction):
    np.testing.assert_array_equal(adjust_pvalues([0.03], correction), [0.03])
    assert adjust_pvalues([], correction).shape == (0,)


def test_default_is_holm():
    np.testing.assert_array_equal(
        adjust_pvalues(HAND_P), adjust_pvalues(HAND_P, "holm")
    )


def test_ties_get_equal_adjusted_values():
    for correction in CORRECTIONS:
        adjusted = adjust_pvalues([0.01, 0.02, 0.01, 0.02, 0.5], correction)
        assert adjusted[0] == adjusted[2] and adjusted[1] == adjusted[3]


# --------------------------------------------------------------------------
# statsmodels
# --------------------------------------------------------------------------


@pytest.mark.parametrize("correction", CORRECTIONS)
def test_agrees_with_statsmodels_multipletests(correction, rng):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    # statsmodels runs gc.collect() on every call: keep the family count low.
    for size in (1, 2, 3, 5, 8, 13, 21):
        for ties in (False, True):
            if ties:  # few distinct values, so many ties
                p = rng.choice([0.001, 0.01, 0.03, 0.04, 0.2, 1.0], size)
            else:
                p = rng.random(size) ** 3
            expected = multitest.multipletests(p, method=STATSMODELS[correction])[1]
            np.testing.assert_allclose(
                adjust_pvalues(p, correction), expected, rtol=1e-12, atol=0
            )


# --------------------------------------------------------------------------
# Invariants (hypothesis)
# --------------------------------------------------------------------------


@given(p=families, correction=st.sampled_from(CORRECTIONS))
def test_adjusted_between_raw_and_one(p, correction):
    adjusted = adjust_pvalues(p, correction)
    assert adjusted.shape == p.shape
    assert np.all(adjusted >= p)
    assert np.all(adjusted <= 1.0)


@given(p=families, correction=st.sampled_from(CORRECTIONS))
def test_order_preserving(p, correction):
    adjusted = adjust_pvalues(p, correction)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(adjusted[order]) >= 0)


@given(p=families, data=st.data(), correction=st.sampled_from(CORRECTIONS))
def test_permutation_equivariant(p, data, correction):
    permutation = np.array(data.draw(st.permutations(range(p.size))))
    np.testing.assert_array_equal(
        adjust_pvalues(p[permutation], correction),
        adjust_pvalues(p, correction)[permutation],
    )


@given(p=families)
def test_ordering_of_the_procedures(p):
    # fdr_bh <= hochberg <= holm <= bonferroni, elementwise: M/j <= M - j + 1
    # for 1 <= j <= M ((j - 1)(M - j) >= 0), and a step-up procedure gives
    # at most the step-down one on the same products.
    bonferroni = adjust_pvalues(p, "bonferroni")
    holm = adjust_pvalues(p, "holm")
    hochberg = adjust_pvalues(p, "hochberg")
    fdr_bh = adjust_pvalues(p, "fdr_bh")
    tolerance = 1e-12
    assert np.all(holm <= bonferroni + tolerance)
    assert np.all(hochberg <= holm + tolerance)
    assert np.all(fdr_bh <= hochberg + tolerance)


@given(p=families, alpha=st.floats(0.001, 0.2))
def test_holm_rejects_something_iff_bonferroni_does(p, alpha):
    # Holm's first step is Bonferroni's test of the smallest p-value.
    assert np.any(adjust_pvalues(p, "holm") < alpha) == np.any(
        adjust_pvalues(p, "bonferroni") < alpha
    )


# --------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pvalues",
    [[0.1, np.nan], [0.1, 1.1], [-0.01, 0.5], [[0.1, 0.2], [0.3, 2.0]], 0.3, None],
    ids=["nan", "above one", "negative", "2-D above one", "scalar", "None"],
)
def test_bad_pvalues(pvalues):
    with pytest.raises(
        ValueError,
        match=r"pvalues must be a 1-D array .* of probabilities in \[0, 1\]",
    ):
        adjust_pvalues(pvalues, "holm")


@pytest.mark.parametrize("correction", ["sidak", "Holm", "", True, 1])
def test_bad_correction(correction):
    with pytest.raises(
        ValueError,
        match=r"correction must be None or one of \['holm', 'bonferroni', "
        r"'hochberg', 'fdr_bh'\]; got",
    ):
        adjust_pvalues([0.01, 0.2], correction)


@pytest.mark.parametrize(
    "pvalues", [["0.01", "a"], [True, False], [[0.1, 0.2], [0.3]], 0.5, [0.1, np.nan]]
)
def test_non_probabilities_get_the_clear_message(pvalues):
    with pytest.raises(ValueError, match="pvalues must be a 1-D array"):
        adjust_pvalues(pvalues, "holm")


pvalue = st.sampled_from([0.0, 0.001, 0.01, 0.02, 0.05, 0.5, 1.0]) | st.floats(0, 1)


@given(
    rows=st.integers(1, 5).flatmap(
        lambda m: st.lists(st.lists(pvalue, min_size=m, max_size=m), min_size=1,
                           max_size=6)
    ),
    correction=st.sampled_from(["holm", "bonferroni", "hochberg", "fdr_bh", None]),
)  # fmt: skip
def test_families_along_the_last_axis_are_adjusted_row_by_row(rows, correction):
    p = np.array(rows)
    adjusted = adjust_pvalues(p, correction)
    for row, expected in zip(adjusted, p):
        np.testing.assert_allclose(
            row, adjust_pvalues(expected, correction), rtol=1e-12, atol=0
        )
