"""Hostile input to every registered statistical test (issue 15, class 5).

Finite input of any magnitude -- up to the largest doubles, down to
subnormals, mixed signs, ties, a single huge outlier -- gives p-values in
[0, 1], no NaN in any field and no warning; scale-invariant statistics are
invariant to a power-of-two scale of their input; non-finite input is
refused with a ValueError naming the argument.
"""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from _strategies import EXTREME
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats
from sklearn.exceptions import ConvergenceWarning

import sklearn_bcv.stats as bcv_stats
from sklearn_bcv.stats import (
    adjust_pvalues,
    available_tests,
    bayesian_correlated_t,
    bayesian_signed_rank,
    calibrated_f_5x2bcv,
    combined_f_5x2cv,
    corrected_t,
    cv_ci_z,
    get_test,
    mcnemar,
    paired_t,
    proportion_z,
)
from sklearn_bcv.stats._registry import get_entry

pytestmark = pytest.mark.filterwarnings("error")

# The profile's number of examples (conftest: 60 for "ci", 1000 for
# HYPOTHESIS_PROFILE=thorough); the whole file runs in seconds with "ci".
HOSTILE = settings(deadline=None)

ALL_TESTS = sorted(available_tests(kind=None))
DIFFERENCE_TESTS = [
    name for name in ALL_TESTS if "differences" in get_entry(name).needs
]
MX2_DESIGNS = ("mx2", "bcv")
ROPE_TESTS = (
    "bayesian_correlated_t",
    "bayesian_signed_rank",
    "bayesian_sign",
    "bayesian_hierarchical",
)
MONTE_CARLO = {"n_samples": 100, "random_state": 0}
# Short runs of the samplers (hierarchical, Plackett–Luce) and ASO's
# bootstrap (seeded).
SHORT_RUNS = {
    "bayesian_hierarchical": {
        "n_samples": 200,
        "n_chains": 2,
        "n_warmup": 20,
        "random_state": 0,
    },
    "aso": {"n_bootstrap": 200, "random_state": 0},
    # Friedman's p-value is a seeded Monte Carlo where it is not exact.
    "friedman": {"n_resamples": 999, "random_state": 0},
    "plackett_luce": {
        "n_samples": 200,
        "n_chains": 2,
        "n_warmup": 20,
        "random_state": 0,
    },
}
PROBABILITIES = (
    "pvalue",
    "pvalue_adjusted",
    "min_pvalue",
    "p_a_better",
    "p_rope",
    "p_b_better",
    "p_datasets",
    "pmf",
    "prob_best",
    "weights",
    "weights_interval",
    "rank_probabilities",
    "prob_beats",
)

# --------------------------------------------------------------------------
# Strategies: extreme floats and counts, in the shapes each test needs
# --------------------------------------------------------------------------

# Small integers times one scale: ties, zeros, all-equal rows, constant
# signs, at the extremes of the float range.
SCALES = st.sampled_from([5e-324, 1e-310, 1e-300, 1e-154, 1.0, 1e154, 1e300])
COUNT = st.one_of(
    st.integers(0, 30),
    st.sampled_from([10**15, 2**53 + 1, 2**62, 2**63 - 1]),
    st.integers(0, 2**63 - 1),
)
SIZE = st.one_of(
    st.floats(1.0, 1e4),
    st.sampled_from([5e-324, 1e-300, 0.5, 1e300]),
)
ROPE = st.one_of(
    st.just(0.0),
    st.floats(0.0, 1e300, allow_subnormal=True),
    st.sampled_from([5e-324, 1e-300, 1e300]),
)


@st.composite
def hostile_floats(draw, n, *, max_abs=1e300):
    """``n`` finite floats: arbitrary extremes, or scaled small integers."""
    if draw(st.booleans()):
        values = draw(st.lists(EXTREME, min_size=n, max_size=n))
        values = np.clip(np.array(values, dtype=np.float64), -max_abs, max_abs)
    else:
        ints = draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n))
        values = np.array(ints, dtype=np.float64) * min(draw(SCALES), max_abs / 3)
    if n and draw(st.booleans()):  # one huge outlier
        sign = draw(st.sampled_from([-1.0, 1.0]))
        values[draw(st.integers(0, n - 1))] = sign * max_abs
    return values


def _table_shape(design, draw):
    if design == "holdout":
        return draw(st.sampled_from([(2, 2), (1, 2, 2)]))
    if design == "kfold":
        return (draw(st.integers(2, 5)), 2, 2)
    return (2 * draw(st.integers(1, 5)), 2, 2)


@st.composite
def hostile_inputs(draw, name, *, max_abs=1e300):
    """Keyword arguments for the registered test ``name``, extreme values."""
    entry = get_entry(name)
    kwargs = {}
    for need in entry.needs:
        if need == "differences":
            if entry.design in MX2_DESIGNS:
                n = 2 * draw(st.integers(1, 5))
            else:
                n = draw(st.integers(2, 10))
            kwargs[need] = draw(hostile_floats(n, max_abs=max_abs))
        elif need in ("n_train", "n_test"):
            kwargs[need] = draw(SIZE)
        elif need == "tables":
            shape = _table_shape(entry.design, draw)
            size = math.prod(shape)
            counts = draw(st.lists(COUNT, min_size=size, max_size=size))
            kwargs[need] = np.array(counts, dtype=np.int64).reshape(shape)
        elif need == "loss_differences":
            sizes = draw(st.lists(st.integers(1, 6), min_size=2, max_size=4))
            values = draw(hostile_floats(sum(sizes), max_abs=max_abs))
            kwargs[need] = np.split(values, np.cumsum(sizes)[:-1])
        elif need == "correct":
            n_splits = 1 if entry.design == "holdout" else 2 * draw(st.integers(1, 3))
            shape = (n_splits, draw(st.integers(1, 12)), draw(st.integers(2, 4)))
            bits = draw(
                st.lists(
                    st.booleans(), min_size=math.prod(shape), max_size=math.prod(shape)
                )
            )
            kwargs[need] = np.array(bits).reshape(shape)
        elif need == "scores":
            shape = (draw(st.integers(2, 8)), draw(st.integers(2, 5)))
            values = draw(hostile_floats(math.prod(shape), max_abs=max_abs))
            kwargs[need] = values.reshape(shape)
        elif need == "dataset_differences":
            kwargs[need] = draw(
                hostile_floats(draw(st.integers(2, 10)), max_abs=max_abs)
            )
        elif need in ("scores_a", "scores_b"):
            kwargs[need] = draw(
                hostile_floats(draw(st.integers(2, 10)), max_abs=max_abs)
            )
        elif need == "split_differences":
            fewest = 2 if name == "bayesian_hierarchical" else 1
            shape = (draw(st.integers(fewest, 4)), draw(st.integers(2, 6)))
            values = draw(hostile_floats(math.prod(shape), max_abs=max_abs))
            kwargs[need] = values.reshape(shape)
        else:  # a new kind of input: teach hostile_inputs to build it
            raise AssertionError(f"no hostile input for {need!r} of {name!r}")
    if name in ROPE_TESTS:
        kwargs["rope"] = draw(ROPE)
    if name.startswith("bayesian_sign"):
        kwargs.update(MONTE_CARLO)
    kwargs.update(SHORT_RUNS.get(name, {}))
    kwargs["alternative"] = draw(st.sampled_from(entry.alternatives))
    return kwargs


# --------------------------------------------------------------------------
# What every result must satisfy
# --------------------------------------------------------------------------


def _numbers(value, path="result"):
    """Every numeric leaf of a result, as (path, float array)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _numbers(item, f"{path}.{key}")
    elif isinstance(value, tuple | list):
        for i, item in enumerate(value):
            yield from _numbers(item, f"{path}[{i}]")
    elif isinstance(value, bool | str | type(None)):
        return
    else:
        arr = np.asarray(value)
        if arr.dtype.kind in "biuf":
            yield path, arr.astype(np.float64)


def check_sound(result):
    """No NaN anywhere; probabilities (p-values among them) in [0, 1]."""
    for path, arr in _numbers(result):
        assert not np.isnan(arr).any(), f"NaN in {path}: {arr}"
    for key in PROBABILITIES:
        for holder in (result, result.get("iman_davenport") or {}):
            value = holder.get(key)
            if value is not None:
                arr = np.asarray(value, dtype=np.float64)
                assert ((arr >= 0) & (arr <= 1)).all(), f"{key} = {arr}"


def run_quietly(name, kwargs):
    """The test ``name`` on ``kwargs``, any warning being an error (but the
    samplers' ConvergenceWarning on their short hostile runs: a statement
    about the draws, not a numerical fault)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=ConvergenceWarning)
        return get_test(name)(**kwargs)


# --------------------------------------------------------------------------
# Regression cases
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "test, df1", [(combined_f_5x2cv, 10), (calibrated_f_5x2bcv, 7)], ids=str
)
@pytest.mark.parametrize("outlier", [1.35e154, 1e160, 1e300, 5e-324, 1.0])
def test_f_tests_on_one_nonzero_difference(test, df1, outlier):
    # One non-zero difference x: numerator x², denominator 2·(x²/2), F = 1
    # exactly whatever x (the example squared 1.35e154 to inf/inf).
    result = test([0.0] * 9 + [outlier])
    assert result.statistic == 1.0
    assert result.pvalue == pytest.approx(stats.f.sf(1.0, df1, 5), rel=1e-12)


# Accuracy-like differences of a 5×2 design (also any design).
BASE = np.array([0.04, 0.02, 0.03, -0.01, 0.05, 0.03, 0.02, 0.04, 0.03, 0.01])


@pytest.mark.parametrize("name", DIFFERENCE_TESTS)
@pytest.mark.parametrize("scale", [1e160, 1e-160, 1e298])
def test_huge_or_tiny_scale_gives_the_unscaled_result(name, scale):
    # Negative MSE with targets near 1e80 gives differences near 1e160; the
    # scale-invariant results must be those of the same differences / 1e160.
    kwargs = {"n_train": 90, "n_test": 10} if "n_train" in get_entry(name).needs else {}
    scaled = run_quietly(name, {"differences": BASE * scale, **kwargs})
    plain = run_quietly(name, {"differences": BASE * scale / scale, **kwargs})
    check_sound(scaled)
    for key in ("pvalue", "p_a_better", "p_rope", "p_b_better"):
        if scaled.get(key) is not None:
            assert scaled[key] == pytest.approx(plain[key], rel=1e-9), key
    if scaled.pvalue is not None:  # a t or F statistic, finite
        assert scaled.statistic == pytest.approx(plain.statistic, rel=1e-9)
        assert 0.0 < scaled.pvalue < 1.0


@pytest.mark.parametrize("name", DIFFERENCE_TESTS)
def test_batch_rows_are_scaled_each_on_its_own(name):
    # Leading batch dimensions: each comparison has its own scale, so a row
    # near the overflow beside one near underflow gives both results.
    kwargs = {"n_train": 90, "n_test": 10} if "n_train" in get_entry(name).needs else {}
    factors = np.array([1.0, 2.0**1000, 2.0**-1000, 2.0**-1060])[:, np.newaxis]
    batch = run_quietly(name, {"differences": BASE * factors, **kwargs})
    single = run_quietly(name, {"differences": BASE, **kwargs})
    check_sound(batch)
    for key in ("pvalue", "p_a_better", "p_rope", "p_b_better"):
        if single.get(key) is not None:
            # 2**-1060 leaves only a few bits of each difference: close only.
            assert_allclose(batch[key][:3], single[key], rtol=1e-9, err_msg=key)
            assert_allclose(batch[key][3], single[key], rtol=0.05, atol=1e-12)


@pytest.mark.parametrize("name", DIFFERENCE_TESTS)
def test_subnormal_differences_are_small_integers(name):
    # k·2**-1074 is exact: the result is the one of the integers k.
    ints = np.array([1, 2, 3, -1, 5, 3, 2, 4, 3, 1], dtype=np.float64)
    kwargs = {"n_train": 90, "n_test": 10} if "n_train" in get_entry(name).needs else {}
    tiny = run_quietly(name, {"differences": ints * 5e-324, **kwargs})
    whole = run_quietly(name, {"differences": ints, **kwargs})
    check_sound(tiny)
    for key in ("statistic", "pvalue", "p_a_better", "p_rope", "p_b_better"):
        if key in whole and not (key == "statistic" and whole.pvalue is None):
            assert tiny[key] == whole[key], key


@pytest.mark.parametrize("name", DIFFERENCE_TESTS)
@pytest.mark.parametrize("value", [5e-324, 1e-300, 1e300])
def test_equal_nonzero_differences_keep_the_zero_variance_rule(name, value):
    # Zero variance, non-zero mean: the documented ±inf with p-value 0 (F:
    # inf), at every magnitude; all zeros keep statistic 0 and p-value 1.
    kwargs = {"n_train": 90, "n_test": 10} if "n_train" in get_entry(name).needs else {}
    result = run_quietly(name, {"differences": [value] * 10, **kwargs})
    zeros = run_quietly(name, {"differences": [0.0] * 10, **kwargs})
    check_sound(result)
    if result.pvalue is None:  # the posterior is a point mass at value > 0
        assert (result.p_a_better, result.p_rope, result.p_b_better) == (1, 0, 0)
        assert result.loc == value and result.scale == 0
        return
    assert result.statistic == np.inf and result.pvalue == 0.0
    assert zeros.statistic == 0.0 and zeros.pvalue == 1.0


@pytest.mark.parametrize("name", DIFFERENCE_TESTS)
@pytest.mark.parametrize("value", [1e-300, 5e-324 * 3, 1.0, 1e300])
def test_tiny_nonzero_variance_is_finite(name, value):
    # All equal but one: a variance that underflows when squared in the
    # units of the input, finite after scaling.
    kwargs = {"n_train": 90, "n_test": 10} if "n_train" in get_entry(name).needs else {}
    result = run_quietly(name, {"differences": [value] * 9 + [2 * value], **kwargs})
    check_sound(result)
    assert np.isfinite(result.statistic)


@pytest.mark.parametrize("outlier", [1e300, -1e300, 1.7e308])
def test_single_huge_outlier_gives_t_of_one(outlier):
    # d = (small, ..., small, x): mean ≈ x/J, standard error ≈ |x|/J, so the
    # paired t statistic is ±1 up to the small ones (relative 1e-298).
    d = [0.01, 0.02, 0.0, 0.01, 0.03, 0.02, 0.01, 0.0, 0.02, outlier]
    result = paired_t(d)
    assert result.statistic == pytest.approx(math.copysign(1.0, outlier), rel=1e-12)
    assert result.pvalue == pytest.approx(2 * stats.t.sf(1.0, 9), rel=1e-9)
    assert np.isfinite(result.confidence_interval).all() or outlier == 1.7e308
    check_sound(result)


def test_interval_beyond_the_largest_double_is_infinite():
    # The interval is reported in score units: ±inf past the largest double.
    result = paired_t([1.7e308, -1.7e308, 1.7e308, -1.7e308, 1.7e308])
    low, high = result.confidence_interval
    assert low == -np.inf and high == np.inf
    assert result.pvalue == pytest.approx(
        stats.ttest_1samp([1, -1, 1, -1, 1], 0).pvalue
    )


@pytest.mark.parametrize("alpha", [5e-324, 1e-300])
def test_tiny_alpha_with_zero_variance_gives_a_point_interval(alpha):
    # The quantile is inf (1 - alpha rounds to 1); inf·0 must not be NaN.
    result = paired_t([0.5] * 5, alpha=alpha)
    assert result.confidence_interval == (0.5, 0.5)
    spread = paired_t([0.5, 0.6, 0.4], alpha=alpha)
    assert spread.confidence_interval == (-np.inf, np.inf)
    z = cv_ci_z([[1.0, 1.0], [1.0, 1.0]], alpha=alpha)
    assert z.confidence_interval == (1.0, 1.0)


@pytest.mark.parametrize(
    "n_train, n_test", [(1e-300, 1e300), (5e-324, 1.0), (1e300, 1e-300)]
)
def test_extreme_set_sizes(n_train, n_test):
    # n_test / n_train may overflow to inf: the standard error is inf (0
    # with zero variance), never inf·0.
    for d in ([0.01, 0.03, 0.02], [0.02, 0.02, 0.02], [0.0, 0.0, 0.0]):
        check_sound(
            run_quietly(
                "corrected_t", {"differences": d, "n_train": n_train, "n_test": n_test}
            )
        )
        check_sound(
            run_quietly(
                "bayesian_correlated_t",
                {"differences": d, "n_train": n_train, "n_test": n_test, "rope": 0.01},
            )
        )


@pytest.mark.parametrize("rope, expected", [(1e300, (0, 1, 0)), (5e-324, (1, 0, 0))])
def test_rope_at_the_extremes(rope, expected):
    # A rope that dwarfs the differences holds all the posterior; a
    # subnormal rope none of it.
    d = np.array([2.0, 2.001, 1.999, 2.0, 2.0005]) * 1e-290
    result = bayesian_correlated_t(d, n_train=90, n_test=10, rope=rope)
    got = (result.p_a_better, result.p_rope, result.p_b_better)
    assert got == pytest.approx(expected, abs=1e-9)


def test_signed_rank_near_the_largest_double():
    # Walsh sums z_i + z_j of differences near the largest double overflow
    # unless compared at a smaller scale.
    d = np.array([1.7e308, 1.6e308, -1e308, 1.5e308])
    for rope in (0.0, 1e308, 1.79e308):
        result = run_quietly(
            "bayesian_signed_rank",
            {"dataset_differences": d, "rope": rope, **MONTE_CARLO},
        )
        check_sound(result)
        small = bayesian_signed_rank(d / 2**900, rope=rope / 2**900, **MONTE_CARLO)
        assert result.p_a_better == small.p_a_better
        assert result.p_rope == small.p_rope


# Counts


def _exact_chi2(b, c, k):
    """McNemar's ``max(|b - c| - k, 0)² / (b + c)`` in exact arithmetic."""
    return float(Fraction(max(abs(b - c) - k, 0) ** 2, b + c)) if b + c else 0.0


@pytest.mark.parametrize(
    "b, c",
    [
        (10**15, 10**15 + 10**8),
        (2**62, 2**61),
        (2**63 - 1, 2**62),
        (2**63 - 1, 0),
        (0, 2**62),
    ],
)
@pytest.mark.parametrize("correction", [True, False])
def test_mcnemar_on_huge_counts(b, c, correction):
    # int64 would overflow squaring b - c or summing b + c; float does not.
    table = np.array([[2**62, b], [c, 2**62]], dtype=np.int64)
    result = run_quietly("mcnemar", {"tables": table, "correction": correction})
    expected = _exact_chi2(b, c, 1 if correction else 0)
    assert result.statistic == pytest.approx(expected, rel=1e-9)
    check_sound(result)
    exact = run_quietly("mcnemar", {"tables": table, "exact": True})
    assert exact.statistic == c and type(exact.statistic) is int
    check_sound(exact)
    check_sound(run_quietly("proportion_z", {"tables": table}))
    for name in ("kfold_mcnemar", "bcv_mcnemar"):
        check_sound(run_quietly(name, {"tables": [table, table]}))


@pytest.mark.parametrize("count", [2**63, 2**64 - 1, 1e19, 1e300])
def test_counts_beyond_int64_are_refused(count):
    with pytest.raises(ValueError, match=r"tables must be counts below 2\*\*63"):
        mcnemar(np.array([[0, count], [1, 0]]))


@pytest.mark.parametrize(
    "bad, match",
    [
        ([[0, -1], [1, 0]], "tables must be non-negative counts"),
        ([[0, 0.5], [1, 0]], "tables must be whole-number counts"),
        ([[0, np.inf], [1, 0]], "tables must be finite counts; got NaN or inf"),
    ],
)
def test_bad_counts_are_refused(bad, match):
    with pytest.raises(ValueError, match=match):
        proportion_z(bad)


# Non-finite input, refused naming the argument


def _with_one(value, kwargs, need):
    """``kwargs`` with one entry of its ``need`` set to ``value``."""
    kwargs = dict(kwargs)
    if need == "loss_differences":
        folds = [np.array(fold, dtype=np.float64) for fold in kwargs[need]]
        folds[1][0] = value
        kwargs[need] = folds
        return kwargs, r"loss_differences\[1\]"
    arr = np.array(kwargs[need], dtype=np.float64)
    arr.flat[arr.size - 1] = value
    kwargs[need] = arr
    return kwargs, need


GOOD_INPUTS = {
    "differences": list(BASE),
    "tables": None,  # per design, below
    "loss_differences": [[0.0, -1.0, 1.0], [0.0, -1.0]],
    "scores": [[0.8, 0.7, 0.9], [0.6, 0.65, 0.5], [0.9, 0.9, 0.7]],
    "dataset_differences": [0.01, -0.02, 0.03, 0.0],
    "split_differences": [[0.01, 0.02, 0.0], [0.03, -0.01, 0.02]],
    "scores_a": [0.81, 0.83, 0.8, 0.82],
    "scores_b": [0.8, 0.79, 0.81, 0.78],
}
FLOAT_INPUT_TESTS = [
    name for name in ALL_TESTS if not {"correct"} & set(get_entry(name).needs)
]


def _good_kwargs(name):
    entry = get_entry(name)
    kwargs = {}
    for need in entry.needs:
        if need in ("n_train", "n_test"):
            kwargs[need] = 10.0
        elif need == "tables":
            n = {"holdout": 1, "kfold": 3}.get(entry.design, 10)
            kwargs[need] = np.array([[[5, 3], [9, 33]]] * n)
        else:
            kwargs[need] = GOOD_INPUTS[need]
    if name.startswith("bayesian_sign"):
        kwargs.update(MONTE_CARLO)
    kwargs.update(SHORT_RUNS.get(name, {}))
    return kwargs


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("name", FLOAT_INPUT_TESTS)
def test_non_finite_input_is_refused_by_name(name, value):
    kwargs = _good_kwargs(name)
    run_quietly(name, kwargs)  # the good input runs
    need = next(n for n in get_entry(name).needs if n not in ("n_train", "n_test"))
    bad, label = _with_one(value, kwargs, need)
    if np.isnan(value) and get_entry(name).incomplete:
        # A NaN score is a hole, which these tests take (Durbin's test only
        # in a balanced incomplete design, and it says so).
        try:
            result = get_test(name)(**bad)
        except ValueError as exc:
            assert "balanced incomplete block design" in str(exc)
        else:
            assert np.all(np.isfinite(np.asarray(result.statistic, dtype=float)))
        return
    with pytest.raises(ValueError, match=rf"{label} must be finite"):
        get_test(name)(**bad)


# --------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------


def test_every_public_test_is_registered():
    # The properties below run over the registry; every public test is in it.
    public = set(bcv_stats.__all__)
    assert public <= set(ALL_TESTS)


@pytest.mark.parametrize("name", ALL_TESTS)
@HOSTILE
@given(data=st.data())
def test_extreme_finite_input_gives_sound_results(name, data):
    kwargs = data.draw(hostile_inputs(name), label="kwargs")
    check_sound(run_quietly(name, kwargs))


# The tests whose results depend on real-valued input only through ratios:
# every test but those of counts (tables, correct).
SCALE_INVARIANT = [
    name for name in ALL_TESTS if not {"tables", "correct"} & set(get_entry(name).needs)
]
SCALED_NEEDS = (
    "scores_a",
    "scores_b",
    "differences",
    "loss_differences",
    "scores",
    "dataset_differences",
    "split_differences",
)


#: Below this magnitude the tie rule's tolerances (a few ulps of the values)
#: are subnormal, quantised to multiples of 2**-1074, so they do not scale
#: exactly with the data: a Monte Carlo test may then group its float32
#: sums differently and move at 1e-8 (its decisions do not).
_SUBNORMAL_TOLERANCES = np.finfo(float).tiny / np.finfo(float).eps


def _without_subnormal_tolerances(kwargs):
    """``kwargs`` with every real value whose tolerance would be subnormal
    set to 0 (the scale test asks for exact invariance)."""
    out = dict(kwargs)

    def cleaned(values):
        values = np.array(values, dtype=float)
        values[np.abs(values) < _SUBNORMAL_TOLERANCES] = 0.0
        return values

    for need in SCALED_NEEDS:
        if need == "loss_differences" and need in out:
            out[need] = [cleaned(fold) for fold in out[need]]
        elif need in out:
            out[need] = cleaned(out[need])
    if "rope" in out and 0 < out["rope"] < _SUBNORMAL_TOLERANCES:
        out["rope"] = 0.0
    return out


def _scale(kwargs, factor):
    """``kwargs`` with its real-valued data and its rope times ``factor``."""
    out = dict(kwargs)
    for need in SCALED_NEEDS:
        if need == "loss_differences" and need in out:
            out[need] = [np.asarray(fold) * factor for fold in out[need]]
        elif need in out:
            out[need] = np.asarray(out[need]) * factor
    if "rope" in out:
        out["rope"] = out["rope"] * factor
    return out


@pytest.mark.parametrize("name", SCALE_INVARIANT)
@HOSTILE
@given(data=st.data())
def test_power_of_two_scale_leaves_the_result_unchanged(name, data):
    # Multiplying by 2**k is exact, so the scale-invariant results must not
    # move (rtol 1e-9; in fact they are equal). Inputs stay below 1e280 so
    # that the scaled ones are finite.
    kwargs = data.draw(hostile_inputs(name, max_abs=1e280), label="kwargs")
    k = data.draw(st.integers(1, 60), label="k")
    if "rope" in kwargs:
        kwargs["rope"] = min(kwargs["rope"], 1e280)
    kwargs = _without_subnormal_tolerances(kwargs)
    base = run_quietly(name, kwargs)
    scaled = run_quietly(name, _scale(kwargs, 2.0**k))
    for key in (
        "pvalue",
        "pvalue_adjusted",
        "p_a_better",
        "p_rope",
        "p_b_better",
        "prob_best",
        "weights",
    ):
        if base.get(key) is not None:
            assert_allclose(scaled[key], base[key], rtol=1e-9, atol=0, err_msg=key)
    # What is reported in the units of the input scales with it, up to the
    # rounding of a subnormal base value to a multiple of 2**-1074.
    ulp = np.ldexp(5e-324, k)
    if name == "bayesian_correlated_t":  # the posterior location
        assert_allclose(scaled.loc, np.ldexp(base.loc, k), rtol=1e-9, atol=ulp)
    elif base.statistic is None:  # a ranking: no statistic
        assert scaled.statistic is None
    else:
        assert_allclose(scaled.statistic, base.statistic, rtol=1e-9, err_msg=name)
    if "confidence_interval" in base:  # ±inf beyond the largest double
        with np.errstate(over="ignore"):
            expected = np.ldexp(base.confidence_interval, k)
        assert_allclose(scaled.confidence_interval, expected, rtol=1e-9, atol=ulp)


@HOSTILE
@given(
    pvalues=st.lists(st.floats(0.0, 1.0, allow_subnormal=True), min_size=1, max_size=8),
    correction=st.sampled_from([None, "holm", "bonferroni", "hochberg", "fdr_bh"]),
)
def test_adjust_pvalues_on_extreme_probabilities(pvalues, correction):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        adjusted = adjust_pvalues(pvalues, correction)
    assert ((adjusted >= 0) & (adjusted <= 1)).all()
    assert (adjusted >= np.asarray(pvalues)).all()


def test_hand_example_unchanged_by_scaling():
    # The documented example, at 2**-1074 times and 2**900 times its size.
    d = np.array([0.02, 0.01, 0.03, 0.02, 0.02, 0.04, 0.0, 0.01, 0.03, 0.02])
    plain = corrected_t(d, n_train=90, n_test=10)
    for factor in (2.0**900, 2.0**-1000):
        scaled = corrected_t(d * factor, n_train=90, n_test=10)
        assert scaled.statistic == pytest.approx(plain.statistic, rel=1e-9)
        assert scaled.pvalue == pytest.approx(plain.pvalue, rel=1e-9)
