"""sklearn_bcv.stats.effect_size: hand values, errors, degenerate samples,
invariants."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from sklearn_bcv.stats import effect_size
from sklearn_bcv.stats._effect import (
    _KINDS,
    BOOTSTRAP_MAX_N,
    EFFECT_SIZE_KINDS,
    _loo_median_mad,
    magnitude,
    pairwise_effect_sizes,
)

KINDS = list(EFFECT_SIZE_KINDS)


def test_cohen_dz_by_hand_and_from_the_paired_t_statistic():
    a = np.array([0.80, 0.85, 0.90, 0.82, 0.88])
    b = np.array([0.78, 0.80, 0.86, 0.81, 0.83])
    d = a - b  # 0.02, 0.05, 0.04, 0.01, 0.05: mean 0.034, sd 0.018166
    result = effect_size(a, b, random_state=0)
    assert result.estimate == pytest.approx(0.034 / np.sqrt(0.00033))
    # Independent route: d_z = t / sqrt(n) of the paired t test.
    t = stats.ttest_rel(a, b).statistic
    assert result.estimate == pytest.approx(t / np.sqrt(5))
    assert result.kind == "cohen_dz" and result.n == 5 and result.note is None
    assert result.magnitude == "large"
    assert result.estimate == pytest.approx(d.mean() / d.std(ddof=1))


def test_cohen_d_by_hand():
    # Means 2 and 1, variances 1 and 3: s_p = sqrt((1 + 3) / 2) = sqrt(2).
    result = effect_size([1, 2, 3], [0, 0, 3], kind="cohen_d", random_state=0)
    assert result.estimate == pytest.approx(1 / np.sqrt(2))
    assert result.magnitude == "medium"


def test_cliff_delta_by_hand_and_by_the_sign_matrix():
    rng = np.random.default_rng(4)
    a, b = np.round(rng.normal(size=(2, 30)), 1)  # many ties
    signs = np.sign(a[:, None] - b[None, :]).sum() / 900
    assert effect_size(a, b, kind="cliff_delta", n_resamples=9).estimate == signs


def test_cliff_delta_by_hand():
    # a_i > b_j in 7 of the 9 pairs, a_i < b_j in 1 (3 < 4), one tie (4 = 4).
    result = effect_size([3, 4, 5], [1, 4, 2], kind="cliff_delta", random_state=0)
    assert result.estimate == pytest.approx(6 / 9)
    assert result.magnitude == "large"


def test_akinshin_gamma_by_hand():
    # Medians 3 and 1; MAD of both 1.4826 * 1.
    result = effect_size(
        [1, 2, 3, 4, 5], [0, 0, 1, 2, 2], kind="akinshin_gamma", random_state=0
    )
    assert result.estimate == pytest.approx(2 / 1.4826)


def test_autorank_table_a_check_value_if_autorank_is_installed():
    # FORMULAS.md's check (autorank's table A, cohen_d = 1.339933): the
    # table itself could not be found here, so the check is run against
    # autorank's own function on a table of ours when autorank is present.
    autorank_util = pytest.importorskip("autorank._util")
    rng = np.random.default_rng(3)
    a, b = rng.normal(1.0, 1.0, 20), rng.normal(0.0, 1.5, 20)
    ours = effect_size(a, b, kind="cohen_d", n_resamples=9).estimate
    assert ours == pytest.approx(autorank_util._cohen_d(a, b))


@pytest.mark.parametrize(
    "value, kind, expected",
    [
        (0.19, "cohen_d", "negligible"),
        (0.2, "cohen_d", "small"),
        (-0.5, "cohen_dz", "medium"),
        (0.8, "akinshin_gamma", "large"),
        (0.146, "cliff_delta", "negligible"),
        (0.147, "cliff_delta", "small"),
        (-0.33, "cliff_delta", "medium"),
        (0.474, "cliff_delta", "large"),
    ],
)
def test_magnitude_thresholds(value, kind, expected):
    assert magnitude(value, kind) == expected


@pytest.mark.parametrize("kind", KINDS)
def test_interval_brackets_the_estimate_and_is_reproducible(kind):
    rng = np.random.default_rng(0)
    a = rng.normal(0.8, 0.05, 25)
    b = a - rng.normal(0.02, 0.03, 25)
    one = effect_size(a, b, kind=kind, random_state=1, n_resamples=1999)
    two = effect_size(a, b, kind=kind, random_state=1, n_resamples=1999)
    assert one == two
    low, high = one.confidence_interval
    assert low <= one.estimate <= high
    wider = effect_size(
        a, b, kind=kind, random_state=1, n_resamples=1999, confidence_level=0.99
    )
    assert wider.confidence_interval[0] <= low and high <= wider.confidence_interval[1]
    assert one.confidence_level == 0.95


@pytest.mark.parametrize("kind", KINDS)
def test_a_clear_winner_has_a_positive_interval(kind):
    a = np.linspace(0.80, 0.90, 15)
    b = a - np.linspace(0.03, 0.06, 15)[::-1] - 0.02
    result = effect_size(a, b, kind=kind, random_state=0, n_resamples=999)
    assert result.estimate > 0 and result.confidence_interval[0] > 0


def test_degenerate_sample_gets_the_point_and_a_note():
    same = effect_size([0.5, 0.6, 0.7], [0.5, 0.6, 0.7])
    assert same.estimate == 0.0 and same.confidence_interval == (0.0, 0.0)
    assert "degenerate" in same.note
    shifted = effect_size([0.75, 1.0, 1.25], [0.5, 0.75, 1.0])  # d = 0.25 exactly
    assert shifted.estimate == np.inf
    assert shifted.confidence_interval == (np.inf, np.inf)
    for kind in KINDS:
        same = effect_size([0.5, 0.6, 0.7], [0.5, 0.6, 0.7], kind=kind)
        assert same.confidence_interval == (0.0, 0.0) and "degenerate" in same.note
    constant = effect_size([1, 1, 1], [0, 0, 0], kind="cliff_delta")
    assert constant.estimate == 1.0 and constant.confidence_interval == (1.0, 1.0)


def test_zero_spread_resamples_give_a_percentile_interval_with_a_note():
    a = [0.80, 0.85, 0.90, 0.82, 0.88]
    b = [0.78, 0.80, 0.86, 0.81, 0.83]
    result = effect_size(a, b, kind="akinshin_gamma", random_state=0)
    assert "percentile" in result.note
    assert result.confidence_interval[1] == np.inf


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(a=[1, 2, 3], b=[1, 2]), "same length"),
        (dict(a=[1], b=[2]), "at least 2"),
        (dict(a=[1, np.nan], b=[1, 2]), "a must be finite"),
        (dict(a=[1, 2], b=[1, np.inf]), "b must be finite"),
        (dict(a=[[1, 2]], b=[[1, 2]]), "1-d"),
        (dict(a=[1, 2], b=[1, 2], kind="hedges_g"), "kind"),
        (dict(a=[1, 2], b=[1, 2], confidence_level=1.0), "confidence_level"),
        (dict(a=[1, 2], b=[1, 2], n_resamples=0), "n_resamples"),
    ],
)
def test_bad_input_names_the_argument(kwargs, match):
    with pytest.raises(ValueError, match=match):
        effect_size(**kwargs)


# The four statistics as written in FORMULAS.md, on one resample.
def _plain(kind, a, b):
    if kind == "mean_difference":
        return np.mean(a - b)
    if kind == "cohen_dz":
        d = a - b
        return d.mean() / d.std(ddof=1)
    if kind == "cohen_d":
        return (a.mean() - b.mean()) / np.sqrt((a.var(ddof=1) + b.var(ddof=1)) / 2)
    if kind == "cliff_delta":  # the n x n signs, counted by sorting
        below = np.searchsorted(np.sort(b), a, side="left")
        above = a.size - np.searchsorted(np.sort(b), a, side="right")
        return (below - above).sum() / a.size**2

    def mad(x):
        return 1.4826 * np.median(np.abs(x - np.median(x)))

    return (np.median(a) - np.median(b)) / np.sqrt((mad(a) ** 2 + mad(b) ** 2) / 2)


@pytest.mark.parametrize("kind", KINDS)
def test_batched_resamples_equal_the_plain_statistic(kind):
    # All pairs of a 4-column table at once, resampled with one index array:
    # each resample's value is the plain statistic of that resample (Cliff's
    # by counts and prefix sums, never the n x n matrix).
    rng = np.random.default_rng(2)
    table = rng.normal(size=(12, 4))
    pairs = [(0, 1), (0, 3), (2, 1), (3, 2)]
    statistic = _KINDS[kind](table, pairs, 0.0)
    idx = rng.integers(0, 12, (7, 12))
    batch = statistic.resampled(idx)
    assert batch.shape == (4, 7)
    for p, (i, j) in enumerate(pairs):
        loop = [_plain(kind, table[row, i], table[row, j]) for row in idx]
        np.testing.assert_allclose(batch[p], loop, rtol=1e-12)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", [2, 3, 8, 13])
def test_closed_form_jackknife_equals_leaving_each_pair_out(kind, n):
    rng = np.random.default_rng(n)
    table = np.round(rng.normal(size=(n, 2)), 1)  # ties
    table[0] = table[1]  # a tied pair
    statistic = _KINDS[kind](table, [(0, 1)], 0.0)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # n = 2: ddof 1 of one
        expected = [
            _plain(kind, np.delete(table[:, 0], i), np.delete(table[:, 1], i))
            for i in range(n)
        ]
        found = statistic.jackknife(0)
    if n == 2 and kind in ("cohen_dz", "cohen_d"):  # one value: no variance
        assert not np.any(np.isfinite(found))
        return
    finite = np.isfinite(expected)
    np.testing.assert_allclose(found[finite], np.array(expected)[finite], rtol=1e-9)


def test_leave_one_out_medians_and_mads_by_brute_force():
    rng = np.random.default_rng(0)
    for n in range(2, 12):
        x = np.round(rng.normal(size=n), 1)
        centers, mads = _loo_median_mad(x)
        for i in range(n):
            rest = np.delete(x, i)
            assert centers[i] == np.median(rest)
            mad = 1.4826 * np.median(np.abs(rest - np.median(rest)))
            assert mads[i] == pytest.approx(mad, rel=1e-12, abs=1e-15)


def _statistic(kind):
    def statistic(a, b, axis=-1):
        a, b = np.moveaxis(a, axis, -1), np.moveaxis(b, axis, -1)
        out = np.empty(a.shape[:-1])
        for index in np.ndindex(out.shape):
            out[index] = _plain(kind, a[index], b[index])
        return out

    return statistic


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", [15, 40])
def test_interval_is_scipys_bca_bootstrap(kind, n):
    # Two independent computations: scipy.stats.bootstrap with the plain
    # statistic, and the batched bootstrap with the closed-form jackknife.
    rng = np.random.default_rng(n)
    a = rng.normal(0.8, 0.05, n)
    b = a - rng.normal(0.01, 0.03, n)
    theirs = stats.bootstrap(
        (a, b),
        _statistic(kind),
        paired=True,
        vectorized=True,
        n_resamples=999,
        method="BCa",
        random_state=3,
    )
    ours = effect_size(a, b, kind=kind, n_resamples=999, random_state=3)
    assert ours.note is None
    np.testing.assert_allclose(
        ours.confidence_interval, theirs.confidence_interval, rtol=1e-12, atol=1e-15
    )


@pytest.mark.parametrize("kind", KINDS)
def test_above_the_bootstrap_limit_the_interval_is_asymptotic(kind):
    rng = np.random.default_rng(1)
    n = BOOTSTRAP_MAX_N + 1
    a = rng.normal(0.8, 0.05, n)
    b = a - rng.normal(0.004, 0.03, n)
    result = effect_size(a, b, kind=kind, random_state=0)
    assert "asymptotic" in result.note and "not the bootstrap" in result.note
    low, high = result.confidence_interval
    assert low < result.estimate < high
    # Its half-width is that of a bootstrap (the standard error of 300
    # resamples) within 15 %.
    idx = np.random.default_rng(0).integers(0, n, (300, n))
    boot = [_plain(kind, a[row], b[row]) for row in idx]
    half = (high - low) / 2
    assert half == pytest.approx(1.959964 * np.std(boot, ddof=1), rel=0.15)


def test_asymptotic_cohen_dz_standard_error_of_normal_differences():
    # For normal differences Var(d_z) = (1 + d_z² / 2) / n (Hedges & Olkin).
    rng = np.random.default_rng(5)
    n = 40_000
    d = rng.normal(0.3, 1.0, n)
    result = effect_size(d, np.zeros(n))
    half = (result.confidence_interval[1] - result.confidence_interval[0]) / 2
    expected = 1.959964 * np.sqrt((1 + result.estimate**2 / 2) / n)
    assert half == pytest.approx(expected, rel=0.03)


# Scores on a 0.01 grid: the shift and scale below are then exact enough
# (subnormal differences would vanish in ``a + 7``, a rounding, not a fault).
cents = st.integers(-(10**5), 10**5).map(lambda c: c / 100)
samples = st.lists(
    st.tuples(cents, cents),
    min_size=3,
    max_size=12,
)


@settings(max_examples=40, deadline=None)
@given(pairs=samples, kind=st.sampled_from(KINDS), scale=st.floats(1e-3, 1e3))
def test_antisymmetry_and_scale_invariance(pairs, kind, scale):
    a, b = np.array(pairs).T
    forward = effect_size(a, b, kind=kind, n_resamples=20, random_state=0)
    backward = effect_size(b, a, kind=kind, n_resamples=20, random_state=0)
    assert backward.estimate == pytest.approx(-forward.estimate, abs=1e-9)
    scaled = effect_size(
        scale * a + 7, scale * b + 7, kind=kind, n_resamples=20, random_state=0
    )
    # Every kind is scale invariant but the mean difference, in the scores'
    # units (and invariant to a shift).
    units = scale if kind == "mean_difference" else 1.0
    if np.isfinite(forward.estimate):
        assert scaled.estimate == pytest.approx(
            units * forward.estimate, rel=1e-6, abs=1e-6 * units
        )
    low, high = forward.confidence_interval
    assert low <= high
    if kind == "cliff_delta":
        assert -1 <= forward.estimate <= 1


def test_pairwise_effect_sizes_all_pairs_then_only_the_reference():
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(10, 4))
    names = list("ABCD")
    out = pairwise_effect_sizes(scores, names, kind="cohen_dz", random_state=0)
    assert [(e.a, e.b) for e in out] == [
        ("A", "B"), ("A", "C"), ("A", "D"), ("B", "C"), ("B", "D"), ("C", "D")
    ]  # fmt: skip
    one = effect_size(scores[:, 1], scores[:, 3], random_state=0)
    assert out[4].estimate == one.estimate
    assert out[4].confidence_interval == one.confidence_interval
    wide = rng.normal(size=(10, 12))
    names = [f"m{j}" for j in range(12)]
    out = pairwise_effect_sizes(
        wide, names, kind="cohen_dz", reference=5, random_state=0
    )
    assert len(out) == 11 and all("m5" in (e.a, e.b) for e in out)


def test_akinshin_gamma_and_cohen_d_as_autorank_computes_them():
    # autorank 1.3's _util: pooled sd with (n - 1) weights over 2n - 2 df,
    # pooled MAD from scipy's median_abs_deviation(scale=1/1.4826).
    rng = np.random.default_rng(7)
    x, y = rng.normal(1.0, 1.0, 17), rng.standard_t(3, 17)
    n = 17
    pooled_sd = np.sqrt(
        ((n - 1) * x.var(ddof=1) + (n - 1) * y.var(ddof=1)) / (2 * n - 2)
    )
    mad_x = stats.median_abs_deviation(x, scale=1 / 1.4826)
    mad_y = stats.median_abs_deviation(y, scale=1 / 1.4826)
    pooled_mad = np.sqrt(((n - 1) * mad_x**2 + (n - 1) * mad_y**2) / (2 * n - 2))
    d = effect_size(x, y, kind="cohen_d", n_resamples=9).estimate
    gamma = effect_size(x, y, kind="akinshin_gamma", n_resamples=9).estimate
    assert d == pytest.approx((x.mean() - y.mean()) / pooled_sd)
    assert gamma == pytest.approx((np.median(x) - np.median(y)) / pooled_mad)


def test_mean_difference_by_hand_in_the_scores_units():
    a = np.array([0.80, 0.85, 0.90, 0.82, 0.88])
    b = np.array([0.78, 0.80, 0.86, 0.81, 0.83])
    result = effect_size(a, b, kind="mean_difference", random_state=0)
    assert result.estimate == pytest.approx(0.034)  # 0.17 / 5
    assert result.magnitude is None and result.kind == "mean_difference"
    # Percentage points: the same difference, a hundred times larger.
    points = effect_size(100 * a, 100 * b, kind="mean_difference", random_state=0)
    assert points.estimate == pytest.approx(3.4)
    np.testing.assert_allclose(
        points.confidence_interval, 100 * np.array(result.confidence_interval)
    )
    # Extreme scores: scaled by a power of two inside, exact once back.
    huge = effect_size(1e300 * a, 1e300 * b, kind="mean_difference", random_state=0)
    assert huge.estimate == pytest.approx(0.034e300)


def test_simultaneous_intervals_are_bonferroni_over_the_pairs():
    rng = np.random.default_rng(0)
    scores = rng.normal(0.8, 0.05, (12, 4)) + [0.0, 0.01, 0.02, 0.05]
    names = list("ABCD")
    each = pairwise_effect_sizes(scores, names, kind="mean_difference", random_state=0)
    together = pairwise_effect_sizes(
        scores, names, kind="mean_difference", random_state=0, simultaneous=True
    )
    assert all(
        e.simultaneous_level is None and e.confidence_level == 0.95 for e in each
    )
    for one, all_ in zip(each, together):
        assert all_.simultaneous_level == 0.95
        assert all_.confidence_level == pytest.approx(1 - 0.05 / 6)
        assert all_.estimate == one.estimate
        # The same resamples at a higher level: a wider interval.
        assert all_.confidence_interval[0] <= one.confidence_interval[0]
        assert one.confidence_interval[1] <= all_.confidence_interval[1]
        alone = effect_size(
            scores[:, names.index(all_.a)],
            scores[:, names.index(all_.b)],
            kind="mean_difference",
            confidence_level=1 - 0.05 / 6,
            random_state=0,
        )
        np.testing.assert_allclose(all_.confidence_interval, alone.confidence_interval)
