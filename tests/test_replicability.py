"""Tests of the replicability count (``sklearn_bcv/stats/_replicability.py``)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats

from sklearn_bcv.stats import adjust_pvalues, replicability
from sklearn_bcv.stats._replicability import partial_conjunction


def test_hand_derived_bonferroni():
    # N = 5, sorted p: .001 .01 .02 .2 .5; (N - u + 1) p_(u):
    # .005 .04 .06 .4 .5 -> count 2 at 0.05 (3 at 0.1).
    p = [0.2, 0.001, 0.5, 0.02, 0.01]
    result = replicability(p, datasets=list("abcde"))
    assert_allclose(result.partial_pvalues, [0.005, 0.04, 0.06, 0.4, 0.5])
    assert result.count == 2
    assert result.identified == [1, 4]
    assert result.identified_datasets == ["b", "e"]
    assert replicability(p, alpha=0.1).count == 3
    assert result.n_datasets == 5 and result.method == "bonferroni"


def test_hand_derived_fisher():
    p = np.array([0.01, 0.02, 0.03, 0.5])
    partial = partial_conjunction(np.sort(p), "fisher")
    for u in range(1, 5):
        tail = np.sort(p)[u - 1 :]
        expected = stats.chi2.sf(-2 * np.sum(np.log(tail)), 2 * tail.size)
        assert partial[u - 1] >= expected - 1e-15  # made non-decreasing
    assert partial[0] == pytest.approx(
        stats.chi2.sf(-2 * np.sum(np.log(p)), 8), rel=1e-12
    )
    # Fisher's count combines data sets none of which is convincing alone.
    weak = [0.03] * 10
    assert replicability(weak, method="bonferroni").count == 0
    fisher = replicability(weak, method="fisher")
    assert fisher.count > 0 and fisher.identified == []


def test_a_zero_pvalue_and_ones():
    result = replicability([0.0, 1.0, 1.0], method="fisher")
    assert result.count == 1
    assert replicability([1.0, 1.0]).count == 0


pvalue_lists = st.lists(
    st.floats(0, 1, allow_nan=False, allow_infinity=False), min_size=1, max_size=40
)


@given(pvalue_lists, st.sampled_from([0.01, 0.05, 0.2]))
def test_bonferroni_count_is_holm_identified(p, alpha):
    result = replicability(p, alpha=alpha)
    assert result.count == len(result.identified)
    # Holm's adjusted p-values (the package's adjust_pvalues) agree.
    holm = adjust_pvalues(np.array(p), "holm")
    assert sorted(result.identified) == sorted(np.flatnonzero(holm <= alpha).tolist())
    assert np.all(np.diff(result.partial_pvalues) >= 0)
    fisher = replicability(p, alpha=alpha, method="fisher")
    assert np.all(np.diff(fisher.partial_pvalues) >= -1e-15)
    assert 0 <= fisher.count <= len(p)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"pvalues": [0.1, 1.5]}, r"in \[0, 1\]"),
        ({"pvalues": [0.1, np.nan]}, r"in \[0, 1\]"),
        ({"pvalues": []}, "at least one"),
        ({"pvalues": [[0.1]]}, "1-D array"),
        ({"pvalues": [0.1], "method": "stouffer"}, "method must be one of"),
        ({"pvalues": [0.1], "alpha": 2}, "alpha"),
        ({"pvalues": [0.1, 0.2], "datasets": ["a"]}, "datasets must hold 2"),
    ],
)
def test_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        replicability(**kwargs)


def _error_rate(n_datasets, n_true, method, n_tables, rng):
    """Share of simulated tables in which the count exceeds the number of
    data sets where A is truly better: one-sided z tests per data set, the
    true effect 3 (in standard errors) where it exists, 0 elsewhere."""
    effect = np.zeros(n_datasets)
    effect[:n_true] = 3.0
    z = effect + rng.standard_normal((n_tables, n_datasets))
    p = stats.norm.sf(z)
    over = 0
    for row in p:
        over += replicability(row, method=method).count > n_true
    return over / n_tables


@pytest.mark.parametrize("method", ["bonferroni", "fisher"])
def test_count_error_rate_small(method):
    rate = _error_rate(20, 5, method, 400, np.random.default_rng(3))
    # alpha = 0.05; 400 tables: the Monte Carlo sd is 0.011.
    assert rate <= 0.05 + 3 * 0.011


@pytest.mark.slow
@pytest.mark.parametrize("method", ["bonferroni", "fisher"])
@pytest.mark.parametrize("n_true", [0, 10, 29])
def test_count_error_rate(method, n_true):
    rate = _error_rate(30, n_true, method, 4000, np.random.default_rng(n_true))
    assert rate <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / 4000)
