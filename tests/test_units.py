"""The same answer in any units: every registered test across data sets and
every effect size, on decimal tables with many exact ties, under
``x -> a·x + b`` (computed in floating point) and a reordering of the
estimators (FORMULAS.md Part 4, "Ties in the user's units")."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from sklearn_bcv import available_tests, compare_scores
from sklearn_bcv.stats._effect import BOOTSTRAP_MAX_N, EFFECT_SIZE_KINDS
from sklearn_bcv.stats._registry import get_entry

DATASETS_TESTS = available_tests(kind="datasets")
#: Tests of all k estimators at once (they need the table of scores).
RANK_TESTS = [t for t in DATASETS_TESTS if "scores" in get_entry(t).needs]
#: Tests of one pair at a time, with cheap Monte Carlo settings.
PAIR_TESTS = {
    name: {}
    for name in DATASETS_TESTS
    if name not in RANK_TESTS and name != "bayesian_hierarchical"
}
PAIR_TESTS["bayesian_signed_rank"] = {"n_samples": 2000}
PAIR_TESTS["bayesian_sign"] = {"n_samples": 2000}
HIERARCHICAL = {
    "bayesian_hierarchical": {"n_samples": 400, "n_warmup": 100, "n_chains": 2}
}
#: The tests of ranks, counts and Monte Carlo on the same draws: identical.
#: The others (t and F statistics, posteriors of continuous models, and the
#: Skillings–Mack quadratic forms of ranks, a pseudo-inverse in floating
#: point) are the same up to the rounding of their arithmetic.
EXACT = {
    *RANK_TESTS,
    "wilcoxon",
    "sign",
    "bayesian_signed_rank",
    "bayesian_sign",
} - {"rm_anova", "tukey_rm", "skillings_mack", "skillings_mack_posthoc"}

#: a > 0 and b, decimal constants applied in floating point (percents,
#: shifts, both).
MAPS = [(100.0, 0.0), (1.0, 0.1), (100.0, 0.1), (0.5, -2.5), (1.7, 7.0), (0.01, 0.0)]
FIELDS = (
    "statistic",
    "pvalue",
    "pvalue_adjusted",
    "p_a_better",
    "p_rope",
    "p_b_better",
    "mean_ranks",
    "weighted_ranks",
)


def test_every_test_across_data_sets_is_covered():
    assert set(RANK_TESTS) | set(PAIR_TESTS) | set(HIERARCHICAL) == set(DATASETS_TESTS)


@st.composite
def decimal_tables(draw, max_k=4, sizes=(3, 5, 8, 14, 30)):
    """(scores, rope): decimals of 1 to 4 digits on a coarse grid (many
    exact ties, zero differences, differences equal to the rope), mean
    scores (n, k) or per-split scores (n, splits, k); the rope a decimal."""
    digits = draw(st.integers(1, 4))
    unit = 10**digits
    n = draw(st.sampled_from(sizes))
    k = draw(st.integers(2, max_k))
    shape = (n, k) if draw(st.booleans()) else (n, draw(st.integers(2, 4)), k)
    step = draw(st.sampled_from([1, 3, max(1, unit // 10)]))
    levels = draw(st.integers(2, 10))
    low = draw(st.integers(0, unit // 2))
    cells = draw(hnp.arrays(np.int64, shape, elements=st.integers(0, levels)))
    scores = (low + step * cells) / unit  # the nearest doubles to the decimals
    rope = draw(st.sampled_from([0, step, 2 * step])) / unit
    return scores, rope


def _run(scores, rope, kind, pairwise, names):
    kwargs = {"n_train": 90, "n_test": 10} if scores.ndim == 3 else {}
    if scores.ndim == 2:  # the split-aware tests need per-split scores
        pairwise = {
            t: p
            for t, p in pairwise.items()
            if "split_differences" not in get_entry(t).needs
        }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # few data sets, many pairs, ...
        return compare_scores(
            scores,
            names=names,
            tests=RANK_TESTS if pairwise is PAIR_TESTS else [],
            pairwise_tests=pairwise,
            rope=rope,
            effect_size=kind,
            random_state=0,
            **kwargs,
        )


def _transformed(scores, rope, scale_shift, order):
    a, b = scale_shift
    return (a * scores + b)[..., order], a * rope


def _assert_same(first, second, exact):
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    if exact:
        np.testing.assert_array_equal(second, first)
    else:
        np.testing.assert_allclose(second, first, rtol=1e-9, atol=1e-12)


def _assert_same_results(base, other, order, scale=1.0):
    """``other`` (estimators in ``order``, its scores times ``scale``) says
    what ``base`` says."""
    k = len(base.names)
    position = np.argsort(order)  # where each original estimator went
    cells = np.ix_(position, position)
    for group in ("tests", "pairwise"):
        for name, result in base[group].items():
            found = other[group][name]
            exact = name in EXACT
            for field in FIELDS:
                if field not in result or result[field] is None:
                    continue
                value, again = np.asarray(result[field]), np.asarray(found[field])
                if again.shape == (k, k):
                    again = again[cells]
                elif again.shape == (k,):
                    again = again[position]
                _assert_same(value, again, exact)
            if "iman_davenport" in result:
                for field in ("statistic", "pvalue"):
                    _assert_same(
                        result.iman_davenport[field], found.iman_davenport[field], exact
                    )
    _assert_same_effect_sizes(base.effect_sizes, other.effect_sizes, scale)
    _assert_same_effect_sizes(base.mean_differences, other.mean_differences, scale)


def _assert_same_effect_sizes(base, other, scale=1.0):
    if base is None:
        assert other is None
        return
    found = {(e.a, e.b): e for e in other}
    assert len(found) == len(base)
    for effect in base:
        if (effect.a, effect.b) in found:
            again, sign = found[(effect.a, effect.b)], 1.0
            low, high = again.confidence_interval
        else:  # B against A: the same effect, negated
            again, sign = found[(effect.b, effect.a)], -1.0
            high, low = (-v for v in again.confidence_interval)
        # The mean difference is in the scores' units: times the scale.
        units = scale if effect.kind == "mean_difference" else 1.0
        _assert_same(units * effect.estimate, sign * again.estimate, False)
        _assert_same(units * np.asarray(effect.confidence_interval), (low, high), False)
        assert effect.note == again.note and effect.magnitude == again.magnitude


@settings(deadline=None, max_examples=max(10, settings.default.max_examples // 3))
@given(
    table=decimal_tables(),
    scale_shift=st.sampled_from(MAPS),
    kind=st.sampled_from(EFFECT_SIZE_KINDS),
    data=st.data(),
)
def test_every_test_and_effect_size_is_the_same_in_any_units_and_order(
    table, scale_shift, kind, data
):
    scores, rope = table
    k = scores.shape[-1]
    names = [f"e{j}" for j in range(k)]
    order = np.array(data.draw(st.permutations(range(k))))
    base = _run(scores, rope, kind, PAIR_TESTS, names)
    moved, moved_rope = _transformed(scores, rope, scale_shift, order)
    other = _run(moved, moved_rope, kind, PAIR_TESTS, [names[j] for j in order])
    np.testing.assert_array_equal(other.ranks[:, np.argsort(order)], base.ranks)
    _assert_same_results(base, other, order, scale_shift[0])


@settings(deadline=None, max_examples=max(4, settings.default.max_examples // 10))
@given(
    table=decimal_tables(max_k=3, sizes=(3, 6)),
    scale_shift=st.sampled_from(MAPS),
    data=st.data(),
)
def test_the_hierarchical_test_is_the_same_in_any_units_and_order(
    table, scale_shift, data
):
    scores, rope = table
    if scores.ndim == 2:
        scores = np.stack([scores, scores[::-1]], axis=1)  # two splits
    k = scores.shape[-1]
    names = [f"e{j}" for j in range(k)]
    order = np.array(data.draw(st.permutations(range(k))))
    base = _run(scores, rope, False, HIERARCHICAL, names)
    moved, moved_rope = _transformed(scores, rope, scale_shift, order)
    other = _run(moved, moved_rope, False, HIERARCHICAL, [names[j] for j in order])
    _assert_same_results(base, other, order)


@pytest.mark.parametrize("kind", EFFECT_SIZE_KINDS)
def test_asymptotic_effect_sizes_are_the_same_in_any_units(kind):
    rng = np.random.default_rng(0)
    n = BOOTSTRAP_MAX_N + 500
    scores = rng.integers(60, 95, size=(n, 3)) / 100  # two decimals, ties
    base = compare_scores(scores, tests=[], pairwise_tests=[], effect_size=kind)
    order = np.array([2, 0, 1])
    other = compare_scores(
        (100 * scores + 0.1)[:, order],
        names=[base.names[j] for j in order],
        tests=[],
        pairwise_tests=[],
        effect_size=kind,
    )
    assert all("asymptotic" in e.note for e in base.effect_sizes)
    _assert_same_effect_sizes(base.effect_sizes, other.effect_sizes, 100.0)


def test_auto_path_is_the_same_in_any_units():
    rng = np.random.default_rng(1)
    scores = rng.integers(70, 90, size=(12, 4)) / 100
    base = compare_scores(scores, tests="auto")
    other = compare_scores(100 * scores + 0.1, tests="auto")
    assert base.auto.path == other.auto.path
    assert base.auto.reason == other.auto.reason


def test_differences_that_cancel_give_t_zero_in_any_units():
    # 0.0001 - 0.0002 + 0.0001 = 0 in the decimals: the paired t test across
    # data sets says 0 (its rounding residue was 2.7e-16 in these units and
    # 3e-12 after 0.5·x − 2.5; found by the property test above).
    from sklearn_bcv.stats import paired_t_datasets

    scores = np.array([[0.0003, 0.0002], [0.0, 0.0002], [0.0002, 0.0001]])
    for a, b in MAPS:
        moved = a * scores + b
        d = moved[:, 0] - moved[:, 1]
        result = paired_t_datasets(d, score_scale=np.abs(moved).max(axis=1))
        assert result.statistic == 0.0 and result.mean_difference == 0.0
        assert result.pvalue == 1.0
