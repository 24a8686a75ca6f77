"""Tests of simulate_null_across: the type I error of the tests across data sets.

The default tests are small (a few hundred experiments, seconds); the study
of doc/reproduction.rst is marked slow
(``pytest -m slow tests/test_simulation_across.py``).
"""

import numpy as np
import pytest
from scipy import stats as sps

from sklearn_bcv.simulation import _across, simulate_null_across
from sklearn_bcv.simulation._across import (
    DATASET_SIZES,
    SETUPS,
    experiment_decisions,
    null_scores,
)
from sklearn_bcv.stats import (
    adjust_pvalues,
    bayesian_sign,
    bayesian_signed_rank,
    bonferroni_dunn,
    friedman,
    holm,
    nemenyi,
    poisson_binomial,
    sign,
    wilcoxon,
)

ALPHA = 0.05
#: Poisson-binomial decision rates under the matched correlated t model
#: for N = 20 (every p_i iid Uniform(0, 1)): from 200,000 draws,
#: ``benchmarks/reproduce_datasets_null.py``'s ``matched_reference``.
MATCHED_EITHER_N20, MATCHED_GREATER_N20 = 0.0076, 0.0039


#: Nemenyi's family-wise error for N = 20, k = 4 (400,000 random rank
#: tables, doc/reproduction.rst): with its continuity correction it rejects
#: when two rank sums differ by 22 or more; Demšar's uncorrected test, at 21,
#: would exceed alpha (0.0558).
NEMENYI_N20_K4 = 0.0393


def assert_frequentist_at_most_alpha(result):
    """Every frequentist rate <= alpha + 3 Monte Carlo standard errors."""
    se = np.sqrt(ALPHA * (1 - ALPHA) / result.n_experiments)
    for setup in result.setups:
        rates = result.results[setup].rates
        for name in result.frequentist:
            if name in rates:
                assert rates[name] <= ALPHA + 3 * se, (setup, name, rates[name])


# --------------------------------------------------------------------------
# The null score tables
# --------------------------------------------------------------------------


def full_spec(name):
    return {"df": None, "per_split": False, "test_fraction": None, "rho": None} | (
        SETUPS[name]
    )


@pytest.mark.parametrize("name", ["exchangeable", "heavy_tailed"])
def test_null_scores_one_score_per_data_set(name):
    rng = np.random.default_rng(0)
    scores, n_train, n_test = null_scores(full_spec(name), 7, 12, 3, 10, rng)
    assert scores.shape == (7, 12, 3)
    assert n_train is None and n_test is None
    assert np.all(np.isfinite(scores))


@pytest.mark.parametrize(
    "spec, rho",
    [
        ({"per_split": True, "test_fraction": 0.5}, 0.5),
        ({"per_split": True, "test_fraction": None}, 0.1),
        ({"per_split": True, "test_fraction": None, "rho": 0.3}, 0.3),
    ],
)
def test_null_scores_per_split_have_the_correlation_of_the_model(spec, rho):
    spec = {"df": None, "test_fraction": None, "rho": None} | spec
    rng = np.random.default_rng(0)
    scores, n_train, n_test = null_scores(spec, 400, 20, 2, 10, rng)
    assert scores.shape == (400, 20, 10, 2)
    sizes = n_train + n_test
    assert set(np.unique(sizes)) <= set(DATASET_SIZES)
    if spec["rho"] is None:
        # rounding of n_test aside, n_test / n is the design's fraction
        assert np.allclose(n_test / sizes, rho, atol=0.02)
    # The differences of a data set's splits: with n_splits = S, mean dbar
    # and variance s2 (independent under the model), E[dbar² / s2] =
    # (rho / (1 - rho) + 1 / S)·(S - 1) / (S - 3) whatever sigma_i.
    d = scores[..., 0] - scores[..., 1]
    n_splits = d.shape[-1]
    ratio = np.mean(d.mean(axis=-1) ** 2 / d.var(axis=-1, ddof=1))
    odds = ratio * (n_splits - 3) / (n_splits - 1) - 1 / n_splits
    assert abs(odds / (1 + odds) - rho) < 0.05
    # equal expectations: the differences are centred on 0
    assert abs(np.mean(np.sign(d.mean(axis=-1)))) < 0.05


def test_poisson_binomial_posteriors_are_uniform_when_rho_is_matched():
    # Under the correlated t model with the test's rho, the posterior
    # probability that A is better on a data set is exactly Uniform(0, 1):
    # the generator is the model the test assumes.
    rng = np.random.default_rng(1)
    for fraction in (0.5, None):
        spec = {"df": None, "per_split": True, "test_fraction": fraction, "rho": None}
        scores, n_train, n_test = null_scores(spec, 150, 20, 2, 10, rng)
        p = np.concatenate(
            [
                poisson_binomial(
                    scores[r, :, :, 0] - scores[r, :, :, 1], n_train[r], n_test[r]
                ).p_datasets
                for r in range(scores.shape[0])
            ]
        )
        assert sps.kstest(p, "uniform").pvalue > 1e-3


def test_setups_are_validated():
    with pytest.raises(ValueError, match="setups must name null setups"):
        simulate_null_across(5, setups=["normal"])
    with pytest.raises(ValueError, match="must be a dict with keys"):
        simulate_null_across(5, setups={"x": {"sigma": 1}})
    with pytest.raises(ValueError, match="rho must be None or in"):
        simulate_null_across(5, setups={"x": {"per_split": True, "rho": 1.5}})
    with pytest.raises(ValueError, match="per_split must be a bool"):
        simulate_null_across(5, setups={"x": {"per_split": 1}})
    with pytest.raises(ValueError, match="tests must be a non-empty list"):
        simulate_null_across(5, tests=["mcnemar"])
    with pytest.raises(ValueError, match="poisson_binomial needs per-split"):
        simulate_null_across(5, setups="exchangeable", tests="poisson_binomial")


# --------------------------------------------------------------------------
# One experiment: compare_scores against the tests called directly
# --------------------------------------------------------------------------


def test_experiment_decisions_match_the_tests_called_directly():
    rng = np.random.default_rng(3)
    spec = {"df": None, "per_split": True, "test_fraction": 0.5, "rho": None}
    scores, n_train, n_test = null_scores(spec, 4, 12, 3, 10, rng)
    for r in range(scores.shape[0]):
        table = scores[r]
        got = experiment_decisions(
            table,
            n_train[r],
            n_test[r],
            tests=list(_across.TESTS),
            alpha=ALPHA,
            rope=0.0,
            n_samples=500,
            random_state=7,
        )
        means = table.mean(axis=1)
        result = friedman(means, random_state=7)
        # "friedman" is the chi-squared approximation, "friedman_exact" the
        # default permutation p-value.
        assert got["friedman"] == (
            result.pvalue_chi2 < ALPHA,
            pytest.approx(result.pvalue_chi2),
        )
        assert got["friedman_exact"] == (result.reject, pytest.approx(result.pvalue))
        assert got["iman_davenport"][0] == result.iman_davenport.reject
        assert got["nemenyi"][0] == bool(nemenyi(means).reject.any())
        assert got["bonferroni_dunn"][0] == bool(
            bonferroni_dunn(means, control=0).reject.any()
        )
        assert got["holm"][0] == bool(holm(means, control=0).reject.any())
        pairs = [(0, 1), (0, 2), (1, 2)]
        for name, func in (("wilcoxon", wilcoxon), ("sign", sign)):
            raw = np.array([func(means[:, a] - means[:, b]).pvalue for a, b in pairs])
            adjusted = adjust_pvalues(raw, "holm")
            assert got[f"{name}+holm"] == (
                bool(np.any(adjusted < ALPHA)),
                pytest.approx(adjusted.min()),
            )
            assert got[f"{name} (1 pair)"] == (raw[0] < ALPHA, pytest.approx(raw[0]))
        pb = poisson_binomial(table[..., 0] - table[..., 1], n_train[r], n_test[r])
        assert got["poisson_binomial (greater)"] == (
            pb.p_a_better > 1 - ALPHA,
            pytest.approx(pb.p_a_better),
        )
        assert got["poisson_binomial (either)"][1] == pytest.approx(
            max(pb.p_a_better, pb.p_b_better)
        )
        d = means[:, 0] - means[:, 1]
        for name, func in (
            ("bayesian_signed_rank", bayesian_signed_rank),
            ("bayesian_sign", bayesian_sign),
        ):
            bayes = func(d, n_samples=500, random_state=7)
            assert got[f"{name} (greater)"][1] == pytest.approx(bayes.p_a_better)


def test_poisson_binomial_runs_only_with_splits():
    result = simulate_null_across(
        10,
        n_datasets=8,
        n_estimators=2,
        setups=["exchangeable", "per_split"],
        tests=["poisson_binomial", "sign"],
        random_state=0,
    )
    assert "poisson_binomial (greater)" not in result.results["exchangeable"].rates
    assert "poisson_binomial (greater)" in result.results["per_split"].rates
    assert result.tests == [
        "sign+holm",
        "sign (1 pair)",
        "poisson_binomial (either)",
        "poisson_binomial (greater)",
    ]
    assert result.frequentist == ["sign+holm", "sign (1 pair)"]
    assert result.levels["poisson_binomial (either)"] == 2 * ALPHA
    assert "-" in result.to_text() and "====" in result.to_text(rst=True)


# --------------------------------------------------------------------------
# Level and determinism
# --------------------------------------------------------------------------


def test_frequentist_tests_keep_their_level_small():
    result = simulate_null_across(
        250,
        n_datasets=12,
        n_estimators=3,
        setups=["heavy_tailed", "per_split"],
        tests=["friedman", "nemenyi", "bonferroni_dunn", "holm", "wilcoxon", "sign"],
        random_state=0,
    )
    assert result.results["per_split"].n_repetitions == 250
    assert_frequentist_at_most_alpha(result)


def test_poisson_binomial_is_conservative_when_rho_is_matched():
    result = simulate_null_across(
        600,
        setups=["per_split", "per_split_kfold"],
        tests=["poisson_binomial"],
        random_state=0,
    )
    for setup in result.setups:
        for name, reference in (
            ("poisson_binomial (either)", MATCHED_EITHER_N20),
            ("poisson_binomial (greater)", MATCHED_GREATER_N20),
        ):
            low, high = result.results[setup].ci[name]
            assert high < ALPHA and low <= reference, (setup, name)


def test_simulation_is_deterministic_and_independent_of_n_jobs(monkeypatch):
    monkeypatch.setattr(_across, "BLOCK", 7)  # several blocks, several tasks
    kwargs = dict(
        n_datasets=8,
        n_estimators=3,
        setups=["heavy_tailed", "per_split"],
        tests=["friedman", "wilcoxon", "poisson_binomial", "bayesian_sign"],
        n_samples=300,
        random_state=42,
    )
    first = simulate_null_across(20, **kwargs)
    again = simulate_null_across(20, **kwargs)
    parallel = simulate_null_across(20, n_jobs=2, **kwargs)
    for other in (again, parallel):
        for setup in first.setups:
            ours, theirs = first.results[setup], other.results[setup]
            assert ours.tests == theirs.tests
            for name in ours.tests:
                np.testing.assert_array_equal(ours.pvalues[name], theirs.pvalues[name])
                np.testing.assert_array_equal(
                    ours.rejections[name], theirs.rejections[name]
                )
    # A setup's draws depend on its label, not on the other setups asked for.
    alone = simulate_null_across(20, **(kwargs | {"setups": ["per_split"]}))
    np.testing.assert_array_equal(
        alone.results["per_split"].pvalues["wilcoxon (1 pair)"],
        first.results["per_split"].pvalues["wilcoxon (1 pair)"],
    )
    other_seed = simulate_null_across(20, **(kwargs | {"random_state": 43}))
    assert not np.array_equal(
        other_seed.results["per_split"].pvalues["wilcoxon (1 pair)"],
        first.results["per_split"].pvalues["wilcoxon (1 pair)"],
    )


# --------------------------------------------------------------------------
# The study of doc/reproduction.rst (slow)
# --------------------------------------------------------------------------


@pytest.mark.slow
def test_every_frequentist_test_keeps_its_level_on_every_null_setup():
    # N = 20, k = 4, every setup and test: about 2.5 minutes on one core.
    result = simulate_null_across(2000, random_state=1)
    assert_frequentist_at_most_alpha(result)
    # Nemenyi: the rate is the one from random rank tables, in every setup.
    pooled = np.mean([result.results[s].rates["nemenyi"] for s in result.setups])
    se = np.sqrt(NEMENYI_N20_K4 * (1 - NEMENYI_N20_K4) / (5 * 2000))
    assert abs(pooled - NEMENYI_N20_K4) < 3 * se
    for setup in ("per_split", "per_split_kfold"):
        rates = result.results[setup].rates
        assert rates["poisson_binomial (greater)"] < 0.02
        assert rates["poisson_binomial (either)"] < 0.02


@pytest.mark.slow
def test_poisson_binomial_is_liberal_when_the_correlation_is_underestimated():
    # 10-fold sizes (the test assumes rho = 0.1); true rho = 0.7.
    result = simulate_null_across(
        2000,
        setups={"kfold, rho 0.7": {"per_split": True, "rho": 0.7}},
        tests=["poisson_binomial"],
        random_state=1,
    )
    low, _ = result.results["kfold, rho 0.7"].ci["poisson_binomial (greater)"]
    assert low > ALPHA
