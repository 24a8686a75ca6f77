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
        r"'hochberg', 'fdr_bh', 'hommel', .*'bergmann'\]; got",
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


# --------------------------------------------------------------------------
# Part 3: hommel, finner, li, holland, rom, shaffer, bergmann
# --------------------------------------------------------------------------

NEW = ["hommel", "finner", "li", "holland", "rom"]
PAIRS = ["shaffer", "bergmann"]


def _pair_families(max_k=5):
    """All-pairs families: k(k - 1)/2 p-values for k in 2..max_k."""
    return st.integers(2, max_k).flatmap(
        lambda k: st.lists(
            pvalue, min_size=k * (k - 1) // 2, max_size=k * (k - 1) // 2
        ).map(np.array)
    )


def test_finner_holland_li_by_hand():
    # HAND_P sorted: 0.005, 0.01, 0.03, 0.04 (M = 4).
    finner = [1 - (1 - 0.005) ** 4, 1 - (1 - 0.01) ** 2, 1 - (1 - 0.03) ** (4 / 3)]
    finner = np.maximum.accumulate(finner + [0.04])
    np.testing.assert_allclose(
        adjust_pvalues(HAND_P, "finner"), finner[[1, 3, 2, 0]], rtol=1e-12
    )
    holland = [1 - (1 - 0.005) ** 4, 1 - (1 - 0.01) ** 3, 1 - (1 - 0.03) ** 2, 0.04]
    holland = np.maximum.accumulate(holland)
    np.testing.assert_allclose(
        adjust_pvalues(HAND_P, "holland"), holland[[1, 3, 2, 0]], rtol=1e-12
    )
    li = [0.01 / 0.97, 0.04, 0.03 / 0.99, 0.005 / 0.965]
    np.testing.assert_allclose(adjust_pvalues(HAND_P, "li"), li, rtol=1e-12)


def test_rom_constants_are_roms_table():
    # Rom (1990), Table 1, alpha = 0.05: 0.05, 0.025, 0.0169, 0.0127, 0.0102.
    from sklearn_bcv.stats._corrections import rom_constants

    np.testing.assert_allclose(
        rom_constants(5, 0.05)[::-1], [0.05, 0.025, 0.0169, 0.0127, 0.0102], atol=6e-5
    )
    # c_3 by hand: (alpha + alpha^2 - 3 (alpha/2)^2) / 3.
    assert rom_constants(3, 0.05)[0] == pytest.approx((0.05 + 0.0025 - 0.001875) / 3)


def test_rom_by_hand_is_step_up():
    # Sorted 0.01, 0.03, 0.04 with c = (0.016875, 0.025, 0.05): the products
    # alpha/c·p are 0.0296, 0.06, 0.04; step-up takes the minimum from the
    # top, so the second becomes 0.04 (scmamp's running maximum would keep
    # 0.06 and reject nothing but the first at 0.05).
    adjusted = adjust_pvalues([0.01, 0.04, 0.03], "rom", alpha=0.05)
    np.testing.assert_allclose(adjusted, [0.05 / 0.016875 * 0.01, 0.04, 0.04])


@given(p=families, alpha=st.sampled_from([0.01, 0.05, 0.1]))
def test_rom_decisions_are_roms_procedure(p, alpha):
    from sklearn_bcv.stats._corrections import rom_constants

    m = p.size
    ordered = np.sort(p)
    constants = rom_constants(m, alpha) if m > 1 else np.array([alpha])
    # Rom's step-up: reject H_(1..i) for the largest i with p_(i) <= c_i.
    passing = np.flatnonzero(ordered <= constants)
    n_rejected = passing[-1] + 1 if passing.size else 0
    adjusted = np.sort(adjust_pvalues(p, "rom", alpha=alpha))
    # The adjusted p-values reach alpha exactly where Rom's test does.
    assert np.sum(adjusted <= alpha * (1 + 1e-12)) == n_rejected


@pytest.mark.parametrize(
    "k, expected",
    [
        (3, [3, 1, 1]),
        (4, [6, 3, 3, 3, 2, 1]),
        (5, [10, 6, 6, 6, 6, 4, 4, 3, 2, 1]),
    ],
)
def test_shaffer_multipliers(k, expected):
    from sklearn_bcv.stats._corrections import shaffer_multipliers

    assert shaffer_multipliers(k).tolist() == expected


@pytest.mark.parametrize("k", range(2, 8))
def test_shaffer_counts_are_the_sizes_of_the_exhaustive_sets(k):
    # Two independent computations: Shaffer's recursion S(k) and the sizes
    # of the exhaustive sets enumerated from the partitions.
    from sklearn_bcv.stats._corrections import _true_counts, exhaustive_sets

    sizes = set(exhaustive_sets(k).sum(axis=1).tolist()) | {0}
    assert sizes == set(_true_counts(k))


@pytest.mark.parametrize("k, bell", [(2, 2), (3, 5), (4, 15), (5, 52), (9, 21147)])
def test_exhaustive_sets_count_the_partitions(k, bell):
    from sklearn_bcv.stats._corrections import exhaustive_sets

    sets = exhaustive_sets(k)
    assert len(sets) == bell - 1  # the partition into singletons is empty
    assert len(np.unique(sets, axis=0)) == len(sets)


def _partitions(items):
    """Every partition of ``items`` (a list), recursively."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def _bergmann_brute_force(p, k):
    from itertools import combinations

    pairs = list(combinations(range(k), 2))
    adjusted = np.zeros(len(pairs))
    for partition in _partitions(list(range(k))):
        members = [
            i
            for i, (a, b) in enumerate(pairs)
            if any(a in block and b in block for block in partition)
        ]
        if members:
            value = len(members) * min(p[i] for i in members)
            for i in members:
                adjusted[i] = max(adjusted[i], value)
    return np.minimum(adjusted, 1.0)


@given(p=_pair_families(5))
def test_bergmann_is_its_definition(p):
    k = int(round((1 + np.sqrt(1 + 8 * p.size)) / 2))
    np.testing.assert_allclose(
        adjust_pvalues(p, "bergmann"), _bergmann_brute_force(p, k), rtol=1e-12
    )


@given(p=_pair_families(3))
def test_bergmann_equals_shaffer_for_three_estimators(p):
    # k = 3: the exhaustive sets are one pair or all three, so both give
    # max(p_h, 3·p_(1)).
    np.testing.assert_allclose(
        adjust_pvalues(p, "bergmann"), adjust_pvalues(p, "shaffer"), rtol=1e-12
    )


@given(p=_pair_families(5), data=st.data())
def test_bergmann_follows_the_pairs(p, data):
    from itertools import combinations

    k = int(round((1 + np.sqrt(1 + 8 * p.size)) / 2))
    pairs = list(combinations(range(k), 2))
    permutation = np.array(data.draw(st.permutations(range(p.size))))
    shuffled = [pairs[i][::-1] if i % 2 else pairs[i] for i in permutation]
    np.testing.assert_allclose(
        adjust_pvalues(p[permutation], "bergmann", pairs=shuffled),
        adjust_pvalues(p, "bergmann")[permutation],
        rtol=1e-12,
    )


@given(p=_pair_families(6))
def test_the_all_pairs_ordering(p):
    # García & Herrera (2008): Bergmann–Hommel <= Shaffer <= Holm <= Nemenyi
    # style Bonferroni, elementwise on the adjusted p-values.
    bergmann = adjust_pvalues(p, "bergmann")
    shaffer = adjust_pvalues(p, "shaffer")
    holm = adjust_pvalues(p, "holm")
    tolerance = 1e-12
    assert np.all(bergmann <= shaffer + tolerance)
    assert np.all(shaffer <= holm + tolerance)


@given(p=families)
def test_the_new_procedures_against_holm_and_hochberg(p):
    holm = adjust_pvalues(p, "holm")
    hochberg = adjust_pvalues(p, "hochberg")
    tolerance = 1e-12
    assert np.all(adjust_pvalues(p, "finner") <= holm + tolerance)
    assert np.all(adjust_pvalues(p, "holland") <= holm + tolerance)
    assert np.all(adjust_pvalues(p, "hommel") <= hochberg + tolerance)
    assert np.all(adjust_pvalues(p, "rom") <= hochberg + tolerance)


@given(p=families, correction=st.sampled_from(NEW))
def test_new_adjusted_between_raw_and_one_and_order_preserving(p, correction):
    adjusted = adjust_pvalues(p, correction)
    assert np.all(adjusted >= p - 1e-15)
    assert np.all(adjusted <= 1.0)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(adjusted[order]) >= -1e-15)


@given(p=_pair_families(5), correction=st.sampled_from(PAIRS))
def test_pair_procedures_between_raw_and_one(p, correction):
    adjusted = adjust_pvalues(p, correction)
    assert np.all(adjusted >= p)
    assert np.all(adjusted <= 1.0)


@given(
    rows=st.integers(1, 4).flatmap(
        lambda k: st.lists(
            st.lists(pvalue, min_size=k * (k + 1) // 2, max_size=k * (k + 1) // 2),
            min_size=1, max_size=4,
        )
    ),
    correction=st.sampled_from(NEW + PAIRS),
)  # fmt: skip
def test_new_families_along_the_last_axis(rows, correction):
    p = np.array(rows)
    adjusted = adjust_pvalues(p, correction)
    for row, expected in zip(adjusted, p):
        np.testing.assert_allclose(
            row, adjust_pvalues(expected, correction), rtol=1e-12, atol=0
        )


def test_hommel_agrees_with_statsmodels(rng):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    for m in (2, 3, 5, 10, 36):
        for _ in range(20):
            p = rng.uniform(size=m) ** 3
            np.testing.assert_allclose(
                adjust_pvalues(p, "hommel"),
                multitest.multipletests(p, method="hommel")[1],
                rtol=1e-10,
            )


@pytest.mark.parametrize("correction", PAIRS)
def test_pair_procedures_refuse_other_families(correction):
    with pytest.raises(ValueError, match="all k\\(k - 1\\)/2 pairs"):
        adjust_pvalues([0.01, 0.2, 0.3, 0.4], correction)
    with pytest.raises(ValueError, match="pairs must list each"):
        adjust_pvalues([0.01, 0.2, 0.3], correction, pairs=[(0, 1), (0, 1), (1, 2)])


def test_bergmann_refuses_ten_estimators_naming_shaffer():
    with pytest.raises(ValueError, match="k <= 9; got k = 10.*shaffer"):
        adjust_pvalues(np.full(45, 0.5), "bergmann")
    assert adjust_pvalues(np.full(45, 0.5), "shaffer").shape == (45,)


def test_rom_checks_alpha():
    with pytest.raises(ValueError, match="alpha"):
        adjust_pvalues([0.01, 0.2], "rom", alpha=1.5)
