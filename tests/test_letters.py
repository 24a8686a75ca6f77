"""Tests of the groups and the compact letter display of a post hoc family
(sklearn_bcv._results._letters)."""

from itertools import combinations

import numpy as np
import pytest
from _demsar import DEMSAR_AUC  # noqa: E402  (tests/ is on sys.path)
from hypothesis import given
from hypothesis import strategies as st

from sklearn_bcv import compact_letters, compare_scores
from sklearn_bcv._results._letters import maximal_groups
from sklearn_bcv.stats import friedman_posthoc

pytestmark = pytest.mark.filterwarnings("error")

NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]


@st.composite
def reject_matrices(draw):
    k = draw(st.integers(1, 7))
    upper = draw(st.lists(st.booleans(), min_size=k * k, max_size=k * k))
    reject = np.triu(np.array(upper, dtype=bool).reshape(k, k), 1)
    return reject | reject.T


@given(reject=reject_matrices())
def test_maximal_groups_are_the_maximal_cliques(reject):
    k = len(reject)
    groups = maximal_groups(reject)
    # Brute force: every subset none of whose pairs is rejected, maximal.
    cliques = [
        set(s)
        for size in range(1, k + 1)
        for s in combinations(range(k), size)
        if not any(reject[a, b] for a, b in combinations(s, 2))
    ]
    maximal = {frozenset(c) for c in cliques if not any(c < d for d in cliques)}
    assert {frozenset(g) for g in groups} == maximal
    assert len(groups) == len(maximal)


@given(reject=reject_matrices())
def test_sharing_a_letter_is_not_differing(reject):
    k = len(reject)
    groups = maximal_groups(reject)
    letters = {i: {n for n, g in enumerate(groups) if i in g} for i in range(k)}
    for a, b in combinations(range(k), 2):
        assert bool(letters[a] & letters[b]) == (not reject[a, b])
    assert all(letters[i] for i in range(k))


def test_demsar_letters_at_010():
    # Nemenyi (with its continuity correction) at alpha = 0.10 separates
    # only C4.5+m+cf from C4.5.
    result = compare_scores(DEMSAR_AUC, names=NAMES, alpha=0.10, pairwise_tests=[])
    assert compact_letters(result) == {
        "C4.5": "b",
        "C4.5+m": "ab",
        "C4.5+cf": "ab",
        "C4.5+m+cf": "a",
    }
    # At 0.05 nothing differs: one letter.
    assert set(compact_letters(result, alpha=0.05).values()) == {"a"}


def test_letters_of_a_family_that_ran_and_of_one_run_again():
    result = compare_scores(
        DEMSAR_AUC,
        names=NAMES,
        tests={"friedman_posthoc": {"correction": "hommel"}},
        pairwise_tests=[],
    )
    for alpha in (None, 0.2, 0.3):
        letters = compact_letters(result, "friedman_posthoc", alpha=alpha)
        reject = friedman_posthoc(
            DEMSAR_AUC, alpha=0.05 if alpha is None else alpha, correction="hommel"
        ).reject
        for a, b in combinations(range(4), 2):
            shared = bool(set(letters[NAMES[a]]) & set(letters[NAMES[b]]))
            assert shared == (not reject[a, b])


def test_compact_letters_refuses_a_control_family_and_other_tests():
    result = compare_scores(
        DEMSAR_AUC, names=NAMES, control="C4.5", tests=["holm"], pairwise_tests=[]
    )
    with pytest.raises(ValueError, match="needs a family of all pairs"):
        compact_letters(result, "holm")
    with pytest.raises(ValueError, match="test must be one of"):
        compact_letters(result, "wilcoxon")
    with pytest.raises(ValueError, match="benchmark or compare_scores"):
        compact_letters({"names": NAMES}, "holm")


def test_many_letters():
    from sklearn_bcv._results._letters import _letter

    assert [_letter(i) for i in (0, 1, 25, 26, 27)] == ["a", "b", "z", "aa", "ab"]
