"""Tests of mcnemar, kfold_mcnemar, bcv_mcnemar and mcnemar_table."""

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from sklearn_bcv import get_test, mcnemar_table
from sklearn_bcv.stats import bcv_mcnemar, kfold_mcnemar, mcnemar

# A RuntimeWarning (0/0, sqrt of a negative, ...) is a bug here.
pytestmark = pytest.mark.filterwarnings("error")

ALTERNATIVES = ["two-sided", "greater", "less"]

# Raschka (seed 004), subpanels A and B, written in our layout with A =
# "Model 1": mlxtend's [[9959, 11], [1, 29]] (rows/columns: correct, wrong)
# becomes table[a_correct, b_correct] = [[29, 1], [11, 9959]].
RASCHKA_A = np.array([[29, 1], [11, 9959]])
RASCHKA_B = np.array([[15, 15], [25, 9945]])


def table_strategy(n_splits, max_count=40):
    return arrays(np.int64, (n_splits, 2, 2), elements=st.integers(0, max_count))


def swap_estimators(tables):
    """Tables with the roles of A and B exchanged."""
    return np.swapaxes(tables, -1, -2)


# --------------------------------------------------------------------------
# mcnemar_table
# --------------------------------------------------------------------------


def test_mcnemar_table_layout():
    # Records: both right, A right only, B right only, both wrong.
    y_true = np.array([1, 1, 1, 1])
    y_pred_a = np.array([1, 1, 0, 0])
    y_pred_b = np.array([1, 0, 1, 0])
    table = mcnemar_table(y_true, y_pred_a, y_pred_b)
    assert table.dtype.kind == "i"
    # table[a_correct, b_correct]: n10 = A right, B wrong; n01 = A wrong, B right
    np.testing.assert_array_equal(table, [[1, 1], [1, 1]])
    table = mcnemar_table(y_true, [1, 1, 1, 0], [0, 0, 1, 0])
    assert table[1, 0] == 2 and table[0, 1] == 0
    assert table[1, 1] == 1 and table[0, 0] == 1


def test_mcnemar_table_matches_record_loop(rng):
    y_true = rng.choice(["cat", "dog", "eel"], size=300)
    y_pred_a = np.where(rng.random(300) < 0.8, y_true, "dog")
    y_pred_b = np.where(rng.random(300) < 0.6, y_true, "eel")
    expected = np.zeros((2, 2), dtype=int)
    for truth, a, b in zip(y_true, y_pred_a, y_pred_b):
        expected[int(a == truth), int(b == truth)] += 1
    table = mcnemar_table(list(y_true), y_pred_a, y_pred_b)
    np.testing.assert_array_equal(table, expected)
    assert table.sum() == 300


def test_mcnemar_table_reproduces_raschka_example():
    # Rebuild predictions from subpanel A: accuracies 99.7% (A) and 99.6% (B).
    counts = {(0, 0): 29, (0, 1): 1, (1, 0): 11, (1, 1): 9959}
    y_true, y_pred_a, y_pred_b = [], [], []
    for (a_right, b_right), count in counts.items():
        y_true += [1] * count
        y_pred_a += [a_right] * count
        y_pred_b += [b_right] * count
    table = mcnemar_table(y_true, y_pred_a, y_pred_b)
    np.testing.assert_array_equal(table, RASCHKA_A)
    assert table[1].sum() / table.sum() == pytest.approx(0.997)
    assert table[:, 1].sum() / table.sum() == pytest.approx(0.996)


def test_mcnemar_table_empty_input():
    np.testing.assert_array_equal(mcnemar_table([], [], []), np.zeros((2, 2)))


def test_mcnemar_table_length_mismatch():
    with pytest.raises(
        ValueError,
        match=r"must have the same length; got y_true: 3, y_pred_a: 2, y_pred_b: 3",
    ):
        mcnemar_table([0, 1, 1], [0, 1], [0, 1, 1])


@pytest.mark.parametrize("bad", ["y_true", "y_pred_a", "y_pred_b"])
def test_mcnemar_table_not_1d(bad):
    args = {name: [0, 1] for name in ("y_true", "y_pred_a", "y_pred_b")}
    args[bad] = [[0, 1], [1, 0]]
    with pytest.raises(ValueError, match=rf"{bad} must be a 1-D array.*\(2, 2\)"):
        mcnemar_table(**args)


# --------------------------------------------------------------------------
# mcnemar: worked examples and reference implementations
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "table, chi2, pvalue",
    # seed 004: "b=1, c=11 -> 8.333, p 0.0039"; "b=15, c=25 -> 2.5, p 0.1138"
    [(RASCHKA_A, 8.333, 0.0039), (RASCHKA_B, 2.5, 0.1138)],
)
def test_mcnemar_seed_004_worked_examples(table, chi2, pvalue):
    result = mcnemar(table, correction=False)
    assert result.statistic == pytest.approx(chi2, abs=5e-4)
    assert result.pvalue == pytest.approx(pvalue, abs=5e-5)
    assert result.df == 1
    assert result.test == "mcnemar"
    assert result.reject is (pvalue < 0.05)


def test_mcnemar_edwards_correction_by_hand():
    # (|1 - 11| - 1)**2 / 12 = 81 / 12 = 6.75; (|15 - 25| - 1)**2 / 40 = 2.025
    assert mcnemar(RASCHKA_A).statistic == pytest.approx(6.75)
    assert mcnemar(RASCHKA_B).statistic == pytest.approx(2.025)
    assert mcnemar(RASCHKA_A).pvalue == pytest.approx(stats.chi2.sf(6.75, 1))
    # |b - c| <= 1: the corrected numerator is clipped at 0, not squared up.
    assert mcnemar([[3, 4], [5, 9]]).statistic == 0.0
    assert mcnemar([[3, 4], [5, 9]]).pvalue == 1.0


def test_mcnemar_accepts_one_split_in_3d():
    flat = mcnemar(RASCHKA_A)
    stacked = mcnemar(RASCHKA_A[np.newaxis])
    assert stacked.statistic == flat.statistic and stacked.pvalue == flat.pvalue


@pytest.mark.parametrize("b, c", [(1, 11), (15, 25), (0, 7), (6, 0), (5, 5), (3, 4)])
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_mcnemar_exact_matches_scipy_binomtest(b, c, alternative):
    result = mcnemar([[10, b], [c, 20]], exact=True, alternative=alternative)
    # c successes (A right, B wrong) in b + c trials; "greater" = A better.
    expected = stats.binomtest(c, b + c, 0.5, alternative=alternative).pvalue
    assert result.pvalue == pytest.approx(expected, rel=1e-12)
    assert result.statistic == c and type(result.statistic) is int
    assert result.df is None


@pytest.mark.parametrize("s, f", [(3, 0), (7, 2), (10, 10), (1, 12)])
def test_mcnemar_exact_matches_salzberg_sum(s, f):
    # seed 003: s = #(I wrong, II right), f = #(I right, II wrong), and
    # p = P[S >= s] = sum_{s'=s}^{s+f} C(s+f, s') 0.5**(s+f) for the
    # alternative "II better". With A = system I that is alternative="less".
    expected = sum(math.comb(s + f, k) for k in range(s, s + f + 1)) / 2 ** (s + f)
    result = mcnemar([[0, s], [f, 0]], exact=True, alternative="less")
    assert result.pvalue == pytest.approx(expected, rel=1e-12)


def test_mcnemar_exact_two_sided_formula():
    # FORMULAS.md: p = min(1, 2 binom.cdf(min(b, c), b + c, 1/2)); b=1, c=11
    # gives 2 * 13 / 4096 = 0.00634765625.
    result = mcnemar(RASCHKA_A, exact=True)
    assert result.pvalue == pytest.approx(2 * 13 / 4096, rel=1e-12)


@given(tables=table_strategy(1), correction=st.booleans())
def test_mcnemar_one_sided_are_normal_tails(tables, correction):
    two = mcnemar(tables, correction=correction)
    greater = mcnemar(tables, correction=correction, alternative="greater")
    less = mcnemar(tables, correction=correction, alternative="less")
    assert greater.z == two.z == less.z
    if tables[0, 0, 1] + tables[0, 1, 0] == 0:
        # No disagreement: no evidence either way, p = 1 on both sides.
        assert greater.pvalue == less.pvalue == two.pvalue == 1.0
        return
    assert greater.pvalue == pytest.approx(stats.norm.sf(two.z), abs=1e-12)
    assert greater.pvalue + less.pvalue == pytest.approx(1.0)
    # chi2(1).sf(z**2) = 2 norm.sf(|z|): the two-sided p is twice the smaller tail.
    assert two.pvalue == pytest.approx(
        min(1.0, 2 * min(greater.pvalue, less.pvalue)), abs=1e-12
    )


def test_mcnemar_direction():
    # A right on 11 records B gets wrong, B right on 1: A is better.
    assert mcnemar(RASCHKA_A).z > 0
    assert mcnemar(RASCHKA_A, alternative="greater").reject is True
    assert mcnemar(RASCHKA_A, alternative="less").reject is False
    assert mcnemar(RASCHKA_A, exact=True, alternative="greater").reject is True
    assert mcnemar(RASCHKA_A, exact=True, alternative="less").pvalue > 0.99


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("correction", [False, True])
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_mcnemar_no_disagreement(exact, correction, alternative):
    # n01 + n10 = 0: statistic 0, p-value 1 (not NaN, not "significant").
    result = mcnemar(
        [[12, 0], [0, 88]], exact=exact, correction=correction, alternative=alternative
    )
    # FORMULAS.md: p-value 1 for every alternative, not the 1/2 a normal tail
    # at z = 0 would give.
    assert result.statistic == 0
    assert result.pvalue == 1.0
    assert result.reject is False


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_mcnemar_one_sided_at_zero_with_disagreement(alternative):
    # |b - c| = 1 with correction: the statistic is 0 but the records do
    # disagree, so this is an ordinary z = 0, whose one-sided tail is 1/2.
    result = mcnemar([[3, 4], [5, 9]], alternative=alternative)
    assert result.statistic == 0.0 and result.z == 0.0
    assert result.pvalue == 0.5


def test_mcnemar_rejects_several_splits():
    with pytest.raises(
        ValueError,
        match=r"mcnemar needs the table of one hold-out split; got 10 tables\. "
        r"Use kfold_mcnemar .*k folds or bcv_mcnemar .*m×2 BCV",
    ):
        mcnemar(np.ones((10, 2, 2), dtype=int))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"alpha": 0}, r"alpha must be a number in \(0, 1\); got 0"),
        ({"alpha": 1.5}, r"alpha must be a number in \(0, 1\); got 1.5"),
        ({"alternative": "bigger"}, r"alternative must be one of .*'bigger'"),
        ({"correction": 1}, r"correction must be True or False; got 1"),
        ({"exact": "yes"}, r"exact must be True or False; got 'yes'"),
    ],
)
def test_mcnemar_parameter_validation(kwargs, message):
    with pytest.raises(ValueError, match=message):
        mcnemar(RASCHKA_A, **kwargs)


@pytest.mark.parametrize(
    "tables, message",
    [
        ([[1, 2, 3], [4, 5, 6]], r"tables must have shape \(n_splits, 2, 2\)"),
        ([[1, -2], [3, 4]], r"tables must be non-negative counts"),
        ([[1, 2.5], [3, 4]], r"tables must be whole-number counts"),
        ([[1, np.nan], [3, 4]], r"tables must be finite counts"),
        ([["a", "b"], ["c", "d"]], r"tables must be an array of counts"),
        ([[1, 2], [3]], r"tables must be an array of shape .* got a ragged"),
        (np.zeros((0, 2, 2)), r"tables must hold at least one table"),
    ],
)
def test_mcnemar_table_validation(tables, message):
    with pytest.raises(ValueError, match=message):
        mcnemar(tables)


# --------------------------------------------------------------------------
# kfold_mcnemar
# --------------------------------------------------------------------------


def test_kfold_mcnemar_eq5_by_hand():
    tables = [[[5, 3], [9, 33]], [[4, 6], [8, 32]], [[6, 2], [10, 32]]]
    # eq. 5: (|3-9|-1)^2/12 + (|6-8|-1)^2/14 + (|2-10|-1)^2/12
    expected = 25 / 12 + 1 / 14 + 49 / 12
    result = kfold_mcnemar(tables)
    assert result.statistic == pytest.approx(expected)
    assert result.df == 3
    assert result.pvalue == pytest.approx(stats.chi2.sf(expected, 3))


@given(tables=table_strategy(5))
def test_kfold_mcnemar_is_sum_of_holdout_statistics(tables):
    expected = sum(mcnemar(table).statistic for table in tables)
    assert kfold_mcnemar(tables).statistic == pytest.approx(expected, rel=1e-12)


def test_kfold_mcnemar_fold_without_disagreement_adds_zero():
    tables = np.array([[[5, 3], [9, 33]], [[10, 0], [0, 40]]])
    result = kfold_mcnemar(tables)
    assert result.statistic == pytest.approx(25 / 12)
    assert result.df == 2
    silent = kfold_mcnemar(np.tile([[10, 0], [0, 40]], (4, 1, 1)))
    assert silent.statistic == 0 and silent.pvalue == 1.0


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_kfold_mcnemar_is_two_sided_only(alternative):
    with pytest.raises(
        ValueError,
        match=r"kfold_mcnemar supports alternative in \['two-sided'\] only; "
        rf"got '{alternative}'",
    ):
        kfold_mcnemar(np.ones((3, 2, 2), dtype=int), alternative=alternative)


@pytest.mark.parametrize("tables", [[[1, 2], [3, 4]], [[[1, 2], [3, 4]]]])
def test_kfold_mcnemar_needs_two_folds(tables):
    with pytest.raises(
        ValueError,
        match=r"kfold_mcnemar needs the tables of k >= 2 folds; got 1 table\. "
        r"Use mcnemar",
    ):
        kfold_mcnemar(tables)


# --------------------------------------------------------------------------
# bcv_mcnemar
# --------------------------------------------------------------------------


def eq15_literal(tables):
    """Seed 000 eq. 15, written out: 20(|n01 - n10| - 11/20)^2 / (11(n01 + n10))."""
    nbar01 = sum(table[0][1] for table in tables) / 10
    nbar10 = sum(table[1][0] for table in tables) / 10
    return 20 * (abs(nbar01 - nbar10) - 11 / 20) ** 2 / (11 * (nbar01 + nbar10))


@given(tables=table_strategy(10))
def test_bcv_mcnemar_5x2_is_eq15(tables):
    nbar01, nbar10 = tables[:, 0, 1].mean(), tables[:, 1, 0].mean()
    result = bcv_mcnemar(tables)
    assert result.t == pytest.approx(20 / 11)
    if abs(nbar01 - nbar10) >= 11 / 20:
        expected = eq15_literal(tables.tolist())
        assert result.statistic == pytest.approx(expected, rel=1e-12, abs=1e-12)
        assert result.pvalue == pytest.approx(stats.chi2.sf(expected, 1), rel=1e-9)
    else:
        # Eq. 15 squares a negative |d| - 11/20; the corrected statistic is 0.
        assert result.statistic == 0.0 and result.pvalue == 1.0


def test_bcv_mcnemar_worked_example():
    n01 = [3, 4, 2, 5, 3, 4, 3, 2, 4, 3]
    n10 = [8, 7, 9, 6, 8, 9, 7, 8, 6, 9]
    tables = np.array([[[10, a], [b, 90 - a - b]] for a, b in zip(n01, n10)])
    result = bcv_mcnemar(tables)
    # nbar01 = 3.3, nbar10 = 7.7: 20 (4.4 - 0.55)^2 / (11 * 11) = 2.45
    assert result.statistic == pytest.approx(2.45)
    assert result.pvalue == pytest.approx(stats.chi2.sf(2.45, 1))
    assert result.df == 1
    np.testing.assert_allclose(result.mean_table, [[10, 3.3], [7.7, 79]])
    np.testing.assert_allclose(result.effective_table, 20 / 11 * result.mean_table)
    # eq. 12: n_e = 5n / (1 + rho1 + 8 rho2) with n = 200 records
    assert result.effective_size == pytest.approx(5 * 200 / (1 + 0.5 + 4))
    assert result.z == pytest.approx(np.sqrt(2.45))
    assert (result.rho1, result.rho2) == (0.5, 0.5)


@pytest.mark.parametrize("n_repeats", [1, 3, 5, 8])
@pytest.mark.parametrize("rho1, rho2", [(0.5, 0.5), (0.0, 0.0), (0.1, 0.3), (0.9, 0.2)])
def test_bcv_mcnemar_t_general_m(n_repeats, rho1, rho2, rng):
    tables = rng.integers(0, 30, size=(2 * n_repeats, 2, 2))
    result = bcv_mcnemar(tables, rho1=rho1, rho2=rho2)
    # Var of the mean of 2m estimates with sigma^2, rho1 within a repetition
    # and rho2 across: sigma^2 (2m + 2m rho1 + 2m (2m - 2) rho2) / (2m)^2; the
    # effective table keeps the HO variance sigma^2 at size t n/2, so
    # t = 2m / (1 + rho1 + 2(m - 1) rho2).
    t = 2 * n_repeats / (1 + rho1 + 2 * (n_repeats - 1) * rho2)
    assert result.t == pytest.approx(t)
    if n_repeats == 5:  # eq. 14
        assert result.t == pytest.approx(10 / (1 + rho1 + 8 * rho2))
    nbar = tables.mean(axis=0)
    np.testing.assert_allclose(result.mean_table, nbar)
    np.testing.assert_allclose(result.effective_table, t * nbar)
    assert result.effective_size == pytest.approx(t * nbar.sum())
    # eq. 13 on the effective table equals eq. 14 on the mean table
    n01_e, n10_e = t * nbar[0, 1], t * nbar[1, 0]
    expected = max(abs(n01_e - n10_e) - 1, 0) ** 2 / (n01_e + n10_e)
    assert result.statistic == pytest.approx(expected, rel=1e-12)


def test_bcv_mcnemar_one_sided():
    tables = np.tile([[10, 2], [9, 79]], (10, 1, 1))
    two = bcv_mcnemar(tables)
    greater = bcv_mcnemar(tables, alternative="greater")
    less = bcv_mcnemar(tables, alternative="less")
    # nbar10 > nbar01: A better, z = +sqrt(statistic)
    assert greater.z == pytest.approx(np.sqrt(two.statistic))
    assert greater.pvalue == pytest.approx(stats.norm.sf(greater.z))
    assert less.pvalue == pytest.approx(stats.norm.cdf(greater.z))
    assert two.pvalue == pytest.approx(2 * greater.pvalue)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_bcv_mcnemar_no_disagreement(alternative):
    result = bcv_mcnemar(
        np.tile([[10, 0], [0, 90]], (10, 1, 1)), alternative=alternative
    )
    assert result.statistic == 0.0 and result.z == 0.0
    assert result.pvalue == 1.0
    assert result.reject is False


@given(
    tables=table_strategy(10, max_count=30),
    scale=st.integers(1, 6),
    rho1=st.floats(-0.9, 0.9),
    rho2_fraction=st.floats(0, 1),
)
def test_bcv_mcnemar_scaling_relation(tables, scale, rho1, rho2_fraction):
    rho2 = rho2_fraction * (1 + rho1) / 2  # a possible correlation (eq. 9)
    # With d = nbar01 - nbar10, s = nbar01 + nbar10 and |d| >= 1/t, the
    # statistic is t (|d| - 1/t)^2 / s, so sqrt(stat) = sqrt(t/s)(|d| - 1/t).
    # Scaling every count by c: sqrt(t/(cs)) (c|d| - 1/t)
    #   = sqrt(c) sqrt(stat) + (c - 1) / sqrt(c t s).
    # Without the continuity term it would be exactly c * stat.
    base = bcv_mcnemar(tables, rho1=rho1, rho2=rho2)
    d = tables[:, 0, 1].mean() - tables[:, 1, 0].mean()
    s = tables[:, 0, 1].mean() + tables[:, 1, 0].mean()
    assume(abs(d) >= 1 / base.t and s > 0)
    scaled = bcv_mcnemar(scale * tables, rho1=rho1, rho2=rho2)
    expected_root = np.sqrt(scale * base.statistic) + (scale - 1) / np.sqrt(
        scale * base.t * s
    )
    assert np.sqrt(scaled.statistic) == pytest.approx(expected_root, rel=1e-9)


@pytest.mark.parametrize("n_splits", [1, 3, 9])
def test_bcv_mcnemar_needs_mx2_design(n_splits):
    with pytest.raises(
        ValueError,
        match=rf"bcv_mcnemar needs the tables of an m×2 \(BCV\) design: 2m "
        rf"splits.*got {n_splits} tables",
    ):
        bcv_mcnemar(np.ones((n_splits, 2, 2), dtype=int))


@pytest.mark.parametrize(
    "name, value, interval",
    [
        ("rho1", -1.0, r"\(-1, 1\)"),
        ("rho1", 1.0, r"\(-1, 1\)"),
        ("rho2", -0.1, r"\[0, 1\)"),
        ("rho2", 1.0, r"\[0, 1\)"),
    ]
    + [
        (name, value, r"\(-1, 1\)" if name == "rho1" else r"\[0, 1\)")
        for name in ("rho1", "rho2")
        for value in (2, np.nan, np.inf, True, "0.5", None)
    ],
)
def test_bcv_mcnemar_rho_validation(name, value, interval):
    with pytest.raises(ValueError, match=rf"{name} must be a number in {interval}"):
        bcv_mcnemar(np.ones((10, 2, 2), dtype=int), **{name: value})


def test_bcv_mcnemar_rho2_bounded_by_eq9():
    # Eq. 9: rho2 < (1 + rho1) / 2, else the eigenvalue 1 + rho1 - 2 rho2 of
    # the assumed correlation matrix is negative (no such estimates exist).
    with pytest.raises(
        ValueError, match=r"rho2 must be at most \(1 \+ rho1\) / 2 = 0.6 .*eq. 9"
    ):
        bcv_mcnemar(np.ones((10, 2, 2), dtype=int), rho1=0.2, rho2=0.7)
    # The boundary (a singular matrix, e.g. Lemma 3's rho1 = 0, rho2 = 1/2)
    # is allowed, and with one repetition rho2 plays no role.
    assert bcv_mcnemar(np.ones((10, 2, 2), dtype=int), rho1=0.0, rho2=0.5).t == 2.0
    assert bcv_mcnemar(np.ones((2, 2, 2), dtype=int), rho1=0.0, rho2=0.9).t == 2.0


def test_bcv_mcnemar_negative_rho1():
    # Yang et al.'s Figure 1: rho1 varies around 0; a negative value is a
    # valid (more liberal) assumption: t = 10 / (1 - 0.2 + 8 * 0.25) = 10 / 2.8.
    result = bcv_mcnemar(np.tile([[10, 2], [9, 79]], (10, 1, 1)), rho1=-0.2, rho2=0.25)
    assert result.t == pytest.approx(10 / 2.8)
    assert result.rho1 == -0.2


def test_bcv_mcnemar_alpha_validation():
    with pytest.raises(ValueError, match=r"alpha must be a number in \(0, 1\)"):
        bcv_mcnemar(np.ones((10, 2, 2), dtype=int), alpha=-1)


# --------------------------------------------------------------------------
# Properties shared by the McNemar family
# --------------------------------------------------------------------------

FAMILY = [
    ("mcnemar", 1, {}),
    ("mcnemar", 1, {"correction": False}),
    ("mcnemar", 1, {"exact": True}),
    ("kfold_mcnemar", 10, {}),
    ("bcv_mcnemar", 10, {}),
    ("bcv_mcnemar", 6, {"rho1": 0.1, "rho2": 0.3}),
]
FAMILY_IDS = [f"{name}-{n}-{params}" for name, n, params in FAMILY]


def alternatives_of(name):
    return ["two-sided"] if name == "kfold_mcnemar" else ALTERNATIVES


@pytest.mark.parametrize("name, n_splits, params", FAMILY, ids=FAMILY_IDS)
@given(data=st.data())
def test_family_pvalues_in_unit_interval(name, n_splits, params, data):
    tables = data.draw(table_strategy(n_splits))
    for alternative in alternatives_of(name):
        result = get_test(name)(tables=tables, alternative=alternative, **params)
        assert 0.0 <= result.pvalue <= 1.0
        assert result.statistic >= 0
        assert result.reject == (result.pvalue < 0.05)


@pytest.mark.parametrize("name, n_splits, params", FAMILY, ids=FAMILY_IDS)
@given(data=st.data())
def test_family_swapping_estimators(name, n_splits, params, data):
    tables = data.draw(table_strategy(n_splits))
    test = get_test(name)
    swapped = swap_estimators(tables)
    two, two_swapped = test(tables, **params), test(swapped, **params)
    assert two.pvalue == pytest.approx(two_swapped.pvalue, rel=1e-12, abs=1e-15)
    if "z" in two:
        assert two.z == -two_swapped.z
    if name == "kfold_mcnemar":
        assert two.statistic == pytest.approx(two_swapped.statistic, rel=1e-12)
        return
    greater = test(tables, alternative="greater", **params)
    less_swapped = test(swapped, alternative="less", **params)
    assert greater.pvalue == pytest.approx(less_swapped.pvalue, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("name, n_splits, params", FAMILY, ids=FAMILY_IDS)
@given(data=st.data())
def test_family_depends_only_on_discordant_counts(name, n_splits, params, data):
    tables = data.draw(table_strategy(n_splits))
    diagonal = data.draw(arrays(np.int64, (n_splits, 2), elements=st.integers(0, 99)))
    changed = tables.copy()
    changed[:, 0, 0], changed[:, 1, 1] = diagonal[:, 0], diagonal[:, 1]
    for alternative in alternatives_of(name):
        a = get_test(name)(tables, alternative=alternative, **params)
        b = get_test(name)(changed, alternative=alternative, **params)
        assert a.statistic == b.statistic and a.pvalue == b.pvalue


@pytest.mark.parametrize("name, n_splits, params", FAMILY, ids=FAMILY_IDS)
def test_family_batched_equals_loop(name, n_splits, params, rng):
    tables = rng.integers(0, 25, size=(3, 4, n_splits, 2, 2))
    tables[0, 0] = 0  # a batch member with no disagreement at all
    test = get_test(name)
    for alternative in alternatives_of(name):
        batched = test(tables, alternative=alternative, **params)
        assert np.shape(batched.statistic) == (3, 4)
        assert np.shape(batched.reject) == (3, 4)
        for i in range(3):
            for j in range(4):
                single = test(tables[i, j], alternative=alternative, **params)
                # equal up to the order of floating-point summation
                for key in (
                    "statistic",
                    "pvalue",
                    "z",
                    "mean_table",
                    "effective_table",
                    "effective_size",
                ):
                    if key in single:
                        np.testing.assert_allclose(
                            batched[key][i, j], single[key], rtol=1e-12, atol=1e-15
                        )
                assert batched.reject[i, j] == single.reject


def test_batched_simulation_of_ten_thousand_comparisons(rng):
    # Under H0 (n01 and n10 exchangeable) the corrected tests stay near or
    # below alpha; one numpy call evaluates all 10,000 comparisons.
    n01 = rng.binomial(30, 0.5, size=(10_000, 10))
    tables = np.zeros((10_000, 10, 2, 2), dtype=np.int64)
    tables[..., 0, 1], tables[..., 1, 0] = n01, 30 - n01
    tables[..., 1, 1] = 70
    result = bcv_mcnemar(tables)
    assert result.pvalue.shape == (10_000,)
    assert result.reject.mean() < 0.05
    holdout = mcnemar(tables[:, :1])
    assert holdout.reject.mean() < 0.05


def test_results_are_plain_python_scalars():
    result = bcv_mcnemar(np.tile([[10, 2], [9, 79]], (10, 1, 1)))
    for key in ("statistic", "pvalue", "z", "t", "effective_size"):
        assert type(result[key]) is float, key
    assert type(result.reject) is bool
    assert result.mean_table.shape == (2, 2)
    assert result.mean_table.dtype == np.float64
