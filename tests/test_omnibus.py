"""Tests of cochran_q, looney_f and bcv_cochran_q (k estimators, ``correct``)."""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from sklearn_bcv import available_tests, get_test, mcnemar_table
from sklearn_bcv.stats import (
    _omnibus,
    bcv_cochran_q,
    bcv_mcnemar,
    cochran_q,
    looney_f,
    mcnemar,
)
from sklearn_bcv.stats._registry import get_entry

# A RuntimeWarning (0/0, overflow, ...) is a bug here.
pytestmark = pytest.mark.filterwarnings("error")

OMNIBUS = ["cochran_q", "looney_f", "bcv_cochran_q"]
HOLDOUT = [cochran_q, looney_f]

# Kuncheva (2004), as printed in seed 004 ("Cochran's Q test"): three
# classifiers on 100 test records, the number of records with each pattern of
# right (1) / wrong (0) answers.
KUNCHEVA_PATTERNS = np.array(
    [
        [1, 1, 1],
        [1, 1, 0],
        [1, 0, 1],
        [1, 0, 0],
        [0, 1, 1],
        [0, 1, 0],
        [0, 0, 1],
        [0, 0, 0],
    ]
)
KUNCHEVA_OCCURRENCES = [80, 2, 0, 2, 9, 1, 3, 3]
KUNCHEVA = np.repeat(KUNCHEVA_PATTERNS, KUNCHEVA_OCCURRENCES, axis=0).astype(bool)


def correct_strategy(min_records=1, max_records=30, min_estimators=2, max_estimators=5):
    shapes = st.tuples(
        st.integers(min_records, max_records),
        st.integers(min_estimators, max_estimators),
    )
    return shapes.flatmap(lambda shape: arrays(bool, shape))


def random_correct(rng, shape, accuracies=0.8):
    return rng.random(shape) < accuracies


def predictions_of(correct):
    """Labels all 0 and predictions 0 where right, 1 where wrong."""
    y_true = np.zeros(correct.shape[0], dtype=int)
    return y_true, [np.where(correct[:, j], 0, 1) for j in range(correct.shape[1])]


# --------------------------------------------------------------------------
# Worked example (seed 004)
# --------------------------------------------------------------------------


def test_cochran_q_kuncheva_example():
    # G = (84, 92, 92), T = 268, sum_r u_r**2 = 80*9 + 11*4 + 6*1 = 770:
    # Q = 2 (3 (84² + 92² + 92²) - 268²) / (3·268 - 770) = 2·128 / 34 = 128/17.
    result = cochran_q(KUNCHEVA)
    assert result.statistic == pytest.approx(128 / 17, rel=1e-12)
    assert result.statistic == pytest.approx(7.5294, abs=5e-5)  # seed 004
    assert result.pvalue == pytest.approx(0.023, abs=5e-4)  # seed 004
    # chi2(2).sf(q) = exp(-q / 2)
    assert result.pvalue == pytest.approx(np.exp(-64 / 17), rel=1e-12)
    assert result.df == 2
    assert result.reject is True
    assert result.test == "cochran_q" and result.alternative == "two-sided"
    assert result.n_records == 100 and result.n_estimators == 3
    np.testing.assert_allclose(result.accuracies, [0.84, 0.92, 0.92])


def test_looney_f_kuncheva_example_by_hand():
    # Seed 004's sums of squares, by hand from acc = (0.84, 0.92, 0.92),
    # mean acc = 268/300, N = 100, L = 3, sum_r u_r**2 = 770:
    # SSA = 100 (0.84² + 0.92² + 0.92²) - 300 (268/300)² = 239.84 - 239.41333
    #     = 0.426667 (= 128/300)
    # SSB = 770/3 - 239.41333 = 17.253333
    # SST = 300 (268/300)(32/300) = 28.586667
    # SSAB = 28.586667 - 0.426667 - 17.253333 = 10.906667 (= 3272/300)
    # F = (SSA / 2) / (SSAB / (2·99)) = 128·99 / 3272 = 3.872861
    result = looney_f(KUNCHEVA)
    assert result.ssa == pytest.approx(128 / 300, rel=1e-12)
    assert result.ssb == pytest.approx(770 / 3 - 268**2 / 300, rel=1e-12)
    assert result.sst == pytest.approx(268 * 32 / 300, rel=1e-12)
    assert result.ssab == pytest.approx(3272 / 300, rel=1e-12)
    assert result.statistic == pytest.approx(128 * 99 / 3272, rel=1e-12)
    assert result.statistic == pytest.approx(3.8729, abs=5e-5)
    assert result.df == (2, 198)
    assert result.pvalue == pytest.approx(
        stats.f.sf(128 * 99 / 3272, 2, 198), rel=1e-10
    )
    assert result.pvalue == pytest.approx(0.0224, abs=5e-5)
    assert result.reject is True and result.test == "looney_f"


def test_kuncheva_example_accepts_ints_and_a_list_of_one_split():
    as_ints = KUNCHEVA.astype(np.int64)
    for test in HOLDOUT:
        reference = test(KUNCHEVA)
        for correct in (as_ints, [as_ints], KUNCHEVA[np.newaxis], as_ints.tolist()):
            assert test(correct).statistic == reference.statistic


# --------------------------------------------------------------------------
# Reference implementations (optional packages)
# --------------------------------------------------------------------------


@pytest.mark.parametrize("n_estimators", [2, 3, 5])
def test_cochran_q_matches_mlxtend(n_estimators, rng):
    evaluate = pytest.importorskip("mlxtend.evaluate")
    for _ in range(5):
        correct = random_correct(rng, (60, n_estimators), rng.uniform(0.6, 0.9, 1))
        y_true, predictions = predictions_of(correct)
        q, p = evaluate.cochrans_q(y_true, *predictions)
        result = cochran_q(correct)
        assert result.statistic == pytest.approx(q, rel=1e-10)
        assert result.pvalue == pytest.approx(p, rel=1e-10)


@pytest.mark.parametrize("n_estimators", [2, 3, 5])
def test_looney_f_matches_mlxtend_statistic_not_df(n_estimators, rng):
    evaluate = pytest.importorskip("mlxtend.evaluate")
    n_records = 60
    for _ in range(5):
        accuracies = rng.uniform(0.6, 0.95, n_estimators)
        correct = random_correct(rng, (n_records, n_estimators), accuracies)
        y_true, predictions = predictions_of(correct)
        with warnings.catch_warnings():  # mlxtend's own float arithmetic
            warnings.simplefilter("ignore")
            f, p = evaluate.ftest(y_true, *predictions)
        result = looney_f(correct)
        df1 = n_estimators - 1
        assert result.statistic == pytest.approx(f, rel=1e-9)
        # mlxtend: F(L - 1, (L - 1) N); Looney: F(L - 1, (L - 1)(N - 1)).
        assert p == pytest.approx(stats.f.sf(f, df1, df1 * n_records), rel=1e-9)
        assert result.df == (df1, df1 * (n_records - 1))
        assert result.pvalue == pytest.approx(
            stats.f.sf(result.statistic, df1, df1 * (n_records - 1)), rel=1e-10
        )
        assert result.pvalue >= p  # fewer denominator degrees of freedom


@pytest.mark.parametrize("n_estimators", [2, 3, 4, 6])
def test_cochran_q_matches_statsmodels(n_estimators, rng):
    tables = pytest.importorskip("statsmodels.stats.contingency_tables")
    for n_records in (5, 40, 200):
        correct = random_correct(rng, (n_records, n_estimators), 0.75)
        expected = tables.cochrans_q(correct.astype(int))
        if not np.isfinite(expected.statistic):  # statsmodels' 0/0
            continue
        result = cochran_q(correct)
        assert result.statistic == pytest.approx(expected.statistic, rel=1e-10)
        assert result.pvalue == pytest.approx(expected.pvalue, rel=1e-10)
        assert result.df == expected.df


# --------------------------------------------------------------------------
# Two estimators: the McNemar tests
# --------------------------------------------------------------------------


@given(correct=correct_strategy(min_estimators=2, max_estimators=2))
def test_cochran_q_of_two_is_uncorrected_mcnemar(correct):
    y_true, (pred_a, pred_b) = predictions_of(correct)
    table = mcnemar_table(y_true, pred_a, pred_b)
    expected = mcnemar(table, correction=False)
    result = cochran_q(correct)
    assert result.statistic == pytest.approx(expected.statistic, rel=1e-12)
    assert result.pvalue == pytest.approx(expected.pvalue, rel=1e-12)
    assert result.df == expected.df == 1


@pytest.mark.parametrize("n_repeats", [1, 3, 5])
def test_bcv_cochran_q_of_two_is_bcv_mcnemar_without_correction(n_repeats, rng):
    for _ in range(5):
        correct = [
            random_correct(rng, (int(rng.integers(20, 60)), 2), [0.85, 0.75])
            for _ in range(2 * n_repeats)
        ]
        tables = []
        for split in correct:
            y_true, (pred_a, pred_b) = predictions_of(split)
            tables.append(mcnemar_table(y_true, pred_a, pred_b))
        reference = bcv_mcnemar(tables, rho1=0.4, rho2=0.3)
        nbar01 = reference.mean_table[0, 1]
        nbar10 = reference.mean_table[1, 0]
        expected = reference.t * (nbar01 - nbar10) ** 2 / (nbar01 + nbar10)
        result = bcv_cochran_q(correct, rho1=0.4, rho2=0.3)
        assert result.t == reference.t
        assert result.statistic == pytest.approx(expected, rel=1e-12)
        assert result.pvalue == pytest.approx(stats.chi2.sf(expected, 1), rel=1e-10)
        # bcv_mcnemar's continuity correction makes it the more conservative.
        assert reference.statistic <= result.statistic + 1e-12
        np.testing.assert_allclose(
            result.mean_column_sums,
            [reference.mean_table[1].sum(), reference.mean_table[:, 1].sum()],
        )
        assert result.mean_denominator == pytest.approx(nbar01 + nbar10)


def test_bcv_cochran_q_of_two_identical_splits(rng):
    # m = 1 and rho1 = 0 give t = 2; with two identical splits the means are
    # that split's counts, so Q_e = 2 Q of the split.
    split = random_correct(rng, (80, 4), [0.9, 0.8, 0.85, 0.7])
    single = cochran_q(split)
    doubled = bcv_cochran_q([split, split], rho1=0.0)
    assert doubled.t == 2.0
    assert doubled.statistic == pytest.approx(2 * single.statistic, rel=1e-12)


def test_bcv_cochran_q_5x2_default_factor(rng):
    correct = random_correct(rng, (10, 50, 3), [0.9, 0.8, 0.85])
    result = bcv_cochran_q(correct)
    assert result.t == pytest.approx(20 / 11)
    assert result.rho1 == result.rho2 == 0.5
    # By hand: mean column sums and mean denominator over the ten splits.
    gbar = correct.sum(axis=1).mean(axis=0)
    u = correct.sum(axis=2)
    dbar = np.mean(3 * u.sum(axis=1) - (u**2).sum(axis=1))
    expected = 20 / 11 * 2 * (3 * np.sum(gbar**2) - gbar.sum() ** 2) / dbar
    assert result.statistic == pytest.approx(expected, rel=1e-12)
    np.testing.assert_allclose(result.mean_column_sums, gbar)
    assert result.mean_denominator == pytest.approx(dbar)
    np.testing.assert_array_equal(result.n_records, [50] * 10)
    np.testing.assert_allclose(result.accuracies, correct.mean(axis=(0, 1)))
    assert result.df == 2


# --------------------------------------------------------------------------
# Invariants (hypothesis)
# --------------------------------------------------------------------------


@given(correct=correct_strategy(), data=st.data())
def test_permuting_estimators_or_records_changes_nothing(correct, data):
    n_records, n_estimators = correct.shape
    columns = data.draw(st.permutations(range(n_estimators)))
    rows = data.draw(st.permutations(range(n_records)))
    for test in HOLDOUT:
        reference = test(correct)
        for permuted in (correct[:, columns], correct[rows]):
            result = test(permuted)
            assert result.statistic == pytest.approx(reference.statistic, rel=1e-12)
            assert result.pvalue == pytest.approx(reference.pvalue, rel=1e-12)


@given(
    correct=correct_strategy(),
    n_all_right=st.integers(0, 20),
    n_all_wrong=st.integers(0, 20),
)
def test_unanimous_records_leave_cochran_q_unchanged(correct, n_all_right, n_all_wrong):
    n_estimators = correct.shape[1]
    padded = np.vstack(
        [
            correct,
            np.ones((n_all_right, n_estimators), bool),
            np.zeros((n_all_wrong, n_estimators), bool),
        ]
    )
    reference = cochran_q(correct)
    result = cochran_q(padded)
    assert result.statistic == reference.statistic  # exactly: same integers
    assert result.pvalue == reference.pvalue
    # The same for the m×2 version, records added to any split.
    splits = [correct, correct[::-1]]
    padded_splits = [padded, correct[::-1]]
    assert bcv_cochran_q(padded_splits).statistic == bcv_cochran_q(splits).statistic


@given(correct=correct_strategy(), data=st.data())
def test_pvalues_in_unit_interval_and_reject_is_pvalue_below_alpha(correct, data):
    alpha = data.draw(st.floats(0.001, 0.5))
    for result in (
        cochran_q(correct, alpha=alpha),
        looney_f(correct, alpha=alpha),
        bcv_cochran_q([correct, correct[::-1]], alpha=alpha),
    ):
        assert 0.0 <= result.pvalue <= 1.0
        assert result.statistic >= 0.0
        assert result.reject is (result.pvalue < alpha)


@given(correct=correct_strategy(min_records=2))
def test_cochran_q_is_a_monotone_function_of_looney_f(correct):
    # Q = (L - 1) N SSA / (SSA + SSAB) and F = (N - 1) SSA / SSAB, so
    # Q = (L - 1) N F / (F + N - 1): the two tests order the outcomes alike
    # and differ only by their reference distributions.
    n_records, n_estimators = correct.shape
    q = cochran_q(correct).statistic
    f = looney_f(correct).statistic
    if f == np.inf:  # SSAB = 0 < SSA
        assert q == pytest.approx((n_estimators - 1) * n_records)
    else:
        expected = (n_estimators - 1) * n_records * f / (f + n_records - 1)
        assert q == pytest.approx(expected, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("as_list", [False, True])
def test_batch_equals_loop(as_list, rng):
    n_splits, n_records, n_estimators = 4, 30, 3
    correct = random_correct(
        rng, (3, 2, n_splits, n_records, n_estimators), [0.9, 0.7, 0.8]
    )
    # A batch element where every estimator is right on every record: 0/0.
    correct[1, 0] = True
    cases = [
        (bcv_cochran_q, correct, {"rho1": 0.2, "rho2": 0.4}),
        (cochran_q, correct[:, :, :1], {}),
        (looney_f, correct[:, :, :1], {}),
    ]
    for test, batch, params in cases:
        arg = (
            [batch[..., i, :, :] for i in range(batch.shape[-3])] if as_list else batch
        )
        result = test(arg, **params)
        assert np.shape(result.statistic) == (3, 2)
        assert np.shape(result.reject) == (3, 2)
        for index in np.ndindex(3, 2):
            single = test(batch[index], **params)
            assert result.statistic[index] == single.statistic
            assert result.pvalue[index] == single.pvalue
            assert result.reject[index] == single.reject
            np.testing.assert_array_equal(result.accuracies[index], single.accuracies)
        assert result.pvalue[1, 0] == 1.0 and result.statistic[1, 0] == 0.0


def test_list_of_splits_of_different_sizes(rng):
    sizes = [50, 51, 50, 51]
    correct = [random_correct(rng, (n, 3), [0.9, 0.8, 0.7]) for n in sizes]
    result = bcv_cochran_q(correct)
    np.testing.assert_array_equal(result.n_records, sizes)
    counts = [c.sum(axis=0) for c in correct]
    np.testing.assert_allclose(result.mean_column_sums, np.mean(counts, axis=0))
    np.testing.assert_allclose(
        result.accuracies, np.sum(counts, axis=0) / np.sum(sizes)
    )


def test_statistics_from_counts_match_the_tests(rng):
    # The private functions of the sufficient statistics, as a simulation
    # calls them, with a batch dimension.
    correct = random_correct(rng, (7, 10, 40, 4), [0.9, 0.8, 0.85, 0.7])
    counts = _omnibus._check_correct(correct)
    assert counts.column_sums.shape == (7, 10, 4)
    assert counts.row_square_sums.shape == (7, 10)
    np.testing.assert_array_equal(counts.n_records, [40] * 10)
    statistic, pvalue, *_ = _omnibus._bcv_cochran_statistic(
        counts.column_sums, counts.row_square_sums, 4, 20 / 11
    )
    expected = bcv_cochran_q(correct)
    np.testing.assert_array_equal(statistic, expected.statistic)
    np.testing.assert_array_equal(pvalue, expected.pvalue)
    statistic, pvalue = _omnibus._cochran_statistic(
        counts.column_sums[:, 0], counts.row_square_sums[:, 0], 4
    )
    np.testing.assert_array_equal(statistic, cochran_q(correct[:, :1]).statistic)
    statistic, pvalue = _omnibus._looney_statistic(
        counts.column_sums[:, 0], counts.row_square_sums[:, 0], 40, 4
    )
    np.testing.assert_array_equal(statistic, looney_f(correct[:, :1]).statistic)


def test_python_integer_path_for_huge_counts(rng, monkeypatch):
    # Counts too large for int64 products are carried as Python integers;
    # force that path and compare.
    correct = random_correct(rng, (5, 2, 40, 3), [0.9, 0.8, 0.85])
    expected = [test(correct[:, :1]) for test in HOLDOUT] + [bcv_cochran_q(correct)]
    monkeypatch.setattr(_omnibus, "_INT64_SAFE", 0)
    assert _omnibus._check_correct(correct).column_sums.dtype == object
    results = [test(correct[:, :1]) for test in HOLDOUT] + [bcv_cochran_q(correct)]
    for result, reference in zip(results, expected):
        np.testing.assert_array_equal(result.statistic, reference.statistic)
        np.testing.assert_array_equal(result.pvalue, reference.pvalue)
    # Counts beyond 2**63: still exact, no overflow.
    big = np.array([[3 * 10**9, 3 * 10**9 + 1, 3 * 10**9 - 1]], dtype=object)
    statistic, _ = _omnibus._cochran_statistic(big, np.array([10**19], object), 3)
    assert np.isfinite(statistic).all()


# --------------------------------------------------------------------------
# Degenerate input: p = 1, never NaN, never a warning
# --------------------------------------------------------------------------


def _degenerate_cases(rng):
    column = random_correct(rng, (37, 1), 0.6)
    return {
        "all right": np.ones((25, 4), bool),
        "all wrong": np.zeros((25, 4), bool),
        "identical columns": np.repeat(column, 3, axis=1),
        "one record": np.array([[True, False, True]]),
    }


@pytest.mark.parametrize(
    "case", ["all right", "all wrong", "identical columns", "one record"]
)
def test_degenerate_input_gives_pvalue_one(case, rng):
    correct = _degenerate_cases(rng)[case]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        results = [
            cochran_q(correct),
            looney_f(correct),
            bcv_cochran_q([correct, correct]),
        ]
    if case == "one record":
        # Cochran's Q is defined (McNemar-like) on one record; Looney's F has
        # no residual degree of freedom.
        results = results[1:2]
    for result in results:
        assert result.statistic == 0.0
        assert result.pvalue == 1.0
        assert result.reject is False


def _float_transcription(correct):
    """Looney's SSA and SSAB as the textbook formulas read, in floats."""
    n_records, n_estimators = correct.shape
    acc = correct.mean(axis=0)
    mean_acc = acc.mean()
    u = correct.sum(axis=1)
    ssa = n_records * np.sum(acc**2) - n_records * n_estimators * mean_acc**2
    ssb = np.sum(u**2) / n_estimators - n_estimators * n_records * mean_acc**2
    sst = n_estimators * n_records * mean_acc * (1 - mean_acc)
    return ssa, sst - ssa - ssb


def test_identical_estimators_exactly_zero_where_floats_leave_a_residue():
    # Three identical estimators right on 7 of 10 records: in floats SSA and
    # SSAB come out as 5.3e-15 and -1.1e-14 (mlxtend's ftest then returns
    # F = -4.5); from the integer counts both are exactly 0, hence F = 0 and
    # p = 1.
    column = np.array([True] * 7 + [False] * 3)
    correct = np.column_stack([column, column, column])
    float_ssa, float_ssab = _float_transcription(correct.astype(float))
    assert float_ssa != 0.0 and float_ssab != 0.0
    result = looney_f(correct)
    assert result.ssa == 0.0 and result.ssab == 0.0
    assert result.statistic == 0.0 and result.pvalue == 1.0


def test_additive_table_gives_infinite_f():
    # One estimator right on every record, another on none: SSAB = 0 < SSA,
    # F = inf and p = 0 (the degenerate rule), without a warning.
    correct = np.column_stack([np.ones(6, bool), np.zeros(6, bool)])
    result = looney_f(correct)
    assert result.statistic == np.inf and result.pvalue == 0.0
    assert result.reject is True
    q = cochran_q(correct)  # Q = (6 - 0)² / 6 = 6, finite
    assert q.statistic == pytest.approx(6.0)


# --------------------------------------------------------------------------
# Registry
# --------------------------------------------------------------------------


def test_registry_declarations():
    assert available_tests(kind="many") == ["bcv_cochran_q", "cochran_q", "looney_f"]
    designs = {"cochran_q": "holdout", "looney_f": "holdout", "bcv_cochran_q": "bcv"}
    for name, design in designs.items():
        entry = get_entry(name)
        assert entry.kind == "many"
        assert entry.needs == ("correct",)
        assert entry.design == design
        assert entry.alternatives == ("two-sided",)
        assert not entry.honours("greater") and not entry.honours("less")
    assert get_test("cochran_q") is cochran_q
    assert get_test("looney_f") is looney_f
    assert get_test("bcv_cochran_q") is bcv_cochran_q
    assert available_tests(design="holdout", kind="many") == ["cochran_q", "looney_f"]
    assert available_tests(design="bcv", kind="many") == ["bcv_cochran_q"]
    for name in OMNIBUS:
        assert name not in available_tests(kind="pair")


def test_registered_tests_called_by_keyword():
    result = get_test("cochran_q")(correct=[KUNCHEVA], alpha=0.01)
    assert result.reject is False and result.alpha == 0.01


# --------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------


@pytest.mark.parametrize("name", OMNIBUS)
@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_one_sided_alternative_refused(name, alternative):
    correct = [KUNCHEVA] if name != "bcv_cochran_q" else [KUNCHEVA, KUNCHEVA]
    with pytest.raises(
        ValueError,
        match=rf"{name} supports alternative in \['two-sided'\] only; got "
        rf"'{alternative}'",
    ):
        get_test(name)(correct, alternative=alternative)
    with pytest.raises(ValueError, match="alternative must be one of"):
        get_test(name)(correct, alternative="bigger")


@pytest.mark.parametrize("test", HOLDOUT, ids=lambda t: t.__name__)
def test_holdout_tests_need_one_split(test, rng):
    correct = random_correct(rng, (10, 30, 3))
    with pytest.raises(
        ValueError,
        match=rf"{test.__name__} needs correct of one hold-out split .*got 10 "
        r"splits\. Use bcv_cochran_q for the splits of an m×2 BCV",
    ):
        test(correct)
    with pytest.raises(ValueError, match="got 2 splits"):
        test([correct[0], correct[1]])


@pytest.mark.parametrize("n_splits", [1, 3, 9])
def test_bcv_cochran_q_needs_mx2_design(n_splits, rng):
    correct = random_correct(rng, (n_splits, 30, 3))
    with pytest.raises(
        ValueError,
        match=rf"bcv_cochran_q needs correct of an m×2 \(BCV\) design: 2m "
        rf"splits, m >= 1.*got {n_splits} split.*Use cochran_q or looney_f",
    ):
        bcv_cochran_q(correct)


@pytest.mark.parametrize(
    "correct, message",
    [
        (
            np.ones((10, 1), bool),
            r"correct must have one column per estimator and "
            r"at least 2 estimators to compare; got 1 column\(s\)",
        ),
        (np.ones((0, 3), bool), r"at least one test record per split; split 0"),
        ([np.ones((5, 3), bool), np.ones((0, 3), bool)], r"split 1 has none"),
        (
            [np.ones((5, 3), bool), np.ones((5, 4), bool)],
            r"the same number in every split; got \[3, 4\] columns",
        ),
        (
            [np.ones((2, 5, 3), bool), np.ones((5, 3), bool)],
            r"same leading batch dimensions in every split",
        ),
        (
            np.ones(5, bool),
            r"correct must be a list with one boolean array of "
            r"shape \(n_test_i, n_estimators\) per split.*got shape \(5,\)",
        ),
        ([], r"correct must be a list .*got an empty"),
        (
            np.full((5, 3), 2),
            r"correct must hold booleans \(or the integers 0 and "
            r"1\).*got the value 2",
        ),
        (np.full((5, 3), -1), r"got the value -1"),
        (np.full((5, 3), 0.5), r"correct must hold booleans.*got dtype float64"),
        (np.ones((5, 3)), r"got dtype float64"),
        (np.array([["a", "b"], ["c", "d"]]), r"got dtype <U1"),
        ([[1, 0, 1], [1, 0]], r"ragged nested sequence"),
        (
            [np.ones((5, 3), bool), np.full((5, 3), 7)],
            r"correct\[1\] must hold booleans.*got the value 7",
        ),
    ],
)
def test_bad_correct(correct, message):
    for test in (cochran_q, looney_f, bcv_cochran_q):
        with pytest.raises(ValueError, match=message):
            test(correct)


@pytest.mark.parametrize("name", OMNIBUS)
@pytest.mark.parametrize("alpha", [0, 1, -0.1, 1.5, np.nan, "0.05", True])
def test_bad_alpha(name, alpha):
    with pytest.raises(ValueError, match=r"alpha must be a number in \(0, 1\)"):
        get_test(name)(
            [KUNCHEVA, KUNCHEVA][: 1 + (name == "bcv_cochran_q")], alpha=alpha
        )


@pytest.mark.parametrize(
    "params, message",
    [
        ({"rho1": 1.0}, r"rho1 must be a number in \(-1, 1\); got 1.0"),
        ({"rho1": -1.0}, r"rho1 must be a number in \(-1, 1\)"),
        ({"rho2": -0.1}, r"rho2 must be a number in \[0, 1\)"),
        ({"rho2": "0.5"}, r"rho2 must be a number in \[0, 1\)"),
        ({"rho1": 0.0, "rho2": 0.6}, r"rho2 must be at most \(1 \+ rho1\) / 2"),
    ],
)
def test_bcv_cochran_q_rho_validation(params, message, rng):
    correct = random_correct(rng, (4, 20, 3))
    with pytest.raises(ValueError, match=message):
        bcv_cochran_q(correct, **params)
    # With one repetition the eq. 9 bound does not apply (as bcv_mcnemar).
    if "rho2" in params and params.get("rho1") == 0.0:
        bcv_cochran_q(correct[:2], **params)


def test_results_are_plain_python_scalars():
    for result in (cochran_q(KUNCHEVA), looney_f(KUNCHEVA)):
        assert type(result.statistic) is float
        assert type(result.pvalue) is float
        assert type(result.reject) is bool
    assert isinstance(looney_f(KUNCHEVA).df, tuple)
    assert all(type(df) is int for df in looney_f(KUNCHEVA).df)
    result = bcv_cochran_q([KUNCHEVA, KUNCHEVA])
    assert type(result.statistic) is float and type(result.t) is float
    assert type(result.mean_denominator) is float
